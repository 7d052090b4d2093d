// SPDX-License-Identifier: MIT
// The value-centric and data-centric explorers (RVF-SMC §3, thread `thr` preselected). Not the
// algorithms of their papers (VC-DPOR, Chatterjee et al. OOPSLA'19; DC-DPOR, Chalupa et al.
// POPL'18), which porlab lacks, but porlab's own design, built on the definitions:
//
//  * A data-centric class is a reads-from class (same events, same reads-from) plus the order of
//    every conflicting pair of events outside thr. So every data-centric class lies inside one
//    reads-from class. The `rf` explorer (reads-from SMC) gives one trace per reads-from class;
//    inside each, a decision tree orients, one after the other, the conflicting pairs outside thr
//    that the causal order (po ∪ rf)+ leaves open. Each orientation is kept when a linearisation
//    exists with the class's reads-from and the orientations chosen so far (a search over the
//    downward-closed event sets, below). The current witness already orients the pair one way,
//    so only the other way needs a search. Every leaf is exactly one data-centric class (the
//    leaves differ in some orientation; the rest of the class is fixed by the reads-from class)
//    and every class of the reads-from class is a leaf. Its witness is replayed on the program
//    and reported: one trace explored per data-centric class.
//  * A value-centric class is a union of data-centric classes (data-centric is finer, RVF-SMC
//    Figure 4). The value-centric explorer walks the same decision trees and computes the
//    value-centric key of each leaf's witness from its events alone (no execution); a leaf is
//    replayed and reported only when its key is new. It executes one trace per value-centric
//    class, but the decision trees it walks (symbolically) have a leaf per data-centric class.
//
// A linearisation with a given reads-from function exists iff a search over downward-closed sets
// of events reaches the whole set: an event can be added when its causal past (po with spawn and
// join, rf) and the orientations chosen before it are in, and, for a write of x, when no read of
// x whose source is already in is still out (the write would hide that source from it). The set
// alone decides what comes next (a read's source is the last write of its location exactly when
// that rule held), so failed sets are remembered.
//
// Blocked traces: a linearisation of a blocked class's events may leave some pending event
// enabled (its location's last write differs); the leaf then tries each choice of the last write
// of every location a pending event waits on (those writes ordered after the others) and
// reports the first replay that is maximal. Error traces of the rf explorer (the causal past of
// a failing step) are replayed and reported as they are, not refined. Outcomes are those of the
// rf run (every final memory of every reads-from class: the data-centric classes partition them).
//
// Data races (the Reporter's check, on by default): the inner rf run checks them itself, as rf
// does alone. Whether a trace races, and which least racing pair is reported, depends on its
// reads-from only (BugChecks.cpp), so a racy reads-from class comes from rf as one error trace
// cut at the race, and rf records no outcome of it: the execution has no defined behaviour past
// the race, so it is replayed and reported as it is (the Reporter finds the same race in the
// replay), like rf's other error traces, and not refined into data-centric classes. Error sites,
// outcomes and verdicts are rf's; error traces are one per racy (or failing) reads-from class,
// as many as rf reports, not a count of the value- or data-centric classes of the cut traces.
//
// Programs the rf explorer refuses fall back to the earlier design: optimal explores the
// Mazurkiewicz classes and the first trace of each class is reported (stats: fallback_optimal,
// traces_not_reported), so that every program the other explorers check is still checked. Those
// are the programs that destroy a mutex (pthread_mutex_destroy, mtx_destroy,
// pthread_spin_destroy, pthread_rwlock_destroy: refused before the run) and those where rf meets
// a write whose liveness depends on its order with a kill of its location rather than on a value
// it read (a write racing with a free, a write to a frame that ends: refused during the run).
#include "porlab/explore/ThreadCentric.hpp"

#include <algorithm>
#include <array>
#include <functional>
#include <stdexcept>
#include <string>
#include <unordered_set>

#include "porlab/core/Errors.hpp"
#include "porlab/equiv/Keys.hpp"
#include "porlab/equiv/Partition.hpp"
#include "porlab/explore/ThreadCentricOrder.hpp"

namespace porlab {

namespace {

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

// The fallback for programs the rf explorer refuses (a destroyed mutex; a write racing with a
// free): optimal explores the Mazurkiewicz classes and the first trace of each class of `eq` is
// reported; the others are explored and counted in traces_not_reported. `delivered`: classes
// (by status slot) whose trace a run cut short by rf's refusal already gave to opts.onTrace.
using KeySets = std::array<std::unordered_set<Key, KeyHash>, 3>;
ExploreResult filterOverOptimal(const Program& program, const ExploreOptions& opts, Equivalence eq,
                                ThreadId thr, const KeySets& delivered = {}) {
    std::array<std::unordered_set<Key, KeyHash>, 3> seen;
    std::array<std::uint64_t, 3> reported{}, explored{};
    std::vector<Trace> kept;
    ExploreResult out;
    ExploreOptions inner = opts;
    inner.keepTraces = false;
    inner.params.clear();
    inner.values = {};
    // max_traces bounds the traces explored (at least as many as are reported).
    inner.onTrace = [&](const Trace& t) {
        const int s = statusSlot(t.status());
        ++explored[static_cast<std::size_t>(s)];
        const Key key = traceKey(eq, t, thr);
        if (!seen[static_cast<std::size_t>(s)].insert(key).second) return;
        ++reported[static_cast<std::size_t>(s)];
        if (t.status() == TraceStatus::Blocked) recordBlocked(out, t);
        if (t.status() == TraceStatus::Error) recordError(out, t);
        if (opts.onTrace && !delivered[static_cast<std::size_t>(s)].count(key)) opts.onTrace(t);
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
    r.stats["fallback_optimal"] = 1;
    return r;
}

using thread_centric::Closure;
using thread_centric::Coarse;
using thread_centric::Linearizer;

class ThreadCentric {
  public:
    ThreadCentric(const Program& p, const ExploreOptions& o, ExploreResult& r, Equivalence eq,
                  ThreadId thr)
        : program_(p),
          opts_(o),
          own_(withHalfTheEvents(o)),
          result_(r),
          rep_(p, own_, r),
          eq_(eq),
          thr_(thr) {
        // Every trace given to the caller is recorded: if rf refuses the program in the middle
        // of the run, the fallback does not give the same class twice.
        own_.onTrace = [this](const Trace& t) {
            delivered_[static_cast<std::size_t>(statusSlot(t.status()))].insert(
                traceKey(eq_, t, thr_));
            if (opts_.onTrace) opts_.onTrace(t);
        };
    }

    [[nodiscard]] const KeySets& delivered() const { return delivered_; }

    void run() {
        ExploreOptions inner;
        inner.maxSeconds = opts_.maxSeconds;
        inner.maxEvents = own_.maxEvents;  // the other half: the leaves' replays count here
        inner.maxMemoryBytes = opts_.maxMemoryBytes;
        inner.control = &innerControl_;
        // rf checks races itself: a racy reads-from class (all its traces race, with the same
        // least racing pair) comes as rf's error trace, cut at the race, and leaves no outcome.
        inner.checkRaces = opts_.checkRaces;
        inner.collectOutcomes = opts_.collectOutcomes;
        inner.onTrace = [this](const Trace& t) { coarse(t); };
        ExploreResult in = explorerInfo("rf").run(program_, inner);
        rep_.finish();
        auto& r = result_;
        for (const auto& o : in.outcomes) r.outcomes.insert(o);
        if (in.budgetExceeded && !r.budgetExceeded && in.budgetReason != "interrupted") {
            r.budgetExceeded = true;
            r.budgetReason = in.budgetReason;
        }
        for (const auto& why : in.incomplete)
            if (why != "interrupted" &&
                std::find(r.incomplete.begin(), r.incomplete.end(), why) == r.incomplete.end())
                r.incomplete.push_back(why);
        r.events += in.events;
        r.stats["rf_classes"] = static_cast<double>(in.traceCount());
        r.stats["leaves"] = static_cast<double>(leaves_);
        r.stats["rf_duplicate_leaves"] = static_cast<double>(duplicates_);
        r.stats["consistency_searches"] = static_cast<double>(searches_);
        r.stats["search_states"] = static_cast<double>(states_);
        r.stats["traces_explored"] = static_cast<double>(replays_);
        r.stats["traces_not_reported"] = static_cast<double>(replays_ - reportedCount());
    }

  private:
    // An event budget is shared by the inner rf run and the replays of the leaves, half each
    // (both run interleaved, and each enforces its own): the total stays within the budget.
    static ExploreOptions withHalfTheEvents(const ExploreOptions& o) {
        ExploreOptions h = o;
        if (h.maxEvents > 0) h.maxEvents = std::max<std::uint64_t>(h.maxEvents / 2, 1);
        return h;
    }

    [[nodiscard]] std::uint64_t reportedCount() const { return reported_; }

    bool stop() {
        if (opts_.control && opts_.control->interrupt.load()) innerControl_.interrupt = true;
        if (rep_.stop()) innerControl_.interrupt = true;
        return innerControl_.interrupt.load();
    }

    // One trace of the rf explorer: a reads-from class.
    void coarse(const Trace& t) {
        if (stop()) return;
        if (t.status() == TraceStatus::Error) {
            std::vector<int> order(t.size());
            for (std::size_t i = 0; i < t.size(); ++i) order[i] = static_cast<int>(i);
            Coarse c(t);
            std::vector<Event> events;
            // (A deadlock is a blocked execution that rf's reporter made an error trace by
            // adding a marker; this reporter does the same.)
            if (replay(c, order, events)) {
                rep_.maximal(exec_->failed() ? TraceStatus::Error : Reporter::classify(*exec_),
                             *exec_, events);
                ++reported_;
            }
            return;
        }
        if (t.status() != TraceStatus::Complete && t.status() != TraceStatus::Blocked) return;
        Coarse c(t);
        Linearizer lin(c);
        pending_.clear();
        symbolic_ = true;
        if (t.status() == TraceStatus::Blocked) probePending(c);
        const auto pairs = openPairs(c);
        std::vector<std::vector<int>> extra(static_cast<std::size_t>(c.n));
        for (auto [a, b] : c.fixed) extra[static_cast<std::size_t>(b)].push_back(a);
        std::vector<int> witness(static_cast<std::size_t>(c.n));
        for (int i = 0; i < c.n; ++i) witness[static_cast<std::size_t>(i)] = i;
        if (pairs.empty()) {
            // Nothing to orient (one thread, or threads that never conflict outside thr): the
            // reads-from class is one data-centric class and rf's trace its witness. The
            // closure below costs n² bits and more than n² steps: not built for nothing.
            leaf(c, lin, extra, witness, t.status());
        } else {
            const Closure closure(c);
            refine(c, lin, pairs, extra, closure, witness, t.status());
        }
        searches_ += lin.searches;
        states_ += lin.states;
    }

    // The conflicting pairs outside thr that the causal order leaves open, in trace order. Per
    // location and per pair of threads u, v (neither thr): for an access a of u, the accesses of
    // v after a in the trace that conflict with it are open up to the first one causally after
    // a (causal order is closed under v's program order after it). The cost is the number of
    // pairs plus O(accesses × threads × log): linear when causal order leaves nothing open.
    [[nodiscard]] std::vector<std::pair<int, int>> openPairs(const Coarse& c) const {
        std::vector<std::vector<int>> byLoc(c.readsOf.size());
        for (int i = 0; i < c.n; ++i) {
            const Event& e = c.ev(i);
            if (e.thread == thr_ || e.loc < 0 || !accessesMemory(e.kind)) continue;
            byLoc[static_cast<std::size_t>(e.loc)].push_back(i);
        }
        std::vector<std::pair<int, int>> pairs;
        const auto T = static_cast<std::size_t>(c.threads);
        std::vector<std::vector<int>> all(T), writes(T);  // of one location, by thread
        std::vector<ThreadId> used;
        for (const auto& acc : byLoc) {
            if (std::all_of(acc.begin(), acc.end(),
                            [&](int i) { return c.ev(i).thread == c.ev(acc[0]).thread; }))
                continue;
            for (ThreadId u : used) {
                all[static_cast<std::size_t>(u)].clear();
                writes[static_cast<std::size_t>(u)].clear();
            }
            used.clear();
            for (int i : acc) {
                const Event& e = c.ev(i);
                auto& mine = all[static_cast<std::size_t>(e.thread)];
                if (mine.empty()) used.push_back(e.thread);
                mine.push_back(i);
                if (writesMemory(e.kind)) writes[static_cast<std::size_t>(e.thread)].push_back(i);
            }
            for (int a : acc) {
                const Event& ea = c.ev(a);
                const bool w = writesMemory(ea.kind);
                for (ThreadId v : used) {
                    if (v == ea.thread) continue;
                    const auto& list = (w ? all : writes)[static_cast<std::size_t>(v)];
                    for (auto it = std::upper_bound(list.begin(), list.end(), a);
                         it != list.end() && !c.causallyBefore(a, *it); ++it)
                        pairs.emplace_back(a, *it);
                }
            }
        }
        std::sort(pairs.begin(), pairs.end());
        return pairs;
    }

    static std::vector<int> ranks(const std::vector<int>& order) {
        std::vector<int> rank(order.size());
        for (std::size_t k = 0; k < order.size(); ++k)
            rank[static_cast<std::size_t>(order[k])] = static_cast<int>(k);
        return rank;
    }

    // The decision tree over the open pairs, depth first, as a work list (its depth is the
    // number of open pairs, which can be far more than a thread's stack holds). A decision
    // orients pairs[k] as the current witness does first (consistent with every choice above it,
    // so no search), then the other way, which needs a witness of its own. Pairs the closure
    // already orders are passed over without a decision.
    struct Decision {
        std::size_t k;               // the pair decided here
        int a, b;                    // a before b in the witness of the level above
        bool flipped;                // exploring b before a
        Closure closure;             // the orders with this decision
        std::vector<int> witness;    // the witness below this decision
        std::vector<int> aboveRank;  // the ranks of the witness above (the flipped search's bias)
    };

    void refine(const Coarse& c, Linearizer& lin, const std::vector<std::pair<int, int>>& pairs,
                std::vector<std::vector<int>>& extra, const Closure& rootClosure,
                const std::vector<int>& rootWitness, TraceStatus status) {
        std::vector<Decision> stack;
        std::size_t k = 0;
        for (;;) {
            // Down: decide pairs from k on, each first as the witness orders it, to a leaf.
            for (;;) {
                if (stop()) return;
                const auto& witness = stack.empty() ? rootWitness : stack.back().witness;
                if (k == pairs.size()) {
                    leaf(c, lin, extra, witness, status);
                    break;
                }
                const Closure& closure = stack.empty() ? rootClosure : stack.back().closure;
                auto rank = ranks(witness);
                auto [a, b] = pairs[k];
                if (rank[static_cast<std::size_t>(a)] > rank[static_cast<std::size_t>(b)])
                    std::swap(a, b);
                if (closure.get(a, b)) {  // forced by the orientations before it: no decision
                    ++k;
                    continue;
                }
                Closure with = closure;
                if (!with.add(a, b))
                    throw std::logic_error("value/data-centric: a witness contradicts its orders");
                extra[static_cast<std::size_t>(b)].push_back(a);
                Decision d{k, a, b, false, std::move(with), witness, std::move(rank)};
                stack.push_back(std::move(d));
                ++k;
            }
            // Up: the deepest decision not yet flipped whose other orientation has a witness.
            for (;;) {
                if (stack.empty()) return;
                Decision& d = stack.back();
                const auto ua = static_cast<std::size_t>(d.a);
                if (d.flipped) {
                    extra[ua].pop_back();
                    stack.pop_back();
                    continue;
                }
                extra[static_cast<std::size_t>(d.b)].pop_back();
                if (stop()) return;
                // b before a: needs a witness of its own (none when the orders contradict it).
                Closure with = stack.size() >= 2 ? stack[stack.size() - 2].closure : rootClosure;
                if (with.add(d.b, d.a)) {
                    extra[ua].push_back(d.b);
                    std::vector<int> other;
                    if (lin.find(extra, d.aboveRank, other)) {
                        d.flipped = true;
                        d.closure = std::move(with);
                        d.witness = std::move(other);
                        k = d.k + 1;
                        break;
                    }
                    extra[ua].pop_back();
                }
                stack.pop_back();
            }
        }
    }

    // A leaf: one data-centric class, with a witness.
    void leaf(const Coarse& c, Linearizer& lin, std::vector<std::vector<int>>& extra,
              const std::vector<int>& witness, TraceStatus status) {
        ++leaves_;
        // The key of the class, from the witness's events (no execution). A data-centric leaf
        // is a new class unless rf repeated a reads-from class (a known rf bug on writes
        // racing with a free, counted in rf_duplicate_leaves); a value-centric one may be a
        // class another leaf had.
        std::vector<Event> events;
        events.reserve(witness.size());
        for (int i : witness) events.push_back(c.ev(i));
        Trace t(std::move(events), status, c.trace->info());
        t.setInputs(c.trace->inputs());
        const Key key = traceKey(eq_, t, thr_);
        if (seen_.count(key)) {
            if (eq_ == Equivalence::DataCentric) ++duplicates_;
            return;
        }
        if (!reportWitness(c, lin, extra, witness, status)) return;
        seen_.insert(key);
    }

    // Replays the witness (for a blocked class, a witness leaving every pending event disabled)
    // and reports it. Whether it found one.
    bool reportWitness(const Coarse& c, Linearizer& lin, std::vector<std::vector<int>>& extra,
                       const std::vector<int>& witness, TraceStatus status) {
        if (status == TraceStatus::Complete || disabledAtEnd(c, witness)) {
            std::vector<Event> events;
            if (!replay(c, witness, events)) return false;
            if (status == TraceStatus::Complete || maximal()) {
                rep_.maximal(Reporter::classify(*exec_), *exec_, events);
                ++reported_;
                return true;
            }
        }
        // Blocked class, a pending event enabled: choose the last write of each location a
        // pending event waits on.
        std::vector<LocId> locs;
        for (const Event& p : pending_) {
            const LocId l = p.loc;
            if (l >= 0 && static_cast<std::size_t>(l) < c.writesOf.size() &&
                !c.writesOf[static_cast<std::size_t>(l)].empty() &&
                std::find(locs.begin(), locs.end(), l) == locs.end())
                locs.push_back(l);
        }
        const auto rank = ranks(witness);
        return lastWrites(c, lin, extra, rank, locs, 0);
    }

    // The pending events of a blocked class (the same in all its traces: a thread's next step
    // depends only on what it read), from one replay of rf's trace. `symbolic_`: all are locks
    // and awaits, whose enabledness at the end is a function of their location's last write.
    void probePending(const Coarse& c) {
        pending_.clear();
        symbolic_ = true;
        std::vector<int> order(static_cast<std::size_t>(c.n));
        for (int i = 0; i < c.n; ++i) order[static_cast<std::size_t>(i)] = i;
        std::vector<Event> events;
        if (!replay(c, order, events, /*count=*/false)) return;
        for (ThreadId u = 0; u < exec_->maxThreads(); ++u) {
            if (exec_->status(u) != ThreadStatus::Ready) continue;
            const Event& p = exec_->pending(u);
            if (p.kind == EventKind::Join) continue;  // the child ends in every trace or none
            pending_.push_back(p);
            if (p.kind != EventKind::Lock && p.kind != EventKind::Await &&
                p.kind != EventKind::XchgAwait)
                symbolic_ = false;
        }
    }

    // Does every pending event stay disabled at the end of `order`? (true when not symbolic:
    // the replay decides.)
    [[nodiscard]] bool disabledAtEnd(const Coarse& c, const std::vector<int>& order) const {
        if (!symbolic_) return true;
        std::vector<int> rank(order.size());
        for (std::size_t k = 0; k < order.size(); ++k)
            rank[static_cast<std::size_t>(order[k])] = static_cast<int>(k);
        for (const Event& p : pending_) {
            if (p.loc < 0 || static_cast<std::size_t>(p.loc) >= c.writesOf.size()) continue;
            int last = -1;
            for (int w : c.writesOf[static_cast<std::size_t>(p.loc)])
                if (last < 0 ||
                    rank[static_cast<std::size_t>(w)] > rank[static_cast<std::size_t>(last)])
                    last = w;
            if (last < 0) continue;  // the initial value, as in rf's trace
            const Value v = c.ev(last).wval;
            const bool enabled =
                p.kind == EventKind::Lock ? v == 0 : evalAwaitCond(p.cond, v, p.operand);
            if (enabled) return false;
        }
        return true;
    }

    bool lastWrites(const Coarse& c, Linearizer& lin, std::vector<std::vector<int>>& extra,
                    const std::vector<int>& rank, const std::vector<LocId>& locs, std::size_t k) {
        if (stop()) return false;
        if (k == locs.size()) {
            std::vector<int> w;
            if (!lin.find(extra, rank, w) || !disabledAtEnd(c, w)) return false;
            std::vector<Event> events;
            if (!replay(c, w, events) || !maximal()) return false;
            rep_.maximal(Reporter::classify(*exec_), *exec_, events);
            ++reported_;
            return true;
        }
        const auto& writes = c.writesOf[static_cast<std::size_t>(locs[k])];
        for (int last : writes) {
            auto& pre = extra[static_cast<std::size_t>(last)];
            const std::size_t before = pre.size();
            for (int w : writes)
                if (w != last) pre.push_back(w);
            const bool found = lastWrites(c, lin, extra, rank, locs, k + 1);
            pre.resize(before);
            if (found) return true;
        }
        return false;
    }

    [[nodiscard]] bool maximal() const {
        for (ThreadId u = 0; u < exec_->maxThreads(); ++u)
            if (exec_->enabled(u)) return false;
        return true;
    }

    // Runs the program along `order` (positions of c's trace; markers come with their steps).
    bool replay(const Coarse& c, const std::vector<int>& order, std::vector<Event>& events,
                bool count = true) {
        if (!exec_) exec_ = program_.newExecution();
        const auto init = exec_->reset();
        events.assign(init.begin(), init.end());
        if (count) ++replays_;
        for (int i : order) {
            const Event& want = c.ev(i);
            if (isMarker(want.kind)) continue;
            if (!exec_->enabled(want.thread))
                throw UnsupportedError("value/data-centric: a witness step is not enabled");
            const auto out = exec_->step(want.thread);
            rep_.countEvent();
            if (out.empty() || out[0].kind != want.kind || out[0].loc != want.loc ||
                out[0].rval != want.rval || out[0].wval != want.wval)
                throw UnsupportedError("value/data-centric: a witness replays differently");
            events.insert(events.end(), out.begin(), out.end());
            if (rep_.stopped()) return false;
        }
        return true;
    }

    const Program& program_;
    const ExploreOptions& opts_;
    ExploreOptions own_;  // opts_ with onTrace recording the classes delivered
    ExploreResult& result_;
    Reporter rep_;
    Equivalence eq_;
    ThreadId thr_;
    ExploreControl innerControl_;
    std::unique_ptr<Execution> exec_;
    std::unordered_set<Key, KeyHash> seen_;
    std::uint64_t duplicates_ = 0;
    KeySets delivered_;
    std::vector<Event> pending_;  // of the current blocked class
    bool symbolic_ = true;
    std::uint64_t leaves_ = 0, searches_ = 0, states_ = 0, replays_ = 0, reported_ = 0;
};

ExploreResult exploreByClass(const Program& program, const ExploreOptions& opts, Equivalence eq) {
    const auto thr = static_cast<ThreadId>(opts.option<std::int64_t>(
        "thread", eq == Equivalence::ValueCentric ? "value-centric" : "data-centric"));
    const auto& info = program.info();
    if (info && info->mutexDestroy.line) return filterOverOptimal(program, opts, eq, thr);
    ExploreResult r;
    ThreadCentric tc(program, opts, r, eq, thr);
    try {
        tc.run();
        return r;
    } catch (const UnsupportedError&) {
        // rf refused the program in the middle of its run (a write racing with a free), or a
        // witness did not replay as its events say (a program whose steps depend on more than
        // the values they read: not expected, but then the fallback is right and this is not):
        // start again with the fallback, which counts the classes already delivered without
        // giving them to onTrace again.
        return filterOverOptimal(program, opts, eq, thr, tc.delivered());
    }
}

}  // namespace

ExploreResult exploreValueCentric(const Program& program, const ExploreOptions& opts) {
    return exploreByClass(program, opts, Equivalence::ValueCentric);
}

ExploreResult exploreDataCentric(const Program& program, const ExploreOptions& opts) {
    return exploreByClass(program, opts, Equivalence::DataCentric);
}

}  // namespace porlab
