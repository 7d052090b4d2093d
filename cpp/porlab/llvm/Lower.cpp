// SPDX-License-Identifier: MIT
// Lowering: every defined function becomes a flat array of CInstr. Operands are frame slots or
// module constants, GEPs are offsets, phis are parallel copies on edges, loop bounds are counter
// checks on back edges, calls are bound to functions or built-ins. Anything porlab does not
// implement is reported here, at load time, with its source line. This file: the module (static
// layout, thread-locals, source positions, constants, globals, escape analysis).
#include "porlab/llvm/Lowerer.hpp"

namespace porlab::cfront {

void Lowerer::run() {
    // Constant k is operand ~k, and operand -1 means "none" (a void return, no array size):
    // constant 0 is a placeholder no operand refers to (else `return 5` could return nothing).
    out_.constants.push_back(0);
    if (dl_.getPointerSize() == 4)
        out_.useThirtyTwoBitPointers();  // -m32 (SV-COMP's .i files)
    else if (dl_.getPointerSize() != 8)
        throw UnsupportedError(m_.getSourceFileName() +
                               ": only 32- and 64-bit targets are supported");
    for (const llvm::Function& f : m_) {
        if (f.isIntrinsic()) continue;
        funcIndex_[&f] = static_cast<std::int32_t>(out_.functions.size());
        CFunction cf;
        cf.name = f.getName().str();
        cf.defined = !f.isDeclaration();
        cf.atomic = cf.defined && startsWith(cf.name, "__VERIFIER_atomic_") &&
                    cf.name != "__VERIFIER_atomic_begin" && cf.name != "__VERIFIER_atomic_end";
        cf.numParams = static_cast<std::int32_t>(f.arg_size());
        out_.functions.push_back(std::move(cf));
        if (f.getName() == "main" && !f.isDeclaration()) out_.mainFunction = funcIndex_[&f];
    }
    if (out_.mainFunction < 0) throw InputError(m_.getSourceFileName() + ": no main function");
    for (const llvm::GlobalVariable& g : m_.globals()) {
        globalIndex_[&g] = static_cast<std::int32_t>(out_.globals.size());
        out_.globals.emplace_back();
    }
    layOutStaticObjects();
    for (const llvm::GlobalVariable& g : m_.globals()) lowerGlobal(g);
    computeEscapes();
    placeThreadLocals();
    for (const llvm::Function& f : m_)
        if (!f.isDeclaration()) lowerFunction(f);
    out_.dynamicBase = out_.lowBits ? alignUp(nextBase_, std::uint64_t{1} << 16) : 0;
    if (nonScCount_ > 0)
        out_.warnings.push_back("the program uses memory orders weaker than seq_cst (" +
                                std::to_string(nonScCount_) + " atomic access" +
                                (nonScCount_ > 1 ? "es or fences" : " or fence") +
                                ", the first at " + firstNonSc_ +
                                "): porlab explores every atomic as sequentially consistent, so "
                                "behaviours that only weak memory allows are not explored");
}

std::uint64_t Lowerer::nextStaticBase(std::uint64_t size, std::uint64_t align) {
    if (!out_.lowBits) return 0;
    align = std::max<std::uint64_t>(align, 16);
    std::uint64_t b = alignUp(nextBase_, align);
    // base + size must stay below 2^32 (the offset must not carry into the object bits);
    // beyond that the low bits of objects repeat (a program with gigabytes of globals).
    if (b + size + 16 >= (std::uint64_t{1} << 32)) b = alignUp(0x1000, align);
    nextBase_ = b + std::max<std::uint64_t>(size, 1) + 16;
    return b;
}

void Lowerer::layOutStaticObjects() {
    out_.staticBase.assign(static_cast<std::size_t>(out_.firstDynamicObject()), 0);
    for (std::size_t f = 0; f < out_.functions.size(); ++f)
        out_.staticBase[static_cast<std::size_t>(out_.functionObject(f))] = nextStaticBase(16, 16);
    for (const llvm::GlobalVariable& gv : m_.globals()) {
        const std::uint64_t size = gv.getValueType()->isSized()
                                       ? dl_.getTypeAllocSize(gv.getValueType()).getFixedValue()
                                       : 0;
        out_.staticBase[static_cast<std::size_t>(
            out_.globalObject(static_cast<std::size_t>(globalIndex_.at(&gv))))] =
            nextStaticBase(size, gv.getAlign() ? gv.getAlign()->value() : 16);
    }
}

void Lowerer::placeThreadLocals() {
    for (const llvm::GlobalVariable& gv : m_.globals()) {
        if (!gv.isThreadLocal()) continue;
        CGlobal& g = out_.globals[static_cast<std::size_t>(globalIndex_.at(&gv))];
        bool escaped = false;
        for (const llvm::User* u : gv.users()) {
            auto* call = llvm::dyn_cast<llvm::CallInst>(u);
            const llvm::Function* cf = call ? call->getCalledFunction() : nullptr;
            if (!cf || !startsWith(cf->getName().str(), "llvm.threadlocal.address")) {
                escaped = true;  // (no other use reaches the lowering: pointerTo rejects it)
                continue;
            }
            std::set<const llvm::Value*> seen;
            if (escapes(call, seen)) escaped = true;
        }
        if (escaped) continue;
        const std::uint64_t align =
            std::max<std::uint64_t>(gv.getAlign() ? gv.getAlign()->value() : 8, 8);
        const std::uint64_t off = alignUp(out_.tlsTemplate.size(), align);
        if (off + g.size > (std::uint64_t{1} << 24))
            throw UnsupportedError("thread-local variable '" + g.name + "' is too large");
        out_.tlsTemplate.resize(off + g.size, 0);
        std::copy(g.bytes.begin(), g.bytes.end(),
                  out_.tlsTemplate.begin() + static_cast<std::ptrdiff_t>(off));
        g.tlsOffset = static_cast<std::int32_t>(off);
    }
    out_.tlsTemplate.resize(alignUp(out_.tlsTemplate.size(), 16), 0);
}

std::uint32_t Lowerer::fileId(const std::string& name) {
    auto it = files_.find(name);
    if (it != files_.end()) return it->second;
    const auto id = static_cast<std::uint32_t>(out_.files.size());
    out_.files.push_back(name);
    files_[name] = id;
    return id;
}

SourcePos Lowerer::posOf(const llvm::Instruction& i) {
    const llvm::DebugLoc& dl = i.getDebugLoc();
    if (!dl) return curFnPos_;
    SourcePos p;
    p.line = dl.getLine();
    if (auto* scope = llvm::dyn_cast_or_null<llvm::DIScope>(dl.getScope()))
        p.file = fileId(scope->getFilename().str());
    return p;
}

std::string Lowerer::where(const llvm::Instruction& i) {
    SourcePos p = posOf(i);
    if (!i.getDebugLoc() && llvm::isa<llvm::IndirectBrInst>(i))  // clang's shared goto block:
        for (const llvm::BasicBlock* pred : llvm::predecessors(i.getParent()))  // the goto's line
            if (pred->getTerminator()->getDebugLoc()) {
                p = posOf(*pred->getTerminator());
                break;
            }
    std::ostringstream o;
    if (p.line)
        o << out_.files[p.file] << ":" << p.line << ": ";
    else
        o << m_.getSourceFileName() << ": in function '" << i.getFunction()->getName().str()
          << "': ";
    return o.str();
}

std::string Lowerer::typeName(const llvm::Type* t) {
    if (t->isVectorTy()) return "vector values";
    if (t->isStructTy() || t->isArrayTy())
        return "struct or array values (passed, returned or assigned as a whole)";
    if (t->isX86_FP80Ty() || t->isFP128Ty() || t->isPPC_FP128Ty()) return "long double";
    if (t->isHalfTy() || t->isBFloatTy()) return "half-precision floating point";
    if (t->isIntegerTy()) return "integers wider than 64 bits";
    return "values of this type";
}

std::string Lowerer::construct(const llvm::Instruction& i) {
    using I = llvm::Instruction;
    switch (i.getOpcode()) {
        case I::FAdd:
        case I::FSub:
        case I::FMul:
        case I::FDiv:
        case I::FRem:
        case I::FNeg:
            return "floating-point arithmetic";
        case I::FCmp:
            return "floating-point comparison";
        case I::FPToSI:
        case I::FPToUI:
        case I::SIToFP:
        case I::UIToFP:
            return "conversion between integers and floating point";
        case I::FPExt:
        case I::FPTrunc:
            return "conversion between floating-point types";
        case I::VAArg:
            return "va_arg (a variadic function defined by the program)";
        case I::ExtractElement:
        case I::InsertElement:
        case I::ShuffleVector:
            return "vector values";
        case I::ExtractValue:
        case I::InsertValue:
            return "struct or array values (passed, returned or assigned as a whole)";
        case I::IndirectBr:
            return "computed goto (goto *p)";
        case I::CallBr:
            return "asm goto";
        case I::Invoke:
        case I::LandingPad:
        case I::Resume:
        case I::CatchSwitch:
        case I::CatchPad:
        case I::CatchRet:
        case I::CleanupPad:
        case I::CleanupRet:
            return "exceptions";
        default:
            return std::string("this construct (compiled to '") + i.getOpcodeName() + "')";
    }
}

[[noreturn]] void Lowerer::unsupported(const llvm::Instruction& i, const std::string& what) {
    throw UnsupportedError(where(i) + what + " is not supported");
}

std::int64_t Lowerer::pointerTo(const llvm::GlobalValue* gv) {
    if (auto* f = llvm::dyn_cast<llvm::Function>(gv)) {
        auto it = funcIndex_.find(f);
        if (it == funcIndex_.end())
            throw UnsupportedError("address of intrinsic " + f->getName().str());
        const auto obj = out_.functionObject(static_cast<std::size_t>(it->second));
        return static_cast<std::int64_t>(
            out_.pointer(obj, out_.staticBase[static_cast<std::size_t>(obj)]));
    }
    if (auto* g = llvm::dyn_cast<llvm::GlobalVariable>(gv)) {
        if (g->isThreadLocal())
            throw UnsupportedError("the address of the thread-local variable '" +
                                   g->getName().str() + "' in a constant");
        const auto obj = out_.globalObject(static_cast<std::size_t>(globalIndex_.at(g)));
        return static_cast<std::int64_t>(
            out_.pointer(obj, out_.staticBase[static_cast<std::size_t>(obj)]));
    }
    if (auto* a = llvm::dyn_cast<llvm::GlobalAlias>(gv)) return constValue(a->getAliasee());
    throw UnsupportedError("global value " + gv->getName().str());
}

std::int64_t Lowerer::constValue(const llvm::Constant* c) {
    if (auto* ci = llvm::dyn_cast<llvm::ConstantInt>(c)) {
        const unsigned w = ci->getBitWidth();
        if (w > 64) throw UnsupportedError("integer constant wider than 64 bits");
        return normalize(static_cast<std::int64_t>(ci->getZExtValue()), w);
    }
    if (llvm::isa<llvm::ConstantPointerNull>(c) || llvm::isa<llvm::UndefValue>(c) ||
        llvm::isa<llvm::ConstantAggregateZero>(c))
        return 0;
    if (auto* fp = llvm::dyn_cast<llvm::ConstantFP>(c))
        return static_cast<std::int64_t>(fp->getValueAPF().bitcastToAPInt().getZExtValue());
    if (auto* gv = llvm::dyn_cast<llvm::GlobalValue>(c)) return pointerTo(gv);
    if (auto* ce = llvm::dyn_cast<llvm::ConstantExpr>(c)) {
        switch (ce->getOpcode()) {
            case llvm::Instruction::GetElementPtr: {
                auto* gep = llvm::cast<llvm::GEPOperator>(ce);
                llvm::APInt off(64, 0);
                if (!gep->accumulateConstantOffset(dl_, off))
                    throw UnsupportedError("a constant address porlab cannot compute");
                return constValue(llvm::cast<llvm::Constant>(gep->getPointerOperand())) +
                       off.getSExtValue();
            }
            case llvm::Instruction::BitCast:
            case llvm::Instruction::AddrSpaceCast:
            case llvm::Instruction::IntToPtr:
                return constValue(ce->getOperand(0));
            case llvm::Instruction::PtrToInt:
            case llvm::Instruction::Trunc:
                if (ce->getType()->isIntegerTy() && ce->getType()->getIntegerBitWidth() <= 64)
                    return normalize(constValue(ce->getOperand(0)),
                                     ce->getType()->getIntegerBitWidth());
                break;
            case llvm::Instruction::ZExt:
            case llvm::Instruction::SExt: {
                const auto* from = ce->getOperand(0)->getType();
                if (!from->isIntegerTy() || from->getIntegerBitWidth() > 64) break;
                const unsigned fw = from->getIntegerBitWidth();
                const std::int64_t v = constValue(ce->getOperand(0));
                if (ce->getOpcode() == llvm::Instruction::SExt) return v;
                return fw >= 64 ? v
                                : static_cast<std::int64_t>(static_cast<std::uint64_t>(v) &
                                                            ((1ULL << fw) - 1));
            }
            // Integer arithmetic on constant addresses, e.g. container_of's
            // `p - offsetof(T, f)`: `sub (0, ptrtoint (gep null, ...))`.
            case llvm::Instruction::Add:
            case llvm::Instruction::Sub:
            case llvm::Instruction::Mul:
            case llvm::Instruction::Xor:
            case llvm::Instruction::Shl: {
                if (!ce->getType()->isIntegerTy() || ce->getType()->getIntegerBitWidth() > 64)
                    break;
                const auto a = static_cast<std::uint64_t>(constValue(ce->getOperand(0)));
                const auto b = static_cast<std::uint64_t>(constValue(ce->getOperand(1)));
                std::uint64_t r = 0;
                switch (ce->getOpcode()) {
                    case llvm::Instruction::Add:
                        r = a + b;
                        break;
                    case llvm::Instruction::Sub:
                        r = a - b;
                        break;
                    case llvm::Instruction::Mul:
                        r = a * b;
                        break;
                    case llvm::Instruction::Xor:
                        r = a ^ b;
                        break;
                    default:
                        r = b >= 64 ? 0 : a << b;
                        break;
                }
                return normalize(static_cast<std::int64_t>(r), ce->getType()->getIntegerBitWidth());
            }
            default:
                break;
        }
    }
    if (llvm::isa<llvm::BlockAddress>(c))
        throw UnsupportedError("the address of a label (&&label)");
    if (c->getType()->isVectorTy()) throw UnsupportedError("vector values");
    throw UnsupportedError("a constant expression porlab cannot evaluate");
}

std::int32_t Lowerer::constOperand(std::int64_t v) {
    auto it = constIndex_.find(v);
    if (it != constIndex_.end()) return it->second;
    const auto idx = static_cast<std::int32_t>(out_.constants.size());
    out_.constants.push_back(v);
    const std::int32_t op = ~idx;
    constIndex_[v] = op;
    return op;
}

void Lowerer::writeConst(const llvm::Constant* c, std::uint8_t* buf) {
    llvm::Type* t = c->getType();
    if (c->isNullValue() || llvm::isa<llvm::UndefValue>(c)) return;  // zeros
    if (auto* cds = llvm::dyn_cast<llvm::ConstantDataSequential>(c)) {
        llvm::StringRef raw = cds->getRawDataValues();
        std::memcpy(buf, raw.data(), raw.size());
        return;
    }
    if (auto* ca = llvm::dyn_cast<llvm::ConstantArray>(c)) {
        const auto stride = dl_.getTypeAllocSize(ca->getType()->getElementType()).getFixedValue();
        for (unsigned i = 0; i < ca->getNumOperands(); ++i)
            writeConst(ca->getOperand(i), buf + i * stride);
        return;
    }
    if (auto* cs = llvm::dyn_cast<llvm::ConstantStruct>(c)) {
        const llvm::StructLayout* sl = dl_.getStructLayout(cs->getType());
        for (unsigned i = 0; i < cs->getNumOperands(); ++i)
            writeConst(cs->getOperand(i), buf + sl->getElementOffset(i).getFixedValue());
        return;
    }
    if (t->isIntegerTy() || t->isPointerTy() || t->isFloatingPointTy()) {
        const std::int64_t v = constValue(c);
        const auto n = dl_.getTypeStoreSize(t).getFixedValue();
        std::memcpy(buf, &v, std::min<std::uint64_t>(n, 8));
        return;
    }
    throw UnsupportedError("the initializer of a global of " + typeName(t));
}

const llvm::DIType* Lowerer::stripTypedefs(const llvm::DIType* t) {
    while (auto* d = llvm::dyn_cast_or_null<llvm::DIDerivedType>(t)) {
        const auto tag = d->getTag();
        if (tag != llvm::dwarf::DW_TAG_typedef && tag != llvm::dwarf::DW_TAG_const_type &&
            tag != llvm::dwarf::DW_TAG_volatile_type && tag != llvm::dwarf::DW_TAG_atomic_type)
            break;
        t = d->getBaseType();
    }
    return t;
}

void Lowerer::fieldName(const llvm::DICompositeType* comp, std::uint64_t offsetBits, bool only,
                        std::string& fname, const llvm::DIType*& fdi) {
    const llvm::DIDerivedType* base = nullptr;
    for (const llvm::DINode* e : comp->getElements()) {
        auto* mem = llvm::dyn_cast<llvm::DIDerivedType>(e);
        if (!mem || mem->getOffsetInBits() != offsetBits) continue;
        if (mem->getTag() == llvm::dwarf::DW_TAG_member && !mem->isStaticMember()) {
            const std::string n = mem->getName().str();
            fname = only && n.rfind("_M_", 0) == 0 ? "" : "." + n;
            fdi = mem->getBaseType();
            return;
        }
        if (mem->getTag() == llvm::dwarf::DW_TAG_inheritance && !base) base = mem;
    }
    if (base) {
        fname = "";
        fdi = base->getBaseType();
    }
}

void Lowerer::cellsOf(CGlobal& g, llvm::Type* t, std::uint64_t off, const std::string& name,
                      const llvm::DIType* di) {
    if (auto* td = llvm::dyn_cast_or_null<llvm::DIDerivedType>(di);
        td && td->getTag() == llvm::dwarf::DW_TAG_typedef &&
        td->getName() == "pthread_spinlock_t" &&
        t->isIntegerTy()) {  // a spin lock is a mutex of its own size
        CGlobalCell cell;
        cell.offset = static_cast<std::uint32_t>(off);
        cell.size = static_cast<std::uint8_t>(dl_.getTypeStoreSize(t).getFixedValue());
        cell.mutex = true;
        cell.name = name;
        g.cells.push_back(cell);
        return;
    }
    di = stripTypedefs(di);
    if (auto* st = llvm::dyn_cast<llvm::StructType>(t)) {
        const std::string sn = st->hasName() ? st->getName().str() : "";
        const auto size = dl_.getTypeAllocSize(t).getFixedValue();
        if (startsWith(sn, "union.pthread_mutex_t") || startsWith(sn, "union.pthread_cond_t") ||
            startsWith(sn, "union.mtx_t") || startsWith(sn, "union.cnd_t")) {
            CGlobalCell cell;
            cell.offset = static_cast<std::uint32_t>(off);
            cell.size = static_cast<std::uint8_t>(std::min<std::uint64_t>(size, 255));
            cell.mutex = startsWith(sn, "union.pthread_mutex_t") || startsWith(sn, "union.mtx_t");
            cell.name = name;
            g.cells.push_back(cell);
            return;
        }
        // A read-write lock: a mutex (writers, and readers while they register) and a
        // reader count; a barrier: one word (program/Builtins.cpp, rwlock and barrier built-ins).
        if (startsWith(sn, "union.pthread_rwlock_t") || startsWith(sn, "union.pthread_barrier_t")) {
            const bool rw = startsWith(sn, "union.pthread_rwlock_t");
            CGlobalCell cell;
            cell.offset = static_cast<std::uint32_t>(off);
            cell.size = 8;
            cell.mutex = rw;
            cell.name = name;
            g.cells.push_back(cell);
            if (rw) {
                cell.offset += 8;
                cell.mutex = false;
                cell.name = name + ".readers";
                g.cells.push_back(cell);
            }
            return;
        }
        g.parts.emplace_back(static_cast<std::uint32_t>(off), name);  // pointers to it
        const llvm::StructLayout* sl = dl_.getStructLayout(st);
        auto* comp = llvm::dyn_cast_or_null<llvm::DICompositeType>(di);
        for (unsigned i = 0; i < st->getNumElements(); ++i) {
            const auto foff = sl->getElementOffset(i).getFixedValue();
            std::string fname = "." + std::to_string(i);
            const llvm::DIType* fdi = nullptr;
            if (comp) fieldName(comp, foff * 8, st->getNumElements() == 1, fname, fdi);
            cellsOf(g, st->getElementType(i), off + foff, name + fname, fdi);
        }
        return;
    }
    if (auto* at = llvm::dyn_cast<llvm::ArrayType>(t)) {
        const auto stride = dl_.getTypeAllocSize(at->getElementType()).getFixedValue();
        const llvm::DIType* edi = nullptr;
        if (auto* comp = llvm::dyn_cast_or_null<llvm::DICompositeType>(di);
            comp && comp->getTag() == llvm::dwarf::DW_TAG_array_type)
            edi = comp->getBaseType();
        for (std::uint64_t i = 0; i < at->getNumElements(); ++i)
            cellsOf(g, at->getElementType(), off + i * stride, name + "[" + std::to_string(i) + "]",
                    edi);
        return;
    }
    if (t->isIntegerTy() || t->isPointerTy() || t->isFloatingPointTy()) {
        CGlobalCell cell;
        cell.offset = static_cast<std::uint32_t>(off);
        cell.size = static_cast<std::uint8_t>(dl_.getTypeStoreSize(t).getFixedValue());
        std::int64_t v = 0;
        std::memcpy(&v, g.bytes.data() + off, std::min<std::size_t>(cell.size, 8));
        cell.init = cell.size >= 8 ? v : normalize(v, cell.size * 8U);
        cell.name = name;
        g.cells.push_back(cell);
        return;
    }
    throw UnsupportedError("global of type " + std::to_string(t->getTypeID()) + ": " + name);
}

void Lowerer::lowerGlobal(const llvm::GlobalVariable& gv) {
    CGlobal& g = out_.globals[static_cast<std::size_t>(globalIndex_.at(&gv))];
    g.name = gv.getName().str();
    g.displayName = g.name;
    llvm::Type* t = gv.getValueType();
    const auto size = dl_.getTypeAllocSize(t).getFixedValue();
    if (size > (1U << 30)) throw UnsupportedError("global '" + g.name + "' is too large");
    g.size = static_cast<std::uint32_t>(size);
    g.bytes.assign(size, 0);
    if (gv.hasInitializer())
        writeConst(gv.getInitializer(), g.bytes.data());
    else if (gv.isDeclaration()) {
        std::string at = m_.getSourceFileName() + ": ";
        for (const llvm::User* u : gv.users())
            if (auto* i = llvm::dyn_cast<llvm::Instruction>(u)) {
                at = where(*i);
                break;
            }
        throw UnsupportedError(at + "the external variable '" + readableSymbol(g.name) +
                               "' (declared extern but defined nowhere in the program) is not "
                               "supported" +
                               cxxSymbolHint(g.name));
    }
    g.constant = gv.isConstant();
    g.tls = gv.isThreadLocal();
    if (g.constant || g.tls) return;
    llvm::SmallVector<llvm::DIGlobalVariableExpression*, 1> dis;
    gv.getDebugInfo(dis);
    const llvm::DIType* di = dis.empty() ? nullptr : dis[0]->getVariable()->getType();
    std::string name = g.name;
    if (!dis.empty()) name = dis[0]->getVariable()->getName().str();
    g.displayName = name;
    cellsOf(g, t, 0, name, di);
}

bool Lowerer::escapes(const llvm::Value* v, std::set<const llvm::Value*>& seen) {
    if (!seen.insert(v).second) return false;
    for (const llvm::User* u : v->users()) {
        if (llvm::isa<llvm::LoadInst>(u) || llvm::isa<llvm::ICmpInst>(u)) continue;
        if (auto* s = llvm::dyn_cast<llvm::StoreInst>(u)) {
            if (s->getValueOperand() == v) return true;
            continue;
        }
        if (auto* rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(u)) {
            if (rmw->getValOperand() == v) return true;
            continue;
        }
        if (auto* cx = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(u)) {
            if (cx->getCompareOperand() == v || cx->getNewValOperand() == v) return true;
            continue;
        }
        if (llvm::isa<llvm::GetElementPtrInst>(u) || llvm::isa<llvm::BitCastInst>(u) ||
            llvm::isa<llvm::AddrSpaceCastInst>(u) || llvm::isa<llvm::PHINode>(u) ||
            llvm::isa<llvm::SelectInst>(u) || llvm::isa<llvm::FreezeInst>(u)) {
            if (escapes(u, seen)) return true;
            continue;
        }
        if (auto* call = llvm::dyn_cast<llvm::CallInst>(u)) {
            const llvm::Function* callee = call->getCalledFunction();
            if (!callee) return true;
            auto bc = classify(callee->getName().str(), !callee->isDeclaration());
            for (unsigned i = 0; i < call->arg_size(); ++i) {
                if (call->getArgOperand(i) != v) continue;
                if (bc) {
                    if (bc->skip) continue;
                    if (builtinLetsEscape(bc->b, i)) return true;
                    continue;
                }
                if (callee->isDeclaration() || i >= callee->arg_size()) return true;
                if (paramEscapes_[callee->getArg(i)]) return true;
            }
            continue;
        }
        return true;  // returned, converted to an integer, or something not analysed
    }
    return false;
}

void Lowerer::computeEscapes() {
    bool changed = true;
    while (changed) {
        changed = false;
        for (const llvm::Function& f : m_) {
            if (f.isDeclaration()) continue;
            for (const llvm::Argument& a : f.args()) {
                if (!a.getType()->isPointerTy() || paramEscapes_[&a]) continue;
                std::set<const llvm::Value*> seen;
                if (escapes(&a, seen)) {
                    paramEscapes_[&a] = true;
                    changed = true;
                }
            }
        }
    }
}

CModule lowerModule(const llvm::Module& m, const CLoadOptions& opts) {
    CModule out;
    Lowerer(m, opts, out).run();
    return out;
}

}  // namespace porlab::cfront
