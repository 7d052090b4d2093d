// SPDX-License-Identifier: MIT
// The runtime library: built-ins that are visible operations (threads, locks, memory).
#include "porlab/program/CodeExecution.hpp"

namespace porlab::code {

// Built-ins that are visible operations. Returns true when the thread stops (pending event set,
// or a marker ended it); false when the call completed locally.
bool CodeExecution::visibleBuiltin(ThreadId t, const CInstr& in) {
    Thread& th = threads_[static_cast<std::size_t>(t)];
    const auto b = static_cast<Builtin>(in.sub);
    // size: of the mutex location (0: 8 bytes, or the declared size of a global's mutex).
    auto mutexLoc = [&](Value p, LocId& loc, unsigned size = 0) {
        if (in.loc >= 0) {  // (set on mutex lock and unlock only: their mutex, argument 0)
            loc = in.loc;
            return true;
        }
        const Addr ad = resolve(th, p, 1);
        if (ad.where == Where::Local || ad.where == Where::Const)
            throw UnsupportedError(p_.where(in.pos) +
                                   "a mutex or condition variable in private or constant memory");
        if (ad.where == Where::Fault) {
            fault(t, ad.fault, in.pos);
            return false;
        }
        loc = cellOf(ad.obj, ad.off, size, true, in.pos);
        return true;
    };
    // A plain location of a synchronisation object at byte `at` of it (rwlock, barrier).
    auto syncLoc = [&](Value p, std::uint32_t at, LocId& loc) {
        const Addr ad = resolve(th, p, at + 8);
        if (ad.where == Where::Local || ad.where == Where::Const)
            throw UnsupportedError(p_.where(in.pos) +
                                   "a read-write lock or barrier in private or constant memory");
        if (ad.where == Where::Fault) {
            fault(t, ad.fault, in.pos);
            return false;
        }
        loc = cellOf(ad.obj, ad.off + at, 8, false, in.pos, true);
        return true;
    };
    auto condLoc = [&](Value p, LocId& loc) {
        const Addr ad = resolve(th, p, 1);
        if (ad.where == Where::Local || ad.where == Where::Const)
            throw UnsupportedError(p_.where(in.pos) +
                                   "a condition variable in private or constant memory");
        if (ad.where == Where::Fault) {
            fault(t, ad.fault, in.pos);
            return false;
        }
        loc = cellOf(ad.obj, ad.off, 48, false, in.pos, true);
        return true;
    };
    auto atomicLoc = [&]() { return cellOf(m_.atomicLockObject, 0, 0, true, in.pos); };
    LocId loc = kNoLoc;
    switch (b) {
        case Builtin::MutexLock:
        case Builtin::MutexTryLock:
        case Builtin::MtxTryLock:
        case Builtin::SpinLock:
        case Builtin::SpinTryLock: {
            // A spin lock is a mutex of 4 bytes (pthread_spinlock_t is an int).
            const bool spin = b == Builtin::SpinLock || b == Builtin::SpinTryLock;
            const bool isTry =
                b == Builtin::MutexTryLock || b == Builtin::MtxTryLock || b == Builtin::SpinTryLock;
            if (!mutexLoc(arg(th, in, 0), loc, spin ? 4 : 0)) return true;
            if (!isTry && !relaxedLocks_ && owner_[static_cast<std::size_t>(loc)] == t) {
                fault(t, FaultKind::RelockHeld, in.pos);
                return true;
            }
            setPend(th, t, isTry ? EventKind::CasFailure : EventKind::Lock, loc, in.pos);
            th.pendTry = isTry;
            return true;
        }
        case Builtin::MutexUnlock:
        case Builtin::SpinUnlock:
            if (!mutexLoc(arg(th, in, 0), loc, b == Builtin::SpinUnlock ? 4 : 0)) return true;
            if (!relaxedLocks_ && owner_[static_cast<std::size_t>(loc)] != t &&
                owner_[static_cast<std::size_t>(loc)] != kDestroyedOwner) {  // (step: destroyed)
                fault(t, FaultKind::UnlockNotHeld, in.pos);
                return true;
            }
            setPend(th, t, EventKind::Unlock, loc, in.pos);
            return true;
        // Destroying a mutex is an exchange that writes 0 to its location (step() faults when a
        // thread holds the mutex, else marks it destroyed in owner_): it conflicts
        // with every lock, trylock and unlock of the mutex, and reads what the last of them wrote,
        // so that explorers by reads-from tell a destroy before an unlock from one after it; a
        // lock, trylock or unlock performed after it faults (step()). An init of a destroyed mutex
        // is a write of 0 too, that makes it usable again; an init of a mutex that is not destroyed
        // stays what it was, no event.
        case Builtin::MutexDestroy:
        case Builtin::SpinDestroy:
        case Builtin::RwDestroy:
            if (!mutexLoc(arg(th, in, 0), loc, b == Builtin::SpinDestroy ? 4 : 0)) return true;
            setPend(th, t, EventKind::Exchange, loc, in.pos);
            th.pend.wval = 0;
            th.pend.aux = kDestroyAux;
            return true;
        case Builtin::MutexInit:
        case Builtin::MtxInit:
        case Builtin::SpinInit:
        case Builtin::RwInit: {
            const Addr ad = resolve(th, arg(th, in, 0), 1);
            if (ad.where == Where::Shared &&
                mutexLoc(arg(th, in, 0), loc, b == Builtin::SpinInit ? 4 : 0) &&
                owner_[static_cast<std::size_t>(loc)] == kDestroyedOwner) {
                setPend(th, t, EventKind::Write, loc, in.pos);
                th.pend.wval = 0;
                th.pend.aux = kReinitAux;
                return true;
            }
            if (in.a >= 0) reg(th, in.a) = 0;
            return false;
        }
        // A destroyed barrier: its word becomes kBarrierDestroyedHi << 32 (a wait's fetch-and-add
        // reads it and faults; an init writes a fresh word).
        case Builtin::BarrierDestroy:
            if (!syncLoc(arg(th, in, 0), 0, loc)) return true;
            setPend(th, t, EventKind::Write, loc, in.pos);
            th.pend.wval = static_cast<Value>(kBarrierDestroyedHi << 32);
            th.pend.aux = kDestroyAux;
            return true;
        case Builtin::CondWait: {
            // wait = read the signal counter c; unlock m; await c != the value read; lock m.
            LocId m = kNoLoc;
            if (!condLoc(arg(th, in, 0), loc) || !mutexLoc(arg(th, in, 1), m)) return true;
            switch (th.phase) {
                case 0:
                    if (!relaxedLocks_ && owner_[static_cast<std::size_t>(m)] != t &&
                        owner_[static_cast<std::size_t>(m)] != kDestroyedOwner) {
                        fault(t, FaultKind::UnlockNotHeld, in.pos);
                        return true;
                    }
                    setPend(th, t, EventKind::Read, loc, in.pos);
                    return true;
                case 1:
                    setPend(th, t, EventKind::Unlock, m, in.pos);
                    return true;
                case 2:
                    setPend(th, t, EventKind::Await, loc, in.pos);
                    th.pend.cond = AwaitCond::NE;
                    th.pend.operand = th.aux;
                    th.pend.aux = kCondWaitAux;
                    return true;
                default:
                    setPend(th, t, EventKind::Lock, m, in.pos);
                    return true;
            }
        }
        case Builtin::CondSignal:
            if (!condLoc(arg(th, in, 0), loc)) return true;
            setPend(th, t, EventKind::FetchAdd, loc, in.pos);
            th.pend.rmwOp = RmwOp::Add;
            th.pend.operand = 1;
            th.pend.resultUsed = false;
            return true;
        case Builtin::ThreadCreate:
        case Builtin::ThrdCreate: {
            // pthread_create(thread, attr, fn, arg); thrd_create(thread, fn, arg)
            const Value fp = arg(th, in, b == Builtin::ThrdCreate ? 1 : 2);
            const auto fobj =
                static_cast<std::int64_t>(static_cast<std::uint64_t>(fp) >> m_.objShift);
            if ((static_cast<std::uint64_t>(fp) & m_.localTag) || fobj < 1 ||
                fobj > static_cast<std::int64_t>(m_.functions.size()) ||
                offsetIn(static_cast<std::uint64_t>(fp), fobj) != 0 ||
                !m_.functions[static_cast<std::size_t>(fobj - 1)].defined)
                throw UnsupportedError(p_.where(in.pos) + std::string(kBuiltinNames[in.sub]) +
                                       " of something that is not a function of the program");
            const Addr ad = resolve(th, arg(th, in, 0), m_.ptrBytes);
            if (ad.where == Where::Fault || ad.where == Where::Const) {
                fault(t, ad.where == Where::Const ? FaultKind::InvalidPointer : ad.fault, in.pos);
                return true;
            }
            const ThreadId child = p_.threadId(t, th.nSpawns, static_cast<std::int32_t>(fobj - 1));
            if (child < 0) {
                p_.warnOnce("pthread_create beyond max_threads = " + std::to_string(T_) + " (" +
                            p_.where(in.pos) +
                            "the execution is blocked there; raise --max-threads)");
                mark(t, EventKind::AssumeBlock, ThreadStatus::Blocked,
                     static_cast<int>(BlockCause::ThreadLimit), in.pos);
                return true;
            }
            if (th.phase == 0 && ad.where == Where::Shared) {
                // The handle goes to shared memory: a write event of its own, before the spawn (as
                // glibc stores *thread before the child runs), so that readers of the handle see
                // it.
                setPend(th, t, EventKind::Write, cellOf(ad.obj, ad.off, m_.ptrBytes, false, in.pos),
                        in.pos);
                th.pend.wval = child;
                th.pend.aux = kThreadHandleAux;    // shown with the thread's name
                p_.markThreadHandle(th.pend.loc);  // (portable outcomes: PortableOutcome.cpp)
                if (ad.obj >= m_.firstDynamicObject()) th.pendObj = ad.obj;
                return true;
            }
            setPend(th, t, EventKind::Spawn, kNoLoc, in.pos);
            th.pend.aux = child;
            return true;
        }
        // Builder programs: threads by their fixed ids; a second spawn faults when performed
        // (step), a join of a thread not started yet waits for it.
        case Builtin::SpawnThread:
            setPend(th, t, EventKind::Spawn, kNoLoc, in.pos);
            th.pend.aux = static_cast<std::int32_t>(in.imm);
            return true;
        case Builtin::JoinThread:
            setPend(th, t, EventKind::Join, kNoLoc, in.pos);
            th.pend.aux = static_cast<std::int32_t>(in.imm);
            return true;
        case Builtin::ThreadJoin:
        case Builtin::ThrdJoin: {
            const Value tid = arg(th, in, 0);
            if (th.phase == 0) {
                if (tid < 0 || tid >= T_ || tid == t ||
                    threads_[static_cast<std::size_t>(tid)].status == ThreadStatus::NotStarted) {
                    fault(t, FaultKind::InvalidThread, in.pos);
                    return true;
                }
                setPend(th, t, EventKind::Join, kNoLoc, in.pos);
                th.pend.aux = static_cast<std::int32_t>(tid);
                return true;
            }
            // phase 1: *retval in shared memory (a void * for pthread_join, an int for thrd_join)
            const unsigned bytes = b == Builtin::ThrdJoin ? 4 : m_.ptrBytes;
            const Addr ad = resolve(th, arg(th, in, 1), bytes);
            setPend(th, t, EventKind::Write, cellOf(ad.obj, ad.off, bytes, false, in.pos), in.pos);
            th.pend.pointer = b != Builtin::ThrdJoin;  // a void * (display)
            th.pend.wval = norm(threads_[static_cast<std::size_t>(tid)].exitVal, 8 * bytes);
            return true;
        }
        // A read-write lock is a mutex M (its byte 0) and a reader count R (byte 8): a writer holds
        // M from wrlock to unlock after waiting for R == 0; a reader takes M only to increment R
        // (so it waits while a writer holds the lock) and decrements R to unlock. Two readers'
        // critical sections overlap; their increments commute under IFAA. th.phase: the step of the
        // operation.
        case Builtin::RwRdLock:
        case Builtin::RwWrLock:
        case Builtin::RwTryRdLock:
        case Builtin::RwTryWrLock: {
            LocId r = kNoLoc;
            if (!mutexLoc(arg(th, in, 0), loc) || !syncLoc(arg(th, in, 0), 8, r)) return true;
            const bool isTry = b == Builtin::RwTryRdLock || b == Builtin::RwTryWrLock;
            const bool reader = b == Builtin::RwRdLock || b == Builtin::RwTryRdLock;
            switch (th.phase) {
                case 0:
                    if (!isTry &&
                        std::find(th.wrHeld.begin(), th.wrHeld.end(), loc) != th.wrHeld.end()) {
                        fault(t, FaultKind::RelockHeld,
                              in.pos);  // glibc: EDEADLK; a deadlock in effect
                        return true;
                    }
                    setPend(th, t, isTry ? EventKind::CasFailure : EventKind::Lock, loc, in.pos);
                    th.pendTry = isTry;
                    return true;
                case 1:
                    if (reader) {
                        setPend(th, t, EventKind::FetchAdd, r, in.pos);
                        th.pend.rmwOp = RmwOp::Add;
                        th.pend.operand = 1;
                        th.pend.resultUsed = false;
                    } else if (isTry) {
                        setPend(th, t, EventKind::Read, r,
                                in.pos);  // any reader: give M back, EBUSY
                    } else {
                        setPend(th, t, EventKind::Await, r, in.pos);
                        th.pend.cond = AwaitCond::EQ;
                        th.pend.operand = 0;
                    }
                    return true;
                default:
                    setPend(th, t, EventKind::Unlock, loc, in.pos);
                    return true;
            }
        }
        case Builtin::RwUnlock: {
            LocId r = kNoLoc;
            if (!mutexLoc(arg(th, in, 0), loc) || !syncLoc(arg(th, in, 0), 8, r)) return true;
            if (std::find(th.wrHeld.begin(), th.wrHeld.end(), loc) != th.wrHeld.end()) {
                setPend(th, t, EventKind::Unlock, loc, in.pos);
                return true;
            }
            // a reader's unlock; the old count tells whether there was a reader (else: a fault)
            setPend(th, t, EventKind::FetchAdd, r, in.pos);
            th.pend.rmwOp = RmwOp::Sub;
            th.pend.operand = 1;
            th.pend.resultUsed = true;
            return true;
        }
        // A barrier is one word: (count << 32) + arrivals. pthread_barrier_init writes it; a waiter
        // adds 1 and, unless it completes the round (it then returns
        // PTHREAD_BARRIER_SERIAL_THREAD), awaits the word reaching the end of its round, (count <<
        // 32) + (round + 1) * count (kept in th.aux). The word only grows, so the barrier serves
        // round after round.
        case Builtin::BarrierInit: {
            const auto n = static_cast<std::uint64_t>(arg(th, in, 2)) & 0xffffffffULL;
            if (!syncLoc(arg(th, in, 0), 0, loc)) return true;
            setPend(th, t, EventKind::Write, loc, in.pos);
            th.pend.wval = static_cast<Value>(n << 32);
            return true;
        }
        case Builtin::BarrierWait:
            if (!syncLoc(arg(th, in, 0), 0, loc)) return true;
            if (th.phase == 0) {
                setPend(th, t, EventKind::FetchAdd, loc, in.pos);
                th.pend.rmwOp = RmwOp::Add;
                th.pend.operand = 1;
                th.pend.resultUsed = true;
            } else {
                setPend(th, t, EventKind::Await, loc, in.pos);
                th.pend.cond = AwaitCond::SGE;
                th.pend.operand = th.aux;
            }
            return true;
        case Builtin::Memset:
        case Builtin::Memcpy: {
            // One location at a time (copyChunk gives the chunks): a read event of the source chunk
            // when the source is shared memory, then a write event of the destination chunk when
            // the destination is (a private destination is written locally). th.phase = 2 * bytes
            // done
            // + 1 once the chunk's source has been read (its value in th.aux).
            const auto n = static_cast<std::uint64_t>(arg(th, in, 2));
            auto k = static_cast<std::uint64_t>(th.phase) >> 1;
            const Addr d = resolve(th, arg(th, in, 0), n);
            const Addr s = b == Builtin::Memcpy ? resolve(th, arg(th, in, 1), n)
                                                : Addr{Where::Local, 0, 0, {}};
            if (in.imm2 == 1 && (th.phase & 1) == 0 && s.where == Where::Shared) {
                // realloc's copy into a fresh block (zeros): only the source's locations, which are
                // the only bytes that can be other than 0.
                std::uint32_t nx = 0;
                LocId nl = kNoLoc;
                if (!p_.nextCell(s.obj, s.off + static_cast<std::uint32_t>(k), nx, nl) ||
                    nx >= s.off + n) {
                    th.phase = 0;
                    return false;  // copied
                }
                k = nx - s.off;
                th.phase = static_cast<std::int32_t>(2 * k);
            }
            const unsigned chunk = copyChunk(in, d, s, k, n);
            if (b == Builtin::Memcpy && s.where == Where::Shared && (th.phase & 1) == 0) {
                setPend(th, t, EventKind::Read,
                        cellOf(s.obj, s.off + static_cast<std::uint32_t>(k), chunk, false, in.pos),
                        in.pos);
                th.pend.mode = AccessMode::Plain;
                th.pendW = static_cast<std::uint8_t>(chunk * 8);
                if (s.obj >= m_.firstDynamicObject()) th.pendObj = s.obj;
                return true;
            }
            Value v = 0;
            if (b == Builtin::Memset) {
                const auto byte = static_cast<std::uint64_t>(arg(th, in, 1) & 0xff);
                for (unsigned i = 0; i < chunk; ++i) v |= static_cast<Value>(byte << (8 * i));
            } else if (s.where == Where::Shared) {
                v = th.aux;
            } else {
                v = s.where == Where::Local
                        ? loadLocal(th, s.off + static_cast<std::uint32_t>(k), chunk, 64)
                        : loadConst(s.obj, s.off + static_cast<std::uint32_t>(k), chunk, 64);
            }
            setPend(th, t, EventKind::Write,
                    cellOf(d.obj, d.off + static_cast<std::uint32_t>(k), chunk, false, in.pos),
                    in.pos);
            th.pend.mode = AccessMode::Plain;
            th.pend.wval = v == kUninit ? v : norm(v, chunk * 8);  // (uninitialised bytes stay so)
            if (d.obj >= m_.firstDynamicObject()) th.pendObj = d.obj;
            return true;
        }
        case Builtin::AtomicBegin:
            if (th.atomicDepth > 0) {
                ++th.atomicDepth;
                return false;
            }
            setPend(th, t, EventKind::Lock, atomicLoc(), in.pos);
            return true;
        case Builtin::AtomicEnd:
            if (th.atomicDepth == 0) {
                fault(t, FaultKind::UnlockNotHeld, in.pos);
                return true;
            }
            if (th.atomicDepth > 1) {
                --th.atomicDepth;
                return false;
            }
            setPend(th, t, EventKind::Unlock, atomicLoc(), in.pos);
            return true;
        case Builtin::LoadAwait:
        case Builtin::XchgAwait: {
            const bool x = b == Builtin::XchgAwait;
            const auto code = arg(th, in, x ? 2 : 1);
            const auto cond = awaitCondFromCode(static_cast<int>(code));
            if (!cond || code != static_cast<int>(code))
                throw UnsupportedError(p_.where(in.pos) + "await condition code " +
                                       std::to_string(code));
            const Value operand = norm(arg(th, in, x ? 3 : 2), in.w);
            const unsigned size = in.w <= 8 ? 1 : in.w / 8;
            if (in.loc >= 0) {  // a global's cell (CodeProgram::resolveStaticLocations)
                setPend(th, t, x ? EventKind::XchgAwait : EventKind::Await, in.loc, in.pos);
                th.pend.cond = *cond;
                th.pend.operand = operand;
                if (in.plain) th.pend.mode = AccessMode::Plain;
                if (x) th.pend.wval = norm(arg(th, in, 1), in.w);
                th.pendW = in.w;
                return true;
            }
            const Addr ad = resolve(th, arg(th, in, 0), size);
            if (ad.where == Where::Fault) {
                fault(t, ad.fault, in.pos);
                return true;
            }
            if (ad.where != Where::Shared) {
                // Private memory cannot change: the await either passes now or never.
                const Value v = ad.where == Where::Local ? loadLocal(th, ad.off, size, in.w)
                                                         : loadConst(ad.obj, ad.off, size, in.w);
                if (!evalAwaitCond(*cond, v, operand)) {
                    mark(t, EventKind::AssumeBlock, ThreadStatus::Blocked,
                         static_cast<int>(BlockCause::Assume), in.pos);
                    return true;
                }
                if (x) {
                    if (ad.where == Where::Const) {
                        fault(t, FaultKind::InvalidPointer, in.pos);
                        return true;
                    }
                    storeLocal(th, ad.off, size, arg(th, in, 1));
                }
                if (in.a >= 0) reg(th, in.a) = v;
                return false;
            }
            setPend(th, t, x ? EventKind::XchgAwait : EventKind::Await,
                    cellOf(ad.obj, ad.off, size, false, in.pos), in.pos);
            th.pend.cond = *cond;
            th.pend.operand = operand;
            if (in.plain) th.pend.mode = AccessMode::Plain;  // a reduced non-atomic load
            if (x) th.pend.wval = norm(arg(th, in, 1), in.w);
            th.pendW = in.w;
            return true;
        }
        default:
            break;
    }
    return false;
}

unsigned CodeExecution::copyChunk(const CInstr& in, const Addr& d, const Addr& s, std::uint64_t k,
                                  std::uint64_t n) const {
    auto side = [&](const Addr& a, bool& fixed) -> unsigned {
        fixed = false;
        if (a.where != Where::Shared) return 0;
        const std::uint32_t off = a.off + static_cast<std::uint32_t>(k);
        if (a.obj < m_.firstDynamicObject()) {
            const CGlobal& g = m_.globals[static_cast<std::size_t>(
                a.obj - 1 - static_cast<std::int64_t>(m_.functions.size()))];
            fixed = true;
            for (const auto& c : g.cells)
                if (c.offset == off) return c.size;
            throw UnsupportedError(p_.where(in.pos) + std::string(kBuiltinNames[in.sub]) +
                                   " that does not cover whole locations of '" + g.name + "'");
        }
        if (const unsigned sz = p_.cellSizeAt(a.obj, off)) {
            fixed = true;
            return sz;
        }
        // an aligned chunk that ends before the block's next location
        std::uint64_t room = n - k;
        std::uint32_t nx = 0;
        LocId nl = kNoLoc;
        if (p_.nextCell(a.obj, off + 1, nx, nl)) room = std::min<std::uint64_t>(room, nx - off);
        for (unsigned c = 8; c > 1; c /= 2)
            if (off % c == 0 && c <= room) return c;
        return 1;
    };
    bool fd = false, fs = false;
    const unsigned cd = side(d, fd), cs = side(s, fs);
    unsigned chunk = 0;
    if (fd && fs && cd != cs)
        throw UnsupportedError(p_.where(in.pos) + std::string(kBuiltinNames[in.sub]) +
                               " between shared objects of different layouts (" +
                               std::to_string(cs) + "-byte and " + std::to_string(cd) +
                               "-byte locations)");
    if (fd)
        chunk = cd;
    else if (fs)
        chunk = cs;
    else if (cd && cs)
        chunk = std::min(cd, cs);
    else
        chunk = cd ? cd : cs;
    if (chunk == 0 || k + chunk > n)
        throw UnsupportedError(p_.where(in.pos) + std::string(kBuiltinNames[in.sub]) +
                               " that does not cover whole shared locations");
    return chunk;
}

}  // namespace porlab::code
