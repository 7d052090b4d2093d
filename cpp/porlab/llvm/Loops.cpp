// SPDX-License-Identifier: MIT
#include "porlab/llvm/Loops.hpp"

#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/OptimizationRemarkEmitter.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/UnrollLoop.h>

#include <map>
#include <set>

#include "porlab/core/Errors.hpp"
#include "porlab/explore/Options.hpp"
#include "porlab/llvm/LoopConds.hpp"
#include "porlab/llvm/LoopShape.hpp"

namespace porlab::cfront {

namespace {

// The functions that can call themselves, directly or through others (a cycle of direct calls):
// inlining them could go on for ever.
std::set<const llvm::Function*> recursiveFunctions(llvm::Module& m) {
    std::map<const llvm::Function*, std::vector<const llvm::Function*>> calls;
    for (const llvm::Function& g : m)
        for (const llvm::BasicBlock& bb : g)
            for (const llvm::Instruction& i : bb)
                if (const auto* c = llvm::dyn_cast<llvm::CallBase>(&i))
                    if (const llvm::Function* h = c->getCalledFunction(); h && !h->isDeclaration())
                        calls[&g].push_back(h);
    std::set<const llvm::Function*> out;
    for (const llvm::Function& g : m) {
        std::set<const llvm::Function*> seen;
        std::vector<const llvm::Function*> work{&g};
        while (!work.empty() && !out.count(&g)) {
            const llvm::Function* x = work.back();
            work.pop_back();
            for (const llvm::Function* y : calls[x]) {
                if (y == &g) out.insert(&g);
                if (seen.insert(y).second) work.push_back(y);
            }
        }
    }
    return out;
}

// Calls inside loops to the program's own functions are inlined, as deep as the calls go (a
// loop reached through any number of helper functions), so that the loop analyses see what the
// callees do instead of an opaque, possibly effectful call. Recursive functions and the ones
// porlab treats specially by name (__VERIFIER_*) are left alone; a size budget ends pathological
// cases (a call left in place only makes the analyses more conservative).
void inlineCallsInLoops(llvm::Module& m) {
    const std::set<const llvm::Function*> recursive = recursiveFunctions(m);
    std::size_t size = 0;
    for (const llvm::Function& f : m) size += f.getInstructionCount();
    const std::size_t budget = 8 * size + 100000;
    for (int round = 0; round < 256; ++round) {
        std::vector<llvm::CallBase*> calls;
        for (llvm::Function& f : m) {
            if (f.isDeclaration()) continue;
            llvm::DominatorTree dt(f);
            llvm::LoopInfo li(dt);
            for (llvm::BasicBlock& bb : f) {
                if (!li.getLoopFor(&bb)) continue;
                for (llvm::Instruction& i : bb) {
                    auto* c = llvm::dyn_cast<llvm::CallInst>(&i);
                    llvm::Function* g = c ? c->getCalledFunction() : nullptr;
                    if (!g || g->isDeclaration() || g == &f || g->isVarArg() ||
                        g->getName().starts_with("__VERIFIER_") || recursive.count(g))
                        continue;
                    calls.push_back(c);
                }
            }
        }
        if (calls.empty()) return;
        for (llvm::CallBase* c : calls) {
            if (size > budget) return;
            size += c->getCalledFunction()->getInstructionCount();
            llvm::InlineFunctionInfo info;
            (void)llvm::InlineFunction(*c, info);
        }
    }
}

// A loop nested in another loop whose header runs at most a small constant number of times per
// entry (a scan over a fixed array, `for (j = 0; j < N; ++j) if (flag[j] == v) found = 1;`, or
// one that returns at the first hit, inside a wait loop: Szymanski's and the filter lock's waits)
// is unrolled completely, so that the outer loop is the innermost one: PLP and SAVER judge an
// outer iteration impure when it takes an inner backedge (Godot §III's "took" flag), so such a
// wait loop was never reduced and a thread spun until the execution was cut. Unrolling runs the
// same events in the same order; it only takes the inner loop out of --unroll's count, so with a
// bound N it happens only where the header runs at most N times (the bound would never cut).
int unrollFixedInnerLoops(llvm::Function& f, std::optional<int> bound) {
    constexpr unsigned kMaxTrips = 16;
    constexpr unsigned kMaxGrowth = 2000;  // instructions added per loop at most
    llvm::TargetLibraryInfoImpl tlii(llvm::Triple(f.getParent()->getTargetTriple()));
    llvm::TargetLibraryInfo tli(tlii, &f);
    int unrolled = 0;
    for (bool again = true; again;) {
        again = false;
        llvm::DominatorTree dt(f);
        llvm::LoopInfo li(dt);
        llvm::AssumptionCache ac(f);
        llvm::ScalarEvolution se(f, tli, ac, dt, li);
        for (llvm::Loop* loop : li.getLoopsInPreorder()) {
            if (!loop->getParentLoop() || !loop->getSubLoops().empty()) continue;
            llvm::simplifyLoop(loop, &dt, &li, &se, &ac, nullptr, /*PreserveLCSSA=*/false);
            if (!loop->isLoopSimplifyForm()) continue;
            const unsigned trips = se.getSmallConstantMaxTripCount(loop);
            if (trips == 0 || trips > kMaxTrips || (bound && trips > unsigned(*bound))) continue;
            std::size_t size = 0;
            for (llvm::BasicBlock* b : loop->blocks()) size += b->size();
            if (size * trips > kMaxGrowth) continue;
            llvm::formLCSSARecursively(*loop, dt, &li, &se);
            llvm::OptimizationRemarkEmitter ore(&f);
            llvm::UnrollLoopOptions ulo{};
            ulo.Count = trips;
            ulo.Force = true;
            ulo.ForgetAllSCEV = true;
            if (llvm::UnrollLoop(loop, ulo, &li, &se, &dt, &ac, nullptr, &ore,
                                 /*PreserveLCSSA=*/true) == llvm::LoopUnrollResult::FullyUnrolled) {
                ++unrolled;
                again = true;  // the analyses are stale: start over
                break;
            }
        }
    }
    return unrolled;
}

}  // namespace

const std::vector<std::string>& loopModes() { return loopModeNames(); }

LoopStats transformLoops(llvm::Module& m, const std::string& mode, std::optional<int> unroll) {
    LoopStats stats;
    bool known = false;
    for (const auto& k : loopModes()) known = known || k == mode;
    if (!known) {
        std::string all;
        for (const auto& k : loopModes()) all += (all.empty() ? "" : ", ") + k;
        throw InputError("unknown loop transformation '" + mode + "' (one of: " + all + ")");
    }
    if (mode == "none") return stats;
    inlineCallsInLoops(m);
    for (llvm::Function& f : m) {
        if (f.isDeclaration()) continue;
        if (mode == "spin-assume") {
            loops::spinAssumeFunction(f, stats, /*refresh=*/false);
        } else if (mode == "saver") {
            // SAVER's static reshaping first (LoopShape.hpp), then its spin-assume and marks.
            stats.rotated += loops::rotateLoops(f);
            stats.merged += loops::mergeBisimilar(f);
            loops::saverFunction(f, stats, /*refresh=*/false);
        } else if (mode == "plp-saver") {
            // The default: fixed inner loops unrolled, SAVER's reshaping, PLP with awaits, then
            // SAVER on what is left (spin-assume, dynamic purity checks, zne marks), refreshing CAS
            // loops included.
            stats.unrolled += unrollFixedInnerLoops(f, unroll);
            stats.rotated += loops::rotateLoops(f);
            stats.merged += loops::mergeBisimilar(f);
            loops::plpFunction(f, /*await=*/true, stats);
            loops::saverFunction(f, stats, /*refresh=*/true);
        } else {
            loops::plpFunction(f, mode == "plp-await", stats);
        }
    }
    std::string err;
    llvm::raw_string_ostream out(err);
    if (llvm::verifyModule(m, &out))
        throw std::logic_error("--loops " + mode + " produced invalid LLVM IR: " + err);
    return stats;
}

}  // namespace porlab::cfront
