// SPDX-License-Identifier: MIT
// C++ programs (`.cc`, `.cpp`, `.cxx`): the module clang produced from the program is linked with
// porlab's C++ runtime (python/porlab/include/porlab_cxxrt.cpp: the out-of-line libstdc++ and
// C++ ABI functions, written over porlab's pthread built-ins) and prepared for the lowering:
// global constructors run at the start of main, the library code is inlined into the program
// and its source lines attributed to the program's lines, exception edges that no throw can
// take are removed.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace porlab::cfront {

// The name of porlab's C++ runtime source, looked up in the include directories (it sits next
// to porlab.h, which the Python layer always puts on the include path).
inline constexpr const char* kCxxRuntimeFile = "porlab_cxxrt.cpp";

// Is `path` a C++ source (by its suffix, or an explicit `-x c++` among clang's arguments)?
[[nodiscard]] bool isCxxInput(const std::string& path, const std::vector<std::string>& clangArgs);

// The runtime's path among `includeDirs` ("" when it is in none of them).
[[nodiscard]] std::string findCxxRuntime(const std::vector<std::string>& includeDirs);

// Links the runtime module `runtime` (compiled with the program's flags) into `m`, then prepares
// `m` for the lowering. `libraryDirs` are the system include directories of the compilation:
// code from files below them (and from the runtime) is library code.
void prepareCxxModule(llvm::Module& m, std::unique_ptr<llvm::Module> runtime,
                      const std::vector<std::string>& libraryDirs, const std::string& runtimePath);

// After SROA: folds the constants the inlined library code computes (the memory order of a
// std::atomic operation, then the switch over it), removes the code no path reaches and the pure
// values nothing uses. Memory accesses and calls are never removed or merged.
void cleanUpCxxModule(llvm::Module& m);

// A C++ symbol as the program spells it (`std::cout`, `typeinfo for std::exception`); any other
// name as it is.
[[nodiscard]] std::string readableSymbol(const std::string& name);

// Why a C++ library symbol porlab does not have is missing, as " (...)" ("" for a C name): a
// throw, RTTI, iostreams, or a function porlab's C++ runtime does not provide.
[[nodiscard]] std::string cxxSymbolHint(const std::string& name);

}  // namespace porlab::cfront
