"""Builder programs run lowered to the decoded form C programs run in
(cpp/porlab/program/SpecLowering.cpp), checked against oracles that do not use that lowering:

* random programs against an independent Python model of their meaning (every interleaving of
  :class:`porlab.testing.ProgramDesc`'s operations, enumerated here): the same final memories
  of complete and of blocked executions, and errors exactly when some interleaving fails an
  assertion;
* the faults of builder programs against Python's own meaning of the program (every execution
  fails, with the fault's message) and arithmetic against Python's operators;
* explorers against the exhaustive oracle (``naive``, :func:`porlab.testing.check_explorer`);
* builder twins of C programs against what the C front end gives for the C program.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

import porlab
from porlab import Program
from porlab.cfront import has_c_frontend
from porlab.testing import ProgramDesc, build_program, check_explorer, random_programs

ROOT = Path(__file__).resolve().parents[2]
EXPLORERS = ("naive", "optimal", "source", "rf")

# ---------------------------------------------------------------------------------------------
# An independent model of random programs: every interleaving, in Python

_CMP: dict[str, Callable[[int, int], bool]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, ">=": operator.ge}


def _flatten(ops: list, out: list) -> None:
    """Operations as a flat list: `if` and `locked` become jumps and lock/unlock."""
    for op in ops:
        if op[0] == "if":
            jump_else = len(out)
            out.append(["jne", op[1], -1])  # to else when last != value
            _flatten(op[2], out)
            jump_end = len(out)
            out.append(["jmp", -1])
            out[jump_else][2] = len(out)
            _flatten(op[3], out)
            out[jump_end][1] = len(out)
        elif op[0] == "locked":
            out.append(("lock", op[1]))
            _flatten(op[2], out)
            out.append(("unlock", op[1]))
        else:
            out.append(op)


def model_finals(d: ProgramDesc) -> set[tuple]:
    """(status, final values of the variables) of every maximal execution: status "complete" or
    "blocked" (some thread waits for good), and ("error",) when an assertion fails. A thread's
    local operations (jumps, assume, assert) run right after the operation before them."""
    code = []
    for ops in d.threads:
        flat: list = []
        _flatten(ops, flat)
        code.append(flat)
    n = len(code)
    # thread state: (pc, last, status) status: 0 not started, 1 running, 2 done, 3 stuck
    start = tuple((0, 0, 0 if t in d.spawned else 1) for t in range(n))
    finals: set[tuple] = set()
    seen: set = set()

    def local(t: int, pc: int, last: int) -> tuple[int, int, int] | None:
        """Run thread t's local code from pc; None when an assertion fails."""
        while pc < len(code[t]):
            op = code[t][pc]
            if op[0] == "jne":
                pc = op[2] if last != op[1] else pc + 1
            elif op[0] == "jmp":
                pc = op[1]
            elif op[0] == "assume":
                if last == op[1]:
                    return pc, last, 3
                pc += 1
            elif op[0] == "assert":
                if last == op[1]:
                    return None
                pc += 1
            else:
                return pc, last, 1
        return pc, last, 2

    def visit(mem: tuple, owners: tuple, threads: tuple) -> None:
        if (mem, owners, threads) in seen:
            return
        seen.add((mem, owners, threads))
        moved = False
        for t, (pc, last, status) in enumerate(threads):
            if status != 1:
                continue
            op = code[t][pc]
            m, own, ths = list(mem), list(owners), list(threads)
            kind = op[0]
            if kind == "store":
                m[op[1]] = op[2]
            elif kind == "load":
                last = m[op[1]]
            elif kind == "faa":
                old = m[op[1]]
                m[op[1]] = old + op[2]
                last = old if op[3] else last
            elif kind == "xchg":
                last, m[op[1]] = m[op[1]], op[2]
            elif kind == "cas":
                last = m[op[1]]
                if last == op[2]:
                    m[op[1]] = op[3]
            elif kind == "await":
                if not _CMP[op[2]](m[op[1]], op[3]):
                    continue
                last = m[op[1]]
            elif kind == "lock":
                if own[op[1]] != -1:
                    continue
                own[op[1]] = t
            elif kind == "unlock":
                own[op[1]] = -1
            elif kind == "spawn":
                ths[op[1]] = (0, 0, 1)
                c = local(op[1], 0, 0)
                if c is None:
                    finals.add(("error",))
                    moved = True
                    continue
                ths[op[1]] = c
            elif kind == "join":
                if ths[op[1]][2] != 2:
                    continue
            else:  # pragma: no cover - every operation of ProgramDesc is above
                raise AssertionError(op)
            moved = True
            after = local(t, pc + 1, last)
            if after is None:
                finals.add(("error",))
                continue
            ths[t] = after
            visit(tuple(m), tuple(own), tuple(ths))
        if not moved:
            done = all(s == 2 for _, _, s in threads)
            finals.add(("complete" if done else "blocked", mem))

    threads = []
    for t, (pc, last, status) in enumerate(start):
        c = local(t, pc, last) if status == 1 else (pc, last, status)
        if c is None:
            finals.add(("error",))
            return finals
        threads.append(c)
    visit(tuple(d.inits), tuple([-1] * d.mutexes), tuple(threads))
    return finals


def _final_memory(program: porlab._core.ProgramBase, trace: porlab.Trace, n: int) -> tuple:
    """The values of locations 0..n-1 after the trace (the initial values, then its writes)."""
    mem = list(program.initial_values[:n])
    for e in trace.events:
        if 0 <= e.loc < n and e.kind in ("write", "fetch-add", "exchange", "cas-success"):
            mem[e.loc] = e.value_written
    return tuple(mem)


def porlab_finals(d: ProgramDesc, explorer: str) -> set[tuple]:
    p = build_program(d)
    compiled = p.compile()
    r = porlab.explore(p, explorer, keep_traces=True)
    n = len(d.inits)
    return {("error",) if t.status == "error" else (t.status, _final_memory(compiled, t, n))
            for t in r.traces}


# (2 variables, up to 9 operations: about a third of the programs have several final states, a
# quarter can fail an assertion, 40% have blocked executions; 100 programs take ~2 s)
@settings(max_examples=100, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(desc=random_programs(max_threads=3, max_vars=2, max_ops=9))
def test_random_programs_mean_what_the_model_says(desc):
    want = model_finals(desc)
    assert porlab_finals(desc, "naive") == want
    for explorer in ("optimal", "source"):  # (a trace of every Mazurkiewicz class)
        assert porlab_finals(desc, explorer) == want, explorer
    # reads-from classes fix the values read, not the order of unread writes
    rf = porlab_finals(desc, "rf")
    assert rf <= want
    assert {f[0] for f in rf} == {f[0] for f in want}


def test_model_tells_apart_what_it_should():
    """The model is not trivially equal to porlab: a lost update has two final values, and an
    assertion on a value some interleaving reads is an error."""
    lost = ProgramDesc(inits=[0], mutexes=0,
                       threads=[[("load", 0), ("faa", 0, 1, False)], [("store", 0, 2)]])
    assert {m for _, m in model_finals(lost)} == {(2,), (3,)}
    failing = ProgramDesc(inits=[0], mutexes=0,
                          threads=[[("load", 0), ("assert", 1)], [("store", 0, 1)]])
    assert ("error",) in model_finals(failing)
    assert porlab_finals(failing, "naive") == model_finals(failing)


# ---------------------------------------------------------------------------------------------
# Faults: every execution of these programs fails, with the fault's message


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
def test_every_execution_of_a_faulty_program_fails_with_its_message(build, message):
    p = Program("p")
    build(p)
    for explorer in EXPLORERS:
        r = porlab.explore(p, explorer, keep_traces=True)
        assert r.errors > 0 and r.complete == 0 and r.blocked == 0, explorer
        for t in r.traces:
            assert message in t.describe(len(t.events) - 1), explorer


def _loop_bound(p: Program) -> None:
    x = p.var("x")
    with p.thread("t0") as t:
        t.store(x, 1)
    with p.thread("t1") as t, t.while_(lambda: t.load(x) == 0, bound=2):
        pass


def test_loop_bound_program_conforms_to_the_oracle():
    p = Program("loop")
    _loop_bound(p)
    oracle = porlab.explore(p, "naive")
    assert oracle.blocked > 0 and oracle.complete > 0  # some run waits past the bound
    for explorer in EXPLORERS[1:]:
        assert check_explorer(p, explorer, oracle=oracle) == []


def _wrap(v: int) -> int:
    """v as a 64-bit two's-complement integer."""
    v &= 2**64 - 1
    return v - 2**64 if v >= 2**63 else v


def test_arithmetic_is_pythons():
    """Division, modulo and shifts as Python computes them (wrapped to 64 bits), on operands
    the program reads (nothing is folded at build time)."""
    ops = [operator.floordiv, operator.mod, operator.lshift, operator.rshift, operator.mul,
           operator.sub]
    values = [-7, -1, 2, 3, 64, 70, 2**62]
    counts = [v & 127 for v in values]  # (non-negative shift counts)
    want = [_wrap(f(a, b)) for f in ops for a in values
            for b in (counts if f in (operator.lshift, operator.rshift) else values)]
    p = Program("arith")
    xs = [p.var(f"v{k}", init=v) for k, v in enumerate(values)]
    out = p.array("out", len(want), init=0)
    with p.thread("t") as t:
        regs = [t.load(x) for x in xs]
        k = 0
        for f in ops:
            for a in regs:
                for b in regs:
                    if f in (operator.lshift, operator.rshift):
                        b = b & 127
                    t.store(out[k], f(a, b))
                    k += 1
    r = porlab.explore(p, "naive", keep_traces=True)
    assert (r.complete, r.blocked, r.errors) == (1, 0, 0)
    got = _final_memory(p.compile(), r.traces[0], len(values) + len(want))[len(values):]
    assert list(got) == want


# ---------------------------------------------------------------------------------------------
# Builder twins of C programs: what the C front end gives for the C program

# (C file in benchmarks/programs, defines, builder example, its parameters)
TWINS = [
    ("rvf_fig1.c", {}, "rvf_fig1.py", {}),
    ("n_reads_lock.c", {"N": 3}, "lapor_n_reads_lock.py", {"n": 3}),
    ("sortnet.c", {"N": 2}, "sortnet.py", {"n": 2, "mode": "await"}),
]


@pytest.mark.skipif(not has_c_frontend(), reason="porlab built without the C front end")
@pytest.mark.parametrize("cfile, defines, example, params", TWINS)
def test_builder_twins_count_what_the_c_programs_count(cfile, defines, example, params):
    """The same number of classes of each equivalence (the C programs have a main thread that
    starts and joins the others: more interleavings for naive, the same classes)."""
    c = porlab.load_c(ROOT / "benchmarks" / "programs" / cfile, defines=defines, loops="none")
    b = porlab.load_program(str(ROOT / "examples" / example), **params)
    for explorer in ("optimal", "source", "rf", "rvf"):
        rc = porlab.explore(c, explorer, check_races=False)
        rb = porlab.explore(b, explorer, check_races=False)
        assert (rb.complete, rb.blocked, rb.errors) == (rc.complete, rc.blocked, rc.errors), \
            explorer
        assert rb.complete > 0


def test_interpreter_keyword_is_gone():
    """The bytecode interpreter went: Program has no interpreter= switch any more, and passing
    one is an error, not silently ignored."""
    with pytest.raises(TypeError, match="interpreter"):
        Program("p", interpreter="code")  # type: ignore[call-arg]


def test_disassemble_shows_the_decoded_form():
    p = Program("sb")
    x = p.var("x")
    with p.thread("t") as t:
        t.store(x, 1)
    assert "store" in p.disassemble() and "(finish)" in p.disassemble()
