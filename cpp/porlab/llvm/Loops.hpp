// SPDX-License-Identifier: MIT
// Loop transformations on the LLVM IR after clang and SROA, before porlab lowers it (issue 6):
//   plp-saver    the default (issue 15): loops of a small fixed trip count inside other loops
//                unrolled (within --unroll's bound), SAVER's reshaping, PLP with awaits, then
//                SAVER's spin-assume, dynamic purity checks and zne marks on what PLP left, CAS
//                loops whose failure refreshes the expected value counted as pure (Plp.cpp). Every
//                part is a program transformation or a check of the thread's own history,
//                except zne, whose blocking every explorer that does it makes sound on its own
//                (DPOR explorers and naive: zne awaits, Program.hpp; graph explorers: Algorithm 2
//                with the strict validity check); the others run the decrements;
//   none         nothing;
//   spin-assume  SAVER's static spin-assume (Def. 3): a backedge whose every loopy path is
//                effect-free and assigns only dead registers becomes assume(¬condition);
//   plp          Godot §III Partial Loop Purity elimination: forward purity conditions by
//                backward propagation, assume(¬c_i) at the earliest point where c_i is decidable;
//   plp-await    plp, then load+assume, xchg+assume and cas+assume pairs become
//                __VERIFIER_load_await_* / __VERIFIER_xchg_await_* calls (Godot §III, end);
//   saver        SAVER (saver-spinloops.txt): loop rotation where it pays off and merging of
//                bisimilar nodes (LoopShape.hpp), spin-assume, then a dynamic purity check on every
//                other potentially effect-free backedge and zne annotations on canceling
//                decrements, which the graph explorers turn into zne blocking (Saver.cpp).
#pragma once

#include <optional>
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
    int purityChecks = 0;    // SAVER: backedges given a dynamic purity check
    int zneDecrements = 0;   // SAVER: canceling decrements annotated for zne blocking
    int privateStores = 0;   // SAVER: stores dead at their loop's header (ignored when private)
    int rotated = 0;         // SAVER: loops rotated into do-while form (Rotate.cpp)
    int merged = 0;          // SAVER: bisimilar block suffixes merged at loop headers (Bisim.cpp)
    int unrolled = 0;        // plp-saver: fixed-trip loops inside other loops unrolled
};

// Applies `mode` to every defined function of `m`; `unroll` is the program's --unroll bound
// (a loop the bound could cut is never unrolled). Throws InputError for an unknown mode.
LoopStats transformLoops(llvm::Module& m, const std::string& mode,
                         std::optional<int> unroll = std::nullopt);

}  // namespace porlab::cfront
