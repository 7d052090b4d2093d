// SPDX-License-Identifier: MIT
// The C front end end to end: C source → clang → lowering → interpreter → explorers.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>

#include "llvm/CTestSupport.hpp"
#include "porlab/core/Errors.hpp"
#include "porlab/explore/Explorer.hpp"
#include "porlab/llvm/CProgram.hpp"

namespace porlab {
namespace {

using testing::withPorlabHeader;

ExploreResult run(const std::string& src, const std::string& explorer = "naive",
                  CLoadOptions o = withPorlabHeader()) {
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
    // The litmus test's plain accesses race on purpose: with the race check (the default) every
    // trace is an error trace; the interleavings are counted without it.
    auto p = loadCSource(kStoreBuffering, "test.c", withPorlabHeader());
    EXPECT_GT(explore(*p, "naive").errors, 0U);
    ExploreOptions noRaces;
    noRaces.checkRaces = false;
    auto r = explore(*p, "naive", noRaces);
    EXPECT_EQ(r.errors, 0U);
    EXPECT_GT(r.complete, 1U);
    // x=1;a=y || y=1;b=x: under SC three outcomes of (a, b): (0,1), (1,0), (1,1).
    auto o = explore(*p, "optimal", noRaces);
    EXPECT_EQ(o.errors, 0U);
    EXPECT_EQ(o.complete, 3U);  // Wx<Rx and Wy<Ry orders, one of the four is cyclic
}

// t1: lock a; lock b   main: lock b; lock a  (ABBA). Two complete Mazurkiewicz classes (one
// thread's critical sections before the other's) and one deadlock: main holds b, t1 holds a.
const char* kAbba = R"(
#include <pthread.h>
pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
void *t1(void *arg) {
    pthread_mutex_lock(&a);
    pthread_mutex_lock(&b);
    pthread_mutex_unlock(&b);
    pthread_mutex_unlock(&a);
    return 0;
}
int main() {
    pthread_t t;
    pthread_create(&t, 0, t1, 0);
    pthread_mutex_lock(&b);
    pthread_mutex_lock(&a);
    pthread_mutex_unlock(&a);
    pthread_mutex_unlock(&b);
    return 0;
}
)";

TEST(CFront, DeadlockIsAnErrorTraceUnderEveryExplorer) {
    auto p = loadCSource(kAbba, "abba.c", withPorlabHeader());
    ASSERT_TRUE(p->info()->deadlockIsError);
    const auto naive = explore(*p, "naive");
    EXPECT_EQ(naive.complete, 4U);  // 2 complete classes: lock/unlock pairs of one thread first
    EXPECT_EQ(naive.errors, 2U);    // the deadlock, reached by two interleavings of the spawn
    EXPECT_EQ(naive.blocked, 0U);
    // The site: the lowest thread waiting on a lock (main, at its `lock a`, line 15).
    ASSERT_EQ(naive.errorSites.size(), 1U);
    EXPECT_EQ(naive.errorSites[0].thread, 0);
    EXPECT_EQ(naive.errorSites[0].kind, EventKind::Fault);
    EXPECT_EQ(naive.errorSites[0].aux, static_cast<int>(FaultKind::Deadlock));
    EXPECT_EQ(naive.errorSites[0].pos.line, 15U);
    ASSERT_TRUE(naive.firstError);
    const Event& last = naive.firstError->events().back();
    EXPECT_EQ(last.kind, EventKind::Fault);
    EXPECT_EQ(last.aux, static_cast<int>(FaultKind::Deadlock));
    for (const auto& info : explorers()) {
        SCOPED_TRACE(info.name);
        const auto r = explore(*p, info.name);
        EXPECT_EQ(r.errorSites, naive.errorSites);
        // rf and rvf also record outcomes of executions they do not report (bypassing the
        // Reporter), so a deadlocked state shows up among their outcomes; the others must agree.
        if (info.name != "rf" && info.name != "rvf") {
            EXPECT_EQ(r.outcomes, naive.outcomes);
        }
        EXPECT_GE(r.errors, 1U);
        EXPECT_EQ(r.blocked, 0U);
        if (info.optimal && info.equivalence == "mazurkiewicz") {
            EXPECT_EQ(r.complete, 2U);  // no class lost beyond the deadlock
            EXPECT_EQ(r.errors, 1U);
        }
    }
    // With the option, the deadlock is a blocked trace (as builder programs count it).
    CLoadOptions o = withPorlabHeader();
    o.deadlockIsError = false;
    auto q = loadCSource(kAbba, "abba.c", o);
    for (const char* name : {"naive", "optimal", "optimal-await", "source"}) {
        SCOPED_TRACE(name);
        const auto r = explore(*q, name);
        EXPECT_EQ(r.errors, 0U);
        EXPECT_GE(r.blocked, 1U);
        EXPECT_TRUE(r.errorSites.empty());
    }
    EXPECT_EQ(explore(*q, "optimal").complete, 2U);
    EXPECT_EQ(explore(*q, "optimal").blocked, 1U);
}

TEST(CFront, JoinCycleIsADeadlockButANeverPassingAwaitIsBlocked) {
    // main joins t1 while t1 joins main: a join cycle.
    const char* joins = R"(
#include <pthread.h>
pthread_t m;
void *t1(void *arg) { pthread_join(m, 0); return 0; }
int main() {
    pthread_t t;
    m = pthread_self();
    pthread_create(&t, 0, t1, 0);
    pthread_join(t, 0);
    return 0;
}
)";
    const auto r = run(joins, "optimal-await");
    EXPECT_EQ(r.complete, 0U);
    ASSERT_EQ(r.errorSites.size(), 1U);
    EXPECT_EQ(r.errorSites[0].aux, static_cast<int>(FaultKind::Deadlock));
    // An await that never passes is not a lock/join cycle: blocked.
    const char* await = R"(
#include <pthread.h>
#include <porlab.h>
int x;
pthread_mutex_t l = PTHREAD_MUTEX_INITIALIZER;
void *t1(void *arg) {
    pthread_mutex_lock(&l); porlab_await_eq(&x, 1); pthread_mutex_unlock(&l); return 0;
}
int main() {
    pthread_t t;
    pthread_create(&t, 0, t1, 0);
    pthread_mutex_lock(&l);
    pthread_mutex_unlock(&l);
    return 0;
}
)";
    for (const char* name : {"naive", "optimal-await"}) {
        SCOPED_TRACE(name);
        const auto b = run(await, name);
        EXPECT_EQ(b.errors, 0U);
        EXPECT_GE(b.blocked, 2U);  // t1 waits on x, main on the lock (or main done first)
    }
}

// A thread with one long execution: explorers recurse once per event, so this needs the big
// explorer stack of porlab::explore().
const char* kLong = R"(
#include <pthread.h>
int x, done;
void *worker(void *arg) {
    for (int i = 0; i < N; i++) x = i;
    return 0;
}
int main() {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_join(t, 0);
    done = x;
    return 0;
}
)";

TEST(CFront, LongExecutionsRunOnTheExplorerStack) {
    CLoadOptions o = withPorlabHeader();
    o.defines.emplace_back("N", "20000");
    auto p = loadCSource(kLong, "long.c", o);
    for (const char* name : {"naive", "optimal-await", "optimal", "source"}) {
        SCOPED_TRACE(name);
        const auto r = explore(*p, name);
        EXPECT_EQ(r.complete, 1U);
        EXPECT_EQ(r.blocked, 0U);
        EXPECT_GE(r.events, 20003U);  // spawn, 20000 writes, join, read x, write done
    }
    // Beyond the default cut (100000 events) the execution is blocked, with a warning.
    CLoadOptions big = withPorlabHeader();
    big.defines.emplace_back("N", "150000");
    auto q = loadCSource(kLong, "long.c", big);
    const auto r = explore(*q, "optimal-await");
    EXPECT_EQ(r.complete, 0U);
    EXPECT_EQ(r.blocked, 1U);
    const auto w = cProgramWarnings(*q);
    EXPECT_TRUE(std::any_of(w.begin(), w.end(), [](const std::string& s) {
        return s.find("100000 events") != std::string::npos;
    }));
}

// Choice points: main's 1st nondet (a), t1's 1st (x), main's 2nd (b, only reached when a == 1).
// Over 0..2: a = 0 or 2 give 3 executions each (x), a = 1 gives 3 * 3 (x, b): 15 executions, one
// per input (the threads are ordered by the join), one of them failing (a = 2, x = 2, b unused).
const char* kNondet = R"(
#include <pthread.h>
#include <assert.h>
int __VERIFIER_nondet_int(void);
int x;
void *t1(void *arg) { x = __VERIFIER_nondet_int(); return 0; }
int main() {
    int a = __VERIFIER_nondet_int();
    pthread_t t;
    pthread_create(&t, 0, t1, 0);
    pthread_join(t, 0);
    int b = 0;
    if (a == 1) b = __VERIFIER_nondet_int();
    assert(!(a == 2 && x == 2 && b == 0));
    return 0;
}
)";

TEST(CFront, NondetDomainExploresEveryInputOnce) {
    CLoadOptions o = withPorlabHeader();
    o.nondetDomain = std::make_pair(0LL, 2LL);
    auto p = loadCSource(kNondet, "nondet.c", o);
    for (const char* name : {"naive", "optimal", "optimal-await", "source"}) {
        SCOPED_TRACE(name);
        ExploreOptions eo;
        eo.keepTraces = true;
        const auto r = explore(*p, name, eo);
        EXPECT_EQ(r.complete, 14U);
        EXPECT_EQ(r.errors, 1U);
        EXPECT_EQ(r.blocked, 0U);
        EXPECT_EQ(r.outcomes.size(), 3U);  // final states differ by x only (a, b are registers)
        ASSERT_EQ(r.errorSites.size(), 1U);
        EXPECT_EQ(r.errorSites[0].kind, EventKind::AssertFail);
        EXPECT_EQ(r.stats.at("nondet_points"), 3.0);
        EXPECT_EQ(r.stats.at("nondet_runs"), 27.0);  // 3^3 assignments, 12 of them report nothing
        // x's value is the write of t1: every value of the domain is seen.
        std::set<Value> xs;
        for (const auto& t : r.traces)
            for (const Event& e : t.events())
                if (e.kind == EventKind::Write && e.thread == 1) xs.insert(e.wval);
        EXPECT_EQ(xs, (std::set<Value>{0, 1, 2}));
    }
    // Budgets hold over the whole drive.
    ExploreOptions small;
    small.maxTraces = 4;
    const auto b = explore(*p, "optimal", small);
    EXPECT_TRUE(b.budgetExceeded);
    EXPECT_EQ(b.traceCount(), 4U);
    // Without a domain every nondet call returns 0: one execution.
    auto q = loadCSource(kNondet, "nondet.c", withPorlabHeader());
    const auto r0 = explore(*q, "optimal");
    EXPECT_EQ(r0.complete, 1U);
    EXPECT_EQ(r0.errors, 0U);
    CLoadOptions bad = withPorlabHeader();
    bad.nondetDomain = std::make_pair(3LL, 1LL);
    EXPECT_THROW((void)loadCSource(kNondet, "nondet.c", bad), InputError);
}

TEST(CFront, NondetDomainAgreesWithNaiveOnARace) {
    // Both threads write a nondet value into x; main reads x after the join of t1 only.
    const char* src = R"(
#include <pthread.h>
#include <assert.h>
int __VERIFIER_nondet_int(void);
int x;
void *t1(void *arg) { x = __VERIFIER_nondet_int(); return 0; }
int main() {
    pthread_t t;
    pthread_create(&t, 0, t1, 0);
    x = __VERIFIER_nondet_int();
    int v = x;
    assert(v != 3);
    pthread_join(t, 0);
    return 0;
}
)";
    CLoadOptions o = withPorlabHeader();
    o.nondetDomain = std::make_pair(2LL, 3LL);
    auto p = loadCSource(src, "race.c", o);
    const auto naive = explore(*p, "naive");
    EXPECT_GT(naive.errors, 0U);
    for (const char* name : {"optimal", "optimal-await", "source"}) {
        SCOPED_TRACE(name);
        const auto r = explore(*p, name);
        EXPECT_EQ(r.outcomes, naive.outcomes);
        EXPECT_EQ(r.errorSites, naive.errorSites);
    }
    // optimal: per input (4 of them) the Mazurkiewicz classes of  t1: Wx || main: Wx Rx  are 3.
    const auto opt = explore(*p, "optimal");
    EXPECT_EQ(opt.complete + opt.errors, 12U);
}

TEST(CFront, ThirtyTwoBitTargets) {
    // Pointers in 4-byte memory: a heap pointer published through a global, a pointer to a
    // private stack variable stored in the heap and read back. No system header (no 32-bit libc
    // headers needed): declarations as in SV-COMP's preprocessed .i files.
    const char* src = R"(
typedef unsigned long pthread_t;
int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
int pthread_join(pthread_t, void **);
void *malloc(unsigned int);
void reach_error(void);
#define assert(c) do { if (!(c)) reach_error(); } while (0)
struct node { long v; struct node *next; };
struct node *head;
void *reader(void *arg) {
    struct node *n = head;
    if (n) assert(n->v == 7 && n->next == 0);
    return 0;
}
int main() {
    assert(sizeof(void *) == 4 && sizeof(long) == 4);
    int local = 5;
    int **box = malloc(sizeof(int *));
    *box = &local;
    assert(**box == 5);
    pthread_t t;
    pthread_create(&t, 0, reader, 0);
    struct node *n = malloc(sizeof *n);
    n->v = 7;
    n->next = 0;
    head = n;
    pthread_join(t, 0);
    return 0;
}
)";
    CLoadOptions o = withPorlabHeader();
    o.clangArgs = {"-m32", "-fgnu89-inline"};
    auto p = loadCSource(src, "m32.c", o);
    // (head is plain: the reader's read races with main's write, which is not the point here)
    ExploreOptions noRaces;
    noRaces.checkRaces = false;
    const auto naive = explore(*p, "naive", noRaces);
    EXPECT_EQ(naive.errors, 0U) << (naive.firstError ? naive.firstError->toString() : "");
    EXPECT_GT(naive.complete, 0U);
    const auto r = explore(*p, "optimal", noRaces);
    EXPECT_EQ(r.errors, 0U);
    EXPECT_EQ(r.outcomes, naive.outcomes);
    EXPECT_EQ(r.complete, 2U);  // the reader's read of head before or after its write
}

}  // namespace
}  // namespace porlab

// ---- every C program of the corpus, under every explorer, with budgets
// --------------------------- Run in the sanitizer build (make test-sanitize): no input may crash
// porlab. Programs that are unsupported must say so with an UnsupportedError / InputError, never a
// crash.

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
            CorpusProgram p{f.path().string(), withPorlabHeader()};
            std::smatch m;
            if (std::regex_search(text, m, std::regex(R"(args:([^\n]*))"))) {
                std::istringstream args(m[1].str());
                std::string a;
                bool clang = false;  // after "--": clang's own flags
                while (args >> a) {
                    if (clang)
                        p.opts.clangArgs.push_back(a);
                    else if (a == "--")
                        clang = true;
                    else if (a == "--unroll" && args >> a)
                        p.opts.unroll = std::stoi(a);
                    else if (a == "--max-threads" && args >> a)
                        p.opts.maxThreads = std::stoi(a);
                    else if (a == "--max-locations" && args >> a)
                        p.opts.maxDynamicLocations = std::stoi(a);
                    else if (a == "--loops" && args >> a)
                        p.opts.loops = a;
                    else if (a == "--deadlock-blocked")
                        p.opts.deadlockIsError = false;
                    else if (a.rfind("-D", 0) == 0) {
                        const auto eq = a.find('=');
                        p.opts.defines.emplace_back(
                            a.substr(2, eq == std::string::npos ? std::string::npos : eq - 2),
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
    ASSERT_GE(programs.size(), 60u) << "the C corpus (tests/c) is missing";
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
            // A plain write that faults because its frame ended (its block was freed) first,
            // performed before the reads-from explorers knew the kill was coming: they say so
            // (tests/python/test_c_corpus.py, UNSUPPORTED).
            const auto file = std::filesystem::path(cp.path).filename().string();
            // ... and rf and lapor refuse programs that destroy a mutex (refuseMutexDestroy).
            const bool destroys = p->info()->mutexDestroy.line != 0;
            if (((file == "exit_frame.c" || file == "exit_frame_abort.c" ||
                  file == "write_after_free_other.c") &&
                 (info.name == "rf" || info.name == "rvf")) ||
                (destroys && (info.name == "rf" || info.name == "lapor"))) {
                try {
                    (void)explore(*p, info.name, o);
                    ADD_FAILURE() << "no UnsupportedError";
                } catch (const UnsupportedError& e) {
                    EXPECT_NE(
                        std::string(e.what()).find(
                            "program '" + std::filesystem::path(cp.path).stem().string() + "'"),
                        std::string::npos)
                        << e.what();
                }
                continue;
            }
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
    EXPECT_THROW((void)loadCSource("int main(void) { return nope; }", "bad.c", withPorlabHeader()),
                 InputError);
    try {
        (void)loadCSource(
            "#include <stdio.h>\nint main(void) {\n  return fopen(\"a\", \"r\") != 0;\n}\n",
            "lib.c", withPorlabHeader());
        ADD_FAILURE() << "fopen accepted";
    } catch (const UnsupportedError& e) {
        EXPECT_NE(std::string(e.what()).find("lib.c:3"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("fopen"), std::string::npos) << e.what();
    }
}

TEST(CFront, SaveRestoreReproducesTheSameEvents) {
    auto p = loadCSource(kStoreBuffering, "sb.c", withPorlabHeader());
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
