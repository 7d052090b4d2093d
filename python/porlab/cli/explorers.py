"""``porlab explorers`` (the registered explorers, their guarantees and options) and
``porlab disasm``."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any

from porlab.api import (
    EXIT_OK,
    explorers,
    load_program,
)
from porlab.errors import InputError


def _terminal_width() -> int:
    """The width to wrap to: the terminal's (``COLUMNS``), at most 100, at least 60."""
    import shutil

    return max(60, min(100, shutil.get_terminal_size((100, 24)).columns))


def _option_fields(opt: Any) -> dict[str, Any]:
    """An explorer option as ``{"name", "doc", "default", "values"}``: the registry gives
    dicts of that shape, or (older registries) bare names."""
    if isinstance(opt, dict):
        return {"name": str(opt.get("name", "")), "doc": str(opt.get("doc") or "").strip(),
                "default": opt.get("default"), "values": opt.get("values"),
                "type": opt.get("type"), "min": opt.get("min"), "max": opt.get("max")}
    return {"name": str(opt), "doc": "", "default": None, "values": None, "type": None,
            "min": None, "max": None}


def render_explorers(ex: Sequence[dict[str, Any]], width: int = 100,
                     options: bool = False) -> str:
    """The ``porlab explorers`` text: one block per explorer, its name and equivalence, the
    description wrapped to ``width`` columns; with ``options``, every option of the explorer
    (``-o NAME=VALUE``, Python keyword) with its values, default and documentation."""
    import textwrap

    name_w = max([len(e["name"]) for e in ex] + [8]) + 2
    eq_w = max([len(str(e["equivalence"])) for e in ex] + [11]) + 2
    indent = " " * (name_w + eq_w)
    out = ["name".ljust(name_w) + "equivalence".ljust(eq_w) + "description",
           "-" * min(width, 100)]
    for e in ex:
        first = e["name"].ljust(name_w) + str(e["equivalence"]).ljust(eq_w)
        desc = str(e.get("description", ""))
        if e.get("optimal"):
            desc += " [optimal]"
        out += textwrap.wrap(desc, width, initial_indent=first, subsequent_indent=indent,
                             break_on_hyphens=False) or [first.rstrip()]
        if not options:
            continue
        opts = [_option_fields(o) for o in e.get("options") or []]
        if not opts and not e.get("ifaa"):
            out.append(indent + "options: none")
        if e.get("ifaa") and not any(o["name"] == "ifaa" for o in opts):
            out += textwrap.wrap("--ifaa (Python: ifaa=True): fetch-and-adds whose results are "
                                 "unused commute (IFAA)", width, initial_indent=indent,
                                 subsequent_indent=indent + "    ")
        for o in opts:
            if o["values"]:
                shape = "|".join(map(str, o["values"]))
            elif o["type"] == "bool":
                shape = "true|false"
            elif o["type"] == "int":
                shape = "N"
            else:
                shape = "VALUE"
            head = f"-o {o['name']}=" + shape
            facts = [o["doc"] or "(not documented by the registry)"]
            if o["type"] == "int" and (o["min"] is not None or o["max"] is not None):
                lo = "" if o["min"] is None else f"{o['min']}"
                hi = "" if o["max"] is None else f"{o['max']}"
                facts.append(f"N in {lo}..{hi}")
            if o["default"] not in (None, ""):
                d = o["default"]
                facts.append(f"default {str(d).lower() if isinstance(d, bool) else d}")
            out += textwrap.wrap(f"{head}: " + "; ".join(facts), width,
                                 initial_indent=indent, subsequent_indent=indent + "    ",
                                 break_on_hyphens=False)
    if options:
        out += ["", *textwrap.wrap("-o NAME=VALUE on the command line is the keyword "
                                   "NAME=VALUE of porlab.explore() in Python.", width)]
    return "\n".join(out)


def _guarantee(e: dict[str, Any]) -> str:
    """How many complete traces per class of its equivalence an explorer reports."""
    eq = str(e["equivalence"])
    if eq == "interleavings":
        return "interleaving"
    covers, unique = bool(e.get("covers_classes")), bool(e.get("non_redundant"))
    if e.get("optimal") or (covers and unique):
        return f"{eq} class"
    if covers:
        return f"≥ 1 per {eq} class"
    if unique:
        return f"≤ 1 per {eq} class"
    return f"any number per {eq} class"


def explorer_table(ex: Sequence[dict[str, Any]] | None = None) -> str:
    """The README's explorer table (Markdown), generated from the registry: name, what one
    complete trace stands for (the equivalence and the guarantees the registration declares),
    IFAA, options, and the description up to its first clause."""
    rows = ["| explorer | one complete trace per | IFAA | options | what it is |",
            "|---|---|---|---|---|"]
    for e in explorers() if ex is None else ex:
        if e.get("plugin"):
            continue
        desc = str(e.get("description", "")).split("; ")[0].replace("|", "\\|")
        opts = ", ".join(f"`{_option_fields(o)['name']}`" for o in e.get("options") or [])
        rows.append(f"| `{e['name']}` | {_guarantee(e)} | {'yes' if e.get('ifaa') else ''} | "
                    f"{opts} | {desc} |")
    return "\n".join(rows)


def cmd_explorers(args: argparse.Namespace) -> int:
    ex = explorers()
    if args.json:
        print(json.dumps(ex, indent=2))
    else:
        print(render_explorers(ex, _terminal_width(), options=args.options))
        if not args.options:
            print("\nporlab explorers --options: every explorer's options")
    return EXIT_OK


def cmd_disasm(args: argparse.Namespace) -> int:
    """``porlab disasm FILE``: a program's decoded form (what the interpreter runs): a Python
    program's as lowered, a C/C++ program's after the loop transformations (with ``porlab run``'s
    loading flags)."""
    from porlab.cli.common import _is_c_file

    if _is_c_file(args.file):
        from porlab.cfront import disassemble_c
        from porlab.cli.run import load_c_from_args

        if args.param:
            raise InputError("disasm: -p NAME=VALUE is for Python programs; a C program takes -D")
        print(disassemble_c(load_c_from_args(args)), end="")
        return EXIT_OK
    print(load_program(args.file, **dict(args.param or [])).disassemble(), end="")
    return EXIT_OK
