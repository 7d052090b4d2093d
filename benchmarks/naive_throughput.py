"""Benchmark: the naive explorer's raw speed (events/s, traces/s, peak memory) on a builder
program with at least 10^6 interleavings. Run: `python benchmarks/naive_throughput.py`
(or `make bench`). Prints one JSON line per run; nothing here is asserted."""

from __future__ import annotations

import argparse
import json
import math
import os
import platform

import porlab

HERE = os.path.dirname(os.path.abspath(__file__))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sizes", default="3,3,3,4", help="operations per thread")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    prog = porlab.load_program(os.path.join(HERE, "programs", "interleave.py"), sizes=args.sizes)
    sizes = [int(s) for s in args.sizes.split(",")]
    expected = math.factorial(sum(sizes)) // math.prod(math.factorial(s) for s in sizes)
    for _ in range(args.repeat):
        r = porlab.explore(prog, "naive", collect_outcomes=False)
        assert r.complete == expected, (r.complete, expected)
        print(json.dumps({
            "benchmark": "naive_throughput",
            "program": prog.name,
            "interleavings": r.complete,
            "events": r.events,
            "seconds": round(r.seconds, 3),
            "events_per_second": round(r.events / r.seconds),
            "traces_per_second": round(r.complete / r.seconds),
            "peak_memory_mib": round(r.peak_memory_bytes / 2**20, 1),
            "porlab": porlab.__version__,
            "machine": platform.machine(),
        }))


if __name__ == "__main__":
    main()
