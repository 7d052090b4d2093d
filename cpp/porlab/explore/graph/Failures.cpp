// SPDX-License-Identifier: MIT
#include "porlab/explore/graph/Failures.hpp"

#include <algorithm>
#include <optional>

#include "porlab/explore/graph/MutexLocks.hpp"
#include "porlab/explore/graph/TaskCodec.hpp"

namespace porlab::graph {

void FailureReports::closePrefix(const ExecutionGraph& g, std::vector<std::int32_t>& upto) {
    // porf-closed (upto comes from porfPrefix) and closed under the co-predecessor of every
    // write: what a write overwrites can decide whether it faults (a write to a dead frame or a
    // freed block), and each write then overwrites the same write as in the whole graph.
    for (bool changed = true; changed;) {
        changed = false;
        for (std::size_t t = 0; t < g.threads.size(); ++t)
            for (std::int32_t i = 0; i < upto[t]; ++i) {
                const Node& n = g.threads[t][static_cast<std::size_t>(i)];
                if (n.placeholder || !writesMemory(n.ev.kind) || n.ev.loc < 0) continue;
                const int k = g.coIndex(Ref{static_cast<std::int32_t>(t), i}, n.ev.loc);
                if (k <= 0) continue;
                const Ref w = g.coAt(n.ev.loc, k - 1);
                if (w.i < upto[static_cast<std::size_t>(w.t)]) continue;
                includePorf(g, w, upto);
                changed = true;
            }
    }
}

void FailureReports::includePorf(const ExecutionGraph& g, Ref w, std::vector<std::int32_t>& upto) {
    g.porfPrefix(w, porfTmp_);
    porfTmp_[static_cast<std::size_t>(w.t)] = w.i + 1;
    for (std::size_t u = 0; u < upto.size(); ++u) upto[u] = std::max(upto[u], porfTmp_[u]);
}

void FailureReports::report(const ExecutionGraph& g, std::span<const Ref> order) {
    // A thread failed right after its last event f (or, failing before its first event, after
    // the spawn that started it). The failure is reachable iff no other failing event is in the
    // prefix it needs: porf(f), closed under co-predecessors of writes (and, LAPOR, the unlocks
    // its witness needs; see mutexPrefixOrder). A witness of that prefix ends with this failure
    // alone; it is replayed (and stops at the failure) for the error trace.
    const auto T = static_cast<ThreadId>(g.threads.size());
    failing_.clear();
    for (ThreadId t = 0; t < T; ++t) {
        if (engine_.execution().status(t) != ThreadStatus::Failed) continue;
        // (Its last event the replay performed: the graph may have more, skipped.)
        Ref f{t, engine_.lastReplayed(t)};
        if (f.i < 0) {
            f = kInitRef;
            for (ThreadId u = 0; u < T; ++u)
                for (std::size_t i = 0; i < g.threads[u].size(); ++i)
                    if (g.threads[u][i].ev.kind == EventKind::Spawn && g.threads[u][i].ev.aux == t)
                        f = Ref{u, static_cast<std::int32_t>(i)};
            if (f.t == kInitThread) continue;
        }
        failing_.push_back(f);
    }
    std::vector<std::int32_t> upto;
    for (const Ref f : failing_) {
        g.porfPrefix(f, upto);
        upto[static_cast<std::size_t>(f.t)] = f.i + 1;
        closePrefix(g, upto);
        auto alone = [&] {
            for (const Ref o : failing_)
                if (!(o == f) && o.i < upto[static_cast<std::size_t>(o.t)]) return false;
            return true;
        };
        if (!alone()) continue;
        order_.clear();
        if (mutex_) {
            if (!mutexPrefixOrder(g, upto, order_) || !alone()) continue;
        } else {
            for (const Ref r : order)
                if (r.i < upto[static_cast<std::size_t>(r.t)]) order_.push_back(r);
        }
        // The same failing prefix (events and reads-from) is part of many maximal graphs:
        // report it once. (The hash is the same in every process: distributed runs count each
        // failing prefix once over all their tasks.)
        std::uint64_t h1 = 0, h2 = 0;
        portablePrefixHash(g, upto, h1, h2);
        if (shared_ ? !shared_(h1, h2) : !seen_.insert({h1, h2}).second) continue;
        if (!engine_.replayOrder(g, order_, /*stopAtFailure=*/true)) return;
        engine_.reportReplayedError();
        if (engine_.reporter().stopped()) return;
    }
}

void FailureReports::reportPrefix(const ExecutionGraph& g, const std::vector<std::int32_t>& upto,
                                  std::span<const Ref> order, ThreadId failing) {
    std::uint64_t h1 = 0, h2 = 0;
    portablePrefixHash(g, upto, h1, h2);
    if (shared_ ? !shared_(h1, h2) : !seen_.insert({h1, h2}).second) return;
    if (!engine_.replayOrder(g, order, /*stopAtFailure=*/true)) return;
    if (engine_.execution().status(failing) == ThreadStatus::Failed) engine_.reportReplayedError();
}

bool FailureReports::mutexPrefixOrder(const ExecutionGraph& g, std::vector<std::int32_t>& upto,
                                      std::vector<Ref>& out) {
    // The prefix grows by the unlocks its witness needs (and what they need), until none does.
    std::optional<Ref> need;
    for (;;) {
        if (!mutex_->prefixWitness(g, upto, out, need)) return false;
        if (!need) return true;
        includePorf(g, *need, upto);
        closePrefix(g, upto);
    }
}

}  // namespace porlab::graph
