"""Explorers written in Python (issue 20): register one and it is an explorer like the others.

    @porlab.register_explorer("my-dpor", equivalence="mazurkiewicz",
                              options=[porlab.option("sleep_sets", "bool", True, "use them")])
    def my_dpor(program, run):
        ex = program.new_execution()
        ...                       # run.sequence(program): extend, reversals, backtrack, ...
        run.maximal(ex, events)   # every maximal execution, counted, checked, budgeted

A registered explorer appears in :func:`porlab.explorers`, runs through :func:`porlab.explore`
(budgets, progress, Ctrl-C, bug checks, outcomes, kept traces: its ``run`` is the same reporter
the C++ explorers use), from the command line (``porlab run prog.c --plugin my_dpor.py
--explorer my-dpor``), in ``porlab bench`` suites (a configuration's ``plugin``) and hence in
``porlab report`` tables; :func:`porlab.testing.check_registered` checks it against the oracle
of the equivalence it declares. ``run`` is a :class:`porlab._core.ExplorerRun`.
"""

from __future__ import annotations

import os
import runpy
from collections.abc import Callable, Sequence
from typing import Any

from porlab import _core
from porlab.errors import InputError
from porlab.options import OptionSpec, option_spec

__all__ = ["load_plugin", "option", "register_explorer"]

ExplorerFunction = Callable[[Any, Any], None]

option = option_spec


def _spec(o: OptionSpec | dict[str, Any]) -> OptionSpec:
    return o if isinstance(o, OptionSpec) else OptionSpec.from_dict(o)


def register_explorer(
    name: str, function: ExplorerFunction | None = None, *, equivalence: str,
    description: str = "", optimal: bool = False, covers_classes: bool = True,
    non_redundant: bool = False, ifaa: bool = False,
    options: Sequence[OptionSpec | dict[str, Any]] = (),
) -> Any:
    """Register ``function(program, run)`` as the explorer ``name`` (or, without
    ``function``, return a decorator that does). ``equivalence`` is what one explored trace
    stands for (a name of ``porlab._core.EQUIVALENCES``, or ``interleavings``); ``optimal``
    (exactly one complete trace per class), ``covers_classes`` and ``non_redundant`` are the
    guarantees the conformance check holds it to; ``ifaa`` says it honours ``run.ifaa``;
    ``options`` are typed options (:func:`porlab.option`), given to it as ``run.options``.
    Registering a name again replaces the earlier Python explorer; built-in names are taken."""
    if function is None:
        def decorate(fn: ExplorerFunction) -> ExplorerFunction:
            register_explorer(name, fn, equivalence=equivalence, description=description,
                              optimal=optimal, covers_classes=covers_classes,
                              non_redundant=non_redundant, ifaa=ifaa, options=options)
            return fn
        return decorate
    if not callable(function):
        raise InputError(f"explorer '{name}': {function!r} is not a function")
    known = {"interleavings", *_core.EQUIVALENCES.keys()}
    if equivalence not in known:
        raise InputError(f"explorer '{name}': equivalence must be one of "
                         f"{', '.join(sorted(known))}, not {equivalence!r}")
    specs = [_spec(o) for o in options]
    decls = [{**s.as_dict(), "default": None if s.default is None else OptionSpec.text(s.default)}
             for s in specs]
    _core.register_explorer(name, function, equivalence, description or name, optimal,
                            covers_classes, non_redundant, ifaa, decls)
    return function


def load_plugin(path: str) -> None:
    """Run a Python file that registers explorers (``porlab run --plugin FILE``)."""
    if not os.path.isfile(path):
        raise InputError(f"{path}: no such plugin file")
    try:
        runpy.run_path(path, run_name="__porlab_plugin__")
    except InputError:
        raise
    except SyntaxError as e:
        raise InputError(f"{e.filename}:{e.lineno}: syntax error: {e.msg}") from None
    except Exception as e:
        raise InputError(f"{path}: {type(e).__name__}: {e}") from None
