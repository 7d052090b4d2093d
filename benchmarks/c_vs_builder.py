"""Events per second of porlab's C interpreter against the builder interpreter, on the same
programs (the C versions in benchmarks/programs/ and their builder twins in examples/).

    python3 benchmarks/c_vs_builder.py [--seconds S]

Prints one row per program and explorer: events/s of each and the ratio builder / C (the issue
asks for a ratio within 3x).
"""

from __future__ import annotations

import argparse
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
    """Events per second over repeated explorations filling `seconds` (a run of a few hundred
    events takes well under a millisecond: one run would measure its set-up only)."""
    events, spent = 0, 0.0
    while spent < seconds:
        r = porlab.explore(program, explorer, max_seconds=seconds - spent)
        events += r.events
        spent += max(r.seconds, 1e-9)
    return events / spent, events


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=float, default=3.0, help="budget per run")
    ap.add_argument("--explorers", default="naive,optimal")
    args = ap.parse_args()
    print(f"{'program':<16} {'explorer':<9} {'C ev/s':>12} {'builder ev/s':>13} {'ratio':>6}")
    for cfile, defines, example, params in PAIRS:
        c = porlab.load_c(ROOT / "benchmarks" / "programs" / cfile, defines=defines, loops="none")
        b = porlab.load_program(str(ROOT / "examples" / example), **params)
        for explorer in args.explorers.split(","):
            rc, _ = rate(c, explorer, args.seconds)
            rb, _ = rate(b, explorer, args.seconds)
            ratio = rb / rc if rc else float("inf")
            print(f"{cfile:<16} {explorer:<9} {rc:>12,.0f} {rb:>13,.0f} {ratio:>6.2f}")


if __name__ == "__main__":
    main()
