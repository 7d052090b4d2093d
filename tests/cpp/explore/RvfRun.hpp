// SPDX-License-Identifier: MIT
// Shared by the rf/rvf random-program tests: one RvfSmc run whose exception is a test failure.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <exception>

#include "porlab/explore/RvfSmc.hpp"

namespace porlab::testrvf {

// Runs RvfSmc(p, opts, r, ro). An exception (a checkPatches/checkRefutations finding, or a bug)
// counts in `bad` and is reported for the first five seeds; the caller skips that program.
inline bool runRvfSmc(const Program& p, const ExploreOptions& opts, ExploreResult& r,
                      const rvfsmc::RvfOptions& ro, std::uint64_t seed, int& bad) {
    try {
        rvfsmc::RvfSmc(p, opts, r, ro).run();
        return true;
    } catch (const std::exception& e) {
        if (++bad <= 5) ADD_FAILURE() << "seed " << seed << ": " << e.what();
        return false;
    }
}

}  // namespace porlab::testrvf
