"""The `rvf` explorer (RVF-SMC with VerifySC) from Python: registry entry and guarantees, the
paper's numbers (Figures 1, 6 and 13), the ablation options, statistics, the benchmark programs
reorder(n) and singleton(n), and conformance with naive (same outcomes and error sites, never
two complete traces in one RVF class). Also `rf`, reads-from SMC on the same machinery (one
write per good-writes set): exactly one trace per reads-from class. The generic conformance
suite (test_conformance.py) runs rvf, rf and rf-graph on the examples and on Hypothesis
programs as well."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import porlab
from porlab.testing import check_explorer

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
ABLATIONS = ("backtrack_signals", "closure", "greedy", "guidance")
# Every option and the value that switches its shortcut off: the bool heuristics, and the
# consistency engine (classic: VerifySC's search for every instance, no saturation shortcut).
OFF = {**{o: "off" for o in ABLATIONS}, "engine": "classic"}


def example(name: str, **params: object) -> porlab.Program:
    return porlab.load_program(os.path.join(ROOT, "examples", f"{name}.py"), **params)


def bench(name: str, **params: object) -> porlab.Program:
    return porlab.load_program(os.path.join(ROOT, "benchmarks", "programs", f"{name}.py"),
                               **params)


def test_registered_with_its_guarantees() -> None:
    info = {e["name"]: e for e in porlab.explorers()}["rvf"]
    assert info["equivalence"] == "rvf"
    assert not info["optimal"]
    assert info["non_redundant"] and not info["covers_classes"]
    assert {o["name"] for o in info["options"]} == set(OFF) | {"split"}  # (split: jobs > 1)
    for e in porlab.explorers():  # optimal implies both guarantees
        if e["optimal"]:
            assert e["covers_classes"] and e["non_redundant"], e["name"]


def test_bad_option_values_are_errors() -> None:
    with pytest.raises(porlab.errors.InputError, match="is a bool"):
        porlab.explore(example("rvf_fig1"), "rvf", closure="sometimes")
    with pytest.raises(porlab.errors.InputError):
        porlab.explore(example("rvf_fig1"), "rvf", clousre="off")


def test_figure1_one_trace() -> None:
    r = porlab.explore(example("rvf_fig1"), "rvf")
    assert (r.complete, r.blocked, r.errors) == (1, 0, 0)
    assert porlab.partition_sizes(example("rvf_fig1")).complete["rvf"] == 1


def test_figure6_two_maximal_traces_fewer_than_the_classes() -> None:
    r = porlab.explore(example("rvf_fig6"), "rvf")
    assert (r.complete, r.blocked, r.errors) == (2, 0, 0)
    # 3 RVF classes: rvf merges the two (1, 1) classes ("Beyond RVF partitioning")
    assert porlab.partition_sizes(example("rvf_fig6")).complete["rvf"] == 3
    assert check_explorer(example("rvf_fig6"), "rvf") == []


@pytest.mark.parametrize("fig", ["rvf_fig13a", "rvf_fig13b", "rvf_fig13c"])
def test_figure13_one_trace_for_every_n(fig: str) -> None:
    for n in range(1, 9):
        r = porlab.explore(example(fig, n=n), "rvf")
        assert (r.complete, r.blocked, r.errors) == (1, 0, 0), (fig, n)
    # while the Mazurkiewicz classes grow
    assert porlab.explore(example(fig, n=3), "optimal").complete > 1


@pytest.mark.parametrize("option", OFF)
def test_ablations_change_work_not_results(option: str) -> None:
    # (godot_fig3: mutual exclusion now refutes fib_bench's children that the closure rejected)
    progs = [example("rvf_fig6"), example("rvf_fig13a", n=3), example("lapor_fib_bench", num=2),
             example("godot_fig5"), example("godot_fig3"), bench("singleton", n=3)]
    changed = False
    for prog in progs:
        # greedy steps act inside VerifySC's search, which guidance and closure mostly spare:
        # compare them without those
        base_opts = {"guidance": "off", "closure": "off"} if option == "greedy" else {}
        base = porlab.explore(prog, "rvf", **base_opts)
        r = porlab.explore(prog, "rvf", **{**base_opts, option: OFF[option]})
        assert (r.complete, r.blocked, r.errors) == (base.complete, base.blocked, base.errors)
        assert r.outcomes == base.outcomes
        assert r.error_sites == base.error_sites
        work = ("verifysc_calls", "verifysc_states", "verifysc_skipped", "nodes")
        changed |= any(r.stats[k] != base.stats[k] for k in work)
    assert changed, f"{option}=off changed no work"


def test_statistics() -> None:
    r = porlab.explore(example("lapor_fib_bench", num=2), "rvf", guidance="off")
    for key in ("verifysc_calls", "verifysc_seconds", "verifysc_states", "verifysc_skipped",
                "closure_rejections", "nodes"):
        assert key in r.stats
    assert r.stats["verifysc_calls"] > 0
    assert 0 <= r.stats["verifysc_seconds"] <= r.seconds


@pytest.mark.parametrize("n", [1, 2, 3, 5, 10, 20, 30])
def test_reorder_and_singleton_counts(n: int) -> None:
    # the paper's counts: reorder_5 4 traces, singleton 2, whatever n (assertions off)
    assert porlab.explore(bench("reorder", n=n, asserts=False), "rvf").complete == 4
    assert porlab.explore(bench("singleton", n=n, asserts=False), "rvf").complete == (
        1 if n == 1 else 2)


@pytest.mark.parametrize("name", ["reorder", "singleton"])
def test_benchmark_programs_conform(name: str) -> None:
    for n in (1, 2, 3):
        for asserts in (False, True):
            prog = bench(name, n=n, asserts=asserts)
            assert check_explorer(prog, "rvf") == [], (name, n, asserts)
    # the bugs are found (reorder: a and b seen out of order; singleton: 'Y' written last)
    assert porlab.explore(bench("reorder", n=2), "rvf").errors > 0
    assert porlab.explore(bench("singleton", n=2), "rvf").errors > 0


def test_examples_conform() -> None:
    for f in sorted(os.listdir(os.path.join(ROOT, "examples"))):
        if not f.endswith(".py"):
            continue
        prog = porlab.load_program(os.path.join(ROOT, "examples", f))
        if porlab.explore(prog, "naive", max_traces=20_000).budget_exceeded:
            continue
        assert check_explorer(prog, "rvf") == [], f


def test_rf_and_rvf_on_figure13_growth() -> None:
    # RVF: 1 class; reads-from classes grow (the paper's Figure 13 separation)
    sizes = [porlab.partition_sizes(example("rvf_fig13c", n=n)) for n in (2, 3, 4)]
    assert [s.complete["rvf"] for s in sizes] == [1, 1, 1]
    rf = [s.complete["reads-from"] for s in sizes]
    assert rf[0] < rf[1] < rf[2]


# ---- rf: reads-from SMC from the RVF-SMC machinery ------------------------------------------

def test_rf_registered_as_optimal_with_the_rvf_options() -> None:
    info = {e["name"]: e for e in porlab.explorers()}
    assert info["rf"]["equivalence"] == info["rf-graph"]["equivalence"] == "reads-from"
    assert info["rf"]["optimal"] and info["rf-graph"]["optimal"]
    assert {o["name"] for o in info["rf"]["options"]} == set(OFF) | {"split"}
    with pytest.raises(porlab.errors.InputError, match="is a bool"):
        porlab.explore(example("rvf_fig1"), "rf", greedy="never")


def test_rf_paper_numbers_with_less_work_than_rf_graph() -> None:
    assert porlab.explore(example("rvf_fig1"), "rf").complete == 9
    for n in range(1, 6):
        rf = porlab.explore(example("rvf_fig13c", n=n), "rf")
        graph = porlab.explore(example("rvf_fig13c", n=n), "rf-graph")
        assert rf.complete == graph.complete == (n + 1) ** (n - 1), n
        if n >= 4:  # rf-graph explores every (rf, co) graph, rf one leaf per class
            assert graph.stats["graphs_not_reported"] > 0
            assert rf.events < graph.events, n
    # rw(n) without locks: (n+1)^(n-1) reads-from classes (Cayley)
    for n in (2, 3, 4):
        prog = example("lapor_rw_lock", n=n, locked=False)
        assert porlab.explore(prog, "rf").complete == (n + 1) ** (n - 1)


@pytest.mark.parametrize("option", [None, *OFF])
def test_rf_conforms_with_and_without_each_heuristic(option: str | None) -> None:
    opts = {} if option is None else {option: OFF[option]}
    progs = [example("rvf_fig6"), example("rvf_fig13a", n=2), example("lapor_fib_bench", num=2),
             example("godot_fig5"), example("lapor_rw_lock", n=3), bench("singleton", n=2),
             bench("reorder", n=2)]
    for prog in progs:
        sizes = porlab.partition_sizes(prog)
        r = porlab.explore(prog, "rf", **opts)
        assert r.complete == sizes.complete["reads-from"], (prog.name, option)
        assert r.blocked == sizes.blocked["reads-from"], (prog.name, option)
        if option is None:
            assert check_explorer(prog, "rf") == [], prog.name


# ---- the shared C benchmark set (benchmarks/programs/shared/, issue 16) ---------------------

SHARED = [("casrot", {"N": 3}, None), ("readers", {"N": 3}, None), ("exp_bug", {"N": 3}, None),
          ("coa", {"N": 1}, None), ("dq_wsq", {"N": 2, "THIEVES": 1}, None),
          ("lastwrite", {"N": 3}, None), ("n_writers", {"N": 2}, None),
          ("szymanski", {"N": 2}, 2)]


def test_coa_coherence_collapses_classes() -> None:
    """coa(2) (coa(1) above: coa(2) has 569,345 interleavings, ~40 s of partition_sizes): the
    oracle's counts, 72 Mazurkiewicz classes and 47 reads-from = RVF classes (partition_sizes,
    enumerated once), reached by rf, rvf and the graph engine's rf-graph alike."""
    prog = porlab.load_c(os.path.join(ROOT, "benchmarks", "programs", "shared", "coa.c"),
                         defines={"N": 2})
    assert porlab.explore(prog, "optimal").complete == 72
    for explorer in ("rf", "rvf", "rf-graph"):
        r = porlab.explore(prog, explorer)
        assert (r.complete, r.blocked, r.errors) == (47, 0, 0), explorer


@pytest.mark.parametrize(("name", "defines", "unroll"), SHARED, ids=[s[0] for s in SHARED])
def test_shared_c_programs_conform(name: str, defines: dict[str, int], unroll: int | None) -> None:
    """rf (both engines) and rvf on the shared C programs at small sizes, against naive: the
    same outcomes and error sites, one complete trace per reads-from class."""
    prog = porlab.load_c(os.path.join(ROOT, "benchmarks", "programs", "shared", f"{name}.c"),
                         defines=defines, unroll=unroll)
    oracle = porlab.explore(prog, "naive")
    sizes = porlab.partition_sizes(prog)
    for explorer in ("rf", "rvf"):
        assert check_explorer(prog, explorer, oracle=oracle, sizes=sizes) == [], explorer
    rf = porlab.explore(prog, "rf")
    classic = porlab.explore(prog, "rf", engine="classic")
    assert rf.complete == classic.complete == sizes.complete["reads-from"]
    assert rf.blocked == classic.blocked
    assert rf.outcomes == classic.outcomes == oracle.outcomes


def test_saturated_clocks_refute_children_before_verifysc() -> None:
    """dq-wsq(2,2): rf's saturated clocks (program order, reads-from and the coherence edges
    each new step forces) refute the children that VerifySC's closure would reject, before any
    call; the classes and outcomes stay those of the classic engine (VerifySC decides every
    child there) and of optimal (the two partitions are equal on this program)."""
    prog = porlab.load_c(os.path.join(ROOT, "benchmarks", "programs", "shared", "dq_wsq.c"),
                         defines={"N": 2, "THIEVES": 2})
    rf = porlab.explore(prog, "rf")
    classic = porlab.explore(prog, "rf", engine="classic")
    assert rf.complete == classic.complete == porlab.explore(prog, "optimal").complete
    assert rf.outcomes == classic.outcomes
    assert classic.stats["saturation_refutations"] == 0
    assert rf.stats["saturation_refutations"] > 0
    assert rf.stats["closure_rejections"] < classic.stats["closure_rejections"]
    assert rf.stats["verifysc_calls"] < classic.stats["verifysc_calls"]


def test_backward_coherence_edges_leave_the_closure_nothing_to_reject() -> None:
    """szymanski(2, unroll 3): a flag read as 0 comes before every write of that flag (they are
    coherence-after the initial value), also a write that was in the trace before the read; a
    child after such a write comes after the read and after what precedes it. With these
    backward edges the saturated order refutes every child that VerifySC's closure rejected
    (16, the program's only calls): no call left, with the classes, blocked traces and outcomes
    of the classic engine and of optimal (equal partitions). (rvf, whose children need a value,
    refutes with them too; 2 of its calls are still rejected by the closure.)"""
    prog = porlab.load_c(os.path.join(ROOT, "benchmarks", "programs", "shared", "szymanski.c"),
                         defines={"N": 2}, unroll=3)
    optimal = porlab.explore(prog, "optimal")
    classic = porlab.explore(prog, "rf", engine="classic")
    for name in ("rf", "rvf"):
        r = porlab.explore(prog, name)
        assert (r.complete, r.blocked) == (optimal.complete, optimal.blocked), name
        assert r.outcomes == optimal.outcomes == classic.outcomes, name
        assert r.stats["saturation_refutations_backward"] > 0, name
    rf = porlab.explore(prog, "rf")
    assert rf.stats["closure_rejections"] == rf.stats["verifysc_calls"] == 0
    assert classic.stats["closure_rejections"] > 0
    assert classic.stats["saturation_refutations_backward"] == 0


def test_rvf_saturated_clocks_refute_value_children_before_verifysc() -> None:
    """dq-wsq(2,2) under rvf: a child that needs a value is refuted by the saturated clocks
    when every write of that value comes before another write of the location that comes
    before the read (a read comes after what precedes all its good writes); the RVF classes
    and outcomes stay those of the classic engine, where VerifySC decides every child."""
    prog = porlab.load_c(os.path.join(ROOT, "benchmarks", "programs", "shared", "dq_wsq.c"),
                         defines={"N": 2, "THIEVES": 2})
    rvf = porlab.explore(prog, "rvf")
    classic = porlab.explore(prog, "rvf", engine="classic")
    assert (rvf.complete, rvf.blocked) == (classic.complete, classic.blocked)
    assert rvf.outcomes == classic.outcomes
    assert classic.stats["saturation_refutations"] == 0
    assert rvf.stats["saturation_refutations"] > 0
    assert rvf.stats["closure_rejections"] < classic.stats["closure_rejections"]


def test_rvf_mutual_exclusion_refutes_lock_children_before_verifysc() -> None:
    """fib_bench(3) (the C program): under RVF a lock reads 0 from any unlock, so nothing in its
    good writes orders the critical sections, and the closure rejected the children whose new
    read is a lock or a read inside a section. Mutual exclusion refutes them in the saturated
    order (RvfSmcMutex.cpp): no VerifySC call is left, and the classes are optimal's (every
    order of the sections is its own class, 8!/(3!·3!·2!)) and the outcomes the classic engine's."""
    prog = porlab.load_c(os.path.join(ROOT, "benchmarks", "programs", "shared", "fib_bench.c"),
                         defines={"N": 3})
    rvf = porlab.explore(prog, "rvf")
    classic = porlab.explore(prog, "rvf", engine="classic")
    assert rvf.complete == classic.complete == porlab.explore(prog, "optimal").complete == 560
    assert rvf.outcomes == classic.outcomes
    assert rvf.stats["mutex_refutations"] > 0
    assert rvf.stats["verifysc_calls"] == rvf.stats["closure_rejections"] == 0
    assert classic.stats["mutex_refutations"] == 0
    assert classic.stats["closure_rejections"] > 0


def test_rvf_saturated_clocks_are_computed_only_when_a_child_asks() -> None:
    """casrot(4): every child of rf and rvf has a witness from the node's own trace (read last
    or inserted), so no child asks the saturated clocks for a refutation and none is computed;
    on dq-wsq(2,1) children are refuted, so clocks are computed."""
    shared = os.path.join(ROOT, "benchmarks", "programs", "shared")
    casrot = porlab.load_c(os.path.join(shared, "casrot.c"), defines={"N": 4})
    dq = porlab.load_c(os.path.join(shared, "dq_wsq.c"), defines={"N": 2, "THIEVES": 1})
    for name in ("rf", "rvf"):
        r = porlab.explore(casrot, name)
        assert r.complete == porlab.explore(casrot, "optimal").complete
        assert r.stats["verifysc_calls"] == r.stats["saturation_refutations"] == 0
        assert r.stats["saturated_clocks"] == 0
        d = porlab.explore(dq, name)
        assert d.stats["saturation_refutations"] > 0
        assert d.stats["saturated_clocks"] > 0


def test_children_inherit_the_past_part_of_visible_writes() -> None:
    """dq-wsq(2,2): a read still pending in a child node has the same causal past as in its
    parent, so the child takes the visible writes its past decides from the parent and only
    adds the writes after the past; the classes stay those of optimal (equal partitions)."""
    prog = porlab.load_c(os.path.join(ROOT, "benchmarks", "programs", "shared", "dq_wsq.c"),
                         defines={"N": 2, "THIEVES": 2})
    optimal = porlab.explore(prog, "optimal")
    for name in ("rf", "rvf"):
        r = porlab.explore(prog, name)
        assert r.stats["visible_writes_inherited"] > 0
        assert r.outcomes == optimal.outcomes
    assert porlab.explore(prog, "rf").complete == optimal.complete


def test_postponed_witnesses_patch_memory_instead_of_replaying() -> None:
    """szymanski(2, unroll 3) and dq-wsq(2,2): a child whose witness moves its read before the
    causal future of the writes that hide its source is entered without a replay, the trace
    relinked and the memory its reordered part writes patched (Execution::patchMemory) on the
    C interpreter. The path is taken, and the classes and final states stay those of optimal
    and of the classic engine, which replays every witness. (That each patched state equals
    the replayed one, memory and registers, is checked per patch by the C++ test
    ReadsFromRfSmc.PatchedPostponedWitnessesEqualReplays: here the final-memory enumeration
    of each class would hide a wrongly patched location.)"""
    shared = os.path.join(ROOT, "benchmarks", "programs", "shared")
    for path, defines, unroll in (("szymanski.c", {"N": 2}, 3),
                                  ("dq_wsq.c", {"N": 2, "THIEVES": 2}, None)):
        prog = porlab.load_c(os.path.join(shared, path), defines=defines, unroll=unroll)
        optimal = porlab.explore(prog, "optimal")
        for name in ("rf", "rvf"):
            r = porlab.explore(prog, name)
            classic = porlab.explore(prog, name, engine="classic")
            assert r.stats["replays_patched"] > 0, (path, name)
            assert classic.stats["replays_patched"] == 0
            assert r.outcomes == optimal.outcomes == classic.outcomes, (path, name)
            assert (r.complete, r.blocked) == (classic.complete, classic.blocked)
        assert porlab.explore(prog, "rf").complete == optimal.complete


# Two threads that each raise a flag and spin while the other's is up (a livelock, as written):
# every execution where both spin is cut at max_execution_events, a total over all threads.
LIVELOCK = """
#include <pthread.h>
#include <stdatomic.h>
atomic_int x, y;
void *p(void *arg) {
    (void)arg;
    atomic_store(&x, 1);
    while (atomic_load(&y) == 1) {}
    atomic_store(&x, 0);
    return 0;
}
int main(void) {
    pthread_t a;
    pthread_create(&a, 0, p, 0);
    atomic_store(&y, 1);
    while (atomic_load(&x) == 1) {}
    atomic_store(&y, 0);
    pthread_join(a, 0);
    return 0;
}
"""


@pytest.mark.parametrize("explorer", ["rf", "rvf"])
@pytest.mark.parametrize("cut", [10, 15])
def test_a_witness_reaching_the_execution_cut_elsewhere_is_a_cut_execution(
        tmp_path: Path, explorer: str, cut: int) -> None:
    """The execution cut counts events of all threads: a witness (the same steps in another
    order) can reach it at another step than the run that recorded them. That execution is
    blocked by the cut, not an internal error of the replay (it was, on szymanski.c)."""
    path = tmp_path / "livelock.c"
    path.write_text(LIVELOCK)
    prog = porlab.load_c(str(path), loops="none", max_execution_events=cut)
    r = porlab.explore(prog, explorer, check_races=False)
    assert r.errors == 0
    assert r.blocked_by.get("execution-cut", 0) > 0
    # Executions that leave the loops at once finish within the cut (both threads end with
    # their flag down).
    assert r.complete > 0


# main writes the flag before the setter starts, so main's own write is a good write of its
# spin reads that the trace has before the setter's: the first child of every node reads it
# and is placed before the setter's write in its witness, without a replay.
OWN_WRITE_SPIN = r"""
#include <pthread.h>
#include <stdatomic.h>
atomic_int flag;
void *setter(void *arg) { (void)arg; atomic_store(&flag, 1); return 0; }
int main(void) {
    pthread_t t;
    atomic_store(&flag, 0);
    pthread_create(&t, 0, setter, 0);
    while (!atomic_load(&flag)) {}
    pthread_join(t, 0);
    return 0;
}
"""


@pytest.mark.parametrize("explorer", ["rf", "rvf"])
def test_a_read_placed_earlier_is_not_blocked_by_a_livelock_of_its_late_run(
        tmp_path: Path, explorer: str) -> None:
    """A spin read inserted into its parent's trace before the setter's write is run at the end
    of that trace, where the setter is done: the C front end's livelock check (no other thread
    can run) fired there after a few iterations and the explorer reported 24 classes, verdict ok
    (the witness has the setter run after the read). It must match the classic engine, which
    replays every witness."""
    path = tmp_path / "spin.c"
    path.write_text(OWN_WRITE_SPIN)
    prog = porlab.load_c(str(path), loops="none", max_execution_events=100)
    fast = porlab.explore(prog, explorer, collect_outcomes=False)
    classic = porlab.explore(prog, explorer, collect_outcomes=False, engine="classic")
    assert fast.stats["replays_avoided"] > 0  # the in-place path ran
    assert (fast.complete, fast.blocked, fast.verdict) == (
        classic.complete, classic.blocked, classic.verdict)
    assert fast.blocked_by.get("livelock", 0) == 0
    assert fast.blocked_by.get("execution-cut", 0) > 0
