// SPDX-License-Identifier: MIT
#include "porlab/explore/graph/GraphExplorer.hpp"

#include <algorithm>
#include <cassert>
#include <optional>

#include "porlab/core/Errors.hpp"
#include "porlab/explore/graph/Parallel.hpp"

namespace porlab::graph {

namespace {
// A location of the graph with its initial value. A C program creates locations as they are first
// used (a malloc'd block's start uninitialised, a thread-local's copy with its initialiser); the
// program's table has the value from then on, which the table at the explorer's start did not.
void ensureLocation(ExecutionGraph& g, LocId loc, const ProgramInfo& info) {
    g.ensureLoc(loc);
    const auto i = static_cast<std::size_t>(loc);
    if (i < info.initialValues.size() && i < g.initial.size()) g.initial[i] = info.initialValues[i];
}
}  // namespace

void GraphExplorer::useMutexLocks() {
    mutexLocks_ = true;
    sc_.mutexLocks = true;
    relaxedReplay_ = exec_->setRelaxedLocks(true);
}

GraphExplorer::GraphExplorer(const Program& p, const ExploreOptions& o, ExploreResult& r)
    : exec_(p.newExecution()), rep_(p, o, r), result_(r), info_(p.info()), collectOutcomes_(o.collectOutcomes) {
    // The consistency searches can run long between two events: they ask the budgets too.
    co_.interrupt = [this] { return rep_.stop(); };
    sc_.interrupt = [this] { return rep_.stop(); };
    root_.init(exec_->maxThreads(), p.info()->initialValues);
    deadlockIsError_ = p.info()->deadlockIsError;
    if (auto it = o.params.find("zne"); it != o.params.end()) {
        if (it->second == "strict") zneMode_ = ZneMode::Strict;
        else if (it->second == "paper") zneMode_ = ZneMode::Paper;
        else if (it->second == "off") zneMode_ = ZneMode::Off;
        else throw InputError("option zne must be strict, paper or off (got '" + it->second + "')");
    }
}

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
        wit_.reset();
        visit(root_, 0);
    }
}

void GraphExplorer::runTask(ExecutionGraph& g, std::span<const Ref> order) {
    // The subtree of visit(g, d) depends only on g, its witness and the program state the
    // witness replays to: rebuild the state, then visit as the donor would have.
    ensureDepth(1);
    taskDepth_ = 1;
    wit_.reset();
    wit_.assign(0, order);
    if (replay(g, wit_.at(1))) visit(g, 1);
}

void GraphExplorer::finish() {
    result_.stats["graphs_not_reported"] = static_cast<double>(skipped_);
    result_.stats["revisits_tried"] = static_cast<double>(revisitsTried_);
    result_.stats["revisits"] = static_cast<double>(revisitsDone_);
    result_.stats["inconsistent"] = static_cast<double>(inconsistent_);
    result_.stats["blocked_dropped"] = static_cast<double>(dropped_);
    result_.stats["consistency_checks"] = static_cast<double>(co_.checks);
    if (zneBlocked_) {
        result_.stats["zne_blocked"] = static_cast<double>(zneBlocked_);
        result_.stats["zne_invalidated"] = static_cast<double>(zneInvalidated_);
        result_.stats["zne_unjustified_revisits"] = static_cast<double>(zneUnjustified_);
    }
    if (sc_.searches) {
        result_.stats["sc_searches"] = static_cast<double>(sc_.searches);
        result_.stats["sc_states"] = static_cast<double>(sc_.states);
    }
    if (mutexLocks_) {
        result_.stats["mutex_search_states"] = static_cast<double>(co_.mutexStates);
        result_.stats["no_replay_order"] = static_cast<double>(noReplayOrder_);
    }
    addStats();
    rep_.finish();
}

bool GraphExplorer::canMove(const ExecutionGraph& g, ThreadId t) const {
    if (exec_->status(t) != ThreadStatus::Ready || g.stuck(t)) return false;
    const Event& p = exec_->pending(t);
    return p.kind != EventKind::Join || exec_->status(p.aux) == ThreadStatus::Finished;
}

ThreadId GraphExplorer::nextThread(const ExecutionGraph& g) {
    const int n = exec_->maxThreads();
    for (ThreadId t = 0; t < n; ++t)
        if (canMove(g, t)) return t;
    return -1;
}

bool GraphExplorer::consistent(const ExecutionGraph& g, bool final, std::vector<Ref>& order) {
    if (!mutexLocks_) return co_.check(g, final, order);
    // LAPOR: a maximal graph needs a real witness. A partial one is consistent if some witness
    // keeps critical sections apart when the open ones end after their last event so far (a
    // completion closes them); it is then replayed in an order that only respects program
    // order, spawn/join and mutual exclusion (reads are forced, so memory does not matter).
    openEnded_.assign(g.threads.size(), !final);
    if (!co_.checkMutex(g, final, openEnded_, order)) return false;
    if (final || relaxedReplay_) return true;
    // The program cannot relax its locks: find an order it can replay.
    openEnded_.assign(g.threads.size(), false);
    if (co_.checkMutex(g, false, openEnded_, order, /*memoryEdges=*/false)) return true;
    ++noReplayOrder_;
    return false;
}

bool GraphExplorer::canonicalCoherence(const ExecutionGraph& g) {
    bool anyPlaceholder = false;
    scLim_.resize(g.threads.size());
    for (std::size_t t = 0; t < g.threads.size(); ++t) {
        scLim_[t] = static_cast<std::int32_t>(g.threads[t].size());
        anyPlaceholder |= g.stuck(static_cast<ThreadId>(t));
    }
    if (!sc_.check(g, scLim_, anyPlaceholder, scOrder_)) return false;  // g is consistent: not reached
    // The witness's write order per location must be g's co (LAPOR: locks are in no co).
    coPos_.assign(g.co.size(), 0);
    for (const Ref r : scOrder_) {
        const Node& n = g.at(r);
        if (!writesMemory(n.ev.kind)) continue;
        if (mutexLocks_ && (n.ev.kind == EventKind::Lock || n.ev.kind == EventKind::Unlock || n.trylock)) continue;
        const auto loc = static_cast<std::size_t>(n.ev.loc);
        const auto& c = g.co[loc];
        if (coPos_[loc] >= c.size() || !(c[coPos_[loc]] == r)) return false;
        ++coPos_[loc];
    }
    return true;
}

bool GraphExplorer::holdsLock(const ExecutionGraph& g, ThreadId t) { return g.lockBalance(t) > 0; }

bool GraphExplorer::replay(const ExecutionGraph& g, std::span<const Ref> order,
                           bool stopAtFailure) {
    if (relaxedReplay_) exec_->setRelaxedLocks(!finalReplay_);
    auto init = exec_->reset();
    events_.assign(init.begin(), init.end());
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
        if (n.trylock) forced = n.ev.rval;  // LAPOR: 0 (success) or held (failure), no source
        else if (readsMemory(n.ev.kind)) forced = g.valueOf(n.rf, n.ev.loc);
        auto ev = exec_->step(r.t, forced);
        rep_.countEvent();
        assert(!ev.empty() && ev[0].kind == n.ev.kind && ev[0].wval == n.ev.wval);
        events_.insert(events_.end(), ev.begin(), ev.end());
    }
    return true;
}

void GraphExplorer::report(ExecutionGraph& g, std::size_t depth) {
    bool anyPlaceholder = false;
    for (ThreadId t = 0; t < static_cast<ThreadId>(g.threads.size()); ++t) anyPlaceholder |= g.stuck(t);
    std::span<const Ref> order = wit_.at(depth);
    if (anyPlaceholder || mutexLocks_) {
        // Blocked for real only if the final values leave every placeholder blocked; otherwise
        // a revisit covers the graph where the waiter proceeds. (LAPOR: open critical sections
        // last to the end.)
        if (!consistent(g, true, tmpOrder_)) {
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
        reportErrors(g, order);
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
}

void GraphExplorer::closeFailurePrefix(const ExecutionGraph& g, std::vector<std::int32_t>& upto) {
    // porf-closed (upto comes from porfPrefix) and closed under the co-predecessor of every
    // write: what a write overwrites can decide whether it faults (a write to a dead frame or a
    // freed block), and each write then overwrites the same write as in the whole graph.
    for (bool changed = true; changed;) {
        changed = false;
        for (std::size_t t = 0; t < g.threads.size(); ++t)
            for (std::int32_t i = 0; i < upto[t]; ++i) {
                const Node& n = g.threads[t][static_cast<std::size_t>(i)];
                if (n.placeholder || !writesMemory(n.ev.kind) || n.ev.loc < 0) continue;
                const int k = g.coIndex(Ref{static_cast<std::int32_t>(t), i}, n.ev.loc);
                if (k <= 0) continue;
                const Ref w = g.coAt(n.ev.loc, k - 1);
                if (w.i < upto[static_cast<std::size_t>(w.t)]) continue;
                includePorf(g, w, upto);
                changed = true;
            }
    }
}

void GraphExplorer::includePorf(const ExecutionGraph& g, Ref w, std::vector<std::int32_t>& upto) {
    g.porfPrefix(w, porfTmp_);
    porfTmp_[static_cast<std::size_t>(w.t)] = w.i + 1;
    for (std::size_t u = 0; u < upto.size(); ++u) upto[u] = std::max(upto[u], porfTmp_[u]);
}

bool GraphExplorer::mutexPrefixOrder(const ExecutionGraph& g, std::vector<std::int32_t>& upto,
                                     std::vector<Ref>& out) {
    // LAPOR: the failing prefix has its own witness (the whole graph's may order its critical
    // sections otherwise than the prefix needs). A thread cut short is open-ended: its open
    // critical sections end after its last event of the prefix. The replay cannot release a
    // mutex without its unlock, so a section that such a witness releases implicitly before
    // another lock of its mutex gets its unlock (and what that needs) added, until none does.
    const std::size_t T = g.threads.size();
    for (;;) {
        ExecutionGraph& sub = subGraph_;
        sub.assignPrefix(g, upto);
        openEnded_.assign(T, false);
        for (std::size_t t = 0; t < T; ++t) openEnded_[t] = static_cast<std::size_t>(upto[t]) < g.threads[t].size();
        if (!co_.checkMutex(sub, false, openEnded_, out)) return false;
        // Simulate the witness: a lock of a mutex held by a section without its unlock.
        std::vector<std::pair<LocId, ThreadId>> held;  // (mutex, holder)
        std::optional<Ref> need;
        for (const Ref r : out) {
            const Node& n = g.at(r);
            const bool acquires = n.ev.kind == EventKind::Lock || (n.trylock && n.ev.kind == EventKind::CasSuccess);
            if (n.ev.kind == EventKind::Unlock)
                std::erase_if(held, [&](const auto& h) { return h.first == n.ev.loc && h.second == r.t; });
            if (!acquires) continue;
            for (const auto& [m, u] : held) {
                if (m != n.ev.loc || u == r.t) continue;
                // u's section is open in the prefix: its next unlock of m joins it.
                const auto& th = g.threads[static_cast<std::size_t>(u)];
                for (auto k = static_cast<std::size_t>(upto[static_cast<std::size_t>(u)]); k < th.size() && !need; ++k)
                    if (!th[k].placeholder && th[k].ev.kind == EventKind::Unlock && th[k].ev.loc == m)
                        need = Ref{u, static_cast<std::int32_t>(k)};
                if (!need) return false;  // never released: not a witness the program can run
                break;
            }
            if (need) break;
            held.emplace_back(n.ev.loc, r.t);
        }
        if (!need) return true;
        includePorf(g, *need, upto);
        closeFailurePrefix(g, upto);
    }
}

void GraphExplorer::reportErrors(const ExecutionGraph& g, std::span<const Ref> order) {
    // A thread failed right after its last event f (or, failing before its first event, after
    // the spawn that started it). The failure is reachable iff no other failing event is in the
    // prefix it needs: porf(f), closed under co-predecessors of writes (and, LAPOR, the unlocks
    // its witness needs; see mutexPrefixOrder). A witness of that prefix ends with this failure
    // alone; it is replayed (and stops at the failure) for the error trace.
    const auto T = static_cast<ThreadId>(g.threads.size());
    failing_.clear();
    for (ThreadId t = 0; t < T; ++t) {
        if (exec_->status(t) != ThreadStatus::Failed) continue;
        Ref f{t, static_cast<std::int32_t>(g.threads[t].size()) - 1};
        if (f.i < 0) {
            f = kInitRef;
            for (ThreadId u = 0; u < T; ++u)
                for (std::size_t i = 0; i < g.threads[u].size(); ++i)
                    if (g.threads[u][i].ev.kind == EventKind::Spawn && g.threads[u][i].ev.aux == t)
                        f = Ref{u, static_cast<std::int32_t>(i)};
            if (f.t == kInitThread) continue;
        }
        failing_.push_back(f);
    }
    std::vector<std::int32_t> upto;
    for (const Ref f : failing_) {
        g.porfPrefix(f, upto);
        upto[static_cast<std::size_t>(f.t)] = f.i + 1;
        closeFailurePrefix(g, upto);
        auto alone = [&] {
            for (const Ref o : failing_)
                if (!(o == f) && o.i < upto[static_cast<std::size_t>(o.t)]) return false;
            return true;
        };
        if (!alone()) continue;
        tmpOrder2_.clear();
        if (mutexLocks_) {
            if (!mutexPrefixOrder(g, upto, tmpOrder2_) || !alone()) continue;
        } else {
            for (const Ref r : order)
                if (r.i < upto[static_cast<std::size_t>(r.t)]) tmpOrder2_.push_back(r);
        }
        // The same failing prefix (events and reads-from) is part of many maximal graphs:
        // report it once.
        std::uint64_t h1 = 0x243f6a8885a308d3ULL, h2 = 0x13198a2e03707344ULL;
        auto add = [&](std::uint64_t w) {
            h1 = (h1 ^ w) * 0x100000001b3ULL + 0x9e3779b97f4a7c15ULL;
            h2 = ((h2 + w) * 0xd6e8feb86659fd93ULL) ^ (h2 >> 29);
        };
        for (std::size_t t = 0; t < g.threads.size(); ++t) {
            add(0xfffffffffULL + t);
            for (std::int32_t i = 0; i < upto[t]; ++i) {
                const Node& n = g.threads[t][static_cast<std::size_t>(i)];
                add((static_cast<std::uint64_t>(n.ev.kind) << 40) ^ static_cast<std::uint32_t>(n.ev.loc));
                add(static_cast<std::uint64_t>(n.ev.rval));
                add(static_cast<std::uint64_t>(n.ev.wval));
                add((static_cast<std::uint64_t>(static_cast<std::uint32_t>(n.rf.t)) << 32) | static_cast<std::uint32_t>(n.rf.i));
            }
        }
        if (pool_ ? !pool_->firstFailure(h1, h2) : !errorsSeen_.insert({h1, h2}).second) continue;
        if (!replay(g, tmpOrder2_, /*stopAtFailure=*/true)) return;
        rep_.maximal(TraceStatus::Error, *exec_, events_);
        if (rep_.stopped()) return;
    }
}

void GraphExplorer::proceed(ExecutionGraph& g, Ref a, bool appended, std::size_t depth) {
    if (appended) {
        wit_.extend(depth, &a);
    } else {
        if (!consistent(g, false, freshOrder_)) {
            ++inconsistent_;
            return;
        }
        wit_.assign(depth, freshOrder_);
        if (!replay(g, wit_.at(depth + 1))) return;
    }
    // A failed thread stops; the others go on (their writes may revisit the failing read), and
    // the maximal graph is reported as an error trace.
    visitChecked(g, a, depth);
}

void GraphExplorer::visitChecked(ExecutionGraph& g, Ref a, std::size_t depth) {
    std::vector<Node> removed;
    checkZne(g, a, removed);
    if (removed.empty()) {
        visit(g, depth + 1);
        return;
    }
    // The unblocked threads replay up to their decrement, which they now perform.
    freshOrder_.clear();
    for (const Ref r : wit_.at(depth + 1))
        if (r.i < static_cast<std::int32_t>(g.threads[r.t].size())) freshOrder_.push_back(r);
    wit_.assign(depth, freshOrder_);
    if (replay(g, wit_.at(depth + 1))) visit(g, depth + 1);
    for (auto it = removed.rbegin(); it != removed.rend(); ++it) {
        g.push(it->ev.thread, *it);
        g.zneDone[it->ev.thread].pop_back();
    }
}

void GraphExplorer::checkZne(ExecutionGraph& g, Ref a, std::vector<Node>& removed) {
    bool any = false;
    for (const auto& th : g.threads) any = any || (!th.empty() && th.back().zne);
    if (!any) return;
    const Node e = g.at(a);
    if (e.placeholder || e.zne) return;
    // (i) a write to the location other than a fetch-and-add: it could come between the
    // increment and the decrement, which then no longer cancel.
    const bool foreign = writesMemory(e.ev.kind) && e.ev.kind != EventKind::FetchAdd;
    // (ii) a read of the increment by another thread. Algorithm 2 waits for a second read of
    // it, but one read is enough to lose states: the reader may act on the intermediate value
    // (a failed CAS or fetch-and-add) while the blocked thread, in the original program, goes on
    // after its decrement. tests/python/test_saver.py::test_one_observer_of_the_increment
    // has such a program; so (zne=strict) the marker is invalidated as soon as another thread
    // reads w. zne=paper keeps Algorithm 2: only when some other read also reads rf(e).
    if (!foreign && !readsMemory(e.ev.kind)) return;
    if (!foreign && zneMode_ == ZneMode::Paper) {
        bool shared = false;
        for (std::size_t u = 0; u < g.threads.size() && !shared; ++u)
            for (std::size_t i = 0; i < g.threads[u].size() && !shared; ++i) {
                const Node& n = g.threads[u][i];
                shared = !(Ref{static_cast<std::int32_t>(u), static_cast<std::int32_t>(i)} == a) &&
                         !n.placeholder && !n.zne && readsMemory(n.ev.kind) && n.ev.loc == e.ev.loc &&
                         n.rf == e.rf;
            }
        if (!shared) return;
    }
    for (std::size_t u = 0; u < g.threads.size(); ++u) {
        auto& th = g.threads[u];
        if (th.empty() || !th.back().zne || th.back().ev.loc != e.ev.loc) continue;
        if (!foreign && (!(th.back().rf == e.rf) ||
                         (zneMode_ == ZneMode::Strict && static_cast<std::size_t>(a.t) == u)))
            continue;
        g.zneDone[u].push_back(static_cast<std::int32_t>(th.size()) - 1);
        removed.push_back(th.back());
        g.pop(static_cast<ThreadId>(u));
        ++zneInvalidated_;
    }
}

bool GraphExplorer::zneJustified(const ExecutionGraph& g) const {
    for (std::size_t w = 0; w < g.threads.size(); ++w) {
        const auto& th = g.threads[w];
        for (const std::int32_t p : g.zneDone[w]) {
            if (static_cast<std::size_t>(p) >= th.size()) continue;
            const LocId loc = th[static_cast<std::size_t>(p)].ev.loc;
            Ref inc{kInitThread, 0};  // the increment the decrement at p cancels
            for (std::int32_t k = p - 1; k >= 0 && inc.t == kInitThread; --k)
                if (!th[static_cast<std::size_t>(k)].placeholder &&
                    writesMemory(th[static_cast<std::size_t>(k)].ev.kind))
                    inc = Ref{static_cast<std::int32_t>(w), k};
            int readers = 0;
            bool foreign = false;
            for (std::size_t u = 0; u < g.threads.size() && !foreign; ++u)
                for (const Node& n : g.threads[u]) {
                    if (n.placeholder || n.zne || n.ev.loc != loc) continue;
                    foreign = foreign || (writesMemory(n.ev.kind) && n.ev.kind != EventKind::FetchAdd);
                    if (readsMemory(n.ev.kind) && n.rf == inc &&
                        (zneMode_ == ZneMode::Paper || u != w))
                        ++readers;
                }
            if (!foreign && readers < (zneMode_ == ZneMode::Paper ? 2 : 1)) return false;
        }
    }
    return true;
}

bool GraphExplorer::addZne(ExecutionGraph& g, ThreadId t, const Event& p, std::size_t depth) {
    auto& th = g.threads[static_cast<std::size_t>(t)];
    const auto i = static_cast<std::int32_t>(th.size());
    const auto& done = g.zneDone[static_cast<std::size_t>(t)];
    if (zneMode_ == ZneMode::Off) return false;
    if (std::find(done.begin(), done.end(), i) != done.end()) return false;  // invalidated here
    auto added = [](const Event& e) -> std::optional<Value> {
        if (e.kind != EventKind::FetchAdd) return std::nullopt;
        if (e.rmwOp == RmwOp::Add) return e.operand;
        if (e.rmwOp == RmwOp::Sub) return -e.operand;
        return std::nullopt;
    };
    // The increment: the thread's last write (the pass allows only pure steps in between).
    Ref inc{kInitThread, 0};
    for (std::int32_t k = i - 1; k >= 0 && inc.t == kInitThread; --k)
        if (!th[static_cast<std::size_t>(k)].placeholder && writesMemory(th[static_cast<std::size_t>(k)].ev.kind))
            inc = Ref{t, k};
    if (inc.t == kInitThread) return false;
    const Event& ie = g.at(inc).ev;
    const auto di = added(ie), dp = added(p);
    if (ie.loc != p.loc || !di || !dp || *dp == 0 || *di != -*dp) return false;
    // The validity check on the graph as it stands (events added before the marker count too).
    int readers = 0;
    for (std::size_t u = 0; u < g.threads.size(); ++u)
        for (const Node& n : g.threads[u]) {
            if (n.placeholder || n.zne || n.ev.loc != p.loc) continue;
            if (writesMemory(n.ev.kind) && n.ev.kind != EventKind::FetchAdd) return false;
            if (readsMemory(n.ev.kind) && n.rf == inc && (zneMode_ == ZneMode::Paper || static_cast<ThreadId>(u) != t))
                ++readers;
        }
    if (readers >= (zneMode_ == ZneMode::Paper ? 2 : 1)) return false;
    auto ev = exec_->blockThread(t, BlockCause::Zne);
    if (ev.empty()) return false;
    rep_.countEvent();
    ++zneBlocked_;
    Node n;
    n.ev = ev[0];
    n.ev.loc = p.loc;
    n.rf = inc;
    n.zne = true;
    n.stamp = n.wstamp = g.nextStamp++;
    g.push(t, n);
    proceed(g, Ref{t, i}, true, depth);
    g.pop(t);
    --g.nextStamp;
    return true;
}

void GraphExplorer::visit(ExecutionGraph& g, std::size_t depth) {
    if (rep_.stop()) return;
    // jobs > 1: a worker is idle; hand it this subtree (one relaxed load when none is). (Not
    // the subtree this worker was just handed.)
    if (pool_ && depth > taskDepth_ && pool_->hungry() && pool_->donate(g, wit_.at(depth))) return;
    ensureDepth(depth);
    witness_ = wit_.at(depth);
    const ThreadId t = nextThread(g);
    if (t < 0) {
        report(g, depth);
        return;
    }
    const Event p = exec_->pending(t);
    if (p.kind == EventKind::FetchAdd && p.zne && addZne(g, t, p, depth)) return;
    if (mutexLocks_ && (p.kind == EventKind::Lock || p.kind == EventKind::Unlock)) {
        addLockEvent(g, t, p, depth);
        return;
    }
    if (mutexLocks_ && isTrylock(p)) {
        addTrylock(g, t, depth);
        return;
    }
    if (readsMemory(p.kind)) {
        addRead(g, t, p, depth);
        return;
    }
    if (writesMemory(p.kind)) {
        addWrite(g, t, depth);
        return;
    }
    // Spawn or join: consistent appended at the end of the witness.
    auto ev = exec_->step(t);
    rep_.countEvent();
    const Ref a{t, static_cast<std::int32_t>(g.threads[t].size())};
    Node n;
    n.ev = ev[0];
    n.stamp = n.wstamp = g.nextStamp++;
    g.push(t, n);
    proceed(g, a, true, depth);
    g.pop(t);
    --g.nextStamp;
}

void GraphExplorer::addLockEvent(ExecutionGraph& g, ThreadId t, const Event& p, std::size_t depth) {
    const Ref a{t, static_cast<std::int32_t>(g.threads[t].size())};
    Node n;
    n.stamp = n.wstamp = g.nextStamp++;
    ensureLocation(g, p.loc, *info_);
    Snapshot& snap = frames_[depth].snap;
    if (p.kind == EventKind::Lock) exec_->save(snap);
    if (p.enabled || p.kind == EventKind::Unlock) {
        // The mutex is free at the end of the replay order: the lock (or unlock) goes there.
        auto ev = exec_->step(t);
        rep_.countEvent();
        n.ev = ev[0];
        g.push(t, n);
        proceed(g, a, true, depth);
    } else {
        // Locks never block the exploration: the lock must fit earlier in some witness.
        n.ev = p;
        n.ev.enabled = true;
        n.ev.wval = 1;
        g.push(t, n);
        proceed(g, a, false, depth);
    }
    if (p.kind == EventKind::Lock && !rep_.stopped()) trylockRevisits(g, a, depth);
    g.pop(t);
    if (p.kind == EventKind::Lock && !rep_.stopped()) {
        // ... or stay blocked for good (its mutex held at the end by a section that never ends).
        exec_->restore(snap);
        n.ev = p;
        n.placeholder = true;
        g.push(t, n);
        wit_.extend(depth, nullptr);
        visit(g, depth + 1);
        g.pop(t);
    }
    --g.nextStamp;
}

bool GraphExplorer::isTrylock(const Event& p) const {
    // pthread_mutex_trylock is the only CAS a C program makes on a mutex.
    return (p.kind == EventKind::CasSuccess || p.kind == EventKind::CasFailure) && p.loc >= 0 &&
           static_cast<std::size_t>(p.loc) < info_->isMutex.size() && info_->isMutex[static_cast<std::size_t>(p.loc)];
}

void GraphExplorer::addTrylock(ExecutionGraph& g, ThreadId t, std::size_t depth) {
    // LAPOR: a trylock succeeds (a lock: consistent wherever a lock is) or fails inside the
    // critical section of an acquire of its mutex already in the graph (its source; sections
    // whose acquire comes later revisit the success, see trylockRevisits).
    const Ref a{t, static_cast<std::int32_t>(g.threads[t].size())};
    const LocId m = exec_->pending(t).loc;
    ensureLocation(g, m, *info_);
    Frame& fr = frames_[depth];
    auto& srcs = fr.cands;
    srcs.clear();
    for (std::size_t u = 0; u < g.threads.size(); ++u)
        for (std::size_t i = 0; i < g.threads[u].size(); ++i) {
            const Node& q = g.threads[u][i];
            if (!q.placeholder && acquires(q) && q.ev.loc == m)
                srcs.push_back(Ref{static_cast<std::int32_t>(u), static_cast<std::int32_t>(i)});
        }
    if (!srcs.empty()) exec_->save(fr.snap);
    for (std::size_t k = 0; k <= srcs.size() && !rep_.stopped(); ++k) {
        const bool success = k == 0;
        if (!success) exec_->restore(fr.snap);
        auto ev = exec_->step(t, success ? 0 : 1);
        rep_.countEvent();
        Node n;
        n.ev = ev[0];
        n.trylock = true;
        if (!success) n.rf = srcs[k - 1];
        n.stamp = n.wstamp = g.nextStamp++;
        g.push(t, n);
        proceed(g, a, false, depth);
        if (success && !rep_.stopped()) trylockRevisits(g, a, depth);
        g.pop(t);
        --g.nextStamp;
    }
    srcs.clear();
}

void GraphExplorer::trylockRevisits(ExecutionGraph& g, Ref a, std::size_t depth) {
    // The new acquire a (a lock or a successful trylock) of mutex m revisits every successful
    // trylock r of m that is not porf-before it: r then fails inside a's critical section. As
    // a memory revisit (TruSt): keep {e ≤ r} ∪ porf(a) ∪ {a}, provided r and every deleted
    // event were added maximally (a trylock maximally succeeds).
    const LocId m = g.at(a).ev.loc;
    auto& porf = frames_[depth].porf;
    g.porfPrefix(a, porf);
    const std::size_t T = g.threads.size();
    std::vector<std::int32_t> keep(T);
    for (std::size_t u = 0; u < T && !rep_.stopped(); ++u) {
        for (auto i = static_cast<std::size_t>(porf[u]); i < g.threads[u].size() && !rep_.stop(); ++i) {
            const Ref r{static_cast<std::int32_t>(u), static_cast<std::int32_t>(i)};
            const Node& rn = g.at(r);
            if (r == a || !rn.trylock || rn.ev.kind != EventKind::CasSuccess || rn.ev.loc != m) continue;
            ++revisitsTried_;
            for (std::size_t w = 0; w < T; ++w) {
                const auto& th = g.threads[w];
                const auto it = std::upper_bound(th.begin(), th.end(), rn.stamp,
                                                 [](std::uint64_t x, const Node& n) { return x < n.stamp; });
                keep[w] = std::max(static_cast<std::int32_t>(it - th.begin()), porf[w]);
            }
            keep[static_cast<std::size_t>(a.t)] = a.i + 1;
            auto kept = [&](Ref x) { return x.t == kInitThread || x.i < keep[static_cast<std::size_t>(x.t)]; };
            // Kept events read only kept events, and nothing observes r's section any more.
            bool ok = true;
            for (std::size_t w = 0; w < T && ok; ++w)
                for (std::int32_t k = 0; k < keep[w] && ok; ++k) {
                    const Node& q = g.threads[w][static_cast<std::size_t>(k)];
                    if (!q.placeholder && readsMemory(q.ev.kind) && (!kept(q.rf) || q.rf == r)) ok = false;
                    if (rep_.stop()) ok = false;  // (a candidate costs O(events): ask)
                }
            ok = ok && maximallyAdded(g, r, porf);
            for (std::size_t w = 0; w < T && ok; ++w)
                for (std::size_t k = static_cast<std::size_t>(keep[w]); k < g.threads[w].size() && ok; ++k)
                    ok = !rep_.stop() && maximallyAdded(g, Ref{static_cast<std::int32_t>(w),
                                                               static_cast<std::int32_t>(k)}, porf);
            if (!ok) continue;
            ExecutionGraph& h = revisitGraph(depth);
            h.assignPrefix(g, keep);
            Node& hr = h.at(r);
            hr.ev.kind = EventKind::CasFailure;
            hr.ev.rval = 1;
            hr.ev.wval = 0;
            hr.rf = a;
            h.refreshView(r);
            if (consistent(h, false, freshOrder_)) {
                ++revisitsDone_;
                wit_.assign(depth, freshOrder_);
                if (replay(h, wit_.at(depth + 1))) visitChecked(h, r, depth);
            } else {
                ++inconsistent_;
            }
            if (rep_.stopped()) break;
        }
    }
    releaseRevisitGraph(depth);
}

void GraphExplorer::addWrite(ExecutionGraph& g, ThreadId t, std::size_t depth) {
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
        proceed(g, a, pos == m, depth);
        co().erase(co().begin() + pos);
    }
    if (!rep_.stopped()) revisits(g, a, depth);
    g.pop(t);
    --g.nextStamp;
}

void GraphExplorer::addRead(ExecutionGraph& g, ThreadId t, const Event& p, std::size_t depth) {
    const LocId loc = p.loc;
    ensureLocation(g, loc, *info_);
    const Ref a{t, static_cast<std::int32_t>(g.threads[t].size())};
    auto co = [&]() -> std::vector<Ref>& { return g.co[static_cast<std::size_t>(loc)]; };
    const int m = static_cast<int>(co().size());
    // A write co-before one that happens before a (porf) cannot be its source (fr cycle).
    const int kmin = coFloor(g, a, loc);
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
            if (!rep_.stopped()) revisits(g, a, depth);
            g.pop(t);
            --g.nextStamp;
            continue;
        }
        if (isWrite) co().insert(co().begin() + (k + 1), a);
        proceed(g, a, k == m - 1, depth);
        if (isWrite && !rep_.stopped()) revisits(g, a, depth);
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
        wit_.extend(depth, nullptr);
        visit(g, depth + 1);
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

bool GraphExplorer::maximallyAdded(const ExecutionGraph& g, Ref e, const std::vector<std::int32_t>& porf) {
    const Node& n = g.at(e);
    // LAPOR: a lock is added rather than left blocked (it never blocks the exploration); a
    // trylock succeeds rather than fails (a success is consistent wherever a lock is), unless
    // its own thread holds the mutex: then failing inside that section is its only choice.
    if (mutexLocks_ && (n.ev.kind == EventKind::Lock || n.ev.kind == EventKind::Unlock)) return !n.placeholder;
    if (n.trylock) return n.ev.kind == EventKind::CasSuccess || n.rf.t == e.t;
    if (!readsMemory(n.ev.kind) && !writesMemory(n.ev.kind)) return true;
    // Did write x exist when stamp s was handed out (or is it in porf(a))?
    auto existed = [&](Ref x, std::uint64_t s) {
        return x.t == kInitThread || g.at(x).wstamp <= s || x.i < porf[static_cast<std::size_t>(x.t)];
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

void GraphExplorer::revisits(ExecutionGraph& g, Ref a, std::size_t depth) {
    const LocId loc = g.at(a).ev.loc;
    const Value v = g.at(a).ev.wval;
    const bool aIsRmw = readsMemory(g.at(a).ev.kind);
    auto& porf = frames_[depth].porf;
    g.porfPrefix(a, porf);
    const std::size_t T = g.threads.size();
    std::vector<std::int32_t> keep(T);
    for (std::size_t u = 0; u < T && !rep_.stopped(); ++u) {
        for (auto i = static_cast<std::size_t>(porf[u]); i < g.threads[u].size() && !rep_.stop(); ++i) {
            const Ref r{static_cast<std::int32_t>(u), static_cast<std::int32_t>(i)};
            if (r == a) continue;
            const Node& rn = g.at(r);
            if (rn.ev.loc != loc || !readsMemory(rn.ev.kind)) continue;
            // LAPOR: locks and trylocks have no source (a write to the mutex's memory, e.g. the
            // end of its frame, revisits nothing).
            if (rn.trylock || (mutexLocks_ && rn.ev.kind == EventKind::Lock)) continue;
            if (hasCondition(rn.ev.kind) && !admits(rn.ev, v)) continue;
            ++revisitsTried_;
            const std::uint64_t s = rn.stamp;
            // K = {e ≤ r} ∪ porf(a) ∪ {a}, per thread a prefix (stamps grow along each thread).
            for (std::size_t w = 0; w < T; ++w) {
                const auto& th = g.threads[w];
                const auto it = std::upper_bound(th.begin(), th.end(), s,
                                                 [](std::uint64_t x, const Node& n) { return x < n.stamp; });
                keep[w] = std::max(static_cast<std::int32_t>(it - th.begin()), porf[w]);
            }
            keep[static_cast<std::size_t>(a.t)] = a.i + 1;
            auto kept = [&](Ref x) { return x.t == kInitThread || x.i < keep[static_cast<std::size_t>(x.t)]; };
            // Kept events read only kept events, and not r (a revisited read-modify-write would
            // change what they read: that graph has another parent).
            bool ok = true;
            for (std::size_t w = 0; w < T && ok; ++w)
                for (std::int32_t k = 0; k < keep[w] && ok; ++k) {
                    const Node& q = g.threads[w][static_cast<std::size_t>(k)];
                    if (!q.placeholder && readsMemory(q.ev.kind) && (!kept(q.rf) || q.rf == r)) ok = false;
                    if (rep_.stop()) ok = false;  // (a candidate costs O(events): ask)
                }
            if (!ok) continue;
            // Maximality of r and of every deleted event.
            ok = maximallyAdded(g, r, porf);
            for (std::size_t w = 0; w < T && ok; ++w)
                for (std::size_t k = static_cast<std::size_t>(keep[w]); k < g.threads[w].size() && ok; ++k)
                    ok = !rep_.stop() && maximallyAdded(g, Ref{static_cast<std::int32_t>(w),
                                                               static_cast<std::int32_t>(k)}, porf);
            if (!ok) continue;
            // The revisited graph (the kept prefix of g; deleted positions' zne is new again).
            ExecutionGraph& h = revisitGraph(depth);
            h.assignPrefix(g, keep);
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
            if (!zneJustified(h)) {
                ++zneUnjustified_;
                continue;
            }
            const bool rWrites = writesMemory(hr.ev.kind);
            if (rWrites) hr.wstamp = h.nextStamp++;  // its write part comes after a
            auto co = [&]() -> std::vector<Ref>& { return h.co[static_cast<std::size_t>(loc)]; };
            // a's place in co: fixed after its source for a read-modify-write, any otherwise.
            int lo = 0, hi = static_cast<int>(co().size());
            if (aIsRmw) lo = hi = h.coIndex(g.at(a).rf, loc) + 1;
            for (int pos = hi; pos >= lo && !rep_.stopped(); --pos) {
                if (!aIsRmw && h.rmwAfter(loc, pos - 1)) continue;
                co().insert(co().begin() + pos, a);
                if (rWrites) co().insert(co().begin() + pos + 1, r);
                if (consistent(h, false, freshOrder_)) {
                    ++revisitsDone_;
                    wit_.assign(depth, freshOrder_);
                    if (replay(h, wit_.at(depth + 1))) {
                        visitChecked(h, r, depth);
                        // r's write part was (re-)added after a: it revisits in turn.
                        if (rWrites && !rep_.stopped()) revisits(h, r, depth + 1);
                    }
                } else {
                    ++inconsistent_;
                }
                co().erase(co().begin() + pos, co().begin() + pos + (rWrites ? 2 : 1));
            }
            if (rep_.stopped()) break;
        }
    }
    releaseRevisitGraph(depth);
}

}  // namespace porlab::graph
