"""Runs a user can trust and steer (issue 14): verdicts that never overclaim, exit codes, why
executions were blocked, Ctrl-C, progress, budgets, validated input, JSON errors."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import ROOT, run_cli

import porlab
from porlab.api import EXIT_BAD_INPUT, EXIT_INCOMPLETE, EXIT_INTERRUPTED, EXIT_OK, EXIT_VIOLATION

C = pytest.mark.skipif(not porlab.cfront.has_c_frontend(), reason="built without the C front end")


def big_program(n: int = 7) -> porlab.Program:
    """n threads each writing one variable twice: (2n)!/2^n interleavings, far more than any
    test will wait for (n = 7: 681,080,400)."""
    p = porlab.Program("big")
    x = p.var("x")
    for i in range(n):
        with p.thread(f"t{i}") as t:
            t.store(x, i)
            t.store(x, i + 10)
    return p


def stuck_await() -> porlab.Program:
    """t0 waits for x == 1, which nobody ever writes: every execution blocks at the await."""
    p = porlab.Program("stuck")
    x, y = p.vars("x", "y")
    with p.thread("t0") as t:
        t.await_(x, "==", 1)
    with p.thread("t1") as t:
        t.store(y, 1)
    return p


def write_c(tmp_path: Path, name: str, body: str) -> str:
    f = tmp_path / name
    f.write_text(textwrap.dedent(body))
    return str(f)


# ---- verdicts and exit codes ------------------------------------------------------------------


def test_exhausted_run_is_ok():
    r = porlab.explore(stuck_await(), "optimal-await")
    assert r.exhausted and r.incomplete == [] and r.verdict == "ok" and r.exit_code == EXIT_OK


def test_a_budget_makes_the_run_incomplete_not_ok():
    r = porlab.explore(big_program(), "naive", max_traces=10)
    assert r.traces_explored == 10
    assert r.incomplete == ["traces"] and r.verdict == "incomplete"
    assert r.exit_code == EXIT_INCOMPLETE
    assert r.as_dict()["verdict"] == "incomplete"


def test_events_budget_is_incomplete():
    r = porlab.explore(big_program(), "optimal", max_events=1000)
    assert r.incomplete == ["events"] and not r.exhausted
    assert 1000 <= r.events < 1000 + 300


def test_violation_beats_incomplete():
    p = porlab.Program("bug")
    x = p.var("x")
    with p.thread("a") as t:
        t.store(x, 1)
    with p.thread("b") as t:
        t.assert_(t.load(x) == 0)
    r = porlab.explore(p, "naive", stop_on_error=True)
    assert r.verdict == "violation" and r.exit_code == EXIT_VIOLATION


# ---- why executions were blocked ----------------------------------------------------------------


def test_blocked_by_reason_adds_up_and_names_the_await():
    r = porlab.explore(stuck_await(), "naive", keep_traces=True)
    assert r.complete == 0 and r.blocked > 0
    assert r.blocked_by == {"await": r.blocked}
    [site] = r.block_sites
    assert site["reason"] == "await" and site["traces"] == r.blocked
    assert site["source"].endswith(f"test_honest_runs.py:{stuck_await.__code__.co_firstlineno + 5}")
    # every blocked trace carries its reason
    for tr in r.traces:
        assert [(th, why) for th, why, _ in tr.blocks] == [("t0", "await")]


def held_mutex(with_assume: bool) -> porlab.Program:
    p = porlab.Program("held")
    m = p.mutex("m")
    x, y = p.vars("x", "y")
    with p.thread("a") as t:
        t.lock(m)
        t.store(x, 1)  # ends holding m
    with p.thread("b") as t:
        t.lock(m)
        t.unlock(m)
    if with_assume:
        with p.thread("c") as t:
            t.assume(t.load(y) == 1)  # never: c blocks in every execution
    return p


def test_lock_never_released_is_a_lock_or_deadlock_block():
    r = porlab.explore(held_mutex(False), "optimal-await")
    # a first: b waits forever on a mutex nobody will release, and nobody else is left: a
    # deadlock (an error in C programs, a blocked execution in builder programs); b first: done
    assert r.complete == 1 and r.blocked_by == {"deadlock": 1}
    r = porlab.explore(held_mutex(True), "optimal-await")
    # the waits rank before the program's assume: {a first: lock, b first: assume}
    assert r.complete == 0 and r.blocked_by == {"lock": 1, "assume": 1}


def test_assume_is_its_own_reason():
    p = porlab.Program("assume")
    x = p.var("x")
    with p.thread("a") as t:
        t.store(x, 1)
    with p.thread("b") as t:
        t.assume(t.load(x) == 1)
    r = porlab.explore(p, "naive")
    assert r.complete == 1 and r.blocked_by == {"assume": 1}
    assert r.exit_code == EXIT_OK  # the program's own assume: exhausted, nothing hidden


@C
def test_c_blocks_name_loop_bound_cond_wait_and_limits(tmp_path):
    src = write_c(tmp_path, "waits.c", """\
        #include <pthread.h>
        pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
        pthread_cond_t c = PTHREAD_COND_INITIALIZER;
        int ready;
        void *waiter(void *a) {
            pthread_mutex_lock(&m);
            pthread_cond_wait(&c, &m);   /* line 7: the signal may come first: lost */
            pthread_mutex_unlock(&m);
            return 0;
        }
        int main() {
            pthread_t t;
            pthread_create(&t, 0, waiter, 0);
            pthread_mutex_lock(&m);
            ready = 1;
            pthread_cond_signal(&c);
            pthread_mutex_unlock(&m);
            return 0;
        }
        """)
    r = porlab.explore(porlab.load_c(src, loops="none"), "optimal-await")
    assert r.complete >= 1 and r.blocked_by == {"cond-wait": r.blocked} and r.blocked >= 1
    assert {s["source"] for s in r.block_sites} == {f"{src}:7"}
    assert r.exit_code == EXIT_OK

    cut = porlab.load_c_source("int x; int main() { for (;;) x++; }", "cut.c",
                               loops="none", max_execution_events=50)
    r = porlab.explore(cut, "optimal")
    assert r.blocked_by == {"execution-cut": 1} and r.incomplete == ["execution-cut"]
    assert r.verdict == "incomplete" and r.exit_code == EXIT_INCOMPLETE


@C
def test_thread_limit_makes_the_run_incomplete():
    src = """
        #include <pthread.h>
        void *f(void *a) { return 0; }
        int main() {
            pthread_t t[3];
            for (int i = 0; i < 3; i++) pthread_create(&t[i], 0, f, 0);
            return 0;
        }
    """
    r = porlab.explore(porlab.load_c_source(src, "limit.c", max_threads=2, loops="none"),
                       "optimal")
    assert "thread-limit" in r.blocked_by and r.incomplete == ["thread-limit"]


# ---- Ctrl-C, progress, memory -------------------------------------------------------------------


def test_progress_callback_sees_counts_and_can_interrupt():
    seen: list[porlab.progress.Progress] = []

    def cb(p: porlab.progress.Progress) -> None:
        seen.append(p)
        raise KeyboardInterrupt  # as a notebook's interrupt button would

    with pytest.raises(porlab.Interrupted) as e:
        porlab.explore(big_program(), "naive", progress=cb, progress_seconds=0.0)
    r = e.value.result
    assert isinstance(e.value, KeyboardInterrupt)
    assert r.interrupted and r.incomplete == ["interrupted"] and r.verdict == "incomplete"
    assert r.exit_code == EXIT_INTERRUPTED
    assert len(seen) == 1 and seen[0].events >= 0
    assert 0 < r.traces_explored < 681_080_400


def test_partition_sizes_can_be_interrupted():
    def cb(p: porlab.progress.Progress) -> None:
        raise KeyboardInterrupt

    with pytest.raises(porlab.Interrupted) as e:
        porlab.partition_sizes(big_program(), progress=cb, progress_seconds=0.0)
    assert e.value.result.incomplete == ["interrupted"] and not e.value.result.exhausted


def test_memory_budget_stops_cleanly():
    r = porlab.explore(big_program(), "naive", max_memory=1)
    assert r.incomplete == ["memory"] and r.traces_explored < 681_080_400
    assert porlab.api.parse_size("1.5G") == 3 * 2**29 and porlab.api.parse_size("0") == 0
    assert porlab.api.parse_size(4096) == 4096
    with pytest.raises(porlab.InputError, match="not a size"):
        porlab.api.parse_size("lots")


def test_sigint_to_a_cli_run_prints_the_partial_counts(tmp_path):
    prog = tmp_path / "big.py"
    prog.write_text(textwrap.dedent("""\
        import porlab
        program = porlab.Program("big")
        x = program.var("x")
        for i in range(7):
            with program.thread(f"t{i}") as t:
                t.store(x, i)
                t.store(x, i + 10)
        """))
    proc = subprocess.Popen(
        [sys.executable, "-m", "porlab", "explore", str(prog), "--progress", "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    assert proc.stderr is not None
    first = proc.stderr.readline()  # the first progress line: the exploration is running
    assert first.startswith("porlab: "), first
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == EXIT_INTERRUPTED, err
    d = json.loads(out)
    assert d["verdict"] == "incomplete" and d["incomplete"] == ["interrupted"]
    assert d["complete"] > 0 and d["exit_code"] == EXIT_INTERRUPTED


# ---- input at the boundary ----------------------------------------------------------------------


@pytest.mark.parametrize("kw", [{"max_traces": -5}, {"max_seconds": -1.0}, {"max_events": -1},
                                {"max_traces": 1.5}, {"max_seconds": float("nan")},
                                {"max_memory": -3}, {"max_memory": "lots"}])
def test_python_budgets_are_validated(kw):
    with pytest.raises(porlab.InputError):
        porlab.explore(stuck_await(), "naive", **kw)


@pytest.mark.parametrize("args", [["--max-traces", "-5"], ["--max-seconds", "-1"],
                                  ["--max-events", "x"], ["--max-memory", "lots"]])
def test_cli_budgets_are_validated(args):
    proc = run_cli("explore", str(ROOT / "examples" / "litmus_sb.py"), *args)
    assert proc.returncode == EXIT_BAD_INPUT and proc.stdout == ""
    assert "porlab: error:" in proc.stderr and "Traceback" not in proc.stderr


@C
@pytest.mark.parametrize("args", [["--max-execution-events", "-5"], ["--max-threads", "0"],
                                  ["--max-locations", "-1"]])
def test_cli_c_limits_are_validated(args):
    proc = run_cli("run", str(ROOT / "tests" / "c" / "litmus_sb.c"), *args)
    assert proc.returncode == EXIT_BAD_INPUT, proc.stdout
    assert "porlab: error:" in proc.stderr and "Traceback" not in proc.stderr


@C
def test_nondet_domain_with_negative_bounds_parses():
    proc = run_cli("run", str(ROOT / "tests" / "c" / "nondet_domain.c"), "--nondet-domain",
                   "-3:-1", "--json")
    assert proc.returncode in (EXIT_OK, EXIT_VIOLATION), proc.stderr
    assert json.loads(proc.stdout)["stats"]["nondet_runs"] >= 1


@C
def test_explore_and_partition_run_c_files_as_c():
    sb = str(ROOT / "tests" / "c" / "litmus_sb.c")
    # (litmus_sb.c's plain accesses race on purpose: the race check is off)
    proc = run_cli("explore", sb, "-e", "optimal", "--json", "--disable-race-detection")
    assert proc.returncode == EXIT_OK, proc.stderr
    assert json.loads(proc.stdout)["complete"] >= 3
    proc = run_cli("partition", sb, "--json")
    assert proc.returncode == EXIT_OK, proc.stderr
    assert json.loads(proc.stdout)["mazurkiewicz"] >= 3


def test_directories_and_missing_files_are_clear_errors(tmp_path):
    for verb in ("explore", "partition", "run"):
        proc = run_cli(verb, str(tmp_path))
        assert proc.returncode == EXIT_BAD_INPUT, (verb, proc.stderr)
        assert "is a directory" in proc.stderr and "Traceback" not in proc.stderr


def test_version_and_no_arguments():
    proc = run_cli("--version")
    assert proc.returncode == 0 and proc.stdout.startswith("porlab ")
    proc = run_cli()
    assert proc.returncode == EXIT_BAD_INPUT and "usage: porlab" in proc.stdout


def test_help_documents_the_exit_codes():
    proc = run_cli("run", "--help")
    text = " ".join(proc.stdout.split())
    for code in ("0 the exploration was exhausted", "42 a violation", "2 bad input",
                 "3 no violation found", "130 interrupted"):
        assert code in text


def test_closed_stdout_ends_quietly_with_the_verdicts_code():
    cmd = [sys.executable, "-m", "porlab", "explore", str(ROOT / "examples" / "litmus_sb.py"),
           "-e", "naive", "--stats"]
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.close()  # the reader is gone before porlab writes (`| head -0`)
        err = proc.stderr.read().decode()
        assert proc.wait(timeout=60) == EXIT_OK
    assert "Traceback" not in err and "BrokenPipe" not in err


# ---- --json covers failures ---------------------------------------------------------------------


@C
def test_json_error_object_for_a_c_file_that_does_not_compile(tmp_path):
    bad = write_c(tmp_path, "bad.c", "int main() { return undeclared; }\n")
    proc = run_cli("run", bad, "--json")
    assert proc.returncode == EXIT_BAD_INPUT
    d = json.loads(proc.stdout)
    assert d["verdict"] == "error" and d["exit_code"] == EXIT_BAD_INPUT
    err = d["error"]
    assert err["kind"] == "input" and "does not compile" in err["message"]
    assert err["file"] == bad


def test_json_error_object_for_a_usage_error():
    proc = run_cli("explore", "--max-traces", "-1", "x.py", "--json")
    assert proc.returncode == EXIT_BAD_INPUT
    d = json.loads(proc.stdout)
    assert d["error"]["kind"] == "usage" and "max-traces" in d["error"]["message"]


def test_json_error_object_with_file_and_line(tmp_path):
    f = tmp_path / "prog.py"
    f.write_text("import porlab\nprogram = porlab.Program('p')\nraise ValueError('boom')\n")
    proc = run_cli("explore", str(f), "--json")
    d = json.loads(proc.stdout)
    assert (d["error"]["file"], d["error"]["line"]) == (str(f), 3)


# ---- explorer options are typed ------------------------------------------------------------------


def test_bool_options_are_not_misread():
    p = big_program(2)
    a = porlab.explore(p, "optimal-await", can_stop=False)
    b = porlab.explore(p, "optimal-await", can_stop="off")
    assert a.complete == b.complete
    with pytest.raises(porlab.InputError, match="bool"):
        porlab.explore(p, "optimal-await", can_stop="maybe")
    with pytest.raises(porlab.InputError, match="strict, paper, off"):
        porlab.explore(p, "graph", zne="sometimes")


def test_every_option_is_documented():
    for e in porlab.explorers():
        for o in e["options"]:
            assert o["doc"] and o["default"] is not None, (e["name"], o)
            assert o["type"] in ("bool", "int", "enum", "string")
            if o["type"] == "enum":
                assert o["default"] in o["values"]
