"""The C front end: porlab.load_c, ``porlab run``, errors, and agreement with builder twins."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, example, run_cli

import porlab
from porlab.cfront import C_INCLUDE_DIR, c_warnings, disassemble_c, has_c_frontend
from porlab.testing import check_explorer

pytestmark = pytest.mark.skipif(not has_c_frontend(), reason="built without PORLAB_WITH_LLVM")

PROGRAMS = ROOT / "benchmarks" / "programs"
EXPLORERS = [e["name"] for e in porlab.explorers()]

SB = """
#include <pthread.h>
#include <assert.h>
int x, y, a, b;
void *t1(void *arg) { x = 1; a = y; return 0; }
void *t2(void *arg) { y = 1; b = x; return 0; }
int main(void) {
    pthread_t p, q;
    pthread_create(&p, 0, t1, 0);
    pthread_create(&q, 0, t2, 0);
    pthread_join(p, 0);
    pthread_join(q, 0);
    assert(a == 1 || b == 1);
    return 0;
}
"""

MUTEX_COUNTER = """
#include <pthread.h>
#include <assert.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int n;
void *inc(void *arg) {
    for (int i = 0; i < 2; i++) { pthread_mutex_lock(&m); n = n + 1; pthread_mutex_unlock(&m); }
    return 0;
}
int main(void) {
    pthread_t t[2];
    for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, inc, 0);
    for (int i = 0; i < 2; i++) pthread_join(t[i], 0);
    assert(n == 4);
    return 0;
}
"""


def load(src: str, name: str = "test.c", **kw: Any) -> Any:
    """The program as written (``loops="none"``) unless a test asks for a loop reduction."""
    kw.setdefault("loops", "none")
    return porlab.load_c_source(src, name, **kw)


def write(tmp_path: Path, src: str, name: str = "prog.c") -> Path:
    p = tmp_path / name
    p.write_text(src)
    return p


# ---- load_c and every explorer ------------------------------------------------------------------


def test_load_c_file_works_with_explore_partition_and_traces(tmp_path: Path) -> None:
    prog = porlab.load_c(write(tmp_path, SB))
    assert prog.name == "prog"
    r = porlab.explore(prog, "naive")
    assert (r.errors, r.blocked) == (0, 0)
    # (a, b) in {(0,1), (1,0), (1,1)}: the final memory differs, so at least three outcomes
    assert len(r.outcomes) >= 3
    sizes = porlab.partition_sizes(prog)
    assert sizes.complete["mazurkiewicz"] == 3
    assert porlab.explore(prog, "optimal").complete == 3
    traces = list(porlab.traces(prog, "optimal"))
    assert len(traces) == 3
    names = set(prog.location_names)
    assert {"x", "y", "a", "b"} <= names


@pytest.mark.parametrize("explorer", EXPLORERS)
def test_every_explorer_agrees_with_naive_on_c_programs(explorer: str) -> None:
    for src in (SB, MUTEX_COUNTER):
        prog = load(src)
        assert check_explorer(prog, explorer) == []


def test_mutex_counter_is_safe_and_racy_counter_is_not() -> None:
    assert porlab.explore(load(MUTEX_COUNTER), "optimal").errors == 0
    racy = MUTEX_COUNTER.replace("pthread_mutex_lock(&m);", "").replace(
        "pthread_mutex_unlock(&m);", "")
    r = porlab.explore(racy and load(racy), "optimal", stop_on_error=True)
    assert r.errors == 1
    assert r.first_error is not None
    last = r.first_error.events[-1]
    assert last.kind == "assertion-failure"


def test_error_trace_has_source_lines() -> None:
    src = SB.replace("assert(a == 1 || b == 1);", "assert(!(a == 1 && b == 1));")
    r = porlab.explore(load(src, "sb_fail.c"), "optimal", stop_on_error=True)
    t = r.first_error
    assert t is not None
    sources = [t.source(i) for i in range(len(t.events))]
    assert sources[-1] == "sb_fail.c:13"  # the assert
    assert "sb_fail.c:5" in sources  # t1's accesses


def test_heap_struct_and_pointer_names() -> None:
    src = """
    #include <pthread.h>
    #include <stdlib.h>
    struct s { int a; long b; };
    struct s g;
    int arr[3];
    void *w(void *p) { struct s *q = p; q->b = 2; arr[2] = 1; g.b = 3; return 0; }
    int main(void) {
        struct s *p = malloc(sizeof *p);
        pthread_t t;
        pthread_create(&t, 0, w, p);
        pthread_join(t, 0);
        return (int)p->b;
    }
    """
    prog = load(src)
    r = porlab.explore(prog, "naive", keep_traces=True)
    assert (r.complete, r.errors) == (1, 0)
    names = [n for n in prog.location_names if n]
    assert "g.b" in names and "arr[2]" in names
    assert any(n.startswith("malloc@main#0+8") for n in names)


def test_unroll_blocks_long_loops_and_budget_message(tmp_path: Path) -> None:
    """A spin loop of the program as written (``--loops none``): a loop bound blocks the long
    executions; without one, an event budget ends the run with a message, and an execution
    longer than ``--max-execution-events`` is cut (blocked) with advice. The cut is 50 events
    here (the default is 100,000): the behaviour is the same, the run is short (the optimal
    explorer reverses every read of the flag, so its work grows with the square of the cut)."""
    src = """
    #include <pthread.h>
    int flag;
    void *t(void *a) { flag = 1; return 0; }
    int main(void) {
        pthread_t p;
        pthread_create(&p, 0, t, 0);
        while (!flag) {}
        return 0;
    }
    """
    prog = load(src, unroll=3, loops="none")
    r = porlab.explore(prog, "optimal")
    assert r.blocked > 0 and r.complete > 0 and r.errors == 0
    # The bound's warning names the loop (its header's line) and what would help.
    assert any("the loop at test.c:8 reached the bound (--unroll 3" in w and "drop --loops none" in w
               for w in c_warnings(prog))
    path = write(tmp_path, src, "spin.c")
    res = run_cli("run", str(path), "--loops", "none", "--max-events", "2000")
    assert res.returncode == 0
    assert "budget" in res.stdout
    # executions are cut (default 100000 events; 50 here), with the loop advice
    res = run_cli("run", str(path), "--loops", "none", "--max-execution-events", "50")
    assert res.returncode == 0
    assert "blocked" in res.stdout
    assert "looping at " in res.stderr and "spin.c:8: bound it with --unroll N" in res.stderr
    assert "drop --loops none" in res.stderr
    cut = porlab.explore(load(src, loops="none", max_execution_events=50), "optimal")
    assert cut.blocked > 0 and cut.complete > 0


def test_deadlock_is_an_error_or_blocked() -> None:
    src = """
    #include <pthread.h>
    pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
    void *t1(void *x) { pthread_mutex_lock(&a); pthread_mutex_lock(&b);
                        pthread_mutex_unlock(&b); pthread_mutex_unlock(&a); return 0; }
    void *t2(void *x) { pthread_mutex_lock(&b); pthread_mutex_lock(&a);
                        pthread_mutex_unlock(&a); pthread_mutex_unlock(&b); return 0; }
    int main(void) { pthread_t p, q; pthread_create(&p, 0, t1, 0);
                     pthread_create(&q, 0, t2, 0); return 0; }
    """
    r = porlab.explore(load(src), "naive")
    assert r.errors > 0 and r.complete > 0
    # one site: a fault whose code is Deadlock's (the last FaultKind of EventKind.hpp)
    text = (ROOT / "cpp" / "porlab" / "core" / "EventKind.hpp").read_text()
    faults = text.split("#define PORLAB_FAULTS(X)", 1)[1].split("enum class", 1)[0]
    deadlock = faults.count("X(") - 1
    assert [(s[1], s[2]) for s in r.error_sites] == [("fault", deadlock)]
    r2 = porlab.explore(load(src, deadlock_is_error=False), "naive")
    assert r2.errors == 0 and r2.blocked == r.errors
    # Decided at the end of a maximal trace (Reporter): no explorer loses a class beyond it.
    for name in ("optimal", "optimal-await", "source"):
        ro = porlab.explore(load(src), name)
        assert ro.error_sites == r.error_sites
        assert ro.outcomes == r.outcomes


def test_nondet_domain_explores_every_value(tmp_path: Path) -> None:
    src = """
    #include <assert.h>
    int __VERIFIER_nondet_int(void);
    int main(void) {
        int a = __VERIFIER_nondet_int();
        int b = __VERIFIER_nondet_int();
        assert(a + b != 5);
        return 0;
    }
    """
    path = write(tmp_path, src, "nondet.c")
    r = porlab.explore(porlab.load_c(path, nondet_domain=(0, 3)), "optimal")
    assert (r.complete, r.errors) == (14, 2)  # 16 pairs over 0..3; (2, 3) and (3, 2) fail
    assert porlab.explore(porlab.load_c(path, nondet_domain="1:2"), "naive").complete == 4
    assert porlab.explore(porlab.load_c(path), "optimal").complete == 1  # every call returns 0
    res = run_cli("run", str(path), "--nondet-domain", "0:3")
    assert res.returncode == 42, res.stdout + res.stderr
    with pytest.raises(porlab.InputError):
        porlab.load_c(path, nondet_domain=(3, 1))


def test_await_intrinsics_and_porlab_header() -> None:
    src = """
    #include <pthread.h>
    #include <porlab.h>
    int x;
    void *t(void *a) { x = 1; return 0; }
    int main(void) {
        pthread_t p;
        pthread_create(&p, 0, t, 0);
        int v = porlab_await_eq(&x, 1);
        __VERIFIER_assume(v == 1);
        return 0;
    }
    """
    r = porlab.explore(load(src), "optimal-await")
    assert (r.complete, r.blocked, r.errors) == (1, 0, 0)
    assert Path(C_INCLUDE_DIR, "porlab.h").is_file()


def test_nondet_warns_once() -> None:
    src = """
    int __VERIFIER_nondet_int(void);
    int main(void) { int a = __VERIFIER_nondet_int(); int b = __VERIFIER_nondet_int();
                     return a + b; }
    """
    prog = load(src)
    assert porlab.explore(prog, "naive").complete == 1
    w = c_warnings(prog)
    assert len(w) == 1 and "__VERIFIER_nondet_" in w[0]


def test_disassemble_lists_lowered_code() -> None:
    text = disassemble_c(load(SB))
    assert "function main" in text and "pthread_create" in text


# ---- errors -------------------------------------------------------------------------------------


def test_compile_error_shows_clang_diagnostics(tmp_path: Path) -> None:
    path = write(tmp_path, "int main(void) { return undefined_name; }\n", "bad.c")
    with pytest.raises(porlab.InputError, match="undefined_name"):
        porlab.load_c(path)
    res = run_cli("run", str(path))
    assert res.returncode == 2
    assert "bad.c:1" in res.stderr and "undeclared" in res.stderr


def test_unsupported_library_call_names_it_and_its_line(tmp_path: Path) -> None:
    src = ("#include <stdio.h>\nint main(void) {\n  FILE *f = fopen(\"x\", \"r\");\n"
           "  return f != 0;\n}\n")
    path = write(tmp_path, src, "lib.c")
    with pytest.raises(porlab.UnsupportedError, match=r"lib\.c:3: .*'fopen'"):
        porlab.load_c(path)
    res = run_cli("run", str(path))
    assert res.returncode == 2 and "fopen" in res.stderr


def test_missing_file_and_bad_options(tmp_path: Path) -> None:
    with pytest.raises(porlab.InputError, match="no such file"):
        porlab.load_c(tmp_path / "nope.c")
    for bad in (-1, 0):  # unroll counts visits of a loop header: at least one
        with pytest.raises(porlab.InputError, match="unroll must be an int >= 1"):
            load(SB, unroll=bad)
    with pytest.raises(porlab.InputError, match="max_threads"):
        load(SB, max_threads=0)


def test_thread_limit_blocks_with_a_warning() -> None:
    src = """
    #include <pthread.h>
    void *t(void *a) { return 0; }
    int main(void) { pthread_t p; for (int i = 0; i < 5; i++) pthread_create(&p, 0, t, 0);
                     return 0; }
    """
    prog = load(src, max_threads=3)
    r = porlab.explore(prog, "optimal")
    assert r.blocked > 0 and r.complete == 0 and r.errors == 0
    assert any("max_threads" in w for w in c_warnings(prog))


# ---- CLI ----------------------------------------------------------------------------------------


def test_cli_run_verdicts_and_json(tmp_path: Path) -> None:
    safe = write(tmp_path, SB, "sb.c")
    res = run_cli("run", str(safe), "--explorer", "optimal")
    assert res.returncode == 0, res.stderr
    assert "no violation" in res.stdout and "3 complete" in res.stdout
    bad = write(tmp_path, SB.replace("a == 1 || b == 1", "a == 1 && b == 1"), "sbf.c")
    res = run_cli("run", str(bad), "--json")
    assert res.returncode == 42, res.stderr
    d = json.loads(res.stdout)
    assert (d["verdict"] == "violation" and d["error_trace"][-1]["source"] == "sbf.c:13") or \
        d["error_trace"][-1]["source"].endswith("sbf.c:13")
    res = run_cli("run", str(bad))
    assert "error trace:" in res.stdout and "assertion failure" in res.stdout


def test_cli_run_defines_includes_and_clang_args(tmp_path: Path) -> None:
    inc = tmp_path / "inc"
    inc.mkdir()
    (inc / "n.h").write_text("#define M 2\n")
    src = '#include "n.h"\n#include <assert.h>\nint main(void) { assert(N == M); return 0; }\n'
    path = write(tmp_path, src, "d.c")
    assert run_cli("run", str(path), "-DN=2", "-I", str(inc)).returncode == 0
    assert run_cli("run", str(path), "-DN=3", "-I", str(inc)).returncode == 42
    # arguments after -- go to clang
    assert run_cli("run", str(path), "-I", str(inc), "--", "-DN=2").returncode == 0


# ---- builder twins ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cfile", "twin", "params", "cparams"),
    [
        ("rvf_fig1.c", "rvf_fig1", {}, {}),
        ("n_reads_lock.c", "lapor_n_reads_lock", {"n": 3}, {"defines": {"N": 3}}),
        ("sortnet.c", "sortnet", {"n": 2, "mode": "await"}, {"defines": {"N": 2}}),
    ],
)
def test_paper_examples_match_their_builder_twins(cfile: str, twin: str, params: dict,
                                                  cparams: dict) -> None:
    path = PROGRAMS / cfile
    if not path.exists():
        pytest.fail(f"{path} is missing")
    prog = porlab.load_c(path, **cparams)
    builder = example(twin, **params)
    for explorer in ("optimal", "optimal-await", "source"):
        c = porlab.explore(prog, explorer)
        b = porlab.explore(builder, explorer)
        assert (c.complete, c.blocked, c.errors) == (b.complete, b.blocked, b.errors), explorer
