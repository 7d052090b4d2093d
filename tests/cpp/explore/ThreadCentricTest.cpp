// SPDX-License-Identifier: MIT
// The value-centric and data-centric explorers against the naive oracle: one trace explored and
// reported per class of their equivalence (complete and blocked traces), every class reported,
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
    std::string stats;
    for (const auto& [k, v] : r.stats) stats += " " + k + "=" + std::to_string(v);
    EXPECT_EQ(r.stats.at("traces_not_reported"), 0.0) << what << stats;
    // At most one trace executed per class: the explored traces are the reported ones.
    EXPECT_EQ(r.stats.at("traces_explored"), static_cast<double>(r.traceCount())) << what;
}

}  // namespace

TEST(ThreadCentricTest, RvfFigure1) {
    auto p = testprog::rvfFig1();
    const auto v = explore(*p, "value-centric");
    EXPECT_EQ(v.complete, 7u);
    EXPECT_EQ(v.stats.at("traces_explored"), 7.0);  // not optimal's 98 Mazurkiewicz classes
    EXPECT_EQ(v.stats.at("rf_classes"), 9.0);
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

// RVF Figure 13c (n threads: w(x,1); r(x)), thread 0 preselected, against the oracle for n <= 4
// (value-centric 2, 8, 72; data-centric 3, 24, 360).
TEST(ThreadCentricTest, RvfFigure13c) {
    for (int n = 2; n <= 4; ++n) {
        auto p = testprog::rvfFig13c(n);
        expectOptimal(*p, "value-centric", Equivalence::ValueCentric, "13c n=" + std::to_string(n));
        expectOptimal(*p, "data-centric", Equivalence::DataCentric, "13c n=" + std::to_string(n));
    }
}

// The preselected thread is an option; another thread gives other classes, still one each.
TEST(ThreadCentricTest, PreselectedThreadOption) {
    auto p = testprog::rvfFig1();
    ExploreOptions o;
    const auto sizes = partitionSizes(*p, o, 1);
    for (const char* ex : {"value-centric", "data-centric"}) {
        ExploreOptions e;
        e.params["thread"] = "1";
        const auto r = explore(*p, ex, e);
        const auto eq = std::string(ex) == "value-centric" ? Equivalence::ValueCentric
                                                           : Equivalence::DataCentric;
        EXPECT_EQ(r.complete, sizes.classes[static_cast<int>(eq)].complete) << ex;
        EXPECT_EQ(r.stats.at("traces_explored"), static_cast<double>(r.complete)) << ex;
    }
}
