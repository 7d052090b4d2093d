// SPDX-License-Identifier: MIT
// The `rvf` explorer (RVF-SMC with VerifySC) against the exhaustive `naive` oracle:
//  * the same outcomes and the same error sites as naive;
//  * never two complete traces in one RVF class, and never more complete traces than RVF
//    classes (RVF-SMC may explore fewer: "Beyond RVF partitioning");
//  * every complete trace and every blocked trace is a class naive has;
// on the hand-written programs and on seeded random programs (500 + 250 sync-heavy by default,
// PORLAB_RANDOM_PROGRAMS overrides); plus the paper's numbers (Figures 1, 6, 13), the ablation
// options (same results, other work) and the statistics.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <sstream>

#include "RandomProgram.hpp"
#include "RvfRun.hpp"
#include "TestPrograms.hpp"
#include "porlab/core/Errors.hpp"
#include "porlab/explore/PartitionSizes.hpp"
#include "porlab/explore/RvfSmc.hpp"
#include "porlab/program/SpecBuilder.hpp"

using namespace porlab;

namespace {

struct RvfOracle {
    ExploreResult run;
    std::set<Key> complete, blocked;
};

RvfOracle rvfOracle(const Program& p) {
    RvfOracle o;
    ExploreOptions opts;
    opts.onTrace = [&](const Trace& t) {
        if (t.status() == TraceStatus::Complete) o.complete.insert(traceKey(Equivalence::Rvf, t));
        if (t.status() == TraceStatus::Blocked) o.blocked.insert(traceKey(Equivalence::Rvf, t));
    };
    o.run = exploreNaive(p, opts);
    return o;
}

ExploreResult runRvf(const Program& p, const std::map<std::string, std::string>& params = {},
                     const std::function<void(const Trace&)>& onTrace = {}) {
    ExploreOptions o;
    o.params = params;
    o.onTrace = onTrace;
    return explore(p, "rvf", o);
}

// Empty when rvf conforms on p; otherwise what is wrong.
std::string checkRvf(const Program& p, const RvfOracle& o,
                     const std::map<std::string, std::string>& params = {}) {
    std::ostringstream msg;
    std::set<Key> complete, blocked;
    std::uint64_t dupComplete = 0;
    ExploreResult r;
    try {
        r = runRvf(p, params, [&](const Trace& t) {
            if (t.status() == TraceStatus::Complete &&
                !complete.insert(traceKey(Equivalence::Rvf, t)).second)
                ++dupComplete;
            if (t.status() == TraceStatus::Blocked) blocked.insert(traceKey(Equivalence::Rvf, t));
        });
    } catch (const std::exception& e) {
        return std::string(" exception: ") + e.what();
    }
    if (r.outcomes != o.run.outcomes) {
        std::size_t missing = 0, extra = 0;
        for (const auto& x : o.run.outcomes) missing += r.outcomes.count(x) == 0;
        for (const auto& x : r.outcomes) extra += o.run.outcomes.count(x) == 0;
        msg << " outcomes: " << missing << " missing, " << extra << " unreachable;";
    }
    if (r.errorSites != o.run.errorSites)
        msg << " error sites " << r.errorSites.size() << " vs naive " << o.run.errorSites.size()
            << ";";
    if (dupComplete) msg << " " << dupComplete << " complete traces repeat an RVF class;";
    if (r.complete > o.complete.size())
        msg << " " << r.complete << " complete traces > " << o.complete.size() << " RVF classes;";
    if (!std::includes(o.complete.begin(), o.complete.end(), complete.begin(), complete.end()) ||
        !std::includes(o.blocked.begin(), o.blocked.end(), blocked.begin(), blocked.end()))
        msg << " a reported class naive does not have;";
    if (r.budgetExceeded) msg << " budget exceeded;";
    return msg.str();
}

int randomProgramCount() {
    if (const char* s = std::getenv("PORLAB_RANDOM_PROGRAMS")) return std::max(1, std::atoi(s));
    return 500;
}

void runFamily(int n, std::uint64_t seedBase, const testprog::RandomProgramOptions& popts,
               const std::map<std::string, std::string>& params = {}) {
    int failures = 0;
    for (int i = 0; i < n; ++i) {
        const std::uint64_t seed = seedBase + static_cast<std::uint64_t>(i) + 1;
        auto p = testprog::randomProgram(seed, popts);
        const auto o = rvfOracle(*p);
        const auto m = checkRvf(*p, o, params);
        if (!m.empty() && ++failures <= 10)
            ADD_FAILURE() << "random program seed " << seed
                          << (popts.syncHeavy ? " (syncHeavyOptions)" : "") << ":" << m;
    }
    EXPECT_EQ(failures, 0) << "of " << n << " random programs";
}

std::uint64_t rvfComplete(const Program& p) { return runRvf(p).complete; }

// RVF Figure 6: thr1 = w1(x,1) r1(x) w2(y,1); thr2 = w3(x,1) w4(y,1) r2(y) w5(x,2).
std::shared_ptr<Program> rvfFig6() {
    SpecBuilder b("rvf_fig6");
    auto x = b.var("x"), y = b.var("y");
    b.thread("thr1").store(x, 1).load(-1, x).store(y, 1);
    b.thread("thr2").store(x, 1).store(y, 1).load(-1, y).store(x, 2);
    return b.build();
}

// RVF Figure 13a: thread1 = n × w(x,1); thread2 = n × (w(x,1); r(x)); thread3 = n × w(x,1).
std::shared_ptr<Program> rvfFig13a(int n) {
    SpecBuilder b("rvf_fig13a");
    auto x = b.var("x");
    auto& t1 = b.thread("thread1");
    auto& t2 = b.thread("thread2");
    auto& t3 = b.thread("thread3");
    for (int i = 0; i < n; ++i) {
        t1.store(x, 1);
        t2.store(x, 1).load(-1, x);
        t3.store(x, 1);
    }
    return b.build();
}

// RVF Figure 13b: as 13a, spread over variables x1..xn.
std::shared_ptr<Program> rvfFig13b(int n) {
    SpecBuilder b("rvf_fig13b");
    std::vector<LocId> xs;
    for (int i = 0; i < n; ++i) xs.push_back(b.var("x" + std::to_string(i + 1)));
    auto& t1 = b.thread("thread1");
    auto& t2 = b.thread("thread2");
    auto& t3 = b.thread("thread3");
    for (int i = 0; i < n; ++i) {
        t1.store(xs[i], 1);
        t2.store(xs[i], 1).load(-1, xs[i]);
        t3.store(xs[i], 1);
    }
    return b.build();
}

// Unread writes of different values: one RVF class, two final memories.
//   t0: x := 1      t1: x := 2
std::shared_ptr<Program> twoWriters() {
    SpecBuilder b("two_writers");
    auto x = b.var("x");
    b.thread("t0").store(x, 1);
    b.thread("t1").store(x, 2);
    return b.build();
}

// An await that stays blocked only when the writes end in one order:
//   t0: x := 1      t1: x := 2      t2: await(x == 2)
std::shared_ptr<Program> awaitFinalOrder() {
    SpecBuilder b("await_final_order");
    auto x = b.var("x");
    b.thread("t0").store(x, 1);
    b.thread("t1").store(x, 2);
    auto& t2 = b.thread("t2");
    t2.await(t2.reg("r"), x, AwaitCond::EQ, 2);
    return b.build();
}

// A write followed by a failing assertion: nobody can read x == 1 (the execution stops), so the
// assertion of t1 on x == 1 never fails first.
//   t0: x := 1; assert(false)      t1: r = x; assert(r != 1)
std::shared_ptr<Program> hiddenFailingWrite() {
    SpecBuilder b("hidden_failing_write");
    auto x = b.var("x");
    auto& t0 = b.thread("t0");
    t0.store(x, 1).assertTrue(t0.constant(0));
    auto& t1 = b.thread("t1");
    const int r = t1.reg("r"), ok = t1.reg("ok");
    t1.load(r, x).binImm(ok, BinOp::Ne, r, 1).assertTrue(ok);
    return b.build();
}

// CAS rotation: thread i moves x from i to i + 1 once (casrot.c of the shared benchmarks). Every
// value is written once, so every read has one good write and RVF classes are reads-from ones.
std::shared_ptr<Program> casRotation(int n) {
    SpecBuilder b("cas_rotation");
    auto x = b.var("x");
    for (int i = 0; i < n; ++i) {
        auto& t = b.thread("t" + std::to_string(i));
        t.cas(t.reg("old"), t.reg("ok"), x, i, i + 1);
    }
    return b.build();
}

// A read hides a write from a later read: t0's r' = x comes after t0's w = (x := 1) and its
// good writes (x == 2: t2's write) do not include w, so t1's read of x, after r' by y, cannot
// read w (t2's write comes between in every witness).
//   t0: x := 1; r' = x; y := 1      t1: b = y; c = x      t2: x := 2
std::shared_ptr<Program> hiddenByARead() {
    SpecBuilder b("hidden_by_a_read");
    auto x = b.var("x"), y = b.var("y");
    auto& t0 = b.thread("t0");
    t0.store(x, 1).load(t0.reg("a"), x).store(y, 1);
    auto& t1 = b.thread("t1");
    t1.load(t1.reg("b"), y).load(t1.reg("c"), x);
    b.thread("t2").store(x, 2);
    return b.build();
}

}  // namespace

// The default engine orders a read after what comes before all its good writes (the saturated
// order's part that every witness shares) and takes witnesses from the parent's trace (the read
// inserted, or moved before the future of the writes that hide its source); classic keeps
// program order and asks VerifySC every time. Same results on the random family, with each
// fast path taken (an unsound clock hides a write some class reads; an unsound witness
// reports a class that has none, or misses one).
TEST(Rvf, SaturatedOrderAndWitnessesMatchClassic) {
    const int n = std::max(1, randomProgramCount() / 2);
    double inserted = 0, inPlace = 0, postponed = 0, fromSnap = 0, calls = 0, classicCalls = 0;
    int bad = 0;
    ExploreOptions classic;
    classic.params["engine"] = "classic";
    for (int i = 0; i < n; ++i) {
        const std::uint64_t seed = 7000000 + static_cast<std::uint64_t>(i);
        auto p = testprog::randomProgram(
            seed, i % 2 ? testprog::syncHeavyOptions() : testprog::RandomProgramOptions{});
        const auto r = runRvf(*p);
        const auto c = explore(*p, "rvf", classic);
        // (Not the number of error traces: one is reported per causal past with its sources
        // as the witness has them, and under RVF two witnesses may read the same value from
        // different writes.)
        const bool same = r.complete == c.complete && r.blocked == c.blocked &&
                          r.outcomes == c.outcomes && r.errorSites == c.errorSites &&
                          !r.budgetExceeded;
        if (!same && ++bad <= 5)
            ADD_FAILURE() << "seed " << seed << ": complete " << r.complete << " vs classic "
                          << c.complete << ", blocked " << r.blocked << " vs " << c.blocked;
        inserted += r.stats.at("verifysc_inserted");
        inPlace += r.stats.at("replays_avoided");
        postponed += r.stats.at("verifysc_postponed");
        fromSnap += r.stats.at("replays_from_snapshot");
        calls += r.stats.at("verifysc_calls") + r.stats.at("outcome_verifysc_calls");
        classicCalls += c.stats.at("verifysc_calls") + c.stats.at("outcome_verifysc_calls");
    }
    EXPECT_GT(inserted, 0.0);
    EXPECT_GT(inPlace, 0.0);
    EXPECT_GT(postponed, 0.0);
    EXPECT_GT(fromSnap, 0.0);
    EXPECT_LT(calls, classicCalls);
}

// On CAS rotation every child a program-order filter lets through and VerifySC's closure then
// rejects (a failed CAS reading a value that a CAS in its causal past overwrote, a final value
// overwritten in every witness) is filtered by the saturated order: no VerifySC call that the
// closure rejects. Likewise a write hidden by a read of the causal past (hiddenByARead).
TEST(Rvf, SaturatedVisibleWritesLeaveNothingToTheClosure) {
    for (const auto& p : {casRotation(5), hiddenByARead()}) {
        const auto r = runRvf(*p);
        EXPECT_EQ(r.stats.at("verifysc_calls"), 0.0);
        EXPECT_EQ(r.stats.at("closure_rejections"), 0.0);
        ExploreOptions classic;
        classic.params["engine"] = "classic";
        const auto c = explore(*p, "rvf", classic);
        EXPECT_GT(c.stats.at("closure_rejections"), 0.0);  // (what the filter spares)
        EXPECT_EQ(r.complete, c.complete);
        EXPECT_EQ(r.complete,
                  partitionSizes(*p).classes[static_cast<int>(Equivalence::Rvf)].complete);
        EXPECT_TRUE(r.outcomes == c.outcomes);
    }
}

// The saturated clocks (RvfSmcSaturate.cpp) refute a child before VerifySC when every write
// of the value it needs comes before another write of the location that comes before the
// read. With checkRefutations every refuted child goes to VerifySC as well, which throws if it
// finds a witness (a refutation that drops a class): on the random families the refutations
// agree with VerifySC, the results stay those of naive and of engine=classic, the path is
// taken, and the closure rejects fewer children than with the path off.
TEST(Rvf, SaturatedClocksRefuteOnlyInfeasibleChildren) {
    const int n = std::max(1, randomProgramCount() / 5);
    double refuted = 0, rejected = 0, classicRejected = 0;
    int bad = 0;
    ExploreOptions classic;
    classic.params["engine"] = "classic";
    for (int i = 0; i < n; ++i) {
        const std::uint64_t seed = 8000000 + static_cast<std::uint64_t>(i);
        auto p = testprog::randomProgram(
            seed, i % 2 ? testprog::syncHeavyOptions() : testprog::RandomProgramOptions{});
        const auto o = rvfOracle(*p);
        ExploreResult r;
        rvfsmc::RvfOptions ro;
        ro.checkRefutations = true;
        ExploreOptions opts;
        std::set<Key> complete;
        bool dup = false;
        opts.onTrace = [&](const Trace& t) {
            if (t.status() == TraceStatus::Complete)
                dup = !complete.insert(traceKey(Equivalence::Rvf, t)).second || dup;
        };
        if (!testrvf::runRvfSmc(*p, opts, r, ro, seed, bad)) continue;
        const auto c = explore(*p, "rvf", classic);
        const bool same =
            r.complete == c.complete && r.blocked == c.blocked && r.outcomes == o.run.outcomes &&
            r.outcomes == c.outcomes && r.errorSites == o.run.errorSites && !dup &&
            std::includes(o.complete.begin(), o.complete.end(), complete.begin(), complete.end());
        if (!same && ++bad <= 5)
            ADD_FAILURE() << "seed " << seed << ": complete " << r.complete << " vs classic "
                          << c.complete << ", blocked " << r.blocked << " vs " << c.blocked;
        refuted += r.stats.at("saturation_refutations");
        rejected += r.stats.at("closure_rejections");
        EXPECT_EQ(c.stats.at("saturation_refutations"), 0.0);
        classicRejected += c.stats.at("closure_rejections");
    }
    EXPECT_EQ(bad, 0);
    EXPECT_GT(refuted, 0.0);
    EXPECT_LT(rejected, classicRejected);
}

// The saturated clocks are computed when a child first asks for a refutation, in the order
// the steps were registered (RvfSmc::ensureSat), not when each step is registered: the clocks
// must be those of the eager computation (eagerSat), so the same children are refuted and the
// same classes found, for rvf and rf (perWrite), with fewer clocks computed overall.
TEST(Rvf, LazySaturatedClocksEqualEagerOnes) {
    const int n = std::max(1, randomProgramCount() / 5);
    double lazyClocks = 0, eagerClocks = 0, refuted = 0;
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        const std::uint64_t seed = 8100000 + static_cast<std::uint64_t>(i);
        auto p = testprog::randomProgram(
            seed, i % 2 ? testprog::syncHeavyOptions() : testprog::RandomProgramOptions{});
        for (const bool perWrite : {false, true}) {
            ExploreResult lazy, eager;
            rvfsmc::RvfOptions ro;
            ro.perWrite = perWrite;
            ExploreOptions opts;
            rvfsmc::RvfSmc(*p, opts, lazy, ro).run();
            ro.eagerSat = true;
            rvfsmc::RvfSmc(*p, opts, eager, ro).run();
            for (const char* k : {"saturation_refutations", "verifysc_calls", "nodes"})
                if (lazy.stats.at(k) != eager.stats.at(k) && ++bad <= 5)
                    ADD_FAILURE() << "seed " << seed << (perWrite ? " rf " : " rvf ") << k << " "
                                  << lazy.stats.at(k) << " lazy vs " << eager.stats.at(k);
            if ((lazy.complete != eager.complete || lazy.blocked != eager.blocked ||
                 lazy.outcomes != eager.outcomes) &&
                ++bad <= 5)
                ADD_FAILURE() << "seed " << seed << ": other results with lazy clocks";
            lazyClocks += lazy.stats.at("saturated_clocks");
            eagerClocks += eager.stats.at("saturated_clocks");
            refuted += lazy.stats.at("saturation_refutations");
        }
    }
    EXPECT_EQ(bad, 0);
    EXPECT_GT(refuted, 0.0);
    EXPECT_LT(lazyClocks, eagerClocks);
}

// t0: lock; r := y; unlock. t1: lock; unlock; y := 1. t0 reads 0 or 1 after t1's section: an
// event of t1 after its last unlock does not come before t0's read (mutual exclusion orders
// only the sections).
std::shared_ptr<Program> writeAfterSection() {
    SpecBuilder b("write_after_section");
    auto y = b.var("y");
    auto l = b.mutex("l");
    b.thread("t0").lock(l).load(-1, y).unlock(l);
    b.thread("t1").lock(l).unlock(l).store(y, 1);
    return b.build();
}

// Mutual exclusion in the saturated order (RvfSmcMutex.cpp): a child whose new read is a lock,
// or a read inside a critical section, refuted by the order of the sections without VerifySC.
// With checkRefutations every refuted child goes to VerifySC as well (a witness found there
// throws). On fibBench, where RVF's lock reads have every unlock as a good write, the closure
// rejected such children only: none is left, mutual exclusion refuted them, and the classes
// are the oracle's; with mutexOrder off the closure rejects them again. On the random
// families (locks, sync-heavy) the refutations agree with VerifySC and the results are those
// of naive and of mutexOrder off, with guidance and without (then no child is decided by the
// node's trace before the refutation is asked). (rf does not ask: mutex_refutations 0.)
TEST(Rvf, MutualExclusionRefutesOnlyInfeasibleChildren) {
    {
        auto fib = testprog::fibBench(3);
        rvfsmc::RvfOptions ro;
        ExploreOptions opts;
        ExploreResult on, checked, off;
        rvfsmc::RvfSmc(*fib, opts, on, ro).run();
        ro.checkRefutations = true;  // (its VerifySC calls count as closure rejections)
        EXPECT_NO_THROW(rvfsmc::RvfSmc(*fib, opts, checked, ro).run());
        ro.checkRefutations = false;
        ro.mutexOrder = false;
        rvfsmc::RvfSmc(*fib, opts, off, ro).run();
        EXPECT_GT(on.stats.at("mutex_refutations"), 0.0);
        EXPECT_EQ(on.stats.at("closure_rejections"), 0.0);
        EXPECT_EQ(off.stats.at("mutex_refutations"), 0.0);
        EXPECT_GT(off.stats.at("closure_rejections"), 0.0);
        EXPECT_EQ(on.complete, off.complete);
        EXPECT_EQ(on.complete,
                  partitionSizes(*fib).classes[static_cast<int>(Equivalence::Rvf)].complete);
        EXPECT_TRUE(on.outcomes == off.outcomes);
        // rf: each lock's source orders the sections in its clocks, no closure rejection either
        ExploreResult rf;
        ro.mutexOrder = true;
        ro.perWrite = true;
        rvfsmc::RvfSmc(*fib, opts, rf, ro).run();
        EXPECT_EQ(rf.stats.at("mutex_refutations"), 0.0);
        EXPECT_EQ(rf.stats.at("closure_rejections"), 0.0);
        EXPECT_GT(rf.stats.at("saturation_refutations"), 0.0);
    }
    // (the lock programs first, their seeds 0-3; the random ones 8200000 + i)
    std::vector<std::pair<std::uint64_t, std::shared_ptr<Program>>> progs = {
        {0, testprog::fibBench(2)},
        {1, testprog::fibBench(3)},
        {2, testprog::lockDeadlock()},
        {3, testprog::nReadsLock(3)},
        {4, writeAfterSection()}};
    const int n = std::max(1, randomProgramCount() / 5);
    for (int i = 0; i < n; ++i) {
        const std::uint64_t seed = 8200000 + static_cast<std::uint64_t>(i);
        progs.emplace_back(seed,
                           testprog::randomProgram(seed, i % 2 ? testprog::syncHeavyOptions()
                                                               : testprog::RandomProgramOptions{}));
    }
    double refuted = 0;
    int bad = 0;
    for (const auto& [seed, p] : progs) {
        const auto o = rvfOracle(*p);
        for (const bool guidance : {true, false}) {
            rvfsmc::RvfOptions ro;
            ro.checkRefutations = true;
            // (without guidance no child is decided by the node's trace: every child is asked)
            ro.vsc.guidance = guidance;
            ExploreOptions opts;
            ExploreResult on, off;
            if (!testrvf::runRvfSmc(*p, opts, on, ro, seed, bad)) continue;
            ro.mutexOrder = false;
            rvfsmc::RvfSmc(*p, opts, off, ro).run();
            const bool same = on.complete == off.complete && on.blocked == off.blocked &&
                              on.outcomes == o.run.outcomes && on.outcomes == off.outcomes &&
                              on.errorSites == o.run.errorSites;
            if (!same && ++bad <= 5)
                ADD_FAILURE() << "seed " << seed << (guidance ? "" : " no guidance")
                              << ": complete " << on.complete << " vs " << off.complete
                              << " without, blocked " << on.blocked << " vs " << off.blocked;
            EXPECT_EQ(off.stats.at("mutex_refutations"), 0.0);
            refuted += on.stats.at("mutex_refutations");
        }
    }
    EXPECT_EQ(bad, 0);
    EXPECT_GT(refuted, 0.0);
}

TEST(Rvf, Registered) {
    const auto& info = explorerInfo("rvf");
    EXPECT_EQ(info.equivalence, "rvf");
    EXPECT_FALSE(info.optimal);
    EXPECT_FALSE(info.coversClasses);
    EXPECT_TRUE(info.nonRedundant);
    ExploreOptions o;
    o.params["closure"] = "maybe";
    EXPECT_THROW((void)explore(*testprog::rvfFig1(), "rvf", o), InputError);
    o.params = {{"colsure", "off"}};
    EXPECT_THROW((void)explore(*testprog::rvfFig1(), "rvf", o), InputError);
    ExploreOptions ifaa;
    ifaa.conflicts.ifaa = true;
    EXPECT_THROW((void)explore(*testprog::rvfFig1(), "rvf", ifaa), InputError);
}

TEST(Rvf, HandWrittenPrograms) {
    auto progs = testprog::handWrittenPrograms();
    progs.emplace_back("rvfFig6", rvfFig6());
    progs.emplace_back("rvfFig13a(2)", rvfFig13a(2));
    progs.emplace_back("rvfFig13b(2)", rvfFig13b(2));
    progs.emplace_back("twoWriters", twoWriters());
    progs.emplace_back("awaitFinalOrder", awaitFinalOrder());
    progs.emplace_back("hiddenFailingWrite", hiddenFailingWrite());
    for (const auto& [name, p] : progs) {
        const auto o = rvfOracle(*p);
        EXPECT_EQ(checkRvf(*p, o), "") << name;
    }
}

TEST(Rvf, RandomPrograms) { runFamily(randomProgramCount(), 0, {}); }

TEST(Rvf, RandomSyncHeavyPrograms) {
    runFamily(std::max(1, randomProgramCount() / 2), 1000000, testprog::syncHeavyOptions());
}

// Every heuristic switched off at once still conforms (the proofs do not rely on them).
TEST(Rvf, RandomProgramsWithoutHeuristics) {
    runFamily(std::max(1, randomProgramCount() / 5), 2000000, {},
              {{"backtrack_signals", "off"},
               {"closure", "off"},
               {"greedy", "off"},
               {"guidance", "off"},
               {"engine", "classic"}});
}

// The paper's numbers.
TEST(Rvf, PaperNumbers) {
    EXPECT_EQ(rvfComplete(*testprog::rvfFig1()), 1u);  // Figure 1: 1 trace (rf: 9)
    const auto fig6 = runRvf(*rvfFig6());              // Figure 6: 2 maximal traces
    EXPECT_EQ(fig6.complete + fig6.blocked, 2u);
    EXPECT_EQ(fig6.errors, 0u);
    for (int n = 1; n <= 8; ++n) {  // Figure 13: 1 trace for every n
        EXPECT_EQ(rvfComplete(*rvfFig13a(n)), 1u) << "13a n=" << n;
        EXPECT_EQ(rvfComplete(*rvfFig13b(n)), 1u) << "13b n=" << n;
        EXPECT_EQ(rvfComplete(*testprog::rvfFig13c(n)), 1u) << "13c n=" << n;
    }
}

// Figure 6 also has 3 RVF classes: rvf explores fewer than the partition (the two (1,1) classes
// differ only in the causal order of r1 and r2).
TEST(Rvf, BeyondRvfPartitioning) {
    const auto sizes = partitionSizes(*rvfFig6());
    EXPECT_EQ(sizes.classes[static_cast<int>(Equivalence::Rvf)].complete, 3u);
    EXPECT_LT(rvfComplete(*rvfFig6()), 3u);
}

// The ablations (Figure 11) change the work, never the result.
TEST(Rvf, AblationsChangeWorkNotResults) {
    const std::vector<std::pair<std::string, std::shared_ptr<Program>>> progs = {
        {"rvfFig6", rvfFig6()},
        {"rvfFig13a(4)", rvfFig13a(4)},
        {"fibBench(2)", testprog::fibBench(2)},
        {"xchgAwaitLock(3)", testprog::xchgAwaitLock(3)},
        {"spawnJoinChain", testprog::spawnJoinChain()}};
    const std::vector<std::string> opts = {"backtrack_signals", "closure", "greedy", "guidance"};
    std::map<std::string, bool> changedWork;
    for (const auto& [name, p] : progs) {
        for (const auto& opt : opts) {
            // The greedy steps act inside VerifySC's search, which guidance and closure mostly
            // spare: compare them with both off on both sides.
            std::map<std::string, std::string> baseParams, params{{opt, "off"}};
            if (opt == "greedy") baseParams = params = {{"guidance", "off"}, {"closure", "off"}};
            if (opt == "greedy") params["greedy"] = "off";
            const auto base = runRvf(*p, baseParams);
            const auto r = runRvf(*p, params);
            EXPECT_EQ(r.complete, base.complete) << name << " " << opt << "=off";
            EXPECT_EQ(r.blocked, base.blocked) << name << " " << opt << "=off";
            EXPECT_EQ(r.outcomes, base.outcomes) << name << " " << opt << "=off";
            EXPECT_EQ(r.errorSites, base.errorSites) << name << " " << opt << "=off";
            const bool differs =
                r.stats.at("verifysc_calls") != base.stats.at("verifysc_calls") ||
                r.stats.at("verifysc_states") != base.stats.at("verifysc_states") ||
                r.stats.at("nodes") != base.stats.at("nodes") ||
                r.stats.at("verifysc_skipped") != base.stats.at("verifysc_skipped");
            changedWork[opt] = changedWork[opt] || differs;
        }
    }
    for (const auto& opt : opts)
        EXPECT_TRUE(changedWork[opt]) << opt << "=off did not change any work";
}

TEST(Rvf, Statistics) {
    const auto r = runRvf(*testprog::spawnJoinChain());
    for (const char* k : {"verifysc_calls", "verifysc_seconds", "verifysc_states",
                          "verifysc_skipped", "verifysc_linearised", "closure_rejections", "nodes"})
        EXPECT_TRUE(r.stats.count(k)) << k;
    EXPECT_GT(r.stats.at("verifysc_calls"), 0.0);
    // every call is decided by the closure, one linearisation or the search
    EXPECT_GT(r.stats.at("verifysc_linearised") + r.stats.at("verifysc_states"), 0.0);
    ExploreOptions classic;
    classic.params["engine"] = "classic";
    const auto c = explore(*testprog::spawnJoinChain(), "rvf", classic);
    EXPECT_GT(c.stats.at("verifysc_states"), 0.0);
    EXPECT_EQ(c.stats.at("verifysc_linearised"), 0.0);
    EXPECT_GE(r.seconds, r.stats.at("verifysc_seconds"));
}

TEST(Rvf, Budgets) {
    ExploreOptions o;
    o.maxTraces = 3;
    const auto r = explore(*testprog::fibBench(2), "rvf", o);
    EXPECT_TRUE(r.budgetExceeded);
    EXPECT_EQ(r.traceCount(), 3u);
    ExploreOptions e;
    e.stopOnError = true;
    const auto f = explore(*hiddenFailingWrite(), "rvf", e);
    EXPECT_EQ(f.errors, 1u);
}

TEST(Rvf, Deterministic) {
    const auto a = runRvf(*testprog::fibBench(2));
    const auto b = runRvf(*testprog::fibBench(2));
    EXPECT_EQ(a.complete, b.complete);
    EXPECT_EQ(a.events, b.events);
    EXPECT_EQ(a.stats.at("verifysc_calls"), b.stats.at("verifysc_calls"));
}
