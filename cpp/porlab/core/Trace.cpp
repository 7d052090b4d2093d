// SPDX-License-Identifier: MIT
#include "porlab/core/Trace.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace porlab {

std::string ProgramInfo::threadName(ThreadId t) const {
    if (t >= 0 && t < numThreads() && !threadNames[t].empty()) return threadNames[t];
    return "T" + std::to_string(t);
}

std::string ProgramInfo::locationName(LocId l) const {
    if (l >= 0 && l < numLocations()) return locationNames[l];
    return "@" + std::to_string(l);
}

std::string ProgramInfo::position(SourcePos p) const {
    if (p.file == 0 && p.line == 0) return "";
    std::string f = p.file < files.size() ? files[p.file] : std::string();
    if (f.empty()) f = "?";
    return f + ":" + std::to_string(p.line);
}

std::string toString(const Event& e) { return describe(e, nullptr); }

std::string describe(const Event& e, const ProgramInfo* info) {
    auto loc = [&] { return info ? info->locationName(e.loc) : "@" + std::to_string(e.loc); };
    auto thr = [&](ThreadId t) { return info ? info->threadName(t) : "T" + std::to_string(t); };
    std::ostringstream o;
    switch (e.kind) {
    case EventKind::Read: o << "read " << loc() << " -> " << e.rval; break;
    case EventKind::Write: o << "write " << loc() << " := " << e.wval; break;
    case EventKind::FetchAdd:
        o << "fetch-" << name(e.rmwOp) << " " << loc() << " " << e.operand << " (" << e.rval
          << " -> " << e.wval << ")";
        break;
    case EventKind::Exchange: o << "xchg " << loc() << " := " << e.wval << " (was " << e.rval << ")"; break;
    case EventKind::CasSuccess:
        o << "cas " << loc() << " " << e.operand << " -> " << e.wval << " (succeeded)";
        break;
    case EventKind::CasFailure:
        o << "cas " << loc() << " " << e.operand << " (failed, saw " << e.rval << ")";
        break;
    case EventKind::Lock: o << "lock " << loc(); break;
    case EventKind::Unlock: o << "unlock " << loc(); break;
    case EventKind::Spawn: o << "spawn " << thr(e.aux); break;
    case EventKind::Join: o << "join " << thr(e.aux); break;
    case EventKind::Await:
        o << "await " << loc() << " " << name(e.cond) << " " << e.operand << " -> " << e.rval;
        break;
    case EventKind::XchgAwait:
        o << "xchg-await " << loc() << " " << name(e.cond) << " " << e.operand << " := " << e.wval
          << " (was " << e.rval << ")";
        break;
    case EventKind::AssumeBlock:
        o << "blocked (" << (e.aux >= 0 ? kBlockCauseNames[e.aux] : "?") << ")";
        break;
    case EventKind::AssertFail: o << "assertion failure"; break;
    case EventKind::Fault:
        o << "fault: " << (e.aux >= 0 ? kFaultNames[e.aux] : "?");
        if (e.aux == static_cast<std::int32_t>(FaultKind::DataRace))  // (Reporter's marker)
            o << " on " << loc() << " with " << thr(static_cast<ThreadId>(e.rval))
              << "'s access, event #" << e.operand << " of the trace";
        break;
    case EventKind::ThreadEnd: o << "end"; break;
    }
    return o.str();
}

int Trace::numThreads() const {
    int n = info_ ? info_->numThreads() : 0;
    for (const auto& e : events_) {
        n = std::max(n, e.thread + 1);
        if (e.kind == EventKind::Spawn || e.kind == EventKind::Join) n = std::max(n, e.aux + 1);
    }
    return n;
}

int Trace::numLocations() const {
    int n = info_ ? info_->numLocations() : 0;
    for (const auto& e : events_) n = std::max(n, e.loc + 1);
    return n;
}

int Trace::position(ThreadId t, std::uint32_t index) const {
    for (std::size_t i = 0; i < events_.size(); ++i)
        if (events_[i].thread == t && events_[i].index == index) return static_cast<int>(i);
    return -1;
}

std::vector<int> Trace::programOrderPrev() const {
    std::vector<int> last(static_cast<std::size_t>(numThreads()), -1);
    std::vector<int> prev(events_.size(), -1);
    for (std::size_t i = 0; i < events_.size(); ++i) {
        prev[i] = last[events_[i].thread];
        last[events_[i].thread] = static_cast<int>(i);
    }
    return prev;
}

std::vector<int> Trace::readsFrom() const {
    std::vector<int> lastWrite(static_cast<std::size_t>(numLocations()), kInitWrite);
    std::vector<int> rf(events_.size(), kNotARead);
    for (std::size_t i = 0; i < events_.size(); ++i) {
        const Event& e = events_[i];
        if (readsMemory(e.kind)) rf[i] = lastWrite[e.loc];
        if (writesMemory(e.kind)) lastWrite[e.loc] = static_cast<int>(i);
    }
    return rf;
}

std::vector<std::vector<int>> Trace::coherence() const {
    std::vector<std::vector<int>> co(static_cast<std::size_t>(numLocations()));
    for (std::size_t i = 0; i < events_.size(); ++i)
        if (writesMemory(events_[i].kind)) co[events_[i].loc].push_back(static_cast<int>(i));
    return co;
}

std::vector<std::pair<int, int>> Trace::fromRead() const {
    auto rf = readsFrom();
    auto co = coherence();
    std::vector<std::pair<int, int>> fr;
    for (std::size_t r = 0; r < events_.size(); ++r) {
        if (rf[r] == kNotARead) continue;
        const auto& writes = co[events_[r].loc];
        // Every write coherence-after the source (all writes when reading the initial value),
        // except the read's own write when it is a read-modify-write.
        auto it = rf[r] == kInitWrite ? writes.begin()
                                      : std::find(writes.begin(), writes.end(), rf[r]) + 1;
        for (; it != writes.end(); ++it)
            if (*it != static_cast<int>(r)) fr.emplace_back(static_cast<int>(r), *it);
    }
    return fr;
}

std::vector<VectorClock> Trace::clocks(bool causal, ConflictRelation conflicts) const {
    const auto n = events_.size();
    const auto threads = static_cast<std::size_t>(numThreads());
    std::vector<VectorClock> vc(n, VectorClock(threads));
    std::vector<int> last(threads, -1);
    std::vector<int> spawnedBy(threads, -1);
    std::vector<int> rf = causal ? readsFrom() : std::vector<int>{};
    for (std::size_t j = 0; j < n; ++j) {
        const Event& e = events_[j];
        VectorClock& c = vc[j];
        if (last[e.thread] >= 0) c = vc[last[e.thread]];
        else if (spawnedBy[e.thread] >= 0) c = vc[spawnedBy[e.thread]];
        c.set(e.thread, e.index + 1);
        if (e.kind == EventKind::Join && e.aux >= 0 && last[e.aux] >= 0) c.join(vc[last[e.aux]]);
        if (causal) {
            if (rf[j] >= 0) c.join(vc[rf[j]]);
        } else {
            for (std::size_t k = 0; k < j; ++k)
                if (events_[k].thread != e.thread && conflicts.conflicts(events_[k], e)) c.join(vc[k]);
        }
        if (e.kind == EventKind::Spawn && e.aux >= 0) spawnedBy[e.aux] = static_cast<int>(j);
        last[e.thread] = static_cast<int>(j);
    }
    return vc;
}

std::vector<VectorClock> Trace::happensBefore(ConflictRelation conflicts) const {
    return clocks(false, conflicts);
}

std::vector<VectorClock> Trace::causalOrder() const { return clocks(true, {}); }

std::vector<std::uint8_t> Trace::matrix(const std::string& relation,
                                        ConflictRelation conflicts) const {
    const auto n = events_.size();
    std::vector<std::uint8_t> m(n * n, 0);
    auto set = [&](int i, int j) { m[static_cast<std::size_t>(i) * n + j] = 1; };
    auto fromClocks = [&](const std::vector<VectorClock>& vc) {
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < n; ++j)
                if (i != j && vc[j].covers(events_[i].thread, events_[i].index)) set(i, j);
    };
    if (relation == "po") {
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = i + 1; j < n; ++j)
                if (events_[i].thread == events_[j].thread) set(i, j);
    } else if (relation == "rf") {
        auto rf = readsFrom();
        for (std::size_t j = 0; j < n; ++j)
            if (rf[j] >= 0) set(rf[j], j);
    } else if (relation == "co") {
        for (const auto& ws : coherence())
            for (std::size_t a = 0; a < ws.size(); ++a)
                for (std::size_t b = a + 1; b < ws.size(); ++b) set(ws[a], ws[b]);
    } else if (relation == "fr") {
        for (auto [r, w] : fromRead()) set(r, w);
    } else if (relation == "hb") {
        fromClocks(happensBefore(conflicts));
    } else if (relation == "causal") {
        fromClocks(causalOrder());
    } else {
        throw std::invalid_argument("unknown relation '" + relation +
                                    "' (expected po, rf, co, fr, hb or causal)");
    }
    return m;
}

std::string Trace::toString() const {
    std::ostringstream o;
    const ProgramInfo* info = info_.get();
    for (const auto& e : events_) {
        std::string t = info ? info->threadName(e.thread) : "T" + std::to_string(e.thread);
        std::string pos = info ? info->position(e.pos) : "";
        o << t;
        for (std::size_t i = t.size(); i < 8; ++i) o << ' ';
        o << "  " << pos;
        for (std::size_t i = pos.size(); i < 24; ++i) o << ' ';
        o << "  " << describe(e, info) << "\n";
    }
    return o.str();
}

namespace {
std::string dotEscape(const std::string& s) {
    std::string r;
    for (char ch : s) {
        if (ch == '"' || ch == '\\') r += '\\';
        r += ch;
    }
    return r;
}
}  // namespace

std::string Trace::toDot(const std::string& title) const {
    // Execution graph: one column per thread, po solid, rf dashed red, co dotted blue.
    const ProgramInfo* info = info_.get();
    std::ostringstream o;
    o << "digraph trace {\n  rankdir=TB;\n  node [shape=box, fontname=\"monospace\"];\n";
    if (!title.empty()) o << "  label=\"" << dotEscape(title) << "\";\n  labelloc=t;\n";
    const int threads = numThreads();
    for (int t = 0; t < threads; ++t) {
        o << "  subgraph cluster_" << t << " {\n    label=\""
          << dotEscape(info ? info->threadName(t) : "T" + std::to_string(t)) << "\";\n";
        for (std::size_t i = 0; i < events_.size(); ++i)
            if (events_[i].thread == t)
                o << "    e" << i << " [label=\"" << dotEscape(describe(events_[i], info))
                  << "\"];\n";
        o << "  }\n";
    }
    auto po = programOrderPrev();
    for (std::size_t i = 0; i < events_.size(); ++i)
        if (po[i] >= 0) o << "  e" << po[i] << " -> e" << i << ";\n";
    auto rf = readsFrom();
    bool needInit = false;
    for (std::size_t i = 0; i < events_.size(); ++i) {
        if (rf[i] >= 0)
            o << "  e" << rf[i] << " -> e" << i
              << " [style=dashed, color=red, label=rf, constraint=false];\n";
        if (rf[i] == kInitWrite) needInit = true;
    }
    if (needInit) {
        o << "  init [label=\"init\", shape=ellipse];\n";
        for (std::size_t i = 0; i < events_.size(); ++i)
            if (rf[i] == kInitWrite)
                o << "  init -> e" << i << " [style=dashed, color=red, label=rf];\n";
    }
    for (const auto& ws : coherence())
        for (std::size_t a = 0; a + 1 < ws.size(); ++a)
            if (events_[ws[a]].thread != events_[ws[a + 1]].thread)
                o << "  e" << ws[a] << " -> e" << ws[a + 1]
                  << " [style=dotted, color=blue, label=co, constraint=false];\n";
    o << "}\n";
    return o.str();
}

}  // namespace porlab
