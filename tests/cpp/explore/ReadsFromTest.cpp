// SPDX-License-Identifier: MIT
// The reads-from explorers against the exhaustive `naive` oracle: `rf` (reads-from SMC, the RVF-SMC
// recursion with one write per good-writes set) and `rf-graph` (the graph engine, which explores
// every (rf, co) graph and reports one per class; the `graph` explorer, the engine alone, is in
// the Mazurkiewicz conformance suite). Every test runs on both (value-parametrised):
//  * the same outcomes and error sites as naive;
//  * complete traces == complete reads-from classes, no two complete traces in one class;
//  * blocked traces == blocked reads-from classes;
// on the hand-written programs and on seeded random programs (500 + 250 sync-heavy by default,
// PORLAB_RANDOM_PROGRAMS overrides), plus the papers' numbers, budgets and determinism.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "RandomProgram.hpp"
#include "RvfRun.hpp"
#include "TestPrograms.hpp"
#include "porlab/core/Errors.hpp"
#include "porlab/explore/PartitionSizes.hpp"
#include "porlab/explore/RvfSmc.hpp"
#include "porlab/explore/graph/ExecutionGraph.hpp"

using namespace porlab;

namespace {

struct RfOracle {
    ExploreResult run;
    std::set<Key> complete, blocked;
};

RfOracle rfOracle(const Program& p) {
    RfOracle o;
    ExploreOptions opts;
    opts.onTrace = [&](const Trace& t) {
        if (t.status() == TraceStatus::Complete)
            o.complete.insert(traceKey(Equivalence::ReadsFrom, t));
        if (t.status() == TraceStatus::Blocked)
            o.blocked.insert(traceKey(Equivalence::ReadsFrom, t));
    };
    o.run = exploreNaive(p, opts);
    return o;
}

struct RfFinding {
    bool ok = true;     // exact: every check below
    bool sound = true;  // nothing unreachable, no duplicate class, no error site naive lacks
    bool blockedExact = true;
    std::string message;
};

RfFinding checkRf(const std::string& explorer, const Program& p, const RfOracle& o,
                  const std::map<std::string, std::string>& params = {}) {
    RfFinding f;
    std::ostringstream msg;
    ClassCounter cc;
    std::set<Key> blocked, complete;
    ExploreOptions opts;
    opts.params = params;
    opts.onTrace = [&](const Trace& t) {
        cc.add(t);
        if (t.status() == TraceStatus::Blocked) blocked.insert(traceKey(Equivalence::ReadsFrom, t));
        if (t.status() == TraceStatus::Complete)
            complete.insert(traceKey(Equivalence::ReadsFrom, t));
    };
    ExploreResult r;
    try {
        r = explore(p, explorer, opts);
    } catch (const std::exception& e) {
        f.ok = f.sound = false;
        f.message = std::string(" exception: ") + e.what();
        return f;
    }
    if (r.outcomes != o.run.outcomes) {
        f.ok = false;
        msg << " outcomes " << r.outcomes.size() << " vs naive " << o.run.outcomes.size() << ";";
    }
    if (r.errorSites != o.run.errorSites) {
        f.ok = false;
        msg << " error sites " << r.errorSites.size() << " vs naive " << o.run.errorSites.size()
            << ";";
    }
    if (r.complete != o.complete.size()) {
        f.ok = false;
        msg << " complete traces " << r.complete << " vs rf classes " << o.complete.size() << ";";
    }
    if (cc.duplicates(Equivalence::ReadsFrom) != 0) {
        f.ok = false;
        msg << " duplicate rf classes " << cc.duplicates(Equivalence::ReadsFrom) << ";";
    }
    if (cc.classes(Equivalence::ReadsFrom).complete != o.complete.size()) {
        f.ok = false;
        msg << " complete classes " << cc.classes(Equivalence::ReadsFrom).complete << " vs "
            << o.complete.size() << ";";
    }
    if (blocked != o.blocked) {
        f.ok = false;
        msg << " blocked classes " << blocked.size() << " vs " << o.blocked.size() << ";";
    }
    auto subset = [](const auto& a, const auto& b) {
        return std::includes(b.begin(), b.end(), a.begin(), a.end());
    };
    for (const auto& out : r.outcomes)
        if (!o.run.outcomes.count(out)) {
            f.sound = false;
            msg << " UNREACHABLE outcome;";
            break;
        }
    if (!subset(r.errorSites, o.run.errorSites) || !subset(complete, o.complete) ||
        !subset(blocked, o.blocked) || cc.duplicates(Equivalence::ReadsFrom) != 0) {
        f.sound = false;
        msg << " UNSOUND (error site, class not in naive, or duplicate);";
    }
    f.blockedExact = r.blocked == o.blocked.size();
    if (!f.blockedExact)
        msg << " blocked traces " << r.blocked << " vs classes " << o.blocked.size() << ";";
    f.message = msg.str();
    return f;
}

int randomProgramCount() {
    if (const char* s = std::getenv("PORLAB_RANDOM_PROGRAMS")) return std::max(1, std::atoi(s));
    return 500;
}

struct FamilyStats {
    int unsound = 0, inexact = 0, blockedInexact = 0;
    std::string inexactSeeds, blockedSeeds;
};

FamilyStats runFamily(const std::string& explorer, int n, std::uint64_t seedBase,
                      const testprog::RandomProgramOptions& popts,
                      const std::map<std::string, std::string>& params = {}) {
    FamilyStats s;
    for (int i = 0; i < n; ++i) {
        const std::uint64_t seed = seedBase + static_cast<std::uint64_t>(i) + 1;
        auto p = testprog::randomProgram(seed, popts);
        const auto o = rfOracle(*p);
        const auto f = checkRf(explorer, *p, o, params);
        if (!f.sound && ++s.unsound <= 10)
            ADD_FAILURE() << "random program seed " << seed
                          << (popts.syncHeavy ? " (syncHeavyOptions)" : "") << ":" << f.message;
        if (!f.ok && ++s.inexact <= 10)
            s.inexactSeeds += "\n  seed " + std::to_string(seed) + ":" + f.message;
        if (!f.blockedExact && ++s.blockedInexact <= 5)
            s.blockedSeeds += " " + std::to_string(seed);
    }
    return s;
}

// The explorers under test, by registry name.
class ReadsFrom : public ::testing::TestWithParam<std::string> {
  protected:
    [[nodiscard]] ExploreResult run(const Program& p, const ExploreOptions& o = {}) const {
        return explore(p, GetParam(), o);
    }
    [[nodiscard]] std::uint64_t complete(const Program& p) const {
        ExploreOptions o;
        o.collectOutcomes = false;
        return run(p, o).complete;
    }
};

}  // namespace

INSTANTIATE_TEST_SUITE_P(Explorers, ReadsFrom, ::testing::Values("rf", "rf-graph"),
                         [](const ::testing::TestParamInfo<std::string>& param) {
                             std::string n = param.param;
                             std::replace(n.begin(), n.end(), '-', '_');
                             return n;
                         });

TEST_P(ReadsFrom, RegisteredAndRejectsIfaa) {
    const auto& info = explorerInfo(GetParam());
    EXPECT_EQ(info.equivalence, "reads-from");
    EXPECT_TRUE(info.optimal);
    EXPECT_TRUE(info.coversClasses);
    ExploreOptions o;
    o.conflicts.ifaa = true;
    EXPECT_THROW((void)run(*testprog::rvfFig1(), o), InputError);
    EXPECT_THROW((void)exploreGraph(*testprog::rvfFig1(), o), InputError);
}

TEST_P(ReadsFrom, HandWrittenPrograms) {
    for (const auto& [name, p] : testprog::handWrittenPrograms()) {
        const auto o = rfOracle(*p);
        const auto f = checkRf(GetParam(), *p, o);
        EXPECT_TRUE(f.ok) << name << ":" << f.message;
        EXPECT_TRUE(f.blockedExact) << name << ":" << f.message;
        // the oracle's class count is the partition's
        EXPECT_EQ(o.complete.size(),
                  partitionSizes(*p).classes[static_cast<int>(Equivalence::ReadsFrom)].complete)
            << name;
    }
}

// Exactness on random programs: the same outcomes and error sites as naive, every complete and
// blocked reads-from class exactly once.
TEST_P(ReadsFrom, RandomPrograms) {
    const int n = randomProgramCount();
    const auto s = runFamily(GetParam(), n, 0, {});
    EXPECT_EQ(s.unsound, 0) << "of " << n << " random programs";
    EXPECT_EQ(s.inexact, 0) << "of " << n << " random programs:" << s.inexactSeeds;
    EXPECT_EQ(s.blockedInexact, 0) << "blocked traces != blocked classes:" << s.blockedSeeds;
}

TEST_P(ReadsFrom, RandomSyncHeavyPrograms) {
    const int n = std::max(1, randomProgramCount() / 2);
    const auto s = runFamily(GetParam(), n, 1000000, testprog::syncHeavyOptions());
    EXPECT_EQ(s.unsound, 0) << "of " << n << " sync-heavy random programs";
    EXPECT_EQ(s.inexact, 0) << "of " << n << " sync-heavy random programs:" << s.inexactSeeds;
    EXPECT_EQ(s.blockedInexact, 0) << "blocked traces != blocked classes:" << s.blockedSeeds;
}

// The engine reports every (rf, co) graph once: rf-graph's explored graphs are the Mazurkiewicz
// classes, of which it reports one per reads-from class.
TEST(ReadsFromRfGraph, ExploresMazurkiewiczReportsReadsFrom) {
    auto p = testprog::rvfFig1();
    const auto sizes = partitionSizes(*p);
    const auto r = exploreRfGraph(*p, {});
    const auto g = exploreGraph(*p, {});
    EXPECT_EQ(g.complete, sizes.classes[static_cast<int>(Equivalence::Mazurkiewicz)].complete);
    EXPECT_EQ(r.complete, sizes.classes[static_cast<int>(Equivalence::ReadsFrom)].complete);
    EXPECT_EQ(r.complete + static_cast<std::uint64_t>(r.stats.at("graphs_not_reported")),
              g.complete);
}

TEST_P(ReadsFrom, PaperNumbers) {
    EXPECT_EQ(complete(*testprog::rvfFig1()), 9u);
    std::uint64_t prev = 0;
    for (int n = 1; n <= 6; ++n) {
        std::uint64_t want = 1;
        for (int k = 0; k < n - 1; ++k) want *= static_cast<std::uint64_t>(n + 1);
        const auto got = complete(*testprog::rvfFig13c(n));
        EXPECT_EQ(got, want) << "rvfFig13c(" << n << ")";
        EXPECT_GT(got, prev);
        prev = got;
    }
    std::uint64_t fact = 1;
    for (int n = 1; n <= 6; ++n) {
        fact *= static_cast<std::uint64_t>(n);
        EXPECT_EQ(complete(*testprog::nReadsLock(n)), fact) << "nReadsLock(" << n << ")";
    }
}

// fib_bench: (2n+2)!/(n!·n!·2!) classes. NUM = 5 (16632, LAPOR Table 2's GenMC column) takes
// about 50 s in a Debug build, so Debug checks NUM = 3 (560) and Release NUM = 5.
TEST_P(ReadsFrom, FibBench) {
#ifdef NDEBUG
    EXPECT_EQ(complete(*testprog::fibBench(5)), 16632u);
#else
    EXPECT_EQ(complete(*testprog::fibBench(3)), 560u);
#endif
}

TEST_P(ReadsFrom, BudgetStopsCleanly) {
    ExploreOptions o;
    o.maxTraces = 10;
    auto r = run(*testprog::rvfFig13c(5), o);
    EXPECT_TRUE(r.budgetExceeded);
    EXPECT_EQ(r.budgetReason, "traces");
    EXPECT_EQ(r.traceCount(), 10u);
}

TEST_P(ReadsFrom, Deterministic) {
    auto p = testprog::rvfFig13c(4);
    std::vector<std::string> a, b;
    ExploreOptions o1, o2;
    o1.onTrace = [&](const Trace& t) { a.push_back(t.toString()); };
    o2.onTrace = [&](const Trace& t) { b.push_back(t.toString()); };
    auto r1 = run(*p, o1);
    auto r2 = run(*p, o2);
    EXPECT_EQ(a, b);
    EXPECT_EQ(r1.complete, r2.complete);
    EXPECT_EQ(r1.events, r2.events);
}

// ---- `rf`: reads-from SMC on the RVF-SMC machinery --------------------------------------------

// Exactness does not rest on the heuristics: every one switched off at once, rf still explores
// each complete and blocked class exactly once.
TEST(ReadsFromRfSmc, RandomProgramsWithoutHeuristics) {
    const int n = std::max(1, randomProgramCount() / 5);
    const std::map<std::string, std::string> off = {{"backtrack_signals", "off"},
                                                    {"closure", "off"},
                                                    {"greedy", "off"},
                                                    {"guidance", "off"},
                                                    {"engine", "classic"}};
    auto s = runFamily("rf", n, 3000000, {}, off);
    EXPECT_EQ(s.unsound + s.inexact + s.blockedInexact, 0) << "of " << n << ":" << s.inexactSeeds;
    s = runFamily("rf", n / 2 + 1, 4000000, testprog::syncHeavyOptions(), off);
    EXPECT_EQ(s.unsound + s.inexact + s.blockedInexact, 0) << "sync-heavy:" << s.inexactSeeds;
}

// Fig. 13c(5): 1296 reads-from classes, 14400 (rf, co) graphs. rf-graph explores every graph,
// rf one recursion leaf per class, so it executes far fewer events; and rvf, one class, fewer
// still.
TEST(ReadsFromRfSmc, ExploresOneTracePerClass) {
    auto p = testprog::rvfFig13c(5);
    const auto sizes = partitionSizes(*p);
    const auto smc = explore(*p, "rf");
    const auto graph = explore(*p, "rf-graph");
    const auto rvf = explore(*p, "rvf");
    const auto rfClasses = sizes.classes[static_cast<int>(Equivalence::ReadsFrom)].complete;
    EXPECT_EQ(smc.complete, rfClasses);
    EXPECT_EQ(graph.complete, rfClasses);
    EXPECT_EQ(graph.complete + static_cast<std::uint64_t>(graph.stats.at("graphs_not_reported")),
              sizes.classes[static_cast<int>(Equivalence::Mazurkiewicz)].complete);
    EXPECT_GT(graph.stats.at("graphs_not_reported"), 0.0);
    EXPECT_LT(smc.events * 4, graph.events);
    EXPECT_LT(rvf.events, smc.events);
    // every recursion node but the root has a read of its own: at least one node per class
    EXPECT_GE(smc.stats.at("nodes"), static_cast<double>(rfClasses));
}

// The saturation shortcuts (engine=saturate, the default) against VerifySC's search for every
// instance (engine=classic) on the random family: the same classes, outcomes and error sites,
// and the shortcut decides instances without witness states.
TEST(ReadsFromRfSmc, SaturateEngineMatchesClassic) {
    const int n = std::max(1, randomProgramCount() / 5);
    auto s = runFamily("rf", n, 5000000, {}, {{"engine", "classic"}});
    EXPECT_EQ(s.unsound + s.inexact + s.blockedInexact, 0)
        << "classic of " << n << ":" << s.inexactSeeds;
    const auto p = testprog::rvfFig13c(4);
    ExploreOptions classic;
    classic.params["engine"] = "classic";
    const auto a = explore(*p, "rf");
    const auto b = explore(*p, "rf", classic);
    EXPECT_EQ(a.complete, b.complete);
    EXPECT_EQ(a.outcomes, b.outcomes);
    EXPECT_GT(a.stats.at("verifysc_linearised"), 0.0);
    EXPECT_EQ(b.stats.at("verifysc_linearised"), 0.0);
    EXPECT_LT(a.stats.at("verifysc_states"), b.stats.at("verifysc_states"));
}

// Most children are decided without VerifySC: the node's trace with the new read inserted just
// before the write that ends its source's segment is their witness, and a read that writes
// nothing is put into the trace in place, with no replay; where no insertion point exists, the
// trace with the read moved before the causal future of the writes that hide its source often
// is. The three paths are taken on the random family, and rf stays exact there (an insertion
// point where the read sees another write reports a class twice and misses one; a source
// registered wrongly hides or shows writes to later reads). Replays of these witnesses start
// from the state of an ancestor whose trace they begin with (a wrong starting point replays
// the rest from another state: the redo checks throw, or classes go missing).
TEST(ReadsFromRfSmc, InsertedWitnessesAreExact) {
    const int n = std::max(1, randomProgramCount() / 5);
    double inserted = 0, inPlace = 0, postponed = 0, fromSnap = 0;
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        const std::uint64_t seed = 6000000 + static_cast<std::uint64_t>(i);
        auto p = testprog::randomProgram(
            seed, i % 2 ? testprog::syncHeavyOptions() : testprog::RandomProgramOptions{});
        const auto f = checkRf("rf", *p, rfOracle(*p));
        if (!f.ok && ++bad <= 5) ADD_FAILURE() << "seed " << seed << ":" << f.message;
        const auto r = explore(*p, "rf");
        inserted += r.stats.at("verifysc_inserted");
        inPlace += r.stats.at("replays_avoided");
        postponed += r.stats.at("verifysc_postponed");
        fromSnap += r.stats.at("replays_from_snapshot");
    }
    EXPECT_GT(inserted, inPlace);
    EXPECT_GT(inPlace, 0.0);
    EXPECT_GT(postponed, 0.0);
    EXPECT_GT(fromSnap, 0.0);  // (replays that start from an ancestor's state, enterChild)
}

// A child whose witness moves its read before the causal future F of the writes that hide
// its source (postponedWitness) is entered without a replay: the trace is relinked and the
// memory the reordered part writes is patched (RvfSmc::relink). With checkPatches each of
// them is replayed as well, and a program state (memory, every thread's status and
// registers) other than the patched one throws: on the random families the patches agree
// with the replays, rf stays exact against naive (rvf: as many traces as with the classic
// engine, naive's outcomes), and the path is taken (with the
// memory left unpatched, or patched with σ's values, this fails).
TEST(ReadsFromRfSmc, PatchedPostponedWitnessesEqualReplays) {
    const int n = std::max(1, randomProgramCount() / 5);
    double patched = 0;
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        const std::uint64_t seed = 6100000 + static_cast<std::uint64_t>(i);
        auto p = testprog::randomProgram(
            seed, i % 2 ? testprog::syncHeavyOptions() : testprog::RandomProgramOptions{});
        std::set<Key> rf;  // naive's reads-from classes
        ExploreOptions no, classic;
        no.onTrace = [&](const Trace& t) {
            if (t.status() == TraceStatus::Complete) rf.insert(traceKey(Equivalence::ReadsFrom, t));
        };
        classic.params["engine"] = "classic";
        const auto naive = exploreNaive(*p, no);
        for (const bool perWrite : {true, false}) {
            ExploreResult r;
            rvfsmc::RvfOptions ro;
            ro.perWrite = perWrite;
            ro.checkPatches = true;
            ExploreOptions opts;
            ClassCounter cc;
            opts.onTrace = [&](const Trace& t) { cc.add(t); };
            if (!testrvf::runRvfSmc(*p, opts, r, ro, seed, bad)) continue;
            // (rf: one trace per class; rvf reports no more than one per class, and as many
            // as the classic engine, which replays every witness)
            const auto eq = perWrite ? Equivalence::ReadsFrom : Equivalence::Rvf;
            const std::uint64_t want = perWrite ? rf.size() : explore(*p, "rvf", classic).complete;
            if ((r.complete != want || r.outcomes != naive.outcomes || cc.duplicates(eq) != 0) &&
                ++bad <= 5)
                ADD_FAILURE() << "seed " << seed << (perWrite ? " rf: " : " rvf: ") << r.complete
                              << " traces, " << want << " expected";
            patched += r.stats.at("replays_patched");
        }
    }
    EXPECT_EQ(bad, 0);
    EXPECT_GT(patched, 0.0);
}

// The saturated clocks (RvfSmcSaturate.cpp) refute children before VerifySC. With
// checkRefutations every refuted child goes to VerifySC as well, which throws if it finds a
// witness (a refutation that drops a class): on the random families the refutations agree
// with VerifySC's closure and search, the classes stay exact, and the path is taken (without
// it, or with refutations that VerifySC would not make, this fails). The closure rejects fewer
// children than without the path (engine=classic, whose clocks VerifySC alone decides).
TEST(ReadsFromRfSmc, SaturatedClocksRefuteOnlyInfeasibleChildren) {
    const int n = std::max(1, randomProgramCount() / 5);
    double refuted = 0, backward = 0, rejected = 0, classicRejected = 0;
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        const std::uint64_t seed = 7000000 + static_cast<std::uint64_t>(i);
        auto p = testprog::randomProgram(
            seed, i % 2 ? testprog::syncHeavyOptions() : testprog::RandomProgramOptions{});
        const auto o = rfOracle(*p);
        ExploreResult r;
        rvfsmc::RvfOptions ro;
        ro.perWrite = true;
        ro.checkRefutations = true;
        ExploreOptions opts;
        ClassCounter cc;
        opts.onTrace = [&](const Trace& t) { cc.add(t); };
        if (!testrvf::runRvfSmc(*p, opts, r, ro, seed, bad)) continue;
        if ((r.complete != o.complete.size() || r.outcomes != o.run.outcomes ||
             cc.duplicates(Equivalence::ReadsFrom) != 0) &&
            ++bad <= 5)
            ADD_FAILURE() << "seed " << seed << ": " << r.complete << " traces, "
                          << o.complete.size() << " rf classes";
        refuted += r.stats.at("saturation_refutations");
        backward += r.stats.at("saturation_refutations_backward");
        rejected += r.stats.at("closure_rejections");
        ExploreOptions classic;
        classic.params["engine"] = "classic";
        const auto c = explore(*p, "rf", classic);
        EXPECT_EQ(c.stats.at("saturation_refutations"), 0.0);
        classicRejected += c.stats.at("closure_rejections");
    }
    EXPECT_GT(refuted, 0.0);
    // (and with the edges into older steps, checked the same way: checkRefutations)
    EXPECT_GT(backward, 0.0);
    EXPECT_LT(rejected, classicRejected);
}

// The ablations change the work, never the classes.
TEST(ReadsFromRfSmc, AblationsChangeWorkNotResults) {
    const std::vector<std::pair<std::string, std::shared_ptr<Program>>> progs = {
        {"rvfFig13c(3)", testprog::rvfFig13c(3)},
        {"fibBench(2)", testprog::fibBench(2)},
        {"xchgAwaitLock(3)", testprog::xchgAwaitLock(3)},
        {"nReadsLock(3)", testprog::nReadsLock(3)},
        {"spawnJoinChain", testprog::spawnJoinChain()}};
    for (const auto& [name, p] : progs) {
        ExploreOptions base;
        const auto b = explore(*p, "rf", base);
        bool changed = false;
        for (const auto& [opt, value] :
             std::vector<std::pair<std::string, std::string>>{{"backtrack_signals", "off"},
                                                              {"closure", "off"},
                                                              {"greedy", "off"},
                                                              {"guidance", "off"},
                                                              {"engine", "classic"}}) {
            ExploreOptions o;
            o.params[opt] = value;
            const auto r = explore(*p, "rf", o);
            EXPECT_EQ(r.complete, b.complete) << name << " " << opt;
            EXPECT_EQ(r.blocked, b.blocked) << name << " " << opt;
            EXPECT_EQ(r.outcomes, b.outcomes) << name << " " << opt;
            EXPECT_EQ(r.errorSites, b.errorSites) << name << " " << opt;
            changed = changed || r.stats.at("verifysc_calls") != b.stats.at("verifysc_calls") ||
                      r.stats.at("verifysc_states") != b.stats.at("verifysc_states") ||
                      r.stats.at("nodes") != b.stats.at("nodes");
        }
        EXPECT_TRUE(changed) << name << ": no ablation changed any work";
    }
}

TEST(ReadsFromRfSmc, StatisticsAndOptions) {
    const auto r = explore(*testprog::fibBench(2), "rf");
    for (const char* k : {"verifysc_calls", "verifysc_seconds", "verifysc_states", "nodes"})
        EXPECT_TRUE(r.stats.count(k)) << k;
    EXPECT_GT(r.stats.at("nodes"), 0.0);
    ExploreOptions o;
    o.params["closure"] = "maybe";
    EXPECT_THROW((void)explore(*testprog::rvfFig1(), "rf", o), InputError);
    o.params = {{"coherence", "wb"}};
    EXPECT_THROW((void)explore(*testprog::rvfFig1(), "rf", o), InputError);
    o.params = {{"engine", "fast"}};
    EXPECT_THROW((void)explore(*testprog::rvfFig1(), "rf", o), InputError);
}

TEST(ReadsFromRfGraph, CanonicalWitnessKeepsPlainWritesBeforeKills) {
    // rf-graph (and lapor) report a graph when its coherence is that of the canonical SC witness
    // of its reads-from. T0: w5 (plain write of 5), k (an exchange reading w5 and writing v);
    // T1: w (plain write of 1). Reads-from leaves w before w5 or after k. When k is a kill (a
    // free: v = kDeadValue), w after it faults, so the witness of this fault-free graph must put
    // w first; otherwise the search's first choice, T0's events first, is kept.
    auto graphWith = [](Value v) {
        graph::ExecutionGraph g;
        g.init(2, {0});
        g.ensureLoc(0);
        auto add = [&](ThreadId t, EventKind k, Value wval, graph::Ref rf) {
            graph::Node n;
            n.ev.kind = k;
            n.ev.loc = 0;
            n.ev.thread = t;
            n.ev.wval = wval;
            n.rf = rf;
            n.stamp = n.wstamp = g.nextStamp++;
            g.push(t, n);
        };
        add(0, EventKind::Write, 5, graph::kInitRef);
        add(0, EventKind::Exchange, v, graph::Ref{0, 0});
        add(1, EventKind::Write, 1, graph::kInitRef);
        return g;
    };
    const std::vector<std::int32_t> lim{2, 1};
    std::vector<graph::Ref> order;
    graph::SCChecker sc;
    const auto plain = graphWith(7);
    ASSERT_TRUE(sc.check(plain, lim, false, order));
    EXPECT_EQ(order, (std::vector<graph::Ref>{{0, 0}, {0, 1}, {1, 0}}));
    const auto killed = graphWith(kDeadValue);
    ASSERT_TRUE(sc.check(killed, lim, false, order));
    EXPECT_EQ(order, (std::vector<graph::Ref>{{1, 0}, {0, 0}, {0, 1}}));
}
