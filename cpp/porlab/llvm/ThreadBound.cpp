// SPDX-License-Identifier: MIT
#include "porlab/llvm/ThreadBound.hpp"

#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/TargetParser/Triple.h>

#include <map>
#include <vector>

namespace porlab::cfront {

namespace {

// Counts saturate at `inf` (= cap + 1: "more than the cap").
struct Bound {
    long long inf;
    [[nodiscard]] long long add(long long a, long long b) const { return std::min(inf, a + b); }
    [[nodiscard]] long long mul(long long a, long long b) const {
        if (a == 0 || b == 0) return 0;
        if (a >= inf || b >= inf || a > inf / b) return inf;
        return std::min(inf, a * b);
    }
};

struct Site {
    const llvm::Function* target = nullptr;
    long long times = 0;  // executions per invocation of the caller (inf: unknown)
    bool spawn = false;   // pthread_create of `target`, else a call of `target`
};

class Analysis {
  public:
    Analysis(const llvm::Module& m, int cap) : m_(m), b_{static_cast<long long>(cap) + 1} {}

    std::optional<int> run() {
        const llvm::Function* main = m_.getFunction("main");
        if (!main || main->isDeclaration()) return std::nullopt;
        const auto c = cost(main);
        if (!c || *c >= b_.inf) return std::nullopt;
        return static_cast<int>(b_.add(1, *c));
    }

  private:
    // Sites of f, each with how often it runs per invocation of f; false if unanalysable.
    bool sites(const llvm::Function& f, std::vector<Site>& out) {
        auto& fn = const_cast<llvm::Function&>(f);
        llvm::DominatorTree dt(fn);
        llvm::LoopInfo li(dt);
        llvm::TargetLibraryInfoImpl tlii(llvm::Triple(m_.getTargetTriple()));
        llvm::TargetLibraryInfo tli(tlii, &fn);
        llvm::AssumptionCache ac(fn);
        llvm::ScalarEvolution se(fn, tli, ac, dt, li);
        for (const llvm::BasicBlock& bb : f) {
            long long times = 1;
            for (const llvm::Loop* l = li.getLoopFor(&bb); l; l = l->getParentLoop()) {
                const unsigned trips = se.getSmallConstantMaxTripCount(l);
                times = b_.mul(times, trips == 0 ? b_.inf : static_cast<long long>(trips));
            }
            for (const llvm::Instruction& i : bb) {
                const auto* call = llvm::dyn_cast<llvm::CallBase>(&i);
                if (!call || call->isInlineAsm()) continue;
                const llvm::Function* callee = call->getCalledFunction();
                if (!callee) return false;  // through a pointer: could be anything
                if (callee->getName() == "pthread_create" || callee->getName() == "thrd_create") {
                    const unsigned fnArg = callee->getName() == "thrd_create" ? 1 : 2;
                    const auto* target = call->arg_size() > fnArg
                                             ? llvm::dyn_cast<llvm::Function>(
                                                   call->getArgOperand(fnArg)->stripPointerCasts())
                                             : nullptr;
                    if (!target || target->isDeclaration()) return false;
                    out.push_back({target, times, true});
                } else if (!callee->isDeclaration()) {
                    out.push_back({callee, times, false});
                }
            }
        }
        return true;
    }

    // Threads created (transitively) by one invocation of f; nullopt when unknown.
    std::optional<long long> cost(const llvm::Function* f) {
        auto it = memo_.find(f);
        if (it != memo_.end()) {
            if (it->second < 0) return std::nullopt;  // recursion (calls or spawns)
            return it->second;
        }
        memo_[f] = -1;
        std::vector<Site> ss;
        if (!sites(*f, ss)) return std::nullopt;
        long long total = 0;
        for (const Site& s : ss) {
            const auto c = cost(s.target);
            if (!c) return std::nullopt;
            total = b_.add(total, b_.mul(s.times, s.spawn ? b_.add(1, *c) : *c));
        }
        memo_[f] = total;
        return total;
    }

    const llvm::Module& m_;
    Bound b_;
    std::map<const llvm::Function*, long long> memo_;
};

}  // namespace

std::optional<int> staticThreadBound(const llvm::Module& m, int cap) {
    return Analysis(m, cap).run();
}

}  // namespace porlab::cfront
