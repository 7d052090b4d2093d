"""Instructions (callgrind) of exploring builder programs (naive, optimal) and C programs
(optimal) on porlab's one interpreter, saved to JSON and compared with an earlier tree's.

    python3 benchmarks/interp_compare.py [--repeats N] [--only NAME,...] [--save F] [--against F]

Run it with ``--save before.json`` on one tree and ``--against before.json`` on another: each row
prints both counts and before / after (>= 1.0: the tree under test is at least as fast). Issue 17
used it to show the Code interpreter at least as fast as the builder bytecode it replaced (the
table in docs/architecture.md); the bytecode is gone, so that comparison is now a record.

Each measurement is one valgrind run that builds the program outside the measured region, then
explores it N times with ``max_memory=0`` (no memory poller); callgrind collects only inside the
registered explorer's run function (``--toggle-collect`` on the std::function that calls it), so
program construction, option parsing, Python start-up and imports do not count. Instruction
counts do not depend on the machine's load, unlike times (run it with the venv's python whose
``porlab`` is the tree under test).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# (name, builder example, its parameters)
BUILDER = [
    ("rvf_fig1", "rvf_fig1.py", {}),
    ("n_reads_lock(5)", "lapor_n_reads_lock.py", {"n": 5}),
    ("sortnet(2)", "sortnet.py", {"n": 2, "mode": "await"}),
]
# (name, C file of benchmarks/programs/shared, -D macros): the optimal rows of the shared suite
C_PROGRAMS = [
    ("casrot(8)", "casrot.c", {"N": 8}),
    ("readers(11)", "readers.c", {"N": 11}),
    ("exp_bug(8)", "exp_bug.c", {"N": 8}),
]


def worker(kind: str, name: str, explorer: str, repeats: int) -> None:
    """Build one program, then explore it `repeats` times (the measured part)."""
    import porlab

    if kind == "c":
        _, cfile, defines = next(c for c in C_PROGRAMS if c[0] == name)
        program: object = porlab.load_c(ROOT / "benchmarks" / "programs" / "shared" / cfile,
                                        defines=defines)
    else:
        _, example, params = next(b for b in BUILDER if b[0] == name)
        b = porlab.load_program(str(ROOT / "examples" / example), **params)
        program = b
    for _ in range(repeats):
        porlab.explore(program, explorer, max_memory=0)


def instructions(kind: str, name: str, explorer: str, repeats: int) -> int:
    """Instructions callgrind counts inside porlab::explore for one worker run."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "cg.out"
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
               "--toggle-collect=*_Function_handler<porlab::ExploreResult*", sys.executable,
               __file__, "--worker", kind, name, explorer, str(repeats)]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        text = out.read_text()
    m = re.search(r"^summary:\s+(\d+)", text, re.M) or re.search(r"^totals:\s+(\d+)", text, re.M)
    if not m:
        raise RuntimeError(f"no instruction total in callgrind's output for {name}")
    return int(m.group(1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeats", type=int, default=20, help="explorations per measurement")
    ap.add_argument("--only", default="", help="comma-separated program names (default: all)")
    ap.add_argument("--save", help="write the counts to this JSON file")
    ap.add_argument("--against", help="a JSON file of --save from an earlier tree")
    ap.add_argument("--worker", nargs=4, metavar=("KIND", "NAME", "EXPLORER", "REPEATS"),
                    help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        kind, name, explorer, repeats = args.worker
        worker(kind, name, explorer, int(repeats))
        return
    only = set(filter(None, args.only.split(",")))
    before: dict[str, int] = json.loads(Path(args.against).read_text()) if args.against else {}
    now: dict[str, int] = {}
    print(f"{'program':<16} {'explorer':<8} {'before':>14} {'now':>14} {'before/now':>10}")

    def row(kind: str, name: str, explorer: str, n: int) -> None:
        key = f"{name} {explorer}"
        now[key] = instructions(kind, name, explorer, n)
        b = before.get(key)
        ratio = f"{b / now[key]:>10.3f}" if b else f"{'':>10}"
        was = f"{b:>14,}" if b else f"{'':>14}"
        print(f"{name:<16} {explorer:<8} {was} {now[key]:>14,} {ratio}", flush=True)

    for name, _, _ in BUILDER:
        if only and name not in only:
            continue
        for explorer in ("naive", "optimal"):
            # (sortnet(2) naive explores ~3M events a run: fewer runs suffice)
            n = max(1, args.repeats // 10) if name == "sortnet(2)" and explorer == "naive" else \
                args.repeats
            row("builder", name, explorer, n)
    for name, _, _ in C_PROGRAMS:
        if not only or name in only:
            row("c", name, "optimal", 1)
    if args.save:
        Path(args.save).write_text(json.dumps(now, indent=1) + "\n")

if __name__ == "__main__":
    main()
