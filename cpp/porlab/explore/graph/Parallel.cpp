// SPDX-License-Identifier: MIT
#include "porlab/explore/graph/Parallel.hpp"

#include <pthread.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <latch>

#include "porlab/core/Errors.hpp"
#include "porlab/explore/graph/GraphExplorer.hpp"
#include "porlab/explore/graph/TaskCodec.hpp"

namespace porlab::graph {

namespace {

// The worker the calling thread is (donate pushes to its deque).
thread_local unsigned tlsWorker = 0;

// A worker's exploration does not recurse per event (Step.hpp): a usual stack, of a size that
// does not depend on the limits of the process that starts it.
constexpr std::size_t kWorkerStackBytes = std::size_t{8} << 20;

bool isBudgetReason(const std::string& r) {
    return r == "traces" || r == "seconds" || r == "events" || r == "memory" || r == "interrupted";
}

double threadCpuSeconds() {
    timespec ts{};
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return 0;
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

std::uint64_t graphBytes(const ExecutionGraph& g, std::size_t orderLen) {
    std::uint64_t b = orderLen * sizeof(Ref) + g.initial.size() * sizeof(Value);
    for (const auto& th : g.threads) b += th.size() * sizeof(Node);
    for (const auto& c : g.co) b += c.size() * sizeof(Ref);
    for (const auto& z : g.zneDone) b += z.size() * sizeof(std::int32_t);
    return b;
}

}  // namespace

WorkPool::WorkPool(unsigned workers, std::uint64_t eager, std::uint64_t splitBytes)
    : splitBytes_(splitBytes), splits_(workers) {
    eager_.store(static_cast<std::int64_t>(eager));
    for (unsigned i = 0; i < workers; ++i) deques_.push_back(std::make_unique<Deque>());
}

bool WorkPool::donate(const ExecutionGraph& g, std::span<const Ref> order) {
    if (publish_) {
        if (eager_.load(std::memory_order_relaxed) > 0) eager_.fetch_sub(1);
        tasks.fetch_add(1, std::memory_order_relaxed);
        publish_(g, order);
        return true;
    }
    // A worker is idle (or split=eager): this visit and every visit after it in the donor's
    // current task become tasks (the split ends with the task: endSplit).
    Split& s = splits_[tlsWorker];
    if (s.bytes >= splitBytes_) {
        s.on = false;
        s.capped = true;
        flush(tlsWorker);
        return false;
    }
    s.on = true;
    if (eager_.load(std::memory_order_relaxed) > 0) eager_.fetch_sub(1);
    tasks.fetch_add(1, std::memory_order_relaxed);
    auto t = std::make_unique<Task>();
    t->graph = g;
    t->order.assign(order.begin(), order.end());
    std::uint64_t events = 0;
    for (const auto& th : g.threads) events += th.size();
    taskEvents.fetch_add(events, std::memory_order_relaxed);
    const std::uint64_t bytes = graphBytes(g, order.size());
    taskBytes.fetch_add(bytes, std::memory_order_relaxed);
    s.bytes += bytes;
    s.frontier.push_back(std::move(t));
    return true;
}

void WorkPool::endSplit(unsigned w) {
    Split& s = splits_[w];
    s.on = s.capped = false;
    s.bytes = 0;
    flush(w);
}

void WorkPool::flush(unsigned w) {
    Split& s = splits_[w];
    if (s.frontier.empty()) return;
    const auto n = static_cast<std::int64_t>(s.frontier.size());
    pending_.fetch_add(n);
    {
        // The deque's back is the donor's next task: the first the split met (the deepest, where
        // one job goes on); its front the thieves': the last (the shallowest, the largest).
        Deque& d = *deques_[w];
        std::lock_guard lk(d.mu);
        for (auto it = s.frontier.rbegin(); it != s.frontier.rend(); ++it)
            d.tasks.push_back(std::move(*it));
    }
    s.frontier.clear();
    queued_.fetch_add(static_cast<int>(n));
    splits.fetch_add(1, std::memory_order_relaxed);
    // (Taking the lock orders the push with an idle worker's check of `queued_`: it either sees
    // the tasks or is waiting when notified; no lost wake-up, so the idle wait can be long.)
    { std::lock_guard lk(idleMu_); }
    idleCv_.notify_all();
}

bool WorkPool::take(unsigned w, std::unique_ptr<Task>& out) {
    // Its own newest first (depth-first, as one job), else another's oldest.
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

bool WorkPool::firstFailure(std::uint64_t h1, std::uint64_t h2) {
    std::lock_guard lk(mu_);
    const bool fresh = failures_.insert({h1, h2}).second;
    if (fresh && failureLog_) failureLog_->emplace_back(h1, h2);
    return fresh;
}

void WorkPool::work(unsigned w, GraphExplorer& ex) {
    tlsWorker = w;
    auto done = [&] {
        if (pending_.fetch_sub(1) == 1) {
            {
                std::lock_guard lk(idleMu_);
            }
            idleCv_.notify_all();
        }
    };
    if (w == 0) {
        ex.explore();
        endSplit(w);
        done();
    }
    // A worker whose Reporter stopped (a budget, stopOnError) returns: its caller stops the pool.
    if (ex.stopped()) return;
    for (;;) {
        std::unique_ptr<Task> t;
        if (take(w, t)) {
            if (!stopped()) ex.runTask(t->graph, t->order);
            endSplit(w);
            done();
            if (ex.stopped()) return;
            continue;
        }
        if (pending_.load() == 0 || stopped()) return;
        idle_.fetch_add(1);
        {
            // Woken by a push, the last task's end or a stop; the time-out only bounds a missed
            // wake-up of the two latter. (It was 1 ms: a thousand wake-ups a second of a thread
            // that shares the machine's cores with the busy workers.)
            std::unique_lock lk(idleMu_);
            idleCv_.wait_for(lk, std::chrono::milliseconds(10), [&] {
                return queued_.load() > 0 || pending_.load() == 0 || stopped();
            });
        }
        idle_.fetch_sub(1);
    }
}

namespace {

struct WorkerThread {
    std::function<void()> body;
    pthread_t thread{};
    bool started = false;
};

void* runWorkerThread(void* arg) {
    static_cast<WorkerThread*>(arg)->body();
    return nullptr;
}

}  // namespace

bool usesWorkPool(const ExploreOptions& opts) { return opts.jobs > 1 || opts.taskRun != nullptr; }

namespace {

TaskHeader checkedHeader(const TaskRun& tr, const std::string& task) {
    const TaskHeader h = taskHeader(task);
    if (h.programId != tr.programId)
        throw InputError("task: made for another program (program id differs)");
    if (h.explorer != tr.explorer)
        throw InputError("task: made for explorer '" + h.explorer + "', not '" + tr.explorer + "'");
    return h;
}

// One task (or a batch) of a distributed run: one explorer (on a thread with a large stack, as
// the workers) explores the tasks' subtrees one after the other; this thread waits, and splits
// at the time bound (the running task publishes its pending subtrees, the rest go back as
// they are).
//
// Hand-outs on demand (tr.channel, python/porlab/distributed.py): when the cluster wants n
// subtrees, the running subtree is split (every visit it has not started is published, as at the
// time bound: its whole frontier, the pending siblings at every depth of its path), the n
// *shallowest* subtrees of that frontier and of the batch's tasks not started (the fewest bytes:
// a task's size grows with its graph) go out through the channel, and the task keeps the rest and
// goes on exploring them. So the worker that holds a long chain of nested subtrees keeps cutting
// its top off for others instead of exploring it alone. A split costs a serialisation per
// pending visit and a replay per kept subtree: hand-outs are at most one per kHandOutCost times
// the last split's cost.
ExploreResult exploreTask(const ExploreOptions& opts, const MakeGraphExplorer& make, TaskRun& tr) {
    if (!tr.program) throw InputError("task: no program");
    struct Work {
        std::string task;
        std::size_t origin;  // the index of the batch's task it is part of
    };
    std::deque<Work> work;
    work.push_back({tr.input, 0});
    for (std::size_t i = 0; i < tr.more.size(); ++i) work.push_back({tr.more[i], i + 1});
    std::vector<bool> started(work.size(), false);
    for (const Work& w : work) checkedHeader(tr, w.task);
    WorkPool pool(1, 0);
    ExploreResult result;
    std::unique_ptr<GraphExplorer> ex = make(opts, result);
    ex->joinPool(pool);
    pool.logFailures(&tr.failures);
    const TaskHeader out{tr.programId, tr.explorer, false};
    std::vector<std::string> frontier;  // published by the running subtree (a split)
    pool.publishAll([&](const ExecutionGraph& sub, std::span<const Ref> subOrder) {
        frontier.push_back(encodeTask(out, sub, subOrder));
    });
    auto publish = [&](std::string task) {
        tr.outputBytes += task.size();
        tr.output.push_back(std::move(task));
    };

    if (tr.splitAfterSeconds < 0) pool.splitAll();  // (tests: split at once, whatever the timing)
    constexpr double kHandOutCost = 10;  // at least this many times a split's cost in between
    constexpr auto kHandOutPoll = std::chrono::milliseconds(20);
    std::mutex mu;
    std::condition_variable cv;
    bool done = false;
    std::atomic<bool> split{false};       // the time bound: everything goes back
    std::atomic<bool> handingOut{false};  // a split for hand-outs is under way
    using Clock = std::chrono::steady_clock;
    std::atomic<Clock::time_point> handOutStart{}, handOutAfter{};  // (no hand-out before)
    std::exception_ptr error;
    WorkerThread th;
    th.body = [&] {
        try {
            for (bool first = true; !work.empty(); first = false) {
                Work w = std::move(work.front());
                work.pop_front();
                // Past the bound, or a budget met: the tasks not started go back as they are.
                if (!first && (split.load() || ex->stopped())) {
                    publish(std::move(w.task));
                    continue;
                }
                // Tests (want(n, sticky)): split every subtree as soon as it starts.
                if (tr.channel && tr.channel->sticky() && tr.channel->wanted() > 0) {
                    handOutStart.store(Clock::now());
                    pool.splitAll();
                    handingOut.store(true);
                }
                const std::uint64_t errors = result.errors;
                if (checkedHeader(tr, w.task).root) {
                    ex->explore();
                } else {
                    ExecutionGraph g;
                    std::vector<Ref> order;
                    decodeTask(*tr.program, w.task, tr.programId, tr.explorer,
                               tr.explorer == "lapor", g, order);
                    ex->runTask(g, order);
                }
                if (!started[w.origin]) {
                    started[w.origin] = true;
                    ++tr.explored;
                }
                if (result.errors > errors && tr.firstErrorTask < 0)
                    tr.firstErrorTask = static_cast<std::int64_t>(w.origin);
                if (split.load() || !handingOut.load()) {
                    for (auto& f : frontier) publish(std::move(f));
                    frontier.clear();
                    continue;
                }
                // A split for hand-outs: the shallowest out, the rest explored here (the frontier
                // first, in the order the split met it, as the depth-first search would).
                if (tr.splitAfterSeconds < 0)  // (tests: still split at once)
                    pool.splitAll();
                else
                    pool.resume();
                handingOut.store(false);
                std::deque<Work> all;
                for (auto& f : frontier) all.push_back({std::move(f), w.origin});
                frontier.clear();
                for (auto& x : work) all.push_back(std::move(x));
                work.clear();
                const std::int64_t n = std::min<std::int64_t>(
                    tr.channel->takeWanted(), static_cast<std::int64_t>(all.size()) - 1);
                std::vector<std::size_t> idx(all.size());
                for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
                std::vector<bool> away(all.size(), false);
                if (n > 0) {
                    std::partial_sort(idx.begin(), idx.begin() + n, idx.end(),
                                      [&](std::size_t a, std::size_t b) {
                                          return all[a].task.size() < all[b].task.size();
                                      });
                    for (std::int64_t k = 0; k < n; ++k)
                        away[idx[static_cast<std::size_t>(k)]] = true;
                }
                const double now = threadCpuSeconds();
                for (std::size_t i = 0; i < all.size(); ++i) {
                    if (!away[i]) {
                        work.push_back(std::move(all[i]));
                        ++tr.pieces;
                        continue;
                    }
                    tr.channel->handOut(tr.output.size(), now, all[i].task);
                    publish(std::move(all[i].task));
                }
                const auto t = std::chrono::steady_clock::now();
                handOutAfter.store(t + std::chrono::duration_cast<Clock::duration>(
                                           (t - handOutStart.load()) * kHandOutCost));
            }
        } catch (...) {
            error = std::current_exception();
        }
        tr.threadCpuSeconds = threadCpuSeconds();
        std::lock_guard lk(mu);
        done = true;
        cv.notify_all();
    };
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) == 0) {
        th.started = pthread_attr_setstacksize(&attr, kWorkerStackBytes) == 0 &&
                     pthread_create(&th.thread, &attr, &runWorkerThread, &th) == 0;
        pthread_attr_destroy(&attr);
    }
    if (!th.started) throw InputError("task: cannot start its thread");
    {
        const auto start = std::chrono::steady_clock::now();
        const auto bound = std::chrono::duration<double>(tr.splitAfterSeconds);
        std::unique_lock lk(mu);
        while (!done) {
            // Wake at the time bound, and every kHandOutPoll while a channel may want subtrees.
            auto until = tr.splitAfterSeconds > 0
                             ? start + std::chrono::duration_cast<std::chrono::nanoseconds>(bound)
                             : std::chrono::steady_clock::time_point::max();
            if (tr.channel)
                until = std::min(until, std::chrono::steady_clock::now() + kHandOutPoll);
            if (cv.wait_until(lk, until, [&] { return done; })) break;
            if (tr.splitAfterSeconds > 0 && std::chrono::steady_clock::now() - start >= bound) {
                split.store(true);
                pool.splitAll();
                cv.wait(lk, [&] { return done; });
                break;
            }
            // The cluster wants subtrees: split the running one (unless the last split was
            // recent against its cost).
            const auto now = Clock::now();
            if (tr.channel && !handingOut.load() && now >= handOutAfter.load() &&
                tr.channel->wanted() > 0) {
                handOutStart.store(now);
                pool.splitAll();
                handingOut.store(true);
            }
        }
    }
    pthread_join(th.thread, nullptr);
    if (error) std::rethrow_exception(error);
    ex->finish();
    result.stats["task_published"] = static_cast<double>(tr.output.size());
    result.stats["task_published_bytes"] = static_cast<double>(tr.outputBytes);
    result.stats["task_pieces"] = static_cast<double>(tr.pieces);
    return result;
}

}  // namespace

ExploreResult exploreParallel(const ExploreOptions& opts, const MakeGraphExplorer& make) {
    if (opts.taskRun) {
        ExploreOptions o = opts;
        o.taskRun = nullptr;
        return exploreTask(o, make, *opts.taskRun);
    }
    const unsigned n = opts.jobs;
    const auto start = std::chrono::steady_clock::now();
    // split=eager (tests): hand over subtrees whether or not a worker is idle, up to this many.
    constexpr std::uint64_t kEagerTasks = 2000;
    const auto split = opts.params.find("split");
    const auto splitBytes = opts.params.find("split_bytes");  // (tests: a smaller cap)
    WorkPool pool(
        n, split != opts.params.end() && split->second == "eager" ? kEagerTasks : 0,
        splitBytes != opts.params.end() ? std::stoull(splitBytes->second) : WorkPool::kSplitBytes);
    // What each worker writes as it goes (its live counters at every trace and every few hundred
    // events, its result at every event) on cache lines of its own: side by side, the two
    // workers' counters shared a line, written by both.
    struct alignas(64) WorkerControl {
        ExploreControl c;
    };
    struct alignas(64) WorkerResult {
        ExploreResult r;
    };
    std::deque<WorkerControl> controls(n);
    std::vector<ExploreOptions> wopts(n, opts);
    std::deque<WorkerResult> results(n);
    std::mutex traceMu;  // user callbacks see one trace at a time
    for (unsigned i = 0; i < n; ++i) {
        ExploreOptions& o = wopts[i];
        o.control = &controls[i].c;
        o.poll = nullptr;
        o.maxTraces = 0;  // the pool counts (countTrace)
        o.maxEvents = 0;  // the driver sums the workers' events
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
    // Each worker makes its explorer on its own thread, so that the explorer's memory (its
    // execution, graphs, scratch, written at every event) comes from that thread's malloc arena:
    // made on this thread, the workers' objects were interleaved in one arena, and the edges of
    // one worker's blocks shared cache lines with the other's. One at a time (makeMu), and no
    // worker explores before all are made (`made`): a program creates locations lazily while it
    // runs, and an explorer copies the program's table of initial values when it is made.
    std::vector<std::unique_ptr<GraphExplorer>> ex(n);
    std::mutex makeMu;
    std::latch made(n);

    // An interrupt already set stops the run at its first event, as with one job.
    if (opts.control && opts.control->interrupt.load()) pool.stop("interrupted");

    // Workers finished (under doneMu: the watcher below sleeps on doneCv).
    unsigned finished = 0;
    std::mutex doneMu;
    std::condition_variable doneCv;
    std::mutex errMu;
    std::exception_ptr error;
    std::deque<WorkerThread> threads(n);
    std::vector<double> cpu(n, 0.0);  // each worker's CPU time (the balance of the work)
    for (unsigned i = 0; i < n; ++i) {
        threads[i].body = [&, i] {
            auto fail = [&] {
                {
                    std::lock_guard lk(errMu);
                    if (!error) error = std::current_exception();
                }
                pool.stop("error");
            };
            try {
                std::lock_guard lk(makeMu);
                ex[i] = make(wopts[i], results[i].r);
                ex[i]->joinPool(pool, i);
            } catch (...) {
                fail();
            }
            made.arrive_and_wait();
            if (ex[i]) {
                try {
                    pool.work(i, *ex[i]);
                    // A worker whose own Reporter stopped (seconds, memory, stopOnError) stops
                    // the others.
                    const ExploreResult& r = results[i].r;
                    if (r.budgetExceeded)
                        pool.stop(r.budgetReason);
                    else if (opts.stopOnError && r.errors)
                        pool.stop("error");
                } catch (...) {
                    fail();
                }
                try {
                    ex[i]->finish();
                } catch (...) {
                    fail();
                }
                ex[i].reset();  // (its memory goes back to this thread's arena)
            }
            timespec ts{};
            if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
                cpu[i] = static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
            {
                std::lock_guard lk(doneMu);
                ++finished;
            }
            doneCv.notify_one();
        };
        pthread_attr_t attr;
        if (pthread_attr_init(&attr) == 0) {
            threads[i].started =
                pthread_attr_setstacksize(&attr, kWorkerStackBytes) == 0 &&
                pthread_create(&threads[i].thread, &attr, &runWorkerThread, &threads[i]) == 0;
            pthread_attr_destroy(&attr);
        }
        if (!threads[i].started) {
            made.count_down();
            pool.stop("error");
            std::lock_guard lk(errMu);
            if (!error)
                error = std::make_exception_ptr(InputError("jobs: cannot start worker thread"));
        }
    }

    // This thread watches: an interrupt, the events budget, and the live counters.
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
        if (ExploreControl* c = opts.control) {
            c->progress.complete.fetch_add(sum[0] - shown[0], std::memory_order_relaxed);
            c->progress.blocked.fetch_add(sum[1] - shown[1], std::memory_order_relaxed);
            c->progress.errors.fetch_add(sum[2] - shown[2], std::memory_order_relaxed);
            c->progress.events.fetch_add(sum[3] - shown[3], std::memory_order_relaxed);
            if (c->interrupt.load(std::memory_order_relaxed)) pool.stop("interrupted");
        }
        std::copy(std::begin(sum), std::end(sum), std::begin(shown));
    };
    unsigned running = 0;
    for (const auto& t : threads) running += t.started ? 1 : 0;
    watchWorkers(doneMu, doneCv, opts.maxEvents != 0, forward, [&] { return finished >= running; });
    for (auto& t : threads)
        if (t.started) pthread_join(t.thread, nullptr);
    forward();
    if (error) std::rethrow_exception(error);

    ExploreResult total = std::move(results[0].r);
    for (unsigned i = 1; i < n; ++i) {
        // Outcomes are a set: insert the smaller into the larger (this merge runs after the
        // last worker ended, on the critical path: ~40 ms for two sets of 30,000 states).
        if (results[i].r.outcomes.size() > total.outcomes.size())
            std::swap(total.outcomes, results[i].r.outcomes);
        mergeResult(total, std::move(results[i].r));
    }
    // The workers stopped by the pool say "interrupted": the reason is the pool's.
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
    total.stats["parallel_splits"] = static_cast<double>(pool.splits.load());
    total.stats["parallel_task_events"] = static_cast<double>(pool.taskEvents.load());
    total.stats["parallel_task_bytes"] = static_cast<double>(pool.taskBytes.load());
    total.stats["parallel_worker_cpu_max_s"] = *std::max_element(cpu.begin(), cpu.end());
    double sum = 0;
    for (const double c : cpu) sum += c;
    total.stats["parallel_worker_cpu_sum_s"] = sum;
    return total;
}

}  // namespace porlab::graph
