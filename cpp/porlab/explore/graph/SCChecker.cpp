// SPDX-License-Identifier: MIT
// SCChecker (ExecutionGraph.hpp): SC consistency of a graph from its reads-from relation alone
// (a search for a witness; its first witness is the canonical one).
#include "porlab/explore/graph/ExecutionGraph.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace porlab::graph {

bool SCChecker::check(const ExecutionGraph& g, const std::vector<std::int32_t>& lim,
                      bool placeholders, std::vector<Ref>& order) {
    ++searches;
    setUp(g, lim, placeholders);
    // Small graphs are saturated first, unless the saturation has not paid for a while
    // (adaptAfter: the searches of one exploration tend to be alike). Larger ones, and small
    // ones then, get the plain search first, within a budget of a few states per event (most
    // searches need far fewer); past it, the saturation and the search again.
    const auto n = static_cast<std::size_t>(off_.back());
    pruning_ = false;
    budgetStart_ = states;
    const std::uint64_t budget = budgetPerEvent * n + 16;
    stateBudget_ = saturation && n <= saturateUpTo ? budget : 0;
    const bool small = saturation && n <= saturateFirstUpTo;
    const bool plain = small && adaptAfter > 0 && plainFirst_;
    if (plain) ++plainFirst;
    overBudget_ = small && !plain;
    bool ok = !overBudget_ && dfs() && !interrupted_;
    if (overBudget_ && !interrupted_) {
        if (plain) plainFirst_ = false;  // (its budget did not suffice)
        ++saturations;
        if (finals_) finals_->clear();
        if (finalOrders_) finalOrders_->clear();
        if (states != budgetStart_) setUp(g, lim, placeholders);
        stateBudget_ = 0;
        overBudget_ = false;
        if (!saturate()) {
            ++saturationRefuted;
            uselessRun_ = 0;
            order.clear();
            return false;
        }
        pruning_ = true;
        const std::uint64_t start = states;
        ok = dfs() && !interrupted_;
        pruning_ = false;
        if (!small || plain || states - start > budget)
            uselessRun_ = 0;
        else if (++uselessRun_ >= adaptAfter)
            plainFirst_ = true;
    }
    order.clear();
    if (ok)
        for (const auto& [r, prev] : trail_) order.push_back(r);
    return ok;
}

void SCChecker::setUp(const ExecutionGraph& g, const std::vector<std::int32_t>& lim,
                      bool placeholders) {
    g_ = &g;
    placeholders_ = placeholders;
    const std::size_t T = g.threads.size();
    lim_.assign(lim.begin(), lim.end());
    pos_.assign(T, 0);
    off_.assign(T + 1, 0);
    watched_.clear();
    watchers_.clear();
    for (std::size_t t = 0; t < T; ++t) {
        const auto& th = g.threads[t];
        if (lim_[t] > static_cast<std::int32_t>(th.size()))
            lim_[t] = static_cast<std::int32_t>(th.size());
        if (lim_[t] > 0 && th[static_cast<std::size_t>(lim_[t] - 1)].placeholder) {
            --lim_[t];
            if (placeholders) {
                const Node& p = th[static_cast<std::size_t>(lim_[t])];
                watchers_.push_back({static_cast<std::int32_t>(t), lim_[t]});
                if (std::find(watched_.begin(), watched_.end(), p.ev.loc) == watched_.end())
                    watched_.push_back(p.ev.loc);
            }
        }
        off_[t + 1] = off_[t] + static_cast<std::int32_t>(th.size());
    }
    // What the search needs of each node, and the locations it touches: the per-location
    // state covers those (a C program has many more: clearing them all was most of a small
    // search), all of them for the finals.
    info_.resize(static_cast<std::size_t>(off_[T]));
    std::size_t locs = 0;
    for (std::size_t t = 0; t < T; ++t) {
        const auto& th = g.threads[t];
        for (std::int32_t i = 0; i < lim_[t]; ++i) {
            const Node& n = th[static_cast<std::size_t>(i)];
            Info& in = info_[static_cast<std::size_t>(off_[t] + i)];
            const EventKind k = n.ev.kind;
            const bool mx = isMutexEvent(n);
            in.loc = n.ev.loc;
            in.rf = n.rf.t == kInitThread ? -1 : flat(n.rf);
            in.aux = n.ev.aux;
            in.flags = static_cast<std::uint16_t>(
                (mx ? kMutex : 0) | (mx && acquires(n) ? kAcquire : 0) |
                (mx && observesHeld(n) ? kObserves : 0) |
                (mx && k == EventKind::Unlock ? kUnlock : 0) | (writesMemory(k) ? kWrites : 0) |
                (readsMemory(k) ? kReads : 0) | (n.faulted ? kFaulted : 0) |
                (k == EventKind::Join && n.ev.aux >= 0 ? kJoin : 0) |
                (!mx && writesMemory(k) && n.ev.wval == kDeadValue ? kKill : 0) |
                (k == EventKind::Spawn && n.ev.aux >= 0 && static_cast<std::size_t>(n.ev.aux) < T
                     ? kSpawn
                     : 0));
            if (n.ev.loc >= 0) locs = std::max(locs, static_cast<std::size_t>(n.ev.loc) + 1);
        }
        // (and the next node: a placeholder left out, whose location may be watched)
        const auto next = static_cast<std::size_t>(lim_[t]);
        if (next < th.size() && th[next].ev.loc >= 0)
            locs = std::max(locs, static_cast<std::size_t>(th[next].ev.loc) + 1);
    }
    locs = enumerate_ ? g.initial.size() : std::min(locs, g.initial.size());
    readersLeft_.assign(static_cast<std::size_t>(off_[T]), 0);
    holder_.assign(locs, -1);
    pendingObs_.assign(static_cast<std::size_t>(off_[T]), 0);
    initReaders_.assign(locs, 0);
    cur_.assign(locs, -1);
    kill_.assign(static_cast<std::size_t>(off_[T]), 0);
    spawnOf_.assign(T, {-1, kInitRef});
    for (std::size_t t = 0; t < T; ++t) {
        for (std::int32_t i = 0; i < lim_[t]; ++i) {
            const auto v = static_cast<std::size_t>(off_[t] + i);
            const Info& in = info_[v];
            const auto f = in.flags;
            if (f & kKill) {
                kill_[v] = 1;
                if (std::find(watched_.begin(), watched_.end(), in.loc) == watched_.end())
                    watched_.push_back(in.loc);
            }
            if ((f & (kReads | kMutex)) == kReads) {
                if (in.rf < 0)
                    ++initReaders_[static_cast<std::size_t>(in.loc)];
                else
                    ++readersLeft_[static_cast<std::size_t>(in.rf)];
            }
            if ((f & kObserves) && in.rf >= 0) ++pendingObs_[static_cast<std::size_t>(in.rf)];
            if (f & kSpawn)
                spawnOf_[static_cast<std::size_t>(in.aux)] = {static_cast<ThreadId>(t),
                                                              Ref{static_cast<std::int32_t>(t), i}};
        }
    }
    trail_.clear();
    interrupted_ = false;
    if (enumerate_) {
        watched_.clear();
        for (std::size_t l = 0; l < g.initial.size(); ++l)
            watched_.push_back(static_cast<LocId>(l));
    }
    keyLen_ = T + watched_.size();
    keyBuf_.resize(keyLen_);
    failedKeys_.clear();
    failedSlots_.assign(64, -1);
    failedCount_ = 0;
}

void SCChecker::finals(const ExecutionGraph& g, const std::vector<std::int32_t>& lim,
                       bool placeholders, std::vector<std::vector<Value>>& out,
                       std::vector<std::vector<Ref>>* orders) {
    out.clear();
    if (orders) orders->clear();
    enumerate_ = true;
    finals_ = &out;
    finalOrders_ = orders;
    std::vector<Ref> order;
    (void)check(g, lim, placeholders, order);
    enumerate_ = false;
    finals_ = nullptr;
    finalOrders_ = nullptr;
}

inline bool SCChecker::enabledNoWrite(ThreadId t) const {
    if (pos_[t] >= lim_[t]) return false;
    const Info& n = info_[static_cast<std::size_t>(off_[t] + pos_[t])];
    const auto f = n.flags;
    if (f & kAcquire) return false;  // branched on
    // A failed trylock goes inside the section of its source, which ends after it.
    if (f & kObserves) return holder_[static_cast<std::size_t>(n.loc)] == n.rf;
    if (f & kUnlock) {
        const std::int32_t h = holder_[static_cast<std::size_t>(n.loc)];
        if (h >= 0 && pendingObs_[static_cast<std::size_t>(h)] > 0) return false;
    }
    if ((f & (kWrites | kMutex)) == kWrites) return false;
    if (pos_[t] == 0 && spawnOf_[t].first >= 0 && pos_[spawnOf_[t].first] <= spawnOf_[t].second.i)
        return false;
    if (f & kJoin) return pos_[n.aux] >= lim_[n.aux];
    if (f & kReads) return n.rf == cur_[static_cast<std::size_t>(n.loc)];
    return true;
}

inline bool SCChecker::enabledWrite(ThreadId t) const {
    if (pos_[t] >= lim_[t]) return false;
    const Info& n = info_[static_cast<std::size_t>(off_[t] + pos_[t])];
    const auto f = n.flags;
    if (!(f & kWrites)) return false;
    if (pos_[t] == 0 && spawnOf_[t].first >= 0 && pos_[spawnOf_[t].first] <= spawnOf_[t].second.i)
        return false;
    const auto loc = static_cast<std::size_t>(n.loc);
    if (f & kMutex) return (f & kAcquire) && holder_[loc] < 0;
    const std::int32_t c = cur_[loc];
    std::int32_t left = c < 0 ? initReaders_[loc] : readersLeft_[static_cast<std::size_t>(c)];
    if (f & kReads) {
        if (n.rf != c) return false;
        --left;
    } else if (f & kFaulted) {
        return c >= 0 && kill_[static_cast<std::size_t>(c)];  // (it overwrites nothing)
    } else if (c >= 0 && kill_[static_cast<std::size_t>(c)]) {
        return false;  // a plain write after a kill of its location faults
    }
    return left == 0;
}

inline bool SCChecker::step(ThreadId t, bool) {
    const Ref r{t, pos_[t]};
    const auto v = static_cast<std::size_t>(off_[t] + pos_[t]);
    const Info& n = info_[v];
    const auto loc = static_cast<std::size_t>(n.loc);
    std::int32_t prev = 0;
    if (pruning_)
        for (auto k = succStart_[v]; k < succStart_[v + 1]; ++k)
            --predLeft_[static_cast<std::size_t>(succ_[static_cast<std::size_t>(k)])];
    if (n.flags & kMutex) {
        auto& h = holder_[loc];
        prev = h;
        if (n.flags & kObserves)
            --pendingObs_[static_cast<std::size_t>(n.rf)];
        else
            h = (n.flags & kAcquire) ? static_cast<std::int32_t>(v) : -1;
        trail_.emplace_back(r, prev);
        ++pos_[t];
        ++states;
        return true;
    }
    if (n.flags & kReads) {
        if (n.rf < 0)
            --initReaders_[loc];
        else
            --readersLeft_[static_cast<std::size_t>(n.rf)];
    }
    if ((n.flags & (kWrites | kFaulted)) == kWrites) {
        prev = cur_[loc];
        cur_[loc] = static_cast<std::int32_t>(v);
    }
    trail_.emplace_back(r, prev);
    ++pos_[t];
    ++states;
    return true;
}

inline void SCChecker::undo() {
    const auto [r, prev] = trail_.back();
    trail_.pop_back();
    --pos_[r.t];
    const auto v = static_cast<std::size_t>(flat(r));
    const Info& n = info_[v];
    const auto loc = static_cast<std::size_t>(n.loc);
    if (pruning_)
        for (auto k = succStart_[v]; k < succStart_[v + 1]; ++k)
            ++predLeft_[static_cast<std::size_t>(succ_[static_cast<std::size_t>(k)])];
    if (n.flags & kMutex) {
        holder_[loc] = prev;
        if (n.flags & kObserves) ++pendingObs_[static_cast<std::size_t>(n.rf)];
        return;
    }
    if ((n.flags & (kWrites | kFaulted)) == kWrites) cur_[loc] = prev;
    if (n.flags & kReads) {
        if (n.rf < 0)
            ++initReaders_[loc];
        else
            ++readersLeft_[static_cast<std::size_t>(n.rf)];
    }
}

void SCChecker::key() {
    std::copy(pos_.begin(), pos_.end(), keyBuf_.begin());
    std::size_t k = pos_.size();
    for (LocId l : watched_) keyBuf_[k++] = cur_[static_cast<std::size_t>(l)];
}

std::size_t SCChecker::keyHash() const {
    std::uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (const std::int32_t x : keyBuf_) {
        h ^= static_cast<std::uint32_t>(x);
        h *= 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
    }
    return static_cast<std::size_t>(h);
}

bool SCChecker::failed(std::size_t h) const {
    const std::size_t mask = failedSlots_.size() - 1;
    for (std::size_t s = h & mask;; s = (s + 1) & mask) {
        const std::int32_t idx = failedSlots_[s];
        if (idx < 0) return false;
        const auto at = failedKeys_.begin() +
                        static_cast<std::ptrdiff_t>(static_cast<std::size_t>(idx) * keyLen_);
        if (std::equal(keyBuf_.begin(), keyBuf_.end(), at)) return true;
    }
}

void SCChecker::markFailed(std::size_t h) {
    if (failed(h)) return;
    if (2 * (failedCount_ + 1) > failedSlots_.size()) {  // grow: rehash every key
        failedSlots_.assign(failedSlots_.size() * 2, -1);
        const std::size_t mask = failedSlots_.size() - 1;
        std::vector<std::int32_t> saved(keyBuf_);
        for (std::size_t i = 0; i < failedCount_; ++i) {
            std::copy_n(failedKeys_.begin() + static_cast<std::ptrdiff_t>(i * keyLen_), keyLen_,
                        keyBuf_.begin());
            std::size_t s = keyHash() & mask;
            while (failedSlots_[s] >= 0) s = (s + 1) & mask;
            failedSlots_[s] = static_cast<std::int32_t>(i);
        }
        keyBuf_ = saved;
    }
    const std::size_t mask = failedSlots_.size() - 1;
    std::size_t s = h & mask;
    while (failedSlots_[s] >= 0) s = (s + 1) & mask;
    failedSlots_[s] = static_cast<std::int32_t>(failedCount_++);
    failedKeys_.insert(failedKeys_.end(), keyBuf_.begin(), keyBuf_.end());
}

bool SCChecker::dfs() {
    if (interrupted_ || ((++polls_ & 63) == 0 && interrupt && interrupt())) {
        interrupted_ = true;
        return false;
    }
    if (overBudget_) return false;
    if (stateBudget_ && states - budgetStart_ > stateBudget_) {
        overBudget_ = true;  // (the search starts over: check)
        return false;
    }
    const std::size_t mark = trail_.size();
    const auto T = static_cast<ThreadId>(pos_.size());
    // The events taken greedily. Another pass is needed only after a step that can enable an
    // event of an earlier thread: a spawn (its child's first event), a thread's last event (a
    // join of it), a failed trylock (the unlock of its section). Reads wait for writes, which
    // are not taken here, and an unlock enables only acquires.
    for (bool again = true; again;) {
        again = false;
        for (ThreadId t = 0; t < T; ++t)
            while (enabledNoWrite(t)) {
                const auto f = info_[static_cast<std::size_t>(off_[t] + pos_[t])].flags;
                step(t, false);
                if ((f & (kSpawn | kObserves)) || pos_[t] >= lim_[t]) again = true;
            }
    }
    bool all = true;
    for (ThreadId t = 0; t < T && all; ++t) all = pos_[t] >= lim_[t];
    auto rollback = [&] {
        while (trail_.size() > mark) undo();
    };
    if (all) {
        if (placeholders_) {
            for (Ref w : watchers_) {
                const Node& p = g_->at(w);
                if (mutexLocks && p.ev.kind == EventKind::Lock) {  // blocked: its mutex held
                    if (holder_[static_cast<std::size_t>(p.ev.loc)] < 0) {
                        rollback();
                        return false;
                    }
                    continue;
                }
                const std::int32_t c = cur_[static_cast<std::size_t>(p.ev.loc)];
                Value v = g_->initial[static_cast<std::size_t>(p.ev.loc)];
                if (c >= 0) {
                    ThreadId u = 0;
                    while (off_[static_cast<std::size_t>(u) + 1] <= c) ++u;
                    v = g_->threads[static_cast<std::size_t>(u)]
                                   [static_cast<std::size_t>(c - off_[static_cast<std::size_t>(u)])]
                                       .ev.wval;
                }
                if (admits(p.ev, v)) {
                    rollback();
                    return false;
                }
            }
        }
        if (enumerate_) {
            std::vector<Value> mem(g_->initial.size());
            for (std::size_t l = 0; l < mem.size(); ++l) {
                const std::int32_t c = cur_[l];
                mem[l] = g_->initial[l];
                if (c >= 0) {
                    ThreadId u = 0;
                    while (off_[static_cast<std::size_t>(u) + 1] <= c) ++u;
                    mem[l] =
                        g_->threads[static_cast<std::size_t>(u)]
                                   [static_cast<std::size_t>(c - off_[static_cast<std::size_t>(u)])]
                                       .ev.wval;
                }
            }
            if (std::find(finals_->begin(), finals_->end(), mem) == finals_->end()) {
                finals_->push_back(std::move(mem));
                if (finalOrders_) {
                    auto& o = finalOrders_->emplace_back();
                    for (const auto& [r, prev] : trail_) o.push_back(r);
                }
            }
            rollback();
            return false;
        }
        return true;
    }
    key();
    if (failed(keyHash())) {
        rollback();
        return false;
    }
    if (enumerate_) markFailed(keyHash());  // visited: its finals are being collected
    for (ThreadId t = 0; t < T; ++t) {
        if (!enabledWrite(t)) continue;
        // (The saturated order puts it after an event not executed yet: no witness there.)
        if (pruning_ && predLeft_[static_cast<std::size_t>(off_[t] + pos_[t])] > 0) continue;
        step(t, true);
        if (dfs()) return true;
        undo();
        if (overBudget_) break;
    }
    if (overBudget_) {
        rollback();
        return false;
    }
    key();
    markFailed(keyHash());
    rollback();
    return false;
}

}  // namespace porlab::graph
