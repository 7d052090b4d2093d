// SPDX-License-Identifier: MIT
// porlab's one decoded form of a program, which the interpreter (CodeProgram.hpp) runs. The C
// front end (llvm/Lower.cpp) lowers LLVM IR to it: every function once into a flat instruction
// array whose operands are frame slots (>= 0) or module constants (< 0: constant ~x), with GEP
// offsets pre-computed, phis turned into parallel copies on edges, and calls bound to defined
// functions or to built-in handlers. Nothing here refers to LLVM.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "porlab/core/Event.hpp"

namespace porlab::code {

// Pointers are 64-bit values: 0 is null; (object << 32) | (base + offset) names a byte of a shared
// object (global, heap block, escaped stack variable) or a function, where `base` is the object's
// address in a 32-bit address space laid out as an allocator would (distinct, 16-aligned, object
// after object), so that a pointer truncated to an int is non-zero and differs between objects;
// decoding needs the object's base (CModule::staticBase for functions and globals, the execution's
// object table for dynamic objects). kLocalTag | offset is a byte of the running thread's private
// stack (stack variables whose address never escapes the thread, private thread-locals).
inline constexpr std::uint64_t kLocalTag = 1ULL << 62;
inline constexpr int kObjShift = 32;
inline constexpr std::uint64_t kOffMask = 0xffffffffULL;

// X(Enumerator, "name")
#define PORLAB_COPS(X)                                                                             \
    X(Mov, "mov")                /* a = b */                                                       \
    X(Bin, "bin")                /* a = b <sub:CBin> c, width w */                                 \
    X(Cmp, "cmp")                /* a = b <sub:CPred> c, width w */                                \
    X(CmpBr, "cmpbr")            /* a = b <sub:CPred> c, width w; pc = a ? d : imm (a cmp + br) */ \
    X(Select, "select")          /* a = b ? c : d */                                               \
    X(Cast, "cast")              /* a = <sub:CCast> b from width imm to width w */                 \
    X(PtrAdd, "ptradd")          /* a = b + imm + c * d(imm2) (c = -1: no index) */                \
    X(CastPtrAdd, "cast+ptradd") /* this cast, then the ptradd at pc + 1, in one dispatch */       \
    X(Jump, "jump")              /* pc = a */                                                      \
    X(Branch, "br")              /* pc = b ? a : c */                                              \
    X(Switch, "switch")   /* jump by b through the case table at imm (n = c cases), default a */   \
    X(ParCopy, "parcopy") /* copy pairs [imm, imm + c) of the copy table at once */                \
    X(LoopEnter, "loopenter") /* a loop entered: slots a..a+3 = 0, iteration start (see below) */  \
    X(LoopBack, "loopback")   /* a jump back: livelock check; slot a >= imm >= 0: blocked (loop    \
                                 bound); else a += 1 and a+1..a+3 = the new iteration's start */   \
    X(Call, "call")           /* a = function imm (args table [b, b + c)) */                       \
    X(CallPtr, "callptr")     /* a = function pointed to by d (args table [b, b + c)) */           \
    X(Ret, "ret")             /* return b (-1: void) */                                            \
    X(AllocaLocal, "alloca")  /* a = private stack block of imm bytes (* c if c >= 0) */           \
    X(AllocaShared, "alloca.shared") /* a = new shared object of imm bytes (* c if c >= 0) */      \
    X(Load, "load")                  /* a = *b (w bits) */                                         \
    X(Store, "store")     /* *b = c (w bits); imm2 & 1: SAVER may ignore it in a private block */  \
    X(Rmw, "rmw")         /* a = *b; *b = *b <sub:CRmw> c; imm2 & 1: SAVER zne candidate */        \
    X(CmpXchg, "cmpxchg") /* a = *b; a+1 = (*b == c); if so *b = d */                              \
    X(Builtin, "builtin") /* a = builtin sub (args table [b, b + c)); assert: imm - 1 = text */    \
    X(Unreachable, "unreachable")

enum class COp : std::uint8_t {
#define PORLAB_X(e, s) e,
    PORLAB_COPS(PORLAB_X)
#undef PORLAB_X
};

inline constexpr std::string_view kCOpNames[] = {
#define PORLAB_X(e, s) s,
    PORLAB_COPS(PORLAB_X)
#undef PORLAB_X
};

// Bits of CInstr::imm2 on memory accesses (Load, Store, Rmw, CmpXchg).
inline constexpr std::int64_t kAccessMarked = 1;   // Store: SAVER's private store; Rmw: zne
inline constexpr std::int64_t kAccessPointer = 2;  // the value accessed is a pointer (display)

enum class CBin : std::uint8_t {
    Add,
    Sub,
    Mul,
    UDiv,
    SDiv,
    URem,
    SRem,
    And,
    Or,
    Xor,
    Shl,
    LShr,
    AShr
};
enum class CPred : std::uint8_t { Eq, Ne, Ugt, Uge, Ult, Ule, Sgt, Sge, Slt, Sle };
enum class CCast : std::uint8_t { Trunc, ZExt, SExt };
// Xchg, then the fetch-and-op operations in the order of RmwOp (kRmwOfCRmw maps them).
enum class CRmw : std::uint8_t {
    Xchg,
    Add,
    Sub,
    And,
    Or,
    Xor,
    Max,
    Min,
    Nand,
    UMax,
    UMin,
    UIncWrap,
    UDecWrap
};
inline constexpr RmwOp kRmwOfCRmw[] = {
    RmwOp::Add, RmwOp::Add,  RmwOp::Sub,  RmwOp::And,  RmwOp::Or,       RmwOp::Xor,     RmwOp::Max,
    RmwOp::Min, RmwOp::Nand, RmwOp::UMax, RmwOp::UMin, RmwOp::UIncWrap, RmwOp::UDecWrap};

// Library functions and intrinsics porlab implements (docs/supported-c.md lists them).
#define PORLAB_BUILTINS(X)                                                                        \
    X(Malloc, "malloc")                                                                           \
    X(Calloc, "calloc")                                                                           \
    X(Free, "free")                                                                               \
    X(Memset, "memset")                                                                           \
    X(Memcpy, "memcpy")                                                                           \
    X(ThreadCreate, "pthread_create")                                                             \
    X(ThreadJoin, "pthread_join")                                                                 \
    X(ThreadExit, "pthread_exit")                                                                 \
    X(ThreadSelf, "pthread_self")                                                                 \
    X(MutexInit, "pthread_mutex_init")                                                            \
    X(MutexLock, "pthread_mutex_lock")                                                            \
    X(MutexTryLock, "pthread_mutex_trylock")                                                      \
    X(MutexUnlock, "pthread_mutex_unlock")                                                        \
    X(MutexDestroy, "pthread_mutex_destroy")                                                      \
    X(CondInit, "pthread_cond_init")                                                              \
    X(CondWait, "pthread_cond_wait")                                                              \
    X(CondSignal, "pthread_cond_signal")                                                          \
    X(CondDestroy, "pthread_cond_destroy")                                                        \
    X(BarrierInit, "pthread_barrier_init")                                                        \
    X(BarrierWait, "pthread_barrier_wait")                                                        \
    X(RwRdLock, "pthread_rwlock_rdlock")                                                          \
    X(RwWrLock, "pthread_rwlock_wrlock")                                                          \
    X(RwTryRdLock, "pthread_rwlock_tryrdlock")                                                    \
    X(RwTryWrLock, "pthread_rwlock_trywrlock")                                                    \
    X(RwUnlock, "pthread_rwlock_unlock")                                                          \
    X(SpinLock, "pthread_spin_lock")                                                              \
    X(SpinTryLock, "pthread_spin_trylock")                                                        \
    X(SpinUnlock, "pthread_spin_unlock")                                                          \
    X(ThrdCreate, "thrd_create")                                                                  \
    X(ThrdJoin, "thrd_join")                                                                      \
    X(MtxInit, "mtx_init")                                                                        \
    X(MtxTryLock, "mtx_trylock")                                                                  \
    X(SpinInit, "pthread_spin_init")                                                              \
    X(SpinDestroy, "pthread_spin_destroy")                                                        \
    X(RwInit, "pthread_rwlock_init")                                                              \
    X(RwDestroy, "pthread_rwlock_destroy")                                                        \
    X(BarrierDestroy, "pthread_barrier_destroy")                                                  \
    X(ThreadEqual, "pthread_equal")                                                               \
    X(TlsAddress, "(address of a thread-local variable)") /* imm: the global */                   \
    X(AlignedAlloc, "aligned_alloc")                      /* (alignment, size) */                 \
    X(BlockSize, "(size of a heap block)")                /* realloc: 0 for NULL */               \
    X(Strlen, "strlen")                                                                           \
    X(Strcmp, "strcmp")                                                                           \
    X(Memcmp, "memcmp")                                                                           \
    X(Popcount, "__builtin_popcount")                                                             \
    X(Clz, "__builtin_clz") /* (value, zero-is-poison) */                                         \
    X(Ctz, "__builtin_ctz")                                                                       \
    X(Bswap, "__builtin_bswap")                                                                   \
    X(AssertFail, "__assert_fail")                                                                \
    X(ReachError, "reach_error")                                                                  \
    X(Abort, "abort")                                                                             \
    X(Exit, "exit")                                                                               \
    X(Nondet, "__VERIFIER_nondet_*")                                                              \
    X(Assume, "__VERIFIER_assume")                                                                \
    X(AtomicBegin, "__VERIFIER_atomic_begin")                                                     \
    X(AtomicEnd, "__VERIFIER_atomic_end")                                                         \
    X(LoadAwait, "__VERIFIER_load_await_*")                                                       \
    X(XchgAwait, "__VERIFIER_xchg_await_*")                                                       \
    X(IterationBegin, "__porlab_iteration_begin") /* SAVER: the thread's effect count */          \
    X(PurityCheck, "__porlab_purity_check") /* SAVER: block if no effect since the count (arg 0); \
                                               arg 1: the iteration's start (marker operand) */   \
    X(IterationStart,                                                                             \
      "__porlab_iteration_start")         /* the Event::index of the thread's next event */       \
    X(SpinAssume, "__porlab_spin_assume") /* an assume a loop reduction inserted: block if arg 0  \
                                             is 0 (cause spin-loop, operand arg 1) */             \
    X(Nop, "(no effect)")                                                                         \
    X(SMax, "llvm.smax")                                                                          \
    X(SMin, "llvm.smin")                                                                          \
    X(UMax, "llvm.umax")                                                                          \
    X(UMin, "llvm.umin")                                                                          \
    X(Abs, "llvm.abs")                                                                            \
    X(Fault, "(fault)")         /* builder programs: the thread faults (imm: the FaultKind) */    \
    X(Block, "(block)")         /* builder programs: the thread blocks (imm: the BlockCause) */   \
    X(SpawnThread, "(spawn)")   /* builder programs: start thread imm (a Spawn event) */          \
    X(JoinThread, "(join)")     /* builder programs: wait for thread imm to finish */             \
    X(FinishThread, "(finish)") /* builder programs: the thread ends, its registers stay */

enum class Builtin : std::uint8_t {
#define PORLAB_X(e, s) e,
    PORLAB_BUILTINS(PORLAB_X)
#undef PORLAB_X
};

inline constexpr std::string_view kBuiltinNames[] = {
#define PORLAB_X(e, s) s,
    PORLAB_BUILTINS(PORLAB_X)
#undef PORLAB_X
};

struct CInstr {
    COp op = COp::Unreachable;
    std::uint8_t sub = 0;
    std::uint8_t w = 64;     // width in bits of the operation / access
    bool resultUsed = true;  // Rmw: is the old value used (IFAA)
    // Load, Store, the await a loop reduction made of a load: a non-atomic access (no atomic
    // ordering; volatile is not atomic), which data races are made of.
    bool plain = false;
    std::int32_t a = -1, b = -1, c = -1, d = -1;
    // Where local execution goes on after this instruction when it does not jump: pc + 1, or
    // the target of the jump at pc + 1 (set by the lowering for every instruction).
    std::int32_t next = -1;
    // The shared location this instruction always accesses (its address is a constant pointer
    // to a cell of a global; CodeProgram resolves it once), -1 if none: Load, Store, Rmw,
    // CmpXchg, and the mutex / await built-ins on their first argument.
    std::int32_t loc = -1;
    std::int64_t imm = 0;
    std::int64_t imm2 = 0;
    SourcePos pos;
};

struct CFunction {
    std::string name;
    std::int32_t numParams = 0;  // parameters occupy slots [0, numParams)
    std::int32_t numSlots = 0;
    // Slots [0, stateSlots) are the frame's registers; [stateSlots, numSlots) are bookkeeping that
    // does not steer the program (loop counters and iteration starts, LoopEnter/LoopBack: four
    // slots per loop, the counter of jumps back, then the thread's Event::index, effect count and
    // the steps of other threads at the last visit of the header; results of
    // __porlab_iteration_start/begin). A livelock is a header state that repeats in the former.
    std::int32_t stateSlots = 0;
    bool atomic = false;  // __VERIFIER_atomic_*: runs under the atomic-section lock
    bool defined = false;
    std::vector<CInstr> code;
    std::vector<std::int32_t> args;                             // call argument operands
    std::vector<std::pair<std::int32_t, std::int32_t>> copies;  // (dst slot, src operand)
    std::vector<std::pair<std::int64_t, std::int32_t>> cases;   // (value, target pc)
};

// A cell of a global: one scalar at a byte offset, with its initial value.
struct CGlobalCell {
    std::uint32_t offset = 0;
    std::uint8_t size = 0;
    bool mutex = false;
    Value init = 0;
    std::string name;  // "x", "a[3]", "s.f"
};

struct CGlobal {
    std::string name;
    std::string displayName;  // the program's name for it (debug info), for pointers to it
    // Display of pointers into it: (offset, name) of every struct it is or contains (the global,
    // array elements, members), outermost first, in offset order ("nodes[1]" at 16).
    std::vector<std::pair<std::uint32_t, std::string>> parts;
    std::uint32_t size = 0;
    bool constant = false;            // never written: accessed without events
    std::vector<std::uint8_t> bytes;  // initial contents (constants are read from here)
    std::vector<CGlobalCell> cells;   // the shared locations (non-constant globals)
    // _Thread_local / __thread: one copy per thread, never accessed through this object. A
    // thread-local whose address may reach another thread (tlsOffset -1) gets a shared object per
    // thread (Builtin::TlsAddress); the others live at tlsOffset in every thread's private area.
    bool tls = false;
    std::int32_t tlsOffset = -1;
};

struct CModule {
    std::vector<CFunction> functions;  // object id of function f: 1 + f
    std::vector<CGlobal> globals;      // object id of global g: 1 + functions.size() + g
    std::vector<Value> constants;      // operand x < 0 reads constants[~x]
    std::vector<std::string> files{""};
    std::int32_t mainFunction = -1;
    std::int64_t atomicLockObject = 0;     // the mutex of __VERIFIER_atomic sections (0: none)
    std::vector<std::string> allocaNames;  // AllocaShared imm2 -> variable name
    // What a failed assertion says (Builtin AssertFail / ReachError: imm - 1), e.g.
    // "assertion `x == 1' failed"; ProgramInfo::messages of the program.
    std::vector<std::string> messages;
    // The private area every thread starts with: its private thread-locals, initialised.
    std::vector<std::uint8_t> tlsTemplate;
    // Low 32 bits of the address of byte 0 of each function and global (by object id; 0 with
    // 32-bit pointers), and where dynamic objects (heap, escaped stack, shared thread-locals)
    // start.
    std::vector<std::uint64_t> staticBase;
    std::uint64_t dynamicBase = 0;
    // Pointer encoding (see kObjShift): 64-bit targets use the constants above; 32-bit targets
    // (-m32), whose pointers are stored in 4 bytes, use bit 31 as the private-stack tag, bits
    // 20..30 for the object and 20 bits of offset.
    int objShift = kObjShift;
    std::uint64_t localTag = kLocalTag;
    std::uint64_t offMask = kOffMask;
    std::int64_t maxObjects = std::int64_t{1} << 29;
    unsigned ptrBytes = 8;  // sizeof(void *), sizeof(pthread_t)
    bool lowBits = true;    // objects have bases (64-bit targets)
    void useThirtyTwoBitPointers() {
        lowBits = false;
        ptrBytes = 4;
        objShift = 20;
        localTag = std::uint64_t{1} << 31;
        offMask = (std::uint64_t{1} << 20) - 1;
        maxObjects = std::int64_t{1} << 11;
    }
    std::vector<std::string> warnings;
    // Builder programs (SpecLowering): thread t runs function threadFunctions[t] (its ids are
    // fixed, not given by pthread_create) and starts by itself if autostart[t]; empty for C
    // programs, whose thread 0 runs mainFunction.
    std::vector<std::int32_t> threadFunctions;
    std::vector<bool> autostart;
    // Builder programs: the initial values of each thread's registers (register r is slot r of
    // its function when regWritten[t][r], else a constant), for outcomes in the builder's form
    // (memory, then each thread's status and registers; CodeExecution::outcome).
    std::vector<std::vector<Value>> regInit;
    std::vector<std::vector<std::uint8_t>> regWritten;
    // The first call that destroys a mutex (pthread_mutex_destroy, mtx_destroy, spin and
    // read-write lock destroys; line 0: none): ProgramInfo::mutexDestroy.
    SourcePos mutexDestroy;
    // Some non-atomic access (load, store, memcpy, memset) may reach memory other threads can
    // see: the Reporter then checks traces for data races (ProgramInfo::plainAccesses).
    bool plainAccesses = false;
    // Pointer to byte 0 of an object whose base (low address bits) is `base`.
    [[nodiscard]] std::uint64_t pointer(std::int64_t obj, std::uint64_t base) const {
        return (static_cast<std::uint64_t>(obj) << objShift) | base;
    }

    [[nodiscard]] std::int64_t functionObject(std::size_t f) const {
        return static_cast<std::int64_t>(1 + f);
    }
    [[nodiscard]] std::int64_t globalObject(std::size_t g) const {
        return static_cast<std::int64_t>(1 + functions.size() + g);
    }
    [[nodiscard]] std::int64_t firstDynamicObject() const {
        return static_cast<std::int64_t>(1 + functions.size() + globals.size());
    }
};

[[nodiscard]] std::string disassemble(const CModule& m);

// Does every critical section of m end: from every lock, does every path reach the unlock of
// its mutex without anything that may block, fault, loop or end the thread on the way
// (SectionsEnd.cpp; conservative: false when unsure)? ProgramInfo::sectionsEnd.
[[nodiscard]] bool criticalSectionsEnd(const CModule& m);

}  // namespace porlab::code

// The C front end (llvm/) builds the decoded form and refers to it unqualified.
namespace porlab::cfront {
using namespace porlab::code;  // NOLINT(google-build-using-namespace)
}  // namespace porlab::cfront
