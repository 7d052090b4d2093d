"""The C++ building blocks of Python explorers (porlab._core.ExploredSequence, dependent,
sleep_after, sc_consistent: cpp/porlab/explore/Kit*.cpp) against independent Python references
on random programs, and the Python Source-DPOR built on them (examples/plugins/source_dpor.py)
against the C++ ``source``: the same traces on random programs and a sample of the C corpus."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import porlab
from porlab import _core
from porlab.testing import ProgramDesc, build_program, random_programs

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = ROOT / "examples" / "plugins" / "source_dpor.py"
PHASES = (Phase.explicit, Phase.generate, Phase.shrink)  # (no "explain": it needs libcst)
SETTINGS = settings(max_examples=40, deadline=None, database=None, phases=PHASES,
                    suppress_health_check=list(HealthCheck))


@pytest.fixture(scope="module", autouse=True)
def py_source() -> None:
    porlab.load_plugin(str(PLUGIN))


# ---- the reference: dependence and happens-before from the events alone ----------------------

def _accesses(e: Any) -> bool:
    return e.loc >= 0 and (e.reads or e.writes)


def conflict(a: Any, b: Any, ifaa: bool) -> bool:
    """Accesses of one location, one of them a write (IFAA: two unused add/sub fetch-and-adds
    commute)."""
    if not (_accesses(a) and _accesses(b) and a.loc == b.loc and (a.writes or b.writes)):
        return False
    return not (ifaa and all(e.kind == "fetch-add" and not e.result_used
                             and e.rmw_op in ("add", "sub") for e in (a, b)))


def dep(a: Any, b: Any, ifaa: bool) -> bool:
    """Dependence written from its definition: same thread, a conflict, spawn/join of each
    other."""
    if a.thread == b.thread or conflict(a, b, ifaa):
        return True
    for x, y in ((a, b), (b, a)):
        if x.kind in ("spawn", "join") and x.aux == y.thread:
            return True
        if x.kind == "spawn" and y.kind == "join" and x.aux == y.aux:
            return True
    return False


def hb_closure(events: list[Any], ifaa: bool) -> set[tuple[int, int]]:
    """Happens-before of a sequence: the transitive closure of its ordered dependent pairs."""
    n = len(events)
    before = [set() for _ in range(n)]
    for j in range(n):
        for i in range(j):
            if dep(events[i], events[j], ifaa):
                before[j] |= before[i] | {i}
    return {(i, j) for j in range(n) for i in before[j]}


def brute_initials(events: list[Any], v: list[int], ifaa: bool) -> int:
    """The threads that start some reordering of v respecting its dependent pairs (at most 7
    events: every permutation)."""
    sub = [events[k] for k in v]
    order = hb_closure(sub, ifaa)
    out = 0
    for perm in itertools.permutations(range(len(sub))):
        pos = {a: n for n, a in enumerate(perm)}
        if all(pos[i] < pos[j] for i, j in order):
            out |= 1 << sub[perm[0]].thread
    return out


def _sequence(desc: ProgramDesc, ifaa: bool, schedule_seed: int) -> Any:
    """A Sequence run to its end along a schedule chosen by the seed."""
    seq = _core.ExploredSequence(build_program(desc).compile(), ifaa=ifaa)
    k = schedule_seed
    while seq.end == "open" and seq.enabled():
        en = [t for t in range(seq.max_threads) if seq.enabled() >> t & 1]
        seq.step(en[k % len(en)])
        k //= len(en)
        k += schedule_seed % 7
        if seq.execution.failed:
            break
    return seq


@SETTINGS
@given(desc=random_programs(max_threads=3, max_ops=5), ifaa=st.booleans(),
       schedule=st.integers(0, 10_000))
def test_happens_before_races_and_initials_match_the_reference(
        desc: ProgramDesc, ifaa: bool, schedule: int) -> None:
    seq = _sequence(desc, ifaa, schedule)
    ev = seq.events
    n = len(ev)
    order = hb_closure(ev, ifaa)
    for i, j in itertools.combinations(range(n), 2):
        assert seq.hb(i, j) == ((i, j) in order), (i, j, ev)
    # Races (Source-DPOR Def. 3.1): conflicting events of different threads, i before j in
    # happens-before, nothing between them in happens-before (locks: see test_lock_races).
    races = {(i, j) for i, j in order
             if ev[i].thread != ev[j].thread and conflict(ev[i], ev[j], ifaa)
             and not any((i, k) in order and (k, j) in order for k in range(i + 1, j))}
    lock_free = not any(e.kind == "lock" for e in ev)
    if lock_free:
        assert set(seq.races()) == races
    for i, j in seq.races():
        v = seq.notdep(i, j)
        assert v == [k for k in range(i + 1, j) if (i, k) not in order] + [j]
        if len(v) <= 7:
            assert seq.initials(v) == brute_initials(ev, v, ifaa), (v, ev)


@SETTINGS
@given(desc=random_programs(max_threads=3, max_ops=5), ifaa=st.booleans(),
       schedule=st.integers(0, 10_000))
def test_weak_initials_and_sleep_sets_match_the_reference(
        desc: ProgramDesc, ifaa: bool, schedule: int) -> None:
    seq = _sequence(desc, ifaa, schedule)
    ev = seq.events
    start = seq.start(0)
    ex = seq.execution
    nexts = [ex.pending(t) for t in range(seq.max_threads) if ex.status(t) == "ready"]
    for lo in range(start, len(ev)):
        v = list(range(lo, min(len(ev), lo + 5)))
        threads = {ev[k].thread for k in v}
        ini = brute_initials(ev, v, ifaa)
        for q in nexts:
            # Def. 6.1: q starts a reordering of v, or is absent from v and independent of it.
            want = bool(ini >> q.thread & 1) if q.thread in threads else not any(
                dep(ev[k], q, ifaa) for k in v)
            assert seq.weak_initial(v, q) == want
            assert seq.weak_initial(v, q, fails=True) == (
                bool(ini >> q.thread & 1) if q.thread in threads else not v)
        sleep = [(q, False) for q in nexts] + [(q, True) for q in nexts[:1]]
        kept = _core.sleep_after(sleep, ev[lo], ifaa=ifaa)
        assert kept == [(q, f) for q, f in sleep if not f and not dep(q, ev[lo], ifaa)]


def test_backtrack_restores_the_state_and_puts_the_step_to_sleep() -> None:
    prog = porlab.load_program(str(ROOT / "examples" / "litmus_sb.py")).compile()
    seq = _core.ExploredSequence(prog)
    assert seq.extend() == "maximal" and seq.threads() == [0, 0, 1, 1]
    outcome = seq.execution.outcome()
    seq.backtrack(1)  # back to after t0's first step; t0's second step sleeps there
    assert seq.depth == 1 and seq.sleep_mask(1) == 0b01
    assert seq.enabled() == 0b11 and seq.execution.pending(0).kind == "read"
    # t1's write conflicts with t0's pending read of y: t0 wakes up.
    assert seq.extend(1) == "maximal" and seq.threads() == [0, 1, 0, 1]
    assert seq.sleep_mask(2) == 0
    seq.backtrack(0)
    seq.step(0)
    assert seq.execution.outcome() != [] and seq.threads() == [0]
    seq.extend()
    assert seq.execution.outcome() == outcome  # the same schedule again: the same state
    with pytest.raises(IndexError):
        seq.backtrack(seq.depth)


def test_keys_of_an_explored_sequence_are_those_of_its_trace() -> None:
    # Every trace of naive replayed step by step: the key of the sequence under every
    # equivalence is trace_key of the trace (and so equal exactly for equivalent traces).
    prog = porlab.load_program(str(ROOT / "examples" / "rvf_fig1.py"))
    traces = porlab.explore(prog, "naive", keep_traces=True).traces
    core = prog.compile()
    keys: dict[str, set[tuple[int, int]]] = {eq: set() for eq in _core.EQUIVALENCES}
    for trace in traces[::5]:
        seq = _core.ExploredSequence(core)
        for e in trace.events[len(seq.events):]:
            if e.kind not in MARKERS:
                seq.step(e.thread)
        assert seq.events == list(trace.events)
        for eq in _core.EQUIVALENCES:
            assert seq.key(eq) == porlab.trace_key(trace, eq)
            keys[eq].add(seq.key(eq))
    assert len(keys["rvf"]) < len(keys["mazurkiewicz"])  # the keys do tell classes apart
    with pytest.raises(porlab.InputError):
        seq.key("sequential")


# ---- the consistency check of an execution graph (VerifySC) against brute force -------------

def _last_writes(events: list[Any], order: list[int]) -> dict[int, int]:
    """For each read in `order`, the position of the last write of its location before it."""
    last: dict[int, int] = {}
    out: dict[int, int] = {}
    for k in order:
        e = events[k]
        if e.loc >= 0 and e.reads:
            out[k] = last.get(e.loc, -1)
        if e.loc >= 0 and e.writes:
            last[e.loc] = k
    return out


def brute_consistent(events: list[Any], rf: list[int]) -> bool:
    """Some interleaving of the (non-marker) events keeping program order, spawns and joins in
    which every read's last preceding write is its rf (every permutation: small traces)."""
    steps = [k for k, e in enumerate(events) if e.kind not in MARKERS]
    last_of = {e.thread: k for k, e in enumerate(events) if e.kind not in MARKERS}
    spawn_of = {e.aux: k for k, e in enumerate(events) if e.kind == "spawn"}
    for perm in itertools.permutations(steps):
        pos = {k: n for n, k in enumerate(perm)}
        ok = True
        for k in steps:
            e = events[k]
            prev = [p for p in steps if p < k and events[p].thread == e.thread]
            if prev and pos[prev[-1]] > pos[k]:
                ok = False
            if not prev and e.thread in spawn_of and pos[spawn_of[e.thread]] > pos[k]:
                ok = False
            if e.kind == "join" and e.aux in last_of and pos[last_of[e.aux]] > pos[k]:
                ok = False
        if ok and all(rf[k] == w for k, w in _last_writes(events, list(perm)).items()):
            return True
    return False


MARKERS = ("thread-end", "assume-block", "assert-fail", "fault")


@SETTINGS
@given(desc=random_programs(max_threads=3, max_ops=4), pick=st.integers(0, 10_000))
def test_sc_consistency_check_matches_brute_force(desc: ProgramDesc, pick: int) -> None:
    prog = build_program(desc)
    r = porlab.explore(prog, "naive", keep_traces=True, max_traces=20)
    for trace in r.traces[:3]:
        ev = list(trace.events)
        if sum(e.kind not in MARKERS for e in ev) > 7:
            continue
        rf = [-1] * len(ev)
        for k, w in _last_writes(ev, list(range(len(ev)))).items():
            rf[k] = w
        witness = _core.sc_consistent(ev, rf)  # the trace itself is one
        assert witness is not None
        assert _last_writes(ev, witness) == {k: rf[k] for k in _last_writes(ev, witness)}
        # Another write (or the initial value) for one read: consistent exactly when some
        # interleaving agrees.
        reads = [k for k, e in enumerate(ev) if e.loc >= 0 and e.reads]
        if not reads:
            continue
        k = reads[pick % len(reads)]
        writes = [-1] + [w for w, e in enumerate(ev) if w != k and e.loc == ev[k].loc
                         and e.writes and e.kind not in MARKERS]
        rf[k] = writes[(pick // 7) % len(writes)]
        assert (_core.sc_consistent(ev, rf) is not None) == brute_consistent(ev, rf), (rf, ev)


# ---- py-source explores the traces of the C++ source -----------------------------------------

def _counts(r: Any) -> tuple[int, int, int]:
    return (r.complete, r.blocked, r.errors)


@settings(max_examples=60, deadline=None, database=None, phases=PHASES,
          suppress_health_check=list(HealthCheck))
@given(desc=random_programs(), ifaa=st.booleans())
def test_py_source_explores_the_traces_of_source(desc: ProgramDesc, ifaa: bool) -> None:
    prog = build_program(desc)
    ref = porlab.explore(prog, "source", ifaa=ifaa, max_traces=5_000)
    if ref.budget_exceeded:
        return
    mine = porlab.explore(prog, "py-source", ifaa=ifaa)
    assert _counts(mine) == _counts(ref), desc
    assert mine.outcomes == ref.outcomes


def test_py_source_failing_early_counts_the_error_traces_of_source() -> None:
    # A thread whose first step fails, spawned after a store, beside a thread of two steps: the
    # failure is dependent with every step (it ends the run), so source reports it after 0, 1
    # and 2 steps of t1 (the sleep set must not keep the failing step asleep).
    desc = ProgramDesc(inits=[0, 0, 1], mutexes=0, threads=[
        [("store", 1, 2), ("spawn", 2), ("join", 2)],
        [("load", 2), ("xchg", 0, 1)],
        [("assert", 0)]], spawned={2: 0})
    prog = build_program(desc)
    assert _counts(porlab.explore(prog, "source")) == (0, 0, 3)
    assert _counts(porlab.explore(prog, "py-source")) == (0, 0, 3)


def _loop_free_c_files() -> list[Path]:
    files = sorted((ROOT / "tests" / "c").glob("*.c"))
    return [f for f in files if not any(w in f.read_text() for w in ("for (", "while", "goto"))]


# A sample, plus the two where an await must be moved before a write earlier than the one just
# before it (the reversal of the adjacent race is disabled there).
CORPUS = sorted({*_loop_free_c_files()[::6], ROOT / "tests" / "c" / "godot_fig4.c",
                 ROOT / "tests" / "c" / "await_lock.c"})


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_py_source_on_the_loop_free_c_corpus(path: Path) -> None:
    prog = porlab.load_c(str(path), loops="none")
    ref = porlab.explore(prog, "source", max_traces=2_000, check_races=False)
    mine = porlab.explore(prog, "py-source", max_traces=2_000, check_races=False)
    assert ref.budget_exceeded == mine.budget_exceeded
    if not ref.budget_exceeded:
        assert _counts(mine) == _counts(ref)
        assert mine.outcomes == ref.outcomes


def test_the_worked_example_of_the_docs_runs() -> None:
    import os
    import re

    text = (ROOT / "docs" / "python-explorers.md").read_text()
    code = re.search(r"```python\n(.*?)```", text, re.S)
    assert code is not None
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        exec(compile(code.group(1), "docs/python-explorers.md", "exec"), {})
    finally:
        os.chdir(cwd)
