// SPDX-License-Identifier: MIT
// The program-wide name tables of the interpreter (threads, dynamic objects, locations).
#include "porlab/program/CodeExecution.hpp"

namespace porlab::code {

CodeProgram::CodeProgram(CModule mod, const CodeOptions& opts, const std::string& name)
    : mod_(std::move(mod)), opts_(opts) {
    if (opts_.maxThreads < 1 || opts_.maxThreads > 64)
        throw InputError("max_threads must be between 1 and 64");
    if (opts_.maxDynamicLocations < 0) throw InputError("max_locations must be >= 0");
    std::size_t globalCells = 0;
    for (const auto& g : mod_.globals) globalCells += g.cells.size();
    capacity_ = globalCells + static_cast<std::size_t>(opts_.maxDynamicLocations);
    auto info = std::make_shared<ProgramInfo>();
    info->name = name;
    info->files = mod_.files;
    info->deadlockIsError = opts_.deadlockIsError;  // decided by the Reporter at a trace's end
    info->plainAccesses = mod_.plainAccesses;       // the Reporter's race check
    info->mutexDestroy = mod_.mutexDestroy;         // explorers that cannot check destroys
    info->threadNames.assign(static_cast<std::size_t>(opts_.maxThreads), "");
    info->threadNames[0] = "main";
    if (!mod_.threadFunctions.empty()) {  // a builder program: its threads have fixed ids
        if (mod_.threadFunctions.size() != static_cast<std::size_t>(opts_.maxThreads))
            throw InputError("program '" + name + "': max_threads is not its number of threads");
        for (std::size_t t = 0; t < mod_.threadFunctions.size(); ++t)
            info->threadNames[t] =
                mod_.functions[static_cast<std::size_t>(mod_.threadFunctions[t])].name;
    }
    info->locationNames.assign(capacity_, "");
    info->isMutex.assign(capacity_, false);
    info->initialValues.assign(capacity_, 0);
    locSize_.assign(capacity_, 0);
    threadHandle_.assign(capacity_, 0);
    const auto maxT = static_cast<std::size_t>(opts_.maxThreads);
    threadIdFast_ = std::make_unique<std::atomic<ThreadId>[]>(maxT * maxT);
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
    flatThreads_ = !mod_.threadFunctions.empty() && mod_.tlsTemplate.empty();
    for (const auto& f : mod_.functions)
        for (const auto& in : f.code)
            if (!keepsThreadFlat(in)) flatThreads_ = false;
    resolveStaticLocations(*info);
    info->sectionsEnd = criticalSectionsEnd(mod_);  // (after the mutexes' locations)
    initMem_ = info->initialValues;
    setDisplayInfo(*info);
    infoMut_ = info;
    info_ = info;
    for (const auto& w : mod_.warnings) warnings_.push_back(w);
}

// Does a thread that runs `in` stay flat (CodeProgram::flatThreads): a call pushes a frame, a
// return or an exit pops one, an alloca fills the private stack or adds a stack object, a
// read-write lock's write lock is held in Thread::wrHeld; a jump back of a loop keeps a livelock
// candidate (which a restore would have to drop).
bool CodeProgram::keepsThreadFlat(const CInstr& in) {
    switch (in.op) {
        case COp::Call:
        case COp::CallPtr:
        case COp::AllocaLocal:
        case COp::AllocaShared:
        case COp::Ret:       // (the last return leaves the thread without a frame)
        case COp::LoopBack:  // (the livelock check keeps a candidate state: Thread::cand)
            return false;
        case COp::Builtin:
            switch (static_cast<Builtin>(in.sub)) {
                case Builtin::RwWrLock:
                case Builtin::RwTryWrLock:
                case Builtin::RwRdLock:
                case Builtin::RwTryRdLock:
                case Builtin::RwUnlock:
                case Builtin::TlsAddress:
                case Builtin::ThreadCreate:
                case Builtin::ThrdCreate:
                case Builtin::Abort:  // (these end every frame)
                case Builtin::Exit:
                case Builtin::ThreadExit:
                    return false;
                default:
                    return true;
            }
        default:
            return true;
    }
}

// Accesses whose address is a constant pointer to a cell of a (shared, non-constant) global go
// to that cell's location in every execution: CInstr::loc saves the interpreter resolving the
// pointer and looking the cell up at every visit.
void CodeProgram::resolveStaticLocations(const ProgramInfo& info) {
    auto cellAt = [&](std::int32_t operand, unsigned size, bool mutex) -> std::int32_t {
        if (operand >= 0) return -1;
        const auto u =
            static_cast<std::uint64_t>(mod_.constants[static_cast<std::size_t>(~operand)]);
        if (u == 0 || (u & mod_.localTag) || u >= mod_.localTag) return -1;
        const auto obj = static_cast<std::int64_t>(u >> mod_.objShift);
        if (obj <= static_cast<std::int64_t>(mod_.functions.size()) ||
            obj >= mod_.firstDynamicObject())
            return -1;
        const CGlobal& g = mod_.globals[static_cast<std::size_t>(
            obj - 1 - static_cast<std::int64_t>(mod_.functions.size()))];
        if (g.tls || g.constant) return -1;
        const std::uint64_t off =
            (u & mod_.offMask) - mod_.staticBase[static_cast<std::size_t>(obj)];
        const auto& cells = cells_[static_cast<std::size_t>(obj)];
        auto it = cells.find(static_cast<std::uint32_t>(off));
        if (off > g.size || it == cells.end()) return -1;
        const auto l = static_cast<std::size_t>(it->second);
        if (info.isMutex[l] != mutex || (!mutex && locSize_[l] != size)) return -1;
        return it->second;
    };
    for (auto& f : mod_.functions)
        for (auto& in : f.code) {
            switch (in.op) {
                case COp::Load:
                case COp::Store:
                case COp::Rmw:
                case COp::CmpXchg:
                    in.loc = cellAt(in.b, static_cast<unsigned>(in.imm), false);
                    if (in.op == COp::Rmw && (in.imm2 & kAccessMarked) != 0) zneRmws_ = true;
                    break;
                case COp::Builtin:
                    if (in.c < 1) break;
                    switch (static_cast<Builtin>(in.sub)) {
                        case Builtin::MutexLock:
                        case Builtin::MutexUnlock:
                            in.loc = cellAt(f.args[static_cast<std::size_t>(in.b)], 0, true);
                            break;
                        case Builtin::LoadAwait:
                        case Builtin::XchgAwait:
                            in.loc = cellAt(f.args[static_cast<std::size_t>(in.b)],
                                            in.w <= 8 ? 1 : in.w / 8, false);
                            break;
                        default:
                            break;
                    }
                    break;
                default:
                    break;
            }
        }
}

// What traces show beyond names and positions: assertion texts, call stacks, symbolic pointers,
// the program's nondet inputs.
void CodeProgram::setDisplayInfo(ProgramInfo& info) {
    info.messages = mod_.messages;
    std::vector<std::string> functions;
    for (const auto& f : mod_.functions) functions.push_back(f.name);
    contexts_ = std::make_shared<CallContexts>(std::move(functions));
    if (opts_.callStacks) info.contexts = contexts_;
    names_ = std::make_shared<CodeValueNames>(mod_, kDead, capacity_);
    info.values = names_;
    for (const auto& f : mod_.functions)
        for (const auto& in : f.code)
            if (in.op == COp::Builtin && static_cast<Builtin>(in.sub) == Builtin::Nondet)
                info.hasNondet = true;
    if (opts_.nondetDomain) info.nondetDomain = opts_.nondetDomain;
}

void CodeProgram::addObjectName(std::int64_t id, std::uint64_t base, std::int64_t kind,
                                std::uint32_t size, SourcePos pos, ThreadId t) const {
    const std::string what = kind == kMallocKind   ? "malloc"
                             : kind == kCallocKind ? "calloc"
                             : kind <= tlsKind(0)  ? "thread-local"
                                                   : "stack";
    names_->addObject(id, {dyn_.back().name, what, size, pos, t}, base);
}

ThreadId CodeProgram::threadId(ThreadId parent, int n, std::int32_t fn) const {
    // The answer for (parent, n) never changes once given (ids are never taken back; a key that
    // found no id finds none later, as nextThread_ only grows): after the first time it is read
    // from threadIdFast_, with no lock and no write.
    const auto maxT = static_cast<std::size_t>(opts_.maxThreads);
    std::atomic<ThreadId>* fast =
        parent >= 0 && static_cast<std::size_t>(parent) < maxT && n >= 0 &&
                static_cast<std::size_t>(n) < maxT
            ? &threadIdFast_[static_cast<std::size_t>(parent) * maxT + static_cast<std::size_t>(n)]
            : nullptr;
    if (fast)
        if (const ThreadId known = fast->load(std::memory_order_acquire); known != 0) return known;
    std::lock_guard lk(mu_);
    ThreadId t = -1;
    if (auto it = threadIds_.find({parent, n}); it != threadIds_.end()) {
        t = it->second;
    } else if (nextThread_ < opts_.maxThreads) {
        t = nextThread_++;
        threadIds_[{parent, n}] = t;
        infoMut_->threadNames[static_cast<std::size_t>(t)] =
            "t" + std::to_string(t) + ":" + mod_.functions[static_cast<std::size_t>(fn)].name;
    }
    if (fast) fast->store(t, std::memory_order_release);
    return t;
}

CodeProgram::DynRef CodeProgram::dynamicObject(ThreadId t, int n, std::uint32_t size,
                                               std::int64_t kind, SourcePos pos,
                                               std::uint64_t align) const {
    std::lock_guard lk(mu_);
    auto key = std::make_tuple(t, n, size, kind, align);
    auto it = dynIds_.find(key);
    if (it != dynIds_.end()) return it->second;
    const std::int64_t id = mod_.firstDynamicObject() + static_cast<std::int64_t>(dyn_.size());
    if (id >= mod_.maxObjects)
        throw InputError("too many allocations (" + std::to_string(mod_.maxObjects) + " objects" +
                         (mod_.objShift < 32 ? " with 32-bit pointers)" : ")"));
    const std::string thread = infoMut_->threadNames[static_cast<std::size_t>(t)].substr(
        0, infoMut_->threadNames[static_cast<std::size_t>(t)].find(':'));
    if (kind <= tlsKind(0)) {
        const auto g = static_cast<std::size_t>(tlsKind(0) - kind);
        dyn_.push_back({mod_.globals[g].name + "@" + thread, static_cast<std::int64_t>(g)});
    } else {
        const std::string what = kind == kMallocKind ? "malloc"
                                 : kind == kCallocKind
                                     ? "calloc"
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

std::string CodeProgram::objectName(std::int64_t obj) const {
    if (obj >= mod_.firstDynamicObject())
        return dyn_[static_cast<std::size_t>(obj - mod_.firstDynamicObject())].name;
    if (obj > static_cast<std::int64_t>(mod_.functions.size()))
        return mod_
            .globals[static_cast<std::size_t>(obj - 1 -
                                              static_cast<std::int64_t>(mod_.functions.size()))]
            .name;
    return "?";
}

LocId CodeProgram::cell(std::int64_t obj, std::uint32_t off, unsigned size, bool mutex,
                        SourcePos pos, bool sync) const {
    std::lock_guard lk(mu_);
    auto& cells = cells_[static_cast<std::size_t>(obj)];
    auto it = cells.find(off);
    if (it != cells.end()) {
        const LocId l = it->second;
        const bool isM = infoMut_->isMutex[static_cast<std::size_t>(l)];
        if (!mutex && size == 0 && isM) return l;  // a free of a block that starts with a mutex
        if (mutex != isM)
            throw UnsupportedError(
                where(pos) +
                (mutex ? "'" + infoMut_->locationNames[static_cast<std::size_t>(l)] +
                             "' used as a mutex but it is plain memory"
                       : "memory access to the mutex '" +
                             infoMut_->locationNames[static_cast<std::size_t>(l)] + "'"));
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
            throw UnsupportedError(
                where(pos) + "mixed-size access: " + std::to_string(size) + " bytes at '" +
                infoMut_->locationNames[static_cast<std::size_t>(l)] + "', a location of " +
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
        throw UnsupportedError(where(pos) + "access of " + std::to_string(size) +
                               " bytes at offset " + std::to_string(off) + " of '" +
                               objectName(obj) + "' does not match its declared layout");
    const unsigned sz = mutex ? (size ? size : 8) : size;  // (a spin lock is a 4-byte mutex)
    auto next = cells.lower_bound(off);
    if (next != cells.end() && next->first < off + sz)
        throw UnsupportedError(where(pos) + "overlapping accesses of different sizes to '" +
                               objectName(obj) + "' at offsets " + std::to_string(off) + " and " +
                               std::to_string(next->first));
    if (next != cells.begin()) {
        auto prev = std::prev(next);
        const LocId pl = prev->second;
        const unsigned psz = infoMut_->isMutex[static_cast<std::size_t>(pl)]
                                 ? 8
                                 : locSize_[static_cast<std::size_t>(pl)];
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

bool CodeProgram::usesAssignment(const Execution& e) const {
    const auto* ce = dynamic_cast<const CodeExecution*>(&e);
    return !ce || ce->usesAssignedChoices();
}

std::unique_ptr<Execution> CodeProgram::newExecution() const {
    return std::make_unique<CodeExecution>(*this);
}

}  // namespace porlab::code

namespace porlab {

std::shared_ptr<Program> makeCodeProgram(code::CModule mod, const CodeOptions& opts,
                                         const std::string& name) {
    return std::make_shared<code::CodeProgram>(std::move(mod), opts, name);
}

std::string disassembleCode(const Program& program) {
    if (auto* c = dynamic_cast<const code::CodeProgram*>(&program))
        return code::disassemble(c->mod());
    return "";
}

std::vector<std::string> codeProgramWarnings(const Program& program) {
    if (auto* c = dynamic_cast<const code::CodeProgram*>(&program)) return c->warnings();
    return {};
}

}  // namespace porlab
