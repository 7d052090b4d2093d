// SPDX-License-Identifier: MIT
#include "porlab/program/BytecodeProgram.hpp"

#include <iterator>
#include <sstream>

#include "porlab/core/Conflict.hpp"
#include "porlab/core/Errors.hpp"

namespace porlab {

namespace {

enum : std::size_t { kStatus = 0, kPc = 1, kEvCount = 2, kRegs = 3 };

std::string where(const ProgramSpec& s, std::size_t t, std::size_t pc) {
    std::ostringstream o;
    const Instr& in = s.threads[t].code[pc];
    if (in.pos.line != 0)
        o << (in.pos.file < s.files.size() ? s.files[in.pos.file] : "?") << ":" << in.pos.line
          << ": ";
    o << "thread '" << s.threads[t].name << "', instruction " << pc << " ("
      << kOpcodeNames[static_cast<int>(in.op)] << ")";
    return o.str();
}

}  // namespace

BytecodeProgram::BytecodeProgram(ProgramSpec spec) : spec_(std::move(spec)) {
    validate(spec_);
    auto info = std::make_shared<ProgramInfo>();
    info->name = spec_.name;
    for (const auto& t : spec_.threads) info->threadNames.push_back(t.name);
    info->locationNames = spec_.locNames;
    info->isMutex = spec_.locIsMutex;
    info->initialValues = spec_.locInit;
    info->files = spec_.files;
    info_ = std::move(info);

    const std::size_t L = spec_.locNames.size();
    std::size_t off = 2 * L;
    for (const auto& t : spec_.threads) {
        threadBase_.push_back(off);
        off += kRegs + t.regInit.size();
    }
    stateWords_ = off;
    initialState_.assign(stateWords_, 0);
    for (std::size_t l = 0; l < L; ++l) initialState_[l] = spec_.locInit[l];
    for (std::size_t t = 0; t < spec_.threads.size(); ++t) {
        initialState_[threadBase_[t] + kStatus] = static_cast<int>(ThreadStatus::NotStarted);
        for (std::size_t r = 0; r < spec_.threads[t].regInit.size(); ++r)
            initialState_[threadBase_[t] + kRegs + r] = spec_.threads[t].regInit[r];
    }
}

void BytecodeProgram::validate(const ProgramSpec& s) {
    const auto L = static_cast<std::int64_t>(s.locNames.size());
    if (s.locInit.size() != s.locNames.size() || s.locIsMutex.size() != s.locNames.size())
        throw InputError("program '" + s.name + "': location tables have different sizes");
    if (s.threads.empty()) throw InputError("program '" + s.name + "' has no threads");
    bool anyAuto = false;
    for (std::size_t t = 0; t < s.threads.size(); ++t) {
        const auto& th = s.threads[t];
        anyAuto |= th.autostart;
        const auto R = static_cast<std::int32_t>(th.regInit.size());
        const auto N = static_cast<std::int32_t>(th.code.size());
        if (N == 0 || th.code.back().op != Opcode::End)
            throw InputError("program '" + s.name + "', thread '" + th.name +
                             "': code must end with an 'end' instruction");
        for (std::int32_t pc = 0; pc < N; ++pc) {
            const Instr& in = th.code[pc];
            auto bad = [&](const std::string& what) {
                throw InputError(where(s, t, static_cast<std::size_t>(pc)) + ": " + what);
            };
            auto reg = [&](std::int32_t r, const char* what) {
                if (r < 0 || r >= R) bad(std::string("invalid register for ") + what);
            };
            auto optReg = [&](std::int32_t r, const char* what) {
                if (r != -1) reg(r, what);
            };
            auto target = [&](std::int32_t x) {
                if (x < 0 || x >= N) bad("jump target out of range");
            };
            auto location = [&](bool mutex) {
                if (in.loc < 0 || in.len < 1 || in.loc + static_cast<std::int64_t>(in.len) > L)
                    bad("unknown location");
                for (std::int32_t k = 0; k < in.len; ++k)
                    if (s.locIsMutex[in.loc + k] != mutex)
                        bad(mutex ? "lock/unlock of something that is not a mutex"
                                  : "memory access to a mutex");
                optReg(in.idx, "index");
                if (in.idx == -1 && in.len != 1) bad("array access without an index");
            };
            auto thread = [&](std::int32_t x) {
                if (x < 0 || x >= static_cast<std::int32_t>(s.threads.size()))
                    bad("unknown thread");
            };
            switch (in.op) {
                case Opcode::Const:
                    reg(in.a, "result");
                    break;
                case Opcode::Move:
                    reg(in.a, "result");
                    reg(in.b, "operand");
                    break;
                case Opcode::Bin:
                    reg(in.a, "result");
                    reg(in.b, "operand");
                    reg(in.c, "operand");
                    if (in.sub > static_cast<int>(BinOp::Max)) bad("unknown binary operator");
                    break;
                case Opcode::Un:
                    reg(in.a, "result");
                    reg(in.b, "operand");
                    if (in.sub > static_cast<int>(UnOp::BitNot)) bad("unknown unary operator");
                    break;
                case Opcode::Jump:
                    target(in.a);
                    break;
                case Opcode::JumpIfZero:
                case Opcode::JumpIfNonZero:
                    target(in.a);
                    reg(in.b, "condition");
                    break;
                case Opcode::Assume:
                case Opcode::Assert:
                    reg(in.b, "condition");
                    break;
                case Opcode::LoopCheck:
                    reg(in.b, "loop counter");
                    if (in.imm < 0) bad("negative loop bound");
                    break;
                case Opcode::Load:
                    location(false);
                    reg(in.a, "result");
                    break;
                case Opcode::Store:
                    location(false);
                    reg(in.c, "value");
                    break;
                case Opcode::FetchOp:
                    location(false);
                    reg(in.a, "result");
                    reg(in.c, "operand");
                    if (in.sub >= static_cast<int>(std::size(kRmwOpNames)))
                        bad("unknown read-modify-write op");
                    break;
                case Opcode::Xchg:
                    location(false);
                    reg(in.a, "result");
                    reg(in.c, "value");
                    break;
                case Opcode::Cas:
                    location(false);
                    reg(in.a, "result");
                    optReg(in.e, "success flag");
                    reg(in.c, "expected value");
                    reg(in.d, "new value");
                    break;
                case Opcode::Lock:
                case Opcode::Unlock:
                    location(true);
                    break;
                case Opcode::Spawn:
                    thread(in.a);
                    if (s.threads[in.a].autostart) bad("spawn of a thread that starts by itself");
                    if (in.a == static_cast<std::int32_t>(t)) bad("a thread cannot spawn itself");
                    break;
                case Opcode::Join:
                    thread(in.a);
                    if (in.a == static_cast<std::int32_t>(t)) bad("a thread cannot join itself");
                    break;
                case Opcode::Await:
                case Opcode::XchgAwait:
                    location(false);
                    reg(in.a, "result");
                    reg(in.c, "operand");
                    if (in.op == Opcode::XchgAwait) reg(in.d, "new value");
                    if (!awaitCondFromCode(in.sub)) bad("unknown await condition");
                    break;
                case Opcode::End:
                    break;
            }
        }
    }
    if (!anyAuto) throw InputError("program '" + s.name + "': no thread starts by itself");
}

// ---------------------------------------------------------------------------------------------

class BytecodeExecution final : public Execution {
  public:
    explicit BytecodeExecution(const BytecodeProgram& p)
        : p_(p),
          L_(p.spec_.locNames.size()),
          state_(p.initialState_),
          pend_(p.spec_.threads.size()) {
        emitted_.reserve(8);
    }

    std::span<const Event> reset() override {
        state_ = p_.initialState_;
        emitted_.clear();
        failed_ = false;
        for (std::size_t t = 0; t < p_.spec_.threads.size(); ++t)
            if (p_.spec_.threads[t].autostart) start(static_cast<ThreadId>(t));
        return emitted_;
    }

    [[nodiscard]] int maxThreads() const override {
        return static_cast<int>(p_.spec_.threads.size());
    }

    [[nodiscard]] ThreadStatus status(ThreadId t) const override {
        return static_cast<ThreadStatus>(state_[p_.threadBase_[t] + kStatus]);
    }

    [[nodiscard]] const Event& pending(ThreadId t) const override {
        Event& e = pend_[t];
        const Instr& in = instr(t);
        const std::int64_t* regs = &state_[p_.threadBase_[t] + kRegs];
        e.thread = t;
        e.index = static_cast<std::uint32_t>(state_[p_.threadBase_[t] + kEvCount]);
        e.pos = in.pos;
        e.aux = -1;
        e.rmwOp = RmwOp::Add;    // reset: pend_ is reused, stale fields would leak into
        e.cond = AwaitCond::EQ;  // event identities (and so into class keys)
        e.enabled = true;
        e.resultUsed = true;
        e.operand = 0;
        e.rval = 0;
        e.wval = 0;
        e.loc = in.idx >= 0 ? in.loc + static_cast<LocId>(regs[in.idx]) : in.loc;
        const Value cur = e.loc >= 0 ? state_[e.loc] : 0;
        switch (in.op) {
            case Opcode::Load:
                e.kind = EventKind::Read;
                e.rval = cur;
                break;
            case Opcode::Store:
                e.kind = EventKind::Write;
                e.wval = regs[in.c];
                break;
            case Opcode::FetchOp:
                e.kind = EventKind::FetchAdd;
                e.rmwOp = static_cast<RmwOp>(in.sub);
                e.resultUsed = in.resultUsed;
                e.operand = regs[in.c];
                e.rval = cur;
                e.wval = applyRmw(e.rmwOp, cur, e.operand);
                break;
            case Opcode::Xchg:
                e.kind = EventKind::Exchange;
                e.rval = cur;
                e.wval = regs[in.c];
                break;
            case Opcode::Cas:
                e.operand = regs[in.c];
                e.rval = cur;
                if (cur == e.operand) {
                    e.kind = EventKind::CasSuccess;
                    e.wval = regs[in.d];
                } else {
                    e.kind = EventKind::CasFailure;
                }
                break;
            case Opcode::Lock:
                e.kind = EventKind::Lock;
                e.wval = 1;
                e.enabled = cur == 0 || relaxedLocks_;
                break;
            case Opcode::Unlock:
                e.kind = EventKind::Unlock;
                break;
            case Opcode::Spawn:
                e.kind = EventKind::Spawn;
                e.aux = in.a;
                break;
            case Opcode::Join:
                e.kind = EventKind::Join;
                e.aux = in.a;
                e.enabled = status(in.a) == ThreadStatus::Finished;
                break;
            case Opcode::Await:
            case Opcode::XchgAwait:
                e.kind = in.op == Opcode::Await ? EventKind::Await : EventKind::XchgAwait;
                e.cond = static_cast<AwaitCond>(in.sub);
                e.operand = regs[in.c];
                e.rval = cur;
                if (in.op == Opcode::XchgAwait) e.wval = regs[in.d];
                e.enabled = evalAwaitCond(e.cond, cur, e.operand);
                break;
            default:
                break;  // not reached: Ready threads sit on a visible instruction
        }
        return e;
    }

    std::span<const Event> step(ThreadId t, std::optional<Value> forcedRead) override {
        emitted_.clear();
        const std::size_t base = p_.threadBase_[t];
        const Instr& in = instr(t);
        Event ev = pending(t);
        std::int64_t* regs = &state_[base + kRegs];
        if (forcedRead && readsMemory(ev.kind)) {
            ev.rval = *forcedRead;
            if (ev.kind == EventKind::FetchAdd) ev.wval = applyRmw(ev.rmwOp, ev.rval, ev.operand);
            if (ev.kind == EventKind::CasSuccess || ev.kind == EventKind::CasFailure) {
                const bool ok = ev.rval == ev.operand;
                ev.kind = ok ? EventKind::CasSuccess : EventKind::CasFailure;
                ev.wval = ok ? regs[in.d] : 0;
            }
        }
        switch (ev.kind) {
            case EventKind::Read:
            case EventKind::Await:
                regs[in.a] = ev.rval;
                break;
            case EventKind::Write:
                state_[ev.loc] = ev.wval;
                break;
            case EventKind::FetchAdd:
                // An unused result is not stored: IFAA-equivalent executions then reach the same
                // local states, as they should.
                if (in.resultUsed) regs[in.a] = ev.rval;
                state_[ev.loc] = ev.wval;
                break;
            case EventKind::Exchange:
            case EventKind::XchgAwait:
                regs[in.a] = ev.rval;
                state_[ev.loc] = ev.wval;
                break;
            case EventKind::CasSuccess:
            case EventKind::CasFailure:
                regs[in.a] = ev.rval;
                if (in.e >= 0) regs[in.e] = ev.kind == EventKind::CasSuccess;
                if (ev.kind == EventKind::CasSuccess) state_[ev.loc] = ev.wval;
                break;
            case EventKind::Lock:
                state_[ev.loc] = 1;
                state_[L_ + ev.loc] = t + 1;
                break;
            case EventKind::Unlock:
                state_[ev.loc] = 0;
                state_[L_ + ev.loc] = 0;
                break;
            case EventKind::Spawn:
                if (status(ev.aux) != ThreadStatus::NotStarted) {
                    ev.kind = EventKind::Fault;
                    ev.aux = static_cast<int>(FaultKind::SpawnTwice);
                    state_[base + kStatus] = static_cast<int>(ThreadStatus::Failed);
                    failed_ = true;
                }
                break;
            default:  // (Join: nothing to do here)
                break;
        }
        state_[base + kEvCount] += 1;
        emitted_.push_back(ev);
        if (ev.kind == EventKind::Fault) return emitted_;
        state_[base + kPc] += 1;
        if (ev.kind == EventKind::Spawn) start(ev.aux);
        runLocal(t);
        return emitted_;
    }

    [[nodiscard]] bool failed() const override { return failed_; }
    bool setRelaxedLocks(bool on) override {
        relaxedLocks_ = on;
        return true;
    }
    // SAVER's zne blocking (graph explorers): the thread stops for good before its pending
    // operation, as in C programs.
    std::span<const Event> blockThread(ThreadId t, BlockCause cause) override {
        emitted_.clear();
        if (status(t) != ThreadStatus::Ready) return {};
        mark(t, EventKind::AssumeBlock, ThreadStatus::Blocked, static_cast<int>(cause),
             instr(t).pos);
        emitted_.back().operand = -1;  // no loop iteration to name
        return emitted_;
    }
    // Builder programs have no zero-net-effect decrements (Event::zne: only SAVER's loop
    // reduction of C programs marks them), so zne awaits hold trivially: nothing waits.
    bool setZneAwaits(bool on) override {
        (void)on;
        return true;
    }

    [[nodiscard]] std::span<const Value> memory() const override { return {state_.data(), L_}; }
    bool patchMemory(LocId x, Value v) override {
        if (x < 0 || static_cast<std::size_t>(x) >= L_) return false;
        state_[static_cast<std::size_t>(x)] = v;
        return true;
    }

    [[nodiscard]] std::vector<Value> outcome() const override {
        // Memory and every thread's status and registers (program counters and event counts
        // are left out: they are determined by the rest for terminated threads).
        std::vector<Value> o(state_.begin(), state_.begin() + static_cast<std::ptrdiff_t>(L_));
        for (std::size_t t = 0; t < p_.spec_.threads.size(); ++t) {
            const std::size_t base = p_.threadBase_[t];
            o.push_back(state_[base + kStatus]);
            const std::size_t R = p_.spec_.threads[t].regInit.size();
            o.insert(o.end(), state_.begin() + static_cast<std::ptrdiff_t>(base + kRegs),
                     state_.begin() + static_cast<std::ptrdiff_t>(base + kRegs + R));
        }
        return o;
    }

    void save(Snapshot& s) const override {
        s.words.assign(state_.begin(), state_.end());
        s.words.push_back(failed_);
    }

    void restore(const Snapshot& s) override {
        std::copy(s.words.begin(), s.words.end() - 1, state_.begin());
        failed_ = s.words.back() != 0;
    }

  private:
    [[nodiscard]] const Instr& instr(ThreadId t) const {
        const std::size_t base = p_.threadBase_[t];
        return p_.spec_.threads[t].code[static_cast<std::size_t>(state_[base + kPc])];
    }

    void start(ThreadId t) {
        state_[p_.threadBase_[t] + kStatus] = static_cast<int>(ThreadStatus::Ready);
        state_[p_.threadBase_[t] + kPc] = 0;
        runLocal(t);
    }

    void mark(ThreadId t, EventKind k, ThreadStatus st, std::int32_t aux, SourcePos pos) {
        const std::size_t base = p_.threadBase_[t];
        Event m;
        m.thread = t;
        m.index = static_cast<std::uint32_t>(state_[base + kEvCount]++);
        m.kind = k;
        m.aux = aux;
        m.pos = pos;
        emitted_.push_back(m);
        state_[base + kStatus] = static_cast<int>(st);
        if (st == ThreadStatus::Failed) failed_ = true;
    }

    // Run thread t's local instructions until its next visible operation or its end.
    void runLocal(ThreadId t) {
        const std::size_t base = p_.threadBase_[t];
        const auto& code = p_.spec_.threads[t].code;
        std::int64_t* regs = &state_[base + kRegs];
        auto pc = static_cast<std::size_t>(state_[base + kPc]);
        for (;;) {
            const Instr& in = code[pc];
            switch (in.op) {
                case Opcode::Const:
                    regs[in.a] = in.imm;
                    ++pc;
                    continue;
                case Opcode::Move:
                    regs[in.a] = regs[in.b];
                    ++pc;
                    continue;
                case Opcode::Bin: {
                    const Value x = regs[in.b], y = regs[in.c];
                    Value r = 0;
                    const auto ux = static_cast<std::uint64_t>(x),
                               uy = static_cast<std::uint64_t>(y);
                    switch (static_cast<BinOp>(in.sub)) {
                        case BinOp::Add:
                            r = static_cast<Value>(ux + uy);
                            break;
                        case BinOp::Sub:
                            r = static_cast<Value>(ux - uy);
                            break;
                        case BinOp::Mul:
                            r = static_cast<Value>(ux * uy);
                            break;
                        case BinOp::Div:
                        case BinOp::Mod:
                            if (y == 0 || (x == INT64_MIN && y == -1)) {
                                state_[base + kPc] = static_cast<std::int64_t>(pc);
                                mark(t, EventKind::Fault, ThreadStatus::Failed,
                                     static_cast<int>(FaultKind::DivisionByZero), in.pos);
                                return;
                            }
                            r = static_cast<BinOp>(in.sub) == BinOp::Div ? x / y : x % y;
                            break;
                        case BinOp::And:
                            r = x & y;
                            break;
                        case BinOp::Or:
                            r = x | y;
                            break;
                        case BinOp::Xor:
                            r = x ^ y;
                            break;
                        case BinOp::Shl:
                        case BinOp::Shr:
                            // Python's shifts on 64-bit ints (the builder writes `<<` and `>>` in
                            // Python): a count past 63 shifts every bit out, a negative count is an
                            // error (ValueError in Python), a fault here.
                            if (y < 0) {
                                state_[base + kPc] = static_cast<std::int64_t>(pc);
                                mark(t, EventKind::Fault, ThreadStatus::Failed,
                                     static_cast<int>(FaultKind::NegativeShift), in.pos);
                                return;
                            }
                            if (static_cast<BinOp>(in.sub) == BinOp::Shl)
                                r = y > 63 ? 0 : static_cast<Value>(ux << uy);
                            else
                                r = x >> (y > 63 ? 63 : y);
                            break;
                        case BinOp::Eq:
                            r = x == y;
                            break;
                        case BinOp::Ne:
                            r = x != y;
                            break;
                        case BinOp::Lt:
                            r = x < y;
                            break;
                        case BinOp::Le:
                            r = x <= y;
                            break;
                        case BinOp::Gt:
                            r = x > y;
                            break;
                        case BinOp::Ge:
                            r = x >= y;
                            break;
                        case BinOp::LAnd:
                            r = (x != 0) && (y != 0);
                            break;
                        case BinOp::LOr:
                            r = (x != 0) || (y != 0);
                            break;
                        case BinOp::Min:
                            r = x < y ? x : y;
                            break;
                        case BinOp::Max:
                            r = x > y ? x : y;
                            break;
                    }
                    regs[in.a] = r;
                    ++pc;
                    continue;
                }
                case Opcode::Un: {
                    const Value x = regs[in.b];
                    switch (static_cast<UnOp>(in.sub)) {
                        case UnOp::Neg:
                            regs[in.a] = static_cast<Value>(0 - static_cast<std::uint64_t>(x));
                            break;
                        case UnOp::Not:
                            regs[in.a] = x == 0;
                            break;
                        case UnOp::BitNot:
                            regs[in.a] = ~x;
                            break;
                    }
                    ++pc;
                    continue;
                }
                case Opcode::Jump:
                    pc = static_cast<std::size_t>(in.a);
                    continue;
                case Opcode::JumpIfZero:
                    pc = regs[in.b] == 0 ? static_cast<std::size_t>(in.a) : pc + 1;
                    continue;
                case Opcode::JumpIfNonZero:
                    pc = regs[in.b] != 0 ? static_cast<std::size_t>(in.a) : pc + 1;
                    continue;
                case Opcode::Assume:
                    if (regs[in.b] == 0) {
                        state_[base + kPc] = static_cast<std::int64_t>(pc);
                        mark(t, EventKind::AssumeBlock, ThreadStatus::Blocked,
                             static_cast<int>(BlockCause::Assume), in.pos);
                        return;
                    }
                    ++pc;
                    continue;
                case Opcode::Assert:
                    if (regs[in.b] == 0) {
                        state_[base + kPc] = static_cast<std::int64_t>(pc);
                        mark(t, EventKind::AssertFail, ThreadStatus::Failed, -1, in.pos);
                        return;
                    }
                    ++pc;
                    continue;
                case Opcode::LoopCheck:
                    if (regs[in.b] >= in.imm) {
                        state_[base + kPc] = static_cast<std::int64_t>(pc);
                        mark(t, EventKind::AssumeBlock, ThreadStatus::Blocked,
                             static_cast<int>(BlockCause::LoopBound), in.pos);
                        return;
                    }
                    regs[in.b] += 1;
                    ++pc;
                    continue;
                case Opcode::End:
                    state_[base + kPc] = static_cast<std::int64_t>(pc);
                    mark(t, EventKind::ThreadEnd, ThreadStatus::Finished, -1, in.pos);
                    return;
                default: {
                    // A visible operation: stop here. Faults that only depend on this thread's own
                    // state are reported now, before the operation is ever scheduled.
                    state_[base + kPc] = static_cast<std::int64_t>(pc);
                    if (in.idx >= 0 && (regs[in.idx] < 0 || regs[in.idx] >= in.len)) {
                        mark(t, EventKind::Fault, ThreadStatus::Failed,
                             static_cast<int>(FaultKind::IndexOutOfBounds), in.pos);
                        return;
                    }
                    if (!relaxedLocks_ && (in.op == Opcode::Unlock || in.op == Opcode::Lock)) {
                        const LocId m =
                            in.idx >= 0 ? in.loc + static_cast<LocId>(regs[in.idx]) : in.loc;
                        const bool mine = state_[L_ + m] == t + 1;
                        if (in.op == Opcode::Unlock && !mine) {
                            mark(t, EventKind::Fault, ThreadStatus::Failed,
                                 static_cast<int>(FaultKind::UnlockNotHeld), in.pos);
                            return;
                        }
                        if (in.op == Opcode::Lock && mine) {
                            mark(t, EventKind::Fault, ThreadStatus::Failed,
                                 static_cast<int>(FaultKind::RelockHeld), in.pos);
                            return;
                        }
                    }
                    return;
                }
            }
        }
    }

    const BytecodeProgram& p_;
    std::size_t L_;
    std::vector<std::int64_t> state_;
    mutable std::vector<Event> pend_;
    std::vector<Event> emitted_;
    bool failed_ = false;
    bool relaxedLocks_ = false;
};

std::unique_ptr<Execution> BytecodeProgram::newExecution() const {
    auto e = std::make_unique<BytecodeExecution>(*this);
    return e;
}

std::string BytecodeProgram::disassemble() const {
    std::ostringstream o;
    auto locName = [&](const Instr& in) {
        std::string n = in.loc >= 0 && in.loc < static_cast<LocId>(spec_.locNames.size())
                            ? spec_.locNames[in.loc]
                            : "?";
        if (in.idx >= 0) n += "[+r" + std::to_string(in.idx) + "]";
        return n;
    };
    for (std::size_t t = 0; t < spec_.threads.size(); ++t) {
        const auto& th = spec_.threads[t];
        o << "thread " << t << " '" << th.name << "'" << (th.autostart ? "" : " (spawned)") << "\n";
        for (std::size_t pc = 0; pc < th.code.size(); ++pc) {
            const Instr& in = th.code[pc];
            o << "  " << pc << ": " << kOpcodeNames[static_cast<int>(in.op)];
            switch (in.op) {
                case Opcode::Const:
                    o << " r" << in.a << " = " << in.imm;
                    break;
                case Opcode::Move:
                    o << " r" << in.a << " = r" << in.b;
                    break;
                case Opcode::Bin:
                    o << " r" << in.a << " = r" << in.b << " " << kBinOpNames[in.sub] << " r"
                      << in.c;
                    break;
                case Opcode::Un:
                    o << " r" << in.a << " = " << kUnOpNames[in.sub] << " r" << in.b;
                    break;
                case Opcode::Jump:
                    o << " " << in.a;
                    break;
                case Opcode::JumpIfZero:
                case Opcode::JumpIfNonZero:
                    o << " r" << in.b << ", " << in.a;
                    break;
                case Opcode::Assume:
                case Opcode::Assert:
                    o << " r" << in.b;
                    break;
                case Opcode::LoopCheck:
                    o << " r" << in.b << " < " << in.imm;
                    break;
                case Opcode::Load:
                    o << " r" << in.a << " = " << locName(in);
                    break;
                case Opcode::Store:
                    o << " " << locName(in) << " = r" << in.c;
                    break;
                case Opcode::FetchOp:
                    o << " r" << in.a << " = " << locName(in) << " " << kRmwOpNames[in.sub] << "= r"
                      << in.c << (in.resultUsed ? "" : " (unused)");
                    break;
                case Opcode::Xchg:
                    o << " r" << in.a << " = " << locName(in) << " <- r" << in.c;
                    break;
                case Opcode::Cas:
                    o << " r" << in.a << ", r" << in.e << " = " << locName(in) << " r" << in.c
                      << " -> r" << in.d;
                    break;
                case Opcode::Lock:
                case Opcode::Unlock:
                    o << " " << locName(in);
                    break;
                case Opcode::Spawn:
                case Opcode::Join:
                    o << " " << spec_.threads[in.a].name;
                    break;
                case Opcode::Await:
                case Opcode::XchgAwait:
                    o << " r" << in.a << " = " << locName(in) << " "
                      << name(static_cast<AwaitCond>(in.sub)) << " r" << in.c;
                    if (in.op == Opcode::XchgAwait) o << " := r" << in.d;
                    break;
                case Opcode::End:
                    break;
            }
            o << "\n";
        }
    }
    return o.str();
}

}  // namespace porlab
