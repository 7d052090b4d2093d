// SPDX-License-Identifier: MIT
// C → LLVM IR in process (libclang-cpp), and the clean-up passes porlab runs before lowering.
#pragma once

#include <memory>
#include <string>

#include "porlab/llvm/CProgram.hpp"

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace porlab::cfront {

// Compiles `path` with clang 19 (-g -O0 -Xclang -disable-O0-optnone plus the options), then
// promotes the stack variables whose address is not taken to registers (SROA/mem2reg) — no pass
// that could merge or remove an access to memory another thread can see. Throws InputError with
// clang's diagnostics when the file does not compile.
[[nodiscard]] std::unique_ptr<llvm::Module> compileC(llvm::LLVMContext& ctx,
                                                     const std::string& path,
                                                     const CLoadOptions& opts);

}  // namespace porlab::cfront
