// SPDX-License-Identifier: MIT
// kit::Sequence: the explored sequence of a DPOR explorer written in Python (see the header).
#include "porlab/explore/KitSequence.hpp"

#include <algorithm>
#include <bit>
#include <string>
#include <unordered_set>

#include "porlab/core/Errors.hpp"

namespace porlab::kit {

bool dependent(const Event& a, const Event& b, ConflictRelation conf) {
    if (a.thread == b.thread) return true;
    if (conf.conflicts(a, b)) return true;
    auto sj = [](const Event& x, const Event& y) {
        if ((x.kind == EventKind::Spawn || x.kind == EventKind::Join) && x.aux == y.thread)
            return true;
        return x.kind == EventKind::Spawn && y.kind == EventKind::Join && x.aux == y.aux;
    };
    return sj(a, b) || sj(b, a);
}

std::vector<SleepEntry> sleepAfter(std::span<const SleepEntry> sleep, const Event& e,
                                   ConflictRelation conf) {
    std::vector<SleepEntry> out;
    for (const auto& s : sleep)
        if (!s.fails && !dependent(s.ev, e, conf)) out.push_back(s);
    return out;
}

Sequence::Sequence(const Program& program, ConflictRelation conf, Reporter* rep)
    : exec_(program.newExecution()), conf_(conf), rep_(rep) {
    const auto init = exec_->reset();
    T_ = static_cast<std::size_t>(exec_->maxThreads());
    if (T_ > 64) throw InputError("kit::Sequence supports at most 64 threads");
    locThr_.assign(exec_->memory().size(), std::vector<std::vector<int>>(T_));
    lastOf_.assign(T_, -1);
    spawnPos_.assign(T_, -1);
    push(init);  // (depth -1: before any step)
    initEvents_ = ev_.size();
    snap_.resize(1);
    exec_->save(snap_[0]);
    sleep_.resize(1);
    if (exec_->failed())
        end_ = End::Error;
    else if (enabled() == 0)
        end_ = End::Maximal;
}

std::size_t Sequence::start(std::size_t d) const {
    if (d == depth()) return ev_.size();
    return start_.at(d);
}

void Sequence::restoreIfNeeded() {
    if (!dirty_) return;
    exec_->restore(snap_[depth()]);
    dirty_ = false;
}

Execution& Sequence::execution() {
    restoreIfNeeded();
    return *exec_;
}

std::uint64_t Sequence::enabled() {
    restoreIfNeeded();
    std::uint64_t m = 0;
    for (std::size_t t = 0; t < T_; ++t)
        if (exec_->enabled(static_cast<ThreadId>(t))) m |= 1ULL << t;
    return m;
}

std::uint64_t Sequence::sleepMask(std::size_t d) const {
    std::uint64_t m = 0;
    for (const auto& s : sleep_.at(d)) m |= 1ULL << s.ev.thread;
    return m;
}

void Sequence::clockOf(const Event& e, std::vector<std::uint32_t>& clock,
                       std::vector<int>& preds) const {
    clock.assign(T_, 0);
    preds.clear();
    auto add = [&](int p) {
        preds.push_back(p);
        const std::uint32_t* c = clk(static_cast<std::size_t>(p));
        for (std::size_t u = 0; u < T_; ++u) clock[u] = std::max(clock[u], c[u]);
    };
    const auto t = static_cast<std::size_t>(e.thread);
    int k = lastOf_[t];
    if (k < 0) k = spawnPos_[t];
    if (k >= 0) add(k);
    if (e.kind == EventKind::Join && e.aux >= 0 && static_cast<std::size_t>(e.aux) < T_ &&
        lastOf_[static_cast<std::size_t>(e.aux)] >= 0)
        add(lastOf_[static_cast<std::size_t>(e.aux)]);
    // Of each other thread's accesses of the location only the latest conflicting one can be
    // an immediate predecessor: the earlier ones happen before it.
    if (e.loc != kNoLoc && accessesMemory(e.kind) &&
        static_cast<std::size_t>(e.loc) < locThr_.size()) {
        const auto& byThread = locThr_[static_cast<std::size_t>(e.loc)];
        for (std::size_t u = 0; u < T_; ++u) {
            if (u == t) continue;
            const auto& acc = byThread[u];
            for (auto it = acc.rbegin(); it != acc.rend(); ++it)
                if (conf_.conflicts(ev_[static_cast<std::size_t>(*it)], e)) {
                    add(*it);
                    break;
                }
        }
    }
    clock[t] = std::max(clock[t], e.index + 1);
}

void Sequence::push(std::span<const Event> evs) {
    const int d = static_cast<int>(depth()) - 1;
    for (const Event& e : evs) {
        const std::size_t p = ev_.size();
        clockOf(e, scratchClk_, scratchPreds_);
        clk_.insert(clk_.end(), scratchClk_.begin(), scratchClk_.end());
        predStart_.push_back(predBuf_.size());
        predBuf_.insert(predBuf_.end(), scratchPreds_.begin(), scratchPreds_.end());
        const auto t = static_cast<std::size_t>(e.thread);
        prevSame_.push_back(lastOf_[t]);
        lastOf_[t] = static_cast<int>(p);
        if (e.loc != kNoLoc && accessesMemory(e.kind)) {
            const auto l = static_cast<std::size_t>(e.loc);
            if (l >= locThr_.size()) locThr_.resize(l + 1, std::vector<std::vector<int>>(T_));
            locThr_[l][t].push_back(static_cast<int>(p));
        }
        if (e.kind == EventKind::Spawn && e.aux >= 0 && static_cast<std::size_t>(e.aux) < T_)
            spawnPos_[static_cast<std::size_t>(e.aux)] = static_cast<int>(p);
        ev_.push_back(e);
        depthOf_.push_back(d);
    }
}

void Sequence::pop() {
    const std::size_t p = ev_.size() - 1;
    const Event& e = ev_[p];
    const auto t = static_cast<std::size_t>(e.thread);
    if (e.loc != kNoLoc && accessesMemory(e.kind))
        locThr_[static_cast<std::size_t>(e.loc)][t].pop_back();
    if (e.kind == EventKind::Spawn && e.aux >= 0 && static_cast<std::size_t>(e.aux) < T_)
        spawnPos_[static_cast<std::size_t>(e.aux)] = -1;
    lastOf_[t] = prevSame_[p];
    prevSame_.pop_back();
    predBuf_.resize(predStart_[p]);
    predStart_.pop_back();
    clk_.resize(p * T_);
    depthOf_.pop_back();
    ev_.pop_back();
}

void Sequence::step(ThreadId t) {
    restoreIfNeeded();
    if (t < 0 || static_cast<std::size_t>(t) >= T_ || !exec_->enabled(t))
        throw InputError("thread " + std::to_string(t) + " is not enabled");
    const std::size_t d = depth();
    const Event pe = exec_->pending(t);
    auto next = sleepAfter(sleep_[d], pe, conf_);
    if (sleep_.size() < d + 2) sleep_.resize(d + 2);
    sleep_[d + 1] = std::move(next);
    const auto evs = exec_->step(t);
    if (rep_ != nullptr) rep_->countEvent();
    thread_.push_back(t);
    start_.push_back(ev_.size());
    pend_.push_back(pe);
    failed_.push_back(exec_->failed() ? 1 : 0);
    push(evs);
    if (snap_.size() < d + 2) snap_.resize(d + 2);
    exec_->save(snap_[d + 1]);
    end_ = End::Open;
}

End Sequence::extend(ThreadId first) {
    restoreIfNeeded();
    ThreadId t = first;
    for (;;) {
        if (!failed_.empty() && failed_.back() != 0) return end_ = End::Error;
        if (t < 0) {
            const std::uint64_t en = enabled();
            if (en == 0) return end_ = End::Maximal;
            const std::uint64_t awake = en & ~sleepMask(depth());
            if (awake == 0) return end_ = End::SleepBlocked;
            t = std::countr_zero(awake);
        }
        step(t);
        t = -1;
        if (rep_ != nullptr && rep_->stop()) return end_ = End::Open;
    }
}

void Sequence::backtrack(std::size_t d) {
    if (d >= depth())
        throw InputError("backtrack(" + std::to_string(d) + "): E has " + std::to_string(depth()) +
                         " steps");
    const SleepEntry slept{pend_[d], failed_[d] != 0};
    while (ev_.size() > start_[d]) pop();
    thread_.resize(d);
    start_.resize(d);
    pend_.resize(d);
    failed_.resize(d);
    sleep_[d].push_back(slept);
    end_ = End::Open;
    dirty_ = true;
}

TraceStatus Sequence::report() {
    restoreIfNeeded();
    const TraceStatus s = Reporter::classify(*exec_);
    if (rep_ == nullptr) return s;
    return rep_->maximal(s, *exec_, ev_);
}

bool Sequence::hb(std::size_t i, std::size_t j) const {
    const Event& e = ev_.at(i);
    return i < j && clk(j)[e.thread] > e.index;
}

std::vector<std::pair<std::size_t, std::size_t>> Sequence::races() const {
    std::vector<std::pair<std::size_t, std::size_t>> out;
    for (std::size_t j = initEvents_; j < ev_.size(); ++j) {
        const std::size_t first = out.size();
        const std::size_t b = predStart_[j];
        const std::size_t e = j + 1 < ev_.size() ? predStart_[j + 1] : predBuf_.size();
        for (std::size_t a = b; a < e; ++a) {
            const auto i = static_cast<std::size_t>(predBuf_[a]);
            if (ev_[i].thread == ev_[j].thread || !conf_.conflicts(ev_[i], ev_[j])) continue;
            // A lock cannot be moved before the unlock it waited for: its race is with the lock
            // that began that critical section.
            std::size_t cand = i;
            if (ev_[j].kind == EventKind::Lock && ev_[i].kind == EventKind::Unlock)
                for (int k = prevSame_[i]; k >= 0; k = prevSame_[static_cast<std::size_t>(k)]) {
                    const Event& g = ev_[static_cast<std::size_t>(k)];
                    if (g.kind == EventKind::Lock && g.loc == ev_[j].loc) {
                        cand = static_cast<std::size_t>(k);
                        break;
                    }
                }
            bool direct = true;
            for (std::size_t c = b; c < e && direct; ++c) {
                const auto p = static_cast<std::size_t>(predBuf_[c]);
                if (p != i && p != cand && hb(cand, p)) direct = false;
            }
            if (direct) out.emplace_back(cand, j);
        }
        std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(),
                  [](const auto& x, const auto& y) { return x.first > y.first; });
    }
    return out;
}

std::vector<std::size_t> Sequence::notdep(std::size_t i, std::size_t j) const {
    if (i >= j || j >= ev_.size()) throw InputError("notdep: need i < j < len(events)");
    std::vector<std::size_t> v;
    for (std::size_t k = i + 1; k < j; ++k)
        if (!hb(i, k)) v.push_back(k);
    v.push_back(j);
    return v;
}

std::uint64_t Sequence::initialsWith(std::span<const std::size_t> v, const Event* last,
                                     const std::uint32_t* lastClk) const {
    // first[u]: thread u's first event in v, or -1. An event is an initial when it is its
    // thread's first in v and no earlier first event of another thread happens before it (the
    // later events of that thread follow its first in program order).
    std::vector<int> first(T_, -1);
    std::uint64_t out = 0;
    auto visit = [&](const Event& e, const std::uint32_t* c, int pos) {
        const auto t = static_cast<std::size_t>(e.thread);
        if (first[t] >= 0) return;
        bool initial = true;
        for (std::size_t u = 0; u < T_ && initial; ++u)
            if (u != t && first[u] >= 0 && c[u] > ev_[static_cast<std::size_t>(first[u])].index)
                initial = false;
        first[t] = pos;
        if (initial) out |= 1ULL << t;
    };
    for (std::size_t k : v) {
        if (k >= ev_.size()) throw InputError("initials: position out of range");
        visit(ev_[k], clk(k), static_cast<int>(k));
    }
    if (last != nullptr) {
        const auto t = static_cast<std::size_t>(last->thread);
        if (first[t] < 0) visit(*last, lastClk, -1);
    }
    return out;
}

void Sequence::clockIn(std::span<const std::size_t> items, const Event& last,
                       std::vector<std::uint32_t>& clock) const {
    // Within v, `last` follows exactly the items it depends on (and what they follow): its
    // clock in E may also count events left out of v (those after i that i happens before).
    clock.assign(T_, 0);
    clock[static_cast<std::size_t>(last.thread)] = last.index + 1;
    for (std::size_t k : items) {
        if (!dependent(ev_[k], last, conf_)) continue;
        const std::uint32_t* c = clk(k);
        for (std::size_t u = 0; u < T_; ++u) clock[u] = std::max(clock[u], c[u]);
    }
}

std::uint64_t Sequence::initials(std::span<const std::size_t> v) const {
    // Happens-before within v itself: each event after the events of v it depends on.
    std::vector<std::uint32_t> clocks(v.size() * T_, 0);
    std::vector<int> first(T_, -1);
    std::uint64_t out = 0;
    for (std::size_t a = 0; a < v.size(); ++a) {
        if (v[a] >= ev_.size()) throw InputError("initials: position out of range");
        const Event& e = ev_[v[a]];
        std::uint32_t* c = &clocks[a * T_];
        c[static_cast<std::size_t>(e.thread)] = e.index + 1;
        for (std::size_t b = 0; b < a; ++b)
            if (dependent(ev_[v[b]], e, conf_))
                for (std::size_t u = 0; u < T_; ++u) c[u] = std::max(c[u], clocks[b * T_ + u]);
        const auto t = static_cast<std::size_t>(e.thread);
        if (first[t] >= 0) continue;
        bool initial = true;
        for (std::size_t u = 0; u < T_ && initial; ++u)
            if (u != t && first[u] >= 0 && c[u] > ev_[v[static_cast<std::size_t>(first[u])]].index)
                initial = false;
        first[t] = static_cast<int>(a);
        if (initial) out |= 1ULL << t;
    }
    return out;
}

bool Sequence::weakInitial(std::span<const std::size_t> v, const Event& next, bool fails) const {
    for (std::size_t k : v)
        if (k < ev_.size() && ev_[k].thread == next.thread)
            return (initials(v) >> next.thread & 1U) != 0;
    if (fails) return v.empty();
    for (std::size_t k : v)
        if (dependent(ev_.at(k), next, conf_)) return false;
    return true;
}

bool Sequence::asleep(std::size_t d, std::span<const std::size_t> v) const {
    for (const auto& s : sleep_.at(d))
        if (weakInitial(v, s.ev, s.fails)) return true;
    return false;
}

std::vector<Reversal> Sequence::reversals() {
    std::vector<Reversal> out;
    struct KeyHash {
        std::size_t operator()(const std::pair<std::uint64_t, std::uint64_t>& k) const {
            return static_cast<std::size_t>(k.first * 0x9e3779b97f4a7c15ULL ^ k.second);
        }
    };
    std::unordered_set<std::pair<std::uint64_t, std::uint64_t>, KeyHash> seen;
    auto add = [&](int depth, std::uint64_t initials, ThreadId first) {
        if (depth < 0 || initials == 0) return;
        const auto d = static_cast<std::size_t>(depth);
        if (!seen.insert({d << 7 | static_cast<std::uint64_t>(first), initials}).second) return;
        out.push_back({d, initials, first});
    };
    std::vector<std::size_t> v;
    // (a) races.
    for (const auto& [i, j] : races()) {
        v = notdep(i, j);
        v.pop_back();
        clockIn(v, ev_[j], scratchClk_);
        add(depthOf_[i], initialsWith(v, &ev_[j], scratchClk_.data()),
            v.empty() ? ev_[j].thread : ev_[v.front()].thread);
    }
    // (a') An executed await is enabled by values: the race with the write just before it may
    // not be reversible where that write happens (the await is disabled there) while an earlier
    // write's is. So every conflicting event before it (not before its previous event, which it
    // must follow) gets its reversal, not only the adjacent one.
    for (std::size_t j = initEvents_; j < ev_.size(); ++j) {
        const Event& a = ev_[j];
        if (a.kind != EventKind::Await && a.kind != EventKind::XchgAwait) continue;
        int kpos = prevSame_[j];
        if (kpos < 0) kpos = spawnPos_[static_cast<std::size_t>(a.thread)];
        for (std::size_t i = initEvents_; i < j; ++i) {
            if (ev_[i].thread == a.thread || !conf_.conflicts(ev_[i], a)) continue;
            if (kpos >= 0 &&
                (static_cast<std::size_t>(kpos) == i || hb(i, static_cast<std::size_t>(kpos))))
                continue;
            v.clear();
            for (std::size_t k = i + 1; k < j; ++k)
                if (!hb(i, k)) v.push_back(k);
            clockIn(v, a, scratchClk_);
            add(depthOf_[i], initialsWith(v, &a, scratchClk_.data()),
                v.empty() ? a.thread : ev_[v.front()].thread);
        }
    }
    // The threads ready at the end (before the failing step when E failed).
    const bool failed = end_ == End::Error && depth() > 0;
    const std::size_t n = depth();
    if (failed) {
        restoreIfNeeded();
        exec_->restore(snap_[n - 1]);
        dirty_ = true;
    } else {
        restoreIfNeeded();
    }
    const std::size_t limit = failed ? start_[n - 1] : ev_.size();
    const ThreadId failer = failed ? thread_[n - 1] : -1;
    std::vector<Event> pending;
    for (std::size_t t = 0; t < T_; ++t) {
        const auto p = static_cast<ThreadId>(t);
        if (p == failer || exec_->status(p) != ThreadStatus::Ready) continue;
        const Event& pe = exec_->pending(p);
        if (pe.enabled && !failed) continue;
        // (a thread spawned by the failing step was not there before it)
        if (failed && spawnPos_[t] >= static_cast<int>(limit)) continue;
        pending.push_back(pe);
    }
    for (const Event& a : pending) {
        if (failed && a.enabled) {  // (c) f disables a's thread: schedule it just before f
            add(static_cast<int>(n - 1), 1ULL << a.thread, a.thread);
            continue;
        }
        if (a.kind != EventKind::Await && a.kind != EventKind::XchgAwait &&
            a.kind != EventKind::Lock)
            continue;
        // (b) a blocked thread: each event it conflicts with (not happening before its previous
        // event, which it must follow) may be moved after it.
        const auto t = static_cast<std::size_t>(a.thread);
        int kpos = lastOf_[t];
        if (kpos < 0) kpos = spawnPos_[t];
        for (std::size_t i = initEvents_; i < limit; ++i) {
            if (ev_[i].thread == a.thread || !conf_.conflicts(ev_[i], a)) continue;
            if (kpos >= 0 &&
                (static_cast<std::size_t>(kpos) == i || hb(i, static_cast<std::size_t>(kpos))))
                continue;
            v.clear();
            for (std::size_t k = i + 1; k < limit; ++k)
                if (!hb(i, k)) v.push_back(k);
            clockIn(v, a, scratchClk_);
            const std::uint64_t ini = initialsWith(v, &a, scratchClk_.data());
            add(depthOf_[i], ini, v.empty() ? a.thread : ev_[v.front()].thread);
        }
    }
    return out;
}

}  // namespace porlab::kit
