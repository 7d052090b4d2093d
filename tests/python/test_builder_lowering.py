"""Builder programs lowered to the decoded form of C programs (``Program(interpreter="code")``,
cpp/porlab/program/SpecLowering.cpp) give what the builder's bytecode gives: the same counts,
events, outcomes and error messages, on random programs and on every fault builder programs
have."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings

import porlab
from porlab import Program
from porlab.testing import build_program, random_programs

EXPLORERS = ("naive", "optimal", "source", "rf")


def summary(r: porlab.Result) -> tuple:
    errors = sorted(
        (t.events[-1].kind, t.describe(len(t.events) - 1)) for t in r.traces if t.status == "error"
    )
    return (r.complete, r.blocked, r.errors, r.events, sorted(r.outcomes), errors)


def both(build: Callable[[Program], None], explorer: str = "naive") -> tuple[tuple, tuple]:
    results = []
    for interp in ("bytecode", "code"):
        p = Program("p", interpreter=interp)
        build(p)
        results.append(summary(porlab.explore(p, explorer, keep_traces=True)))
    return results[0], results[1]


@settings(max_examples=40, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(desc=random_programs(max_threads=3, max_vars=3, max_ops=5))
def test_random_programs_give_the_same_results(desc):
    p = build_program(desc)
    p.compile()
    lowered = porlab._core.lower_spec(p._spec)
    for explorer in EXPLORERS:
        want = porlab.explore(p, explorer, keep_traces=True)
        got = porlab.explore(lowered, explorer, keep_traces=True)
        # (outcomes as tuples: the lowered program encodes them as the builder's interpreter)
        assert summary(got) == summary(want), explorer


def _arith(expr: Callable) -> Callable[[Program], None]:
    def build(p: Program) -> None:
        x, y = p.var("x", init=5), p.var("y")
        zero, minus = p.var("zero"), p.var("minus", init=-1)
        low = p.var("low", init=-(2**63))
        with p.thread("t") as t:
            r, z, m, lo = t.load(x), t.load(zero), t.load(minus), t.load(low)
            t.store(y, expr(r, z, m, lo))
    return build


def _oob(p: Program) -> None:
    arr = p.array("A", 2)
    with p.thread("t") as t:
        i = t.let(1)
        t.store(arr[i], 4)
        t.load(arr[i + 1])


def _negative_index(p: Program) -> None:
    arr = p.array("A", 2)
    with p.thread("t") as t:
        t.load(arr[t.let(0) - 1])


def _relock(p: Program) -> None:
    m = p.mutex("m")
    with p.thread("t") as t:
        t.lock(m)
        t.lock(m)


def _unlock_not_held(p: Program) -> None:
    m, x = p.mutex("m"), p.var("x")
    with p.thread("t0") as t:
        t.lock(m)
        t.store(x, 1)
        t.unlock(m)
    with p.thread("t1") as t:
        t.unlock(m)


def _spawn_twice(p: Program) -> None:
    x = p.var("x")
    child = p.thread("child", start=False)
    with child as t:
        t.store(x, 1)
    with p.thread("main") as t:
        t.spawn(child)
        t.spawn(child)


def _assert_and_join(p: Program) -> None:
    x = p.var("x")
    child = p.thread("child", start=False)
    with child as t:
        t.store(x, 1)
    with p.thread("main") as t:
        t.spawn(child)
        t.join(child)
        t.assert_(t.load(x) == 2)


def _loop_bound(p: Program) -> None:
    x = p.var("x")
    with p.thread("t0") as t:
        t.store(x, 1)
    with p.thread("t1") as t, t.while_(lambda: t.load(x) == 0, bound=2):
        pass


FAULTS = [
    (_arith(lambda r, z, m, lo: r // z), "division by zero"),
    (_arith(lambda r, z, m, lo: r % z), "division by zero"),
    (_arith(lambda r, z, m, lo: lo // m), "division by zero"),  # the quotient that overflows
    (_arith(lambda r, z, m, lo: r << m), "negative shift count"),
    (_arith(lambda r, z, m, lo: r >> m), "negative shift count"),
    (_oob, "out of bounds"),
    (_negative_index, "out of bounds"),
    (_relock, "already held"),
    (_unlock_not_held, "not held"),
    (_spawn_twice, "spawned twice"),
    (_assert_and_join, "assert"),
]


@pytest.mark.parametrize("build, message", FAULTS)
def test_faults_are_the_same(build, message):
    bytecode, code = both(build)
    assert code == bytecode
    errors = bytecode[-1]
    assert errors and all(message in text for _, text in errors), errors


def test_loop_bound_and_lock_programs_are_the_same():
    for explorer in EXPLORERS:
        bytecode, code = both(_loop_bound, explorer)
        assert code == bytecode
        assert bytecode[1] > 0  # some execution is blocked at the bound


def test_python_arithmetic_is_the_same():
    ops = [lambda a, b: a // b, lambda a, b: a % b, lambda a, b: a << b, lambda a, b: a >> b,
           lambda a, b: a * b, lambda a, b: a - b]
    values = [-7, -1, 2, 3, 64, 70, 2**62]

    def build(p: Program) -> None:
        xs = [p.var(f"v{k}", init=v) for k, v in enumerate(values)]
        out = p.array("out", len(ops) * len(values) * len(values), init=0)
        with p.thread("t") as t:
            regs = [t.load(x) for x in xs]
            k = 0
            for f in ops:
                for a in regs:
                    for b in regs:
                        if f in ops[2:4]:
                            b = b & 127  # (a non-negative count)
                        t.store(out[k], f(a, b))
                        k += 1

    bytecode, code = both(build)
    assert code == bytecode
    assert bytecode[:3] == (1, 0, 0)


def test_disassemble_shows_the_decoded_form():
    p = Program("sb", interpreter="code")
    x = p.var("x")
    with p.thread("t") as t:
        t.store(x, 1)
    assert "store" in p.disassemble() and "(finish)" in p.disassemble()
    with pytest.raises(porlab.ProgramError):
        Program("bad", interpreter="llvm")
