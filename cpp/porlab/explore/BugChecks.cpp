// SPDX-License-Identifier: MIT
#include "porlab/explore/BugChecks.hpp"

#include <algorithm>

namespace porlab {

// ---- data races ---------------------------------------------------------------------------------
//
// Detection (pass without recording): DJIT+-style vector clocks. Per location and thread, the
// epochs (Event::index + 1) of the thread's last write, last plain write, last read and last plain
// read. An access e of thread t races with an earlier one of thread u exactly when u's last
// access of the relevant kind is not known to t's clock (if an earlier access of u raced with e,
// so does u's last one of that kind: it comes later in u's program order, so it is not before e
// either). A write races with any access of u if it is plain, with u's plain accesses if atomic;
// a read with u's writes if plain, with u's plain writes if atomic.
//
// Which race is reported (pass with recording): different traces of one reads-from class order
// their accesses differently, so "the first race of the trace" would depend on the trace an
// explorer happened to run, and explorers that explore one trace per class (rf, and the
// Mazurkiewicz ones, which explore one of several per reads-from class) would report other error
// sites than naive. Happens-before depends on program order and reads-from only (synchronisation
// is reads-from between atomics, and locks read the unlock they follow), so the set of racing
// pairs is the same in every trace of a class. The race reported is its least pair {a, b}, a of
// the lower-numbered thread, by (a's thread, a's index, b's thread, b's index); the error site is
// b, the access of the higher-numbered thread. Finding it: per (location, thread), the accesses in
// program order with their clocks; for a candidate a and a thread u, the accesses of u before a
// are a prefix (their epoch is known to a's clock), those after a a suffix (their clock knows a),
// and the ones between race with a when they conflict with it (prefix counts by kind), so each
// candidate costs O(threads × log n).

namespace {

enum Epoch : int { kWrite = 0, kPlainWrite = 1, kRead = 2, kPlainRead = 3, kEpochs = 4 };

bool isFailedTrylock(const Event& e, const ProgramInfo& info) {
    return e.kind == EventKind::CasFailure && e.loc >= 0 &&
           static_cast<std::size_t>(e.loc) < info.isMutex.size() &&
           info.isMutex[static_cast<std::size_t>(e.loc)];
}

}  // namespace

std::uint32_t* RaceChecker::loc(LocId l) {
    const auto i = static_cast<std::size_t>(l);
    if (i >= slotOf_.size()) slotOf_.resize(i + 1, -1);
    if (slotOf_[i] < 0) {
        const std::size_t per =
            static_cast<std::size_t>(kEpochs + 1) * static_cast<std::size_t>(T_) + 1;
        slotOf_[i] = static_cast<std::int32_t>(slots_.size() / per);
        slots_.resize(slots_.size() + per, 0);
        touched_.push_back(l);
    }
    const std::size_t per =
        static_cast<std::size_t>(kEpochs + 1) * static_cast<std::size_t>(T_) + 1;
    return slots_.data() + static_cast<std::size_t>(slotOf_[i]) * per;
}

bool RaceChecker::pass(const std::vector<Event>& events, std::size_t end, const ProgramInfo& info,
                       bool record) {
    const auto T = static_cast<std::size_t>(T_);
    threadClock_.assign(T * T, 0);
    for (LocId l : touched_) slotOf_[static_cast<std::size_t>(l)] = -1;
    touched_.clear();
    slots_.clear();
    accesses_.clear();
    clocks_.clear();
    bool raced = false;
    auto clockOf = [&](ThreadId t) {
        return threadClock_.data() + static_cast<std::size_t>(t) * T;
    };
    auto join = [&](std::uint32_t* into, const std::uint32_t* from) {
        for (std::size_t u = 0; u < T; ++u) into[u] = std::max(into[u], from[u]);
    };
    for (std::size_t i = 0; i < end; ++i) {
        const Event& e = events[i];
        if (e.thread < 0 || static_cast<std::size_t>(e.thread) >= T) continue;
        std::uint32_t* c = clockOf(e.thread);
        const std::uint32_t epoch = e.index + 1;
        c[e.thread] = std::max(c[e.thread], epoch);
        if (e.kind == EventKind::Spawn && e.aux >= 0 && static_cast<std::size_t>(e.aux) < T) {
            join(clockOf(e.aux), c);  // spawn -> the child's first event
            continue;
        }
        if (e.kind == EventKind::Join && e.aux >= 0 && static_cast<std::size_t>(e.aux) < T) {
            join(c, clockOf(e.aux));  // the child's last event -> join
            continue;
        }
        if (e.loc < 0 || !accessesMemory(e.kind)) continue;
        const bool reads = readsMemory(e.kind), writes = writesMemory(e.kind);
        std::uint32_t* s = loc(e.loc);
        std::uint32_t* release = s + kEpochs * T;
        std::uint32_t& releaseValid = s[(kEpochs + 1) * T];
        if (e.mode == AccessMode::Internal) {
            if (writes) releaseValid = 0;  // reading it synchronises with nothing
            continue;
        }
        const bool plain = e.mode == AccessMode::Plain;
        // An atomic read synchronises with the atomic write it reads from (the last write of the
        // location: the trace is sequentially consistent). A failed trylock does not.
        if (reads && !plain && releaseValid && !isFailedTrylock(e, info)) join(c, release);
        if (!record) {
            for (std::size_t u = 0; u < T && !raced; ++u) {
                if (u == static_cast<std::size_t>(e.thread)) continue;
                const std::uint32_t* ep = s + kEpochs * u;
                const std::uint32_t known = c[u];
                if (writes)
                    raced = plain ? (ep[kWrite] > known || ep[kRead] > known)
                                  : (ep[kPlainWrite] > known || ep[kPlainRead] > known);
                else
                    raced = plain ? ep[kWrite] > known : ep[kPlainWrite] > known;
            }
            if (raced) return true;
        } else {
            Access a;
            a.pos = static_cast<int>(i);
            a.thread = e.thread;
            a.epoch = epoch;
            a.loc = e.loc;
            a.write = writes;
            a.plain = plain;
            a.clock = clocks_.size();
            clocks_.insert(clocks_.end(), c, c + T);
            accesses_.push_back(a);
        }
        std::uint32_t* mine = s + kEpochs * static_cast<std::size_t>(e.thread);
        if (writes) {
            mine[kWrite] = epoch;
            if (plain) mine[kPlainWrite] = epoch;
        }
        if (reads) {
            mine[kRead] = epoch;
            if (plain) mine[kPlainRead] = epoch;
        }
        if (writes) {
            if (plain) {
                releaseValid = 0;
            } else {
                std::copy(c, c + T, release);
                releaseValid = 1;
            }
        }
    }
    return raced;
}

std::optional<DataRace> RaceChecker::canonical() {
    const auto T = static_cast<std::size_t>(T_);
    // Per (location, thread): the thread's accesses in program order, with prefix counts of all,
    // plain, write and plain-write accesses.
    struct List {
        std::vector<int> acc;                 // indices into accesses_
        std::vector<std::uint32_t> count[4];  // count[k][j]: among the first j
    };
    std::vector<LocId> locs;
    for (const Access& a : accesses_) locs.push_back(a.loc);
    std::sort(locs.begin(), locs.end());
    locs.erase(std::unique(locs.begin(), locs.end()), locs.end());
    auto locIndex = [&](LocId l) {
        return static_cast<std::size_t>(std::lower_bound(locs.begin(), locs.end(), l) -
                                        locs.begin());
    };
    std::vector<List> lists(locs.size() * T);
    std::vector<std::vector<int>> byThread(T);
    for (std::size_t k = 0; k < accesses_.size(); ++k) {
        const Access& a = accesses_[k];
        lists[locIndex(a.loc) * T + static_cast<std::size_t>(a.thread)].acc.push_back(
            static_cast<int>(k));
        byThread[static_cast<std::size_t>(a.thread)].push_back(static_cast<int>(k));
    }
    for (List& l : lists) {
        for (auto& cnt : l.count) cnt.assign(l.acc.size() + 1, 0);
        for (std::size_t j = 0; j < l.acc.size(); ++j) {
            const Access& a = accesses_[static_cast<std::size_t>(l.acc[j])];
            const bool kinds[4] = {true, a.plain, a.write, a.plain && a.write};
            for (int k = 0; k < 4; ++k) l.count[k][j + 1] = l.count[k][j] + (kinds[k] ? 1 : 0);
        }
    }
    for (std::size_t t = 0; t < T; ++t)
        for (int ka : byThread[t]) {
            const Access& a = accesses_[static_cast<std::size_t>(ka)];
            const std::uint32_t* ca = clocks_.data() + a.clock;
            // the kind of access of u that races with a
            const int need = a.write ? (a.plain ? 0 : 1) : (a.plain ? 2 : 3);
            for (std::size_t u = t + 1; u < T; ++u) {
                const List& l = lists[locIndex(a.loc) * T + u];
                if (l.acc.empty()) continue;
                auto at = [&](std::size_t j) -> const Access& {
                    return accesses_[static_cast<std::size_t>(l.acc[j])];
                };
                // [lo, hi): u's accesses neither before nor after a
                std::size_t lo = 0, hi = l.acc.size();
                {
                    std::size_t a0 = 0, a1 = l.acc.size();  // first with epoch > ca[u]
                    while (a0 < a1) {
                        const std::size_t m = (a0 + a1) / 2;
                        if (at(m).epoch > ca[u])
                            a1 = m;
                        else
                            a0 = m + 1;
                    }
                    lo = a0;
                }
                {
                    std::size_t a0 = lo, a1 = l.acc.size();  // first whose clock knows a
                    while (a0 < a1) {
                        const std::size_t m = (a0 + a1) / 2;
                        if (clocks_[at(m).clock + t] >= a.epoch)
                            a1 = m;
                        else
                            a0 = m + 1;
                    }
                    hi = a0;
                }
                const auto& cnt = l.count[need];
                if (cnt[hi] == cnt[lo]) continue;
                // the first racing one in [lo, hi)
                std::size_t a0 = lo, a1 = hi;
                while (a0 < a1) {
                    const std::size_t m = (a0 + a1) / 2;
                    if (cnt[m + 1] > cnt[lo])
                        a1 = m;
                    else
                        a0 = m + 1;
                }
                return DataRace{a.pos, at(a0).pos, a.loc};
            }
        }
    return std::nullopt;  // not reached when the detection pass found a race
}

std::optional<DataRace> RaceChecker::find(const std::vector<Event>& events, std::size_t end,
                                          int numThreads, const ProgramInfo& info) {
    T_ = std::max(1, numThreads);
    for (std::size_t i = 0; i < end; ++i) T_ = std::max(T_, events[i].thread + 1);
    if (!pass(events, end, info, false)) return std::nullopt;
    pass(events, end, info, true);
    return canonical();
}

void RaceChecker::errorTrace(const std::vector<Event>& events, const DataRace& race,
                             std::vector<Event>& out) {
    const auto last = static_cast<std::size_t>(std::max(race.lowPos, race.highPos));
    out.assign(events.begin(), events.begin() + static_cast<std::ptrdiff_t>(last) + 1);
    const Event& site = events[static_cast<std::size_t>(race.highPos)];
    Event m;
    m.thread = site.thread;
    m.index = 0;
    for (const Event& e : out)
        if (e.thread == site.thread) m.index = e.index + 1;
    m.kind = EventKind::Fault;
    m.aux = static_cast<std::int32_t>(FaultKind::DataRace);
    m.loc = race.loc;
    m.operand = race.lowPos;
    m.rval = events[static_cast<std::size_t>(race.lowPos)].thread;
    m.pos = site.pos;
    out.push_back(m);
}

// ---- liveness -----------------------------------------------------------------------------------

std::optional<Event> livenessViolation(const Execution& exec, const std::vector<Event>& events) {
    const auto mem = exec.memory();
    ThreadId spinner = -1, waiter = -1;
    SourcePos spinPos, waitPos;
    bool any = false;
    for (ThreadId t = 0; t < exec.maxThreads(); ++t) {
        const ThreadStatus s = exec.status(t);
        if (s == ThreadStatus::Finished || s == ThreadStatus::NotStarted) continue;
        if (s == ThreadStatus::Failed) return std::nullopt;
        any = true;
        if (s == ThreadStatus::Ready) {
            const Event& p = exec.pending(t);
            if (p.enabled || !mayBlock(p.kind)) return std::nullopt;  // it could go on
            if (waiter < 0) {
                waiter = t;
                waitPos = p.pos;
            }
            continue;
        }
        // Blocked for good: its AssumeBlock marker is its last event.
        auto it = std::find_if(events.rbegin(), events.rend(),
                               [&](const Event& e) { return e.thread == t; });
        if (it == events.rend() || it->kind != EventKind::AssumeBlock || it->aux < 0)
            return std::nullopt;
        const auto cause = static_cast<BlockCause>(it->aux);
        if (cause == BlockCause::SpinAssume || cause == BlockCause::PureIteration) {
            // The iteration that was blocked: every value it read must still be there, or the loop
            // as written would have gone on (another execution covers that).
            if (it->operand < 0) return std::nullopt;  // unknown iteration
            const auto first = static_cast<std::uint32_t>(it->operand);
            for (auto r = std::next(it); r != events.rend(); ++r) {
                if (r->thread != t) continue;
                if (r->index < first) break;
                if (readsMemory(r->kind) && r->loc >= 0 &&
                    (static_cast<std::size_t>(r->loc) >= mem.size() ||
                     mem[static_cast<std::size_t>(r->loc)] != r->rval))
                    return std::nullopt;
            }
        } else if (cause != BlockCause::Livelock) {
            return std::nullopt;  // a limit, the loop bound, an assume, zne: says nothing
        }
        if (spinner < 0) {
            spinner = t;
            spinPos = it->pos;
        }
    }
    if (!any) return std::nullopt;
    if (spinner < 0) {
        // Every unfinished thread waits: a deadlock when they all wait on locks and joins.
        bool onlyLocks = true;
        for (ThreadId t = 0; t < exec.maxThreads() && onlyLocks; ++t)
            if (exec.status(t) == ThreadStatus::Ready) {
                const EventKind k = exec.pending(t).kind;
                onlyLocks = k == EventKind::Lock || k == EventKind::Join;
            }
        if (onlyLocks) return std::nullopt;
    }
    const ThreadId t = spinner >= 0 ? spinner : waiter;
    Event m;
    m.thread = t;
    m.index = 0;
    for (const Event& e : events)
        if (e.thread == t) m.index = e.index + 1;
    m.kind = EventKind::Fault;
    m.aux = static_cast<std::int32_t>(FaultKind::LivenessViolation);
    m.pos = spinner >= 0 ? spinPos : waitPos;
    return m;
}

}  // namespace porlab
