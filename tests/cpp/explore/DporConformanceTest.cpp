// SPDX-License-Identifier: MIT
// Conformance by registration: every registered explorer (IFAA variants of those that declare
// ifaa) against the exhaustive `naive` explorer, on the hand-written programs and on seeded
// random programs (tests/cpp/RandomProgram.hpp), checked against the oracle of the equivalence
// its registration declares, with the guarantees its flags declare:
//  * always: the same reachable outcomes and the same error sites as naive;
//  * coversClasses: every complete and every blocked class covered (else: no class that naive
//    does not have);
//  * nonRedundant: no two complete traces in one class;
//  * optimal: exactly one complete trace per class, no sleep-set-blocked exploration, and
//    exactly one blocked trace per blocked class.
// A new explorer is checked the moment it is registered.
// The number of random programs per explorer is 500 (PORLAB_RANDOM_PROGRAMS overrides it), in
// shards of a few seconds each; 250 of each of the synchronisation-heavy and spawn-after-branch
// families.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "RandomProgram.hpp"
#include "TestPrograms.hpp"
#include "porlab/equiv/Keys.hpp"
#include "porlab/equiv/Partition.hpp"
#include "porlab/explore/Explorer.hpp"

using namespace porlab;

namespace {

struct Variant {
    std::string explorer;
    bool ifaa = false;
};

// The equivalence whose oracle checks a variant (nullopt: outcomes and error sites only, e.g.
// naive's interleavings).
std::optional<Equivalence> variantEquivalence(const Variant& v) {
    auto eq = equivalenceFromName(explorerInfo(v.explorer).equivalence);
    if (v.ifaa && eq == Equivalence::Mazurkiewicz) return Equivalence::MazurkiewiczIfaa;
    return eq;
}

std::string variantName(const testing::TestParamInfo<Variant>& info) {
    std::string n = info.param.explorer + (info.param.ifaa ? "_ifaa" : "");
    for (char& c : n)
        if (c == '-') c = '_';
    return n;
}

std::vector<Variant> dporVariants() {
    std::vector<Variant> v;
    for (const auto& e : explorers()) {
        if (e.name == "naive") continue;  // the oracle itself
        v.push_back({e.name, false});
        if (e.ifaa) v.push_back({e.name, true});
    }
    return v;
}

struct KeySets {
    std::set<Key> complete, blocked;
    std::uint64_t completeTraces = 0, blockedTraces = 0;
};

// What naive finds, computed once per program and shared by every variant: its result and the
// classes of every equivalence.
struct Oracle {
    ExploreResult run;
    std::vector<KeySets> classes = std::vector<KeySets>(kNumEquivalences);
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
        for (int e = 0; e < kNumEquivalences; ++e)
            addKey(o.classes[static_cast<std::size_t>(e)], static_cast<Equivalence>(e), t);
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
    const auto& info = explorerInfo(v.explorer);
    const auto eq = variantEquivalence(v);
    KeySets got;
    ExploreOptions opts;
    opts.conflicts.ifaa = v.ifaa;
    if (eq) opts.onTrace = [&](const Trace& t) { addKey(got, *eq, t); };
    ExploreResult r;
    try {
        r = explore(p, v.explorer, opts);
    } catch (const std::exception& e) {
        f.ok = false;
        f.message = std::string("exception: ") + e.what();
        return f;
    }
    if (r.outcomes != o.run.outcomes) {
        f.ok = false;
        msg << " outcomes " << r.outcomes.size() << " vs naive " << o.run.outcomes.size() << ";";
    }
    if (r.errorSites != o.run.errorSites) {
        f.ok = false;
        msg << " error sites " << r.errorSites.size() << " vs naive " << o.run.errorSites.size()
            << ";";
    }
    if (!eq) {
        f.message = msg.str();
        return f;
    }
    const KeySets& want = o.classes[static_cast<std::size_t>(*eq)];
    const bool optimal = info.optimal;
    const bool covers = optimal || info.coversClasses;
    const bool nonRedundant = optimal || info.nonRedundant;
    const auto subset = [](const std::set<Key>& a, const std::set<Key>& b) {
        return std::includes(b.begin(), b.end(), a.begin(), a.end());
    };
    // No explorer may report a class naive does not have; one that covers must report them all.
    if (covers ? got.complete != want.complete : !subset(got.complete, want.complete)) {
        f.ok = false;
        msg << " complete classes " << got.complete.size() << " vs " << want.complete.size() << ";";
    }
    if (covers ? got.blocked != want.blocked : !subset(got.blocked, want.blocked)) {
        f.ok = false;
        msg << " blocked classes " << got.blocked.size() << " vs " << want.blocked.size() << ";";
    }
    if (nonRedundant && r.complete != got.complete.size()) {
        f.ok = false;
        msg << " complete traces " << r.complete << " repeat classes (" << got.complete.size()
            << " distinct);";
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

// The random programs of one variant are split into shards, each its own test (every test stays
// a few seconds long on a loaded machine): shard k checks programs k, k + kShards, ...
constexpr int kShards = 6;

struct Sharded {
    Variant variant;
    int shard = 0;
};

std::vector<Sharded> shardedVariants() {
    std::vector<Sharded> out;
    for (const auto& v : dporVariants())
        for (int k = 0; k < kShards; ++k) out.push_back({v, k});
    return out;
}

std::string shardedName(const testing::TestParamInfo<Sharded>& info) {
    return variantName({info.param.variant, info.index}) + "_" + std::to_string(info.param.shard);
}

class DporConformanceRandom : public testing::TestWithParam<Sharded> {};

void runRandomFamily(const Variant& v, int n, std::uint64_t seedBase,
                     const testprog::RandomProgramOptions& popts, int shard,
                     const char* family = "") {
    int failures = 0, blockedMismatches = 0;
    std::ostringstream mism;
    for (int i = shard; i < n; i += kShards) {
        const std::uint64_t seed = seedBase + static_cast<std::uint64_t>(i) + 1;
        auto p = testprog::randomProgram(seed, popts);
        const Oracle& o = randomOracle(seed, *p);
        auto f = check(*p, o, v);
        if (!f.ok) {
            ++failures;
            if (failures <= 10)
                ADD_FAILURE() << "random program seed " << seed << family << ":" << f.message;
        }
        if (f.blockedMismatch) {
            if (blockedMismatches < 5)
                mism << " seed " << seed << " (" << f.blockedTraces << " vs " << f.blockedClasses
                     << ")";
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

TEST_P(DporConformanceRandom, RandomPrograms) {
    runRandomFamily(GetParam().variant, randomProgramCount(), 0, {}, GetParam().shard);
    RecordProperty("random_programs", randomProgramCount());
}

// Fig. 5-like programs: unused-result FAAs feeding awaits, locks, 3-4 threads.
TEST_P(DporConformanceRandom, RandomSyncHeavyPrograms) {
    runRandomFamily(GetParam().variant, randomProgramCount() / 2, 1000000,
                    testprog::syncHeavyOptions(), GetParam().shard, " (syncHeavyOptions)");
}

// A child spawned after T0's writes that depend on the values it read (spawnBranchOptions).
TEST_P(DporConformanceRandom, RandomSpawnBranchPrograms) {
    runRandomFamily(GetParam().variant, randomProgramCount() / 2, 2000000,
                    testprog::spawnBranchOptions(), GetParam().shard, " (spawnBranchOptions)");
}

INSTANTIATE_TEST_SUITE_P(Explorers, DporConformance, testing::ValuesIn(dporVariants()),
                         variantName);
INSTANTIATE_TEST_SUITE_P(Explorers, DporConformanceRandom, testing::ValuesIn(shardedVariants()),
                         shardedName);
