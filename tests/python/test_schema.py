"""The typed option schema (issue 17): options declared once, in the registration of an
explorer and in the loading schema, give the Python keywords (real bools and ints, checked), the
CLI flags and their help, and what `porlab explorers --options` lists; the README's explorer
table is generated from the registry."""

from __future__ import annotations

import inspect
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import run_cli

import porlab
from porlab import _core
from porlab.cfront import LOAD_SCHEMA, has_c_frontend
from porlab.options import OptionSpec, load_schema

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
needs_c = pytest.mark.skipif(not has_c_frontend(), reason="built without the C front end")


def _info(name: str) -> dict:
    return next(e for e in porlab.explorers() if e["name"] == name)


def test_registry_declares_typed_options() -> None:
    can_stop = next(o for o in _info("optimal")["options"] if o["name"] == "can_stop")
    assert can_stop["type"] == "bool" and can_stop["default"] is True
    zne = next(o for o in _info("graph")["options"] if o["name"] == "zne")
    assert zne["type"] == "enum" and zne["default"] == "strict"
    assert zne["values"] == ["strict", "paper", "off"]
    for e in porlab.explorers():
        for o in e["options"]:
            spec = OptionSpec.from_dict(o)  # every default has its declared type
            assert spec.doc, (e["name"], o["name"])


def test_wrong_types_and_ranges_are_input_errors() -> None:
    prog = porlab.load_program(str(EXAMPLES / "litmus_sb.py"))
    for bad in (0, 1, None, "maybe", ""):
        with pytest.raises(porlab.InputError, match="option 'can_stop' is a bool"):
            porlab.explore(prog, "optimal", can_stop=bad)
    with pytest.raises(porlab.InputError, match="option 'coherence' must be one of wb, mo"):
        porlab.explore(prog, "lapor", coherence="sc")
    with pytest.raises(porlab.InputError, match=r"no option 'can_stop' \(options: zne\)"):
        porlab.explore(prog, "naive", can_stop=True)
    assert porlab.explore(prog, "optimal", can_stop=False).complete == 3


def _await_heavy() -> porlab.Program:
    """Threads that increment a counter under a lock and a thread that awaits it: awaits whose
    enablers conflict with each other, where Godot's can-stop scan ends early."""
    p = porlab.Program("can_stop")
    x = p.var("x", 0)
    y = p.var("y", 0)
    m = p.mutex("m")
    for i in range(3):
        t = p.thread(f"w{i}")
        t.lock(m)
        t.fetch_add(x, 1)
        t.unlock(m)
        t.store(y, i)
    a = p.thread("a")
    a.await_(x, ">=", 2)
    a.load(y)
    return p


def test_can_stop_false_reaches_the_engine() -> None:
    """can_stop=False must reach the DPOR engine as false: the engine then scans every enabler
    of a blocked await, which its statistics show (the traces are the same)."""
    prog = _await_heavy()
    on = porlab.explore(prog, "optimal-await", can_stop=True)
    off = porlab.explore(prog, "optimal-await", can_stop=False)
    default = porlab.explore(prog, "optimal-await")
    assert (on.complete, on.blocked) == (off.complete, off.blocked)
    assert dict(on.stats) == dict(default.stats)
    assert dict(on.stats) != dict(off.stats)
    # The text "False" (a CLI or suite file's spelling) is false, not a truthy string.
    assert dict(porlab.explore(prog, "optimal-await", can_stop="False").stats) == dict(off.stats)
    # The command line's generated flag and -o reach it the same way.
    path = ROOT / "examples" / "godot_fig5.py"
    flag = run_cli("explore", str(path), "-e", "optimal-await", "--no-can-stop", "--json")
    opt = run_cli("explore", str(path), "-e", "optimal-await", "-o", "can_stop=off", "--json")
    assert flag.returncode == opt.returncode == 0, flag.stderr + opt.stderr
    bad = run_cli("explore", str(path), "-e", "optimal-await", "-o", "can_stop=maybe")
    assert bad.returncode == 2 and "is a bool" in bad.stderr


def test_explorers_options_lists_the_schema() -> None:
    text = " ".join(run_cli("explorers", "--options").stdout.split())
    assert "-o can_stop=true|false:" in text
    assert "-o zne=strict|paper|off:" in text
    assert "default true" in text


def test_load_c_keywords_take_the_schema_defaults() -> None:
    sig = inspect.signature(porlab.load_c)
    for name, spec in LOAD_SCHEMA.items():
        if name in sig.parameters and spec.type != "string":
            assert sig.parameters[name].default == spec.default, name
    assert LOAD_SCHEMA["max_threads"].max == 64
    assert [s.name for s in load_schema()][:2] == ["unroll", "loops"]


@needs_c
def test_load_c_checks_types_and_ranges() -> None:
    src = "int main(void) { return 0; }"
    for kw in ({"max_threads": 65}, {"max_threads": True}, {"unroll": "3"},
               {"max_locations": -1}, {"max_execution_events": 0}, {"loops": "fast"},
               {"deadlock_is_error": 1}):
        with pytest.raises(porlab.InputError, match=f"load_c: {next(iter(kw))}"):
            porlab.load_c_source(src, **kw)


def test_run_flags_and_help_come_from_the_schema() -> None:
    text = " ".join(run_cli("run", "--help").stdout.split())
    for spec in load_schema():
        if spec.name == "deadlock_is_error":
            assert "--deadlock-blocked" in text
            continue
        assert spec.flag in text, spec.flag
        assert " ".join(spec.doc.split())[:40] in text, spec.name
    assert "--no-can-stop" in text and "--coherence" in text
    bad = run_cli("run", "tests/c/litmus_sb.c", "--max-threads", "65")
    assert bad.returncode == 2 and "between 1 and 64" in bad.stderr


def test_readme_explorer_table_is_current() -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "explorer_table.py"),
                           "--check"], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    readme = (ROOT / "README.md").read_text()
    for e in _core.explorers():
        if not e["plugin"]:
            assert f"| `{e['name']}` |" in readme, e["name"]
