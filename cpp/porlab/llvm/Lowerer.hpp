// SPDX-License-Identifier: MIT
// The lowering of LLVM IR to the decoded form (program/Code.hpp), internal to llvm/: the Lowerer's
// declaration, shared by Lower.cpp (module, globals, constants, escapes), LowerFunction.cpp
// (functions and calls), LowerInstr.cpp (instructions) and LowerBuiltins.cpp (which calls are
// built-ins).
#pragma once

#include "porlab/llvm/Lower.hpp"

#include <llvm/ADT/MapVector.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/BinaryFormat/Dwarf.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/DebugInfo.h>
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

inline std::int64_t normalize(std::int64_t v, unsigned w) {
    if (w >= 64) return v;
    if (w == 1) return v & 1;
    const auto sh = 64U - w;
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(v) << sh) >> sh;
}

struct BuiltinCall {
    Builtin b;
    bool mov = false;   // llvm.expect: the result is the first argument
    bool skip = false;  // debug intrinsics: no instruction at all
};

inline bool startsWith(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

// The built-in a call of function `n` is (nullopt: an ordinary call, or unknown).
std::optional<BuiltinCall> classify(const std::string& n, bool defined);

// Built-ins whose pointer arguments become visible to other threads (their object must be
// shared): everything that synchronises.
bool builtinLetsEscape(Builtin b, unsigned argNo);

class Lowerer {
  public:
    Lowerer(const llvm::Module& m, const CLoadOptions& o, CModule& out)
        : m_(m), dl_(m.getDataLayout()), opts_(o), out_(out) {}

    void run();

    // ---- addresses -----------------------------------------------------------------------------
    // Functions and globals get bases (low 32 address bits) one after the other, from 0x1000 (a
    // real program leaves page 0 unmapped), each aligned to at least 16 bytes.

    static std::uint64_t alignUp(std::uint64_t x, std::uint64_t a) { return (x + a - 1) / a * a; }

    std::uint64_t nextStaticBase(std::uint64_t size, std::uint64_t align);

    void layOutStaticObjects();

    // ---- thread-local storage -------------------------------------------------------------------
    // A thread-local whose address cannot reach another thread lives in each thread's private
    // area (no events: only its thread can touch it); one whose address may escape gets a shared
    // object per thread, created by the thread's first use (Builtin::TlsAddress).

    void placeThreadLocals();

  private:
    // ---- source positions --------------------------------------------------------------------

    std::uint32_t fileId(const std::string& name);

    SourcePos posOf(const llvm::Instruction& i);

    std::string where(const llvm::Instruction& i);

    // What porlab does not implement, in C terms (messages name no LLVM instruction).
    static std::string typeName(const llvm::Type* t);

    static std::string construct(const llvm::Instruction& i);

    [[noreturn]] void unsupported(const llvm::Instruction& i, const std::string& what);

    // ---- constants -----------------------------------------------------------------------------

    std::int64_t pointerTo(const llvm::GlobalValue* gv);

    std::int64_t constValue(const llvm::Constant* c);

    std::int32_t constOperand(std::int64_t v);

    // Bytes of a constant initializer at buf (little-endian, pointers as porlab pointers).
    void writeConst(const llvm::Constant* c, std::uint8_t* buf);

    // ---- globals -------------------------------------------------------------------------------

    static const llvm::DIType* stripTypedefs(const llvm::DIType* t);

    // The name of the field at `offsetBits` of a struct: ".member"; C++: nothing for a base
    // class subobject (its members are named as the class's own) and for the one member of a
    // libstdc++ wrapper (`_M_i` of std::atomic, `_M_mutex` of std::mutex), so that a global
    // `std::atomic<int> x` is the location `x`.
    static void fieldName(const llvm::DICompositeType* comp, std::uint64_t offsetBits, bool only,
                          std::string& fname, const llvm::DIType*& fdi);

    void cellsOf(CGlobal& g, llvm::Type* t, std::uint64_t off, const std::string& name,
                 const llvm::DIType* di);

    void lowerGlobal(const llvm::GlobalVariable& gv);

    // ---- escape analysis
    // ------------------------------------------------------------------------- A stack variable
    // stays private to its thread (accessed without events) unless its address may reach another
    // thread: stored to memory, converted to an integer, returned, given to a synchronising
    // built-in or pthread_create's argument, or to a parameter that escapes.

    bool escapes(const llvm::Value* v, std::set<const llvm::Value*>& seen);

    void computeEscapes();

    // ---- functions -----------------------------------------------------------------------------

    std::int32_t slotOf(const llvm::Value* v);

    std::int32_t newSlots(const llvm::Value* v, std::int32_t n);

    std::int32_t opnd(const llvm::Value* v, const llvm::Instruction& at);

    static unsigned widthOf(const llvm::Type* t);

    CInstr& emit(COp op, const llvm::Instruction& at);

    // Labels: block b is label b; edge stubs get labels after the blocks.
    std::int32_t edgeLabel(const llvm::BasicBlock* from, const llvm::BasicBlock* to);

    void fixup(std::int32_t label, std::int32_t* field);

    void lowerFunction(const llvm::Function& f);

    // Fewer dispatches for the interpreter, same behaviour (no instruction moves, so every pc
    // a thread can stop at stays): control transfers go past plain jumps, an instruction
    // followed by a jump continues at the jump's target (CInstr::next), and a comparison whose
    // result the next instruction branches on becomes one compare-and-branch, a cast followed
    // by a pointer addition (an array index) one dispatch.
    static void shortcut(CFunction& fn);

    // asm volatile("" ::: "memory") and fence instructions: a compiler barrier or a fence, which
    // orders nothing under sequential consistency (every access already is). Nothing else.
    static bool isBarrierAsm(const llvm::InlineAsm& ia, const llvm::CallInst& call);

    // Library functions porlab knows and does not implement, with the reason in C terms.
    static std::optional<std::string> knownUnsupported(const std::string& n);

    // Library calls porlab lowers into several instructions. True when `call` was one.
    bool lowerExpansion(const llvm::CallInst& call, const std::string& name, std::int32_t dst);

    CInstr& emitBuiltin(const llvm::CallInst& call, Builtin b, std::int32_t dst,
                        std::initializer_list<std::int32_t> args, std::uint8_t w);

    void lowerCall(const llvm::CallInst& call);

    // What a failed assertion says, interned in out_.messages: the expression text clang puts
    // in assert's call of __assert_fail (a constant string), or that reach_error was called.
    std::int64_t assertionText(const llvm::CallInst& call, const std::string& name, Builtin b);

    // A non-atomic access through `ptr`: unless it can only reach a stack variable that never
    // escapes its thread (or a constant), the program needs the Reporter's race check.
    void notePlain(const llvm::Value* ptr);

    void needAtomicLock();

    void pushArgs(const llvm::CallInst& call, CInstr& in);

    void lowerInstr(const llvm::Instruction& i);

    // Issue 14: porlab explores weaker memory orders as seq_cst; the program is told once.
    void noteOrder(const llvm::Instruction& i, llvm::AtomicOrdering o);

    // Calls whose result is bookkeeping (CFunction::stateSlots), not program state.
    static bool isBookkeepingCall(const llvm::Instruction& i);

    // Where a loop is named in messages: its header's first line, else its first jump back.
    SourcePos headerPos(const llvm::Loop& loop);

    // Does an access of type t at addr read or write a pointer (for display)? A pointer type, or
    // an integer of pointer size at an address whose type says it holds a pointer: clang
    // accesses _Atomic(T *) and the C11 atomics on pointers as integers.
    bool holdsPointer(const llvm::Type* t, const llvm::Value* addr) const;

    // Names of escaped stack variables: the debug-info name of the variable when there is one.
    std::int64_t allocaName(const llvm::AllocaInst& al);

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

}  // namespace porlab::cfront
