// SPDX-License-Identifier: MIT
// SAVER's instrumentation (saver-spinloops.txt §III, §V, §VI; ALGORITHMS.md §2.3): after
// spin-assume has turned every effect-free spinloop backedge into an assume (and the branches it
// decides are folded, so that loops bounded this way stop being loops), each remaining
// potentially effect-free backedge n→h (its loopy paths assign only registers dead at h) gets
//  * a zne annotation (§VI, Def. 4) when the only effects on its loopy paths are a fetch-and-add
//    ("increment") and, dominated by it, a fetch-and-add of the same location that cancels it
//    ("decrement"): the decrement carries `!porlab.zne`, and a graph explorer blocks the thread
//    there (a zne marker) as long as Algorithm 2's validity check allows it;
//  * otherwise a dynamic purity check (§V): `m = __porlab_iteration_begin()` at the header
//    counts the thread's effects so far, and `__porlab_purity_check(m)` on the edge n→h blocks
//    the thread when the iteration had none. Effects are writes to memory another thread can
//    reach (a heap block is private until a pointer to it is published), writes to the
//    thread's private stack, which may be live at h, and writes to a private heap block unless
//    the pass shows them dead at h (markPrivateStores).
#include <llvm/Analysis/AliasAnalysis.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Local.h>

#include <algorithm>
#include <map>
#include <set>

#include "porlab/llvm/LoopConds.hpp"

namespace porlab::cfront::loops {

namespace {

// The signed amount a fetch-and-add with a constant operand adds (nullopt: another operation).
std::optional<std::int64_t> addedAmount(const llvm::Instruction* i) {
    const auto* r = llvm::dyn_cast<llvm::AtomicRMWInst>(i);
    if (!r) return std::nullopt;
    const auto* c = llvm::dyn_cast<llvm::ConstantInt>(r->getValOperand());
    if (!c || c->getBitWidth() > 64) return std::nullopt;
    const std::int64_t v = c->getSExtValue();
    if (r->getOperation() == llvm::AtomicRMWInst::Add) return v;
    if (r->getOperation() == llvm::AtomicRMWInst::Sub && v != INT64_MIN) return -v;
    return std::nullopt;
}

// Def. 4 on one backedge: the effects are exactly an increment and a decrement of the same
// location by opposite non-zero amounts, the increment dominating the decrement (so every loopy
// path through the decrement passes the increment first). Returns the decrement.
llvm::AtomicRMWInst* cancelingDecrement(const Backedge& be, llvm::DominatorTree& dt) {
    if (be.effects.size() != 2) return nullptr;
    llvm::Instruction* a = be.effects[0];
    llvm::Instruction* b = be.effects[1];
    const auto da = addedAmount(a), db = addedAmount(b);
    if (!da || !db || *da == 0 || *da != -*db) return nullptr;
    auto* ra = llvm::cast<llvm::AtomicRMWInst>(a);
    auto* rb = llvm::cast<llvm::AtomicRMWInst>(b);
    if (ra->getPointerOperand() != rb->getPointerOperand() || ra->getType() != rb->getType())
        return nullptr;
    if (dt.dominates(ra, rb)) return rb;
    if (dt.dominates(rb, ra)) return ra;
    return nullptr;
}

// An assume of a constant false (spin-assume's blocked backedge whose condition is the block's
// reachability) ends its block: what follows is cut and becomes `unreachable`, so that the loop
// it closed stops being a loop and enclosing loops become simple.
int cutAfterFalseAssumes(llvm::Function& f) {
    std::vector<llvm::CallInst*> cuts;
    for (llvm::BasicBlock& bb : f)
        for (llvm::Instruction& i : bb)
            if (auto* c = llvm::dyn_cast<llvm::CallInst>(&i); c && isAssumeCall(*c)) {
                const auto* k = llvm::dyn_cast<llvm::ConstantInt>(c->getArgOperand(0));
                if (k && k->isZero() && !llvm::isa<llvm::UnreachableInst>(c->getNextNode())) {
                    cuts.push_back(c);
                    break;
                }
            }
    for (llvm::CallInst* c : cuts) {
        llvm::BasicBlock* bb = c->getParent();
        for (llvm::BasicBlock* s : llvm::successors(bb)) s->removePredecessor(bb);
        while (&bb->back() != c) {
            llvm::Instruction& last = bb->back();
            last.replaceAllUsesWith(llvm::PoisonValue::get(last.getType()));
            last.eraseFromParent();
        }
        auto* u = new llvm::UnreachableInst(f.getContext(), bb);
        u->setDebugLoc(c->getDebugLoc());
    }
    if (!cuts.empty()) llvm::removeUnreachableBlocks(f);
    return static_cast<int>(cuts.size());
}

// An address computed from values the loop does not change.
bool invariantAddress(const llvm::Loop& loop, const llvm::Value* v) {
    if (loop.isLoopInvariant(v)) return true;
    const auto* gep = llvm::dyn_cast<llvm::GetElementPtrInst>(v);
    return gep && std::all_of(gep->op_begin(), gep->op_end(),
                              [&](const llvm::Use& u) { return invariantAddress(loop, u.get()); });
}

// Stores whose value is dead at the loop's header: a loop-invariant address that every
// iteration writes before it can leave the loop or go round, and that nothing in the loop may
// read before that write. Only such writes into a block no other thread can reach yet are
// ignored by the dynamic purity check (`!porlab.private`; the paper's relaxation, §V, made
// sound: a private write that a later iteration or the code after the loop could read is an
// effect, e.g. a counter of failed attempts in the new node).
int markPrivateStores(llvm::Loop& loop, llvm::DominatorTree& dt) {
    llvm::SmallVector<llvm::BasicBlock*, 8> leaving;
    loop.getExitingBlocks(leaving);
    loop.getLoopLatches(leaving);
    int marked = 0;
    for (llvm::BasicBlock* b : loop.blocks())
        for (llvm::Instruction& i : *b) {
            auto* st = llvm::dyn_cast<llvm::StoreInst>(&i);
            if (!st || !invariantAddress(loop, st->getPointerOperand())) continue;
            if (!std::all_of(leaving.begin(), leaving.end(),
                             [&](llvm::BasicBlock* x) { return dt.dominates(st->getParent(), x); }))
                continue;
            const llvm::Value* obj = llvm::getUnderlyingObject(st->getPointerOperand());
            if (!llvm::isIdentifiedObject(obj)) continue;
            bool ok = true;
            for (llvm::BasicBlock* b2 : loop.blocks())
                for (llvm::Instruction& j : *b2) {
                    if (!ok || &j == st || !j.mayReadFromMemory() || dt.dominates(st, &j)) continue;
                    if (const auto* c = llvm::dyn_cast<llvm::CallBase>(&j)) {
                        const llvm::Function* g = c->getCalledFunction();
                        ok = g && (g->getName().starts_with("__porlab_") || isAssumeCall(j) ||
                                   g->getName().starts_with("llvm.dbg."));
                        continue;
                    }
                    const llvm::Value* p = llvm::getLoadStorePointerOperand(&j);
                    if (const auto* r = llvm::dyn_cast<llvm::AtomicRMWInst>(&j))
                        p = r->getPointerOperand();
                    if (const auto* x = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&j))
                        p = x->getPointerOperand();
                    const llvm::Value* o2 = p ? llvm::getUnderlyingObject(p) : nullptr;
                    ok = o2 && o2 != obj && llvm::isIdentifiedObject(o2);
                }
            if (!ok) continue;
            st->setMetadata("porlab.private", llvm::MDNode::get(st->getContext(), {}));
            ++marked;
        }
    return marked;
}

}  // namespace

void saverFunction(llvm::Function& f, LoopStats& stats, bool refresh) {
    spinAssumeFunction(f, stats, refresh);
    stats.foldedBranches += foldDecidedBranches(f);
    (void)cutAfterFalseAssumes(f);
    llvm::DominatorTree dt(f);
    llvm::LoopInfo li(dt);
    std::map<llvm::AtomicRMWInst*, bool> zne;  // decrement -> canceling on every backedge
    std::vector<std::pair<llvm::Loop*, llvm::BasicBlock*>> checks;
    for (llvm::Loop* loop : li.getLoopsInPreorder()) {
        for (llvm::BasicBlock* latch : llvm::predecessors(loop->getHeader())) {
            const auto be = classifyBackedge(*loop, li, latch, refresh);
            if (!be || be->effects.empty()) continue;
            llvm::AtomicRMWInst* dec = cancelingDecrement(*be, dt);
            for (llvm::Instruction* e : be->effects)
                if (auto* r = llvm::dyn_cast<llvm::AtomicRMWInst>(e); r && r != dec) zne[r] = false;
            if (dec) {
                zne.try_emplace(dec, true);
                continue;
            }
            // One edge latch → header (a switch with several cases to it is left alone).
            int edges = 0;
            for (llvm::BasicBlock* s : llvm::successors(latch)) edges += s == loop->getHeader();
            if (edges == 1) checks.emplace_back(loop, latch);
        }
    }
    for (auto& [dec, ok] : zne)
        if (ok) {
            dec->setMetadata("porlab.zne", llvm::MDNode::get(f.getContext(), {}));
            ++stats.zneDecrements;
        }
    if (checks.empty()) return;
    llvm::Module& m = *f.getParent();
    llvm::LLVMContext& ctx = f.getContext();
    llvm::Type* i64 = llvm::Type::getInt64Ty(ctx);
    llvm::FunctionCallee begin =
        m.getOrInsertFunction("__porlab_iteration_begin", llvm::FunctionType::get(i64, false));
    llvm::FunctionCallee check = m.getOrInsertFunction(
        "__porlab_purity_check",
        llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {i64, i64}, false));
    std::set<llvm::Loop*> checked;
    for (auto& [loop, latch] : checks)
        if (checked.insert(loop).second) stats.privateStores += markPrivateStores(*loop, dt);
    std::map<llvm::Loop*, llvm::Value*> marks;
    for (auto& [loop, latch] : checks) {
        llvm::BasicBlock* h = loop->getHeader();
        llvm::Value*& mark = marks[loop];
        if (!mark) {
            llvm::IRBuilder<> b(&*h->getFirstInsertionPt());
            b.SetCurrentDebugLocation(h->getFirstNonPHIOrDbg()->getDebugLoc());
            mark = b.CreateCall(begin, {}, "porlab.iteration");
        }
        // A block on the edge latch → h that checks the iteration.
        llvm::Instruction* term = latch->getTerminator();
        auto* edge = llvm::BasicBlock::Create(ctx, "porlab.purity", &f, h);
        llvm::IRBuilder<> b(edge);
        b.SetCurrentDebugLocation(term->getDebugLoc());
        b.CreateCall(check, {mark, iterationStart(*loop)});
        b.CreateBr(h);
        term->replaceSuccessorWith(h, edge);
        for (llvm::PHINode& phi : h->phis()) phi.replaceIncomingBlockWith(latch, edge);
        ++stats.purityChecks;
    }
}

}  // namespace porlab::cfront::loops
