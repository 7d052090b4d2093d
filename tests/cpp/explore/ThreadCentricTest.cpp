// SPDX-License-Identifier: MIT
// The value-centric and data-centric explorers against the naive oracle: one reported trace per
// class of their equivalence (complete, blocked and error traces alike), every class reported,
// the same outcomes and error sites.
#include <gtest/gtest.h>

#include "../RandomProgram.hpp"
#include "../TestPrograms.hpp"
#include "porlab/explore/PartitionSizes.hpp"

using namespace porlab;

namespace {

void expectOptimal(const Program& prog, const std::string& explorer, Equivalence eq,
                   const std::string& what) {
    ExploreOptions o;
    o.maxTraces = 3000;
    const auto sizes = partitionSizes(prog, o);
    if (sizes.run.budgetExceeded) return;
    ClassCounter counter;
    ExploreOptions e;
    e.onTrace = [&](const Trace& t) { counter.add(t); };
    const auto r = explore(prog, explorer, e);
    const auto want = sizes.classes[static_cast<int>(eq)];
    const auto got = counter.classes(eq);
    EXPECT_EQ(r.complete, want.complete) << what;
    EXPECT_EQ(got.complete, want.complete) << what;
    EXPECT_EQ(got.blocked, want.blocked) << what;
    EXPECT_EQ(counter.duplicates(eq), 0u) << what;
    EXPECT_EQ(r.outcomes, sizes.run.outcomes) << what;
    EXPECT_EQ(r.errorSites, sizes.run.errorSites) << what;
    EXPECT_EQ(r.stats.at("traces_explored") - r.stats.at("traces_not_reported"),
              static_cast<double>(r.traceCount()))
        << what;
}

}  // namespace

TEST(ThreadCentricTest, RvfFigure1) {
    auto p = testprog::rvfFig1();
    const auto v = explore(*p, "value-centric");
    EXPECT_EQ(v.complete, 7u);
    EXPECT_EQ(v.stats.at("traces_explored"), 98.0);  // optimal's Mazurkiewicz classes
    expectOptimal(*p, "value-centric", Equivalence::ValueCentric, "fig1");
    expectOptimal(*p, "data-centric", Equivalence::DataCentric, "fig1");
}

TEST(ThreadCentricTest, HandWrittenPrograms) {
    for (const auto& [name, p] : testprog::handWrittenPrograms()) {
        expectOptimal(*p, "value-centric", Equivalence::ValueCentric, name);
        expectOptimal(*p, "data-centric", Equivalence::DataCentric, name);
    }
}

TEST(ThreadCentricTest, RandomPrograms) {
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
        auto p = testprog::randomProgram(seed);
        expectOptimal(*p, "value-centric", Equivalence::ValueCentric, std::to_string(seed));
        expectOptimal(*p, "data-centric", Equivalence::DataCentric, std::to_string(seed));
    }
}
