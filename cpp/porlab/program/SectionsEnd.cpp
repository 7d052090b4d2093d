// SPDX-License-Identifier: MIT
// Does every critical section of a program end (ProgramInfo::sectionsEnd)? A static,
// conservative pass over the decoded code: from every lock, every path reaches the unlock of the
// same mutex through instructions that cannot block, fault, loop or end the thread. Then no
// thread holds a mutex when it blocks, stops or ends, so in a maximal execution every mutex is
// free and no lock waits for good: lapor need not try leaving locks blocked (MutexLocks.hpp).
// Anything the pass does not understand (a mutex reached through a pointer, a trylock, a call
// through a pointer, a loop, an access that may fault) makes the answer "no".
#include <cstdint>
#include <vector>

#include "porlab/program/Code.hpp"

namespace porlab::code {

namespace {

class SectionScan {
  public:
    explicit SectionScan(const CModule& m) : m_(m), straight_(m.functions.size(), kUnknown) {}

    bool run() {
        for (std::size_t f = 0; f < m_.functions.size(); ++f) {
            const CFunction& fn = m_.functions[f];
            if (fn.atomic && !straight(f)) return false;  // (its body is a critical section)
            for (std::size_t pc = 0; pc < fn.code.size(); ++pc) {
                const CInstr& in = fn.code[pc];
                if (in.op != COp::Builtin) continue;
                switch (static_cast<Builtin>(in.sub)) {
                    case Builtin::MutexLock:  // (a mutex known by name: its unlock is too)
                        if (in.loc < 0 || !sectionEnds(fn, pc, in)) return false;
                        break;
                    case Builtin::AtomicBegin:
                        if (!sectionEnds(fn, pc, in)) return false;
                        break;
                    case Builtin::MutexTryLock:  // (sections this pass does not follow)
                    case Builtin::MtxTryLock:
                    case Builtin::SpinLock:
                    case Builtin::SpinTryLock:
                    case Builtin::RwRdLock:
                    case Builtin::RwWrLock:
                    case Builtin::RwTryRdLock:
                    case Builtin::RwTryWrLock:
                    case Builtin::CondWait:
                        return false;
                    default:
                        break;
                }
            }
        }
        return true;
    }

  private:
    static constexpr std::uint8_t kUnknown = 0, kVisiting = 1, kYes = 2, kNo = 3;

    [[nodiscard]] const CFunction* callee(const CInstr& in) const {
        if (in.imm < 0 || static_cast<std::size_t>(in.imm) >= m_.functions.size()) return nullptr;
        const CFunction& c = m_.functions[static_cast<std::size_t>(in.imm)];
        return c.defined ? &c : nullptr;
    }

    // Can instruction `in` run inside a critical section without blocking, faulting or ending
    // its thread (control flow and calls aside)?
    [[nodiscard]] bool harmless(const CInstr& in) const {
        switch (in.op) {
            case COp::Mov:
            case COp::Cmp:
            case COp::Select:
            case COp::Cast:
            case COp::PtrAdd:
            case COp::CastPtrAdd:
            case COp::ParCopy:
            case COp::LoopEnter:
                return true;
            case COp::Bin:
                switch (static_cast<CBin>(in.sub)) {
                    case CBin::UDiv:
                    case CBin::URem:
                    case CBin::SDiv:
                    case CBin::SRem:
                        return nonZeroConstant(in.c, in.w);
                    default:
                        return true;
                }
            case COp::Load:
            case COp::Store:
            case COp::Rmw:
            case COp::CmpXchg:
                return in.loc >= 0;  // a cell of a global (a pointer may fault)
            case COp::Builtin:
                switch (static_cast<Builtin>(in.sub)) {
                    case Builtin::Nondet:
                    case Builtin::Popcount:
                    case Builtin::Ctz:
                    case Builtin::Bswap:
                    case Builtin::SMax:
                    case Builtin::SMin:
                    case Builtin::UMax:
                    case Builtin::UMin:
                    case Builtin::Abs:
                    case Builtin::IterationStart:
                    case Builtin::IterationBegin:
                    case Builtin::Nop:
                    case Builtin::ThreadSelf:
                    case Builtin::ThreadEqual:
                    case Builtin::SpawnThread:
                        return true;
                    default:
                        return false;
                }
            default:
                return false;
        }
    }

    [[nodiscard]] bool nonZeroConstant(std::int32_t operand, unsigned w) const {
        if (operand >= 0) return false;
        const auto v = static_cast<std::uint64_t>(m_.constants[static_cast<std::size_t>(~operand)]);
        return w >= 64 ? v != 0 : (v & ((std::uint64_t{1} << w) - 1)) != 0;
    }

    // The instructions local execution may go on at after `in` (at pc); false: it may leave the
    // function's straight line (a return, a jump back, anything not understood).
    static bool successors(const CFunction& f, std::size_t pc, const CInstr& in,
                           std::vector<std::int32_t>& out) {
        out.clear();
        switch (in.op) {
            case COp::Jump:
                out.push_back(in.a);
                break;
            case COp::Branch:
                out.push_back(in.a);
                out.push_back(in.c);
                break;
            case COp::CmpBr:
                out.push_back(in.d);
                out.push_back(static_cast<std::int32_t>(in.imm));
                break;
            case COp::Switch:
                out.push_back(in.a);
                for (std::int64_t k = in.imm; k < in.imm + in.c; ++k)
                    out.push_back(f.cases[static_cast<std::size_t>(k)].second);
                break;
            default:
                out.push_back(in.next >= 0 ? in.next : static_cast<std::int32_t>(pc + 1));
                break;
        }
        for (const std::int32_t s : out)
            if (s < 0 || static_cast<std::size_t>(s) >= f.code.size()) return false;
        return true;
    }

    // Does every path from `lock` (at pc of f) reach the unlock that ends its section, through
    // harmless instructions and straight calls, without a cycle?
    bool sectionEnds(const CFunction& f, std::size_t pc, const CInstr& lock) {
        const bool atomic = static_cast<Builtin>(lock.sub) == Builtin::AtomicBegin;
        std::vector<std::uint8_t> state(f.code.size(), kUnknown);
        std::vector<std::int32_t> succ;
        // Depth-first, iteratively: (pc, index of the next successor to follow).
        std::vector<std::pair<std::int32_t, std::size_t>> stack;
        std::vector<std::vector<std::int32_t>> succs(f.code.size());
        if (!successors(f, pc, lock, succ)) return false;
        for (const std::int32_t s : succ) {
            stack.emplace_back(s, 0);
            while (!stack.empty()) {
                auto& [at, next] = stack.back();
                const auto i = static_cast<std::size_t>(at);
                if (next == 0) {
                    if (state[i] == kVisiting) return false;  // a cycle
                    if (state[i] == kYes) {
                        stack.pop_back();
                        continue;
                    }
                    const CInstr& in = f.code[i];
                    if (in.op == COp::Builtin && ends(in, lock, atomic)) {
                        state[i] = kYes;
                        stack.pop_back();
                        continue;
                    }
                    if (!allowed(in) || !successors(f, i, in, succs[i])) return false;
                    state[i] = kVisiting;
                }
                if (next < succs[i].size()) {
                    const std::int32_t s2 = succs[i][next++];
                    stack.emplace_back(s2, 0);
                } else {
                    state[i] = kYes;
                    stack.pop_back();
                }
            }
        }
        return true;
    }

    // Is `in` (a built-in) the unlock of lock's section? An unlock of another mutex may fault
    // (it is not held): not allowed, like a nested lock.
    static bool ends(const CInstr& in, const CInstr& lock, bool atomic) {
        const auto b = static_cast<Builtin>(in.sub);
        return atomic ? b == Builtin::AtomicEnd : b == Builtin::MutexUnlock && in.loc == lock.loc;
    }

    // May `in` run inside a section (no Ret: the section must end in its own function)?
    bool allowed(const CInstr& in) {
        switch (in.op) {
            case COp::Jump:
            case COp::Branch:
            case COp::CmpBr:
            case COp::Switch:
                return true;
            case COp::Call: {
                const CFunction* c = callee(in);
                return c && !c->atomic && straight(static_cast<std::size_t>(in.imm));
            }
            default:
                return harmless(in);
        }
    }

    // Does function f run from its entry to a return through harmless instructions and
    // straight calls only, without a cycle (no recursion)?
    bool straight(std::size_t f) {
        if (straight_[f] == kVisiting) return false;  // recursion
        if (straight_[f] != kUnknown) return straight_[f] == kYes;
        straight_[f] = kVisiting;
        const CFunction& fn = m_.functions[f];
        bool ok = fn.defined;
        std::vector<std::int32_t> succ;
        for (std::size_t pc = 0; pc < fn.code.size() && ok; ++pc) {
            const CInstr& in = fn.code[pc];
            if (in.op == COp::Ret) continue;
            ok = allowed(in) && successors(fn, pc, in, succ);
            for (const std::int32_t s : succ) ok = ok && static_cast<std::size_t>(s) > pc;
        }
        straight_[f] = ok ? kYes : kNo;
        return ok;
    }

    const CModule& m_;
    std::vector<std::uint8_t> straight_;
};

}  // namespace

bool criticalSectionsEnd(const CModule& m) { return SectionScan(m).run(); }

}  // namespace porlab::code
