// SPDX-License-Identifier: MIT
// Conformance of every DPOR explorer against the exhaustive `naive` explorer, on the hand-written
// programs and on seeded random programs (tests/cpp/RandomProgram.hpp):
//  * the same reachable outcomes and the same error sites as naive;
//  * every complete and every blocked Mazurkiewicz class (Mazurkiewicz-IFAA with ifaa) covered;
//  * optimal explorers: exactly one complete trace per class (count equal, no duplicates), no
//    sleep-set-blocked exploration, and exactly one blocked trace per blocked class.
// The number of random programs per explorer is 500 (PORLAB_RANDOM_PROGRAMS overrides it).
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <set>
#include <sstream>

#include "RandomProgram.hpp"
#include "TestPrograms.hpp"
#include "porlab/equiv/Partition.hpp"
#include "porlab/explore/Explorer.hpp"

using namespace porlab;

namespace {

struct Variant {
    std::string explorer;
    bool ifaa = false;
};

std::string variantName(const testing::TestParamInfo<Variant>& info) {
    std::string n = info.param.explorer + (info.param.ifaa ? "_ifaa" : "");
    for (char& c : n)
        if (c == '-') c = '_';
    return n;
}

std::vector<Variant> dporVariants() {
    std::vector<Variant> v;
    for (const auto& e : explorers()) {
        if (e.name == "naive") continue;
        // Mazurkiewicz-based explorers only (rf is checked by ReadsFromTest.cpp)
        if (e.equivalence.rfind("mazurkiewicz", 0) != 0) continue;
        v.push_back({e.name, false});
        if (e.ifaa) v.push_back({e.name, true});
    }
    return v;
}

struct KeySets {
    std::set<Key> complete, blocked;
    std::uint64_t completeTraces = 0, blockedTraces = 0;
};

// What naive finds, computed once per program and shared by every variant.
struct Oracle {
    ExploreResult run;
    KeySets maz, mazIfaa;
};

void addKey(KeySets& k, Equivalence eq, const Trace& t) {
    if (t.status() == TraceStatus::Complete) {
        k.complete.insert(traceKey(eq, t));
        ++k.completeTraces;
    } else if (t.status() == TraceStatus::Blocked) {
        k.blocked.insert(traceKey(eq, t));
        ++k.blockedTraces;
    }
}

Oracle computeOracle(const Program& p) {
    Oracle o;
    ExploreOptions opts;
    opts.onTrace = [&](const Trace& t) {
        addKey(o.maz, Equivalence::Mazurkiewicz, t);
        addKey(o.mazIfaa, Equivalence::MazurkiewiczIfaa, t);
    };
    o.run = exploreNaive(p, opts);
    return o;
}

const Oracle& randomOracle(std::uint64_t seed, const Program& p) {
    static std::map<std::uint64_t, Oracle> cache;
    auto it = cache.find(seed);
    if (it == cache.end()) it = cache.emplace(seed, computeOracle(p)).first;
    return it->second;
}

int randomProgramCount() {
    if (const char* s = std::getenv("PORLAB_RANDOM_PROGRAMS")) return std::max(1, std::atoi(s));
    return 500;
}

struct Finding {
    bool ok = true;
    std::string message;
    bool blockedMismatch = false;  // optimal: blocked traces != blocked classes
    std::uint64_t blockedTraces = 0, blockedClasses = 0;
};

Finding check(const Program& p, const Oracle& o, const Variant& v) {
    Finding f;
    std::ostringstream msg;
    const Equivalence eq = v.ifaa ? Equivalence::MazurkiewiczIfaa : Equivalence::Mazurkiewicz;
    const KeySets& want = v.ifaa ? o.mazIfaa : o.maz;
    KeySets got;
    ExploreOptions opts;
    opts.conflicts.ifaa = v.ifaa;
    opts.onTrace = [&](const Trace& t) { addKey(got, eq, t); };
    ExploreResult r;
    try {
        r = explore(p, v.explorer, opts);
    } catch (const std::exception& e) {
        f.ok = false;
        f.message = std::string("exception: ") + e.what();
        return f;
    }
    const bool optimal = explorerInfo(v.explorer).optimal;
    if (r.outcomes != o.run.outcomes) {
        f.ok = false;
        msg << " outcomes " << r.outcomes.size() << " vs naive " << o.run.outcomes.size() << ";";
    }
    if (r.errorSites != o.run.errorSites) {
        f.ok = false;
        msg << " error sites " << r.errorSites.size() << " vs naive " << o.run.errorSites.size() << ";";
    }
    if (got.complete != want.complete) {
        f.ok = false;
        msg << " complete classes " << got.complete.size() << " vs " << want.complete.size() << ";";
    }
    if (got.blocked != want.blocked) {
        f.ok = false;
        msg << " blocked classes " << got.blocked.size() << " vs " << want.blocked.size() << ";";
    }
    if (optimal && r.complete != want.complete.size()) {
        f.ok = false;
        msg << " complete traces " << r.complete << " vs classes " << want.complete.size() << ";";
    }
    if (optimal && r.stats["sleep_blocked"] != 0) {
        f.ok = false;
        msg << " sleep-set blocked " << r.stats["sleep_blocked"] << ";";
    }
    // Godot Theorem 2 covers blocked maximal executions too: one blocked trace per class.
    if (optimal && r.blocked != want.blocked.size()) {
        f.blockedMismatch = true;
        f.ok = false;
        msg << " blocked traces " << r.blocked << " vs classes " << want.blocked.size() << ";";
    }
    f.blockedTraces = r.blocked;
    f.blockedClasses = want.blocked.size();
    f.message = msg.str();
    return f;
}

class DporConformance : public testing::TestWithParam<Variant> {};


void runRandomFamily(const Variant& v, int n, std::uint64_t seedBase,
                     const testprog::RandomProgramOptions& popts) {
    int failures = 0, blockedMismatches = 0;
    std::ostringstream mism;
    for (int i = 0; i < n; ++i) {
        const std::uint64_t seed = seedBase + static_cast<std::uint64_t>(i) + 1;
        auto p = testprog::randomProgram(seed, popts);
        const Oracle& o = randomOracle(seed, *p);
        auto f = check(*p, o, v);
        if (!f.ok) {
            ++failures;
            if (failures <= 10)
                ADD_FAILURE() << "random program seed " << seed
                              << (popts.syncHeavy ? " (syncHeavyOptions)" : "") << ":" << f.message;
        }
        if (f.blockedMismatch) {
            if (blockedMismatches < 5)
                mism << " seed " << seed << " (" << f.blockedTraces << " vs " << f.blockedClasses << ")";
            ++blockedMismatches;
        }
    }
    EXPECT_EQ(failures, 0) << "of " << n << " random programs";
    if (blockedMismatches)
        std::cout << "[ info ] " << v.explorer << (v.ifaa ? "+ifaa" : "") << ": "
                  << blockedMismatches << " of " << n
                  << " random programs report blocked traces != blocked classes:" << mism.str()
                  << "\n";
}

}  // namespace

TEST_P(DporConformance, HandWrittenPrograms) {
    for (const auto& [name, p] : testprog::handWrittenPrograms()) {
        auto o = computeOracle(*p);
        auto f = check(*p, o, GetParam());
        EXPECT_TRUE(f.ok) << name << ":" << f.message;
    }
}

TEST_P(DporConformance, RandomPrograms) {
    runRandomFamily(GetParam(), randomProgramCount(), 0, {});
    RecordProperty("random_programs", randomProgramCount());
}

// Fig. 5-like programs: unused-result FAAs feeding awaits, locks, 3-4 threads.
TEST_P(DporConformance, RandomSyncHeavyPrograms) {
    runRandomFamily(GetParam(), randomProgramCount() / 2, 1000000, testprog::syncHeavyOptions());
}

INSTANTIATE_TEST_SUITE_P(Explorers, DporConformance, testing::ValuesIn(dporVariants()), variantName);
