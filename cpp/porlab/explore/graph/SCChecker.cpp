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
    // Small graphs are saturated first. Larger ones get the plain search first, within a budget
    // of a few states per event (most searches need far fewer); past it, the saturation and
    // the search again.
    // Small ones too when the saturation has not paid for a while (adaptAfter): the searches
    // of one exploration tend to be alike.
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
    // The per-location state covers the locations the search touches (a C program has many
    // more: clearing them all was most of a small search), all of them for the finals.
    std::size_t locs = 0;
    if (enumerate_) {
        locs = g.initial.size();
    } else {
        for (std::size_t t = 0; t < T; ++t) {
            const auto& th = g.threads[t];
            const auto end = std::min(th.size(), static_cast<std::size_t>(lim_[t]) + 1);
            for (std::size_t i = 0; i < end; ++i)
                if (th[i].ev.loc >= 0)
                    locs = std::max(locs, static_cast<std::size_t>(th[i].ev.loc) + 1);
        }
        locs = std::min(locs, g.initial.size());
    }
    readersLeft_.assign(static_cast<std::size_t>(off_[T]), 0);
    holder_.assign(locs, -1);
    pendingObs_.assign(static_cast<std::size_t>(off_[T]), 0);
    initReaders_.assign(locs, 0);
    cur_.assign(locs, -1);
    kill_.assign(static_cast<std::size_t>(off_[T]), 0);
    spawnOf_.assign(T, {-1, kInitRef});
    for (std::size_t t = 0; t < T; ++t) {
        for (std::int32_t i = 0; i < lim_[t]; ++i) {
            const Node& n = g.threads[t][static_cast<std::size_t>(i)];
            if (writesMemory(n.ev.kind) && !isMutexEvent(n) && n.ev.wval == kDeadValue) {
                kill_[static_cast<std::size_t>(off_[t] + i)] = 1;
                if (std::find(watched_.begin(), watched_.end(), n.ev.loc) == watched_.end())
                    watched_.push_back(n.ev.loc);
            }
            if (readsMemory(n.ev.kind) && !isMutexEvent(n)) {
                if (n.rf.t == kInitThread)
                    ++initReaders_[static_cast<std::size_t>(n.ev.loc)];
                else
                    ++readersLeft_[static_cast<std::size_t>(flat(n.rf))];
            }
            if (isMutexEvent(n) && observesHeld(n) && n.rf.t != kInitThread)
                ++pendingObs_[static_cast<std::size_t>(flat(n.rf))];
            if (n.ev.kind == EventKind::Spawn && n.ev.aux >= 0 &&
                static_cast<std::size_t>(n.ev.aux) < T)
                spawnOf_[static_cast<std::size_t>(n.ev.aux)] = {
                    static_cast<ThreadId>(t), Ref{static_cast<std::int32_t>(t), i}};
        }
    }
    trail_.clear();
    failed_.clear();
    interrupted_ = false;
    if (enumerate_) {
        watched_.clear();
        for (std::size_t l = 0; l < g.initial.size(); ++l)
            watched_.push_back(static_cast<LocId>(l));
    }
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

bool SCChecker::enabledNoWrite(ThreadId t) const {
    if (pos_[t] >= lim_[t]) return false;
    const Node& n = g_->threads[t][static_cast<std::size_t>(pos_[t])];
    if (isMutexEvent(n) && acquires(n)) return false;  // branched on
    // A failed trylock goes inside the section of its source, which ends after it.
    if (isMutexEvent(n) && observesHeld(n))
        return holder_[static_cast<std::size_t>(n.ev.loc)] == flat(n.rf);
    if (isMutexEvent(n) && n.ev.kind == EventKind::Unlock) {
        const std::int32_t h = holder_[static_cast<std::size_t>(n.ev.loc)];
        if (h >= 0 && pendingObs_[static_cast<std::size_t>(h)] > 0) return false;
    }
    if (writesMemory(n.ev.kind) && !isMutexEvent(n)) return false;
    if (pos_[t] == 0 && spawnOf_[t].first >= 0 && pos_[spawnOf_[t].first] <= spawnOf_[t].second.i)
        return false;
    if (n.ev.kind == EventKind::Join && n.ev.aux >= 0) return pos_[n.ev.aux] >= lim_[n.ev.aux];
    if (readsMemory(n.ev.kind)) return flat(n.rf) == cur_[static_cast<std::size_t>(n.ev.loc)];
    return true;
}

bool SCChecker::enabledWrite(ThreadId t) const {
    if (pos_[t] >= lim_[t]) return false;
    const Node& n = g_->threads[t][static_cast<std::size_t>(pos_[t])];
    if (!writesMemory(n.ev.kind)) return false;
    if (pos_[t] == 0 && spawnOf_[t].first >= 0 && pos_[spawnOf_[t].first] <= spawnOf_[t].second.i)
        return false;
    if (isMutexEvent(n)) return acquires(n) && holder_[static_cast<std::size_t>(n.ev.loc)] < 0;
    const auto loc = static_cast<std::size_t>(n.ev.loc);
    const std::int32_t c = cur_[loc];
    std::int32_t left = c < 0 ? initReaders_[loc] : readersLeft_[static_cast<std::size_t>(c)];
    if (readsMemory(n.ev.kind)) {
        if (flat(n.rf) != c) return false;
        --left;
    } else if (n.faulted) {
        return c >= 0 && kill_[static_cast<std::size_t>(c)];  // (it overwrites nothing)
    } else if (c >= 0 && kill_[static_cast<std::size_t>(c)]) {
        return false;  // a plain write after a kill of its location faults
    }
    return left == 0;
}

bool SCChecker::step(ThreadId t, bool) {
    const Ref r{t, pos_[t]};
    const Node& n = g_->threads[t][static_cast<std::size_t>(pos_[t])];
    std::int32_t prev = 0;
    if (pruning_) {
        const auto v = static_cast<std::size_t>(flat(r));
        for (auto k = succStart_[v]; k < succStart_[v + 1]; ++k)
            --predLeft_[static_cast<std::size_t>(succ_[static_cast<std::size_t>(k)])];
    }
    if (isMutexEvent(n)) {
        auto& h = holder_[static_cast<std::size_t>(n.ev.loc)];
        prev = h;
        if (observesHeld(n))
            --pendingObs_[static_cast<std::size_t>(flat(n.rf))];
        else
            h = acquires(n) ? flat(r) : -1;
        trail_.emplace_back(r, prev);
        ++pos_[t];
        ++states;
        return true;
    }
    if (readsMemory(n.ev.kind)) {
        if (n.rf.t == kInitThread)
            --initReaders_[static_cast<std::size_t>(n.ev.loc)];
        else
            --readersLeft_[static_cast<std::size_t>(flat(n.rf))];
    }
    if (writesMemory(n.ev.kind) && !n.faulted) {
        prev = cur_[static_cast<std::size_t>(n.ev.loc)];
        cur_[static_cast<std::size_t>(n.ev.loc)] = flat(r);
    }
    trail_.emplace_back(r, prev);
    ++pos_[t];
    ++states;
    return true;
}

void SCChecker::undo() {
    const auto [r, prev] = trail_.back();
    trail_.pop_back();
    --pos_[r.t];
    const Node& n = g_->threads[r.t][static_cast<std::size_t>(r.i)];
    if (pruning_) {
        const auto v = static_cast<std::size_t>(flat(r));
        for (auto k = succStart_[v]; k < succStart_[v + 1]; ++k)
            ++predLeft_[static_cast<std::size_t>(succ_[static_cast<std::size_t>(k)])];
    }
    if (isMutexEvent(n)) {
        holder_[static_cast<std::size_t>(n.ev.loc)] = prev;
        if (observesHeld(n)) ++pendingObs_[static_cast<std::size_t>(flat(n.rf))];
        return;
    }
    if (writesMemory(n.ev.kind) && !n.faulted) cur_[static_cast<std::size_t>(n.ev.loc)] = prev;
    if (readsMemory(n.ev.kind)) {
        if (n.rf.t == kInitThread)
            ++initReaders_[static_cast<std::size_t>(n.ev.loc)];
        else
            ++readersLeft_[static_cast<std::size_t>(flat(n.rf))];
    }
}

void SCChecker::key(std::string& k) const {
    k.assign(reinterpret_cast<const char*>(pos_.data()), pos_.size() * sizeof(std::int32_t));
    for (LocId l : watched_) {
        const std::int32_t c = cur_[static_cast<std::size_t>(l)];
        k.append(reinterpret_cast<const char*>(&c), sizeof c);
    }
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
    for (bool progress = true; progress;) {
        progress = false;
        for (ThreadId t = 0; t < T; ++t)
            while (enabledNoWrite(t)) {
                step(t, false);
                progress = true;
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
    key(keyBuf_);
    if (failed_.count(keyBuf_)) {
        rollback();
        return false;
    }
    if (enumerate_) failed_.insert(keyBuf_);  // visited: its finals are being collected
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
    key(keyBuf_);
    failed_.insert(keyBuf_);
    rollback();
    return false;
}

}  // namespace porlab::graph
