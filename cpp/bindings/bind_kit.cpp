// SPDX-License-Identifier: MIT
// Building blocks of explorers written in Python (explore/Kit*.hpp): the explored sequence of a
// DPOR explorer with its sleep sets, races and wakeup-sequence tests; dependence and sleep sets
// of events. docs/python-explorers.md shows them at work.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>

#include "bindings.hpp"
#include "porlab/core/Errors.hpp"
#include "porlab/equiv/Keys.hpp"
#include "porlab/explore/KitConsistency.hpp"
#include "porlab/explore/KitSequence.hpp"

namespace py = pybind11;
using namespace porlab;

namespace porlab::bind {

namespace {

const char* endName(kit::End e) {
    switch (e) {
        case kit::End::Open:
            return "open";
        case kit::End::Maximal:
            return "maximal";
        case kit::End::Error:
            return "error";
        case kit::End::SleepBlocked:
            return "sleep-blocked";
    }
    return "open";
}

std::vector<kit::SleepEntry> sleepEntries(const std::vector<py::tuple>& sleep) {
    std::vector<kit::SleepEntry> out;
    for (const auto& s : sleep) {
        if (s.size() != 2) throw InputError("a sleep entry is a tuple (event, fails)");
        out.push_back({s[0].cast<Event>(), s[1].cast<bool>()});
    }
    return out;
}

py::list sleepTuples(const std::vector<kit::SleepEntry>& sleep) {
    py::list l;
    for (const auto& s : sleep) l.append(py::make_tuple(s.ev, s.fails));
    return l;
}

// Owns the sequence; keeps the run (and so its reporter) referenced from Python.
struct PySequence {
    kit::Sequence seq;
    std::shared_ptr<const ProgramInfo> info;  // for the traces whose keys key() computes
    PySequence(const Program& p, ConflictRelation c, Reporter* r) : seq(p, c, r), info(p.info()) {}
};

std::size_t checkedDepth(const kit::Sequence& s, std::size_t d, bool inclusive) {
    if (d > s.depth() || (!inclusive && d == s.depth()))
        throw py::index_error("depth " + std::to_string(d) + " out of range (E has " +
                              std::to_string(s.depth()) + " steps)");
    return d;
}

}  // namespace

void bindKit(py::module_& m) {
    m.def(
        "dependent",
        [](const Event& a, const Event& b, bool ifaa) {
            return kit::dependent(a, b, ConflictRelation{ifaa});
        },
        py::arg("a"), py::arg("b"), py::arg("ifaa") = false,
        "Are two events dependent: the same thread, a memory conflict (IFAA fetch-and-adds "
        "commute when ifaa), or one spawns or joins the other's thread?");
    m.def(
        "sleep_after",
        [](const std::vector<py::tuple>& sleep, const Event& e, bool ifaa) {
            return sleepTuples(kit::sleepAfter(sleepEntries(sleep), e, ConflictRelation{ifaa}));
        },
        py::arg("sleep"), py::arg("event"), py::arg("ifaa") = false,
        "The sleep set after performing `event` from a state whose sleep set is `sleep` "
        "(entries (next event of a sleeping thread, does it fail the run)): the entries "
        "independent of `event`; a failing entry never survives a step.");

    m.def(
        "sc_consistent",
        [](const std::vector<Event>& events, const std::vector<int>& rf) {
            return kit::scConsistent(events, rf);
        },
        py::arg("events"), py::arg("rf"),
        "The consistency check of an execution graph (the reads-from machinery's VerifySC): "
        "`events` are some threads' events, each thread's in program order (markers ignored); "
        "rf[k] is, for each read k, the position of the write it reads from (-1: the initial "
        "value; ignored for other events). Returns the positions of an interleaving that keeps "
        "program order, spawns and joins in which every read's last preceding write is rf[k] "
        "(values are not re-checked), or None when there is none.");

    py::class_<PySequence>(
        m, "ExploredSequence",
        "The explored sequence E of a DPOR explorer, kept in C++: the execution, E's events "
        "with their happens-before (vector clocks, kept as E grows and shrinks), a snapshot "
        "before every step and a sleep set per depth. Made by run.sequence(program) in a "
        "registered explorer (events counted, budgets checked, maximal executions reported), "
        "or ExploredSequence(program, ifaa=False) alone (nothing counted). Depth d is the state "
        "after "
        "d steps; positions index `events`.")
        .def(py::init([](const Program& p, bool ifaa) {
                 return new PySequence(p, ConflictRelation{ifaa}, nullptr);
             }),
             py::arg("program"), py::arg("ifaa") = false)
        .def_property_readonly(
            "depth", [](const PySequence& s) { return s.seq.depth(); }, "Steps in E.")
        .def_property_readonly(
            "events", [](const PySequence& s) { return s.seq.events(); },
            "E's events (a copy): reset()'s markers, then each step's event and markers.")
        .def_property_readonly(
            "end", [](const PySequence& s) { return endName(s.seq.end()); },
            "How E ended: open, maximal, error or sleep-blocked.")
        .def_property_readonly("max_threads",
                               [](const PySequence& s) { return s.seq.maxThreads(); })
        .def_property_readonly(
            "execution", [](PySequence& s) -> Execution& { return s.seq.execution(); },
            py::return_value_policy::reference_internal,
            "The execution in the state after E (do not step it: use step).")
        .def(
            "thread",
            [](const PySequence& s, std::size_t d) {
                return s.seq.thread(checkedDepth(s.seq, d, false));
            },
            py::arg("d"), "The thread of step d.")
        .def(
            "threads",
            [](const PySequence& s, std::size_t from) {
                std::vector<ThreadId> out;
                for (std::size_t d = checkedDepth(s.seq, from, true); d < s.seq.depth(); ++d)
                    out.push_back(s.seq.thread(d));
                return out;
            },
            py::arg("start") = 0, "The threads of steps start, start+1, ... (the schedule).")
        .def(
            "start",
            [](const PySequence& s, std::size_t d) {
                return s.seq.start(checkedDepth(s.seq, d, true));
            },
            py::arg("d"), "Position of step d's first event (d == depth: len(events)).")
        .def(
            "depth_of",
            [](const PySequence& s, std::size_t pos) {
                if (pos >= s.seq.events().size()) throw py::index_error("position out of range");
                return s.seq.depthOf(pos);
            },
            py::arg("position"), "The step that emitted an event (-1: reset's markers).")
        .def(
            "enabled", [](PySequence& s) { return s.seq.enabled(); },
            "Threads enabled after E, as a bit mask.")
        .def(
            "sleep",
            [](const PySequence& s, std::size_t d) {
                return sleepTuples(s.seq.sleep(checkedDepth(s.seq, d, true)));
            },
            py::arg("d"), "The sleep set at depth d: entries (next event, does it fail the run).")
        .def(
            "sleep_mask",
            [](const PySequence& s, std::size_t d) {
                return s.seq.sleepMask(checkedDepth(s.seq, d, true));
            },
            py::arg("d"), "The threads asleep at depth d, as a bit mask.")
        .def(
            "step", [](PySequence& s, ThreadId t) { s.seq.step(t); }, py::arg("thread"),
            "Perform an enabled thread's next event; the new depth's sleep set is the current "
            "one after it (sleep_after).")
        .def(
            "extend", [](PySequence& s, ThreadId first) { return endName(s.seq.extend(first)); },
            py::arg("first") = -1,
            "Step `first` (-1: the lowest enabled thread not asleep), then the lowest enabled "
            "thread not asleep until E ends; returns how: maximal, error, sleep-blocked, or open "
            "when a budget stopped it (run.stop() is then True).")
        .def(
            "backtrack",
            [](PySequence& s, std::size_t d) { s.seq.backtrack(checkedDepth(s.seq, d, false)); },
            py::arg("d"),
            "Shorten E to d steps (the state is restored from a snapshot); step d's event goes "
            "to sleep at depth d.")
        .def(
            "report", [](PySequence& s) { return std::string(name(s.seq.report())); },
            "Report E, ended maximal or error, as a trace (counted, bug-checked, outcome "
            "recorded); returns its status: complete, blocked or error.")
        .def(
            "hb",
            [](const PySequence& s, std::size_t i, std::size_t j) {
                if (i >= s.seq.events().size() || j >= s.seq.events().size())
                    throw py::index_error("position out of range");
                return s.seq.hb(i, j);
            },
            py::arg("i"), py::arg("j"), "Does the event at position i happen before the one at j?")
        .def(
            "races", [](const PySequence& s) { return s.seq.races(); },
            "Source-DPOR's races (i, j) of E: conflicting events of different threads, i "
            "happening before j with no event between them; ordered by j, then i decreasing.")
        .def(
            "notdep",
            [](const PySequence& s, std::size_t i, std::size_t j) { return s.seq.notdep(i, j); },
            py::arg("i"), py::arg("j"),
            "Positions of v = notdep(i, E).j: the events between i and j that i does not "
            "happen before, then j (the wakeup sequence that reverses the race (i, j)).")
        .def(
            "initials",
            [](const PySequence& s, const std::vector<std::size_t>& v) {
                return s.seq.initials(v);
            },
            py::arg("v"),
            "The threads that can start the subsequence v (positions, increasing) of E: whose "
            "first event in v has no happens-before predecessor in v (a bit mask).")
        .def(
            "weak_initial",
            [](const PySequence& s, const std::vector<std::size_t>& v, const Event& next,
               bool fails) { return s.seq.weakInitial(v, next, fails); },
            py::arg("v"), py::arg("next"), py::arg("fails") = false,
            "Optimal-DPOR's weak-initial test (Def. 6.1): is next.thread (whose next event "
            "after E is `next`) a weak initial of v: its first event in v has no "
            "happens-before predecessor in v, or it has none in v and `next` is independent of "
            "all of v (a failing `next` is dependent with everything)?")
        .def(
            "asleep",
            [](const PySequence& s, std::size_t d, const std::vector<std::size_t>& v) {
                return s.seq.asleep(checkedDepth(s.seq, d, true), v);
            },
            py::arg("d"), py::arg("v"),
            "Is inserting v at depth d redundant: is a thread asleep at d a weak initial of v?")
        .def(
            "key",
            [](PySequence& s, const std::string& equivalence, int thread) {
                const auto eq = equivalenceFromName(equivalence);
                if (!eq) throw InputError("unknown equivalence '" + equivalence + "'");
                if (thread < 0) throw InputError("the preselected thread must be >= 0");
                const Trace t(s.seq.events(), Reporter::classify(s.seq.execution()), s.info);
                const Key k = traceKey(*eq, t, thread);
                return py::make_tuple(k.hi, k.lo);
            },
            py::arg("equivalence"), py::arg("thread") = kDefaultPreselectedThread,
            "The canonical key of E's class under an equivalence (as porlab.trace_key of E as a "
            "trace): equal keys iff equivalent. `thread`: the thread value-centric and "
            "data-centric preselect.")
        .def(
            "reversals",
            [](PySequence& s) {
                py::list l;
                for (const auto& r : s.seq.reversals())
                    l.append(py::make_tuple(r.depth, r.initials, r.first));
                return l;
            },
            "Source-DPOR's race reversals of the ended E, as (depth, initials, first): the "
            "sequence v reversing a race starts at that depth; initials (a bit mask) can start "
            "it, `first` is its first event's thread. Races (i, j) give notdep(i, E).j (an "
            "executed "
            "await: for every event i it conflicts with); a thread "
            "blocked at the end (await, lock) gives notdep(i, E).next for each event i it "
            "conflicts with; a failing last step f gives every other thread ready before f, "
            "alone, just before f. Duplicates removed.");

    py::type run = py::type::of<PyRun>();
    run.attr("sequence") = py::cpp_function(
        [](py::object self, const Program& p) {
            auto& r = self.cast<PyRun&>();
            auto s = py::cast(new PySequence(p, r.opts->conflicts, r.rep),
                              py::return_value_policy::take_ownership);
            py::detail::keep_alive_impl(s, self);
            return s;
        },
        py::is_method(run), py::arg("program"),
        "An ExploredSequence of the program for this run: its events are counted, budgets checked, "
        "its "
        "conflict relation is the run's (IFAA when run.ifaa), and report() reports to the run.");
}

}  // namespace porlab::bind
