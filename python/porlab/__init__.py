"""porlab: stateless model checking with dynamic partial order reduction, from Python.

Build a program with :class:`Program`, explore it with :func:`explore` under a registered
explorer (:func:`explorers`), and count its equivalence classes with :func:`partition_sizes`.
"""

from __future__ import annotations

from porlab import _core, progress
from porlab.api import (
    PartitionSizes,
    Result,
    explore,
    explorers,
    load_program,
    partition_sizes,
    trace_key,
)
from porlab.builder import Array, Expr, Loop, Mutex, Program, Reg, Thread, Var
from porlab.cfront import load_c, load_c_source
from porlab.errors import InputError, Interrupted, ProgramError, UnsupportedError
from porlab.frames import results_frame, trace_frame
from porlab.iterate import traces
from porlab.plugins import load_plugin, option, register_explorer

Trace = _core.Trace
Event = _core.Event
__version__: str = _core.__version__

__all__ = [
    "Array",
    "Event",
    "Expr",
    "InputError",
    "Interrupted",
    "Loop",
    "Mutex",
    "PartitionSizes",
    "Program",
    "ProgramError",
    "Reg",
    "Result",
    "Thread",
    "Trace",
    "UnsupportedError",
    "Var",
    "__version__",
    "explore",
    "explorers",
    "load_c",
    "load_c_source",
    "load_plugin",
    "load_program",
    "option",
    "partition_sizes",
    "progress",
    "register_explorer",
    "results_frame",
    "trace_frame",
    "trace_key",
    "traces",
]
