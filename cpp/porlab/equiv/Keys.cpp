// SPDX-License-Identifier: MIT
#include "porlab/equiv/Keys.hpp"

#include <algorithm>
#include <bit>

namespace porlab {

namespace {

constexpr std::uint64_t mix(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

// An order-dependent 128-bit hash of a stream of 64-bit words.
// Each word goes through one multiply per lane (every step is a bijection of the lane's state,
// so two streams of one length that differ in one word never collide); the full mix is applied
// once, in key(). (Two mixes per word were most of partition_sizes's time.)
class Hasher {
  public:
    void add(std::uint64_t w) {
        a_ = (a_ ^ w) * 0xd6e8feb86659fd93ULL;
        a_ ^= a_ >> 32;
        b_ = std::rotl(b_ + w, 29) * 0x9e3779b97f4a7c15ULL;
    }
    // The event's identity; with `values`, also what it read and wrote. (Mazurkiewicz classes
    // are sets of events with the same happens-before; under IFAA, fetch-and-adds in different
    // orders read different values and are still the same events.)
    void add(const Event& e, bool values = true) {
        add((static_cast<std::uint64_t>(static_cast<std::uint32_t>(e.thread)) << 32) | e.index);
        add((static_cast<std::uint64_t>(e.kind) << 40) |
            (static_cast<std::uint64_t>(e.rmwOp) << 32) | static_cast<std::uint32_t>(e.loc));
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

// What the keys of one trace share, each computed once when first needed (partition_sizes keys
// every trace under every equivalence).
class Facts {
  public:
    explicit Facts(const Trace& t) : t_(t) {}
    [[nodiscard]] const Trace& trace() const { return t_; }
    const std::vector<std::vector<int>>& groups() {
        if (!groups_) groups_ = byThread(t_);
        return *groups_;
    }
    const std::vector<int>& readsFrom() {
        if (!rf_) rf_ = t_.readsFrom();
        return *rf_;
    }
    const std::vector<VectorClock>& causal() {
        if (!causal_) causal_ = t_.causalOrder();
        return *causal_;
    }

  private:
    const Trace& t_;
    std::optional<std::vector<std::vector<int>>> groups_;
    std::optional<std::vector<int>> rf_;
    std::optional<std::vector<VectorClock>> causal_;
};

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

namespace {

// Same events (with values) and the same reads-from function; with `lockAware`, locks read from
// nothing; with `mo`, also the coherence order of memory writes.
void addReadsFrom(Hasher& h, Facts& f, bool lockAware, bool mo) {
    const Trace& trace = f.trace();
    // Lock-aware: locks and unlocks are plain events (no reads-from between them), so the
    // order of critical sections is not part of the class, only what memory reads see. So
    // is a successful pthread_mutex_trylock (a CAS on a mutex): it is a lock. A failed one
    // observes the mutex held: it reads from the acquire of the section it lies in.
    const ProgramInfo* info = trace.info().get();
    auto lockLike = [&](const Event& e) {
        if (e.kind == EventKind::Lock || e.kind == EventKind::Unlock) return true;
        return e.kind == EventKind::CasSuccess && info && e.loc >= 0 &&
               static_cast<std::size_t>(e.loc) < info->isMutex.size() &&
               info->isMutex[static_cast<std::size_t>(e.loc)];
    };
    const auto& rf = f.readsFrom();
    for (const auto& g : f.groups()) {
        h.add(0xffffffffULL);  // thread separator
        for (int j : g) {
            h.add(trace[j]);
            if (lockAware && lockLike(trace[j])) continue;
            if (rf[j] == kInitWrite)
                h.add(0xfffffffeULL);
            else if (rf[j] >= 0)
                h.add((static_cast<std::uint64_t>(trace[rf[j]].thread) << 32) | trace[rf[j]].index);
        }
    }
    if (mo) {
        for (const auto& writes : trace.coherence()) {
            h.add(0xfffffffdULL);  // location separator
            for (int w : writes) {
                if (lockLike(trace[w])) continue;
                h.add((static_cast<std::uint64_t>(trace[w].thread) << 32) | trace[w].index);
            }
        }
    }
}

void addRvf(Hasher& h, Facts& f) {
    const Trace& trace = f.trace();
    // Same events with the same values, and for every read the set of reads causally
    // before it. Per thread u that set is a prefix of u's reads, so its size says it all.
    const auto& causal = f.causal();
    const auto& groups = f.groups();
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
                const std::uint32_t upto = std::min<std::uint32_t>(
                    causal[j][u], static_cast<std::uint32_t>(groups[u].size()));
                h.add(readsBefore[u][upto]);
            }
        }
    }
}

// Value-centric condition (1) (RVF-SMC §3): for each read of `thr`, whether it reads from a
// write of `thr`.
void addOwnReads(Hasher& h, Facts& f, ThreadId thr) {
    const Trace& trace = f.trace();
    h.add(0xfffffffbULL);
    const auto& rf = f.readsFrom();
    for (std::size_t j = 0; j < trace.size(); ++j) {
        if (trace[j].thread != thr || !readsMemory(trace[j].kind)) continue;
        const bool own = rf[j] >= 0 && trace[static_cast<std::size_t>(rf[j])].thread == thr;
        h.add(own ? 1 : 0);
    }
}

// Condition (2) of the value-centric and data-centric equivalences: the order of every
// conflicting pair of events outside `thr`. Conflicts are per location (a write with any other
// access), so it is, per location, the sequence of the other threads' accesses in trace order,
// in which a run of accesses that only read (they commute) counts as a set.
void addOrderOutside(Hasher& h, const Trace& trace, ThreadId thr) {
    h.add(0xfffffffaULL);
    std::vector<std::pair<LocId, int>> accesses;  // (location, position)
    for (std::size_t i = 0; i < trace.size(); ++i) {
        const Event& e = trace[i];
        if (e.thread == thr || e.loc == kNoLoc || !accessesMemory(e.kind)) continue;
        accesses.emplace_back(e.loc, static_cast<int>(i));
    }
    std::stable_sort(accesses.begin(), accesses.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    auto id = [&](int i) {
        return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(trace[i].thread)) << 32) |
               trace[i].index;
    };
    std::vector<std::uint64_t> run;  // the current run of reads, as event identities
    auto flush = [&] {
        std::sort(run.begin(), run.end());
        for (auto r : run) h.add(r);
        h.add(0xfffffff9ULL);  // end of a run of reads
        run.clear();
    };
    for (std::size_t k = 0; k < accesses.size(); ++k) {
        const auto [loc, i] = accesses[k];
        if (k == 0 || accesses[k - 1].first != loc) {
            if (k) flush();
            h.add(0xfffffff8ULL);  // a new location
            h.add(static_cast<std::uint64_t>(static_cast<std::uint32_t>(loc)));
        }
        if (writesMemory(trace[i].kind)) {
            flush();
            h.add(id(i));
        } else {
            run.push_back(id(i));
        }
    }
    flush();
}

Key keyOf(Equivalence eq, Facts& f, ThreadId preselected) {
    const Trace& trace = f.trace();
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
            addReadsFrom(h, f, false, false);
            break;
        case Equivalence::LockAware:
            addReadsFrom(h, f, true, false);
            break;
        case Equivalence::LockAwareMo:
            addReadsFrom(h, f, true, true);
            break;
        case Equivalence::Rvf:
            addRvf(h, f);
            break;
        case Equivalence::ValueCentric:
            addRvf(h, f);
            addOwnReads(h, f, preselected);
            addOrderOutside(h, trace, preselected);
            break;
        case Equivalence::DataCentric:
            addReadsFrom(h, f, false, false);
            addOrderOutside(h, trace, preselected);
            break;
    }
    return h.key();
}

}  // namespace

Key traceKey(Equivalence eq, const Trace& trace, ThreadId preselected) {
    Facts f(trace);
    return keyOf(eq, f, preselected);
}

std::array<Key, kNumEquivalences> traceKeys(const Trace& trace, ThreadId preselected) {
    Facts f(trace);
    std::array<Key, kNumEquivalences> keys;
    for (int e = 0; e < kNumEquivalences; ++e)
        keys[static_cast<std::size_t>(e)] = keyOf(static_cast<Equivalence>(e), f, preselected);
    return keys;
}

}  // namespace porlab
