// SPDX-License-Identifier: MIT
// A static upper bound on the threads a C program can create, so that explorers size their
// per-thread arrays (vector clocks, enabled sets, snapshots) to the program rather than to
// --max-threads.
#pragma once

#include <optional>

namespace llvm {
class Module;
}  // namespace llvm

namespace porlab::cfront {

// Threads (main included) of one execution, at most; nullopt when unknown (a pthread_create in
// a loop without a constant trip bound, in a recursive function, reachable through a function
// pointer, or of a function that is not a constant). Saturates at `cap`.
[[nodiscard]] std::optional<int> staticThreadBound(const llvm::Module& m, int cap);

}  // namespace porlab::cfront
