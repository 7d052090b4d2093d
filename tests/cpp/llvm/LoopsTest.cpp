// SPDX-License-Identifier: MIT
// Loop transformations of the C front end (CLoadOptions::loops, issue 6), end to end.
#include <gtest/gtest.h>

#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "porlab/core/Errors.hpp"
#include "porlab/explore/Explorer.hpp"
#include "porlab/llvm/CProgram.hpp"

namespace porlab {
namespace {

// Godot Fig. 2 (a): p polls x until q has written y and x.
const char* kPoll = R"(
#include <pthread.h>
#include <stdatomic.h>
atomic_int x; int y, b;
void *p(void *a) { while (atomic_load(&x) != 1) { } b = y; return 0; }
int main() {
    pthread_t t;
    pthread_create(&t, 0, p, 0);
    y = 42;
    atomic_store(&x, 1);
    pthread_join(t, 0);
    return 0;
}
)";

std::shared_ptr<Program> load(const std::string& loops, int unroll = 4) {
    CLoadOptions o;
    o.unroll = unroll;
    o.loops = loops;
    return loadCSource(kPoll, "poll.c", o);
}

TEST(CLoops, PollingLoopBecomesAssumeOrAwait) {
    EXPECT_EQ(disassembleC(*load("none")).find("__porlab_spin_assume"), std::string::npos);
    EXPECT_NE(disassembleC(*load("spin-assume")).find("__porlab_spin_assume"), std::string::npos);
    EXPECT_NE(disassembleC(*load("plp")).find("__porlab_spin_assume"), std::string::npos);
    const std::string awaited = disassembleC(*load("plp-await"));
    EXPECT_NE(awaited.find("__VERIFIER_load_await_"), std::string::npos);
    EXPECT_EQ(awaited.find("__porlab_spin_assume"), std::string::npos);
}

TEST(CLoops, BlockedExecutionsShrink) {
    const ExploreResult none = explore(*load("none"), "optimal-await");
    const ExploreResult plp = explore(*load("plp"), "optimal-await");
    const ExploreResult await = explore(*load("plp-await"), "optimal-await");
    // Fig. 2 (b): one complete execution and one assume-blocked one; (c): the await, no block.
    EXPECT_EQ(plp.complete, 1U);
    EXPECT_EQ(plp.blocked, 1U);
    EXPECT_EQ(await.complete, 1U);
    EXPECT_EQ(await.blocked, 0U);
    EXPECT_GT(none.complete + none.blocked, plp.complete + plp.blocked);
    EXPECT_FALSE(none.outcomes.empty());
}

// SAVER §IV, CAS-LOOP2: the exit test reads a register the body assigns, so no backedge is
// effect-free until the custom loop rotation turns the loop into CAS-LOOP's do-while.
const char* kCasLoop2 = R"(
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
atomic_int x;
void *inc(void *v) {
    (void)v;
    bool success = false;
    while (!success) {
        int a = atomic_load(&x);
        success = atomic_compare_exchange_strong(&x, &a, a + 1);
    }
    return 0;
}
int main() {
    pthread_t t[2];
    pthread_create(&t[0], 0, inc, 0);
    pthread_create(&t[1], 0, inc, 0);
    pthread_join(t[0], 0);
    pthread_join(t[1], 0);
    return atomic_load(&x);
}
)";

// SAVER §I/§IV, LOOP-PEEL: thread I polls in a do-while, thread II peels the first load
// (`b = x; while (b != 0) b = x;`), which bisimilar-node merging turns into thread I's loop.
const char* kLoopPeel = R"(
#include <pthread.h>
#include <stdatomic.h>
atomic_int x;
void *one(void *v) { (void)v; int a; do a = atomic_load(&x); while (a != 0); return 0; }
void *two(void *v) {
    (void)v; int b = atomic_load(&x); while (b != 0) b = atomic_load(&x); return 0;
}
int main() {
    pthread_t t[2];
    atomic_store(&x, 1);
    pthread_create(&t[0], 0, one, 0);
    pthread_create(&t[1], 0, two, 0);
    atomic_store(&x, 0);
    pthread_join(t[0], 0);
    pthread_join(t[1], 0);
    return 0;
}
)";

std::shared_ptr<Program> loadSrc(const char* src, const std::string& loops, int unroll = 4) {
    CLoadOptions o;
    o.unroll = unroll;
    o.loops = loops;
    return loadCSource(src, "saver.c", o);
}

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
    return n;
}

// The final states of complete executions: an outcome is memory, -1, then per thread its status
// and exit value (finished), its status alone (not started) or its frame (blocked).
std::set<std::vector<Value>> completeStates(const ExploreResult& r) {
    constexpr Value kNotStarted = 0, kFinished = 2;
    std::set<std::vector<Value>> out;
    for (const auto& o : r.outcomes)
        for (std::size_t k = o.size(); k-- > 0;) {
            if (o[k] != -1 || k + 1 >= o.size() || o[k + 1] != kFinished) continue;
            bool finished = true;
            for (std::size_t i = k + 1; i < o.size() && finished;) {
                if (o[i] == kNotStarted)
                    i += 1;
                else if (o[i] == kFinished && i + 1 < o.size())
                    i += 2;
                else
                    finished = false;
            }
            if (finished) {
                out.insert(o);
                break;
            }
        }
    return out;
}

// The part of a listing that belongs to function `name`.
std::string functionListing(const std::string& listing, const std::string& name) {
    const auto b = listing.find("function " + name);
    if (b == std::string::npos) return {};
    const auto e = listing.find("function ", b + 1);
    return listing.substr(b, e == std::string::npos ? std::string::npos : e - b);
}

TEST(CLoops, RotationMakesCasLoop2SpinAssumable) {
    const std::string spin = disassembleC(*loadSrc(kCasLoop2, "spin-assume"));
    const std::string saver = disassembleC(*loadSrc(kCasLoop2, "saver"));
    EXPECT_EQ(count(functionListing(spin, "inc"), "__porlab_spin_assume"), 0U);
    EXPECT_GE(count(functionListing(saver, "inc"), "__porlab_spin_assume"), 1U);
    for (const char* explorer : {"optimal", "graph"}) {
        const ExploreResult none = explore(*loadSrc(kCasLoop2, "none"), explorer);
        const ExploreResult sa = explore(*loadSrc(kCasLoop2, "spin-assume"), explorer);
        const ExploreResult sv = explore(*loadSrc(kCasLoop2, "saver"), explorer);
        EXPECT_EQ(sa.complete, none.complete) << explorer;
        // Only the two orders of the successful CASes stay complete; a failing CAS blocks.
        EXPECT_EQ(sv.complete, 2U) << explorer;
        EXPECT_LT(sv.complete, none.complete) << explorer;
        EXPECT_EQ(sv.blocked, 2U) << explorer;  // one per thread: its CAS failed once
        EXPECT_EQ(completeStates(sv), completeStates(none)) << explorer;
        EXPECT_FALSE(completeStates(sv).empty());
    }
}

TEST(CLoops, BisimilarityMakesLoopPeelSpinAssumable) {
    const std::string spin = disassembleC(*loadSrc(kLoopPeel, "spin-assume"));
    const std::string saver = disassembleC(*loadSrc(kLoopPeel, "saver"));
    EXPECT_EQ(count(functionListing(spin, "two"), "__porlab_spin_assume"), 0U);
    EXPECT_GE(count(functionListing(saver, "two"), "__porlab_spin_assume"), 1U);
    // One load of x left in thread II, as in thread I.
    EXPECT_EQ(count(functionListing(saver, "two"), "load"),
              count(functionListing(saver, "one"), "load"));
    for (const char* explorer : {"optimal", "graph"}) {
        const ExploreResult none = explore(*loadSrc(kLoopPeel, "none"), explorer);
        const ExploreResult sa = explore(*loadSrc(kLoopPeel, "spin-assume"), explorer);
        const ExploreResult sv = explore(*loadSrc(kLoopPeel, "saver"), explorer);
        EXPECT_LT(sv.complete + sv.blocked, sa.complete + sa.blocked) << explorer;
        EXPECT_LT(sv.complete, sa.complete) << explorer;
        EXPECT_FALSE(sv.outcomes.empty());
    }
}

// SAVER §VII: merging the peeled `b = x` with the loop's leaves the counter's phi non-unified;
// it moves to the merged header, so the result is valid SSA and counts the same iterations.
const char* kMovedPhi = R"(
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
atomic_int x, y;
void *reader(void *v) {
    (void)v;
    int a = 0;
    int b = atomic_load(&x);
    while (b != 0) {
        a = a + 1;
        b = atomic_load(&x);
    }
    atomic_store(&y, a);
    assert(a != 2);
    return 0;
}
int main() {
    pthread_t t;
    atomic_store(&x, 2);
    pthread_create(&t, 0, reader, 0);
    atomic_store(&x, 1);
    atomic_store(&x, 0);
    pthread_join(t, 0);
    return 0;
}
)";

TEST(CLoops, BisimilarityMovesNonUnifiedPhis) {
    const std::string saver = disassembleC(*loadSrc(kMovedPhi, "saver", 5));
    EXPECT_EQ(count(functionListing(saver, "reader"), "load"), 1U);  // the peeled copy is gone
    const ExploreResult none = explore(*loadSrc(kMovedPhi, "none", 5), "naive");
    const ExploreResult sv = explore(*loadSrc(kMovedPhi, "saver", 5), "naive");
    EXPECT_EQ(completeStates(sv), completeStates(none));
    // y = a = the number of non-zero reads, at most 4 under the bound (5 visits of the header):
    // 0, 1, 3 or 4 (2 fails).
    EXPECT_EQ(completeStates(none).size(), 4U);
    EXPECT_EQ(sv.errorSites, none.errorSites);
    EXPECT_EQ(none.errorSites.size(), 1U);
}

// --unroll N counts visits of a loop header, as Nidhugg's and GenMC's -unroll=N: a loop of three
// iterations visits its header four times (the fourth visit exits), so it needs unroll 4.
TEST(CLoops, UnrollCountsHeaderVisits) {
    const char* src = R"(
int x;
int main() { for (int i = 0; i < 3; i++) x = x + 1; return 0; }
)";
    for (int unroll : {3, 4}) {
        CLoadOptions o;
        o.unroll = unroll;
        o.loops = "none";
        const ExploreResult r = explore(*loadCSource(src, "for.c", o), "naive");
        EXPECT_EQ(r.complete, unroll == 4 ? 1U : 0U) << unroll;
        EXPECT_EQ(r.blocked, unroll == 4 ? 0U : 1U) << unroll;
    }
    for (int bad : {0, -2}) {
        CLoadOptions o;
        o.unroll = bad;
        EXPECT_THROW((void)loadCSource(src, "for.c", o), InputError) << bad;
    }
}

// Blocked executions carry their cause, and the reductions' markers (and the livelock's) the
// Event::index of the thread's first event of the blocked iteration: p polls x, which nobody
// sets; main blocks on its own assume.
const char* kCauses = R"(
#include <pthread.h>
#include <stdatomic.h>
void __VERIFIER_assume(int);
atomic_int x, y;
void *p(void *a) { while (atomic_load(&x) != 1) { } return 0; }
int main() {
    pthread_t t;
    pthread_create(&t, 0, p, 0);
    __VERIFIER_assume(atomic_load(&y) == 1);
    return 0;
}
)";

// The AssumeBlock markers of the traces of `r`, as (thread, cause, index, operand).
std::set<std::tuple<ThreadId, std::string, std::uint32_t, Value>> blockMarkers(
    const ExploreResult& r) {
    std::set<std::tuple<ThreadId, std::string, std::uint32_t, Value>> out;
    for (const Trace& t : r.traces)
        for (const Event& e : t.events())
            if (e.kind == EventKind::AssumeBlock)
                out.emplace(e.thread, std::string(kBlockCauseNames[e.aux]), e.index, e.operand);
    return out;
}

TEST(CLoops, BlockCausesAndIterationStarts) {
    ExploreOptions keep;
    keep.keepTraces = true;
    auto run = [&](const std::string& loops, std::optional<int> unroll) {
        CLoadOptions o;
        o.loops = loops;
        o.unroll = unroll;
        return blockMarkers(explore(*loadCSource(kCauses, "causes.c", o), "optimal", keep));
    };
    using M = std::tuple<ThreadId, std::string, std::uint32_t, Value>;
    // main: spawn (0), read y (1), blocked by its own assume (2). p: PLP's assume blocks the
    // first iteration, whose first event is the read at index 0.
    EXPECT_EQ(run("plp", 3), (std::set<M>{{0, "assume", 2, -1}, {1, "spin-loop", 1, 0}}));
    // The program as written, three visits of the header: the third jump back blocks, in the
    // iteration that began with the read at index 2.
    EXPECT_EQ(run("none", 3), (std::set<M>{{0, "assume", 2, -1}, {1, "loop-bound", 3, 2}}));
    // No bound: the check runs every 8th jump back (CProgram.cpp, kLivelockPeriod). main moved
    // (read y) while p ran its first iterations; at the 16th jump back nothing else can run and
    // nothing changed since the 8th: p's state is recorded, and found again at the 24th, a
    // livelock, named by the iteration that began with the read at index 16.
    EXPECT_EQ(run("none", std::nullopt),
              (std::set<M>{{0, "assume", 2, -1}, {1, "livelock", 24, 16}}));
}

// The livelock check is exact: while another thread can still run, the loop goes on. Here the
// writer runs once main spins (it is spawned first and only then ready), so every execution ends
// complete or (the writer never scheduled before the cut) cut, never blocked as a livelock.
TEST(CLoops, NoLivelockWhileAnotherThreadCanRun) {
    const char* src = R"(
#include <pthread.h>
#include <stdatomic.h>
atomic_int x;
void *w(void *a) { atomic_store(&x, 1); return 0; }
int main() {
    pthread_t t;
    pthread_create(&t, 0, w, 0);
    while (atomic_load(&x) != 1) { }
    pthread_join(t, 0);
    return 0;
}
)";
    CLoadOptions o;
    o.loops = "none";
    o.maxExecutionEvents = 20;
    ExploreOptions keep;
    keep.keepTraces = true;
    const ExploreResult r = explore(*loadCSource(src, "nolive.c", o), "optimal", keep);
    EXPECT_GT(r.complete, 0U);
    for (const auto& [t, cause, index, operand] : blockMarkers(r))
        EXPECT_EQ(cause, "execution-cut");
    // The cut's warning names the loop and the options that help.
    bool named = false;
    const auto prog = loadCSource(src, "nolive.c", o);
    (void)explore(*prog, "optimal");
    for (const std::string& w : cProgramWarnings(*prog))
        named = named || (w.find("looping at nolive.c:9") != std::string::npos &&
                          w.find("--unroll") != std::string::npos &&
                          w.find("drop --loops none") != std::string::npos);
    EXPECT_TRUE(named);
}

TEST(CLoops, UnknownModeIsAnInputError) { EXPECT_THROW((void)load("rotate"), InputError); }

}  // namespace
}  // namespace porlab
