// SPDX-License-Identifier: MIT
#include "porlab/program/CodeValueNames.hpp"

#include <algorithm>
#include <optional>

namespace porlab::code {

namespace {

// The text of a constant global that is a C string ("" if it is not one).
std::string literalOf(const CGlobal& g) {
    if (g.bytes.empty() || g.bytes.back() != 0) return "";
    std::string s = "\"";
    for (std::size_t i = 0; i + 1 < g.bytes.size(); ++i) {
        const auto c = static_cast<char>(g.bytes[i]);
        if (c == 0) return "";  // not a single string
        if (c == '\n')
            s += "\\n";
        else if (c == '"' || c == '\\')
            s += std::string("\\") + c;
        else if (g.bytes[i] < 32 || g.bytes[i] >= 127)
            return "";
        else
            s += c;
        if (s.size() > 40) return s + "...\"";
    }
    return s + "\"";
}

}  // namespace

CodeValueNames::CodeValueNames(const CModule& m, Value dead, std::size_t maxLocations)
    : objShift_(m.objShift),
      localTag_(m.localTag),
      offMask_(m.offMask),
      staticBase_(m.staticBase),
      firstDynamic_(m.firstDynamicObject()),
      dead_(dead),
      locationObject_(maxLocations, 0) {
    for (const auto& f : m.functions) functions_.push_back(f.name);
    for (const auto& g : m.globals) {
        Global x;
        x.name = g.displayName.empty() ? g.name : g.displayName;
        x.size = g.size;
        if (g.constant) x.literal = literalOf(g);
        x.parts = g.parts;
        for (const auto& c : g.cells) x.cells.emplace_back(c.offset, c.name);
        globals_.push_back(std::move(x));
    }
}

void CodeValueNames::addObject(std::int64_t obj, ObjectInfo info, std::uint64_t base) {
    std::lock_guard lk(mu_);
    const auto i = static_cast<std::size_t>(obj - firstDynamic_);
    if (i >= dynamic_.size()) {
        dynamic_.resize(i + 1);
        dynamicBase_.resize(i + 1, 0);
    }
    dynamic_[i] = std::move(info);
    dynamicBase_[i] = base;
}

void CodeValueNames::setLocationObject(LocId l, std::int64_t obj) {
    std::lock_guard lk(mu_);
    if (l >= 0 && static_cast<std::size_t>(l) < locationObject_.size())
        locationObject_[static_cast<std::size_t>(l)] = obj;
}

void CodeValueNames::addChoiceSite(ThreadId t, int n, SourcePos pos) {
    std::lock_guard lk(mu_);
    choiceSites_.try_emplace({t, n}, pos);
}

SourcePos CodeValueNames::choiceSite(ThreadId t, int n) const {
    std::lock_guard lk(mu_);
    auto it = choiceSites_.find({t, n});
    return it == choiceSites_.end() ? SourcePos{} : it->second;
}

std::string CodeValueNames::special(Value v) const { return v == dead_ ? "(dead)" : ""; }

std::string CodeValueNames::pointer(Value v) const {
    const auto u = static_cast<std::uint64_t>(v);
    if (u == 0) return "NULL";
    if (u & localTag_) return "";  // the private stack: never in shared memory
    const auto obj = static_cast<std::int64_t>(u >> objShift_);
    if (obj <= 0) return "";
    // The offset: the low bits minus the object's base (as CodeExecution::resolve decodes it; a
    // pointer below the base wraps to a huge offset, shown as a number).
    const std::uint64_t low = u & offMask_;
    auto offsetFrom = [&](std::uint64_t base) -> std::optional<std::uint32_t> {
        if (low < base || low - base > 0xffffffffULL) return std::nullopt;
        return static_cast<std::uint32_t>(low - base);
    };
    auto staticOffset = [&]() {
        const auto i = static_cast<std::size_t>(obj);
        return offsetFrom(i < staticBase_.size() ? staticBase_[i] : 0);
    };
    if (obj <= static_cast<std::int64_t>(functions_.size())) {
        const auto off = staticOffset();
        return off && *off == 0 ? functions_[static_cast<std::size_t>(obj - 1)] : "";
    }
    if (obj < firstDynamic_) {
        const auto gi =
            static_cast<std::size_t>(obj - 1 - static_cast<std::int64_t>(functions_.size()));
        const auto o = staticOffset();
        if (gi >= globals_.size() || !o) return "";
        const std::uint32_t off = *o;
        const Global& g = globals_[gi];
        if (off > g.size) return "";
        const std::string plus = off ? "+" + std::to_string(off) : "";
        if (!g.literal.empty()) return g.literal + plus;
        // The outermost struct that starts there, else the scalar that does, else a byte offset.
        auto at = [&](const std::vector<std::pair<std::uint32_t, std::string>>& named)
            -> const std::string* {
            auto it = std::lower_bound(named.begin(), named.end(), off,
                                       [](const auto& p, std::uint32_t x) { return p.first < x; });
            return it != named.end() && it->first == off ? &it->second : nullptr;
        };
        if (const std::string* s = at(g.parts)) return "&" + *s;
        if (const std::string* s = at(g.cells)) return "&" + *s;
        return "&" + g.name + plus;
    }
    std::lock_guard lk(mu_);
    const auto i = static_cast<std::size_t>(obj - firstDynamic_);
    if (i >= dynamic_.size() || dynamic_[i].name.empty()) return "";
    const auto o = offsetFrom(dynamicBase_[i]);
    const ObjectInfo& info = dynamic_[i];
    if (!o || *o > info.size) return "";
    const std::string plus = *o ? "+" + std::to_string(*o) : "";
    // A variable (escaped stack variable, thread-local's copy) is named by the program: its
    // address; a heap block is the block.
    const bool heap = info.kind == "malloc" || info.kind == "calloc";
    return (heap ? "" : "&") + info.name + plus;
}

std::int64_t CodeValueNames::dynamicObjectOf(Value v) const {
    const auto u = static_cast<std::uint64_t>(v);
    if (u == 0 || (u & localTag_)) return -1;
    const auto obj = static_cast<std::int64_t>(u >> objShift_);
    return obj >= firstDynamic_ ? obj : -1;
}

std::vector<ObjectInfo> CodeValueNames::objects(const std::vector<Event>& events) const {
    std::vector<std::int64_t> seen;
    auto note = [&](std::int64_t obj) {
        if (obj >= firstDynamic_ && std::find(seen.begin(), seen.end(), obj) == seen.end())
            seen.push_back(obj);
    };
    {
        std::lock_guard lk(mu_);
        for (const auto& e : events)
            if (e.loc >= 0 && static_cast<std::size_t>(e.loc) < locationObject_.size())
                note(locationObject_[static_cast<std::size_t>(e.loc)]);
    }
    for (const auto& e : events) {
        if (!e.pointer) continue;
        if (readsMemory(e.kind)) note(dynamicObjectOf(e.rval));
        if (writesMemory(e.kind)) note(dynamicObjectOf(e.wval));
        if (e.kind == EventKind::CasSuccess || e.kind == EventKind::CasFailure)
            note(dynamicObjectOf(e.operand));
    }
    std::vector<ObjectInfo> out;
    std::lock_guard lk(mu_);
    for (std::int64_t obj : seen) {
        const auto i = static_cast<std::size_t>(obj - firstDynamic_);
        if (i < dynamic_.size() && !dynamic_[i].name.empty()) out.push_back(dynamic_[i]);
    }
    return out;
}

}  // namespace porlab::code
