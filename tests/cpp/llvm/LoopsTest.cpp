// SPDX-License-Identifier: MIT
// Loop transformations of the C front end (CLoadOptions::loops, issue 6), end to end.
#include <gtest/gtest.h>

#include <string>

#include "porlab/core/Errors.hpp"
#include "porlab/explore/Explorer.hpp"
#include "porlab/llvm/CProgram.hpp"

namespace porlab {
namespace {

// Godot Fig. 2 (a): p polls x until q has written y and x.
const char* kPoll = R"(
#include <pthread.h>
#include <stdatomic.h>
atomic_int x; int y, b;
void *p(void *a) { while (atomic_load(&x) != 1) { } b = y; return 0; }
int main() {
    pthread_t t;
    pthread_create(&t, 0, p, 0);
    y = 42;
    atomic_store(&x, 1);
    pthread_join(t, 0);
    return 0;
}
)";

std::shared_ptr<Program> load(const std::string& loops, int unroll = 3) {
    CLoadOptions o;
    o.unroll = unroll;
    o.loops = loops;
    return loadCSource(kPoll, "poll.c", o);
}

TEST(CLoops, PollingLoopBecomesAssumeOrAwait) {
    EXPECT_EQ(disassembleC(*load("none")).find("__VERIFIER_assume"), std::string::npos);
    EXPECT_NE(disassembleC(*load("spin-assume")).find("__VERIFIER_assume"), std::string::npos);
    EXPECT_NE(disassembleC(*load("plp")).find("__VERIFIER_assume"), std::string::npos);
    const std::string awaited = disassembleC(*load("plp-await"));
    EXPECT_NE(awaited.find("__VERIFIER_load_await_"), std::string::npos);
    EXPECT_EQ(awaited.find("__VERIFIER_assume"), std::string::npos);
}

TEST(CLoops, BlockedExecutionsShrink) {
    const ExploreResult none = explore(*load("none"), "optimal-await");
    const ExploreResult plp = explore(*load("plp"), "optimal-await");
    const ExploreResult await = explore(*load("plp-await"), "optimal-await");
    // Fig. 2 (b): one complete execution and one assume-blocked one; (c): the await, no block.
    EXPECT_EQ(plp.complete, 1U);
    EXPECT_EQ(plp.blocked, 1U);
    EXPECT_EQ(await.complete, 1U);
    EXPECT_EQ(await.blocked, 0U);
    EXPECT_GT(none.complete + none.blocked, plp.complete + plp.blocked);
    EXPECT_FALSE(none.outcomes.empty());
}

TEST(CLoops, UnknownModeIsAnInputError) {
    EXPECT_THROW((void)load("rotate"), InputError);
}

}  // namespace
}  // namespace porlab
