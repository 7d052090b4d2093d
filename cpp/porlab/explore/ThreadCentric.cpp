// SPDX-License-Identifier: MIT
// The value-centric and data-centric explorers. The algorithms of their papers (VC-DPOR,
// Chatterjee et al. OOPSLA'19; DC-DPOR, Chalupa et al. POPL'18) are not implemented here. Both
// equivalences are coarser than Mazurkiewicz (RVF-SMC Figure 4), so every class is a union of
// Mazurkiewicz classes: running Optimal-DPOR, which explores one trace per Mazurkiewicz class,
// and reporting only the first trace of each class of the coarser equivalence (by its canonical
// key) reports exactly one trace per class, and covers every class. The cost is that of the
// Mazurkiewicz exploration; the traces explored but not reported are counted in the stats.
#include "porlab/explore/ThreadCentric.hpp"

#include <algorithm>
#include <array>
#include <unordered_set>

#include "porlab/equiv/Partition.hpp"

namespace porlab {

namespace {

int slot(TraceStatus s) {
    switch (s) {
        case TraceStatus::Complete:
            return 0;
        case TraceStatus::Blocked:
            return 1;
        default:
            return 2;
    }
}

int blockReasonIndex(const std::string& name) {
    for (std::size_t i = 0; i < kNumBlockReasons; ++i)
        if (kBlockReasonNames[i] == name) return static_cast<int>(i);
    return static_cast<int>(BlockReason::Unknown);
}

// What the Reporter records of a reported trace, recomputed for the traces this explorer reports
// (the inner run's records count every trace it explored).
void recordBlocked(ExploreResult& r, const Trace& t) {
    int primary = static_cast<int>(BlockReason::Unknown);
    std::vector<BlockSite> seen;
    for (const auto& b : t.blocks()) {
        primary = std::min(primary, blockReasonIndex(b.reason));
        BlockSite s{b.reason, b.pos, 0};
        if (std::find(seen.begin(), seen.end(), s) != seen.end()) continue;
        seen.push_back(s);
        auto it = std::lower_bound(r.blockSites.begin(), r.blockSites.end(), s);
        if (it == r.blockSites.end() || !(*it == s)) it = r.blockSites.insert(it, s);
        ++it->traces;
    }
    ++r.blockedBy[std::string(kBlockReasonNames[static_cast<std::size_t>(primary)])];
}

void recordError(ExploreResult& r, const Trace& t) {
    const auto& ev = t.events();
    std::vector<ErrorSite> seen;
    for (const Event& e : ev) {
        if (!isErrorKind(e.kind)) continue;
        const ErrorSite s{e.thread, e.kind, e.aux, e.pos};
        if (std::find(seen.begin(), seen.end(), s) != seen.end()) continue;
        seen.push_back(s);
        auto& by = r.errorsBySite;
        auto jt = std::lower_bound(
            by.begin(), by.end(), s,
            [](const ErrorSiteTraces& a, const ErrorSite& b) { return a.site < b; });
        if (jt == by.end() || !(jt->site == s)) jt = by.insert(jt, {s, 0, t});
        ++jt->traces;
    }
}

ExploreResult exploreByClass(const Program& program, const ExploreOptions& opts, Equivalence eq) {
    std::array<std::unordered_set<Key, KeyHash>, 3> seen;
    std::array<std::uint64_t, 3> reported{}, explored{};
    std::vector<Trace> kept;
    ExploreResult out;
    ExploreOptions inner = opts;
    inner.keepTraces = false;
    // max_traces bounds the traces explored (at least as many as are reported).
    inner.onTrace = [&](const Trace& t) {
        const int s = slot(t.status());
        ++explored[static_cast<std::size_t>(s)];
        if (!seen[static_cast<std::size_t>(s)]
                 .insert(traceKey(eq, t, kDefaultPreselectedThread))
                 .second)
            return;
        ++reported[static_cast<std::size_t>(s)];
        if (t.status() == TraceStatus::Blocked) recordBlocked(out, t);
        if (t.status() == TraceStatus::Error) recordError(out, t);
        if (opts.onTrace) opts.onTrace(t);
        if (opts.keepTraces) kept.push_back(t);
    };
    ExploreResult r = explorerInfo("optimal").run(program, inner);
    // Counts, blocked reasons and error sites of the reported traces; the rest (outcomes of every
    // explored execution, events, time, budgets, the first error) is the inner run's.
    r.complete = reported[0];
    r.blocked = reported[1];
    r.errors = reported[2];
    r.blockedBy = std::move(out.blockedBy);
    r.blockSites = std::move(out.blockSites);
    r.errorsBySite = std::move(out.errorsBySite);
    r.traces = std::move(kept);
    const std::uint64_t all = explored[0] + explored[1] + explored[2];
    r.stats["traces_explored"] = static_cast<double>(all);
    r.stats["traces_not_reported"] = static_cast<double>(all - r.traceCount());
    return r;
}

}  // namespace

ExploreResult exploreValueCentric(const Program& program, const ExploreOptions& opts) {
    return exploreByClass(program, opts, Equivalence::ValueCentric);
}

ExploreResult exploreDataCentric(const Program& program, const ExploreOptions& opts) {
    return exploreByClass(program, opts, Equivalence::DataCentric);
}

}  // namespace porlab
