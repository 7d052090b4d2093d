// SPDX-License-Identifier: MIT
// CoChecker (ExecutionGraph.hpp): SC consistency of a graph with its coherence order, and
// LAPOR's mutual exclusion (checkMutex, lockOrder).
#include "porlab/explore/graph/ExecutionGraph.hpp"

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

namespace porlab::graph {

bool CoChecker::check(const ExecutionGraph& g, bool placeholders, std::vector<Ref>& order) {
    ++checks;
    mutexMode_ = false;
    memoryEdges_ = true;
    if (!build(g, placeholders)) return false;
    const std::size_t N = refs_.size();
    auto live = [&](Ref r) { return !g.at(r).placeholder; };
    order.clear();
    stack_.clear();
    std::size_t liveCount = 0;
    for (std::size_t i = N; i-- > 0;) {
        if (!live(refs_[i])) continue;
        ++liveCount;
        if (indeg_[i] == 0) stack_.push_back(static_cast<std::int32_t>(i));
    }
    while (!stack_.empty()) {
        const auto v = static_cast<std::size_t>(stack_.back());
        stack_.pop_back();
        order.push_back(refs_[v]);
        for (auto k = succStart_[v]; k < succStart_[v + 1]; ++k) {
            const auto w = static_cast<std::size_t>(succ_[static_cast<std::size_t>(k)]);
            if (--indeg_[w] == 0 && live(refs_[w])) stack_.push_back(static_cast<std::int32_t>(w));
        }
    }
    return order.size() == liveCount;
}

bool CoChecker::checkMutex(const ExecutionGraph& g, bool placeholders,
                           const std::vector<bool>& openEnded, std::vector<Ref>& order,
                           bool memoryEdges) {
    ++checks;
    mutexMode_ = true;
    memoryEdges_ = memoryEdges;
    if (!build(g, placeholders)) return false;
    g_ = &g;
    if (lockOrderEdges && !lockOrder()) {
        ++lbRefuted;
        return false;
    }
    const std::size_t T = g.threads.size();
    openEnded_ = openEnded;
    openEnded_.resize(T, false);
    pos_.assign(T, 0);
    liveLen_.assign(T, 0);
    lockPlaceholders_.clear();
    std::size_t maxLoc = 0;  // (the locations the nodes use, not the whole table)
    for (std::size_t t = 0; t < T; ++t)
        for (const Node& n : g.threads[t]) {
            if (n.ev.loc >= 0) maxLoc = std::max(maxLoc, static_cast<std::size_t>(n.ev.loc) + 1);
            if (n.placeholder) {
                if (placeholders && n.ev.kind == EventKind::Lock)
                    lockPlaceholders_.push_back(n.ev.loc);
            } else {
                ++liveLen_[t];
            }
        }
    holder_.assign(maxLoc, -1);
    holderAcq_.assign(maxLoc, -1);
    pendingObs_.assign(refs_.size(), 0);
    for (std::size_t t = 0; t < T; ++t)
        for (const Node& n : g.threads[t])
            if (!n.placeholder && observesHeld(n) && n.rf.t != kInitThread)
                ++pendingObs_[static_cast<std::size_t>(off_[static_cast<std::size_t>(n.rf.t)] +
                                                       n.rf.i)];
    live_ = 0;
    for (auto l : liveLen_) live_ += static_cast<std::size_t>(l);
    trail_.clear();
    released_.clear();
    releasedMark_.clear();
    failed_.clear();
    interrupted_ = false;
    const bool ok = search() && !interrupted_;
    order.clear();
    if (ok)
        for (auto v : trail_) order.push_back(refs_[static_cast<std::size_t>(v)]);
    return ok;
}

bool CoChecker::greedyWitness(const ExecutionGraph& g, std::span<const Ref> hint,
                              std::vector<Ref>& order) {
    // The constraints of build (mutex mode, memory edges) and of the search, as a node goes:
    // it is its thread's next, after its spawn and after the threads it joins; a read reads the
    // co-last write so far (rf, and fr: the next write waits for the readers of the one before
    // it, so a read that can go stays able to); writes go in co order; an acquire takes a free
    // mutex, an unlock frees its thread's, a failed trylock lies in its source's section (open
    // sections last to the end: g is final). Only acquires can lose their
    // turn (another takes the mutex): there the greedy choice may fail where the search would
    // not. (The search's scratch: not during a search.)
    const std::size_t T = g.threads.size();
    const std::size_t L = g.co.size();
    off_.assign(T + 1, 0);
    spawner_.assign(T, -1);  // by thread: the flat node of the spawn that starts it
    for (std::size_t t = 0; t < T; ++t)
        off_[t + 1] = off_[t] + static_cast<std::int32_t>(g.threads[t].size());
    const auto N = static_cast<std::size_t>(off_[T]);
    pendingObs_.assign(N + L, 0);  // readers not done yet: of node v at v, of init of loc at N+loc
    for (std::size_t t = 0; t < T; ++t) {
        const auto& th = g.threads[t];
        for (std::size_t i = 0; i < th.size(); ++i) {
            const Node& n = th[i];
            if (n.placeholder || n.zne || n.faulted) return false;
            if ((accessesMemory(n.ev.kind) || n.trylock) &&
                (n.ev.loc < 0 || static_cast<std::size_t>(n.ev.loc) >= L))
                return false;  // (every location a node names is in g.co: the engine adds it)
            if (n.ev.kind == EventKind::Spawn && n.ev.aux >= 0 &&
                static_cast<std::size_t>(n.ev.aux) < T)
                spawner_[static_cast<std::size_t>(n.ev.aux)] =
                    off_[t] + static_cast<std::int32_t>(i);
            if (!n.trylock && readsMemory(n.ev.kind))
                ++pendingObs_[n.rf.t == kInitThread
                                  ? N + static_cast<std::size_t>(n.ev.loc)
                                  : static_cast<std::size_t>(
                                        off_[static_cast<std::size_t>(n.rf.t)] + n.rf.i)];
        }
    }
    auto valid = [&](Ref r) {
        return r.t >= 0 && static_cast<std::size_t>(r.t) < T && r.i >= 0 &&
               static_cast<std::size_t>(r.i) < g.threads[static_cast<std::size_t>(r.t)].size();
    };
    pos_.assign(T, 0);
    coPos_.assign(L, 0);       // by location: how many of its co writes are done
    holder_.assign(L, -1);     // by mutex: the thread holding it
    holderAcq_.assign(L, -1);  // and its acquire (flat)
    auto len = [&](std::size_t t) { return static_cast<std::int32_t>(g.threads[t].size()); };
    auto done = [&](std::int32_t flat) {
        std::size_t u = 0;
        while (off_[u + 1] <= flat) ++u;
        return pos_[u] > flat - off_[u];
    };
    auto canGo = [&](std::size_t t) {
        const Node& n = g.threads[t][static_cast<std::size_t>(pos_[t])];
        if (pos_[t] == 0 && spawner_[t] >= 0 && !done(spawner_[t])) return false;
        if (n.ev.kind == EventKind::Join && n.ev.aux >= 0 &&
            static_cast<std::size_t>(n.ev.aux) < T &&
            pos_[static_cast<std::size_t>(n.ev.aux)] != len(static_cast<std::size_t>(n.ev.aux)))
            return false;
        const auto loc = static_cast<std::size_t>(n.ev.loc);
        if (acquires(n)) {
            if (holder_[loc] >= 0) return false;
        } else if (n.ev.kind == EventKind::Unlock) {
            if (holder_[loc] != static_cast<std::int32_t>(t)) return false;
        } else if (observesHeld(n)) {
            if (n.rf.t == kInitThread || holder_[loc] < 0 ||
                holderAcq_[loc] != off_[static_cast<std::size_t>(n.rf.t)] + n.rf.i)
                return false;
        }
        if (n.trylock || !accessesMemory(n.ev.kind)) return true;  // (loc: none, or not in co)
        const auto& c = g.co[loc];
        const auto k = static_cast<std::size_t>(coPos_[loc]);
        const Ref last = k == 0 ? kInitRef : c[k - 1];
        const bool reads = readsMemory(n.ev.kind);
        if (reads && !(last == n.rf)) return false;
        if (writesMemory(n.ev.kind) && n.ev.kind != EventKind::Lock &&
            n.ev.kind != EventKind::Unlock) {
            if (k >= c.size() || !(c[k] == Ref{static_cast<std::int32_t>(t), pos_[t]}))
                return false;
            const auto prev =
                k == 0 ? N + loc
                       : static_cast<std::size_t>(off_[static_cast<std::size_t>(last.t)] + last.i);
            if (pendingObs_[prev] != (reads ? 1 : 0)) return false;  // (a's own read part)
        }
        return true;
    };
    auto go = [&](std::size_t t) {
        const Node& n = g.threads[t][static_cast<std::size_t>(pos_[t])];
        const auto loc = static_cast<std::size_t>(n.ev.loc);
        if (acquires(n)) {
            holder_[loc] = static_cast<std::int32_t>(t);
            holderAcq_[loc] = off_[t] + pos_[t];
        } else if (n.ev.kind == EventKind::Unlock) {
            holder_[loc] = -1;
        }
        if (!n.trylock && readsMemory(n.ev.kind))
            --pendingObs_[n.rf.t == kInitThread
                              ? N + loc
                              : static_cast<std::size_t>(off_[static_cast<std::size_t>(n.rf.t)] +
                                                         n.rf.i)];
        if (!n.trylock && writesMemory(n.ev.kind) && n.ev.kind != EventKind::Lock &&
            n.ev.kind != EventKind::Unlock)
            ++coPos_[loc];
        order.push_back(Ref{static_cast<std::int32_t>(t), pos_[t]});
        ++pos_[t];
    };
    order.clear();
    std::size_t h = 0;  // the hint's first node not done
    while (order.size() < N) {
        while (h < hint.size() &&
               (!valid(hint[h]) || hint[h].i < pos_[static_cast<std::size_t>(hint[h].t)]))
            ++h;
        if (h < hint.size() && hint[h].i == pos_[static_cast<std::size_t>(hint[h].t)] &&
            canGo(static_cast<std::size_t>(hint[h].t))) {
            go(static_cast<std::size_t>(hint[h].t));
            continue;
        }
        // Of the threads' next nodes that can go, the earliest in the hint (then the first
        // thread's of those not in it).
        std::size_t best = T;
        for (std::size_t k = h + 1; k < hint.size() && best == T; ++k)
            if (valid(hint[k]) && hint[k].i == pos_[static_cast<std::size_t>(hint[k].t)] &&
                canGo(static_cast<std::size_t>(hint[k].t)))
                best = static_cast<std::size_t>(hint[k].t);
        for (std::size_t t = 0; t < T && best == T; ++t)
            if (pos_[t] < len(t) && canGo(t)) best = t;
        if (best == T) return false;
        go(best);
    }
    ++greedyFound;
    return true;
}

bool CoChecker::endedOpen(ThreadId t) const {
    const auto u = static_cast<std::size_t>(t);
    return openEnded_[u] && pos_[u] == liveLen_[u];
}

void CoChecker::release(std::size_t l) {
    released_.push_back({static_cast<std::int32_t>(l), holder_[l], holderAcq_[l]});
    holder_[l] = -1;
}

void CoChecker::exec(std::int32_t v) {
    const Ref r = refs_[static_cast<std::size_t>(v)];
    const Node& n = g_->at(r);
    releasedMark_.push_back(released_.size());
    trail_.push_back(v);
    ++pos_[static_cast<std::size_t>(r.t)];
    ++mutexStates;
    for (auto k = succStart_[static_cast<std::size_t>(v)];
         k < succStart_[static_cast<std::size_t>(v) + 1]; ++k)
        --indeg_[static_cast<std::size_t>(succ_[static_cast<std::size_t>(k)])];
    const auto loc = static_cast<std::size_t>(n.ev.loc);
    if (acquires(n)) {
        holder_[loc] = r.t;
        holderAcq_[loc] = v;
    }
    if (n.ev.kind == EventKind::Unlock && holder_[loc] == r.t) release(loc);
    if (observesHeld(n)) {
        // The last failed trylock of a section of an open-ended thread that has no more
        // events: the section may end now.
        const auto src = off_[static_cast<std::size_t>(n.rf.t)] + n.rf.i;
        if (--pendingObs_[static_cast<std::size_t>(src)] == 0 && holder_[loc] >= 0 &&
            holderAcq_[loc] == src && endedOpen(holder_[loc]))
            release(loc);
    }
    // An open-ended thread's open critical sections end after its last event so far (or after
    // the failed trylocks that observe them).
    if (endedOpen(r.t))
        for (std::size_t l = 0; l < holder_.size(); ++l)
            if (holder_[l] == r.t && pendingObs_[static_cast<std::size_t>(holderAcq_[l])] == 0)
                release(l);
}

void CoChecker::unexec() {
    const auto v = trail_.back();
    trail_.pop_back();
    const Ref r = refs_[static_cast<std::size_t>(v)];
    const Node& n = g_->at(r);
    const std::size_t mark = releasedMark_.back();
    releasedMark_.pop_back();
    while (released_.size() > mark) {
        const auto& e = released_.back();
        holder_[static_cast<std::size_t>(e.loc)] = e.thread;
        holderAcq_[static_cast<std::size_t>(e.loc)] = e.acq;
        released_.pop_back();
    }
    if (acquires(n)) holder_[static_cast<std::size_t>(n.ev.loc)] = -1;
    if (observesHeld(n))
        ++pendingObs_[static_cast<std::size_t>(off_[static_cast<std::size_t>(n.rf.t)] + n.rf.i)];
    --pos_[static_cast<std::size_t>(r.t)];
    for (auto k = succStart_[static_cast<std::size_t>(v)];
         k < succStart_[static_cast<std::size_t>(v) + 1]; ++k)
        ++indeg_[static_cast<std::size_t>(succ_[static_cast<std::size_t>(k)])];
}

bool CoChecker::search() {
    if (interrupted_ || ((++polls_ & 63) == 0 && interrupt && interrupt())) {
        interrupted_ = true;
        return false;
    }
    const std::size_t mark = trail_.size();
    const std::size_t T = pos_.size();
    auto nodeOf = [&](std::size_t t) { return off_[t] + pos_[t]; };
    auto ready = [&](std::size_t t) {
        return pos_[t] < liveLen_[t] && indeg_[static_cast<std::size_t>(nodeOf(t))] == 0;
    };
    auto next = [&](std::size_t t) -> const Node& {
        return g_->threads[t][static_cast<std::size_t>(pos_[t])];
    };
    // Greedy: everything but lock acquisitions. (A failed trylock is ready once its section
    // has begun, and its section cannot end before it: edges and deferred ends.)
    for (bool progress = true; progress;) {
        progress = false;
        for (std::size_t t = 0; t < T; ++t)
            while (ready(t) && !acquires(next(t))) {
                exec(nodeOf(t));
                progress = true;
            }
    }
    auto rollback = [&] {
        while (trail_.size() > mark) unexec();
    };
    if (trail_.size() == live_) {
        for (LocId l : lockPlaceholders_)
            if (holder_[static_cast<std::size_t>(l)] < 0) {
                rollback();
                return false;
            }
        return true;
    }
    keyBuf_.assign(reinterpret_cast<const char*>(pos_.data()), pos_.size() * sizeof(std::int32_t));
    if (failed_.count(keyBuf_)) {
        rollback();
        return false;
    }
    for (std::size_t t = 0; t < T; ++t) {
        if (!ready(t)) continue;
        const Node& n = next(t);
        if (holder_[static_cast<std::size_t>(n.ev.loc)] >= 0) continue;
        exec(nodeOf(t));
        if (search()) return true;
        unexec();
    }
    keyBuf_.assign(reinterpret_cast<const char*>(pos_.data()), pos_.size() * sizeof(std::int32_t));
    failed_.insert(keyBuf_);
    rollback();
    return false;
}

bool CoChecker::build(const ExecutionGraph& g, bool placeholders) {
    const std::size_t T = g.threads.size();
    off_.assign(T + 1, 0);
    for (std::size_t t = 0; t < T; ++t)
        off_[t + 1] = off_[t] + static_cast<std::int32_t>(g.threads[t].size());
    const auto N = static_cast<std::size_t>(off_[T]);
    auto flat = [&](Ref r) { return off_[static_cast<std::size_t>(r.t)] + r.i; };
    edges_.clear();
    refs_.assign(N, kInitRef);
    // Position of every write in its location's co (a linear search per read was the hot spot).
    coPos_.assign(N, -1);
    for (const auto& c : g.co)
        for (std::size_t k = 0; k < c.size(); ++k)
            coPos_[static_cast<std::size_t>(flat(c[k]))] = static_cast<std::int32_t>(k);
    for (std::size_t t = 0; t < T; ++t) {
        const auto& th = g.threads[t];
        for (std::size_t i = 0; i < th.size(); ++i) {
            const Ref x{static_cast<std::int32_t>(t), static_cast<std::int32_t>(i)};
            refs_[static_cast<std::size_t>(flat(x))] = x;
            const Node& n = th[i];
            if (n.placeholder) {
                if (placeholders && !(mutexMode_ && n.ev.kind == EventKind::Lock)) {
                    const auto& c = g.co[static_cast<std::size_t>(n.ev.loc)];
                    const Value v =
                        c.empty() ? g.valueOf(kInitRef, n.ev.loc) : g.at(c.back()).ev.wval;
                    if (admits(n.ev, v)) return false;
                }
                continue;
            }
            if (i > 0) edges_.emplace_back(flat(x) - 1, flat(x));
            if (n.ev.kind == EventKind::Spawn && n.ev.aux >= 0 &&
                static_cast<std::size_t>(n.ev.aux) < T &&
                !g.threads[static_cast<std::size_t>(n.ev.aux)].empty())
                edges_.emplace_back(flat(x), flat(Ref{n.ev.aux, 0}));
            if (n.ev.kind == EventKind::Join && n.ev.aux >= 0 &&
                static_cast<std::size_t>(n.ev.aux) < T) {
                const auto& ch = g.threads[static_cast<std::size_t>(n.ev.aux)];
                std::int32_t last = static_cast<std::int32_t>(ch.size()) - 1;
                if (last >= 0 && ch.back().placeholder) --last;
                if (last >= 0) edges_.emplace_back(flat(Ref{n.ev.aux, last}), flat(x));
            }
            if (n.trylock) {
                // A failed trylock lies inside the critical section of its source (the acquire
                // it observes): after it, before that section's unlock. A success is a lock.
                if (!observesHeld(n) || n.rf.t == kInitThread) continue;
                edges_.emplace_back(flat(n.rf), flat(x));
                const auto& st = g.threads[static_cast<std::size_t>(n.rf.t)];
                for (auto k = static_cast<std::size_t>(n.rf.i) + 1; k < st.size(); ++k)
                    if (!st[k].placeholder && st[k].ev.kind == EventKind::Unlock &&
                        st[k].ev.loc == n.ev.loc) {
                        edges_.emplace_back(flat(x),
                                            flat(Ref{n.rf.t, static_cast<std::int32_t>(k)}));
                        break;
                    }
                continue;
            }
            if (memoryEdges_ && readsMemory(n.ev.kind)) {
                if (n.rf.t != kInitThread) edges_.emplace_back(flat(n.rf), flat(x));
                const int k =
                    n.rf.t == kInitThread ? -1 : coPos_[static_cast<std::size_t>(flat(n.rf))];
                const auto& c = g.co[static_cast<std::size_t>(n.ev.loc)];
                if (static_cast<std::size_t>(k + 1) < c.size() &&
                    !(c[static_cast<std::size_t>(k + 1)] == x))
                    edges_.emplace_back(flat(x), flat(c[static_cast<std::size_t>(k + 1)]));
            }
        }
    }
    if (memoryEdges_)
        for (const auto& c : g.co)
            for (std::size_t k = 1; k < c.size(); ++k)
                edges_.emplace_back(flat(c[k - 1]), flat(c[k]));
    csr(N);
    return true;
}

void CoChecker::csr(std::size_t N) {
    indeg_.assign(N, 0);
    succStart_.assign(N + 1, 0);
    for (const auto& [a, b] : edges_) {
        ++indeg_[static_cast<std::size_t>(b)];
        ++succStart_[static_cast<std::size_t>(a) + 1];
    }
    for (std::size_t i = 0; i < N; ++i) succStart_[i + 1] += succStart_[i];
    succ_.assign(edges_.size(), 0);
    {
        std::vector<std::int32_t> fill(succStart_.begin(), succStart_.end() - 1);
        for (const auto& [a, b] : edges_)
            succ_[static_cast<std::size_t>(fill[static_cast<std::size_t>(a)]++)] = b;
    }
}

bool CoChecker::lockOrder() {
    // LAPOR's lb (Def. 3.4) on the edges of the check: if some path leads from the acquire of a
    // critical section to the unlock of another section of its mutex, the two cannot overlap and
    // the second cannot come first, so the first ends before the second begins: an edge from its
    // unlock to the other's acquire. Added up to a fixpoint (an edge makes new paths), these
    // edges refute most inconsistent graphs without the search (an lb cycle), and they are
    // implied by mutual exclusion, so the search stays exact (with less to branch on). Only
    // sections with both ends in the graph: an open one ends later (open-ended) or never.
    const ExecutionGraph& g = *g_;
    const std::size_t T = g.threads.size();
    sections_.clear();
    for (std::size_t t = 0; t < T; ++t) {
        openAcq_.clear();
        const auto& th = g.threads[t];
        for (std::size_t i = 0; i < th.size(); ++i) {
            const Node& n = th[i];
            if (n.placeholder) continue;
            const std::int32_t v = off_[t] + static_cast<std::int32_t>(i);
            if (acquires(n)) {
                openAcq_.emplace_back(n.ev.loc, v);
            } else if (n.ev.kind == EventKind::Unlock) {
                // An unlock closes the latest open section of its mutex.
                for (std::size_t k = openAcq_.size(); k-- > 0;)
                    if (openAcq_[k].first == n.ev.loc) {
                        sections_.push_back(
                            {n.ev.loc, static_cast<std::int32_t>(t), openAcq_[k].second, v});
                        openAcq_.erase(openAcq_.begin() + static_cast<std::ptrdiff_t>(k));
                        break;
                    }
            }
        }
    }
    // Only sections of a mutex that another thread also takes, one bit each (up to 64; beyond,
    // or with very many sections, the search alone decides).
    const std::size_t S = sections_.size();
    if (S < 2 || S > 256) return true;
    contended_.clear();
    for (std::size_t a = 0; a < S; ++a)
        for (std::size_t b = 0; b < S; ++b)
            if (sections_[a].loc == sections_[b].loc &&
                sections_[a].thread != sections_[b].thread) {
                contended_.push_back(sections_[a]);
                break;
            }
    const std::size_t K = contended_.size();
    if (K < 2 || K > 64) return true;
    const std::size_t N = refs_.size();
    ordered_.assign(K * K, 0);
    // A topological order of the graph (none: a cycle, no witness) and, along it, reach_[v]: the
    // sections whose acquire reaches node v (final when v is taken: its predecessors are done).
    kahn_.assign(indeg_.begin(), indeg_.end());
    reach_.assign(N, 0);
    for (std::size_t a = 0; a < K; ++a)
        reach_[static_cast<std::size_t>(contended_[a].acq)] |= std::uint64_t{1} << a;
    bfs_.clear();
    for (std::size_t v = 0; v < N; ++v)
        if (kahn_[v] == 0) bfs_.push_back(static_cast<std::int32_t>(v));
    for (std::size_t h = 0; h < bfs_.size(); ++h) {
        const auto v = static_cast<std::size_t>(bfs_[h]);
        for (auto k = succStart_[v]; k < succStart_[v + 1]; ++k) {
            const auto w = static_cast<std::size_t>(succ_[static_cast<std::size_t>(k)]);
            reach_[w] |= reach_[v];
            if (--kahn_[w] == 0) bfs_.push_back(static_cast<std::int32_t>(w));
        }
    }
    if (bfs_.size() != N) return false;
    // The lb edges, to a fixpoint: each new edge passes its source's bits on (a propagation from
    // its target, not a new pass over the graph). An edge unl(a) -> acq(b) closes a cycle iff
    // acq(b) reaches unl(a) already; every cycle of lb edges goes through one such (the graph
    // without them is acyclic), so checking each edge as it comes, and each pair again as the
    // bits grow, finds the cycles the passes would.
    const std::size_t firstAdded = edges_.size();
    auto propagate = [&](std::int32_t from, std::int32_t to) {
        const std::uint64_t bits = reach_[static_cast<std::size_t>(from)];
        if ((bits & ~reach_[static_cast<std::size_t>(to)]) == 0) return;
        reach_[static_cast<std::size_t>(to)] |= bits;
        bfs_.clear();
        bfs_.push_back(to);
        while (!bfs_.empty()) {
            const auto x = static_cast<std::size_t>(bfs_.back());
            bfs_.pop_back();
            const std::uint64_t rx = reach_[x];
            auto pass = [&](std::int32_t y) {
                auto& ry = reach_[static_cast<std::size_t>(y)];
                if ((rx & ~ry) == 0) return;
                ry |= rx;
                bfs_.push_back(y);
            };
            for (auto k = succStart_[x]; k < succStart_[x + 1]; ++k)
                pass(succ_[static_cast<std::size_t>(k)]);
            for (std::size_t e = firstAdded; e < edges_.size(); ++e)
                if (static_cast<std::size_t>(edges_[e].first) == x) pass(edges_[e].second);
        }
    };
    for (bool added = true; added;) {
        added = false;
        for (std::size_t b = 0; b < K; ++b)
            for (std::size_t a = 0; a < K; ++a) {
                if (a == b || ordered_[a * K + b] || contended_[a].loc != contended_[b].loc ||
                    contended_[a].thread == contended_[b].thread ||
                    !((reach_[static_cast<std::size_t>(contended_[b].unl)] >> a) & 1))
                    continue;
                if ((reach_[static_cast<std::size_t>(contended_[a].unl)] >> b) & 1) return false;
                ordered_[a * K + b] = 1;
                edges_.emplace_back(contended_[a].unl, contended_[b].acq);
                propagate(contended_[a].unl, contended_[b].acq);
                added = true;
            }
    }
    if (edges_.size() > firstAdded) csr(N);
    return true;
}

}  // namespace porlab::graph
