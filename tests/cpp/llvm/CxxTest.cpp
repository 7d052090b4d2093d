// SPDX-License-Identifier: MIT
// C++ programs: recognised by suffix or -x c++, linked with porlab's C++ runtime, which must be
// on the include path.
#include <gtest/gtest.h>

#include <string>

#include "llvm/CTestSupport.hpp"
#include "porlab/core/Errors.hpp"
#include "porlab/explore/Explorer.hpp"
#include "porlab/llvm/CProgram.hpp"
#include "porlab/llvm/Cxx.hpp"

namespace porlab {
namespace {

using testing::withPorlabHeader;

// Two std::threads add 1 and 2 to a std::atomic<int>: the fetch-and-adds go in 2 orders.
const char* kCounter = R"(
#include <atomic>
#include <cassert>
#include <thread>
std::atomic<int> x{0};
void add(int k) { x.fetch_add(k); }
int main() {
    std::thread a(add, 1), b(add, 2);
    a.join();
    b.join();
    assert(x.load() == 3);
    return 0;
}
)";

TEST(Cxx, InputKindBySuffixOrLanguageArgument) {
    using cfront::isCxxInput;
    for (const char* f : {"a.cpp", "a.cc", "a.cxx", "dir/a.C", "a.c++", "a.ii"})
        EXPECT_TRUE(isCxxInput(f, {})) << f;
    for (const char* f : {"a.c", "a.i", "a.h", "cpp"}) EXPECT_FALSE(isCxxInput(f, {})) << f;
    EXPECT_TRUE(isCxxInput("a.c", {"-x", "c++"}));
    EXPECT_TRUE(isCxxInput("a.c", {"-xc++"}));
    EXPECT_FALSE(isCxxInput("a.cpp", {"-x", "c"}));
    EXPECT_FALSE(isCxxInput("a.c", {"-x", "c++", "-x", "c"}));  // the last one counts
}

TEST(Cxx, AtomicCounterWithStdThreads) {
    auto p = loadCSource(kCounter, "counter.cpp", withPorlabHeader());
    const auto r = explore(*p, "optimal");
    EXPECT_EQ(r.complete, 2U);
    EXPECT_EQ(r.errors, 0U);
    EXPECT_EQ(r.blocked, 0U);
}

TEST(Cxx, RuntimeMustBeOnTheIncludePath) {
    try {
        (void)loadCSource(kCounter, "counter.cpp", CLoadOptions{});
        FAIL() << "loaded a C++ program without porlab's C++ runtime";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("porlab_cxxrt.cpp"), std::string::npos) << e.what();
    }
    EXPECT_EQ(cfront::findCxxRuntime({}), "");
    EXPECT_NE(cfront::findCxxRuntime(withPorlabHeader().includeDirs), "");
}

TEST(Cxx, ProgramDefinitionsWinOverTheRuntime) {
    // The program's own operator new counts allocations; the runtime's is not linked in.
    const char* src = R"(
#include <cassert>
#include <cstdlib>
#include <new>
int allocations;
void* operator new(std::size_t n) { allocations = allocations + 1; return std::malloc(n); }
void operator delete(void* p) noexcept { std::free(p); }
int main() {
    int* p = new int(1);
    delete p;
    assert(allocations == 1);
    return 0;
}
)";
    auto p = loadCSource(src, "own_new.cpp", withPorlabHeader());
    const auto r = explore(*p, "naive");
    EXPECT_EQ(r.complete, 1U);
    EXPECT_EQ(r.errors, 0U);
}

}  // namespace
}  // namespace porlab
