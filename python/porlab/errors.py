"""porlab's exceptions. Bad input never crashes porlab: it raises one of these with a message
that says what is wrong and where (file:line)."""

from __future__ import annotations

from porlab._core import InputError, UnsupportedError

__all__ = ["InputError", "ProgramError", "UnsupportedError"]


class ProgramError(InputError):
    """An invalid builder program (unknown variable, join of an unknown thread, loop without
    bound, ...). The message starts with the file:line of the offending builder call."""
