// SPDX-License-Identifier: MIT
// SAVER's CFG reshaping before spin-assume (saver-spinloops.txt §IV, §VII; ALGORITHMS.md
// §2.3.1 steps 1-2): a custom loop rotation that turns `while (c) B` into a do-while where the
// first test is known to hold (CAS-LOOP2 → CAS-LOOP), and the merging of bisimilar nodes on SSA
// (LOOP-PEEL thread II → a do-while). Both keep every backedge separate (no single-latch
// canonicalisation, unlike LLVM's loop-rotate and loop-simplify). Internal to cpp/porlab/llvm.
#pragma once

namespace llvm {
class Function;
}  // namespace llvm

namespace porlab::cfront::loops {

// Rotates the loops of `f` whose header only tests registers (phis and pure arithmetic) and
// whose test is decided on entry: every entering edge goes straight to the body and every
// backedge gets its own copy of the test (jump threading), so the test's phis disappear.
// Returns how many loops were rotated (Rotate.cpp).
int rotateLoops(llvm::Function& f);

// Merges, at every loop header with an entering predecessor and a latch that both jump to it
// unconditionally, the longest common suffix of the two blocks whose SSA equality constraints
// unify; the merged block becomes the loop's header (non-unified phis move there). Returns how
// many pairs were merged (Bisim.cpp).
int mergeBisimilar(llvm::Function& f);

}  // namespace porlab::cfront::loops
