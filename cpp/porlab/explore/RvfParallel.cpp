// SPDX-License-Identifier: MIT
// jobs > 1 for rf and rvf: the pool, the driver, and RvfSmc's hand-over and join (the design:
// RvfParallel.hpp).
#include "porlab/explore/RvfParallel.hpp"

#include <time.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <latch>
#include <mutex>
#include <thread>

#include "porlab/core/Errors.hpp"

namespace porlab::rvfsmc {

namespace {

// The worker the calling thread is (donate pushes to its deque, waitFor takes from it).
thread_local unsigned tlsWorker = 0;

bool isBudgetReason(const std::string& r) {
    return r == "traces" || r == "seconds" || r == "events" || r == "memory" || r == "interrupted";
}

}  // namespace

// ---- RvfSmc's side ------------------------------------------------------------------------------

bool RvfSmc::wantsHandOver() const {
    return level_ + 1 < RvfPool::kLevels && pool_->hungry() && pool_->shallow(depthBase_ + depth_);
}

bool RvfSmc::firstErrorClass(std::vector<std::int32_t>&& key) {
    if (pool_) return pool_->firstErrorClass(std::move(key));
    return errorsSeen_.insert(std::move(key)).second;
}

void RvfSmc::handOver(Frame& f, std::span<const ThreadId> witness,
                      const std::vector<std::int32_t>& xl, ThreadId t, bool atState) {
    auto task = std::make_shared<RvfTask>();
    task->steps.resize(static_cast<std::size_t>(T_));
    for (ThreadId u = 0; u < T_; ++u) {
        const auto& st = steps_[static_cast<std::size_t>(u)];
        task->steps[static_cast<std::size_t>(u)].assign(
            st.begin(), st.begin() + static_cast<std::ptrdiff_t>(xl[u]));
    }
    task->spawnOf = spawnOf_;
    task->witness.assign(witness.begin(), witness.end());
    task->xl = xl;
    task->causal = f.Cn;
    task->newT = t;
    task->depth = depthBase_ + depth_;
    task->killable = killable_;
    task->atState = atState;
    if (atState) exec_->save(task->snap);
    task->reg = reg_;
    task->clk = clk_;
    if (ro_.fastPaths) ensureSat();  // (computed lazily: the task gets them all)
    task->satClk = satClk_;  // (rf's saturated clocks: registered with the steps, like clk_)
    task->prevDiff = prevDiff_;
    task->src = src_;
    for (const LocId l : usedLocs_) {
        const LocLists& ll = *locLists_[static_cast<std::size_t>(l)];
        task->lists.push_back({l, ll.writes, ll.reads});
    }
    f.handed.push_back(task);
    pool_->donate(std::move(task));
}

bool RvfSmc::joinHanded(Frame& f) {
    const bool ok = pool_->waitFor(f.handed, level_);
    const Pending& r = f.mutate[f.k];
    if (ok) {
        for (const auto& task : f.handed)
            for (const auto& [u, x] : task->signals) {
                // The child was signalled (one job: signalled() of its ancestor entry, ORed
                // along the read's children through the entries' `signal`).
                if (x == r.ev.loc && u != r.t) f.backtrack = true;
                // Raised again here: they count for this frame's ancestors, not for the entries
                // pushed from now on (one job raised them before those existed).
                signalWrite(u, x);
            }
    }
    f.handed.clear();
    return ok;
}

void RvfSmc::runTask(RvfTask& task) {
    // (A task is explored once: its state is moved in, not copied.)
    steps_ = std::move(task.steps);
    spawnOf_ = std::move(task.spawnOf);
    // The steps registered as the donor registered them (a step's clock and lists hold while it
    // exists); the new read is registered by the replay, as in the donor's child.
    reg_ = std::move(task.reg);
    clk_ = std::move(task.clk);
    satClk_ = std::move(task.satClk);
    satLog_.clear();  // (the task's registered steps all have their saturated clocks)
    satPending_ = 0;
    visCache_.assign(static_cast<std::size_t>(T_), {});  // (the worker's last steps are gone)
    prevDiff_ = std::move(task.prevDiff);
    src_ = std::move(task.src);
    for (const LocId l : usedLocs_) locLists_[static_cast<std::size_t>(l)].reset();
    usedLocs_.clear();
    for (RvfTask::Lists& tl : task.lists) {
        LocLists& ll = lists(tl.loc);
        ll.writes = std::move(tl.writes);
        ll.reads = std::move(tl.reads);
    }
    // (memory as at the start too: a replay from the initial state takes back the trace's own
    // writes, RvfSmc::replayStart, and this engine's last trace is not the task's)
    order_.clear();
    cur_ = initVals_;
    active_.assign(L_, kInitWrite);
    depth_ = 0;
    ancestors_.clear();
    prefixSnaps_.clear();
    childSnaps_.clear();
    snapBase_ = 0;
    replayFrom_ = nullptr;
    anyFail_ = false;
    depthBase_ = task.depth;
    killable_ = std::move(task.killable);  // (no more than one job knows here: see RvfParallel.hpp)
    const std::uint64_t clock0 = sigClock_;
    if (task.atState) {
        // The program state is the child's: restored, and the trace is the witness, its steps
        // performed without running them (as RvfSmc::child's here-cases do).
        exec_->restore(task.snap);
        order_.clear();
        cur_ = initVals_;
        active_.assign(L_, kInitWrite);
        std::vector<std::int32_t> cnt(static_cast<std::size_t>(T_), 0);
        for (const ThreadId t : task.witness)
            performed(t, steps_[static_cast<std::size_t>(t)]
                               [static_cast<std::size_t>(cnt[static_cast<std::size_t>(t)]++)]);
        explore(task.witness, task.xl, task.causal, task.newT, /*here=*/true);
    } else {
        explore(task.witness, task.xl, task.causal, task.newT);
    }
    task.signals.clear();
    for (std::size_t x = 0; x < sigTime_.size(); ++x) {
        const auto& s = sigTime_[x];
        for (std::size_t u = 0; u < s.size(); ++u)
            if (s[u] > clock0)
                task.signals.emplace_back(static_cast<ThreadId>(u), static_cast<LocId>(x));
    }
}

// ---- the pool -----------------------------------------------------------------------------------

RvfPool::RvfPool(unsigned workers, std::uint64_t eager, RunTask run) : run_(std::move(run)) {
    eager_.store(static_cast<std::int64_t>(eager));
    eagerMode_ = eager > 0;
    for (unsigned i = 0; i < workers; ++i) deques_.push_back(std::make_unique<Deque>());
}

void RvfPool::donate(std::shared_ptr<RvfTask> t) {
    if (eager_.load(std::memory_order_relaxed) > 0) eager_.fetch_sub(1);
    std::uint64_t steps = 0,
                  bytes = t->witness.size() * sizeof(ThreadId) + t->snap.words.size() * 8;
    for (const auto& st : t->steps) {
        steps += st.size();
        for (const Step& s : st)
            bytes += sizeof(Step) + s.out.size() * sizeof(Event) + s.good.size() * sizeof(WriteRef);
    }
    for (const auto& c : t->clk) bytes += c.size() * sizeof(std::int32_t);
    for (const auto& c : t->satClk) bytes += c.size() * sizeof(std::int32_t);
    for (const auto& l : t->lists)
        for (std::size_t u = 0; u < l.writes.size(); ++u)
            bytes += (l.writes[u].size() + l.reads[u].size()) * sizeof(std::int32_t);
    tasks.fetch_add(1, std::memory_order_relaxed);
    taskSteps.fetch_add(steps, std::memory_order_relaxed);
    taskBytes.fetch_add(bytes, std::memory_order_relaxed);
    pending_.fetch_add(1);
    {
        Deque& d = *deques_[tlsWorker];
        std::lock_guard lk(d.mu);
        d.tasks.push_back(std::move(t));
    }
    queued_.fetch_add(1);
    wake(false);
}

bool RvfPool::take(unsigned w, std::shared_ptr<RvfTask>& out) {
    // Its own newest first (depth-first, as one job), else another's oldest (nearest its donor's
    // root: the largest).
    const auto n = static_cast<unsigned>(deques_.size());
    for (unsigned k = 0; k < n; ++k) {
        Deque& d = *deques_[(w + k) % n];
        std::lock_guard lk(d.mu);
        if (d.tasks.empty()) continue;
        if (k == 0) {
            out = std::move(d.tasks.back());
            d.tasks.pop_back();
        } else {
            out = std::move(d.tasks.front());
            d.tasks.pop_front();
        }
        queued_.fetch_sub(1);
        return true;
    }
    return false;
}

void RvfPool::wake(bool all) {
    // Taking the lock orders the change with a waiter's check of its condition: it either sees
    // the change or is waiting when notified (no lost wake-up, so the idle wait can be long).
    { std::lock_guard lk(idleMu_); }
    if (all)
        idleCv_.notify_all();
    else
        idleCv_.notify_one();
}

void RvfPool::finished() {
    if (pending_.fetch_sub(1) == 1) wake(true);
}

void RvfPool::runOne(unsigned w, unsigned level, RvfTask& t) {
    std::uint64_t m = maxLevel.load(std::memory_order_relaxed);
    while (level > m && !maxLevel.compare_exchange_weak(m, level)) {}
    if (!stopped()) run_(w, level, t);
    t.done.store(true, std::memory_order_release);
    finished();
    wake(true);  // (a donor may wait for it)
}

void RvfPool::idleWait(const std::function<bool()>& ready) {
    idle_.fetch_add(1);
    {
        std::unique_lock lk(idleMu_);
        // Woken by a push, a task's end or a stop (it was a 1 ms poll: a thousand wake-ups a
        // second of a thread that shares the cores with the busy workers).
        idleCv_.wait_for(lk, std::chrono::milliseconds(10), ready);
    }
    idle_.fetch_sub(1);
}

bool RvfPool::waitFor(std::span<const std::shared_ptr<RvfTask>> ts, unsigned level) {
    const unsigned w = tlsWorker;
    auto allDone = [&] {
        return std::all_of(ts.begin(), ts.end(),
                           [](const auto& t) { return t->done.load(std::memory_order_acquire); });
    };
    for (;;) {
        if (stopped()) return false;
        if (allDone()) return true;
        std::shared_ptr<RvfTask> t;
        if (level + 1 < kLevels && take(w, t)) {
            runOne(w, level + 1, *t);
            continue;
        }
        idleWait([&] { return queued_.load() > 0 || stopped() || allDone(); });
    }
}

void RvfPool::work(unsigned w) {
    tlsWorker = w;
    for (;;) {
        std::shared_ptr<RvfTask> t;
        if (take(w, t)) {
            runOne(w, 0, *t);
            continue;
        }
        if (pending_.load() == 0 || stopped()) return;
        idleWait([&] { return queued_.load() > 0 || pending_.load() == 0 || stopped(); });
    }
}

bool RvfPool::firstErrorClass(std::vector<std::int32_t>&& key) {
    std::lock_guard lk(mu_);
    return errorsSeen_.insert(std::move(key)).second;
}

// ---- the driver ---------------------------------------------------------------------------------

namespace {

ExploreResult runParallel(const Program& program, const ExploreOptions& opts,
                          const RvfOptions& ro) {
    const unsigned n = opts.jobs;
    const auto start = std::chrono::steady_clock::now();
    constexpr std::uint64_t kEagerTasks = 2000;  // split=eager (tests)
    const auto split = opts.params.find("split");
    const bool eager = split != opts.params.end() && split->second == "eager";

    // Per worker, its engines by nesting level (each with its own result, merged at the end).
    struct Slot {
        ExploreResult result;
        std::unique_ptr<RvfSmc> smc;
    };
    std::vector<std::deque<Slot>> engines(n);
    // Each worker's live counters on cache lines of their own (written at every trace and every
    // few hundred events; side by side, the workers' counters shared a line).
    struct alignas(64) WorkerControl {
        ExploreControl c;
    };
    std::deque<WorkerControl> controls(n);
    std::deque<ExploreOptions> wopts;
    std::mutex makeMu;   // Program::newExecution and the first reset, one at a time
    std::mutex traceMu;  // user callbacks see one trace at a time
    std::unique_ptr<RvfPool> poolPtr;
    auto engine = [&](unsigned w, unsigned level) -> Slot& {
        auto& lv = engines[w];
        while (lv.size() <= level) {
            std::lock_guard lk(makeMu);
            Slot& s = lv.emplace_back();
            s.smc = std::make_unique<RvfSmc>(program, wopts[w], s.result, ro);
            s.smc->joinPool(*poolPtr, static_cast<unsigned>(lv.size() - 1));
            s.smc->init();
        }
        return lv[level];
    };
    auto afterRun = [&](const ExploreResult& r) {
        // A worker whose own Reporter stopped (memory, stopOnError) stops the others.
        if (r.budgetExceeded)
            poolPtr->stop(r.budgetReason);
        else if (opts.stopOnError && r.errors)
            poolPtr->stop("error");
    };
    poolPtr = std::make_unique<RvfPool>(n, eager ? kEagerTasks : 0,
                                        [&](unsigned w, unsigned level, RvfTask& task) {
                                            Slot& s = engine(w, level);
                                            s.smc->runTask(task);
                                            afterRun(s.result);
                                        });
    RvfPool& pool = *poolPtr;
    for (unsigned i = 0; i < n; ++i) {
        ExploreOptions& o = wopts.emplace_back(opts);
        o.control = &controls[i].c;
        o.poll = nullptr;
        o.maxTraces = 0;   // the pool counts (countTrace)
        o.maxEvents = 0;   // the driver sums the workers' events
        o.maxSeconds = 0;  // the driver watches the clock (engines start at different times)
        if (opts.maxTraces || opts.acceptTrace) {
            o.acceptTrace = [&pool, &opts](const Execution& e) {
                if (opts.acceptTrace && !opts.acceptTrace(e)) return false;
                return !opts.maxTraces || pool.countTrace(opts.maxTraces);
            };
        }
        if (opts.onTrace) {
            o.onTrace = [&traceMu, &opts](const Trace& t) {
                std::lock_guard lk(traceMu);
                opts.onTrace(t);
            };
        }
        pool.watch(controls[i].c);
    }
    // Each worker makes its first engine on its own thread (as it makes the deeper ones), so that
    // the engine's memory comes from that thread's malloc arena: made here, the workers' engines
    // were interleaved in one arena, and the edges of one worker's blocks shared cache lines
    // with the other's. No worker explores before all are made (`made`): a program creates
    // locations lazily while it runs, and an engine reads the program's tables when it is made.
    std::latch made(n);
    if (opts.control && opts.control->interrupt.load()) pool.stop("interrupted");

    unsigned finished = 0;  // workers finished (under doneMu: the watcher sleeps on doneCv)
    std::mutex doneMu;
    std::condition_variable doneCv;
    std::mutex errMu;
    std::exception_ptr error;
    std::vector<double> cpu(n, 0.0);
    std::vector<std::thread> threads;
    for (unsigned i = 0; i < n; ++i) {
        threads.emplace_back([&, i] {
            try {
                tlsWorker = i;
                try {
                    (void)engine(i, 0);
                } catch (...) {
                    made.count_down();
                    throw;
                }
                made.arrive_and_wait();
                if (i == 0) {
                    Slot& s = engines[0][0];
                    s.smc->runRoot();
                    afterRun(s.result);
                    pool.rootDone();
                }
                pool.work(i);
            } catch (...) {
                {
                    std::lock_guard lk(errMu);
                    if (!error) error = std::current_exception();
                }
                pool.stop("error");
            }
            timespec ts{};
            if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
                cpu[i] = static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
            {
                std::lock_guard lk(doneMu);
                ++finished;
            }
            doneCv.notify_one();
        });
    }

    // This thread watches: an interrupt, the events and seconds budgets, the live counters.
    std::uint64_t shown[4] = {0, 0, 0, 0};
    auto forward = [&] {
        std::uint64_t sum[4] = {0, 0, 0, 0};
        for (const WorkerControl& w : controls) {
            sum[0] += w.c.progress.complete.load(std::memory_order_relaxed);
            sum[1] += w.c.progress.blocked.load(std::memory_order_relaxed);
            sum[2] += w.c.progress.errors.load(std::memory_order_relaxed);
            sum[3] += w.c.progress.events.load(std::memory_order_relaxed);
        }
        if (opts.maxEvents && sum[3] >= opts.maxEvents) pool.stop("events");
        if (opts.maxSeconds > 0 &&
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >=
                opts.maxSeconds)
            pool.stop("seconds");
        if (ExploreControl* c = opts.control) {
            c->progress.complete.fetch_add(sum[0] - shown[0], std::memory_order_relaxed);
            c->progress.blocked.fetch_add(sum[1] - shown[1], std::memory_order_relaxed);
            c->progress.errors.fetch_add(sum[2] - shown[2], std::memory_order_relaxed);
            c->progress.events.fetch_add(sum[3] - shown[3], std::memory_order_relaxed);
            if (c->interrupt.load(std::memory_order_relaxed)) pool.stop("interrupted");
        }
        std::copy(std::begin(sum), std::end(sum), std::begin(shown));
    };
    watchWorkers(doneMu, doneCv, opts.maxEvents != 0, forward, [&] { return finished >= n; });
    for (auto& t : threads) t.join();
    for (auto& lv : engines)
        for (Slot& s : lv) s.smc->finish();
    forward();
    if (error) std::rethrow_exception(error);

    ExploreResult total;
    std::size_t slots = 0;
    for (auto& lv : engines)
        for (Slot& s : lv) {
            if (slots++ == 0)
                total = std::move(s.result);
            else
                mergeResult(total, std::move(s.result));
        }
    std::erase_if(total.incomplete, isBudgetReason);
    total.budgetExceeded = false;
    total.budgetReason.clear();
    if (const std::string reason = pool.stopReason(); isBudgetReason(reason)) {
        total.budgetExceeded = true;
        total.budgetReason = reason;
        addIncompleteReason(total, reason);
    }
    total.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    total.peakMemoryBytes = peakResidentBytes();
    total.stats["jobs"] = n;
    total.stats["parallel_tasks"] = static_cast<double>(pool.tasks.load());
    total.stats["parallel_task_steps"] = static_cast<double>(pool.taskSteps.load());
    total.stats["parallel_task_bytes"] = static_cast<double>(pool.taskBytes.load());
    total.stats["parallel_max_nesting"] = static_cast<double>(pool.maxLevel.load());
    total.stats["parallel_worker_cpu_max_s"] = *std::max_element(cpu.begin(), cpu.end());
    double sum = 0;
    for (const double c : cpu) sum += c;
    total.stats["parallel_worker_cpu_sum_s"] = sum;
    return total;
}

}  // namespace

ExploreResult exploreRvfParallel(const Program& program, const ExploreOptions& opts,
                                 const RvfOptions& ro) {
    try {
        return runParallel(program, opts, ro);
    } catch (const UnsupportedError&) {
        // A worker that knew fewer killable locations than one job performed a write that
        // races with a kill (checkKillRaces), or a replay found a fault that depends on order:
        // one job decides (it answers, or rejects the program as always).
        ExploreResult r;
        RvfSmc(program, opts, r, ro).run();
        r.stats["jobs"] = 1;
        r.stats["parallel_fallback_sequential"] = 1;
        return r;
    }
}

}  // namespace porlab::rvfsmc
