// SPDX-License-Identifier: MIT
// Reads-from SMC and RVF-SMC: what mutual exclusion adds to the saturated order of a child
// (RvfSmcSaturate.cpp), so that children inside critical sections are refuted without VerifySC.
//
// Under RVF a lock reads 0, and its good writes are every visible unlock of its mutex (and the
// initial write): nothing in them orders its critical section against the others, so the
// saturated clocks miss what mutual exclusion forces, and on lock programs (fib_bench) VerifySC's
// closure rejected tens of thousands of children whose new read is a lock or a read inside a
// section. (Reads-from SMC fixes each lock's source, which orders the sections: its clocks see
// it, and it does not ask here; its children are many more, the scans below would cost it.)
//
// A mutex m is plain in the child X ∪ {r} when its initial value is 0, every write of m is a
// Lock (a read of 0 that writes a non-zero value) or an Unlock (a write of 0), each thread's
// writes of m alternate Lock, Unlock, ... starting with a Lock, and every other event of m
// writes nothing. Then in every witness, by induction along it: m is non-zero exactly when one
// thread is inside a section (after its Lock, before its next Unlock), and at most one is (a
// Lock reads 0: nobody is inside; an Unlock's thread is inside, so it is the only one). So the
// sections of m (a Lock and the Unlock after it in its thread, or the end of the witness when
// the thread has none in X ∪ {r}) never overlap. When r's thread B is inside a section of m at
// r (r itself may be its Lock), that section ends with the witness, so:
//  (a) another thread inside a section of m in X: the two overlap, the child is refuted;
//  (b) every other section of X comes before B's Lock, so before r: r's clock joins the clock
//      of every other thread's last Unlock of m. The saturated order's own check then hides
//      from r the writes these sections overwrite.
//  (c) r is the Lock of m: every other write of m comes before it, so the write r reads is
//      the last write of m of the witness. The initial write is that only when X writes m
//      nowhere. An Unlock u of thread A, whose section starts at A's Lock l_u, is not when
//      another section [l', u'] of X has l_u before u' in the saturated order: the two do not
//      overlap, so u comes before l'. Per thread the last section is the one to ask (its
//      Unlock comes after the others). Refuted when every good write is hidden so.
// (A section's order, once forced, stays so in the children: each lock's good writes are fixed
// when it is added, and the restriction of a child's witness to X is a witness of X.)
// checkRefutations sends every refuted child to VerifySC as well (saturationRefutes').
#include "porlab/explore/RvfSmc.hpp"

namespace porlab::rvfsmc {

namespace {

// Is m plain in the events sl of every thread (see above)? last: per thread, the index of its
// last write of m (-1: none). (The lists of a location: per thread, its write and read steps.)
template <class StepOf>
bool plainMutex(const std::vector<std::vector<std::int32_t>>& writes,
                const std::vector<std::vector<std::int32_t>>& reads,
                const std::vector<std::int32_t>& sl, StepOf stepOf,
                std::vector<std::int32_t>& last) {
    last.assign(writes.size(), -1);
    for (std::size_t u = 0; u < writes.size(); ++u) {
        for (const std::int32_t i : reads[u]) {
            if (i >= sl[u]) break;
            const Step& s = stepOf(u, i);
            if (s.writes && s.ev.kind != EventKind::Lock) return false;  // (a Lock is a write)
        }
        bool inside = false;
        for (const std::int32_t i : writes[u]) {
            if (i >= sl[u]) break;
            const Step& s = stepOf(u, i);
            const bool lock = s.ev.kind == EventKind::Lock && s.ev.wval != 0;
            const bool unlock = s.ev.kind == EventKind::Unlock && s.ev.wval == 0;
            if (!(inside ? unlock : lock)) return false;
            inside = !inside;
            last[u] = i;
        }
    }
    return true;
}

// (c): is every good write of the Lock of m hidden, the last writes of m being `last` (per
// thread, -1: none)? clockOf(u, i): the saturated clock of step i of thread u.
template <class ClockOf>
bool lockHidesAll(const std::vector<std::vector<std::int32_t>>& writes,
                  const std::vector<std::int32_t>& last, const std::vector<WriteRef>& good,
                  ClockOf clockOf) {
    auto hidden = [&](WriteRef w) {
        if (w.t == kInitThread)
            return std::ranges::any_of(last, [](std::int32_t i) { return i >= 0; });
        const auto& wl = writes[static_cast<std::size_t>(w.t)];
        const auto it = std::lower_bound(wl.begin(), wl.end(), w.i);
        if (it == wl.begin() || it == wl.end() || *it != w.i) return false;
        const std::int32_t lu = *(it - 1);  // the Lock of w's section
        for (std::size_t u = 0; u < last.size(); ++u) {
            if (last[u] < 0 || WriteRef{static_cast<ThreadId>(u), last[u]} == w) continue;
            if (clockOf(u, last[u])[static_cast<std::size_t>(w.t)] > lu) return true;
        }
        return false;
    };
    return std::ranges::all_of(good, hidden);
}

}  // namespace

bool RvfSmc::mutexRefutes(ThreadId t, std::int32_t ridx, const Step& rs,
                          const std::vector<std::int32_t>& sl, const std::vector<WriteRef>& good,
                          std::int32_t* c, bool& joined) {
    const auto T = static_cast<std::size_t>(T_);
    // The mutexes t holds at r: its Locks not followed by an Unlock of their location.
    std::vector<std::int32_t>& held = mutexHeld_;
    held.clear();
    for (std::int32_t i = 0; i < ridx; ++i) {
        const Step& s = step(t, i);
        if (!s.writes) continue;
        if (s.ev.kind == EventKind::Lock)
            held.push_back(s.ev.loc);
        else if (s.ev.kind == EventKind::Unlock)
            std::erase(held, s.ev.loc);
    }
    const bool lockChild = rs.ev.kind == EventKind::Lock && rs.writes && rs.ev.wval != 0;
    if (lockChild) {
        if (std::ranges::find(held, rs.ev.loc) != held.end()) return false;  // (a relock)
        held.push_back(rs.ev.loc);
    }
    std::vector<std::int32_t>& last = mutexLast_;
    auto stepOf = [&](std::size_t u, std::int32_t i) -> const Step& {
        return step(static_cast<ThreadId>(u), i);
    };
    for (const std::int32_t m : held) {
        const auto mu = static_cast<std::size_t>(m);
        // (r writing m otherwise than by its Lock: m is not plain in the child)
        if (initVal(m) != 0 || !locLists_[mu] || (rs.writes && rs.ev.loc == m && !lockChild) ||
            !plainMutex(locLists_[mu]->writes, locLists_[mu]->reads, sl, stepOf, last))
            continue;
        for (std::size_t u = 0; u < T; ++u) {
            const auto ut = static_cast<ThreadId>(u);
            if (ut == t || last[u] < 0) continue;
            if (satCount(ut) <= last[u]) return false;  // (no clock: not asked)
            if (step(ut, last[u]).ev.kind == EventKind::Lock) {
                ++mutexRefuted_;
                return true;  // (a)
            }
            const std::int32_t* o = satClock(ut, last[u]);
            for (std::size_t v = 0; v < T; ++v) {  // (b)
                joined = joined || o[v] > c[v];
                c[v] = std::max(c[v], o[v]);
            }
        }
        auto clockOf = [&](std::size_t u, std::int32_t i) {
            return satClock(static_cast<ThreadId>(u), i);
        };
        if (lockChild && m == rs.ev.loc &&
            lockHidesAll(locLists_[mu]->writes, last, good, clockOf)) {
            ++mutexRefuted_;
            return true;  // (c)
        }
    }
    return false;
}

}  // namespace porlab::rvfsmc
