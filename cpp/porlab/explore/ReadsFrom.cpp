// SPDX-License-Identifier: MIT
// rf: reads-from stateless model checking on the graph engine (explore/graph/GraphExplorer):
// the goal is one complete trace per reads-from class (same events, same reads-from function,
// locks as read-modify-writes of their mutex) under sequential consistency.
// NOT YET COMPLETE, hence not registered: it never reports a class twice nor an unreachable
// state, but the revisit condition is too strict when a read-modify-write that kept events read
// from must be revisited, and some classes (with their outcomes) are missed.
#include "porlab/core/Errors.hpp"
#include "porlab/explore/Explorer.hpp"
#include "porlab/explore/graph/GraphExplorer.hpp"

namespace porlab {

ExploreResult exploreRf(const Program& program, const ExploreOptions& opts) {
    if (opts.conflicts.ifaa) throw InputError("rf does not support IFAA");
    ExploreResult r;
    graph::GraphExplorer(program, opts, r).run();
    r.explorer = "rf";
    return r;
}

}  // namespace porlab
