// SPDX-License-Identifier: MIT
// The typed option schema: every option of an explorer (declared in its registration) and of
// program loading (cLoadOptionSchema) is declared once, with its name, type, default, range and
// documentation. The Python keyword arguments, the CLI flags and their help, the validation and
// `porlab explorers --options` are all generated from these declarations; values are parsed
// once, by explore(), into OptionValues that explorers read through typed getters.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace porlab {

enum class OptionType : std::uint8_t {
    Inferred,  // a declaration that names no type: Bool without `values`, Enum with them
    Bool,
    Int,     // an integer in [min, max]
    Enum,    // one of `values`
    String,  // any text
};

[[nodiscard]] std::string_view optionTypeName(OptionType t);

// A parsed option value: bool for Bool, std::int64_t for Int, std::string for Enum and String.
using OptionValue = std::variant<bool, std::int64_t, std::string>;

// One declared option. Aggregate-compatible with the older {name, default, values, doc}
// declarations (type inferred); the named constructors below say the type.
struct ExplorerOption {
    std::string name;
    std::string defaultValue;         // in the text form parse() accepts
    std::vector<std::string> values;  // Enum: the allowed values
    std::string doc;
    OptionType declared = OptionType::Inferred;
    std::int64_t min = std::numeric_limits<std::int64_t>::min();  // Int: inclusive range
    std::int64_t max = std::numeric_limits<std::int64_t>::max();

    static ExplorerOption boolean(std::string name, bool dflt, std::string doc);
    static ExplorerOption choice(std::string name, std::string dflt,
                                 std::vector<std::string> values, std::string doc);
    static ExplorerOption integer(std::string name, std::int64_t dflt, std::int64_t min,
                                  std::int64_t max, std::string doc);
    static ExplorerOption text(std::string name, std::string dflt, std::string doc);

    [[nodiscard]] OptionType type() const {
        if (declared != OptionType::Inferred) return declared;
        return values.empty() ? OptionType::Bool : OptionType::Enum;
    }
    [[nodiscard]] bool isBool() const { return type() == OptionType::Bool; }
    // The value of a text (a CLI's -o NAME=VALUE, ExploreOptions::params): a bool from
    // true/false/on/off/1/0/yes/no (any case), an integer in range, an allowed enum value.
    // Anything else is an InputError naming `owner`, the option and what it accepts.
    [[nodiscard]] OptionValue parse(std::string_view text, std::string_view owner) const;
    [[nodiscard]] OptionValue defaultParsed() const { return parse(defaultValue, "default"); }
    // The canonical text of a value (what parse() reads back).
    [[nodiscard]] static std::string format(const OptionValue& v);
};
using OptionSpec = ExplorerOption;

// The parsed options of one run: every declared option, given or defaulted.
class OptionValues {
  public:
    void set(const std::string& name, OptionValue v) { values_[name] = std::move(v); }
    [[nodiscard]] bool has(std::string_view name) const {
        return values_.find(std::string(name)) != values_.end();
    }
    [[nodiscard]] bool empty() const { return values_.empty(); }
    [[nodiscard]] const std::map<std::string, OptionValue>& all() const { return values_; }
    // The value of a declared option; a logic_error when it is absent or of another type (a
    // programming error: the registration declares what the explorer reads).
    template <class T>
    [[nodiscard]] const T& get(std::string_view name) const {
        auto it = values_.find(std::string(name));
        if (it == values_.end()) missing(name);
        const T* v = std::get_if<T>(&it->second);
        if (!v) wrongType(name);
        return *v;
    }

  private:
    [[noreturn]] static void missing(std::string_view name);
    [[noreturn]] static void wrongType(std::string_view name);
    std::map<std::string, OptionValue> values_;
};

// Checks `given` (name -> text) against `schema` and fills every declared option, given or
// defaulted. An unknown name or a bad value is an InputError naming `owner`.
[[nodiscard]] OptionValues parseOptions(const std::vector<ExplorerOption>& schema,
                                        const std::map<std::string, std::string>& given,
                                        std::string_view owner);

// Program loading (C files): the defaults every layer (CLoadOptions, the bindings, load_c, the
// CLI) takes from here.
inline constexpr int kDefaultMaxThreads = 16;
inline constexpr int kMaxThreadsLimit = 64;
inline constexpr int kDefaultMaxLocations = 4096;
inline constexpr std::int64_t kDefaultMaxExecutionEvents = 100000;
inline constexpr std::string_view kDefaultLoops = "plp-saver";
// --loops: the loop transformations (llvm/Loops.hpp says what each does), default first.
[[nodiscard]] const std::vector<std::string>& loopModeNames();
// The options of loading a C program, in the order the CLI shows them.
[[nodiscard]] const std::vector<ExplorerOption>& cLoadOptionSchema();

}  // namespace porlab
