"""pandas DataFrames of results and traces (pandas is an optional extra: ``porlab[analysis]``).

* :func:`results_frame`: one row per :class:`porlab.Result`, with the flat columns of
  :meth:`porlab.Result.as_dict` (program, explorer, complete, blocked, errors, events, seconds,
  peak_memory_bytes, budget_exceeded, budget_reason, verdict) and, optionally, one
  ``stats.<name>`` column per explorer statistic.
* :func:`trace_frame`: one row per event of a :class:`porlab.Trace`.

pandas is imported when one of these functions is called, never when porlab is imported.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from porlab import _core
from porlab.api import Result

if TYPE_CHECKING:
    import pandas

__all__ = ["RESULT_COLUMNS", "TRACE_COLUMNS", "results_frame", "trace_frame"]

#: Columns of :func:`results_frame` (before the optional ``stats.*`` columns).
RESULT_COLUMNS: tuple[str, ...] = (
    "program",
    "explorer",
    "complete",
    "blocked",
    "errors",
    "events",
    "seconds",
    "peak_memory_bytes",
    "budget_exceeded",
    "budget_reason",
    "verdict",
    "exit_code",
)

#: Columns of :func:`trace_frame`.
TRACE_COLUMNS: tuple[str, ...] = (
    "position",
    "thread",
    "index",
    "kind",
    "location",
    "value_read",
    "value_written",
    "source",
    "rf",
    "function",
    "event",
)


def _pandas() -> Any:
    try:
        import pandas
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError(
            "porlab's DataFrame helpers need pandas: pip install 'porlab[analysis]'"
        ) from e
    return pandas


def results_frame(results: Iterable[Result], *, stats: bool = False) -> pandas.DataFrame:
    """A DataFrame with one row per result and the flat columns of
    :meth:`porlab.Result.as_dict` (nested items such as ``stats`` and ``error_trace`` are left
    out). With ``stats=True``, each explorer statistic becomes a ``stats.<name>`` column (NaN
    for explorers that do not report it)."""
    pd = _pandas()
    rows: list[dict[str, Any]] = []
    for r in results:
        if not isinstance(r, Result):
            raise TypeError(f"results_frame() takes porlab.Result objects, not {type(r).__name__}")
        d = r.as_dict()
        row = {k: v for k, v in d.items() if not isinstance(v, dict | list | tuple | set)}
        if stats:
            row.update({f"stats.{k}": v for k, v in sorted(d["stats"].items())})
        rows.append(row)
    frame = pd.DataFrame(rows) if rows else pd.DataFrame(columns=list(RESULT_COLUMNS))
    # Keep the documented column order first, whatever as_dict adds later.
    first = [c for c in RESULT_COLUMNS if c in frame.columns]
    return frame[first + [c for c in frame.columns if c not in first]]


def trace_frame(trace: _core.Trace) -> pandas.DataFrame:
    """A DataFrame with one row per event of ``trace``, in execution order.

    Columns: ``position`` (in the trace), ``thread`` (name), ``index`` (among the thread's
    events), ``kind``, ``location`` (name; None for events on no location), ``value_read``
    (<NA> for events that read nothing), ``value_written`` (<NA> for events that write
    nothing), ``source`` ('file:line' or ''), ``rf``: the position of the write a read
    reads from, -1 for the initial value, <NA> for events that read nothing; ``function``: the
    function the event runs in ('' when unknown, e.g. builder programs); ``event``: what it did,
    as a trace prints it (pointers by the program's names).
    """
    if not isinstance(trace, _core.Trace):
        raise TypeError(f"trace_frame() takes a porlab.Trace, not {type(trace).__name__}")
    pd = _pandas()
    events = trace.events
    rf = trace.reads_from()
    columns: dict[str, list[Any]] = {c: [] for c in TRACE_COLUMNS}
    for i, e in enumerate(events):
        columns["position"].append(i)
        columns["thread"].append(trace.thread_name(e.thread))
        columns["index"].append(e.index)
        columns["kind"].append(e.kind)
        columns["location"].append(trace.location_name(e.loc) if e.loc >= 0 else None)
        columns["value_read"].append(e.value_read if e.reads else None)
        columns["value_written"].append(e.value_written if e.writes else None)
        columns["source"].append(trace.source(i))
        columns["rf"].append(rf[i] if rf[i] >= -1 else None)
        columns["function"].append(trace.function(i))
        columns["event"].append(trace.describe(i))
    frame = pd.DataFrame(columns)
    for c in ("value_read", "value_written", "rf"):
        frame[c] = frame[c].astype("Int64")
    return frame
