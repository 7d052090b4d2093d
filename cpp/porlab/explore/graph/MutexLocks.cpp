// SPDX-License-Identifier: MIT
#include "porlab/explore/graph/MutexLocks.hpp"

#include <algorithm>
#include <utility>

#include "porlab/explore/graph/WbGraphs.hpp"

namespace porlab::graph {

MutexLocks::MutexLocks(Engine& engine, CoChecker& co)
    : engine_(engine), co_(co), sectionsEnd_(engine.programInfo().sectionsEnd) {
    relaxedReplay_ = engine_.execution().setRelaxedLocks(true);
}

bool MutexLocks::handles(const Event& p) const {
    return p.kind == EventKind::Lock || p.kind == EventKind::Unlock || isTrylock(p);
}

Step MutexLocks::add(ExecutionGraph& g, ThreadId t, const Event& p, std::size_t depth) {
    if (p.kind == EventKind::Lock || p.kind == EventKind::Unlock)
        return addLockEvent(g, t, p, depth);
    return addTrylock(g, t, depth);
}

bool MutexLocks::consistent(const ExecutionGraph& g, bool final, std::vector<Ref>& order,
                            std::span<const Ref> hint) {
    if (final && !lockPlaceholdersCanBlock(g)) {
        ++lockNeverHeld_;
        return false;
    }
    if (final && sources_ && !sourcesOpen(g)) {  // (a graph kept for revisits that did not mend it)
        ++sourceClosed_;
        return false;
    }
    // A maximal graph needs a real witness. A partial one is consistent if some witness keeps
    // critical sections apart when the open ones end after their last event so far (a
    // completion closes them); it is then replayed in an order that only respects program
    // order, spawn/join and mutual exclusion (reads are forced, so memory does not matter).
    if (wb_) {
        if (!wb_->consistent(g, final, order)) return false;
    } else {
        openEnded_.assign(g.threads.size(), !final);
        if (!(final && co_.greedyWitness(g, hint, order)) &&
            !co_.checkMutex(g, final, openEnded_, order))
            return false;
    }
    if (final || relaxedReplay_) return true;
    // The program cannot relax its locks: find an order it can replay.
    openEnded_.assign(g.threads.size(), false);
    if (co_.checkMutex(g, false, openEnded_, order, /*memoryEdges=*/false)) return true;
    ++noReplayOrder_;
    return false;
}

bool MutexLocks::unlockOk(const ExecutionGraph& g, ThreadId t, LocId m) {
    if (!sources_) return true;
    switch (closesBlocker(g, t, m)) {
        case Closing::None:
            return true;
        case Closing::Revivable:
            ++blockerRevivable_;
            return true;
        case Closing::DeadEnd:
            break;
    }
    ++blockerClosed_;
    return false;
}

bool MutexLocks::sourcesOpen(const ExecutionGraph& g) {
    for (const auto& th : g.threads) {
        if (th.empty() || !th.back().placeholder || th.back().ev.kind != EventKind::Lock) continue;
        const Ref src = th.back().rf;
        if (src.t == kInitThread) continue;
        bool open = false;
        for (const auto& sec : g.openSections(src.t)) open = open || sec.second == src.i;
        if (!open) return false;
    }
    return true;
}

bool MutexLocks::appendable(const ExecutionGraph& g, ThreadId t, std::int32_t at,
                            const WitnessStack& w, std::size_t d) {
    // The sections of t open before node `at`: those opened earlier, and an unlock's own.
    const auto& th = g.threads[static_cast<std::size_t>(t)];
    const Node* self =
        static_cast<std::size_t>(at) < th.size() ? &th[static_cast<std::size_t>(at)] : nullptr;
    const LocId unlocked =
        self && !self->placeholder && self->ev.kind == EventKind::Unlock ? self->ev.loc : kNoLoc;
    const auto& open = g.openSections(t);
    bool any = unlocked != kNoLoc;
    for (const auto& sec : open) any = any || sec.second < at;
    if (!any) return true;
    // Another thread acquires one of those mutexes after t's last event in the witness: the
    // last acquisition of the mutex in the witness comes after it (t's own come before it).
    const std::ptrdiff_t lastOfT = w.lastOfThread(d, t);
    if (unlocked != kNoLoc && w.lastAcquireOf(d, unlocked) > lastOfT) return false;
    for (const auto& sec : open)
        if (sec.second < at && w.lastAcquireOf(d, sec.first) > lastOfT) return false;
    return true;
}

bool MutexLocks::lockPlaceholdersCanBlock(const ExecutionGraph& g) {
    // A lock left blocked for good needs its mutex held at the end: the last lock event of the
    // mutex in the witness is an acquire. An acquire whose thread unlocks the mutex later is
    // followed by that unlock, so some thread must end with a section of the mutex open. Without
    // one, no witness keeps the placeholder blocked (known without the exhaustive search that
    // would prove it; a lock placeholder per thread makes many such graphs, e.g. nww-lock-rr).
    const std::size_t T = g.threads.size();
    for (std::size_t t = 0; t < T; ++t) {
        const auto& th = g.threads[t];
        if (th.empty() || !th.back().placeholder || th.back().ev.kind != EventKind::Lock) continue;
        const LocId m = th.back().ev.loc;
        bool held = false;
        for (std::size_t u = 0; u < T && !held; ++u)
            for (const auto& sec : g.openSections(static_cast<ThreadId>(u)))
                held = held || sec.first == m;
        if (!held) return false;
    }
    return true;
}

std::optional<bool> MutexLocks::maximallyAdded(const Node& n, Ref e) {
    // A trylock succeeds rather than fails (a success is consistent wherever a lock is), unless its
    // own thread holds the mutex: then failing inside that section is its only choice.
    if (n.ev.kind == EventKind::Unlock) return true;
    // A lock acquires rather than stays blocked, unless its own thread holds the mutex (the
    // placeholder's source): then staying blocked is its only choice.
    if (n.ev.kind == EventKind::Lock) return !n.placeholder || n.rf.t == e.t;
    if (n.trylock) return n.ev.kind == EventKind::CasSuccess || n.rf.t == e.t;
    return std::nullopt;
}

void MutexLocks::addStats(ExploreResult& r) const {
    r.stats["mutex_search_states"] = static_cast<double>(co_.mutexStates);
    r.stats["lb_refuted"] = static_cast<double>(co_.lbRefuted);
    r.stats["no_replay_order"] = static_cast<double>(noReplayOrder_);
    r.stats["lock_never_held"] = static_cast<double>(lockNeverHeld_);
    r.stats["blocker_closed"] = static_cast<double>(blockerClosed_);
    r.stats["blocker_closed_revivable"] = static_cast<double>(blockerRevivable_);
    r.stats["blocker_source_closed"] = static_cast<double>(sourceClosed_);
}

Step MutexLocks::addLockEvent(ExecutionGraph& g, ThreadId t, Event p, std::size_t depth) {
    // An unlock that ends the critical section a blocked lock waits on: every completion ends
    // it, so no final graph keeps the lock blocked (another section that stays open blocks it
    // in another graph, whose placeholder has that source), unless a revisit deletes it.
    if (p.kind == EventKind::Unlock && !unlockOk(g, t, p.loc)) co_return;
    Execution& exec = engine_.execution();
    Reporter& rep = engine_.reporter();
    const Ref a{t, static_cast<std::int32_t>(g.threads[t].size())};
    Node n;
    n.stamp = n.wstamp = g.nextStamp++;
    ensureLocation(g, p.loc, engine_.programInfo());
    Snapshot& snap = engine_.snapshot(depth);
    if (p.kind == EventKind::Lock) exec.save(snap);
    if (p.enabled || p.kind == EventKind::Unlock) {
        // The mutex is free at the end of the replay order: the lock (or unlock) goes there.
        auto ev = exec.step(t);
        rep.countEvent();
        n.ev = ev[0];
        g.push(t, n);
        co_await engine_.proceed(g, a, true, depth);
    } else {
        // Locks never block the exploration: the lock must fit earlier in some witness.
        n.ev = p;
        n.ev.enabled = true;
        n.ev.wval = 1;
        g.push(t, n);
        co_await engine_.proceed(g, a, false, depth);
    }
    // (Where every critical section ends, no lock stays blocked for good: ProgramInfo.)
    const bool mayBlock = p.kind == EventKind::Lock && !sectionsEnd_;
    if (p.kind == EventKind::Lock && !rep.stopped()) co_await acquireRevisits(g, a, depth);
    g.pop(t);
    if (mayBlock && !rep.stopped() && !sources_) {
        // ... or stay blocked for good (its mutex held at the end by a section that never ends).
        exec.restore(snap);
        n.ev = p;
        n.placeholder = true;
        g.push(t, n);
        co_await engine_.proceedBlocked(g, depth);
        g.pop(t);
    } else if (mayBlock && !rep.stopped()) {
        // ... or stay blocked for good: its mutex held to the end by a critical section that
        // never ends, the source of the placeholder. Here one already in the graph and still
        // open; a section that starts later revisits the lock (acquireRevisits).
        auto& srcs = engine_.refScratch(depth);
        srcs.clear();
        for (std::size_t u = 0; u < g.threads.size(); ++u)
            for (const auto& sec : g.openSections(static_cast<ThreadId>(u)))
                if (sec.first == p.loc)
                    srcs.push_back(Ref{static_cast<std::int32_t>(u), sec.second});
        for (std::size_t k = 0; k < srcs.size() && !rep.stopped(); ++k) {
            exec.restore(snap);
            n.ev = p;
            n.placeholder = true;
            n.rf = srcs[k];
            g.push(t, n);
            co_await engine_.proceedBlocked(g, depth);
            g.pop(t);
        }
        srcs.clear();
    }
    --g.nextStamp;
}

MutexLocks::Closing MutexLocks::closesBlocker(const ExecutionGraph& g, ThreadId t, LocId m) {
    // The section the unlock ends: the latest open one of m in t.
    const auto& open = g.openSections(t);
    Ref sec{-2, 0};
    for (auto it = open.rbegin(); it != open.rend(); ++it)
        if (it->first == m) {
            sec = Ref{t, it->second};
            break;
        }
    if (sec.t != t) return Closing::None;
    const auto& own = g.threads[static_cast<std::size_t>(t)];
    Closing c = Closing::None;
    for (const auto& th : g.threads) {
        if (th.empty() || !th.back().placeholder || th.back().ev.kind != EventKind::Lock ||
            !(th.back().rf == sec))
            continue;
        // The graph is inconsistent; only a revisit that deletes this unlock and keeps the
        // blocked lock can mend it (TruSt keeps inconsistent graphs for their revisits). It
        // revisits an event added after the lock and before t's last event (else t's next
        // event is this unlock again), other than the source (the lock observes it); an event
        // revisits only what reads memory, and acquires. None: a dead end.
        const std::uint64_t from = th.back().stamp, to = own.back().stamp;
        bool revivable = false;
        for (std::size_t u = 0; u < g.threads.size() && !revivable; ++u)
            for (std::size_t i = 0; i < g.threads[u].size() && !revivable; ++i) {
                const Node& q = g.threads[u][i];
                const Ref r{static_cast<std::int32_t>(u), static_cast<std::int32_t>(i)};
                if (q.stamp <= from || q.stamp > to || r == sec) continue;
                if (isLockEvent(q)) {
                    revivable = !q.placeholder && acquires(q);
                } else {
                    revivable = readsMemory(q.ev.kind) && !q.zne;
                }
            }
        if (!revivable) return Closing::DeadEnd;
        c = Closing::Revivable;
    }
    return c;
}

bool MutexLocks::isTrylock(const Event& p) const {
    // pthread_mutex_trylock is the only CAS a C program makes on a mutex.
    const auto& isMutex = engine_.programInfo().isMutex;
    return (p.kind == EventKind::CasSuccess || p.kind == EventKind::CasFailure) && p.loc >= 0 &&
           static_cast<std::size_t>(p.loc) < isMutex.size() &&
           isMutex[static_cast<std::size_t>(p.loc)];
}

Step MutexLocks::addTrylock(ExecutionGraph& g, ThreadId t, std::size_t depth) {
    // A trylock succeeds (a lock: consistent wherever a lock is) or fails inside the critical
    // section of an acquire of its mutex already in the graph (its source; sections whose
    // acquire comes later revisit the success, see acquireRevisits).
    Execution& exec = engine_.execution();
    Reporter& rep = engine_.reporter();
    const Ref a{t, static_cast<std::int32_t>(g.threads[t].size())};
    const LocId m = exec.pending(t).loc;
    ensureLocation(g, m, engine_.programInfo());
    Snapshot& snap = engine_.snapshot(depth);
    auto& srcs = engine_.refScratch(depth);
    srcs.clear();
    for (std::size_t u = 0; u < g.threads.size(); ++u)
        for (std::size_t i = 0; i < g.threads[u].size(); ++i) {
            const Node& q = g.threads[u][i];
            if (!q.placeholder && acquires(q) && q.ev.loc == m)
                srcs.push_back(Ref{static_cast<std::int32_t>(u), static_cast<std::int32_t>(i)});
        }
    if (!srcs.empty()) exec.save(snap);
    for (std::size_t k = 0; k <= srcs.size() && !rep.stopped(); ++k) {
        const bool success = k == 0;
        if (!success) exec.restore(snap);
        auto ev = exec.step(t, success ? 0 : 1);
        rep.countEvent();
        Node n;
        n.ev = ev[0];
        n.trylock = true;
        if (!success) n.rf = srcs[k - 1];
        n.stamp = n.wstamp = g.nextStamp++;
        g.push(t, n);
        co_await engine_.proceed(g, a, false, depth);
        if (success && !rep.stopped()) co_await acquireRevisits(g, a, depth);
        g.pop(t);
        --g.nextStamp;
    }
    srcs.clear();
}

Step MutexLocks::acquireRevisits(ExecutionGraph& g, Ref a, std::size_t depth) {
    // The new acquire a (a lock or a successful trylock) of mutex m revisits every successful
    // trylock r of m that is not porf-before it: r then fails inside a's critical section; and
    // every lock r of m that is not porf-before it (nor anything after r in its thread): r then
    // stays blocked for good, a's section its source (it never ends: the graph is dropped when
    // it does, closesBlocker). As a memory revisit (TruSt): keep {e ≤ r} ∪ porf(a) ∪ {a},
    // provided r and every deleted event were added maximally (a trylock maximally succeeds, a
    // lock acquires), and nothing kept observes r's section any more.
    Reporter& rep = engine_.reporter();
    const LocId m = g.at(a).ev.loc;
    auto& porf = engine_.porfScratch(depth);
    g.porfPrefix(a, porf);
    const std::size_t T = g.threads.size();
    std::vector<std::int32_t> keep(T);
    for (std::size_t u = 0; u < T && !rep.stopped(); ++u) {
        for (auto i = static_cast<std::size_t>(porf[u]); i < g.threads[u].size() && !rep.stop();
             ++i) {
            const Ref r{static_cast<std::int32_t>(u), static_cast<std::int32_t>(i)};
            const Node& rn = g.at(r);
            const bool trylock = rn.trylock && rn.ev.kind == EventKind::CasSuccess;
            const bool lock =
                sources_ && !sectionsEnd_ && rn.ev.kind == EventKind::Lock && !rn.placeholder;
            if (r == a || (!trylock && !lock) || rn.ev.loc != m) continue;
            if (!engine_.revisitKeep(g, r, a, porf, keep)) continue;
            ExecutionGraph& h = engine_.revisitGraph(depth);
            h.assignPrefix(g, keep);
            Node& hr = h.at(r);
            if (trylock) {
                hr.ev.kind = EventKind::CasFailure;
                hr.ev.rval = 1;
                hr.ev.wval = 0;
            } else {
                hr.placeholder = true;
            }
            hr.rf = a;
            h.refreshView(r);
            co_await engine_.exploreRevisit(h, r, depth);
            if (rep.stopped()) break;
        }
    }
    engine_.releaseRevisitGraph(depth);
}

bool MutexLocks::prefixWitness(const ExecutionGraph& g, const std::vector<std::int32_t>& upto,
                               std::vector<Ref>& out, std::optional<Ref>& need, ThreadId closed) {
    // The failing prefix has its own witness (the whole graph's may order its critical sections
    // otherwise than the prefix needs). A thread cut short is open-ended: its open critical
    // sections end after its last event of the prefix. The replay cannot release a mutex
    // without its unlock, so a section that such a witness releases implicitly before another
    // lock of its mutex needs its unlock.
    const std::size_t T = g.threads.size();
    need.reset();
    subGraph_.assignPrefix(g, upto);
    openEnded_.assign(T, false);
    for (std::size_t t = 0; t < T; ++t)
        openEnded_[t] = static_cast<std::size_t>(upto[t]) < g.threads[t].size() &&
                        std::cmp_not_equal(t, closed);
    if (wb_) {
        std::vector<std::int32_t> whole(T);
        for (std::size_t t = 0; t < T; ++t)
            whole[t] = static_cast<std::int32_t>(subGraph_.threads[t].size());
        if (!wb_->consistent(subGraph_, whole, openEnded_, false, out)) return false;
    } else if (!co_.checkMutex(subGraph_, false, openEnded_, out)) {
        return false;
    }
    // Simulate the witness: a lock of a mutex held by a section without its unlock.
    std::vector<std::pair<LocId, ThreadId>> held;  // (mutex, holder)
    for (const Ref r : out) {
        const Node& n = g.at(r);
        if (n.ev.kind == EventKind::Unlock)
            std::erase_if(held,
                          [&](const auto& h) { return h.first == n.ev.loc && h.second == r.t; });
        if (!acquires(n)) continue;
        for (const auto& [mtx, u] : held) {
            if (mtx != n.ev.loc || u == r.t) continue;
            // u's section is open in the prefix: its next unlock of mtx joins it.
            const auto& th = g.threads[static_cast<std::size_t>(u)];
            for (auto k = static_cast<std::size_t>(upto[static_cast<std::size_t>(u)]);
                 k < th.size() && !need; ++k)
                if (!th[k].placeholder && th[k].ev.kind == EventKind::Unlock && th[k].ev.loc == mtx)
                    need = Ref{u, static_cast<std::int32_t>(k)};
            return need.has_value();  // never released: not a witness the program can run
        }
        held.emplace_back(n.ev.loc, r.t);
    }
    return true;
}

}  // namespace porlab::graph
