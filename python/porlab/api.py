"""The functions users call: explore, partition_sizes, explorers, load_program."""

from __future__ import annotations

import inspect
import math
import os
import re
import runpy
import traceback
from collections.abc import Callable, Mapping
from typing import Any

from porlab import _core
from porlab.builder import Program
from porlab.errors import InputError, Interrupted, ProgramError
from porlab.progress import ProgressLike, progress_callback

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_INCOMPLETE",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_VIOLATION",
    "PartitionSizes",
    "Result",
    "explore",
    "explorers",
    "load_program",
    "parse_size",
    "partition_sizes",
    "trace_key",
]

#: Exit codes of the command line (Nidhugg's and GenMC's 0 and 42, then porlab's own).
EXIT_OK = 0  #: the exploration was exhausted and found no violation
EXIT_VIOLATION = 42  #: a violation (assertion failure, fault, deadlock, ...) was found
EXIT_BAD_INPUT = 2  #: bad input or an unsupported program
EXIT_INCOMPLETE = 3  #: no violation found, but a budget, cut or limit ended the exploration first
EXIT_INTERRUPTED = 130  #: Ctrl-C ended the exploration first (no violation found until then)

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

    incomplete = _forward("incomplete",
                          "Why the exploration is not exhaustive: budgets (traces, seconds, "
                          "events, memory), interrupted, execution-cut, thread-limit, "
                          "location-limit. Empty when it was exhausted.")
    blocked_by = _forward("blocked_by",
                          "Blocked traces by primary reason (loop-bound, await, lock, assume, "
                          "...); the values add up to blocked.")

    @property
    def block_sites(self) -> list[dict[str, Any]]:
        """Where threads of blocked traces stopped: ``{"reason", "source", "traces"}`` per
        distinct reason and source position (``"file:line"``), with the number of blocked traces
        in which some thread stopped there."""
        files = list(self.program.files)
        return [{"reason": r, "source": _position(files, f, ln), "traces": n}
                for r, f, ln, n in self._core.block_sites]

    @property
    def errors_by_site(self) -> list[dict[str, Any]]:
        """One entry per distinct error site, in the order of :attr:`error_sites`:
        ``{"thread", "kind", "message", "source", "traces", "trace"}``, where ``traces`` counts
        the error traces that reached the site and ``trace`` is the first of them."""
        from porlab.traceview import error_site_dicts

        return error_site_dicts(self._core.errors_by_site, list(self.program.files))

    @property
    def exhausted(self) -> bool:
        """True when the exploration covered everything it set out to (no budget, interrupt,
        cut or limit ended it first); then 'no error' is a proof up to the loop bounds."""
        return not self.incomplete

    @property
    def interrupted(self) -> bool:
        """True when Ctrl-C (or a notebook interrupt) ended the run."""
        return "interrupted" in self.incomplete

    @property
    def verdict(self) -> str:
        """``"violation"`` when an error was found, else ``"ok"`` when the exploration was
        exhausted, else ``"incomplete"`` (see :attr:`incomplete` for why)."""
        if self.errors:
            return "violation"
        return "incomplete" if self.incomplete else "ok"

    @property
    def exit_code(self) -> int:
        """The command line's exit code for this result (0, 42, 3 or 130)."""
        if self.errors:
            return EXIT_VIOLATION
        if self.interrupted:
            return EXIT_INTERRUPTED
        return EXIT_INCOMPLETE if self.incomplete else EXIT_OK

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
        budget, verdict, ``stats`` and, when an error was found, ``error`` (what the first
        error says, where, and the objects and inputs of its trace), ``error_trace`` (its
        events) and ``errors_by_site`` (each distinct site with its count and first trace)."""
        from porlab.traceview import event_dicts, trace_dict
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
            "verdict": self.verdict,
            "incomplete": list(self.incomplete),
            "exit_code": self.exit_code,
            "blocked_by": dict(self.blocked_by),
            "block_sites": self.block_sites,
            "stats": dict(self.stats),
        }
        if self.first_error is not None:
            t = trace_dict(self.first_error)
            d["error_trace"] = t.pop("events")
            pos = t["error_position"]
            where = d["error_trace"][pos] if pos is not None else {}
            d["error"] = {"message": t["error"], "thread": where.get("thread"),
                          "source": where.get("source"), "function": where.get("function"),
                          "stack": where.get("stack", []), "objects": t["objects"],
                          "inputs": t["inputs"], "inputs_note": t["inputs_note"]}
            d["errors_by_site"] = [
                {**{k: v for k, v in s.items() if k != "trace"}, "trace": event_dicts(s["trace"])}
                for s in self.errors_by_site
            ]
        return d

    def __repr__(self) -> str:
        cut = f", incomplete ({', '.join(self.incomplete)})" if self.incomplete else ""
        return (
            f"<Result {self.explorer}: {self.complete} complete + {self.blocked} blocked"
            f" + {self.errors} errors, {self.events} events, {self.seconds:.3f}s{cut}>"
        )


def _position(files: list[str], f: int, line: int) -> str:
    if not line:
        return ""
    name = files[f] if 0 <= f < len(files) and files[f] else "?"
    return f"{name}:{line}"


_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kKmMgGtT]?)(i?[bB])?\s*$")


def parse_size(value: int | str) -> int:
    """A memory size in bytes: an int, or a string like ``"512M"``, ``"4G"``, ``"1.5GiB"``
    (powers of 1024), ``"0"`` for no limit."""
    if isinstance(value, bool):
        raise InputError(f"memory size {value!r}: not a size")
    if isinstance(value, int):
        if value < 0:
            raise InputError(f"memory size {value}: must be >= 0 (0 = no limit)")
        return value
    m = _SIZE.match(str(value))
    if not m:
        raise InputError(f"memory size '{value}': not a size (e.g. 512M, 4G, 0 = no limit)")
    mult = {"": 1, "k": 2**10, "m": 2**20, "g": 2**30, "t": 2**40}[m.group(2).lower()]
    return int(float(m.group(1)) * mult)


def _memory_budget(max_memory: int | str | None) -> int:
    if max_memory is None or max_memory == "auto":
        return int(_core.default_memory_budget())
    return parse_size(max_memory)


def _check_budgets(**budgets: Any) -> None:
    """Budgets are non-negative numbers (0 = no limit); anything else is bad input, said once
    here for the API and the command line alike."""
    for name, v in budgets.items():
        if isinstance(v, bool) or not isinstance(v, int | float):
            raise InputError(f"{name} must be a number, not {v!r}")
        if isinstance(v, float) and not math.isfinite(v):
            raise InputError(f"{name} must be finite, not {v}")
        if v < 0:
            raise InputError(f"{name} must be >= 0 (0 = no limit), not {v}")
        if name not in ("max_seconds", "progress_seconds") and not isinstance(v, int):
            raise InputError(f"{name} must be an integer, not {v!r}")


def _run_with_progress(progress: ProgressLike, run: Callable[[Any], Any],
                       estimate_of: _core.ProgramBase | None = None) -> Any:
    cb = progress_callback(progress)
    if cb is not None and estimate_of is not None:
        cb.estimate = float(_core.estimate_interleavings(estimate_of))
    try:
        return run(cb)
    finally:
        if cb is not None:
            cb.close()


def explore(
    program: ProgramLike,
    explorer: str = "naive",
    *,
    max_traces: int = 0,
    max_seconds: float = 0.0,
    max_events: int = 0,
    max_memory: int | str | None = None,
    stop_on_error: bool = False,
    keep_traces: bool = False,
    collect_outcomes: bool = True,
    ifaa: bool = False,
    on_trace: Callable[[_core.Trace], None] | None = None,
    progress: ProgressLike = None,
    progress_seconds: float = 0.5,
    check_races: bool = True,
    check_liveness: bool = False,
    jobs: int = 1,
    client: Any = None,
    **params: Any,
) -> Result:
    """Explore ``program`` with a registered explorer (see :func:`explorers`).

    Budgets (``max_traces``, ``max_seconds``, ``max_events``; 0 = none) end the run cleanly with
    partial counts: :attr:`Result.verdict` is then ``"incomplete"`` unless an error was found,
    and :attr:`Result.incomplete` says why. ``max_memory`` bounds the process's resident memory
    (bytes or ``"4G"``; the default, None, is three quarters of the machine's memory; 0 = none).
    ``keep_traces`` keeps every maximal trace; ``on_trace`` is called with each one as it is
    found. ``ifaa`` makes fetch-and-adds with unused results independent (explorers that
    support it). ``progress=True`` shows live progress (a notebook line, or a terminal's stderr
    line); a callable gets a :class:`porlab.progress.Progress` about every ``progress_seconds``.
    ``check_races`` (on by default, as in GenMC) makes a data race an error (``data race``:
    two accesses of one location by different threads, one a write, one non-atomic, neither
    happening before the other; programs without non-atomic shared accesses are not checked).
    ``check_liveness`` (GenMC's ``-check-liveness``) makes an error (``liveness violation``) of
    a blocked execution in which a thread is stuck for ever: a wait nobody can end, or a spin
    loop whose reads can no longer change (docs/supported-c.md, "Errors porlab finds").
    ``jobs`` explores on that many threads (``graph``, ``rf-graph``, ``lapor``, ``rf``, ``rvf``;
    an InputError for the others): the counts, outcomes and error sites are those of
    ``jobs=1``; which error trace is reported first may differ (docs/parallel.md).
    ``client`` (a ``dask.distributed.Client``) explores on that Dask cluster instead
    (``graph``, ``rf-graph``, ``lapor``; :mod:`porlab.distributed` says what is merged how).
    Other keyword arguments are the explorer's options (``porlab explorers --options``).

    Ctrl-C (a KeyboardInterrupt, e.g. a notebook's interrupt button) stops the run within a
    fraction of a second and raises :class:`porlab.Interrupted`, whose ``result`` holds the
    partial counts and the first error found so far.
    """
    _check_budgets(max_traces=max_traces, max_seconds=max_seconds, max_events=max_events,
                   progress_seconds=progress_seconds)
    texts = _option_texts(explorer, params)
    if client is not None:
        from porlab.distributed import explore_on

        if jobs != 1 or keep_traces or on_trace is not None or ifaa:
            raise InputError("client=: jobs, keep_traces, on_trace and ifaa are not supported "
                             "on a Dask cluster")
        cb = progress_callback(progress)
        try:
            return explore_on(  # type: ignore[no-any-return]
                client, program, explorer, max_traces=max_traces, max_seconds=max_seconds,
                max_events=max_events, max_memory=_memory_budget(max_memory),
                stop_on_error=stop_on_error, collect_outcomes=collect_outcomes,
                check_races=check_races, check_liveness=check_liveness, progress=cb,
                params=texts)
        finally:
            if cb is not None:
                cb.close()
    compiled = _compiled(program)
    mem = _memory_budget(max_memory)
    core = _run_with_progress(progress, lambda cb: _core.explore(
        compiled,
        explorer,
        max_traces=max_traces,
        max_seconds=max_seconds,
        max_events=max_events,
        max_memory=mem,
        stop_on_error=stop_on_error,
        keep_traces=keep_traces,
        collect_outcomes=collect_outcomes,
        ifaa=ifaa,
        on_trace=on_trace,
        params=texts,
        progress=cb,
        progress_seconds=progress_seconds,
        check_races=check_races,
        check_liveness=check_liveness,
        jobs=_check_jobs(jobs),
    ), estimate_of=compiled if explorer == "naive" else None)
    result = Result(core, compiled)
    if result.interrupted:
        raise Interrupted(result)
    return result


def _option_texts(explorer: str, params: Mapping[str, Any]) -> dict[str, str]:
    """The explorer's options checked against its schema (real bools and ints, enum values,
    ranges), as the texts the registry parses. An unknown explorer is left to the registry,
    whose error lists the known ones."""
    from porlab.options import OptionSpec, check_options

    info = next((e for e in _core.explorers() if e["name"] == explorer), None)
    if info is None:
        return {k: str(v) for k, v in params.items()}
    schema = [OptionSpec.from_dict(o) for o in info["options"]]
    return check_options(schema, params, f"explorer '{explorer}'")


def _check_jobs(jobs: int) -> int:
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise InputError(f"jobs must be a positive integer, not {jobs!r}")
    return jobs


def explorers() -> list[dict[str, Any]]:
    """The registered explorers: name, equivalence, description, optimal, options, and the
    guarantees ``covers_classes`` (every complete class of the equivalence has a complete trace)
    and ``non_redundant`` (no two complete traces share a class); optimal implies both."""
    return list(_core.explorers())


def trace_key(trace: _core.Trace, equivalence: str, thread: int = 0) -> tuple[int, int]:
    """Canonical key of a trace under an equivalence (equal keys iff equivalent traces);
    ``thread`` is the thread value-centric and data-centric preselect."""
    return tuple(_core.trace_key(trace, equivalence, thread))  # type: ignore[return-value]


class PartitionSizes(dict):
    """Class counts per equivalence. As a dict: ``interleavings``, ``mazurkiewicz``,
    ``mazurkiewicz-ifaa``, ``reads-from``, ``rvf`` map to the number of classes of maximal
    traces (complete + blocked + error). ``.complete``, ``.blocked`` and ``.errors`` give the
    same keys counted per kind of trace. When ``incomplete`` is not empty (a budget or Ctrl-C
    ended the enumeration) the counts are lower bounds."""

    def __init__(self, raw: Mapping[str, Any]) -> None:
        keys = ["interleavings", *_core.EQUIVALENCES.keys()]
        super().__init__(
            {k: raw[k]["complete"] + raw[k]["blocked"] + raw[k]["errors"] for k in keys}
        )
        self.complete = {k: raw[k]["complete"] for k in keys}
        self.blocked = {k: raw[k]["blocked"] for k in keys}
        self.errors = {k: raw[k]["errors"] for k in keys}
        self.budget_exceeded: bool = raw["budget_exceeded"]
        self.incomplete: list[str] = list(raw.get("incomplete", []))
        self.seconds: float = raw["seconds"]
        self.thread: int = raw.get("thread", 0)

    @property
    def exhausted(self) -> bool:
        """True when every interleaving was enumerated (the counts are exact)."""
        return not self.incomplete

    def as_dict(self) -> dict[str, Any]:
        """The counts as plain JSON-ready data (the CLI's --json shape)."""
        return {
            **self,
            "complete": self.complete,
            "blocked": self.blocked,
            "errors": self.errors,
            "budget_exceeded": self.budget_exceeded,
            "incomplete": list(self.incomplete),
            "exhausted": self.exhausted,
            "seconds": round(self.seconds, 6),
            "thread": self.thread,
        }


def partition_sizes(
    program: ProgramLike, *, max_traces: int = 0, max_seconds: float = 0.0,
    max_events: int = 0, max_memory: int | str | None = None, progress: ProgressLike = None,
    progress_seconds: float = 0.5, check_races: bool = True, thread: int = 0,
) -> PartitionSizes:
    """Enumerate every interleaving of ``program`` and count its classes under each
    equivalence (Mazurkiewicz, Mazurkiewicz with IFAA, reads-from, RVF, lock-aware,
    value-centric and data-centric with ``thread`` preselected: RVF-SMC §3). With a
    budget, or after Ctrl-C, the counts are lower bounds and ``incomplete`` says why (Ctrl-C
    raises :class:`porlab.Interrupted` with the partial counts in ``result``). As in
    :func:`explore`, a trace with a data race is an error trace (ending at the race) unless
    ``check_races`` is False."""
    _check_budgets(max_traces=max_traces, max_seconds=max_seconds, max_events=max_events,
                   progress_seconds=progress_seconds)
    compiled = _compiled(program)
    mem = _memory_budget(max_memory)
    raw = _run_with_progress(progress, lambda cb: _core.partition_sizes(
        compiled, max_traces=max_traces, max_seconds=max_seconds, max_events=max_events,
        max_memory=mem, progress=cb, progress_seconds=progress_seconds,
        check_races=check_races, thread=thread), estimate_of=compiled)
    sizes = PartitionSizes(raw)
    if "interrupted" in sizes.incomplete:
        raise Interrupted(sizes)
    return sizes


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
