// SPDX-License-Identifier: MIT
// LAPOR with wo = wb on the graph engine (Kokologiannakis et al., OOPSLA'19, §3-4) on graphs of
// reads-from only: `lapor` with wb_graphs = "rf" (the default). A write has no
// place in a coherence order (the engine's co stays empty for plain writes), so the exploration
// explores one graph per lock-aware class instead of one per (reads-from, coherence) pair
// filtered at the end (nww-lock-rr(N): N graphs instead of N!).
//
// What changes against the TruSt core (GraphExplorer.cpp):
//  * a read branches on every write of its location with which the graph stays consistent
//    (consistency: the exact search for an SC witness of reads-from with mutual exclusion,
//    SCChecker; a critical section still open in a partial graph may end after its last event
//    so far, which a completion can close);
//  * a write is added once (appended to the witness), then revisits the reads of its location
//    it is not porf-after, as in TruSt;
//  * "added maximally" (TruSt's revisit condition, for the revisit of r by a) for a read e
//    needs a source every graph of a class agrees on, independent of the order in which deleted
//    events are re-added: among the writes of e's location in Prev(e) = {e' added no later than
//    e} ∪ porf(a), in the order of the canonical SC witness of Prev(e) without e but with a
//    (without a if a does not fit), the last one e can read with Prev(e) (without a) consistent
//    (what a fresh addition of e explores). An await reads it if it admits it, else is a
//    placeholder. (maximallyAdded's comments give the two programs that need each part.)
//  * a final graph records every final memory state it can end in (writes nobody reads are in
//    no order), one witness each (otherFinals: SCChecker::finals), for the outcomes.
//
// Status: the default since a read costs O(threads x log + its sources) to set up, not
// O(events): its candidate writes come from the graph's index of writes per location and
// thread (ExecutionGraph::writesIn), and the write it may read by appending and the check that
// the witness ended none of its thread's sections early from the witness stack's index
// (Witness.hpp). Scans of the graph and of the witness made one long execution quadratic
// (300,000 reads of one location: 390 s; now ~0.3 s, linear: 160,000 reads 0.15 s, co-filter
// 0.12 s). On the LAPOR suite it is as fast as co-filter or faster, fib_bench(5) aside
// (builder 0.066 s against 0.049 s CPU, C 0.080 against 0.060, both under rf's ~0.10 s), and it
// explores one graph per class where co-filter explores N! on nww-lock-rr(N).
// Against the naive oracle of the lock-aware
// equivalence it is exact (complete and blocked classes, no class twice, outcomes, error sites)
// on 12,000 random and 6,000 sync-heavy random programs (tests/cpp/RandomProgram.hpp seeds
// 1-12000, 1000001-1006000), 3,100 larger ones (a thread and two operations more, 10x the
// interleaving bound), and (with the changes since: kills, sections, the cheap checks below;
// seeds 1-6000, 1000001-1003000) on the whole C corpus (every tests/c program with rf as the
// default). The canonical choice is not proven to keep TruSt's completeness; earlier choices
// lost classes (the last in the witness without a or without the consistency filter: seeds 78,
// 167, 393, 1000146; the latest added write by stamp; the last in (thread, position) order).
// Writes after a kill (a free or an end of scope: an exchange of kDeadValue): a plain write and
// the kill of its location are in no order here, and no witness runs the write after the kill
// (SCChecker). The fault is found when the later of the two is added (writeAfterKill,
// writesAfterKill: a witness of porf(k) ∪ porf(w) that w can follow) and reported; a write that
// can only run after a kill is the graph of its fault (Node::faulted, its thread stopped),
// explored on as co-filter explores it. (The random programs have no kills: the C corpus and
// test_lapor check this.) Cost: every source that is not overwritten in porf before the read
// (dropOverwritten) is tried with an exact SC search, except the last write of the witness,
// which is read by appending when the witness ended none of the thread's open sections early
// (MutexLocks::appendable, also for writes and unlocks: otherwise the graph is searched, and
// an inconsistent one is not explored on); maximality needs searches too (maximalAlongPorf
// avoids the witness of Prev(e) when the candidates form a porf chain; the answers are kept
// for the revisits of one write, memo_); a final graph is searched again (GraphExplorer::report,
// 13% of fib_bench(5)'s instructions; with no placeholder and no open section the witness the
// exploration already has may do: not tried).
// Each check is one SCChecker search (ExecutionGraph.hpp): the plain search first, the
// saturation (SCSaturation.cpp) after its budget, or the saturation first where it has paid
// recently (refuted graphs, long searches: SCChecker::adaptAfter). fib_bench(5), callgrind
// instructions inside exploreLapor (CPU s, medians of 3 on a loaded machine): builder program
// (main last) 1.00G, 0.068 s (19,417 checks, 19,409 of them plain first, 1.38M states), against
// co-filter's 1.09G, 0.087 s and the rf explorer's 1.16G, 0.098 s; C (main first: 5,921
// revisits) 3.18G, 0.216 s (64,108 checks, 30,558 maximality checks), against co-filter's
// 2.50G, 0.197 s and rf's 1.31G, 0.103 s. (Before, every check saturated first: builder 2.22G,
// C 6.19G.) nww-lock-rr(N) explores N graphs; its cost grows with the N(N-1) sources of main's
// second read that the saturation refutes (N = 4, 8, 12: 0.64, 2.86, 10.5M instructions in
// exploreLapor; 19, 71, 155 checks, 12, 56, 132 refuted). blocked_locks = "sources"
// (MutexLocks.hpp) was measured before sections_end removed the dead ends and is not re-measured.
// Locks, unlocks and trylocks stay with MutexLocks.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "porlab/explore/graph/Engine.hpp"

namespace porlab::graph {
class FailureReports;
class MutexLocks;
}  // namespace porlab::graph

namespace porlab::graph {

class WbGraphs {
  public:
    explicit WbGraphs(Engine& engine);

    // Is p (not a lock-like event: MutexLocks is asked first) a memory read or write?
    [[nodiscard]] static bool handles(const Event& p) {
        return readsMemory(p.kind) || writesMemory(p.kind);
    }
    // Adds p (all branches) and explores on: the step to await at once.
    Step add(ExecutionGraph& g, ThreadId t, const Event& p, std::size_t depth);
    // p is a plain read whose only source is the last write of its location in the witness of
    // depth and the witness ended none of t's sections early: that source (the core adds the
    // read by appending it, without a step). Otherwise nullopt, and add(g, t, p, depth) comes
    // next (it reuses the sources found here).
    [[nodiscard]] std::optional<Ref> onlySource(ExecutionGraph& g, ThreadId t, const Event& p,
                                                std::size_t depth);
    // Consistency of g restricted to the first lim[t] nodes of every thread: an SC witness of
    // its reads-from that keeps critical sections apart. openEnded[t]: thread t gets more events
    // (its open critical sections may end after its last node, its trailing placeholder is
    // ignored); otherwise its open sections last to the end. placeholders: every placeholder
    // must stay blocked (a final graph). The witness (without placeholders) goes to `order`.
    bool consistent(const ExecutionGraph& g, const std::vector<std::int32_t>& lim,
                    const std::vector<bool>& openEnded, bool placeholders, std::vector<Ref>& order);
    // The whole graph: partial (every thread open-ended) or final.
    bool consistent(const ExecutionGraph& g, bool final, std::vector<Ref>& order);
    // TruSt's maximality of node e for a revisit by a (porf: porf(a) as per-thread counts).
    // nullopt: not a memory event of this policy.
    [[nodiscard]] std::optional<bool> maximallyAdded(const ExecutionGraph& g, Ref e, Ref a,
                                                     const std::vector<std::int32_t>& porf);
    // Writes that nothing reads are ordered by nothing: one graph can end in several memory
    // states. Witnesses of the final graph g ending in every other memory state than `reported`
    // (the witness just replayed) does, one per state, go to `out` (for its outcomes).
    void otherFinals(const ExecutionGraph& g, std::span<const Ref> reported,
                     std::vector<std::vector<Ref>>& out);
    void addStats(ExploreResult& r) const;
    // Where the faults of writes after a kill go (see writeAfterKill), and the lock policy that
    // gives their prefixes witnesses the program can replay.
    void useFailures(FailureReports* failures, MutexLocks* mutex) {
        failures_ = failures;
        mutex_ = mutex;
    }
    [[nodiscard]] FrameArena& stepArena() { return engine_.stepArena(); }  // (Step.hpp)

  private:
    Step addRead(ExecutionGraph& g, ThreadId t, Event p, std::size_t depth);
    Step addWrite(ExecutionGraph& g, ThreadId t, std::size_t depth);
    Step revisits(ExecutionGraph& g, Ref a, std::size_t depth);
    // A plain write after the kill of its location (a free, an end of scope: an exchange of
    // kDeadValue) faults, an order no witness of a graph takes (SCChecker). Those faults are
    // found when the later of the two is added, or when the kill gets another source (its
    // prefix changes), and reported (FailureReports). A pair's fault prefix, porf(k) ∪ porf(w),
    // is the same in every graph that has both, so once is enough.
    // Plain write a was just stepped after every event of g: true if it faulted after a kill
    // (reported; the execution's state is kept: that of the fault).
    bool writeAfterKill(const ExecutionGraph& g, Ref a);
    // Kill k was just added to g (or got a new source): the plain writes of g that may run
    // after it. keepState: the execution's state is restored afterwards.
    void writesAfterKill(const ExecutionGraph& g, Ref k, bool keepState);
    // The plain writes (kills: the kills) of a's location in g but a.
    static void eachWriteOf(const ExecutionGraph& g, Ref a, bool kills,
                            const std::function<void(Ref)>& f);
    // Can plain write w run right after a prefix that contains kill k (porf(k) ∪ porf(w), and
    // the unlocks the witness needs)? Then that fault is reported.
    void reportFault(const ExecutionGraph& g, Ref k, Ref w);
    // consistent(): the search failed with check_'s open sections closed in one order; try the
    // others (a thread with several open sections).
    bool closeOtherwise(bool placeholders, std::vector<Ref>& order);
    // Can witnesses of final graph g end in different memory states?
    bool severalFinals(const ExecutionGraph& g);
    // Drops from srcs the writes that the next read of t cannot read because another write of
    // their location is porf-between them and it.
    void dropOverwritten(const ExecutionGraph& g, ThreadId t, std::vector<Ref>& srcs);
    // Of `writes` (one location), those porf-before a read whose porf-prefix without its source
    // is porfR_ (before_: the last of each thread), with their own prefixes (views_); then: is
    // w overwritten by one?
    void overwrittenBefore(const ExecutionGraph& g, const std::vector<Ref>& writes);
    [[nodiscard]] bool overwritten(Ref w) const;
    // maximallyAdded for a read e without condition (revisit by a), with cands_ its candidates
    // and before_ set: if the candidates not overwritten are a porf chain, the answer (nullopt:
    // undecided; noneFits_: none of them fits).
    std::optional<bool> maximalAlongPorf(const ExecutionGraph& g, Ref e, Ref a);
    // maximallyAdded for a memory read e (no memo).
    bool maximallyAddedRead(const ExecutionGraph& g, Ref e, Ref a,
                            const std::vector<std::int32_t>& porf);
    // The revisits of write a in g start (or go on after an exploration that may have used the
    // memo): maximallyAdded's answers for (g, a) are kept until the next call.
    void memoBegin(const ExecutionGraph& g, Ref a);
    // The writes of loc (init first) in g, for a read to choose from.
    void writesOf(const ExecutionGraph& g, LocId loc, Ref self, std::vector<Ref>& out) const;
    // The writes of loc the next read of t may read, but for those overwritten porf-before it
    // by a later write of their own thread (sets porfR_).
    void readableWrites(const ExecutionGraph& g, ThreadId t, LocId loc, std::vector<Ref>& out);

    Engine& engine_;
    FailureReports* failures_ = nullptr;
    MutexLocks* mutex_ = nullptr;
    SCChecker sc_;
    ExecutionGraph check_, prev_;  // scratch: a graph with its open sections closed; Prev(e)
    // lim_: Prev(e) per thread; wholeLim_: a whole graph; checkLim_, base_: check_'s threads
    // and how many of their nodes are the graph's (the rest close open sections).
    std::vector<std::int32_t> lim_, wholeLim_, checkLim_, base_;
    std::vector<bool> openEnded_;
    std::vector<std::size_t> multi_;
    std::vector<Ref> cands_, order_;
    std::vector<std::vector<Value>> states_;        // otherFinals: the final memory states
    std::vector<std::pair<LocId, Ref>> lastCands_;  // severalFinals: writes that may be last
    std::vector<std::int32_t> porfTmp_, upto_, porfR_, views_, lastBefore_;
    std::vector<Ref> before_, viable_;
    std::vector<std::int32_t> viewsV_;
    std::vector<std::size_t> order2_;
    std::vector<Ref> faultOrder_;
    // onlySource's sources, for the add that follows it on the same graph, thread and stamp.
    std::vector<Ref> found_;
    struct {
        const ExecutionGraph* g = nullptr;
        ThreadId t = -1;
        std::uint64_t stamp = 0;
    } foundFor_;
    Snapshot killSnap_;
    std::uint64_t checks_ = 0, maximalityChecks_ = 0, finalsChecks_ = 0, killChecks_ = 0;
    std::uint64_t overwritten_ = 0, porfOrdered_ = 0;
    bool noneFits_ = false;
    struct {
        const ExecutionGraph* g = nullptr;  // null: no memo
        Ref a;
        std::uint64_t stamp = 0;         // g.nextStamp then (a check that g is unchanged)
        std::vector<std::size_t> off;    // per thread: its first node's index in known
        std::vector<std::int8_t> known;  // per node: -1 unknown, 0 / 1 maximally added
    } memo_;
    std::uint64_t maximalityMemo_ = 0;
};

}  // namespace porlab::graph
