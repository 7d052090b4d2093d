// SPDX-License-Identifier: MIT
// The one table of explorers: the Python API, the CLI, the benchmark suites and the conformance
// tests all read it. Adding an explorer adds one entry here.
#include <pthread.h>

#include <algorithm>
#include <exception>

#include "porlab/core/Errors.hpp"
#include "porlab/explore/Explorer.hpp"

namespace porlab {

namespace {

// Explorers recurse once per event; a C execution of 100,000 events needs far more than a
// default 8 MiB stack. The explorer runs on a thread whose stack is reserved (not committed:
// pages are touched only as deep as the recursion goes).
constexpr std::size_t kExplorerStackBytes = std::size_t{512} << 20;

struct ExploreJob {
    const ExplorerInfo* info;
    const Program* program;
    const ExploreOptions* opts;
    ExploreResult result;
    std::exception_ptr error;
};

void* runExploreJob(void* arg) {
    auto* job = static_cast<ExploreJob*>(arg);
    try {
        job->result = job->info->run(*job->program, *job->opts);
    } catch (...) {
        job->error = std::current_exception();
    }
    return nullptr;
}

// Runs the explorer on a big-stack thread and waits for it; exceptions reach the caller.
ExploreResult runOnBigStack(const ExplorerInfo& info, const Program& program,
                            const ExploreOptions& opts) {
    ExploreJob job{&info, &program, &opts, {}, nullptr};
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0) return info.run(program, opts);
    pthread_t thread;
    const bool started = pthread_attr_setstacksize(&attr, kExplorerStackBytes) == 0 &&
                         pthread_create(&thread, &attr, &runExploreJob, &job) == 0;
    pthread_attr_destroy(&attr);
    if (!started) return info.run(program, opts);  // no big stack to be had: run here
    pthread_join(thread, nullptr);
    if (job.error) std::rethrow_exception(job.error);
    return std::move(job.result);
}

std::vector<ExploreDriver>& exploreDrivers() {
    static std::vector<ExploreDriver> drivers;
    return drivers;
}

}  // namespace

bool registerExploreDriver(ExploreDriver driver) {
    exploreDrivers().push_back(std::move(driver));
    return true;
}

const std::vector<ExplorerInfo>& explorers() {
    static const std::vector<ExplorerInfo> table = {
        {"naive", "interleavings",
         "depth-first search over every interleaving of enabled threads (the oracle)", false,
         exploreNaive, {"zne"}},
        {"source", "mazurkiewicz",
         "Source-DPOR with sleep sets (Abdulla et al. POPL'14); awaits, locks and joins as "
         "blocking races; may explore redundant (sleep-set-blocked) executions",
         false, exploreSource, {"can_stop", "zne"}, true, false, /*ifaa=*/true},
        {"optimal", "mazurkiewicz",
         "Optimal-DPOR with wakeup trees and sleep sets (Abdulla et al. POPL'14/JACM'17); "
         "one complete trace per class (mazurkiewicz-ifaa with conflicts.ifaa)",
         true, exploreOptimal, {"can_stop", "zne"}, true, true, /*ifaa=*/true},
        {"optimal-await", "mazurkiewicz",
         "Optimal-DPOR-Await (Godot Algorithm 1): blocking races for awaits, locks and joins, "
         "IFAA when conflicts.ifaa is set (mazurkiewicz otherwise)",
         true, exploreOptimalAwait, {"can_stop", "zne"}, true, true, /*ifaa=*/true},
        {"graph", "mazurkiewicz",
         "graph-based exploration (GenMC/TruSt skeleton) of (reads-from, coherence) graphs under "
         "SC with TruSt's maximality condition: one graph per Mazurkiewicz class",
         true, exploreGraph, {"zne"}},
        {"rf", "reads-from",
         "reads-from SMC: the RVF-SMC recursion (VerifySC, causal maps, backtrack signals) with "
         "one write per good-writes set, so each recursion node fixes the reads-from function of "
         "its events; one complete trace per reads-from class and one blocked trace per blocked "
         "class",
         true, exploreRfSmc, {"backtrack_signals", "closure", "greedy", "guidance"}, true, true},
        {"rf-graph", "reads-from",
         "reads-from on the graph engine: of the (reads-from, coherence) graphs of a "
         "reads-from class, only the one whose coherence is that of the class's canonical SC "
         "witness is reported (the others are explored and counted in graphs_not_reported)",
         true, exploreRfGraph, {"zne"}},
        {"lapor", "lock-aware",
         "LAPOR (Kokologiannakis et al. OOPSLA'19) on the graph engine: locks are plain events "
         "that never block, mutual exclusion is part of consistency, critical sections are "
         "extended first; one trace per lock-aware class (coherence=mo: per lock-aware-mo class)",
         true, exploreLapor, {"coherence", "zne"}},
        {"rvf", "rvf",
         "RVF-SMC (Agarwal et al. CAV'21): VerifySC with closure, greedy steps and guidance, "
         "causal maps and backtrack signals; at most one complete trace per RVF class (may merge "
         "classes that differ only in the causal order of reads)",
         false, exploreRvf, {"backtrack_signals", "closure", "greedy", "guidance"},
         /*coversClasses=*/false, /*nonRedundant=*/true},
    };
    return table;
}

const ExplorerInfo& explorerInfo(const std::string& name) {
    for (const auto& e : explorers())
        if (e.name == name) return e;
    std::string known;
    for (const auto& e : explorers()) known += (known.empty() ? "" : ", ") + e.name;
    throw InputError("unknown explorer '" + name + "' (known: " + known + ")");
}

ExploreResult explore(const Program& program, const std::string& explorer,
                      const ExploreOptions& opts) {
    const auto& info = explorerInfo(explorer);
    for (const auto& [key, value] : opts.params) {
        if (std::find(info.options.begin(), info.options.end(), key) != info.options.end())
            continue;
        std::string known;
        for (const auto& o : info.options) known += (known.empty() ? "" : ", ") + o;
        throw InputError("explorer '" + info.name + "' has no option '" + key + "'" +
                         (known.empty() ? " (it takes none)" : " (options: " + known + ")"));
    }
    const ExploreRun run = [&](const ExploreOptions& o) { return runOnBigStack(info, program, o); };
    std::optional<ExploreResult> driven;
    for (const auto& d : exploreDrivers())
        if ((driven = d(program, opts, run))) break;
    ExploreResult r = driven ? std::move(*driven) : run(opts);
    r.explorer = info.name;
    return r;
}

}  // namespace porlab
