// SPDX-License-Identifier: MIT
// The DPOR engine's state and its parts, shared by its files (DporEngine.cpp says what the engine
// does and drives the search; DporSequence.cpp keeps the explored sequence E and its relations;
// DporWakeup.cpp the wakeup trees, source sets and sleep-set redundancy; DporRaces.cpp the race
// analysis at the end of an execution). Internal to the engine: include DporEngine.hpp instead.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "porlab/explore/DporEngine.hpp"

namespace porlab::dpor::detail {

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
    Engine(const Program& p, const ExploreOptions& o, ExploreResult& r, Mode m);

    void run();

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
    [[nodiscard]] bool dep(const Event& a, const Event& b) const { return conf_.dependent(a, b); }
    // A canceling decrement that waits for an observer of its increment (zne awaits).
    [[nodiscard]] bool zneAwait(const Event& e) const {
        return zne_ && e.kind == EventKind::FetchAdd && e.zne && e.aux >= 0;
    }
    // Events whose enabledness other threads change: awaits, locks, joins, zne awaits.
    [[nodiscard]] bool blocking(const Event& e) const { return mayBlock(e.kind) || zneAwait(e); }
    // Does g observe its location's value (and so enable a zne await there)?
    [[nodiscard]] static bool observes(const Event& g) {
        return accessesMemory(g.kind) && !(g.kind == EventKind::FetchAdd && !g.resultUsed &&
                                           (g.rmwOp == RmwOp::Add || g.rmwOp == RmwOp::Sub));
    }
    // Can g (another thread's event) enable or disable the blocking event e?
    [[nodiscard]] bool mayEnable(const Event& g, const Event& e) const {
        if (g.loc != e.loc || g.loc == kNoLoc) return false;
        if (e.kind == EventKind::Lock)
            return g.kind == EventKind::Lock || g.kind == EventKind::Unlock;
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

    void ensure(std::size_t d);

    int allocNode(const Event& e, std::int8_t fail);
    // (A work list, not recursion: a wakeup sequence can be as long as E.)
    void freeSubtree(int id);
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
    void push(std::size_t d, std::span<const Event> evs);

    // The accesses of a location since its last strong write (inclusive) are the ones a new
    // access may conflict with. Of those of one thread only the latest matters: its clock
    // includes the others' (program order), and in the race analysis the others are never
    // adjacent to e (the latest comes after them). Scanning the whole window instead made every
    // read of a long spin loop cost O(reads so far).
    struct LocWindow {
        int strong = -1;                // position of the last strong write
        std::vector<int> lastR, lastW;  // by thread: latest read / weak (IFAA) write after it
    };

    // preds of the access e at position d: per other thread, its latest access in the window
    // that conflicts with e; in decreasing position (the order a backward scan finds them).
    void findPreds(std::size_t d, const Event& e);

    void enterWindow(std::size_t d, const Event& e);

    void leaveWindow(std::size_t d, const Event& e);

    // Does another thread have an access of e's location (before d, where e is being pushed)
    // that does not happen before kpos (e's program-order or spawn predecessor)? The latest
    // access of each thread decides (the earlier ones happen before it).
    [[nodiscard]] bool mayRaceBack(const Event& e, std::size_t d, int kpos) const;

    void pop(std::size_t d);

    // ---- exploration ----------------------------------------------------------------------

    [[nodiscard]] std::uint64_t sleepMask(std::size_t d) const {
        std::uint64_t m = 0;
        for (const auto& s : sleep_[d]) m |= 1ULL << s.ev.thread;
        return m;
    }

    // Depth first over E, with the state of each depth (its snapshot, sleep set, wakeup tree or
    // source set, and the branch being explored: child_, pend_, failed_) in the per-depth arrays
    // rather than in one native call per event: an execution of a million events must not
    // overflow the caller's stack.
    void explore();

    // Arrives at depth d (E has d events): a maximal or sleep-set-blocked E is reported and
    // analysed and false returned; otherwise the first branch is chosen and the state saved.
    bool enter(std::size_t d);

    // Performs the next branch of depth d (the first child of its wakeup tree, or the next
    // thread of its source set not asleep): E gets its event at position d. False when none is
    // left.
    bool nextBranch(std::size_t d);

    // The branch of depth d is explored: E goes back to d events, the branch's first event
    // goes to sleep and its wakeup subtree is freed.
    void finishBranch(std::size_t d);

    // A maximal execution: the threads still waiting at a zne await are blocked there (their
    // markers end the trace; the race analysis has nothing to do for them, since no observer of
    // their increment is in E).
    void blockZneWaiters();

    // ---- race analysis --------------------------------------------------------------------

    // The wakeup sequence under construction: positions of E (in order) then the event last_.
    [[nodiscard]] const Event& itemEv(std::size_t a) const {
        return a == items_.size() ? last_ : ev_[static_cast<std::size_t>(items_[a])];
    }
    [[nodiscard]] const std::uint32_t* itemClk(std::size_t a) const {
        return a == items_.size() ? lastClk_.data() : clk(items_[a]);
    }
    // Index of the first live item of thread q, or -1.
    [[nodiscard]] int firstItemOf(ThreadId q) const;
    [[nodiscard]] bool hasPred(std::size_t a) const;
    // Is q (whose next event is qev) a weak initial of the live items?
    [[nodiscard]] bool weakInitial(const Event& qev, bool qfails) const;

    // Set up last_ and its clock within v: join of the clocks of the items it depends on.
    // lastFail: whether performing `last` in v fails the run (-1: unknown).
    void closeSequence(const Event& last, std::int8_t lastFail = -1);

    // Does the event of tree node c (below path_ in wut at depth k) fail the run? Found out by
    // replaying E[0..k) (snapshot) . path_ . c; the execution state is left dirty.
    std::int8_t resolveFail(std::size_t k, int c);

    // Insert the sequence (items_, last_) at depth k unless redundant.
    void insertSequence(std::size_t k);

    // Value of location l after the first i events of E.
    // (The last access of l before i, then the last write at or before it: O(log accesses).)
    [[nodiscard]] Value valueBefore(LocId l, std::size_t i) const;
    static Value applyWrite(const Event& g, Value cur) {
        return g.kind == EventKind::FetchAdd ? rmwResult(g, cur) : g.wval;
    }
    // Value of l after E[0..i).items_ (the items' writes re-applied in their new order).
    [[nodiscard]] Value valueAfterItems(LocId l, std::size_t i) const;

    // Non-blocking race i ≾ j: v = notdep(i,E).ê_j inserted at pre(E,i).
    void nonBlockingRace(std::size_t i, std::size_t j);

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
    void setToItems(std::size_t set);
    [[nodiscard]] bool enabledAfter(const Event& e, std::size_t i) const;

    // Blocking race of the blocking event e (an executed await/lock at position `limit`, or the
    // disabled next event of a thread after E[0..limit)). kpos: e's program-order (or spawn)
    // predecessor in E, whose history every wakeup sequence must keep.
    void blockingRace(const Event& e, std::size_t limit, int kpos);

    void analyze(EndKind kind);

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
    // The branch being explored at each depth: its wakeup tree node (Optimal), its first event
    // as it was pending (it goes to sleep afterwards), whether it failed; and whether the
    // depth's snapshot is still the current state (no restore before its first branch).
    std::vector<int> child_;
    std::vector<Event> pend_;
    std::vector<std::uint8_t> failed_, fresh_;
    std::vector<std::uint64_t> back_;
    std::vector<std::vector<SleepEntry>> sleep_;
    std::vector<std::uint32_t> clk_;

    std::vector<int> lastOf_;
    std::vector<int> spawnPos_;
    std::vector<std::vector<int>> locAcc_;
    std::vector<LocWindow> locWin_;
    std::vector<std::vector<std::vector<int>>> locThr_;  // by location, by thread: its accesses
    std::vector<int> predBuf_, undo_;                    // stacks, by position
    std::vector<std::size_t> predStart_, predCount_, undoMark_;
    // Positions of E, in order: accesses with conflicting predecessors that cannot block (race
    // analysis (a)), awaits and locks (b).
    std::vector<int> racy_, blockers_;
    std::vector<int> wBefore_;  // by position of an access: its location's last write before it

    std::vector<Node> nodes_;
    std::vector<int> freeNodes_;
    std::vector<int> freeWork_;
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

}  // namespace porlab::dpor::detail
