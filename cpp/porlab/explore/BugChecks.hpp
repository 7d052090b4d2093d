// SPDX-License-Identifier: MIT
// Checks of maximal traces that every explorer shares (the Reporter runs them at the end of each
// maximal trace, so that one implementation serves every explorer): data races, C11's definition
// under sequential consistency, and liveness violations (GenMC's -check-liveness).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "porlab/core/Event.hpp"
#include "porlab/core/ProgramInfo.hpp"
#include "porlab/program/Program.hpp"

namespace porlab {

// A data race: two accesses to one location by different threads, at least one a write, at least
// one non-atomic (AccessMode::Plain), neither happening before the other. Happens-before is
// (program order ∪ synchronises-with)+, where an atomic read synchronises with the atomic write
// it reads from (locks read the unlock before them; condition variables, barriers and read-write
// locks are atomic accesses too), a spawn with the child's first event and the child's last event
// with its join.
struct DataRace {
    int lowPos = -1;   // trace position of the access of the lower-numbered thread
    int highPos = -1;  // ... and of the higher-numbered one: the error site
    LocId loc = kNoLoc;
};

class RaceChecker {
  public:
    // The data race of events[0, end), or nothing. Deciding whether there is one takes one pass
    // with vector clocks, O(end × threads). When there is one, the race reported is chosen so that
    // it depends on the reads-from relation only (see BugChecks.cpp): every trace of a reads-from
    // class (and so of a Mazurkiewicz class) reports the same pair of accesses, whichever the
    // explorer and whichever trace of the class it explored.
    [[nodiscard]] std::optional<DataRace> find(const std::vector<Event>& events, std::size_t end,
                                               int numThreads, const ProgramInfo& info);
    // The error trace of a race: events up to the later of the two accesses, then a Fault
    // (DataRace) marker on the site's thread at its source position. The marker's `loc` is the
    // location, `operand` the trace position of the other access and `rval` its thread.
    static void errorTrace(const std::vector<Event>& events, const DataRace& race,
                           std::vector<Event>& out);

  private:
    struct Access {
        int pos = 0;
        ThreadId thread = 0;
        std::uint32_t epoch = 0;  // Event::index + 1
        LocId loc = kNoLoc;
        bool write = false;
        bool plain = false;
        std::size_t clock = 0;  // offset of its vector clock in clocks_
    };
    // One forward pass; returns true at the first race when `record` is false, else records every
    // access with its vector clock and returns whether there was one.
    bool pass(const std::vector<Event>& events, std::size_t end, const ProgramInfo& info,
              bool record);
    std::optional<DataRace> canonical();
    std::uint32_t* loc(LocId l);

    int T_ = 0;
    std::vector<std::uint32_t> threadClock_;  // T × T
    // Per location touched in this trace: 4 epochs per thread (last write, last plain write, last
    // read, last plain read), then the clock of its last write when that was atomic (what a read
    // of it acquires), then a validity word.
    std::vector<std::int32_t> slotOf_;  // by LocId: -1 or the slot
    std::vector<LocId> touched_;
    std::vector<std::uint32_t> slots_;
    std::vector<Access> accesses_;  // record mode
    std::vector<std::uint32_t> clocks_;
};

// A liveness violation of a blocked maximal execution (GenMC's -check-liveness): some thread can
// never go on although nothing else will change. Every unfinished thread must be stuck for good:
// waiting (await, condition variable, lock, join) with nobody able to run, blocked by a livelock,
// or blocked by a spin-loop reduction (spin-loop, pure-iteration) in an iteration that read only
// values its locations still hold (so the loop as written would spin for ever). An execution in
// which a thread was stopped by a limit, the loop bound, the program's own assume or a zne block
// says nothing about liveness (nothing), nor does one in which a reduction blocked a thread whose
// iteration read a value since overwritten (the reduction's other executions cover that case), nor
// a deadlock (it stays what it is). Returns the Fault(LivenessViolation) marker to append: on the
// lowest spinning thread, else the lowest waiting one, at the loop's or the wait's position.
[[nodiscard]] std::optional<Event> livenessViolation(const Execution& exec,
                                                     const std::vector<Event>& events);

}  // namespace porlab
