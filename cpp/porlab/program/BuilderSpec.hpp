// SPDX-License-Identifier: MIT
// What a builder writes down (porlab.Program from Python, SpecBuilder from C++): per thread a list
// of builder instructions over registers and the program's locations. A spec is never run:
// SpecLowering.hpp validates it and lowers it to the decoded form (Code.hpp) that C programs run
// in, and CodeProgram is the one interpreter. The comments below give each instruction's meaning,
// which the lowering implements.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "porlab/core/Event.hpp"

namespace porlab {

// X(Enumerator, "name", visible)
#define PORLAB_OPCODES(X)                                                                       \
    X(Const, "const", false)         /* r[a] = imm */                                           \
    X(Move, "move", false)           /* r[a] = r[b] */                                          \
    X(Bin, "bin", false)             /* r[a] = r[b] <sub> r[c] */                               \
    X(Un, "un", false)               /* r[a] = <sub> r[b] */                                    \
    X(Jump, "jump", false)           /* pc = a */                                               \
    X(JumpIfZero, "jz", false)       /* if r[b] == 0: pc = a */                                 \
    X(JumpIfNonZero, "jnz", false)   /* if r[b] != 0: pc = a */                                 \
    X(Assume, "assume", false)       /* if r[b] == 0: blocked for good */                       \
    X(Assert, "assert", false)       /* if r[b] == 0: assertion failure */                      \
    X(LoopCheck, "loopcheck", false) /* if r[b] >= imm: blocked (loop bound) else r[b] += 1 */  \
    X(Load, "load", true)            /* r[a] = mem[L] */                                        \
    X(Store, "store", true)          /* mem[L] = r[c] */                                        \
    X(FetchOp, "fetchop", true)      /* r[a] = mem[L]; mem[L] = mem[L] <sub:RmwOp> r[c] */      \
    X(Xchg, "xchg", true)            /* r[a] = mem[L]; mem[L] = r[c] */                         \
    X(Cas, "cas", true)       /* r[a] = mem[L]; r[e] = (mem[L]==r[c]); if so mem[L] = r[d] */   \
    X(Lock, "lock", true)     /* acquire mutex L */                                             \
    X(Unlock, "unlock", true) /* release mutex L */                                             \
    X(Spawn, "spawn", true)   /* start thread a */                                              \
    X(Join, "join", true)     /* wait for thread a to finish */                                 \
    X(Await, "await", true)   /* when <sub:AwaitCond>(mem[L], r[c]): r[a] = mem[L] */           \
    X(XchgAwait, "xchgawait", true) /* when cond(mem[L], r[c]): r[a] = mem[L]; mem[L] = r[d] */ \
    X(End, "end", false)            /* the thread finishes */

enum class Opcode : std::uint8_t {
#define PORLAB_X(e, s, v) e,
    PORLAB_OPCODES(PORLAB_X)
#undef PORLAB_X
};

inline constexpr std::string_view kOpcodeNames[] = {
#define PORLAB_X(e, s, v) s,
    PORLAB_OPCODES(PORLAB_X)
#undef PORLAB_X
};

inline constexpr bool kOpcodeVisible[] = {
#define PORLAB_X(e, s, v) v,
    PORLAB_OPCODES(PORLAB_X)
#undef PORLAB_X
};

// clang-format off
#define PORLAB_BINOPS(X)                                                                       \
    X(Add, "+") X(Sub, "-") X(Mul, "*") X(Div, "/") X(Mod, "%") X(And, "&") X(Or, "|")         \
    X(Xor, "^") X(Shl, "<<") X(Shr, ">>") X(Eq, "==") X(Ne, "!=") X(Lt, "<") X(Le, "<=")       \
    X(Gt, ">") X(Ge, ">=") X(LAnd, "and") X(LOr, "or") X(Min, "min") X(Max, "max")
// clang-format on

enum class BinOp : std::uint8_t {
#define PORLAB_X(e, s) e,
    PORLAB_BINOPS(PORLAB_X)
#undef PORLAB_X
};

inline constexpr std::string_view kBinOpNames[] = {
#define PORLAB_X(e, s) s,
    PORLAB_BINOPS(PORLAB_X)
#undef PORLAB_X
};

#define PORLAB_UNOPS(X) X(Neg, "-") X(Not, "not") X(BitNot, "~")

enum class UnOp : std::uint8_t {
#define PORLAB_X(e, s) e,
    PORLAB_UNOPS(PORLAB_X)
#undef PORLAB_X
};

inline constexpr std::string_view kUnOpNames[] = {
#define PORLAB_X(e, s) s,
    PORLAB_UNOPS(PORLAB_X)
#undef PORLAB_X
};

struct Instr {
    Opcode op = Opcode::End;
    std::uint8_t sub = 0;    // BinOp, UnOp, RmwOp or AwaitCond
    bool resultUsed = true;  // FetchOp: is r[a] read later (IFAA)
    std::int32_t a = -1, b = -1, c = -1, d = -1, e = -1;
    LocId loc = kNoLoc;     // base location of a visible operation
    std::int32_t len = 1;   // number of locations from loc (arrays); index must be < len
    std::int32_t idx = -1;  // index register (arrays) or -1
    Value imm = 0;
    SourcePos pos;
};

struct ThreadSpec {
    std::string name;
    bool autostart = true;
    std::vector<std::string> regNames;
    std::vector<Value> regInit;  // initial register values (constants live in registers)
    std::vector<Instr> code;
};

struct ProgramSpec {
    std::string name;
    std::vector<std::string> locNames;
    std::vector<Value> locInit;
    std::vector<bool> locIsMutex;
    std::vector<ThreadSpec> threads;
    std::vector<std::string> files{""};
};

}  // namespace porlab
