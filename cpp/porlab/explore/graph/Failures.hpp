// SPDX-License-Identifier: MIT
// Error traces of the graph engine. A maximal graph in which threads failed is reported as one
// error trace per failure that is reachable on its own: the prefix the failure needs (porf of
// its last event, closed under the co-predecessor of every write in it, and, with LAPOR's locks,
// under the unlocks its witness needs) contains no other failure. Each such prefix is reported
// once (the same prefix is part of many maximal graphs), replayed up to the failure.
//
// The core calls report(g, order) with a maximal graph just replayed along `order`.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <unordered_set>
#include <utility>
#include <vector>

#include "porlab/explore/graph/Engine.hpp"

namespace porlab::graph {

class MutexLocks;

class FailureReports {
  public:
    // `mutex`: LAPOR's lock policy, if on (the prefixes then need witnesses of their own).
    FailureReports(Engine& engine, MutexLocks* mutex) : engine_(engine), mutex_(mutex) {}

    void useMutexLocks(MutexLocks* mutex) { mutex_ = mutex; }
    void report(const ExecutionGraph& g, std::span<const Ref> order);
    // A failure found outside a maximal graph (WbGraphs: a write after the kill of its location,
    // an order no witness of the graph takes): thread `failing` fails at the end of `order`, a
    // witness of the prefix `upto` (per-thread counts). Reported unless that prefix was.
    void reportPrefix(const ExecutionGraph& g, const std::vector<std::int32_t>& upto,
                      std::span<const Ref> order, ThreadId failing);
    // jobs > 1 (Parallel.hpp): the set of failing prefixes already reported is the workers'
    // shared one; `firstSeen(h1, h2)` says whether this prefix is new.
    void shareSeen(std::function<bool(std::uint64_t, std::uint64_t)> firstSeen) {
        shared_ = std::move(firstSeen);
    }

  private:
    // The prefix a failure needs (per-thread counts, porf-closed): closed under the
    // co-predecessor of every write in it.
    void closePrefix(const ExecutionGraph& g, std::vector<std::int32_t>& upto);
    // Add porf(w) ∪ {w} to the prefix.
    void includePorf(const ExecutionGraph& g, Ref w, std::vector<std::int32_t>& upto);
    // LAPOR: a witness of the prefix that the program can replay with real locks (the prefix
    // grows by the unlocks it needs); false if there is none.
    bool mutexPrefixOrder(const ExecutionGraph& g, std::vector<std::int32_t>& upto,
                          std::vector<Ref>& out);

    Engine& engine_;
    MutexLocks* mutex_;
    std::vector<Ref> failing_, order_;
    std::vector<std::int32_t> porfTmp_;
    struct PairHash {
        std::size_t operator()(const std::pair<std::uint64_t, std::uint64_t>& k) const noexcept {
            return static_cast<std::size_t>(k.first ^ (k.second * 0x9e3779b97f4a7c15ULL));
        }
    };
    std::unordered_set<std::pair<std::uint64_t, std::uint64_t>, PairHash> seen_;
    std::function<bool(std::uint64_t, std::uint64_t)> shared_;
};

}  // namespace porlab::graph
