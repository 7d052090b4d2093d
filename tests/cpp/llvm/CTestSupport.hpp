// SPDX-License-Identifier: MIT
// Shared by the C front-end tests: load options with porlab.h (python/porlab/include) on the
// include path.
#pragma once

#include <string>

#include "porlab/llvm/CProgram.hpp"

namespace porlab::testing {

inline CLoadOptions withPorlabHeader() {
    CLoadOptions o;
    o.includeDirs.push_back(std::string(PORLAB_SOURCE_DIR) + "/python/porlab/include");
    return o;
}

}  // namespace porlab::testing
