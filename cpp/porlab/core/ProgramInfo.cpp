// SPDX-License-Identifier: MIT
#include "porlab/core/ProgramInfo.hpp"

namespace porlab {

std::string ProgramInfo::threadName(ThreadId t) const {
    if (t >= 0 && t < numThreads() && !threadNames[static_cast<std::size_t>(t)].empty())
        return threadNames[static_cast<std::size_t>(t)];
    return "T" + std::to_string(t);
}

std::string ProgramInfo::locationName(LocId l) const {
    if (l >= 0 && l < numLocations()) return locationNames[static_cast<std::size_t>(l)];
    return "@" + std::to_string(l);
}

std::string ProgramInfo::position(SourcePos p) const {
    if (p.file == 0 && p.line == 0) return "";
    std::string f = p.file < files.size() ? files[p.file] : std::string();
    if (f.empty()) f = "?";
    return f + ":" + std::to_string(p.line);
}

std::string ProgramInfo::value(Value v, bool pointer) const {
    if (values) {
        if (std::string s = values->special(v); !s.empty()) return s;
        if (pointer)
            if (std::string s = values->pointer(v); !s.empty()) return s;
    }
    return std::to_string(v);
}

// ---- call contexts ---------------------------------------------------------------------------

CallContexts::CallContexts(std::vector<std::string> functions) : functions_(std::move(functions)) {
    nodes_.emplace_back();  // context 0: unknown
}

std::uint32_t CallContexts::intern(std::uint32_t parent, std::uint32_t function,
                                   SourcePos callSite) {
    const std::pair<std::uint64_t, std::uint64_t> key{
        (static_cast<std::uint64_t>(parent) << 32) | function,
        (static_cast<std::uint64_t>(callSite.file) << 32) | callSite.line};
    std::lock_guard lk(mu_);
    auto [it, fresh] = index_.try_emplace(key, static_cast<std::uint32_t>(nodes_.size()));
    if (fresh) nodes_.push_back({parent, function, callSite});
    return it->second;
}

std::vector<CallContexts::Frame> CallContexts::frames(std::uint32_t c, std::size_t maxDepth) const {
    std::vector<Frame> out;
    std::lock_guard lk(mu_);
    SourcePos at{};
    while (c != 0 && c < nodes_.size()) {
        if (out.size() == maxDepth) {
            out.push_back({"...", {}});
            break;
        }
        const Node& n = nodes_[c];
        out.push_back({n.function < functions_.size() ? functions_[n.function] : "?", at});
        at = n.callSite;
        c = n.parent;
    }
    return out;
}

std::string CallContexts::function(std::uint32_t c) const {
    std::lock_guard lk(mu_);
    if (c == 0 || c >= nodes_.size()) return "";
    const auto f = nodes_[c].function;
    return f < functions_.size() ? functions_[f] : "?";
}

std::size_t CallContexts::size() const {
    std::lock_guard lk(mu_);
    return nodes_.size();
}

}  // namespace porlab
