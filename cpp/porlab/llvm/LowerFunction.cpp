// SPDX-License-Identifier: MIT
// Lowering of functions (slots, labels, edges) and of calls (to functions and built-ins).
#include "porlab/llvm/Lowerer.hpp"

namespace porlab::cfront {

std::int32_t Lowerer::slotOf(const llvm::Value* v) {
    auto it = slots_.find(v);
    if (it != slots_.end()) return it->second;
    return -1;
}

std::int32_t Lowerer::newSlots(const llvm::Value* v, std::int32_t n) {
    const std::int32_t s = fn_->numSlots;
    fn_->numSlots += n;
    if (v) slots_[v] = s;
    return s;
}

std::int32_t Lowerer::opnd(const llvm::Value* v, const llvm::Instruction& at) {
    if (auto* c = llvm::dyn_cast<llvm::Constant>(v)) {
        try {
            return constOperand(constValue(c));
        } catch (const UnsupportedError& e) {
            unsupported(at, e.what());
        }
    }
    const std::int32_t s = slotOf(v);
    if (s < 0)
        unsupported(at, llvm::isa<llvm::BasicBlock>(v) || llvm::isa<llvm::MetadataAsValue>(v)
                            ? "this operand (a label or debug information)"
                            : "this operand");
    return s;
}

unsigned Lowerer::widthOf(const llvm::Type* t) {
    if (t->isIntegerTy()) return t->getIntegerBitWidth() <= 64 ? t->getIntegerBitWidth() : 0;
    if (t->isPointerTy()) return 64;
    if (t->isFloatTy()) return 32;
    if (t->isDoubleTy()) return 64;
    return 0;
}

CInstr& Lowerer::emit(COp op, const llvm::Instruction& at) {
    CInstr in;
    in.op = op;
    in.pos = posOf(at);
    fn_->code.push_back(in);
    return fn_->code.back();
}

std::int32_t Lowerer::edgeLabel(const llvm::BasicBlock* from, const llvm::BasicBlock* to) {
    const std::int32_t toLabel = blockLabel_.at(to);
    const bool phis = !to->phis().empty();
    const llvm::Loop* loop = loops_->getLoopFor(to);
    const bool header = loop && loop->getHeader() == to;
    if (!phis && !header) return toLabel;
    auto key = std::make_pair(from, to);
    auto it = stubOf_.find(key);
    if (it != stubOf_.end()) return it->second;
    const auto label = static_cast<std::int32_t>(blockLabel_.size() + stubs_.size());
    stubs_.push_back({from, to});
    stubOf_[key] = label;
    return label;
}

void Lowerer::fixup(std::int32_t label, std::int32_t* field) {
    fixups_.push_back({static_cast<std::size_t>(fn_->code.size() - 1),
                       field == &fn_->code.back().a ? 0 : 1, label});
}

void Lowerer::lowerFunction(const llvm::Function& f) {
    fn_ = &out_.functions[static_cast<std::size_t>(funcIndex_.at(&f))];
    slots_.clear();
    blockLabel_.clear();
    stubs_.clear();
    stubOf_.clear();
    fixups_.clear();
    caseFixups_.clear();
    curFnPos_ = {};
    if (const llvm::DISubprogram* sp = f.getSubprogram()) {
        curFnPos_.line = sp->getLine();
        curFnPos_.file = fileId(sp->getFilename().str());
    }
    if (f.isVarArg())
        for (const llvm::BasicBlock& bb : f)
            for (const llvm::Instruction& i : bb)
                if (auto* c = llvm::dyn_cast<llvm::CallInst>(&i);
                    (c && c->getCalledFunction() &&
                     startsWith(c->getCalledFunction()->getName().str(), "llvm.va_start")) ||
                    llvm::isa<llvm::VAArgInst>(i)) {
                    SourcePos p = curFnPos_;
                    throw UnsupportedError(
                        (p.line ? out_.files[p.file] + ":" + std::to_string(p.line) + ": "
                                : where(i)) +
                        "the variadic function '" + f.getName().str() +
                        "' (defined with '...' and reading its arguments with va_start/va_arg) "
                        "is not supported");
                }
    fn_->numSlots = 0;
    for (const llvm::Argument& a : f.args()) newSlots(&a, 1);
    llvm::DominatorTree dt(const_cast<llvm::Function&>(f));
    llvm::LoopInfo li(dt);
    // Every loop header is marked (LoopEnter / LoopBack on its incoming edges), with or
    // without a bound: the marks count the jumps back for --unroll, give the reductions'
    // blocks the start of their iteration and let the interpreter see a livelock.
    loops_ = &li;
    loopSlot_.clear();
    std::int32_t label = 0;
    for (const llvm::BasicBlock& bb : f) blockLabel_[&bb] = label++;
    // Result slots first, so that operands defined later in layout order resolve. The
    // bookkeeping slots (CFunction::stateSlots) come after the registers.
    std::vector<const llvm::Instruction*> bookkeeping;
    for (const llvm::BasicBlock& bb : f)
        for (const llvm::Instruction& i : bb) {
            if (i.getType()->isVoidTy()) continue;
            if (isBookkeepingCall(i))
                bookkeeping.push_back(&i);
            else if (llvm::isa<llvm::AtomicCmpXchgInst>(i))
                newSlots(&i, 2);
            else
                newSlots(&i, 1);
        }
    fn_->stateSlots = fn_->numSlots;
    for (const llvm::Loop* l : li.getLoopsInPreorder()) loopSlot_[l] = newSlots(nullptr, 4);
    for (const llvm::Instruction* i : bookkeeping) newSlots(i, 1);
    std::vector<std::int32_t> labelPc(blockLabel_.size(), -1);
    for (const llvm::BasicBlock& bb : f) {
        labelPc[static_cast<std::size_t>(blockLabel_[&bb])] =
            static_cast<std::int32_t>(fn_->code.size());
        for (const llvm::Instruction& i : bb) lowerInstr(i);
    }
    for (std::size_t s = 0; s < stubs_.size(); ++s) {
        labelPc.push_back(static_cast<std::int32_t>(fn_->code.size()));
        const auto [from, to] = stubs_[s];
        const llvm::Instruction& at = *from->getTerminator();
        std::vector<std::pair<std::int32_t, std::int32_t>> pairs;
        for (const llvm::PHINode& phi : to->phis()) {
            const llvm::Value* inc = phi.getIncomingValueForBlock(from);
            if (!widthOf(phi.getType())) unsupported(phi, typeName(phi.getType()));
            pairs.emplace_back(slotOf(&phi), opnd(inc, phi));
        }
        if (!pairs.empty()) {
            CInstr& in = emit(COp::ParCopy, at);
            in.imm = static_cast<std::int64_t>(fn_->copies.size());
            in.c = static_cast<std::int32_t>(pairs.size());
            fn_->copies.insert(fn_->copies.end(), pairs.begin(), pairs.end());
        }
        // After the phi copies: the registers are then the header's (a livelock is a header
        // state that repeats).
        if (const llvm::Loop* loop = loops_->getLoopFor(to); loop && loop->getHeader() == to) {
            CInstr& in = emit(loop->contains(from) ? COp::LoopBack : COp::LoopEnter, at);
            in.a = loopSlot_.at(loop);
            in.imm = opts_.unroll ? *opts_.unroll - 1 : -1;  // N visits of the header
            const SourcePos h = headerPos(*loop);
            in.imm2 = (static_cast<std::int64_t>(h.file) << 32) | h.line;
        }
        emit(COp::Jump, at);
        fixup(blockLabel_.at(to), &fn_->code.back().a);
    }
    for (const auto& fx : fixups_) {
        CInstr& in = fn_->code[fx.pc];
        (fx.field == 0 ? in.a : in.c) = labelPc[static_cast<std::size_t>(fx.label)];
    }
    for (const auto& [idx, lab] : caseFixups_)
        fn_->cases[idx].second = labelPc[static_cast<std::size_t>(lab)];
    shortcut(*fn_);
}

void Lowerer::shortcut(CFunction& fn) {
    auto& code = fn.code;
    auto target = [&](std::int32_t pc) {
        for (std::size_t hops = 0; hops < code.size(); ++hops) {  // (a cycle of jumps: stop)
            const CInstr& in = code[static_cast<std::size_t>(pc)];
            if (in.op != COp::Jump || in.a == pc) break;
            pc = in.a;
        }
        return pc;
    };
    for (std::size_t pc = 0; pc < code.size(); ++pc) {
        CInstr& in = code[pc];
        if (in.op == COp::Jump) in.a = target(in.a);
        if (in.op == COp::Branch) {
            in.a = target(in.a);
            in.c = target(in.c);
        }
        if (in.op == COp::Switch) {
            in.a = target(in.a);
            for (std::int32_t k = 0; k < in.c; ++k) {
                auto& cs = fn.cases[static_cast<std::size_t>(in.imm + k)];
                cs.second = target(cs.second);
            }
        }
    }
    for (std::size_t pc = 0; pc + 1 < code.size(); ++pc) {
        CInstr& in = code[pc];
        const CInstr& next = code[pc + 1];
        if (in.op == COp::Cmp && next.op == COp::Branch && next.b == in.a && in.a >= 0) {
            in.op = COp::CmpBr;
            in.d = next.a;
            in.imm = next.c;
        }
        if (in.op == COp::Cast && next.op == COp::PtrAdd) in.op = COp::CastPtrAdd;
    }
    for (std::size_t pc = 0; pc < code.size(); ++pc) {
        const auto after = static_cast<std::int32_t>(pc + 1);
        code[pc].next = pc + 1 < code.size() ? target(after) : after;
    }
}

bool Lowerer::isBarrierAsm(const llvm::InlineAsm& ia, const llvm::CallInst& call) {
    if (!call.getType()->isVoidTy() || call.arg_size() != 0) return false;
    for (const auto& c : ia.ParseConstraints())
        if (c.Type != llvm::InlineAsm::isClobber) return false;
    std::string text;
    for (char ch : ia.getAsmString()) {
        if (ch == '$' && !text.empty() && text.back() == '$') continue;  // "$$0": "$0"
        text += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    }
    static const std::set<std::string, std::less<>> fences = {"",
                                                              "mfence",
                                                              "lfence",
                                                              "sfence",
                                                              "nop",
                                                              "pause",
                                                              "rep nop",
                                                              "lock",
                                                              "fence",
                                                              "fence rw,rw",
                                                              "fence iorw,iorw",
                                                              "sync",
                                                              "lwsync",
                                                              "hwsync",
                                                              "isync",
                                                              "dmb ish",
                                                              "dmb ishld",
                                                              "dmb ishst",
                                                              "dmb sy",
                                                              "dmb ld",
                                                              "dmb st",
                                                              "dsb sy",
                                                              "dsb ish",
                                                              "isb",
                                                              "addl $0,0(%rsp)",
                                                              "addl $0,(%rsp)",
                                                              "addl $0,0(%esp)",
                                                              "addl $0,(%esp)",
                                                              "orl $0,0(%rsp)",
                                                              "orl $0,(%rsp)",
                                                              "orl $0,0(%esp)",
                                                              "orl $0,(%esp)",
                                                              "lock addl $0,0(%rsp)",
                                                              "lock addl $0,(%rsp)",
                                                              "lock addl $0,0(%esp)",
                                                              "lock addl $0,(%esp)",
                                                              "lock orl $0,0(%rsp)",
                                                              "lock orl $0,(%rsp)",
                                                              "lock orl $0,0(%esp)",
                                                              "lock orl $0,(%esp)"};
    std::size_t from = 0;
    while (from <= text.size()) {
        std::size_t to = text.find_first_of(";\n", from);
        if (to == std::string::npos) to = text.size();
        std::string insn;  // whitespace collapsed to one space, none next to a comma
        bool space = false;
        for (std::size_t k = from; k < to; ++k) {
            const char ch = text[k];
            if (std::isspace(static_cast<unsigned char>(ch))) {
                space = true;
                continue;
            }
            if (space && !insn.empty() && insn.back() != ',' && ch != ',') insn += ' ';
            space = false;
            insn += ch;
        }
        if (!fences.contains(insn)) return false;
        from = to + 1;
    }
    return true;
}

std::optional<std::string> Lowerer::knownUnsupported(const std::string& n) {
    static const std::map<std::string, std::string, std::less<>> table = {
        {"setjmp", "setjmp/longjmp (non-local jumps)"},
        {"_setjmp", "setjmp/longjmp (non-local jumps)"},
        {"__sigsetjmp", "setjmp/longjmp (non-local jumps)"},
        {"sigsetjmp", "setjmp/longjmp (non-local jumps)"},
        {"longjmp", "setjmp/longjmp (non-local jumps)"},
        {"_longjmp", "setjmp/longjmp (non-local jumps)"},
        {"siglongjmp", "setjmp/longjmp (non-local jumps)"},
        {"signal", "signal handlers (signal)"},
        {"sigaction", "signal handlers (sigaction)"},
        {"raise", "signals (raise)"},
        {"kill", "signals (kill)"},
        {"pthread_kill", "signals (pthread_kill)"},
        {"alarm", "signals (alarm)"},
        {"fork", "processes (fork)"},
        {"vfork", "processes (vfork)"},
        {"pthread_cancel", "thread cancellation (pthread_cancel)"},
        {"pthread_once", "pthread_once"},
        {"call_once", "call_once"},
        {"mtx_timedlock", "mtx_timedlock (porlab has no notion of time)"},
        {"cnd_timedwait", "cnd_timedwait (porlab has no notion of time)"},
        {"pthread_mutex_timedlock", "pthread_mutex_timedlock (porlab has no notion of time)"},
        {"pthread_cond_timedwait", "pthread_cond_timedwait (porlab has no notion of time)"},
        {"pthread_rwlock_timedrdlock", "pthread_rwlock_timedrdlock (porlab has no notion of time)"},
        {"pthread_rwlock_timedwrlock", "pthread_rwlock_timedwrlock (porlab has no notion of time)"},
        {"tss_create", "thread-specific storage (tss_*; _Thread_local is supported)"},
        {"tss_get", "thread-specific storage (tss_*; _Thread_local is supported)"},
        {"tss_set", "thread-specific storage (tss_*; _Thread_local is supported)"},
        {"pthread_key_create", "thread-specific data (pthread_key_*; _Thread_local is supported)"},
        {"pthread_getspecific", "thread-specific data (pthread_key_*; _Thread_local is supported)"},
        {"pthread_setspecific", "thread-specific data (pthread_key_*; _Thread_local is supported)"},
    };
    auto it = table.find(n);
    if (it != table.end()) return it->second;
    if (startsWith(n, "llvm.va_") || n == "llvm.va_start")
        return std::string("a variadic function defined by the program (va_start)");
    static const char* const floats[] = {
        "llvm.fabs.",   "llvm.sqrt.",      "llvm.floor.",  "llvm.ceil.",      "llvm.trunc.",
        "llvm.round",   "llvm.rint.",      "llvm.fma",     "llvm.copysign.",  "llvm.minnum.",
        "llvm.maxnum.", "llvm.pow",        "llvm.exp",     "llvm.log",        "llvm.sin.",
        "llvm.cos.",    "llvm.nearbyint.", "llvm.lrint",   "llvm.llrint",     "llvm.lround",
        "llvm.llround", "llvm.is.fpclass", "llvm.fmuladd", "llvm.fptosi.sat", "llvm.fptoui.sat"};
    for (const char* f : floats)
        if (startsWith(n, f)) return std::string("floating-point arithmetic");
    if (n.find(".with.overflow.") != std::string::npos)
        return std::string("overflow-checking arithmetic (__builtin_*_overflow)");
    if (startsWith(n, "llvm.frameaddress") || startsWith(n, "llvm.returnaddress"))
        return std::string("__builtin_frame_address / __builtin_return_address");
    if (startsWith(n, "llvm.")) {  // a compiler built-in, named as C programs write it
        std::string base = n.substr(5);
        base = base.substr(0, base.find('.'));
        return "the compiler built-in __builtin_" + base;
    }
    return std::nullopt;
}

bool Lowerer::lowerExpansion(const llvm::CallInst& call, const std::string& name,
                             std::int32_t dst) {
    auto argOp = [&](unsigned k) { return opnd(call.getArgOperand(k), call); };
    const auto ptrBits = static_cast<std::uint8_t>(8 * out_.ptrBytes);
    if (name == "valloc" || name == "pvalloc") {  // page-aligned malloc
        if (call.arg_size() != 1) return false;
        emitBuiltin(call, Builtin::AlignedAlloc, dst, {constOperand(4096), argOp(0)}, ptrBits);
        return true;
    }
    if (name == "posix_memalign") {
        // t = aligned_alloc(align, size); if (t) *memptr = t; return t ? 0 : ENOMEM
        // (*memptr is left alone on failure, as POSIX requires).
        if (call.arg_size() != 3) return false;
        const std::int32_t t = newSlots(nullptr, 1), c = newSlots(nullptr, 1);
        emitBuiltin(call, Builtin::AlignedAlloc, t, {argOp(1), argOp(2)}, ptrBits);
        CInstr& cmp = emit(COp::Cmp, call);
        cmp.sub = static_cast<std::uint8_t>(CPred::Eq);
        cmp.w = 64;
        cmp.a = c;
        cmp.b = t;
        cmp.c = constOperand(0);
        const auto br = static_cast<std::int32_t>(fn_->code.size());
        CInstr& b = emit(COp::Branch, call);
        b.b = c;
        b.a = br + 2;  // failed: skip the store
        b.c = br + 1;
        CInstr& st = emit(COp::Store, call);
        st.b = argOp(0);
        st.c = t;
        st.w = ptrBits;
        st.imm = out_.ptrBytes;
        if (dst >= 0) {
            CInstr& sel = emit(COp::Select, call);
            sel.a = dst;
            sel.b = c;
            sel.c = constOperand(12);  // ENOMEM
            sel.d = constOperand(0);
        }
        return true;
    }
    if (name == "realloc") {
        // n = size of p's block (0 for NULL; a pointer not from malloc faults as a bad free);
        // q = malloc(size); if (q) { memcpy(q, p, min(n, size)); free(p); } return q.
        if (call.arg_size() != 2) return false;
        const std::int32_t n = newSlots(nullptr, 1), q = newSlots(nullptr, 1),
                           c = newSlots(nullptr, 1), k = newSlots(nullptr, 1);
        const std::int32_t p = argOp(0), size = argOp(1);
        emitBuiltin(call, Builtin::BlockSize, n, {p}, 64);
        emitBuiltin(call, Builtin::Malloc, q, {size}, ptrBits);
        CInstr& cmp = emit(COp::Cmp, call);
        cmp.sub = static_cast<std::uint8_t>(CPred::Eq);
        cmp.w = 64;
        cmp.a = c;
        cmp.b = q;
        cmp.c = constOperand(0);
        const auto br = static_cast<std::int32_t>(fn_->code.size());
        CInstr& b = emit(COp::Branch, call);
        b.b = c;
        b.a = br + 4;  // failed: p stays as it is
        b.c = br + 1;
        emitBuiltin(call, Builtin::UMin, k, {n, size}, ptrBits);
        emitBuiltin(call, Builtin::Memcpy, -1, {q, p, k}, ptrBits).imm2 = 1;  // (skip gaps)
        notePlain(call.getArgOperand(0));  // the copy reads the old block non-atomically
        emitBuiltin(call, Builtin::Free, -1, {p}, 64);
        CInstr& mv = emit(COp::Mov, call);  // br + 4
        mv.a = dst;
        mv.b = q;
        if (dst < 0) mv.a = k;  // (the result is unused: a harmless copy)
        return true;
    }
    return false;
}

CInstr& Lowerer::emitBuiltin(const llvm::CallInst& call, Builtin b, std::int32_t dst,
                             std::initializer_list<std::int32_t> args, std::uint8_t w) {
    const auto start = static_cast<std::int32_t>(fn_->args.size());
    fn_->args.insert(fn_->args.end(), args.begin(), args.end());
    CInstr& in = emit(COp::Builtin, call);
    in.sub = static_cast<std::uint8_t>(b);
    in.a = dst;
    in.w = w;
    in.b = start;
    in.c = static_cast<std::int32_t>(args.size());
    return in;
}

void Lowerer::lowerCall(const llvm::CallInst& call) {
    const llvm::Function* callee = call.getCalledFunction();
    const std::int32_t dst = call.getType()->isVoidTy() ? -1 : slotOf(&call);
    if (call.isInlineAsm()) {
        const auto& ia = *llvm::cast<llvm::InlineAsm>(call.getCalledOperand());
        if (isBarrierAsm(ia, call)) return;  // a compiler barrier or fence: SC already
        std::string text = ia.getAsmString();
        if (text.size() > 40) text = text.substr(0, 37) + "...";
        for (auto& ch : text)
            if (ch == '\n' || ch == '\t') ch = ' ';
        unsupported(call, "inline assembly (\"" + text +
                              "\"; porlab accepts only compiler barriers and fences, e.g. "
                              "asm volatile(\"\" ::: \"memory\") or \"mfence\")");
    }
    if (!callee) {
        CInstr& in = emit(COp::CallPtr, call);
        in.a = dst;
        in.d = opnd(call.getCalledOperand(), call);
        pushArgs(call, in);
        return;
    }
    const std::string name = callee->getName().str();
    if (callee->isDeclaration() && lowerExpansion(call, name, dst)) return;
    auto bc = classify(name, !callee->isDeclaration());
    if (bc) {
        if (bc->skip) return;
        if ((bc->b == Builtin::MutexDestroy || bc->b == Builtin::SpinDestroy ||
             bc->b == Builtin::RwDestroy) &&
            !out_.mutexDestroy.line)
            out_.mutexDestroy = posOf(call);  // (rf and lapor refuse such programs)
        if (bc->mov) {
            CInstr& in = emit(COp::Mov, call);
            in.a = dst;
            in.b = opnd(call.getArgOperand(0), call);
            return;
        }
        if (bc->b == Builtin::TlsAddress) {
            auto* gv = llvm::dyn_cast<llvm::GlobalVariable>(call.getArgOperand(0));
            if (!gv || !gv->isThreadLocal())
                unsupported(call, "this use of a thread-local variable");
            const auto gi = globalIndex_.at(gv);
            const CGlobal& g = out_.globals[static_cast<std::size_t>(gi)];
            if (g.tlsOffset >= 0) {  // in the thread's private area, at the same offset in each
                CInstr& in = emit(COp::Mov, call);
                in.a = dst;
                in.b = constOperand(static_cast<std::int64_t>(out_.localTag) | g.tlsOffset);
                return;
            }
            CInstr& in = emitBuiltin(call, Builtin::TlsAddress, dst, {}, 64);
            in.imm = gi;
            return;
        }
        if (bc->b == Builtin::MtxInit && call.arg_size() == 2)
            if (auto* ci = llvm::dyn_cast<llvm::ConstantInt>(call.getArgOperand(1));
                ci && (ci->getZExtValue() & 1))  // mtx_recursive
                unsupported(call, "a recursive mutex (mtx_recursive)");
        if (bc->b == Builtin::AtomicBegin || bc->b == Builtin::AtomicEnd) needAtomicLock();
        CInstr& in = emit(COp::Builtin, call);
        in.sub = static_cast<std::uint8_t>(bc->b);
        in.a = dst;
        in.w = static_cast<std::uint8_t>(call.getType()->isVoidTy() ? 64 : widthOf(call.getType()));
        if (in.w == 0) unsupported(call, "'" + name + "' returning " + typeName(call.getType()));
        pushArgs(call, in);
        if (bc->b == Builtin::LoadAwait && call.getMetadata("porlab.plain")) {
            // the await a loop reduction made of a non-atomic load: it races as the load did
            in.plain = true;
            notePlain(call.getArgOperand(0));
        }
        if (bc->b == Builtin::Memset || bc->b == Builtin::Memcpy) {
            notePlain(call.getArgOperand(0));
            if (bc->b == Builtin::Memcpy) notePlain(call.getArgOperand(1));
        }
        if (bc->b == Builtin::LoadAwait || bc->b == Builtin::XchgAwait) {
            const unsigned condArg = bc->b == Builtin::LoadAwait ? 1 : 2;
            if (call.arg_size() != condArg + 2)
                unsupported(call, "'" + name + "' with this number of arguments");
            if (auto* ci = llvm::dyn_cast<llvm::ConstantInt>(call.getArgOperand(condArg));
                ci && !awaitCondFromCode(static_cast<int>(ci->getSExtValue())))
                unsupported(call, "await condition code " + std::to_string(ci->getSExtValue()));
        }
        if (bc->b == Builtin::AssertFail || bc->b == Builtin::ReachError)
            in.imm = assertionText(call, name, bc->b) + 1;
        if (bc->b == Builtin::Nondet && !warnedNondet_ && !opts_.nondetDomain) {
            warnedNondet_ = true;
            out_.warnings.push_back("__VERIFIER_nondet_* returns 0 (first call at " + where(call) +
                                    "the value domain is not explored)");
        }
        return;
    }
    if (callee->isDeclaration()) {
        if (auto why = knownUnsupported(name)) unsupported(call, *why);
        // C++: the name demangled, and why the library function is missing.
        const std::string hint = cxxSymbolHint(name);
        throw UnsupportedError(where(call) + "call of the undefined function '" +
                               readableSymbol(name) + "'" +
                               (hint.empty() ? " (not defined in the program, and not a "
                                               "library function porlab implements: see "
                                               "docs/supported-c.md)"
                                             : hint));
    }
    if (funcIndex_.at(callee) >= 0 &&
        out_.functions[static_cast<std::size_t>(funcIndex_.at(callee))].atomic)
        needAtomicLock();
    CInstr& in = emit(COp::Call, call);
    in.a = dst;
    in.imm = funcIndex_.at(callee);
    pushArgs(call, in);
}

std::int64_t Lowerer::assertionText(const llvm::CallInst& call, const std::string& name,
                                    Builtin b) {
    std::string text = "assertion failure";
    if (b == Builtin::ReachError) {
        text = name + "() called";
    } else {
        // glibc's __assert_fail(expr, file, line, function), BSD's __assert(expr, file,
        // line), macOS's __assert_rtn(function, file, line, expr).
        const unsigned arg = name == "__assert_rtn" ? 3 : 0;
        llvm::StringRef expr;
        if (arg < call.arg_size() && llvm::getConstantStringInfo(call.getArgOperand(arg), expr)) {
            std::string e = expr.str();
            if (e.size() > 200) e = e.substr(0, 197) + "...";
            text = "assertion `" + e + "' failed";
        }
    }
    for (std::size_t i = 0; i < out_.messages.size(); ++i)
        if (out_.messages[i] == text) return static_cast<std::int64_t>(i);
    out_.messages.push_back(text);
    return static_cast<std::int64_t>(out_.messages.size() - 1);
}

void Lowerer::notePlain(const llvm::Value* ptr) {
    if (out_.plainAccesses) return;
    const llvm::Value* obj = llvm::getUnderlyingObject(ptr, 0);
    if (auto* al = llvm::dyn_cast<llvm::AllocaInst>(obj)) {
        auto [it, fresh] = privateAlloca_.try_emplace(al, false);
        if (fresh) {
            std::set<const llvm::Value*> seen;
            it->second = !escapes(al, seen);
        }
        if (it->second) return;
    }
    if (auto* gv = llvm::dyn_cast<llvm::GlobalVariable>(obj); gv && gv->isConstant()) return;
    out_.plainAccesses = true;
}

void Lowerer::needAtomicLock() {
    if (atomicGlobal_ >= 0) return;
    CGlobal g;
    g.name = "__VERIFIER_atomic";
    g.size = 8;
    g.bytes.assign(8, 0);
    CGlobalCell cell;
    cell.size = 8;
    cell.mutex = true;
    cell.name = "__VERIFIER_atomic";
    g.cells.push_back(cell);
    atomicGlobal_ = static_cast<std::int32_t>(out_.globals.size());
    out_.globals.push_back(std::move(g));
    out_.staticBase.push_back(nextStaticBase(8, 8));
    out_.atomicLockObject = out_.globalObject(static_cast<std::size_t>(atomicGlobal_));
}

void Lowerer::pushArgs(const llvm::CallInst& call, CInstr& in) {
    const auto start = static_cast<std::int32_t>(fn_->args.size());
    for (unsigned i = 0; i < call.arg_size(); ++i) {
        const llvm::Value* a = call.getArgOperand(i);
        if (!widthOf(a->getType())) unsupported(call, typeName(a->getType()) + " as arguments");
        fn_->args.push_back(opnd(a, call));
    }
    // `in` may have been invalidated by nothing (args live in another vector)
    in.b = start;
    in.c = static_cast<std::int32_t>(call.arg_size());
}

}  // namespace porlab::cfront
