// SPDX-License-Identifier: MIT
// jobs > 1 for the graph engine (graph, rf-graph, lapor; SAVER's zne markers included): one
// exploration on several threads.
//
// The subtree below visit(g, d) is a function of g (its events, reads-from, coherence, stamps
// and zne state) and of the program state its witness replays to: nothing else of the caller's
// recursion reaches into it. So a subtree is a self-contained task (a graph and a witness), and
// exploring it anywhere else explores the same graphs. Each worker has its own explorer (its
// own Execution, consistency checkers, scratch and Reporter) and a deque of tasks.
//
// The hand-over: the shallowest pending subtrees of the donor's path. A worker with nothing to
// do raises `idle`; a busy worker sees it at its next visit() (one relaxed load on the hot path
// while nobody is idle) and *splits*: from then on every visit of its current task is taken as
// a task instead of explored, so its steps, resumed from the deepest, run through what is left
// of their loops (the other sources of its reads, places in coherence, revisits) and turn every
// pending subtree of its path, its frontier, into a task, down to the task's root. That is the
// frontier the Dask side hands out from (TaskCodec.hpp's TaskChannel); the donor does not
// explore any of it (each visit is explored once: by whoever takes its task). The frontier goes
// to the donor's deque in one push, ordered as the search met it: the donor takes its newest
// (the deepest, where one job would go on), thieves take the oldest (the shallowest: the
// largest subtrees). Further idle workers take the next shallowest without another split; a
// split happens only when every deque is empty. (Before: the donor handed over the one subtree
// it was about to visit, mostly deep and small. casrot(11) made 5,000 tasks of ~0.1 ms and the
// worker without the root did a quarter of the work.)
//
// Totals are those of one job: every subtree is explored exactly once, whoever explores it. The
// only cross-subtree state of the engine, the set of failing prefixes already reported as error
// traces (one error trace per failing prefix), is shared (firstFailure). Which error trace is
// reported first depends on the workers' timing. Budgets: the traces budget is exact (a global
// count decides which traces are reported), events, seconds and memory stop every worker within
// a few hundred events of the limit (events may overshoot by that much per worker); an
// interrupt stops them all.
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

#include "porlab/explore/Explorer.hpp"
#include "porlab/explore/PoolStop.hpp"
#include "porlab/explore/graph/ExecutionGraph.hpp"
#include "porlab/explore/graph/TaskCodec.hpp"

namespace porlab::graph {

class GraphExplorer;

// A subtree of the exploration: visit(graph, ·) after replaying `order`.
struct Task {
    ExecutionGraph graph;
    std::vector<Ref> order;
};

class WorkPool : public PoolStop {
  public:
    static constexpr std::uint64_t kSplitBytes = std::uint64_t{64} << 20;
    // eager (option split=eager, for tests): subtrees are handed over whether or not a worker
    // is idle, up to `eager` of them, so that small programs are split too.
    // splitBytes: a split stops at this many bytes of graphs (Split; option split_bytes, tests).
    WorkPool(unsigned workers, std::uint64_t eager, std::uint64_t splitBytes = kSplitBytes);

    // Should worker w take its next visit as a task: is it splitting, or is some worker waiting
    // for a task none has published yet? (The hot path: a plain and two relaxed loads.)
    [[nodiscard]] bool hungry(unsigned w) const {
        const Split& s = splits_[w];
        if (s.on) return true;
        if (s.capped || stop_.load(std::memory_order_relaxed)) return false;
        return idle_.load(std::memory_order_relaxed) > queued_.load(std::memory_order_relaxed) ||
               eager_.load(std::memory_order_relaxed) > 0;
    }
    // The calling worker takes the subtree of visit(g, ·) with witness `order` as a task, and
    // goes on splitting (see above) until its task ends (endSplit). True: it must not explore
    // it itself. (A distributed task's subtree is published at once.)
    bool donate(const ExecutionGraph& g, std::span<const Ref> order);
    // Worker w's task ended: the frontier it split off goes to its deque (shallowest first).
    void endSplit(unsigned w);
    // A failing prefix (by its 128-bit hash) reported for the first time? (One error trace per
    // failing prefix, whichever worker meets it first.)
    [[nodiscard]] bool firstFailure(std::uint64_t h1, std::uint64_t h2);
    // The traces budget: may one more maximal trace be reported (false once `max` were)?

    // Stop every worker (a budget, an interrupt, a first error with stopOnError); the first
    // reason is kept.

    // Worker w's loop: explore tasks until every task is done or the pool stopped.
    void work(unsigned w, GraphExplorer& ex);
    // Called with each worker's ExploreControl, whose interrupt stop() sets.

    // Measurements (stats of the result).
    std::atomic<std::uint64_t> tasks{0}, taskEvents{0}, taskBytes{0}, splits{0};

    // One task of a distributed run (TaskRun): every subtree handed over from now on is given to
    // `publish` (serialised, for another process) instead of a deque.
    void publishAll(std::function<void(const ExecutionGraph&, std::span<const Ref>)> publish) {
        publish_ = std::move(publish);
    }
    // From now on hand over every subtree (a task that ran past its bound splits).
    void splitAll() { eager_.store(std::int64_t{1} << 60); }
    // Explore again instead of handing over (after a split that was not the end of the task).
    void resume() { eager_.store(0); }
    // Record the failing prefixes reported (their hashes) in `log`.
    void logFailures(std::vector<std::pair<std::uint64_t, std::uint64_t>>* log) {
        failureLog_ = log;
    }

  private:
    struct Deque {
        std::mutex mu;
        std::deque<std::unique_ptr<Task>> tasks;
    };
    bool take(unsigned w, std::unique_ptr<Task>& out);

    // Per worker (only its own thread touches it): a split under way and the tasks it made, in
    // the order it met them (the deepest first), with their size. A split stops at kSplitBytes
    // of graphs (`capped`: the frontier so far is pushed, and the worker explores the rest of
    // its task itself): a frontier is as many graphs as the path has pending subtrees, and on an
    // execution of 100,000 events that is memory without a bound.
    struct alignas(64) Split {
        bool on = false, capped = false;
        std::uint64_t bytes = 0;
        std::vector<std::unique_ptr<Task>> frontier;
    };
    void flush(unsigned w);  // pushes worker w's frontier to its deque
    std::uint64_t splitBytes_;
    std::vector<Split> splits_;

    std::vector<std::unique_ptr<Deque>> deques_;
    std::atomic<std::int64_t> eager_{0};
    std::atomic<int> idle_{0};
    std::atomic<int> queued_{0};
    std::atomic<std::int64_t> pending_{1};  // tasks not finished; the root is one
    struct PairHash {
        std::size_t operator()(const std::pair<std::uint64_t, std::uint64_t>& k) const noexcept {
            return static_cast<std::size_t>(k.first ^ (k.second * 0x9e3779b97f4a7c15ULL));
        }
    };
    std::unordered_set<std::pair<std::uint64_t, std::uint64_t>, PairHash> failures_;
    std::function<void(const ExecutionGraph&, std::span<const Ref>)> publish_;
    std::vector<std::pair<std::uint64_t, std::uint64_t>>* failureLog_ = nullptr;
};

// Runs one graph-engine exploration on opts.jobs worker threads. `make` builds one explorer (of
// the explorer's own class) for a worker's options and result.
using MakeGraphExplorer =
    std::function<std::unique_ptr<GraphExplorer>(const ExploreOptions&, ExploreResult&)>;
[[nodiscard]] ExploreResult exploreParallel(const ExploreOptions& opts,
                                            const MakeGraphExplorer& make);

// One task of a distributed exploration (python/porlab/distributed.py): an explorer of the graph
// engine called with ExploreOptions::taskRun explores the task's subtree instead of the whole
// program, through exploreParallel: `input` is a task (TaskCodec.hpp; the root task is
// the whole exploration). After `splitAfterSeconds` (0: never; < 0: at once, for tests) of
// exploring, every subtree not yet started is serialised into `output` instead of explored: a
// long task splits itself.
// `failures` gets the (portable) hashes of the failing prefixes whose error traces it reported:
// the driver counts each once over all tasks, as one process would.
// A batch: `more` are explored after `input` by the same explorer (one explorer, one Reporter:
// a subtree costs its decoding replay, not a new explorer); once the time bound is met, the
// tasks not started are handed back in `output` as they are. `explored`: tasks started;
// `firstErrorTask`: the index (0: `input`) of the first task whose subtree met an error, or -1.
struct TaskRun {
    const Program* program = nullptr;
    std::string input;
    std::vector<std::string> more;
    std::uint64_t explored = 0;
    std::int64_t firstErrorTask = -1;
    std::uint64_t programId = 0;
    std::string explorer;
    double splitAfterSeconds = 0;
    std::vector<std::string> output;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> failures;
    std::uint64_t outputBytes = 0;
    // Hand-outs on demand while the task runs (TaskCodec.hpp); null: only at the time bound.
    TaskChannel* channel = nullptr;
    std::uint64_t pieces = 0;     // subtrees it kept at a hand-out and explored itself
    double threadCpuSeconds = 0;  // the CPU time of the thread that explored the tasks
};
// Should an explorer of the graph engine run through exploreParallel (jobs > 1 or a task)?
[[nodiscard]] bool usesWorkPool(const ExploreOptions& opts);

}  // namespace porlab::graph
