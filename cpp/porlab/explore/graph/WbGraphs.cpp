// SPDX-License-Identifier: MIT
#include "porlab/explore/graph/WbGraphs.hpp"

#include <algorithm>

#include "porlab/explore/graph/Failures.hpp"
#include "porlab/explore/graph/MutexLocks.hpp"

namespace porlab::graph {

namespace {

// A write that is not part of a read-modify-write or a lock.
bool plainWrite(const Node& q) {
    return !q.placeholder && !q.zne && !q.faulted && !MutexLocks::isLockEvent(q) &&
           writesMemory(q.ev.kind) && !readsMemory(q.ev.kind);
}

// The end of scope or the free of a location: an exchange of kDeadValue (as SCChecker).
bool isKill(const Node& q) {
    return !q.placeholder && !q.zne && !MutexLocks::isLockEvent(q) &&
           q.ev.kind == EventKind::Exchange && q.ev.wval == kDeadValue;
}

}  // namespace

WbGraphs::WbGraphs(Engine& engine) : engine_(engine) {
    sc_.mutexLocks = true;
    sc_.interrupt = [this] { return engine_.reporter().stop(); };
}

Step WbGraphs::add(ExecutionGraph& g, ThreadId t, const Event& p, std::size_t depth) {
    if (readsMemory(p.kind)) return addRead(g, t, p, depth);
    return addWrite(g, t, depth);
}

void WbGraphs::writesOf(const ExecutionGraph& g, LocId loc, Ref self, std::vector<Ref>& out) const {
    out.clear();
    out.push_back(kInitRef);
    for (std::size_t u = 0; u < g.threads.size(); ++u) {
        const auto tu = static_cast<ThreadId>(u);
        for (const std::int32_t i : g.writesIn(loc, tu))
            if (const Ref w{tu, i}; w != self && wbReadable(g.at(w), loc)) out.push_back(w);
    }
}

void WbGraphs::readableWrites(const ExecutionGraph& g, ThreadId t, LocId loc,
                              std::vector<Ref>& out) {
    // writesOf for the next read of t, without the writes an own later write of their thread
    // overwrites porf-before the read (dropOverwritten would drop them): what is kept per
    // depth stays O(threads + writes not porf-before the read), not O(writes), which made
    // memory quadratic in the length of a single-threaded loop. From the graph's index of
    // writes (ExecutionGraph::writesIn): O(threads x log + what is returned), not O(events).
    g.porfBeforeNext(t, porfR_);
    out.clear();
    out.push_back(kInitRef);
    for (std::size_t u = 0; u < g.threads.size(); ++u) {
        const auto tu = static_cast<ThreadId>(u);
        const auto ws = g.writesIn(loc, tu);
        const auto from = std::lower_bound(ws.begin(), ws.end(), porfR_[u]);
        for (auto k = from; k != ws.begin();)  // the last write porf-before the read
            if (const Ref w{tu, *--k}; wbReadable(g.at(w), loc)) {
                out.push_back(w);
                break;
            }
        for (auto k = from; k != ws.end(); ++k)
            if (const Ref w{tu, *k}; wbReadable(g.at(w), loc)) out.push_back(w);
    }
}

void WbGraphs::overwrittenBefore(const ExecutionGraph& g, const std::vector<Ref>& writes) {
    // The writes of the location porf-before the read (porfR_), with their porf-prefixes: of
    // each thread only its last such write (an earlier one of the thread is po-before it, and
    // so is everything porf-before that one), at most one per thread, so that a read costs
    // O(writes x threads) and not O(writes^2) (a long single-threaded loop was cubic).
    const std::size_t T = porfR_.size();
    lastBefore_.assign(T, -1);
    for (const Ref w : writes)
        if (w.t != kInitThread && w.i < porfR_[static_cast<std::size_t>(w.t)])
            lastBefore_[static_cast<std::size_t>(w.t)] =
                std::max(lastBefore_[static_cast<std::size_t>(w.t)], w.i);
    before_.clear();
    for (std::size_t u = 0; u < T; ++u)
        if (lastBefore_[u] >= 0)
            before_.push_back(Ref{static_cast<std::int32_t>(u), lastBefore_[u]});
    views_.resize(before_.size() * T);
    for (std::size_t k = 0; k < before_.size(); ++k) {
        g.porfPrefix(before_[k], porfTmp_);
        std::copy(porfTmp_.begin(), porfTmp_.end(),
                  views_.begin() + static_cast<std::ptrdiff_t>(k * T));
    }
}

bool WbGraphs::overwritten(Ref w) const {
    const std::size_t T = porfR_.size();
    for (std::size_t k = 0; k < before_.size(); ++k) {
        if (before_[k] == w) continue;
        if (w.t == kInitThread || w.i < views_[k * T + static_cast<std::size_t>(w.t)]) return true;
    }
    return false;
}

void WbGraphs::dropOverwritten(const ExecutionGraph& g, ThreadId t, std::vector<Ref>& srcs) {
    // A source w is overwritten before the new read r of thread t in every witness when another
    // write x of its location lies between them in porf (w <porf x <porf r): no search needed.
    // (Coherence as porf alone forces it; the search finds the rest.)
    g.porfBeforeNext(t, porfR_);
    overwrittenBefore(g, srcs);
    if (before_.empty()) return;
    const std::size_t n = srcs.size();
    std::erase_if(srcs, [&](Ref w) { return overwritten(w); });
    overwritten_ += n - srcs.size();
}

std::optional<Ref> WbGraphs::onlySource(ExecutionGraph& g, ThreadId t, const Event& p,
                                        std::size_t depth) {
    if (p.kind != EventKind::Read) return std::nullopt;
    ensureLocation(g, p.loc, engine_.programInfo());
    readableWrites(g, t, p.loc, found_);
    dropOverwritten(g, t, found_);
    foundFor_ = {&g, t, g.nextStamp};
    if (found_.size() != 1) return std::nullopt;
    const WitnessStack& w = engine_.witnesses();
    const std::ptrdiff_t k = w.lastWriteOf(depth, p.loc);
    const Ref last = k >= 0 ? engine_.witness(depth)[static_cast<std::size_t>(k)] : kInitRef;
    if (found_[0] != last ||
        !MutexLocks::appendable(g, t, static_cast<std::int32_t>(g.threads[t].size()), w, depth))
        return std::nullopt;
    foundFor_.g = nullptr;
    return last;
}

Step WbGraphs::addRead(ExecutionGraph& g, ThreadId t, Event p, std::size_t depth) {
    Execution& exec = engine_.execution();
    Reporter& rep = engine_.reporter();
    const LocId loc = p.loc;
    ensureLocation(g, loc, engine_.programInfo());
    const Ref a{t, static_cast<std::int32_t>(g.threads[t].size())};
    auto& srcs = engine_.refScratch(depth);
    if (foundFor_.g == &g && foundFor_.t == t && foundFor_.stamp == g.nextStamp) {
        srcs.assign(found_.begin(), found_.end());  // (onlySource found them)
    } else {
        readableWrites(g, t, loc, srcs);
        dropOverwritten(g, t, srcs);
    }
    foundFor_.g = nullptr;
    const bool cond = hasCondition(p.kind);
    int children = cond ? 1 : 0;  // the placeholder
    for (const Ref w : srcs)
        if (!cond || admits(p, g.valueOf(w, loc))) ++children;
    Snapshot& snap = engine_.snapshot(depth);
    if (children > 1) exec.save(snap);
    Value casWval = 0;  // the value a successful CAS would write (a revisit may flip it)
    if (p.kind == EventKind::CasSuccess || p.kind == EventKind::CasFailure) {
        if (children <= 1) exec.save(snap);
        auto ev = exec.step(t, p.operand);
        casWval = ev[0].wval;
        exec.restore(snap);
    }
    // The last write of loc in the witness: reading it at the end of the witness is
    // consistent (no search, no replay), unless a critical section of t is open and another
    // thread acquires its mutex after t's last event there (the witness closed it then).
    Ref appendable = kInitRef;
    {
        const WitnessStack& w = engine_.witnesses();
        if (const std::ptrdiff_t k = w.lastWriteOf(depth, loc); k >= 0)
            appendable = engine_.witness(depth)[static_cast<std::size_t>(k)];
    }
    const bool canAppend = MutexLocks::appendable(
        g, t, static_cast<std::int32_t>(g.threads[t].size()), engine_.witnesses(), depth);
    bool first = true;
    // Every source with which the graph is consistent (checked by proceed), latest first.
    for (std::size_t k = srcs.size(); k-- > 0 && !rep.stop();) {
        const Ref w = srcs[k];
        const Value v = g.valueOf(w, loc);
        if (cond && !admits(p, v)) continue;
        if (!first) exec.restore(snap);
        first = false;
        auto ev = exec.step(t, v);
        rep.countEvent();
        Node n;
        n.ev = ev[0];
        n.rf = w;
        n.stamp = n.wstamp = g.nextStamp++;
        n.casWval = casWval;
        g.push(t, n);
        if (failures_ && isKill(g.at(a))) writesAfterKill(g, a, true);
        co_await engine_.proceed(g, a, canAppend && w == appendable, depth);
        // A read-modify-write's write revisits, consistent or not (atomicity may be repaired).
        if (writesMemory(g.at(a).ev.kind) && !rep.stopped()) co_await revisits(g, a, depth);
        g.pop(t);
        --g.nextStamp;
    }
    // An await may also stay blocked for good (a placeholder without a source).
    if (cond && !rep.stopped()) {
        if (!first) exec.restore(snap);
        Node n;
        n.ev = p;
        n.placeholder = true;
        n.stamp = n.wstamp = g.nextStamp++;
        n.casWval = casWval;
        g.push(t, n);
        co_await engine_.proceedBlocked(g, depth);
        g.pop(t);
        --g.nextStamp;
    }
}

Step WbGraphs::addWrite(ExecutionGraph& g, ThreadId t, std::size_t depth) {
    // No place in a coherence order to choose: the write goes at the end of the witness.
    Execution& exec = engine_.execution();
    auto ev = exec.step(t);
    engine_.reporter().countEvent();
    const Ref a{t, static_cast<std::int32_t>(g.threads[t].size())};
    Node n;
    n.ev = ev[0];
    n.stamp = n.wstamp = g.nextStamp++;
    ensureLocation(g, n.ev.loc, engine_.programInfo());
    g.push(t, n);
    bool appended = true;
    if (failures_ && writeAfterKill(g, a)) {
        // It ran after a kill. Where some witness has it before the kills, that graph goes on
        // (the fault is reported); otherwise the graph of the fault goes on (its thread
        // stopped), as under co: its other threads' writes may revisit reads it keeps apart.
        appended = false;
        if (!consistent(g, false, order_)) {
            g.at(a).faulted = true;
            appended = true;
        }
    }
    co_await engine_.proceed(g, a, appended, depth);
    if (!engine_.reporter().stopped()) co_await revisits(g, a, depth);
    g.pop(t);
    --g.nextStamp;
}

Step WbGraphs::revisits(ExecutionGraph& g, Ref a, std::size_t depth) {
    // TruSt: the new write a revisits every read r of its location that is not porf-before it,
    // keeping {e ≤ r} ∪ porf(a) ∪ {a}, if r and every deleted event were added maximally.
    Reporter& rep = engine_.reporter();
    const LocId loc = g.at(a).ev.loc;
    const Value v = g.at(a).ev.wval;
    auto& porf = engine_.porfScratch(depth);
    g.porfPrefix(a, porf);
    const std::size_t T = g.threads.size();
    std::vector<std::int32_t> keep(T);
    memoBegin(g, a);
    for (std::size_t u = 0; u < T && !rep.stopped(); ++u) {
        for (auto i = static_cast<std::size_t>(porf[u]); i < g.threads[u].size() && !rep.stop();
             ++i) {
            const Ref r{static_cast<std::int32_t>(u), static_cast<std::int32_t>(i)};
            if (r == a) continue;
            const Node& rn = g.at(r);
            if (rn.ev.loc != loc || !readsMemory(rn.ev.kind) || rn.zne ||
                MutexLocks::isLockEvent(rn))
                continue;
            if (hasCondition(rn.ev.kind) && !admits(rn.ev, v)) continue;
            if (!engine_.revisitKeep(g, r, a, porf, keep)) continue;
            ExecutionGraph& h = engine_.revisitGraph(depth);
            h.assignPrefix(g, keep);
            Node& hr = h.at(r);
            hr.ev = withReadValue(hr, v);
            hr.rf = a;
            hr.placeholder = false;
            h.refreshView(r);
            h.at(a).faulted = false;  // (r reads it: it must run before the kills)
            if (!engine_.justifiedRevisit(h)) continue;
            // (The state is replayed next.)
            if (failures_ && isKill(hr)) writesAfterKill(h, r, false);
            const bool rWrites = writesMemory(hr.ev.kind);
            if (rWrites) hr.wstamp = h.nextStamp++;  // its write part comes after a
            // r's write part was (re-)added after a: it revisits in turn.
            if (!engine_.revisitReady(h, depth)) continue;
            co_await engine_.visitRevisited(h, r, depth);
            if (rWrites && !rep.stopped()) co_await revisits(h, r, depth + 1);
            memoBegin(g, a);  // (the exploration just awaited used the memo for its own graphs)
            if (rep.stopped()) break;
        }
    }
    memo_.g = nullptr;
    engine_.releaseRevisitGraph(depth);
}

void WbGraphs::eachWriteOf(const ExecutionGraph& g, Ref a, bool kills,
                           const std::function<void(Ref)>& f) {
    const LocId loc = g.at(a).ev.loc;
    for (std::size_t u = 0; u < g.threads.size(); ++u)
        for (std::size_t i = 0; i < g.threads[u].size(); ++i) {
            const Ref q{static_cast<std::int32_t>(u), static_cast<std::int32_t>(i)};
            const Node& qn = g.threads[u][i];
            if (!(q == a) && qn.ev.loc == loc && (kills ? isKill(qn) : plainWrite(qn))) f(q);
        }
}

bool WbGraphs::writeAfterKill(const ExecutionGraph& g, Ref a) {
    // a ran after every event of g: if it faulted there, it ran after a kill (if g has one).
    if (!plainWrite(g.at(a)) || engine_.execution().status(a.t) != ThreadStatus::Failed)
        return false;
    bool faulted = false;
    eachWriteOf(g, a, true, [&](Ref k) {
        if (!faulted) engine_.execution().save(killSnap_);  // (reportFault replays)
        faulted = true;
        reportFault(g, k, a);
    });
    if (faulted) engine_.execution().restore(killSnap_);
    return faulted;
}

void WbGraphs::writesAfterKill(const ExecutionGraph& g, Ref k, bool keepState) {
    // Under co, each plain write placed after the kill is a graph of its own that faults when
    // replayed. Here neither is in an order: each pair is checked when the second of the two is
    // added (or the kill reads another source). (Reads need nothing: reading the kill is a
    // source of their own.)
    Execution& exec = engine_.execution();
    bool saved = !keepState;
    eachWriteOf(g, k, false, [&](Ref w) {
        if (!saved) exec.save(killSnap_);
        saved = true;
        reportFault(g, k, w);
    });
    if (saved && keepState) exec.restore(killSnap_);
}

void WbGraphs::reportFault(const ExecutionGraph& g, Ref k, Ref w) {
    if (engine_.reporter().stop()) return;
    ++killChecks_;
    const auto wt = static_cast<std::size_t>(w.t);
    auto include = [&](Ref x) {
        g.porfPrefix(x, porfTmp_);
        porfTmp_[static_cast<std::size_t>(x.t)] = x.i + 1;
        for (std::size_t u = 0; u < upto_.size(); ++u) upto_[u] = std::max(upto_[u], porfTmp_[u]);
    };
    upto_.assign(g.threads.size(), 0);
    include(k);
    g.porfPrefix(w, porfTmp_);
    for (std::size_t u = 0; u < upto_.size(); ++u) upto_[u] = std::max(upto_[u], porfTmp_[u]);
    if (upto_[wt] > w.i) return;  // w happens before k
    // w's thread is about to run w: its open critical sections last to the end of the prefix.
    std::optional<Ref> need;
    for (;;) {
        if (!mutex_->prefixWitness(g, upto_, faultOrder_, need, w.t)) return;
        if (!need) break;
        include(*need);
        if (upto_[wt] > w.i) return;
    }
    faultOrder_.push_back(w);
    upto_[wt] = w.i + 1;
    failures_->reportPrefix(g, upto_, faultOrder_, w.t);
}

bool WbGraphs::consistent(const ExecutionGraph& g, bool final, std::vector<Ref>& order) {
    const std::size_t T = g.threads.size();
    wholeLim_.resize(T);
    for (std::size_t t = 0; t < T; ++t)
        wholeLim_[t] = static_cast<std::int32_t>(g.threads[t].size());
    openEnded_.assign(T, !final);
    return consistent(g, wholeLim_, openEnded_, final, order);
}

bool WbGraphs::consistent(const ExecutionGraph& g, const std::vector<std::int32_t>& lim,
                          const std::vector<bool>& openEnded, bool placeholders,
                          std::vector<Ref>& order) {
    ++checks_;
    const std::size_t T = g.threads.size();
    bool copy = false;
    for (std::size_t t = 0; t < T; ++t) {
        const bool whole = static_cast<std::size_t>(lim[t]) >= g.threads[t].size();
        if (!openEnded[t]) {
            copy = copy || !whole;
            continue;
        }
        copy = copy || !whole || !g.openSections(static_cast<ThreadId>(t)).empty();
    }
    if (!copy) return sc_.check(g, lim, placeholders, order);
    // An open-ended thread's open critical sections end after its last event so far: the
    // search sees them closed by an unlock there (left out of the witness).
    check_.assignPrefix(g, lim);
    base_.resize(T);
    checkLim_.resize(T);
    for (std::size_t t = 0; t < T; ++t) {
        const auto u = static_cast<ThreadId>(t);
        if (openEnded[t]) {
            if (check_.stuck(u)) check_.pop(u);
            base_[t] = static_cast<std::int32_t>(check_.threads[t].size());
            const auto sections = check_.openSections(u);
            for (auto it = sections.rbegin(); it != sections.rend(); ++it) {
                Node n;
                n.ev.kind = EventKind::Unlock;
                n.ev.thread = u;
                n.ev.loc = it->first;
                check_.push(u, n);
            }
        } else {
            base_[t] = static_cast<std::int32_t>(check_.threads[t].size());
        }
        checkLim_[t] = static_cast<std::int32_t>(check_.threads[t].size());
    }
    if (!sc_.check(check_, checkLim_, placeholders, order) && !closeOtherwise(placeholders, order))
        return false;
    std::erase_if(order, [&](Ref r) { return r.i >= base_[static_cast<std::size_t>(r.t)]; });
    return true;
}

bool WbGraphs::closeOtherwise(bool placeholders, std::vector<Ref>& order) {
    // The unlocks that close a thread's open sections (check_ past base_) went in in reverse
    // order of the locks, but a completion may end them in any order (std::scoped_lock unlocks
    // a, then b; a failed trylock of b inside the section of b can need a's unlock first): the
    // other orders, where a thread has two open sections or more (rare, and few).
    const std::size_t T = check_.threads.size();
    multi_.clear();
    for (std::size_t t = 0; t < T; ++t)
        if (check_.threads[t].size() >= static_cast<std::size_t>(base_[t]) + 2) {
            multi_.push_back(t);
            auto& th = check_.threads[t];
            std::sort(th.begin() + static_cast<std::ptrdiff_t>(base_[t]), th.end(),
                      [](const Node& x, const Node& y) { return x.ev.loc < y.ev.loc; });
        }
    if (multi_.empty()) return false;
    auto next = [&] {
        for (const std::size_t t : multi_) {
            auto& th = check_.threads[t];
            if (std::next_permutation(
                    th.begin() + static_cast<std::ptrdiff_t>(base_[t]), th.end(),
                    [](const Node& x, const Node& y) { return x.ev.loc < y.ev.loc; }))
                return true;
        }
        return false;
    };
    do {
        if (sc_.check(check_, checkLim_, placeholders, order)) return true;
    } while (next() && !engine_.reporter().stop());
    return false;
}

std::optional<bool> WbGraphs::maximallyAdded(const ExecutionGraph& g, Ref e, Ref a,
                                             const std::vector<std::int32_t>& porf) {
    const Node& n = g.at(e);
    if (MutexLocks::isLockEvent(n)) return std::nullopt;
    if (n.zne || !readsMemory(n.ev.kind)) return true;  // a write has no place to choose
    // The answer depends on g, e and a only: the revisits of one write a ask again for the
    // events that several of their reads would delete.
    std::int8_t* memo = nullptr;
    if (memo_.g == &g && memo_.a == a && memo_.stamp == g.nextStamp) {
        memo =
            &memo_.known[memo_.off[static_cast<std::size_t>(e.t)] + static_cast<std::size_t>(e.i)];
        if (*memo >= 0) {
            ++maximalityMemo_;
            return *memo == 1;
        }
    }
    const bool m = maximallyAddedRead(g, e, a, porf);
    if (memo) *memo = m ? 1 : 0;
    return m;
}

void WbGraphs::memoBegin(const ExecutionGraph& g, Ref a) {
    memo_.g = &g;
    memo_.a = a;
    memo_.stamp = g.nextStamp;
    memo_.off.resize(g.threads.size() + 1);
    memo_.off[0] = 0;
    for (std::size_t t = 0; t < g.threads.size(); ++t)
        memo_.off[t + 1] = memo_.off[t] + g.threads[t].size();
    memo_.known.assign(memo_.off.back(), -1);
}

bool WbGraphs::maximallyAddedRead(const ExecutionGraph& g, Ref e, Ref a,
                                  const std::vector<std::int32_t>& porf) {
    const Node& n = g.at(e);
    ++maximalityChecks_;
    // Prev(e) = {e' added no later than e} ∪ porf(a), and a itself (see below): a prefix of
    // every thread, e last of its (a is the last of its thread, which is not e's).
    const std::uint64_t s = n.stamp;
    const std::size_t T = g.threads.size();
    const auto at = static_cast<std::size_t>(a.t), et = static_cast<std::size_t>(e.t);
    lim_.resize(T);
    for (std::size_t u = 0; u < T; ++u) {
        const auto& th = g.threads[u];
        const auto it = std::upper_bound(
            th.begin(), th.end(), s, [](std::uint64_t x, const Node& q) { return x < q.stamp; });
        lim_[u] = std::max(static_cast<std::int32_t>(it - th.begin()), porf[u]);
    }
    lim_[at] = std::max(lim_[at], a.i + 1);
    lim_[et] = e.i + 1;
    prev_.assignPrefix(g, lim_);
    const LocId loc = n.ev.loc;
    // The writes of loc that existed when e was added, or are in porf(a) (not a).
    writesOf(prev_, loc, e, cands_);
    std::erase_if(cands_, [&](Ref w) {
        return w.t != kInitThread && g.at(w).wstamp > s &&
               w.i >= porf[static_cast<std::size_t>(w.t)];
    });
    // The canonical source is "the last write e can read", TruSt's co-maximal write, where
    // there is no co: a function of the graph, not of the order in which events were added.
    // 1. The candidates in the order of the canonical SC witness of Prev(e) without e, with a
    //    (SCChecker's deterministic search; an order that extends happens-before). a orders the
    //    writes of porf(a) as the revisited graph will (T0 `x=1; r=x` ∥ T1 `faa(x,10)` ∥ T2
    //    `lock; x=2; faa(x,100); unlock`: r's parent must read 11, not 2, for faa 100 to read
    //    11 and be read by r). If a does not fit there (a read-modify-write whose source another
    //    one reads: the revisit repairs it), the witness without a. (Else thread/position order.)
    openEnded_.assign(T, true);
    // Candidates overwritten in porf before e cannot be read (dropOverwritten). If the others
    // are ordered by porf, every witness orders them so: the last of them that e can read is
    // found without the witness of step 1.
    before_.clear();
    noneFits_ = false;
    if (e.i > 0) {
        g.porfPrefix(Ref{e.t, e.i - 1}, porfR_);
        porfR_[et] = e.i;
        overwrittenBefore(g, cands_);
        if (!hasCondition(n.ev.kind))
            if (const auto m = maximalAlongPorf(g, e, a)) return *m;
    }
    lim_[et] = e.i;
    bool found = consistent(prev_, lim_, openEnded_, false, order_);
    lim_[at] = a.i;
    if (!found) found = consistent(prev_, lim_, openEnded_, false, order_);
    if (found) {
        auto pos = [&](Ref w) {
            if (w.t == kInitThread) return -1;
            const auto it = std::find(order_.begin(), order_.end(), w);
            return static_cast<int>(it - order_.begin());
        };
        std::stable_sort(cands_.begin(), cands_.end(),
                         [&](Ref x, Ref y) { return pos(x) < pos(y); });
    }
    // 2. The last of them that e can read with Prev(e) (without a) staying consistent: a
    //    fresh addition of e explores exactly those. The last in the witness may not be one:
    //    T0 `lock; x=1; unlock` ∥ T1 `lock; faa(x,-1); faa(x,10); unlock` ∥ T2 `faa(x,1000)`,
    //    where x=1's section comes after T1's in the class (faa -1 reads 0) but was added
    //    first; faa 10 reading x=1 would break mutual exclusion. An await that the candidate
    //    does not admit is a placeholder there (always possible). If no candidate fits, the
    //    last one (e was not added maximally).
    Ref canon = cands_.back();
    lim_[et] = e.i + 1;
    // (Candidates overwritten in porf before e are skipped without a search: before_.)
    for (std::size_t k = cands_.size(); k-- > 0;) {
        const Ref w = cands_[k];
        if (hasCondition(n.ev.kind) && !admits(n.ev, g.valueOf(w, loc))) {
            canon = w;
            break;
        }
        if (noneFits_) break;  // (maximalAlongPorf tried every candidate not overwritten)
        if (overwritten(w)) {
            ++overwritten_;
            continue;
        }
        Node& pe = prev_.at(e);
        pe.rf = w;
        pe.placeholder = false;
        prev_.refreshView(e);
        if (consistent(prev_, lim_, openEnded_, false, order_)) {
            canon = w;
            break;
        }
    }
    if (hasCondition(n.ev.kind)) {
        const bool admitted = admits(n.ev, g.valueOf(canon, loc));
        if (n.placeholder) return !admitted;
        return admitted && n.rf == canon;
    }
    return !n.placeholder && n.rf == canon;
}

std::optional<bool> WbGraphs::maximalAlongPorf(const ExecutionGraph& g, Ref e, Ref a) {
    viable_.clear();
    for (const Ref w : cands_)
        if (!overwritten(w)) viable_.push_back(w);
    if (viable_.empty()) return std::nullopt;
    const std::size_t T = porfR_.size(), V = viable_.size();
    viewsV_.resize(V * T);
    for (std::size_t k = 0; k < V; ++k) {
        if (viable_[k].t == kInitThread) {
            std::fill_n(viewsV_.begin() + static_cast<std::ptrdiff_t>(k * T), T, 0);
            continue;
        }
        g.porfPrefix(viable_[k], porfTmp_);
        std::copy(porfTmp_.begin(), porfTmp_.end(),
                  viewsV_.begin() + static_cast<std::ptrdiff_t>(k * T));
    }
    auto before = [&](std::size_t x, std::size_t y) {  // viable_[x] porf-before viable_[y]
        const Ref w = viable_[x];
        if (viable_[y].t == kInitThread) return false;
        return w.t == kInitThread || w.i < viewsV_[y * T + static_cast<std::size_t>(w.t)];
    };
    order2_.resize(V);
    for (std::size_t k = 0; k < V; ++k) order2_[k] = k;
    std::sort(order2_.begin(), order2_.end(),
              [&](std::size_t x, std::size_t y) { return before(x, y); });
    for (std::size_t k = 0; k + 1 < V; ++k)
        if (!before(order2_[k], order2_[k + 1])) return std::nullopt;  // not a chain
    const Node& n = g.at(e);
    const auto et = static_cast<std::size_t>(e.t), at = static_cast<std::size_t>(a.t);
    // As step 2 of maximallyAdded: Prev(e) with e, without a.
    const std::int32_t limA = lim_[at], limE = lim_[et];
    lim_[et] = e.i + 1;
    lim_[at] = a.i;
    for (std::size_t k = V; k-- > 0;) {
        const Ref w = viable_[order2_[k]];
        Node& pe = prev_.at(e);
        pe.rf = w;
        pe.placeholder = false;
        prev_.refreshView(e);
        if (consistent(prev_, lim_, openEnded_, false, order_)) {
            ++porfOrdered_;
            return !n.placeholder && n.rf == w;
        }
    }
    noneFits_ = true;  // the full rule decides (its step 2 needs no search)
    lim_[at] = limA;
    lim_[et] = limE;
    return std::nullopt;
}

void WbGraphs::otherFinals(const ExecutionGraph& g, std::span<const Ref> reported,
                           std::vector<std::vector<Ref>>& out) {
    // Every final memory state some witness of g reaches (SCChecker::finals: an exhaustive,
    // memoised search), with a witness each, but the state of `reported`.
    out.clear();
    const std::size_t T = g.threads.size();
    if (!severalFinals(g)) return;  // (the search costs as much as the witnesses' states)
    ++finalsChecks_;
    wholeLim_.resize(T);
    bool anyPlaceholder = false;
    for (std::size_t t = 0; t < T; ++t) {
        wholeLim_[t] = static_cast<std::int32_t>(g.threads[t].size());
        anyPlaceholder |= g.stuck(static_cast<ThreadId>(t));
    }
    sc_.finals(g, wholeLim_, anyPlaceholder, states_, &out);
    std::vector<Value> mine(g.initial.begin(), g.initial.end());
    for (const Ref r : reported) {
        const Node& q = g.at(r);
        if (!q.placeholder && !MutexLocks::isLockEvent(q) && writesMemory(q.ev.kind))
            mine[static_cast<std::size_t>(q.ev.loc)] = q.ev.wval;
    }
    for (std::size_t k = states_.size(); k-- > 0;)
        if (states_[k] == mine) out.erase(out.begin() + static_cast<std::ptrdiff_t>(k));
}

bool WbGraphs::severalFinals(const ExecutionGraph& g) {
    // Per location, the writes that may be last in a witness: not one porf-before another write
    // of its location, or porf-before a read of it that reads another write (which then comes
    // after it). The init write is never last where there is a write. One at most everywhere:
    // every witness ends in the same memory state.
    const std::size_t T = g.threads.size();
    lastCands_.clear();
    auto memoryEvent = [](const Node& q) {
        return !q.placeholder && !q.zne && !MutexLocks::isLockEvent(q) &&
               (readsMemory(q.ev.kind) || writesMemory(q.ev.kind));
    };
    // (A write po-before another of its location is not last: per thread, its last write of
    // each location.)
    for (std::size_t u = 0; u < T; ++u) {
        const std::size_t first = lastCands_.size();
        for (std::size_t i = g.threads[u].size(); i-- > 0;) {
            const Node& q = g.threads[u][i];
            if (!memoryEvent(q) || !writesMemory(q.ev.kind)) continue;
            const auto same = [&](const auto& c) { return c.first == q.ev.loc; };
            if (std::any_of(lastCands_.begin() + static_cast<std::ptrdiff_t>(first),
                            lastCands_.end(), same))
                continue;
            lastCands_.emplace_back(
                q.ev.loc, Ref{static_cast<std::int32_t>(u), static_cast<std::int32_t>(i)});
        }
    }
    std::sort(lastCands_.begin(), lastCands_.end(),
              [](const auto& x, const auto& y) { return x.first < y.first; });
    auto several = [&] {
        for (std::size_t k = 1; k < lastCands_.size(); ++k)
            if (lastCands_[k].first == lastCands_[k - 1].first) return true;
        return false;
    };
    for (std::size_t u = 0; u < T && several(); ++u)
        for (std::size_t i = 0; i < g.threads[u].size(); ++i) {
            const Node& q = g.threads[u][i];
            if (!memoryEvent(q)) continue;
            g.porfPrefix(Ref{static_cast<std::int32_t>(u), static_cast<std::int32_t>(i)}, porfTmp_);
            std::erase_if(lastCands_, [&](const auto& c) {
                const Ref w = c.second;
                return c.first == q.ev.loc && w.i < porfTmp_[static_cast<std::size_t>(w.t)] &&
                       (writesMemory(q.ev.kind) || !(q.rf == w));
            });
        }
    return several();
}

void WbGraphs::addStats(ExploreResult& r) const {
    r.stats["wb_consistency_checks"] = static_cast<double>(checks_);
    r.stats["wb_maximality_checks"] = static_cast<double>(maximalityChecks_);
    r.stats["wb_final_state_checks"] = static_cast<double>(finalsChecks_);
    r.stats["wb_kill_checks"] = static_cast<double>(killChecks_);
    r.stats["wb_sources_overwritten"] = static_cast<double>(overwritten_);
    r.stats["wb_maximality_along_porf"] = static_cast<double>(porfOrdered_);
    r.stats["wb_maximality_memo"] = static_cast<double>(maximalityMemo_);
    r.stats["wb_sc_searches"] = static_cast<double>(sc_.searches);
    r.stats["wb_sc_states"] = static_cast<double>(sc_.states);
    r.stats["wb_sc_saturations"] = static_cast<double>(sc_.saturations);
    r.stats["wb_sc_saturation_refuted"] = static_cast<double>(sc_.saturationRefuted);
    r.stats["wb_sc_plain_first"] = static_cast<double>(sc_.plainFirst);
}

}  // namespace porlab::graph
