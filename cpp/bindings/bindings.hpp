// SPDX-License-Identifier: MIT
// One binding file per layer; module.cpp calls each bindX.
#pragma once

#include <pybind11/pybind11.h>

#include <functional>
#include <optional>

#include "porlab/explore/Explorer.hpp"

namespace porlab::bind {

// Runs `run` with the GIL released, polling on this thread for Python signals (a Ctrl-C or a
// notebook interrupt stops the run as a budget does: budget_reason "interrupted") and calling
// `progress(complete, blocked, errors, events, seconds)` about every progressSeconds.
ExploreResult exploreInterruptibly(ExploreOptions& o,
                                   const std::optional<pybind11::function>& progress,
                                   double progressSeconds,
                                   const std::function<ExploreResult(const ExploreOptions&)>& run);

// What a Python explorer gets besides the program (porlab._core.ExplorerRun): its typed
// options, the reporter that counts traces, checks budgets and bugs, and the building blocks
// that keep its time in C++ (bind_explore.cpp, bind_kit.cpp).
struct PyRun {
    const Program* program;
    const ExploreOptions* opts;
    Reporter* rep;
    ExploreResult* result;
};

void bindCore(pybind11::module_& m);
void bindProgram(pybind11::module_& m);
void bindExplore(pybind11::module_& m);
void bindErrorSiteTraces(pybind11::module_& m);  // bind_core.cpp: Result.errors_by_site's items
void bindEquiv(pybind11::module_& m);
void bindParallel(pybind11::module_& m);  // bind_parallel.cpp: distributed tasks
void bindKit(pybind11::module_& m);       // after bindExplore: adds ExplorerRun.sequence
#ifdef PORLAB_WITH_LLVM
void bindLlvm(pybind11::module_& m);  // bind_llvm.cpp (the C front end)
#endif

}  // namespace porlab::bind
