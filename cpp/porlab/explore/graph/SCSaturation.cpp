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
// The order is kept as a bit matrix (reach_) and its transpose (pred_): a new edge a -> b adds
// b and its successors to a and to every predecessor of a (and the converse in pred_),
// O(events^2 / 64) at worst, O(pairs it orders) otherwise. The rules only ever order a write or an
// acquire after something, the two kinds of events the search branches on (reads and the other
// events are taken greedily when enabled), so counting, per event, the rule edges into it whose
// source has not run (predLeft_) is all the search needs.
#include <algorithm>
#include <bit>

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
    writeMask_.assign(holder_.size() * words_, 0);
    sections_.clear();
    auto& ruleless = ruleless_;
    ruleless.assign(holder_.size(), 0);
    auto& observers = observers_;
    observers.clear();
    auto& open = open_;
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
            const bool known = static_cast<std::size_t>(nd.ev.loc) < holder_.size();
            if (readsMemory(nd.ev.kind)) {
                if (inside(nd.rf)) {
                    base_[static_cast<std::size_t>(flat(nd.rf))].push_back(v);
                    if (known) memReads_.push_back({v, flat(nd.rf), nd.ev.loc});
                } else if (nd.rf.t == kInitThread && known) {
                    memReads_.push_back({v, -1, nd.ev.loc});
                }
            }
            if (writesMemory(nd.ev.kind) && !nd.faulted && known)
                writeMask_[static_cast<std::size_t>(nd.ev.loc) * words_ + vs / 64] |=
                    std::uint64_t{1} << (vs % 64);
        }
        for (const auto& [loc, acq] : open)
            sections_.push_back({loc, static_cast<std::int32_t>(t), acq, -1});
    }
    std::erase_if(sections_,
                  [&](const Section& s) { return ruleless[static_cast<std::size_t>(s.loc)]; });
    // By mutex, the unlocks of its sections; by unlock, its section; the open sections.
    unlockMask_.assign(holder_.size() * words_, 0);
    sectionOf_.resize(n);
    openSections_.clear();
    for (std::size_t k = 0; k < sections_.size(); ++k) {
        const Section& s = sections_[k];
        if (s.unl < 0) {
            openSections_.push_back(static_cast<std::int32_t>(k));
            continue;
        }
        const auto u = static_cast<std::size_t>(s.unl);
        unlockMask_[static_cast<std::size_t>(s.loc) * words_ + u / 64] |= std::uint64_t{1}
                                                                          << (u % 64);
        sectionOf_[u] = static_cast<std::int32_t>(k);
    }
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
    // Its transpose (by node, the nodes before it), in Kahn's order.
    pred_.assign(n * words_, 0);
    for (std::size_t k = 0; k < n; ++k) {
        const auto a = static_cast<std::size_t>(topo_[k]);
        const std::uint64_t* pa = &pred_[a * words_];
        const std::uint64_t abit = std::uint64_t{1} << (a % 64);
        for (const auto b : base_[a]) {
            std::uint64_t* pb = &pred_[static_cast<std::size_t>(b) * words_];
            pb[a / 64] |= abit;
            for (std::size_t w = 0; w < words_; ++w) pb[w] |= pa[w];
        }
    }
    return true;
}

bool SCChecker::addEdge(std::int32_t a, std::int32_t b, bool& changed) {
    if (a == b || before(b, a)) return false;  // a cycle
    if (before(a, b)) return true;
    derived_.emplace_back(a, b);
    changed = true;
    // Every node up to a (a and its predecessors) comes before every node from b on (b and its
    // successors): both sets are disjoint (no cycle), so copies of their rows stay valid.
    const auto as = static_cast<std::size_t>(a), bs = static_cast<std::size_t>(b);
    if (words_ == 1) {  // (most graphs: 64 events at most)
        const std::uint64_t up = pred_[as] | (std::uint64_t{1} << as);
        const std::uint64_t from = reach_[bs] | (std::uint64_t{1} << bs);
        for (std::uint64_t bits = up; bits != 0; bits &= bits - 1)
            reach_[static_cast<std::size_t>(std::countr_zero(bits))] |= from;
        for (std::uint64_t bits = from; bits != 0; bits &= bits - 1)
            pred_[static_cast<std::size_t>(std::countr_zero(bits))] |= up;
        return true;
    }
    predRow_.assign(pred_.begin() + static_cast<std::ptrdiff_t>(as * words_),
                    pred_.begin() + static_cast<std::ptrdiff_t>((as + 1) * words_));
    predRow_[as / 64] |= std::uint64_t{1} << (as % 64);
    succRow_.assign(reach_.begin() + static_cast<std::ptrdiff_t>(bs * words_),
                    reach_.begin() + static_cast<std::ptrdiff_t>((bs + 1) * words_));
    succRow_[bs / 64] |= std::uint64_t{1} << (bs % 64);
    auto orInto = [&](std::vector<std::uint64_t>& m, const std::vector<std::uint64_t>& rows,
                      const std::vector<std::uint64_t>& row) {
        for (std::size_t w = 0; w < words_; ++w)
            for (std::uint64_t bits = rows[w]; bits != 0; bits &= bits - 1) {
                const auto x = w * 64 + static_cast<std::size_t>(std::countr_zero(bits));
                std::uint64_t* rx = &m[x * words_];
                for (std::size_t v = 0; v < words_; ++v) rx[v] |= row[v];
            }
    };
    orInto(reach_, predRow_, succRow_);
    orInto(pred_, succRow_, predRow_);
    return true;
}

bool SCChecker::saturationRound(bool& changed) {
    // (Bit-parallel: per read, the writes of its location that a rule orders and that are not
    // ordered so yet; orderEdge checks again, as each edge grows the order.)
    auto each = [&](std::uint64_t bits, std::size_t w, auto&& f) {
        for (; bits != 0; bits &= bits - 1)
            if (!f(static_cast<std::int32_t>(w * 64 + std::countr_zero(bits)))) return false;
        return true;
    };
    for (const auto& [r, w, loc] : memReads_) {
        const auto rs = static_cast<std::size_t>(r);
        const std::uint64_t* mask = &writeMask_[static_cast<std::size_t>(loc) * words_];
        const std::uint64_t* reachR = &reach_[rs * words_];
        const std::uint64_t* predR = &pred_[rs * words_];
        for (std::size_t k = 0; k < words_; ++k) {
            // Another write x of the location (not r, not w).
            std::uint64_t others = mask[k];
            if (rs / 64 == k) others &= ~(std::uint64_t{1} << (rs % 64));
            if (w < 0) {  // r reads the initial value: before every write of the location
                if (!each(others & ~reachR[k], k,
                          [&](std::int32_t x) { return orderEdge(r, x, changed); }))
                    return false;
                continue;
            }
            const auto ws = static_cast<std::size_t>(w);
            if (ws / 64 == k) others &= ~(std::uint64_t{1} << (ws % 64));
            // x before r: x before w.
            if (!each(others & predR[k] & ~pred_[ws * words_ + k], k,
                      [&](std::int32_t x) { return orderEdge(x, w, changed); }))
                return false;
            // w before x: r before x.
            if (!each(others & reach_[ws * words_ + k] & ~reachR[k], k,
                      [&](std::int32_t x) { return orderEdge(r, x, changed); }))
                return false;
        }
    }
    // Sections a, b of one mutex in different threads: b open to the end, or a begins before b
    // ends: a ends before b begins. (The b that end after a begins: the unlocks of the mutex in
    // a.acq's row; the open ones are few.)
    for (const Section& a : sections_) {
        auto orderBefore = [&](const Section& b) {
            if (b.loc != a.loc || b.thread == a.thread) return true;
            return a.unl >= 0 && orderEdge(a.unl, b.acq, changed);
        };
        for (const std::int32_t o : openSections_)
            if (!orderBefore(sections_[static_cast<std::size_t>(o)])) return false;
        const auto acq = static_cast<std::size_t>(a.acq);
        const std::uint64_t* mask = &unlockMask_[static_cast<std::size_t>(a.loc) * words_];
        for (std::size_t k = 0; k < words_; ++k)
            if (!each(reach_[acq * words_ + k] & mask[k], k, [&](std::int32_t u) {
                    return orderBefore(sections_[static_cast<std::size_t>(
                        sectionOf_[static_cast<std::size_t>(u)])]);
                }))
                return false;
    }
    return true;
}

}  // namespace porlab::graph
