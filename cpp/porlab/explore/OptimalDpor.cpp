// SPDX-License-Identifier: MIT
// Optimal-DPOR with wakeup trees and sleep sets (Abdulla et al., POPL'14 / JACM'17), extended to
// awaits, locks and joins as OPTIMAL-DPOR-AWAIT (Godot §IV, Algorithm 1): non-blocking races
// (Def. 2), blocking races by maximal hb-prefixes, weak initials requiring enabledness,
// Insert with WI_[E'.u](v), the can-stop/did-insert break, and IFAA via opts.conflicts.ifaa.
// `optimal` and `optimal-await` are the same engine (DporEngine.cpp): Optimal-DPOR is
// Optimal-DPOR-Await on programs without awaits.
#include "porlab/explore/DporEngine.hpp"

namespace porlab {

ExploreResult exploreOptimal(const Program& program, const ExploreOptions& opts) {
    return dpor::run(program, opts, dpor::Mode::Optimal);
}

ExploreResult exploreOptimalAwait(const Program& program, const ExploreOptions& opts) {
    return dpor::run(program, opts, dpor::Mode::Optimal);
}

}  // namespace porlab
