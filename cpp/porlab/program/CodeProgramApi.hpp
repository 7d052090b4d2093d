// SPDX-License-Identifier: MIT
// Programs in the decoded form (Code.hpp) as porlab Programs: what a front end that produced a
// CModule needs, without seeing the interpreter's internals. LLVM-free.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "porlab/program/Code.hpp"
#include "porlab/program/Program.hpp"

namespace porlab {

// How a decoded program runs (the part of CLoadOptions the interpreter reads).
struct CodeOptions {
    int maxThreads = 16;             // static bound on threads (main included)
    int maxDynamicLocations = 4096;  // shared heap / escaped stack locations over all runs
    bool deadlockIsError = true;     // every live thread waiting on a mutex or join: an error
    // An execution longer than this is cut (blocked, with a warning): unbounded loops end there.
    std::int64_t maxExecutionEvents = 100000;
    // __VERIFIER_nondet_* calls range over [LO, HI] (choice points), else return 0.
    std::optional<std::pair<long long, long long>> nondetDomain;
    // The program's loops are as written (no loop reduction): named in the advice of warnings.
    bool loopsAsWritten = false;
    // Traces show call stacks (a function column). Off for builder programs: they make no calls,
    // a thread's one function is the thread.
    bool callStacks = true;
};

// The interpreter of `mod` (throws InputError on options out of range).
[[nodiscard]] std::shared_ptr<Program> makeCodeProgram(code::CModule mod, const CodeOptions& opts,
                                                       const std::string& name);

// Listing of the decoded code of a program made by makeCodeProgram; "" for other programs.
[[nodiscard]] std::string disassembleCode(const Program& program);

// Warnings collected while loading or running such a program, each once; none for others.
[[nodiscard]] std::vector<std::string> codeProgramWarnings(const Program& program);

// Distributed runs (PortableOutcome.cpp): while on, the outcomes of the program's executions
// name threads, objects and locations stably (by spawn path, allocation key, offset), so that
// another process reads them back with localOutcome in its own numbering. No-op for programs
// not made by makeCodeProgram.
void setPortableOutcomes(const Program& program, bool on);
[[nodiscard]] std::vector<Value> localOutcome(const Program& program,
                                              std::span<const Value> portable);

}  // namespace porlab
