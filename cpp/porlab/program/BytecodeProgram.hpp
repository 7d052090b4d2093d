// SPDX-License-Identifier: MIT
// A program in porlab's bytecode (built from Python, or later lowered from LLVM IR) and its
// interpreter. The whole mutable state of an execution is one flat array of 64-bit words, so a
// snapshot is a copy and nothing is allocated per event.
#pragma once

#include <memory>

#include "porlab/program/Bytecode.hpp"
#include "porlab/program/Program.hpp"

namespace porlab {

class BytecodeProgram final : public Program {
  public:
    // Validates the spec (throws InputError naming the thread, instruction and source line).
    explicit BytecodeProgram(ProgramSpec spec);

    [[nodiscard]] std::unique_ptr<Execution> newExecution() const override;
    [[nodiscard]] const std::shared_ptr<const ProgramInfo>& info() const override { return info_; }
    [[nodiscard]] const ProgramSpec& spec() const { return spec_; }

    // Listing of the bytecode, for debugging and for users curious about what their builder
    // program compiled to.
    [[nodiscard]] std::string disassemble() const;

    // Throws InputError naming the thread, instruction and source line of what is wrong.
    static void validate(const ProgramSpec& s);

  private:
    friend class BytecodeExecution;

    ProgramSpec spec_;
    std::shared_ptr<const ProgramInfo> info_;
    // State layout: [memory L][mutex owner L][per thread: status, pc, event count, registers...]
    std::vector<std::size_t> threadBase_;
    std::size_t stateWords_ = 0;
    std::vector<std::int64_t> initialState_;
};

}  // namespace porlab
