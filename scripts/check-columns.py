#!/usr/bin/env python3
"""Fails on a C++ line over 100 columns (characters, not bytes): clang-format cannot break
string literals of C programs embedded in tests, so this check backs `make format-check`."""
from __future__ import annotations

import pathlib
import sys

LIMIT = 100


def main() -> int:
    bad = 0
    for root in ("cpp", "tests/cpp"):
        for path in sorted(pathlib.Path(root).rglob("*")):
            if path.suffix not in {".cpp", ".hpp"}:
                continue
            for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if len(line) > LIMIT:
                    print(f"{path}:{no}: {len(line)} columns (limit {LIMIT})")
                    bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
