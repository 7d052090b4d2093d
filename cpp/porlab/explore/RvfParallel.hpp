// SPDX-License-Identifier: MIT
// jobs > 1 for rf and rvf (RvfSmc): one exploration on several threads.
//
// A task is a child node of the recursion: the steps of every thread up to the child's lengths
// (with their spawn points), a witness to replay, the causal map passed to it, the thread of its
// new read, and the locations its donor knew to be killable. Its subtree depends on nothing else
// of the donor's path except through the backtrack signals (Algorithm 2, lines 2-5): every
// signal raised in a subtree counts for the reads of every ancestor of it, and a node goes on to
// its next read only if a child of the current one was signalled (or the read has a causal-map
// entry, or blocks). So a task returns the signals raised in it, as (thread, location) pairs, and
// the frame that handed it over waits for it before it leaves the read (RvfSmc::joinHanded):
// it then decides as one job does (the OR of its children's signals) and raises the returned
// signals again in its own clock, so that they count for its ancestors and not for the entries
// it pushes later (one job raises them before those entries exist). A waiting worker explores
// other tasks meanwhile, on an engine of the next nesting level (each level has its own
// Execution); the waits form no cycle (a task waits only for tasks started after it).
//
// Killable locations (liveness reads) are learnt in exploration order: a task starts with its
// donor's, which one job would know at that point too (the donor's knowledge comes from its path,
// its own earlier subtrees and the tasks it joined), so a worker knows at most what one job
// knows. Knowing fewer kills performs more writes as plain writes; when such a write races with a
// kill, checkKillRaces rejects the program (UnsupportedError); the parallel run then falls back
// to one job, which answers (or rejects) as always (stat parallel_fallback_sequential).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "porlab/explore/PoolStop.hpp"
#include "porlab/explore/RvfSmc.hpp"

namespace porlab::rvfsmc {

struct RvfTask {
    std::vector<std::vector<Step>> steps;  // per thread, its first xl[t] steps
    std::vector<SpawnPoint> spawnOf;
    std::vector<ThreadId> witness;
    std::vector<std::int32_t> xl;
    CausalMap causal;
    ThreadId newT = -1;
    std::size_t depth = 0;  // of the child node, from the root
    std::vector<char> killable;
    // atState: the donor's program was in the child's state (the new read performed at the end
    // of its trace, or inserted where it writes nothing: RvfSmc::child's here-cases); `snap`
    // holds it, and the taker restores it instead of replaying the witness.
    bool atState = false;
    Snapshot snap;
    // The donor's registration of those steps (RvfSmc::registerStep: clocks, sources, the
    // per-location lists): a replay from scratch would register them in the witness's order,
    // where (RVF) a read may come before some of its good writes.
    std::vector<std::int32_t> reg;
    std::vector<std::vector<std::int32_t>> clk, satClk, prevDiff;
    std::vector<std::vector<WriteRef>> src;
    struct Lists {
        LocId loc = kNoLoc;
        std::vector<std::vector<std::int32_t>> writes, reads;
    };
    std::vector<Lists> lists;
    // Filled by the worker that explored it.
    std::vector<std::pair<ThreadId, LocId>> signals;
    std::atomic<bool> done{false};
};

class RvfPool : public PoolStop {
  public:
    // A worker's engine at nesting level `level` explores `task` (RvfParallel.cpp's driver).
    using RunTask = std::function<void(unsigned worker, unsigned level, RvfTask& task)>;
    // Nesting levels per worker: an engine at the last one hands nothing over.
    static constexpr unsigned kLevels = 12;

    RvfPool(unsigned workers, std::uint64_t eager, RunTask run);

    // Does a worker wait for work (or split=eager)? (The hot path: relaxed loads.)
    [[nodiscard]] bool hungry() const {
        if (stop_.load(std::memory_order_relaxed)) return false;
        return idle_.load(std::memory_order_relaxed) > queued_.load(std::memory_order_relaxed) ||
               eager_.load(std::memory_order_relaxed) > 0;
    }
    // Should a child node at depth d (nodes from the root) be handed over? Deep nodes have small
    // subtrees, whose hand-over (a copy and a replay from the initial state) costs more than it
    // saves: only nodes in the upper half of the deepest path seen so far are (any with
    // split=eager).
    [[nodiscard]] bool shallow(std::size_t d) const {
        return eagerMode_ || 4 * d <= 3 * maxDepth_.load(std::memory_order_relaxed);
    }
    void seeDepth(std::size_t d) {
        std::size_t m = maxDepth_.load(std::memory_order_relaxed);
        while (d > m && !maxDepth_.compare_exchange_weak(m, d, std::memory_order_relaxed)) {}
    }
    void donate(std::shared_ptr<RvfTask> t);
    // Wait until every task in `tasks` is done, exploring queued tasks meanwhile at level + 1.
    // false: the pool stopped (some of them may never run).
    [[nodiscard]] bool waitFor(std::span<const std::shared_ptr<RvfTask>> tasks, unsigned level);
    // The worker's loop after the root: explore tasks until all are done or the pool stopped.
    void work(unsigned w);
    void rootDone() { finished(); }

    [[nodiscard]] bool firstErrorClass(std::vector<std::int32_t>&& key);

    std::atomic<std::uint64_t> tasks{0}, taskSteps{0}, taskBytes{0}, maxLevel{0};

  private:
    struct Deque {
        std::mutex mu;
        std::deque<std::shared_ptr<RvfTask>> tasks;
    };
    bool take(unsigned w, std::shared_ptr<RvfTask>& out);
    void runOne(unsigned w, unsigned level, RvfTask& t);
    void finished();
    // Notify the idle workers (one or all) of a push, a task's end or the last task's end.
    void wake(bool all);
    // Sleep a little until a task is queued or something ends (idle meanwhile).
    void idleWait(const std::function<bool()>& ready);

    RunTask run_;
    std::vector<std::unique_ptr<Deque>> deques_;
    std::atomic<std::int64_t> eager_{0};
    bool eagerMode_ = false;
    std::atomic<std::size_t> maxDepth_{0};
    std::atomic<int> idle_{0};
    std::atomic<int> queued_{0};
    std::atomic<std::int64_t> pending_{1};  // tasks not finished; the root is one
    std::unordered_set<std::vector<std::int32_t>, IntsHash> errorsSeen_;
};

// rf / rvf with opts.jobs > 1 worker threads.
[[nodiscard]] ExploreResult exploreRvfParallel(const Program& program, const ExploreOptions& opts,
                                               const RvfOptions& ro);

}  // namespace porlab::rvfsmc
