// SPDX-License-Identifier: MIT
// The one table of explorers: the Python API, the CLI, the benchmark suites and the conformance
// tests all read it. Adding an explorer adds one entry here.
#include "porlab/core/Errors.hpp"
#include "porlab/explore/Explorer.hpp"

namespace porlab {

const std::vector<ExplorerInfo>& explorers() {
    static const std::vector<ExplorerInfo> table = {
        {"naive", "interleavings",
         "depth-first search over every interleaving of enabled threads (the oracle)", false,
         exploreNaive},
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
    ExploreResult r = info.run(program, opts);
    r.explorer = info.name;
    return r;
}

}  // namespace porlab
