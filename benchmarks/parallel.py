"""Speed-up of ``jobs=2`` over ``jobs=1`` for the graph engine (issue 18).

For each program: wall time and process CPU time of one run with jobs=1 and one with jobs=2 (the
same counts are checked), the number of tasks handed over, their mean size (events of the graph,
bytes of graph + witness) and the per-task overhead (the extra events the thieves replay, and the
extra CPU time per task). The load average is printed with the results: on a shared machine the
wall-clock speed-up says little unless the load is below the number of cores; the CPU ratio
(jobs=2 CPU / jobs=1 CPU) is the overhead whatever the load.

    python benchmarks/parallel.py                # the default set
    python benchmarks/parallel.py --json out.json
"""

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

# (label, file, defines, unroll, loops, explorer): large programs of benchmarks/suites/loops.toml
# (the saver column: graph with loops=saver) and lock-based ones under lapor.
PROGRAMS: list[tuple[str, Path, dict[str, int], int, str, str]] = [
    ("mcslock N=4", LOOPS / "mcslock.c", {"N": 4}, 5, "saver", "graph"),
    ("twalock N=4", LOOPS / "twalock.c", {"N": 4}, 5, "saver", "graph"),
    ("ttaslock N=4", LOOPS / "ttaslock.c", {"N": 4}, 5, "saver", "graph"),
    ("treiber-stack N=3", LOOPS / "treiber_stack.c", {"N": 3}, 4, "saver", "graph"),
    ("ms-queue N=3", LOOPS / "ms_queue.c", {"N": 3}, 4, "saver", "graph"),
    ("seqlock N=4", LOOPS / "seqlock.c", {"N": 4}, 5, "saver", "graph"),
    ("linuxrwlocks N=3", LOOPS / "linuxrwlocks.c", {"N": 3}, 4, "saver", "rf-graph"),
    ("mutex N=3", LOOPS / "mutex.c", {"N": 3}, 4, "saver", "lapor"),
]


def _cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return ru.ru_utime + ru.ru_stime


def run_one(prog: Any, explorer: str, jobs: int) -> dict[str, Any]:
    c0, t0 = _cpu(), time.perf_counter()
    r = porlab.explore(prog, explorer, jobs=jobs)
    wall, cpu = time.perf_counter() - t0, _cpu() - c0
    return {"wall": wall, "cpu": cpu, "complete": r.complete, "blocked": r.blocked,
            "errors": r.errors, "events": r.events, "stats": dict(r.stats)}


def measure(label: str, path: Path, defines: dict[str, int], unroll: int, loops: str,
            explorer: str) -> dict[str, Any]:
    prog = porlab.load_c(str(path), defines=defines, unroll=unroll, loops=loops)
    one = run_one(prog, explorer, 1)
    two = run_one(prog, explorer, 2)
    same = all(one[k] == two[k] for k in ("complete", "blocked", "errors"))
    s = two["stats"]
    tasks = int(s.get("parallel_tasks", 0))
    extra_events = two["events"] - one["events"]
    return {
        "program": label, "explorer": explorer, "traces": one["complete"] + one["blocked"]
        + one["errors"], "same_totals": same,
        "wall1": one["wall"], "wall2": two["wall"], "speedup": one["wall"] / two["wall"],
        "cpu1": one["cpu"], "cpu2": two["cpu"], "cpu_ratio": two["cpu"] / one["cpu"],
        "events1": one["events"], "tasks": tasks,
        "task_events_mean": s.get("parallel_task_events", 0) / tasks if tasks else 0,
        "task_bytes_mean": s.get("parallel_task_bytes", 0) / tasks if tasks else 0,
        "task_work_s_mean": two["cpu"] / tasks if tasks else 0,
        "overhead_events_per_task": extra_events / tasks if tasks else 0,
        "overhead_s_per_task": (two["cpu"] - one["cpu"]) / tasks if tasks else 0,
        # The speed-up on two otherwise idle cores as far as the split of the work decides it:
        # one job's CPU time over the busier worker's.
        "cpu_bound_speedup": one["cpu"] / s["parallel_worker_cpu_max_s"]
        if s.get("parallel_worker_cpu_max_s") else 0,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", help="write the rows here")
    ap.add_argument("-k", help="only programs whose label contains this")
    args = ap.parse_args()
    rows = []
    print(f"load average before: {os.getloadavg()}, cores: {os.cpu_count()}")
    hdr = (f"{'program':<20} {'explorer':<9} {'traces':>8} {'t1 s':>7} {'t2 s':>7} {'speedup':>7} "
           f"{'cpu2/1':>6} {'tasks':>6} {'ev/task':>7} {'B/task':>7} {'ovh ev':>7} {'ovh ms':>7}")
    print(hdr)
    for p in PROGRAMS:
        if args.k and args.k not in p[0]:
            continue
        row = measure(*p)
        row["load"] = os.getloadavg()[0]
        rows.append(row)
        print(f"{row['program']:<20} {row['explorer']:<9} {row['traces']:>8} {row['wall1']:>7.2f} "
              f"{row['wall2']:>7.2f} {row['speedup']:>7.2f} {row['cpu_ratio']:>6.2f} "
              f"{row['tasks']:>6} {row['task_events_mean']:>7.0f} {row['task_bytes_mean']:>7.0f} "
              f"{row['overhead_events_per_task']:>7.0f} {1e3 * row['overhead_s_per_task']:>7.2f} "
              f"{row['cpu_bound_speedup']:>9.2f}"
              + ("" if row["same_totals"] else "  TOTALS DIFFER"), flush=True)
    print(f"load average after: {os.getloadavg()}")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
