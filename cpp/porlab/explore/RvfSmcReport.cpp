// SPDX-License-Identifier: MIT
// RVF-SMC and reads-from SMC: error traces, maximal traces with their final memory states, and
// the kill races the recursion cannot explore (see RvfSmc.hpp).
#include "porlab/explore/RvfSmc.hpp"

#include <ranges>

namespace porlab::rvfsmc {

void RvfSmc::unorderedFault(const Event& e) const {
    const std::string explorer = ro_.perWrite ? "rf" : "rvf";
    std::string at;
    if (e.pos.line && e.pos.file < info_->files.size())
        at = " at " + info_->files[e.pos.file] + ":" + std::to_string(e.pos.line);
    throw UnsupportedError(
        explorer + ": program '" + info_->name + "': whether the " + std::string(name(e.kind)) +
        at +
        " faults depends on its order with another event, not on a value it reads (a "
        "write to memory that a free or the end of a stack frame kills concurrently); " +
        explorer +
        " explores reads-from only and cannot tell these executions apart (use naive, "
        "source or optimal)");
}

void RvfSmc::raceWithKill(const Event& kill, const Event& write) const {
    const std::string explorer = ro_.perWrite ? "rf" : "rvf";
    auto at = [&](const Event& e) {
        if (!e.pos.line || e.pos.file >= info_->files.size()) return std::string();
        return " at " + info_->files[e.pos.file] + ":" + std::to_string(e.pos.line);
    };
    throw UnsupportedError(
        explorer + ": program '" + info_->name + "': the free (or end of a stack frame)" +
        at(kill) + " races with the write" + at(write) + " to the same memory; whether the " +
        "write faults depends on their order, not on a value it reads, and " + explorer +
        " explores reads-from only (use naive, source or optimal)");
}

void RvfSmc::checkKillRaces(const std::vector<std::int32_t>& sl) {
    for (ThreadId tf = 0; tf < T_; ++tf)
        for (std::int32_t f = 0; f < sl[tf]; ++f) {
            const Step& k = steps_[static_cast<std::size_t>(tf)][static_cast<std::size_t>(f)];
            if (!k.writes || !k.reads || k.ev.wval != kDeadValue) continue;
            for (ThreadId tw = 0; tw < T_; ++tw)
                for (std::int32_t w = 0; w < sl[tw] && tw != tf; ++w) {
                    const Step& s =
                        steps_[static_cast<std::size_t>(tw)][static_cast<std::size_t>(w)];
                    if (s.reads || !writesMemory(s.ev.kind) || s.ev.loc != k.ev.loc) continue;
                    if (poClock(tw, w)[tf] > f || poClock(tf, f)[tw] > w) continue;
                    raceWithKill(k.ev, s.ev);
                }
        }
}

void RvfSmc::reportError(std::size_t p) {
    std::vector<std::vector<std::int32_t>> at(static_cast<std::size_t>(T_));
    std::vector<std::int32_t> rf(p + 1, -1), joinSrc(p + 1, -1);
    std::vector<std::int32_t> last(L_, -1);
    for (std::size_t q = 0; q <= p; ++q) {
        const auto [t, i] = std::pair{order_[q].t, order_[q].i};
        const Step& s = steps_[static_cast<std::size_t>(t)][static_cast<std::size_t>(i)];
        at[static_cast<std::size_t>(t)].push_back(static_cast<std::int32_t>(q));
        if (s.reads || faultsByOrder(s)) rf[q] = last[static_cast<std::size_t>(s.ev.loc)];
        if (s.ev.kind == EventKind::Join && s.ev.aux >= 0) {
            const auto& c = at[static_cast<std::size_t>(s.ev.aux)];
            joinSrc[q] = c.empty() ? spawnPos(s.ev.aux, at) : c.back();
        }
        if (s.writes) last[static_cast<std::size_t>(s.ev.loc)] = static_cast<std::int32_t>(q);
    }
    std::vector<char> need(p + 1, 0);
    need[p] = 1;
    for (std::size_t q = p + 1; q-- > 0;) {
        if (!need[q]) continue;
        const auto [t, i] = std::pair{order_[q].t, order_[q].i};
        if (i > 0)
            need[static_cast<std::size_t>(
                at[static_cast<std::size_t>(t)][static_cast<std::size_t>(i - 1)])] = 1;
        else if (const std::int32_t sp = spawnPos(t, at); sp >= 0)
            need[static_cast<std::size_t>(sp)] = 1;
        if (rf[q] >= 0) need[static_cast<std::size_t>(rf[q])] = 1;
        if (joinSrc[q] >= 0) need[static_cast<std::size_t>(joinSrc[q])] = 1;
    }
    // The same causal past can fail in many nodes (it leaves out the reads in which they
    // differ): report it once. Its events are a prefix of every thread, and with the source of
    // each of its reads they are the whole class. The key: the prefix lengths, then thread by
    // thread the source of every read.
    std::vector<std::int32_t> key(static_cast<std::size_t>(T_), 0);
    for (std::size_t q = 0; q <= p; ++q)
        if (need[q]) key[static_cast<std::size_t>(order_[q].t)] = order_[q].i + 1;
    for (ThreadId t = 0; t < T_; ++t)
        for (std::int32_t i = 0; i < key[static_cast<std::size_t>(t)]; ++i) {
            const auto q = static_cast<std::size_t>(
                at[static_cast<std::size_t>(t)][static_cast<std::size_t>(i)]);
            const Step& s = steps_[static_cast<std::size_t>(t)][static_cast<std::size_t>(i)];
            if (!s.reads && !faultsByOrder(s)) continue;
            key.push_back(i);
            key.push_back(rf[q] < 0 ? kInitThread : order_[static_cast<std::size_t>(rf[q])].t);
            key.push_back(rf[q] < 0 ? 0 : order_[static_cast<std::size_t>(rf[q])].i);
        }
    if (!firstErrorClass(std::move(key))) return;
    std::vector<Event> events = initEvents_;
    for (std::size_t q = 0; q <= p; ++q)
        if (need[q]) {
            const auto [t, i] = std::pair{order_[q].t, order_[q].i};
            const Step& s = steps_[static_cast<std::size_t>(t)][static_cast<std::size_t>(i)];
            events.insert(events.end(), s.out.begin(), s.out.end());
        }
    rep_.maximal(TraceStatus::Error, *exec_, events);
}

void RvfSmc::reportMaximal(const std::vector<std::int32_t>& sl, const std::vector<Pending>& pend,
                           Snapshot& snap, bool& haveSnap) {
    // Final-value constraints: a pending blocking read must stay disabled.
    auto allowed = [&](LocId x, Value v) {
        for (const Pending& p : pend)
            if (p.ev.loc == x && admits(p.ev, v)) return false;
        return true;
    };
    // locs: the locations whose final value is chosen, constrained ones first
    std::vector<LocId>& locs = maxLocs_;
    locs.clear();
    // values[k]: the candidate final values of locs[k]. (By location, these were arrays over all
    // of a C program's thousands of locations, made and freed per maximal trace: the main cost
    // of a class once the consistency checks were gone.)
    std::vector<std::vector<Value>>& values = maxValues_;
    for (auto& v : values) v.clear();
    auto addLoc = [&](LocId x) {
        locs.push_back(x);
        if (values.size() < locs.size()) values.emplace_back();
    };
    if (locSlot_.size() < L_) locSlot_.resize(L_, -1);
    for (const Pending& p : pend)
        if (locSlot_[static_cast<std::size_t>(p.ev.loc)] < 0) {
            locSlot_[static_cast<std::size_t>(p.ev.loc)] = static_cast<std::int32_t>(locs.size());
            addLoc(p.ev.loc);
        }
    bool satisfied = true;  // does the node's own trace leave every pending event disabled?
    for (const Pending& p : pend) satisfied = satisfied && !admits(p.ev, curVal(p.ev.loc));
    const std::size_t constrained = locs.size();
    // The final value of x is written by the last write of x of some thread: with candidates
    // of one value only, it is the same in every witness.
    // Only locations some step writes (usedLocs_) can have more than their initial value: a
    // C program has thousands of locations, and a pass over all of them per maximal trace
    // cost more than the rest of the node.
    const std::vector<LocId>& used = usedLocs_;  // (in location order, as the outcomes were)
    for (std::size_t k = 0; k < constrained; ++k)
        if (!locLists_[static_cast<std::size_t>(locs[k])]) values[k].push_back(initVal(locs[k]));
    std::vector<Value>& vs = maxVs_;
    std::vector<WriteRef>& lasts = maxLasts_;  // the last write of x of every thread
    for (const LocId xl : used) {
        const auto x = static_cast<std::size_t>(xl);
        vs.clear();
        lasts.clear();
        if (locLists_[x])
            for (ThreadId t = 0; t < T_; ++t) {
                const auto& wl = locLists_[x]->writes[static_cast<std::size_t>(t)];
                const auto it = std::lower_bound(wl.begin(), wl.end(), sl[t]);
                if (it != wl.begin()) lasts.push_back({t, *(it - 1)});
            }
        // A write in the causal past of another thread's write of x (its clock: program order,
        // and reads-from for reads-from SMC) comes before it in every witness: it is never the
        // last, and asking VerifySC about its value only got a closure rejection.
        // Nor is a write that a read of another write comes after (that write comes between).
        // Commonly the trace's own last write of x has every other candidate in its causal
        // past: it is the only candidate (it is last in a witness, the trace), found in
        // O(threads) rather than by comparing all pairs.
        const WriteRef last = active_[x];
        if (ro_.fastPaths && last.t != kInitThread &&
            std::ranges::all_of(lasts, [&](const WriteRef& w) {
                return w == last || poClock(last.t, last.i)[static_cast<std::size_t>(w.t)] > w.i;
            }))
            vs.push_back(step(last.t, last.i).ev.wval);
        else
            for (const WriteRef& w : lasts) {
                bool covered = false;
                for (const WriteRef& w2 : lasts)
                    covered = covered || (ro_.fastPaths && w2.t != w.t &&
                                          poClock(w2.t, w2.i)[static_cast<std::size_t>(w.t)] > w.i);
                if (!covered && ro_.fastPaths) covered = hiddenByRead(static_cast<LocId>(x), w, sl);
                if (!covered) vs.push_back(step(w.t, w.i).ev.wval);
            }
        if (vs.empty()) vs.push_back(initVal(static_cast<LocId>(x)));
        std::sort(vs.begin(), vs.end());
        vs.erase(std::unique(vs.begin(), vs.end()), vs.end());
        if (const std::int32_t k = locSlot_[x]; k >= 0) {
            values[static_cast<std::size_t>(k)] = vs;
        } else if (opts_.collectOutcomes && vs.size() > 1) {
            addLoc(static_cast<LocId>(x));
            values[locs.size() - 1] = vs;
        }
    }
    for (std::size_t k = 0; k < constrained; ++k) locSlot_[static_cast<std::size_t>(locs[k])] = -1;
    if (locs.empty() || (constrained == 0 && !opts_.collectOutcomes)) {
        rep_.maximal(Reporter::classify(*exec_), *exec_, traceEvents());
        return;
    }
    // Every chosen location has one candidate, the trace's own final value (the common blocked
    // trace): the search below would only follow the trace, and report it if it leaves every
    // pending event disabled. Decided here, without its instance and buffers (their allocations
    // cost rf a sixth of its time on szymanski).
    if (std::ranges::all_of(std::views::iota(std::size_t{0}, locs.size()), [&](std::size_t k) {
            return values[k].size() == 1 && values[k][0] == curVal(locs[k]);
        })) {
        if (satisfied) rep_.maximal(Reporter::classify(*exec_), *exec_, traceEvents());
        return;
    }
    bool reported = false;
    rvf::Instance in = instance(sl);
    std::vector<Value> chosen(locs.size());
    // The witnesses replayed here replace the node's trace: it is put back at the end.
    SavedTrace sv;
    RestoreGuard guard{*this, sv};
    bool replayed = false;
    auto replayHere = [&](std::span<const ThreadId> witness) {
        if (!haveSnap) {  // (the node's state, for the end: the node is at depth_, not pushed)
            exec_->save(snap);
            haveSnap = true;
            pushPrefixSnap(depth_, order_.size(), sl, anyFail_);
        }
        replayed = true;
        saveTrace(sv, witness);
        return replay(witness);
    };
    // The execution's memory holds the chosen final values: its outcome is already recorded
    // (the reported trace's, or the one of the last witness replayed).
    auto atChosen = [&] {
        const auto mem = exec_->memory();
        for (std::size_t k = 0; k < locs.size(); ++k)
            if (mem[static_cast<std::size_t>(locs[k])] != chosen[k]) return false;
        return true;
    };
    auto leaf = [&](std::span<const ThreadId> witness) {
        if (!reported) {
            if (!satisfied && !replayHere(witness)) return false;
            rep_.maximal(Reporter::classify(*exec_), *exec_, traceEvents());
            reported = true;
            if (!opts_.collectOutcomes) return false;
        }
        // Another final memory of the class: run its witness to reach the state (outcome()
        // is the program's own summary of it, not something to patch by location).
        if (!atChosen()) {
            if (!replayHere(witness)) return false;
            rep_.outcome(*exec_, traceEvents());  // (unless the Reporter would make it an error)
        }
        return true;
    };
    // The node's own trace is a witness of the choice of its own final values: on that path
    // no VerifySC call is needed (it was one call per location and maximal trace).
    std::vector<ThreadId> own;
    own.reserve(order_.size());
    for (const Performed& p : order_) own.push_back(p.t);
    std::vector<Value> ownVal(locs.size());
    for (std::size_t k = 0; k < locs.size(); ++k) ownVal[k] = curVal(locs[k]);
    // Depth-first over the chosen locations; every other partial choice is checked by
    // VerifySC. onOwn: every value chosen so far is the node's trace's.
    auto dfs = [&](auto&& self, std::size_t k, bool onOwn) -> bool {
        if (k == locs.size()) return leaf(lastWitness_);
        const LocId x = locs[k];
        const auto ws = writesOf(x, sl);
        for (Value v : values[k]) {
            if (k < constrained && !allowed(x, v)) continue;
            std::vector<WriteRef> good;
            for (const auto& [w, val] : ws)
                if (val == v) good.push_back(w);
            if (initVal(x) == v) good.push_back(kInitWrite);
            in.finals.emplace_back(x, std::move(good));
            bool go = true;
            const bool own1 = onOwn && v == ownVal[k];
            if (own1 && ro_.fastPaths) {
                lastWitness_ = own;
                chosen[k] = v;
                go = self(self, k + 1, true);
            } else if (rvf::verifySC(in, ro_.vsc, fin_, ws_)) {
                const auto wit = ws_.witness();
                lastWitness_.assign(wit.begin(), wit.end());
                chosen[k] = v;
                go = self(self, k + 1, own1);
            }
            in.finals.pop_back();
            if (!go || rep_.stopped()) return false;
        }
        return true;
    };
    dfs(dfs, 0, true);
    if (replayed) exec_->restore(snap);
}

}  // namespace porlab::rvfsmc
