// SPDX-License-Identifier: MIT
// The `rf` explorer (reads-from SMC on the graph engine) against the exhaustive `naive` oracle
// (the `graph` explorer, the engine alone, is in the Mazurkiewicz conformance suite):
//  * the same outcomes and error sites as naive;
//  * complete traces == complete reads-from classes, no two complete traces in one class;
//  * blocked traces == blocked reads-from classes;
// on the hand-written programs and on seeded random programs (500 + 250 sync-heavy by default,
// PORLAB_RANDOM_PROGRAMS overrides), plus the papers' numbers, budgets and determinism.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <set>
#include <sstream>

#include "RandomProgram.hpp"
#include "TestPrograms.hpp"
#include "porlab/core/Errors.hpp"
#include "porlab/equiv/Partition.hpp"

using namespace porlab;

namespace {

struct RfOracle {
    ExploreResult run;
    std::set<Key> complete, blocked;
};

RfOracle rfOracle(const Program& p) {
    RfOracle o;
    ExploreOptions opts;
    opts.onTrace = [&](const Trace& t) {
        if (t.status() == TraceStatus::Complete) o.complete.insert(traceKey(Equivalence::ReadsFrom, t));
        if (t.status() == TraceStatus::Blocked) o.blocked.insert(traceKey(Equivalence::ReadsFrom, t));
    };
    o.run = exploreNaive(p, opts);
    return o;
}

struct RfFinding {
    bool ok = true;     // exact: every check below
    bool sound = true;  // nothing unreachable, no duplicate class, no error site naive lacks
    bool blockedExact = true;
    std::string message;
};

RfFinding checkRf(const Program& p, const RfOracle& o) {
    RfFinding f;
    std::ostringstream msg;
    ClassCounter cc;
    std::set<Key> blocked, complete;
    ExploreOptions opts;
    opts.onTrace = [&](const Trace& t) {
        cc.add(t);
        if (t.status() == TraceStatus::Blocked) blocked.insert(traceKey(Equivalence::ReadsFrom, t));
        if (t.status() == TraceStatus::Complete) complete.insert(traceKey(Equivalence::ReadsFrom, t));
    };
    ExploreResult r;
    try {
        r = exploreRf(p, opts);
    } catch (const std::exception& e) {
        f.ok = f.sound = false;
        f.message = std::string(" exception: ") + e.what();
        return f;
    }
    if (r.outcomes != o.run.outcomes) {
        f.ok = false;
        msg << " outcomes " << r.outcomes.size() << " vs naive " << o.run.outcomes.size() << ";";
    }
    if (r.errorSites != o.run.errorSites) {
        f.ok = false;
        msg << " error sites " << r.errorSites.size() << " vs naive " << o.run.errorSites.size() << ";";
    }
    if (r.complete != o.complete.size()) {
        f.ok = false;
        msg << " complete traces " << r.complete << " vs rf classes " << o.complete.size() << ";";
    }
    if (cc.duplicates(Equivalence::ReadsFrom) != 0) {
        f.ok = false;
        msg << " duplicate rf classes " << cc.duplicates(Equivalence::ReadsFrom) << ";";
    }
    if (cc.classes(Equivalence::ReadsFrom).complete != o.complete.size()) {
        f.ok = false;
        msg << " complete classes " << cc.classes(Equivalence::ReadsFrom).complete << " vs "
            << o.complete.size() << ";";
    }
    if (blocked != o.blocked) {
        f.ok = false;
        msg << " blocked classes " << blocked.size() << " vs " << o.blocked.size() << ";";
    }
    auto subset = [](const auto& a, const auto& b) {
        return std::includes(b.begin(), b.end(), a.begin(), a.end());
    };
    for (const auto& out : r.outcomes)
        if (!o.run.outcomes.count(out)) {
            f.sound = false;
            msg << " UNREACHABLE outcome;";
            break;
        }
    if (!subset(r.errorSites, o.run.errorSites) || !subset(complete, o.complete) ||
        !subset(blocked, o.blocked) || cc.duplicates(Equivalence::ReadsFrom) != 0) {
        f.sound = false;
        msg << " UNSOUND (error site, class not in naive, or duplicate);";
    }
    f.blockedExact = r.blocked == o.blocked.size();
    if (!f.blockedExact) msg << " blocked traces " << r.blocked << " vs classes " << o.blocked.size() << ";";
    f.message = msg.str();
    return f;
}

int randomProgramCount() {
    if (const char* s = std::getenv("PORLAB_RANDOM_PROGRAMS")) return std::max(1, std::atoi(s));
    return 500;
}

struct FamilyStats {
    int unsound = 0, inexact = 0, blockedInexact = 0;
    std::string inexactSeeds, blockedSeeds;
};

FamilyStats runFamily(int n, std::uint64_t seedBase, const testprog::RandomProgramOptions& popts) {
    FamilyStats s;
    for (int i = 0; i < n; ++i) {
        const std::uint64_t seed = seedBase + static_cast<std::uint64_t>(i) + 1;
        auto p = testprog::randomProgram(seed, popts);
        const auto o = rfOracle(*p);
        const auto f = checkRf(*p, o);
        if (!f.sound && ++s.unsound <= 10)
            ADD_FAILURE() << "random program seed " << seed
                          << (popts.syncHeavy ? " (syncHeavyOptions)" : "") << ":" << f.message;
        if (!f.ok && ++s.inexact <= 10)
            s.inexactSeeds += "\n  seed " + std::to_string(seed) + ":" + f.message;
        if (!f.blockedExact && ++s.blockedInexact <= 5) s.blockedSeeds += " " + std::to_string(seed);
    }
    return s;
}

std::uint64_t rfComplete(const Program& p) {
    ExploreOptions o;
    o.collectOutcomes = false;
    return exploreRf(p, ExploreOptions{}).complete;
}

}  // namespace

TEST(ReadsFromRf, RegisteredAndRejectsIfaa) {
    EXPECT_EQ(explorerInfo("rf").equivalence, "reads-from");
    EXPECT_TRUE(explorerInfo("rf").optimal);
    ExploreOptions o;
    o.conflicts.ifaa = true;
    EXPECT_THROW((void)exploreRf(*testprog::rvfFig1(), o), InputError);
    EXPECT_THROW((void)exploreGraph(*testprog::rvfFig1(), o), InputError);
}

TEST(ReadsFromRf, HandWrittenPrograms) {
    for (const auto& [name, p] : testprog::handWrittenPrograms()) {
        const auto o = rfOracle(*p);
        const auto f = checkRf(*p, o);
        EXPECT_TRUE(f.ok) << name << ":" << f.message;
        EXPECT_TRUE(f.blockedExact) << name << ":" << f.message;
        // the oracle's class count is the partition's
        EXPECT_EQ(o.complete.size(), partitionSizes(*p).classes[static_cast<int>(Equivalence::ReadsFrom)].complete)
            << name;
    }
}

// Exactness on random programs: the same outcomes and error sites as naive, every complete and
// blocked reads-from class exactly once.
TEST(ReadsFromRf, RandomPrograms) {
    const int n = randomProgramCount();
    const auto s = runFamily(n, 0, {});
    EXPECT_EQ(s.unsound, 0) << "of " << n << " random programs";
    EXPECT_EQ(s.inexact, 0) << "of " << n << " random programs:" << s.inexactSeeds;
    EXPECT_EQ(s.blockedInexact, 0) << "blocked traces != blocked classes:" << s.blockedSeeds;
}

TEST(ReadsFromRf, RandomSyncHeavyPrograms) {
    const int n = std::max(1, randomProgramCount() / 2);
    const auto s = runFamily(n, 1000000, testprog::syncHeavyOptions());
    EXPECT_EQ(s.unsound, 0) << "of " << n << " sync-heavy random programs";
    EXPECT_EQ(s.inexact, 0) << "of " << n << " sync-heavy random programs:" << s.inexactSeeds;
    EXPECT_EQ(s.blockedInexact, 0) << "blocked traces != blocked classes:" << s.blockedSeeds;
}

// The engine reports every (rf, co) graph once: rf's explored graphs are the Mazurkiewicz
// classes, of which it reports one per reads-from class.
TEST(ReadsFromRf, ExploresMazurkiewiczReportsReadsFrom) {
    auto p = testprog::rvfFig1();
    const auto sizes = partitionSizes(*p);
    const auto r = exploreRf(*p, {});
    const auto g = exploreGraph(*p, {});
    EXPECT_EQ(g.complete, sizes.classes[static_cast<int>(Equivalence::Mazurkiewicz)].complete);
    EXPECT_EQ(r.complete, sizes.classes[static_cast<int>(Equivalence::ReadsFrom)].complete);
    EXPECT_EQ(r.complete + static_cast<std::uint64_t>(r.stats.at("graphs_not_reported")), g.complete);
}

TEST(ReadsFromRf, PaperNumbers) {
    EXPECT_EQ(rfComplete(*testprog::rvfFig1()), 9u);
    std::uint64_t prev = 0;
    for (int n = 1; n <= 6; ++n) {
        std::uint64_t want = 1;
        for (int k = 0; k < n - 1; ++k) want *= static_cast<std::uint64_t>(n + 1);
        const auto got = rfComplete(*testprog::rvfFig13c(n));
        EXPECT_EQ(got, want) << "rvfFig13c(" << n << ")";
        EXPECT_GT(got, prev);
        prev = got;
    }
    std::uint64_t fact = 1;
    for (int n = 1; n <= 6; ++n) {
        fact *= static_cast<std::uint64_t>(n);
        EXPECT_EQ(rfComplete(*testprog::nReadsLock(n)), fact) << "nReadsLock(" << n << ")";
    }
}

// fib_bench: (2n+2)!/(n!·n!·2!) classes. NUM = 5 (16632, LAPOR Table 2's GenMC column) takes
// about 50 s in a Debug build, so Debug checks NUM = 3 (560) and Release NUM = 5.
TEST(ReadsFromRf, FibBench) {
#ifdef NDEBUG
    EXPECT_EQ(rfComplete(*testprog::fibBench(5)), 16632u);
#else
    EXPECT_EQ(rfComplete(*testprog::fibBench(3)), 560u);
#endif
}

TEST(ReadsFromRf, BudgetStopsCleanly) {
    ExploreOptions o;
    o.maxTraces = 10;
    auto r = exploreRf(*testprog::rvfFig13c(5), o);
    EXPECT_TRUE(r.budgetExceeded);
    EXPECT_EQ(r.budgetReason, "traces");
    EXPECT_EQ(r.traceCount(), 10u);
}

TEST(ReadsFromRf, Deterministic) {
    auto p = testprog::rvfFig13c(4);
    std::vector<std::string> a, b;
    ExploreOptions o1, o2;
    o1.onTrace = [&](const Trace& t) { a.push_back(t.toString()); };
    o2.onTrace = [&](const Trace& t) { b.push_back(t.toString()); };
    auto r1 = exploreRf(*p, o1);
    auto r2 = exploreRf(*p, o2);
    EXPECT_EQ(a, b);
    EXPECT_EQ(r1.complete, r2.complete);
    EXPECT_EQ(r1.events, r2.events);
}
