"""Lazy traces: iterate over the maximal traces of a program as the C++ explorer finds them.

:func:`traces` runs :func:`porlab.explore` in a background thread (the C++ side releases the
GIL while it explores, and takes it back for each trace it reports). Traces travel through a
bounded queue, so the explorer waits while the consumer is behind (back-pressure) and never
holds more than ``buffer`` traces in memory. When the consumer stops early (``break``,
``itertools.islice``, ``close()``, or the generator being garbage-collected) the next report
raises a private exception inside the callback: the C++ exploration unwinds, and the worker
thread is joined before the generator finishes. Exceptions raised by the exploration (an
unknown explorer, a bad option, a budget error) are re-raised in the consumer.

Example::

    for trace in porlab.traces(program, "optimal"):
        if trace.status == "error":
            print(trace)
            break
"""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Iterator
from typing import Any

from porlab import _core
from porlab.api import ProgramLike, _compiled, explore, load_program

__all__ = ["traces"]

# How long a blocked producer or consumer waits before checking whether the other side is gone.
_POLL_SECONDS = 0.05


class _Cancelled(Exception):
    """Raised inside the trace callback to unwind the C++ exploration when the consumer left."""


class _Done:
    """Queue message: the exploration ended normally (or with ``error``)."""

    __slots__ = ("error",)

    def __init__(self, error: BaseException | None) -> None:
        self.error = error


def traces(
    program: ProgramLike | str | os.PathLike[str],
    explorer: str = "optimal",
    *,
    buffer: int = 64,
    **options: Any,
) -> Iterator[_core.Trace]:
    """Yield the maximal traces (complete, blocked and error) of ``program``, lazily, in the
    order the explorer finds them.

    ``program`` is a :class:`porlab.Program`, a compiled program, or the path of a program file
    (loaded with :func:`porlab.load_program`). ``explorer`` and ``options`` (budgets such as
    ``max_traces``, ``ifaa``, explorer-specific parameters) are passed to
    :func:`porlab.explore`. At most ``buffer`` traces wait in memory: the explorer pauses while
    the consumer is behind. Stopping early (``break``, ``itertools.islice``, ``close()``)
    cancels the exploration and joins its thread; errors raised by the exploration are raised
    here.
    """
    if "on_trace" in options:
        raise TypeError("traces() reports every trace itself: on_trace is not an option here")
    if buffer < 1:
        raise ValueError(f"buffer must be at least 1, not {buffer}")
    return _traces(program, explorer, buffer, options)


def _traces(
    program: ProgramLike | str | os.PathLike[str],
    explorer: str,
    buffer: int,
    options: dict[str, Any],
) -> Iterator[_core.Trace]:
    # A generator: nothing below runs (no thread starts) until the first next().
    if isinstance(program, str | os.PathLike):
        program = load_program(os.fspath(program))
    compiled = _compiled(program)  # compile errors surface here, in the consumer

    q: queue.Queue[_core.Trace | _Done] = queue.Queue(maxsize=buffer)
    cancelled = threading.Event()

    def put(item: _core.Trace | _Done) -> None:
        """Put with back-pressure; give up as soon as the consumer is gone."""
        while not cancelled.is_set():
            try:
                q.put(item, timeout=_POLL_SECONDS)
                return
            except queue.Full:
                continue
        if not isinstance(item, _Done):
            raise _Cancelled

    def on_trace(trace: _core.Trace) -> None:
        if cancelled.is_set():
            raise _Cancelled
        put(trace)

    user_progress = options.pop("progress", None)

    def poll(p: Any) -> None:
        # Called about every _POLL_SECONDS while the exploration runs, even when it finds no
        # trace for a long time: a consumer that left stops it at once.
        if cancelled.is_set():
            raise _Cancelled
        if callable(user_progress):
            user_progress(p)

    def work() -> None:
        try:
            explore(compiled, explorer, on_trace=on_trace, progress=poll,
                    progress_seconds=_POLL_SECONDS, **options)
        except _Cancelled:
            return
        except BaseException as e:  # handed to the consumer, which re-raises it
            put(_Done(e))
            return
        put(_Done(None))

    worker = threading.Thread(target=work, name=f"porlab.traces({compiled.name})", daemon=True)
    worker.start()
    try:
        while True:
            try:
                item = q.get(timeout=_POLL_SECONDS)
            except queue.Empty:
                if not worker.is_alive() and q.empty():
                    raise RuntimeError("porlab.traces: the exploration thread died") from None
                continue
            if isinstance(item, _Done):
                if item.error is not None:
                    raise item.error
                return
            yield item
    finally:
        cancelled.set()
        if threading.current_thread() is not worker:  # (a GC run on the worker: cannot join)
            while worker.is_alive():
                _drain(q)  # wake a producer blocked on a full queue
                worker.join(_POLL_SECONDS)
            _drain(q)


def _drain(q: queue.Queue[Any]) -> None:
    while True:
        try:
            q.get_nowait()
        except queue.Empty:
            return
