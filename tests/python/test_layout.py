"""The source tree keeps its layers (../shared/DESIGN.md): only the C front end (cpp/porlab/llvm/)
and its bindings (cpp/bindings/bind_llvm.cpp) include LLVM or clang headers, so that the core,
the interpreter of program/ and the explorers build with -DPORLAB_WITH_LLVM=OFF; and every
source file of the library, C++ (cpp/) and Python (python/porlab/), stays a file a reader can
hold (about 800 lines at most). Tests (tests/) and the C corpus (tests/c/) are exempt: a test
file is a list of cases, read one at a time."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CPP = ROOT / "cpp"
PYTHON = ROOT / "python" / "porlab"
LLVM_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"](llvm|clang|llvm-c)/', re.MULTILINE)
MAX_LINES = 800


def sources(*dirs: Path, suffixes: tuple[str, ...] = (".hpp", ".cpp")) -> list[Path]:
    return sorted(p for d in dirs for p in d.rglob("*") if p.suffix in suffixes)


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


def test_source_files_are_short() -> None:
    files = sources(CPP) + sources(PYTHON, suffixes=(".py",))
    assert len(files) > 100  # (the walk finds the tree)
    long = {
        str(p.relative_to(ROOT)): n
        for p in files
        if (n := len(p.read_text().splitlines())) > MAX_LINES
    }
    assert long == {}
