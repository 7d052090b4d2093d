// SPDX-License-Identifier: MIT
// How a C program's values read in a trace: pointers decoded into the program's own names
// (&x, &nodes[1].next, malloc@t1#0+8, NULL, a function's name), the heap blocks and escaped
// stack variables with their allocation sites, and where each nondet choice was made. It owns
// a copy of what it needs from the module, so that traces can outlive their program.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "porlab/core/ProgramInfo.hpp"
#include "porlab/program/Code.hpp"

namespace porlab::code {

class CodeValueNames final : public ValueNames {
  public:
    // `dead`: what a free or a frame end leaves in a location.
    CodeValueNames(const CModule& m, Value dead, std::size_t maxLocations);

    [[nodiscard]] std::string pointer(Value v) const override;
    [[nodiscard]] std::string special(Value v) const override;
    [[nodiscard]] std::vector<ObjectInfo> objects(const std::vector<Event>& events) const override;
    [[nodiscard]] SourcePos choiceSite(ThreadId t, int n) const override;

    // Filled by the program as it runs (each call once per object, location or choice point).
    // base: the low address bits of the object's byte 0 (CModule::pointer).
    void addObject(std::int64_t obj, ObjectInfo info, std::uint64_t base);
    void setLocationObject(LocId l, std::int64_t obj);
    void addChoiceSite(ThreadId t, int n, SourcePos pos);

  private:
    struct Global {
        std::string name;
        std::uint32_t size = 0;
        std::string literal;  // a constant C string: its text in quotes ("" otherwise)
        std::vector<std::pair<std::uint32_t, std::string>> parts;  // CGlobal::parts
        std::vector<std::pair<std::uint32_t, std::string>> cells;  // (offset, name)
    };
    // The dynamic object a pointer points into (-1: none).
    [[nodiscard]] std::int64_t dynamicObjectOf(Value v) const;

    int objShift_;
    std::uint64_t localTag_, offMask_;
    std::vector<std::uint64_t> staticBase_;  // CModule::staticBase (functions and globals)
    std::int64_t firstDynamic_;
    Value dead_;
    std::vector<std::string> functions_;
    std::vector<Global> globals_;

    mutable std::mutex mu_;
    std::vector<ObjectInfo> dynamic_;           // by object id - firstDynamic_ (name "" = unknown)
    std::vector<std::uint64_t> dynamicBase_;    // their bases, likewise
    std::vector<std::int64_t> locationObject_;  // by LocId: its dynamic object (0: none)
    std::map<std::pair<ThreadId, int>, SourcePos> choiceSites_;
};

}  // namespace porlab::code
