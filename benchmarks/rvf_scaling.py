"""Benchmark: RVF-SMC (`rvf`) on the RVF paper's scaling families, against the other explorers.

For every (program, n, explorer) prints one JSON line: complete/blocked/error traces, events,
seconds, VerifySC calls, VerifySC seconds and their share of the time (the paper's Figure 12),
witness states, and the process's peak memory. The families are the paper's Table 1 rows that
the builder expresses (reorder(n) and singleton(n), benchmarks/programs/) and its Figure 13
programs (examples/rvf_fig13{a,b,c}.py). Each run has a time budget; an explorer whose run
exceeds it is not run on larger n of that family. Nothing is asserted: this measures.

The issue's speed target: `rvf` stays under one second on reorder(n) and singleton(n) for
every n <= 30 (``--check-target`` exits 1 if a run does not).

Run: ``python benchmarks/rvf_scaling.py [--explorers rvf,optimal] [--max-seconds 10]``
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys

import porlab

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# (file, values of n, extra parameters)
FAMILIES: list[tuple[str, list[int], dict]] = [
    ("benchmarks/programs/reorder.py", [1, 2, 3, 5, 10, 15, 20, 25, 30], {"asserts": False}),
    ("benchmarks/programs/singleton.py", [1, 2, 3, 5, 10, 15, 20, 25, 30], {"asserts": False}),
    ("benchmarks/programs/reorder.py", [5, 10, 20, 30], {"asserts": True}),
    ("benchmarks/programs/singleton.py", [5, 10, 20, 30], {"asserts": True}),
    ("examples/rvf_fig13a.py", [1, 2, 3, 4, 5, 6, 7, 8], {}),
    ("examples/rvf_fig13b.py", [1, 2, 3, 4, 5, 6, 7, 8], {}),
    ("examples/rvf_fig13c.py", [1, 2, 3, 4, 5, 6, 7, 8], {}),
]
TARGET_FAMILIES = ("reorder", "singleton")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--explorers", default="rvf,optimal,source",
                    help="comma-separated explorer names (default: rvf,optimal,source)")
    ap.add_argument("--max-seconds", type=float, default=10.0)
    ap.add_argument("--check-target", action="store_true",
                    help="exit 1 unless rvf takes < 1 s on reorder/singleton for every n <= 30")
    args = ap.parse_args()
    names = args.explorers.split(",")
    missed: list[str] = []
    for path, ns, extra in FAMILIES:
        for explorer in names:
            for n in ns:
                prog = porlab.load_program(os.path.join(ROOT, path), n=n, **extra)
                r = porlab.explore(prog, explorer, max_seconds=args.max_seconds,
                                   collect_outcomes=False)
                vsc_calls = r.stats.get("verifysc_calls")
                vsc_seconds = r.stats.get("verifysc_seconds")
                row = {
                    "program": prog.name, "n": n, "asserts": extra.get("asserts"),
                    "explorer": explorer, "complete": r.complete, "blocked": r.blocked,
                    "errors": r.errors, "events": r.events, "seconds": round(r.seconds, 4),
                    "verifysc_calls": vsc_calls,
                    "verifysc_seconds": None if vsc_seconds is None else round(vsc_seconds, 4),
                    "verifysc_share": (round(vsc_seconds / r.seconds, 3)
                                       if vsc_seconds is not None and r.seconds else None),
                    "witness_states": r.stats.get("verifysc_states"),
                    "peak_memory_mib": round(r.peak_memory_bytes / 2**20, 1),
                    "budget_exceeded": r.budget_exceeded,
                    "machine": platform.machine(),
                }
                print(json.dumps(row), flush=True)
                if (explorer == "rvf" and prog.name.startswith(TARGET_FAMILIES) and n <= 30
                        and (r.seconds >= 1.0 or r.budget_exceeded)):
                    missed.append(f"{prog.name}: {r.seconds:.3f}s")
                if r.budget_exceeded:
                    break
    if args.check_target and missed:
        print("rvf missed the 1 s target on: " + ", ".join(missed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
