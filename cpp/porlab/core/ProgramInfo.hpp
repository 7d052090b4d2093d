// SPDX-License-Identifier: MIT
// Names and initial values of a program's threads and locations: what a trace needs to be read by
// a person, and nothing an explorer needs to run.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "porlab/core/Event.hpp"

namespace porlab {

// Call stacks, interned: a context is the function running, the position of the call that
// entered it and the caller's context. A program interns them as its threads run (a C program
// once per stack frame that performs an event) and names one in Event::ctx, so that an event
// carries its whole call stack in four bytes. Append-only and thread-safe (one program serves
// executions on several threads while traces are being printed); ids never change. Context 0
// is "unknown" (builder programs).
class CallContexts {
  public:
    explicit CallContexts(std::vector<std::string> functions);

    // The context of `function` (an index into the function names) entered by a call at
    // `callSite` from context `parent`; parent 0 for the first function of a thread.
    [[nodiscard]] std::uint32_t intern(std::uint32_t parent, std::uint32_t function,
                                       SourcePos callSite);

    struct Frame {
        std::string function;
        SourcePos pos;  // where this frame is: the call into the next inner frame ({} innermost)
    };
    // The frames of context c, innermost first, at most maxDepth of them (a deeper stack ends
    // with a frame named "..."); empty for context 0.
    [[nodiscard]] std::vector<Frame> frames(std::uint32_t c, std::size_t maxDepth = 64) const;
    // The function of context c ("" for 0).
    [[nodiscard]] std::string function(std::uint32_t c) const;
    [[nodiscard]] std::size_t size() const;

  private:
    struct Node {
        std::uint32_t parent = 0;
        std::uint32_t function = 0;
        SourcePos callSite;
    };
    struct KeyHash {
        std::size_t operator()(const std::pair<std::uint64_t, std::uint64_t>& k) const noexcept {
            return static_cast<std::size_t>(k.first * 0x9e3779b97f4a7c15ULL ^ k.second);
        }
    };

    std::vector<std::string> functions_;
    mutable std::mutex mu_;
    std::vector<Node> nodes_;
    std::unordered_map<std::pair<std::uint64_t, std::uint64_t>, std::uint32_t, KeyHash> index_;
};

// An object of a C program (a heap block, an escaped stack variable) as a trace shows it.
struct ObjectInfo {
    std::string name;  // "malloc@t1#0", "x@main#2"
    // "malloc", "calloc", "stack" (a stack variable whose address escaped) or "thread-local" (a
    // thread's copy of a thread-local whose address escaped)
    std::string kind;
    std::uint64_t size = 0;
    SourcePos pos;        // where it was allocated (the malloc call, the declaration)
    ThreadId thread = 0;  // the allocating thread
};

// How a program names its values, beyond numbers: C programs show pointers as the program's
// own names (&x, &nodes[1].next, malloc@t1#0+8, NULL) and know their heap blocks.
class ValueNames {
  public:
    virtual ~ValueNames() = default;
    // Pointer v by the program's names; "" to show the number.
    [[nodiscard]] virtual std::string pointer(Value v) const = 0;
    // A value that means something of its own wherever it is read (what a free leaves in
    // memory); "" for none.
    [[nodiscard]] virtual std::string special(Value v) const = 0;
    // The objects the events touch or point to (heap blocks, escaped stack variables), each once.
    [[nodiscard]] virtual std::vector<ObjectInfo> objects(
        const std::vector<Event>& events) const = 0;
    // Where thread t called __VERIFIER_nondet_* for the n-th time ({} if unknown).
    [[nodiscard]] virtual SourcePos choiceSite(ThreadId t, int n) const = 0;
};

struct ProgramInfo {
    std::string name;
    std::vector<std::string> threadNames;    // by ThreadId
    std::vector<std::string> locationNames;  // by LocId ("x", "a[2]", "m")
    std::vector<bool> isMutex;               // by LocId
    std::vector<Value> initialValues;        // by LocId
    std::vector<std::string> files;          // by SourcePos::file; files[0] = "" (unknown)
    // A maximal trace in which every unfinished thread waits on a lock or a join (a lock/join
    // cycle) is an error trace with a Fault(Deadlock) site (the Reporter decides, for every
    // explorer alike); otherwise it is blocked. C programs set it; builder programs do not.
    bool deadlockIsError = false;
    // The program may perform non-atomic accesses to shared memory (C programs with plain loads
    // and stores of memory other threads can reach): only then does the Reporter look for data
    // races, so that programs without them pay nothing.
    bool plainAccesses = false;
    // Where the program first destroys a mutex (line 0: it does not). The destroyed-mutex checks
    // need explorers that order a destroy with every lock and unlock of its mutex as executed:
    // lapor (whose locks never block) and rf refuse such programs rather than answer wrongly.
    SourcePos mutexDestroy;
    // Every critical section ends: no thread can block, stop or end while it holds a mutex (a
    // static, conservative analysis of the program's code; false when unsure). In a maximal
    // execution every mutex is then free, so no lock stays blocked for good: lapor does not try
    // it (MutexLocks.hpp).
    bool sectionsEnd = false;

    // ---- display only (explorers never look at these) -----------------------------------
    // The text of failed assertions, by the aux of AssertFail events ("data == 42" for
    // assert(data == 42); "reach_error() called").
    std::vector<std::string> messages;
    std::shared_ptr<CallContexts> contexts;    // Event::ctx (null: no call stacks)
    std::shared_ptr<const ValueNames> values;  // null: values are numbers
    // The program's nondeterministic inputs: it calls __VERIFIER_nondet_*; with a domain, the
    // explorer ran once per assignment of values in [lo, hi] (Trace::inputs), else they are 0.
    bool hasNondet = false;
    std::optional<std::pair<Value, Value>> nondetDomain;

    [[nodiscard]] int numThreads() const { return static_cast<int>(threadNames.size()); }
    [[nodiscard]] int numLocations() const { return static_cast<int>(locationNames.size()); }
    [[nodiscard]] std::string threadName(ThreadId t) const;
    [[nodiscard]] std::string locationName(LocId l) const;
    [[nodiscard]] std::string position(SourcePos p) const;  // "file:line" or ""
    // A value read or written by an event, as the program names it (a pointer, a freed
    // location's contents) or as a number.
    [[nodiscard]] std::string value(Value v, bool pointer) const;
};

}  // namespace porlab
