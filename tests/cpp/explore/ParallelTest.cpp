// SPDX-License-Identifier: MIT
// jobs > 1 (explore/graph/Parallel.hpp): the graph engine's explorers on two worker threads give
// the totals of one job (complete, blocked, errors, block reasons, outcomes, error sites) on
// random programs, with subtrees handed over eagerly (split=eager: every task splits its whole
// frontier into tasks at its first visit, until 2000 tasks) so that small programs are cut into
// many tasks. A subtree that a donor both handed over and explored, or handed over and lost,
// changes the totals. The assertions hold whichever worker explores which task.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <set>
#include <sstream>
#include <string>

#include "RandomProgram.hpp"
#include "porlab/core/Errors.hpp"
#include "porlab/explore/Explorer.hpp"
#include "porlab/explore/graph/GraphExplorer.hpp"
#include "porlab/explore/graph/Parallel.hpp"

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

class Parallel : public ::testing::TestWithParam<std::string> {};

INSTANTIATE_TEST_SUITE_P(Explorers, Parallel, ::testing::Values("graph", "rf-graph", "lapor"),
                         [](const auto& p) {
                             std::string s = p.param;
                             std::replace(s.begin(), s.end(), '-', '_');
                             return s;
                         });

TEST_P(Parallel, RandomProgramsSameTotals) {
    int split = 0;
    for (std::uint64_t seed = 1; seed <= 120; ++seed) {
        auto p = testprog::randomProgram(seed * 7919);
        ExploreOptions one;
        ExploreOptions two;
        two.jobs = 2 + static_cast<unsigned>(seed % 2);  // (three: two thieves of one frontier)
        two.params["split"] = "eager";
        const ExploreResult a = explore(*p, GetParam(), one);
        const ExploreResult b = explore(*p, GetParam(), two);
        EXPECT_EQ(totals(a), totals(b)) << "seed " << seed * 7919;
        EXPECT_EQ(a.outcomes, b.outcomes) << "seed " << seed * 7919;
        EXPECT_EQ(a.errorSites, b.errorSites) << "seed " << seed * 7919;
        split += b.stats.at("parallel_tasks") > 0 ? 1 : 0;
    }
    EXPECT_GT(split, 60);  // most programs were really cut into tasks
}

TEST(ParallelSplit, CappedSplitsSameTotals) {
    // A split that reaches its cap of graph bytes (split_bytes; 1: after its first task) pushes
    // what it has and its donor explores the rest of its task itself: still every subtree once.
    // (Through exploreParallel with the engine's own class: the cap is not a user option.)
    int split = 0;
    for (std::uint64_t seed = 1; seed <= 60; ++seed) {
        auto p = testprog::randomProgram(seed * 104729);
        auto make = [&](const ExploreOptions& o, ExploreResult& r) {
            return std::make_unique<graph::GraphExplorer>(*p, o, r);
        };
        ExploreOptions one;
        ExploreResult a;
        make(one, a)->run();
        ExploreOptions two;
        two.jobs = 2;
        two.params["split"] = "eager";
        two.params["split_bytes"] = "1";
        const ExploreResult b = graph::exploreParallel(two, make);
        EXPECT_EQ(totals(a), totals(b)) << "seed " << seed * 104729;
        EXPECT_EQ(a.outcomes, b.outcomes) << "seed " << seed * 104729;
        split += b.stats.at("parallel_tasks") > 0 ? 1 : 0;
    }
    EXPECT_GT(split, 30);
}

TEST_P(Parallel, TracesBudgetIsExact) {
    // A program with many traces, stopped by a traces budget: exactly that many are reported,
    // and the result says why it is incomplete.
    testprog::RandomProgramOptions po;
    po.minThreads = 4;
    po.maxOpsPerThread = 6;
    po.maxInterleavings = 1e9;
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
        auto p = testprog::randomProgram(seed, po);
        const ExploreResult all = explore(*p, GetParam(), {});
        if (all.traceCount() < 50) continue;
        ExploreOptions o;
        o.jobs = 2;
        o.params["split"] = "eager";
        o.maxTraces = 20;
        const ExploreResult r = explore(*p, GetParam(), o);
        EXPECT_EQ(r.traceCount(), 20U) << "seed " << seed;
        EXPECT_TRUE(r.budgetExceeded);
        EXPECT_EQ(r.budgetReason, "traces");
        EXPECT_EQ(r.incomplete, std::vector<std::string>{"traces"});
        return;
    }
    FAIL() << "no random program with 50 traces";
}

TEST(ParallelRefused, OtherExplorersSayWhy) {
    auto p = testprog::randomProgram(3);
    ExploreOptions o;
    o.jobs = 2;
    for (const char* name : {"optimal", "optimal-await", "source", "naive"}) {
        try {
            (void)explore(*p, name, o);
            ADD_FAILURE() << name << " accepted jobs = 2";
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find(
                          "jobs > 1 is supported by graph, rf, rf-graph, lapor, rvf"),
                      std::string::npos)
                << e.what();
        }
    }
}

TEST(ParallelRefused, InterruptStopsEveryWorker) {
    testprog::RandomProgramOptions po;
    po.minThreads = 4;
    po.maxInterleavings = 1e9;
    auto p = testprog::randomProgram(11, po);
    ExploreControl c;
    c.interrupt = true;  // set before the start: the run stops at once, as with one job
    ExploreOptions o;
    o.jobs = 2;
    o.control = &c;
    const ExploreResult r = explore(*p, "graph", o);
    EXPECT_TRUE(r.budgetExceeded);
    EXPECT_EQ(r.budgetReason, "interrupted");
    EXPECT_EQ(r.incomplete, std::vector<std::string>{"interrupted"});
}

TEST(ParallelRefused, AWorkerThatCannotMakeItsExplorerFailsTheRun) {
    // Each worker makes its explorer on its own thread, and none starts before all are made: an
    // explorer that cannot be made is the run's error (raised by the caller), not a hang of the
    // workers that wait for the others.
    for (const unsigned jobs : {2U, 3U}) {
        ExploreOptions o;
        o.jobs = jobs;
        std::atomic<unsigned> made{0};
        EXPECT_THROW((void)graph::exploreParallel(o,
                                                  [&](const ExploreOptions&, ExploreResult&)
                                                      -> std::unique_ptr<graph::GraphExplorer> {
                                                      ++made;
                                                      throw InputError("no explorer");
                                                  }),
                     InputError);
        EXPECT_EQ(made.load(), jobs);  // every worker tried
    }
}

}  // namespace
}  // namespace porlab
