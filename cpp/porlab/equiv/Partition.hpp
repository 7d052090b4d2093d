// SPDX-License-Identifier: MIT
// Counting classes: how many distinct canonical keys the traces given have under each
// equivalence, separately for complete, blocked and error traces. Keys come from the traces
// alone; enumerating a program's traces is the explorers' business (explore/PartitionSizes.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <unordered_set>

#include "porlab/equiv/Keys.hpp"

namespace porlab {

struct Counts {
    std::uint64_t complete = 0, blocked = 0, errors = 0;
    [[nodiscard]] std::uint64_t total() const { return complete + blocked + errors; }
};

// Counts the classes of the traces an explorer reports, for the conformance checks: optimal
// explorers must report every class exactly once. `preselected` is the thread the value-centric
// and data-centric equivalences preselect.
// Where a trace of this status is counted: 0 complete, 1 blocked, 2 error.
[[nodiscard]] inline int statusSlot(TraceStatus s) {
    switch (s) {
        case TraceStatus::Complete:
            return 0;
        case TraceStatus::Blocked:
            return 1;
        default:
            return 2;
    }
}

class ClassCounter {
  public:
    explicit ClassCounter(ThreadId preselected = kDefaultPreselectedThread)
        : preselected_(preselected) {}
    void add(const Trace& t);
    [[nodiscard]] Counts classes(Equivalence eq) const;
    // How many reported traces fell into an already-seen class (data-race witnesses excepted).
    [[nodiscard]] std::uint64_t duplicates(Equivalence eq) const {
        return dups_[static_cast<int>(eq)];
    }
    // Is `t` a data race's error trace (the Reporter's witness, not the execution explored)?
    [[nodiscard]] static bool isRaceWitness(const Trace& t);

  private:
    ThreadId preselected_;
    std::array<std::array<std::unordered_set<Key, KeyHash>, 3>, kNumEquivalences> seen_;
    std::array<std::uint64_t, kNumEquivalences> dups_{};
};

}  // namespace porlab
