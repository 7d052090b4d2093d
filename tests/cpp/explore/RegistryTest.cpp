// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

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
