"""Error traces for people: as JSON-ready data, per distinct error site, and as Graphviz files.

The text of a trace is ``str(trace)`` (or ``trace.to_text()``): one row per event with its
thread, source position, function (with its call stack) and what it did, pointers shown by the
program's own names, then the heap blocks it touches and the nondet inputs it ran under.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from porlab import _core

__all__ = ["error_site_dicts", "event_dicts", "trace_dict", "write_dot", "write_dot_dir"]


def event_dicts(trace: _core.Trace) -> list[dict[str, Any]]:
    """One dict per event: ``thread`` (name), ``source`` ('file:line'), ``function``, ``stack``
    (the call stack, innermost first: ``{"function", "source"}`` each, the first at the event and
    each other at its call of the one before), ``event`` (the text), ``kind``, ``location`` (name
    or None) and ``pointer`` (are its values pointers, shown symbolically in ``event``)."""
    out = []
    for i, e in enumerate(trace.events):
        out.append({
            "thread": trace.thread_name(e.thread),
            "source": trace.source(i),
            "function": trace.function(i),
            "stack": [{"function": f, "source": s} for f, s in trace.stack(i)],
            "event": trace.describe(i),
            "kind": e.kind,
            "location": trace.location_name(e.loc) if e.loc >= 0 else None,
            "pointer": e.pointer,
        })
    return out


def trace_dict(trace: _core.Trace) -> dict[str, Any]:
    """A whole trace as data: ``status``, ``error`` (what the first error says, or None),
    ``error_position`` (its index in ``events``, or None), ``events`` (:func:`event_dicts`),
    ``objects`` (heap blocks and escaped stack variables with where they were allocated),
    ``inputs`` (nondet values it ran under) and ``inputs_note`` (what the nondet calls
    returned, in words; '' when the program makes none)."""
    pos = trace.error_position
    return {
        "status": trace.status,
        "error": trace.error_message or None,
        "error_position": pos if pos >= 0 else None,
        "events": event_dicts(trace),
        "objects": trace.objects(),
        "inputs": trace.inputs(),
        "inputs_note": trace.inputs_note,
    }


def _position(files: list[str], f: int, line: int) -> str:
    if not line:
        return ""
    name = files[f] if 0 <= f < len(files) and files[f] else "?"
    return f"{name}:{line}"


def error_site_dicts(sites: list[_core.ErrorSiteTraces],
                     files: list[str]) -> list[dict[str, Any]]:
    """The distinct error sites of a result (``Result.errors_by_site``): ``thread`` (name),
    ``kind``, ``message``, ``source``, ``traces`` (error traces that reached the site) and
    ``trace`` (the first of them, a :class:`porlab.Trace`)."""
    return [{"thread": s.trace.thread_name(s.thread), "kind": s.kind, "message": s.message,
             "source": _position(files, s.file, s.line), "traces": s.traces, "trace": s.trace}
            for s in sites]


def write_dot(trace: _core.Trace, path: str | Path) -> Path:
    """Writes the trace's execution graph as Graphviz DOT (as GenMC's --dump-error-graph):
    events labelled with their source lines, po/rf/co edges, the failing event in red."""
    p = Path(path)
    if p.parent != Path():
        p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(trace.to_dot(), encoding="utf-8")
    return p


def write_dot_dir(sites: list[dict[str, Any]], directory: str | Path) -> list[Path]:
    """One DOT file per distinct error site (``error-1.dot``, ``error-2.dot``, ... in the order
    of ``sites``, as :func:`error_site_dicts` gives them), each the site's first trace."""
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    return [write_dot(s["trace"], d / f"error-{k}.dot") for k, s in enumerate(sites, 1)]
