// SPDX-License-Identifier: MIT
// A trace's relations as dense boolean matrices over event positions (Eigen), and closures of
// their unions. For people and tests (the Python API hands the matrices to numpy without a
// copy); explorers use vector clocks, which are far cheaper per event.
#pragma once

#include <Eigen/Core>
#include <string_view>

#include "porlab/core/Trace.hpp"

namespace porlab {

// m(i, j) = i R j, row-major (numpy's layout).
using RelationMatrix = Eigen::Matrix<bool, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// The relation po, rf, co, fr, hb (under `conflicts`) or causal of t; std::invalid_argument for
// another name.
[[nodiscard]] RelationMatrix relationMatrix(const Trace& t, std::string_view relation,
                                            ConflictRelation conflicts = {});

// The transitive closure of r (Warshall's algorithm, a row at a time).
[[nodiscard]] RelationMatrix transitiveClosure(RelationMatrix r);

}  // namespace porlab
