// SPDX-License-Identifier: MIT
// The listing of decoded code (debugging: porlab disasm).
#include "porlab/program/CodeExecution.hpp"

#include <sstream>

namespace porlab::code {

// ---- listing
// ---------------------------------------------------------------------------------------

std::string disassemble(const CModule& m) {
    std::ostringstream o;
    auto opd = [&](std::int32_t x) {
        return x >= 0 ? "r" + std::to_string(x)
                      : "#" + std::to_string(m.constants[static_cast<std::size_t>(~x)]);
    };
    for (const auto& f : m.functions) {
        if (!f.defined) continue;
        o << "function " << f.name << " (" << f.numParams << " params, " << f.numSlots << " slots)"
          << (f.atomic ? " atomic" : "") << "\n";
        for (std::size_t pc = 0; pc < f.code.size(); ++pc) {
            const CInstr& in = f.code[pc];
            o << "  " << pc << ": " << kCOpNames[static_cast<int>(in.op)];
            if (in.op == COp::Builtin) o << " " << kBuiltinNames[in.sub];
            if (in.op == COp::Call) o << " " << m.functions[static_cast<std::size_t>(in.imm)].name;
            if (in.a >= 0) o << " a=r" << in.a;
            if (in.b != -1 && in.op != COp::Call && in.op != COp::Builtin && in.op != COp::CallPtr)
                o << " b=" << opd(in.b);
            if (in.c != -1 && (in.op == COp::Bin || in.op == COp::Cmp || in.op == COp::Store ||
                               in.op == COp::Rmw || in.op == COp::CmpXchg || in.op == COp::Select))
                o << " c=" << opd(in.c);
            if (in.op == COp::Call || in.op == COp::Builtin || in.op == COp::CallPtr) {
                o << " (";
                for (std::int32_t k = 0; k < in.c; ++k)
                    o << (k ? ", " : "") << opd(f.args[static_cast<std::size_t>(in.b + k)]);
                o << ")";
            }
            if (in.op == COp::Branch) o << " ? " << in.a << " : " << in.c;
            if (in.op == COp::CmpBr) o << " ? " << in.d << " : " << in.imm;
            if (in.imm) o << " imm=" << in.imm;
            if (in.pos.line) o << "  ; " << m.files[in.pos.file] << ":" << in.pos.line;
            o << "\n";
        }
    }
    return o.str();
}

}  // namespace porlab::code
