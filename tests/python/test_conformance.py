"""The conformance suite: every registered explorer against exhaustive enumeration, on the
papers' examples and on random programs (Hypothesis), plus the Python reference twin of the C++
naive explorer and equivalence keys. A new explorer joins by registering (in C++, or in Python
with porlab.register_explorer before this module is collected); its declared equivalence, ifaa,
optimal, covers_classes and non_redundant decide what is checked."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

import porlab
from porlab.testing import (
    ProgramDesc,
    build_program,
    check_explorer,
    random_programs,
    reference_partition,
)

EXAMPLES_PER_EXPLORER = int(os.environ.get("PORLAB_CONFORMANCE_EXAMPLES", "500"))
# The random programs of one explorer are split into shards, each its own test with its own
# fixed seed: every test stays a few seconds long on a loaded machine.
SHARDS = 4
# naive must enumerate a random program within this many traces, or the example is rejected
ORACLE_BUDGET = 20_000

SETTINGS = settings(
    max_examples=max(1, EXAMPLES_PER_EXPLORER // SHARDS),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    database=None,  # deterministic: each shard's seed alone decides its examples
)

# (explorer, ifaa) for every registered explorer, and the IFAA variant of every explorer whose
# registration declares ifaa: conformance by registration, nothing named here.
CONFIGS = [(e["name"], False) for e in porlab.explorers()] + [
    (e["name"], True) for e in porlab.explorers() if e["ifaa"]
]

# Shrunk failures found by this suite, kept as regression programs.
REGRESSIONS = [
    # cas() in a generated program: Reg objects could not carry .old (builder bug)
    ProgramDesc(inits=[0], mutexes=0, threads=[[("store", 0, 0)], [("cas", 0, 0, 0)]]),
    # spawn + join inside the parent, with a lock in the child
    ProgramDesc(
        inits=[0, 1], mutexes=1,
        threads=[[("spawn", 2), ("load", 0), ("join", 2), ("assert", 2)],
                 [("locked", 0, [("store", 0, 2)])],
                 [("locked", 0, [("faa", 1, 1, False)]), ("await", 1, ">=", 1)]],
        spawned={2: 0},
    ),
    # the child's spawn one step earlier where t0's read makes its store go (rf, rvf,
    # value-centric and data-centric lost a class: the child's visible writes were cached from
    # the other branch); t0: a = x0; if (a != 1) x0 = 1; x0 = 2; spawn t2. t1: x0 = 1. t2: load
    ProgramDesc(
        inits=[0], mutexes=0,
        threads=[[("load", 0), ("if", 1, [], [("store", 0, 1)]), ("store", 0, 2), ("spawn", 2)],
                 [("store", 0, 1)],
                 [("load", 0)]],
        spawned={2: 0},
    ),
]


def _small_enough(p: porlab.Program) -> bool:
    return not porlab.explore(p, "naive", max_traces=ORACLE_BUDGET).budget_exceeded


EXAMPLES_DIR = os.path.join(os.path.dirname(__file__), "..", "..", "examples")


@pytest.fixture(scope="module")
def example_programs() -> list[porlab.Program]:
    """Every bundled example (default parameters) that the oracle can enumerate."""
    progs = [porlab.load_program(os.path.join(EXAMPLES_DIR, f))
             for f in sorted(os.listdir(EXAMPLES_DIR)) if f.endswith(".py")]
    small = [p for p in progs if _small_enough(p)]
    assert any(p.name == "rvf_fig1" for p in small)
    return small


@pytest.mark.parametrize(("explorer", "ifaa"), CONFIGS, ids=[f"{e}{'-ifaa' if i else ''}"
                                                              for e, i in CONFIGS])
class TestExplorerConforms:
    def test_examples(self, explorer: str, ifaa: bool, example_programs: list) -> None:
        for prog in example_programs:
            assert check_explorer(prog, explorer, ifaa=ifaa) == [], prog.name

    def test_regressions(self, explorer: str, ifaa: bool) -> None:
        for desc in REGRESSIONS:
            assert check_explorer(build_program(desc), explorer, ifaa=ifaa) == [], desc

    @pytest.mark.parametrize("shard", range(SHARDS))
    def test_random_programs(self, explorer: str, ifaa: bool, shard: int) -> None:
        @seed(20261124 + shard)
        @SETTINGS
        @given(desc=random_programs())
        def conforms(desc: ProgramDesc) -> None:
            prog = build_program(desc)
            if not _small_enough(prog):
                return  # too large for the oracle; Hypothesis generates mostly small ones
            assert check_explorer(prog, explorer, ifaa=ifaa) == [], desc.source()

        conforms()


@pytest.mark.parametrize("shard", range(3))
def test_reference_twin_agrees_with_cpp(shard: int) -> None:
    seed(20261124 + shard)(_reference_twin_agrees)()


@settings(max_examples=100, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(desc=random_programs(), data=st.data())
def _reference_twin_agrees(desc: ProgramDesc, data: st.DataObject) -> None:
    """The Python reference (independent relations, keys and enumeration) and the C++ naive
    explorer with its keys count the same classes of complete, blocked and error traces."""
    prog = build_program(desc)
    sizes = porlab.partition_sizes(prog, max_traces=3000)
    if sizes.budget_exceeded:
        return
    ref = reference_partition(prog)
    for key, per_kind in ref.items():
        for kind, n in per_kind.items():
            assert getattr(sizes, kind)[key] == n, (key, kind, desc.source())


def test_reference_twin_on_rvf_fig1(example_programs: list) -> None:
    fig1 = next(p for p in example_programs if p.name == "rvf_fig1")
    ref = reference_partition(fig1)
    assert ref["mazurkiewicz"]["complete"] == 98
    assert ref["reads-from"]["complete"] == 9
    assert ref["rvf"]["complete"] == 1
