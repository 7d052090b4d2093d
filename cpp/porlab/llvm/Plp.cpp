// SPDX-License-Identifier: MIT
// Partial Loop Purity elimination (Godot §III; ALGORITHMS.md §1.3.1-1.3.2). Loops are handled
// innermost first; after each loop the awaits are rewritten (plp-await) and branches that a
// dominating assume or await decides are folded, so that an inner polling loop that became an
// await (or an assume) no longer makes its outer loop's iterations impure.
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/PromoteMemToReg.h>

#include <map>
#include <set>
#include <tuple>

#include "porlab/llvm/LoopConds.hpp"

namespace porlab::cfront::loops {

namespace {

// Do two pointers name the same address (the same base and constant offset; a base computed by
// two GEPs with the same operands counts as one)?
bool samePlace(llvm::Value* a, llvm::Value* b, const llvm::DataLayout& dl) {
    llvm::APInt oa(dl.getIndexTypeSizeInBits(a->getType()), 0);
    llvm::APInt ob(dl.getIndexTypeSizeInBits(b->getType()), 0);
    const llvm::Value* ba = a->stripAndAccumulateConstantOffsets(dl, oa, true);
    const llvm::Value* bb = b->stripAndAccumulateConstantOffsets(dl, ob, true);
    if (oa != ob) return false;
    if (ba == bb) return true;
    const auto* ga = llvm::dyn_cast<llvm::GetElementPtrInst>(ba);
    const auto* gb = llvm::dyn_cast<llvm::GetElementPtrInst>(bb);
    if (!ga || !gb || ga->getSourceElementType() != gb->getSourceElementType() ||
        ga->getNumOperands() != gb->getNumOperands())
        return false;
    for (unsigned k = 0; k < ga->getNumOperands(); ++k)
        if (ga->getOperand(k) != gb->getOperand(k)) return false;
    return true;
}

// An instruction that is no visible operation and changes no memory: register code, debug
// intrinsics, fences (no-ops under SC), the reductions' bookkeeping.
bool invisible(const llvm::Instruction& i) {
    if (llvm::isa<llvm::DbgInfoIntrinsic>(i) || llvm::isa<llvm::FenceInst>(i)) return true;
    if (const auto* c = llvm::dyn_cast<llvm::CallInst>(&i)) {
        const llvm::Function* g = c->getCalledFunction();
        return g && (g->getName() == "__porlab_iteration_start" ||
                     g->getName() == "__porlab_iteration_begin" ||
                     g->getName().starts_with("llvm.dbg."));
    }
    return !i.mayReadOrWriteMemory();
}

// The CAS of a refreshing CAS loop: `v` is the value a CAS of `loop` that compares with `phi`
// read, or a phi of the loop that merges that value (the failure edge, where clang stores the
// value read into the expected variable) with `phi` itself (the success edge); nullptr
// otherwise.
llvm::AtomicCmpXchgInst* refreshingCas(llvm::Loop& loop, llvm::PHINode& phi, llvm::Value* v,
                                       int depth = 0) {
    if (auto* ev = llvm::dyn_cast<llvm::ExtractValueInst>(v)) {
        if (ev->getNumIndices() != 1 || ev->getIndices()[0] != 0) return nullptr;
        auto* cas = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(ev->getAggregateOperand());
        if (!cas || !loop.contains(cas) || cas->getCompareOperand() != &phi) return nullptr;
        return cas;
    }
    auto* merge = llvm::dyn_cast<llvm::PHINode>(v);
    if (!merge || merge == &phi || !loop.contains(merge) || depth > 4) return nullptr;
    llvm::AtomicCmpXchgInst* cas = nullptr;
    for (llvm::Value* in : merge->incoming_values()) {
        if (in == &phi) continue;
        llvm::AtomicCmpXchgInst* c = refreshingCas(loop, phi, in, depth + 1);
        if (!c || (cas && c != cas)) return nullptr;
        cas = c;
    }
    return cas;
}

// A CAS loop whose failure refreshes its expected value (`e = x; while (!cas(&x, &e, e + 1));`,
// weak or strong, on a variable or a struct member): along the backedge the header phi e gets the
// value the CAS read. On success that is e itself; on failure the iteration changed e to the
// value v that x had at the CAS, and nothing else (the rest of the iteration is checked as
// usual). When e's value on entering the loop is a load of the same address whose only use is
// e, and the thread does nothing visible between that load and the CAS (neither after the load
// before the loop nor in the iteration before the CAS), the state after the failed iteration is
// the one the thread reaches when that load runs at the time of the CAS and reads v: moving a
// read of a thread later, past other threads' events, gives an execution of the same program.
// So the phi does not make the iteration impure (Godot's local state preservation holds with the
// load moved), and a failed iteration can be blocked.
bool refreshedByCas(llvm::Loop& loop, llvm::PHINode& phi, llvm::Value* fromLatch) {
    llvm::AtomicCmpXchgInst* cas = refreshingCas(loop, phi, fromLatch);
    if (!cas) return false;
    // The loop leaves on the CAS's success flag, as C11's compare_exchange loops do (the shape
    // whose reduction Nidhugg's PLP shows on CDSChecker's mpmc-queue). The Linux idiom
    // `old = cmpxchg(x, w, n); if (old == w) break; w = old;` is as pure, but Godot's
    // qspinlock(3) PLP column (564+462, porlab's harness's xchg_tail is such a loop) shows
    // Nidhugg leaving it alone: porlab does too, to explore what Nidhugg's PLP explores.
    bool exitsOnSuccess = false;
    for (llvm::BasicBlock* b : loop.blocks()) {
        auto* br = llvm::dyn_cast<llvm::BranchInst>(b->getTerminator());
        if (!br || !br->isConditional() ||
            (loop.contains(br->getSuccessor(0)) && loop.contains(br->getSuccessor(1))))
            continue;
        const Atom a = boolAtom(br->getCondition(), true);
        const auto* ok = llvm::dyn_cast<llvm::ExtractValueInst>(a.lhs);
        exitsOnSuccess = exitsOnSuccess || (ok && ok->getAggregateOperand() == cas &&
                                            ok->getNumIndices() == 1 && ok->getIndices()[0] == 1);
    }
    if (!exitsOnSuccess) return false;
    const llvm::DataLayout& dl = phi.getModule()->getDataLayout();
    for (unsigned k = 0; k < phi.getNumIncomingValues(); ++k) {
        llvm::BasicBlock* from = phi.getIncomingBlock(k);
        llvm::Value* in = phi.getIncomingValue(k);
        if (loop.contains(from)) {
            if (in != &phi && !refreshingCas(loop, phi, in)) return false;
            continue;
        }
        auto* ld = llvm::dyn_cast<llvm::LoadInst>(in);
        if (!ld || ld->getParent() != from || !ld->hasOneUse() ||
            !samePlace(ld->getPointerOperand(), cas->getPointerOperand(), dl))
            return false;
        for (const llvm::Instruction* i = ld->getNextNode(); i && !i->isTerminator();
             i = i->getNextNode())
            if (!invisible(*i)) return false;
    }
    // Every path of an iteration from the header to the CAS: nothing visible before it.
    llvm::BasicBlock* h = loop.getHeader();
    std::set<llvm::BasicBlock*> before{cas->getParent()};
    std::vector<llvm::BasicBlock*> work{cas->getParent()};
    while (!work.empty()) {
        llvm::BasicBlock* b = work.back();
        work.pop_back();
        if (b == h) continue;
        for (llvm::BasicBlock* p : llvm::predecessors(b))
            if (loop.contains(p) && before.insert(p).second) work.push_back(p);
    }
    for (llvm::BasicBlock* b : before)
        for (llvm::Instruction& i : *b) {
            if (&i == cas) break;
            if (!invisible(i)) return false;
        }
    return true;
}

}  // namespace

// Is the header of `loop` impure along the backedge from `latch` (Godot §III): does some used
// header phi take, along it, a value other than the one it already has? A phi fed back itself,
// or fed the same value on every edge, stays unchanged; with `refresh`, so does the expected
// value of a refreshing CAS loop (refreshedByCas).
bool headerImpureAlong(llvm::Loop& loop, llvm::BasicBlock* latch, bool refresh) {
    for (llvm::PHINode& phi : loop.getHeader()->phis()) {
        if (phi.use_empty()) continue;
        llvm::Value* v = phi.getIncomingValueForBlock(latch);
        if (v == &phi) continue;
        bool same = true;
        for (llvm::Value* in : phi.incoming_values()) same = same && in == v;
        if (same) continue;
        if (refresh && refreshedByCas(loop, phi, v)) continue;
        return true;
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
                if (!headerImpureAlong(loop, a, /*refresh=*/true)) out = dnfOr(std::move(out), e);
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

// The atoms of a conjunction in an order that is the same in every process: Conj keeps them
// sorted by pointer (for subsumption), which varies between runs, and the order decides the
// code emitted (the checks' registers): a C program must compile to the same code everywhere
// (Dask workers check its hash). By predicate, then each side by its place in the function
// (arguments, then instructions), integer constants by value, globals by name.
void sortByPlace(std::vector<Atom>& atoms, llvm::Function& f) {
    std::map<const llvm::Value*, std::int64_t> place;
    std::int64_t k = 0;
    for (llvm::Argument& a : f.args()) place[&a] = k++;
    for (llvm::BasicBlock& bb : f)
        for (llvm::Instruction& i : bb) place[&i] = k++;
    auto key = [&](const llvm::Value* v) {
        if (auto it = place.find(v); it != place.end())
            return std::tuple<int, std::int64_t, llvm::StringRef>(0, it->second, "");
        if (const auto* c = llvm::dyn_cast<llvm::ConstantInt>(v); c && c->getBitWidth() <= 64)
            return std::tuple<int, std::int64_t, llvm::StringRef>(1, c->getSExtValue(), "");
        return std::tuple<int, std::int64_t, llvm::StringRef>(2, 0, v->getName());
    };
    std::stable_sort(atoms.begin(), atoms.end(), [&](const Atom& a, const Atom& b) {
        if (a.pred != b.pred) return a.pred < b.pred;
        const auto ka = std::make_pair(key(a.lhs), key(a.rhs));
        const auto kb = std::make_pair(key(b.lhs), key(b.rhs));
        return ka < kb;
    });
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
        std::vector<llvm::AllocaInst*> slots;
        if (took_) slots.push_back(took_);
        // In creation order, not the map's (pointer) order: the promoted slots' phis, and so
        // the lowered program's registers, must not depend on where LLVM allocated them (a
        // C program compiles to the same code in every process: Dask workers check its hash).
        for (llvm::Instruction* p : carrierOrder_) {
            const Carrier& c = carriers_.at(p);
            slots.push_back(c.passed);
            if (c.value) slots.push_back(c.value);
        }
        std::erase_if(slots, [](llvm::AllocaInst* a) { return !llvm::isAllocaPromotable(a); });
        if (!slots.empty()) llvm::PromoteMemToReg(slots, dt_);
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

    // Registers a disjunct needs that are defined on different branches of its path (Godot §III:
    // "for registers that do not reach the insertion location, arbitrary values can be used when
    // execution does not pass their definitions"): each such definition p gets a flag, false at
    // the header and true once p ran in the iteration, and a copy of its value; the assume reads
    // both (stack slots promoted to phis, undefined on the paths that miss p) and blocks only
    // when every flag is set, i.e. only on the disjunct's own path.
    struct Carrier {
        llvm::AllocaInst* passed = nullptr;
        llvm::AllocaInst* value = nullptr;
    };
    static llvm::Instruction* after(llvm::Instruction* p) {
        if (llvm::isa<llvm::PHINode>(p)) return &*p->getParent()->getFirstInsertionPt();
        return p->getNextNode();
    }
    Carrier& carrier(llvm::Instruction* p, bool value) {
        if (!carriers_.count(p)) carrierOrder_.push_back(p);
        Carrier& c = carriers_[p];
        llvm::Function& f = *loop_.getHeader()->getParent();
        llvm::LLVMContext& ctx = f.getContext();
        llvm::Type* i1 = llvm::Type::getInt1Ty(ctx);
        auto entry = f.getEntryBlock().getFirstInsertionPt();
        if (!c.passed) {
            c.passed = new llvm::AllocaInst(i1, 0, "plp.passed", entry);
            llvm::BasicBlock* h = loop_.getHeader();
            llvm::IRBuilder<>(h, h->getFirstInsertionPt())
                .CreateStore(llvm::ConstantInt::getFalse(ctx), c.passed);
            llvm::IRBuilder<>(after(p)).CreateStore(llvm::ConstantInt::getTrue(ctx), c.passed);
        }
        if (value && !c.value && !p->getType()->isVoidTy()) {
            c.value = new llvm::AllocaInst(p->getType(), 0, "plp.value", entry);
            llvm::IRBuilder<>(after(p)).CreateStore(p, c.value);
        }
        return c;
    }

    // When no point of `points` is dominated by all the others: the one latest on the loop
    // body's paths (every other point reaches it within an iteration), nullptr if there is none.
    llvm::Instruction* latestOnPaths(const std::vector<llvm::Instruction*>& points) {
        const std::vector<llvm::BasicBlock*> order = bodyPostOrder(loop_, li_);
        std::map<llvm::BasicBlock*, std::size_t> rank;  // smaller: later on every path
        for (std::size_t k = 0; k < order.size(); ++k) rank[order[k]] = k;
        llvm::Instruction* q = nullptr;
        for (llvm::Instruction* p : points) {
            if (!rank.count(p->getParent())) return nullptr;
            if (!q || rank[p->getParent()] < rank[q->getParent()] ||
                (p->getParent() == q->getParent() && q->comesBefore(p)))
                q = p;
        }
        for (llvm::Instruction* p : points) {
            if (p == q || p->getParent() == q->getParent()) continue;
            // Forward reachability from p's block to q's block in the body without backedges.
            std::set<llvm::BasicBlock*> seen{p->getParent()};
            std::vector<llvm::BasicBlock*> work{p->getParent()};
            bool found = false;
            while (!work.empty() && !found) {
                llvm::BasicBlock* b = work.back();
                work.pop_back();
                for (llvm::BasicBlock* s : llvm::successors(b)) {
                    if (!loop_.contains(s) || s == loop_.getHeader() ||
                        internalBackedge(loop_, li_, b, s))
                        continue;
                    if (s == q->getParent()) found = true;
                    if (seen.insert(s).second) work.push_back(s);
                }
            }
            if (!found) return nullptr;
        }
        return q;
    }

    llvm::Instruction* blockStart(llvm::BasicBlock* bb) {
        auto it = afterFlag_.find(bb);
        if (it != afterFlag_.end()) return it->second->getNextNode();
        return &*bb->getFirstInsertionPt();
    }

    void place(const Conj& conj) {
        Conj c = conj;
        sortByPlace(c.atoms, *loop_.getHeader()->getParent());
        std::vector<llvm::Instruction*> points;
        auto note = [&](llvm::Value* v) {
            if (auto* i = llvm::dyn_cast<llvm::Instruction>(v); i && loop_.contains(i))
                points.push_back(i);
        };
        for (const Atom& a : c.atoms) {
            note(a.lhs);
            note(a.rhs);
        }
        if (c.earliest) points.push_back(c.earliest);
        llvm::Instruction* q = nullptr;
        std::vector<llvm::Instruction*> elsewhere;  // points on other branches than q's
        if (!latestOnChain(points, dt_, q)) {
            q = latestOnPaths(points);
            if (!q) {
                ++stats_.unplaced;
                return;
            }
            for (llvm::Instruction* p : points)
                if (p != q && !dt_.dominates(p, q) &&
                    std::find(elsewhere.begin(), elsewhere.end(), p) == elsewhere.end())
                    elsewhere.push_back(p);
        }
        llvm::Instruction* pos = nullptr;
        if (!q)
            pos = blockStart(loop_.getHeader());
        else if (llvm::isa<llvm::PHINode>(q))
            pos = blockStart(q->getParent());
        else
            pos = q->getNextNode();
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
            if (d == Known::True)
                atoms.erase(atoms.begin() + static_cast<std::ptrdiff_t>(k));
            else
                ++k;
        }
        llvm::Value* extra = nullptr;
        if (took_) {
            llvm::IRBuilder<> b(pos);
            extra = b.CreateLoad(llvm::Type::getInt1Ty(pos->getContext()), took_, "plp.took");
        }
        if (!elsewhere.empty()) {
            // The disjunct's registers from other branches, read through their carriers; the
            // assume also holds when one of them did not run in this iteration.
            std::map<llvm::Value*, llvm::Value*> copy;
            for (llvm::Instruction* p : elsewhere) {
                bool used = false;
                for (const Atom& a : atoms) used = used || a.lhs == p || a.rhs == p;
                Carrier& cr = carrier(p, used);
                llvm::IRBuilder<> b(pos);
                llvm::Value* missed = b.CreateNot(b.CreateLoad(
                    llvm::Type::getInt1Ty(pos->getContext()), cr.passed, "plp.passed"));
                extra = extra ? b.CreateOr(extra, missed) : missed;
                if (used && cr.value) copy[p] = b.CreateLoad(p->getType(), cr.value, "plp.value");
            }
            for (Atom& a : atoms) {
                if (auto it = copy.find(a.lhs); it != copy.end()) a.lhs = it->second;
                if (auto it = copy.find(a.rhs); it != copy.end()) a.rhs = it->second;
            }
        }
        const llvm::DebugLoc loc = q && q->getDebugLoc() ? q->getDebugLoc() : pos->getDebugLoc();
        llvm::Value* start = iterationStart(loop_);  // at the header's top: dominates pos
        ours_.insert(emitAssumeNot(atoms, extra, pos, loc, start));
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
    std::map<llvm::Instruction*, Carrier> carriers_;
    std::vector<llvm::Instruction*> carrierOrder_;  // carriers_'s keys in creation order
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
