// SPDX-License-Identifier: MIT
#include "porlab/explore/RvfVerifySC.hpp"

#include <algorithm>
#include <chrono>
#include <limits>

namespace porlab::rvf {

namespace {

class Solver {
public:
    Solver(const Instance& inst, const VscOptions& opts, VscStats& stats)
        : inst_(inst), opts_(opts), stats_(stats), steps_(*inst.steps),
          T_(static_cast<int>(inst.len.size())), L_(inst.numLocs) {}

    std::optional<std::vector<ThreadId>> run() {
        index();
        if (opts_.closure && !closure()) {
            ++stats_.closureRejects;
            return std::nullopt;
        }
        pos_.assign(static_cast<std::size_t>(T_), 0);
        if (!dfs()) return std::nullopt;
        return seq_;
    }

private:
    // ---- the instance, flattened: event id = off_[t] + i; finals get ids n_ + j --------------
    struct Ev {
        std::int32_t t = 0, i = 0;
        LocId loc = kNoLoc;
        bool read = false, write = false;
        const Step* step = nullptr;
    };

    [[nodiscard]] int id(int t, int i) const { return off_[static_cast<std::size_t>(t)] + i; }
    [[nodiscard]] int wid(const WriteRef& w) const { return w.t == kInitThread ? -1 : id(w.t, w.i); }

    void index() {
        off_.assign(static_cast<std::size_t>(T_) + 1, 0);
        for (int t = 0; t < T_; ++t) off_[t + 1] = off_[t] + inst_.len[t];
        n_ = off_[T_];
        const int nf = static_cast<int>(inst_.finals.size());
        ev_.resize(static_cast<std::size_t>(n_ + nf));
        good_.assign(static_cast<std::size_t>(n_ + nf), {});
        for (int t = 0; t < T_; ++t)
            for (int i = 0; i < inst_.len[t]; ++i) {
                const Step& s = steps_[t][static_cast<std::size_t>(i)];
                Ev& e = ev_[static_cast<std::size_t>(id(t, i))];
                e = {t, i, s.ev.loc, s.reads, s.writes, &s};
                if (s.reads)
                    for (const WriteRef& w : s.good) good_[static_cast<std::size_t>(id(t, i))].push_back(wid(w));
            }
        for (int j = 0; j < nf; ++j) {
            Ev& e = ev_[static_cast<std::size_t>(n_ + j)];
            e.t = -1;
            e.i = j;
            e.loc = inst_.finals[static_cast<std::size_t>(j)].first;
            e.read = true;
            for (const WriteRef& w : inst_.finals[static_cast<std::size_t>(j)].second)
                good_[static_cast<std::size_t>(n_ + j)].push_back(wid(w));
        }
        readersOf_.assign(static_cast<std::size_t>(n_), {});
        initReaders_.assign(L_, {});
        remaining_.assign(static_cast<std::size_t>(n_ + nf), 0);
        unexecReaders_.assign(static_cast<std::size_t>(n_), 0);
        initUnexec_.assign(L_, 0);
        holders_.assign(L_, 0);
        active_.assign(L_, -1);
        for (int r = 0; r < n_ + nf; ++r) {
            const Ev& e = ev_[static_cast<std::size_t>(r)];
            if (!e.read) continue;
            for (int w : good_[static_cast<std::size_t>(r)]) {
                if (w < 0) {
                    initReaders_[static_cast<std::size_t>(e.loc)].push_back(r);
                    ++initUnexec_[static_cast<std::size_t>(e.loc)];
                } else {
                    readersOf_[static_cast<std::size_t>(w)].push_back(r);
                    ++remaining_[static_cast<std::size_t>(r)];
                    ++unexecReaders_[static_cast<std::size_t>(w)];
                }
            }
            // The initial write is executed from the start.
            if (remaining_[static_cast<std::size_t>(r)] == 0) ++holders_[static_cast<std::size_t>(e.loc)];
        }
        rank_.assign(static_cast<std::size_t>(n_), std::numeric_limits<int>::max());
        if (opts_.guidance && inst_.aux) {
            std::vector<int> cnt(static_cast<std::size_t>(T_), 0);
            int p = 0;
            for (ThreadId t : *inst_.aux) {
                if (t >= 0 && t < T_ && cnt[t] < inst_.len[t]) rank_[static_cast<std::size_t>(id(t, cnt[t]))] = p;
                ++cnt[static_cast<std::size_t>(t)];
                ++p;
            }
        }
    }

    // ---- closure (§4.2 item 2): the weakest partial order P refining program order that
    // satisfies the four closure conditions; every witness linearises it. Kept as vector clocks:
    // vc_[e*T + u] = number of thread u's events <=P e.
    [[nodiscard]] bool lt(int a, int b) const {  // a <P b; -1 is the initial write
        if (a == b) return false;
        if (a < 0) return true;
        if (b < 0 || a >= n_) return false;
        if (b >= n_) return true;  // final reads come after every event
        const Ev& ea = ev_[static_cast<std::size_t>(a)];
        return vc_[static_cast<std::size_t>(b) * T_ + ea.t] >= ea.i + 1;
    }

    [[nodiscard]] bool computeClocks() {
        vc_.assign(static_cast<std::size_t>(n_) * T_, 0);
        std::vector<std::int32_t> nv(static_cast<std::size_t>(T_));
        for (bool changed = true; changed;) {
            changed = false;
            for (int t = 0; t < T_; ++t)
                for (int i = 0; i < inst_.len[t]; ++i) {
                    const int e = id(t, i);
                    std::fill(nv.begin(), nv.end(), 0);
                    auto join = [&](int s) {
                        if (s < 0) return true;
                        const std::int32_t* c = &vc_[static_cast<std::size_t>(s) * T_];
                        if (c[t] >= i + 1) return false;  // e <=P s and s -> e: a cycle
                        for (int u = 0; u < T_; ++u) nv[u] = std::max(nv[u], c[u]);
                        return true;
                    };
                    if (i > 0) join(e - 1);
                    else if (!join(spawnId(t))) return false;
                    const Step& s = *ev_[static_cast<std::size_t>(e)].step;
                    if (s.ev.kind == EventKind::Join && s.ev.aux >= 0 && s.ev.aux < T_) {
                        const int c = s.ev.aux;
                        if (!join(inst_.len[c] > 0 ? id(c, inst_.len[c] - 1) : spawnId(c))) return false;
                    }
                    for (int src : in_[static_cast<std::size_t>(e)])
                        if (!join(src)) return false;
                    nv[t] = i + 1;
                    std::int32_t* c = &vc_[static_cast<std::size_t>(e) * T_];
                    if (!std::equal(nv.begin(), nv.end(), c)) {
                        std::copy(nv.begin(), nv.end(), c);
                        changed = true;
                    }
                }
        }
        return true;
    }

    [[nodiscard]] int spawnId(int t) const {
        const SpawnPoint sp = (*inst_.spawnOf)[static_cast<std::size_t>(t)];
        if (sp.t < 0 || sp.i >= inst_.len[sp.t]) return -1;
        return id(sp.t, sp.i);
    }

    void addEdge(int from, int to) {
        in_[static_cast<std::size_t>(to)].push_back(from);
        added_ = true;
    }

    [[nodiscard]] bool closure() {
        in_.assign(static_cast<std::size_t>(n_), {});
        // writes per location (ids), for the closure conditions
        std::vector<std::vector<int>> writes(L_);
        for (int e = 0; e < n_; ++e)
            if (ev_[static_cast<std::size_t>(e)].write)
                writes[static_cast<std::size_t>(ev_[static_cast<std::size_t>(e)].loc)].push_back(e);
        std::vector<int> cl, bad;
        for (;;) {
            if (!computeClocks()) return false;
            added_ = false;
            const int nr = n_ + static_cast<int>(inst_.finals.size());
            for (int r = 0; r < nr; ++r) {
                const Ev& er = ev_[static_cast<std::size_t>(r)];
                if (!er.read) continue;
                const auto& W = writes[static_cast<std::size_t>(er.loc)];
                const auto& G = good_[static_cast<std::size_t>(r)];
                auto isGood = [&](int w) { return std::find(G.begin(), G.end(), w) != G.end(); };
                cl.clear();
                for (int w : G) {
                    if (w >= 0 && lt(r, w)) continue;
                    bool hidden = false;
                    for (int w2 : W)
                        if (w2 != w && w2 != r && lt(w, w2) && lt(w2, r)) {
                            hidden = true;
                            break;
                        }
                    if (!hidden) cl.push_back(w);
                }
                if (cl.empty()) return false;  // condition 1
                bad.clear();
                if (!isGood(-1)) bad.push_back(-1);
                for (int w : W)
                    if (w != r && !isGood(w)) bad.push_back(w);
                // condition 2: a least element of Cl(r) is before r
                for (int w : cl) {
                    bool least = true;
                    for (int w2 : cl) least = least && (w2 == w || lt(w, w2));
                    if (least) {
                        if (w >= 0 && !lt(w, r)) addEdge(w, r);
                        break;
                    }
                }
                // condition 3: with a greatest element w, a bad write before r is before w
                for (int w : cl) {
                    bool greatest = true;
                    for (int w2 : cl) greatest = greatest && (w2 == w || lt(w2, w));
                    if (!greatest) continue;
                    for (int b : bad)
                        if (lt(b, r) && !lt(b, w)) {
                            if (w < 0 || b < 0) return false;
                            addEdge(b, w);
                        }
                    break;
                }
                // condition 4: a bad write after every write of Cl(r) is after r
                for (int b : bad) {
                    if (b < 0) continue;
                    bool after = true;
                    for (int w : cl) after = after && lt(w, b);
                    if (after && !lt(r, b)) {
                        if (r >= n_) return false;  // nothing comes after a final read
                        addEdge(r, b);
                    }
                }
            }
            if (!added_) return true;
        }
    }

    // ---- the witness-state search (Algorithm 1) ------------------------------------------------
    [[nodiscard]] bool executed(int r) const {
        if (r >= n_) return false;  // final reads wait for every event
        const Ev& e = ev_[static_cast<std::size_t>(r)];
        return pos_[static_cast<std::size_t>(e.t)] > e.i;
    }

    [[nodiscard]] bool isGoodActive(int r) const {
        const auto& G = good_[static_cast<std::size_t>(r)];
        return std::find(G.begin(), G.end(), active_[static_cast<std::size_t>(ev_[static_cast<std::size_t>(r)].loc)]) !=
               G.end();
    }

    // The next event of thread t if it is executable in the current prefix, else -1.
    [[nodiscard]] int executable(int t) const {
        const int p = pos_[static_cast<std::size_t>(t)];
        if (p >= inst_.len[t]) return -1;
        const int e = id(t, p);
        const auto started = [&](int u) {
            const SpawnPoint sp = (*inst_.spawnOf)[static_cast<std::size_t>(u)];
            return sp.t < 0 || pos_[static_cast<std::size_t>(sp.t)] > sp.i;
        };
        if (p == 0 && !started(t)) return -1;
        const Ev& ev = ev_[static_cast<std::size_t>(e)];
        if (ev.step->ev.kind == EventKind::Join && ev.step->ev.aux >= 0 && ev.step->ev.aux < T_) {
            const int c = ev.step->ev.aux;
            if (!started(c) || pos_[static_cast<std::size_t>(c)] < inst_.len[c]) return -1;
        }
        if (!vc_.empty())
            for (int u = 0; u < T_; ++u)
                if (u != t && pos_[static_cast<std::size_t>(u)] < vc_[static_cast<std::size_t>(e) * T_ + u]) return -1;
        if (ev.read && !isGoodActive(e)) return -1;
        if (ev.write) {
            int h = holders_[static_cast<std::size_t>(ev.loc)];
            if (ev.read && remaining_[static_cast<std::size_t>(e)] == 0) --h;  // e itself
            if (h > 0) return -1;  // the location is held by a read still to come
        }
        return e;
    }

    void exec(int e) {
        const Ev& ev = ev_[static_cast<std::size_t>(e)];
        const auto loc = static_cast<std::size_t>(ev.loc);
        ++pos_[static_cast<std::size_t>(ev.t)];
        seq_.push_back(ev.t);
        if (ev.read) {
            if (remaining_[static_cast<std::size_t>(e)] == 0) --holders_[loc];
            for (int w : good_[static_cast<std::size_t>(e)]) {
                if (w < 0) --initUnexec_[loc];
                else --unexecReaders_[static_cast<std::size_t>(w)];
            }
        }
        if (ev.write) {
            prevActive_.push_back(active_[loc]);
            active_[loc] = e;
            for (int r : readersOf_[static_cast<std::size_t>(e)])
                if (--remaining_[static_cast<std::size_t>(r)] == 0 && !executed(r)) ++holders_[loc];
        }
    }

    void undo(int e) {
        const Ev& ev = ev_[static_cast<std::size_t>(e)];
        const auto loc = static_cast<std::size_t>(ev.loc);
        if (ev.write) {
            for (int r : readersOf_[static_cast<std::size_t>(e)])
                if (remaining_[static_cast<std::size_t>(r)]++ == 0 && !executed(r)) --holders_[loc];
            active_[loc] = prevActive_.back();
            prevActive_.pop_back();
        }
        if (ev.read) {
            for (int w : good_[static_cast<std::size_t>(e)]) {
                if (w < 0) ++initUnexec_[loc];
                else ++unexecReaders_[static_cast<std::size_t>(w)];
            }
            if (remaining_[static_cast<std::size_t>(e)] == 0) ++holders_[loc];
        }
        --pos_[static_cast<std::size_t>(ev.t)];
        seq_.pop_back();
    }

    void key(std::string& k) const {
        k.assign(reinterpret_cast<const char*>(pos_.data()), pos_.size() * sizeof(std::int32_t));
        for (std::size_t l = 0; l < L_; ++l) {
            const int a = active_[l];
            const std::int32_t th = a < 0 ? -1 : ev_[static_cast<std::size_t>(a)].t;
            k.append(reinterpret_cast<const char*>(&th), sizeof th);
        }
    }

    [[nodiscard]] bool dfs() {
        const std::size_t depth = seq_.size();
        if (static_cast<int>(depth) == n_) return true;
        key(keyBuf_);
        if (!done_.insert(keyBuf_).second) return false;
        ++stats_.states;
        if (cand_.size() <= depth) cand_.resize(depth + 1);
        auto& cand = cand_[depth];
        cand.clear();
        for (int t = 0; t < T_; ++t) {
            const int e = executable(t);
            if (e >= 0) cand.push_back(e);
        }
        if (opts_.greedy && !cand.empty()) {
            // (1) an executable read that writes nothing: take it, enumerate nothing else
            int pick = -1;
            for (int e : cand) {
                const Ev& ev = ev_[static_cast<std::size_t>(e)];
                if (ev.read && !ev.write) {
                    pick = e;
                    break;
                }
            }
            // (2) the active write of a location is nobody's good write, and so is an
            // executable write to it: take that write
            if (pick < 0)
                for (int e : cand) {
                    const Ev& ev = ev_[static_cast<std::size_t>(e)];
                    if (ev.read || !ev.write || unexecReaders_[static_cast<std::size_t>(e)] != 0) continue;
                    const auto loc = static_cast<std::size_t>(ev.loc);
                    const int a = active_[loc];
                    if ((a < 0 ? initUnexec_[loc] : unexecReaders_[static_cast<std::size_t>(a)]) == 0) {
                        pick = e;
                        break;
                    }
                }
            if (pick >= 0) {
                cand.assign(1, pick);
            }
        }
        if (cand.size() > 1 && opts_.guidance && inst_.aux)
            std::sort(cand.begin(), cand.end(), [&](int a, int b) {
                return rank_[static_cast<std::size_t>(a)] < rank_[static_cast<std::size_t>(b)];
            });
        for (std::size_t j = 0; j < cand_[depth].size(); ++j) {
            const int e = cand_[depth][j];
            exec(e);
            if (dfs()) return true;
            undo(e);
        }
        return false;
    }

    const Instance& inst_;
    const VscOptions& opts_;
    VscStats& stats_;
    const std::vector<std::vector<Step>>& steps_;
    int T_;
    std::size_t L_;
    int n_ = 0;
    std::vector<int> off_;
    std::vector<Ev> ev_;
    std::vector<std::vector<int>> good_, readersOf_, initReaders_, in_;
    std::vector<int> remaining_, unexecReaders_, initUnexec_, holders_, active_, prevActive_, rank_;
    std::vector<std::int32_t> vc_, pos_;
    std::vector<ThreadId> seq_;
    std::vector<std::vector<int>> cand_;
    std::unordered_set<std::string> done_;
    std::string keyBuf_;
    bool added_ = false;
};

}  // namespace

std::optional<std::vector<ThreadId>> verifySC(const Instance& inst, const VscOptions& opts,
                                              VscStats& stats) {
    const auto start = std::chrono::steady_clock::now();
    ++stats.calls;
    Solver s(inst, opts, stats);
    auto r = s.run();
    stats.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
}

}  // namespace porlab::rvf
