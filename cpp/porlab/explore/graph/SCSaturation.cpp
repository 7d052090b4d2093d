// SPDX-License-Identifier: MIT
// SCChecker's saturation (ExecutionGraph.hpp): a partial order that every witness of
// SCChecker's search extends, computed as a fixpoint, as LAPOR computes hb, wb and lb together
// (Kokologiannakis et al., OOPSLA'19, §3; ALGORITHMS.md §3.2), on the events of the search.
// Each rule holds in every witness, so a cycle means there is none (the graph is refuted without
// a search), and the search may skip every write or acquire that the order puts after an event
// not executed yet (no witness lies there):
//  * base: program order, reads-from (the source before its reader), spawn before the child's
//    first event, the joined thread's last event before the join, a failed trylock inside the
//    section of its source (after the acquire, before its unlock);
//  * coherence forced by reads-from: between a write w and a read r of it no other write w' of
//    the location runs (the search reads the last write), so w' before r forces w' before w, and
//    w before w' forces r before w'; a read of the initial value comes before every write of its
//    location (a faulted write, Node::faulted, overwrites nothing and is left out);
//  * mutex mode: the sections of one mutex are disjoint intervals (acquire .. unlock), so if A's
//    acquire comes before B's unlock, A's unlock comes before B's acquire; a section open to the
//    end (no unlock in the search's part) comes after every other section of its mutex. (A mutex
//    whose use the pairing does not describe, an unlock without its acquire or a relock by the
//    holder, gets no rule: the search alone decides it.)
// The order is kept as a bit matrix (reach_): a new edge a -> b adds b and its successors to a
// and to every predecessor of a, O(events^2 / 64). The rules only ever order a write or an
// acquire after something, the two kinds of events the search branches on (reads and the other
// events are taken greedily when enabled), so counting, per event, the rule edges into it whose
// source has not run (predLeft_) is all the search needs.
#include <algorithm>

#include "porlab/explore/graph/ExecutionGraph.hpp"

namespace porlab::graph {

bool SCChecker::saturate() {
    if (!saturateBase()) return false;
    for (bool changed = true; changed;) {
        changed = false;
        if (!saturationRound(changed)) return false;
    }
    // The rule edges by source, and per target the sources still to run (none has run).
    const auto n = static_cast<std::size_t>(off_.back());
    succStart_.assign(n + 1, 0);
    predLeft_.assign(n, 0);
    for (const auto& [a, b] : derived_) {
        ++succStart_[static_cast<std::size_t>(a) + 1];
        ++predLeft_[static_cast<std::size_t>(b)];
    }
    for (std::size_t v = 0; v < n; ++v) succStart_[v + 1] += succStart_[v];
    succ_.resize(derived_.size());
    indeg_.assign(succStart_.begin(), succStart_.end() - 1);  // (a cursor per source)
    for (const auto& [a, b] : derived_)
        succ_[static_cast<std::size_t>(indeg_[static_cast<std::size_t>(a)]++)] = b;
    return true;
}

bool SCChecker::saturateBase() {
    const std::size_t T = lim_.size();
    const auto n = static_cast<std::size_t>(off_[T]);
    words_ = (n + 63) / 64;
    reach_.assign(n * words_, 0);
    derived_.clear();
    base_.resize(n);
    for (auto& b : base_) b.clear();
    memReads_.clear();
    memWrites_.clear();
    sections_.clear();
    std::vector<char> ruleless(holder_.size(), 0);                 // mutexes the pairing misreads
    std::vector<std::pair<std::int32_t, std::int32_t>> observers;  // failed trylock, acquire
    std::vector<std::pair<LocId, std::int32_t>> open;
    auto inside = [&](Ref r) {
        return r.t != kInitThread && static_cast<std::size_t>(r.t) < T && r.i < lim_[r.t];
    };
    for (std::size_t t = 0; t < T; ++t) {
        open.clear();
        for (std::int32_t i = 0; i < lim_[t]; ++i) {
            const auto v = off_[t] + i;
            const auto vs = static_cast<std::size_t>(v);
            const Node& nd = g_->threads[t][static_cast<std::size_t>(i)];
            if (i + 1 < lim_[t]) base_[vs].push_back(v + 1);
            if (i == 0 && spawnOf_[t].first >= 0 && inside(spawnOf_[t].second))
                base_[static_cast<std::size_t>(flat(spawnOf_[t].second))].push_back(v);
            if (nd.ev.kind == EventKind::Join && nd.ev.aux >= 0 &&
                static_cast<std::size_t>(nd.ev.aux) < T && lim_[nd.ev.aux] > 0)
                base_[static_cast<std::size_t>(off_[nd.ev.aux] + lim_[nd.ev.aux] - 1)].push_back(v);
            if (isMutexEvent(nd)) {
                const auto loc = static_cast<std::size_t>(nd.ev.loc);
                if (loc >= ruleless.size()) continue;
                if (observesHeld(nd)) {
                    if (inside(nd.rf)) {
                        base_[static_cast<std::size_t>(flat(nd.rf))].push_back(v);
                        observers.emplace_back(v, flat(nd.rf));
                    }
                    continue;
                }
                const auto same = [&](const auto& o) { return o.first == nd.ev.loc; };
                const auto it = std::find_if(open.rbegin(), open.rend(), same);
                if (acquires(nd)) {
                    if (it != open.rend()) ruleless[loc] = 1;  // relocked by its holder
                    open.emplace_back(nd.ev.loc, v);
                } else if (nd.ev.kind == EventKind::Unlock) {
                    if (it == open.rend()) {
                        ruleless[loc] = 1;  // an unlock without its acquire
                        continue;
                    }
                    sections_.push_back({nd.ev.loc, static_cast<std::int32_t>(t), it->second, v});
                    open.erase(std::next(it).base());
                }
                continue;
            }
            if (readsMemory(nd.ev.kind)) {
                if (inside(nd.rf)) {
                    base_[static_cast<std::size_t>(flat(nd.rf))].push_back(v);
                    memReads_.push_back({v, flat(nd.rf), nd.ev.loc});
                } else if (nd.rf.t == kInitThread) {
                    memReads_.push_back({v, -1, nd.ev.loc});
                }
            }
            if (writesMemory(nd.ev.kind) && !nd.faulted) memWrites_.emplace_back(nd.ev.loc, v);
        }
        for (const auto& [loc, acq] : open)
            sections_.push_back({loc, static_cast<std::int32_t>(t), acq, -1});
    }
    std::sort(memWrites_.begin(), memWrites_.end());
    std::erase_if(sections_,
                  [&](const Section& s) { return ruleless[static_cast<std::size_t>(s.loc)]; });
    for (const auto& [f, acq] : observers)
        for (const Section& s : sections_)
            if (s.acq == acq && s.unl >= 0) base_[static_cast<std::size_t>(f)].push_back(s.unl);
    // The transitive closure of the base edges (Kahn's order, then in reverse); a cycle: none.
    indeg_.assign(n, 0);
    for (const auto& succs : base_)
        for (const auto b : succs) ++indeg_[static_cast<std::size_t>(b)];
    topo_.clear();
    for (std::size_t v = 0; v < n; ++v)
        if (indeg_[v] == 0) topo_.push_back(static_cast<std::int32_t>(v));
    for (std::size_t k = 0; k < topo_.size(); ++k)
        for (const auto b : base_[static_cast<std::size_t>(topo_[k])])
            if (--indeg_[static_cast<std::size_t>(b)] == 0) topo_.push_back(b);
    if (topo_.size() < n) return false;
    for (std::size_t k = n; k-- > 0;) {
        const auto a = static_cast<std::size_t>(topo_[k]);
        std::uint64_t* ra = &reach_[a * words_];
        for (const auto b : base_[a]) {
            const auto bs = static_cast<std::size_t>(b);
            ra[bs / 64] |= std::uint64_t{1} << (bs % 64);
            const std::uint64_t* rb = &reach_[bs * words_];
            for (std::size_t w = 0; w < words_; ++w) ra[w] |= rb[w];
        }
    }
    return true;
}

bool SCChecker::orderEdge(std::int32_t a, std::int32_t b, bool& changed) {
    if (a == b || before(b, a)) return false;  // a cycle
    if (before(a, b)) return true;
    derived_.emplace_back(a, b);
    changed = true;
    const auto n = static_cast<std::size_t>(off_.back());
    const auto bs = static_cast<std::size_t>(b);
    const std::uint64_t* rb = &reach_[bs * words_];
    for (std::size_t x = 0; x < n; ++x) {
        const auto xs = static_cast<std::int32_t>(x);
        if (xs != a && !before(xs, a)) continue;
        std::uint64_t* rx = &reach_[x * words_];
        rx[bs / 64] |= std::uint64_t{1} << (bs % 64);
        for (std::size_t w = 0; w < words_; ++w) rx[w] |= rb[w];
    }
    return true;
}

bool SCChecker::saturationRound(bool& changed) {
    for (const auto& [r, w, loc] : memReads_) {
        auto it = std::lower_bound(memWrites_.begin(), memWrites_.end(),
                                   std::pair<LocId, std::int32_t>{loc, -1});
        for (; it != memWrites_.end() && it->first == loc; ++it) {
            const std::int32_t x = it->second;  // another write of the location
            if (x == r || x == w) continue;
            if (w < 0) {
                if (!orderEdge(r, x, changed)) return false;
                continue;
            }
            if (before(x, r) && !orderEdge(x, w, changed)) return false;
            if (before(w, x) && !orderEdge(r, x, changed)) return false;
        }
    }
    for (const Section& a : sections_)
        for (const Section& b : sections_) {
            if (a.loc != b.loc || a.thread == b.thread) continue;
            // b open to the end, or a begins before b ends: a ends before b begins.
            if (b.unl >= 0 && !before(a.acq, b.unl)) continue;
            if (a.unl < 0 || !orderEdge(a.unl, b.acq, changed)) return false;
        }
    return true;
}

}  // namespace porlab::graph
