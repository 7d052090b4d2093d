// SPDX-License-Identifier: MIT
// Building blocks for explorers written in Python (porlab.register_explorer, issue 20), so that a
// prototype spends its time in C++ and runs Python per trace and per race, not per event.
//
// kit::Sequence is the explored sequence E of a DPOR explorer: the execution, the events of E
// with their happens-before (vector clocks kept incrementally as E grows and shrinks), a
// snapshot of the program state before every step (backtracking restores one instead of
// replaying from the start), and a sleep set per depth (Godefroid's sleep sets as DPOR uses
// them, Abdulla et al. JACM'17 §3). On it: extending E to its end in one call, backtracking,
// the races of E (Source-DPOR's Def. 3.1) with the initials of the sequences that reverse them
// (notdep(e, E).e', Algorithm 1 line 6), the weak-initial test of Optimal-DPOR (Def. 6.1) and
// the sleep-set redundancy test of a wakeup sequence.
//
// Happens-before of E: program order, spawn -> the child's first event, the joined thread's
// last event -> join, and the order of conflicting events of different threads (the run's
// conflict relation: IFAA fetch-and-adds commute when it says so). Dependence (sleep sets,
// weak initials) is the same relation on pairs of events, and a step that fails the run is
// dependent with everything (a failure ends the run: nothing can follow it).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "porlab/core/Conflict.hpp"
#include "porlab/explore/Explorer.hpp"

namespace porlab::kit {

// An entry of a sleep set: a thread's next event (it stays next while the thread sleeps) and
// whether performing it fails the run.
struct SleepEntry {
    Event ev;
    bool fails = false;
};

// Are two events dependent: the same thread, a memory conflict, or one spawns or joins the
// other's thread?
[[nodiscard]] bool dependent(const Event& a, const Event& b, ConflictRelation conf);

// The sleep set after performing `e` from a state with sleep set `sleep`: the entries
// independent of e (a failing entry never survives a step).
[[nodiscard]] std::vector<SleepEntry> sleepAfter(std::span<const SleepEntry> sleep, const Event& e,
                                                 ConflictRelation conf);

// How E ended after extend(): Open (not ended: the budget stopped it), Maximal (no thread is
// enabled), Error (its last step failed), SleepBlocked (every enabled thread sleeps).
enum class End : std::uint8_t { Open, Maximal, Error, SleepBlocked };

// A race reversal for Source-DPOR: the sequence v that reverses a race starts at `depth`
// (the state after `depth` steps); `initials` are the threads that can start v (a bit mask),
// `first` the thread of v's first event (always one of them).
struct Reversal {
    std::size_t depth = 0;
    std::uint64_t initials = 0;
    ThreadId first = 0;
};

class Sequence {
  public:
    // `rep` counts the events, checks budgets and reports maximal executions; null: nothing
    // is counted or reported (tests). At most 64 threads (InputError beyond).
    Sequence(const Program& program, ConflictRelation conf, Reporter* rep);

    // ---- E ------------------------------------------------------------------------------------
    [[nodiscard]] std::size_t depth() const { return thread_.size(); }
    // Every event of E: the events reset() emitted, then each step's event and its markers.
    [[nodiscard]] const std::vector<Event>& events() const { return ev_; }
    [[nodiscard]] ThreadId thread(std::size_t d) const { return thread_.at(d); }
    // Position in events() of step d's first event (d == depth(): events().size()).
    [[nodiscard]] std::size_t start(std::size_t d) const;
    // The step that emitted the event at `pos`; -1 for the events of reset().
    [[nodiscard]] int depthOf(std::size_t pos) const { return depthOf_.at(pos); }
    [[nodiscard]] End end() const { return end_; }
    [[nodiscard]] int maxThreads() const { return static_cast<int>(T_); }
    // The execution in the state after E (restored from a snapshot when E was shortened).
    Execution& execution();
    // Threads enabled after E (bit mask).
    [[nodiscard]] std::uint64_t enabled();
    [[nodiscard]] const std::vector<SleepEntry>& sleep(std::size_t d) const { return sleep_.at(d); }
    [[nodiscard]] std::uint64_t sleepMask(std::size_t d) const;

    // ---- moving -------------------------------------------------------------------------------
    // Perform thread t's next event (enabled, InputError otherwise); the new depth's sleep set
    // is sleepAfter(sleep(depth), that event).
    void step(ThreadId t);
    // Step `first` (-1: the lowest enabled thread not asleep), then the lowest enabled thread
    // not asleep, until E ends (or the reporter says stop: Open).
    End extend(ThreadId first);
    // Shorten E to d steps; step d's event goes to sleep at depth d.
    void backtrack(std::size_t d);
    // Report E (ended Maximal or Error) to the reporter; returns the status counted.
    TraceStatus report();

    // ---- happens-before and races ---------------------------------------------------------------
    // Does the event at position i happen before the one at j (i < j)?
    [[nodiscard]] bool hb(std::size_t i, std::size_t j) const;
    // Source-DPOR's races (i, j) of E: conflicting events of different threads, i happening
    // before j with no event between them in happens-before; a lock after an unlock races with
    // the lock that began the unlocked critical section. Ordered by j, then by i decreasing.
    [[nodiscard]] std::vector<std::pair<std::size_t, std::size_t>> races() const;
    // The positions of v = notdep(i, E).j: the events after i and before j that i does not
    // happen before, then j.
    [[nodiscard]] std::vector<std::size_t> notdep(std::size_t i, std::size_t j) const;
    // The threads that can start the subsequence `v` of E (positions, increasing) performed
    // as a sequence of its own: those whose first event in v has no happens-before predecessor
    // in v, happens-before of v being the dependence of its events in v's order (a bit mask).
    [[nodiscard]] std::uint64_t initials(std::span<const std::size_t> v) const;
    // Is q, whose next event after E is `next` (failing: `fails`), a weak initial of the
    // subsequence v of E (Optimal-DPOR Def. 6.1)? Either q's first event in v has no
    // happens-before predecessor in v, or q has no event in v and `next` is independent of
    // every event of v.
    [[nodiscard]] bool weakInitial(std::span<const std::size_t> v, const Event& next,
                                   bool fails = false) const;
    // Would inserting v at depth d be redundant because a thread asleep at d is a weak initial
    // of v (Optimal-DPOR Algorithm 2 line 5)? v: positions of E after start(d).
    [[nodiscard]] bool asleep(std::size_t d, std::span<const std::size_t> v) const;
    // Every race reversal of the ended E, for Source-DPOR: (a) each race (i, j) by
    // notdep(i, E).j at i's depth, and for an executed await every event i it conflicts with
    // (not only the adjacent one: an await may be disabled where that one happens); (b) a thread
    // whose next event is disabled at the end (an await, a lock, a join) by notdep(i, E).next for
    // each event i it conflicts with; (c) when the last step f failed, every other thread ready
    // before f by itself just before f (a failure disables every thread). In that order (races by
    // j, then i decreasing).
    [[nodiscard]] std::vector<Reversal> reversals();

  private:
    void restoreIfNeeded();
    void push(std::span<const Event> evs);
    void pop();
    // The clock and the direct predecessors of `e` as if appended to E (e: an event of E being
    // pushed, or a pending one); preds gets the positions.
    void clockOf(const Event& e, std::vector<std::uint32_t>& clock, std::vector<int>& preds) const;
    // The clock of `last` placed after the events `items` of E (the ones it depends on).
    void clockIn(std::span<const std::size_t> items, const Event& last,
                 std::vector<std::uint32_t>& clock) const;
    [[nodiscard]] const std::uint32_t* clk(std::size_t pos) const { return &clk_[pos * T_]; }
    [[nodiscard]] std::uint64_t initialsWith(std::span<const std::size_t> v, const Event* last,
                                             const std::uint32_t* lastClk) const;

    std::unique_ptr<Execution> exec_;
    ConflictRelation conf_;
    Reporter* rep_;
    std::size_t T_ = 0;
    End end_ = End::Open;
    bool dirty_ = false;  // exec_ must be restored to snap_[depth()]

    // By step.
    std::vector<ThreadId> thread_;
    std::vector<std::size_t> start_;
    std::vector<Event> pend_;
    std::vector<std::uint8_t> failed_;
    std::vector<Snapshot> snap_;                  // before step d (snap_[depth()]: after E)
    std::vector<std::vector<SleepEntry>> sleep_;  // at depth d (depth() + 1 of them)

    // By event.
    std::size_t initEvents_ = 0;
    std::vector<Event> ev_;
    std::vector<int> depthOf_;
    std::vector<std::uint32_t> clk_;      // T_ words per event
    std::vector<int> prevSame_;           // the thread's previous event, -1
    std::vector<std::size_t> predStart_;  // into predBuf_ (predStart_[p]..predStart_[p+1])
    std::vector<int> predBuf_;

    // By thread and location.
    std::vector<int> lastOf_;                            // the thread's last event in E, -1
    std::vector<int> spawnPos_;                          // the event that spawned the thread, -1
    std::vector<std::vector<std::vector<int>>> locThr_;  // by location, by thread: accesses

    // Scratch.
    mutable std::vector<std::uint32_t> scratchClk_;
    mutable std::vector<int> scratchPreds_;
};

}  // namespace porlab::kit
