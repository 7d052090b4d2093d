"""Loop transformations (issue 6: ``loops=`` of porlab.load_c, ``porlab run --loops``).

Soundness: every transformation keeps the reachable final states of complete executions and the
assertion failures of the untransformed program, on every C program of tests/c that has a loop,
on the loop benchmarks of benchmarks/programs/loops and on random programs with polling loops,
under the same loop bound (the transformations only remove iterations that change nothing).
Shapes: the counts the Godot paper states (sortnet 1+0 with PLP+Await, no blocked execution of
ttaslock with PLP+Await, IFAA halving mpmc-queue) and what each pass must do to small loops."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

import porlab
from porlab import InputError
from porlab.cfront import LOOP_MODES, disassemble_c, load_c, load_c_source

ROOT = Path(__file__).resolve().parents[2]
CORPUS = sorted((ROOT / "tests" / "c").glob("*.c"))
LOOPS = ROOT / "benchmarks" / "programs" / "loops"
MODES = [m for m in LOOP_MODES if m != "none"]
NOT_STARTED, FINISHED = 0, 2  # ThreadStatus in a C program's outcome tuple


def block_causes() -> list[str]:
    """The names of the block causes (an AssumeBlock marker's aux), in the order of
    PORLAB_BLOCK_CAUSES in cpp/porlab/core/EventKind.hpp."""
    text = (ROOT / "cpp" / "porlab" / "core" / "EventKind.hpp").read_text()
    table = text.split("#define PORLAB_BLOCK_CAUSES(X)", 1)[1].split("enum class", 1)[0]
    return re.findall(r'X\(\w+, "([\w-]+)"\)', table)


def _all_finished(tail: tuple[Any, ...], threads: int | None = None) -> bool:
    """Is every thread of an outcome's thread part finished (status, exit value) or never
    started (status alone), main first (it always starts), with one entry per thread slot when
    `threads` (the program's slot count) is given? (The count keeps a -1 among a blocked
    thread's registers from passing for the separator.)"""
    if not tail or tail[0] != FINISHED:
        return False
    i = entries = 0
    while i < len(tail):
        if tail[i] == NOT_STARTED:
            i += 1
        elif tail[i] == FINISHED and i + 1 < len(tail):
            i += 2
        else:
            return False
        entries += 1
    return threads is None or entries == threads


def complete_states(outcomes: Any, heap: bool,
                    threads: int | None = None) -> set[tuple[Any, ...]]:
    """The final states of complete executions: an outcome is memory, -1, then per thread its
    status and exit value (finished), its status alone (not started) or its frame. With a heap,
    location ids depend on the order of allocation over the whole run, so memory is compared
    as a sorted multiset. Pointers (values beyond 32 bits) name objects by id, and ids depend
    on the code (the transformations declare functions), so they are all made equal."""
    out: set[tuple[Any, ...]] = set()
    for o in outcomes:
        o = tuple(o)
        for k in range(len(o) - 1, -1, -1):
            tail = o[k + 1:]
            if o[k] == -1 and _all_finished(tail, threads):
                mem = tuple(v if abs(v) < 2**32 else 2**62 for v in o[:k])
                if heap:
                    mem = tuple(sorted(mem))
                out.add((mem, tail))
                break
    return out


def verdict(program: Any, explorer: str, heap: bool,
            max_traces: int = 0) -> tuple[set[Any], set[Any], Any]:
    # Final states and assertion failures, as written and reduced: data races (on by default,
    # and what some of these programs have on purpose) are left to tests/python/test_bugchecks.py.
    r = porlab.explore(program, explorer, max_traces=max_traces, check_races=False)
    assert max_traces or not r.budget_exceeded
    sites = {(kind, line) for (_t, kind, _c, _f, line) in r.error_sites}
    return complete_states(r.outcomes, heap, len(program.thread_names)), sites, r


def corpus_args(path: Path) -> dict[str, Any] | None:
    """load_c options of a corpus program (None for options this test does not handle)."""
    m = re.search(r"args:(.*)", path.read_text().split("*/")[0])
    out: dict[str, Any] = {}
    defines: dict[str, str] = {}
    toks = m.group(1).split() if m else []
    i = 0
    while i < len(toks):
        if toks[i] == "--unroll":
            out["unroll"] = int(toks[i + 1])
            i += 1
        elif toks[i].startswith("-D") and len(toks[i]) > 2:
            k, _, v = toks[i][2:].partition("=")
            defines[k] = v or "1"
        elif toks[i] == "--disable-race-detection":
            pass  # (an option of explore: verdict() never checks races, see there)
        else:
            return None
        i += 1
    out["defines"] = defines
    return out


LOOPY = [p for p in CORPUS
         if re.search(r"\b(while|for)\b", p.read_text()) and corpus_args(p) is not None]


def test_corpus_has_loopy_programs() -> None:
    assert len(LOOPY) >= 30
    naive_checked = 0
    for path in LOOPY:
        args = corpus_args(path)
        assert args is not None
        r = porlab.explore(load_c(path, loops="none", **args), "naive", max_traces=20000,
                           collect_outcomes=False)
        naive_checked += not r.budget_exceeded
    assert naive_checked >= 25  # the naive comparison below covers most of them


@pytest.mark.parametrize("path", LOOPY, ids=[p.stem for p in LOOPY])
def test_corpus_same_verdicts(path: Path) -> None:
    args = corpus_args(path)
    assert args is not None
    heap = "malloc" in path.read_text()
    base = verdict(load_c(path, loops="none", **args), "optimal-await", heap)
    for mode in MODES:
        got = verdict(load_c(path, loops=mode, **args), "optimal-await", heap)
        assert got[0] == base[0], f"{mode}: final states differ"
        assert got[1] == base[1], f"{mode}: assertion failures differ"
        # Removing pure iterations never adds executions.
        assert got[2].complete <= base[2].complete, mode
    # The exhaustive oracle too, where the untransformed program has at most 20000 interleavings
    # (most of the corpus; the transformed ones have fewer).
    naive = verdict(load_c(path, loops="none", **args), "naive", heap, max_traces=20000)
    if naive[2].budget_exceeded:
        return
    for mode in MODES:
        got = verdict(load_c(path, loops=mode, **args), "naive", heap)
        assert got[:2] == naive[:2], f"naive, {mode}"


# --- random programs with polling loops ------------------------------------------------------

def _op(rng: random.Random, regs: list[int]) -> str:
    v = rng.choice("xyz")
    w = rng.choice([u for u in "xyz" if u != v])
    c = rng.randint(0, 2)
    r = f"r{len(regs)}"
    regs.append(0)
    kind = rng.randrange(12)
    if kind == 0:
        return f"atomic_store(&{v}, {c});"
    if kind == 1:
        return f"atomic_fetch_add(&{v}, {rng.randint(0, 1)});"
    if kind == 2:
        return f"int {r} = atomic_exchange(&{v}, {c}); (void){r};"
    if kind == 3:
        return f"while (atomic_load(&{v}) != {c}) {{ }}"
    if kind == 4:
        return f"int {r}; do {{ {r} = atomic_load(&{v}); }} while ({r} < {c});"
    if kind == 5:
        return (f"while (1) {{ while (atomic_load(&{v}) != 0) {{ }} "
                f"if (atomic_exchange(&{v}, 1) == 0) break; }} atomic_store(&{v}, 0);")
    if kind == 6:
        return (f"{{ int e; do {{ e = atomic_load(&{v}); }} "
                f"while (!atomic_compare_exchange_strong(&{v}, &e, e + {c})); }}")
    if kind == 7:
        return f"if (atomic_load(&{v}) == {c}) atomic_store(&{w}, {rng.randint(1, 2)});"
    if kind == 8:
        return (f"int {r}; do {{ {r} = atomic_load(&{v}); if ({r} == {c}) "
                f"atomic_store(&{w}, 1); }} while ({r} < {c});")
    if kind == 9:
        return f"int {r}; do {{ {r} = atomic_load(&{v}); }} while ({r} != atomic_load(&{w}));"
    if kind == 10:
        # A polling loop around an inner loop: PLP's "took an internal backedge" flag.
        return (f"int {r}; do {{ int n = atomic_load(&{w}); for (int i = 0; i < n; i++) "
                f"atomic_fetch_add(&{w}, 0); {r} = atomic_load(&{v}); }} while ({r} != {c});")
    return f"assert(atomic_load(&{v}) != {c} || atomic_load(&{w}) != {c});"


def random_program(seed: int) -> str:
    rng = random.Random(seed)
    nthreads = 2
    bodies = []
    for t in range(nthreads):
        regs: list[int] = []
        ops = [_op(rng, regs) for _ in range(rng.randint(2, 3))]
        bodies.append(f"static void *t{t}(void *a) {{\n    (void)a;\n    " + "\n    ".join(ops)
                      + "\n    return 0;\n}\n")
    spawn = "\n    ".join(f"pthread_create(&h[{t}], 0, t{t}, 0);" for t in range(nthreads))
    join = "\n    ".join(f"pthread_join(h[{t}], 0);" for t in range(nthreads))
    return ("#include <assert.h>\n#include <pthread.h>\n#include <stdatomic.h>\n"
            "atomic_int x, y, z;\n" + "".join(bodies)
            + f"int main(void) {{\n    pthread_t h[{nthreads}];\n    {spawn}\n    {join}\n"
            "    return 0;\n}\n")


# The exhaustive explorer on the program as written, where it has at most this many executions
# (most generated programs; the larger ones are compared under optimal-await only, which the
# conformance suites check against naive).
NAIVE_LIMIT = 50_000


def _explorers_for(src: str, explorers: tuple[str, ...], unroll: int = 3) -> list[str]:
    if "naive" not in explorers:
        return list(explorers)
    r = porlab.explore(load_c_source(src, unroll=unroll, loops="none"), "naive",
                       max_traces=NAIVE_LIMIT, collect_outcomes=False)
    return [e for e in explorers if e != "naive" or not r.budget_exceeded]


@pytest.mark.parametrize("seed", range(40))
def test_random_polling_programs(seed: int) -> None:
    src = random_program(seed)
    for explorer in _explorers_for(src, ("naive", "optimal-await")):
        base = verdict(load_c_source(src, unroll=3, loops="none"), explorer, False)
        for mode in MODES:
            got = verdict(load_c_source(src, unroll=3, loops=mode), explorer, False)
            assert got[0] == base[0], f"seed {seed}, {mode}, {explorer}: final states\n{src}"
            assert got[1] == base[1], f"seed {seed}, {mode}, {explorer}: assertions\n{src}"


# --- random programs with the loop shapes SAVER reshapes (rotation, bisimilar merging) ----------

def _reshape_op(rng: random.Random, regs: list[int]) -> str:
    """One statement: a loop that `saver` rotates (a `while (!flag)` loop whose first test is
    known) or whose peeled first iteration it merges with the loop's (LOOP-PEEL), a near miss of
    either, or one of the polling-loop statements above."""
    v = rng.choice("xyz")
    w = rng.choice([u for u in "xyz" if u != v])
    c = rng.randint(0, 1)
    r = f"r{len(regs)}"
    regs.append(0)
    kind = rng.randrange(15)
    if kind == 0:  # CAS-LOOP2
        return (f"{{ _Bool s = 0; while (!s) {{ int a = atomic_load(&{v}); "
                f"s = atomic_compare_exchange_strong(&{v}, &a, a + {c}); }} }}")
    if kind == 1:  # the flag is the loaded value and is used after the loop
        return f"int {r} = 0; while (!{r}) {r} = atomic_load(&{v}); atomic_store(&{w}, {r});"
    if kind == 2:  # the flag from an exchange: a test-and-set lock, then its release
        return (f"{{ int got = 0; while (!got) got = atomic_exchange(&{v}, 1) == 0; "
                f"atomic_store(&{v}, 0); }}")
    if kind == 3:  # a counter the body uses: not rotated
        return (f"{{ int n = 0, s = 0; while (!s) {{ n++; s = atomic_load(&{v}) == {c}; }} "
                f"atomic_store(&{w}, n); }}")
    if kind == 4:  # LOOP-PEEL's thread II
        return f"int {r} = atomic_load(&{v}); while ({r} != {c}) {r} = atomic_load(&{v});"
    if kind == 5:  # LOOP-PEEL with a counter: its phi moves to the merged header
        return (f"{{ int n = 0; int b = atomic_load(&{v}); while (b != {c}) {{ n++; "
                f"b = atomic_load(&{v}); }} atomic_store(&{w}, n); }}")
    if kind == 6:  # linuxrwlocks' read_lock as the paper's benchmark writes it (peeled fetch_sub)
        return (f"{{ int p = atomic_fetch_sub(&{v}, 1); while (p < {c}) {{ "
                f"atomic_fetch_add(&{v}, 1); while (atomic_load(&{v}) < {c}) {{ }} "
                f"p = atomic_fetch_sub(&{v}, 1); }} atomic_fetch_add(&{v}, 1); }}")
    if kind == 7:  # a near miss: the loop reads another variable than the peeled read
        return f"int {r} = atomic_load(&{v}); while ({r} != {c}) {r} = atomic_load(&{w});"
    if kind == 8:  # peeled read followed by a store in both copies
        return (f"int {r} = atomic_load(&{v}); atomic_store(&{w}, 1); "
                f"while ({r} == {c}) {{ {r} = atomic_load(&{v}); atomic_store(&{w}, 1); }}")
    if kind == 9:  # a `continue` keeps the flag: that backedge needs no test
        return (f"{{ int done = 0; while (!done) {{ if (atomic_load(&{v}) == {c}) continue; "
                f"done = atomic_exchange(&{w}, 1) == 0; }} }}")
    if kind == 10:  # the flag is used after a `break` (its value at the iteration's start)
        return (f"{{ int s = 0; while (!s) {{ if (atomic_load(&{v}) == {c}) break; "
                f"s = atomic_load(&{w}); }} atomic_store(&{v}, s + 1); }}")
    if kind == 11:  # ms-queue's dequeue as GenMC writes it: three paths, a value carried out
        return (f"{{ int value = -1; _Bool s = 0; while (!s) {{ int a = atomic_load(&{v}); "
                f"if (a == {c}) atomic_store(&{w}, 1); else if (a < {c}) {{ value = a; "
                f"s = atomic_compare_exchange_strong(&{v}, &a, a + 1); }} }} "
                f"atomic_store(&{w}, value); }}")
    if kind == 12:  # a flag and a counter of the attempts, both read after the loop
        return (f"{{ int n = 0, got = 0; while (!got) {{ n++; if (atomic_load(&{w}) != 0) "
                f"continue; got = atomic_exchange(&{v}, 1) == 0; }} "
                f"atomic_store(&{w}, n + got); }}")
    return _op(rng, regs)


def reshape_program(seed: int) -> str:
    rng = random.Random(seed)
    bodies = []
    for t in range(2):
        regs: list[int] = []
        ops = [_reshape_op(rng, regs) for _ in range(rng.randint(1, 2))]
        bodies.append(f"static void *t{t}(void *a) {{\n    (void)a;\n    " + "\n    ".join(ops)
                      + "\n    return 0;\n}\n")
    return ("#include <assert.h>\n#include <pthread.h>\n#include <stdatomic.h>\n"
            "atomic_int x, y, z;\n" + "".join(bodies)
            + "int main(void) {\n    pthread_t h[2];\n    pthread_create(&h[0], 0, t0, 0);\n"
            "    pthread_create(&h[1], 0, t1, 0);\n    atomic_store(&x, 1);\n"
            "    atomic_store(&y, 1);\n    atomic_store(&z, 1);\n"
            "    pthread_join(h[0], 0);\n    pthread_join(h[1], 0);\n"
            "    assert(atomic_load(&y) != 2 || atomic_load(&z) != 2);\n    return 0;\n}\n")


RESHAPE_SEEDS = range(60)


@pytest.mark.parametrize("seed", RESHAPE_SEEDS)
def test_random_reshaped_programs(seed: int) -> None:
    """`saver` rotates and merges loops before its spin-assume. Merging keeps the loop bound's
    accounting (one back-jump per iteration after the first); rotation moves the exit test to
    the end of the loop, so the iteration that exits no longer jumps back to the header first:
    a rotated loop may run one iteration more under the same bound. So `saver` under bound u
    reaches every final state and assertion failure of the program as written under u, and
    nothing the program as written does not reach under u + 1 (when the program terminates
    within u, the same ones); the other modes keep exactly those of bound u. Checked with the
    exhaustive oracle, the DPOR explorer and the graph explorer that runs SAVER's dynamic
    checks (the bound u + 1 with the DPOR explorer, which the other tests compare with the
    exhaustive one)."""
    src = reshape_program(seed)
    more = verdict(load_c_source(src, unroll=4, loops="none"), "optimal-await", False)
    for explorer in _explorers_for(src, ("naive", "optimal-await", "graph")):
        base = verdict(load_c_source(src, unroll=3, loops="none"), explorer, False)
        for mode in MODES:
            got = verdict(load_c_source(src, unroll=3, loops=mode), explorer, False)
            where = f"seed {seed}, {mode}, {explorer}"
            if mode not in ("saver", "plp-saver"):  # the modes that rotate loops
                assert got[0] == base[0], f"{where}: final states\n{src}"
                assert got[1] == base[1], f"{where}: assertions\n{src}"
                continue
            assert base[0] <= got[0] <= more[0], f"{where}: final states\n{src}"
            assert base[1] <= got[1] <= more[1], f"{where}: assertions\n{src}"


def test_random_reshaped_programs_are_reshaped() -> None:
    """The programs above do exercise the reshaping: in many of them `saver` blocks more
    backedges than spin-assume alone (an assume more in the listing)."""
    more = 0
    for seed in RESHAPE_SEEDS:
        src = reshape_program(seed)
        spin = disassemble_c(load_c_source(src, unroll=3, loops="spin-assume"))
        saver = disassemble_c(load_c_source(src, unroll=3, loops="saver"))
        more += saver.count("__porlab_spin_assume") > spin.count("__porlab_spin_assume")
    assert more >= len(RESHAPE_SEEDS) // 3, more


# --- what each pass does ---------------------------------------------------------------------

def counts(path: Path | str, explorer: str = "optimal-await", ifaa: bool = False,
           **kw: Any) -> tuple[int, int]:
    p = load_c_source(path, **kw) if isinstance(path, str) else load_c(path, **kw)
    # Executions as the papers count them: sortnet_spin.c's spin reads race with the writes of
    # v[] on purpose (as in the paper's program), so the race check is off.
    r = porlab.explore(p, explorer, ifaa=ifaa, check_races=False)
    assert not r.errors
    return r.complete, r.blocked


POLL = """#include <pthread.h>
#include <stdatomic.h>
atomic_int x; int y;
static void *p(void *a) { (void)a; while (atomic_load(&x) != 1) { } y = y + 1; return 0; }
int main(void) { pthread_t t; pthread_create(&t, 0, p, 0); y = 42; atomic_store(&x, 1);
                 pthread_join(t, 0); return 0; }
"""


def test_polling_loop_becomes_an_await() -> None:
    listing = disassemble_c(load_c_source(POLL, loops="plp-await"))
    assert "__VERIFIER_load_await_" in listing
    assert "loopback" not in listing  # the loop is gone
    plain = disassemble_c(load_c_source(POLL, loops="plp"))
    assert "__porlab_spin_assume" in plain and "__VERIFIER_load_await_" not in plain
    spin = disassemble_c(load_c_source(POLL, loops="spin-assume"))
    assert "__porlab_spin_assume" in spin
    assert "__porlab_spin_assume" not in disassemble_c(load_c_source(POLL, loops="none"))
    # Godot Fig. 2: the assume version has a blocked execution, the await version none.
    assert counts(POLL, loops="plp", unroll=4) == (1, 1)
    assert counts(POLL, loops="plp-await", unroll=4) == (1, 0)
    assert counts(POLL, loops="saver", unroll=4) == (1, 1)


FIG6 = """#include <pthread.h>
#include <stdatomic.h>
atomic_int x, y, z;
static void *p(void *v) { (void)v; int a, b;
    do { a = atomic_load(&x); b = atomic_load(&y); (void)b; if (a == 4) atomic_store(&z, 42); }
    while (a >= 4);
    return 0; }
int main(void) { pthread_t t; pthread_create(&t, 0, p, 0); atomic_store(&x, 5);
                 atomic_store(&x, 4); atomic_store(&x, 1); pthread_join(t, 0); return 0; }
"""


def test_godot_fig6_assume_right_after_the_load() -> None:
    """Fig. 6: the purity condition [a > 4] is checked right after a := x, before b := y."""
    listing = disassemble_c(load_c_source(FIG6, loops="plp"))
    body = listing.split("function p")[1].split("function main")[0]
    lines = [ln for ln in body.splitlines() if "load" in ln or "__porlab_spin_assume" in ln]
    assert "__porlab_spin_assume" in lines[1], lines
    # SAVER's spin-assume cannot use the loop: the path with a = 4 writes z.
    assert "__porlab_spin_assume" not in disassemble_c(load_c_source(FIG6, loops="spin-assume"))


def test_unknown_mode_is_an_input_error() -> None:
    with pytest.raises(InputError, match="loops must be one of"):
        load_c_source(POLL, loops="rotate")


UAF_PEEL = """#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
_Atomic(int *) shared;
static void *reader(void *v) {
    (void)v;
    int *p = atomic_load(&shared);
    int b = atomic_load((_Atomic int *)p);
    while (b != 0)
        b = atomic_load((_Atomic int *)p);
    return 0;
}
int main(void) {
    int *p = malloc(sizeof(int));
    *p = 1;
    atomic_store(&shared, p);
    pthread_t t;
    pthread_create(&t, 0, reader, 0);
    free(p);
    pthread_join(t, 0);
    return 0;
}
"""


def test_bisimilarity_keeps_error_sites() -> None:
    """The peeled read and the loop's read of a heap cell fault at different lines when the
    cell is freed in between; `saver` does not merge them (one read would report both)."""
    sites = []
    for mode in ("none", "saver"):
        r = porlab.explore(load_c_source(UAF_PEEL, unroll=4, loops=mode), "naive")
        sites.append({(kind, line) for (_t, kind, _c, _f, line) in r.error_sites})
    assert sites[0] == {("fault", 8), ("fault", 10)}
    assert sites[1] == sites[0]


# --- the loop benchmarks -----------------------------------------------------------------------

BENCH = sorted(LOOPS.glob("*.c"))


@pytest.mark.parametrize("path", BENCH, ids=[p.stem for p in BENCH])
def test_benchmarks_same_verdicts(path: Path) -> None:
    heap = "malloc" in path.read_text()
    defines = {"N": 2}
    base = verdict(load_c(path, defines=defines, unroll=5, loops="none"), "optimal-await", heap)
    assert base[0], "no complete execution"
    for mode in MODES:
        got = verdict(load_c(path, defines=defines, unroll=5, loops=mode), "optimal-await", heap)
        assert got[0] == base[0] and got[1] == base[1], mode


@pytest.mark.parametrize("n", [2, 3])
def test_sortnet_one_execution_with_plp_await(n: int) -> None:
    assert counts(LOOPS / "sortnet_spin.c", defines={"N": n}, unroll=2 * n + 1,
                  loops="plp-await") == (1, 0)
    t, b = counts(LOOPS / "sortnet_spin.c", "optimal", defines={"N": n}, unroll=2 * n + 1,
                  loops="plp")
    assert t == 1 and b > 0


# Godot Table I (ALGORITHMS.md §1.4), the rows our harnesses reproduce exactly, complete+blocked
# executions per Nidhugg column: baseline, PLP, PLP+Await, +IFAA (None: not reproduced, see
# benchmarks/programs/loops/README.md), at the papers' loop bound #threads + 1, which is porlab's
# `unroll` (visits of a loop header, as Nidhugg's and GenMC's -unroll); mutex-musl's is the SAVER
# paper's 2.
# Nidhugg's baseline runs its own spin-assume pass: porlab's `spin-assume`, except where that
# pass does more than Nidhugg's (treiber-stack: a failed CAS; ms-queue: everything but a failed
# head CAS, which -DSPIN_ASSUME_HEAD_CAS=1 blocks by hand), where the baseline is `none`.
Cell = tuple[int, int] | None


def _row_id(row: tuple[Any, ...]) -> str:
    """A table row's test id: the harness and its define values, e.g. mcslock-3."""
    return f"{row[0]}-{'-'.join(map(str, row[1].values()))}"


GODOT_TABLE1: list[tuple[str, dict[str, int], int, str, Cell, Cell, Cell, Cell]] = [
    ("qspinlock", {"N": 2}, 3, "spin-assume", (6, 2), (6, 2), (6, 2), (6, 2)),
    ("qspinlock", {"N": 3}, 4, "spin-assume", (564, 462), (564, 462), (564, 456), (564, 456)),
    ("mcslock", {"N": 3}, 4, "spin-assume", (336, 426), (336, 426), (336, 72), (336, 72)),
    ("mcslock", {"N": 4}, 5, "spin-assume", (26232, 33432), (26232, 33432), (26232, 4824),
     (26232, 4824)),
    ("twalock", {"N": 3}, 4, "spin-assume", (96, 90), (96, 90), (96, 0), (96, 0)),
    ("twalock", {"N": 4}, 5, "spin-assume", (6144, 7224), (6144, 7224), (6144, 0), (6144, 0)),
    ("mutex_musl", {"N": 2}, 2, "spin-assume", (20, 2), (20, 2), (20, 0), (20, 0)),
    ("mutex", {"N": 2}, 3, "spin-assume", (12, 2), (12, 2), (12, 0), (10, 0)),
    ("ms_queue", {"N": 3, "SPIN_ASSUME_HEAD_CAS": 1}, 4, "none", (901, 374), None, None, None),
    ("linuxrwlocks", {"N": 3}, 4, "spin-assume", (38033, 31993), (38033, 31993), (38033, 0),
     (3840, 0)),
    ("ttaslock", {"N": 3}, 4, "spin-assume", (162, 183), (36, 81), (36, 0), (36, 0)),
    ("ttaslock", {"N": 4}, 5, "spin-assume", (20760, 29440), (576, 2308), (576, 0), (576, 0)),
    ("seqlock", {"N": 3}, 4, "spin-assume", None, (9, 83), (9, 36), (9, 36)),
    ("seqlock", {"N": 4}, 5, "spin-assume", None, (88, 2769), (88, 729), (88, 729)),
    ("treiber_stack", {"N": 3}, 4, "none", (426, 0), (274, 80), (274, 60), (274, 60)),
    ("mpmc_queue_cds", {"N": 3}, 4, "spin-assume", None, (166, 840), (166, 517), (76, 421)),
    # The artifact's CAS loops (a failed CAS refreshes the expected value): Nidhugg's PLP treats
    # the refresh as pure, and so does porlab's (Plp.cpp, refreshedByCas).
    ("mpmc_queue_cds", {"N": 3, "CDS_CAS": 1}, 4, "spin-assume", (11206, 8188), (166, 840),
     (166, 517), (76, 421)),
]


@pytest.mark.parametrize(("name", "defines", "unroll", "base_mode", "baseline", "plp", "await_",
                          "ifaa"), GODOT_TABLE1,
                         ids=[_row_id(r) for r in GODOT_TABLE1])
def test_godot_table1(name: str, defines: dict[str, int], unroll: int, base_mode: str,
                      baseline: Cell, plp: Cell, await_: Cell, ifaa: Cell) -> None:
    path = LOOPS / f"{name}.c"
    kw: dict[str, Any] = {"defines": defines, "unroll": unroll}
    if baseline is not None:
        assert counts(path, "optimal", loops=base_mode, **kw) == baseline
    if plp is not None:
        assert counts(path, "optimal", loops="plp", **kw) == plp
    if await_ is not None:
        assert counts(path, loops="plp-await", **kw) == await_
    if ifaa is not None:
        assert counts(path, ifaa=True, loops="plp-await", **kw) == ifaa


# SAVER on the same harnesses (graph engine, `--loops saver`): Godot Table I's GenMC SAVER
# column (complete+blocked) where our counts equal it, and the SAVER paper's Table I (complete
# only; its GenMC\S column is the program as written, `none`, complete+blocked here).
# linuxrwlocks needs Algorithm 2 as published (zne=paper); the sound default removes nothing.
SAVER_TABLE1: list[tuple[str, dict[str, int], int, str, tuple[int, int] | int]] = [
    ("qspinlock", {"N": 3}, 4, "strict", (564, 462)),
    ("ttaslock", {"N": 3}, 4, "strict", (162, 183)),
    ("seqlock", {"N": 3}, 4, "strict", (9, 83)),
    ("seqlock", {"N": 4}, 5, "strict", 88),
    ("mutex", {"N": 2}, 3, "strict", (12, 2)),
    ("mutex_musl", {"N": 2}, 2, "strict", (20, 2)),
    ("ms_queue", {"N": 3, "SPIN_ASSUME_HEAD_CAS": 1}, 4, "strict", (75, 284)),
    ("linuxrwlocks", {"N": 3}, 4, "paper", (24, 59)),
    ("linuxrwlocks", {"N": 4}, 5, "paper", (1060, 5518)),
    ("treiber_stack", {"N": 3}, 4, "strict", 18),
    ("treiber_stack", {"N": 4}, 5, "strict", 484),
    ("ms_queue", {"N": 4, "SPIN_ASSUME_HEAD_CAS": 1}, 5, "strict", 10662),
    ("mpmc_queue_cds", {"N": 3}, 4, "strict", 166),
]


@pytest.mark.parametrize(("name", "defines", "unroll", "zne", "want"), SAVER_TABLE1,
                         ids=[_row_id(r) for r in SAVER_TABLE1])
def test_saver_table1(name: str, defines: dict[str, int], unroll: int, zne: str,
                      want: tuple[int, int] | int) -> None:
    p = load_c(LOOPS / f"{name}.c", defines=defines, unroll=unroll, loops="saver")
    r = porlab.explore(p, "graph", zne=zne)
    assert not r.errors
    assert ((r.complete, r.blocked) if isinstance(want, tuple) else r.complete) == want


@pytest.mark.parametrize(("name", "n", "genmc_s"), [
    ("mcslock", 3, 5964), ("qspinlock", 2, 12), ("qspinlock", 3, 13764), ("twalock", 3, 1338),
    ("ttaslock", 3, 11031), ("ms_queue", 3, 1389), ("mutex", 2, 18), ("treiber_stack", 3, 426)])
def test_saver_paper_genmc_without_heuristic(name: str, n: int, genmc_s: int) -> None:
    """The SAVER paper's GenMC\\S column: every execution of the program as written, within the
    loop bound (the ones that exceed it are our blocked ones)."""
    assert sum(counts(LOOPS / f"{name}.c", "optimal", defines={"N": n}, unroll=n + 1,
                      loops="none")) == genmc_s


def test_ifaa_halves_mpmc_queue() -> None:
    kw: dict[str, Any] = {"defines": {"N": 3}, "unroll": 5, "loops": "plp-await"}
    t, b = counts(LOOPS / "mpmc_queue.c", **kw)
    ti, bi = counts(LOOPS / "mpmc_queue.c", ifaa=True, **kw)
    assert (ti * 2, bi * 2) == (t, b)


# Godot Table II (ALGORITHMS.md §1.4): safestack-ABC(k), complete+blocked executions per column
# (Nidhugg baseline = spin-assume, PLP, PLP+Await, +IFAA); the loop bound is #threads + 1.
SAFESTACK = LOOPS / "safestack.c"
SAFESTACK_TABLE = [
    ("21", (119, 6), (34, 2), (34, 1), (19, 1)),
    ("31", (928, 107), (103, 27), (103, 25), (56, 25)),
    ("32", (7189, 296), (1073, 27), (1073, 12), (463, 12)),
    ("33", None, (6434, 1636), (6434, 1584), (2600, 1160)),
    ("211", None, (2690, 1126), (2690, 928), (962, 686)),
    ("311", None, (0, 26536), (0, 24078), (0, 14960)),
]


@pytest.mark.parametrize(("ops", "baseline", "plp", "await_", "ifaa"), SAFESTACK_TABLE,
                         ids=[row[0] for row in SAFESTACK_TABLE])
def test_safestack_godot_table2(ops: str, baseline: tuple[int, int] | None,
                                plp: tuple[int, int], await_: tuple[int, int],
                                ifaa: tuple[int, int]) -> None:
    defines = {f"OPS{i}": int(c) for i, c in enumerate(ops)}
    kw: dict[str, Any] = {"defines": defines, "unroll": len(ops) + 2}
    if baseline is not None:
        assert counts(SAFESTACK, "optimal", loops="spin-assume", **kw) == baseline
    assert counts(SAFESTACK, "optimal", loops="plp", **kw) == plp
    assert counts(SAFESTACK, loops="plp-await", **kw) == await_
    assert counts(SAFESTACK, ifaa=True, loops="plp-await", **kw) == ifaa


@pytest.mark.parametrize(("ops", "genmc"), [("21", (119, 6)), ("31", (928, 107)),
                                            ("32", (7189, 296))])
def test_safestack_saver_column(ops: str, genmc: tuple[int, int]) -> None:
    """Table II's GenMC SAVER column equals its baseline on the two-thread harnesses ("SAVER is
    completely or mostly ineffective"); so does ours, on the graph engine."""
    kw: dict[str, Any] = {"defines": {f"OPS{i}": int(c) for i, c in enumerate(ops)}, "unroll": 4}
    assert counts(SAFESTACK, "graph", loops="saver", **kw) == genmc
    assert counts(SAFESTACK, "graph", loops="none", **kw) == genmc


@pytest.mark.parametrize("name", ["ws_r_peeled", "w_rs_peeled"])
def test_peeled_readers_one_execution_with_saver(name: str) -> None:
    """SAVER Table II: with bisimilar-node merging every reader keeps one read, pinned to the
    last write by spin-assume: 1 complete execution (spin-assume alone keeps the peeled read)."""
    kw: dict[str, Any] = {"defines": {"N": 3}, "unroll": 5}
    saver = counts(LOOPS / f"{name}.c", "graph", loops="saver", **kw)
    spin = counts(LOOPS / f"{name}.c", "graph", loops="spin-assume", **kw)
    assert saver[0] == 1
    assert spin[0] > 100 * saver[0]


def test_cas_loop2_rotated() -> None:
    """CAS-LOOP2 with N threads: once rotated, a failing CAS blocks, so the complete executions
    are the N! orders of the successful CASes (the program as written retries)."""
    kw: dict[str, Any] = {"defines": {"N": 3}, "unroll": 5}
    assert counts(LOOPS / "cas_loop2.c", "graph", loops="saver", **kw)[0] == 6
    assert counts(LOOPS / "cas_loop2.c", "graph", loops="spin-assume", **kw)[0] > 6


def test_ms_queue_paths_keep_their_backedges() -> None:
    """ms-queue as GenMC writes it (`while (!success)`, SAVER Table I: L, S, D): rotation and
    jump threading give the dequeue's inconsistent-snapshot path its own backedge, which
    spin-assume blocks, and the tail-helping path one with a purity check; without them nothing
    applies (spin-assume alone explores what the program as written does)."""
    kw: dict[str, Any] = {"defines": {"N": 3}, "unroll": 4}
    path = LOOPS / "ms_queue.c"
    none = counts(path, "graph", loops="none", **kw)
    spin = counts(path, "graph", loops="spin-assume", **kw)
    saver = counts(path, "graph", loops="saver", **kw)
    assert spin == none
    assert saver[0] < none[0] // 4
    listing = disassemble_c(load_c(path, loops="saver", **kw))
    assert "__porlab_spin_assume" in listing and "__porlab_purity_check" in listing
    assert "__porlab_spin_assume" not in disassemble_c(load_c(path, loops="spin-assume", **kw))


# --- the shapes of issue 15 §2 -----------------------------------------------------------------
#
# For each shape: porlab's `plp-await` (and the default, `plp-saver`) explores no more than
# Nidhugg's PLP+Await, and `saver` no more than GenMC's SAVER, with the final states and
# assertion failures of the program as written (naive on `loops="none"`, same bound). Neither
# tool runs here: what Nidhugg explores is derived from Godot §III's rules (the derivation is in
# each test's comment) as the program PLP+Await produces, written with the builder; Optimal-DPOR-
# Await explores one trace per Mazurkiewicz class of it (Godot Theorem 2), which the exhaustive
# partition of the builder program counts with machinery independent of the C front end.

def _as_written(src: str, unroll: int) -> tuple[set[Any], set[Any], Any]:
    return verdict(load_c_source(src, unroll=unroll, loops="none"), "naive", "malloc" in src)


def _classes(p: porlab.Program) -> int:
    """Mazurkiewicz classes of maximal executions (complete, blocked and error) of a builder
    program: what an optimal explorer (Nidhugg's Optimal-DPOR-Await) explores."""
    return porlab.partition_sizes(p)["mazurkiewicz"]


def _twin(name: str, *bodies: Any) -> porlab.Program:
    """A builder program whose main spawns and joins one thread per body, as the C programs
    below do (main is thread 0, the others in pthread_create order)."""
    p = porlab.Program(name)
    main = p.thread("main")
    shared: dict[str, Any] = {}
    threads = [p.thread(f"t{i}", start=False) for i in range(len(bodies))]
    for body, t in zip(bodies, threads, strict=True):
        body(p, t, shared)
    with main as m:
        for t in threads:
            m.spawn(t)
        for t in threads:
            m.join(t)
    return p


def _var(p: porlab.Program, shared: dict[str, Any], name: str) -> Any:
    if name not in shared:
        shared[name] = p.var(name)
    return shared[name]


def _shape_counts(src: str, unroll: int, explorer: str, loops: str) -> tuple[int, int, Any]:
    r = porlab.explore(load_c_source(src, unroll=unroll, loops=loops), explorer)
    return r.complete, r.blocked, r


def _same_verdict(src: str, unroll: int, base: tuple[set[Any], set[Any], Any]) -> None:
    for loops, explorer in (("plp-await", "optimal-await"), ("plp", "optimal"),
                            ("saver", "graph"), ("plp-saver", "optimal-await"),
                            ("plp-saver", "source"), ("plp-saver", "graph"),
                            ("plp-saver", "naive")):
        got = verdict(load_c_source(src, unroll=unroll, loops=loops), explorer, "malloc" in src)
        assert got[:2] == base[:2], (loops, explorer)


SEQLOCK_FENCE = """
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
atomic_int seq, data;
static void *writer(void *a) {
    (void)a;
    atomic_store(&seq, 1);
    atomic_store(&data, 1);
    atomic_store(&seq, 2);
    return 0;
}
static void *reader(void *a) {
    (void)a;
    int s, d;
    while (1) {
        s = atomic_load(&seq);
        atomic_thread_fence(memory_order_seq_cst);
        if (s == 1) continue;
        d = atomic_load(&data);
        atomic_thread_fence(memory_order_seq_cst);
        if (atomic_load(&seq) == s) break;
    }
    assert(d == (s == 2));
    return 0;
}
int main(void) {
    pthread_t h[2];
    pthread_create(&h[0], 0, writer, 0);
    pthread_create(&h[1], 0, reader, 0);
    pthread_join(h[0], 0);
    pthread_join(h[1], 0);
    return 0;
}
"""


def _seq_writer(p: porlab.Program, t: Any, sh: dict[str, Any]) -> None:
    seq, data = _var(p, sh, "seq"), _var(p, sh, "data")
    t.store(seq, 1)
    t.store(data, 1)
    t.store(seq, 2)


def test_shape_fence_in_a_retry_loop() -> None:
    """A seqlock reader whose retry loop fences. Nidhugg's PLP (Godot §III): a fence modifies no
    variable (g = True, as for a load), so the purity condition is [s = 1] ∨ [s ≠ 1 ∧ s2 ≠ s]:
    assume(s ≠ 1) right after s := seq and, where s ≠ 1 holds, assume(s2 = s) right after
    s2 := seq; the await rewriting makes them s := await(seq ≠ 1) and await(seq = s), and the
    loop is gone. GenMC's SAVER: both backedges' loopy paths write nothing and assign only
    registers dead at the header (Def. 3), so spin-assume puts assume(s ≠ 1) and assume(s2 = s)
    at their ends (plain assumes, no awaits). Before porlab counted fences as pure, the loop was
    left alone by every mode."""
    base = _as_written(SEQLOCK_FENCE, 4)
    assert base[0] and not base[1]

    def reader_await(p: porlab.Program, t: Any, sh: dict[str, Any]) -> None:
        seq, data = _var(p, sh, "seq"), _var(p, sh, "data")
        s = t.await_(seq, "!=", 1)
        d = t.load(data)
        t.await_(seq, "==", s)
        t.assert_(d == (s == 2))

    def reader_assume(p: porlab.Program, t: Any, sh: dict[str, Any]) -> None:
        seq, data = _var(p, sh, "seq"), _var(p, sh, "data")
        s = t.load(seq)
        t.assume(s != 1)
        d = t.load(data)
        s2 = t.load(seq)
        t.assume(s2 == s)
        t.assert_(d == (s == 2))

    nidhugg = _classes(_twin("seqlock_plp_await", _seq_writer, reader_await))
    genmc = _classes(_twin("seqlock_spin_assume", _seq_writer, reader_assume))
    c, b, _ = _shape_counts(SEQLOCK_FENCE, 4, "optimal-await", "plp-await")
    assert c + b == nidhugg
    c, b, _ = _shape_counts(SEQLOCK_FENCE, 4, "optimal-await", "plp-saver")
    assert c + b <= nidhugg
    c, b, _ = _shape_counts(SEQLOCK_FENCE, 4, "graph", "saver")
    assert c + b <= genmc
    none = _shape_counts(SEQLOCK_FENCE, 4, "optimal-await", "none")
    assert none[0] + none[1] > 2 * nidhugg
    _same_verdict(SEQLOCK_FENCE, 4, base)


DEEP_CALLS = """
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
atomic_int flag, data;
static int get5(void) { return atomic_load(&flag); }
static int get4(void) { return get5(); }
static int get3(void) { return get4(); }
static int get2(void) { return get3(); }
static int get1(void) { return get2(); }
static int get0(void) { return get1(); }
static void *writer(void *a) {
    (void)a;
    atomic_store(&data, 1);
    atomic_store(&data, 2);
    atomic_store(&flag, 1);
    return 0;
}
static void *reader(void *a) {
    (void)a;
    while (!get0()) { }
    assert(atomic_load(&data) == 2);
    return 0;
}
int main(void) {
    pthread_t h[2];
    pthread_create(&h[0], 0, writer, 0);
    pthread_create(&h[1], 0, reader, 0);
    pthread_join(h[0], 0);
    pthread_join(h[1], 0);
    return 0;
}
"""


def test_shape_loop_through_six_levels_of_calls() -> None:
    """A polling loop whose load is six calls deep. Inlined (as deep as the calls go), it is
    `while (!flag) {}`: Nidhugg's PLP gives assume(flag ≠ 0) after the load, the await rewriting
    await(flag ≠ 0) (Godot Fig. 2); GenMC's spin-assume assume(flag ≠ 0) at the end of the loop.
    A tool that did not see through the calls would explore every execution of the program as
    written, more. porlab inlined four levels before: the loop was left alone."""
    base = _as_written(DEEP_CALLS, 4)

    def writer(p: porlab.Program, t: Any, sh: dict[str, Any]) -> None:
        t.store(_var(p, sh, "data"), 1)
        t.store(_var(p, sh, "data"), 2)
        t.store(_var(p, sh, "flag"), 1)

    def reader_await(p: porlab.Program, t: Any, sh: dict[str, Any]) -> None:
        t.await_(_var(p, sh, "flag"), "!=", 0)
        t.assert_(t.load(_var(p, sh, "data")) == 2)

    def reader_assume(p: porlab.Program, t: Any, sh: dict[str, Any]) -> None:
        f = t.load(_var(p, sh, "flag"))
        t.assume(f != 0)
        t.assert_(t.load(_var(p, sh, "data")) == 2)

    nidhugg = _classes(_twin("deep_plp_await", writer, reader_await))
    genmc = _classes(_twin("deep_spin_assume", writer, reader_assume))
    assert "__VERIFIER_load_await_" in disassemble_c(load_c_source(DEEP_CALLS, loops="plp-await"))
    c, b, _ = _shape_counts(DEEP_CALLS, 4, "optimal-await", "plp-await")
    assert (c, b) == (1, 0) and c + b == nidhugg
    c, b, _ = _shape_counts(DEEP_CALLS, 4, "optimal-await", "plp-saver")
    assert c + b <= nidhugg
    c, b, _ = _shape_counts(DEEP_CALLS, 4, "graph", "saver")
    assert c + b <= genmc
    _same_verdict(DEEP_CALLS, 4, base)


CAS_REFRESH = """
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
struct counter { int pad; atomic_int v; } s;
atomic_int x;
static void *inc(void *a) {
    (void)a;
    int e = atomic_load(&x);
    while (!atomic_compare_exchange_WEAKNESS(&x, &e, e + 1)) { }
    int f = atomic_load(&s.v);
    while (!atomic_compare_exchange_WEAKNESS(&s.v, &f, f + 2)) { }
    return 0;
}
int main(void) {
    pthread_t h[2];
    for (int i = 0; i < 2; i++) pthread_create(&h[i], 0, inc, 0);
    for (int i = 0; i < 2; i++) pthread_join(h[i], 0);
    assert(atomic_load(&x) == 2 && atomic_load(&s.v) == 4);
    return 0;
}
"""


@pytest.mark.parametrize("weakness", ["strong", "weak"])
def test_shape_cas_loop_refreshing_its_expected_value(weakness: str) -> None:
    """`e = x; while (!cas(&x, &e, e + 1));` on a variable and on a struct member, weak and
    strong. A failed iteration changes only e, to the value the CAS read; since e's first value
    is a load of x with nothing visible between it and the CAS, the state after a failed
    iteration is the one reached when that load reads the value later: the failed iteration is
    pure. Nidhugg's PLP treats it so (it reproduces Godot's PLP columns on CDSChecker's
    mpmc-queue, whose CAS loops have this shape: test_godot_table1[mpmc_queue_cds-3-1]):
    assume(success) after the CAS, then the await rewriting e := load x;
    xchg-await(x, e + 1, = e). GenMC's SAVER leaves the loop alone (e is live at the header:
    Def. 3 and the dynamic check need every register assigned on the loopy path dead there), so
    it explores every execution of the program as written."""
    src = CAS_REFRESH.replace("WEAKNESS", weakness)
    base = _as_written(src, 3)

    def inc(p: porlab.Program, t: Any, sh: dict[str, Any]) -> None:
        for name, step in (("x", 1), ("v", 2)):
            v = _var(p, sh, name)
            e = t.load(v)
            t.xchg_await(v, "==", e, e + step)

    nidhugg = _classes(_twin("cas_refresh_plp_await", inc, inc))
    c, b, _ = _shape_counts(src, 3, "optimal-await", "plp-await")
    assert c + b == nidhugg
    assert c == 4  # the orders of the two threads' successful CASes, per variable
    c, b, _ = _shape_counts(src, 3, "optimal-await", "plp-saver")
    assert c + b <= nidhugg
    none = _shape_counts(src, 3, "graph", "none")
    saver = _shape_counts(src, 3, "graph", "saver")
    assert saver[:2] == none[:2]  # GenMC's SAVER: the program as written
    assert nidhugg < none[0] + none[1]
    _same_verdict(src, 3, base)


SAME_VALUE = """
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
atomic_int lock, gate, n;
static void *worker(void *a) {
    (void)a;
    while (atomic_exchange(&lock, 1) == 1) { }   /* a failed exchange writes 1 over 1 */
    atomic_store(&n, atomic_load(&n) + 1);
    atomic_store(&lock, 0);
    int z = 0;
    while (atomic_compare_exchange_strong(&gate, &z, 0)) { z = 0; }  /* writes 0 over 0 */
    return 0;
}
static void *opener(void *a) {
    (void)a;
    atomic_store(&gate, 1);
    return 0;
}
int main(void) {
    pthread_t h[3];
    pthread_create(&h[0], 0, worker, 0);
    pthread_create(&h[1], 0, worker, 0);
    pthread_create(&h[2], 0, opener, 0);
    for (int i = 0; i < 3; i++) pthread_join(h[i], 0);
    assert(atomic_load(&n) == 2);
    return 0;
}
"""


def test_shape_writes_of_the_value_already_there() -> None:
    """A test-and-set lock (a failed exchange writes 1 over 1) and a loop on a CAS that
    succeeds writing the value already there (0 over 0) while the gate is closed. Nidhugg's PLP:
    the exchange's guard is b = a (b := xchg(x, a)), true on the looping path (b = 1), so
    assume(b ≠ 1) follows the exchange and becomes xchg-await(lock, 1, ≠ 1); the CAS's guard in
    Godot's table is its failure, false on this looping path (the CAS succeeds), so Nidhugg
    keeps that loop: its executions are at least those of the twin below with the gate loop
    as a bounded loop. porlab also counts a successful CAS whose expected and new values are
    equal as no modification (¬success ∨ expected = new), so it blocks the gate loop's
    iterations too: no more. GenMC's SAVER: the exchange's looping path writes (Def. 3 sees a
    write), the dynamic check sees a write event: it keeps both loops, so at most what the
    program as written explores."""
    base = _as_written(SAME_VALUE, 3)

    def worker(p: porlab.Program, t: Any, sh: dict[str, Any]) -> None:
        lock, gate, n = _var(p, sh, "lock"), _var(p, sh, "gate"), _var(p, sh, "n")
        t.xchg_await(lock, "!=", 1, 1)
        t.store(n, t.load(n) + 1)
        t.store(lock, 0)
        with t.loop(bound=3) as lp:  # --unroll 3
            ok = t.cas(gate, 0, 0)
            lp.break_if(ok == 0)

    def opener(p: porlab.Program, t: Any, sh: dict[str, Any]) -> None:
        t.store(_var(p, sh, "gate"), 1)

    nidhugg = _classes(_twin("same_value_plp_await", worker, worker, opener))
    listing = disassemble_c(load_c_source(SAME_VALUE, loops="plp-await"))
    assert "__VERIFIER_xchg_await_" in listing and "__porlab_spin_assume" in listing
    c, b, _ = _shape_counts(SAME_VALUE, 3, "optimal-await", "plp-await")
    assert c + b <= nidhugg
    c, b, _ = _shape_counts(SAME_VALUE, 3, "optimal-await", "plp-saver")
    assert c + b <= nidhugg
    none = _shape_counts(SAME_VALUE, 3, "graph", "none")
    c, b, _ = _shape_counts(SAME_VALUE, 3, "graph", "saver")
    assert c + b <= none[0] + none[1]
    _same_verdict(SAME_VALUE, 3, base)


TTAS = """
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
atomic_int lock, n;
static void *worker(void *a) {
    (void)a;
    while (1) {
        while (atomic_load(&lock) != 0) { }
        if (atomic_exchange(&lock, 1) == 0) break;
    }
    atomic_store(&n, atomic_load(&n) + 1);
    atomic_store(&lock, 0);
    return 0;
}
int main(void) {
    pthread_t h[2];
    for (int i = 0; i < 2; i++) pthread_create(&h[i], 0, worker, 0);
    for (int i = 0; i < 2; i++) pthread_join(h[i], 0);
    assert(atomic_load(&n) == 2);
    return 0;
}
"""


def test_shape_polling_loop_inside_a_retry_loop() -> None:
    """TTAS: the outer loop's path enters the inner polling loop. Nidhugg's PLP, innermost
    first: the inner loop becomes await(lock = 0); the branch it decides is folded, so the
    outer loop has no internal backedge left; its looping path is the failed exchange
    (b = 1: it writes 1 over 1, g = [b = a]), so assume(b = 0) follows the exchange and
    becomes xchg-await(lock, 1, = 0) (Godot Table I, ttaslock: PLP+Await 36+0 for three
    threads, test_godot_table1). GenMC's SAVER keeps the outer loop (the looping path writes;
    Godot Table I: ttaslock(3) 162+183, test_saver_table1)."""
    base = _as_written(TTAS, 3)

    def worker(p: porlab.Program, t: Any, sh: dict[str, Any]) -> None:
        lock, n = _var(p, sh, "lock"), _var(p, sh, "n")
        t.await_(lock, "==", 0)
        t.xchg_await(lock, "==", 0, 1)
        t.store(n, t.load(n) + 1)
        t.store(lock, 0)

    nidhugg = _classes(_twin("ttas_plp_await", worker, worker))
    c, b, _ = _shape_counts(TTAS, 3, "optimal-await", "plp-await")
    assert b == 0 and c + b == nidhugg
    c, b, _ = _shape_counts(TTAS, 3, "optimal-await", "plp-saver")
    assert c + b <= nidhugg
    spin = _shape_counts(TTAS, 3, "graph", "spin-assume")
    saver = _shape_counts(TTAS, 3, "graph", "saver")
    assert saver[0] + saver[1] <= spin[0] + spin[1]
    _same_verdict(TTAS, 3, base)


SCAN_WAIT = """
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
atomic_int flag[3], data;
static int someone_at(int i, int v) {
    int found = 0;
    for (int j = 0; j < 3; ++j)
        if (j != i && atomic_load(&flag[j]) == v) found = 1;
    return found;
}
static void *waiter(void *a) {
    (void)a;
    while (!someone_at(0, 4)) { }
    assert(atomic_load(&data) == 42);
    return 0;
}
static void *setter(void *a) {
    (void)a;
    SET_ORDER
    return 0;
}
int main(void) {
    pthread_t h[2];
    pthread_create(&h[0], 0, waiter, 0);
    pthread_create(&h[1], 0, setter, 0);
    pthread_join(h[0], 0);
    pthread_join(h[1], 0);
    return 0;
}
"""
SCAN_OK = SCAN_WAIT.replace("SET_ORDER", "atomic_store(&data, 42); atomic_store(&flag[1], 4);")
SCAN_BUG = SCAN_WAIT.replace("SET_ORDER", "atomic_store(&flag[2], 4); atomic_store(&data, 42);")
# The filter lock's shape: the scan returns as soon as it finds one (a second exit, so only an
# upper bound of its iterations is known).
SCAN_EARLY = SCAN_BUG.replace("found = 1;", "return 1;")


def test_reduced_code_is_the_same_in_every_process(tmp_path: Path) -> None:
    """The loop passes emit the same code in every process: PLP's conditions were emitted in
    the order of their atoms' pointers, so szymanski.c compiled to other registers in another
    process, and a Dask worker refused the program (its code hash differed from the driver's)."""
    import subprocess
    import sys

    (tmp_path / "scan.c").write_text(SCAN_EARLY)
    code = ("import sys; from porlab.cfront import disassemble_c, load_c; "
            "print(disassemble_c(load_c(sys.argv[1])))")
    for path in (str(ROOT / "benchmarks" / "programs" / "shared" / "szymanski.c"),
                 str(tmp_path / "scan.c")):
        listings = {subprocess.run([sys.executable, "-c", code, path], check=True,
                                   capture_output=True, text=True).stdout for _ in range(4)}
        assert len(listings) == 1, path


def test_source_text_compiles_to_the_same_code_every_time() -> None:
    """load_c_source compiles in a fresh temporary directory each time (its name counts the
    loads); __FILE__ in assert's message named that directory, so the tenth load of a source
    compiled to other code than the ninth — and a Dask worker, which had loaded fewer programs
    than the driver, refused the program."""
    listings = {disassemble_c(load_c_source(SCAN_BUG, file_name="scan.c", loops="none"))
                for _ in range(12)}
    assert len(listings) == 1


@pytest.mark.parametrize("src", [SCAN_OK, SCAN_BUG, SCAN_EARLY], ids=["ok", "bug", "early"])
def test_shape_wait_scanning_a_fixed_array(src: str) -> None:
    """A wait loop whose condition scans a fixed array through a helper (Szymanski's and the
    filter lock's waits: `while (!someone_at(i, 4)) {}`). The scan is a loop inside the wait
    loop, and PLP/SAVER count an iteration that takes an inner backedge as impure (Godot §III's
    "took" flag), so the wait was never reduced: without a bound the waiter spun until the
    execution was cut (INCOMPLETE). The default unrolls loops of a small fixed trip count inside
    other loops: the wait's iteration is pure, the run is exhaustive, with the final states and
    assertion failures of the program as written under a bound. With a bound below the scan's
    trip count (--unroll 3: the header runs 4 times) the scan stays a loop, as the bound must
    cut it exactly where Nidhugg's and GenMC's -unroll do."""
    r = porlab.explore(load_c_source(src), "optimal-await", check_races=False)
    assert r.exhausted and not r.incomplete and "execution-cut" not in r.blocked_by
    assert r.complete >= 1
    base = _as_written(src, 6)
    assert base[0]
    assert bool(base[1]) == (src is not SCAN_OK)
    for explorer in ("optimal-await", "graph", "rf"):
        got = verdict(load_c_source(src), explorer, heap=False)
        assert got[:2] == base[:2], explorer
    bounded = disassemble_c(load_c_source(src, unroll=3))
    unrolled = disassemble_c(load_c_source(src, unroll=4))
    assert bounded.count("loopback") > unrolled.count("loopback")


BRANCHES = """
#include <pthread.h>
#include <stdatomic.h>
atomic_int c, x, y, z;
static void *reader(void *a) {
    (void)a;
    int b;
    do {
        int r = atomic_load(&c);
        if (r) {
            int v = atomic_load(&x);
            if (v == 2) atomic_store(&z, 1);
        }
        b = atomic_load(&y);
    } while (b != 1);
    return 0;
}
static void *writer(void *a) {
    (void)a;
    atomic_store(&c, 1);
    atomic_store(&x, 2);
    atomic_store(&x, 3);
    atomic_store(&y, 1);
    return 0;
}
int main(void) {
    pthread_t h[2];
    pthread_create(&h[0], 0, reader, 0);
    pthread_create(&h[1], 0, writer, 0);
    pthread_join(h[0], 0);
    pthread_join(h[1], 0);
    return 0;
}
"""


def test_shape_purity_condition_over_two_branches() -> None:
    """The purity condition [r ≠ 0 ∧ v ≠ 2 ∧ b ≠ 1] ∨ [r = 0 ∧ b ≠ 1]: the first disjunct's
    registers are defined on different branches (v in the `if`, b after it, neither block
    dominating the other). Godot §III inserts assume(¬c_i) after the latest definition, with
    arbitrary values for registers whose definition the execution did not pass (v on the else
    path, where r = 0 falsifies c_1 anyway): Nidhugg blocks both kinds of pure iteration, after
    b := y. porlab used to leave c_1 out; it now inserts it with a flag that tells whether the
    iteration passed v's definition. The twin is the program PLP produces (the loop stays: the
    path that stores z is impure), under the same bound."""
    base = _as_written(BRANCHES, 4)

    def reader(p: porlab.Program, t: Any, sh: dict[str, Any]) -> None:
        c, x, y, z = (_var(p, sh, n) for n in "cxyz")
        v = t.reg("v")
        with t.loop(bound=4) as lp:  # --unroll 4
            r = t.load(c)
            with t.if_(r != 0):
                t.set(v, t.load(x))
                with t.if_(v == 2):
                    t.store(z, 1)
            b = t.load(y)
            t.assume(((r != 0) & (v != 2) & (b != 1)) == 0)
            t.assume(((r == 0) & (b != 1)) == 0)
            lp.break_if(b == 1)

    def writer(p: porlab.Program, t: Any, sh: dict[str, Any]) -> None:
        c, x, y = (_var(p, sh, n) for n in "cxy")
        t.store(c, 1)
        t.store(x, 2)
        t.store(x, 3)
        t.store(y, 1)

    nidhugg = _classes(_twin("branches_plp", reader, writer))
    listing = disassemble_c(load_c_source(BRANCHES, loops="plp", unroll=4))
    assert listing.count("__porlab_spin_assume") == 2  # both disjuncts placed
    c, b, _ = _shape_counts(BRANCHES, 4, "optimal", "plp")
    assert c + b == nidhugg
    c, b, _ = _shape_counts(BRANCHES, 4, "optimal-await", "plp-saver")
    assert c + b <= nidhugg
    none = _shape_counts(BRANCHES, 4, "optimal", "none")
    assert nidhugg < none[0] + none[1]
    _same_verdict(BRANCHES, 4, base)


ZNE_RETRY = """
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
atomic_int x;
static void *retry(void *a) {
    (void)a;
    while (1) {
        int v = atomic_fetch_add(&x, 1);
        if (v == 0) break;
        atomic_fetch_sub(&x, 1);
    }
    return 0;
}
static void *observer(void *a) {
    (void)a;
    int b = atomic_load(&x);
    int c = atomic_load(&x);
    assert(!(b == 2 && c == 1));  /* a failed attempt's increment, then its decrement */
    return 0;
}
int main(void) {
    pthread_t h[3];
    pthread_create(&h[0], 0, retry, 0);
    pthread_create(&h[1], 0, retry, 0);
    pthread_create(&h[2], 0, observer, 0);
    for (int i = 0; i < 3; i++) pthread_join(h[i], 0);
    return 0;
}
"""


@pytest.mark.parametrize("explorer", ["naive", "source", "optimal", "optimal-await", "graph",
                                      "rf-graph", "lapor"])
def test_shape_zne_terminates_by_default(explorer: str) -> None:
    """SAVER's zero-net-effect retry loop (increment, test, cancel) with two contenders and an
    observer that may see the counter flicker: the first contender's attempt succeeds and the
    second's fail for ever, so the program as written has no bound. In the default mode, with
    no --unroll, the DPOR explorers and naive end (zne awaits: a thread whose increment nobody
    observed waits at its canceling decrement, and is blocked there at the end, cause zne, its
    marker naming the iteration's first event), and so do the graph explorers (zne markers,
    lifted by an observer, and no revisit keeps a decrement whose observer it took away), and
    find the program's verdict: the assertion failure of the observer (the program as written
    under a bound, for comparison). GenMC
    applies its spinloop reductions by default with every setting; SAVER's paper blocks such an
    iteration at its decrement (§VI, Algorithm 2)."""
    base = _as_written(ZNE_RETRY, 3)
    assert base[1], "the observer's assertion fails in the program as written"
    r = porlab.explore(load_c_source(ZNE_RETRY), explorer, keep_traces=True)
    assert not r.budget_exceeded
    assert {(kind, line) for (_t, kind, _c, _f, line) in r.error_sites} == base[1]
    assert r.stats["zne_blocked"] > 0
    causes = block_causes()
    for t in r.traces:
        for e in t.events:
            if e.kind == "assume-block" and causes[e.aux] == "zne":
                first = [f for f in t.events if f.thread == e.thread and f.index == e.operand]
                assert first and first[0].kind == "fetch-add" and first[0].operand == 1


# --- the default loop handling -------------------------------------------------------------------

SPIN_FLAG = """
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
atomic_int flag, data;
static void *t(void *a) { (void)a; atomic_store(&data, 42); atomic_store(&flag, 1); return 0; }
int main(void) {
    pthread_t p;
    pthread_create(&p, 0, t, 0);
    while (!atomic_load(&flag)) { }
    assert(atomic_load(&data) == 42);
    pthread_join(p, 0);
    return 0;
}
"""


def test_default_is_a_spin_loop_reduction() -> None:
    """load_c / load_c_source reduce spin loops by default (`plp-saver`): `while (!flag) {}`
    without a bound becomes an await, one complete execution, where the program as written
    (loops="none") needs a bound and explores the spins."""
    assert porlab.cfront.DEFAULT_LOOPS == "plp-saver" == LOOP_MODES[0]
    r = porlab.explore(load_c_source(SPIN_FLAG), "optimal-await")
    assert (r.complete, r.blocked, r.errors) == (1, 0, 0) and not r.budget_exceeded
    assert "__VERIFIER_load_await_" in disassemble_c(load_c_source(SPIN_FLAG))
    bounded = porlab.explore(load_c_source(SPIN_FLAG, loops="none", unroll=4), "optimal-await")
    assert bounded.complete > 1 and bounded.blocked > 0


def _explorer_names() -> list[str]:
    return [e["name"] for e in porlab.explorers()]


SMALL_LOOPY = [p for p in LOOPY if p.stem in {
    "unroll_blocked", "peterson", "spinlock_tas", "ttas_lock", "cas_counter", "ticket_lock",
    "atomic_flag_lock", "treiber_stack", "sync_builtins"}]


@pytest.mark.parametrize("explorer", _explorer_names())
def test_default_is_sound_for_every_explorer(explorer: str) -> None:
    """The default mode with every registered explorer: the final states of complete
    executions and the assertion failures of the program as written (naive, loops="none",
    same bound), on the spinning programs of tests/c and on random polling programs."""
    assert len(SMALL_LOOPY) == 9
    cases: list[tuple[str, Any, dict[str, Any]]] = []
    for path in SMALL_LOOPY:
        args = corpus_args(path)
        assert args is not None
        cases.append((path.stem, lambda loops, p=path, a=args: load_c(p, loops=loops, **a),
                      {"heap": "malloc" in path.read_text()}))
    for seed in range(12):
        src = random_program(seed)
        cases.append((f"seed {seed}",
                      lambda loops, s=src: load_c_source(s, unroll=3, loops=loops),
                      {"heap": False}))
    for name, load, kw in cases:
        base = verdict(load("none"), "naive", kw["heap"])
        got = verdict(load("plp-saver"), explorer, kw["heap"])
        assert got[0] == base[0], f"{name}, {explorer}: final states"
        assert got[1] == base[1], f"{name}, {explorer}: assertions"
