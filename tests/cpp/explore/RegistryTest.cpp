// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include <map>
#include <stdexcept>

#include "TestPrograms.hpp"
#include "porlab/core/Errors.hpp"
#include "porlab/explore/Explorer.hpp"

using namespace porlab;

TEST(RegistryTest, UnknownExplorerNamesTheKnownOnes) {
    try {
        (void)explore(*testprog::storeBuffering(), "optimall");
        FAIL() << "no error";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("optimal-await"), std::string::npos) << e.what();
    }
}

TEST(RegistryTest, MisspeltOptionIsAnErrorNotIgnored) {
    ExploreOptions o;
    o.params["can_stopp"] = "0";
    EXPECT_THROW((void)explore(*testprog::storeBuffering(), "optimal-await", o), InputError);
    o.params = {{"can_stop", "0"}};
    EXPECT_EQ(explore(*testprog::storeBuffering(), "optimal-await", o).complete, 3u);
    EXPECT_THROW((void)explore(*testprog::storeBuffering(), "naive", o), InputError);
}

TEST(RegistryTest, NamesAreUnique) {
    const auto& all = explorers();
    for (std::size_t i = 0; i < all.size(); ++i)
        for (std::size_t j = i + 1; j < all.size(); ++j) EXPECT_NE(all[i].name, all[j].name);
}

// The typed schema: values are parsed once, by explore(), and an explorer reads them typed.
TEST(RegistryTest, OptionsAreParsedOnceIntoTypedValues) {
    ExplorerInfo echo;
    echo.name = "registry-test-echo";
    echo.equivalence = "interleavings";
    echo.description = "echoes its parsed options as statistics";
    echo.options = {ExplorerOption::boolean("flag", true, "a bool"),
                    ExplorerOption::integer("depth", 3, 1, 10, "an int in 1..10"),
                    ExplorerOption::choice("mode", "fast", {"fast", "slow"}, "an enum")};
    echo.run = [](const Program& p, const ExploreOptions& o) {
        ExploreResult r = exploreNaive(p, o);
        r.stats["flag"] = o.option<bool>("flag", "registry-test-echo") ? 1 : 0;
        r.stats["depth"] = static_cast<double>(o.values.get<std::int64_t>("depth"));
        r.stats["slow"] = o.values.get<std::string>("mode") == "slow" ? 1 : 0;
        return r;
    };
    registerExplorer(echo);
    const auto prog = testprog::storeBuffering();
    ExploreOptions o;
    auto r = explore(*prog, "registry-test-echo", o);  // the defaults
    EXPECT_EQ(r.stats["flag"], 1);
    EXPECT_EQ(r.stats["depth"], 3);
    EXPECT_EQ(r.stats["slow"], 0);
    o.params = {{"flag", "False"}, {"depth", "10"}, {"mode", "slow"}};
    r = explore(*prog, "registry-test-echo", o);
    EXPECT_EQ(r.stats["flag"], 0);  // "False" is false, not a non-empty string
    EXPECT_EQ(r.stats["depth"], 10);
    EXPECT_EQ(r.stats["slow"], 1);
    for (const auto& [k, v] : std::map<std::string, std::string>{
             {"flag", "maybe"}, {"depth", "11"}, {"depth", "0"}, {"depth", "3x"}, {"mode", "x"}}) {
        o.params = {{k, v}};
        EXPECT_THROW((void)explore(*prog, "registry-test-echo", o), InputError) << k << "=" << v;
    }
    // A built-in name cannot be taken; a plugin can be replaced.
    echo.name = "optimal";
    EXPECT_THROW(registerExplorer(echo), InputError);
    echo.name = "registry-test-echo";
    EXPECT_NO_THROW(registerExplorer(echo));
    std::size_t n = 0;
    for (const auto& e : explorers()) n += e.name == "registry-test-echo";
    EXPECT_EQ(n, 1u);
}

TEST(RegistryTest, ExplorerCalledDirectlyGetsTheRegisteredDefaults) {
    ExploreOptions o;
    EXPECT_TRUE(o.option<bool>("can_stop", "optimal"));
    EXPECT_EQ(o.option<std::string>("zne", "graph"), "strict");
    EXPECT_EQ(o.option<std::string>("zne", "naive"), "on");
    o.params["can_stop"] = "off";
    EXPECT_FALSE(o.option<bool>("can_stop", "optimal"));
    EXPECT_THROW((void)o.option<bool>("no_such_option", "optimal"), std::logic_error);
}

TEST(RegistryTest, LoadSchemaDeclaresTheDefaultsOnce) {
    std::map<std::string, std::string> defaults;
    for (const auto& o : cLoadOptionSchema()) defaults[o.name] = o.defaultValue;
    EXPECT_EQ(defaults["max_threads"], std::to_string(kDefaultMaxThreads));
    EXPECT_EQ(defaults["loops"], loopModeNames().front());
    EXPECT_EQ(defaults["unroll"], "");  // no bound unless asked
}
