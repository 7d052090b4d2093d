// SPDX-License-Identifier: MIT
// The interpreter of lowered C programs (CodeModel.hpp) behind porlab's Program / Execution
// interface. Thread-local computation (registers, the private stack) runs without scheduling
// points; every access to memory another thread can reach is one visible event.
//
// Determinism across interleavings: a thread is named by (parent, n-th pthread_create of the
// parent), a dynamic object by (allocating thread, n-th allocation of that thread, size, kind),
// and a shared location by (object, byte offset). The program maps names to ThreadId / object id /
// LocId through tables filled on first use (under a mutex: one program serves many executions),
// so that the same name gets the same id in every execution of one Program.
#include "porlab/llvm/CProgram.hpp"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <tuple>
#include <sstream>
#include <unordered_map>

#include <unistd.h>

#include "porlab/core/Conflict.hpp"
#include "porlab/core/Errors.hpp"
#include "porlab/explore/Explorer.hpp"
#include "porlab/llvm/CodeModel.hpp"
#include "porlab/llvm/Compile.hpp"
#include "porlab/llvm/CValueNames.hpp"
#include "porlab/llvm/Lower.hpp"
#include "porlab/llvm/ThreadBound.hpp"

namespace porlab {

namespace cfront {

namespace {

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

constexpr std::int64_t kLocalInstrLimit = 50'000'000;
// The program used every location --max-locations allows: the execution that needs one more is
// blocked (BlockCause::LocationLimit), not the whole run (CProgram::cell throws it, runLocal
// catches it).
struct LocationLimitReached {};
// An object of a dynamic kind (CProgram::dynamicObject): malloc, calloc, a thread-local's copy;
// kinds >= 0 are escaped stack variables (CModule::allocaNames).
constexpr std::int64_t kMallocKind = -1;
constexpr std::int64_t kCallocKind = -2;
constexpr std::int64_t tlsKind(std::int64_t global) { return -3 - global; }
// What a heap allocation may ask for: larger sizes are impossible (malloc returns NULL, as C
// says), between the two limits porlab cannot represent the object.
constexpr std::uint64_t kImpossible64 = std::uint64_t{1} << 40;
constexpr std::uint64_t kMaxObject64 = std::uint64_t{1} << 28;
// A loop without a bound is checked for a livelock every this many jumps back (a power of 2).
constexpr std::int64_t kLivelockPeriod = 8;
constexpr std::uint32_t kFreeOffset = 0xffffffffU;
constexpr int kEBusy = 16;
// What a free or the end of a stack frame leaves in each location of the block: an access that
// reads it (or a write to a location holding it) faults, so whether an access comes after the
// free is a matter of the value it reads, as value-based explorers need. No store of a C value
// narrower than 64 bits can produce it (values are sign-extended from their width).
constexpr Value kDead = kDeadValue;
// owner_ of a destroyed mutex (pthread_mutex_destroy, mtx_destroy, pthread_spin_destroy,
// pthread_rwlock_destroy): its location holds 0, as a free mutex's, so that a later lock is
// enabled and performed, and then faults (use of a destroyed mutex).
constexpr ThreadId kDestroyedOwner = -2;
// The word pthread_barrier_destroy writes: negative, so that no waiter's await is satisfied by
// it, and its upper half tells a wait's fetch-and-add that the barrier was destroyed.
constexpr std::uint64_t kBarrierDestroyedHi = 0xdeadba11ULL;
// What a location of a malloc'd block or of an escaped stack variable holds before anything wrote
// it (its initial value, ProgramInfo::initialValues, so that explorers that force the values reads
// return pass it on as they do kDead): a program's read of it is an uninitialised read. A copy
// (memcpy) carries it over, so that only a use of the copied bytes is an error.
constexpr Value kUninit = static_cast<Value>(0x8badf00d0badcafeULL);

}  // namespace

class CExecution;

// ---- the program: code plus the program-wide name tables ---------------------------------------

class CProgram final : public Program {
public:
    CProgram(CModule mod, const CLoadOptions& opts, const std::string& name);

    [[nodiscard]] std::unique_ptr<Execution> newExecution() const override;
    [[nodiscard]] const std::shared_ptr<const ProgramInfo>& info() const override { return info_; }

    const CModule& mod() const { return mod_; }

    // ---- --nondet-domain: choice points (thread, n-th __VERIFIER_nondet_* call of the thread),
    // numbered in discovery order; the driver sets one value per point before each run.
    Value choice(ThreadId t, int n, SourcePos pos) const {
        std::lock_guard lk(mu_);
        auto [it, fresh] = choiceIds_.try_emplace({t, n}, static_cast<int>(choicePoints_.size()));
        if (fresh) {
            choicePoints_.emplace_back(t, n);
            names_->addChoiceSite(t, n, pos);  // shown with the inputs of a trace
        }
        const auto i = static_cast<std::size_t>(it->second);
        return i < assignment_.size() ? assignment_[i] : opts_.nondetDomain->first;
    }
    std::size_t numChoicePoints() const {
        std::lock_guard lk(mu_);
        return choicePoints_.size();
    }
    // Only between runs (no execution of this program may be running).
    void setAssignment(const std::vector<Value>& a) const {
        std::lock_guard lk(mu_);
        assignment_ = a;
        assignedPoints_.clear();
        std::vector<std::tuple<ThreadId, int, Value>> label;
        for (std::size_t i = 0; i < a.size(); ++i)
            if (a[i] != opts_.nondetDomain->first) {
                assignedPoints_.push_back(choicePoints_[i]);
                label.emplace_back(choicePoints_[i].first, choicePoints_[i].second, a[i]);
            }
        std::sort(label.begin(), label.end());
        inputs_.clear();
        for (const auto& [t, n, v] : label) inputs_.insert(inputs_.end(), {t, n, v});
    }
    // The input of the executions the current assignment reports (Trace::inputs): the points
    // it sets to a value other than LO, as (thread, n, value), in (thread, n) order.
    std::vector<Value> inputs() const {
        std::lock_guard lk(mu_);
        return inputs_;
    }
    const CLoadOptions& opts() const { return opts_; }
    std::vector<std::string> warnings() const {
        std::lock_guard lk(mu_);
        return warnings_;
    }

private:
    friend class CExecution;

    struct DynObj {
        std::string name;
        std::int64_t tls = -1;  // a thread-local's copy: the global (initial values)
        bool uninit = false;    // malloc'd (not calloc'd) or a stack variable: starts kUninit
    };
    struct DynRef {
        std::int64_t id = 0;
        std::uint64_t base = 0;  // low address bits of byte 0 (CodeModel.hpp)
    };

    // ThreadId of the n-th child of `parent` (-1 beyond maxThreads).
    ThreadId threadId(ThreadId parent, int n, std::int32_t fn) const;
    DynRef dynamicObject(ThreadId t, int n, std::uint32_t size, std::int64_t kind,
                         SourcePos pos, std::uint64_t align = 16) const;
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
    std::string where(SourcePos p) const {
        return p.line ? mod_.files[p.file] + ":" + std::to_string(p.line) + ": " : "";
    }
    void setDisplayInfo(ProgramInfo& info);
    // Tells the trace display a new dynamic object (its name is dyn_.back()'s; mu_ held).
    void addObjectName(std::int64_t id, std::uint64_t base, std::int64_t kind, std::uint32_t size,
                       SourcePos pos, ThreadId t) const;
    void warnLocationLimit(SourcePos pos) const {
        {
            std::lock_guard lk(mu_);
            if (locationLimitWarned_) return;
            locationLimitWarned_ = true;
        }
        warnOnce("more than " + std::to_string(opts_.maxDynamicLocations) +
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
    CLoadOptions opts_;
    std::shared_ptr<CValueNames> names_;  // pointers, objects and choice sites, for traces
    std::shared_ptr<CallContexts> contexts_;  // the call stacks of events (Event::ctx)
    std::shared_ptr<ProgramInfo> infoMut_;
    std::shared_ptr<const ProgramInfo> info_;
    mutable std::vector<Value> initMem_;  // (a thread-local's copy sets its locations' entries)
    std::size_t capacity_ = 0;

    mutable std::mutex mu_;
    mutable std::map<std::pair<ThreadId, int>, ThreadId> threadIds_;
    mutable ThreadId nextThread_ = 1;
    mutable std::map<std::tuple<ThreadId, int, std::uint32_t, std::int64_t, std::uint64_t>, DynRef> dynIds_;
    mutable std::uint64_t nextDynBase_ = 0;
    mutable bool locationLimitWarned_ = false;
    mutable std::vector<DynObj> dyn_;  // by object id - firstDynamicObject
    mutable std::vector<std::map<std::uint32_t, LocId>> cells_;  // by object id
    mutable std::vector<std::uint8_t> locSize_;                  // by LocId, capacity_
    mutable std::atomic<LocId> numLocs_{0};
    mutable std::vector<std::string> warnings_;
    mutable std::map<std::pair<ThreadId, int>, int> choiceIds_;
    mutable std::vector<std::pair<ThreadId, int>> choicePoints_;
    mutable std::vector<Value> assignment_;                     // by choice point
    mutable std::vector<std::pair<ThreadId, int>> assignedPoints_;  // points not at LO
    mutable std::vector<Value> inputs_;                             // see inputs()
};

CProgram::CProgram(CModule mod, const CLoadOptions& opts, const std::string& name)
    : mod_(std::move(mod)), opts_(opts) {
    if (opts_.maxThreads < 1 || opts_.maxThreads > kMaxThreadsLimit)
        throw InputError("max_threads must be between 1 and " + std::to_string(kMaxThreadsLimit));
    if (opts_.maxDynamicLocations < 0) throw InputError("max_locations must be >= 0");
    std::size_t globalCells = 0;
    for (const auto& g : mod_.globals) globalCells += g.cells.size();
    capacity_ = globalCells + static_cast<std::size_t>(opts_.maxDynamicLocations);
    auto info = std::make_shared<ProgramInfo>();
    info->name = name;
    info->files = mod_.files;
    info->deadlockIsError = opts_.deadlockIsError;  // decided by the Reporter at a trace's end
    info->plainAccesses = mod_.plainAccesses;        // the Reporter's race check
    info->mutexDestroy = mod_.mutexDestroy;          // explorers that cannot check destroys
    info->threadNames.assign(static_cast<std::size_t>(opts_.maxThreads), "");
    info->threadNames[0] = "main";
    info->locationNames.assign(capacity_, "");
    info->isMutex.assign(capacity_, false);
    info->initialValues.assign(capacity_, 0);
    locSize_.assign(capacity_, 0);
    cells_.resize(static_cast<std::size_t>(mod_.firstDynamicObject()));
    LocId next = 0;
    for (std::size_t g = 0; g < mod_.globals.size(); ++g) {
        auto& cells = cells_[static_cast<std::size_t>(mod_.globalObject(g))];
        for (const auto& c : mod_.globals[g].cells) {
            info->locationNames[static_cast<std::size_t>(next)] = c.name;
            info->isMutex[static_cast<std::size_t>(next)] = c.mutex;
            info->initialValues[static_cast<std::size_t>(next)] = c.init;
            locSize_[static_cast<std::size_t>(next)] = c.size;
            cells[c.offset] = next++;
        }
    }
    numLocs_ = next;
    initMem_ = info->initialValues;
    setDisplayInfo(*info);
    infoMut_ = info;
    info_ = info;
    for (const auto& w : mod_.warnings) warnings_.push_back(w);
}

// What traces show beyond names and positions: assertion texts, call stacks, symbolic pointers,
// the program's nondet inputs.
void CProgram::setDisplayInfo(ProgramInfo& info) {
    info.messages = mod_.messages;
    std::vector<std::string> functions;
    for (const auto& f : mod_.functions) functions.push_back(f.name);
    contexts_ = std::make_shared<CallContexts>(std::move(functions));
    info.contexts = contexts_;
    names_ = std::make_shared<CValueNames>(mod_, kDead, capacity_);
    info.values = names_;
    for (const auto& f : mod_.functions)
        for (const auto& in : f.code)
            if (in.op == COp::Builtin && static_cast<Builtin>(in.sub) == Builtin::Nondet) info.hasNondet = true;
    if (opts_.nondetDomain) info.nondetDomain = opts_.nondetDomain;
}

void CProgram::addObjectName(std::int64_t id, std::uint64_t base, std::int64_t kind,
                             std::uint32_t size, SourcePos pos, ThreadId t) const {
    const std::string what = kind == kMallocKind   ? "malloc"
                             : kind == kCallocKind ? "calloc"
                             : kind <= tlsKind(0)  ? "thread-local"
                                                   : "stack";
    names_->addObject(id, {dyn_.back().name, what, size, pos, t}, base);
}

ThreadId CProgram::threadId(ThreadId parent, int n, std::int32_t fn) const {
    std::lock_guard lk(mu_);
    auto it = threadIds_.find({parent, n});
    if (it != threadIds_.end()) return it->second;
    if (nextThread_ >= opts_.maxThreads) return -1;
    const ThreadId t = nextThread_++;
    threadIds_[{parent, n}] = t;
    infoMut_->threadNames[static_cast<std::size_t>(t)] =
        "t" + std::to_string(t) + ":" + mod_.functions[static_cast<std::size_t>(fn)].name;
    return t;
}

CProgram::DynRef CProgram::dynamicObject(ThreadId t, int n, std::uint32_t size, std::int64_t kind,
                                         SourcePos pos, std::uint64_t align) const {
    std::lock_guard lk(mu_);
    auto key = std::make_tuple(t, n, size, kind, align);
    auto it = dynIds_.find(key);
    if (it != dynIds_.end()) return it->second;
    const std::int64_t id = mod_.firstDynamicObject() + static_cast<std::int64_t>(dyn_.size());
    if (id >= mod_.maxObjects)
        throw InputError("too many allocations (" + std::to_string(mod_.maxObjects) +
                         " objects" + (mod_.objShift < 32 ? " with 32-bit pointers)" : ")"));
    const std::string thread = infoMut_->threadNames[static_cast<std::size_t>(t)].substr(
        0, infoMut_->threadNames[static_cast<std::size_t>(t)].find(':'));
    if (kind <= tlsKind(0)) {
        const auto g = static_cast<std::size_t>(tlsKind(0) - kind);
        dyn_.push_back({mod_.globals[g].name + "@" + thread, static_cast<std::int64_t>(g)});
    } else {
        const std::string what = kind == kMallocKind   ? "malloc"
                                 : kind == kCallocKind ? "calloc"
                                                       : mod_.allocaNames[static_cast<std::size_t>(kind)];
        dyn_.push_back({what + "@" + thread + "#" + std::to_string(n), -1, kind != kCallocKind});
    }
    // The base, as a bump allocator would place it: after the previous object, aligned, with a
    // gap (so one past the end of an object is not the start of the next); from the start again
    // once the 32 bits are used up (objects then share low bits, but never an object id).
    std::uint64_t base = 0;
    if (mod_.lowBits) {
        auto up = [](std::uint64_t x, std::uint64_t a) { return (x + a - 1) / a * a; };
        const std::uint64_t a = std::max<std::uint64_t>(align, 16);
        if (nextDynBase_ == 0) nextDynBase_ = mod_.dynamicBase;
        base = up(nextDynBase_, a);
        if (base + size + 16 >= (std::uint64_t{1} << 32)) base = up(mod_.dynamicBase, a);
        nextDynBase_ = base + std::max<std::uint64_t>(size, 1) + 16;
    }
    cells_.resize(static_cast<std::size_t>(id) + 1);
    const DynRef ref{id, base};
    dynIds_[key] = ref;
    addObjectName(id, base, kind, size, pos, t);  // for traces
    return ref;
}

std::string CProgram::objectName(std::int64_t obj) const {
    if (obj >= mod_.firstDynamicObject())
        return dyn_[static_cast<std::size_t>(obj - mod_.firstDynamicObject())].name;
    if (obj > static_cast<std::int64_t>(mod_.functions.size()))
        return mod_.globals[static_cast<std::size_t>(obj - 1 -
                                                     static_cast<std::int64_t>(mod_.functions.size()))]
            .name;
    return "?";
}

LocId CProgram::cell(std::int64_t obj, std::uint32_t off, unsigned size, bool mutex,
                     SourcePos pos, bool sync) const {
    std::lock_guard lk(mu_);
    auto& cells = cells_[static_cast<std::size_t>(obj)];
    auto it = cells.find(off);
    if (it != cells.end()) {
        const LocId l = it->second;
        const bool isM = infoMut_->isMutex[static_cast<std::size_t>(l)];
        if (!mutex && size == 0 && isM) return l;  // a free of a block that starts with a mutex
        if (mutex != isM)
            throw UnsupportedError(where(pos) + (mutex ? "'" + infoMut_->locationNames[static_cast<std::size_t>(l)] + "' used as a mutex but it is plain memory"
                                                       : "memory access to the mutex '" + infoMut_->locationNames[static_cast<std::size_t>(l)] + "'"));
        // size 0: a free (matches whatever the block's first location is); a location a free
        // created takes the size of the first access.
        if (!mutex && size != 0 && locSize_[static_cast<std::size_t>(l)] == 0) {
            auto nx = std::next(it);
            if (nx != cells.end() && nx->first < off + size)
                throw UnsupportedError(where(pos) + "overlapping accesses of different sizes to '" +
                                       objectName(obj) + "'");
            locSize_[static_cast<std::size_t>(l)] = static_cast<std::uint8_t>(size);
            return l;
        }
        if (!mutex && size != 0 && locSize_[static_cast<std::size_t>(l)] != size)
            throw UnsupportedError(where(pos) + "mixed-size access: " + std::to_string(size) +
                                   " bytes at '" + infoMut_->locationNames[static_cast<std::size_t>(l)] +
                                   "', a location of " +
                                   std::to_string(locSize_[static_cast<std::size_t>(l)]) + " bytes");
        return l;
    }
    if (off == kFreeOffset) {  // the hidden location a free writes (double frees conflict)
        const LocId l = numLocs_.load();
        if (static_cast<std::size_t>(l) >= capacity_) throw LocationLimitReached{};
        infoMut_->locationNames[static_cast<std::size_t>(l)] = objectName(obj) + ".free";
        locSize_[static_cast<std::size_t>(l)] = static_cast<std::uint8_t>(size);
        cells[off] = l;
        numLocs_.store(l + 1);
        return l;
    }
    const bool isGlobal = obj < mod_.firstDynamicObject();
    if (isGlobal && !mutex)
        throw UnsupportedError(where(pos) + "access of " + std::to_string(size) + " bytes at offset " +
                               std::to_string(off) + " of '" + objectName(obj) +
                               "' does not match its declared layout");
    const unsigned sz = mutex ? (size ? size : 8) : size;  // (a spin lock is a 4-byte mutex)
    auto next = cells.lower_bound(off);
    if (next != cells.end() && next->first < off + sz)
        throw UnsupportedError(where(pos) + "overlapping accesses of different sizes to '" +
                               objectName(obj) + "' at offsets " + std::to_string(off) + " and " +
                               std::to_string(next->first));
    if (next != cells.begin()) {
        auto prev = std::prev(next);
        const LocId pl = prev->second;
        const unsigned psz = infoMut_->isMutex[static_cast<std::size_t>(pl)] ? 8 : locSize_[static_cast<std::size_t>(pl)];
        if (prev->first + psz > off)
            throw UnsupportedError(where(pos) + "overlapping accesses of different sizes to '" +
                                   objectName(obj) + "' at offsets " + std::to_string(prev->first) +
                                   " and " + std::to_string(off));
    }
    const LocId l = numLocs_.load();
    if (static_cast<std::size_t>(l) >= capacity_) throw LocationLimitReached{};
    std::string name = objectName(obj);
    if (off) name += "+" + std::to_string(off);
    infoMut_->locationNames[static_cast<std::size_t>(l)] = name;
    infoMut_->isMutex[static_cast<std::size_t>(l)] = mutex;
    locSize_[static_cast<std::size_t>(l)] = static_cast<std::uint8_t>(sz);
    if (!isGlobal) {
        const auto& d = dyn_[static_cast<std::size_t>(obj - mod_.firstDynamicObject())];
        if (d.tls >= 0 && !mutex) {  // a thread-local's copy starts with the initialiser
            const auto& bytes = mod_.globals[static_cast<std::size_t>(d.tls)].bytes;
            std::int64_t v = 0;
            if (off < bytes.size())
                std::memcpy(&v, bytes.data() + off, std::min<std::size_t>(sz, bytes.size() - off));
            const Value init = sz >= 8 ? v : norm(v, sz * 8);
            infoMut_->initialValues[static_cast<std::size_t>(l)] = init;
            initMem_[static_cast<std::size_t>(l)] = init;
        } else if (d.uninit && !mutex && !sync) {
            infoMut_->initialValues[static_cast<std::size_t>(l)] = kUninit;
            initMem_[static_cast<std::size_t>(l)] = kUninit;
        }
    }
    cells[off] = l;
    if (!isGlobal) names_->setLocationObject(l, obj);
    numLocs_.store(l + 1);
    return l;
}

// ---- one execution -------------------------------------------------------------------------------

class CExecution final : public Execution {
public:
    explicit CExecution(const CProgram& p)
        : p_(p), m_(p.mod()), T_(p.opts().maxThreads), mem_(p.initMem_), owner_(p.capacity_, -1),
          threads_(static_cast<std::size_t>(T_)), knownLocs_(p.numLocs_.load()) {
        emitted_.reserve(8);
    }

    std::span<const Event> reset() override {
        // Only locations created so far can have been written (numLocs_ never shrinks).
        const auto nl = static_cast<std::ptrdiff_t>(p_.numLocs_.load());
        std::copy(p_.initMem_.begin(), p_.initMem_.begin() + nl, mem_.begin());
        std::fill(owner_.begin(), owner_.begin() + nl, -1);
        knownLocs_ = static_cast<LocId>(nl);
        objs_.clear();
        for (auto& th : threads_) {
            th.status = ThreadStatus::NotStarted;
            th.frames.clear();
            th.regs.clear();
            th.local.clear();
            th.stackObjs.clear();
            th.wrHeld.clear();
            th.evCount = 0;
            th.nAllocs = th.nSpawns = th.atomicDepth = th.phase = th.nNondet = 0;
            th.exitVal = th.aux = 0;
            th.effects = th.hidden = 0;
            th.lastLoop = 0;
            th.lastWriteStep = th.lastWriteAmount = 0;
            th.lastWriteIndex = th.lastWriteLoc = -1;
            th.cand.valid = false;
            th.cand.runnableAt = -1;
        }
        if (zneAwaits_) {
            std::fill(obsThread_.begin(), obsThread_.begin() + nl, -1);
            std::fill(obsStep_.begin(), obsStep_.begin() + nl, 0);
            std::fill(obsOther_.begin(), obsOther_.begin() + nl, 0);
        }
        failed_ = false;
        totalEvents_ = 0;
        emitted_.clear();
        startThread(0, m_.mainFunction, {0, 0});
        return emitted_;
    }

    [[nodiscard]] int maxThreads() const override { return T_; }
    [[nodiscard]] ThreadStatus status(ThreadId t) const override {
        return threads_[static_cast<std::size_t>(t)].status;
    }

    [[nodiscard]] const Event& pending(ThreadId t) const override {
        Thread& th = threads_[static_cast<std::size_t>(t)];
        Event& e = th.pend;
        e.index = th.evCount;
        e.enabled = true;
        const Value cur = e.loc >= 0 ? mem_[static_cast<std::size_t>(e.loc)] : 0;
        switch (e.kind) {
        case EventKind::Read: e.rval = cur; break;
        case EventKind::FetchAdd:
            e.rval = cur;
            e.width = static_cast<std::uint8_t>(th.pendW);
            e.wval = rmwResult(e, cur);
            break;
        case EventKind::Exchange: e.rval = cur; break;
        case EventKind::CasSuccess:
        case EventKind::CasFailure:
            e.rval = cur;
            if (th.pendTry) {  // pthread_mutex_trylock: a CAS 0 -> 1 on the mutex word
                e.kind = cur == 0 ? EventKind::CasSuccess : EventKind::CasFailure;
                e.wval = cur == 0 ? 1 : 0;
            } else if (cur == e.operand) {
                e.kind = EventKind::CasSuccess;
                e.wval = th.pendNew;
            } else {
                e.kind = EventKind::CasFailure;
                e.wval = 0;
            }
            break;
        case EventKind::Lock:
            if (th.pendTry && cur != 0) {
                e.kind = EventKind::CasFailure;
                e.rval = cur;
                e.wval = 0;
                break;
            }
            e.rval = 0;
            e.wval = 1;
            e.enabled = cur == 0 || relaxedLocks_;
            break;
        case EventKind::Join:
            e.enabled = threads_[static_cast<std::size_t>(e.aux)].status == ThreadStatus::Finished;
            break;
        case EventKind::Await:
        case EventKind::XchgAwait:
            e.rval = cur;
            e.enabled = evalAwaitCond(e.cond, cur, e.operand);
            break;
        default: break;
        }
        // A zne await (setZneAwaits): the canceling decrement waits until another thread has
        // observed the increment (Execution::setZneAwaits).
        if (e.kind == EventKind::FetchAdd && e.zne && e.aux >= 0)
            e.enabled = observedSince(e.loc, t, th.lastWriteStep);
        return e;
    }

    std::span<const Event> step(ThreadId t, std::optional<Value> forcedRead) override;

    [[nodiscard]] bool failed() const override { return failed_; }
    bool setRelaxedLocks(bool on) override {
        relaxedLocks_ = on;
        return true;
    }
    std::span<const Event> blockThread(ThreadId t, BlockCause cause) override {
        emitted_.clear();
        Thread& th = threads_[static_cast<std::size_t>(t)];
        if (th.status != ThreadStatus::Ready) return {};
        // A thread blocked at a canceling decrement: the marker names the start of the
        // iteration (the decrement's loop's bookkeeping, CInstr::d of the Rmw).
        Value operand = -1;
        const CInstr& in = cur(th);
        if (cause == BlockCause::Zne && in.op == COp::Rmw && in.d >= 0) operand = val(th, in.d);
        mark(t, EventKind::AssumeBlock, ThreadStatus::Blocked, static_cast<int>(cause),
             th.pend.pos, operand);
        return emitted_;
    }
    bool setZneAwaits(bool on) override {
        zneAwaits_ = on;
        if (on) {
            obsThread_.assign(p_.capacity_, -1);
            obsStep_.assign(p_.capacity_, 0);
            obsOther_.assign(p_.capacity_, 0);
        }
        return true;
    }
    [[nodiscard]] std::span<const Value> memory() const override { return mem_; }

    [[nodiscard]] std::vector<Value> outcome() const override {
        // Locations beyond numLocs_ were never created, so never written: scan from there.
        std::size_t n = std::min(mem_.size(), static_cast<std::size_t>(p_.numLocs_.load()));
        while (n > 0 && mem_[n - 1] == p_.initMem_[n - 1]) --n;
        std::vector<Value> o(mem_.begin(), mem_.begin() + static_cast<std::ptrdiff_t>(n));
        o.push_back(-1);  // separator: memory is trimmed
        for (const auto& th : threads_) {
            o.push_back(static_cast<Value>(th.status));
            if (th.status == ThreadStatus::Finished) {
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

    void save(Snapshot& s) const override;
    void restore(const Snapshot& s) override;

    // Nondet driver: did this execution use every choice point the current assignment sets to
    // a value other than LO? (Otherwise the same execution is reported under the assignment that
    // has LO there.) Points of a thread are used in order, so (t, n) is used iff nNondet > n.
    [[nodiscard]] bool usesAssignedChoices() const {
        for (const auto& [t, n] : p_.assignedPoints_)
            if (threads_[static_cast<std::size_t>(t)].nNondet <= n) return false;
        return true;
    }

private:
    struct Frame {
        std::int32_t fn = 0, pc = 0, regBase = 0, localBase = 0, retDst = -1;
        std::int32_t ctx = -1;  // its call stack (CallContexts), -1 until an event needs it
    };
    struct Thread {
        ThreadStatus status = ThreadStatus::NotStarted;
        std::uint32_t evCount = 0;
        std::int32_t nAllocs = 0, nSpawns = 0, atomicDepth = 0, phase = 0;
        std::int32_t nNondet = 0;  // __VERIFIER_nondet_* calls so far (choice points used)
        Value exitVal = 0, aux = 0;
        // SAVER's dynamic purity checks: writes this thread made that another thread can see
        // (published memory) or that change its own state (private stack), so far.
        std::int64_t effects = 0;
        // Writes SAVER's relaxation does not count as effects (stores dead at their loop's header
        // into a block no other thread can reach yet): state changes all the same, for the
        // livelock check (the loop bookkeeping counts effects + hidden).
        std::int64_t hidden = 0;
        // The header of the loop the thread last jumped back to (file << 32 | line), to name the
        // loop when an execution is cut.
        std::int64_t lastLoop = 0;
        // The thread's last write (zne awaits: the increment a canceling decrement cancels): its
        // step number (totalEvents_ after it), Event::index, location and the amount a
        // fetch-and-add added (0: another kind of write).
        std::int64_t lastWriteStep = 0, lastWriteAmount = 0;
        std::int32_t lastWriteIndex = -1, lastWriteLoc = -1;
        // the pending visible operation (fields that depend on memory are filled by pending())
        Event pend;
        std::uint8_t pendW = 64;
        bool pendTry = false;  // pthread_mutex_trylock
        Value pendNew = 0;     // CAS new value
        std::int64_t pendObj = 0;  // heap object the pending access touches (0: none)
        std::vector<Frame> frames;
        std::vector<Value> regs;
        std::vector<std::uint8_t> local;
        std::vector<std::pair<std::int64_t, std::int64_t>> stackObjs;  // (frame depth, object)
        std::vector<LocId> wrHeld;  // the read-write locks (their mutexes) it holds for writing
        // The livelock check (loopBack): the thread's state at a visit of a loop header after an
        // iteration without effects, while no other thread could run. Not part of snapshots (a
        // restore drops it: it only has to survive straight-line execution).
        struct Candidate {
            bool valid = false;
            // When the last check found another thread that can run: nothing changes that
            // before this thread writes or some thread makes a step (totalEvents_), so a tight
            // loop checks once per step, not once per iteration.
            std::int64_t runnableAt = -1, runnableChanges = -1;
            std::int32_t depth = 0, slot = 0, nAllocs = 0, nNondet = 0, atomicDepth = 0;
            std::int64_t effects = 0, others = 0;
            std::size_t localSize = 0;
            std::vector<Value> regs;
        } cand;
    };
    struct ObjState {
        std::uint32_t size = 0;
        std::uint8_t status = 0;  // 0 none, 1 live, 2 freed, 3 ended (stack)
        std::uint8_t heap = 0;    // malloc/calloc (may be freed)
        // Can another thread reach it? Heap blocks are private until a pointer into them is
        // written to shared memory or handed to a thread (SAVER ignores writes to private ones).
        std::uint8_t published = 1;
        std::uint32_t base = 0;   // low address bits of byte 0 (CProgram::dynamicObject)
    };
    enum class Where : std::uint8_t { Local, Const, Shared, Fault };
    struct Addr {
        Where where = Where::Fault;
        std::int64_t obj = 0;
        std::uint32_t off = 0;
        FaultKind fault = FaultKind::InvalidPointer;
    };

    // ---- helpers ---------------------------------------------------------------------------

    Value val(const Thread& th, std::int32_t x) const {
        return x >= 0 ? th.regs[static_cast<std::size_t>(th.frames.back().regBase + x)]
                      : m_.constants[static_cast<std::size_t>(~x)];
    }
    Value& reg(Thread& th, std::int32_t x) {
        return th.regs[static_cast<std::size_t>(th.frames.back().regBase + x)];
    }
    Value arg(const Thread& th, const CInstr& in, int i) const {
        const CFunction& f = m_.functions[static_cast<std::size_t>(th.frames.back().fn)];
        return val(th, f.args[static_cast<std::size_t>(in.b + i)]);
    }
    const CFunction& fnOf(const Thread& th) const {
        return m_.functions[static_cast<std::size_t>(th.frames.back().fn)];
    }
    const CInstr& cur(const Thread& th) const {
        return fnOf(th).code[static_cast<std::size_t>(th.frames.back().pc)];
    }

    // deadOk: a freed block or a dead frame's variable resolves to its location (plain accesses
    // are events that conflict with the free / frame end, and fault when performed).
    Addr resolve(const Thread& th, Value p, std::uint64_t size, bool deadOk = false) const {
        Addr a;
        const auto u = static_cast<std::uint64_t>(p);
        if (u == 0) {
            a.fault = FaultKind::NullDereference;
            return a;
        }
        if (u & m_.localTag) {
            const std::uint64_t off = u & (m_.localTag - 1);
            if (off + size > th.local.size() || off >= (1ULL << 40)) return a;
            a.where = Where::Local;
            a.off = static_cast<std::uint32_t>(off);
            return a;
        }
        const auto obj = static_cast<std::int64_t>((u & (m_.localTag - 1)) >> m_.objShift);
        // The offset: the low bits minus the object's base (a pointer below the base wraps to a
        // huge offset, out of bounds).
        std::uint64_t off = u & m_.offMask;
        if (u >= m_.localTag) return a;  // beyond the encoding (e.g. a wrapped 32-bit pointer)
        if (obj <= static_cast<std::int64_t>(m_.functions.size())) return a;
        auto within = [&](std::uint64_t limit) { return off <= limit && size <= limit - off; };
        if (obj < m_.firstDynamicObject()) {
            const CGlobal& g = m_.globals[static_cast<std::size_t>(
                obj - 1 - static_cast<std::int64_t>(m_.functions.size()))];
            off -= m_.staticBase[static_cast<std::size_t>(obj)];
            if (!within(g.size) || g.tls) return a;
            a.where = g.constant ? Where::Const : Where::Shared;
        } else {
            const auto i = static_cast<std::size_t>(obj);
            if (i >= objs_.size() || objs_[i].status == 0) return a;
            if (objs_[i].status != 1 && !(deadOk && objs_[i].status >= 2)) {
                a.fault = objs_[i].status == 2 ? FaultKind::UseAfterFree : FaultKind::InvalidPointer;
                return a;
            }
            off -= objs_[i].base;
            if (!within(objs_[i].size)) return a;
            a.where = Where::Shared;
        }
        a.obj = obj;
        a.off = static_cast<std::uint32_t>(off);
        return a;
    }

    LocId cellOf(std::int64_t obj, std::uint32_t off, unsigned size, bool mutex, SourcePos pos,
                 bool sync = false) {
        if (static_cast<std::size_t>(obj) >= cache_.size()) cache_.resize(static_cast<std::size_t>(obj) + 1);
        auto& c = cache_[static_cast<std::size_t>(obj)];
        if (off < c.size() && c[off] >= 0) {
            const LocId l = c[off];
            const bool isM = p_.infoMut_->isMutex[static_cast<std::size_t>(l)];
            if (isM == mutex && (mutex || size == 0 || p_.locSize_[static_cast<std::size_t>(l)] == size))
                return l;
        }
        const LocId l = known(p_.cell(obj, off, size, mutex, pos, sync));
        if (off == kFreeOffset) return l;
        if (off >= c.size()) c.resize(off + 1, -1);
        c[off] = l;
        return l;
    }

    // A location created since this execution last synchronised its memory with the program's
    // initial values (reset, restore): those created meanwhile (by any execution) start with
    // their initial value here too. Every location the execution touches passes through here
    // first, so none of them is reset after it was written.
    LocId known(LocId l) {
        if (l < knownLocs_) return l;
        const LocId now = p_.numLocs_.load();
        for (LocId k = knownLocs_; k < now; ++k) {
            mem_[static_cast<std::size_t>(k)] = p_.initMem_[static_cast<std::size_t>(k)];
            owner_[static_cast<std::size_t>(k)] = -1;
        }
        knownLocs_ = now;
        return l;
    }

    // Byte offset of pointer u in object obj (huge when u points below the object).
    std::uint64_t offsetIn(std::uint64_t u, std::int64_t obj) const {
        std::uint64_t base = 0;
        if (obj < m_.firstDynamicObject())
            base = m_.staticBase[static_cast<std::size_t>(obj)];
        else if (static_cast<std::size_t>(obj) < objs_.size())
            base = objs_[static_cast<std::size_t>(obj)].base;
        return (u & m_.offMask) - base;
    }

    Value loadLocal(const Thread& th, std::uint32_t off, std::uint64_t size, unsigned w) const {
        std::int64_t v = 0;
        std::memcpy(&v, th.local.data() + off, size);
        return norm(v, w);
    }
    // A write to the private stack is an effect (SAVER's purity checks, the livelock check)
    // only when it changes a byte: a store of the value already there changes no state.
    void storeLocal(Thread& th, std::uint32_t off, std::uint64_t size, Value v) {
        if (std::memcmp(th.local.data() + off, &v, size) == 0) return;
        std::memcpy(th.local.data() + off, &v, size);
        ++th.effects;
    }
    // The same for a block of bytes (memset, memcpy, memmove into the private stack).
    void writeLocalBytes(Thread& th, std::uint32_t off, const std::uint8_t* src, std::uint64_t n) {
        if (n == 0 || std::memcmp(th.local.data() + off, src, n) == 0) return;
        std::memmove(th.local.data() + off, src, n);
        ++th.effects;
    }
    // A value written where other threads can see it: a pointer into a private heap block
    // publishes the block.
    void publish(Value v) {
        const auto u = static_cast<std::uint64_t>(v);
        if (u == 0 || (u & m_.localTag)) return;
        const auto obj = static_cast<std::size_t>(u >> m_.objShift);
        if (obj < objs_.size()) objs_[obj].published = 1;
    }
    Value loadConst(std::int64_t obj, std::uint32_t off, std::uint64_t size, unsigned w) const {
        const CGlobal& g = m_.globals[static_cast<std::size_t>(
            obj - 1 - static_cast<std::int64_t>(m_.functions.size()))];
        std::int64_t v = 0;
        std::memcpy(&v, g.bytes.data() + off, size);
        return norm(v, w);
    }

    // `operand`: an AssumeBlock marker's Event::index of the thread's first event of the
    // iteration a loop reduction (or the livelock check) blocked, -1 if none (EventKind.hpp).
    // ctx: the marker's call stack; by default the running frame's (0 once the thread has none).
    static constexpr std::uint32_t kRunningFrame = ~0U;
    void mark(ThreadId t, EventKind k, ThreadStatus st, std::int32_t aux, SourcePos pos,
              Value operand = -1, std::uint32_t ctx = kRunningFrame) {
        Thread& th = threads_[static_cast<std::size_t>(t)];
        Event m;
        m.thread = t;
        m.index = th.evCount++;
        m.kind = k;
        m.aux = aux;
        m.pos = pos;
        m.ctx = ctx != kRunningFrame ? ctx : th.frames.empty() ? 0 : ctxOf(th);
        if (k == EventKind::AssumeBlock) m.operand = operand;
        emitted_.push_back(m);
        th.status = st;
        if (st == ThreadStatus::Failed) failed_ = true;
    }
    void fault(ThreadId t, FaultKind f, SourcePos pos) {
        mark(t, EventKind::Fault, ThreadStatus::Failed, static_cast<int>(f), pos);
    }

    void startThread(ThreadId t, std::int32_t fn, std::initializer_list<Value> args) {
        Thread& th = threads_[static_cast<std::size_t>(t)];
        th.status = ThreadStatus::Ready;
        th.frames.clear();
        th.regs.clear();
        th.local.assign(m_.tlsTemplate.begin(), m_.tlsTemplate.end());  // private thread-locals
        th.wrHeld.clear();
        const CFunction& f = m_.functions[static_cast<std::size_t>(fn)];
        Frame fr;
        fr.fn = fn;
        fr.localBase = static_cast<std::int32_t>(th.local.size());
        th.frames.push_back(fr);
        th.regs.assign(static_cast<std::size_t>(f.numSlots), 0);
        int i = 0;
        for (Value a : args)
            if (i < f.numParams) th.regs[static_cast<std::size_t>(i++)] = a;
        runLocal(t);
    }

    void ensureObj(std::int64_t id) {
        if (static_cast<std::size_t>(id) >= objs_.size()) objs_.resize(static_cast<std::size_t>(id) + 1);
        if (static_cast<std::size_t>(id) >= cache_.size()) cache_.resize(static_cast<std::size_t>(id) + 1);
    }

    // The largest object porlab represents (bytes).
    [[nodiscard]] std::uint64_t maxObjectBytes() const {
        return m_.lowBits ? kMaxObject64 : m_.offMask + 1;
    }

    // A new shared object (heap block or escaped stack variable; the caller checked the size):
    // a pointer to its byte 0.
    Value allocShared(ThreadId t, std::uint64_t size, std::int64_t kind, SourcePos pos,
                      std::uint64_t align = 16) {
        Thread& th = threads_[static_cast<std::size_t>(t)];
        const auto ref = p_.dynamicObject(t, th.nAllocs++, static_cast<std::uint32_t>(size), kind, pos, align);
        ensureObj(ref.id);
        const bool heap = kind == kMallocKind || kind == kCallocKind;
        objs_[static_cast<std::size_t>(ref.id)] = {static_cast<std::uint32_t>(size), 1,
                                                   static_cast<std::uint8_t>(heap ? 1 : 0),
                                                   static_cast<std::uint8_t>(heap ? 0 : 1),
                                                   static_cast<std::uint32_t>(ref.base)};
        return static_cast<Value>(m_.pointer(ref.id, ref.base));
    }

    // malloc and friends: NULL for a size no machine can provide (C's answer), an
    // UnsupportedError for one porlab cannot represent.
    Value allocHeap(ThreadId t, std::uint64_t size, std::int64_t kind, std::uint64_t align, SourcePos pos) {
        const std::uint64_t impossible = m_.lowBits ? kImpossible64 : std::uint64_t{1} << 31;
        if (size >= impossible || align == 0 || (align & (align - 1)) != 0 || align > maxObjectBytes())
            return 0;
        if (size > maxObjectBytes())
            throw UnsupportedError(p_.where(pos) + "an allocation of " + std::to_string(size) +
                                   " bytes: porlab's objects hold at most " +
                                   std::to_string(maxObjectBytes()) + " bytes" +
                                   (m_.lowBits ? "" : " with 32-bit pointers"));
        return allocShared(t, size, kind, pos, align);
    }

    // The bytes memset / memcpy moves as one event at byte k of n: a location of the shared
    // side(s) (a global's declared cell, a heap location that exists, else an aligned chunk of
    // at most 8 bytes).
    unsigned copyChunk(const CInstr& in, const Addr& d, const Addr& s, std::uint64_t k, std::uint64_t n) const {
        auto side = [&](const Addr& a, bool& fixed) -> unsigned {
            fixed = false;
            if (a.where != Where::Shared) return 0;
            const std::uint32_t off = a.off + static_cast<std::uint32_t>(k);
            if (a.obj < m_.firstDynamicObject()) {
                const CGlobal& g = m_.globals[static_cast<std::size_t>(
                    a.obj - 1 - static_cast<std::int64_t>(m_.functions.size()))];
                fixed = true;
                for (const auto& c : g.cells)
                    if (c.offset == off) return c.size;
                throw UnsupportedError(p_.where(in.pos) + std::string(kBuiltinNames[in.sub]) +
                                       " that does not cover whole locations of '" + g.name + "'");
            }
            if (const unsigned sz = p_.cellSizeAt(a.obj, off)) {
                fixed = true;
                return sz;
            }
            // an aligned chunk that ends before the block's next location
            std::uint64_t room = n - k;
            std::uint32_t nx = 0;
            LocId nl = kNoLoc;
            if (p_.nextCell(a.obj, off + 1, nx, nl)) room = std::min<std::uint64_t>(room, nx - off);
            for (unsigned c = 8; c > 1; c /= 2)
                if (off % c == 0 && c <= room) return c;
            return 1;
        };
        bool fd = false, fs = false;
        const unsigned cd = side(d, fd), cs = side(s, fs);
        unsigned chunk = 0;
        if (fd && fs && cd != cs)
            throw UnsupportedError(p_.where(in.pos) + std::string(kBuiltinNames[in.sub]) +
                                   " between shared objects of different layouts (" + std::to_string(cs) +
                                   "-byte and " + std::to_string(cd) + "-byte locations)");
        if (fd) chunk = cd;
        else if (fs) chunk = cs;
        else if (cd && cs) chunk = std::min(cd, cs);
        else chunk = cd ? cd : cs;
        if (chunk == 0 || k + chunk > n)
            throw UnsupportedError(p_.where(in.pos) + std::string(kBuiltinNames[in.sub]) +
                                   " that does not cover whole shared locations");
        return chunk;
    }
    void doReturn(ThreadId t, Value rv, bool hasValue);
    // The call stack of the running frame: one load on the hot path; computed (and kept in the
    // frame) the first time an event of the frame needs it.
    std::uint32_t ctxOf(Thread& th) {
        const std::int32_t c = th.frames.back().ctx;
        return c >= 0 ? static_cast<std::uint32_t>(c) : computeCtx(th);
    }
    std::uint32_t computeCtx(Thread& th);
    // The end of a frame whose stack variables escaped: a write event of every location of each
    // (th.phase: the next offset), like a free; the variable is dead after its last one. True
    // when such a write is pending.
    // The event that kills a location: an exchange (it reads what was there, so that explorers
    // by reads-from also tell a write before it from one after it); a plain write on a mutex.
    EventKind deadKind(LocId l) const {
        return p_.infoMut_->isMutex[static_cast<std::size_t>(l)] ? EventKind::Write : EventKind::Exchange;
    }
    // allFrames (pthread_exit, exit, abort): the variables of every frame of the thread, the
    // innermost first, as if each frame returned in turn.
    bool frameEnd(ThreadId t, const CInstr& in, bool allFrames = false) {
        Thread& th = threads_[static_cast<std::size_t>(t)];
        const auto depth = static_cast<std::int64_t>(th.frames.size());
        while (!th.stackObjs.empty() && (allFrames || th.stackObjs.back().first == depth)) {
            const std::int64_t obj = th.stackObjs.back().second;
            std::uint32_t off = 0;
            LocId l = kNoLoc;
            if (p_.nextCell(obj, static_cast<std::uint32_t>(th.phase), off, l)) {
                l = known(l);
                setPend(th, t, deadKind(l), l, in.pos);
                th.pend.wval = th.pend.kind == EventKind::Exchange ? kDead : 0;
                th.pend.aux = kFrameEndAux;  // shown as the variable's end, not an exchange
                th.pend.mode = AccessMode::Internal;
                th.pendObj = obj;
                th.aux = off;
                return true;
            }
            objs_[static_cast<std::size_t>(obj)].status = 3;
            th.stackObjs.pop_back();
            th.phase = 0;
        }
        return false;
    }
    bool visibleBuiltin(ThreadId t, const CInstr& in);
    void runLocal(ThreadId t);
    void runLocalSteps(ThreadId t);
    bool stopAtAccess(ThreadId t, const CInstr& in, const Addr& ad);
    void setPend(Thread& th, ThreadId t, EventKind k, LocId loc, SourcePos pos) {
        Event& e = th.pend;
        e = Event{};
        e.thread = t;
        e.kind = k;
        e.loc = loc;
        e.pos = pos;
        e.ctx = ctxOf(th);
        th.pendW = 64;
        th.pendTry = false;
        th.pendNew = 0;
        th.pendObj = 0;
    }

    const CProgram& p_;
    const CModule& m_;
    int T_;
    std::vector<Value> mem_;
    std::vector<ThreadId> owner_;
    bool relaxedLocks_ = false;  // LAPOR replays: locks never block nor fault
    mutable std::vector<Thread> threads_;
    std::vector<ObjState> objs_;
    LocId knownLocs_ = 0;  // see known()
    std::vector<std::vector<LocId>> cache_;  // (object, offset) -> LocId, a cache of p_.cells_
    std::vector<Event> emitted_;
    std::vector<Value> tmp_;
    // (caller's context, call pc, callee) -> context: this execution's cache of the program's
    // CallContexts, so that re-executions intern without taking its lock.
    struct CtxKeyHash {
        std::size_t operator()(const std::pair<std::uint64_t, std::uint64_t>& k) const noexcept {
            return static_cast<std::size_t>(k.first * 0x9e3779b97f4a7c15ULL ^ k.second);
        }
    };
    std::unordered_map<std::pair<std::uint64_t, std::uint64_t>, std::uint32_t, CtxKeyHash> ctxCache_;
    std::vector<std::uint8_t> tmpBytes_;
    // zne awaits (setZneAwaits): per location, the last access that observes its value (any
    // access but a fetch-and-add whose result is unused): its thread and step number, and the
    // step number of the last such access by another thread than that one.
    bool zneAwaits_ = false;
    std::vector<ThreadId> obsThread_;
    std::vector<std::int64_t> obsStep_, obsOther_;
    std::vector<std::int64_t> warnedLoops_;  // loops this execution already warned about
    // "file:line" of a loop header packed as file << 32 | line (CInstr::imm2 of LoopBack).
    std::string loopName(std::int64_t packed) const {
        const auto file = static_cast<std::size_t>(packed >> 32);
        const auto line = packed & 0xffffffff;
        return (file < m_.files.size() ? m_.files[file] : std::string("?")) + ":" + std::to_string(line);
    }
    // Warns about a loop once per execution object (warnOnce keeps one copy program-wide; this
    // saves its lock on every blocked execution).
    void warnLoop(std::int64_t packed, BlockCause why, const std::string& text) {
        const std::int64_t key = packed * 16 + static_cast<int>(why);
        if (std::find(warnedLoops_.begin(), warnedLoops_.end(), key) != warnedLoops_.end()) return;
        warnedLoops_.push_back(key);
        p_.warnOnce(text);
    }
    // The livelock check at a jump back (slots L of the loop, `others` the steps of other threads
    // so far): true when the thread was blocked (livelock).
    bool livelock(ThreadId t, const CInstr& in, const Value* L, std::int64_t others);
    // Did a thread other than t observe location l after step s?
    [[nodiscard]] bool observedSince(LocId l, ThreadId t, std::int64_t s) const {
        const auto i = static_cast<std::size_t>(l);
        return obsThread_[i] != t ? obsStep_[i] > s : obsOther_[i] > s;
    }
    std::int64_t totalEvents_ = 0;  // visible operations of this execution
    bool failed_ = false;
};

// ---- local execution -------------------------------------------------------------------------

std::uint32_t CExecution::computeCtx(Thread& th) {
    std::size_t k = th.frames.size();
    while (k > 0 && th.frames[k - 1].ctx < 0) --k;
    for (; k < th.frames.size(); ++k) {
        Frame& f = th.frames[k];
        std::uint32_t parent = 0;
        std::int32_t pc = -1;
        SourcePos site;
        if (k > 0) {  // called from the frame below, at its pc (a call until the return)
            const Frame& caller = th.frames[k - 1];
            parent = static_cast<std::uint32_t>(caller.ctx);
            pc = caller.pc;
            site = m_.functions[static_cast<std::size_t>(caller.fn)].code[static_cast<std::size_t>(pc)].pos;
        }
        const std::pair<std::uint64_t, std::uint64_t> key{
            (static_cast<std::uint64_t>(parent) << 32) | static_cast<std::uint32_t>(pc),
            static_cast<std::uint32_t>(f.fn)};
        auto it = ctxCache_.find(key);
        if (it == ctxCache_.end())
            it = ctxCache_.emplace(key, p_.contexts_->intern(parent, static_cast<std::uint32_t>(f.fn), site)).first;
        f.ctx = static_cast<std::int32_t>(it->second);
    }
    return static_cast<std::uint32_t>(th.frames.back().ctx);
}

void CExecution::doReturn(ThreadId t, Value rv, bool hasValue) {
    Thread& th = threads_[static_cast<std::size_t>(t)];
    const Frame fr = th.frames.back();
    while (!th.stackObjs.empty() &&
           th.stackObjs.back().first == static_cast<std::int64_t>(th.frames.size())) {
        objs_[static_cast<std::size_t>(th.stackObjs.back().second)].status = 3;
        th.stackObjs.pop_back();
    }
    th.frames.pop_back();
    th.local.resize(static_cast<std::size_t>(fr.localBase));
    th.regs.resize(static_cast<std::size_t>(fr.regBase));
    if (th.frames.empty()) {
        th.exitVal = hasValue ? rv : 0;
        publish(th.exitVal);  // pthread_join hands it to another thread
        return;
    }
    if (fr.retDst >= 0 && hasValue) reg(th, fr.retDst) = rv;
    th.frames.back().pc += 1;
}


// Shared memory access: resolve the location and make it the thread's pending event.
// `ad`: the address in.b resolves to (deadOk).
bool CExecution::stopAtAccess(ThreadId t, const CInstr& in, const Addr& ad) {
    Thread& th = threads_[static_cast<std::size_t>(t)];
    if (ad.where != Where::Shared) return false;
    const LocId loc = cellOf(ad.obj, ad.off, static_cast<unsigned>(in.imm), false, in.pos);
    Event& e = th.pend;
    switch (in.op) {
    case COp::Load: setPend(th, t, EventKind::Read, loc, in.pos); break;
    case COp::Store:
        setPend(th, t, EventKind::Write, loc, in.pos);
        e.wval = val(th, in.c);
        break;
    case COp::Rmw:
        if (static_cast<CRmw>(in.sub) == CRmw::Xchg) {
            setPend(th, t, EventKind::Exchange, loc, in.pos);
            e.wval = val(th, in.c);
        } else {
            setPend(th, t, EventKind::FetchAdd, loc, in.pos);
            e.rmwOp = kRmwOfCRmw[in.sub];
            e.operand = val(th, in.c);
            e.resultUsed = in.resultUsed;
            e.zne = (in.imm2 & kAccessMarked) != 0;
            // zne awaits: a canceling decrement whose thread's last write is the increment it
            // cancels (same location, opposite amount) waits for an observer of the increment;
            // aux is the increment's Event::index (-1: it runs as a plain fetch-and-add).
            if (e.zne && zneAwaits_ && th.lastWriteLoc == loc && th.lastWriteAmount != 0 &&
                (e.rmwOp == RmwOp::Add || e.rmwOp == RmwOp::Sub) &&
                th.lastWriteAmount == -(e.rmwOp == RmwOp::Add ? e.operand : -e.operand))
                e.aux = th.lastWriteIndex;
        }
        break;
    case COp::CmpXchg:
        setPend(th, t, EventKind::CasFailure, loc, in.pos);
        e.operand = val(th, in.c);
        th.pendNew = val(th, in.d);
        break;
    default: return false;
    }
    th.pendW = in.w;
    e.pointer = (in.imm2 & kAccessPointer) != 0;
    if (in.plain) e.mode = AccessMode::Plain;
    if (ad.obj >= m_.firstDynamicObject()) th.pendObj = ad.obj;
    return true;
}

// Built-ins that are visible operations. Returns true when the thread stops (pending event set,
// or a marker ended it); false when the call completed locally.
bool CExecution::visibleBuiltin(ThreadId t, const CInstr& in) {
    Thread& th = threads_[static_cast<std::size_t>(t)];
    const auto b = static_cast<Builtin>(in.sub);
    // size: of the mutex location (0: 8 bytes, or the declared size of a global's mutex).
    auto mutexLoc = [&](Value p, LocId& loc, unsigned size = 0) {
        const Addr ad = resolve(th, p, 1);
        if (ad.where == Where::Local || ad.where == Where::Const)
            throw UnsupportedError(p_.where(in.pos) + "a mutex or condition variable in private or constant memory");
        if (ad.where == Where::Fault) {
            fault(t, ad.fault, in.pos);
            return false;
        }
        loc = cellOf(ad.obj, ad.off, size, true, in.pos);
        return true;
    };
    // A plain location of a synchronisation object at byte `at` of it (rwlock, barrier).
    auto syncLoc = [&](Value p, std::uint32_t at, LocId& loc) {
        const Addr ad = resolve(th, p, at + 8);
        if (ad.where == Where::Local || ad.where == Where::Const)
            throw UnsupportedError(p_.where(in.pos) + "a read-write lock or barrier in private or constant memory");
        if (ad.where == Where::Fault) {
            fault(t, ad.fault, in.pos);
            return false;
        }
        loc = cellOf(ad.obj, ad.off + at, 8, false, in.pos, true);
        return true;
    };
    auto condLoc = [&](Value p, LocId& loc) {
        const Addr ad = resolve(th, p, 1);
        if (ad.where == Where::Local || ad.where == Where::Const)
            throw UnsupportedError(p_.where(in.pos) + "a condition variable in private or constant memory");
        if (ad.where == Where::Fault) {
            fault(t, ad.fault, in.pos);
            return false;
        }
        loc = cellOf(ad.obj, ad.off, 48, false, in.pos, true);
        return true;
    };
    auto atomicLoc = [&]() { return cellOf(m_.atomicLockObject, 0, 0, true, in.pos); };
    LocId loc = kNoLoc;
    switch (b) {
    case Builtin::MutexLock:
    case Builtin::MutexTryLock:
    case Builtin::MtxTryLock:
    case Builtin::SpinLock:
    case Builtin::SpinTryLock: {
        // A spin lock is a mutex of 4 bytes (pthread_spinlock_t is an int).
        const bool spin = b == Builtin::SpinLock || b == Builtin::SpinTryLock;
        const bool isTry = b == Builtin::MutexTryLock || b == Builtin::MtxTryLock || b == Builtin::SpinTryLock;
        if (!mutexLoc(arg(th, in, 0), loc, spin ? 4 : 0)) return true;
        if (!isTry && !relaxedLocks_ && owner_[static_cast<std::size_t>(loc)] == t) {
            fault(t, FaultKind::RelockHeld, in.pos);
            return true;
        }
        setPend(th, t, isTry ? EventKind::CasFailure : EventKind::Lock, loc, in.pos);
        th.pendTry = isTry;
        return true;
    }
    case Builtin::MutexUnlock:
    case Builtin::SpinUnlock:
        if (!mutexLoc(arg(th, in, 0), loc, b == Builtin::SpinUnlock ? 4 : 0)) return true;
        if (!relaxedLocks_ && owner_[static_cast<std::size_t>(loc)] != t &&
            owner_[static_cast<std::size_t>(loc)] != kDestroyedOwner) {  // (step: destroyed)
            fault(t, FaultKind::UnlockNotHeld, in.pos);
            return true;
        }
        setPend(th, t, EventKind::Unlock, loc, in.pos);
        return true;
    // Destroying a mutex is an exchange that writes 0 to its location (step() faults when a
    // thread holds the mutex, else marks it destroyed in owner_): it conflicts
    // with every lock, trylock and unlock of the mutex, and reads what the last of them wrote, so
    // that explorers by reads-from tell a destroy before an unlock from one after it; a lock,
    // trylock or unlock performed after it faults (step()). An init
    // of a destroyed mutex is a write of 0 too, that makes it usable again; an init of a mutex
    // that is not destroyed stays what it was, no event.
    case Builtin::MutexDestroy:
    case Builtin::SpinDestroy:
    case Builtin::RwDestroy:
        if (!mutexLoc(arg(th, in, 0), loc, b == Builtin::SpinDestroy ? 4 : 0)) return true;
        setPend(th, t, EventKind::Exchange, loc, in.pos);
        th.pend.wval = 0;
        th.pend.aux = kDestroyAux;
        return true;
    case Builtin::MutexInit:
    case Builtin::MtxInit:
    case Builtin::SpinInit:
    case Builtin::RwInit: {
        const Addr ad = resolve(th, arg(th, in, 0), 1);
        if (ad.where == Where::Shared && mutexLoc(arg(th, in, 0), loc, b == Builtin::SpinInit ? 4 : 0) &&
            owner_[static_cast<std::size_t>(loc)] == kDestroyedOwner) {
            setPend(th, t, EventKind::Write, loc, in.pos);
            th.pend.wval = 0;
            th.pend.aux = kReinitAux;
            return true;
        }
        if (in.a >= 0) reg(th, in.a) = 0;
        return false;
    }
    // A destroyed barrier: its word becomes kBarrierDestroyedHi << 32 (a wait's fetch-and-add
    // reads it and faults; an init writes a fresh word).
    case Builtin::BarrierDestroy:
        if (!syncLoc(arg(th, in, 0), 0, loc)) return true;
        setPend(th, t, EventKind::Write, loc, in.pos);
        th.pend.wval = static_cast<Value>(kBarrierDestroyedHi << 32);
        th.pend.aux = kDestroyAux;
        return true;
    case Builtin::CondWait: {
        // wait = read the signal counter c; unlock m; await c != the value read; lock m.
        LocId m = kNoLoc;
        if (!condLoc(arg(th, in, 0), loc) || !mutexLoc(arg(th, in, 1), m)) return true;
        switch (th.phase) {
        case 0:
            if (!relaxedLocks_ && owner_[static_cast<std::size_t>(m)] != t &&
                owner_[static_cast<std::size_t>(m)] != kDestroyedOwner) {
                fault(t, FaultKind::UnlockNotHeld, in.pos);
                return true;
            }
            setPend(th, t, EventKind::Read, loc, in.pos);
            return true;
        case 1: setPend(th, t, EventKind::Unlock, m, in.pos); return true;
        case 2:
            setPend(th, t, EventKind::Await, loc, in.pos);
            th.pend.cond = AwaitCond::NE;
            th.pend.operand = th.aux;
            th.pend.aux = kCondWaitAux;
            return true;
        default: setPend(th, t, EventKind::Lock, m, in.pos); return true;
        }
    }
    case Builtin::CondSignal:
        if (!condLoc(arg(th, in, 0), loc)) return true;
        setPend(th, t, EventKind::FetchAdd, loc, in.pos);
        th.pend.rmwOp = RmwOp::Add;
        th.pend.operand = 1;
        th.pend.resultUsed = false;
        return true;
    case Builtin::ThreadCreate:
    case Builtin::ThrdCreate: {
        // pthread_create(thread, attr, fn, arg); thrd_create(thread, fn, arg)
        const Value fp = arg(th, in, b == Builtin::ThrdCreate ? 1 : 2);
        const auto fobj = static_cast<std::int64_t>(static_cast<std::uint64_t>(fp) >> m_.objShift);
        if ((static_cast<std::uint64_t>(fp) & m_.localTag) || fobj < 1 ||
            fobj > static_cast<std::int64_t>(m_.functions.size()) ||
            offsetIn(static_cast<std::uint64_t>(fp), fobj) != 0 ||
            !m_.functions[static_cast<std::size_t>(fobj - 1)].defined)
            throw UnsupportedError(p_.where(in.pos) + std::string(kBuiltinNames[in.sub]) +
                                   " of something that is not a function of the program");
        const Addr ad = resolve(th, arg(th, in, 0), m_.ptrBytes);
        if (ad.where == Where::Fault || ad.where == Where::Const) {
            fault(t, ad.where == Where::Const ? FaultKind::InvalidPointer : ad.fault, in.pos);
            return true;
        }
        const ThreadId child = p_.threadId(t, th.nSpawns, static_cast<std::int32_t>(fobj - 1));
        if (child < 0) {
            p_.warnOnce("pthread_create beyond max_threads = " + std::to_string(T_) +
                        " (" + p_.where(in.pos) + "the execution is blocked there; raise --max-threads)");
            mark(t, EventKind::AssumeBlock, ThreadStatus::Blocked,
                 static_cast<int>(BlockCause::ThreadLimit), in.pos);
            return true;
        }
        if (th.phase == 0 && ad.where == Where::Shared) {
            // The handle goes to shared memory: a write event of its own, before the spawn (as
            // glibc stores *thread before the child runs), so that readers of the handle see it.
            setPend(th, t, EventKind::Write, cellOf(ad.obj, ad.off, m_.ptrBytes, false, in.pos), in.pos);
            th.pend.wval = child;
            th.pend.aux = kThreadHandleAux;  // shown with the thread's name
            if (ad.obj >= m_.firstDynamicObject()) th.pendObj = ad.obj;
            return true;
        }
        setPend(th, t, EventKind::Spawn, kNoLoc, in.pos);
        th.pend.aux = child;
        return true;
    }
    case Builtin::ThreadJoin:
    case Builtin::ThrdJoin: {
        const Value tid = arg(th, in, 0);
        if (th.phase == 0) {
            if (tid < 0 || tid >= T_ || tid == t ||
                threads_[static_cast<std::size_t>(tid)].status == ThreadStatus::NotStarted) {
                fault(t, FaultKind::InvalidThread, in.pos);
                return true;
            }
            setPend(th, t, EventKind::Join, kNoLoc, in.pos);
            th.pend.aux = static_cast<std::int32_t>(tid);
            return true;
        }
        // phase 1: *retval in shared memory (a void * for pthread_join, an int for thrd_join)
        const unsigned bytes = b == Builtin::ThrdJoin ? 4 : m_.ptrBytes;
        const Addr ad = resolve(th, arg(th, in, 1), bytes);
        setPend(th, t, EventKind::Write, cellOf(ad.obj, ad.off, bytes, false, in.pos), in.pos);
        th.pend.pointer = b != Builtin::ThrdJoin;  // a void * (display)
        th.pend.wval = norm(threads_[static_cast<std::size_t>(tid)].exitVal, 8 * bytes);
        return true;
    }
    // A read-write lock is a mutex M (its byte 0) and a reader count R (byte 8): a writer holds M
    // from wrlock to unlock after waiting for R == 0; a reader takes M only to increment R (so it
    // waits while a writer holds the lock) and decrements R to unlock. Two readers' critical
    // sections overlap; their increments commute under IFAA. th.phase: the step of the operation.
    case Builtin::RwRdLock:
    case Builtin::RwWrLock:
    case Builtin::RwTryRdLock:
    case Builtin::RwTryWrLock: {
        LocId r = kNoLoc;
        if (!mutexLoc(arg(th, in, 0), loc) || !syncLoc(arg(th, in, 0), 8, r)) return true;
        const bool isTry = b == Builtin::RwTryRdLock || b == Builtin::RwTryWrLock;
        const bool reader = b == Builtin::RwRdLock || b == Builtin::RwTryRdLock;
        switch (th.phase) {
        case 0:
            if (!isTry && std::find(th.wrHeld.begin(), th.wrHeld.end(), loc) != th.wrHeld.end()) {
                fault(t, FaultKind::RelockHeld, in.pos);  // glibc: EDEADLK; a deadlock in effect
                return true;
            }
            setPend(th, t, isTry ? EventKind::CasFailure : EventKind::Lock, loc, in.pos);
            th.pendTry = isTry;
            return true;
        case 1:
            if (reader) {
                setPend(th, t, EventKind::FetchAdd, r, in.pos);
                th.pend.rmwOp = RmwOp::Add;
                th.pend.operand = 1;
                th.pend.resultUsed = false;
            } else if (isTry) {
                setPend(th, t, EventKind::Read, r, in.pos);  // any reader: give M back, EBUSY
            } else {
                setPend(th, t, EventKind::Await, r, in.pos);
                th.pend.cond = AwaitCond::EQ;
                th.pend.operand = 0;
            }
            return true;
        default: setPend(th, t, EventKind::Unlock, loc, in.pos); return true;
        }
    }
    case Builtin::RwUnlock: {
        LocId r = kNoLoc;
        if (!mutexLoc(arg(th, in, 0), loc) || !syncLoc(arg(th, in, 0), 8, r)) return true;
        if (std::find(th.wrHeld.begin(), th.wrHeld.end(), loc) != th.wrHeld.end()) {
            setPend(th, t, EventKind::Unlock, loc, in.pos);
            return true;
        }
        // a reader's unlock; the old count tells whether there was a reader (else: a fault)
        setPend(th, t, EventKind::FetchAdd, r, in.pos);
        th.pend.rmwOp = RmwOp::Sub;
        th.pend.operand = 1;
        th.pend.resultUsed = true;
        return true;
    }
    // A barrier is one word: (count << 32) + arrivals. pthread_barrier_init writes it; a waiter
    // adds 1 and, unless it completes the round (it then returns PTHREAD_BARRIER_SERIAL_THREAD),
    // awaits the word reaching the end of its round, (count << 32) + (round + 1) * count (kept in
    // th.aux). The word only grows, so the barrier serves round after round.
    case Builtin::BarrierInit: {
        const auto n = static_cast<std::uint64_t>(arg(th, in, 2)) & 0xffffffffULL;
        if (!syncLoc(arg(th, in, 0), 0, loc)) return true;
        setPend(th, t, EventKind::Write, loc, in.pos);
        th.pend.wval = static_cast<Value>(n << 32);
        return true;
    }
    case Builtin::BarrierWait:
        if (!syncLoc(arg(th, in, 0), 0, loc)) return true;
        if (th.phase == 0) {
            setPend(th, t, EventKind::FetchAdd, loc, in.pos);
            th.pend.rmwOp = RmwOp::Add;
            th.pend.operand = 1;
            th.pend.resultUsed = true;
        } else {
            setPend(th, t, EventKind::Await, loc, in.pos);
            th.pend.cond = AwaitCond::SGE;
            th.pend.operand = th.aux;
        }
        return true;
    case Builtin::Memset:
    case Builtin::Memcpy: {
        // One location at a time (copyChunk gives the chunks): a read event of the source chunk
        // when the source is shared memory, then a write event of the destination chunk when the
        // destination is (a private destination is written locally). th.phase = 2 * bytes done
        // + 1 once the chunk's source has been read (its value in th.aux).
        const auto n = static_cast<std::uint64_t>(arg(th, in, 2));
        auto k = static_cast<std::uint64_t>(th.phase) >> 1;
        const Addr d = resolve(th, arg(th, in, 0), n);
        const Addr s = b == Builtin::Memcpy ? resolve(th, arg(th, in, 1), n) : Addr{Where::Local, 0, 0, {}};
        if (in.imm2 == 1 && (th.phase & 1) == 0 && s.where == Where::Shared) {
            // realloc's copy into a fresh block (zeros): only the source's locations, which are
            // the only bytes that can be other than 0.
            std::uint32_t nx = 0;
            LocId nl = kNoLoc;
            if (!p_.nextCell(s.obj, s.off + static_cast<std::uint32_t>(k), nx, nl) || nx >= s.off + n) {
                th.phase = 0;
                return false;  // copied
            }
            k = nx - s.off;
            th.phase = static_cast<std::int32_t>(2 * k);
        }
        const unsigned chunk = copyChunk(in, d, s, k, n);
        if (b == Builtin::Memcpy && s.where == Where::Shared && (th.phase & 1) == 0) {
            setPend(th, t, EventKind::Read, cellOf(s.obj, s.off + static_cast<std::uint32_t>(k), chunk, false, in.pos),
                    in.pos);
            th.pend.mode = AccessMode::Plain;
            th.pendW = static_cast<std::uint8_t>(chunk * 8);
            if (s.obj >= m_.firstDynamicObject()) th.pendObj = s.obj;
            return true;
        }
        Value v = 0;
        if (b == Builtin::Memset) {
            const auto byte = static_cast<std::uint64_t>(arg(th, in, 1) & 0xff);
            for (unsigned i = 0; i < chunk; ++i) v |= static_cast<Value>(byte << (8 * i));
        } else if (s.where == Where::Shared) {
            v = th.aux;
        } else {
            v = s.where == Where::Local ? loadLocal(th, s.off + static_cast<std::uint32_t>(k), chunk, 64)
                                        : loadConst(s.obj, s.off + static_cast<std::uint32_t>(k), chunk, 64);
        }
        setPend(th, t, EventKind::Write, cellOf(d.obj, d.off + static_cast<std::uint32_t>(k), chunk, false, in.pos),
                in.pos);
        th.pend.mode = AccessMode::Plain;
        th.pend.wval = v == kUninit ? v : norm(v, chunk * 8);  // (uninitialised bytes stay so)
        if (d.obj >= m_.firstDynamicObject()) th.pendObj = d.obj;
        return true;
    }
    case Builtin::AtomicBegin:
        if (th.atomicDepth > 0) {
            ++th.atomicDepth;
            return false;
        }
        setPend(th, t, EventKind::Lock, atomicLoc(), in.pos);
        return true;
    case Builtin::AtomicEnd:
        if (th.atomicDepth == 0) {
            fault(t, FaultKind::UnlockNotHeld, in.pos);
            return true;
        }
        if (th.atomicDepth > 1) {
            --th.atomicDepth;
            return false;
        }
        setPend(th, t, EventKind::Unlock, atomicLoc(), in.pos);
        return true;
    case Builtin::LoadAwait:
    case Builtin::XchgAwait: {
        const bool x = b == Builtin::XchgAwait;
        const auto code = arg(th, in, x ? 2 : 1);
        const auto cond = awaitCondFromCode(static_cast<int>(code));
        if (!cond || code != static_cast<int>(code))
            throw UnsupportedError(p_.where(in.pos) + "await condition code " + std::to_string(code));
        const Value operand = norm(arg(th, in, x ? 3 : 2), in.w);
        const unsigned size = in.w <= 8 ? 1 : in.w / 8;
        const Addr ad = resolve(th, arg(th, in, 0), size);
        if (ad.where == Where::Fault) {
            fault(t, ad.fault, in.pos);
            return true;
        }
        if (ad.where != Where::Shared) {
            // Private memory cannot change: the await either passes now or never.
            const Value v = ad.where == Where::Local ? loadLocal(th, ad.off, size, in.w)
                                                     : loadConst(ad.obj, ad.off, size, in.w);
            if (!evalAwaitCond(*cond, v, operand)) {
                mark(t, EventKind::AssumeBlock, ThreadStatus::Blocked,
                     static_cast<int>(BlockCause::Assume), in.pos);
                return true;
            }
            if (x) {
                if (ad.where == Where::Const) {
                    fault(t, FaultKind::InvalidPointer, in.pos);
                    return true;
                }
                storeLocal(th, ad.off, size, arg(th, in, 1));
            }
            if (in.a >= 0) reg(th, in.a) = v;
            return false;
        }
        setPend(th, t, x ? EventKind::XchgAwait : EventKind::Await,
                cellOf(ad.obj, ad.off, size, false, in.pos), in.pos);
        th.pend.cond = *cond;
        th.pend.operand = operand;
        if (in.plain) th.pend.mode = AccessMode::Plain;  // a reduced non-atomic load
        if (x) th.pend.wval = norm(arg(th, in, 1), in.w);
        th.pendW = in.w;
        return true;
    }
    default: break;
    }
    return false;
}

void CExecution::runLocal(ThreadId t) {
    try {
        runLocalSteps(t);
    } catch (const LocationLimitReached&) {
        // Issue 15: a limit, not bad input. This execution is blocked; the run goes on (and is
        // incomplete: the warning says which option to raise).
        Thread& th = threads_[static_cast<std::size_t>(t)];
        const SourcePos pos = th.frames.empty() ? SourcePos{} : cur(th).pos;
        p_.warnLocationLimit(pos);
        mark(t, EventKind::AssumeBlock, ThreadStatus::Blocked,
             static_cast<int>(BlockCause::LocationLimit), pos);
    }
}

void CExecution::runLocalSteps(ThreadId t) {
    Thread& th = threads_[static_cast<std::size_t>(t)];
    std::int64_t budget = kLocalInstrLimit;
    const Value* consts = m_.constants.data();
    // The running frame in locals (the interpreter's hot state): reloaded whenever the frame
    // stack or the register file changes (call, return); fr->pc is kept equal to pc.
    Frame* fr = nullptr;
    const CFunction* fp = nullptr;
    const CInstr* code = nullptr;
    Value* R = nullptr;
    std::int32_t pc = 0;
    auto enter = [&] {
        fr = &th.frames.back();
        fp = &m_.functions[static_cast<std::size_t>(fr->fn)];
        code = fp->code.data();
        R = th.regs.data() + fr->regBase;
        pc = fr->pc;
    };
    enter();
    for (;;) {
        if (--budget < 0)
            throw InputError(p_.where(cur(th).pos) + "thread " + p_.info_->threadName(t) + " ran " +
                             std::to_string(kLocalInstrLimit) +
                             " instructions without a visible operation (an endless local loop? "
                             "bound loops with --unroll N)");
        const CFunction& f = *fp;
        const CInstr& in = code[pc];
        auto V = [&](std::int32_t x) { return x >= 0 ? R[x] : consts[~x]; };
        auto ptrAdd = [&](const CInstr& q) {
            std::uint64_t p = static_cast<std::uint64_t>(V(q.b)) + static_cast<std::uint64_t>(q.imm);
            if (q.c != -1)
                p += static_cast<std::uint64_t>(norm(V(q.c), static_cast<unsigned>(q.d))) *
                     static_cast<std::uint64_t>(q.imm2);
            return static_cast<Value>(p);
        };
        switch (in.op) {
        case COp::Mov: R[in.a] = V(in.b); fr->pc = pc = in.next; continue;
        case COp::Bin: {
            const Value x = V(in.b), y = V(in.c);
            const unsigned w = in.w;
            const auto ux = static_cast<std::uint64_t>(x), uy = static_cast<std::uint64_t>(y);
            std::uint64_t r = 0;
            switch (static_cast<CBin>(in.sub)) {
            case CBin::Add: r = ux + uy; break;
            case CBin::Sub: r = ux - uy; break;
            case CBin::Mul: r = ux * uy; break;
            case CBin::UDiv:
            case CBin::URem: {
                const std::uint64_t mx = mask(x, w), my = mask(y, w);
                if (my == 0) {
                    fault(t, FaultKind::DivisionByZero, in.pos);
                    return;
                }
                if (w <= 32) {  // the same quotient, by the cheaper 32-bit division
                    const auto nx = static_cast<std::uint32_t>(mx), ny = static_cast<std::uint32_t>(my);
                    r = static_cast<CBin>(in.sub) == CBin::UDiv ? nx / ny : nx % ny;
                } else {
                    r = static_cast<CBin>(in.sub) == CBin::UDiv ? mx / my : mx % my;
                }
                break;
            }
            case CBin::SDiv:
            case CBin::SRem:
                if (y == 0) {
                    fault(t, FaultKind::DivisionByZero, in.pos);
                    return;
                }
                if (y == -1)  // (x / -1 overflows for the least value: wraps as LLVM's sdiv)
                    r = static_cast<CBin>(in.sub) == CBin::SDiv ? 0 - ux : 0;
                else if (w <= 32)  // operands are sign-extended from w bits: they fit 32 bits
                    r = static_cast<std::uint64_t>(static_cast<std::int64_t>(
                        static_cast<CBin>(in.sub) == CBin::SDiv
                            ? static_cast<std::int32_t>(x) / static_cast<std::int32_t>(y)
                            : static_cast<std::int32_t>(x) % static_cast<std::int32_t>(y)));
                else
                    r = static_cast<std::uint64_t>(static_cast<CBin>(in.sub) == CBin::SDiv ? x / y
                                                                                          : x % y);
                break;
            case CBin::And: r = ux & uy; break;
            case CBin::Or: r = ux | uy; break;
            case CBin::Xor: r = ux ^ uy; break;
            case CBin::Shl: {
                const std::uint64_t a = mask(y, w);
                r = a >= w ? 0 : ux << a;
                break;
            }
            case CBin::LShr: {
                const std::uint64_t a = mask(y, w);
                r = a >= w ? 0 : mask(x, w) >> a;
                break;
            }
            case CBin::AShr: {
                const std::uint64_t a = mask(y, w);
                const Value sx = w == 1 ? -(x & 1) : x;
                r = static_cast<std::uint64_t>(a >= w ? (sx < 0 ? -1 : 0) : sx >> a);
                break;
            }
            }
            R[in.a] = norm(static_cast<Value>(r), w);
            fr->pc = pc = in.next;
            continue;
        }
        case COp::Cmp:
        case COp::CmpBr: {
            Value x = V(in.b), y = V(in.c);
            const unsigned w = in.w;
            bool r = false;
            const std::uint64_t mx = mask(x, w), my = mask(y, w);
            if (w == 1) {
                x = -(x & 1);
                y = -(y & 1);
            }
            switch (static_cast<CPred>(in.sub)) {
            case CPred::Eq: r = mx == my; break;
            case CPred::Ne: r = mx != my; break;
            case CPred::Ugt: r = mx > my; break;
            case CPred::Uge: r = mx >= my; break;
            case CPred::Ult: r = mx < my; break;
            case CPred::Ule: r = mx <= my; break;
            case CPred::Sgt: r = x > y; break;
            case CPred::Sge: r = x >= y; break;
            case CPred::Slt: r = x < y; break;
            case CPred::Sle: r = x <= y; break;
            }
            R[in.a] = r;
            if (in.op == COp::CmpBr) fr->pc = pc = r ? in.d : static_cast<std::int32_t>(in.imm);
            else fr->pc = pc = in.next;
            continue;
        }
        case COp::Select: R[in.a] = (V(in.b) & 1) ? V(in.c) : V(in.d); fr->pc = pc = in.next; continue;
        case COp::Cast:
        case COp::CastPtrAdd: {
            const Value x = V(in.b);
            const auto from = static_cast<unsigned>(in.imm);
            switch (static_cast<CCast>(in.sub)) {
            case CCast::Trunc: R[in.a] = norm(x, in.w); break;
            case CCast::ZExt: R[in.a] = norm(static_cast<Value>(mask(x, from)), in.w); break;
            case CCast::SExt: R[in.a] = norm(from == 1 ? -(x & 1) : x, in.w); break;
            }
            if (in.op == COp::Cast) {
                fr->pc = pc = in.next;
                continue;
            }
            const CInstr& q = code[pc + 1];  // the ptradd
            R[q.a] = ptrAdd(q);
            fr->pc = pc = q.next;
            continue;
        }
        case COp::PtrAdd:
            R[in.a] = ptrAdd(in);
            fr->pc = pc = in.next;
            continue;
        case COp::Jump: fr->pc = pc = in.a; continue;
        case COp::Branch: fr->pc = pc = (V(in.b) & 1) ? in.a : in.c; continue;
        case COp::Switch: {
            const Value v = V(in.b);
            std::int32_t target = in.a;
            for (std::int32_t k = 0; k < in.c; ++k) {
                const auto& cs = f.cases[static_cast<std::size_t>(in.imm + k)];
                if (cs.first == v) {
                    target = cs.second;
                    break;
                }
            }
            fr->pc = pc = target;
            continue;
        }
        case COp::ParCopy: {
            if (in.c == 1) {  // one copy: nothing to keep apart
                const auto& cp = f.copies[static_cast<std::size_t>(in.imm)];
                R[cp.first] = V(cp.second);
                fr->pc = pc = in.next;
                continue;
            }
            tmp_.clear();
            for (std::int32_t k = 0; k < in.c; ++k)
                tmp_.push_back(V(f.copies[static_cast<std::size_t>(in.imm + k)].second));
            for (std::int32_t k = 0; k < in.c; ++k)
                R[f.copies[static_cast<std::size_t>(in.imm + k)].first] = tmp_[static_cast<std::size_t>(k)];
            fr->pc = pc = in.next;
            continue;
        }
        case COp::LoopEnter: {
            // Slots: jumps back so far, then at the last visit of the header the thread's next
            // Event::index (the iteration's first event), its effect count and the steps of the
            // other threads (totalEvents_ counts every thread's, evCount this one's).
            Value* L = R + in.a;
            L[0] = 0;
            L[1] = th.evCount;
            L[2] = th.effects + th.hidden;
            L[3] = totalEvents_ - th.evCount;
            fr->pc = pc = in.next;
            continue;
        }
        case COp::LoopBack: {
            Value* L = R + in.a;
            if (in.imm >= 0) {  // --unroll: N visits of the header, N - 1 jumps back
                if (L[0] >= in.imm) {
                    warnLoop(in.imm2, BlockCause::LoopBound,
                             "the loop at " + loopName(in.imm2) + " reached the bound (--unroll " +
                                 std::to_string(in.imm + 1) + ": " + std::to_string(in.imm + 1) +
                                 " visits of its header) and blocked executions there "
                                 "(loop-bound): raise --unroll to explore further" +
                                 (p_.opts().loops == "none"
                                      ? ", or reduce spin loops (drop --loops none)"
                                      : ""));
                    mark(t, EventKind::AssumeBlock, ThreadStatus::Blocked,
                         static_cast<int>(BlockCause::LoopBound), in.pos, L[1]);
                    return;
                }
                L[0] += 1;
                L[1] = th.evCount;
                th.lastLoop = in.imm2;
            } else if ((++L[0] & (kLivelockPeriod - 1)) == 0) {
                // Without a bound, every kLivelockPeriod-th jump back: did the iterations since
                // the last check change nothing while no other thread moved? Then maybe a
                // livelock (see livelock()). Under --unroll the bound ends the loop anyway, and
                // whether others can run depends on the interleaving, so the check would tell
                // equivalent executions apart by their block cause. It is skipped while
                // another thread was found runnable and nothing changed since; sampling keeps
                // tight local loops cheap and loses nothing (the check compares the state with
                // the one at the previous check, nothing changed in between).
                const std::int64_t others = totalEvents_ - th.evCount;
                const std::int64_t changes = th.effects + th.hidden;
                if (changes == L[2] && others == L[3] &&
                    (th.cand.runnableAt != totalEvents_ || th.cand.runnableChanges != changes) &&
                    livelock(t, in, L, others))
                    return;
                L[1] = th.evCount;
                L[2] = changes;
                L[3] = others;
                th.lastLoop = in.imm2;
            }
            fr->pc = pc = in.next;
            continue;
        }
        case COp::Call:
        case COp::CallPtr: {
            std::int32_t fn = static_cast<std::int32_t>(in.imm);
            if (in.op == COp::CallPtr) {
                const auto u = static_cast<std::uint64_t>(V(in.d));
                const auto obj = static_cast<std::int64_t>(u >> m_.objShift);
                if ((u & m_.localTag) || obj < 1 || obj > static_cast<std::int64_t>(m_.functions.size()) ||
                    offsetIn(u, obj) != 0) {
                    fault(t, u == 0 ? FaultKind::NullDereference : FaultKind::InvalidPointer, in.pos);
                    return;
                }
                fn = static_cast<std::int32_t>(obj - 1);
                if (!m_.functions[static_cast<std::size_t>(fn)].defined)
                    throw UnsupportedError(p_.where(in.pos) + "call through a pointer to the library function '" +
                                           m_.functions[static_cast<std::size_t>(fn)].name + "'");
            }
            const CFunction& callee = m_.functions[static_cast<std::size_t>(fn)];
            if (callee.atomic) {
                if (th.atomicDepth == 0 && th.phase == 0) {
                    setPend(th, t, EventKind::Lock, cellOf(m_.atomicLockObject, 0, 0, true, in.pos), in.pos);
                    return;
                }
                th.phase = 0;
                ++th.atomicDepth;
            }
            if (th.frames.size() > 100000)
                throw InputError(p_.where(in.pos) + "recursion deeper than 100000 calls");
            tmp_.clear();
            for (std::int32_t k = 0; k < in.c; ++k)
                tmp_.push_back(V(f.args[static_cast<std::size_t>(in.b + k)]));
            Frame nf;
            nf.fn = fn;
            nf.regBase = static_cast<std::int32_t>(th.regs.size());
            nf.localBase = static_cast<std::int32_t>(th.local.size());
            nf.retDst = in.a;
            th.regs.resize(th.regs.size() + static_cast<std::size_t>(callee.numSlots), 0);
            for (std::int32_t k = 0; k < std::min(in.c, callee.numParams); ++k)
                th.regs[static_cast<std::size_t>(nf.regBase + k)] = tmp_[static_cast<std::size_t>(k)];
            th.frames.push_back(nf);
            enter();
            continue;
        }
        case COp::Ret: {
            if (frameEnd(t, in)) return;
            if (f.atomic) {
                if (th.atomicDepth == 1 && th.phase == 0) {
                    setPend(th, t, EventKind::Unlock, cellOf(m_.atomicLockObject, 0, 0, true, in.pos), in.pos);
                    return;
                }
                th.phase = 0;
                if (th.atomicDepth > 0) --th.atomicDepth;
            }
            const bool has = in.b != -1;
            const Value rv = has ? V(in.b) : 0;
            const std::uint32_t endCtx = th.frames.size() == 1 ? ctxOf(th) : 0;  // the thread's last
            doReturn(t, rv, has);
            if (th.frames.empty()) {
                mark(t, EventKind::ThreadEnd, ThreadStatus::Finished, -1, in.pos, -1, endCtx);
                return;
            }
            enter();
            continue;
        }
        case COp::AllocaLocal:
        case COp::AllocaShared: {
            std::uint64_t size = static_cast<std::uint64_t>(in.imm);
            if (in.c != -1) size *= static_cast<std::uint64_t>(V(in.c));
            if (size > (1ULL << 28) || (in.op == COp::AllocaShared && size > maxObjectBytes()))
                throw InputError(p_.where(in.pos) + "stack variable of " + std::to_string(size) +
                                 " bytes is too large");
            if (in.op == COp::AllocaShared) {
                const Value p = allocShared(t, size, in.imm2, in.pos);  // (size checked above)
                th.stackObjs.emplace_back(static_cast<std::int64_t>(th.frames.size()),
                                          static_cast<std::int64_t>(static_cast<std::uint64_t>(p) >> m_.objShift));
                th.regs[static_cast<std::size_t>(fr->regBase + in.a)] = p;
            } else {
                const std::size_t base = (th.local.size() + 15) & ~static_cast<std::size_t>(15);
                th.local.resize(base + size, 0);
                th.regs[static_cast<std::size_t>(fr->regBase + in.a)] =
                    static_cast<Value>(m_.localTag | base);
            }
            fr->pc = pc = in.next;
            continue;
        }
        case COp::Load:
        case COp::Store:
        case COp::Rmw:
        case COp::CmpXchg: {
            const auto size = static_cast<std::uint64_t>(in.imm);
            const auto u = static_cast<std::uint64_t>(V(in.b));
            if ((u & m_.localTag) && (in.op == COp::Load || in.op == COp::Store)) {
                // The common case first: a plain access to the private stack (as resolve()).
                const std::uint64_t off = u & (m_.localTag - 1);
                if (off + size <= th.local.size() && off < (1ULL << 40)) {
                    if (in.op == COp::Load) R[in.a] = loadLocal(th, static_cast<std::uint32_t>(off), size, in.w);
                    else storeLocal(th, static_cast<std::uint32_t>(off), size, V(in.c));
                    fr->pc = pc = in.next;
                    continue;
                }
            }
            const Addr ad = resolve(th, V(in.b), size, true);
            if (ad.where == Where::Shared) {
                stopAtAccess(t, in, ad);
                return;
            }
            if (ad.where == Where::Fault || (ad.where == Where::Const && in.op != COp::Load)) {
                fault(t, ad.where == Where::Fault ? ad.fault : FaultKind::InvalidPointer, in.pos);
                return;
            }
            if (in.op == COp::Load) {
                R[in.a] = ad.where == Where::Local ? loadLocal(th, ad.off, size, in.w)
                                                   : loadConst(ad.obj, ad.off, size, in.w);
            } else if (in.op == COp::Store) {
                storeLocal(th, ad.off, size, V(in.c));
            } else if (in.op == COp::Rmw) {
                const Value old = loadLocal(th, ad.off, size, in.w);
                const Value y = V(in.c);
                const Value nv = static_cast<CRmw>(in.sub) == CRmw::Xchg
                                     ? y
                                     : applyRmw(kRmwOfCRmw[in.sub], old, y);
                storeLocal(th, ad.off, size, norm(nv, in.w));
                R[in.a] = old;
            } else {
                const Value old = loadLocal(th, ad.off, size, in.w);
                const bool ok = old == V(in.c);
                if (ok) storeLocal(th, ad.off, size, V(in.d));
                R[in.a] = old;
                R[in.a + 1] = ok;
            }
            fr->pc = pc = in.next;
            continue;
        }
        case COp::Builtin: {
            const auto b = static_cast<Builtin>(in.sub);
            auto A = [&](int k) { return V(f.args[static_cast<std::size_t>(in.b + k)]); };
            auto setResult = [&](Value v) {
                if (in.a >= 0) th.regs[static_cast<std::size_t>(th.frames.back().regBase + in.a)] = v;
            };
            switch (b) {
            case Builtin::Malloc:
            case Builtin::Calloc:
            case Builtin::AlignedAlloc: {
                const unsigned sw = 8 * m_.ptrBytes;  // size_t arguments
                std::uint64_t size = mask(A(b == Builtin::AlignedAlloc ? 1 : 0), sw), align = 16;
                if (b == Builtin::Calloc) {
                    const std::uint64_t k = mask(A(1), sw);
                    size = k != 0 && size > ~std::uint64_t{0} / k ? ~std::uint64_t{0} : size * k;
                }
                if (b == Builtin::AlignedAlloc) align = std::max<std::uint64_t>(mask(A(0), sw), 1);
                setResult(allocHeap(t, size, b == Builtin::Calloc ? kCallocKind : kMallocKind, align,
                                    in.pos));
                break;
            }
            case Builtin::BlockSize: {  // realloc: the size of p's block (0 for NULL)
                const auto u = static_cast<std::uint64_t>(A(0));
                if (u == 0) {
                    setResult(0);
                    break;
                }
                const auto obj = static_cast<std::int64_t>(u >> m_.objShift);
                const auto i = static_cast<std::size_t>(obj);
                if ((u & m_.localTag) || obj < m_.firstDynamicObject() || i >= objs_.size() ||
                    objs_[i].status == 0 || !objs_[i].heap || offsetIn(u, obj) != 0) {
                    fault(t, FaultKind::InvalidFree, in.pos);
                    return;
                }
                // (a freed block: the copy and the free that follow find it, by the values
                // their events read)
                setResult(objs_[i].size);
                break;
            }
            case Builtin::TlsAddress: {  // a thread-local whose address escapes: a copy per thread
                const auto gi = static_cast<std::size_t>(in.imm);
                const CGlobal& g = m_.globals[gi];
                const auto ref = p_.dynamicObject(t, -1, g.size, tlsKind(static_cast<std::int64_t>(gi)), in.pos);
                ensureObj(ref.id);
                auto& o = objs_[static_cast<std::size_t>(ref.id)];
                if (o.status == 0) o = {g.size, 1, 0, 1, static_cast<std::uint32_t>(ref.base)};
                setResult(static_cast<Value>(m_.pointer(ref.id, ref.base)));
                break;
            }
            case Builtin::ThreadEqual: setResult(A(0) == A(1)); break;
            case Builtin::MtxInit:
                if (A(1) & 1)  // mtx_recursive, from a value the lowering could not see
                    throw UnsupportedError(p_.where(in.pos) + "a recursive mutex (mtx_recursive) is not supported");
                if (visibleBuiltin(t, in)) return;  // the init of a destroyed mutex
                setResult(0);
                break;
            case Builtin::BarrierInit:
                if ((A(2) & 0xffffffff) == 0) {
                    setResult(22);  // EINVAL: a barrier of no thread
                    break;
                }
                if (visibleBuiltin(t, in)) return;
                break;
            case Builtin::Strlen:
            case Builtin::Strcmp:
            case Builtin::Memcmp: {
                // Read-only string functions over private or constant memory (byte by byte; a
                // string in shared memory would need an event per location).
                auto byteAt = [&](Value p, std::uint64_t k, std::uint8_t& out) {
                    const Addr ad = resolve(th, static_cast<Value>(static_cast<std::uint64_t>(p) + k), 1);
                    if (ad.where == Where::Shared)
                        throw UnsupportedError(p_.where(in.pos) + std::string(kBuiltinNames[in.sub]) +
                                               " of memory other threads can reach is not supported");
                    if (ad.where == Where::Fault) {
                        fault(t, ad.fault, in.pos);
                        return false;
                    }
                    out = static_cast<std::uint8_t>(ad.where == Where::Local ? th.local[ad.off]
                                                                             : loadConst(ad.obj, ad.off, 1, 64));
                    return true;
                };
                const std::uint64_t n = b == Builtin::Memcmp ? mask(A(2), 8 * m_.ptrBytes) : ~std::uint64_t{0};
                Value r = 0;
                for (std::uint64_t k = 0; k < n; ++k) {
                    std::uint8_t x = 0, y = 0;
                    if (!byteAt(A(0), k, x)) return;
                    if (b == Builtin::Strlen) {
                        if (x == 0) break;
                        r = static_cast<Value>(k + 1);
                        continue;
                    }
                    if (!byteAt(A(1), k, y)) return;
                    if (x != y) {
                        r = x < y ? -1 : 1;
                        break;
                    }
                    if (b == Builtin::Strcmp && x == 0) break;
                }
                setResult(norm(r, in.w));
                break;
            }
            case Builtin::Popcount: setResult(std::popcount(mask(A(0), in.w))); break;
            case Builtin::Clz: {
                const std::uint64_t x = mask(A(0), in.w);
                setResult(x == 0 ? in.w : std::countl_zero(x) - (64 - in.w));
                break;
            }
            case Builtin::Ctz: {
                const std::uint64_t x = mask(A(0), in.w);
                setResult(x == 0 ? in.w : std::countr_zero(x));
                break;
            }
            case Builtin::Bswap: {
                const std::uint64_t x = mask(A(0), in.w);
                std::uint64_t y = 0;
                for (unsigned k = 0; k < in.w / 8; ++k) y = (y << 8) | ((x >> (8 * k)) & 0xff);
                setResult(norm(static_cast<Value>(y), in.w));
                break;
            }
            case Builtin::Free: {
                const auto u = static_cast<std::uint64_t>(A(0));
                if (u == 0) break;
                const auto obj = static_cast<std::int64_t>(u >> m_.objShift);
                const auto i = static_cast<std::size_t>(obj);
                if ((u & m_.localTag) || obj < m_.firstDynamicObject() || i >= objs_.size() ||
                    objs_[i].status == 0 || !objs_[i].heap || offsetIn(u, obj) != 0) {
                    fault(t, FaultKind::InvalidFree, in.pos);
                    return;
                }
                // Visible: a write of every location of the block, in offset order (th.phase: the
                // next offset), so that the free conflicts with every access to the block and
                // with another free of it; the block is freed at the last write. A block without
                // locations gets one at offset 0 (taking the size of a later access). Writing a
                // location a free already wrote is a double free; accessing it, a use after free.
                std::uint32_t off = 0;
                LocId l = kNoLoc;
                if (!p_.nextCell(obj, static_cast<std::uint32_t>(th.phase), off, l)) {
                    l = cellOf(obj, 0, 0, false, in.pos);
                    off = 0;
                }
                l = known(l);
                setPend(th, t, deadKind(l), l, in.pos);
                th.pend.wval = th.pend.kind == EventKind::Exchange ? kDead : 0;
                th.pend.aux = kFreeAux;  // shown as a free, not an exchange
                th.pend.mode = AccessMode::Internal;
                th.pendObj = obj;
                th.aux = off;
                return;
            }
            case Builtin::Memset:
            case Builtin::Memcpy: {
                const auto n = static_cast<std::uint64_t>(A(2));
                if (n == 0) {
                    setResult(A(0));
                    break;
                }
                const Addr d = resolve(th, A(0), n);
                const Addr s = b == Builtin::Memcpy ? resolve(th, A(1), n) : Addr{Where::Local, 0, 0, {}};
                if (d.where == Where::Fault || d.where == Where::Const || s.where == Where::Fault) {
                    fault(t, d.where == Where::Fault ? d.fault
                             : d.where == Where::Const ? FaultKind::InvalidPointer
                                                      : s.fault,
                          in.pos);
                    return;
                }
                if (d.where == Where::Shared || s.where == Where::Shared) {  // one event per location
                    if (visibleBuiltin(t, in)) return;
                    break;
                }
                if (b == Builtin::Memset) {
                    tmpBytes_.assign(n, static_cast<std::uint8_t>(A(1) & 0xff));
                    writeLocalBytes(th, d.off, tmpBytes_.data(), n);
                } else if (s.where == Where::Local) {
                    tmpBytes_.assign(th.local.begin() + s.off, th.local.begin() + s.off + static_cast<std::ptrdiff_t>(n));
                    writeLocalBytes(th, d.off, tmpBytes_.data(), n);
                } else {
                    const CGlobal& g = m_.globals[static_cast<std::size_t>(
                        s.obj - 1 - static_cast<std::int64_t>(m_.functions.size()))];
                    writeLocalBytes(th, d.off, g.bytes.data() + s.off, n);
                }
                setResult(A(0));
                break;
            }
            case Builtin::ThreadSelf: setResult(t); break;
            case Builtin::MutexInit:
            case Builtin::SpinInit:
            case Builtin::RwInit:
                if (visibleBuiltin(t, in)) return;  // the init of a destroyed mutex
                break;
            case Builtin::CondInit:
            case Builtin::CondDestroy:
            case Builtin::Nop: setResult(0); break;
            case Builtin::Nondet:
                // --nondet-domain: the value of choice point (t, n-th call), set by the driver
                // (exploreNondet) for this run; LO for points it has not assigned yet.
                setResult(p_.opts().nondetDomain ? norm(p_.choice(t, th.nNondet++, in.pos), in.w) : 0);
                break;
            case Builtin::AssertFail:
            case Builtin::ReachError:  // aux: the assertion's text (CModule::messages)
                mark(t, EventKind::AssertFail, ThreadStatus::Failed, static_cast<std::int32_t>(in.imm) - 1,
                     in.pos);
                return;
            case Builtin::Abort:
            case Builtin::Exit:
            case Builtin::ThreadExit: {
                // Every frame ends here: its escaped variables die with the events a return
                // gives them (frameEnd; step() comes back here after each).
                if (frameEnd(t, in, true)) return;
                th.exitVal = b == Builtin::ThreadExit ? A(0) : 0;
                const Value ev = th.exitVal;
                const std::uint32_t endCtx = ctxOf(th);  // the call of exit ends the thread
                while (!th.frames.empty()) doReturn(t, 0, false);
                th.exitVal = ev;
                mark(t, EventKind::ThreadEnd, ThreadStatus::Finished, -1, in.pos, -1, endCtx);
                return;
            }
            case Builtin::Assume:
                if (A(0) == 0) {
                    mark(t, EventKind::AssumeBlock, ThreadStatus::Blocked,
                         static_cast<int>(BlockCause::Assume), in.pos);
                    return;
                }
                break;
            case Builtin::IterationBegin: setResult(th.effects); break;
            case Builtin::IterationStart: setResult(th.evCount); break;
            case Builtin::PurityCheck:
                // SAVER's dynamic purity check at a potentially effect-free backedge: an
                // iteration without effects changed nothing another iteration could not redo.
                if (A(0) == th.effects) {
                    mark(t, EventKind::AssumeBlock, ThreadStatus::Blocked,
                         static_cast<int>(BlockCause::PureIteration), in.pos, in.c > 1 ? A(1) : -1);
                    return;
                }
                break;
            case Builtin::SpinAssume:
                // An assume a loop reduction inserted (spin-assume, PLP): told apart from the
                // program's own __VERIFIER_assume by its cause.
                if (A(0) == 0) {
                    mark(t, EventKind::AssumeBlock, ThreadStatus::Blocked,
                         static_cast<int>(BlockCause::SpinAssume), in.pos, in.c > 1 ? A(1) : -1);
                    return;
                }
                break;
            case Builtin::SMax: setResult(std::max(A(0), A(1))); break;
            case Builtin::SMin: setResult(std::min(A(0), A(1))); break;
            case Builtin::UMax:
                setResult(mask(A(0), in.w) >= mask(A(1), in.w) ? A(0) : A(1));
                break;
            case Builtin::UMin:
                setResult(mask(A(0), in.w) <= mask(A(1), in.w) ? A(0) : A(1));
                break;
            case Builtin::Abs: setResult(norm(A(0) < 0 ? -A(0) : A(0), in.w)); break;
            default:
                if (visibleBuiltin(t, in)) return;
                break;
            }
            fr->pc = pc = in.next;
            continue;
        }
        case COp::Unreachable: fault(t, FaultKind::Unreachable, in.pos); return;
        }
    }
}

// A thread jumps back to a loop header after an iteration in which it changed nothing (no write,
// no private store that changed a byte, no spawn) while no other thread made a step. If no other
// thread can run now either (finished, blocked, or waiting on something only a write or the end
// of a thread can change, and this thread writes nothing), memory stays as it is; if, besides,
// the thread's state at the header is the one it had at an earlier visit with nothing changed in
// between, the thread repeats the same iterations forever. That is exact: the thread is blocked
// (livelock), it never leaves the loop in the program as written. The state at a visit is kept
// (Thread::cand) only once the others cannot run, so the check costs nothing while they can; it
// needs two visits, the first records the state. Loops under --unroll are not checked: whether
// the other threads can run depends on the interleaving, so two executions of one Mazurkiewicz
// or reads-from class can reach the check in different situations and end with different block
// causes (loop-bound, livelock); the bound ends such a loop anyway. Without a bound the same can
// happen, and the alternative is an endless execution cut at max_execution_events.
bool CExecution::livelock(ThreadId t, const CInstr& in, const Value* L, std::int64_t others) {
    Thread& th = threads_[static_cast<std::size_t>(t)];
    auto& c = th.cand;
    const std::int64_t changes = th.effects + th.hidden;
    if (c.runnableAt == totalEvents_ && c.runnableChanges == changes) return false;
    for (ThreadId u = 0; u < T_; ++u)
        if (u != t && threads_[static_cast<std::size_t>(u)].status == ThreadStatus::Ready &&
            pending(u).enabled) {
            c.valid = false;
            c.runnableAt = totalEvents_;
            c.runnableChanges = changes;
            return false;
        }
    const Frame& fr = th.frames.back();
    const CFunction& f = m_.functions[static_cast<std::size_t>(fr.fn)];
    const Value* regs = th.regs.data() + fr.regBase;
    const auto n = static_cast<std::size_t>(f.stateSlots);
    const auto depth = static_cast<std::int32_t>(th.frames.size());
    if (c.valid && c.depth == depth && c.slot == in.a && c.effects == changes &&
        c.others == others && c.localSize == th.local.size() && c.nAllocs == th.nAllocs &&
        c.nNondet == th.nNondet && c.atomicDepth == th.atomicDepth && c.regs.size() == n &&
        std::equal(c.regs.begin(), c.regs.end(), regs)) {
        warnLoop(in.imm2, BlockCause::Livelock,
                 "thread " + p_.info_->threadName(t) + " can never leave the loop at " +
                     loopName(in.imm2) + ": an iteration changed nothing and no other thread can "
                     "run (livelock); the execution is blocked there (livelock)");
        mark(t, EventKind::AssumeBlock, ThreadStatus::Blocked, static_cast<int>(BlockCause::Livelock),
             in.pos, L[1]);
        c.valid = false;
        return true;
    }
    c.valid = true;
    c.depth = depth;
    c.slot = in.a;
    c.effects = changes;
    c.others = others;
    c.localSize = th.local.size();
    c.nAllocs = th.nAllocs;
    c.nNondet = th.nNondet;
    c.atomicDepth = th.atomicDepth;
    c.regs.assign(regs, regs + n);
    return false;
}

// ---- visible steps -------------------------------------------------------------------------------

std::span<const Event> CExecution::step(ThreadId t, std::optional<Value> forcedRead) {
    emitted_.clear();
    Thread& th = threads_[static_cast<std::size_t>(t)];
    Event ev = pending(t);
    const CInstr& in = cur(th);
    if (forcedRead && readsMemory(ev.kind) && ev.kind != EventKind::Lock) {
        ev.rval = *forcedRead;
        if (ev.kind == EventKind::FetchAdd) ev.wval = rmwResult(ev, ev.rval);
        if (ev.kind == EventKind::CasSuccess || ev.kind == EventKind::CasFailure) {
            const bool ok = ev.rval == ev.operand;
            ev.kind = ok ? EventKind::CasSuccess : EventKind::CasFailure;
            ev.wval = ok ? (th.pendTry ? 1 : th.pendNew) : 0;
        }
    }
    const auto loc = static_cast<std::size_t>(ev.loc);
    bool advance = true;
    std::optional<FaultKind> freeFault;
    // The block was freed (or its frame ended) after this access became pending: the access
    // happens, then the thread faults.
    // (A location a free or a frame end wrote is dead; so is every location of a block once the
    // free or frame end is over.)
    const bool isFree = in.op == COp::Builtin && static_cast<Builtin>(in.sub) == Builtin::Free;
    // A frame end (frameEnd): at a return, or at pthread_exit / exit / abort for every frame.
    const bool isFrameEnd =
        in.op == COp::Ret ||
        (in.op == COp::Builtin && (static_cast<Builtin>(in.sub) == Builtin::ThreadExit ||
                                   static_cast<Builtin>(in.sub) == Builtin::Exit ||
                                   static_cast<Builtin>(in.sub) == Builtin::Abort));
    bool keepDead = false;  // a write to a dead location: it faults and the location stays dead
    if (th.pendObj && !isFree && !isFrameEnd) {
        const auto& o = objs_[static_cast<std::size_t>(th.pendObj)];
        const bool dead = ev.loc >= 0 && (readsMemory(ev.kind) ? ev.rval == kDead : mem_[loc] == kDead);
        keepDead = dead;
        if (o.status != 1 || dead) freeFault = o.heap ? FaultKind::UseAfterFree : FaultKind::InvalidPointer;
    }
    // A program's read (load, read-modify-write, compare-and-swap, await) of memory nothing wrote:
    // the access happens, then the thread faults. (memcpy copies uninitialised bytes as they are;
    // porlab's own accesses, e.g. a free's, read whatever is there.)
    if (!freeFault && readsMemory(ev.kind) && ev.rval == kUninit && ev.mode != AccessMode::Internal &&
        (in.op == COp::Load || in.op == COp::Rmw || in.op == COp::CmpXchg ||
         (in.op == COp::Builtin && (static_cast<Builtin>(in.sub) == Builtin::LoadAwait ||
                                    static_cast<Builtin>(in.sub) == Builtin::XchgAwait))))
        freeFault = FaultKind::UninitializedRead;
    ThreadId spawned = -1;
    Value spawnArg = 0;
    std::int32_t spawnFn = 0;
    auto setResult = [&](Value v) {
        if (in.a >= 0) reg(th, in.a) = v;
    };
    const auto bi = in.op == COp::Builtin ? static_cast<Builtin>(in.sub) : Builtin::Nop;
    auto goOn = [&](std::int32_t phase) {  // the operation goes on with its step `phase`
        th.phase = phase;
        advance = false;
    };
    // A lock, trylock or unlock of a destroyed mutex (kDestroyedOwner) happens, then the thread
    // faults; the mutex stays destroyed.
    const bool onDestroyed =
        !freeFault && ev.loc >= 0 && owner_[loc] == kDestroyedOwner &&
        (ev.kind == EventKind::Lock || ev.kind == EventKind::Unlock ||
         (th.pendTry && (ev.kind == EventKind::CasSuccess || ev.kind == EventKind::CasFailure)));
    if (onDestroyed) freeFault = FaultKind::MutexDestroyed;
    // Read-write locks and barriers (visibleBuiltin describes them).
    bool handled = true;
    switch (bi) {
    case Builtin::RwRdLock:
    case Builtin::RwWrLock:
    case Builtin::RwTryRdLock:
    case Builtin::RwTryWrLock: {
        const bool reader = bi == Builtin::RwRdLock || bi == Builtin::RwTryRdLock;
        const auto m = static_cast<std::size_t>(th.aux);
        switch (ev.kind) {
        case EventKind::Lock:
        case EventKind::CasSuccess:
            mem_[loc] = 1;
            owner_[loc] = t;
            th.aux = ev.loc;  // M, for the steps to come
            goOn(1);
            break;
        case EventKind::CasFailure: setResult(kEBusy); break;
        case EventKind::FetchAdd: mem_[loc] = ev.wval; goOn(2); break;  // a reader registered
        case EventKind::Read:  // trywrlock: readers hold the lock?
            if (ev.rval != 0) {
                goOn(2);
            } else {
                th.wrHeld.push_back(static_cast<LocId>(m));
                setResult(0);
            }
            break;
        case EventKind::Await:  // wrlock: the last reader left
            th.wrHeld.push_back(static_cast<LocId>(m));
            setResult(0);
            break;
        case EventKind::Unlock:
            mem_[loc] = 0;
            owner_[loc] = -1;
            setResult(reader ? 0 : kEBusy);
            break;
        default: handled = false; break;
        }
        break;
    }
    case Builtin::RwUnlock:
        if (ev.kind == EventKind::Unlock) {
            mem_[loc] = 0;
            owner_[loc] = -1;
            th.wrHeld.erase(std::find(th.wrHeld.begin(), th.wrHeld.end(), ev.loc));
            setResult(0);
        } else {
            mem_[loc] = ev.wval;
            if (ev.rval <= 0 && !freeFault) freeFault = FaultKind::UnlockNotHeld;  // no reader held it
            setResult(0);
        }
        break;
    case Builtin::BarrierWait:
        if (ev.kind == EventKind::FetchAdd) {
            mem_[loc] = ev.wval;
            const auto word = static_cast<std::uint64_t>(ev.rval);
            const std::uint64_t n = word >> 32, arrived = word & 0xffffffffULL;
            if (n == kBarrierDestroyedHi) {
                if (!freeFault) freeFault = FaultKind::BarrierDestroyed;
            } else if (n == 0) {
                if (!freeFault) freeFault = FaultKind::BarrierNotInitialized;
            } else if (arrived % n == n - 1) {
                setResult(-1);  // PTHREAD_BARRIER_SERIAL_THREAD: the last to arrive
            } else {
                th.aux = static_cast<Value>((n << 32) + (arrived / n + 1) * n);
                goOn(1);
            }
        } else {
            setResult(0);
        }
        break;
    case Builtin::MutexDestroy:
    case Builtin::SpinDestroy:
    case Builtin::RwDestroy:
        if (freeFault) break;
        // A thread holds the mutex (the exchange read its 1; under lapor, whose locks write
        // nothing, only owner_ tells).
        if (owner_[loc] >= 0) {
            freeFault = FaultKind::DestroyLockedMutex;
            mem_[loc] = 0;  // as the event says (the execution has an error; the owner stays)
        } else if (owner_[loc] == kDestroyedOwner) {
            freeFault = FaultKind::MutexDestroyed;  // destroyed twice
        } else {
            mem_[loc] = 0;
            owner_[loc] = kDestroyedOwner;
            setResult(0);
        }
        break;
    case Builtin::MutexInit:
    case Builtin::MtxInit:
    case Builtin::SpinInit:
    case Builtin::RwInit:  // of a destroyed mutex (visibleBuiltin)
        mem_[loc] = 0;
        owner_[loc] = -1;
        setResult(0);
        break;
    default: handled = false; break;
    }
    // A location of a freed block or of a dead frame (see frameEnd and Builtin::Free).
    auto killLocation = [&] {
        if (ev.kind == EventKind::Exchange ? ev.rval == kDead
                                           : objs_[static_cast<std::size_t>(th.pendObj)].status == 2) {
            freeFault = FaultKind::DoubleFree;
            return;
        }
        const auto next = static_cast<std::uint32_t>(th.aux) + 1;
        std::uint32_t off = 0;
        LocId l = kNoLoc;
        if (isFrameEnd || p_.nextCell(th.pendObj, next, off, l)) {
            th.phase = static_cast<std::int32_t>(next);  // frameEnd / the free go on
            advance = false;
        } else {
            objs_[static_cast<std::size_t>(th.pendObj)].status = 2;
        }
    };
    switch (handled ? EventKind::ThreadEnd : ev.kind) {  // (ThreadEnd: nothing more to do)
    case EventKind::Read:
        if (in.op == COp::Load) setResult(norm(ev.rval, in.w));
        else if (static_cast<Builtin>(in.sub) == Builtin::Memcpy) {  // a chunk of the source
            const auto n = static_cast<std::uint64_t>(arg(th, in, 2));
            const auto k = static_cast<std::uint64_t>(th.phase) >> 1;
            const Addr d = resolve(th, arg(th, in, 0), n);
            const Addr s = resolve(th, arg(th, in, 1), n);
            const unsigned chunk = copyChunk(in, d, s, k, n);
            th.aux = ev.rval == kUninit ? ev.rval : norm(ev.rval, chunk * 8);
            advance = false;
            if (d.where == Where::Shared) {
                th.phase |= 1;  // the write of this chunk comes next
            } else {
                if (d.where == Where::Local) storeLocal(th, d.off + static_cast<std::uint32_t>(k), chunk, th.aux);
                th.phase = static_cast<std::int32_t>(2 * (k + chunk));
                if (k + chunk >= n) {
                    setResult(arg(th, in, 0));
                    advance = true;
                }
            }
        } else {  // pthread_cond_wait, phase 0
            th.aux = ev.rval;
            th.phase = 1;
            advance = false;
        }
        break;
    case EventKind::Write:
        mem_[loc] = ev.wval;
        if (isFree || isFrameEnd) {
            killLocation();
            break;
        }
        if (in.op == COp::Builtin && (static_cast<Builtin>(in.sub) == Builtin::Memset ||
                                      static_cast<Builtin>(in.sub) == Builtin::Memcpy)) {
            const auto n = static_cast<std::uint64_t>(arg(th, in, 2));
            const auto k = static_cast<std::uint64_t>(th.phase) >> 1;
            const Addr d = resolve(th, arg(th, in, 0), n);
            const Addr s = static_cast<Builtin>(in.sub) == Builtin::Memcpy ? resolve(th, arg(th, in, 1), n)
                                                                           : Addr{Where::Local, 0, 0, {}};
            const std::uint64_t done = k + copyChunk(in, d, s, k, n);
            th.phase = static_cast<std::int32_t>(2 * done);
            if (done < n)
                advance = false;
            else
                setResult(arg(th, in, 0));
            break;
        }
        if (bi == Builtin::ThreadCreate || bi == Builtin::ThrdCreate) {
            th.phase = 1;  // the handle is stored; the spawn comes next
            advance = false;
            break;
        }
        if (in.op == COp::Builtin) setResult(0);  // pthread_join's *retval
        break;
    case EventKind::FetchAdd:
        mem_[loc] = ev.wval;
        if (in.op == COp::Rmw) {
            if (in.resultUsed) setResult(norm(ev.rval, in.w));
        } else {
            setResult(0);
        }
        break;
    case EventKind::Exchange:
        mem_[loc] = ev.wval;
        if (isFree || isFrameEnd) {
            killLocation();
            break;
        }
        setResult(norm(ev.rval, in.w));
        break;
    case EventKind::CasSuccess:
    case EventKind::CasFailure:
        if (th.pendTry) {
            if (ev.kind == EventKind::CasSuccess) {
                mem_[loc] = 1;
                owner_[loc] = t;
                setResult(0);
            } else {
                setResult(bi == Builtin::MtxTryLock ? 1 : kEBusy);  // thrd_busy : EBUSY
            }
            break;
        }
        if (ev.kind == EventKind::CasSuccess) mem_[loc] = ev.wval;
        reg(th, in.a) = norm(ev.rval, in.w);
        reg(th, in.a + 1) = ev.kind == EventKind::CasSuccess;
        break;
    case EventKind::Lock:
        mem_[loc] = 1;
        owner_[loc] = t;
        if (in.op == COp::Call || in.op == COp::CallPtr) {
            th.phase = 1;
            advance = false;
        } else if (static_cast<Builtin>(in.sub) == Builtin::AtomicBegin) {
            th.atomicDepth = 1;
        } else {
            setResult(0);
        }
        break;
    case EventKind::Unlock:
        mem_[loc] = 0;
        owner_[loc] = -1;
        if (in.op == COp::Ret) {
            th.phase = 1;
            advance = false;
        } else if (static_cast<Builtin>(in.sub) == Builtin::AtomicEnd) {
            th.atomicDepth = 0;
        } else if (static_cast<Builtin>(in.sub) == Builtin::CondWait) {
            th.phase = 2;
            advance = false;
        } else {
            setResult(0);
        }
        break;
    case EventKind::Await:
    case EventKind::XchgAwait:
        if (ev.kind == EventKind::XchgAwait) mem_[loc] = ev.wval;
        if (static_cast<Builtin>(in.sub) == Builtin::CondWait) {
            th.phase = 3;
            advance = false;
        } else {
            setResult(norm(ev.rval, in.w));
        }
        break;
    case EventKind::Spawn: {
        spawned = ev.aux;
        const CFunction& f = fnOf(th);
        const auto A = [&](int k) { return val(th, f.args[static_cast<std::size_t>(in.b + k)]); };
        const int fnArg = bi == Builtin::ThrdCreate ? 1 : 2;
        spawnFn = static_cast<std::int32_t>((static_cast<std::uint64_t>(A(fnArg)) >> m_.objShift) - 1);
        spawnArg = A(fnArg + 1);
        const Addr ad = resolve(th, A(0), m_.ptrBytes);
        if (ad.where == Where::Local) storeLocal(th, ad.off, m_.ptrBytes, spawned);
        ++th.nSpawns;
        setResult(0);
        break;
    }
    case EventKind::Join: {
        const Value rp = arg(th, in, 1);
        setResult(0);
        if (rp != 0) {
            const unsigned bytes = bi == Builtin::ThrdJoin ? 4 : m_.ptrBytes;
            const Addr ad = resolve(th, rp, bytes);
            if (ad.where == Where::Local) {
                storeLocal(th, ad.off, bytes, threads_[static_cast<std::size_t>(ev.aux)].exitVal);
            } else if (ad.where == Where::Shared) {
                th.phase = 1;
                advance = false;
            }
        }
        break;
    }
    default: break;
    }
    if (keepDead) mem_[loc] = kDead;
    if (onDestroyed) {
        mem_[loc] = 0;
        owner_[loc] = kDestroyedOwner;
    }
    if (writesMemory(ev.kind)) {
        publish(ev.wval);
        // SAVER's relaxation: a store the pass found dead at its loop's header, into a block
        // no other thread can reach yet, is no effect.
        const bool invisible = th.pendObj != 0 && !objs_[static_cast<std::size_t>(th.pendObj)].published &&
                               in.op == COp::Store && (in.imm2 & kAccessMarked) != 0;
        if (!invisible) ++th.effects;
        else ++th.hidden;
        // The thread's last write (zne awaits; see stopAtAccess).
        th.lastWriteStep = totalEvents_ + 1;
        th.lastWriteIndex = static_cast<std::int32_t>(th.evCount);
        th.lastWriteLoc = ev.loc;
        th.lastWriteAmount = 0;
        if (ev.kind == EventKind::FetchAdd && (ev.rmwOp == RmwOp::Add || ev.rmwOp == RmwOp::Sub))
            th.lastWriteAmount = ev.rmwOp == RmwOp::Add ? ev.operand : -ev.operand;
    } else if (ev.kind == EventKind::Spawn) {
        publish(spawnArg);
        ++th.effects;
    }
    if (zneAwaits_ && ev.loc >= 0 && accessesMemory(ev.kind) &&
        !(ev.kind == EventKind::FetchAdd && !ev.resultUsed &&
          (ev.rmwOp == RmwOp::Add || ev.rmwOp == RmwOp::Sub))) {
        // An access that observes the location's value (zne awaits, observedSince).
        const auto l = static_cast<std::size_t>(ev.loc);
        if (obsThread_[l] != t) {
            obsOther_[l] = obsStep_[l];
            obsThread_[l] = t;
        }
        obsStep_[l] = totalEvents_ + 1;
    }
    th.evCount += 1;
    emitted_.push_back(ev);
    if (++totalEvents_ > p_.opts().maxExecutionEvents && th.status == ThreadStatus::Ready) {
        // An execution this long is most likely an unbounded loop: cut it, with a warning that
        // names the loop the thread last jumped back in (and keep the explorers' recursion
        // within the stack).
        std::string advice = "bound loops with --unroll N";
        std::int64_t loop = th.lastLoop;  // the cut thread's loop, else another's
        for (const auto& other : threads_)
            if (loop == 0) loop = other.lastLoop;
        if (loop != 0)
            advice = "a thread was looping at " + loopName(loop) + ": bound it with --unroll N";
        if (p_.opts().loops == "none") advice += ", or reduce spin loops (drop --loops none)";
        p_.warnOnce("an execution exceeded " + std::to_string(p_.opts().maxExecutionEvents) +
                    " events and was cut there (counted as blocked, execution-cut): " + advice +
                    " (or raise --max-execution-events)");
        mark(t, EventKind::AssumeBlock, ThreadStatus::Blocked,
             static_cast<int>(BlockCause::ExecutionCut), ev.pos);
        return emitted_;
    }
    if (freeFault) {
        fault(t, *freeFault, ev.pos);
        return emitted_;
    }
    if (advance) {
        th.phase = 0;
        ++th.frames.back().pc;
    }
    if (spawned >= 0) startThread(spawned, spawnFn, {spawnArg});
    if (th.status == ThreadStatus::Ready) {
        // a join whose *retval is invalid faults here (phase 1 resolves it again)
        if (!advance && (bi == Builtin::ThreadJoin || bi == Builtin::ThrdJoin)) {
            const Addr ad = resolve(th, arg(th, in, 1), bi == Builtin::ThrdJoin ? 4 : m_.ptrBytes);
            if (ad.where != Where::Shared) {
                fault(t, ad.fault, in.pos);
                return emitted_;
            }
        }
        runLocal(t);
    }
    return emitted_;
}

// ---- snapshots -----------------------------------------------------------------------------------

namespace {
constexpr std::size_t kEventWords = (sizeof(Event) + 7) / 8;
// memcpy without the undefined behaviour of an empty vector's null data().
inline void copyBytes(void* dst, const void* src, std::size_t n) {
    if (n) std::memcpy(dst, src, n);
}
}

void CExecution::save(Snapshot& s) const {
    // One resize, then plain stores: save runs once per explored state (no push_back per word).
    const auto nl = static_cast<std::size_t>(p_.numLocs_.load());
    std::size_t size = 4 + 2 * nl + 2 * objs_.size() + (zneAwaits_ ? 3 * nl : 0);
    for (const auto& th : threads_) {
        size += 1;
        if (th.status == ThreadStatus::NotStarted) continue;
        size += 17 + kEventWords + 5 + th.frames.size() * 3 + th.regs.size() +
                (th.local.size() + 7) / 8 + 2 * th.stackObjs.size() + th.wrHeld.size();
    }
    auto& v = s.words;
    v.resize(size);
    std::int64_t* w = v.data();
    *w++ = failed_;
    *w++ = totalEvents_;
    *w++ = static_cast<std::int64_t>(nl);
    *w++ = static_cast<std::int64_t>(objs_.size());
    std::copy_n(mem_.begin(), nl, w);
    w += nl;
    for (std::size_t i = 0; i < nl; ++i) *w++ = owner_[i];
    if (zneAwaits_) {
        for (std::size_t i = 0; i < nl; ++i) *w++ = obsThread_[i];
        w = std::copy_n(obsStep_.begin(), nl, w);
        w = std::copy_n(obsOther_.begin(), nl, w);
    }
    for (const auto& o : objs_) {
        *w++ = static_cast<std::int64_t>(o.size) | (static_cast<std::int64_t>(o.status) << 32) |
               (static_cast<std::int64_t>(o.heap) << 40) | (static_cast<std::int64_t>(o.published) << 48);
        *w++ = o.base;
    }
    for (const auto& th : threads_) {
        *w++ = static_cast<std::int64_t>(th.status);
        if (th.status == ThreadStatus::NotStarted) continue;
        *w++ = th.evCount;
        *w++ = th.nAllocs;
        *w++ = th.nNondet;
        *w++ = th.nSpawns;
        *w++ = th.atomicDepth;
        *w++ = th.phase;
        *w++ = th.exitVal;
        *w++ = th.aux;
        *w++ = th.pendW | (th.pendTry ? 256 : 0);
        *w++ = th.pendNew;
        *w++ = th.pendObj;
        *w++ = th.effects;
        *w++ = th.hidden;
        *w++ = th.lastLoop;
        *w++ = th.lastWriteStep;
        *w++ = th.lastWriteAmount;
        *w++ = (static_cast<std::int64_t>(th.lastWriteIndex) << 32) |
               static_cast<std::uint32_t>(th.lastWriteLoc);
        w[kEventWords - 1] = 0;
        copyBytes(static_cast<void*>(w), &th.pend, sizeof(Event));
        w += kEventWords;
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

void CExecution::restore(const Snapshot& s) {
    const auto& w = s.words;
    std::size_t i = 0;
    failed_ = w[i++] != 0;
    totalEvents_ = w[i++];
    const auto nl = static_cast<std::size_t>(w[i++]);
    const auto no = static_cast<std::size_t>(w[i++]);
    std::copy(w.begin() + static_cast<std::ptrdiff_t>(i), w.begin() + static_cast<std::ptrdiff_t>(i + nl), mem_.begin());
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
        objs_[k] = {static_cast<std::uint32_t>(x & 0xffffffff), static_cast<std::uint8_t>((x >> 32) & 0xff),
                    static_cast<std::uint8_t>((x >> 40) & 0xff), static_cast<std::uint8_t>((x >> 48) & 0xff),
                    static_cast<std::uint32_t>(w[i++])};
    }
    for (auto& th : threads_) {
        th.status = static_cast<ThreadStatus>(w[i++]);
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
        th.evCount = static_cast<std::uint32_t>(w[i++]);
        th.nAllocs = static_cast<std::int32_t>(w[i++]);
        th.nNondet = static_cast<std::int32_t>(w[i++]);
        th.nSpawns = static_cast<std::int32_t>(w[i++]);
        th.atomicDepth = static_cast<std::int32_t>(w[i++]);
        th.phase = static_cast<std::int32_t>(w[i++]);
        th.exitVal = w[i++];
        th.aux = w[i++];
        th.pendW = static_cast<std::uint8_t>(w[i] & 0xff);
        th.pendTry = (w[i++] & 256) != 0;
        th.pendNew = w[i++];
        th.pendObj = w[i++];
        th.effects = w[i++];
        th.hidden = w[i++];
        th.lastLoop = w[i++];
        th.lastWriteStep = w[i++];
        th.lastWriteAmount = w[i++];
        th.lastWriteIndex = static_cast<std::int32_t>(w[i] >> 32);
        th.lastWriteLoc = static_cast<std::int32_t>(static_cast<std::uint32_t>(w[i++] & 0xffffffff));
        th.cand.valid = false;  // the livelock check starts over after a restore
        th.cand.runnableAt = -1;
        copyBytes(static_cast<void*>(&th.pend), w.data() + i, sizeof(Event));
        i += kEventWords;
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
}

std::unique_ptr<Execution> CProgram::newExecution() const {
    return std::make_unique<CExecution>(*this);
}

// ---- listing ---------------------------------------------------------------------------------------

std::string disassemble(const CModule& m) {
    std::ostringstream o;
    auto opd = [&](std::int32_t x) {
        return x >= 0 ? "r" + std::to_string(x) : "#" + std::to_string(m.constants[static_cast<std::size_t>(~x)]);
    };
    for (const auto& f : m.functions) {
        if (!f.defined) continue;
        o << "function " << f.name << " (" << f.numParams << " params, " << f.numSlots << " slots)"
          << (f.atomic ? " atomic" : "") << "\n";
        for (std::size_t pc = 0; pc < f.code.size(); ++pc) {
            const CInstr& in = f.code[pc];
            o << "  " << pc << ": " << kCOpNames[static_cast<int>(in.op)];
            if (in.op == COp::Builtin) o << " " << kBuiltinNames[in.sub];
            if (in.op == COp::Call) o << " " << m.functions[static_cast<std::size_t>(in.imm)].name;
            if (in.a >= 0) o << " a=r" << in.a;
            if (in.b != -1 && in.op != COp::Call && in.op != COp::Builtin && in.op != COp::CallPtr) o << " b=" << opd(in.b);
            if (in.c != -1 && (in.op == COp::Bin || in.op == COp::Cmp || in.op == COp::Store ||
                               in.op == COp::Rmw || in.op == COp::CmpXchg || in.op == COp::Select))
                o << " c=" << opd(in.c);
            if (in.op == COp::Call || in.op == COp::Builtin || in.op == COp::CallPtr) {
                o << " (";
                for (std::int32_t k = 0; k < in.c; ++k)
                    o << (k ? ", " : "") << opd(f.args[static_cast<std::size_t>(in.b + k)]);
                o << ")";
            }
            if (in.op == COp::Branch) o << " ? " << in.a << " : " << in.c;
            if (in.op == COp::CmpBr) o << " ? " << in.d << " : " << in.imm;
            if (in.imm) o << " imm=" << in.imm;
            if (in.pos.line) o << "  ; " << m.files[in.pos.file] << ":" << in.pos.line;
            o << "\n";
        }
    }
    return o.str();
}

}  // namespace cfront

// ---- --nondet-domain: the explorer once per assignment of values to choice points -----------------
//
// A choice point is (thread, n-th __VERIFIER_nondet_* call of that thread); points are found
// lazily, numbered in discovery order. Assignments are enumerated as an odometer whose digits are
// the points (the first found is the least significant), each over LO..HI; a point found during a
// run becomes a new most significant digit, and every assignment enumerated so far had LO there,
// so no assignment is run twice. An execution is reported only under the assignment that agrees
// with it on the points it used and is LO on the others (acceptTrace), so each execution is
// counted exactly once over all runs. Cost: one full exploration per assignment, i.e. the product
// of the domain sizes over the points that can be reached together.

namespace {

std::optional<ExploreResult> exploreNondet(const Program& program, const ExploreOptions& opts,
                                           const ExploreRun& run) {
    const auto* cp = dynamic_cast<const cfront::CProgram*>(&program);
    if (!cp || !cp->opts().nondetDomain) return std::nullopt;
    const auto [lo, hi] = *cp->opts().nondetDomain;
    const auto start = std::chrono::steady_clock::now();
    ExploreResult total;
    std::vector<Value> digits;
    std::uint64_t runs = 0;
    for (;;) {
        cp->setAssignment(digits);
        const std::vector<Value> inputs = cp->inputs();
        ExploreOptions o = opts;
        o.acceptTrace = [cp, inner = opts.acceptTrace](const Execution& e) {
            const auto* ce = dynamic_cast<const cfront::CExecution*>(&e);
            return (!ce || ce->usesAssignedChoices()) && (!inner || inner(e));
        };
        // Every trace carries the input it ran under, so that equivalence keys (partition
        // sizes, one-trace-per-class checks) tell executions of different inputs apart.
        if (opts.onTrace)
            o.onTrace = [&inputs, user = opts.onTrace](const Trace& t) {
                Trace labelled = t;
                labelled.setInputs(inputs);
                user(labelled);
            };
        // Budgets are over the whole drive.
        const double spent =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (opts.maxTraces) o.maxTraces = opts.maxTraces - std::min(opts.maxTraces - 1, total.traceCount());
        if (opts.maxEvents) o.maxEvents = opts.maxEvents - std::min(opts.maxEvents - 1, total.events);
        if (opts.maxSeconds > 0) o.maxSeconds = std::max(1e-3, opts.maxSeconds - spent);
        ExploreResult r = run(o);
        ++runs;
        for (auto& t : r.traces) t.setInputs(inputs);
        if (r.firstError) r.firstError->setInputs(inputs);
        for (auto& s : r.errorsBySite) s.first.setInputs(inputs);
        const bool budget = r.budgetExceeded;
        mergeResult(total, std::move(r));
        if (budget || (opts.stopOnError && total.errors > 0)) break;
        // The next assignment (odometer over the points found so far).
        digits.resize(cp->numChoicePoints(), lo);
        std::size_t k = 0;
        while (k < digits.size() && digits[k] >= hi) digits[k++] = lo;
        if (k == digits.size()) break;
        ++digits[k];
    }
    cp->setAssignment({});
    total.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    total.stats["nondet_runs"] = static_cast<double>(runs);
    total.stats["nondet_points"] = static_cast<double>(cp->numChoicePoints());
    return total;
}

[[maybe_unused]] const bool kNondetDriverRegistered = registerExploreDriver(exploreNondet);

}  // namespace

// ---- public API ------------------------------------------------------------------------------------

namespace {

std::string stem(const std::string& path) { return std::filesystem::path(path).stem().string(); }

std::shared_ptr<Program> loadCAs(const std::string& path, const CLoadOptions& opts,
                                 const std::string& shownPath) {
    if (opts.nondetDomain && opts.nondetDomain->first > opts.nondetDomain->second)
        throw InputError("nondet domain " + std::to_string(opts.nondetDomain->first) + ":" +
                         std::to_string(opts.nondetDomain->second) + " is empty (LO > HI)");
    if (opts.unroll && *opts.unroll < 1)
        throw InputError("unroll must be >= 1 (the visits of a loop header allowed), not " +
                         std::to_string(*opts.unroll));
    auto rename = [&](std::string text) {
        if (shownPath == path) return text;
        for (std::size_t at = text.find(path); at != std::string::npos; at = text.find(path, at))
            text.replace(at, path.size(), shownPath);
        return text;
    };
    try {
        llvm::LLVMContext ctx;
        std::unique_ptr<llvm::Module> mod = cfront::compileC(ctx, path, opts);
        cfront::CModule cm = cfront::lowerModule(*mod, opts);
        for (auto& f : cm.files) {
            f = rename(f);
            // Debug info may name the file relative to a directory of its own (e.g. the temp
            // directory of loadCSource when the working directory is below it).
            if (f != shownPath && !f.empty() && path.size() > f.size() &&
                path.compare(path.size() - f.size(), f.size(), f) == 0 &&
                path[path.size() - f.size() - 1] == '/')
                f = shownPath;
        }
        for (auto& w : cm.warnings) w = rename(w);
        // Explorers size per-thread arrays by maxThreads(): use the program's own static bound
        // when it is known and smaller than --max-threads.
        CLoadOptions eff = opts;
        if (opts.maxThreads >= 1 && opts.maxThreads <= 64)
            if (auto bound = cfront::staticThreadBound(*mod, opts.maxThreads))
                eff.maxThreads = std::min(opts.maxThreads, std::max(1, *bound));
        return std::make_shared<cfront::CProgram>(std::move(cm), eff,
                                                  opts.name.empty() ? stem(shownPath) : opts.name);
    } catch (const InputError& e) {
        throw InputError(rename(e.what()));
    } catch (const UnsupportedError& e) {
        throw UnsupportedError(rename(e.what()));
    }
}

}  // namespace

std::shared_ptr<Program> loadC(const std::string& path, const CLoadOptions& opts) {
    return loadCAs(path, opts, path);
}

std::shared_ptr<Program> loadCSource(const std::string& source, const std::string& fileName,
                                     const CLoadOptions& opts) {
    namespace fs = std::filesystem;
    static std::atomic<int> counter{0};
    const fs::path dir = fs::temp_directory_path() /
                         ("porlab-c-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::create_directories(dir);
    const fs::path file = dir / fs::path(fileName).filename();
    {
        std::ofstream out(file);
        out << source;
    }
    std::shared_ptr<Program> p;
    try {
        p = loadCAs(file.string(), opts, fileName);
    } catch (...) {
        std::error_code ec;
        fs::remove_all(dir, ec);
        throw;
    }
    std::error_code ec;
    fs::remove_all(dir, ec);
    return p;
}

std::string disassembleC(const Program& program) {
    if (auto* c = dynamic_cast<const cfront::CProgram*>(&program)) return cfront::disassemble(c->mod());
    return "";
}

std::vector<std::string> cProgramWarnings(const Program& program) {
    if (auto* c = dynamic_cast<const cfront::CProgram*>(&program)) return c->warnings();
    return {};
}

}  // namespace porlab
