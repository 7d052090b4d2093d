// SPDX-License-Identifier: MIT
// A trace: the sequence of events a program really executed, with the relations of the papers
// (program order, reads-from, coherence, from-read, happens-before, causal order) derived from it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "porlab/core/Conflict.hpp"
#include "porlab/core/Event.hpp"
#include "porlab/core/ProgramInfo.hpp"
#include "porlab/core/VectorClock.hpp"

namespace porlab {

#define PORLAB_TRACE_STATUSES(X) \
    X(Complete, "complete")      \
    X(Blocked, "blocked")        \
    X(Error, "error")            \
    X(Partial, "partial") /* cut short by a budget */

enum class TraceStatus : std::uint8_t {
#define PORLAB_X(e, s) e,
    PORLAB_TRACE_STATUSES(PORLAB_X)
#undef PORLAB_X
};

inline constexpr std::string_view kTraceStatusNames[] = {
#define PORLAB_X(e, s) s,
    PORLAB_TRACE_STATUSES(PORLAB_X)
#undef PORLAB_X
};

[[nodiscard]] constexpr std::string_view name(TraceStatus s) {
    return kTraceStatusNames[static_cast<int>(s)];
}

inline constexpr int kInitWrite = -1;  // reads-from source: the initial value
inline constexpr int kNotARead = -2;

// Why one thread of a blocked trace stopped (a block cause or a wait that never ends).
struct TraceBlock {
    ThreadId thread = 0;
    std::string reason;
    SourcePos pos;
};

class Trace {
  public:
    Trace() = default;
    Trace(std::vector<Event> events, TraceStatus status, std::shared_ptr<const ProgramInfo> info)
        : events_(std::move(events)), status_(status), info_(std::move(info)) {}

    [[nodiscard]] const std::vector<Event>& events() const { return events_; }
    [[nodiscard]] std::size_t size() const { return events_.size(); }
    [[nodiscard]] const Event& operator[](std::size_t i) const { return events_[i]; }
    [[nodiscard]] TraceStatus status() const { return status_; }
    [[nodiscard]] const std::shared_ptr<const ProgramInfo>& info() const { return info_; }
    [[nodiscard]] int numThreads() const;
    [[nodiscard]] int numLocations() const;

    // Position in the trace of event (thread, index), or -1.
    [[nodiscard]] int position(ThreadId t, std::uint32_t index) const;

    // Program order predecessor's position (-1 for a thread's first event).
    [[nodiscard]] std::vector<int> programOrderPrev() const;
    // For every event: the position of the write it reads from, kInitWrite, or kNotARead.
    [[nodiscard]] std::vector<int> readsFrom() const;
    // For every location: positions of the writes to it, in coherence (= trace) order.
    [[nodiscard]] std::vector<std::vector<int>> coherence() const;
    // Pairs (read, write) of from-read: the read reads from a write coherence-before the write.
    [[nodiscard]] std::vector<std::pair<int, int>> fromRead() const;

    // Happens-before as vector clocks (one per event), under a conflict relation; includes
    // program order, spawn -> child and child end -> join.
    [[nodiscard]] std::vector<VectorClock> happensBefore(ConflictRelation conflicts = {}) const;
    // Causal order (po ∪ rf)+ as vector clocks (spawn and join edges included in po).
    [[nodiscard]] std::vector<VectorClock> causalOrder() const;

    // Relations as dense n×n boolean matrices, row-major (m[i*n+j] = i R j).
    [[nodiscard]] std::vector<std::uint8_t> matrix(const std::string& relation,
                                                   ConflictRelation conflicts = {}) const;

    // ---- for people: where each event comes from, what failed ------------------------------
    // The call stack event i runs in, innermost first: frame 0 is the event's function at the
    // event's position, each outer frame the caller at its call; empty when the program has no
    // call stacks (builder programs).
    [[nodiscard]] std::vector<CallContexts::Frame> stack(std::size_t i) const;
    // The function event i runs in ("" when unknown).
    [[nodiscard]] std::string function(std::size_t i) const;
    // "push <- worker": the stack of event i, at most maxFrames functions (then "<- ...").
    [[nodiscard]] std::string stackText(std::size_t i, std::size_t maxFrames = 3) const;
    // Position of the first assertion failure or fault, or -1.
    [[nodiscard]] int errorPosition() const;
    // What the first error is ("assertion `x == 1' failed", "fault: use after free"); "".
    [[nodiscard]] std::string errorMessage() const;
    // The heap blocks and escaped stack variables the events touch or point to.
    [[nodiscard]] std::vector<ObjectInfo> objects() const;
    // The nondeterministic inputs the trace ran under (C programs with --nondet-domain): each
    // __VERIFIER_nondet_* call given a value other than the domain's low end, with its place.
    struct Input {
        ThreadId thread = 0;
        int call = 0;  // the thread's n-th nondet call, from 0
        Value value = 0;
        SourcePos pos;
    };
    [[nodiscard]] std::vector<Input> inputList() const;
    // One line saying what the nondet calls returned ("" when the program makes none).
    [[nodiscard]] std::string inputsNote() const;

    // The events as a table: thread, source, function (call stack), event; then the error, the
    // heap blocks and the inputs. Thread names longer than maxThreadWidth are shortened.
    [[nodiscard]] std::string toString(std::size_t maxThreadWidth = 24) const;
    // Graphviz DOT of the execution graph: one column per thread, events labelled with their
    // source and function, po solid, rf dashed red, co dotted blue, the error event in red.
    [[nodiscard]] std::string toDot(const std::string& title = "") const;

    // The program's input: values of nondeterministic choices the execution depended on (C
    // programs with --nondet-domain: (thread, n-th choice, value) triples, choices at their
    // domain's low end left out). Equivalence keys include it: traces of different inputs are
    // never equivalent, even with the same events.
    [[nodiscard]] const std::vector<Value>& inputs() const { return inputs_; }
    void setInputs(std::vector<Value> inputs) { inputs_ = std::move(inputs); }

    // A blocked trace: why each unfinished thread stopped (set by the explorer's reporter).
    [[nodiscard]] const std::vector<TraceBlock>& blocks() const { return blocks_; }
    void setBlocks(std::vector<TraceBlock> blocks) { blocks_ = std::move(blocks); }

  private:
    [[nodiscard]] std::vector<VectorClock> clocks(bool causal, ConflictRelation conflicts) const;

    std::vector<Event> events_;
    TraceStatus status_ = TraceStatus::Complete;
    std::shared_ptr<const ProgramInfo> info_;
    std::vector<Value> inputs_;
    std::vector<TraceBlock> blocks_;
};

// Human-readable rendering of one event ("write x := 1", "read head -> &nodes[1]").
[[nodiscard]] std::string describe(const Event& e, const ProgramInfo* info);
// What an error event says ("assertion `x == 1' failed", "reach_error() called", "fault: use
// after free"); "" for other events.
[[nodiscard]] std::string errorMessage(const Event& e, const ProgramInfo* info);

}  // namespace porlab
