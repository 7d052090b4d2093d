// SPDX-License-Identifier: MIT
// The interpreter of the decoded form (program/Code.hpp) without the C front end: modules written
// by hand, run through the Program / Execution interface and through an explorer. These tests
// build and run with -DPORLAB_WITH_LLVM=OFF (`make cpp-nollvm`).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "TestPrograms.hpp"
#include "porlab/core/Errors.hpp"
#include "porlab/explore/Explorer.hpp"
#include "porlab/program/CodeProgramApi.hpp"

namespace porlab {
namespace {

using namespace code;

// A module of hand-written functions over one 8-byte global `x` (initially 0).
class ModuleBuilder {
  public:
    ModuleBuilder() {
        mod_.files = {"", "hand.c"};
        CGlobal x;
        x.name = x.displayName = "x";
        x.size = 8;
        x.bytes.assign(8, 0);
        x.cells.push_back({0, 8, false, 0, "x"});
        mod_.globals.push_back(x);
    }
    // Operand of a constant.
    std::int32_t constant(Value v) {
        mod_.constants.push_back(v);
        return ~static_cast<std::int32_t>(mod_.constants.size() - 1);
    }
    std::int32_t addFunction(const std::string& name, std::int32_t slots) {
        CFunction f;
        f.name = name;
        f.numSlots = f.stateSlots = slots;
        f.defined = true;
        mod_.functions.push_back(f);
        return static_cast<std::int32_t>(mod_.functions.size() - 1);
    }
    CFunction& fn(std::int32_t f) { return mod_.functions[static_cast<std::size_t>(f)]; }
    // Appends an instruction on line `line`; returns its pc.
    std::int32_t emit(std::int32_t f, CInstr in, std::uint32_t line) {
        auto& code = fn(f).code;
        in.pos = {1, line};
        in.next = static_cast<std::int32_t>(code.size()) + 1;
        code.push_back(in);
        return static_cast<std::int32_t>(code.size() - 1);
    }
    std::int32_t builtin(std::int32_t f, Builtin b, std::vector<std::int32_t> args,
                         std::int32_t dst, std::uint32_t line, std::int64_t imm = 0) {
        CInstr in;
        in.op = COp::Builtin;
        in.sub = static_cast<std::uint8_t>(b);
        in.a = dst;
        in.b = static_cast<std::int32_t>(fn(f).args.size());
        in.c = static_cast<std::int32_t>(args.size());
        in.imm = imm;
        for (auto a : args) fn(f).args.push_back(a);
        return emit(f, in, line);
    }
    // Lays out the static objects (functions, then globals) and returns the module.
    CModule finish(std::int32_t mainFunction) {
        mod_.mainFunction = mainFunction;
        mod_.staticBase.assign(static_cast<std::size_t>(mod_.firstDynamicObject()), 0);
        std::uint64_t base = 16;
        for (std::size_t o = 1; o < mod_.staticBase.size(); ++o, base += 16)
            mod_.staticBase[o] = base;
        mod_.dynamicBase = 1 << 16;
        return mod_;
    }
    Value pointerTo(std::int64_t obj) const {
        return static_cast<Value>(mod_.pointer(obj, 16 * static_cast<std::uint64_t>(obj)));
    }
    const CModule& mod() const { return mod_; }

  private:
    CModule mod_;
};

CInstr op(COp o, std::int32_t a = -1, std::int32_t b = -1, std::int32_t c = -1) {
    CInstr in;
    in.op = o;
    in.a = a;
    in.b = b;
    in.c = c;
    return in;
}
CInstr access(COp o, std::int32_t a, std::int32_t b, std::int32_t c) {
    CInstr in = op(o, a, b, c);
    in.imm = 8;
    in.w = 64;
    return in;
}

// main: pthread_create(&h, 0, worker, 0); x = 1; pthread_join(h, 0); r = x; assert(r == 1);
// worker: x = 2;
// The worker's write comes before main's (x = 1 at the read: no failure) or after it (x = 2:
// the assertion fails): two interleavings, one of them failing.
CModule lostUpdate() {
    ModuleBuilder mb;
    const auto main = mb.addFunction("main", 4);  // r0 = &h, r1 = h, r2 = x read, r3 = r2 == 1
    const auto worker = mb.addFunction("worker", 1);
    const Value xp = mb.pointerTo(mb.mod().globalObject(0));
    const auto xptr = mb.constant(xp);
    const auto zero = mb.constant(0);
    const auto one = mb.constant(1);
    const auto two = mb.constant(2);
    const auto wfn =
        mb.constant(mb.pointerTo(mb.mod().functionObject(static_cast<std::size_t>(worker))));
    CInstr alloca = op(COp::AllocaLocal, 0);
    alloca.imm = 8;
    mb.emit(main, alloca, 10);
    mb.builtin(main, Builtin::ThreadCreate, {0, zero, wfn, zero}, -1, 11);
    mb.emit(main, access(COp::Store, -1, xptr, one), 12);
    mb.emit(main, access(COp::Load, 1, 0, -1), 13);
    mb.builtin(main, Builtin::ThreadJoin, {1, zero}, -1, 13);
    mb.emit(main, access(COp::Load, 2, xptr, -1), 14);
    CInstr cmp = op(COp::Cmp, 3, 2, one);
    cmp.sub = static_cast<std::uint8_t>(CPred::Eq);
    mb.emit(main, cmp, 15);
    const std::int32_t br = mb.emit(main, op(COp::Branch, -1, 3, -1), 15);
    const std::int32_t fail = mb.builtin(main, Builtin::AssertFail, {}, -1, 15, /*imm=*/1);
    mb.emit(main, op(COp::Unreachable), 15);
    const std::int32_t ok = mb.emit(main, op(COp::Ret), 16);
    mb.fn(main).code[static_cast<std::size_t>(br)].a = ok;
    mb.fn(main).code[static_cast<std::size_t>(br)].c = fail;
    mb.emit(worker, access(COp::Store, -1, xptr, two), 20);
    mb.emit(worker, op(COp::Ret, -1, zero), 21);
    CModule m = mb.finish(main);
    m.messages.push_back("assertion `r == 1' failed");
    return m;
}

TEST(CodeInterpreter, RunsThroughTheExecutionInterface) {
    auto p = makeCodeProgram(lostUpdate(), {}, "lost-update");
    auto e = p->newExecution();
    EXPECT_TRUE(e->reset().empty());
    ASSERT_EQ(e->status(0), ThreadStatus::Ready);
    EXPECT_EQ(e->pending(0).kind, EventKind::Spawn);
    auto ev = e->step(0);
    ASSERT_FALSE(ev.empty());
    const ThreadId child = static_cast<ThreadId>(ev[0].aux);
    EXPECT_EQ(child, 1);
    EXPECT_EQ(e->status(child), ThreadStatus::Ready);
    EXPECT_EQ(e->pending(child).kind, EventKind::Write);
    EXPECT_EQ(e->pending(child).wval, 2);
    EXPECT_EQ(e->pending(0).kind, EventKind::Write);
    EXPECT_EQ(e->pending(0).pos.line, 12U);
    // main's join is not enabled before the worker finished
    e->step(0);
    EXPECT_EQ(e->pending(0).kind, EventKind::Join);
    EXPECT_FALSE(e->pending(0).enabled);
    // worker writes last: main reads 2 and fails
    ev = e->step(child);
    EXPECT_EQ(e->status(child), ThreadStatus::Finished);
    EXPECT_TRUE(e->pending(0).enabled);
    e->step(0);
    EXPECT_EQ(e->pending(0).kind, EventKind::Read);
    EXPECT_EQ(e->pending(0).rval, 2);
    ev = e->step(0);
    EXPECT_EQ(e->status(0), ThreadStatus::Failed);
    EXPECT_TRUE(e->failed());
    const auto fails = std::count_if(
        ev.begin(), ev.end(), [](const Event& x) { return x.kind == EventKind::AssertFail; });
    EXPECT_EQ(fails, 1);
}

TEST(CodeInterpreter, ForcedReadValueSteersTheThread) {
    auto p = makeCodeProgram(lostUpdate(), {}, "lost-update");
    auto e = p->newExecution();
    e->reset();
    e->step(0);  // spawn
    e->step(1);  // worker: x = 2
    e->step(0);  // main: x = 1
    e->step(0);  // join
    // memory holds 1, but a value-based explorer forces the read to return 2
    EXPECT_EQ(e->pending(0).rval, 1);
    e->step(0, Value{2});
    EXPECT_EQ(e->status(0), ThreadStatus::Failed);
}

TEST(CodeInterpreter, SnapshotRestoresTheState) {
    auto p = makeCodeProgram(lostUpdate(), {}, "lost-update");
    auto e = p->newExecution();
    e->reset();
    e->step(0);  // spawn
    Snapshot s;
    e->save(s);
    e->step(0);  // x = 1
    e->step(1);  // x = 2, worker ends
    EXPECT_EQ(e->status(1), ThreadStatus::Finished);
    e->restore(s);
    EXPECT_EQ(e->status(1), ThreadStatus::Ready);
    EXPECT_EQ(e->pending(1).kind, EventKind::Write);
    EXPECT_EQ(e->pending(0).kind, EventKind::Write);
    EXPECT_EQ(e->pending(0).pos.line, 12U);
    e->step(1);
    e->step(0);
    e->step(0);
    e->step(0);  // read x: 1, the assertion holds
    EXPECT_EQ(e->status(0), ThreadStatus::Finished);
    EXPECT_FALSE(e->failed());
}

// A finished thread is saved as a short record (Snapshots.cpp): what others still see of it (its
// status, its exit value in the outcome) survives a restore into an execution where it was
// still running, and the run goes on as the saved one does.
TEST(CodeInterpreter, SnapshotKeepsAFinishedThread) {
    CModule m = lostUpdate();
    m.constants.push_back(7);  // the worker returns 7 (its exit value, part of the outcome)
    m.functions[1].code.back().b = ~static_cast<std::int32_t>(m.constants.size() - 1);
    auto p = makeCodeProgram(std::move(m), {}, "lost-update");
    auto e = p->newExecution();
    e->reset();
    e->step(0);  // spawn
    e->step(1);  // x = 2, worker ends
    ASSERT_EQ(e->status(1), ThreadStatus::Finished);
    Snapshot s;
    e->save(s);
    auto f = p->newExecution();
    f->reset();
    f->step(0);  // spawn: the worker is ready here
    ASSERT_EQ(f->status(1), ThreadStatus::Ready);
    f->restore(s);
    EXPECT_EQ(f->status(1), ThreadStatus::Finished);
    EXPECT_EQ(f->status(0), ThreadStatus::Ready);
    EXPECT_EQ(f->outcome(), e->outcome());
    for (auto* x : {e.get(), f.get()}) {
        x->step(0);                          // x = 1
        EXPECT_TRUE(x->pending(0).enabled);  // the join: the worker has finished
        x->step(0);
        x->step(0);  // read x: 1
    }
    EXPECT_EQ(f->status(0), ThreadStatus::Finished);
    EXPECT_FALSE(f->failed());
    EXPECT_EQ(f->outcome(), e->outcome());
    const auto o = f->outcome();
    EXPECT_NE(std::find(o.begin(), o.end(), 7), o.end());  // the worker's exit value
}

// Steps the first enabled thread of `order` until none is enabled. Returns the events; with
// `snaps`, saves a snapshot before each step and the number of events emitted before it.
std::vector<Event> runFrom(Execution& e, const std::vector<ThreadId>& order,
                           std::vector<std::pair<Snapshot, std::size_t>>* snaps) {
    std::vector<Event> out;
    for (;;) {
        ThreadId t = -1;
        for (const ThreadId c : order)
            if (c < e.maxThreads() && e.enabled(c)) {
                t = c;
                break;
            }
        if (t < 0) return out;
        if (snaps) {
            snaps->emplace_back(Snapshot{}, out.size());
            e.save(snaps->back().first);
        }
        for (const Event& ev : e.step(t)) out.push_back(ev);
    }
}

// A snapshot of any state of a run, restored into an execution in any other state (threads
// not started, running, finished; with and without frames below the running one or private
// stack), goes on as the saved run did: same events, same outcome. Threads whose state is one
// frame's registers are saved as flat records (Snapshots.cpp), the others in full; a restore
// turns one kind into the other.
TEST(CodeInterpreter, SnapshotOfEveryStateRestoresAnywhere) {
    std::vector<std::pair<std::string, std::shared_ptr<Program>>> programs = {
        {"lost-update", makeCodeProgram(lostUpdate(), {}, "lost-update")},
        {"godot_fig3", testprog::godotFig3()},
        {"spawn_join_chain", testprog::spawnJoinChain()},
        {"n_reads_lock", testprog::nReadsLock(3)}};
    const std::vector<std::vector<ThreadId>> orders = {{0, 1, 2, 3}, {3, 2, 1, 0}, {1, 0, 3, 2}};
    for (const auto& [name, p] : programs) {
        for (const auto& order : orders) {
            auto e = p->newExecution();
            e->reset();
            std::vector<std::pair<Snapshot, std::size_t>> snaps;
            const std::vector<Event> full = runFrom(*e, order, &snaps);
            const auto outcome = e->outcome();
            ASSERT_GE(snaps.size(), 3U) << name;
            for (const auto& other : orders) {
                for (std::size_t k = 0; k < snaps.size(); ++k) {
                    // f in some other state: the end of another schedule, or half-way through it
                    auto f = p->newExecution();
                    f->reset();
                    if (k % 2 == 0) {
                        runFrom(*f, other, nullptr);
                    } else {
                        for (std::size_t n = 0; n < k; ++n)
                            for (const ThreadId c : other)
                                if (c < f->maxThreads() && f->enabled(c)) {
                                    f->step(c);
                                    break;
                                }
                    }
                    f->restore(snaps[k].first);
                    const std::vector<Event> tail = runFrom(*f, order, nullptr);
                    const std::vector<Event> expected(
                        full.begin() + static_cast<std::ptrdiff_t>(snaps[k].second), full.end());
                    EXPECT_EQ(tail, expected) << name << " snapshot " << k;
                    EXPECT_EQ(f->outcome(), outcome) << name << " snapshot " << k;
                    EXPECT_EQ(f->failed(), e->failed()) << name;
                }
            }
        }
    }
}

// A lowered builder program's threads are flat (CodeProgram::flatThreads): a snapshot is every
// thread's fixed-size part and one block of all frames and registers, the same size in every
// state (a thread not started yet, running or finished), which save copies with no branch per
// thread. A C program's records follow its threads' frames, so its size changes.
TEST(CodeInterpreter, BuilderSnapshotsAreOneFixedSizeBlock) {
    auto sizes = [](const Program& p) {
        auto e = p.newExecution();
        e->reset();
        std::vector<std::pair<Snapshot, std::size_t>> snaps;
        runFrom(*e, {0, 1, 2, 3}, &snaps);
        std::vector<std::size_t> out;
        for (const auto& [s, n] : snaps) out.push_back(s.words.size());
        return out;
    };
    const auto chain = sizes(*testprog::spawnJoinChain());
    ASSERT_GE(chain.size(), 3U);
    EXPECT_EQ(std::count(chain.begin(), chain.end(), chain[0]),
              static_cast<std::ptrdiff_t>(chain.size()));
    const auto c = sizes(*makeCodeProgram(lostUpdate(), {}, "lost-update"));
    EXPECT_NE(std::count(c.begin(), c.end(), c[0]), static_cast<std::ptrdiff_t>(c.size()));
}

// A snapshot of a thread not started yet (here taken after a reset, when the block of frames and
// registers still holds the run before's) restores it as not started into an execution where it
// ran: the outcome shows the program's initial values for it, not registers, and the run goes on
// as from the saved state.
TEST(CodeInterpreter, BuilderSnapshotOfAThreadNotStartedYet) {
    SpecBuilder b("spawn_reads");
    auto x = b.var("x");
    auto& m = b.thread("main");
    auto& c = b.thread("child", false);
    const int r = c.reg();
    m.store(x, 5).spawn(c.id()).join(c.id());
    c.load(r, x);
    auto p = b.build();
    auto e = p->newExecution();
    e->reset();
    runFrom(*e, {1, 0}, nullptr);  // the child reads 5
    e->reset();
    const auto initial = e->outcome();
    Snapshot s;
    e->save(s);
    auto f = p->newExecution();
    f->reset();
    const std::vector<Event> events = runFrom(*f, {1, 0}, nullptr);
    ASSERT_EQ(f->status(1), ThreadStatus::Finished);
    f->restore(s);
    EXPECT_EQ(f->status(1), ThreadStatus::NotStarted);
    EXPECT_EQ(f->outcome(), initial);
    EXPECT_EQ(runFrom(*f, {1, 0}, nullptr), events);
}

TEST(CodeInterpreter, NaiveFindsBothInterleavings) {
    auto p = makeCodeProgram(lostUpdate(), {}, "lost-update");
    ExploreOptions o;
    o.checkRaces = false;
    const ExploreResult r = explore(*p, "naive", o);
    // worker's write before main's or between main's write and its join
    EXPECT_EQ(r.complete, 1U);
    EXPECT_EQ(r.errors, 1U);
    EXPECT_EQ(r.blocked, 0U);
}

TEST(CodeInterpreter, BlockThreadAndRelaxedLocksAreCapabilities) {
    auto p = makeCodeProgram(lostUpdate(), {}, "lost-update");
    auto e = p->newExecution();
    EXPECT_TRUE(e->setRelaxedLocks(true));
    EXPECT_TRUE(e->setZneAwaits(true));
    e->reset();
    e->step(0);  // spawn
    auto ev = e->blockThread(1, BlockCause::Zne);
    ASSERT_EQ(ev.size(), 1U);
    EXPECT_EQ(ev[0].kind, EventKind::AssumeBlock);
    EXPECT_EQ(e->status(1), ThreadStatus::Blocked);
    EXPECT_TRUE(e->blockThread(1, BlockCause::Zne).empty());  // no longer ready
}

TEST(CodeInterpreter, DisassemblesAndRejectsBadOptions) {
    auto p = makeCodeProgram(lostUpdate(), {}, "lost-update");
    const std::string listing = disassembleCode(*p);
    EXPECT_NE(listing.find("main"), std::string::npos);
    EXPECT_NE(listing.find("worker"), std::string::npos);
    EXPECT_NE(listing.find("store"), std::string::npos);
    CodeOptions bad;
    bad.maxThreads = 0;
    EXPECT_THROW((void)makeCodeProgram(lostUpdate(), bad, "bad"), InputError);
    EXPECT_EQ(p->info()->threadNames.at(0), "main");
}

}  // namespace
}  // namespace porlab
