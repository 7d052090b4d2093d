// SPDX-License-Identifier: MIT
// VerifySC (RVF-SMC, Agarwal et al. CAV'21, §4 and Appendix 0.A): does a proper event set X have
// a linearisation that respects program order (with spawn and join edges) in which every read
// reads from one of its good writes? The witness-state search of Algorithm 1 over (event set,
// memory map), with the two greedy extensions and the closure pre-filter of §4.2, guided by an
// auxiliary trace.
//
// Events are whole porlab steps: a read-modify-write (fetch-and-add, exchange, successful CAS,
// lock, exchange-await) is one atomic event with a read part and a write part, which is the
// paper's "rmw_r immediately followed by rmw_w" (Appendix 0.A) by construction.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_set>
#include <vector>

#include "porlab/core/Event.hpp"

namespace porlab::rvf {

// A write: thread and position among the thread's steps; t == kInitThread is the initial value.
struct WriteRef {
    std::int32_t t = -1;
    std::int32_t i = 0;
    friend bool operator==(const WriteRef&, const WriteRef&) = default;
};
inline constexpr std::int32_t kInitThread = -1;
inline constexpr WriteRef kInitWrite{kInitThread, 0};

// One step of one thread: its operation and what step() emitted with it.
struct Step {
    Event ev;                    // the operation, with the values it read and wrote
    std::vector<Event> out;      // everything step() emitted: ev, then markers
    bool reads = false;          // has a read part (then `good` is its good-writes set)
    bool writes = false;         // has a write part others may read (not when the step fails)
    bool blocking = false;       // await, exchange-await or lock: may never be enabled
    bool fails = false;          // an assertion failure or fault comes with this step
    std::vector<WriteRef> good;  // reads: GoodW
};

// Where a thread starts: after step `i` of thread `t`, or by itself (t == kInitThread).
using SpawnPoint = WriteRef;

// A VSC instance: X is the first len[t] steps of every thread; GoodW lives in the steps.
// `finals` add reads of the final memory: (location, good writes), read after every event.
struct Instance {
    const std::vector<std::vector<Step>>* steps = nullptr;
    std::vector<std::int32_t> len;
    const std::vector<SpawnPoint>* spawnOf = nullptr;
    std::size_t numLocs = 0;
    std::vector<std::pair<LocId, std::vector<WriteRef>>> finals;
    // Guidance (§4.2 item 3): the auxiliary trace as a sequence of threads; events earlier in it
    // are tried first. Empty: thread order.
    const std::vector<ThreadId>* aux = nullptr;
};

struct VscOptions {
    bool closure = true;
    bool greedy = true;
    bool guidance = true;
    // Before the search, try one linearisation of the closure's order that follows the search's
    // first choices without recording witness states (the exact search only when it fails).
    bool saturate = true;
    // Asked every few dozen steps of the closure and the search: true ends the call with no
    // witness (the caller is stopping: a budget ran out).
    std::function<bool()> interrupt;
};

struct VscStats {
    std::uint64_t calls = 0;
    std::uint64_t states = 0;          // witness states explored
    std::uint64_t closureRejects = 0;  // instances the closure proved unrealisable
    std::uint64_t linearised = 0;      // instances decided by one linearisation, no search
    double seconds = 0;
};

// The working memory of verifySC, kept from one call to the next by an explorer that calls it
// at every node: its buffers are sized by the instance, which grows along an exploration path,
// and allocating them anew at every node (between the node's own allocations) fragmented the
// heap until it grew with the square of the path's length.
class Workspace {
  public:
    Workspace();
    ~Workspace();
    Workspace(const Workspace&) = delete;
    Workspace& operator=(const Workspace&) = delete;
    // The witness of the last successful call (the threads of its events in order); valid
    // until the next call.
    [[nodiscard]] std::span<const ThreadId> witness() const;

  private:
    friend bool verifySC(const Instance&, const VscOptions&, VscStats&, Workspace&);
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// Is there a witness? (Then ws.witness() is one.)
[[nodiscard]] bool verifySC(const Instance& inst, const VscOptions& opts, VscStats& stats,
                            Workspace& ws);
// A witness (the threads of its events in order) or nothing.
[[nodiscard]] std::optional<std::vector<ThreadId>> verifySC(const Instance& inst,
                                                            const VscOptions& opts,
                                                            VscStats& stats);

}  // namespace porlab::rvf
