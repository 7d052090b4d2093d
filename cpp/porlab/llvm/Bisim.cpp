// SPDX-License-Identifier: MIT
// SAVER's merging of bisimilar CFG nodes on SSA (saver-spinloops.txt §IV and §VII; ALGORITHMS.md
// §2.3.1 step 2, §2.3.2). LOOP-PEEL's thread II, `b = x; while (b != 0) b = x;`, is in SSA
//   entry: b0 = load x; br h      h: b1 = phi [b0, entry], [b2, body]; br (b1 != 0), body, end
//   body:  b2 = load x; br h
// b1 is live at h and changes along the backedge, so spin-assume cannot use it. The two
// predecessors of h end in the same computation (`load x; br h`) once b0 and b2 are unified; the
// equality constraints collected walking back over the pair are b0 = b2 (from the phi b1) and the
// operand pairs of the matched instructions. When they unify (operands: a register defined in
// both suffixes at the same position, or the same value; header phis may also select two values
// from before the suffixes, and such a phi moves to the merged node: the paper's "moved
// phi-guards", §VII), the two suffixes are merged
// into one block m, the body jumps to m, and m becomes the loop's header:
//   entry: br m      m: b0 = load x; br h      h: br (b0 != 0), m, end
// a do-while, which spin-assume turns into one load and an assume.
//
// Scope (what pays off for spin-assume and keeps every backedge separate): a loop header with
// exactly two predecessors, one entering the loop and one latch, both ending in an unconditional
// jump to it; the matched part is the longest common suffix of the two blocks whose constraints
// unify. An instruction that may fail at one execution and not at another (a library call, an
// access to the heap or at a varying address, a division by a loaded value) is matched only with
// one from the same source line, so that error sites stay where they were.
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Local.h>

#include <algorithm>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "porlab/llvm/LoopShape.hpp"

namespace porlab::cfront::loops {

namespace {

// The pointer a memory access uses (nullptr: not an access).
const llvm::Value* accessedPointer(const llvm::Instruction& i) {
    if (const auto* l = llvm::dyn_cast<llvm::LoadInst>(&i)) return l->getPointerOperand();
    if (const auto* s = llvm::dyn_cast<llvm::StoreInst>(&i)) return s->getPointerOperand();
    if (const auto* r = llvm::dyn_cast<llvm::AtomicRMWInst>(&i)) return r->getPointerOperand();
    if (const auto* x = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&i)) return x->getPointerOperand();
    return nullptr;
}

// Could `i` report an error at one execution and not at another, although its invariant
// operands are the same (`invariant(v)`: v has the same value at every execution of the merged
// code)? Then the peeled copy and the loop's copy may fail at different source lines. Library
// calls may (a mutex unlocked twice); an access may, unless its address is invariant and names a
// global variable or a stack slot of the function (they live as long as the code runs); other
// instructions (division) only when an operand varies.
template <class Invariant>
bool timeDependentFailure(const llvm::Instruction& i, const Invariant& invariant) {
    if (const auto* c = llvm::dyn_cast<llvm::CallBase>(&i)) {
        const llvm::Function* g = c->getCalledFunction();
        return !g || !(g->isIntrinsic() || !g->isDeclaration());
    }
    if (const llvm::Value* p = accessedPointer(i)) {
        const llvm::Value* obj = llvm::getUnderlyingObject(p);
        const auto* slot = llvm::dyn_cast<llvm::AllocaInst>(obj);
        return !((llvm::isa<llvm::GlobalVariable>(obj) || (slot && slot->isStaticAlloca())) &&
                 invariant(p));
    }
    if (llvm::isSafeToSpeculativelyExecute(&i)) return false;
    return !std::all_of(i.op_begin(), i.op_end(),
                        [&](const llvm::Use& u) { return invariant(u.get()); });
}

bool sameLine(const llvm::Instruction& a, const llvm::Instruction& b) {
    const llvm::DebugLoc& la = a.getDebugLoc();
    const llvm::DebugLoc& lb = b.getDebugLoc();
    if (!la || !lb) return !la && !lb;
    return la.getLine() == lb.getLine() && la->getFilename() == lb->getFilename() &&
           la->getDirectory() == lb->getDirectory();
}

// May `a` (in one block) and `b` (in the other) be merged, operands aside?
bool sameOperation(const llvm::Instruction& a, const llvm::Instruction& b) {
    for (const llvm::Instruction* i : {&a, &b})
        if (llvm::isa<llvm::PHINode>(i) || llvm::isa<llvm::AllocaInst>(i) || i->isTerminator() ||
            i->isEHPad() || i->getType()->isTokenTy())
            return false;
    return a.isSameOperationAs(&b);
}

// The instructions of `bb` a merge can take (no phis, debug intrinsics or the terminator).
std::vector<llvm::Instruction*> mergeable(llvm::BasicBlock* bb) {
    std::vector<llvm::Instruction*> out;
    for (llvm::Instruction& i : *bb)
        if (!llvm::isa<llvm::PHINode>(i) && !llvm::isa<llvm::DbgInfoIntrinsic>(i) &&
            !i.isTerminator())
            out.push_back(&i);
    return out;
}

// A unifiable pair: the last k instructions of both blocks, and the value pairs (one per side,
// defined before the suffixes) of the header phis that move to the merged block.
struct Match {
    llvm::BasicBlock* entering = nullptr;  // side 1
    llvm::BasicBlock* latch = nullptr;     // side 2
    llvm::BasicBlock* header = nullptr;
    std::vector<llvm::Instruction*> s1, s2;
    std::vector<std::pair<llvm::Value*, llvm::Value*>> phis;  // distinct
};

// Collects the equality constraints of the suffixes of length `k` and solves them by
// unification; nullopt when some constraint has no solution.
std::optional<Match> unify(llvm::BasicBlock* p1, llvm::BasicBlock* p2, llvm::BasicBlock* h,
                           const std::vector<llvm::Instruction*>& all1,
                           const std::vector<llvm::Instruction*>& all2, std::size_t k) {
    Match m{p1,
            p2,
            h,
            {all1.end() - static_cast<std::ptrdiff_t>(k), all1.end()},
            {all2.end() - static_cast<std::ptrdiff_t>(k), all2.end()},
            {}};
    std::map<const llvm::Value*, std::size_t> pos1, pos2;
    for (std::size_t j = 0; j < k; ++j) {
        pos1[m.s1[j]] = j;
        pos2[m.s2[j]] = j;
    }
    // One constraint v1 = v2; `phiOk` tells whether a selecting phi may stand for it.
    auto solve = [&](llvm::Value* v1, llvm::Value* v2, bool phiOk) {
        const auto a = pos1.find(v1);
        const auto b = pos2.find(v2);
        if (a != pos1.end() || b != pos2.end())
            return a != pos1.end() && b != pos2.end() && a->second == b->second;
        if (v1 == v2) return true;
        if (!phiOk || !v1->getType()->isFirstClassType() || v1->getType()->isTokenTy() ||
            v1->getType()->isMetadataTy() || v1->getType() != v2->getType())
            return false;
        const std::pair<llvm::Value*, llvm::Value*> p{v1, v2};
        if (std::find(m.phis.begin(), m.phis.end(), p) == m.phis.end()) m.phis.push_back(p);
        return true;
    };
    for (std::size_t j = 0; j < k; ++j)
        for (unsigned o = 0; o < m.s1[j]->getNumOperands(); ++o)
            if (!solve(m.s1[j]->getOperand(o), m.s2[j]->getOperand(o), false)) return std::nullopt;
    for (llvm::PHINode& phi : h->phis())
        if (!solve(phi.getIncomingValueForBlock(p1), phi.getIncomingValueForBlock(p2), true))
            return std::nullopt;
    // Where an instruction may fail, the error must be reported at the same source line.
    std::vector<bool> inv(k, false);
    auto invariant = [&](const llvm::Value* v) {
        const auto it = pos1.find(v);
        return it == pos1.end() || inv[it->second];  // values from before the suffixes: the same
    };
    for (std::size_t j = 0; j < k; ++j) {
        llvm::Instruction* i = m.s1[j];
        inv[j] = !i->mayReadOrWriteMemory() && !llvm::isa<llvm::CallBase>(i) &&
                 std::all_of(i->op_begin(), i->op_end(),
                             [&](const llvm::Use& u) { return invariant(u.get()); });
        if (!sameLine(*i, *m.s2[j]) && timeDependentFailure(*i, invariant)) return std::nullopt;
    }
    // The suffixes' registers are used only inside them and by the header's phis.
    for (const auto* s : {&m.s1, &m.s2})
        for (llvm::Instruction* i : *s)
            for (llvm::User* u : i->users()) {
                const auto* ui = llvm::cast<llvm::Instruction>(u);
                if (ui->getParent() != i->getParent() &&
                    !(ui->getParent() == h && llvm::isa<llvm::PHINode>(ui)))
                    return std::nullopt;
            }
    return m;
}

std::optional<Match> findMatch(llvm::Loop& loop) {
    llvm::BasicBlock* h = loop.getHeader();
    if (h->hasNPredecessorsOrMore(3) || !h->hasNPredecessors(2)) return std::nullopt;
    llvm::BasicBlock* p1 = nullptr;
    llvm::BasicBlock* p2 = nullptr;
    for (llvm::BasicBlock* p : llvm::predecessors(h)) (loop.contains(p) ? p2 : p1) = p;
    if (!p1 || !p2 || p2 == h) return std::nullopt;
    for (llvm::BasicBlock* p : {p1, p2})
        if (p->getSingleSuccessor() != h || !llvm::isa<llvm::BranchInst>(p->getTerminator()))
            return std::nullopt;
    const std::vector<llvm::Instruction*> all1 = mergeable(p1), all2 = mergeable(p2);
    std::size_t longest = 0;
    while (longest < all1.size() && longest < all2.size() &&
           sameOperation(*all1[all1.size() - 1 - longest], *all2[all2.size() - 1 - longest]))
        ++longest;
    for (std::size_t k = longest; k > 0; --k)
        if (auto m = unify(p1, p2, h, all1, all2, k)) return m;
    return std::nullopt;
}

void merge(Match& m) {
    llvm::BasicBlock* h = m.header;
    // m1: the entering block's suffix (it stays); t: the latch's (it goes).
    llvm::BasicBlock* m1 = m.entering->splitBasicBlock(m.s1.front(), h->getName() + ".merged");
    llvm::BasicBlock* t = m.latch->splitBasicBlock(m.s2.front());
    std::map<std::pair<llvm::Value*, llvm::Value*>, llvm::PHINode*> sel;
    for (const auto& p : m.phis) {
        llvm::PHINode* phi = llvm::PHINode::Create(p.first->getType(), 2, "bisim", m1->begin());
        phi->addIncoming(p.first, m.entering);
        phi->addIncoming(p.second, m.latch);
        sel[p] = phi;
    }
    // The header's phis: the non-unified ones move to m1 (their header value is m1's phi).
    for (llvm::PHINode& phi : h->phis()) {
        auto it = sel.find({phi.getIncomingValueForBlock(m1), phi.getIncomingValueForBlock(t)});
        if (it != sel.end()) phi.setIncomingValueForBlock(m1, it->second);
    }
    m.latch->getTerminator()->replaceSuccessorWith(t, m1);
    llvm::DeleteDeadBlock(t);  // also drops its edge from the header's phis (now one-entry)
    // m1 → h is now h's only way in: h joins m1, and an emptied latch jumps straight to m1.
    if (h->getSinglePredecessor() == m1) (void)llvm::MergeBlockIntoPredecessor(h);
    if (m.latch->size() == 1 && m.latch->getSingleSuccessor() == m1 && !m.latch->hasAddressTaken())
        (void)llvm::TryToSimplifyUncondBranchFromEmptyBlock(m.latch);
}

}  // namespace

int mergeBisimilar(llvm::Function& f) {
    int merged = 0;
    // One merge at a time with fresh loop analyses; each merge removes instructions, so this ends.
    for (bool changed = true; changed;) {
        changed = false;
        llvm::DominatorTree dt(f);
        llvm::LoopInfo li(dt);
        for (llvm::Loop* loop : li.getLoopsInPreorder())
            if (auto m = findMatch(*loop)) {
                merge(*m);
                ++merged;
                changed = true;
                break;
            }
    }
    return merged;
}

}  // namespace porlab::cfront::loops
