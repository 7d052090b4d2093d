// SPDX-License-Identifier: MIT
#include <sys/resource.h>

#include <algorithm>
#include <cstdio>

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
    struct rusage ru {};
    getrusage(RUSAGE_SELF, &ru);
    return static_cast<std::uint64_t>(ru.ru_maxrss) * 1024;  // Linux reports KiB
}

Reporter::Reporter(const Program& program, const ExploreOptions& opts, ExploreResult& result)
    : program_(program), opts_(opts), result_(result), start_(std::chrono::steady_clock::now()) {
    needTrace_ = opts.keepTraces || static_cast<bool>(opts.onTrace);
}

TraceStatus Reporter::classify(const Execution& exec) {
    if (exec.failed()) return TraceStatus::Error;
    for (ThreadId t = 0; t < exec.maxThreads(); ++t) {
        auto s = exec.status(t);
        if (s != ThreadStatus::Finished && s != ThreadStatus::NotStarted) return TraceStatus::Blocked;
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
    return m;
}

void Reporter::maximal(TraceStatus status, const Execution& exec, const std::vector<Event>& events) {
    if (opts_.acceptTrace && !opts_.acceptTrace(exec)) return;
    if (status == TraceStatus::Blocked && program_.info()->deadlockIsError) {
        // Decided here, after the explorer's end-of-trace analysis, so that no explorer loses the
        // classes beyond a deadlock: the trace ends with a fault marker on the waiting thread.
        if (auto m = deadlock(exec)) {
            std::vector<Event> withFault = events;
            withFault.push_back(*m);
            maximal(TraceStatus::Error, exec, withFault);
            return;
        }
    }
    switch (status) {
    case TraceStatus::Complete: ++result_.complete; break;
    case TraceStatus::Blocked: ++result_.blocked; break;
    case TraceStatus::Error: ++result_.errors; break;
    case TraceStatus::Partial: break;
    }
    if (status == TraceStatus::Error) {
        for (const Event& e : events) {
            if (!isErrorKind(e.kind)) continue;
            ErrorSite s{e.thread, e.kind, e.aux, e.pos};
            auto it = std::lower_bound(result_.errorSites.begin(), result_.errorSites.end(), s);
            if (it == result_.errorSites.end() || !(*it == s)) result_.errorSites.insert(it, s);
        }
        if (!result_.firstError) result_.firstError.emplace(events, status, program_.info());
        if (opts_.stopOnError) stopped_ = true;
    } else if (opts_.collectOutcomes) {
        result_.outcomes.insert(exec.outcome());
    }
    if (needTrace_) {
        Trace t(events, status, program_.info());
        if (opts_.onTrace) opts_.onTrace(t);
        if (opts_.keepTraces) result_.traces.push_back(std::move(t));
    }
    if (opts_.maxTraces && result_.traceCount() >= opts_.maxTraces && !stopped_) {
        stopped_ = true;
        result_.budgetExceeded = true;
        result_.budgetReason = "traces";
    }
}

bool Reporter::stop() {
    if (stopped_) return true;
    if (opts_.maxEvents && result_.events >= opts_.maxEvents) {
        stopped_ = true;
        result_.budgetExceeded = true;
        result_.budgetReason = "events";
        return true;
    }
    if (opts_.maxSeconds > 0 && (++checks_ & 1023) == 0) {
        const double s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
        if (s >= opts_.maxSeconds) {
            stopped_ = true;
            result_.budgetExceeded = true;
            result_.budgetReason = "seconds";
        }
    }
    return stopped_;
}

void Reporter::finish() {
    result_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    result_.peakMemoryBytes = peakResidentBytes();
}

}  // namespace porlab
