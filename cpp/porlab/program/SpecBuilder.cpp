// SPDX-License-Identifier: MIT
#include "porlab/program/SpecBuilder.hpp"

#include "porlab/program/SpecLowering.hpp"

namespace porlab {

SpecBuilder::SpecBuilder(std::string name) { s_.name = std::move(name); }

LocId SpecBuilder::var(const std::string& name, Value init) {
    s_.locNames.push_back(name);
    s_.locInit.push_back(init);
    s_.locIsMutex.push_back(false);
    return static_cast<LocId>(s_.locNames.size()) - 1;
}

LocId SpecBuilder::array(const std::string& name, int len, Value init) {
    LocId first = kNoLoc;
    for (int i = 0; i < len; ++i) {
        LocId l = var(name + "[" + std::to_string(i) + "]", init);
        if (i == 0) first = l;
    }
    return first;
}

LocId SpecBuilder::mutex(const std::string& name) {
    LocId l = var(name, 0);
    s_.locIsMutex[static_cast<std::size_t>(l)] = true;
    return l;
}

SpecBuilder::Thread& SpecBuilder::thread(const std::string& name, bool autostart) {
    ThreadSpec t;
    t.name = name;
    t.autostart = autostart;
    s_.threads.push_back(std::move(t));
    threads_.push_back(std::make_unique<Thread>(*this, static_cast<int>(s_.threads.size()) - 1));
    return *threads_.back();
}

ProgramSpec SpecBuilder::spec() const {
    ProgramSpec s = s_;
    for (auto& t : s.threads) {
        Instr end;
        end.op = Opcode::End;
        t.code.push_back(end);
    }
    return s;
}

std::shared_ptr<Program> SpecBuilder::build() const { return makeSpecProgram(spec()); }

// ---- threads ----------------------------------------------------------------------------------

int SpecBuilder::Thread::reg(const std::string& name) {
    auto& t = b_->s_.threads[static_cast<std::size_t>(id_)];
    t.regNames.push_back(name.empty() ? "r" + std::to_string(t.regInit.size()) : name);
    t.regInit.push_back(0);
    return static_cast<int>(t.regInit.size()) - 1;
}

int SpecBuilder::Thread::constant(Value v) {
    auto it = consts_.find(v);
    if (it != consts_.end()) return it->second;
    int r = reg("#" + std::to_string(v));
    b_->s_.threads[static_cast<std::size_t>(id_)].regInit[static_cast<std::size_t>(r)] = v;
    consts_[v] = r;
    return r;
}

Instr& SpecBuilder::Thread::emit(Opcode op) {
    auto& code = b_->s_.threads[static_cast<std::size_t>(id_)].code;
    code.emplace_back();
    code.back().op = op;
    return code.back();
}

int SpecBuilder::Thread::here() const {
    return static_cast<int>(b_->s_.threads[static_cast<std::size_t>(id_)].code.size());
}

SpecBuilder::Thread& SpecBuilder::Thread::load(int r, LocId l, int idxReg, int len) {
    if (r < 0) r = reg();
    Instr& in = emit(Opcode::Load);
    in.a = r;
    in.loc = l;
    in.idx = idxReg;
    in.len = len;
    return *this;
}

SpecBuilder::Thread& SpecBuilder::Thread::storeReg(LocId l, int r, int idxReg, int len) {
    Instr& in = emit(Opcode::Store);
    in.c = r;
    in.loc = l;
    in.idx = idxReg;
    in.len = len;
    return *this;
}

SpecBuilder::Thread& SpecBuilder::Thread::faa(int r, LocId l, Value v, bool resultUsed, RmwOp op) {
    if (r < 0) r = reg();
    const int c = constant(v);
    Instr& in = emit(Opcode::FetchOp);
    in.a = r;
    in.c = c;
    in.loc = l;
    in.sub = static_cast<std::uint8_t>(op);
    in.resultUsed = resultUsed;
    return *this;
}

SpecBuilder::Thread& SpecBuilder::Thread::xchg(int r, LocId l, Value v) {
    if (r < 0) r = reg();
    const int c = constant(v);
    Instr& in = emit(Opcode::Xchg);
    in.a = r;
    in.c = c;
    in.loc = l;
    return *this;
}

SpecBuilder::Thread& SpecBuilder::Thread::cas(int r, int okReg, LocId l, Value expected,
                                              Value desired) {
    if (r < 0) r = reg();
    const int c = constant(expected), d = constant(desired);
    Instr& in = emit(Opcode::Cas);
    in.a = r;
    in.e = okReg;
    in.c = c;
    in.d = d;
    in.loc = l;
    return *this;
}

SpecBuilder::Thread& SpecBuilder::Thread::lock(LocId m) {
    emit(Opcode::Lock).loc = m;
    return *this;
}

SpecBuilder::Thread& SpecBuilder::Thread::unlock(LocId m) {
    emit(Opcode::Unlock).loc = m;
    return *this;
}

SpecBuilder::Thread& SpecBuilder::Thread::spawn(int thread) {
    emit(Opcode::Spawn).a = thread;
    return *this;
}

SpecBuilder::Thread& SpecBuilder::Thread::join(int thread) {
    emit(Opcode::Join).a = thread;
    return *this;
}

SpecBuilder::Thread& SpecBuilder::Thread::await(int r, LocId l, AwaitCond c, Value operand) {
    if (r < 0) r = reg();
    const int o = constant(operand);
    Instr& in = emit(Opcode::Await);
    in.a = r;
    in.c = o;
    in.loc = l;
    in.sub = static_cast<std::uint8_t>(c);
    return *this;
}

SpecBuilder::Thread& SpecBuilder::Thread::xchgAwait(int r, LocId l, AwaitCond c, Value operand,
                                                    Value desired) {
    if (r < 0) r = reg();
    const int o = constant(operand), d = constant(desired);
    Instr& in = emit(Opcode::XchgAwait);
    in.a = r;
    in.c = o;
    in.d = d;
    in.loc = l;
    in.sub = static_cast<std::uint8_t>(c);
    return *this;
}

SpecBuilder::Thread& SpecBuilder::Thread::set(int r, Value v) {
    Instr& in = emit(Opcode::Const);
    in.a = r;
    in.imm = v;
    return *this;
}

SpecBuilder::Thread& SpecBuilder::Thread::bin(int r, BinOp op, int a, int b) {
    Instr& in = emit(Opcode::Bin);
    in.a = r;
    in.b = a;
    in.c = b;
    in.sub = static_cast<std::uint8_t>(op);
    return *this;
}

SpecBuilder::Thread& SpecBuilder::Thread::assume(int r) {
    emit(Opcode::Assume).b = r;
    return *this;
}

SpecBuilder::Thread& SpecBuilder::Thread::assertTrue(int r) {
    emit(Opcode::Assert).b = r;
    return *this;
}

int SpecBuilder::Thread::jumpIfZero(int r) {
    emit(Opcode::JumpIfZero).b = r;
    return here() - 1;
}

int SpecBuilder::Thread::jumpIfNonZero(int r) {
    emit(Opcode::JumpIfNonZero).b = r;
    return here() - 1;
}

int SpecBuilder::Thread::jump() {
    emit(Opcode::Jump);
    return here() - 1;
}

void SpecBuilder::Thread::patchHere(int instr) {
    b_->s_.threads[static_cast<std::size_t>(id_)].code[static_cast<std::size_t>(instr)].a = here();
}

SpecBuilder::Thread& SpecBuilder::Thread::jumpTo(int target) {
    emit(Opcode::Jump).a = target;
    return *this;
}

SpecBuilder::Thread& SpecBuilder::Thread::loopCheck(int counterReg, Value bound) {
    Instr& in = emit(Opcode::LoopCheck);
    in.b = counterReg;
    in.imm = bound;
    return *this;
}

}  // namespace porlab
