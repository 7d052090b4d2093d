// SPDX-License-Identifier: MIT
// How many classes does a program have under each equivalence? Enumerates every interleaving with
// the naive explorer and counts canonical keys, separately for complete, blocked and error traces.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "porlab/equiv/Keys.hpp"
#include "porlab/explore/Explorer.hpp"

namespace porlab {

struct Counts {
    std::uint64_t complete = 0, blocked = 0, errors = 0;
    [[nodiscard]] std::uint64_t total() const { return complete + blocked + errors; }
};

struct PartitionSizes {
    Counts interleavings;
    std::array<Counts, kNumEquivalences> classes{};
    ExploreResult run;  // the naive run (budget flags, time, events)
};

// `opts` budgets apply to the underlying naive run; a budget cut makes the counts lower bounds.
[[nodiscard]] PartitionSizes partitionSizes(const Program& program, ExploreOptions opts = {});

// Counts the classes of the traces an explorer reports, for the conformance checks: optimal
// explorers must report every class exactly once.
class ClassCounter {
public:
    void add(const Trace& t);
    [[nodiscard]] Counts classes(Equivalence eq) const;
    // How many reported traces fell into an already-seen class (data-race witnesses excepted).
    [[nodiscard]] std::uint64_t duplicates(Equivalence eq) const { return dups_[static_cast<int>(eq)]; }

private:
    std::array<std::array<std::unordered_set<Key, KeyHash>, 3>, kNumEquivalences> seen_;
    std::array<std::uint64_t, kNumEquivalences> dups_{};
};

}  // namespace porlab
