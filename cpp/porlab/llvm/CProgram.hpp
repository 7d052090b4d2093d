// SPDX-License-Identifier: MIT
// C programs: clang 19 compiles a C file to LLVM IR, porlab lowers every function once into its
// decoded form (program/Code.hpp), which program/'s interpreter runs. This header is LLVM-free:
// the bindings and the tests use it without seeing an LLVM type.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "porlab/explore/Options.hpp"
#include "porlab/program/Program.hpp"

namespace porlab {

struct CLoadOptions {
    std::vector<std::pair<std::string, std::string>> defines;  // -DNAME=VALUE
    std::vector<std::string> includeDirs;                      // -I DIR
    std::vector<std::string> clangArgs;                        // passed to clang as they are
    // --unroll N (as Nidhugg's and GenMC's -unroll=N): at most N visits of a loop header per entry
    // of the loop, i.e. N - 1 back-jumps; the N-th back-jump blocks the execution (loop-bound).
    std::optional<int> unroll;
    // Loop transformation before lowering (Loops.hpp): none, spin-assume, plp, plp-await, saver.
    std::string loops = "none";
    // The defaults of the loading schema (explore/Options.hpp: cLoadOptionSchema).
    int maxThreads = kDefaultMaxThreads;             // static bound on threads (main included)
    int maxDynamicLocations = kDefaultMaxLocations;  // shared heap / escaped stack locations
    bool deadlockIsError = true;  // every live thread waiting on a mutex or join: an error
    // An execution longer than this is cut (blocked, with a warning): unbounded loops end there.
    std::int64_t maxExecutionEvents = kDefaultMaxExecutionEvents;
    std::optional<std::pair<long long, long long>> nondetDomain;  // not supported yet
    std::string name;  // program name (default: the file's stem)
};

// Compiles and lowers a C file (throws InputError with clang's diagnostics, or
// UnsupportedError naming an unsupported construct and its source line).
[[nodiscard]] std::shared_ptr<Program> loadC(const std::string& path,
                                             const CLoadOptions& opts = {});

// The same from source text (tests, notebooks); `fileName` names it in diagnostics and traces.
[[nodiscard]] std::shared_ptr<Program> loadCSource(const std::string& source,
                                                   const std::string& fileName,
                                                   const CLoadOptions& opts = {});

// Listing of the lowered code of a loaded C program (debugging); "" for other programs.
[[nodiscard]] std::string disassembleC(const Program& program);

// Warnings collected while loading or running (e.g. nondet values defaulting to 0), each once.
[[nodiscard]] std::vector<std::string> cProgramWarnings(const Program& program);

}  // namespace porlab
