// SPDX-License-Identifier: MIT
#include "porlab/equiv/Partition.hpp"

namespace porlab {

namespace {
int slot(TraceStatus s) {
    switch (s) {
        case TraceStatus::Complete:
            return 0;
        case TraceStatus::Blocked:
            return 1;
        default:
            return 2;
    }
}
}  // namespace

bool ClassCounter::isRaceWitness(const Trace& t) {
    const auto& ev = t.events();
    return !ev.empty() && ev.back().kind == EventKind::Fault &&
           ev.back().aux == static_cast<std::int32_t>(FaultKind::DataRace);
}

void ClassCounter::add(const Trace& t) {
    const int s = slot(t.status());
    // A data race's error trace is the Reporter's witness (the least racing pair of the explored
    // execution's reads-from class, cut after the pair), not the execution explored: executions
    // of different classes can share one witness, so witnesses are counted, never duplicates.
    const bool witness = isRaceWitness(t);
    const auto keys = traceKeys(t, preselected_);
    for (std::size_t e = 0; e < keys.size(); ++e)
        if (!seen_[e][s].insert(keys[e]).second && !witness) ++dups_[e];
}

Counts ClassCounter::classes(Equivalence eq) const {
    const auto& s = seen_[static_cast<int>(eq)];
    return {s[0].size(), s[1].size(), s[2].size()};
}

}  // namespace porlab
