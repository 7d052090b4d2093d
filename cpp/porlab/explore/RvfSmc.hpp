// SPDX-License-Identifier: MIT
// RVF-SMC (Agarwal, Chatterjee, Pathak, Pavlogiannis, Toman, CAV'21, §5, Algorithm 2): stateless
// model checking under the reads-value-from equivalence. A recursion node holds a proper event set
// X, a good-writes function (in the steps), a witness trace and a causal map; it extends the
// witness maximally with non-read events, then for every enabled read and every value its visible,
// not forbidden writes carry, asks VerifySC for a witness and recurses. Backtrack signals stop the
// loop early when no ancestor read can gain a new source (Lemma 1).
//
// Extensions beyond the paper's model (read-modify-writes, locks and awaits, blocked traces,
// errors, liveness reads, final memory, the `rf` explorer) and the consistency engine: the head
// comment of RvfSmc.cpp.
//
// The recursion runs on an explicit stack of frames (RvfSmc::explore, Frame): a path is as deep as
// an execution is long, and the explorer needs no big stack (ExplorerInfo::bigStack is false).
// With jobs > 1 (RvfParallel.hpp) a child node can be handed to another worker as a task; the
// frame that handed it over waits for it before it decides whether to go on with its next read.
//
// This header is the explorer's own (not an interface): the class is split by concern over
// RvfSmc.cpp (the recursion, replay and extension), RvfSmcWrites.cpp (step clocks and the
// visible writes of a read), RvfSmcReport.cpp (error traces, maximal traces and final
// memory, kill races), RvfSmcReplay.cpp (replays from an ancestor's state),
// RvfSmcSaturate.cpp (saturated clocks) and RvfSmcMutex.cpp (lock children refuted).
#pragma once

#include <algorithm>
#include <cctype>
#include <deque>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "porlab/core/Conflict.hpp"
#include "porlab/core/Errors.hpp"
#include "porlab/explore/Explorer.hpp"
#include "porlab/explore/RvfSmcEvents.hpp"
#include "porlab/explore/RvfVerifySC.hpp"

namespace porlab::rvfsmc {

using rvf::kInitThread;
using rvf::kInitWrite;
using rvf::SpawnPoint;
using rvf::Step;
using rvf::WriteRef;

struct RvfOptions {
    bool signals = true;
    // Group the candidate writes of a read by write instead of by value: every good-writes set
    // is a singleton, so a node fixes the reads-from function of its events and the recursion is
    // reads-from SMC (the `rf` explorer) rather than RVF-SMC.
    bool perWrite = false;
    // engine=saturate (true) or classic: the shortcuts that decide a consistency question
    // without the exact search (the node's own trace as a witness, the saturated order's
    // linearisation); classic asks VerifySC's search every time (kept for ablation).
    bool fastPaths = true;
    // Tests: every child the node's saturated order refutes (saturationRefutes) is checked by
    // VerifySC as well, and a witness found there is an internal error.
    bool checkRefutations = false;
    // Tests: the saturated clocks computed when a step is registered rather than when a child
    // asks for a refutation (ensureSat); the clocks, so the refutations, are the same.
    bool eagerSat = false;
    // Tests: false leaves mutual exclusion out of RVF's saturated order (RvfSmcMutex.cpp).
    bool mutexOrder = true;
    // Tests: a child entered by a patch (relink) is replayed too; another state is an error.
    bool checkPatches = false;
    rvf::VscOptions vsc;
};

// C(r): r may read no write among the first counts[u] steps of each u, nor the initial write.
struct CausalEntry {
    ThreadId t = 0;
    std::int32_t idx = 0;
    std::vector<std::int32_t> counts;
};
using CausalMap = std::vector<CausalEntry>;

struct Pending {
    ThreadId t = 0;
    Event ev;
};

struct IntsHash {
    std::size_t operator()(const std::vector<std::int32_t>& v) const noexcept {
        std::uint64_t h = 1469598103934665603ULL;
        for (std::int32_t x : v) h = (h ^ static_cast<std::uint32_t>(x)) * 1099511628211ULL;
        return static_cast<std::size_t>(h);
    }
};

class RvfPool;
struct RvfTask;

class RvfSmc {
  public:
    RvfSmc(const Program& p, const ExploreOptions& o, ExploreResult& r, RvfOptions ro)
        : exec_(p.newExecution()),
          info_(p.info()),
          opts_(o),
          result_(r),
          rep_(p, o, r),
          ro_(std::move(ro)) {
        // VerifySC can take long between two events: it asks the budgets too.
        ro_.vsc.interrupt = [this] { return rep_.stop(); };
    }

    void run() {
        init();
        runRoot();
        finish();
    }

    // ---- jobs > 1 (RvfParallel.cpp) -----------------------------------------------------------
    // One worker's engine at nesting `level` (a worker waiting for the tasks it handed over
    // explores other tasks on the engine of the next level).
    void joinPool(RvfPool& pool, unsigned level) {
        pool_ = &pool;
        level_ = level;
    }
    // The state every exploration starts from (the program reset); then runRoot explores the
    // whole program, or runTask (as often as wanted) one handed-over subtree; finish writes the
    // result's stats.
    void init();
    void runRoot();
    void runTask(RvfTask& task);
    void finish();

  private:
    // A step of the current trace, with what its write overwrote (so that a suffix of the trace
    // can be taken back).
    struct Performed {
        ThreadId t = 0;
        std::int32_t i = 0;
        LocId loc = kNoLoc;  // the location it wrote (kNoLoc: none)
        Value oldCur = 0;
        WriteRef oldActive;
    };

    // A read mutated at an ancestor node; signal: it may gain a new source (Lemma 1).
    struct Ancestor {
        ThreadId t;
        std::int32_t idx;
        LocId loc;
        bool signal;
        std::uint64_t since;  // sigClock_ when it was pushed
    };

    // ---- replay and extension ----------------------------------------------------------------

    // Perform step s (already known) of thread t again, checking that the program agrees.
    // A node's newest read (`fresh`) was first performed at the end of its parent's trace, where
    // memory may hold another value than the one it was told to read; in the witness it reads a
    // real write. A program whose faults depend on more than the value read (the C front end's
    // use after free depends on the block's status) may fail in one place and not in the other:
    // the witness is a real execution, so its step is kept. Returns whether s.writes changed.
    bool redo(ThreadId t, Step& s, bool fresh = false);

    // A step that reads nothing faulted in one execution and not in another with the same reads
    // before it: its fault depends on its order with another event (in C, a plain write to a
    // block that a free or the end of a stack frame kills), which a recursion on reads-from
    // cannot tell apart.
    [[noreturn]] void unorderedFault(const Event& e) const;

    // The initial value of a location. A C program creates locations as they are first used (a
    // malloc'd block's start uninitialised, a thread-local's copy with its initialiser): the
    // program's table has the value from then on, which the memory at reset did not know.
    [[nodiscard]] Value initVal(LocId x) const {
        const auto i = static_cast<std::size_t>(x);
        return i < info_->initialValues.size() ? info_->initialValues[i] : initVals_[i];
    }
    // The value of x in the replay so far.
    [[nodiscard]] Value curVal(LocId x) const {
        const auto i = static_cast<std::size_t>(x);
        return active_[i].t == kInitThread ? initVal(x) : cur_[i];
    }

    // A free or a frame end (an exchange writing kDeadValue) and a plain write of another thread
    // to the same location that was performed as a write (before the location was known to be
    // killable, see liveness reads), neither in the other's causal past: whether the write faults
    // depends on their order, which the recursion did not fix for it, so one of the two orders
    // may be missed with no replay to notice it. Such a program is rejected rather than answered
    // wrongly.
    void checkKillRaces(const std::vector<std::int32_t>& sl);

    [[noreturn]] void raceWithKill(const Event& kill, const Event& write) const;

    // ---- liveness reads -----------------------------------------------------------------------
    //
    // A free or the end of a stack frame kills each location of the block with an exchange that
    // writes kDeadValue; a plain write that comes after it faults (a use after free). So the write
    // observes the location, dead or alive, like a read: performed as soon as it comes (as the
    // recursion does with writes), it would fault or not by the order of the current trace, and
    // the other order is a class the recursion never reaches. A plain write to a location known
    // to be killable is therefore a read of the recursion (a liveness read, Step::reads with kind
    // Write) whose good writes are grouped by what it observes: the kills, or all the others. It
    // is not a reads-from edge (its source is not part of the class). Locations become killable
    // when a kill of them is pending; a write performed before that, which then races with a kill,
    // is caught by checkKillRaces.
    [[nodiscard]] static bool isLiveness(const Step& s) {
        return s.reads && s.ev.kind == EventKind::Write;
    }

    [[nodiscard]] bool guarded(const Event& p) const {
        const auto x = static_cast<std::size_t>(p.loc);
        return p.kind == EventKind::Write && p.loc >= 0 && x < killable_.size() && killable_[x];
    }

    void noteKill(const Event& p) {
        if (p.kind != EventKind::Exchange || p.wval != kDeadValue || p.loc < 0) return;
        const auto x = static_cast<std::size_t>(p.loc);
        if (x >= killable_.size()) killable_.resize(x + 1, 0);
        killable_[x] = 1;
    }

    void noteKills() {
        for (ThreadId t = 0; t < T_; ++t)
            if (exec_->status(t) == ThreadStatus::Ready) noteKill(exec_->pending(t));
    }

    void performed(ThreadId t, const Step& s) {
        const auto i = static_cast<std::int32_t>(s.ev.index);
        // The first time a step is in a trace: its clock and its place in the per-location
        // lists (they hold while the step exists; steps are the same in every trace of a node).
        if (i >= reg_[static_cast<std::size_t>(t)]) registerStep(t, i, s);
        Performed p{t, i, kNoLoc, 0, kInitWrite};
        if (s.writes) {
            const auto l = static_cast<std::size_t>(s.ev.loc);
            p.loc = s.ev.loc;
            p.oldCur = cur_[l];
            p.oldActive = active_[l];
            cur_[l] = s.ev.wval;
            active_[l] = {t, i};
        }
        order_.push_back(p);
        if (s.fails) anyFail_ = true;
    }

    // Take back the trace after its first n steps (memory as it was then).
    void truncateTrace(std::size_t n) {
        while (order_.size() > n) {
            const Performed& p = order_.back();
            if (p.loc != kNoLoc) {
                cur_[static_cast<std::size_t>(p.loc)] = p.oldCur;
                active_[static_cast<std::size_t>(p.loc)] = p.oldActive;
            }
            order_.pop_back();
        }
    }

    // The events of the current trace (built when a trace is reported).
    const std::vector<Event>& traceEvents() {
        traceBuf_ = initEvents_;
        for (const Performed& p : order_) {
            const Step& s = steps_[static_cast<std::size_t>(p.t)][static_cast<std::size_t>(p.i)];
            traceBuf_.insert(traceBuf_.end(), s.out.begin(), s.out.end());
        }
        return traceBuf_;
    }

    // A replay replaces the trace of the node that asked for it. What it replaces is kept (the
    // part after the prefix the replayed witness shares with it) and put back afterwards, so
    // that a node's trace survives its children without a copy per node: an exploration path
    // is as long as the execution, and a copy of the trace at every node made memory quadratic.
    struct SavedTrace {
        bool active = false;
        std::size_t keep = 0;
        std::vector<Performed> suffix;
        bool anyFail = false;
    };
    // Record, before replaying `witness`, what the replay changes in the current trace.
    void saveTrace(SavedTrace& sv, std::span<const ThreadId> witness);  // RvfSmcReplay.cpp
    void restoreTrace(SavedTrace& sv);
    struct RestoreGuard {
        RvfSmc& self;
        SavedTrace& sv;
        ~RestoreGuard() { self.restoreTrace(sv); }
    };

    // Replays `witness`; `fresh` is the thread whose last step is the node's newest read (see
    // redo), and *changed tells whether that step's write part came or went.
    [[nodiscard]] bool replay(std::span<const ThreadId> witness, ThreadId fresh = -1,
                              bool* changed = nullptr) {
        std::vector<std::int32_t>& cnt = replayCnt_;
        cnt.assign(static_cast<std::size_t>(T_), 0);
        const std::size_t from = replayStart(cnt);
        for (std::size_t k = from; k < witness.size(); ++k) {
            const ThreadId t = witness[k];
            if (rep_.stop()) return false;
            auto& st = steps_[static_cast<std::size_t>(t)];
            const auto i = static_cast<std::size_t>(cnt[t]++);
            const bool c = redo(t, st[i], t == fresh && i + 1 == st.size());
            if (!cutOut_.empty()) {
                // The C front end cuts an execution at a total number of events: the witness,
                // another interleaving of the same steps, reached it elsewhere than the run
                // that recorded them. The execution is blocked there (execution-cut).
                std::vector<Event> events = traceEvents();
                events.insert(events.end(), cutOut_.begin(), cutOut_.end());
                cutOut_.clear();
                rep_.maximal(Reporter::classify(*exec_), *exec_, events);
                return false;
            }
            if (changed) *changed = *changed || c;
        }
        return true;
    }

    // Extend maximally with events that read nothing: the writes performed, pendBuf_ the reads.
    [[nodiscard]] bool extend(std::vector<std::int32_t>& sl,
                              std::vector<std::pair<ThreadId, LocId>>& writes);

    // ---- replays from an ancestor's state (RvfSmcReplay.cpp) ----------------------------------
    //
    // A node that keeps its program state (its frame's snapshot, for its later children) records
    // it with its trace's length. A child's witness that starts with the trace of such a node is
    // replayed from its snapshot rather than from the reset state. A record holds for the node's
    // subtree while the current trace extends the node's: a child entered with a replay of a
    // witness that shares c events with its parent's trace keeps the records up to c (those
    // past c are off for its subtree; a second replay from scratch, see enterNode, hides all:
    // snapBase_), a read inserted in place at q shifts the positions after q (records past q
    // are off for that child's subtree). Records of frames that are gone (frame index >=
    // depth_) are dropped when met.
    struct PrefixSnap {
        std::size_t pos = 0;               // the trace's length when the snapshot was taken
        std::size_t frame = 0;             // frames_[frame].snap
        std::vector<std::int32_t> counts;  // steps of every thread in that trace
        bool anyFail = false;
        bool valid = true;
    };
    struct ChildSnaps {  // what a child changed in the records (leaveChild puts it back)
        std::size_t base = 0;
        std::vector<std::size_t> off;
    };
    // A copy of `from` in the buffer of dropped step counts (causal-map entries, records).
    [[nodiscard]] std::vector<std::int32_t> pooledCopy(const std::vector<std::int32_t>& from);
    void pushPrefixSnap(std::size_t frame, std::size_t pos, const std::vector<std::int32_t>& counts,
                        bool anyFail);
    void dropStaleSnaps(std::size_t depth);
    // Before the child of frame `parent`: `inPlace` with r inserted at q, `here` (r at the end),
    // else the child replays `witness` from the deepest record it starts with.
    void enterChild(std::size_t parent, bool here, bool inPlace, std::size_t q,
                    std::span<const ThreadId> witness);
    void leaveChild(std::size_t parent);
    // replay's starting point: the chosen record's state (its position) or the reset state (0).
    std::size_t replayStart(std::vector<std::int32_t>& cnt);

    // ---- witnesses by insertion ---------------------------------------------------------------
    //
    // The node's trace σ is a witness of its events; a child adds one read r, the pending event of
    // thread t (step idx, s), with its good writes. Inserted into σ just before the first write
    // of r's location that follows a good write w (or at σ's end), r reads w; the events before
    // it are unchanged, and so are those after it when r writes nothing. When r writes, the write
    // right after it must not read the location (it would read r), and every later read reads
    // that write or a later one. So that σ' is a witness of the child when r's thread
    // predecessor (or its spawn) comes before the insertion point: no VerifySC call (closure,
    // clocks, linearisation of the whole instance) for it. Returns the latest such point, or -1.
    [[nodiscard]] std::ptrdiff_t insertionPoint(ThreadId t, std::int32_t idx, const Step& s) const;

    // When no insertion point exists (a write of r's location comes between its source w and
    // its thread predecessor): F is the causal future in σ (program order, spawn, join,
    // reads-from) of the writes of the location after w, and σ' = (σ without F) · r · F. The
    // events outside F keep their sources (a source in F would put the reader in F, and a write
    // of F between an event and its source would be its source), r reads w when its
    // predecessor is not in F, and σ' respects program order, spawns and joins (F is closed
    // under them); whether F's reads keep their sources behind r and the events before them is
    // checked by running σ' over the last writer of each location. The witness goes to w.
    [[nodiscard]] bool postponedWitness(ThreadId t, const Step& s, std::vector<ThreadId>& w);

    // The state after σ' is the one after σ·r (r ran at σ's end) but for memory: each thread's
    // steps read the same values in both. relink takes the trace to σ' with no interpreter step
    // and patches the memory its reordered part writes (Execution::patchMemory), where nothing
    // else may depend on the order (patchable: no kill seen, no failing step, no block that
    // depends on the interleaving, no mutex). relink: false when a budget stopped it.
    [[nodiscard]] bool patchable(std::span<const ThreadId> witness, ThreadId t) const;
    [[nodiscard]] bool relink(std::span<const ThreadId> witness);

    // The threads of σ with t inserted at position q (the witness of insertionPoint).
    void insertedWitness(std::vector<ThreadId>& w, std::size_t q, ThreadId t) const {
        w.clear();
        w.reserve(order_.size() + 1);
        for (std::size_t k = 0; k < order_.size(); ++k) {
            if (k == q) w.push_back(t);
            w.push_back(order_[k].t);
        }
        if (q >= order_.size()) w.push_back(t);
    }

    // A read that writes nothing leaves memory as it was, and a thread's state depends on the
    // values it read, not on where its steps were: the program after σ and r (told w's value)
    // is in the state σ' leaves it in. Only the trace differs: r goes into it at position q,
    // registered with source w, with no replay. (The caller takes it out with takeOut.)
    void performedAt(ThreadId t, const Step& s, std::size_t q, WriteRef w) {
        const auto i = static_cast<std::int32_t>(s.ev.index);
        if (i >= reg_[static_cast<std::size_t>(t)]) {
            auto& a = active_[static_cast<std::size_t>(s.ev.loc)];
            const WriteRef keep = a;
            a = w;  // (registerStep takes a read's source from active_)
            registerStep(t, i, s);
            a = keep;
        }
        order_.insert(order_.begin() + static_cast<std::ptrdiff_t>(q),
                      Performed{t, i, kNoLoc, 0, kInitWrite});
    }
    // The source of the read inserted at position q: the last write of its location before q.
    [[nodiscard]] WriteRef writerBefore(std::size_t q, LocId x) const {
        for (std::size_t k = q; k-- > 0;)
            if (order_[k].loc == x) return {order_[k].t, order_[k].i};
        return kInitWrite;
    }
    // Undo performedAt after the child: the trace after the node's own (its length n, r's
    // position q) goes, and r with it.
    void takeOut(std::size_t n, std::size_t q, ThreadId t, std::int32_t i) {
        if (order_.size() < n + 1) return;  // (cut short by a budget: nothing reads it any more)
        truncateTrace(n + 1);
        if (order_[q].t == t && order_[q].i == i)
            order_.erase(order_.begin() + static_cast<std::ptrdiff_t>(q));
    }

    // ---- steps: clocks and per-location lists ------------------------------------------------

    // Per location and thread, the indices of the thread's write steps and read steps of the
    // location, among the registered steps. Allocated on first use.
    struct LocLists {
        std::vector<std::vector<std::int32_t>> writes, reads;
    };
    LocLists& lists(LocId l) {
        const auto& p = locLists_[static_cast<std::size_t>(l)];
        return p ? *p : newLists(l);
    }
    LocLists& newLists(LocId l);

    // Program-order clocks (with spawn and join edges) of the steps. For reads-from SMC, causal
    // clocks: with reads-from edges too (a node fixes the source of every read, so every witness
    // of its children orders each read after its source: the clock is the same in every trace),
    // and src_ holds the sources. For RVF (engine=saturate), a read comes after the meet of its
    // good writes' clocks: whichever it reads, what precedes all of them precedes it (with one
    // good write, its reads-from edge).
    void registerStep(ThreadId t, std::int32_t i, const Step& s);

    // Thread t keeps its first n steps.
    void truncateSteps(ThreadId t, std::size_t n) {
        // (most threads, after most children: nothing to drop)
        if (steps_[static_cast<std::size_t>(t)].size() > n) dropSteps(t, n);
    }
    void dropSteps(ThreadId t, std::size_t n);
    // A fresh step whose vectors reuse the capacity of a dropped one: steps are made and dropped
    // at every child of every node, and allocating their vectors each time cost a tenth of rf's
    // time on small programs.
    [[nodiscard]] Step newStep();

    [[nodiscard]] const std::int32_t* poClock(ThreadId t, std::int32_t i) const {
        const auto T = static_cast<std::size_t>(T_);
        return &clk_[static_cast<std::size_t>(t)][static_cast<std::size_t>(i) * T];
    }
    [[nodiscard]] const Step& step(ThreadId t, std::int32_t i) const {
        return steps_[static_cast<std::size_t>(t)][static_cast<std::size_t>(i)];
    }

    // ---- error traces ---------------------------------------------------------------------------
    // The causal past (program order with spawn and join edges, reads-from) of the step at
    // position p of order_, which fails: a real execution whose first error is that step's.
    void reportError(std::size_t p);

    // A plain write that faults: in the C front end, a write to a block that a free or the end
    // of a stack frame killed before it (it wrote the location last). Its causal past includes
    // that last write, as if the write read it, so that the error trace is a real execution.
    [[nodiscard]] static bool faultsByOrder(const Step& s) {
        return s.fails && !s.reads && writesMemory(s.ev.kind) && s.ev.loc >= 0;
    }

    [[nodiscard]] std::int32_t spawnPos(ThreadId c,
                                        const std::vector<std::vector<std::int32_t>>& at) const {
        const SpawnPoint sp = spawnOf_[static_cast<std::size_t>(c)];
        if (sp.t < 0) return -1;
        const auto& a = at[static_cast<std::size_t>(sp.t)];
        return sp.i < static_cast<std::int32_t>(a.size()) ? a[static_cast<std::size_t>(sp.i)] : -1;
    }

    // ---- maximal traces and final memory ------------------------------------------------------

    [[nodiscard]] rvf::Instance instance(const std::vector<std::int32_t>& len) const {
        rvf::Instance in;
        in.steps = &steps_;
        in.len = len;
        in.spawnOf = &spawnOf_;
        in.numLocs = L_;
        return in;
    }

    // Writes of location x among the first sl[t] steps of every thread, with their values (in
    // thread order, then step order).
    using Writes = std::vector<std::pair<WriteRef, Value>>;
    [[nodiscard]] Writes writesOf(LocId x, const std::vector<std::int32_t>& sl) {
        Writes w;
        if (!locLists_[static_cast<std::size_t>(x)]) return w;
        const LocLists& ll = lists(x);
        for (ThreadId t = 0; t < T_; ++t)
            for (const std::int32_t i : ll.writes[static_cast<std::size_t>(t)]) {
                if (i >= sl[t]) break;
                w.push_back({{t, i}, step(t, i).ev.wval});
            }
        return w;
    }

    // The node's events form a maximal execution when every pending event stays disabled: report
    // one trace, and every other final memory of the class as an outcome (replays: see snap).
    void reportMaximal(const std::vector<std::int32_t>& sl, const std::vector<Pending>& pend,
                       Snapshot& snap, bool& haveSnap);

    // ---- the recursion (Algorithm 2) ----------------------------------------------------------

    [[nodiscard]] static const CausalEntry* lookup(const CausalMap& c, ThreadId t,
                                                   std::int32_t idx) {
        for (const auto& e : c)
            if (e.t == t && e.idx == idx) return &e;
        return nullptr;
    }

    // Backtrack signals (lines 2-5): thread u wrote, or may write, location x. An ancestor read
    // of x of another thread is signalled by every such event after it was pushed; the time of
    // the last one per location and thread tells (instead of visiting every ancestor: the
    // ancestors are as many as the reads of the execution).
    void signalWrite(ThreadId u, LocId x) {
        auto& s = sigTime_[static_cast<std::size_t>(x)];
        if (s.empty()) s.assign(static_cast<std::size_t>(T_), 0);
        s[static_cast<std::size_t>(u)] = ++sigClock_;
    }
    [[nodiscard]] bool signalled(const Ancestor& a) const {
        if (a.signal) return true;
        const auto& s = sigTime_[static_cast<std::size_t>(a.loc)];
        for (std::size_t u = 0; u < s.size(); ++u)
            if (static_cast<ThreadId>(u) != a.t && s[u] > a.since) return true;
        return false;
    }

    // The recursion runs on an explicit stack of frames (frames_[0, depth_)), not on the C++
    // stack: an exploration path is as deep as the execution is long. A frame is one node of
    // Algorithm 2 whose loop over its reads (lines 16-34) is under way; it holds what the
    // recursive call kept in its locals. Frames are reused from one node to the next at the
    // same depth (their vectors keep their capacity).
    // The part of a read's visible writes that its causal past decides (visibleWrites): per
    // thread, how many of its writes of the read's location are in the past, and those of the
    // past that are visible (the latest of a thread, if no other write or read of the past
    // hides it), in thread order. The past of the pending read of thread t at step ridx > 0 is
    // fixed while t keeps its first ridx steps (a node's events are closed under the causal
    // past), at step 0 while t's spawn is kept: every node down the path, and its siblings,
    // that has the same read pending takes the part last computed for it instead of computing
    // it again. Kept per thread, dropped with the thread's steps below ridx or with its spawn
    // (dropSteps) and at a task's start (runTask).
    struct VisPast {
        std::int32_t ridx = -1;
        LocId loc = kNoLoc;
        bool anyInPast = false;
        std::vector<std::int32_t> inPast;
        std::vector<WriteRef> latest;
    };

    struct Frame {
        SavedTrace sv;                 // what the node's replay replaced (put back at its end)
        std::vector<std::int32_t> sl;  // per thread, the node's steps after its extension
        std::vector<std::int32_t> xl;  // per thread, the steps of its current child
        std::vector<Pending> mutate;   // the reads to mutate, in order (lines 7-14)
        CausalMap Cn;                  // the causal map passed to the children
        Snapshot snap;                 // the program state after the extension
        bool haveSnap = false;
        std::size_t traceLen = 0;  // the node's trace: its children put it back
        bool anyFail = false;
        bool backtrack = true, firstChild = true;
        std::size_t k = 0;      // mutate[k] is the read being mutated
        bool inRead = false;    // its groups are being explored
        std::int32_t ridx = 0;  // its step index
        bool live = false;      // it is a liveness read
        std::vector<std::pair<Value, std::vector<WriteRef>>> groups;  // its good-writes sets
        std::size_t g = 0;                                            // the next group
        // The child of groups[g - 1]: its step is pushed; `launched`: a witness was found and the
        // child node ran (an ancestor entry is pushed), inPlace/q: see performedAt.
        bool childPending = false, launched = false, inPlace = false;
        std::size_t q = 0;
        // jobs > 1: the children of the current read handed over to other workers (joinHanded).
        std::vector<std::shared_ptr<RvfTask>> handed;
    };

    // Hand the child node (xl, witness, causal map f.Cn, new read of thread t) over to the pool
    // (jobs > 1) instead of exploring it here.
    // (atState: the program is in the child's state, see RvfTask::atState.)
    void handOver(Frame& f, std::span<const ThreadId> witness, const std::vector<std::int32_t>& xl,
                  ThreadId t, bool atState);
    // Before a frame leaves its read: wait for the children it handed over and take in what
    // they found (their backtrack signals). false: the pool stopped.
    [[nodiscard]] bool joinHanded(Frame& f);
    // Is this error class (reportError's key) reported for the first time (by any worker)?
    [[nodiscard]] bool firstErrorClass(std::vector<std::int32_t>&& key);
    // Should the child about to be entered go to another worker (one waits for work)?
    [[nodiscard]] bool wantsHandOver() const;

    // Explores the subtree of a node (Algorithm 2's call) to its end, frame by frame.
    void explore(std::span<const ThreadId> witness, const std::vector<std::int32_t>& xlen,
                 const CausalMap& C, ThreadId newT, bool here = false);

    // The node's part before its loop over reads: replay, extension, signals, maximal trace, the
    // reads to mutate. Pushes the node's frame and returns true when it has reads to mutate
    // (false: the node is done, its trace put back).
    // `witness` is the node's trace, to replay unless `here`: the program and the current trace
    // are then already at the end of it (the parent's trace extended by the new read).
    // (`witness` may be the workspace's: it is used before the next verifySC.)
    [[nodiscard]] bool enterNode(std::span<const ThreadId> witness,
                                 const std::vector<std::int32_t>& xlen, const CausalMap& C,
                                 ThreadId newT, bool here);

    // Runs the loop of the top frame until it starts a child node (returns true: a frame was
    // pushed) or is done (false; the caller pops it).
    [[nodiscard]] bool advance(Frame& f);

    // Starts mutating f.mutate[f.k]: its good-writes sets (lines 17-21).
    void startRead(Frame& f);
    // Done with f.mutate[f.k] (lines 33-34).
    void finishRead(Frame& f);
    // One child of the read being mutated, the one of good-writes set `good` (value v): the read
    // performed, a witness of the child sought (VerifySC or a fast path) and, when there is one,
    // the child node entered. Returns whether the child's frame was pushed.
    [[nodiscard]] bool child(Frame& f, Value v, const std::vector<WriteRef>& good);
    // After that child (its subtree explored, or no witness): the parent's trace and steps back.
    void afterChild(Frame& f);

    // ---- saturated clocks (RvfSmcSaturate.cpp, which says why they are sound) ----------------
    // engine=saturate: per step, like the causal clocks, an order that every witness of the
    // node's children linearises (program order, spawn/join, what precedes all of a read's good
    // writes, and the coherence edges that point to the step); a child whose good writes it all
    // hides is refuted without VerifySC.
    [[nodiscard]] const std::int32_t* satClock(ThreadId t, std::int32_t i) const {
        const auto T = static_cast<std::size_t>(T_);
        return &satClk_[static_cast<std::size_t>(t)][static_cast<std::size_t>(i) * T];
    }
    // How many steps of thread t have their saturated clock computed (a prefix of its steps).
    [[nodiscard]] std::int32_t satCount(ThreadId t) const {
        return static_cast<std::int32_t>(satClk_[static_cast<std::size_t>(t)].size() /
                                         static_cast<std::size_t>(T_));
    }
    // Computes the saturated clocks of the registered steps that have none, in their order of
    // registration (registerStep logs them with engine=saturate).
    void ensureSat();
    // (dropSteps with engine=saturate: thread t, which had oldReg steps registered, keeps n)
    void dropSat(ThreadId t, std::int32_t oldReg, std::size_t n);
    // The saturated clock of step i of thread t, the next one without (ensureSat).
    void registerSat(ThreadId t, std::int32_t i, const Step& s);
    // Joins into clock c the clocks of the reads of x whose good writes (source) are all before
    // c (not `self`), until none is left: the reads that a write with clock c must come after.
    void satJoinEarlierReads(LocId x, WriteRef self, std::int32_t* c) const;
    template <class Before>
    [[nodiscard]] bool allGoodBefore(ThreadId u, std::int32_t i, WriteRef self,
                                     Before before) const;
    // Joins into clock c the clocks of the reads that come before a write before c (backward).
    void satJoinBackward(std::int32_t* c) const;
    // Joins into clock c the meet of the saturated clocks of `good` (none if one is initial).
    void joinGoodMeet(const std::vector<WriteRef>& good, std::int32_t* c);
    // Does the order refute the child of frame f where thread t's step ridx (rs, pushed, not
    // yet registered) reads one of `good`? backward: with the edges into older steps too.
    [[nodiscard]] bool saturationRefutes(const Frame& f, ThreadId t, std::int32_t ridx,
                                         const std::vector<WriteRef>& good, const Step& rs,
                                         bool backward = false);
    // Mutual exclusion (RvfSmcMutex.cpp): refutes the child, or joins edges into r's clock c.
    [[nodiscard]] bool mutexRefutes(ThreadId t, std::int32_t ridx, const Step& rs,
                                    const std::vector<std::int32_t>& sl,
                                    const std::vector<WriteRef>& good, std::int32_t* c,
                                    bool& joined);

    // ---- visible writes: VisibleW_{PO|E(σ̃)}(r) -------------------------------------------------

    // The writes of r's location r may read: those not in r's program-order (causal) past, and
    // those of its past that no other write of its past comes after. In thread order, then step
    // order. Of the writes of one thread in r's past only the latest can be visible (the others
    // come before it), and whether another write comes after it is decided by the latest write of
    // each other thread in the past (clocks grow along a thread): O(threads²) per read, where
    // comparing all pairs of writes made a node cost O(writes²).
    // A write is also hidden from r by a read of r's causal past that comes after it and reads
    // another write (reads-from SMC), or whose good writes do not include it (RVF, saturate):
    // every witness puts that other write between.
    // (The result is a buffer of the explorer's, valid until the next call.) `past`: r's past
    // part, computed into it unless `known`.
    [[nodiscard]] const std::vector<WriteRef>& visibleWrites(const Pending& r,
                                                             const std::vector<std::int32_t>& sl,
                                                             bool known, VisPast& past);
    // The past part of visibleWrites.
    void visiblePast(const Pending& r, const std::vector<std::int32_t>& sl, VisPast& out);

    // Does a read of loc in the causal past `past` come after write w and read another write
    // (RVF: have good writes without w)? Per thread, the reads after w are the latest ones
    // (clocks grow along the thread); for reads-from SMC, of those reading w, prevDiff_ skips to
    // the latest with another source. (RVF with engine=classic: never; program order only.)
    [[nodiscard]] bool hiddenByRead(LocId loc, WriteRef w,
                                    const std::vector<std::int32_t>& past) const;

    std::unique_ptr<Execution> exec_;
    std::shared_ptr<const ProgramInfo> info_;
    const ExploreOptions& opts_;
    ExploreResult& result_;
    Reporter rep_;
    RvfOptions ro_;
    int T_ = 0;
    std::size_t L_ = 0;
    std::vector<Event> initEvents_;
    std::vector<Value> initVals_;
    std::vector<std::vector<Step>> steps_;
    std::vector<SpawnPoint> spawnOf_;
    // Per thread: how many of its steps are registered (clock and lists computed), their clocks
    // (T_ per step) and, for reads-from SMC, the source of each read and prevDiff (the latest
    // earlier read of the same location by the thread with another source).
    std::vector<std::int32_t> reg_;
    std::vector<std::vector<std::int32_t>> clk_, prevDiff_;
    std::vector<std::vector<WriteRef>> src_;
    std::vector<std::unique_ptr<LocLists>> locLists_;  // by location
    std::vector<LocId> usedLocs_;                      // the locations with lists
    // the current trace: steps in order (each with what its write overwrote), visible memory and
    // its writers
    std::vector<Performed> order_;
    std::vector<Value> cur_;
    std::vector<WriteRef> active_;
    bool anyFail_ = false;
    std::vector<std::int32_t> lastPos_;  // postponedWitness: by location, last writer (-1: init)
    std::vector<WriteRef> lastW_;        // postponedWitness: by location, last writer (if set)
    std::vector<char> inF_, threadF_;
    std::vector<std::int32_t> visPast_, visLatest_;  // visiblePast's scratch
    std::vector<VisPast> visCache_;                  // by thread
    std::uint64_t visInherited_ = 0;                 // past parts taken from visCache_
    std::vector<WriteRef> visBuf_;                   // visibleWrites' result
    std::vector<Step> stepPool_;                     // dropped steps, for their buffers (newStep)
    std::vector<std::vector<WriteRef>> groupPool_;   // startRead: dropped good-writes sets
    std::vector<std::vector<std::int32_t>> countPool_;      // see pooledCopy
    std::vector<std::int32_t> replayCnt_;                   // replay's step counts
    std::vector<std::pair<ThreadId, LocId>> extWritesBuf_;  // enterNode: the extension's writes
    std::vector<Pending> pendBuf_;                          // extend: the enabled reads
    std::vector<std::vector<std::int32_t>> satClk_;         // saturated clocks, like clk_
    std::vector<WriteRef> satLog_;      // registered steps without a saturated clock, in order
    std::size_t satPending_ = 0;        // how many (satLog_'s size when no entry is stale)
    std::vector<std::int32_t> satBuf_;  // saturationRefutes: the new read's clock
    std::vector<std::int32_t> satMeet_, mutexLast_, mutexHeld_;  // joinGoodMeet's, mutexRefutes'
    std::uint64_t satRefuted_ = 0, satClocks_ = 0, mutexRefuted_ = 0, satBackward_ = 0;
    std::vector<PrefixSnap> prefixSnaps_;     // see enterChild
    std::vector<ChildSnaps> childSnaps_;      // by frame: what its current child changed
    std::size_t snapBase_ = 0;                // records below it are not prefixes of the trace
    const PrefixSnap* replayFrom_ = nullptr;  // the next replay starts from it
    std::uint64_t replayedFromSnap_ = 0, patched_ = 0;
    bool patchNext_ = false;             // the next node is entered by relink, not by a replay
    std::vector<std::int32_t> meetBuf_;  // registerStep (rvf): the meet of the good writes' clocks
    std::vector<std::int32_t> locSlot_;  // reportMaximal: by location, its index (-1: none)
    // reportMaximal's buffers, kept: made per maximal trace, they cost rf ~3% on szymanski
    std::vector<LocId> maxLocs_;
    std::vector<std::vector<Value>> maxValues_;  // (entries past maxLocs_'s size: for reuse)
    std::vector<Value> maxVs_;
    std::vector<WriteRef> maxLasts_;
    std::vector<char> killable_;            // locations a free or frame end kills (liveness reads)
    std::vector<Event> traceBuf_, cutOut_;  // cutOut_: a replayed step the length cut stopped
    std::vector<ThreadId> auxBuf_, lastWitness_, insBuf_;
    rvf::Workspace ws_;
    std::unordered_set<std::vector<std::int32_t>, IntsHash> errorsSeen_;  // error classes reported
    std::vector<Ancestor> ancestors_;
    std::deque<Frame> frames_;  // the recursion's stack (a deque: references stay valid)
    std::size_t depth_ = 0;     // frames in use
    std::vector<std::vector<std::uint64_t>> sigTime_;  // by location, by thread: last signal
    std::uint64_t sigClock_ = 0;
    rvf::VscStats vsc_, fin_;
    std::uint64_t skipped_ = 0, nodes_ = 0, inserted_ = 0, unreplayed_ = 0, postponed_ = 0;
    RvfPool* pool_ = nullptr;    // jobs > 1: the workers' pool (null: one job)
    unsigned level_ = 0;         // this engine's nesting level in its worker
    std::size_t depthBase_ = 0;  // the depth of the node explore() starts from (a task's)
};

}  // namespace porlab::rvfsmc
