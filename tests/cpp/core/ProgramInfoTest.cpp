// SPDX-License-Identifier: MIT
// What a trace shows beyond events: call stacks (CallContexts), assertion texts, values named by
// the program.
#include <gtest/gtest.h>

#include <memory>

#include "porlab/core/Trace.hpp"

using namespace porlab;

// main -> worker (called at f.c:10) -> push (called at f.c:3): one id per distinct stack, the
// same id when interned again, frames innermost first, each at its call of the next inner one.
TEST(CallContexts, InternsStacksOnceAndListsThemInnermostFirst) {
    CallContexts c({"main", "worker", "push"});
    EXPECT_EQ(c.size(), 1u);  // context 0: unknown
    const auto main = c.intern(0, 0, {});
    const auto worker = c.intern(main, 1, {1, 10});
    const auto push = c.intern(worker, 2, {1, 3});
    EXPECT_NE(main, 0u);
    EXPECT_NE(worker, main);
    EXPECT_EQ(c.intern(worker, 2, {1, 3}), push);
    EXPECT_NE(c.intern(worker, 2, {1, 4}), push);  // another call site, another stack
    EXPECT_EQ(c.size(), 5u);
    const auto f = c.frames(push);
    ASSERT_EQ(f.size(), 3u);
    EXPECT_EQ(f[0].function, "push");
    EXPECT_EQ(f[0].pos, (SourcePos{}));
    EXPECT_EQ(f[1].function, "worker");
    EXPECT_EQ(f[1].pos, (SourcePos{1, 3}));
    EXPECT_EQ(f[2].function, "main");
    EXPECT_EQ(f[2].pos, (SourcePos{1, 10}));
    EXPECT_EQ(c.function(push), "push");
    EXPECT_EQ(c.function(0), "");
    EXPECT_TRUE(c.frames(0).empty());
}

// A recursion 100 deep: its stack is shown up to maxDepth frames, then "...".
TEST(CallContexts, DeepStacksAreCut) {
    CallContexts c({"f"});
    std::uint32_t ctx = c.intern(0, 0, {});
    for (int i = 0; i < 100; ++i) ctx = c.intern(ctx, 0, {1, 7});
    const auto f = c.frames(ctx, 8);
    ASSERT_EQ(f.size(), 9u);
    EXPECT_EQ(f[7].function, "f");
    EXPECT_EQ(f.back().function, "...");
}

namespace {

struct Names final : ValueNames {
    std::string pointer(Value v) const override { return v == 0 ? "NULL" : v == 16 ? "&x" : ""; }
    std::string special(Value v) const override { return v == -1 ? "(dead)" : ""; }
    std::vector<ObjectInfo> objects(const std::vector<Event>&) const override { return {}; }
    SourcePos choiceSite(ThreadId, int) const override { return {}; }
};

}  // namespace

// Events shown with the program's names: a pointer read, the assertion's text, a free, a stack.
TEST(TraceDisplay, DescribesWithTheProgramsNames) {
    auto info = std::make_shared<ProgramInfo>();
    info->threadNames = {"main"};
    info->locationNames = {"p", "q"};
    info->files = {"", "f.c"};
    info->messages = {"assertion `p != 0' failed"};
    info->values = std::make_shared<Names>();
    info->contexts = std::make_shared<CallContexts>(std::vector<std::string>{"main", "check"});
    const auto mainCtx = info->contexts->intern(0, 0, {});
    const auto checkCtx = info->contexts->intern(mainCtx, 1, {1, 9});

    Event read;
    read.kind = EventKind::Read;
    read.loc = 0;
    read.rval = 16;
    read.pointer = true;
    read.pos = {1, 4};
    read.ctx = checkCtx;
    EXPECT_EQ(describe(read, info.get()), "read p -> &x");
    Event number = read;
    number.pointer = false;  // the same bits, not a pointer: a number
    EXPECT_EQ(describe(number, info.get()), "read p -> 16");
    Event dead = number;
    dead.rval = -1;
    EXPECT_EQ(describe(dead, info.get()), "read p -> (dead)");

    Event free;
    free.kind = EventKind::Exchange;
    free.loc = 1;
    free.aux = kFreeAux;
    free.index = 1;
    free.ctx = mainCtx;
    EXPECT_EQ(describe(free, info.get()), "free q");

    Event fail;
    fail.kind = EventKind::AssertFail;
    fail.aux = 0;
    fail.index = 2;
    fail.pos = {1, 5};
    fail.ctx = checkCtx;
    EXPECT_EQ(describe(fail, info.get()), "assertion `p != 0' failed");
    fail.aux = -1;
    EXPECT_EQ(describe(fail, info.get()), "assertion failure");  // no text known
    fail.aux = 0;

    read.index = 0;
    Trace t({read, free, fail}, TraceStatus::Error, info);
    EXPECT_EQ(t.function(0), "check");
    EXPECT_EQ(t.stackText(0), "check <- main");
    const auto st = t.stack(2);
    ASSERT_EQ(st.size(), 2u);
    EXPECT_EQ(st[0].pos, (SourcePos{1, 5}));  // the event itself
    EXPECT_EQ(st[1].pos, (SourcePos{1, 9}));  // main's call of check
    EXPECT_EQ(t.errorPosition(), 2);
    EXPECT_EQ(t.errorMessage(), "assertion `p != 0' failed");
    const std::string text = t.toString();
    EXPECT_NE(text.find("check <- main"), std::string::npos) << text;
    EXPECT_NE(text.find("read p -> &x"), std::string::npos) << text;
    const std::string dot = t.toDot();
    EXPECT_NE(dot.find("label=\"assertion `p != 0' failed\""), std::string::npos) << dot;
    EXPECT_NE(dot.find("fillcolor"), std::string::npos) << dot;
}

// Thread names beyond the width are shortened, and every row's event starts in one column.
TEST(TraceDisplay, ColumnsFitLongThreadNames) {
    auto info = std::make_shared<ProgramInfo>();
    info->threadNames = {"main", "t1:a_thread_function_with_a_very_long_name"};
    info->locationNames = {"x"};
    info->files = {"", "f.c"};
    Event a;
    a.kind = EventKind::Write;
    a.loc = 0;
    a.wval = 1;
    a.pos = {1, 3};
    Event b = a;
    b.thread = 1;
    b.pos = {1, 12};
    Trace t({a, b}, TraceStatus::Complete, info);
    const std::string text = t.toString(16);
    std::vector<std::string> lines;
    for (std::size_t at = 0, nl; (nl = text.find('\n', at)) != std::string::npos; at = nl + 1)
        lines.push_back(text.substr(at, nl - at));
    ASSERT_EQ(lines.size(), 3u) << text;
    EXPECT_EQ(lines[2].substr(0, 16), "t1:a_thread_f...");
    const auto col = lines[1].find("write x := 1");
    EXPECT_EQ(lines[2].find("write x := 1"), col);
    EXPECT_EQ(lines[0].find("event"), col);
    EXPECT_LE(col, 16u + 2 + 6 + 2);  // thread (shortened), source, their gaps
}
