// SPDX-License-Identifier: MIT
#include "porlab/explore/graph/GraphExplorer.hpp"

#include <algorithm>
#include <cassert>
#include <optional>
#include <utility>

#include "porlab/core/Errors.hpp"
#include "porlab/explore/graph/Parallel.hpp"

namespace porlab::graph {

void GraphExplorer::useMutexLocks(bool lockOrder, bool blockedSources, bool sectionsEnd) {
    sc_.mutexLocks = true;
    co_.lockOrderEdges = lockOrder;
    Engine& engine = *this;
    mutex_ = std::make_unique<MutexLocks>(engine, co_);
    mutex_->useSources(blockedSources);
    mutex_->useSectionsEnd(sectionsEnd);
    failures_.useMutexLocks(mutex_.get());
}

void GraphExplorer::useWbGraphs() {
    Engine& engine = *this;
    wb_ = std::make_unique<WbGraphs>(engine);
    root_.indexWrites(true);  // (ExecutionGraph::writesIn: a read's sources)
    mutex_->useWbGraphs(wb_.get());
    wb_->useFailures(&failures_, mutex_.get());
}

GraphExplorer::GraphExplorer(const Program& p, const ExploreOptions& o, ExploreResult& r)
    : exec_(p.newExecution()),
      rep_(p, o, r),
      result_(r),
      info_(p.info()),
      collectOutcomes_(o.collectOutcomes),
      zne_(*this, o),
      failures_(*this, nullptr) {
    // The consistency searches can run long between two events: they ask the budgets too.
    co_.interrupt = [this] { return rep_.stop(); };
    sc_.interrupt = [this] { return rep_.stop(); };
    driver_.setUndo(
        [](void* self, std::uint32_t n) { static_cast<GraphExplorer*>(self)->undoPlain(n); }, this);
    root_.init(exec_->maxThreads(), p.info()->initialValues);
}

GraphExplorer::~GraphExplorer() = default;

void GraphExplorer::ensureDepth(std::size_t depth) {
    while (frames_.size() <= depth + 1) frames_.emplace_back();
}

ExecutionGraph& GraphExplorer::revisitGraph(std::size_t depth) {
    auto& g = frames_[depth].graph;
    if (!g) {
        if (graphPool_.empty()) {
            g = std::make_unique<ExecutionGraph>();
        } else {
            g = std::move(graphPool_.back());
            graphPool_.pop_back();
        }
    }
    return *g;
}

void GraphExplorer::releaseRevisitGraph(std::size_t depth) {
    if (auto& g = frames_[depth].graph) graphPool_.push_back(std::move(g));
}

void GraphExplorer::run() {
    explore();
    finish();
}

void GraphExplorer::explore() {
    auto init = exec_->reset();
    events_.assign(init.begin(), init.end());
    if (exec_->failed()) {
        rep_.maximal(TraceStatus::Error, *exec_, events_);
    } else {
        ensureDepth(0);
        frames_[0].broken = false;
        wit_.reset(wb_ != nullptr);
        undo_.clear();  // (a run ended by an exception left its own)
        driver_.run(visit(root_, 0));
        assert(undo_.empty());
    }
}

void GraphExplorer::joinPool(WorkPool& pool, unsigned worker) {
    pool_ = &pool;
    worker_ = worker;
    failures_.shareSeen(
        [&pool](std::uint64_t h1, std::uint64_t h2) { return pool.firstFailure(h1, h2); });
}

void GraphExplorer::runTask(ExecutionGraph& g, std::span<const Ref> order) {
    // The subtree of visit(g, d) depends only on g, its witness and the program state the
    // witness replays to: rebuild the state, then visit as the donor would have.
    ensureDepth(1);
    frames_[1].broken = false;  // (inconsistent graphs are not handed over)
    taskDepth_ = 1;
    if (wb_) g.indexWrites(true);  // (a task's graph is decoded without)
    wit_.reset(wb_ != nullptr);
    wit_.assign(0, order, g);
    undo_.clear();
    if (replay(g, wit_.at(1))) driver_.run(visit(g, 1));
    assert(undo_.empty());
}

void GraphExplorer::finish() {
    result_.stats["graphs_not_reported"] = static_cast<double>(skipped_);
    result_.stats["revisits_tried"] = static_cast<double>(revisitsTried_);
    result_.stats["revisits"] = static_cast<double>(revisitsDone_);
    result_.stats["inconsistent"] = static_cast<double>(inconsistent_);
    result_.stats["blocked_dropped"] = static_cast<double>(dropped_);
    result_.stats["consistency_checks"] = static_cast<double>(co_.checks);
    if (brokenExplored_) {
        result_.stats["broken_explored"] = static_cast<double>(brokenExplored_);
        result_.stats["broken_dropped"] = static_cast<double>(brokenDropped_);
    }
    if (co_.greedyFound) result_.stats["greedy_witnesses"] = static_cast<double>(co_.greedyFound);
    zne_.addStats(result_);
    if (coForced_) result_.stats["co_forced"] = static_cast<double>(coForced_);
    if (sc_.searches) {
        result_.stats["sc_searches"] = static_cast<double>(sc_.searches);
        result_.stats["sc_states"] = static_cast<double>(sc_.states);
        result_.stats["sc_saturations"] = static_cast<double>(sc_.saturations);
        result_.stats["sc_saturation_refuted"] = static_cast<double>(sc_.saturationRefuted);
    }
    if (mutex_) mutex_->addStats(result_);
    if (wb_) wb_->addStats(result_);
    addStats();
    rep_.finish();
}

bool GraphExplorer::canMove(const ExecutionGraph& g, ThreadId t) const {
    if (exec_->status(t) != ThreadStatus::Ready || g.stuck(t)) return false;
    const Event& p = exec_->pending(t);
    return p.kind != EventKind::Join || exec_->status(p.aux) == ThreadStatus::Finished;
}

bool GraphExplorer::nextAccessesMemory(ThreadId t) const {
    const Event& p = exec_->pending(t);
    return (readsMemory(p.kind) || writesMemory(p.kind)) && !(mutex_ && mutex_->handles(p));
}

ThreadId GraphExplorer::nextThread(const ExecutionGraph& g) {
    const int n = exec_->maxThreads();
    for (ThreadId t = 0; t < n; ++t)
        if (canMove(g, t)) return t;
    return -1;
}

bool GraphExplorer::consistent(const ExecutionGraph& g, bool final, std::vector<Ref>& order,
                               std::span<const Ref> hint) {
    return mutex_ ? mutex_->consistent(g, final, order, hint) : co_.check(g, final, order);
}

bool GraphExplorer::canonicalCoherence(const ExecutionGraph& g) {
    bool anyPlaceholder = false;
    for (std::size_t t = 0; t < g.threads.size(); ++t)
        anyPlaceholder |= g.stuck(static_cast<ThreadId>(t));
    // Where porf (po ∪ rf ∪ spawn ∪ join, which every witness respects) orders each write of
    // co after its co-predecessor, every witness writes in g's co: the canonical one too (g is
    // consistent), and the search is not needed (fib_bench: one writer per location).
    if (!anyPlaceholder) {
        bool forced = true;
        for (std::size_t loc = 0; loc < g.co.size() && forced; ++loc) {
            const auto& c = g.co[loc];
            for (std::size_t k = 1; k < c.size() && forced; ++k) {
                if (c[k].t == c[k - 1].t) continue;  // (po: co is consistent with it)
                g.porfPrefix(c[k], scLim_);          // (scLim_ as scratch)
                forced = scLim_[static_cast<std::size_t>(c[k - 1].t)] > c[k - 1].i;
            }
        }
        if (forced) {
            ++coForced_;
            return true;
        }
    }
    scLim_.resize(g.threads.size());
    for (std::size_t t = 0; t < g.threads.size(); ++t)
        scLim_[t] = static_cast<std::int32_t>(g.threads[t].size());
    if (!sc_.check(g, scLim_, anyPlaceholder, scOrder_))
        return false;  // g is consistent: not reached
    // The witness's write order per location must be g's co (LAPOR: locks are in no co).
    coPos_.assign(g.co.size(), 0);
    for (const Ref r : scOrder_) {
        const Node& n = g.at(r);
        if (!writesMemory(n.ev.kind)) continue;
        if (mutex_ && MutexLocks::isLockEvent(n)) continue;
        const auto loc = static_cast<std::size_t>(n.ev.loc);
        const auto& c = g.co[loc];
        if (coPos_[loc] >= c.size() || !(c[coPos_[loc]] == r)) return false;
        ++coPos_[loc];
    }
    return true;
}

bool GraphExplorer::replay(const ExecutionGraph& g, std::span<const Ref> order,
                           bool stopAtFailure) {
    if (mutex_) mutex_->beforeReplay(finalReplay_);
    auto init = exec_->reset();
    events_.assign(init.begin(), init.end());
    lastReplayed_.assign(g.threads.size(), -1);
    for (Ref r : order) {
        // A replay is as long as the execution: a budget must be able to end it.
        if (rep_.stop()) return false;
        if (stopAtFailure && exec_->failed()) break;
        // A thread that fails here ran on in a relaxed (LAPOR) replay, where a fault such as
        // unlocking a mutex it does not hold is not raised: its later events never happen.
        if (exec_->status(r.t) == ThreadStatus::Failed) continue;
        const Node& n = g.at(r);
        if (n.zne) {  // SAVER: the thread blocks at its canceling decrement
            auto ev = exec_->blockThread(r.t, BlockCause::Zne);
            events_.insert(events_.end(), ev.begin(), ev.end());
            continue;
        }
        std::optional<Value> forced;
        if (n.trylock)
            forced = n.ev.rval;  // LAPOR: 0 (success) or held (failure), no source
        else if (readsMemory(n.ev.kind))
            forced = g.valueOf(n.rf, n.ev.loc);
        auto ev = exec_->step(r.t, forced);
        lastReplayed_[static_cast<std::size_t>(r.t)] = r.i;
        rep_.countEvent();
        assert(!ev.empty() && ev[0].kind == n.ev.kind && ev[0].wval == n.ev.wval);
        events_.insert(events_.end(), ev.begin(), ev.end());
    }
    return true;
}

void GraphExplorer::report(ExecutionGraph& g, std::size_t depth) {
    bool anyPlaceholder = false;
    for (ThreadId t = 0; t < static_cast<ThreadId>(g.threads.size()); ++t)
        anyPlaceholder |= g.stuck(t);
    std::span<const Ref> order = wit_.at(depth);
    if (frames_[depth].broken) {
        ++brokenDropped_;
        return;
    }
    if (anyPlaceholder || mutex_) {
        // Blocked for real only if the final values leave every placeholder blocked; otherwise
        // a revisit covers the graph where the waiter proceeds. (LAPOR: open critical sections
        // last to the end; the witness the graph was extended with, its critical sections moved
        // apart, is most often one: a partial graph's check let open ones end early.)
        if (!consistent(g, true, tmpOrder_, order)) {
            ++dropped_;
            return;
        }
        order = tmpOrder_;
    }
    finalReplay_ = true;
    if (!replay(g, order)) {  // a budget ran out: nothing is reported
        finalReplay_ = false;
        return;
    }
    if (exec_->failed()) {
        failures_.report(g, order);
        finalReplay_ = false;
        return;
    }
    finalReplay_ = false;
    const bool accepted = accept(g);
    if (rep_.stopped()) return;  // (its search may have been cut short)
    if (!accepted) {
        ++skipped_;
        // Its final state is reachable, unless the Reporter would make it an error trace (a
        // deadlock the program counts as an error, a data race).
        rep_.outcome(*exec_, events_);
        return;
    }
    rep_.maximal(Reporter::classify(*exec_), *exec_, events_);
    if (wb_ && collectOutcomes_) {  // LAPOR (wb): the other final states of the graph
        wb_->otherFinals(g, order, finalOrders_);
        finalReplay_ = true;
        for (const auto& o : finalOrders_)
            if (replay(g, o)) rep_.outcome(*exec_, events_);
        finalReplay_ = false;
    }
}

Step GraphExplorer::proceed(ExecutionGraph& g, Ref a, bool appended, std::size_t depth) {
    // LAPOR (inconsistent = explore): an extension of an inconsistent graph is inconsistent
    // (consistency is prefix-closed): no check, the addition order stays its replay order.
    if (frames_[depth].broken) {
        wit_.extend(depth, &a, g);
        frames_[depth + 1].broken = true;
        return visitChecked(g, a, depth);
    }
    // LAPOR (wb_graphs = rf): not at the end of a witness that ended a section of a's thread
    // early. (co-filter explores those graphs on: searching them costs it more than it saves.)
    if (appended && wb_) appended = MutexLocks::appendable(g, a.t, a.i, wit_, depth);
    if (appended) {
        wit_.extend(depth, &a, g);
    } else if (!consistent(g, false, freshOrder_)) {
        ++inconsistent_;
        if (!exploresInconsistent()) return {};
        if (!replayBroken(g, depth)) return {};
        return visitChecked(g, a, depth);
    } else {
        wit_.assign(depth, freshOrder_, g);
        if (!replay(g, wit_.at(depth + 1))) return {};
    }
    frames_[depth + 1].broken = frames_[depth].broken;
    // A failed thread stops; the others go on (their writes may revisit the failing read), and
    // the maximal graph is reported as an error trace.
    return visitChecked(g, a, depth);
}

bool GraphExplorer::exploresInconsistent() const {
    return exploreInconsistent_ && mutex_ && mutex_->mayExploreInconsistent();
}

bool GraphExplorer::replayBroken(const ExecutionGraph& g, std::size_t depth) {
    // No witness: the addition order (it respects po, rf of the forward reads and spawns; the
    // locks are relaxed until the final replay, which an inconsistent graph never has).
    ++brokenExplored_;
    brokenOrder_.clear();
    for (std::size_t u = 0; u < g.threads.size(); ++u)
        for (std::size_t i = 0; i < g.threads[u].size(); ++i)
            if (!g.threads[u][i].placeholder)
                brokenOrder_.push_back(
                    Ref{static_cast<std::int32_t>(u), static_cast<std::int32_t>(i)});
    std::sort(brokenOrder_.begin(), brokenOrder_.end(),
              [&](Ref x, Ref y) { return g.at(x).stamp < g.at(y).stamp; });
    wit_.assign(depth, brokenOrder_, g);
    frames_[depth + 1].broken = true;
    return replay(g, wit_.at(depth + 1));
}

Step GraphExplorer::proceedBlocked(ExecutionGraph& g, std::size_t depth) {
    frames_[depth + 1].broken = frames_[depth].broken;
    wit_.extend(depth, nullptr, g);
    return visit(g, depth + 1);
}

void GraphExplorer::reportReplayedError() { rep_.maximal(TraceStatus::Error, *exec_, events_); }

Step GraphExplorer::visitChecked(ExecutionGraph& g, Ref a, std::size_t depth) {
    std::vector<Node> removed;
    zne_.check(g, a, removed);
    if (removed.empty()) return visit(g, depth + 1);
    return visitLifted(g, depth, std::move(removed));
}

Step GraphExplorer::visitLifted(ExecutionGraph& g, std::size_t depth, std::vector<Node> removed) {
    // The unblocked threads replay up to their decrement, which they now perform.
    freshOrder_.clear();
    for (const Ref r : wit_.at(depth + 1))
        if (r.i < static_cast<std::int32_t>(g.threads[r.t].size())) freshOrder_.push_back(r);
    wit_.assign(depth, freshOrder_, g);
    return visitRestoring(g, depth, std::move(removed));
}

Step GraphExplorer::visitRestoring(ExecutionGraph& g, std::size_t depth,
                                   std::vector<Node> removed) {
    if (replay(g, wit_.at(depth + 1))) co_await visit(g, depth + 1);
    for (auto it = removed.rbegin(); it != removed.rend(); ++it) {
        g.push(it->ev.thread, *it);
        g.zneDone[it->ev.thread].pop_back();
    }
}

Step GraphExplorer::visit(ExecutionGraph& g, std::size_t depth) {
    // An event with a single child whose only work after it is to remove itself (a read with
    // one source, a lock or await that can only stay blocked, a spawn or join) is added here, in
    // a loop, and the exploration goes on at the next depth without a step: the chain of them
    // ends where the exploration ends or an event branches (a step). Their removals wait in
    // undo_ and are done when that step ends (Step::deferUndo), or here if there is none.
    std::uint32_t added = 0;
    Step next;
    ensureDepth(depth);
    const bool broken = frames_[depth].broken;
    for (;; ++depth) {
        if (rep_.stop()) break;
        ensureDepth(depth);
        frames_[depth].broken = broken;
        // jobs > 1: a worker is idle, or this one splits its frontier: this subtree is a task
        // (one load and two relaxed loads when neither). (Not the subtree of the task itself.)
        if (pool_ && depth > taskDepth_ && !broken && pool_->hungry(worker_) &&
            pool_->donate(g, wit_.at(depth)))
            break;
        witness_ = wit_.at(depth);
        const ThreadId t = nextThread(g);
        if (t < 0) {
            report(g, depth);
            break;
        }
        const Event p = exec_->pending(t);
        if (p.kind == EventKind::FetchAdd && p.zne) {
            if (auto blocked = zne_.add(g, t, p, depth)) {
                next = std::move(*blocked);
                break;
            }
        }
        // LAPOR: an unlock has one child, at the end of the witness (no source, no co): added
        // here, as a spawn is. Locks and trylocks branch (MutexLocks).
        const bool unlock =
            mutex_ && p.kind == EventKind::Unlock &&
            (!wb_ || MutexLocks::appendable(g, t, static_cast<std::int32_t>(g.threads[t].size()),
                                            wit_, depth));
        if (unlock && !mutex_->unlockOk(g, t, p.loc)) break;  // a dead end
        if (mutex_ && !unlock && mutex_->handles(p)) {
            next = mutex_->add(g, t, p, depth);
            break;
        }
        // LAPOR (wb_graphs = rf): a plain read with one source, read by appending, is added
        // here too (most reads of a long single-threaded loop); every other memory event is
        // WbGraphs's step.
        std::optional<Ref> wbOnly;
        if (wb_ && !unlock && WbGraphs::handles(p)) {
            wbOnly = wb_->onlySource(g, t, p, depth);
            if (!wbOnly) {
                next = wb_->add(g, t, p, depth);
                break;
            }
        }
        const Ref a{t, static_cast<std::int32_t>(g.threads[t].size())};
        Node n;
        if (wbOnly) {
            if (rep_.stop()) break;
            n.rf = *wbOnly;
            n.ev = exec_->step(t, g.valueOf(n.rf, p.loc))[0];
            rep_.countEvent();
        } else if (unlock) {
            ensureLocation(g, p.loc, *info_);
            n.ev = exec_->step(t)[0];
            rep_.countEvent();
        } else if (readsMemory(p.kind)) {
            ensureLocation(g, p.loc, *info_);
            const int m = static_cast<int>(g.co[static_cast<std::size_t>(p.loc)].size());
            // A write co-before one that happens before a (porf) cannot be its source (fr cycle).
            const int kmin = coFloor(g, a, p.loc);
            if (p.kind == EventKind::Read && kmin == m - 1) {
                // One source, the co-last write (reading it appends to the witness).
                if (rep_.stop()) break;
                n.rf = g.coAt(p.loc, kmin);
                n.ev = exec_->step(t, g.valueOf(n.rf, p.loc))[0];
                rep_.countEvent();
            } else if (hasCondition(p.kind) && !anyAdmitted(g, p, kmin)) {
                // No write admits it: it stays blocked for good (a placeholder, no source).
                bool stop = false;
                for (int k = m - 1; k >= kmin && !stop; --k) stop = rep_.stop();
                if (stop) break;
                n.ev = p;
                n.placeholder = true;
                n.stamp = n.wstamp = g.nextStamp++;
                g.push(t, n);
                undo_.push_back({&g, t});
                ++added;
                wit_.extend(depth, nullptr, g);
                continue;
            } else {
                next = addRead(g, t, p, depth, kmin);
                break;
            }
        } else if (writesMemory(p.kind)) {
            next = addWrite(g, t, depth);
            break;
        } else {  // spawn or join: consistent appended at the end of the witness
            n.ev = exec_->step(t)[0];
            rep_.countEvent();
        }
        n.stamp = n.wstamp = g.nextStamp++;
        g.push(t, n);
        undo_.push_back({&g, t});
        ++added;
        wit_.extend(depth, &a, g);
        // (visitChecked: if a's zne invalidations lift markers, the rest is a step.)
        std::vector<Node> removed;
        zne_.check(g, a, removed);
        if (!removed.empty()) {
            frames_[depth + 1].broken = broken;
            next = visitLifted(g, depth, std::move(removed));
            break;
        }
    }
    if (added) {
        if (next)
            next.deferUndo(added);
        else
            undoPlain(added);
    }
    return next;
}

bool GraphExplorer::anyAdmitted(const ExecutionGraph& g, const Event& p, int kmin) const {
    const int m = static_cast<int>(g.co[static_cast<std::size_t>(p.loc)].size());
    for (int k = m - 1; k >= kmin; --k)
        if (admits(p, g.valueOf(g.coAt(p.loc, k), p.loc))) return true;
    return false;
}

void GraphExplorer::undoPlain(std::uint32_t n) {
    for (; n > 0; --n) {
        const auto [g, t] = undo_.back();
        undo_.pop_back();
        g->pop(t);
        --g->nextStamp;
    }
}

Step GraphExplorer::addWrite(ExecutionGraph& g, ThreadId t, std::size_t depth) {
    auto ev = exec_->step(t);
    rep_.countEvent();
    const Ref a{t, static_cast<std::int32_t>(g.threads[t].size())};
    Node n;
    n.ev = ev[0];
    n.stamp = n.wstamp = g.nextStamp++;
    const LocId loc = n.ev.loc;
    ensureLocation(g, loc, *info_);
    g.push(t, n);
    // g.co may grow (ensureLoc) during the exploration below: no reference is kept.
    auto co = [&]() -> std::vector<Ref>& { return g.co[static_cast<std::size_t>(loc)]; };
    const int m = static_cast<int>(co().size());
    // Every place in co, co-last first (consistent appended to the witness: no replay), but
    // not before a write that happens before a (a co cycle).
    const int lo = coFloor(g, a, loc) + 1;
    for (int pos = m; pos >= lo && !rep_.stopped(); --pos) {
        if (g.rmwAfter(loc, pos - 1)) continue;
        co().insert(co().begin() + pos, a);
        co_await proceed(g, a, pos == m, depth);
        co().erase(co().begin() + pos);
    }
    if (!rep_.stopped()) co_await revisits(g, a, depth);
    g.pop(t);
    --g.nextStamp;
}

Step GraphExplorer::addRead(ExecutionGraph& g, ThreadId t, Event p, std::size_t depth, int kmin) {
    const LocId loc = p.loc;
    const Ref a{t, static_cast<std::int32_t>(g.threads[t].size())};
    auto co = [&]() -> std::vector<Ref>& { return g.co[static_cast<std::size_t>(loc)]; };
    const int m = static_cast<int>(co().size());
    // How many children: a snapshot to come back to is taken only if there are several (on a
    // long execution most reads have one; a snapshot per depth costs memory per depth).
    int children = hasCondition(p.kind) ? 1 : 0;  // the placeholder
    for (int k = m - 1; k >= kmin && children < 2; --k)
        if (!hasCondition(p.kind) || admits(p, g.valueOf(g.coAt(loc, k), loc))) ++children;
    Snapshot& snap = frames_[depth].snap;
    if (children > 1) exec_->save(snap);
    // The value a successful CAS would write (needed when a revisit flips its outcome).
    Value casWval = 0;
    if (p.kind == EventKind::CasSuccess || p.kind == EventKind::CasFailure) {
        Snapshot& s = children > 1 ? snap : scratchSnap_;
        if (children <= 1) exec_->save(s);
        auto ev = exec_->step(t, p.operand);
        casWval = ev[0].wval;
        exec_->restore(s);
    }
    bool first = true;
    // Sources in co order from the last (reading it appends to the witness: no replay).
    for (int k = m - 1; k >= kmin && !rep_.stop(); --k) {
        const Ref w = g.coAt(loc, k);
        const Value v = g.valueOf(w, loc);
        if (hasCondition(p.kind) && !admits(p, v)) continue;
        if (!first) exec_->restore(snap);
        first = false;
        auto ev = exec_->step(t, v);
        rep_.countEvent();
        Node n;
        n.ev = ev[0];
        n.rf = w;
        n.stamp = n.wstamp = g.nextStamp++;
        n.casWval = casWval;
        const bool isWrite = writesMemory(n.ev.kind);
        g.push(t, n);
        if (isWrite && g.rmwAfter(loc, k)) {
            // w is already read by another read-modify-write: inconsistent (atomicity), but
            // revisiting that one (it then reads from this) may repair it.
            if (!rep_.stopped()) co_await revisits(g, a, depth);
            g.pop(t);
            --g.nextStamp;
            continue;
        }
        if (isWrite) co().insert(co().begin() + (k + 1), a);
        co_await proceed(g, a, k == m - 1, depth);
        if (isWrite && !rep_.stopped()) co_await revisits(g, a, depth);
        if (isWrite) co().erase(co().begin() + (k + 1));
        g.pop(t);
        --g.nextStamp;
    }
    // A lock or await may also stay blocked for good (a placeholder without a source).
    if (hasCondition(p.kind) && !rep_.stopped()) {
        if (!first) exec_->restore(snap);
        Node n;
        n.ev = p;
        n.placeholder = true;
        n.stamp = n.wstamp = g.nextStamp++;
        n.casWval = casWval;
        g.push(t, n);
        wit_.extend(depth, nullptr, g);
        frames_[depth + 1].broken = frames_[depth].broken;
        co_await visit(g, depth + 1);
        g.pop(t);
        --g.nextStamp;
    }
}

int GraphExplorer::coFloor(ExecutionGraph& g, Ref a, LocId loc) {
    const auto& c = g.co[static_cast<std::size_t>(loc)];
    if (c.empty()) return -1;
    // porf(a) without a's own source (a may not be added yet).
    if (static_cast<std::size_t>(a.i) == g.threads[static_cast<std::size_t>(a.t)].size())
        g.porfBeforeNext(a.t, floorPorf_);
    else
        g.porfPrefix(a, floorPorf_);
    for (int k = static_cast<int>(c.size()) - 1; k >= 0; --k) {
        const Ref w = c[static_cast<std::size_t>(k)];
        if (!(w == a) && w.i < floorPorf_[static_cast<std::size_t>(w.t)]) return k;
    }
    return -1;
}

bool GraphExplorer::maximallyAdded(const ExecutionGraph& g, Ref e, Ref a,
                                   const std::vector<std::int32_t>& porf) {
    const Node& n = g.at(e);
    if (mutex_)  // LAPOR's locks, unlocks and trylocks
        if (const auto m = MutexLocks::maximallyAdded(n, e)) return *m;
    if (wb_)
        if (const auto m = wb_->maximallyAdded(g, e, a, porf)) return *m;
    if (!readsMemory(n.ev.kind) && !writesMemory(n.ev.kind)) return true;
    // Did write x exist when stamp s was handed out (or is it in porf(a))?
    auto existed = [&](Ref x, std::uint64_t s) {
        return x.t == kInitThread || g.at(x).wstamp <= s ||
               x.i < porf[static_cast<std::size_t>(x.t)];
    };
    const LocId loc = n.ev.loc;
    const auto& c = g.co[static_cast<std::size_t>(loc)];
    if (readsMemory(n.ev.kind)) {
        Ref m = kInitRef;
        for (std::size_t k = c.size(); k-- > 0;)
            if (!(c[k] == e) && existed(c[k], n.stamp)) {
                m = c[k];
                break;
            }
        const bool admitted = !hasCondition(n.ev.kind) || admits(n.ev, g.valueOf(m, loc));
        if (n.placeholder) return !admitted;
        if (!admitted || !(n.rf == m)) return false;
    }
    if (writesMemory(n.ev.kind) && !n.placeholder) {
        const int idx = g.coIndex(e, loc);
        for (std::size_t k = static_cast<std::size_t>(idx + 1); k < c.size(); ++k)
            if (existed(c[k], n.wstamp)) return false;
    }
    return true;
}

bool GraphExplorer::revisitKeep(const ExecutionGraph& g, Ref r, Ref a,
                                const std::vector<std::int32_t>& porf,
                                std::vector<std::int32_t>& keep) {
    ++revisitsTried_;
    const std::size_t T = g.threads.size();
    keep.resize(T);
    const std::uint64_t s = g.at(r).stamp;
    // K = {e ≤ r} ∪ porf(a) ∪ {a}, per thread a prefix (stamps grow along each thread).
    for (std::size_t w = 0; w < T; ++w) {
        const auto& th = g.threads[w];
        const auto it = std::upper_bound(
            th.begin(), th.end(), s, [](std::uint64_t x, const Node& n) { return x < n.stamp; });
        keep[w] = std::max(static_cast<std::int32_t>(it - th.begin()), porf[w]);
    }
    keep[static_cast<std::size_t>(a.t)] = a.i + 1;
    auto kept = [&](Ref x) {
        return x.t == kInitThread || x.i < keep[static_cast<std::size_t>(x.t)];
    };
    // Kept events read only kept events, and not r (a revisited read-modify-write would change
    // what they read, a revisited trylock what they observe: that graph has another parent).
    for (std::size_t w = 0; w < T; ++w)
        for (std::int32_t k = 0; k < keep[w]; ++k) {
            const Node& q = g.threads[w][static_cast<std::size_t>(k)];
            if (!q.placeholder && readsMemory(q.ev.kind) && (!kept(q.rf) || q.rf == r))
                return false;
            // (LAPOR: a blocked lock's source is the section it waits on.)
            if (q.placeholder && mutex_ && q.ev.kind == EventKind::Lock && q.rf.t != kInitThread &&
                (!kept(q.rf) || q.rf == r))
                return false;
            if (rep_.stop()) return false;  // (a candidate costs O(events): ask)
        }
    // Maximality of r and of every deleted event.
    if (!maximallyAdded(g, r, a, porf)) return false;
    for (std::size_t w = 0; w < T; ++w)
        for (std::size_t k = static_cast<std::size_t>(keep[w]); k < g.threads[w].size(); ++k)
            if (rep_.stop() ||
                !maximallyAdded(g, Ref{static_cast<std::int32_t>(w), static_cast<std::int32_t>(k)},
                                a, porf))
                return false;
    return true;
}

bool GraphExplorer::revisitReady(ExecutionGraph& h, std::size_t depth) {
    frames_[depth + 1].broken = false;
    if (!consistent(h, false, freshOrder_)) {
        ++inconsistent_;
        return exploresInconsistent() && replayBroken(h, depth);
    }
    ++revisitsDone_;
    wit_.assign(depth, freshOrder_, h);
    return replay(h, wit_.at(depth + 1));
}

Step GraphExplorer::revisits(ExecutionGraph& g, Ref a, std::size_t depth) {
    auto& porf = frames_[depth].porf;
    g.porfPrefix(a, porf);
    // Most writes revisit nothing: they are searched here, without a step's frame.
    Ref r{0, porf[0]};
    if (!nextRevisit(g, a, depth, r)) return {};
    return revisitsFrom(g, a, depth, r);
}

bool GraphExplorer::nextRevisit(const ExecutionGraph& g, Ref a, std::size_t depth, Ref& r) {
    const auto& porf = frames_[depth].porf;
    auto& keep = frames_[depth].keep;
    const Node& an = g.at(a);
    const LocId loc = an.ev.loc;
    const Value v = an.ev.wval;
    const std::size_t T = g.threads.size();
    for (auto u = static_cast<std::size_t>(r.t); u < T && !rep_.stopped(); ++u) {
        const auto from = static_cast<std::size_t>(std::cmp_equal(u, r.t) ? r.i : porf[u]);
        for (std::size_t i = from; i < g.threads[u].size() && !rep_.stop(); ++i) {
            const Ref c{static_cast<std::int32_t>(u), static_cast<std::int32_t>(i)};
            if (c == a) continue;
            const Node& rn = g.at(c);
            if (rn.ev.loc != loc || !readsMemory(rn.ev.kind)) continue;
            // LAPOR: locks and trylocks have no source (a write to the mutex's memory, e.g. the
            // end of its frame, revisits nothing).
            if (mutex_ && MutexLocks::isLockEvent(rn)) continue;
            if (hasCondition(rn.ev.kind) && !admits(rn.ev, v)) continue;
            if (!revisitKeep(g, c, a, porf, keep)) continue;
            r = c;
            return true;
        }
    }
    return false;
}

Step GraphExplorer::revisitsFrom(ExecutionGraph& g, Ref a, std::size_t depth, Ref r) {
    const LocId loc = g.at(a).ev.loc;
    const Value v = g.at(a).ev.wval;
    const bool aIsRmw = readsMemory(g.at(a).ev.kind);
    // r, then each next read a revisits (nextRevisit leaves what to keep in frames_[depth]).
    for (bool found = true; found; ++r.i, found = nextRevisit(g, a, depth, r)) {
        // The revisited graph (the kept prefix of g; deleted positions' zne is new again).
        ExecutionGraph& h = revisitGraph(depth);
        h.assignPrefix(g, frames_[depth].keep);
        {
            auto& cl = h.co[static_cast<std::size_t>(loc)];
            std::erase_if(cl, [&](Ref x) { return x == r || x == a; });
        }
        Node& hr = h.at(r);
        hr.ev = withReadValue(hr, v);
        hr.rf = a;
        hr.placeholder = false;
        h.refreshView(r);
        // SAVER: a decrement that runs because a zne marker was lifted needs what lifted it;
        // a revisit that drops it (or makes it read a later write) would keep an
        // iteration nobody observed, a graph whose every state the graph without that
        // iteration has, and chains of such revisits make a zne loop with observers
        // endless. Such graphs are left out.
        if (!zne_.justifiedRevisit(h)) continue;
        const bool rWrites = writesMemory(hr.ev.kind);
        if (rWrites) hr.wstamp = h.nextStamp++;  // its write part comes after a
        auto co = [&]() -> std::vector<Ref>& { return h.co[static_cast<std::size_t>(loc)]; };
        // a's place in co: fixed after its source for a read-modify-write, any otherwise.
        // (Not before a write that happens before a: a co cycle, an inconsistent graph.)
        int lo = 0, hi = static_cast<int>(co().size());
        if (aIsRmw)
            lo = hi = h.coIndex(g.at(a).rf, loc) + 1;
        else
            lo = coFloor(h, a, loc) + 1;
        for (int pos = hi; pos >= lo && !rep_.stopped(); --pos) {
            if (!aIsRmw && h.rmwAfter(loc, pos - 1)) continue;
            co().insert(co().begin() + pos, a);
            if (rWrites) co().insert(co().begin() + pos + 1, r);
            if (revisitReady(h, depth)) {
                co_await visitChecked(h, r, depth);
                // r's write part was (re-)added after a: it revisits in turn.
                if (rWrites && !rep_.stopped()) co_await revisits(h, r, depth + 1);
            }
            co().erase(co().begin() + pos, co().begin() + pos + (rWrites ? 2 : 1));
        }
        if (rep_.stopped()) break;
    }
    releaseRevisitGraph(depth);
}

}  // namespace porlab::graph
