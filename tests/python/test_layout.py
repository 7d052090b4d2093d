"""The source tree keeps its layers (../shared/DESIGN.md): only the C front end (cpp/porlab/llvm/)
and its bindings (cpp/bindings/bind_llvm.cpp) include LLVM or clang headers, so that the core,
the interpreter of program/ and the explorers build with -DPORLAB_WITH_LLVM=OFF; and the
interpreter and the front end stay in files a reader can hold (about 800 lines at most)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CPP = ROOT / "cpp"
LLVM_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"](llvm|clang|llvm-c)/', re.MULTILINE)
MAX_LINES = 800
# Known exceptions, each with the most lines it may have (none now: LocalSteps.cpp's switch
# gave its built-in functions to LocalBuiltins.cpp).
EXCEPTIONS: dict[str, int] = {}


def sources(*dirs: Path) -> list[Path]:
    return sorted(p for d in dirs for p in d.rglob("*") if p.suffix in (".hpp", ".cpp"))


def test_no_llvm_include_outside_the_front_end() -> None:
    allowed = {CPP / "bindings" / "bind_llvm.cpp"}
    offenders = [
        str(p.relative_to(ROOT))
        for p in sources(CPP)
        if p not in allowed
        and (CPP / "porlab" / "llvm") not in p.parents
        and LLVM_INCLUDE.search(p.read_text())
    ]
    assert offenders == []


def test_the_pattern_finds_llvm_includes() -> None:
    # the check above must not pass because its pattern matches nothing
    lower = (CPP / "porlab" / "llvm" / "Lowerer.hpp").read_text()
    assert LLVM_INCLUDE.search(lower)
    assert not LLVM_INCLUDE.search('#include "porlab/llvm/CProgram.hpp"\n')


def test_interpreter_and_front_end_files_are_short() -> None:
    long = {
        str(p.relative_to(ROOT)): n
        for p in sources(CPP / "porlab" / "program", CPP / "porlab" / "llvm")
        if (n := len(p.read_text().splitlines()))
        > EXCEPTIONS.get(p.relative_to(ROOT).as_posix(), MAX_LINES)
    }
    assert long == {}
