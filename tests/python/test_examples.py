"""Every program in examples/ follows the file convention, loads and explores quickly."""

from __future__ import annotations

import ast
import inspect
import runpy
from pathlib import Path

import pytest
from conftest import EXAMPLES

import porlab

FILES = sorted(EXAMPLES.glob("*.py"))
TESTS = Path(__file__).resolve().parent


def test_there_are_examples():
    names = {f.stem for f in FILES}
    assert {"rvf_fig1", "rvf_fig6", "godot_fig5", "lapor_fib_bench", "litmus_iriw"} <= names
    assert len(FILES) >= 26


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_example_convention(path: Path):
    doc = ast.get_docstring(ast.parse(path.read_text()))
    assert doc, f"{path.name} has no module docstring"
    # The docstring cites its source: a paper figure/program or a litmus test.
    assert any(w in doc for w in ("paper", "Figure", "Litmus test")), doc.splitlines()[0]
    ns = runpy.run_path(str(path))
    assert isinstance(ns["program"], porlab.Program)
    build = ns["build"]
    for prm in inspect.signature(build).parameters.values():
        assert prm.default is not inspect.Parameter.empty, f"build({prm.name}) needs a default"
    assert isinstance(build(), porlab.Program)


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_example_loads_and_explores(path: Path):
    prog = porlab.load_program(str(path))
    r = porlab.explore(prog, "naive", max_seconds=20)
    assert not r.budget_exceeded
    assert r.traces_explored > 0
    assert r.seconds < 10
    # Only the examples with an assertion that can fail report errors (nww-rr without locks,
    # fib_bench with check=True); their defaults do not.
    assert r.errors == 0, r.first_error


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_example_counts_are_pinned(path: Path):
    # The numbers each docstring states are checked in the test modules (mostly
    # test_partition.py): every example must be used by one of them.
    text = "".join(f.read_text() for f in TESTS.glob("test_*.py") if f.name != Path(__file__).name)
    assert f'"{path.stem}"' in text, f"{path.stem} is not checked by any test module"


def test_parameters_reach_build():
    a = porlab.load_program(str(EXAMPLES / "rvf_fig13c.py"), n=2)
    b = porlab.load_program(str(EXAMPLES / "rvf_fig13c.py"), n=4)
    assert len(a.threads) == 2 and len(b.threads) == 4
    with pytest.raises(porlab.InputError, match="variant"):
        porlab.load_program(str(EXAMPLES / "godot_fig2.py"), variant="spin")
