// SPDX-License-Identifier: MIT
#include "porlab/program/SpecLowering.hpp"

#include <climits>
#include <iterator>
#include <limits>
#include <sstream>

#include "porlab/core/Conflict.hpp"
#include "porlab/core/Errors.hpp"
#include "porlab/program/CodeProgramApi.hpp"

namespace porlab {

namespace {

using namespace code;  // NOLINT(google-build-using-namespace)

// Where an instruction of the spec is, for error messages: file:line, thread and instruction.
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

// One thread's code: builder instruction i becomes the run of Code instructions from start[i].
class ThreadLowering {
  public:
    ThreadLowering(CModule& m, const ThreadSpec& th, std::int64_t global)
        : m_(m), th_(th), global_(global) {
        const auto R = static_cast<std::int32_t>(th.regInit.size());
        // Registers no instruction writes are constants (operands ~k); the others are slots.
        written_.assign(static_cast<std::size_t>(R), 0);
        for (const Instr& in : th.code) {
            switch (in.op) {
                case Opcode::Const:
                case Opcode::Move:
                case Opcode::Bin:
                case Opcode::Un:
                case Opcode::Load:
                case Opcode::FetchOp:
                case Opcode::Xchg:
                case Opcode::Await:
                case Opcode::XchgAwait:
                    mark(in.a);
                    break;
                case Opcode::Cas:
                    mark(in.a);
                    mark(in.e);
                    break;
                case Opcode::LoopCheck:
                    mark(in.b);
                    break;
                default:
                    break;
            }
        }
        tmp_ = R;  // scratch slots: tmp_, tmp_ + 1 (a compare-and-swap's pair), tmp_ + 2, + 3
        f_.name = th.name;
        f_.defined = true;
        // (the scratch slots are dead wherever a state is compared: at loop headers and ends)
        f_.numSlots = R + 4;
        f_.stateSlots = R;
    }

    [[nodiscard]] const std::vector<std::uint8_t>& written() const { return written_; }

    CFunction lower() {
        // Pass 1 sizes every builder instruction's run (jump targets), pass 2 emits.
        for (int pass = 0; pass < 2; ++pass) {
            f_.code.clear();
            f_.args.clear();
            for (std::size_t r = 0; r < th_.regInit.size(); ++r)
                if (written_[r] && th_.regInit[r] != 0) {
                    CInstr& c = emit(COp::Mov, {});
                    c.a = static_cast<std::int32_t>(r);
                    c.b = konst(th_.regInit[r]);
                }
            start_.resize(th_.code.size());
            for (std::size_t i = 0; i < th_.code.size(); ++i) {
                if (pass == 0) start_[i] = static_cast<std::int32_t>(f_.code.size());
                lowerInstr(th_.code[i]);
            }
        }
        // Where local execution goes on: the next instruction, or the target of a jump there.
        for (std::size_t k = 0; k < f_.code.size(); ++k) {
            CInstr& in = f_.code[k];
            in.next = static_cast<std::int32_t>(k + 1);
            if (k + 1 < f_.code.size() && f_.code[k + 1].op == COp::Jump)
                in.next = f_.code[k + 1].a;
        }
        return std::move(f_);
    }

  private:
    void mark(std::int32_t r) {
        if (r >= 0) written_[static_cast<std::size_t>(r)] = 1;
    }
    std::int32_t konst(Value v) {
        for (std::size_t k = 1; k < m_.constants.size(); ++k)  // (constant 0: lowerSpec)
            if (m_.constants[k] == v) return ~static_cast<std::int32_t>(k);
        m_.constants.push_back(v);
        return ~static_cast<std::int32_t>(m_.constants.size() - 1);
    }
    // The operand of builder register r: its slot, or its constant value if nothing writes it.
    std::int32_t op(std::int32_t r) {
        return written_[static_cast<std::size_t>(r)]
                   ? r
                   : konst(th_.regInit[static_cast<std::size_t>(r)]);
    }
    CInstr& emit(COp o, SourcePos pos, std::uint8_t sub = 0) {
        f_.code.emplace_back();
        CInstr& in = f_.code.back();
        in.op = o;
        in.sub = sub;
        in.w = 64;
        in.pos = pos;
        return in;
    }
    [[nodiscard]] std::int32_t here() const { return static_cast<std::int32_t>(f_.code.size()); }
    CInstr& builtin(Builtin b, SourcePos pos, std::initializer_list<std::int32_t> args,
                    std::int32_t dst = -1) {
        CInstr& in = emit(COp::Builtin, pos, static_cast<std::uint8_t>(b));
        in.a = dst;
        in.b = static_cast<std::int32_t>(f_.args.size());
        in.c = static_cast<std::int32_t>(args.size());
        f_.args.insert(f_.args.end(), args.begin(), args.end());
        return in;
    }
    // if (x pred y) go on, else stop at a built-in `b` (Fault, AssertFail) with `imm`.
    void check(std::int32_t x, CPred pred, std::int32_t y, Builtin b, std::int64_t imm,
               SourcePos pos) {
        const std::int32_t k = here();
        CInstr& c = emit(COp::CmpBr, pos, static_cast<std::uint8_t>(pred));
        c.a = tmp_ + 2;
        c.b = x;
        c.c = y;
        c.d = k + 2;    // holds: go on
        c.imm = k + 1;  // fails
        builtin(b, pos, {}).imm = imm;
    }
    void check(std::int32_t x, CPred pred, std::int32_t y, FaultKind f, SourcePos pos) {
        check(x, pred, y, Builtin::Fault, static_cast<std::int64_t>(f), pos);
    }
    void cmp(std::int32_t dst, CPred pred, std::int32_t x, std::int32_t y, SourcePos pos) {
        CInstr& c = emit(COp::Cmp, pos, static_cast<std::uint8_t>(pred));
        c.a = dst;
        c.b = x;
        c.c = y;
    }
    void bin(std::int32_t dst, CBin o, std::int32_t x, std::int32_t y, SourcePos pos) {
        CInstr& c = emit(COp::Bin, pos, static_cast<std::uint8_t>(o));
        c.a = dst;
        c.b = x;
        c.c = y;
    }
    // Conditional jump to builder instruction `target` when x pred 0.
    void branch(std::int32_t x, CPred pred, std::int32_t target, SourcePos pos) {
        CInstr& c = emit(COp::CmpBr, pos, static_cast<std::uint8_t>(pred));
        c.a = tmp_ + 2;
        c.b = x;
        c.c = konst(0);
        c.d = start_[static_cast<std::size_t>(target)];
        c.imm = here();
    }
    // The address of the instruction's location (index checked against the array's length).
    std::int32_t address(const Instr& in) {
        const Value base =
            static_cast<Value>(m_.pointer(global_, static_cast<std::uint64_t>(in.loc) * 8));
        if (in.idx < 0) return konst(base);
        check(op(in.idx), CPred::Ult, konst(in.len), FaultKind::IndexOutOfBounds, in.pos);
        CInstr& p = emit(COp::PtrAdd, in.pos);
        p.a = tmp_ + 3;
        p.b = konst(base);
        p.c = op(in.idx);
        p.d = 64;
        p.imm2 = 8;
        return tmp_ + 3;
    }

    void lowerInstr(const Instr& in) {
        const SourcePos pos = in.pos;
        switch (in.op) {
            case Opcode::Const: {
                CInstr& c = emit(COp::Mov, pos);
                c.a = in.a;
                c.b = konst(in.imm);
                break;
            }
            case Opcode::Move: {
                CInstr& c = emit(COp::Mov, pos);
                c.a = in.a;
                c.b = op(in.b);
                break;
            }
            case Opcode::Bin:
                lowerBin(in);
                break;
            case Opcode::Un:
                switch (static_cast<UnOp>(in.sub)) {
                    case UnOp::Neg:
                        bin(in.a, CBin::Sub, konst(0), op(in.b), pos);
                        break;
                    case UnOp::Not:
                        cmp(in.a, CPred::Eq, op(in.b), konst(0), pos);
                        break;
                    case UnOp::BitNot:
                        bin(in.a, CBin::Xor, op(in.b), konst(-1), pos);
                        break;
                }
                break;
            case Opcode::Jump:
                emit(COp::Jump, pos).a = start_[static_cast<std::size_t>(in.a)];
                break;
            case Opcode::JumpIfZero:
                branch(op(in.b), CPred::Eq, in.a, pos);
                break;
            case Opcode::JumpIfNonZero:
                branch(op(in.b), CPred::Ne, in.a, pos);
                break;
            case Opcode::Assume:
                builtin(Builtin::Assume, pos, {op(in.b)});
                break;
            case Opcode::Assert:  // (imm 0: no text, Event::aux -1)
                check(op(in.b), CPred::Ne, konst(0), Builtin::AssertFail, 0, pos);
                break;
            case Opcode::LoopCheck: {
                const std::int32_t k = here();
                CInstr& c = emit(COp::CmpBr, pos, static_cast<std::uint8_t>(CPred::Slt));
                c.a = tmp_ + 2;
                c.b = in.b;
                c.c = konst(in.imm);
                c.d = k + 2;    // below the bound: count the visit
                c.imm = k + 1;  // blocked
                builtin(Builtin::Block, pos, {}).imm = static_cast<int>(BlockCause::LoopBound);
                bin(in.b, CBin::Add, in.b, konst(1), pos);
                break;
            }
            case Opcode::Load: {
                const std::int32_t p = address(in);
                CInstr& c = emit(COp::Load, pos);
                c.a = in.a;
                c.b = p;
                c.imm = 8;
                break;
            }
            case Opcode::Store: {
                const std::int32_t p = address(in);
                CInstr& c = emit(COp::Store, pos);
                c.b = p;
                c.c = op(in.c);
                c.imm = 8;
                break;
            }
            case Opcode::FetchOp:
            case Opcode::Xchg: {
                const std::int32_t p = address(in);
                std::uint8_t sub = static_cast<std::uint8_t>(CRmw::Xchg);
                if (in.op == Opcode::FetchOp)
                    for (std::size_t k = 1; k < std::size(kRmwOfCRmw); ++k)
                        if (kRmwOfCRmw[k] == static_cast<RmwOp>(in.sub))
                            sub = static_cast<std::uint8_t>(k);
                CInstr& c = emit(COp::Rmw, pos, sub);
                c.a = in.a;
                c.b = p;
                c.c = op(in.c);
                c.imm = 8;
                c.resultUsed = in.op == Opcode::Xchg || in.resultUsed;
                break;
            }
            case Opcode::Cas: {
                const std::int32_t p = address(in);
                CInstr& c = emit(COp::CmpXchg, pos);
                c.a = tmp_;
                c.b = p;
                c.c = op(in.c);
                c.d = op(in.d);
                c.imm = 8;
                CInstr& r = emit(COp::Mov, pos);
                r.a = in.a;
                r.b = tmp_;
                if (in.e >= 0) {
                    CInstr& ok = emit(COp::Mov, pos);
                    ok.a = in.e;
                    ok.b = tmp_ + 1;
                }
                break;
            }
            case Opcode::Lock:
            case Opcode::Unlock: {
                const std::int32_t p = address(in);
                builtin(in.op == Opcode::Lock ? Builtin::MutexLock : Builtin::MutexUnlock, pos,
                        {p});
                break;
            }
            case Opcode::Spawn:
            case Opcode::Join:
                builtin(in.op == Opcode::Spawn ? Builtin::SpawnThread : Builtin::JoinThread, pos,
                        {})
                    .imm = in.a;
                break;
            case Opcode::Await: {
                const std::int32_t p = address(in);
                builtin(Builtin::LoadAwait, pos, {p, konst(in.sub), op(in.c)}, in.a);
                break;
            }
            case Opcode::XchgAwait: {
                const std::int32_t p = address(in);
                builtin(Builtin::XchgAwait, pos, {p, op(in.d), konst(in.sub), op(in.c)}, in.a);
                break;
            }
            case Opcode::End:
                builtin(Builtin::FinishThread, pos, {});
                break;
        }
    }

    void lowerBin(const Instr& in) {
        const SourcePos pos = in.pos;
        const std::int32_t x = op(in.b), y = op(in.c);
        switch (static_cast<BinOp>(in.sub)) {
            case BinOp::Add:
                return bin(in.a, CBin::Add, x, y, pos);
            case BinOp::Sub:
                return bin(in.a, CBin::Sub, x, y, pos);
            case BinOp::Mul:
                return bin(in.a, CBin::Mul, x, y, pos);
            case BinOp::And:
                return bin(in.a, CBin::And, x, y, pos);
            case BinOp::Or:
                return bin(in.a, CBin::Or, x, y, pos);
            case BinOp::Xor:
                return bin(in.a, CBin::Xor, x, y, pos);
            case BinOp::Div:
            case BinOp::Mod: {
                // Division by zero faults in the interpreter; builder programs also fault (as a
                // division by zero) on the one quotient that overflows, INT64_MIN / -1.
                const std::int32_t k = here();
                CInstr& c = emit(COp::CmpBr, pos, static_cast<std::uint8_t>(CPred::Eq));
                c.a = tmp_ + 2;
                c.b = y;
                c.c = konst(-1);
                c.d = k + 1;    // y == -1: check x
                c.imm = k + 3;  // else divide
                check(x, CPred::Ne, konst(std::numeric_limits<Value>::min()),
                      FaultKind::DivisionByZero, pos);
                return bin(in.a, static_cast<BinOp>(in.sub) == BinOp::Div ? CBin::SDiv : CBin::SRem,
                           x, y, pos);
            }
            case BinOp::Shl:
            case BinOp::Shr:
                // Python's shifts: a negative count faults; a count past 63 shifts every bit out
                // (the interpreter's 64-bit shifts do that).
                check(y, CPred::Sge, konst(0), FaultKind::NegativeShift, pos);
                return bin(in.a, static_cast<BinOp>(in.sub) == BinOp::Shl ? CBin::Shl : CBin::AShr,
                           x, y, pos);
            case BinOp::Eq:
                return cmp(in.a, CPred::Eq, x, y, pos);
            case BinOp::Ne:
                return cmp(in.a, CPred::Ne, x, y, pos);
            case BinOp::Lt:
                return cmp(in.a, CPred::Slt, x, y, pos);
            case BinOp::Le:
                return cmp(in.a, CPred::Sle, x, y, pos);
            case BinOp::Gt:
                return cmp(in.a, CPred::Sgt, x, y, pos);
            case BinOp::Ge:
                return cmp(in.a, CPred::Sge, x, y, pos);
            case BinOp::LAnd:
            case BinOp::LOr:
                cmp(tmp_, CPred::Ne, x, konst(0), pos);
                cmp(tmp_ + 1, CPred::Ne, y, konst(0), pos);
                return bin(in.a, static_cast<BinOp>(in.sub) == BinOp::LAnd ? CBin::And : CBin::Or,
                           tmp_, tmp_ + 1, pos);
            case BinOp::Min:
            case BinOp::Max:
                builtin(static_cast<BinOp>(in.sub) == BinOp::Min ? Builtin::SMin : Builtin::SMax,
                        pos, {x, y}, in.a);
                return;
        }
    }

    CModule& m_;
    const ThreadSpec& th_;
    std::int64_t global_;
    std::vector<std::uint8_t> written_;  // (not vector<bool>: GCC -Wnull-dereference)
    std::int32_t tmp_ = 0;
    std::vector<std::int32_t> start_;
    CFunction f_;
};

}  // namespace

void validateSpec(const ProgramSpec& s) {
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

CModule lowerSpec(const ProgramSpec& spec) {
    CModule m;
    m.files = spec.files;
    // Constant k is operand ~k and operand -1 means "none": constant 0 is a placeholder no
    // operand refers to (as in the C front end's lowering).
    m.constants.push_back(0);
    const std::size_t T = spec.threads.size();
    // One global holds every location of the spec, location l at byte 8 l.
    CGlobal g;
    g.name = g.displayName = spec.name;
    g.size = static_cast<std::uint32_t>(8 * spec.locNames.size());
    g.bytes.assign(g.size, 0);
    for (std::size_t l = 0; l < spec.locNames.size(); ++l) {
        CGlobalCell c;
        c.offset = static_cast<std::uint32_t>(8 * l);
        c.size = 8;
        c.mutex = spec.locIsMutex[l];
        c.init = spec.locInit[l];
        c.name = spec.locNames[l];
        g.cells.push_back(c);
    }
    m.globals.push_back(std::move(g));
    m.functions.resize(T);  // (object ids of functions come before the global's)
    m.staticBase.assign(T + 2, 0);
    const std::int64_t global = m.globalObject(0);
    for (std::size_t t = 0; t < T; ++t) {
        ThreadLowering lowering(m, spec.threads[t], global);
        m.functions[t] = lowering.lower();
        m.regInit.push_back(spec.threads[t].regInit);
        m.regWritten.push_back(lowering.written());
        m.threadFunctions.push_back(static_cast<std::int32_t>(t));
        m.autostart.push_back(spec.threads[t].autostart);
    }
    m.mainFunction = 0;
    return m;
}

std::shared_ptr<Program> makeSpecProgram(const ProgramSpec& spec) {
    validateSpec(spec);
    CodeOptions opts;
    opts.maxThreads = static_cast<int>(spec.threads.size());
    opts.maxDynamicLocations = 0;
    opts.deadlockIsError = false;  // (the builder's default, ProgramInfo's)
    opts.maxExecutionEvents = std::numeric_limits<std::int64_t>::max() / 2;
    opts.callStacks = false;  // (no calls: its traces have no call stacks, no function column)
    return makeCodeProgram(lowerSpec(spec), opts, spec.name);
}

}  // namespace porlab
