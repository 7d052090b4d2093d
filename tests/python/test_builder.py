"""The builder DSL compiles to what it says: values, control flow, atomics, blocking, errors."""

from __future__ import annotations

import operator
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import example

import porlab
from porlab import Program

HERE = Path(__file__).resolve()


def only_trace(p: Program) -> porlab.Trace:
    r = porlab.explore(p, keep_traces=True)
    assert len(r.traces) == 1, r
    return r.traces[0]


def kinds(trace: porlab.Trace) -> list[str]:
    return [e.kind for e in trace.events]


def visible(trace: porlab.Trace) -> list[str]:
    """describe() of every event but thread ends."""
    return [trace.describe(i) for i, e in enumerate(trace.events) if e.kind != "thread-end"]


def written(trace: porlab.Trace, loc_name: str) -> list[int]:
    return [
        e.value_written
        for e in trace.events
        if e.writes and e.loc >= 0 and trace.location_name(e.loc) == loc_name
    ]


def source_line(excinfo: pytest.ExceptionInfo) -> int:
    """Line (1-based) of the innermost frame of this test file in an exception's traceback."""
    here = [e for e in excinfo.traceback if Path(str(e.path)).resolve() == HERE]
    return here[-1].lineno + 1


def assert_names_here(excinfo: pytest.ExceptionInfo, *words: str) -> None:
    msg = str(excinfo.value)
    file, line, _ = msg.split(":", 2)
    assert os.path.samefile(file, HERE), msg
    assert int(line) == source_line(excinfo), msg
    for w in words:
        assert w in msg, msg


# --- what runs ------------------------------------------------------------------------------


def test_values_read_and_written():
    p = Program("values")
    x, y = p.vars("x", "y", init=3)
    with p.thread("t") as t:
        a = t.load(x)  # 3
        t.store(y, a * 2 + 1)  # 7
        b = t.load(y)
        t.store(x, (b - a) << 2)  # (7 - 3) << 2 = 16
        c = t.reg("c", init=5)
        t.set(c, c * c)  # 25
        t.store(y, c // 4 + c % 4)  # 6 + 1
        t.store(x, -c)
    tr = only_trace(p)
    assert [e.value_read for e in tr.events if e.kind == "read"] == [3, 7]
    assert written(tr, "x") == [16, -25]
    assert written(tr, "y") == [7, 7]
    assert tr.status == "complete"


def test_if_else_takes_both_branches():
    # The reader sees x = 0 or x = 1 (the writer's store): both branches run, in different traces.
    p = Program("ifelse")
    x, y = p.vars("x", "y")
    with p.thread("writer") as t:
        t.store(x, 1)
    with p.thread("reader") as t:
        a = t.load(x)
        with t.if_(a == 1):
            t.store(y, 10)
        with t.else_():
            t.store(y, 20)
        with t.if_(a != 1):  # an if_ without else_
            t.store(y, 30)
    r = porlab.explore(p, keep_traces=True)
    outcomes = {
        (t.events[[e.kind for e in t.events].index("read")].value_read, tuple(written(t, "y")))
        for t in r.traces
    }
    assert outcomes == {(1, (10,)), (0, (20, 30))}


def test_else_must_follow_if():
    p = Program()
    with p.thread() as t, pytest.raises(porlab.ProgramError) as ei, t.else_():
        pass
    assert_names_here(ei, "else_()")


def test_loop_bound_gives_blocked_trace_with_marker():
    p = Program("spin")
    x = p.var("x")
    with p.thread("t") as t, t.loop(bound=3) as lp:
        a = t.load(x)
        lp.break_if(a == 1)  # never: nobody writes x
    tr = only_trace(p)
    assert tr.status == "blocked"
    assert kinds(tr) == ["read"] * 3 + ["assume-block"]
    assert "loop-bound" in tr.describe(3)
    r = porlab.explore(p)
    assert (r.complete, r.blocked, r.errors) == (0, 1, 0)


def test_loop_that_exits_is_complete():
    # Counts to 3 with continue_if/break_, then stores the counter: complete, no marker.
    p = Program("count")
    x = p.var("x")
    with p.thread("t") as t:
        i = t.reg("i")
        with t.loop(bound=10) as lp:
            t.set(i, i + 1)
            lp.continue_if(i < 3)
            lp.break_()
        t.store(x, i)
        with t.while_(lambda: t.load(x) != 0, bound=5):
            t.store(x, t.load(x) - 1)
    tr = only_trace(p)
    assert tr.status == "complete"
    assert written(tr, "x") == [3, 2, 1, 0]
    assert "assume-block" not in kinds(tr)


# --- operators: Python's semantics on 64-bit ints ---------------------------------------------

INT_MIN, INT_MAX = -(2**63), 2**63 - 1
OPERANDS = [INT_MIN, -9, -7, -2, -1, 0, 1, 2, 3, 7, 63, 64, 65, 2**62, INT_MAX]
OPERATORS = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv,
    "%": operator.mod, "&": operator.and_, "|": operator.or_, "^": operator.xor,
    "<<": operator.lshift, ">>": operator.rshift,
}  # fmt: skip


def wrap64(v: int) -> int:
    """An int as the builder's registers hold it: 64-bit two's complement."""
    return (v + 2**63) % 2**64 - 2**63


def python_says(op: str, a: int, b: int) -> int | None:
    """What Python computes for ``a op b``, wrapped to 64 bits; None where Python raises (or
    where the quotient overflows: the builder faults there, see test_arithmetic_faults)."""
    if op in ("//", "%") and (b == 0 or (a == INT_MIN and b == -1)):
        return None
    if op in ("<<", ">>"):
        if b < 0:
            return None
        # Every count from 64 on gives the same 64-bit result; 200 keeps Python's ints small.
        b = min(b, 200)
    return wrap64(OPERATORS[op](a, b))


@pytest.mark.parametrize("op", list(OPERATORS))
def test_operators_compute_what_python_computes(op):
    # Every pair of operands in three forms: register op register, int op register (Python
    # calls the register's reflected method, e.g. __rfloordiv__ for 10 // r) and register op
    # int. The operands are loaded from memory, so nothing is known when the program is built.
    f = OPERATORS[op]
    cases = [(a, b) for a in OPERANDS for b in OPERANDS if python_says(op, a, b) is not None]
    p = Program(f"op {op}")
    xs = p.array("X", len(OPERANDS), init=OPERANDS)
    out = p.array("out", 3 * len(cases))
    with p.thread("t") as t:
        reg = {v: t.load(xs[i]) for i, v in enumerate(OPERANDS)}
        for k, (a, b) in enumerate(cases):
            t.store(out[3 * k], f(reg[a], reg[b]))
            t.store(out[3 * k + 1], f(a, reg[b]))
            t.store(out[3 * k + 2], f(reg[a], b))
    tr = only_trace(p)
    assert tr.status == "complete"
    got = [e.value_written for e in tr.events if e.kind == "write"]
    runs = [(a, b, form) for a, b in cases for form in ("r op r", "int op r", "r op int")]
    want = [python_says(op, a, b) for a, b, _ in runs]
    wrong = [(*run, g, w) for run, g, w in zip(runs, got, want, strict=True) if g != w]
    assert not wrong, f"{len(wrong)} of {len(got)} wrong, e.g. {wrong[:5]}"


@pytest.mark.parametrize("expr, fault", [
    (lambda r, z, m: 10 // z, "division by zero"),
    (lambda r, z, m: 10 % z, "division by zero"),
    (lambda r, z, m: r // z, "division by zero"),
    (lambda r, z, m: 1 << m, "negative shift count"),
    (lambda r, z, m: r >> m, "negative shift count"),
])  # fmt: skip
def test_arithmetic_faults(expr, fault):
    # What Python raises on (ZeroDivisionError, ValueError) is a fault: an error trace whose
    # last event names it; the store after it never happens.
    p = Program("fault")
    x, y = p.var("x", init=5), p.var("y")
    zero, minus = p.var("zero"), p.var("minus", init=-1)
    with p.thread("t") as t:
        r, z, m = t.load(x), t.load(zero), t.load(minus)
        t.store(y, expr(r, z, m))
    r = porlab.explore(p)
    assert (r.complete, r.blocked, r.errors) == (0, 0, 1)
    tr = r.first_error
    assert tr.events[-1].kind == "fault" and fault in tr.describe(len(tr.events) - 1)
    assert written(tr, "y") == []


def test_constant_negative_shift_and_true_division_are_build_errors():
    p = Program()
    x = p.var("x")
    with p.thread() as t:
        a = t.load(x)
        with pytest.raises(porlab.ProgramError) as ei:
            t.store(x, a << -1)
        assert_names_here(ei, "negative shift count -1")
        with pytest.raises(porlab.ProgramError) as ei:
            t.store(x, 10 / a)
        assert_names_here(ei, "//")


# --- loops ------------------------------------------------------------------------------------


def test_repeat_runs_its_block_exactly_n_times():
    p = Program("repeat")
    out = p.array("out", 4, init=-1)
    total = p.var("total")
    with p.thread("t") as t:
        with t.repeat(3) as i:
            t.store(out[i], i * 10)
        with t.repeat(0):
            t.store(out[3], 99)  # never
        with t.repeat(2), t.repeat(3):  # nested: 6 increments
            t.fetch_add(total, 1)
    tr = only_trace(p)
    assert tr.status == "complete"
    assert visible(tr)[:3] == ["write out[0] := 0", "write out[1] := 10", "write out[2] := 20"]
    assert written(tr, "out[3]") == []
    assert written(tr, "total") == [1, 2, 3, 4, 5, 6]
    assert "assume-block" not in kinds(tr)


def test_repeat_is_not_bounded_like_loop():
    # The same 4 iterations: repeat(4) completes; loop(bound=4) without a break blocks when it
    # would start a fifth, and loop(bound=3) blocks when it would start the fourth.
    def build(kind: str) -> Program:
        p = Program(kind)
        x = p.var("x")
        with p.thread("t") as t:
            if kind == "repeat":
                with t.repeat(4):
                    t.fetch_add(x, 1)
            else:
                with t.loop(bound=int(kind[-1])) as lp:
                    v = t.fetch_add(x, 1)
                    lp.break_if(v == 3)
        return p

    for kind, status, adds in [("repeat", "complete", 4), ("loop4", "complete", 4),
                               ("loop3", "blocked", 3)]:
        tr = only_trace(build(kind))
        assert (tr.status, kinds(tr).count("fetch-add")) == (status, adds), kind


@pytest.mark.parametrize("make, words", [
    (lambda t: t.loop(3), ["loop(bound=3)", "repeat(3)"]),
    (lambda t: t.while_(lambda: 1, 3), ["while_(cond, bound=3)"]),
    (lambda t: t.repeat(-1), ["repeat count", "-1"]),
    (lambda t: t.repeat(True), ["repeat count"]),
])  # fmt: skip
def test_loop_arguments_are_checked(make, words):
    p = Program()
    with p.thread() as t, pytest.raises(porlab.ProgramError) as ei, make(t):
        pass
    assert_names_here(ei, *words)


def test_arrays_with_register_indexes():
    p = Program("arr")
    arr = p.array("A", 3, init=[5, 6, 7])
    with p.thread("t") as t:
        i = t.let(2)
        v = t.load(arr[i])  # A[2] = 7
        t.store(arr[i - 2], v + 1)  # A[0] := 8
        w = t.load(arr[0])
        t.store(arr[1], w)
    tr = only_trace(p)
    assert visible(tr) == ["read A[2] -> 7", "write A[0] := 8", "read A[0] -> 8", "write A[1] := 8"]
    assert len(arr) == 3


def test_array_index_out_of_bounds_is_a_fault():
    p = Program("oob")
    arr = p.array("A", 2)
    with p.thread("t") as t:
        i = t.let(1)
        t.store(arr[i], 4)
        t.load(arr[i + 1])  # A[2]: out of bounds
    r = porlab.explore(p)
    assert (r.complete, r.blocked, r.errors) == (0, 0, 1)
    tr = r.first_error
    assert tr.status == "error"
    assert tr.events[-1].kind == "fault"
    assert "out of bounds" in tr.describe(len(tr.events) - 1)
    with pytest.raises(porlab.ProgramError) as ei:
        arr[2]  # a constant index is checked at once
    assert_names_here(ei, "out of bounds")


def test_cas_success_failure_and_old():
    p = Program("cas")
    x, out = p.vars("x", "out")
    with p.thread("t") as t:
        ok1 = t.cas(x, 0, 5)  # succeeds: old 0
        ok2 = t.cas(x, 0, 7)  # fails: sees 5
        t.store(out, ok1 * 1000 + ok1.old * 100 + ok2 * 10 + ok2.old)
    tr = only_trace(p)
    assert kinds(tr)[:2] == ["cas-success", "cas-failure"]
    assert (tr.events[0].value_read, tr.events[0].value_written) == (0, 5)
    assert tr.events[1].value_read == 5
    assert written(tr, "x") == [5]  # a failed CAS writes nothing
    assert written(tr, "out") == [1000 + 0 + 0 + 5]


def test_exchange_and_fetch_ops():
    p = Program("rmw")
    y, z, out = p.vars("y", "z", "out")
    with p.thread("t") as t:
        e1 = t.exchange(y, 9)  # 0, y = 9
        e2 = t.exchange(y, 11)  # 9, y = 11
        f1 = t.fetch_add(z, 3)  # 0 -> 3
        f2 = t.fetch_sub(z, 1)  # 3 -> 2
        f3 = t.fetch_op("max", z, 10)  # 2 -> 10
        f4 = t.fetch_op("xor", z, 3)  # 10 -> 9
        f5 = t.fetch_op("min", z, 4)  # 9 -> 4
        t.store(out, e1 + e2 + f1 + f2 + f3 + f4 + f5)  # 0+9+0+3+2+10+9 = 33
    tr = only_trace(p)
    assert written(tr, "y") == [9, 11]
    assert written(tr, "z") == [3, 2, 10, 9, 4]
    assert [e.rmw_op for e in tr.events if e.kind == "fetch-add"] == [
        "add",
        "sub",
        "max",
        "xor",
        "min",
    ]
    assert written(tr, "out") == [33]
    with pytest.raises(porlab.ProgramError) as ei:
        t.fetch_op("fma", z, 1)
    assert_names_here(ei, "fma")


def test_unused_fetch_add_results_are_marked():
    # IFAA needs to know which fetch-and-add results are never used.
    p = Program("faa")
    x = p.var("x")
    with p.thread("t") as t:
        t.fetch_add(x, 1)  # unused
        a = t.fetch_add(x, 1)
        t.store(x, a)
    tr = only_trace(p)
    assert [e.result_used for e in tr.events if e.kind == "fetch-add"] == [False, True]


def test_await_blocks_until_satisfied():
    p = Program("await-alone")
    x = p.var("x")
    with p.thread("t") as t:
        t.await_(x, "==", 1)
    r = porlab.explore(p)
    assert (r.complete, r.blocked, r.errors, r.events) == (0, 1, 0, 0)

    p = Program("await-writer")
    x, y = p.vars("x", "y")
    with p.thread("t") as t:
        v = t.await_(x, ">=", 2)
        t.store(y, v)
    with p.thread("w") as t:
        t.store(x, 1)
        t.store(x, 2)
    r = porlab.explore(p, keep_traces=True)
    # The await runs only after x := 2; every complete trace has it read 2.
    assert r.blocked == 0
    assert r.complete >= 1
    for tr in r.traces:
        aw = [e for e in tr.events if e.kind == "await"]
        assert [e.value_read for e in aw] == [2]
        assert written(tr, "y") == [2]


def test_xchg_await():
    p = Program("ttas")
    lk = p.var("lk")
    with p.thread("t") as t:
        t.xchg_await(lk, "==", 0, 1)
        t.xchg_await(lk, "==", 0, 1)  # never enabled again: blocked
    tr = only_trace(p)
    assert tr.status == "blocked"
    assert kinds(tr) == ["xchg-await"]
    assert written(tr, "lk") == [1]


def test_spawn_and_join():
    p = Program("fork-join")
    x = p.var("x")
    child = p.thread("child", start=False)
    child.store(x, 42)
    with p.thread("main") as m:
        m.store(x, 1)
        m.spawn(child)
        m.join(child)
        v = m.load(x)
        m.assert_(v == 42)
    r = porlab.explore(p, keep_traces=True)
    # spawn and join order everything: one interleaving, and the read sees the child's write.
    assert (r.complete, r.blocked, r.errors) == (1, 0, 0)
    assert visible(r.traces[0]) == [
        "write x := 1",
        "spawn child",
        "write x := 42",
        "join child",
        "read x -> 42",
    ]


def test_join_of_a_thread_never_spawned_blocks():
    p = Program("join-never")
    child = p.thread("child", start=False)
    child.assume(1)
    with p.thread("main") as m:
        m.join(child)
    r = porlab.explore(p)
    assert (r.complete, r.blocked, r.errors) == (0, 1, 0)


def test_assume_blocks():
    p = Program("assume")
    x = p.var("x")
    with p.thread("t") as t:
        a = t.load(x)
        t.assume(a == 1)
        t.store(x, 2)
    tr = only_trace(p)
    assert tr.status == "blocked"
    assert kinds(tr) == ["read", "assume-block"]
    assert written(tr, "x") == []


def test_assert_failure_is_an_error_trace_with_source():
    p = Program("assert")
    x = p.var("x")
    with p.thread("t") as t:
        a = t.load(x)
        t.assert_(a == 1)  # ASSERT-LINE
    line = next(
        i
        for i, text in enumerate(HERE.read_text().splitlines(), 1)
        if text.endswith("# ASSERT-" + "LINE")
    )
    r = porlab.explore(p)
    assert (r.complete, r.blocked, r.errors) == (0, 0, 1)
    tr = r.first_error
    assert tr is not None and tr.status == "error"
    last = len(tr.events) - 1
    assert tr.events[last].kind == "assertion-failure"
    file, lineno = tr.source(last).rsplit(":", 1)
    assert os.path.samefile(file, HERE)
    assert int(lineno) == line
    assert tr.source(0).endswith(f":{line - 1}")  # the load, just above
    assert r.error_sites


def test_fail_always_fails():
    p = Program("fail")
    with p.thread("t") as t:
        t.fail()
    assert porlab.explore(p).errors == 1


def test_assertion_that_holds_is_no_error():
    # The control for the test above: the same assertion on a value that holds.
    p = Program("assert-ok")
    x = p.var("x", init=1)
    with p.thread("t") as t:
        t.assert_(t.load(x) == 1)
    r = porlab.explore(p)
    assert (r.complete, r.errors, r.first_error) == (1, 0, None)


def test_unlock_of_a_mutex_not_held_is_a_fault():
    p = Program("bad-unlock")
    m = p.mutex("m")
    x = p.var("x")
    with p.thread("a") as t:
        t.lock(m)
        t.store(x, 1)
        t.unlock(m)
    with p.thread("b") as t:
        t.unlock(m)  # never held by b
    r = porlab.explore(p)
    assert r.errors >= 1
    tr = r.first_error
    assert tr.events[-1].kind == "fault"
    assert "not held" in tr.describe(len(tr.events) - 1)
    assert tr.source(len(tr.events) - 1)  # points at the unlock


def test_lock_gives_mutual_exclusion():
    # Two increments under a lock never lose an update: x == 2 at the end of every trace.
    p = Program("mutex")
    m = p.mutex("m")
    x = p.var("x")
    for name in ("a", "b"):
        with p.thread(name) as t:
            t.lock(m)
            t.store(x, t.load(x) + 1)
            t.unlock(m)
    r = porlab.explore(p, keep_traces=True)
    assert r.errors == r.blocked == 0
    assert r.complete == 2  # the two lock orders
    assert all(max(written(tr, "x")) == 2 for tr in r.traces)


def test_lost_update_without_lock():
    # The control: without the lock some interleaving ends with x == 1.
    p = Program("race")
    x = p.var("x")
    for name in ("a", "b"):
        with p.thread(name) as t:
            t.store(x, t.load(x) + 1)
    r = porlab.explore(p, keep_traces=True)
    assert {written(tr, "x")[-1] for tr in r.traces} == {1, 2}


def test_disassemble_lists_the_code():
    """The decoded form, one function per thread; every load and store shows its address
    (an operand, not the "none" of operand -1)."""
    text = example("litmus_sb").disassemble()
    assert "function t0" in text and "function t1" in text
    accesses = [ln for ln in text.splitlines() if ": store " in ln or ": load " in ln]
    assert len(accesses) == 4 and all(" b=#" in ln for ln in accesses), text
    # addresses by the program's names, as the builder wrote them
    assert sum("(&x)" in ln for ln in accesses) == 2 and sum("(&y)" in ln for ln in accesses) == 2


# --- invalid programs -------------------------------------------------------------------------


def test_program_error_is_an_input_error():
    assert issubclass(porlab.ProgramError, porlab.InputError)


def test_variable_of_another_program():
    p, q = Program("p"), Program("q")
    x = q.var("x")
    with p.thread() as t, pytest.raises(porlab.ProgramError) as ei:
        t.load(x)
    assert_names_here(ei, "'x'", "another program")


def test_unknown_variable():
    p = Program()
    with p.thread() as t, pytest.raises(porlab.ProgramError) as ei:
        t.store("x", 1)  # type: ignore[arg-type]
    assert_names_here(ei, "'x'")


def test_register_of_another_thread():
    p = Program()
    x = p.var("x")
    with p.thread("t0") as t:
        a = t.load(x, "a")
    with p.thread("t1") as u, pytest.raises(porlab.ProgramError) as ei:
        u.store(x, a)
    assert_names_here(ei, "'a'", "'t0'")
    with pytest.raises(porlab.ProgramError) as ei:
        u.let(a + u.load(x))  # an expression mixing both threads' registers
    assert_names_here(ei, "t0", "t1")


@pytest.mark.parametrize("how", ["var+int", "int-var", "reg*var", "var==int", "elem+int", "neg"])
def test_var_in_arithmetic(how):
    p = Program()
    x = p.var("x")
    arr = p.array("A", 2)
    with p.thread() as t:
        a = t.load(x)
        with pytest.raises(porlab.ProgramError) as ei:
            if how == "var+int":
                t.store(x, x + 1)
            elif how == "int-var":
                t.store(x, 1 - x)
            elif how == "reg*var":
                t.store(x, a * x)
            elif how == "var==int":
                t.assume(x == 1)
            elif how == "elem+int":
                t.store(x, arr[0] + 1)
            else:
                t.store(x, -x)
    assert_names_here(ei, "shared location")
    # Comparing locations with each other stays plain Python identity.
    assert x == x and x != arr[0]


def test_loop_without_bound():
    p = Program()
    with p.thread() as t, pytest.raises(porlab.ProgramError) as ei, t.loop():
        pass
    assert_names_here(ei, "bound")


def test_join_of_unknown_thread():
    p, q = Program("p"), Program("q")
    other = q.thread("other")
    with p.thread() as t, pytest.raises(porlab.ProgramError) as ei:
        t.join(other)
    assert_names_here(ei, "join", "unknown thread")


def test_spawn_of_unknown_thread():
    p = Program()
    with p.thread() as t, pytest.raises(porlab.ProgramError) as ei:
        t.spawn("worker")  # type: ignore[arg-type]
    assert_names_here(ei, "spawn", "unknown thread")


def test_spawn_of_a_thread_that_starts_by_itself():
    p = Program()
    w = p.thread("worker")
    with p.thread("main") as m, pytest.raises(porlab.ProgramError) as ei:
        m.spawn(w)
    assert_names_here(ei, "'worker'", "start=False")


def test_duplicate_names():
    p = Program("dup")
    p.var("x")
    for make in (
        lambda: p.var("x"),
        lambda: p.mutex("x"),
        lambda: p.thread("x"),
        lambda: p.array("x", 2),
    ):
        with pytest.raises(porlab.ProgramError) as ei:
            make()
        assert "'x'" in str(ei.value) and "already used" in str(ei.value)
        assert_names_here(ei)


def test_modifying_a_compiled_program():
    p = Program("done")
    x = p.var("x")
    with p.thread() as t:
        t.store(x, 1)
    porlab.explore(p)
    with pytest.raises(porlab.ProgramError) as ei:
        t.store(x, 2)
    assert_names_here(ei, "already compiled")
    with pytest.raises(porlab.ProgramError) as ei:
        p.var("y")
    assert_names_here(ei, "already compiled")


def test_python_if_on_an_expression():
    p = Program()
    x = p.var("x")
    with p.thread() as t:
        a = t.load(x)
        with pytest.raises(porlab.ProgramError) as ei:
            if a == 1:
                pass
    assert_names_here(ei, "t.if_")
    with pytest.raises(porlab.ProgramError) as ei:
        t.assume(a > 0 and a < 2)
    assert_names_here(ei)


def test_program_without_threads_or_starting_thread():
    with pytest.raises(porlab.ProgramError, match="no threads"):
        Program("empty").compile()
    p = Program("asleep")
    p.thread("t", start=False)
    with pytest.raises(porlab.ProgramError, match="no thread starts"):
        p.compile()


def test_explore_rejects_non_programs():
    with pytest.raises(TypeError):
        porlab.explore("examples/litmus_sb.py")  # type: ignore[arg-type]
    with pytest.raises(porlab.InputError, match="unknown explorer"):
        porlab.explore(example("litmus_sb"), "no-such-explorer")


# --- explore options and blocking ----------------------------------------------------------


def test_abba_deadlock_is_blocked():
    # t1: lock a; lock b / t2: lock b; lock a. Each taking its first lock (2 interleavings, one
    # Mazurkiewicz class: different mutexes) deadlocks: blocked. Otherwise one thread runs its
    # critical sections first: 2 complete classes.
    p = Program("abba")
    a, b = p.mutex("a"), p.mutex("b")
    for name, (m1, m2) in (("t1", (a, b)), ("t2", (b, a))):
        with p.thread(name) as t:
            t.lock(m1)
            t.lock(m2)
            t.unlock(m2)
            t.unlock(m1)
    ps = porlab.partition_sizes(p)
    assert (ps.complete["mazurkiewicz"], ps.blocked["mazurkiewicz"]) == (2, 1)
    assert ps.blocked["interleavings"] == 2
    assert porlab.explore(p).errors == 0


def test_explore_options():
    p = example("rvf_fig1")
    seen: list[porlab.Trace] = []
    r = porlab.explore(p, on_trace=seen.append)
    assert len(seen) == r.complete == 560  # 8!/(2!3!3!)
    r = porlab.explore(p, max_events=20)
    assert r.budget_exceeded and r.budget_reason == "events" and r.events <= 20
    r = porlab.explore(p, max_traces=7, keep_traces=True)
    assert r.budget_exceeded and len(r.traces) == r.complete == 7
    nww = example("lapor_nww_lock_rr", n=3, locked=False)
    full = porlab.explore(nww)
    assert full.errors > 0
    r = porlab.explore(nww, stop_on_error=True)
    assert r.errors == 1 and r.traces_explored < full.traces_explored
    assert r.first_error.events[-1].kind == "assertion-failure"
    # x and y are written by the same thread last: the 3 outcomes with x == y; the others fail.
    assert len(full.outcomes) == 3
    assert len(porlab.explore(nww, collect_outcomes=False).outcomes) == 0


def test_programs_built_in_a_notebook_cell_name_the_cell():
    # IPython compiles each cell to a temporary file name (ipykernel: /tmp/ipykernel_*/N.py):
    # traces and error messages name the cell as the notebook shows it, "<cell N>" for In [N].
    code = r'''
import porlab
from IPython.core.interactiveshell import InteractiveShell

shell = InteractiveShell.instance()
shell.run_cell("import porlab", store_history=True)
cell = """p = porlab.Program("in-a-cell")
v = p.var("v")
with p.thread("t") as t:
    t.assert_(t.load(v) == 1)
"""
assert shell.run_cell(cell, store_history=True).success
r = porlab.explore(shell.user_ns["p"])
print("SOURCES", r.first_error.source(0), r.first_error.source(1))
bad = shell.run_cell("q = porlab.Program()\nw = q.var('w')\nwith q.thread() as u:\n"
                     "    u.load(w) + w\n", store_history=True)
print("ERROR", bad.error_in_exec)
'''
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    out = {line.split(" ", 1)[0]: line.split(" ", 1)[1] for line in proc.stdout.splitlines()
           if line.startswith(("SOURCES ", "ERROR "))}
    assert out["SOURCES"] == "<cell 2>:4 <cell 2>:4"  # the load and the failed assertion
    assert out["ERROR"].startswith("<cell 3>:4: ") and "shared location" in out["ERROR"]
