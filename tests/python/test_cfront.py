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
    # SB's plain accesses of x and y race on purpose (a litmus test): the race check is off
    # here; with it, every trace is an error trace (test_bugchecks.py tests the check).
    r = porlab.explore(prog, "naive", check_races=False)
    assert (r.errors, r.blocked) == (0, 0)
    # (a, b) in {(0,1), (1,0), (1,1)}: the final memory differs, so at least three outcomes
    assert len(r.outcomes) >= 3
    sizes = porlab.partition_sizes(prog, check_races=False)
    assert sizes.complete["mazurkiewicz"] == 3
    assert porlab.explore(prog, "optimal", check_races=False).complete == 3
    assert porlab.explore(prog, "optimal").errors == 3
    traces = list(porlab.traces(prog, "optimal", check_races=False))
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
    # The unprotected increments race (the race check's error, at the increment), and without
    # the race check the lost update fails the assertion.
    r = porlab.explore(racy and load(racy), "optimal", stop_on_error=True)
    assert r.errors == 1 and r.first_error is not None
    assert "data race on n" in r.first_error.describe(len(r.first_error.events) - 1)
    r = porlab.explore(load(racy), "optimal", stop_on_error=True, check_races=False)
    assert r.errors == 1
    assert r.first_error is not None
    last = r.first_error.events[-1]
    assert last.kind == "assertion-failure"


def test_error_trace_has_source_lines() -> None:
    src = SB.replace("assert(a == 1 || b == 1);", "assert(!(a == 1 && b == 1));")
    # (SB's plain accesses race on purpose: the race check is off, the assertion fails)
    r = porlab.explore(load(src, "sb_fail.c"), "optimal", stop_on_error=True, check_races=False)
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
    # (flag is plain: the spin loop's reads race with the write, which is not the point here, so
    # the race check is off in this test)
    prog = load(src, unroll=3, loops="none")
    r = porlab.explore(prog, "optimal", check_races=False)
    assert r.blocked > 0 and r.complete > 0 and r.errors == 0
    # The bound's warning names the loop (its header's line) and what would help.
    assert any("the loop at test.c:8 reached the bound (--unroll 3" in w
               and "drop --loops none" in w for w in c_warnings(prog))
    path = write(tmp_path, src, "spin.c")
    res = run_cli("run", str(path), "--loops", "none", "--max-events", "2000",
                  "--disable-race-detection")
    assert res.returncode == 3  # incomplete, not "no violation"
    assert "the events budget ran out" in res.stdout and "incomplete" in res.stdout.lower()
    # executions are cut (default 100000 events; 50 here), with the loop advice
    res = run_cli("run", str(path), "--loops", "none", "--max-execution-events", "50",
                  "--disable-race-detection")
    assert res.returncode == 3  # cut executions: incomplete
    assert "blocked" in res.stdout
    assert "looping at " in res.stderr and "spin.c:8: bound it with --unroll N" in res.stderr
    assert "drop --loops none" in res.stderr
    cut = porlab.explore(load(src, loops="none", max_execution_events=50), "optimal",
                         check_races=False)
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
    # (t's plain write of x races with the await, an atomic read: the race check is off here)
    r = porlab.explore(load(src), "optimal-await", check_races=False)
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
    # SB's plain accesses race on purpose (a litmus test): its data race is an error by default
    safe = write(tmp_path, SB, "sb.c")
    res = run_cli("run", str(safe), "--explorer", "optimal")
    assert res.returncode == 42 and "data race on" in res.stdout, res.stderr
    res = run_cli("run", str(safe), "--explorer", "optimal", "--disable-race-detection")
    assert res.returncode == 0, res.stderr
    assert "no violation" in res.stdout and "3 complete" in res.stdout
    bad = write(tmp_path, SB.replace("a == 1 || b == 1", "a == 1 && b == 1"), "sbf.c")
    res = run_cli("run", str(bad), "--json", "--disable-race-detection")
    assert res.returncode == 42, res.stderr
    d = json.loads(res.stdout)
    assert (d["verdict"] == "violation" and d["error_trace"][-1]["source"] == "sbf.c:13") or \
        d["error_trace"][-1]["source"].endswith("sbf.c:13")
    res = run_cli("run", str(bad), "--disable-race-detection")
    # the assertion's own text (issue 14), where the trace used to say "assertion failure"
    assert "error trace:" in res.stdout and "assertion `a == 1 && b == 1' failed" in res.stdout


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
        # (the C programs' plain accesses race as the papers' programs do; builder programs
        # have atomic accesses only: the race check is off for the comparison)
        c = porlab.explore(prog, explorer, check_races=False)
        b = porlab.explore(builder, explorer)
        assert (c.complete, c.blocked, c.errors) == (b.complete, b.blocked, b.errors), explorer


# ---- unsupported C: one line in the user's terms, with file:line --------------------------------

# (snippet, line of the construct, what the message says). Every message names the line and says
# what in C terms: no LLVM instruction, intrinsic or IR text.
UNSUPPORTED_C = [
    ("#include <stdarg.h>\nint f(int n, ...) {\n  va_list ap; va_start(ap, n);\n"
     "  int x = va_arg(ap, int); va_end(ap); return x;\n}\nint main(void) { return f(1, 2); }\n",
     2, "the variadic function 'f'"),
    ("int foo(int);\nint main(void) {\n  return foo(1);\n}\n", 3,
     "call of the undefined function 'foo'"),
    ("int main(void) {\n  int a = 0;\n  __asm__ volatile(\"cpuid\" : \"=a\"(a) : \"a\"(0));\n"
     "  return a;\n}\n", 3, "inline assembly (\"cpuid\""),
    ("float f = 1.5f;\nint main(void) {\n  f = f * 2.0f;\n  return 0;\n}\n", 3,
     "floating-point arithmetic"),
    ("double d;\nint main(void) {\n  if (d < 1.0) return 1;\n  return 0;\n}\n", 3,
     "floating-point comparison"),
    ("double d = 2.0;\nint main(void) {\n  return (int)d;\n}\n", 3,
     "conversion between integers and floating point"),
    ("float f;\nint main(void) {\n  __atomic_fetch_add(&f, 1.0f, __ATOMIC_SEQ_CST);\n"
     "  return 0;\n}\n", 3, "a floating-point atomic operation"),
    ("#include <setjmp.h>\njmp_buf jb;\nint main(void) {\n  if (setjmp(jb)) return 1;\n"
     "  return 0;\n}\n", 4, "setjmp/longjmp"),
    ("#include <signal.h>\nvoid h(int s) { (void)s; }\nint main(void) {\n  signal(SIGINT, h);\n"
     "  return 0;\n}\n", 4, "signal handlers (signal)"),
    ("#include <threads.h>\n#include <time.h>\nmtx_t m;\nint main(void) {\n"
     "  struct timespec ts = {0, 0};\n  return mtx_timedlock(&m, &ts);\n}\n", 6,
     "no notion of time"),
    ("#include <threads.h>\nmtx_t m;\nint main(void) {\n"
     "  mtx_init(&m, mtx_plain | mtx_recursive);\n  return 0;\n}\n", 4,
     "a recursive mutex (mtx_recursive)"),
    ("#include <pthread.h>\npthread_once_t o = PTHREAD_ONCE_INIT;\nvoid f(void) {}\n"
     "int main(void) {\n  return pthread_once(&o, f);\n}\n", 5, "pthread_once"),
    ("#include <threads.h>\ntss_t k;\nint main(void) {\n  return tss_create(&k, 0);\n}\n", 4,
     "thread-specific storage"),
    ("extern int ext;\nint main(void) {\n  return ext;\n}\n", 3, "the external variable 'ext'"),
    ("int main(void) {\n  void *l = &&out;\n  goto *l;\nout:\n  return 0;\n}\n", 3,
     "computed goto"),
    ("__int128 big;\nint main(void) {\n  big = big + 1;\n  return 0;\n}\n", 3,
     "integers wider than 64 bits"),
    ("long double ld;\nint main(void) {\n  ld = 1;\n  return 0;\n}\n", 3, "long double"),
    ("int main(void) {\n  int r;\n  return __builtin_add_overflow(1, 2, &r);\n}\n", 3,
     "overflow-checking arithmetic"),
]


@pytest.mark.parametrize(
    ("src", "line", "what"), UNSUPPORTED_C,
    ids=[w.split("(")[0].strip().replace(" ", "-") for _, _, w in UNSUPPORTED_C])
def test_unsupported_c_says_what_and_where(src: str, line: int, what: str) -> None:
    with pytest.raises(porlab.UnsupportedError) as err:
        load(src, "u.c")
    msg = str(err.value)
    assert msg.startswith(f"u.c:{line}: "), msg
    assert what in msg, msg
    assert "\n" not in msg.strip(), msg
    for ir in ("llvm.", "%", "= call", "!dbg", "alloca", "atomicrmw"):
        assert ir not in msg, msg


def test_a_directory_is_not_a_c_file(tmp_path: Path) -> None:
    with pytest.raises(porlab.InputError, match="is a directory"):
        porlab.load_c(tmp_path)


def test_barriers_and_fences_in_inline_assembly_are_accepted() -> None:
    src = """
    int x;
    int main(void) {
        x = 1;
        asm volatile("" ::: "memory");
        __asm__ __volatile__("mfence" ::: "memory");
        __asm__ __volatile__("lfence\\n\\tsfence");
        __asm__ __volatile__("lock; addl $0,0(%%rsp)" ::: "memory", "cc");
        return x;
    }
    """
    r = porlab.explore(load(src), "naive")
    assert (r.complete, r.errors) == (1, 0)


# ---- the memory-order warning, the location limit ----------------------------------------------


WEAK_ORDERS = """
#include <pthread.h>
#include <stdatomic.h>
atomic_int flag, data;
void *t(void *a) {
    atomic_store_explicit(&data, 1, memory_order_relaxed);
    atomic_store_explicit(&flag, 1, memory_order_release);
    return 0;
}
int main(void) {
    pthread_t p;
    pthread_create(&p, 0, t, 0);
    if (atomic_load_explicit(&flag, memory_order_acquire))
        (void)atomic_load(&data);
    atomic_thread_fence(memory_order_seq_cst);
    atomic_fetch_add_explicit(&data, 1, memory_order_acq_rel);
    pthread_join(p, 0);
    return 0;
}
"""


def test_non_sc_memory_orders_get_one_warning_naming_the_first() -> None:
    prog = load(WEAK_ORDERS, "weak.c")
    weak = [w for w in c_warnings(prog) if "seq_cst" in w]
    # relaxed + release in t, acquire and acq_rel in main; the seq_cst load and fence are not
    assert len(weak) == 1, c_warnings(prog)
    assert "weak.c:6, relaxed" in weak[0] and "4 atomic accesses" in weak[0]
    assert "sequentially consistent" in weak[0]
    sc = WEAK_ORDERS
    for order in ("relaxed", "release", "acquire", "acq_rel"):
        sc = sc.replace(f"memory_order_{order})", "memory_order_seq_cst)")
    assert not [w for w in c_warnings(load(sc, "sc.c")) if "seq_cst" in w]


def _block_causes() -> list[str]:
    """BlockCause names in code order, from the X-macro that declares them."""
    import re

    text = (ROOT / "cpp" / "porlab" / "core" / "EventKind.hpp").read_text()
    block = text.split("#define PORLAB_BLOCK_CAUSES(X)", 1)[1].split("enum class", 1)[0]
    return re.findall(r'X\(\w+, "([\w-]+)"\)', block)


def test_location_limit_blocks_the_execution_with_a_warning() -> None:
    src = """
    #include <pthread.h>
    #include <stdlib.h>
    int *slot;
    void *t(void *a) { int *p = malloc(sizeof(int)); *p = 1; slot = p; return 0; }
    int main(void) {
        pthread_t th;
        pthread_create(&th, 0, t, 0);
        int *q = malloc(sizeof(int));
        *q = 2;
        pthread_join(th, 0);
        return 0;
    }
    """
    prog = load(src, "limit.c", max_locations=1)
    r = porlab.explore(prog, "naive", keep_traces=True)
    assert r.errors == 0 and r.complete == 0 and r.blocked > 0
    causes = _block_causes()
    blocks = [e for t in r.traces for e in t.events if e.kind == "assume-block"]
    assert blocks and {causes[e.aux] for e in blocks} == {"location-limit"}
    w = [x for x in c_warnings(prog) if "max_locations" in x]
    assert len(w) == 1 and "raise --max-locations" in w[0] and "limit.c:" in w[0]
    # with room for both locations the same program completes
    assert porlab.explore(load(src, "limit.c", max_locations=2), "naive").blocked == 0
