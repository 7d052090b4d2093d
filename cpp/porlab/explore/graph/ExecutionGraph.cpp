// SPDX-License-Identifier: MIT
#include "porlab/explore/graph/ExecutionGraph.hpp"

#include <algorithm>
#include <cstring>
#include <sstream>

namespace porlab::graph {

void ExecutionGraph::growLocs(std::size_t n) {
    if (n > co.size()) co.resize(n);
    if (n > initial.size()) initial.resize(n, 0);
}

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
    writes_.clear();
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

void ExecutionGraph::indexWrites(bool on) {
    indexWrites_ = on;
    writes_.clear();
    if (!on) return;
    for (std::size_t t = 0; t < threads.size(); ++t)
        for (std::size_t i = 0; i < threads[t].size(); ++i)
            writeAdded(static_cast<ThreadId>(t), threads[t][i], static_cast<std::int32_t>(i));
}

void ExecutionGraph::writeAdded(ThreadId t, const Node& n, std::int32_t i) {
    if (!indexWrites_ || !writesMemory(n.ev.kind) || n.ev.loc < 0) return;
    const auto l = static_cast<std::size_t>(n.ev.loc);
    if (writes_.size() <= l) writes_.resize(l + 1);
    auto& byThread = writes_[l];
    if (byThread.size() < threads.size()) byThread.resize(threads.size());
    byThread[static_cast<std::size_t>(t)].push_back(i);
}

void ExecutionGraph::writeRemoved(ThreadId t, const Node& n, std::int32_t i) {
    // (Whatever its kind now: an entry is removed with its node.)
    const auto l = static_cast<std::size_t>(n.ev.loc);
    if (!indexWrites_ || n.ev.loc < 0 || l >= writes_.size() ||
        static_cast<std::size_t>(t) >= writes_[l].size())
        return;
    auto& v = writes_[l][static_cast<std::size_t>(t)];
    if (!v.empty() && v.back() == i) v.pop_back();
}

void ExecutionGraph::push(ThreadId t, const Node& n) {
    auto& th = threads[static_cast<std::size_t>(t)];
    th.push_back(n);
    auto& v = views_[static_cast<std::size_t>(t)];
    v.resize(th.size() * width_);
    const auto i = static_cast<std::int32_t>(th.size()) - 1;
    computeView(t, i, &v[static_cast<std::size_t>(i) * width_]);
    lockNodeAdded(t, n, i);
    writeAdded(t, n, i);
    const auto child = static_cast<std::size_t>(n.ev.aux);
    if (n.ev.kind == EventKind::Spawn && n.ev.aux >= 0 && child < threads.size())
        spawner_[child] = Ref{t, i};
}

void ExecutionGraph::pop(ThreadId t) {
    auto& th = threads[static_cast<std::size_t>(t)];
    lockNodeRemoved(t, th.back());
    writeRemoved(t, th.back(), static_cast<std::int32_t>(th.size()) - 1);
    th.pop_back();
    views_[static_cast<std::size_t>(t)].resize(th.size() * width_);
}

void ExecutionGraph::truncate(ThreadId t, std::size_t n) {
    auto& th = threads[static_cast<std::size_t>(t)];
    if (n >= th.size()) return;
    for (std::size_t i = th.size(); i-- > n;) writeRemoved(t, th[i], static_cast<std::int32_t>(i));
    th.resize(n);
    views_[static_cast<std::size_t>(t)].resize(n * width_);
    recountLocks(t);
}

void ExecutionGraph::refreshView(Ref r) {
    auto& v = views_[static_cast<std::size_t>(r.t)];
    computeView(r.t, r.i, &v[static_cast<std::size_t>(r.i) * width_]);
    recountLocks(r.t);
    // Its kind may have changed (a revisited CAS succeeds or fails now): index it again.
    const Node& n = at(r);
    writeRemoved(r.t, n, r.i);
    writeAdded(r.t, n, r.i);
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
    // The initial values of the locations g uses (co's size: ensureLoc). The others are set by
    // ensureLocation before any use; copying a C program's whole table (thousands of locations)
    // per revisit was most of the cost of a revisit on small graphs.
    if (initial.size() != g.initial.size())
        initial = g.initial;
    else
        std::copy_n(g.initial.begin(), std::min(g.co.size(), g.initial.size()), initial.begin());
    co.resize(g.co.size());
    for (std::size_t l = 0; l < g.co.size(); ++l) {
        co[l].clear();
        for (const Ref w : g.co[l])
            if (w.i < keep[static_cast<std::size_t>(w.t)]) co[l].push_back(w);
    }
    indexWrites_ = g.indexWrites_;
    writes_.resize(g.writes_.size());  // (empty when not indexed)
    for (std::size_t l = 0; l < g.writes_.size(); ++l) {
        const auto& from = g.writes_[l];
        auto& to = writes_[l];
        to.resize(from.size());
        for (std::size_t t = 0; t < from.size(); ++t) {
            const auto end = std::lower_bound(from[t].begin(), from[t].end(), keep[t]);
            to[t].assign(from[t].begin(), end);
        }
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

}  // namespace porlab::graph
