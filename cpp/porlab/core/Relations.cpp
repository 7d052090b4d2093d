// SPDX-License-Identifier: MIT
#include "porlab/core/Relations.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace porlab {

RelationMatrix relationMatrix(const Trace& t, std::string_view relation,
                              ConflictRelation conflicts) {
    const auto n = static_cast<Eigen::Index>(t.size());
    auto ev = [&](Eigen::Index i) -> const Event& { return t[static_cast<std::size_t>(i)]; };
    RelationMatrix m = RelationMatrix::Zero(n, n);
    auto set = [&](int i, int j) { m(i, j) = true; };
    auto fromClocks = [&](const std::vector<VectorClock>& vc) {
        for (Eigen::Index i = 0; i < n; ++i)
            for (Eigen::Index j = 0; j < n; ++j)
                if (i != j && vc[static_cast<std::size_t>(j)].covers(ev(i).thread, ev(i).index))
                    m(i, j) = true;
    };
    if (relation == "po") {
        for (Eigen::Index i = 0; i < n; ++i)
            for (Eigen::Index j = i + 1; j < n; ++j)
                if (ev(i).thread == ev(j).thread) m(i, j) = true;
    } else if (relation == "rf") {
        const auto rf = t.readsFrom();
        for (std::size_t j = 0; j < rf.size(); ++j)
            if (rf[j] >= 0) set(rf[j], static_cast<int>(j));
    } else if (relation == "co") {
        for (const auto& ws : t.coherence())
            for (std::size_t a = 0; a < ws.size(); ++a)
                for (std::size_t b = a + 1; b < ws.size(); ++b) set(ws[a], ws[b]);
    } else if (relation == "fr") {
        for (auto [r, w] : t.fromRead()) set(r, w);
    } else if (relation == "hb") {
        fromClocks(t.happensBefore(conflicts));
    } else if (relation == "causal") {
        fromClocks(t.causalOrder());
    } else {
        throw std::invalid_argument("unknown relation '" + std::string(relation) +
                                    "' (expected po, rf, co, fr, hb or causal)");
    }
    return m;
}

std::vector<std::uint8_t> Trace::matrix(const std::string& relation,
                                        ConflictRelation conflicts) const {
    const RelationMatrix m = relationMatrix(*this, relation, conflicts);
    return std::vector<std::uint8_t>(m.data(), m.data() + m.size());
}

RelationMatrix transitiveClosure(RelationMatrix r) {
    if (r.rows() != r.cols()) throw std::invalid_argument("transitiveClosure: matrix not square");
    const Eigen::Index n = r.rows();
    // After step k, r(i, j) says whether j is reachable from i through intermediate nodes < k+1:
    // every row that reaches k gets k's row (a vectorised OR of whole rows).
    for (Eigen::Index k = 0; k < n; ++k)
        for (Eigen::Index i = 0; i < n; ++i)
            if (r(i, k)) r.row(i) = r.row(i).array() || r.row(k).array();
    return r;
}

}  // namespace porlab
