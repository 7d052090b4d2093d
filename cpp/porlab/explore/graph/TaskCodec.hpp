// SPDX-License-Identifier: MIT
// A task of the parallel graph engine (Parallel.hpp: a graph and its witness) as compact bytes,
// so that another process (a Dask worker) can explore the same subtree.
//
// What travels is the structure of the graph, not the numbers the encoding process gave to
// threads, locations and heap objects: C programs hand those out in the order a process first
// meets them (CodeProgram), so two processes number them differently, and pointer values differ
// with them. A task is therefore: per thread, its nodes (kind, flags, stamps, reads-from source,
// position), the coherence order of each location as a list of nodes, the zne bookkeeping, and
// the witness order. The decoder replays the witness on its own execution (reads forced to the
// value their source wrote *in that replay*) and takes every event, location and thread number
// from it; a spawn maps the encoder's child thread to the decoder's. The replayed kinds must be
// those of the encoded nodes: a task of another program (or explorer) is refused.
//
// Format (version 1): "PLTK", version, then varints (zigzag for signed): program id (a hash the
// caller computes: source + flags for C programs), explorer name, root flag, thread count,
// nextStamp; per thread: node count, per node (kind, flags, stamp, wstamp - stamp, rf thread + 1,
// rf index, casWval, trylock rval); per location written: its co list; zneDone; the order.
#pragma once

#include <cstdint>
#include <mutex>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "porlab/explore/graph/ExecutionGraph.hpp"
#include "porlab/program/Program.hpp"

namespace porlab::graph {

inline constexpr std::uint32_t kTaskFormatVersion = 1;

// Hand-outs of a running task of a distributed run, on demand (python/porlab/distributed.py;
// exploreTask in Parallel.cpp). The task's caller says from another thread how many subtrees
// the cluster wants (`want`); the running task then splits off its shallowest pending subtrees,
// goes on with the rest, and the caller drains the hand-outs while the task runs, so that other
// workers explore them at once. Every hand-out is also in the task's output (index `seq`): the
// result of the task stays the complete record, whatever the caller did with what it drained.
class TaskChannel {
  public:
    // Subtrees wanted (0: none), taken by the next hand-out. sticky (tests): every subtree the
    // task starts is split at once and n handed out, whatever the timing.
    void want(std::int64_t n, bool sticky = false);
    // The hand-outs since the last drain: (seq = index in the task's output, the task thread's
    // CPU seconds at the hand-out, the task).
    [[nodiscard]] std::vector<std::tuple<std::size_t, double, std::string>> drain();

    // (The task's side.)
    [[nodiscard]] std::int64_t wanted();
    [[nodiscard]] bool sticky();
    std::int64_t takeWanted();
    void handOut(std::size_t seq, double cpu, const std::string& task);

  private:
    std::mutex mu_;
    std::int64_t wanted_ = 0;
    bool sticky_ = false;
    std::vector<std::tuple<std::size_t, double, std::string>> out_;
};

struct TaskHeader {
    std::uint64_t programId = 0;
    std::string explorer;
    bool root = false;  // the whole exploration (explore() from the initial state)
};

[[nodiscard]] std::string encodeTask(const TaskHeader& h, const ExecutionGraph& g,
                                     std::span<const Ref> order);
// The root task: the whole exploration.
[[nodiscard]] std::string encodeRootTask(std::uint64_t programId, const std::string& explorer);

// Reads the header only (InputError on bytes that are not a task of this format).
[[nodiscard]] TaskHeader taskHeader(const std::string& bytes);

// Decodes a task for program p (InputError: not a task, another version, another program id or
// explorer, or a replay that does not match the encoded graph). `relaxedLocks`: LAPOR's replay
// (locks never block). The graph is in p's numbering (its initial values from p).
void decodeTask(const Program& p, const std::string& bytes, std::uint64_t programId,
                const std::string& explorer, bool relaxedLocks, ExecutionGraph& g,
                std::vector<Ref>& order);

// A hash of the prefix `upto` (first upto[t] nodes of every thread) of g that is the same in
// every process: threads are named by their spawn path (thread 0; the i-th node of thread t
// spawned it), nodes by (thread name, index); it covers each node's kind, flags and reads-from
// source, which, the program being deterministic, fix every value read and written: the events
// and reads-from of the prefix, as the one-process hash. (Locations and values are left out:
// their numbers differ between processes.)
void portablePrefixHash(const ExecutionGraph& g, const std::vector<std::int32_t>& upto,
                        std::uint64_t& h1, std::uint64_t& h2);

}  // namespace porlab::graph
