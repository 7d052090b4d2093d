"""Benchmark: every registered explorer on the scalable classics, for growing n.

Prints one JSON line per (program, n, explorer): complete, blocked, errors, events, seconds,
traces/s, events/s and peak memory. Each run has a time budget; a run that exceeds it is
printed with "budget_exceeded": true and later n of that program/explorer are skipped.
Nothing is asserted: this measures. Run: `python benchmarks/scaling.py [--explorers a,b]`.
"""

from __future__ import annotations

import argparse
import json
import os
import platform

import porlab

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# (file, parameter values of n, extra parameters)
SUITE: list[tuple[str, list[int], dict]] = [
    ("benchmarks/programs/writers_reader.py", [2, 3, 4, 5, 6], {}),
    ("benchmarks/programs/readers.py", [4, 8, 12, 16], {}),
    ("benchmarks/programs/lastzero.py", [3, 5, 7, 9], {}),
    ("benchmarks/programs/indexer.py", [10, 11, 12, 13], {}),
    ("examples/rvf_fig13c.py", [3, 4, 5, 6, 7], {}),
    ("examples/lapor_n_reads_lock.py", [3, 4, 5, 6, 7, 8], {}),
    ("examples/sortnet.py", [2, 3, 4, 5, 6, 7, 8], {"mode": "await"}),
    ("examples/sortnet.py", [2, 3, 4], {"mode": "assume"}),
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--explorers", default="", help="comma-separated (default: all but naive)")
    ap.add_argument("--max-seconds", type=float, default=10.0)
    args = ap.parse_args()
    names = [e["name"] for e in porlab.explorers() if e["name"] != "naive"] or ["naive"]
    if args.explorers:
        names = args.explorers.split(",")
    for path, ns, extra in SUITE:
        full = os.path.join(ROOT, path)
        if not os.path.exists(full):
            continue
        for explorer in names:
            for n in ns:
                prog = porlab.load_program(full, n=n, **extra)
                r = porlab.explore(prog, explorer, max_seconds=args.max_seconds,
                                   collect_outcomes=False)
                traces = r.complete + r.blocked + r.errors
                print(json.dumps({
                    "program": prog.name, "n": n, "explorer": explorer,
                    "complete": r.complete, "blocked": r.blocked, "errors": r.errors,
                    "events": r.events, "seconds": round(r.seconds, 4),
                    "traces_per_second": round(traces / r.seconds) if r.seconds else None,
                    "events_per_second": round(r.events / r.seconds) if r.seconds else None,
                    "peak_memory_mib": round(r.peak_memory_bytes / 2**20, 1),
                    "budget_exceeded": r.budget_exceeded,
                    "machine": platform.machine(),
                }), flush=True)
                if r.budget_exceeded:
                    break


if __name__ == "__main__":
    main()
