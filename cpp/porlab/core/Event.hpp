// SPDX-License-Identifier: MIT
// An event is one visible step of one thread, identified by (thread, index).
#pragma once

#include <cstdint>
#include <string>

#include "porlab/core/EventKind.hpp"

namespace porlab {

using Value = std::int64_t;
using ThreadId = std::int32_t;
using LocId = std::int32_t;  // -1: no location

inline constexpr LocId kNoLoc = -1;
// Event::aux of an Await a thread performs inside pthread_cond_wait / cnd_wait (waiting for a
// signal), so that a wait that never ends is reported as a condition-variable wait.
inline constexpr std::int32_t kCondWaitAux = 1;
// Event::aux of writes and exchanges a program performs for its own bookkeeping, so that a trace
// shows them for what they are (the explorers see plain writes and exchanges).
inline constexpr std::int32_t kFreeAux = 2;          // free(p): one location of the block dies
inline constexpr std::int32_t kFrameEndAux = 3;      // a returning frame's escaped variable dies
inline constexpr std::int32_t kThreadHandleAux = 4;  // pthread_create stores the new thread's id
inline constexpr std::int32_t kDestroyAux = 5;       // pthread_mutex_destroy, barrier_destroy, ...
inline constexpr std::int32_t kReinitAux = 6;        // pthread_mutex_init of a destroyed mutex

// How a memory access takes part in C11's data races (the Reporter's race check). Atomic: an
// atomic access or a synchronisation primitive (every access of a builder program): it races
// only with non-atomic ones, and a read of an atomic write synchronises with it. Plain: a
// non-atomic load or store (volatile included; memcpy/memset chunks). Internal: porlab's own
// bookkeeping (the dead marker a free or the end of a stack frame writes): neither races nor
// synchronises.
enum class AccessMode : std::uint8_t { Atomic, Plain, Internal };
// What a free or the end of a stack frame writes to each (non-mutex) location of the block, with
// an exchange (the C front end): no store of a C value narrower than 64 bits produces it. The
// reads-from explorers recognise these kills by it (RvfSmc.cpp).
inline constexpr Value kDeadValue = static_cast<Value>(0x8badf00ddeadbeefULL);

struct SourcePos {
    std::uint32_t file = 0;  // index into the program's file table; 0 = unknown
    std::uint32_t line = 0;
    friend bool operator==(const SourcePos&, const SourcePos&) = default;
};

struct Event {
    ThreadId thread = 0;
    std::uint32_t index = 0;  // position among the thread's events
    EventKind kind = EventKind::Read;
    RmwOp rmwOp = RmwOp::Add;        // FetchAdd only
    AwaitCond cond = AwaitCond::EQ;  // Await, XchgAwait only
    bool resultUsed = true;          // FetchAdd: is the loaded value used afterwards (IFAA)
    std::uint8_t width = 64;         // FetchAdd: bits of the value (results wrap, sign-extended)
    bool enabled = true;             // for a pending (not yet executed) event
    // FetchAdd: a canceling decrement of a zero-net-effect loop (SAVER's spin-zne annotation);
    // a graph explorer may block the thread here instead (Execution::blockThread).
    bool zne = false;
    bool pointer = false;  // the values read and written are pointers (shown symbolically)
    AccessMode mode = AccessMode::Atomic;  // memory accesses: see AccessMode
    LocId loc = kNoLoc;                    // memory location or mutex
    Value rval = 0;                        // value read (reads, RMWs, CAS, awaits, lock: 0)
    Value wval = 0;     // value written (writes, RMWs, successful CAS, unlock: 0)
    Value operand = 0;  // FetchAdd operand, CAS expected value, await operand
    // Spawn/Join: other thread; AssumeBlock: BlockCause; Fault: FaultKind; AssertFail: the
    // failed assertion's text (ProgramInfo::messages, -1: none); writes: k*Aux above
    std::int32_t aux = -1;
    SourcePos pos;
    // The call stack the event runs in (ProgramInfo::contexts; 0: unknown). With pos, it is what
    // a trace shows of where the event comes from; explorers never look at it.
    std::uint32_t ctx = 0;

    friend bool operator==(const Event&, const Event&) = default;
};

// ---- classification ------------------------------------------------------------------------

[[nodiscard]] constexpr bool isMarker(EventKind k) {
    return k == EventKind::AssumeBlock || k == EventKind::AssertFail || k == EventKind::Fault ||
           k == EventKind::ThreadEnd;
}

[[nodiscard]] constexpr bool isErrorKind(EventKind k) {
    return k == EventKind::AssertFail || k == EventKind::Fault;
}

// Does the event read a shared location (and so have a reads-from source)? Locks read the mutex
// (they read-from the previous unlock), as in the papers that treat locks as read-modify-writes.
[[nodiscard]] constexpr bool readsMemory(EventKind k) {
    switch (k) {
        case EventKind::Read:
        case EventKind::FetchAdd:
        case EventKind::Exchange:
        case EventKind::CasSuccess:
        case EventKind::CasFailure:
        case EventKind::Lock:
        case EventKind::Await:
        case EventKind::XchgAwait:
            return true;
        default:
            return false;
    }
}

// Does the event write a shared location?
[[nodiscard]] constexpr bool writesMemory(EventKind k) {
    switch (k) {
        case EventKind::Write:
        case EventKind::FetchAdd:
        case EventKind::Exchange:
        case EventKind::CasSuccess:
        case EventKind::Lock:
        case EventKind::Unlock:
        case EventKind::XchgAwait:
            return true;
        default:
            return false;
    }
}

[[nodiscard]] constexpr bool accessesMemory(EventKind k) {
    return readsMemory(k) || writesMemory(k);
}

// Events whose enabledness another thread can change (blocking events of Optimal-DPOR-Await).
[[nodiscard]] constexpr bool mayBlock(EventKind k) {
    return k == EventKind::Await || k == EventKind::XchgAwait || k == EventKind::Lock ||
           k == EventKind::Join;
}

[[nodiscard]] std::string toString(const Event& e);

}  // namespace porlab
