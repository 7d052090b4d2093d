// SPDX-License-Identifier: MIT
// The interpreter of the decoded form (Code.hpp) behind porlab's Program / Execution interface:
// the program and its program-wide name tables. Internal to program/ (the interpreter's .cpp
// files include it); everything else sees a CodeProgram as a Program (makeCodeProgram).
//
// Determinism across interleavings: a thread is named by (parent, n-th pthread_create of the
// parent), a dynamic object by (allocating thread, n-th allocation of that thread, size, kind),
// and a shared location by (object, byte offset). The program maps names to ThreadId / object id /
// LocId through tables filled on first use (under a mutex: one program serves many executions),
// so that the same name gets the same id in every execution of one Program.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "porlab/core/Errors.hpp"
#include "porlab/program/Code.hpp"
#include "porlab/program/CodeProgramApi.hpp"
#include "porlab/program/CodeValueNames.hpp"
#include "porlab/program/Program.hpp"

namespace porlab::code {

inline std::int64_t norm(std::int64_t v, unsigned w) {
    if (w >= 64) return v;
    if (w == 1) return v & 1;
    const auto sh = 64U - w;
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(v) << sh) >> sh;
}

inline std::uint64_t mask(std::int64_t v, unsigned w) {
    const auto u = static_cast<std::uint64_t>(v);
    return w >= 64 ? u : u & ((1ULL << w) - 1);
}

inline constexpr std::int64_t kLocalInstrLimit = 50'000'000;
// The program used every location --max-locations allows: the execution that needs one more is
// blocked (BlockCause::LocationLimit), not the whole run (CodeProgram::cell throws it, runLocal
// catches it).
struct LocationLimitReached {};
// An object of a dynamic kind (CodeProgram::dynamicObject): malloc, calloc, a thread-local's copy;
// kinds >= 0 are escaped stack variables (CModule::allocaNames).
inline constexpr std::int64_t kMallocKind = -1;
inline constexpr std::int64_t kCallocKind = -2;
inline constexpr std::int64_t tlsKind(std::int64_t global) { return -3 - global; }
// What a heap allocation may ask for: larger sizes are impossible (malloc returns NULL, as C
// says), between the two limits porlab cannot represent the object.
inline constexpr std::uint64_t kImpossible64 = std::uint64_t{1} << 40;
inline constexpr std::uint64_t kMaxObject64 = std::uint64_t{1} << 28;
// A loop without a bound is checked for a livelock every this many jumps back (a power of 2).
inline constexpr std::int64_t kLivelockPeriod = 8;
inline constexpr std::uint32_t kFreeOffset = 0xffffffffU;
inline constexpr int kEBusy = 16;
// What a free or the end of a stack frame leaves in each location of the block: an access that
// reads it (or a write to a location holding it) faults, so whether an access comes after the
// free is a matter of the value it reads, as value-based explorers need. No store of a C value
// narrower than 64 bits can produce it (values are sign-extended from their width).
inline constexpr Value kDead = kDeadValue;
// owner_ of a destroyed mutex (pthread_mutex_destroy, mtx_destroy, pthread_spin_destroy,
// pthread_rwlock_destroy): its location holds 0, as a free mutex's, so that a later lock is
// enabled and performed, and then faults (use of a destroyed mutex).
inline constexpr ThreadId kDestroyedOwner = -2;
// The word pthread_barrier_destroy writes: negative, so that no waiter's await is satisfied by
// it, and its upper half tells a wait's fetch-and-add that the barrier was destroyed.
inline constexpr std::uint64_t kBarrierDestroyedHi = 0xdeadba11ULL;
// What a location of a malloc'd block or of an escaped stack variable holds before anything wrote
// it (its initial value, ProgramInfo::initialValues, so that explorers that force the values reads
// return pass it on as they do kDead): a program's read of it is an uninitialised read. A copy
// (memcpy) carries it over, so that only a use of the copied bytes is an error.
inline constexpr Value kUninit = static_cast<Value>(0x8badf00d0badcafeULL);

// Storage of a vector that lives in a fixed block the owner provides (a flat thread's frame and
// registers, CodeExecution::flat_), as long as it fits there; else on the heap. The vector takes
// the whole block at once (reserve(cap) right after it gets the allocator), so it never asks for
// the block again while it holds it.
template <class T>
struct BlockAllocator {
    using value_type = T;
    using propagate_on_container_move_assignment = std::true_type;
    using propagate_on_container_swap = std::true_type;
    using is_always_equal = std::false_type;
    T* block = nullptr;
    std::size_t cap = 0;
    BlockAllocator() = default;
    BlockAllocator(T* b, std::size_t c) : block(b), cap(c) {}
    template <class U>
    explicit BlockAllocator(const BlockAllocator<U>& /*other*/) {}  // (a rebind: the heap)
    T* allocate(std::size_t n) {
        if (block != nullptr && n <= cap) return block;
        return std::allocator<T>{}.allocate(n);
    }
    void deallocate(T* p, std::size_t n) {
        if (p != block) std::allocator<T>{}.deallocate(p, n);
    }
    friend bool operator==(const BlockAllocator& a, const BlockAllocator& b) {
        return a.block == b.block;
    }
};

class CodeExecution;

// ---- the program: code plus the program-wide name tables ---------------------------------------

class CodeProgram final : public Program, public InputChoices {
  public:
    CodeProgram(CModule mod, const CodeOptions& opts, const std::string& name);

    [[nodiscard]] std::unique_ptr<Execution> newExecution() const override;
    [[nodiscard]] const std::shared_ptr<const ProgramInfo>& info() const override { return info_; }

    // Inputs are choices only with a nondet domain (else every __VERIFIER_nondet_* returns 0).
    [[nodiscard]] const InputChoices* inputChoices() const override {
        return opts_.nondetDomain ? this : nullptr;
    }

    const CModule& mod() const { return mod_; }

    // ---- InputChoices (--nondet-domain): choice points (thread, n-th __VERIFIER_nondet_* call
    // of the thread), numbered in discovery order; the driver sets one value per point before
    // each run.
    // (Without --nondet-domain every choice is 0.)
    [[nodiscard]] std::pair<Value, Value> domain() const override {
        const auto& d = opts_.nondetDomain;
        if (!d) return {0, 0};
        return {d->first, d->second};
    }
    Value choice(ThreadId t, int n, SourcePos pos) const {
        std::lock_guard lk(mu_);
        auto [it, fresh] = choiceIds_.try_emplace({t, n}, static_cast<int>(choicePoints_.size()));
        if (fresh) {
            choicePoints_.emplace_back(t, n);
            names_->addChoiceSite(t, n, pos);  // shown with the inputs of a trace
        }
        const auto i = static_cast<std::size_t>(it->second);
        return i < assignment_.size() ? assignment_[i] : domain().first;
    }
    [[nodiscard]] std::size_t numChoicePoints() const override {
        std::lock_guard lk(mu_);
        return choicePoints_.size();
    }
    void setAssignment(const std::vector<Value>& a) const override {
        std::lock_guard lk(mu_);
        assignment_ = a;
        assignedPoints_.clear();
        std::vector<std::tuple<ThreadId, int, Value>> label;
        for (std::size_t i = 0; i < a.size(); ++i)
            if (a[i] != domain().first) {
                assignedPoints_.push_back(choicePoints_[i]);
                label.emplace_back(choicePoints_[i].first, choicePoints_[i].second, a[i]);
            }
        std::sort(label.begin(), label.end());
        inputs_.clear();
        for (const auto& [t, n, v] : label) inputs_.insert(inputs_.end(), {t, n, v});
    }
    [[nodiscard]] std::vector<Value> inputs() const override {
        std::lock_guard lk(mu_);
        return inputs_;
    }
    [[nodiscard]] bool usesAssignment(const Execution& e) const override;
    const CodeOptions& opts() const { return opts_; }
    // Every thread's whole state is its fixed-size scalars and, once started, one frame and its
    // function's registers (a builder program): executions keep the frames and registers of all
    // threads in one block, which a snapshot copies at once (CodeExecution::flat_).
    [[nodiscard]] bool flatThreads() const { return flatThreads_; }
    std::vector<std::string> warnings() const {
        std::lock_guard lk(mu_);
        return warnings_;
    }

  private:
    friend class CodeExecution;

    struct DynObj {
        std::string name;
        std::int64_t tls = -1;  // a thread-local's copy: the global (initial values)
        bool uninit = false;    // malloc'd (not calloc'd) or a stack variable: starts kUninit
    };
    struct DynRef {
        std::int64_t id = 0;
        std::uint64_t base = 0;  // low address bits of byte 0 (Code.hpp)
    };

    // ThreadId of the n-th child of `parent` (-1 beyond maxThreads).
    ThreadId threadId(ThreadId parent, int n, std::int32_t fn) const;
    DynRef dynamicObject(ThreadId t, int n, std::uint32_t size, std::int64_t kind, SourcePos pos,
                         std::uint64_t align = 16) const;
    // The location of `size` bytes at (object, offset); size 0: a mutex (any size).
    // sync: a word of a synchronisation object (condition variable, barrier, read-write lock),
    // which starts at 0 wherever it lives.
    LocId cell(std::int64_t obj, std::uint32_t off, unsigned size, bool mutex, SourcePos pos,
               bool sync = false) const;
    std::string objectName(std::int64_t obj) const;
    // The first location of `obj` at an offset >= `from` (false: none).
    bool nextCell(std::int64_t obj, std::uint32_t from, std::uint32_t& off, LocId& loc) const {
        std::lock_guard lk(mu_);
        if (static_cast<std::size_t>(obj) >= cells_.size()) return false;
        const auto& cells = cells_[static_cast<std::size_t>(obj)];
        auto it = cells.lower_bound(from);
        if (it == cells.end() || it->first == kFreeOffset) return false;
        off = it->first;
        loc = it->second;
        return true;
    }
    // Size of the location at (object, offset) if there is one (0: none yet, or a free's
    // placeholder that takes the size of the first access).
    unsigned cellSizeAt(std::int64_t obj, std::uint32_t off) const {
        std::lock_guard lk(mu_);
        if (static_cast<std::size_t>(obj) >= cells_.size()) return 0;
        const auto& cells = cells_[static_cast<std::size_t>(obj)];
        auto it = cells.find(off);
        return it == cells.end() ? 0 : locSize_[static_cast<std::size_t>(it->second)];
    }
    // A location pthread_create writes a thread handle to (a thread number: portable outcomes
    // name its value by spawn path).
    // Every spawn of every replay marks its location again: the mark, once set, is read without
    // the mutex (jobs > 1: no write to a line the other workers read, no lock).
    void markThreadHandle(LocId l) const {
        if (l < 0 || static_cast<std::size_t>(l) >= threadHandle_.size()) return;
        std::atomic_ref<std::uint8_t> mark(threadHandle_[static_cast<std::size_t>(l)]);
        if (mark.load(std::memory_order_relaxed)) return;
        std::lock_guard lk(mu_);
        mark.store(1, std::memory_order_relaxed);
    }
    std::string where(SourcePos p) const {
        return p.line ? mod_.files[p.file] + ":" + std::to_string(p.line) + ": " : "";
    }
    void setDisplayInfo(ProgramInfo& info);
    static bool keepsThreadFlat(const CInstr& in);
    void resolveStaticLocations(const ProgramInfo& info);
    // Tells the trace display a new dynamic object (its name is dyn_.back()'s; mu_ held).
    void addObjectName(std::int64_t id, std::uint64_t base, std::int64_t kind, std::uint32_t size,
                       SourcePos pos, ThreadId t) const;
    void warnLocationLimit(SourcePos pos) const {
        {
            std::lock_guard lk(mu_);
            if (locationLimitWarned_) return;
            locationLimitWarned_ = true;
        }
        warnOnce(
            "more than " + std::to_string(opts_.maxDynamicLocations) +
            " shared heap/stack locations (max_locations; first needed at " +
            (pos.line ? mod_.files[pos.file] + ":" + std::to_string(pos.line) : std::string("?")) +
            "): executions that need more are blocked there (location-limit); raise "
            "--max-locations");
    }
    void warnOnce(const std::string& w) const {
        std::lock_guard lk(mu_);
        for (const auto& x : warnings_)
            if (x == w) return;
        warnings_.push_back(w);
    }

    CModule mod_;
    CodeOptions opts_;
    std::shared_ptr<CodeValueNames> names_;   // pointers, objects and choice sites, for traces
    std::shared_ptr<CallContexts> contexts_;  // the call stacks of events (Event::ctx)
    std::shared_ptr<ProgramInfo> infoMut_;
    std::shared_ptr<const ProgramInfo> info_;
    mutable std::vector<Value> initMem_;  // (a thread-local's copy sets its locations' entries)
    std::size_t capacity_ = 0;

    mutable std::mutex mu_;
    mutable std::map<std::pair<ThreadId, int>, ThreadId> threadIds_;
    mutable ThreadId nextThread_ = 1;
    // threadId's answers by (parent, n) for n < maxThreads, read without the mutex (every spawn
    // of every replay asks, from every worker of jobs > 1): 0 not asked yet, else the answer
    // (a child id or -1), stored once under mu_ after the thread's name.
    std::unique_ptr<std::atomic<ThreadId>[]> threadIdFast_;
    mutable std::map<std::tuple<ThreadId, int, std::uint32_t, std::int64_t, std::uint64_t>, DynRef>
        dynIds_;
    mutable std::uint64_t nextDynBase_ = 0;
    mutable bool locationLimitWarned_ = false;
    // A builder program whose every thread keeps its one frame (no call, no return, no exit),
    // nothing on its private stack (no alloca, no thread-local) and no read-write lock
    // (flatThreads()).
    bool flatThreads_ = false;
    // Some read-modify-write is a zne candidate (CInstr::imm2 & kAccessMarked): only then do zne
    // awaits (Execution::setZneAwaits) change anything, and executions track observations.
    bool zneRmws_ = false;
    mutable std::vector<DynObj> dyn_;  // by object id - firstDynamicObject
    mutable std::vector<std::map<std::uint32_t, LocId>> cells_;  // by object id
    mutable std::vector<std::uint8_t> locSize_;                  // by LocId, capacity_
    mutable std::atomic<LocId> numLocs_{0};
    mutable std::vector<std::string> warnings_;
    mutable std::atomic<bool> portableOutcomes_{false};  // (setPortableOutcomes)
    // By LocId (capacity_, never resized: markThreadHandle reads it without the mutex):
    // pthread_create wrote it.
    mutable std::vector<std::uint8_t> threadHandle_;
    mutable std::map<std::pair<ThreadId, int>, int> choiceIds_;
    mutable std::vector<std::pair<ThreadId, int>> choicePoints_;
    mutable std::vector<Value> assignment_;                         // by choice point
    mutable std::vector<std::pair<ThreadId, int>> assignedPoints_;  // points not at LO
    mutable std::vector<Value> inputs_;                             // see inputs()
};

}  // namespace porlab::code
