"""``porlab run``, ``porlab explore`` and ``porlab partition``: explore a program, report the
verdict, the counts and the error traces (text or JSON)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import Any

from porlab import _core
from porlab.api import (
    EXIT_INCOMPLETE,
    EXIT_INTERRUPTED,
    EXIT_OK,
    Result,
    explore,
    partition_sizes,
)
from porlab.cli.common import (
    _emit,
    _explorer_options,
    _fmt_table,
    _is_c_file,
    _kinds_text,
    _load_any,
    _progress,
)
from porlab.errors import InputError, Interrupted


def cmd_partition(args: argparse.Namespace) -> int:
    rows: list[list[str]] = []
    results: list[dict[str, Any]] = []
    code = EXIT_OK
    for path in args.files:
        prog = _load_any(path, dict(args.param or []))
        try:
            p = partition_sizes(prog, max_traces=args.max_traces, max_seconds=args.max_seconds,
                                max_memory=args.max_memory, progress=_progress(args),
                                thread=args.thread)
        except Interrupted as e:
            p = e.result  # type: ignore[assignment]
        if p.incomplete:
            code = max(code, EXIT_INTERRUPTED if "interrupted" in p.incomplete
                       else EXIT_INCOMPLETE)
        results.append({"file": path, "program": prog.name, **p.as_dict()})
        keys = ["interleavings", *_core.EQUIVALENCES.keys()]
        rows.append(
            [prog.name]
            + [_kinds_text(p.complete[k], p.blocked[k], p.errors[k]) for k in keys]
            + [("incomplete! " if p.incomplete else "") + f"{p.seconds:.2f}s"]
        )
        if code == EXIT_INTERRUPTED:
            break
    if args.json:
        _emit(json.dumps(results[0] if len(results) == 1 else results, indent=2))
    else:
        header = ["program", "interleavings", *_core.EQUIVALENCES.keys(), "time"]
        _emit(_fmt_table(rows, header))
        _emit("\ncounts are complete+blocked classes of maximal traces")
        for r in results:
            if r["incomplete"]:
                _emit(f"{r['program']}: incomplete ({', '.join(r['incomplete'])}): the counts are "
                      "lower bounds")
    return code


# ---- results: verdicts, warnings, traces ----------------------------------------------------

#: What to do about each kind of blocked execution (shown with the warnings).
_BLOCK_ADVICE = {
    "loop-bound": "raise --unroll to explore more iterations",
    "execution-cut": "an unbounded loop? bound loops with --unroll N or reduce spin loops with "
                     "--loops, or raise --max-execution-events",
    "thread-limit": "raise --max-threads",
    "location-limit": "raise --max-locations",
    "livelock": "a loop that nothing can end",
    "deadlock": "every live thread waits for a mutex or a join",
    "await": "an await whose condition can never hold",
    "cond-wait": "a condition-variable wait no signal ends",
    "lock": "a mutex no one releases",
    "join": "a join of a thread that never ends",
    "assume": "the program's assume",
    "spin-loop": "a spin-loop iteration that changed nothing (a loop reduction)",
    "pure-iteration": "a loop iteration without effect (SAVER)",
    "zne": "a zero-net-effect loop iteration (SAVER)",
}


def _sites_text(r: Result, reason: str, limit: int = 3) -> str:
    sites = [s for s in r.block_sites if s["reason"] == reason and s["source"]]
    sites.sort(key=lambda s: -s["traces"])
    text = ", ".join(s["source"] for s in sites[:limit])
    if len(sites) > limit:
        text += f" and {len(sites) - limit} more"
    return f" at {text}" if text else ""


def result_warnings(r: Result, unroll: int | None = None) -> list[str]:
    """Warnings a person must see with a result: why it is not a proof, why executions were
    blocked (where, and what would help)."""
    out: list[str] = []
    for why in r.incomplete:
        if why in ("traces", "seconds", "events", "memory"):
            out.append(f"the {why} budget ran out: the exploration is incomplete and the counts "
                       "are partial")
        elif why == "interrupted":
            out.append("interrupted: the exploration is incomplete and the counts are partial")
        else:
            n = r.blocked_by.get(why, 0)
            sites = _sites_text(r, why)
            out.append(f"{why}: executions were stopped by a limit{sites}; the exploration is "
                       f"incomplete ({_BLOCK_ADVICE.get(why, '')})"
                       + (f"; {n} blocked executions by this reason" if n else ""))
    if r.blocked and not r.complete and not r.errors:
        reasons = ", ".join(f"{n} by {k}{_sites_text(r, k, 2)}"
                            for k, n in sorted(r.blocked_by.items(), key=lambda kv: -kv[1]))
        out.append(f"no execution completed: all {r.blocked} explored executions were blocked "
                   f"({reasons})")
    if "loop-bound" in r.blocked_by and r.complete:
        bound = f"--unroll {unroll}" if unroll else "the loop bound"
        out.append(f"{r.blocked_by['loop-bound']} executions hit {bound}"
                   f"{_sites_text(r, 'loop-bound')}: the verdict holds for loops bounded so "
                   "(raise --unroll to explore more iterations)")
    if "livelock" in r.blocked_by:
        out.append(f"{r.blocked_by['livelock']} executions end in a loop that nothing can end"
                   f"{_sites_text(r, 'livelock')}")
    return out


def _print_trace(trace: _core.Trace, title: str = "error trace") -> None:
    """The trace as a table (thread, source, function with its call stack, event), columns sized
    to their contents (thread names beyond 24 characters shortened), then the heap blocks it
    touches and its nondet inputs."""
    _emit(f"\n{title}:")
    for line in trace.to_text().splitlines():
        _emit(f"  {line}")


def _error_where(site: dict[str, Any]) -> str:
    """'assertion `x' failed at b.c:31 in push <- worker (t1:worker)' for an error site."""
    text = site["message"]
    if site.get("source"):
        text += f" at {site['source']}"
    if site.get("function"):
        text += f" in {site['function']}"
    return text + f" ({site['thread']})"


def _print_errors(r: Result, all_errors: bool) -> None:
    """The distinct error sites (with a count each) and one error trace: the first, or with
    all_errors one per site."""
    sites = r.errors_by_site
    for s in sites:
        pos = s["trace"].error_position
        s["function"] = s["trace"].stack_text(pos) if pos >= 0 else ""
    if len(sites) > 1 or all_errors:
        _emit(f"errors    {r.errors} error traces at {len(sites)} distinct "
              f"site{'s' if len(sites) != 1 else ''}:")
        for k, s in enumerate(sites, 1):
            _emit(f"  {k}. {_error_where(s)}: {s['traces']} trace{'s' if s['traces'] != 1 else ''}")
    if not all_errors or not sites:
        if r.first_error is not None:
            _print_trace(r.first_error)
        return
    for k, s in enumerate(sites, 1):
        _print_trace(s["trace"], f"error trace {k} of {len(sites)}: {s['message']}")


def _write_graphs(r: Result, args: argparse.Namespace) -> list[str]:
    """--dot FILE: the first error trace's execution graph; --dot-dir DIR: one file per
    distinct error site. Returns the files written."""
    from porlab.traceview import write_dot, write_dot_dir

    written: list[str] = []
    dot = getattr(args, "dot", None)
    dot_dir = getattr(args, "dot_dir", None)
    try:
        if dot and r.first_error is not None:
            written.append(str(write_dot(r.first_error, dot)))
        if dot_dir and r.first_error is not None:
            written += [str(p) for p in write_dot_dir(r.errors_by_site, dot_dir)]
    except OSError as e:
        raise InputError(f"cannot write the error graph: {e}") from None
    if (dot or dot_dir) and r.first_error is None and not args.json:
        print("porlab: no error trace: no graph written", file=sys.stderr)
    return written


def _incomplete_phrase(why: str) -> str:
    """Why a run is incomplete, in words (the JSON keeps the reason's name)."""
    if why in ("traces", "seconds", "events", "memory"):
        return f"the {why} budget ran out"
    if why == "interrupted":
        return "interrupted"
    return f"executions stopped by {why}"


def _verdict_text(r: Result) -> str:
    if r.errors:
        return "VIOLATION"
    if r.interrupted:
        return "INTERRUPTED: no violation found in the part explored (not a proof)"
    if r.incomplete:
        return ("INCOMPLETE: no violation found in the part explored (not a proof: "
                f"{'; '.join(_incomplete_phrase(w) for w in r.incomplete)})")
    return "no violation found (exhaustive)"


def _report(r: Result, args: argparse.Namespace, name: str, extra: dict[str, Any] | None = None,
            program_warnings: Sequence[str] = (), unroll: int | None = None) -> int:
    """Prints a result (text or --json) and returns its exit code."""
    warnings = [*program_warnings, *result_warnings(r, unroll)]
    if args.json:
        d = r.as_dict()
        d.update(extra or {})
        d["warnings"] = warnings
        _emit(json.dumps(d, indent=2))
        return r.exit_code
    for w in warnings:
        print(f"porlab: warning: {w}", file=sys.stderr)
    _emit(f"program   {name}")
    _emit(f"explorer  {r.explorer}{' (ifaa)' if getattr(args, 'ifaa', False) else ''}")
    _emit(f"verdict   {_verdict_text(r)}")
    if r.first_error is not None:
        first = r.first_error
        pos = first.error_position
        _emit("error     " + _error_where({
            "message": first.error_message, "source": first.source(pos) if pos >= 0 else "",
            "function": first.stack_text(pos) if pos >= 0 else "",
            "thread": first.thread_name(first.events[pos].thread) if pos >= 0 else "?"}))
    _emit(f"traces    {r.complete} complete + {r.blocked} blocked + {r.errors} errors")
    if r.blocked_by:
        _emit("blocked   " + ", ".join(f"{n} {k}" for k, n in
                                       sorted(r.blocked_by.items(), key=lambda kv: -kv[1])))
    _emit(f"events    {r.events}  ({r.events_per_second:,.0f}/s)")
    _emit(f"time      {r.seconds:.3f}s")
    _emit(f"memory    {r.peak_memory_bytes / 2**20:.1f} MiB peak")
    if getattr(args, "stats", False):
        for k, v in sorted(r.stats.items()):
            _emit(f"{k:<9} {v:g}")
    for f in (extra or {}).get("dot_files", []):
        _emit(f"graph     {f}")
    if r.first_error is not None:
        _print_errors(r, getattr(args, "all_errors", False))
    return r.exit_code


def _explore(prog: Any, args: argparse.Namespace, **kw: Any) -> Result:
    scheduler = getattr(args, "scheduler", None)
    if scheduler:
        return _explore_on_scheduler(prog, args, scheduler, **kw)
    try:
        return explore(prog, args.explorer, max_traces=args.max_traces,
                       max_seconds=args.max_seconds, max_memory=args.max_memory,
                       ifaa=args.ifaa, progress=_progress(args),
                       check_races=not args.disable_race_detection,
                       check_liveness=args.check_liveness,
                       jobs=getattr(args, "jobs", 1),
                       **kw, **_explorer_options(args))
    except Interrupted as e:
        return e.result  # type: ignore[return-value]


def _explore_on_scheduler(prog: Any, args: argparse.Namespace, scheduler: str,
                          **kw: Any) -> Result:
    """--scheduler ADDR: the exploration on that Dask cluster (porlab.distributed)."""
    from porlab.distributed import TASK_EXPLORERS

    if args.explorer not in TASK_EXPLORERS:
        raise InputError(f"explorer '{args.explorer}': --scheduler is supported by "
                         f"{', '.join(TASK_EXPLORERS)} (docs/parallel.md)")
    if getattr(args, "jobs", 1) != 1:
        raise InputError("--scheduler and --jobs: one or the other")
    from dask.distributed import Client

    try:
        client = Client(scheduler, timeout=10)
    except OSError as e:
        raise InputError(f"--scheduler {scheduler}: {e}") from None
    try:
        return explore(prog, args.explorer, max_traces=args.max_traces,
                       max_seconds=args.max_seconds, max_memory=args.max_memory,
                       ifaa=args.ifaa, progress=_progress(args),
                       check_races=not args.disable_race_detection,
                       check_liveness=args.check_liveness, client=client,
                       **kw, **_explorer_options(args))
    except Interrupted as e:
        return e.result  # type: ignore[return-value]
    finally:
        client.close()


def cmd_explore(args: argparse.Namespace) -> int:
    prog = _load_any(args.file, dict(args.param or []))
    r = _explore(prog, args, max_events=args.max_events, stop_on_error=args.stop_on_error)
    warnings: list[str] = []
    if _is_c_file(args.file):
        from porlab.cfront import c_warnings

        warnings = c_warnings(prog)
    return _report(r, args, prog.name, {"file": args.file, "dot_files": _write_graphs(r, args)},
                   warnings)


def cmd_run(args: argparse.Namespace) -> int:
    """``porlab run FILE.c``: compile a C program, explore it, print the verdict and, on a
    violation, the error trace (exit 0 / 42 / 2 / 3 / 130)."""
    from porlab.cfront import c_warnings, load_c

    if os.path.isdir(args.file):
        raise InputError(f"{args.file}: is a directory, not a C file")
    defines = list(args.define or [])
    prog = load_c(
        args.file,
        defines=defines,
        unroll=args.unroll,
        include_dirs=args.include or [],
        clang_args=args.clang_args or [],
        max_threads=args.max_threads,
        nondet_domain=args.nondet_domain or None,
        deadlock_is_error=args.deadlock_is_error,
        max_locations=args.max_locations,
        max_execution_events=args.max_execution_events,
        loops=args.loops,
    )
    # --dot-dir writes one graph per distinct error site: it needs them all (as --all-errors).
    r = _explore(prog, args, max_events=args.max_events,
                 stop_on_error=not (args.all_errors or args.dot_dir))
    return _report(r, args, args.file, {"file": args.file, "dot_files": _write_graphs(r, args)},
                   c_warnings(prog), unroll=args.unroll)
