// SPDX-License-Identifier: MIT
#include "porlab/llvm/Loops.hpp"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include "porlab/core/Errors.hpp"
#include "porlab/llvm/LoopConds.hpp"
#include "porlab/llvm/LoopShape.hpp"

namespace porlab::cfront {

namespace {

bool callsItself(const llvm::Function& g) {
    for (const llvm::BasicBlock& bb : g)
        for (const llvm::Instruction& i : bb)
            if (const auto* c = llvm::dyn_cast<llvm::CallBase>(&i); c && c->getCalledFunction() == &g)
                return true;
    return false;
}

// Calls inside loops to the program's own functions are inlined (a few levels deep), so that
// the loop analyses see what the callee does instead of an opaque, possibly effectful call.
// Functions porlab treats specially by name (__VERIFIER_*) are left alone.
void inlineCallsInLoops(llvm::Module& m) {
    for (int depth = 0; depth < 4; ++depth) {
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
                        g->getName().starts_with("__VERIFIER_") || callsItself(*g))
                        continue;
                    calls.push_back(c);
                }
            }
        }
        if (calls.empty()) return;
        for (llvm::CallBase* c : calls) {
            llvm::InlineFunctionInfo info;
            (void)llvm::InlineFunction(*c, info);
        }
    }
}

}  // namespace

const std::vector<std::string>& loopModes() {
    static const std::vector<std::string> modes = {"none", "spin-assume", "plp", "plp-await",
                                                   "saver"};
    return modes;
}

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
        if (mode == "spin-assume") loops::spinAssumeFunction(f, stats);
        else if (mode == "saver") {
            // SAVER's static reshaping first (LoopShape.hpp), then its spin-assume and marks.
            stats.rotated += loops::rotateLoops(f);
            stats.merged += loops::mergeBisimilar(f);
            loops::saverFunction(f, stats);
        }
        else loops::plpFunction(f, mode == "plp-await", stats);
    }
    std::string err;
    llvm::raw_string_ostream out(err);
    if (llvm::verifyModule(m, &out))
        throw std::logic_error("--loops " + mode + " produced invalid LLVM IR: " + err);
    return stats;
}

}  // namespace porlab::cfront
