// SPDX-License-Identifier: MIT
// RVF-SMC and reads-from SMC: the recursion (Algorithm 2), replay and extension, and the
// explorers' entry points. The design: RvfSmc.hpp.
//
// Extensions beyond the paper's model (Appendix 0.A covers read-modify-writes, CAS, mutexes and
// spawn/join; the rest is ours):
//  * Read-modify-writes (fetch-and-add, exchange, CAS, lock, exchange-await) are one atomic event
//    with a read part and a write part. A pending read-modify-write of another thread counts as a
//    potential new source for an ancestor read (the paper's CAS corner case, applied to all RMWs).
//  * Locks are read-modify-writes of the mutex that must read 0 (an unlock or the initial value),
//    so mutual exclusion follows from the values; awaits are reads whose good writes must satisfy
//    the await condition; an exchange-await is both. These blocking reads may never execute, so
//    Lemma 1 does not apply to them: a blocking read never stops the loop (no backtrack cut).
//  * A node whose pending events are all blocking reads or joins reports a blocked maximal trace
//    when some witness of its events leaves every pending event disabled (the final memory is
//    chosen by VerifySC with reads of the final values).
//  * Errors: a step after which an assertion fails or a fault happens ends its thread, and its
//    write is hidden from the other threads (in the real program the execution stops there, so
//    nobody can read it). Every such step is reported at once as an error trace made of its causal
//    past, which is a real execution whose first error it is.
//  * Liveness reads: a plain write to a location that a free or a frame end kills faults when it
//    comes after the kill, so it is explored as a read that observes dead or alive (see
//    isLiveness), not performed at once like other writes.
//  * Final memory: RVF and reads-from classes do not fix the order of unread writes, so for every
//    maximal trace the other final memory states of its class are added to the outcomes (VerifySC
//    again; each witness is replayed to reach its state).
//  * Reads-from SMC (the `rf` explorer) is this recursion with one write per good-writes set
//    instead of one value: a node then fixes the reads-from function of its events, the children
//    of a node differ in the source of the read they mutate (or in its presence, for a blocking
//    read), and one complete trace is reported per reads-from class.
//  * Consistency (option engine): with `saturate` (the default) VerifySC's closure, which is
//    the saturation of the reads-from order (program order, the sources, and the coherence
//    edges they force), rejects what it can, then one linearisation of the saturated order
//    following the search's first choices decides most of the rest without witness states; the
//    exact search runs only when that linearisation reaches a dead end. The choice of a maximal
//    trace's own final values needs no call at all (the trace is the witness). Before any call,
//    a child's witness is sought in its parent's trace: the new read inserted just before the
//    write that ends its source's segment, or moved before the causal future of the writes
//    that hide its source (insertionPoint, postponedWitness: linear in the trace); an inserted
//    read that writes nothing needs no replay either (performedAt), nor does a postponed
//    witness (relink: the trace relinked, the memory it reorders patched). A child that the
//    saturated clocks refute (kept per step along the exploration: program order, what
//    precedes all of a read's good writes, and the coherence edges each new step forces;
//    RvfSmcSaturate.cpp, with what mutual exclusion forces: RvfSmcMutex.cpp) costs no call
//    either. `classic` runs the search every time (ablation).
#include "porlab/explore/RvfSmc.hpp"

#include "porlab/explore/RvfParallel.hpp"

namespace porlab::rvfsmc {

void RvfSmc::init() {
    auto init = exec_->reset();
    initEvents_.assign(init.begin(), init.end());
    T_ = exec_->maxThreads();
    if (exec_->failed()) return;
    const auto mem = exec_->memory();
    initVals_.assign(mem.begin(), mem.end());
    L_ = initVals_.size();
    steps_.assign(static_cast<std::size_t>(T_), {});
    spawnOf_.assign(static_cast<std::size_t>(T_), SpawnPoint{kInitThread, 0});
    reg_.assign(static_cast<std::size_t>(T_), 0);
    clk_.assign(static_cast<std::size_t>(T_), {});
    satClk_.assign(static_cast<std::size_t>(T_), {});
    satLog_.clear();
    satPending_ = 0;
    visCache_.assign(static_cast<std::size_t>(T_), {});
    prevDiff_.assign(static_cast<std::size_t>(T_), {});
    src_.assign(static_cast<std::size_t>(T_), {});
    locLists_.clear();
    locLists_.resize(L_);
    usedLocs_.clear();
    sigTime_.assign(L_, {});
}

void RvfSmc::runRoot() {
    if (exec_->failed()) {
        rep_.maximal(TraceStatus::Error, *exec_, initEvents_);
        return;
    }
    explore({}, std::vector<std::int32_t>(static_cast<std::size_t>(T_), 0), {}, -1);
}

void RvfSmc::finish() {
    rep_.finish();
    auto& s = result_.stats;
    s["verifysc_calls"] = static_cast<double>(vsc_.calls);
    s["verifysc_seconds"] = vsc_.seconds;
    s["verifysc_states"] = static_cast<double>(vsc_.states);
    s["verifysc_skipped"] = static_cast<double>(skipped_);
    s["verifysc_inserted"] = static_cast<double>(inserted_);
    s["replays_avoided"] = static_cast<double>(unreplayed_);
    s["verifysc_postponed"] = static_cast<double>(postponed_);
    s["replays_from_snapshot"] = static_cast<double>(replayedFromSnap_);
    s["replays_patched"] = static_cast<double>(patched_);
    s["verifysc_linearised"] = static_cast<double>(vsc_.linearised + fin_.linearised);
    s["saturation_refutations"] = static_cast<double>(satRefuted_);
    s["saturated_clocks"] = static_cast<double>(satClocks_);
    // (of the saturation refutations: those mutual exclusion decided, or whose read's clock it
    // strengthened, RvfSmcMutex.cpp)
    s["mutex_refutations"] = static_cast<double>(mutexRefuted_);
    s["saturation_refutations_backward"] = static_cast<double>(satBackward_);
    s["visible_writes_inherited"] = static_cast<double>(visInherited_);
    s["closure_rejections"] = static_cast<double>(vsc_.closureRejects + fin_.closureRejects);
    s["nodes"] = static_cast<double>(nodes_);
    s["outcome_verifysc_calls"] = static_cast<double>(fin_.calls);
    s["outcome_verifysc_seconds"] = fin_.seconds;
}

bool RvfSmc::redo(ThreadId t, Step& s, bool fresh) {
    const bool value = s.reads && !isLiveness(s);  // a read told its value
    if (value && curVal(s.ev.loc) != s.ev.rval)
        throw std::logic_error("rvf: internal error: a witness read of " + toString(s.ev) +
                               " finds another value in memory");
    auto out = exec_->step(t, value ? std::optional<Value>(s.ev.rval) : std::nullopt);
    rep_.countEvent();
    const Event& e = out.front();
    const bool fails = hasError(out);
    if (fails != s.fails && !fresh && !s.reads && e.kind == s.ev.kind && e.loc == s.ev.loc &&
        e.wval == s.ev.wval && e.index == s.ev.index)
        unorderedFault(s.ev);
    if (e.kind != s.ev.kind || e.loc != s.ev.loc || e.wval != s.ev.wval || e.index != s.ev.index ||
        (fails != s.fails && !fresh))
        throw std::logic_error("rvf: internal error: replay of " + toString(s.ev) + " #" +
                               std::to_string(s.ev.index) + " w" + std::to_string(s.ev.wval) +
                               (s.fails ? " (failing)" : "") + " gave " + toString(e) + " #" +
                               std::to_string(e.index) + " w" + std::to_string(e.wval) +
                               (fails ? " (failing)" : ""));
    auto isCut = [](const Event& x) {
        return x.kind == EventKind::AssumeBlock &&
               x.aux == static_cast<int>(BlockCause::ExecutionCut);
    };
    // The C front end cuts an execution at a total number of events, of all threads: another
    // interleaving of the same steps reaches it at another step, or not at all.
    const bool cut = std::ranges::any_of(out, isCut);
    if (cut != std::ranges::any_of(s.out, isCut)) {
        if (cut) {
            cutOut_.assign(out.begin(), out.end());  // replay() reports the cut execution
            return false;
        }
        s.out.assign(out.begin(), out.end());  // the thread goes on (extend() steps it)
    }
    bool changed = false;
    if (isLiveness(s) && fails == s.fails) s.out.assign(out.begin(), out.end());
    if (fails != s.fails) {
        s.out.assign(out.begin(), out.end());
        s.fails = fails;
        const bool writes = writesMemory(s.ev.kind) && !fails;
        changed = writes != s.writes;
        s.writes = writes;
    }
    performed(t, s);
    return changed;
}

bool RvfSmc::extend(std::vector<std::int32_t>& sl,
                    std::vector<std::pair<ThreadId, LocId>>& writes) {
    noteKills();
    // A pass steps every thread up to its next read. Another pass is needed only when a step
    // may have changed another thread's status or enabled its join (a spawn, a thread that
    // stops, a failure); pendBuf_ gets the threads the last pass stopped at a read (their
    // events are taken after the extension, as memory is then). Passes that only found
    // nothing to do cost rf's short runs a few percent in the interpreter's status queries.
    for (bool again = true; again;) {
        again = false;
        pendBuf_.clear();
        for (ThreadId t = 0; t < T_; ++t)
            while (exec_->status(t) == ThreadStatus::Ready) {
                const Event& p = exec_->pending(t);
                noteKill(p);
                if (readsMemory(p.kind) || guarded(p)) {
                    pendBuf_.push_back({t, Event{}});
                    break;
                }
                if (p.kind == EventKind::Join && !p.enabled) break;
                if (rep_.stop()) return false;
                auto out = exec_->step(t);
                rep_.countEvent();
                Step s = newStep();
                s.ev = out.front();
                s.out.assign(out.begin(), out.end());
                s.fails = hasError(out);
                s.writes = writesMemory(s.ev.kind) && !s.fails;
                if (s.ev.kind == EventKind::Spawn && s.ev.aux >= 0)
                    spawnOf_[static_cast<std::size_t>(s.ev.aux)] = {t, sl[t]};
                // A write hidden by its fault counts too: the C front end's plain write to a
                // freed block faults by its order with the free, and in another order it is
                // a new source for the free (signals, below).
                if (writesMemory(s.ev.kind) && s.ev.loc >= 0) writes.emplace_back(t, s.ev.loc);
                steps_[static_cast<std::size_t>(t)].push_back(std::move(s));
                ++sl[t];
                const Step& st = steps_[static_cast<std::size_t>(t)].back();
                performed(t, st);
                if (st.fails) reportError(order_.size() - 1);
                again = again || st.fails || st.ev.kind == EventKind::Spawn ||
                        exec_->status(t) != ThreadStatus::Ready;
            }
    }
    for (Pending& p : pendBuf_) p.ev = exec_->pending(p.t);
    return true;
}

void RvfSmc::explore(std::span<const ThreadId> witness, const std::vector<std::int32_t>& xlen,
                     const CausalMap& C, ThreadId newT, bool here) {
    const std::size_t base = depth_;
    if (!enterNode(witness, xlen, C, newT, here)) return;
    while (depth_ > base) {
        Frame& f = frames_[depth_ - 1];
        if (advance(f)) continue;  // a child's frame is on top now
        restoreTrace(f.sv);
        --depth_;
    }
}

bool RvfSmc::enterNode(std::span<const ThreadId> witness, const std::vector<std::int32_t>& xlen,
                       const CausalMap& C, ThreadId newT, bool here) {
    ++nodes_;
    if (pool_) pool_->seeDepth(depthBase_ + depth_);
    for (ThreadId t = 0; t < T_; ++t) truncateSteps(t, static_cast<std::size_t>(xlen[t]));
    if (frames_.size() == depth_) frames_.emplace_back();
    Frame& f = frames_[depth_];
    // A replay replaces the caller's trace: it is put back when this node is done (by the caller
    // of advance when the frame goes, or below when the node ends before its loop).
    SavedTrace& sv = f.sv;
    sv.active = false;
    sv.suffix.clear();
    struct Leave {
        RvfSmc& self;
        SavedTrace& sv;
        bool pushed = false;
        ~Leave() {
            if (!pushed) self.restoreTrace(sv);
        }
    } leave{*this, sv};
    if (here) {
        if (rep_.stop()) return false;
    } else {
        saveTrace(sv, witness);
        bool changed = false;
        if (std::exchange(patchNext_, false)) {
            if (!relink(witness)) return false;
        } else if (!replay(witness, newT, &changed)) {
            return false;
        }
        if (changed) {  // the new read's write part came or went (see redo): VerifySC again
            rvf::Instance in = instance(xlen);
            if (!rvf::verifySC(in, ro_.vsc, vsc_, ws_)) return false;
            // (this witness is replayed from the reset state: the node's trace is another
            // one, no record below is a prefix of it; leaveChild shows them again)
            snapBase_ = prefixSnaps_.size();
            saveTrace(sv, ws_.witness());
            if (!replay(ws_.witness())) return false;
        }
    }
    if (newT >= 0 && steps_[static_cast<std::size_t>(newT)].back().fails) {
        const auto idx =
            static_cast<std::int32_t>(steps_[static_cast<std::size_t>(newT)].size() - 1);
        for (std::size_t q = 0; q < order_.size(); ++q)
            if (order_[q].t == newT && order_[q].i == idx) reportError(q);
        if (rep_.stopped()) return false;
    }
    // Line 1: extend with every event that reads nothing.
    std::vector<std::int32_t>& sl = f.sl;
    sl = xlen;
    // (buffers of the explorer's: a node's are done with before the next node is entered)
    std::vector<std::pair<ThreadId, LocId>>& extWrites = extWritesBuf_;
    extWrites.clear();
    if (!extend(sl, extWrites)) return false;
    if (!killable_.empty()) checkKillRaces(sl);  // (no kill seen yet: nothing to check)
    // Enabled reads: the pending read-like event of every thread that is not done (extend).
    // (not: a join waiting for a thread that waits)
    const std::vector<Pending>& pend = pendBuf_;
    bool nonBlocking = false;
    for (const Pending& p : pend) nonBlocking = nonBlocking || !isBlocking(p.ev.kind);
    // Lines 2-5: backtrack signals for ancestor reads that may gain a new source.
    if (ro_.signals) {
        for (const auto& [u, x] : extWrites) signalWrite(u, x);
        for (const Pending& p : pend)
            if (mayWrite(p.ev.kind)) signalWrite(p.t, p.ev.loc);
    }
    // The node's trace: its children extend it or replay others, and put it back.
    f.traceLen = order_.size();
    f.anyFail = anyFail_;
    // Lines 7-14: reads without a causal-map entry first.
    std::vector<Pending>& mutate = f.mutate;
    mutate.clear();
    for (const Pending& p : pend)
        if (!lookup(C, p.t, sl[p.t])) mutate.push_back(p);
    for (const Pending& p : pend)
        if (lookup(C, p.t, sl[p.t])) mutate.push_back(p);
    // The program state to come back to, if anything comes back to it (on a long execution
    // most nodes have one child; a snapshot per node costs memory per node). A maximal trace
    // needs it only if its final memory is sought with replays (reportMaximal saves it then,
    // and restores it after them): a save and a restore per trace cost rf ~3% on dq-wsq.
    const bool maximal = !anyFail_ && !nonBlocking;
    f.haveSnap = false;
    if (mutate.size() > 1) {
        exec_->save(f.snap);
        f.haveSnap = true;
        pushPrefixSnap(depth_, f.traceLen, sl, f.anyFail);
    }
    if (maximal) {
        reportMaximal(sl, pend, f.snap, f.haveSnap);
        if (rep_.stopped()) return false;
    }
    if (pend.empty()) return false;
    // Entries of reads already executed never match again: not copied along the path.
    // (assigned in place: the frame's entries keep their buffers from its earlier nodes)
    std::size_t m = 0;
    for (const CausalEntry& e : C) {
        if (e.idx < sl[e.t]) continue;
        if (m < f.Cn.size())
            f.Cn[m] = e;
        else
            f.Cn.push_back(e);
        ++m;
    }
    // (the dropped entries' buffers serve the next ones: see pooledCopy)
    for (std::size_t k = m; k < f.Cn.size(); ++k) countPool_.push_back(std::move(f.Cn[k].counts));
    f.Cn.resize(m);
    f.backtrack = true;
    f.firstChild = true;
    f.k = 0;
    f.inRead = false;
    f.childPending = false;
    f.handed.clear();
    leave.pushed = true;
    ++depth_;
    return true;
}

bool RvfSmc::advance(Frame& f) {
    for (;;) {
        if (f.childPending) {
            f.childPending = false;
            afterChild(f);
            if (rep_.stopped()) return false;
        }
        if (f.inRead && f.g < f.groups.size()) {
            const auto& [v, good] = f.groups[f.g++];
            if (rep_.stop()) return false;
            if (child(f, v, good)) return true;
            continue;
        }
        if (f.inRead) {
            if (!f.handed.empty() && !joinHanded(f)) return false;
            finishRead(f);
        }
        if (f.k >= f.mutate.size() || !f.backtrack) return false;
        startRead(f);
    }
}

void RvfSmc::startRead(Frame& f) {
    const Pending& r = f.mutate[f.k];
    const std::vector<std::int32_t>& sl = f.sl;
    f.inRead = true;
    f.g = 0;
    f.ridx = sl[r.t];
    const CausalEntry* ce = lookup(f.Cn, r.t, f.ridx);
    if (!ce && ro_.signals) f.backtrack = false;
    // Lines 20-21: visible writes not forbidden by C, grouped by value (per write for
    // reads-from SMC).
    auto& groups = f.groups;
    // (the sets' buffers are kept for the next reads: a read's sets are made at every node)
    for (auto& g : groups) groupPool_.push_back(std::move(g.second));
    groups.clear();
    const bool live = r.ev.kind == EventKind::Write;  // a liveness read: dead 1, alive 0
    f.live = live;
    // (the past part of r's visible writes is the one last computed for r's thread, if that was
    // for r: see VisPast)
    VisPast& vp = visCache_[static_cast<std::size_t>(r.t)];
    const bool known = vp.ridx == f.ridx && vp.loc == r.ev.loc;
    for (const WriteRef& w : visibleWrites(r, sl, known, vp)) {
        if (ce && (w.t == kInitThread || w.i < ce->counts[static_cast<std::size_t>(w.t)])) continue;
        Value v =
            w.t == kInitThread
                ? initVal(r.ev.loc)
                : steps_[static_cast<std::size_t>(w.t)][static_cast<std::size_t>(w.i)].ev.wval;
        if (!admits(r.ev, v)) continue;
        if (live) v = v == kDeadValue ? 1 : 0;
        auto g = ro_.perWrite && !live ? groups.end()
                                       : std::find_if(groups.begin(), groups.end(),
                                                      [&](const auto& e) { return e.first == v; });
        if (g == groups.end()) {
            std::vector<WriteRef> set;
            if (!groupPool_.empty()) {
                set = std::move(groupPool_.back());
                groupPool_.pop_back();
                set.clear();
            }
            set.push_back(w);
            groups.emplace_back(v, std::move(set));
        } else
            g->second.push_back(w);
    }
    if (!ro_.perWrite)
        std::sort(groups.begin(), groups.end(),
                  [](const auto& a, const auto& b) { return a.first < b.first; });
    if (!f.haveSnap && groups.size() > 1) {
        exec_->save(f.snap);
        f.haveSnap = true;
        pushPrefixSnap(depth_ - 1, f.traceLen, sl, f.anyFail);
    }
}

void RvfSmc::finishRead(Frame& f) {
    const Pending& r = f.mutate[f.k];
    f.inRead = false;
    ++f.k;
    // A blocking read may never execute: Lemma 1 says nothing about the traces where it
    // does not, so it never cuts the loop.
    if (isBlocking(r.ev.kind)) f.backtrack = true;
    // Lines 33-34: r may no longer read the writes of this node's trace.
    auto it = std::find_if(f.Cn.begin(), f.Cn.end(),
                           [&](const CausalEntry& e) { return e.t == r.t && e.idx == f.ridx; });
    if (it != f.Cn.end())
        it->counts = f.sl;
    else
        f.Cn.push_back({r.t, f.ridx, pooledCopy(f.sl)});
}

bool RvfSmc::child(Frame& f, Value v, const std::vector<WriteRef>& good) {
    const Pending& r = f.mutate[f.k];
    const std::vector<std::int32_t>& sl = f.sl;
    const std::int32_t ridx = f.ridx;
    const bool live = f.live;
    const std::size_t traceLen = f.traceLen;
    if (!f.firstChild) exec_->restore(f.snap);
    f.firstChild = false;
    truncateTrace(traceLen);
    anyFail_ = f.anyFail;
    f.childPending = true;
    f.launched = false;
    f.inPlace = false;
    // ---- the body of the per-read loop (one child) -------------------------------------------
    auto out = exec_->step(r.t, live ? std::nullopt : std::optional<Value>(v));
    rep_.countEvent();
    Step s = newStep();
    s.ev = out.front();
    s.out.assign(out.begin(), out.end());
    s.fails = hasError(out);
    s.reads = true;
    s.writes = writesMemory(s.ev.kind) && !s.fails;
    s.blocking = isBlocking(s.ev.kind);
    s.good = good;
    // A liveness read told "alive" was performed where a kill may have come already:
    // in its witnesses it writes and does not fault (redo takes its real events).
    if (live && v == 0 && s.fails) {
        s.fails = false;
        s.writes = true;
        s.out.assign(1, s.ev);
    }
    std::vector<std::int32_t>& xl = f.xl;  // (the frame's: a vector per child cost its allocation)
    xl = sl;
    ++xl[r.t];
    steps_[static_cast<std::size_t>(r.t)].push_back(std::move(s));
    bool atAux = false, wit = false, post = false;
    std::ptrdiff_t ins = -1;
    const WriteRef act = active_[static_cast<std::size_t>(r.ev.loc)];
    const Step& rs = steps_[static_cast<std::size_t>(r.t)].back();
    if (ro_.vsc.guidance && std::find(good.begin(), good.end(), act) != good.end()) {
        atAux = true;  // the auxiliary trace already satisfies every good write
        ++skipped_;
    } else if (ro_.fastPaths && ro_.vsc.guidance && !live &&
               // NOLINTNEXTLINE(bugprone-assignment-in-if-condition): the branch uses ins
               (ins = insertionPoint(r.t, ridx, rs)) >= 0) {
        ++inserted_;  // the node's trace with r inserted is a witness (insertionPoint)
    } else if (ro_.fastPaths && !live && saturationRefutes(f, r.t, ridx, good, rs)) {
        // No witness: the node's saturated order refutes the child. (Asked before
        // postponedWitness, which is linear in the trace and finds no witness where there is
        // none: the same children are refuted, for less.)
        ++satRefuted_;
        if (ro_.checkRefutations && rvf::verifySC(instance(xl), ro_.vsc, vsc_, ws_))
            throw std::logic_error(
                "rf/rvf: internal error: the saturated order refuted a child "
                "that has a witness");
    } else if (ro_.fastPaths && ro_.vsc.guidance && !live && killable_.empty() &&
               postponedWitness(r.t, rs, insBuf_)) {
        ++postponed_;  // so is the node's trace with r before F (postponedWitness)
        post = true;
    } else if (ro_.fastPaths && !live && saturationRefutes(f, r.t, ridx, good, rs, true)) {
        // No witness either: the order with the coherence edges that point back into the
        // node's steps refutes it (asked only here, before VerifySC: see saturationRefutes).
        ++satBackward_;
        if (ro_.checkRefutations && rvf::verifySC(instance(xl), ro_.vsc, vsc_, ws_))
            throw std::logic_error(
                "rf/rvf: internal error: the saturated order with backward edges refuted a "
                "child that has a witness");
    } else {
        auxBuf_.clear();
        for (const Performed& p : order_) auxBuf_.push_back(p.t);
        auxBuf_.push_back(r.t);
        rvf::Instance in = instance(xl);
        in.aux = &auxBuf_;
        wit = rvf::verifySC(in, ro_.vsc, vsc_, ws_);
        atAux = wit && std::ranges::equal(ws_.witness(), auxBuf_);
    }
    if (!(atAux || wit || ins >= 0 || post)) return false;
    if (pool_ && wantsHandOver()) {
        // jobs > 1: the child goes to another worker with a witness to replay (the trace with
        // r at its end, at its insertion point, or VerifySC's / postponedWitness's witness).
        std::span<const ThreadId> w;
        if (atAux) {
            auxBuf_.clear();
            for (const Performed& p : order_) auxBuf_.push_back(p.t);
            auxBuf_.push_back(r.t);
            w = auxBuf_;
        } else if (ins >= 0) {
            insertedWitness(insBuf_, static_cast<std::size_t>(ins), r.t);
            w = insBuf_;
        } else {
            w = post ? std::span<const ThreadId>(insBuf_) : ws_.witness();
        }
        // (as inPlace below: the program is in the witness's state)
        const bool atState = atAux || (ins >= 0 && !rs.writes && !rs.fails && killable_.empty() &&
                                       !orderDependentBlock(rs.out));
        handOver(f, w, xl, r.t, atState);
        return false;  // (not launched: afterChild takes r's step back)
    }
    // atAux: the program is at the end of the witness already
    if (atAux) performed(r.t, rs);
    // An inserted read that writes nothing: the program is in the witness's state
    // (performedAt). (Not where a kill was seen: whether a read faults may depend on
    // a block's status, not only on its value; see redo. Not when the step ends in a
    // block that depends on the interleaving: a spin loop's livelock check, performed
    // after the other threads' writes, finds that none of them can run any more,
    // where the witness has them run after it.)
    const bool inPlace =
        ins >= 0 && !rs.writes && !rs.fails && killable_.empty() && !orderDependentBlock(rs.out);
    const auto q = static_cast<std::size_t>(ins);
    if (inPlace) {
        performedAt(r.t, rs, q, writerBefore(q, r.ev.loc));
        ++unreplayed_;
    } else if (ins >= 0) {
        insertedWitness(insBuf_, q, r.t);
    }
    patchNext_ = post && patchable(insBuf_, r.t);
    // ---- end of the body ---------------------------------------------------------------------
    ancestors_.push_back({r.t, ridx, r.ev.loc, f.backtrack, sigClock_});
    f.launched = true;
    f.inPlace = inPlace;
    f.q = q;
    const std::span<const ThreadId> childWit = atAux || inPlace   ? std::span<const ThreadId>()
                                               : ins >= 0 || post ? insBuf_
                                                                  : ws_.witness();
    enterChild(depth_ - 1, atAux, inPlace, q, childWit);
    return enterNode(childWit, xl, f.Cn, r.t, atAux || inPlace);
}

void RvfSmc::afterChild(Frame& f) {
    if (f.launched) {
        leaveChild(depth_ - 1);
        if (f.inPlace) takeOut(f.traceLen, f.q, f.mutate[f.k].t, f.ridx);
        f.backtrack = signalled(ancestors_.back());
        ancestors_.pop_back();
    }
    for (ThreadId t = 0; t < T_; ++t) truncateSteps(t, static_cast<std::size_t>(f.sl[t]));
}

}  // namespace porlab::rvfsmc

namespace porlab {

namespace {

using rvfsmc::RvfOptions;
using rvfsmc::RvfSmc;

bool flag(const ExploreOptions& o, const std::string& explorer, const std::string& name) {
    return o.option<bool>(name, explorer);
}

ExploreResult runSmc(const Program& program, const ExploreOptions& opts, const std::string& name,
                     bool perWrite) {
    // IFAA is a Mazurkiewicz refinement; under RVF and reads-from fetch-and-adds are reads.
    if (opts.conflicts.ifaa) throw InputError(name + " does not support IFAA");
    RvfOptions ro;
    ro.perWrite = perWrite;
    ro.signals = flag(opts, name, "backtrack_signals");
    ro.vsc.closure = flag(opts, name, "closure");
    ro.vsc.greedy = flag(opts, name, "greedy");
    ro.vsc.guidance = flag(opts, name, "guidance");
    ro.fastPaths = opts.option<std::string>("engine", name) != "classic";
    ro.vsc.saturate = ro.fastPaths;
    ExploreResult r;
    if (opts.jobs > 1)
        r = rvfsmc::exploreRvfParallel(program, opts, ro);
    else
        RvfSmc(program, opts, r, ro).run();
    r.explorer = name;
    return r;
}

}  // namespace

ExploreResult exploreRvf(const Program& program, const ExploreOptions& opts) {
    return runSmc(program, opts, "rvf", /*perWrite=*/false);
}

ExploreResult exploreRfSmc(const Program& program, const ExploreOptions& opts) {
    refuseMutexDestroy(program, "rf");  // (a destroy between a lock and its unlock)
    return runSmc(program, opts, "rf", /*perWrite=*/true);
}

}  // namespace porlab
