// SPDX-License-Identifier: MIT
// lapor: lock-aware exploration (Kokologiannakis et al., OOPSLA'19; ALGORITHMS.md §3) on the
// graph engine. Locks are not read-modify-writes: lock and unlock events carry no reads-from and
// are in no coherence order, they never block the exploration, and mutual exclusion is part of
// consistency (some SC witness keeps the critical sections of each mutex apart). As in LAPOR's
// nextEvent, a thread inside an open critical section is extended first (only an lb-minimal one;
// a thread outside every section may go before it).
//
// What is counted (option coherence):
//  * coherence = "mo": one trace per (memory reads-from, memory coherence) graph: the
//    `lock-aware-mo` equivalence (w+w+LOCK: 2);
//  * coherence = "wb" (default, as GenMC/LAPOR): one trace per memory reads-from graph: the
//    `lock-aware` equivalence (w+w+LOCK: 1). With wb_graphs = "co-filter" (default) the engine
//    enumerates coherence orders and of the graphs of one class reports only the one whose
//    coherence is that of the class's canonical SC witness (the others are counted in
//    stats["graphs_not_reported"]). With wb_graphs = "rf" (WbGraphs.hpp; exact, but slower
//    than co-filter where reads have many sources) the graphs have no coherence order: one
//    graph per class.
// A lock may also stay blocked for good (option blocked_locks, MutexLocks.hpp): eager (default)
// tries that at every lock, sources only with a critical section that never ends.
#include <utility>
#include <vector>

#include "porlab/core/Errors.hpp"
#include "porlab/explore/Explorer.hpp"
#include "porlab/explore/graph/GraphExplorer.hpp"
#include "porlab/explore/graph/Parallel.hpp"

namespace porlab {

namespace {

class LaporExplorer final : public graph::GraphExplorer {
  public:
    LaporExplorer(const Program& p, const ExploreOptions& o, ExploreResult& r)
        : GraphExplorer(p, o, r) {
        useMutexLocks(o.option<bool>("lock_order", "lapor"),
                      o.option<std::string>("blocked_locks", "lapor") == "sources",
                      o.option<bool>("sections_end", "lapor"));
        mo_ = o.option<std::string>("coherence", "lapor") == "mo";
        rfOnly_ = !mo_ && o.option<std::string>("wb_graphs", "lapor") == "rf";
        if (rfOnly_) useWbGraphs();
    }

  protected:
    ThreadId nextThread(const graph::ExecutionGraph& g) override {
        // LAPOR's nextEvent (condition 4): while critical sections are open, extend one that is
        // lb-minimal among them, or a thread outside every section whose next event accesses
        // memory: the left-most of these. (Among the threads that can move; with none inside a
        // section, the left-most thread.) The paper lets only the lb-minimal section move; a
        // memory access outside sections must also
        // (T0 `lock; r = x; unlock` ∥ T1 `s = x; x = 3` ∥ T2 `lock; x = 4; x = 5; unlock`, r = 3
        // and s = 4: once x = 4 revisits r, T2's section is lb-before T0's, and T2 would add
        // x = 5 before T1 reads: s = 4 is then inconsistent, and x = 3 cannot revisit r (r's
        // maximal source is x = 4), the class was lost: testprog::readBetweenSections). Locks,
        // joins and spawns still wait (a free thread's lock or join first: with blocked_locks =
        // sources nww-lock-rr(8) revisits 1,185 times instead of 28).
        const int n = maxThreads();
        ThreadId first = -1, free = -1;
        bool anyOpen = false;
        for (ThreadId t = 0; t < n; ++t) {
            if (!canMove(g, t)) continue;
            if (first < 0) first = t;
            anyOpen = anyOpen || g.lockBalance(t) > 0;
            if (free < 0 && g.lockBalance(t) == 0 && nextAccessesMemory(t)) free = t;
        }
        if (!anyOpen || free == first) return first;
        const ThreadId m = minimalOpen(g, n);
        if (m < 0) return first;
        return free >= 0 && free < m ? free : m;
    }

    // The open section that is lb-minimal: lb is part of happens-before, so in the witness of
    // the graph an open section lb-after another starts (its lock) after that one's lock: the
    // open section whose lock comes first in the witness. -1: none among the movable threads.
    ThreadId minimalOpen(const graph::ExecutionGraph& g, int n) {
        openLock_.assign(static_cast<std::size_t>(n), -1);  // per thread: its earliest open lock
        int open = 0;
        for (ThreadId t = 0; t < n; ++t) {
            if (!canMove(g, t)) continue;
            // Open sections: acquisitions not yet matched by an unlock of their mutex.
            const auto& sections = g.openSections(t);
            if (!sections.empty()) {
                openLock_[static_cast<std::size_t>(t)] = sections.front().second;
                ++open;
            }
        }
        if (open == 1)  // the only candidate (no need to find the first in the witness)
            for (ThreadId t = 0; t < n; ++t)
                if (openLock_[static_cast<std::size_t>(t)] >= 0) return t;
        for (const graph::Ref r : witness_)
            if (openLock_[static_cast<std::size_t>(r.t)] == r.i) return r.t;
        for (ThreadId t = 0; t < n; ++t)  // not in the witness (not reached)
            if (openLock_[static_cast<std::size_t>(t)] >= 0) return t;
        return -1;
    }

    bool accept(const graph::ExecutionGraph& g) override {
        return mo_ || rfOnly_ || canonicalCoherence(g);
    }

  private:
    bool mo_ = false;
    bool rfOnly_ = false;  // graphs of reads-from only (WbGraphs): one per class, no filter
    std::vector<std::int32_t> openLock_;
};

}  // namespace

ExploreResult exploreLapor(const Program& program, const ExploreOptions& opts) {
    if (opts.conflicts.ifaa) throw InputError("lapor does not support IFAA");
    refuseMutexDestroy(program, "lapor");  // (its locks never block; a destroy needs them to)
    ExploreResult r;
    if (graph::usesWorkPool(opts))
        r = graph::exploreParallel(opts, [&](const ExploreOptions& o, ExploreResult& wr) {
            return std::make_unique<LaporExplorer>(program, o, wr);
        });
    else
        LaporExplorer(program, opts, r).run();
    r.explorer = "lapor";
    return r;
}

}  // namespace porlab
