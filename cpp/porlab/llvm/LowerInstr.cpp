// SPDX-License-Identifier: MIT
// Lowering of single instructions (memory accesses, arithmetic, branches, atomics).
#include "porlab/llvm/Lowerer.hpp"

namespace porlab::cfront {

void Lowerer::lowerInstr(const llvm::Instruction& i) {
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
            if (!widthOf(ic.getOperand(0)->getType()))
                unsupported(i, typeName(ic.getOperand(0)->getType()));
            CPred p = CPred::Eq;
            switch (ic.getPredicate()) {
                case llvm::CmpInst::ICMP_EQ:
                    p = CPred::Eq;
                    break;
                case llvm::CmpInst::ICMP_NE:
                    p = CPred::Ne;
                    break;
                case llvm::CmpInst::ICMP_UGT:
                    p = CPred::Ugt;
                    break;
                case llvm::CmpInst::ICMP_UGE:
                    p = CPred::Uge;
                    break;
                case llvm::CmpInst::ICMP_ULT:
                    p = CPred::Ult;
                    break;
                case llvm::CmpInst::ICMP_ULE:
                    p = CPred::Ule;
                    break;
                case llvm::CmpInst::ICMP_SGT:
                    p = CPred::Sgt;
                    break;
                case llvm::CmpInst::ICMP_SGE:
                    p = CPred::Sge;
                    break;
                case llvm::CmpInst::ICMP_SLT:
                    p = CPred::Slt;
                    break;
                case llvm::CmpInst::ICMP_SLE:
                    p = CPred::Sle;
                    break;
                default:
                    unsupported(i, "this comparison");
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
                unsupported(
                    i, typeName(widthOf(i.getType()) ? i.getOperand(0)->getType() : i.getType()));
            CInstr& in = emit(COp::Mov, i);
            in.a = dst;
            in.b = opnd(i.getOperand(0), i);
            return;
        }
        case Instruction::GetElementPtr: {
            auto& gep = llvm::cast<llvm::GetElementPtrInst>(i);
            llvm::MapVector<llvm::Value*, llvm::APInt> vars;
            llvm::APInt constOff(64, 0);
            if (!gep.getType()->isPointerTy() || !gep.collectOffset(dl_, 64, vars, constOff))
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
            in.imm2 = st.getMetadata("porlab.private") ? kAccessMarked
                                                       : 0;  // SAVER: dead at the loop header
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
                case llvm::AtomicRMWInst::Xchg:
                    op = CRmw::Xchg;
                    break;
                case llvm::AtomicRMWInst::Add:
                    op = CRmw::Add;
                    break;
                case llvm::AtomicRMWInst::Sub:
                    op = CRmw::Sub;
                    break;
                case llvm::AtomicRMWInst::And:
                    op = CRmw::And;
                    break;
                case llvm::AtomicRMWInst::Or:
                    op = CRmw::Or;
                    break;
                case llvm::AtomicRMWInst::Xor:
                    op = CRmw::Xor;
                    break;
                case llvm::AtomicRMWInst::Max:
                    op = CRmw::Max;
                    break;
                case llvm::AtomicRMWInst::Min:
                    op = CRmw::Min;
                    break;
                case llvm::AtomicRMWInst::Nand:
                    op = CRmw::Nand;
                    break;
                case llvm::AtomicRMWInst::UMax:
                    op = CRmw::UMax;
                    break;
                case llvm::AtomicRMWInst::UMin:
                    op = CRmw::UMin;
                    break;
                case llvm::AtomicRMWInst::UIncWrap:
                    op = CRmw::UIncWrap;
                    break;
                case llvm::AtomicRMWInst::UDecWrap:
                    op = CRmw::UDecWrap;
                    break;
                default:
                    if (r.isFloatingPointOperation() || r.getType()->isFloatingPointTy())
                        unsupported(
                            i,
                            "a floating-point atomic operation (porlab has no floating-point "
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
            in.imm2 =
                r.getMetadata("porlab.zne") ? kAccessMarked : 0;  // SAVER: a canceling decrement
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
        case Instruction::PHI:
            return;  // copies on the incoming edges
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
        case Instruction::Unreachable:
            emit(COp::Unreachable, i);
            return;
        case Instruction::Fence:  // every access is sequentially consistent
            noteOrder(i, llvm::cast<llvm::FenceInst>(i).getOrdering());
            return;
        case Instruction::Call:
            lowerCall(llvm::cast<llvm::CallInst>(i));
            return;
        default:
            break;
    }
    unsupported(i, construct(i));
}

void Lowerer::noteOrder(const llvm::Instruction& i, llvm::AtomicOrdering o) {
    using O = llvm::AtomicOrdering;
    if (o == O::SequentiallyConsistent || o == O::NotAtomic) return;
    if (nonScCount_++ > 0) return;
    const char* name = o == O::Acquire          ? "acquire"
                       : o == O::Release        ? "release"
                       : o == O::AcquireRelease ? "acq_rel"
                                                : "relaxed";
    std::string at = where(i);
    if (at.size() >= 2) at.resize(at.size() - 2);  // without the ": "
    firstNonSc_ = at + ", " + name + (llvm::isa<llvm::FenceInst>(i) ? " fence" : "");
}

bool Lowerer::isBookkeepingCall(const llvm::Instruction& i) {
    const auto* c = llvm::dyn_cast<llvm::CallInst>(&i);
    const llvm::Function* g = c ? c->getCalledFunction() : nullptr;
    return g && (g->getName() == "__porlab_iteration_start" ||
                 g->getName() == "__porlab_iteration_begin");
}

SourcePos Lowerer::headerPos(const llvm::Loop& loop) {
    for (const llvm::Instruction& i : *loop.getHeader())
        if (i.getDebugLoc() && i.getDebugLoc().getLine()) return posOf(i);
    for (const llvm::BasicBlock* latch : llvm::predecessors(loop.getHeader()))
        if (loop.contains(latch) && latch->getTerminator()->getDebugLoc())
            return posOf(*latch->getTerminator());
    return curFnPos_;
}

bool Lowerer::holdsPointer(const llvm::Type* t, const llvm::Value* addr) const {
    if (t->isPointerTy()) return true;
    if (!t->isIntegerTy(dl_.getPointerSizeInBits())) return false;
    addr = addr->stripPointerCasts();
    if (auto* g = llvm::dyn_cast<llvm::GlobalVariable>(addr))
        return g->getValueType()->isPointerTy();
    if (auto* gep = llvm::dyn_cast<llvm::GEPOperator>(addr))
        return gep->getResultElementType()->isPointerTy();
    if (auto* al = llvm::dyn_cast<llvm::AllocaInst>(addr))
        return al->getAllocatedType()->isPointerTy();
    return false;
}

std::int64_t Lowerer::allocaName(const llvm::AllocaInst& al) {
    std::string name = al.getName().str();
    for (const llvm::DbgVariableRecord* r :
         llvm::findDVRDeclares(const_cast<llvm::AllocaInst*>(&al)))
        if (r->getVariable()) name = r->getVariable()->getName().str();
    for (const llvm::DbgDeclareInst* d : llvm::findDbgDeclares(const_cast<llvm::AllocaInst*>(&al)))
        if (d->getVariable()) name = d->getVariable()->getName().str();
    if (name.empty()) name = "stack";
    out_.allocaNames.push_back(name);
    return static_cast<std::int64_t>(out_.allocaNames.size() - 1);
}

}  // namespace porlab::cfront
