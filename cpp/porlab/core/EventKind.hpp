// SPDX-License-Identifier: MIT
// Every kind porlab knows is declared exactly once, here, as an X-macro table: the enum, its
// name, the Python enum and the CLI choices all derive from these lists.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace porlab {

// X(Enumerator, "python-name")
#define PORLAB_EVENT_KINDS(X)                                                                    \
    X(Read, "read")                                                                              \
    X(Write, "write")                                                                            \
    X(FetchAdd, "fetch-add") /* fetch-and-op; the op is Event::rmwOp (add by default) */         \
    X(Exchange, "exchange")                                                                      \
    X(CasSuccess, "cas-success")                                                                 \
    X(CasFailure, "cas-failure")                                                                 \
    X(Lock, "lock")                                                                              \
    X(Unlock, "unlock")                                                                          \
    X(Spawn, "spawn")                                                                            \
    X(Join, "join")                                                                              \
    X(Await, "await")              /* load-await: blocks until cond(x, operand), then reads x */ \
    X(XchgAwait, "xchg-await")     /* exchange-await: as Await, then writes the new value */     \
    X(AssumeBlock, "assume-block") /* marker: the thread is blocked for good (cause in aux) */   \
    X(AssertFail, "assertion-failure") /* marker: an assertion failed */                         \
    X(Fault, "fault")          /* marker: a run-time fault (unlock not held, bad index, ...) */  \
    X(ThreadEnd, "thread-end") /* marker: the thread finished */

enum class EventKind : std::uint8_t {
#define PORLAB_X(e, s) e,
    PORLAB_EVENT_KINDS(PORLAB_X)
#undef PORLAB_X
};

inline constexpr std::string_view kEventKindNames[] = {
#define PORLAB_X(e, s) s,
    PORLAB_EVENT_KINDS(PORLAB_X)
#undef PORLAB_X
};

[[nodiscard]] constexpr std::string_view name(EventKind k) {
    return kEventKindNames[static_cast<int>(k)];
}

// Read-modify-write operations of FetchAdd events.
#define PORLAB_RMW_OPS(X)                                                           \
    X(Add, "add")                                                                   \
    X(Sub, "sub")                                                                   \
    X(And, "and")                                                                   \
    X(Or, "or")                                                                     \
    X(Xor, "xor")                                                                   \
    X(Max, "max")   /* signed */                                                    \
    X(Min, "min")   /* signed */                                                    \
    X(Nand, "nand") /* ~(old & operand) */                                          \
    X(UMax, "umax") /* unsigned, at the event's width */                            \
    X(UMin, "umin")                                                                 \
    X(UIncWrap, "uinc-wrap") /* old >=u operand ? 0 : old + 1 (LLVM's uinc_wrap) */ \
    X(UDecWrap, "udec-wrap") /* old == 0 || old >u operand ? operand : old - 1 (udec_wrap) */

enum class RmwOp : std::uint8_t {
#define PORLAB_X(e, s) e,
    PORLAB_RMW_OPS(PORLAB_X)
#undef PORLAB_X
};

inline constexpr std::string_view kRmwOpNames[] = {
#define PORLAB_X(e, s) s,
    PORLAB_RMW_OPS(PORLAB_X)
#undef PORLAB_X
};

[[nodiscard]] constexpr std::string_view name(RmwOp k) { return kRmwOpNames[static_cast<int>(k)]; }

// Await conditions, with Nidhugg's bit patterns as values so that C programs using
// __VERIFIER_load_await_* run unchanged (ALGORITHMS.md §1.1).
#define PORLAB_AWAIT_CONDS(X) \
    X(UGT, 1, "ugt")          \
    X(EQ, 2, "eq")            \
    X(UGE, 3, "uge")          \
    X(ULT, 4, "ult")          \
    X(NE, 5, "ne")            \
    X(ULE, 6, "ule")          \
    X(SGT, 9, "sgt")          \
    X(SGE, 11, "sge")         \
    X(SLT, 12, "slt")         \
    X(SLE, 14, "sle")

enum class AwaitCond : std::uint8_t {
#define PORLAB_X(e, v, s) e = v,
    PORLAB_AWAIT_CONDS(PORLAB_X)
#undef PORLAB_X
};

[[nodiscard]] constexpr std::string_view name(AwaitCond c) {
    switch (c) {
#define PORLAB_X(e, v, s) \
    case AwaitCond::e:    \
        return s;
        PORLAB_AWAIT_CONDS(PORLAB_X)
#undef PORLAB_X
    }
    return "?";
}

[[nodiscard]] inline std::optional<AwaitCond> awaitCondFromCode(int code) {
    switch (code) {
#define PORLAB_X(e, v, s) \
    case v:               \
        return AwaitCond::e;
        PORLAB_AWAIT_CONDS(PORLAB_X)
#undef PORLAB_X
        default:
            return std::nullopt;
    }
}

// Why a thread is blocked for good (aux of an AssumeBlock marker). The reductions of spin loops
// (SpinAssume, PureIteration, Zne) put in the marker's `operand` the Event::index of the
// thread's first event of the blocked loop iteration (-1 if unknown), so that a liveness check
// can tell whether the iteration read the final values (and would spin forever).
#define PORLAB_BLOCK_CAUSES(X)                                                                     \
    X(Assume, "assume")                /* the program's own assume (__VERIFIER_assume, builder) */ \
    X(LoopBound, "loop-bound")         /* --unroll N: a loop header reached an (N+1)-th time */    \
    X(ThreadLimit, "thread-limit")     /* C programs: a pthread_create beyond --max-threads */     \
    X(PureIteration, "pure-iteration") /* SAVER: a loop iteration that wrote nothing visible */    \
    /* SAVER: a zero-net-effect loop iteration, blocked at its canceling decrement */              \
    X(Zne, "zne")                                                                                  \
    X(SpinAssume, "spin-loop")       /* an assume a loop reduction inserted (spin-assume, PLP) */  \
    X(ExecutionCut, "execution-cut") /* the execution exceeded max_execution_events */             \
    X(Livelock, "livelock")          /* a loop nothing can end: no other thread can change what    \
                                        it reads and its iteration changed nothing */              \
    X(LocationLimit, "location-limit") /* C programs: more shared locations than max_locations */

enum class BlockCause : std::uint8_t {
#define PORLAB_X(e, s) e,
    PORLAB_BLOCK_CAUSES(PORLAB_X)
#undef PORLAB_X
};

inline constexpr std::string_view kBlockCauseNames[] = {
#define PORLAB_X(e, s) s,
    PORLAB_BLOCK_CAUSES(PORLAB_X)
#undef PORLAB_X
};

// What a run-time fault was (aux of a Fault marker).
#define PORLAB_FAULTS(X)                                                                          \
    X(UnlockNotHeld, "unlock of a mutex not held")                                                \
    X(IndexOutOfBounds, "index out of bounds")                                                    \
    X(SpawnTwice, "thread spawned twice")                                                         \
    X(DivisionByZero, "division by zero")                                                         \
    X(RelockHeld, "lock of a mutex already held by this thread")                                  \
    X(NegativeShift, "negative shift count") /* a builder's `<<`/`>>`: Python's ValueError */     \
    X(NullDereference, "null pointer dereference") /* C programs from here on */                  \
    X(InvalidPointer, "invalid pointer dereference")                                              \
    X(UseAfterFree, "use after free")                                                             \
    X(DoubleFree, "double free")                                                                  \
    X(InvalidFree, "free of a pointer not returned by malloc")                                    \
    X(InvalidThread, "join of a thread that does not exist")                                      \
    X(Unreachable, "unreachable code reached")                                                    \
    X(BarrierNotInitialized, "wait on a barrier that is not initialised")                         \
    X(UninitializedRead, "uninitialized read") /* malloc'd or stack memory read before written */ \
    X(MutexDestroyed, "use of a destroyed mutex")                                                 \
    X(DestroyLockedMutex, "destroy of a locked mutex")                                            \
    X(BarrierDestroyed, "use of a destroyed barrier")                                             \
    X(DataRace, "data race") /* Reporter: two unordered accesses, one a write, one non-atomic */  \
    X(LivenessViolation, "liveness violation") /* Reporter (check_liveness): stuck for ever */    \
    X(Deadlock, "deadlock: every live thread waits for a mutex or a join")

enum class FaultKind : std::uint8_t {
#define PORLAB_X(e, s) e,
    PORLAB_FAULTS(PORLAB_X)
#undef PORLAB_X
};

inline constexpr std::string_view kFaultNames[] = {
#define PORLAB_X(e, s) s,
    PORLAB_FAULTS(PORLAB_X)
#undef PORLAB_X
};

}  // namespace porlab
