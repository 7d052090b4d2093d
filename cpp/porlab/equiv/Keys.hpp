// SPDX-License-Identifier: MIT
// Canonical keys of traces, one per equivalence: two complete traces get the same key exactly when
// they are equivalent, so "how many classes does this program have under X" is a set size.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "porlab/core/Trace.hpp"

namespace porlab {

// X(Enumerator, "name", "what two equivalent traces share")
#define PORLAB_EQUIVALENCES(X)                                                                     \
    X(Mazurkiewicz, "mazurkiewicz",                                                                \
      "same events, same order of every conflicting pair (locks as read-modify-writes)")           \
    X(MazurkiewiczIfaa, "mazurkiewicz-ifaa",                                                       \
      "as mazurkiewicz, but fetch-and-adds with unused results commute (Godot IFAA)")              \
    X(ReadsFrom, "reads-from", "same events and the same reads-from function")                     \
    X(Rvf, "rvf", "same events, same values, same causal order (po ∪ rf)+ on reads (RVF-SMC)")     \
    X(LockAware, "lock-aware",                                                                     \
      "same events and the same reads-from on memory; lock order not recorded (LAPOR, wo = wb)")   \
    X(LockAwareMo, "lock-aware-mo",                                                                \
      "as lock-aware, plus the coherence order of memory writes (LAPOR, wo = mo)")                 \
    X(ValueCentric, "value-centric",                                                               \
      "as rvf, plus, for a preselected thread thr: each read of thr reads from thr or not alike, " \
      "and every conflicting pair outside thr is ordered alike (VC-DPOR, RVF-SMC §3)")             \
    X(DataCentric, "data-centric",                                                                 \
      "as reads-from, plus every conflicting pair of events outside a preselected thread thr "     \
      "ordered alike (DC-DPOR, RVF-SMC §3)")

enum class Equivalence : std::uint8_t {
#define PORLAB_X(e, s, d) e,
    PORLAB_EQUIVALENCES(PORLAB_X)
#undef PORLAB_X
};

inline constexpr std::string_view kEquivalenceNames[] = {
#define PORLAB_X(e, s, d) s,
    PORLAB_EQUIVALENCES(PORLAB_X)
#undef PORLAB_X
};

inline constexpr std::string_view kEquivalenceDescriptions[] = {
#define PORLAB_X(e, s, d) d,
    PORLAB_EQUIVALENCES(PORLAB_X)
#undef PORLAB_X
};

inline constexpr int kNumEquivalences = static_cast<int>(std::size(kEquivalenceNames));

[[nodiscard]] std::optional<Equivalence> equivalenceFromName(std::string_view name);

struct Key {
    std::uint64_t hi = 0, lo = 0;
    friend bool operator==(const Key&, const Key&) = default;
    friend auto operator<=>(const Key&, const Key&) = default;
};

struct KeyHash {
    std::size_t operator()(const Key& k) const noexcept {
        return static_cast<std::size_t>(k.hi ^ (k.lo * 0x9e3779b97f4a7c15ULL));
    }
};

// The thread `thr` that the value-centric and data-centric equivalences preselect (RVF-SMC §3:
// the Mazurkiewicz order is kept among all the other threads). porlab picks the first thread
// (thread 0: the first thread of a builder program, main of a C program): RVF-SMC Figure 1's
// 7 value-centric classes are those of its first thread. A C program whose main only starts the
// paper's threads has them as threads 1, 2, ...: preselect 1 for the paper's thr1 (no thread
// number fits every program: in other C programs main is the paper's thr1). The other
// equivalences ignore it.
inline constexpr ThreadId kDefaultPreselectedThread = 0;

// 128-bit keys: a collision among 10^9 classes has probability about 10^-21.
[[nodiscard]] Key traceKey(Equivalence eq, const Trace& trace,
                           ThreadId preselected = kDefaultPreselectedThread);
// Every equivalence's key of `trace` (indexed by Equivalence), sharing what they compute alike.
[[nodiscard]] std::array<Key, kNumEquivalences> traceKeys(
    const Trace& trace, ThreadId preselected = kDefaultPreselectedThread);

// A canonical representative of the Mazurkiewicz class: the lexicographically least (by thread
// id) linearisation of happens-before, as positions into the trace.
[[nodiscard]] std::vector<int> canonicalLinearization(const Trace& trace, ConflictRelation c);

}  // namespace porlab
