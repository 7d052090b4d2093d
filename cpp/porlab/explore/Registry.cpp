// SPDX-License-Identifier: MIT
// The one table of explorers: the Python API, the CLI, the benchmark suites and the conformance
// tests all read it. Adding an explorer adds one entry here.
#include <algorithm>

#include "porlab/core/Errors.hpp"
#include "porlab/explore/Explorer.hpp"

namespace porlab {

const std::vector<ExplorerInfo>& explorers() {
    static const std::vector<ExplorerInfo> table = {
        {"naive", "interleavings",
         "depth-first search over every interleaving of enabled threads (the oracle)", false,
         exploreNaive},
        {"source", "mazurkiewicz",
         "Source-DPOR with sleep sets (Abdulla et al. POPL'14); awaits, locks and joins as "
         "blocking races; may explore redundant (sleep-set-blocked) executions",
         false, exploreSource, {"can_stop"}, true, false, /*ifaa=*/true},
        {"optimal", "mazurkiewicz",
         "Optimal-DPOR with wakeup trees and sleep sets (Abdulla et al. POPL'14/JACM'17); "
         "one complete trace per class (mazurkiewicz-ifaa with conflicts.ifaa)",
         true, exploreOptimal, {"can_stop"}, true, true, /*ifaa=*/true},
        {"optimal-await", "mazurkiewicz",
         "Optimal-DPOR-Await (Godot Algorithm 1): blocking races for awaits, locks and joins, "
         "IFAA when conflicts.ifaa is set (mazurkiewicz otherwise)",
         true, exploreOptimalAwait, {"can_stop"}, true, true, /*ifaa=*/true},
        {"graph", "mazurkiewicz",
         "graph-based exploration (GenMC/TruSt skeleton) of (reads-from, coherence) graphs under "
         "SC with TruSt's maximality condition: one graph per Mazurkiewicz class",
         true, exploreGraph},
        {"rf", "reads-from",
         "reads-from SMC on the graph engine: of the (reads-from, coherence) graphs of a "
         "reads-from class, only the one whose coherence is that of the class's canonical SC "
         "witness is reported (the others are explored and counted in graphs_not_reported)",
         true, exploreRf},
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
    ExploreResult r = info.run(program, opts);
    r.explorer = info.name;
    return r;
}

}  // namespace porlab
