// SPDX-License-Identifier: MIT
// Every read-modify-write operation of LLVM 19's atomicrmw on integers (RmwOp, applyRmw,
// rmwResult): values of a width below 64 are held sign-extended, and the unsigned operations must
// compare them as unsigned numbers of that width.
#include <gtest/gtest.h>

#include <cstdint>
#include <iterator>

#include "porlab/core/Conflict.hpp"

namespace porlab {
namespace {

// The value a fetch-and-op of `width` bits writes when it reads `old` (both as C values of that
// width: sign-extended).
Value after(RmwOp op, unsigned width, Value old, Value operand) {
    Event e;
    e.kind = EventKind::FetchAdd;
    e.rmwOp = op;
    e.width = static_cast<std::uint8_t>(width);
    e.operand = atWidth(operand, width);
    return rmwResult(e, atWidth(old, width));
}

TEST(RmwOp, EveryOperationHasAName) {
    EXPECT_EQ(std::size(kRmwOpNames), 12U);
    EXPECT_EQ(name(RmwOp::Nand), "nand");
    EXPECT_EQ(name(RmwOp::UMax), "umax");
    EXPECT_EQ(name(RmwOp::UIncWrap), "uinc-wrap");
    EXPECT_EQ(name(RmwOp::UDecWrap), "udec-wrap");
}

TEST(RmwOp, Nand) {
    EXPECT_EQ(after(RmwOp::Nand, 8, 0xFF, 0xF0), atWidth(0x0F, 8));
    EXPECT_EQ(after(RmwOp::Nand, 8, 0x0F, 0x0F), atWidth(0xF0, 8));
    EXPECT_EQ(after(RmwOp::Nand, 32, 0, 0), -1);  // ~0
    EXPECT_EQ(after(RmwOp::Nand, 64, 6, 3), ~Value{2});
}

TEST(RmwOp, SignedAndUnsignedMaxMin) {
    // 0x80000000 is negative as an int, the largest of the two as an unsigned.
    const Value big = 0x80000000LL;
    EXPECT_EQ(after(RmwOp::Max, 32, 5, big), 5);
    EXPECT_EQ(after(RmwOp::UMax, 32, 5, big), atWidth(big, 32));
    EXPECT_EQ(after(RmwOp::Min, 32, 5, big), atWidth(big, 32));
    EXPECT_EQ(after(RmwOp::UMin, 32, 5, big), 5);
    // 8 bits: 0x90 (144 unsigned, -112 signed) against 0x10
    EXPECT_EQ(after(RmwOp::UMax, 8, 0x10, 0x90), atWidth(0x90, 8));
    EXPECT_EQ(after(RmwOp::UMin, 8, 0x10, 0x90), 0x10);
    EXPECT_EQ(after(RmwOp::Max, 8, 0x10, 0x90), 0x10);
    // 64 bits: -1 is the largest unsigned value
    EXPECT_EQ(after(RmwOp::UMax, 64, -1, 7), -1);
    EXPECT_EQ(after(RmwOp::UMin, 64, -1, 7), 7);
}

TEST(RmwOp, IncrementAndDecrementWrapAtTheOperand) {
    // uinc_wrap: old >= operand (unsigned) ? 0 : old + 1
    EXPECT_EQ(after(RmwOp::UIncWrap, 32, 0, 3), 1);
    EXPECT_EQ(after(RmwOp::UIncWrap, 32, 2, 3), 3);
    EXPECT_EQ(after(RmwOp::UIncWrap, 32, 3, 3), 0);
    EXPECT_EQ(after(RmwOp::UIncWrap, 32, 9, 3), 0);
    EXPECT_EQ(after(RmwOp::UIncWrap, 8, 0xFE, 0xFF), atWidth(0xFF, 8));  // 254 < 255
    EXPECT_EQ(after(RmwOp::UIncWrap, 8, 0xFF, 0xFF), 0);
    // udec_wrap: old == 0 || old > operand (unsigned) ? operand : old - 1
    EXPECT_EQ(after(RmwOp::UDecWrap, 32, 3, 3), 2);
    EXPECT_EQ(after(RmwOp::UDecWrap, 32, 0, 3), 3);
    EXPECT_EQ(after(RmwOp::UDecWrap, 32, 9, 3), 3);
    EXPECT_EQ(after(RmwOp::UDecWrap, 8, 0x80, 0xF0), atWidth(0x7F, 8));  // 128 <= 240
    EXPECT_EQ(after(RmwOp::UDecWrap, 8, 0xF1, 0xF0), atWidth(0xF0, 8));  // 241 > 240
}

TEST(RmwOp, OnlyAddAndSubCommuteUnderIfaa) {
    ConflictRelation ifaa{true};
    Event a, b;
    a.kind = b.kind = EventKind::FetchAdd;
    a.loc = b.loc = 0;
    a.thread = 0;
    b.thread = 1;
    a.resultUsed = b.resultUsed = false;
    for (int op = 0; op < static_cast<int>(std::size(kRmwOpNames)); ++op) {
        a.rmwOp = b.rmwOp = static_cast<RmwOp>(op);
        const bool commute = a.rmwOp == RmwOp::Add || a.rmwOp == RmwOp::Sub;
        EXPECT_EQ(ifaa.conflicts(a, b), !commute) << name(a.rmwOp);
    }
}

}  // namespace
}  // namespace porlab
