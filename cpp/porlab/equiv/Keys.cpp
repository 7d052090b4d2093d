// SPDX-License-Identifier: MIT
#include "porlab/equiv/Keys.hpp"

#include <algorithm>

namespace porlab {

namespace {

constexpr std::uint64_t mix(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

// An order-dependent 128-bit hash of a stream of 64-bit words.
class Hasher {
public:
    void add(std::uint64_t w) {
        a_ = mix(a_ ^ w) + 0x632be59bd9b4e019ULL;
        b_ = mix(b_ + w * 0xd6e8feb86659fd93ULL) ^ 0x8cb92ba72f3d8dd7ULL;
    }
    // The event's identity; with `values`, also what it read and wrote. (Mazurkiewicz classes
    // are sets of events with the same happens-before; under IFAA, fetch-and-adds in different
    // orders read different values and are still the same events.)
    void add(const Event& e, bool values = true) {
        add((static_cast<std::uint64_t>(static_cast<std::uint32_t>(e.thread)) << 32) | e.index);
        add((static_cast<std::uint64_t>(e.kind) << 40) |
            (static_cast<std::uint64_t>(e.rmwOp) << 32) |
            static_cast<std::uint32_t>(e.loc));
        add(static_cast<std::uint64_t>(static_cast<std::uint32_t>(e.aux)));
        if (!values) return;
        add(static_cast<std::uint64_t>(e.rval));
        add(static_cast<std::uint64_t>(e.wval));
        add(static_cast<std::uint64_t>(e.operand));
    }
    [[nodiscard]] Key key() const { return {mix(a_), mix(b_ ^ a_)}; }

private:
    std::uint64_t a_ = 0x243f6a8885a308d3ULL, b_ = 0x13198a2e03707344ULL;
};

// Positions of the trace's events grouped by thread, in program order.
std::vector<std::vector<int>> byThread(const Trace& t) {
    std::vector<std::vector<int>> g(static_cast<std::size_t>(t.numThreads()));
    for (std::size_t i = 0; i < t.size(); ++i) g[t[i].thread].push_back(static_cast<int>(i));
    return g;
}

}  // namespace

std::optional<Equivalence> equivalenceFromName(std::string_view name) {
    for (int i = 0; i < kNumEquivalences; ++i)
        if (kEquivalenceNames[i] == name) return static_cast<Equivalence>(i);
    return std::nullopt;
}

std::vector<int> canonicalLinearization(const Trace& trace, ConflictRelation c) {
    const auto hb = trace.happensBefore(c);
    const auto groups = byThread(trace);
    const std::size_t k = groups.size();
    std::vector<std::uint32_t> done(k, 0);
    std::vector<int> order;
    order.reserve(trace.size());
    while (order.size() < trace.size()) {
        bool progressed = false;
        for (std::size_t t = 0; t < k && !progressed; ++t) {
            if (done[t] >= groups[t].size()) continue;
            const int j = groups[t][done[t]];
            bool ready = true;
            for (std::size_t u = 0; u < k && ready; ++u)
                if (u != t && hb[j][u] > done[u]) ready = false;
            if (ready) {
                order.push_back(j);
                ++done[t];
                progressed = true;
            }
        }
        if (!progressed) break;  // not reached: happens-before is acyclic
    }
    return order;
}

Key traceKey(Equivalence eq, const Trace& trace) {
    Hasher h;
    h.add(static_cast<std::uint64_t>(eq));
    if (!trace.inputs().empty()) {  // different inputs: different classes
        h.add(0xfffffffcULL);
        for (Value v : trace.inputs()) h.add(static_cast<std::uint64_t>(v));
    }
    switch (eq) {
    case Equivalence::Mazurkiewicz:
    case Equivalence::MazurkiewiczIfaa: {
        ConflictRelation c;
        c.ifaa = eq == Equivalence::MazurkiewiczIfaa;
        for (int j : canonicalLinearization(trace, c)) h.add(trace[j], /*values=*/false);
        break;
    }
    case Equivalence::ReadsFrom:
    case Equivalence::LockAware:
    case Equivalence::LockAwareMo: {
        // Lock-aware: locks and unlocks are plain events (no reads-from between them), so the
        // order of critical sections is not part of the class, only what memory reads see. So
        // is a successful pthread_mutex_trylock (a CAS on a mutex): it is a lock. A failed one
        // observes the mutex held: it reads from the acquire of the section it lies in.
        const bool lockAware = eq != Equivalence::ReadsFrom;
        const ProgramInfo* info = trace.info().get();
        auto lockLike = [&](const Event& e) {
            if (e.kind == EventKind::Lock || e.kind == EventKind::Unlock) return true;
            return e.kind == EventKind::CasSuccess && info && e.loc >= 0 &&
                   static_cast<std::size_t>(e.loc) < info->isMutex.size() &&
                   info->isMutex[static_cast<std::size_t>(e.loc)];
        };
        const auto rf = trace.readsFrom();
        for (const auto& g : byThread(trace)) {
            h.add(0xffffffffULL);  // thread separator
            for (int j : g) {
                h.add(trace[j]);
                if (lockAware && lockLike(trace[j])) continue;
                if (rf[j] == kInitWrite) h.add(0xfffffffeULL);
                else if (rf[j] >= 0)
                    h.add((static_cast<std::uint64_t>(trace[rf[j]].thread) << 32) |
                          trace[rf[j]].index);
            }
        }
        if (eq == Equivalence::LockAwareMo) {
            for (const auto& writes : trace.coherence()) {
                h.add(0xfffffffdULL);  // location separator
                for (int w : writes) {
                    if (lockLike(trace[w])) continue;
                    h.add((static_cast<std::uint64_t>(trace[w].thread) << 32) | trace[w].index);
                }
            }
        }
        break;
    }
    case Equivalence::Rvf: {
        // Same events with the same values, and for every read the set of reads causally
        // before it. Per thread u that set is a prefix of u's reads, so its size says it all.
        const auto causal = trace.causalOrder();
        const auto groups = byThread(trace);
        // readsBefore[u][i] = number of reads among u's first i events
        std::vector<std::vector<std::uint32_t>> readsBefore(groups.size());
        for (std::size_t u = 0; u < groups.size(); ++u) {
            readsBefore[u].assign(groups[u].size() + 1, 0);
            for (std::size_t i = 0; i < groups[u].size(); ++i)
                readsBefore[u][i + 1] =
                    readsBefore[u][i] + (readsMemory(trace[groups[u][i]].kind) ? 1 : 0);
        }
        for (const auto& g : groups) {
            h.add(0xffffffffULL);
            for (int j : g) {
                h.add(trace[j]);
                if (!readsMemory(trace[j].kind)) continue;
                for (std::size_t u = 0; u < groups.size(); ++u) {
                    const std::uint32_t upto =
                        std::min<std::uint32_t>(causal[j][u], static_cast<std::uint32_t>(groups[u].size()));
                    h.add(readsBefore[u][upto]);
                }
            }
        }
        break;
    }
    }
    return h.key();
}

}  // namespace porlab
