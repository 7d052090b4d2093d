"""The ``porlab`` command line.

Exit codes follow Nidhugg and GenMC: 0 no violation, 42 a violation was found, 2 bad input or
an unsupported program.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from porlab import _core
from porlab.api import explore, explorers, load_program, partition_sizes
from porlab.errors import InputError, UnsupportedError

EXIT_OK = 0
EXIT_VIOLATION = 42
EXIT_BAD_INPUT = 2


def _param(text: str) -> tuple[str, Any]:
    if "=" not in text:
        raise argparse.ArgumentTypeError(f"parameter '{text}' is not NAME=VALUE")
    k, v = text.split("=", 1)
    val: Any = v
    for conv in (int, float):
        try:
            val = conv(v)
            break
        except ValueError:
            continue
    if v in ("true", "false", "True", "False"):
        val = v.lower() == "true"
    return k.strip(), val


def _fmt_table(rows: list[list[str]], header: list[str]) -> str:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]

    def line(r: list[str]) -> str:
        return "  ".join(
            str(c).ljust(w) if i == 0 else str(c).rjust(w)
            for i, (c, w) in enumerate(zip(r, widths, strict=True))
        )

    return "\n".join([line(header), "  ".join("-" * w for w in widths), *map(line, rows)])


def _kinds_text(c: int, b: int, e: int) -> str:
    s = str(c)
    if b:
        s += f"+{b}"
    if e:
        s += f" ({e} err)"
    return s


def cmd_partition(args: argparse.Namespace) -> int:
    rows: list[list[str]] = []
    results: list[dict[str, Any]] = []
    for path in args.files:
        prog = load_program(path, **dict(args.param or []))
        p = partition_sizes(prog, max_traces=args.max_traces, max_seconds=args.max_seconds)
        results.append({"file": path, "program": prog.name, **p.as_dict()})
        keys = ["interleavings", *_core.EQUIVALENCES.keys()]
        rows.append(
            [prog.name]
            + [_kinds_text(p.complete[k], p.blocked[k], p.errors[k]) for k in keys]
            + [("budget!" if p.budget_exceeded else "") + f"{p.seconds:.2f}s"]
        )
    if args.json:
        print(json.dumps(results[0] if len(results) == 1 else results, indent=2))
    else:
        header = ["program", "interleavings", *_core.EQUIVALENCES.keys(), "time"]
        print(_fmt_table(rows, header))
        print("\ncounts are complete+blocked classes of maximal traces")
    return EXIT_OK


def _print_trace(trace: _core.Trace) -> None:
    for i, e in enumerate(trace.events):
        print(f"  {trace.thread_name(e.thread):<10} {trace.source(i):<28} {trace.describe(i)}")


def cmd_explore(args: argparse.Namespace) -> int:
    prog = load_program(args.file, **dict(args.param or []))
    extra = dict(args.option or [])
    r = explore(
        prog,
        args.explorer,
        max_traces=args.max_traces,
        max_seconds=args.max_seconds,
        max_events=args.max_events,
        stop_on_error=args.stop_on_error,
        ifaa=args.ifaa,
        **extra,
    )
    if args.json:
        print(json.dumps(r.as_dict(), indent=2))
    else:
        print(f"program   {prog.name}")
        print(f"explorer  {r.explorer}{' (ifaa)' if args.ifaa else ''}")
        print(f"traces    {r.complete} complete + {r.blocked} blocked + {r.errors} errors")
        print(f"events    {r.events}  ({r.events_per_second:,.0f}/s)")
        print(f"time      {r.seconds:.3f}s")
        print(f"memory    {r.peak_memory_bytes / 2**20:.1f} MiB peak")
        for k, v in sorted(r.stats.items()):
            print(f"{k:<9} {v:g}")
        if r.budget_exceeded:
            print(f"budget    exceeded ({r.budget_reason}): counts are partial")
        if r.first_error is not None:
            print("\nerror trace:")
            _print_trace(r.first_error)
    return EXIT_VIOLATION if r.errors else EXIT_OK


DEFAULT_RUN_MAX_EVENTS = 50_000_000


def cmd_run(args: argparse.Namespace) -> int:
    """``porlab run FILE.c``: compile a C program, explore it, print the verdict and, on a
    violation, the error trace (exit 0 / 42 / 2)."""
    from porlab.cfront import c_warnings, load_c

    defines = list(args.define or [])
    prog = load_c(
        args.file,
        defines=defines,
        unroll=args.unroll,
        include_dirs=args.include or [],
        clang_args=args.clang_args or [],
        max_threads=args.max_threads,
        nondet_domain=args.nondet_domain,
        deadlock_is_error=not args.deadlock_blocked,
        max_locations=args.max_locations,
        max_execution_events=args.max_execution_events,
        loops=args.loops,
    )
    extra = dict(args.option or [])
    max_events = DEFAULT_RUN_MAX_EVENTS if args.max_events is None else args.max_events
    r = explore(
        prog,
        args.explorer,
        max_traces=args.max_traces,
        max_seconds=args.max_seconds,
        max_events=max_events,
        stop_on_error=not args.all_errors,
        ifaa=args.ifaa,
        **extra,
    )
    warnings = c_warnings(prog)
    budget_note = ""
    if r.budget_exceeded:
        budget_note = f"budget exceeded ({r.budget_reason})"
        if r.budget_reason == "events" and args.max_events is None:
            budget_note += (f": the default budget of {DEFAULT_RUN_MAX_EVENTS:,} events ran out; "
                            "does the program terminate? bound its loops with --unroll N, "
                            "or raise --max-events (0 = no limit)")
    if args.json:
        d = r.as_dict()
        d["file"] = args.file
        d["warnings"] = warnings
        if budget_note:
            d["budget_note"] = budget_note
        print(json.dumps(d, indent=2))
    else:
        for w in warnings:
            print(f"porlab: warning: {w}", file=sys.stderr)
        verdict = "VIOLATION" if r.errors else ("no violation found" if not r.budget_exceeded
                                                 else "no violation found (partial)")
        print(f"program   {args.file}")
        print(f"explorer  {r.explorer}{' (ifaa)' if args.ifaa else ''}")
        print(f"verdict   {verdict}")
        print(f"traces    {r.complete} complete + {r.blocked} blocked + {r.errors} errors")
        print(f"events    {r.events}  ({r.events_per_second:,.0f}/s)")
        print(f"time      {r.seconds:.3f}s")
        if budget_note:
            print(f"budget    {budget_note}: counts are partial")
        if r.first_error is not None:
            print("\nerror trace:")
            _print_trace(r.first_error)
    return EXIT_VIOLATION if r.errors else EXIT_OK


def cmd_explorers(args: argparse.Namespace) -> int:
    ex = explorers()
    if args.json:
        print(json.dumps(ex, indent=2))
    else:
        print(_fmt_table([[e["name"], e["equivalence"], e["description"]] for e in ex],
                         ["name", "equivalence", "description"]))
    return EXIT_OK


def cmd_disasm(args: argparse.Namespace) -> int:
    print(load_program(args.file, **dict(args.param or [])).disassemble(), end="")
    return EXIT_OK


def cmd_bench(args: argparse.Namespace) -> int:
    """``porlab bench SUITE.toml``: run a benchmark suite, one row per run in the results."""
    from pathlib import Path

    from porlab import bench

    try:
        suite = bench.load_suite(args.suite, small=True if args.small else None)
    except ValueError as e:
        raise InputError(str(e)) from None
    out = args.output or f"{Path(args.suite).stem}.parquet"
    if Path(out).suffix not in (".parquet", ".csv", ".jsonl"):
        raise InputError(f"{out}: results are .parquet, .csv or .jsonl files")
    if args.jobs < 1:
        raise InputError(f"-j {args.jobs}: at least one job")
    try:
        sweep = bench.run_suite(suite, out, jobs=args.jobs, scheduler=args.scheduler,
                                force=args.force, filter=args.filter, progress=not args.quiet)
    except OSError as e:  # e.g. no Dask scheduler at --scheduler ADDR
        raise InputError(f"{args.scheduler or out}: {e}") from None
    print(f"{out}: {sweep.executed} runs done ({sweep.failed} failed), "
          f"{sweep.skipped} already there", file=sys.stderr)
    return EXIT_OK


def cmd_report(args: argparse.Namespace) -> int:
    """``porlab report RESULTS``: a paper table (stdout) or a plot (PNG and PDF) from rows."""
    from porlab import bench, report

    try:
        df = bench.read_results(args.results)
    except (FileNotFoundError, ValueError, OSError) as e:
        raise InputError(f"{args.results}: {e}") from None
    explorers = [e for e in (args.explorers or "").split(",") if e] or None
    try:
        if args.plot:
            from porlab import plots

            if not args.output:
                raise InputError("--plot needs -o OUT.png (a PDF is written next to it)")
            if args.plot == "scatter":
                if not explorers or len(explorers) != 2:
                    raise InputError("--plot scatter needs --explorers X,Y")
                plots.scatter(df, explorers[0], explorers[1], args.metric or "traces",
                              path=args.output)
            else:
                if not args.program:
                    raise InputError(f"--plot {args.plot} needs --program NAME")
                if args.plot == "growth":
                    plots.growth(df, args.program, args.param, args.metric or "complete",
                                 explorers=explorers, path=args.output)
                else:
                    plots.time_vs_n(df, args.program, args.param, explorers=explorers,
                                    path=args.output)
            print(f"wrote {args.output} and its PDF", file=sys.stderr)
        else:
            print(report.table(df, args.table, explorers=explorers, format=args.format))
    except ValueError as e:
        raise InputError(str(e)) from None
    return EXIT_OK


class _Parser(argparse.ArgumentParser):
    """Usage errors as one line, ``porlab: error: ...``, exit code 2 (like bad input)."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"porlab: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    names = [e["name"] for e in explorers()]
    ap = _Parser(
        prog="porlab",
        description="Stateless model checking with dynamic partial order reduction.",
        epilog="Exit codes: 0 no violation, 42 violation found, 2 bad input.",
    )
    sub = ap.add_subparsers(dest="command", required=True)

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("-p", "--param", action="append", type=_param, metavar="NAME=VALUE",
                       help="parameter of the program file's build(...) function")
        p.add_argument("--max-traces", type=int, default=0, help="stop after N traces")
        p.add_argument("--max-seconds", type=float, default=0.0, help="stop after S seconds")
        p.add_argument("--json", action="store_true", help="print JSON")

    p = sub.add_parser("partition", help="count classes under every equivalence")
    p.add_argument("files", nargs="+", help="program files (.py defining `program`)")
    common(p)
    p.set_defaults(func=cmd_partition)

    p = sub.add_parser("explore", help="explore a program with an explorer")
    p.add_argument("file")
    p.add_argument("--explorer", "-e", default="naive", choices=names)
    p.add_argument("--ifaa", action="store_true",
                   help="fetch-and-adds with unused results commute")
    p.add_argument("--max-events", type=int, default=0)
    p.add_argument("--stop-on-error", action="store_true")
    p.add_argument("-o", "--option", action="append", type=_param, metavar="NAME=VALUE",
                   help="explorer-specific option")
    common(p)
    p.set_defaults(func=cmd_explore)

    p = sub.add_parser("run", help="verify a C program (clang 19 → LLVM IR → porlab)",
                       description="Compile a C file with clang 19 and explore it. Arguments "
                       "after -- go to clang (e.g. -- -m32 -fgnu89-inline).")
    p.add_argument("file", help="C source file (.c or preprocessed .i)")
    p.add_argument("--explorer", "-e", default="optimal-await", choices=names)
    p.add_argument("--unroll", type=int, metavar="N",
                   help="at most N visits of a loop header per entry of the loop, as Nidhugg's and "
                   "GenMC's -unroll=N (N-1 jumps back; the N-th blocks the execution: "
                   "loop-bound); N >= 1")
    p.add_argument("--loops", default="plp-saver",
                   choices=["plp-saver", "none", "spin-assume", "plp", "plp-await", "saver"],
                   help="spin-loop reduction (default plp-saver: iterations that change "
                   "nothing are blocked, as Nidhugg and GenMC do by default, sound with every "
                   "explorer; none: the program as written; plp-await: Godot's PLP+Await; "
                   "saver: SAVER; see docs/supported-c.md)")
    p.add_argument("-D", dest="define", action="append", metavar="NAME[=VALUE]",
                   help="define a macro")
    p.add_argument("-I", dest="include", action="append", metavar="DIR",
                   help="add an include directory")
    p.add_argument("--max-threads", type=int, default=16,
                   help="bound on threads, main included (default 16)")
    p.add_argument("--max-locations", type=int, default=4096,
                   help="bound on shared heap/stack locations (default 4096)")
    p.add_argument("--max-execution-events", type=int, default=100_000,
                   help="cut an execution this long (blocked, with a warning; default 100000)")
    p.add_argument("--nondet-domain", metavar="LO:HI",
                   help="explore every value of __VERIFIER_nondet_* in LO..HI (the explorer runs "
                        "once per assignment of values to the nondet calls reached)")
    p.add_argument("--deadlock-blocked", action="store_true",
                   help="count deadlocks as blocked executions instead of errors")
    p.add_argument("--all-errors", action="store_true",
                   help="keep exploring after the first violation")
    p.add_argument("--ifaa", action="store_true",
                   help="fetch-and-adds with unused results commute")
    p.add_argument("--max-events", type=int, default=None,
                   help=f"event budget (default {DEFAULT_RUN_MAX_EVENTS:,}; 0 = no limit)")
    p.add_argument("-o", "--option", action="append", type=_param, metavar="NAME=VALUE",
                   help="explorer-specific option")
    p.add_argument("--max-traces", type=int, default=0, help="stop after N traces")
    p.add_argument("--max-seconds", type=float, default=0.0, help="stop after S seconds")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.set_defaults(func=cmd_run, clang_args=[])

    p = sub.add_parser("explorers", help="list the registered explorers")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_explorers)

    p = sub.add_parser("disasm", help="show a program's bytecode")
    p.add_argument("file")
    p.add_argument("-p", "--param", action="append", type=_param, metavar="NAME=VALUE")
    p.set_defaults(func=cmd_disasm)

    p = sub.add_parser("bench", help="run a benchmark suite (TOML), one row per run")
    p.add_argument("suite", help="suite file, e.g. benchmarks/suites/smoke.toml")
    p.add_argument("-o", "--output", help="results .parquet, .csv or .jsonl (default: "
                   "SUITE.parquet); runs already there are skipped")
    p.add_argument("-j", "--jobs", type=int, default=1, help="parallel worker processes")
    p.add_argument("--scheduler", metavar="ADDR", help="run on this Dask scheduler instead")
    p.add_argument("--force", action="store_true", help="rerun runs already in the results")
    p.add_argument("--filter", metavar="SUBSTRING",
                   help="only runs whose suite:instance:config or path contains it")
    p.add_argument("--small", action="store_true",
                   help="the suite's small parameters (also with PORLAB_SMALL=1)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("report", help="paper tables and plots from benchmark results")
    p.add_argument("results", help="results file written by `porlab bench`")
    p.add_argument("--table", choices=["rvf", "godot", "lapor", "plain"], default="plain")
    p.add_argument("--format", choices=["markdown", "latex"], default="markdown")
    p.add_argument("--explorers", metavar="A,B", help="explorer configurations (columns)")
    p.add_argument("--plot", choices=["scatter", "growth", "time"],
                   help="a plot instead of a table (-o OUT.png; a PDF is written too)")
    p.add_argument("-o", "--output", help="plot file")
    p.add_argument("--program", help="program of a growth/time plot")
    p.add_argument("--param", default="n", help="scaling parameter of a growth/time plot")
    p.add_argument("--metric", choices=["traces", "complete", "blocked", "errors", "events",
                                        "seconds"], help="what to plot")
    p.set_defaults(func=cmd_report)
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    ap = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    clang_args: list[str] = []
    if "--" in argv:  # porlab run FILE.c [options] -- clang arguments
        at = argv.index("--")
        argv, clang_args = argv[:at], argv[at + 1:]
    args = ap.parse_args(argv)
    if clang_args:
        if args.command != "run":
            ap.error("arguments after -- are clang arguments of 'porlab run'")
        args.clang_args = clang_args
    try:
        return int(args.func(args))
    except (InputError, UnsupportedError) as e:
        print(f"porlab: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("porlab: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
