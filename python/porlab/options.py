"""The typed option schema, on the Python side.

Every option of an explorer is declared once, in its registration (C++ ``Registry.cpp``, or
:func:`porlab.register_explorer` for an explorer written in Python), and the options of loading
a C program once, in ``cLoadOptionSchema`` (``cpp/porlab/explore/Options.cpp``): name, type
(bool, int with a range, enum, string), default and documentation. From these declarations come
the keyword arguments' validation of :func:`porlab.explore` and :func:`porlab.load_c` (real
bools and ints: a wrong type or an out-of-range value is an :class:`~porlab.InputError`), the
command line's flags and their ``--help`` text, and what ``porlab explorers --options`` lists.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from porlab import _core
from porlab.errors import InputError

__all__ = ["OptionSpec", "check_options", "load_schema", "option_spec"]

TYPES = ("bool", "int", "enum", "string")
_TRUE = ("true", "on", "1", "yes")
_FALSE = ("false", "off", "0", "no")


@dataclass(frozen=True)
class OptionSpec:
    """One declared option: ``type`` is ``bool``, ``int`` (in ``[min, max]``; None: unbounded),
    ``enum`` (one of ``values``) or ``string``; ``default`` is a value of that type, or None when
    the option has none (e.g. ``unroll``: loops are not bounded unless it is given)."""

    name: str
    type: str
    default: Any
    doc: str = ""
    values: tuple[str, ...] | None = None
    min: int | None = None
    max: int | None = None

    def __post_init__(self) -> None:
        if self.type not in TYPES:
            raise InputError(f"option '{self.name}': type must be one of {', '.join(TYPES)}, "
                             f"not {self.type!r}")
        if self.type == "enum" and not self.values:
            raise InputError(f"option '{self.name}': an enum needs its values")
        if self.default is not None:
            self.check(self.default, "its default")

    @property
    def flag(self) -> str:
        """The command line's flag of the option (``max_threads`` -> ``--max-threads``)."""
        return "--" + self.name.replace("_", "-")

    def range_text(self) -> str:
        if self.type == "bool":
            return "true|false"
        if self.type == "enum":
            return "|".join(self.values or ())
        if self.type == "int":
            if self.min is not None and self.max is not None:
                return f"an integer in {self.min}..{self.max}"
            if self.min is not None:
                return f"an integer >= {self.min}"
            return "an integer"
        return "text"

    def check(self, value: Any, owner: str, *, quoted: bool = True) -> Any:
        """The value (typed) when it has the declared type and range, else an InputError naming
        ``owner`` and the option (``option 'NAME'``, or the bare name when not ``quoted``): a
        Python bool is not an int, an int is not a bool; a bool may also be given as one of the
        texts true/false/on/off/yes/no/1/0 (any case), which is parsed (never its truthiness)."""
        what = f"{owner}: option '{self.name}'" if quoted else f"{owner}: {self.name}"
        if self.type == "bool":
            if isinstance(value, str) and value.strip().lower() in _TRUE + _FALSE:
                # The text forms the command line and suite files use, parsed, never truthiness.
                return value.strip().lower() in _TRUE
            if not isinstance(value, bool):
                raise InputError(f"{what} is a bool (True or False), not {value!r}")
        elif self.type == "int":
            bounds = ""
            if self.min is not None and self.max is not None:
                bounds = f" between {self.min} and {self.max}"
            elif self.min is not None:
                bounds = f" >= {self.min}"
            if isinstance(value, bool) or not isinstance(value, int) or (
                    self.min is not None and value < self.min) or (
                    self.max is not None and value > self.max):
                raise InputError(f"{what} must be an int{bounds}, not {value!r}")
        elif self.type == "enum":
            if value not in (self.values or ()):
                raise InputError(f"{what} must be one of {', '.join(self.values or ())}, "
                                 f"not {value!r}")
        elif not isinstance(value, str):
            raise InputError(f"{what} is a string, not {value!r}")
        return value

    def parse(self, text: str, owner: str) -> Any:
        """The typed value of a command-line text (bools: true/false/on/off/1/0/yes/no)."""
        if self.type == "bool":
            t = text.strip().lower()
            if t in _TRUE:
                return True
            if t in _FALSE:
                return False
            raise InputError(f"{owner}: option '{self.name}' is a bool (true or false), "
                             f"not '{text}'")
        if self.type == "int":
            try:
                value = int(text)
            except ValueError:
                raise InputError(f"{owner}: option '{self.name}' is an integer, "
                                 f"not '{text}'") from None
            return self.check(value, owner)
        return self.check(text, owner)

    @staticmethod
    def text(value: Any) -> str:
        """The canonical text of a checked value (what the C++ registry parses)."""
        if isinstance(value, bool):
            return "true" if value else "false"
        return str(value)

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "type": self.type, "default": self.default, "doc": self.doc,
                "values": list(self.values) if self.values is not None else None,
                "min": self.min, "max": self.max}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> OptionSpec:
        """From the registry's dict (``porlab.explorers()[i]["options"][j]``)."""
        values = d.get("values")
        return cls(name=str(d["name"]), type=str(d.get("type", "string")),
                   default=d.get("default"), doc=str(d.get("doc") or ""),
                   values=tuple(values) if values is not None else None,
                   min=d.get("min"), max=d.get("max"))


def option_spec(name: str, type: str = "bool", default: Any = None, doc: str = "", *,
                values: Sequence[str] | None = None, min: int | None = None,
                max: int | None = None) -> OptionSpec:
    """Declare an option (for :func:`porlab.register_explorer`)."""
    return OptionSpec(name, type, default, doc, tuple(values) if values is not None else None,
                      min, max)


def load_schema() -> list[OptionSpec]:
    """The options of loading a C program (``load_c``'s keywords, ``porlab run``'s flags)."""
    return [OptionSpec.from_dict(d) for d in _core.c_load_option_schema()]


def check_options(schema: Iterable[OptionSpec], given: Mapping[str, Any],
                  owner: str) -> dict[str, str]:
    """Checks ``given`` (typed keyword values) against ``schema``; returns them as the texts the
    C++ registry parses. An unknown name or a value of the wrong type or range is an InputError."""
    specs = {s.name: s for s in schema}
    out: dict[str, str] = {}
    for name, value in given.items():
        spec = specs.get(name)
        if spec is None:
            known = ", ".join(specs) or "it takes none"
            raise InputError(f"{owner} has no option '{name}' ({'options: ' if specs else ''}"
                             f"{known})")
        out[name] = OptionSpec.text(spec.check(value, owner))
    return out


def help_text(spec: OptionSpec, *, with_default: bool = True) -> str:
    text = spec.doc.rstrip(".")
    if with_default and spec.default is not None:
        text += f" (default {OptionSpec.text(spec.default)})"
    return text


def add_load_arguments(parser: argparse.ArgumentParser) -> None:
    """``porlab run``'s flags of the loading options, from the schema: ``--NAME VALUE`` with the
    schema's type, range, default and documentation (``deadlock_is_error``, on by default, is
    turned off by ``--deadlock-blocked``, the flag porlab has always had)."""
    for spec in load_schema():
        if spec.name == "deadlock_is_error":
            parser.add_argument("--deadlock-blocked", dest="deadlock_is_error",
                                action="store_false",
                                help="count deadlocks as blocked executions instead of errors")
            continue
        kw: dict[str, Any] = {"dest": spec.name, "default": spec.default,
                              "help": help_text(spec)}
        if spec.type == "enum":
            kw["choices"] = list(spec.values or ())
        elif spec.type == "bool":
            kw["action"] = argparse.BooleanOptionalAction
        else:
            kw["type"] = _arg_type(spec)
            kw["metavar"] = {"int": "N", "string": "TEXT"}[spec.type]
            if spec.name == "nondet_domain":
                kw["metavar"] = "LO:HI"
        parser.add_argument(spec.flag, **kw)


def _arg_type(spec: OptionSpec) -> Any:
    def conv(text: str) -> Any:
        try:
            return spec.parse(text, spec.flag)
        except InputError as e:
            raise argparse.ArgumentTypeError(str(e)) from None
    conv.__name__ = spec.type
    return conv


def explorer_option_specs(explorers: Sequence[Mapping[str, Any]]) -> dict[str, list[tuple[
        str, OptionSpec]]]:
    """Per option name, the (explorer, spec) that declare it."""
    out: dict[str, list[tuple[str, OptionSpec]]] = {}
    for e in explorers:
        for o in e.get("options") or []:
            if isinstance(o, Mapping):
                out.setdefault(str(o["name"]), []).append((str(e["name"]),
                                                           OptionSpec.from_dict(o)))
    return out


def add_explorer_arguments(parser: argparse.ArgumentParser,
                           explorers: Sequence[Mapping[str, Any]]) -> list[str]:
    """One flag per explorer option (``--can-stop`` / ``--no-can-stop`` for a bool,
    ``--coherence mo`` for an enum, ...), documented from the schema with the explorers that
    take it; the value is checked against the chosen explorer's declaration when the run starts.
    Returns the option names that got a flag (a name whose flag another flag already has is
    left to ``-o NAME=VALUE``)."""
    group = parser.add_argument_group(
        "explorer options (porlab explorers --options; also -o NAME=VALUE)")
    added = []
    for name, decls in sorted(explorer_option_specs(explorers).items()):
        owners = ", ".join(e for e, _ in decls)
        first = decls[0][1]
        kinds = {(s.type, s.values) for _, s in decls}
        if len(kinds) == 1:
            text = f"{help_text(first)}; {owners}"
        else:
            text = "; ".join(f"{e}: {s.range_text()} (default {OptionSpec.text(s.default)})"
                             for e, s in decls) + f". {first.doc}"
        kw: dict[str, Any] = {"dest": f"xopt_{name}", "default": None,
                              "help": text.replace("%", "%%")}
        if len(kinds) == 1 and first.type == "bool":
            kw["action"] = argparse.BooleanOptionalAction
        else:
            kw["metavar"] = first.range_text().upper() if first.type != "enum" else (
                "|".join(sorted({v for _, s in decls for v in s.values or ()})))
        try:
            group.add_argument(first.flag, **kw)
        except argparse.ArgumentError:
            continue
        added.append(name)
    return added
