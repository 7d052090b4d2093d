// SPDX-License-Identifier: MIT
// Partial Loop Purity elimination (Godot §III; ALGORITHMS.md §1.3.1-1.3.2). Loops are handled
// innermost first; after each loop the awaits are rewritten (plp-await) and branches that a
// dominating assume or await decides are folded, so that an inner polling loop that became an
// await (or an assume) no longer makes its outer loop's iterations impure.
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/PromoteMemToReg.h>

#include <map>
#include <set>

#include "porlab/llvm/LoopConds.hpp"

namespace porlab::cfront::loops {

// Is the header of `loop` impure along the backedge from `latch` (Godot §III): does some used
// header phi take, along it, a value other than the one it already has? A phi fed back itself,
// or fed the same value on every edge, stays unchanged.
bool headerImpureAlong(llvm::Loop& loop, llvm::BasicBlock* latch) {
    for (llvm::PHINode& phi : loop.getHeader()->phis()) {
        if (phi.use_empty()) continue;
        llvm::Value* v = phi.getIncomingValueForBlock(latch);
        if (v == &phi) continue;
        bool same = true;
        for (llvm::Value* in : phi.incoming_values()) same = same && in == v;
        if (!same) return true;
    }
    return false;
}

namespace {

bool internalBackedge(llvm::Loop& loop, llvm::LoopInfo& li, llvm::BasicBlock* from,
                      llvm::BasicBlock* to) {
    if (to == loop.getHeader()) return false;
    llvm::Loop* m = li.getLoopFor(to);
    return m && m != &loop && m->getHeader() == to && loop.contains(m) && m->contains(from);
}

// The blocks of `loop` in post order of the loop body without its backedges and internal
// backedges (successors before predecessors); empty if that graph has a cycle (irreducible).
std::vector<llvm::BasicBlock*> bodyPostOrder(llvm::Loop& loop, llvm::LoopInfo& li) {
    std::vector<llvm::BasicBlock*> order;
    std::map<llvm::BasicBlock*, int> state;  // 1 on the stack, 2 done
    std::vector<std::pair<llvm::BasicBlock*, unsigned>> stack{{loop.getHeader(), 0}};
    state[loop.getHeader()] = 1;
    while (!stack.empty()) {
        auto& [bb, k] = stack.back();
        llvm::Instruction* term = bb->getTerminator();
        if (k < term->getNumSuccessors()) {
            llvm::BasicBlock* s = term->getSuccessor(k++);
            if (!loop.contains(s) || s == loop.getHeader() || internalBackedge(loop, li, bb, s))
                continue;
            const int st = state[s];
            if (st == 1) return {};
            if (st == 0) {
                state[s] = 1;
                stack.emplace_back(s, 0);
            }
            continue;
        }
        state[bb] = 2;
        order.push_back(bb);
        stack.pop_back();
    }
    return order;
}

// PC = FPC(•H) by backward propagation (Godot §III).
Dnf purityCondition(llvm::Loop& loop, llvm::LoopInfo& li) {
    llvm::BasicBlock* header = loop.getHeader();
    const std::vector<llvm::BasicBlock*> order = bodyPostOrder(loop, li);
    if (order.empty()) return dnfFalse();
    std::map<llvm::BasicBlock*, Dnf> in;
    for (llvm::BasicBlock* a : order) {
        Dnf out = dnfFalse();
        for (auto& [s, e] : edgeConditions(*a)) {
            if (!loop.contains(s)) continue;
            if (s == header) {
                if (!headerImpureAlong(loop, a)) out = dnfOr(std::move(out), e);
                continue;
            }
            if (internalBackedge(loop, li, a, s)) continue;
            out = dnfOr(std::move(out), dnfAnd(in.at(s), e));
        }
        for (auto it = a->rbegin(); it != a->rend() && !out.empty(); ++it) {
            if (it->isTerminator()) continue;
            bool mayFault = false;
            const Dnf g = guardOf(*it, mayFault);
            if (!isTrue(g)) out = dnfAnd(out, g);
            if (mayFault)
                for (Conj& c : out)
                    if (!c.earliest) c.earliest = &*it;
        }
        in[a] = std::move(out);
    }
    return in.at(header);
}

// The latest of `points` if every other one dominates it (nullptr in `found` when empty).
bool latestOnChain(const std::vector<llvm::Instruction*>& points, llvm::DominatorTree& dt,
                   llvm::Instruction*& found) {
    found = nullptr;
    for (llvm::Instruction* q : points) {
        bool all = true;
        for (llvm::Instruction* x : points) all = all && (x == q || dt.dominates(x, q));
        if (all) {
            found = q;
            return true;
        }
    }
    return points.empty();
}

class LoopPlp {
public:
    LoopPlp(llvm::Loop& loop, llvm::DominatorTree& dt, llvm::LoopInfo& li,
            std::set<llvm::CallInst*>& ours, LoopStats& stats)
        : loop_(loop), dt_(dt), li_(li), ours_(ours), stats_(stats) {}

    void run() {
        const Dnf pc = purityCondition(loop_, li_);
        if (pc.empty()) return;
        llvm::Function& f = *loop_.getHeader()->getParent();
        facts_ = collectFacts(f);
        if (!loop_.getSubLoops().empty()) makeTookFlag();
        for (const Conj& c : pc) place(c);
        if (took_) {
            if (llvm::isAllocaPromotable(took_)) llvm::PromoteMemToReg({took_}, dt_);
        }
    }

private:
    // "Took an internal backedge" (Godot §III): false at the header, true after a backedge of a
    // nested loop. Kept in a stack slot and promoted to phis at the end.
    void makeTookFlag() {
        llvm::Function& f = *loop_.getHeader()->getParent();
        llvm::LLVMContext& ctx = f.getContext();
        llvm::Type* i1 = llvm::Type::getInt1Ty(ctx);
        took_ = new llvm::AllocaInst(i1, 0, "plp.took", f.getEntryBlock().getFirstInsertionPt());
        for (llvm::Loop* m : loop_.getLoopsInPreorder()) {
            if (m == &loop_) continue;
            llvm::BasicBlock* s = m->getHeader();
            llvm::IRBuilder<> b(s, s->getFirstInsertionPt());
            llvm::PHINode* back = b.CreatePHI(i1, 2, "plp.inner");
            for (llvm::BasicBlock* p : llvm::predecessors(s))
                back->addIncoming(llvm::ConstantInt::getBool(ctx, m->contains(p)), p);
            llvm::Value* old = b.CreateLoad(i1, took_, "plp.took");
            afterFlag_[s] = b.CreateStore(b.CreateOr(old, back), took_);
        }
        llvm::BasicBlock* h = loop_.getHeader();
        llvm::IRBuilder<> b(h, h->getFirstInsertionPt());
        afterFlag_[h] = b.CreateStore(llvm::ConstantInt::getFalse(ctx), took_);
    }

    llvm::Instruction* blockStart(llvm::BasicBlock* bb) {
        auto it = afterFlag_.find(bb);
        if (it != afterFlag_.end()) return it->second->getNextNode();
        return &*bb->getFirstInsertionPt();
    }

    void place(const Conj& c) {
        std::vector<llvm::Instruction*> points;
        auto note = [&](llvm::Value* v) {
            if (auto* i = llvm::dyn_cast<llvm::Instruction>(v); i && loop_.contains(i)) points.push_back(i);
        };
        for (const Atom& a : c.atoms) {
            note(a.lhs);
            note(a.rhs);
        }
        if (c.earliest) points.push_back(c.earliest);
        llvm::Instruction* q = nullptr;
        if (!latestOnChain(points, dt_, q)) {
            ++stats_.unplaced;
            return;
        }
        llvm::Instruction* pos = nullptr;
        if (!q) pos = blockStart(loop_.getHeader());
        else if (llvm::isa<llvm::PHINode>(q)) pos = blockStart(q->getParent());
        else pos = q->getNextNode();
        // What dominating assumes, awaits and branches already establish at `pos`.
        std::vector<Atom> known;
        for (const Fact& f : facts_)
            if (holdsBefore(f, pos, dt_)) known.push_back(f.atom);
        std::vector<Atom> atoms = c.atoms;
        for (std::size_t k = 0; k < atoms.size();) {
            std::vector<Atom> others = known;
            for (std::size_t j = 0; j < atoms.size(); ++j)
                if (j != k) others.push_back(atoms[j]);
            const Known d = decide(atoms[k], others);
            if (d == Known::False) return;  // c cannot hold here: nothing to block
            if (d == Known::True) atoms.erase(atoms.begin() + static_cast<std::ptrdiff_t>(k));
            else ++k;
        }
        llvm::Value* extra = nullptr;
        if (took_) {
            llvm::IRBuilder<> b(pos);
            extra = b.CreateLoad(llvm::Type::getInt1Ty(pos->getContext()), took_, "plp.took");
        }
        const llvm::DebugLoc loc = q && q->getDebugLoc() ? q->getDebugLoc() : pos->getDebugLoc();
        ours_.insert(emitAssumeNot(atoms, extra, pos, loc));
        ++stats_.assumes;
    }

    llvm::Loop& loop_;
    llvm::DominatorTree& dt_;
    llvm::LoopInfo& li_;
    std::set<llvm::CallInst*>& ours_;
    LoopStats& stats_;
    std::vector<Fact> facts_;
    llvm::AllocaInst* took_ = nullptr;
    std::map<llvm::BasicBlock*, llvm::Instruction*> afterFlag_;
};

}  // namespace

int foldDecidedBranches(llvm::Function& f) {
    llvm::DominatorTree dt(f);
    const std::vector<Fact> facts = collectFacts(f);
    int folded = 0;
    std::vector<llvm::BranchInst*> branches;
    for (llvm::BasicBlock& bb : f)
        if (auto* br = llvm::dyn_cast<llvm::BranchInst>(bb.getTerminator());
            br && br->isConditional() && br->getSuccessor(0) != br->getSuccessor(1))
            branches.push_back(br);
    for (llvm::BranchInst* br : branches) {
        std::vector<Atom> known;
        // Removing edges only removes paths, so facts found on the original CFG still hold.
        for (const Fact& fact : facts)
            if (holdsBefore(fact, br, dt)) known.push_back(fact.atom);
        const Known d = decide(boolAtom(br->getCondition(), true), known);
        if (d == Known::Unknown) continue;
        llvm::BasicBlock* bb = br->getParent();
        llvm::BasicBlock* keep = br->getSuccessor(d == Known::True ? 0 : 1);
        llvm::BasicBlock* drop = br->getSuccessor(d == Known::True ? 1 : 0);
        llvm::Value* cond = br->getCondition();
        drop->removePredecessor(bb);
        auto* nb = llvm::BranchInst::Create(keep, br->getIterator());
        nb->setDebugLoc(br->getDebugLoc());
        br->eraseFromParent();
        llvm::RecursivelyDeleteTriviallyDeadInstructions(cond);
        ++folded;
    }
    if (folded) llvm::removeUnreachableBlocks(f);
    return folded;
}

void plpFunction(llvm::Function& f, bool await, LoopStats& stats) {
    std::set<llvm::BasicBlock*> done;
    std::set<llvm::CallInst*> ours;
    // Load+assume pairs the program wrote itself, also outside loops.
    if (await) stats.awaits += rewriteAwaits(f, ours);
    for (;;) {
        llvm::DominatorTree dt(f);
        llvm::LoopInfo li(dt);
        llvm::Loop* next = nullptr;
        const auto loops = li.getLoopsInPreorder();
        for (auto it = loops.rbegin(); it != loops.rend() && !next; ++it)
            if (!done.count((*it)->getHeader())) next = *it;
        if (!next) break;
        done.insert(next->getHeader());
        ++stats.loops;
        LoopPlp(*next, dt, li, ours, stats).run();
        if (await) stats.awaits += rewriteAwaits(f, ours);
        stats.foldedBranches += foldDecidedBranches(f);
    }
}

}  // namespace porlab::cfront::loops
