// SPDX-License-Identifier: MIT
// SAVER's custom loop rotation (saver-spinloops.txt §IV and §VII; ALGORITHMS.md §2.3.1 step 1).
// `success = false; while (!success) { a = x; success = CAS(x, a, a + 1); }` (CAS-LOOP2) has its
// exit test at the header, on a register the body assigns: that register is live at the header,
// so no backedge is effect-free. Moving the test to the end of the loop (`while (c) B` becomes
// `if (c) do B while (c)`) and then threading the first test, which the entering values decide
// (`!false`), and dropping the dead assignment gives CAS-LOOP, `do { … } while (!success)`, whose
// failing CAS path spin-assume can remove.
//
// On SSA: the header h holds only phis, pure arithmetic on registers and the branch to the body b
// (in the loop) or the exit e. Every predecessor p of h (entering block or latch) gets its own
// copy of h with the phis replaced by their values on p's edge; the copy is folded when its test
// is decided. b becomes the header. h's phis the test does not read ("carried" registers, such
// as a value the loop returns) move to b. A test register the body reads (the flag of
// `while (!done)` passed along a path that does not assign it) is replaced there by the one value
// that let the thread into the body. Then the tests at the ends of the paths are threaded
// backwards through the join blocks: a path on which the flag is a known constant gets its own
// backedge or exit (jump threading), and phi webs nothing reads any more go (dead-assignment
// elimination). Each latch keeps its own backedge (LLVM's loop-rotate would
// funnel them through one latch and merge the loopy paths SAVER tells apart, e.g. in ms-queue's
// dequeue).
//
// It applies only where it pays off: every entering edge is decided to enter the body (no test is
// duplicated in front of the loop; a loop whose first test is not known, such as LOOP-PEEL's
// thread II, is left to bisimilar-node merging, which gives one load instead of rotation's two).
//
// The loop bound (--unroll: visits of a loop's header per entry) counts one visit less for a
// rotated loop: the iteration that leaves it exits from the copy of the test at its end instead
// of jumping back to the header to test. Under bound u the rotated program reaches what the
// program as written reaches under u, and at most what it reaches under u + 1.
#include <llvm/ADT/SetVector.h>
#include <llvm/Analysis/ConstantFolding.h>
#include <llvm/Analysis/InstructionSimplify.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/SSAUpdater.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <vector>

#include "porlab/llvm/LoopShape.hpp"

namespace porlab::cfront::loops {

namespace {

using Bindings = llvm::DenseMap<llvm::Value*, llvm::Constant*>;

// A block of phis and pure register arithmetic ending in a two-way branch.
bool testOnly(const llvm::BasicBlock* b) {
    const auto* br = llvm::dyn_cast<llvm::BranchInst>(b->getTerminator());
    if (!br || !br->isConditional() || br->getSuccessor(0) == br->getSuccessor(1)) return false;
    for (const llvm::Instruction& i : *b) {
        if (i.isTerminator() || llvm::isa<llvm::PHINode>(i) || llvm::isa<llvm::DbgInfoIntrinsic>(i))
            continue;
        if (i.mayReadOrWriteMemory() || !llvm::isSafeToSpeculativelyExecute(&i) ||
            i.getType()->isTokenTy())
            return false;
    }
    for (const llvm::BasicBlock* p : llvm::predecessors(b))
        if (!llvm::isa<llvm::BranchInst>(p->getTerminator()) &&
            !llvm::isa<llvm::SwitchInst>(p->getTerminator()))
            return false;
    return true;
}

// The branch of test-only block `b` with some of its values bound to constants: true (to the
// first successor), false, or nullopt when that does not decide it.
std::optional<bool> evalTest(llvm::BasicBlock* b, Bindings vals, const llvm::DataLayout& dl) {
    for (llvm::Instruction& i : *b) {
        if (llvm::isa<llvm::PHINode>(i) || i.isTerminator() || llvm::isa<llvm::DbgInfoIntrinsic>(i))
            continue;
        llvm::SmallVector<llvm::Constant*, 4> ops;
        for (llvm::Use& u : i.operands()) {
            if (auto* c = llvm::dyn_cast<llvm::Constant>(u.get()))
                ops.push_back(c);
            else if (auto it = vals.find(u.get()); it != vals.end())
                ops.push_back(it->second);
            else
                break;
        }
        if (ops.size() != i.getNumOperands()) continue;
        if (llvm::Constant* c = llvm::ConstantFoldInstOperands(&i, ops, dl)) vals[&i] = c;
    }
    llvm::Value* cond = llvm::cast<llvm::BranchInst>(b->getTerminator())->getCondition();
    llvm::Constant* c =
        llvm::isa<llvm::Constant>(cond) ? llvm::cast<llvm::Constant>(cond) : vals.lookup(cond);
    const auto* k = llvm::dyn_cast_or_null<llvm::ConstantInt>(c);
    if (!k) return std::nullopt;
    return !k->isZero();
}

// The test on the edge from `p`: b's phis bound to their constant values on that edge.
std::optional<bool> testOnEdge(llvm::BasicBlock* b, llvm::BasicBlock* p,
                               const llvm::DataLayout& dl) {
    Bindings vals;
    for (llvm::PHINode& phi : b->phis())
        if (auto* c = llvm::dyn_cast<llvm::Constant>(phi.getIncomingValueForBlock(p)))
            vals[&phi] = c;
    return evalTest(b, std::move(vals), dl);
}

// The values a phi web can take when its leaves are integer constants or booleans (nullopt:
// another leaf, or too many values).
std::optional<std::set<std::uint64_t>> possibleValues(llvm::PHINode* root) {
    std::set<std::uint64_t> out;
    std::set<llvm::Value*> seen{root};
    std::vector<llvm::Value*> work{root};
    while (!work.empty()) {
        llvm::Value* v = work.back();
        work.pop_back();
        if (auto* phi = llvm::dyn_cast<llvm::PHINode>(v)) {
            for (llvm::Value* in : phi->incoming_values())
                if (seen.insert(in).second) work.push_back(in);
            continue;
        }
        if (const auto* k = llvm::dyn_cast<llvm::ConstantInt>(v); k && k->getBitWidth() <= 64) {
            out.insert(k->getZExtValue());
        } else if (v->getType()->isIntegerTy(1) ||
                   (llvm::isa<llvm::ZExtInst>(v) &&
                    llvm::cast<llvm::ZExtInst>(v)->getOperand(0)->getType()->isIntegerTy(1))) {
            out.insert(0);
            out.insert(1);
        } else {
            return std::nullopt;
        }
        if (out.size() > 8) return std::nullopt;
    }
    return out;
}

// Where a use takes effect: its instruction's block, or the incoming block of a phi operand.
llvm::BasicBlock* useBlock(const llvm::Use& u) {
    auto* ui = llvm::cast<llvm::Instruction>(u.getUser());
    if (auto* phi = llvm::dyn_cast<llvm::PHINode>(ui)) return phi->getIncomingBlock(u);
    return ui->getParent();
}

// What rotating a loop does (see the file comment); computed before anything changes.
struct Plan {
    llvm::BasicBlock* h = nullptr;
    llvm::BasicBlock* body = nullptr;
    llvm::BasicBlock* exit = nullptr;
    std::set<llvm::PHINode*> carried;  // phis the test does not read
    std::map<llvm::PHINode*, llvm::Constant*>
        known;                                 // test phis read in the body: their value there
    std::map<llvm::BasicBlock*, bool> toBody;  // per predecessor: the test is known to pass
};

std::optional<Plan> plan(llvm::Loop& loop, const llvm::DataLayout& dl) {
    Plan pl;
    pl.h = loop.getHeader();
    llvm::BasicBlock* h = pl.h;
    if (!testOnly(h)) return std::nullopt;
    auto* br = llvm::cast<llvm::BranchInst>(h->getTerminator());
    const bool bodyFirst = loop.contains(br->getSuccessor(0));
    if (bodyFirst == loop.contains(br->getSuccessor(1))) return std::nullopt;
    pl.body = br->getSuccessor(bodyFirst ? 0 : 1);
    pl.exit = br->getSuccessor(bodyFirst ? 1 : 0);
    if (pl.body == h || pl.body->getSinglePredecessor() != h ||
        llvm::isa<llvm::PHINode>(pl.body->front()))
        return std::nullopt;
    // The test's registers: what the branch condition reads within h.
    std::set<llvm::Value*> test;
    std::vector<llvm::Value*> work{br->getCondition()};
    while (!work.empty()) {
        llvm::Value* v = work.back();
        work.pop_back();
        auto* i = llvm::dyn_cast<llvm::Instruction>(v);
        if (!i || i->getParent() != h || !test.insert(i).second || llvm::isa<llvm::PHINode>(i))
            continue;
        for (llvm::Value* o : i->operands()) work.push_back(o);
    }
    std::set<llvm::PHINode*> testPhis;
    for (llvm::PHINode& phi : h->phis())
        (test.count(&phi) ? testPhis.insert(&phi) : pl.carried.insert(&phi));
    if (testPhis.empty()) return std::nullopt;
    auto inLoopUse = [&](const llvm::Use& u) {
        const auto* ui = llvm::cast<llvm::Instruction>(u.getUser());
        return ui->getParent() != h && loop.contains(useBlock(u));
    };
    for (llvm::Instruction& i : *h) {
        auto* phi = llvm::dyn_cast<llvm::PHINode>(&i);
        if (phi && pl.carried.count(phi)) continue;
        bool used = false;
        for (const llvm::Use& u : i.uses()) used = used || inLoopUse(u);
        if (!used) continue;
        if (!phi) return std::nullopt;
        // A test phi the loop reads: its value in the body must be the only one that passes.
        const auto vals = possibleValues(phi);
        if (!vals) return std::nullopt;
        llvm::Constant* only = nullptr;
        for (std::uint64_t v : *vals) {
            auto* k = llvm::ConstantInt::get(phi->getType(), v);
            const std::optional<bool> t = evalTest(h, Bindings{{phi, k}}, dl);
            if (!t) return std::nullopt;
            if (*t != bodyFirst) continue;
            if (only) return std::nullopt;
            only = k;
        }
        if (!only) return std::nullopt;
        pl.known[phi] = only;
    }
    for (llvm::BasicBlock* p : llvm::predecessors(h)) {
        if (pl.toBody.count(p)) continue;
        if (!loop.contains(p)) {
            const std::optional<bool> t = testOnEdge(h, p, dl);
            if (!t || *t != bodyFirst) return std::nullopt;
            pl.toBody[p] = false;
            continue;
        }
        // A latch: h's values on its edge must be expressible after h is gone. A test phi that
        // keeps its value (a `continue`) is the one the test passed with.
        int kept = 0, unknownTest = 0;
        bool sameTest = true;
        for (llvm::PHINode& phi : h->phis()) {
            llvm::Value* v = phi.getIncomingValueForBlock(p);
            const bool isTest = testPhis.count(&phi) != 0;
            if (isTest && !pl.known.count(&phi)) {
                ++unknownTest;
                if (v == &phi)
                    ++kept;
                else
                    sameTest = false;
            } else if (isTest && v != &phi && v != pl.known[&phi]) {
                sameTest = false;
            }
            auto* vi = llvm::dyn_cast<llvm::Instruction>(v);
            if (!vi || vi->getParent() != h) continue;
            auto* vp = llvm::dyn_cast<llvm::PHINode>(vi);
            if (!vp) return std::nullopt;                                 // h's arithmetic
            if (vp == &phi && (!isTest || pl.known.count(vp))) continue;  // kept; or known
            if (pl.carried.count(vp) || pl.known.count(vp)) continue;
            if (vp != &phi) return std::nullopt;  // another unknown test phi
        }
        if (kept != 0 && kept != unknownTest) return std::nullopt;
        pl.toBody[p] = kept != 0 && sameTest;
        if (kept != 0 && !sameTest) return std::nullopt;
    }
    return pl;
}

// A copy of a test-only block for one predecessor.
struct Copy {
    llvm::BasicBlock* block = nullptr;
    bool toBody = false;  // the edge is known to pass the test: the copy jumps to the body
    std::unique_ptr<llvm::ValueToValueMapTy> map;
    llvm::Value* of(llvm::Value* v) const {
        auto it = map->find(v);
        return it == map->end() ? v : static_cast<llvm::Value*>(it->second);
    }
};

// Clones the non-phi instructions of `j` into `c.block` (its phis already mapped in c.map).
void cloneBody(llvm::BasicBlock* j, Copy& c) {
    for (llvm::Instruction& i : *j) {
        if (llvm::isa<llvm::PHINode>(i) || llvm::isa<llvm::DbgInfoIntrinsic>(i)) continue;
        llvm::Instruction* k = i.clone();
        if (i.hasName()) k->setName(i.getName());
        k->insertInto(c.block, c.block->end());
        (*c.map)[&i] = k;
        llvm::RemapInstruction(k, *c.map,
                               llvm::RF_NoModuleLevelChanges | llvm::RF_IgnoreMissingLocals);
    }
}

// Jump threading on the copy's decided test, then dead-assignment elimination.
void fold(Copy& c, const llvm::DataLayout& dl) {
    const llvm::SimplifyQuery q(dl);
    for (llvm::Instruction& k : llvm::make_early_inc_range(*c.block)) {
        if (k.isTerminator()) continue;
        if (llvm::Value* v = llvm::simplifyInstruction(&k, q)) {
            k.replaceAllUsesWith(v);
            k.eraseFromParent();
        }
    }
    (void)llvm::ConstantFoldTerminator(c.block, /*DeleteDeadConditions=*/true);
    for (auto it = c.block->rbegin(); it != c.block->rend();) {
        llvm::Instruction& k = *it++;
        if (llvm::isInstructionTriviallyDead(&k)) k.eraseFromParent();
    }
}

// The uses of `i` outside its block, except successor phis on the edge from its block.
std::vector<llvm::Use*> outsideUses(llvm::Instruction& i) {
    std::vector<llvm::Use*> uses;
    for (llvm::Use& u : i.uses()) {
        auto* ui = llvm::cast<llvm::Instruction>(u.getUser());
        if (ui->getParent() == i.getParent()) continue;
        if (auto* phi = llvm::dyn_cast<llvm::PHINode>(ui);
            phi && phi->getIncomingBlock(u) == i.getParent())
            continue;
        uses.push_back(&u);
    }
    return uses;
}

void rotate(llvm::Loop& loop, const Plan& pl, const llvm::DataLayout& dl) {
    llvm::BasicBlock* h = pl.h;
    llvm::Function& f = *h->getParent();
    llvm::LLVMContext& ctx = f.getContext();
    const llvm::DebugLoc loc = h->getTerminator()->getDebugLoc();
    // A known test phi is its known value wherever the loop reads it.
    for (auto& [phi, k] : pl.known)
        for (llvm::Use& u : llvm::make_early_inc_range(phi->uses()))
            if (llvm::cast<llvm::Instruction>(u.getUser())->getParent() != h &&
                loop.contains(useBlock(u)))
                u.set(k);
    // Carried phis move to the body.
    std::map<llvm::PHINode*, llvm::PHINode*> moved;
    for (llvm::PHINode* c : pl.carried)
        moved[c] = llvm::PHINode::Create(c->getType(), 2, c->getName() + ".rot", pl.body->begin());
    auto resolve = [&](llvm::Value* v) -> llvm::Value* {
        auto* phi = llvm::dyn_cast<llvm::PHINode>(v);
        if (!phi || phi->getParent() != h) return v;
        if (auto it = moved.find(phi); it != moved.end()) return it->second;
        return pl.known.at(phi);
    };
    // Uses to rewire once h is gone (collected while h is still in place).
    std::vector<std::pair<llvm::Instruction*, std::vector<llvm::Use*>>> outside;
    for (llvm::Instruction& i : *h)
        if (auto uses = outsideUses(i); !uses.empty()) outside.emplace_back(&i, std::move(uses));

    llvm::SmallSetVector<llvm::BasicBlock*, 8> preds;
    for (llvm::BasicBlock* p : llvm::predecessors(h)) preds.insert(p);
    std::vector<Copy> copies;
    for (llvm::BasicBlock* p : preds) {
        Copy c;
        c.map = std::make_unique<llvm::ValueToValueMapTy>();
        c.block = llvm::BasicBlock::Create(ctx, h->getName() + ".rot", &f, h);
        c.toBody = pl.toBody.at(p);
        for (llvm::PHINode& phi : h->phis()) {
            llvm::Value* v = phi.getIncomingValueForBlock(p);
            (*c.map)[&phi] =
                v == &phi && !pl.carried.count(&phi) && !pl.known.count(&phi) ? v : resolve(v);
        }
        if (c.toBody)
            llvm::BranchInst::Create(pl.body, c.block)->setDebugLoc(loc);
        else
            cloneBody(h, c);
        p->getTerminator()->replaceSuccessorWith(h, c.block);
        for (auto& [from, to] : moved) to->addIncoming(c.of(from), c.block);
        copies.push_back(std::move(c));
    }
    for (llvm::PHINode& phi : pl.exit->phis()) {
        llvm::Value* v = phi.getIncomingValueForBlock(h);
        for (const Copy& c : copies)
            if (!c.toBody) phi.addIncoming(c.of(v), c.block);
        phi.removeIncomingValue(h, /*DeletePHIIfEmpty=*/false);
    }
    // h is now unreachable: detach it, then let SSAUpdater place the phis the outside uses need
    // (a moved phi is its new self in the loop and at the body's end; a known phi its value).
    h->getTerminator()->eraseFromParent();
    new llvm::UnreachableInst(ctx, h);
    for (auto& [i, uses] : outside) {
        auto* phi = llvm::dyn_cast<llvm::PHINode>(i);
        llvm::PHINode* self = phi && moved.count(phi) ? moved[phi] : nullptr;
        llvm::SSAUpdater su;
        su.Initialize(i->getType(), i->getName());
        for (const Copy& c : copies)
            if (!c.toBody) su.AddAvailableValue(c.block, c.of(i));
        if (self)
            su.AddAvailableValue(pl.body, self);
        else if (phi && pl.known.count(phi))
            su.AddAvailableValue(pl.body, pl.known.at(phi));
        for (llvm::Use* u : uses) {
            if (self && loop.contains(useBlock(*u)))
                u->set(self);
            else
                su.RewriteUse(*u);
        }
    }
    h->dropAllReferences();
    h->eraseFromParent();
    for (Copy& c : copies)
        if (!c.toBody) fold(c, dl);
    for (const Copy& c : copies) (void)llvm::MergeBlockIntoPredecessor(c.block);
}

// Threads the predecessors of test-only block `j` whose values decide its test: each gets a
// folded copy of j (its own jump); j keeps the others and goes when none is left. Returns
// whether something changed.
bool threadBlock(llvm::BasicBlock* j, const llvm::DataLayout& dl) {
    if (!testOnly(j)) return false;
    llvm::SmallSetVector<llvm::BasicBlock*, 8> decided;
    for (llvm::BasicBlock* q : llvm::predecessors(j))
        if (q != j && testOnEdge(j, q, dl)) decided.insert(q);
    if (decided.empty()) return false;
    llvm::LLVMContext& ctx = j->getContext();
    std::vector<std::pair<llvm::Instruction*, std::vector<llvm::Use*>>> outside;
    for (llvm::Instruction& i : *j)
        if (auto uses = outsideUses(i); !uses.empty()) outside.emplace_back(&i, std::move(uses));
    std::vector<Copy> copies;
    for (llvm::BasicBlock* q : decided) {
        Copy c;
        c.map = std::make_unique<llvm::ValueToValueMapTy>();
        c.block = llvm::BasicBlock::Create(ctx, j->getName() + ".thread", j->getParent(), j);
        for (llvm::PHINode& phi : j->phis()) (*c.map)[&phi] = phi.getIncomingValueForBlock(q);
        cloneBody(j, c);
        q->getTerminator()->replaceSuccessorWith(j, c.block);
        for (llvm::PHINode& phi : j->phis())
            while (phi.getBasicBlockIndex(q) >= 0)
                phi.removeIncomingValue(q, /*DeletePHIIfEmpty=*/false);
        for (llvm::BasicBlock* s : llvm::successors(c.block))
            for (llvm::PHINode& phi : s->phis())
                phi.addIncoming(c.of(phi.getIncomingValueForBlock(j)), c.block);
        copies.push_back(std::move(c));
    }
    const bool gone = llvm::pred_empty(j);
    for (auto& [i, uses] : outside) {
        llvm::SSAUpdater su;
        su.Initialize(i->getType(), i->getName());
        if (!gone) su.AddAvailableValue(j, i);
        for (const Copy& c : copies) su.AddAvailableValue(c.block, c.of(i));
        for (llvm::Use* u : uses) su.RewriteUse(*u);
    }
    if (gone) llvm::DeleteDeadBlock(j);
    for (Copy& c : copies) fold(c, dl);
    for (const Copy& c : copies) (void)llvm::MergeBlockIntoPredecessor(c.block);
    return true;
}

// Jump threading at the end of a rotated loop: the latches' tests, backwards through join
// blocks, until no path's test is decided by the values it brings.
void threadLatches(llvm::BasicBlock* header, const llvm::DataLayout& dl) {
    for (int round = 0; round < 64; ++round) {
        bool changed = false;
        llvm::SmallSetVector<llvm::BasicBlock*, 8> latches;
        for (llvm::BasicBlock* p : llvm::predecessors(header)) latches.insert(p);
        for (llvm::BasicBlock* j : latches) {
            if (j == header) continue;
            // A join block that only jumps to the test: the test joins it first.
            if (llvm::BasicBlock* q = j->getSinglePredecessor();
                q && q->getSingleSuccessor() == j && q != header) {
                changed = llvm::MergeBlockIntoPredecessor(j);
                if (changed) break;
            }
            if (threadBlock(j, dl)) {
                changed = true;
                break;
            }
        }
        if (!changed) return;
    }
}

// Dead-assignment elimination after rotation: a register the loop only passes around (a phi
// web that nothing else reads, e.g. a value carried to an exit that takes a fresher one) would
// otherwise count as live at the header and make the backedges that change it effectful.
void deleteDeadPhis(llvm::Function& f) {
    std::vector<llvm::WeakVH> phis;
    for (llvm::BasicBlock& bb : f)
        for (llvm::PHINode& phi : bb.phis()) phis.emplace_back(&phi);
    for (llvm::WeakVH& v : phis)
        if (auto* phi = llvm::dyn_cast_or_null<llvm::PHINode>(v))
            (void)llvm::RecursivelyDeleteDeadPHINode(phi);
}

}  // namespace

int rotateLoops(llvm::Function& f) {
    const llvm::DataLayout& dl = f.getParent()->getDataLayout();
    int rotated = 0;
    // One loop at a time (the loop analyses are recomputed after each change); every rotation
    // removes a loop header's test, so this ends (the bound is a safety net).
    for (int round = 0; round < 256; ++round) {
        llvm::DominatorTree dt(f);
        llvm::LoopInfo li(dt);
        bool changed = false;
        for (llvm::Loop* loop : li.getLoopsInPreorder())
            if (auto pl = plan(*loop, dl)) {
                rotate(*loop, *pl, dl);
                threadLatches(pl->body, dl);
                deleteDeadPhis(f);
                ++rotated;
                changed = true;
                break;
            }
        if (!changed) break;
    }
    return rotated;
}

}  // namespace porlab::cfront::loops
