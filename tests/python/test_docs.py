"""help() is useful: every public name has a docstring of at least one sentence.

Checked: every class and function in ``porlab.__all__`` (and in the ``__all__`` of the modules
whose functions porlab re-exports: porlab.iterate and porlab.frames), and every public method
and property of the builder classes and of the Python result classes. A docstring must be the
object's own (not one inherited from ``object`` or ``ValueError``), and its summary must be a
sentence: at least two words, ending with ``.``, ``?`` or ``!``.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterator

import pytest

import porlab
from porlab import frames, iterate
from porlab.api import PartitionSizes, Result
from porlab.builder import Loop, Program, Thread

MODULES = [porlab, iterate, frames]
MEMBER_CLASSES = [Program, Thread, Loop, Result, PartitionSizes]


def exported() -> Iterator[tuple[str, object]]:
    """(qualified name, object) of every class and function in the modules' __all__."""
    seen: set[int] = set()
    for mod in MODULES:
        for name in mod.__all__:
            obj = getattr(mod, name)
            if not (inspect.isclass(obj) or callable(obj)) or id(obj) in seen:
                continue  # constants such as __version__ and column tuples
            seen.add(id(obj))
            yield f"{mod.__name__}.{name}", obj


def members() -> Iterator[tuple[str, object]]:
    """(qualified name, member) of every public method and property the classes define."""
    for cls in MEMBER_CLASSES:
        for name, value in vars(cls).items():
            if name.startswith("_"):
                continue
            if isinstance(value, property | staticmethod | classmethod) or inspect.isfunction(
                value
            ):
                yield f"{cls.__name__}.{name}", value


def own_doc(obj: object) -> str:
    """The docstring an object defines itself (inherited ones do not count)."""
    if isinstance(obj, staticmethod | classmethod):
        obj = obj.__func__
    doc = vars(obj).get("__doc__") if inspect.isclass(obj) else getattr(obj, "__doc__", None)
    return inspect.cleandoc(doc) if isinstance(doc, str) else ""


def is_sentence(doc: str) -> bool:
    summary = doc.split("\n\n")[0].strip()
    return len(summary.split()) >= 2 and bool(re.search(r"[.?!](\s|$)", summary))


EXPORTED = dict(exported())
MEMBERS = dict(members())


@pytest.mark.parametrize("name", sorted(EXPORTED))
def test_exported_names_have_a_docstring(name: str) -> None:
    doc = own_doc(EXPORTED[name])
    assert doc, f"{name} has no docstring of its own"
    assert is_sentence(doc), f"{name}: docstring {doc!r} is not a sentence"


@pytest.mark.parametrize("name", sorted(MEMBERS))
def test_public_methods_have_a_docstring(name: str) -> None:
    doc = own_doc(MEMBERS[name])
    assert doc, f"{name} has no docstring"
    assert is_sentence(doc), f"{name}: docstring {doc!r} is not a sentence"


def test_the_check_sees_what_it_should() -> None:
    """Guards against a test that silently checks nothing."""
    assert {"porlab.Program", "porlab.explore", "porlab.Trace", "porlab.InputError",
            "porlab.traces", "porlab.trace_frame"} <= set(EXPORTED)
    assert {"Program.var", "Program.threads", "Thread.load", "Thread.if_", "Thread.await_",
            "Result.traces_explored", "Loop.break_if"} <= set(MEMBERS)
    assert not is_sentence("")
    assert not is_sentence("Undocumented")
    assert is_sentence("Read a shared location into a new register.")
    assert own_doc(type("C", (ValueError,), {})) == ""  # inherited docs do not count


def test_help_renders() -> None:
    for obj in (porlab, porlab.Program, porlab.Thread, iterate.traces, frames.trace_frame):
        text = inspect.getdoc(obj) or ""
        assert len(text) > 20
