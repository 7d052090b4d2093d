"""`porlab explorers`: fits a 100-column terminal; `--options` documents every option."""

from __future__ import annotations

from conftest import run_cli

import porlab
from porlab.cli import render_explorers

# The registry's option shape (porlab.explorers()[i]["options"]): dicts with a name, a doc, a
# default and the allowed values (None: any value). Older registries give bare names.
STUB = [
    {"name": "alpha", "equivalence": "mazurkiewicz", "optimal": True, "ifaa": True,
     "description": "a long description " * 12,
     "options": [{"name": "mode", "doc": "how to run " * 15, "default": "fast",
                  "values": ["fast", "slow"]},
                 {"name": "depth", "doc": "the depth bound", "default": 0, "values": None}]},
    {"name": "beta", "equivalence": "rvf", "optimal": False, "ifaa": False,
     "description": "short", "options": ["legacy"]},
    {"name": "gamma", "equivalence": "reads-from", "optimal": False, "ifaa": False,
     "description": "no options", "options": []},
]  # fmt: skip


def test_every_line_fits_the_width():
    for width in (100, 80, 60):
        for options in (False, True):
            text = render_explorers(STUB, width, options=options)
            too_long = [line for line in text.splitlines() if len(line) > width]
            assert not too_long, (width, too_long)
    # Wrapping loses no word of a description.
    text = render_explorers(STUB, 60)
    assert " ".join(text.split()).count("a long description") == 12


def test_options_show_values_defaults_and_docs():
    text = " ".join(render_explorers(STUB, 100, options=True).split())
    assert ("-o mode=fast|slow: " + ("how to run " * 15).strip() + "; default fast") in text
    assert "-o depth=VALUE: the depth bound; default 0" in text
    assert "[optimal] --ifaa (Python: ifaa=True): fetch-and-adds whose results" in text
    assert text.count("--ifaa") == 1  # alpha supports IFAA, beta and gamma do not
    assert "-o legacy=VALUE: (not documented by the registry)" in text  # a bare name
    assert "gamma reads-from no options options: none" in text
    assert "-o mode" not in " ".join(render_explorers(STUB, 100).split())


def _builtin() -> list[dict]:
    """The explorers a fresh `porlab` process has (not those tests registered in Python)."""
    return [e for e in porlab.explorers() if not e.get("plugin")]


def test_cli_explorers_fit_100_columns(monkeypatch):
    # A wider terminal still gets 100 columns at most (and a narrower one, its width).
    for columns, limit in (("250", 100), ("100", 100), ("72", 72)):
        monkeypatch.setenv("COLUMNS", columns)
        for args in (["explorers"], ["explorers", "--options"]):
            proc = run_cli(*args)
            assert proc.returncode == 0, proc.stderr
            lines = proc.stdout.splitlines()
            assert max(map(len, lines)) <= limit, max(lines, key=len)
            for e in _builtin():
                assert any(line.startswith(e["name"] + " ") for line in lines), e["name"]
    # Every option the registry declares appears under --options.
    text = proc.stdout
    for e in _builtin():
        for o in e["options"]:
            name = o["name"] if isinstance(o, dict) else o
            assert f"-o {name}=" in text, name
