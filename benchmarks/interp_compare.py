"""Instructions (callgrind) of exploring builder programs on their bytecode against the same
programs lowered to the decoded form C programs run in (``Program(interpreter="code")``), and of
C programs under ``optimal`` (the Code interpreter must not get slower on them).

    python3 benchmarks/interp_compare.py [--repeats N] [--only NAME,...]

Each measurement is one valgrind run that builds the program outside the measured region, then
explores it N times with ``max_memory=0`` (no memory poller); callgrind collects only inside the
registered explorer's run function (``--toggle-collect`` on the std::function that calls it), so
program construction, option parsing, Python start-up and imports do not count. Prints, per
builder program and explorer, the instructions of the bytecode, of the Code interpreter and their
ratio bytecode / Code (>= 1.0: the Code interpreter is at least as fast); per C program its
instructions under ``optimal``. Instruction counts do
not depend on the machine's load, unlike times (run it with the venv's python whose ``porlab``
is the tree under test).
"""

from __future__ import annotations

import argparse
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
    from porlab import _core

    if kind == "c":
        _, cfile, defines = next(c for c in C_PROGRAMS if c[0] == name)
        program: object = porlab.load_c(ROOT / "benchmarks" / "programs" / "shared" / cfile,
                                        defines=defines)
    else:
        _, example, params = next(b for b in BUILDER if b[0] == name)
        b = porlab.load_program(str(ROOT / "examples" / example), **params)
        b.compile()
        program = _core.lower_spec(b._spec) if kind == "code" else b
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
    ap.add_argument("--worker", nargs=4, metavar=("KIND", "NAME", "EXPLORER", "REPEATS"),
                    help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        kind, name, explorer, repeats = args.worker
        worker(kind, name, explorer, int(repeats))
        return
    only = set(filter(None, args.only.split(",")))
    print(f"{'program':<16} {'explorer':<8} {'bytecode':>14} {'code':>14} {'bytecode/code':>13}")
    for name, _, _ in BUILDER:
        if only and name not in only:
            continue
        for explorer in ("naive", "optimal"):
            # (sortnet(2) naive explores ~3M events a run: fewer runs suffice)
            n = max(1, args.repeats // 10) if name == "sortnet(2)" and explorer == "naive" else \
                args.repeats
            ib = instructions("bytecode", name, explorer, n)
            ic = instructions("code", name, explorer, n)
            print(f"{name:<16} {explorer:<8} {ib:>14,} {ic:>14,} {ib / ic:>13.3f}", flush=True)
    for name, _, _ in C_PROGRAMS:
        if only and name not in only:
            continue
        ic = instructions("c", name, "optimal", 1)
        print(f"{name:<16} {'optimal':<8} {'':>14} {ic:>14,}", flush=True)


if __name__ == "__main__":
    main()
