// SPDX-License-Identifier: MIT
// lapor: lock-aware exploration (Kokologiannakis et al., OOPSLA'19; ALGORITHMS.md §3) on the
// graph engine. Locks are not read-modify-writes: lock and unlock events carry no reads-from and
// are in no coherence order, they never block the exploration, and mutual exclusion is part of
// consistency (some SC witness keeps the critical sections of each mutex apart). As in LAPOR's
// nextEvent, a thread inside an open critical section is extended first.
//
// What is counted (option coherence):
//  * coherence = "mo": one trace per (memory reads-from, memory coherence) graph: the
//    `lock-aware-mo` equivalence (w+w+LOCK: 2);
//  * coherence = "wb" (default, as GenMC/LAPOR): one trace per memory reads-from graph: the
//    `lock-aware` equivalence (w+w+LOCK: 1). The engine still enumerates coherence orders; of
//    the graphs of one class only the one whose coherence is that of the class's canonical SC
//    witness is reported (the others are counted in stats["graphs_not_reported"]).
#include "porlab/core/Errors.hpp"
#include "porlab/explore/Explorer.hpp"
#include "porlab/explore/graph/GraphExplorer.hpp"

namespace porlab {

namespace {

class LaporExplorer final : public graph::GraphExplorer {
public:
    LaporExplorer(const Program& p, const ExploreOptions& o, ExploreResult& r) : GraphExplorer(p, o, r) {
        useMutexLocks();
        if (auto it = o.params.find("coherence"); it != o.params.end()) {
            if (it->second == "mo") mo_ = true;
            else if (it->second != "wb")
                throw InputError("lapor: coherence must be 'wb' or 'mo', not '" + it->second + "'");
        }
    }

protected:
    ThreadId nextThread(const graph::ExecutionGraph& g) override {
        const int n = exec_->maxThreads();
        ThreadId first = -1;
        for (ThreadId t = 0; t < n; ++t) {
            if (!canMove(g, t)) continue;
            if (holdsLock(g, t)) return t;  // inside an open critical section: first
            if (first < 0) first = t;
        }
        return first;
    }

    bool accept(const graph::ExecutionGraph& g) override { return mo_ || canonicalCoherence(g); }

private:
    bool mo_ = false;
};

}  // namespace

ExploreResult exploreLapor(const Program& program, const ExploreOptions& opts) {
    if (opts.conflicts.ifaa) throw InputError("lapor does not support IFAA");
    ExploreResult r;
    LaporExplorer(program, opts, r).run();
    r.explorer = "lapor";
    return r;
}

}  // namespace porlab
