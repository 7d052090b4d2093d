"""The `lapor` explorer: the LAPOR paper's numbers (ALGORITHMS.md §3.4-§3.6), the lock-aware
equivalences in partition_sizes, and its options. Conformance against naive on random programs
is in tests/python/test_conformance.py (every registered explorer) and
tests/cpp/explore/LaporTest.cpp."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import example

import porlab
from porlab.cfront import load_c
from porlab.errors import InputError


def lapor(prog: porlab.Program, coherence: str = "wb") -> porlab.Result:
    return porlab.explore(prog, "lapor", coherence=coherence)


@pytest.mark.parametrize(
    ("name", "params", "wb", "mo"),
    [
        ("lapor_ww_rr_lock", {}, 2, 2),
        ("lapor_2rw_lock", {}, 2, 2),
        ("lapor_w_w_lock", {}, 1, 2),  # w+w+LOCK: 1 with wo = wb, 2 with wo = mo
        ("lapor_ww_r_cons", {}, 2, 2),
        ("lapor_ww_r_mixed", {}, 3, 3),
        ("lapor_complex_lock", {"n": 2}, 6, 6),
        ("lapor_complex_lock", {"n": 3}, 90, 90),
    ],
)
def test_paper_programs(name: str, params: dict, wb: int, mo: int) -> None:
    prog = example(name, **params)
    assert lapor(prog, "wb").complete == wb
    assert lapor(prog, "mo").complete == mo


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6])
def test_nreads_lock_is_one_class(n: int) -> None:
    prog = example("lapor_n_reads_lock", n=n)
    assert lapor(prog).complete == 1
    assert porlab.explore(prog, "rf").complete == math.factorial(n)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_nww_lock_rr_and_rw_lock(n: int) -> None:
    # nww-lock-rr(N) = N (GenMC N!); rw-lock(N) = N! for both; rw(N) = (N+1)^(N-1) without locks
    assert lapor(example("lapor_nww_lock_rr", n=n)).complete == n
    assert lapor(example("lapor_rw_lock", n=n)).complete == math.factorial(n)
    assert lapor(example("lapor_rw_lock", n=n, locked=False)).complete == (n + 1) ** (n - 1)


def test_fib_bench_5922() -> None:
    """LAPOR Table 1: fib_bench(NUM = 5) has 5922 executions with LAPOR, 16632 with GenMC."""
    res = lapor(example("lapor_fib_bench", num=5))
    assert res.complete == 5922
    assert porlab.explore(example("lapor_fib_bench", num=5), "rf").complete == 16632


def test_fib_bench_final_graphs_need_no_search() -> None:
    """co-filter's work at a final graph. fib_bench writes each location from one thread, so
    porf fixes every coherence order: no canonical-coherence search (co_forced). And the witness
    each reported graph was extended with, its critical sections moved apart, is one of it: no
    mutual-exclusion search (greedy_witnesses). nww-lock-rr's x and y have a writer per thread:
    its graphs need the search for their canonical coherence (n! graphs, n reported)."""
    res = porlab.explore(example("lapor_fib_bench", num=3), "lapor", wb_graphs="co-filter")
    assert res.complete == 230
    assert res.stats["co_forced"] == res.stats["greedy_witnesses"] == 230
    assert "sc_searches" not in res.stats
    nww = porlab.explore(example("lapor_nww_lock_rr", n=3), "lapor", wb_graphs="co-filter")
    assert nww.complete == 3
    assert "co_forced" not in nww.stats
    assert nww.stats["sc_searches"] == math.factorial(3)


@pytest.mark.parametrize(
    "name", ["lapor_ww_rr_lock", "lapor_2rw_lock", "lapor_w_w_lock", "lapor_ww_r_mixed",
             "lapor_complex_lock"])
def test_counts_equal_lock_aware_partition(name: str) -> None:
    prog = example(name)
    sizes = porlab.partition_sizes(prog)
    assert lapor(prog, "wb").complete == sizes.complete["lock-aware"]
    assert lapor(prog, "mo").complete == sizes.complete["lock-aware-mo"]
    # lock-aware is coarser than reads-from, lock-aware-mo than Mazurkiewicz
    assert sizes.complete["lock-aware"] <= sizes.complete["reads-from"]
    assert sizes.complete["lock-aware-mo"] <= sizes.complete["mazurkiewicz"]


@pytest.mark.parametrize(
    ("name", "params"),
    [("lapor_nww_lock_rr", {"n": n}) for n in (2, 3)]
    + [("lapor_w_w_lock", {}), ("lapor_ww_rr_lock", {}), ("lapor_2rw_lock", {}),
       ("lapor_ww_r_mixed", {}), ("lapor_rw_lock", {"n": 3}), ("lapor_complex_lock", {"n": 2}),
       ("lapor_fib_bench", {"num": 2})],
)
def test_rf_graphs_explore_one_graph_per_class(name: str, params: dict) -> None:
    """wb_graphs="rf" explores graphs of reads-from only: every maximal graph it
    reaches is a trace of its own lock-aware class; none is explored and then filtered out as
    with wb_graphs="co-filter", which enumerates coherence orders."""
    prog = example(name, **params)
    sizes = porlab.partition_sizes(prog)
    res = porlab.explore(prog, "lapor", wb_graphs="rf")
    assert res.complete == sizes.complete["lock-aware"]
    assert res.blocked == sizes.blocked["lock-aware"]
    assert res.stats["graphs_not_reported"] == 0


@pytest.mark.parametrize("n", [4, 6])
def test_rf_graphs_nww_lock_rr_explores_n_graphs(n: int) -> None:
    """LAPOR Table 2: nww-lock-rr(N) has N executions; with graphs of reads-from only (the
    default), N graphs are explored (co-filter explores N! coherence orders and reports N)."""
    prog = example("lapor_nww_lock_rr", n=n)
    res = porlab.explore(prog, "lapor", wb_graphs="rf")
    assert (res.complete, res.stats["graphs_not_reported"]) == (n, 0)
    default = porlab.explore(prog, "lapor")
    assert (default.complete, default.stats["graphs_not_reported"]) == (n, 0)
    assert default.stats["wb_consistency_checks"] == res.stats["wb_consistency_checks"]
    old = porlab.explore(prog, "lapor", wb_graphs="co-filter")
    assert old.complete == n
    assert old.complete + old.stats["graphs_not_reported"] == math.factorial(n)
    # Every section ends (`lock; x = i; y = i; unlock`: Program.sections_end), so no lock is
    # tried blocked for good and no graph is dropped.
    assert prog.compile().sections_end
    assert res.stats["blocked_dropped"] == res.stats["lock_never_held"] == 0
    # Without the analysis (ablation) every lock may also stay blocked for good (a
    # placeholder): the 2^N - 1 graphs with a nonempty set of blocked locks are dead ends,
    # refused without a witness search because no thread ends holding the mutex.
    abl = porlab.explore(prog, "lapor", wb_graphs="rf", sections_end=False)
    assert (abl.complete, abl.stats["graphs_not_reported"]) == (n, 0)
    assert abl.stats["blocked_dropped"] == abl.stats["lock_never_held"] == 2**n - 1


@pytest.mark.parametrize("n", [4, 6, 8, 10, 12])
def test_blocked_lock_sources_nww_lock_rr(n: int) -> None:
    """Issue 16: with blocked_locks="sources" a lock stays blocked only with a source, a section
    that never ends. nww-lock-rr(N) explores N graphs and drops none at the end (eager: 2^N - 1,
    above); each section of thread i revisits the i - 1 locks before it, a graph dropped at its
    unlock without a search: N(N-1)/2 (no revisit could mend it: nothing between the blocked
    lock and the unlock reads memory or acquires). (Without the analysis that every section
    ends, sections_end=False: with it, no lock is tried blocked and nothing is revisited.)"""
    prog = example("lapor_nww_lock_rr", n=n)
    res = porlab.explore(
        prog, "lapor", wb_graphs="rf", blocked_locks="sources", sections_end=False
    )
    assert (res.complete, res.blocked, res.stats["graphs_not_reported"]) == (n, 0, 0)
    assert res.stats["blocked_dropped"] == 0
    assert res.stats["blocker_closed"] == res.stats["revisits"] == n * (n - 1) // 2
    assert res.stats["blocker_closed_revivable"] == 0
    res = porlab.explore(prog, "lapor", wb_graphs="rf", blocked_locks="sources")
    assert (res.complete, res.blocked, res.stats["revisits"]) == (n, 0, 0)
    assert res.stats["blocker_closed"] == res.stats["blocked_dropped"] == 0


@pytest.mark.parametrize("wb_graphs", ["co-filter", "rf"])
@pytest.mark.parametrize(
    "name", ["philosophers_deadlock.c", "deadlock_abba.c", "cxx_deadlock_abba.cpp"]
)
def test_blocked_lock_sources_find_the_deadlocks(name: str, wb_graphs: str) -> None:
    """blocked_locks="sources" on the C corpus's deadlocks: the verdict, outcomes and error
    sites of naive (the three philosophers need a graph whose blocked lock's source section
    ended to be explored on until a revisit mends it)."""
    prog = load_c(Path(__file__).parents[1] / "c" / name, loops="none")
    oracle = porlab.explore(prog, "naive")
    res = porlab.explore(prog, "lapor", wb_graphs=wb_graphs, blocked_locks="sources")
    assert res.verdict == oracle.verdict == "violation"
    assert res.outcomes == oracle.outcomes
    assert sorted(res.error_sites) == sorted(oracle.error_sites)


def test_rf_graphs_maximality_answers_kept_per_revisiting_write() -> None:
    """The revisits of one write ask whether the same events were added maximally (TruSt's
    revisit condition) once per read they would revisit: the answers, a function of the graph,
    the event and the write, are kept for the write's revisits (a memo keyed without the write
    loses and repeats classes: tests/cpp Lapor.RfGraphsRandomPrograms)."""
    prog = example("lapor_fib_bench", num=3)
    res = porlab.explore(prog, "lapor", wb_graphs="rf")
    assert res.stats["wb_maximality_memo"] > 0
    sizes = porlab.partition_sizes(prog)
    assert (res.complete, res.blocked) == (sizes.complete["lock-aware"], 0)


def test_rf_graphs_explore_no_graph_that_breaks_mutual_exclusion() -> None:
    """A partial graph's witness may end a thread's open section early (before another
    thread's section of the mutex). The thread's next event goes at the end of that witness
    only if no such section follows (MutexLocks::appendable); otherwise the graph is checked.
    So every final graph dropped on fib_bench(3) is a dead end of a lock left blocked (no
    thread ends holding the mutex; without the analysis that every section ends, which leaves
    no such lock), none an inconsistent graph explored to its end (19 were, as co-filter still
    does)."""
    prog = example("lapor_fib_bench", num=3)
    res = porlab.explore(prog, "lapor", wb_graphs="rf", sections_end=False)
    assert res.complete == 230  # the lock-aware classes (test above: the oracle's count)
    assert res.stats["blocked_dropped"] == res.stats["lock_never_held"] > 0
    res = porlab.explore(prog, "lapor", wb_graphs="rf")
    assert res.complete == 230
    assert res.stats["blocked_dropped"] == res.stats["lock_never_held"] == 0


def _faa_chain() -> porlab.Program:
    # T0 `x=1; r=x` || T1 `faa(x,10)` || T2 `lock; x=2; faa(x,100); unlock`: 25 classes. The
    # class x=2, x=1, faa 1 -> 11, faa 11 -> 111, r = 111 was lost when a revisit's canonical
    # source ignored the revisiting write (r's parent had to read 2, which faa 100 reading 11
    # makes inconsistent).
    p = porlab.Program("faa_chain")
    x = p.var("x")
    lk = p.mutex("l")
    with p.thread("T0") as t:
        t.store(x, 1)
        t.load(x, "r")
    with p.thread("T1") as t:
        t.fetch_add(x, 10)
    with p.thread("T2") as t:
        t.lock(lk)
        t.store(x, 2)
        t.fetch_add(x, 100)
        t.unlock(lk)
    return p


def _section_added_late() -> porlab.Program:
    # T0 `lock; x=1; unlock` || T1 `lock; faa(x,-1); faa(x,10); unlock` || T2 `faa(x,1000)`: 8
    # classes. The class where T1's section comes first and faa 1000 lands between its two
    # faas was lost when the canonical source (x=1, last in the witness) was one that breaks
    # mutual exclusion: T0's section was added first but comes after T1's in the class.
    p = porlab.Program("section_added_late")
    x = p.var("x")
    lk = p.mutex("l")
    with p.thread("T0") as t:
        t.lock(lk)
        t.store(x, 1)
        t.unlock(lk)
    with p.thread("T1") as t:
        t.lock(lk)
        t.fetch_add(x, -1)
        t.fetch_add(x, 10)
        t.unlock(lk)
    with p.thread("T2") as t:
        t.fetch_add(x, 1000)
    return p


@pytest.mark.parametrize("build", [_faa_chain, _section_added_late])
def test_rf_graphs_read_modify_write_chains_lose_no_class(
    build: Callable[[], porlab.Program],
) -> None:
    prog = build()
    sizes = porlab.partition_sizes(prog)
    res = porlab.explore(prog, "lapor", wb_graphs="rf")
    assert res.complete == sizes.complete["lock-aware"]
    assert res.stats["graphs_not_reported"] == 0


@pytest.mark.parametrize(
    ("name", "races"),
    [
        ("dead_frame.c", True),  # a write after the end of scope of its location
        ("write_after_free.c", True),  # ... after a free: missed before (verdict "ok")
        ("exit_frame.c", True),
        ("write_after_free_po.c", False),  # a complete class only behind a faulting write
        ("write_after_free_two.c", False),
        ("cxx_scoped_lock.cpp", True),  # open sections closed in another order than locked
    ],
)
def test_rf_graphs_agree_with_naive_on_kills_and_sections(name: str, races: bool) -> None:
    """wb_graphs="rf" against the naive oracle where it failed before: a plain write and the kill
    (end of scope, free) of its location are in no order in a graph of reads-from only, so the
    write after the kill, which faults, is found by its own search (WbGraphs::writeAfterKill),
    and a write that can only run after a kill is the graph of its fault, explored on; a
    partial graph's open critical sections may end in any order. Same outcomes and error sites
    as naive, one complete trace per complete lock-aware class."""
    prog = load_c(Path(__file__).parents[1] / "c" / name, loops="none")
    oracle = porlab.explore(prog, "naive", check_races=races)
    sizes = porlab.partition_sizes(prog, check_races=races)
    res = porlab.explore(prog, "lapor", wb_graphs="rf", check_races=races)
    assert res.verdict == oracle.verdict
    assert res.outcomes == oracle.outcomes
    assert sorted(res.error_sites) == sorted(oracle.error_sites)
    assert res.complete == sizes.complete["lock-aware"]


def test_bad_coherence_is_an_input_error() -> None:
    with pytest.raises(InputError, match="coherence"):
        lapor(example("lapor_w_w_lock"), "co")


SHARED = Path(__file__).resolve().parents[2] / "benchmarks" / "programs" / "shared"


def test_shared_c_nww_lock_rr() -> None:
    """benchmarks/programs/shared/nww_lock_rr.c (issue 16's shared set): N lock-aware classes,
    N! with locks ordered, and no assertion fails (its header's claims, at N = 3)."""
    prog = load_c(str(SHARED / "nww_lock_rr.c"), defines={"N": 3})
    sizes = porlab.partition_sizes(prog)
    res = lapor(prog)
    assert (res.complete, res.errors) == (3, 0)
    assert sizes.complete["lock-aware"] == 3
    assert porlab.explore(prog, "rf").complete == sizes.complete["reads-from"] == 6


def test_shared_c_fib_bench() -> None:
    """benchmarks/programs/shared/fib_bench.c at N = 2: lapor reports the lock-aware classes,
    rf (locks as read-modify-writes) every order of the 2N + 2 sections, 6!/(2! 2! 2!) = 90."""
    prog = load_c(str(SHARED / "fib_bench.c"), defines={"N": 2})
    sizes = porlab.partition_sizes(prog)
    assert lapor(prog).complete == sizes.complete["lock-aware"]
    assert porlab.explore(prog, "rf").complete == sizes.complete["reads-from"] == 90


@pytest.mark.parametrize("wb_graphs", ["co-filter", "rf"])
def test_c_and_builder_fib_bench_cost_the_same(wb_graphs: str) -> None:
    """fib_bench(3) in C (main is thread 0) and from the builder (main is the last thread): the
    same program, explored at the same cost. lapor extends spawned threads first, in spawn order
    (Lapor.cpp's nextThread); with the left-most thread first, C revisited main's reads with
    every worker's write: 229 revisits instead of 19."""
    checks = "wb_consistency_checks" if wb_graphs == "rf" else "consistency_checks"
    costs = []
    for prog in (
        load_c(str(SHARED / "fib_bench.c"), defines={"N": 3}),
        example("lapor_fib_bench", num=3),
    ):
        res = porlab.explore(prog, "lapor", wb_graphs=wb_graphs)
        costs.append((res.complete, res.stats["revisits"], res.stats[checks]))
    assert costs[0] == costs[1]
    assert costs[0][:2] == (230, 19)
