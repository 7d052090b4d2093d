// SPDX-License-Identifier: MIT
// Reads-from SMC and RVF-SMC: children refuted by saturated clocks, without VerifySC.
//
// A child adds one read r with its good writes G (one write, the source, for reads-from SMC;
// the visible writes of one value for RVF) to its node's events X. Every witness of the child,
// restricted to X, is a witness of X, so it linearises every order that all witnesses of X
// do. The saturated clocks are such an order, kept per step like the causal clocks (computed
// when a step is registered, dropped with it: the exploration's push and pop): program order,
// spawn and join, what comes before all of a read's good writes (its reads-from edge for
// reads-from SMC: a read reads one of them), and the coherence edges that point to the new
// step, which are the ones that can be known then: a write e of location x comes after every
// read of x whose good writes all come before e (that read would otherwise read e or a later
// write, none of them good). (Edges that point back to an earlier step, such as a write before r
// coming before r's source, are left out: the order is weaker than VerifySC's closure, so what it
// refutes the closure refutes too.) Before a VerifySC call (no cheaper answer found), the new
// read's clock gets the backward coherence edges too (satJoinBackward): a read whose good writes
// all come before a write b that comes before r is before b (it reads one of them, and b is
// coherence-after them all), so before r; joined until r's clock stops growing. They refute what
// the closure rejected on dq-wsq(3,3) (97 calls) and szymanski(2) (16, its only calls). Kept out of
// the clocks themselves: an edge into an older step changes the clocks of all the steps after it. A
// child is refuted without VerifySC when for every good write w a write of r's location comes after
// w and before r in that order (with r's own clock: its predecessor, the meet of G's clocks and,
// for a read-modify-write, the reads its write must come after): r can read none of them.
// checkRefutations asserts that VerifySC finds no witness either.
// The clocks are computed lazily: registering a step only logs it (satLog_), and the first
// child that asks for a refutation computes the clocks of the logged steps in their order of
// registration (ensureSat), which gives the clocks an eager computation would (each step sees
// the steps registered before it). A program whose children are all decided before the
// refutation is asked (casrot: the node's trace or an insertion is a witness) pays nothing.
// A task handed to another worker carries the clocks of all its registered steps (handOver
// computes them first).
#include "porlab/explore/RvfSmc.hpp"

#include <limits>
#include <numeric>

namespace porlab::rvfsmc {

// Do all the good writes of read (u, i) (its source, for reads-from SMC) come before, by
// `before`, and differ from `self`? (A read with no good writes recorded: no.)
template <class Before>
bool RvfSmc::allGoodBefore(ThreadId u, std::int32_t i, WriteRef self, Before before) const {
    if (ro_.perWrite) {
        const WriteRef src = src_[static_cast<std::size_t>(u)][static_cast<std::size_t>(i)];
        return src != self && before(src);
    }
    const Step& s = step(u, i);
    if (s.good.empty()) return false;
    return std::ranges::all_of(s.good, [&](WriteRef w) { return w != self && before(w); });
}

void RvfSmc::satJoinEarlierReads(LocId x, WriteRef self, std::int32_t* c) const {
    const auto T = static_cast<std::size_t>(T_);
    const LocLists& ll = *locLists_[static_cast<std::size_t>(x)];
    auto before = [&](WriteRef e) {
        return e.t == kInitThread || c[static_cast<std::size_t>(e.t)] > e.i;
    };
    for (bool grew = true; grew;) {
        grew = false;
        for (std::size_t u = 0; u < T; ++u) {
            const auto& rl = ll.reads[u];
            // u's reads already before the write are a prefix of rl (clocks grow along u); of
            // the others, those registered before the write (the ones with a clock: ensureSat
            // computes the clocks in their order of registration)
            const auto known =
                std::lower_bound(rl.begin(), rl.end(), satCount(static_cast<ThreadId>(u)));
            for (auto k = static_cast<std::size_t>(known - rl.begin()); k-- > 0;) {
                const std::int32_t i = rl[k];
                if (c[u] > i) break;
                if (!allGoodBefore(static_cast<ThreadId>(u), i, self, before)) continue;
                const std::int32_t* o = satClock(static_cast<ThreadId>(u), i);
                for (std::size_t v = 0; v < T; ++v) c[v] = std::max(c[v], o[v]);
                grew = true;
            }
        }
    }
}

void RvfSmc::joinGoodMeet(const std::vector<WriteRef>& good, std::int32_t* c) {
    if (good.empty()) return;
    const auto T = static_cast<std::size_t>(T_);
    std::vector<std::int32_t>& m = satMeet_;
    m.assign(T, std::numeric_limits<std::int32_t>::max());
    for (const WriteRef& w : good) {
        if (w.t == kInitThread) return;  // (the initial write comes before everything)
        const std::int32_t* wc = satClock(w.t, w.i);
        for (std::size_t u = 0; u < T; ++u) m[u] = std::min(m[u], wc[u]);
    }
    for (std::size_t u = 0; u < T; ++u) c[u] = std::max(c[u], m[u]);
}

void RvfSmc::ensureSat() {
    for (const WriteRef& e : satLog_) registerSat(e.t, e.i, step(e.t, e.i));
    satLog_.clear();
    satPending_ = 0;
}

void RvfSmc::dropSat(ThreadId t, std::int32_t oldReg, std::size_t n) {
    auto& sk = satClk_[static_cast<std::size_t>(t)];
    const std::int32_t had = satCount(t);
    const std::int32_t keep = std::min(oldReg, static_cast<std::int32_t>(n));
    if (had > keep) sk.resize(static_cast<std::size_t>(keep) * static_cast<std::size_t>(T_));
    // t's logged steps were [had, oldReg), they are [min(had, keep), keep)
    const std::int32_t gone = (oldReg - had) - (keep - std::min(had, keep));
    if (gone <= 0) return;
    satPending_ -= static_cast<std::size_t>(gone);
    // The dropped steps' entries are usually the log's last ones (steps are registered and
    // dropped like a stack); otherwise the log has more entries than steps without a clock.
    auto dropped = [&](const WriteRef& e) { return e.i >= reg_[static_cast<std::size_t>(e.t)]; };
    while (!satLog_.empty() && dropped(satLog_.back())) satLog_.pop_back();
    if (satLog_.size() != satPending_) std::erase_if(satLog_, dropped);
}

void RvfSmc::registerSat(ThreadId t, std::int32_t i, const Step& s) {
    const auto tu = static_cast<std::size_t>(t);
    const auto T = static_cast<std::size_t>(T_);
    auto& sk = satClk_[tu];
    sk.resize((static_cast<std::size_t>(i) + 1) * T);
    ++satClocks_;
    std::int32_t* c = &sk[static_cast<std::size_t>(i) * T];
    std::fill_n(c, T, 0);
    auto join = [&](const std::int32_t* o) {
        for (std::size_t u = 0; u < T; ++u) c[u] = std::max(c[u], o[u]);
    };
    if (i > 0)
        join(satClock(t, i - 1));
    else if (const SpawnPoint sp = spawnOf_[tu]; sp.t >= 0)
        join(satClock(sp.t, sp.i));
    if (s.ev.kind == EventKind::Join && s.ev.aux >= 0) {
        const auto cu = static_cast<std::size_t>(s.ev.aux);
        if (const std::int32_t n = satCount(s.ev.aux); n > 0)
            join(satClock(s.ev.aux, n - 1));
        else if (const SpawnPoint sp = spawnOf_[cu]; sp.t >= 0)
            join(satClock(sp.t, sp.i));
    }
    if (s.reads && !isLiveness(s)) {
        if (ro_.perWrite) {
            if (const WriteRef w = src_[tu][static_cast<std::size_t>(i)]; w.t != kInitThread)
                join(satClock(w.t, w.i));
        } else {
            joinGoodMeet(s.good, c);
        }
    }
    c[tu] = i + 1;
    if (s.writes) satJoinEarlierReads(s.ev.loc, {t, i}, c);
}

void RvfSmc::satJoinBackward(std::int32_t* c) const {
    const auto T = static_cast<std::size_t>(T_);
    for (const LocId y : usedLocs_) {
        const LocLists& ly = *locLists_[static_cast<std::size_t>(y)];
        // The write b of y before c that a read has to come before: per thread, its latest
        // write before c (the likeliest to come after the read's good writes).
        auto beforeWrite = [&](ThreadId u, std::int32_t i) {
            for (std::size_t v = 0; v < T; ++v) {
                const auto& wl = ly.writes[v];
                const auto end = std::lower_bound(wl.begin(), wl.end(), c[v]);
                if (end == wl.begin()) continue;
                const WriteRef b{static_cast<std::int32_t>(v), *(end - 1)};
                const std::int32_t* bc = satClock(b.t, b.i);
                auto before = [&](WriteRef w) {
                    return w.t == kInitThread || bc[static_cast<std::size_t>(w.t)] > w.i;
                };
                if (allGoodBefore(u, i, b, before)) return true;
            }
            return false;
        };
        for (std::size_t u = 0; u < T; ++u) {
            const auto& rl = ly.reads[u];
            // u's reads not before c yet, latest first: the first to come before a write
            // before c brings the earlier ones (program order)
            for (auto k = rl.size(); k > 0; --k) {
                const std::int32_t i = rl[k - 1];
                if (i < c[u]) break;
                if (!beforeWrite(static_cast<ThreadId>(u), i)) continue;
                const std::int32_t* o = satClock(static_cast<ThreadId>(u), i);
                for (std::size_t v = 0; v < T; ++v) c[v] = std::max(c[v], o[v]);
                break;
            }
        }
    }
}

bool RvfSmc::saturationRefutes(const Frame& f, ThreadId t, std::int32_t ridx,
                               const std::vector<WriteRef>& good, const Step& rs, bool backward) {
    const LocId x = rs.ev.loc;
    if (x < 0 || !locLists_[static_cast<std::size_t>(x)]) return false;  // no write of x yet
    ensureSat();
    const auto T = static_cast<std::size_t>(T_);
    const std::vector<std::int32_t>& sl = f.sl;
    // r's clock: its program-order predecessor (or spawn), what precedes all its good writes
    // and, when r overwrites x (a read-modify-write), every read of x whose good writes all
    // come before r.
    std::vector<std::int32_t>& C = satBuf_;
    C.assign(T, 0);
    auto join = [&](const std::int32_t* o) {
        for (std::size_t u = 0; u < T; ++u) C[u] = std::max(C[u], o[u]);
    };
    if (ridx > 0)
        join(satClock(t, ridx - 1));
    else if (const SpawnPoint sp = spawnOf_[static_cast<std::size_t>(t)]; sp.t >= 0)
        join(satClock(sp.t, sp.i));
    if (good.empty()) return false;
    joinGoodMeet(good, C.data());
    C[static_cast<std::size_t>(t)] = ridx + 1;
    // What mutual exclusion forces (RvfSmcMutex.cpp), for RVF: reads-from SMC fixes the source
    // of each lock, which orders the sections in the clocks already.
    bool joined = false;
    if (ro_.mutexOrder && !ro_.perWrite && mutexRefutes(t, ridx, rs, sl, good, C.data(), joined))
        return true;
    if (rs.writes) satJoinEarlierReads(x, {t, ridx}, C.data());
    // backward: the coherence edges that point back into the node's steps, joined into r's
    // clock until it stops growing (see satJoinBackward)
    for (bool grew = backward; grew;) {
        const auto sum = [&] { return std::accumulate(C.begin(), C.end(), std::int64_t{0}); };
        const std::int64_t before = sum();
        satJoinBackward(C.data());
        if (rs.writes) satJoinEarlierReads(x, {t, ridx}, C.data());
        grew = sum() != before;
    }
    // A write b of x other than w with w before b and b before r hides w from r. Per thread,
    // the latest write before r is the likeliest to come after w (clocks grow along a thread);
    // if it is w itself, the earlier ones come before w. Refuted: every good write hidden.
    const LocLists& ll = *locLists_[static_cast<std::size_t>(x)];
    auto hidden = [&](WriteRef w) {
        for (std::size_t u = 0; u < T; ++u) {
            const auto& wl = ll.writes[u];
            const auto end = std::lower_bound(wl.begin(), wl.end(), std::min(C[u], sl[u]));
            if (end == wl.begin()) continue;
            const WriteRef b{static_cast<std::int32_t>(u), *(end - 1)};
            if (b == w) continue;
            if (w.t == kInitThread || satClock(b.t, b.i)[static_cast<std::size_t>(w.t)] > w.i)
                return true;
        }
        return false;
    };
    const bool refuted = std::ranges::all_of(good, hidden);
    if (refuted && joined) ++mutexRefuted_;
    return refuted;
}

}  // namespace porlab::rvfsmc
