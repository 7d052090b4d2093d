// SPDX-License-Identifier: MIT
// Loop transformations on the LLVM IR after clang and SROA, before porlab lowers it (issue 6):
//   none         nothing;
//   spin-assume  SAVER's static spin-assume (Def. 3): a backedge whose every loopy path is
//                effect-free and assigns only dead registers becomes assume(¬condition);
//   plp          Godot §III Partial Loop Purity elimination: forward purity conditions by
//                backward propagation, assume(¬c_i) at the earliest point where c_i is decidable;
//   plp-await    plp, then load+assume, xchg+assume and cas+assume pairs become
//                __VERIFIER_load_await_* / __VERIFIER_xchg_await_* calls (Godot §III, end);
//   saver        the static part SAVER needs: spin-assume (loop rotation, bisimilar-node merging
//                and the dynamic checks are not implemented here).
#pragma once

#include <string>
#include <vector>

namespace llvm {
class Module;
}  // namespace llvm

namespace porlab::cfront {

// The accepted values of CLoadOptions::loops, in documentation order.
[[nodiscard]] const std::vector<std::string>& loopModes();

// What one transformation did (for tests and `disassemble_c` readers).
struct LoopStats {
    int loops = 0;           // loops looked at
    int assumes = 0;         // assume calls inserted (PLP disjuncts or spin-assumed backedges)
    int unplaced = 0;        // PLP disjuncts with no sound insertion point (left out)
    int awaits = 0;          // assume pairs rewritten into awaits
    int foldedBranches = 0;  // branches decided by a dominating assume or await
};

// Applies `mode` to every defined function of `m`. Throws InputError for an unknown mode.
LoopStats transformLoops(llvm::Module& m, const std::string& mode);

}  // namespace porlab::cfront
