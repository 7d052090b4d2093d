// SPDX-License-Identifier: MIT
// A seeded generator of small random programs for the explorer conformance tests. The same seed
// gives the same program on every platform (own SplitMix64, no std distributions). Programs are
// kept small enough (a bound on the number of interleavings of their visible operations) that
// the naive explorer enumerates them in milliseconds.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "porlab/program/SpecBuilder.hpp"

namespace porlab::testprog {

struct RandomProgramOptions {
    int minThreads = 2;
    int maxThreads = 4;  // autostarted threads; a spawned child may come on top
    int maxVars = 4;
    int minOpsPerThread = 1;
    int maxOpsPerThread = 8;         // visible operations (a lock block counts its lock and unlock)
    double maxInterleavings = 3000;  // bound on the multinomial of the per-thread op counts
    bool locks = true;
    bool awaits = true;
    bool asserts = true;
    bool assumes = true;
    bool spawns = true;
    bool cas = true;
    // Synchronisation-heavy mix (Godot Fig. 5 style): mostly unused-result fetch-and-adds,
    // awaits and lock blocks over few variables.
    bool syncHeavy = false;
    // Lock blocks and awaits inside lock blocks (any mutex, the held one too): threads can end
    // up waiting for each other's mutexes for good (deadlocks).
    bool nestedLocks = false;
    // Percent chance that a child thread is spawned by T0 (and joined), and that a load is
    // followed by a forward branch over a store on its value.
    int spawnPercent = 25;
    int branchPercent = 18;
    // Loads and stores only (half each, drawn before the usual mix's choice).
    bool loadsStores = false;
    // T0 spawns the child after all its other operations (just before the join).
    bool spawnLast = false;
};

// Two threads over one variable, T0 spawning a child after all its other operations, loads
// and stores only, loads mostly followed by a store that depends on the value read: the spawn's
// position in T0 then depends on what T0 read. rf, rvf and the thread-centric explorers lost
// classes there (a spawned thread's cached visible writes outlived its spawn,
// RvfSmcWrites.cpp's dropSteps), which the default mix met in 2 of 2000 programs; this family
// meets it in about 1 of 30 (rf, value-centric, data-centric; rvf in about 1 of 500).
inline RandomProgramOptions spawnBranchOptions() {
    RandomProgramOptions o;
    o.minThreads = o.maxThreads = 2;
    o.maxVars = 1;
    o.minOpsPerThread = 2;
    o.maxOpsPerThread = 5;
    o.spawnPercent = 100;
    o.branchPercent = 70;
    o.loadsStores = true;
    o.spawnLast = true;
    return o;
}

// Nested lock blocks over two mutexes (two threads, or three with room for nesting):
// deadlocks (blocked classes) are common.
inline RandomProgramOptions nestedLockOptions(int threads = 2) {
    RandomProgramOptions o;
    o.minThreads = o.maxThreads = threads;
    o.maxVars = 2;
    o.minOpsPerThread = 5;  // (room for a nested block: lock, lock, op, unlock, unlock)
    o.maxOpsPerThread = 7;
    o.maxInterleavings = threads > 2 ? 10000 : 3000;
    o.nestedLocks = true;
    return o;
}

// The synchronisation-heavy variant used by a second conformance family.
inline RandomProgramOptions syncHeavyOptions() {
    RandomProgramOptions o;
    o.minThreads = 3;
    o.maxVars = 2;
    o.maxOpsPerThread = 4;
    o.syncHeavy = true;
    return o;
}

class SplitMix64 {
  public:
    explicit SplitMix64(std::uint64_t seed) : s_(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (s_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    int below(int n) { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }
    bool chance(int percent) { return below(100) < percent; }

  private:
    std::uint64_t s_;
};

namespace detail {

inline double multinomial(const std::vector<int>& counts) {
    double r = 1;
    int n = 0;
    for (int c : counts)
        for (int i = 1; i <= c; ++i) r = r * (++n) / i;
    return r;
}

class RandomThreadWriter {
  public:
    RandomThreadWriter(SplitMix64& rng, const RandomProgramOptions& o, SpecBuilder::Thread& t,
                       const std::vector<LocId>& vars, const std::vector<LocId>& mutexes)
        : rng_(rng), o_(o), t_(t), vars_(vars), mutexes_(mutexes) {}

    // Emit operations worth `budget` visible operations.
    void body(int budget) {
        while (budget > 0) budget -= op(budget, false);
    }

  private:
    LocId var() {
        return vars_[static_cast<std::size_t>(rng_.below(static_cast<int>(vars_.size())))];
    }
    Value val() { return rng_.below(3); }

    // One operation (possibly compound); returns its cost in visible operations.
    int op(int budget, bool inLock) {
        int k = rng_.below(100);
        if (o_.nestedLocks && budget >= 3 && rng_.chance(60)) k = 99;  // a lock block
        if (o_.loadsStores) k = rng_.chance(50) ? 0 : 22;
        if (o_.syncHeavy) {
            // 0-19 loads, 20-29 stores, 42-53 FAAs (mostly unused), 69-82 awaits, 83+ locks
            static constexpr int remap[] = {0, 20, 42, 42, 42, 69, 69, 69, 83, 83};
            k = remap[k / 10] + k % 10;
        }
        if (k < 22) {  // load, maybe followed by local control
            const int r = t_.reg();
            t_.load(r, var());
            const int c = t_.reg();
            const int tail = rng_.below(100);
            if (tail < o_.branchPercent && budget >= 2) {  // forward branch on the loaded value
                t_.binImm(c, BinOp::Eq, r, val());
                const int j = rng_.chance(50) ? t_.jumpIfZero(c) : t_.jumpIfNonZero(c);
                t_.store(var(), 1 + rng_.below(2));
                t_.patchHere(j);
                return 2;
            }
            if (tail < 30 && o_.assumes) {
                t_.binImm(c, rng_.chance(50) ? BinOp::Ne : BinOp::Le, r, val());
                t_.assume(c);
            } else if (tail < 42 && o_.asserts) {
                t_.binImm(c, rng_.chance(50) ? BinOp::Ne : BinOp::Le, r, 1 + rng_.below(2));
                t_.assertTrue(c);
            }
            return 1;
        }
        if (k < 42) {
            t_.store(var(), val() + 1);
            return 1;
        }
        if (k < 54) {
            const bool used = rng_.chance(o_.syncHeavy ? 15 : 40);
            t_.faa(used ? t_.reg() : -1, var(), rng_.chance(75) ? 1 : 2, used,
                   rng_.chance(80) ? RmwOp::Add : RmwOp::Sub);
            return 1;
        }
        if (k < 61) {
            t_.xchg(t_.reg(), var(), val());
            return 1;
        }
        if (k < 69 && o_.cas) {
            const int r = t_.reg(), ok = t_.reg();
            t_.cas(r, ok, var(), val(), val() + 1);
            if (o_.asserts && rng_.chance(15)) t_.assertTrue(ok);
            return 1;
        }
        if (k < 83 && o_.awaits && (!inLock || o_.nestedLocks)) {
            static constexpr AwaitCond conds[] = {AwaitCond::EQ, AwaitCond::NE, AwaitCond::SGE,
                                                  AwaitCond::SLE};
            const AwaitCond c = conds[rng_.below(4)];
            if (rng_.chance(25))
                t_.xchgAwait(t_.reg(), var(), c, val(), val());
            else
                t_.await(t_.reg(), var(), c, val());
            return 1;
        }
        if (o_.locks && !mutexes_.empty() && (!inLock || o_.nestedLocks) && budget >= 3) {
            LocId m =
                mutexes_[static_cast<std::size_t>(rng_.below(static_cast<int>(mutexes_.size())))];
            // (Nested: not a mutex the thread holds, which would be a fault, not a deadlock.)
            for (std::size_t k2 = 0; k2 < mutexes_.size() && held(m); ++k2) m = mutexes_[k2];
            if (!held(m)) {
                t_.lock(m);
                held_.push_back(m);
                const int cap = std::min(o_.nestedLocks ? 4 : 2, budget - 2);
                const int inner = o_.nestedLocks ? cap : 1 + rng_.below(cap);
                int used = 0;
                while (used < inner) used += op(inner - used, true);
                held_.pop_back();
                t_.unlock(m);
                return 2 + used;
            }
        }
        t_.store(var(), val());
        return 1;
    }

    bool held(LocId m) const { return std::find(held_.begin(), held_.end(), m) != held_.end(); }

    SplitMix64& rng_;
    const RandomProgramOptions& o_;
    std::vector<LocId> held_;  // the mutexes of the enclosing lock blocks
    SpecBuilder::Thread& t_;
    const std::vector<LocId>& vars_;
    const std::vector<LocId>& mutexes_;
};

}  // namespace detail

// A random program: 2–4 threads over 1–4 variables and 0–2 mutexes, mixing loads, stores,
// fetch-and-adds (used and unused results), exchanges, CAS, well-nested lock blocks, awaits,
// assumes, asserts, forward branches, and sometimes a child thread spawned and joined by T0.
inline std::shared_ptr<Program> randomProgram(std::uint64_t seed,
                                              const RandomProgramOptions& o = {}) {
    SplitMix64 rng(seed * 0x2545F4914F6CDD1DULL + 17);
    SpecBuilder b("random_" + std::to_string(seed));
    const int nThreads = o.minThreads + rng.below(o.maxThreads - o.minThreads + 1);
    const int nVars = 1 + rng.below(o.maxVars);
    std::vector<LocId> vars, mutexes;
    for (int i = 0; i < nVars; ++i)
        vars.push_back(b.var("v" + std::to_string(i), rng.chance(20) ? 1 : 0));
    if (o.locks) {
        const int nm = o.nestedLocks ? 2 : rng.below(3);
        for (int i = 0; i < nm; ++i) mutexes.push_back(b.mutex("m" + std::to_string(i)));
    }
    const bool child = o.spawns && rng.chance(o.spawnPercent);
    std::vector<SpecBuilder::Thread*> ts;
    for (int i = 0; i < nThreads; ++i) ts.push_back(&b.thread("t" + std::to_string(i)));
    if (child) ts.push_back(&b.thread("child", false));
    // Per-thread budgets, shrunk until the interleaving count is small.
    std::vector<int> budget(ts.size());
    for (auto& x : budget)
        x = o.minOpsPerThread + rng.below(o.maxOpsPerThread - o.minOpsPerThread + 1);
    while (detail::multinomial(budget) > o.maxInterleavings) {
        auto it = std::max_element(budget.begin(), budget.end());
        if (*it <= 1) break;
        --*it;
    }
    if (child) budget[0] = std::max(budget[0], 2);  // spawn + join
    for (std::size_t i = 0; i < ts.size(); ++i) {
        detail::RandomThreadWriter w(rng, o, *ts[i], vars, mutexes);
        if (child && i == 0) {
            const int before = o.spawnLast ? budget[0] - 2 : rng.below(budget[0] - 1);
            w.body(before);
            ts[0]->spawn(ts.back()->id());
            w.body(budget[0] - 2 - before);
            ts[0]->join(ts.back()->id());
        } else {
            w.body(budget[i]);
        }
    }
    return b.build();
}

}  // namespace porlab::testprog
