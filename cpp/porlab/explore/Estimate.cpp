// SPDX-License-Identifier: MIT
// Knuth's estimator of the size of a search tree (Knuth, "Estimating the efficiency of backtrack
// programs", 1975), applied to the naive explorer's tree: a random walk from the root multiplies
// the branching factors it meets (the enabled threads of each state); the product's mean over
// walks is an unbiased estimate of the number of leaves, i.e. of maximal interleavings. It is
// what a progress display can say about a naive run's total (the DPOR explorers' trees are
// known only as they are explored).
#include <random>

#include "porlab/explore/Explorer.hpp"

namespace porlab {

double estimateInterleavings(const Program& program, int walks, std::uint64_t seed) {
    if (walks <= 0) return 0;
    std::mt19937_64 rng(seed);
    auto exec = program.newExecution();
    std::vector<ThreadId> enabled;
    double total = 0;
    for (int w = 0; w < walks; ++w) {
        (void)exec->reset();
        double product = 1;
        while (!exec->failed()) {
            enabled.clear();
            for (ThreadId t = 0; t < exec->maxThreads(); ++t)
                if (exec->enabled(t)) enabled.push_back(t);
            if (enabled.empty()) break;
            product *= static_cast<double>(enabled.size());
            std::uniform_int_distribution<std::size_t> pick(0, enabled.size() - 1);
            (void)exec->step(enabled[pick(rng)]);
        }
        total += product;
    }
    return total / walks;
}

}  // namespace porlab
