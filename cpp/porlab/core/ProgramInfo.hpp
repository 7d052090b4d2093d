// SPDX-License-Identifier: MIT
// Names and initial values of a program's threads and locations: what a trace needs to be read by
// a person, and nothing an explorer needs to run.
#pragma once

#include <string>
#include <vector>

#include "porlab/core/Event.hpp"

namespace porlab {

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

    [[nodiscard]] int numThreads() const { return static_cast<int>(threadNames.size()); }
    [[nodiscard]] int numLocations() const { return static_cast<int>(locationNames.size()); }
    [[nodiscard]] std::string threadName(ThreadId t) const;
    [[nodiscard]] std::string locationName(LocId l) const;
    [[nodiscard]] std::string position(SourcePos p) const;  // "file:line" or ""
};

}  // namespace porlab
