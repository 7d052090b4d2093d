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

void bindCore(pybind11::module_& m);
void bindProgram(pybind11::module_& m);
void bindExplore(pybind11::module_& m);
void bindErrorSiteTraces(pybind11::module_& m);  // bind_core.cpp: Result.errors_by_site's items
void bindEquiv(pybind11::module_& m);
void bindParallel(pybind11::module_& m);  // bind_parallel.cpp: distributed tasks
#ifdef PORLAB_WITH_LLVM
void bindLlvm(pybind11::module_& m);  // bind_llvm.cpp (the C front end)
#endif

}  // namespace porlab::bind
