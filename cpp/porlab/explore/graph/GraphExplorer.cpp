// SPDX-License-Identifier: MIT
#include "porlab/explore/graph/GraphExplorer.hpp"

#include <algorithm>
#include <cassert>

namespace porlab::graph {

GraphExplorer::GraphExplorer(const Program& p, const ExploreOptions& o, ExploreResult& r)
    : exec_(p.newExecution()), rep_(p, o, r), result_(r), collectOutcomes_(o.collectOutcomes) {
    if (auto it = o.params.find("maximality"); it != o.params.end()) maximality_ = it->second != "off";
    if (auto it = o.params.find("dedup"); it != o.params.end()) dedup_ = it->second != "off";
    root_.init(exec_->maxThreads(), p.info()->initialValues);
}

void GraphExplorer::ensureDepth(std::size_t depth) {
    while (gpool_.size() <= depth + 1) {
        gpool_.emplace_back();
        lin_.emplace_back();
        snap_.emplace_back();
        porf_.emplace_back();
        cands_.emplace_back();
    }
}

void GraphExplorer::run() {
    auto init = exec_->reset();
    events_.assign(init.begin(), init.end());
    if (exec_->failed()) {
        rep_.maximal(TraceStatus::Error, *exec_, events_);
    } else {
        ensureDepth(0);
        lin_[0].clear();
        visit(root_, 0);
    }
    result_.stats["revisits_tried"] = static_cast<double>(revisitsTried_);
    result_.stats["revisits"] = static_cast<double>(revisitsDone_);
    result_.stats["inconsistent"] = static_cast<double>(inconsistent_);
    result_.stats["blocked_dropped"] = static_cast<double>(dropped_);
    result_.stats["deduplicated"] = static_cast<double>(deduplicated_);
    result_.stats["sc_searches"] = static_cast<double>(checker_.searches);
    result_.stats["sc_states"] = static_cast<double>(checker_.states);
    rep_.finish();
}

ThreadId GraphExplorer::nextThread(const ExecutionGraph& g) {
    const int n = exec_->maxThreads();
    for (ThreadId t = 0; t < n; ++t) {
        if (exec_->status(t) != ThreadStatus::Ready || g.stuck(t)) continue;
        const Event& p = exec_->pending(t);
        if (p.kind == EventKind::Join && exec_->status(p.aux) != ThreadStatus::Finished) continue;
        return t;
    }
    return -1;
}

bool GraphExplorer::consistent(const ExecutionGraph& g, const std::vector<std::int32_t>& lim,
                               bool placeholders, std::vector<Ref>& order) {
    return checker_.check(g, lim, placeholders, order);
}

void GraphExplorer::fullLimits(const ExecutionGraph& g, std::vector<std::int32_t>& lim) const {
    lim.resize(g.threads.size());
    for (std::size_t t = 0; t < g.threads.size(); ++t)
        lim[t] = static_cast<std::int32_t>(g.threads[t].size());
}

void GraphExplorer::replay(const ExecutionGraph& g, const std::vector<Ref>& order) {
    auto init = exec_->reset();
    events_.assign(init.begin(), init.end());
    for (Ref r : order) {
        const Node& n = g.at(r);
        std::optional<Value> forced;
        if (readsMemory(n.ev.kind)) forced = g.valueOf(n.rf, n.ev.loc);
        auto ev = exec_->step(r.t, forced);
        rep_.countEvent();
        assert(!ev.empty() && ev[0].kind == n.ev.kind && ev[0].wval == n.ev.wval);
        events_.insert(events_.end(), ev.begin(), ev.end());
    }
}

void GraphExplorer::report(const ExecutionGraph& g, std::size_t depth) {
    if (dedup_) {
        // the graph's reads-from identity: events (with values) and sources, per thread
        std::uint64_t h1 = 0x243f6a8885a308d3ULL, h2 = 0x13198a2e03707344ULL;
        auto add = [&](std::uint64_t w) {
            h1 = (h1 ^ w) * 0x100000001b3ULL + 0x9e3779b97f4a7c15ULL;
            h2 = (h2 + w * 0xd6e8feb86659fd93ULL) ^ (h2 >> 29);
            h2 *= 0xbf58476d1ce4e5b9ULL;
        };
        for (const auto& th : g.threads) {
            add(0xffffffffULL);
            for (const Node& n : th) {
                if (n.placeholder) { add(0xfffffffdULL); continue; }
                add((static_cast<std::uint64_t>(n.ev.kind) << 40) | static_cast<std::uint32_t>(n.ev.loc));
                add(static_cast<std::uint64_t>(n.ev.rval));
                add(static_cast<std::uint64_t>(n.ev.wval));
                add((static_cast<std::uint64_t>(static_cast<std::uint32_t>(n.rf.t)) << 32) | static_cast<std::uint32_t>(n.rf.i));
            }
        }
        if (!seen_.insert({h1, h2}).second) {
            ++deduplicated_;
            return;
        }
    }
    bool anyPlaceholder = false;
    for (ThreadId t = 0; t < static_cast<ThreadId>(g.threads.size()); ++t) anyPlaceholder |= g.stuck(t);
    if (anyPlaceholder) {
        // Blocked for real only if some interleaving leaves every placeholder's condition false
        // at the end; otherwise a revisit covers the graph where the waiter proceeds.
        fullLimits(g, lim_);
        if (!consistent(g, lim_, true, tmpOrder_)) {
            ++dropped_;
            return;
        }
        replay(g, tmpOrder_);
    } else {
        replay(g, lin_[depth]);
    }
    rep_.maximal(Reporter::classify(*exec_), *exec_, events_);
    if (collectOutcomes_) {
        // Other final memory states of the same graph (orders of unread writes).
        fullLimits(g, lim_);
        checker_.finals(g, lim_, anyPlaceholder, finals_);
        if (finals_.size() > 1) {
            std::vector<Value> o = exec_->outcome();
            for (const auto& mem : finals_) {
                std::copy(mem.begin(), mem.end(), o.begin());
                result_.outcomes.insert(o);
            }
        }
    }
}

void GraphExplorer::visit(ExecutionGraph& g, std::size_t depth) {
    if (rep_.stop()) return;
    ensureDepth(depth);
    const ThreadId t = nextThread(g);
    if (t < 0) {
        report(g, depth);
        return;
    }
    const Event p = exec_->pending(t);
    if (readsMemory(p.kind)) {
        addRead(g, t, p, depth);
        return;
    }
    // A write, unlock, spawn or join: always consistent appended at the end of the witness.
    auto ev = exec_->step(t);
    rep_.countEvent();
    const Ref a{t, static_cast<std::int32_t>(g.threads[t].size())};
    Node n;
    n.ev = ev[0];
    n.stamp = g.nextStamp++;
    g.threads[t].push_back(n);
    lin_[depth + 1] = lin_[depth];
    lin_[depth + 1].push_back(a);
    if (exec_->failed()) {
        replay(g, lin_[depth + 1]);
        rep_.maximal(TraceStatus::Error, *exec_, events_);
    } else {
        visit(g, depth + 1);
        if (writesMemory(n.ev.kind) && !rep_.stopped()) revisits(g, a, depth);
    }
    g.threads[t].pop_back();
    --g.nextStamp;
}

void GraphExplorer::addRead(ExecutionGraph& g, ThreadId t, const Event& p, std::size_t depth) {
    exec_->save(snap_[depth]);
    const LocId loc = p.loc;
    const Ref a{t, static_cast<std::int32_t>(g.threads[t].size())};
    // The value a successful CAS would write (needed when a revisit flips its outcome).
    Value casWval = 0;
    if (p.kind == EventKind::CasSuccess || p.kind == EventKind::CasFailure) {
        auto ev = exec_->step(t, p.operand);
        casWval = ev[0].wval;
        exec_->restore(snap_[depth]);
    }
    // Candidate sources: init, then the writes of loc in addition order.
    auto& cands = cands_[depth];
    cands.clear();
    cands.push_back(kInitRef);
    for (std::size_t u = 0; u < g.threads.size(); ++u)
        for (std::size_t i = 0; i < g.threads[u].size(); ++i) {
            const Ref w{static_cast<std::int32_t>(u), static_cast<std::int32_t>(i)};
            if (g.isWriteOf(w, loc)) cands.push_back(w);
        }
    std::sort(cands.begin() + 1, cands.end(),
              [&](Ref x, Ref y) { return g.at(x).stamp < g.at(y).stamp; });
    // The last write to loc in the current witness: reading it keeps the witness valid.
    Ref last = kInitRef;
    for (Ref r : lin_[depth])
        if (g.isWriteOf(r, loc)) last = r;
    bool first = true;
    for (std::size_t ci = 0; ci < cands.size(); ++ci) {
        const Ref w = cands[ci];
        const Value v = g.valueOf(w, loc);
        if (hasCondition(p.kind) && !admits(p, v)) continue;
        if (rep_.stop()) break;
        if (!first) exec_->restore(snap_[depth]);
        first = false;
        auto ev = exec_->step(t, v);
        rep_.countEvent();
        Node n;
        n.ev = ev[0];
        n.rf = w;
        n.stamp = g.nextStamp++;
        n.casWval = casWval;
        g.threads[t].push_back(n);
        bool ok;
        if (w == last) {
            lin_[depth + 1] = lin_[depth];
            lin_[depth + 1].push_back(a);
            ok = true;
        } else {
            fullLimits(g, lim_);
            ok = consistent(g, lim_, false, lin_[depth + 1]);
            if (ok) replay(g, lin_[depth + 1]);
            else ++inconsistent_;
        }
        const bool failed = ok && exec_->failed();
        if (ok) {
            if (failed) {
                replay(g, lin_[depth + 1]);
                rep_.maximal(TraceStatus::Error, *exec_, events_);
            } else {
                visit(g, depth + 1);
            }
        }
        // A read-modify-write revisits even when its own graph is inconsistent (the revisit
        // may repair it), but not after an error (the error ends every extension).
        if (!failed && writesMemory(n.ev.kind) && !rep_.stopped()) revisits(g, a, depth);
        g.threads[t].pop_back();
        --g.nextStamp;
    }
    // A lock or await may also stay blocked for good (it then reads "the final value").
    if (hasCondition(p.kind) && !rep_.stopped()) {
        exec_->restore(snap_[depth]);
        Node n;
        n.ev = p;
        n.placeholder = true;
        n.stamp = g.nextStamp++;
        n.casWval = casWval;
        g.threads[t].push_back(n);
        lin_[depth + 1] = lin_[depth];
        visit(g, depth + 1);
        g.threads[t].pop_back();
        --g.nextStamp;
    }
}

bool GraphExplorer::maximallyAdded(ExecutionGraph& g, Ref e, const std::vector<std::int32_t>& porf) {
    Node& n = g.at(e);
    const LocId loc = n.ev.loc;
    // Prev(e) = {e' < e} ∪ porf(a), plus e itself.
    plim_.resize(g.threads.size());
    for (std::size_t u = 0; u < g.threads.size(); ++u) {
        std::int32_t k = 0;
        const auto& th = g.threads[u];
        while (k < static_cast<std::int32_t>(th.size()) && th[static_cast<std::size_t>(k)].stamp < n.stamp) ++k;
        plim_[u] = std::max(k, porf[u]);
    }
    plim_[static_cast<std::size_t>(e.t)] = e.i + 1;
    // Candidates: writes of loc in Prev(e) added before e, latest first; init last.
    auto& c = mcands_;
    c.clear();
    for (std::size_t u = 0; u < g.threads.size(); ++u)
        for (std::int32_t i = 0; i < plim_[u] && i < static_cast<std::int32_t>(g.threads[u].size()); ++i) {
            const Ref w{static_cast<std::int32_t>(u), i};
            if (w == e || !g.isWriteOf(w, loc)) continue;
            c.push_back(w);
        }
    std::sort(c.begin(), c.end(), [&](Ref x, Ref y) { return g.at(x).stamp > g.at(y).stamp; });
    c.push_back(kInitRef);
    const Node saved = n;
    for (Ref cand : c) {
        const Value v = g.valueOf(cand, loc);
        if (hasCondition(saved.ev.kind) && !admits(saved.ev, v)) continue;
        n.placeholder = false;
        n.rf = cand;
        n.ev = withReadValue(saved, v);
        const bool ok = consistent(g, plim_, false, tmpOrder_);
        n = saved;
        if (ok) return !saved.placeholder && saved.rf == cand;
    }
    return saved.placeholder;
}

void GraphExplorer::revisits(ExecutionGraph& g, Ref a, std::size_t depth) {
    const Node& an = g.at(a);
    const LocId loc = an.ev.loc;
    const Value v = an.ev.wval;
    auto& porf = porf_[depth];
    g.porfPrefix(a, porf);
    const std::size_t T = g.threads.size();
    std::vector<std::int32_t> keep(T);
    for (std::size_t u = 0; u < T && !rep_.stopped(); ++u) {
        for (std::size_t i = static_cast<std::size_t>(porf[u]); i < g.threads[u].size(); ++i) {
            const Ref r{static_cast<std::int32_t>(u), static_cast<std::int32_t>(i)};
            if (r == a) continue;
            const Node& rn = g.at(r);
            if (rn.ev.loc != loc || !readsMemory(rn.ev.kind)) continue;
            if (hasCondition(rn.ev.kind) && !admits(rn.ev, v)) continue;
            ++revisitsTried_;
            const std::uint64_t s = rn.stamp;
            // K = {e ≤ r} ∪ porf(a) ∪ {a}, per thread a prefix.
            for (std::size_t w = 0; w < T; ++w) {
                std::int32_t k = 0;
                const auto& th = g.threads[w];
                while (k < static_cast<std::int32_t>(th.size()) && th[static_cast<std::size_t>(k)].stamp <= s) ++k;
                keep[w] = std::max(k, porf[w]);
            }
            keep[static_cast<std::size_t>(a.t)] = a.i + 1;  // a is kept too
            // (C0) kept events read only kept events; a revisited RMW is read by nobody kept.
            bool ok = true;
            for (std::size_t w = 0; w < T && ok; ++w)
                for (std::int32_t k = 0; k < keep[w] && ok; ++k) {
                    const Node& q = g.threads[w][static_cast<std::size_t>(k)];
                    if (q.placeholder || !readsMemory(q.ev.kind) || q.rf.t == kInitThread) continue;
                    if (q.rf.i >= keep[static_cast<std::size_t>(q.rf.t)]) ok = false;
                    if (q.rf == r) ok = false;
                }
            if (!ok) continue;
            // (C1) r and every deleted read-like event were added maximally.
            ok = !maximality_ || maximallyAdded(g, r, porf);
            for (std::size_t w = 0; w < T && ok && maximality_; ++w)
                for (std::size_t k = static_cast<std::size_t>(keep[w]); k < g.threads[w].size() && ok; ++k) {
                    if (!readsMemory(g.threads[w][k].ev.kind)) continue;
                    ok = maximallyAdded(g, Ref{static_cast<std::int32_t>(w), static_cast<std::int32_t>(k)}, porf);
                }
            if (!ok) continue;
            // Build the revisited graph.
            ExecutionGraph& h = gpool_[depth];
            h = g;
            for (std::size_t w = 0; w < T; ++w) h.threads[w].resize(static_cast<std::size_t>(keep[w]));
            Node& hr = h.at(r);
            hr.ev = withReadValue(hr, v);
            hr.rf = a;
            hr.placeholder = false;
            fullLimits(h, lim_);
            if (!consistent(h, lim_, false, lin_[depth + 1])) {
                ++inconsistent_;
                continue;
            }
            ++revisitsDone_;
            replay(h, lin_[depth + 1]);
            if (exec_->failed()) rep_.maximal(TraceStatus::Error, *exec_, events_);
            else visit(h, depth + 1);
            if (rep_.stopped()) return;
        }
    }
}

}  // namespace porlab::graph
