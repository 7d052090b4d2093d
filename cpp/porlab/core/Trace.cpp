// SPDX-License-Identifier: MIT
#include "porlab/core/Trace.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace porlab {

std::string toString(const Event& e) { return describe(e, nullptr); }

std::string errorMessage(const Event& e, const ProgramInfo* info) {
    switch (e.kind) {
        case EventKind::AssertFail:
            if (info && e.aux >= 0 && static_cast<std::size_t>(e.aux) < info->messages.size())
                return info->messages[static_cast<std::size_t>(e.aux)];
            return "assertion failure";
        case EventKind::Fault: {
            std::string m = "fault: " + std::string(e.aux >= 0 && static_cast<std::size_t>(e.aux) <
                                                                      std::size(kFaultNames)
                                                        ? kFaultNames[e.aux]
                                                        : "?");
            if (e.aux ==
                static_cast<std::int32_t>(FaultKind::DataRace)) {  // (the Reporter's marker)
                const auto other = static_cast<ThreadId>(e.rval);
                m += " on " + (info ? info->locationName(e.loc) : "@" + std::to_string(e.loc)) +
                     " with " + (info ? info->threadName(other) : "T" + std::to_string(other)) +
                     "'s access, event #" + std::to_string(e.operand) + " of the trace";
            }
            return m;
        }
        default:
            return "";
    }
}

std::string describe(const Event& e, const ProgramInfo* info) {
    auto loc = [&] { return info ? info->locationName(e.loc) : "@" + std::to_string(e.loc); };
    auto thr = [&](ThreadId t) { return info ? info->threadName(t) : "T" + std::to_string(t); };
    // Values as the program names them: pointers symbolically, what a free leaves as such.
    auto val = [&](Value v) { return info ? info->value(v, e.pointer) : std::to_string(v); };
    std::ostringstream o;
    switch (e.kind) {
        case EventKind::Read:
            o << "read " << loc() << " -> " << val(e.rval);
            break;
        case EventKind::Write:
        case EventKind::Exchange:
            if (e.aux == kFreeAux) {
                o << "free " << loc();
            } else if (e.aux == kFrameEndAux) {
                o << "end of scope " << loc();
            } else if (e.aux == kDestroyAux) {
                o << "destroy " << loc();
            } else if (e.aux == kReinitAux) {
                o << "init " << loc() << " (after its destroy)";
            } else if (e.aux == kThreadHandleAux) {
                o << "write " << loc() << " := " << thr(static_cast<ThreadId>(e.wval));
            } else if (e.kind == EventKind::Write) {
                o << "write " << loc() << " := " << val(e.wval);
            } else {
                o << "xchg " << loc() << " := " << val(e.wval) << " (was " << val(e.rval) << ")";
            }
            break;
        case EventKind::FetchAdd:
            o << "fetch-" << name(e.rmwOp) << " " << loc() << " " << e.operand << " ("
              << val(e.rval) << " -> " << val(e.wval) << ")";
            break;
        case EventKind::CasSuccess:
            o << "cas " << loc() << " " << val(e.operand) << " -> " << val(e.wval)
              << " (succeeded)";
            break;
        case EventKind::CasFailure:
            o << "cas " << loc() << " " << val(e.operand) << " (failed, saw " << val(e.rval) << ")";
            break;
        case EventKind::Lock:
            o << "lock " << loc();
            break;
        case EventKind::Unlock:
            o << "unlock " << loc();
            break;
        case EventKind::Spawn:
            o << "spawn " << thr(e.aux);
            break;
        case EventKind::Join:
            o << "join " << thr(e.aux);
            break;
        case EventKind::Await:
            o << "await " << loc() << " " << name(e.cond) << " " << val(e.operand) << " -> "
              << val(e.rval);
            break;
        case EventKind::XchgAwait:
            o << "xchg-await " << loc() << " " << name(e.cond) << " " << val(e.operand)
              << " := " << val(e.wval) << " (was " << val(e.rval) << ")";
            break;
        case EventKind::AssumeBlock:
            o << "blocked (" << (e.aux >= 0 ? kBlockCauseNames[e.aux] : "?") << ")";
            break;
        case EventKind::AssertFail:
        case EventKind::Fault:
            o << errorMessage(e, info);
            break;
        case EventKind::ThreadEnd:
            o << "end";
            break;
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
        if (last[e.thread] >= 0)
            c = vc[last[e.thread]];
        else if (spawnedBy[e.thread] >= 0)
            c = vc[spawnedBy[e.thread]];
        c.set(e.thread, e.index + 1);
        if (e.kind == EventKind::Join && e.aux >= 0 && last[e.aux] >= 0) c.join(vc[last[e.aux]]);
        if (causal) {
            if (rf[j] >= 0) c.join(vc[rf[j]]);
        } else {
            for (std::size_t k = 0; k < j; ++k)
                if (events_[k].thread != e.thread && conflicts.conflicts(events_[k], e))
                    c.join(vc[k]);
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

// (Trace::matrix is in Relations.cpp, with the Eigen matrices it copies.)

// ---- for people ------------------------------------------------------------------------------

std::vector<CallContexts::Frame> Trace::stack(std::size_t i) const {
    if (!info_ || !info_->contexts || i >= events_.size()) return {};
    auto frames = info_->contexts->frames(events_[i].ctx);
    if (!frames.empty()) frames[0].pos = events_[i].pos;
    return frames;
}

std::string Trace::function(std::size_t i) const {
    if (!info_ || !info_->contexts || i >= events_.size()) return "";
    return info_->contexts->function(events_[i].ctx);
}

std::string Trace::stackText(std::size_t i, std::size_t maxFrames) const {
    const auto frames = stack(i);
    std::string s;
    for (std::size_t k = 0; k < frames.size(); ++k) {
        if (k) s += " <- ";
        if (k == maxFrames) {
            s += "...";
            break;
        }
        s += frames[k].function;
    }
    return s;
}

int Trace::errorPosition() const {
    for (std::size_t i = 0; i < events_.size(); ++i)
        if (isErrorKind(events_[i].kind)) return static_cast<int>(i);
    return -1;
}

std::string Trace::errorMessage() const {
    const int i = errorPosition();
    return i < 0 ? "" : porlab::errorMessage(events_[static_cast<std::size_t>(i)], info_.get());
}

std::vector<ObjectInfo> Trace::objects() const {
    if (!info_ || !info_->values) return {};
    return info_->values->objects(events_);
}

std::vector<Trace::Input> Trace::inputList() const {
    std::vector<Input> out;
    for (std::size_t k = 0; k + 2 < inputs_.size(); k += 3) {
        Input in;
        in.thread = static_cast<ThreadId>(inputs_[k]);
        in.call = static_cast<int>(inputs_[k + 1]);
        in.value = inputs_[k + 2];
        if (info_ && info_->values) in.pos = info_->values->choiceSite(in.thread, in.call);
        out.push_back(in);
    }
    return out;
}

std::string Trace::inputsNote() const {
    if (!info_ || !info_->hasNondet) return "";
    const auto& domain = info_->nondetDomain;
    if (!domain)
        return "every __VERIFIER_nondet_* call returned 0 (--nondet-domain LO:HI explores their "
               "values)";
    const Value lo = domain->first;
    const auto inputs = inputList();
    if (inputs.empty())
        return "inputs: every __VERIFIER_nondet_* call returned " + std::to_string(lo) +
               " (the domain's low end)";
    std::string s = "inputs:";
    for (std::size_t k = 0; k < inputs.size(); ++k) {
        const auto& in = inputs[k];
        s += (k ? ", " : " ") + std::string("nondet call ") + std::to_string(in.call + 1) + " of " +
             info_->threadName(in.thread);
        if (const std::string at = info_->position(in.pos); !at.empty()) s += " (" + at + ")";
        s += " returned " + std::to_string(in.value);
    }
    return s + "; every other one returned " + std::to_string(lo);
}

namespace {

std::string shorten(const std::string& s, std::size_t width) {
    if (s.size() <= width || width < 4) return s;
    return s.substr(0, width - 3) + "...";
}

void cell(std::ostringstream& o, const std::string& s, std::size_t width) {
    o << s;
    for (std::size_t k = s.size(); k < width; ++k) o << ' ';
}

std::string objectText(const ObjectInfo& ob, const ProgramInfo& info) {
    std::string s = ob.name + ": " + std::to_string(ob.size) + " bytes, ";
    s += ob.kind == "stack"          ? "a stack variable whose address escaped"
         : ob.kind == "thread-local" ? "the thread's copy of a thread-local whose address escaped"
                                     : "from " + ob.kind;
    if (const std::string at = info.position(ob.pos); !at.empty()) s += " at " + at;
    return s + " (" + info.threadName(ob.thread) + ")";
}

}  // namespace

std::string Trace::toString(std::size_t maxThreadWidth) const {
    const ProgramInfo* info = info_.get();
    struct Row {
        std::string thread, source, function, event;
    };
    std::vector<Row> rows;
    rows.push_back({"thread", "source", "function", "event"});
    bool functions = false;
    for (std::size_t i = 0; i < events_.size(); ++i) {
        const Event& e = events_[i];
        Row r{shorten(info ? info->threadName(e.thread) : "T" + std::to_string(e.thread),
                      maxThreadWidth),
              info ? info->position(e.pos) : "", stackText(i), describe(e, info)};
        functions = functions || !r.function.empty();
        rows.push_back(std::move(r));
    }
    std::size_t tw = 0, sw = 0, fw = 0;
    for (const auto& r : rows) {
        tw = std::max(tw, r.thread.size());
        sw = std::max(sw, r.source.size());
        fw = std::max(fw, r.function.size());
    }
    std::ostringstream o;
    for (const auto& r : rows) {
        cell(o, r.thread, tw + 2);
        cell(o, r.source, sw + 2);
        if (functions) cell(o, r.function, fw + 2);
        o << r.event << "\n";
    }
    if (info)
        for (const auto& ob : objects()) o << "object " << objectText(ob, *info) << "\n";
    if (const std::string note = inputsNote(); !note.empty()) o << note << "\n";
    return o.str();
}

namespace {
std::string dotEscape(const std::string& s) {
    std::string r;
    for (char ch : s) {
        if (ch == '"' || ch == '\\') r += '\\';
        if (ch == '\n') {
            r += "\\n";
            continue;
        }
        r += ch;
    }
    return r;
}
}  // namespace

std::string Trace::toDot(const std::string& title) const {
    // Execution graph: one column per thread, po solid, rf dashed red, co dotted blue; each event
    // labelled with where it comes from (source, function) and what it did.
    const ProgramInfo* info = info_.get();
    const int error = errorPosition();
    const std::string heading = title.empty() && error >= 0 ? errorMessage() : title;
    std::ostringstream o;
    o << "digraph trace {\n  rankdir=TB;\n  node [shape=box, fontname=\"monospace\"];\n";
    if (!heading.empty()) o << "  label=\"" << dotEscape(heading) << "\";\n  labelloc=t;\n";
    const int threads = numThreads();
    for (int t = 0; t < threads; ++t) {
        bool any = false;
        for (const auto& e : events_) any = any || e.thread == t;
        if (!any) continue;
        o << "  subgraph cluster_" << t << " {\n    label=\""
          << dotEscape(info ? info->threadName(t) : "T" + std::to_string(t)) << "\";\n";
        for (std::size_t i = 0; i < events_.size(); ++i) {
            if (events_[i].thread != t) continue;
            std::string where = info ? info->position(events_[i].pos) : "";
            if (const std::string f = stackText(i, 2); !f.empty())
                where += (where.empty() ? "" : "  ") + f;
            o << "    e" << i << " [label=\"";
            if (!where.empty()) o << dotEscape(where) << "\\n";
            o << dotEscape(describe(events_[i], info)) << "\"";
            if (static_cast<int>(i) == error)
                o << ", style=\"filled,bold\", fillcolor=\"#ffd6d6\", color=red";
            else if (events_[i].kind == EventKind::AssumeBlock)
                o << ", style=dashed";
            o << "];\n";
        }
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
