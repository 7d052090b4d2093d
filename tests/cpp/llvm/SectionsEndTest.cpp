// SPDX-License-Identifier: MIT
// ProgramInfo::sectionsEnd (program/SectionsEnd.cpp): the static analysis that every critical
// section ends, on C programs, and lapor with and without it against the naive oracle.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "porlab/explore/Explorer.hpp"
#include "porlab/llvm/CProgram.hpp"

namespace porlab {
namespace {

// A program of two threads around one section body (BODY), with helpers it may call.
std::string twoThreads(const std::string& helpers, const std::string& body) {
    return R"(
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t n = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t ms[2];
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
int x, y, d = 1;
int *p = &x;
)" + helpers +
           R"(
void *t(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
)" + body + R"(
    pthread_mutex_unlock(&m);
    return 0;
}
int main(void) {
    pthread_t h;
    pthread_create(&h, 0, t, 0);
    pthread_mutex_lock(&m);
    y = 1;
    pthread_mutex_unlock(&m);
    pthread_join(h, 0);
    return 0;
}
)";
}

struct Case {
    const char* name;
    const char* helpers;
    const char* body;
    bool ends;
};

TEST(SectionsEnd, StaticAnalysisOfCriticalSections) {
    const std::vector<Case> cases = {
        {"straight", "", "x = x + y;", true},
        {"both branches go on", "", "if (y) x = 1; else x = 2;", true},
        {"a switch", "", "switch (y) { case 0: x = 1; break; case 1: x = 3; break; }", true},
        {"divided by a constant", "", "x = y / 3;", true},
        {"a straight helper", "static void inc(void) { x = x + 1; }", "inc();", true},
        {"an unlock on a branch", "", "if (y) { pthread_mutex_unlock(&m); return 0; } x = 1;",
         true},
        {"a return holding it", "", "if (y) return 0;", false},
        {"a loop", "", "for (int k = 0; k < y; k++) x = x + 1;", false},
        {"an assertion", "", "assert(x == 0);", false},
        {"a nested lock", "", "pthread_mutex_lock(&n); pthread_mutex_unlock(&n);", false},
        {"an access through a pointer", "", "*p = 2;", false},
        {"divided by a variable", "", "x = y / d;", false},
        {"a helper with a loop", "static void spin(void) { for (int k = 0; k < y; k++) x = k; }",
         "spin();", false},
        {"a helper that asserts", "static void chk(void) { assert(x == 0); }", "chk();", false},
        {"a condition variable", "", "while (!y) pthread_cond_wait(&cv, &m);", false},
        {"a thread exit", "", "if (y) pthread_exit(0);", false},
        {"an abort", "", "if (y) abort();", false},
        {"a trylock elsewhere",
         "static void tl(void) { if (pthread_mutex_trylock(&n) == 0) pthread_mutex_unlock(&n); }",
         "x = 1; tl();", false},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.name);
        auto prog = loadCSource(twoThreads(c.helpers, c.body), "sections.c");
        EXPECT_EQ(prog->info()->sectionsEnd, c.ends);
    }
}

TEST(SectionsEnd, MutexesKnownOnlyThroughPointersAreNotAnalysed) {
    // An element of a mutex array chosen at run time: the analysis cannot match its unlock.
    const char* src = R"(
#include <pthread.h>
pthread_mutex_t ms[2] = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER};
int x;
void *t(void *arg) {
    long k = (long)arg;
    pthread_mutex_lock(&ms[k]);
    x = 1;
    pthread_mutex_unlock(&ms[k]);
    return 0;
}
int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, t, (void *)0);
    pthread_create(&b, 0, t, (void *)1);
    return 0;
}
)";
    EXPECT_FALSE(loadCSource(src, "ptr_mutex.c")->info()->sectionsEnd);
}

TEST(SectionsEnd, AtomicFunctionsAreSections) {
    const std::string prefix = R"(
int x, y;
void __VERIFIER_assume(int);
)";
    const std::string rest = R"(
#include <pthread.h>
void *t(void *arg) { (void)arg; inc(); return 0; }
int main(void) {
    pthread_t h;
    pthread_create(&h, 0, t, 0);
    inc();
    return 0;
}
)";
    EXPECT_TRUE(loadCSource(prefix + "void __VERIFIER_atomic_inc(void) { x = x + 1; }\n" +
                                "#define inc __VERIFIER_atomic_inc\n" + rest,
                            "atomic_straight.c")
                    ->info()
                    ->sectionsEnd);
    EXPECT_FALSE(loadCSource(prefix +
                                 "void __VERIFIER_atomic_inc(void) { __VERIFIER_assume(y == 0); "
                                 "x = x + 1; }\n#define inc __VERIFIER_atomic_inc\n" +
                                 rest,
                             "atomic_assume.c")
                     ->info()
                     ->sectionsEnd);
}

// lapor, with the analysis and without it (ablation), against naive: outcomes, verdict, error
// sites and blocked traces agree; with every section ending, no lock is tried blocked for good.
void expectLaporAgrees(const Program& prog) {
    const auto oracle = explore(prog, "naive");
    for (const bool use : {true, false}) {
        SCOPED_TRACE(use ? "sections_end" : "no sections_end");
        ExploreOptions o;
        o.params["sections_end"] = use ? "1" : "0";
        const auto r = explore(prog, "lapor", o);
        EXPECT_EQ(r.outcomes, oracle.outcomes);
        EXPECT_EQ(r.errors > 0, oracle.errors > 0);
        EXPECT_EQ(r.errorSites.size(), oracle.errorSites.size());
        EXPECT_EQ(r.blocked > 0, oracle.blocked > 0);
        // Graphs whose locks stay blocked while no thread ends holding the mutex: the dead ends
        // the analysis saves (the ablation still explores them).
        if (prog.info()->sectionsEnd) {
            EXPECT_EQ(r.stats.at("lock_never_held") == 0, use);
        }
    }
}

TEST(SectionsEnd, LaporAgreesWithTheOracleEitherWay) {
    // Sections that end: fib-like increments under one mutex.
    expectLaporAgrees(*loadCSource(twoThreads("", "x = x + y; y = y + x;"), "ends.c"));
    // A thread that returns holding the mutex: main's lock stays blocked for good in the
    // classes where t's section comes first (a trace the analysis must not hide).
    auto holds = loadCSource(twoThreads("", "x = 1; if (!y) return 0;"), "holds.c");
    ASSERT_FALSE(holds->info()->sectionsEnd);
    expectLaporAgrees(*holds);
    // An assertion that fails inside a section: t stops holding m.
    auto fails = loadCSource(twoThreads("", "assert(y == 0);"), "fails.c");
    ASSERT_FALSE(fails->info()->sectionsEnd);
    expectLaporAgrees(*fails);
}

}  // namespace
}  // namespace porlab
