// SPDX-License-Identifier: MIT
// One interface for every exploration algorithm, and the registry that names them.
#pragma once

#include <chrono>
#include <cstdint>
#include <compare>
#include <functional>
#include <tuple>
#include <map>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "porlab/core/Conflict.hpp"
#include "porlab/core/Trace.hpp"
#include "porlab/program/Program.hpp"

namespace porlab {

struct ExploreOptions {
    std::uint64_t maxTraces = 0;   // maximal traces (complete + blocked + error); 0 = no limit
    double maxSeconds = 0;         // 0 = no limit
    std::uint64_t maxEvents = 0;   // events executed; 0 = no limit
    bool stopOnError = false;      // end the run at the first error trace
    bool keepTraces = false;       // keep every maximal trace in the result
    bool collectOutcomes = true;   // record the set of reachable final states
    std::function<void(const Trace&)> onTrace;  // called with every maximal trace
    // When set and false for a maximal execution, the trace is not reported at all (drivers that
    // run an explorer several times, e.g. once per input assignment, report each trace once).
    std::function<bool(const Execution&)> acceptTrace;
    ConflictRelation conflicts;    // e.g. IFAA
    std::map<std::string, std::string> params;  // explorer-specific options
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

struct ExploreResult {
    std::string explorer;
    std::uint64_t complete = 0;
    std::uint64_t blocked = 0;
    std::uint64_t errors = 0;
    std::uint64_t events = 0;  // visible operations executed, replays included
    double seconds = 0;
    std::uint64_t peakMemoryBytes = 0;  // peak resident set size of the process
    bool budgetExceeded = false;
    std::string budgetReason;           // "traces", "seconds", "events"
    std::optional<Trace> firstError;
    std::vector<Trace> traces;          // when keepTraces
    std::unordered_set<std::vector<Value>, VectorHash> outcomes;  // final states (complete+blocked)
    std::vector<ErrorSite> errorSites;  // distinct, sorted
    std::map<std::string, double> stats;  // explorer-specific statistics

    [[nodiscard]] std::uint64_t traceCount() const { return complete + blocked + errors; }
};

// Collects what every explorer reports, so that counting, budgets, outcomes, error traces and
// trace streaming are written once.
class Reporter {
public:
    Reporter(const Program& program, const ExploreOptions& opts, ExploreResult& result);

    // A maximal trace ended with the given status; `events` is the whole trace.
    void maximal(TraceStatus status, const Execution& exec, const std::vector<Event>& events);
    void countEvent() { ++result_.events; }
    // Should the explorer stop now (budget or first error)? Cheap; call often.
    [[nodiscard]] bool stop();
    [[nodiscard]] bool stopped() const { return stopped_; }
    // Status of a maximal execution: complete when every started thread finished.
    [[nodiscard]] static TraceStatus classify(const Execution& exec);
    // When every unfinished thread waits on a lock or a join: the Fault(Deadlock) marker of the
    // lowest thread waiting on a lock (else on a join). maximal() turns a Blocked trace of a
    // program with ProgramInfo::deadlockIsError into an Error trace ending with this marker.
    [[nodiscard]] static std::optional<Event> deadlock(const Execution& exec);
    void finish();

private:
    const Program& program_;
    const ExploreOptions& opts_;
    ExploreResult& result_;
    std::chrono::steady_clock::time_point start_;
    std::uint64_t checks_ = 0;
    bool stopped_ = false;
    bool needTrace_ = false;
};

[[nodiscard]] std::uint64_t peakResidentBytes();

using ExplorerFn = std::function<ExploreResult(const Program&, const ExploreOptions&)>;

struct ExplorerInfo {
    std::string name;
    std::string equivalence;  // what one explored trace stands for
    std::string description;
    bool optimal = false;     // exactly one complete trace per class of `equivalence`
    ExplorerFn run;
    std::vector<std::string> options = {};  // the ExploreOptions::params keys it understands
    // The guarantees an explorer gives about `equivalence` (optimal implies both): every
    // complete class has a complete trace; no two complete traces share a class.
    bool coversClasses = true;
    bool nonRedundant = false;
    bool ifaa = false;        // honours ExploreOptions::conflicts.ifaa (others reject it)
};

// Every registered explorer, in registration order.
[[nodiscard]] const std::vector<ExplorerInfo>& explorers();
// Throws InputError listing the known names when `name` is unknown.
// explore() also rejects params the explorer does not know (a misspelt option must not be
// silently ignored).
[[nodiscard]] const ExplorerInfo& explorerInfo(const std::string& name);
[[nodiscard]] ExploreResult explore(const Program& program, const std::string& explorer,
                                    const ExploreOptions& opts = {});

// A driver explores some programs in its own way (e.g. C programs with --nondet-domain: the
// explorer once per assignment of values to input choices) and returns nullopt for the others.
// explore() asks the registered drivers first; `run` runs the explorer once with given options.
using ExploreRun = std::function<ExploreResult(const ExploreOptions&)>;
using ExploreDriver =
    std::function<std::optional<ExploreResult>(const Program&, const ExploreOptions&, const ExploreRun&)>;
// Registers a driver (at static initialisation of a front end); returns true.
bool registerExploreDriver(ExploreDriver driver);

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
