// SPDX-License-Identifier: MIT
// What the TruSt core (GraphExplorer) offers the policies that extend it, and nothing more.
//
// The core adds events one at a time, branches reads over their sources and writes over their
// places in co, revisits earlier reads, and reports maximal graphs. Three policies change parts
// of that, each in its own file, each seeing the core only through this interface:
//  * MutexLocks (LAPOR, MutexLocks.hpp): locks, unlocks and trylocks are events without
//    reads-from that never block; mutual exclusion becomes part of consistency.
//  * ZnePolicy (SAVER, Zne.hpp): a thread at a decrement that cancels its last increment is
//    blocked by a zne marker until a foreign write or a read of the increment invalidates it.
//  * FailureReports (Failures.hpp): the error traces of a maximal graph in which threads failed,
//    each cut to the prefix its failure needs.
// A policy adds nodes to the graph it is given and hands the graph back to the core (proceed,
// proceedBlocked, exploreRevisit), which checks consistency, replays, and explores on. Those
// calls return the exploration that follows as a Step (Step.hpp), which the policy awaits: a
// policy that adds nodes is itself a coroutine returning Step, so the exploration never recurses
// on the native stack.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "porlab/explore/Explorer.hpp"
#include "porlab/explore/graph/ExecutionGraph.hpp"
#include "porlab/explore/graph/Step.hpp"
#include "porlab/explore/graph/Witness.hpp"

namespace porlab::graph {

class Engine {
  public:
    virtual ~Engine() = default;

    [[nodiscard]] virtual Execution& execution() = 0;
    [[nodiscard]] virtual Reporter& reporter() = 0;
    [[nodiscard]] virtual const ProgramInfo& programInfo() const = 0;
    // Where the frames of the exploration's steps (Step.hpp) are allocated.
    [[nodiscard]] virtual FrameArena& stepArena() = 0;

    // Node a was just pushed onto g: go on from there. `appended`: a at the end of the current
    // witness is consistent (no check, no replay); otherwise g is checked and replayed first.
    // The exploration that follows is the returned step: co_await it at once (Step.hpp).
    virtual Step proceed(ExecutionGraph& g, Ref a, bool appended, std::size_t depth) = 0;
    // A placeholder (an event that stays blocked for good) was just pushed onto g: go on with the
    // witness unchanged.
    virtual Step proceedBlocked(ExecutionGraph& g, std::size_t depth) = 0;
    // The revisit of read-like node r by node a: the per-thread prefix of g to keep (TruSt's
    // K = {e ≤ r} ∪ porf(a) ∪ {a}; porf = porf(a) as per-thread counts), or false if the
    // revisit is not performed (a kept event reads a deleted one or r, or r or a deleted event
    // was not added maximally). Asks the budgets.
    [[nodiscard]] virtual bool revisitKeep(const ExecutionGraph& g, Ref r, Ref a,
                                           const std::vector<std::int32_t>& porf,
                                           std::vector<std::int32_t>& keep) = 0;
    // A graph to build a revisit in, owned by the core for the duration of the revisits at
    // this depth (released by releaseRevisitGraph).
    [[nodiscard]] virtual ExecutionGraph& revisitGraph(std::size_t depth) = 0;
    virtual void releaseRevisitGraph(std::size_t depth) = 0;
    // h is a revisit in which node r changed: if consistent, replay it and explore on.
    virtual Step exploreRevisit(ExecutionGraph& h, Ref r, std::size_t depth) = 0;
    // The same in two parts, for a policy that goes on after an explored revisit: is h
    // consistent (then it is replayed), and the exploration of h (awaited at once).
    [[nodiscard]] virtual bool revisitReady(ExecutionGraph& h, std::size_t depth) = 0;
    virtual Step visitRevisited(ExecutionGraph& h, Ref r, std::size_t depth) = 0;
    // SAVER: may the revisited graph h be explored (ZnePolicy::justifiedRevisit)?
    [[nodiscard]] virtual bool justifiedRevisit(const ExecutionGraph& h) = 0;
    // Replays `order` of g on the execution (false: a budget ran out first).
    [[nodiscard]] virtual bool replayOrder(const ExecutionGraph& g, std::span<const Ref> order,
                                           bool stopAtFailure) = 0;
    // Report the execution just replayed as an error trace.
    virtual void reportReplayedError() = 0;
    // The position of thread t's last event the latest replay performed (-1: none). A thread
    // that failed there skipped its later events in the graph (a relaxed LAPOR replay adds
    // events of a thread after a write that faults once a kill is placed co-before it).
    [[nodiscard]] virtual std::int32_t lastReplayed(ThreadId t) const = 0;

    // Per-depth scratch a policy may use while it works at that depth.
    [[nodiscard]] virtual Snapshot& snapshot(std::size_t depth) = 0;
    [[nodiscard]] virtual std::vector<std::int32_t>& porfScratch(std::size_t depth) = 0;
    [[nodiscard]] virtual std::vector<Ref>& refScratch(std::size_t depth) = 0;
    // The witness of the graph being extended at this depth (its events in an order consistent
    // with it; the state of the execution is that of its replay). Valid until the next change.
    [[nodiscard]] virtual std::span<const Ref> witness(std::size_t depth) const = 0;
    // The witnesses of every depth, indexed when the core uses WbGraphs (Witness.hpp).
    [[nodiscard]] virtual const WitnessStack& witnesses() const = 0;

  protected:
    Engine() = default;
    Engine(const Engine&) = default;
    Engine& operator=(const Engine&) = default;
};

// A graph's location exists, with the program's current initial value. A C program creates
// locations as they are first used (a malloc'd block's start uninitialised, a thread-local's
// copy with its initialiser); the program's table has the value from then on, which the table
// at the explorer's start did not.
inline void ensureLocation(ExecutionGraph& g, LocId loc, const ProgramInfo& info) {
    g.ensureLoc(loc);
    const auto i = static_cast<std::size_t>(loc);
    if (i < info.initialValues.size() && i < g.initial.size()) g.initial[i] = info.initialValues[i];
}

}  // namespace porlab::graph
