// SPDX-License-Identifier: MIT
// The papers' small programs, built in C++ for the GoogleTest suites (the Python versions live in
// examples/; tests on both sides pin the same numbers).
#pragma once

#include <memory>

#include "porlab/program/SpecBuilder.hpp"

namespace porlab::testprog {

// RVF paper Figure 1: thr1 = w(x,1) w(y,1); thr2 = w(x,1) w(y,1) r(x); thr3 = ... r(y).
inline std::shared_ptr<BytecodeProgram> rvfFig1() {
    SpecBuilder b("rvf_fig1");
    auto x = b.var("x"), y = b.var("y");
    b.thread("thr1").store(x, 1).store(y, 1);
    b.thread("thr2").store(x, 1).store(y, 1).load(-1, x);
    b.thread("thr3").store(x, 1).store(y, 1).load(-1, y);
    return b.build();
}

// RVF Figure 13c: n threads each doing w(x,1); r(x).
inline std::shared_ptr<BytecodeProgram> rvfFig13c(int n) {
    SpecBuilder b("rvf_fig13c");
    auto x = b.var("x");
    for (int i = 0; i < n; ++i) b.thread("t" + std::to_string(i)).store(x, 1).load(-1, x);
    return b.build();
}

// Store buffering: both threads may read 0.
inline std::shared_ptr<BytecodeProgram> storeBuffering() {
    SpecBuilder b("sb");
    auto x = b.var("x"), y = b.var("y");
    b.thread("t0").store(x, 1).load(-1, y);
    b.thread("t1").store(y, 1).load(-1, x);
    return b.build();
}

// Godot Figure 2 (b)/(c): p waits for x == 1 by assume or await, then reads y; q: y=42; x=1.
inline std::shared_ptr<BytecodeProgram> godotFig2(bool useAwait) {
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
inline std::shared_ptr<BytecodeProgram> godotFig5() {
    SpecBuilder b("godot_fig5");
    auto x = b.var("x"), y = b.var("y");
    b.thread("p").faa(-1, x, 1, false);
    b.thread("q").faa(-1, x, 1, false);
    b.thread("r").faa(-1, x, 3, false);
    b.thread("s").await(-1, x, AwaitCond::EQ, 3).store(y, 1);
    return b.build();
}

// LAPOR N-READS-LOCK: N threads lock(l); a := x; unlock(l).
inline std::shared_ptr<BytecodeProgram> nReadsLock(int n, bool locked = true) {
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

}  // namespace porlab::testprog
