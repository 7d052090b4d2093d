// SPDX-License-Identifier: MIT
// The explored sequence E of the DPOR engine: per-position events, vector clocks and per-location
// access windows and the accesses of each location, kept as E grows and shrinks.
#include "porlab/explore/DporEngineImpl.hpp"

namespace porlab::dpor::detail {

void Engine::ensure(std::size_t d) {
    if (ev_.size() > d) return;
    const std::size_t n = std::max<std::size_t>(d + 1, ev_.size() * 2);
    ev_.resize(n);
    prevSame_.resize(n);
    accIdx_.resize(n);
    predStart_.resize(n);
    wBefore_.resize(n);
    predCount_.resize(n);
    undoMark_.resize(n);
    evMark_.resize(n);
    snap_.resize(n);
    root_.resize(n, -1);
    child_.resize(n, -1);
    pend_.resize(n);
    failed_.resize(n);
    fresh_.resize(n);
    back_.resize(n);
    sleep_.resize(n);
    clk_.resize(n * T_);
}

void Engine::push(std::size_t d, std::span<const Event> evs) {
    const Event& e = evs.front();
    ev_[d] = e;
    evMark_[d] = allEvents_.size();
    allEvents_.insert(allEvents_.end(), evs.begin(), evs.end());
    const auto t = static_cast<std::size_t>(e.thread);
    std::uint32_t* c = &clk_[d * T_];
    const int prev = lastOf_[t];
    prevSame_[d] = prev;
    const int base = prev >= 0 ? prev : spawnPos_[t];
    if (base >= 0)
        std::copy_n(clk(base), T_, c);
    else
        std::fill_n(c, T_, 0u);
    c[t] = e.index + 1;
    auto joinClock = [&](int pos) {
        const std::uint32_t* o = clk(pos);
        for (std::size_t k = 0; k < T_; ++k) c[k] = std::max(c[k], o[k]);
    };
    if (e.kind == EventKind::Join && e.aux >= 0) {
        const auto a = static_cast<std::size_t>(e.aux);
        const int src = lastOf_[a] >= 0 ? lastOf_[a] : spawnPos_[a];
        if (src >= 0) joinClock(src);
    }
    if (accessesMemory(e.kind) && e.loc >= 0) {
        auto& acc = locAcc_[static_cast<std::size_t>(e.loc)];
        findPreds(d, e);
        for (std::size_t k = 0; k < predCount_[d]; ++k) joinClock(predBuf_[predStart_[d] + k]);
        enterWindow(d, e);
        if (acc.empty()) {
            wBefore_[d] = -1;
        } else {
            const int q = acc.back();
            const auto qu = static_cast<std::size_t>(q);
            wBefore_[d] = writesMemory(ev_[qu].kind) ? q : wBefore_[qu];
        }
        accIdx_[d] = static_cast<int>(acc.size());
        acc.push_back(static_cast<int>(d));
        auto& lt = locThr_[static_cast<std::size_t>(e.loc)];
        if (lt.empty()) lt.resize(T_);
        lt[t].push_back(static_cast<int>(d));
        if (predCount_[d] > 0 && !blocking(e)) racy_.push_back(static_cast<int>(d));
    }
    // An await, lock or zne await whose location another thread accessed after its
    // program-order (or spawn) predecessor: only those can have blocking races (analysis (b)).
    const bool awaitOrLock = e.kind == EventKind::Await || e.kind == EventKind::XchgAwait ||
                             e.kind == EventKind::Lock || zneAwait(e);
    if (awaitOrLock && e.loc >= 0 && mayRaceBack(e, d, base))
        blockers_.push_back(static_cast<int>(d));
    if (e.kind == EventKind::Spawn && e.aux >= 0)
        spawnPos_[static_cast<std::size_t>(e.aux)] = static_cast<int>(d);
    lastOf_[t] = static_cast<int>(d);
    len_ = d + 1;
    maxDepth_ = std::max(maxDepth_, len_);
}

void Engine::findPreds(std::size_t d, const Event& e) {
    LocWindow& w = locWin_[static_cast<std::size_t>(e.loc)];
    if (w.lastR.empty()) {
        w.lastR.assign(T_, -1);
        w.lastW.assign(T_, -1);
    }
    const bool eWrites = writesMemory(e.kind);
    const bool eWeak = eWrites && ifaaFaa(e);
    predStart_[d] = predBuf_.size();
    const ThreadId sThread = w.strong >= 0 ? ev_[static_cast<std::size_t>(w.strong)].thread : -1;
    for (std::size_t u = 0; u < T_; ++u) {
        if (static_cast<ThreadId>(u) == e.thread) continue;
        int best = sThread == static_cast<ThreadId>(u) ? w.strong : -1;  // conflicts with all
        if (eWrites) best = std::max(best, w.lastR[u]);  // reads conflict with writes
        if (!eWeak) best = std::max(best, w.lastW[u]);   // weak writes: not with weak ones
        if (best >= 0) predBuf_.push_back(best);
    }
    predCount_[d] = predBuf_.size() - predStart_[d];
    std::sort(predBuf_.begin() + static_cast<std::ptrdiff_t>(predStart_[d]), predBuf_.end(),
              std::greater<>());
}

void Engine::enterWindow(std::size_t d, const Event& e) {
    LocWindow& w = locWin_[static_cast<std::size_t>(e.loc)];
    const auto t = static_cast<std::size_t>(e.thread);
    undoMark_[d] = undo_.size();
    if (strongWrite(e)) {
        undo_.push_back(w.strong);
        undo_.insert(undo_.end(), w.lastR.begin(), w.lastR.end());
        undo_.insert(undo_.end(), w.lastW.begin(), w.lastW.end());
        w.strong = static_cast<int>(d);
        std::fill(w.lastR.begin(), w.lastR.end(), -1);
        std::fill(w.lastW.begin(), w.lastW.end(), -1);
    } else if (writesMemory(e.kind)) {
        undo_.push_back(w.lastW[t]);
        w.lastW[t] = static_cast<int>(d);
    } else {
        undo_.push_back(w.lastR[t]);
        w.lastR[t] = static_cast<int>(d);
    }
}

void Engine::leaveWindow(std::size_t d, const Event& e) {
    LocWindow& w = locWin_[static_cast<std::size_t>(e.loc)];
    const auto t = static_cast<std::size_t>(e.thread);
    const auto m = static_cast<std::ptrdiff_t>(undoMark_[d]);
    if (strongWrite(e)) {
        w.strong = undo_[static_cast<std::size_t>(m)];
        const auto r = undo_.begin() + m + 1;
        std::copy(r, r + static_cast<std::ptrdiff_t>(T_), w.lastR.begin());
        const auto T = static_cast<std::ptrdiff_t>(T_);
        std::copy(r + T, r + 2 * T, w.lastW.begin());
    } else if (writesMemory(e.kind)) {
        w.lastW[t] = undo_[static_cast<std::size_t>(m)];
    } else {
        w.lastR[t] = undo_[static_cast<std::size_t>(m)];
    }
    undo_.resize(undoMark_[d]);
    predBuf_.resize(predStart_[d]);
}

bool Engine::mayRaceBack(const Event& e, std::size_t d, int kpos) const {
    const auto& lt = locThr_[static_cast<std::size_t>(e.loc)];
    if (lt.empty()) return false;
    const std::uint32_t* kc = kpos >= 0 ? clk(kpos) : nullptr;
    for (std::size_t u = 0; u < T_; ++u) {
        if (static_cast<ThreadId>(u) == e.thread) continue;
        const auto& acc = lt[u];
        const auto it = std::lower_bound(acc.begin(), acc.end(), static_cast<int>(d));
        if (it == acc.begin()) continue;
        const Event& g = ev_[static_cast<std::size_t>(*(it - 1))];
        if (kc == nullptr || kc[g.thread] <= g.index) return true;
    }
    return false;
}

void Engine::pop(std::size_t d) {
    const Event& e = ev_[d];
    lastOf_[static_cast<std::size_t>(e.thread)] = prevSame_[d];
    if (!racy_.empty() && racy_.back() == static_cast<int>(d)) racy_.pop_back();
    if (!blockers_.empty() && blockers_.back() == static_cast<int>(d)) blockers_.pop_back();
    if (accessesMemory(e.kind) && e.loc >= 0) {
        locAcc_[static_cast<std::size_t>(e.loc)].pop_back();
        locThr_[static_cast<std::size_t>(e.loc)][static_cast<std::size_t>(e.thread)].pop_back();
        leaveWindow(d, e);
    }
    if (e.kind == EventKind::Spawn && e.aux >= 0) spawnPos_[static_cast<std::size_t>(e.aux)] = -1;
    allEvents_.resize(evMark_[d]);
    len_ = d;
}

}  // namespace porlab::dpor::detail
