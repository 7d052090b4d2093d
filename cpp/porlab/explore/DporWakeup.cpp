// SPDX-License-Identifier: MIT
// Wakeup trees (Optimal) and source sets (Source) of the DPOR engine: the node pool, and the
// insertion of a wakeup sequence at a prefix unless a sleep set or the tree makes it redundant.
#include "porlab/explore/DporEngineImpl.hpp"

#include <stdexcept>
#include <string>

namespace porlab::dpor::detail {

int Engine::allocNode(const Event& e, std::int8_t fail) {
    int id;
    if (!freeNodes_.empty()) {
        id = freeNodes_.back();
        freeNodes_.pop_back();
    } else {
        id = static_cast<int>(nodes_.size());
        nodes_.emplace_back();
    }
    Node& n = nodes_[static_cast<std::size_t>(id)];
    n.ev = e;
    n.first = n.last = n.next = -1;
    n.fail = fail;
    ++liveNodes_;
    nodesMax_ = std::max(nodesMax_, liveNodes_);
    return id;
}

void Engine::freeSubtree(int id) {
    freeWork_.assign(1, id);
    while (!freeWork_.empty()) {
        const int n = freeWork_.back();
        freeWork_.pop_back();
        for (int c = nodes_[static_cast<std::size_t>(n)].first; c != -1;
             c = nodes_[static_cast<std::size_t>(c)].next)
            freeWork_.push_back(c);
        freeNodes_.push_back(n);
        --liveNodes_;
    }
}

int Engine::firstItemOf(ThreadId q) const {
    for (std::size_t a = 0; a <= items_.size(); ++a)
        if (alive_[a] && itemEv(a).thread == q) return static_cast<int>(a);
    return -1;
}

bool Engine::hasPred(std::size_t a) const {
    const std::uint32_t* c = itemClk(a);
    for (std::size_t b = 0; b < a; ++b) {
        if (!alive_[b]) continue;
        const Event& g = itemEv(b);
        if (c[g.thread] > g.index) return true;
    }
    return false;
}

bool Engine::weakInitial(const Event& qev, bool qfails) const {
    const int a = firstItemOf(qev.thread);
    if (a >= 0) return !hasPred(static_cast<std::size_t>(a));
    if (qfails) return false;
    for (std::size_t b = 0; b <= items_.size(); ++b)
        if (alive_[b] && dep(qev, itemEv(b))) return false;
    return true;
}

void Engine::closeSequence(const Event& last, std::int8_t lastFail) {
    last_ = last;
    lastFail_ = lastFail;
    std::fill(lastClk_.begin(), lastClk_.end(), 0u);
    lastClk_[static_cast<std::size_t>(last.thread)] = last.index + 1;
    for (int k : items_) {
        if (!dep(ev_[static_cast<std::size_t>(k)], last)) continue;
        const std::uint32_t* o = clk(k);
        for (std::size_t t = 0; t < T_; ++t) lastClk_[t] = std::max(lastClk_[t], o[t]);
    }
    alive_.assign(items_.size() + 1, 1);
}

std::int8_t Engine::resolveFail(std::size_t k, int c) {
    exec_->restore(snap_[k]);
    auto stepNode = [&](int id) {
        const Event& ne = nodes_[static_cast<std::size_t>(id)].ev;
        if (!exec_->enabled(ne.thread))
            throw std::logic_error("dpor: wakeup tree branch schedules a disabled thread");
        (void)exec_->step(ne.thread);
        rep_.countEvent();
        ++replays_;
    };
    for (int id : path_) stepNode(id);
    stepNode(c);
    const std::int8_t f = exec_->failed() ? 1 : 0;
    nodes_[static_cast<std::size_t>(c)].fail = f;
    return f;
}

void Engine::insertSequence(std::size_t k) {
    if (mode_ == Mode::Source) {
        // Source-DPOR: v ends at e' (it is not a whole maximal execution), so the sleep set
        // cannot prove it redundant; only the initials are compared with the source set.
        for (std::size_t a = 0; a <= items_.size(); ++a) {
            const ThreadId q = itemEv(a).thread;
            if ((back_[k] >> q & 1U) && firstItemOf(q) == static_cast<int>(a) && !hasPred(a)) {
                ++redundant_;
                return;
            }
        }
        back_[k] |= 1ULL << itemEv(0).thread;
        ++inserted_;
        return;
    }
    for (const auto& s : sleep_[k])
        if (weakInitial(s.ev, s.fails)) {
            ++redundant_;
            return;
        }
    int node = root_[k];
    path_.clear();
    bool descended = true;
    while (descended) {
        descended = false;
        for (int c = nodes_[static_cast<std::size_t>(node)].first; c != -1;
             c = nodes_[static_cast<std::size_t>(c)].next) {
            const Node& cn = nodes_[static_cast<std::size_t>(c)];
            const int a = firstItemOf(cn.ev.thread);
            if (a < 0) {
                // p not in v: a weak initial when independent of v and performing it does
                // not end the run (a failing step disables every other thread).
                if (cn.fail == 1 || !weakInitial(cn.ev, false)) continue;
                if (cn.fail == -1 && resolveFail(k, c) != 0) continue;
                ++redundant_;
                return;
            }
            if (hasPred(static_cast<std::size_t>(a))) continue;
            // v's item a is this branch's event; items before the last never fail.
            if (static_cast<std::size_t>(a) < items_.size() && cn.fail == -1)
                nodes_[static_cast<std::size_t>(c)].fail = 0;
            alive_[static_cast<std::size_t>(a)] = 0;
            if (std::find(alive_.begin(), alive_.end(), 1) == alive_.end()) {
                ++redundant_;
                return;
            }
            node = c;
            path_.push_back(c);
            if (nodes_[static_cast<std::size_t>(c)].first == -1) {
                ++redundant_;
                return;
            }
            descended = true;
            break;
        }
    }
    for (std::size_t a = 0; a <= items_.size(); ++a) {
        if (!alive_[a]) continue;
        const int id = allocNode(itemEv(a), a < items_.size() ? std::int8_t{0} : lastFail_);
        appendChild(node, id);
        node = id;
    }
    ++inserted_;
}

}  // namespace porlab::dpor::detail
