// SPDX-License-Identifier: MIT
// What every explorer reports beyond counts: why blocked executions stopped, whether the run was
// exhausted, interrupts and polling (issue 14).
#include <gtest/gtest.h>

#include <atomic>
#include <numeric>

#include "TestPrograms.hpp"
#include "porlab/core/Errors.hpp"
#include "porlab/explore/Explorer.hpp"

using namespace porlab;

namespace {

// p: await(x == 1), which nobody writes; q: y := 1. Every execution blocks at p's await.
std::shared_ptr<Program> stuckAwait() {
    SpecBuilder b("stuck");
    auto x = b.var("x"), y = b.var("y");
    auto& p = b.thread("p");
    p.await(p.reg("a"), x, AwaitCond::EQ, 1);
    b.thread("q").store(y, 1);
    return b.build();
}

// n threads each writing x twice: (2n)!/2^n interleavings.
std::shared_ptr<Program> writers(int n) {
    SpecBuilder b("writers");
    auto x = b.var("x");
    for (int i = 0; i < n; ++i) b.thread("t" + std::to_string(i)).store(x, i).store(x, i + 10);
    return b.build();
}

std::uint64_t sum(const std::map<std::string, std::uint64_t>& m) {
    return std::accumulate(m.begin(), m.end(), std::uint64_t{0},
                           [](std::uint64_t a, const auto& kv) { return a + kv.second; });
}

}  // namespace

class ReporterEveryExplorer : public ::testing::TestWithParam<std::string> {};

// Every explorer names the await as the reason, and the reasons add up to the blocked count.
TEST_P(ReporterEveryExplorer, BlockedByAwaitAddsUp) {
    const auto r = explore(*stuckAwait(), GetParam());
    EXPECT_EQ(r.complete, 0u);
    ASSERT_GT(r.blocked, 0u);
    EXPECT_EQ(sum(r.blockedBy), r.blocked);
    EXPECT_EQ(r.blockedBy.count("await"), 1u) << GetParam();
    ASSERT_EQ(r.blockSites.size(), 1u);
    EXPECT_EQ(r.blockSites[0].reason, "await");
    EXPECT_EQ(r.blockSites[0].traces, r.blocked);
    EXPECT_TRUE(r.incomplete.empty());
}

// An interrupt set before the run starts stops it at the first check, as a budget does.
TEST_P(ReporterEveryExplorer, InterruptStopsLikeABudget) {
    ExploreControl control;
    control.interrupt = true;
    ExploreOptions o;
    o.control = &control;
    const auto r = explore(*writers(6), GetParam(), o);
    EXPECT_TRUE(r.budgetExceeded);
    EXPECT_EQ(r.budgetReason, "interrupted");
    EXPECT_EQ(r.incomplete, std::vector<std::string>{"interrupted"});
    EXPECT_LE(r.events, 300u) << "stops within a few hundred events";
}

namespace {
std::string testName(const ::testing::TestParamInfo<std::string>& p) {
    std::string n = p.param;
    for (char& c : n)
        if (c == '-') c = '_';
    return n;
}
}  // namespace

INSTANTIATE_TEST_SUITE_P(All, ReporterEveryExplorer,
                         ::testing::Values("naive", "source", "optimal", "optimal-await", "graph",
                                           "rf", "rf-graph", "lapor", "rvf"),
                         testName);

TEST(ReporterTest, ExhaustedRunHasNoIncompleteReason) {
    const auto r = explore(*testprog::storeBuffering(), "optimal");
    EXPECT_TRUE(r.incomplete.empty());
    EXPECT_FALSE(r.budgetExceeded);
}

TEST(ReporterTest, TracesBudgetIsIncomplete) {
    ExploreOptions o;
    o.maxTraces = 5;
    const auto r = explore(*writers(5), "naive", o);
    EXPECT_EQ(r.traceCount(), 5u);
    EXPECT_EQ(r.incomplete, std::vector<std::string>{"traces"});
}

// The poller runs on the calling thread while the explorer runs on its own; returning true
// interrupts the run, and the live counters it reads grow.
TEST(ReporterTest, PollRunsOnTheCallerAndCanInterrupt) {
    ExploreControl control;
    ExploreOptions o;
    o.control = &control;
    o.pollSeconds = 0.001;
    int polls = 0;
    o.poll = [&] { return ++polls >= 3; };
    const auto r = explore(*writers(7), "naive", o);  // 681,080,400 interleavings
    EXPECT_GE(polls, 3);
    EXPECT_EQ(r.budgetReason, "interrupted");
    EXPECT_EQ(control.progress.complete.load(), r.complete);
    EXPECT_EQ(control.progress.events.load(), r.events);
}

// A poller without a control block of its own still interrupts (explore() lends one).
TEST(ReporterTest, PollWithoutControlBlock) {
    ExploreOptions o;
    o.pollSeconds = 0.001;
    o.poll = [] { return true; };
    const auto r = explore(*writers(7), "optimal", o);
    EXPECT_EQ(r.budgetReason, "interrupted");
}

TEST(ReporterTest, MemoryBudget) {
    ExploreOptions o;
    o.maxMemoryBytes = 1;  // below any process: the first memory check stops the run
    const auto r = explore(*writers(7), "naive", o);
    EXPECT_EQ(r.incomplete, std::vector<std::string>{"memory"});
    EXPECT_GT(defaultMemoryBudget(), 0u);
    EXPECT_GT(currentResidentBytes(), 0u);
}

TEST(ReporterTest, OptionValuesAreCheckedAndNormalised) {
    ExploreOptions o;
    o.params = {{"can_stop", "False"}};
    EXPECT_EQ(explore(*testprog::storeBuffering(), "optimal-await", o).complete, 3u);
    o.params = {{"can_stop", "perhaps"}};
    EXPECT_THROW((void)explore(*testprog::storeBuffering(), "optimal-await", o), InputError);
    o.params = {{"coherence", "sc"}};
    EXPECT_THROW((void)explore(*testprog::storeBuffering(), "lapor", o), InputError);
    o.params = {{"coherence", "mo"}};
    EXPECT_EQ(explore(*testprog::storeBuffering(), "lapor", o).complete, 3u);
}

TEST(ReporterTest, MergeAddsReasonsAndSites) {
    ExploreResult a = explore(*stuckAwait(), "naive");
    ExploreOptions o;
    o.maxTraces = 1;
    ExploreResult b = explore(*stuckAwait(), "naive", o);
    const auto blockedA = a.blocked;
    mergeResult(a, std::move(b));
    EXPECT_EQ(a.blocked, blockedA + 1);
    EXPECT_EQ(a.blockedBy.at("await"), a.blocked);
    ASSERT_EQ(a.blockSites.size(), 1u);
    EXPECT_EQ(a.blockSites[0].traces, a.blocked);
    EXPECT_EQ(a.incomplete, std::vector<std::string>{"traces"});
}
