// SPDX-License-Identifier: MIT
#include "porlab/equiv/Partition.hpp"

namespace porlab {

namespace {
int slot(TraceStatus s) {
    switch (s) {
    case TraceStatus::Complete: return 0;
    case TraceStatus::Blocked: return 1;
    default: return 2;
    }
}
}  // namespace

void ClassCounter::add(const Trace& t) {
    const int s = slot(t.status());
    // A data race's error trace is the Reporter's witness (the least racing pair of the explored
    // execution's reads-from class, cut after the pair), not the execution explored: executions
    // of different classes can share one witness, so witnesses are counted, never duplicates.
    const auto& ev = t.events();
    const bool witness = !ev.empty() && ev.back().kind == EventKind::Fault &&
                         ev.back().aux == static_cast<std::int32_t>(FaultKind::DataRace);
    for (int e = 0; e < kNumEquivalences; ++e)
        if (!seen_[e][s].insert(traceKey(static_cast<Equivalence>(e), t)).second && !witness)
            ++dups_[e];
}

Counts ClassCounter::classes(Equivalence eq) const {
    const auto& s = seen_[static_cast<int>(eq)];
    return {s[0].size(), s[1].size(), s[2].size()};
}

PartitionSizes partitionSizes(const Program& program, ExploreOptions opts) {
    PartitionSizes out;
    ClassCounter counter;
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
