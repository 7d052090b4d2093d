// SPDX-License-Identifier: MIT
// LLVM IR → porlab's compact code (program/Code.hpp), once per program.
#pragma once

#include "porlab/llvm/CProgram.hpp"
#include "porlab/program/Code.hpp"

namespace llvm {
class Module;
}  // namespace llvm

namespace porlab::cfront {

// Throws UnsupportedError naming the instruction, intrinsic or library call and its source line.
[[nodiscard]] CModule lowerModule(const llvm::Module& m, const CLoadOptions& opts);

}  // namespace porlab::cfront
