// SPDX-License-Identifier: MIT
// Which calls are built-ins (program/Code.hpp's Builtin) and what they let escape.
#include "porlab/llvm/Lowerer.hpp"

namespace porlab::cfront {

std::optional<BuiltinCall> classify(const std::string& n, bool defined) {
    using B = Builtin;
    if (startsWith(n, "llvm.")) {
        if (startsWith(n, "llvm.dbg.")) return BuiltinCall{B::Nop, false, true};
        if (startsWith(n, "llvm.lifetime.") || n == "llvm.assume" ||
            startsWith(n, "llvm.stacksave") || startsWith(n, "llvm.stackrestore") ||
            startsWith(n, "llvm.experimental.noalias.scope.decl") || n == "llvm.donothing" ||
            n == "llvm.sideeffect" || startsWith(n, "llvm.var.annotation") ||
            startsWith(n, "llvm.invariant."))
            return BuiltinCall{B::Nop};
        if (startsWith(n, "llvm.memset.")) return BuiltinCall{B::Memset};
        if (startsWith(n, "llvm.memcpy.") || startsWith(n, "llvm.memmove."))
            return BuiltinCall{B::Memcpy};
        if (startsWith(n, "llvm.expect.")) return BuiltinCall{B::Nop, true};
        if (startsWith(n, "llvm.smax.")) return BuiltinCall{B::SMax};
        if (startsWith(n, "llvm.smin.")) return BuiltinCall{B::SMin};
        if (startsWith(n, "llvm.umax.")) return BuiltinCall{B::UMax};
        if (startsWith(n, "llvm.umin.")) return BuiltinCall{B::UMin};
        if (startsWith(n, "llvm.abs.")) return BuiltinCall{B::Abs};
        if (startsWith(n, "llvm.ctpop.")) return BuiltinCall{B::Popcount};
        if (startsWith(n, "llvm.ctlz.")) return BuiltinCall{B::Clz};
        if (startsWith(n, "llvm.cttz.")) return BuiltinCall{B::Ctz};
        if (startsWith(n, "llvm.bswap.")) return BuiltinCall{B::Bswap};
        if (startsWith(n, "llvm.prefetch")) return BuiltinCall{B::Nop};
        if (n == "llvm.trap" || n == "llvm.debugtrap") return BuiltinCall{B::Abort};
        if (startsWith(n, "llvm.threadlocal.address")) return BuiltinCall{B::TlsAddress};
        return std::nullopt;
    }
    // Always intercepted, even when the file defines them.
    if (n == "reach_error" || n == "__VERIFIER_error") return BuiltinCall{B::ReachError};
    if (n == "__VERIFIER_assume") return BuiltinCall{B::Assume};
    if (n == "__VERIFIER_atomic_begin") return BuiltinCall{B::AtomicBegin};
    if (n == "__VERIFIER_atomic_end") return BuiltinCall{B::AtomicEnd};
    if (startsWith(n, "__VERIFIER_load_await_")) return BuiltinCall{B::LoadAwait};
    if (startsWith(n, "__VERIFIER_xchg_await_")) return BuiltinCall{B::XchgAwait};
    if (n == "__porlab_iteration_begin") return BuiltinCall{B::IterationBegin};
    if (n == "__porlab_purity_check") return BuiltinCall{B::PurityCheck};
    if (n == "__porlab_iteration_start") return BuiltinCall{B::IterationStart};
    if (n == "__porlab_spin_assume") return BuiltinCall{B::SpinAssume};
    // A no-op that the loop analyses (LoopConds.cpp guardOf) treat as an effect, like a call
    // Nidhugg's PLP does not look into: the loop benchmarks use it where the papers' artifacts
    // call such a function (mcslock's cpu_relax()).
    if (n == "__porlab_opaque") return BuiltinCall{B::Nop};
    if (defined) return std::nullopt;
    if (startsWith(n, "__VERIFIER_nondet_")) return BuiltinCall{B::Nondet};
    static const std::map<std::string, B, std::less<>> table = {
        {"malloc", B::Malloc},
        {"calloc", B::Calloc},
        {"free", B::Free},
        {"memset", B::Memset},
        {"memcpy", B::Memcpy},
        {"memmove", B::Memcpy},
        {"pthread_create", B::ThreadCreate},
        {"pthread_join", B::ThreadJoin},
        {"pthread_exit", B::ThreadExit},
        {"pthread_self", B::ThreadSelf},
        {"pthread_mutex_init", B::MutexInit},
        {"pthread_mutex_lock", B::MutexLock},
        {"pthread_mutex_trylock", B::MutexTryLock},
        {"pthread_mutex_unlock", B::MutexUnlock},
        {"pthread_mutex_destroy", B::MutexDestroy},
        {"pthread_cond_init", B::CondInit},
        {"pthread_cond_wait", B::CondWait},
        {"pthread_cond_signal", B::CondSignal},
        {"pthread_cond_broadcast", B::CondSignal},
        {"pthread_cond_destroy", B::CondDestroy},
        {"pthread_barrier_init", B::BarrierInit},
        {"pthread_barrier_wait", B::BarrierWait},
        {"pthread_barrier_destroy", B::BarrierDestroy},
        {"pthread_barrierattr_init", B::Nop},
        {"pthread_barrierattr_destroy", B::Nop},
        {"pthread_barrierattr_setpshared", B::Nop},
        {"pthread_rwlock_init", B::RwInit},
        {"pthread_rwlock_destroy", B::RwDestroy},
        {"pthread_rwlock_rdlock", B::RwRdLock},
        {"pthread_rwlock_wrlock", B::RwWrLock},
        {"pthread_rwlock_tryrdlock", B::RwTryRdLock},
        {"pthread_rwlock_trywrlock", B::RwTryWrLock},
        {"pthread_rwlock_unlock", B::RwUnlock},
        {"pthread_rwlockattr_init", B::Nop},
        {"pthread_rwlockattr_destroy", B::Nop},
        {"pthread_spin_init", B::SpinInit},
        {"pthread_spin_destroy", B::SpinDestroy},
        {"pthread_spin_lock", B::SpinLock},
        {"pthread_spin_trylock", B::SpinTryLock},
        {"pthread_spin_unlock", B::SpinUnlock},
        {"pthread_equal", B::ThreadEqual},
        {"pthread_detach", B::Nop},
        {"thrd_create", B::ThrdCreate},
        {"thrd_join", B::ThrdJoin},
        {"thrd_exit", B::ThreadExit},
        {"thrd_current", B::ThreadSelf},
        {"thrd_equal", B::ThreadEqual},
        {"thrd_yield", B::Nop},
        {"thrd_sleep", B::Nop},
        {"thrd_detach", B::Nop},
        {"mtx_init", B::MtxInit},
        {"mtx_lock", B::MutexLock},
        {"mtx_trylock", B::MtxTryLock},
        {"mtx_unlock", B::MutexUnlock},
        {"mtx_destroy", B::MutexDestroy},
        {"cnd_init", B::CondInit},
        {"cnd_wait", B::CondWait},
        {"cnd_signal", B::CondSignal},
        {"cnd_broadcast", B::CondSignal},
        {"cnd_destroy", B::CondDestroy},
        {"aligned_alloc", B::AlignedAlloc},
        {"memalign", B::AlignedAlloc},
        // Lowered into several instructions (Lowerer::lowerExpansion); listed here so that the
        // escape analysis knows them.
        {"posix_memalign", B::AlignedAlloc},
        {"valloc", B::Malloc},
        {"pvalloc", B::Malloc},
        {"realloc", B::Malloc},
        {"strlen", B::Strlen},
        {"strcmp", B::Strcmp},
        {"memcmp", B::Memcmp},
        {"bcmp", B::Memcmp},
        {"__assert_fail", B::AssertFail},
        {"__assert_rtn", B::AssertFail},
        {"__assert", B::AssertFail},
        {"abort", B::Abort},
        {"exit", B::Exit},
        {"_exit", B::Exit},
        {"printf", B::Nop},
        {"puts", B::Nop},
        {"putchar", B::Nop},
        {"fprintf", B::Nop},
        {"fflush", B::Nop},
        {"fputs", B::Nop},
        {"sched_yield", B::Nop},
        {"pthread_yield", B::Nop},
        {"usleep", B::Nop},
        {"sleep", B::Nop},
        {"pthread_attr_init", B::Nop},
        {"pthread_attr_destroy", B::Nop},
        {"pthread_attr_setdetachstate", B::Nop},
        {"pthread_mutexattr_init", B::Nop},
        {"pthread_mutexattr_destroy", B::Nop},
        {"pthread_mutexattr_settype", B::Nop},
        {"pthread_condattr_init", B::Nop},
        {"pthread_condattr_destroy", B::Nop},
    };
    auto it = table.find(n);
    if (it != table.end()) return BuiltinCall{it->second};
    return std::nullopt;
}

// Built-ins whose pointer arguments become visible to other threads (their object must be
// shared): everything that synchronises.
bool builtinLetsEscape(Builtin b, unsigned argNo) {
    switch (b) {
        case Builtin::ThreadCreate:
            return argNo == 3;
        case Builtin::ThreadJoin:
        case Builtin::Malloc:
        case Builtin::Calloc:
        case Builtin::Memset:
        case Builtin::Memcpy:
        case Builtin::AssertFail:
        case Builtin::ReachError:
        case Builtin::Abort:
        case Builtin::Exit:
        case Builtin::Nondet:
        case Builtin::Assume:
        case Builtin::Nop:
        case Builtin::SMax:
        case Builtin::SMin:
        case Builtin::UMax:
        case Builtin::UMin:
        case Builtin::Abs:
        case Builtin::ThreadSelf:
        case Builtin::AtomicBegin:
        case Builtin::AtomicEnd:
        case Builtin::IterationBegin:
        case Builtin::PurityCheck:
        case Builtin::ThrdJoin:
        case Builtin::ThreadEqual:
        case Builtin::TlsAddress:
        case Builtin::AlignedAlloc:
        case Builtin::BlockSize:
        case Builtin::Strlen:
        case Builtin::Strcmp:
        case Builtin::Memcmp:
        case Builtin::Popcount:
        case Builtin::Clz:
        case Builtin::Ctz:
        case Builtin::Bswap:
        case Builtin::IterationStart:
        case Builtin::SpinAssume:
            return false;
        case Builtin::ThrdCreate:
            return argNo == 2;
        default:
            return true;
    }
}

}  // namespace porlab::cfront
