// SPDX-License-Identifier: MIT
// The structures that keep long executions linear (issue 15, §5), against plain recomputation:
//  * every node of an execution graph keeps its porf view (a vector clock, computed from its
//    direct predecessors when it is added): on random graphs, as nodes come and go, a revisit
//    keeps a prefix (assignPrefix) or changes a source (refreshView), porfPrefix equals the
//    closure over the graph's edges that porlab computed before (a fixpoint over the graph);
//  * every thread's lock balance and open critical sections equal a walk over its nodes;
//  * WitnessStack: the witness of every depth, in one buffer, stays what it was set to while
//    deeper depths come and go;
// and the searches that run long between two events end when asked (the interrupt hooks the
// explorers connect to their budgets): SCChecker, CoChecker in mutex mode, VerifySC.
// Memory and budgets measured on whole explorations: tests/python/test_long_executions.py.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <sstream>
#include <utility>
#include <vector>

#include "porlab/explore/RvfVerifySC.hpp"
#include "porlab/explore/graph/ExecutionGraph.hpp"
#include "porlab/explore/graph/GraphExplorer.hpp"

using namespace porlab;
using namespace porlab::graph;

namespace {

// The porf-prefix strictly before node a, recomputed from the edges of g: po, rf (of reads that
// are not placeholders), the spawn into a thread's first node, a join from all of its thread.
std::vector<std::int32_t> referencePorf(const ExecutionGraph& g, Ref a) {
    const std::size_t T = g.threads.size();
    std::vector<std::int32_t> upto(T, 0), done(T, 0);
    auto raise = [&](ThreadId t, std::int32_t n) {
        auto& u = upto[static_cast<std::size_t>(t)];
        u = std::max(u, n);
    };
    auto follow = [&](ThreadId t, std::int32_t i) {
        const Node& n = g.threads[static_cast<std::size_t>(t)][static_cast<std::size_t>(i)];
        if (n.placeholder) return;
        if (readsMemory(n.ev.kind) && n.rf.t != kInitThread) raise(n.rf.t, n.rf.i + 1);
        if (n.ev.kind == EventKind::Join && n.ev.aux >= 0)
            raise(n.ev.aux,
                  static_cast<std::int32_t>(g.threads[static_cast<std::size_t>(n.ev.aux)].size()));
        if (i == 0)
            for (std::size_t u = 0; u < T; ++u)
                for (std::size_t j = 0; j < g.threads[u].size(); ++j) {
                    const Event& e = g.threads[u][j].ev;
                    if (e.kind == EventKind::Spawn && e.aux == t)
                        raise(static_cast<ThreadId>(u), static_cast<std::int32_t>(j) + 1);
                }
    };
    raise(a.t, a.i);
    follow(a.t, a.i);
    for (bool changed = true; changed;) {
        changed = false;
        for (std::size_t t = 0; t < T; ++t)
            while (done[t] < upto[t]) {
                follow(static_cast<ThreadId>(t), done[t]++);
                changed = true;
            }
    }
    return upto;
}

// Compare porfPrefix of every node, and porfBeforeNext of every thread, with the reference.
::testing::AssertionResult viewsMatch(const ExecutionGraph& g) {
    std::vector<std::int32_t> got;
    for (std::size_t t = 0; t < g.threads.size(); ++t) {
        for (std::size_t i = 0; i < g.threads[t].size(); ++i) {
            const Ref a{static_cast<std::int32_t>(t), static_cast<std::int32_t>(i)};
            g.porfPrefix(a, got);
            if (got != referencePorf(g, a))
                return ::testing::AssertionFailure() << "porf of " << t << "." << i << "\n"
                                                     << g.toString();
        }
        // a stand-in next node with no edges of its own: what porf(a) is without a's source
        ExecutionGraph h = g;
        Node stand;
        stand.ev.kind = EventKind::AssumeBlock;
        stand.ev.thread = static_cast<ThreadId>(t);
        g.porfBeforeNext(static_cast<ThreadId>(t), got);
        h.push(static_cast<ThreadId>(t), stand);
        const Ref s{static_cast<std::int32_t>(t), static_cast<std::int32_t>(g.threads[t].size())};
        if (got != referencePorf(h, s))
            return ::testing::AssertionFailure() << "porf before the next node of " << t << "\n"
                                                 << g.toString();
    }
    return ::testing::AssertionSuccess();
}

// Lock balance and open sections of thread t, by walking its nodes.
std::pair<std::int32_t, std::vector<std::pair<LocId, std::int32_t>>> referenceLocks(
    const ExecutionGraph& g, ThreadId t) {
    std::int32_t held = 0;
    std::vector<std::pair<LocId, std::int32_t>> open;
    const auto& th = g.threads[static_cast<std::size_t>(t)];
    for (std::size_t i = 0; i < th.size(); ++i) {
        const Node& n = th[i];
        if (n.placeholder) continue;
        if (acquires(n)) {
            ++held;
            open.emplace_back(n.ev.loc, static_cast<std::int32_t>(i));
        }
        if (n.ev.kind == EventKind::Unlock) {
            --held;
            for (auto it = open.rbegin(); it != open.rend(); ++it)
                if (it->first == n.ev.loc) {
                    open.erase(std::next(it).base());
                    break;
                }
        }
    }
    return {held, open};
}

::testing::AssertionResult locksMatch(const ExecutionGraph& g) {
    for (std::size_t t = 0; t < g.threads.size(); ++t) {
        const auto [held, open] = referenceLocks(g, static_cast<ThreadId>(t));
        if (g.lockBalance(static_cast<ThreadId>(t)) != held ||
            g.openSections(static_cast<ThreadId>(t)) != open)
            return ::testing::AssertionFailure() << "locks of thread " << t << "\n" << g.toString();
    }
    return ::testing::AssertionSuccess();
}

// ExecutionGraph::writesIn against a scan of the graph: by location and thread, the positions
// of the nodes that write it.
::testing::AssertionResult writesMatch(const ExecutionGraph& g) {
    for (LocId loc = 0; loc < 6; ++loc)
        for (std::size_t t = 0; t < g.threads.size(); ++t) {
            std::vector<std::int32_t> want;
            for (std::size_t i = 0; i < g.threads[t].size(); ++i) {
                const Node& n = g.threads[t][i];
                if (writesMemory(n.ev.kind) && n.ev.loc == loc)
                    want.push_back(static_cast<std::int32_t>(i));
            }
            const auto got = g.writesIn(loc, static_cast<ThreadId>(t));
            if (std::vector<std::int32_t>(got.begin(), got.end()) != want)
                return ::testing::AssertionFailure()
                       << "writes of " << loc << " in thread " << t << "\n"
                       << g.toString();
        }
    return ::testing::AssertionSuccess();
}

// Random graphs: thread 0 spawns the others and may join a finished one; threads write and read
// three locations (a read from any write of its location already in the graph), lock and unlock
// two mutexes, and may end with a placeholder (a blocked await).
class RandomGraph {
  public:
    explicit RandomGraph(unsigned seed, int threads = 4) : rng_(seed), T_(threads) {
        g.init(T_, {0, 0, 0, 0, 0});
        g.indexWrites(true);
        started_.assign(static_cast<std::size_t>(T_), false);
        done_.assign(static_cast<std::size_t>(T_), false);
        started_[0] = true;
    }

    // Adds one node; returns false when no thread can move.
    bool step() {
        std::vector<ThreadId> movable;
        for (ThreadId t = 0; t < T_; ++t)
            if (started_[static_cast<std::size_t>(t)] && !done_[static_cast<std::size_t>(t)])
                movable.push_back(t);
        if (movable.empty()) return false;
        const ThreadId t = movable[pick(movable.size())];
        Node n;
        n.ev.thread = t;
        n.ev.index = static_cast<std::uint32_t>(g.threads[static_cast<std::size_t>(t)].size());
        n.stamp = n.wstamp = g.nextStamp++;
        const std::size_t choice = pick(10);
        if (t == 0 && choice == 0 && nextSpawn_ < T_) {
            n.ev.kind = EventKind::Spawn;
            n.ev.aux = nextSpawn_;
            started_[static_cast<std::size_t>(nextSpawn_++)] = true;
        } else if (t == 0 && choice == 1 && joinable() >= 0) {
            n.ev.kind = EventKind::Join;
            n.ev.aux = joinable();
            joined_.push_back(n.ev.aux);
        } else if (choice <= 4) {
            n.ev.kind = EventKind::Write;
            n.ev.loc = static_cast<LocId>(pick(3));
            g.ensureLoc(n.ev.loc);
            g.co[static_cast<std::size_t>(n.ev.loc)].push_back(
                Ref{t, static_cast<std::int32_t>(n.ev.index)});
        } else if (choice <= 7) {
            n.ev.kind = EventKind::Read;
            n.ev.loc = static_cast<LocId>(pick(3));
            g.ensureLoc(n.ev.loc);
            const auto& c = g.co[static_cast<std::size_t>(n.ev.loc)];
            const std::size_t k = pick(c.size() + 1);
            n.rf = k == c.size() ? kInitRef : c[k];
        } else if (choice == 8) {
            n.ev.kind = pick(2) == 0 ? EventKind::Lock : EventKind::Unlock;
            n.ev.loc = static_cast<LocId>(3 + pick(2));
        } else if (t != 0 && pick(3) == 0) {
            n.ev.kind = EventKind::Await;  // blocked for good
            n.ev.loc = static_cast<LocId>(pick(3));
            n.placeholder = true;
            done_[static_cast<std::size_t>(t)] = true;
        } else {
            n.ev.kind = EventKind::ThreadEnd;
            if (t != 0) done_[static_cast<std::size_t>(t)] = true;
        }
        g.push(t, n);
        order_.push_back(t);
        return true;
    }

    // Removes the last node added (and what adding it changed).
    void undo() {
        const ThreadId t = order_.back();
        order_.pop_back();
        const Node n = g.threads[static_cast<std::size_t>(t)].back();
        g.pop(t);
        --g.nextStamp;
        if (n.ev.kind == EventKind::Write) g.co[static_cast<std::size_t>(n.ev.loc)].pop_back();
        if (n.ev.kind == EventKind::Spawn) started_[static_cast<std::size_t>(--nextSpawn_)] = false;
        if (n.ev.kind == EventKind::Join) joined_.pop_back();
        if (n.placeholder || (n.ev.kind == EventKind::ThreadEnd && t != 0))
            done_[static_cast<std::size_t>(t)] = false;
    }

    [[nodiscard]] std::size_t pick(std::size_t n) {
        return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_);
    }

    ExecutionGraph g;

  private:
    // A finished (not blocked) thread not joined yet, or -1.
    [[nodiscard]] ThreadId joinable() const {
        for (ThreadId u = 1; u < T_; ++u) {
            const auto& th = g.threads[static_cast<std::size_t>(u)];
            if (done_[static_cast<std::size_t>(u)] && !th.empty() && !th.back().placeholder &&
                std::find(joined_.begin(), joined_.end(), u) == joined_.end())
                return u;
        }
        return -1;
    }

    std::mt19937 rng_;
    int T_;
    ThreadId nextSpawn_ = 1;
    std::vector<bool> started_, done_;
    std::vector<ThreadId> joined_, order_;
};

}  // namespace

// How many nodes of each kind the graphs had (every kind of edge must have been tried).
std::map<EventKind, int> kindsOf(const ExecutionGraph& g) {
    std::map<EventKind, int> k;
    for (const auto& th : g.threads)
        for (const Node& n : th) ++k[n.placeholder ? EventKind::AssumeBlock : n.ev.kind];
    return k;
}

TEST(LongExecution, PorfViewsEqualTheClosureOfTheGraph) {
    std::map<EventKind, int> kinds;
    for (unsigned seed = 1; seed <= 60; ++seed) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        RandomGraph r(seed);
        for (int k = 0; k < 40 && r.step(); ++k) ASSERT_TRUE(viewsMatch(r.g));
        ASSERT_TRUE(writesMatch(r.g));
        for (const auto& [kind, n] : kindsOf(r.g)) kinds[kind] += n;
        // Nodes go and others come (the exploration backtracks).
        for (int round = 0; round < 3; ++round) {
            for (std::size_t k = r.pick(8); k-- > 0 && r.g.nextStamp > 1;) r.undo();
            ASSERT_TRUE(viewsMatch(r.g));
            ASSERT_TRUE(writesMatch(r.g));
            for (int k = 0; k < 10 && r.step(); ++k) ASSERT_TRUE(viewsMatch(r.g));
            ASSERT_TRUE(writesMatch(r.g));
        }
    }
    for (const EventKind k : {EventKind::Spawn, EventKind::Join, EventKind::Read, EventKind::Write,
                              EventKind::AssumeBlock, EventKind::Lock})
        EXPECT_GT(kinds[k], 5) << name(k);
}

TEST(LongExecution, RevisitedGraphsKeepTheirViews) {
    int refreshed = 0;
    for (unsigned seed = 100; seed < 300; ++seed) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        RandomGraph r(seed);
        for (int k = 0; k < 40 && r.step();) ++k;
        const ExecutionGraph& g = r.g;
        // A revisit keeps porf(x) ∪ {x} of some node x (a porf-closed prefix).
        std::vector<Ref> nodes;
        for (std::size_t t = 0; t < g.threads.size(); ++t)
            for (std::size_t i = 0; i < g.threads[t].size(); ++i)
                nodes.push_back({static_cast<std::int32_t>(t), static_cast<std::int32_t>(i)});
        const Ref x = nodes[r.pick(nodes.size())];
        std::vector<std::int32_t> keep;
        g.porfPrefix(x, keep);
        keep[static_cast<std::size_t>(x.t)] = x.i + 1;
        ExecutionGraph h;
        h.assignPrefix(g, keep);
        for (std::size_t t = 0; t < g.threads.size(); ++t) {
            ASSERT_EQ(h.threads[t].size(), static_cast<std::size_t>(keep[t]));
            for (const auto& c : h.co)
                for (const Ref w : c) ASSERT_LT(w.i, keep[static_cast<std::size_t>(w.t)]);
        }
        ASSERT_TRUE(viewsMatch(h));
        ASSERT_TRUE(locksMatch(h));
        ASSERT_TRUE(writesMatch(h));
        // ... and gives the last read of a thread another source (one it does not come before).
        for (std::size_t t = 0; t < h.threads.size(); ++t) {
            if (h.threads[t].empty()) continue;
            const Ref a{static_cast<std::int32_t>(t),
                        static_cast<std::int32_t>(h.threads[t].size()) - 1};
            Node& n = h.at(a);
            if (n.placeholder || n.ev.kind != EventKind::Read) continue;
            std::vector<std::int32_t> porfW;
            for (const Ref w : h.co[static_cast<std::size_t>(n.ev.loc)]) {
                h.porfPrefix(w, porfW);
                if (porfW[t] > a.i) continue;  // w must not come after a
                n.rf = w;
                h.refreshView(a);
                ASSERT_TRUE(viewsMatch(h));
                ++refreshed;
                break;
            }
            // A revisited CAS may succeed now, or fail: it writes, or no longer does.
            n.ev.kind = EventKind::CasSuccess;
            h.refreshView(a);
            ASSERT_TRUE(writesMatch(h));
            n.ev.kind = EventKind::CasFailure;
            h.refreshView(a);
            ASSERT_TRUE(writesMatch(h));
        }
        // Nodes go (a thread cut short).
        const auto t = static_cast<ThreadId>(r.pick(h.threads.size()));
        h.truncate(t, h.threads[static_cast<std::size_t>(t)].size() / 2);
        ASSERT_TRUE(writesMatch(h));
    }
    EXPECT_GT(refreshed, 10);
}

TEST(LongExecution, OpenSectionsFollowTheNodes) {
    ExecutionGraph g;
    g.init(2, {0, 0});
    auto add = [&](ThreadId t, EventKind k, LocId m, bool placeholder = false) {
        Node n;
        n.ev.kind = k;
        n.ev.loc = m;
        n.ev.thread = t;
        n.placeholder = placeholder;
        n.stamp = n.wstamp = g.nextStamp++;
        g.push(t, n);
        return ::testing::AssertionResult(locksMatch(g));
    };
    // nested and interleaved sections of two mutexes; an unlock closes the latest of its mutex
    ASSERT_TRUE(add(0, EventKind::Lock, 0));
    ASSERT_TRUE(add(0, EventKind::Lock, 1));
    ASSERT_TRUE(add(0, EventKind::Lock, 0));
    ASSERT_TRUE(add(0, EventKind::Unlock, 0));
    EXPECT_EQ(g.lockBalance(0), 2);
    EXPECT_EQ(g.openSections(0).size(), 2u);
    ASSERT_TRUE(add(0, EventKind::Unlock, 1));
    ASSERT_TRUE(add(1, EventKind::Unlock, 1));  // not held: the balance drops, no section closes
    EXPECT_EQ(g.lockBalance(1), -1);
    ASSERT_TRUE(add(1, EventKind::Lock, 0, /*placeholder=*/true));  // blocked: not an acquisition
    EXPECT_EQ(g.lockBalance(1), -1);
    // taking nodes back restores what their adding changed
    for (int k = 0; k < 3; ++k) {
        g.pop(0);
        ASSERT_TRUE(locksMatch(g));
    }
    g.pop(1);
    g.truncate(1, 0);
    ASSERT_TRUE(locksMatch(g));
    EXPECT_EQ(g.lockBalance(1), 0);
    EXPECT_EQ(g.openSections(0).size(), 2u);
}

// The witness stack, plain and indexed: the same witnesses at every depth, and (indexed) the
// positions of the last node of a thread, the last readable write of a location and the last
// acquisition of a mutex in each, as a scan of the witness finds them.
TEST(LongExecution, WitnessStackKeepsEveryDepth) {
    // thread 0: a = write x, c = lock m, e = write y; thread 1: b = write x, d = read x
    ExecutionGraph g;
    g.init(2, {0, 0, 0});
    const LocId x = 0, y = 1, m = 2;
    auto node = [&](ThreadId t, EventKind k, LocId loc) {
        Node n;
        n.ev.kind = k;
        n.ev.loc = loc;
        n.ev.thread = t;
        n.stamp = n.wstamp = g.nextStamp++;
        g.push(t, n);
    };
    node(0, EventKind::Write, x);
    node(0, EventKind::Lock, m);
    node(0, EventKind::Write, y);
    node(1, EventKind::Write, x);
    node(1, EventKind::Read, x);
    for (const bool indexed : {false, true}) {
        WitnessStack w;
        w.reset(indexed);
        auto is = [&](std::size_t d, std::vector<Ref> want) {
            const auto got = w.at(d);
            return std::vector<Ref>(got.begin(), got.end()) == want;
        };
        // The index against a scan of the witness of depth d.
        auto indexOk = [&](std::size_t d) {
            if (!indexed) return true;
            const auto wit = w.at(d);
            auto scan = [&](auto pred) {
                std::ptrdiff_t last = -1;
                for (std::size_t k = 0; k < wit.size(); ++k)
                    if (pred(g.at(wit[k]), wit[k])) last = static_cast<std::ptrdiff_t>(k);
                return last;
            };
            for (ThreadId t = 0; t < 2; ++t)
                if (w.lastOfThread(d, t) != scan([&](const Node&, Ref r) { return r.t == t; }))
                    return false;
            for (const LocId l : {x, y, m}) {
                if (w.lastWriteOf(d, l) !=
                    scan([&](const Node& n, Ref) { return wbReadable(n, l); }))
                    return false;
                if (w.lastAcquireOf(d, l) !=
                    scan([&](const Node& n, Ref) { return acquires(n) && n.ev.loc == l; }))
                    return false;
            }
            return true;
        };
        auto allOk = [&](std::size_t deepest) {
            for (std::size_t d = 0; d <= deepest; ++d)
                if (!indexOk(d)) return false;
            return true;
        };
        const Ref a{0, 0}, b{1, 0}, c{0, 1}, d{1, 1}, e{0, 2};
        w.extend(0, &a, g);  // depth 1: a
        w.extend(1, &b, g);  // depth 2: a b (shares depth 1's entry)
        EXPECT_TRUE(is(1, {a}));
        EXPECT_TRUE(is(2, {a, b}));
        EXPECT_TRUE(allOk(2));
        EXPECT_EQ(w.lastWriteOf(2, x), indexed ? 1 : -1);
        const std::vector<Ref> fresh{b, a, c};
        w.assign(2, fresh, g);  // depth 3: a new witness, after depth 2's
        EXPECT_TRUE(is(3, {b, a, c}));
        EXPECT_TRUE(allOk(3));
        w.extend(3, nullptr, g);  // depth 4: the same (a placeholder)
        EXPECT_TRUE(is(4, {b, a, c}));
        w.extend(4, &d, g);
        EXPECT_TRUE(is(5, {b, a, c, d}));
        EXPECT_TRUE(is(2, {a, b}));
        EXPECT_TRUE(allOk(5));
        if (indexed) {
            EXPECT_EQ(w.lastAcquireOf(5, m), 2);
            EXPECT_EQ(w.lastWriteOf(5, x), 1);  // d reads: a is the last write of x
            EXPECT_EQ(w.lastWriteOf(5, y), -1);
        }
        // back at depth 1, another child: the deeper depths are done and their entries reused
        w.extend(1, &e, g);
        EXPECT_TRUE(is(2, {a, e}));
        EXPECT_TRUE(is(1, {a}));
        EXPECT_TRUE(is(0, {}));
        EXPECT_TRUE(allOk(2));
        w.extend(2, &b, g);
        w.extend(3, &c, g);
        EXPECT_TRUE(is(4, {a, e, b, c}));
        EXPECT_TRUE(allOk(4));
    }
}

TEST(LongExecution, SCCheckerEndsWhenInterrupted) {
    // Two threads of 150 writes each to one location, nothing read: every interleaving is a
    // witness, and the search branches at every write.
    ExecutionGraph g;
    g.init(2, {0});
    g.ensureLoc(0);
    for (ThreadId t = 0; t < 2; ++t)
        for (int i = 0; i < 150; ++i) {
            Node n;
            n.ev.kind = EventKind::Write;
            n.ev.loc = 0;
            n.ev.thread = t;
            n.stamp = n.wstamp = g.nextStamp++;
            g.push(t, n);
        }
    const std::vector<std::int32_t> lim{150, 150};
    std::vector<Ref> order;
    SCChecker free;
    EXPECT_TRUE(free.check(g, lim, false, order));
    EXPECT_EQ(order.size(), 300u);
    SCChecker stopped;
    int asked = 0;
    stopped.interrupt = [&] {
        ++asked;
        return true;
    };
    EXPECT_FALSE(stopped.check(g, lim, false, order));
    EXPECT_EQ(asked, 1);  // and then it unwound without asking again
    EXPECT_LT(stopped.states, free.states);
}

TEST(LongExecution, MutexSearchEndsWhenInterrupted) {
    // Two threads taking and releasing one mutex 60 times (LAPOR: locks are not in co).
    ExecutionGraph g;
    g.init(2, {0});
    g.ensureLoc(0);
    for (ThreadId t = 0; t < 2; ++t)
        for (int i = 0; i < 120; ++i) {
            Node n;
            n.ev.kind = i % 2 == 0 ? EventKind::Lock : EventKind::Unlock;
            n.ev.loc = 0;
            n.ev.thread = t;
            n.stamp = n.wstamp = g.nextStamp++;
            g.push(t, n);
        }
    const std::vector<bool> closed(2, false);
    std::vector<Ref> order;
    CoChecker free;
    EXPECT_TRUE(free.checkMutex(g, true, closed, order));
    CoChecker stopped;
    int asked = 0;
    stopped.interrupt = [&] {
        ++asked;
        return true;
    };
    EXPECT_FALSE(stopped.checkMutex(g, true, closed, order));
    EXPECT_EQ(asked, 1);
    EXPECT_LT(stopped.mutexStates, free.mutexStates);
}

TEST(LongExecution, VerifySCEndsWhenInterrupted) {
    // Thread 0 writes x 150 times, thread 1 reads the initial value 150 times: a witness runs
    // every read first.
    std::vector<std::vector<rvf::Step>> steps(2);
    for (int i = 0; i < 150; ++i) {
        rvf::Step w;
        w.ev.kind = EventKind::Write;
        w.ev.loc = 0;
        w.ev.wval = 1;
        w.ev.thread = 0;
        w.ev.index = static_cast<std::uint32_t>(i);
        w.writes = true;
        steps[0].push_back(w);
        rvf::Step r;
        r.ev.kind = EventKind::Read;
        r.ev.loc = 0;
        r.ev.thread = 1;
        r.ev.index = static_cast<std::uint32_t>(i);
        r.reads = true;
        r.good = {rvf::kInitWrite};
        steps[1].push_back(r);
    }
    const std::vector<rvf::SpawnPoint> spawnOf(2, rvf::SpawnPoint{rvf::kInitThread, 0});
    rvf::Instance in;
    in.steps = &steps;
    in.len = {150, 150};
    in.spawnOf = &spawnOf;
    in.numLocs = 1;
    rvf::VscStats stats;
    rvf::Workspace ws;
    rvf::VscOptions free;
    ASSERT_TRUE(rvf::verifySC(in, free, stats, ws));
    const auto wit = ws.witness();
    ASSERT_EQ(wit.size(), 300u);
    EXPECT_TRUE(std::all_of(wit.begin(), wit.begin() + 150, [](ThreadId t) { return t == 1; }));
    // The same workspace again: the same witness (buffers reused, nothing left over).
    const std::vector<ThreadId> first(wit.begin(), wit.end());
    ASSERT_TRUE(rvf::verifySC(in, free, stats, ws));
    EXPECT_TRUE(std::ranges::equal(ws.witness(), first));
    for (const bool closure : {true, false}) {
        rvf::VscOptions stopped;
        stopped.closure = closure;
        int asked = 0;
        stopped.interrupt = [&] {
            ++asked;
            return true;
        };
        EXPECT_FALSE(rvf::verifySC(in, stopped, stats, ws)) << "closure " << closure;
        EXPECT_EQ(asked, 1);
    }
}
