"""Benchmark: RVF-SMC (`rvf`) and reads-from SMC (`rf`) on the RVF paper's scaling families,
against the graph-based reads-from explorer (`rf-graph`) and the Mazurkiewicz explorers.

For every (program, n, explorer) prints one JSON line: complete/blocked/error traces, events,
seconds, VerifySC calls, VerifySC seconds and their share of the time (the paper's Figure 12),
witness states, recursion nodes (rf/rvf) or (rf, co) graphs explored (rf-graph), and the peak
memory of the run (each run is a fresh process, so the peak is that run's). The families are the
paper's Table 1 rows that the builder expresses (reorder(n) and singleton(n),
benchmarks/programs/), its Figure 13 programs (examples/rvf_fig13{a,b,c}.py), and the LAPOR
families where reads-from classes grow (fib_bench(num), rw(n) without locks, rw-lock(n)). Each
run has a time budget; an explorer whose run exceeds it is not run on larger n of that family.
Nothing is asserted: this measures.

The issue's speed target: `rvf` stays under one second on reorder(n) and singleton(n) for
every n <= 30 (``--check-target`` exits 1 if a run does not).

Run: ``python benchmarks/rvf_scaling.py [--explorers rvf,rf,rf-graph,optimal] [--max-seconds 10]
[--families fib_bench,rw] [--markdown]``
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import platform
import sys
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# (family, file, parameter name, values, extra parameters)
FAMILIES: list[tuple[str, str, str, list[int], dict[str, Any]]] = [
    ("reorder", "benchmarks/programs/reorder.py", "n", [1, 2, 3, 5, 10, 15, 20, 25, 30],
     {"asserts": False}),
    ("singleton", "benchmarks/programs/singleton.py", "n", [1, 2, 3, 5, 10, 15, 20, 25, 30],
     {"asserts": False}),
    ("reorder+asserts", "benchmarks/programs/reorder.py", "n", [5, 10, 20, 30],
     {"asserts": True}),
    ("singleton+asserts", "benchmarks/programs/singleton.py", "n", [5, 10, 20, 30],
     {"asserts": True}),
    ("fig13a", "examples/rvf_fig13a.py", "n", [1, 2, 3, 4, 5, 6, 7, 8], {}),
    ("fig13b", "examples/rvf_fig13b.py", "n", [1, 2, 3, 4, 5, 6, 7, 8], {}),
    ("fig13c", "examples/rvf_fig13c.py", "n", [1, 2, 3, 4, 5, 6, 7, 8], {}),
    ("fib_bench", "examples/lapor_fib_bench.py", "num", [1, 2, 3, 4, 5, 6], {}),
    ("rw", "examples/lapor_rw_lock.py", "n", [2, 3, 4, 5, 6, 7], {"locked": False}),
    ("rw-lock", "examples/lapor_rw_lock.py", "n", [2, 3, 4, 5, 6, 7, 8], {"locked": True}),
]
TARGET_FAMILIES = ("reorder", "singleton")


def _run(path: str, params: dict[str, Any], explorer: str, max_seconds: float) -> dict[str, Any]:
    """One run in this (fresh) process; returns the row without the program's identification."""
    import porlab

    prog = porlab.load_program(os.path.join(ROOT, path), **params)
    r = porlab.explore(prog, explorer, max_seconds=max_seconds, collect_outcomes=False)
    vsc_calls = r.stats.get("verifysc_calls")
    vsc_seconds = r.stats.get("verifysc_seconds")
    graphs = r.stats.get("graphs_not_reported")
    return {
        "program": prog.name, "explorer": explorer, "complete": r.complete,
        "blocked": r.blocked, "errors": r.errors, "events": r.events,
        "seconds": round(r.seconds, 4),
        "verifysc_calls": vsc_calls,
        "verifysc_seconds": None if vsc_seconds is None else round(vsc_seconds, 4),
        "verifysc_share": (round(vsc_seconds / r.seconds, 3)
                           if vsc_seconds is not None and r.seconds else None),
        "witness_states": r.stats.get("verifysc_states"),
        "nodes": r.stats.get("nodes"),
        "graphs": None if graphs is None else int(graphs) + r.complete,
        "peak_memory_mib": round(r.peak_memory_bytes / 2**20, 1),
        "budget_exceeded": r.budget_exceeded,
    }


def _markdown(rows: list[dict[str, Any]], names: list[str]) -> str:
    """One line per (family, n): traces / seconds / VerifySC calls / peak MiB per explorer."""
    head = "| family | n | " + " | ".join(names) + " |"
    out = [head, "|" + "---|" * (2 + len(names))]
    cells: dict[tuple[str, Any], dict[str, str]] = {}
    for row in rows:
        c = f"{row['complete']}+{row['blocked']}" + ("" if not row["errors"] else
                                                      f"+{row['errors']}e")
        c += f" / {row['seconds']:.3g}s"
        if row["verifysc_calls"] is not None:
            c += f" / {int(row['verifysc_calls'])} vsc"
        c += f" / {row['peak_memory_mib']:.0f} MiB"
        if row["budget_exceeded"]:
            c = "timeout (" + c + ")"
        cells.setdefault((row["family"], row["n"]), {})[row["explorer"]] = c
    for (family, n), by in cells.items():
        out.append(f"| {family} | {n} | " + " | ".join(by.get(e, "-") for e in names) + " |")
    return "\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--explorers", default="rvf,rf,rf-graph,optimal,source",
                    help="comma-separated explorer names (default: rvf,rf,rf-graph,optimal,source)")
    ap.add_argument("--families", default="",
                    help="comma-separated families (default: all: "
                         + ",".join(f[0] for f in FAMILIES) + ")")
    ap.add_argument("--max-seconds", type=float, default=10.0)
    ap.add_argument("--max-n", type=int, default=0, help="skip larger parameters (0: none)")
    ap.add_argument("--markdown", action="store_true",
                    help="print a Markdown table at the end (after the JSON lines)")
    ap.add_argument("--check-target", action="store_true",
                    help="exit 1 unless rvf takes < 1 s on reorder/singleton for every n <= 30")
    args = ap.parse_args()
    names = args.explorers.split(",")
    wanted = set(args.families.split(",")) if args.families else None
    missed: list[str] = []
    rows: list[dict[str, Any]] = []
    # A fresh process per run: the peak memory is the run's own, and a crash costs one row.
    ctx = mp.get_context("spawn")
    with ctx.Pool(1, maxtasksperchild=1) as pool:
        for family, path, pname, ns, extra in FAMILIES:
            if wanted is not None and family not in wanted:
                continue
            for explorer in names:
                for n in ns:
                    if args.max_n and n > args.max_n:
                        break
                    params = {pname: n, **extra}
                    row = pool.apply(_run, (path, params, explorer, args.max_seconds))
                    row = {"family": family, "n": n, **row, "machine": platform.machine()}
                    rows.append(row)
                    print(json.dumps(row), flush=True)
                    if (explorer == "rvf" and family in TARGET_FAMILIES and n <= 30
                            and (row["seconds"] >= 1.0 or row["budget_exceeded"])):
                        missed.append(f"{row['program']}: {row['seconds']:.3f}s")
                    if row["budget_exceeded"]:
                        break
    if args.markdown:
        print(_markdown(rows, names))
    if args.check_target and missed:
        print("rvf missed the 1 s target on: " + ", ".join(missed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
