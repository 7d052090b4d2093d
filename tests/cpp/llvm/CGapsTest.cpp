// SPDX-License-Identifier: MIT
// C front end: frees and frame ends as events on every location of the block, pthread_create's
// handle store as a write, memcpy from shared memory, and nondet inputs in the traces.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "porlab/explore/Explorer.hpp"
#include "porlab/explore/PartitionSizes.hpp"
#include "porlab/llvm/CProgram.hpp"

namespace porlab {
namespace {

std::vector<Trace> traces(const Program& p, const std::string& explorer, bool checkRaces = true) {
    ExploreOptions o;
    o.keepTraces = true;
    o.checkRaces = checkRaces;
    return explore(p, explorer, o).traces;
}

// main frees a pair while t1 reads its second field (offset 4).
const char* kFreeField = R"(
#include <pthread.h>
#include <stdlib.h>
struct pair { int first; int second; };
void *t1(void *arg) { struct pair *p = arg; return (void *)(long)p->second; }
int main(void) {
    struct pair *p = malloc(sizeof *p);
    p->first = 1;
    p->second = 2;
    pthread_t t;
    pthread_create(&t, 0, t1, p);
    free(p);
    return 0;
}
)";

TEST(CGaps, FreeKillsEveryLocationOfTheBlock) {
    auto p = loadCSource(kFreeField, "free_field.c");
    // The free is one event per location (two), each conflicting with accesses to it: every
    // explorer sees both orders of the read and the free of p->second.
    for (const char* e :
         {"naive", "source", "optimal", "optimal-await", "graph", "rf", "rvf", "lapor"}) {
        SCOPED_TRACE(e);
        const auto r = explore(*p, e);
        EXPECT_EQ(r.errors, 1U);
        ASSERT_EQ(r.errorSites.size(), 1U);
        EXPECT_EQ(r.errorSites[0].aux, static_cast<int>(FaultKind::UseAfterFree));
        EXPECT_EQ(r.complete, std::string(e) == "naive" ? 2U : 1U);
    }
    // main's free: two exchanges on two different locations, after main's two stores to them.
    const auto ts = traces(*p, "optimal");
    ASSERT_FALSE(ts.empty());
    std::vector<LocId> stored, freed;
    for (const Event& e : ts[0].events()) {
        if (e.thread != 0) continue;
        if (e.kind == EventKind::Write) stored.push_back(e.loc);
        if (e.kind == EventKind::Exchange) freed.push_back(e.loc);
    }
    EXPECT_EQ(freed, stored);
    ASSERT_EQ(freed.size(), 2U);
    EXPECT_NE(freed[0], freed[1]);
}

TEST(CGaps, DoubleFreeIsFoundByEveryExplorer) {
    const char* src = R"(
#include <pthread.h>
#include <stdlib.h>
void *t1(void *arg) { free(arg); return 0; }
int main(void) {
    long *b = malloc(2 * sizeof(long));
    b[1] = 3;
    pthread_t t;
    pthread_create(&t, 0, t1, b);
    free(b);
    return 0;
}
)";
    auto p = loadCSource(src, "double_free.c");
    for (const char* e : {"naive", "optimal", "graph", "rf", "rvf"}) {
        SCOPED_TRACE(e);
        const auto r = explore(*p, e);
        EXPECT_EQ(r.complete, 0U);
        EXPECT_GE(r.errors, 2U);
        ASSERT_EQ(r.errorSites.size(), 2U);  // whichever thread frees second
        for (const auto& s : r.errorSites)
            EXPECT_EQ(s.aux, static_cast<int>(FaultKind::DoubleFree));
    }
}

TEST(CGaps, EndOfAFrameWhoseLocalEscapedIsAnEvent) {
    const char* src = R"(
#include <pthread.h>
static void *worker(void *arg) { int *p = arg; return (void *)(long)*p; }
static void start(void) {
    int local = 5;
    pthread_t t;
    pthread_create(&t, 0, worker, &local);
}
int main(void) { start(); return 0; }
)";
    auto p = loadCSource(src, "dead_frame.c");
    // The worker reads local before start returns (fine) or after (a dead stack variable).
    for (const char* e : {"naive", "source", "optimal", "rf", "rvf"}) {
        SCOPED_TRACE(e);
        const auto r = explore(*p, e);
        EXPECT_EQ(r.complete, 1U);
        EXPECT_EQ(r.errors, 1U);
        ASSERT_EQ(r.errorSites.size(), 1U);
        EXPECT_EQ(r.errorSites[0].aux, static_cast<int>(FaultKind::InvalidPointer));
    }
}

TEST(CGaps, PthreadCreateStoresTheHandleWithAWrite) {
    const char* src = R"(
#include <pthread.h>
pthread_t ha;
int done;
void *a(void *arg) { done = 1; return 0; }
void *b(void *arg) { pthread_join(ha, 0); return (void *)(long)done; }
int main(void) {
    pthread_t hb;
    pthread_create(&ha, 0, a, 0);
    pthread_create(&hb, 0, b, 0);
    pthread_join(hb, 0);
    return 0;
}
)";
    auto p = loadCSource(src, "join_chain.c");
    // main: write ha := 1, then spawn 1; B joins A through the handle: no deadlock anywhere.
    for (const char* e : {"naive", "optimal", "graph", "rf", "rvf", "lapor"}) {
        SCOPED_TRACE(e);
        const auto r = explore(*p, e);
        EXPECT_EQ(r.errors, 0U);
        EXPECT_GE(r.complete, 1U);
    }
    const auto ts = traces(*p, "optimal");
    ASSERT_EQ(ts.size(), 1U);
    const auto& ev = ts[0].events();
    ASSERT_GE(ev.size(), 2U);
    EXPECT_EQ(ev[0].kind, EventKind::Write);
    EXPECT_EQ(ev[0].wval, 1);
    EXPECT_EQ(ev[1].kind, EventKind::Spawn);
    EXPECT_EQ(ev[1].aux, 1);
}

TEST(CGaps, MemcpyFromSharedMemoryReadsEachLocation) {
    const char* src = R"(
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <assert.h>
int g[2];
void *w(void *arg) { g[0] = 1; g[1] = 1; return 0; }
static int ordered(const int *l) { return l[0] >= l[1]; }
int main(void) {
    pthread_t t;
    pthread_create(&t, 0, w, 0);
    int l[2];
    memcpy(l, g, sizeof g);
    assert(ordered(l));
    pthread_join(t, 0);
    int *h = malloc(sizeof g);
    memcpy(h, g, sizeof g);
    assert(h[0] == 1 && h[1] == 1);
    return 0;
}
)";
    auto p = loadCSource(src, "memcpy_shared.c");
    // The copy's plain reads of g race with the writer's writes, on purpose (as in
    // tests/c/memcpy_shared.c): the interleavings are counted without the race check.
    EXPECT_GT(explore(*p, "naive").errors, 1U);
    ExploreOptions noRaces;
    noRaces.checkRaces = false;
    const auto n = explore(*p, "naive", noRaces);
    EXPECT_EQ(n.complete, 5U);  // 6 interleavings of main's two reads with the two writes
    EXPECT_EQ(n.errors, 1U);    // copy (0, 1)
    EXPECT_EQ(explore(*p, "optimal", noRaces).complete, 3U);
    // After the join: read g[0], write h[0], read g[1], write h[1] (values 1).
    const auto ts = traces(*p, "optimal", false);
    bool found = false;
    for (const auto& t : ts) {
        if (t.status() != TraceStatus::Complete) continue;
        std::vector<EventKind> tail;
        std::vector<Value> vals;
        for (const Event& e : t.events())
            if (e.thread == 0 && (e.kind == EventKind::Read || e.kind == EventKind::Write)) {
                tail.push_back(e.kind);
                vals.push_back(e.kind == EventKind::Read ? e.rval : e.wval);
            }
        // main: 2 reads (the local copy), then the copy to h, then 2 reads of h
        ASSERT_EQ(tail.size(), 8U);
        EXPECT_EQ(std::vector<EventKind>(tail.begin() + 2, tail.begin() + 6),
                  (std::vector<EventKind>{EventKind::Read, EventKind::Write, EventKind::Read,
                                          EventKind::Write}));
        EXPECT_EQ(std::vector<Value>(vals.begin() + 2, vals.end()), (std::vector<Value>(6, 1)));
        found = true;
    }
    EXPECT_TRUE(found);
}

TEST(CGaps, NondetInputsMakeDifferentClasses) {
    const char* src = R"(
#include <pthread.h>
#include <assert.h>
int __VERIFIER_nondet_int(void);
int x;
void *t1(void *arg) { x = __VERIFIER_nondet_int(); return 0; }
int main(void) {
    pthread_t t;
    pthread_create(&t, 0, t1, 0);
    pthread_join(t, 0);
    assert(x < 2);
    return 0;
}
)";
    CLoadOptions o;
    o.nondetDomain = std::make_pair(0LL, 2LL);
    auto p = loadCSource(src, "nondet.c", o);
    const auto sizes = partitionSizes(*p);
    EXPECT_EQ(sizes.interleavings.total(), 3U);
    for (int e = 0; e < kNumEquivalences; ++e) {
        EXPECT_EQ(sizes.classes[static_cast<std::size_t>(e)].complete, 2U);
        EXPECT_EQ(sizes.classes[static_cast<std::size_t>(e)].errors, 1U);
    }
    ClassCounter counter;
    ExploreOptions eo;
    eo.onTrace = [&](const Trace& t) { counter.add(t); };
    eo.keepTraces = true;
    const auto r = explore(*p, "optimal", eo);
    EXPECT_EQ(r.complete, 2U);
    EXPECT_EQ(counter.classes(Equivalence::Mazurkiewicz).complete, 2U);
    // The input is (thread 1, its first choice, value); value 0 (the domain's low end) is left out.
    std::vector<std::vector<Value>> inputs;
    for (const auto& t : r.traces) inputs.push_back(t.inputs());
    std::sort(inputs.begin(), inputs.end());
    EXPECT_EQ(inputs, (std::vector<std::vector<Value>>{{}, {1, 0, 1}, {1, 0, 2}}));
}

// A snapshot keeps what the new synchronisation objects and the address layout add to an
// execution: which read-write locks a thread holds for writing (its unlock is a writer's), and
// each heap block's base (its pointers decode through it). Restored into the same or another
// execution, the rest of the run emits the same events.
TEST(CGaps, SnapshotsKeepRwlockHoldersAndObjectBases) {
    const char* src = R"(
#include <pthread.h>
#include <stdlib.h>
pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
int x;
_Thread_local int tl = 3;
int main(void) {
    int *h = malloc(8);
    pthread_rwlock_wrlock(&rw);
    h[1] = 5;
    x = h[1] + tl;
    pthread_rwlock_unlock(&rw);
    pthread_rwlock_rdlock(&rw);
    x = 2;
    pthread_rwlock_unlock(&rw);
    free(h);
    return 0;
}
)";
    auto p = loadCSource(src, "snap.c");
    auto e = p->newExecution();
    (void)e->reset();
    // up to the write lock: lock of its mutex, await of no reader
    std::vector<Event> prefix;
    while (prefix.size() < 2 && e->enabled(0))
        for (const Event& ev : e->step(0)) prefix.push_back(ev);
    ASSERT_EQ(prefix.size(), 2U);
    EXPECT_EQ(prefix[0].kind, EventKind::Lock);
    EXPECT_EQ(prefix[1].kind, EventKind::Await);
    Snapshot s;
    e->save(s);
    auto rest = [](Execution& x) {
        std::vector<Event> out;
        while (x.status(0) == ThreadStatus::Ready && x.enabled(0))
            for (const Event& ev : x.step(0)) out.push_back(ev);
        return out;
    };
    const auto first = rest(*e);
    ASSERT_FALSE(first.empty());
    EXPECT_EQ(first.back().kind, EventKind::ThreadEnd);
    // the writer's unlock releases the mutex (an Unlock), the reader's decrements the count
    std::vector<EventKind> kinds;
    for (const Event& ev : first) kinds.push_back(ev.kind);
    EXPECT_EQ(std::count(kinds.begin(), kinds.end(), EventKind::Unlock),
              2);  // write unlock, rdlock's
    e->restore(s);
    EXPECT_EQ(rest(*e), first);
    auto other = p->newExecution();
    (void)other->reset();
    other->restore(s);
    EXPECT_EQ(rest(*other), first);
}

// One barrier of three threads, one round: each thread publishes, waits, and must see the other
// two slots; exactly one waiter gets PTHREAD_BARRIER_SERIAL_THREAD. The three arrivals
// (fetch-adds of one word) are the only racing events besides the publishing writes, which all
// come before: one class per order of the arrivals, 3! = 6. (naive has 100,440 interleavings.)
TEST(CGaps, ABarrierOfThreeThreadsReleasesAllAndElectsOne) {
    const char* src = R"(
#include <pthread.h>
#include <assert.h>
pthread_barrier_t b;
int x[3];
void *w(void *arg) {
    long i = (long)arg;
    x[i] = 1;
    int r = pthread_barrier_wait(&b);
    assert(x[(i + 1) % 3] == 1 && x[(i + 2) % 3] == 1);
    return (void *)(long)(r == PTHREAD_BARRIER_SERIAL_THREAD);
}
int main(void) {
    pthread_barrier_init(&b, 0, 3);
    pthread_t t1, t2;
    pthread_create(&t1, 0, w, (void *)1);
    pthread_create(&t2, 0, w, (void *)2);
    long s = (long)w(0);
    void *r1, *r2;
    pthread_join(t1, &r1);
    pthread_join(t2, &r2);
    assert(s + (long)r1 + (long)r2 == 1);
    return 0;
}
)";
    auto p = loadCSource(src, "barrier3.c");
    for (const char* e : {"optimal", "optimal-await", "graph", "rf", "lapor"}) {
        SCOPED_TRACE(e);
        const auto r = explore(*p, e);
        EXPECT_EQ(r.errors, 0U);
        EXPECT_EQ(r.blocked, 0U);
        EXPECT_EQ(r.complete, 6U);
    }
    // Without the count of 3 (a barrier of 2), the third waiter starts a second round no one
    // completes: blocked executions, and the two of the first round need not see the third slot.
    std::string two = src;
    two.replace(two.find("&b, 0, 3"), 8, "&b, 0, 2");
    auto q = loadCSource(two, "barrier2of3.c");
    const auto r = explore(*q, "optimal");
    EXPECT_GT(r.errors, 0U);
}

}  // namespace
}  // namespace porlab
