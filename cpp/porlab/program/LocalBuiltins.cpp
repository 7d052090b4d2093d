// SPDX-License-Identifier: MIT
// The runtime library's local part: built-in functions a thread runs without a visible operation
// (allocation, string and bit functions, assume, assert, nondet choices, SAVER's bookkeeping),
// and the entry to those that have one (visibleBuiltin, Builtins.cpp). Called by the local
// interpreter (LocalSteps.cpp) at every Builtin instruction.
#include <bit>

#include "porlab/program/CodeExecution.hpp"

namespace porlab::code {

// True when the thread stops here (a visible operation is pending, or it faulted, blocked or
// ended); false when it goes on at the instruction's `next`.
bool CodeExecution::localBuiltin(ThreadId t, const CInstr& in) {
    Thread& th = threads_[static_cast<std::size_t>(t)];
    const auto b = static_cast<Builtin>(in.sub);
    auto A = [&](int k) { return arg(th, in, k); };
    auto setResult = [&](Value v) {
        if (in.a >= 0) th.regs[static_cast<std::size_t>(th.frames.back().regBase + in.a)] = v;
    };
    // Is u the start of a live heap block (what free and realloc accept)?
    auto liveHeapBlock = [&](std::uint64_t u) {
        const auto obj = static_cast<std::int64_t>(u >> m_.objShift);
        const auto i = static_cast<std::size_t>(obj);
        return (u & m_.localTag) == 0 && obj >= m_.firstDynamicObject() && i < objs_.size() &&
               objs_[i].status != 0 && objs_[i].heap && offsetIn(u, obj) == 0;
    };
    switch (b) {
        case Builtin::Malloc:
        case Builtin::Calloc:
        case Builtin::AlignedAlloc: {
            const unsigned sw = 8 * m_.ptrBytes;  // size_t arguments
            std::uint64_t size = mask(A(b == Builtin::AlignedAlloc ? 1 : 0), sw), align = 16;
            if (b == Builtin::Calloc) {
                const std::uint64_t k = mask(A(1), sw);
                size = k != 0 && size > ~std::uint64_t{0} / k ? ~std::uint64_t{0} : size * k;
            }
            if (b == Builtin::AlignedAlloc) align = std::max<std::uint64_t>(mask(A(0), sw), 1);
            setResult(allocHeap(t, size, b == Builtin::Calloc ? kCallocKind : kMallocKind, align,
                                in.pos));
            break;
        }
        case Builtin::BlockSize: {  // realloc: the size of p's block (0 for NULL)
            const auto u = static_cast<std::uint64_t>(A(0));
            if (u == 0) {
                setResult(0);
                break;
            }
            if (!liveHeapBlock(u)) {
                fault(t, FaultKind::InvalidFree, in.pos);
                return true;
            }
            const auto i = static_cast<std::size_t>(u >> m_.objShift);
            // (a freed block: the copy and the free that follow find it, by the values
            // their events read)
            setResult(objs_[i].size);
            break;
        }
        case Builtin::TlsAddress: {  // a thread-local whose address escapes: a copy per
                                     // thread
            const auto gi = static_cast<std::size_t>(in.imm);
            const CGlobal& g = m_.globals[gi];
            const auto ref =
                p_.dynamicObject(t, -1, g.size, tlsKind(static_cast<std::int64_t>(gi)), in.pos);
            ensureObj(ref.id);
            auto& o = objs_[static_cast<std::size_t>(ref.id)];
            if (o.status == 0) o = {g.size, 1, 0, 1, static_cast<std::uint32_t>(ref.base)};
            setResult(static_cast<Value>(m_.pointer(ref.id, ref.base)));
            break;
        }
        case Builtin::ThreadEqual:
            setResult(A(0) == A(1));
            break;
        case Builtin::MtxInit:
            if (A(1) & 1)  // mtx_recursive, from a value the lowering could not see
                throw UnsupportedError(p_.where(in.pos) +
                                       "a recursive mutex (mtx_recursive) is not supported");
            if (visibleBuiltin(t, in)) return true;  // the init of a destroyed mutex
            setResult(0);
            break;
        case Builtin::BarrierInit:
            if ((A(2) & 0xffffffff) == 0) {
                setResult(22);  // EINVAL: a barrier of no thread
                break;
            }
            if (visibleBuiltin(t, in)) return true;
            break;
        case Builtin::Strlen:
        case Builtin::Strcmp:
        case Builtin::Memcmp: {
            // Read-only string functions over private or constant memory (byte by byte;
            // a string in shared memory would need an event per location).
            auto byteAt = [&](Value p, std::uint64_t k, std::uint8_t& out) {
                const Addr ad =
                    resolve(th, static_cast<Value>(static_cast<std::uint64_t>(p) + k), 1);
                if (ad.where == Where::Shared)
                    throw UnsupportedError(p_.where(in.pos) + std::string(kBuiltinNames[in.sub]) +
                                           " of memory other threads can reach is not supported");
                if (ad.where == Where::Fault) {
                    fault(t, ad.fault, in.pos);
                    return false;
                }
                out = static_cast<std::uint8_t>(
                    ad.where == Where::Local ? th.local[ad.off] : loadConst(ad.obj, ad.off, 1, 64));
                return true;
            };
            const std::uint64_t n =
                b == Builtin::Memcmp ? mask(A(2), 8 * m_.ptrBytes) : ~std::uint64_t{0};
            Value r = 0;
            for (std::uint64_t k = 0; k < n; ++k) {
                std::uint8_t x = 0, y = 0;
                if (!byteAt(A(0), k, x)) return true;
                if (b == Builtin::Strlen) {
                    if (x == 0) break;
                    r = static_cast<Value>(k + 1);
                    continue;
                }
                if (!byteAt(A(1), k, y)) return true;
                if (x != y) {
                    r = x < y ? -1 : 1;
                    break;
                }
                if (b == Builtin::Strcmp && x == 0) break;
            }
            setResult(norm(r, in.w));
            break;
        }
        case Builtin::Popcount:
            setResult(std::popcount(mask(A(0), in.w)));
            break;
        case Builtin::Clz: {
            const std::uint64_t x = mask(A(0), in.w);
            setResult(x == 0 ? in.w : std::countl_zero(x) - (64 - in.w));
            break;
        }
        case Builtin::Ctz: {
            const std::uint64_t x = mask(A(0), in.w);
            setResult(x == 0 ? in.w : std::countr_zero(x));
            break;
        }
        case Builtin::Bswap: {
            const std::uint64_t x = mask(A(0), in.w);
            std::uint64_t y = 0;
            for (unsigned k = 0; k < in.w / 8; ++k) y = (y << 8) | ((x >> (8 * k)) & 0xff);
            setResult(norm(static_cast<Value>(y), in.w));
            break;
        }
        case Builtin::Free: {
            const auto u = static_cast<std::uint64_t>(A(0));
            if (u == 0) break;
            const auto obj = static_cast<std::int64_t>(u >> m_.objShift);
            if (!liveHeapBlock(u)) {
                fault(t, FaultKind::InvalidFree, in.pos);
                return true;
            }
            // Visible: a write of every location of the block, in offset order
            // (th.phase: the next offset), so that the free conflicts with every access
            // to the block and with another free of it; the block is freed at the last
            // write. A block without locations gets one at offset 0 (taking the size of
            // a later access). Writing a location a free already wrote is a double
            // free; accessing it, a use after free.
            std::uint32_t off = 0;
            LocId l = kNoLoc;
            if (!p_.nextCell(obj, static_cast<std::uint32_t>(th.phase), off, l)) {
                l = cellOf(obj, 0, 0, false, in.pos);
                off = 0;
            }
            l = known(l);
            setPend(th, t, deadKind(l), l, in.pos);
            th.pend.wval = th.pend.kind == EventKind::Exchange ? kDead : 0;
            th.pend.aux = kFreeAux;  // shown as a free, not an exchange
            th.pend.mode = AccessMode::Internal;
            th.pendObj = obj;
            th.aux = off;
            return true;
        }
        case Builtin::Memset:
        case Builtin::Memcpy: {
            const auto n = static_cast<std::uint64_t>(A(2));
            if (n == 0) {
                setResult(A(0));
                break;
            }
            const Addr d = resolve(th, A(0), n);
            const Addr s =
                b == Builtin::Memcpy ? resolve(th, A(1), n) : Addr{Where::Local, 0, 0, {}};
            if (d.where == Where::Fault || d.where == Where::Const || s.where == Where::Fault) {
                fault(t,
                      d.where == Where::Fault   ? d.fault
                      : d.where == Where::Const ? FaultKind::InvalidPointer
                                                : s.fault,
                      in.pos);
                return true;
            }
            if (d.where == Where::Shared || s.where == Where::Shared) {  // one event per location
                if (visibleBuiltin(t, in)) return true;
                break;
            }
            if (b == Builtin::Memset) {
                tmpBytes_.assign(n, static_cast<std::uint8_t>(A(1) & 0xff));
                writeLocalBytes(th, d.off, tmpBytes_.data(), n);
            } else if (s.where == Where::Local) {
                tmpBytes_.assign(th.local.begin() + s.off,
                                 th.local.begin() + s.off + static_cast<std::ptrdiff_t>(n));
                writeLocalBytes(th, d.off, tmpBytes_.data(), n);
            } else {
                const CGlobal& g = m_.globals[static_cast<std::size_t>(
                    s.obj - 1 - static_cast<std::int64_t>(m_.functions.size()))];
                writeLocalBytes(th, d.off, g.bytes.data() + s.off, n);
            }
            setResult(A(0));
            break;
        }
        case Builtin::ThreadSelf:
            setResult(t);
            break;
        case Builtin::MutexInit:
        case Builtin::SpinInit:
        case Builtin::RwInit:
            if (visibleBuiltin(t, in)) return true;  // the init of a destroyed mutex
            break;
        case Builtin::CondInit:
        case Builtin::CondDestroy:
        case Builtin::Nop:
            setResult(0);
            break;
        case Builtin::Nondet:
            // --nondet-domain: the value of choice point (t, n-th call), set by the
            // driver (exploreNondet) for this run; LO for points it has not assigned
            // yet.
            setResult(p_.opts().nondetDomain ? norm(p_.choice(t, th.nNondet++, in.pos), in.w) : 0);
            break;
        case Builtin::AssertFail:
        case Builtin::ReachError:  // aux: the assertion's text (CModule::messages)
            mark(t, EventKind::AssertFail, ThreadStatus::Failed,
                 static_cast<std::int32_t>(in.imm) - 1, in.pos);
            return true;
        case Builtin::Abort:
        case Builtin::Exit:
        case Builtin::ThreadExit: {
            // Every frame ends here: its escaped variables die with the events a return
            // gives them (frameEnd; step() comes back here after each).
            if (frameEnd(t, in, true)) return true;
            th.exitVal = b == Builtin::ThreadExit ? A(0) : 0;
            const Value ev = th.exitVal;
            const std::uint32_t endCtx = ctxOf(th);  // the call of exit ends the thread
            while (!th.frames.empty()) doReturn(t, 0, false);
            th.exitVal = ev;
            mark(t, EventKind::ThreadEnd, ThreadStatus::Finished, -1, in.pos, -1, endCtx);
            return true;
        }
        case Builtin::Assume:
            if (A(0) == 0) {
                mark(t, EventKind::AssumeBlock, ThreadStatus::Blocked,
                     static_cast<int>(BlockCause::Assume), in.pos);
                return true;
            }
            break;
        case Builtin::IterationBegin:
            setResult(th.effects);
            break;
        case Builtin::IterationStart:
            setResult(th.evCount);
            break;
        case Builtin::PurityCheck:
            // SAVER's dynamic purity check at a potentially effect-free backedge: an
            // iteration without effects changed nothing another iteration could not
            // redo.
            if (A(0) == th.effects) {
                mark(t, EventKind::AssumeBlock, ThreadStatus::Blocked,
                     static_cast<int>(BlockCause::PureIteration), in.pos, in.c > 1 ? A(1) : -1);
                return true;
            }
            break;
        case Builtin::SpinAssume:
            // An assume a loop reduction inserted (spin-assume, PLP): told apart from
            // the program's own __VERIFIER_assume by its cause.
            if (A(0) == 0) {
                mark(t, EventKind::AssumeBlock, ThreadStatus::Blocked,
                     static_cast<int>(BlockCause::SpinAssume), in.pos, in.c > 1 ? A(1) : -1);
                return true;
            }
            break;
        case Builtin::SMax:
            setResult(std::max(A(0), A(1)));
            break;
        case Builtin::SMin:
            setResult(std::min(A(0), A(1)));
            break;
        case Builtin::UMax:
            setResult(mask(A(0), in.w) >= mask(A(1), in.w) ? A(0) : A(1));
            break;
        case Builtin::UMin:
            setResult(mask(A(0), in.w) <= mask(A(1), in.w) ? A(0) : A(1));
            break;
        case Builtin::Abs:
            setResult(norm(A(0) < 0 ? -A(0) : A(0), in.w));
            break;
        // Builder programs (SpecLowering.cpp): their checks' outcomes and their threads' end.
        case Builtin::Fault:
            fault(t, static_cast<FaultKind>(in.imm), in.pos);
            return true;
        case Builtin::Block:
            mark(t, EventKind::AssumeBlock, ThreadStatus::Blocked, static_cast<int>(in.imm),
                 in.pos);
            return true;
        case Builtin::FinishThread:
            mark(t, EventKind::ThreadEnd, ThreadStatus::Finished, -1, in.pos);
            return true;
        default:
            if (visibleBuiltin(t, in)) return true;
            break;
    }
    return false;
}

}  // namespace porlab::code
