"""Bugs the established checkers report (issue 15 §4): data races (on by default), reads of
uninitialised memory, and liveness violations (on request). Every check has a program with the
bug and a fixed twin; where counts are involved every explorer is checked against naive."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import porlab
from porlab.testing import check_explorer

ROOT = Path(__file__).resolve().parents[2]
EXPLORERS = [e["name"] for e in porlab.explorers()]


def fault_names() -> list[str]:
    """FaultKind names in code order, in kebab case, from the X-macro of EventKind.hpp."""
    text = (ROOT / "cpp" / "porlab" / "core" / "EventKind.hpp").read_text()
    block = text.split("#define PORLAB_FAULTS(X)", 1)[1].split("enum class", 1)[0]
    return [re.sub(r"(?<!^)(?=[A-Z])", "-", n).lower() for n in re.findall(r"X\((\w+),", block)]


def site_kinds(r: porlab.Result) -> set[str]:
    names = fault_names()
    return {names[s[2]] if s[1] == "fault" else s[1] for s in r.error_sites}


def site_lines(r: porlab.Result) -> set[int]:
    return {s[-1] for s in r.error_sites}


def load(src: str, **kw: Any) -> Any:
    return porlab.load_c_source(src, **{"loops": "none", **kw})


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "porlab", *args], capture_output=True,
                          text=True, timeout=120, check=False, cwd=ROOT)


# ---------------------------------------------------------------------------------------------
# Data races

# Two threads increment a counter: with plain accesses the increments race (line 6); with an
# atomic fetch-add, or with the plain increment under a mutex, they do not.
RACY_COUNTER = """#include <pthread.h>
int count;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
    (void)arg;
    INCREMENT;
    return 0;
}
int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return count == 2 ? 0 : 1;
}
"""
PLAIN = "count = count + 1"
ATOMIC = "__atomic_fetch_add(&count, 1, __ATOMIC_SEQ_CST)"
LOCKED = "pthread_mutex_lock(&m); count = count + 1; pthread_mutex_unlock(&m)"


def counter(increment: str) -> Any:
    return load(RACY_COUNTER, defines={"INCREMENT": increment})


@pytest.mark.parametrize("explorer", EXPLORERS)
def test_race_found_by_every_explorer_as_naive(explorer: str) -> None:
    prog = counter(PLAIN)
    assert check_explorer(prog, explorer) == []
    r = porlab.explore(prog, explorer)
    assert r.errors > 0 and site_kinds(r) == {"data-race"} and site_lines(r) == {6}
    # without the check the program is race-free in porlab's eyes: no error at all
    off = porlab.explore(prog, explorer, check_races=False)
    assert off.errors == 0 and off.complete > 0


@pytest.mark.parametrize("increment", [ATOMIC, LOCKED], ids=["atomic", "mutex"])
@pytest.mark.parametrize("explorer", EXPLORERS)
def test_fixed_counter_has_no_race(increment: str, explorer: str) -> None:
    prog = counter(increment)
    assert check_explorer(prog, explorer) == []
    r = porlab.explore(prog, explorer)
    assert r.errors == 0 and r.complete > 0


def test_race_trace_names_both_accesses() -> None:
    r = porlab.explore(counter(PLAIN), "naive")
    t = r.first_error
    assert t is not None
    last = len(t.events) - 1
    text = t.describe(last)
    assert "data race on count" in text
    # the marker's operand is the trace position of the other access, by the other thread
    marker = t.events[last]
    other = t.events[marker.operand]
    assert other.thread == marker.value_read and other.thread != marker.thread
    assert other.loc == marker.loc
    assert "count" in t.describe(marker.operand)
    # the site's own access of the location comes before the marker, on the marker's thread
    assert any(e.thread == marker.thread and "count" in t.describe(i)
               for i, e in enumerate(t.events[:last]))
    # the site's message (--all-errors, JSON) names the location and the other thread too
    sites = porlab.explore(counter(PLAIN), "naive", stop_on_error=False).errors_by_site
    assert sites and all("data race on count with t" in s["message"] for s in sites)


def test_race_counts_match_partition() -> None:
    """A racy trace is an error trace ending at the race, for naive and the partition alike:
    naive's error traces are the interleavings that reach a race."""
    prog = counter(PLAIN)
    naive = porlab.explore(prog, "naive")
    sizes = porlab.partition_sizes(prog)
    assert naive.errors > 0 and naive.complete == 0
    assert sizes.errors["interleavings"] == naive.errors


HB_EDGES = """#include <pthread.h>
#include <stdatomic.h>
int data;
atomic_int flag;
void *child(void *arg) {
    (void)arg;
    data = data + 1;   // after main's write: ordered by the spawn
    SYNC_CHILD;
    return 0;
}
int main(void) {
    pthread_t t;
    data = 1;
    pthread_create(&t, 0, child, 0);
    SYNC_MAIN;
    return data;
}
"""


@pytest.mark.parametrize(("child", "main", "racy"), [
    ("(void)0", "pthread_join(t, 0)", False),                  # join orders the child's write
    ("atomic_store(&flag, 1)", "while (!atomic_load(&flag)) {}", False),  # release/acquire
    ("(void)0", "(void)0", True),                              # nothing orders main's read
    ("atomic_store(&flag, 1)", "(void)atomic_load(&flag)", True),  # may read flag too early
])
def test_happens_before_edges(child: str, main: str, racy: bool) -> None:
    prog = porlab.load_c_source(HB_EDGES, defines={"SYNC_CHILD": child, "SYNC_MAIN": main})
    for explorer in ("naive", "optimal", "rf"):
        r = porlab.explore(prog, explorer)
        assert (site_kinds(r) == {"data-race"}) == racy, (explorer, r.error_sites)
        if not racy:
            assert r.errors == 0


def test_cli_race_flag_and_json(tmp_path: Path) -> None:
    path = tmp_path / "racy.c"
    path.write_text(RACY_COUNTER.replace("INCREMENT", PLAIN))
    res = run_cli("run", str(path), "--loops", "none", "--json")
    assert res.returncode == 42, res.stderr
    got = json.loads(res.stdout)
    assert any("data race on count" in e["event"] for e in got["error_trace"])
    res = run_cli("run", str(path), "--loops", "none", "--disable-race-detection")
    assert res.returncode == 0, res.stdout + res.stderr


# ---------------------------------------------------------------------------------------------
# Uninitialised reads

UNINIT = """#include <stdlib.h>
#include <string.h>
#include <pthread.h>
struct pair { char c; long v; };   // padding after c
void *reader(void *arg) {
    int *p = arg;
    return (void *)(long)READ;
}
int main(void) {
    int *p = ALLOC;
    INIT;
    struct pair a, b;
    a.c = 1;
    a.v = 2;
    memcpy(&b, &a, sizeof a);       // copies the padding too: not an error
    pthread_t t;
    pthread_create(&t, 0, reader, p);
    pthread_join(t, 0);
    return (int)b.v;
}
"""


@pytest.mark.parametrize(("alloc", "init", "bug"), [
    ("malloc(sizeof(int))", "(void)0", True),
    ("malloc(sizeof(int))", "*p = 0", False),
    ("calloc(1, sizeof(int))", "(void)0", False),
])
@pytest.mark.parametrize("explorer", EXPLORERS)
def test_uninitialized_read(alloc: str, init: str, bug: bool, explorer: str) -> None:
    prog = load(UNINIT, defines={"ALLOC": alloc, "INIT": init, "READ": "*p"})
    r = porlab.explore(prog, explorer)
    assert check_explorer(prog, explorer) == []
    if bug:
        assert site_kinds(r) == {"uninitialized-read"} and site_lines(r) == {7}
    else:
        assert r.errors == 0 and r.complete > 0


def test_uninitialized_stack_variable() -> None:
    src = """#include <pthread.h>
void *reader(void *arg) { return (void *)(long)*(int *)arg; }
int main(void) {
    int x;
    pthread_t t;
    pthread_create(&t, 0, reader, &x);
    pthread_join(t, 0);
    return 0;
}
"""
    r = porlab.explore(load(src), "optimal")
    assert site_kinds(r) == {"uninitialized-read"} and site_lines(r) == {2}
    fixed = porlab.explore(load(src.replace("int x;", "int x = 3;")), "optimal")
    assert fixed.errors == 0


# ---------------------------------------------------------------------------------------------
# Liveness (check_liveness / --check-liveness)

SPIN = """#include <pthread.h>
#include <stdatomic.h>
atomic_int flag;
void *t(void *a) { (void)a; while (atomic_load(&flag) == 0) {} return 0; }
int main(void) {
    pthread_t th;
    pthread_create(&th, 0, t, 0);
    SET;
    pthread_join(th, 0);
    return 0;
}
"""
LOST_SIGNAL = """#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready;
void *waiter(void *a) {
    (void)a;
    pthread_mutex_lock(&m);
    WAIT_LOOP
    pthread_cond_wait(&c, &m);
    pthread_mutex_unlock(&m);
    return 0;
}
int main(void) {
    pthread_t th;
    pthread_create(&th, 0, waiter, 0);
    pthread_mutex_lock(&m);
    ready = 1;
    pthread_cond_signal(&c);
    pthread_mutex_unlock(&m);
    pthread_join(th, 0);
    return 0;
}
"""
TTAS = """#include <pthread.h>
#include <stdatomic.h>
atomic_int lock;
atomic_int counter;
void acquire(void) {
    for (;;) {
        while (atomic_load(&lock) != 0) {}
        if (atomic_exchange(&lock, 1) == 0) return;
    }
}
void *worker(void *a) {
    (void)a;
    acquire();
    atomic_fetch_add(&counter, 1);
    RELEASE;
    return 0;
}
int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
"""
LIVENESS = {
    "spin": (SPIN, {"SET": "(void)0"}, {"SET": "atomic_store(&flag, 1)"}),
    "lost-signal": (LOST_SIGNAL, {"WAIT_LOOP": "(void)0;"}, {"WAIT_LOOP": "while (!ready)"}),
    "ttas": (TTAS, {"RELEASE": "(void)0"}, {"RELEASE": "atomic_store(&lock, 0)"}),
}


@pytest.mark.parametrize("name", LIVENESS)
@pytest.mark.parametrize("explorer", ["naive", "optimal", "optimal-await", "graph", "rf"])
def test_liveness_with_spin_loop_reduction(name: str, explorer: str) -> None:
    """With the default loop handling (spin loops reduced), the bug is a liveness violation
    found by every explorer, and only with check_liveness; the fixed twin has none."""
    src, bug, fixed = LIVENESS[name]
    prog = porlab.load_c_source(src, defines=bug)
    r = porlab.explore(prog, explorer, check_liveness=True)
    assert "liveness-violation" in site_kinds(r), r.error_sites
    assert "liveness-violation" not in site_kinds(porlab.explore(prog, explorer))
    ok = porlab.explore(porlab.load_c_source(src, defines=fixed), explorer, check_liveness=True)
    assert ok.errors == 0 and ok.complete > 0


@pytest.mark.parametrize("name", LIVENESS)
def test_liveness_as_written_with_unroll(name: str) -> None:
    """With --loops none --unroll 3 a spinning thread is stopped by the loop bound, which says
    nothing about liveness: the spin and TTAS bugs are not reported (the bound hides them), the
    lost signal (a wait, no loop) still is. Fixed twins: no error. Counts are naive's."""
    src, bug, fixed = LIVENESS[name]
    prog = porlab.load_c_source(src, defines=bug, loops="none", unroll=3)
    r = porlab.explore(prog, "naive", check_liveness=True)
    kinds = site_kinds(r)
    if name == "lost-signal":
        assert kinds == {"liveness-violation"}
    else:
        assert r.errors == 0 and r.blocked > 0 and r.blocked_by.get("loop-bound", 0) > 0
    okp = porlab.load_c_source(src, defines=fixed, loops="none", unroll=3)
    ok = porlab.explore(okp, "naive", check_liveness=True)
    assert ok.errors == 0 and ok.complete > 0
    assert check_explorer(okp, "optimal") == []


def test_cli_check_liveness(tmp_path: Path) -> None:
    path = tmp_path / "spin.c"
    path.write_text(SPIN.replace("SET", "(void)0"))
    res = run_cli("run", str(path), "--check-liveness", "--json")
    assert res.returncode == 42, res.stderr
    got = json.loads(res.stdout)
    assert any("liveness violation" in e["event"] for e in got["error_trace"])
    res = run_cli("run", str(path))
    assert res.returncode != 42, res.stdout
