"""Shared helpers for porlab's Python tests."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

import porlab

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def example(name: str, **params: object) -> porlab.Program:
    """Load ``examples/<name>.py`` (with build parameters, if any)."""
    return porlab.load_program(str(EXAMPLES / f"{name}.py"), **params)


def run_cli(*args: str, cwd: Path | str = ROOT, timeout: float = 60) -> subprocess.CompletedProcess:
    """Run ``python -m porlab ARGS`` and capture its output."""
    env = dict(os.environ, PYTHONWARNINGS="error")
    return subprocess.run(
        [sys.executable, "-m", "porlab", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        check=False,
    )


# ---------------------------------------------------------------------------------------------
# An independent oracle for straight-line programs of plain reads and writes.
#
# A program is a list of threads; a thread is a list of ops ("w", var, value) or ("r", var).
# The oracle enumerates every interleaving in pure Python and keys each one per equivalence,
# straight from the definitions (ALGORITHMS.md §4.3, §4.6):
#   mazurkiewicz: the order of every conflicting pair (same variable, different threads, at
#                 least one write);
#   reads-from:   the write every read reads from (None for the initial value);
#   rvf:          the value of every read and the causal order (po ∪ rf)+ restricted to reads.
# (Events are always the same set in a straight-line program.)

Op = tuple
StraightLine = Sequence[Sequence[Op]]


def build_straight_line(threads: StraightLine, name: str = "straight") -> porlab.Program:
    p = porlab.Program(name)
    names = sorted({op[1] for ops in threads for op in ops})
    locs = dict(zip(names, p.vars(*names), strict=True)) if names else {}
    for i, ops in enumerate(threads):
        with p.thread(f"t{i}") as t:
            for op in ops:
                if op[0] == "w":
                    t.store(locs[op[1]], op[2])
                else:
                    t.load(locs[op[1]])
    return p


def _interleavings(lengths: Sequence[int]):
    """Every sequence of thread ids with thread i occurring lengths[i] times."""
    counts = list(lengths)
    seq: list[int] = []
    total = sum(counts)

    def rec():
        if len(seq) == total:
            yield tuple(seq)
            return
        for t, c in enumerate(counts):
            if c:
                counts[t] -= 1
                seq.append(t)
                yield from rec()
                seq.pop()
                counts[t] += 1

    yield from rec()


def oracle_counts(threads: StraightLine) -> dict[str, int]:
    events = [(t, i) for t, ops in enumerate(threads) for i in range(len(ops))]
    conflicts = [
        (a, b)
        for a, b in itertools.combinations(events, 2)
        if a[0] != b[0]
        and threads[a[0]][a[1]][1] == threads[b[0]][b[1]][1]
        and "w" in (threads[a[0]][a[1]][0], threads[b[0]][b[1]][0])
    ]
    reads = [e for e in events if threads[e[0]][e[1]][0] == "r"]
    keys: dict[str, set] = {"mazurkiewicz": set(), "reads-from": set(), "rvf": set()}
    n = 0
    for order in _interleavings([len(ops) for ops in threads]):
        n += 1
        pos: dict[tuple[int, int], int] = {}
        nxt = [0] * len(threads)
        last_write: dict[str, tuple[int, int]] = {}
        rf: dict[tuple[int, int], tuple[int, int] | None] = {}
        for k, t in enumerate(order):
            e = (t, nxt[t])
            nxt[t] += 1
            pos[e] = k
            op = threads[t][e[1]]
            if op[0] == "w":
                last_write[op[1]] = e
            else:
                rf[e] = last_write.get(op[1])
        keys["mazurkiewicz"].add(tuple(pos[a] < pos[b] for a, b in conflicts))
        keys["reads-from"].add(tuple(rf[r] for r in reads))
        # causal order: (po ∪ rf)+; e1 reaches e2 iff some chain of po/rf edges links them.
        succ = {e: set() for e in events}
        for t, ops in enumerate(threads):
            for i in range(len(ops) - 1):
                succ[(t, i)].add((t, i + 1))
        for r, w in rf.items():
            if w is not None:
                succ[w].add(r)
        reach = {}
        for e in events:
            seen, stack = set(), [e]
            while stack:
                for s in succ[stack.pop()]:
                    if s not in seen:
                        seen.add(s)
                        stack.append(s)
            reach[e] = seen
        values = tuple(0 if rf[r] is None else threads[rf[r][0]][rf[r][1]][2] for r in reads)
        causal = tuple(b in reach[a] for a in reads for b in reads)
        keys["rvf"].add((values, causal))
    return {"interleavings": n, **{k: len(v) for k, v in keys.items()}}


@pytest.fixture
def sb() -> porlab.Program:
    return example("litmus_sb")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under pytest-xdist (``make test-python``: ``-n 2 --dist loadgroup``), every test of one C
    corpus file runs on one worker, so test_c_corpus's per-file caches (the compiled program,
    its partition, each explorer's result) are built once, not once per worker."""
    if not config.pluginmanager.hasplugin("xdist"):
        return
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        if item.module is not None and item.module.__name__.endswith("test_c_corpus") \
                and "path" in params:
            item.add_marker(pytest.mark.xdist_group(str(params["path"])))
