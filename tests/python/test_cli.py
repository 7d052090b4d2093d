"""The porlab command line, run as `python -m porlab` in a subprocess."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import EXAMPLES, ROOT, run_cli

FIG1 = str(EXAMPLES / "rvf_fig1.py")


def one_line_error(proc, *words: str) -> str:
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("porlab: error: "), proc.stderr
    for w in words:
        assert w in lines[0], proc.stderr
    return lines[0]


def test_partition_table_has_paper_numbers():
    proc = run_cli("partition", FIG1)
    assert proc.returncode == 0, proc.stderr
    row = next(line for line in proc.stdout.splitlines() if line.startswith("rvf_fig1"))
    # columns: program, interleavings, mazurkiewicz, mazurkiewicz-ifaa, reads-from, rvf,
    # lock-aware, lock-aware-mo, time (without locks, lock-aware = reads-from and
    # lock-aware-mo = mazurkiewicz)
    cells = row.split()
    assert cells[1:8] == ["560", "98", "98", "9", "1", "9", "98"]
    header = proc.stdout.splitlines()[0].split()
    assert header[:8] == [
        "program",
        "interleavings",
        "mazurkiewicz",
        "mazurkiewicz-ifaa",
        "reads-from",
        "rvf",
        "lock-aware",
        "lock-aware-mo",
    ]


def test_partition_json():
    proc = run_cli("partition", FIG1, "--json")
    assert proc.returncode == 0, proc.stderr
    d = json.loads(proc.stdout)
    assert {"interleavings", "mazurkiewicz", "reads-from", "rvf"} <= set(d)
    assert (d["interleavings"], d["mazurkiewicz"], d["reads-from"], d["rvf"]) == (560, 98, 9, 1)
    assert d["complete"]["mazurkiewicz"] == 98 and d["blocked"]["mazurkiewicz"] == 0
    assert d["budget_exceeded"] is False


def test_partition_several_files_json_is_a_list():
    proc = run_cli("partition", FIG1, str(EXAMPLES / "litmus_sb.py"), "--json")
    assert proc.returncode == 0, proc.stderr
    d = json.loads(proc.stdout)
    assert [x["program"] for x in d] == ["rvf_fig1", "litmus_sb"]
    assert d[1]["mazurkiewicz"] == 3


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        # n = 3: Fig. 13(a) reads-from Σ multinomial·C(3,a)·C(3,b) = 147; 13(b) 3³ = 27;
        # 13(c) 4² = 16; N-READS-LOCK 3! = 6; rw-lock 3! = 6.
        ("rvf_fig13a", {"reads-from": 147, "rvf": 1}),
        ("rvf_fig13b", {"reads-from": 27, "mazurkiewicz": 12**3, "rvf": 1}),
        ("rvf_fig13c", {"reads-from": 16, "rvf": 1}),
        ("lapor_n_reads_lock", {"reads-from": 6}),
        ("lapor_rw_lock", {"reads-from": 6}),
    ],
)
def test_partition_with_param(name, expected):
    proc = run_cli("partition", str(EXAMPLES / f"{name}.py"), "-p", "n=3", "--json")
    assert proc.returncode == 0, proc.stderr
    d = json.loads(proc.stdout)
    assert {k: d[k] for k in expected} == expected


def test_partition_with_two_params():
    proc = run_cli(
        "partition", str(EXAMPLES / "lapor_rw_lock.py"), "-p", "n=4", "-p", "locked=false", "--json"
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["reads-from"] == 5**3  # (n+1)^(n-1)


def test_explore_json():
    proc = run_cli("explore", FIG1, "--explorer", "naive", "--json")
    assert proc.returncode == 0, proc.stderr
    d = json.loads(proc.stdout)
    assert {"complete", "blocked", "errors", "events", "seconds"} <= set(d)
    assert (d["complete"], d["blocked"], d["errors"]) == (560, 0, 0)  # every interleaving
    assert d["events"] >= 560 and d["seconds"] >= 0
    assert d["verdict"] == "ok"


def test_explore_text():
    proc = run_cli("explore", str(EXAMPLES / "godot_fig2.py"))
    assert proc.returncode == 0, proc.stderr
    # Interleavings of p: a = x; assume(a == 1); b = y with q: y = 42; x = 1. The read of x
    # sees 1 only after both of q's writes (1 complete); it sees 0 before y = 42 or between
    # the writes, and p blocks (2 blocked).
    assert re.search(r"traces\s+1 complete \+ 2 blocked \+ 0 errors", proc.stdout)
    assert "godot_fig2_assume" in proc.stdout


def test_explorers_lists_naive():
    proc = run_cli("explorers", "--json")
    assert proc.returncode == 0
    assert "naive" in [e["name"] for e in json.loads(proc.stdout)]


def test_disasm():
    proc = run_cli("disasm", str(EXAMPLES / "litmus_sb.py"))
    assert proc.returncode == 0
    assert "store" in proc.stdout and "load" in proc.stdout


SPIN_FLAG_C = """\
#include <pthread.h>
#include <stdatomic.h>
atomic_int flag;
void *t(void *a) { (void)a; atomic_store(&flag, 1); return 0; }
int main(void) {
    pthread_t h;
    pthread_create(&h, 0, t, 0);
    while (!atomic_load(&flag)) { }
    pthread_join(h, 0);
    return 0;
}
"""


def test_disasm_c(tmp_path):
    """`porlab disasm FILE.c` shows the C program's decoded form after the loop passes, with
    run's loading flags (it used to read the C file as Python: a syntax error at line 1)."""
    src = tmp_path / "spin.c"
    src.write_text(SPIN_FLAG_C)
    reduced = run_cli("disasm", str(src))
    assert reduced.returncode == 0, reduced.stderr
    assert "__VERIFIER_load_await_" in reduced.stdout and "spin.c:8" in reduced.stdout
    as_written = run_cli("disasm", str(src), "--loops", "none")
    assert as_written.returncode == 0 and "__VERIFIER_load_await_" not in as_written.stdout
    wrong = run_cli("disasm", str(src), "-p", "N=2")
    assert wrong.returncode == 2 and "-D" in wrong.stderr


FAILING = """\
from porlab import Program

p = Program("failing")
x = p.var("x")
with p.thread("w") as t:
    t.store(x, 1)
with p.thread("r") as t:
    a = t.load(x)
    t.assert_(a == 0)
program = p
"""


def test_violation_exits_42_with_error_trace(tmp_path: Path):
    f = tmp_path / "failing.py"
    f.write_text(FAILING)
    proc = run_cli("explore", str(f))
    assert proc.returncode == 42, proc.stderr
    trace = proc.stdout.split("error trace:", 1)[1]
    assert f"{f}:6" in trace  # the store
    assert f"{f}:9" in trace  # the failing assertion
    assert "assertion failure" in trace.splitlines()[-1]

    proc = run_cli("explore", str(f), "--json")
    assert proc.returncode == 42
    d = json.loads(proc.stdout)
    assert d["verdict"] == "violation" and d["errors"] >= 1
    last = d["error_trace"][-1]
    assert last["kind"] == "assertion-failure" and last["source"] == f"{f}:9"


def test_example_with_a_violation_exits_42():
    # fib_bench with SV-COMP's assertion (reachable: j = 144 after strict alternation).
    proc = run_cli(
        "explore", str(EXAMPLES / "lapor_fib_bench.py"), "-p", "check=true", "--stop-on-error"
    )
    assert proc.returncode == 42, proc.stderr
    assert "lapor_fib_bench.py:" in proc.stdout.split("error trace:", 1)[1]


def test_missing_file(tmp_path: Path):
    f = tmp_path / "missing.py"
    one_line_error(run_cli("partition", str(f)), str(f), "no such file")


def test_syntax_error(tmp_path: Path):
    f = tmp_path / "syntax.py"
    f.write_text("from porlab import Program\n\nprogram = Program(\n")
    one_line_error(run_cli("explore", str(f)), f"{f}:3", "syntax error")


def test_file_raising_an_exception(tmp_path: Path):
    f = tmp_path / "raises.py"
    f.write_text("import porlab\n\n\nraise RuntimeError('boom')\n")
    one_line_error(run_cli("partition", str(f)), f"{f}:4", "RuntimeError", "boom")


def test_file_with_a_program_error(tmp_path: Path):
    f = tmp_path / "progerr.py"
    f.write_text(
        "from porlab import Program\np = Program()\nx = p.var('x')\n"
        "with p.thread() as t:\n    t.store(x, x + 1)\nprogram = p\n"
    )
    one_line_error(run_cli("partition", str(f)), f"{f}:5", "shared location")


def test_file_with_neither_program_nor_build(tmp_path: Path):
    f = tmp_path / "empty.py"
    f.write_text("x = 1\n")
    one_line_error(run_cli("explore", str(f)), str(f), "neither")


def test_unknown_explorer():
    one_line_error(run_cli("explore", FIG1, "--explorer", "no-such-explorer"), "no-such-explorer")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["-p", "m=3"], ["rvf_fig13a.py", "'m'"]),  # not a parameter of build(n)
        (["-p", "n"], ["'n'", "NAME=VALUE"]),  # not NAME=VALUE
        (["-p", "n=three"], ["rvf_fig13a.py:", "TypeError"]),  # build(n="three") fails
    ],
)
def test_bad_param(args, words):
    one_line_error(run_cli("partition", str(EXAMPLES / "rvf_fig13a.py"), *args), *words)


def test_param_for_a_file_without_build(tmp_path: Path):
    f = tmp_path / "nobuild.py"
    f.write_text("from porlab import Program\nprogram = Program()\nprogram.thread()\n")
    one_line_error(run_cli("partition", str(f), "-p", "n=2"), str(f), "build")


def test_budget_reports_partial_counts():
    # A budget is not a proof: exit 3 (incomplete), the verdict and the reason in the JSON.
    proc = run_cli("explore", FIG1, "--max-traces", "3", "--json")
    assert proc.returncode == 3, proc.stderr
    d = json.loads(proc.stdout)
    assert d["budget_exceeded"] is True and d["budget_reason"] == "traces"
    assert d["verdict"] == "incomplete" and d["incomplete"] == ["traces"]
    assert d["complete"] + d["blocked"] + d["errors"] == 3
    proc = run_cli("explore", FIG1, "--max-traces", "3")
    assert proc.returncode == 3
    assert "INCOMPLETE" in proc.stdout and "partial" in proc.stderr
    proc = run_cli("partition", FIG1, "--max-traces", "3", "--json")
    assert proc.returncode == 3
    d = json.loads(proc.stdout)
    assert d["budget_exceeded"] is True and d["interleavings"] == 3
    assert d["incomplete"] == ["traces"] and d["exhausted"] is False
    assert d["mazurkiewicz"] <= 3


def test_runs_from_another_directory(tmp_path: Path):
    # Relative paths are resolved against the working directory.
    proc = run_cli("partition", "examples/litmus_sb.py", "--json", cwd=ROOT)
    assert proc.returncode == 0 and json.loads(proc.stdout)["rvf"] == 3
    proc = run_cli("partition", "examples/litmus_sb.py", cwd=tmp_path)
    one_line_error(proc, "examples/litmus_sb.py", "no such file")
