"""The ``porlab`` command line.

Exit codes follow Nidhugg and GenMC where they have one: 0 the exploration was exhausted and
found no violation, 42 a violation was found, 2 bad input or an unsupported program; then 3 no
violation found but the exploration was not exhausted (a budget, an execution cut, a thread or
location limit), 130 interrupted by Ctrl-C (no violation found until then).

One module per group of commands: ``run`` (run, explore, partition), ``explorers`` (explorers,
disasm), ``bench`` (bench, report); ``main`` has the parser and the entry point, ``common`` what
they share.
"""

from __future__ import annotations

from porlab.api import EXIT_BAD_INPUT, EXIT_INCOMPLETE, EXIT_INTERRUPTED, EXIT_OK, EXIT_VIOLATION
from porlab.cli.explorers import explorer_table, render_explorers
from porlab.cli.main import build_parser, error_object, main
from porlab.cli.run import result_warnings

__all__ = ["EXIT_BAD_INPUT", "EXIT_INCOMPLETE", "EXIT_INTERRUPTED", "EXIT_OK", "EXIT_VIOLATION",
           "build_parser", "error_object", "explorer_table", "main", "render_explorers",
           "result_warnings"]
