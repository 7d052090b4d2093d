// SPDX-License-Identifier: MIT
// C programs (clang 19 → LLVM IR → porlab's interpreter). Compiled only with PORLAB_WITH_LLVM.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "porlab/llvm/CProgram.hpp"

namespace py = pybind11;
using namespace porlab;

namespace porlab::bind {

namespace {

CLoadOptions options(const std::vector<std::pair<std::string, std::string>>& defines,
                     const std::vector<std::string>& includeDirs,
                     const std::vector<std::string>& clangArgs, std::optional<int> unroll,
                     int maxThreads, int maxLocations, bool deadlockIsError,
                     std::optional<std::pair<long long, long long>> nondetDomain,
                     const std::string& name, std::int64_t maxExecutionEvents,
                     const std::string& loops = "none") {
    CLoadOptions o;
    o.loops = loops;
    o.maxExecutionEvents = maxExecutionEvents;
    o.defines = defines;
    o.includeDirs = includeDirs;
    o.clangArgs = clangArgs;
    o.unroll = unroll;
    o.maxThreads = maxThreads;
    o.maxDynamicLocations = maxLocations;
    o.deadlockIsError = deadlockIsError;
    o.nondetDomain = nondetDomain;
    o.name = name;
    return o;
}

}  // namespace

void bindLlvm(py::module_& m) {
    m.attr("HAS_C_FRONTEND") = true;
    // C programs are plain ProgramBase objects (every explorer accepts them).
    m.def(
        "load_c",
        [](const std::string& path, const std::vector<std::pair<std::string, std::string>>& defines,
           const std::vector<std::string>& includeDirs, const std::vector<std::string>& clangArgs,
           std::optional<int> unroll, int maxThreads, int maxLocations, bool deadlockIsError,
           std::optional<std::pair<long long, long long>> nondetDomain, const std::string& name,
           std::int64_t maxExecutionEvents, const std::string& loops) {
            auto o = options(defines, includeDirs, clangArgs, unroll, maxThreads, maxLocations,
                             deadlockIsError, nondetDomain, name, maxExecutionEvents, loops);
            py::gil_scoped_release release;
            return loadC(path, o);
        },
        py::arg("path"), py::arg("defines") = std::vector<std::pair<std::string, std::string>>{},
        py::arg("include_dirs") = std::vector<std::string>{},
        py::arg("clang_args") = std::vector<std::string>{}, py::arg("unroll") = py::none(),
        py::arg("max_threads") = kDefaultMaxThreads,
        py::arg("max_locations") = kDefaultMaxLocations, py::arg("deadlock_is_error") = true,
        py::arg("nondet_domain") = py::none(), py::arg("name") = "",
        py::arg("max_execution_events") = kDefaultMaxExecutionEvents, py::arg("loops") = "none",
        "Compile a C file with clang 19 and load it as a program (raises InputError with clang's "
        "diagnostics, or UnsupportedError naming what is not supported and its line).");
    m.def(
        "load_c_source",
        [](const std::string& source, const std::string& fileName,
           const std::vector<std::pair<std::string, std::string>>& defines,
           const std::vector<std::string>& includeDirs, const std::vector<std::string>& clangArgs,
           std::optional<int> unroll, int maxThreads, int maxLocations, bool deadlockIsError,
           const std::string& name, std::int64_t maxExecutionEvents, const std::string& loops) {
            auto o = options(defines, includeDirs, clangArgs, unroll, maxThreads, maxLocations,
                             deadlockIsError, std::nullopt, name, maxExecutionEvents, loops);
            py::gil_scoped_release release;
            return loadCSource(source, fileName, o);
        },
        py::arg("source"), py::arg("file_name") = "program.c",
        py::arg("defines") = std::vector<std::pair<std::string, std::string>>{},
        py::arg("include_dirs") = std::vector<std::string>{},
        py::arg("clang_args") = std::vector<std::string>{}, py::arg("unroll") = py::none(),
        py::arg("max_threads") = kDefaultMaxThreads,
        py::arg("max_locations") = kDefaultMaxLocations, py::arg("deadlock_is_error") = true,
        py::arg("name") = "", py::arg("max_execution_events") = kDefaultMaxExecutionEvents,
        py::arg("loops") = "none",
        "Load C source text as a program (as load_c; `file_name` names it in messages).");
    m.def(
        "disassemble_c", [](const Program& p) { return disassembleC(p); }, py::arg("program"),
        "Listing of the lowered code of a C program ('' for other programs).");
    m.def(
        "c_warnings", [](const Program& p) { return cProgramWarnings(p); }, py::arg("program"),
        "Warnings of a C program (each once), e.g. nondet values defaulting to 0.");
}

}  // namespace porlab::bind
