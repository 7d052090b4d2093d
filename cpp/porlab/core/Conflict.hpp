// SPDX-License-Identifier: MIT
// The conflict (dependence) relation between events, parametrised as Godot §IV-A: two events of
// different threads conflict when they access a common location and one of them writes it, except
// that under IFAA two fetch-and-adds whose loaded values are unused commute.
#pragma once

#include "porlab/core/Event.hpp"

namespace porlab {

struct ConflictRelation {
    bool ifaa = false;  // fetch-and-adds (add/sub) with unused results are independent

    [[nodiscard]] bool independentFaaPair(const Event& a, const Event& b) const {
        return ifaa && a.kind == EventKind::FetchAdd && b.kind == EventKind::FetchAdd &&
               !a.resultUsed && !b.resultUsed && (a.rmwOp == RmwOp::Add || a.rmwOp == RmwOp::Sub) &&
               (b.rmwOp == RmwOp::Add || b.rmwOp == RmwOp::Sub);
    }

    // Memory conflict of two events (ignores program order and spawn/join).
    [[nodiscard]] bool conflicts(const Event& a, const Event& b) const {
        if (a.loc == kNoLoc || a.loc != b.loc) return false;
        if (!writesMemory(a.kind) && !writesMemory(b.kind)) return false;
        if (!accessesMemory(a.kind) || !accessesMemory(b.kind)) return false;
        return !independentFaaPair(a, b);
    }

    // Dependence of two events (either order): program order, a memory conflict, or one spawns
    // or joins the other's thread (or a spawn and a join of one thread).
    [[nodiscard]] bool dependent(const Event& a, const Event& b) const {
        if (a.thread == b.thread || conflicts(a, b)) return true;
        auto sj = [](const Event& x, const Event& y) {
            if ((x.kind == EventKind::Spawn || x.kind == EventKind::Join) && x.aux == y.thread)
                return true;
            return x.kind == EventKind::Spawn && y.kind == EventKind::Join && x.aux == y.aux;
        };
        return sj(a, b) || sj(b, a);
    }
};

// Await conditions evaluated on 64-bit values; unsigned comparisons compare the bit patterns.
[[nodiscard]] constexpr bool evalAwaitCond(AwaitCond c, Value v, Value operand) {
    auto uv = static_cast<std::uint64_t>(v);
    auto uo = static_cast<std::uint64_t>(operand);
    switch (c) {
        case AwaitCond::EQ:
            return v == operand;
        case AwaitCond::NE:
            return v != operand;
        case AwaitCond::UGT:
            return uv > uo;
        case AwaitCond::UGE:
            return uv >= uo;
        case AwaitCond::ULT:
            return uv < uo;
        case AwaitCond::ULE:
            return uv <= uo;
        case AwaitCond::SGT:
            return v > operand;
        case AwaitCond::SGE:
            return v >= operand;
        case AwaitCond::SLT:
            return v < operand;
        case AwaitCond::SLE:
            return v <= operand;
    }
    return false;
}

// Does value v let read-like event e proceed (lock: free mutex; await: condition holds)? Any other
// read proceeds whatever it reads. (Shared by the graph engine and RVF-SMC.)
[[nodiscard]] constexpr bool admits(const Event& e, Value v) {
    switch (e.kind) {
        case EventKind::Lock:
            return v == 0;
        case EventKind::Await:
        case EventKind::XchgAwait:
            return evalAwaitCond(e.cond, v, e.operand);
        default:
            return true;
    }
}

// Values of a width w < 64 are held sign-extended (atWidth), which keeps their unsigned order:
// comparing the 64-bit patterns compares them as unsigned w-bit numbers. Results are cut back to
// the width by rmwResult.
[[nodiscard]] constexpr Value applyRmw(RmwOp op, Value old, Value operand) {
    auto uo = static_cast<std::uint64_t>(old);
    auto up = static_cast<std::uint64_t>(operand);
    switch (op) {
        case RmwOp::Add:
            return static_cast<Value>(uo + up);
        case RmwOp::Sub:
            return static_cast<Value>(uo - up);
        case RmwOp::And:
            return old & operand;
        case RmwOp::Or:
            return old | operand;
        case RmwOp::Xor:
            return old ^ operand;
        case RmwOp::Max:
            return old > operand ? old : operand;
        case RmwOp::Min:
            return old < operand ? old : operand;
        case RmwOp::Nand:
            return ~(old & operand);
        case RmwOp::UMax:
            return uo > up ? old : operand;
        case RmwOp::UMin:
            return uo < up ? old : operand;
        case RmwOp::UIncWrap:
            return uo >= up ? 0 : static_cast<Value>(uo + 1);
        case RmwOp::UDecWrap:
            return uo == 0 || uo > up ? operand : static_cast<Value>(uo - 1);
    }
    return old;
}

// v truncated to `width` bits and sign-extended (width 1: zero-extended), as a C value of that
// width is held in a Value.
[[nodiscard]] constexpr Value atWidth(Value v, unsigned width) {
    if (width >= 64) return v;
    if (width == 1) return v & 1;
    const unsigned sh = 64U - width;
    return static_cast<Value>(static_cast<std::uint64_t>(v) << sh) >> sh;
}

// The value a fetch-and-op event writes when it reads `old` (at the event's width).
[[nodiscard]] constexpr Value rmwResult(const Event& e, Value old) {
    return atWidth(applyRmw(e.rmwOp, old, e.operand), e.width);
}

}  // namespace porlab
