"""Error traces people can read (issue 14): the failing assertion's text, the function and call
stack of every event, pointers by the program's own names, frees as frees, the nondet inputs,
columns sized to the thread names, every distinct error site with a count and a trace, and the
execution graph as Graphviz files. From Python, the command line and JSON alike.

Expected texts and lines come from the C sources below (markers `// L:name` give the lines), and
the counts per error site from the classes of each program worked out by hand in the comments.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import porlab
from porlab.cli import main

pytestmark = pytest.mark.skipif(
    not getattr(porlab._core, "HAS_C_FRONTEND", False), reason="built without the C front end"
)


def line_of(source: str, marker: str) -> int:
    """The line of the source holding the comment `// L:marker`."""
    for n, text in enumerate(source.splitlines(), 1):
        if f"// L:{marker}" in text:
            return n
    raise AssertionError(f"no marker {marker}")


def load(source: str, name: str = "t.c", **kw: Any) -> porlab._core.ProgramBase:
    kw.setdefault("loops", "none")
    return porlab.load_c_source(source, name, **kw)


# The programs here race on purpose (their point is the failing assertion and how its trace
# reads): the race check, on by default, would report the race first.
NO_RACES = "--disable-race-detection"


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(args)
    return code, capsys.readouterr().out


# A list pushed by a worker through a helper, read by main: pointers into the heap and into a
# global array of structs, a helper's events, the assertion that fails when main sees the flag
# before the data.
LIST = """\
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

struct node { int val; struct node *next; };
struct node *head;
struct node nodes[2];
int data;
int flag;

void push(struct node *n) {
    n->next = head;  // L:next
    head = n;        // L:head
}

void *worker(void *arg) {
    struct node *n = malloc(sizeof *n);  // L:malloc
    n->val = 1;
    push(n);         // L:push1
    push(&nodes[1]); // L:push2
    flag = 1;
    data = 42;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    if (flag) {
        struct node *h = head;
        assert(data == 42 && h != 0);  // L:assert
    }
    pthread_join(t, 0);
    return 0;
}
"""


@pytest.fixture(scope="module")
def list_trace() -> porlab.Trace:
    r = porlab.explore(load(LIST, "list.c"), "optimal-await", stop_on_error=True,
                      check_races=False)
    assert r.errors == 1 and r.first_error is not None
    return r.first_error


def test_assertion_text_and_where_it_failed(list_trace: porlab.Trace) -> None:
    tr = list_trace
    pos = tr.error_position
    assert pos == len(tr) - 1
    assert tr.error_message == "assertion `data == 42 && h != 0' failed"
    assert tr.describe(pos) == tr.error_message
    assert tr.source(pos) == f"list.c:{line_of(LIST, 'assert')}"
    assert tr.function(pos) == "main"


def test_function_and_call_stack_of_every_event(list_trace: porlab.Trace) -> None:
    tr = list_trace
    head_writes = [i for i, e in enumerate(tr.events)
                   if e.kind == "write" and tr.location_name(e.loc) == "head"]
    assert len(head_writes) == 2  # one per push
    for i, call in zip(head_writes, ("push1", "push2"), strict=True):
        assert tr.function(i) == "push"
        assert tr.stack_text(i) == "push <- worker"
        # innermost first: the event in push, then worker at its call of push
        assert tr.stack(i) == [("push", f"list.c:{line_of(LIST, 'head')}"),
                               ("worker", f"list.c:{line_of(LIST, call)}")]
    spawn = next(i for i, e in enumerate(tr.events) if e.kind == "spawn")
    assert tr.stack(spawn) == [("main", tr.source(spawn))]
    # a program without call stacks (a builder program) says so with empty answers
    p = porlab.Program("b")
    x = p.var("x")
    with p.thread("t") as t:
        t.store(x, 1)
    btr = porlab.explore(p, keep_traces=True).traces[0]
    assert btr.function(0) == "" and btr.stack(0) == [] and btr.stack_text(0) == ""


def test_trace_frame_has_functions_and_texts(list_trace: porlab.Trace) -> None:
    df = porlab.trace_frame(list_trace)
    assert list(df["function"]) == [list_trace.function(i) for i in range(len(list_trace))]
    assert set(df["function"]) == {"main", "worker", "push"}
    assert list(df["event"])[-1] == "assertion `data == 42 && h != 0' failed"


def test_pointers_by_the_programs_names(list_trace: porlab.Trace) -> None:
    tr = list_trace
    text = [tr.describe(i) for i in range(len(tr))]
    # head starts NULL; the first push stores the heap block, the second &nodes[1], whose next
    # field then holds the block.
    assert "read head -> NULL" in text
    assert "write head := malloc@t1#0" in text
    assert "write nodes[1].next := malloc@t1#0" in text
    assert "write head := &nodes[1]" in text
    assert "write malloc@t1#0+8 := NULL" in text  # n->next = head (NULL) at offset 8
    assert "write malloc@t1#0 := 1" in text  # n->val = 1: an int, a number
    assert not any("42949672" in t or "68719476" in t for t in text)  # no raw encodings
    (obj,) = tr.objects()
    assert obj == {"name": "malloc@t1#0", "kind": "malloc", "size": 16,
                   "source": f"list.c:{line_of(LIST, 'malloc')}", "thread": "t1:worker"}


FREE = """\
#include <pthread.h>
#include <stdlib.h>

int *p;
int *q;

void *reader(void *arg) {
    int *r = p;
    if (r) return (void *)(long)*r;  // L:use
    return 0;
}

int main(void) {
    pthread_t t;
    int local = 5;
    q = &local;                     // L:escape
    p = calloc(2, sizeof(int));     // L:calloc
    pthread_create(&t, 0, reader, 0);
    free(p);                        // L:free
    pthread_join(t, 0);
    return 0;
}
"""


def test_free_is_a_free_and_freed_memory_reads_dead() -> None:
    r = porlab.explore(load(FREE, "free.c"), "naive", stop_on_error=True)
    tr = r.first_error
    assert tr is not None and tr.error_message == "fault: use after free"
    text = [tr.describe(i) for i in range(len(tr))]
    frees = [i for i, e in enumerate(tr.events) if tr.describe(i).startswith("free ")]
    # one free event per location of the block (calloc(2, 4): the reader touches offset 0)
    assert frees and all(tr.source(i) == f"free.c:{line_of(FREE, 'free')}" for i in frees)
    assert all(tr.events[i].kind in ("exchange", "write") for i in frees)  # what explorers see
    assert "free calloc@main#1" in text
    assert not any(t.startswith("xchg") for t in text)
    # the reader's access after the free reads what the free left there
    assert "read calloc@main#1 -> (dead)" in text
    assert text[-1] == "fault: use after free"
    assert tr.source(len(tr) - 1) == f"free.c:{line_of(FREE, 'use')}"
    # the escaped stack variable and the heap block, with where they were allocated
    assert "write q := &local@main#0" in text
    objs = {o["name"]: o for o in tr.objects()}
    assert objs["calloc@main#1"]["source"] == f"free.c:{line_of(FREE, 'calloc')}"
    assert objs["calloc@main#1"]["kind"] == "calloc" and objs["calloc@main#1"]["size"] == 8


STACK = """\
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct node { int val; struct node *next; };
_Atomic(struct node *) top;

void push(struct node *n) {
    struct node *old;
    do {
        old = atomic_load(&top);
        n->next = old;
    } while (!atomic_compare_exchange_strong(&top, &old, n));  // L:push
}

struct node *pop(void) {
    struct node *old = atomic_load(&top);
    while (old && !atomic_compare_exchange_strong(&top, &old, old->next)) {}  // L:pop
    return old;
}

void *worker(void *arg) {
    struct node *n = pop();
    if (n) free(n);
    return 0;
}

int main(void) {
    pthread_t a, b;
    struct node *n = malloc(sizeof *n);
    push(n);
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
"""


def test_atomic_pointers_are_pointers_too() -> None:
    """clang accesses _Atomic(T *) as 64-bit integers: the address's type says they are
    pointers. Two pops of a one-node Treiber stack: one frees the node the other reads."""
    r = porlab.explore(load(STACK, "stack.c"), "optimal-await", stop_on_error=True)
    tr = r.first_error
    assert tr is not None and tr.error_message == "fault: use after free"
    text = [tr.describe(i) for i in range(len(tr))]
    assert "cas top NULL -> malloc@main#0 (succeeded)" in text
    assert "read top -> malloc@main#0" in text
    assert "read malloc@main#0+8 -> (dead)" in text
    assert tr.source(tr.error_position) == f"stack.c:{line_of(STACK, 'pop')}"
    assert tr.stack_text(tr.error_position) == "pop <- worker"


SCOPE = """\
#include <pthread.h>

int *shared;

void *reader(void *arg) {
    int *r = shared;
    if (r) return (void *)(long)*r;
    return 0;
}

void publish(void) {
    int v = 3;
    shared = &v;
}  // L:end

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, reader, 0);
    publish();
    shared = 0;
    pthread_join(t, 0);
    return 0;
}
"""


def test_the_end_of_a_frame_whose_variable_escaped() -> None:
    r = porlab.explore(load(SCOPE, "scope.c"), "naive", keep_traces=True)
    texts = {tr.describe(i) for tr in r.traces for i in range(len(tr))}
    assert "end of scope v@main#0" in texts
    assert "write shared := &v@main#0" in texts
    ends = [(tr, i) for tr in r.traces for i in range(len(tr))
            if tr.describe(i) == "end of scope v@main#0"]
    assert all(tr.function(i) == "publish" for tr, i in ends)


NONDET = """\
#include <assert.h>
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);

int x;

void *worker(void *arg) {
    x = __VERIFIER_nondet_int();  // L:choice
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_join(t, 0);
    assert(x != 2);  // L:assert
    return 0;
}
"""


def test_nondet_inputs_of_a_trace(tmp_path: Path) -> None:
    f = tmp_path / "nd.c"
    f.write_text(NONDET)
    r = porlab.explore(porlab.load_c(f, loops="none", nondet_domain=(0, 3)), "optimal-await")
    assert r.errors == 1  # exactly the input 2
    tr = r.first_error
    at = f"{f}:{line_of(NONDET, 'choice')}"
    assert tr.inputs() == [{"thread": "t1:worker", "call": 0, "value": 2, "source": at}]
    assert tr.inputs_note == (f"inputs: nondet call 1 of t1:worker ({at}) returned 2; every "
                              "other one returned 0")
    assert tr.inputs_note in str(tr)
    (site,) = r.errors_by_site
    assert site["trace"].inputs() == tr.inputs()
    # without a domain the calls return 0, and the trace says so
    r0 = porlab.explore(load(NONDET.replace("x != 2", "x != 0"), "nd.c"), "optimal-await")
    assert r0.errors == 1
    assert r0.first_error.inputs() == []
    assert "returned 0" in r0.first_error.inputs_note
    assert "--nondet-domain" in r0.first_error.inputs_note


TWO_SITES = """\
#include <assert.h>
#include <pthread.h>

int x;

void *writer(void *arg) {
    x = 1;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, writer, 0);
    int a = x;
    assert(a == 0);  // L:first
    pthread_join(t, 0);
    assert(x == 0);  // L:second
    return 0;
}
"""

# Mazurkiewicz classes: main's read of x before writer's write (then the second assertion fails,
# after the join) or after it (the first fails): one error trace per site for an optimal
# explorer. The naive explorer's counts per site are checked against its own kept traces.


def test_errors_by_site_with_counts_and_a_trace_each() -> None:
    prog = load(TWO_SITES, "two.c")
    r = porlab.explore(prog, "optimal-await", check_races=False)
    sites = r.errors_by_site
    assert [s["source"] for s in sites] == [f"two.c:{line_of(TWO_SITES, 'first')}",
                                            f"two.c:{line_of(TWO_SITES, 'second')}"]
    assert [s["message"] for s in sites] == ["assertion `a == 0' failed",
                                             "assertion `x == 0' failed"]
    assert [s["traces"] for s in sites] == [1, 1]
    for s in sites:
        tr = s["trace"]
        assert tr.status == "error" and tr.error_message == s["message"]
        assert tr.source(tr.error_position) == s["source"]
    # naive: every interleaving, each error trace counted at its site (independently: from
    # the kept traces)
    rn = porlab.explore(prog, "naive", keep_traces=True, check_races=False)
    by_line: dict[str, int] = {}
    for tr in rn.traces:
        if tr.status == "error":
            src = tr.source(tr.error_position)
            by_line[src] = by_line.get(src, 0) + 1
    assert {s["source"]: s["traces"] for s in rn.errors_by_site} == by_line
    assert sum(by_line.values()) == rn.errors and len(by_line) == 2


def test_cli_text_names_the_error_and_lists_sites(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "two.c"
    f.write_text(TWO_SITES)
    code, out = run_cli(["run", str(f), NO_RACES, "--loops", "none", "--all-errors", "-q"], capsys)
    assert code == 42
    first, second = line_of(TWO_SITES, "first"), line_of(TWO_SITES, "second")
    assert f"error     assertion `a == 0' failed at {f}:{first} in main (main)" in out \
        or f"error     assertion `x == 0' failed at {f}:{second} in main (main)" in out
    assert "errors    2 error traces at 2 distinct sites:" in out
    assert f"  1. assertion `a == 0' failed at {f}:{first} in main (main): 1 trace" in out
    assert f"  2. assertion `x == 0' failed at {f}:{second} in main (main): 1 trace" in out
    assert "error trace 1 of 2: assertion `a == 0' failed:" in out
    assert "error trace 2 of 2: assertion `x == 0' failed:" in out
    # without --all-errors: the first violation only, one trace
    code, out = run_cli(["run", str(f), NO_RACES, "--loops", "none", "-q"], capsys)
    assert code == 42 and out.count("error trace") == 1 and "distinct sites" not in out


def test_cli_trace_columns_and_stacks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    long_name = "a_worker_function_with_a_rather_long_name"
    src = LIST.replace("worker", long_name)
    f = tmp_path / "list.c"
    f.write_text(src)
    code, out = run_cli(["run", str(f), NO_RACES, "--loops", "none", "-q"], capsys)
    assert code == 42
    rows = out.split("error trace:\n", 1)[1].splitlines()
    header = rows[0]
    assert header.split() == ["thread", "source", "function", "event"]
    col_src, col_ev = header.index("source"), header.index("event")
    events = [r for r in rows[1:] if r.startswith("  ") and not r.startswith("  object")]
    assert len(events) >= 10
    for r in events:  # every row's source and event start in the header's columns
        assert r[col_src - 1] == " " and r[col_src] != " ", r
        assert r[col_ev - 1] == " " and r[col_ev] != " ", r
    assert col_src <= 2 + 24 + 2  # the thread column: at most 24 characters
    short = ("t1:" + long_name)[:21] + "..."  # 24 characters
    assert any(r.startswith(f"  {short}  ") for r in events)
    assert any(f"push <- {long_name}" in r and "write head := &nodes[1]" in r for r in events)
    assert f"  object malloc@t1#0: 16 bytes, from malloc at {f}:{line_of(src, 'malloc')}" in out


def test_json_error_and_sites(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "list.c"
    f.write_text(LIST)
    code, out = run_cli(["run", str(f), NO_RACES, "--loops", "none", "--json"], capsys)
    assert code == 42
    d = json.loads(out)
    err = d["error"]
    assert err["message"] == "assertion `data == 42 && h != 0' failed"
    assert err["source"] == f"{f}:{line_of(LIST, 'assert')}"
    assert err["function"] == "main" and err["thread"] == "main"
    assert err["objects"][0]["name"] == "malloc@t1#0"
    assert err["inputs"] == [] and err["inputs_note"] == ""
    ev = d["error_trace"]
    push = [e for e in ev if e["function"] == "push"]
    assert push and all(e["stack"][1]["function"] == "worker" for e in push)
    assert any(e["event"] == "write head := &nodes[1]" and e["pointer"] for e in ev)
    (site,) = d["errors_by_site"]
    assert site["traces"] == 1 and site["message"] == err["message"]
    assert site["trace"] == ev


def _render(path: Path) -> str:
    proc = subprocess.run(["dot", "-Tsvg", str(path)], capture_output=True, text=True,
                          timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "<svg" in proc.stdout
    return proc.stdout


@pytest.mark.skipif(shutil.which("dot") is None, reason="graphviz is not installed")
def test_dot_file_and_dot_dir(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "two.c"
    f.write_text(TWO_SITES)
    out_file = tmp_path / "g" / "error.dot"
    code, out = run_cli(["run", str(f), NO_RACES, "--loops", "none", "-q", "--dot",
                          str(out_file)], capsys)
    assert code == 42 and f"graph     {out_file}" in out
    dot = out_file.read_text()
    assert dot.startswith("digraph")
    assert "fillcolor" in dot and "failed" in dot  # the failing event highlighted, the title
    assert any(f"{f}:{line_of(TWO_SITES, m)}" in dot for m in ("first", "second"))
    svg = _render(out_file)
    assert "failed" in svg

    d = tmp_path / "graphs"
    code, out = run_cli(["run", str(f), NO_RACES, "--loops", "none", "-q", "--dot-dir",
                          str(d)], capsys)
    assert code == 42
    files = sorted(d.iterdir())
    assert [p.name for p in files] == ["error-1.dot", "error-2.dot"]  # two distinct sites
    for p, marker in zip(files, ("first", "second"), strict=True):
        text = p.read_text()
        assert f"{f}:{line_of(TWO_SITES, marker)}" in text
        _render(p)

    # no error: nothing written, and said so
    ok = tmp_path / "ok.c"
    ok.write_text("int main(void) { return 0; }\n")
    none = tmp_path / "none.dot"
    code, _ = run_cli(["run", str(ok), NO_RACES, "--loops", "none", "-q", "--dot",
                        str(none)], capsys)
    assert code == 0 and not none.exists()


def test_builder_programs_keep_their_trace_text(capsys: pytest.CaptureFixture[str]) -> None:
    """Builder programs have no call stacks and no assertion texts: their traces read as
    before (no function column), and errors_by_site works for them too."""
    p = porlab.Program("failing")
    x = p.var("x")
    with p.thread("w") as t:
        t.store(x, 1)
    with p.thread("r") as t:
        a = t.load(x)
        t.assert_(a == 0)
    r = porlab.explore(p)
    (site,) = r.errors_by_site
    assert site["message"] == "assertion failure" and site["thread"] == "r"
    assert site["traces"] == r.errors
    header = str(r.first_error).splitlines()[0]
    assert header.split() == ["thread", "source", "event"]


def test_python_module_runs_as_cli(tmp_path: Path) -> None:
    """The command line through `python -m porlab` prints the assertion's text (one process)."""
    f = tmp_path / "list.c"
    f.write_text(LIST)
    proc = subprocess.run([sys.executable, "-m", "porlab", "run", str(f), NO_RACES,
                           "--loops", "none", "-q"], capture_output=True, text=True, timeout=120,
                          check=False)
    assert proc.returncode == 42, proc.stderr
    assert "assertion `data == 42 && h != 0' failed" in proc.stdout
