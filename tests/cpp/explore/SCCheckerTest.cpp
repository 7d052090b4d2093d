// SPDX-License-Identifier: MIT
// SCChecker's saturation (SCSaturation.cpp) against the plain search: on random graphs (critical
// sections, failed trylocks, kills, lock placeholders, reads-from taken from a random
// interleaving and then sometimes broken), with the saturation before the search or after its
// budget, the answer, the first witness and the final memory states (with their witnesses) are
// those of the plain search. And the graph that made LAPOR's rf mode exponential on nww-lock-rr is
// refuted by the saturation, without a search.
#include <gtest/gtest.h>

#include <random>

#include "porlab/explore/graph/ExecutionGraph.hpp"

using namespace porlab;
using graph::ExecutionGraph;
using graph::Node;
using graph::Ref;

namespace {

constexpr LocId kMemLocs = 2;  // memory locations 0, 1; mutexes 2, 3

struct RandomGraph {
    ExecutionGraph g;
    std::vector<std::int32_t> lim;
    bool placeholders = false;
};

// Threads of sections and accesses, run in a random interleaving that keeps sections apart
// (reads read the last write), then, sometimes, one read given another source.
RandomGraph randomGraph(std::mt19937& rng, bool mutexMode) {
    auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
    enum class Op { Read, Write, Rmw, Kill, Lock, Unlock, Trylock };
    struct Step {
        Op op;
        LocId loc;
    };
    const int T = 2 + pick(3);
    std::vector<std::vector<Step>> prog(static_cast<std::size_t>(T));
    for (auto& th : prog) {
        for (int k = 1 + pick(3); k-- > 0;) {
            const bool section = mutexMode && pick(2) == 0;
            const auto m = static_cast<LocId>(kMemLocs + pick(2));
            if (section) th.push_back({Op::Lock, m});
            for (int a = 1 + pick(2); a-- > 0;) {
                const auto loc = static_cast<LocId>(pick(kMemLocs));
                const int r = pick(10);
                const Op op = r < 4 ? Op::Read : r < 8 ? Op::Write : r < 9 ? Op::Rmw : Op::Kill;
                th.push_back({op, loc});
            }
            if (mutexMode && pick(4) == 0) th.push_back({Op::Trylock, m});
            if (section && (k > 0 || pick(4) != 0)) th.push_back({Op::Unlock, m});
        }
    }
    RandomGraph out;
    ExecutionGraph& g = out.g;
    g.init(T, {0, 0, 0, 0});
    for (LocId l = 0; l < kMemLocs + 2; ++l) g.ensureLoc(l);
    std::vector<std::size_t> pc(static_cast<std::size_t>(T), 0);
    std::vector<Ref> last(kMemLocs + 2, graph::kInitRef);  // memory: last write
    std::vector<Ref> holder(kMemLocs + 2, graph::kInitRef);
    Value next = 1;
    auto push = [&](ThreadId t, EventKind kind, LocId loc, Value wval, Ref rf) {
        Node n;
        n.ev.kind = kind;
        n.ev.thread = t;
        n.ev.loc = loc;
        n.ev.wval = wval;
        n.rf = rf;
        n.stamp = n.wstamp = g.nextStamp++;
        if (kind == EventKind::CasFailure) n.trylock = true;
        const Ref self{t, static_cast<std::int32_t>(g.threads[t].size())};
        g.push(t, n);
        return self;
    };
    for (;;) {
        std::vector<ThreadId> ready;
        for (ThreadId t = 0; t < T; ++t) {
            const auto& th = prog[static_cast<std::size_t>(t)];
            const auto p = pc[static_cast<std::size_t>(t)];
            if (p < th.size() &&
                !(th[p].op == Op::Lock && holder[th[p].loc].t != graph::kInitThread))
                ready.push_back(t);
        }
        if (ready.empty()) break;
        const ThreadId t = ready[static_cast<std::size_t>(pick(static_cast<int>(ready.size())))];
        const Step s = prog[static_cast<std::size_t>(t)][pc[static_cast<std::size_t>(t)]++];
        const auto l = static_cast<std::size_t>(s.loc);
        switch (s.op) {
            case Op::Read:
                push(t, EventKind::Read, s.loc, 0, last[l]);
                break;
            case Op::Write:
                last[l] = push(t, EventKind::Write, s.loc, next++, graph::kInitRef);
                break;
            case Op::Rmw:
                last[l] = push(t, EventKind::FetchAdd, s.loc, next++, last[l]);
                break;
            case Op::Kill:
                last[l] = push(t, EventKind::Exchange, s.loc, kDeadValue, last[l]);
                break;
            case Op::Lock:
                holder[l] = push(t, EventKind::Lock, s.loc, 0, graph::kInitRef);
                break;
            case Op::Unlock:
                holder[l] = graph::kInitRef;
                push(t, EventKind::Unlock, s.loc, 0, graph::kInitRef);
                break;
            case Op::Trylock:  // fails in another thread's section (else it is left out)
                if (holder[l].t != graph::kInitThread && holder[l].t != t)
                    push(t, EventKind::CasFailure, s.loc, 1, holder[l]);
                break;
        }
    }
    // A thread left blocked at a lock its program wants next: a lock placeholder.
    for (ThreadId t = 0; t < T; ++t) {
        const auto& th = prog[static_cast<std::size_t>(t)];
        const auto p = pc[static_cast<std::size_t>(t)];
        if (p < th.size() && th[p].op == Op::Lock) {
            Node n;
            n.ev.kind = EventKind::Lock;
            n.ev.thread = t;
            n.ev.loc = th[p].loc;
            n.placeholder = true;
            n.stamp = n.wstamp = g.nextStamp++;
            g.push(t, n);
            out.placeholders = true;
        }
    }
    // Sometimes a read reads another write of its location (often no witness then).
    if (pick(2) == 0) {
        std::vector<Ref> reads;
        for (ThreadId t = 0; t < T; ++t)
            for (std::int32_t i = 0; i < static_cast<std::int32_t>(g.threads[t].size()); ++i) {
                const Node& n = g.threads[t][static_cast<std::size_t>(i)];
                if (!n.placeholder && n.ev.loc < kMemLocs && readsMemory(n.ev.kind))
                    reads.push_back({t, i});
            }
        if (!reads.empty()) {
            const Ref r = reads[static_cast<std::size_t>(pick(static_cast<int>(reads.size())))];
            std::vector<Ref> writes{graph::kInitRef};
            for (ThreadId t = 0; t < T; ++t)
                for (std::int32_t i = 0; i < static_cast<std::int32_t>(g.threads[t].size()); ++i) {
                    const Node& n = g.threads[t][static_cast<std::size_t>(i)];
                    if (!(Ref{t, i} == r) && !n.placeholder && n.ev.loc == g.at(r).ev.loc &&
                        writesMemory(n.ev.kind))
                        writes.push_back({t, i});
                }
            g.at(r).rf = writes[static_cast<std::size_t>(pick(static_cast<int>(writes.size())))];
        }
    }
    out.lim.resize(static_cast<std::size_t>(T));
    for (ThreadId t = 0; t < T; ++t)
        out.lim[static_cast<std::size_t>(t)] = static_cast<std::int32_t>(g.threads[t].size());
    return out;
}

}  // namespace

TEST(SCChecker, SaturationKeepsAnswersWitnessesAndFinals) {
    // Four checkers: the plain search, the saturation first (these graphs are small), the
    // saturation after a budget of 16 states (the search starts over), and the default, which
    // goes from one to the other (adaptAfter).
    std::uint64_t refuted = 0, consistent = 0, pruned = 0, restarted = 0;
    std::uint64_t adaptedPlain = 0, adaptedSaturated = 0;
    for (const bool mutexMode : {true, false}) {
        std::mt19937 rng(mutexMode ? 7 : 11);
        graph::SCChecker plain, first, late, adaptive;
        plain.mutexLocks = first.mutexLocks = late.mutexLocks = adaptive.mutexLocks = mutexMode;
        plain.saturation = false;
        first.adaptAfter = 0;
        late.saturateFirstUpTo = 0;
        late.budgetPerEvent = 0;
        adaptive.adaptAfter = 2;  // (the graphs vary: it changes modes often)
        adaptive.budgetPerEvent = 0;
        for (int k = 0; k < 3000; ++k) {
            const RandomGraph rg = randomGraph(rng, mutexMode);
            SCOPED_TRACE(testing::Message() << "mutex " << mutexMode << " graph " << k << "\n"
                                            << rg.g.toString());
            std::vector<Ref> o1, o2, o3;
            const std::uint64_t s1 = plain.states, s2 = first.states;
            const bool a = plain.check(rg.g, rg.lim, rg.placeholders, o1);
            ASSERT_EQ(first.check(rg.g, rg.lim, rg.placeholders, o2), a);
            ASSERT_EQ(o1, o2);
            ASSERT_EQ(late.check(rg.g, rg.lim, rg.placeholders, o3), a);
            ASSERT_EQ(o1, o3);
            ASSERT_EQ(adaptive.check(rg.g, rg.lim, rg.placeholders, o3), a);
            ASSERT_EQ(o1, o3);
            consistent += a;
            pruned += first.states - s2 < plain.states - s1;
            std::vector<std::vector<Value>> f1, f2, f3;
            std::vector<std::vector<Ref>> w1, w2, w3;
            plain.finals(rg.g, rg.lim, rg.placeholders, f1, &w1);
            first.finals(rg.g, rg.lim, rg.placeholders, f2, &w2);
            late.finals(rg.g, rg.lim, rg.placeholders, f3, &w3);
            ASSERT_EQ(f1, f2);
            ASSERT_EQ(w1, w2);
            ASSERT_EQ(f1, f3);
            ASSERT_EQ(w1, w3);
        }
        refuted += first.saturationRefuted;
        restarted += late.saturations;
        adaptedPlain += adaptive.plainFirst;
        adaptedSaturated += adaptive.saturations;
    }
    // (The sample exercises both answers, the pruning and the restart after the budget.)
    EXPECT_GT(refuted, 500U);
    EXPECT_GT(consistent, 2000U);
    EXPECT_GT(pruned, 100U);
    EXPECT_GT(restarted, 100U);
    EXPECT_GT(adaptedPlain, 100U);
    EXPECT_GT(adaptedSaturated, 100U);
}

TEST(SCChecker, SaturationRefutesNwwLockRrWithoutSearch) {
    // nww-lock-rr(N) in LAPOR's rf mode: thread i (1..N) runs `lock; x = i; y = i; unlock`; main
    // (thread 0) has joined them all and reads x from thread 1 and y from thread 2. x = 2 comes
    // before the read of x, so before x = 1; y = 1 before y = 2 likewise: the sections are
    // ordered both ways. The plain search tries every set of finished sections first (2^(N-2)
    // downsets); the saturation finds the cycle before any state.
    constexpr int N = 12;
    auto nww = [](ThreadId xFrom, ThreadId yFrom) {
        ExecutionGraph g;
        g.init(N + 1, {0, 0, 0});
        for (LocId l = 0; l < 3; ++l) g.ensureLoc(l);
        auto push = [&](ThreadId t, EventKind kind, LocId loc, Value wval, Ref rf,
                        std::int32_t aux) {
            Node n;
            n.ev.kind = kind;
            n.ev.thread = t;
            n.ev.loc = loc;
            n.ev.wval = wval;
            n.ev.aux = aux;
            n.rf = rf;
            n.stamp = n.wstamp = g.nextStamp++;
            g.push(t, n);
        };
        for (ThreadId t = 1; t <= N; ++t) push(0, EventKind::Spawn, kNoLoc, 0, graph::kInitRef, t);
        for (ThreadId t = 1; t <= N; ++t) {
            push(t, EventKind::Lock, 2, 0, graph::kInitRef, -1);
            push(t, EventKind::Write, 0, t, graph::kInitRef, -1);
            push(t, EventKind::Write, 1, t, graph::kInitRef, -1);
            push(t, EventKind::Unlock, 2, 0, graph::kInitRef, -1);
        }
        for (ThreadId t = 1; t <= N; ++t) push(0, EventKind::Join, kNoLoc, 0, graph::kInitRef, t);
        push(0, EventKind::Read, 0, 0, Ref{xFrom, 1}, -1);
        push(0, EventKind::Read, 1, 0, Ref{yFrom, 2}, -1);
        return g;
    };
    const ExecutionGraph g = nww(1, 2);
    std::vector<std::int32_t> lim(N + 1, 4);
    lim[0] = 2 * N + 2;
    std::vector<Ref> order;
    graph::SCChecker plain, sat;
    plain.mutexLocks = sat.mutexLocks = true;
    plain.saturation = false;
    EXPECT_FALSE(plain.check(g, lim, false, order));
    EXPECT_GT(plain.states, std::uint64_t{1} << (N - 2));
    EXPECT_FALSE(sat.check(g, lim, false, order));
    EXPECT_EQ(sat.saturationRefuted, 1U);
    EXPECT_EQ(sat.states, 0U);
    // A larger graph would get the plain search first, the saturation after its budget.
    graph::SCChecker late;
    late.mutexLocks = true;
    late.saturateFirstUpTo = 0;
    EXPECT_FALSE(late.check(g, lim, false, order));
    EXPECT_EQ(late.saturationRefuted, 1U);
    EXPECT_LE(late.states, 2U * (6 * N + 2) + 17);
    // Main reading both from thread 2: consistent (thread 2's section last), found without the
    // plain search's detours.
    const ExecutionGraph h = nww(2, 2);
    ASSERT_TRUE(plain.check(h, lim, false, order));
    std::vector<Ref> order2;
    const std::uint64_t before = sat.states;
    ASSERT_TRUE(sat.check(h, lim, false, order2));
    EXPECT_EQ(order, order2);
    EXPECT_EQ(sat.states - before, 6U * N + 2);  // a step per event: no backtracking
    EXPECT_EQ(order2.back(), (Ref{0, 2 * N + 1}));
}
