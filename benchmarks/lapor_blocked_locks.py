"""Benchmark: how `lapor` leaves locks blocked for good (blocked_locks, sections_end).

``eager`` (the default) gives every lock a placeholder "stays blocked" branch, explored to the
end and dropped there unless a critical section of its mutex never ends. ``sources`` leaves a
lock blocked only with a source, a section that never ends (open when the lock is added, or a
later acquire that revisits the lock), and drops a graph at the unlock that ends that section,
unless a later revisit may still mend it (then it is explored on: MutexLocks.hpp).

Where the static analysis proves that every critical section ends (``Program.sections_end``:
no thread can block, stop or end holding a mutex), no lock is tried blocked at all (option
``sections_end``, default on); both programs here are such programs, so the two ways differ only
in the ablation rows (``sections_end=False``), which show what the analysis saves.

For nww-lock-rr(N) (examples/lapor_nww_lock_rr.py; LAPOR Table 2: N classes) and fib_bench(num)
(examples/lapor_fib_bench.py; 5922 classes for num = 5) prints one line per (program, N,
wb_graphs, blocked_locks): complete traces, the graphs dropped at the end (blocked_dropped) and
at an unlock (blocker_closed), the graphs explored on past such an unlock
(blocker_closed_revivable), revisits, and the CPU seconds of the exploration. co-filter on
nww-lock-rr grows as N! (coherence orders): it is run up to N = 8. Nothing is asserted: this
measures (tests/python/test_lapor.py asserts the counts).

Run: ``python benchmarks/lapor_blocked_locks.py [--nww 4,6,8,10,12] [--fib 3,4,5]``
"""

from __future__ import annotations

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "python"))

import porlab  # noqa: E402

STATS = ["blocked_dropped", "blocker_closed", "blocker_closed_revivable", "revisits"]


def run(family: str, n: int, wb_graphs: str, blocked_locks: str, sections_end: bool) -> str:
    if family == "nww-lock-rr":
        prog = porlab.load_program(os.path.join(ROOT, "examples/lapor_nww_lock_rr.py"), n=n)
    else:
        prog = porlab.load_program(os.path.join(ROOT, "examples/lapor_fib_bench.py"), num=n)
    start = time.process_time()
    res = porlab.explore(
        prog,
        "lapor",
        max_memory=0,
        wb_graphs=wb_graphs,
        blocked_locks=blocked_locks,
        sections_end=sections_end,
    )
    cpu = time.process_time() - start
    stats = " ".join(f"{k}={int(res.stats.get(k, 0))}" for k in STATS)
    return (
        f"{family:12} N={n:<3} {wb_graphs:9} {blocked_locks:8} "
        f"sections_end={int(sections_end)} complete={res.complete:<6} "
        f"{stats} cpu={cpu:.4f}s"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nww", default="4,6,8,10,12", help="values of N for nww-lock-rr")
    ap.add_argument("--fib", default="3,4,5", help="values of num for fib_bench")
    ap.add_argument("--co-filter-max-nww", type=int, default=8, help="co-filter: N! graphs")
    args = ap.parse_args()
    ways = [("eager", True), ("eager", False), ("sources", False)]
    for wb_graphs in ["rf", "co-filter"]:
        for blocked_locks, sections_end in ways:
            for n in [int(x) for x in args.nww.split(",") if x]:
                if wb_graphs == "co-filter" and n > args.co_filter_max_nww:
                    continue
                print(run("nww-lock-rr", n, wb_graphs, blocked_locks, sections_end), flush=True)
            for n in [int(x) for x in args.fib.split(",") if x]:
                print(run("fib_bench", n, wb_graphs, blocked_locks, sections_end), flush=True)


if __name__ == "__main__":
    main()
