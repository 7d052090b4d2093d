// SPDX-License-Identifier: MIT
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iterator>

#include "porlab/explore/Explorer.hpp"

namespace porlab {

std::uint64_t peakResidentBytes() {
    // VmHWM is this process image's own peak; ru_maxrss survives execve, so a benchmark worker
    // started from a large parent would report the parent's peak.
    if (std::FILE* f = std::fopen("/proc/self/status", "r")) {
        char line[256];
        unsigned long long kib = 0;
        bool found = false;
        while (std::fgets(line, sizeof line, f))
            if (std::sscanf(line, "VmHWM: %llu kB", &kib) == 1) {
                found = true;
                break;
            }
        std::fclose(f);
        if (found) return static_cast<std::uint64_t>(kib) * 1024;
    }
    struct rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return static_cast<std::uint64_t>(ru.ru_maxrss) * 1024;  // Linux reports KiB
}

std::uint64_t currentResidentBytes() {
    // /proc/self/statm: size resident shared ... in pages; cheap enough to read every few ms.
    std::uint64_t pages = 0;
    if (std::FILE* f = std::fopen("/proc/self/statm", "r")) {
        unsigned long long size = 0, resident = 0;
        if (std::fscanf(f, "%llu %llu", &size, &resident) == 2) pages = resident;
        std::fclose(f);
    }
    return pages * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
}

namespace {

// A number in a one-line file (cgroup limits); 0 if absent or "max".
std::uint64_t readLimit(const char* path) {
    std::uint64_t v = 0;
    if (std::FILE* f = std::fopen(path, "r")) {
        unsigned long long x = 0;
        if (std::fscanf(f, "%llu", &x) == 1) v = x;
        std::fclose(f);
    }
    return v >= (std::uint64_t{1} << 60) ? 0 : v;  // cgroup v1 says "no limit" with a huge value
}

}  // namespace

std::uint64_t defaultMemoryBudget() {
    std::uint64_t total = 0;
    if (std::FILE* f = std::fopen("/proc/meminfo", "r")) {
        char line[256];
        unsigned long long kib = 0;
        while (std::fgets(line, sizeof line, f))
            if (std::sscanf(line, "MemTotal: %llu kB", &kib) == 1) {
                total = static_cast<std::uint64_t>(kib) * 1024;
                break;
            }
        std::fclose(f);
    }
    for (const char* cg :
         {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"})
        if (const std::uint64_t lim = readLimit(cg); lim && (total == 0 || lim < total))
            total = lim;
    return total / 4 * 3;
}

namespace {

// Events between two periodic checks (clock, memory, interrupt, progress): a few microseconds of
// exploration at the fastest, so that budgets and Ctrl-C are noticed within milliseconds.
constexpr std::uint64_t kCheckEvery = 256;

// The incomplete reasons a block reason implies ("" for none).
std::string_view limitOf(BlockReason r) {
    switch (r) {
        case BlockReason::ExecutionCut:
            return "execution-cut";
        case BlockReason::ThreadLimit:
            return "thread-limit";
        case BlockReason::LocationLimit:
            return "location-limit";
        default:
            return {};
    }
}

std::uint64_t siteKey(BlockReason r, SourcePos p) {
    return (static_cast<std::uint64_t>(r) << 56) |
           (static_cast<std::uint64_t>(p.file & 0xffffff) << 32) | p.line;
}

constexpr std::string_view kIncompleteOrder[] = {
#define PORLAB_X(e, s) s,
    PORLAB_INCOMPLETE_REASONS(PORLAB_X)
#undef PORLAB_X
};

void addSite(std::vector<BlockSite>& sites, const BlockSite& s) {
    auto it = std::lower_bound(sites.begin(), sites.end(), s);
    if (it != sites.end() && *it == s)
        it->traces += s.traces;
    else
        sites.insert(it, s);
}

void addIncomplete(std::vector<std::string>& v, std::string_view r) {
    if (std::find(v.begin(), v.end(), r) != v.end()) return;
    v.emplace_back(r);
    auto rank = [](const std::string& x) {
        for (std::size_t i = 0; i < std::size(kIncompleteOrder); ++i)
            if (kIncompleteOrder[i] == x) return i;
        return std::size(kIncompleteOrder);
    };
    std::stable_sort(v.begin(), v.end(),
                     [&](const std::string& a, const std::string& b) { return rank(a) < rank(b); });
}

}  // namespace

void addIncompleteReason(ExploreResult& r, std::string_view reason) {
    addIncomplete(r.incomplete, reason);
}

void mergeResult(ExploreResult& total, ExploreResult&& r) {
    total.complete += r.complete;
    total.blocked += r.blocked;
    total.errors += r.errors;
    total.events += r.events;
    total.peakMemoryBytes = std::max(total.peakMemoryBytes, r.peakMemoryBytes);
    if (r.budgetExceeded && !total.budgetExceeded) {
        total.budgetExceeded = true;
        total.budgetReason = r.budgetReason;
    }
    for (const auto& x : r.incomplete) addIncomplete(total.incomplete, x);
    for (const auto& [k, v] : r.blockedBy) total.blockedBy[k] += v;
    for (const auto& b : r.blockSites) addSite(total.blockSites, b);
    if (!total.firstError && r.firstError) total.firstError = std::move(r.firstError);
    for (auto& t : r.traces) total.traces.push_back(std::move(t));
    total.outcomes.merge(r.outcomes);
    for (const auto& site : r.errorSites) {
        auto it = std::lower_bound(total.errorSites.begin(), total.errorSites.end(), site);
        if (it == total.errorSites.end() || !(*it == site)) total.errorSites.insert(it, site);
    }
    for (auto& x : r.errorsBySite) {
        auto& by = total.errorsBySite;
        auto it = std::lower_bound(
            by.begin(), by.end(), x.site,
            [](const ErrorSiteTraces& a, const ErrorSite& b) { return a.site < b; });
        if (it != by.end() && it->site == x.site)
            it->traces += x.traces;  // the earlier trace stays
        else
            by.insert(it, std::move(x));
    }
    for (const auto& [k, v] : r.stats) total.stats[k] += v;
}

Reporter::Reporter(const Program& program, const ExploreOptions& opts, ExploreResult& result)
    : program_(program),
      opts_(opts),
      result_(result),
      start_(std::chrono::steady_clock::now()),
      lastMemoryCheck_(start_) {
    needTrace_ = opts.keepTraces || static_cast<bool>(opts.onTrace);
    nextCheck_ = result_.events + 1;  // the first check at once: an interrupt already set
}

void Reporter::budget(std::string_view reason) {
    if (stopped_ && result_.budgetExceeded) return;
    stopped_ = true;
    result_.budgetExceeded = true;
    result_.budgetReason = reason;
}

void Reporter::periodic() {
    nextCheck_ = result_.events + kCheckEvery;
    if (opts_.maxEvents) {
        if (result_.events >= opts_.maxEvents)
            budget("events");
        else
            nextCheck_ = std::min(nextCheck_, opts_.maxEvents);
    }
    if (ExploreControl* c = opts_.control) {
        c->progress.events.fetch_add(result_.events - published_, std::memory_order_relaxed);
        published_ = result_.events;
        if (c->interrupt.load(std::memory_order_relaxed)) budget("interrupted");
    }
    if (opts_.maxSeconds <= 0 && !opts_.maxMemoryBytes) return;
    const auto now = std::chrono::steady_clock::now();
    if (opts_.maxSeconds > 0 &&
        std::chrono::duration<double>(now - start_).count() >= opts_.maxSeconds)
        budget("seconds");
    if (opts_.maxMemoryBytes && now - lastMemoryCheck_ >= std::chrono::milliseconds(5)) {
        lastMemoryCheck_ = now;
        if (currentResidentBytes() >= opts_.maxMemoryBytes) budget("memory");
    }
}

TraceStatus Reporter::classify(const Execution& exec) {
    if (exec.failed()) return TraceStatus::Error;
    for (ThreadId t = 0; t < exec.maxThreads(); ++t) {
        auto s = exec.status(t);
        if (s != ThreadStatus::Finished && s != ThreadStatus::NotStarted)
            return TraceStatus::Blocked;
    }
    return TraceStatus::Complete;
}

std::optional<Event> Reporter::deadlock(const Execution& exec) {
    if (exec.failed()) return std::nullopt;
    ThreadId first = -1, firstLock = -1;
    for (ThreadId t = 0; t < exec.maxThreads(); ++t) {
        const ThreadStatus s = exec.status(t);
        if (s == ThreadStatus::Finished || s == ThreadStatus::NotStarted) continue;
        if (s != ThreadStatus::Ready) return std::nullopt;  // blocked for good (assume, bound)
        const Event& e = exec.pending(t);
        if (e.enabled || (e.kind != EventKind::Lock && e.kind != EventKind::Join))
            return std::nullopt;  // e.g. an await that can never pass: blocked, not a deadlock
        if (first < 0) first = t;
        if (firstLock < 0 && e.kind == EventKind::Lock) firstLock = t;
    }
    if (first < 0) return std::nullopt;
    const ThreadId t = firstLock >= 0 ? firstLock : first;
    const Event& p = exec.pending(t);
    Event m;
    m.thread = t;
    m.index = p.index;
    m.kind = EventKind::Fault;
    m.aux = static_cast<std::int32_t>(FaultKind::Deadlock);
    m.pos = p.pos;
    m.ctx = p.ctx;
    return m;
}

BlockReason blockReasonOf(BlockCause c) {
    // By name, once: the two lists are declared apart (EventKind.hpp is the program's vocabulary,
    // PORLAB_BLOCK_REASONS the reporter's precedence).
    static const auto table = [] {
        std::vector<BlockReason> t;
        for (std::string_view cause : kBlockCauseNames) {
            BlockReason r = BlockReason::Unknown;
            for (std::size_t i = 0; i < kNumBlockReasons; ++i)
                if (kBlockReasonNames[i] == cause) r = static_cast<BlockReason>(i);
            t.push_back(r);
        }
        return t;
    }();
    const auto i = static_cast<std::size_t>(c);
    return i < table.size() ? table[i] : BlockReason::Unknown;
}

void Reporter::blocks(const Execution& exec, const std::vector<Event>& events,
                      std::vector<Block>& out) {
    out.clear();
    bool deadlocked = false, checked = false;
    for (ThreadId t = 0; t < exec.maxThreads(); ++t) {
        const ThreadStatus s = exec.status(t);
        if (s == ThreadStatus::Blocked) {
            // Its AssumeBlock marker is its last event: search from the end.
            Block b{t, BlockReason::Unknown, {}};
            for (auto it = events.rbegin(); it != events.rend(); ++it)
                if (it->thread == t) {
                    if (it->kind == EventKind::AssumeBlock && it->aux >= 0) {
                        b.reason = blockReasonOf(static_cast<BlockCause>(it->aux));
                        b.pos = it->pos;
                    }
                    break;
                }
            out.push_back(b);
        } else if (s == ThreadStatus::Ready) {
            const Event& p = exec.pending(t);
            BlockReason r = BlockReason::Unknown;
            if (!p.enabled) {
                if ((p.kind == EventKind::Lock || p.kind == EventKind::Join) && !checked) {
                    deadlocked = deadlock(exec).has_value();
                    checked = true;
                }
                switch (p.kind) {
                    case EventKind::Lock:
                        r = deadlocked ? BlockReason::Deadlock : BlockReason::Lock;
                        break;
                    case EventKind::Join:
                        r = deadlocked ? BlockReason::Deadlock : BlockReason::Join;
                        break;
                    case EventKind::Await:
                    case EventKind::XchgAwait:
                        r = p.aux == kCondWaitAux ? BlockReason::CondWait : BlockReason::Await;
                        break;
                    default:
                        break;
                }
            }
            out.push_back({t, r, p.pos});
        }
    }
}

void Reporter::countBlocked(const Execution& exec, const std::vector<Event>& events) {
    blocks(exec, events, blocks_);
    BlockReason primary = BlockReason::Unknown;
    traceSites_.clear();
    for (const auto& b : blocks_) {
        primary = std::min(primary, b.reason);  // the list is in precedence order
        const std::uint64_t k = siteKey(b.reason, b.pos);
        // each distinct site of the trace counts the trace once
        if (std::find(traceSites_.begin(), traceSites_.end(), k) == traceSites_.end()) {
            traceSites_.push_back(k);
            ++sites_[k];
        }
    }
    ++blockedBy_[static_cast<std::size_t>(primary)];
}

bool Reporter::raceTrace(const Execution& exec, const std::vector<Event>& events,
                         std::vector<Event>& out) {
    if (!opts_.checkRaces || !program_.info()->plainAccesses) return false;
    // An error trace: the accesses before its error (nothing after a failure runs).
    std::size_t end = events.size();
    for (std::size_t i = 0; i < events.size(); ++i)
        if (isErrorKind(events[i].kind)) {
            end = i;
            break;
        }
    const auto race = races_.find(events, end, exec.maxThreads(), *program_.info());
    if (!race) return false;
    RaceChecker::errorTrace(events, *race, out);
    return true;
}

TraceStatus Reporter::maximal(TraceStatus status, const Execution& exec,
                              const std::vector<Event>& events) {
    if (opts_.acceptTrace && !opts_.acceptTrace(exec)) return status;
    // Bug checks, decided here, after the explorer's end-of-trace analysis, so that no explorer
    // loses the classes beyond the trace (the explorer goes on as if it had been reported as it
    // was). A data race comes first: the execution has no defined behaviour beyond it (GenMC
    // stops there too), so the trace ends at its second access, with a fault marker.
    if (raceTrace(exec, events, checked_)) {
        record(TraceStatus::Error, exec, checked_);
        return TraceStatus::Error;
    }
    if (status == TraceStatus::Blocked && program_.info()->deadlockIsError) {
        // The trace ends with a fault marker on the waiting thread.
        if (auto m = deadlock(exec)) {
            checked_ = events;
            checked_.push_back(*m);
            record(TraceStatus::Error, exec, checked_);
            return TraceStatus::Error;
        }
    }
    if (status == TraceStatus::Blocked && opts_.checkLiveness) {
        if (auto m = livenessViolation(exec, events)) {
            checked_ = events;
            checked_.push_back(*m);
            record(TraceStatus::Error, exec, checked_);
            return TraceStatus::Error;
        }
    }
    record(status, exec, events);
    return status;
}

void Reporter::outcome(const Execution& exec, const std::vector<Event>& events) {
    if (!opts_.collectOutcomes || exec.failed()) return;
    if (program_.info()->deadlockIsError && deadlock(exec)) return;
    if (opts_.checkLiveness && Reporter::classify(exec) == TraceStatus::Blocked &&
        livenessViolation(exec, events))
        return;
    std::vector<Event> scratch;
    if (raceTrace(exec, events, scratch)) return;
    result_.outcomes.insert(exec.outcome());
}

void Reporter::record(TraceStatus status, const Execution& exec, const std::vector<Event>& events) {
    if (status == TraceStatus::Blocked) countBlocked(exec, events);
    switch (status) {
        case TraceStatus::Complete:
            ++result_.complete;
            break;
        case TraceStatus::Blocked:
            ++result_.blocked;
            break;
        case TraceStatus::Error:
            ++result_.errors;
            break;
        case TraceStatus::Partial:
            break;
    }
    if (ExploreControl* c = opts_.control) {
        auto& pr = c->progress;
        (status == TraceStatus::Complete  ? pr.complete
         : status == TraceStatus::Blocked ? pr.blocked
                                          : pr.errors)
            .fetch_add(1, std::memory_order_relaxed);
    }
    if (status == TraceStatus::Error) {
        countErrorSites(events);
        if (!result_.firstError) result_.firstError.emplace(events, status, program_.info());
        if (opts_.stopOnError) stopped_ = true;
    } else if (opts_.collectOutcomes) {
        result_.outcomes.insert(exec.outcome());
    }
    if (needTrace_) {
        Trace t(events, status, program_.info());
        if (status == TraceStatus::Blocked) {
            std::vector<TraceBlock> tb;
            for (const auto& b : blocks_)
                tb.push_back(
                    {b.thread, std::string(kBlockReasonNames[static_cast<int>(b.reason)]), b.pos});
            t.setBlocks(std::move(tb));
        }
        if (opts_.onTrace) opts_.onTrace(t);
        if (opts_.keepTraces) result_.traces.push_back(std::move(t));
    }
    if (opts_.maxTraces && result_.traceCount() >= opts_.maxTraces && !stopped_) budget("traces");
}

// Every distinct error site of an error trace: into errorSites, and counted in errorsBySite
// (the trace once per site), which keeps the first trace of each site.
void Reporter::countErrorSites(const std::vector<Event>& events) {
    for (std::size_t i = 0; i < events.size(); ++i) {
        const Event& e = events[i];
        if (!isErrorKind(e.kind)) continue;
        const ErrorSite s{e.thread, e.kind, e.aux, e.pos};
        bool again = false;  // the same site earlier in this trace
        for (std::size_t j = 0; j < i && !again; ++j)
            again = isErrorKind(events[j].kind) &&
                    ErrorSite{events[j].thread, events[j].kind, events[j].aux, events[j].pos} == s;
        if (again) continue;
        auto it = std::lower_bound(result_.errorSites.begin(), result_.errorSites.end(), s);
        if (it == result_.errorSites.end() || !(*it == s)) result_.errorSites.insert(it, s);
        auto& by = result_.errorsBySite;
        auto jt = std::lower_bound(
            by.begin(), by.end(), s,
            [](const ErrorSiteTraces& a, const ErrorSite& b) { return a.site < b; });
        if (jt == by.end() || !(jt->site == s))
            jt = by.insert(jt, {s, 0, Trace(events, TraceStatus::Error, program_.info())});
        ++jt->traces;
    }
}

bool Reporter::stop() {
    if (stopped_) return true;
    // Explorers that work long between events (consistency checks) call stop() often.
    if (result_.events >= nextCheck_ || (++calls_ & 63) == 0) periodic();
    return stopped_;
}

void Reporter::finish() {
    result_.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    result_.peakMemoryBytes = peakResidentBytes();
    if (ExploreControl* c = opts_.control) {
        c->progress.events.fetch_add(result_.events - published_, std::memory_order_relaxed);
        published_ = result_.events;
    }
    if (result_.budgetExceeded) addIncomplete(result_.incomplete, result_.budgetReason);
    for (std::size_t i = 0; i < kNumBlockReasons; ++i)
        if (blockedBy_[i]) result_.blockedBy[std::string(kBlockReasonNames[i])] += blockedBy_[i];
    for (const auto& [k, n] : sites_) {
        const auto reason = static_cast<BlockReason>(k >> 56);
        const SourcePos pos{static_cast<std::uint32_t>((k >> 32) & 0xffffff),
                            static_cast<std::uint32_t>(k & 0xffffffff)};
        addSite(result_.blockSites,
                {std::string(kBlockReasonNames[static_cast<int>(reason)]), pos, n});
        if (const auto lim = limitOf(reason); !lim.empty()) addIncomplete(result_.incomplete, lim);
    }
    std::fill(std::begin(blockedBy_), std::end(blockedBy_), 0);
    sites_.clear();
}

}  // namespace porlab
