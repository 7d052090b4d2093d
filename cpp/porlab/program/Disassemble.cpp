// SPDX-License-Identifier: MIT
// The listing of decoded code (debugging: porlab disasm).
#include "porlab/program/CodeExecution.hpp"

#include <sstream>

namespace porlab::code {

// ---- listing
// ---------------------------------------------------------------------------------------

namespace {

// A constant that points to a function or into a global, by the program's names ("&x", "&A[1]",
// "&s+4", "&worker"); "" for other values (the listing shows the number, then this).
std::string pointee(const CModule& m, Value v) {
    const auto u = static_cast<std::uint64_t>(v);
    if (v <= 0 || (u & m.localTag) != 0 || u >= m.localTag) return "";
    const auto obj = static_cast<std::int64_t>(u >> m.objShift);
    if (obj < 1 || obj >= m.firstDynamicObject() ||
        static_cast<std::size_t>(obj) >= m.staticBase.size())
        return "";
    const std::uint64_t off = (u & m.offMask) - m.staticBase[static_cast<std::size_t>(obj)];
    const auto nf = static_cast<std::int64_t>(m.functions.size());
    if (obj <= nf) return off == 0 ? "&" + m.functions[static_cast<std::size_t>(obj - 1)].name : "";
    const CGlobal& g = m.globals[static_cast<std::size_t>(obj - 1 - nf)];
    if (off >= g.size) return "";
    for (const CGlobalCell& c : g.cells)
        if (c.offset <= off && off < c.offset + std::uint64_t{c.size})
            return "&" + c.name + (off == c.offset ? "" : "+" + std::to_string(off - c.offset));
    return "&" + (g.displayName.empty() ? g.name : g.displayName) +
           (off == 0 ? "" : "+" + std::to_string(off));
}

}  // namespace

std::string disassemble(const CModule& m) {
    std::ostringstream o;
    auto opd = [&](std::int32_t x) {
        if (x >= 0) return "r" + std::to_string(x);
        const Value v = m.constants[static_cast<std::size_t>(~x)];
        const std::string name = pointee(m, v);
        return "#" + std::to_string(v) + (name.empty() ? "" : "(" + name + ")");
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
