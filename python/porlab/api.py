"""The functions users call: explore, partition_sizes, explorers, load_program."""

from __future__ import annotations

import inspect
import os
import runpy
import traceback
from collections.abc import Callable, Mapping
from typing import Any

from porlab import _core
from porlab.builder import Program
from porlab.errors import InputError, ProgramError

__all__ = [
    "PartitionSizes",
    "Result",
    "explore",
    "explorers",
    "load_program",
    "partition_sizes",
    "trace_key",
]

ProgramLike = Program | _core.ProgramBase



def _compiled(program: ProgramLike) -> _core.ProgramBase:
    if isinstance(program, Program):
        return program.compile()
    if isinstance(program, _core.ProgramBase):
        return program
    raise TypeError(f"expected a porlab Program, not {type(program).__name__}")


def _forward(name: str, doc: str) -> property:
    """A read-only property returning the core result's attribute ``name``."""
    return property(lambda self: getattr(self._core, name), doc=doc)


class Result:
    """What an exploration found: counts of complete, blocked and error traces, events
    executed, seconds, peak memory, the first error trace, kept traces, reachable outcomes."""

    def __init__(self, core: _core.Result, program: _core.ProgramBase) -> None:
        self._core = core
        self.program = program

    explorer = _forward("explorer", "The explorer's registered name.")
    complete = _forward("complete",
                        "Number of complete traces explored (every thread finished).")
    blocked = _forward("blocked",
                       "Number of blocked traces (assume, loop bound, await or lock stuck).")
    errors = _forward("errors",
                      "Number of error traces (failed assertions, faults).")
    events = _forward("events",
                      "Number of visible operations executed, replays included.")
    seconds = _forward("seconds", "Wall-clock seconds of the run.")
    peak_memory_bytes = _forward("peak_memory_bytes",
                                 "Peak resident set size of the process, in bytes.")
    budget_exceeded = _forward("budget_exceeded",
                               "True when a budget cut the run short (partial counts).")
    budget_reason = _forward("budget_reason",
                             "Which budget ended the run (traces, seconds, events), or ''.")
    first_error = _forward("first_error",
                           "The first error trace (porlab.Trace) or None.")
    traces = _forward("traces",
                      "Every maximal trace, in the order found (only with keep_traces=True).")
    outcomes = _forward("outcomes",
                        "Final states of complete and blocked traces (a set of int tuples).")
    error_sites = _forward("error_sites",
                           "Distinct (thread, kind, code, file, line) of the errors found.")
    stats = _forward("stats",
                     "Explorer-specific statistics (name -> number).")

    @property
    def traces_explored(self) -> int:
        """Number of maximal traces explored: complete + blocked + errors."""
        return self.complete + self.blocked + self.errors

    @property
    def events_per_second(self) -> float:
        """Throughput: visible operations executed per wall-clock second (0 if too fast)."""
        return self.events / self.seconds if self.seconds > 0 else 0.0

    def as_dict(self) -> dict[str, Any]:
        """The result as plain JSON-ready data (the CLI's --json shape): counts, time, memory,
        budget, verdict, ``stats`` and, when an error was found, ``error_trace``."""
        d: dict[str, Any] = {
            "program": self.program.name,
            "explorer": self.explorer,
            "complete": self.complete,
            "blocked": self.blocked,
            "errors": self.errors,
            "events": self.events,
            "seconds": round(self.seconds, 6),
            "peak_memory_bytes": self.peak_memory_bytes,
            "budget_exceeded": self.budget_exceeded,
            "budget_reason": self.budget_reason or None,
            "verdict": "violation" if self.errors else "ok",
            "stats": dict(self.stats),
        }
        if self.first_error is not None:
            t = self.first_error
            d["error_trace"] = [
                {
                    "thread": t.thread_name(e.thread),
                    "source": t.source(i),
                    "event": t.describe(i),
                    "kind": e.kind,
                }
                for i, e in enumerate(t.events)
            ]
        return d

    def __repr__(self) -> str:
        cut = f", budget exceeded ({self.budget_reason})" if self.budget_exceeded else ""
        return (
            f"<Result {self.explorer}: {self.complete} complete + {self.blocked} blocked"
            f" + {self.errors} errors, {self.events} events, {self.seconds:.3f}s{cut}>"
        )


def explore(
    program: ProgramLike,
    explorer: str = "naive",
    *,
    max_traces: int = 0,
    max_seconds: float = 0.0,
    max_events: int = 0,
    stop_on_error: bool = False,
    keep_traces: bool = False,
    collect_outcomes: bool = True,
    ifaa: bool = False,
    on_trace: Callable[[_core.Trace], None] | None = None,
    **params: Any,
) -> Result:
    """Explore ``program`` with a registered explorer (see :func:`explorers`).

    Budgets (``max_traces``, ``max_seconds``, ``max_events``; 0 = none) end the run cleanly with
    partial counts and ``budget_exceeded`` set. ``keep_traces`` keeps every maximal trace;
    ``on_trace`` is called with each one as it is found. ``ifaa`` makes fetch-and-adds with
    unused results independent (explorers that support it). Other keyword arguments are
    explorer-specific options, passed as strings.
    """
    compiled = _compiled(program)
    core = _core.explore(
        compiled,
        explorer,
        max_traces=max_traces,
        max_seconds=max_seconds,
        max_events=max_events,
        stop_on_error=stop_on_error,
        keep_traces=keep_traces,
        collect_outcomes=collect_outcomes,
        ifaa=ifaa,
        on_trace=on_trace,
        params={k: str(v) for k, v in params.items()},
    )
    return Result(core, compiled)


def explorers() -> list[dict[str, Any]]:
    """The registered explorers: name, equivalence, description, optimal, options, and the
    guarantees ``covers_classes`` (every complete class of the equivalence has a complete trace)
    and ``non_redundant`` (no two complete traces share a class); optimal implies both."""
    return list(_core.explorers())


def trace_key(trace: _core.Trace, equivalence: str) -> tuple[int, int]:
    """Canonical key of a trace under an equivalence (equal keys iff equivalent traces)."""
    return tuple(_core.trace_key(trace, equivalence))  # type: ignore[return-value]


class PartitionSizes(dict):
    """Class counts per equivalence. As a dict: ``interleavings``, ``mazurkiewicz``,
    ``mazurkiewicz-ifaa``, ``reads-from``, ``rvf`` map to the number of classes of maximal
    traces (complete + blocked + error). ``.complete``, ``.blocked`` and ``.errors`` give the
    same keys counted per kind of trace."""

    def __init__(self, raw: Mapping[str, Any]) -> None:
        keys = ["interleavings", *_core.EQUIVALENCES.keys()]
        super().__init__(
            {k: raw[k]["complete"] + raw[k]["blocked"] + raw[k]["errors"] for k in keys}
        )
        self.complete = {k: raw[k]["complete"] for k in keys}
        self.blocked = {k: raw[k]["blocked"] for k in keys}
        self.errors = {k: raw[k]["errors"] for k in keys}
        self.budget_exceeded: bool = raw["budget_exceeded"]
        self.seconds: float = raw["seconds"]

    def as_dict(self) -> dict[str, Any]:
        """The counts as plain JSON-ready data (the CLI's --json shape)."""
        return {
            **self,
            "complete": self.complete,
            "blocked": self.blocked,
            "errors": self.errors,
            "budget_exceeded": self.budget_exceeded,
            "seconds": round(self.seconds, 6),
        }


def partition_sizes(
    program: ProgramLike, *, max_traces: int = 0, max_seconds: float = 0.0
) -> PartitionSizes:
    """Enumerate every interleaving of ``program`` and count its classes under each
    equivalence (Mazurkiewicz, Mazurkiewicz with IFAA, reads-from, RVF). With a budget the
    counts are lower bounds and ``budget_exceeded`` is set."""
    raw = _core.partition_sizes(_compiled(program), max_traces=max_traces, max_seconds=max_seconds)
    return PartitionSizes(raw)


# ---------------------------------------------------------------------------------------------
# Loading program files


def _user_frame(tb: traceback.StackSummary, path: str) -> traceback.FrameSummary | None:
    frames = [f for f in tb if os.path.abspath(f.filename) == os.path.abspath(path)]
    return frames[-1] if frames else None


def load_program(path: str, **params: Any) -> Program:
    """Load a program file: a Python file that defines ``program`` and, when it can be scaled,
    a function ``build(**params)`` returning a Program. With ``params``, ``build`` is called
    with them; otherwise ``program`` is used (or ``build()`` with its defaults).

    Raises :class:`porlab.errors.InputError` with file:line for anything wrong in the file."""
    if not os.path.isfile(path):
        raise InputError(f"{path}: no such file")
    try:
        ns = runpy.run_path(path, run_name="__porlab_program__")
    except ProgramError:
        raise
    except SyntaxError as e:
        raise InputError(f"{e.filename}:{e.lineno}: syntax error: {e.msg}") from None
    except Exception as e:  # the user's file raised: point at its line
        f = _user_frame(traceback.extract_tb(e.__traceback__), path)
        where = f"{f.filename}:{f.lineno}" if f else path
        raise InputError(f"{where}: {type(e).__name__}: {e}") from None
    build = ns.get("build")
    if params:
        if not callable(build):
            raise InputError(f"{path}: parameters given but the file defines no build(...)")
        try:
            sig = inspect.signature(build)
            sig.bind(**params)
        except TypeError as e:
            raise InputError(f"{path}: build{sig}: {e}") from None
        prog = _call_build(build, path, params)
    elif isinstance(ns.get("program"), Program):
        prog = ns["program"]
    elif callable(build):
        prog = _call_build(build, path, {})
    else:
        raise InputError(f"{path}: defines neither 'program' nor 'build(...)'")
    if not isinstance(prog, Program):
        raise InputError(f"{path}: build(...) returned {type(prog).__name__}, not a Program")
    return prog


def _call_build(build: Callable[..., Any], path: str, params: Mapping[str, Any]) -> Any:
    try:
        return build(**params)
    except ProgramError:
        raise
    except Exception as e:
        f = _user_frame(traceback.extract_tb(e.__traceback__), path)
        where = f"{f.filename}:{f.lineno}" if f else path
        raise InputError(f"{where}: {type(e).__name__}: {e}") from None
