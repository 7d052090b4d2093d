// SPDX-License-Identifier: MIT
// Snapshots: an execution's state saved to and restored from a flat word vector; outcomes.
#include "porlab/program/CodeExecution.hpp"

#include <cstring>

namespace porlab::code {

// ---- snapshots
// -----------------------------------------------------------------------------------

namespace {
// A finished thread's record: evCount, nNondet, exitVal, lastLoop, then wrHeld (size, entries).
constexpr std::size_t kFinishedWords = 5;
constexpr std::int64_t kKeptFrame = 256;  // status word: a finished thread saved in full
// memcpy without the undefined behaviour of an empty vector's null data().
inline void copyBytes(void* dst, const void* src, std::size_t n) {
    if (n) std::memcpy(dst, src, n);
}
// What a finished thread's record holds (see CodeExecution::restoreFinished); the rest of its
// fixed-size part is what a thread that ran to its end has.
template <class Th>
[[gnu::always_inline]] inline void restoreFinishedScalars(Th& th, const std::int64_t* w,
                                                          std::size_t& i) {
    th.evCount = static_cast<std::uint32_t>(w[i++]);
    th.nNondet = static_cast<std::int32_t>(w[i++]);
    th.exitVal = w[i++];
    th.lastLoop = w[i++];
    th.wrHeld.resize(static_cast<std::size_t>(w[i++]));
    for (auto& l : th.wrHeld) l = static_cast<LocId>(w[i++]);
    th.nAllocs = th.nSpawns = th.atomicDepth = th.phase = 0;
    th.aux = th.pendNew = th.pendObj = 0;
    th.effects = th.hidden = 0;
    th.lastWriteStep = th.lastWriteAmount = 0;
    th.lastWriteIndex = th.lastWriteLoc = -1;
    th.cand.valid = false;
    th.cand.runnableAt = -1;
}
}  // namespace

// ---- outcomes: the final state of an execution

std::vector<Value> CodeExecution::outcome() const {
    if (p_.portableOutcomes_.load(std::memory_order_relaxed)) return portableOutcome();
    if (!m_.regInit.empty()) return builderOutcome();
    // Locations beyond numLocs_ were never created, so never written: scan from there.
    std::size_t n = std::min(mem_.size(), static_cast<std::size_t>(p_.numLocs_.load()));
    while (n > 0 && mem_[n - 1] == p_.initMem_[n - 1]) --n;
    // One allocation: outcome() runs once per complete execution.
    std::size_t size = n + 1;
    for (const auto& th : threads_) size += 4 + th.regs.size();
    std::vector<Value> o;
    o.reserve(size);
    o.assign(mem_.begin(), mem_.begin() + static_cast<std::ptrdiff_t>(n));
    o.push_back(-1);  // separator: memory is trimmed
    for (const auto& th : threads_) {
        o.push_back(static_cast<Value>(th.status));
        if (th.status == ThreadStatus::Finished && th.frames.empty()) {
            o.push_back(th.exitVal);
        } else if (th.status != ThreadStatus::NotStarted && !th.frames.empty()) {
            o.push_back(th.frames.back().fn);
            o.push_back(th.frames.back().pc);
            o.push_back(th.phase);
            // The registers of every frame, without the loop bookkeeping (CFunction::
            // stateSlots): it counts events, not state.
            for (const Frame& fr : th.frames) {
                const auto state = m_.functions[static_cast<std::size_t>(fr.fn)].stateSlots;
                const auto b = th.regs.begin() + fr.regBase;
                o.insert(o.end(), b, b + state);
            }
        }
    }
    return o;
}

std::vector<Value> CodeExecution::builderOutcome() const {
    const auto L = static_cast<std::size_t>(m_.globals[0].cells.size());
    // Written into a buffer of the execution, sized once, then copied out in one allocation and
    // one copy: it runs once per complete execution, and a push_back per register, or a vector
    // zeroed and then written, cost more than the rest (callgrind).
    if (outcomeBuf_.empty()) {
        std::size_t size = L;
        for (const auto& init : m_.regInit) size += 1 + init.size();
        outcomeBuf_.resize(size);
    }
    Value* w = outcomeBuf_.data();
    if (L <= 8) {  // (a builder program's few locations: a library copy costs more)
        for (std::size_t i = 0; i < L; ++i) w[i] = mem_[i];
    } else {
        std::copy_n(mem_.begin(), L, w);
    }
    w += L;
    for (std::size_t t = 0; t < threads_.size(); ++t) {
        const Thread& th = threads_[t];
        *w++ = static_cast<Value>(th.status);
        const auto& init = m_.regInit[t];
        const std::size_t n = init.size();
        if (th.frames.empty()) {
            std::copy_n(init.begin(), n, w);
        } else {
            const std::uint8_t* written = m_.regWritten[t].data();
            const Value* regs = th.regs.data() + th.frames[0].regBase;
            for (std::size_t r = 0; r < n; ++r) w[r] = written[r] ? regs[r] : init[r];
        }
        w += n;
    }
    return {outcomeBuf_.begin(), outcomeBuf_.end()};
}

void CodeExecution::save(Snapshot& s) const {
    // One resize, then plain stores: save runs once per explored state (no push_back per word).
    const auto nl = static_cast<std::size_t>(p_.numLocs_.load());
    const std::size_t fixed = 4 + 2 * nl + 2 * objs_.size() + (zneAwaits_ ? 3 * nl : 0);
    std::size_t size = fixed;
    if (flat_) {
        // A flat program (placeFlatThreads): every thread's scalars, then the block of all
        // frames and registers, with no branch per thread (the records of separate vectors cost
        // ~130 instructions per thread, callgrind).
        size += threads_.size() * kScalarWords + blockWords_;
    } else {
        for (const auto& th : threads_) {
            size += 1;
            if (th.status == ThreadStatus::NotStarted) continue;
            if (th.status == ThreadStatus::Finished && th.frames.empty()) {
                size += kFinishedWords + th.wrHeld.size();
                continue;
            }
            size += kScalarWords + 5 + th.frames.size() * 3 + th.regs.size() +
                    (th.local.size() + 7) / 8 + 2 * th.stackObjs.size() + th.wrHeld.size();
        }
    }
    auto& v = s.words;
    v.resize(size);
    std::int64_t* w = v.data();
    *w++ = failed_;
    *w++ = totalEvents_;
    *w++ = static_cast<std::int64_t>(nl);
    *w++ = static_cast<std::int64_t>(objs_.size());
    if (nl <= 8) {  // (a builder program's few locations: a library copy costs more)
        for (std::size_t i = 0; i < nl; ++i) w[i] = mem_[i];
    } else {
        std::copy_n(mem_.begin(), nl, w);
    }
    w += nl;
    for (std::size_t i = 0; i < nl; ++i) *w++ = owner_[i];
    if (zneAwaits_) {
        for (std::size_t i = 0; i < nl; ++i) *w++ = obsThread_[i];
        w = std::copy_n(obsStep_.begin(), nl, w);
        w = std::copy_n(obsOther_.begin(), nl, w);
    }
    for (const auto& o : objs_) {
        *w++ = static_cast<std::int64_t>(o.size) | (static_cast<std::int64_t>(o.status) << 32) |
               (static_cast<std::int64_t>(o.heap) << 40) |
               (static_cast<std::int64_t>(o.published) << 48);
        *w++ = o.base;
    }
    if (flat_) {
        for (const auto& th : threads_) {
            std::memcpy(static_cast<void*>(w), static_cast<const ThreadScalars*>(&th),
                        sizeof(ThreadScalars));
            w += kScalarWords;
        }
        std::memcpy(w, block_.get(), blockWords_ * 8);
        return;
    }
    for (const auto& th : threads_) {
        // A finished builder thread keeps its frame and registers (Builtin::FinishThread):
        // saved in full, flagged by kKeptFrame.
        const bool shortRecord = th.status == ThreadStatus::Finished && th.frames.empty();
        *w++ = static_cast<std::int64_t>(th.status) |
               (th.status == ThreadStatus::Finished && !shortRecord ? kKeptFrame : 0);
        if (th.status == ThreadStatus::NotStarted) continue;
        if (shortRecord) {
            // What a finished thread still shows (restoreFinished): most threads of a program
            // are finished in most states, and save runs once per explored state.
            *w++ = th.evCount;
            *w++ = th.nNondet;
            *w++ = th.exitVal;
            *w++ = th.lastLoop;
            *w++ = static_cast<std::int64_t>(th.wrHeld.size());
            for (const LocId l : th.wrHeld) *w++ = l;
            continue;
        }
        // The fixed-size part in one copy (a constant size: the compiler copies it inline).
        std::memcpy(static_cast<void*>(w), static_cast<const ThreadScalars*>(&th),
                    sizeof(ThreadScalars));
        w += kScalarWords;
        *w++ = static_cast<std::int64_t>(th.frames.size());
        *w++ = static_cast<std::int64_t>(th.regs.size());
        *w++ = static_cast<std::int64_t>(th.local.size());
        *w++ = static_cast<std::int64_t>(th.stackObjs.size());
        *w++ = static_cast<std::int64_t>(th.wrHeld.size());
        for (const LocId l : th.wrHeld) *w++ = l;
        copyBytes(static_cast<void*>(w), th.frames.data(), th.frames.size() * sizeof(Frame));
        w += th.frames.size() * 3;
        copyBytes(static_cast<void*>(w), th.regs.data(), th.regs.size() * 8);
        w += th.regs.size();
        const std::size_t lw = (th.local.size() + 7) / 8;
        if (lw) w[lw - 1] = 0;
        copyBytes(static_cast<void*>(w), th.local.data(), th.local.size());
        w += lw;
        copyBytes(static_cast<void*>(w), th.stackObjs.data(), th.stackObjs.size() * 16);
        w += 2 * th.stackObjs.size();
    }
}

// A flat program's frames and registers in block_ (CodeExecution::flat_): every thread's vectors
// get their place in it, and take it at once.
void CodeExecution::placeFlatThreads() {
    const auto slots = [&](std::size_t t) {
        const auto fn = static_cast<std::size_t>(m_.threadFunctions[t]);
        return static_cast<std::size_t>(m_.functions[fn].numSlots);
    };
    for (std::size_t t = 0; t < threads_.size(); ++t) blockWords_ += 3 + slots(t);
    block_ = std::make_unique<std::int64_t[]>(blockWords_);
    std::int64_t* b = block_.get();
    for (std::size_t t = 0; t < threads_.size(); ++t) {
        Thread& th = threads_[t];
        const std::size_t n = slots(t);
        // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): the frame's 3 words
        th.frames = decltype(th.frames)(BlockAllocator<Frame>(reinterpret_cast<Frame*>(b), 1));
        th.frames.reserve(1);
        th.regs = decltype(th.regs)(BlockAllocator<Value>(b + 3, n));
        th.regs.reserve(n);
        b += 3 + n;
    }
}

// A finished thread has no frames, registers nor stack objects; what it still shows: its event
// count, the choice points it used (usesAssignedChoices), its exit value (pthread_join), the
// loop it last jumped back in (the execution-cut warning) and the read-write locks it left held.
// The rest is what a thread that ran to its end has (and nothing reads it).
void CodeExecution::restoreFinished(Thread& th, const std::int64_t* w, std::size_t& i) {
    restoreFinishedScalars(th, w, i);
    th.frames.clear();
    th.regs.clear();
    th.local.clear();
    th.stackObjs.clear();
}

// The threads of a flat program (save): their scalars, then the block. A thread's vectors are
// empty before it starts and full after (CodeProgram::keepsThreadFlat): resized where that
// differs, before the block's copy fills them.
void CodeExecution::restoreFlat(const std::int64_t* w) {
    for (std::size_t t = 0; t < threads_.size(); ++t) {
        Thread& th = threads_[t];
        std::memcpy(static_cast<void*>(static_cast<ThreadScalars*>(&th)), w, sizeof(ThreadScalars));
        w += kScalarWords;
        if (th.frames.empty() != (th.status == ThreadStatus::NotStarted)) {
            if (th.frames.empty()) {
                th.frames.resize(1);
                const auto fn = static_cast<std::size_t>(m_.threadFunctions[t]);
                th.regs.resize(static_cast<std::size_t>(m_.functions[fn].numSlots));
            } else {
                th.frames.clear();
                th.regs.clear();
            }
        }
        statuses_[t] = th.status;  // (no livelock candidate: no loop jumps back)
    }
    std::memcpy(block_.get(), w, blockWords_ * 8);
}

void CodeExecution::restore(const Snapshot& s) {
    const auto& w = s.words;
    std::size_t i = 0;
    failed_ = w[i++] != 0;
    totalEvents_ = w[i++];
    const auto nl = static_cast<std::size_t>(w[i++]);
    const auto no = static_cast<std::size_t>(w[i++]);
    if (nl <= 8) {  // (as in save)
        for (std::size_t k = 0; k < nl; ++k) mem_[k] = w[i + k];
    } else {
        std::copy(w.begin() + static_cast<std::ptrdiff_t>(i),
                  w.begin() + static_cast<std::ptrdiff_t>(i + nl), mem_.begin());
    }
    i += nl;
    for (std::size_t k = 0; k < nl; ++k) owner_[k] = static_cast<ThreadId>(w[i++]);
    const auto now = static_cast<std::size_t>(p_.numLocs_.load());
    for (std::size_t k = nl; k < now; ++k) {
        mem_[k] = p_.initMem_[k];
        owner_[k] = -1;
    }
    knownLocs_ = static_cast<LocId>(now);
    if (zneAwaits_) {
        for (std::size_t k = 0; k < nl; ++k) obsThread_[k] = static_cast<ThreadId>(w[i++]);
        for (std::size_t k = 0; k < nl; ++k) obsStep_[k] = w[i++];
        for (std::size_t k = 0; k < nl; ++k) obsOther_[k] = w[i++];
        for (std::size_t k = nl; k < now; ++k) {
            obsThread_[k] = -1;
            obsStep_[k] = obsOther_[k] = 0;
        }
    }
    objs_.resize(no);
    for (std::size_t k = 0; k < no; ++k) {
        const std::int64_t x = w[i++];
        objs_[k] = {
            static_cast<std::uint32_t>(x & 0xffffffff), static_cast<std::uint8_t>((x >> 32) & 0xff),
            static_cast<std::uint8_t>((x >> 40) & 0xff),
            static_cast<std::uint8_t>((x >> 48) & 0xff), static_cast<std::uint32_t>(w[i++])};
    }
    if (flat_) {
        restoreFlat(w.data() + i);
        return;
    }
    for (auto& th : threads_) {
        const bool kept = (w[i] & kKeptFrame) != 0;
        th.status = static_cast<ThreadStatus>(w[i++] & 0xff);
        if (th.status == ThreadStatus::NotStarted) {
            th.frames.clear();
            th.regs.clear();
            th.local.clear();
            th.stackObjs.clear();
            th.wrHeld.clear();
            th.evCount = 0;
            th.nAllocs = th.nSpawns = th.atomicDepth = th.phase = th.nNondet = 0;
            th.exitVal = th.aux = 0;
            th.effects = th.hidden = 0;
            th.lastLoop = th.lastWriteStep = th.lastWriteAmount = 0;
            th.lastWriteIndex = th.lastWriteLoc = -1;
            th.cand.valid = false;
            th.cand.runnableAt = -1;
            continue;
        }
        if (th.status == ThreadStatus::Finished && !kept) {
            restoreFinished(th, w.data(), i);
            continue;
        }
        std::memcpy(static_cast<void*>(static_cast<ThreadScalars*>(&th)), w.data() + i,
                    sizeof(ThreadScalars));
        i += kScalarWords;
        th.cand.valid = false;  // the livelock check starts over after a restore
        th.cand.runnableAt = -1;
        const auto nf = static_cast<std::size_t>(w[i++]);
        const auto nr = static_cast<std::size_t>(w[i++]);
        const auto nlb = static_cast<std::size_t>(w[i++]);
        const auto ns = static_cast<std::size_t>(w[i++]);
        th.wrHeld.resize(static_cast<std::size_t>(w[i++]));
        for (auto& l : th.wrHeld) l = static_cast<LocId>(w[i++]);
        th.frames.resize(nf);
        th.regs.resize(nr);
        th.local.resize(nlb);
        th.stackObjs.resize(ns);
        copyBytes(static_cast<void*>(th.frames.data()), w.data() + i, nf * sizeof(Frame));
        i += nf * 3;
        copyBytes(th.regs.data(), w.data() + i, nr * 8);
        i += nr;
        copyBytes(th.local.data(), w.data() + i, nlb);
        i += (nlb + 7) / 8;
        copyBytes(static_cast<void*>(th.stackObjs.data()), w.data() + i, ns * 16);
        i += 2 * ns;
    }
    for (std::size_t k = 0; k < threads_.size(); ++k) statuses_[k] = threads_[k].status;
}

}  // namespace porlab::code
