// SPDX-License-Identifier: MIT
// The one table of explorers: the Python API, the CLI, the benchmark suites and the conformance
// tests all read it. Adding an explorer adds one entry here.
#include <pthread.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <stdexcept>

#include "porlab/core/Errors.hpp"
#include "porlab/explore/Explorer.hpp"
#include "porlab/explore/ThreadCentric.hpp"

namespace porlab {

namespace {

// Explorers that recurse once per event (ExplorerInfo::bigStack): a C execution of 100,000
// events needs far more than a default 8 MiB stack. Such an explorer runs on a thread whose
// stack is reserved (not committed: pages are touched only as deep as the recursion goes).
constexpr std::size_t kExplorerStackBytes = std::size_t{512} << 20;

struct ExploreJob {
    const ExplorerInfo* info;
    const Program* program;
    const ExploreOptions* opts;
    ExploreResult result;
    std::exception_ptr error;
    std::mutex mu;
    std::condition_variable cv;
    bool done = false;
};

void* runExploreJob(void* arg) {
    auto* job = static_cast<ExploreJob*>(arg);
    try {
        job->result = job->info->run(*job->program, *job->opts);
    } catch (...) {
        job->error = std::current_exception();
    }
    {
        std::lock_guard lk(job->mu);
        job->done = true;
    }
    job->cv.notify_all();
    return nullptr;
}

// Runs the explorer on a thread of its own (a big-stack one when it recurses) and waits for it,
// calling opts.poll meanwhile (on this thread: e.g. Python's signal handlers run only on the
// main thread); exceptions reach the caller. An explorer that does not recurse and has no
// poller runs here.
ExploreResult runOnBigStack(const ExplorerInfo& info, const Program& program,
                            const ExploreOptions& opts) {
    if (!info.bigStack && !opts.poll) return info.run(program, opts);
    ExploreJob job{&info, &program, &opts, {}, nullptr, {}, {}, false};
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0) return info.run(program, opts);
    pthread_t thread;
    const bool started =
        (!info.bigStack || pthread_attr_setstacksize(&attr, kExplorerStackBytes) == 0) &&
        pthread_create(&thread, &attr, &runExploreJob, &job) == 0;
    pthread_attr_destroy(&attr);
    if (!started) return info.run(program, opts);  // no big stack to be had: run here
    if (opts.poll) {
        const auto period = std::chrono::duration<double>(std::max(0.005, opts.pollSeconds));
        std::unique_lock lk(job.mu);
        while (!job.done) {
            if (job.cv.wait_for(lk, period, [&] { return job.done; })) break;
            lk.unlock();
            bool stop = false;
            try {
                stop = opts.poll();
            } catch (...) {
                stop = true;  // the poller failed (e.g. a Python callback raised): stop cleanly
            }
            if (stop && opts.control)
                opts.control->interrupt.store(true, std::memory_order_relaxed);
            lk.lock();
        }
    }
    pthread_join(thread, nullptr);
    if (job.error) std::rethrow_exception(job.error);
    return std::move(job.result);
}

const ExplorerOption kCanStop = ExplorerOption::boolean(
    "can_stop", true,
    "Godot's can-stop optimisation: stop scanning for enablers of a blocked await once one "
    "conflicts with all of them (off: scan all; the same traces, for ablations)");
const ExplorerOption kThread = ExplorerOption::integer(
    "thread", 0, 0, 1 << 20,
    "the preselected thread thr of the equivalence (RVF-SMC §3): the order of conflicting pairs "
    "is kept among the other threads");

const ExplorerOption kZne = ExplorerOption::choice(
    "zne", "strict", {"strict", "paper", "off"},
    "SAVER's zero-net-effect blocking (programs loaded with --loops saver): strict (sound: a "
    "marker goes when another thread reads the increment), paper (the published rule, which can "
    "lose states), off");
const ExplorerOption kZneAwaits = ExplorerOption::choice(
    "zne", "on", {"on", "off"},
    "zero-net-effect awaits (spin loops reduced by --loops plp-saver or saver): a decrement that "
    "cancels an unobserved increment waits for an observer, and a thread still waiting at the "
    "end is blocked (cause zne); off: explore the loop's iterations");
const ExplorerOption kSplit = ExplorerOption::choice(
    "split", "idle", {"idle", "eager"},
    "jobs > 1: when a worker hands work to another: idle (when one waits for work), eager "
    "(also whenever it can, up to 2000 times: tests split small programs with it). The graph "
    "engines hand over every pending subtree of the donor's task, rf/rvf one subtree");
const std::vector<ExplorerOption> kRvfOptions = {
    ExplorerOption::boolean("backtrack_signals", true,
                            "RVF-SMC's backtrack signals (Algorithm 1, lines 2-5)"),
    ExplorerOption::boolean("closure", true, "VerifySC's closure (saturation) before the search"),
    ExplorerOption::boolean("greedy", true, "VerifySC's greedy steps"),
    ExplorerOption::boolean("guidance", true, "VerifySC guided by the parent's witness"),
    ExplorerOption::choice("engine", "saturate", {"saturate", "classic"},
                           "consistency checks: saturate (the saturated reads-from order decides "
                           "most instances without VerifySC's search), classic (VerifySC's "
                           "search every time, for ablation)"),
    kSplit,
};

std::deque<ExplorerInfo> builtinExplorers();

std::deque<ExplorerInfo>& registry() {
    static std::deque<ExplorerInfo> table = builtinExplorers();
    return table;
}

std::deque<ExplorerInfo> builtinExplorers() {
    return {
        {"naive",
         "interleavings",
         "depth-first search over every interleaving of enabled threads (the oracle)",
         false,
         exploreNaive,
         {kZneAwaits},
         true,
         false,
         false,
         /*bigStack=*/false},
        {"source",
         "mazurkiewicz",
         "Source-DPOR with sleep sets (Abdulla et al. POPL'14); awaits, locks and joins as "
         "blocking races; may explore redundant (sleep-set-blocked) executions",
         false,
         exploreSource,
         {kCanStop, kZneAwaits},
         true,
         false,
         /*ifaa=*/true,
         /*bigStack=*/false},
        {"optimal",
         "mazurkiewicz",
         "Optimal-DPOR with wakeup trees and sleep sets (Abdulla et al. POPL'14/JACM'17); "
         "one complete trace per class (mazurkiewicz-ifaa with conflicts.ifaa)",
         true,
         exploreOptimal,
         {kCanStop, kZneAwaits},
         true,
         true,
         /*ifaa=*/true,
         /*bigStack=*/false},
        {"optimal-await",
         "mazurkiewicz",
         "Optimal-DPOR-Await (Godot Algorithm 1): blocking races for awaits, locks and joins, "
         "IFAA when conflicts.ifaa is set (mazurkiewicz otherwise)",
         true,
         exploreOptimalAwait,
         {kCanStop, kZneAwaits},
         true,
         true,
         /*ifaa=*/true,
         /*bigStack=*/false},
        {"graph",
         "mazurkiewicz",
         "graph-based exploration (GenMC/TruSt skeleton) of (reads-from, coherence) graphs under "
         "SC with TruSt's maximality condition: one graph per Mazurkiewicz class",
         true,
         exploreGraph,
         {kZne, kSplit},
         /*coversClasses=*/true,
         /*nonRedundant=*/false,
         /*ifaa=*/false,
         /*bigStack=*/false,
         /*parallel=*/true},
        {"rf", "reads-from",
         "reads-from SMC: the RVF-SMC recursion (VerifySC, causal maps, backtrack signals) with "
         "one write per good-writes set, so each recursion node fixes the reads-from function of "
         "its events; one complete trace per reads-from class and one blocked trace per blocked "
         "class",
         true, exploreRfSmc, kRvfOptions, true, true, /*ifaa=*/false,
         /*bigStack=*/false, /*parallel=*/true},  // (its recursion is a work list: RvfSmc::explore)
        {"rf-graph",
         "reads-from",
         "reads-from on the graph engine: of the (reads-from, coherence) graphs of a "
         "reads-from class, only the one whose coherence is that of the class's canonical SC "
         "witness is reported (the others are explored and counted in graphs_not_reported)",
         true,
         exploreRfGraph,
         {kZne, kSplit},
         /*coversClasses=*/true,
         /*nonRedundant=*/false,
         /*ifaa=*/false,
         /*bigStack=*/false,
         /*parallel=*/true},
        {"lapor",
         "lock-aware",
         "LAPOR (Kokologiannakis et al. OOPSLA'19) on the graph engine: locks are plain events "
         "that never block, mutual exclusion is part of consistency, critical sections are "
         "extended first; one trace per lock-aware class (coherence=mo: per lock-aware-mo class)",
         true,
         exploreLapor,
         {ExplorerOption::choice(
              "coherence", "wb", {"wb", "mo"},
              "wb: writes to one location ordered only as reads-from and locks force them "
              "(classes of lock-aware); mo: a total coherence order per location (lock-aware-mo)"),
          ExplorerOption::choice(
              "wb_graphs", "rf", {"rf", "co-filter"},
              "coherence=wb: rf explores graphs of reads-from only, one per lock-aware class "
              "(an exact SC search per source a read may take); co-filter enumerates coherence "
              "orders and reports one graph per class (nww-lock-rr(N): N! graphs for N)"),
          ExplorerOption::choice(
              "blocked_locks", "eager", {"eager", "sources"},
              "a lock that stays blocked for good: eager tries it at every lock (dead ends "
              "dropped at the end); sources only with a critical section that never ends, open "
              "or revisiting the lock later (both: none where every section ends, sections_end)"),
          ExplorerOption::boolean(
              "sections_end", true,
              "rely on the static analysis that every critical section ends (no thread can "
              "block, stop or end holding a mutex: Program.sections_end); then no lock is tried "
              "blocked for good; false: every lock may stay blocked (ablation)"),
          ExplorerOption::choice(
              "inconsistent", "drop", {"drop", "explore"},
              "a graph made inconsistent by an addition or a revisit: drop it (as the paper; "
              "with locks this loses classes, and at times reachable final states, where a "
              "revisit's parent is inconsistent: 88 of 16,000 runs of random condition-variable "
              "shapes), or explore it on, never reported, for the revisits that make it "
              "consistent again (with wb_graphs=co-filter or coherence=mo exact on those "
              "shapes; fib_bench(5) about 5x the time; only where every critical section ends)"),
          ExplorerOption::boolean(
              "lock_order", true,
              "infer LAPOR's lb (the order mutual exclusion forces between critical sections) "
              "before the consistency search of wb_graphs=co-filter and coherence=mo; false: "
              "the search alone (ablation)"),
          kZne, kSplit},
         /*coversClasses=*/true,
         /*nonRedundant=*/false,
         /*ifaa=*/false,
         /*bigStack=*/false,
         /*parallel=*/true},
        {"rvf", "rvf",
         "RVF-SMC (Agarwal et al. CAV'21): VerifySC with closure, greedy steps and guidance, "
         "causal maps and backtrack signals; at most one complete trace per RVF class (may merge "
         "classes that differ only in the causal order of reads)",
         false, exploreRvf, kRvfOptions,
         /*coversClasses=*/false, /*nonRedundant=*/true, /*ifaa=*/false, /*bigStack=*/false,
         /*parallel=*/true},
        {"value-centric",
         "value-centric",
         "one trace explored per value-centric class (RVF-SMC §3, preselected thread `thread`, "
         "default 0); not VC-DPOR (Chatterjee et al. OOPSLA'19), which porlab lacks, but porlab's "
         "own design: rf gives one trace per reads-from class, a decision tree orients the "
         "conflicting pairs outside the preselected thread (a linearisation search checks each "
         "choice), and a leaf (a data-centric class) is executed only when its value-centric key, "
         "computed from its events, is new (the walk is symbolic over data-centric classes); "
         "error traces (a failure, a race) are one per reads-from class, as rf reports them; "
         "programs rf refuses (a destroyed mutex, a write racing with a free) are explored by "
         "optimal and the first trace per class reported (stat fallback_optimal)",
         true,
         exploreValueCentric,
         {kThread},
         /*coversClasses=*/true,
         /*nonRedundant=*/false,
         /*ifaa=*/false,
         /*bigStack=*/false},  // (its decision tree and linearisation search are work lists)
        {"data-centric",
         "data-centric",
         "one trace explored per data-centric class (RVF-SMC §3, preselected thread `thread`, "
         "default 0); not DC-DPOR (Chalupa et al. POPL'18), which porlab lacks, but porlab's own "
         "design: rf gives one trace per reads-from class, a decision tree orients the "
         "conflicting pairs outside the preselected thread (a linearisation search checks each "
         "choice), and the witness of every leaf (one data-centric class) is executed; error "
         "traces (a failure, a race) are one per reads-from class, as rf reports them; programs "
         "rf refuses (a destroyed mutex, a write racing with a free) are explored by optimal "
         "and the first trace per class reported (stat fallback_optimal)",
         true,
         exploreDataCentric,
         {kThread},
         /*coversClasses=*/true,
         /*nonRedundant=*/false,
         /*ifaa=*/false,
         /*bigStack=*/false},  // (its decision tree and linearisation search are work lists)
    };
}

}  // namespace

const std::deque<ExplorerInfo>& explorers() { return registry(); }

void registerExplorer(ExplorerInfo info) {
    if (info.name.empty()) throw InputError("an explorer needs a name");
    if (!info.run) throw InputError("explorer '" + info.name + "': no function to run");
    if (info.equivalence.empty())
        throw InputError("explorer '" + info.name + "': no equivalence declared");
    for (const auto& o : info.options) {
        if (o.name.empty()) throw InputError("explorer '" + info.name + "': an unnamed option");
        if (!o.defaultValue.empty() || o.type() == OptionType::String)
            (void)o.parse(o.defaultValue, "explorer '" + info.name + "' (its default)");
    }
    info.plugin = true;
    auto& table = registry();
    for (auto& e : table) {
        if (e.name != info.name) continue;
        if (!e.plugin)
            throw InputError("explorer '" + info.name + "' is built in; choose another name");
        e = std::move(info);
        return;
    }
    table.push_back(std::move(info));
}

OptionValue resolveOption(const ExploreOptions& opts, std::string_view name,
                          std::string_view explorer) {
    const auto& info = explorerInfo(std::string(explorer));
    for (const auto& o : info.options) {
        if (o.name != name) continue;
        auto it = opts.params.find(o.name);
        return it != opts.params.end() ? o.parse(it->second, "explorer '" + info.name + "'")
                                       : o.defaultParsed();
    }
    throw std::logic_error("explorer '" + info.name + "' reads option '" + std::string(name) +
                           "', which its registration does not declare");
}

void refuseMutexDestroy(const Program& program, const std::string& explorer) {
    const auto& info = program.info();
    if (!info || !info->mutexDestroy.line) return;
    const auto& pos = info->mutexDestroy;
    const std::string file = pos.file < info->files.size() ? info->files[pos.file] : "";
    throw UnsupportedError(
        explorer + ": program '" + info->name + "' destroys a mutex (at " + file + ":" +
        std::to_string(pos.line) + "): " + explorer +
        " cannot check the uses of a destroyed "
        "mutex (its locks and a destroy are not ordered as executed); use optimal, "
        "optimal-await, source, graph, rf-graph or naive");
}

const ExplorerInfo& explorerInfo(const std::string& name) {
    for (const auto& e : explorers())
        if (e.name == name) return e;
    std::string known;
    for (const auto& e : explorers()) known += (known.empty() ? "" : ", ") + e.name;
    throw InputError("unknown explorer '" + name + "' (known: " + known + ")");
}

ExploreResult explore(const Program& program, const std::string& explorer,
                      const ExploreOptions& optsIn) {
    const auto& info = explorerInfo(explorer);
    // Options are checked and parsed here, once, for every explorer: a misspelt option or a
    // value the explorer would misread (e.g. "False" for a bool) must not silently change what
    // is measured.
    ExploreOptions opts = optsIn;
    opts.values = parseOptions(info.options, optsIn.params, "explorer '" + info.name + "'");
    opts.params.clear();
    for (const auto& [key, value] : opts.values.all())
        opts.params[key] = ExplorerOption::format(value);
    if (opts.jobs == 0) throw InputError("jobs must be at least 1");
    if (opts.jobs > 1 && !info.parallel) {
        std::string names;
        for (const auto& e : explorers())
            if (e.parallel) names += (names.empty() ? "" : ", ") + e.name;
        throw InputError("explorer '" + info.name + "': jobs > 1 is supported by " + names +
                         " (their subtrees are independent tasks; see docs/parallel.md)");
    }
    // A poller needs somewhere to put its interrupt: a control block of our own if the caller
    // gave none.
    ExploreControl ownControl;
    ExploreOptions withControl;
    const ExploreOptions* o = &opts;
    if (opts.poll && !opts.control) {
        withControl = opts;
        withControl.control = &ownControl;
        o = &withControl;
    }
    const ExploreRun run = [&](const ExploreOptions& ro) {
        return runOnBigStack(info, program, ro);
    };
    std::optional<ExploreResult> driven = exploreInputs(program, *o, run);
    ExploreResult r = driven ? std::move(*driven) : run(*o);
    r.explorer = info.name;
    return r;
}

}  // namespace porlab
