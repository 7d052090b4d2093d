// SPDX-License-Identifier: MIT
// Reads-from SMC: children refuted by saturated clocks, without VerifySC.
//
// A child adds one read r with one source w to its node's events X. Every
// witness of the child, restricted to X, is a witness of X, so it linearises every order
// that all witnesses of X do. The saturated clocks are such an order, kept per step like
// the causal clocks (computed when a step is registered, dropped with it: the exploration's
// push and pop): program order, spawn and join, reads-from, and the coherence edges that
// point to the new step, which are the ones that can be known then: a write e of location
// x comes after every read of x whose source comes before e (that read would otherwise read
// e or a later write). (Edges that point back to an earlier step, such as a write before r
// coming before r's source, are left out: the order is weaker than VerifySC's closure, so
// what it refutes the closure refutes too.) A child is refuted without VerifySC when a write
// of r's location comes after w and before r in that order (with r's own clock: its
// predecessor, w and, for a read-modify-write, the reads its write must come after).
// checkRefutations asserts that VerifySC finds no witness either. A worker that explores a
// subtree rebuilds them by registering the subtree root's steps, as it does the causal
// clocks.
#include "porlab/explore/RvfSmc.hpp"

namespace porlab::rvfsmc {

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
            // u's reads already before the write are a prefix of rl (clocks grow along u)
            for (auto k = rl.size(); k-- > 0;) {
                const std::int32_t i = rl[k];
                if (c[u] > i) break;
                const WriteRef src = src_[u][static_cast<std::size_t>(i)];
                if (src == self || !before(src)) continue;
                const std::int32_t* o = satClock(static_cast<ThreadId>(u), i);
                for (std::size_t v = 0; v < T; ++v) c[v] = std::max(c[v], o[v]);
                grew = true;
            }
        }
    }
}

void RvfSmc::registerSat(ThreadId t, std::int32_t i, const Step& s) {
    const auto tu = static_cast<std::size_t>(t);
    const auto T = static_cast<std::size_t>(T_);
    auto& sk = satClk_[tu];
    sk.resize((static_cast<std::size_t>(i) + 1) * T);
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
        if (reg_[cu] > 0)
            join(satClock(s.ev.aux, reg_[cu] - 1));
        else if (const SpawnPoint sp = spawnOf_[cu]; sp.t >= 0)
            join(satClock(sp.t, sp.i));
    }
    if (s.reads && !isLiveness(s))
        if (const WriteRef w = src_[tu][static_cast<std::size_t>(i)]; w.t != kInitThread)
            join(satClock(w.t, w.i));
    c[tu] = i + 1;
    if (s.writes) satJoinEarlierReads(s.ev.loc, {t, i}, c);
}

bool RvfSmc::saturationRefutes(const Frame& f, ThreadId t, std::int32_t ridx, WriteRef w,
                               const Step& rs) {
    const LocId x = rs.ev.loc;
    if (x < 0 || !locLists_[static_cast<std::size_t>(x)]) return false;  // no write of x yet
    const auto T = static_cast<std::size_t>(T_);
    const std::vector<std::int32_t>& sl = f.sl;
    // r's clock: its program-order predecessor (or spawn), its source and, when r overwrites x
    // (a read-modify-write), every read of x whose source comes before r.
    std::vector<std::int32_t>& C = satBuf_;
    C.assign(T, 0);
    auto join = [&](const std::int32_t* o) {
        for (std::size_t u = 0; u < T; ++u) C[u] = std::max(C[u], o[u]);
    };
    if (ridx > 0)
        join(satClock(t, ridx - 1));
    else if (const SpawnPoint sp = spawnOf_[static_cast<std::size_t>(t)]; sp.t >= 0)
        join(satClock(sp.t, sp.i));
    if (w.t != kInitThread) join(satClock(w.t, w.i));
    C[static_cast<std::size_t>(t)] = ridx + 1;
    if (rs.writes) satJoinEarlierReads(x, {t, ridx}, C.data());
    // A write b of x other than w with w before b and b before r hides w from r. Per thread,
    // the latest write before r is the likeliest to come after w (clocks grow along a thread);
    // if it is w itself, the earlier ones come before w.
    const LocLists& ll = *locLists_[static_cast<std::size_t>(x)];
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
}

}  // namespace porlab::rvfsmc
