// SPDX-License-Identifier: MIT
#include "porlab/explore/RvfVerifySC.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <memory>

namespace porlab::rvf {

// The solver keeps its buffers from one call to the next (see Workspace).
class Solver {
  public:
    bool run(const Instance& inst, const VscOptions& opts, VscStats& stats) {
        inst_ = &inst;
        opts_ = &opts;
        stats_ = &stats;
        steps_ = inst.steps;
        T_ = static_cast<int>(inst.len.size());
        L_ = inst.numLocs;
        seq_.clear();
        done_.clear();
        vc_.clear();
        prevActive_.clear();
        interrupted_ = false;
        const bool ok = solve() && !interrupted_;
        if (!ok) seq_.clear();
        return ok;
    }
    [[nodiscard]] const std::vector<ThreadId>& witness() const { return seq_; }

  private:
    bool solve() {
        index();
        if (opts_->closure && !closure()) {
            ++stats_->closureRejects;
            return false;
        }
        pos_.assign(static_cast<std::size_t>(T_), 0);
        if (opts_->saturate) {
            // One linearisation of the saturated order, each step the search's first choice,
            // with no witness states recorded: it succeeds on most instances, and then it is
            // the witness the search would have found first. Otherwise the exact search.
            if (linearise()) {
                ++stats_->linearised;
                return true;
            }
            if (interrupted_) return false;
        }
        return dfs();
    }

    // Follows the search's first choices to the end (true) or to a dead end, which it takes
    // back (false).
    bool linearise() {
        while (static_cast<int>(seq_.size()) < n_) {
            if (interrupted()) break;
            const int e = firstChoice();
            if (e < 0) break;
            exec(e);
        }
        if (static_cast<int>(seq_.size()) == n_ && !interrupted_) return true;
        while (!seq_.empty()) {
            const ThreadId t = seq_.back();
            undo(id(t, pos_[static_cast<std::size_t>(t)] - 1));
        }
        return false;
    }

  private:
    // ---- the instance, flattened: event id = off_[t] + i; finals get ids n_ + j --------------
    struct Ev {
        std::int32_t t = 0, i = 0;
        LocId loc = kNoLoc;
        bool read = false, write = false;
        const Step* step = nullptr;
    };

    // n empty lists, keeping the capacity of the lists of earlier calls (called at every node of
    // an exploration, allocating them anew dominated the cost of small instances).
    static void clearLists(std::vector<std::vector<int>>& v, std::size_t n) {
        if (v.size() < n) v.resize(n);
        for (std::size_t k = 0; k < n; ++k) v[k].clear();
    }

    // The solver's name of location l: the locations of an instance are numbered densely in the
    // order met (a C program has thousands of locations, and arrays over all of them, cleared at
    // every call, cost more than the search of a small instance).
    LocId dense(LocId l) {
        if (static_cast<std::size_t>(l) >= denseOf_.size())
            denseOf_.resize(static_cast<std::size_t>(l) + 1, -1);
        auto& d = denseOf_[static_cast<std::size_t>(l)];
        if (d < 0) {
            d = static_cast<LocId>(M_++);
            denseLocs_.push_back(l);
        }
        return d;
    }

    [[nodiscard]] int id(int t, int i) const { return off_[static_cast<std::size_t>(t)] + i; }
    [[nodiscard]] int wid(const WriteRef& w) const {
        return w.t == kInitThread ? -1 : id(w.t, w.i);
    }

    void index() {
        M_ = 0;
        if (denseOf_.size() < L_) denseOf_.resize(L_, -1);
        off_.assign(static_cast<std::size_t>(T_) + 1, 0);
        for (int t = 0; t < T_; ++t) off_[t + 1] = off_[t] + inst_->len[t];
        n_ = off_[T_];
        const int nf = static_cast<int>(inst_->finals.size());
        ev_.resize(static_cast<std::size_t>(n_ + nf));
        clearLists(good_, static_cast<std::size_t>(n_ + nf));
        for (int t = 0; t < T_; ++t)
            for (int i = 0; i < inst_->len[t]; ++i) {
                const Step& s = (*steps_)[static_cast<std::size_t>(t)][static_cast<std::size_t>(i)];
                Ev& e = ev_[static_cast<std::size_t>(id(t, i))];
                e = {t, i, s.reads || s.writes ? dense(s.ev.loc) : kNoLoc, s.reads, s.writes, &s};
                if (s.reads)
                    for (const WriteRef& w : s.good)
                        good_[static_cast<std::size_t>(id(t, i))].push_back(wid(w));
            }
        for (int j = 0; j < nf; ++j) {
            Ev& e = ev_[static_cast<std::size_t>(n_ + j)];
            e = Ev{};
            e.t = -1;
            e.i = j;
            e.loc = dense(inst_->finals[static_cast<std::size_t>(j)].first);
            e.read = true;
            for (const WriteRef& w : inst_->finals[static_cast<std::size_t>(j)].second)
                good_[static_cast<std::size_t>(n_ + j)].push_back(wid(w));
        }
        clearLists(readersOf_, static_cast<std::size_t>(n_));
        remaining_.assign(static_cast<std::size_t>(n_ + nf), 0);
        unexecReaders_.assign(static_cast<std::size_t>(n_), 0);
        // (the instance's locations were renamed 0..M_-1 above; the map is reset for the next call)
        for (const LocId l : denseLocs_) denseOf_[static_cast<std::size_t>(l)] = -1;
        denseLocs_.clear();
        initUnexec_.assign(M_, 0);
        holders_.assign(M_, 0);
        active_.assign(M_, -1);
        // The key of a witness state names the active write of a location only where one is
        // written: the others keep the initial value in every state (a key over all locations
        // made every state cost the program's whole memory).
        written_.assign(M_, 0);
        auto& written = written_;
        keyLocs_.clear();
        for (int e = 0; e < n_; ++e) {
            const Ev& w = ev_[static_cast<std::size_t>(e)];
            if (w.write && !written[static_cast<std::size_t>(w.loc)]) {
                written[static_cast<std::size_t>(w.loc)] = 1;
                keyLocs_.push_back(w.loc);
            }
        }
        std::sort(keyLocs_.begin(), keyLocs_.end());
        for (int r = 0; r < n_ + nf; ++r) {
            const Ev& e = ev_[static_cast<std::size_t>(r)];
            if (!e.read) continue;
            for (int w : good_[static_cast<std::size_t>(r)]) {
                if (w < 0) {
                    ++initUnexec_[static_cast<std::size_t>(e.loc)];
                } else {
                    readersOf_[static_cast<std::size_t>(w)].push_back(r);
                    ++remaining_[static_cast<std::size_t>(r)];
                    ++unexecReaders_[static_cast<std::size_t>(w)];
                }
            }
            // The initial write is executed from the start.
            if (remaining_[static_cast<std::size_t>(r)] == 0)
                ++holders_[static_cast<std::size_t>(e.loc)];
        }
        rank_.assign(static_cast<std::size_t>(n_), std::numeric_limits<int>::max());
        if (opts_->guidance && inst_->aux) {
            std::vector<int> cnt(static_cast<std::size_t>(T_), 0);
            int p = 0;
            for (ThreadId t : *inst_->aux) {
                if (t >= 0 && t < T_ && cnt[t] < inst_->len[t])
                    rank_[static_cast<std::size_t>(id(t, cnt[t]))] = p;
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

    // Calls f(p) for every immediate predecessor p of event e in P: program order, spawn and
    // join edges, and the closure's edges.
    template <class F>
    void forPreds(int e, F&& f) const {
        const Ev& ev = ev_[static_cast<std::size_t>(e)];
        if (ev.i > 0)
            f(e - 1);
        else if (const int sp = spawnId(ev.t); sp >= 0)
            f(sp);
        const Step& s = *ev.step;
        if (s.ev.kind == EventKind::Join && s.ev.aux >= 0 && s.ev.aux < T_) {
            const int c = s.ev.aux;
            const int last = inst_->len[c] > 0 ? id(c, inst_->len[c] - 1) : spawnId(c);
            if (last >= 0) f(last);
        }
        for (int src : in_[static_cast<std::size_t>(e)]) f(src);
    }

    // The clocks of P, one event at a time in a topological order of its edges (Kahn): every
    // clock is computed once from final predecessor clocks (a fixpoint over the events in thread
    // order took as many passes as P has thread changes along a chain). False: P has a cycle.
    [[nodiscard]] bool computeClocks() {
        const auto n = static_cast<std::size_t>(n_);
        const auto T = static_cast<std::size_t>(T_);
        vc_.assign(n * T, 0);
        indeg_.assign(n, 0);
        succOff_.assign(n + 1, 0);
        for (int e = 0; e < n_; ++e)
            forPreds(e, [&](int p) {
                ++indeg_[static_cast<std::size_t>(e)];
                ++succOff_[static_cast<std::size_t>(p) + 1];
            });
        for (std::size_t k = 0; k < n; ++k) succOff_[k + 1] += succOff_[k];
        succ_.resize(static_cast<std::size_t>(succOff_[n]));
        fill_.assign(succOff_.begin(), succOff_.end() - 1);
        for (int e = 0; e < n_; ++e)
            forPreds(e, [&](int p) {
                succ_[static_cast<std::size_t>(fill_[static_cast<std::size_t>(p)]++)] = e;
            });
        queue_.clear();
        for (int e = 0; e < n_; ++e)
            if (indeg_[static_cast<std::size_t>(e)] == 0) queue_.push_back(e);
        for (std::size_t q = 0; q < queue_.size(); ++q) {
            const int e = queue_[q];
            std::int32_t* c = &vc_[static_cast<std::size_t>(e) * T];
            forPreds(e, [&](int p) {
                const std::int32_t* pc = &vc_[static_cast<std::size_t>(p) * T];
                for (std::size_t u = 0; u < T; ++u) c[u] = std::max(c[u], pc[u]);
            });
            const Ev& ev = ev_[static_cast<std::size_t>(e)];
            c[ev.t] = ev.i + 1;
            for (auto k = succOff_[static_cast<std::size_t>(e)];
                 k < succOff_[static_cast<std::size_t>(e) + 1]; ++k) {
                const int sc = succ_[static_cast<std::size_t>(k)];
                if (--indeg_[static_cast<std::size_t>(sc)] == 0) queue_.push_back(sc);
            }
        }
        return queue_.size() == n;
    }

    [[nodiscard]] int spawnId(int t) const {
        const SpawnPoint sp = (*inst_->spawnOf)[static_cast<std::size_t>(t)];
        if (sp.t < 0 || sp.i >= inst_->len[sp.t]) return -1;
        return id(sp.t, sp.i);
    }

    void addEdge(int from, int to) {
        in_[static_cast<std::size_t>(to)].push_back(from);
        added_ = true;
    }

    // The closure conditions quantify over the writes of a location; they are decided per thread
    // instead: the relations to a write grow or shrink monotonically along its thread's program
    // order (clocks), so per thread a binary search finds the writes that matter, and of the
    // edges a condition asks for per thread only the one the others follow from (by program order)
    // is added. The partial order, and so everything the search does, is the same as with every
    // edge (walking every write for every read made the closure quadratic in the instance).
    // wl_[slot][u]: the write events of thread u to the location of the slot, in program order.
    [[nodiscard]] const std::vector<int>& writesOf(LocId l, int u) const {
        const auto slot = static_cast<std::size_t>(slot_[static_cast<std::size_t>(l)]);
        return wl_[slot][static_cast<std::size_t>(u)];
    }
    [[nodiscard]] int idxOf(int e) const { return ev_[static_cast<std::size_t>(e)].i; }
    // The first position in u's writes of l (ids in program order) whose index is >= i.
    [[nodiscard]] std::size_t fromIndex(const std::vector<int>& ws, int i) const {
        return static_cast<std::size_t>(
            std::partition_point(ws.begin(), ws.end(), [&](int x) { return idxOf(x) < i; }) -
            ws.begin());
    }
    // Writes of thread u that are <P r: its first `before(r, u)` events (all, for a final read).
    [[nodiscard]] int before(int r, int u) const {
        if (r >= n_) return std::numeric_limits<int>::max();
        return vc_[static_cast<std::size_t>(r) * T_ + u];
    }

    // Is there a write w2 of the location (not w, not r) with w <P w2 <P r?
    [[nodiscard]] bool hiddenBetween(int w, int r, LocId l) const {
        for (int u = 0; u < T_; ++u) {
            const auto& ws = writesOf(l, u);
            // the latest write of u before r (not w, not r): the likeliest to come after w
            for (auto k = fromIndex(ws, before(r, u)); k-- > 0;) {
                const int w2 = ws[k];
                if (w2 == w || w2 == r) continue;
                if (lt(w, w2)) return true;
                break;
            }
        }
        return false;
    }

    [[nodiscard]] bool closure() {
        clearLists(in_, static_cast<std::size_t>(n_));
        // writes per location and thread (ids), for the closure conditions
        slot_.assign(M_, -1);
        for (std::size_t k = 0; k < keyLocs_.size(); ++k)
            slot_[static_cast<std::size_t>(keyLocs_[k])] = static_cast<int>(k);
        if (wl_.size() < keyLocs_.size()) wl_.resize(keyLocs_.size());
        for (std::size_t k = 0; k < keyLocs_.size(); ++k) {
            wl_[k].resize(static_cast<std::size_t>(T_));
            for (auto& v : wl_[k]) v.clear();
        }
        for (int e = 0; e < n_; ++e) {
            const Ev& w = ev_[static_cast<std::size_t>(e)];
            if (!w.write) continue;
            const auto slot = static_cast<std::size_t>(slot_[static_cast<std::size_t>(w.loc)]);
            wl_[slot][static_cast<std::size_t>(w.t)].push_back(e);
        }
        std::vector<int> cl;
        for (;;) {
            if (!computeClocks()) return false;
            added_ = false;
            const int nr = n_ + static_cast<int>(inst_->finals.size());
            for (int r = 0; r < nr; ++r) {
                const Ev& er = ev_[static_cast<std::size_t>(r)];
                if (!er.read) continue;
                if (interrupted()) return false;
                const LocId l = er.loc;
                const bool anyWrites = slot_[static_cast<std::size_t>(l)] >= 0;
                const auto& G = good_[static_cast<std::size_t>(r)];
                auto isGood = [&](int w) { return std::find(G.begin(), G.end(), w) != G.end(); };
                cl.clear();
                for (int w : G) {
                    if (w >= 0 && lt(r, w)) continue;
                    if (!anyWrites || !hiddenBetween(w, r, l)) cl.push_back(w);
                }
                if (cl.empty()) return false;  // condition 1
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
                    if (w < 0 && !isGood(-1)) return false;  // init is bad, and before r
                    for (int u = 0; u < T_ && anyWrites; ++u) {
                        // u's bad writes b, b <P r, not b <P w: indices in [vc(w)[u], vc(r)[u])
                        const auto& ws = writesOf(l, u);
                        const auto lo = w < 0 ? std::size_t{0} : fromIndex(ws, before(w, u));
                        for (auto k = fromIndex(ws, before(r, u)); k-- > lo;) {
                            const int b = ws[k];
                            if (b == r || isGood(b)) continue;
                            if (w < 0) return false;
                            addEdge(b, w);  // the latest: the earlier ones come before it
                            break;
                        }
                    }
                    break;
                }
                // condition 4: a bad write after every write of Cl(r) is after r
                for (int u = 0; u < T_ && anyWrites; ++u) {
                    const auto& ws = writesOf(l, u);
                    // u's writes after every write of Cl(r), and not after r: a range
                    auto afterCl = [&](int b) {
                        for (int w : cl)
                            if (w == b || !lt(w, b)) return false;
                        return true;
                    };
                    const auto p1 = std::partition_point(ws.begin(), ws.end(),
                                                         [&](int b) { return !afterCl(b); });
                    const auto p2 = std::partition_point(ws.begin(), ws.end(),
                                                         [&](int b) { return !lt(r, b); });
                    const auto s1 = static_cast<std::size_t>(p1 - ws.begin());
                    const auto s2 = static_cast<std::size_t>(p2 - ws.begin());
                    for (std::size_t k = s1; k < s2; ++k) {
                        const int b = ws[k];
                        if (b == r || isGood(b)) continue;
                        if (r >= n_) return false;  // nothing comes after a final read
                        addEdge(r, b);              // the earliest: the later ones come after it
                        break;
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
        return std::find(G.begin(), G.end(),
                         active_[static_cast<std::size_t>(ev_[static_cast<std::size_t>(r)].loc)]) !=
               G.end();
    }

    // The next event of thread t if it is executable in the current prefix, else -1.
    [[nodiscard]] int executable(int t) const {
        const int p = pos_[static_cast<std::size_t>(t)];
        if (p >= inst_->len[t]) return -1;
        const int e = id(t, p);
        const auto started = [&](int u) {
            const SpawnPoint sp = (*inst_->spawnOf)[static_cast<std::size_t>(u)];
            return sp.t < 0 || pos_[static_cast<std::size_t>(sp.t)] > sp.i;
        };
        if (p == 0 && !started(t)) return -1;
        const Ev& ev = ev_[static_cast<std::size_t>(e)];
        if (ev.step->ev.kind == EventKind::Join && ev.step->ev.aux >= 0 && ev.step->ev.aux < T_) {
            const int c = ev.step->ev.aux;
            if (!started(c) || pos_[static_cast<std::size_t>(c)] < inst_->len[c]) return -1;
        }
        if (!vc_.empty())
            for (int u = 0; u < T_; ++u)
                if (u != t &&
                    pos_[static_cast<std::size_t>(u)] < vc_[static_cast<std::size_t>(e) * T_ + u])
                    return -1;
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
                if (w < 0)
                    --initUnexec_[loc];
                else
                    --unexecReaders_[static_cast<std::size_t>(w)];
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
                if (w < 0)
                    ++initUnexec_[loc];
                else
                    ++unexecReaders_[static_cast<std::size_t>(w)];
            }
            if (remaining_[static_cast<std::size_t>(e)] == 0) ++holders_[loc];
        }
        --pos_[static_cast<std::size_t>(ev.t)];
        seq_.pop_back();
    }

    void key(std::string& k) const {
        k.assign(reinterpret_cast<const char*>(pos_.data()), pos_.size() * sizeof(std::int32_t));
        for (const LocId l : keyLocs_) {
            const int a = active_[static_cast<std::size_t>(l)];
            const std::int32_t th = a < 0 ? -1 : ev_[static_cast<std::size_t>(a)].t;
            k.append(reinterpret_cast<const char*>(&th), sizeof th);
        }
    }

    // Should the call end now (a budget ran out)?
    bool interrupted() {
        if (!interrupted_ && (++polls_ & 63) == 0 && opts_->interrupt && opts_->interrupt())
            interrupted_ = true;
        return interrupted_;
    }

    [[nodiscard]] bool dfs() {
        if (interrupted()) return false;
        const std::size_t depth = seq_.size();
        if (static_cast<int>(depth) == n_) return true;
        key(keyBuf_);
        if (!done_.insert(keyBuf_).second) return false;
        ++stats_->states;
        if (cand_.size() <= depth) cand_.resize(depth + 1);
        auto& cand = cand_[depth];
        candidates(cand);
        for (std::size_t j = 0; j < cand_[depth].size(); ++j) {
            const int e = cand_[depth][j];
            exec(e);
            if (dfs()) return true;
            undo(e);
        }
        return false;
    }

    // The search's first choice in the current state (-1: none is executable).
    int firstChoice() {
        candidates(first_);
        return first_.empty() ? -1 : first_.front();
    }

    // The executable events of the current state in the order the search tries them: one
    // when a greedy step applies, else by guidance.
    void candidates(std::vector<int>& cand) const {
        cand.clear();
        for (int t = 0; t < T_; ++t) {
            const int e = executable(t);
            if (e >= 0) cand.push_back(e);
        }
        if (opts_->greedy && !cand.empty()) {
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
                    if (ev.read || !ev.write || unexecReaders_[static_cast<std::size_t>(e)] != 0)
                        continue;
                    const auto loc = static_cast<std::size_t>(ev.loc);
                    const int a = active_[loc];
                    if ((a < 0 ? initUnexec_[loc] : unexecReaders_[static_cast<std::size_t>(a)]) ==
                        0) {
                        pick = e;
                        break;
                    }
                }
            if (pick >= 0) {
                cand.assign(1, pick);
            }
        }
        if (cand.size() > 1 && opts_->guidance && inst_->aux)
            std::sort(cand.begin(), cand.end(), [&](int a, int b) {
                return rank_[static_cast<std::size_t>(a)] < rank_[static_cast<std::size_t>(b)];
            });
    }

    const Instance* inst_ = nullptr;
    const VscOptions* opts_ = nullptr;
    VscStats* stats_ = nullptr;
    const std::vector<std::vector<Step>>* steps_ = nullptr;
    int T_ = 0;
    std::size_t L_ = 0;
    std::size_t M_ = 0;                       // the instance's locations (dense names)
    std::vector<LocId> denseOf_, denseLocs_;  // by program location: its dense name (-1: none)
    std::vector<char> written_;
    int n_ = 0;
    std::vector<int> off_;
    std::vector<Ev> ev_;
    std::vector<std::vector<int>> good_, readersOf_, in_;
    std::vector<int> remaining_, unexecReaders_, initUnexec_, holders_, active_, prevActive_, rank_;
    std::vector<std::int32_t> vc_, pos_;
    std::vector<ThreadId> seq_;
    std::vector<LocId> keyLocs_;
    std::vector<int> slot_;  // by location: its index in keyLocs_ (-1: not written)
    std::vector<std::vector<std::vector<int>>> wl_;  // by slot, by thread: write ids
    std::vector<std::vector<int>> cand_;
    std::vector<int> first_;
    std::vector<int> indeg_, succOff_, succ_, fill_, queue_;  // computeClocks' buffers
    std::unordered_set<std::string> done_;
    std::string keyBuf_;
    bool added_ = false;
    bool interrupted_ = false;
    std::uint32_t polls_ = 0;
};

struct Workspace::Impl {
    Solver solver;
};

Workspace::Workspace() : impl_(std::make_unique<Impl>()) {}
Workspace::~Workspace() = default;

std::span<const ThreadId> Workspace::witness() const { return impl_->solver.witness(); }

bool verifySC(const Instance& inst, const VscOptions& opts, VscStats& stats, Workspace& ws) {
    const auto start = std::chrono::steady_clock::now();
    ++stats.calls;
    const bool ok = ws.impl_->solver.run(inst, opts, stats);
    stats.seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return ok;
}

std::optional<std::vector<ThreadId>> verifySC(const Instance& inst, const VscOptions& opts,
                                              VscStats& stats) {
    Workspace ws;
    if (!verifySC(inst, opts, stats, ws)) return std::nullopt;
    const auto w = ws.witness();
    return std::vector<ThreadId>(w.begin(), w.end());
}

}  // namespace porlab::rvf
