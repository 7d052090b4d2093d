// SPDX-License-Identifier: MIT
// rf-graph, reads-from on the graph engine: one complete trace per reads-from class (events and
// reads-from, locks as read-modify-writes of their mutex) under sequential consistency. The engine
// enumerates (rf, co) graphs; a graph is reported only when its coherence order is the one of the
// canonical SC witness of its reads-from relation (SCChecker's deterministic search), so each
// reads-from class is reported exactly once, but every (rf, co) graph is explored (the `rf`
// explorer, RvfSmc.cpp, explores one trace per class instead). The `graph` explorer is the engine
// alone: it reports every (rf, co) graph, i.e. one trace per Mazurkiewicz class (locks as
// read-modify-writes).
#include "porlab/core/Errors.hpp"
#include "porlab/explore/Explorer.hpp"
#include "porlab/explore/graph/GraphExplorer.hpp"
#include "porlab/explore/graph/Parallel.hpp"

namespace porlab {

namespace {

class RfExplorer final : public graph::GraphExplorer {
  public:
    RfExplorer(const Program& p, const ExploreOptions& o, ExploreResult& r, bool all)
        : GraphExplorer(p, o, r), all_(all) {}

  protected:
    bool accept(const graph::ExecutionGraph& g) override { return all_ || canonicalCoherence(g); }

  private:
    bool all_ = false;
};

}  // namespace

ExploreResult exploreRfGraph(const Program& program, const ExploreOptions& opts) {
    if (opts.conflicts.ifaa) throw InputError("rf-graph does not support IFAA");
    ExploreResult r;
    if (graph::usesWorkPool(opts))
        r = graph::exploreParallel(opts, [&](const ExploreOptions& o, ExploreResult& wr) {
            return std::make_unique<RfExplorer>(program, o, wr, false);
        });
    else
        RfExplorer(program, opts, r, false).run();
    r.explorer = "rf-graph";
    return r;
}

ExploreResult exploreGraph(const Program& program, const ExploreOptions& opts) {
    if (opts.conflicts.ifaa) throw InputError("graph does not support IFAA");
    ExploreResult r;
    if (graph::usesWorkPool(opts))
        r = graph::exploreParallel(opts, [&](const ExploreOptions& o, ExploreResult& wr) {
            return std::make_unique<RfExplorer>(program, o, wr, true);
        });
    else
        RfExplorer(program, opts, r, true).run();
    r.explorer = "graph";
    return r;
}

}  // namespace porlab
