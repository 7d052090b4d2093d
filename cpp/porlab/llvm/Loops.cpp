// SPDX-License-Identifier: MIT
#include "porlab/llvm/Loops.hpp"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/Cloning.h>

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

}  // namespace

const std::vector<std::string>& loopModes() { return loopModeNames(); }

LoopStats transformLoops(llvm::Module& m, const std::string& mode) {
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
            // The default: SAVER's reshaping, PLP with awaits, then SAVER on what is left
            // (spin-assume, dynamic purity checks, zne marks), refreshing CAS loops included.
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
