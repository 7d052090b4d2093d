"""The Mazurkiewicz explorers (source, optimal, optimal-await) on the papers' programs: the trace
counts the papers print, and that optimal explorers meet the class counts exactly."""

from __future__ import annotations

import math
import runpy

import pytest
from conftest import EXAMPLES, example, run_cli

import porlab

OPTIMAL = ["optimal", "optimal-await"]


def counts(r: porlab.Result) -> tuple[int, int, int]:
    return r.complete, r.blocked, r.errors


@pytest.mark.parametrize("explorer", OPTIMAL)
def test_rvf_fig1_98(explorer: str) -> None:
    assert counts(porlab.explore(example("rvf_fig1"), explorer)) == (98, 0, 0)


@pytest.mark.parametrize("explorer", OPTIMAL)
def test_godot_fig3_and_fig4(explorer: str) -> None:
    assert counts(porlab.explore(example("godot_fig3"), explorer)) == (4, 0, 0)
    assert counts(porlab.explore(example("godot_fig4"), explorer)) == (2, 0, 0)


def test_godot_fig2_assume_versus_await() -> None:
    """(b) the assume version explores one complete and one assume-blocked execution; (c) the
    await version only the complete one."""
    assert counts(porlab.explore(example("godot_fig2", variant="assume"), "optimal-await")) == (
        1, 1, 0)
    assert counts(porlab.explore(example("godot_fig2", variant="await"), "optimal-await")) == (
        1, 0, 0)


def test_godot_fig5_with_and_without_ifaa() -> None:
    """Three fetch-and-adds and an await on x == 3. optimal-await explores exactly the classes:
    2 complete + 6 blocked without IFAA (the three FAAs are ordered 3! ways when the await stays
    blocked; with s reading r's FAA, p and q are ordered 2 ways), 1 + 1 with IFAA (the FAAs
    commute). No difference between explored blocked executions and blocked classes."""
    prog = example("godot_fig5")
    sizes = porlab.partition_sizes(prog)
    plain = porlab.explore(prog, "optimal-await")
    ifaa = porlab.explore(prog, "optimal-await", ifaa=True)
    assert counts(plain) == (2, 6, 0)
    assert counts(ifaa) == (1, 1, 0)
    assert (plain.complete, plain.blocked) == (sizes.complete["mazurkiewicz"],
                                                sizes.blocked["mazurkiewicz"])
    assert (ifaa.complete, ifaa.blocked) == (sizes.complete["mazurkiewicz-ifaa"],
                                              sizes.blocked["mazurkiewicz-ifaa"])


@pytest.mark.parametrize("n", range(2, 9))
def test_sortnet_await_is_one_execution(n: int) -> None:
    """Godot's headline: with awaits every execution of the sorting network is in one class, so
    Optimal-DPOR-Await explores exactly 1 complete and 0 blocked executions for every n."""
    r = porlab.explore(example("sortnet", n=n, mode="await"), "optimal-await")
    assert counts(r) == (1, 0, 0)


def test_sortnet_assume_grows() -> None:
    """With load+assume instead of await, reading a version too early blocks for good: blocked
    executions appear and grow quickly with n (1+2, 1+22, 1+86 for n = 2, 3, 4), and every
    explorer agrees with the class counts where naive can enumerate them."""
    seen = []
    for n in (2, 3, 4):
        prog = example("sortnet", n=n, mode="assume")
        r = porlab.explore(prog, "optimal-await")
        assert r.complete == 1 and r.errors == 0
        seen.append(r.blocked)
        if n == 2:
            sizes = porlab.partition_sizes(prog)
            assert r.blocked == sizes.blocked["mazurkiewicz"]
        for other in ("optimal", "source"):
            assert counts(porlab.explore(prog, other)) == counts(r)
    assert seen == [2, 22, 86]


def test_godot_fig1_three_elements() -> None:
    """Figure 1 itself (3 elements, flag hand-off): 1 execution with awaits, 1+2 with assumes."""
    ns = runpy.run_path(str(EXAMPLES / "sortnet.py"))
    assert counts(porlab.explore(ns["build3"]("await"), "optimal-await")) == (1, 0, 0)
    assert counts(porlab.explore(ns["build3"]("assume"), "optimal-await")) == (1, 2, 0)


@pytest.mark.parametrize("explorer", OPTIMAL)
def test_lapor_n_reads(explorer: str) -> None:
    """N-READS has one class; N-READS-LOCK has N! (locks as read-modify-writes)."""
    for n in range(1, 6):
        assert porlab.explore(example("lapor_n_reads", n=n), explorer).complete == 1
        assert porlab.explore(example("lapor_n_reads_lock", n=n), explorer).complete == (
            math.factorial(n))


def test_source_covers_every_class_and_may_repeat() -> None:
    prog = example("rvf_fig1")
    counter = porlab._core.ClassCounter()
    r = porlab.explore(prog, "source", on_trace=counter.add)
    assert counter.classes("mazurkiewicz")["complete"] == 98
    assert r.complete >= 98
    assert r.complete == 98 + counter.duplicates("mazurkiewicz")


def test_budget_ends_cleanly_and_runs_are_deterministic() -> None:
    prog = example("lapor_n_reads_lock", n=6)
    cut = porlab.explore(prog, "optimal", max_traces=5)
    assert cut.budget_exceeded and cut.budget_reason == "traces" and cut.complete == 5
    a, b = porlab.explore(prog, "optimal"), porlab.explore(prog, "optimal")
    assert counts(a) == counts(b) == (720, 0, 0) and a.events == b.events


def test_optimal_keeps_no_memory_per_trace() -> None:
    """Memory is flat in the number of traces: nothing per explored trace is kept unless asked
    (the traces list stays empty; peak RSS barely moves between 720 and 40320 traces)."""
    small = porlab.explore(example("lapor_n_reads_lock", n=6), "optimal", collect_outcomes=False)
    big = porlab.explore(example("lapor_n_reads_lock", n=8), "optimal", collect_outcomes=False)
    assert big.complete == 40320 and big.traces == []
    assert big.peak_memory_bytes - small.peak_memory_bytes < 64 * 2**20


def test_cli_explorers_and_ifaa() -> None:
    out = run_cli("explorers")
    for name in ("naive", "source", "optimal", "optimal-await"):
        assert name in out.stdout
    r = run_cli("explore", "examples/godot_fig5.py", "-e", "optimal-await", "--ifaa")
    assert r.returncode == 0 and "1 complete + 1 blocked" in r.stdout


def test_misspelt_explorer_option_is_an_error() -> None:
    prog = example("litmus_sb")
    with pytest.raises(porlab.InputError, match=r"no option 'can_stopp'.*can_stop"):
        porlab.explore(prog, "optimal", can_stopp=False)
    assert porlab.explore(prog, "optimal", can_stop=False).complete == 3
    optimal = next(e for e in porlab.explorers() if e["name"] == "optimal")
    assert [o["name"] for o in optimal["options"]] == ["can_stop", "zne"]
    r = run_cli("explore", "examples/litmus_sb.py", "-e", "naive", "-o", "depth=3")
    assert r.returncode == 2 and "has no option 'depth'" in r.stderr
