// SPDX-License-Identifier: MIT
// RVF-SMC (Agarwal, Chatterjee, Pathak, Pavlogiannis, Toman, CAV'21, §5, Algorithm 2): stateless
// model checking under the reads-value-from equivalence. A recursion node holds a proper event set
// X, a good-writes function (in the steps), a witness trace and a causal map; it extends the
// witness maximally with non-read events, then for every enabled read and every value its visible,
// not forbidden writes carry, asks VerifySC for a witness and recurses. Backtrack signals stop the
// loop early when no ancestor read can gain a new source (Lemma 1).
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
#include <algorithm>
#include <cctype>
#include <memory>
#include <span>
#include <stdexcept>
#include <unordered_set>
#include <utility>

#include "porlab/core/Conflict.hpp"
#include "porlab/core/Errors.hpp"
#include "porlab/explore/Explorer.hpp"
#include "porlab/explore/RvfVerifySC.hpp"

namespace porlab {

namespace {

using rvf::kInitThread;
using rvf::kInitWrite;
using rvf::SpawnPoint;
using rvf::Step;
using rvf::WriteRef;

[[nodiscard]] bool isBlocking(EventKind k) {
    return k == EventKind::Await || k == EventKind::XchgAwait || k == EventKind::Lock;
}

// A pending read of this kind may turn out to write (a read-modify-write).
[[nodiscard]] bool mayWrite(EventKind k) {
    return writesMemory(k) || k == EventKind::CasFailure;
}

// Can the pending read-like event `p` read value v (and so execute)?
[[nodiscard]] bool admits(const Event& p, Value v) {
    switch (p.kind) {
    case EventKind::Lock: return v == 0;
    case EventKind::Await:
    case EventKind::XchgAwait: return evalAwaitCond(p.cond, v, p.operand);
    default: return true;
    }
}

[[nodiscard]] bool hasError(std::span<const Event> out) {
    return std::any_of(out.begin(), out.end(), [](const Event& e) { return isErrorKind(e.kind); });
}

struct RvfOptions {
    bool signals = true;
    // Group the candidate writes of a read by write instead of by value: every good-writes set
    // is a singleton, so a node fixes the reads-from function of its events and the recursion is
    // reads-from SMC (the `rf` explorer) rather than RVF-SMC.
    bool perWrite = false;
    rvf::VscOptions vsc;
};

bool flag(const ExploreOptions& o, const std::string& explorer, const std::string& name) {
    return o.option<bool>(name, explorer);
}

// C(r): for a read (thread, index), per thread the number of events whose writes r may not read
// (the initial write is forbidden too once C(r) is defined).
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

class RvfSmc {
public:
    RvfSmc(const Program& p, const ExploreOptions& o, ExploreResult& r, RvfOptions ro)
        : exec_(p.newExecution()), info_(p.info()), opts_(o), result_(r), rep_(p, o, r),
          ro_(std::move(ro)) {
        // VerifySC can take long between two events: it asks the budgets too.
        ro_.vsc.interrupt = [this] { return rep_.stop(); };
    }

    void run() {
        auto init = exec_->reset();
        initEvents_.assign(init.begin(), init.end());
        T_ = exec_->maxThreads();
        if (exec_->failed()) {
            rep_.maximal(TraceStatus::Error, *exec_, initEvents_);
        } else {
            const auto mem = exec_->memory();
            initVals_.assign(mem.begin(), mem.end());
            L_ = initVals_.size();
            steps_.assign(static_cast<std::size_t>(T_), {});
            spawnOf_.assign(static_cast<std::size_t>(T_), SpawnPoint{kInitThread, 0});
            reg_.assign(static_cast<std::size_t>(T_), 0);
            clk_.assign(static_cast<std::size_t>(T_), {});
            prevDiff_.assign(static_cast<std::size_t>(T_), {});
            src_.assign(static_cast<std::size_t>(T_), {});
            locLists_.clear();
            locLists_.resize(L_);
            sigTime_.assign(L_, {});
            node({}, std::vector<std::int32_t>(static_cast<std::size_t>(T_), 0), {}, -1);
        }
        rep_.finish();
        auto& s = result_.stats;
        s["verifysc_calls"] = static_cast<double>(vsc_.calls);
        s["verifysc_seconds"] = vsc_.seconds;
        s["verifysc_states"] = static_cast<double>(vsc_.states);
        s["verifysc_skipped"] = static_cast<double>(skipped_);
        s["closure_rejections"] = static_cast<double>(vsc_.closureRejects + fin_.closureRejects);
        s["nodes"] = static_cast<double>(nodes_);
        s["outcome_verifysc_calls"] = static_cast<double>(fin_.calls);
        s["outcome_verifysc_seconds"] = fin_.seconds;
    }

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
    bool redo(ThreadId t, Step& s, bool fresh = false) {
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
        if (e.kind != s.ev.kind || e.loc != s.ev.loc || e.wval != s.ev.wval ||
            e.index != s.ev.index || (fails != s.fails && !fresh))
            throw std::logic_error("rvf: internal error: replay of " + toString(s.ev) +
                                   (s.fails ? " (failing)" : "") + " gave " + toString(e) +
                                   (fails ? " (failing)" : ""));
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

    // A step that reads nothing faulted in one execution and not in another with the same reads
    // before it: its fault depends on its order with another event (in C, a plain write to a
    // block that a free or the end of a stack frame kills), which a recursion on reads-from
    // cannot tell apart.
    [[noreturn]] void unorderedFault(const Event& e) const {
        const std::string explorer = ro_.perWrite ? "rf" : "rvf";
        std::string at;
        if (e.pos.line && e.pos.file < info_->files.size())
            at = " at " + info_->files[e.pos.file] + ":" + std::to_string(e.pos.line);
        throw UnsupportedError(
            explorer + ": program '" + info_->name + "': whether the " + std::string(name(e.kind)) +
            at + " faults depends on its order with another event, not on a value it reads (a "
            "write to memory that a free or the end of a stack frame kills concurrently); " +
            explorer + " explores reads-from only and cannot tell these executions apart (use naive, "
            "source or optimal)");
    }

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
    void checkKillRaces(const std::vector<std::int32_t>& sl) {
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

    [[noreturn]] void raceWithKill(const Event& kill, const Event& write) const {
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
    void saveTrace(SavedTrace& sv, std::span<const ThreadId> witness) {
        std::size_t c = 0;
        while (c < order_.size() && c < witness.size() && order_[c].t == witness[c]) ++c;
        if (!sv.active) {
            sv.active = true;
            sv.keep = c;
            sv.suffix.assign(order_.begin() + static_cast<std::ptrdiff_t>(c), order_.end());
            sv.anyFail = anyFail_;
        } else if (c < sv.keep) {
            // The current trace is a replay already: up to keep, it is the saved trace.
            sv.suffix.insert(sv.suffix.begin(), order_.begin() + static_cast<std::ptrdiff_t>(c),
                             order_.begin() + static_cast<std::ptrdiff_t>(sv.keep));
            sv.keep = c;
        }
    }
    void restoreTrace(SavedTrace& sv) {
        if (!sv.active) return;
        sv.active = false;
        // A replay cut short by a budget leaves less than the shared prefix: the exploration is
        // over then, and nothing reads the trace any more.
        if (order_.size() < sv.keep) return;
        truncateTrace(sv.keep);
        for (const Performed& p : sv.suffix) {
            if (p.loc != kNoLoc) {
                cur_[static_cast<std::size_t>(p.loc)] = step(p.t, p.i).ev.wval;
                active_[static_cast<std::size_t>(p.loc)] = {p.t, p.i};
            }
            order_.push_back(p);
        }
        anyFail_ = sv.anyFail;
        sv.suffix.clear();
    }
    struct RestoreGuard {
        RvfSmc& self;
        SavedTrace& sv;
        ~RestoreGuard() { self.restoreTrace(sv); }
    };

    // Replays `witness`; `fresh` is the thread whose last step is the node's newest read (see
    // redo), and *changed tells whether that step's write part came or went.
    [[nodiscard]] bool replay(std::span<const ThreadId> witness, ThreadId fresh = -1,
                              bool* changed = nullptr) {
        exec_->reset();
        order_.clear();
        cur_ = initVals_;
        active_.assign(L_, kInitWrite);
        anyFail_ = false;
        std::vector<std::int32_t> cnt(static_cast<std::size_t>(T_), 0);
        for (ThreadId t : witness) {
            if (rep_.stop()) return false;
            auto& st = steps_[static_cast<std::size_t>(t)];
            const auto i = static_cast<std::size_t>(cnt[t]++);
            const bool c = redo(t, st[i], t == fresh && i + 1 == st.size());
            if (changed) *changed = *changed || c;
        }
        return true;
    }

    // Extend maximally with events that read nothing; returns the writes performed.
    [[nodiscard]] bool extend(std::vector<std::int32_t>& sl, std::vector<std::pair<ThreadId, LocId>>& writes) {
        noteKills();
        for (bool progress = true; progress;) {
            progress = false;
            for (ThreadId t = 0; t < T_; ++t)
                while (exec_->status(t) == ThreadStatus::Ready) {
                    const Event& p = exec_->pending(t);
                    noteKill(p);
                    if (readsMemory(p.kind) || guarded(p)) break;
                    if (p.kind == EventKind::Join && !p.enabled) break;
                    if (rep_.stop()) return false;
                    auto out = exec_->step(t);
                    rep_.countEvent();
                    Step s;
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
                    progress = true;
                }
        }
        return true;
    }

    // ---- steps: clocks and per-location lists ------------------------------------------------

    // Per location and thread, the indices of the thread's write steps (and, for reads-from
    // SMC, read steps) of the location, among the registered steps. Allocated on first use.
    struct LocLists {
        std::vector<std::vector<std::int32_t>> writes, reads;
    };
    LocLists& lists(LocId l) {
        auto& p = locLists_[static_cast<std::size_t>(l)];
        if (!p) {
            p = std::make_unique<LocLists>();
            p->writes.resize(static_cast<std::size_t>(T_));
            p->reads.resize(static_cast<std::size_t>(T_));
        }
        return *p;
    }

    // Program-order clocks (with spawn and join edges) of the steps. For reads-from SMC, causal
    // clocks: with reads-from edges too (a node fixes the source of every read, so every witness
    // of its children orders each read after its source: the clock is the same in every trace),
    // and src_ holds the sources.
    void registerStep(ThreadId t, std::int32_t i, const Step& s) {
        const auto tu = static_cast<std::size_t>(t);
        const auto T = static_cast<std::size_t>(T_);
        auto& ck = clk_[tu];
        ck.resize((static_cast<std::size_t>(i) + 1) * T);
        std::int32_t* c = &ck[static_cast<std::size_t>(i) * T];
        std::fill_n(c, T, 0);
        auto join = [&](const std::int32_t* o) {
            for (std::size_t u = 0; u < T; ++u) c[u] = std::max(c[u], o[u]);
        };
        if (i > 0) join(poClock(t, i - 1));
        else if (const SpawnPoint sp = spawnOf_[tu]; sp.t >= 0) join(poClock(sp.t, sp.i));
        if (s.ev.kind == EventKind::Join && s.ev.aux >= 0) {
            const ThreadId ch = s.ev.aux;
            const auto cu = static_cast<std::size_t>(ch);
            if (reg_[cu] > 0) join(poClock(ch, reg_[cu] - 1));
            else if (const SpawnPoint sp = spawnOf_[cu]; sp.t >= 0) join(poClock(sp.t, sp.i));
        }
        if (ro_.perWrite) {
            src_[tu].resize(static_cast<std::size_t>(i) + 1, kInitWrite);
            prevDiff_[tu].resize(static_cast<std::size_t>(i) + 1, -1);
            if (s.reads && !isLiveness(s)) {  // (a liveness read's source is not fixed)
                const WriteRef w = active_[static_cast<std::size_t>(s.ev.loc)];
                src_[tu][static_cast<std::size_t>(i)] = w;
                if (w.t != kInitThread) join(poClock(w.t, w.i));
                // The latest earlier read of the location by t with another source.
                auto& rl = lists(s.ev.loc).reads[tu];
                std::int32_t pd = -1;
                if (!rl.empty()) {
                    const auto q = static_cast<std::size_t>(rl.back());
                    pd = src_[tu][q] == w ? prevDiff_[tu][q] : rl.back();
                }
                prevDiff_[tu][static_cast<std::size_t>(i)] = pd;
                rl.push_back(i);
            }
        }
        c[tu] = i + 1;
        if (s.writes) lists(s.ev.loc).writes[tu].push_back(i);
        reg_[tu] = i + 1;
    }

    // Thread t keeps its first n steps.
    void truncateSteps(ThreadId t, std::size_t n) {
        const auto tu = static_cast<std::size_t>(t);
        auto& st = steps_[tu];
        for (auto i = static_cast<std::size_t>(reg_[tu]); i-- > n;) {
            const Step& s = st[i];
            if (s.writes) lists(s.ev.loc).writes[tu].pop_back();
            if (ro_.perWrite && s.reads && !isLiveness(s)) lists(s.ev.loc).reads[tu].pop_back();
        }
        reg_[tu] = std::min(reg_[tu], static_cast<std::int32_t>(n));
        if (st.size() > n) st.resize(n);
    }

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
    void reportError(std::size_t p) {
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
            if (i > 0) need[static_cast<std::size_t>(at[static_cast<std::size_t>(t)][static_cast<std::size_t>(i - 1)])] = 1;
            else if (const std::int32_t sp = spawnPos(t, at); sp >= 0) need[static_cast<std::size_t>(sp)] = 1;
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
                const auto q = static_cast<std::size_t>(at[static_cast<std::size_t>(t)][static_cast<std::size_t>(i)]);
                const Step& s = steps_[static_cast<std::size_t>(t)][static_cast<std::size_t>(i)];
                if (!s.reads && !faultsByOrder(s)) continue;
                key.push_back(i);
                key.push_back(rf[q] < 0 ? kInitThread : order_[static_cast<std::size_t>(rf[q])].t);
                key.push_back(rf[q] < 0 ? 0 : order_[static_cast<std::size_t>(rf[q])].i);
            }
        if (!errorsSeen_.insert(std::move(key)).second) return;
        std::vector<Event> events = initEvents_;
        for (std::size_t q = 0; q <= p; ++q)
            if (need[q]) {
                const auto [t, i] = std::pair{order_[q].t, order_[q].i};
                const Step& s = steps_[static_cast<std::size_t>(t)][static_cast<std::size_t>(i)];
                events.insert(events.end(), s.out.begin(), s.out.end());
            }
        rep_.maximal(TraceStatus::Error, *exec_, events);
    }

    // A plain write that faults: in the C front end, a write to a block that a free or the end
    // of a stack frame killed before it (it wrote the location last). Its causal past includes
    // that last write, as if the write read it, so that the error trace is a real execution.
    [[nodiscard]] static bool faultsByOrder(const Step& s) {
        return s.fails && !s.reads && writesMemory(s.ev.kind) && s.ev.loc >= 0;
    }

    [[nodiscard]] std::int32_t spawnPos(ThreadId c, const std::vector<std::vector<std::int32_t>>& at) const {
        const SpawnPoint sp = spawnOf_[static_cast<std::size_t>(c)];
        if (sp.t < 0) return -1;
        const auto& a = at[static_cast<std::size_t>(sp.t)];
        return sp.i < static_cast<std::int32_t>(a.size()) ? a[static_cast<std::size_t>(sp.i)] : -1;
    }

    // ---- maximal traces and final memory ------------------------------------------------------
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
    // one trace, and every other final memory of the class as an outcome.
    void reportMaximal(const std::vector<std::int32_t>& sl, const std::vector<Pending>& pend,
                       const Snapshot& snap) {
        // Final-value constraints: a pending blocking read must stay disabled.
        auto allowed = [&](LocId x, Value v) {
            for (const Pending& p : pend)
                if (p.ev.loc == x && admits(p.ev, v)) return false;
            return true;
        };
        std::vector<LocId> locs;  // locations whose final value is chosen, constrained ones first
        std::vector<char> isLoc(L_, 0);
        for (const Pending& p : pend)
            if (!isLoc[static_cast<std::size_t>(p.ev.loc)]) {
                isLoc[static_cast<std::size_t>(p.ev.loc)] = 1;
                locs.push_back(p.ev.loc);
            }
        bool satisfied = true;  // does the node's own trace leave every pending event disabled?
        for (const Pending& p : pend) satisfied = satisfied && !admits(p.ev, curVal(p.ev.loc));
        const std::size_t constrained = locs.size();
        // The final value of x is written by the last write of x of some thread: with candidates
        // of one value only, it is the same in every witness.
        std::vector<std::vector<Value>> values(L_);
        for (std::size_t x = 0; x < L_; ++x) {
            std::vector<Value>& vs = values[x];
            if (locLists_[x])
                for (ThreadId t = 0; t < T_; ++t) {
                    const auto& wl = locLists_[x]->writes[static_cast<std::size_t>(t)];
                    const auto it = std::lower_bound(wl.begin(), wl.end(), sl[t]);
                    if (it != wl.begin())
                        vs.push_back(step(t, *(it - 1)).ev.wval);
                }
            if (vs.empty()) vs.push_back(initVal(static_cast<LocId>(x)));
            std::sort(vs.begin(), vs.end());
            vs.erase(std::unique(vs.begin(), vs.end()), vs.end());
            if (opts_.collectOutcomes && vs.size() > 1 && !isLoc[x]) locs.push_back(static_cast<LocId>(x));
        }
        if (locs.empty() || (constrained == 0 && !opts_.collectOutcomes)) {
            rep_.maximal(Reporter::classify(*exec_), *exec_, traceEvents());
            return;
        }
        bool reported = false;
        rvf::Instance in = instance(sl);
        std::vector<Value> chosen(locs.size());
        // The witnesses replayed here replace the node's trace: it is put back at the end.
        SavedTrace sv;
        RestoreGuard guard{*this, sv};
        auto replayHere = [&](std::span<const ThreadId> witness) {
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
        // Depth-first over the chosen locations; every partial choice is checked by VerifySC.
        auto dfs = [&](auto&& self, std::size_t k) -> bool {
            if (k == locs.size()) return leaf(lastWitness_);
            const LocId x = locs[k];
            const auto ws = writesOf(x, sl);
            for (Value v : values[static_cast<std::size_t>(x)]) {
                if (k < constrained && !allowed(x, v)) continue;
                std::vector<WriteRef> good;
                for (const auto& [w, val] : ws)
                    if (val == v) good.push_back(w);
                if (initVal(x) == v) good.push_back(kInitWrite);
                in.finals.emplace_back(x, std::move(good));
                bool go = true;
                if (rvf::verifySC(in, ro_.vsc, fin_, ws_)) {
                    const auto wit = ws_.witness();
                    lastWitness_.assign(wit.begin(), wit.end());
                    chosen[k] = v;
                    go = self(self, k + 1);
                }
                in.finals.pop_back();
                if (!go || rep_.stopped()) return false;
            }
            return true;
        };
        dfs(dfs, 0);
        exec_->restore(snap);
    }

    // ---- the recursion (Algorithm 2) ----------------------------------------------------------

    [[nodiscard]] static const CausalEntry* lookup(const CausalMap& c, ThreadId t, std::int32_t idx) {
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

    // `witness` is the node's trace, to replay unless `here`: the program and the current trace
    // are then already at the end of it (the parent's trace extended by the new read).
    // (`witness` may be the workspace's: it is used before the next verifySC.)
    void node(std::span<const ThreadId> witness, const std::vector<std::int32_t>& xlen,
              const CausalMap& C, ThreadId newT, bool here = false) {
        ++nodes_;
        for (ThreadId t = 0; t < T_; ++t) truncateSteps(t, static_cast<std::size_t>(xlen[t]));
        // A replay replaces the caller's trace: it is put back when this node is done.
        SavedTrace sv;
        RestoreGuard guard{*this, sv};
        if (here) {
            if (rep_.stop()) return;
        } else {
            saveTrace(sv, witness);
            bool changed = false;
            if (!replay(witness, newT, &changed)) return;
            if (changed) {  // the new read's write part came or went (see redo): VerifySC again
                rvf::Instance in = instance(xlen);
                if (!rvf::verifySC(in, ro_.vsc, vsc_, ws_)) return;
                saveTrace(sv, ws_.witness());
                if (!replay(ws_.witness())) return;
            }
        }
        if (newT >= 0 && steps_[static_cast<std::size_t>(newT)].back().fails) {
            const auto idx = static_cast<std::int32_t>(steps_[static_cast<std::size_t>(newT)].size() - 1);
            for (std::size_t q = 0; q < order_.size(); ++q)
                if (order_[q].t == newT && order_[q].i == idx) reportError(q);
            if (rep_.stopped()) return;
        }
        // Line 1: extend with every event that reads nothing.
        std::vector<std::int32_t> sl = xlen;
        std::vector<std::pair<ThreadId, LocId>> extWrites;
        if (!extend(sl, extWrites)) return;
        if (!killable_.empty()) checkKillRaces(sl);  // (no kill seen yet: nothing to check)
        // Enabled reads: the pending read-like event of every thread that is not done.
        std::vector<Pending> pend;
        bool nonBlocking = false;
        for (ThreadId t = 0; t < T_; ++t) {
            if (exec_->status(t) != ThreadStatus::Ready) continue;
            const Event& p = exec_->pending(t);
            // (not: a join waiting for a thread that waits)
            if (!readsMemory(p.kind) && !guarded(p)) continue;
            pend.push_back({t, p});
            nonBlocking = nonBlocking || !isBlocking(p.kind);
        }
        // Lines 2-5: backtrack signals for ancestor reads that may gain a new source.
        if (ro_.signals) {
            for (const auto& [u, x] : extWrites) signalWrite(u, x);
            for (const Pending& p : pend)
                if (mayWrite(p.ev.kind)) signalWrite(p.t, p.ev.loc);
        }
        // The node's trace: its children extend it or replay others, and put it back.
        const std::size_t traceLen = order_.size();
        const bool anyFail = anyFail_;
        // Lines 7-14: reads without a causal-map entry first.
        std::vector<Pending> mutate;
        for (const Pending& p : pend)
            if (!lookup(C, p.t, sl[p.t])) mutate.push_back(p);
        for (const Pending& p : pend)
            if (lookup(C, p.t, sl[p.t])) mutate.push_back(p);
        // The program state to come back to, if anything comes back to it (on a long execution
        // most nodes have one child; a snapshot per node costs memory per node).
        const bool maximal = !anyFail_ && !nonBlocking;
        Snapshot snap;
        bool haveSnap = false;
        if (maximal || mutate.size() > 1) {
            exec_->save(snap);
            haveSnap = true;
        }
        if (maximal) {
            reportMaximal(sl, pend, snap);
            if (rep_.stopped()) return;
        }
        if (pend.empty()) return;
        // Entries of reads already executed never match again: not copied along the path.
        CausalMap Cn;
        for (const CausalEntry& e : C)
            if (e.idx >= sl[e.t]) Cn.push_back(e);
        bool backtrack = true, firstChild = true;
        for (std::size_t k = 0; k < mutate.size() && backtrack; ++k) {
            const Pending& r = mutate[k];
            const std::int32_t ridx = sl[r.t];
            const CausalEntry* ce = lookup(Cn, r.t, ridx);
            if (!ce && ro_.signals) backtrack = false;
            // Lines 20-21: visible writes not forbidden by C, grouped by value (per write for
            // reads-from SMC).
            std::vector<std::pair<Value, std::vector<WriteRef>>> groups;
            const bool live = r.ev.kind == EventKind::Write;  // a liveness read: dead 1, alive 0
            for (const WriteRef& w : visibleWrites(r, sl)) {
                if (ce && (w.t == kInitThread || w.i < ce->counts[static_cast<std::size_t>(w.t)])) continue;
                Value v = w.t == kInitThread
                              ? initVal(r.ev.loc)
                              : steps_[static_cast<std::size_t>(w.t)][static_cast<std::size_t>(w.i)].ev.wval;
                if (!admits(r.ev, v)) continue;
                if (live) v = v == kDeadValue ? 1 : 0;
                auto g = ro_.perWrite && !live ? groups.end()
                                               : std::find_if(groups.begin(), groups.end(),
                                                              [&](const auto& e) { return e.first == v; });
                if (g == groups.end()) groups.push_back({v, {w}});
                else g->second.push_back(w);
            }
            if (!ro_.perWrite)
                std::sort(groups.begin(), groups.end(),
                          [](const auto& a, const auto& b) { return a.first < b.first; });
            if (!haveSnap && groups.size() > 1) {
                exec_->save(snap);
                haveSnap = true;
            }
            for (auto& [v, good] : groups) {
                if (rep_.stop()) return;
                if (!firstChild) exec_->restore(snap);
                firstChild = false;
                truncateTrace(traceLen);
                anyFail_ = anyFail;
                auto out = exec_->step(r.t, live ? std::nullopt : std::optional<Value>(v));
                rep_.countEvent();
                Step s;
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
                std::vector<std::int32_t> xl = sl;
                ++xl[r.t];
                steps_[static_cast<std::size_t>(r.t)].push_back(std::move(s));
                bool atAux = false, wit = false;
                const WriteRef act = active_[static_cast<std::size_t>(r.ev.loc)];
                if (ro_.vsc.guidance && std::find(good.begin(), good.end(), act) != good.end()) {
                    atAux = true;  // the auxiliary trace already satisfies every good write
                    ++skipped_;
                } else {
                    auxBuf_.clear();
                    for (const Performed& p : order_) auxBuf_.push_back(p.t);
                    auxBuf_.push_back(r.t);
                    rvf::Instance in = instance(xl);
                    in.aux = &auxBuf_;
                    wit = rvf::verifySC(in, ro_.vsc, vsc_, ws_);
                    atAux = wit && std::ranges::equal(ws_.witness(), auxBuf_);
                }
                if (atAux || wit) {
                    // atAux: the program is at the end of the witness already
                    if (atAux) performed(r.t, steps_[static_cast<std::size_t>(r.t)].back());
                    ancestors_.push_back({r.t, ridx, r.ev.loc, backtrack, sigClock_});
                    if (atAux) node({}, xl, Cn, r.t, true);
                    else node(ws_.witness(), xl, Cn, r.t);
                    backtrack = signalled(ancestors_.back());
                    ancestors_.pop_back();
                }
                for (ThreadId t = 0; t < T_; ++t) truncateSteps(t, static_cast<std::size_t>(sl[t]));
                if (rep_.stopped()) return;
            }
            // A blocking read may never execute: Lemma 1 says nothing about the traces where it
            // does not, so it never cuts the loop.
            if (isBlocking(r.ev.kind)) backtrack = true;
            // Lines 33-34: r may no longer read the writes of this node's trace.
            auto it = std::find_if(Cn.begin(), Cn.end(),
                                   [&](const CausalEntry& e) { return e.t == r.t && e.idx == ridx; });
            if (it != Cn.end()) it->counts = sl;
            else Cn.push_back({r.t, ridx, sl});
        }
    }

    // ---- visible writes: VisibleW_{PO|E(σ̃)}(r) -------------------------------------------------

    // The writes of r's location r may read: those not in r's program-order (causal) past, and
    // those of its past that no other write of its past comes after. In thread order, then step
    // order. Of the writes of one thread in r's past only the latest can be visible (the others
    // come before it), and whether another write comes after it is decided by the latest write of
    // each other thread in the past (clocks grow along a thread): O(threads²) per read, where
    // comparing all pairs of writes made a node cost O(writes²).
    // With causal clocks (reads-from SMC) a write is also hidden from r by a read of r's causal past
    // that comes after it and reads another write: every witness puts that other write between.
    [[nodiscard]] std::vector<WriteRef> visibleWrites(const Pending& r, const std::vector<std::int32_t>& sl) {
        // r's program-order (causal) past: its thread's steps, and what they (or its spawn) come after
        const auto T = static_cast<std::size_t>(T_);
        std::vector<std::int32_t> past(T, 0);
        const ThreadId t = r.t;
        if (sl[t] > 0) {
            const std::int32_t* c = poClock(t, sl[t] - 1);
            past.assign(c, c + T_);
        } else if (const SpawnPoint sp = spawnOf_[static_cast<std::size_t>(t)]; sp.t >= 0) {
            const std::int32_t* c = poClock(sp.t, sp.i);
            past.assign(c, c + T_);
        }
        past[static_cast<std::size_t>(t)] = sl[t];
        std::vector<WriteRef> vis;
        if (!locLists_[static_cast<std::size_t>(r.ev.loc)]) {
            vis.push_back(kInitWrite);
            return vis;
        }
        const LocLists& ll = lists(r.ev.loc);
        // Per thread: its writes among its first sl[u] steps are wl[0, end), those of the past
        // wl[0, inPast); the latest of the past is the only one of them that may be visible.
        std::vector<std::int32_t> end(T), inPast(T), latest(T, -1);
        bool anyInPast = false;
        for (std::size_t u = 0; u < T; ++u) {
            const auto& wl = ll.writes[u];
            const auto e = std::lower_bound(wl.begin(), wl.end(), sl[u]);
            const auto p = std::lower_bound(wl.begin(), e, past[u]);
            end[u] = static_cast<std::int32_t>(e - wl.begin());
            inPast[u] = static_cast<std::int32_t>(p - wl.begin());
            if (inPast[u] > 0) {
                latest[u] = wl[static_cast<std::size_t>(inPast[u] - 1)];
                anyInPast = true;
            }
        }
        for (std::size_t u = 0; u < T; ++u) {
            const auto& wl = ll.writes[u];
            if (latest[u] >= 0) {
                const WriteRef w{static_cast<std::int32_t>(u), latest[u]};
                bool hidden = false;
                for (std::size_t u2 = 0; u2 < T && !hidden; ++u2)
                    hidden = u2 != u && latest[u2] >= 0 &&
                             poClock(static_cast<ThreadId>(u2), latest[u2])[u] > w.i;
                if (!hidden && ro_.perWrite) hidden = hiddenByRead(r.ev.loc, w, past);
                if (!hidden) vis.push_back(w);
            }
            for (std::int32_t k = inPast[u]; k < end[u]; ++k)
                vis.push_back({static_cast<std::int32_t>(u), wl[static_cast<std::size_t>(k)]});
        }
        if (!anyInPast) vis.push_back(kInitWrite);
        return vis;
    }

    // Reads-from SMC: does a read of loc in the causal past `past` come after write w and read
    // another write? Per thread, the reads after w are the latest ones (clocks grow along the
    // thread); of those reading w, prevDiff_ skips to the latest with another source.
    [[nodiscard]] bool hiddenByRead(LocId loc, WriteRef w,
                                    const std::vector<std::int32_t>& past) const {
        const LocLists& ll = *locLists_[static_cast<std::size_t>(loc)];
        for (std::size_t u = 0; u < past.size(); ++u) {
            const auto& rl = ll.reads[u];
            auto it = std::lower_bound(rl.begin(), rl.end(), past[u]);
            if (it == rl.begin()) continue;
            std::int32_t i = *(it - 1);
            auto after = [&](std::int32_t x) {
                return poClock(static_cast<ThreadId>(u), x)[static_cast<std::size_t>(w.t)] > w.i;
            };
            const auto& src = src_[u];
            while (i >= 0 && after(i)) {
                if (!(WriteRef{static_cast<std::int32_t>(u), i} == w)) {
                    if (!(src[static_cast<std::size_t>(i)] == w)) return true;
                    i = prevDiff_[u][static_cast<std::size_t>(i)];  // skips the reads of w
                } else {
                    // w itself (a read-modify-write): the read before it
                    const auto p = std::lower_bound(rl.begin(), rl.end(), i) - rl.begin();
                    i = p > 0 ? rl[static_cast<std::size_t>(p - 1)] : -1;
                }
            }
        }
        return false;
    }

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
    // the current trace: steps in order (each with what its write overwrote), visible memory and
    // its writers
    std::vector<Performed> order_;
    std::vector<Value> cur_;
    std::vector<WriteRef> active_;
    bool anyFail_ = false;
    std::vector<char> killable_;  // locations a free or frame end kills (liveness reads)
    std::vector<Event> traceBuf_;
    std::vector<ThreadId> auxBuf_, lastWitness_;
    rvf::Workspace ws_;
    std::unordered_set<std::vector<std::int32_t>, IntsHash> errorsSeen_;  // error classes reported
    std::vector<Ancestor> ancestors_;
    std::vector<std::vector<std::uint64_t>> sigTime_;  // by location, by thread: last signal
    std::uint64_t sigClock_ = 0;
    rvf::VscStats vsc_, fin_;
    std::uint64_t skipped_ = 0, nodes_ = 0;
};

}  // namespace

namespace {

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
    ExploreResult r;
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
