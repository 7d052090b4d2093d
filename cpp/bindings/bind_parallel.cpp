// SPDX-License-Identifier: MIT
// Distributed exploration (python/porlab/distributed.py): tasks of the graph engine as bytes,
// and one call that explores one task and returns what it found and the tasks it split off.
#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "porlab/core/Errors.hpp"
#include "porlab/explore/graph/Parallel.hpp"
#include "porlab/explore/graph/TaskCodec.hpp"
#include "porlab/program/BuilderSpec.hpp"
#include "porlab/program/CodeProgramApi.hpp"

namespace py = pybind11;

namespace porlab::bind {

namespace {

// A builder program's spec as bytes (shipped to Dask workers, which compile it again): every
// field, in order, as text-free fixed-width little-endian words and length-prefixed strings.
class SpecWriter {
  public:
    void word(std::int64_t v) {
        for (int i = 0; i < 8; ++i) out_.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
    }
    void str(const std::string& s) {
        word(static_cast<std::int64_t>(s.size()));
        out_ += s;
    }
    std::string out_;
};

class SpecReader {
  public:
    explicit SpecReader(std::string in) : in_(std::move(in)) {}
    std::int64_t word() {
        if (pos_ + 8 > in_.size()) throw InputError("program spec: truncated");
        std::uint64_t v = 0;
        for (int i = 0; i < 8; ++i)
            v |= static_cast<std::uint64_t>(static_cast<std::uint8_t>(in_[pos_ + i])) << (8 * i);
        pos_ += 8;
        return static_cast<std::int64_t>(v);
    }
    std::size_t count() {
        const std::int64_t n = word();
        if (n < 0 || static_cast<std::uint64_t>(n) > in_.size() - pos_)
            throw InputError("program spec: bad count");
        return static_cast<std::size_t>(n);
    }
    std::string str() {
        const std::size_t n = count();
        std::string s = in_.substr(pos_, n);
        pos_ += n;
        return s;
    }
    [[nodiscard]] bool atEnd() const { return pos_ == in_.size(); }

  private:
    std::string in_;
    std::size_t pos_ = 0;
};

constexpr std::int64_t kSpecMagic = 0x31434550534c50;  // "PLSPEC1"

std::string specBytes(const ProgramSpec& s) {
    SpecWriter w;
    w.word(kSpecMagic);
    w.str(s.name);
    w.word(static_cast<std::int64_t>(s.locNames.size()));
    for (std::size_t i = 0; i < s.locNames.size(); ++i) {
        w.str(s.locNames[i]);
        w.word(s.locInit[i]);
        w.word(s.locIsMutex[i] ? 1 : 0);
    }
    w.word(static_cast<std::int64_t>(s.files.size()));
    for (const auto& f : s.files) w.str(f);
    w.word(static_cast<std::int64_t>(s.threads.size()));
    for (const ThreadSpec& t : s.threads) {
        w.str(t.name);
        w.word(t.autostart ? 1 : 0);
        w.word(static_cast<std::int64_t>(t.regNames.size()));
        for (const auto& r : t.regNames) w.str(r);
        w.word(static_cast<std::int64_t>(t.regInit.size()));
        for (const Value v : t.regInit) w.word(v);
        w.word(static_cast<std::int64_t>(t.code.size()));
        for (const Instr& in : t.code) {
            w.word(static_cast<std::int64_t>(in.op));
            w.word(in.sub);
            w.word(in.resultUsed ? 1 : 0);
            for (const std::int32_t x : {in.a, in.b, in.c, in.d, in.e, in.loc, in.len, in.idx})
                w.word(x);
            w.word(in.imm);
            w.word(in.pos.file);
            w.word(in.pos.line);
        }
    }
    return std::move(w.out_);
}

ProgramSpec specFromBytes(const std::string& bytes) {
    SpecReader r(bytes);
    if (r.word() != kSpecMagic) throw InputError("program spec: not a porlab program spec");
    ProgramSpec s;
    s.name = r.str();
    for (std::size_t n = r.count(), i = 0; i < n; ++i) {
        s.locNames.push_back(r.str());
        s.locInit.push_back(r.word());
        s.locIsMutex.push_back(r.word() != 0);
    }
    s.files.clear();
    for (std::size_t n = r.count(), i = 0; i < n; ++i) s.files.push_back(r.str());
    for (std::size_t n = r.count(), i = 0; i < n; ++i) {
        ThreadSpec t;
        t.name = r.str();
        t.autostart = r.word() != 0;
        for (std::size_t k = r.count(), j = 0; j < k; ++j) t.regNames.push_back(r.str());
        for (std::size_t k = r.count(), j = 0; j < k; ++j) t.regInit.push_back(r.word());
        for (std::size_t k = r.count(), j = 0; j < k; ++j) {
            Instr in;
            in.op = static_cast<Opcode>(r.word());
            in.sub = static_cast<std::uint8_t>(r.word());
            in.resultUsed = r.word() != 0;
            for (std::int32_t* x : {&in.a, &in.b, &in.c, &in.d, &in.e, &in.loc, &in.len, &in.idx})
                *x = static_cast<std::int32_t>(r.word());
            in.imm = r.word();
            in.pos.file = static_cast<std::uint32_t>(r.word());
            in.pos.line = static_cast<std::uint32_t>(r.word());
            t.code.push_back(in);
        }
        s.threads.push_back(std::move(t));
    }
    if (!r.atEnd()) throw InputError("program spec: trailing bytes");
    return s;
}

}  // namespace

void bindParallel(py::module_& m) {
    m.def(
        "spec_bytes", [](const ProgramSpec& s) { return py::bytes(specBytes(s)); }, py::arg("spec"),
        "A builder program's spec as bytes (spec_from_bytes reads them).");
    m.def(
        "spec_from_bytes", [](const py::bytes& b) { return specFromBytes(std::string(b)); },
        py::arg("data"), "The builder program spec spec_bytes wrote.");
    m.def(
        "set_portable_outcomes",
        [](const Program& program, bool on) { setPortableOutcomes(program, on); },
        py::arg("program"), py::arg("on"),
        "While on, a C program's outcomes name threads, heap objects and locations stably (by "
        "spawn path, allocation, offset): a Dask worker's outcomes, read back by local_outcome.");
    m.def(
        "local_outcome",
        [](const Program& program, const std::vector<Value>& portable) {
            const std::vector<Value> o = localOutcome(program, portable);
            py::tuple t(o.size());
            for (std::size_t i = 0; i < o.size(); ++i) t[i] = py::int_(o[i]);
            return t;
        },
        py::arg("program"), py::arg("portable"),
        "A portable outcome (set_portable_outcomes, another process) in this process's numbering "
        "of the program, as its own runs write outcomes.");
    m.attr("TASK_FORMAT_VERSION") = graph::kTaskFormatVersion;
    m.def(
        "root_task",
        [](std::uint64_t programId, const std::string& explorer) {
            return py::bytes(graph::encodeRootTask(programId, explorer));
        },
        py::arg("program_id"), py::arg("explorer"),
        "The task that is the whole exploration of a program (explored by run_task).");
    m.def(
        "task_header",
        [](const py::bytes& task) {
            const graph::TaskHeader h = graph::taskHeader(std::string(task));
            py::dict d;
            d["program_id"] = h.programId;
            d["explorer"] = h.explorer;
            d["root"] = h.root;
            return d;
        },
        py::arg("task"), "The header of a task: program_id, explorer, root.");
    py::class_<graph::TaskChannel>(
        m, "TaskChannel",
        "Hand-outs on demand of a running run_task (another thread calls want and drain).")
        .def(py::init<>())
        .def("want", &graph::TaskChannel::want, py::arg("n"), py::arg("sticky") = false,
             "Hand over the n shallowest pending subtrees of the running task, which goes on with "
             "the rest (0: none). sticky (tests): split every subtree the task starts at once.")
        .def(
            "drain",
            [](graph::TaskChannel& c) {
                py::list out;
                for (auto& [seq, cpu, task] : c.drain())
                    out.append(py::make_tuple(seq, cpu, py::bytes(task)));
                return out;
            },
            "The hand-outs since the last drain: (seq = index in run_task's tasks, the task "
            "thread's CPU seconds then, the task).");
    m.def(
        "run_task",
        [](const Program& program, const std::string& explorer, const py::object& task,
           std::uint64_t programId, double splitAfter, std::uint64_t maxTraces, double maxSeconds,
           std::uint64_t maxEvents, std::uint64_t maxMemory, bool stopOnError, bool collectOutcomes,
           std::map<std::string, std::string> params, bool checkRaces, bool checkLiveness,
           graph::TaskChannel* channel) {
            if (program.inputChoices())
                throw InputError("distributed runs do not support programs with a nondet domain");
            graph::TaskRun run;
            run.program = &program;
            if (py::isinstance<py::bytes>(task)) {
                run.input = std::string(task.cast<py::bytes>());
            } else {  // a batch
                for (const py::handle t : task) run.more.emplace_back(t.cast<py::bytes>());
                if (run.more.empty()) throw InputError("run_task: an empty batch");
                run.input = std::move(run.more.front());
                run.more.erase(run.more.begin());
            }
            run.programId = programId;
            run.explorer = explorer;
            run.splitAfterSeconds = splitAfter;
            run.channel = channel;
            ExploreOptions o;
            o.taskRun = &run;
            o.checkRaces = checkRaces;
            o.checkLiveness = checkLiveness;
            o.maxTraces = maxTraces;
            o.maxSeconds = maxSeconds;
            o.maxEvents = maxEvents;
            o.maxMemoryBytes = maxMemory;
            o.stopOnError = stopOnError;
            o.collectOutcomes = collectOutcomes;
            o.params = std::move(params);
            ExploreResult r =
                exploreInterruptibly(o, std::nullopt, 0.5, [&](const ExploreOptions& eo) {
                    ExploreResult res = porlab::explore(program, explorer, eo);
                    if (!run.input.empty() && res.stats.find("task_published") == res.stats.end())
                        throw InputError("explorer '" + explorer +
                                         "' has no task form (distributed runs: graph, rf-graph, "
                                         "lapor)");
                    return res;
                });
            r.stats["task_explored"] = static_cast<double>(run.explored);
            r.stats["task_first_error"] = static_cast<double>(run.firstErrorTask);
            r.stats["task_thread_cpu_s"] = run.threadCpuSeconds;
            py::list out;
            for (const auto& t : run.output) out.append(py::bytes(t));
            return py::make_tuple(std::move(r), out, run.failures);
        },
        py::arg("program"), py::arg("explorer"), py::arg("task"), py::arg("program_id"),
        py::arg("split_after") = 0.0, py::arg("max_traces") = 0, py::arg("max_seconds") = 0.0,
        py::arg("max_events") = 0, py::arg("max_memory") = 0, py::arg("stop_on_error") = false,
        py::arg("collect_outcomes") = true,
        py::arg("params") = std::map<std::string, std::string>{}, py::arg("check_races") = true,
        py::arg("check_liveness") = false, py::arg("channel") = nullptr,
        "Explore one task (root_task or a task another run_task split off) of a graph-engine "
        "explorer, or a list of them one after the other with one explorer (a batch: stats "
        "task_explored, task_first_error = index of the first task that met an error or -1). "
        "After split_after seconds (0: never; < 0: at once) every subtree not yet started is "
        "returned as a task instead of explored (the batch's tasks not started as they are). "
        "channel (a TaskChannel): subtrees handed over on demand while the task runs (also in "
        "the tasks returned, at their seq). "
        "Returns (result, tasks, failing-prefix hashes): the driver counts each failing prefix "
        "once over all tasks.");
}

}  // namespace porlab::bind
