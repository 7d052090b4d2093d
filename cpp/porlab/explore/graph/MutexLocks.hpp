// SPDX-License-Identifier: MIT
// LAPOR's lock handling on the graph engine (Kokologiannakis et al., OOPSLA'19; ALGORITHMS.md
// §3): locks and unlocks are not read-modify-writes but events without reads-from, in no
// coherence order, that never block the exploration; mutual exclusion is part of consistency
// (some SC witness keeps the critical sections of each mutex apart: CoChecker::checkMutex).
// pthread_mutex_trylock either succeeds (an acquire) or fails inside the critical section of an
// acquire of its mutex (its source); a later acquire revisits a successful trylock. A lock
// acquires or stays blocked for good (a placeholder), in one of two ways (option blocked_locks):
//  * eager (default): every lock also gets a placeholder, explored to the end, where the graph
//    is dropped unless its mutex is held by a section that never ends;
//  * sources: a blocked lock has a source like a failed trylock, an acquire whose critical
//    section never ends (it holds the mutex at the end): one already open when the lock is
//    added, or a later one, which revisits the lock (acquireRevisits). A graph in which an
//    unlock ends a source section is inconsistent: dropped at that unlock unless a later
//    revisit may still delete the unlock (then it is explored on and dropped at the end if
//    none did: closesBlocker). Exact on the same tests; nww-lock-rr(N) explores N graphs and
//    drops N(N-1)/2 at an unlock (eager: 2^N - 1 at the end), but on fib_bench the graphs
//    explored on for a revisit cost more than eager's placeholders (WbGraphs.hpp's status).
//
// The core asks this policy, when it is on:
//  * handles(p) / add(...): the next event is a lock, unlock or trylock: add it (all branches);
//  * consistent(...): consistency of a graph (it replaces the core's coherence check);
//  * maximallyAdded(...): TruSt's maximality of a lock-like node (revisits);
//  * beforeReplay(final): a replay starts (relaxed locks until the final one);
//  * prefixWitness(...): a witness of the prefix a failure needs (FailureReports).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "porlab/explore/graph/Engine.hpp"

namespace porlab::graph {

class WbGraphs;

class MutexLocks {
  public:
    MutexLocks(Engine& engine, CoChecker& co);

    // Is p (the next event of its thread) a lock, an unlock or a trylock?
    [[nodiscard]] bool handles(const Event& p) const;
    // Adds it (all branches) and explores on: the step to await at once.
    Step add(ExecutionGraph& g, ThreadId t, const Event& p, std::size_t depth);
    // Consistency of g (witness in `order`); `final`: g is maximal (exact for open critical
    // sections and placeholders). co-filter, final g: first a witness near `hint` (the witness
    // g was extended with), found greedily (CoChecker::greedyWitness); the search where that
    // fails. (Partial graphs: the greedy choice found few of theirs, for more than it saved.)
    bool consistent(const ExecutionGraph& g, bool final, std::vector<Ref>& order,
                    std::span<const Ref> hint = {});
    // May the next event of thread t (node `at` of t, pushed or about to be) go at the end of
    // witness `wit` of g, the graph staying consistent? Not if t is inside a critical section
    // that the witness let end early (t's sections are open-ended in a partial graph's search):
    // another thread acquires its mutex after t's last event there. Then the graph needs the
    // search (and is often inconsistent: exploring it on would only end in dropped graphs).
    // (The witness of depth d in w, indexed.)
    [[nodiscard]] static bool appendable(const ExecutionGraph& g, ThreadId t, std::int32_t at,
                                         const WitnessStack& w, std::size_t d);
    // Was lock-like node e added maximally (TruSt)? nullopt: e is not lock-like.
    [[nodiscard]] static std::optional<bool> maximallyAdded(const Node& n, Ref e);
    // A lock-like node: out of reads-from (as a source or a reader) and out of co.
    // May thread t run its next event, an unlock of m? Not if that ends the section a blocked
    // lock waits on (the source of a lock placeholder) and no later revisit can delete the
    // unlock while keeping the lock blocked: the graph is then a dead end.
    bool unlockOk(const ExecutionGraph& g, ThreadId t, LocId m);
    [[nodiscard]] static bool isLockEvent(const Node& n) { return graph::isLockEvent(n); }
    // May the core explore inconsistent graphs on (GraphExplorer::exploreInconsistentGraphs)?
    // Their replay order needs relaxed locks; and only where every critical section ends (no
    // lock placeholder, no trylock): with them, some graphs were reached twice
    // (LaporOnC.GeneratedTrylockPrograms).
    [[nodiscard]] bool mayExploreInconsistent() const { return relaxedReplay_ && sectionsEnd_; }
    void beforeReplay(bool final) {
        if (relaxedReplay_) engine_.execution().setRelaxedLocks(!final);
    }
    // A witness of the prefix `upto` (per-thread counts) of g that the program can replay with
    // real locks. False: there is none. True with `need` set: the witness releases a section of
    // the prefix that lacks its unlock; `need` is that unlock, to be added to the prefix (with
    // what it needs) before asking again. `closed`: a thread cut short whose open sections last
    // to the end of the prefix (it is about to run its next event inside them), or -1.
    bool prefixWitness(const ExecutionGraph& g, const std::vector<std::int32_t>& upto,
                       std::vector<Ref>& out, std::optional<Ref>& need, ThreadId closed = -1);
    void addStats(ExploreResult& r) const;
    [[nodiscard]] FrameArena& stepArena() { return engine_.stepArena(); }  // (Step.hpp)
    // wo = wb on graphs of reads-from only: consistency (and failure witnesses) from there.
    void useWbGraphs(WbGraphs* wb) { wb_ = wb; }
    // blocked_locks = sources (see above); default eager.
    void useSources(bool on) { sources_ = on; }
    // Rely on ProgramInfo::sectionsEnd (default; false: an ablation, every lock may block).
    void useSectionsEnd(bool on) { sectionsEnd_ = on && engine_.programInfo().sectionsEnd; }

  private:
    [[nodiscard]] bool isTrylock(const Event& p) const;
    enum class Closing : std::uint8_t { None, Revivable, DeadEnd };
    // Does t's next event, an unlock of m, end a blocked lock's source section, and can a
    // revisit still mend that (see unlockOk)?
    [[nodiscard]] static Closing closesBlocker(const ExecutionGraph& g, ThreadId t, LocId m);
    // Is every lock placeholder's source section still open (no unlock ended it)?
    [[nodiscard]] static bool sourcesOpen(const ExecutionGraph& g);
    // Final graph g: does every lock placeholder's mutex stay held by a section left open?
    [[nodiscard]] static bool lockPlaceholdersCanBlock(const ExecutionGraph& g);
    Step addLockEvent(ExecutionGraph& g, ThreadId t, Event p, std::size_t depth);
    Step addTrylock(ExecutionGraph& g, ThreadId t, std::size_t depth);
    // The new acquire a of mutex m revisits every successful trylock and (sources) every lock
    // of m not porf-before it (the trylock fails, the lock stays blocked, in a's section).
    Step acquireRevisits(ExecutionGraph& g, Ref a, std::size_t depth);

    Engine& engine_;
    CoChecker& co_;
    WbGraphs* wb_ = nullptr;
    bool sources_ = false;  // blocked locks have sources (blocked_locks = sources)
    // Every critical section ends (ProgramInfo::sectionsEnd): no lock stays blocked for good,
    // in either way.
    bool sectionsEnd_ = false;
    bool relaxedReplay_ = false;  // the program can relax its locks (Execution::setRelaxedLocks)
    std::vector<bool> openEnded_;
    std::vector<std::int32_t> keep_;
    ExecutionGraph subGraph_;
    std::uint64_t noReplayOrder_ = 0, lockNeverHeld_ = 0, blockerClosed_ = 0;
    std::uint64_t blockerRevivable_ = 0, sourceClosed_ = 0;
};

}  // namespace porlab::graph
