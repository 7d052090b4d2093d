// SPDX-License-Identifier: MIT
// Conditions over SSA registers for the loop passes (Loops.hpp): atoms `lhs pred rhs`,
// conjunctions with Godot's optional earliest insertion point, DNFs, the non-modification guard
// g(s) of a statement, facts that dominating assumes, awaits and branches establish, and the
// code that materialises a condition. Internal to cpp/porlab/llvm.
#pragma once

#include <llvm/IR/Dominators.h>
#include <llvm/IR/Instructions.h>

#include <optional>
#include <set>
#include <vector>

#include "porlab/llvm/Loops.hpp"

namespace llvm {
class Loop;
class LoopInfo;
}  // namespace llvm

namespace porlab::cfront::loops {

// `lhs pred rhs` over integer or pointer registers; an i1 register b is `b != false`.
struct Atom {
    llvm::CmpInst::Predicate pred = llvm::CmpInst::ICMP_NE;
    llvm::Value* lhs = nullptr;
    llvm::Value* rhs = nullptr;
    friend bool operator==(const Atom&, const Atom&) = default;
    friend bool operator<(const Atom& a, const Atom& b) {
        if (a.pred != b.pred) return a.pred < b.pred;
        if (a.lhs != b.lhs) return std::less<>{}(a.lhs, b.lhs);
        return std::less<>{}(a.rhs, b.rhs);
    }
};

[[nodiscard]] Atom negate(const Atom& a);
// The canonical form: icmp conditions seen through, `xor b, true` and `zext`/`trunc` of i1
// peeled, the constant on the right.
[[nodiscard]] Atom boolAtom(llvm::Value* b, bool polarity);
[[nodiscard]] Atom normalize(Atom a);
// True / false when both sides are constants.
[[nodiscard]] std::optional<bool> constantValue(const Atom& a);

// A conjunction of atoms (sorted, unique) and the earliest point where it may be checked: after
// `earliest`, the latest possibly faulting access on its path (nullptr: anywhere).
struct Conj {
    std::vector<Atom> atoms;
    llvm::Instruction* earliest = nullptr;
};

// A disjunction of conjunctions: {} is False, {Conj{}} is True.
using Dnf = std::vector<Conj>;

[[nodiscard]] inline Dnf dnfFalse() { return {}; }
[[nodiscard]] inline Dnf dnfTrue() { return {Conj{}}; }
[[nodiscard]] Dnf dnfAtom(const Atom& a);
[[nodiscard]] Dnf dnfOr(Dnf a, const Dnf& b);
[[nodiscard]] Dnf dnfAnd(const Dnf& a, const Dnf& b);
[[nodiscard]] bool isTrue(const Dnf& d);

// g(s): the condition under which `i` does not modify shared memory (Godot §III); `mayFault` is
// set when `i` is an access that cannot be shown not to fault.
[[nodiscard]] Dnf guardOf(llvm::Instruction& i, bool& mayFault);

// The condition of each edge out of `bb`, per successor (several edges to one successor are
// or-ed).
[[nodiscard]] std::vector<std::pair<llvm::BasicBlock*, Dnf>> edgeConditions(llvm::BasicBlock& bb);

// The pass's own calls. An assume is the program's __VERIFIER_assume(c) or a reduction's
// __porlab_spin_assume(c, start) (blocked with cause spin-loop; `start` the Event::index of the
// iteration's first event, from __porlab_iteration_start at the loop header).
[[nodiscard]] bool isAssumeCall(const llvm::Instruction& i);
// Its condition c (an integer), nullptr if `i` is no assume.
[[nodiscard]] llvm::Value* assumeCondition(const llvm::Instruction& i);
[[nodiscard]] bool isLoadAwait(const llvm::Instruction& i);
[[nodiscard]] bool isXchgAwait(const llvm::Instruction& i);
// Nidhugg's await condition code for an icmp predicate (EQ = 2, NE = 5, ...).
[[nodiscard]] int awaitCode(llvm::CmpInst::Predicate p);
[[nodiscard]] std::optional<llvm::CmpInst::Predicate> predicateOfAwaitCode(std::int64_t code);

// A condition known to hold at a program point: after instruction `at` (an assume or await), or
// anywhere in blocks dominated by `block` (the target of a branch edge it is the only way into).
struct Fact {
    llvm::Instruction* at = nullptr;
    llvm::BasicBlock* block = nullptr;
    Atom atom;
};
[[nodiscard]] std::vector<Fact> collectFacts(llvm::Function& f);
// Does `fact` hold right before instruction `pos`?
[[nodiscard]] bool holdsBefore(const Fact& fact, llvm::Instruction* pos, llvm::DominatorTree& dt);

// The result of checking an atom against what is known.
enum class Known { True, False, Unknown };
[[nodiscard]] Known decide(const Atom& a, const std::vector<Atom>& known);

// Builds a reduction's assume `__porlab_spin_assume(cond, start)` before `pos`; the condition is
// ¬(∧ atoms) ∨ extra (extra may be null); `start` comes from iterationStart.
llvm::CallInst* emitAssumeNot(const std::vector<Atom>& atoms, llvm::Value* extra,
                              llvm::Instruction* pos, const llvm::DebugLoc& loc,
                              llvm::Value* start);
// `__porlab_iteration_start()` at the top of `loop`'s header (made on first use): the
// Event::index of the thread's first event of the current iteration, for the reductions' blocks.
llvm::Value* iterationStart(llvm::Loop& loop);

// Does a used header phi of `loop` change along the backedge from `latch` (Godot: the header
// is impure along it)? With `refresh`, the expected value of a CAS loop whose failure refreshes
// it (`e = x; while (!cas(&x, &e, e + 1));`) does not count when the refresh is provably pure
// (Plp.cpp, refreshedByCas): PLP and porlab's default mode do it (Nidhugg's PLP reduces that
// shape), SAVER's Def. 3 as published does not (e is live at the header).
[[nodiscard]] bool headerImpureAlong(llvm::Loop& loop, llvm::BasicBlock* latch, bool refresh);

// SAVER (SpinAssume.cpp, Saver.cpp). The blocks of the loopy paths of backedge latch → header
// (paths inside `loop` that do not enter a nested loop), or {} when such a path enters one.
[[nodiscard]] std::set<llvm::BasicBlock*> loopyBlocks(llvm::Loop& loop, llvm::LoopInfo& li,
                                                      llvm::BasicBlock* latch);
// A backedge whose loopy paths assign only registers dead at the header (no used header phi
// changes along it): SAVER's potentially effect-free spinloop backedge. `effects` are the
// instructions on its loopy paths that may modify memory when the backedge is taken (none: an
// effect-free spinloop backedge, Def. 3).
struct Backedge {
    llvm::BasicBlock* latch = nullptr;
    Dnf condition;  // of the edge latch → header
    std::vector<llvm::Instruction*> effects;
};
[[nodiscard]] std::optional<Backedge> classifyBackedge(llvm::Loop& loop, llvm::LoopInfo& li,
                                                       llvm::BasicBlock* latch, bool refresh);

// Function passes (Plp.cpp, SpinAssume.cpp, Saver.cpp, AwaitRewrite.cpp).
void plpFunction(llvm::Function& f, bool await, LoopStats& stats);
void spinAssumeFunction(llvm::Function& f, LoopStats& stats, bool refresh);
// spin-assume, then dynamic purity checks on the other potentially effect-free backedges and
// zne annotations on canceling decrements (saver-spinloops.txt §III, §V, §VI). `refresh`: see
// headerImpureAlong.
void saverFunction(llvm::Function& f, LoopStats& stats, bool refresh);
// Rewrites load+assume pairs (any assume) and xchg/cas+assume pairs (assumes in `ours` only).
int rewriteAwaits(llvm::Function& f, std::set<llvm::CallInst*>& ours);
// Branches whose condition a dominating fact decides become unconditional; returns how many.
int foldDecidedBranches(llvm::Function& f);

}  // namespace porlab::cfront::loops
