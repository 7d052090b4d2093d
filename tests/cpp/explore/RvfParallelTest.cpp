// SPDX-License-Identifier: MIT
// jobs > 1 for rf and rvf (explore/RvfParallel.hpp): the recursion's child nodes handed to
// another worker give the totals of one job (complete, blocked, errors, block reasons, outcomes,
// error sites) on random programs, with children handed over eagerly (split=eager, nested
// waits included) so that small programs are cut into many tasks; budgets, the poll hook and the
// memory limit stop a parallel run as they stop one. The assertions hold whichever worker
// explores which task.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <sstream>
#include <string>

#include "RandomProgram.hpp"
#include "porlab/core/Errors.hpp"
#include "porlab/explore/Explorer.hpp"

namespace porlab {
namespace {

std::string totals(const ExploreResult& r) {
    std::ostringstream o;
    o << r.complete << "+" << r.blocked << " errors " << r.errors << " outcomes "
      << r.outcomes.size() << " sites " << r.errorSites.size() << " blocked_by";
    for (const auto& [k, v] : r.blockedBy) o << " " << k << "=" << v;
    o << " incomplete";
    for (const auto& x : r.incomplete) o << " " << x;
    return o.str();
}

class RvfParallel : public ::testing::TestWithParam<std::string> {};

INSTANTIATE_TEST_SUITE_P(Explorers, RvfParallel, ::testing::Values("rf", "rvf"));

TEST_P(RvfParallel, RandomProgramsSameTotals) {
    int split = 0;
    for (std::uint64_t seed = 1; seed <= 120; ++seed) {
        auto p = testprog::randomProgram(seed * 7919);
        ExploreOptions one;
        ExploreOptions two;
        two.jobs = 2;
        two.params["split"] = "eager";
        const ExploreResult a = explore(*p, GetParam(), one);
        const ExploreResult b = explore(*p, GetParam(), two);
        EXPECT_EQ(totals(a), totals(b)) << "seed " << seed * 7919;
        EXPECT_EQ(a.outcomes, b.outcomes) << "seed " << seed * 7919;
        EXPECT_EQ(a.errorSites, b.errorSites) << "seed " << seed * 7919;
        EXPECT_EQ(b.stats.at("jobs"), 2);
        split += b.stats.at("parallel_tasks") > 0 ? 1 : 0;
    }
    EXPECT_GT(split, 60);  // most programs were really cut into tasks
}

TEST_P(RvfParallel, SignalsOffSameTotals) {
    // Without backtrack signals every read is mutated: the join takes in no signal, the totals
    // are still those of one job (and of signals on).
    for (std::uint64_t seed = 1; seed <= 30; ++seed) {
        auto p = testprog::randomProgram(seed * 104729);
        ExploreOptions one;
        one.params["backtrack_signals"] = "false";
        ExploreOptions two = one;
        two.jobs = 2;
        two.params["split"] = "eager";
        EXPECT_EQ(totals(explore(*p, GetParam(), one)), totals(explore(*p, GetParam(), two)))
            << "seed " << seed * 104729;
    }
}

// A random program with at least `n` traces (one job, stopped by a traces budget, says so).
std::shared_ptr<const Program> bigProgram(const std::string& explorer, std::uint64_t n) {
    testprog::RandomProgramOptions po;
    po.minThreads = 4;
    po.maxOpsPerThread = 8;
    po.maxInterleavings = 1e12;
    po.asserts = false;
    for (std::uint64_t seed = 1; seed <= 200; ++seed) {
        auto p = testprog::randomProgram(seed, po);
        ExploreOptions o;
        o.maxTraces = n;
        if (explore(*p, explorer, o).budgetReason == "traces") return p;
    }
    return nullptr;
}

TEST_P(RvfParallel, TracesBudgetIsExact) {
    auto p = bigProgram(GetParam(), 200);
    ASSERT_TRUE(p) << "no random program with 200 traces";
    ExploreOptions o;
    o.jobs = 2;
    o.params["split"] = "eager";
    o.maxTraces = 20;
    const ExploreResult r = explore(*p, GetParam(), o);
    EXPECT_EQ(r.traceCount(), 20U);
    EXPECT_TRUE(r.budgetExceeded);
    EXPECT_EQ(r.budgetReason, "traces");
    EXPECT_EQ(r.incomplete, std::vector<std::string>{"traces"});
}

TEST_P(RvfParallel, PollInterruptStopsEveryWorker) {
    // The poll hook says "interrupt" from its third call on: the run stops as a run of one job
    // does (incomplete: interrupted) long before its end (at least 20000 traces).
    auto p = bigProgram(GetParam(), 20000);
    ASSERT_TRUE(p) << "no random program with 20000 traces";
    std::atomic<int> calls{0};
    ExploreOptions o;
    o.jobs = 2;
    o.pollSeconds = 0.005;
    o.poll = [&] { return ++calls >= 3; };
    const ExploreResult r = explore(*p, GetParam(), o);
    EXPECT_GE(calls.load(), 3);
    EXPECT_TRUE(r.budgetExceeded);
    EXPECT_EQ(r.budgetReason, "interrupted");
    EXPECT_EQ(r.incomplete, std::vector<std::string>{"interrupted"});
    EXPECT_LT(r.traceCount(), 20000U);
}

TEST_P(RvfParallel, EventsAndMemoryBudgets) {
    auto p = bigProgram(GetParam(), 20000);
    ASSERT_TRUE(p) << "no random program with 20000 traces";
    ExploreOptions o;
    o.jobs = 2;
    o.maxEvents = 5000;
    ExploreResult r = explore(*p, GetParam(), o);
    EXPECT_EQ(r.incomplete, std::vector<std::string>{"events"});
    EXPECT_LT(r.traceCount(), 20000U);
    ExploreOptions m;
    m.jobs = 2;
    m.maxMemoryBytes = 1;  // below what any process has
    r = explore(*p, GetParam(), m);
    EXPECT_EQ(r.incomplete, std::vector<std::string>{"memory"});
    EXPECT_LT(r.traceCount(), 20000U);
}

TEST_P(RvfParallel, InterruptBeforeTheStart) {
    auto p = testprog::randomProgram(11);
    ExploreControl c;
    c.interrupt = true;
    ExploreOptions o;
    o.jobs = 2;
    o.control = &c;
    const ExploreResult r = explore(*p, GetParam(), o);
    EXPECT_EQ(r.budgetReason, "interrupted");
    EXPECT_EQ(r.incomplete, std::vector<std::string>{"interrupted"});
}

}  // namespace
}  // namespace porlab
