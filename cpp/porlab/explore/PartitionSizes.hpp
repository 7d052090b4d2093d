// SPDX-License-Identifier: MIT
// How many classes does a program have under each equivalence? Enumerates every interleaving with
// the naive explorer and counts canonical keys (equiv/Partition.hpp), separately for complete,
// blocked and error traces. Lives with the explorers: equiv/ computes keys from traces alone.
#pragma once

#include <array>

#include "porlab/equiv/Partition.hpp"
#include "porlab/explore/Explorer.hpp"

namespace porlab {

struct PartitionSizes {
    Counts interleavings;
    std::array<Counts, kNumEquivalences> classes{};
    ExploreResult run;  // the naive run (budget flags, time, events)
};

// `opts` budgets apply to the underlying naive run; a budget cut makes the counts lower bounds.
// `preselected`: the thread of the value-centric and data-centric equivalences.
[[nodiscard]] PartitionSizes partitionSizes(const Program& program, ExploreOptions opts = {},
                                            ThreadId preselected = kDefaultPreselectedThread);

}  // namespace porlab
