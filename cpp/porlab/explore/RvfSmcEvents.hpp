// SPDX-License-Identifier: MIT
// RVF-SMC and reads-from SMC (RvfSmc.hpp): what the recursion asks of an event or a step's
// events (blocking reads, the values a pending read admits, errors, order-dependent blocks).
#pragma once

#include <algorithm>
#include <span>

#include "porlab/core/Conflict.hpp"
#include "porlab/core/Event.hpp"

namespace porlab::rvfsmc {

[[nodiscard]] inline bool isBlocking(EventKind k) {
    return k == EventKind::Await || k == EventKind::XchgAwait || k == EventKind::Lock;
}

// A pending read of this kind may turn out to write (a read-modify-write).
[[nodiscard]] inline bool mayWrite(EventKind k) {
    return writesMemory(k) || k == EventKind::CasFailure;
}

[[nodiscard]] inline bool hasError(std::span<const Event> out) {
    return std::any_of(out.begin(), out.end(), [](const Event& e) { return isErrorKind(e.kind); });
}

// Does a step end its thread with a block whose cause depends on the interleaving rather than on
// the values read: the C front end's livelock check asks whether another thread can run, the
// execution cut and the thread/location limits count the events, threads or locations of all
// threads so far. A step performed at the end of a trace but placed earlier in the witness
// (performedAt) may be blocked in one place and not in the other.
[[nodiscard]] inline bool orderDependentBlock(std::span<const Event> out) {
    return std::any_of(out.begin(), out.end(), [](const Event& e) {
        if (e.kind != EventKind::AssumeBlock) return false;
        const auto c = static_cast<BlockCause>(e.aux);
        return c == BlockCause::Livelock || c == BlockCause::ExecutionCut ||
               c == BlockCause::ThreadLimit || c == BlockCause::LocationLimit;
    });
}

}  // namespace porlab::rvfsmc
