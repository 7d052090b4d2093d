// SPDX-License-Identifier: MIT
// The graph engine (graph, rf-graph, lapor) and rvf on C programs: error traces keep the faulting
// event (kind, code, position) as the DPOR explorers report it, also when the fault depends on
// the order of two writes (a write to a dead frame); lapor's treatment of pthread_mutex_trylock
// (a success is a lock, a failure observes the mutex held by an open critical section) and its
// choice of the next event while critical sections are open (lb-minimal first). Oracle: naive.
#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <sstream>
#include <string>

#include "llvm/CTestSupport.hpp"
#include "porlab/explore/Explorer.hpp"
#include "porlab/explore/PartitionSizes.hpp"
#include "porlab/llvm/CProgram.hpp"

namespace porlab {
namespace {

CLoadOptions options() { return testing::withPorlabHeader(); }

std::shared_ptr<Program> corpus(const std::string& name) {
    return loadC(std::string(PORLAB_SOURCE_DIR) + "/tests/c/" + name, options());
}

using Site = std::tuple<ThreadId, EventKind, std::int32_t, std::uint32_t>;

// The error sites of an explorer's error traces, read off the traces themselves: each error
// trace must end with its error event (nothing happens after the failure).
std::string errorTraces(const Program& p, const std::string& explorer, std::set<Site>& sites) {
    ExploreOptions o;
    std::ostringstream m;
    o.onTrace = [&](const Trace& t) {
        if (t.status() != TraceStatus::Error) return;
        if (t.size() == 0 || !isErrorKind(t[t.size() - 1].kind)) {
            m << " an error trace of " << t.size() << " events does not end with its error;";
            return;
        }
        const Event& e = t[t.size() - 1];
        sites.insert({e.thread, e.kind, e.aux, e.pos.line});
    };
    const auto r = explore(p, explorer, o);
    std::set<Site> reported;
    for (const auto& s : r.errorSites) reported.insert({s.thread, s.kind, s.aux, s.pos.line});
    if (reported != sites) m << " result error sites differ from the traces';";
    return m.str();
}

// lapor against naive: outcomes, error sites, and one complete trace per lock-aware class (with
// coherence = mo: per lock-aware-mo class). Without the data race check: these programs' plain
// accesses race on purpose, and lapor's race detection is best-effort (its classes merge lock
// orders, which are part of happens-before; docs/supported-c.md).
std::string checkLapor(const Program& p) {
    std::ostringstream m;
    ExploreOptions noRaces;
    noRaces.checkRaces = false;
    const auto naive = explore(p, "naive", noRaces);
    const auto sizes = partitionSizes(p, noRaces);
    for (const char* coherence : {"wb", "mo"}) {
        const Equivalence eq =
            std::string(coherence) == "mo" ? Equivalence::LockAwareMo : Equivalence::LockAware;
        ClassCounter counter;
        ExploreOptions o;
        o.checkRaces = false;
        o.params["coherence"] = coherence;
        o.onTrace = [&](const Trace& t) { counter.add(t); };
        const auto r = explore(p, "lapor", o);
        const auto want = sizes.classes[static_cast<int>(eq)];
        m << (r.outcomes != naive.outcomes ? std::string(" ") + coherence + ": outcomes differ;"
                                           : "");
        if (r.errorSites != naive.errorSites)
            m << " " << coherence << ": error sites " << r.errorSites.size() << " vs "
              << naive.errorSites.size() << ";";
        if (r.complete != want.complete)
            m << " " << coherence << ": complete " << r.complete << " vs " << want.complete
              << " classes;";
        if (counter.classes(eq).complete != r.complete)
            m << " " << coherence << ": repeated classes;";
        if (r.blocked != want.blocked)
            m << " " << coherence << ": blocked " << r.blocked << " vs " << want.blocked
              << " classes;";
    }
    return m.str();
}

TEST(GraphEngineOnC, ErrorTracesEndWithTheirFault) {
    // dead_frame.c: the worker's write faults only when it comes after the end of the frame it
    // writes to (co-after it): the error trace needs that frame end although the write does
    // not happen-after it. double_free.c: whichever free comes second faults.
    // write_after_free_*.c, write_after_frame_end.c: the same with a read before the write, the
    // free in the other thread, two writers.
    for (const char* file :
         {"dead_frame.c", "double_free.c", "deadlock_abba.c", "use_after_free_field.c",
          "cond_broadcast_bug.c", "null_deref.c", "write_after_free_read.c",
          "write_after_free_other.c", "write_after_free_two.c", "write_after_frame_end.c"}) {
        SCOPED_TRACE(file);
        const auto p = corpus(file);
        std::set<Site> want;
        ASSERT_EQ(errorTraces(*p, "optimal", want), "");
        std::set<Site> naive;
        ASSERT_EQ(errorTraces(*p, "naive", naive), "");
        ASSERT_EQ(want, naive);
        ASSERT_FALSE(want.empty());
        for (const char* e : {"graph", "rf-graph", "lapor"}) {
            SCOPED_TRACE(e);
            std::set<Site> got;
            EXPECT_EQ(errorTraces(*p, e, got), "");
            EXPECT_EQ(got, want);
        }
    }
}

TEST(GraphEngineOnC, BothDoubleFreesUnderEveryExplorer) {
    const auto p = corpus("double_free.c");
    std::set<Site> want;
    ASSERT_EQ(errorTraces(*p, "naive", want), "");
    ASSERT_EQ(want.size(), 2U);  // main's free and t1's free, whichever comes second
    for (const auto& info : explorers()) {
        SCOPED_TRACE(info.name);
        std::set<Site> got;
        EXPECT_EQ(errorTraces(*p, info.name, got), "");
        EXPECT_EQ(got, want);
    }
}

TEST(LaporOnC, WritesRacingWithAFree) {
    // A plain write faults when it comes after the free (or frame end) of its location: lapor
    // (wb) reported a graph only if its coherence was that of a canonical witness that could put
    // the write after the free, a faulting order, and lost the class where it precedes it.
    for (const char* file : {"write_after_free.c", "write_after_free_read.c",
                             "write_after_free_other.c", "write_after_free_two.c",
                             "write_after_free_po.c", "write_after_frame_end.c", "dead_frame.c"}) {
        SCOPED_TRACE(file);
        EXPECT_EQ(checkLapor(*corpus(file)), "");
    }
}

TEST(LaporOnC, TrylockSucceedsAsALockAndFailsInsideAnOpenSection) {
    // mutex_trylock.c: t1's trylock succeeds before or after main's section (one lock-aware
    // class: the order of critical sections is not part of it) or fails inside it.
    EXPECT_EQ(checkLapor(*corpus("mutex_trylock.c")), "");
    // A failed trylock is possible only while a section is open at that point: here t1 reads
    // x == 1 only after main's section is over, so its trylock cannot fail then ...
    const char* after = R"(
#include <pthread.h>
#include <assert.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x, busy;
void *t1(void *arg) {
    if (x == 1) {
        int r = pthread_mutex_trylock(&m);
        assert(r == 0);
        pthread_mutex_unlock(&m);
    } else if (pthread_mutex_trylock(&m) != 0) {
        busy = 1;
    } else {
        pthread_mutex_unlock(&m);
    }
    return 0;
}
int main(void) {
    pthread_t t;
    pthread_create(&t, 0, t1, 0);
    pthread_mutex_lock(&m);
    pthread_mutex_unlock(&m);
    x = 1;
    return 0;
}
)";
    const auto p = loadCSource(after, "after.c", options());
    EXPECT_EQ(checkLapor(*p), "");
    ExploreOptions noRaces;  // (x is plain: main's write races with the reads, on purpose)
    noRaces.checkRaces = false;
    const auto r = explore(*p, "lapor", noRaces);
    EXPECT_EQ(r.errors, 0U);
    // ... but it can fail when x is read before (busy = 1 is an outcome).
    EXPECT_GT(explore(*p, "naive", noRaces).outcomes.size(), 1U);
    // ... while written inside the section, x == 1 can be seen with the section still open.
    const char* inside = R"(
#include <pthread.h>
#include <assert.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x;
void *t1(void *arg) {
    if (x == 1) {
        int r = pthread_mutex_trylock(&m);
        assert(r == 0); // fails: main is still inside its section
        if (r == 0) pthread_mutex_unlock(&m);
    }
    return 0;
}
int main(void) {
    pthread_t t;
    pthread_create(&t, 0, t1, 0);
    pthread_mutex_lock(&m);
    x = 1;
    pthread_mutex_unlock(&m);
    return 0;
}
)";
    const auto q = loadCSource(inside, "inside.c", options());
    EXPECT_EQ(checkLapor(*q), "");
    EXPECT_GE(explore(*q, "lapor").errors, 1U);
}

TEST(LaporOnC, AFailedTrylockObservesOneSection) {
    // Two sections t1 can find open: the failed trylock lies in one or the other (it reads from
    // that section's lock), two lock-aware classes; a success is one more (sections unordered).
    const char* two = R"(
#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x;
void *t1(void *arg) {
    if (pthread_mutex_trylock(&m) == 0) pthread_mutex_unlock(&m);
    return 0;
}
void *t2(void *arg) {
    pthread_mutex_lock(&m);
    x = 2;
    pthread_mutex_unlock(&m);
    return 0;
}
int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, t1, 0);
    pthread_create(&b, 0, t2, 0);
    pthread_mutex_lock(&m);
    x = 1;
    pthread_mutex_unlock(&m);
    return 0;
}
)";
    const auto p = loadCSource(two, "two.c", options());
    EXPECT_EQ(checkLapor(*p), "");
    // x's last writer is not part of the class (wb): success + 2 failures.
    EXPECT_EQ(explore(*p, "lapor").complete, 3U);
}

TEST(LaporOnC, TrylockOfAMutexTheThreadHolds) {
    // A thread's own section counts too: trylock of a mutex it holds fails (EBUSY), and a
    // success needs the mutex free.
    const char* own = R"(
#include <pthread.h>
#include <assert.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x;
void *t1(void *arg) {
    pthread_mutex_lock(&m);
    int r = pthread_mutex_trylock(&m);
    x = r;
    pthread_mutex_unlock(&m);
    return 0;
}
int main(void) {
    pthread_t t;
    pthread_create(&t, 0, t1, 0);
    if (pthread_mutex_trylock(&m) == 0) {
        x = 7;
        pthread_mutex_unlock(&m);
    }
    pthread_join(t, 0);
    assert(x != 0);
    return 0;
}
)";
    const auto p = loadCSource(own, "own.c", options());
    EXPECT_EQ(checkLapor(*p), "");
    EXPECT_EQ(explore(*p, "lapor").errors, 0U);
}

TEST(LaporOnC, GeneratedTrylockPrograms) {
    // main (one fragment) and two threads (two fragments each), running fragments drawn
    // (seeded) from a set of lock, trylock (own mutex or another's, successful or not) and
    // plain accesses.
    const char* frags[] = {
        "pthread_mutex_lock(&m); x = K; pthread_mutex_unlock(&m);",
        "if (pthread_mutex_trylock(&m) == 0) { x = K; pthread_mutex_unlock(&m); } else { y = K; }",
        "if (x) { if (pthread_mutex_trylock(&m) == 0) pthread_mutex_unlock(&m); else y = K; }",
        "pthread_mutex_lock(&m); r = y; pthread_mutex_unlock(&m); x = r + K;",
        "pthread_mutex_lock(&n); if (pthread_mutex_trylock(&m) == 0) pthread_mutex_unlock(&m); "
        "else y = K; "
        "pthread_mutex_unlock(&n);",
        "pthread_mutex_lock(&m); if (pthread_mutex_trylock(&m) != 0) y = K; "
        "pthread_mutex_unlock(&m);",
        "if (pthread_mutex_trylock(&n) == 0) { r = x; y = r + K; pthread_mutex_unlock(&n); }",
        "y = K;",
    };
    const std::size_t nf = sizeof frags / sizeof frags[0];
    std::uint64_t seed = 12345;
    auto pick = [&] {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<std::size_t>((seed >> 33) % nf);
    };
    auto body = [&](int k, int fragments) {
        std::string b;
        for (int j = 0; j < fragments; ++j) {
            std::string f = frags[pick()];
            for (std::size_t at; (at = f.find('K')) != std::string::npos;)
                f.replace(at, 1, std::to_string(k * 10 + j + 1));
            b += "    " + f + "\n";
        }
        return b;
    };
    // Programs with more than 8000 interleavings are drawn but not checked: the oracle
    // (partitionSizes keys every interleaving) would take seconds each. A smaller sample when
    // PORLAB_RANDOM_PROGRAMS is set (the sanitizer job, where it is 20x slower).
    const bool small = std::getenv("PORLAB_RANDOM_PROGRAMS") != nullptr;
    const std::uint64_t cap = small ? 3000 : 8000;
    const int want = small ? 8 : 16;
    int checked = 0;
    for (int prog = 0; prog < 60 && checked < want; ++prog) {
        std::string src =
            "#include <pthread.h>\npthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER, "
            "n = PTHREAD_MUTEX_INITIALIZER;\nint x, y;\n";
        src += "void *t1(void *a) {\n    int r = 0; (void)r;\n" + body(1, 2) + "    return 0;\n}\n";
        src += "void *t2(void *a) {\n    int r = 0; (void)r;\n" + body(2, 2) + "    return 0;\n}\n";
        src +=
            "int main(void) {\n    int r = 0; (void)r;\n    pthread_t a, b;\n    "
            "pthread_create(&a, 0, t1, 0);\n"
            "    pthread_create(&b, 0, t2, 0);\n" +
            body(3, 1) + "    return 0;\n}\n";
        SCOPED_TRACE(src);
        const auto p = loadCSource(src, "gen.c", options());
        ExploreOptions noRaces;  // (as checkLapor: with the race check, most traces end early as
        noRaces.checkRaces = false;   // errors and the cap would let much larger programs through)
        noRaces.maxTraces = cap + 1;  // (a rejected program is not enumerated to its end)
        if (explore(*p, "naive", noRaces).budgetExceeded) continue;
        ++checked;
        EXPECT_EQ(checkLapor(*p), "");
    }
    EXPECT_EQ(checked, want);
}

TEST(LaporOnC, FindsTheLostWakeUpOfCondBroadcastBug) {
    // Extending a critical section that is lb-after another open one first loses executions
    // (LAPOR's nextEvent condition 4); here the one where a woken consumer finds its item taken.
    const auto p = corpus("cond_broadcast_bug.c");
    EXPECT_EQ(checkLapor(*p), "");
    EXPECT_GE(explore(*p, "lapor").errors, 1U);
    for (const char* file : {"cond_broadcast.c", "cond_signal.c", "producer_consumer.c",
                             "lapor_2rw_lock.c", "lapor_ww_rr_lock.c", "philosophers_deadlock.c"}) {
        SCOPED_TRACE(file);
        EXPECT_EQ(checkLapor(*corpus(file)), "");
    }
}

}  // namespace
}  // namespace porlab
