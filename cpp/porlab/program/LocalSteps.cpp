// SPDX-License-Identifier: MIT
// Local interpretation: a thread's computation up to its next visible operation.
#include "porlab/program/CodeExecution.hpp"

namespace porlab::code {

void CodeExecution::doReturn(ThreadId t, Value rv, bool hasValue) {
    Thread& th = threads_[static_cast<std::size_t>(t)];
    const Frame fr = th.frames.back();
    while (!th.stackObjs.empty() &&
           th.stackObjs.back().first == static_cast<std::int64_t>(th.frames.size())) {
        objs_[static_cast<std::size_t>(th.stackObjs.back().second)].status = 3;
        th.stackObjs.pop_back();
    }
    th.frames.pop_back();
    th.local.resize(static_cast<std::size_t>(fr.localBase));
    th.regs.resize(static_cast<std::size_t>(fr.regBase));
    if (th.frames.empty()) {
        th.exitVal = hasValue ? rv : 0;
        publish(th.exitVal);  // pthread_join hands it to another thread
        return;
    }
    if (fr.retDst >= 0 && hasValue) reg(th, fr.retDst) = rv;
    th.frames.back().pc += 1;
}

// Shared memory access: resolve the location and make it the thread's pending event.
// `ad`: the address in.b resolves to (deadOk).
bool CodeExecution::stopAtAccess(ThreadId t, const CInstr& in, const Addr& ad) {
    if (ad.where != Where::Shared) return false;
    const LocId loc = cellOf(ad.obj, ad.off, static_cast<unsigned>(in.imm), false, in.pos);
    return stopAtLocation(t, in, loc, ad.obj);
}

// The access of `in` to location `loc` of object `obj` becomes the thread's pending event.
bool CodeExecution::stopAtLocation(ThreadId t, const CInstr& in, LocId loc, std::int64_t obj) {
    Thread& th = threads_[static_cast<std::size_t>(t)];
    Event& e = th.pend;
    switch (in.op) {
        case COp::Load:
            setPend(th, t, EventKind::Read, loc, in.pos);
            break;
        case COp::Store:
            setPend(th, t, EventKind::Write, loc, in.pos);
            e.wval = val(th, in.c);
            break;
        case COp::Rmw:
            if (static_cast<CRmw>(in.sub) == CRmw::Xchg) {
                setPend(th, t, EventKind::Exchange, loc, in.pos);
                e.wval = val(th, in.c);
            } else {
                setPend(th, t, EventKind::FetchAdd, loc, in.pos);
                e.rmwOp = kRmwOfCRmw[in.sub];
                e.operand = val(th, in.c);
                e.resultUsed = in.resultUsed;
                e.zne = (in.imm2 & kAccessMarked) != 0;
                // zne awaits: a canceling decrement whose thread's last write is the increment it
                // cancels (same location, opposite amount) waits for an observer of the increment;
                // aux is the increment's Event::index (-1: it runs as a plain fetch-and-add).
                if (e.zne && zneAwaits_ && th.lastWriteLoc == loc && th.lastWriteAmount != 0 &&
                    (e.rmwOp == RmwOp::Add || e.rmwOp == RmwOp::Sub) &&
                    th.lastWriteAmount == -(e.rmwOp == RmwOp::Add ? e.operand : -e.operand))
                    e.aux = th.lastWriteIndex;
            }
            break;
        case COp::CmpXchg:
            setPend(th, t, EventKind::CasFailure, loc, in.pos);
            e.operand = val(th, in.c);
            th.pendNew = val(th, in.d);
            break;
        default:
            return false;
    }
    th.pendW = in.w;
    e.pointer = (in.imm2 & kAccessPointer) != 0;
    if (in.plain) e.mode = AccessMode::Plain;
    if (obj != 0 && obj >= m_.firstDynamicObject()) th.pendObj = obj;
    return true;
}

void CodeExecution::runLocalGuarded(ThreadId t) {
    try {
        runLocalSteps(t);
    } catch (const LocationLimitReached&) {
        // Issue 15: a limit, not bad input. This execution is blocked; the run goes on (and is
        // incomplete: the warning says which option to raise).
        Thread& th = threads_[static_cast<std::size_t>(t)];
        const SourcePos pos = th.frames.empty() ? SourcePos{} : cur(th).pos;
        p_.warnLocationLimit(pos);
        mark(t, EventKind::AssumeBlock, ThreadStatus::Blocked,
             static_cast<int>(BlockCause::LocationLimit), pos);
    }
}

void CodeExecution::runLocalSteps(ThreadId t) {
    Thread& th = threads_[static_cast<std::size_t>(t)];
    std::int64_t budget = kLocalInstrLimit;
    const Value* consts = m_.constants.data();
    // The running frame in locals (the interpreter's hot state): reloaded whenever the frame
    // stack or the register file changes (call, return); fr->pc is kept equal to pc.
    Frame* fr = nullptr;
    const CFunction* fp = nullptr;
    const CInstr* code = nullptr;
    Value* R = nullptr;
    std::int32_t pc = 0;
    auto enter = [&] {
        fr = &th.frames.back();
        fp = &m_.functions[static_cast<std::size_t>(fr->fn)];
        code = fp->code.data();
        R = th.regs.data() + fr->regBase;
        pc = fr->pc;
    };
    enter();
    for (;;) {
        if (--budget < 0)
            throw InputError(p_.where(cur(th).pos) + "thread " + p_.info_->threadName(t) + " ran " +
                             std::to_string(kLocalInstrLimit) +
                             " instructions without a visible operation (an endless local loop? "
                             "bound loops with --unroll N)");
        const CFunction& f = *fp;
        const CInstr& in = code[pc];
        auto V = [&](std::int32_t x) { return x >= 0 ? R[x] : consts[~x]; };
        auto ptrAdd = [&](const CInstr& q) {
            std::uint64_t p =
                static_cast<std::uint64_t>(V(q.b)) + static_cast<std::uint64_t>(q.imm);
            if (q.c != -1)
                p += static_cast<std::uint64_t>(norm(V(q.c), static_cast<unsigned>(q.d))) *
                     static_cast<std::uint64_t>(q.imm2);
            return static_cast<Value>(p);
        };
        // Every op is one of the enumerators (the lowering emits nothing else): tells the
        // compiler so, which drops the range check of the dispatch jump.
        if (in.op > COp::Unreachable) __builtin_unreachable();
        switch (in.op) {
            case COp::Mov:
                R[in.a] = V(in.b);
                fr->pc = pc = in.next;
                continue;
            case COp::Bin: {
                const Value x = V(in.b), y = V(in.c);
                const unsigned w = in.w;
                const auto ux = static_cast<std::uint64_t>(x), uy = static_cast<std::uint64_t>(y);
                std::uint64_t r = 0;
                switch (static_cast<CBin>(in.sub)) {
                    case CBin::Add:
                        r = ux + uy;
                        break;
                    case CBin::Sub:
                        r = ux - uy;
                        break;
                    case CBin::Mul:
                        r = ux * uy;
                        break;
                    case CBin::UDiv:
                    case CBin::URem: {
                        const std::uint64_t mx = mask(x, w), my = mask(y, w);
                        if (my == 0) {
                            fault(t, FaultKind::DivisionByZero, in.pos);
                            return;
                        }
                        if (w <= 32) {  // the same quotient, by the cheaper 32-bit division
                            const auto nx = static_cast<std::uint32_t>(mx),
                                       ny = static_cast<std::uint32_t>(my);
                            r = static_cast<CBin>(in.sub) == CBin::UDiv ? nx / ny : nx % ny;
                        } else {
                            r = static_cast<CBin>(in.sub) == CBin::UDiv ? mx / my : mx % my;
                        }
                        break;
                    }
                    case CBin::SDiv:
                    case CBin::SRem:
                        if (y == 0) {
                            fault(t, FaultKind::DivisionByZero, in.pos);
                            return;
                        }
                        if (y ==
                            -1)  // (x / -1 overflows for the least value: wraps as LLVM's sdiv)
                            r = static_cast<CBin>(in.sub) == CBin::SDiv ? 0 - ux : 0;
                        else if (w <=
                                 32)  // operands are sign-extended from w bits: they fit 32 bits
                            r = static_cast<std::uint64_t>(static_cast<std::int64_t>(
                                static_cast<CBin>(in.sub) == CBin::SDiv
                                    ? static_cast<std::int32_t>(x) / static_cast<std::int32_t>(y)
                                    : static_cast<std::int32_t>(x) % static_cast<std::int32_t>(y)));
                        else
                            r = static_cast<std::uint64_t>(
                                static_cast<CBin>(in.sub) == CBin::SDiv ? x / y : x % y);
                        break;
                    case CBin::And:
                        r = ux & uy;
                        break;
                    case CBin::Or:
                        r = ux | uy;
                        break;
                    case CBin::Xor:
                        r = ux ^ uy;
                        break;
                    case CBin::Shl: {
                        const std::uint64_t a = mask(y, w);
                        r = a >= w ? 0 : ux << a;
                        break;
                    }
                    case CBin::LShr: {
                        const std::uint64_t a = mask(y, w);
                        r = a >= w ? 0 : mask(x, w) >> a;
                        break;
                    }
                    case CBin::AShr: {
                        const std::uint64_t a = mask(y, w);
                        const Value sx = w == 1 ? -(x & 1) : x;
                        r = static_cast<std::uint64_t>(a >= w ? (sx < 0 ? -1 : 0) : sx >> a);
                        break;
                    }
                }
                R[in.a] = norm(static_cast<Value>(r), w);
                fr->pc = pc = in.next;
                continue;
            }
            case COp::Cmp:
            case COp::CmpBr: {
                Value x = V(in.b), y = V(in.c);
                const unsigned w = in.w;
                bool r = false;
                const std::uint64_t mx = mask(x, w), my = mask(y, w);
                if (w == 1) {
                    x = -(x & 1);
                    y = -(y & 1);
                }
                switch (static_cast<CPred>(in.sub)) {
                    case CPred::Eq:
                        r = mx == my;
                        break;
                    case CPred::Ne:
                        r = mx != my;
                        break;
                    case CPred::Ugt:
                        r = mx > my;
                        break;
                    case CPred::Uge:
                        r = mx >= my;
                        break;
                    case CPred::Ult:
                        r = mx < my;
                        break;
                    case CPred::Ule:
                        r = mx <= my;
                        break;
                    case CPred::Sgt:
                        r = x > y;
                        break;
                    case CPred::Sge:
                        r = x >= y;
                        break;
                    case CPred::Slt:
                        r = x < y;
                        break;
                    case CPred::Sle:
                        r = x <= y;
                        break;
                }
                R[in.a] = r;
                if (in.op == COp::CmpBr)
                    fr->pc = pc = r ? in.d : static_cast<std::int32_t>(in.imm);
                else
                    fr->pc = pc = in.next;
                continue;
            }
            case COp::Select:
                R[in.a] = (V(in.b) & 1) ? V(in.c) : V(in.d);
                fr->pc = pc = in.next;
                continue;
            case COp::Cast:
            case COp::CastPtrAdd: {
                const Value x = V(in.b);
                const auto from = static_cast<unsigned>(in.imm);
                switch (static_cast<CCast>(in.sub)) {
                    case CCast::Trunc:
                        R[in.a] = norm(x, in.w);
                        break;
                    case CCast::ZExt:
                        R[in.a] = norm(static_cast<Value>(mask(x, from)), in.w);
                        break;
                    case CCast::SExt:
                        R[in.a] = norm(from == 1 ? -(x & 1) : x, in.w);
                        break;
                }
                if (in.op == COp::Cast) {
                    fr->pc = pc = in.next;
                    continue;
                }
                const CInstr& q = code[pc + 1];  // the ptradd
                R[q.a] = ptrAdd(q);
                fr->pc = pc = q.next;
                continue;
            }
            case COp::PtrAdd:
                R[in.a] = ptrAdd(in);
                fr->pc = pc = in.next;
                continue;
            case COp::Jump:
                fr->pc = pc = in.a;
                continue;
            case COp::Branch:
                fr->pc = pc = (V(in.b) & 1) ? in.a : in.c;
                continue;
            case COp::Switch: {
                const Value v = V(in.b);
                std::int32_t target = in.a;
                for (std::int32_t k = 0; k < in.c; ++k) {
                    const auto& cs = f.cases[static_cast<std::size_t>(in.imm + k)];
                    if (cs.first == v) {
                        target = cs.second;
                        break;
                    }
                }
                fr->pc = pc = target;
                continue;
            }
            case COp::ParCopy: {
                if (in.c == 1) {  // one copy: nothing to keep apart
                    const auto& cp = f.copies[static_cast<std::size_t>(in.imm)];
                    R[cp.first] = V(cp.second);
                    fr->pc = pc = in.next;
                    continue;
                }
                tmp_.clear();
                for (std::int32_t k = 0; k < in.c; ++k)
                    tmp_.push_back(V(f.copies[static_cast<std::size_t>(in.imm + k)].second));
                for (std::int32_t k = 0; k < in.c; ++k)
                    R[f.copies[static_cast<std::size_t>(in.imm + k)].first] =
                        tmp_[static_cast<std::size_t>(k)];
                fr->pc = pc = in.next;
                continue;
            }
            case COp::LoopEnter: {
                // Slots: jumps back so far, then at the last visit of the header the thread's next
                // Event::index (the iteration's first event), its effect count and the steps of the
                // other threads (totalEvents_ counts every thread's, evCount this one's).
                Value* L = R + in.a;
                L[0] = 0;
                L[1] = th.evCount;
                L[2] = th.effects + th.hidden;
                L[3] = totalEvents_ - th.evCount;
                fr->pc = pc = in.next;
                continue;
            }
            case COp::LoopBack: {
                Value* L = R + in.a;
                if (in.imm >= 0) {  // --unroll: N visits of the header, N - 1 jumps back
                    if (L[0] >= in.imm) {
                        warnLoop(in.imm2, BlockCause::LoopBound,
                                 "the loop at " + loopName(in.imm2) +
                                     " reached the bound (--unroll " + std::to_string(in.imm + 1) +
                                     ": " + std::to_string(in.imm + 1) +
                                     " visits of its header) and blocked executions there "
                                     "(loop-bound): raise --unroll to explore further" +
                                     (p_.opts().loopsAsWritten
                                          ? ", or reduce spin loops (drop --loops none)"
                                          : ""));
                        mark(t, EventKind::AssumeBlock, ThreadStatus::Blocked,
                             static_cast<int>(BlockCause::LoopBound), in.pos, L[1]);
                        return;
                    }
                    L[0] += 1;
                    L[1] = th.evCount;
                    th.lastLoop = in.imm2;
                } else if ((++L[0] & (kLivelockPeriod - 1)) == 0) {
                    // Without a bound, every kLivelockPeriod-th jump back: did the iterations since
                    // the last check change nothing while no other thread moved? Then maybe a
                    // livelock (see livelock()). Under --unroll the bound ends the loop anyway, and
                    // whether others can run depends on the interleaving, so the check would tell
                    // equivalent executions apart by their block cause. It is skipped while
                    // another thread was found runnable and nothing changed since; sampling keeps
                    // tight local loops cheap and loses nothing (the check compares the state with
                    // the one at the previous check, nothing changed in between).
                    const std::int64_t others = totalEvents_ - th.evCount;
                    const std::int64_t changes = th.effects + th.hidden;
                    if (changes == L[2] && others == L[3] &&
                        (th.cand.runnableAt != totalEvents_ ||
                         th.cand.runnableChanges != changes) &&
                        livelock(t, in, L, others))
                        return;
                    L[1] = th.evCount;
                    L[2] = changes;
                    L[3] = others;
                    th.lastLoop = in.imm2;
                }
                fr->pc = pc = in.next;
                continue;
            }
            case COp::Call:
            case COp::CallPtr: {
                std::int32_t fn = static_cast<std::int32_t>(in.imm);
                if (in.op == COp::CallPtr) {
                    const auto u = static_cast<std::uint64_t>(V(in.d));
                    const auto obj = static_cast<std::int64_t>(u >> m_.objShift);
                    if ((u & m_.localTag) || obj < 1 ||
                        obj > static_cast<std::int64_t>(m_.functions.size()) ||
                        offsetIn(u, obj) != 0) {
                        fault(t, u == 0 ? FaultKind::NullDereference : FaultKind::InvalidPointer,
                              in.pos);
                        return;
                    }
                    fn = static_cast<std::int32_t>(obj - 1);
                    if (!m_.functions[static_cast<std::size_t>(fn)].defined)
                        throw UnsupportedError(
                            p_.where(in.pos) + "call through a pointer to the library function '" +
                            m_.functions[static_cast<std::size_t>(fn)].name + "'");
                }
                const CFunction& callee = m_.functions[static_cast<std::size_t>(fn)];
                if (callee.atomic) {
                    if (th.atomicDepth == 0 && th.phase == 0) {
                        setPend(th, t, EventKind::Lock,
                                cellOf(m_.atomicLockObject, 0, 0, true, in.pos), in.pos);
                        return;
                    }
                    th.phase = 0;
                    ++th.atomicDepth;
                }
                if (th.frames.size() > 100000)
                    throw InputError(p_.where(in.pos) + "recursion deeper than 100000 calls");
                tmp_.clear();
                for (std::int32_t k = 0; k < in.c; ++k)
                    tmp_.push_back(V(f.args[static_cast<std::size_t>(in.b + k)]));
                Frame nf;
                nf.fn = fn;
                nf.regBase = static_cast<std::int32_t>(th.regs.size());
                nf.localBase = static_cast<std::int32_t>(th.local.size());
                nf.retDst = in.a;
                th.regs.resize(th.regs.size() + static_cast<std::size_t>(callee.numSlots), 0);
                for (std::int32_t k = 0; k < std::min(in.c, callee.numParams); ++k)
                    th.regs[static_cast<std::size_t>(nf.regBase + k)] =
                        tmp_[static_cast<std::size_t>(k)];
                th.frames.push_back(nf);
                enter();
                continue;
            }
            case COp::Ret: {
                if (frameEnd(t, in)) return;
                if (f.atomic) {
                    if (th.atomicDepth == 1 && th.phase == 0) {
                        setPend(th, t, EventKind::Unlock,
                                cellOf(m_.atomicLockObject, 0, 0, true, in.pos), in.pos);
                        return;
                    }
                    th.phase = 0;
                    if (th.atomicDepth > 0) --th.atomicDepth;
                }
                const bool has = in.b != -1;
                const Value rv = has ? V(in.b) : 0;
                const std::uint32_t endCtx =
                    th.frames.size() == 1 ? ctxOf(th) : 0;  // the thread's last
                doReturn(t, rv, has);
                if (th.frames.empty()) {
                    mark(t, EventKind::ThreadEnd, ThreadStatus::Finished, -1, in.pos, -1, endCtx);
                    return;
                }
                enter();
                continue;
            }
            case COp::AllocaLocal:
            case COp::AllocaShared: {
                std::uint64_t size = static_cast<std::uint64_t>(in.imm);
                if (in.c != -1) size *= static_cast<std::uint64_t>(V(in.c));
                if (size > (1ULL << 28) || (in.op == COp::AllocaShared && size > maxObjectBytes()))
                    throw InputError(p_.where(in.pos) + "stack variable of " +
                                     std::to_string(size) + " bytes is too large");
                if (in.op == COp::AllocaShared) {
                    const Value p = allocShared(t, size, in.imm2, in.pos);  // (size checked above)
                    th.stackObjs.emplace_back(
                        static_cast<std::int64_t>(th.frames.size()),
                        static_cast<std::int64_t>(static_cast<std::uint64_t>(p) >> m_.objShift));
                    th.regs[static_cast<std::size_t>(fr->regBase + in.a)] = p;
                } else {
                    const std::size_t base = (th.local.size() + 15) & ~static_cast<std::size_t>(15);
                    th.local.resize(base + size, 0);
                    th.regs[static_cast<std::size_t>(fr->regBase + in.a)] =
                        static_cast<Value>(m_.localTag | base);
                }
                fr->pc = pc = in.next;
                continue;
            }
            case COp::Load:
            case COp::Store:
            case COp::Rmw:
            case COp::CmpXchg: {
                if (in.loc >= 0) {  // a global's cell (CodeProgram::resolveStaticLocations)
                    stopAtLocation(t, in, in.loc, 0);
                    return;
                }
                const auto size = static_cast<std::uint64_t>(in.imm);
                const auto u = static_cast<std::uint64_t>(V(in.b));
                if ((u & m_.localTag) && (in.op == COp::Load || in.op == COp::Store)) {
                    // The common case first: a plain access to the private stack (as resolve()).
                    const std::uint64_t off = u & (m_.localTag - 1);
                    if (off + size <= th.local.size() && off < (1ULL << 40)) {
                        if (in.op == COp::Load)
                            R[in.a] = loadLocal(th, static_cast<std::uint32_t>(off), size, in.w);
                        else
                            storeLocal(th, static_cast<std::uint32_t>(off), size, V(in.c));
                        fr->pc = pc = in.next;
                        continue;
                    }
                }
                const Addr ad = resolve(th, V(in.b), size, true);
                if (ad.where == Where::Shared) {
                    stopAtAccess(t, in, ad);
                    return;
                }
                if (ad.where == Where::Fault || (ad.where == Where::Const && in.op != COp::Load)) {
                    fault(t, ad.where == Where::Fault ? ad.fault : FaultKind::InvalidPointer,
                          in.pos);
                    return;
                }
                if (in.op == COp::Load) {
                    R[in.a] = ad.where == Where::Local ? loadLocal(th, ad.off, size, in.w)
                                                       : loadConst(ad.obj, ad.off, size, in.w);
                } else if (in.op == COp::Store) {
                    storeLocal(th, ad.off, size, V(in.c));
                } else if (in.op == COp::Rmw) {
                    const Value old = loadLocal(th, ad.off, size, in.w);
                    const Value y = V(in.c);
                    const Value nv = static_cast<CRmw>(in.sub) == CRmw::Xchg
                                         ? y
                                         : applyRmw(kRmwOfCRmw[in.sub], old, y);
                    storeLocal(th, ad.off, size, norm(nv, in.w));
                    R[in.a] = old;
                } else {
                    const Value old = loadLocal(th, ad.off, size, in.w);
                    const bool ok = old == V(in.c);
                    if (ok) storeLocal(th, ad.off, size, V(in.d));
                    R[in.a] = old;
                    R[in.a + 1] = ok;
                }
                fr->pc = pc = in.next;
                continue;
            }
            case COp::Builtin:
                if (localBuiltin(t, in)) return;
                fr->pc = pc = in.next;
                continue;
            case COp::Unreachable:
                fault(t, FaultKind::Unreachable, in.pos);
                return;
        }
    }
}

// A thread jumps back to a loop header after an iteration in which it changed nothing (no write,
// no private store that changed a byte, no spawn) while no other thread made a step. If no other
// thread can run now either (finished, blocked, or waiting on something only a write or the end
// of a thread can change, and this thread writes nothing), memory stays as it is; if, besides,
// the thread's state at the header is the one it had at an earlier visit with nothing changed in
// between, the thread repeats the same iterations forever. That is exact: the thread is blocked
// (livelock), it never leaves the loop in the program as written. The state at a visit is kept
// (Thread::cand) only once the others cannot run, so the check costs nothing while they can; it
// needs two visits, the first records the state. Loops under --unroll are not checked: whether
// the other threads can run depends on the interleaving, so two executions of one Mazurkiewicz
// or reads-from class can reach the check in different situations and end with different block
// causes (loop-bound, livelock); the bound ends such a loop anyway. Without a bound the same can
// happen, and the alternative is an endless execution cut at max_execution_events.
bool CodeExecution::livelock(ThreadId t, const CInstr& in, const Value* L, std::int64_t others) {
    Thread& th = threads_[static_cast<std::size_t>(t)];
    auto& c = th.cand;
    const std::int64_t changes = th.effects + th.hidden;
    if (c.runnableAt == totalEvents_ && c.runnableChanges == changes) return false;
    for (ThreadId u = 0; u < T_; ++u)
        if (u != t && threads_[static_cast<std::size_t>(u)].status == ThreadStatus::Ready &&
            pending(u).enabled) {
            c.valid = false;
            c.runnableAt = totalEvents_;
            c.runnableChanges = changes;
            return false;
        }
    const Frame& fr = th.frames.back();
    const CFunction& f = m_.functions[static_cast<std::size_t>(fr.fn)];
    const Value* regs = th.regs.data() + fr.regBase;
    const auto n = static_cast<std::size_t>(f.stateSlots);
    const auto depth = static_cast<std::int32_t>(th.frames.size());
    if (c.valid && c.depth == depth && c.slot == in.a && c.effects == changes &&
        c.others == others && c.localSize == th.local.size() && c.nAllocs == th.nAllocs &&
        c.nNondet == th.nNondet && c.atomicDepth == th.atomicDepth && c.regs.size() == n &&
        std::equal(c.regs.begin(), c.regs.end(), regs)) {
        warnLoop(in.imm2, BlockCause::Livelock,
                 "thread " + p_.info_->threadName(t) + " can never leave the loop at " +
                     loopName(in.imm2) +
                     ": an iteration changed nothing and no other thread can "
                     "run (livelock); the execution is blocked there (livelock)");
        mark(t, EventKind::AssumeBlock, ThreadStatus::Blocked,
             static_cast<int>(BlockCause::Livelock), in.pos, L[1]);
        c.valid = false;
        return true;
    }
    c.valid = true;
    c.depth = depth;
    c.slot = in.a;
    c.effects = changes;
    c.others = others;
    c.localSize = th.local.size();
    c.nAllocs = th.nAllocs;
    c.nNondet = th.nNondet;
    c.atomicDepth = th.atomicDepth;
    c.regs.assign(regs, regs + n);
    return false;
}

}  // namespace porlab::code
