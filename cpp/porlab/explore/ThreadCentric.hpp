// SPDX-License-Identifier: MIT
// Explorers of the value-centric and data-centric equivalences (RVF-SMC §3), both with thread 0
// preselected (equiv/Keys.hpp, kDefaultPreselectedThread).
#pragma once

#include "porlab/explore/Explorer.hpp"

namespace porlab {

// One trace per value-centric class: the Mazurkiewicz classes are explored (optimal) and the
// first trace of each value-centric class is reported.
ExploreResult exploreValueCentric(const Program& program, const ExploreOptions& opts);
// One trace per data-centric class, likewise.
ExploreResult exploreDataCentric(const Program& program, const ExploreOptions& opts);

}  // namespace porlab
