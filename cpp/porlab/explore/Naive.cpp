// SPDX-License-Identifier: MIT
// The exhaustive explorer: every interleaving of enabled threads, depth first. The oracle every
// other explorer is checked against. State is restored from a snapshot per depth (no replay).
#include "porlab/core/Errors.hpp"
#include "porlab/explore/Explorer.hpp"

namespace porlab {

namespace {

class Naive {
  public:
    Naive(const Program& p, const ExploreOptions& o, ExploreResult& r)
        : exec_(p.newExecution()), rep_(p, o, r), result_(r) {
        // zne awaits (Execution::setZneAwaits): a canceling decrement waits for an observer of
        // its increment; on unless option zne=off.
        zne_ = o.option<std::string>("zne", "naive") == "on" && exec_->setZneAwaits(true);
    }

    void run() {
        auto init = exec_->reset();
        events_.assign(init.begin(), init.end());
        if (exec_->failed()) {
            rep_.maximal(TraceStatus::Error, *exec_, events_);
        } else {
            explore();
        }
        if (zneBlocked_) result_.stats["zne_blocked"] = static_cast<double>(zneBlocked_);
        rep_.finish();
    }

  private:
    // One state of the search: its enabled threads (computed before any child changes the
    // state), the next of them to run, and where the trace stood before the child's step.
    struct Frame {
        std::vector<ThreadId> enabled;
        std::size_t next = 0;
        std::size_t mark = 0;
    };

    // Depth first, with the frames on a stack of our own rather than one native call per event:
    // an execution of a million events must not overflow the caller's stack.
    void explore() {
        if (!open(0)) return;
        std::size_t d = 0;
        for (;;) {
            if (frames_[d].next == frames_[d].enabled.size()) {  // every child done: back up
                if (d == 0) return;
                --d;
                events_.resize(frames_[d].mark);
                if (rep_.stopped()) return;
                continue;
            }
            if (rep_.stop()) return;
            Frame& f = frames_[d];
            const ThreadId t = f.enabled[f.next];
            // A state with one enabled thread has one child: nothing to come back to, no
            // snapshot (most states of a program with little concurrency are such states).
            if (f.next == 0) {
                if (f.enabled.size() > 1) exec_->save(snaps_[d]);
            } else {
                exec_->restore(snaps_[d]);
            }
            ++f.next;
            const std::size_t mark = events_.size();
            f.mark = mark;
            auto ev = exec_->step(t);
            rep_.countEvent();
            events_.insert(events_.end(), ev.begin(), ev.end());
            if (!exec_->failed() && open(d + 1)) {
                ++d;
                continue;
            }
            if (exec_->failed()) rep_.maximal(TraceStatus::Error, *exec_, events_);
            events_.resize(mark);
            if (rep_.stopped()) return;
        }
    }

    // Sets up the frame of the state at depth d; at a maximal state (nothing enabled) reports
    // the trace instead and returns false.
    bool open(std::size_t d) {
        if (frames_.size() <= d) {
            frames_.resize(d + 1);
            snaps_.resize(d + 1);
        }
        Frame& f = frames_[d];
        f.enabled.clear();
        f.next = 0;
        const int n = exec_->maxThreads();
        for (ThreadId t = 0; t < n; ++t)
            if (exec_->enabled(t)) f.enabled.push_back(t);
        if (!f.enabled.empty()) return true;
        // Threads still waiting at a zne await are blocked there (cause zne).
        for (ThreadId t = 0; zne_ && t < n; ++t)
            if (exec_->status(t) == ThreadStatus::Ready && exec_->pending(t).zne &&
                exec_->pending(t).aux >= 0 && exec_->pending(t).kind == EventKind::FetchAdd) {
                auto ev = exec_->blockThread(t, BlockCause::Zne);
                events_.insert(events_.end(), ev.begin(), ev.end());
                ++zneBlocked_;
            }
        rep_.maximal(Reporter::classify(*exec_), *exec_, events_);
        return false;
    }

    std::unique_ptr<Execution> exec_;
    Reporter rep_;
    ExploreResult& result_;
    std::vector<Event> events_;
    std::vector<Snapshot> snaps_;
    std::vector<Frame> frames_;  // by depth
    bool zne_ = false;
    std::uint64_t zneBlocked_ = 0;
};

}  // namespace

ExploreResult exploreNaive(const Program& program, const ExploreOptions& opts) {
    ExploreResult r;
    Naive(program, opts, r).run();
    return r;
}

}  // namespace porlab
