// SPDX-License-Identifier: MIT
// What the C front end tells a trace for people: the call stack of every event, pointers by the
// program's names, the assertion's text, frees as frees; and the error sites an exploration
// counts, with a trace each, merged over the runs of --nondet-domain.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "porlab/explore/Explorer.hpp"
#include "porlab/llvm/CProgram.hpp"

namespace porlab {
namespace {

std::vector<std::string> described(const Trace& t) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < t.size(); ++i) out.push_back(describe(t[i], t.info().get()));
    return out;
}

bool has(const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
}

// Pointers into globals named by debug info: a struct (the outermost part at an offset), its
// member, an array element; a pointer store through a helper two calls deep.
const char* kPointers = R"(
#include <assert.h>
#include <pthread.h>
struct pair { int a; int *p; };
struct pair g;
struct pair gs[2];
int arr[3];
int *q;
struct pair *pp;
int **pq;
void set(int *v) { q = v; }
void via(int *v) { set(v); }
void *t1(void *arg) {
    via(&arr[2]);
    pp = &gs[1];
    pq = &g.p;
    q = 0;
    return 0;
}
int main(void) {
    pthread_t t;
    pthread_create(&t, 0, t1, 0);
    pthread_join(t, 0);
    assert(q != 0);
    return 0;
}
)";

TEST(TraceDisplay, PointersAndCallStacksOfACProgram) {
    auto p = loadCSource(kPointers, "ptr.c");
    const auto r = explore(*p, "optimal-await");
    ASSERT_EQ(r.errors, 1U);
    const Trace& t = *r.firstError;
    const auto text = described(t);
    EXPECT_TRUE(has(text, "write q := &arr[2]"));
    EXPECT_TRUE(has(text, "write pp := &gs[1]"));
    EXPECT_TRUE(has(text, "write pq := &g.p"));
    EXPECT_TRUE(has(text, "write q := NULL"));
    EXPECT_TRUE(has(text, "read q -> NULL"));
    EXPECT_EQ(t.errorMessage(), "assertion `q != 0' failed");
    EXPECT_EQ(text.back(), "assertion `q != 0' failed");
    // The store in set: set <- via <- t1, each frame at its call.
    std::size_t i = 0;
    while (i < t.size() && text[i] != "write q := &arr[2]") ++i;
    ASSERT_LT(i, t.size());
    EXPECT_EQ(t.function(i), "set");
    EXPECT_EQ(t.stackText(i), "set <- via <- t1");
    EXPECT_EQ(t.stackText(i, 2), "set <- via <- ...");
    const auto st = t.stack(i);
    ASSERT_EQ(st.size(), 3U);
    EXPECT_EQ(t.info()->position(st[0].pos), "ptr.c:11");  // q = v
    EXPECT_EQ(t.info()->position(st[1].pos), "ptr.c:12");  // via's call of set
    EXPECT_EQ(t.info()->position(st[2].pos), "ptr.c:14");  // t1's call of via
    // The same stack interned once: every event of set in any trace has the same context.
    EXPECT_EQ(t.function(t.size() - 1), "main");
}

// Two assertions that fail under different inputs: one site each, counted over the runs of the
// nondet driver, each with the trace of its own input.
const char* kTwoInputs = R"(
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int v = __VERIFIER_nondet_int();
    assert(v != 1);
    assert(v != 2);
    return 0;
}
)";

TEST(TraceDisplay, ErrorSitesAreCountedOverNondetRuns) {
    CLoadOptions o;
    o.nondetDomain = std::make_pair(0LL, 3LL);
    auto p = loadCSource(kTwoInputs, "two.c", o);
    const auto r = explore(*p, "naive");
    EXPECT_EQ(r.errors, 2U);
    EXPECT_EQ(r.complete, 2U);  // inputs 0 and 3
    ASSERT_EQ(r.errorsBySite.size(), 2U);
    ASSERT_EQ(r.errorSites.size(), 2U);
    for (std::size_t k = 0; k < 2; ++k) {
        const auto& s = r.errorsBySite[k];
        EXPECT_EQ(s.site, r.errorSites[k]);
        EXPECT_EQ(s.traces, 1U);
        EXPECT_EQ(s.site.pos.line, 6U + k);
        EXPECT_EQ(s.first.errorMessage(),
                  k == 0 ? "assertion `v != 1' failed" : "assertion `v != 2' failed");
        // the trace of the input that fails there: (main, first call, value 1 or 2)
        EXPECT_EQ(s.first.inputs(), (std::vector<Value>{0, 0, static_cast<Value>(k + 1)}));
    }
}

// mergeResult adds the counts of a site and keeps the trace that came first.
TEST(TraceDisplay, MergeKeepsTheFirstTraceOfASite) {
    auto p = loadCSource(kTwoInputs, "two.c");  // the nondet call returns 0: no error
    ExploreResult a, b;
    ErrorSite s{0, EventKind::AssertFail, 0, {1, 6}};
    Event fail;
    fail.kind = EventKind::AssertFail;
    fail.aux = 0;
    a.errorsBySite.push_back({s, 2, Trace({fail}, TraceStatus::Error, p->info())});
    a.errorSites.push_back(s);
    Event other = fail;
    other.index = 7;
    b.errorsBySite.push_back({s, 3, Trace({other}, TraceStatus::Error, p->info())});
    ErrorSite s2{0, EventKind::AssertFail, 1, {1, 7}};
    b.errorsBySite.push_back({s2, 1, Trace({other}, TraceStatus::Error, p->info())});
    b.errorSites = {s, s2};
    mergeResult(a, std::move(b));
    ASSERT_EQ(a.errorsBySite.size(), 2U);
    EXPECT_EQ(a.errorsBySite[0].traces, 5U);
    EXPECT_EQ(a.errorsBySite[0].first[0].index, 0U);  // a's trace stays
    EXPECT_EQ(a.errorsBySite[1].traces, 1U);
    EXPECT_EQ(a.errorsBySite[1].first[0].index, 7U);
}

// reach_error() says so (when t1 reads the 7 main writes after starting it); a free is shown as
// a free of each location of the block.
const char* kReachFree = R"(
#include <stdlib.h>
#include <pthread.h>
void reach_error(void);
int *p;
void *t1(void *arg) { int *r = p; if (r && *r == 7) reach_error(); return 0; }
int main(void) {
    p = malloc(2 * sizeof(int)); p[0] = p[1] = 0;  /* (no uninitialised read) */
    pthread_t t;
    pthread_create(&t, 0, t1, 0);
    *p = 7;
    pthread_join(t, 0);
    free(p);
    return 0;
}
)";

TEST(TraceDisplay, ReachErrorAndFree) {
    auto p = loadCSource(kReachFree, "reach.c");
    ExploreOptions o;
    o.keepTraces = true;
    // p and *p race on purpose (t1 reads them unsynchronised): with the race check, the race is
    // the error; without it, reach_error.
    EXPECT_EQ(explore(*p, "optimal", o).firstError->errorMessage().rfind("fault: data race", 0),
              0U);
    o.checkRaces = false;
    const auto r = explore(*p, "optimal", o);
    ASSERT_EQ(r.errors, 1U);
    EXPECT_EQ(r.firstError->errorMessage(), "reach_error() called");
    bool freed = false;
    for (const auto& t : r.traces) {
        if (t.status() != TraceStatus::Complete) continue;
        const auto text = described(t);
        EXPECT_TRUE(has(text, "write p := malloc@main#0"));
        freed = freed || has(text, "free malloc@main#0");
        for (const auto& s : text) EXPECT_EQ(s.find("xchg"), std::string::npos) << s;
        const auto objs = t.objects();
        ASSERT_EQ(objs.size(), 1U);
        EXPECT_EQ(objs[0].name, "malloc@main#0");
        EXPECT_EQ(objs[0].size, 8U);
        EXPECT_EQ(objs[0].pos.line, 8U);
    }
    EXPECT_TRUE(freed);
}

}  // namespace
}  // namespace porlab
