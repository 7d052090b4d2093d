// SPDX-License-Identifier: MIT
// One binding file per layer; module.cpp calls each bindX.
#pragma once

#include <pybind11/pybind11.h>

namespace porlab::bind {

void bindCore(pybind11::module_& m);
void bindProgram(pybind11::module_& m);
void bindExplore(pybind11::module_& m);
void bindEquiv(pybind11::module_& m);
#ifdef PORLAB_WITH_LLVM
void bindLlvm(pybind11::module_& m);  // bind_llvm.cpp (the C front end)
#endif

}  // namespace porlab::bind
