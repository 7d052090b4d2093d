"""What the commands of the ``porlab`` command line share: parameters, option values,
program loading, tables and output."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from porlab.api import (
    explorers,
    load_program,
    parse_size,
)
from porlab.errors import InputError
from porlab.options import OptionSpec

EXIT_CODES_HELP = (
    "exit codes: 0 the exploration was exhausted and found no violation; 42 a violation was "
    "found; 2 bad input or an unsupported program; 3 no violation found, but the exploration "
    "was not exhausted (a budget, an execution cut, a thread or location limit: the counts are "
    "partial); 130 interrupted by Ctrl-C (the partial counts are printed)"
)

#: Suffixes of files `porlab run` compiles (C, preprocessed C, C++).
C_SUFFIXES = (".c", ".i", ".h", ".cc", ".cpp", ".cxx", ".c++", ".ii")


def _param(text: str) -> tuple[str, Any]:
    if "=" not in text:
        raise argparse.ArgumentTypeError(f"parameter '{text}' is not NAME=VALUE")
    k, v = text.split("=", 1)
    val: Any = v
    for conv in (int, float):
        try:
            val = conv(v)
            break
        except ValueError:
            continue
    if v in ("true", "false", "True", "False"):
        val = v.lower() == "true"
    return k.strip(), val


def _raw_param(text: str) -> tuple[str, str]:
    """-o NAME=VALUE: the value stays text until the chosen explorer's schema parses it."""
    if "=" not in text:
        raise argparse.ArgumentTypeError(f"option '{text}' is not NAME=VALUE")
    k, v = text.split("=", 1)
    return k.strip(), v


def _explorer_options(args: argparse.Namespace) -> dict[str, Any]:
    """The explorer options of the command line (-o NAME=VALUE and the generated flags such as
    --no-can-stop), typed by the chosen explorer's schema."""
    info = next((e for e in explorers() if e["name"] == args.explorer), None)
    given: dict[str, Any] = dict(args.option or [])
    for key, value in vars(args).items():
        if key.startswith("xopt_") and value is not None:
            given[key[len("xopt_"):]] = value
    if info is None:
        return given
    specs = {o["name"]: OptionSpec.from_dict(o) for o in info["options"]}
    owner = f"explorer '{args.explorer}'"
    out: dict[str, Any] = {}
    for name, value in given.items():
        spec = specs.get(name)
        if spec is None:
            known = ", ".join(specs)
            raise InputError(f"{owner} has no option '{name}'"
                             + (f" (options: {known})" if known else " (it takes none)"))
        out[name] = spec.parse(value, owner) if isinstance(value, str) else spec.check(value,
                                                                                       owner)
    return out


def _size(text: str) -> int:
    try:
        return parse_size(text)
    except InputError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _fmt_table(rows: list[list[str]], header: list[str]) -> str:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]

    def line(r: list[str]) -> str:
        return "  ".join(
            str(c).ljust(w) if i == 0 else str(c).rjust(w)
            for i, (c, w) in enumerate(zip(r, widths, strict=True))
        )

    return "\n".join([line(header), "  ".join("-" * w for w in widths), *map(line, rows)])


def _kinds_text(c: int, b: int, e: int) -> str:
    s = str(c)
    if b:
        s += f"+{b}"
    if e:
        s += f" ({e} err)"
    return s


def _is_c_file(path: str) -> bool:
    return Path(path).suffix.lower() in C_SUFFIXES


def _progress(args: argparse.Namespace) -> bool | None:
    """--progress forces the live line, -q silences it; by default it shows on a terminal."""
    if getattr(args, "quiet", False):
        return None
    if getattr(args, "progress", False):
        from porlab.progress import _TerminalLine

        line = _TerminalLine(sys.stderr)
        return _ForcedProgress(line)  # type: ignore[return-value]
    return True


class _ForcedProgress:
    """A progress callback that writes to stderr even when it is not a terminal (--progress),
    one line per update (a pipe shows every line)."""

    def __init__(self, line: Any) -> None:
        self.line = line

    def __call__(self, p: Any) -> None:
        from porlab.progress import format_progress

        try:
            sys.stderr.write("porlab: " + format_progress(p) + "\n")
            sys.stderr.flush()
        except (OSError, ValueError):
            pass


def _load_any(path: str, params: dict[str, Any]) -> Any:
    """A program file for partition/explore: Python (defining `program` or `build`), or a C/C++
    file (compiled as `porlab run` would, with -p NAME=VALUE as -D macros)."""
    if os.path.isdir(path):
        raise InputError(f"{path}: is a directory, not a program file")
    if _is_c_file(path):
        from porlab.cfront import load_c

        return load_c(path, defines={k: v for k, v in params.items()})
    return load_program(path, **params)




def _emit(text: str) -> None:
    print(text)
