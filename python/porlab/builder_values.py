"""The values of builder programs: register expressions and shared locations (variables,
arrays, mutexes), and the error messages that name the user's source line. Used by
:mod:`porlab.builder`."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

from porlab.errors import ProgramError

if TYPE_CHECKING:
    from porlab.builder import Program, Thread

_PKG_DIR = os.path.dirname(os.path.abspath(__file__))


def _source_name(filename: str) -> str:
    """How a source file is named in traces and messages: its path, except for code typed in
    IPython or Jupyter, whose cells compile to temporary files (``/tmp/ipykernel_.../123.py``):
    those are named ``<cell N>``, N being the cell's execution count (``In [N]``)."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None  # type: ignore[attr-defined]
    number = getattr(getattr(shell, "compile", None), "_filename_map", {}).get(filename)
    return f"<cell {number}>" if number is not None else filename


def _caller() -> tuple[str, int]:
    """File and line of the first stack frame outside porlab (the user's code)."""
    f = sys._getframe(1)
    while f is not None:
        path = os.path.abspath(f.f_code.co_filename)
        if os.path.dirname(path) != _PKG_DIR and "contextlib" not in path:
            return _source_name(f.f_code.co_filename), f.f_lineno
        f = f.f_back
    return "", 0


def _fail(msg: str) -> ProgramError:
    file, line = _caller()
    where = f"{file}:{line}: " if file else ""
    return ProgramError(where + msg)


# ---------------------------------------------------------------------------------------------
# Expressions


class Expr:
    """An expression over a thread's registers and integer constants."""

    __slots__ = ("args", "op", "thread")

    def __init__(self, op: str, args: tuple, thread: Thread | None) -> None:
        self.op = op
        self.args = args
        self.thread = thread

    # arithmetic
    def __add__(self, o: Operand) -> Expr:
        return _bin("+", self, o)

    def __radd__(self, o: Operand) -> Expr:
        return _bin("+", o, self)

    def __sub__(self, o: Operand) -> Expr:
        return _bin("-", self, o)

    def __rsub__(self, o: Operand) -> Expr:
        return _bin("-", o, self)

    def __mul__(self, o: Operand) -> Expr:
        return _bin("*", self, o)

    def __rmul__(self, o: Operand) -> Expr:
        return _bin("*", o, self)

    def __floordiv__(self, o: Operand) -> Expr:
        return _bin("//", self, o)

    def __rfloordiv__(self, o: Operand) -> Expr:
        return _bin("//", o, self)

    def __mod__(self, o: Operand) -> Expr:
        return _bin("mod", self, o)

    def __rmod__(self, o: Operand) -> Expr:
        return _bin("mod", o, self)

    def __truediv__(self, o: Operand) -> Expr:
        raise _fail("registers hold integers: divide with // (Python's floor division)")

    __rtruediv__ = __truediv__

    def __and__(self, o: Operand) -> Expr:
        return _bin("&", self, o)

    def __rand__(self, o: Operand) -> Expr:
        return _bin("&", o, self)

    def __or__(self, o: Operand) -> Expr:
        return _bin("|", self, o)

    def __ror__(self, o: Operand) -> Expr:
        return _bin("|", o, self)

    def __xor__(self, o: Operand) -> Expr:
        return _bin("^", self, o)

    def __rxor__(self, o: Operand) -> Expr:
        return _bin("^", o, self)

    def __lshift__(self, o: Operand) -> Expr:
        return _bin("<<", self, o)

    def __rlshift__(self, o: Operand) -> Expr:
        return _bin("<<", o, self)

    def __rshift__(self, o: Operand) -> Expr:
        return _bin(">>", self, o)

    def __rrshift__(self, o: Operand) -> Expr:
        return _bin(">>", o, self)

    def __neg__(self) -> Expr:
        return Expr("neg", (self,), self.thread)

    def __invert__(self) -> Expr:
        """Logical negation: 1 if the expression is 0, else 0."""
        return Expr("not", (self,), self.thread)

    # comparisons build expressions (so registers are hashed by identity)
    def __eq__(self, o: object) -> Expr:  # type: ignore[override]
        return _bin("==", self, o)  # type: ignore[arg-type]

    def __ne__(self, o: object) -> Expr:  # type: ignore[override]
        return _bin("!=", self, o)  # type: ignore[arg-type]

    def __lt__(self, o: Operand) -> Expr:
        return _bin("<", self, o)

    def __le__(self, o: Operand) -> Expr:
        return _bin("<=", self, o)

    def __gt__(self, o: Operand) -> Expr:
        return _bin(">", self, o)

    def __ge__(self, o: Operand) -> Expr:
        return _bin(">=", self, o)

    __hash__ = object.__hash__

    def __bool__(self) -> bool:
        raise _fail(
            "a porlab expression has no Python truth value: use t.if_(cond), "
            "t.assume(cond) or t.assert_(cond) instead of a Python if/and/or/not"
        )

    def __repr__(self) -> str:
        if self.op == "reg":
            return f"Reg({self.args[0]})"
        if len(self.args) == 1:
            return f"({self.op} {self.args[0]!r})"
        return f"({self.args[0]!r} {self.op} {self.args[1]!r})"


class Reg(Expr):
    """A register of one thread (the result of a load, RMW, await, ... or of ``let``)."""

    __slots__ = ("index", "name", "old")

    def __init__(self, thread: Thread, index: int, name: str) -> None:
        super().__init__("reg", (name,), thread)
        self.index = index
        self.name = name
        self.old: Reg | None = None  # cas(): the value the CAS read


Operand = Expr | int


def _bin(op: str, a: Operand, b: Operand) -> Expr:
    ta = a.thread if isinstance(a, Expr) else None
    tb = b.thread if isinstance(b, Expr) else None
    if ta is not None and tb is not None and ta is not tb:
        raise _fail(
            f"expression mixes registers of threads '{ta.name}' and '{tb.name}': "
            "registers are local; share values through variables"
        )
    for v in (a, b):
        if not isinstance(v, Expr | int) or isinstance(v, bool):
            if isinstance(v, Var | Array | Mutex):
                raise _fail(
                    f"'{v.name}' is a shared location: read it with t.load({v.name}) "
                    "before computing with it"
                )
            raise _fail(f"cannot use {v!r} in an expression (expected a register or an int)")
    if op in ("<<", ">>") and isinstance(b, int) and b < 0:
        raise _fail(f"negative shift count {b}")
    return Expr(op, (a, b), ta or tb)


# ---------------------------------------------------------------------------------------------
# Shared locations


class _NotAValue:
    """Arithmetic and comparisons with a shared location (``x + 1``, ``x == 1``) raise a
    ProgramError instead of a TypeError or a silent Python ``False``."""

    name: str

    def _not_a_value(self, *_: object) -> Expr:
        raise _fail(
            f"'{self.name}' is a shared location: read it with t.load({self.name}) "
            "before computing with it"
        )

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _not_a_value
    __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = __neg__ = __invert__ = _not_a_value
    __and__ = __rand__ = __or__ = __ror__ = __xor__ = __rxor__ = _not_a_value
    __lshift__ = __rlshift__ = __rshift__ = __rrshift__ = _not_a_value
    __lt__ = __le__ = __gt__ = __ge__ = _not_a_value

    def __eq__(self, o: object) -> bool:
        if isinstance(o, Expr | int):
            self._not_a_value()
        return self is o

    def __ne__(self, o: object) -> bool:
        return not self.__eq__(o)

    __hash__ = object.__hash__


class Var(_NotAValue):
    """A shared integer variable."""

    def __init__(self, program: Program, name: str, loc: int) -> None:
        self.program = program
        self.name = name
        self.loc = loc

    def __repr__(self) -> str:
        return f"Var({self.name})"


class Array:
    """A shared array of integers; index it with an int or a register expression."""

    def __init__(self, program: Program, name: str, loc: int, size: int) -> None:
        self.program = program
        self.name = name
        self.loc = loc
        self.size = size

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, index: Operand) -> _Elem:
        if isinstance(index, int) and not isinstance(index, bool):
            if not 0 <= index < self.size:
                raise _fail(f"index {index} out of bounds for '{self.name}' of size {self.size}")
            return _Elem(self, index)
        if isinstance(index, Expr):
            return _Elem(self, index)
        raise _fail(f"array index must be an int or a register expression, not {index!r}")

    def __repr__(self) -> str:
        return f"Array({self.name}[{self.size}])"


class _Elem(_NotAValue):
    def __init__(self, array: Array, index: Operand) -> None:
        self.array = array
        self.index = index
        self.program = array.program
        self.name = (
            f"{array.name}[{index}]" if isinstance(index, int) else f"{array.name}[...]"
        )


class Mutex:
    """A mutex: lock blocks while another thread holds it."""

    def __init__(self, program: Program, name: str, loc: int) -> None:
        self.program = program
        self.name = name
        self.loc = loc

    def __repr__(self) -> str:
        return f"Mutex({self.name})"


Location = Var | _Elem
