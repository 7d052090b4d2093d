"""Build small concurrent programs from Python.

A :class:`Program` has shared variables (and arrays) with initial values, mutexes and threads.
Each :class:`Thread` emits visible operations (loads, stores, read-modify-writes, CAS, locks,
awaits, spawn/join) and local code (arithmetic on registers, ``if_``/``else_``, loops,
``assume``, ``assert_``). The program is lowered to the decoded form C programs run in, which
porlab's C++ interpreter runs: no Python is called during exploration.

Example::

    p = Program("sb")
    x, y = p.var("x"), p.var("y")
    with p.thread("t0") as t:
        t.store(x, 1)
        a = t.load(y)
    with p.thread("t1") as t:
        t.store(y, 1)
        b = t.load(x)

Registers are single values local to a thread. Operators on registers (``+ - * // % & | ^ << >>``
and comparisons ``== != < <= > >=``, a register on either side: ``r + 1``, ``10 // r``) build
expressions; ``~e`` is logical negation of a condition. Expressions are compiled where they are
used and compute what Python computes on ints, wrapped to 64-bit two's complement: ``//`` and
``%`` round toward minus infinity (``-7 // 2 == -4``, ``-7 % 2 == 1``), shifts by 64 or more
shift every bit out. A division or remainder by zero and a negative shift count (errors in
Python) are faults (the trace is an error trace), and so are ``-2**63 // -1`` and
``-2**63 % -1``, the one quotient that overflows.

Loops: ``with t.repeat(n) as i:`` runs a block exactly ``n`` times. ``with t.loop(bound=N) as
lp:`` and ``with t.while_(cond, bound=N):`` run until the program leaves them
(``lp.break_if(c)``, ``cond`` false) and may run *up to* ``N`` iterations: an execution that
would start one more is blocked (a ``loop-bound`` blocked trace), as with Nidhugg's and GenMC's
``-unroll=N``. They are not counted loops.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from porlab import _core
from porlab.builder_values import (
    Array,
    Expr,
    Location,
    Mutex,
    Operand,
    Reg,
    Var,
    _caller,
    _Elem,
    _fail,
)
from porlab.errors import ProgramError

__all__ = ["Array", "Expr", "Loop", "Mutex", "Program", "Reg", "Thread", "Var"]



_AWAIT_OPS = {
    "==": "eq", "!=": "ne", "<": "slt", "<=": "sle", ">": "sgt", ">=": "sge",
    "u<": "ult", "u<=": "ule", "u>": "ugt", "u>=": "uge",
}
_RMW_OPS = ("add", "sub", "and", "or", "xor", "max", "min", "nand", "umax", "umin", "uinc-wrap",
            "udec-wrap")


# ---------------------------------------------------------------------------------------------
# Threads


class Loop:
    """A loop with a bound under construction (see :meth:`Thread.loop`): it runs until a
    ``break_if``/``break_`` leaves it, and blocks the execution beyond its bound."""

    def __init__(self, thread: Thread, head: int) -> None:
        self.thread = thread
        self.head = head
        self.breaks: list[int] = []

    def break_if(self, cond: Operand) -> None:
        """Leave the loop when ``cond`` is non-zero."""
        r = self.thread._value(cond)
        self.breaks.append(self.thread._emit("jnz", a=-1, b=r))

    def continue_if(self, cond: Operand) -> None:
        """Start the next iteration when ``cond`` is non-zero."""
        r = self.thread._value(cond)
        self.thread._emit("jnz", a=self.head, b=r)

    def break_(self) -> None:
        """Leave the loop unconditionally."""
        self.breaks.append(self.thread._emit("jump", a=-1))


class Thread:
    """A thread of a :class:`Program`; its methods emit the thread's code in order."""

    def __init__(self, program: Program, name: str, tid: int, start: bool) -> None:
        self.program = program
        self.name = name
        self.tid = tid
        self.start = start
        self._consts: dict[int, int] = {}
        self._nregs = 0
        # (jump over the else block, code size) of the if_ block just closed, for else_
        self._last_if_end: tuple[int, int] | None = None
        self._fetchops: list[tuple[int, int]] = []  # (pc, result register)
        self._reads: dict[int, int] = {}  # register -> times read as an operand

    # ---- registers and expressions ----------------------------------------------------------

    def _spec(self) -> _core.ProgramSpec:
        return self.program._spec

    def _newreg(self, name: str = "", init: int = 0) -> int:
        self.program._dirty()
        self._nregs += 1
        return self._spec().add_register(self.tid, name or f"r{self._nregs - 1}", init)

    def reg(self, name: str = "", init: int = 0) -> Reg:
        """A fresh mutable register (initially ``init``); assign it with :meth:`set`."""
        idx = self._newreg(name, init)
        return Reg(self, idx, name or f"r{idx}")

    def _const(self, v: int) -> int:
        if v not in self._consts:
            self._consts[v] = self._newreg(f"#{v}", v)
        return self._consts[v]

    def _value(self, e: Operand) -> int:
        """Compile ``e`` into a register index."""
        if isinstance(e, bool):
            e = int(e)
        if isinstance(e, int):
            if not -(2**63) <= e < 2**63:
                raise _fail(f"constant {e} does not fit in 64 bits")
            return self._const(e)
        if isinstance(e, Reg):
            if e.thread is not self:
                raise _fail(
                    f"register '{e.name}' belongs to thread '{e.thread.name}', not '{self.name}'"
                )
            return e.index
        if isinstance(e, Expr):
            if e.thread is not None and e.thread is not self:
                raise _fail(f"expression uses registers of thread '{e.thread.name}'")
            args = [self._value(a) for a in e.args]
            r = self._newreg()
            if e.op in ("neg", "not"):
                self._emit("un", sub=_core.UNOPS["-" if e.op == "neg" else "not"], a=r, b=args[0])
            elif e.op in ("//", "mod"):
                self._floor_div(e.op, r, args[0], args[1])
            else:
                self._emit("bin", sub=_core.BINOPS[e.op], a=r, b=args[0], c=args[1])
            return r
        if isinstance(e, Var | _Elem | Array | Mutex):
            raise _fail(f"'{e.name}' is a shared location: read it with t.load(...) first")
        raise _fail(f"cannot use {e!r} as a value (expected a register, expression or int)")

    def _floor_div(self, op: str, out: int, a: int, b: int) -> None:
        """``out := a // b`` or ``a % b`` as Python computes them (rounding toward minus
        infinity, the remainder has the divisor's sign), from the interpreter's C division
        (rounding toward zero), which faults on a zero divisor."""
        ops = _core.BINOPS

        def bin_(o: str, x: int, y: int) -> int:
            t = self._newreg()
            self._emit("bin", sub=ops[o], a=t, b=x, c=y)
            return t

        rem = bin_("%", a, b)
        # C's quotient is one too big exactly when the remainder is not 0 and its sign differs
        # from the divisor's; the remainder is then off by the divisor.
        zero = self._const(0)
        adjust = bin_("&", bin_("!=", rem, zero), bin_("<", bin_("^", rem, b), zero))
        if op == "//":
            self._emit("bin", sub=ops["-"], a=out, b=bin_("/", a, b), c=adjust)
        else:
            self._emit("bin", sub=ops["+"], a=out, b=rem, c=bin_("*", b, adjust))

    def _emit(self, op: str, **kw: int | bool) -> int:
        self.program._dirty()
        file, line = _caller()
        fid = self._spec().add_file(file) if file else 0
        # Count operand reads, so that compile() knows which fetch-and-add results are unused.
        for key in ("b", "c", "d", "idx"):
            r = kw.get(key, -1)
            if isinstance(r, int) and r >= 0:
                self._reads[r] = self._reads.get(r, 0) + 1
        return self._spec().emit(self.tid, op, file=fid, line=line, **kw)  # type: ignore[arg-type]

    def _location(self, loc: object, what: str) -> tuple[int, int, int]:
        """(base location, length, index register) of a shared location."""
        if isinstance(loc, Var):
            self._check_owner(loc)
            return loc.loc, 1, -1
        if isinstance(loc, _Elem):
            self._check_owner(loc.array)
            if isinstance(loc.index, int):
                return loc.array.loc + loc.index, 1, -1
            return loc.array.loc, loc.array.size, self._value(loc.index)
        if isinstance(loc, Array):
            raise _fail(f"{what} of a whole array '{loc.name}': index it, e.g. {loc.name}[0]")
        if isinstance(loc, Mutex):
            raise _fail(f"{what} of mutex '{loc.name}': mutexes are only locked and unlocked")
        raise _fail(f"{what} needs a shared variable or array element, not {loc!r}")

    def _check_owner(self, obj: Var | Array | Mutex) -> None:
        if obj.program is not self.program:
            raise _fail(f"'{obj.name}' belongs to another program")

    # ---- visible operations ------------------------------------------------------------------

    def load(self, loc: Location, name: str = "") -> Reg:
        """Read a shared location into a new register."""
        base, n, idx = self._location(loc, "load")
        r = self.reg(name)
        self._emit("load", a=r.index, loc=base, len=n, idx=idx)
        return r

    def store(self, loc: Location, value: Operand) -> None:
        """Write a value to a shared location."""
        v = self._value(value)
        base, n, idx = self._location(loc, "store")
        self._emit("store", c=v, loc=base, len=n, idx=idx)

    def fetch_op(self, op: str, loc: Location, value: Operand, name: str = "") -> Reg:
        """Atomic read-modify-write ``loc := loc <op> value``; returns the old value."""
        if op not in _RMW_OPS:
            raise _fail(f"unknown read-modify-write op '{op}' (known: {', '.join(_RMW_OPS)})")
        v = self._value(value)
        base, n, idx = self._location(loc, f"fetch_{op}")
        r = self.reg(name)
        pc = self._emit("fetchop", sub=_core.RMW_OPS[op], a=r.index, c=v, loc=base, len=n, idx=idx)
        self._fetchops.append((pc, r.index))
        return r

    def fetch_add(self, loc: Location, value: Operand = 1, name: str = "") -> Reg:
        """Atomic fetch-and-add; returns the old value. When the result is never used, the
        operation qualifies for IFAA (fetch-and-adds with unused results commute)."""
        return self.fetch_op("add", loc, value, name)

    def fetch_sub(self, loc: Location, value: Operand = 1, name: str = "") -> Reg:
        """Atomic fetch-and-subtract; returns the old value."""
        return self.fetch_op("sub", loc, value, name)

    def exchange(self, loc: Location, value: Operand, name: str = "") -> Reg:
        """Atomic exchange; returns the old value."""
        v = self._value(value)
        base, n, idx = self._location(loc, "exchange")
        r = self.reg(name)
        self._emit("xchg", a=r.index, c=v, loc=base, len=n, idx=idx)
        return r

    def cas(self, loc: Location, expected: Operand, desired: Operand, name: str = "") -> Reg:
        """Atomic compare-and-swap; returns a register that is 1 when it succeeded. The old
        value is in the returned register's ``.old`` attribute."""
        e, d = self._value(expected), self._value(desired)
        base, n, idx = self._location(loc, "cas")
        ok = self.reg(name)
        old = self.reg((name + ".old") if name else "")
        self._emit("cas", a=old.index, e=ok.index, c=e, d=d, loc=base, len=n, idx=idx)
        ok.old = old
        return ok

    def lock(self, m: Mutex) -> None:
        """Acquire a mutex (blocks while another thread holds it)."""
        self._mutex(m, "lock")

    def unlock(self, m: Mutex) -> None:
        """Release a mutex (a fault when this thread does not hold it)."""
        self._mutex(m, "unlock")

    def _mutex(self, m: object, op: str) -> None:
        if not isinstance(m, Mutex):
            raise _fail(f"{op} needs a mutex (p.mutex(...)), not {m!r}")
        self._check_owner(m)
        self._emit(op, loc=m.loc)

    def spawn(self, thread: Thread) -> None:
        """Start a thread declared with ``start=False``."""
        self._thread_arg(thread, "spawn")
        if thread.start:
            raise _fail(
                f"thread '{thread.name}' starts by itself; declare it with "
                f"p.thread('{thread.name}', start=False) to spawn it"
            )
        self._emit("spawn", a=thread.tid)

    def join(self, thread: Thread) -> None:
        """Wait until a thread has finished."""
        self._thread_arg(thread, "join")
        self._emit("join", a=thread.tid)

    def _thread_arg(self, thread: object, what: str) -> None:
        if not isinstance(thread, Thread) or thread.program is not self.program:
            raise _fail(f"{what} of an unknown thread {thread!r}")
        if thread is self:
            raise _fail(f"thread '{self.name}' cannot {what} itself")

    def await_(self, loc: Location, op: str, operand: Operand, name: str = "") -> Reg:
        """Block until ``loc <op> operand`` holds, then read ``loc`` (one atomic event).
        ``op`` is one of == != < <= > >= (signed) or u< u<= u> u>= (unsigned)."""
        cond = self._await_cond(op)
        v = self._value(operand)
        base, n, idx = self._location(loc, "await")
        r = self.reg(name)
        self._emit("await", sub=cond, a=r.index, c=v, loc=base, len=n, idx=idx)
        return r

    def xchg_await(
        self, loc: Location, op: str, operand: Operand, new: Operand, name: str = ""
    ) -> Reg:
        """Block until ``loc <op> operand`` holds, then atomically read it and write ``new``."""
        cond = self._await_cond(op)
        v, w = self._value(operand), self._value(new)
        base, n, idx = self._location(loc, "xchg_await")
        r = self.reg(name)
        self._emit("xchgawait", sub=cond, a=r.index, c=v, d=w, loc=base, len=n, idx=idx)
        return r

    def _await_cond(self, op: str) -> int:
        if op not in _AWAIT_OPS:
            raise _fail(f"unknown await condition '{op}' (known: {' '.join(_AWAIT_OPS)})")
        return int(_core.AWAIT_CONDS[_AWAIT_OPS[op]])

    # ---- local code ---------------------------------------------------------------------------

    def let(self, value: Operand, name: str = "") -> Reg:
        """A new register holding the value of an expression."""
        r = self.reg(name)
        self.set(r, value)
        return r

    def set(self, reg: Reg, value: Operand) -> None:
        """Assign a register."""
        if not isinstance(reg, Reg) or reg.thread is not self:
            raise _fail(f"set() needs a register of thread '{self.name}', not {reg!r}")
        if isinstance(value, int) and not isinstance(value, bool):
            self._emit("const", a=reg.index, imm=value)
        else:
            self._emit("move", a=reg.index, b=self._value(value))

    def assume(self, cond: Operand) -> None:
        """Block this thread for good when ``cond`` is 0 (the trace counts as blocked)."""
        self._emit("assume", b=self._value(cond))

    def assert_(self, cond: Operand) -> None:
        """An assertion: when ``cond`` is 0 the trace is an error trace."""
        self._emit("assert", b=self._value(cond))

    def fail(self) -> None:
        """An assertion that always fails when reached."""
        self.assert_(0)  # noqa: UP005 (not unittest: keep assert_)

    @contextmanager
    def if_(self, cond: Operand) -> Iterator[None]:
        """``with t.if_(cond):`` runs the block when ``cond`` is non-zero; an ``else_`` block
        may follow immediately."""
        jz = self._emit("jz", a=-1, b=self._value(cond))
        yield
        # Reserve the jump over a possible else block; patched when else_ ends (or now).
        over = self._emit("jump", a=-1)
        self._spec().patch_target(self.tid, jz, self._spec().code_size(self.tid))
        self._spec().patch_target(self.tid, over, self._spec().code_size(self.tid))
        self._last_if_end = (over, self._spec().code_size(self.tid))

    @contextmanager
    def else_(self) -> Iterator[None]:
        """The else block of the ``if_`` block just closed."""
        if self._last_if_end is None or self._last_if_end[1] != self._spec().code_size(self.tid):
            raise _fail("else_() must follow an if_() block directly")
        over, _ = self._last_if_end
        self._last_if_end = None
        yield
        self._spec().patch_target(self.tid, over, self._spec().code_size(self.tid))

    @contextmanager
    def loop(self, *args: object, bound: int | None = None) -> Iterator[Loop]:
        """A loop that runs its block until ``lp.break_if(cond)`` (or ``lp.break_()``) leaves
        it, **at most** ``bound`` iterations: an execution that would start iteration
        ``bound + 1`` is blocked (cause ``loop-bound``: counted as blocked, never silently cut).
        Not a counted loop: ``loop(bound=3)`` without a break blocks every execution; use
        :meth:`repeat` to run a block exactly ``n`` times.

        ``bound`` counts visits of the loop's head, as Nidhugg's and GenMC's ``-unroll=N``
        do (``bound - 1`` jumps back are allowed, the next one blocks). It is keyword-only, so
        that no call reads as a repetition count."""
        if args:
            raise _fail(
                f"loop({', '.join(map(repr, args))}): give the bound by name, "
                f"loop(bound={args[0]!r}) (a loop that may run up to that many iterations and "
                f"blocks beyond), or use repeat({args[0]!r}) to run a block exactly that often"
            )
        if bound is None:
            raise _fail("loop without bound: give loop(bound=N) (porlab programs must terminate)")
        if not isinstance(bound, int) or isinstance(bound, bool) or bound < 0:
            raise _fail(f"loop bound must be a non-negative int, not {bound!r}")
        counter = self._newreg("loop")
        self._emit("const", a=counter, imm=0)
        head = self._emit("loopcheck", b=counter, imm=bound)
        lp = Loop(self, head)
        yield lp
        self._emit("jump", a=head)
        end = self._spec().code_size(self.tid)
        for pc in lp.breaks:
            self._spec().patch_target(self.tid, pc, end)
        self._last_if_end = None

    @contextmanager
    def while_(self, cond: object, *args: object, bound: int | None = None) -> Iterator[Loop]:
        """``with t.while_(lambda: t.load(x) != 0, bound=3):`` — the condition is a function
        evaluated (with its loads) at the start of every iteration; as for :meth:`loop`, an
        execution that would start iteration ``bound + 1`` is blocked."""
        if not callable(cond):
            raise _fail("while_ needs a function computing the condition, e.g. lambda: ...")
        if args:
            raise _fail(f"while_(cond, {args[0]!r}): give the bound by name, "
                        f"while_(cond, bound={args[0]!r})")
        with self.loop(bound=bound) as lp:
            lp.break_if(~_as_expr(cond()))
            yield lp

    @contextmanager
    def repeat(self, n: int, name: str = "") -> Iterator[Reg]:
        """``with t.repeat(3) as i:`` runs the block exactly ``n`` times (a counted loop: it
        never blocks), with ``i`` = 0, 1, ..., n - 1 in a register. ``n`` is an int; the
        block must not assign ``i``."""
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise _fail(f"repeat count must be a non-negative int, not {n!r}")
        i = self.reg(name or "i")
        self._emit("const", a=i.index, imm=0)
        head = self._spec().code_size(self.tid)
        leave = self._emit("jz", a=-1, b=self._value(i < n))
        yield i
        self._emit("bin", sub=_core.BINOPS["+"], a=i.index, b=i.index, c=self._const(1))
        self._emit("jump", a=head)
        self._spec().patch_target(self.tid, leave, self._spec().code_size(self.tid))
        self._last_if_end = None

    def __enter__(self) -> Thread:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def __repr__(self) -> str:
        return f"Thread({self.name})"


def _as_expr(v: Operand) -> Expr:
    if isinstance(v, Expr):
        return v
    return Expr("+", (v, 0), None)


# ---------------------------------------------------------------------------------------------
# Programs


class Program:
    """A concurrent program: shared variables, mutexes and threads.

    ``Program`` objects are accepted by :func:`porlab.explore`, :func:`porlab.partition_sizes`
    and the CLI; they compile once (on first use): the program is lowered to the decoded form C
    programs run in, and runs on the same interpreter.
    """

    def __init__(self, name: str = "program") -> None:
        self.name = name
        self._spec = _core.ProgramSpec(name)
        self._threads: list[Thread] = []
        self._names: set[str] = set()
        self._compiled: _core.ProgramBase | None = None

    def _dirty(self) -> None:
        if self._compiled is not None:
            raise _fail(f"program '{self.name}' was already compiled; it cannot change any more")

    def _fresh_name(self, name: str, kind: str) -> str:
        if not isinstance(name, str) or not name:
            raise _fail(f"{kind} name must be a non-empty string")
        if name in self._names:
            raise _fail(f"name '{name}' is already used in program '{self.name}'")
        self._names.add(name)
        return name

    def var(self, name: str, init: int = 0) -> Var:
        """A shared variable with an initial value."""
        self._dirty()
        self._fresh_name(name, "variable")
        return Var(self, name, self._spec.add_location(name, _int(init, "initial value")))

    def vars(self, *names: str, init: int = 0) -> list[Var]:
        """Several shared variables at once: ``x, y = p.vars("x", "y")``."""
        return [self.var(n, init) for n in names]

    def array(self, name: str, size: int, init: int | list[int] = 0) -> Array:
        """A shared array of ``size`` integers (``init``: one value for all or a list)."""
        self._dirty()
        self._fresh_name(name, "array")
        if not isinstance(size, int) or size < 1:
            raise _fail(f"array size must be a positive int, not {size!r}")
        inits = list(init) if isinstance(init, list) else [init] * size
        if len(inits) != size:
            raise _fail(f"array '{name}' has {size} elements but {len(inits)} initial values")
        first = -1
        for i, v in enumerate(inits):
            loc = self._spec.add_location(f"{name}[{i}]", _int(v, "initial value"))
            first = loc if i == 0 else first
        return Array(self, name, first, size)

    def mutex(self, name: str) -> Mutex:
        """A mutex, initially free."""
        self._dirty()
        self._fresh_name(name, "mutex")
        return Mutex(self, name, self._spec.add_location(name, 0, True))

    def thread(self, name: str | None = None, *, start: bool = True) -> Thread:
        """A new thread; ``start=False`` makes it wait to be spawned by another thread."""
        self._dirty()
        name = self._fresh_name(name or f"t{len(self._threads)}", "thread")
        t = Thread(self, name, self._spec.add_thread(name, start), start)
        self._threads.append(t)
        return t

    @property
    def threads(self) -> list[Thread]:
        """The program's threads, in the order they were declared (thread ids)."""
        return list(self._threads)

    def compile(self) -> _core.ProgramBase:
        """Compile (once) to the decoded form; raises :class:`porlab.errors.ProgramError` if
        invalid."""
        if self._compiled is None:
            if not self._threads:
                raise ProgramError(f"program '{self.name}' has no threads")
            if not any(t.start for t in self._threads):
                raise ProgramError(f"program '{self.name}': no thread starts by itself")
            for t in self._threads:
                for pc, reg in t._fetchops:
                    if t._reads.get(reg, 0) == 0:
                        self._spec.set_result_used(t.tid, pc, False)
                self._spec.emit(t.tid, "end")
            try:
                self._compiled = _core.lower_spec(self._spec)
            except _core.InputError as e:
                raise ProgramError(str(e)) from None
        return self._compiled

    def disassemble(self) -> str:
        """The listing of the compiled program (its decoded form)."""
        return _core.disassemble_code(self.compile())

    def __repr__(self) -> str:
        return f"Program({self.name!r}, {len(self._threads)} threads)"


def _int(v: object, what: str) -> int:
    if not isinstance(v, int) or isinstance(v, bool):
        raise _fail(f"{what} must be an int, not {v!r}")
    return v
