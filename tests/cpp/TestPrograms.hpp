// SPDX-License-Identifier: MIT
// The papers' small programs, built in C++ for the GoogleTest suites (the Python versions live in
// examples/; tests on both sides pin the same numbers).
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "porlab/program/SpecBuilder.hpp"

namespace porlab::testprog {

// RVF paper Figure 1: thr1 = w(x,1) w(y,1); thr2 = w(x,1) w(y,1) r(x); thr3 = ... r(y).
inline std::shared_ptr<Program> rvfFig1() {
    SpecBuilder b("rvf_fig1");
    auto x = b.var("x"), y = b.var("y");
    b.thread("thr1").store(x, 1).store(y, 1);
    b.thread("thr2").store(x, 1).store(y, 1).load(-1, x);
    b.thread("thr3").store(x, 1).store(y, 1).load(-1, y);
    return b.build();
}

// RVF Figure 13c: n threads each doing w(x,1); r(x).
inline std::shared_ptr<Program> rvfFig13c(int n) {
    SpecBuilder b("rvf_fig13c");
    auto x = b.var("x");
    for (int i = 0; i < n; ++i) b.thread("t" + std::to_string(i)).store(x, 1).load(-1, x);
    return b.build();
}

// Store buffering: both threads may read 0.
inline std::shared_ptr<Program> storeBuffering() {
    SpecBuilder b("sb");
    auto x = b.var("x"), y = b.var("y");
    b.thread("t0").store(x, 1).load(-1, y);
    b.thread("t1").store(y, 1).load(-1, x);
    return b.build();
}

// Godot Figure 2 (b)/(c): p waits for x == 1 by assume or await, then reads y; q: y=42; x=1.
inline std::shared_ptr<Program> godotFig2(bool useAwait) {
    SpecBuilder b(useAwait ? "godot_fig2c" : "godot_fig2b");
    auto x = b.var("x"), y = b.var("y");
    auto& p = b.thread("p");
    int a = p.reg("a");
    if (useAwait) {
        p.await(a, x, AwaitCond::EQ, 1);
    } else {
        int c = p.reg("c");
        p.load(a, x).binImm(c, BinOp::Eq, a, 1).assume(c);
    }
    p.load(-1, y);
    b.thread("q").store(y, 42).store(x, 1);
    return b.build();
}

// Godot Figure 5: p,q: x += 1; r: x += 3; s: await(x == 3); y := 1. FAA results unused.
inline std::shared_ptr<Program> godotFig5() {
    SpecBuilder b("godot_fig5");
    auto x = b.var("x"), y = b.var("y");
    b.thread("p").faa(-1, x, 1, false);
    b.thread("q").faa(-1, x, 1, false);
    b.thread("r").faa(-1, x, 3, false);
    b.thread("s").await(-1, x, AwaitCond::EQ, 3).store(y, 1);
    return b.build();
}

// LAPOR N-READS-LOCK: N threads lock(l); a := x; unlock(l).
inline std::shared_ptr<Program> nReadsLock(int n, bool locked = true) {
    SpecBuilder b(locked ? "n_reads_lock" : "n_reads");
    auto x = b.var("x");
    auto l = b.mutex("l");
    for (int i = 0; i < n; ++i) {
        auto& t = b.thread("t" + std::to_string(i));
        if (locked) t.lock(l);
        t.load(-1, x);
        if (locked) t.unlock(l);
    }
    return b.build();
}

// Godot Figure 3: main spawns p (x:=1; y:=1) and q (x:=2; y:=2), joins both and asserts
// |x - y| < 2. Four executions, one per final valuation of (x, y).
inline std::shared_ptr<Program> godotFig3() {
    SpecBuilder b("godot_fig3");
    auto x = b.var("x"), y = b.var("y");
    auto& m = b.thread("main");
    auto& p = b.thread("p", false);
    auto& q = b.thread("q", false);
    p.store(x, 1).store(y, 1);
    q.store(x, 2).store(y, 2);
    int rx = m.reg("x"), ry = m.reg("y"), d = m.reg("d"), c1 = m.reg(), c2 = m.reg(), c = m.reg();
    m.spawn(p.id()).spawn(q.id()).join(p.id()).join(q.id()).load(rx, x).load(ry, y);
    m.bin(d, BinOp::Sub, rx, ry).binImm(c1, BinOp::Lt, d, 2).binImm(c2, BinOp::Gt, d, -2);
    m.bin(c, BinOp::LAnd, c1, c2).assertTrue(c);
    return b.build();
}

// Godot Figure 4: p: x := 1; x := 0. q: await(x == 0); y := 1. Two traces.
inline std::shared_ptr<Program> godotFig4() {
    SpecBuilder b("godot_fig4");
    auto x = b.var("x"), y = b.var("y");
    b.thread("p").store(x, 1).store(x, 0);
    b.thread("q").await(-1, x, AwaitCond::EQ, 0).store(y, 1);
    return b.build();
}

// Two threads taking two mutexes in opposite orders: two complete classes and a deadlock.
inline std::shared_ptr<Program> lockDeadlock() {
    SpecBuilder b("lock_deadlock");
    auto m1 = b.mutex("a"), m2 = b.mutex("b");
    b.thread("t0").lock(m1).lock(m2).unlock(m2).unlock(m1);
    b.thread("t1").lock(m2).lock(m1).unlock(m1).unlock(m2);
    return b.build();
}

// Nested spawns and joins racing on x and y.
inline std::shared_ptr<Program> spawnJoinChain() {
    SpecBuilder b("spawn_join_chain");
    auto x = b.var("x"), y = b.var("y");
    auto& m = b.thread("main");
    auto& a = b.thread("a", false);
    auto& c = b.thread("b", false);
    m.spawn(a.id()).store(x, 1).join(a.id()).load(-1, x);
    a.spawn(c.id()).load(-1, x).store(y, 1).join(c.id());
    c.store(x, 2).load(-1, y);
    return b.build();
}

// A child spawned after a write whose presence depends on a read: t0: a = v; if (a != 1) v = 1;
// v = 2; spawn child; child: r = v; t1: v = 1. Where a reads 1, t0's spawn is one step earlier
// than where a reads 0: rf, rvf, value-centric and data-centric lost a class (the child's
// visible writes cached from the other branch; random seeds 956 and 1379).
inline std::shared_ptr<Program> spawnAfterBranch() {
    SpecBuilder b("spawn_after_branch");
    auto v = b.var("v");
    auto& t0 = b.thread("t0");
    auto& t1 = b.thread("t1");
    auto& child = b.thread("child", false);
    int a = t0.reg("a"), c = t0.reg("c");
    t0.load(a, v).binImm(c, BinOp::Eq, a, 1);
    const int j = t0.jumpIfNonZero(c);
    t0.store(v, 1);
    t0.patchHere(j);
    t0.store(v, 2).spawn(child.id());
    t1.store(v, 1);
    child.load(child.reg("r"), v);
    return b.build();
}

// The assertion only fails after the other thread has done two writes: a DPOR explorer must
// keep exploring other threads' steps before a failing step.
inline std::shared_ptr<Program> errorAfterOtherThread() {
    SpecBuilder b("error_after_other_thread");
    auto x = b.var("x"), y = b.var("y");
    auto& t0 = b.thread("t0");
    int r = t0.reg(), c = t0.reg();
    t0.load(r, x).binImm(c, BinOp::Eq, r, 0).assertTrue(c);
    b.thread("t1").store(y, 1).store(x, 1);
    return b.build();
}

// A bounded spin loop (load until x == 1, at most 2 iterations) against a writer: loop-bound
// blocked executions next to complete ones.
inline std::shared_ptr<Program> boundedSpin() {
    SpecBuilder b("bounded_spin");
    auto x = b.var("x"), y = b.var("y");
    auto& s = b.thread("spinner");
    int r = s.reg("r"), c = s.reg("c"), n = s.reg("n");
    const int top = s.here();
    s.loopCheck(n, 2).load(r, x).binImm(c, BinOp::Eq, r, 1);
    const int j = s.jumpIfNonZero(c);
    s.jumpTo(top);
    s.patchHere(j);
    s.load(-1, y);
    b.thread("w").store(y, 1).store(x, 1);
    return b.build();
}

// A child without visible operations (it ends as it is spawned), joined by its parent while
// another thread races on x; plus a fault (division by a loaded zero) in a third thread.
inline std::shared_ptr<Program> emptyChildAndFault() {
    SpecBuilder b("empty_child_and_fault");
    auto x = b.var("x");
    auto& m = b.thread("main");
    auto& c = b.thread("child", false);
    c.set(c.reg(), 1);
    m.spawn(c.id()).store(x, 1).join(c.id()).load(-1, x);
    auto& d = b.thread("div");
    int r = d.reg(), q = d.reg();
    d.load(r, x).bin(q, BinOp::Div, d.constant(6), r);
    b.thread("w").store(x, 0);
    return b.build();
}

// A test-and-set spin lock built from xchg-await, protecting a counter, with an unlock by store.
inline std::shared_ptr<Program> xchgAwaitLock(int n) {
    SpecBuilder b("xchg_await_lock");
    auto l = b.var("l"), cnt = b.var("cnt");
    for (int i = 0; i < n; ++i) {
        auto& t = b.thread("t" + std::to_string(i));
        int r = t.reg();
        t.xchgAwait(-1, l, AwaitCond::EQ, 0, 1).load(r, cnt).binImm(r, BinOp::Add, r, 1);
        t.storeReg(cnt, r).store(l, 0);
    }
    return b.build();
}

// SV-COMP fib_bench as in LAPOR Table 2 (every __VERIFIER_atomic section is one lock l), i = j = 1:
// t1: num × {lock; i = i + j; unlock}; t2: num × {lock; j = j + i; unlock};
// main: {lock; read i; unlock}, {lock; read j; unlock}. Every order of the 2·num+2 critical
// sections is its own reads-from class: (2num+2)!/(num!·num!·2!) (16632 for num = 5).
// One fib_bench worker: num × {lock l; dst = dst + other; unlock l}.
inline void fibSections(SpecBuilder::Thread& t, int num, LocId l, LocId dst, LocId other) {
    const int a = t.reg(), c = t.reg();
    for (int k = 0; k < num; ++k)
        t.lock(l).load(a, dst).load(c, other).bin(a, BinOp::Add, a, c).storeReg(dst, a).unlock(l);
}

inline std::shared_ptr<Program> fibBench(int num) {
    SpecBuilder b("fib_bench");
    auto i = b.var("i", 1), j = b.var("j", 1);
    auto l = b.mutex("l");
    fibSections(b.thread("t1"), num, l, i, j);
    fibSections(b.thread("t2"), num, l, j, i);
    auto& m = b.thread("main");
    int ri = m.reg("i"), rj = m.reg("j");
    m.lock(l).load(ri, i).unlock(l).lock(l).load(rj, j).unlock(l);
    return b.build();
}

// Every hand-written program above, named: the list the conformance suites run explorers on.
// Three threads, a reader between two critical sections: T0 `lock; r = x; unlock` ∥ T1
// `s = x; x = 3` ∥ T2 `lock; x = 4; x = 5; unlock`. 9 lock-aware classes; lapor lost r = 3,
// s = 4 (T2's section before T0's) while only an lb-minimal open section could move (Lapor.cpp).
// blocked: T1 then awaits x == 9 for good: 9 blocked classes, the same one lost (a deadlock).
inline std::shared_ptr<Program> readBetweenSections(bool blocked = false) {
    SpecBuilder b(blocked ? "read_between_sections_blocked" : "read_between_sections");
    const LocId x = b.var("x"), m = b.mutex("m");
    b.thread("t0").lock(m).load(-1, x).unlock(m);
    auto& t1 = b.thread("t1").load(-1, x).store(x, 3);
    if (blocked) t1.await(-1, x, AwaitCond::EQ, 9);
    b.thread("t2").lock(m).store(x, 4).store(x, 5).unlock(m);
    return b.build();
}

inline std::vector<std::pair<std::string, std::shared_ptr<Program>>> handWrittenPrograms() {
    return {
        {"rvfFig1", rvfFig1()},
        {"rvfFig13c(3)", rvfFig13c(3)},
        {"storeBuffering", storeBuffering()},
        {"godotFig2(assume)", godotFig2(false)},
        {"godotFig2(await)", godotFig2(true)},
        {"godotFig3", godotFig3()},
        {"godotFig4", godotFig4()},
        {"godotFig5", godotFig5()},
        {"nReadsLock(3)", nReadsLock(3)},
        {"nReads(3)", nReadsLock(3, false)},
        {"lockDeadlock", lockDeadlock()},
        {"spawnJoinChain", spawnJoinChain()},
        {"spawnAfterBranch", spawnAfterBranch()},
        {"errorAfterOtherThread", errorAfterOtherThread()},
        {"boundedSpin", boundedSpin()},
        {"emptyChildAndFault", emptyChildAndFault()},
        {"xchgAwaitLock(3)", xchgAwaitLock(3)},
        {"fibBench(2)", fibBench(2)},
        {"readBetweenSections", readBetweenSections()},
        {"readBetweenSections(blocked)", readBetweenSections(true)},
    };
}

}  // namespace porlab::testprog
