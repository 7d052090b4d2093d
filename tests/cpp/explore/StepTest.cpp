// SPDX-License-Identifier: MIT
// The graph engine's step machinery (explore/graph/Step.hpp) on its own: steps run in the order
// of the recursion they replace, a plain level's deferred undo runs when the step its chain ends
// in ends (before that step's parent goes on, also when it ends by an exception), and nesting
// as deep as an execution is long takes no native stack.
#include <gtest/gtest.h>
#include <pthread.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "porlab/explore/graph/Step.hpp"

using porlab::graph::FrameArena;
using porlab::graph::Step;
using porlab::graph::StepDriver;

namespace {

// The owner of the steps: a log of what ran, and an undo log of the plain levels.
struct Owner {
    FrameArena arena;
    StepDriver driver;
    std::vector<std::string> log;
    std::vector<std::string> undo;  // (what each plain level would remove)

    Owner() {
        driver.setUndo(
            [](void* self, std::uint32_t n) {
                auto& o = *static_cast<Owner*>(self);
                for (; n > 0; --n) {
                    o.log.push_back("undo " + o.undo.back());
                    o.undo.pop_back();
                }
            },
            this);
    }
    FrameArena& stepArena() { return arena; }

    Step leaf(std::string name, bool fail) {
        log.push_back(name);
        if (fail) throw std::runtime_error("leaf failed");
        co_return;
    }
    // Plain levels (no frame) a..: each records its undo, then the chain ends in a leaf step,
    // which carries their undo (or, if there is no step, they are undone at once).
    Step plainChain(int levels, bool withLeaf, bool fail) {
        std::uint32_t added = 0;
        for (int i = 0; i < levels; ++i) {
            const std::string name(1, static_cast<char>('a' + i));
            log.push_back("plain " + name);
            undo.push_back(name);
            ++added;
        }
        Step next = withLeaf ? leaf("leaf", fail) : Step();
        if (next)
            next.deferUndo(added);
        else
            while (added-- > 0) {
                log.push_back("undo " + undo.back());
                undo.pop_back();
            }
        return next;
    }
    Step parent(int levels, bool withLeaf, bool fail) {
        log.push_back("parent before");
        co_await plainChain(levels, withLeaf, fail);
        log.push_back("parent after");
    }
    Step nested(int n, std::int64_t& count) {
        ++count;
        if (n > 0) co_await nested(n - 1, count);
    }
};

TEST(Step, DeferredUndoRunsWhenTheChainsStepEnds) {
    Owner o;
    o.driver.run(o.parent(3, true, false));
    const std::vector<std::string> expect = {"parent before", "plain a", "plain b",
                                             "plain c",       "leaf",    "undo c",
                                             "undo b",        "undo a",  "parent after"};
    EXPECT_EQ(o.log, expect);
    EXPECT_TRUE(o.undo.empty());
}

TEST(Step, AChainWithoutAStepUndoesAtOnce) {
    Owner o;
    o.driver.run(o.parent(2, false, false));
    const std::vector<std::string> expect = {"parent before", "plain a", "plain b",
                                             "undo b",        "undo a",  "parent after"};
    EXPECT_EQ(o.log, expect);
}

TEST(Step, DeferredUndoRunsWhenTheStepThrows) {
    Owner o;
    EXPECT_THROW(o.driver.run(o.parent(2, true, true)), std::runtime_error);
    const std::vector<std::string> expect = {"parent before", "plain a", "plain b",
                                             "leaf",          "undo b",  "undo a"};
    EXPECT_EQ(o.log, expect);  // (the parent does not go on: the exception unwinds it)
    EXPECT_TRUE(o.undo.empty());
}

// A million nested steps on a thread with a 256 KiB stack: the driver's loop resumes one step
// at a time, the frames are in the arena.
TEST(Step, DeepNestingTakesNoNativeStack) {
    struct Arg {
        std::int64_t count = 0;
    } arg;
    pthread_attr_t attr;
    ASSERT_EQ(pthread_attr_init(&attr), 0);
    ASSERT_EQ(pthread_attr_setstacksize(&attr, 256 * 1024), 0);
    pthread_t th;
    auto body = [](void* p) -> void* {
        Owner o;
        o.driver.run(o.nested(1'000'000, static_cast<Arg*>(p)->count));
        return nullptr;
    };
    ASSERT_EQ(pthread_create(&th, &attr, body, &arg), 0);
    ASSERT_EQ(pthread_join(th, nullptr), 0);
    pthread_attr_destroy(&attr);
    EXPECT_EQ(arg.count, 1'000'001);
}

}  // namespace
