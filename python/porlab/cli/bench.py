"""``porlab bench`` (run a benchmark suite) and ``porlab report`` (tables and plots of its
results)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from porlab.api import (
    EXIT_INCOMPLETE,
    EXIT_OK,
)
from porlab.errors import InputError


def cmd_bench(args: argparse.Namespace) -> int:
    """``porlab bench SUITE.toml``: run a benchmark suite, one row per run in the results; exit
    3 when some runs of the suite have failed rows (timeout, memory, crash, error)."""

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
    if args.force and args.retry_failed:
        raise InputError("--force reruns every run already; --retry-failed only the failed ones")
    try:
        sweep = bench.run_suite(suite, out, jobs=args.jobs, scheduler=args.scheduler,
                                force=args.force, retry_failed=args.retry_failed,
                                filter=args.filter, progress=not args.quiet)
    except OSError as e:  # e.g. no Dask scheduler at --scheduler ADDR
        raise InputError(f"{args.scheduler or out}: {e}") from None
    print(f"{out}: {sweep.executed} runs done ({sweep.failed} failed), "
          f"{sweep.skipped} already there", file=sys.stderr)
    failed = sweep.failed_rows
    if not failed:
        return EXIT_OK
    earlier = len(failed) - sweep.failed
    print(f"porlab: {len(failed)} run{'s' if len(failed) > 1 else ''} failed"
          + (f" ({earlier} in an earlier sweep)" if earlier else "") + ":", file=sys.stderr)
    for r in failed:
        msg = " ".join(str(r.get("message") or "").split())
        # Long messages keep their end: the exception text follows a file:line whose path can
        # take up most of the room.
        msg = msg if len(msg) <= 100 else "..." + msg[-97:]
        print(f"  {r['suite']}:{r['instance']}:{r['config']}  {r['status']}"
              + (f"  {msg}" if msg else ""), file=sys.stderr)
    print(f"rerun them with: porlab bench {args.suite} -o {out} --retry-failed",
          file=sys.stderr)
    return EXIT_INCOMPLETE


_TABLE_SUFFIXES = {".md": "markdown", ".markdown": "markdown", ".txt": "markdown",
                   ".tex": "latex", ".latex": "latex"}


def _table_format(args: argparse.Namespace) -> str:
    """--format, or else LaTeX when every -o file ends in .tex, Markdown otherwise. A table
    file's name ends in .md, .txt or .tex (a .png is a plot: --plot was forgotten)."""

    suffixes = {os.path.splitext(o)[1].lower() for o in args.output or []}
    wrong = sorted(o for o in args.output or []
                   if os.path.splitext(o)[1].lower() not in _TABLE_SUFFIXES)
    if wrong:
        raise InputError(f"{wrong[0]}: a table file ends in "
                         f"{', '.join(_TABLE_SUFFIXES)} (a plot needs --plot)")
    if args.format:
        return str(args.format)
    return "latex" if suffixes and suffixes <= {".tex", ".latex"} else "markdown"


def cmd_report(args: argparse.Namespace) -> int:
    """``porlab report RESULTS``: a paper table (stdout, or the files of ``-o``) or a plot (the
    files of ``-o``, each in the format of its suffix) from the rows of a results file."""

    from porlab import bench, report

    try:
        df = bench.read_results(args.results)
    except (FileNotFoundError, ValueError, OSError) as e:
        msg = str(e)
        raise InputError(msg if msg.startswith(args.results) else f"{args.results}: {msg}") \
            from None
    if df.empty:
        raise InputError(f"{args.results}: no rows (no run has finished yet)")
    explorers = [e for e in (args.explorers or "").split(",") if e] or None
    outputs = [Path(o) for o in args.output or []]
    try:
        if args.plot:
            from porlab import plots

            if not outputs:
                raise InputError("--plot needs -o FILE (.png, .pdf, .svg, ...; -o again for "
                                 "more files)")
            if args.format:
                raise InputError("--format is for tables; a plot's format is its file's suffix")
            plots.output_paths(outputs)  # every name checked before anything is drawn
            if args.plot == "scatter":
                if not explorers or len(explorers) != 2:
                    raise InputError("--plot scatter needs --explorers X,Y")
                plots.scatter(df, explorers[0], explorers[1], args.metric or "traces",
                              path=outputs)
            else:
                if not args.program:
                    raise InputError(f"--plot {args.plot} needs --program NAME")
                if args.plot == "growth":
                    plots.growth(df, args.program, args.param, args.metric or "complete",
                                 explorers=explorers, path=outputs)
                else:
                    plots.time_vs_n(df, args.program, args.param, explorers=explorers,
                                    path=outputs)
        else:
            text = report.table(df, args.table, explorers=explorers, format=_table_format(args))
            if not outputs:
                print(text)
            for o in outputs:
                o.parent.mkdir(parents=True, exist_ok=True)
                o.write_text(text + "\n")
    except ValueError as e:
        raise InputError(str(e)) from None
    except OSError as e:
        raise InputError(f"{e.filename or ''}: {e.strerror or e}") from None
    for o in outputs:
        print(f"wrote {o}", file=sys.stderr)
    return EXIT_OK


# ---- errors: one line on stderr, or a JSON object on stdout with --json ----------------------
