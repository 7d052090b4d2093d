// SPDX-License-Identifier: MIT
// Lowering: every defined function becomes a flat array of CInstr. Operands are frame slots or
// module constants, GEPs are offsets, phis are parallel copies on edges, loop bounds are counter
// checks on back edges, calls are bound to functions or built-ins. Anything porlab does not
// implement is reported here, at load time, with its source line.
#include "porlab/llvm/Lower.hpp"

#include <llvm/ADT/MapVector.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/BinaryFormat/Dwarf.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DebugInfo.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <unordered_map>

#include "porlab/core/Errors.hpp"
#include "porlab/llvm/Cxx.hpp"

namespace porlab::cfront {

namespace {

std::int64_t normalize(std::int64_t v, unsigned w) {
    if (w >= 64) return v;
    if (w == 1) return v & 1;
    const auto sh = 64U - w;
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(v) << sh) >> sh;
}

struct BuiltinCall {
    Builtin b;
    bool mov = false;  // llvm.expect: the result is the first argument
    bool skip = false; // debug intrinsics: no instruction at all
};

bool startsWith(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

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
    case Builtin::ThreadCreate: return argNo == 3;
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
    case Builtin::ThrdCreate: return argNo == 2;
    default: return true;
    }
}

class Lowerer {
public:
    Lowerer(const llvm::Module& m, const CLoadOptions& o, CModule& out)
        : m_(m), dl_(m.getDataLayout()), opts_(o), out_(out) {}

    void run() {
        // Constant k is operand ~k, and operand -1 means "none" (a void return, no array size):
        // constant 0 is a placeholder no operand refers to (else `return 5` could return nothing).
        out_.constants.push_back(0);
        if (dl_.getPointerSize() == 4)
            out_.useThirtyTwoBitPointers();  // -m32 (SV-COMP's .i files)
        else if (dl_.getPointerSize() != 8)
            throw UnsupportedError(m_.getSourceFileName() + ": only 32- and 64-bit targets are supported");
        for (const llvm::Function& f : m_) {
            if (f.isIntrinsic()) continue;
            funcIndex_[&f] = static_cast<std::int32_t>(out_.functions.size());
            CFunction cf;
            cf.name = f.getName().str();
            cf.defined = !f.isDeclaration();
            cf.atomic = cf.defined && startsWith(cf.name, "__VERIFIER_atomic_") &&
                        cf.name != "__VERIFIER_atomic_begin" && cf.name != "__VERIFIER_atomic_end";
            cf.numParams = static_cast<std::int32_t>(f.arg_size());
            out_.functions.push_back(std::move(cf));
            if (f.getName() == "main" && !f.isDeclaration()) out_.mainFunction = funcIndex_[&f];
        }
        if (out_.mainFunction < 0) throw InputError(m_.getSourceFileName() + ": no main function");
        for (const llvm::GlobalVariable& g : m_.globals()) {
            globalIndex_[&g] = static_cast<std::int32_t>(out_.globals.size());
            out_.globals.emplace_back();
        }
        layOutStaticObjects();
        for (const llvm::GlobalVariable& g : m_.globals()) lowerGlobal(g);
        computeEscapes();
        placeThreadLocals();
        for (const llvm::Function& f : m_)
            if (!f.isDeclaration()) lowerFunction(f);
        out_.dynamicBase = out_.lowBits ? alignUp(nextBase_, std::uint64_t{1} << 16) : 0;
        if (nonScCount_ > 0)
            out_.warnings.push_back(
                "the program uses memory orders weaker than seq_cst (" + std::to_string(nonScCount_) +
                " atomic access" + (nonScCount_ > 1 ? "es or fences" : " or fence") + ", the first at " +
                firstNonSc_ + "): porlab explores every atomic as sequentially consistent, so "
                "behaviours that only weak memory allows are not explored");
    }

    // ---- addresses -----------------------------------------------------------------------------
    // Functions and globals get bases (low 32 address bits) one after the other, from 0x1000 (a
    // real program leaves page 0 unmapped), each aligned to at least 16 bytes.

    static std::uint64_t alignUp(std::uint64_t x, std::uint64_t a) { return (x + a - 1) / a * a; }

    std::uint64_t nextStaticBase(std::uint64_t size, std::uint64_t align) {
        if (!out_.lowBits) return 0;
        align = std::max<std::uint64_t>(align, 16);
        std::uint64_t b = alignUp(nextBase_, align);
        // base + size must stay below 2^32 (the offset must not carry into the object bits);
        // beyond that the low bits of objects repeat (a program with gigabytes of globals).
        if (b + size + 16 >= (std::uint64_t{1} << 32)) b = alignUp(0x1000, align);
        nextBase_ = b + std::max<std::uint64_t>(size, 1) + 16;
        return b;
    }

    void layOutStaticObjects() {
        out_.staticBase.assign(static_cast<std::size_t>(out_.firstDynamicObject()), 0);
        for (std::size_t f = 0; f < out_.functions.size(); ++f)
            out_.staticBase[static_cast<std::size_t>(out_.functionObject(f))] = nextStaticBase(16, 16);
        for (const llvm::GlobalVariable& gv : m_.globals()) {
            const std::uint64_t size = gv.getValueType()->isSized()
                                           ? dl_.getTypeAllocSize(gv.getValueType()).getFixedValue()
                                           : 0;
            out_.staticBase[static_cast<std::size_t>(out_.globalObject(
                static_cast<std::size_t>(globalIndex_.at(&gv))))] =
                nextStaticBase(size, gv.getAlign() ? gv.getAlign()->value() : 16);
        }
    }

    // ---- thread-local storage -------------------------------------------------------------------
    // A thread-local whose address cannot reach another thread lives in each thread's private
    // area (no events: only its thread can touch it); one whose address may escape gets a shared
    // object per thread, created by the thread's first use (Builtin::TlsAddress).

    void placeThreadLocals() {
        for (const llvm::GlobalVariable& gv : m_.globals()) {
            if (!gv.isThreadLocal()) continue;
            CGlobal& g = out_.globals[static_cast<std::size_t>(globalIndex_.at(&gv))];
            bool escaped = false;
            for (const llvm::User* u : gv.users()) {
                auto* call = llvm::dyn_cast<llvm::CallInst>(u);
                const llvm::Function* cf = call ? call->getCalledFunction() : nullptr;
                if (!cf || !startsWith(cf->getName().str(), "llvm.threadlocal.address")) {
                    escaped = true;  // (no other use reaches the lowering: pointerTo rejects it)
                    continue;
                }
                std::set<const llvm::Value*> seen;
                if (escapes(call, seen)) escaped = true;
            }
            if (escaped) continue;
            const std::uint64_t align = std::max<std::uint64_t>(gv.getAlign() ? gv.getAlign()->value() : 8, 8);
            const std::uint64_t off = alignUp(out_.tlsTemplate.size(), align);
            if (off + g.size > (std::uint64_t{1} << 24))
                throw UnsupportedError("thread-local variable '" + g.name + "' is too large");
            out_.tlsTemplate.resize(off + g.size, 0);
            std::copy(g.bytes.begin(), g.bytes.end(),
                      out_.tlsTemplate.begin() + static_cast<std::ptrdiff_t>(off));
            g.tlsOffset = static_cast<std::int32_t>(off);
        }
        out_.tlsTemplate.resize(alignUp(out_.tlsTemplate.size(), 16), 0);
    }

private:
    // ---- source positions --------------------------------------------------------------------

    std::uint32_t fileId(const std::string& name) {
        auto it = files_.find(name);
        if (it != files_.end()) return it->second;
        const auto id = static_cast<std::uint32_t>(out_.files.size());
        out_.files.push_back(name);
        files_[name] = id;
        return id;
    }

    SourcePos posOf(const llvm::Instruction& i) {
        const llvm::DebugLoc& dl = i.getDebugLoc();
        if (!dl) return curFnPos_;
        SourcePos p;
        p.line = dl.getLine();
        if (auto* scope = llvm::dyn_cast_or_null<llvm::DIScope>(dl.getScope()))
            p.file = fileId(scope->getFilename().str());
        return p;
    }

    std::string where(const llvm::Instruction& i) {
        SourcePos p = posOf(i);
        if (!i.getDebugLoc() && llvm::isa<llvm::IndirectBrInst>(i))  // clang's shared goto block:
            for (const llvm::BasicBlock* pred : llvm::predecessors(i.getParent()))  // the goto's line
                if (pred->getTerminator()->getDebugLoc()) {
                    p = posOf(*pred->getTerminator());
                    break;
                }
        std::ostringstream o;
        if (p.line) o << out_.files[p.file] << ":" << p.line << ": ";
        else o << m_.getSourceFileName() << ": in function '" << i.getFunction()->getName().str()
               << "': ";
        return o.str();
    }

    // What porlab does not implement, in C terms (messages name no LLVM instruction).
    static std::string typeName(const llvm::Type* t) {
        if (t->isVectorTy()) return "vector values";
        if (t->isStructTy() || t->isArrayTy())
            return "struct or array values (passed, returned or assigned as a whole)";
        if (t->isX86_FP80Ty() || t->isFP128Ty() || t->isPPC_FP128Ty()) return "long double";
        if (t->isHalfTy() || t->isBFloatTy()) return "half-precision floating point";
        if (t->isIntegerTy()) return "integers wider than 64 bits";
        return "values of this type";
    }

    static std::string construct(const llvm::Instruction& i) {
        using I = llvm::Instruction;
        switch (i.getOpcode()) {
        case I::FAdd:
        case I::FSub:
        case I::FMul:
        case I::FDiv:
        case I::FRem:
        case I::FNeg: return "floating-point arithmetic";
        case I::FCmp: return "floating-point comparison";
        case I::FPToSI:
        case I::FPToUI:
        case I::SIToFP:
        case I::UIToFP: return "conversion between integers and floating point";
        case I::FPExt:
        case I::FPTrunc: return "conversion between floating-point types";
        case I::VAArg: return "va_arg (a variadic function defined by the program)";
        case I::ExtractElement:
        case I::InsertElement:
        case I::ShuffleVector: return "vector values";
        case I::ExtractValue:
        case I::InsertValue: return "struct or array values (passed, returned or assigned as a whole)";
        case I::IndirectBr: return "computed goto (goto *p)";
        case I::CallBr: return "asm goto";
        case I::Invoke:
        case I::LandingPad:
        case I::Resume:
        case I::CatchSwitch:
        case I::CatchPad:
        case I::CatchRet:
        case I::CleanupPad:
        case I::CleanupRet: return "exceptions";
        default: return std::string("this construct (compiled to '") + i.getOpcodeName() + "')";
        }
    }

    [[noreturn]] void unsupported(const llvm::Instruction& i, const std::string& what) {
        throw UnsupportedError(where(i) + what + " is not supported");
    }

    // ---- constants -----------------------------------------------------------------------------

    std::int64_t pointerTo(const llvm::GlobalValue* gv) {
        if (auto* f = llvm::dyn_cast<llvm::Function>(gv)) {
            auto it = funcIndex_.find(f);
            if (it == funcIndex_.end())
                throw UnsupportedError("address of intrinsic " + f->getName().str());
            const auto obj = out_.functionObject(static_cast<std::size_t>(it->second));
            return static_cast<std::int64_t>(
                out_.pointer(obj, out_.staticBase[static_cast<std::size_t>(obj)]));
        }
        if (auto* g = llvm::dyn_cast<llvm::GlobalVariable>(gv)) {
            if (g->isThreadLocal())
                throw UnsupportedError("the address of the thread-local variable '" +
                                       g->getName().str() + "' in a constant");
            const auto obj = out_.globalObject(static_cast<std::size_t>(globalIndex_.at(g)));
            return static_cast<std::int64_t>(
                out_.pointer(obj, out_.staticBase[static_cast<std::size_t>(obj)]));
        }
        if (auto* a = llvm::dyn_cast<llvm::GlobalAlias>(gv))
            return constValue(a->getAliasee());
        throw UnsupportedError("global value " + gv->getName().str());
    }

    std::int64_t constValue(const llvm::Constant* c) {
        if (auto* ci = llvm::dyn_cast<llvm::ConstantInt>(c)) {
            const unsigned w = ci->getBitWidth();
            if (w > 64) throw UnsupportedError("integer constant wider than 64 bits");
            return normalize(static_cast<std::int64_t>(ci->getZExtValue()), w);
        }
        if (llvm::isa<llvm::ConstantPointerNull>(c) || llvm::isa<llvm::UndefValue>(c) ||
            llvm::isa<llvm::ConstantAggregateZero>(c))
            return 0;
        if (auto* fp = llvm::dyn_cast<llvm::ConstantFP>(c))
            return static_cast<std::int64_t>(fp->getValueAPF().bitcastToAPInt().getZExtValue());
        if (auto* gv = llvm::dyn_cast<llvm::GlobalValue>(c)) return pointerTo(gv);
        if (auto* ce = llvm::dyn_cast<llvm::ConstantExpr>(c)) {
            switch (ce->getOpcode()) {
            case llvm::Instruction::GetElementPtr: {
                auto* gep = llvm::cast<llvm::GEPOperator>(ce);
                llvm::APInt off(64, 0);
                if (!gep->accumulateConstantOffset(dl_, off))
                    throw UnsupportedError("a constant address porlab cannot compute");
                return constValue(llvm::cast<llvm::Constant>(gep->getPointerOperand())) +
                       off.getSExtValue();
            }
            case llvm::Instruction::BitCast:
            case llvm::Instruction::AddrSpaceCast:
            case llvm::Instruction::IntToPtr:
                return constValue(ce->getOperand(0));
            case llvm::Instruction::PtrToInt:
            case llvm::Instruction::Trunc:
                if (ce->getType()->isIntegerTy() && ce->getType()->getIntegerBitWidth() <= 64)
                    return normalize(constValue(ce->getOperand(0)), ce->getType()->getIntegerBitWidth());
                break;
            case llvm::Instruction::ZExt:
            case llvm::Instruction::SExt: {
                const auto* from = ce->getOperand(0)->getType();
                if (!from->isIntegerTy() || from->getIntegerBitWidth() > 64) break;
                const unsigned fw = from->getIntegerBitWidth();
                const std::int64_t v = constValue(ce->getOperand(0));
                if (ce->getOpcode() == llvm::Instruction::SExt) return v;
                return fw >= 64 ? v : static_cast<std::int64_t>(static_cast<std::uint64_t>(v) & ((1ULL << fw) - 1));
            }
            // Integer arithmetic on constant addresses, e.g. container_of's
            // `p - offsetof(T, f)`: `sub (0, ptrtoint (gep null, ...))`.
            case llvm::Instruction::Add:
            case llvm::Instruction::Sub:
            case llvm::Instruction::Mul:
            case llvm::Instruction::Xor:
            case llvm::Instruction::Shl: {
                if (!ce->getType()->isIntegerTy() || ce->getType()->getIntegerBitWidth() > 64) break;
                const auto a = static_cast<std::uint64_t>(constValue(ce->getOperand(0)));
                const auto b = static_cast<std::uint64_t>(constValue(ce->getOperand(1)));
                std::uint64_t r = 0;
                switch (ce->getOpcode()) {
                case llvm::Instruction::Add: r = a + b; break;
                case llvm::Instruction::Sub: r = a - b; break;
                case llvm::Instruction::Mul: r = a * b; break;
                case llvm::Instruction::Xor: r = a ^ b; break;
                default: r = b >= 64 ? 0 : a << b; break;
                }
                return normalize(static_cast<std::int64_t>(r), ce->getType()->getIntegerBitWidth());
            }
            default: break;
            }
        }
        if (llvm::isa<llvm::BlockAddress>(c)) throw UnsupportedError("the address of a label (&&label)");
        if (c->getType()->isVectorTy()) throw UnsupportedError("vector values");
        throw UnsupportedError("a constant expression porlab cannot evaluate");
    }

    std::int32_t constOperand(std::int64_t v) {
        auto it = constIndex_.find(v);
        if (it != constIndex_.end()) return it->second;
        const auto idx = static_cast<std::int32_t>(out_.constants.size());
        out_.constants.push_back(v);
        const std::int32_t op = ~idx;
        constIndex_[v] = op;
        return op;
    }

    // Bytes of a constant initializer at buf (little-endian, pointers as porlab pointers).
    void writeConst(const llvm::Constant* c, std::uint8_t* buf) {
        llvm::Type* t = c->getType();
        if (c->isNullValue() || llvm::isa<llvm::UndefValue>(c)) return;  // zeros
        if (auto* cds = llvm::dyn_cast<llvm::ConstantDataSequential>(c)) {
            llvm::StringRef raw = cds->getRawDataValues();
            std::memcpy(buf, raw.data(), raw.size());
            return;
        }
        if (auto* ca = llvm::dyn_cast<llvm::ConstantArray>(c)) {
            const auto stride = dl_.getTypeAllocSize(ca->getType()->getElementType()).getFixedValue();
            for (unsigned i = 0; i < ca->getNumOperands(); ++i)
                writeConst(ca->getOperand(i), buf + i * stride);
            return;
        }
        if (auto* cs = llvm::dyn_cast<llvm::ConstantStruct>(c)) {
            const llvm::StructLayout* sl = dl_.getStructLayout(cs->getType());
            for (unsigned i = 0; i < cs->getNumOperands(); ++i)
                writeConst(cs->getOperand(i), buf + sl->getElementOffset(i).getFixedValue());
            return;
        }
        if (t->isIntegerTy() || t->isPointerTy() || t->isFloatingPointTy()) {
            const std::int64_t v = constValue(c);
            const auto n = dl_.getTypeStoreSize(t).getFixedValue();
            std::memcpy(buf, &v, std::min<std::uint64_t>(n, 8));
            return;
        }
        throw UnsupportedError("the initializer of a global of " + typeName(t));
    }

    // ---- globals -------------------------------------------------------------------------------

    static const llvm::DIType* stripTypedefs(const llvm::DIType* t) {
        while (auto* d = llvm::dyn_cast_or_null<llvm::DIDerivedType>(t)) {
            const auto tag = d->getTag();
            if (tag != llvm::dwarf::DW_TAG_typedef && tag != llvm::dwarf::DW_TAG_const_type &&
                tag != llvm::dwarf::DW_TAG_volatile_type && tag != llvm::dwarf::DW_TAG_atomic_type)
                break;
            t = d->getBaseType();
        }
        return t;
    }

    // The name of the field at `offsetBits` of a struct: ".member"; C++: nothing for a base
    // class subobject (its members are named as the class's own) and for the one member of a
    // libstdc++ wrapper (`_M_i` of std::atomic, `_M_mutex` of std::mutex), so that a global
    // `std::atomic<int> x` is the location `x`.
    static void fieldName(const llvm::DICompositeType* comp, std::uint64_t offsetBits, bool only,
                          std::string& fname, const llvm::DIType*& fdi) {
        const llvm::DIDerivedType* base = nullptr;
        for (const llvm::DINode* e : comp->getElements()) {
            auto* mem = llvm::dyn_cast<llvm::DIDerivedType>(e);
            if (!mem || mem->getOffsetInBits() != offsetBits) continue;
            if (mem->getTag() == llvm::dwarf::DW_TAG_member && !mem->isStaticMember()) {
                const std::string n = mem->getName().str();
                fname = only && n.rfind("_M_", 0) == 0 ? "" : "." + n;
                fdi = mem->getBaseType();
                return;
            }
            if (mem->getTag() == llvm::dwarf::DW_TAG_inheritance && !base) base = mem;
        }
        if (base) {
            fname = "";
            fdi = base->getBaseType();
        }
    }

    void cellsOf(CGlobal& g, llvm::Type* t, std::uint64_t off, const std::string& name,
                 const llvm::DIType* di) {
        if (auto* td = llvm::dyn_cast_or_null<llvm::DIDerivedType>(di);
            td && td->getTag() == llvm::dwarf::DW_TAG_typedef && td->getName() == "pthread_spinlock_t" &&
            t->isIntegerTy()) {  // a spin lock is a mutex of its own size
            CGlobalCell cell;
            cell.offset = static_cast<std::uint32_t>(off);
            cell.size = static_cast<std::uint8_t>(dl_.getTypeStoreSize(t).getFixedValue());
            cell.mutex = true;
            cell.name = name;
            g.cells.push_back(cell);
            return;
        }
        di = stripTypedefs(di);
        if (auto* st = llvm::dyn_cast<llvm::StructType>(t)) {
            const std::string sn = st->hasName() ? st->getName().str() : "";
            const auto size = dl_.getTypeAllocSize(t).getFixedValue();
            if (startsWith(sn, "union.pthread_mutex_t") || startsWith(sn, "union.pthread_cond_t") ||
                startsWith(sn, "union.mtx_t") || startsWith(sn, "union.cnd_t")) {
                CGlobalCell cell;
                cell.offset = static_cast<std::uint32_t>(off);
                cell.size = static_cast<std::uint8_t>(std::min<std::uint64_t>(size, 255));
                cell.mutex = startsWith(sn, "union.pthread_mutex_t") || startsWith(sn, "union.mtx_t");
                cell.name = name;
                g.cells.push_back(cell);
                return;
            }
            // A read-write lock: a mutex (writers, and readers while they register) and a
            // reader count; a barrier: one word (CProgram.cpp, rwlock and barrier built-ins).
            if (startsWith(sn, "union.pthread_rwlock_t") || startsWith(sn, "union.pthread_barrier_t")) {
                const bool rw = startsWith(sn, "union.pthread_rwlock_t");
                CGlobalCell cell;
                cell.offset = static_cast<std::uint32_t>(off);
                cell.size = 8;
                cell.mutex = rw;
                cell.name = name;
                g.cells.push_back(cell);
                if (rw) {
                    cell.offset += 8;
                    cell.mutex = false;
                    cell.name = name + ".readers";
                    g.cells.push_back(cell);
                }
                return;
            }
            g.parts.emplace_back(static_cast<std::uint32_t>(off), name);  // pointers to it
            const llvm::StructLayout* sl = dl_.getStructLayout(st);
            auto* comp = llvm::dyn_cast_or_null<llvm::DICompositeType>(di);
            for (unsigned i = 0; i < st->getNumElements(); ++i) {
                const auto foff = sl->getElementOffset(i).getFixedValue();
                std::string fname = "." + std::to_string(i);
                const llvm::DIType* fdi = nullptr;
                if (comp) fieldName(comp, foff * 8, st->getNumElements() == 1, fname, fdi);
                cellsOf(g, st->getElementType(i), off + foff, name + fname, fdi);
            }
            return;
        }
        if (auto* at = llvm::dyn_cast<llvm::ArrayType>(t)) {
            const auto stride = dl_.getTypeAllocSize(at->getElementType()).getFixedValue();
            const llvm::DIType* edi = nullptr;
            if (auto* comp = llvm::dyn_cast_or_null<llvm::DICompositeType>(di);
                comp && comp->getTag() == llvm::dwarf::DW_TAG_array_type)
                edi = comp->getBaseType();
            for (std::uint64_t i = 0; i < at->getNumElements(); ++i)
                cellsOf(g, at->getElementType(), off + i * stride,
                        name + "[" + std::to_string(i) + "]", edi);
            return;
        }
        if (t->isIntegerTy() || t->isPointerTy() || t->isFloatingPointTy()) {
            CGlobalCell cell;
            cell.offset = static_cast<std::uint32_t>(off);
            cell.size = static_cast<std::uint8_t>(dl_.getTypeStoreSize(t).getFixedValue());
            std::int64_t v = 0;
            std::memcpy(&v, g.bytes.data() + off, std::min<std::size_t>(cell.size, 8));
            cell.init = cell.size >= 8 ? v : normalize(v, cell.size * 8U);
            cell.name = name;
            g.cells.push_back(cell);
            return;
        }
        throw UnsupportedError("global of type " + std::to_string(t->getTypeID()) + ": " + name);
    }

    void lowerGlobal(const llvm::GlobalVariable& gv) {
        CGlobal& g = out_.globals[static_cast<std::size_t>(globalIndex_.at(&gv))];
        g.name = gv.getName().str();
        g.displayName = g.name;
        llvm::Type* t = gv.getValueType();
        const auto size = dl_.getTypeAllocSize(t).getFixedValue();
        if (size > (1U << 30)) throw UnsupportedError("global '" + g.name + "' is too large");
        g.size = static_cast<std::uint32_t>(size);
        g.bytes.assign(size, 0);
        if (gv.hasInitializer()) writeConst(gv.getInitializer(), g.bytes.data());
        else if (gv.isDeclaration()) {
            std::string at = m_.getSourceFileName() + ": ";
            for (const llvm::User* u : gv.users())
                if (auto* i = llvm::dyn_cast<llvm::Instruction>(u)) {
                    at = where(*i);
                    break;
                }
            throw UnsupportedError(at + "the external variable '" + readableSymbol(g.name) +
                                   "' (declared extern but defined nowhere in the program) is not "
                                   "supported" + cxxSymbolHint(g.name));
        }
        g.constant = gv.isConstant();
        g.tls = gv.isThreadLocal();
        if (g.constant || g.tls) return;
        llvm::SmallVector<llvm::DIGlobalVariableExpression*, 1> dis;
        gv.getDebugInfo(dis);
        const llvm::DIType* di = dis.empty() ? nullptr : dis[0]->getVariable()->getType();
        std::string name = g.name;
        if (!dis.empty()) name = dis[0]->getVariable()->getName().str();
        g.displayName = name;
        cellsOf(g, t, 0, name, di);
    }

    // ---- escape analysis -------------------------------------------------------------------------
    // A stack variable stays private to its thread (accessed without events) unless its address
    // may reach another thread: stored to memory, converted to an integer, returned, given to a
    // synchronising built-in or pthread_create's argument, or to a parameter that escapes.

    bool escapes(const llvm::Value* v, std::set<const llvm::Value*>& seen) {
        if (!seen.insert(v).second) return false;
        for (const llvm::User* u : v->users()) {
            if (llvm::isa<llvm::LoadInst>(u) || llvm::isa<llvm::ICmpInst>(u)) continue;
            if (auto* s = llvm::dyn_cast<llvm::StoreInst>(u)) {
                if (s->getValueOperand() == v) return true;
                continue;
            }
            if (auto* rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(u)) {
                if (rmw->getValOperand() == v) return true;
                continue;
            }
            if (auto* cx = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(u)) {
                if (cx->getCompareOperand() == v || cx->getNewValOperand() == v) return true;
                continue;
            }
            if (llvm::isa<llvm::GetElementPtrInst>(u) || llvm::isa<llvm::BitCastInst>(u) ||
                llvm::isa<llvm::AddrSpaceCastInst>(u) || llvm::isa<llvm::PHINode>(u) ||
                llvm::isa<llvm::SelectInst>(u) || llvm::isa<llvm::FreezeInst>(u)) {
                if (escapes(u, seen)) return true;
                continue;
            }
            if (auto* call = llvm::dyn_cast<llvm::CallInst>(u)) {
                const llvm::Function* callee = call->getCalledFunction();
                if (!callee) return true;
                auto bc = classify(callee->getName().str(), !callee->isDeclaration());
                for (unsigned i = 0; i < call->arg_size(); ++i) {
                    if (call->getArgOperand(i) != v) continue;
                    if (bc) {
                        if (bc->skip) continue;
                        if (builtinLetsEscape(bc->b, i)) return true;
                        continue;
                    }
                    if (callee->isDeclaration() || i >= callee->arg_size()) return true;
                    if (paramEscapes_[callee->getArg(i)]) return true;
                }
                continue;
            }
            return true;  // returned, converted to an integer, or something not analysed
        }
        return false;
    }

    void computeEscapes() {
        bool changed = true;
        while (changed) {
            changed = false;
            for (const llvm::Function& f : m_) {
                if (f.isDeclaration()) continue;
                for (const llvm::Argument& a : f.args()) {
                    if (!a.getType()->isPointerTy() || paramEscapes_[&a]) continue;
                    std::set<const llvm::Value*> seen;
                    if (escapes(&a, seen)) {
                        paramEscapes_[&a] = true;
                        changed = true;
                    }
                }
            }
        }
    }

    // ---- functions -----------------------------------------------------------------------------

    std::int32_t slotOf(const llvm::Value* v) {
        auto it = slots_.find(v);
        if (it != slots_.end()) return it->second;
        return -1;
    }

    std::int32_t newSlots(const llvm::Value* v, std::int32_t n) {
        const std::int32_t s = fn_->numSlots;
        fn_->numSlots += n;
        if (v) slots_[v] = s;
        return s;
    }

    std::int32_t opnd(const llvm::Value* v, const llvm::Instruction& at) {
        if (auto* c = llvm::dyn_cast<llvm::Constant>(v)) {
            try {
                return constOperand(constValue(c));
            } catch (const UnsupportedError& e) {
                unsupported(at, e.what());
            }
        }
        const std::int32_t s = slotOf(v);
        if (s < 0) unsupported(at, llvm::isa<llvm::BasicBlock>(v) || llvm::isa<llvm::MetadataAsValue>(v)
                                       ? "this operand (a label or debug information)"
                                       : "this operand");
        return s;
    }

    static unsigned widthOf(const llvm::Type* t) {
        if (t->isIntegerTy()) return t->getIntegerBitWidth() <= 64 ? t->getIntegerBitWidth() : 0;
        if (t->isPointerTy()) return 64;
        if (t->isFloatTy()) return 32;
        if (t->isDoubleTy()) return 64;
        return 0;
    }

    CInstr& emit(COp op, const llvm::Instruction& at) {
        CInstr in;
        in.op = op;
        in.pos = posOf(at);
        fn_->code.push_back(in);
        return fn_->code.back();
    }

    // Labels: block b is label b; edge stubs get labels after the blocks.
    std::int32_t edgeLabel(const llvm::BasicBlock* from, const llvm::BasicBlock* to) {
        const std::int32_t toLabel = blockLabel_.at(to);
        const bool phis = !to->phis().empty();
        const llvm::Loop* loop = loops_->getLoopFor(to);
        const bool header = loop && loop->getHeader() == to;
        if (!phis && !header) return toLabel;
        auto key = std::make_pair(from, to);
        auto it = stubOf_.find(key);
        if (it != stubOf_.end()) return it->second;
        const auto label = static_cast<std::int32_t>(blockLabel_.size() + stubs_.size());
        stubs_.push_back({from, to});
        stubOf_[key] = label;
        return label;
    }

    void fixup(std::int32_t label, std::int32_t* field) {
        fixups_.push_back({static_cast<std::size_t>(fn_->code.size() - 1),
                           field == &fn_->code.back().a ? 0 : 1, label});
    }

    void lowerFunction(const llvm::Function& f) {
        fn_ = &out_.functions[static_cast<std::size_t>(funcIndex_.at(&f))];
        slots_.clear();
        blockLabel_.clear();
        stubs_.clear();
        stubOf_.clear();
        fixups_.clear();
        caseFixups_.clear();
        curFnPos_ = {};
        if (const llvm::DISubprogram* sp = f.getSubprogram()) {
            curFnPos_.line = sp->getLine();
            curFnPos_.file = fileId(sp->getFilename().str());
        }
        if (f.isVarArg())
            for (const llvm::BasicBlock& bb : f)
                for (const llvm::Instruction& i : bb)
                    if (auto* c = llvm::dyn_cast<llvm::CallInst>(&i);
                        (c && c->getCalledFunction() &&
                         startsWith(c->getCalledFunction()->getName().str(), "llvm.va_start")) ||
                        llvm::isa<llvm::VAArgInst>(i)) {
                        SourcePos p = curFnPos_;
                        throw UnsupportedError(
                            (p.line ? out_.files[p.file] + ":" + std::to_string(p.line) + ": "
                                    : where(i)) +
                            "the variadic function '" + f.getName().str() +
                            "' (defined with '...' and reading its arguments with va_start/va_arg) "
                            "is not supported");
                    }
        fn_->numSlots = 0;
        for (const llvm::Argument& a : f.args()) newSlots(&a, 1);
        llvm::DominatorTree dt(const_cast<llvm::Function&>(f));
        llvm::LoopInfo li(dt);
        // Every loop header is marked (LoopEnter / LoopBack on its incoming edges), with or
        // without a bound: the marks count the jumps back for --unroll, give the reductions'
        // blocks the start of their iteration and let the interpreter see a livelock.
        loops_ = &li;
        loopSlot_.clear();
        std::int32_t label = 0;
        for (const llvm::BasicBlock& bb : f) blockLabel_[&bb] = label++;
        // Result slots first, so that operands defined later in layout order resolve. The
        // bookkeeping slots (CFunction::stateSlots) come after the registers.
        std::vector<const llvm::Instruction*> bookkeeping;
        for (const llvm::BasicBlock& bb : f)
            for (const llvm::Instruction& i : bb) {
                if (i.getType()->isVoidTy()) continue;
                if (isBookkeepingCall(i)) bookkeeping.push_back(&i);
                else if (llvm::isa<llvm::AtomicCmpXchgInst>(i)) newSlots(&i, 2);
                else newSlots(&i, 1);
            }
        fn_->stateSlots = fn_->numSlots;
        for (const llvm::Loop* l : li.getLoopsInPreorder()) loopSlot_[l] = newSlots(nullptr, 4);
        for (const llvm::Instruction* i : bookkeeping) newSlots(i, 1);
        std::vector<std::int32_t> labelPc(blockLabel_.size(), -1);
        for (const llvm::BasicBlock& bb : f) {
            labelPc[static_cast<std::size_t>(blockLabel_[&bb])] =
                static_cast<std::int32_t>(fn_->code.size());
            for (const llvm::Instruction& i : bb) lowerInstr(i);
        }
        for (std::size_t s = 0; s < stubs_.size(); ++s) {
            labelPc.push_back(static_cast<std::int32_t>(fn_->code.size()));
            const auto [from, to] = stubs_[s];
            const llvm::Instruction& at = *from->getTerminator();
            std::vector<std::pair<std::int32_t, std::int32_t>> pairs;
            for (const llvm::PHINode& phi : to->phis()) {
                const llvm::Value* inc = phi.getIncomingValueForBlock(from);
                if (!widthOf(phi.getType())) unsupported(phi, typeName(phi.getType()));
                pairs.emplace_back(slotOf(&phi), opnd(inc, phi));
            }
            if (!pairs.empty()) {
                CInstr& in = emit(COp::ParCopy, at);
                in.imm = static_cast<std::int64_t>(fn_->copies.size());
                in.c = static_cast<std::int32_t>(pairs.size());
                fn_->copies.insert(fn_->copies.end(), pairs.begin(), pairs.end());
            }
            // After the phi copies: the registers are then the header's (a livelock is a header
            // state that repeats).
            if (const llvm::Loop* loop = loops_->getLoopFor(to); loop && loop->getHeader() == to) {
                CInstr& in = emit(loop->contains(from) ? COp::LoopBack : COp::LoopEnter, at);
                in.a = loopSlot_.at(loop);
                in.imm = opts_.unroll ? *opts_.unroll - 1 : -1;  // N visits of the header
                const SourcePos h = headerPos(*loop);
                in.imm2 = (static_cast<std::int64_t>(h.file) << 32) | h.line;
            }
            emit(COp::Jump, at);
            fixup(blockLabel_.at(to), &fn_->code.back().a);
        }
        for (const auto& fx : fixups_) {
            CInstr& in = fn_->code[fx.pc];
            (fx.field == 0 ? in.a : in.c) = labelPc[static_cast<std::size_t>(fx.label)];
        }
        for (const auto& [idx, lab] : caseFixups_)
            fn_->cases[idx].second = labelPc[static_cast<std::size_t>(lab)];
        shortcut(*fn_);
    }

    // Fewer dispatches for the interpreter, same behaviour (no instruction moves, so every pc
    // a thread can stop at stays): control transfers go past plain jumps, an instruction
    // followed by a jump continues at the jump's target (CInstr::next), and a comparison whose
    // result the next instruction branches on becomes one compare-and-branch, a cast followed
    // by a pointer addition (an array index) one dispatch.
    static void shortcut(CFunction& fn) {
        auto& code = fn.code;
        auto target = [&](std::int32_t pc) {
            for (std::size_t hops = 0; hops < code.size(); ++hops) {  // (a cycle of jumps: stop)
                const CInstr& in = code[static_cast<std::size_t>(pc)];
                if (in.op != COp::Jump || in.a == pc) break;
                pc = in.a;
            }
            return pc;
        };
        for (std::size_t pc = 0; pc < code.size(); ++pc) {
            CInstr& in = code[pc];
            if (in.op == COp::Jump) in.a = target(in.a);
            if (in.op == COp::Branch) {
                in.a = target(in.a);
                in.c = target(in.c);
            }
            if (in.op == COp::Switch) {
                in.a = target(in.a);
                for (std::int32_t k = 0; k < in.c; ++k) {
                    auto& cs = fn.cases[static_cast<std::size_t>(in.imm + k)];
                    cs.second = target(cs.second);
                }
            }
        }
        for (std::size_t pc = 0; pc + 1 < code.size(); ++pc) {
            CInstr& in = code[pc];
            const CInstr& next = code[pc + 1];
            if (in.op == COp::Cmp && next.op == COp::Branch && next.b == in.a && in.a >= 0) {
                in.op = COp::CmpBr;
                in.d = next.a;
                in.imm = next.c;
            }
            if (in.op == COp::Cast && next.op == COp::PtrAdd) in.op = COp::CastPtrAdd;
        }
        for (std::size_t pc = 0; pc < code.size(); ++pc) {
            const auto after = static_cast<std::int32_t>(pc + 1);
            code[pc].next = pc + 1 < code.size() ? target(after) : after;
        }
    }

    // asm volatile("" ::: "memory") and fence instructions: a compiler barrier or a fence, which
    // orders nothing under sequential consistency (every access already is). Nothing else.
    static bool isBarrierAsm(const llvm::InlineAsm& ia, const llvm::CallInst& call) {
        if (!call.getType()->isVoidTy() || call.arg_size() != 0) return false;
        for (const auto& c : ia.ParseConstraints())
            if (c.Type != llvm::InlineAsm::isClobber) return false;
        std::string text;
        for (char ch : ia.getAsmString()) {
            if (ch == '$' && !text.empty() && text.back() == '$') continue;  // "$$0": "$0"
            text += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        }
        static const std::set<std::string, std::less<>> fences = {
            "", "mfence", "lfence", "sfence", "nop", "pause", "rep nop", "lock", "fence",
            "fence rw,rw", "fence iorw,iorw", "sync", "lwsync", "hwsync", "isync", "dmb ish",
            "dmb ishld", "dmb ishst", "dmb sy", "dmb ld", "dmb st", "dsb sy", "dsb ish", "isb",
            "addl $0,0(%rsp)", "addl $0,(%rsp)", "addl $0,0(%esp)", "addl $0,(%esp)",
            "orl $0,0(%rsp)", "orl $0,(%rsp)", "orl $0,0(%esp)", "orl $0,(%esp)",
            "lock addl $0,0(%rsp)", "lock addl $0,(%rsp)", "lock addl $0,0(%esp)",
            "lock addl $0,(%esp)", "lock orl $0,0(%rsp)", "lock orl $0,(%rsp)",
            "lock orl $0,0(%esp)", "lock orl $0,(%esp)"};
        std::size_t from = 0;
        while (from <= text.size()) {
            std::size_t to = text.find_first_of(";\n", from);
            if (to == std::string::npos) to = text.size();
            std::string insn;  // whitespace collapsed to one space, none next to a comma
            bool space = false;
            for (std::size_t k = from; k < to; ++k) {
                const char ch = text[k];
                if (std::isspace(static_cast<unsigned char>(ch))) {
                    space = true;
                    continue;
                }
                if (space && !insn.empty() && insn.back() != ',' && ch != ',') insn += ' ';
                space = false;
                insn += ch;
            }
            if (!fences.contains(insn)) return false;
            from = to + 1;
        }
        return true;
    }

    // Library functions porlab knows and does not implement, with the reason in C terms.
    static std::optional<std::string> knownUnsupported(const std::string& n) {
        static const std::map<std::string, std::string, std::less<>> table = {
            {"setjmp", "setjmp/longjmp (non-local jumps)"},
            {"_setjmp", "setjmp/longjmp (non-local jumps)"},
            {"__sigsetjmp", "setjmp/longjmp (non-local jumps)"},
            {"sigsetjmp", "setjmp/longjmp (non-local jumps)"},
            {"longjmp", "setjmp/longjmp (non-local jumps)"},
            {"_longjmp", "setjmp/longjmp (non-local jumps)"},
            {"siglongjmp", "setjmp/longjmp (non-local jumps)"},
            {"signal", "signal handlers (signal)"},
            {"sigaction", "signal handlers (sigaction)"},
            {"raise", "signals (raise)"},
            {"kill", "signals (kill)"},
            {"pthread_kill", "signals (pthread_kill)"},
            {"alarm", "signals (alarm)"},
            {"fork", "processes (fork)"},
            {"vfork", "processes (vfork)"},
            {"pthread_cancel", "thread cancellation (pthread_cancel)"},
            {"pthread_once", "pthread_once"},
            {"call_once", "call_once"},
            {"mtx_timedlock", "mtx_timedlock (porlab has no notion of time)"},
            {"cnd_timedwait", "cnd_timedwait (porlab has no notion of time)"},
            {"pthread_mutex_timedlock", "pthread_mutex_timedlock (porlab has no notion of time)"},
            {"pthread_cond_timedwait", "pthread_cond_timedwait (porlab has no notion of time)"},
            {"pthread_rwlock_timedrdlock", "pthread_rwlock_timedrdlock (porlab has no notion of time)"},
            {"pthread_rwlock_timedwrlock", "pthread_rwlock_timedwrlock (porlab has no notion of time)"},
            {"tss_create", "thread-specific storage (tss_*; _Thread_local is supported)"},
            {"tss_get", "thread-specific storage (tss_*; _Thread_local is supported)"},
            {"tss_set", "thread-specific storage (tss_*; _Thread_local is supported)"},
            {"pthread_key_create", "thread-specific data (pthread_key_*; _Thread_local is supported)"},
            {"pthread_getspecific", "thread-specific data (pthread_key_*; _Thread_local is supported)"},
            {"pthread_setspecific", "thread-specific data (pthread_key_*; _Thread_local is supported)"},
        };
        auto it = table.find(n);
        if (it != table.end()) return it->second;
        if (startsWith(n, "llvm.va_") || n == "llvm.va_start")
            return std::string("a variadic function defined by the program (va_start)");
        static const char* const floats[] = {"llvm.fabs.", "llvm.sqrt.", "llvm.floor.", "llvm.ceil.",
                                             "llvm.trunc.", "llvm.round", "llvm.rint.", "llvm.fma",
                                             "llvm.copysign.", "llvm.minnum.", "llvm.maxnum.",
                                             "llvm.pow", "llvm.exp", "llvm.log", "llvm.sin.",
                                             "llvm.cos.", "llvm.nearbyint.", "llvm.lrint",
                                             "llvm.llrint", "llvm.lround", "llvm.llround",
                                             "llvm.is.fpclass", "llvm.fmuladd", "llvm.fptosi.sat",
                                             "llvm.fptoui.sat"};
        for (const char* f : floats)
            if (startsWith(n, f)) return std::string("floating-point arithmetic");
        if (n.find(".with.overflow.") != std::string::npos)
            return std::string("overflow-checking arithmetic (__builtin_*_overflow)");
        if (startsWith(n, "llvm.frameaddress") || startsWith(n, "llvm.returnaddress"))
            return std::string("__builtin_frame_address / __builtin_return_address");
        if (startsWith(n, "llvm.")) {  // a compiler built-in, named as C programs write it
            std::string base = n.substr(5);
            base = base.substr(0, base.find('.'));
            return "the compiler built-in __builtin_" + base;
        }
        return std::nullopt;
    }

    // Library calls porlab lowers into several instructions. True when `call` was one.
    bool lowerExpansion(const llvm::CallInst& call, const std::string& name, std::int32_t dst) {
        auto argOp = [&](unsigned k) { return opnd(call.getArgOperand(k), call); };
        const auto ptrBits = static_cast<std::uint8_t>(8 * out_.ptrBytes);
        if (name == "valloc" || name == "pvalloc") {  // page-aligned malloc
            if (call.arg_size() != 1) return false;
            emitBuiltin(call, Builtin::AlignedAlloc, dst, {constOperand(4096), argOp(0)}, ptrBits);
            return true;
        }
        if (name == "posix_memalign") {
            // t = aligned_alloc(align, size); if (t) *memptr = t; return t ? 0 : ENOMEM
            // (*memptr is left alone on failure, as POSIX requires).
            if (call.arg_size() != 3) return false;
            const std::int32_t t = newSlots(nullptr, 1), c = newSlots(nullptr, 1);
            emitBuiltin(call, Builtin::AlignedAlloc, t, {argOp(1), argOp(2)}, ptrBits);
            CInstr& cmp = emit(COp::Cmp, call);
            cmp.sub = static_cast<std::uint8_t>(CPred::Eq);
            cmp.w = 64;
            cmp.a = c;
            cmp.b = t;
            cmp.c = constOperand(0);
            const auto br = static_cast<std::int32_t>(fn_->code.size());
            CInstr& b = emit(COp::Branch, call);
            b.b = c;
            b.a = br + 2;  // failed: skip the store
            b.c = br + 1;
            CInstr& st = emit(COp::Store, call);
            st.b = argOp(0);
            st.c = t;
            st.w = ptrBits;
            st.imm = out_.ptrBytes;
            if (dst >= 0) {
                CInstr& sel = emit(COp::Select, call);
                sel.a = dst;
                sel.b = c;
                sel.c = constOperand(12);  // ENOMEM
                sel.d = constOperand(0);
            }
            return true;
        }
        if (name == "realloc") {
            // n = size of p's block (0 for NULL; a pointer not from malloc faults as a bad free);
            // q = malloc(size); if (q) { memcpy(q, p, min(n, size)); free(p); } return q.
            if (call.arg_size() != 2) return false;
            const std::int32_t n = newSlots(nullptr, 1), q = newSlots(nullptr, 1),
                               c = newSlots(nullptr, 1), k = newSlots(nullptr, 1);
            const std::int32_t p = argOp(0), size = argOp(1);
            emitBuiltin(call, Builtin::BlockSize, n, {p}, 64);
            emitBuiltin(call, Builtin::Malloc, q, {size}, ptrBits);
            CInstr& cmp = emit(COp::Cmp, call);
            cmp.sub = static_cast<std::uint8_t>(CPred::Eq);
            cmp.w = 64;
            cmp.a = c;
            cmp.b = q;
            cmp.c = constOperand(0);
            const auto br = static_cast<std::int32_t>(fn_->code.size());
            CInstr& b = emit(COp::Branch, call);
            b.b = c;
            b.a = br + 4;  // failed: p stays as it is
            b.c = br + 1;
            emitBuiltin(call, Builtin::UMin, k, {n, size}, ptrBits);
            emitBuiltin(call, Builtin::Memcpy, -1, {q, p, k}, ptrBits).imm2 = 1;  // (skip gaps)
            notePlain(call.getArgOperand(0));  // the copy reads the old block non-atomically
            emitBuiltin(call, Builtin::Free, -1, {p}, 64);
            CInstr& mv = emit(COp::Mov, call);  // br + 4
            mv.a = dst;
            mv.b = q;
            if (dst < 0) mv.a = k;  // (the result is unused: a harmless copy)
            return true;
        }
        return false;
    }

    CInstr& emitBuiltin(const llvm::CallInst& call, Builtin b, std::int32_t dst,
                        std::initializer_list<std::int32_t> args, std::uint8_t w) {
        const auto start = static_cast<std::int32_t>(fn_->args.size());
        fn_->args.insert(fn_->args.end(), args.begin(), args.end());
        CInstr& in = emit(COp::Builtin, call);
        in.sub = static_cast<std::uint8_t>(b);
        in.a = dst;
        in.w = w;
        in.b = start;
        in.c = static_cast<std::int32_t>(args.size());
        return in;
    }

    void lowerCall(const llvm::CallInst& call) {
        const llvm::Function* callee = call.getCalledFunction();
        const std::int32_t dst = call.getType()->isVoidTy() ? -1 : slotOf(&call);
        if (call.isInlineAsm()) {
            const auto& ia = *llvm::cast<llvm::InlineAsm>(call.getCalledOperand());
            if (isBarrierAsm(ia, call)) return;  // a compiler barrier or fence: SC already
            std::string text = ia.getAsmString();
            if (text.size() > 40) text = text.substr(0, 37) + "...";
            for (auto& ch : text)
                if (ch == '\n' || ch == '\t') ch = ' ';
            unsupported(call, "inline assembly (\"" + text +
                                  "\"; porlab accepts only compiler barriers and fences, e.g. "
                                  "asm volatile(\"\" ::: \"memory\") or \"mfence\")");
        }
        if (!callee) {
            CInstr& in = emit(COp::CallPtr, call);
            in.a = dst;
            in.d = opnd(call.getCalledOperand(), call);
            pushArgs(call, in);
            return;
        }
        const std::string name = callee->getName().str();
        if (callee->isDeclaration() && lowerExpansion(call, name, dst)) return;
        auto bc = classify(name, !callee->isDeclaration());
        if (bc) {
            if (bc->skip) return;
            if ((bc->b == Builtin::MutexDestroy || bc->b == Builtin::SpinDestroy ||
                 bc->b == Builtin::RwDestroy) &&
                !out_.mutexDestroy.line)
                out_.mutexDestroy = posOf(call);  // (rf and lapor refuse such programs)
            if (bc->mov) {
                CInstr& in = emit(COp::Mov, call);
                in.a = dst;
                in.b = opnd(call.getArgOperand(0), call);
                return;
            }
            if (bc->b == Builtin::TlsAddress) {
                auto* gv = llvm::dyn_cast<llvm::GlobalVariable>(call.getArgOperand(0));
                if (!gv || !gv->isThreadLocal()) unsupported(call, "this use of a thread-local variable");
                const auto gi = globalIndex_.at(gv);
                const CGlobal& g = out_.globals[static_cast<std::size_t>(gi)];
                if (g.tlsOffset >= 0) {  // in the thread's private area, at the same offset in each
                    CInstr& in = emit(COp::Mov, call);
                    in.a = dst;
                    in.b = constOperand(static_cast<std::int64_t>(out_.localTag) | g.tlsOffset);
                    return;
                }
                CInstr& in = emitBuiltin(call, Builtin::TlsAddress, dst, {}, 64);
                in.imm = gi;
                return;
            }
            if (bc->b == Builtin::MtxInit && call.arg_size() == 2)
                if (auto* ci = llvm::dyn_cast<llvm::ConstantInt>(call.getArgOperand(1));
                    ci && (ci->getZExtValue() & 1))  // mtx_recursive
                    unsupported(call, "a recursive mutex (mtx_recursive)");
            if (bc->b == Builtin::AtomicBegin || bc->b == Builtin::AtomicEnd) needAtomicLock();
            CInstr& in = emit(COp::Builtin, call);
            in.sub = static_cast<std::uint8_t>(bc->b);
            in.a = dst;
            in.w = static_cast<std::uint8_t>(call.getType()->isVoidTy() ? 64 : widthOf(call.getType()));
            if (in.w == 0) unsupported(call, "'" + name + "' returning " + typeName(call.getType()));
            pushArgs(call, in);
            if (bc->b == Builtin::LoadAwait && call.getMetadata("porlab.plain")) {
                // the await a loop reduction made of a non-atomic load: it races as the load did
                in.plain = true;
                notePlain(call.getArgOperand(0));
            }
            if (bc->b == Builtin::Memset || bc->b == Builtin::Memcpy) {
                notePlain(call.getArgOperand(0));
                if (bc->b == Builtin::Memcpy) notePlain(call.getArgOperand(1));
            }
            if (bc->b == Builtin::LoadAwait || bc->b == Builtin::XchgAwait) {
                const unsigned condArg = bc->b == Builtin::LoadAwait ? 1 : 2;
                if (call.arg_size() != condArg + 2)
                    unsupported(call, "'" + name + "' with this number of arguments");
                if (auto* ci = llvm::dyn_cast<llvm::ConstantInt>(call.getArgOperand(condArg));
                    ci && !awaitCondFromCode(static_cast<int>(ci->getSExtValue())))
                    unsupported(call, "await condition code " + std::to_string(ci->getSExtValue()));
            }
            if (bc->b == Builtin::AssertFail || bc->b == Builtin::ReachError)
                in.imm = assertionText(call, name, bc->b) + 1;
            if (bc->b == Builtin::Nondet && !warnedNondet_ && !opts_.nondetDomain) {
                warnedNondet_ = true;
                out_.warnings.push_back("__VERIFIER_nondet_* returns 0 (first call at " +
                                        where(call) + "the value domain is not explored)");
            }
            return;
        }
        if (callee->isDeclaration()) {
            if (auto why = knownUnsupported(name)) unsupported(call, *why);
            // C++: the name demangled, and why the library function is missing.
            const std::string hint = cxxSymbolHint(name);
            throw UnsupportedError(where(call) + "call of the undefined function '" +
                                   readableSymbol(name) + "'" +
                                   (hint.empty() ? " (not defined in the program, and not a "
                                                   "library function porlab implements: see "
                                                   "docs/supported-c.md)"
                                                 : hint));
        }
        if (funcIndex_.at(callee) >= 0 && out_.functions[static_cast<std::size_t>(funcIndex_.at(callee))].atomic)
            needAtomicLock();
        CInstr& in = emit(COp::Call, call);
        in.a = dst;
        in.imm = funcIndex_.at(callee);
        pushArgs(call, in);
    }

    // What a failed assertion says, interned in out_.messages: the expression text clang puts
    // in assert's call of __assert_fail (a constant string), or that reach_error was called.
    std::int64_t assertionText(const llvm::CallInst& call, const std::string& name, Builtin b) {
        std::string text = "assertion failure";
        if (b == Builtin::ReachError) {
            text = name + "() called";
        } else {
            // glibc's __assert_fail(expr, file, line, function), BSD's __assert(expr, file,
            // line), macOS's __assert_rtn(function, file, line, expr).
            const unsigned arg = name == "__assert_rtn" ? 3 : 0;
            llvm::StringRef expr;
            if (arg < call.arg_size() && llvm::getConstantStringInfo(call.getArgOperand(arg), expr)) {
                std::string e = expr.str();
                if (e.size() > 200) e = e.substr(0, 197) + "...";
                text = "assertion `" + e + "' failed";
            }
        }
        for (std::size_t i = 0; i < out_.messages.size(); ++i)
            if (out_.messages[i] == text) return static_cast<std::int64_t>(i);
        out_.messages.push_back(text);
        return static_cast<std::int64_t>(out_.messages.size() - 1);
    }

    // A non-atomic access through `ptr`: unless it can only reach a stack variable that never
    // escapes its thread (or a constant), the program needs the Reporter's race check.
    void notePlain(const llvm::Value* ptr) {
        if (out_.plainAccesses) return;
        const llvm::Value* obj = llvm::getUnderlyingObject(ptr, 0);
        if (auto* al = llvm::dyn_cast<llvm::AllocaInst>(obj)) {
            auto [it, fresh] = privateAlloca_.try_emplace(al, false);
            if (fresh) {
                std::set<const llvm::Value*> seen;
                it->second = !escapes(al, seen);
            }
            if (it->second) return;
        }
        if (auto* gv = llvm::dyn_cast<llvm::GlobalVariable>(obj); gv && gv->isConstant()) return;
        out_.plainAccesses = true;
    }

    void needAtomicLock() {
        if (atomicGlobal_ >= 0) return;
        CGlobal g;
        g.name = "__VERIFIER_atomic";
        g.size = 8;
        g.bytes.assign(8, 0);
        CGlobalCell cell;
        cell.size = 8;
        cell.mutex = true;
        cell.name = "__VERIFIER_atomic";
        g.cells.push_back(cell);
        atomicGlobal_ = static_cast<std::int32_t>(out_.globals.size());
        out_.globals.push_back(std::move(g));
        out_.staticBase.push_back(nextStaticBase(8, 8));
        out_.atomicLockObject = out_.globalObject(static_cast<std::size_t>(atomicGlobal_));
    }

    void pushArgs(const llvm::CallInst& call, CInstr& in) {
        const auto start = static_cast<std::int32_t>(fn_->args.size());
        for (unsigned i = 0; i < call.arg_size(); ++i) {
            const llvm::Value* a = call.getArgOperand(i);
            if (!widthOf(a->getType())) unsupported(call, typeName(a->getType()) + " as arguments");
            fn_->args.push_back(opnd(a, call));
        }
        // `in` may have been invalidated by nothing (args live in another vector)
        in.b = start;
        in.c = static_cast<std::int32_t>(call.arg_size());
    }

    void lowerInstr(const llvm::Instruction& i) {
        using llvm::Instruction;
        const std::int32_t dst = i.getType()->isVoidTy() ? -1 : slotOf(&i);
        if (!i.getType()->isVoidTy() && !llvm::isa<llvm::AtomicCmpXchgInst>(i) &&
            !llvm::isa<llvm::CallInst>(i) && !widthOf(i.getType()))
            unsupported(i, typeName(i.getType()));
        if (auto* bo = llvm::dyn_cast<llvm::BinaryOperator>(&i)) {
            static const std::map<unsigned, CBin> ops = {
                {Instruction::Add, CBin::Add},   {Instruction::Sub, CBin::Sub},
                {Instruction::Mul, CBin::Mul},   {Instruction::UDiv, CBin::UDiv},
                {Instruction::SDiv, CBin::SDiv}, {Instruction::URem, CBin::URem},
                {Instruction::SRem, CBin::SRem}, {Instruction::And, CBin::And},
                {Instruction::Or, CBin::Or},     {Instruction::Xor, CBin::Xor},
                {Instruction::Shl, CBin::Shl},   {Instruction::LShr, CBin::LShr},
                {Instruction::AShr, CBin::AShr}};
            auto it = ops.find(bo->getOpcode());
            if (it == ops.end() || !bo->getType()->isIntegerTy())
                unsupported(i, bo->getType()->isVectorTy() ? typeName(bo->getType()) : construct(i));
            CInstr& in = emit(COp::Bin, i);
            in.sub = static_cast<std::uint8_t>(it->second);
            in.w = static_cast<std::uint8_t>(widthOf(bo->getType()));
            in.a = dst;
            in.b = opnd(bo->getOperand(0), i);
            in.c = opnd(bo->getOperand(1), i);
            return;
        }
        switch (i.getOpcode()) {
        case Instruction::ICmp: {
            auto& ic = llvm::cast<llvm::ICmpInst>(i);
            if (!widthOf(ic.getOperand(0)->getType())) unsupported(i, typeName(ic.getOperand(0)->getType()));
            CPred p = CPred::Eq;
            switch (ic.getPredicate()) {
            case llvm::CmpInst::ICMP_EQ: p = CPred::Eq; break;
            case llvm::CmpInst::ICMP_NE: p = CPred::Ne; break;
            case llvm::CmpInst::ICMP_UGT: p = CPred::Ugt; break;
            case llvm::CmpInst::ICMP_UGE: p = CPred::Uge; break;
            case llvm::CmpInst::ICMP_ULT: p = CPred::Ult; break;
            case llvm::CmpInst::ICMP_ULE: p = CPred::Ule; break;
            case llvm::CmpInst::ICMP_SGT: p = CPred::Sgt; break;
            case llvm::CmpInst::ICMP_SGE: p = CPred::Sge; break;
            case llvm::CmpInst::ICMP_SLT: p = CPred::Slt; break;
            case llvm::CmpInst::ICMP_SLE: p = CPred::Sle; break;
            default: unsupported(i, "this comparison");
            }
            CInstr& in = emit(COp::Cmp, i);
            in.sub = static_cast<std::uint8_t>(p);
            in.w = static_cast<std::uint8_t>(widthOf(ic.getOperand(0)->getType()));
            in.a = dst;
            in.b = opnd(ic.getOperand(0), i);
            in.c = opnd(ic.getOperand(1), i);
            return;
        }
        case Instruction::Select: {
            auto& s = llvm::cast<llvm::SelectInst>(i);
            CInstr& in = emit(COp::Select, i);
            in.a = dst;
            in.b = opnd(s.getCondition(), i);
            in.c = opnd(s.getTrueValue(), i);
            in.d = opnd(s.getFalseValue(), i);
            return;
        }
        case Instruction::Trunc:
        case Instruction::ZExt:
        case Instruction::SExt: {
            const unsigned from = widthOf(i.getOperand(0)->getType());
            if (!from) unsupported(i, typeName(i.getOperand(0)->getType()));
            CInstr& in = emit(COp::Cast, i);
            in.sub = static_cast<std::uint8_t>(i.getOpcode() == Instruction::Trunc  ? CCast::Trunc
                                               : i.getOpcode() == Instruction::ZExt ? CCast::ZExt
                                                                                    : CCast::SExt);
            in.w = static_cast<std::uint8_t>(widthOf(i.getType()));
            in.imm = from;
            in.a = dst;
            in.b = opnd(i.getOperand(0), i);
            return;
        }
        case Instruction::PtrToInt: {
            CInstr& in = emit(COp::Cast, i);
            in.sub = static_cast<std::uint8_t>(CCast::Trunc);
            in.w = static_cast<std::uint8_t>(widthOf(i.getType()));
            in.imm = 64;
            in.a = dst;
            in.b = opnd(i.getOperand(0), i);
            return;
        }
        case Instruction::IntToPtr:
        case Instruction::BitCast:
        case Instruction::AddrSpaceCast:
        case Instruction::Freeze: {
            if (i.getOpcode() == Instruction::BitCast &&
                (!widthOf(i.getType()) || !widthOf(i.getOperand(0)->getType())))
                unsupported(i, typeName(widthOf(i.getType()) ? i.getOperand(0)->getType() : i.getType()));
            CInstr& in = emit(COp::Mov, i);
            in.a = dst;
            in.b = opnd(i.getOperand(0), i);
            return;
        }
        case Instruction::GetElementPtr: {
            auto& gep = llvm::cast<llvm::GetElementPtrInst>(i);
            llvm::MapVector<llvm::Value*, llvm::APInt> vars;
            llvm::APInt constOff(64, 0);
            if (!gep.getType()->isPointerTy() ||
                !gep.collectOffset(dl_, 64, vars, constOff))
                unsupported(i, "this address computation");
            std::int32_t base = opnd(gep.getPointerOperand(), i);
            if (vars.empty()) {
                CInstr& in = emit(COp::PtrAdd, i);
                in.a = dst;
                in.b = base;
                in.imm = constOff.getSExtValue();
                return;
            }
            bool first = true;
            for (auto& [v, scale] : vars) {
                CInstr& in = emit(COp::PtrAdd, i);
                in.a = dst;
                in.b = base;
                in.imm = first ? constOff.getSExtValue() : 0;
                in.c = opnd(v, i);
                in.d = static_cast<std::int32_t>(widthOf(v->getType()));
                in.imm2 = scale.getSExtValue();
                base = dst;
                first = false;
            }
            return;
        }
        case Instruction::Load: {
            auto& ld = llvm::cast<llvm::LoadInst>(i);
            if (ld.isAtomic()) noteOrder(i, ld.getOrdering());
            const unsigned w = widthOf(ld.getType());
            if (!w) unsupported(i, typeName(ld.getType()));
            CInstr& in = emit(COp::Load, i);
            in.a = dst;
            in.b = opnd(ld.getPointerOperand(), i);
            in.w = static_cast<std::uint8_t>(w);
            in.plain = !ld.isAtomic();
            if (in.plain) notePlain(ld.getPointerOperand());
            in.imm = static_cast<std::int64_t>(dl_.getTypeStoreSize(ld.getType()).getFixedValue());
            if (holdsPointer(ld.getType(), ld.getPointerOperand())) in.imm2 |= kAccessPointer;
            return;
        }
        case Instruction::Store: {
            auto& st = llvm::cast<llvm::StoreInst>(i);
            if (st.isAtomic()) noteOrder(i, st.getOrdering());
            llvm::Type* t = st.getValueOperand()->getType();
            const unsigned w = widthOf(t);
            if (!w) unsupported(i, typeName(t));
            CInstr& in = emit(COp::Store, i);
            in.b = opnd(st.getPointerOperand(), i);
            in.c = opnd(st.getValueOperand(), i);
            in.w = static_cast<std::uint8_t>(w);
            in.imm2 = st.getMetadata("porlab.private") ? kAccessMarked : 0;  // SAVER: dead at the loop header
            if (holdsPointer(t, st.getPointerOperand())) in.imm2 |= kAccessPointer;
            in.plain = !st.isAtomic();
            if (in.plain) notePlain(st.getPointerOperand());
            in.imm = static_cast<std::int64_t>(dl_.getTypeStoreSize(t).getFixedValue());
            return;
        }
        case Instruction::AtomicRMW: {
            auto& r = llvm::cast<llvm::AtomicRMWInst>(i);
            noteOrder(i, r.getOrdering());
            CRmw op = CRmw::Add;
            switch (r.getOperation()) {
            case llvm::AtomicRMWInst::Xchg: op = CRmw::Xchg; break;
            case llvm::AtomicRMWInst::Add: op = CRmw::Add; break;
            case llvm::AtomicRMWInst::Sub: op = CRmw::Sub; break;
            case llvm::AtomicRMWInst::And: op = CRmw::And; break;
            case llvm::AtomicRMWInst::Or: op = CRmw::Or; break;
            case llvm::AtomicRMWInst::Xor: op = CRmw::Xor; break;
            case llvm::AtomicRMWInst::Max: op = CRmw::Max; break;
            case llvm::AtomicRMWInst::Min: op = CRmw::Min; break;
            case llvm::AtomicRMWInst::Nand: op = CRmw::Nand; break;
            case llvm::AtomicRMWInst::UMax: op = CRmw::UMax; break;
            case llvm::AtomicRMWInst::UMin: op = CRmw::UMin; break;
            case llvm::AtomicRMWInst::UIncWrap: op = CRmw::UIncWrap; break;
            case llvm::AtomicRMWInst::UDecWrap: op = CRmw::UDecWrap; break;
            default:
                if (r.isFloatingPointOperation() || r.getType()->isFloatingPointTy())
                    unsupported(i, "a floating-point atomic operation (porlab has no floating-point "
                                   "arithmetic)");
                unsupported(i, "this atomic read-modify-write operation");
            }
            const unsigned w = widthOf(r.getType());
            if (!w || r.getType()->isFloatingPointTy())
                unsupported(i, r.getType()->isFloatingPointTy()
                                   ? "a floating-point atomic exchange"
                                   : "an atomic operation on a value of this type");
            CInstr& in = emit(COp::Rmw, i);
            in.sub = static_cast<std::uint8_t>(op);
            in.a = dst;
            in.b = opnd(r.getPointerOperand(), i);
            in.c = opnd(r.getValOperand(), i);
            in.w = static_cast<std::uint8_t>(w);
            in.imm = static_cast<std::int64_t>(dl_.getTypeStoreSize(r.getType()).getFixedValue());
            in.resultUsed = !r.use_empty();
            in.imm2 = r.getMetadata("porlab.zne") ? kAccessMarked : 0;  // SAVER: a canceling decrement
            if (in.imm2) {  // the start of its loop's iteration (the zne marker's operand)
                const llvm::Loop* loop = loops_->getLoopFor(r.getParent());
                in.d = loop ? loopSlot_.at(loop) + 1 : -1;
            }
            if (holdsPointer(r.getType(), r.getPointerOperand())) in.imm2 |= kAccessPointer;
            return;
        }
        case Instruction::AtomicCmpXchg: {
            auto& cx = llvm::cast<llvm::AtomicCmpXchgInst>(i);
            noteOrder(i, cx.getSuccessOrdering() == llvm::AtomicOrdering::SequentiallyConsistent
                             ? cx.getFailureOrdering()
                             : cx.getSuccessOrdering());
            llvm::Type* t = cx.getCompareOperand()->getType();
            const unsigned w = widthOf(t);
            if (!w) unsupported(i, "a compare-and-swap of " + typeName(t));
            CInstr& in = emit(COp::CmpXchg, i);
            in.a = dst;
            in.b = opnd(cx.getPointerOperand(), i);
            in.c = opnd(cx.getCompareOperand(), i);
            in.d = opnd(cx.getNewValOperand(), i);
            in.w = static_cast<std::uint8_t>(w);
            in.imm = static_cast<std::int64_t>(dl_.getTypeStoreSize(t).getFixedValue());
            if (holdsPointer(t, cx.getPointerOperand())) in.imm2 |= kAccessPointer;
            return;
        }
        case Instruction::ExtractValue: {
            auto& ev = llvm::cast<llvm::ExtractValueInst>(i);
            auto* cx = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(ev.getAggregateOperand());
            if (!cx || ev.getNumIndices() != 1) unsupported(i, construct(i));
            CInstr& in = emit(COp::Mov, i);
            in.a = dst;
            in.b = slotOf(cx) + static_cast<std::int32_t>(ev.getIndices()[0]);
            return;
        }
        case Instruction::Alloca: {
            auto& al = llvm::cast<llvm::AllocaInst>(i);
            std::set<const llvm::Value*> seen;
            const bool shared = escapes(&al, seen);
            CInstr& in = emit(shared ? COp::AllocaShared : COp::AllocaLocal, i);
            in.a = dst;
            in.imm = static_cast<std::int64_t>(
                dl_.getTypeAllocSize(al.getAllocatedType()).getFixedValue());
            if (al.isArrayAllocation()) in.c = opnd(al.getArraySize(), i);
            in.imm2 = static_cast<std::int64_t>(shared ? allocaName(al) : 0);
            return;
        }
        case Instruction::Br: {
            auto& br = llvm::cast<llvm::BranchInst>(i);
            if (br.isUnconditional()) {
                emit(COp::Jump, i);
                fixup(edgeLabel(br.getParent(), br.getSuccessor(0)), &fn_->code.back().a);
                return;
            }
            CInstr& in = emit(COp::Branch, i);
            in.b = opnd(br.getCondition(), i);
            fixup(edgeLabel(br.getParent(), br.getSuccessor(0)), &fn_->code.back().a);
            fixup(edgeLabel(br.getParent(), br.getSuccessor(1)), &fn_->code.back().c);
            return;
        }
        case Instruction::Switch: {
            auto& sw = llvm::cast<llvm::SwitchInst>(i);
            CInstr& in = emit(COp::Switch, i);
            in.b = opnd(sw.getCondition(), i);
            in.imm = static_cast<std::int64_t>(fn_->cases.size());
            in.c = static_cast<std::int32_t>(sw.getNumCases());
            fixup(edgeLabel(sw.getParent(), sw.getDefaultDest()), &fn_->code.back().a);
            for (auto& cs : sw.cases()) {
                caseFixups_.emplace_back(fn_->cases.size(),
                                         edgeLabel(sw.getParent(), cs.getCaseSuccessor()));
                fn_->cases.emplace_back(constValue(cs.getCaseValue()), -1);
            }
            return;
        }
        case Instruction::PHI: return;  // copies on the incoming edges
        case Instruction::Ret: {
            auto& r = llvm::cast<llvm::ReturnInst>(i);
            CInstr& in = emit(COp::Ret, i);
            if (r.getReturnValue()) {
                if (!widthOf(r.getReturnValue()->getType()))
                    unsupported(i, "returning " + typeName(r.getReturnValue()->getType()));
                in.b = opnd(r.getReturnValue(), i);
            }
            return;
        }
        case Instruction::Unreachable: emit(COp::Unreachable, i); return;
        case Instruction::Fence:  // every access is sequentially consistent
            noteOrder(i, llvm::cast<llvm::FenceInst>(i).getOrdering());
            return;
        case Instruction::Call: lowerCall(llvm::cast<llvm::CallInst>(i)); return;
        default: break;
        }
        unsupported(i, construct(i));
    }

    // Issue 14: porlab explores weaker memory orders as seq_cst; the program is told once.
    void noteOrder(const llvm::Instruction& i, llvm::AtomicOrdering o) {
        using O = llvm::AtomicOrdering;
        if (o == O::SequentiallyConsistent || o == O::NotAtomic) return;
        if (nonScCount_++ > 0) return;
        const char* name = o == O::Acquire   ? "acquire"
                           : o == O::Release ? "release"
                           : o == O::AcquireRelease ? "acq_rel"
                                                    : "relaxed";
        std::string at = where(i);
        if (at.size() >= 2) at.resize(at.size() - 2);  // without the ": "
        firstNonSc_ = at + ", " + name + (llvm::isa<llvm::FenceInst>(i) ? " fence" : "");
    }

    // Calls whose result is bookkeeping (CFunction::stateSlots), not program state.
    static bool isBookkeepingCall(const llvm::Instruction& i) {
        const auto* c = llvm::dyn_cast<llvm::CallInst>(&i);
        const llvm::Function* g = c ? c->getCalledFunction() : nullptr;
        return g && (g->getName() == "__porlab_iteration_start" ||
                     g->getName() == "__porlab_iteration_begin");
    }

    // Where a loop is named in messages: its header's first line, else its first jump back.
    SourcePos headerPos(const llvm::Loop& loop) {
        for (const llvm::Instruction& i : *loop.getHeader())
            if (i.getDebugLoc() && i.getDebugLoc().getLine()) return posOf(i);
        for (const llvm::BasicBlock* latch : llvm::predecessors(loop.getHeader()))
            if (loop.contains(latch) && latch->getTerminator()->getDebugLoc())
                return posOf(*latch->getTerminator());
        return curFnPos_;
    }

    // Does an access of type t at addr read or write a pointer (for display)? A pointer type, or
    // an integer of pointer size at an address whose type says it holds a pointer: clang
    // accesses _Atomic(T *) and the C11 atomics on pointers as integers.
    bool holdsPointer(const llvm::Type* t, const llvm::Value* addr) const {
        if (t->isPointerTy()) return true;
        if (!t->isIntegerTy(dl_.getPointerSizeInBits())) return false;
        addr = addr->stripPointerCasts();
        if (auto* g = llvm::dyn_cast<llvm::GlobalVariable>(addr)) return g->getValueType()->isPointerTy();
        if (auto* gep = llvm::dyn_cast<llvm::GEPOperator>(addr)) return gep->getResultElementType()->isPointerTy();
        if (auto* al = llvm::dyn_cast<llvm::AllocaInst>(addr)) return al->getAllocatedType()->isPointerTy();
        return false;
    }

    // Names of escaped stack variables: the debug-info name of the variable when there is one.
    std::int64_t allocaName(const llvm::AllocaInst& al) {
        std::string name = al.getName().str();
        for (const llvm::DbgVariableRecord* r : llvm::findDVRDeclares(const_cast<llvm::AllocaInst*>(&al)))
            if (r->getVariable()) name = r->getVariable()->getName().str();
        for (const llvm::DbgDeclareInst* d : llvm::findDbgDeclares(const_cast<llvm::AllocaInst*>(&al)))
            if (d->getVariable()) name = d->getVariable()->getName().str();
        if (name.empty()) name = "stack";
        out_.allocaNames.push_back(name);
        return static_cast<std::int64_t>(out_.allocaNames.size() - 1);
    }

    struct Fixup {
        std::size_t pc;
        int field;
        std::int32_t label;
    };

    const llvm::Module& m_;
    const llvm::DataLayout& dl_;
    const CLoadOptions& opts_;
    CModule& out_;
    std::unordered_map<const llvm::Function*, std::int32_t> funcIndex_;
    std::unordered_map<const llvm::GlobalVariable*, std::int32_t> globalIndex_;
    std::unordered_map<std::string, std::uint32_t> files_;
    std::unordered_map<const llvm::Argument*, bool> paramEscapes_;
    std::unordered_map<const llvm::AllocaInst*, bool> privateAlloca_;  // notePlain's cache
    std::map<std::int64_t, std::int32_t> constIndex_;
    bool warnedNondet_ = false;
    std::uint64_t nextBase_ = 0x1000;  // the next static base (layOutStaticObjects)
    std::int64_t nonScCount_ = 0;      // atomics with a memory order weaker than seq_cst
    std::string firstNonSc_;
    std::int32_t atomicGlobal_ = -1;
    // per function
    CFunction* fn_ = nullptr;
    SourcePos curFnPos_;
    std::unordered_map<const llvm::Value*, std::int32_t> slots_;
    std::unordered_map<const llvm::BasicBlock*, std::int32_t> blockLabel_;
    std::vector<std::pair<const llvm::BasicBlock*, const llvm::BasicBlock*>> stubs_;
    std::map<std::pair<const llvm::BasicBlock*, const llvm::BasicBlock*>, std::int32_t> stubOf_;
    std::vector<Fixup> fixups_;
    std::vector<std::pair<std::size_t, std::int32_t>> caseFixups_;
    const llvm::LoopInfo* loops_ = nullptr;
    std::unordered_map<const llvm::Loop*, std::int32_t> loopSlot_;
};

}  // namespace

CModule lowerModule(const llvm::Module& m, const CLoadOptions& opts) {
    CModule out;
    Lowerer(m, opts, out).run();
    return out;
}

}  // namespace porlab::cfront
