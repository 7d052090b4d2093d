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
            dfs(0);
        }
        if (zneBlocked_) result_.stats["zne_blocked"] = static_cast<double>(zneBlocked_);
        rep_.finish();
    }

private:
    void dfs(std::size_t depth) {
        if (snaps_.size() <= depth) snaps_.resize(depth + 1);
        const int n = exec_->maxThreads();
        // The enabled set of this state, computed before any child changes the state.
        if (enabled_.size() <= depth) enabled_.resize(depth + 1);
        // (indexed, not referenced: deeper calls may grow enabled_)
        enabled_[depth].clear();
        for (ThreadId t = 0; t < n; ++t)
            if (exec_->enabled(t)) enabled_[depth].push_back(t);
        bool any = false;
        // A state with one enabled thread has one child: nothing to come back to, no snapshot
        // (most states of a program with little concurrency are such states).
        const bool branches = enabled_[depth].size() > 1;
        for (std::size_t i = 0; i < enabled_[depth].size(); ++i) {
            const ThreadId t = enabled_[depth][i];
            if (rep_.stop()) return;
            if (!any) {
                if (branches) exec_->save(snaps_[depth]);
            } else {
                exec_->restore(snaps_[depth]);
            }
            any = true;
            const std::size_t mark = events_.size();
            auto ev = exec_->step(t);
            rep_.countEvent();
            events_.insert(events_.end(), ev.begin(), ev.end());
            if (exec_->failed()) rep_.maximal(TraceStatus::Error, *exec_, events_);
            else dfs(depth + 1);
            events_.resize(mark);
            if (rep_.stopped()) return;
        }
        if (!any) {
            // Threads still waiting at a zne await are blocked there (cause zne).
            for (ThreadId t = 0; zne_ && t < n; ++t)
                if (exec_->status(t) == ThreadStatus::Ready && exec_->pending(t).zne &&
                    exec_->pending(t).aux >= 0 && exec_->pending(t).kind == EventKind::FetchAdd) {
                    auto ev = exec_->blockThread(t, BlockCause::Zne);
                    events_.insert(events_.end(), ev.begin(), ev.end());
                    ++zneBlocked_;
                }
            rep_.maximal(Reporter::classify(*exec_), *exec_, events_);
        }
    }

    std::unique_ptr<Execution> exec_;
    Reporter rep_;
    ExploreResult& result_;
    std::vector<Event> events_;
    std::vector<Snapshot> snaps_;
    std::vector<std::vector<ThreadId>> enabled_;
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
