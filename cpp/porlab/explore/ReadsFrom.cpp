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

namespace porlab {

namespace {

class RfExplorer final : public graph::GraphExplorer {
public:
    RfExplorer(const Program& p, const ExploreOptions& o, ExploreResult& r, bool all)
        : GraphExplorer(p, o, r), all_(all) {}

protected:
    bool accept(const graph::ExecutionGraph& g) override {
        if (all_) return true;
        bool anyPlaceholder = false;
        lim_.resize(g.threads.size());
        for (std::size_t t = 0; t < g.threads.size(); ++t) {
            lim_[t] = static_cast<std::int32_t>(g.threads[t].size());
            anyPlaceholder |= g.stuck(static_cast<ThreadId>(t));
        }
        if (!sc_.check(g, lim_, anyPlaceholder, order_)) return false;  // cannot happen: g is consistent
        // The witness's write order per location must be g's co.
        pos_.assign(g.co.size(), 0);
        for (graph::Ref r : order_) {
            const graph::Node& n = g.at(r);
            if (!writesMemory(n.ev.kind)) continue;
            const auto loc = static_cast<std::size_t>(n.ev.loc);
            const auto& c = g.co[loc];
            if (pos_[loc] >= c.size() || !(c[pos_[loc]] == r)) return false;
            ++pos_[loc];
        }
        return true;
    }
    void addStats() override {
        result_.stats["sc_searches"] = static_cast<double>(sc_.searches);
        result_.stats["sc_states"] = static_cast<double>(sc_.states);
    }

private:
    bool all_ = false;
    graph::SCChecker sc_;
    std::vector<std::int32_t> lim_;
    std::vector<graph::Ref> order_;
    std::vector<std::size_t> pos_;
};

}  // namespace

ExploreResult exploreRfGraph(const Program& program, const ExploreOptions& opts) {
    if (opts.conflicts.ifaa) throw InputError("rf-graph does not support IFAA");
    ExploreResult r;
    RfExplorer(program, opts, r, false).run();
    r.explorer = "rf-graph";
    return r;
}

ExploreResult exploreGraph(const Program& program, const ExploreOptions& opts) {
    if (opts.conflicts.ifaa) throw InputError("graph does not support IFAA");
    ExploreResult r;
    RfExplorer(program, opts, r, true).run();
    r.explorer = "graph";
    return r;
}

}  // namespace porlab
