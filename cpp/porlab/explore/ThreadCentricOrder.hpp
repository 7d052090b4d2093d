// SPDX-License-Identifier: MIT
// The order machinery of the value-centric and data-centric explorers (ThreadCentric.cpp, whose
// header comment describes the design): a reads-from class's events (Coarse), the orders every
// linearisation must respect (Closure) and the search for a linearisation (Linearizer). Internal
// to ThreadCentric.cpp; not an interface.
#pragma once

#include <algorithm>
#include <cstdint>
#include <unordered_set>
#include <vector>

#include "porlab/core/Trace.hpp"

namespace porlab::thread_centric {

// The events of one trace of a reads-from class, with what the search needs.
struct Coarse {
    const Trace* trace = nullptr;
    int n = 0;
    int threads = 0;
    std::vector<ThreadId> thread;                  // by position
    std::vector<std::uint32_t> po;                 // index among the thread's events
    std::vector<std::vector<int>> groups;          // positions by thread, in program order
    std::vector<std::vector<std::uint32_t>> need;  // [i][u]: u's events causally before i
    std::vector<int> rf;                           // source position, kInitWrite or kNotARead
    std::vector<std::vector<int>> readsOf;         // by location: the reads
    std::vector<std::vector<int>> writesOf;        // by location: the writes
    // Pairs (a, b), a before b in the trace, that every trace of the class orders so: a plain
    // write and a kill (a free or a frame end: an exchange writing kDeadValue) of its location.
    // A write after the kill faults (rf explores it as a read of the location's liveness), so
    // in a complete or blocked trace the write is before the kill; the trace's reads-from does
    // not say it.
    std::vector<std::pair<int, int>> fixed;

    Coarse(const Trace& t) : trace(&t), n(static_cast<int>(t.size())) {
        threads = t.numThreads();
        groups.resize(static_cast<std::size_t>(threads));
        thread.resize(static_cast<std::size_t>(n));
        po.resize(static_cast<std::size_t>(n));
        rf = t.readsFrom();
        const auto causal = t.causalOrder();
        need.resize(static_cast<std::size_t>(n));
        readsOf.resize(static_cast<std::size_t>(std::max(0, t.numLocations())));
        writesOf.resize(readsOf.size());
        for (int i = 0; i < n; ++i) {
            const Event& e = t[static_cast<std::size_t>(i)];
            const auto iu = static_cast<std::size_t>(i);
            thread[iu] = e.thread;
            auto& g = groups[static_cast<std::size_t>(e.thread)];
            po[iu] = static_cast<std::uint32_t>(g.size());
            g.push_back(i);
            need[iu].resize(static_cast<std::size_t>(threads));
            for (int u = 0; u < threads; ++u)
                need[iu][static_cast<std::size_t>(u)] =
                    u == e.thread ? 0 : causal[iu][static_cast<std::size_t>(u)];
            if (e.loc < 0 || !accessesMemory(e.kind)) continue;
            const auto l = static_cast<std::size_t>(e.loc);
            if (l >= readsOf.size()) {
                readsOf.resize(l + 1);
                writesOf.resize(l + 1);
            }
            if (readsMemory(e.kind)) readsOf[l].push_back(i);
            if (writesMemory(e.kind)) writesOf[l].push_back(i);
        }
        for (const auto& ws : writesOf)
            for (int k : ws) {
                if (!isKill(ev(k))) continue;
                for (int w : ws)
                    if (w != k && ev(w).kind == EventKind::Write)
                        fixed.emplace_back(std::min(w, k), std::max(w, k));
            }
    }

    [[nodiscard]] static bool isKill(const Event& e) {
        return e.kind == EventKind::Exchange && e.wval == kDeadValue;
    }

    [[nodiscard]] const Event& ev(int i) const { return (*trace)[static_cast<std::size_t>(i)]; }
    // Is a before b in every linearisation with this reads-from (causal order)?
    [[nodiscard]] bool causallyBefore(int a, int b) const {
        const auto ta = static_cast<std::size_t>(thread[static_cast<std::size_t>(a)]);
        if (ta == static_cast<std::size_t>(thread[static_cast<std::size_t>(b)]))
            return po[static_cast<std::size_t>(a)] < po[static_cast<std::size_t>(b)];
        return need[static_cast<std::size_t>(b)][ta] > po[static_cast<std::size_t>(a)];
    }
};

struct VecHash {
    std::size_t operator()(const std::vector<std::uint32_t>& v) const noexcept {
        std::uint64_t h = 1469598103934665603ULL;
        for (auto x : v) h = (h ^ x) * 1099511628211ULL;
        return static_cast<std::size_t>(h);
    }
};

// Orders every linearisation with a class's reads-from must respect, closed under transitivity
// and saturated with what reads-from forces on writes (for a read r of x from s and another write
// w of x: w before r puts w before s, and s before w puts r before w; a read of the initial
// value comes before every write of x). Necessary, not sufficient: it prunes orientations
// before the search is asked.
class Closure {
  public:
    explicit Closure(const Coarse& c)
        : c_(&c),
          words_((static_cast<std::size_t>(c.n) + 63) / 64),
          bits_(static_cast<std::size_t>(c.n) * words_, 0) {
        for (int j = 0; j < c.n; ++j)
            for (int i = 0; i < c.n; ++i)
                if (i != j && c.causallyBefore(i, j)) set(i, j);
        for (std::size_t l = 0; l < c.readsOf.size(); ++l)
            for (int r : c.readsOf[l])
                if (c.rf[static_cast<std::size_t>(r)] == kInitWrite)
                    for (int w : c.writesOf[l])
                        if (w != r) (void)edge(r, w);  // (saturated once, below)
        for (auto [a, b] : c.fixed) (void)edge(a, b);
        (void)saturate();
    }

    [[nodiscard]] bool get(int i, int j) const {
        const auto ju = static_cast<std::size_t>(j);
        return (bits_[static_cast<std::size_t>(i) * words_ + ju / 64] >> (ju % 64)) & 1U;
    }

    // Adds a before b and its consequences; false when that contradicts the orders.
    [[nodiscard]] bool add(int a, int b) {
        if (!edge(a, b)) return false;
        return saturate();
    }

  private:
    void set(int i, int j) {
        const auto ju = static_cast<std::size_t>(j);
        bits_[static_cast<std::size_t>(i) * words_ + ju / 64] |= std::uint64_t{1} << (ju % 64);
    }

    // a before b, transitively: everything before a (and a) goes before b and what follows b.
    bool edge(int a, int b) {
        if (a == b || get(b, a)) return false;
        if (get(a, b)) return true;
        const auto bu = static_cast<std::size_t>(b);
        for (int x = 0; x < c_->n; ++x) {
            if (x != a && !get(x, a)) continue;
            auto* row = &bits_[static_cast<std::size_t>(x) * words_];
            const auto* rb = &bits_[bu * words_];
            for (std::size_t k = 0; k < words_; ++k) row[k] |= rb[k];
            set(x, b);
            if (get(x, x)) return false;
        }
        return true;
    }

    bool saturate() {
        for (bool changed = true; changed;) {
            changed = false;
            for (std::size_t l = 0; l < c_->readsOf.size(); ++l) {
                for (int r : c_->readsOf[l]) {
                    const int src = c_->rf[static_cast<std::size_t>(r)];
                    if (src < 0) continue;  // initial-value readers: fixed in the constructor
                    for (int w : c_->writesOf[l]) {
                        if (w == src || w == r) continue;
                        if (get(w, r) && !get(w, src)) {
                            if (!edge(w, src)) return false;
                            changed = true;
                        }
                        if (get(src, w) && !get(r, w)) {
                            if (!edge(r, w)) return false;
                            changed = true;
                        }
                    }
                }
            }
        }
        return true;
    }

    const Coarse* c_;
    std::size_t words_;
    std::vector<std::uint64_t> bits_;
};

// The search for a linearisation (see the top of the file). `extra[i]`: events that must come
// before i besides its causal past; `rank[i]`: the position of i in a guiding linearisation,
// followed where it can be.
class Linearizer {
  public:
    explicit Linearizer(const Coarse& c) : c_(c) {}

    bool find(const std::vector<std::vector<int>>& extra, const std::vector<int>& rank,
              std::vector<int>& out) {
        ++searches;
        extra_ = &extra;
        rank_ = &rank;
        done_.assign(static_cast<std::size_t>(c_.threads), 0);
        in_.assign(static_cast<std::size_t>(c_.n), 0);
        failed_.clear();
        failedPacked_.clear();
        // A set of events is its per-thread counts; 8 bits each fit in one word for up to 8
        // threads of up to 255 events (exact, no hashing of vectors).
        packed_ = c_.threads <= 8;
        for (const auto& g : c_.groups) packed_ = packed_ && g.size() < 256;
        out.clear();
        return dfs(out);
    }

    std::uint64_t searches = 0, states = 0;

  private:
    [[nodiscard]] bool isIn(int i) const { return in_[static_cast<std::size_t>(i)] != 0; }

    [[nodiscard]] bool ready(int i) const {
        const auto iu = static_cast<std::size_t>(i);
        for (int u = 0; u < c_.threads; ++u)
            if (done_[static_cast<std::size_t>(u)] < c_.need[iu][static_cast<std::size_t>(u)])
                return false;
        for (int p : (*extra_)[iu])
            if (!isIn(p)) return false;
        const Event& e = c_.ev(i);
        if (e.loc >= 0 && writesMemory(e.kind)) {
            for (int r : c_.readsOf[static_cast<std::size_t>(e.loc)]) {
                if (r == i || isIn(r)) continue;
                const int s = c_.rf[static_cast<std::size_t>(r)];
                if (s == kInitWrite || (s >= 0 && isIn(s))) return false;
            }
        }
        return true;
    }

    [[nodiscard]] std::uint64_t pack() const {
        std::uint64_t w = 0;
        for (auto d : done_) w = (w << 8) | d;
        return w;
    }

    // Depth first over the sets of events placed so far (a thread's next event is a candidate
    // once it is ready), candidates in the witness's order; a set that led nowhere is recorded
    // and never searched again. A work list: its depth is the number of events.
    struct Level {
        std::vector<int> cand;  // the ready events of this set, in rank order
        std::size_t next = 0;   // the next to try; cand[next - 1] is placed when next > 0
    };

    [[nodiscard]] bool failedBefore() const {
        return packed_ ? failedPacked_.count(pack()) != 0 : failed_.count(done_) != 0;
    }

    void markFailed() {
        if (packed_)
            failedPacked_.insert(pack());
        else
            failed_.insert(done_);
    }

    void place(int i, std::vector<int>& out, bool in) {
        const auto u = static_cast<std::size_t>(c_.thread[static_cast<std::size_t>(i)]);
        if (in) {
            ++done_[u];
            out.push_back(i);
        } else {
            --done_[u];
            out.pop_back();
        }
        in_[static_cast<std::size_t>(i)] = in ? 1 : 0;
    }

    bool dfs(std::vector<int>& out) {
        std::size_t depth = 0;  // levels_[0, depth) are live (their vectors are reused)
        for (;;) {
            if (static_cast<int>(out.size()) == c_.n) return true;
            if (!failedBefore()) {
                ++states;
                if (levels_.size() == depth) levels_.emplace_back();
                Level& lv = levels_[depth++];
                lv.cand.clear();
                lv.next = 0;
                for (int u = 0; u < c_.threads; ++u) {
                    const auto& g = c_.groups[static_cast<std::size_t>(u)];
                    const auto d = done_[static_cast<std::size_t>(u)];
                    if (d < g.size() && ready(g[d])) lv.cand.push_back(g[d]);
                }
                std::sort(lv.cand.begin(), lv.cand.end(), [&](int a, int b) {
                    return (*rank_)[static_cast<std::size_t>(a)] <
                           (*rank_)[static_cast<std::size_t>(b)];
                });
            }
            // The deepest level with a candidate left places it; exhausted levels are failures.
            for (;;) {
                if (depth == 0) return false;
                Level& lv = levels_[depth - 1];
                if (lv.next > 0) place(lv.cand[lv.next - 1], out, false);
                if (lv.next < lv.cand.size()) {
                    place(lv.cand[lv.next++], out, true);
                    break;
                }
                markFailed();
                --depth;
            }
        }
    }

    const Coarse& c_;
    const std::vector<std::vector<int>>* extra_ = nullptr;
    const std::vector<int>* rank_ = nullptr;
    std::vector<std::uint32_t> done_;
    std::vector<char> in_;
    std::unordered_set<std::vector<std::uint32_t>, VecHash> failed_;
    std::unordered_set<std::uint64_t> failedPacked_;
    std::vector<Level> levels_;
    bool packed_ = false;
};

}  // namespace porlab::thread_centric
