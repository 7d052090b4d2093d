// SPDX-License-Identifier: MIT
// Race analysis of the DPOR engine at the end of an execution: non-blocking races (reversed by
// notdep(i,E).e_j), blocking races of awaits, locks and zne awaits (maximal hb-prefixes after
// which the blocked event is enabled), threads blocked after E, and the values locations hold
// once a wakeup sequence reorders E. See DporEngine.cpp.
#include "porlab/explore/DporEngineImpl.hpp"

#include <bit>

namespace porlab::dpor::detail {

Value Engine::valueBefore(LocId l, std::size_t i) const {
    const auto& acc = locAcc_[static_cast<std::size_t>(l)];
    const auto k = std::lower_bound(acc.begin(), acc.end(), static_cast<int>(i)) - acc.begin();
    if (k > 0) {
        const auto q = static_cast<std::size_t>(acc[static_cast<std::size_t>(k - 1)]);
        const int w = writesMemory(ev_[q].kind) ? static_cast<int>(q) : wBefore_[q];
        if (w >= 0) return ev_[static_cast<std::size_t>(w)].wval;
    }
    return initMem_[static_cast<std::size_t>(l)];
}

Value Engine::valueAfterItems(LocId l, std::size_t i) const {
    Value v = valueBefore(l, i);
    for (int k : items_) {
        const Event& g = ev_[static_cast<std::size_t>(k)];
        if (g.loc == l && writesMemory(g.kind)) v = applyWrite(g, v);
    }
    return v;
}

void Engine::nonBlockingRace(std::size_t i, std::size_t j) {
    ++races_;
    items_.clear();
    // Source-DPOR reverses the race within pre(E,e'), Optimal-DPOR with all of notdep(e,E).
    const std::size_t end = mode_ == Mode::Source ? j : len_;
    for (std::size_t k = i + 1; k < end; ++k)
        if (static_cast<int>(k) != errPos_ && !hb(static_cast<int>(i), static_cast<int>(k)))
            items_.push_back(static_cast<int>(k));
    Event last = ev_[j];
    if (last.kind == EventKind::CasSuccess || last.kind == EventKind::CasFailure) {
        // Its value may change once i is gone: predict the kind the CAS will have.
        const Value v = valueAfterItems(last.loc, i);
        last.rval = v;
        last.kind = v == last.operand ? EventKind::CasSuccess : EventKind::CasFailure;
    } else if (readsMemory(last.kind)) {
        last.rval = valueAfterItems(last.loc, i);
    }
    // An event that reads nothing behaves as it did in E, where it did not fail.
    closeSequence(last, readsMemory(last.kind) || static_cast<int>(j) == errPos_ ? -1 : 0);
    insertSequence(i);
}

void Engine::setToItems(std::size_t set) {
    // Word by word, lowest bit first (a bit-by-bit walk over B0_..len_ was 16% of optimal's
    // instructions on lock-heavy programs, where these sets are mostly empty).
    items_.clear();
    for (std::size_t w = 0; w < W_; ++w) {
        for (std::uint64_t x = sets_[set * W_ + w]; x != 0; x &= x - 1) {
            const std::size_t k = B0_ + 64 * w + static_cast<std::size_t>(std::countr_zero(x));
            if (k >= len_) return;
            items_.push_back(static_cast<int>(k));
        }
    }
}

bool Engine::enabledAfter(const Event& e, std::size_t i) const {
    if (zneAwait(e)) {
        // E[0..i).items: an observer of e's location by another thread after e's increment.
        bool inc = false;
        auto seen = [&](const Event& g) {
            if (g.thread == e.thread) {
                inc = inc || static_cast<std::int32_t>(g.index) == e.aux;
                return false;
            }
            return inc && g.loc == e.loc && observes(g);
        };
        for (std::size_t k = 0; k < i; ++k)
            if (seen(ev_[k])) return true;
        for (int k : items_)
            if (seen(ev_[static_cast<std::size_t>(k)])) return true;
        return false;
    }
    const Value v = valueAfterItems(e.loc, i);
    if (e.kind == EventKind::Lock) return v == 0;
    return evalAwaitCond(e.cond, v, e.operand);
}

void Engine::blockingRace(const Event& e, std::size_t limit, int kpos) {
    const std::uint32_t* kc = kpos >= 0 ? clk(kpos) : nullptr;
    auto keep = [&](std::size_t k) {
        const Event& g = ev_[k];
        return kc != nullptr && kc[g.thread] > g.index;
    };
    // Only accesses of e's location by other threads, not before kpos, can race with it:
    // per thread those are the latest of its accesses of the location (before `limit`),
    // back to the first one that happens before kpos. Taken latest first, as a walk back
    // over E finds them (walking over E, or over all accesses of the location, made every
    // lock of a long execution cost O(events)).
    // (Merged lazily: the search often stops at the first race that can stop it.)
    if (e.loc < 0 || static_cast<std::size_t>(e.loc) >= locAcc_.size()) return;
    const auto& lt = locThr_[static_cast<std::size_t>(e.loc)];
    if (lt.empty()) return;
    racers_.assign(T_, -1);  // per thread: index of its next candidate in lt[u], -1: none
    for (std::size_t u = 0; u < T_; ++u)
        if (static_cast<ThreadId>(u) != e.thread) {
            const auto& acc = lt[u];
            const auto it = std::lower_bound(acc.begin(), acc.end(), static_cast<int>(limit));
            racers_[u] = static_cast<int>(it - acc.begin()) - 1;
        }
    auto nextRacer = [&]() -> int {
        int best = -1;
        std::size_t bu = 0;
        for (std::size_t u = 0; u < T_; ++u) {
            const int ai = racers_[u];
            if (ai < 0) continue;
            const int pos = lt[u][static_cast<std::size_t>(ai)];
            if (keep(static_cast<std::size_t>(pos))) {  // and so are its earlier accesses
                racers_[u] = -1;
                continue;
            }
            if (pos > best) {
                best = pos;
                bu = u;
            }
        }
        if (best >= 0) --racers_[bu];
        return best;
    };
    for (int ip = nextRacer(); ip >= 0 && !rep_.stop(); ip = nextRacer()) {
        const auto i = static_cast<std::size_t>(ip);
        const Event& g = ev_[i];
        // e races with the events that may enable/disable it and, for an xchg-await, also
        // with the reads of its location (they conflict with its write).
        const bool enabler = mayEnable(g, e);
        if (!enabler && !conf_.conflicts(g, e)) continue;
        ++blockingRaces_;
        const bool canStop = enabler && conflictsAllEnablers(g, e);
        // Search the maximal hb-prefixes u of w = notdep(i,E) after which e is enabled.
        B0_ = (i + 1) / 64 * 64;
        W_ = (len_ - B0_ + 63) / 64;
        sets_.clear();
        const std::size_t w = newSet();
        const std::size_t end = mode_ == Mode::Source ? limit : len_;
        for (std::size_t k = i + 1; k < end; ++k)
            if (static_cast<int>(k) != errPos_ && !hb(static_cast<int>(i), static_cast<int>(k)))
                bitSet(w, k);
        stack_.assign(1, w);
        found_.clear();
        while (!stack_.empty()) {
            if (rep_.stop()) return;
            const std::size_t u = stack_.back();
            stack_.pop_back();
            setToItems(u);
            if (enabledAfter(e, i)) {
                found_.push_back(u);
                continue;
            }
            for (std::size_t f = i + 1; f < len_; ++f) {
                if (!bitGet(u, f)) continue;
                const Event& fe = ev_[f];
                if (fe.thread == e.thread || !mayEnable(fe, e) || keep(f)) continue;
                const std::size_t u2 = newSet();
                std::copy_n(sets_.begin() + static_cast<std::ptrdiff_t>(u * W_), W_,
                            sets_.begin() + static_cast<std::ptrdiff_t>(u2 * W_));
                bitClear(u2, f);
                for (std::size_t k = f + 1; k < len_; ++k)
                    if (bitGet(u2, k) && hb(static_cast<int>(f), static_cast<int>(k)))
                        bitClear(u2, k);
                bool seen = false;  // every set kept in sets_ has been visited
                for (std::size_t s = 0; s < u2 && !seen; ++s) seen = sameSet(s, u2);
                if (seen) {
                    sets_.resize(sets_.size() - W_);
                    continue;
                }
                stack_.push_back(u2);
            }
        }
        bool did = false;
        for (std::size_t a = 0; a < found_.size(); ++a) {
            bool maximal = true;
            for (std::size_t b = 0; b < found_.size() && maximal; ++b)
                if (a != b && !sameSet(found_[a], found_[b]) && subsetOf(found_[a], found_[b]))
                    maximal = false;
            for (std::size_t b = 0; b < a && maximal; ++b)
                if (sameSet(found_[a], found_[b])) maximal = false;
            if (!maximal) continue;
            did = true;
            setToItems(found_[a]);
            Event last = e;
            last.rval = valueAfterItems(e.loc, i);
            if (e.kind == EventKind::XchgAwait || e.kind == EventKind::Lock) {
                // wval is fixed by the thread (lock: 1)
            }
            closeSequence(last);
            insertSequence(i);
        }
        if (canStop && did && canStopOpt_) break;
    }
}

void Engine::analyze(EndKind kind) {
    const std::size_t n = len_;
    errPos_ = kind == EndKind::Error ? static_cast<int>(n) - 1 : -1;
    // The next events of the threads blocked after E (after pre(E,f) for a failure f), read
    // before anything else: inserting may replay the program and so change its state.
    if (kind == EndKind::Error) exec_->restore(snap_[n - 1]);
    const ThreadId failer = kind == EndKind::Error ? ev_[n - 1].thread : -1;
    pendingAtEnd_.clear();
    for (std::size_t t = 0; t < T_; ++t) {
        const auto p = static_cast<ThreadId>(t);
        if (p == failer || exec_->status(p) != ThreadStatus::Ready) continue;
        const Event& pe = exec_->pending(p);
        if (pe.enabled && kind != EndKind::Error) continue;
        pendingAtEnd_.push_back(pe);
    }
    // (a) non-blocking races (of the positions that have conflicting predecessors: on a long
    // execution most have none, and visiting every position made each execution cost its
    // whole length even when it differs from the previous one in its last few events).
    // (The analysis of a long execution can take long between two events: it asks the
    // budgets as it goes.)
    for (const int jp : racy_) {
        if (rep_.stop()) return;
        const auto j = static_cast<std::size_t>(jp);
        const Event& ej = ev_[j];
        const auto first = predBuf_.begin() + static_cast<std::ptrdiff_t>(predStart_[j]);
        preds_.assign(first, first + static_cast<std::ptrdiff_t>(predCount_[j]));
        if (preds_.empty()) continue;
        int other = prevSame_[j];
        if (other < 0) other = spawnPos_[static_cast<std::size_t>(ej.thread)];
        for (int i : preds_) {
            bool adjacent = !(other >= 0 && other > i && hb(i, other));
            for (std::size_t q = 0; q < preds_.size() && adjacent; ++q)
                if (preds_[q] != i && preds_[q] > i && hb(i, preds_[q])) adjacent = false;
            if (adjacent) nonBlockingRace(static_cast<std::size_t>(i), j);
        }
    }
    // (b) blocking races of executed awaits, lock acquisitions and zne awaits.
    for (const int jp : blockers_) {
        if (rep_.stop()) return;
        const auto j = static_cast<std::size_t>(jp);
        const Event& ej = ev_[j];
        int kpos = prevSame_[j];
        if (kpos < 0) kpos = spawnPos_[static_cast<std::size_t>(ej.thread)];
        blockingRace(ej, j, kpos);
    }
    // (c) threads blocked after E (after pre(E,f) for a failure f).
    for (const Event& pe : pendingAtEnd_) {
        if (rep_.stop()) return;
        const auto t = static_cast<std::size_t>(pe.thread);
        int kpos = lastOf_[t];
        if (kpos < 0) kpos = spawnPos_[t];
        if (kind == EndKind::Error) {
            if (kpos == static_cast<int>(n) - 1) continue;  // spawned by f
            if (pe.enabled) {
                // f disables p: schedule p just before f.
                ++blockingRaces_;
                items_.clear();
                closeSequence(pe);
                insertSequence(n - 1);
                continue;
            }
        }
        if (pe.kind == EventKind::Await || pe.kind == EventKind::XchgAwait ||
            pe.kind == EventKind::Lock || zneAwait(pe))
            blockingRace(pe, kind == EndKind::Error ? n - 1 : n, kpos);
    }
    errPos_ = -1;
}

}  // namespace porlab::dpor::detail
