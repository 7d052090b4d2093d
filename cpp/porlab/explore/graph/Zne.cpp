// SPDX-License-Identifier: MIT
#include "porlab/explore/graph/Zne.hpp"

#include <algorithm>
#include <optional>

#include "porlab/core/Errors.hpp"

namespace porlab::graph {

ZnePolicy::ZnePolicy(Engine& engine, const ExploreOptions& opts) : engine_(engine) {
    const auto zne = opts.option<std::string>("zne", "graph");
    mode_ = zne == "paper" ? Mode::Paper : zne == "off" ? Mode::Off : Mode::Strict;
}

void ZnePolicy::addStats(ExploreResult& r) const {
    if (!blocked_) return;
    r.stats["zne_blocked"] = static_cast<double>(blocked_);
    r.stats["zne_invalidated"] = static_cast<double>(invalidated_);
    r.stats["zne_unjustified_revisits"] = static_cast<double>(unjustified_);
}

void ZnePolicy::check(ExecutionGraph& g, Ref a, std::vector<Node>& removed) {
    bool any = false;
    for (const auto& th : g.threads) any = any || (!th.empty() && th.back().zne);
    if (!any) return;
    const Node e = g.at(a);
    if (e.placeholder || e.zne) return;
    // (i) a write to the location other than a fetch-and-add: it could come between the
    // increment and the decrement, which then no longer cancel.
    const bool foreign = writesMemory(e.ev.kind) && e.ev.kind != EventKind::FetchAdd;
    // (ii) a read of the increment by another thread. Algorithm 2 waits for a second read of
    // it, but one read is enough to lose states: the reader may act on the intermediate value
    // (a failed CAS or fetch-and-add) while the blocked thread, in the original program, goes on
    // after its decrement. tests/python/test_saver.py::test_one_observer_of_the_increment
    // has such a program; so (zne=strict) the marker is invalidated as soon as another thread
    // reads w. zne=paper keeps Algorithm 2: only when some other read also reads rf(e).
    if (!foreign && !readsMemory(e.ev.kind)) return;
    if (!foreign && mode_ == Mode::Paper) {
        bool shared = false;
        for (std::size_t u = 0; u < g.threads.size() && !shared; ++u)
            for (std::size_t i = 0; i < g.threads[u].size() && !shared; ++i) {
                const Node& n = g.threads[u][i];
                shared = !(Ref{static_cast<std::int32_t>(u), static_cast<std::int32_t>(i)} == a) &&
                         !n.placeholder && !n.zne && readsMemory(n.ev.kind) &&
                         n.ev.loc == e.ev.loc && n.rf == e.rf;
            }
        if (!shared) return;
    }
    for (std::size_t u = 0; u < g.threads.size(); ++u) {
        auto& th = g.threads[u];
        if (th.empty() || !th.back().zne || th.back().ev.loc != e.ev.loc) continue;
        if (!foreign && (!(th.back().rf == e.rf) ||
                         (mode_ == Mode::Strict && static_cast<std::size_t>(a.t) == u)))
            continue;
        g.zneDone[u].push_back(static_cast<std::int32_t>(th.size()) - 1);
        removed.push_back(th.back());
        g.pop(static_cast<ThreadId>(u));
        ++invalidated_;
    }
}

bool ZnePolicy::justifiedRevisit(const ExecutionGraph& g) {
    for (std::size_t w = 0; w < g.threads.size(); ++w) {
        const auto& th = g.threads[w];
        for (const std::int32_t p : g.zneDone[w]) {
            if (static_cast<std::size_t>(p) >= th.size()) continue;
            const LocId loc = th[static_cast<std::size_t>(p)].ev.loc;
            Ref inc{kInitThread, 0};  // the increment the decrement at p cancels
            for (std::int32_t k = p - 1; k >= 0 && inc.t == kInitThread; --k)
                if (!th[static_cast<std::size_t>(k)].placeholder &&
                    writesMemory(th[static_cast<std::size_t>(k)].ev.kind))
                    inc = Ref{static_cast<std::int32_t>(w), k};
            int readers = 0;
            bool foreign = false;
            for (std::size_t u = 0; u < g.threads.size() && !foreign; ++u)
                for (const Node& n : g.threads[u]) {
                    if (n.placeholder || n.zne || n.ev.loc != loc) continue;
                    foreign =
                        foreign || (writesMemory(n.ev.kind) && n.ev.kind != EventKind::FetchAdd);
                    if (readsMemory(n.ev.kind) && n.rf == inc && (mode_ == Mode::Paper || u != w))
                        ++readers;
                }
            if (!foreign && readers < (mode_ == Mode::Paper ? 2 : 1)) {
                ++unjustified_;
                return false;
            }
        }
    }
    return true;
}

std::optional<Step> ZnePolicy::add(ExecutionGraph& g, ThreadId t, const Event& p,
                                   std::size_t depth) {
    auto& th = g.threads[static_cast<std::size_t>(t)];
    const auto i = static_cast<std::int32_t>(th.size());
    const auto& done = g.zneDone[static_cast<std::size_t>(t)];
    if (mode_ == Mode::Off) return std::nullopt;
    if (std::find(done.begin(), done.end(), i) != done.end())
        return std::nullopt;  // invalidated here
    auto added = [](const Event& e) -> std::optional<Value> {
        if (e.kind != EventKind::FetchAdd) return std::nullopt;
        if (e.rmwOp == RmwOp::Add) return e.operand;
        if (e.rmwOp == RmwOp::Sub) return -e.operand;
        return std::nullopt;
    };
    // The increment: the thread's last write (the pass allows only pure steps in between).
    Ref inc{kInitThread, 0};
    for (std::int32_t k = i - 1; k >= 0 && inc.t == kInitThread; --k)
        if (!th[static_cast<std::size_t>(k)].placeholder &&
            writesMemory(th[static_cast<std::size_t>(k)].ev.kind))
            inc = Ref{t, k};
    if (inc.t == kInitThread) return std::nullopt;
    const Event& ie = g.at(inc).ev;
    const auto di = added(ie), dp = added(p);
    if (ie.loc != p.loc || !di || !dp || *dp == 0 || *di != -*dp) return std::nullopt;
    // The validity check on the graph as it stands (events added before the marker count too).
    int readers = 0;
    for (std::size_t u = 0; u < g.threads.size(); ++u)
        for (const Node& n : g.threads[u]) {
            if (n.placeholder || n.zne || n.ev.loc != p.loc) continue;
            if (writesMemory(n.ev.kind) && n.ev.kind != EventKind::FetchAdd) return std::nullopt;
            if (readsMemory(n.ev.kind) && n.rf == inc &&
                (mode_ == Mode::Paper || static_cast<ThreadId>(u) != t))
                ++readers;
        }
    if (readers >= (mode_ == Mode::Paper ? 2 : 1)) return std::nullopt;
    auto ev = engine_.execution().blockThread(t, BlockCause::Zne);
    if (ev.empty()) return std::nullopt;
    engine_.reporter().countEvent();
    ++blocked_;
    Node n;
    n.ev = ev[0];
    n.ev.loc = p.loc;
    n.rf = inc;
    n.zne = true;
    return addMarker(g, t, n, depth);
}

Step ZnePolicy::addMarker(ExecutionGraph& g, ThreadId t, Node n, std::size_t depth) {
    const Ref a{t, static_cast<std::int32_t>(g.threads[static_cast<std::size_t>(t)].size())};
    n.stamp = n.wstamp = g.nextStamp++;
    g.push(t, n);
    co_await engine_.proceed(g, a, true, depth);
    g.pop(t);
    --g.nextStamp;
}

}  // namespace porlab::graph
