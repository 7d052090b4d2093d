// SPDX-License-Identifier: MIT
// Executions far deeper than a native stack could take one call per event: naive, source,
// optimal and optimal-await keep their search on a stack of their own, and the graph engine
// (graph, rf-graph, lapor) runs its recursion as steps on a heap stack (explore/graph/Step.hpp);
// ExplorerInfo::bigStack is false for all of them, so explore() runs them on the caller's
// thread, and a thread with an 8 MiB stack (the usual default; the test makes one to be sure of
// its size) explores an execution of 300,000 events. (The recursive engines these replaced took 112
// bytes of native stack per event in `naive` and 512 in the DPOR engines, by gcc -O2 -fstack-usage:
// 8 MiB held about 75,000 and 16,000 events; the graph engine needed a 512 MiB stack for 100,000.)
#include <gtest/gtest.h>
#include <pthread.h>

#include <map>
#include <string>
#include <thread>

#include "porlab/explore/Explorer.hpp"
#include "porlab/program/SpecBuilder.hpp"

using namespace porlab;

namespace {

constexpr int kDepth = 300'000;

// main: n reads of y (a loop), then spawns b and writes z := 1; b writes z := 2. Every explorer
// reaches depth n before it can branch (naive: the interleavings of the last few events; the
// DPOR explorers: the race on z, reversed from the end of a long execution).
std::shared_ptr<Program> deepProgram(int n) {
    SpecBuilder b("deep");
    const LocId y = b.var("y"), z = b.var("z");
    auto& m = b.thread("main");
    auto& t = b.thread("b", /*autostart=*/false);
    const int i = m.reg("i"), c = m.reg("c");
    m.set(i, 0);
    const int loop = m.here();
    m.load(-1, y).binImm(i, BinOp::Add, i, 1).binImm(c, BinOp::Lt, i, n);
    const int done = m.jumpIfZero(c);
    m.jumpTo(loop);
    m.patchHere(done);
    m.spawn(t.id()).store(z, 1);
    t.store(z, 2);
    return b.build();
}

// main spawns a and b; a reads y n times, then writes z := 1; b writes z := 2. Outside main
// (value/data-centric's preselected thread) one conflicting pair is open: the two writes of z.
std::shared_ptr<Program> deepPairProgram(int n) {
    SpecBuilder b("deep-pair");
    const LocId y = b.var("y"), z = b.var("z");
    auto& m = b.thread("main");
    auto& a = b.thread("a", /*autostart=*/false);
    auto& t = b.thread("b", /*autostart=*/false);
    m.spawn(a.id()).spawn(t.id());
    const int i = a.reg("i"), c = a.reg("c");
    a.set(i, 0);
    const int loop = a.here();
    a.load(-1, y).binImm(i, BinOp::Add, i, 1).binImm(c, BinOp::Lt, i, n);
    const int done = a.jumpIfZero(c);
    a.jumpTo(loop);
    a.patchHere(done);
    a.store(z, 1);
    t.store(z, 2);
    return b.build();
}

struct Job {
    const Program* program;
    std::string explorer;
    ExploreResult result;
    std::thread::id caller, reporter;
    std::string error;
};

void* runJob(void* arg) {
    auto* job = static_cast<Job*>(arg);
    job->caller = std::this_thread::get_id();
    ExploreOptions o;
    o.collectOutcomes = false;
    o.onTrace = [job](const Trace&) { job->reporter = std::this_thread::get_id(); };
    try {
        job->result = explore(*job->program, job->explorer, o);
    } catch (const std::exception& e) {
        job->error = e.what();
    }
    return nullptr;
}

// Runs explore() on a fresh thread whose stack is 8 MiB (or `stack` bytes).
Job exploreOnSmallStack(const Program& p, const std::string& explorer,
                        std::size_t stack = std::size_t{8} << 20) {
    Job job{&p, explorer, {}, {}, {}, {}};
    pthread_attr_t attr;
    EXPECT_EQ(pthread_attr_init(&attr), 0);
    EXPECT_EQ(pthread_attr_setstacksize(&attr, stack), 0);
    pthread_t th;
    EXPECT_EQ(pthread_create(&th, &attr, &runJob, &job), 0);
    pthread_attr_destroy(&attr);
    pthread_join(th, nullptr);
    return job;
}

}  // namespace

TEST(DeepExecution, ExplorersThatDoNotRecurseRunOnTheCallersSmallStack) {
    const auto p = deepProgram(kDepth);
    // After the spawn, z := 1 and z := 2 in either order: two interleavings, two Mazurkiewicz
    // classes (graph: two coherence orders of z). Nothing reads z and every read of y reads
    // its initial value: one reads-from class (rf-graph), one lock-aware class with writes
    // ordered only by reads-from (lapor's default coherence=wb).
    const std::map<std::string, std::uint64_t> expected = {
        {"naive", 2}, {"source", 2},   {"optimal", 2}, {"optimal-await", 2},
        {"graph", 2}, {"rf-graph", 1}, {"lapor", 1}};
    for (const auto& [name, traces] : expected) {
        EXPECT_FALSE(explorerInfo(name).bigStack) << name;
        const Job job = exploreOnSmallStack(*p, name);
        ASSERT_EQ(job.error, "") << name;
        EXPECT_EQ(job.result.complete, traces) << name;
        EXPECT_EQ(job.result.errors + job.result.blocked, 0u) << name;
        EXPECT_FALSE(job.result.budgetExceeded) << name;
        EXPECT_EQ(job.reporter, job.caller) << name << " ran on another thread";
        if (name == "source" || name == "optimal" || name == "optimal-await") {
            EXPECT_GE(job.result.stats.at("max_depth"), static_cast<double>(kDepth)) << name;
        }
    }
}

// rf and rvf: RvfSmc's recursion (a node per read) runs on a stack of frames of its own
// (RvfSmc::explore), so they too run on the caller's 8 MiB stack. The recursive version needed
// a 512 MiB stack thread: each node's frame held its vectors, snapshot and saved trace. The
// program's n reads of y each make one node of the path.
TEST(DeepExecution, RfAndRvfKeepTheirRecursionOnAStackOfTheirOwn) {
    constexpr int kReads = 50'000;
    const auto p = deepProgram(kReads);
    for (const std::string name : {"rf", "rvf"}) {
        EXPECT_FALSE(explorerInfo(name).bigStack) << name;
        const Job job = exploreOnSmallStack(*p, name);
        ASSERT_EQ(job.error, "") << name;
        // z is written twice and never read: one reads-from class, one RVF class.
        EXPECT_EQ(job.result.complete, 1u) << name;
        EXPECT_EQ(job.result.errors + job.result.blocked, 0u) << name;
        EXPECT_EQ(job.reporter, job.caller) << name << " ran on another thread";
        EXPECT_GE(job.result.stats.at("nodes"), static_cast<double>(kReads)) << name;
    }
}

// value-centric and data-centric: the decision tree over open pairs and the linearisation search
// that finds a witness for an orientation are work lists, so they run on the caller's stack too
// (here a 256 KiB one). Orienting z := 2 before z := 1 against rf's witness needs a search that
// places all of a's n reads one by one: with one native frame per placed event it overflowed.
TEST(DeepExecution, ThreadCentricExplorersSearchOnAStackOfTheirOwn) {
    constexpr int kReads = 6'000;
    const auto p = deepPairProgram(kReads);
    for (const std::string name : {"data-centric", "value-centric"}) {
        EXPECT_FALSE(explorerInfo(name).bigStack) << name;
        const Job job = exploreOnSmallStack(*p, name, std::size_t{256} << 10);
        ASSERT_EQ(job.error, "") << name;
        // Both equivalences keep the order of conflicting events outside main (RVF-SMC §3,
        // condition 2): the two orders of the writes of z are two classes.
        EXPECT_EQ(job.result.complete, 2u) << name;
        EXPECT_EQ(job.result.errors + job.result.blocked, 0u) << name;
        EXPECT_EQ(job.reporter, job.caller) << name << " ran on another thread";
        EXPECT_GE(job.result.stats.at("search_states"), static_cast<double>(kReads)) << name;
    }
}
