// SPDX-License-Identifier: MIT
// SAVER's zero-net-effect (ZNE) handling on the graph engine (saver-spinloops.txt §VI,
// Algorithm 2). A thread at a decrement that cancels its last write (an increment of the same
// location, only pure steps in between) is blocked by a zne marker in place of the decrement: the
// iteration had no net effect unless someone observed the intermediate value. The marker is
// invalidated (the decrement then runs) by a foreign write to the location, or by a read of the
// increment by another thread (strict; `paper`: by a second read, as published).
//
// The core asks this policy:
//  * add(...): the next event is a canceling decrement: block it with a marker (or not);
//  * check(...): node a was just added: lift the markers it invalidates;
//  * justifiedRevisit(h): may the revisited graph h be explored (every lifted marker still has
//    what lifted it)?
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "porlab/explore/graph/Engine.hpp"

namespace porlab::graph {

class ZnePolicy {
  public:
    // Option zne: strict (default; a marker is invalidated by the first read of its increment
    // by another thread), paper (Algorithm 2 as published: by a second read; it loses states,
    // see check), off (canceling decrements run as they are).
    enum class Mode : std::uint8_t { Strict, Paper, Off };

    ZnePolicy(Engine& engine, const ExploreOptions& opts);

    // Thread t is at a canceling decrement `p`; block it with a zne marker if this position's
    // zne was not invalidated, the increment it cancels is the thread's last write and
    // Algorithm 2 would not invalidate it right away. Returns the exploration of the graph with
    // the marker if it did (to be awaited at once), nothing if not.
    std::optional<Step> add(ExecutionGraph& g, ThreadId t, const Event& p, std::size_t depth);
    // CheckZNEValidity(g, a) (Algorithm 2): removes the zne markers that node a invalidates
    // (they are the last nodes of their threads) into `removed`; the caller puts them back.
    void check(ExecutionGraph& g, Ref a, std::vector<Node>& removed);
    // Does every decrement that runs because its marker was lifted (ExecutionGraph::zneDone)
    // still have what lifted it in g: a foreign write to its location, or (strict) a read of
    // its increment by another thread ((paper) two reads)? Counts the graphs that do not.
    [[nodiscard]] bool justifiedRevisit(const ExecutionGraph& g);
    void addStats(ExploreResult& r) const;
    [[nodiscard]] FrameArena& stepArena() { return engine_.stepArena(); }  // (Step.hpp)

  private:
    // Explore g with marker n as thread t's next node.
    Step addMarker(ExecutionGraph& g, ThreadId t, Node n, std::size_t depth);

    Engine& engine_;
    Mode mode_ = Mode::Strict;
    std::uint64_t blocked_ = 0, invalidated_ = 0, unjustified_ = 0;
};

}  // namespace porlab::graph
