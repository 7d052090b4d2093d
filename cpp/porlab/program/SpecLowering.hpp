// SPDX-License-Identifier: MIT
// Builder programs (BuilderSpec.hpp's ProgramSpec, from porlab.Program or SpecBuilder) lowered to
// the decoded form (Code.hpp) and run by the one interpreter of C programs (CodeProgram).
// LLVM-free.
#pragma once

#include <memory>

#include "porlab/program/BuilderSpec.hpp"
#include "porlab/program/Code.hpp"
#include "porlab/program/Program.hpp"

namespace porlab {

// The decoded form of a (validated) spec: thread t is function t and keeps its id; location l of
// the spec is LocId l (one global holds them all, 8 bytes each); registers are frame slots.
// Builder semantics become explicit checks (index bounds, Python's shifts and division).
[[nodiscard]] code::CModule lowerSpec(const ProgramSpec& spec);

// Throws InputError naming the file:line, thread and instruction of what is wrong in the spec
// (registers, jump targets, locations, mutexes, threads, operators).
void validateSpec(const ProgramSpec& spec);

// The spec validated, lowered and made a Program of the decoded-form interpreter.
[[nodiscard]] std::shared_ptr<Program> makeSpecProgram(const ProgramSpec& spec);

}  // namespace porlab
