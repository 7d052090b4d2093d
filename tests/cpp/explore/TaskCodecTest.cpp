// SPDX-License-Identifier: MIT
// Tasks as bytes (explore/graph/TaskCodec.hpp) for distributed runs: a task decoded by a fresh
// engine (another Program object of the same program) explores exactly the subtree it came
// from. A run that splits every task as soon as it starts (each task publishes every subtree it
// does not explore itself) and explores every published task on a fresh program gives the
// totals of one sequential run, the same outcomes and error sites; each failing prefix is
// counted once (the driver's rule). Decoding and encoding again gives the same bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include "RandomProgram.hpp"
#include "porlab/core/Errors.hpp"
#include "porlab/explore/Explorer.hpp"
#include "porlab/explore/graph/Parallel.hpp"
#include "porlab/explore/graph/TaskCodec.hpp"

namespace porlab {
namespace {

constexpr std::uint64_t kProgramId = 0x1234abcd;

struct Totals {
    std::uint64_t complete = 0, blocked = 0, otherErrors = 0, tasks = 0;
    std::set<std::pair<std::uint64_t, std::uint64_t>> failures;
    std::map<std::string, std::uint64_t> blockedBy;
    std::unordered_set<std::vector<Value>, VectorHash> outcomes;
    std::set<ErrorSite> sites;
    [[nodiscard]] std::uint64_t errors() const { return otherErrors + failures.size(); }
};

// Explores every task, each on a fresh program, splitting at once; batch > 1: up to that many
// tasks at a time by one explorer (TaskRun::more), as a Dask worker does.
Totals distributed(std::uint64_t seed, const testprog::RandomProgramOptions& po,
                   const std::string& explorer, bool checkRoundTrip, std::size_t batch = 1) {
    Totals t;
    std::vector<std::string> todo{graph::encodeRootTask(kProgramId, explorer)};
    while (!todo.empty()) {
        const std::string task = std::move(todo.back());
        todo.pop_back();
        std::vector<std::string> more;
        while (more.size() + 1 < batch && !todo.empty()) {
            more.push_back(std::move(todo.back()));
            todo.pop_back();
        }
        auto p = testprog::randomProgram(seed, po);  // a fresh program: its own engine
        if (checkRoundTrip && !graph::taskHeader(task).root) {
            graph::ExecutionGraph g;
            std::vector<graph::Ref> order;
            graph::decodeTask(*p, task, kProgramId, explorer, explorer == "lapor", g, order);
            EXPECT_EQ(graph::encodeTask({kProgramId, explorer, false}, g, order), task);
        }
        graph::TaskRun run;
        run.program = p.get();
        run.input = task;
        run.more = more;
        run.programId = kProgramId;
        run.explorer = explorer;
        run.splitAfterSeconds = -1;  // split at once
        ExploreOptions o;
        o.taskRun = &run;
        const ExploreResult r = explore(*p, explorer, o);
        EXPECT_EQ(run.explored, 1 + more.size());  // (every task of the batch was started)
        t.tasks += run.explored;
        t.complete += r.complete;
        t.blocked += r.blocked;
        t.otherErrors += r.errors - run.failures.size();
        t.failures.insert(run.failures.begin(), run.failures.end());
        for (const auto& [k, v] : r.blockedBy) t.blockedBy[k] += v;
        t.outcomes.insert(r.outcomes.begin(), r.outcomes.end());
        t.sites.insert(r.errorSites.begin(), r.errorSites.end());
        for (auto& s : run.output) todo.push_back(std::move(s));
    }
    return t;
}

class TaskCodec : public ::testing::TestWithParam<std::string> {};

INSTANTIATE_TEST_SUITE_P(Explorers, TaskCodec, ::testing::Values("graph", "rf-graph", "lapor"),
                         [](const auto& p) {
                             std::string s = p.param;
                             std::replace(s.begin(), s.end(), '-', '_');
                             return s;
                         });

TEST_P(TaskCodec, SplitEverywhereSameTotals) {
    testprog::RandomProgramOptions po;
    int split = 0;
    for (std::uint64_t seed = 1; seed <= 25; ++seed) {
        auto p = testprog::randomProgram(seed * 7919, po);
        const ExploreResult a = explore(*p, GetParam(), {});
        const Totals b = distributed(seed * 7919, po, GetParam(), seed <= 10);
        const std::string at = "seed " + std::to_string(seed * 7919);
        EXPECT_EQ(a.complete, b.complete) << at;
        EXPECT_EQ(a.blocked, b.blocked) << at;
        EXPECT_EQ(a.errors, b.errors()) << at;
        EXPECT_EQ(a.blockedBy, b.blockedBy) << at;
        EXPECT_EQ(a.outcomes, b.outcomes) << at;
        EXPECT_EQ(std::set<ErrorSite>(a.errorSites.begin(), a.errorSites.end()), b.sites) << at;
        split += b.tasks > 3 ? 1 : 0;
    }
    EXPECT_GT(split, 15);  // most programs were cut into several tasks
}

TEST_P(TaskCodec, BatchesSameTotals) {
    // Several tasks per explorer: the explorer's state carried from one task to the next (its
    // Reporter, the failing prefixes seen, the graph and witness) changes nothing.
    testprog::RandomProgramOptions po;
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
        auto p = testprog::randomProgram(seed * 104729, po);
        const ExploreResult a = explore(*p, GetParam(), {});
        const Totals b = distributed(seed * 104729, po, GetParam(), false, 4);
        const std::string at = "seed " + std::to_string(seed * 104729);
        EXPECT_EQ(a.complete, b.complete) << at;
        EXPECT_EQ(a.blocked, b.blocked) << at;
        EXPECT_EQ(a.errors, b.errors()) << at;
        EXPECT_EQ(a.blockedBy, b.blockedBy) << at;
        EXPECT_EQ(a.outcomes, b.outcomes) << at;
        EXPECT_EQ(std::set<ErrorSite>(a.errorSites.begin(), a.errorSites.end()), b.sites) << at;
    }
}

TEST(TaskCodecInput, RefusesWhatIsNotItsTask) {
    auto p = testprog::randomProgram(5);
    graph::ExecutionGraph g;
    std::vector<graph::Ref> order;
    auto refused = [&](const std::string& bytes, std::uint64_t id, const std::string& ex,
                       const std::string& what) {
        try {
            graph::decodeTask(*p, bytes, id, ex, false, g, order);
            ADD_FAILURE() << "accepted: " << what;
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
        }
    };
    refused("", kProgramId, "graph", "not a porlab task");
    refused("PLTK\x01", kProgramId, "graph", "not a porlab task");
    refused(std::string("PLTK\x07", 5), kProgramId, "graph", "format version 7");
    // A real task of another program id / explorer / truncated.
    graph::TaskRun run;
    run.program = p.get();
    run.input = graph::encodeRootTask(kProgramId, "graph");
    run.programId = kProgramId;
    run.explorer = "graph";
    run.splitAfterSeconds = -1;  // split at once
    ExploreOptions o;
    o.taskRun = &run;
    (void)explore(*p, "graph", o);
    ASSERT_FALSE(run.output.empty());
    const std::string& task = run.output.front();
    refused(task, kProgramId + 1, "graph", "another program");
    refused(task, kProgramId, "lapor", "made for explorer 'graph'");
    refused(task.substr(0, task.size() - 1), kProgramId, "graph", "not a porlab task");
}

TEST(TaskCodecInput, OtherExplorersHaveNoTaskForm) {
    auto p = testprog::randomProgram(3);
    graph::TaskRun run;
    run.program = p.get();
    run.input = graph::encodeRootTask(kProgramId, "optimal");
    run.programId = kProgramId;
    run.explorer = "optimal";
    ExploreOptions o;
    o.taskRun = &run;
    const ExploreResult r = explore(*p, "optimal", o);
    EXPECT_EQ(r.stats.count("task_published"), 0U);  // (the binding refuses it for that reason)
}

}  // namespace
}  // namespace porlab
