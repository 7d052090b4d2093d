// SPDX-License-Identifier: MIT
// Explorers: the registry, explore() with its options, and results.
#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "porlab/explore/Explorer.hpp"

namespace py = pybind11;
using namespace porlab;

namespace porlab::bind {

void bindExplore(py::module_& m) {
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
        .def_readonly("budget_reason", &ExploreResult::budgetReason)
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
                  d["options"] = e.options;
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
             double maxSeconds, std::uint64_t maxEvents, bool stopOnError, bool keepTraces,
             bool collectOutcomes, bool ifaa, std::optional<std::function<void(const Trace&)>> onTrace,
             std::map<std::string, std::string> params) {
              ExploreOptions o;
              o.maxTraces = maxTraces;
              o.maxSeconds = maxSeconds;
              o.maxEvents = maxEvents;
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
              py::gil_scoped_release release;
              return porlab::explore(program, explorer, o);
          },
          py::arg("program"), py::arg("explorer") = "naive", py::arg("max_traces") = 0,
          py::arg("max_seconds") = 0.0, py::arg("max_events") = 0, py::arg("stop_on_error") = false,
          py::arg("keep_traces") = false, py::arg("collect_outcomes") = true,
          py::arg("ifaa") = false, py::arg("on_trace") = py::none(),
          py::arg("params") = std::map<std::string, std::string>{},
          "Explore a program with a registered explorer (the GIL is released meanwhile).");
}

}  // namespace porlab::bind
