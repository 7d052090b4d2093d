"""Events per second of C programs against builder programs, on the same programs (the C
versions in benchmarks/programs/ and their builder twins in examples/). Both run on porlab's one
interpreter: the C front end and the builder lower to the same decoded form.

    python3 benchmarks/c_vs_builder.py [--seconds S] [--repeats N] [--explorers naive,optimal]

Prints one row per program and explorer: events/s of each (the median of N runs of S CPU
seconds) and the ratio builder / C. All run
without the data-race check (check_races=False): the C twins have plain accesses, whose races the
Reporter checks in every execution, while builder programs have none, so with the check on this
compared the race checker, not the interpreters (rvf_fig1.c naive: ~3x slower with it). Rates are
in CPU seconds of this process (the explorer's thread included), which a loaded machine disturbs
less than wall time. The C programs also do work the builder twins do at build time (sortnet.c
computes its comparator network in every thread), so equal rates are not equal work.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import porlab

ROOT = Path(__file__).resolve().parents[1]

# (C file, defines, builder example, its parameters)
PAIRS = [
    ("rvf_fig1.c", {}, "rvf_fig1.py", {}),
    ("n_reads_lock.c", {"N": 5}, "lapor_n_reads_lock.py", {"n": 5}),
    ("sortnet.c", {"N": 2}, "sortnet.py", {"n": 2, "mode": "await"}),
]


def rate(program: object, explorer: str, seconds: float) -> tuple[float, int]:
    """Events per CPU second over repeated explorations filling `seconds` (a run of a few
    hundred events takes well under a millisecond: one run would measure its set-up only)."""
    events = 0
    start = time.process_time()
    while (spent := time.process_time() - start) < seconds:
        r = porlab.explore(program, explorer, check_races=False)
        events += r.events
    return events / max(spent, 1e-9), events


def median_rate(program: object, explorer: str, seconds: float, repeats: int) -> float:
    return statistics.median(rate(program, explorer, seconds)[0] for _ in range(repeats))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=float, default=3.0, help="CPU budget per run")
    ap.add_argument("--repeats", type=int, default=1, help="runs per measurement (median)")
    ap.add_argument("--explorers", default="naive,optimal")
    args = ap.parse_args()
    print(f"{'program':<16} {'explorer':<9} {'C ev/s':>12} {'builder ev/s':>13} {'ratio':>6}")
    for cfile, defines, example, params in PAIRS:
        c = porlab.load_c(ROOT / "benchmarks" / "programs" / cfile, defines=defines, loops="none")
        b = porlab.load_program(str(ROOT / "examples" / example), **params)
        for explorer in args.explorers.split(","):
            rc = median_rate(c, explorer, args.seconds, args.repeats)
            rb = median_rate(b, explorer, args.seconds, args.repeats)
            ratio = rb / rc if rc else float("inf")
            print(f"{cfile:<16} {explorer:<9} {rc:>12,.0f} {rb:>13,.0f} {ratio:>6.2f}",
                  flush=True)


if __name__ == "__main__":
    main()
