// SPDX-License-Identifier: MIT
// The graph-based exploration engine (GenMC skeleton, ALGORITHMS.md §2.1/§3.3): events are added
// one at a time (next event of the left-most thread that can move); a read-like event branches on
// every write of its location it can read from; a write-like event then revisits every earlier
// read of its location it is not porf-after. Inconsistent graphs are dropped. The per-explorer
// variation points (LAPOR: locks-before in the consistency check and lb-minimal nextEvent; SAVER:
// blocked/zne events) are the virtual hooks below.
//
// Revisit (maximality) condition, so that every consistent graph is produced once. A revisit of
// read r by the new write a keeps K = {e | e ≤ r} ∪ porf(a) ∪ {a} (≤: addition order) and
// deletes D = the rest. It is performed only if
//  (C0) no kept event reads from a deleted one, and a revisited read-modify-write r is read by
//       no kept event (its written value changes);
//  (C1) every read-like e in D ∪ {r} was added "maximally": it read forwards (its source was
//       added before it, so it was not itself revisited), and its source is the most recently
//       added write w (init last) of its location, added before e and admitted by e's condition,
//       such that Prev(e) ∪ {e reads w} is SC-consistent, with
//       Prev(e) = {e' | e' < e} ∪ porf(a). A placeholder (a lock/await left blocked) is maximal
//       iff no such w exists.
// The reverse reading: from a revisited graph the parent is the one whose deleted part is the
// unique "maximal" continuation, so two parents cannot produce the same child.
#pragma once

#include <deque>
#include <memory>
#include <unordered_set>
#include <utility>
#include <vector>

#include "porlab/explore/Explorer.hpp"
#include "porlab/explore/graph/ExecutionGraph.hpp"

namespace porlab::graph {

class GraphExplorer {
public:
    GraphExplorer(const Program& p, const ExploreOptions& o, ExploreResult& r);
    virtual ~GraphExplorer() = default;
    GraphExplorer(const GraphExplorer&) = delete;
    GraphExplorer& operator=(const GraphExplorer&) = delete;

    void run();

protected:
    // Hooks for the explorers built on this engine.
    // Next thread to extend (-1: the graph is maximal). Default: the left-most thread that can
    // move (ready, not stuck on a placeholder, not on a join of an unfinished thread).
    [[nodiscard]] virtual ThreadId nextThread(const ExecutionGraph& g);
    // Consistency of the nodes lim[t] (a porf-closed part); fills a witness linearisation.
    virtual bool consistent(const ExecutionGraph& g, const std::vector<std::int32_t>& lim,
                            bool placeholders, std::vector<Ref>& order);

    std::unique_ptr<Execution> exec_;
    Reporter rep_;
    ExploreResult& result_;
    bool collectOutcomes_ = true;
    std::vector<std::vector<Value>> finals_;
    SCChecker checker_;

private:
    void visit(ExecutionGraph& g, std::size_t depth);
    void addRead(ExecutionGraph& g, ThreadId t, const Event& p, std::size_t depth);
    void revisits(ExecutionGraph& g, Ref a, std::size_t depth);
    bool maximallyAdded(ExecutionGraph& g, Ref e, const std::vector<std::int32_t>& porf);
    // Replay a linearisation through the execution (reset first); collects the events.
    void replay(const ExecutionGraph& g, const std::vector<Ref>& order);
    void report(const ExecutionGraph& g, std::size_t depth);
    void fullLimits(const ExecutionGraph& g, std::vector<std::int32_t>& lim) const;
    void ensureDepth(std::size_t depth);

    std::vector<Event> events_;  // events of the last replay
    ExecutionGraph root_;
    // Per-depth scratch (deques: references stay valid as they grow).
    std::deque<ExecutionGraph> gpool_;
    std::deque<std::vector<Ref>> lin_;
    std::deque<Snapshot> snap_;
    std::deque<std::vector<std::int32_t>> porf_;
    std::deque<std::vector<Ref>> cands_;
    std::vector<std::int32_t> lim_, plim_;
    std::vector<Ref> tmpOrder_, mcands_;
    struct PairHash {
        std::size_t operator()(const std::pair<std::uint64_t, std::uint64_t>& k) const noexcept {
            return static_cast<std::size_t>(k.first ^ (k.second * 0x9e3779b97f4a7c15ULL));
        }
    };
    bool maximality_ = true;  // params["maximality"] = "off": every revisit (GenMC without it)
    bool dedup_ = false;      // params["dedup"] = "on": drop graphs already reported
    std::unordered_set<std::pair<std::uint64_t, std::uint64_t>, PairHash> seen_;
    std::uint64_t deduplicated_ = 0;
    std::uint64_t revisitsTried_ = 0, revisitsDone_ = 0, inconsistent_ = 0, dropped_ = 0;
};

}  // namespace porlab::graph
