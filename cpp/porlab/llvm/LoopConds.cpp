// SPDX-License-Identifier: MIT
#include "porlab/llvm/LoopConds.hpp"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/ConstantRange.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>

#include <algorithm>

namespace porlab::cfront::loops {

namespace {

constexpr std::size_t MaxDisjuncts = 32;
constexpr std::size_t MaxAtoms = 24;

llvm::StringRef calleeName(const llvm::Instruction& i) {
    const auto* call = llvm::dyn_cast<llvm::CallInst>(&i);
    if (!call) return {};
    const llvm::Function* f = call->getCalledFunction();
    return f ? f->getName() : llvm::StringRef{};
}

// Is `a` implied by the atoms of `known` on the same register (integer constants only)?
std::optional<llvm::ConstantRange> region(const Atom& a) {
    const auto* c = llvm::dyn_cast<llvm::ConstantInt>(a.rhs);
    if (!c || !a.lhs->getType()->isIntegerTy()) return std::nullopt;
    return llvm::ConstantRange::makeExactICmpRegion(a.pred, c->getValue());
}

// Normalises, sorts and checks a conjunction; false when it can never hold.
bool simplify(Conj& c) {
    std::vector<Atom> out;
    out.reserve(c.atoms.size());
    for (const Atom& raw : c.atoms) {
        const Atom a = normalize(raw);
        if (auto v = constantValue(a)) {
            if (!*v) return false;
            continue;
        }
        out.push_back(a);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    for (const Atom& a : out)
        if (std::binary_search(out.begin(), out.end(), negate(a))) return false;
    // Contradictory ranges on one register.
    for (const Atom& a : out) {
        auto ra = region(a);
        if (!ra) continue;
        llvm::ConstantRange r = *ra;
        for (const Atom& b : out)
            if (b.lhs == a.lhs)
                if (auto rb = region(b); rb && rb->getBitWidth() == r.getBitWidth())
                    r = r.intersectWith(*rb);
        if (r.isEmptySet()) return false;
    }
    c.atoms = std::move(out);
    return c.atoms.size() <= MaxAtoms;
}

Dnf reduce(Dnf d) {
    std::stable_sort(d.begin(), d.end(),
                     [](const Conj& a, const Conj& b) { return a.atoms.size() < b.atoms.size(); });
    Dnf out;
    for (Conj& c : d) {
        bool subsumed = false;
        for (const Conj& k : out)
            if (std::includes(c.atoms.begin(), c.atoms.end(), k.atoms.begin(), k.atoms.end()) &&
                (k.earliest == c.earliest || k.earliest == nullptr)) {
                subsumed = true;
                break;
            }
        if (!subsumed) out.push_back(std::move(c));
        if (out.size() >= MaxDisjuncts) break;  // dropping disjuncts only weakens PLP
    }
    return out;
}

bool safeAccess(llvm::Value* ptr, llvm::Type* ty, const llvm::DataLayout& dl) {
    llvm::APInt off(dl.getIndexTypeSizeInBits(ptr->getType()), 0);
    const llvm::Value* base = ptr->stripAndAccumulateConstantOffsets(dl, off, true);
    std::uint64_t size = 0;
    if (const auto* gv = llvm::dyn_cast<llvm::GlobalVariable>(base)) {
        size = dl.getTypeAllocSize(gv->getValueType());
    } else if (const auto* al = llvm::dyn_cast<llvm::AllocaInst>(base)) {
        if (!al->isStaticAlloca()) return false;
        auto s = al->getAllocationSize(dl);
        if (!s || s->isScalable()) return false;
        size = s->getFixedValue();
    } else {
        return false;
    }
    const std::int64_t o = off.getSExtValue();
    return o >= 0 && static_cast<std::uint64_t>(o) + dl.getTypeStoreSize(ty) <= size;
}

}  // namespace

Atom negate(const Atom& a) { return {llvm::CmpInst::getInversePredicate(a.pred), a.lhs, a.rhs}; }

Atom boolAtom(llvm::Value* b, bool polarity) {
    return normalize({polarity ? llvm::CmpInst::ICMP_NE : llvm::CmpInst::ICMP_EQ, b,
                      llvm::ConstantInt::getFalse(b->getContext())});
}

Atom normalize(Atom a) {
    for (int step = 0; step < 16; ++step) {
        if (llvm::isa<llvm::Constant>(a.lhs) && !llvm::isa<llvm::Constant>(a.rhs)) {
            std::swap(a.lhs, a.rhs);
            a.pred = llvm::CmpInst::getSwappedPredicate(a.pred);
        }
        const auto* c = llvm::dyn_cast<llvm::ConstantInt>(a.rhs);
        if (!c || (a.pred != llvm::CmpInst::ICMP_EQ && a.pred != llvm::CmpInst::ICMP_NE) ||
            !(c->isZero() || c->isOne()))
            break;
        // `x != 0`, `x == 1` mean b; `x == 0`, `x != 1` mean ¬b, when x is a boolean b.
        const bool pol = (a.pred == llvm::CmpInst::ICMP_NE) == c->isZero();
        llvm::Value* x = a.lhs;
        llvm::Value* b = nullptr;
        if (auto* z = llvm::dyn_cast<llvm::ZExtInst>(x); z && z->getSrcTy()->isIntegerTy(1))
            b = z->getOperand(0);
        else if (x->getType()->isIntegerTy(1))
            b = x;
        if (!b) break;
        auto canonical = [](llvm::Value* v, bool p) {
            return Atom{p ? llvm::CmpInst::ICMP_NE : llvm::CmpInst::ICMP_EQ, v,
                        llvm::ConstantInt::getFalse(v->getContext())};
        };
        if (auto* cmp = llvm::dyn_cast<llvm::ICmpInst>(b)) {
            a = {pol ? cmp->getPredicate() : cmp->getInversePredicate(), cmp->getOperand(0),
                 cmp->getOperand(1)};
            continue;
        }
        if (auto* bo = llvm::dyn_cast<llvm::BinaryOperator>(b);
            bo && bo->getOpcode() == llvm::Instruction::Xor) {
            llvm::Value* other = nullptr;
            if (auto* k = llvm::dyn_cast<llvm::ConstantInt>(bo->getOperand(1)); k && k->isOne())
                other = bo->getOperand(0);
            else if (auto* k0 = llvm::dyn_cast<llvm::ConstantInt>(bo->getOperand(0));
                     k0 && k0->isOne())
                other = bo->getOperand(1);
            if (other && other->getType()->isIntegerTy(1)) {
                a = canonical(other, !pol);
                continue;
            }
        }
        if (auto* t = llvm::dyn_cast<llvm::TruncInst>(b)) {
            // trunc (zext i1 v) to i1 is v.
            if (auto* z = llvm::dyn_cast<llvm::ZExtInst>(t->getOperand(0));
                z && z->getSrcTy()->isIntegerTy(1)) {
                a = canonical(z->getOperand(0), pol);
                continue;
            }
        }
        a = canonical(b, pol);
        break;
    }
    return a;
}

std::optional<bool> constantValue(const Atom& a) {
    if (a.lhs == a.rhs) return llvm::CmpInst::isTrueWhenEqual(a.pred);
    const auto* l = llvm::dyn_cast<llvm::ConstantInt>(a.lhs);
    const auto* r = llvm::dyn_cast<llvm::ConstantInt>(a.rhs);
    if (!l || !r || l->getBitWidth() != r->getBitWidth()) return std::nullopt;
    return llvm::ICmpInst::compare(l->getValue(), r->getValue(), a.pred);
}

Dnf dnfAtom(const Atom& a) {
    Conj c;
    c.atoms.push_back(a);
    if (!simplify(c)) return dnfFalse();
    return {c};
}

Dnf dnfOr(Dnf a, const Dnf& b) {
    a.insert(a.end(), b.begin(), b.end());
    return reduce(std::move(a));
}

Dnf dnfAnd(const Dnf& a, const Dnf& b) {
    Dnf out;
    for (const Conj& x : a)
        for (const Conj& y : b) {
            Conj c;
            c.atoms = x.atoms;
            c.atoms.insert(c.atoms.end(), y.atoms.begin(), y.atoms.end());
            c.earliest = x.earliest ? x.earliest : y.earliest;
            if (simplify(c)) out.push_back(std::move(c));
        }
    return reduce(std::move(out));
}

bool isTrue(const Dnf& d) {
    return std::any_of(d.begin(), d.end(), [](const Conj& c) { return c.atoms.empty(); });
}

llvm::Value* assumeCondition(const llvm::Instruction& i) {
    const llvm::StringRef n = calleeName(i);
    const auto* call = llvm::dyn_cast<llvm::CallInst>(&i);
    const bool mine = n == "__porlab_spin_assume" && call->arg_size() == 2;
    if (!mine && !(n == "__VERIFIER_assume" && call->arg_size() == 1)) return nullptr;
    llvm::Value* c = call->getArgOperand(0);
    return c->getType()->isIntegerTy() ? c : nullptr;
}

bool isAssumeCall(const llvm::Instruction& i) { return assumeCondition(i) != nullptr; }
bool isLoadAwait(const llvm::Instruction& i) {
    return calleeName(i).starts_with("__VERIFIER_load_await_i");
}
bool isXchgAwait(const llvm::Instruction& i) {
    return calleeName(i).starts_with("__VERIFIER_xchg_await_i");
}

int awaitCode(llvm::CmpInst::Predicate p) {
    switch (p) {
        case llvm::CmpInst::ICMP_EQ:
            return 2;
        case llvm::CmpInst::ICMP_NE:
            return 5;
        case llvm::CmpInst::ICMP_UGT:
            return 1;
        case llvm::CmpInst::ICMP_UGE:
            return 3;
        case llvm::CmpInst::ICMP_ULT:
            return 4;
        case llvm::CmpInst::ICMP_ULE:
            return 6;
        case llvm::CmpInst::ICMP_SGT:
            return 9;
        case llvm::CmpInst::ICMP_SGE:
            return 11;
        case llvm::CmpInst::ICMP_SLT:
            return 12;
        case llvm::CmpInst::ICMP_SLE:
            return 14;
        default:
            return -1;
    }
}

std::optional<llvm::CmpInst::Predicate> predicateOfAwaitCode(std::int64_t code) {
    for (auto p : {llvm::CmpInst::ICMP_EQ, llvm::CmpInst::ICMP_NE, llvm::CmpInst::ICMP_UGT,
                   llvm::CmpInst::ICMP_UGE, llvm::CmpInst::ICMP_ULT, llvm::CmpInst::ICMP_ULE,
                   llvm::CmpInst::ICMP_SGT, llvm::CmpInst::ICMP_SGE, llvm::CmpInst::ICMP_SLT,
                   llvm::CmpInst::ICMP_SLE})
        if (awaitCode(p) == code) return p;
    return std::nullopt;
}

Dnf guardOf(llvm::Instruction& i, bool& mayFault) {
    mayFault = false;
    const llvm::DataLayout& dl = i.getModule()->getDataLayout();
    if (auto* ld = llvm::dyn_cast<llvm::LoadInst>(&i)) {
        mayFault = !safeAccess(ld->getPointerOperand(), ld->getType(), dl);
        return dnfTrue();
    }
    if (llvm::isa<llvm::StoreInst>(i) || llvm::isa<llvm::AllocaInst>(i)) return dnfFalse();
    if (auto* rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&i)) {
        mayFault = !safeAccess(rmw->getPointerOperand(), rmw->getValOperand()->getType(), dl);
        llvm::Value* v = rmw->getValOperand();
        if (!v->getType()->isIntegerTy()) return dnfFalse();
        auto* zero = llvm::ConstantInt::get(v->getType(), 0);
        switch (rmw->getOperation()) {
            case llvm::AtomicRMWInst::Add:
            case llvm::AtomicRMWInst::Sub:
            case llvm::AtomicRMWInst::Or:
            case llvm::AtomicRMWInst::Xor:
                return dnfAtom({llvm::CmpInst::ICMP_EQ, v, zero});
            case llvm::AtomicRMWInst::And:
                return dnfAtom(
                    {llvm::CmpInst::ICMP_EQ, v, llvm::ConstantInt::getSigned(v->getType(), -1)});
            case llvm::AtomicRMWInst::Xchg:
                return dnfAtom({llvm::CmpInst::ICMP_EQ, &i, v});
            default:
                return dnfFalse();
        }
    }
    if (auto* cas = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&i)) {
        mayFault = !safeAccess(cas->getPointerOperand(), cas->getCompareOperand()->getType(), dl);
        // No modification: the CAS failed, or it wrote back the value it found.
        Dnf g =
            dnfAtom({llvm::CmpInst::ICMP_EQ, cas->getCompareOperand(), cas->getNewValOperand()});
        for (llvm::User* u : cas->users())
            if (auto* ev = llvm::dyn_cast<llvm::ExtractValueInst>(u);
                ev && ev->getNumIndices() == 1 && ev->getIndices()[0] == 1 &&
                ev->getParent() == cas->getParent()) {
                g = dnfOr(std::move(g), dnfAtom(boolAtom(ev, false)));
                break;
            }
        return g;
    }
    if (auto* call = llvm::dyn_cast<llvm::CallInst>(&i)) {
        if (llvm::isa<llvm::DbgInfoIntrinsic>(call)) return dnfTrue();
        // asm volatile("" ::: "memory"): a compiler barrier, no instruction at all.
        if (const auto* as = llvm::dyn_cast<llvm::InlineAsm>(call->getCalledOperand());
            as && llvm::StringRef(as->getAsmString()).trim().empty())
            return dnfTrue();
        if (auto* ii = llvm::dyn_cast<llvm::IntrinsicInst>(call);
            ii && (ii->isAssumeLikeIntrinsic() || ii->getIntrinsicID() == llvm::Intrinsic::assume))
            return dnfTrue();
        const llvm::StringRef n = calleeName(i);
        if (n == "__VERIFIER_assume" || n == "__porlab_spin_assume") {
            llvm::Value* c = assumeCondition(i);
            if (!c) return dnfTrue();
            return dnfAtom({llvm::CmpInst::ICMP_NE, c, llvm::ConstantInt::get(c->getType(), 0)});
        }
        // The reductions' bookkeeping: no access to memory.
        if (n == "__porlab_iteration_start" || n == "__porlab_iteration_begin" ||
            n == "__porlab_purity_check")
            return dnfTrue();
        if (n.starts_with("__VERIFIER_load_await_i") && call->arg_size() == 3) {
            mayFault = true;
            const auto* code = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(1));
            auto p = code ? predicateOfAwaitCode(code->getSExtValue()) : std::nullopt;
            if (!p) return dnfTrue();
            return dnfAtom({*p, call, call->getArgOperand(2)});
        }
        if (n.starts_with("__VERIFIER_nondet_") || n == "sched_yield" || n == "pthread_self")
            return dnfTrue();
        return dnfFalse();
    }
    if (auto* bo = llvm::dyn_cast<llvm::BinaryOperator>(&i)) {
        switch (bo->getOpcode()) {
            case llvm::Instruction::SDiv:
            case llvm::Instruction::UDiv:
            case llvm::Instruction::SRem:
            case llvm::Instruction::URem: {
                const auto* d = llvm::dyn_cast<llvm::ConstantInt>(bo->getOperand(1));
                mayFault = !d || d->isZero() || d->isMinusOne();
                break;
            }
            default:
                break;
        }
        return dnfTrue();
    }
    // A fence orders nothing under sequential consistency (porlab's only memory model) and is
    // no event: an iteration that fences is as pure as one that does not (seqlock readers).
    if (llvm::isa<llvm::FenceInst>(i)) return dnfTrue();
    if (i.mayWriteToMemory() || i.isTerminator()) return dnfFalse();
    return dnfTrue();
}

std::vector<std::pair<llvm::BasicBlock*, Dnf>> edgeConditions(llvm::BasicBlock& bb) {
    std::vector<std::pair<llvm::BasicBlock*, Dnf>> out;
    auto add = [&](llvm::BasicBlock* s, const Dnf& d) {
        for (auto& [t, c] : out)
            if (t == s) {
                c = dnfOr(std::move(c), d);
                return;
            }
        out.emplace_back(s, d);
    };
    llvm::Instruction* term = bb.getTerminator();
    if (auto* br = llvm::dyn_cast<llvm::BranchInst>(term)) {
        if (br->isUnconditional() || br->getSuccessor(0) == br->getSuccessor(1)) {
            add(br->getSuccessor(0), dnfTrue());
        } else {
            add(br->getSuccessor(0), dnfAtom(boolAtom(br->getCondition(), true)));
            add(br->getSuccessor(1), dnfAtom(boolAtom(br->getCondition(), false)));
        }
        return out;
    }
    if (auto* sw = llvm::dyn_cast<llvm::SwitchInst>(term)) {
        Dnf dflt = dnfTrue();
        for (auto& cs : sw->cases()) {
            add(cs.getCaseSuccessor(),
                dnfAtom({llvm::CmpInst::ICMP_EQ, sw->getCondition(), cs.getCaseValue()}));
            dflt = dnfAnd(dflt,
                          dnfAtom({llvm::CmpInst::ICMP_NE, sw->getCondition(), cs.getCaseValue()}));
        }
        add(sw->getDefaultDest(), dflt);
        return out;
    }
    // Any other terminator: an edge condition is only known when there is one successor.
    const unsigned n = term->getNumSuccessors();
    for (unsigned k = 0; k < n; ++k) add(term->getSuccessor(k), n == 1 ? dnfTrue() : dnfFalse());
    return out;
}

std::vector<Fact> collectFacts(llvm::Function& f) {
    std::vector<Fact> out;
    for (llvm::BasicBlock& bb : f) {
        for (llvm::Instruction& i : bb) {
            auto* call = llvm::dyn_cast<llvm::CallInst>(&i);
            if (!call) continue;
            if (llvm::Value* c = assumeCondition(i)) {
                out.push_back({&i, nullptr,
                               normalize({llvm::CmpInst::ICMP_NE, c,
                                          llvm::ConstantInt::get(c->getType(), 0)})});
            } else if ((isLoadAwait(i) && call->arg_size() == 3) ||
                       (isXchgAwait(i) && call->arg_size() == 4)) {
                const unsigned k = isLoadAwait(i) ? 1 : 2;
                const auto* code = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(k));
                if (auto p = code ? predicateOfAwaitCode(code->getSExtValue()) : std::nullopt)
                    out.push_back({&i, nullptr, normalize({*p, call, call->getArgOperand(k + 1)})});
            }
        }
        auto* br = llvm::dyn_cast<llvm::BranchInst>(bb.getTerminator());
        if (!br || !br->isConditional() || br->getSuccessor(0) == br->getSuccessor(1)) continue;
        for (unsigned k = 0; k < 2; ++k)
            if (br->getSuccessor(k)->getSinglePredecessor() == &bb)
                out.push_back({nullptr, br->getSuccessor(k), boolAtom(br->getCondition(), k == 0)});
    }
    return out;
}

bool holdsBefore(const Fact& fact, llvm::Instruction* pos, llvm::DominatorTree& dt) {
    if (fact.at) return fact.at != pos && dt.dominates(fact.at, pos);
    return dt.dominates(fact.block, pos->getParent());
}

Known decide(const Atom& a, const std::vector<Atom>& known) {
    if (auto v = constantValue(a)) return *v ? Known::True : Known::False;
    for (const Atom& k : known) {
        if (k == a) return Known::True;
        if (k == negate(a)) return Known::False;
    }
    auto ra = region(a);
    if (!ra) return Known::Unknown;
    llvm::ConstantRange r(ra->getBitWidth(), true);
    bool any = false;
    for (const Atom& k : known)
        if (k.lhs == a.lhs)
            if (auto rk = region(k); rk && rk->getBitWidth() == r.getBitWidth()) {
                r = r.intersectWith(*rk);
                any = true;
            }
    if (!any) return Known::Unknown;
    if (r.isEmptySet() || r.intersectWith(*ra).isEmptySet()) return Known::False;
    if (ra->contains(r)) return Known::True;
    return Known::Unknown;
}

llvm::Value* iterationStart(llvm::Loop& loop) {
    llvm::BasicBlock* h = loop.getHeader();
    for (llvm::Instruction& i : *h)
        if (calleeName(i) == "__porlab_iteration_start") return &i;
    llvm::Module& m = *h->getModule();
    llvm::FunctionCallee fn = m.getOrInsertFunction(
        "__porlab_iteration_start",
        llvm::FunctionType::get(llvm::Type::getInt64Ty(m.getContext()), false));
    llvm::IRBuilder<> b(h, h->getFirstInsertionPt());
    if (const llvm::Instruction* first = h->getFirstNonPHIOrDbg())
        b.SetCurrentDebugLocation(first->getDebugLoc());
    return b.CreateCall(fn, {}, "porlab.start");
}

llvm::CallInst* emitAssumeNot(const std::vector<Atom>& atoms, llvm::Value* extra,
                              llvm::Instruction* pos, const llvm::DebugLoc& loc,
                              llvm::Value* start) {
    llvm::Module& m = *pos->getModule();
    llvm::LLVMContext& ctx = m.getContext();
    llvm::IRBuilder<> b(pos);
    b.SetCurrentDebugLocation(loc);
    llvm::Value* cond = nullptr;
    for (const Atom& a : atoms) {
        const Atom n = negate(a);
        llvm::Value* v = b.CreateICmp(n.pred, n.lhs, n.rhs, "plp.ok");
        cond = cond ? b.CreateOr(cond, v, "plp.ok") : v;
    }
    if (extra) cond = cond ? b.CreateOr(cond, extra, "plp.ok") : extra;
    if (!cond) cond = llvm::ConstantInt::getFalse(ctx);
    llvm::Type* i64 = llvm::Type::getInt64Ty(ctx);
    llvm::FunctionCallee callee = m.getOrInsertFunction(
        "__porlab_spin_assume", llvm::FunctionType::get(llvm::Type::getVoidTy(ctx),
                                                        {llvm::Type::getInt32Ty(ctx), i64}, false));
    llvm::Value* arg = b.CreateZExtOrTrunc(cond, llvm::Type::getInt32Ty(ctx));
    return b.CreateCall(callee, {arg, start ? start : llvm::ConstantInt::getSigned(i64, -1)});
}

}  // namespace porlab::cfront::loops
