// SPDX-License-Identifier: MIT
// Vector clocks as contiguous arrays: entry t counts the events of thread t that happen before or
// equal the event the clock belongs to.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace porlab {

class VectorClock {
  public:
    VectorClock() = default;
    explicit VectorClock(std::size_t threads) : c_(threads, 0) {}

    [[nodiscard]] std::uint32_t operator[](std::size_t t) const {
        return t < c_.size() ? c_[t] : 0;
    }
    void set(std::size_t t, std::uint32_t v) {
        if (t >= c_.size()) c_.resize(t + 1, 0);
        c_[t] = v;
    }
    void join(const VectorClock& o) {
        if (o.c_.size() > c_.size()) c_.resize(o.c_.size(), 0);
        for (std::size_t i = 0; i < o.c_.size(); ++i) c_[i] = std::max(c_[i], o.c_[i]);
    }
    [[nodiscard]] std::size_t size() const { return c_.size(); }
    // Does the event (thread t, index i) happen before or equal this clock?
    [[nodiscard]] bool covers(std::size_t t, std::uint32_t index) const {
        return (*this)[t] > index;
    }
    friend bool operator==(const VectorClock&, const VectorClock&) = default;

  private:
    std::vector<std::uint32_t> c_;
};

}  // namespace porlab
