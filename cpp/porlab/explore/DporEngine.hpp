// SPDX-License-Identifier: MIT
// The shared DPOR engine behind `source`, `optimal` and `optimal-await` (DporEngine.cpp).
#pragma once

#include "porlab/explore/Explorer.hpp"

namespace porlab::dpor {

enum class Mode : std::uint8_t {
    Source,   // Source-DPOR: source sets (backtrack sets of initials) + sleep sets
    Optimal,  // Optimal-DPOR(-Await): wakeup trees + sleep sets
};

// Runs the engine. Parameters read from opts.params:
//   "can_stop" = "0" disables the can-stop/did-insert break of Algorithm 1 (same counts, slower).
[[nodiscard]] ExploreResult run(const Program& program, const ExploreOptions& opts, Mode mode);

}  // namespace porlab::dpor
