// SPDX-License-Identifier: MIT
// kit::scConsistent: an rvf::Instance from events and a reads-from map, decided by verifySC.
#include "porlab/explore/KitConsistency.hpp"

#include <algorithm>
#include <string>

#include "porlab/core/Errors.hpp"
#include "porlab/explore/RvfVerifySC.hpp"

namespace porlab::kit {

std::optional<std::vector<std::size_t>> scConsistent(std::span<const Event> events,
                                                     std::span<const int> rf) {
    if (rf.size() != events.size())
        throw InputError("sc_consistent: rf must have one entry per event");
    ThreadId maxThread = -1;
    LocId maxLoc = -1;
    for (const Event& e : events) {
        if (e.thread < 0) throw InputError("sc_consistent: an event has no thread");
        maxThread = std::max(maxThread, e.thread);
        maxLoc = std::max(maxLoc, e.loc);
        if (e.kind == EventKind::Spawn || e.kind == EventKind::Join)
            maxThread = std::max(maxThread, e.aux);
    }
    const auto T = static_cast<std::size_t>(maxThread + 1);
    std::vector<std::vector<rvf::Step>> steps(T);
    std::vector<std::vector<std::size_t>> posOf(T);  // by thread, by step: position in events
    std::vector<int> stepOf(events.size(), -1);
    for (std::size_t k = 0; k < events.size(); ++k) {
        const Event& e = events[k];
        if (isMarker(e.kind)) continue;
        const auto t = static_cast<std::size_t>(e.thread);
        stepOf[k] = static_cast<int>(steps[t].size());
        rvf::Step s;
        s.ev = e;
        s.out = {e};
        s.reads = e.loc != kNoLoc && readsMemory(e.kind);
        s.writes = e.loc != kNoLoc && writesMemory(e.kind);
        steps[t].push_back(std::move(s));
        posOf[t].push_back(k);
    }
    std::vector<rvf::SpawnPoint> spawnOf(T, rvf::kInitWrite);
    for (std::size_t k = 0; k < events.size(); ++k) {
        const Event& e = events[k];
        if (e.kind == EventKind::Spawn && e.aux >= 0 && stepOf[k] >= 0)
            spawnOf[static_cast<std::size_t>(e.aux)] = {e.thread, stepOf[k]};
        if (stepOf[k] < 0 || !readsMemory(e.kind) || e.loc == kNoLoc) continue;
        rvf::WriteRef w = rvf::kInitWrite;
        if (rf[k] >= 0) {
            const auto p = static_cast<std::size_t>(rf[k]);
            if (p >= events.size() || stepOf[p] < 0 || !writesMemory(events[p].kind) ||
                events[p].loc != e.loc || p == k)
                throw InputError("sc_consistent: rf[" + std::to_string(k) +
                                 "] = " + std::to_string(rf[k]) +
                                 " is not another write of the read's location");
            w = {events[p].thread, stepOf[p]};
        }
        steps[static_cast<std::size_t>(e.thread)][static_cast<std::size_t>(stepOf[k])].good = {w};
    }
    rvf::Instance inst;
    inst.steps = &steps;
    inst.spawnOf = &spawnOf;
    inst.numLocs = static_cast<std::size_t>(maxLoc + 1);
    for (const auto& s : steps) inst.len.push_back(static_cast<std::int32_t>(s.size()));
    rvf::VscStats stats;
    const auto witness = rvf::verifySC(inst, rvf::VscOptions{}, stats);
    if (!witness) return std::nullopt;
    std::vector<std::size_t> out;
    std::vector<std::size_t> next(T, 0);
    for (ThreadId t : *witness) {
        const auto u = static_cast<std::size_t>(t);
        out.push_back(posOf[u].at(next[u]++));
    }
    return out;
}

}  // namespace porlab::kit
