"""The committed stub python/porlab/_core.pyi matches the extension module porlab._core.

Drift in either direction fails: a function, class, constant, method or property bound in C++
but missing from the stub (type checkers would reject correct code), or one in the stub that
the module does not have (they would accept code that fails at run time). The stub is parsed
with ``ast``; the module is inspected with ``vars()``, class by class, so that inherited
members are compared where they are defined. Regenerate a draft with
``pybind11-stubgen porlab._core`` and merge it by hand (the stub has cleaner types).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import porlab
from porlab import _core

STUB = Path(porlab.__file__).with_name("_core.pyi")

# Module attributes every extension module has, which a stub does not declare.
MODULE_NOISE = {"__doc__", "__file__", "__loader__", "__name__", "__package__", "__spec__"}


def _parse_stub() -> ast.Module:
    return ast.parse(STUB.read_text(encoding="utf-8"), filename=str(STUB))


def _names_in(body: list[ast.stmt]) -> set[str]:
    """Names a stub body defines: functions, classes, annotated and plain assignments."""
    names: set[str] = set()
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


def _public(name: str) -> bool:
    return not name.startswith("_")


def _stub_module_names() -> set[str]:
    return {n for n in _names_in(_parse_stub().body) if _public(n) or n == "__version__"}


def _runtime_module_names() -> set[str]:
    return {n for n in dir(_core) if _public(n) or n == "__version__"} - MODULE_NOISE


def _stub_classes() -> dict[str, ast.ClassDef]:
    return {n.name: n for n in _parse_stub().body if isinstance(n, ast.ClassDef)}


def _runtime_classes() -> dict[str, type]:
    return {n: v for n, v in vars(_core).items() if isinstance(v, type) and _public(n)}


def _runtime_members(cls: type) -> set[str]:
    """Public members a class defines itself, plus the special methods bound in C++
    (``__len__``, ``__getitem__``, ``__eq__``, a real ``__init__``, ...). pybind11 gives every
    class an ``__init__``; one that only raises "No constructor defined" is a slot wrapper,
    not a bound function, and is left out (the stub must not promise a constructor)."""
    out = set()
    for name, value in vars(cls).items():
        if _public(name) or (
            name.startswith("__")
            and name.endswith("__")
            and type(value).__name__ in ("instancemethod", "builtin_function_or_method")
        ):
            out.add(name)
    return out


def _stub_members(node: ast.ClassDef) -> set[str]:
    return {n for n in _names_in(node.body) if _public(n) or n.startswith("__")}


def test_the_stub_parses_and_sits_next_to_py_typed() -> None:
    assert STUB.is_file()
    assert STUB.with_name("py.typed").is_file()
    _parse_stub()


def test_module_level_names_match() -> None:
    stub, runtime = _stub_module_names(), _runtime_module_names()
    assert not runtime - stub, f"bound in porlab._core but missing from the stub: {runtime - stub}"
    assert not stub - runtime, f"in the stub but not in porlab._core: {stub - runtime}"


@pytest.mark.parametrize("name", sorted(_runtime_classes()))
def test_class_members_match(name: str) -> None:
    cls = _runtime_classes()[name]
    node = _stub_classes().get(name)
    assert node is not None, f"class {name} is missing from the stub"
    stub, runtime = _stub_members(node), _runtime_members(cls)
    assert not runtime - stub, f"{name}: bound but missing from the stub: {runtime - stub}"
    assert not stub - runtime, f"{name}: in the stub but not bound: {stub - runtime}"


@pytest.mark.parametrize("name", sorted(_runtime_classes()))
def test_class_bases_match(name: str) -> None:
    cls = _runtime_classes()[name]
    node = _stub_classes()[name]
    stub_bases = [ast.unparse(b) for b in node.bases]
    runtime_bases = [
        b.__name__ for b in cls.__bases__ if b is not object and b.__name__ != "pybind11_object"
    ]
    assert stub_bases == runtime_bases


def test_properties_are_properties_and_methods_are_methods() -> None:
    """A property in C++ is a @property in the stub, and a method is a plain def (else
    ``trace.events()`` or ``trace.reads_from`` would type-check)."""
    problems = []
    for name, node in _stub_classes().items():
        cls = _runtime_classes()[name]
        for fn in node.body:
            if not isinstance(fn, ast.FunctionDef) or fn.name not in vars(cls):
                continue
            stub_prop = any(ast.unparse(d) == "property" for d in fn.decorator_list)
            runtime_prop = isinstance(vars(cls)[fn.name], property)
            if stub_prop != runtime_prop:
                problems.append(f"{name}.{fn.name}")
    assert not problems, f"property/method mismatch: {problems}"


def test_stub_is_strict_about_what_it_checks() -> None:
    """The comparison itself sees a known member on each side (guards against a checker that
    silently compares empty sets)."""
    assert {"events", "reads_from", "__len__", "__getitem__"} <= _runtime_members(_core.Trace)
    assert "__init__" not in _runtime_members(_core.Trace)
    assert "__init__" in _runtime_members(_core.ClassCounter)
    assert {"explore", "Trace", "EQUIVALENCES", "__version__"} <= _stub_module_names()
