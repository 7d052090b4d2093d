// SPDX-License-Identifier: MIT
// A small C++ builder of programs, for C++ tests, the seeded random program generator and
// benchmarks: it writes a spec (BuilderSpec.hpp) as porlab.Program does from Python, and build()
// lowers it to the decoded form (SpecLowering.hpp) that the one interpreter runs.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "porlab/program/BuilderSpec.hpp"
#include "porlab/program/Program.hpp"

namespace porlab {

class SpecBuilder {
  public:
    class Thread {
      public:
        Thread(SpecBuilder& b, int id) : b_(&b), id_(id) {}
        [[nodiscard]] int id() const { return id_; }

        int reg(const std::string& name = "");
        int constant(Value v);  // a register holding v (shared per value)

        // Visible operations. `r` receives the value read (-1: a fresh scratch register).
        Thread& load(int r, LocId l, int idxReg = -1, int len = 1);
        Thread& store(LocId l, Value v) { return storeReg(l, constant(v)); }
        Thread& storeReg(LocId l, int r, int idxReg = -1, int len = 1);
        Thread& faa(int r, LocId l, Value v, bool resultUsed = true, RmwOp op = RmwOp::Add);
        Thread& xchg(int r, LocId l, Value v);
        Thread& cas(int r, int okReg, LocId l, Value expected, Value desired);
        Thread& lock(LocId m);
        Thread& unlock(LocId m);
        Thread& spawn(int thread);
        Thread& join(int thread);
        Thread& await(int r, LocId l, AwaitCond c, Value operand);
        Thread& xchgAwait(int r, LocId l, AwaitCond c, Value operand, Value desired);

        // Local code.
        Thread& set(int r, Value v);
        Thread& bin(int r, BinOp op, int a, int b);
        Thread& binImm(int r, BinOp op, int a, Value v) { return bin(r, op, a, constant(v)); }
        Thread& assume(int r);
        Thread& assertTrue(int r);
        // Forward jumps: returns the instruction to patch with patchHere().
        int jumpIfZero(int r);
        int jumpIfNonZero(int r);
        int jump();
        void patchHere(int instr);  // make `instr` jump to the next instruction emitted
        [[nodiscard]] int here() const;
        Thread& jumpTo(int target);
        Thread& loopCheck(int counterReg, Value bound);

      private:
        Instr& emit(Opcode op);
        SpecBuilder* b_;
        int id_;
        std::map<Value, int> consts_;
    };

    explicit SpecBuilder(std::string name);

    LocId var(const std::string& name, Value init = 0);
    LocId array(const std::string& name, int len, Value init = 0);
    LocId mutex(const std::string& name);
    Thread& thread(const std::string& name, bool autostart = true);

    // Appends the final `end` of every thread and returns the spec / the program it lowers to
    // (validated: InputError naming the thread and instruction).
    [[nodiscard]] ProgramSpec spec() const;
    [[nodiscard]] std::shared_ptr<Program> build() const;

  private:
    friend class Thread;
    ProgramSpec s_;
    std::vector<std::unique_ptr<Thread>> threads_;
};

}  // namespace porlab
