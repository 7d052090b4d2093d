// SPDX-License-Identifier: MIT
// The graph-based exploration engine (GenMC/TruSt skeleton, ALGORITHMS.md §2.1/§3.3) for
// sequential consistency. A graph holds, per thread, the events added so far, a reads-from source
// for every read-like event and a coherence order (co) per location. Events are added one at a
// time (next event of the left-most thread that can move):
//  * a read-like event branches on every write of its location it may read (a read-modify-write
//    writes right after its source in co: atomicity);
//  * a write branches on every place in co, then revisits every earlier read of its location it
//    is not porf-after.
// Consistency under SC is acyclicity of po ∪ rf ∪ co ∪ fr (plus spawn/join edges), checked by a
// topological sort that also yields the witness interleaving replayed through the program.
//
// Revisit (maximality) condition, TruSt (Kokologiannakis et al., POPL'22): a revisit of read r by
// the new write a keeps K = {e | e ≤ r} ∪ porf(a) ∪ {a} (≤: addition order) and deletes the rest,
// D. It is performed only if every event e of D ∪ {r} was "added maximally" with respect to
// Prev(e) = {e' | e' ≤ e} ∪ porf(a): a read reads the co-maximal write of its location in
// Prev(e) (a lock or await that this write does not admit must be a blocked placeholder), and a
// write is co-maximal in Prev(e). Every graph then has exactly one parent, so every consistent
// (rf, co) graph, i.e. every Mazurkiewicz class, is produced once.
//
// Explorers built on the engine choose what to report (hook `accept`): `rf-graph` reports one
// graph per reads-from class (the co of a canonical witness), `lapor` one per lock-aware class.
// What is not TruSt lives in policies with their own files, seeing the core through Engine.hpp:
// LAPOR's locks (MutexLocks), SAVER's zne markers (Zne), error traces (Failures).
#pragma once

#include <deque>
#include <memory>
#include <span>
#include <vector>

#include "porlab/explore/Explorer.hpp"
#include "porlab/explore/graph/Engine.hpp"
#include "porlab/explore/graph/ExecutionGraph.hpp"
#include "porlab/explore/graph/Failures.hpp"
#include "porlab/explore/graph/MutexLocks.hpp"
#include "porlab/explore/graph/WbGraphs.hpp"
#include "porlab/explore/graph/Zne.hpp"

namespace porlab::graph {

class WorkPool;  // Parallel.hpp: jobs > 1

class GraphExplorer : private Engine {
  public:
    GraphExplorer(const Program& p, const ExploreOptions& o, ExploreResult& r);
    ~GraphExplorer() override;
    GraphExplorer(const GraphExplorer&) = delete;
    GraphExplorer& operator=(const GraphExplorer&) = delete;

    void run();
    // Parallel exploration (Parallel.hpp): this explorer is worker `worker` of `pool`. explore()
    // runs the root (the whole exploration unless subtrees are handed to other workers), runTask
    // the subtree of one task, finish() adds the statistics and closes the result.
    void joinPool(WorkPool& pool, unsigned worker = 0);
    void explore();
    void runTask(ExecutionGraph& g, std::span<const Ref> order);
    void finish();
    [[nodiscard]] bool stopped() const { return rep_.stopped(); }
    // The frames of this explorer's steps (Step.hpp).
    [[nodiscard]] FrameArena& stepArena() final { return arena_; }

  protected:
    // Hooks of the explorers built on the engine (ReadsFrom.cpp, Lapor.cpp).
    // Next thread to extend (-1: the graph is maximal). Default: the left-most thread that can
    // move (ready, not stuck on a placeholder, not on a join of an unfinished thread).
    [[nodiscard]] virtual ThreadId nextThread(const ExecutionGraph& g);
    // Report this maximal, consistent graph as a trace? (Default: yes.) Graphs not accepted are
    // still executions: their final states are recorded as outcomes.
    [[nodiscard]] virtual bool accept(const ExecutionGraph& g) {
        (void)g;
        return true;
    }
    // Statistics of the explorer, added to the result at the end.
    virtual void addStats() {}

    // What those hooks may use.
    // The witness of the graph being extended (its events in an order consistent with it), as
    // nextThread is called.
    std::span<const Ref> witness_;
    // Can thread t be extended (ready, not stuck on a placeholder, not joining a running thread)?
    [[nodiscard]] bool canMove(const ExecutionGraph& g, ThreadId t) const;
    // Is thread t's next event a memory access (a read or a write; LAPOR: not a lock, unlock or
    // trylock)?
    [[nodiscard]] bool nextAccessesMemory(ThreadId t) const;
    // Is g's coherence order the one of the canonical SC witness of its reads-from relation
    // (SCChecker's deterministic search)? Exactly one graph of each reads-from class passes,
    // which is how `rf-graph` and `lapor` (wb) report one graph per class. (g has no fault: the
    // witness keeps every plain write before the kills of its location, where it would fault
    // and be another class; see SCChecker.)
    bool canonicalCoherence(const ExecutionGraph& g);
    // LAPOR mode (MutexLocks.hpp): locks are not read-modify-writes but plain events that never
    // block the exploration; mutual exclusion is part of consistency.
    // lockOrder: infer the lock order before the consistency search (CoChecker::lockOrder).
    // blockedSources: a lock stays blocked only with a source section (MutexLocks.hpp).
    // sectionsEnd: where the program's critical sections all end (ProgramInfo::sectionsEnd),
    // no lock is tried blocked for good.
    void useMutexLocks(bool lockOrder = true, bool blockedSources = false, bool sectionsEnd = true);
    // LAPOR with wo = wb on graphs of reads-from only (WbGraphs.hpp; after useMutexLocks).
    void useWbGraphs();
    // LAPOR (option inconsistent = explore): a graph that an addition or a revisit made
    // inconsistent is explored on instead of dropped, never reported, for the revisits that can
    // make it consistent again (its parent in TruSt's sense may be inconsistent: Lapor.cpp's
    // nextThread). Its extensions are not checked (consistency is prefix-closed) and are
    // replayed in addition order; revisits from it are checked as any. Only where
    // MutexLocks::mayExploreInconsistent.
    void exploreInconsistentGraphs(bool on) { exploreInconsistent_ = on; }
    [[nodiscard]] int maxThreads() const { return exec_->maxThreads(); }

  private:
    // Engine (the services the policies use; Engine.hpp). Final: the core's own calls to
    // them are direct.
    Execution& execution() final { return *exec_; }
    Reporter& reporter() final { return rep_; }
    const ProgramInfo& programInfo() const final { return *info_; }
    // Try graph g (just extended by node a, consistency unknown unless `appended`): on success,
    // replay the witness and continue the exploration (or report an error).
    Step proceed(ExecutionGraph& g, Ref a, bool appended, std::size_t depth) final;
    Step proceedBlocked(ExecutionGraph& g, std::size_t depth) final;
    bool revisitKeep(const ExecutionGraph& g, Ref r, Ref a, const std::vector<std::int32_t>& porf,
                     std::vector<std::int32_t>& keep) final;
    // The graph a revisit at this depth builds, held while the revisits run at this depth. The
    // graphs come from a pool: as many as revisits are nested on the current path, each reused
    // with its capacity (a graph kept per depth made memory quadratic; one allocated per call,
    // as long as the execution, fragmented the heap between the path's small allocations).
    ExecutionGraph& revisitGraph(std::size_t depth) final;
    void releaseRevisitGraph(std::size_t depth) final;
    Step exploreRevisit(ExecutionGraph& h, Ref r, std::size_t depth) final {
        if (!revisitReady(h, depth)) return {};
        return visitChecked(h, r, depth);
    }
    Step visitRevisited(ExecutionGraph& h, Ref r, std::size_t depth) final {
        return visitChecked(h, r, depth);
    }
    bool justifiedRevisit(const ExecutionGraph& h) final { return zne_.justifiedRevisit(h); }
    bool replayOrder(const ExecutionGraph& g, std::span<const Ref> order,
                     bool stopAtFailure) final {
        return replay(g, order, stopAtFailure);
    }
    void reportReplayedError() final;
    std::int32_t lastReplayed(ThreadId t) const final {
        return static_cast<std::size_t>(t) < lastReplayed_.size()
                   ? lastReplayed_[static_cast<std::size_t>(t)]
                   : -1;
    }
    Snapshot& snapshot(std::size_t depth) final { return frames_[depth].snap; }
    std::vector<std::int32_t>& porfScratch(std::size_t depth) final { return frames_[depth].porf; }
    std::vector<Ref>& refScratch(std::size_t depth) final { return frames_[depth].cands; }
    std::span<const Ref> witness(std::size_t depth) const final { return wit_.at(depth); }
    const WitnessStack& witnesses() const final { return wit_; }

    // The TruSt core, as steps (Step.hpp: each call one level of the recursion, run from
    // driver_'s loop, not on the native stack).
    // visit adds the events that need no step itself (see there); the others are steps.
    Step visit(ExecutionGraph& g, std::size_t depth);
    // kmin: coFloor of the read (its sources are co[kmin..], kmin = -1: the initial value too).
    Step addRead(ExecutionGraph& g, ThreadId t, Event p, std::size_t depth, int kmin);
    Step addWrite(ExecutionGraph& g, ThreadId t, std::size_t depth);
    // Does a write from co[kmin..] of p's location admit the lock or await p?
    [[nodiscard]] bool anyAdmitted(const ExecutionGraph& g, const Event& p, int kmin) const;
    // Undoes the last n events visit added without a step (undo_).
    void undoPlain(std::uint32_t n);
    // The revisits of the reads of g by write a (TruSt's backward revisits): revisits finds the
    // first with nextRevisit (a plain call: most writes revisit nothing) and only then starts
    // revisitsFrom, the step that explores it and the others.
    Step revisits(ExecutionGraph& g, Ref a, std::size_t depth);
    // The first read from r on (threads in order, events from porf(a) on) that a can revisit
    // (revisitKeep holds; what to keep is then in frames_[depth].keep); false if none.
    bool nextRevisit(const ExecutionGraph& g, Ref a, std::size_t depth, Ref& r);
    Step revisitsFrom(ExecutionGraph& g, Ref a, std::size_t depth, Ref r);
    // h (a revisit): if consistent, replay it; true if it is to be explored (visitChecked).
    bool revisitReady(ExecutionGraph& h, std::size_t depth) final;
    // Inconsistent graphs explored on (exploreInconsistentGraphs): is it on here; and the
    // replay of inconsistent g in its addition order, as the witness of depth + 1.
    [[nodiscard]] bool exploresInconsistent() const;
    bool replayBroken(const ExecutionGraph& g, std::size_t depth);
    // Consistency of g (witness in `order`); `final`: g is maximal (exact for open critical
    // sections and placeholders).
    // (hint: LAPOR co-filter, final g: the witness g was extended with, to look near.)
    bool consistent(const ExecutionGraph& g, bool final, std::vector<Ref>& order,
                    std::span<const Ref> hint = {});
    // Visit g after node a was added and the program replayed up to it, with a's zne
    // invalidations applied for the duration of the visit.
    Step visitChecked(ExecutionGraph& g, Ref a, std::size_t depth);
    // The visit after a's zne invalidations lifted the markers `removed` (visitChecked's second
    // half), and the visit that then puts them back at the end.
    Step visitLifted(ExecutionGraph& g, std::size_t depth, std::vector<Node> removed);
    Step visitRestoring(ExecutionGraph& g, std::size_t depth, std::vector<Node> removed);
    // TruSt's maximality of node e for the revisit by node a (porf: porf(a) as per-thread counts).
    bool maximallyAdded(const ExecutionGraph& g, Ref e, Ref a,
                        const std::vector<std::int32_t>& porf);
    // The co position of the co-last write of loc that happens before node a (porf, without a's
    // own source; a may not be added yet), -1 if none: a write cannot be placed before it, nor
    // can a read read from an earlier one.
    int coFloor(ExecutionGraph& g, Ref a, LocId loc);
    // Replays order; false if a budget ran out first (the execution is then incomplete).
    [[nodiscard]] bool replay(const ExecutionGraph& g, std::span<const Ref> order,
                              bool stopAtFailure = false);
    void report(ExecutionGraph& g, std::size_t depth);
    void ensureDepth(std::size_t depth);

    std::unique_ptr<Execution> exec_;
    Reporter rep_;
    ExploreResult& result_;
    std::shared_ptr<const ProgramInfo> info_;
    bool collectOutcomes_ = true;
    bool finalReplay_ = false;
    SCChecker sc_;
    CoChecker co_;
    // The policies (Engine.hpp): LAPOR's locks (only in mutex mode), SAVER's zne markers, the
    // error traces.
    std::unique_ptr<MutexLocks> mutex_;
    std::unique_ptr<WbGraphs> wb_;  // LAPOR, wo = wb: memory events without coherence
    ZnePolicy zne_;
    FailureReports failures_;

    std::vector<std::int32_t> floorPorf_;
    std::vector<std::unique_ptr<ExecutionGraph>> graphPool_;
    std::vector<Event> events_;               // events of the last replay
    std::vector<std::int32_t> lastReplayed_;  // per thread: its last event the replay performed
    ExecutionGraph root_;
    WitnessStack wit_;
    FrameArena arena_;  // (before driver_: outlives every step)
    StepDriver driver_;
    // The events visit added without a step, on the current path: their graph and thread.
    struct PlainAdded {
        ExecutionGraph* g;
        ThreadId t;
    };
    std::vector<PlainAdded> undo_;
    // Per-depth scratch (a deque: references stay valid as it grows). Nothing in it is sized by
    // the graph except while it is used: the exploration path is as deep as the execution is
    // long, so a depth must cost O(threads), not O(events).
    struct Frame {
        Snapshot snap;                          // only when the depth branches
        std::vector<std::int32_t> porf;         // revisits: porf of the new write
        std::vector<std::int32_t> keep;         // revisits: the kept prefix of each thread
        std::vector<Ref> cands;                 // trylock sources
        std::unique_ptr<ExecutionGraph> graph;  // revisits: the revisited graph
        bool broken = false;  // the graph of this depth is inconsistent (inconsistent = explore)
    };
    bool exploreInconsistent_ = false;
    std::vector<Ref> brokenOrder_;
    std::uint64_t brokenExplored_ = 0, brokenDropped_ = 0;
    std::deque<Frame> frames_;
    Snapshot scratchSnap_;
    std::vector<Ref> freshOrder_, tmpOrder_, scOrder_;
    std::vector<std::vector<Ref>> finalOrders_;
    std::vector<std::int32_t> scLim_;
    std::vector<std::size_t> coPos_;
    WorkPool* pool_ = nullptr;   // jobs > 1: where idle workers take subtrees from
    unsigned worker_ = 0;        // (which worker of it this explorer is)
    std::size_t taskDepth_ = 0;  // the depth of the visit that roots the current task
    std::uint64_t revisitsTried_ = 0, revisitsDone_ = 0, inconsistent_ = 0, dropped_ = 0;
    std::uint64_t skipped_ = 0;   // maximal graphs not accepted
    std::uint64_t coForced_ = 0;  // canonicalCoherence: co forced by porf, no search
};

}  // namespace porlab::graph
