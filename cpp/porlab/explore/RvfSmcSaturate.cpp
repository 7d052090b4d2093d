// SPDX-License-Identifier: MIT
// Reads-from SMC: children refuted by their node's saturated order, without VerifySC (see
// RvfSmc.hpp, "the node's saturated order").
#include "porlab/explore/RvfSmc.hpp"

namespace porlab::rvfsmc {

bool RvfSmc::saturationRefutes(const Frame& f, ThreadId t, std::int32_t ridx, WriteRef w,
                               const Step& rs) {
    NodeSaturation& ns = sats_[depth_ - 1];
    const auto T = static_cast<std::size_t>(T_);
    const std::vector<std::int32_t>& sl = f.sl;
    if (!ns.tried) {
        ns.tried = true;
        ns.ok = false;
        std::size_t n = 0;
        for (const std::int32_t k : sl) n += static_cast<std::size_t>(k);
        if (n * T > kMaxSaturation) return false;
        ++satComputed_;
        ns.ok = rvf::saturate(instance(sl), ro_.vsc, ws_, ns.sat);
    }
    if (!ns.ok) return false;
    const LocId x = rs.ev.loc;
    if (x < 0 || !locLists_[static_cast<std::size_t>(x)]) return false;  // no write of x in X
    const LocLists& ll = *locLists_[static_cast<std::size_t>(x)];
    const rvf::Saturation& P = ns.sat;
    // r's clock in the child's order, before the coherence edges that r forces on others.
    std::vector<std::int32_t>& C = satClock_;
    C.assign(T, 0);
    auto join = [&](const std::int32_t* o) {
        for (std::size_t u = 0; u < T; ++u) C[u] = std::max(C[u], o[u]);
    };
    if (ridx > 0)
        join(P.clock(t, ridx - 1));
    else if (const SpawnPoint sp = spawnOf_[static_cast<std::size_t>(t)]; sp.t >= 0)
        join(P.clock(sp.t, sp.i));
    if (w.t != kInitThread) join(P.clock(w.t, w.i));
    C[static_cast<std::size_t>(t)] = std::max(C[static_cast<std::size_t>(t)], ridx + 1);
    auto beforeR = [&](WriteRef e) {
        return e.t == kInitThread || C[static_cast<std::size_t>(e.t)] > e.i;
    };
    if (rs.writes) {
        // r overwrites x: a read of x whose source comes before r reads before r (otherwise it
        // would read r or a later write). Each such edge may put more sources before r.
        for (bool grew = true; grew;) {
            grew = false;
            for (std::size_t u = 0; u < T; ++u)
                for (const std::int32_t i : ll.reads[u]) {
                    if (i >= sl[u]) break;
                    if (C[u] > i) continue;  // already before r
                    if (!beforeR(src_[u][static_cast<std::size_t>(i)])) continue;
                    join(P.clock(static_cast<ThreadId>(u), i));
                    grew = true;
                }
        }
    }
    // A write b of x other than w with w <P b and b before r hides w from r: no witness. Per
    // thread, the latest write before r is the likeliest to come after w (clocks grow along a
    // thread), and if it is w itself the earlier ones come before w.
    for (std::size_t u = 0; u < T; ++u) {
        const auto& wl = ll.writes[u];
        const auto end = std::lower_bound(wl.begin(), wl.end(), std::min(C[u], sl[u]));
        if (end == wl.begin()) continue;
        const WriteRef b{static_cast<std::int32_t>(u), *(end - 1)};
        if (b == w) continue;
        if (w.t == kInitThread || P.clock(b.t, b.i)[static_cast<std::size_t>(w.t)] > w.i)
            return true;
    }
    return false;
}

}  // namespace porlab::rvfsmc
