// SPDX-License-Identifier: MIT
// The order in which `lapor` extends threads (Lapor.cpp's nextThread) is a function of the graph,
// not of the ids a program gives its threads: the same program with its threads numbered
// otherwise (a C program's main is thread 0, a builder program's main often the last) explores
// the same graphs at the same cost, and is exact against the `naive` oracle in every numbering.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <initializer_list>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "RandomProgram.hpp"
#include "TestPrograms.hpp"
#include "porlab/equiv/Keys.hpp"
#include "porlab/explore/Explorer.hpp"
#include "porlab/program/SpecBuilder.hpp"

using namespace porlab;

namespace {

// The numberings of a program whose thread 0 (logical) is main and 1..W its workers: which
// logical thread gets id 0, 1, ...
std::vector<std::vector<int>> numberings(int workers) {
    std::vector<int> mainFirst{0}, mainLast, reversedLast, reversedFirst{0};
    for (int k = 1; k <= workers; ++k) {
        mainFirst.push_back(k);
        mainLast.push_back(k);
    }
    mainLast.push_back(0);
    for (int k = workers; k >= 1; --k) {
        reversedLast.push_back(k);
        reversedFirst.push_back(k);
    }
    reversedLast.push_back(0);
    return {mainFirst, mainLast, reversedLast, reversedFirst};
}

// Creates the threads of `order` (logical ids) in that order: by[logical] is the thread; only
// main (logical 0) starts with the program.
std::vector<SpecBuilder::Thread*> threadsIn(SpecBuilder& b, const std::vector<int>& order) {
    std::vector<SpecBuilder::Thread*> by(order.size());
    for (const int k : order)
        by[static_cast<std::size_t>(k)] =
            &b.thread(k == 0 ? "main" : "w" + std::to_string(k), k == 0);
    return by;
}

// fib_bench(num) as in benchmarks/programs/shared/fib_bench.c: main spawns t1 (i += j, num
// times) and t2 (j += i), then reads i and j in two sections.
std::shared_ptr<Program> fibBenchSpawned(int num, const std::vector<int>& order) {
    SpecBuilder b("fib_bench_spawned");
    const LocId i = b.var("i", 1), j = b.var("j", 1), l = b.mutex("l");
    const auto th = threadsIn(b, order);
    testprog::fibSections(*th[1], num, l, i, j);
    testprog::fibSections(*th[2], num, l, j, i);
    auto& m = *th[0];
    m.spawn(th[1]->id()).spawn(th[2]->id());
    m.lock(l).load(-1, i).unlock(l).lock(l).load(-1, j).unlock(l);
    return b.build();
}

// tests/c/cond_broadcast_bug.c: two consumers wait with `if` around a condition wait (unlock,
// await a broadcast, lock); main adds two items, broadcasting after each.
std::shared_ptr<Program> condBroadcastBug(const std::vector<int>& order) {
    SpecBuilder b("cond_broadcast_bug");
    const LocId items = b.var("items"), c = b.var("c"), m = b.mutex("m");
    const auto th = threadsIn(b, order);
    for (int k = 1; k <= 2; ++k) {
        auto& t = *th[static_cast<std::size_t>(k)];
        const int it = t.reg(), s = t.reg(), z = t.reg(), v = t.reg(), ok = t.reg();
        t.lock(m).load(it, items).binImm(z, BinOp::Eq, it, 0);
        const int skip = t.jumpIfZero(z);
        t.load(s, c).unlock(m);
        // await c != s (the await's operand is a constant: branch on the value read)
        const int s0 = t.reg();
        t.binImm(s0, BinOp::Eq, s, 0);
        const int nonzero = t.jumpIfZero(s0);
        t.await(-1, c, AwaitCond::NE, 0);
        const int done = t.jump();
        t.patchHere(nonzero);
        t.await(-1, c, AwaitCond::NE, 1);
        t.patchHere(done);
        t.lock(m);
        t.patchHere(skip);
        t.load(v, items).binImm(v, BinOp::Sub, v, 1).storeReg(items, v).load(v, items).unlock(m);
        t.binImm(ok, BinOp::Ge, v, 0).assertTrue(ok);
    }
    auto& mt = *th[0];
    mt.spawn(th[1]->id()).spawn(th[2]->id());
    const int r = mt.reg(), old = mt.reg();
    for (int k = 0; k < 2; ++k)
        mt.lock(m)
            .load(r, items)
            .binImm(r, BinOp::Add, r, 1)
            .storeReg(items, r)
            .faa(old, c, 1)
            .unlock(m);
    return b.build();
}

// A random program of this shape: main runs some operations, spawns its 2-3 workers one at a
// time with operations in between, joins some of them and runs a few more operations; the
// workers run random bodies (loads, stores, read-modify-writes, awaits, lock blocks: the
// generator of RandomProgram.hpp). The same seed gives the same program in every numbering.
std::shared_ptr<Program> spawnedProgram(std::uint64_t seed, int numbering) {
    testprog::SplitMix64 rng(seed * 0x9e3779b97f4a7c15ULL + 5);
    testprog::RandomProgramOptions o;
    o.spawns = false;
    const int workers = 2 + rng.below(2);
    std::vector<int> budget(static_cast<std::size_t>(workers) + 1);
    for (auto& x : budget) x = 1 + rng.below(7);
    budget[0] += workers;  // (the spawns)
    while (testprog::detail::multinomial(budget) > 20000) {
        auto it = std::max_element(budget.begin() + 1, budget.end());
        if (*it <= 1) break;
        --*it;
    }
    const int mainOps = std::max(0, budget[0] - workers - rng.below(2));
    SpecBuilder b("spawned_" + std::to_string(seed));
    std::vector<LocId> vars, mutexes;
    const int nVars = 1 + rng.below(3);
    for (int k = 0; k < nVars; ++k) vars.push_back(b.var("v" + std::to_string(k)));
    for (int k = 0; k < 1 + rng.below(2); ++k) mutexes.push_back(b.mutex("m" + std::to_string(k)));
    const auto order = numberings(workers)[static_cast<std::size_t>(numbering)];
    const auto th = threadsIn(b, order);
    for (int k = 1; k <= workers; ++k) {
        testprog::SplitMix64 wr(seed * 1000003 + static_cast<std::uint64_t>(k));
        testprog::detail::RandomThreadWriter w(wr, o, *th[static_cast<std::size_t>(k)], vars,
                                               mutexes);
        w.body(budget[static_cast<std::size_t>(k)]);
    }
    auto& m = *th[0];
    testprog::SplitMix64 mr(seed * 1000003);
    testprog::detail::RandomThreadWriter w(mr, o, m, vars, mutexes);
    int left = mainOps;
    for (int k = 1; k <= workers; ++k) {
        const int now = left > 0 ? mr.below(left + 1) : 0;
        w.body(now);
        left -= now;
        m.spawn(th[static_cast<std::size_t>(k)]->id());
    }
    for (int k = 1; k <= workers; ++k)
        if (mr.chance(40)) m.join(th[static_cast<std::size_t>(k)]->id());
    w.body(left);
    return b.build();
}

// Condition-variable shapes (cond_broadcast_bug's): fragments over x, y and one mutex, among
// them a wait (`lock; r = x; if (r == 0) { unlock; await y; lock } x = x - 1; unlock`) and a
// broadcast (`lock; x = x + 1; y += 1; unlock`). Main spawns its two workers, each maybe after
// a fragment, then runs one or two. A program is drawn as fragments (CondSpec) and built from
// them, so that a failing one can be cut down fragment by fragment.
struct CondFragment {
    int kind = 0;  // 0..5, as in condFragment
    Value k = 0;
    bool flag = false;  // kind 1: await != k (else >= k); kinds 3..5: on x (else y)
};

CondFragment drawCondFragment(testprog::SplitMix64& rng) {
    CondFragment f;
    f.k = rng.below(3);
    f.kind = rng.below(6);
    if (f.kind != 0 && f.kind != 2) f.flag = rng.chance(50);
    return f;
}

void condFragment(SpecBuilder::Thread& t, const CondFragment& f, LocId x, LocId y, LocId m) {
    const int r = t.reg(), q = t.reg();
    switch (f.kind) {
        case 0: {  // lock; r = x; if (r == k) y = k + 1; unlock
            t.lock(m).load(r, x).binImm(q, BinOp::Eq, r, f.k);
            const int j = t.jumpIfZero(q);
            t.store(y, f.k + 1);
            t.patchHere(j);
            t.unlock(m);
            break;
        }
        case 1: {  // the wait: lock; r = x; if (r == 0) { unlock; await y; lock } x = x - 1; unlock
            t.lock(m).load(r, x).binImm(q, BinOp::Eq, r, 0);
            const int j = t.jumpIfZero(q);
            t.unlock(m).await(-1, y, f.flag ? AwaitCond::NE : AwaitCond::SGE, f.k).lock(m);
            t.patchHere(j);
            t.load(r, x).binImm(r, BinOp::Sub, r, 1).storeReg(x, r).unlock(m);
            break;
        }
        case 2:  // the broadcast
            t.lock(m).load(r, x).binImm(r, BinOp::Add, r, 1).storeReg(x, r).faa(q, y, 1).unlock(m);
            break;
        case 3:
            t.store(f.flag ? x : y, f.k);
            break;
        case 4:
            t.load(r, f.flag ? x : y);
            break;
        default:
            t.faa(r, f.flag ? x : y, 1);
            break;
    }
}

struct CondSpec {
    std::vector<CondFragment> worker[2];
    std::vector<CondFragment> beforeSpawn[2];  // main's fragment before spawning worker k (0/1)
    std::vector<CondFragment> tail;            // main's after the spawns
};

CondSpec drawCondSpec(std::uint64_t seed) {
    CondSpec s;
    testprog::SplitMix64 rng(seed * 0x9e3779b97f4a7c15ULL + 11);
    const int mainFrags = 1 + rng.below(2);
    for (int k = 1; k <= 2; ++k) {
        testprog::SplitMix64 wr(seed * 1000003 + static_cast<std::uint64_t>(k));
        const int n = 1 + wr.below(2);
        for (int f = 0; f < n; ++f) s.worker[k - 1].push_back(drawCondFragment(wr));
    }
    testprog::SplitMix64 mr(seed * 1000003);
    for (int k = 1; k <= 2; ++k)
        if (mr.chance(30)) s.beforeSpawn[k - 1].push_back(drawCondFragment(mr));
    for (int f = 0; f < mainFrags; ++f) s.tail.push_back(drawCondFragment(mr));
    return s;
}

std::shared_ptr<Program> condProgram(const CondSpec& s, int numbering) {
    SpecBuilder b("cond");
    const LocId x = b.var("x"), y = b.var("y"), m = b.mutex("m");
    const auto order = numberings(2)[static_cast<std::size_t>(numbering)];
    const auto th = threadsIn(b, order);
    for (int k = 1; k <= 2; ++k)
        for (const auto& f : s.worker[k - 1])
            condFragment(*th[static_cast<std::size_t>(k)], f, x, y, m);
    auto& mt = *th[0];
    for (int k = 1; k <= 2; ++k) {
        for (const auto& f : s.beforeSpawn[k - 1]) condFragment(mt, f, x, y, m);
        mt.spawn(th[static_cast<std::size_t>(k)]->id());
    }
    for (const auto& f : s.tail) condFragment(mt, f, x, y, m);
    return b.build();
}

struct Classes {
    std::set<Key> complete, blocked;
};

// lapor (wb_graphs = co-filter or rf) against naive's lock-aware classes and outcomes; "" if
// they agree.
std::string checkExact(const Program& p) {
    Classes want;
    ExploreOptions no;
    no.onTrace = [&](const Trace& t) {
        if (t.status() == TraceStatus::Complete)
            want.complete.insert(traceKey(Equivalence::LockAware, t));
        if (t.status() == TraceStatus::Blocked)
            want.blocked.insert(traceKey(Equivalence::LockAware, t));
    };
    const auto naive = explore(p, "naive", no);
    std::ostringstream m;
    for (const char* wbGraphs : {"co-filter", "rf"}) {
        Classes got;
        ExploreOptions lo;
        lo.params["wb_graphs"] = wbGraphs;
        lo.onTrace = [&](const Trace& t) {
            if (t.status() == TraceStatus::Complete)
                got.complete.insert(traceKey(Equivalence::LockAware, t));
            if (t.status() == TraceStatus::Blocked)
                got.blocked.insert(traceKey(Equivalence::LockAware, t));
        };
        const auto r = explore(p, "lapor", lo);
        if (got.complete != want.complete || r.complete != want.complete.size())
            m << " " << wbGraphs << ": complete " << r.complete << " (" << got.complete.size()
              << " classes) vs " << want.complete.size() << ";";
        if (got.blocked != want.blocked || r.blocked != want.blocked.size())
            m << " " << wbGraphs << ": blocked " << r.blocked << " vs " << want.blocked.size()
              << ";";
        if (r.outcomes != naive.outcomes) m << " " << wbGraphs << ": outcomes differ;";
        if (r.errorSites != naive.errorSites) m << " " << wbGraphs << ": error sites differ;";
    }
    return m.str();
}

// lapor in `modes` (wb_graphs = co-filter, rf; "mo": coherence = mo), with option inconsistent,
// against naive's lock-aware (mo: lock-aware-mo) classes; "" if they agree. exact: the same
// complete and blocked classes, outcomes and error sites; else sound: none that naive lacks, and
// no class reported twice.
std::string checkModes(const Program& p, bool exact, const char* inconsistent,
                       std::initializer_list<const char*> modes) {
    Classes want, wantMo;
    ExploreOptions no;
    no.onTrace = [&](const Trace& t) {
        if (t.status() == TraceStatus::Complete) {
            want.complete.insert(traceKey(Equivalence::LockAware, t));
            wantMo.complete.insert(traceKey(Equivalence::LockAwareMo, t));
        }
        if (t.status() == TraceStatus::Blocked) {
            want.blocked.insert(traceKey(Equivalence::LockAware, t));
            wantMo.blocked.insert(traceKey(Equivalence::LockAwareMo, t));
        }
    };
    const auto naive = explore(p, "naive", no);
    auto agree = [exact](const std::set<Key>& got, const std::set<Key>& w) {
        return exact ? got == w : std::includes(w.begin(), w.end(), got.begin(), got.end());
    };
    std::ostringstream m;
    for (const char* mode : modes) {
        const bool mo = std::string(mode) == "mo";
        const Equivalence eq = mo ? Equivalence::LockAwareMo : Equivalence::LockAware;
        const Classes& w = mo ? wantMo : want;
        Classes got;
        ExploreOptions lo;
        lo.params["inconsistent"] = inconsistent;
        if (mo)
            lo.params["coherence"] = "mo";
        else
            lo.params["wb_graphs"] = mode;
        lo.onTrace = [&](const Trace& t) {
            if (t.status() == TraceStatus::Complete) got.complete.insert(traceKey(eq, t));
            if (t.status() == TraceStatus::Blocked) got.blocked.insert(traceKey(eq, t));
        };
        const auto r = explore(p, "lapor", lo);
        if (!agree(got.complete, w.complete) || !agree(got.blocked, w.blocked) ||
            r.complete != got.complete.size() || r.blocked != got.blocked.size())
            m << " " << mode << ": " << r.complete << " complete traces (" << got.complete.size()
              << " classes) vs " << w.complete.size() << ", " << r.blocked << " blocked ("
              << got.blocked.size() << ") vs " << w.blocked.size() << ";";
        bool outcomes = exact ? r.outcomes == naive.outcomes : true;
        for (const auto& o : r.outcomes) outcomes = outcomes && naive.outcomes.contains(o);
        if (!outcomes) m << " " << mode << ": outcomes differ;";
        bool sites = exact ? r.errorSites == naive.errorSites : true;
        for (const auto& e : r.errorSites)
            sites =
                sites && std::binary_search(naive.errorSites.begin(), naive.errorSites.end(), e);
        if (!sites) m << " " << mode << ": error sites differ;";
    }
    return m.str();
}

struct Cost {
    std::uint64_t complete = 0;
    double revisits = 0, checks = 0;
    friend bool operator==(const Cost&, const Cost&) = default;
};

Cost cost(const Program& p, const char* wbGraphs) {
    ExploreOptions o;
    o.params["wb_graphs"] = wbGraphs;
    o.collectOutcomes = false;
    const auto r = explore(p, "lapor", o);
    const char* checks =
        std::string(wbGraphs) == "rf" ? "wb_consistency_checks" : "consistency_checks";
    return {r.complete, r.stats.at("revisits"), r.stats.at(checks)};
}

int randomProgramCount() {
    if (const char* s = std::getenv("PORLAB_RANDOM_PROGRAMS")) return std::max(1, std::atoi(s));
    return 500;
}

}  // namespace

// fib_bench(3) with main as thread 0 (as in C) or as the last thread (as in
// examples/lapor_fib_bench.py), the workers in either order: 230 classes, and the same small
// cost in every numbering. (With the left-most thread first, main-first revisits 229 times and
// checks 1,620 graphs in co-filter mode; main-last revisits 19 times.)
TEST(LaporOrder, FibBenchCostsTheSameInEveryNumbering) {
    for (const char* wbGraphs : {"co-filter", "rf"}) {
        std::vector<Cost> costs;
        for (const auto& order : numberings(2))
            costs.push_back(cost(*fibBenchSpawned(3, order), wbGraphs));
        for (std::size_t k = 0; k < costs.size(); ++k) {
            EXPECT_EQ(costs[k].complete, 230u) << wbGraphs << " numbering " << k;
            EXPECT_EQ(costs[k].revisits, 19.0) << wbGraphs << " numbering " << k;
            EXPECT_EQ(costs[k], costs[0]) << wbGraphs << " numbering " << k;
        }
    }
}

// cond_broadcast_bug in every numbering. With the left-most thread first, main first (as in C)
// lost 2 of the 34 complete classes here in co-filter mode (traces where the first consumer's
// wait ends on the second broadcast; tests/c/cond_broadcast_bug.c itself lost them only with the
// consumers numbered against their spawn order, in a Python builder version); with the thread
// spawned last first, every numbering lost them (Lapor.cpp's nextThread).
TEST(LaporOrder, CondBroadcastBugIsExactInEveryNumbering) {
    std::size_t k = 0;
    for (const auto& order : numberings(2))
        EXPECT_EQ(checkExact(*condBroadcastBug(order)), "") << "numbering " << k++;
}

// The smallest programs that lost classes (cut down from seeds 4000234 and 4000271 fragment by
// fragment), with naive's class counts: lock-aware (co-filter, rf) and lock-aware-mo (mo).
// Exact in every mode with inconsistent = explore; with the default (drop) sound, not exact
// (Lapor.cpp's nextThread traces both):
//  * w1 `x = 1; r = y` ∥ w2 `lock; r = x; x = r + 1; faa(y, 1); unlock` ∥ main: spawn w1, w2;
//    `lock; r = x; if (r == 1) y = 2; unlock`: 15 and 19 classes. drop: mo finds 18 in every
//    numbering, co-filter 14 in numberings 2 and 3 (the graph reached is not the class's
//    canonical one), rf all 15.
//  * w1 `x = 1; lock; x += 1; faa(y, 1); unlock` ∥ w2 and main `lock; x += 1; faa(y, 1);
//    unlock` (main after spawning w1, w2): 16 and 18. drop: mo finds 17 in every numbering, rf
//    15 in numberings 0 and 2 and 14 in numbering 3, co-filter 15 in numberings 2 and 3.
CondSpec condShapesLostCoherence() {
    CondSpec s;
    s.worker[0] = {{3, 1, true}, {4, 0, false}};  // x = 1; r = y
    s.worker[1] = {{2, 0, false}};                // the broadcast
    s.tail = {{0, 1, false}};                     // lock; r = x; if (r == 1) y = 2; unlock
    return s;
}
CondSpec condShapesDeadEnd() {
    CondSpec s;
    s.worker[0] = {{3, 1, true}, {2, 0, false}};  // x = 1; the broadcast
    s.worker[1] = {{2, 0, false}};
    s.tail = {{2, 0, false}};
    return s;
}

std::pair<std::size_t, std::size_t> naiveClasses(const Program& p) {
    std::set<Key> la, mo;
    ExploreOptions no;
    no.onTrace = [&](const Trace& t) {
        if (t.status() != TraceStatus::Complete) return;
        la.insert(traceKey(Equivalence::LockAware, t));
        mo.insert(traceKey(Equivalence::LockAwareMo, t));
    };
    (void)explore(p, "naive", no);
    return {la.size(), mo.size()};
}

constexpr std::initializer_list<const char*> kAllModes = {"co-filter", "rf", "mo"};

TEST(LaporOrder, CondShapesLostCoherence) {
    for (int k = 0; k < 4; ++k) {
        const auto p = condProgram(condShapesLostCoherence(), k);
        EXPECT_EQ(naiveClasses(*p), std::make_pair(std::size_t{15}, std::size_t{19}));
        EXPECT_EQ(checkModes(*p, true, "explore", kAllModes), "") << "numbering " << k;
        EXPECT_EQ(checkModes(*p, false, "drop", kAllModes), "") << "numbering " << k;
    }
}

TEST(LaporOrder, CondShapesDeadEnd) {
    for (int k = 0; k < 4; ++k) {
        const auto p = condProgram(condShapesDeadEnd(), k);
        EXPECT_EQ(naiveClasses(*p), std::make_pair(std::size_t{16}, std::size_t{18}));
        EXPECT_EQ(checkModes(*p, true, "explore", kAllModes), "") << "numbering " << k;
        EXPECT_EQ(checkModes(*p, false, "drop", kAllModes), "") << "numbering " << k;
    }
}

// Condition-variable shapes (condProgram) in every numbering. inconsistent = explore: exact in
// co-filter and mo mode (2,000 programs: none lost), sound in rf mode (9 runs of 2,000 programs
// in 4 numberings still lost classes, e.g. seeds 4000234, 4001159, 4001590: rf's canonical
// sources, WbGraphs::maximallyAddedRead, are the last ones with which Prev(e) stays consistent,
// which does not match the parents an exploration of inconsistent graphs has). The default
// (drop): sound, not exact (111 runs lost classes).
// (Two shards, numberings 0-1 and 2-3, each ~2.5 s at the default size.)
void condRandomPrograms(int shard) {
    const int n = std::max(1, randomProgramCount() / 5);
    int bad = 0;
    for (int i = 1; i <= n; ++i) {
        const auto seed = 4000000 + static_cast<std::uint64_t>(i);
        const CondSpec spec = drawCondSpec(seed);
        for (int k = 2 * shard; k < 2 * shard + 2; ++k) {
            const auto p = condProgram(spec, k);
            const auto msg = checkModes(*p, true, "explore", {"co-filter", "mo"}) +
                             checkModes(*p, false, "explore", {"rf"}) +
                             checkModes(*p, false, "drop", kAllModes);
            if (!msg.empty() && ++bad <= 10)
                ADD_FAILURE() << "seed " << seed << " numbering " << k << ":" << msg;
        }
    }
    EXPECT_EQ(bad, 0) << "of " << n << " programs in 2 numberings";
}

TEST(LaporOrder, CondRandomProgramsInNumberings01) { condRandomPrograms(0); }
TEST(LaporOrder, CondRandomProgramsInNumberings23) { condRandomPrograms(1); }

// Random programs of the C shape (main spawns the workers, with operations in between, and
// joins some): exact in every numbering, and the same cost in each.
TEST(LaporOrder, SpawnedRandomProgramsInEveryNumbering) {
    const int n = std::max(1, randomProgramCount() / 2);
    int bad = 0, costly = 0;
    for (int i = 1; i <= n; ++i) {
        const auto seed = 3000000 + static_cast<std::uint64_t>(i);
        std::vector<Cost> costs;
        for (int k = 0; k < 4; ++k) {
            const auto p = spawnedProgram(seed, k);
            const auto msg = checkExact(*p);
            if (!msg.empty() && ++bad <= 10)
                ADD_FAILURE() << "seed " << seed << " numbering " << k << ":" << msg;
            costs.push_back(cost(*p, "co-filter"));
        }
        for (int k = 1; k < 4; ++k)
            if (!(costs[static_cast<std::size_t>(k)] == costs[0]) && ++costly <= 10)
                ADD_FAILURE() << "seed " << seed << " numbering " << k << ": revisits "
                              << costs[static_cast<std::size_t>(k)].revisits << " vs "
                              << costs[0].revisits << ", checks "
                              << costs[static_cast<std::size_t>(k)].checks << " vs "
                              << costs[0].checks;
    }
    EXPECT_EQ(bad, 0) << "of " << n << " programs in 4 numberings";
    EXPECT_EQ(costly, 0) << "of " << n << " programs";
}
