// SPDX-License-Identifier: MIT
// One interface for every exploration algorithm, and the registry that names them.
#pragma once

#include <atomic>
#include <chrono>
#include <compare>
#include <cstdint>
#include <deque>
#include <functional>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "porlab/core/Conflict.hpp"
#include "porlab/core/Trace.hpp"
#include "porlab/explore/BugChecks.hpp"
#include "porlab/explore/Options.hpp"
#include "porlab/program/Program.hpp"

namespace porlab {

// Live counters of a running exploration, written by the explorer (relaxed atomics, added to
// as traces end, so that a driver running an explorer several times accumulates) and read by
// whoever shows progress on another thread.
struct ExploreProgress {
    std::atomic<std::uint64_t> complete{0}, blocked{0}, errors{0}, events{0};
};

// Shared between the caller of explore() and the explorer: the caller (e.g. a Ctrl-C handler, a
// notebook's interrupt, a test) sets `interrupt`; the explorer stops as a budget does, within a
// few hundred events, and reports its partial result with the reason "interrupted".
struct ExploreControl {
    std::atomic<bool> interrupt{false};
    ExploreProgress progress;
};

namespace graph {
struct TaskRun;  // Parallel.hpp
}

struct ExploreOptions {
    std::uint64_t maxTraces = 0;        // maximal traces (complete + blocked + error); 0 = no limit
    double maxSeconds = 0;              // 0 = no limit
    std::uint64_t maxEvents = 0;        // events executed; 0 = no limit
    std::uint64_t maxMemoryBytes = 0;   // peak resident set size of the process; 0 = no limit
    ExploreControl* control = nullptr;  // interrupt flag and live counters (may be null)
    // Called on the thread that called explore(), about every pollSeconds while the explorer runs
    // on its own thread: a caller's chance to show progress (control->progress) and to notice an
    // interrupt (return true: stop as a budget does, reason "interrupted").
    std::function<bool()> poll;
    double pollSeconds = 0.1;
    bool stopOnError = false;  // end the run at the first error trace
    // Bug checks of maximal traces (Reporter, every explorer alike; BugChecks.hpp): a data race
    // makes a trace an error (programs with non-atomic accesses only, ProgramInfo::plainAccesses);
    // with checkLiveness, so does a blocked execution in which a thread is stuck for ever.
    bool checkRaces = true;
    bool checkLiveness = false;
    bool keepTraces = false;                    // keep every maximal trace in the result
    bool collectOutcomes = true;                // record the set of reachable final states
    std::function<void(const Trace&)> onTrace;  // called with every maximal trace
    // When set and false for a maximal execution, the trace is not reported at all (drivers that
    // run an explorer several times, e.g. once per input assignment, report each trace once).
    std::function<bool(const Execution&)> acceptTrace;
    ConflictRelation conflicts;  // e.g. IFAA
    // Explorer-specific options as text (-o NAME=VALUE, Python keywords): explore() checks them
    // against the registration's schema (Options.hpp) and parses them, with the defaults of the
    // options not given, into `values`, which the explorer reads through option<T>().
    std::map<std::string, std::string> params;
    OptionValues values;

    // The typed value of the explorer option `name` as `explorer`'s registration declares it:
    // from `values` (filled by explore()), else (an explorer function called directly) parsed
    // from `params` or the registration's default.
    template <class T>
    [[nodiscard]] T option(std::string_view name, std::string_view explorer) const;
    // Worker threads of one exploration (explorers with ExplorerInfo::parallel; explore() rejects
    // jobs > 1 for the others). Totals are those of jobs = 1; which error trace comes first is not.
    unsigned jobs = 1;
    // A distributed run (graph engine only; python/porlab/distributed.py): explore this one task.
    graph::TaskRun* taskRun = nullptr;
};

struct VectorHash {
    std::size_t operator()(const std::vector<Value>& v) const noexcept {
        std::uint64_t h = 1469598103934665603ULL;
        for (Value x : v) {
            h ^= static_cast<std::uint64_t>(x) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
            h *= 1099511628211ULL;
        }
        return static_cast<std::size_t>(h);
    }
};

// Where an error happened: thread, kind (assertion failure or fault) and source position.
struct ErrorSite {
    ThreadId thread = 0;
    EventKind kind = EventKind::AssertFail;
    std::int32_t aux = -1;
    SourcePos pos;
    friend auto operator<=>(const ErrorSite& a, const ErrorSite& b) {
        return std::tie(a.thread, a.kind, a.aux, a.pos.file, a.pos.line) <=>
               std::tie(b.thread, b.kind, b.aux, b.pos.file, b.pos.line);
    }
    friend bool operator==(const ErrorSite&, const ErrorSite&) = default;
};

// An error site with the number of error traces that reached it and the first of them (what
// --all-errors lists: one trace per distinct site).
struct ErrorSiteTraces {
    ErrorSite site;
    std::uint64_t traces = 0;
    Trace first;
};

// Why a thread of a blocked execution stopped: a block cause of an AssumeBlock marker
// (kBlockCauseNames) or a wait that can never end ("deadlock" when every unfinished thread waits
// on a mutex or a join and deadlocks are not errors). In precedence order: the primary reason of a
// blocked execution is the first of its threads' reasons in this list (limits first, as they make
// a run incomplete; then the loop bound and waits that never end; last the assumes of the program
// and of the loop reductions).
#define PORLAB_BLOCK_REASONS(X)        \
    X(ExecutionCut, "execution-cut")   \
    X(LocationLimit, "location-limit") \
    X(ThreadLimit, "thread-limit")     \
    X(LoopBound, "loop-bound")         \
    X(Livelock, "livelock")            \
    X(Deadlock, "deadlock")            \
    X(CondWait, "cond-wait")           \
    X(Lock, "lock")                    \
    X(Join, "join")                    \
    X(Await, "await")                  \
    X(Assume, "assume")                \
    X(SpinLoop, "spin-loop")           \
    X(PureIteration, "pure-iteration") \
    X(Zne, "zne")                      \
    X(Unknown, "unknown")

enum class BlockReason : std::uint8_t {
#define PORLAB_X(e, s) e,
    PORLAB_BLOCK_REASONS(PORLAB_X)
#undef PORLAB_X
};

inline constexpr std::string_view kBlockReasonNames[] = {
#define PORLAB_X(e, s) s,
    PORLAB_BLOCK_REASONS(PORLAB_X)
#undef PORLAB_X
};
inline constexpr std::size_t kNumBlockReasons = std::size(kBlockReasonNames);

// The block reason of an AssumeBlock marker's cause.
[[nodiscard]] BlockReason blockReasonOf(BlockCause c);

// Where threads of blocked executions stopped, with the number of blocked traces in which some
// thread stopped there for that reason.
struct BlockSite {
    std::string reason;
    SourcePos pos;
    std::uint64_t traces = 0;
    friend auto operator<=>(const BlockSite& a, const BlockSite& b) {
        return std::tie(a.reason, a.pos.file, a.pos.line) <=>
               std::tie(b.reason, b.pos.file, b.pos.line);
    }
    friend bool operator==(const BlockSite& a, const BlockSite& b) {
        return a.reason == b.reason && a.pos == b.pos;
    }
};

// The reasons an exploration can end before it is exhausted (ExploreResult::incomplete): the
// budgets, an interrupt, and blocked executions whose continuation was not explored because a
// limit (not the program) stopped them.
#define PORLAB_INCOMPLETE_REASONS(X)                                                               \
    X(Traces, "traces")              /* --max-traces */                                            \
    X(Seconds, "seconds")            /* --max-seconds */                                           \
    X(Events, "events")              /* --max-events */                                            \
    X(Memory, "memory")              /* --max-memory */                                            \
    X(Interrupted, "interrupted")    /* Ctrl-C, a notebook interrupt, ExploreControl::interrupt */ \
    X(ExecutionCut, "execution-cut") /* executions longer than max_execution_events */             \
    X(ThreadLimit, "thread-limit")   /* a thread beyond --max-threads */                           \
    X(LocationLimit, "location-limit") /* shared locations beyond --max-locations */

struct ExploreResult {
    std::string explorer;
    std::uint64_t complete = 0;
    std::uint64_t blocked = 0;
    std::uint64_t errors = 0;
    std::uint64_t events = 0;  // visible operations executed, replays included
    double seconds = 0;
    std::uint64_t peakMemoryBytes = 0;  // peak resident set size of the process
    // A budget or an interrupt ended the run early (the counts are partial): budgetReason is
    // "traces", "seconds", "events", "memory" or "interrupted".
    bool budgetExceeded = false;
    std::string budgetReason;
    // Every reason the exploration is not exhaustive (PORLAB_INCOMPLETE_REASONS), in the order
    // of that list; empty when it was exhausted. A verdict of "no violation" needs it empty.
    std::vector<std::string> incomplete;
    // Blocked traces by their primary reason (Reporter::blockReason's precedence): each blocked
    // trace counts once; the values add up to `blocked`.
    std::map<std::string, std::uint64_t> blockedBy;
    std::vector<BlockSite> blockSites;  // distinct (reason, position), sorted
    std::optional<Trace> firstError;
    std::vector<Trace> traces;                                    // when keepTraces
    std::unordered_set<std::vector<Value>, VectorHash> outcomes;  // final states (complete+blocked)
    std::vector<ErrorSite> errorSites;                            // distinct, sorted
    std::vector<ErrorSiteTraces> errorsBySite;  // as errorSites, with counts and a trace each
    std::map<std::string, double> stats;        // explorer-specific statistics

    [[nodiscard]] std::uint64_t traceCount() const { return complete + blocked + errors; }
};

// Collects what every explorer reports, so that counting, budgets, outcomes, error traces and
// trace streaming are written once.
class Reporter {
  public:
    Reporter(const Program& program, const ExploreOptions& opts, ExploreResult& result);

    // A maximal trace ended with the given status; `events` is the whole trace. Returns the status
    // it is counted with: Error when a bug check (a data race, a deadlock, a liveness violation)
    // made it an error trace.
    TraceStatus maximal(TraceStatus status, const Execution& exec,
                        const std::vector<Event>& events);
    // The final state of a maximal execution that the explorer does not report as a trace (another
    // trace of its class was reported): an outcome unless maximal() would make it an error trace.
    void outcome(const Execution& exec, const std::vector<Event>& events);
    // One event executed. Every few hundred events it also checks the clock, the memory and the
    // interrupt flag, and publishes progress: after it, stopped() may have become true in the
    // middle of an execution, and the explorer must unwind without reporting that execution.
    void countEvent() {
        if (++result_.events >= nextCheck_) periodic();
    }
    // Should the explorer stop now (budget, interrupt or first error)? Cheap; call often.
    [[nodiscard]] bool stop();
    [[nodiscard]] bool stopped() const { return stopped_; }
    // Status of a maximal execution: complete when every started thread finished.
    [[nodiscard]] static TraceStatus classify(const Execution& exec);
    // When every unfinished thread waits on a lock or a join: the Fault(Deadlock) marker of the
    // lowest thread waiting on a lock (else on a join). maximal() turns a Blocked trace of a
    // program with ProgramInfo::deadlockIsError into an Error trace ending with this marker.
    [[nodiscard]] static std::optional<Event> deadlock(const Execution& exec);
    // Why the threads of a blocked execution stopped: (reason, position) for every thread that
    // is neither finished nor failed, from its AssumeBlock marker or its pending wait.
    struct Block {
        ThreadId thread = 0;
        BlockReason reason = BlockReason::Unknown;
        SourcePos pos;
    };
    static void blocks(const Execution& exec, const std::vector<Event>& events,
                       std::vector<Block>& out);
    void finish();

  private:
    void periodic();
    void budget(std::string_view reason);
    void countBlocked(const Execution& exec, const std::vector<Event>& events);
    void countErrorSites(const std::vector<Event>& events);
    void record(TraceStatus status, const Execution& exec, const std::vector<Event>& events);
    // The error trace of a data race among the events before the first error marker, if any.
    bool raceTrace(const Execution& exec, const std::vector<Event>& events,
                   std::vector<Event>& out);

    const Program& program_;
    const ExploreOptions& opts_;
    ExploreResult& result_;
    std::chrono::steady_clock::time_point start_;
    std::chrono::steady_clock::time_point lastMemoryCheck_;
    std::uint64_t nextCheck_ = 0;
    std::uint64_t published_ = 0;  // events already added to the progress counters
    std::uint64_t calls_ = 0;
    // Blocked traces by primary reason, and per (reason, file, line) packed into one word; kept
    // as numbers on the hot path, turned into the result's names by finish().
    std::uint64_t blockedBy_[kNumBlockReasons] = {};
    std::unordered_map<std::uint64_t, std::uint64_t> sites_;
    std::vector<Block> blocks_;
    std::vector<std::uint64_t> traceSites_;
    RaceChecker races_;
    std::vector<Event> checked_;  // a trace a bug check made an error trace
    bool stopped_ = false;
    bool needTrace_ = false;
};

// The default memory budget: three quarters of what the machine (or the cgroup the process runs
// in) has. 0 if unknown.
[[nodiscard]] std::uint64_t defaultMemoryBudget();
[[nodiscard]] std::uint64_t currentResidentBytes();

[[nodiscard]] std::uint64_t peakResidentBytes();

// Knuth's estimate of the number of maximal interleavings (the naive explorer's traces): the
// mean, over `walks` random walks, of the product of the numbers of enabled threads met.
[[nodiscard]] double estimateInterleavings(const Program& program, int walks,
                                           std::uint64_t seed = 1);

// Adds the result of one run to a total (drivers that run an explorer several times, e.g. once
// per input assignment): counts, incomplete reasons, block sites, errors, outcomes, statistics.
void mergeResult(ExploreResult& total, ExploreResult&& r);
// Adds a reason to r.incomplete (once, in the order of PORLAB_INCOMPLETE_REASONS).
void addIncompleteReason(ExploreResult& r, std::string_view reason);

using ExplorerFn = std::function<ExploreResult(const Program&, const ExploreOptions&)>;

struct ExplorerInfo {
    std::string name;
    std::string equivalence;  // what one explored trace stands for
    std::string description;
    bool optimal = false;  // exactly one complete trace per class of `equivalence`
    ExplorerFn run;
    std::vector<ExplorerOption> options = {};  // the ExploreOptions::params keys it understands
    // The guarantees an explorer gives about `equivalence` (optimal implies both): every
    // complete class has a complete trace; no two complete traces share a class.
    bool coversClasses = true;
    bool nonRedundant = false;
    bool ifaa = false;  // honours ExploreOptions::conflicts.ifaa (others reject it)
    // Recurses once per event or graph node: explore() runs it on a thread with a 512 MiB
    // stack. The others keep their search on a stack of their own and run on the caller's
    // thread (on a thread with the default stack when a poller must run on the caller's).
    bool bigStack = true;
    bool parallel = false;  // honours ExploreOptions::jobs > 1 (explore/graph/Parallel.hpp)
    // Registered at run time (porlab.register_explorer: an explorer written in Python).
    bool plugin = false;
};

// Every registered explorer, in registration order (a deque: references stay valid while
// plugins register).
[[nodiscard]] const std::deque<ExplorerInfo>& explorers();
// Adds an explorer at run time (a plugin); replaces a plugin of the same name. InputError when
// the name is a built-in explorer's or the declaration is inconsistent.
void registerExplorer(ExplorerInfo info);
// The value of option `name` of `explorer` for a run with `opts` (ExploreOptions::option).
[[nodiscard]] OptionValue resolveOption(const ExploreOptions& opts, std::string_view name,
                                        std::string_view explorer);

template <class T>
T ExploreOptions::option(std::string_view name, std::string_view explorer) const {
    if (values.has(name)) return values.get<T>(name);
    OptionValues one;
    one.set(std::string(name), resolveOption(*this, name, explorer));
    return one.get<T>(name);
}
// Throws InputError listing the known names when `name` is unknown.
// explore() also rejects params the explorer does not know (a misspelt option must not be
// silently ignored).
// Throws UnsupportedError when the program destroys a mutex (ProgramInfo::mutexDestroy):
// for explorers that cannot order a destroy with the mutex's locks and unlocks as executed.
void refuseMutexDestroy(const Program& program, const std::string& explorer);
[[nodiscard]] const ExplorerInfo& explorerInfo(const std::string& name);
[[nodiscard]] ExploreResult explore(const Program& program, const std::string& explorer,
                                    const ExploreOptions& opts = {});

// A program with nondeterministic inputs (Program::inputChoices) is explored once per assignment
// of values to its choice points (explore/Inputs.cpp); nullopt for programs without inputs.
// `run` runs the explorer once with given options.
using ExploreRun = std::function<ExploreResult(const ExploreOptions&)>;
[[nodiscard]] std::optional<ExploreResult> exploreInputs(const Program& program,
                                                         const ExploreOptions& opts,
                                                         const ExploreRun& run);

// The explorers themselves (one file each).
ExploreResult exploreNaive(const Program& program, const ExploreOptions& opts);
ExploreResult exploreSource(const Program& program, const ExploreOptions& opts);
ExploreResult exploreOptimal(const Program& program, const ExploreOptions& opts);
ExploreResult exploreOptimalAwait(const Program& program, const ExploreOptions& opts);
// The graph engine (explore/graph): one trace per Mazurkiewicz class (`graph`) and one per
// reads-from class (`rf-graph`, which explores every (rf, co) graph and reports one per class).
ExploreResult exploreGraph(const Program& program, const ExploreOptions& opts);
ExploreResult exploreRfGraph(const Program& program, const ExploreOptions& opts);
// LAPOR on the graph engine (Lapor.cpp): one trace per lock-aware class (params coherence=wb|mo).
ExploreResult exploreLapor(const Program& program, const ExploreOptions& opts);
// RVF-SMC with VerifySC (RvfSmc.cpp): at most one complete trace per RVF class, possibly fewer
// (it may merge classes that differ only in the causal order of reads).
ExploreResult exploreRvf(const Program& program, const ExploreOptions& opts);
// Reads-from SMC (`rf`, RvfSmc.cpp): the RVF-SMC recursion with one write per good-writes set,
// so every node fixes the reads-from function of its events: one complete trace per reads-from
// class, one blocked trace per blocked reads-from class.
ExploreResult exploreRfSmc(const Program& program, const ExploreOptions& opts);

}  // namespace porlab
