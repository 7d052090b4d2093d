// SPDX-License-Identifier: MIT
// One execution of a CodeProgram: the threads' frames, registers and private stacks, shared
// memory, and the pending visible operation of each thread. Internal to program/: its methods
// are defined by seam in LocalSteps.cpp (local interpretation), LocalBuiltins.cpp (the runtime
// library's local part), Builtins.cpp (its visible operations), VisibleSteps.cpp (performing a
// visible operation) and Snapshots.cpp (save / restore, outcomes).
#pragma once

#include <array>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <unordered_map>
#include <utility>

#include "porlab/core/Conflict.hpp"
#include "porlab/program/CodeProgram.hpp"

namespace porlab::code {

class CodeExecution final : public Execution {
  public:
    explicit CodeExecution(const CodeProgram& p)
        : p_(p),
          m_(p.mod()),
          T_(p.opts().maxThreads),
          mem_(p.initMem_),
          owner_(p.capacity_, -1),
          threads_(static_cast<std::size_t>(T_)),
          statuses_(static_cast<std::size_t>(T_), ThreadStatus::NotStarted),
          knownLocs_(p.numLocs_.load()),
          flat_(p.flatThreads()) {
        emitted_.reserve(8);
        if (flat_) placeFlatThreads();
    }
    CodeExecution(const CodeExecution&) = delete;  // (threads point into block_)
    CodeExecution& operator=(const CodeExecution&) = delete;

    std::span<const Event> reset() override {
        // Only locations created so far can have been written (numLocs_ never shrinks).
        const auto nl = static_cast<std::ptrdiff_t>(p_.numLocs_.load());
        std::copy(p_.initMem_.begin(), p_.initMem_.begin() + nl, mem_.begin());
        std::fill(owner_.begin(), owner_.begin() + nl, -1);
        knownLocs_ = static_cast<LocId>(nl);
        objs_.clear();
        for (auto& th : threads_) {
            th.status = ThreadStatus::NotStarted;
            th.frames.clear();
            th.regs.clear();
            th.local.clear();
            th.stackObjs.clear();
            th.wrHeld.clear();
            th.evCount = 0;
            th.nAllocs = th.nSpawns = th.atomicDepth = th.phase = th.nNondet = 0;
            th.exitVal = th.aux = 0;
            th.effects = th.hidden = 0;
            th.lastLoop = 0;
            th.lastWriteStep = th.lastWriteAmount = 0;
            th.lastWriteIndex = th.lastWriteLoc = -1;
            th.cand.valid = false;
            th.cand.runnableAt = -1;
        }
        if (zneAwaits_) {
            std::fill(obsThread_.begin(), obsThread_.begin() + nl, -1);
            std::fill(obsStep_.begin(), obsStep_.begin() + nl, 0);
            std::fill(obsOther_.begin(), obsOther_.begin() + nl, 0);
        }
        std::fill(statuses_.begin(), statuses_.end(), ThreadStatus::NotStarted);
        failed_ = false;
        totalEvents_ = 0;
        emitted_.clear();
        if (m_.threadFunctions.empty()) {
            startThread(0, m_.mainFunction, {0, 0});
        } else {  // a builder program: its threads that start by themselves, in order
            for (std::size_t t = 0; t < m_.threadFunctions.size(); ++t)
                if (m_.autostart[t])
                    startThread(static_cast<ThreadId>(t), m_.threadFunctions[t], {});
        }
        return emitted_;
    }

    [[nodiscard]] int maxThreads() const override { return T_; }
    [[nodiscard]] ThreadStatus status(ThreadId t) const override {
        return statuses_[static_cast<std::size_t>(t)];
    }

    [[nodiscard]] const Event& pending(ThreadId t) const override {
        Thread& th = threads_[static_cast<std::size_t>(t)];
        Event& e = th.pend;
        e.index = th.evCount;
        e.enabled = true;
        const Value cur = e.loc >= 0 ? mem_[static_cast<std::size_t>(e.loc)] : 0;
        switch (e.kind) {
            case EventKind::Read:
                e.rval = cur;
                break;
            case EventKind::FetchAdd:
                e.rval = cur;
                e.width = static_cast<std::uint8_t>(th.pendW);
                e.wval = rmwResult(e, cur);
                break;
            case EventKind::Exchange:
                e.rval = cur;
                break;
            case EventKind::CasSuccess:
            case EventKind::CasFailure:
                e.rval = cur;
                if (th.pendTry) {  // pthread_mutex_trylock: a CAS 0 -> 1 on the mutex word
                    e.kind = cur == 0 ? EventKind::CasSuccess : EventKind::CasFailure;
                    e.wval = cur == 0 ? 1 : 0;
                } else if (cur == e.operand) {
                    e.kind = EventKind::CasSuccess;
                    e.wval = th.pendNew;
                } else {
                    e.kind = EventKind::CasFailure;
                    e.wval = 0;
                }
                break;
            case EventKind::Lock:
                if (th.pendTry && cur != 0) {
                    e.kind = EventKind::CasFailure;
                    e.rval = cur;
                    e.wval = 0;
                    break;
                }
                e.rval = 0;
                e.wval = 1;
                e.enabled = cur == 0 || relaxedLocks_;
                break;
            case EventKind::Join:
                e.enabled =
                    threads_[static_cast<std::size_t>(e.aux)].status == ThreadStatus::Finished;
                break;
            case EventKind::Await:
            case EventKind::XchgAwait:
                e.rval = cur;
                e.enabled = evalAwaitCond(e.cond, cur, e.operand);
                break;
            default:
                break;
        }
        // A zne await (setZneAwaits): the canceling decrement waits until another thread has
        // observed the increment (Execution::setZneAwaits).
        if (e.kind == EventKind::FetchAdd && e.zne && e.aux >= 0)
            e.enabled = observedSince(e.loc, t, th.lastWriteStep);
        return e;
    }

    std::span<const Event> step(ThreadId t, std::optional<Value> forcedRead) override;
    bool fastStep(ThreadId t, std::optional<Value> forcedRead);
    [[gnu::noinline]] std::span<const Event> slowStep(ThreadId t, std::optional<Value> forcedRead);

    [[nodiscard]] bool failed() const override { return failed_; }
    bool setRelaxedLocks(bool on) override {
        relaxedLocks_ = on;
        return true;
    }
    std::span<const Event> blockThread(ThreadId t, BlockCause cause) override {
        emitted_.clear();
        Thread& th = threads_[static_cast<std::size_t>(t)];
        if (th.status != ThreadStatus::Ready) return {};
        // A thread blocked at a canceling decrement: the marker names the start of the
        // iteration (the decrement's loop's bookkeeping, CInstr::d of the Rmw).
        Value operand = -1;
        const CInstr& in = cur(th);
        if (cause == BlockCause::Zne && in.op == COp::Rmw && in.d >= 0) operand = val(th, in.d);
        mark(t, EventKind::AssumeBlock, ThreadStatus::Blocked, static_cast<int>(cause), th.pend.pos,
             operand);
        return emitted_;
    }
    bool setZneAwaits(bool on) override {
        // Without a zne candidate no decrement ever waits: nothing to track (and the steps stay
        // on fastStep's path).
        zneAwaits_ = on && p_.zneRmws_;
        if (on) {
            obsThread_.assign(p_.capacity_, -1);
            obsStep_.assign(p_.capacity_, 0);
            obsOther_.assign(p_.capacity_, 0);
        }
        return true;
    }
    [[nodiscard]] std::span<const Value> memory() const override { return mem_; }
    bool patchMemory(LocId x, Value v) override {
        if (x < 0 || x >= knownLocs_) return false;
        mem_[static_cast<std::size_t>(x)] = v;
        return true;
    }

    [[nodiscard]] std::vector<Value> outcome() const override;  // Snapshots.cpp
    // A builder program's final state as its own interpreter gave it: every location, then each
    // thread's status and registers (initial values for a thread that never started).
    [[nodiscard]] std::vector<Value> builderOutcome() const;

    // Distributed runs (PortableOutcome.cpp): outcome() with stable names, and back.
    [[nodiscard]] std::vector<Value> portableOutcome() const;
    static std::vector<Value> localOutcome(const CodeProgram& p, std::span<const Value> in);
    static void setPortable(const CodeProgram& p, bool on) { p.portableOutcomes_.store(on); }
    void save(Snapshot& s) const override;
    void restore(const Snapshot& s) override;

    // Nondet driver: did this execution use every choice point the current assignment sets to
    // a value other than LO? (Otherwise the same execution is reported under the assignment that
    // has LO there.) Points of a thread are used in order, so (t, n) is used iff nNondet > n.
    [[nodiscard]] bool usesAssignedChoices() const {
        for (const auto& [t, n] : p_.assignedPoints_)
            if (threads_[static_cast<std::size_t>(t)].nNondet <= n) return false;
        return true;
    }

  private:
    struct Frame {
        std::int32_t fn = 0, pc = 0, regBase = 0, localBase = 0, retDst = -1;
        std::int32_t ctx = -1;  // its call stack (CallContexts), -1 until an event needs it
    };
    static_assert(sizeof(Frame) == 24);  // three snapshot words
    // A thread's fixed-size state: saved and restored as one block of bytes (Snapshots.cpp).
    struct ThreadScalars {
        std::uint32_t evCount = 0;
        std::int32_t nAllocs = 0, nSpawns = 0, atomicDepth = 0, phase = 0;
        std::int32_t nNondet = 0;  // __VERIFIER_nondet_* calls so far (choice points used)
        Value exitVal = 0, aux = 0;
        // SAVER's dynamic purity checks: writes this thread made that another thread can see
        // (published memory) or that change its own state (private stack), so far.
        std::int64_t effects = 0;
        // Writes SAVER's relaxation does not count as effects (stores dead at their loop's header
        // into a block no other thread can reach yet): state changes all the same, for the
        // livelock check (the loop bookkeeping counts effects + hidden).
        std::int64_t hidden = 0;
        // The header of the loop the thread last jumped back to (file << 32 | line), to name the
        // loop when an execution is cut.
        std::int64_t lastLoop = 0;
        // The thread's last write (zne awaits: the increment a canceling decrement cancels): its
        // step number (totalEvents_ after it), Event::index, location and the amount a
        // fetch-and-add added (0: another kind of write).
        std::int64_t lastWriteStep = 0, lastWriteAmount = 0;
        std::int32_t lastWriteIndex = -1, lastWriteLoc = -1;
        // the pending visible operation (fields that depend on memory are filled by pending())
        Event pend;
        std::uint8_t pendW = 64;
        bool pendTry = false;  // pthread_mutex_trylock
        // (here, in the scalars' padding: a flat snapshot copies it with them)
        ThreadStatus status = ThreadStatus::NotStarted;
        Value pendNew = 0;         // CAS new value
        std::int64_t pendObj = 0;  // heap object the pending access touches (0: none)
    };
    static_assert(std::is_trivially_copyable_v<ThreadScalars> && sizeof(ThreadScalars) % 8 == 0);
    static constexpr std::size_t kScalarWords = sizeof(ThreadScalars) / 8;
    struct Thread : ThreadScalars {
        // (in block_ for a flat program: placeFlatThreads)
        std::vector<Frame, BlockAllocator<Frame>> frames;
        std::vector<Value, BlockAllocator<Value>> regs;
        std::vector<std::uint8_t> local;
        std::vector<std::pair<std::int64_t, std::int64_t>> stackObjs;  // (frame depth, object)
        std::vector<LocId> wrHeld;  // the read-write locks (their mutexes) it holds for writing
        // The livelock check (loopBack): the thread's state at a visit of a loop header after an
        // iteration without effects, while no other thread could run. Not part of snapshots (a
        // restore drops it: it only has to survive straight-line execution).
        struct Candidate {
            bool valid = false;
            // When the last check found another thread that can run: nothing changes that
            // before this thread writes or some thread makes a step (totalEvents_), so a tight
            // loop checks once per step, not once per iteration.
            std::int64_t runnableAt = -1, runnableChanges = -1;
            std::int32_t depth = 0, slot = 0, nAllocs = 0, nNondet = 0, atomicDepth = 0;
            std::int64_t effects = 0, others = 0;
            std::size_t localSize = 0;
            std::vector<Value> regs;
        } cand;
    };
    struct ObjState {
        std::uint32_t size = 0;
        std::uint8_t status = 0;  // 0 none, 1 live, 2 freed, 3 ended (stack)
        std::uint8_t heap = 0;    // malloc/calloc (may be freed)
        // Can another thread reach it? Heap blocks are private until a pointer into them is
        // written to shared memory or handed to a thread (SAVER ignores writes to private ones).
        std::uint8_t published = 1;
        std::uint32_t base = 0;  // low address bits of byte 0 (CodeProgram::dynamicObject)
    };
    enum class Where : std::uint8_t { Local, Const, Shared, Fault };
    struct Addr {
        Where where = Where::Fault;
        std::int64_t obj = 0;
        std::uint32_t off = 0;
        FaultKind fault = FaultKind::InvalidPointer;
    };

    // ---- helpers ---------------------------------------------------------------------------

    Value val(const Thread& th, std::int32_t x) const {
        return x >= 0 ? th.regs[static_cast<std::size_t>(th.frames.back().regBase + x)]
                      : m_.constants[static_cast<std::size_t>(~x)];
    }
    Value& reg(Thread& th, std::int32_t x) {
        return th.regs[static_cast<std::size_t>(th.frames.back().regBase + x)];
    }
    Value arg(const Thread& th, const CInstr& in, int i) const {
        const CFunction& f = m_.functions[static_cast<std::size_t>(th.frames.back().fn)];
        return val(th, f.args[static_cast<std::size_t>(in.b + i)]);
    }
    const CFunction& fnOf(const Thread& th) const {
        return m_.functions[static_cast<std::size_t>(th.frames.back().fn)];
    }
    const CInstr& cur(const Thread& th) const {
        return fnOf(th).code[static_cast<std::size_t>(th.frames.back().pc)];
    }

    // deadOk: a freed block or a dead frame's variable resolves to its location (plain accesses
    // are events that conflict with the free / frame end, and fault when performed).
    Addr resolve(const Thread& th, Value p, std::uint64_t size, bool deadOk = false) const {
        Addr a;
        const auto u = static_cast<std::uint64_t>(p);
        if (u == 0) {
            a.fault = FaultKind::NullDereference;
            return a;
        }
        if (u & m_.localTag) {
            const std::uint64_t off = u & (m_.localTag - 1);
            if (off + size > th.local.size() || off >= (1ULL << 40)) return a;
            a.where = Where::Local;
            a.off = static_cast<std::uint32_t>(off);
            return a;
        }
        const auto obj = static_cast<std::int64_t>((u & (m_.localTag - 1)) >> m_.objShift);
        // The offset: the low bits minus the object's base (a pointer below the base wraps to a
        // huge offset, out of bounds).
        std::uint64_t off = u & m_.offMask;
        if (u >= m_.localTag) return a;  // beyond the encoding (e.g. a wrapped 32-bit pointer)
        if (obj <= static_cast<std::int64_t>(m_.functions.size())) return a;
        auto within = [&](std::uint64_t limit) { return off <= limit && size <= limit - off; };
        if (obj < m_.firstDynamicObject()) {
            const CGlobal& g = m_.globals[static_cast<std::size_t>(
                obj - 1 - static_cast<std::int64_t>(m_.functions.size()))];
            off -= m_.staticBase[static_cast<std::size_t>(obj)];
            if (!within(g.size) || g.tls) return a;
            a.where = g.constant ? Where::Const : Where::Shared;
        } else {
            const auto i = static_cast<std::size_t>(obj);
            if (i >= objs_.size() || objs_[i].status == 0) return a;
            if (objs_[i].status != 1 && !(deadOk && objs_[i].status >= 2)) {
                a.fault =
                    objs_[i].status == 2 ? FaultKind::UseAfterFree : FaultKind::InvalidPointer;
                return a;
            }
            off -= objs_[i].base;
            if (!within(objs_[i].size)) return a;
            a.where = Where::Shared;
        }
        a.obj = obj;
        a.off = static_cast<std::uint32_t>(off);
        return a;
    }

    LocId cellOf(std::int64_t obj, std::uint32_t off, unsigned size, bool mutex, SourcePos pos,
                 bool sync = false) {
        if (static_cast<std::size_t>(obj) >= cache_.size())
            cache_.resize(static_cast<std::size_t>(obj) + 1);
        auto& c = cache_[static_cast<std::size_t>(obj)];
        if (off < c.size() && c[off] >= 0) {
            const LocId l = c[off];
            const bool isM = p_.infoMut_->isMutex[static_cast<std::size_t>(l)];
            if (isM == mutex &&
                (mutex || size == 0 || p_.locSize_[static_cast<std::size_t>(l)] == size))
                return l;
        }
        const LocId l = known(p_.cell(obj, off, size, mutex, pos, sync));
        if (off == kFreeOffset) return l;
        if (off >= c.size()) c.resize(off + 1, -1);
        c[off] = l;
        return l;
    }

    // A location created since this execution last synchronised its memory with the program's
    // initial values (reset, restore): those created meanwhile (by any execution) start with
    // their initial value here too. Every location the execution touches passes through here
    // first, so none of them is reset after it was written.
    LocId known(LocId l) {
        if (l < knownLocs_) return l;
        const LocId now = p_.numLocs_.load();
        for (LocId k = knownLocs_; k < now; ++k) {
            mem_[static_cast<std::size_t>(k)] = p_.initMem_[static_cast<std::size_t>(k)];
            owner_[static_cast<std::size_t>(k)] = -1;
        }
        knownLocs_ = now;
        return l;
    }

    // Byte offset of pointer u in object obj (huge when u points below the object).
    std::uint64_t offsetIn(std::uint64_t u, std::int64_t obj) const {
        std::uint64_t base = 0;
        if (obj < m_.firstDynamicObject())
            base = m_.staticBase[static_cast<std::size_t>(obj)];
        else if (static_cast<std::size_t>(obj) < objs_.size())
            base = objs_[static_cast<std::size_t>(obj)].base;
        return (u & m_.offMask) - base;
    }

    // The low `size` (<= 8) bytes at p, zero-extended (little-endian, as the target). The
    // common sizes are fixed-size copies the compiler inlines: a private access is the
    // interpreter's most frequent memory operation, and a library memcpy / memcmp of a variable
    // size cost a call each.
    static std::uint64_t readBytes(const std::uint8_t* p, std::uint64_t size) {
        switch (size) {
            case 1:
                return p[0];
            case 2: {
                std::uint16_t x = 0;
                std::memcpy(&x, p, 2);
                return x;
            }
            case 4: {
                std::uint32_t x = 0;
                std::memcpy(&x, p, 4);
                return x;
            }
            case 8: {
                std::uint64_t x = 0;
                std::memcpy(&x, p, 8);
                return x;
            }
            default: {
                std::uint64_t x = 0;
                std::memcpy(&x, p, size);
                return x;
            }
        }
    }
    static void writeBytes(std::uint8_t* p, std::uint64_t size, std::uint64_t x) {
        switch (size) {
            case 1:
                p[0] = static_cast<std::uint8_t>(x);
                return;
            case 2: {
                const auto y = static_cast<std::uint16_t>(x);
                std::memcpy(p, &y, 2);
                return;
            }
            case 4: {
                const auto y = static_cast<std::uint32_t>(x);
                std::memcpy(p, &y, 4);
                return;
            }
            case 8:
                std::memcpy(p, &x, 8);
                return;
            default:
                std::memcpy(p, &x, size);
                return;
        }
    }
    Value loadLocal(const Thread& th, std::uint32_t off, std::uint64_t size, unsigned w) const {
        return norm(static_cast<std::int64_t>(readBytes(th.local.data() + off, size)), w);
    }
    // A write to the private stack is an effect (SAVER's purity checks, the livelock check)
    // only when it changes a byte: a store of the value already there changes no state.
    void storeLocal(Thread& th, std::uint32_t off, std::uint64_t size, Value v) {
        std::uint8_t* p = th.local.data() + off;
        const auto u = static_cast<std::uint64_t>(v);
        const std::uint64_t low = size >= 8 ? u : u & ((std::uint64_t{1} << (8 * size)) - 1);
        if (readBytes(p, size) == low) return;
        writeBytes(p, size, u);
        ++th.effects;
    }
    // The same for a block of bytes (memset, memcpy, memmove into the private stack).
    void writeLocalBytes(Thread& th, std::uint32_t off, const std::uint8_t* src, std::uint64_t n) {
        if (n == 0 || std::memcmp(th.local.data() + off, src, n) == 0) return;
        std::memmove(th.local.data() + off, src, n);
        ++th.effects;
    }
    // A value written where other threads can see it: a pointer into a private heap block
    // publishes the block.
    void publish(Value v) {
        const auto u = static_cast<std::uint64_t>(v);
        if (u == 0 || (u & m_.localTag)) return;
        const auto obj = static_cast<std::size_t>(u >> m_.objShift);
        if (obj < objs_.size()) objs_[obj].published = 1;
    }
    Value loadConst(std::int64_t obj, std::uint32_t off, std::uint64_t size, unsigned w) const {
        const CGlobal& g = m_.globals[static_cast<std::size_t>(
            obj - 1 - static_cast<std::int64_t>(m_.functions.size()))];
        std::int64_t v = 0;
        std::memcpy(&v, g.bytes.data() + off, size);
        return norm(v, w);
    }

    // `operand`: an AssumeBlock marker's Event::index of the thread's first event of the
    // iteration a loop reduction (or the livelock check) blocked, -1 if none (EventKind.hpp).
    // ctx: the marker's call stack; by default the running frame's (0 once the thread has none).
    static constexpr std::uint32_t kRunningFrame = ~0U;
    void mark(ThreadId t, EventKind k, ThreadStatus st, std::int32_t aux, SourcePos pos,
              Value operand = -1, std::uint32_t ctx = kRunningFrame) {
        Thread& th = threads_[static_cast<std::size_t>(t)];
        Event m;
        m.thread = t;
        m.index = th.evCount++;
        m.kind = k;
        m.aux = aux;
        m.pos = pos;
        m.ctx = ctx != kRunningFrame ? ctx : th.frames.empty() ? 0 : ctxOf(th);
        if (k == EventKind::AssumeBlock) m.operand = operand;
        emitted_.push_back(m);
        th.status = st;
        statuses_[static_cast<std::size_t>(t)] = st;
        if (st == ThreadStatus::Failed) failed_ = true;
    }
    void fault(ThreadId t, FaultKind f, SourcePos pos) {
        mark(t, EventKind::Fault, ThreadStatus::Failed, static_cast<int>(f), pos);
    }

    void startThread(ThreadId t, std::int32_t fn, std::initializer_list<Value> args) {
        Thread& th = threads_[static_cast<std::size_t>(t)];
        th.status = ThreadStatus::Ready;
        statuses_[static_cast<std::size_t>(t)] = ThreadStatus::Ready;
        th.frames.clear();
        th.regs.clear();
        th.local.assign(m_.tlsTemplate.begin(), m_.tlsTemplate.end());  // private thread-locals
        th.wrHeld.clear();
        const CFunction& f = m_.functions[static_cast<std::size_t>(fn)];
        // (a flat program's thread t runs its own function, whose registers its block holds)
        if (flat_ && fn != m_.threadFunctions[static_cast<std::size_t>(t)])
            throw std::logic_error("flat program: thread started with another function");
        Frame fr;
        fr.fn = fn;
        fr.localBase = static_cast<std::int32_t>(th.local.size());
        th.frames.push_back(fr);
        th.regs.assign(static_cast<std::size_t>(f.numSlots), 0);
        int i = 0;
        for (Value a : args)
            if (i < f.numParams) th.regs[static_cast<std::size_t>(i++)] = a;
        runLocal(t);
    }

    void ensureObj(std::int64_t id) {
        if (static_cast<std::size_t>(id) >= objs_.size())
            objs_.resize(static_cast<std::size_t>(id) + 1);
        if (static_cast<std::size_t>(id) >= cache_.size())
            cache_.resize(static_cast<std::size_t>(id) + 1);
    }

    // The largest object porlab represents (bytes).
    [[nodiscard]] std::uint64_t maxObjectBytes() const {
        return m_.lowBits ? kMaxObject64 : m_.offMask + 1;
    }

    // A new shared object (heap block or escaped stack variable; the caller checked the size):
    // a pointer to its byte 0.
    Value allocShared(ThreadId t, std::uint64_t size, std::int64_t kind, SourcePos pos,
                      std::uint64_t align = 16) {
        Thread& th = threads_[static_cast<std::size_t>(t)];
        const auto ref =
            p_.dynamicObject(t, th.nAllocs++, static_cast<std::uint32_t>(size), kind, pos, align);
        ensureObj(ref.id);
        const bool heap = kind == kMallocKind || kind == kCallocKind;
        objs_[static_cast<std::size_t>(ref.id)] = {
            static_cast<std::uint32_t>(size), 1, static_cast<std::uint8_t>(heap ? 1 : 0),
            static_cast<std::uint8_t>(heap ? 0 : 1), static_cast<std::uint32_t>(ref.base)};
        return static_cast<Value>(m_.pointer(ref.id, ref.base));
    }

    // malloc and friends: NULL for a size no machine can provide (C's answer), an
    // UnsupportedError for one porlab cannot represent.
    Value allocHeap(ThreadId t, std::uint64_t size, std::int64_t kind, std::uint64_t align,
                    SourcePos pos) {
        const std::uint64_t impossible = m_.lowBits ? kImpossible64 : std::uint64_t{1} << 31;
        if (size >= impossible || align == 0 || (align & (align - 1)) != 0 ||
            align > maxObjectBytes())
            return 0;
        if (size > maxObjectBytes())
            throw UnsupportedError(p_.where(pos) + "an allocation of " + std::to_string(size) +
                                   " bytes: porlab's objects hold at most " +
                                   std::to_string(maxObjectBytes()) + " bytes" +
                                   (m_.lowBits ? "" : " with 32-bit pointers"));
        return allocShared(t, size, kind, pos, align);
    }

    // The bytes memset / memcpy moves as one event at byte k of n: a location of the shared
    // side(s) (a global's declared cell, a heap location that exists, else an aligned chunk of
    // at most 8 bytes).
    unsigned copyChunk(const CInstr& in, const Addr& d, const Addr& s, std::uint64_t k,
                       std::uint64_t n) const;  // Builtins.cpp
    void doReturn(ThreadId t, Value rv, bool hasValue);
    // The call stack of the running frame: one load on the hot path; computed (and kept in the
    // frame) the first time an event of the frame needs it.
    std::uint32_t ctxOf(Thread& th) {
        const std::int32_t c = th.frames.back().ctx;
        return c >= 0 ? static_cast<std::uint32_t>(c) : computeCtx(th);
    }
    std::uint32_t computeCtx(Thread& th);
    // The end of a frame whose stack variables escaped: a write event of every location of each
    // (th.phase: the next offset), like a free; the variable is dead after its last one. True
    // when such a write is pending.
    // The event that kills a location: an exchange (it reads what was there, so that explorers
    // by reads-from also tell a write before it from one after it); a plain write on a mutex.
    EventKind deadKind(LocId l) const {
        return p_.infoMut_->isMutex[static_cast<std::size_t>(l)] ? EventKind::Write
                                                                 : EventKind::Exchange;
    }
    // allFrames (pthread_exit, exit, abort): the variables of every frame of the thread, the
    // innermost first, as if each frame returned in turn.
    bool frameEnd(ThreadId t, const CInstr& in, bool allFrames = false) {
        if (threads_[static_cast<std::size_t>(t)].stackObjs.empty()) return false;
        return frameEndOfObjects(t, in, allFrames);
    }
    bool frameEndOfObjects(ThreadId t, const CInstr& in, bool allFrames);  // VisibleSteps.cpp
    bool visibleBuiltin(ThreadId t, const CInstr& in);
    bool localBuiltin(ThreadId t, const CInstr& in);  // LocalBuiltins.cpp
    // Runs thread t's local code up to its next visible operation (or its end).
    void runLocal(ThreadId t) {
        if (!quickStop(t)) runLocalGuarded(t);
    }
    void runLocalGuarded(ThreadId t);
    // The thread's next instruction is an access to a global's cell or an await or a mutex lock
    // or unlock on one (CInstr::loc): it becomes the pending event without entering the
    // interpreter's loop (most steps of a builder program end at such an instruction); or it is
    // a builder thread's end, made there too. False, with nothing done, for any other
    // instruction.
    [[gnu::always_inline]] bool quickStop(ThreadId t) {
        Thread& th = threads_[static_cast<std::size_t>(t)];
        const Frame& fr = th.frames.back();
        const CInstr& in =
            m_.functions[static_cast<std::size_t>(fr.fn)].code[static_cast<std::size_t>(fr.pc)];
        if (in.loc < 0) {
            // A builder thread's end (Builtin::FinishThread, as localBuiltin makes it).
            if (in.op != COp::Builtin || static_cast<Builtin>(in.sub) != Builtin::FinishThread)
                return false;
            mark(t, EventKind::ThreadEnd, ThreadStatus::Finished, -1, in.pos);
            return true;
        }
        switch (in.op) {
            case COp::Load:
            case COp::Store:
            case COp::Rmw:
            case COp::CmpXchg:
                stopAtLocation(t, in, in.loc, 0);
                return true;
            case COp::Builtin:  // (loc is set on awaits, locks and unlocks only: all visible)
                if (static_cast<Builtin>(in.sub) == Builtin::LoadAwait) {
                    const Value code = arg(th, in, 1);
                    const auto cond = awaitCondFromCode(static_cast<int>(code));
                    if (!cond || code != static_cast<int>(code)) return visibleBuiltin(t, in);
                    setPend(th, t, EventKind::Await, in.loc, in.pos);  // (as visibleBuiltin)
                    th.pend.cond = *cond;
                    th.pend.operand = norm(arg(th, in, 2), in.w);
                    if (in.plain) th.pend.mode = AccessMode::Plain;
                    th.pendW = in.w;
                    return true;
                }
                // A lock or an unlock of a global's mutex that does not fault (as visibleBuiltin).
                if (static_cast<Builtin>(in.sub) == Builtin::MutexLock) {
                    if (!relaxedLocks_ && owner_[static_cast<std::size_t>(in.loc)] == t)
                        return visibleBuiltin(t, in);
                    setPend(th, t, EventKind::Lock, in.loc, in.pos);
                    return true;
                }
                if (static_cast<Builtin>(in.sub) == Builtin::MutexUnlock) {
                    const ThreadId o = owner_[static_cast<std::size_t>(in.loc)];
                    if (!relaxedLocks_ && o != t && o != kDestroyedOwner)
                        return visibleBuiltin(t, in);
                    setPend(th, t, EventKind::Unlock, in.loc, in.pos);
                    return true;
                }
                return visibleBuiltin(t, in);
            default:
                return false;
        }
    }
    void runLocalSteps(ThreadId t);
    bool stopAtAccess(ThreadId t, const CInstr& in, const Addr& ad);
    bool stopAtLocation(ThreadId t, const CInstr& in, LocId loc, std::int64_t obj);
    void setPend(Thread& th, ThreadId t, EventKind k, LocId loc, SourcePos pos) {
        Event& e = th.pend;
        e = Event{};
        e.thread = t;
        e.kind = k;
        e.loc = loc;
        e.pos = pos;
        e.ctx = ctxOf(th);
        th.pendW = 64;
        th.pendTry = false;
        th.pendNew = 0;
        th.pendObj = 0;
    }

    const CodeProgram& p_;
    const CModule& m_;
    int T_;
    std::vector<Value> mem_;
    std::vector<ThreadId> owner_;
    bool relaxedLocks_ = false;  // LAPOR replays: locks never block nor fault
    mutable std::vector<Thread> threads_;
    // The threads' statuses side by side (Thread::status mirrored at its every change: reset,
    // startThread, mark, restore): explorers ask every thread's status at every step, and one
    // line of memory answers them all.
    std::vector<ThreadStatus> statuses_;
    std::vector<ObjState> objs_;
    LocId knownLocs_ = 0;  // see known()
    // A flat program (CodeProgram::flatThreads): the frames and registers of all threads live in
    // block_ (blockWords_ words), thread t's at a fixed place: [its frame (3 words) | the
    // registers of its function]. A snapshot copies the block at once (Snapshots.cpp).
    bool flat_ = false;
    std::unique_ptr<std::int64_t[]> block_;
    std::size_t blockWords_ = 0;
    void placeFlatThreads();                 // (Snapshots.cpp)
    std::vector<std::vector<LocId>> cache_;  // (object, offset) -> LocId, a cache of p_.cells_
    std::vector<Event> emitted_;
    std::vector<Value> tmp_;
    mutable std::vector<Value> outcomeBuf_;  // (builderOutcome)
    // (caller's context, call pc, callee) -> context: this execution's cache of the program's
    // CallContexts, so that re-executions intern without taking its lock.
    struct CtxKeyHash {
        std::size_t operator()(const std::pair<std::uint64_t, std::uint64_t>& k) const noexcept {
            return static_cast<std::size_t>(k.first * 0x9e3779b97f4a7c15ULL ^ k.second);
        }
    };
    std::unordered_map<std::pair<std::uint64_t, std::uint64_t>, std::uint32_t, CtxKeyHash>
        ctxCache_;
    struct CtxSlot {
        std::pair<std::uint64_t, std::uint64_t> key{};
        std::int32_t ctx = -1;  // -1: empty
    };
    static constexpr std::size_t kCtxFastSize = 64;
    std::array<CtxSlot, kCtxFastSize> ctxFast_{};
    static std::size_t ctxFastIndex(const std::pair<std::uint64_t, std::uint64_t>& k) {
        return static_cast<std::size_t>(
            (k.first * 0x9e3779b97f4a7c15ULL + k.second * 0xc2b2ae3d27d4eb4fULL) >> 58);
    }
    std::vector<std::uint8_t> tmpBytes_;
    // zne awaits (setZneAwaits): per location, the last access that observes its value (any
    // access but a fetch-and-add whose result is unused): its thread and step number, and the
    // step number of the last such access by another thread than that one.
    bool zneAwaits_ = false;
    std::vector<ThreadId> obsThread_;
    std::vector<std::int64_t> obsStep_, obsOther_;
    std::vector<std::int64_t> warnedLoops_;  // loops this execution already warned about
    // "file:line" of a loop header packed as file << 32 | line (CInstr::imm2 of LoopBack).
    std::string loopName(std::int64_t packed) const {
        const auto file = static_cast<std::size_t>(packed >> 32);
        const auto line = packed & 0xffffffff;
        return (file < m_.files.size() ? m_.files[file] : std::string("?")) + ":" +
               std::to_string(line);
    }
    // Warns about a loop once per execution object (warnOnce keeps one copy program-wide; this
    // saves its lock on every blocked execution).
    void warnLoop(std::int64_t packed, BlockCause why, const std::string& text) {
        const std::int64_t key = packed * 16 + static_cast<int>(why);
        if (std::find(warnedLoops_.begin(), warnedLoops_.end(), key) != warnedLoops_.end()) return;
        warnedLoops_.push_back(key);
        p_.warnOnce(text);
    }
    // The livelock check at a jump back (slots L of the loop, `others` the steps of other threads
    // so far): true when the thread was blocked (livelock).
    bool livelock(ThreadId t, const CInstr& in, const Value* L, std::int64_t others);
    static void restoreFinished(Thread& th, const std::int64_t* w, std::size_t& i);
    void restoreFlat(const std::int64_t* w);  // (restore of a flat program's threads)
    // Did a thread other than t observe location l after step s?
    // Step totalEvents_ + 1, event ev of thread t, is made (zne awaits): if it observes its
    // location's value (any access but a fetch-and-add whose result is unused), record it.
    void observe(ThreadId t, const Event& ev) {
        if (ev.loc < 0 || !accessesMemory(ev.kind) ||
            (ev.kind == EventKind::FetchAdd && !ev.resultUsed &&
             (ev.rmwOp == RmwOp::Add || ev.rmwOp == RmwOp::Sub)))
            return;
        const auto l = static_cast<std::size_t>(ev.loc);
        if (obsThread_[l] != t) {
            obsOther_[l] = obsStep_[l];
            obsThread_[l] = t;
        }
        obsStep_[l] = totalEvents_ + 1;
    }
    [[nodiscard]] bool observedSince(LocId l, ThreadId t, std::int64_t s) const {
        const auto i = static_cast<std::size_t>(l);
        return obsThread_[i] != t ? obsStep_[i] > s : obsOther_[i] > s;
    }
    std::int64_t totalEvents_ = 0;  // visible operations of this execution
    bool failed_ = false;
};

}  // namespace porlab::code
