// SPDX-License-Identifier: MIT
// What the two work-stealing pools (the graph engine's WorkPool, rf/rvf's RvfPool) share: how a
// run stops. The traces budget is counted across workers, the first reason to stop is kept, and a
// stop interrupts every worker's explorer and wakes the idle ones.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "porlab/explore/Explorer.hpp"

namespace porlab {

class PoolStop {
  public:
    // Count one complete trace against `max`; false: over the budget (do not report it).
    [[nodiscard]] bool countTrace(std::uint64_t max) {
        const std::uint64_t n = traces_.fetch_add(1) + 1;
        if (n > max) return false;
        if (n == max) stop("traces");
        return true;
    }
    void stop(const std::string& reason) {
        {
            std::lock_guard lk(mu_);
            if (reason_.empty()) reason_ = reason;
        }
        stop_.store(true);
        for (ExploreControl* c : controls_) c->interrupt.store(true, std::memory_order_relaxed);
        { std::lock_guard lk(idleMu_); }  // (an idle worker that checked `stop_` now waits)
        idleCv_.notify_all();
    }
    [[nodiscard]] bool stopped() const { return stop_.load(std::memory_order_relaxed); }
    [[nodiscard]] std::string stopReason() {
        std::lock_guard lk(mu_);
        return reason_;
    }
    // Interrupt this worker's explorer when the pool stops (register before the workers start).
    void watch(ExploreControl& c) { controls_.push_back(&c); }

  protected:
    std::atomic<bool> stop_{false};
    std::atomic<std::uint64_t> traces_{0};
    std::mutex idleMu_;
    std::condition_variable idleCv_;
    std::mutex mu_;  // reason_, and the deriving pool's reported errors
    std::string reason_;
    std::vector<ExploreControl*> controls_;
};

// The driver's loop while the workers run: forward() (live counters, budgets, the poll hook)
// every 20 ms, every 2 ms with an events budget (which only the driver sees); each wake-up takes
// a core from a worker on a machine with as many cores as workers, so not more often (it was 2 ms
// always: 500 preemptions a second). `cv` (with `mu`) wakes it at once when done() holds.
template <class Forward, class Done>
void watchWorkers(std::mutex& mu, std::condition_variable& cv, bool eventsBudget, Forward&& forward,
                  Done&& done) {
    const auto period = std::chrono::milliseconds(eventsBudget ? 2 : 20);
    std::unique_lock lk(mu);
    while (!done()) {
        lk.unlock();
        forward();
        lk.lock();
        cv.wait_for(lk, period, done);
    }
}

}  // namespace porlab
