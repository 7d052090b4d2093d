"""Tools to prove explorers right: random programs and a pure-Python reference explorer.

* :func:`random_programs` is a Hypothesis strategy of small builder programs (2–4 threads,
  1–4 variables, up to ~8 operations per thread) mixing loads, stores, fetch-and-add (used and
  unused results), exchange, CAS, locks, awaits, assume, assert, branches and spawn/join.
  Programs are generated as plain data (:class:`ProgramDesc`), so Hypothesis shrinks failures
  to small readable programs, and :meth:`ProgramDesc.source` prints them as builder code to
  keep as regression tests.
* :func:`reference_partition` enumerates every interleaving in Python through the program
  interface (``new_execution``/``step``/``save``/``restore``) and computes the equivalence
  classes with its own, independent implementation of the relations: the differential twin of
  the C++ ``naive`` explorer and keys, and the starting point for prototyping explorers.
* :func:`check_explorer` runs one explorer against the exhaustive oracle and returns the
  discrepancies (empty when it conforms).
* :func:`check_registered` is the one-call conformance check of any registered explorer (C++ or
  Python, :func:`porlab.register_explorer`): Hypothesis programs and C files against the oracle
  of the equivalence it declares, every IFAA variant it declares, a failure shrunk to a minimal
  program printed as builder code.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from porlab import _core
from porlab.api import PartitionSizes, Result, explore, explorers, partition_sizes
from porlab.builder import Program

__all__ = [
    "ProgramDesc",
    "build_program",
    "check_explorer",
    "check_registered",
    "random_programs",
    "reference_partition",
]

# ---------------------------------------------------------------------------------------------
# Program descriptions

Op = tuple  # ("store", var, value) ... see _emit_ops


@dataclass
class ProgramDesc:
    """A small program as data: variables' initial values, mutex count, and per thread a list
    of operations. Threads listed in ``spawned`` start only when their parent spawns them."""

    inits: list[int]
    mutexes: int
    threads: list[list[Op]]
    spawned: dict[int, int] = field(default_factory=dict)  # child -> parent

    def build(self) -> Program:
        return build_program(self)

    def source(self) -> str:
        """Builder code that rebuilds this program (to keep a shrunk failure as a test)."""
        return f"porlab.testing.build_program({self!r})"


def build_program(d: ProgramDesc) -> Program:
    p = Program("random")
    xs = [p.var(f"x{i}", v) for i, v in enumerate(d.inits)]
    ms = [p.mutex(f"m{i}") for i in range(d.mutexes)]
    ths = [p.thread(f"t{i}", start=i not in d.spawned) for i in range(len(d.threads))]
    for i, ops in enumerate(d.threads):
        t = ths[i]
        last = t.let(0, "last")  # the last value read: conditions are on it
        _emit_ops(t, ops, xs, ms, ths, last)
    return p


def _emit_ops(t: Any, ops: Iterable[Op], xs: list, ms: list, ths: list, last: Any) -> None:
    for op in ops:
        kind = op[0]
        if kind == "store":
            t.store(xs[op[1]], op[2])
        elif kind == "load":
            t.set(last, t.load(xs[op[1]]))
        elif kind == "faa":
            r = t.fetch_add(xs[op[1]], op[2])
            if op[3]:
                t.set(last, r)
        elif kind == "xchg":
            t.set(last, t.exchange(xs[op[1]], op[2]))
        elif kind == "cas":
            ok = t.cas(xs[op[1]], op[2], op[3])
            t.set(last, ok.old)
        elif kind == "await":
            t.set(last, t.await_(xs[op[1]], op[2], op[3]))
        elif kind == "assume":
            t.assume(last != op[1])
        elif kind == "assert":
            t.assert_(last != op[1])
        elif kind == "if":
            with t.if_(last == op[1]):
                _emit_ops(t, op[2], xs, ms, ths, last)
            if op[3]:
                with t.else_():
                    _emit_ops(t, op[3], xs, ms, ths, last)
        elif kind == "locked":
            t.lock(ms[op[1]])
            _emit_ops(t, op[2], xs, ms, ths, last)
            t.unlock(ms[op[1]])
        elif kind == "spawn":
            t.spawn(ths[op[1]])
        elif kind == "join":
            t.join(ths[op[1]])
        else:  # pragma: no cover - descriptions come from this module
            raise ValueError(f"unknown op {op!r}")


def random_programs(
    max_threads: int = 4, max_vars: int = 4, max_ops: int = 6, spawn: bool = True
) -> Any:
    """A Hypothesis strategy of :class:`ProgramDesc` (requires the ``hypothesis`` package)."""
    from hypothesis import strategies as st

    @st.composite
    def programs(draw: Any) -> ProgramDesc:
        nvars = draw(st.integers(1, max_vars))
        nmut = draw(st.integers(0, 2))
        nthreads = draw(st.integers(2, max_threads))
        val = st.integers(0, 2)
        var = st.integers(0, nvars - 1)
        cmp = st.sampled_from(["==", "!=", "<", ">="])
        simple = st.one_of(
            st.tuples(st.just("store"), var, val),
            st.tuples(st.just("load"), var),
            st.tuples(st.just("faa"), var, st.integers(1, 2), st.booleans()),
            st.tuples(st.just("xchg"), var, val),
            st.tuples(st.just("cas"), var, val, val),
            st.tuples(st.just("await"), var, cmp, val),
            st.tuples(st.just("assume"), val),
            st.tuples(st.just("assert"), val),
        )
        branch = st.tuples(
            st.just("if"), val, st.lists(simple, max_size=2), st.lists(simple, max_size=2)
        )
        body_ops = [simple, branch]
        if nmut:
            # locked sections without awaits inside (an await under a lock is legal but
            # rarely interesting and makes deadlocks dominate)
            inner = st.lists(simple.filter(lambda o: o[0] != "await"), min_size=1, max_size=3)
            body_ops.append(st.tuples(st.just("locked"), st.integers(0, nmut - 1), inner))
        op = st.one_of(*body_ops)
        # max_ops bounds the operations of the whole program (branches and locked sections
        # count as one each but hold up to 3 more): naive must enumerate it in milliseconds.
        per_thread = max(1, max_ops // nthreads)
        threads = [draw(st.lists(op, min_size=1, max_size=per_thread)) for _ in range(nthreads)]
        spawned: dict[int, int] = {}
        if spawn and nthreads >= 3 and draw(st.booleans()):
            # the last thread is spawned by thread 0 at some point and joined later
            child, parent = nthreads - 1, 0
            spawned[child] = parent
            ops = threads[parent]
            at = draw(st.integers(0, len(ops)))
            join_at = draw(st.integers(at + 1, len(ops) + 1))
            ops.insert(at, ("spawn", child))
            ops.insert(join_at, ("join", child))
        return ProgramDesc(
            inits=[draw(val) for _ in range(nvars)], mutexes=nmut, threads=threads,
            spawned=spawned,
        )

    return programs()


# ---------------------------------------------------------------------------------------------
# The Python reference: exhaustive enumeration and independent equivalence keys


def _reads(e: _core.Event) -> bool:
    return e.kind in ("read", "fetch-add", "exchange", "cas-success", "cas-failure", "lock",
                      "await", "xchg-await")


def _writes(e: _core.Event) -> bool:
    return e.kind in ("write", "fetch-add", "exchange", "cas-success", "lock", "unlock",
                      "xchg-await")


def _conflict(a: _core.Event, b: _core.Event, ifaa: bool) -> bool:
    if a.loc < 0 or a.loc != b.loc or not (_writes(a) or _writes(b)):
        return False
    if not ((_reads(a) or _writes(a)) and (_reads(b) or _writes(b))):
        return False
    independent_faas = (
        ifaa and a.kind == b.kind == "fetch-add" and not a.result_used and not b.result_used
        and a.rmw_op in ("add", "sub") and b.rmw_op in ("add", "sub")
    )
    return not independent_faas


def _closure(n: int, edges: set[tuple[int, int]]) -> list[set[int]]:
    """before[j] = every i with a path i -> ... -> j (edges go forward in the trace)."""
    before: list[set[int]] = [set() for _ in range(n)]
    preds: list[list[int]] = [[] for _ in range(n)]
    for i, j in edges:
        preds[j].append(i)
    for j in range(n):
        for i in preds[j]:
            before[j].add(i)
            before[j] |= before[i]
    return before


def _base_edges(ev: list[_core.Event]) -> set[tuple[int, int]]:
    """Program order plus spawn -> child's first event and child's last event -> join."""
    edges = set()
    last: dict[int, int] = {}
    spawner: dict[int, int] = {}
    for j, e in enumerate(ev):
        if e.thread in last:
            edges.add((last[e.thread], j))
        elif e.thread in spawner:
            edges.add((spawner[e.thread], j))
        if e.kind == "join" and e.aux in last:
            edges.add((last[e.aux], j))
        if e.kind == "spawn":
            spawner[e.aux] = j
        last[e.thread] = j
    return edges


def _ident(e: _core.Event, values: bool) -> tuple:
    base = (e.thread, e.index, e.kind, e.loc, e.aux)
    return (*base, e.value_read, e.value_written) if values else base


def reference_keys(ev: list[_core.Event], thread: int = 0) -> dict[str, Any]:
    """Keys of one trace under every equivalence, computed from first principles; ``thread``
    is the thread value-centric and data-centric preselect."""
    n = len(ev)
    base = _base_edges(ev)
    keys: dict[str, Any] = {}
    # Mazurkiewicz (with and without IFAA): the events and the order of every conflicting pair.
    for name, ifaa in (("mazurkiewicz", False), ("mazurkiewicz-ifaa", True)):
        pairs = frozenset(
            (_ident(ev[i], False), _ident(ev[j], False))
            for i in range(n) for j in range(i + 1, n)
            if ev[i].thread != ev[j].thread and _conflict(ev[i], ev[j], ifaa)
        )
        keys[name] = (frozenset(_ident(e, False) for e in ev), pairs)
    # Reads-from: the events (with values) and the write each read reads from.
    last_write: dict[int, int] = {}
    rf: dict[int, int] = {}
    for j, e in enumerate(ev):
        if _reads(e):
            rf[j] = last_write.get(e.loc, -1)
        if _writes(e):
            last_write[e.loc] = j
    ident = [_ident(e, True) for e in ev]
    keys["reads-from"] = frozenset(
        (ident[j], ident[rf[j]] if rf.get(j, -1) >= 0 else None) for j in range(n)
    )
    # Lock-aware (LAPOR): reads-from on memory only (a lock reads from no unlock); with "mo"
    # also the order of the writes to every memory location.
    lock_kinds = ("lock", "unlock")
    keys["lock-aware"] = frozenset(
        (ident[j], ident[rf[j]] if rf.get(j, -1) >= 0 and ev[j].kind not in lock_kinds else None)
        for j in range(n)
    )
    mo = frozenset(
        (ident[i], ident[j]) for i in range(n) for j in range(i + 1, n)
        if _writes(ev[i]) and _writes(ev[j]) and ev[i].loc == ev[j].loc
        and ev[i].kind not in lock_kinds and ev[j].kind not in lock_kinds
    )
    keys["lock-aware-mo"] = (keys["lock-aware"], mo)
    # RVF: the events with values, and the causal order (po ∪ rf)+ restricted to reads.
    causal = _closure(n, base | {(w, r) for r, w in rf.items() if w >= 0})
    reads = [j for j in range(n) if _reads(ev[j])]
    keys["rvf"] = (
        frozenset(ident),
        frozenset((ident[i], ident[j]) for j in reads for i in causal[j] if i in reads),
    )
    # Value-centric and data-centric (RVF-SMC §3): with `thread` preselected, (2) the order of
    # every conflicting pair of events of two other threads; value-centric also (1) for each
    # read of `thread`, whether it reads from a write of `thread`.
    outside = frozenset(
        (_ident(ev[i], False), _ident(ev[j], False))
        for i in range(n) for j in range(i + 1, n)
        if thread not in (ev[i].thread, ev[j].thread) and ev[i].thread != ev[j].thread
        and _conflict(ev[i], ev[j], False)
    )
    own = frozenset(
        (ident[j], rf[j] >= 0 and ev[rf[j]].thread == thread)
        for j in reads if ev[j].thread == thread
    )
    keys["value-centric"] = (keys["rvf"], own, outside)
    keys["data-centric"] = (keys["reads-from"], outside)
    return keys


def reference_partition(
    program: Program | _core.ProgramBase, thread: int = 0,
) -> dict[str, dict[str, int]]:
    """Exhaustive enumeration in Python: per key (``interleavings`` and every equivalence), the
    number of classes of complete, blocked and error traces (``thread``: the thread
    value-centric and data-centric preselect)."""
    compiled = program.compile() if isinstance(program, Program) else program
    ex = compiled.new_execution()
    names = ["mazurkiewicz", "mazurkiewicz-ifaa", "reads-from", "rvf", "lock-aware",
             "lock-aware-mo", "value-centric", "data-centric"]
    seen: dict[str, dict[str, set]] = {k: {"complete": set(), "blocked": set(), "errors": set()}
                                       for k in names}
    counts = {"complete": 0, "blocked": 0, "errors": 0}
    events = list(ex.reset())

    def status() -> str:
        if ex.failed:
            return "errors"
        if all(ex.status(t) in ("finished", "not-started") for t in range(ex.max_threads)):
            return "complete"
        return "blocked"

    def report() -> None:
        s = status()
        counts[s] += 1
        for k, v in reference_keys(events, thread).items():
            seen[k][s].add(v)

    def dfs() -> None:
        if ex.failed:
            report()
            return
        enabled = ex.enabled_threads()
        if not enabled:
            report()
            return
        snap = ex.save()
        for i, t in enumerate(enabled):
            if i:
                ex.restore(snap)
            mark = len(events)
            events.extend(ex.step(t))
            dfs()
            del events[mark:]

    dfs()
    out = {"interleavings": counts}
    for k in names:
        out[k] = {s: len(v) for s, v in seen[k].items()}
    return out


# ---------------------------------------------------------------------------------------------
# Conformance of one explorer


def _explorer_info(name: str) -> dict[str, Any]:
    for e in explorers():
        if e["name"] == name:
            return e
    raise ValueError(f"unknown explorer {name!r}")


def check_explorer(
    program: Program | _core.ProgramBase, explorer: str, *, ifaa: bool = False,
    check_races: bool = True, oracle: Result | None = None,
    sizes: PartitionSizes | None = None,
) -> list[str]:
    """Run ``explorer`` and ``naive`` on ``program``; return what disagrees (empty list when
    the explorer conforms): reachable outcomes and error sites must be equal, and the
    explorer's guarantees about its equivalence must hold: ``covers_classes`` (every complete
    class has a complete trace), ``non_redundant`` (no two complete traces in one class, so
    at most as many complete traces as classes); optimal is both. ``check_races`` is passed to
    every run (data races are errors unless it is False). ``oracle`` (naive's result) and
    ``sizes`` (``partition_sizes``) may be given when the caller has them already, computed
    with the same ``check_races``: a suite that checks many explorers on one program
    enumerates it once."""
    problems: list[str] = []
    if oracle is None:
        oracle = explore(program, "naive", check_races=check_races)
    counter = _core.ClassCounter()
    got = explore(program, explorer, ifaa=ifaa, on_trace=counter.add, check_races=check_races)
    if got.budget_exceeded:
        return [f"{explorer}: budget exceeded"]
    if got.outcomes != oracle.outcomes:
        missing = oracle.outcomes - got.outcomes
        extra = got.outcomes - oracle.outcomes
        problems.append(f"{explorer}: outcomes differ: missing {sorted(missing)[:3]}, "
                        f"extra {sorted(extra)[:3]}")
    if sorted(got.error_sites) != sorted(oracle.error_sites):
        problems.append(f"{explorer}: error sites {got.error_sites} != {oracle.error_sites}")
    info = _explorer_info(explorer)
    eq = info["equivalence"]
    if eq == "mazurkiewicz" and ifaa:
        eq = "mazurkiewicz-ifaa"
    if eq in _core.EQUIVALENCES:
        if sizes is None:
            sizes = partition_sizes(program, check_races=check_races)
        mine = counter.classes(eq)
        if info.get("covers_classes", True) and mine["complete"] < sizes.complete[eq]:
            problems.append(f"{explorer}: covers {mine['complete']} of {sizes.complete[eq]} "
                            f"complete {eq} classes")
        if info.get("non_redundant", False) and not info["optimal"]:
            if got.complete > sizes.complete[eq]:
                problems.append(f"{explorer}: {got.complete} complete traces > "
                                f"{sizes.complete[eq]} complete {eq} classes")
            if got.complete != mine["complete"]:
                problems.append(f"{explorer}: {got.complete - mine['complete']} complete "
                                f"traces repeat a {eq} class")
        if info["optimal"]:
            if got.complete != sizes.complete[eq]:
                problems.append(f"{explorer}: {got.complete} complete traces, "
                                f"{sizes.complete[eq]} complete {eq} classes")
            dups = counter.duplicates(eq)
            if dups:
                problems.append(f"{explorer}: {dups} traces repeat a {eq} class")
    return problems


def check_registered(
    explorer: str, *, examples: int = 100, seed: int = 0, c_files: Iterable[str] = (),
    oracle_budget: int = 20_000, max_threads: int = 4, max_ops: int = 6,
) -> int:
    """Check a registered explorer the way the conformance suite checks the built-in ones:
    ``examples`` Hypothesis random programs (seeded by ``seed``), and every C file of
    ``c_files`` (loaded with ``loops="none"``), against exhaustive enumeration, under the
    equivalence and guarantees its registration declares, with and without IFAA when it
    declares ``ifaa``. Programs the oracle cannot enumerate within ``oracle_budget`` traces
    are skipped. Raises AssertionError on the first disagreement, with the problems and, for a
    random program, the minimal failing program (shrunk by Hypothesis) as builder code.
    Returns the number of programs checked."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import seed as hseed

    info = _explorer_info(explorer)
    variants = [False, True] if info.get("ifaa") else [False]
    checked = 0

    def check(prog: Any, what: str) -> None:
        nonlocal checked
        if explore(prog, "naive", max_traces=oracle_budget).budget_exceeded:
            return
        checked += 1
        oracle = explore(prog, "naive")
        for ifaa in variants:
            problems = check_explorer(prog, explorer, ifaa=ifaa, oracle=oracle)
            if problems:
                raise AssertionError(f"{explorer}{' with ifaa' if ifaa else ''} does not "
                                     f"conform on {what}: " + "; ".join(problems))

    @hseed(seed)
    @settings(max_examples=examples, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    @given(desc=random_programs(max_threads=max_threads, max_ops=max_ops))
    def conforms(desc: ProgramDesc) -> None:
        check(build_program(desc), "the program\n    " + desc.source())

    conforms()
    from porlab.cfront import load_c

    for path in c_files:
        check(load_c(path, loops="none"), str(path))
    return checked
