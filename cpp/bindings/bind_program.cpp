// SPDX-License-Identifier: MIT
// Programs: the spec the Python builder fills in, the program it lowers to, and the
// execution interface explorers use (exposed so that explorers can be prototyped in Python).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "porlab/core/Errors.hpp"
#include "porlab/program/CodeProgramApi.hpp"
#include "porlab/program/SpecLowering.hpp"

namespace py = pybind11;
using namespace porlab;

namespace porlab::bind {

namespace {

template <std::size_t N>
py::dict nameTable(const std::string_view (&names)[N]) {
    py::dict d;
    for (std::size_t i = 0; i < N; ++i) d[py::str(std::string(names[i]))] = i;
    return d;
}

ThreadSpec& threadOf(ProgramSpec& s, int t) {
    if (t < 0 || t >= static_cast<int>(s.threads.size())) throw InputError("unknown thread id");
    return s.threads[static_cast<std::size_t>(t)];
}

Opcode opcodeOf(const std::string& op) {
    for (std::size_t i = 0; i < std::size(kOpcodeNames); ++i)
        if (kOpcodeNames[i] == op) return static_cast<Opcode>(i);
    throw InputError("unknown opcode '" + op + "'");
}

}  // namespace

void bindProgram(py::module_& m) {
    m.attr("OPCODES") = nameTable(kOpcodeNames);
    m.attr("BINOPS") = nameTable(kBinOpNames);
    m.attr("UNOPS") = nameTable(kUnOpNames);
    m.attr("RMW_OPS") = nameTable(kRmwOpNames);
    m.attr("EVENT_KINDS") = nameTable(kEventKindNames);
    {
        py::dict conds;
#define PORLAB_X(e, v, s) conds[py::str(s)] = v;
        PORLAB_AWAIT_CONDS(PORLAB_X)
#undef PORLAB_X
        m.attr("AWAIT_CONDS") = conds;
    }

    py::class_<ProgramSpec>(m, "ProgramSpec",
                            "A builder program under construction (filled in by porlab.Program; "
                            "validated and lowered by lower_spec).")
        .def(py::init([](const std::string& n) {
                 ProgramSpec s;
                 s.name = n;
                 return s;
             }),
             py::arg("name"))
        .def_readonly("name", &ProgramSpec::name)
        .def(
            "add_location",
            [](ProgramSpec& s, const std::string& n, Value init, bool mutex) {
                s.locNames.push_back(n);
                s.locInit.push_back(init);
                s.locIsMutex.push_back(mutex);
                return static_cast<int>(s.locNames.size()) - 1;
            },
            py::arg("name"), py::arg("init") = 0, py::arg("mutex") = false,
            "Add a shared location (or mutex); returns its id.")
        .def(
            "add_thread",
            [](ProgramSpec& s, const std::string& n, bool autostart) {
                ThreadSpec t;
                t.name = n;
                t.autostart = autostart;
                s.threads.push_back(std::move(t));
                return static_cast<int>(s.threads.size()) - 1;
            },
            py::arg("name"), py::arg("autostart") = true, "Add a thread; returns its id.")
        .def(
            "add_register",
            [](ProgramSpec& s, int t, const std::string& n, Value init) {
                auto& th = threadOf(s, t);
                th.regNames.push_back(n);
                th.regInit.push_back(init);
                return static_cast<int>(th.regInit.size()) - 1;
            },
            py::arg("thread"), py::arg("name"), py::arg("init") = 0,
            "Add a register to a thread; returns its index.")
        .def(
            "add_file",
            [](ProgramSpec& s, const std::string& f) {
                for (std::size_t i = 0; i < s.files.size(); ++i)
                    if (s.files[i] == f) return static_cast<int>(i);
                s.files.push_back(f);
                return static_cast<int>(s.files.size()) - 1;
            },
            py::arg("path"), "Intern a source file name; returns its index.")
        .def(
            "emit",
            [](ProgramSpec& s, int t, const std::string& op, int sub, int a, int b, int c, int d,
               int e, int loc, int len, int idx, Value imm, bool resultUsed, int file, int line) {
                auto& th = threadOf(s, t);
                Instr in;
                in.op = opcodeOf(op);
                in.sub = static_cast<std::uint8_t>(sub);
                in.a = a;
                in.b = b;
                in.c = c;
                in.d = d;
                in.e = e;
                in.loc = loc;
                in.len = len;
                in.idx = idx;
                in.imm = imm;
                in.resultUsed = resultUsed;
                in.pos = {static_cast<std::uint32_t>(file), static_cast<std::uint32_t>(line)};
                th.code.push_back(in);
                return static_cast<int>(th.code.size()) - 1;
            },
            py::arg("thread"), py::arg("op"), py::arg("sub") = 0, py::arg("a") = -1,
            py::arg("b") = -1, py::arg("c") = -1, py::arg("d") = -1, py::arg("e") = -1,
            py::arg("loc") = -1, py::arg("len") = 1, py::arg("idx") = -1, py::arg("imm") = 0,
            py::arg("result_used") = true, py::arg("file") = 0, py::arg("line") = 0,
            "Append an instruction to a thread's code; returns its index.")
        .def(
            "patch_target",
            [](ProgramSpec& s, int t, int pc, int target) {
                auto& th = threadOf(s, t);
                if (pc < 0 || pc >= static_cast<int>(th.code.size()))
                    throw InputError("instruction index out of range");
                th.code[static_cast<std::size_t>(pc)].a = target;
            },
            py::arg("thread"), py::arg("pc"), py::arg("target"),
            "Set the jump target of instruction pc.")
        .def(
            "set_result_used",
            [](ProgramSpec& s, int t, int pc, bool used) {
                auto& th = threadOf(s, t);
                if (pc < 0 || pc >= static_cast<int>(th.code.size()))
                    throw InputError("instruction index out of range");
                th.code[static_cast<std::size_t>(pc)].resultUsed = used;
            },
            py::arg("thread"), py::arg("pc"), py::arg("used"))
        .def(
            "code_size",
            [](ProgramSpec& s, int t) { return static_cast<int>(threadOf(s, t).code.size()); },
            py::arg("thread"));

    py::class_<Program, std::shared_ptr<Program>>(m, "ProgramBase",
                                                  "A program any explorer accepts.")
        .def_property_readonly("name", [](const Program& p) { return p.info()->name; })
        .def_property_readonly("thread_names",
                               [](const Program& p) { return p.info()->threadNames; })
        .def_property_readonly("location_names",
                               [](const Program& p) { return p.info()->locationNames; })
        .def_property_readonly("initial_values",
                               [](const Program& p) { return p.info()->initialValues; })
        .def_property_readonly("is_mutex", [](const Program& p) { return p.info()->isMutex; })
        .def_property_readonly(
            "sections_end", [](const Program& p) { return p.info()->sectionsEnd; },
            "Does every critical section end (no thread can block, stop or end while holding a "
            "mutex)? A static, conservative analysis: False when unsure. lapor then tries no "
            "lock blocked for good (option sections_end).")
        .def_property_readonly(
            "files", [](const Program& p) { return p.info()->files; },
            "Source file names by SourcePos file index (files[0] = '').")
        .def("new_execution", &Program::newExecution, py::keep_alive<0, 1>(),
             "A fresh execution of the program (the interface explorers drive).");

    m.def("lower_spec", &makeSpecProgram, py::arg("spec"),
          "Validate a spec and lower it to the decoded form porlab's interpreter runs (C programs "
          "run in it too); raises InputError when invalid.");
    m.def(
        "disassemble_code", [](const Program& p) { return disassembleCode(p); }, py::arg("program"),
        "The listing of a program's decoded form ('' for other programs).");

    py::class_<Snapshot>(m, "Snapshot", "A saved execution state.");

    py::class_<Execution>(m, "Execution",
                          "One run of a program: reset, look at each thread's pending operation, "
                          "step a thread (optionally choosing the value a read returns).")
        .def(
            "reset",
            [](Execution& e) {
                auto s = e.reset();
                return std::vector<Event>(s.begin(), s.end());
            },
            "Back to the initial state; returns marker events of threads that end at once.")
        .def_property_readonly("max_threads", &Execution::maxThreads)
        .def(
            "status",
            [](const Execution& e, int t) {
                if (t < 0 || t >= e.maxThreads()) throw py::index_error("thread id");
                static constexpr std::string_view names[] = {
#define PORLAB_X(en, s) s,
                    PORLAB_THREAD_STATUSES(PORLAB_X)
#undef PORLAB_X
                };
                return std::string(names[static_cast<int>(e.status(t))]);
            },
            py::arg("thread"), "not-started, ready, finished, blocked (for good) or failed.")
        .def(
            "pending",
            [](const Execution& e, int t) -> py::object {
                if (t < 0 || t >= e.maxThreads()) throw py::index_error("thread id");
                if (e.status(t) != ThreadStatus::Ready) return py::none();
                return py::cast(e.pending(t));
            },
            py::arg("thread"), "The event the thread would perform now (with .enabled), or None.")
        .def(
            "enabled",
            [](const Execution& e, int t) {
                if (t < 0 || t >= e.maxThreads()) throw py::index_error("thread id");
                return e.enabled(t);
            },
            py::arg("thread"))
        .def("enabled_threads",
             [](const Execution& e) {
                 std::vector<int> r;
                 for (int t = 0; t < e.maxThreads(); ++t)
                     if (e.enabled(t)) r.push_back(t);
                 return r;
             })
        .def(
            "step",
            [](Execution& e, int t, std::optional<Value> value) {
                if (t < 0 || t >= e.maxThreads()) throw py::index_error("thread id");
                if (!e.enabled(t))
                    throw InputError("thread " + std::to_string(t) + " is not enabled");
                auto s = e.step(t, value);
                return std::vector<Event>(s.begin(), s.end());
            },
            py::arg("thread"), py::arg("value") = py::none(),
            "Perform the thread's pending operation; `value` overrides what a read returns. "
            "Returns the events emitted (the operation, then markers).")
        .def_property_readonly("failed", &Execution::failed)
        .def_property_readonly("memory",
                               [](const Execution& e) {
                                   auto s = e.memory();
                                   return std::vector<Value>(s.begin(), s.end());
                               })
        .def("outcome", &Execution::outcome, "The final state as a flat list of integers.")
        .def("save",
             [](const Execution& e) {
                 Snapshot s;
                 e.save(s);
                 return s;
             })
        .def("restore", &Execution::restore, py::arg("snapshot"));
}

}  // namespace porlab::bind
