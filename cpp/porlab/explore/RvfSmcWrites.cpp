// SPDX-License-Identifier: MIT
// RVF-SMC and reads-from SMC: the clocks of the steps and the writes a read may read (see
// RvfSmc.hpp).
#include "porlab/explore/RvfSmc.hpp"

#include <limits>

namespace porlab::rvfsmc {

RvfSmc::LocLists& RvfSmc::newLists(LocId l) {
    auto& p = locLists_[static_cast<std::size_t>(l)];
    // (usedLocs_ in location order: reportMaximal goes through it so)
    usedLocs_.insert(std::upper_bound(usedLocs_.begin(), usedLocs_.end(), l), l);
    p = std::make_unique<LocLists>();
    p->writes.resize(static_cast<std::size_t>(T_));
    p->reads.resize(static_cast<std::size_t>(T_));
    return *p;
}

void RvfSmc::registerStep(ThreadId t, std::int32_t i, const Step& s) {
    const auto tu = static_cast<std::size_t>(t);
    const auto T = static_cast<std::size_t>(T_);
    const auto iu = static_cast<std::size_t>(i);
    // (clk_, src_ and prevDiff_ only grow: a dropped step's entries are written again when a
    // step comes in its place; resizing them at every step cost rf ~2% on dq-wsq)
    auto& ck = clk_[tu];
    if (ck.size() < (iu + 1) * T) ck.resize((iu + 1) * T);
    std::int32_t* c = &ck[iu * T];
    auto join = [&](const std::int32_t* o) {
        for (std::size_t u = 0; u < T; ++u) c[u] = std::max(c[u], o[u]);
    };
    if (i > 0)
        std::copy_n(c - T, T, c);
    else if (const SpawnPoint sp = spawnOf_[tu]; sp.t >= 0)
        std::copy_n(poClock(sp.t, sp.i), T, c);
    else
        std::fill_n(c, T, 0);
    if (s.ev.kind == EventKind::Join && s.ev.aux >= 0) {
        const ThreadId ch = s.ev.aux;
        const auto cu = static_cast<std::size_t>(ch);
        if (reg_[cu] > 0)
            join(poClock(ch, reg_[cu] - 1));
        else if (const SpawnPoint sp = spawnOf_[cu]; sp.t >= 0)
            join(poClock(sp.t, sp.i));
    }
    if (ro_.perWrite) {
        if (src_[tu].size() <= iu) {
            src_[tu].resize(iu + 1, kInitWrite);
            prevDiff_[tu].resize(iu + 1, -1);
        }
        if (s.reads && !isLiveness(s)) {  // (a liveness read's source is not fixed)
            const WriteRef w = active_[static_cast<std::size_t>(s.ev.loc)];
            src_[tu][static_cast<std::size_t>(i)] = w;
            if (w.t != kInitThread) join(poClock(w.t, w.i));
            // The latest earlier read of the location by t with another source.
            auto& rl = lists(s.ev.loc).reads[tu];
            std::int32_t pd = -1;
            if (!rl.empty()) {
                const auto q = static_cast<std::size_t>(rl.back());
                pd = src_[tu][q] == w ? prevDiff_[tu][q] : rl.back();
            }
            prevDiff_[tu][static_cast<std::size_t>(i)] = pd;
            rl.push_back(i);
        }
    } else if (s.reads && !isLiveness(s)) {
        // RVF: the read reads one of its good writes, so what comes before all of them (with
        // them: each clock counts its own step) comes before the read in every witness of the
        // node's children. (With a single good write, the reads-from edge of reads-from SMC.)
        // engine=classic keeps program-order clocks (ablation).
        if (ro_.fastPaths && !s.good.empty()) {
            std::vector<std::int32_t>& m = meetBuf_;
            m.assign(T, std::numeric_limits<std::int32_t>::max());
            for (const WriteRef& w : s.good) {
                if (w.t == kInitThread) {
                    m.assign(T, 0);
                    break;
                }
                const std::int32_t* wc = poClock(w.t, w.i);
                for (std::size_t u = 0; u < T; ++u) m[u] = std::min(m[u], wc[u]);
            }
            join(m.data());
        }
        lists(s.ev.loc).reads[tu].push_back(i);
    }
    c[tu] = i + 1;
    if (s.writes) lists(s.ev.loc).writes[tu].push_back(i);
    // (the saturated clock is computed when a child asks for a refutation: ensureSat)
    if (ro_.fastPaths) {
        satLog_.push_back({t, i});
        ++satPending_;
    }
    reg_[tu] = i + 1;
    if (ro_.eagerSat) ensureSat();
}

void RvfSmc::dropSteps(ThreadId t, std::size_t n) {
    const auto tu = static_cast<std::size_t>(t);
    auto& st = steps_[tu];
    for (auto i = static_cast<std::size_t>(reg_[tu]); i-- > n;) {
        const Step& s = st[i];
        if (s.writes) lists(s.ev.loc).writes[tu].pop_back();
        if (s.reads && !isLiveness(s)) lists(s.ev.loc).reads[tu].pop_back();
    }
    if (visCache_[tu].ridx > static_cast<std::int32_t>(n)) visCache_[tu].ridx = -1;  // (VisPast)
    const std::int32_t oldReg = reg_[tu];
    reg_[tu] = std::min(reg_[tu], static_cast<std::int32_t>(n));
    if (ro_.fastPaths) dropSat(t, oldReg, n);
    while (st.size() > n) {
        // A thread spawned by a dropped step: the past of its first read is its spawn's, which
        // changes with the spawn (another branch re-derives t's steps: a write that depends on
        // a value read comes or goes, and the spawn moves) though the thread keeps its zero
        // steps. Kept, its past part named the old branch's writes of t by step index (the
        // latest one there another step now, the new latest write missed): rf, rvf and
        // value-/data-centric lost classes.
        if (const Event& e = st.back().ev; e.kind == EventKind::Spawn && e.aux >= 0)
            visCache_[static_cast<std::size_t>(e.aux)].ridx = -1;
        stepPool_.push_back(std::move(st.back()));
        st.pop_back();
    }
}

Step RvfSmc::newStep() {
    Step s;
    if (stepPool_.empty()) return s;
    Step& old = stepPool_.back();
    s.out = std::move(old.out);
    s.good = std::move(old.good);
    stepPool_.pop_back();
    s.out.clear();
    s.good.clear();
    return s;
}

void RvfSmc::visiblePast(const Pending& r, const std::vector<std::int32_t>& sl, VisPast& out) {
    // r's program-order (causal) past: its thread's steps, and what they (or its spawn) come after
    const auto T = static_cast<std::size_t>(T_);
    out.anyInPast = false;
    out.inPast.assign(T, 0);
    out.latest.clear();
    if (!locLists_[static_cast<std::size_t>(r.ev.loc)]) return;
    // (scratch buffers kept between calls: this runs for every pending read of every node)
    std::vector<std::int32_t>& past = visPast_;
    past.assign(T, 0);
    const ThreadId t = r.t;
    if (sl[t] > 0) {
        const std::int32_t* c = poClock(t, sl[t] - 1);
        past.assign(c, c + T_);
    } else if (const SpawnPoint sp = spawnOf_[static_cast<std::size_t>(t)]; sp.t >= 0) {
        const std::int32_t* c = poClock(sp.t, sp.i);
        past.assign(c, c + T_);
    }
    past[static_cast<std::size_t>(t)] = sl[t];
    const LocLists& ll = lists(r.ev.loc);
    // Per thread: its writes of the past are wl[0, inPast); the latest of them is the only one
    // that may be visible.
    std::vector<std::int32_t>& inPast = out.inPast;
    std::vector<std::int32_t>& latest = visLatest_;
    latest.assign(T, -1);
    for (std::size_t u = 0; u < T; ++u) {
        const auto& wl = ll.writes[u];
        const auto p = std::lower_bound(wl.begin(), wl.end(), past[u]);
        inPast[u] = static_cast<std::int32_t>(p - wl.begin());
        if (inPast[u] > 0) {
            latest[u] = wl[static_cast<std::size_t>(inPast[u] - 1)];
            out.anyInPast = true;
        }
    }
    for (std::size_t u = 0; u < T; ++u) {
        if (latest[u] < 0) continue;
        const WriteRef w{static_cast<std::int32_t>(u), latest[u]};
        bool hidden = false;
        for (std::size_t u2 = 0; u2 < T && !hidden; ++u2)
            hidden = u2 != u && latest[u2] >= 0 &&
                     poClock(static_cast<ThreadId>(u2), latest[u2])[u] > w.i;
        if (!hidden) hidden = hiddenByRead(r.ev.loc, w, past);
        if (!hidden) out.latest.push_back(w);
    }
}

const std::vector<WriteRef>& RvfSmc::visibleWrites(const Pending& r,
                                                   const std::vector<std::int32_t>& sl, bool known,
                                                   VisPast& keep) {
    if (known) {
        ++visInherited_;
    } else {
        visiblePast(r, sl, keep);
        keep.ridx = sl[r.t];
        keep.loc = r.ev.loc;
    }
    std::vector<WriteRef>& vis = visBuf_;
    vis.clear();
    if (locLists_[static_cast<std::size_t>(r.ev.loc)]) {
        // Per thread: the latest write of the past if visible, then the writes after the past
        const LocLists& ll = lists(r.ev.loc);
        std::size_t j = 0;
        for (std::size_t u = 0; u < static_cast<std::size_t>(T_); ++u) {
            if (j < keep.latest.size() && keep.latest[j].t == static_cast<ThreadId>(u))
                vis.push_back(keep.latest[j++]);
            const auto& wl = ll.writes[u];
            for (auto k = static_cast<std::size_t>(keep.inPast[u]); k < wl.size() && wl[k] < sl[u];
                 ++k)
                vis.push_back({static_cast<std::int32_t>(u), wl[k]});
        }
    }
    if (!keep.anyInPast) vis.push_back(kInitWrite);
    return vis;
}

bool RvfSmc::hiddenByRead(LocId loc, WriteRef w, const std::vector<std::int32_t>& past) const {
    const LocLists& ll = *locLists_[static_cast<std::size_t>(loc)];
    for (std::size_t u = 0; u < past.size(); ++u) {
        const auto& rl = ll.reads[u];
        auto it = std::lower_bound(rl.begin(), rl.end(), past[u]);
        if (it == rl.begin()) continue;
        std::int32_t i = *(it - 1);
        auto after = [&](std::int32_t x) {
            return poClock(static_cast<ThreadId>(u), x)[static_cast<std::size_t>(w.t)] > w.i;
        };
        if (!ro_.perWrite) {
            if (!ro_.fastPaths) return false;  // (engine=classic: program order only)
            // RVF: a read after w whose good writes do not include w reads another write, which
            // comes after w. The reads of u after w are its latest ones (clocks grow along u).
            for (auto k = static_cast<std::size_t>(it - rl.begin()); k-- > 0;) {
                const std::int32_t j = rl[k];
                if (!after(j)) break;
                if (WriteRef{static_cast<std::int32_t>(u), j} == w) continue;  // w itself (an RMW)
                const auto& g = step(static_cast<ThreadId>(u), j).good;
                if (std::find(g.begin(), g.end(), w) == g.end()) return true;
            }
            continue;
        }
        const auto& src = src_[u];
        while (i >= 0 && after(i)) {
            if (!(WriteRef{static_cast<std::int32_t>(u), i} == w)) {
                if (!(src[static_cast<std::size_t>(i)] == w)) return true;
                i = prevDiff_[u][static_cast<std::size_t>(i)];  // skips the reads of w
            } else {
                // w itself (a read-modify-write): the read before it
                const auto p = std::lower_bound(rl.begin(), rl.end(), i) - rl.begin();
                i = p > 0 ? rl[static_cast<std::size_t>(p - 1)] : -1;
            }
        }
    }
    return false;
}

std::ptrdiff_t RvfSmc::insertionPoint(ThreadId t, std::int32_t idx, const Step& s) const {
    const LocId x = s.ev.loc;
    WriteRef pred = kInitWrite;  // r's thread predecessor, or its spawn
    if (idx > 0)
        pred = {t, idx - 1};
    else
        pred = spawnOf_[static_cast<std::size_t>(t)];
    bool predSeen = pred.t == kInitThread;
    auto isGood = [&](const WriteRef& w) {
        return std::find(s.good.begin(), s.good.end(), w) != s.good.end();
    };
    // The segments of σ between two writes of x: in the one after a good write, r may go just
    // before the write that ends it.
    bool segGood = isGood(kInitWrite);
    std::ptrdiff_t best = -1;
    const auto n = static_cast<std::ptrdiff_t>(order_.size());
    for (std::ptrdiff_t k = 0; k <= n; ++k) {
        const Performed* p = k < n ? &order_[static_cast<std::size_t>(k)] : nullptr;
        if (!p || p->loc == x) {
            if (segGood && predSeen && (!s.writes || !p || !step(p->t, p->i).reads)) best = k;
            if (p) segGood = isGood({p->t, p->i});
        }
        if (p && p->t == pred.t && p->i == pred.i) predSeen = true;
    }
    return best;
}

// lastW_'s entries when unset: the location's last writer is then active_'s.
constexpr WriteRef kUnsetWriter{-2, 0};

bool RvfSmc::postponedWitness(ThreadId t, const Step& s, std::vector<ThreadId>& out) {
    const LocId x = s.ev.loc;
    const auto n = static_cast<std::ptrdiff_t>(order_.size());
    auto isGood = [&](const Step& st, const WriteRef& w) {
        return std::find(st.good.begin(), st.good.end(), w) != st.good.end();
    };
    // w: r's good write latest in σ (position pw; -1 for the initial write)
    std::ptrdiff_t pw = -2;
    for (std::ptrdiff_t k = n; k-- > 0 && pw == -2;) {
        const Performed& p = order_[static_cast<std::size_t>(k)];
        if (p.loc == x && isGood(s, {p.t, p.i})) pw = k;
    }
    if (pw == -2 && isGood(s, kInitWrite)) pw = -1;
    if (pw == -2) return false;
    // Only σ's events after w can be in F (a causal successor comes later in σ), and the events
    // up to w keep their places and sources (σ is a witness): F, and the check of σ' below, go
    // through the events after w only, where going through all of σ cost rf ~4% on dq-wsq.
    const std::ptrdiff_t from = pw + 1;
    if (lastPos_.size() < L_) lastPos_.resize(L_, -1);
    if (lastW_.size() < L_) lastW_.resize(L_, kUnsetWriter);
    inF_.assign(static_cast<std::size_t>(n), 0);
    threadF_.assign(static_cast<std::size_t>(T_), 0);
    for (std::ptrdiff_t k = from; k < n; ++k) {
        const Performed& p = order_[static_cast<std::size_t>(k)];
        const Step& st = step(p.t, p.i);
        bool in = threadF_[static_cast<std::size_t>(p.t)] != 0 || p.loc == x;
        if (st.ev.kind == EventKind::Join && st.ev.aux >= 0 && st.ev.aux < T_)
            in = in || threadF_[static_cast<std::size_t>(st.ev.aux)] != 0;
        if (st.reads && !isLiveness(st)) {
            const std::int32_t src = lastPos_[static_cast<std::size_t>(st.ev.loc)];
            in = in || (src >= 0 && inF_[static_cast<std::size_t>(src)]);
        }
        if (p.loc != kNoLoc)
            lastPos_[static_cast<std::size_t>(p.loc)] = static_cast<std::int32_t>(k);
        if (!in) continue;
        inF_[static_cast<std::size_t>(k)] = 1;
        threadF_[static_cast<std::size_t>(p.t)] = 1;
        if (st.ev.kind == EventKind::Spawn && st.ev.aux >= 0 && st.ev.aux < T_)
            threadF_[static_cast<std::size_t>(st.ev.aux)] = 1;
    }
    for (std::ptrdiff_t k = from; k < n; ++k)
        if (const LocId l = order_[static_cast<std::size_t>(k)].loc; l != kNoLoc)
            lastPos_[static_cast<std::size_t>(l)] = -1;
    if (threadF_[static_cast<std::size_t>(t)]) return false;  // r's predecessor is in F
    // The last writer of each location after σ's events up to w: active_'s, but for the
    // locations written after w (what their first write after w overwrote).
    for (std::ptrdiff_t k = n; k-- > from;)
        if (const Performed& p = order_[static_cast<std::size_t>(k)]; p.loc != kNoLoc)
            lastW_[static_cast<std::size_t>(p.loc)] = p.oldActive;
    // Run σ' after w: every read must find one of its good writes last.
    bool ok = true;
    auto run = [&](ThreadId u, std::int32_t i) {
        if (!ok) return;
        const Step& st = step(u, i);  // (r is thread t's last step: s)
        const auto l = static_cast<std::size_t>(st.ev.loc);
        if (st.reads) {
            const WriteRef last = lastW_[l] == kUnsetWriter ? active_[l] : lastW_[l];
            if (!isGood(st, last)) ok = false;
        }
        if (st.writes) lastW_[l] = {u, i};
    };
    // σ' = σ's events up to w, those after it outside F, r, then F
    out.clear();
    for (std::ptrdiff_t k = 0; k < from; ++k) out.push_back(order_[static_cast<std::size_t>(k)].t);
    for (const bool inF : {false, true}) {
        if (inF) {
            out.push_back(t);
            run(t, static_cast<std::int32_t>(steps_[static_cast<std::size_t>(t)].size()) - 1);
        }
        for (auto k = static_cast<std::size_t>(from); k < order_.size(); ++k)
            if ((inF_[k] != 0) == inF) {
                out.push_back(order_[k].t);
                run(order_[k].t, order_[k].i);
            }
    }
    for (std::ptrdiff_t k = from; k < n; ++k)
        if (const LocId l = order_[static_cast<std::size_t>(k)].loc; l != kNoLoc)
            lastW_[static_cast<std::size_t>(l)] = kUnsetWriter;
    if (x >= 0) lastW_[static_cast<std::size_t>(x)] = kUnsetWriter;
    return ok;
}

}  // namespace porlab::rvfsmc
