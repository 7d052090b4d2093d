// SPDX-License-Identifier: MIT
// The papers' numbers for the DPOR explorers, budgets, determinism, and named regression tests
// for the bugs the conformance suite found.
//
// Blocked executions. Godot's Theorem 2 promises one maximal execution per class, blocked ones
// included, and that is what the engine gives: on Godot Fig. 5 it reports 2 complete + 6 blocked
// traces without IFAA and 1 + 1 with IFAA, exactly the Mazurkiewicz(-IFAA) class counts of
// complete and blocked traces; the conformance suite found no random program where the number of
// blocked traces of `optimal`/`optimal-await` differs from the number of blocked classes.
#include <gtest/gtest.h>

#include "RandomProgram.hpp"
#include "TestPrograms.hpp"
#include "porlab/explore/PartitionSizes.hpp"

using namespace porlab;

namespace {

ExploreResult run(const Program& p, const std::string& explorer, bool ifaa = false,
                  ClassCounter* counter = nullptr) {
    ExploreOptions o;
    o.conflicts.ifaa = ifaa;
    if (counter) o.onTrace = [counter](const Trace& t) { counter->add(t); };
    return explore(p, explorer, o);
}

}  // namespace

TEST(OptimalDpor, RvfFigure1Has98Traces) {
    ClassCounter c;
    auto r = run(*testprog::rvfFig1(), "optimal", false, &c);
    EXPECT_EQ(r.complete, 98u);
    EXPECT_EQ(r.blocked, 0u);
    EXPECT_EQ(c.duplicates(Equivalence::Mazurkiewicz), 0u);
    EXPECT_EQ(r.stats["sleep_blocked"], 0);
}

TEST(OptimalDpor, GodotFigure3HasFourTraces) {
    for (const char* ex : {"optimal", "optimal-await"}) {
        auto r = run(*testprog::godotFig3(), ex);
        EXPECT_EQ(r.complete, 4u) << ex;
        EXPECT_EQ(r.blocked, 0u) << ex;
        EXPECT_EQ(r.errors, 0u) << ex;
    }
}

TEST(OptimalDpor, GodotFigure4HasTwoTraces) {
    auto r = run(*testprog::godotFig4(), "optimal-await");
    EXPECT_EQ(r.complete, 2u);
    EXPECT_EQ(r.blocked, 0u);
}

TEST(OptimalDpor, GodotFigure2AssumeVersusAwait) {
    auto b = run(*testprog::godotFig2(false), "optimal-await");
    EXPECT_EQ(b.complete, 1u);
    EXPECT_EQ(b.blocked, 1u);
    auto c = run(*testprog::godotFig2(true), "optimal-await");
    EXPECT_EQ(c.complete, 1u);
    EXPECT_EQ(c.blocked, 0u);
}

// Fig. 5: classes are 2 complete + 6 blocked without IFAA, 1 + 1 with IFAA; optimal-await
// reports exactly one trace per class in both settings (see the header comment).
TEST(OptimalDpor, GodotFigure5WithAndWithoutIfaa) {
    auto p = testprog::godotFig5();
    ClassCounter plain, ifaa;
    auto r0 = run(*p, "optimal-await", false, &plain);
    EXPECT_EQ(r0.complete, 2u);
    EXPECT_EQ(r0.blocked, 6u);
    EXPECT_EQ(plain.duplicates(Equivalence::Mazurkiewicz), 0u);
    auto r1 = run(*p, "optimal-await", true, &ifaa);
    EXPECT_EQ(r1.complete, 1u);
    EXPECT_EQ(r1.blocked, 1u);
    EXPECT_EQ(ifaa.duplicates(Equivalence::MazurkiewiczIfaa), 0u);
    EXPECT_EQ(ifaa.classes(Equivalence::MazurkiewiczIfaa).blocked, 1u);
    // The blocked trace under IFAA leaves s waiting on x == 5.
    EXPECT_GT(r1.stats["blocking_races"], 0);
}

TEST(OptimalDpor, LaporNReadsAndNReadsLock) {
    std::uint64_t fact = 1;
    for (int n = 1; n <= 5; ++n) {
        fact *= static_cast<std::uint64_t>(n);
        EXPECT_EQ(run(*testprog::nReadsLock(n, false), "optimal").complete, 1u) << "n=" << n;
        auto r = run(*testprog::nReadsLock(n), "optimal");
        EXPECT_EQ(r.complete, fact) << "n=" << n;
        EXPECT_EQ(r.blocked, 0u) << "n=" << n;
    }
}

TEST(OptimalDpor, LockDeadlockIsOneBlockedTrace) {
    for (const char* ex : {"optimal", "optimal-await"}) {
        auto r = run(*testprog::lockDeadlock(), ex);
        EXPECT_EQ(r.complete, 2u) << ex;
        EXPECT_EQ(r.blocked, 1u) << ex;
    }
}

TEST(OptimalDpor, MaxTracesBudgetStopsCleanly) {
    ExploreOptions o;
    o.maxTraces = 5;
    auto r = explore(*testprog::rvfFig1(), "optimal", o);
    EXPECT_TRUE(r.budgetExceeded);
    EXPECT_EQ(r.budgetReason, "traces");
    EXPECT_EQ(r.traceCount(), 5u);
    EXPECT_EQ(r.complete, 5u);
    EXPECT_GT(r.events, 0u);
    auto s = explore(*testprog::rvfFig1(), "source", o);
    EXPECT_TRUE(s.budgetExceeded);
    EXPECT_EQ(s.traceCount(), 5u);
}

TEST(OptimalDpor, EventBudgetStopsCleanly) {
    ExploreOptions o;
    o.maxEvents = 50;
    auto r = explore(*testprog::nReadsLock(5), "optimal", o);
    EXPECT_TRUE(r.budgetExceeded);
    EXPECT_EQ(r.budgetReason, "events");
    EXPECT_LT(r.complete, 120u);
}

TEST(OptimalDpor, StopOnErrorStopsAtFirstError) {
    ExploreOptions o;
    o.stopOnError = true;
    auto r = explore(*testprog::errorAfterOtherThread(), "optimal", o);
    EXPECT_EQ(r.errors, 1u);
    ASSERT_TRUE(r.firstError.has_value());
}

TEST(OptimalDpor, Deterministic) {
    for (const char* ex : {"source", "optimal", "optimal-await"}) {
        for (auto p : {testprog::rvfFig1(), testprog::godotFig5(), testprog::randomProgram(20)}) {
            auto a = run(*p, ex), b = run(*p, ex);
            EXPECT_EQ(a.complete, b.complete) << ex;
            EXPECT_EQ(a.blocked, b.blocked) << ex;
            EXPECT_EQ(a.errors, b.errors) << ex;
            EXPECT_EQ(a.events, b.events) << ex;
            EXPECT_EQ(a.stats, b.stats) << ex;
        }
    }
}

// The can-stop/did-insert break changes run time only, never counts (Godot §1.7 item 5).
TEST(OptimalDpor, CanStopBreakDoesNotChangeCounts) {
    for (std::uint64_t seed = 1000001; seed <= 1000080; ++seed) {
        auto p = testprog::randomProgram(seed, testprog::syncHeavyOptions());
        for (bool ifaa : {false, true}) {
            ExploreOptions o;
            o.conflicts.ifaa = ifaa;
            auto a = explore(*p, "optimal-await", o);
            o.params["can_stop"] = "0";
            auto b = explore(*p, "optimal-await", o);
            EXPECT_EQ(a.complete, b.complete) << "seed " << seed;
            EXPECT_EQ(a.blocked, b.blocked) << "seed " << seed;
            EXPECT_EQ(a.outcomes, b.outcomes) << "seed " << seed;
        }
    }
}

TEST(SourceDpor, CoversRvfFigure1AndCountsSleepBlocked) {
    ClassCounter c;
    auto r = run(*testprog::rvfFig1(), "source", false, &c);
    EXPECT_EQ(c.classes(Equivalence::Mazurkiewicz).complete, 98u);
    EXPECT_GE(r.complete, 98u);
    EXPECT_TRUE(r.stats.count("sleep_blocked"));
}

// ---- regression tests for bugs found by the conformance suite ------------------------------

// Random seed 8: the builder's first interpreter (since replaced by the lowering to the decoded
// form) reused a pending Event without resetting rmwOp/cond, so a read could carry the rmwOp of an
// earlier fetch-sub of the same thread in an earlier run, and equivalent traces got different
// class keys (naive overcounted 5 classes instead of 4). Kept for the interpreter of today.
TEST(DporRegression, PendingEventHasNoStaleFields) {
    auto p = testprog::randomProgram(8);
    auto classes = partitionSizes(*p).classes[static_cast<int>(Equivalence::Mazurkiewicz)];
    auto r = run(*p, "optimal");
    EXPECT_EQ(classes.complete, 4u);
    EXPECT_EQ(r.complete, 4u);
}

TEST(DporRegression, PendingResetsRmwOpAndCond) {
    SpecBuilder b("stale_pending");
    auto x = b.var("x");
    b.thread("t").faa(-1, x, 1, true, RmwOp::Sub).await(-1, x, AwaitCond::NE, 5).load(-1, x);
    auto p = b.build();
    auto e = p->newExecution();
    (void)e->reset();
    (void)e->step(0);  // fetch-sub
    EXPECT_EQ(e->pending(0).kind, EventKind::Await);
    EXPECT_EQ(e->pending(0).rmwOp, RmwOp::Add);
    (void)e->step(0);  // await
    EXPECT_EQ(e->pending(0).kind, EventKind::Read);
    EXPECT_EQ(e->pending(0).rmwOp, RmwOp::Add);
    EXPECT_EQ(e->pending(0).cond, AwaitCond::EQ);
}

// Random seed 131: an xchg-await conflicts with plain reads of its location, which can neither
// enable nor disable it; those pairs are races too (they were missed: 3 of 9 classes).
TEST(DporRegression, XchgAwaitRacesWithReads) {
    SpecBuilder b("xchg_await_read");
    auto x = b.var("x");
    b.thread("r").load(-1, x);
    b.thread("w").xchgAwait(-1, x, AwaitCond::NE, 1, 2);
    auto p = b.build();
    for (const char* ex : {"source", "optimal", "optimal-await"}) {
        auto r = run(*p, ex);
        EXPECT_EQ(r.outcomes.size(), 2u) << ex;
        if (std::string(ex) != "source") {
            EXPECT_EQ(r.complete, 2u) << ex;
        }
    }
    auto seed131 = testprog::randomProgram(131);
    auto c = partitionSizes(*seed131).classes[static_cast<int>(Equivalence::Mazurkiewicz)];
    EXPECT_EQ(run(*seed131, "optimal").complete, c.complete);
}

// Source-DPOR must reverse a race within pre(E,e') (not with all of notdep(e,E)), and cannot
// use sleep sets to discard such a partial sequence: rvfFig1 lost 2 of 98 classes.
TEST(DporRegression, SourceReversesWithinPrefix) {
    ClassCounter c;
    (void)run(*testprog::rvfFig1(), "source", false, &c);
    EXPECT_EQ(c.classes(Equivalence::Mazurkiewicz).complete, 98u);
}

// Random seed 23499 (found by a 4000-program stress run): a wakeup-tree branch whose event is
// the last one of an inserted sequence may fail the run when performed (here a CAS that fails
// and then an assertion). Insert took such a branch p (p not in v, independent of v) as proof
// that v is redundant, but a failing step halts the run, so E'.p.v does not exist: 2 of 14
// classes were lost. The engine now finds out by replay whether such a branch fails. The same
// run showed that the pending events after E must be read before any replay changes the state.
TEST(DporRegression, FailingWakeupBranchIsNotAWeakInitial) {
    auto p = testprog::randomProgram(23499);
    auto c = partitionSizes(*p).classes[static_cast<int>(Equivalence::Mazurkiewicz)];
    EXPECT_EQ(c.complete, 14u);
    for (const char* ex : {"optimal", "optimal-await"}) {
        auto r = run(*p, ex);
        EXPECT_EQ(r.complete, 14u) << ex;
        EXPECT_GT(r.stats["replayed_events"], 0) << ex;
    }
}

// A failing step ends the trace; the other threads' later steps must still be explored before
// it (here t1 must do both writes before t0 reads x).
TEST(DporRegression, ErrorNeedsOtherThreadFirst) {
    for (const char* ex : {"source", "optimal", "optimal-await"}) {
        auto r = run(*testprog::errorAfterOtherThread(), ex);
        EXPECT_GE(r.errors, 1u) << ex;
        EXPECT_EQ(r.errorSites.size(), 1u) << ex;
        EXPECT_GE(r.complete, 1u) << ex;
    }
}
