// SPDX-License-Identifier: MIT
// Equivalences: canonical keys and partition sizes.
#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "porlab/core/Errors.hpp"
#include "porlab/explore/PartitionSizes.hpp"

namespace py = pybind11;
using namespace porlab;

namespace porlab::bind {

namespace {
Equivalence equivalenceOf(const std::string& n) {
    if (auto e = equivalenceFromName(n)) return *e;
    std::string known;
    for (auto k : kEquivalenceNames) known += (known.empty() ? "" : ", ") + std::string(k);
    throw InputError("unknown equivalence '" + n + "' (known: " + known + ")");
}

ThreadId preselectedOf(int thread) {
    if (thread < 0)
        throw InputError(
            "the preselected thread of value-centric and data-centric must be a "
            "thread id >= 0, not " +
            std::to_string(thread));
    return thread;
}

py::dict countsDict(const Counts& c) {
    py::dict d;
    d["complete"] = c.complete;
    d["blocked"] = c.blocked;
    d["errors"] = c.errors;
    return d;
}
}  // namespace

void bindEquiv(py::module_& m) {
    {
        py::dict d;
        for (int i = 0; i < kNumEquivalences; ++i)
            d[py::str(std::string(kEquivalenceNames[i]))] =
                std::string(kEquivalenceDescriptions[i]);
        m.attr("EQUIVALENCES") = d;
    }

    m.def(
        "trace_key",
        [](const Trace& t, const std::string& eq, int thread) {
            Key k = traceKey(equivalenceOf(eq), t, preselectedOf(thread));
            return py::make_tuple(k.hi, k.lo);
        },
        py::arg("trace"), py::arg("equivalence"), py::arg("thread") = kDefaultPreselectedThread,
        "Canonical 128-bit key of a trace's class (as two ints): equal iff equivalent. "
        "`thread`: the thread value-centric and data-centric preselect.");

    m.def(
        "canonical_linearization",
        [](const Trace& t, bool ifaa) { return canonicalLinearization(t, ConflictRelation{ifaa}); },
        py::arg("trace"), py::arg("ifaa") = false,
        "Positions of the trace's events in the least (by thread id) linearisation of "
        "happens-before: the canonical representative of its Mazurkiewicz class.");

    m.def(
        "partition_sizes",
        [](const Program& program, std::uint64_t maxTraces, double maxSeconds,
           std::uint64_t maxEvents, std::uint64_t maxMemory, std::optional<py::function> progress,
           double progressSeconds, bool checkRaces, int thread) {
            const ThreadId preselected = preselectedOf(thread);
            ExploreOptions o;
            o.checkRaces = checkRaces;
            o.maxTraces = maxTraces;
            o.maxSeconds = maxSeconds;
            o.maxEvents = maxEvents;
            o.maxMemoryBytes = maxMemory;
            o.collectOutcomes = false;
            PartitionSizes p;
            p.run =
                exploreInterruptibly(o, progress, progressSeconds, [&](const ExploreOptions& eo) {
                    p = partitionSizes(program, eo, preselected);
                    return p.run;
                });
            py::dict d;
            d["interleavings"] = countsDict(p.interleavings);
            for (int i = 0; i < kNumEquivalences; ++i)
                d[py::str(std::string(kEquivalenceNames[i]))] = countsDict(p.classes[i]);
            d["budget_exceeded"] = p.run.budgetExceeded;
            d["budget_reason"] = p.run.budgetReason;
            d["incomplete"] = p.run.incomplete;
            d["seconds"] = p.run.seconds;
            d["thread"] = preselected;
            return d;
        },
        py::arg("program"), py::arg("max_traces") = 0, py::arg("max_seconds") = 0.0,
        py::arg("max_events") = 0, py::arg("max_memory") = 0, py::arg("progress") = py::none(),
        py::arg("progress_seconds") = 0.5, py::arg("check_races") = true,
        py::arg("thread") = kDefaultPreselectedThread,
        "Enumerate every interleaving and count classes per equivalence; each entry maps to "
        "{'complete', 'blocked', 'errors'} counts. Budgets and Ctrl-C end the run with partial "
        "counts (lower bounds) and the reasons in 'incomplete'.");

    py::class_<ClassCounter>(m, "ClassCounter",
                             "Counts the classes of reported traces under every equivalence.")
        .def(py::init([](int thread) { return ClassCounter(preselectedOf(thread)); }),
             py::arg("thread") = kDefaultPreselectedThread)
        .def("add", &ClassCounter::add, py::arg("trace"))
        .def(
            "classes",
            [](const ClassCounter& c, const std::string& eq) {
                return countsDict(c.classes(equivalenceOf(eq)));
            },
            py::arg("equivalence"))
        .def(
            "duplicates",
            [](const ClassCounter& c, const std::string& eq) {
                return c.duplicates(equivalenceOf(eq));
            },
            py::arg("equivalence"), "How many added traces fell into an already-seen class.");
}

}  // namespace porlab::bind
