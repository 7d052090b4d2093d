// SPDX-License-Identifier: MIT
// The consistency check of execution graphs for explorers written in Python (issue 20): is a
// set of events with a reads-from assignment realisable under sequential consistency? A thin
// entry point to the reads-from machinery's VerifySC (explore/RvfVerifySC.hpp, RVF-SMC §4),
// which the graph-based and reads-from explorers use for the same question.
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "porlab/core/Event.hpp"

namespace porlab::kit {

// `events`: the events of some threads, each thread's in program order (as in a trace; markers
// are ignored). `rf[k]` for each read (readsMemory) event k: the position of the write it reads
// from, or -1 for the location's initial value (ignored for other events). Is there an
// interleaving that keeps program order, starts a thread after its spawn, puts a join after the
// joined thread's last event, and in which every read's last preceding write to its location is
// rf[k] (none for -1)? Values are not re-checked: rf is taken as given. Returns the positions
// of such an interleaving (the non-marker events), or nothing. InputError when rf is not a
// write of the read's location or the sizes differ.
[[nodiscard]] std::optional<std::vector<std::size_t>> scConsistent(std::span<const Event> events,
                                                                   std::span<const int> rf);

}  // namespace porlab::kit
