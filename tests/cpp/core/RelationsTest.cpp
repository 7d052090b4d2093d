// SPDX-License-Identifier: MIT
// Relation matrices of traces (Eigen) and their transitive closures: the closure against a
// plain depth-first reachability on random relations (cycles and self-loops included), and the
// matrices of a small trace against its relations as lists.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "TestPrograms.hpp"
#include "porlab/core/Relations.hpp"
#include "porlab/explore/Explorer.hpp"

using namespace porlab;

namespace {

// reach(i, j): a path of one or more edges from i to j.
RelationMatrix reachability(const RelationMatrix& r) {
    const Eigen::Index n = r.rows();
    RelationMatrix out = RelationMatrix::Zero(n, n);
    for (Eigen::Index s = 0; s < n; ++s) {
        std::vector<Eigen::Index> todo;
        for (Eigen::Index j = 0; j < n; ++j)
            if (r(s, j) && !out(s, j)) {
                out(s, j) = true;
                todo.push_back(j);
            }
        while (!todo.empty()) {
            const Eigen::Index k = todo.back();
            todo.pop_back();
            for (Eigen::Index j = 0; j < n; ++j)
                if (r(k, j) && !out(s, j)) {
                    out(s, j) = true;
                    todo.push_back(j);
                }
        }
    }
    return out;
}

}  // namespace

TEST(Relations, ClosureIsReachabilityOnRandomRelations) {
    std::mt19937 rng(17);
    for (int round = 0; round < 200; ++round) {
        const auto n = static_cast<Eigen::Index>(1 + rng() % 40);
        const double density = (1 + rng() % 8) / 40.0;
        std::bernoulli_distribution edge(density);
        RelationMatrix r(n, n);
        for (Eigen::Index i = 0; i < n; ++i)
            for (Eigen::Index j = 0; j < n; ++j) r(i, j) = edge(rng);
        EXPECT_EQ(transitiveClosure(r), reachability(r)) << "round " << round;
    }
}

TEST(Relations, MatricesOfATraceMatchItsRelationLists) {
    ExploreOptions o;
    o.keepTraces = true;
    const auto res = explore(*testprog::rvfFig1(), "optimal", o);
    ASSERT_FALSE(res.traces.empty());
    for (const Trace& t : res.traces) {
        const auto n = static_cast<Eigen::Index>(t.size());
        const RelationMatrix rf = relationMatrix(t, "rf");
        const auto src = t.readsFrom();
        const auto flat = t.matrix("rf");  // row-major copy of the same
        for (Eigen::Index i = 0; i < n; ++i)
            for (Eigen::Index j = 0; j < n; ++j) {
                EXPECT_EQ(rf(i, j), src[static_cast<std::size_t>(j)] == i);
                EXPECT_EQ(rf(i, j), flat[static_cast<std::size_t>(i * n + j)] != 0);
            }
        const RelationMatrix po = relationMatrix(t, "po");
        for (Eigen::Index i = 0; i < n; ++i)
            for (Eigen::Index j = 0; j < n; ++j)
                EXPECT_EQ(po(i, j), i < j && t[static_cast<std::size_t>(i)].thread ==
                                                 t[static_cast<std::size_t>(j)].thread);
        // hb is transitive, contains po and rf, and the closure of po ∪ rf is inside it.
        const RelationMatrix hb = relationMatrix(t, "hb");
        EXPECT_EQ(transitiveClosure(hb), hb);
        const RelationMatrix porf = transitiveClosure((po.array() || rf.array()).matrix());
        EXPECT_FALSE((porf.array() && !hb.array()).any());
        EXPECT_FALSE((po.array() && !hb.array()).any());
    }
    EXPECT_THROW((void)relationMatrix(res.traces.front(), "sw"), std::invalid_argument);
}
