"""porlab.traces: lazy iteration over the traces an explorer finds, in a background thread."""

from __future__ import annotations

import gc
import itertools
import queue
import threading
import time
from collections import Counter
from pathlib import Path

import pytest
from conftest import EXAMPLES, example
from hypothesis import HealthCheck, given, settings

import porlab
from porlab import iterate
from porlab.iterate import traces
from porlab.testing import ProgramDesc, random_programs

EXPLORERS = [e["name"] for e in porlab.explorers()]
PROGRAMS = [
    ("litmus_sb", {}),
    ("rvf_fig1", {}),
    ("godot_fig2", {"variant": "assume"}),  # blocked traces
    ("godot_fig3", {}),  # spawn/join
    ("godot_fig4", {}),
    ("lapor_2rw_lock", {}),
]


def huge(explorer: str = "naive") -> porlab.Program:
    """9 threads of ``x := 1; r := x``: 18!/2^9 ≈ 1.2·10^12 interleavings for naive. (For rvf
    that is one class: it gets rw(8) instead, 9^7 classes with pairwise distinct values.)"""
    if explorer == "rvf":
        return example("lapor_rw_lock", n=8, locked=False)
    return example("rvf_fig13c", n=9)


def threads_settle(before: int, timeout: float = 2.0) -> bool:
    """Wait (briefly) until the number of live threads is back to ``before``."""
    deadline = time.monotonic() + timeout
    while threading.active_count() != before and time.monotonic() < deadline:
        time.sleep(0.01)
    return threading.active_count() == before


# --- the same traces as explore() ------------------------------------------------------------


@pytest.mark.parametrize("explorer", EXPLORERS)
@pytest.mark.parametrize(("name", "params"), PROGRAMS, ids=[n for n, _ in PROGRAMS])
def test_yields_every_trace_explore_counts(explorer: str, name: str, params: dict) -> None:
    p = example(name, **params)
    r = porlab.explore(p, explorer)
    got = list(traces(p, explorer))
    assert len(got) == r.complete + r.blocked + r.errors > 0
    statuses = Counter(t.status for t in got)
    assert statuses == Counter(
        {"complete": r.complete, "blocked": r.blocked, "error": r.errors}
    ) - Counter()  # (drops zero counts)
    assert all(isinstance(t, porlab.Trace) for t in got)


def test_same_traces_in_the_same_order_as_keep_traces() -> None:
    p = example("rvf_fig1")
    kept = porlab.explore(p, "optimal", keep_traces=True).traces
    assert [str(t) for t in traces(p, "optimal")] == [str(t) for t in kept]


def test_traces_outlive_the_exploration() -> None:
    got = list(traces(example("litmus_sb"), "naive"))
    gc.collect()
    for t in got:
        assert len(t.events) == len(t.reads_from()) > 0
        assert "write" in str(t)


def test_options_reach_explore() -> None:
    p = huge()
    assert len(list(traces(p, "naive", max_traces=5))) == 5
    assert len(list(traces(example("rvf_fig1"), "optimal", ifaa=True))) > 0


@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(desc=random_programs(max_threads=3, max_vars=2, max_ops=5))
def test_random_programs_count(desc: ProgramDesc) -> None:
    p = desc.build()
    r = porlab.explore(p, "optimal-await")
    assert sum(1 for _ in traces(p, "optimal-await", buffer=2)) == (
        r.complete + r.blocked + r.errors
    )


def test_accepts_a_program_file_path() -> None:
    path = EXAMPLES / "litmus_sb.py"
    assert len(list(traces(path, "optimal"))) == 3
    assert len(list(traces(str(path), "optimal"))) == 3


# --- laziness and early stop ----------------------------------------------------------------


def test_islice_on_millions_of_traces_returns_quickly_and_ends_the_thread() -> None:
    p = huge()
    p.compile()
    before = threading.active_count()
    t0 = time.perf_counter()
    first = list(itertools.islice(traces(p, "naive"), 3))
    elapsed = time.perf_counter() - t0
    assert len(first) == 3
    assert elapsed < 2.0
    assert threads_settle(before)
    assert all(t.status == "complete" for t in first)


@pytest.mark.parametrize("explorer", EXPLORERS)
def test_break_cancels_every_explorer(explorer: str) -> None:
    before = threading.active_count()
    n = 0
    for _ in traces(huge(explorer), explorer):
        n += 1
        if n == 10:
            break
    assert n == 10
    assert threads_settle(before)


def test_close_and_garbage_collection_end_the_thread() -> None:
    before = threading.active_count()
    g = traces(huge(), "optimal")
    assert threading.active_count() == before  # nothing starts before the first next()
    next(g)
    assert threading.active_count() == before + 1
    g.close()
    assert threading.active_count() == before
    with pytest.raises(StopIteration):
        next(g)

    g = traces(huge(), "naive")
    next(g)
    del g
    gc.collect()
    assert threads_settle(before)


def test_an_exception_in_the_consumer_ends_the_thread() -> None:
    before = threading.active_count()
    with pytest.raises(KeyError):
        for _ in traces(huge(), "source"):
            raise KeyError("consumer")
    assert threads_settle(before)


def test_back_pressure_bounds_the_queue(monkeypatch: pytest.MonkeyPatch) -> None:
    """A slow consumer: the explorer waits, the queue never holds more than ``buffer``."""
    sizes: list[int] = []

    class Recording(queue.Queue):
        def put(self, item: object, block: bool = True, timeout: float | None = None) -> None:
            super().put(item, block, timeout)
            sizes.append(self.qsize())

    monkeypatch.setattr(iterate.queue, "Queue", Recording)
    before = threading.active_count()
    g = traces(huge(), "naive", buffer=4)
    next(g)
    time.sleep(0.3)  # the producer runs ahead until the queue is full, then waits
    n_puts = len(sizes)
    time.sleep(0.2)
    assert len(sizes) == n_puts  # ... and stays waiting
    assert 4 <= n_puts <= 6
    assert max(sizes) <= 4
    g.close()
    assert threads_settle(before)


# --- errors surface in the consumer ----------------------------------------------------------


def test_unknown_explorer_raises_on_first_next() -> None:
    before = threading.active_count()
    g = traces(example("litmus_sb"), "no-such-explorer")  # lazy: nothing raised yet
    with pytest.raises(porlab.InputError, match="unknown explorer 'no-such-explorer'"):
        next(g)
    assert threads_settle(before)


def test_bad_option_raises() -> None:
    with pytest.raises(porlab.InputError, match="max_traces must be a number"):
        list(traces(example("litmus_sb"), "naive", max_traces="many"))
    with pytest.raises(TypeError, match="on_trace"):
        traces(example("litmus_sb"), on_trace=print)
    with pytest.raises(ValueError, match="buffer"):
        traces(example("litmus_sb"), buffer=0)


def test_errors_in_the_program_file_surface(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "from porlab import Program\n"
        "p = Program('bad')\n"
        "x = p.var('x')\n"
        "t = p.thread('t')\n"
        "t.store(x, 1)\n"
        "program = p\n"
        "1 / 0\n",
        encoding="utf-8",
    )
    with pytest.raises(porlab.InputError, match=r"bad\.py:7: ZeroDivisionError"):
        next(traces(bad))
    missing = tmp_path / "missing.py"
    with pytest.raises(porlab.InputError, match="no such file"):
        next(traces(missing))


def test_invalid_program_raises_program_error() -> None:
    p = porlab.Program("empty")
    p.var("x")
    with pytest.raises(porlab.ProgramError, match="no threads"):
        next(traces(p))


def test_errors_raised_during_the_exploration_reach_the_consumer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An exception raised in the worker after some traces (here: by the trace callback, inside
    the C++ exploration) comes after the traces found before it, and the thread ends."""
    real_explore = iterate.explore

    def failing_explore(*args: object, on_trace: object = None, **kw: object) -> object:
        seen = 0

        def callback(t: porlab.Trace) -> None:
            nonlocal seen
            seen += 1
            if seen == 3:
                raise RuntimeError("explorer failed at trace 3")
            on_trace(t)  # type: ignore[operator]

        return real_explore(*args, on_trace=callback, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(iterate, "explore", failing_explore)
    before = threading.active_count()
    got = []
    with pytest.raises(RuntimeError, match="at trace 3"):
        for t in traces(huge(), "optimal"):
            got.append(t)
    assert len(got) == 2
    assert threads_settle(before)
