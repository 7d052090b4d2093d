// SPDX-License-Identifier: MIT
// SAVER's static spin-assume (saver-spinloops.txt Def. 3; ALGORITHMS.md §2.3.1 step 4): a
// backedge n→h whose every loopy path (a path h → … → n within the loop, without entering a
// nested loop) is effect-free and assigns only registers that are dead at h is removed: the
// thread blocks instead of taking it (assume(¬condition of n→h) at the end of n). A statement is
// effect-free when its non-modification guard is true, or is implied by the backedge's own
// condition (a CAS whose failure sends the thread back, as in SAVER's CAS-LOOP).
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/CFG.h>

#include <algorithm>
#include <optional>
#include <set>

#include "porlab/llvm/LoopConds.hpp"

namespace porlab::cfront::loops {

namespace {

bool internalEdge(llvm::Loop& loop, llvm::LoopInfo& li, llvm::BasicBlock* from,
                  llvm::BasicBlock* to) {
    if (to == loop.getHeader()) return false;
    llvm::Loop* m = li.getLoopFor(to);
    return m && m != &loop && m->getHeader() == to && loop.contains(m) && m->contains(from);
}

}  // namespace

std::set<llvm::BasicBlock*> loopyBlocks(llvm::Loop& loop, llvm::LoopInfo& li,
                                        llvm::BasicBlock* latch) {
    llvm::BasicBlock* h = loop.getHeader();
    std::set<llvm::BasicBlock*> fwd{h};
    std::vector<llvm::BasicBlock*> work{h};
    while (!work.empty()) {
        llvm::BasicBlock* b = work.back();
        work.pop_back();
        for (llvm::BasicBlock* s : llvm::successors(b))
            if (loop.contains(s) && s != h && !internalEdge(loop, li, b, s) && fwd.insert(s).second)
                work.push_back(s);
    }
    std::set<llvm::BasicBlock*> bwd{latch};
    work = {latch};
    while (!work.empty()) {
        llvm::BasicBlock* b = work.back();
        work.pop_back();
        if (b == h) continue;
        for (llvm::BasicBlock* p : llvm::predecessors(b))
            if (loop.contains(p) && !internalEdge(loop, li, p, b) && bwd.insert(p).second)
                work.push_back(p);
    }
    std::set<llvm::BasicBlock*> both;
    for (llvm::BasicBlock* b : fwd)
        if (bwd.count(b)) {
            if (li.getLoopFor(b) != &loop) return {};
            both.insert(b);
        }
    return both;
}

std::optional<Backedge> classifyBackedge(llvm::Loop& loop, llvm::LoopInfo& li,
                                         llvm::BasicBlock* latch, bool refresh) {
    llvm::BasicBlock* h = loop.getHeader();
    if (!loop.contains(latch) || headerImpureAlong(loop, latch, refresh)) return std::nullopt;
    const std::set<llvm::BasicBlock*> blocks = loopyBlocks(loop, li, latch);
    if (blocks.empty()) return std::nullopt;
    Backedge be;
    be.latch = latch;
    be.condition = dnfFalse();
    for (auto& [s, e] : edgeConditions(*latch))
        if (s == h) be.condition = e;
    if (be.condition.empty()) return std::nullopt;
    // Atoms that hold whenever the backedge is taken.
    const std::vector<Atom> implied =
        be.condition.size() == 1 ? be.condition.front().atoms : std::vector<Atom>{};
    for (llvm::BasicBlock* b : blocks)
        for (llvm::Instruction& i : *b) {
            if (i.isTerminator()) continue;
            bool mayFault = false;
            const Dnf g = guardOf(i, mayFault);
            const bool ok = std::any_of(g.begin(), g.end(), [&](const Conj& c) {
                return std::includes(implied.begin(), implied.end(), c.atoms.begin(),
                                     c.atoms.end());
            });
            if (!ok) be.effects.push_back(&i);
        }
    return be;
}

void spinAssumeFunction(llvm::Function& f, LoopStats& stats, bool refresh) {
    llvm::DominatorTree dt(f);
    llvm::LoopInfo li(dt);
    std::vector<std::pair<llvm::Loop*, Backedge>> todo;
    for (llvm::Loop* loop : li.getLoopsInPreorder()) {
        ++stats.loops;
        for (llvm::BasicBlock* latch : llvm::predecessors(loop->getHeader()))
            if (auto be = classifyBackedge(*loop, li, latch, refresh); be && be->effects.empty())
                todo.emplace_back(loop, std::move(*be));
    }
    for (const auto& [loop, be] : todo)
        for (const Conj& c : be.condition) {
            emitAssumeNot(c.atoms, nullptr, be.latch->getTerminator(),
                          be.latch->getTerminator()->getDebugLoc(), iterationStart(*loop));
            ++stats.assumes;
        }
}

}  // namespace porlab::cfront::loops
