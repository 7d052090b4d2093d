// SPDX-License-Identifier: MIT
// Events and traces.
#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "porlab/core/Relations.hpp"
#include "porlab/core/Trace.hpp"
#include "porlab/explore/Explorer.hpp"

namespace py = pybind11;
using namespace porlab;

namespace porlab::bind {

void bindCore(py::module_& m) {
    py::class_<SourcePos>(m, "SourcePos", "A source position: file index and line.")
        .def_readonly("file", &SourcePos::file)
        .def_readonly("line", &SourcePos::line);

    py::class_<Event>(m, "Event", "One visible step of one thread, identified by (thread, index).")
        .def_readonly("thread", &Event::thread, "The thread that performed the event.")
        .def_readonly("index", &Event::index, "Position among the thread's events (0-based).")
        .def_property_readonly(
            "kind", [](const Event& e) { return std::string(name(e.kind)); },
            "Kind: read, write, fetch-add, exchange, cas-success, ...")
        .def_property_readonly(
            "rmw_op", [](const Event& e) { return std::string(name(e.rmwOp)); },
            "Operation of a fetch-add event (add, sub, and, ...).")
        .def_property_readonly(
            "cond", [](const Event& e) { return std::string(name(e.cond)); },
            "Condition of an await event (eq, ne, ...).")
        .def_readonly("loc", &Event::loc, "Location or mutex id (-1 when none).")
        .def_readonly("value_read", &Event::rval, "Value read (reads, RMWs, CAS, awaits).")
        .def_readonly("value_written", &Event::wval, "Value written (writes, RMWs, CAS).")
        .def_readonly("operand", &Event::operand,
                      "Fetch-add operand, CAS expected value or await operand.")
        .def_readonly("result_used", &Event::resultUsed,
                      "Fetch-add only: is the loaded value used afterwards (IFAA).")
        .def_readonly("enabled", &Event::enabled, "For a pending event: can it run now?")
        .def_readonly("aux", &Event::aux,
                      "Spawn/join: the other thread; markers: the cause or fault code.")
        .def_readonly("pos", &Event::pos, "Source position.")
        .def_readonly("pointer", &Event::pointer,
                      "Are the values read and written pointers (C programs; shown symbolically)?")
        .def_readonly("ctx", &Event::ctx,
                      "The call stack the event runs in (an id; Trace.stack(i) shows it; 0 when "
                      "unknown).")
        .def_property_readonly(
            "reads", [](const Event& e) { return readsMemory(e.kind); },
            "Does the event read a shared location?")
        .def_property_readonly(
            "writes", [](const Event& e) { return writesMemory(e.kind); },
            "Does the event write a shared location?")
        .def("__eq__", [](const Event& a, const Event& b) { return a == b; })
        .def("__hash__",
             [](const Event& e) {
                 return py::hash(py::make_tuple(e.thread, e.index, static_cast<int>(e.kind), e.loc,
                                                e.rval, e.wval));
             })
        .def("__repr__", [](const Event& e) {
            return "<Event T" + std::to_string(e.thread) + "." + std::to_string(e.index) + " " +
                   toString(e) + ">";
        });

    py::class_<Trace>(m, "Trace",
                      "A sequence of events a program really executed, with its relations.")
        .def_property_readonly("events", &Trace::events, "The events in execution order.")
        .def_property_readonly(
            "status", [](const Trace& t) { return std::string(name(t.status())); },
            "complete, blocked or error.")
        .def("__len__", &Trace::size)
        .def("__getitem__",
             [](const Trace& t, long i) {
                 const long n = static_cast<long>(t.size());
                 if (i < 0) i += n;
                 if (i < 0 || i >= n) throw py::index_error("trace index out of range");
                 return t[static_cast<std::size_t>(i)];
             })
        .def_property_readonly("num_threads", &Trace::numThreads)
        .def("reads_from", &Trace::readsFrom,
             "For every event, the position of the write it reads from, -1 for the initial "
             "value, -2 when it reads nothing.")
        .def("coherence", &Trace::coherence,
             "For every location, the positions of its writes in coherence order.")
        .def("from_read", &Trace::fromRead, "Pairs (read, write) of the from-read relation.")
        // (Eigen matrices returned by value reach numpy without a copy.)
        .def(
            "matrix",
            [](const Trace& t, const std::string& rel, bool ifaa) {
                return relationMatrix(t, rel, ConflictRelation{ifaa});
            },
            py::arg("relation"), py::arg("ifaa") = false,
            "The relation (po, rf, co, fr, hb, causal) as an n×n numpy boolean matrix "
            "over event positions; hb uses the IFAA conflict relation when ifaa=True.")
        .def(
            "closure",
            [](const Trace& t, const std::vector<std::string>& rels, bool ifaa) {
                const auto n = static_cast<Eigen::Index>(t.size());
                RelationMatrix u = RelationMatrix::Zero(n, n);
                for (const auto& rel : rels)
                    u = u.array() || relationMatrix(t, rel, ConflictRelation{ifaa}).array();
                return transitiveClosure(std::move(u));
            },
            py::arg("relations"), py::arg("ifaa") = false,
            "The transitive closure of the union of the relations (names as for matrix()), "
            "as an n×n numpy boolean matrix.")
        .def(
            "hb",
            [](const Trace& t, int i, int j, bool ifaa) {
                const int n = static_cast<int>(t.size());
                if (i < 0 || j < 0 || i >= n || j >= n) throw py::index_error("event position");
                auto vc = t.happensBefore(ConflictRelation{ifaa});
                return i != j && vc[j].covers(t[i].thread, t[i].index);
            },
            py::arg("i"), py::arg("j"), py::arg("ifaa") = false,
            "Does event i happen before event j (positions in the trace)?")
        .def(
            "source",
            [](const Trace& t, int i) {
                if (i < 0 || i >= static_cast<int>(t.size()))
                    throw py::index_error("event position");
                return t.info() ? t.info()->position(t[i].pos) : std::string();
            },
            py::arg("i"), "Source position ('file:line') of event i, or ''.")
        .def(
            "describe",
            [](const Trace& t, int i) {
                if (i < 0 || i >= static_cast<int>(t.size()))
                    throw py::index_error("event position");
                return describe(t[i], t.info().get());
            },
            py::arg("i"), "Human-readable text of event i, with names.")
        .def(
            "thread_name",
            [](const Trace& t, int tid) {
                return t.info() ? t.info()->threadName(tid) : "T" + std::to_string(tid);
            },
            py::arg("thread"))
        .def(
            "location_name",
            [](const Trace& t, int loc) {
                return t.info() ? t.info()->locationName(loc) : "@" + std::to_string(loc);
            },
            py::arg("loc"))
        .def(
            "function",
            [](const Trace& t, int i) {
                if (i < 0 || i >= static_cast<int>(t.size()))
                    throw py::index_error("event position");
                return t.function(static_cast<std::size_t>(i));
            },
            py::arg("i"), "The function event i runs in ('' when unknown, e.g. builder programs).")
        .def(
            "stack",
            [](const Trace& t, int i) {
                if (i < 0 || i >= static_cast<int>(t.size()))
                    throw py::index_error("event position");
                py::list l;
                for (const auto& f : t.stack(static_cast<std::size_t>(i)))
                    l.append(py::make_tuple(f.function,
                                            t.info() ? t.info()->position(f.pos) : std::string()));
                return l;
            },
            py::arg("i"),
            "The call stack of event i, innermost first: (function, 'file:line') pairs, the "
            "first at the event, each other at its call of the one before; [] when unknown.")
        .def(
            "stack_text",
            [](const Trace& t, int i, std::size_t maxFrames) {
                if (i < 0 || i >= static_cast<int>(t.size()))
                    throw py::index_error("event position");
                return t.stackText(static_cast<std::size_t>(i), maxFrames);
            },
            py::arg("i"), py::arg("max_frames") = 3,
            "The call stack of event i as text, innermost first ('push <- worker').")
        .def_property_readonly("error_position", &Trace::errorPosition,
                               "Position of the first assertion failure or fault, or -1.")
        .def_property_readonly("error_message", &Trace::errorMessage,
                               "What the first error says (\"assertion `x == 1' failed\", "
                               "'reach_error() called', 'fault: use after free'), or ''.")
        .def(
            "objects",
            [](const Trace& t) {
                py::list l;
                for (const auto& o : t.objects()) {
                    py::dict d;
                    d["name"] = o.name;
                    d["kind"] = o.kind;
                    d["size"] = o.size;
                    d["source"] = t.info() ? t.info()->position(o.pos) : std::string();
                    d["thread"] =
                        t.info() ? t.info()->threadName(o.thread) : "T" + std::to_string(o.thread);
                    l.append(d);
                }
                return l;
            },
            "The heap blocks and escaped stack variables the events touch or point to: dicts "
            "with name, kind (malloc, calloc, stack), size, source (where allocated), thread.")
        .def(
            "inputs",
            [](const Trace& t) {
                py::list l;
                for (const auto& in : t.inputList()) {
                    py::dict d;
                    d["thread"] = t.info() ? t.info()->threadName(in.thread)
                                           : "T" + std::to_string(in.thread);
                    d["call"] = in.call;
                    d["value"] = in.value;
                    d["source"] = t.info() ? t.info()->position(in.pos) : std::string();
                    l.append(d);
                }
                return l;
            },
            "The nondeterministic inputs the trace ran under (C programs with --nondet-domain): "
            "dicts with thread, call (the thread's n-th __VERIFIER_nondet_* call, from 0), "
            "value and source, for every call given a value other than the domain's low end.")
        .def_property_readonly("inputs_note", &Trace::inputsNote,
                               "One line saying what the trace's __VERIFIER_nondet_* calls "
                               "returned ('' when the program makes none).")
        .def("to_text", &Trace::toString, py::arg("max_thread_width") = 24,
             "The trace as a table (thread, source, function, event), then the objects and "
             "inputs; thread names longer than max_thread_width are shortened.")
        .def_property_readonly(
            "blocks",
            [](const Trace& t) {
                py::list l;
                for (const auto& b : t.blocks())
                    l.append(py::make_tuple(
                        t.info() ? t.info()->threadName(b.thread) : "T" + std::to_string(b.thread),
                        b.reason, t.info() ? t.info()->position(b.pos) : std::string()));
                return l;
            },
            "A blocked trace: (thread, reason, 'file:line') for every thread that stopped "
            "without finishing (reasons: assume, loop-bound, await, lock, cond-wait, ...).")
        .def("to_dot", &Trace::toDot, py::arg("title") = "",
             "Graphviz DOT of the execution graph: events labelled with their source and "
             "function, po solid, rf dashed red, co dotted blue, the error event in red (the "
             "title defaults to the error's message).")
        .def("__str__", [](const Trace& t) { return t.toString(); })
        .def("__repr__", [](const Trace& t) {
            return "<Trace " + std::string(name(t.status())) + ", " + std::to_string(t.size()) +
                   " events>";
        });
}

void bindErrorSiteTraces(py::module_& m) {
    py::class_<ErrorSiteTraces>(m, "ErrorSiteTraces",
                                "A distinct error site, how many error traces reached it, and the "
                                "first of them.")
        .def_property_readonly(
            "thread", [](const ErrorSiteTraces& s) { return s.site.thread; }, "The failing thread.")
        .def_property_readonly(
            "kind", [](const ErrorSiteTraces& s) { return std::string(name(s.site.kind)); },
            "assertion-failure or fault.")
        .def_property_readonly(
            "code", [](const ErrorSiteTraces& s) { return s.site.aux; },
            "The fault kind, or the assertion's text id.")
        .def_property_readonly("file", [](const ErrorSiteTraces& s) { return s.site.pos.file; })
        .def_property_readonly("line", [](const ErrorSiteTraces& s) { return s.site.pos.line; })
        .def_property_readonly(
            "message",
            [](const ErrorSiteTraces& s) {
                // The site's error event of its first trace: a message that names locations
                // and threads (a data race's) needs the whole event, not only the site's kind.
                for (const Event& e : s.first.events())
                    if (isErrorKind(e.kind) && e.thread == s.site.thread && e.aux == s.site.aux &&
                        e.pos == s.site.pos)
                        return errorMessage(e, s.first.info().get());
                Event e;
                e.kind = s.site.kind;
                e.aux = s.site.aux;
                return errorMessage(e, s.first.info().get());
            },
            "What the error says (\"assertion `x == 1' failed\", 'fault: use after free').")
        .def_readonly("traces", &ErrorSiteTraces::traces, "Error traces that reached the site.")
        .def_readonly("trace", &ErrorSiteTraces::first, "The first of them.");
}

}  // namespace porlab::bind
