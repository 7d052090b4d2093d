// SPDX-License-Identifier: MIT
#include "porlab/explore/graph/ExecutionGraph.hpp"

#include <algorithm>
#include <cstring>
#include <sstream>

namespace porlab::graph {

Event withReadValue(const Node& n, Value v) {
    Event e = n.ev;
    e.rval = v;
    switch (e.kind) {
        case EventKind::FetchAdd:
            e.wval = rmwResult(e, v);
            break;
        case EventKind::CasSuccess:
        case EventKind::CasFailure:
            if (v == e.operand) {
                e.kind = EventKind::CasSuccess;
                e.wval = n.casWval;
            } else {
                e.kind = EventKind::CasFailure;
                e.wval = 0;
            }
            break;
        case EventKind::Lock:
            e.wval = 1;
            break;
        default:
            break;
    }
    return e;
}

void ExecutionGraph::init(int numThreads, std::vector<Value> initialValues) {
    threads.resize(static_cast<std::size_t>(numThreads));
    for (auto& t : threads) t.clear();
    views_.assign(threads.size(), {});
    width_ = threads.size();
    lockBalance_.assign(threads.size(), 0);
    open_.assign(threads.size(), {});
    closed_.assign(threads.size(), {});
    spawner_.assign(threads.size(), kInitRef);
    initial = std::move(initialValues);
    co.clear();  // grows with ensureLoc: C programs reserve thousands of locations they never use
    nextStamp = 1;
    zneDone.assign(threads.size(), {});
}

void ExecutionGraph::joinView(std::int32_t* out, Ref p) const {
    const std::int32_t* v = viewOf(p);
    for (std::size_t u = 0; u < width_; ++u) out[u] = std::max(out[u], v[u]);
    auto& own = out[static_cast<std::size_t>(p.t)];
    own = std::max(own, p.i + 1);
}

Ref ExecutionGraph::spawnerOf(ThreadId t) const {
    const std::size_t T = threads.size();
    auto spawns = [&](Ref r) {
        if (r.t == kInitThread) return false;
        if (static_cast<std::size_t>(r.i) >= threads[static_cast<std::size_t>(r.t)].size())
            return false;
        const Event& e = at(r).ev;
        return e.kind == EventKind::Spawn && e.aux == t;
    };
    if (const Ref c = spawner_[static_cast<std::size_t>(t)]; spawns(c)) return c;
    // Not cached (the spawn was deleted and added again): the last spawn of t, as a scan finds it.
    Ref found = kInitRef;
    for (std::size_t u = 0; u < T; ++u)
        for (std::size_t j = 0; j < threads[u].size(); ++j) {
            const Event& e = threads[u][j].ev;
            if (e.kind == EventKind::Spawn && e.aux == t)
                found = Ref{static_cast<std::int32_t>(u), static_cast<std::int32_t>(j)};
        }
    return found;
}

void ExecutionGraph::computeView(ThreadId t, std::int32_t i, std::int32_t* out) const {
    // The union of the prefixes of the direct predecessors (each closed already) and the
    // predecessors themselves: the edges porf follows, exactly (a placeholder has none but po).
    std::fill_n(out, width_, 0);
    if (i > 0) joinView(out, Ref{t, i - 1});
    const Node& n = threads[static_cast<std::size_t>(t)][static_cast<std::size_t>(i)];
    if (n.placeholder) return;
    if (readsMemory(n.ev.kind) && n.rf.t != kInitThread) joinView(out, n.rf);
    if (n.ev.kind == EventKind::Join && n.ev.aux >= 0) {
        const auto& ch = threads[static_cast<std::size_t>(n.ev.aux)];
        if (!ch.empty()) joinView(out, Ref{n.ev.aux, static_cast<std::int32_t>(ch.size()) - 1});
    }
    if (i == 0)
        if (const Ref sp = spawnerOf(t); sp.t != kInitThread) joinView(out, sp);
}

void ExecutionGraph::lockNodeAdded(ThreadId t, const Node& n, std::int32_t i) {
    if (n.placeholder) return;
    const auto u = static_cast<std::size_t>(t);
    if (acquires(n)) {
        ++lockBalance_[u];
        open_[u].emplace_back(n.ev.loc, i);
    } else if (n.ev.kind == EventKind::Unlock) {
        --lockBalance_[u];
        auto& o = open_[u];
        Closed c;
        for (std::size_t k = o.size(); k-- > 0;)
            if (o[k].first == n.ev.loc) {
                c.at = static_cast<std::int32_t>(k);
                c.section = o[k];
                o.erase(o.begin() + static_cast<std::ptrdiff_t>(k));
                break;
            }
        closed_[u].push_back(c);
    }
}

void ExecutionGraph::lockNodeRemoved(ThreadId t, const Node& n) {
    if (n.placeholder) return;
    const auto u = static_cast<std::size_t>(t);
    if (acquires(n)) {
        --lockBalance_[u];
        open_[u].pop_back();
    } else if (n.ev.kind == EventKind::Unlock) {
        ++lockBalance_[u];
        const Closed c = closed_[u].back();
        closed_[u].pop_back();
        if (c.at >= 0) open_[u].insert(open_[u].begin() + c.at, c.section);
    }
}

void ExecutionGraph::recountLocks(ThreadId t) {
    const auto u = static_cast<std::size_t>(t);
    lockBalance_[u] = 0;
    open_[u].clear();
    closed_[u].clear();
    const auto& th = threads[u];
    for (std::size_t i = 0; i < th.size(); ++i)
        lockNodeAdded(t, th[i], static_cast<std::int32_t>(i));
}

void ExecutionGraph::push(ThreadId t, const Node& n) {
    auto& th = threads[static_cast<std::size_t>(t)];
    th.push_back(n);
    auto& v = views_[static_cast<std::size_t>(t)];
    v.resize(th.size() * width_);
    const auto i = static_cast<std::int32_t>(th.size()) - 1;
    computeView(t, i, &v[static_cast<std::size_t>(i) * width_]);
    lockNodeAdded(t, n, i);
    const auto child = static_cast<std::size_t>(n.ev.aux);
    if (n.ev.kind == EventKind::Spawn && n.ev.aux >= 0 && child < threads.size())
        spawner_[child] = Ref{t, i};
}

void ExecutionGraph::pop(ThreadId t) {
    auto& th = threads[static_cast<std::size_t>(t)];
    lockNodeRemoved(t, th.back());
    th.pop_back();
    views_[static_cast<std::size_t>(t)].resize(th.size() * width_);
}

void ExecutionGraph::truncate(ThreadId t, std::size_t n) {
    auto& th = threads[static_cast<std::size_t>(t)];
    if (n >= th.size()) return;
    th.resize(n);
    views_[static_cast<std::size_t>(t)].resize(n * width_);
    recountLocks(t);
}

void ExecutionGraph::refreshView(Ref r) {
    auto& v = views_[static_cast<std::size_t>(r.t)];
    computeView(r.t, r.i, &v[static_cast<std::size_t>(r.i) * width_]);
    recountLocks(r.t);
}

void ExecutionGraph::assignPrefix(const ExecutionGraph& g, const std::vector<std::int32_t>& keep) {
    const std::size_t T = g.threads.size();
    width_ = g.width_;
    threads.resize(T);
    views_.resize(T);
    zneDone.resize(T);
    for (std::size_t t = 0; t < T; ++t) {
        const auto n =
            std::min<std::size_t>(static_cast<std::size_t>(keep[t]), g.threads[t].size());
        const auto k = static_cast<std::ptrdiff_t>(n);
        threads[t].assign(g.threads[t].begin(), g.threads[t].begin() + k);
        views_[t].assign(g.views_[t].begin(),
                         g.views_[t].begin() + k * static_cast<std::ptrdiff_t>(width_));
        // positions deleted: their zne is new again
        zneDone[t].clear();
        for (const std::int32_t x : g.zneDone[t])
            if (x < keep[t]) zneDone[t].push_back(x);
    }
    initial = g.initial;
    co.resize(g.co.size());
    for (std::size_t l = 0; l < g.co.size(); ++l) {
        co[l].clear();
        for (const Ref w : g.co[l])
            if (w.i < keep[static_cast<std::size_t>(w.t)]) co[l].push_back(w);
    }
    nextStamp = g.nextStamp;
    spawner_ = g.spawner_;
    lockBalance_.resize(T);
    open_.resize(T);
    closed_.resize(T);
    for (std::size_t t = 0; t < T; ++t) recountLocks(static_cast<ThreadId>(t));
}

int ExecutionGraph::coIndex(Ref w, LocId loc) const {
    if (w.t == kInitThread) return -1;
    const auto& c = co[static_cast<std::size_t>(loc)];
    for (std::size_t i = 0; i < c.size(); ++i)
        if (c[i] == w) return static_cast<int>(i);
    return -1;
}

bool ExecutionGraph::rmwAfter(LocId loc, int p) const {
    const auto& c = co[static_cast<std::size_t>(loc)];
    if (static_cast<std::size_t>(p + 1) >= c.size()) return false;
    const Node& n = at(c[static_cast<std::size_t>(p + 1)]);
    return readsMemory(n.ev.kind) && n.rf == coAt(loc, p);
}

// ---- SC consistency with a coherence order ------------------------------------------------

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
    std::size_t maxLoc = g.initial.size();
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
    for (;;) {
        // A topological order (none: a cycle, no witness).
        kahn_.assign(indeg_.begin(), indeg_.end());
        bfs_.clear();
        for (std::size_t v = 0; v < N; ++v)
            if (kahn_[v] == 0) bfs_.push_back(static_cast<std::int32_t>(v));
        for (std::size_t h = 0; h < bfs_.size(); ++h) {
            const auto v = static_cast<std::size_t>(bfs_[h]);
            for (auto k = succStart_[v]; k < succStart_[v + 1]; ++k)
                if (--kahn_[static_cast<std::size_t>(succ_[static_cast<std::size_t>(k)])] == 0)
                    bfs_.push_back(succ_[static_cast<std::size_t>(k)]);
        }
        if (bfs_.size() != N) return false;
        // reach_[v]: the sections whose acquire reaches node v.
        reach_.assign(N, 0);
        for (std::size_t a = 0; a < K; ++a)
            reach_[static_cast<std::size_t>(contended_[a].acq)] |= std::uint64_t{1} << a;
        for (const auto v : bfs_)
            for (auto k = succStart_[static_cast<std::size_t>(v)];
                 k < succStart_[static_cast<std::size_t>(v) + 1]; ++k)
                reach_[static_cast<std::size_t>(succ_[static_cast<std::size_t>(k)])] |=
                    reach_[static_cast<std::size_t>(v)];
        bool added = false;
        for (std::size_t b = 0; b < K; ++b) {
            const std::uint64_t m = reach_[static_cast<std::size_t>(contended_[b].unl)];
            for (std::size_t a = 0; a < K; ++a) {
                if (a == b || !((m >> a) & 1) || contended_[a].loc != contended_[b].loc ||
                    contended_[a].thread == contended_[b].thread || ordered_[a * K + b])
                    continue;
                ordered_[a * K + b] = 1;
                edges_.emplace_back(contended_[a].unl, contended_[b].acq);
                added = true;
            }
        }
        if (!added) return true;
        csr(N);
    }
}

void ExecutionGraph::porfPrefix(Ref a, std::vector<std::int32_t>& upto) const {
    const std::int32_t* v = viewOf(a);
    upto.assign(v, v + width_);
}

void ExecutionGraph::porfBeforeNext(ThreadId t, std::vector<std::int32_t>& upto) const {
    upto.assign(width_, 0);
    const auto i = static_cast<std::int32_t>(threads[static_cast<std::size_t>(t)].size());
    if (i > 0) {
        joinView(upto.data(), Ref{t, i - 1});
    } else if (const Ref sp = spawnerOf(t); sp.t != kInitThread) {
        joinView(upto.data(), sp);
    }
}

std::string ExecutionGraph::toString() const {
    std::ostringstream o;
    for (std::size_t t = 0; t < threads.size(); ++t) {
        o << "T" << t << ":";
        for (const Node& n : threads[t]) {
            o << " [" << n.stamp << "]" << name(n.ev.kind) << "(" << n.ev.loc << ")";
            if (n.placeholder)
                o << "<-?";
            else if (readsMemory(n.ev.kind)) {
                if (n.rf.t == kInitThread)
                    o << "<-init";
                else
                    o << "<-" << n.rf.t << "." << n.rf.i;
            }
        }
        o << "\n";
    }
    for (std::size_t l = 0; l < co.size(); ++l) {
        if (co[l].empty()) continue;
        o << "co(" << l << "):";
        for (Ref w : co[l]) o << " " << w.t << "." << w.i;
        o << "\n";
    }
    return o.str();
}

// ---- SC consistency -----------------------------------------------------------------------

bool SCChecker::check(const ExecutionGraph& g, const std::vector<std::int32_t>& lim,
                      bool placeholders, std::vector<Ref>& order) {
    ++searches;
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
    readersLeft_.assign(static_cast<std::size_t>(off_[T]), 0);
    holder_.assign(g.initial.size(), -1);
    pendingObs_.assign(static_cast<std::size_t>(off_[T]), 0);
    initReaders_.assign(g.initial.size(), 0);
    cur_.assign(g.initial.size(), -1);
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
    const bool ok = dfs() && !interrupted_;
    order.clear();
    if (ok)
        for (const auto& [r, prev] : trail_) order.push_back(r);
    return ok;
}

void SCChecker::finals(const ExecutionGraph& g, const std::vector<std::int32_t>& lim,
                       bool placeholders, std::vector<std::vector<Value>>& out) {
    out.clear();
    enumerate_ = true;
    finals_ = &out;
    std::vector<Ref> order;
    (void)check(g, lim, placeholders, order);
    enumerate_ = false;
    finals_ = nullptr;
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

bool SCChecker::isMutexEvent(const Node& n) const {
    return mutexLocks &&
           (n.ev.kind == EventKind::Lock || n.ev.kind == EventKind::Unlock || n.trylock);
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
    } else if (c >= 0 && kill_[static_cast<std::size_t>(c)]) {
        return false;  // a plain write after a kill of its location faults
    }
    return left == 0;
}

bool SCChecker::step(ThreadId t, bool) {
    const Ref r{t, pos_[t]};
    const Node& n = g_->threads[t][static_cast<std::size_t>(pos_[t])];
    std::int32_t prev = 0;
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
    if (writesMemory(n.ev.kind)) {
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
    if (isMutexEvent(n)) {
        holder_[static_cast<std::size_t>(n.ev.loc)] = prev;
        if (observesHeld(n)) ++pendingObs_[static_cast<std::size_t>(flat(n.rf))];
        return;
    }
    if (writesMemory(n.ev.kind)) cur_[static_cast<std::size_t>(n.ev.loc)] = prev;
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
            if (std::find(finals_->begin(), finals_->end(), mem) == finals_->end())
                finals_->push_back(std::move(mem));
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
        step(t, true);
        if (dfs()) return true;
        undo();
    }
    key(keyBuf_);
    failed_.insert(keyBuf_);
    rollback();
    return false;
}

}  // namespace porlab::graph
