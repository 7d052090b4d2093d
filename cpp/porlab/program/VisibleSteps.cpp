// SPDX-License-Identifier: MIT
// Visible steps: performing a thread's pending operation; call stacks of events.
#include "porlab/program/CodeExecution.hpp"

namespace porlab::code {

// ---- local execution -------------------------------------------------------------------------

std::uint32_t CodeExecution::computeCtx(Thread& th) {
    std::size_t k = th.frames.size();
    while (k > 0 && th.frames[k - 1].ctx < 0) --k;
    for (; k < th.frames.size(); ++k) {
        Frame& f = th.frames[k];
        std::uint32_t parent = 0;
        std::int32_t pc = -1;
        SourcePos site;
        if (k > 0) {  // called from the frame below, at its pc (a call until the return)
            const Frame& caller = th.frames[k - 1];
            parent = static_cast<std::uint32_t>(caller.ctx);
            pc = caller.pc;
            site = m_.functions[static_cast<std::size_t>(caller.fn)]
                       .code[static_cast<std::size_t>(pc)]
                       .pos;
        }
        const std::pair<std::uint64_t, std::uint64_t> key{
            (static_cast<std::uint64_t>(parent) << 32) | static_cast<std::uint32_t>(pc),
            static_cast<std::uint32_t>(f.fn)};
        // A direct-mapped cache in front of the map: every call's first event comes here, and
        // a tight loop of calls meets the same few keys (a hash-map probe cost ~3% of runs).
        CtxSlot& slot = ctxFast_[ctxFastIndex(key)];
        if (slot.ctx >= 0 && slot.key == key) {
            f.ctx = slot.ctx;
            continue;
        }
        auto it = ctxCache_.find(key);
        if (it == ctxCache_.end())
            it = ctxCache_
                     .emplace(key,
                              p_.contexts_->intern(parent, static_cast<std::uint32_t>(f.fn), site))
                     .first;
        f.ctx = static_cast<std::int32_t>(it->second);
        slot.key = key;
        slot.ctx = f.ctx;
    }
    return static_cast<std::uint32_t>(th.frames.back().ctx);
}

// ---- visible steps
// -------------------------------------------------------------------------------

// The common steps without the general step's cases: a load, store, read-modify-write,
// compare-and-swap, await, lock or unlock of a location no free can reach (a global's, or a
// block's when nothing is freed: pendObj 0), in an execution far from its cut. False (nothing done)
// for anything else, and when the access reads uninitialised memory or locks a destroyed mutex (the
// general step faults there).
bool CodeExecution::fastStep(ThreadId t, std::optional<Value> forcedRead) {
    Thread& th = threads_[static_cast<std::size_t>(t)];
    const CInstr& in = cur(th);
    if (th.pendObj != 0 || totalEvents_ >= p_.opts().maxExecutionEvents) return false;
    const auto bi = static_cast<Builtin>(in.sub);
    switch (in.op) {
        case COp::Load:
        case COp::Store:
        case COp::Rmw:
        case COp::CmpXchg:
            break;
        case COp::Builtin:
            if (bi != Builtin::LoadAwait && bi != Builtin::XchgAwait && bi != Builtin::MutexLock &&
                bi != Builtin::MutexUnlock)
                return false;
            break;
        default:
            return false;
    }
    // The event goes where step() returns it, and is completed there (a copy into a local first
    // made the compiler take it apart field by field: ~30 instructions a step).
    emitted_.push_back(pending(t));
    Event& ev = emitted_.back();
    if (forcedRead && readsMemory(ev.kind) && ev.kind != EventKind::Lock) {
        ev.rval = *forcedRead;
        if (ev.kind == EventKind::FetchAdd) ev.wval = rmwResult(ev, ev.rval);
        if (ev.kind == EventKind::CasSuccess || ev.kind == EventKind::CasFailure) {
            const bool ok = ev.rval == ev.operand;
            ev.kind = ok ? EventKind::CasSuccess : EventKind::CasFailure;
            ev.wval = ok ? th.pendNew : 0;
        }
    }
    const auto loc = static_cast<std::size_t>(ev.loc);
    if ((readsMemory(ev.kind) && ev.kind != EventKind::Lock && ev.rval == kUninit) ||
        ((ev.kind == EventKind::Lock || ev.kind == EventKind::Unlock) &&
         owner_[loc] == kDestroyedOwner)) {
        emitted_.pop_back();  // (slowStep makes it again)
        return false;
    }
    auto setResult = [&](Value v) {
        if (in.a >= 0) reg(th, in.a) = v;
    };
    switch (ev.kind) {
        case EventKind::Read:
        case EventKind::Await:
            setResult(norm(ev.rval, in.w));
            break;
        case EventKind::Write:
            mem_[loc] = ev.wval;
            break;
        case EventKind::FetchAdd:
            mem_[loc] = ev.wval;
            if (in.resultUsed) setResult(norm(ev.rval, in.w));
            break;
        case EventKind::Exchange:
        case EventKind::XchgAwait:
            mem_[loc] = ev.wval;
            setResult(norm(ev.rval, in.w));
            break;
        case EventKind::CasSuccess:
        case EventKind::CasFailure:
            if (ev.kind == EventKind::CasSuccess) mem_[loc] = ev.wval;
            reg(th, in.a) = norm(ev.rval, in.w);
            reg(th, in.a + 1) = ev.kind == EventKind::CasSuccess;
            break;
        case EventKind::Lock:
            mem_[loc] = 1;
            owner_[loc] = t;
            setResult(0);
            break;
        case EventKind::Unlock:
            mem_[loc] = 0;
            owner_[loc] = -1;
            setResult(0);
            break;
        default:  // (not reached: the operations above make no other event)
            emitted_.pop_back();
            return false;
    }
    if (writesMemory(ev.kind)) {  // as step() does
        publish(ev.wval);
        ++th.effects;
        th.lastWriteStep = totalEvents_ + 1;
        th.lastWriteIndex = static_cast<std::int32_t>(th.evCount);
        th.lastWriteLoc = ev.loc;
        th.lastWriteAmount = 0;
        if (ev.kind == EventKind::FetchAdd && (ev.rmwOp == RmwOp::Add || ev.rmwOp == RmwOp::Sub))
            th.lastWriteAmount = ev.rmwOp == RmwOp::Add ? ev.operand : -ev.operand;
    }
    if (zneAwaits_) observe(t, ev);
    th.evCount += 1;
    ++totalEvents_;
    th.phase = 0;
    ++th.frames.back().pc;
    if (th.status == ThreadStatus::Ready) runLocal(t);
    return true;
}

std::span<const Event> CodeExecution::step(ThreadId t, std::optional<Value> forcedRead) {
    emitted_.clear();
    if (fastStep(t, forcedRead)) return emitted_;
    return slowStep(t, forcedRead);
}

// The general step (a function of its own: its frame and spills stay off the fast path).
std::span<const Event> CodeExecution::slowStep(ThreadId t, std::optional<Value> forcedRead) {
    Thread& th = threads_[static_cast<std::size_t>(t)];
    Event ev = pending(t);
    const CInstr& in = cur(th);
    if (forcedRead && readsMemory(ev.kind) && ev.kind != EventKind::Lock) {
        ev.rval = *forcedRead;
        if (ev.kind == EventKind::FetchAdd) ev.wval = rmwResult(ev, ev.rval);
        if (ev.kind == EventKind::CasSuccess || ev.kind == EventKind::CasFailure) {
            const bool ok = ev.rval == ev.operand;
            ev.kind = ok ? EventKind::CasSuccess : EventKind::CasFailure;
            ev.wval = ok ? (th.pendTry ? 1 : th.pendNew) : 0;
        }
    }
    const auto loc = static_cast<std::size_t>(ev.loc);
    bool advance = true;
    std::optional<FaultKind> freeFault;
    // The block was freed (or its frame ended) after this access became pending: the access
    // happens, then the thread faults.
    // (A location a free or a frame end wrote is dead; so is every location of a block once the
    // free or frame end is over.)
    const bool isFree = in.op == COp::Builtin && static_cast<Builtin>(in.sub) == Builtin::Free;
    // A frame end (frameEnd): at a return, or at pthread_exit / exit / abort for every frame.
    const bool isFrameEnd =
        in.op == COp::Ret ||
        (in.op == COp::Builtin && (static_cast<Builtin>(in.sub) == Builtin::ThreadExit ||
                                   static_cast<Builtin>(in.sub) == Builtin::Exit ||
                                   static_cast<Builtin>(in.sub) == Builtin::Abort));
    bool keepDead = false;  // a write to a dead location: it faults and the location stays dead
    if (th.pendObj && !isFree && !isFrameEnd) {
        const auto& o = objs_[static_cast<std::size_t>(th.pendObj)];
        const bool dead =
            ev.loc >= 0 && (readsMemory(ev.kind) ? ev.rval == kDead : mem_[loc] == kDead);
        keepDead = dead;
        if (o.status != 1 || dead)
            freeFault = o.heap ? FaultKind::UseAfterFree : FaultKind::InvalidPointer;
    }
    // A program's read (load, read-modify-write, compare-and-swap, await) of memory nothing wrote:
    // the access happens, then the thread faults. (memcpy copies uninitialised bytes as they are;
    // porlab's own accesses, e.g. a free's, read whatever is there.)
    if (!freeFault && readsMemory(ev.kind) && ev.rval == kUninit &&
        ev.mode != AccessMode::Internal &&
        (in.op == COp::Load || in.op == COp::Rmw || in.op == COp::CmpXchg ||
         (in.op == COp::Builtin && (static_cast<Builtin>(in.sub) == Builtin::LoadAwait ||
                                    static_cast<Builtin>(in.sub) == Builtin::XchgAwait))))
        freeFault = FaultKind::UninitializedRead;
    ThreadId spawned = -1;
    Value spawnArg = 0;
    std::int32_t spawnFn = 0;
    auto setResult = [&](Value v) {
        if (in.a >= 0) reg(th, in.a) = v;
    };
    const auto bi = in.op == COp::Builtin ? static_cast<Builtin>(in.sub) : Builtin::Nop;
    auto goOn = [&](std::int32_t phase) {  // the operation goes on with its step `phase`
        th.phase = phase;
        advance = false;
    };
    // A lock, trylock or unlock of a destroyed mutex (kDestroyedOwner) happens, then the thread
    // faults; the mutex stays destroyed.
    const bool onDestroyed =
        !freeFault && ev.loc >= 0 && owner_[loc] == kDestroyedOwner &&
        (ev.kind == EventKind::Lock || ev.kind == EventKind::Unlock ||
         (th.pendTry && (ev.kind == EventKind::CasSuccess || ev.kind == EventKind::CasFailure)));
    if (onDestroyed) freeFault = FaultKind::MutexDestroyed;
    // Read-write locks and barriers (visibleBuiltin describes them).
    bool handled = true;
    switch (bi) {
        case Builtin::RwRdLock:
        case Builtin::RwWrLock:
        case Builtin::RwTryRdLock:
        case Builtin::RwTryWrLock: {
            const bool reader = bi == Builtin::RwRdLock || bi == Builtin::RwTryRdLock;
            const auto m = static_cast<std::size_t>(th.aux);
            switch (ev.kind) {
                case EventKind::Lock:
                case EventKind::CasSuccess:
                    mem_[loc] = 1;
                    owner_[loc] = t;
                    th.aux = ev.loc;  // M, for the steps to come
                    goOn(1);
                    break;
                case EventKind::CasFailure:
                    setResult(kEBusy);
                    break;
                case EventKind::FetchAdd:
                    mem_[loc] = ev.wval;
                    goOn(2);
                    break;             // a reader registered
                case EventKind::Read:  // trywrlock: readers hold the lock?
                    if (ev.rval != 0) {
                        goOn(2);
                    } else {
                        th.wrHeld.push_back(static_cast<LocId>(m));
                        setResult(0);
                    }
                    break;
                case EventKind::Await:  // wrlock: the last reader left
                    th.wrHeld.push_back(static_cast<LocId>(m));
                    setResult(0);
                    break;
                case EventKind::Unlock:
                    mem_[loc] = 0;
                    owner_[loc] = -1;
                    setResult(reader ? 0 : kEBusy);
                    break;
                default:
                    handled = false;
                    break;
            }
            break;
        }
        case Builtin::RwUnlock:
            if (ev.kind == EventKind::Unlock) {
                mem_[loc] = 0;
                owner_[loc] = -1;
                th.wrHeld.erase(std::find(th.wrHeld.begin(), th.wrHeld.end(), ev.loc));
                setResult(0);
            } else {
                mem_[loc] = ev.wval;
                if (ev.rval <= 0 && !freeFault)
                    freeFault = FaultKind::UnlockNotHeld;  // no reader held it
                setResult(0);
            }
            break;
        case Builtin::BarrierWait:
            if (ev.kind == EventKind::FetchAdd) {
                mem_[loc] = ev.wval;
                const auto word = static_cast<std::uint64_t>(ev.rval);
                const std::uint64_t n = word >> 32, arrived = word & 0xffffffffULL;
                if (n == kBarrierDestroyedHi) {
                    if (!freeFault) freeFault = FaultKind::BarrierDestroyed;
                } else if (n == 0) {
                    if (!freeFault) freeFault = FaultKind::BarrierNotInitialized;
                } else if (arrived % n == n - 1) {
                    setResult(-1);  // PTHREAD_BARRIER_SERIAL_THREAD: the last to arrive
                } else {
                    th.aux = static_cast<Value>((n << 32) + (arrived / n + 1) * n);
                    goOn(1);
                }
            } else {
                setResult(0);
            }
            break;
        case Builtin::MutexDestroy:
        case Builtin::SpinDestroy:
        case Builtin::RwDestroy:
            if (freeFault) break;
            // A thread holds the mutex (the exchange read its 1; under lapor, whose locks write
            // nothing, only owner_ tells).
            if (owner_[loc] >= 0) {
                freeFault = FaultKind::DestroyLockedMutex;
                mem_[loc] = 0;  // as the event says (the execution has an error; the owner stays)
            } else if (owner_[loc] == kDestroyedOwner) {
                freeFault = FaultKind::MutexDestroyed;  // destroyed twice
            } else {
                mem_[loc] = 0;
                owner_[loc] = kDestroyedOwner;
                setResult(0);
            }
            break;
        case Builtin::MutexInit:
        case Builtin::MtxInit:
        case Builtin::SpinInit:
        case Builtin::RwInit:  // of a destroyed mutex (visibleBuiltin)
            mem_[loc] = 0;
            owner_[loc] = -1;
            setResult(0);
            break;
        default:
            handled = false;
            break;
    }
    // A location of a freed block or of a dead frame (see frameEnd and Builtin::Free).
    auto killLocation = [&] {
        if (ev.kind == EventKind::Exchange
                ? ev.rval == kDead
                : objs_[static_cast<std::size_t>(th.pendObj)].status == 2) {
            freeFault = FaultKind::DoubleFree;
            return;
        }
        const auto next = static_cast<std::uint32_t>(th.aux) + 1;
        std::uint32_t off = 0;
        LocId l = kNoLoc;
        if (isFrameEnd || p_.nextCell(th.pendObj, next, off, l)) {
            th.phase = static_cast<std::int32_t>(next);  // frameEnd / the free go on
            advance = false;
        } else {
            objs_[static_cast<std::size_t>(th.pendObj)].status = 2;
        }
    };
    switch (handled ? EventKind::ThreadEnd : ev.kind) {  // (ThreadEnd: nothing more to do)
        case EventKind::Read:
            if (in.op == COp::Load)
                setResult(norm(ev.rval, in.w));
            else if (static_cast<Builtin>(in.sub) == Builtin::Memcpy) {  // a chunk of the source
                const auto n = static_cast<std::uint64_t>(arg(th, in, 2));
                const auto k = static_cast<std::uint64_t>(th.phase) >> 1;
                const Addr d = resolve(th, arg(th, in, 0), n);
                const Addr s = resolve(th, arg(th, in, 1), n);
                const unsigned chunk = copyChunk(in, d, s, k, n);
                th.aux = ev.rval == kUninit ? ev.rval : norm(ev.rval, chunk * 8);
                advance = false;
                if (d.where == Where::Shared) {
                    th.phase |= 1;  // the write of this chunk comes next
                } else {
                    if (d.where == Where::Local)
                        storeLocal(th, d.off + static_cast<std::uint32_t>(k), chunk, th.aux);
                    th.phase = static_cast<std::int32_t>(2 * (k + chunk));
                    if (k + chunk >= n) {
                        setResult(arg(th, in, 0));
                        advance = true;
                    }
                }
            } else {  // pthread_cond_wait, phase 0
                th.aux = ev.rval;
                th.phase = 1;
                advance = false;
            }
            break;
        case EventKind::Write:
            mem_[loc] = ev.wval;
            if (isFree || isFrameEnd) {
                killLocation();
                break;
            }
            if (in.op == COp::Builtin && (static_cast<Builtin>(in.sub) == Builtin::Memset ||
                                          static_cast<Builtin>(in.sub) == Builtin::Memcpy)) {
                const auto n = static_cast<std::uint64_t>(arg(th, in, 2));
                const auto k = static_cast<std::uint64_t>(th.phase) >> 1;
                const Addr d = resolve(th, arg(th, in, 0), n);
                const Addr s = static_cast<Builtin>(in.sub) == Builtin::Memcpy
                                   ? resolve(th, arg(th, in, 1), n)
                                   : Addr{Where::Local, 0, 0, {}};
                const std::uint64_t done = k + copyChunk(in, d, s, k, n);
                th.phase = static_cast<std::int32_t>(2 * done);
                if (done < n)
                    advance = false;
                else
                    setResult(arg(th, in, 0));
                break;
            }
            if (bi == Builtin::ThreadCreate || bi == Builtin::ThrdCreate) {
                th.phase = 1;  // the handle is stored; the spawn comes next
                advance = false;
                break;
            }
            if (in.op == COp::Builtin) setResult(0);  // pthread_join's *retval
            break;
        case EventKind::FetchAdd:
            mem_[loc] = ev.wval;
            if (in.op == COp::Rmw) {
                if (in.resultUsed) setResult(norm(ev.rval, in.w));
            } else {
                setResult(0);
            }
            break;
        case EventKind::Exchange:
            mem_[loc] = ev.wval;
            if (isFree || isFrameEnd) {
                killLocation();
                break;
            }
            setResult(norm(ev.rval, in.w));
            break;
        case EventKind::CasSuccess:
        case EventKind::CasFailure:
            if (th.pendTry) {
                if (ev.kind == EventKind::CasSuccess) {
                    mem_[loc] = 1;
                    owner_[loc] = t;
                    setResult(0);
                } else {
                    setResult(bi == Builtin::MtxTryLock ? 1 : kEBusy);  // thrd_busy : EBUSY
                }
                break;
            }
            if (ev.kind == EventKind::CasSuccess) mem_[loc] = ev.wval;
            reg(th, in.a) = norm(ev.rval, in.w);
            reg(th, in.a + 1) = ev.kind == EventKind::CasSuccess;
            break;
        case EventKind::Lock:
            mem_[loc] = 1;
            owner_[loc] = t;
            if (in.op == COp::Call || in.op == COp::CallPtr) {
                th.phase = 1;
                advance = false;
            } else if (static_cast<Builtin>(in.sub) == Builtin::AtomicBegin) {
                th.atomicDepth = 1;
            } else {
                setResult(0);
            }
            break;
        case EventKind::Unlock:
            mem_[loc] = 0;
            owner_[loc] = -1;
            if (in.op == COp::Ret) {
                th.phase = 1;
                advance = false;
            } else if (static_cast<Builtin>(in.sub) == Builtin::AtomicEnd) {
                th.atomicDepth = 0;
            } else if (static_cast<Builtin>(in.sub) == Builtin::CondWait) {
                th.phase = 2;
                advance = false;
            } else {
                setResult(0);
            }
            break;
        case EventKind::Await:
        case EventKind::XchgAwait:
            if (ev.kind == EventKind::XchgAwait) mem_[loc] = ev.wval;
            if (static_cast<Builtin>(in.sub) == Builtin::CondWait) {
                th.phase = 3;
                advance = false;
            } else {
                setResult(norm(ev.rval, in.w));
            }
            break;
        case EventKind::Spawn: {
            if (bi == Builtin::SpawnThread) {  // a builder program's thread, by its id
                if (threads_[static_cast<std::size_t>(ev.aux)].status != ThreadStatus::NotStarted) {
                    ev.kind = EventKind::Fault;
                    ev.aux = static_cast<int>(FaultKind::SpawnTwice);
                    th.status = ThreadStatus::Failed;
                    statuses_[static_cast<std::size_t>(t)] = ThreadStatus::Failed;
                    failed_ = true;
                    advance = false;
                    break;
                }
                spawned = ev.aux;
                spawnFn = m_.threadFunctions[static_cast<std::size_t>(ev.aux)];
                break;
            }
            spawned = ev.aux;
            const CFunction& f = fnOf(th);
            const auto A = [&](int k) {
                return val(th, f.args[static_cast<std::size_t>(in.b + k)]);
            };
            const int fnArg = bi == Builtin::ThrdCreate ? 1 : 2;
            spawnFn = static_cast<std::int32_t>(
                (static_cast<std::uint64_t>(A(fnArg)) >> m_.objShift) - 1);
            spawnArg = A(fnArg + 1);
            const Addr ad = resolve(th, A(0), m_.ptrBytes);
            if (ad.where == Where::Local) storeLocal(th, ad.off, m_.ptrBytes, spawned);
            ++th.nSpawns;
            setResult(0);
            break;
        }
        case EventKind::Join: {
            if (bi == Builtin::JoinThread) break;
            const Value rp = arg(th, in, 1);
            setResult(0);
            if (rp != 0) {
                const unsigned bytes = bi == Builtin::ThrdJoin ? 4 : m_.ptrBytes;
                const Addr ad = resolve(th, rp, bytes);
                if (ad.where == Where::Local) {
                    storeLocal(th, ad.off, bytes,
                               threads_[static_cast<std::size_t>(ev.aux)].exitVal);
                } else if (ad.where == Where::Shared) {
                    th.phase = 1;
                    advance = false;
                }
            }
            break;
        }
        default:
            break;
    }
    if (keepDead) mem_[loc] = kDead;
    if (onDestroyed) {
        mem_[loc] = 0;
        owner_[loc] = kDestroyedOwner;
    }
    if (writesMemory(ev.kind)) {
        publish(ev.wval);
        // SAVER's relaxation: a store the pass found dead at its loop's header, into a block
        // no other thread can reach yet, is no effect.
        const bool invisible = th.pendObj != 0 &&
                               !objs_[static_cast<std::size_t>(th.pendObj)].published &&
                               in.op == COp::Store && (in.imm2 & kAccessMarked) != 0;
        if (!invisible)
            ++th.effects;
        else
            ++th.hidden;
        // The thread's last write (zne awaits; see stopAtAccess).
        th.lastWriteStep = totalEvents_ + 1;
        th.lastWriteIndex = static_cast<std::int32_t>(th.evCount);
        th.lastWriteLoc = ev.loc;
        th.lastWriteAmount = 0;
        if (ev.kind == EventKind::FetchAdd && (ev.rmwOp == RmwOp::Add || ev.rmwOp == RmwOp::Sub))
            th.lastWriteAmount = ev.rmwOp == RmwOp::Add ? ev.operand : -ev.operand;
    } else if (ev.kind == EventKind::Spawn) {
        publish(spawnArg);
        ++th.effects;
    }
    if (zneAwaits_) observe(t, ev);
    th.evCount += 1;
    emitted_.push_back(ev);
    if (++totalEvents_ > p_.opts().maxExecutionEvents && th.status == ThreadStatus::Ready) {
        // An execution this long is most likely an unbounded loop: cut it, with a warning that
        // names the loop the thread last jumped back in (and keep the explorers' recursion
        // within the stack).
        std::string advice = "bound loops with --unroll N";
        std::int64_t loop = th.lastLoop;  // the cut thread's loop, else another's
        for (const auto& other : threads_)
            if (loop == 0) loop = other.lastLoop;
        if (loop != 0)
            advice = "a thread was looping at " + loopName(loop) + ": bound it with --unroll N";
        if (p_.opts().loopsAsWritten) advice += ", or reduce spin loops (drop --loops none)";
        p_.warnOnce("an execution exceeded " + std::to_string(p_.opts().maxExecutionEvents) +
                    " events and was cut there (counted as blocked, execution-cut): " + advice +
                    " (or raise --max-execution-events)");
        mark(t, EventKind::AssumeBlock, ThreadStatus::Blocked,
             static_cast<int>(BlockCause::ExecutionCut), ev.pos);
        return emitted_;
    }
    if (freeFault) {
        fault(t, *freeFault, ev.pos);
        return emitted_;
    }
    if (advance) {
        th.phase = 0;
        ++th.frames.back().pc;
    }
    if (spawned >= 0) startThread(spawned, spawnFn, {spawnArg});
    if (th.status == ThreadStatus::Ready) {
        // a join whose *retval is invalid faults here (phase 1 resolves it again)
        if (!advance && (bi == Builtin::ThreadJoin || bi == Builtin::ThrdJoin)) {
            const Addr ad = resolve(th, arg(th, in, 1), bi == Builtin::ThrdJoin ? 4 : m_.ptrBytes);
            if (ad.where != Where::Shared) {
                fault(t, ad.fault, in.pos);
                return emitted_;
            }
        }
        runLocal(t);
    }
    return emitted_;
}

// frameEnd (CodeExecution.hpp) when the thread has escaped stack variables.
bool CodeExecution::frameEndOfObjects(ThreadId t, const CInstr& in, bool allFrames) {
    Thread& th = threads_[static_cast<std::size_t>(t)];
    const auto depth = static_cast<std::int64_t>(th.frames.size());
    while (!th.stackObjs.empty() && (allFrames || th.stackObjs.back().first == depth)) {
        const std::int64_t obj = th.stackObjs.back().second;
        std::uint32_t off = 0;
        LocId l = kNoLoc;
        if (p_.nextCell(obj, static_cast<std::uint32_t>(th.phase), off, l)) {
            l = known(l);
            setPend(th, t, deadKind(l), l, in.pos);
            th.pend.wval = th.pend.kind == EventKind::Exchange ? kDead : 0;
            th.pend.aux = kFrameEndAux;  // shown as the variable's end, not an exchange
            th.pend.mode = AccessMode::Internal;
            th.pendObj = obj;
            th.aux = off;
            return true;
        }
        objs_[static_cast<std::size_t>(obj)].status = 3;
        th.stackObjs.pop_back();
        th.phase = 0;
    }
    return false;
}

}  // namespace porlab::code
