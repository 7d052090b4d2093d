// SPDX-License-Identifier: MIT
// RVF-SMC and reads-from SMC: replays that start from an ancestor's program state (see
// RvfSmc.hpp, "replays from an ancestor's state").
#include "porlab/explore/RvfSmc.hpp"

namespace porlab::rvfsmc {

// Causal-map entries and snapshot records are made and dropped at most nodes, each with a vector
// of step counts: reusing the dropped vectors' buffers saved rf a tenth of its time on short
// runs (dq-wsq), where allocating and freeing them cost as much as the rest of a node's records.
std::vector<std::int32_t> RvfSmc::pooledCopy(const std::vector<std::int32_t>& from) {
    if (countPool_.empty()) return from;
    std::vector<std::int32_t> v = std::move(countPool_.back());
    countPool_.pop_back();
    v.assign(from.begin(), from.end());
    return v;
}

void RvfSmc::dropStaleSnaps(std::size_t depth) {
    while (!prefixSnaps_.empty() && prefixSnaps_.back().frame >= depth) {
        countPool_.push_back(std::move(prefixSnaps_.back().counts));
        prefixSnaps_.pop_back();
    }
}

void RvfSmc::pushPrefixSnap(std::size_t frame, std::size_t pos,
                            const std::vector<std::int32_t>& counts, bool anyFail) {
    dropStaleSnaps(frame);
    prefixSnaps_.push_back({pos, frame, pooledCopy(counts), anyFail, true});
}

void RvfSmc::enterChild(std::size_t parent, bool here, bool inPlace, std::size_t q,
                        std::span<const ThreadId> witness) {
    dropStaleSnaps(parent + 1);  // (the records of the parent's earlier children)
    if (childSnaps_.size() <= parent) childSnaps_.resize(parent + 1);
    ChildSnaps& cs = childSnaps_[parent];
    cs.base = snapBase_;
    cs.off.clear();
    replayFrom_ = nullptr;
    // The valid records are prefixes of one another, in the order pushed: those past position
    // p are the last ones.
    auto offPast = [&](std::size_t p) {
        for (std::size_t k = prefixSnaps_.size(); k-- > snapBase_;) {
            PrefixSnap& ps = prefixSnaps_[k];
            if (!ps.valid) continue;
            if (ps.pos <= p) return &ps;
            ps.valid = false;
            cs.off.push_back(k);
        }
        return static_cast<PrefixSnap*>(nullptr);
    };
    if (inPlace) {
        offPast(q);  // positions after q move by one: the records past q are not prefixes
        return;
    }
    if (here) return;  // the trace goes on: every record holds
    // The witness shares its first c events with the current trace (the parent's): the child's
    // trace begins with the records up to c (the replay starts from the deepest), not with
    // those past c. (Hiding them all cost the child's subtree its replays from a snapshot.)
    std::size_t c = 0;
    while (c < order_.size() && c < witness.size() && order_[c].t == witness[c]) ++c;
    if (const PrefixSnap* ps = offPast(c); ps && ps->pos > 0) replayFrom_ = ps;
}

void RvfSmc::leaveChild(std::size_t parent) {
    const ChildSnaps& cs = childSnaps_[parent];
    replayFrom_ = nullptr;
    snapBase_ = cs.base;
    for (const std::size_t k : cs.off)
        if (k < prefixSnaps_.size()) prefixSnaps_[k].valid = true;
}

std::size_t RvfSmc::replayStart(std::vector<std::int32_t>& cnt) {
    const PrefixSnap* ps = std::exchange(replayFrom_, nullptr);
    if (!ps) {
        exec_->reset();
        // The trace's own undo records take memory back to the initial state: linear in the
        // trace, where assigning every location cost the C program's whole memory (thousands
        // of locations) at every replay. (Only the first replay finds nothing to take back.)
        if (active_.size() == L_) {
            truncateTrace(0);
        } else {
            order_.clear();
            cur_ = initVals_;
            active_.assign(L_, kInitWrite);
        }
        anyFail_ = false;
        return 0;
    }
    // The witness starts with the trace of an ancestor that kept its program state: the trace
    // is cut back to it (memory as it was then), the program restored.
    exec_->restore(frames_[ps->frame].snap);
    truncateTrace(ps->pos);
    anyFail_ = ps->anyFail;
    cnt = ps->counts;
    ++replayedFromSnap_;
    return ps->pos;
}

bool RvfSmc::patchable(std::span<const ThreadId> witness, ThreadId t) const {
    if (!killable_.empty() || anyFail_) return false;
    auto plain = [&](const Step& s) {
        if (s.fails || orderDependentBlock(s.out)) return false;
        if (s.ev.kind == EventKind::Lock || s.ev.kind == EventKind::Unlock) return false;
        const auto x = static_cast<std::size_t>(s.ev.loc);
        return !s.writes || x >= info_->isMutex.size() || !info_->isMutex[x];
    };
    if (!plain(steps_[static_cast<std::size_t>(t)].back())) return false;  // r
    std::size_t c = 0;
    while (c < order_.size() && c < witness.size() && order_[c].t == witness[c]) ++c;
    for (std::size_t k = c; k < order_.size(); ++k)
        if (!plain(step(order_[k].t, order_[k].i))) return false;
    return true;
}

bool RvfSmc::relink(std::span<const ThreadId> witness) {
    std::size_t c = 0;
    while (c < order_.size() && c < witness.size() && order_[c].t == witness[c]) ++c;
    std::vector<std::int32_t>& cnt = replayCnt_;
    cnt.assign(static_cast<std::size_t>(T_), 0);
    for (std::size_t k = 0; k < c; ++k) ++cnt[static_cast<std::size_t>(order_[k].t)];
    truncateTrace(c);
    for (std::size_t k = c; k < witness.size(); ++k) {
        const ThreadId t = witness[k];
        performed(t, step(t, cnt[static_cast<std::size_t>(t)]++));
    }
    bool ok = true;
    for (std::size_t k = c; k < order_.size() && ok; ++k)
        if (const LocId x = order_[k].loc; x != kNoLoc) ok = exec_->patchMemory(x, curVal(x));
    if (!ok) return replay(witness);  // (the program cannot: the replay resets its state)
    ++patched_;
    if (!ro_.checkPatches) {
        replayFrom_ = nullptr;
        return true;
    }
    const std::vector<Value> patched = exec_->outcome();
    if (!replay(witness)) return false;
    if (exec_->outcome() != patched)
        throw std::logic_error("rf/rvf: internal error: a patched state differs from the replay");
    return true;
}

// The current trace, put back after a replay that changed it (see SavedTrace).
void RvfSmc::saveTrace(SavedTrace& sv, std::span<const ThreadId> witness) {
    std::size_t c = 0;
    while (c < order_.size() && c < witness.size() && order_[c].t == witness[c]) ++c;
    if (!sv.active) {
        sv.active = true;
        sv.keep = c;
        sv.suffix.assign(order_.begin() + static_cast<std::ptrdiff_t>(c), order_.end());
        sv.anyFail = anyFail_;
    } else if (c < sv.keep) {
        // The current trace is a replay already: up to keep, it is the saved trace.
        sv.suffix.insert(sv.suffix.begin(), order_.begin() + static_cast<std::ptrdiff_t>(c),
                         order_.begin() + static_cast<std::ptrdiff_t>(sv.keep));
        sv.keep = c;
    }
}
void RvfSmc::restoreTrace(SavedTrace& sv) {
    if (!sv.active) return;
    sv.active = false;
    // A replay cut short by a budget leaves less than the shared prefix: the exploration is
    // over then, and nothing reads the trace any more.
    if (order_.size() < sv.keep) return;
    truncateTrace(sv.keep);
    for (const Performed& p : sv.suffix) {
        if (p.loc != kNoLoc) {
            cur_[static_cast<std::size_t>(p.loc)] = step(p.t, p.i).ev.wval;
            active_[static_cast<std::size_t>(p.loc)] = {p.t, p.i};
        }
        order_.push_back(p);
    }
    anyFail_ = sv.anyFail;
    sv.suffix.clear();
}

}  // namespace porlab::rvfsmc
