// SPDX-License-Identifier: MIT
// The one interface between programs and explorers. Explorers never know whether a program came
// from C or from Python; programs never know which explorer drives them.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "porlab/core/Event.hpp"
#include "porlab/core/ProgramInfo.hpp"

namespace porlab {

#define PORLAB_THREAD_STATUSES(X)                                             \
    X(NotStarted, "not-started")                                              \
    X(Ready, "ready") /* has a pending visible operation (maybe disabled) */  \
    X(Finished, "finished")                                                   \
    X(Blocked, "blocked") /* blocked for good: failed assume or loop bound */ \
    X(Failed, "failed")   /* assertion failure or fault */

enum class ThreadStatus : std::uint8_t {
#define PORLAB_X(e, s) e,
    PORLAB_THREAD_STATUSES(PORLAB_X)
#undef PORLAB_X
};

// An opaque saved state of an execution (restore is cheaper than replay for builder programs).
struct Snapshot {
    std::vector<std::int64_t> words;
};

// One run of a program. Deterministic per thread: the same sequence of step() calls (with the same
// forced read values) yields the same events.
class Execution {
  public:
    virtual ~Execution() = default;

    // Back to the initial state. Returns the marker events of threads that end, block or fail
    // before their first visible operation (run-time errors of the initial local code).
    virtual std::span<const Event> reset() = 0;

    // Static upper bound on thread ids (threads not yet spawned are NotStarted).
    [[nodiscard]] virtual int maxThreads() const = 0;
    [[nodiscard]] virtual ThreadStatus status(ThreadId t) const = 0;
    // The event thread t would perform now (status Ready only); its `enabled` flag says whether it
    // can be performed now (await condition, free mutex, joined thread finished).
    [[nodiscard]] virtual const Event& pending(ThreadId t) const = 0;

    // Perform t's pending operation (must be enabled), then run t's local code up to its next
    // visible operation. A read-like operation returns `forcedRead` instead of memory when given
    // (value-based explorers). Returns the events emitted: the operation first, then marker events
    // (the thread's end, block or failure; a spawned child's immediate end or failure).
    virtual std::span<const Event> step(ThreadId t, std::optional<Value> forcedRead = {}) = 0;

    // Has some thread failed (assertion failure or fault)?
    [[nodiscard]] virtual bool failed() const = 0;

    // Current value of every location (for outcomes and enabledness checks).
    [[nodiscard]] virtual std::span<const Value> memory() const = 0;
    // The final state as a flat vector: memory, then every thread's status and registers. Two
    // executions that reach the same local states and memory have the same outcome.
    [[nodiscard]] virtual std::vector<Value> outcome() const = 0;

    virtual void save(Snapshot& s) const = 0;
    virtual void restore(const Snapshot& s) = 0;

    // Sets location x (one that some step wrote) to v, with no event and nothing else changed:
    // an explorer that knows the state after another order of the steps it ran to differ from
    // the current one in plain memory only (RvfSmc's postponed witnesses) patches it instead of
    // running the steps again. Returns false, changing nothing, where it is not supported.
    virtual bool patchMemory(LocId x, Value v) {
        (void)x;
        (void)v;
        return false;
    }

    // The capabilities below serve particular explorers; every program implements them.

    // Relaxed locks (for LAPOR-style explorers, whose partial graphs need not be interleaving
    // prefixes): a lock is always enabled and taken, and unlocking a mutex the thread does not
    // hold (or relocking one it holds) is not a fault. Returns true (supported).
    virtual bool setRelaxedLocks(bool on) = 0;

    // SAVER's zne blocking: instead of executing its pending operation, thread t stops for good
    // (an AssumeBlock marker with `cause`). Returns the marker, or nothing if the thread is not
    // ready.
    virtual std::span<const Event> blockThread(ThreadId t, BlockCause cause) = 0;

    // zne awaits (for explorers that explore blocking events, e.g. the DPOR ones and naive; the
    // graph explorers have their own zne blocking through blockThread): a canceling decrement of
    // a zero-net-effect loop iteration (Event::zne) whose thread's last write is the increment
    // it cancels is pending with `aux` = that increment's Event::index and is enabled only once
    // another thread has observed the location since the increment (any access but a
    // fetch-and-add whose result is unused). Until then the iteration changed nothing anybody
    // saw, and performing the decrement would bring the loop back to where it started: a
    // thread still waiting there at the end is blocked (cause zne). Call before reset(); returns
    // true (supported; programs without zne decrements have nothing to wait for).
    virtual bool setZneAwaits(bool on) = 0;

    // Convenience: is thread t ready with an enabled operation?
    [[nodiscard]] bool enabled(ThreadId t) const {
        return status(t) == ThreadStatus::Ready && pending(t).enabled;
    }
};

// Nondeterministic inputs of a program (e.g. C's __VERIFIER_nondet_* over --nondet-domain LO:HI):
// a branching choice outside the scheduler. A choice point is (thread, n-th input the thread
// reads); points are found as executions reach them and numbered in discovery order. An
// assignment gives a value to each point found so far (LO for the others); executions then run
// under it. A driver (explore/Inputs.cpp) enumerates the assignments around an explorer.
class InputChoices {
  public:
    virtual ~InputChoices() = default;
    // The values each point ranges over, [LO, HI].
    [[nodiscard]] virtual std::pair<Value, Value> domain() const = 0;
    [[nodiscard]] virtual std::size_t numChoicePoints() const = 0;
    // Only between runs (no execution of the program may be running).
    virtual void setAssignment(const std::vector<Value>& values) const = 0;
    // The input the current assignment reports with each trace (Trace::inputs): the points it
    // sets to a value other than LO, as (thread, n, value), in (thread, n) order.
    [[nodiscard]] virtual std::vector<Value> inputs() const = 0;
    // Did execution `e` (of this program) read every point the current assignment sets to a value
    // other than LO? Otherwise the same execution is reported under another assignment.
    [[nodiscard]] virtual bool usesAssignment(const Execution& e) const = 0;
};

// An immutable program; executions are independent of each other, so one program can be
// explored by several workers at once.
class Program {
  public:
    virtual ~Program() = default;
    [[nodiscard]] virtual std::unique_ptr<Execution> newExecution() const = 0;
    [[nodiscard]] virtual const std::shared_ptr<const ProgramInfo>& info() const = 0;
    // The program's nondeterministic inputs; null when it has none (its inputs are fixed).
    [[nodiscard]] virtual const InputChoices* inputChoices() const { return nullptr; }
};

}  // namespace porlab
