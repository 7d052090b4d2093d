// SPDX-License-Identifier: MIT
// SAVER's dynamic part (loops = "saver"): purity checks and zne blocking in the graph engine,
// end to end (the Python tests compare outcomes with the oracle on many more programs; these
// run under the sanitizers).
#include <gtest/gtest.h>

#include <string>

#include "porlab/core/Errors.hpp"
#include "porlab/explore/Explorer.hpp"
#include "porlab/llvm/CProgram.hpp"

namespace porlab {
namespace {

// ZNE-OBS (saver-spinloops.txt §VI): the observer may see x flicker.
const char* kZneObs = R"(
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
atomic_int x;
void *inc(void *a) {
    while (1) { int v = atomic_fetch_add(&x, 1); if (v == 42) break; atomic_fetch_add(&x, -1); }
    return 0;
}
void *obs(void *a) {
    int b = atomic_load(&x); if (b) { int c = atomic_load(&x); assert(c); } return 0;
}
int main() {
    pthread_t t[2];
    pthread_create(&t[0], 0, inc, 0);
    pthread_create(&t[1], 0, obs, 0);
    pthread_join(t[0], 0);
    pthread_join(t[1], 0);
    return 0;
}
)";

// Treiber push (Fig. 4): failed iterations write only the unpublished node.
const char* kPush = R"(
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
struct node { int v; struct node *next; };
struct node *_Atomic top;
void *push(void *a) {
    struct node *n = malloc(sizeof *n);
    struct node *t;
    do { t = atomic_load(&top); n->next = t; } while (!atomic_compare_exchange_strong(&top, &t, n));
    return 0;
}
int main() {
    pthread_t h[2];
    for (int i = 0; i < 2; i++) pthread_create(&h[i], 0, push, 0);
    for (int i = 0; i < 2; i++) pthread_join(h[i], 0);
    return 0;
}
)";

std::shared_ptr<Program> load(const char* src, const std::string& loops, int unroll = 4) {
    CLoadOptions o;
    o.unroll = unroll;
    o.loops = loops;
    return loadCSource(src, "saver.c", o);
}

TEST(Saver, InstrumentsPurityChecksAndZne) {
    const std::string push = disassembleC(*load(kPush, "saver"));
    EXPECT_NE(push.find("__porlab_purity_check"), std::string::npos);
    EXPECT_NE(push.find("__porlab_iteration_begin"), std::string::npos);
    EXPECT_EQ(disassembleC(*load(kPush, "spin-assume")).find("__porlab_purity_check"),
              std::string::npos);
    // The zne loop gets no purity check (its decrement is annotated instead).
    EXPECT_EQ(disassembleC(*load(kZneObs, "saver")).find("__porlab_purity_check"),
              std::string::npos);
}

TEST(Saver, PurityCheckBlocksFailedPushes) {
    const ExploreResult plain = explore(*load(kPush, "spin-assume"), "optimal");
    for (const char* e : {"optimal", "graph"}) {
        const ExploreResult saver = explore(*load(kPush, "saver"), e);
        EXPECT_EQ(saver.complete, 2U) << e;  // one per order of the pushes
        EXPECT_LT(saver.complete, plain.complete) << e;
        EXPECT_EQ(saver.errors, 0U) << e;
    }
}

TEST(Saver, ZneObsFlickerIsFound) {
    for (const char* e : {"graph", "rf-graph", "lapor"}) {
        const ExploreResult r = explore(*load(kZneObs, "saver"), e);
        EXPECT_GT(r.errors, 0U) << e;
        EXPECT_GT(r.stats.at("zne_blocked"), 0.0) << e;
        EXPECT_GT(r.stats.at("zne_invalidated"), 0.0) << e;
    }
}

TEST(Saver, ZneOptionIsChecked) {
    ExploreOptions o;
    o.params["zne"] = "maybe";
    EXPECT_THROW((void)explore(*load(kZneObs, "saver"), "graph", o), InputError);
    o.params["zne"] = "off";
    const ExploreResult off = explore(*load(kZneObs, "saver"), "graph", o);
    EXPECT_EQ(off.stats.count("zne_blocked"), 0U);
    EXPECT_GT(off.errors, 0U);
}

}  // namespace
}  // namespace porlab
