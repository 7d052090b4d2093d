// SPDX-License-Identifier: MIT
// Nondeterministic inputs (Program::inputChoices, e.g. C with --nondet-domain): the explorer once
// per assignment of values to choice points.
//
// A choice point is (thread, n-th __VERIFIER_nondet_* call of that thread); points are found
// lazily, numbered in discovery order. Assignments are enumerated as an odometer whose digits are
// the points (the first found is the least significant), each over LO..HI; a point found during a
// run becomes a new most significant digit, and every assignment enumerated so far had LO there,
// so no assignment is run twice. An execution is reported only under the assignment that agrees
// with it on the points it used and is LO on the others (acceptTrace), so each execution is
// counted exactly once over all runs. Cost: one full exploration per assignment, i.e. the product
// of the domain sizes over the points that can be reached together.
#include <algorithm>
#include <chrono>

#include "porlab/explore/Explorer.hpp"

namespace porlab {

std::optional<ExploreResult> exploreInputs(const Program& program, const ExploreOptions& opts,
                                           const ExploreRun& run) {
    const InputChoices* cp = program.inputChoices();
    if (!cp) return std::nullopt;
    const auto [lo, hi] = cp->domain();
    const auto start = std::chrono::steady_clock::now();
    ExploreResult total;
    std::vector<Value> digits;
    std::uint64_t runs = 0;
    for (;;) {
        cp->setAssignment(digits);
        const std::vector<Value> inputs = cp->inputs();
        ExploreOptions o = opts;
        o.acceptTrace = [cp, inner = opts.acceptTrace](const Execution& e) {
            return cp->usesAssignment(e) && (!inner || inner(e));
        };
        // Every trace carries the input it ran under, so that equivalence keys (partition
        // sizes, one-trace-per-class checks) tell executions of different inputs apart.
        if (opts.onTrace)
            o.onTrace = [&inputs, user = opts.onTrace](const Trace& t) {
                Trace labelled = t;
                labelled.setInputs(inputs);
                user(labelled);
            };
        // Budgets are over the whole drive.
        const double spent =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (opts.maxTraces)
            o.maxTraces = opts.maxTraces - std::min(opts.maxTraces - 1, total.traceCount());
        if (opts.maxEvents)
            o.maxEvents = opts.maxEvents - std::min(opts.maxEvents - 1, total.events);
        if (opts.maxSeconds > 0) o.maxSeconds = std::max(1e-3, opts.maxSeconds - spent);
        ExploreResult r = run(o);
        ++runs;
        for (auto& t : r.traces) t.setInputs(inputs);
        if (r.firstError) r.firstError->setInputs(inputs);
        for (auto& s : r.errorsBySite) s.first.setInputs(inputs);
        const bool budget = r.budgetExceeded;
        mergeResult(total, std::move(r));
        if (budget || (opts.stopOnError && total.errors > 0)) break;
        // The next assignment (odometer over the points found so far).
        digits.resize(cp->numChoicePoints(), lo);
        std::size_t k = 0;
        while (k < digits.size() && digits[k] >= hi) digits[k++] = lo;
        if (k == digits.size()) break;
        ++digits[k];
    }
    cp->setAssignment({});
    total.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    total.stats["nondet_runs"] = static_cast<double>(runs);
    total.stats["nondet_points"] = static_cast<double>(cp->numChoicePoints());
    return total;
}

}  // namespace porlab
