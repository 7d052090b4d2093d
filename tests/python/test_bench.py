"""The benchmark runner: suites, worker processes (timeout, memory, crash), resume, Dask, CLI."""

from __future__ import annotations

import io
import json
import shlex
from pathlib import Path

import pandas as pd
import pytest
from conftest import ROOT, run_cli

from porlab import bench, cli

SMOKE = ROOT / "benchmarks" / "suites" / "smoke.toml"


def write_suite(tmp_path: Path, body: str, name: str = "t") -> Path:
    """A suite file in tmp_path whose relative program paths start at the repository root."""
    p = tmp_path / f"{name}.toml"
    p.write_text(f'name = "{name}"\nroot = "{ROOT}"\n' + body)
    return p


def write_program(tmp_path: Path, name: str, body: str) -> Path:
    p = tmp_path / f"{name}.py"
    p.write_text("from porlab import Program\n\n" + body)
    return p


TINY = """
timeout = 20
explorers = ["source", {name = "optimal-await", ifaa = true}]

[[programs]]
path = "examples/rvf_fig13c.py"
parameters = { n = [2, 3] }

[[programs]]
name = "nreads-lock"
path = "examples/lapor_n_reads_lock.py"
params = [{ n = 2 }]
"""


def main(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    """``porlab ARGS`` in this process (no interpreter start-up): exit code, stdout, stderr."""
    code = cli.main([str(a) for a in args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


class Counter:
    """Wraps bench.execute_run and counts the runs it starts."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.real = bench.execute_run

    def __call__(self, run: bench.Run) -> dict:
        self.calls.append(run.label)
        return self.real(run)


def test_load_suite_expands_the_cross_product(tmp_path):
    suite = bench.load_suite(write_suite(tmp_path, TINY), small=False)
    labels = [r.label for r in suite.runs]
    assert labels == [
        "t:rvf_fig13c(2):source", "t:rvf_fig13c(2):optimal-await+ifaa",
        "t:rvf_fig13c(3):source", "t:rvf_fig13c(3):optimal-await+ifaa",
        "t:nreads-lock(2):source", "t:nreads-lock(2):optimal-await+ifaa",
    ]  # fmt: skip
    assert suite.runs[1].ifaa and suite.runs[1].explorer == "optimal-await"
    assert len({r.run_id for r in suite.runs}) == 6
    assert [r.label for r in suite.filter("nreads").runs] == labels[4:]


def test_small_parameters_and_config_params():
    small = bench.load_suite(SMOKE, small=True)
    full = bench.load_suite(SMOKE, small=False)
    assert len(small.runs) < len(full.runs)
    sortnet = [r for r in full.runs if r.program == "sortnet"]
    assert {(r.config, r.params["mode"]) for r in sortnet} == {
        ("baseline", "assume"), ("await", "await"), ("await+ifaa", "await")}
    assert {r.instance for r in sortnet} == {"sortnet(2)", "sortnet(3)", "sortnet(4)"}


@pytest.mark.parametrize("body, words", [
    ('bogus = 1\n', "unknown keys"),
    ('[[programs]]\nname = "x"\n', "no 'path'"),
    ('explorers = ["naive"]\n[[programs]]\npath = "x.rs"\n', "kind"),
    ('[[programs]]\npath = "examples/rvf_fig1.py"\n', "no explorers"),
    ('explorers = [{label = "x"}]\n[[programs]]\npath = "examples/rvf_fig1.py"\n', "'name'"),
    ('explorers = ["naive"]\n[[programs]]\npath = "examples/rvf_fig1.py"\nparams = 3\n',
     "list of tables"),
    ("timeout = \n", "t.toml"),
])  # fmt: skip
def test_bad_suites_are_value_errors(tmp_path, body, words):
    with pytest.raises(ValueError, match=words):
        bench.load_suite(write_suite(tmp_path, body))


def test_smoke_suite_writes_one_row_per_run(tmp_path):
    out = tmp_path / "smoke.parquet"
    stream = io.StringIO()
    sweep = bench.run_suite(SMOKE, out, jobs=2, small=True, stream=stream)
    n = len(bench.load_suite(SMOKE, small=True).runs)
    assert (sweep.executed, sweep.skipped, sweep.failed) == (n, 0, 0)
    df = bench.read_results(out)
    assert len(df) == n and set(df["status"]) == {"ok"}
    for col in bench.COLUMNS:
        assert col in df.columns, col
    assert {"param_n", "param_mode"} <= set(df.columns)
    assert df["run_id"].is_unique
    await_rows = df[df["config"] == "await"]
    assert list(await_rows["complete"]) == [1] * len(await_rows)
    assert list(await_rows["blocked"]) == [0] * len(await_rows)
    row = df[(df["instance"] == "rvf_fig13c(3)") & (df["config"] == "optimal")].iloc[0]
    assert (row["complete"], row["traces"], json.loads(row["params"])) == (36, 36, {"n": 3})
    assert json.loads(row["options"]) == {"ifaa": False}
    assert row["peak_memory_bytes"] > 0 and row["porlab_version"] and row["hostname"]
    assert f"{n}/{n} done" in stream.getvalue()
    # every row says why its blocked executions were blocked, and that the run was exhausted
    for _, r in df.iterrows():
        assert sum(json.loads(r["blocked_by"]).values()) == r["blocked"], r["instance"]
        assert r["incomplete"] == ""
    baseline = df[(df["config"] != "await") & (df["blocked"] > 0)]
    assert len(baseline) and all(set(json.loads(b)) <= {"assume", "spin-loop"}
                                 for b in baseline["blocked_by"])


def test_resume_skips_finished_runs(tmp_path, monkeypatch):
    suite = write_suite(tmp_path, TINY)
    out = tmp_path / "r.csv"
    counter = Counter()
    monkeypatch.setattr(bench, "execute_run", counter)
    bench.run_suite(suite, out, progress=False)
    assert len(counter.calls) == 6
    first = pd.read_csv(out)
    assert len(first) == 6

    counter.calls.clear()
    sweep = bench.run_suite(suite, out, progress=False)
    assert counter.calls == [] and (sweep.executed, sweep.skipped) == (0, 6)

    # An interrupted sweep: the log has two finished runs (and a torn last line), no table.
    log = tmp_path / "r.csv.log.jsonl"
    lines = log.read_text().splitlines()
    log.write_text("\n".join(lines[:2]) + "\n" + lines[2][:25])
    out.unlink()
    sweep = bench.run_suite(suite, out, progress=False)
    assert len(counter.calls) == 4 and sweep.executed == 4
    assert len(bench.read_results(out)) == 6
    # The torn line stays alone in the log: the rows after it are read back from the log too.
    out.unlink()
    assert len(bench.read_results(out)) == 6

    counter.calls.clear()
    sweep = bench.run_suite(suite, out, progress=False, force=True, filter="nreads")
    assert len(counter.calls) == 2
    assert len(bench.read_results(out)) == 6  # reruns replace their rows


def test_timeout_is_a_row_and_the_sweep_goes_on(tmp_path):
    # The quick run (a worker process that imports porlab, then two traces) must fit in the
    # timeout on a loaded machine too; the slow one (~10^10 interleavings) never does.
    suite = write_suite(tmp_path, """
timeout = 4
explorers = ["naive"]

[[programs]]
path = "benchmarks/programs/interleave.py"
params = [{ sizes = "5,5,5,5" }, { sizes = "1,1" }]
""")
    out = tmp_path / "r.parquet"
    sweep = bench.run_suite(suite, out, progress=False, jobs=2)
    df = bench.read_results(out).set_index("instance")
    assert sweep.failed == 1
    slow, quick = df.loc["interleave(5,5,5,5)"], df.loc["interleave(1,1)"]
    assert slow["status"] == "timeout" and pd.isna(slow["complete"])
    assert 4 <= slow["wall_seconds"] < 60
    assert quick["status"] == "ok" and quick["complete"] == 2


def test_memory_limit_gives_memory_status(tmp_path):
    # RLIMIT_AS makes a too-large allocation fail with MemoryError in the worker, reliably;
    # a C++ std::bad_alloc surfaces the same way (pybind11 translates it to MemoryError).
    hog = write_program(tmp_path, "hog", """
def build(mib: int = 8) -> Program:
    ballast = bytearray(mib * 2**20)
    p = Program(f"hog({len(ballast) >> 20})")
    x = p.var("x")
    with p.thread("t") as t:
        t.store(x, 1)
    return p
""")
    suite = write_suite(tmp_path, f"""
memory = 256
explorers = ["naive"]

[[programs]]
path = "{hog}"
parameters = {{ mib = [8, 1024] }}
""")
    df = bench.run_suite(suite, tmp_path / "r.jsonl", progress=False).table
    status = dict(zip(df["instance"], df["status"], strict=True))
    assert status == {"hog(8)": "ok", "hog(1024)": "memory"}


def test_crashes_and_bad_input_are_rows(tmp_path):
    raises = write_program(tmp_path, "raises", "raise RuntimeError('broken on purpose')\n")
    killed = write_program(tmp_path, "killed", "import os, signal\n"
                           "os.kill(os.getpid(), signal.SIGKILL)\n")
    cfile = tmp_path / "prog.c"
    cfile.write_text("int main(void) { return 0; }\n")
    suite = write_suite(tmp_path, f"""
explorers = ["naive"]
[[programs]]
path = "{raises}"
[[programs]]
path = "{killed}"
[[programs]]
path = "{cfile}"
[[programs]]
path = "examples/rvf_fig1.py"
explorers = ["no-such-explorer", "optimal"]
""")
    sweep = bench.run_suite(suite, tmp_path / "r.parquet", progress=False, jobs=2)
    df = sweep.table.set_index(["instance", "config"])
    assert len(df) == 5 and sweep.failed == 3
    assert df.loc[("raises", "naive"), "status"] == "error"
    assert "raises.py:3: RuntimeError: broken on purpose" in df.loc[("raises", "naive"),
                                                                     "message"]
    assert df.loc[("killed", "naive"), "status"] == "crash"
    assert "SIGKILL" in df.loc[("killed", "naive"), "message"]
    assert df.loc[("prog", "naive"), "status"] == "ok"  # a C program (one empty thread)
    assert df.loc[("prog", "naive"), "kind"] == "c"
    assert df.loc[("prog", "naive"), "complete"] == 1
    assert df.loc[("rvf_fig1", "no-such-explorer"), "status"] == "error"
    assert df.loc[("rvf_fig1", "optimal"), "complete"] == 98


def test_dask_cluster_gives_the_same_rows(tmp_path):
    from dask.distributed import LocalCluster

    suite = write_suite(tmp_path, TINY)
    keys = ["instance", "config", "status", "complete", "blocked", "errors", "events",
            "params", "options", "run_id"]
    local = bench.run_suite(suite, tmp_path / "local.parquet", progress=False).table
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=":0") as cluster:
        sweep = bench.run_suite(suite, tmp_path / "dask.parquet", progress=False,
                                scheduler=cluster.scheduler_address)
    assert sweep.executed == 6
    dask = bench.read_results(tmp_path / "dask.parquet")
    pd.testing.assert_frame_equal(local[keys].sort_values("run_id").reset_index(drop=True),
                                  dask[keys].sort_values("run_id").reset_index(drop=True))


def test_progress_line():
    s = io.StringIO()
    bar = bench.Progress(4, stream=s)
    bar.update(started=2)
    bar.update(finished={"status": "ok", "instance": "a", "config": "x", "seconds": 0.5})
    bar.update(finished={"status": "timeout", "instance": "b", "config": "x", "message": "k"})
    assert "2/4 done, 0 running, 1 failed" in bar.line()
    assert s.getvalue().count("\n") == 2 and "timeout" in s.getvalue()


def test_cli_bench_then_report(tmp_path, capsys):
    # The first command through the real entry point (python -m porlab), the others in this
    # process (the same main(), without an interpreter start-up each).
    suite = write_suite(tmp_path, TINY)
    out = tmp_path / "r.csv"
    proc = run_cli("bench", str(suite), "-o", str(out), "-j", "2")
    assert proc.returncode == 0, proc.stderr
    assert "6 runs done (0 failed), 0 already there" in proc.stderr
    code, _, err = main(capsys, "bench", suite, "-o", out, "--quiet")
    assert code == 0 and "0 runs done (0 failed), 6 already there" in err

    code, text, err = main(capsys, "report", out, "--table", "rvf", "--format", "latex")
    assert code == 0, err
    assert r"\multicolumn{2}{c}{optimal-await+ifaa}" in text
    assert r"rvf\_fig13c(3) & 36 & " in text
    code, text, _ = main(capsys, "report", out, "--table", "lapor", "--explorers",
                         "source,optimal-await+ifaa")
    assert code == 0 and "| nreads-lock(2) | 2 | 2 |" in text
    png = tmp_path / "g.png"
    code, _, err = main(capsys, "report", out, "--plot", "growth", "--program", "rvf_fig13c",
                        "-o", png, "-o", png.with_suffix(".pdf"))
    assert code == 0, err
    assert png.read_bytes()[:4] == b"\x89PNG"
    assert png.with_suffix(".pdf").read_bytes()[:5] == b"%PDF-"


def test_report_writes_exactly_the_files_it_names(tmp_path, capsys):
    # -o fig.svg writes an SVG and nothing else; a table goes to -o FILE too (LaTeX for .tex).
    results = tmp_path / "r.jsonl"
    results.write_text("".join(json.dumps({
        "run_id": f"{n}{c}", "suite": "s", "seq": i, "program": "p", "instance": f"p({n})",
        "param_n": n, "config": c, "status": "ok", "complete": n * k, "blocked": 0,
        "errors": 0, "seconds": 0.01 * n}) + "\n"
        for i, (n, c, k) in enumerate([(2, "a", 1), (2, "b", 2), (3, "a", 1), (3, "b", 2)])))
    plots_dir = tmp_path / "plots"
    plots_dir.mkdir()
    svg = plots_dir / "fig.svg"
    code, out, err = main(capsys, "report", results, "--plot", "scatter", "--explorers", "a,b",
                          "-o", svg)
    assert code == 0, err
    assert sorted(p.name for p in plots_dir.iterdir()) == ["fig.svg"]
    assert b"<svg" in svg.read_bytes()[:400]
    tex = plots_dir / "t.tex"
    code, out, err = main(capsys, "report", results, "--table", "godot", "-o", tex)
    assert code == 0 and out == "", err
    assert tex.read_text().startswith("\\begin{tabular}")
    assert sorted(p.name for p in plots_dir.iterdir()) == ["fig.svg", "t.tex"]
    # A suffix matplotlib cannot write is bad input, and nothing is written.
    code, out, err = main(capsys, "report", results, "--plot", "scatter", "--explorers", "a,b",
                          "-o", plots_dir / "fig.png", "-o", plots_dir / "fig.docx")
    assert code == 2 and "fig.docx" in err and ".svg" in err
    assert sorted(p.name for p in plots_dir.iterdir()) == ["fig.svg", "t.tex"]


FLAKY = """
explorers = ["naive"]
[[programs]]
path = "examples/rvf_fig1.py"
[[programs]]
path = "{broken}"
"""


def test_cli_bench_fails_on_failed_runs_and_retries_only_those(tmp_path, capsys):
    # A program that raises gives an "error" row: bench says which run failed and exits 3;
    # --retry-failed reruns that run only (here after the program was fixed), then exits 0.
    broken = write_program(tmp_path, "broken", "raise RuntimeError('not yet')\n")
    suite = write_suite(tmp_path, FLAKY.format(broken=broken))
    results = tmp_path / "r.jsonl"
    code, _, err = main(capsys, "bench", suite, "-o", results, "-q")
    assert code == 3, err
    assert "2 runs done (1 failed), 0 already there" in err
    assert "1 run failed:" in err
    assert "t:broken:naive  error  " in err and "not yet" in err
    assert "--retry-failed" in err

    code, _, err = main(capsys, "bench", suite, "-o", results, "-q")  # still failed: 3
    assert code == 3 and "(1 in an earlier sweep)" in err

    broken.write_text("from porlab import Program\n"
                      "program = Program('fixed')\n"
                      "program.thread('t').store(program.var('x'), 1)\n")
    code, _, err = main(capsys, "bench", suite, "-o", results, "-q", "--retry-failed")
    assert code == 0, err
    assert "1 runs done (0 failed), 1 already there" in err
    df = bench.read_results(results).set_index("instance")
    assert (df.loc["broken", "status"], df.loc["broken", "complete"]) == ("ok", 1)
    # The log has the two first rows, then the retried run's only: the ok run was not rerun.
    log = [json.loads(line) for line in results.read_text().splitlines()]
    assert [(r["instance"], r["status"]) for r in log] == [
        ("rvf_fig1", "ok"), ("broken", "error"), ("broken", "ok")]


def test_retry_failed_reruns_only_failed_rows(tmp_path, monkeypatch):
    suite = write_suite(tmp_path, TINY)
    out = tmp_path / "r.jsonl"
    counter = Counter()
    monkeypatch.setattr(bench, "execute_run", counter)
    bench.run_suite(suite, out, progress=False)
    # Mark two finished rows as failed (a timeout and a crash), one as a clean budget end.
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    for row, status in zip(rows, ["timeout", "crash", "budget"], strict=False):
        row["status"] = status
    out.write_text("".join(json.dumps(r) + "\n" for r in rows))
    counter.calls.clear()
    sweep = bench.run_suite(suite, out, progress=False)
    assert counter.calls == [] and [r["status"] for r in sweep.failed_rows] == ["timeout",
                                                                                  "crash"]
    sweep = bench.run_suite(suite, out, progress=False, retry_failed=True)
    assert counter.calls == [f"{r['suite']}:{r['instance']}:{r['config']}" for r in rows[:2]]
    assert (sweep.executed, sweep.skipped, sweep.failed, sweep.failed_rows) == (2, 4, 0, [])
    assert set(bench.read_results(out)["status"]) == {"ok", "budget"}


def results_file(tmp_path, name: str, text: str | bytes) -> Path:
    p = tmp_path / name
    p.write_bytes(text if isinstance(text, bytes) else text.encode())
    return p


@pytest.mark.parametrize("name, content, words", [
    ("r.txt", "anything\n", "results files are .parquet, .csv or .jsonl"),
    ("r.csv", "a,b\n1,2\n", "no column run_id, status"),
    ("r.csv", b"\xff\xfe\x00garbage\x00\x81", "not a results file"),
    ("r.parquet", "not parquet at all", "not a results file"),
    ("r.jsonl", '{"run_id": "a", "status": "ok"}\nnot json\n{"run_id": "b", "status": "ok"}\n',
     "r.jsonl:2: not a JSON row"),
    ("r.jsonl", "[1, 2]\n", "r.jsonl:1: not a JSON object"),
    ("r.jsonl", '{"run_id": "a", "status": "done"}\n', "status done"),
    ("r.jsonl", '{"status": "ok"}\n', "no column run_id"),
])  # fmt: skip
def test_read_results_refuses_what_is_not_a_results_file(tmp_path, capsys, name, content,
                                                         words):
    path = results_file(tmp_path, name, content)
    with pytest.raises(ValueError, match=words.replace("(", r"\(").replace(".", r"\.")):
        bench.read_results(path)
    code, _, err = main(capsys, "report", path)
    assert code == 2 and err.count("\n") == 1, err
    assert err.startswith(f"porlab: error: {path}") and words in err


def test_read_results_skips_a_torn_last_line(tmp_path):
    # What a sweep killed while writing leaves: the rows before it are read.
    path = results_file(tmp_path, "r.jsonl",
                        '{"run_id": "a", "status": "ok"}\n{"run_id": "b", "sta')
    assert list(bench.read_results(path)["run_id"]) == ["a"]


def test_report_names_missing_columns(tmp_path, capsys):
    path = results_file(tmp_path, "r.jsonl", json.dumps(
        {"run_id": "a", "status": "ok", "instance": "p", "config": "x", "complete": 1}) + "\n")
    code, _, err = main(capsys, "report", path, "--table", "godot")
    assert code == 2
    assert "the godot table needs the columns blocked, errors, seconds" in err
    code, out, _ = main(capsys, "report", path)  # the plain table has what it needs
    assert code == 0 and "| p | x | ok | 1 |" in out
    empty = results_file(tmp_path, "e.jsonl", "")
    code, _, err = main(capsys, "report", empty)
    assert code == 2 and "no rows" in err


@pytest.mark.parametrize("args, words", [
    (["bench", "nope.toml"], "nope.toml"),
    (["bench", "SUITE", "-o", "r.xlsx"], "r.xlsx"),
    (["report", "missing.parquet"], "missing.parquet"),
    (["report", "RESULTS", "--table", "lapor", "--explorers", "source,bogus"], "bogus"),
    (["report", "RESULTS", "--plot", "scatter", "-o", "x.png"], "--explorers X,Y"),
    (["report", "RESULTS", "--plot", "growth", "-o", "x.png"], "--program"),
    (["report", "RESULTS", "--plot", "growth", "--program", "x"], "-o FILE"),
    (["report", "RESULTS", "--plot", "growth", "-o", "x"], "x: a figure file name ends in"),
    (["bench", "SUITE", "--force", "--retry-failed"], "--retry-failed"),
    (["report", "RESULTS", "--table", "rvf", "-o", "x.png"], "x.png: a table file ends in"),
])  # fmt: skip
def test_cli_bad_input_is_one_line(tmp_path, args, words):
    suite = write_suite(tmp_path, TINY)
    results = tmp_path / "r.jsonl"
    results.write_text(json.dumps({"run_id": "a", "instance": "x", "config": "source",
                                   "status": "ok", "complete": 1, "blocked": 0, "errors": 0,
                                   "seconds": 0.1}) + "\n")
    args = [str(suite) if a == "SUITE" else str(results) if a == "RESULTS" else a
            for a in args]
    proc = run_cli(*args, cwd=tmp_path)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("porlab: error: ") and words in lines[0]


def readme_block(marker: str) -> str:
    """The fenced block that follows ``<!-- marker -->`` in the README."""
    text = (ROOT / "README.md").read_text()
    after = text[text.index(f"<!-- {marker}"):]
    start = after.index("```")
    start = after.index("\n", start) + 1
    return after[start:after.index("```", start)]


def test_readme_worked_example_runs(tmp_path, monkeypatch, capsys):
    # The README shows benchmarks/suites/example.toml as it is, and its commands run (in small
    # mode here, for speed) and write what they say.
    example = ROOT / "benchmarks" / "suites" / "example.toml"
    assert readme_block("example-suite") == example.read_text()
    commands = [shlex.split(line, comments=True) for line in
                readme_block("example-commands").splitlines() if line.strip()]
    assert [c[:2] for c in commands] == [["porlab", "bench"]] * 2 + [["porlab", "report"]] * 3
    monkeypatch.chdir(tmp_path)
    runs = len(bench.load_suite(example, small=True).runs)
    outputs = []
    for cmd in commands:
        args = [str(ROOT / a) if a.startswith("benchmarks/") else a for a in cmd[1:]]
        if args[0] == "bench":
            args.append("--small")
        code, out, err = main(capsys, *args)
        assert code == 0, (cmd, err)
        outputs.append((out, err))
    assert f"{runs} runs done (0 failed), 0 already there" in outputs[0][1]
    assert f"0 runs done (0 failed), {runs} already there" in outputs[1][1]
    # N-READS-LOCK(3): 3! executions without LAPOR, 1 with it (LAPOR Table 1).
    assert "| nreads-lock(3) | 6 | **1** | **1** |" in outputs[2][0]
    assert (tmp_path / "fig13c.tex").read_text().startswith("\\begin{tabular}")
    assert (tmp_path / "fig13c.svg").read_bytes()[:5] == b"<?xml"
    assert (tmp_path / "fig13c.pdf").read_bytes()[:5] == b"%PDF-"
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "example.parquet", "example.parquet.log.jsonl", "fig13c.pdf", "fig13c.svg", "fig13c.tex"]
