"""jobs > 1 for rf and rvf (issue 18): the recursion's child nodes handed to another worker give
the totals of one job (complete, blocked, errors, blocked reasons, outcomes, error sites), on
random programs and on the C corpus; budgets and interrupts stop a parallel run as they stop one.

The runs with jobs=2 use split=eager: child nodes are handed to the other worker whether or not
it is idle (up to 2000 of them), and a worker waiting for its children explores other tasks
meanwhile, so that even small programs are cut into many tasks, nested. Which worker explores
which task depends on timing; the assertions hold for every schedule."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, seed, settings

import porlab
from porlab.testing import ProgramDesc, build_program, random_programs

EXPLORERS = ["rf", "rvf"]
ROOT = Path(__file__).resolve().parents[2]
CORPUS = sorted((ROOT / "tests" / "c").glob("*.c"))


def _totals(r: porlab.Result) -> dict[str, Any]:
    return {
        "complete": r.complete,
        "blocked": r.blocked,
        "errors": r.errors,
        "blocked_by": dict(r.blocked_by),
        "outcomes": sorted(map(str, r.outcomes)),
        "error_sites": sorted(str(s) for s in r.error_sites),
        "incomplete": list(r.incomplete),
    }


def _run(prog: Any, explorer: str, jobs: int, **kw: Any) -> dict[str, Any]:
    try:
        if jobs > 1:
            kw["split"] = "eager"
        r = porlab.explore(prog, explorer, jobs=jobs, **kw)
    except (porlab.InputError, porlab.UnsupportedError) as e:
        return {"refused": type(e).__name__}
    return _totals(r)


# A program whose exploration makes many tasks under eager splitting: locks, an RMW, a CAS,
# an assertion that fails in some classes.
MANY = ProgramDesc(
    inits=[0, 0], mutexes=1,
    threads=[[("faa", 0, 1, False), ("store", 1, 1), ("load", 0), ("assert", 1)],
             [("locked", 0, [("load", 1), ("store", 0, 2)]), ("xchg", 1, 2)],
             [("cas", 0, 2, 0), ("load", 1), ("faa", 1, 1, True)],
             [("store", 0, 1), ("load", 0), ("store", 1, 0)]],
)


@pytest.mark.parametrize("explorer", EXPLORERS)
@pytest.mark.parametrize("shard", range(2))
def test_random_programs_same_totals(explorer: str, shard: int) -> None:
    @seed(20261124 + shard)
    @settings(max_examples=40, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    @given(desc=random_programs())
    def same(desc: ProgramDesc) -> None:
        prog = build_program(desc)
        one = _run(prog, explorer, 1)
        assert _run(prog, explorer, 2) == one, desc.source()

    same()


@pytest.mark.parametrize("explorer", EXPLORERS)
def test_program_with_many_tasks(explorer: str) -> None:
    prog = build_program(MANY)
    one = porlab.explore(prog, explorer, jobs=1)
    two = porlab.explore(prog, explorer, jobs=2, split="eager")
    assert _totals(two) == _totals(one)
    assert one.errors > 0 and one.complete > 10
    assert two.stats["parallel_tasks"] >= 10
    assert two.stats["jobs"] == 2


@functools.cache
def _corpus_program(path: Path) -> Any:
    from test_c_corpus import program  # the corpus's own loading (its header's args)

    return program(path)


@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_c_corpus_same_totals(path: Path) -> None:
    prog = _corpus_program(path)
    for explorer in EXPLORERS:
        one = _run(prog, explorer, 1, max_traces=3000)
        if "traces" in one.get("incomplete", []):
            two = _run(prog, explorer, 2, max_traces=3000)
            assert two["complete"] + two["blocked"] + two["errors"] == 3000, explorer
            continue
        assert _run(prog, explorer, 2) == one, explorer
