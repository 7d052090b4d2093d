"""Distributed exploration on a Dask cluster (issue 18, porlab.distributed): the totals of a
2-worker LocalCluster (processes) are those of one sequential run, on random programs and C
corpus files, also when a worker process is killed mid-run (Dask reschedules its task).

Tasks split at once (``split_after=-1``: every subtree a task does not start itself is handed
back), so that even small programs are cut into tens of tasks that travel between processes as
bytes, whatever the timing. One module-scoped cluster serves every test (starting
one costs seconds); the worker-killing test runs last."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import porlab
from porlab import distributed
from porlab.testing import ProgramDesc, build_program

dask_distributed = pytest.importorskip("dask.distributed")

ROOT = Path(__file__).resolve().parents[2]
EXPLORERS = ["graph", "rf-graph", "lapor"]
SPLIT = -1.0


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    cluster = dask_distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                            dashboard_address=":0", silence_logs=50)
    c = dask_distributed.Client(cluster)
    try:
        yield c
    finally:
        c.close()
        cluster.close()


def _totals(r: porlab.Result, outcomes: bool = True) -> dict[str, Any]:
    d = {"complete": r.complete, "blocked": r.blocked, "errors": r.errors,
         "blocked_by": dict(r.blocked_by), "error_sites": sorted(map(str, r.error_sites)),
         "incomplete": list(r.incomplete), "verdict": r.verdict}
    if outcomes:
        d["outcomes"] = set(r.outcomes)
    return d


PROGRAMS = [
    ProgramDesc(inits=[0, 0], mutexes=1, threads=[
        [("faa", 0, 1, False), ("store", 1, 1), ("load", 0), ("assert", 1)],
        [("locked", 0, [("load", 1), ("store", 0, 2)]), ("xchg", 1, 2)],
        [("cas", 0, 2, 0), ("load", 1)]]),
    ProgramDesc(inits=[0], mutexes=1, threads=[
        [("locked", 0, [("load", 0), ("store", 0, 1)]), ("assert", 0)],
        [("locked", 0, [("load", 0), ("store", 0, 2)])],
        [("cas", 0, 0, 3), ("load", 0)]]),
]


@pytest.mark.parametrize("explorer", EXPLORERS)
def test_builder_program_same_totals(client: Any, explorer: str) -> None:
    # (PROGRAMS[0], about 130 tasks, is explored by the worker-killing test.)
    for desc in PROGRAMS[1:]:
        prog = build_program(desc)
        one = porlab.explore(prog, explorer)
        r = distributed.explore_on(client, prog, explorer, split_after=SPLIT)
        assert _totals(r) == _totals(one), desc.source()
        assert (r.first_error is None) == (one.errors == 0)
        assert r.stats["distributed_tasks"] > 50  # (cut into many tasks)


# Small corpus files with heap objects, nested spawns, faults, deadlocks, several final states
# (litmus_mp 3, malloc_buffer 3): tens of tasks each. (Heap pointers and thread handles in
# globals: HEAP_TREE below.)
CORPUS = ["litmus_mp.c", "dead_frame.c", "thread_tree.c", "mutex_heap.c", "double_free.c",
          "malloc_buffer.c"]


@pytest.mark.parametrize("name", CORPUS)
def test_c_corpus_same_totals(client: Any, name: str) -> None:
    from test_c_corpus import program  # the corpus's own loading (its header's args)

    path = ROOT / "tests" / "c" / name
    prog = program(path)
    for explorer in EXPLORERS:
        try:
            one = porlab.explore(prog, explorer)
        except porlab.UnsupportedError:  # (lapor refuses mutex destroys)
            continue
        r = porlab.distributed.explore_on(client, prog, explorer, split_after=SPLIT)
        # (outcomes too: the workers name threads, heap objects and locations stably)
        assert _totals(r) == _totals(one), explorer
        if one.errors:  # found again on the driver, in the task that met an error
            assert r.first_error is not None and r.first_error.error_message
    # Subtrees handed out by running tasks (merged once their donor returned): the same.
    r = porlab.distributed.explore_on(client, prog, "graph", sticky_want=2)
    assert _totals(r) == _totals(porlab.explore(prog, "graph"))


def test_refused_without_task_form(client: Any) -> None:
    prog = build_program(PROGRAMS[0])
    with pytest.raises(porlab.InputError, match="supported by graph, rf-graph, lapor"):
        porlab.explore(prog, "optimal", client=client)
    with pytest.raises(porlab.InputError, match="not supported on a Dask cluster"):
        porlab.explore(prog, "graph", client=client, jobs=2)


def test_cli_scheduler(client: Any, capsys: pytest.CaptureFixture[str]) -> None:
    from porlab.cli import main

    path = str(ROOT / "tests" / "c" / "deadlock_abba.c")
    assert main(["run", path, "-e", "optimal-await", "--scheduler", "tcp://0.0.0.0:1"]) == 2
    assert "--scheduler is supported by graph, rf-graph, lapor" in capsys.readouterr().err
    one = main(["run", path, "-e", "graph", "--all-errors"])
    out_one = capsys.readouterr().out
    addr = client.scheduler.address
    two = main(["run", path, "-e", "graph", "--all-errors", "--scheduler", addr])
    out_two = capsys.readouterr().out
    assert one == two == 42
    line = [x for x in out_one.splitlines() if x.startswith("traces")]
    assert line and line == [x for x in out_two.splitlines() if x.startswith("traces")]


def test_budgets(client: Any) -> None:
    prog = build_program(PROGRAMS[1])
    full = porlab.explore(prog, "graph")
    r = distributed.explore_on(client, prog, "graph", split_after=SPLIT, max_traces=5)
    assert r.incomplete == ["traces"] and r.verdict in ("incomplete", "violation")
    assert 5 <= r.traces_explored <= full.traces_explored
    r = distributed.explore_on(client, prog, "graph", split_after=SPLIT, stop_on_error=True)
    assert full.errors and r.errors >= 1 and r.first_error is not None
    # (with hand-outs: their results wait for their donor's, the budget is seen then)
    r = distributed.explore_on(client, prog, "graph", sticky_want=2, max_traces=5)
    assert r.incomplete == ["traces"] and 5 <= r.traces_explored <= full.traces_explored


def test_batches_same_totals(client: Any) -> None:
    """Several subtrees per Dask task (run_tasks): the totals are those of one subtree per task
    and of one process, with fewer Dask tasks than subtrees."""
    prog = build_program(PROGRAMS[1])
    one = porlab.explore(prog, "graph")
    single = distributed.explore_on(client, prog, "graph", split_after=SPLIT, batch=1)
    many = distributed.explore_on(client, prog, "graph", split_after=SPLIT, batch=8)
    assert _totals(single) == _totals(many) == _totals(one)
    assert single.stats["distributed_batches"] == single.stats["distributed_tasks"]
    assert many.stats["distributed_batches"] < many.stats["distributed_tasks"]


def test_interrupt_after_k_batches(client: Any) -> None:
    """Ctrl-C on the Dask path, deterministically: a poll hook that says "stop" after the third
    batch merged. The run stops there (no further batch is merged), raises Interrupted with the
    partial counts, and its verdict is not 'ok'."""
    prog = build_program(PROGRAMS[0])
    full = porlab.explore(prog, "graph")
    polls: list[int] = []
    seen: list[int] = []

    def poll() -> bool:
        polls.append(1)
        return len(polls) >= 3

    def progress(complete: int, blocked: int, errors: int, events: int, seconds: float) -> None:
        seen.append(complete + blocked + errors)

    with pytest.raises(porlab.Interrupted) as info:
        distributed.explore_on(client, prog, "graph", split_after=SPLIT, batch=1, poll=poll,
                               progress=progress)
    r = info.value.result
    assert len(polls) == 3 and len(seen) == 3
    assert r.stats["distributed_batches"] == 3
    assert r.incomplete == ["interrupted"] and r.exit_code in (42, 130)
    assert r.traces_explored == seen[-1] < full.traces_explored


# Two threads each spawn a child; the second's child fails. A process numbers threads in the
# order it first meets them, so workers can number the failing grandchild differently.
NESTED = """
#include <assert.h>
#include <pthread.h>
int x, y;
void *leafa(void *arg) { x = 1; return 0; }
void *leafb(void *arg) { assert(__atomic_load_n(&y, __ATOMIC_SEQ_CST) == 0); return 0; }
void *ta(void *arg) {
    pthread_t c;
    pthread_create(&c, 0, leafa, 0);
    __atomic_store_n(&y, 1, __ATOMIC_SEQ_CST);
    pthread_join(c, 0);
    return 0;
}
void *tb(void *arg) {
    pthread_t c;
    pthread_create(&c, 0, leafb, 0);
    pthread_join(c, 0);
    return 0;
}
int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, ta, 0);
    pthread_create(&b, 0, tb, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
"""


def test_error_sites_keyed_by_spawn_path(client: Any) -> None:
    """An error site's thread is named by its spawn path (main's second child's first child:
    (0, 1, 0)), whatever this process numbered it; sites reported under two numbers of one
    thread merge into one; on the cluster the sites are those of one process (one site)."""
    prog = porlab.load_c_source(NESTED, file_name="nested.c", loops="none")
    one = porlab.explore(prog, "graph")
    (site,) = one._core.errors_by_site
    assert distributed._spawn_path(site.trace, site.thread) == (0, 1, 0)
    merged: dict[Any, Any] = {}
    key = ((0, 1, 0), "assertion-failure", 0, 1, 5)
    distributed.merge_error_sites(merged, [((4, *key[1:]), key), ((3, *key[1:]), key)])
    assert list(merged.values()) == [(4, *key[1:])]
    r = distributed.explore_on(client, prog, "graph", split_after=SPLIT)
    assert len(r.error_sites) == len(one.error_sites) == 1
    assert [s[1:] for s in r.error_sites] == [s[1:] for s in one.error_sites]
    assert (r.complete, r.blocked, r.errors) == (one.complete, one.blocked, one.errors)


# Two threads each spawn a child that allocates a node, stores a value in it and races to
# publish it in a global (heap pointers in memory), and updates x with a load and a store: the
# final states differ in x (1, 2, 12, 21), in which node `slot` points to, and in the nodes;
# the thread handles are globals (kid[], a, b: thread numbers in memory).
# The first child's read of y, revisited by the second's write, puts the second's spawn first in
# some graphs: a process that meets those first numbers the grandchildren the other way round.
HEAP_TREE = """
#include <pthread.h>
#include <stdlib.h>
int *slot;
int x, y;
void *leaf(void *arg) {
    int *n = malloc(sizeof *n);
    *n = (int)(long)arg * 100;
    int *none = 0;
    __atomic_compare_exchange_n(&slot, &none, n, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    int v = __atomic_load_n(&x, __ATOMIC_SEQ_CST);
    __atomic_store_n(&x, v * 10 + (int)(long)arg, __ATOMIC_SEQ_CST);
    return 0;
}
pthread_t kid[2];
void *mid(void *arg) {
    long i = (long)arg;
    if (i == 1) (void)__atomic_load_n(&y, __ATOMIC_SEQ_CST);
    pthread_create(&kid[i - 1], 0, leaf, arg);
    if (i == 2) __atomic_store_n(&y, 1, __ATOMIC_SEQ_CST);
    pthread_join(kid[i - 1], 0);
    return 0;
}
pthread_t a, b;
int main(void) {
    pthread_create(&a, 0, mid, (void *)1L);
    pthread_create(&b, 0, mid, (void *)2L);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
"""


def _heap_tree() -> Any:
    return porlab.load_c_source(HEAP_TREE, file_name="heap_tree.c", loops="none")


def test_portable_outcomes_read_back_in_another_numbering() -> None:
    """Two more loads of the program stand for two worker processes: they explore every subtree
    (tasks split at once) in the reverse order of the first load, so they meet threads, heap
    objects and locations in another order. Their plain outcomes then share nothing with the
    first load's; written with stable names (set_portable_outcomes) and read back in the first
    load's numbering (local_outcome), they are exactly the first load's sequential outcomes."""
    p = _heap_tree()
    one = porlab.explore(p, "graph")
    assert len(one.outcomes) >= 8
    pid = 7
    tasks = [porlab._core.root_task(pid, "graph")]
    for task in tasks:  # (every subtree, each split at once: a breadth-first list)
        tasks.extend(porlab._core.run_task(p, "graph", task, pid, split_after=-1.0)[1])
    assert len(tasks) > 50
    found: dict[bool, set[tuple[int, ...]]] = {}
    for portable in (False, True):
        q = _heap_tree()
        porlab._core.set_portable_outcomes(q, portable)
        found[portable] = set()
        for task in reversed(tasks):
            r, _, _ = porlab._core.run_task(q, "graph", task, pid, split_after=-1.0)
            found[portable] |= set(r.outcomes)
    assert len(found[False]) == len(one.outcomes) and not found[False] & set(one.outcomes)
    assert {porlab._core.local_outcome(p, o) for o in found[True]} == set(one.outcomes)


def test_heap_tree_outcomes_on_the_cluster(client: Any) -> None:
    prog = _heap_tree()
    for explorer in EXPLORERS:
        one = porlab.explore(prog, explorer)
        r = distributed.explore_on(client, prog, explorer, split_after=SPLIT)
        assert len(one.outcomes) >= 8
        assert _totals(r) == _totals(one), explorer


def test_channel_hand_outs_are_in_the_tasks_returned() -> None:
    """A running task asked for subtrees (TaskChannel, sticky: every subtree it starts splits at
    once) hands out the shallowest of its pending ones while it goes on with the rest: each
    hand-out drained is the returned task at its seq, and exploring every returned task (a
    process per task, as on a cluster) gives the totals of one run."""
    from porlab.api import _compiled

    prog = _compiled(build_program(PROGRAMS[0]))
    one = porlab.explore(prog, "graph")
    pid = 11
    todo = [porlab._core.root_task(pid, "graph")]
    total = [0, 0, 0]
    drained = kept = 0
    failing: set[tuple[int, int]] = set()  # (an error trace per failing prefix, as the driver)
    while todo:
        ch = porlab._core.TaskChannel()
        ch.want(2, sticky=True)
        r, tasks, fails = porlab._core.run_task(prog, "graph", todo.pop(), pid, channel=ch)
        failing |= set(fails)
        out = ch.drain()
        assert [tasks[q] for q, _, _ in out] == [t for _, _, t in out]
        drained += len(out)
        kept += int(r.stats["task_pieces"])
        todo.extend(tasks)
        total = [total[0] + r.complete, total[1] + r.blocked, total[2] + r.errors - len(fails)]
    total[2] += len(failing)
    assert drained > 10 and kept > 10
    assert total == [one.complete, one.blocked, one.errors]


@pytest.mark.parametrize("explorer", EXPLORERS)
def test_hand_outs_same_totals(client: Any, explorer: str) -> None:
    """Running tasks hand out subtrees (sticky_want: every subtree started splits at once and two
    of its shallowest pending ones go out through the Dask queue, submitted before their task
    returned): the totals are those of one process."""
    prog = build_program(PROGRAMS[1])
    one = porlab.explore(prog, explorer)
    r = distributed.explore_on(client, prog, explorer, sticky_want=2)
    assert _totals(r) == _totals(one)
    assert r.stats["distributed_handouts_early"] > 5
    assert r.stats["distributed_discarded"] == 0


def test_worker_killed_after_handing_out(client: Any, tmp_path: Path) -> None:
    """A worker process dies right after its task handed out subtrees (once: a marker file): Dask
    runs the task again elsewhere, the driver drops the subtrees the dead run handed out (and
    what they found and handed out), and the totals are exact."""
    marker = str(tmp_path / "killed-after")

    def kill_once() -> None:
        if os.path.exists(marker):
            return
        with open(marker, "w"):
            pass
        os.kill(os.getpid(), signal.SIGKILL)

    prog = build_program(PROGRAMS[0])
    one = porlab.explore(prog, "graph")
    r = distributed.explore_on(client, prog, "graph", sticky_want=2, after_hand_out=kill_once)
    assert os.path.exists(marker)
    assert _totals(r) == _totals(one)
    assert r.stats["distributed_discarded"] >= 1  # (the dead run's hand-outs were submitted)


def test_worker_killed_mid_run(client: Any, tmp_path: Path) -> None:
    """The first non-root task kills its worker process (once: a marker file); Dask runs the
    task again on a live worker, and the totals are exact."""
    marker = str(tmp_path / "killed")

    def kill_once(task: bytes) -> None:
        if porlab._core.task_header(task)["root"] or os.path.exists(marker):
            return
        with open(marker, "w"):
            pass
        os.kill(os.getpid(), signal.SIGKILL)

    prog = build_program(PROGRAMS[0])
    one = porlab.explore(prog, "graph")
    r = distributed.explore_on(client, prog, "graph", split_after=SPLIT, hook=kill_once)
    assert os.path.exists(marker)  # (a worker was killed)
    assert _totals(r) == _totals(one)
