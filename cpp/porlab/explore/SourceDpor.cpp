// SPDX-License-Identifier: MIT
// Source-DPOR with sleep sets (Abdulla, Aronis, Jonsson, Sagonas, POPL'14 / JACM'17): races are
// reversed by adding one initial of the reversing sequence to the source set of the prefix.
// Sound and complete for Mazurkiewicz classes (complete and blocked); may explore redundant,
// sleep-set-blocked executions (counted in stats["sleep_blocked"], never reported). Awaits,
// locks and joins get the blocking-race treatment of Optimal-DPOR-Await (see DporEngine.cpp).
#include "porlab/explore/DporEngine.hpp"

namespace porlab {

ExploreResult exploreSource(const Program& program, const ExploreOptions& opts) {
    return dpor::run(program, opts, dpor::Mode::Source);
}

}  // namespace porlab
