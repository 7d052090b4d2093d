"""The ``porlab`` command line.

Exit codes follow Nidhugg and GenMC where they have one: 0 the exploration was exhausted and
found no violation, 42 a violation was found, 2 bad input or an unsupported program; then 3 no
violation found but the exploration was not exhausted (a budget, an execution cut, a thread or
location limit), 130 interrupted by Ctrl-C (no violation found until then).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from porlab import _core
from porlab.api import (
    EXIT_BAD_INPUT,
    EXIT_INCOMPLETE,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_VIOLATION,
    Result,
    explore,
    explorers,
    load_program,
    parse_size,
    partition_sizes,
)
from porlab.errors import InputError, Interrupted, UnsupportedError
from porlab.options import OptionSpec, add_explorer_arguments, add_load_arguments

__all__ = ["EXIT_BAD_INPUT", "EXIT_INCOMPLETE", "EXIT_INTERRUPTED", "EXIT_OK", "EXIT_VIOLATION",
           "build_parser", "main"]

EXIT_CODES_HELP = (
    "exit codes: 0 the exploration was exhausted and found no violation; 42 a violation was "
    "found; 2 bad input or an unsupported program; 3 no violation found, but the exploration "
    "was not exhausted (a budget, an execution cut, a thread or location limit: the counts are "
    "partial); 130 interrupted by Ctrl-C (the partial counts are printed)"
)

#: Suffixes of files `porlab run` compiles (C, preprocessed C, C++).
C_SUFFIXES = (".c", ".i", ".h", ".cc", ".cpp", ".cxx", ".c++", ".ii")


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


def _raw_param(text: str) -> tuple[str, str]:
    """-o NAME=VALUE: the value stays text until the chosen explorer's schema parses it."""
    if "=" not in text:
        raise argparse.ArgumentTypeError(f"option '{text}' is not NAME=VALUE")
    k, v = text.split("=", 1)
    return k.strip(), v


def _explorer_options(args: argparse.Namespace) -> dict[str, Any]:
    """The explorer options of the command line (-o NAME=VALUE and the generated flags such as
    --no-can-stop), typed by the chosen explorer's schema."""
    info = next((e for e in explorers() if e["name"] == args.explorer), None)
    given: dict[str, Any] = dict(args.option or [])
    for key, value in vars(args).items():
        if key.startswith("xopt_") and value is not None:
            given[key[len("xopt_"):]] = value
    if info is None:
        return given
    specs = {o["name"]: OptionSpec.from_dict(o) for o in info["options"]}
    owner = f"explorer '{args.explorer}'"
    out: dict[str, Any] = {}
    for name, value in given.items():
        spec = specs.get(name)
        if spec is None:
            known = ", ".join(specs)
            raise InputError(f"{owner} has no option '{name}'"
                             + (f" (options: {known})" if known else " (it takes none)"))
        out[name] = spec.parse(value, owner) if isinstance(value, str) else spec.check(value,
                                                                                       owner)
    return out


def _size(text: str) -> int:
    try:
        return parse_size(text)
    except InputError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


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


def _is_c_file(path: str) -> bool:
    return Path(path).suffix.lower() in C_SUFFIXES


def _progress(args: argparse.Namespace) -> bool | None:
    """--progress forces the live line, -q silences it; by default it shows on a terminal."""
    if getattr(args, "quiet", False):
        return None
    if getattr(args, "progress", False):
        from porlab.progress import _TerminalLine

        line = _TerminalLine(sys.stderr)
        return _ForcedProgress(line)  # type: ignore[return-value]
    return True


class _ForcedProgress:
    """A progress callback that writes to stderr even when it is not a terminal (--progress),
    one line per update (a pipe shows every line)."""

    def __init__(self, line: Any) -> None:
        self.line = line

    def __call__(self, p: Any) -> None:
        from porlab.progress import format_progress

        try:
            sys.stderr.write("porlab: " + format_progress(p) + "\n")
            sys.stderr.flush()
        except (OSError, ValueError):
            pass


def _load_any(path: str, params: dict[str, Any]) -> Any:
    """A program file for partition/explore: Python (defining `program` or `build`), or a C/C++
    file (compiled as `porlab run` would, with -p NAME=VALUE as -D macros)."""
    if os.path.isdir(path):
        raise InputError(f"{path}: is a directory, not a program file")
    if _is_c_file(path):
        from porlab.cfront import load_c

        return load_c(path, defines={k: v for k, v in params.items()})
    return load_program(path, **params)


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


def _terminal_width() -> int:
    """The width to wrap to: the terminal's (``COLUMNS``), at most 100, at least 60."""
    import shutil

    return max(60, min(100, shutil.get_terminal_size((100, 24)).columns))


def _option_fields(opt: Any) -> dict[str, Any]:
    """An explorer option as ``{"name", "doc", "default", "values"}``: the registry gives
    dicts of that shape, or (older registries) bare names."""
    if isinstance(opt, dict):
        return {"name": str(opt.get("name", "")), "doc": str(opt.get("doc") or "").strip(),
                "default": opt.get("default"), "values": opt.get("values"),
                "type": opt.get("type"), "min": opt.get("min"), "max": opt.get("max")}
    return {"name": str(opt), "doc": "", "default": None, "values": None, "type": None,
            "min": None, "max": None}


def render_explorers(ex: Sequence[dict[str, Any]], width: int = 100,
                     options: bool = False) -> str:
    """The ``porlab explorers`` text: one block per explorer, its name and equivalence, the
    description wrapped to ``width`` columns; with ``options``, every option of the explorer
    (``-o NAME=VALUE``, Python keyword) with its values, default and documentation."""
    import textwrap

    name_w = max([len(e["name"]) for e in ex] + [8]) + 2
    eq_w = max([len(str(e["equivalence"])) for e in ex] + [11]) + 2
    indent = " " * (name_w + eq_w)
    out = ["name".ljust(name_w) + "equivalence".ljust(eq_w) + "description",
           "-" * min(width, 100)]
    for e in ex:
        first = e["name"].ljust(name_w) + str(e["equivalence"]).ljust(eq_w)
        desc = str(e.get("description", ""))
        if e.get("optimal"):
            desc += " [optimal]"
        out += textwrap.wrap(desc, width, initial_indent=first, subsequent_indent=indent,
                             break_on_hyphens=False) or [first.rstrip()]
        if not options:
            continue
        opts = [_option_fields(o) for o in e.get("options") or []]
        if not opts and not e.get("ifaa"):
            out.append(indent + "options: none")
        if e.get("ifaa") and not any(o["name"] == "ifaa" for o in opts):
            out += textwrap.wrap("--ifaa (Python: ifaa=True): fetch-and-adds whose results are "
                                 "unused commute (IFAA)", width, initial_indent=indent,
                                 subsequent_indent=indent + "    ")
        for o in opts:
            if o["values"]:
                shape = "|".join(map(str, o["values"]))
            elif o["type"] == "bool":
                shape = "true|false"
            elif o["type"] == "int":
                shape = "N"
            else:
                shape = "VALUE"
            head = f"-o {o['name']}=" + shape
            facts = [o["doc"] or "(not documented by the registry)"]
            if o["type"] == "int" and (o["min"] is not None or o["max"] is not None):
                lo = "" if o["min"] is None else f"{o['min']}"
                hi = "" if o["max"] is None else f"{o['max']}"
                facts.append(f"N in {lo}..{hi}")
            if o["default"] not in (None, ""):
                d = o["default"]
                facts.append(f"default {str(d).lower() if isinstance(d, bool) else d}")
            out += textwrap.wrap(f"{head}: " + "; ".join(facts), width,
                                 initial_indent=indent, subsequent_indent=indent + "    ",
                                 break_on_hyphens=False)
    if options:
        out += ["", *textwrap.wrap("-o NAME=VALUE on the command line is the keyword "
                                   "NAME=VALUE of porlab.explore() in Python.", width)]
    return "\n".join(out)


def _guarantee(e: dict[str, Any]) -> str:
    """How many complete traces per class of its equivalence an explorer reports."""
    eq = str(e["equivalence"])
    if eq == "interleavings":
        return "interleaving"
    covers, unique = bool(e.get("covers_classes")), bool(e.get("non_redundant"))
    if e.get("optimal") or (covers and unique):
        return f"{eq} class"
    if covers:
        return f"≥ 1 per {eq} class"
    if unique:
        return f"≤ 1 per {eq} class"
    return f"any number per {eq} class"


def explorer_table(ex: Sequence[dict[str, Any]] | None = None) -> str:
    """The README's explorer table (Markdown), generated from the registry: name, what one
    complete trace stands for (the equivalence and the guarantees the registration declares),
    IFAA, options, and the description up to its first clause."""
    rows = ["| explorer | one complete trace per | IFAA | options | what it is |",
            "|---|---|---|---|---|"]
    for e in explorers() if ex is None else ex:
        if e.get("plugin"):
            continue
        desc = str(e.get("description", "")).split("; ")[0].replace("|", "\\|")
        opts = ", ".join(f"`{_option_fields(o)['name']}`" for o in e.get("options") or [])
        rows.append(f"| `{e['name']}` | {_guarantee(e)} | {'yes' if e.get('ifaa') else ''} | "
                    f"{opts} | {desc} |")
    return "\n".join(rows)


def cmd_explorers(args: argparse.Namespace) -> int:
    ex = explorers()
    if args.json:
        print(json.dumps(ex, indent=2))
    else:
        print(render_explorers(ex, _terminal_width(), options=args.options))
        if not args.options:
            print("\nporlab explorers --options: every explorer's options")
    return EXIT_OK


def cmd_disasm(args: argparse.Namespace) -> int:
    print(load_program(args.file, **dict(args.param or [])).disassemble(), end="")
    return EXIT_OK


def cmd_bench(args: argparse.Namespace) -> int:
    """``porlab bench SUITE.toml``: run a benchmark suite, one row per run in the results; exit
    3 when some runs of the suite have failed rows (timeout, memory, crash, error)."""
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
    import os

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
    from pathlib import Path

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

_json_errors = False  # set by main() when --json is on the command line

# "file:line[:column]: " at the start of a line of the message (porlab's own messages start so;
# clang's diagnostics follow a first line "file: does not compile:").
_WHERE = re.compile(r"^(?P<file>[^\s:][^:\n]*?):(?P<line>\d+)(?::(?P<col>\d+))?:\s", re.M)


def error_object(message: str, kind: str) -> dict[str, Any]:
    """The JSON form of an error: message, kind (usage, input, unsupported, internal) and, when
    the message starts with file:line[:column], those."""
    d: dict[str, Any] = {"kind": kind, "message": message, "file": None, "line": None,
                         "column": None}
    m = _WHERE.search(message)
    if m:
        d["file"] = m.group("file")
        d["line"] = int(m.group("line"))
        d["column"] = int(m.group("col")) if m.group("col") else None
    return d


def _fail(message: str, kind: str) -> int:
    if _json_errors:
        _emit(json.dumps({"verdict": "error", "error": error_object(message, kind),
                          "exit_code": EXIT_BAD_INPUT}, indent=2))
    else:
        print(f"porlab: error: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    """Usage errors as one line, ``porlab: error: ...`` (or JSON with --json), exit code 2."""

    def error(self, message: str) -> NoReturn:
        raise _UsageError(message)


def _positive_int(what: str, minimum: int = 1) -> Any:
    def conv(text: str) -> int:
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what} must be an integer, not '{text}'") from None
        if v < minimum:
            raise argparse.ArgumentTypeError(f"{what} must be >= {minimum}, not {v}")
        return v
    return conv


def _budget_int(text: str) -> int:
    return _positive_int("a budget (0 = no limit)", 0)(text)


def _budget_seconds(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seconds must be a number, not '{text}'") from None
    if not v >= 0 or v == float("inf"):
        raise argparse.ArgumentTypeError(f"seconds must be >= 0 (0 = no limit), not {text}")
    return v


def build_parser() -> argparse.ArgumentParser:
    explorer_list = explorers()
    names = [e["name"] for e in explorer_list]
    ap = _Parser(
        prog="porlab",
        description="Stateless model checking with dynamic partial order reduction.",
        epilog=EXIT_CODES_HELP[0].upper() + EXIT_CODES_HELP[1:] + ".",
    )
    ap.add_argument("--version", action="version",
                    version=f"porlab {_core.__version__} (LLVM/clang 19 front end: "
                    f"{'yes' if getattr(_core, 'HAS_C_FRONTEND', False) else 'no'})")
    sub = ap.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def plugin(p: argparse.ArgumentParser) -> None:
        p.add_argument("--plugin", action="append", metavar="FILE.py",
                       help="a Python file registering explorers (porlab.register_explorer), "
                       "loaded first: its explorers can be chosen with --explorer")

    def budgets(p: argparse.ArgumentParser, events: bool = True) -> None:
        g = p.add_argument_group("budgets (0 = no limit; a run they end is incomplete: exit 3)")
        g.add_argument("--max-traces", type=_budget_int, default=0, metavar="N",
                       help="stop after N maximal traces")
        g.add_argument("--max-seconds", type=_budget_seconds, default=0.0, metavar="S",
                       help="stop after S seconds")
        if events:
            g.add_argument("--max-events", type=_budget_int, default=0, metavar="N",
                           help="stop after N events executed")
        g.add_argument("--max-memory", type=_size, default=None, metavar="SIZE",
                       help="stop when the process's memory reaches SIZE (e.g. 8G; default: "
                       "three quarters of the machine's memory; 0 = no limit)")

    def bug_checks(p: argparse.ArgumentParser) -> None:
        g = p.add_argument_group("bug checks (GenMC's flag names)")
        g.add_argument("--disable-race-detection", action="store_true",
                       help="do not report data races (two unordered accesses of one location, "
                       "one a write, one non-atomic), which are errors by default")
        g.add_argument("--check-liveness", action="store_true",
                       help="report an execution in which a thread is stuck for ever (a wait "
                       "nobody can end, a spin loop whose reads cannot change) as an error")

    def output(p: argparse.ArgumentParser) -> None:
        p.add_argument("--json", action="store_true",
                       help="print the result (or the error) as one JSON object on stdout")
        p.add_argument("-q", "--quiet", action="store_true",
                       help="no live progress line (it shows on stderr when it is a terminal)")
        p.add_argument("--progress", action="store_true",
                       help="print progress lines on stderr even when it is not a terminal")

    def error_output(p: argparse.ArgumentParser, keeps_going: bool) -> None:
        p.add_argument("--all-errors", action="store_true",
                       help=("keep exploring after the first violation; " if keeps_going else "")
                       + "list the distinct error sites, each with its number of error traces "
                       "and one trace")
        p.add_argument("--dot", metavar="FILE",
                       help="write the first error trace's execution graph to FILE (Graphviz "
                       "DOT: events with their source lines, po/rf/co edges, the failing event "
                       "in red; render with dot -Tsvg FILE)")
        p.add_argument("--dot-dir", metavar="DIR",
                       help="write one such graph per distinct error site to DIR/error-K.dot"
                       + (" (implies --all-errors)" if keeps_going else ""))

    p = sub.add_parser("partition", help="count classes under every equivalence",
                       epilog=EXIT_CODES_HELP)
    p.add_argument("files", nargs="+",
                   help="program files (.py defining `program` or `build(...)`, or C files)")
    p.add_argument("-p", "--param", action="append", type=_param, metavar="NAME=VALUE",
                   help="parameter of the program file's build(...) function (-D for C files)")
    p.add_argument("--thread", type=int, default=0, metavar="T",
                   help="the thread value-centric and data-centric preselect (RVF-SMC §3: the "
                   "Mazurkiewicz order is kept among the others); default 0, the first thread")
    budgets(p, events=False)
    output(p)
    p.set_defaults(func=cmd_partition)

    p = sub.add_parser("explore", help="explore a program with an explorer",
                       epilog=EXIT_CODES_HELP)
    p.add_argument("file", help="a program file (.py) or a C file (compiled as `run` does)")
    p.add_argument("--explorer", "-e", default="naive", choices=names)
    plugin(p)
    p.add_argument("-p", "--param", action="append", type=_param, metavar="NAME=VALUE",
                   help="parameter of the program file's build(...) function (-D for C files)")
    p.add_argument("--ifaa", action="store_true",
                   help="fetch-and-adds with unused results commute")
    p.add_argument("--stop-on-error", action="store_true")
    error_output(p, keeps_going=False)
    p.add_argument("-o", "--option", action="append", type=_raw_param, metavar="NAME=VALUE",
                   help="explorer option (porlab explorers --options)")
    add_explorer_arguments(p, explorer_list)
    p.add_argument("-j", "--jobs", type=_positive_int("--jobs"), default=1, metavar="N",
                   help="explore on N threads (graph, rf-graph, lapor): the same counts, "
                   "outcomes and error sites as one; which error trace is shown first may differ")
    p.add_argument("--scheduler", metavar="ADDR",
                   help="explore on the Dask cluster of this scheduler (tcp://HOST:PORT; graph, "
                   "rf-graph, lapor): the same counts and error sites as one process")
    p.add_argument("--stats", action="store_true", help="print the explorer's statistics")
    bug_checks(p)
    budgets(p)
    output(p)
    p.set_defaults(func=cmd_explore)

    p = sub.add_parser("run", help="verify a C program (clang 19 → LLVM IR → porlab)",
                       description="Compile a C file with clang 19 and explore it. Arguments "
                       "after -- go to clang (e.g. -- -m32 -fgnu89-inline).",
                       epilog=EXIT_CODES_HELP)
    p.add_argument("file", help="C source file (.c or preprocessed .i); .cc/.cpp/.cxx: C++")
    p.add_argument("--explorer", "-e", default="optimal-await", choices=names)
    plugin(p)
    add_load_arguments(p)
    p.add_argument("-D", dest="define", action="append", metavar="NAME[=VALUE]",
                   help="define a macro")
    p.add_argument("-I", dest="include", action="append", metavar="DIR",
                   help="add an include directory")
    error_output(p, keeps_going=True)
    p.add_argument("--ifaa", action="store_true",
                   help="fetch-and-adds with unused results commute")
    p.add_argument("-o", "--option", action="append", type=_raw_param, metavar="NAME=VALUE",
                   help="explorer option (porlab explorers --options)")
    add_explorer_arguments(p, explorer_list)
    p.add_argument("-j", "--jobs", type=_positive_int("--jobs"), default=1, metavar="N",
                   help="explore on N threads (graph, rf-graph, lapor): the same counts, "
                   "outcomes and error sites as one; which error trace is shown first may differ")
    p.add_argument("--scheduler", metavar="ADDR",
                   help="explore on the Dask cluster of this scheduler (tcp://HOST:PORT; graph, "
                   "rf-graph, lapor): the same counts and error sites as one process")
    p.add_argument("--stats", action="store_true", help="print the explorer's statistics")
    bug_checks(p)
    budgets(p)
    output(p)
    p.set_defaults(func=cmd_run, clang_args=[])

    p = sub.add_parser("explorers", help="list the registered explorers (--options: theirs)")
    plugin(p)
    p.add_argument("--options", action="store_true",
                   help="each explorer's options (-o NAME=VALUE), values, defaults and meaning")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_explorers)

    p = sub.add_parser("disasm", help="show a program's bytecode")
    p.add_argument("file")
    p.add_argument("-p", "--param", action="append", type=_param, metavar="NAME=VALUE")
    p.set_defaults(func=cmd_disasm)

    p = sub.add_parser("bench", help="run a benchmark suite (TOML), one row per run",
                       description="Run a benchmark suite: every program x parameters x explorer "
                       "configuration, each run in its own process with the suite's timeout "
                       "and memory limit, one row per run in the results file. Runs already "
                       "there are skipped (an interrupted sweep resumes).",
                       epilog="Exit codes: 0 every run of the suite has a result, 3 some runs "
                       "failed (timeout, memory, crash, error: listed on stderr), 2 bad input.")
    p.add_argument("suite", help="suite file, e.g. benchmarks/suites/smoke.toml")
    p.add_argument("-o", "--output", help="results .parquet, .csv or .jsonl (default: "
                   "SUITE.parquet); runs already there are skipped")
    p.add_argument("-j", "--jobs", type=int, default=1, help="parallel worker processes")
    p.add_argument("--scheduler", metavar="ADDR", help="run on this Dask scheduler instead")
    p.add_argument("--force", action="store_true", help="rerun runs already in the results")
    p.add_argument("--retry-failed", action="store_true",
                   help="rerun the runs whose row failed (timeout, memory, crash, error)")
    p.add_argument("--filter", metavar="SUBSTRING",
                   help="only runs whose suite:instance:config or path contains it")
    p.add_argument("--small", action="store_true",
                   help="the suite's small parameters (also with PORLAB_SMALL=1)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("report", help="paper tables and plots from benchmark results",
                       description="Render a paper table (stdout, or -o FILE) or a plot (-o "
                       "FILE: .png, .pdf, .svg, ...; -o again for more files) from the rows of "
                       "a results file written by `porlab bench`.")
    p.add_argument("results", help="results file written by `porlab bench`")
    p.add_argument("--table", choices=["rvf", "godot", "lapor", "saver", "plain"],
                   default="plain")
    p.add_argument("--format", choices=["markdown", "latex"],
                   help="table format (default: latex for -o FILE.tex, else markdown)")
    p.add_argument("--explorers", metavar="A,B", help="explorer configurations (columns)")
    p.add_argument("--plot", choices=["scatter", "growth", "time"],
                   help="a plot instead of a table (-o FILE)")
    p.add_argument("-o", "--output", action="append", metavar="FILE",
                   help="write the table or plot to FILE, in the format of its suffix; repeat "
                   "for several files (e.g. -o fig.png -o fig.pdf)")
    p.add_argument("--program", help="program of a growth/time plot")
    p.add_argument("--param", default="n", help="scaling parameter of a growth/time plot")
    p.add_argument("--metric", choices=["traces", "complete", "blocked", "errors", "events",
                                        "seconds"], help="what to plot")
    p.set_defaults(func=cmd_report)
    return ap


# Options whose value may start with '-' (argparse would take "-3:-1" for an option).
_NEGATIVE_VALUES = ("--nondet-domain",)


class _QuietStdout:
    """stdout that goes quiet when its reader is gone (`porlab ... | head`): the rest of the
    output is dropped and the exit code is still the verdict's."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.closed = False

    def write(self, text: str) -> int:
        if not self.closed:
            try:
                return int(self.stream.write(text))
            except BrokenPipeError:
                self._close()
        return len(text)

    def flush(self) -> None:
        if not self.closed:
            try:
                self.stream.flush()
            except BrokenPipeError:
                self._close()

    def _close(self) -> None:
        self.closed = True
        try:  # later writes by the interpreter (at exit) must not fail either
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self.stream.fileno())
            os.close(devnull)
        except (OSError, ValueError):
            pass

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def _load_plugins(argv: Sequence[str]) -> None:
    """--plugin FILE is read before the parser is built: its explorers are --explorer choices."""
    from porlab.plugins import load_plugin

    for i, a in enumerate(argv):
        if a == "--plugin" and i + 1 < len(argv):
            load_plugin(argv[i + 1])
        elif a.startswith("--plugin="):
            load_plugin(a.split("=", 1)[1])


def _emit(text: str) -> None:
    print(text)


def main(argv: Sequence[str] | None = None) -> int:
    global _json_errors
    argv = list(sys.argv[1:] if argv is None else argv)
    if not isinstance(sys.stdout, _QuietStdout):
        sys.stdout = _QuietStdout(sys.stdout)
    clang_args: list[str] = []
    if "--" in argv:  # porlab run FILE.c [options] -- clang arguments
        at = argv.index("--")
        argv, clang_args = argv[:at], argv[at + 1:]
    joined: list[str] = []
    i = 0
    while i < len(argv):
        if argv[i] in _NEGATIVE_VALUES and i + 1 < len(argv):
            joined.append(f"{argv[i]}={argv[i + 1]}")
            i += 2
        else:
            joined.append(argv[i])
            i += 1
    argv = joined
    _json_errors = "--json" in argv
    try:
        _load_plugins(argv)
    except InputError as e:
        return _fail(str(e), "input")
    ap = build_parser()
    if not argv:
        ap.print_help()
        return EXIT_BAD_INPUT
    try:
        args = ap.parse_args(argv)
        if clang_args:
            if args.command != "run":
                raise _UsageError("arguments after -- are clang arguments of 'porlab run'")
            args.clang_args = clang_args
    except _UsageError as e:
        return _fail(str(e), "usage")
    try:
        return int(args.func(args))
    except InputError as e:
        return _fail(str(e), "input")
    except UnsupportedError as e:
        return _fail(str(e), "unsupported")
    except KeyboardInterrupt:
        print("porlab: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    finally:
        sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
