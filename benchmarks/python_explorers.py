"""Benchmark: the Python Source-DPOR (examples/plugins/source_dpor.py, ``py-source``) against the
C++ ``source`` and ``optimal`` on the Mazurkiewicz benchmarks of benchmarks/suites/dpor.toml and
paper examples (issue 20's target: within 10x of ``source`` in traces/s).

Times are CPU seconds of this process (time.process_time), not wall clock: the machine is shared.
Each program runs every explorer ``--repeat`` times and keeps the fastest. Prints a table and,
with ``--json``, one JSON line per (program, explorer). Nothing is asserted: this measures; the
test that py-source explores the same traces as source is tests/python/test_plugins.py.
Run: ``python benchmarks/python_explorers.py [--small] [--repeat 3]``.
"""

from __future__ import annotations

import argparse
import json
import os
import time

import porlab

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# (name, file, parameters)
PROGRAMS: list[tuple[str, str, dict]] = [
    ("rvf_fig1", "examples/rvf_fig1.py", {}),
    ("litmus_iriw", "examples/litmus_iriw.py", {}),
    ("godot_fig3", "examples/godot_fig3.py", {}),
    ("lapor_complex_lock", "examples/lapor_complex_lock.py", {}),
    *[(f"rvf_fig13c(n={n})", "examples/rvf_fig13c.py", {"n": n}) for n in (3, 4, 5, 6)],
    *[(f"writers_reader(n={n})", "benchmarks/programs/writers_reader.py", {"n": n})
      for n in (3, 4, 5)],
    *[(f"readers(n={n})", "benchmarks/programs/readers.py", {"n": n}) for n in (8, 12)],
    *[(f"lastzero(n={n})", "benchmarks/programs/lastzero.py", {"n": n}) for n in (5, 7)],
    *[(f"indexer(n={n})", "benchmarks/programs/indexer.py", {"n": n}) for n in (11, 12)],
    *[(f"nreads_lock(n={n})", "examples/lapor_n_reads_lock.py", {"n": n}) for n in (5, 6)],
    *[(f"sortnet_await(n={n})", "examples/sortnet.py", {"n": n, "mode": "await"})
      for n in (3, 4)],
]
SMALL = {"rvf_fig1", "litmus_iriw", "godot_fig3", "rvf_fig13c(n=3)", "writers_reader(n=3)",
         "lastzero(n=5)", "indexer(n=11)"}
EXPLORERS = ("py-source", "source", "optimal")


def measure(prog: porlab.Program, explorer: str, repeat: int) -> dict:
    best: dict = {}
    for _ in range(repeat):
        t0 = time.process_time()
        r = porlab.explore(prog, explorer, max_seconds=120)
        cpu = time.process_time() - t0
        if not best or cpu < best["cpu_seconds"]:
            best = {"traces": r.traces_explored, "complete": r.complete, "blocked": r.blocked,
                    "errors": r.errors, "sleep_blocked": int(r.stats.get("sleep_blocked", 0)),
                    "cpu_seconds": cpu, "traces_per_cpu_second": r.traces_explored / max(cpu, 1e-9),
                    "budget_exceeded": r.budget_exceeded}
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--small", action="store_true", help="a few small programs (CI, notebooks)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per measurement (the fastest)")
    ap.add_argument("--json", action="store_true", help="JSON lines instead of a table")
    args = ap.parse_args()
    porlab.load_plugin(os.path.join(ROOT, "examples", "plugins", "source_dpor.py"))
    print(f"{'program':24} {'traces':>8} {'py-source tr/s':>15} {'source tr/s':>12} "
          f"{'optimal tr/s':>13} {'slowdown':>9}  same traces  sleep-blocked py/C++")
    for name, path, params in PROGRAMS:
        if args.small and name not in SMALL:
            continue
        prog = porlab.load_program(os.path.join(ROOT, path), **params)
        rows = {e: measure(prog, e, args.repeat) for e in EXPLORERS}
        mine, ref = rows["py-source"], rows["source"]
        same = all(mine[k] == ref[k] for k in ("complete", "blocked", "errors"))
        slowdown = ref["traces_per_cpu_second"] / max(mine["traces_per_cpu_second"], 1e-9)
        if args.json:
            for e, r in rows.items():
                print(json.dumps({"program": name, "explorer": e, **r}))
        else:
            print(f"{name:24} {mine['traces']:>8} {mine['traces_per_cpu_second']:>15,.0f} "
                  f"{ref['traces_per_cpu_second']:>12,.0f} "
                  f"{rows['optimal']['traces_per_cpu_second']:>13,.0f} {slowdown:>8.1f}x  "
                  f"{'yes' if same else 'NO':>11}  {mine['sleep_blocked']}/{ref['sleep_blocked']}",
                  flush=True)


if __name__ == "__main__":
    main()
