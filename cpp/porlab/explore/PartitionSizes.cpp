// SPDX-License-Identifier: MIT
#include "porlab/explore/PartitionSizes.hpp"

namespace porlab {

PartitionSizes partitionSizes(const Program& program, ExploreOptions opts, ThreadId preselected) {
    PartitionSizes out;
    ClassCounter counter(preselected);
    auto user = opts.onTrace;
    opts.onTrace = [&](const Trace& t) {
        counter.add(t);
        if (user) user(t);
    };
    // Through explore(): a front end's driver (e.g. C programs with --nondet-domain, one run per
    // input assignment) sees every input, and labels the traces with it.
    out.run = explore(program, "naive", opts);
    out.run.explorer = "naive";
    out.interleavings = {out.run.complete, out.run.blocked, out.run.errors};
    for (int e = 0; e < kNumEquivalences; ++e)
        out.classes[e] = counter.classes(static_cast<Equivalence>(e));
    return out;
}

}  // namespace porlab
