// SPDX-License-Identifier: MIT
// Rewriting assume into await (Godot §III end; ALGORITHMS.md §1.3.3):
//   a := load x;          assume(a ⋈ k)   →  a := __VERIFIER_load_await_iN(x, ⋈, k)
//   b := xchg(x, v);      assume(b ⋈ k)   →  b := __VERIFIER_xchg_await_iN(x, v, ⋈, k)
//   c := cmpxchg(x,e,n);  assume(c.ok)    →  c.old := __VERIFIER_xchg_await_iN(x, n, EQ, e)
// The access and the assume are in one block with only register computations between them, and
// k is available before the access. A load+assume pair is rewritten whoever wrote the assume
// (blocking never performs the load); xchg and cmpxchg pairs only for PLP's own assumes, whose
// failure implies that the access wrote back the value it found.
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Local.h>

#include "porlab/llvm/LoopConds.hpp"

namespace porlab::cfront::loops {

namespace {

bool awaitWidth(llvm::Type* t) {
    return t->isIntegerTy(8) || t->isIntegerTy(16) || t->isIntegerTy(32) || t->isIntegerTy(64);
}

// Only register computations strictly between `from` and `to` (same block, from before to).
bool onlyRegisterCode(llvm::Instruction* from, llvm::Instruction* to) {
    if (from->getParent() != to->getParent()) return false;
    for (llvm::Instruction* i = from->getNextNode(); i && i != to; i = i->getNextNode()) {
        if (llvm::isa<llvm::DbgInfoIntrinsic>(i)) continue;
        if (i->mayReadOrWriteMemory() || llvm::isa<llvm::CallBase>(i) || i->isTerminator() ||
            llvm::isa<llvm::PHINode>(i))
            return false;
    }
    for (llvm::Instruction* i = from->getNextNode(); i; i = i->getNextNode())
        if (i == to) return true;
    return false;
}

bool availableBefore(llvm::Value* v, llvm::Instruction* at, llvm::DominatorTree& dt) {
    if (llvm::isa<llvm::Constant>(v) || llvm::isa<llvm::Argument>(v)) return true;
    auto* i = llvm::dyn_cast<llvm::Instruction>(v);
    return i && i != at && dt.dominates(i, at);
}

llvm::FunctionCallee awaitFn(llvm::Module& m, bool xchg, llvm::Type* t) {
    llvm::LLVMContext& ctx = m.getContext();
    const std::string name =
        std::string(xchg ? "__VERIFIER_xchg_await_i" : "__VERIFIER_load_await_i") +
        std::to_string(t->getIntegerBitWidth());
    llvm::Type* ptr = llvm::PointerType::get(ctx, 0);
    llvm::Type* i32 = llvm::Type::getInt32Ty(ctx);
    llvm::FunctionType* fty = xchg ? llvm::FunctionType::get(t, {ptr, t, i32, t}, false)
                                   : llvm::FunctionType::get(t, {ptr, i32, t}, false);
    return m.getOrInsertFunction(name, fty);
}

void dropAssume(llvm::CallInst* assume, std::set<llvm::CallInst*>& ours) {
    llvm::Value* cond = assume->getArgOperand(0);
    ours.erase(assume);
    assume->eraseFromParent();
    llvm::RecursivelyDeleteTriviallyDeadInstructions(cond);
}

}  // namespace

int rewriteAwaits(llvm::Function& f, std::set<llvm::CallInst*>& ours) {
    std::vector<llvm::CallInst*> assumes;
    for (llvm::BasicBlock& bb : f)
        for (llvm::Instruction& i : bb)
            if (isAssumeCall(i)) assumes.push_back(llvm::cast<llvm::CallInst>(&i));
    if (assumes.empty()) return 0;
    llvm::DominatorTree dt(f);
    llvm::Module& m = *f.getParent();
    int rewritten = 0;
    for (llvm::CallInst* call : assumes) {
        llvm::Value* c = assumeCondition(*call);
        Atom a = normalize({llvm::CmpInst::ICMP_NE, c, llvm::ConstantInt::get(c->getType(), 0)});
        auto isAccess = [](llvm::Value* v) {
            if (llvm::isa<llvm::LoadInst>(v)) return true;
            auto* rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(v);
            return rmw && rmw->getOperation() == llvm::AtomicRMWInst::Xchg;
        };
        if (!isAccess(a.lhs) && isAccess(a.rhs)) {
            std::swap(a.lhs, a.rhs);
            a.pred = llvm::CmpInst::getSwappedPredicate(a.pred);
        }
        const bool mine = ours.count(call) != 0;
        // cmpxchg + assume(success)
        if (auto* ev = llvm::dyn_cast<llvm::ExtractValueInst>(a.lhs);
            mine && ev && a.pred == llvm::CmpInst::ICMP_NE && llvm::isa<llvm::ConstantInt>(a.rhs) &&
            llvm::cast<llvm::ConstantInt>(a.rhs)->isZero() && ev->getNumIndices() == 1 &&
            ev->getIndices()[0] == 1) {
            auto* cas = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(ev->getAggregateOperand());
            if (!cas || !awaitWidth(cas->getCompareOperand()->getType()) ||
                !onlyRegisterCode(cas, call))
                continue;
            std::vector<llvm::ExtractValueInst*> parts;
            bool plain = true;
            for (llvm::User* u : cas->users()) {
                auto* e = llvm::dyn_cast<llvm::ExtractValueInst>(u);
                if (!e || e->getNumIndices() != 1)
                    plain = false;
                else
                    parts.push_back(e);
            }
            if (!plain) continue;
            llvm::IRBuilder<> b(cas);
            llvm::Type* t = cas->getCompareOperand()->getType();
            llvm::CallInst* r = b.CreateCall(
                awaitFn(m, true, t),
                {cas->getPointerOperand(), cas->getNewValOperand(),
                 b.getInt32(static_cast<std::uint32_t>(awaitCode(llvm::CmpInst::ICMP_EQ))),
                 cas->getCompareOperand()},
                "await.old");
            r->setDebugLoc(cas->getDebugLoc());
            for (llvm::ExtractValueInst* e : parts) {
                e->replaceAllUsesWith(e->getIndices()[0] == 0
                                          ? static_cast<llvm::Value*>(r)
                                          : llvm::ConstantInt::getTrue(f.getContext()));
                e->eraseFromParent();
            }
            cas->eraseFromParent();
            dropAssume(call, ours);
            ++rewritten;
            continue;
        }
        auto* acc = llvm::dyn_cast<llvm::Instruction>(a.lhs);
        if (!acc || !isAccess(acc) || !awaitWidth(acc->getType()) || awaitCode(a.pred) < 0 ||
            a.rhs->getType() != acc->getType() || !availableBefore(a.rhs, acc, dt) ||
            !onlyRegisterCode(acc, call))
            continue;
        llvm::IRBuilder<> b(acc);
        const auto code = b.getInt32(static_cast<std::uint32_t>(awaitCode(a.pred)));
        llvm::CallInst* r = nullptr;
        if (auto* ld = llvm::dyn_cast<llvm::LoadInst>(acc)) {
            r = b.CreateCall(awaitFn(m, false, acc->getType()),
                             {ld->getPointerOperand(), code, a.rhs}, acc->getName());
            // A non-atomic load stays non-atomic as an await: it races as the load did.
            if (!ld->isAtomic())
                r->setMetadata("porlab.plain", llvm::MDNode::get(m.getContext(), {}));
        } else {
            if (!mine) continue;
            auto* rmw = llvm::cast<llvm::AtomicRMWInst>(acc);
            r = b.CreateCall(awaitFn(m, true, acc->getType()),
                             {rmw->getPointerOperand(), rmw->getValOperand(), code, a.rhs},
                             acc->getName());
        }
        r->setDebugLoc(acc->getDebugLoc());
        acc->replaceAllUsesWith(r);
        acc->eraseFromParent();
        dropAssume(call, ours);
        ++rewritten;
    }
    return rewritten;
}

}  // namespace porlab::cfront::loops
