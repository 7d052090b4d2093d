"""Live progress of a running exploration: a line on a terminal's stderr, a line in a notebook
output, or your own callback.

``porlab.explore(p, ..., progress=True)`` picks the display that fits where it runs (a notebook
cell, a terminal; nothing when stderr is not a terminal); ``progress=callable`` calls it about
every ``progress_seconds`` with a :class:`Progress`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any

__all__ = ["Progress", "ProgressLike", "format_progress", "progress_callback"]


@dataclass(frozen=True)
class Progress:
    """Counts of a running exploration so far."""

    complete: int
    blocked: int
    errors: int
    events: int
    seconds: float
    #: An estimate of the total number of executions when one is available (the naive
    #: explorer and partition_sizes: Knuth's random-walk estimate), else None.
    estimate: float | None = None

    @property
    def traces(self) -> int:
        """Maximal traces so far: complete + blocked + errors."""
        return self.complete + self.blocked + self.errors

    @property
    def traces_per_second(self) -> float:
        return self.traces / self.seconds if self.seconds > 0 else 0.0


ProgressLike = bool | Callable[[Progress], Any] | None


def _clock(seconds: float) -> str:
    s = int(seconds)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"


def _si(x: float) -> str:
    if x >= 1e12:
        return f"{x:.1e}"
    for unit, div in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if x >= div:
            return f"{x / div:.1f}{unit}"
    return f"{x:.0f}"


def format_progress(p: Progress) -> str:
    """One line: executions by kind, rates, elapsed time."""
    rate = p.events / p.seconds if p.seconds > 0 else 0.0
    of = ""
    if p.estimate:
        of = f" of ~{_si(p.estimate)} ({min(100.0, 100 * p.traces / p.estimate):.1f}%)"
    return (f"{p.traces:,}{of} executions ({p.complete:,} complete, {p.blocked:,} blocked, "
            f"{p.errors:,} errors)  {_si(p.traces_per_second)} exec/s  {_si(rate)} events/s  "
            f"{_clock(p.seconds)}")


class _TerminalLine:
    """Rewrites one line of a terminal's stderr; erases it when the run ends."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        self.width = 0

    def __call__(self, p: Progress) -> None:
        text = "porlab: " + format_progress(p)
        pad = max(0, self.width - len(text))
        self.width = len(text)
        try:
            self.stream.write("\r" + text + " " * pad)
            self.stream.flush()
        except (OSError, ValueError):
            pass

    def close(self) -> None:
        if self.width:
            try:
                self.stream.write("\r" + " " * self.width + "\r")
                self.stream.flush()
            except (OSError, ValueError):
                pass
            self.width = 0


class _NotebookLine:
    """A text line in a notebook cell's output, updated in place."""

    def __init__(self) -> None:
        from IPython.display import display

        self.handle = display("porlab: starting", display_id=True)

    def __call__(self, p: Progress) -> None:
        if self.handle is not None:
            self.handle.update("porlab: " + format_progress(p))

    def close(self) -> None:
        pass


def _in_notebook() -> bool:
    ip = sys.modules.get("IPython")
    if ip is None:
        return False
    try:
        shell = ip.get_ipython()  # type: ignore[attr-defined]
    except Exception:
        return False
    return shell is not None and type(shell).__name__ == "ZMQInteractiveShell"


class _Adapter:
    """The C++ side calls progress(complete, blocked, errors, events, seconds)."""

    def __init__(self, sink: Callable[[Progress], Any], closer: Callable[[], None] | None) -> None:
        self.sink = sink
        self.closer = closer
        self.estimate: float | None = None

    def __call__(self, complete: int, blocked: int, errors: int, events: int,
                 seconds: float) -> None:
        self.sink(Progress(complete, blocked, errors, events, seconds, self.estimate))

    def close(self) -> None:
        if self.closer is not None:
            self.closer()


def progress_callback(progress: ProgressLike, stream: IO[str] | None = None) -> _Adapter | None:
    """The callback the core calls for ``progress`` (see the module docstring), or None."""
    if progress is None or progress is False:
        return None
    if callable(progress) and progress is not True:
        return _Adapter(progress, None)
    if stream is None and _in_notebook():
        nb = _NotebookLine()
        return _Adapter(nb, nb.close)
    out = stream if stream is not None else sys.stderr
    if stream is None and not (hasattr(out, "isatty") and out.isatty()):
        return None
    line = _TerminalLine(out)
    return _Adapter(line, line.close)
