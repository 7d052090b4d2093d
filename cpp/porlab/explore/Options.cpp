// SPDX-License-Identifier: MIT
#include "porlab/explore/Options.hpp"

#include <cctype>
#include <charconv>
#include <stdexcept>

#include "porlab/core/Errors.hpp"

namespace porlab {

std::string_view optionTypeName(OptionType t) {
    switch (t) {
        case OptionType::Bool:
            return "bool";
        case OptionType::Int:
            return "int";
        case OptionType::Enum:
            return "enum";
        case OptionType::String:
            return "string";
        case OptionType::Inferred:
            break;
    }
    return "inferred";
}

ExplorerOption ExplorerOption::boolean(std::string name, bool dflt, std::string doc) {
    return {std::move(name), dflt ? "true" : "false", {}, std::move(doc), OptionType::Bool};
}

ExplorerOption ExplorerOption::choice(std::string name, std::string dflt,
                                      std::vector<std::string> values, std::string doc) {
    return {std::move(name), std::move(dflt), std::move(values), std::move(doc), OptionType::Enum};
}

ExplorerOption ExplorerOption::integer(std::string name, std::int64_t dflt, std::int64_t min,
                                       std::int64_t max, std::string doc) {
    return {std::move(name), std::to_string(dflt), {}, std::move(doc), OptionType::Int, min, max};
}

ExplorerOption ExplorerOption::text(std::string name, std::string dflt, std::string doc) {
    return {std::move(name), std::move(dflt), {}, std::move(doc), OptionType::String};
}

OptionValue ExplorerOption::parse(std::string_view text, std::string_view owner) const {
    const std::string what = std::string(owner) + ": option '" + name + "'";
    switch (type()) {
        case OptionType::Bool: {
            std::string v(text);
            for (char& c : v) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            if (v == "true" || v == "on" || v == "1" || v == "yes") return true;
            if (v == "false" || v == "off" || v == "0" || v == "no") return false;
            throw InputError(what + " is a bool (true or false), not '" + std::string(text) + "'");
        }
        case OptionType::Int: {
            std::int64_t v = 0;
            const char* end = text.data() + text.size();
            auto [p, ec] = std::from_chars(text.data(), end, v);
            if (text.empty() || ec != std::errc() || p != end)
                throw InputError(what + " is an integer, not '" + std::string(text) + "'");
            if (v < min || v > max) {
                std::string range = ">= " + std::to_string(min);
                if (max != std::numeric_limits<std::int64_t>::max())
                    range = "between " + std::to_string(min) + " and " + std::to_string(max);
                throw InputError(what + " must be " + range + ", not " + std::to_string(v));
            }
            return v;
        }
        case OptionType::Enum: {
            for (const auto& a : values)
                if (a == text) return a;
            std::string allowed;
            for (const auto& a : values) allowed += (allowed.empty() ? "" : ", ") + a;
            throw InputError(what + " must be one of " + allowed + ", not '" + std::string(text) +
                             "'");
        }
        case OptionType::String:
        case OptionType::Inferred:
            break;
    }
    return std::string(text);
}

std::string ExplorerOption::format(const OptionValue& v) {
    if (const bool* b = std::get_if<bool>(&v)) return *b ? "true" : "false";
    if (const std::int64_t* i = std::get_if<std::int64_t>(&v)) return std::to_string(*i);
    return std::get<std::string>(v);
}

void OptionValues::missing(std::string_view name) {
    throw std::logic_error("option '" + std::string(name) +
                           "' read but not declared by the explorer's registration");
}

void OptionValues::wrongType(std::string_view name) {
    throw std::logic_error("option '" + std::string(name) +
                           "' read as another type than its registration declares");
}

OptionValues parseOptions(const std::vector<ExplorerOption>& schema,
                          const std::map<std::string, std::string>& given, std::string_view owner) {
    for (const auto& [key, value] : given) {
        bool known = false;
        for (const auto& o : schema) known = known || o.name == key;
        if (!known) {
            std::string names;
            for (const auto& o : schema) names += (names.empty() ? "" : ", ") + o.name;
            throw InputError(std::string(owner) + " has no option '" + key + "'" +
                             (names.empty() ? " (it takes none)" : " (options: " + names + ")"));
        }
    }
    OptionValues out;
    for (const auto& o : schema) {
        auto it = given.find(o.name);
        if (it != given.end())
            out.set(o.name, o.parse(it->second, owner));
        else if (!o.defaultValue.empty() || o.type() == OptionType::String)
            out.set(o.name, o.defaultParsed());
    }
    return out;
}

const std::vector<std::string>& loopModeNames() {
    static const std::vector<std::string> modes = {"plp-saver", "none",      "spin-assume",
                                                   "plp",       "plp-await", "saver"};
    return modes;
}

const std::vector<ExplorerOption>& cLoadOptionSchema() {
    constexpr auto kNoMax = std::numeric_limits<std::int64_t>::max();
    static const std::vector<ExplorerOption> schema = {
        // No default: without it loops are not bounded.
        {"unroll",
         "",
         {},
         "at most N visits of a loop header per entry of the loop, as Nidhugg's and GenMC's "
         "-unroll=N (N-1 jumps back; the N-th blocks the execution: loop-bound); N >= 1",
         OptionType::Int,
         1,
         kNoMax},
        ExplorerOption::choice(
            "loops", std::string(kDefaultLoops), loopModeNames(),
            "spin-loop reduction (plp-saver: iterations that change nothing are blocked, as "
            "Nidhugg and GenMC do by default, sound with every explorer; none: the program as "
            "written; spin-assume: SAVER's static spin-assume; plp: Godot's PLP; plp-await: "
            "Godot's PLP+Await; saver: SAVER; see docs/supported-c.md)"),
        ExplorerOption::integer(
            "max_threads", kDefaultMaxThreads, 1, kMaxThreadsLimit,
            "bound on threads, main included; a thread beyond it blocks its execution and makes "
            "the run incomplete"),
        ExplorerOption::integer("max_locations", kDefaultMaxLocations, 0, kNoMax,
                                "bound on shared heap/stack locations over all executions (an "
                                "execution needing more is blocked: location-limit)"),
        ExplorerOption::integer("max_execution_events", kDefaultMaxExecutionEvents, 1, kNoMax,
                                "cut an execution this long (blocked; the run is incomplete): "
                                "programs that never terminate end there"),
        {"nondet_domain",
         "",
         {},
         "LO:HI: explore every value of __VERIFIER_nondet_* in LO..HI (the explorer runs once "
         "per assignment of values to the nondet calls reached); without it they return 0",
         OptionType::String},
        ExplorerOption::boolean("deadlock_is_error", true,
                                "a deadlock (every live thread waits on a mutex or a join) is an "
                                "error; false: a blocked execution"),
    };
    return schema;
}

}  // namespace porlab
