"""porlab's exceptions. Bad input never crashes porlab: it raises one of these with a message
that says what is wrong and where (file:line)."""

from __future__ import annotations

from porlab._core import InputError, UnsupportedError

__all__ = ["InputError", "Interrupted", "ProgramError", "UnsupportedError"]

# The C++ exception classes have no docstring of their own (help() would show ValueError's).
InputError.__doc__ = (
    "Bad input: a program, program file, option or name porlab cannot use. The message says "
    "what is wrong and where (file:line). A subclass of ValueError."
)
UnsupportedError.__doc__ = (
    "Input porlab understands but does not support (a C feature, an operation); the message "
    "starts with file:line. A subclass of ValueError."
)


class ProgramError(InputError):
    """An invalid builder program (unknown variable, join of an unknown thread, loop without
    bound, ...). The message starts with the file:line of the offending builder call."""


class Interrupted(KeyboardInterrupt):
    """An exploration stopped by Ctrl-C (or a notebook's interrupt). ``result`` holds what was
    found until then: partial counts, the first error if any, ``incomplete == ['interrupted']``.
    A subclass of KeyboardInterrupt, so that a loop over many runs stops as Ctrl-C should."""

    def __init__(self, result: object) -> None:
        self.result = result
        super().__init__(f"exploration interrupted: {result!r}")
