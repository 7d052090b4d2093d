// SPDX-License-Identifier: MIT
// Explorers: the registry, explore() with its options, and results.
#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>

#include "bindings.hpp"
#include "porlab/explore/Explorer.hpp"

namespace py = pybind11;
using namespace porlab;

namespace porlab::bind {

void bindExplore(py::module_& m) {
    bindErrorSiteTraces(m);
    py::class_<ExploreResult>(m, "Result", "What an exploration found.")
        .def_readonly("explorer", &ExploreResult::explorer)
        .def_readonly("complete", &ExploreResult::complete, "Complete traces explored.")
        .def_readonly("blocked", &ExploreResult::blocked,
                      "Blocked traces (assume, loop bound, await or lock never satisfied).")
        .def_readonly("errors", &ExploreResult::errors, "Error traces (assertions, faults).")
        .def_readonly("events", &ExploreResult::events, "Visible operations executed.")
        .def_readonly("seconds", &ExploreResult::seconds)
        .def_readonly("peak_memory_bytes", &ExploreResult::peakMemoryBytes,
                      "Peak resident set size of the process.")
        .def_readonly("budget_exceeded", &ExploreResult::budgetExceeded,
                      "True when a budget ended the run early (the counts are partial).")
        .def_readonly("budget_reason", &ExploreResult::budgetReason,
                      "Which budget ended the run: traces, seconds, events, memory, interrupted.")
        .def_readonly("incomplete", &ExploreResult::incomplete,
                      "Why the exploration is not exhaustive (budgets, interrupt, execution "
                      "cuts, thread or location limits); empty when it was exhausted.")
        .def_readonly("blocked_by", &ExploreResult::blockedBy,
                      "Blocked traces by primary reason (they add up to blocked).")
        .def_property_readonly(
            "block_sites",
            [](const ExploreResult& r) {
                py::list l;
                for (const auto& b : r.blockSites)
                    l.append(py::make_tuple(b.reason, b.pos.file, b.pos.line, b.traces));
                return l;
            },
            "Distinct (reason, file, line, traces) where threads of blocked traces stopped.")
        .def_readonly("first_error", &ExploreResult::firstError, "The first error trace or None.")
        .def_readonly("traces", &ExploreResult::traces, "Every maximal trace, when kept.")
        .def_property_readonly("outcomes",
                               [](const ExploreResult& r) {
                                   py::set s;
                                   for (const auto& o : r.outcomes) s.add(py::tuple(py::cast(o)));
                                   return s;
                               },
                               "Final states of complete and blocked traces (tuples of ints).")
        .def_property_readonly("error_sites",
                               [](const ExploreResult& r) {
                                   py::list l;
                                   for (const auto& s : r.errorSites)
                                       l.append(py::make_tuple(s.thread, std::string(name(s.kind)),
                                                               s.aux, s.pos.file, s.pos.line));
                                   return l;
                               },
                               "Distinct (thread, kind, code, file, line) of errors found.")
        .def_readonly("errors_by_site", &ExploreResult::errorsBySite,
                      "Per distinct error site (as error_sites): the number of error traces that "
                      "reached it and the first of them.")
        .def_readonly("stats", &ExploreResult::stats, "Explorer-specific statistics.");

    m.def("explorers",
          [] {
              py::list l;
              for (const auto& e : explorers()) {
                  py::dict d;
                  d["name"] = e.name;
                  d["equivalence"] = e.equivalence;
                  d["description"] = e.description;
                  d["optimal"] = e.optimal;
                  py::list opts;
                  for (const auto& o : e.options) {
                      py::dict od;
                      od["name"] = o.name;
                      od["doc"] = o.doc;
                      od["default"] = o.defaultValue;
                      od["values"] = o.isBool() ? py::object(py::none()) : py::cast(o.values);
                      od["type"] = o.isBool() ? "bool" : "choice";
                      opts.append(od);
                  }
                  d["options"] = opts;
                  d["covers_classes"] = e.optimal || e.coversClasses;
                  d["non_redundant"] = e.optimal || e.nonRedundant;
                  d["ifaa"] = e.ifaa;
                  l.append(d);
              }
              return l;
          },
          "The registered explorers (name, equivalence, description, optimal, options, "
          "covers_classes: every complete class of the equivalence gets a complete trace, "
          "non_redundant: no two complete traces share a class).");

    m.def("explore",
          [](const Program& program, const std::string& explorer, std::uint64_t maxTraces,
             double maxSeconds, std::uint64_t maxEvents, std::uint64_t maxMemory, bool stopOnError,
             bool keepTraces, bool collectOutcomes, bool ifaa,
             std::optional<std::function<void(const Trace&)>> onTrace,
             std::map<std::string, std::string> params, std::optional<py::function> progress,
             double progressSeconds, bool checkRaces, bool checkLiveness, unsigned jobs) {
              ExploreOptions o;
              o.jobs = jobs;
              o.checkRaces = checkRaces;
              o.checkLiveness = checkLiveness;
              o.maxTraces = maxTraces;
              o.maxSeconds = maxSeconds;
              o.maxEvents = maxEvents;
              o.maxMemoryBytes = maxMemory;
              o.stopOnError = stopOnError;
              o.keepTraces = keepTraces;
              o.collectOutcomes = collectOutcomes;
              o.conflicts.ifaa = ifaa;
              o.params = std::move(params);
              if (onTrace) {
                  auto f = *onTrace;
                  o.onTrace = [f](const Trace& t) {
                      py::gil_scoped_acquire gil;
                      f(t);
                  };
              }
              return exploreInterruptibly(
                  o, progress, progressSeconds,
                  [&](const ExploreOptions& eo) { return porlab::explore(program, explorer, eo); });
          },
          py::arg("program"), py::arg("explorer") = "naive", py::arg("max_traces") = 0,
          py::arg("max_seconds") = 0.0, py::arg("max_events") = 0, py::arg("max_memory") = 0,
          py::arg("stop_on_error") = false, py::arg("keep_traces") = false,
          py::arg("collect_outcomes") = true, py::arg("ifaa") = false,
          py::arg("on_trace") = py::none(),
          py::arg("params") = std::map<std::string, std::string>{},
          py::arg("progress") = py::none(), py::arg("progress_seconds") = 0.5,
          py::arg("check_races") = true, py::arg("check_liveness") = false, py::arg("jobs") = 1,
          "Explore a program with a registered explorer (the GIL is released meanwhile). Ctrl-C "
          "(any KeyboardInterrupt a signal handler raises) stops the run like a budget: the "
          "partial result comes back with budget_reason 'interrupted'. `progress` is called "
          "about every progress_seconds with (complete, blocked, errors, events, seconds).");

    m.def(
        "estimate_interleavings",
        [](const Program& program, int walks, std::uint64_t seed) {
            py::gil_scoped_release release;
            return estimateInterleavings(program, walks, seed);
        },
        py::arg("program"), py::arg("walks") = 64, py::arg("seed") = 1,
        "Knuth's random-walk estimate of the number of maximal interleavings (what the naive "
        "explorer and partition_sizes enumerate).");
    m.def("default_memory_budget", &defaultMemoryBudget,
          "Three quarters of the machine's (or the cgroup's) memory, in bytes; 0 if unknown.");
    m.def("resident_bytes", &currentResidentBytes, "The process's resident set size now.");
}

ExploreResult exploreInterruptibly(ExploreOptions& o, const std::optional<py::function>& progress,
                                   double progressSeconds,
                                   const std::function<ExploreResult(const ExploreOptions&)>& run) {
    ExploreControl control;
    o.control = &control;
    o.pollSeconds = 0.05;
    std::optional<py::error_already_set> failure;  // raised by a signal handler or the callback
    const auto start = std::chrono::steady_clock::now();
    auto lastProgress = start;
    o.poll = [&]() -> bool {
        py::gil_scoped_acquire gil;
        // Python runs its signal handlers only on the main thread, which is this one when
        // explore() was called from it: a KeyboardInterrupt (Ctrl-C, a notebook's interrupt)
        // becomes an interrupt of the exploration.
        if (PyErr_CheckSignals() != 0) {
            failure.emplace();
            return true;
        }
        const auto now = std::chrono::steady_clock::now();
        if (progress && std::chrono::duration<double>(now - lastProgress).count() >= progressSeconds) {
            lastProgress = now;
            const auto& p = control.progress;
            try {
                (*progress)(p.complete.load(), p.blocked.load(), p.errors.load(), p.events.load(),
                            std::chrono::duration<double>(now - start).count());
            } catch (py::error_already_set& e) {
                failure.emplace(std::move(e));
                return true;
            }
        }
        return false;
    };
    ExploreResult r;
    {
        py::gil_scoped_release release;
        r = run(o);
    }
    if (failure) {
        // An interrupt is a result (the partial counts); anything else a handler raised is raised.
        if (failure->matches(PyExc_KeyboardInterrupt)) {
            r.budgetExceeded = true;
            r.budgetReason = "interrupted";
            addIncompleteReason(r, "interrupted");
        } else {
            throw std::move(*failure);
        }
    }
    return r;
}

}  // namespace porlab::bind
