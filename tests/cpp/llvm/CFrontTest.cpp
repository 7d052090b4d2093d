// SPDX-License-Identifier: MIT
// The C front end end to end: C source → clang → lowering → interpreter → explorers.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "porlab/core/Errors.hpp"
#include "porlab/explore/Explorer.hpp"
#include "porlab/llvm/CProgram.hpp"

namespace porlab {
namespace {

CLoadOptions withHeader() {
    CLoadOptions o;
    o.includeDirs.push_back(std::string(PORLAB_SOURCE_DIR) + "/python/porlab/include");
    return o;
}

ExploreResult run(const std::string& src, const std::string& explorer = "naive",
                  CLoadOptions o = withHeader()) {
    auto p = loadCSource(src, "test.c", o);
    return explore(*p, explorer);
}

const char* kStoreBuffering = R"(
#include <pthread.h>
#include <assert.h>
int x, y, a, b;
void *t1(void *arg) { x = 1; a = y; return 0; }
void *t2(void *arg) { y = 1; b = x; return 0; }
int main() {
    pthread_t p, q;
    pthread_create(&p, 0, t1, 0);
    pthread_create(&q, 0, t2, 0);
    pthread_join(p, 0);
    pthread_join(q, 0);
    assert(a == 1 || b == 1);
    return 0;
}
)";

TEST(CFront, StoreBufferingUnderSc) {
    auto r = run(kStoreBuffering);
    EXPECT_EQ(r.errors, 0U);
    EXPECT_GT(r.complete, 1U);
    // x=1;a=y || y=1;b=x: under SC three outcomes of (a, b): (0,1), (1,0), (1,1).
    auto o = run(kStoreBuffering, "optimal");
    EXPECT_EQ(o.errors, 0U);
    EXPECT_EQ(o.complete, 3U);  // Wx<Rx and Wy<Ry orders, one of the four is cyclic
}

}  // namespace
}  // namespace porlab

// ---- every C program of the corpus, under every explorer, with budgets ---------------------------
// Run in the sanitizer build (make test-sanitize): no input may crash porlab. Programs that are
// unsupported must say so with an UnsupportedError / InputError, never a crash.

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace porlab {
namespace {

struct CorpusProgram {
    std::string path;
    CLoadOptions opts;
};

std::vector<CorpusProgram> corpus() {
    namespace fs = std::filesystem;
    std::vector<CorpusProgram> out;
    for (const char* dir : {"/tests/c", "/benchmarks/programs"}) {
        const fs::path d = std::string(PORLAB_SOURCE_DIR) + dir;
        if (!fs::exists(d)) continue;
        for (const auto& f : fs::directory_iterator(d)) {
            if (f.path().extension() != ".c") continue;
            std::ifstream in(f.path());
            std::stringstream ss;
            ss << in.rdbuf();
            const std::string text = ss.str();
            CorpusProgram p{f.path().string(), withHeader()};
            std::smatch m;
            if (std::regex_search(text, m, std::regex(R"(args:([^\n]*))"))) {
                std::istringstream args(m[1].str());
                std::string a;
                while (args >> a) {
                    if (a == "--unroll" && args >> a) p.opts.unroll = std::stoi(a);
                    else if (a == "--max-threads" && args >> a) p.opts.maxThreads = std::stoi(a);
                    else if (a == "--deadlock-blocked") p.opts.deadlockIsError = false;
                    else if (a.rfind("-D", 0) == 0) {
                        const auto eq = a.find('=');
                        p.opts.defines.emplace_back(a.substr(2, eq == std::string::npos ? std::string::npos : eq - 2),
                                                    eq == std::string::npos ? "" : a.substr(eq + 1));
                    }
                }
            }
            out.push_back(std::move(p));
        }
    }
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.path < b.path; });
    return out;
}

TEST(CFrontCorpus, NoProgramCrashesAnyExplorer) {
    const auto programs = corpus();
    if (programs.empty()) GTEST_SKIP() << "no C corpus in this tree";
    int loaded = 0;
    for (const auto& cp : programs) {
        std::shared_ptr<Program> p;
        try {
            p = loadC(cp.path, cp.opts);
        } catch (const UnsupportedError& e) {
            ADD_FAILURE() << cp.path << ": " << e.what();
            continue;
        } catch (const InputError& e) {
            ADD_FAILURE() << cp.path << ": " << e.what();
            continue;
        }
        ++loaded;
        ExploreOptions o;
        o.maxTraces = 300;
        o.maxEvents = 200000;
        for (const auto& info : explorers()) {
            SCOPED_TRACE(cp.path + " under " + info.name);
            ExploreResult r;
            EXPECT_NO_THROW(r = explore(*p, info.name, o));
            EXPECT_GT(r.traceCount(), 0U);
        }
    }
    EXPECT_EQ(loaded, static_cast<int>(programs.size()));
}

TEST(CFront, NaiveAndOptimalAgreeOnCorpusOutcomes) {
    for (const auto& cp : corpus()) {
        auto p = loadC(cp.path, cp.opts);
        ExploreOptions o;
        o.maxTraces = 20000;
        const auto naive = explore(*p, "naive", o);
        if (naive.budgetExceeded) continue;
        for (const char* name : {"source", "optimal", "optimal-await"}) {
            const auto r = explore(*p, name);
            EXPECT_EQ(r.outcomes, naive.outcomes) << cp.path << " " << name;
            EXPECT_EQ(r.errorSites, naive.errorSites) << cp.path << " " << name;
        }
    }
}

TEST(CFront, CompileErrorsAndUnsupportedCallsAreTypedErrors) {
    EXPECT_THROW((void)loadCSource("int main(void) { return nope; }", "bad.c", withHeader()), InputError);
    try {
        (void)loadCSource("#include <stdio.h>\nint main(void) {\n  return fopen(\"a\", \"r\") != 0;\n}\n",
                          "lib.c", withHeader());
        ADD_FAILURE() << "fopen accepted";
    } catch (const UnsupportedError& e) {
        EXPECT_NE(std::string(e.what()).find("lib.c:3"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("fopen"), std::string::npos) << e.what();
    }
}

TEST(CFront, SaveRestoreReproducesTheSameEvents) {
    auto p = loadCSource(kStoreBuffering, "sb.c", withHeader());
    auto e = p->newExecution();
    (void)e->reset();
    Snapshot s;
    e->save(s);
    std::vector<Event> first;
    for (int k = 0; k < 6 && e->enabled(0); ++k)
        for (const Event& ev : e->step(0)) first.push_back(ev);
    e->restore(s);
    std::vector<Event> again;
    for (int k = 0; k < 6 && e->enabled(0); ++k)
        for (const Event& ev : e->step(0)) again.push_back(ev);
    ASSERT_FALSE(first.empty());
    EXPECT_EQ(first, again);
}

}  // namespace
}  // namespace porlab
