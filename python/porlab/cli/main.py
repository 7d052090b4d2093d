"""The parser of the ``porlab`` command line and its entry point: usage errors and bad input
as one line (or a JSON object) and exit code 2."""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from porlab import _core
from porlab.api import (
    EXIT_BAD_INPUT,
    EXIT_INTERRUPTED,
    explorers,
)
from porlab.cli.bench import (
    cmd_bench,
    cmd_report,
)
from porlab.cli.common import (
    EXIT_CODES_HELP,
    _emit,
    _param,
    _raw_param,
    _size,
)
from porlab.cli.explorers import (
    cmd_disasm,
    cmd_explorers,
)
from porlab.cli.run import (
    cmd_explore,
    cmd_partition,
    cmd_run,
)
from porlab.errors import InputError, UnsupportedError
from porlab.options import add_explorer_arguments, add_load_arguments

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

    def exploration(p: argparse.ArgumentParser) -> None:
        """The flags `explore` and `run` share: explorer options, jobs, a cluster, statistics,
        bug checks, budgets and output."""
        p.add_argument("-o", "--option", action="append", type=_raw_param,
                       metavar="NAME=VALUE", help="explorer option (porlab explorers --options)")
        add_explorer_arguments(p, explorer_list)
        p.add_argument("-j", "--jobs", type=_positive_int("--jobs"), default=1, metavar="N",
                       help="explore on N threads (graph, rf-graph, lapor, rf, rvf): the same "
                       "counts, outcomes and error sites as one; which error trace is shown "
                       "first may differ")
        p.add_argument("--scheduler", metavar="ADDR",
                       help="explore on the Dask cluster of this scheduler (tcp://HOST:PORT; "
                       "graph, rf-graph, lapor): the same counts and error sites as one process")
        p.add_argument("--stats", action="store_true", help="print the explorer's statistics")
        bug_checks(p)
        budgets(p)
        output(p)

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
    p.add_argument("--stop-on-error", action="store_true")
    error_output(p, keeps_going=False)
    p.add_argument("--ifaa", action="store_true",
                   help="fetch-and-adds with unused results commute")
    exploration(p)
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
    exploration(p)
    p.set_defaults(func=cmd_run, clang_args=[])

    p = sub.add_parser("explorers", help="list the registered explorers (--options: theirs)")
    plugin(p)
    p.add_argument("--options", action="store_true",
                   help="each explorer's options (-o NAME=VALUE), values, defaults and meaning")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_explorers)

    p = sub.add_parser("disasm", help="show a program's decoded form (C: after the loop passes)")
    p.add_argument("file", help="a Python program, or a C/C++ file (loaded as porlab run does)")
    p.add_argument("-p", "--param", action="append", type=_param, metavar="NAME=VALUE",
                   help="a Python program's build(...) parameter")
    add_load_arguments(p)
    p.add_argument("-D", dest="define", action="append", metavar="NAME[=VALUE]",
                   help="define a macro (C)")
    p.add_argument("-I", dest="include", action="append", metavar="DIR",
                   help="add an include directory (C)")
    p.set_defaults(func=cmd_disasm, clang_args=[])

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

