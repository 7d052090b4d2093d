"""C programs: ``load_c`` compiles a C file with clang 19 and returns a program every explorer
accepts (``porlab.explore``, ``partition_sizes``, ``traces``, ``results_frame``).

porlab compiles in process through libclang-cpp (``-g -O0 -Xclang -disable-O0-optnone``, then
SROA/mem2reg only), lowers every function once into its own compact code and interprets it.
Thread-local computation runs without scheduling points; every access to memory another thread
can reach (globals, the heap, stack variables whose address escapes) is one visible event.
``docs/supported-c.md`` lists what is supported.

C++: a ``.cc``/``.cpp``/``.cxx`` file (or ``clang_args=["-x", "c++"]``; for
:func:`load_c_source`, a ``file_name`` with such a suffix) is compiled as C++17 without
exceptions and linked with porlab's C++ runtime :data:`CXX_RUNTIME` (``std::thread``,
``std::mutex``, ``std::condition_variable``, ``new``/``delete`` over porlab's pthread
built-ins); the C++ section of ``docs/supported-c.md`` says what works.
"""

from __future__ import annotations

import contextlib
import weakref
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from porlab import _core
from porlab.errors import InputError, UnsupportedError
from porlab.options import load_schema

__all__ = ["CXX_RUNTIME", "C_INCLUDE_DIR", "LOOP_MODES", "c_warnings", "disassemble_c",
           "has_c_frontend", "load_c", "load_c_source"]

#: The directory of ``porlab.h``; always on clang's include path.
C_INCLUDE_DIR = str(Path(__file__).resolve().parent / "include")
#: porlab's C++ runtime, found next to ``porlab.h`` (the C++ side looks for it on the include
#: path) and linked into every C++ program.
CXX_RUNTIME = str(Path(C_INCLUDE_DIR) / "porlab_cxxrt.cpp")

#: The options of loading a C program, declared once in C++ (``cLoadOptionSchema``): names,
#: types, ranges, defaults and documentation. load_c's keywords take their defaults from it
#: and are checked against it; ``porlab run``'s flags are generated from it.
LOAD_SCHEMA = {s.name: s for s in load_schema()}

DEFAULT_MAX_THREADS: int = LOAD_SCHEMA["max_threads"].default
DEFAULT_MAX_LOCATIONS: int = LOAD_SCHEMA["max_locations"].default
DEFAULT_MAX_EXECUTION_EVENTS: int = LOAD_SCHEMA["max_execution_events"].default
DEFAULT_LOOPS: str = LOAD_SCHEMA["loops"].default

#: ``loops=`` transformations (docs/supported-c.md, "Loops"): ``plp-saver`` (the default: every
#: spin-loop reduction porlab has, sound with every explorer, as Nidhugg and GenMC reduce spin
#: loops by default), ``none`` (the program as written), ``spin-assume`` (SAVER's static
#: spin-assume), ``plp`` (Godot's Partial Loop Purity elimination), ``plp-await`` (PLP with
#: assume pairs rewritten into awaits), ``saver`` (SAVER: spin-assume, dynamic purity checks,
#: and zne marks that the graph and DPOR explorers turn into zne blocking).
LOOP_MODES: tuple[str, ...] = tuple(LOAD_SCHEMA["loops"].values or ())


def has_c_frontend() -> bool:
    """Was porlab built with the C front end (PORLAB_WITH_LLVM)?"""
    return bool(getattr(_core, "HAS_C_FRONTEND", False))


def _need_frontend() -> None:
    if not has_c_frontend():
        raise UnsupportedError("this porlab was built without the C front end "
                               "(PORLAB_WITH_LLVM=OFF)")


def _defines(defines: Mapping[str, object] | Iterable[str] | None) -> list[tuple[str, str]]:
    if defines is None:
        return []
    if isinstance(defines, Mapping):
        out = []
        for k, v in defines.items():
            if isinstance(v, bool):
                v = int(v)
            out.append((str(k), "" if v is None else str(v)))
        return out
    out = []
    for d in defines:
        name, _, value = str(d).partition("=")
        if not name:
            raise InputError(f"-D{d}: empty macro name")
        out.append((name, value))
    return out


def _domain(nondet_domain: tuple[int, int] | str | None) -> tuple[int, int] | None:
    if nondet_domain is None or nondet_domain == "":
        return None
    if isinstance(nondet_domain, str):
        lo, sep, hi = nondet_domain.partition(":")
        try:
            if not sep:
                raise ValueError
            return int(lo), int(hi)
        except ValueError:
            raise InputError(f"nondet domain '{nondet_domain}' is not LO:HI") from None
    lo, hi = nondet_domain
    return int(lo), int(hi)


def _options(defines: Mapping[str, object] | Iterable[str] | None, include_dirs: Iterable[str],
             clang_args: Iterable[str], unroll: int | None, max_threads: int,
             max_locations: int, loops: str = DEFAULT_LOOPS) -> dict[str, object]:
    for name, value in (("loops", loops), ("unroll", unroll), ("max_threads", max_threads),
                        ("max_locations", max_locations)):
        if value is not None or LOAD_SCHEMA[name].default is not None:
            LOAD_SCHEMA[name].check(value, "load_c", quoted=False)
    return {
        "defines": _defines(defines),
        "include_dirs": [*map(str, include_dirs), C_INCLUDE_DIR],
        "clang_args": [str(a) for a in clang_args],
        "unroll": unroll,
        "max_threads": max_threads,
        "max_locations": max_locations,
        "loops": loops,
    }


def _check_execution_events(n: object) -> None:
    # A cut of 0 or less would end every execution at once: a buggy program would look safe.
    LOAD_SCHEMA["max_execution_events"].check(n, "load_c", quoted=False)


def load_c(
    path: str | Path,
    defines: Mapping[str, object] | Iterable[str] | None = None,
    unroll: int | None = None,
    include_dirs: Iterable[str] = (),
    clang_args: Iterable[str] = (),
    max_threads: int = DEFAULT_MAX_THREADS,
    nondet_domain: tuple[int, int] | str | None = None,
    *,
    deadlock_is_error: bool = LOAD_SCHEMA["deadlock_is_error"].default,
    max_locations: int = DEFAULT_MAX_LOCATIONS,
    max_execution_events: int = DEFAULT_MAX_EXECUTION_EVENTS,
    name: str = "",
    loops: str = DEFAULT_LOOPS,
) -> _core.ProgramBase:
    """Compile the C (or C++: ``.cc``, ``.cpp``, ``.cxx``) file ``path`` and load it as a
    program.

    ``defines`` are ``-D`` macros (``{"N": 3}`` or ``["N=3"]``); ``unroll=N`` allows N
    visits of a loop's header per entry of the loop, as Nidhugg's and GenMC's ``-unroll=N``
    (N - 1 jumps back; the N-th jump back blocks the execution, counted as blocked with cause
    ``loop-bound``; a ``for`` loop of k iterations needs ``unroll=k + 1``);
    ``max_threads`` bounds the threads (main included; a ``pthread_create`` beyond it blocks the
    execution with a warning); ``deadlock_is_error=False`` counts deadlocks as blocked;
    ``max_locations`` bounds the shared heap/stack locations over all executions (an execution
    that needs one more is blocked, cause ``location-limit``, with a warning in :func:`c_warnings`);
    ``max_execution_events`` cuts an execution that long (blocked, with a warning in
    :func:`c_warnings`): programs that never terminate end there. ``nondet_domain=(lo, hi)`` (or
    ``"LO:HI"``) explores every value of every ``__VERIFIER_nondet_*`` call: the explorer runs once
    per assignment of values to the calls reached (each execution is counted once); without it the
    calls return 0.
    ``loops`` transforms loops before exploration (:data:`LOOP_MODES`): the default
    ``"plp-saver"`` removes loop iterations that change nothing (PLP with awaits, then SAVER's
    checks and zero-net-effect blocking), so that ordinary spin loops terminate, as Nidhugg and
    GenMC do by default; ``"none"`` explores the program as written; ``"plp-await"`` is
    Godot's PLP + Await, ``"saver"`` SAVER.

    Raises :class:`porlab.InputError` with clang's diagnostics when the file does not compile,
    :class:`porlab.UnsupportedError` naming an unsupported construct and its source line."""
    _need_frontend()
    opts = _options(defines, include_dirs, clang_args, unroll, max_threads, max_locations, loops)
    _check_execution_events(max_execution_events)
    deadlock_is_error = LOAD_SCHEMA["deadlock_is_error"].check(deadlock_is_error, "load_c",
                                                              quoted=False)
    prog = _core.load_c(str(path), nondet_domain=_domain(nondet_domain),
                        deadlock_is_error=deadlock_is_error, name=name,
                        max_execution_events=max_execution_events, **opts)
    if nondet_domain is None:  # (distributed runs: workers compile it again from its source)
        _remember_recipe(prog, path, dict(
            defines=defines, unroll=unroll, include_dirs=list(include_dirs),
            clang_args=list(clang_args), max_threads=max_threads,
            deadlock_is_error=deadlock_is_error, max_locations=max_locations,
            max_execution_events=max_execution_events, name=name, loops=loops))
    return prog


def load_c_source(
    source: str,
    file_name: str = "program.c",
    defines: Mapping[str, object] | Iterable[str] | None = None,
    unroll: int | None = None,
    include_dirs: Iterable[str] = (),
    clang_args: Iterable[str] = (),
    max_threads: int = DEFAULT_MAX_THREADS,
    *,
    deadlock_is_error: bool = LOAD_SCHEMA["deadlock_is_error"].default,
    max_locations: int = DEFAULT_MAX_LOCATIONS,
    max_execution_events: int = DEFAULT_MAX_EXECUTION_EVENTS,
    name: str = "",
    loops: str = DEFAULT_LOOPS,
) -> _core.ProgramBase:
    """As :func:`load_c`, from C source text (``file_name`` names it in messages and traces)."""
    _need_frontend()
    opts = _options(defines, include_dirs, clang_args, unroll, max_threads, max_locations, loops)
    _check_execution_events(max_execution_events)
    deadlock_is_error = LOAD_SCHEMA["deadlock_is_error"].check(deadlock_is_error, "load_c",
                                                              quoted=False)
    prog = _core.load_c_source(source, file_name=file_name,
                               deadlock_is_error=deadlock_is_error, name=name,
                               max_execution_events=max_execution_events, **opts)
    from porlab.distributed import CSource, _freeze

    _RECIPES[prog] = CSource(source, file_name, _freeze(dict(
        defines=defines, unroll=unroll, include_dirs=list(include_dirs),
        clang_args=list(clang_args), max_threads=max_threads,
        deadlock_is_error=deadlock_is_error, max_locations=max_locations,
        max_execution_events=max_execution_events, name=name, loops=loops)))
    return prog


# The recipe of each C program loaded (porlab.distributed ships it to Dask workers).
_RECIPES: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()


def _remember_recipe(prog: _core.ProgramBase, path: str | Path, options: dict[str, Any]) -> None:
    from porlab.distributed import CSource

    with contextlib.suppress(OSError):  # (unreadable now: no distributed runs of it)
        _RECIPES[prog] = CSource.from_file(path, **options)


def c_recipe(program: _core.ProgramBase) -> Any:
    """The :class:`porlab.distributed.CSource` a C program was loaded from, or None."""
    return _RECIPES.get(program)


def disassemble_c(program: _core.ProgramBase) -> str:
    """The lowered code of a C program (what porlab's interpreter runs)."""
    _need_frontend()
    return str(_core.disassemble_c(program))


def c_warnings(program: _core.ProgramBase) -> list[str]:
    """Warnings of a C program, each once (e.g. ``__VERIFIER_nondet_*`` returning 0)."""
    _need_frontend()
    return list(_core.c_warnings(program))
