// SPDX-License-Identifier: MIT
// Explorers: the registry, explore() with its options, and results.
#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>
#include <limits>
#include <map>
#include <variant>

#include "bindings.hpp"
#include "porlab/core/Errors.hpp"
#include "porlab/explore/Explorer.hpp"

namespace py = pybind11;
using namespace porlab;

namespace porlab::bind {

namespace {

py::object optionValue(const OptionValue& v) {
    if (const bool* b = std::get_if<bool>(&v)) return py::bool_(*b);
    if (const std::int64_t* i = std::get_if<std::int64_t>(&v)) return py::int_(*i);
    return py::str(std::get<std::string>(v));
}

// The schema of options as dicts: name, type (bool, int, enum, string), default (a value of the
// type, None when there is none), values (enum), min and max (int; None: unbounded), doc.
py::list optionDicts(const std::vector<ExplorerOption>& options) {
    py::list out;
    for (const auto& o : options) {
        py::dict d;
        d["name"] = o.name;
        d["type"] = std::string(optionTypeName(o.type()));
        d["default"] = o.defaultValue.empty() && o.type() != OptionType::String
                           ? py::object(py::none())
                           : optionValue(o.defaultParsed());
        d["values"] = o.type() == OptionType::Enum ? py::cast(o.values) : py::object(py::none());
        const bool isInt = o.type() == OptionType::Int;
        d["min"] = isInt && o.min != std::numeric_limits<std::int64_t>::min()
                       ? py::object(py::int_(o.min))
                       : py::object(py::none());
        d["max"] = isInt && o.max != std::numeric_limits<std::int64_t>::max()
                       ? py::object(py::int_(o.max))
                       : py::object(py::none());
        d["doc"] = o.doc;
        out.append(d);
    }
    return out;
}

// ---- explorers written in Python (porlab.register_explorer) ---------------------------------

// Happens-before of a sequence of events (program order, spawn -> child, child end -> join,
// and the order of conflicting events) as vector clocks; preds[j] lists the positions of the
// immediate predecessors of event j (its program-order predecessor, the spawn or the joined
// thread's last event, and every earlier conflicting event).
struct Hb {
    std::vector<VectorClock> clocks;
    std::vector<std::vector<int>> preds;
};

Hb happensBefore(const std::vector<Event>& ev, ConflictRelation conf) {
    Hb hb;
    const auto n = ev.size();
    hb.clocks.resize(n);
    hb.preds.resize(n);
    std::map<ThreadId, int> last, spawnedAt;
    for (std::size_t j = 0; j < n; ++j) {
        const Event& e = ev[j];
        auto& preds = hb.preds[j];
        if (auto it = last.find(e.thread); it != last.end())
            preds.push_back(it->second);
        else if (auto sp = spawnedAt.find(e.thread); sp != spawnedAt.end())
            preds.push_back(sp->second);
        if (e.kind == EventKind::Join && e.aux >= 0)
            if (auto it = last.find(static_cast<ThreadId>(e.aux)); it != last.end())
                preds.push_back(it->second);
        for (std::size_t k = 0; k < j; ++k)
            if (ev[k].thread != e.thread && conf.conflicts(ev[k], e))
                preds.push_back(static_cast<int>(k));
        VectorClock c;
        for (int p : preds) c.join(hb.clocks[static_cast<std::size_t>(p)]);
        c.set(e.thread, e.index + 1);
        hb.clocks[j] = std::move(c);
        if (e.kind == EventKind::Spawn && e.aux >= 0)
            spawnedAt[static_cast<ThreadId>(e.aux)] = static_cast<int>(j);
        last[e.thread] = static_cast<int>(j);
    }
    return hb;
}

bool hbBefore(const Hb& hb, const std::vector<Event>& ev, std::size_t i, std::size_t j) {
    return hb.clocks[j].covers(ev[i].thread, ev[i].index);
}

// Source-DPOR's races (Abdulla et al., POPL'14, Def. 3.1): pairs (i, j), i < j, of conflicting
// events of different threads with i ->hb j and no event between them in happens-before; a lock
// j that follows an unlock races with the lock i of that critical section.
std::vector<std::pair<int, int>> races(const std::vector<Event>& ev, ConflictRelation conf,
                                       const Hb& hb) {
    std::vector<std::pair<int, int>> out;
    for (std::size_t j = 0; j < ev.size(); ++j) {
        for (int i : hb.preds[j]) {
            if (ev[static_cast<std::size_t>(i)].thread == ev[j].thread ||
                !conf.conflicts(ev[static_cast<std::size_t>(i)], ev[j]))
                continue;
            // A lock cannot be moved before the unlock it waited for: its race is with the lock
            // that began that critical section.
            int cand = i;
            if (ev[j].kind == EventKind::Lock &&
                ev[static_cast<std::size_t>(i)].kind == EventKind::Unlock)
                for (int k = i - 1; k >= 0; --k) {
                    const Event& e = ev[static_cast<std::size_t>(k)];
                    if (e.thread == ev[static_cast<std::size_t>(i)].thread &&
                        e.kind == EventKind::Lock && e.loc == ev[j].loc) {
                        cand = k;
                        break;
                    }
                }
            const auto uc = static_cast<std::size_t>(cand);
            bool direct = true;
            for (int p : hb.preds[j])
                if (p != i && p != cand && hbBefore(hb, ev, uc, static_cast<std::size_t>(p)))
                    direct = false;
            if (direct) out.emplace_back(cand, static_cast<int>(j));
        }
    }
    return out;
}

// The initials of v = notdep(i, E).j (Source-DPOR, Algorithm 1 line 6): the threads whose first
// event in v has no happens-before predecessor in v.
std::vector<ThreadId> raceInitials(const std::vector<Event>& ev, const Hb& hb, std::size_t i,
                                   std::size_t j) {
    std::vector<std::size_t> v;
    for (std::size_t k = i + 1; k < j; ++k)
        if (!hbBefore(hb, ev, i, k)) v.push_back(k);
    v.push_back(j);
    std::vector<ThreadId> out;
    for (std::size_t a = 0; a < v.size(); ++a) {
        bool initial = true;
        for (std::size_t b = 0; b < a && initial; ++b)
            if (hbBefore(hb, ev, v[b], v[a])) initial = false;
        if (initial && std::find(out.begin(), out.end(), ev[v[a]].thread) == out.end())
            out.push_back(ev[v[a]].thread);
    }
    return out;
}

TraceStatus countedStatus(PyRun& run, const Execution& exec, const std::vector<Event>& events) {
    return run.rep->maximal(Reporter::classify(exec), exec, events);
}

void bindPythonExplorers(py::module_& m) {
    py::class_<PyRun>(m, "ExplorerRun",
                      "What an explorer written in Python gets with the program: its typed "
                      "options, the reporter (counts, budgets, bug checks, outcomes) and C++ "
                      "building blocks (replay, races, initials, independence).")
        .def_property_readonly(
            "options",
            [](const PyRun& r) {
                py::dict d;
                for (const auto& [k, v] : r.opts->values.all()) d[py::str(k)] = optionValue(v);
                return d;
            },
            "The explorer's options, parsed and typed (defaults included).")
        .def_property_readonly(
            "ifaa", [](const PyRun& r) { return r.opts->conflicts.ifaa; },
            "Fetch-and-adds with unused results commute (ifaa=True).")
        .def(
            "stop", [](PyRun& r) { return r.rep->stop(); },
            "Should the explorer stop now (a budget, Ctrl-C, the first error)? Call it often; "
            "after it returned True, report nothing more and return.")
        .def(
            "step",
            [](PyRun& r, Execution& e, int t) {
                if (t < 0 || t >= e.maxThreads() || !e.enabled(t))
                    throw InputError("thread " + std::to_string(t) + " is not enabled");
                r.rep->countEvent();
                auto s = e.step(t);
                return std::vector<Event>(s.begin(), s.end());
            },
            py::arg("execution"), py::arg("thread"),
            "Step an enabled thread and count the event; returns the events emitted.")
        .def(
            "replay",
            [](PyRun& r, Execution& e, const std::vector<int>& schedule) {
                auto init = e.reset();
                std::vector<Event> out(init.begin(), init.end());
                for (int t : schedule) {
                    if (t < 0 || t >= e.maxThreads() || !e.enabled(t))
                        throw InputError("replay: thread " + std::to_string(t) + " is not enabled");
                    r.rep->countEvent();
                    auto s = e.step(t);
                    out.insert(out.end(), s.begin(), s.end());
                }
                return out;
            },
            py::arg("execution"), py::arg("schedule"),
            "Reset the execution and run the threads of `schedule` in order, in one call; "
            "returns every event emitted (the events are counted).")
        .def(
            "maximal",
            [](PyRun& r, const Execution& e, const std::vector<Event>& events) {
                return std::string(name(countedStatus(r, e, events)));
            },
            py::arg("execution"), py::arg("events"),
            "Report a maximal execution (its events from the start): returns the status it is "
            "counted with, complete, blocked or error (a bug check may make it an error).")
        .def(
            "outcome",
            [](PyRun& r, const Execution& e, const std::vector<Event>& events) {
                r.rep->outcome(e, events);
            },
            py::arg("execution"), py::arg("events"),
            "Record the final state of a maximal execution not reported as a trace.")
        .def(
            "set_stat", [](PyRun& r, const std::string& k, double v) { r.result->stats[k] = v; },
            py::arg("name"), py::arg("value"), "An explorer-specific statistic.")
        .def(
            "conflicts",
            [](const PyRun& r, const Event& a, const Event& b) {
                return a.thread != b.thread && r.opts->conflicts.conflicts(a, b);
            },
            py::arg("a"), py::arg("b"),
            "Are two events of different threads dependent (the run's conflict relation)?")
        .def(
            "races",
            [](const PyRun& r, const std::vector<Event>& events) {
                return races(events, r.opts->conflicts, happensBefore(events, r.opts->conflicts));
            },
            py::arg("events"),
            "Source-DPOR's races of a sequence of events: pairs (i, j) of conflicting events of "
            "different threads, i happening before j with no event between them.")
        .def(
            "races_with_initials",
            [](const PyRun& r, const std::vector<Event>& events) {
                const auto hb = happensBefore(events, r.opts->conflicts);
                py::list out;
                for (auto [i, j] : races(events, r.opts->conflicts, hb))
                    out.append(py::make_tuple(i, j,
                                              raceInitials(events, hb, static_cast<std::size_t>(i),
                                                           static_cast<std::size_t>(j))));
                return out;
            },
            py::arg("events"),
            "The races (i, j, initials): initials are the threads that can start "
            "v = notdep(i, E).j, the sequence that reverses the race (Source-DPOR).")
        .def(
            "initials",
            [](const PyRun& r, const std::vector<Event>& events, std::size_t i, std::size_t j) {
                if (i >= j || j >= events.size()) throw py::index_error("need i < j < len");
                return raceInitials(events, happensBefore(events, r.opts->conflicts), i, j);
            },
            py::arg("events"), py::arg("i"), py::arg("j"),
            "The threads that can start v = notdep(i, E).j for any i < j (e.g. j the pending "
            "event of a thread blocked at the end, appended: a blocking race).");

    m.def(
        "register_explorer",
        [](const std::string& name, py::function function, const std::string& equivalence,
           const std::string& description, bool optimal, bool coversClasses, bool nonRedundant,
           bool ifaa, const std::vector<py::dict>& options) {
            ExplorerInfo info;
            info.name = name;
            info.equivalence = equivalence;
            info.description = description;
            info.optimal = optimal;
            info.coversClasses = coversClasses;
            info.nonRedundant = nonRedundant;
            info.ifaa = ifaa;
            for (const auto& d : options) {
                ExplorerOption o;
                o.name = d["name"].cast<std::string>();
                const auto type = d["type"].cast<std::string>();
                o.declared = type == "bool"   ? OptionType::Bool
                             : type == "int"  ? OptionType::Int
                             : type == "enum" ? OptionType::Enum
                                              : OptionType::String;
                o.defaultValue = d["default"].is_none() ? "" : d["default"].cast<std::string>();
                if (!d["values"].is_none()) o.values = d["values"].cast<std::vector<std::string>>();
                if (!d["min"].is_none()) o.min = d["min"].cast<std::int64_t>();
                if (!d["max"].is_none()) o.max = d["max"].cast<std::int64_t>();
                o.doc = d["doc"].cast<std::string>();
                info.options.push_back(std::move(o));
            }
            // Kept for the life of the process: the registry outlives the interpreter, and a
            // Python object must not be released without it.
            auto* fn = new py::object(std::move(function));
            info.run = [fn](const Program& p, const ExploreOptions& o) {
                ExploreResult r;
                Reporter rep(p, o, r);
                {
                    py::gil_scoped_acquire gil;
                    PyRun run{&p, &o, &rep, &r};
                    (*fn)(py::cast(&p, py::return_value_policy::reference),
                          py::cast(&run, py::return_value_policy::reference));
                }
                rep.finish();
                return r;
            };
            registerExplorer(std::move(info));
        },
        py::arg("name"), py::arg("function"), py::arg("equivalence"), py::arg("description"),
        py::arg("optimal"), py::arg("covers_classes"), py::arg("non_redundant"), py::arg("ifaa"),
        py::arg("options"),
        "Register an explorer written in Python (porlab.register_explorer is the API).");
}

}  // namespace

void bindExplore(py::module_& m) {
    bindPythonExplorers(m);
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
        .def_property_readonly(
            "outcomes",
            [](const ExploreResult& r) {
                py::set s;
                for (const auto& o : r.outcomes) s.add(py::tuple(py::cast(o)));
                return s;
            },
            "Final states of complete and blocked traces (tuples of ints).")
        .def_property_readonly(
            "error_sites",
            [](const ExploreResult& r) {
                py::list l;
                for (const auto& s : r.errorSites)
                    l.append(py::make_tuple(s.thread, std::string(name(s.kind)), s.aux, s.pos.file,
                                            s.pos.line));
                return l;
            },
            "Distinct (thread, kind, code, file, line) of errors found.")
        .def_readonly("errors_by_site", &ExploreResult::errorsBySite,
                      "Per distinct error site (as error_sites): the number of error traces that "
                      "reached it and the first of them.")
        .def_readonly("stats", &ExploreResult::stats, "Explorer-specific statistics.");

    m.def(
        "explorers",
        [] {
            py::list l;
            for (const auto& e : explorers()) {
                py::dict d;
                d["name"] = e.name;
                d["equivalence"] = e.equivalence;
                d["description"] = e.description;
                d["optimal"] = e.optimal;
                d["options"] = optionDicts(e.options);
                d["covers_classes"] = e.optimal || e.coversClasses;
                d["non_redundant"] = e.optimal || e.nonRedundant;
                d["ifaa"] = e.ifaa;
                d["plugin"] = e.plugin;
                l.append(d);
            }
            return l;
        },
        "The registered explorers (name, equivalence, description, optimal, options, "
        "covers_classes: every complete class of the equivalence gets a complete trace, "
        "non_redundant: no two complete traces share a class).");

    m.def(
        "explore",
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
        py::arg("on_trace") = py::none(), py::arg("params") = std::map<std::string, std::string>{},
        py::arg("progress") = py::none(), py::arg("progress_seconds") = 0.5,
        py::arg("check_races") = true, py::arg("check_liveness") = false, py::arg("jobs") = 1,
        "Explore a program with a registered explorer (the GIL is released meanwhile). Ctrl-C "
        "(any KeyboardInterrupt a signal handler raises) stops the run like a budget: the "
        "partial result comes back with budget_reason 'interrupted'. `progress` is called "
        "about every progress_seconds with (complete, blocked, errors, events, seconds).");

    m.def(
        "c_load_option_schema", [] { return optionDicts(cLoadOptionSchema()); },
        "The options of loading a C program (load_c's keywords, porlab run's flags), as the "
        "explorers' options: name, type, default, values, min, max, doc.");

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
        if (progress &&
            std::chrono::duration<double>(now - lastProgress).count() >= progressSeconds) {
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
