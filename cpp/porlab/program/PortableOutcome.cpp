// SPDX-License-Identifier: MIT
// Final states that mean the same in every process (distributed runs, python/porlab/
// distributed.py). A CodeProgram numbers threads, dynamic objects and locations in the order a
// process first meets them (CodeProgram.hpp), so the outcome() of one process names other things
// than the same numbers in another. Here an outcome is written with stable names instead: a
// thread by its spawn path (main, then the ordinal of each pthread_create among its parent's,
// with the child's function), a dynamic object by its allocating thread's spawn path and the
// rest of its key (allocation index, size, kind, alignment), a location by its object (a global
// keeps its object id, fixed at compile time) and byte offset, and a value that points into a
// dynamic object by that object and the offset. localOutcome() reads such an outcome back in
// this process's numbering (creating the names it has not met yet), as outcome() would have
// written it here.
//
// Portable form (flat values): a tag, the number of thread records, then per started thread:
// its path (length, then (ordinal, function) per spawn), the count of its values and the values
// (status, then exit value or function, pc, phase and registers, as outcome()); then the number
// of memory records, each: object, offset, size, mutex, sync, value (locations holding their
// initial value are left out, as outcome() trims them). A value is (0, v) or, pointing into a
// dynamic object, (1, object, offset), or, a thread handle, (2, path). An object is (-1, id) for
// a global, else (path, index, size, kind, alignment).
//
// Values are recognised as pointers by their encoding (Code.hpp: object id above the globals' and
// within the objects this process made, offset within the object): an integer that happens to
// have that form is read as a pointer. A thread handle (pthread_t) is a thread number and is
// left as it is, unless it is in a location pthread_create wrote a handle to (tag 2: a thread
// named by spawn path); a handle copied elsewhere stays a number.
#include <array>
#include <map>

#include "porlab/program/CodeExecution.hpp"

namespace porlab::code {

namespace {

constexpr Value kPortableTag = 0x504f5254;  // "PORT"

// The reverse of a CodeProgram's name tables (thread -> spawn, object -> key), made under mu_.
struct ReverseNames {
    std::vector<std::pair<ThreadId, int>> spawnOf;  // by thread: (parent, ordinal); (-1, 0): root
    std::vector<std::tuple<ThreadId, int, std::uint32_t, std::int64_t, std::uint64_t>> keyOf;
    std::vector<std::uint64_t> baseOf;  // by dynamic object - firstDynamicObject
    std::vector<std::pair<std::int64_t, std::uint32_t>> cellOf;  // by location: (object, offset)
    std::vector<Value> init;                                     // by location
    std::vector<std::array<Value, 3>> cellInfo;  // by location: size, mutex, sync word
    std::vector<std::uint8_t> threadHandle;      // by location: holds a thread handle
};

class Writer {
  public:
    Writer(const CModule& m, const ReverseNames& r, const std::vector<std::string>& threadNames,
           std::vector<Value>& out)
        : m_(m), r_(r), threadNames_(threadNames), out_(out) {}

    void path(ThreadId t) {
        std::vector<std::pair<int, std::int32_t>> p;
        while (t > 0 && static_cast<std::size_t>(t) < r_.spawnOf.size() &&
               r_.spawnOf[static_cast<std::size_t>(t)].first >= 0) {
            p.emplace_back(r_.spawnOf[static_cast<std::size_t>(t)].second, entryFunction(t));
            t = r_.spawnOf[static_cast<std::size_t>(t)].first;
        }
        if (t != 0) throw InputError("portable outcome: thread without a spawn path");
        out_.push_back(static_cast<Value>(p.size()));
        for (auto it = p.rbegin(); it != p.rend(); ++it)
            out_.insert(out_.end(), {it->first, it->second});
    }
    void object(std::int64_t obj) {
        const std::int64_t first = m_.firstDynamicObject();
        if (obj < first) {
            out_.insert(out_.end(), {-1, obj});
            return;
        }
        const auto& [t, n, size, kind, align] = r_.keyOf[static_cast<std::size_t>(obj - first)];
        path(t);
        out_.insert(out_.end(), {n, static_cast<Value>(size), kind, static_cast<Value>(align)});
    }
    void value(Value v) {
        const auto u = static_cast<std::uint64_t>(v);
        const std::int64_t first = m_.firstDynamicObject();
        if (!(u & m_.localTag) && u < m_.localTag) {
            const auto obj = static_cast<std::int64_t>(u >> m_.objShift);
            if (obj >= first && obj - first < static_cast<std::int64_t>(r_.keyOf.size())) {
                const auto i = static_cast<std::size_t>(obj - first);
                const std::uint64_t low = u & m_.offMask;
                const std::uint64_t size = std::get<2>(r_.keyOf[i]);
                if (low >= r_.baseOf[i] && low - r_.baseOf[i] <= size) {
                    out_.push_back(1);
                    object(obj);
                    out_.push_back(static_cast<Value>(low - r_.baseOf[i]));
                    return;
                }
            }
        }
        out_.insert(out_.end(), {0, v});
    }

  private:
    // The function thread t runs (its name is "tN:function"), for naming it in another process.
    std::int32_t entryFunction(ThreadId t) const {
        const std::string& name = threadNames_[static_cast<std::size_t>(t)];
        const std::string fn = name.substr(name.find(':') + 1);
        for (std::size_t f = 0; f < m_.functions.size(); ++f)
            if (m_.functions[f].name == fn) return static_cast<std::int32_t>(f);
        return 0;
    }
    const CModule& m_;
    const ReverseNames& r_;
    const std::vector<std::string>& threadNames_;
    std::vector<Value>& out_;
};

}  // namespace

std::vector<Value> CodeExecution::portableOutcome() const {
    ReverseNames r;
    std::vector<std::string> threadNames;
    {
        std::lock_guard lk(p_.mu_);
        r.spawnOf.assign(static_cast<std::size_t>(T_), {-1, 0});
        for (const auto& [spawn, child] : p_.threadIds_)
            r.spawnOf[static_cast<std::size_t>(child)] = spawn;
        r.keyOf.resize(p_.dyn_.size());
        r.baseOf.resize(p_.dyn_.size());
        for (const auto& [key, ref] : p_.dynIds_) {
            const auto i = static_cast<std::size_t>(ref.id - m_.firstDynamicObject());
            r.keyOf[i] = key;
            r.baseOf[i] = ref.base;
        }
        r.cellOf.resize(static_cast<std::size_t>(p_.numLocs_.load()));
        for (std::size_t obj = 0; obj < p_.cells_.size(); ++obj)
            for (const auto& [off, loc] : p_.cells_[obj])
                if (static_cast<std::size_t>(loc) < r.cellOf.size())
                    r.cellOf[static_cast<std::size_t>(loc)] = {static_cast<std::int64_t>(obj), off};
        threadNames = p_.infoMut_->threadNames;
        r.threadHandle = p_.threadHandle_;
        r.threadHandle.resize(r.cellOf.size());
        for (std::size_t l = 0; l < r.cellOf.size(); ++l) {
            const auto obj = r.cellOf[l].first;
            const bool uninitObj =
                obj >= m_.firstDynamicObject() &&
                p_.dyn_[static_cast<std::size_t>(obj - m_.firstDynamicObject())].uninit;
            const Value init = p_.initMem_[l];
            r.init.push_back(init);
            r.cellInfo.push_back({p_.locSize_[l], p_.infoMut_->isMutex[l] ? 1 : 0,
                                  uninitObj && init != kUninit ? 1 : 0});
        }
    }
    std::vector<Value> o{kPortableTag};
    Writer w(m_, r, threadNames, o);
    const std::size_t countAt = o.size();
    o.push_back(0);
    for (std::size_t t = 0; t < threads_.size(); ++t) {
        const Thread& th = threads_[t];
        if (th.status == ThreadStatus::NotStarted) continue;
        ++o[countAt];
        w.path(static_cast<ThreadId>(t));
        std::vector<Value> vals{static_cast<Value>(th.status)};
        if (th.status == ThreadStatus::Finished && th.frames.empty()) {
            vals.push_back(th.exitVal);
        } else if (!th.frames.empty()) {
            vals.insert(vals.end(), {th.frames.back().fn, th.frames.back().pc, th.phase});
            for (const Frame& fr : th.frames) {
                const auto state = m_.functions[static_cast<std::size_t>(fr.fn)].stateSlots;
                const auto b = th.regs.begin() + fr.regBase;
                vals.insert(vals.end(), b, b + state);
            }
        }
        o.push_back(static_cast<Value>(vals.size()));
        for (const Value v : vals) w.value(v);
    }
    const std::size_t memAt = o.size();
    o.push_back(0);
    const std::size_t n = std::min(mem_.size(), r.cellOf.size());
    for (std::size_t l = 0; l < n; ++l) {
        if (mem_[l] == r.init[l]) continue;
        ++o[memAt];
        const auto [obj, off] = r.cellOf[l];
        w.object(obj);
        o.push_back(static_cast<Value>(off));
        o.insert(o.end(), r.cellInfo[l].begin(), r.cellInfo[l].end());
        const Value v = mem_[l];
        if (r.threadHandle[l] && v > 0 && v < T_ &&
            r.spawnOf[static_cast<std::size_t>(v)].first >= 0) {
            o.push_back(2);  // a thread handle: the thread's spawn path
            w.path(static_cast<ThreadId>(v));
        } else {
            w.value(v);
        }
    }
    return o;
}

}  // namespace porlab::code

namespace porlab::code {

namespace {

class Reader {
  public:
    explicit Reader(std::span<const Value> in) : in_(in) {}
    Value next() {
        if (pos_ >= in_.size()) throw InputError("portable outcome: truncated");
        return in_[pos_++];
    }
    void back() { --pos_; }
    [[nodiscard]] bool atEnd() const { return pos_ == in_.size(); }

  private:
    std::span<const Value> in_;
    std::size_t pos_ = 0;
};

}  // namespace

std::vector<Value> CodeExecution::localOutcome(const CodeProgram& p, std::span<const Value> in) {
    const CModule& m = p.mod();
    Reader r(in);
    auto path = [&] {
        ThreadId t = 0;
        for (Value k = r.next(); k > 0; --k) {
            const auto n = static_cast<int>(r.next());
            const auto fn = static_cast<std::int32_t>(r.next());
            if (fn < 0 || static_cast<std::size_t>(fn) >= m.functions.size())
                throw InputError("portable outcome: no such function");
            t = p.threadId(t, n, fn);
            if (t < 0) throw InputError("portable outcome: more threads than max_threads");
        }
        return t;
    };
    auto object = [&]() -> CodeProgram::DynRef {
        if (r.next() == -1) return {r.next(), 0};
        r.back();
        const ThreadId t = path();
        const auto n = static_cast<int>(r.next());
        const auto size = static_cast<std::uint32_t>(r.next());
        const std::int64_t kind = r.next();
        const auto align = static_cast<std::uint64_t>(r.next());
        return p.dynamicObject(t, n, size, kind, SourcePos{}, align);
    };
    auto value = [&]() -> Value {
        const Value tag = r.next();
        if (tag == 0) return r.next();
        if (tag == 2) return path();
        const CodeProgram::DynRef o = object();
        return static_cast<Value>(m.pointer(o.id, o.base) + static_cast<std::uint64_t>(r.next()));
    };
    if (r.next() != kPortableTag) throw InputError("portable outcome: not a portable outcome");
    std::map<ThreadId, std::vector<Value>> threads;
    for (Value k = r.next(); k > 0; --k) {
        const ThreadId t = path();
        auto& vals = threads[t];
        for (Value j = r.next(); j > 0; --j) vals.push_back(value());
    }
    std::vector<std::pair<LocId, Value>> cells;
    try {
        for (Value k = r.next(); k > 0; --k) {
            const std::int64_t obj = object().id;
            const auto off = static_cast<std::uint32_t>(r.next());
            const auto size = static_cast<unsigned>(r.next());
            const bool mutex = r.next() != 0;
            const bool sync = r.next() != 0;
            const LocId l = p.cell(obj, off, size, mutex, SourcePos{}, sync);
            cells.emplace_back(l, value());
        }
    } catch (const LocationLimitReached&) {
        throw InputError("portable outcome: more locations than max_locations");
    }
    if (!r.atEnd()) throw InputError("portable outcome: trailing values");
    std::size_t n = 0;
    for (const auto& [l, v] : cells) n = std::max(n, static_cast<std::size_t>(l) + 1);
    std::vector<Value> o;
    {
        std::lock_guard lk(p.mu_);
        o.assign(p.initMem_.begin(), p.initMem_.begin() + static_cast<std::ptrdiff_t>(n));
    }
    for (const auto& [l, v] : cells) o[static_cast<std::size_t>(l)] = v;
    o.push_back(-1);
    for (ThreadId t = 0; t < p.opts().maxThreads; ++t) {
        auto it = threads.find(t);
        if (it == threads.end())
            o.push_back(static_cast<Value>(ThreadStatus::NotStarted));
        else
            o.insert(o.end(), it->second.begin(), it->second.end());
    }
    return o;
}

}  // namespace porlab::code

namespace porlab {

void setPortableOutcomes(const Program& program, bool on) {
    if (auto* c = dynamic_cast<const code::CodeProgram*>(&program))
        code::CodeExecution::setPortable(*c, on);
}

std::vector<Value> localOutcome(const Program& program, std::span<const Value> portable) {
    if (auto* c = dynamic_cast<const code::CodeProgram*>(&program))
        return code::CodeExecution::localOutcome(*c, portable);
    return {portable.begin(), portable.end()};
}

}  // namespace porlab
