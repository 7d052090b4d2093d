"""The C test corpus: every program in tests/c/*.c (and the C++ programs tests/c/*.cpp) and
benchmarks/programs/*.c, run through
porlab.load_c and checked against the expectations in its header (tests/c/README.md gives the
format): the verdict and error lines, naive's counts, every registered explorer against the naive
oracle (outcomes, error sites, one trace per class for optimal explorers), the counts the header
states per explorer, the partition sizes, and equality with the program's builder twin.

There are no skips: without porlab.load_c (a build without the C front end) every test fails.
"""

from __future__ import annotations

import functools
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import porlab
from porlab import _core
from porlab.testing import check_explorer

ROOT = Path(__file__).resolve().parents[2]
CORPUS_DIR = ROOT / "tests" / "c"
BENCH_DIR = ROOT / "benchmarks" / "programs"
_HEADER_START = "/* porlab-test"
CORPUS = sorted([*CORPUS_DIR.glob("*.c"), *CORPUS_DIR.glob("*.cpp")])
# benchmarks/programs is shared with the benchmark suites: its C programs with a header
BENCH = sorted(p for p in BENCH_DIR.glob("*.c") if p.read_text().startswith(_HEADER_START))
PROGRAMS = CORPUS + BENCH

COUNT_FIELDS = ("complete", "blocked", "errors")
PARTITION_KEYS = ("interleavings", *_core.EQUIVALENCES.keys())
VERDICT_KINDS = ("assert", "fault", "deadlock")  # or the name of a fault, e.g. use-after-free
# Every registered explorer, plus Optimal-DPOR-Await with independent fetch-and-adds.
EXPLORERS = [e["name"] for e in porlab.explorers()] + ["optimal-await+ifaa"]


# ---------------------------------------------------------------------------------------------
# Headers


@dataclass
class Header:
    """The expectations of one program (see tests/c/README.md)."""

    path: Path
    load_args: dict[str, Any] = field(default_factory=dict)
    verdict: str = ""
    kinds: set[str] = field(default_factory=set)
    counts: dict[str, dict[str, int]] = field(default_factory=dict)  # explorer -> field -> n
    partition: dict[str, int] = field(default_factory=dict)
    twin: tuple[Path, dict[str, Any]] | None = None
    twin_blocked: bool = False  # the twin counts as blocked what the C program reports as errors
    twin_classes: tuple[Path, dict[str, Any]] | None = None  # same classes, not interleavings
    error_lines: set[int] = field(default_factory=set)

    @property
    def oracle(self) -> bool:
        """Check every explorer against naive (programs of tests/c; the larger paper programs
        in benchmarks/programs are checked through their builder twin instead)."""
        return self.path.parent == CORPUS_DIR


class HeaderError(ValueError):
    pass


_HEADER_RE = re.compile(r"/\*\s*porlab-test\s*\n(.*?)\*/", re.S)
_MARK = "porlab: error"


def _int_or_str(v: str) -> Any:
    if re.fullmatch(r"-?\d+", v):
        return int(v)
    if v in ("True", "False"):
        return v == "True"
    return v


# porlab run's options with a value, and the type load_c takes it as (keyword: the option name)
_VALUE_OPTIONS: dict[str, type] = {"--unroll": int, "--max-threads": int, "--max-locations": int,
                                   "--max-execution-events": int, "--nondet-domain": str,
                                   "--loops": str}


def parse_args(text: str, where: str) -> dict[str, Any]:
    """The ``args:`` line (porlab run's options) as keyword arguments of porlab.load_c."""
    toks = shlex.split(text)
    out: dict[str, Any] = {}
    defines: dict[str, str] = {}
    i = 0

    def value(i: int) -> str:
        if i + 1 >= len(toks):
            raise HeaderError(f"{where}: {toks[i]} needs a value")
        return toks[i + 1]

    while i < len(toks):
        tok = toks[i]
        if tok == "--":
            out["clang_args"] = toks[i + 1:]
            break
        if tok.startswith(("-D", "-I")):
            d = tok[2:] or value(i)
            i += 0 if tok[2:] else 1
            if tok.startswith("-D"):
                name, _, v = d.partition("=")
                defines[name] = v or "1"
            else:
                out.setdefault("include_dirs", []).append(d)
        elif tok == "--deadlock-blocked":
            out["deadlock_is_error"] = False
        elif tok == "--disable-race-detection":
            out["check_races"] = False  # an option of explore, not of load_c (see program())
        elif tok.split("=", 1)[0] in _VALUE_OPTIONS:
            opt, eq, v = tok.partition("=")
            if not eq:
                v = value(i)
                i += 1
            if _VALUE_OPTIONS[opt] is int and not v.isdigit():
                raise HeaderError(f"{where}: {opt} needs a number, not {v!r}")
            out[opt[2:].replace("-", "_")] = _VALUE_OPTIONS[opt](v)
        else:
            raise HeaderError(f"{where}: unknown option {tok!r} in args")
        i += 1
    if defines:
        out["defines"] = defines
    return out


def _counts(text: str, where: str, keys: tuple[str, ...]) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in text.split():
        k, eq, v = item.partition("=")
        if not eq or k not in keys or not v.isdigit():
            raise HeaderError(f"{where}: expected {'|'.join(keys)}=N, not {item!r}")
        out[k] = int(v)
    if not out:
        raise HeaderError(f"{where}: no counts")
    return out


def _twin(text: str, where: str) -> tuple[Path, dict[str, Any]]:
    path, *params = text.split()
    p = ROOT / path
    if not p.is_file():
        raise HeaderError(f"{where}: twin {path} does not exist")
    kv = {}
    for item in params:
        k, eq, v = item.partition("=")
        if not eq:
            raise HeaderError(f"{where}: twin parameter {item!r} is not NAME=VALUE")
        kv[k] = _int_or_str(v)
    return p, kv


def _marked_lines(path: Path) -> set[int]:
    """Lines marked `// porlab: error`, in the file and in the files it includes with
    #include "..." (a wrapper like sortnet_assume.c; the error sites give line numbers)."""
    src = path.read_text()
    lines = {n for n, line in enumerate(src.splitlines(), start=1) if _MARK in line}
    for inc in re.findall(r'(?m)^\s*#\s*include\s+"([^"]+)"', src):
        lines |= _marked_lines(path.parent / inc)
    return lines


def parse_header(path: Path) -> Header:
    src = path.read_text()
    m = _HEADER_RE.search(src)
    if m is None or src[: m.start()].strip():
        raise HeaderError(f"{path}:1: the file must start with a /* porlab-test ... */ header")
    h = Header(path)
    first_line = src[: m.start(1)].count("\n") + 1
    for n, line in enumerate(m.group(1).splitlines(), start=first_line):
        line = line.strip().lstrip("*").strip()
        if not line:
            continue
        where = f"{path}:{n}"
        key, colon, value = line.partition(":")
        key, value = key.strip(), value.strip()
        if not colon:
            raise HeaderError(f"{where}: expected 'key: value', not {line!r}")
        if key == "args":
            h.load_args = parse_args(value, where)
        elif key == "verdict":
            words = value.replace(",", " ").split()
            if not words or words[0] not in ("safe", "violation", "incomplete"):
                raise HeaderError(f"{where}: verdict must be 'safe', 'incomplete' or "
                                  "'violation [kinds]'")
            h.verdict = words[0]
            h.kinds = set(words[1:])
            known = {*VERDICT_KINDS, *fault_names()}
            if (h.verdict != "violation" and h.kinds) or not h.kinds <= known:
                raise HeaderError(f"{where}: bad verdict kinds {words[1:]} (known: "
                                  f"{', '.join(sorted(known))})")
        elif key == "partition":
            h.partition = _counts(value, where, PARTITION_KEYS)
        elif key in ("twin", "twin-blocked"):
            h.twin = _twin(value, where)
            h.twin_blocked = key == "twin-blocked"
        elif key == "twin-classes":
            h.twin_classes = _twin(value, where)
        elif key in EXPLORERS:
            h.counts[key] = _counts(value, where, COUNT_FIELDS)
        else:
            raise HeaderError(f"{where}: unknown key {key!r} (args, verdict, partition, twin, "
                              f"twin-blocked, twin-classes or an explorer: {', '.join(EXPLORERS)})")
    if not h.verdict:
        raise HeaderError(f"{path}: the header has no verdict")
    if "naive" not in h.counts and h.twin is None and h.twin_classes is None and not h.partition:
        raise HeaderError(f"{path}: the header needs naive counts, a twin or partition sizes")
    h.error_lines = _marked_lines(path)
    if h.error_lines and h.verdict != "violation":
        raise HeaderError(f"{path}: error lines marked in a safe program")
    return h


# ---------------------------------------------------------------------------------------------
# Loading and exploring, each once per session


def _load_c() -> Any:
    load_c = getattr(porlab, "load_c", None)
    if load_c is None:
        raise AssertionError("porlab.load_c is missing: this build has no C front end")
    return load_c


@functools.cache
def header(path: Path) -> Header:
    return parse_header(path)


@functools.cache
def program(path: Path) -> Any:
    # The counts of a header are those of the program as written unless its args ask for a
    # loop reduction (porlab run's default is one).
    args = {k: v for k, v in header(path).load_args.items() if k != "check_races"}
    return _load_c()(str(path), **{"loops": "none", **args})


def check_races(path: Path) -> bool:
    """Whether the header leaves the data race check on (args: --disable-race-detection)."""
    return bool(header(path).load_args.get("check_races", True))


@functools.cache
def twin_program(path: Path, classes: bool = False) -> Any:
    h = header(path)
    twin = h.twin_classes if classes else h.twin
    assert twin is not None
    twin_path, params = twin
    return porlab.load_program(str(twin_path), **params)


def _explore(prog: Any, explorer: str, races: bool = True) -> porlab.Result:
    name, _, variant = explorer.partition("+")
    return porlab.explore(prog, name, ifaa=variant == "ifaa", check_races=races)


@functools.cache
def result(path: Path, explorer: str) -> porlab.Result:
    return _explore(program(path), explorer, check_races(path))


@functools.cache
def twin_result(path: Path, explorer: str) -> porlab.Result:
    return _explore(twin_program(path), explorer)


@functools.cache
def partition(path: Path) -> porlab.PartitionSizes:
    return porlab.partition_sizes(program(path), check_races=check_races(path))


@functools.cache
def twin_partition(path: Path, classes: bool = False) -> porlab.PartitionSizes:
    return porlab.partition_sizes(twin_program(path, classes))


def counts(r: porlab.Result) -> dict[str, int]:
    return {f: getattr(r, f) for f in COUNT_FIELDS}


@functools.cache
def fault_names() -> list[str]:
    """FaultKind names in code order (NullDereference -> null-dereference), from the X-macro
    that declares them (the core does not export the list to Python)."""
    text = (ROOT / "cpp" / "porlab" / "core" / "EventKind.hpp").read_text()
    block = text.split("#define PORLAB_FAULTS(X)", 1)[1].split("enum class", 1)[0]
    return [re.sub(r"(?<!^)(?=[A-Z])", "-", n).lower() for n in re.findall(r"X\((\w+),", block)]


def site_kind(kind: str, code: int) -> str:
    """assert, deadlock or the fault's name."""
    if kind == "assertion-failure":
        return "assert"
    if kind == "fault":
        names = fault_names()
        return names[code] if 0 <= code < len(names) else f"fault-{code}"
    return kind


def kinds_match(found: set[str], expected: set[str]) -> bool:
    """Every error site has an expected kind and every expected kind occurs; ``fault`` stands
    for any fault but a deadlock."""
    def ok(f: str, e: str) -> bool:
        return f == e or (e == "fault" and f not in ("assert", "deadlock"))
    return (all(any(ok(f, e) for e in expected) for f in found)
            and all(any(ok(f, e) for f in found) for e in expected))


def _id(p: Path) -> str:
    return str(p.relative_to(ROOT / "tests") if p.is_relative_to(ROOT / "tests") else
               p.relative_to(ROOT))


# ---------------------------------------------------------------------------------------------
# Known bugs of other components, each kept as a strict xfail: the test states the right
# answer, fails today for the reason given, and turns into a failure (XPASS) once the bug is
# fixed, so that its entry here is removed. Key: (test, program file, explorer or ""); "*" for
# every test or every explorer.

_GRAPH = ("graph", "rf", "rf-graph", "lapor")
KNOWN_BUGS: dict[tuple[str, str, str], str] = {
    # rf and rvf report 3 complete traces for 2 reads-from classes: t2's write before t1's first
    # write and between t1's two writes (the free reads 2 either way) are reported as two
    # classes: their liveness reads (RvfSmc.cpp) tell apart orders of writes that no read sees.
    ("explorer", "write_after_free_po.c", e): f"{e} repeats a class of writes racing with a free"
    for e in ("rf", "rvf")
}

# Programs an explorer rejects with an UnsupportedError naming the program and this reason: a
# plain write faults when the frame (or block) it writes to has ended, so whether it does depends
# on its order with the frame end. rf and rvf explore such a write as a read of the location's
# liveness once a kill of the location is pending (RvfSmc.cpp, liveness reads:
# write_after_free*.c, dead_frame.c, cxx_write_after_delete.cpp); a write they performed before
# that, which then races with the kill, is rejected.
_DEAD_WRITE = "depends on its order with another event, not on a value it reads"
UNSUPPORTED: dict[tuple[str, str], str] = {
    (name, e): _DEAD_WRITE for name in ("exit_frame.c", "exit_frame_abort.c") for e in ("rf", "rvf")
}
# The free is in a thread rf and rvf extend after main performed the write (the graph explorers
# and the DPOR explorers explore it; the header's counts): the message names both lines.


def _line_of(name: str, text: str) -> int:
    return next(n for n, line in enumerate((CORPUS_DIR / name).read_text().splitlines(), start=1)
                if text in line)


_OTHER = "write_after_free_other.c"
UNSUPPORTED |= {(_OTHER, e): rf"free .*{_OTHER}:{_line_of(_OTHER, 'free(p);')} races with the "
                             rf"write at .*{_OTHER}:{_line_of(_OTHER, '*b = v + 1;')} "
                for e in ("rf", "rvf")}


# Programs that destroy a mutex: lapor (whose locks never block) and rf (a destroy between a lock
# and its unlock) cannot check the uses of a destroyed mutex, so they refuse such programs,
# naming the destroy (Registry.cpp, refuseMutexDestroy); the other explorers check them.
_DESTROY = re.compile(r"\b(pthread_mutex_destroy|mtx_destroy|pthread_spin_destroy|"
                      r"pthread_rwlock_destroy)\s*\(")
UNSUPPORTED |= {(f.name, e): rf"destroys a mutex \(at .*{f.name}:\d+\)"
                for f in sorted(CORPUS_DIR.iterdir())
                if f.suffix in (".c", ".cpp") and _DESTROY.search(f.read_text())
                for e in ("rf", "lapor")}


def _param(test: str, path: Path, explorer: str | None = None) -> Any:
    e = explorer or ""
    reason = next((KNOWN_BUGS[k] for k in ((test, path.name, e), (test, path.name, "*"),
                                           ("*", path.name, "*")) if k in KNOWN_BUGS), None)
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    # One worker runs every test of a program (pytest -n with --dist loadgroup), so that the
    # cached naive runs and partitions of a program are computed once: sortnet's partition
    # (115,830 interleavings) and its twin's no longer land in one test.
    marks.append(pytest.mark.xdist_group(f"corpus-{path.name}"))
    pid = _id(path) if explorer is None else f"{_id(path)}-{explorer}"
    args = (path,) if explorer is None else (path, explorer)
    return pytest.param(*args, id=pid, marks=marks)


def _cases(test: str, paths: list[Path], explorers: list[str] | None = None) -> list[Any]:
    if explorers is None:
        return [_param(test, p) for p in paths]
    return [_param(test, p, e) for p in paths for e in explorers]


# ---------------------------------------------------------------------------------------------
# Tests


def test_corpus_size_and_headers() -> None:
    """At least 60 programs in tests/c, each with a well-formed header; every twin exists."""
    assert len(CORPUS) >= 60, f"only {len(CORPUS)} programs in tests/c"
    assert {"sortnet.c", "n_reads_lock.c", "rvf_fig1.c"} <= {p.name for p in BENCH}
    for p in PROGRAMS:
        header(p)


@pytest.mark.parametrize("path", _cases("verdict_and_naive", PROGRAMS))
def test_verdict_and_naive(path: Path) -> None:
    """The verdict, its kinds and error lines, and naive's counts."""
    h = header(path)
    r = result(path, "naive")
    assert not r.budget_exceeded
    if h.verdict != "violation":
        assert r.errors == 0, f"{path.name}: unexpected errors {r.error_sites}"
        # "incomplete": a limit (threads, locations, an execution cut) stopped executions
        assert bool(r.incomplete) == (h.verdict == "incomplete"), (path.name, r.incomplete)
    else:
        assert r.errors > 0, f"{path.name}: no violation found"
        if h.kinds:
            found = {site_kind(kind, code) for _, kind, code, _, _ in r.error_sites}
            assert kinds_match(found, h.kinds), f"{path.name}: error kinds {found} != {h.kinds}"
        lines = {line for _, kind, code, _, line in r.error_sites
                 if site_kind(kind, code) != "deadlock"}
        assert lines == h.error_lines, (
            f"{path.name}: errors at lines {sorted(lines)}, marked {sorted(h.error_lines)}")
    if "naive" in h.counts:
        got = counts(r)
        assert {k: got[k] for k in h.counts["naive"]} == h.counts["naive"]


def _explorer_cases() -> list[Any]:
    """(program, explorer) pairs with something to check: every explorer on the programs of
    tests/c (against naive), and the explorers a header gives counts for."""
    cases = []
    for p in PROGRAMS:
        h = parse_header(p)
        for e in EXPLORERS:
            if h.oracle or e in h.counts:
                cases.append(_param("explorer", p, e))
    return cases


@pytest.mark.parametrize(("path", "explorer"), _explorer_cases())
def test_explorer(path: Path, explorer: str) -> None:
    """Every explorer agrees with naive (tests/c) and gives the counts of the header."""
    h = header(path)
    if (path.name, explorer) in UNSUPPORTED:
        with pytest.raises(porlab.UnsupportedError, match=UNSUPPORTED[path.name, explorer]) as err:
            porlab.explore(program(path), explorer)
        assert f"'{path.stem}'" in str(err.value)
        return
    if h.oracle:
        name, _, variant = explorer.partition("+")
        problems = check_explorer(program(path), name, ifaa=variant == "ifaa",
                                  check_races=check_races(path),
                                  oracle=result(path, "naive"), sizes=partition(path))
        assert problems == [], f"{path.name}: {problems}"
    if explorer in h.counts:
        got = counts(result(path, explorer))
        assert {k: got[k] for k in h.counts[explorer]} == h.counts[explorer]


@pytest.mark.parametrize("path", _cases("partition",
                                          [p for p in PROGRAMS if parse_header(p).partition]))
def test_partition(path: Path) -> None:
    """Class counts per equivalence (complete + blocked + errors) as the header states."""
    h = header(path)
    sizes = partition(path)
    assert not sizes.budget_exceeded
    assert {k: sizes[k] for k in h.partition} == h.partition


WITH_TWIN = [p for p in PROGRAMS if parse_header(p).twin]


@pytest.mark.parametrize(("path", "explorer"), _cases("twin", WITH_TWIN, EXPLORERS))
def test_twin(path: Path, explorer: str) -> None:
    """The C program and its builder twin give identical counts under every explorer."""
    h = header(path)
    if (path.name, explorer) in UNSUPPORTED:  # (test_explorer checks the refusal's message)
        with pytest.raises(porlab.UnsupportedError):
            result(path, explorer)
        return
    c, b = counts(result(path, explorer)), counts(twin_result(path, explorer))
    if h.twin_blocked:  # the twin's blocked traces are the C program's deadlocks
        b = {"complete": b["complete"], "blocked": 0, "errors": b["errors"] + b["blocked"]}
    assert c == b, f"{path.name} vs its twin under {explorer}: {c} != {b}"


@pytest.mark.parametrize("path", _cases("twin_partition", WITH_TWIN))
def test_twin_partition(path: Path) -> None:
    """... and the same number of classes under every equivalence."""
    h = header(path)
    c, b = partition(path), twin_partition(path)
    if h.twin_blocked:
        assert dict(c) == dict(b)
        assert c.complete == b.complete
    else:
        assert (dict(c), c.complete, c.blocked, c.errors) == (dict(b), b.complete, b.blocked,
                                                              b.errors)


WITH_CLASS_TWIN = [p for p in PROGRAMS if parse_header(p).twin_classes]


def _main_shifts(path: Path) -> bool:
    """Does the class twin start the C program's threads without main (its thread 0 is the C
    program's thread 1)? Twins that have a thread named main number threads as C does."""
    return twin_program(path, classes=True).compile().thread_names[:1] != ["main"]


@pytest.mark.parametrize(("path", "explorer"),
                         _cases("twin_classes", WITH_CLASS_TWIN,
                                [e for e in EXPLORERS if e != "naive"]))
def test_twin_classes(path: Path, explorer: str) -> None:
    """Paper examples with three or more threads start them all at once, where the C program's
    main spawns them one by one: the spawns add interleavings but no classes, so every explorer
    but naive gives the example's counts (but value-centric and data-centric, which preselect
    thread 0, when it is main in the C program and the example's first thread in the twin)."""
    if explorer in ("value-centric", "data-centric") and _main_shifts(path):
        return
    c = counts(result(path, explorer))
    b = counts(_explore(twin_program(path, classes=True), explorer))
    assert c == b, f"{path.name} vs {header(path).twin_classes} under {explorer}: {c} != {b}"


@pytest.mark.parametrize("path", _cases("twin_classes_partition", WITH_CLASS_TWIN))
def test_twin_classes_partition(path: Path) -> None:
    c, b = partition(path), twin_partition(path, classes=True)
    if _main_shifts(path):
        # The C program's threads are the twin's plus main (thread 0): the twin's preselected
        # thread 0 of value-centric and data-centric is the C program's thread 1.
        c1 = porlab.partition_sizes(program(path), check_races=check_races(path), thread=1)
        for k in ("value-centric", "data-centric"):
            for split in ("complete", "blocked", "errors"):
                getattr(c, split)[k] = getattr(c1, split)[k]
    for split in ("complete", "blocked", "errors"):
        mine, theirs = getattr(c, split), getattr(b, split)
        assert {k: mine[k] for k in _core.EQUIVALENCES} == {k: theirs[k] for k in
                                                             _core.EQUIVALENCES}, split


# ---------------------------------------------------------------------------------------------
# The runner itself: headers it must reject, kinds it must tell apart


@pytest.mark.parametrize(
    ("header_text", "message"),
    [
        ("/* porlab-test\n   verdict: safe\n   naive: complete=1\n   optimall: complete=1\n*/",
         "unknown key 'optimall'"),
        ("/* porlab-test\n   naive: complete=1\n*/", "no verdict"),
        ("/* porlab-test\n   verdict: safe\n*/", "naive counts, a twin or partition sizes"),
        ("/* porlab-test\n   verdict: safe assert\n   naive: complete=1\n*/", "bad verdict kinds"),
        ("/* porlab-test\n   verdict: maybe\n   naive: complete=1\n*/", "'incomplete' or"),
        ("/* porlab-test\n   verdict: safe\n   naive: complete=x\n*/", "expected complete"),
        ("/* porlab-test\n   args: --unrol 2\n   verdict: safe\n   naive: complete=1\n*/",
         "unknown option '--unrol'"),
        ("/* porlab-test\n   args: --unroll\n   verdict: safe\n   naive: complete=1\n*/",
         "--unroll needs a value"),
        ("/* porlab-test\n   args: --unroll two\n   verdict: safe\n   naive: complete=1\n*/",
         "--unroll needs a number"),
        ("/* porlab-test\n   args: -D\n   verdict: safe\n   naive: complete=1\n*/",
         "-D needs a value"),
        ("/* porlab-test\n   verdict: safe\n   twin: examples/nope.py\n*/", "does not exist"),
        ("int x;\n/* porlab-test\n   verdict: safe\n   naive: complete=1\n*/", "must start"),
        ("/* porlab-test\n   verdict: safe\n   naive: complete=1\n*/\nint x; // porlab: error\n",
         "error lines marked in a safe program"),
    ],
)
def test_bad_headers_are_rejected(tmp_path: Path, header_text: str, message: str) -> None:
    f = tmp_path / "bad.c"
    f.write_text(header_text + "\nint main(void) { return 0; }\n")
    with pytest.raises(HeaderError, match=re.escape(message)):
        parse_header(f)


def test_header_fields(tmp_path: Path) -> None:
    f = tmp_path / "ok.c"
    f.write_text("/* porlab-test\n   args: --unroll 2 -DN=3 -DFLAG -I inc --max-threads 4 "
                 "--deadlock-blocked --loops=plp -- -m32\n"
                 "   verdict: violation use-after-free, assert\n"
                 "   naive: complete=3 errors=1\n   optimal-await+ifaa: blocked=0\n"
                 "   partition: rvf=2\n   twin-blocked: examples/litmus_sb.py k=2 s=x\n*/\n"
                 "int main(void) {\n  return 0; // porlab: error\n}\n")
    h = parse_header(f)
    assert h.load_args == {"unroll": 2, "defines": {"N": "3", "FLAG": "1"}, "include_dirs": ["inc"],
                           "max_threads": 4, "deadlock_is_error": False, "loops": "plp",
                           "clang_args": ["-m32"]}
    assert (h.verdict, h.kinds) == ("violation", {"use-after-free", "assert"})
    assert h.counts == {"naive": {"complete": 3, "errors": 1}, "optimal-await+ifaa": {"blocked": 0}}
    assert h.partition == {"rvf": 2}
    assert h.twin == (ROOT / "examples" / "litmus_sb.py", {"k": 2, "s": "x"}) and h.twin_blocked
    assert h.error_lines == {10}


def test_kinds_match() -> None:
    assert kinds_match({"use-after-free"}, {"fault"})
    assert kinds_match({"use-after-free", "double-free"}, {"fault"})
    assert not kinds_match({"deadlock"}, {"fault"})
    assert not kinds_match({"assert"}, {"assert", "deadlock"})
    assert not kinds_match({"assert", "null-dereference"}, {"assert"})
    assert kinds_match({"deadlock"}, {"deadlock"})
    assert site_kind("fault", fault_names().index("deadlock")) == "deadlock"
    assert site_kind("assertion-failure", -1) == "assert"


# ---------------------------------------------------------------------------------------------
# The benchmark suite of C programs


def test_c_suite_matches_builder_versions(tmp_path: Path) -> None:
    """benchmarks/suites/c.toml (small parameters) runs every C program through `porlab bench`
    and each gives the trace counts of its builder version in the same suite: program `X-c`
    with -DN=k against `X` with n=k, same explorer configuration. (naive is left out: main's
    spawns in the C versions add interleavings, not classes.)"""
    import json

    from porlab.bench import run_suite

    out = tmp_path / "c.jsonl"
    run_suite(ROOT / "benchmarks" / "suites" / "c.toml", out, small=True, progress=False, jobs=2)
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert rows and all(r["status"] == "ok" for r in rows), [
        (r["program"], r["params"], r["status"], r.get("message")) for r in rows
        if r["status"] != "ok"]

    def key(r: dict[str, Any]) -> tuple[str, str, Any]:
        params = json.loads(r["params"]) if isinstance(r["params"], str) else r["params"]
        size = params.get("N", params.get("n"))
        return r["program"].removesuffix("-c"), r["config"], size

    c_rows = {key(r): r for r in rows if r["kind"] == "c" and r["config"] != "naive"}
    b_rows = {key(r): r for r in rows if r["kind"] == "python" and r["config"] != "naive"}
    assert len(c_rows) >= 10 and c_rows.keys() == b_rows.keys()
    for k, r in c_rows.items():
        assert (r["complete"], r["blocked"], r["errors"]) == (
            b_rows[k]["complete"], b_rows[k]["blocked"], b_rows[k]["errors"]), k


# ---------------------------------------------------------------------------------------------
# The same programs through `porlab run`: the header's args are porlab run's options


CLI_SAMPLE = ["litmus_sb.c", "litmus_mp_fail.c", "spinlock_tas.c", "use_after_free.c",
              "deadlock_join.c", "thread_limit.c", "lapor_rw.c"]


@pytest.mark.parametrize("name", CLI_SAMPLE)
def test_porlab_run(name: str) -> None:
    """Exit code 0 (safe) or 42 (violation), and naive's counts in --json, with the header's
    args given on the command line."""
    import json
    import subprocess
    import sys

    path = CORPUS_DIR / name
    h = header(path)
    args = _HEADER_RE.search(path.read_text())
    assert args is not None
    line = next((ln.split(":", 1)[1] for ln in args.group(1).splitlines()
                 if ln.strip().startswith("args:")), "")
    # The header's counts are those of the program as written (porlab run reduces spin loops
    # unless told --loops none).
    loops = [] if "--loops" in line else ["--loops", "none"]
    proc = subprocess.run(
        [sys.executable, "-m", "porlab", "run", str(path), "--explorer", "naive", "--all-errors",
         "--json", *loops, *shlex.split(line)],
        capture_output=True, text=True, timeout=120, check=False, cwd=ROOT)
    assert proc.returncode == {"violation": 42, "incomplete": 3, "safe": 0}[h.verdict], proc.stderr
    got = json.loads(proc.stdout)
    assert {k: got[k] for k in h.counts["naive"]} == h.counts["naive"]
