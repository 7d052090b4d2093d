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

#include <algorithm>
#include <bit>
#include <functional>
#include <stdexcept>

#include "porlab/core/Errors.hpp"

namespace porlab::dpor {

namespace {

// Option zne: "on" (the default) or "off" (the DPOR explorers share their options).
bool zneOption(const ExploreOptions& o) { return o.option<std::string>("zne", "optimal") == "on"; }

struct SleepEntry {
    Event ev;            // next_[E](thread)
    bool fails = false;  // performing it fails the run (dependent with everything)
};

struct Node {
    Event ev;  // the event this branch performs
    int first = -1, last = -1, next = -1;
    // Does performing ev fail the run? -1: not known yet (the last event of an inserted wakeup
    // sequence reads values it never read before; found out by replay when it matters).
    std::int8_t fail = -1;
};

enum class EndKind : std::uint8_t { Maximal, SleepBlocked, Error };

class Engine {
public:
    Engine(const Program& p, const ExploreOptions& o, ExploreResult& r, Mode m)
        : exec_(p.newExecution()), rep_(p, o, r), opts_(o), res_(r), mode_(m),
          conf_(o.conflicts) {
        canStopOpt_ = o.option<bool>("can_stop", "optimal");
        zne_ = zneOption(o);
        if (zne_) zne_ = exec_->setZneAwaits(true);
    }

    void run() {
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
            explore(0);
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

private:
    // ---- relations ------------------------------------------------------------------------

    [[nodiscard]] bool ifaaFaa(const Event& e) const {
        return conf_.ifaa && e.kind == EventKind::FetchAdd && !e.resultUsed &&
               (e.rmwOp == RmwOp::Add || e.rmwOp == RmwOp::Sub);
    }
    // A write that conflicts with every access to its location.
    [[nodiscard]] bool strongWrite(const Event& e) const {
        return writesMemory(e.kind) && !ifaaFaa(e);
    }
    // Dependence of two events (either order): program order, memory conflict, spawn/join.
    [[nodiscard]] bool dep(const Event& a, const Event& b) const {
        if (a.thread == b.thread) return true;
        if (conf_.conflicts(a, b)) return true;
        auto sj = [](const Event& x, const Event& y) {
            if ((x.kind == EventKind::Spawn || x.kind == EventKind::Join) && x.aux == y.thread)
                return true;
            return x.kind == EventKind::Spawn && y.kind == EventKind::Join && x.aux == y.aux;
        };
        return sj(a, b) || sj(b, a);
    }
    // A canceling decrement that waits for an observer of its increment (zne awaits).
    [[nodiscard]] bool zneAwait(const Event& e) const {
        return zne_ && e.kind == EventKind::FetchAdd && e.zne && e.aux >= 0;
    }
    // Events whose enabledness other threads change: awaits, locks, joins, zne awaits.
    [[nodiscard]] bool blocking(const Event& e) const { return mayBlock(e.kind) || zneAwait(e); }
    // Does g observe its location's value (and so enable a zne await there)?
    [[nodiscard]] static bool observes(const Event& g) {
        return accessesMemory(g.kind) &&
               !(g.kind == EventKind::FetchAdd && !g.resultUsed &&
                 (g.rmwOp == RmwOp::Add || g.rmwOp == RmwOp::Sub));
    }
    // Can g (another thread's event) enable or disable the blocking event e?
    [[nodiscard]] bool mayEnable(const Event& g, const Event& e) const {
        if (g.loc != e.loc || g.loc == kNoLoc) return false;
        if (e.kind == EventKind::Lock) return g.kind == EventKind::Lock || g.kind == EventKind::Unlock;
        if (zneAwait(e)) return g.thread != e.thread && observes(g);
        return writesMemory(g.kind);  // Await, XchgAwait
    }
    // Does g conflict with every event that may enable or disable e? (A zne await's enablers
    // include plain reads, which do not conflict with each other: no early stop.)
    [[nodiscard]] bool conflictsAllEnablers(const Event& g, const Event& e) const {
        if (e.kind == EventKind::Lock) return true;
        if (zneAwait(e)) return false;
        return !ifaaFaa(g);
    }

    [[nodiscard]] const std::uint32_t* clk(int pos) const {
        return &clk_[static_cast<std::size_t>(pos) * T_];
    }
    // Does position i happen before position k (i < k)?
    [[nodiscard]] bool hb(int i, int k) const {
        const Event& e = ev_[static_cast<std::size_t>(i)];
        return clk(k)[e.thread] > e.index;
    }

    // ---- per-depth storage ----------------------------------------------------------------

    void ensure(std::size_t d) {
        if (ev_.size() > d) return;
        const std::size_t n = std::max<std::size_t>(d + 1, ev_.size() * 2);
        ev_.resize(n);
        prevSame_.resize(n);
        accIdx_.resize(n);
        predStart_.resize(n);
        wBefore_.resize(n);
        predCount_.resize(n);
        undoMark_.resize(n);
        evMark_.resize(n);
        snap_.resize(n);
        root_.resize(n, -1);
        back_.resize(n);
        sleep_.resize(n);
        clk_.resize(n * T_);
    }

    int allocNode(const Event& e, std::int8_t fail) {
        int id;
        if (!freeNodes_.empty()) {
            id = freeNodes_.back();
            freeNodes_.pop_back();
        } else {
            id = static_cast<int>(nodes_.size());
            nodes_.emplace_back();
        }
        Node& n = nodes_[static_cast<std::size_t>(id)];
        n.ev = e;
        n.first = n.last = n.next = -1;
        n.fail = fail;
        ++liveNodes_;
        nodesMax_ = std::max(nodesMax_, liveNodes_);
        return id;
    }
    void freeSubtree(int id) {
        for (int c = nodes_[static_cast<std::size_t>(id)].first; c != -1;) {
            const int nx = nodes_[static_cast<std::size_t>(c)].next;
            freeSubtree(c);
            c = nx;
        }
        freeNodes_.push_back(id);
        --liveNodes_;
    }
    void appendChild(int parent, int child) {
        Node& p = nodes_[static_cast<std::size_t>(parent)];
        if (p.last == -1) {
            p.first = p.last = child;
        } else {
            nodes_[static_cast<std::size_t>(p.last)].next = child;
            p.last = child;
        }
    }

    // Append the step performed at position d (events: main event then markers).
    void push(std::size_t d, std::span<const Event> evs) {
        const Event& e = evs.front();
        ev_[d] = e;
        evMark_[d] = allEvents_.size();
        allEvents_.insert(allEvents_.end(), evs.begin(), evs.end());
        const auto t = static_cast<std::size_t>(e.thread);
        std::uint32_t* c = &clk_[d * T_];
        const int prev = lastOf_[t];
        prevSame_[d] = prev;
        const int base = prev >= 0 ? prev : spawnPos_[t];
        if (base >= 0) std::copy_n(clk(base), T_, c);
        else std::fill_n(c, T_, 0u);
        c[t] = e.index + 1;
        auto joinClock = [&](int pos) {
            const std::uint32_t* o = clk(pos);
            for (std::size_t k = 0; k < T_; ++k) c[k] = std::max(c[k], o[k]);
        };
        if (e.kind == EventKind::Join && e.aux >= 0) {
            const auto a = static_cast<std::size_t>(e.aux);
            const int src = lastOf_[a] >= 0 ? lastOf_[a] : spawnPos_[a];
            if (src >= 0) joinClock(src);
        }
        if (accessesMemory(e.kind) && e.loc >= 0) {
            auto& acc = locAcc_[static_cast<std::size_t>(e.loc)];
            findPreds(d, e);
            for (std::size_t k = 0; k < predCount_[d]; ++k) joinClock(predBuf_[predStart_[d] + k]);
            enterWindow(d, e);
            if (acc.empty()) {
                wBefore_[d] = -1;
            } else {
                const int q = acc.back();
                const auto qu = static_cast<std::size_t>(q);
                wBefore_[d] = writesMemory(ev_[qu].kind) ? q : wBefore_[qu];
            }
            accIdx_[d] = static_cast<int>(acc.size());
            acc.push_back(static_cast<int>(d));
            auto& lt = locThr_[static_cast<std::size_t>(e.loc)];
            if (lt.empty()) lt.resize(T_);
            lt[t].push_back(static_cast<int>(d));
            if (predCount_[d] > 0 && !blocking(e)) racy_.push_back(static_cast<int>(d));
        }
        // An await, lock or zne await whose location another thread accessed after its
        // program-order (or spawn) predecessor: only those can have blocking races (analysis (b)).
        const bool awaitOrLock = e.kind == EventKind::Await || e.kind == EventKind::XchgAwait ||
                                 e.kind == EventKind::Lock || zneAwait(e);
        if (awaitOrLock && e.loc >= 0 && mayRaceBack(e, d, base))
            blockers_.push_back(static_cast<int>(d));
        if (e.kind == EventKind::Spawn && e.aux >= 0) spawnPos_[static_cast<std::size_t>(e.aux)] = static_cast<int>(d);
        lastOf_[t] = static_cast<int>(d);
        len_ = d + 1;
        maxDepth_ = std::max(maxDepth_, len_);
    }

    // The accesses of a location since its last strong write (inclusive) are the ones a new
    // access may conflict with. Of those of one thread only the latest matters: its clock
    // includes the others' (program order), and in the race analysis the others are never
    // adjacent to e (the latest comes after them). Scanning the whole window instead made every
    // read of a long spin loop cost O(reads so far).
    struct LocWindow {
        int strong = -1;                 // position of the last strong write
        std::vector<int> lastR, lastW;   // by thread: latest read / weak (IFAA) write after it
    };

    // preds of the access e at position d: per other thread, its latest access in the window
    // that conflicts with e; in decreasing position (the order a backward scan finds them).
    void findPreds(std::size_t d, const Event& e) {
        LocWindow& w = locWin_[static_cast<std::size_t>(e.loc)];
        if (w.lastR.empty()) {
            w.lastR.assign(T_, -1);
            w.lastW.assign(T_, -1);
        }
        const bool eWrites = writesMemory(e.kind);
        const bool eWeak = eWrites && ifaaFaa(e);
        predStart_[d] = predBuf_.size();
        const ThreadId sThread =
            w.strong >= 0 ? ev_[static_cast<std::size_t>(w.strong)].thread : -1;
        for (std::size_t u = 0; u < T_; ++u) {
            if (static_cast<ThreadId>(u) == e.thread) continue;
            int best = sThread == static_cast<ThreadId>(u) ? w.strong : -1;  // conflicts with all
            if (eWrites) best = std::max(best, w.lastR[u]);   // reads conflict with writes
            if (!eWeak) best = std::max(best, w.lastW[u]);    // weak writes: not with weak ones
            if (best >= 0) predBuf_.push_back(best);
        }
        predCount_[d] = predBuf_.size() - predStart_[d];
        std::sort(predBuf_.begin() + static_cast<std::ptrdiff_t>(predStart_[d]), predBuf_.end(),
                  std::greater<>());
    }

    void enterWindow(std::size_t d, const Event& e) {
        LocWindow& w = locWin_[static_cast<std::size_t>(e.loc)];
        const auto t = static_cast<std::size_t>(e.thread);
        undoMark_[d] = undo_.size();
        if (strongWrite(e)) {
            undo_.push_back(w.strong);
            undo_.insert(undo_.end(), w.lastR.begin(), w.lastR.end());
            undo_.insert(undo_.end(), w.lastW.begin(), w.lastW.end());
            w.strong = static_cast<int>(d);
            std::fill(w.lastR.begin(), w.lastR.end(), -1);
            std::fill(w.lastW.begin(), w.lastW.end(), -1);
        } else if (writesMemory(e.kind)) {
            undo_.push_back(w.lastW[t]);
            w.lastW[t] = static_cast<int>(d);
        } else {
            undo_.push_back(w.lastR[t]);
            w.lastR[t] = static_cast<int>(d);
        }
    }

    void leaveWindow(std::size_t d, const Event& e) {
        LocWindow& w = locWin_[static_cast<std::size_t>(e.loc)];
        const auto t = static_cast<std::size_t>(e.thread);
        const auto m = static_cast<std::ptrdiff_t>(undoMark_[d]);
        if (strongWrite(e)) {
            w.strong = undo_[static_cast<std::size_t>(m)];
            const auto r = undo_.begin() + m + 1;
            std::copy(r, r + static_cast<std::ptrdiff_t>(T_), w.lastR.begin());
            const auto T = static_cast<std::ptrdiff_t>(T_);
            std::copy(r + T, r + 2 * T, w.lastW.begin());
        } else if (writesMemory(e.kind)) {
            w.lastW[t] = undo_[static_cast<std::size_t>(m)];
        } else {
            w.lastR[t] = undo_[static_cast<std::size_t>(m)];
        }
        undo_.resize(undoMark_[d]);
        predBuf_.resize(predStart_[d]);
    }

    // Does another thread have an access of e's location (before d, where e is being pushed)
    // that does not happen before kpos (e's program-order or spawn predecessor)? The latest
    // access of each thread decides (the earlier ones happen before it).
    [[nodiscard]] bool mayRaceBack(const Event& e, std::size_t d, int kpos) const {
        const auto& lt = locThr_[static_cast<std::size_t>(e.loc)];
        if (lt.empty()) return false;
        const std::uint32_t* kc = kpos >= 0 ? clk(kpos) : nullptr;
        for (std::size_t u = 0; u < T_; ++u) {
            if (static_cast<ThreadId>(u) == e.thread) continue;
            const auto& acc = lt[u];
            const auto it = std::lower_bound(acc.begin(), acc.end(), static_cast<int>(d));
            if (it == acc.begin()) continue;
            const Event& g = ev_[static_cast<std::size_t>(*(it - 1))];
            if (kc == nullptr || kc[g.thread] <= g.index) return true;
        }
        return false;
    }

    void pop(std::size_t d) {
        const Event& e = ev_[d];
        lastOf_[static_cast<std::size_t>(e.thread)] = prevSame_[d];
        if (!racy_.empty() && racy_.back() == static_cast<int>(d)) racy_.pop_back();
        if (!blockers_.empty() && blockers_.back() == static_cast<int>(d)) blockers_.pop_back();
        if (accessesMemory(e.kind) && e.loc >= 0) {
            locAcc_[static_cast<std::size_t>(e.loc)].pop_back();
            locThr_[static_cast<std::size_t>(e.loc)][static_cast<std::size_t>(e.thread)].pop_back();
            leaveWindow(d, e);
        }
        if (e.kind == EventKind::Spawn && e.aux >= 0) spawnPos_[static_cast<std::size_t>(e.aux)] = -1;
        allEvents_.resize(evMark_[d]);
        len_ = d;
    }

    // ---- exploration ----------------------------------------------------------------------

    [[nodiscard]] std::uint64_t sleepMask(std::size_t d) const {
        std::uint64_t m = 0;
        for (const auto& s : sleep_[d]) m |= 1ULL << s.ev.thread;
        return m;
    }

    void explore(std::size_t d) {
        if (rep_.stop()) return;
        std::uint64_t enabled = 0;
        for (std::size_t t = 0; t < T_; ++t)
            if (exec_->enabled(static_cast<ThreadId>(t))) enabled |= 1ULL << t;
        if (enabled == 0) {
            if (zne_) blockZneWaiters();
            rep_.maximal(Reporter::classify(*exec_), *exec_, allEvents_);
            analyze(EndKind::Maximal);
            return;
        }
        const std::uint64_t slept = sleepMask(d);
        const std::uint64_t avail = enabled & ~slept;
        if (mode_ == Mode::Optimal) {
            Node& r = nodes_[static_cast<std::size_t>(root_[d])];
            if (r.first == -1) {
                if (avail == 0) {
                    ++sleepBlocked_;
                    analyze(EndKind::SleepBlocked);
                    return;
                }
                const int p = std::countr_zero(avail);
                const int c = allocNode(exec_->pending(p), -1);
                appendChild(root_[d], c);
            }
        } else if (back_[d] == 0) {
            if (avail == 0) {
                ++sleepBlocked_;
                analyze(EndKind::SleepBlocked);
                return;
            }
            back_[d] = 1ULL << std::countr_zero(avail);
        }
        exec_->save(snap_[d]);
        bool fresh = true;
        for (;;) {
            int child = -1;
            ThreadId p;
            if (mode_ == Mode::Optimal) {
                child = nodes_[static_cast<std::size_t>(root_[d])].first;
                if (child == -1) break;
                p = nodes_[static_cast<std::size_t>(child)].ev.thread;
            } else {
                const std::uint64_t todo = back_[d] & ~sleepMask(d);
                if (todo == 0) break;
                p = std::countr_zero(todo);
            }
            if (!fresh) exec_->restore(snap_[d]);
            fresh = false;
            if (!exec_->enabled(p)) {
                if (mode_ == Mode::Optimal)
                    throw std::logic_error("dpor: wakeup sequence schedules disabled thread " +
                                           std::to_string(p) + " at depth " + std::to_string(d));
                // Source: an initial that is not enabled cannot happen; skip it defensively.
                sleep_[d].push_back({exec_->status(p) == ThreadStatus::Ready ? exec_->pending(p) : Event{}, true});
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
            if (failed) {
                rep_.maximal(TraceStatus::Error, *exec_, allEvents_);
                analyze(EndKind::Error);
            } else {
                explore(d + 1);
            }
            pop(d);
            sleep_[d].push_back({pe, failed});
            if (mode_ == Mode::Optimal) {
                Node& r = nodes_[static_cast<std::size_t>(root_[d])];
                r.first = nodes_[static_cast<std::size_t>(child)].next;
                if (r.first == -1) r.last = -1;
                freeSubtree(child);
            }
            if (rep_.stopped()) return;
        }
    }

    // A maximal execution: the threads still waiting at a zne await are blocked there (their
    // markers end the trace; the race analysis has nothing to do for them, since no observer of
    // their increment is in E).
    void blockZneWaiters() {
        for (std::size_t t = 0; t < T_; ++t) {
            const auto p = static_cast<ThreadId>(t);
            if (exec_->status(p) != ThreadStatus::Ready || !zneAwait(exec_->pending(p))) continue;
            auto ev = exec_->blockThread(p, BlockCause::Zne);
            allEvents_.insert(allEvents_.end(), ev.begin(), ev.end());
            ++zneBlocked_;
        }
    }

    // ---- race analysis --------------------------------------------------------------------

    // The wakeup sequence under construction: positions of E (in order) then the event last_.
    [[nodiscard]] const Event& itemEv(std::size_t a) const {
        return a == items_.size() ? last_ : ev_[static_cast<std::size_t>(items_[a])];
    }
    [[nodiscard]] const std::uint32_t* itemClk(std::size_t a) const {
        return a == items_.size() ? lastClk_.data() : clk(items_[a]);
    }
    // Index of the first live item of thread q, or -1.
    [[nodiscard]] int firstItemOf(ThreadId q) const {
        for (std::size_t a = 0; a <= items_.size(); ++a)
            if (alive_[a] && itemEv(a).thread == q) return static_cast<int>(a);
        return -1;
    }
    [[nodiscard]] bool hasPred(std::size_t a) const {
        const std::uint32_t* c = itemClk(a);
        for (std::size_t b = 0; b < a; ++b) {
            if (!alive_[b]) continue;
            const Event& g = itemEv(b);
            if (c[g.thread] > g.index) return true;
        }
        return false;
    }
    // Is q (whose next event is qev) a weak initial of the live items?
    [[nodiscard]] bool weakInitial(const Event& qev, bool qfails) const {
        const int a = firstItemOf(qev.thread);
        if (a >= 0) return !hasPred(static_cast<std::size_t>(a));
        if (qfails) return false;
        for (std::size_t b = 0; b <= items_.size(); ++b)
            if (alive_[b] && dep(qev, itemEv(b))) return false;
        return true;
    }

    // Set up last_ and its clock within v: join of the clocks of the items it depends on.
    // lastFail: whether performing `last` in v fails the run (-1: unknown).
    void closeSequence(const Event& last, std::int8_t lastFail = -1) {
        last_ = last;
        lastFail_ = lastFail;
        std::fill(lastClk_.begin(), lastClk_.end(), 0u);
        lastClk_[static_cast<std::size_t>(last.thread)] = last.index + 1;
        for (int k : items_) {
            if (!dep(ev_[static_cast<std::size_t>(k)], last)) continue;
            const std::uint32_t* o = clk(k);
            for (std::size_t t = 0; t < T_; ++t) lastClk_[t] = std::max(lastClk_[t], o[t]);
        }
        alive_.assign(items_.size() + 1, 1);
    }

    // Does the event of tree node c (below path_ in wut at depth k) fail the run? Found out by
    // replaying E[0..k) (snapshot) . path_ . c; the execution state is left dirty.
    std::int8_t resolveFail(std::size_t k, int c) {
        exec_->restore(snap_[k]);
        auto stepNode = [&](int id) {
            const Event& ne = nodes_[static_cast<std::size_t>(id)].ev;
            if (!exec_->enabled(ne.thread))
                throw std::logic_error("dpor: wakeup tree branch schedules a disabled thread");
            (void)exec_->step(ne.thread);
            rep_.countEvent();
            ++replays_;
        };
        for (int id : path_) stepNode(id);
        stepNode(c);
        const std::int8_t f = exec_->failed() ? 1 : 0;
        nodes_[static_cast<std::size_t>(c)].fail = f;
        return f;
    }

    // Insert the sequence (items_, last_) at depth k unless redundant.
    void insertSequence(std::size_t k) {
        if (mode_ == Mode::Source) {
            // Source-DPOR: v ends at e' (it is not a whole maximal execution), so the sleep set
            // cannot prove it redundant; only the initials are compared with the source set.
            for (std::size_t a = 0; a <= items_.size(); ++a) {
                const ThreadId q = itemEv(a).thread;
                if ((back_[k] >> q & 1U) && firstItemOf(q) == static_cast<int>(a) && !hasPred(a)) {
                    ++redundant_;
                    return;
                }
            }
            back_[k] |= 1ULL << itemEv(0).thread;
            ++inserted_;
            return;
        }
        for (const auto& s : sleep_[k])
            if (weakInitial(s.ev, s.fails)) {
                ++redundant_;
                return;
            }
        int node = root_[k];
        path_.clear();
        bool descended = true;
        while (descended) {
            descended = false;
            for (int c = nodes_[static_cast<std::size_t>(node)].first; c != -1;
                 c = nodes_[static_cast<std::size_t>(c)].next) {
                const Node& cn = nodes_[static_cast<std::size_t>(c)];
                const int a = firstItemOf(cn.ev.thread);
                if (a < 0) {
                    // p not in v: a weak initial when independent of v and performing it does
                    // not end the run (a failing step disables every other thread).
                    if (cn.fail == 1 || !weakInitial(cn.ev, false)) continue;
                    if (cn.fail == -1 && resolveFail(k, c) != 0) continue;
                    ++redundant_;
                    return;
                }
                if (hasPred(static_cast<std::size_t>(a))) continue;
                // v's item a is this branch's event; items before the last never fail.
                if (static_cast<std::size_t>(a) < items_.size() && cn.fail == -1)
                    nodes_[static_cast<std::size_t>(c)].fail = 0;
                alive_[static_cast<std::size_t>(a)] = 0;
                if (std::find(alive_.begin(), alive_.end(), 1) == alive_.end()) {
                    ++redundant_;
                    return;
                }
                node = c;
                path_.push_back(c);
                if (nodes_[static_cast<std::size_t>(c)].first == -1) {
                    ++redundant_;
                    return;
                }
                descended = true;
                break;
            }
        }
        for (std::size_t a = 0; a <= items_.size(); ++a) {
            if (!alive_[a]) continue;
            const int id = allocNode(itemEv(a), a < items_.size() ? 0 : lastFail_);
            appendChild(node, id);
            node = id;
        }
        ++inserted_;
    }

    // Value of location l after the first i events of E.
    // (The last access of l before i, then the last write at or before it: O(log accesses).)
    [[nodiscard]] Value valueBefore(LocId l, std::size_t i) const {
        const auto& acc = locAcc_[static_cast<std::size_t>(l)];
        const auto k = std::lower_bound(acc.begin(), acc.end(), static_cast<int>(i)) - acc.begin();
        if (k > 0) {
            const auto q = static_cast<std::size_t>(acc[static_cast<std::size_t>(k - 1)]);
            const int w = writesMemory(ev_[q].kind) ? static_cast<int>(q) : wBefore_[q];
            if (w >= 0) return ev_[static_cast<std::size_t>(w)].wval;
        }
        return initMem_[static_cast<std::size_t>(l)];
    }
    static Value applyWrite(const Event& g, Value cur) {
        return g.kind == EventKind::FetchAdd ? rmwResult(g, cur) : g.wval;
    }
    // Value of l after E[0..i).items_ (the items' writes re-applied in their new order).
    [[nodiscard]] Value valueAfterItems(LocId l, std::size_t i) const {
        Value v = valueBefore(l, i);
        for (int k : items_) {
            const Event& g = ev_[static_cast<std::size_t>(k)];
            if (g.loc == l && writesMemory(g.kind)) v = applyWrite(g, v);
        }
        return v;
    }

    // Non-blocking race i ≾ j: v = notdep(i,E).ê_j inserted at pre(E,i).
    void nonBlockingRace(std::size_t i, std::size_t j) {
        ++races_;
        items_.clear();
        // Source-DPOR reverses the race within pre(E,e'), Optimal-DPOR with all of notdep(e,E).
        const std::size_t end = mode_ == Mode::Source ? j : len_;
        for (std::size_t k = i + 1; k < end; ++k)
            if (static_cast<int>(k) != errPos_ && !hb(static_cast<int>(i), static_cast<int>(k)))
                items_.push_back(static_cast<int>(k));
        Event last = ev_[j];
        if (last.kind == EventKind::CasSuccess || last.kind == EventKind::CasFailure) {
            // Its value may change once i is gone: predict the kind the CAS will have.
            const Value v = valueAfterItems(last.loc, i);
            last.rval = v;
            last.kind = v == last.operand ? EventKind::CasSuccess : EventKind::CasFailure;
        } else if (readsMemory(last.kind)) {
            last.rval = valueAfterItems(last.loc, i);
        }
        // An event that reads nothing behaves as it did in E, where it did not fail.
        closeSequence(last, readsMemory(last.kind) || static_cast<int>(j) == errPos_ ? -1 : 0);
        insertSequence(i);
    }

    // Word-packed subsets of positions for the search of maximal u.
    // (A set holds positions B0_ .. B0_ + 64 W_ only: the positions after the race's first
    // event, not all of E.)
    [[nodiscard]] bool bitGet(std::size_t set, std::size_t k) const {
        return (sets_[set * W_ + (k - B0_) / 64] >> (k % 64)) & 1U;
    }
    void bitSet(std::size_t set, std::size_t k) {
        sets_[set * W_ + (k - B0_) / 64] |= 1ULL << (k % 64);
    }
    void bitClear(std::size_t set, std::size_t k) {
        sets_[set * W_ + (k - B0_) / 64] &= ~(1ULL << (k % 64));
    }
    std::size_t newSet() {
        const std::size_t id = sets_.size() / W_;
        sets_.resize(sets_.size() + W_, 0);
        return id;
    }
    [[nodiscard]] bool sameSet(std::size_t a, std::size_t b) const {
        return std::equal(sets_.begin() + static_cast<std::ptrdiff_t>(a * W_),
                          sets_.begin() + static_cast<std::ptrdiff_t>((a + 1) * W_),
                          sets_.begin() + static_cast<std::ptrdiff_t>(b * W_));
    }
    [[nodiscard]] bool subsetOf(std::size_t a, std::size_t b) const {
        for (std::size_t w = 0; w < W_; ++w)
            if (sets_[a * W_ + w] & ~sets_[b * W_ + w]) return false;
        return true;
    }
    void setToItems(std::size_t set) {
        items_.clear();
        for (std::size_t k = B0_; k < len_; ++k)
            if (bitGet(set, k)) items_.push_back(static_cast<int>(k));
    }
    [[nodiscard]] bool enabledAfter(const Event& e, std::size_t i) const {
        if (zneAwait(e)) {
            // E[0..i).items: an observer of e's location by another thread after e's increment.
            bool inc = false;
            auto seen = [&](const Event& g) {
                if (g.thread == e.thread) {
                    inc = inc || static_cast<std::int32_t>(g.index) == e.aux;
                    return false;
                }
                return inc && g.loc == e.loc && observes(g);
            };
            for (std::size_t k = 0; k < i; ++k)
                if (seen(ev_[k])) return true;
            for (int k : items_)
                if (seen(ev_[static_cast<std::size_t>(k)])) return true;
            return false;
        }
        const Value v = valueAfterItems(e.loc, i);
        if (e.kind == EventKind::Lock) return v == 0;
        return evalAwaitCond(e.cond, v, e.operand);
    }

    // Blocking race of the blocking event e (an executed await/lock at position `limit`, or the
    // disabled next event of a thread after E[0..limit)). kpos: e's program-order (or spawn)
    // predecessor in E, whose history every wakeup sequence must keep.
    void blockingRace(const Event& e, std::size_t limit, int kpos) {
        const std::uint32_t* kc = kpos >= 0 ? clk(kpos) : nullptr;
        auto keep = [&](std::size_t k) {
            const Event& g = ev_[k];
            return kc != nullptr && kc[g.thread] > g.index;
        };
        // Only accesses of e's location by other threads, not before kpos, can race with it:
        // per thread those are the latest of its accesses of the location (before `limit`),
        // back to the first one that happens before kpos. Taken latest first, as a walk back
        // over E finds them (walking over E, or over all accesses of the location, made every
        // lock of a long execution cost O(events)).
        // (Merged lazily: the search often stops at the first race that can stop it.)
        if (e.loc < 0 || static_cast<std::size_t>(e.loc) >= locAcc_.size()) return;
        const auto& lt = locThr_[static_cast<std::size_t>(e.loc)];
        if (lt.empty()) return;
        racers_.assign(T_, -1);  // per thread: index of its next candidate in lt[u], -1: none
        for (std::size_t u = 0; u < T_; ++u)
            if (static_cast<ThreadId>(u) != e.thread) {
                const auto& acc = lt[u];
                const auto it = std::lower_bound(acc.begin(), acc.end(), static_cast<int>(limit));
                racers_[u] = static_cast<int>(it - acc.begin()) - 1;
            }
        auto nextRacer = [&]() -> int {
            int best = -1;
            std::size_t bu = 0;
            for (std::size_t u = 0; u < T_; ++u) {
                const int ai = racers_[u];
                if (ai < 0) continue;
                const int pos = lt[u][static_cast<std::size_t>(ai)];
                if (keep(static_cast<std::size_t>(pos))) {  // and so are its earlier accesses
                    racers_[u] = -1;
                    continue;
                }
                if (pos > best) {
                    best = pos;
                    bu = u;
                }
            }
            if (best >= 0) --racers_[bu];
            return best;
        };
        for (int ip = nextRacer(); ip >= 0 && !rep_.stop(); ip = nextRacer()) {
            const auto i = static_cast<std::size_t>(ip);
            const Event& g = ev_[i];
            // e races with the events that may enable/disable it and, for an xchg-await, also
            // with the reads of its location (they conflict with its write).
            const bool enabler = mayEnable(g, e);
            if (!enabler && !conf_.conflicts(g, e)) continue;
            ++blockingRaces_;
            const bool canStop = enabler && conflictsAllEnablers(g, e);
            // Search the maximal hb-prefixes u of w = notdep(i,E) after which e is enabled.
            B0_ = (i + 1) / 64 * 64;
            W_ = (len_ - B0_ + 63) / 64;
            sets_.clear();
            const std::size_t w = newSet();
            const std::size_t end = mode_ == Mode::Source ? limit : len_;
            for (std::size_t k = i + 1; k < end; ++k)
                if (static_cast<int>(k) != errPos_ && !hb(static_cast<int>(i), static_cast<int>(k)))
                    bitSet(w, k);
            stack_.assign(1, w);
            found_.clear();
            while (!stack_.empty()) {
                if (rep_.stop()) return;
                const std::size_t u = stack_.back();
                stack_.pop_back();
                setToItems(u);
                if (enabledAfter(e, i)) {
                    found_.push_back(u);
                    continue;
                }
                for (std::size_t f = i + 1; f < len_; ++f) {
                    if (!bitGet(u, f)) continue;
                    const Event& fe = ev_[f];
                    if (fe.thread == e.thread || !mayEnable(fe, e) || keep(f)) continue;
                    const std::size_t u2 = newSet();
                    std::copy_n(sets_.begin() + static_cast<std::ptrdiff_t>(u * W_), W_,
                                sets_.begin() + static_cast<std::ptrdiff_t>(u2 * W_));
                    bitClear(u2, f);
                    for (std::size_t k = f + 1; k < len_; ++k)
                        if (bitGet(u2, k) && hb(static_cast<int>(f), static_cast<int>(k))) bitClear(u2, k);
                    bool seen = false;  // every set kept in sets_ has been visited
                    for (std::size_t s = 0; s < u2 && !seen; ++s) seen = sameSet(s, u2);
                    if (seen) {
                        sets_.resize(sets_.size() - W_);
                        continue;
                    }
                    stack_.push_back(u2);
                }
            }
            bool did = false;
            for (std::size_t a = 0; a < found_.size(); ++a) {
                bool maximal = true;
                for (std::size_t b = 0; b < found_.size() && maximal; ++b)
                    if (a != b && !sameSet(found_[a], found_[b]) && subsetOf(found_[a], found_[b]))
                        maximal = false;
                for (std::size_t b = 0; b < a && maximal; ++b)
                    if (sameSet(found_[a], found_[b])) maximal = false;
                if (!maximal) continue;
                did = true;
                setToItems(found_[a]);
                Event last = e;
                last.rval = valueAfterItems(e.loc, i);
                if (e.kind == EventKind::XchgAwait || e.kind == EventKind::Lock) {
                    // wval is fixed by the thread (lock: 1)
                }
                closeSequence(last);
                insertSequence(i);
            }
            if (canStop && did && canStopOpt_) break;
        }
    }

    void analyze(EndKind kind) {
        const std::size_t n = len_;
        errPos_ = kind == EndKind::Error ? static_cast<int>(n) - 1 : -1;
        // The next events of the threads blocked after E (after pre(E,f) for a failure f), read
        // before anything else: inserting may replay the program and so change its state.
        if (kind == EndKind::Error) exec_->restore(snap_[n - 1]);
        const ThreadId failer = kind == EndKind::Error ? ev_[n - 1].thread : -1;
        pendingAtEnd_.clear();
        for (std::size_t t = 0; t < T_; ++t) {
            const auto p = static_cast<ThreadId>(t);
            if (p == failer || exec_->status(p) != ThreadStatus::Ready) continue;
            const Event& pe = exec_->pending(p);
            if (pe.enabled && kind != EndKind::Error) continue;
            pendingAtEnd_.push_back(pe);
        }
        // (a) non-blocking races (of the positions that have conflicting predecessors: on a long
        // execution most have none, and visiting every position made each execution cost its
        // whole length even when it differs from the previous one in its last few events).
        // (The analysis of a long execution can take long between two events: it asks the
        // budgets as it goes.)
        for (const int jp : racy_) {
            if (rep_.stop()) return;
            const auto j = static_cast<std::size_t>(jp);
            const Event& ej = ev_[j];
            const auto first = predBuf_.begin() + static_cast<std::ptrdiff_t>(predStart_[j]);
            preds_.assign(first, first + static_cast<std::ptrdiff_t>(predCount_[j]));
            if (preds_.empty()) continue;
            int other = prevSame_[j];
            if (other < 0) other = spawnPos_[static_cast<std::size_t>(ej.thread)];
            for (int i : preds_) {
                bool adjacent = !(other >= 0 && other > i && hb(i, other));
                for (std::size_t q = 0; q < preds_.size() && adjacent; ++q)
                    if (preds_[q] != i && preds_[q] > i && hb(i, preds_[q])) adjacent = false;
                if (adjacent) nonBlockingRace(static_cast<std::size_t>(i), j);
            }
        }
        // (b) blocking races of executed awaits, lock acquisitions and zne awaits.
        for (const int jp : blockers_) {
            if (rep_.stop()) return;
            const auto j = static_cast<std::size_t>(jp);
            const Event& ej = ev_[j];
            int kpos = prevSame_[j];
            if (kpos < 0) kpos = spawnPos_[static_cast<std::size_t>(ej.thread)];
            blockingRace(ej, j, kpos);
        }
        // (c) threads blocked after E (after pre(E,f) for a failure f).
        for (const Event& pe : pendingAtEnd_) {
            if (rep_.stop()) return;
            const auto t = static_cast<std::size_t>(pe.thread);
            int kpos = lastOf_[t];
            if (kpos < 0) kpos = spawnPos_[t];
            if (kind == EndKind::Error) {
                if (kpos == static_cast<int>(n) - 1) continue;  // spawned by f
                if (pe.enabled) {
                    // f disables p: schedule p just before f.
                    ++blockingRaces_;
                    items_.clear();
                    closeSequence(pe);
                    insertSequence(n - 1);
                    continue;
                }
            }
            if (pe.kind == EventKind::Await || pe.kind == EventKind::XchgAwait ||
                pe.kind == EventKind::Lock || zneAwait(pe))
                blockingRace(pe, kind == EndKind::Error ? n - 1 : n, kpos);
        }
        errPos_ = -1;
    }

    // ---- state ----------------------------------------------------------------------------

    std::unique_ptr<Execution> exec_;
    Reporter rep_;
    const ExploreOptions& opts_;
    ExploreResult& res_;
    Mode mode_;
    ConflictRelation conf_;
    bool canStopOpt_ = true;
    bool zne_ = true;  // zne awaits (option zne = on | off)

    std::size_t T_ = 0;
    std::size_t len_ = 0;
    std::vector<Value> initMem_;
    std::vector<Event> allEvents_;

    std::vector<Event> ev_;
    std::vector<int> prevSame_;
    std::vector<int> accIdx_;
    std::vector<std::size_t> evMark_;
    std::vector<Snapshot> snap_;
    std::vector<int> root_;
    std::vector<std::uint64_t> back_;
    std::vector<std::vector<SleepEntry>> sleep_;
    std::vector<std::uint32_t> clk_;

    std::vector<int> lastOf_;
    std::vector<int> spawnPos_;
    std::vector<std::vector<int>> locAcc_;
    std::vector<LocWindow> locWin_;
    std::vector<std::vector<std::vector<int>>> locThr_;  // by location, by thread: its accesses
    std::vector<int> predBuf_, undo_;                      // stacks, by position
    std::vector<std::size_t> predStart_, predCount_, undoMark_;
    // Positions of E, in order: accesses with conflicting predecessors that cannot block (race
    // analysis (a)), awaits and locks (b).
    std::vector<int> racy_, blockers_;
    std::vector<int> wBefore_;  // by position of an access: its location's last write before it

    std::vector<Node> nodes_;
    std::vector<int> freeNodes_;
    std::size_t liveNodes_ = 0, nodesMax_ = 0;

    // analysis scratch
    int errPos_ = -1;
    std::vector<int> preds_;
    std::vector<int> items_;
    std::vector<char> alive_;
    Event last_;
    std::int8_t lastFail_ = -1;
    std::vector<int> path_;
    std::vector<Event> pendingAtEnd_;
    std::uint64_t replays_ = 0;
    std::vector<std::uint32_t> lastClk_;
    std::size_t W_ = 1, B0_ = 0;
    std::vector<int> racers_;
    std::vector<std::uint64_t> sets_;
    std::vector<std::size_t> stack_;
    std::vector<std::size_t> found_;

    std::uint64_t zneBlocked_ = 0;  // threads left waiting at a zne await (markers)
    std::uint64_t sleepBlocked_ = 0, races_ = 0, blockingRaces_ = 0, redundant_ = 0, inserted_ = 0;
    std::size_t maxDepth_ = 0;
};

}  // namespace

ExploreResult run(const Program& program, const ExploreOptions& opts, Mode mode) {
    ExploreResult r;
    Engine(program, opts, r, mode).run();
    return r;
}

}  // namespace porlab::dpor
