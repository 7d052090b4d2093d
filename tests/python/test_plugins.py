"""Explorers written in Python (issue 20): registered with porlab.register_explorer, they are
listed, run through explore (budgets, Ctrl-C, typed options), from the CLI (--plugin), in bench
suites, and porlab.testing.check_registered holds them to the oracle of their equivalence."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli

import porlab
from porlab.testing import ProgramDesc, build_program, check_registered

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = ROOT / "examples" / "plugins" / "source_dpor.py"
EXAMPLES = ROOT / "examples"


@pytest.fixture(scope="module", autouse=True)
def py_source() -> None:
    porlab.load_plugin(str(PLUGIN))


def _example(name: str) -> porlab.Program:
    return porlab.load_program(str(EXAMPLES / f"{name}.py"))


def test_registered_explorer_is_listed_and_runs() -> None:
    info = next(e for e in porlab.explorers() if e["name"] == "py-source")
    assert info["plugin"] and info["equivalence"] == "mazurkiewicz" and info["ifaa"]
    assert not next(e for e in porlab.explorers() if e["name"] == "source")["plugin"]
    for name in ("litmus_sb", "rvf_fig1", "godot_fig5"):
        prog = _example(name)
        mine = porlab.explore(prog, "py-source")
        ref = porlab.explore(prog, "source")
        assert mine.explorer == "py-source"
        assert mine.outcomes == ref.outcomes, name
        assert (mine.complete, mine.blocked, mine.errors) == (ref.complete, ref.blocked,
                                                              ref.errors), name


def test_budgets_and_interrupts_stop_a_python_explorer() -> None:
    prog = _example("rvf_fig1")
    r = porlab.explore(prog, "py-source", max_traces=3)
    assert r.budget_exceeded and r.budget_reason == "traces" and r.traces_explored == 3

    calls = []

    def interrupt(p: Any) -> None:
        calls.append(p)
        raise KeyboardInterrupt

    # 14400 traces, seconds of Python: the first progress call (within 0.05 s) interrupts it.
    big = porlab.load_program(str(EXAMPLES / "rvf_fig13c.py"), n=5)
    with pytest.raises(porlab.Interrupted) as e:
        porlab.explore(big, "py-source", progress=interrupt, progress_seconds=0.0)
    assert calls and e.value.result.interrupted
    assert e.value.result.traces_explored < 14400


def test_python_explorer_options_are_typed() -> None:
    @porlab.register_explorer(
        "py-echo", equivalence="interleavings",
        options=[porlab.option("depth", "int", 2, "a bound", min=1, max=5),
                 porlab.option("fast", "bool", True, "a switch")])
    def echo(program: Any, run: Any) -> None:
        run.set_stat("depth", run.options["depth"])
        run.set_stat("fast", 1.0 if run.options["fast"] is True else 0.0)

    prog = _example("litmus_sb")
    assert porlab.explore(prog, "py-echo").stats == {"depth": 2.0, "fast": 1.0}
    assert porlab.explore(prog, "py-echo", depth=5, fast=False).stats == {"depth": 5.0,
                                                                          "fast": 0.0}
    for bad in ({"depth": 6}, {"depth": "3"}, {"fast": "nope"}, {"fast": 0}, {"deep": 1}):
        with pytest.raises(porlab.InputError):
            porlab.explore(prog, "py-echo", **bad)
    with pytest.raises(porlab.InputError, match="built in"):
        porlab.register_explorer("optimal", echo, equivalence="mazurkiewicz")
    with pytest.raises(porlab.InputError, match="equivalence must be one of"):
        porlab.register_explorer("py-bad", echo, equivalence="sequential")


@pytest.mark.parametrize("shard", range(3))
def test_python_source_dpor_conforms(shard: int) -> None:
    assert check_registered("py-source", examples=25, seed=20261124 + shard) > 0


def test_a_wrong_explorer_is_caught_with_a_minimal_program() -> None:
    @porlab.register_explorer("py-first-only", equivalence="mazurkiewicz", optimal=True)
    def first_only(program: Any, run: Any) -> None:
        ex = program.new_execution()
        events = run.replay(ex, [])
        while not ex.failed and ex.enabled_threads():
            events += run.step(ex, ex.enabled_threads()[0])
        run.maximal(ex, events)

    with pytest.raises(AssertionError, match=r"py-first-only does not conform") as e:
        check_registered("py-first-only", examples=30, seed=1)
    # Hypothesis shrinks it to a small program, printed as builder code that rebuilds it.
    source = str(e.value).split("the program\n    ", 1)[1].split(":", 1)[0]
    assert source.startswith("porlab.testing.build_program(ProgramDesc(")
    desc = eval(source.removeprefix("porlab.testing.build_program(")[:-1],
                {"ProgramDesc": ProgramDesc})
    assert sum(len(t) for t in desc.threads) <= 3
    prog = build_program(desc)
    assert porlab.explore(prog, "py-first-only").complete < porlab.explore(
        prog, "optimal").complete


def test_cli_plugin() -> None:
    listed = run_cli("explorers", "--plugin", str(PLUGIN))
    assert listed.returncode == 0 and "py-source" in listed.stdout
    r = run_cli("explore", "examples/litmus_sb.py", "--plugin", str(PLUGIN), "-e", "py-source",
                "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["explorer"] == "py-source" and d["complete"] == porlab.explore(
        _example("litmus_sb"), "source").complete
    missing = run_cli("explore", "examples/litmus_sb.py", "--plugin", "nope.py")
    assert missing.returncode == 2 and "no such plugin file" in missing.stderr


def test_bench_suite_runs_a_python_explorer(tmp_path: Path) -> None:
    from porlab import bench

    suite = tmp_path / "plugin.toml"
    suite.write_text(f'''
root = "{ROOT}"
timeout = 60
explorers = ["source", {{ name = "py-source", plugin = "examples/plugins/source_dpor.py" }}]
[[programs]]
path = "examples/litmus_sb.py"
''')
    out = tmp_path / "r.jsonl"
    sweep = bench.run_suite(bench.load_suite(suite), str(out), jobs=1, progress=False)
    assert sweep.failed == 0
    rows = {r["explorer"]: r for r in map(json.loads, out.read_text().splitlines())}
    assert rows["py-source"]["status"] == "ok", rows["py-source"]
    assert rows["py-source"]["complete"] == rows["source"]["complete"]
