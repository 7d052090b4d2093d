// SPDX-License-Identifier: MIT
// One DPOR engine for Source-DPOR and Optimal-DPOR(-Await), written from Abdulla, Aronis,
// Jonsson, Sagonas (POPL'14 / JACM'17) and from Godot §IV (Algorithm 1, OPTIMAL-DPOR-AWAIT).
//
// The explored sequence E is kept as flat per-position arrays: the event, its vector clock (T
// contiguous words), the snapshot of the program state before it, its sleep set and its wakeup
// tree root (Optimal) or source set (Source). Wakeup trees live in one node pool with a free
// list; every node keeps the event it stands for (next_[E'.u](p)), which is what weak-initial
// checks against tree branches need. Nothing is global: a subtree (a depth with its wakeup tree,
// sleep set and snapshot) could be handed to another worker.
//
// Races are detected when E ends:
//  * maximal (no enabled thread): reported as complete or blocked, then analysed;
//  * sleep-set blocked (Source only; Optimal never gets there): analysed, not reported;
//  * failed (an assertion failure or fault in the last step f): reported as an error trace and
//    analysed. A failure halts the run, so E cannot be extended past f; to still cover what the
//    other threads could do before f, the failing step is treated as disabling every other
//    thread: each thread p ready before f gets the wakeup sequence p inserted before f (a
//    blocking race with f as the disabler; when p's next event is a disabled await/lock, the
//    ordinary blocking-race search runs for it with E' = pre(E,f)), f is never put into a
//    wakeup sequence, and a failing next event is dependent with everything in weak-initial
//    checks.
//
// Blocked executions and optimality (Godot Fig. 5): the paper's Theorem 2 is about maximal
// executions, blocked ones included, and the Optimal mode reports exactly one blocked trace per
// Mazurkiewicz(-IFAA) class of blocked traces: Fig. 5 gives 2 complete + 6 blocked without IFAA
// and 1 + 1 with IFAA, equal to the class counts, and the conformance suite checks blocked
// traces == blocked classes on every random program (no difference found).
//
// Two details the paper leaves implicit, both needed for completeness (found by the suite):
//  * an xchg-await also races with plain reads of its location (they conflict with its write
//    although they cannot enable or disable it): such reads are scanned like enablers, without
//    setting can-stop;
//  * Source mode reverses a race within pre(E,e') (the POPL'14 definition), not with the whole
//    notdep(e,E), and does not consult sleep sets for it (a partial sequence cannot be shown
//    redundant by a sleep set); Optimal mode uses the whole maximal E as Algorithm 1 says.
//
// zne awaits (SAVER's zero-net-effect loops, Execution::setZneAwaits; option zne=off turns them
// off): a canceling decrement waits until another thread has observed the increment it cancels,
// and is otherwise handled like an await. Its enablers are the observing accesses to its location
// by other threads (any access but a fetch-and-add whose result is unused, which commutes with
// it under IFAA and enables nothing); as for awaits, it races only by blocking races (analyze
// (b)). A thread still waiting at the end of a maximal execution is blocked there (a zne marker,
// cause zne): the iteration changed nothing anybody saw, so the program as written would be back
// at the loop's header, a state the explored executions in which the iteration comes later
// cover. Soundness against the program as written is tested on generated programs against the
// exhaustive explorer (tests/python/test_saver.py).
//
// Limits: at most 64 threads (thread sets are bit masks; InputError beyond). Joins have no
// blocking races: a join is enabled exactly by the last step of the joined thread, which it
// always follows.
#include "porlab/explore/DporEngine.hpp"

#include <stdexcept>
#include <string>

#include "porlab/core/Errors.hpp"
#include "porlab/explore/DporEngineImpl.hpp"

namespace porlab::dpor {

namespace detail {

namespace {

// Option zne: "on" (the default) or "off" (the DPOR explorers share their options).
bool zneOption(const ExploreOptions& o) { return o.option<std::string>("zne", "optimal") == "on"; }

}  // namespace

Engine::Engine(const Program& p, const ExploreOptions& o, ExploreResult& r, Mode m)
    : exec_(p.newExecution()), rep_(p, o, r), opts_(o), res_(r), mode_(m), conf_(o.conflicts) {
    canStopOpt_ = o.option<bool>("can_stop", "optimal");
    zne_ = zneOption(o);
    if (zne_) zne_ = exec_->setZneAwaits(true);
}

void Engine::run() {
    auto init = exec_->reset();
    allEvents_.assign(init.begin(), init.end());
    T_ = static_cast<std::size_t>(exec_->maxThreads());
    if (T_ > 64) throw InputError("DPOR explorers support at most 64 threads");
    auto mem = exec_->memory();
    initMem_.assign(mem.begin(), mem.end());
    locAcc_.assign(initMem_.size(), {});
    locWin_.assign(initMem_.size(), {});
    locThr_.assign(initMem_.size(), {});
    lastOf_.assign(T_, -1);
    spawnPos_.assign(T_, -1);
    lastClk_.assign(T_, 0);
    if (exec_->failed()) {
        rep_.maximal(TraceStatus::Error, *exec_, allEvents_);
    } else {
        ensure(0);
        root_[0] = allocNode(Event{}, 0);
        sleep_[0].clear();
        back_[0] = 0;
        explore();
    }
    res_.stats["sleep_blocked"] = static_cast<double>(sleepBlocked_);
    res_.stats["races"] = static_cast<double>(races_);
    res_.stats["blocking_races"] = static_cast<double>(blockingRaces_);
    res_.stats["redundant_wakeups"] = static_cast<double>(redundant_);
    res_.stats["inserted_wakeups"] = static_cast<double>(inserted_);
    if (mode_ == Mode::Optimal)
        res_.stats["wakeup_tree_nodes_max"] = static_cast<double>(nodesMax_);
    res_.stats["max_depth"] = static_cast<double>(maxDepth_);
    res_.stats["replayed_events"] = static_cast<double>(replays_);
    if (zneBlocked_) res_.stats["zne_blocked"] = static_cast<double>(zneBlocked_);
    rep_.finish();
}

void Engine::explore() {
    if (!enter(0)) return;
    std::size_t d = 0;
    for (;;) {
        if (!nextBranch(d)) {  // every branch of depth d done: back up
            if (d == 0) return;
            --d;
            finishBranch(d);
            if (rep_.stopped()) return;
            continue;
        }
        if (failed_[d]) {
            rep_.maximal(TraceStatus::Error, *exec_, allEvents_);
            analyze(EndKind::Error);
        } else if (enter(d + 1)) {
            ++d;
            continue;
        }
        finishBranch(d);
        if (rep_.stopped()) return;
    }
}

bool Engine::enter(std::size_t d) {
    if (rep_.stop()) return false;
    std::uint64_t enabled = 0;
    for (std::size_t t = 0; t < T_; ++t)
        if (exec_->enabled(static_cast<ThreadId>(t))) enabled |= 1ULL << t;
    if (enabled == 0) {
        if (zne_) blockZneWaiters();
        rep_.maximal(Reporter::classify(*exec_), *exec_, allEvents_);
        analyze(EndKind::Maximal);
        return false;
    }
    const std::uint64_t slept = sleepMask(d);
    const std::uint64_t avail = enabled & ~slept;
    if (mode_ == Mode::Optimal) {
        Node& r = nodes_[static_cast<std::size_t>(root_[d])];
        if (r.first == -1) {
            if (avail == 0) {
                ++sleepBlocked_;
                analyze(EndKind::SleepBlocked);
                return false;
            }
            const int p = std::countr_zero(avail);
            const int c = allocNode(exec_->pending(p), -1);
            appendChild(root_[d], c);
        }
    } else if (back_[d] == 0) {
        if (avail == 0) {
            ++sleepBlocked_;
            analyze(EndKind::SleepBlocked);
            return false;
        }
        back_[d] = 1ULL << std::countr_zero(avail);
    }
    exec_->save(snap_[d]);
    fresh_[d] = 1;
    return true;
}

bool Engine::nextBranch(std::size_t d) {
    for (;;) {
        int child = -1;
        ThreadId p;
        if (mode_ == Mode::Optimal) {
            child = nodes_[static_cast<std::size_t>(root_[d])].first;
            if (child == -1) return false;
            p = nodes_[static_cast<std::size_t>(child)].ev.thread;
        } else {
            const std::uint64_t todo = back_[d] & ~sleepMask(d);
            if (todo == 0) return false;
            p = std::countr_zero(todo);
        }
        if (!fresh_[d]) exec_->restore(snap_[d]);
        fresh_[d] = 0;
        if (!exec_->enabled(p)) {
            if (mode_ == Mode::Optimal)
                throw std::logic_error("dpor: wakeup sequence schedules disabled thread " +
                                       std::to_string(p) + " at depth " + std::to_string(d));
            // Source: an initial that is not enabled cannot happen; skip it defensively.
            sleep_[d].push_back(
                {exec_->status(p) == ThreadStatus::Ready ? exec_->pending(p) : Event{}, true});
            sleep_[d].back().ev.thread = p;
            continue;
        }
        const Event pe = exec_->pending(p);
        if (mode_ == Mode::Optimal) {
            const Event& want = nodes_[static_cast<std::size_t>(child)].ev;
            if (want.index != pe.index || want.kind != pe.kind || want.loc != pe.loc)
                throw std::logic_error("dpor: wakeup sequence predicted " + toString(want) +
                                       " but the program performs " + toString(pe));
        }
        ensure(d + 1);
        auto& ns = sleep_[d + 1];
        ns.clear();
        for (const auto& s : sleep_[d])
            if (!s.fails && !dep(s.ev, pe)) ns.push_back(s);
        back_[d + 1] = 0;
        auto evs = exec_->step(p);
        rep_.countEvent();
        const bool failed = exec_->failed();
        push(d, evs);
        if (mode_ == Mode::Optimal) {
            root_[d + 1] = child;
            Node& cn = nodes_[static_cast<std::size_t>(child)];
            cn.ev = ev_[d];
            cn.fail = failed ? 1 : 0;
        }
        child_[d] = child;
        pend_[d] = pe;
        failed_[d] = failed ? 1 : 0;
        return true;
    }
}

void Engine::finishBranch(std::size_t d) {
    pop(d);
    sleep_[d].push_back({pend_[d], failed_[d] != 0});
    if (mode_ == Mode::Optimal) {
        const int child = child_[d];
        Node& r = nodes_[static_cast<std::size_t>(root_[d])];
        r.first = nodes_[static_cast<std::size_t>(child)].next;
        if (r.first == -1) r.last = -1;
        freeSubtree(child);
    }
}

void Engine::blockZneWaiters() {
    for (std::size_t t = 0; t < T_; ++t) {
        const auto p = static_cast<ThreadId>(t);
        if (exec_->status(p) != ThreadStatus::Ready || !zneAwait(exec_->pending(p))) continue;
        auto ev = exec_->blockThread(p, BlockCause::Zne);
        allEvents_.insert(allEvents_.end(), ev.begin(), ev.end());
        ++zneBlocked_;
    }
}

}  // namespace detail

ExploreResult run(const Program& program, const ExploreOptions& opts, Mode mode) {
    ExploreResult r;
    detail::Engine(program, opts, r, mode).run();
    return r;
}

}  // namespace porlab::dpor
