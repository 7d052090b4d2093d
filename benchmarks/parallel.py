"""Speed-up of ``jobs=2`` and of a Dask cluster over ``jobs=1`` for the graph engine (issue 18).

For each program: wall time and process CPU time of one run with jobs=1 and one with jobs=2 (the
same counts are checked), the number of tasks handed over, their mean size (events of the graph,
bytes of graph + witness) and the per-task overhead (the extra events the thieves replay, and the
extra CPU time per task). The load average is printed with the results: on a shared machine the
wall-clock speed-up says little unless the load is below the number of cores; the CPU ratio
(jobs=2 CPU / jobs=1 CPU) is the overhead whatever the load. The control column ``pair`` runs two
independent jobs=1 explorations at once (two threads of this process, each its own program
object): CPU per run over one run's alone. It is what two busy threads cost on this machine
(shared caches and memory, clocks, other processes) without any of porlab's parallel code: the
part of ``c2/1`` above ``pair`` is porlab's (tasks, replays, sharing).

    python benchmarks/parallel.py                # the default set: jobs=1, jobs=2, Dask; a table
    python benchmarks/parallel.py --json out.json
    python benchmarks/parallel.py --no-dask      # without the LocalCluster
    python benchmarks/parallel.py --simulate     # + a replay of the Dask task trees

The default set (six programs of 1.4-5 s of CPU each for one job) took 71 s on a quiet 2-core
machine in session 26; with dq-wsq N=5 T=3 (graph) in place of N=4 T=3 since session 27, about 85 s
(estimated from the CPU times); measured 3 min 8 s with ``--no-dask`` at load average 7-9. ``--rf``
(three programs of 3-10 s) about 50 s quiet, 3 min 51 s at load 9-11. Every program also runs on a
LocalCluster of two single-threaded worker processes (``--workers N`` for more; porlab.distributed:
running tasks hand out their shallowest subtrees while workers would be idle, the rest in batches;
``--split`` / ``--batch`` fix the time bound and the batch size): wall time, the busiest worker's
CPU time, the number of subtrees and of Dask tasks, their size in bytes, the extra CPU per subtree
and the idle time per Dask task of the workers (scheduling and transport). ``--simulate`` replays
the measured task tree (which task published which and when, and how long each ran) on W simulated
workers (W = 1, 2, 16, 64, 256) with the measured per-task latency and without: list scheduling, a
hand-out ready when its donor's CPU time reached the moment it was handed out, a subtree returned
with a result when its parent ended; and it runs each program again with the driver planning for 16,
64 and 256 workers (the trees such clusters would make) and replays those on as many workers. That
is the check of the model in docs/parallel.md (about 10 minutes at load 13-16)."""

from __future__ import annotations

import argparse
import json
import os
import resource
import time
from pathlib import Path
from typing import Any

import porlab

ROOT = Path(__file__).resolve().parents[1]
LOOPS = ROOT / "benchmarks" / "programs" / "loops"
SHARED = ROOT / "benchmarks" / "programs" / "shared"

# (label, file, defines, unroll, loops, explorer): the one list of programs (rows of other
# explorers go here too). The default set (the first DEFAULT_SET) are large programs of
# benchmarks/suites/loops.toml (the saver column: graph with loops=saver) and of the shared C set
# (benchmarks/programs/shared, as written: loops=none), each 1.4-5 s of CPU for one job on a quiet
# machine, so that the pool's start and tail do not decide the speed-up (the previous set ran
# 0.2-1.5 s: jobs=2 1.32-2.06x); since session 27 dq-wsq N=5 T=3 with graph instead of N=4 T=3
# (1.75 s). --all adds the small ones of the previous set, casrot N=12 (~10 s) and two that run
# 30 s or more (ttaslock(5), twalock(5): the next size of the loops suite after N=4).
PROGRAMS: list[tuple[str, Path, dict[str, int], int, str, str]] = [
    ("seqlock N=5", LOOPS / "seqlock.c", {"N": 5}, 6, "saver", "graph"),
    ("mcslock N=5", LOOPS / "mcslock.c", {"N": 5}, 6, "saver", "graph"),
    ("readers N=17", SHARED / "readers.c", {"N": 17}, 0, "none", "graph"),
    ("dq-wsq N=5 T=3", SHARED / "dq_wsq.c", {"N": 5, "THIEVES": 3}, 0, "none", "rf-graph"),
    ("casrot N=11", SHARED / "casrot.c", {"N": 11}, 0, "none", "graph"),
    ("dq-wsq N=5 T=3", SHARED / "dq_wsq.c", {"N": 5, "THIEVES": 3}, 0, "none", "graph"),
    # --all
    ("dq-wsq N=4 T=3", SHARED / "dq_wsq.c", {"N": 4, "THIEVES": 3}, 0, "none", "graph"),
    ("casrot N=12", SHARED / "casrot.c", {"N": 12}, 0, "none", "graph"),
    ("mutex N=3", LOOPS / "mutex.c", {"N": 3}, 4, "saver", "lapor"),
    ("linuxrwlocks N=3", LOOPS / "linuxrwlocks.c", {"N": 3}, 4, "saver", "rf-graph"),
    ("ttaslock N=4", LOOPS / "ttaslock.c", {"N": 4}, 5, "saver", "graph"),
    ("twalock N=4", LOOPS / "twalock.c", {"N": 4}, 5, "saver", "graph"),
    ("mcslock N=4", LOOPS / "mcslock.c", {"N": 4}, 5, "saver", "graph"),
    ("seqlock N=4", LOOPS / "seqlock.c", {"N": 4}, 5, "saver", "graph"),
    ("ttaslock N=5", LOOPS / "ttaslock.c", {"N": 5}, 6, "saver", "graph"),
    ("twalock N=5", LOOPS / "twalock.c", {"N": 5}, 6, "saver", "graph"),
]
DEFAULT_SET = 6
# --rf: the rf rows (reads-from SMC's recursion, explore/RvfParallel.hpp; jobs=1 and jobs=2, no
# Dask: rf has no distributed path), shared C set as written, each 3-10 s of CPU for one job
# (session 27; the previous rows, casrot N=11, readers N=16, dq-wsq N=4 T=3, ran 1.6-2 s).
# (readers N=17 spawns 17 threads: loaded with _max_threads, as the other rows.)
RF_PROGRAMS: list[tuple[str, Path, dict[str, int], int, str, str]] = [
    ("casrot N=12", SHARED / "casrot.c", {"N": 12}, 0, "none", "rf"),
    ("readers N=17", SHARED / "readers.c", {"N": 17}, 0, "none", "rf"),
    ("dq-wsq N=5 T=3", SHARED / "dq_wsq.c", {"N": 5, "THIEVES": 3}, 0, "none", "rf"),
]


def _max_threads(defines: dict[str, int]) -> int:
    """Enough threads for the program (readers N=17 spawns 17 threads; porlab's default is 16)."""
    return max(16, 2 + sum(defines.values()))


def _cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return ru.ru_utime + ru.ru_stime


def run_one(prog: Any, explorer: str, jobs: int) -> dict[str, Any]:
    c0, t0 = _cpu(), time.perf_counter()
    r = porlab.explore(prog, explorer, jobs=jobs)
    wall, cpu = time.perf_counter() - t0, _cpu() - c0
    return {"wall": wall, "cpu": cpu, "complete": r.complete, "blocked": r.blocked,
            "errors": r.errors, "events": r.events, "stats": dict(r.stats)}


def run_pair(progs: list[Any], explorer: str) -> dict[str, Any]:
    """Two independent jobs=1 explorations at once, one per thread of this process, each of its
    own program object: what two busy threads cost on this machine (caches, memory, clocks, the
    other agents) with nothing of porlab's parallel code. jobs=2's CPU ratio is porlab's overhead
    only as far as it exceeds this pair's."""
    import threading

    out: list[Any] = [None, None]

    def one(i: int) -> None:
        out[i] = porlab.explore(progs[i], explorer, jobs=1)

    c0, t0 = _cpu(), time.perf_counter()
    threads = [threading.Thread(target=one, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return {"wall": time.perf_counter() - t0, "cpu": _cpu() - c0,
            "complete": [r.complete for r in out], "blocked": [r.blocked for r in out]}


def simulate(tree: list[tuple[int, int, float, float, float]], workers: int,
             latency: float) -> float:
    """Makespan of the task tree on `workers` workers: a Dask task handed out by a running one
    is ready `latency` after its parent's CPU time reached the hand-out's offset, one that came
    back with its parent's result `latency` after the parent ended; each takes its measured CPU
    time; free workers take ready tasks oldest first (list scheduling)."""
    import heapq

    children: dict[int, list[tuple[int, float]]] = {}
    cost: dict[int, float] = {}
    for tid, parent, _wall, cpu, offset in tree:
        children.setdefault(parent, []).append((tid, offset))
        cost[tid] = cpu
    ready: list[tuple[float, int]] = [(0.0, t) for t, _ in children.get(-1, [])]
    heapq.heapify(ready)
    free = [0.0] * workers
    heapq.heapify(free)
    end = 0.0
    while ready:
        at, tid = heapq.heappop(ready)
        w = heapq.heappop(free)
        start = max(at, w)
        done = start + cost[tid]
        end = max(end, done)
        heapq.heappush(free, done)
        for c, offset in children.get(tid, []):
            at_c = done if offset < 0 else start + min(offset, cost[tid])
            heapq.heappush(ready, (at_c + latency, c))
    return end


def run_dask(client: Any, prog: Any, explorer: str, split: float | None,
             batch: int, plan: int | None = None) -> dict[str, Any]:
    from porlab import distributed

    distributed.load_on_workers(client, prog)  # (not timed: once per program and worker)
    t0 = time.perf_counter()
    r = distributed.explore_on(client, prog, explorer, split_after=split, batch=batch,
                               workers=plan)
    wall = time.perf_counter() - t0
    return {"wall": wall, "complete": r.complete, "blocked": r.blocked, "errors": r.errors,
            "stats": dict(r.stats), "tree": r.task_tree}


def tree_depth(tree: list[tuple[int, int, float, float, float]]) -> tuple[int, float]:
    """The depth of the task tree (Dask tasks) and the CPU time along its deepest chain."""
    parent = {t: p for t, p, _, _, _ in tree}
    cpu = {t: c for t, _, _, c, _ in tree}
    best = (0, 0.0)
    for t in parent:
        d, c, x = 0, 0.0, t
        while x >= 0 and x in parent:
            d, c, x = d + 1, c + cpu[x], parent[x]
        best = max(best, (d, c))
    return best


def measure(label: str, path: Path, defines: dict[str, int], unroll: int, loops: str,
            explorer: str, client: Any = None, split: float | None = None,
            batch: int = 256, pair: bool = True,
            simulate_at: tuple[int, ...] = ()) -> dict[str, Any]:
    def load() -> Any:
        return porlab.load_c(str(path), defines=defines, unroll=unroll or None, loops=loops,
                             max_threads=_max_threads(defines))

    prog = load()
    one = run_one(prog, explorer, 1)
    two = run_one(prog, explorer, 2)
    same = all(one[k] == two[k] for k in ("complete", "blocked", "errors"))
    s = two["stats"]
    tasks = int(s.get("parallel_tasks", 0))
    extra_events = two["events"] - one["events"]
    row: dict[str, Any] = {}
    if pair:
        pr = run_pair([prog, load()], explorer)
        row["pair_same_totals"] = pr["complete"] == [one["complete"]] * 2 and \
            pr["blocked"] == [one["blocked"]] * 2
        # CPU of each of two concurrent jobs=1 runs over one run's alone (1.0: no interference)
        row["pair_cpu_ratio"] = pr["cpu"] / (2 * one["cpu"])
    if client is not None:
        d = run_dask(client, prog, explorer, split, batch)
        ds = d["stats"]
        n = int(ds["distributed_tasks"])
        nb = int(ds["distributed_batches"])
        busy = ds["distributed_worker_cpu_sum_s"]  # (worker processes: Dask's threads too)
        workers = len(client.scheduler_info()["workers"])
        idle = workers * d["wall"] - sum(w for _, _, w, _, _ in d["tree"])
        row |= {
            "dask_same_totals": all(one[k] == d[k] for k in ("complete", "blocked", "errors")),
            "dask_wall": d["wall"], "dask_speedup": one["wall"] / d["wall"], "dask_tasks": n,
            "dask_batches": nb,
            "dask_task_bytes_mean": ds["distributed_task_bytes"] / n,
            "dask_cpu_sum": busy,
            "dask_extra_cpu_ms_per_task": 1e3 * (busy - one["cpu"]) / n,
            # (the simulation's latency is per node of its tree: per batch)
            "dask_latency_ms_per_task": 1e3 * max(idle, 0.0) / nb,
            "dask_cpu_bound_speedup": one["cpu"] / ds["distributed_worker_cpu_max_s"],
            "dask_handouts": int(ds["distributed_handouts"]),
            "dask_depth": tree_depth(d["tree"]),
            "tree": d["tree"],
        }
        # The task trees a cluster of W workers would make: the driver plans for W (demand for
        # 2W Dask tasks in flight) on this cluster; replayed on W simulated workers.
        lat = row["dask_latency_ms_per_task"] / 1e3
        for w in simulate_at:
            t = run_dask(client, prog, explorer, split, batch, plan=w)
            assert all(one[k] == t[k] for k in ("complete", "blocked", "errors")), label
            row[f"plan{w}"] = {
                "batches": int(t["stats"]["distributed_batches"]),
                "handouts": int(t["stats"]["distributed_handouts"]),
                "depth": tree_depth(t["tree"]),
                "speedup": one["cpu"] / simulate(t["tree"], w, lat),
                "speedup_no_latency": one["cpu"] / simulate(t["tree"], w, 0.0),
                "tree": t["tree"]}
    return row | {
        "program": label, "explorer": explorer, "traces": one["complete"] + one["blocked"]
        + one["errors"], "same_totals": same,
        "wall1": one["wall"], "wall2": two["wall"], "speedup": one["wall"] / two["wall"],
        "cpu1": one["cpu"], "cpu2": two["cpu"], "cpu_ratio": two["cpu"] / one["cpu"],
        "events1": one["events"], "tasks": tasks, "splits": int(s.get("parallel_splits", 0)),
        # (rf: the steps of the handed-over nodes)
        "task_events_mean": s.get("parallel_task_events", s.get("parallel_task_steps", 0))
        / tasks if tasks else 0,
        "task_bytes_mean": s.get("parallel_task_bytes", 0) / tasks if tasks else 0,
        "task_work_s_mean": two["cpu"] / tasks if tasks else 0,
        "overhead_events_per_task": extra_events / tasks if tasks else 0,
        "overhead_s_per_task": (two["cpu"] - one["cpu"]) / tasks if tasks else 0,
        # The speed-up on two otherwise idle cores as far as the split of the work decides it:
        # one job's CPU time over the busier worker's.
        "cpu_bound_speedup": one["cpu"] / s["parallel_worker_cpu_max_s"]
        if s.get("parallel_worker_cpu_max_s") else 0,
        # The busier worker's share of the workers' CPU (0.5: an even split; cpu-b is then
        # 2 / c2/1, and what is left between them is the extra CPU, not the split).
        "busier_share": s["parallel_worker_cpu_max_s"] / s["parallel_worker_cpu_sum_s"]
        if s.get("parallel_worker_cpu_sum_s") else 0,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", help="write the rows here")
    ap.add_argument("-k", help="only programs whose label contains this")
    ap.add_argument("--all", action="store_true", help="every program (else the default set)")
    ap.add_argument("--no-dask", action="store_true", help="without the 2-process LocalCluster")
    ap.add_argument("--rf", action="store_true",
                    help="the rf rows instead (RF_PROGRAMS: jobs=1 and jobs=2, no Dask)")
    ap.add_argument("--split", type=float, default=None,
                    help="Dask batches split after this many seconds (default: adaptive; the "
                    "previous fixed pacing was --split 0.25 --batch 16)")
    ap.add_argument("--batch", type=int, default=256, help="subtrees per Dask task at most")
    ap.add_argument("--no-pair", action="store_true",
                    help="without the control run (two independent jobs=1 runs at once)")
    ap.add_argument("--simulate", action="store_true",
                    help="replay the Dask task tree on 1-256 simulated workers, and the trees "
                    "the driver makes when it plans for 16, 64 and 256 workers on those")
    ap.add_argument("--workers", type=int, default=2,
                    help="single-threaded worker processes of the LocalCluster (default 2; "
                    "more than the cores: the shape of a larger cluster's run, not its speed)")
    args = ap.parse_args()
    began = time.perf_counter()
    client = None
    if not args.no_dask and not args.rf:
        from dask.distributed import Client, LocalCluster

        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                               dashboard_address=":0", silence_logs=50)
        client = Client(cluster)
    rows = []
    print(f"load average before: {os.getloadavg()}, cores: {os.cpu_count()}")
    # wall: seconds; cpu: process CPU seconds (jobs=1) and the jobs=2 / jobs=1 ratio; pair: the
    # control (two independent jobs=1 runs at once: CPU per run over one alone); tasks:
    # subtrees handed over (jobs=2) with their in-memory size and the extra CPU per task; Dask:
    # wall, speed-up over jobs=1, subtrees/batches (Dask tasks), bytes per subtree, extra CPU
    # per subtree, idle (latency) per batch; cpu-bound: jobs=1 CPU over the busiest worker's;
    # share: the busier worker's part of the workers' CPU (0.5: an even split).
    hdr = (f"{'program':<18} {'explorer':<8} {'traces':>7} {'t1 s':>6} {'t2 s':>6} {'x2':>5} "
           f"{'cpu1 s':>6} {'c2/1':>5} {'pair':>5} {'tasks':>5} {'B/task':>6} {'ms/tk':>6} "
           f"{'cpu-b':>5} {'share':>5}")
    if client is not None:
        hdr += (f" | {'dask s':>6} {'xD':>5} {'subtr':>5} {'batch':>5} {'B/st':>5} "
                f"{'ms/st':>6} {'lat ms':>6} {'cpu-b':>5}")
    print(hdr)
    print("-" * len(hdr))
    chosen = PROGRAMS if args.all or args.k else PROGRAMS[:DEFAULT_SET]
    if args.rf:
        chosen = RF_PROGRAMS
    for p in chosen:
        if args.k and args.k not in p[0]:
            continue
        row = measure(*p, client=client, split=args.split, batch=args.batch,
                      pair=not args.no_pair,
                      simulate_at=(16, 64, 256) if args.simulate and client else ())
        row["load"] = os.getloadavg()[0]
        rows.append(row)
        line = (f"{row['program']:<18} {row['explorer']:<8} {row['traces']:>7} "
                f"{row['wall1']:>6.2f} {row['wall2']:>6.2f} {row['speedup']:>5.2f} "
                f"{row['cpu1']:>6.2f} {row['cpu_ratio']:>5.2f} "
                f"{row.get('pair_cpu_ratio', float('nan')):>5.2f} {row['tasks']:>5} "
                f"{row['task_bytes_mean']:>6.0f} {1e3 * row['overhead_s_per_task']:>6.2f} "
                f"{row['cpu_bound_speedup']:>5.2f} {row['busier_share']:>5.2f}")
        if client is not None:
            line += (f" | {row['dask_wall']:>6.2f} {row['dask_speedup']:>5.2f} "
                     f"{row['dask_tasks']:>5} {row['dask_batches']:>5} "
                     f"{row['dask_task_bytes_mean']:>5.0f} "
                     f"{row['dask_extra_cpu_ms_per_task']:>6.2f} "
                     f"{row['dask_latency_ms_per_task']:>6.1f} "
                     f"{row['dask_cpu_bound_speedup']:>5.2f}")
        if not row["same_totals"] or (client is not None and not row["dask_same_totals"]) or \
                not row.get("pair_same_totals", True):
            line += "  TOTALS DIFFER"
        print(line, flush=True)
        if client is not None and args.simulate:
            # Speed-up over one job's CPU time; with the measured latency, and without.
            lat = row["dask_latency_ms_per_task"] / 1e3
            print(f"  this run's tree: depth {row['dask_depth'][0]}, "
                  f"{row['dask_depth'][1]:.2f} s CPU on its deepest chain, "
                  f"{row['dask_handouts']} hand-outs", flush=True)
            for key, la in (("simulated_speedup", lat), ("simulated_speedup_no_latency", 0)):
                sims = {w: row["cpu1"] / simulate(row["tree"], w, la)
                        for w in (1, 2, 16, 64, 256)}
                row[key] = sims
                print(f"  {key}: " + "  ".join(f"W={w} x{v:.1f}" for w, v in sims.items()),
                      flush=True)
            for w in (16, 64, 256):
                pw = row[f"plan{w}"]
                print(f"  planned for W={w}: {pw['batches']} Dask tasks, {pw['handouts']} "
                      f"hand-outs, depth {pw['depth'][0]} ({pw['depth'][1]:.2f} s CPU on the "
                      f"deepest chain); replayed on W={w}: x{pw['speedup']:.1f} "
                      f"(x{pw['speedup_no_latency']:.1f} without latency)", flush=True)
    print(f"load average after: {os.getloadavg()}; {time.perf_counter() - began:.0f} s in all")
    if client is not None:
        client.close()
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
