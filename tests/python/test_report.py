"""Paper tables and plots from result rows (hand-made rows: no exploration runs here)."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from matplotlib.figure import Figure

from porlab import plots, report

STATUS_ONLY = ("timeout", "memory", "crash", "error")


def rows(*specs: tuple) -> pd.DataFrame:
    """Rows from (instance, n, config, status, complete, blocked, seconds) tuples."""
    out = []
    for seq, (inst, n, config, status, c, b, s) in enumerate(specs):
        ok = status not in STATUS_ONLY
        out.append({
            "suite": "s", "program": inst.split("(")[0], "instance": inst,
            "params": json.dumps({"n": n}), "param_n": n, "explorer": config.split("+")[0],
            "config": config, "status": status,
            "complete": c if ok else None, "blocked": b if ok else None,
            "errors": 0 if ok else None, "traces": c + b if ok else None,
            "events": 10 * (c + b) if ok else None, "seconds": s if ok else None,
            "peak_memory_bytes": 2**24, "timeout": 60.0, "seq": seq,
            "timestamp": f"2026-01-01T00:00:{seq:02d}",
        })  # fmt: skip
    df = pd.DataFrame(out)
    for c in ("complete", "blocked", "errors", "traces", "events"):
        df[c] = df[c].astype("Int64")
    return df


RVF = rows(
    ("fig13c(3)", 3, "source", "ok", 36, 0, 0.012),
    ("fig13c(3)", 3, "optimal", "ok", 36, 0, 0.020),
    ("fig13c(3)", 3, "rvf", "ok", 1, 0, 0.5),
    ("fig13c(4)", 4, "source", "ok", 576, 0, 1.5),
    ("fig13c(4)", 4, "optimal", "timeout", 0, 0, 0),
    ("fig13c(4)", 4, "rvf", "ok", 1, 0, 0.75),
    ("fig13c(5)", 5, "source", "budget", 900, 0, 60.0),
    ("fig13c(5)", 5, "optimal", "crash", 0, 0, 0),
    ("fig13c(5)", 5, "rvf", "ok", 1, 0, 120.4),
)


def md_rows(text: str) -> list[list[str]]:
    return [[c.strip() for c in line.strip("|").split("|")] for line in text.splitlines()[2:]]


def test_rvf_table_bold_minima_and_dashes():
    text = report.rvf_table(RVF)
    header = text.splitlines()[0]
    assert header == ("| Benchmark | source traces | source time (s) | optimal traces"
                      " | optimal time (s) | rvf traces | rvf time (s) |")
    r3, r4, r5 = md_rows(text)
    assert r3 == ["fig13c(3)", "36", "**0.0120**", "36", "0.0200", "**1**", "0.500"]
    assert r4 == ["fig13c(4)", "576", "1.50", "-", "-", "**1**", "**0.750**"]
    # budget → "-", crash → "†"; a single value in a column pair is not bold
    assert r5 == ["fig13c(5)", "-", "-", "†", "†", "1", "120"]


def test_rvf_table_ties_and_explorer_choice():
    text = report.rvf_table(RVF, ["source", "optimal"])
    r3 = md_rows(text)[0]
    assert r3 == ["fig13c(3)", "36", "**0.0120**", "36", "0.0200"]  # equal traces: no bold
    with pytest.raises(ValueError, match="no rows for nope"):
        report.rvf_table(RVF, ["source", "nope"])


def test_rvf_table_latex():
    df = RVF.copy()
    df["instance"] = df["instance"].str.replace("fig13c", "fig_13&c%")
    text = report.rvf_table(df, format="latex")
    assert text.startswith(r"\begin{tabular}{lrrrrrr}")
    assert r"\multicolumn{2}{c}{source} & \multicolumn{2}{c}{optimal}" in text
    assert r"fig\_13\&c\%(3) & 36 & \textbf{0.0120} & 36 & 0.0200 & \textbf{1} & 0.500 \\" in text
    assert r"fig\_13\&c\%(5) & - & - & \dag{} & \dag{} & 1 & 120 \\" in text
    assert text.endswith("\\bottomrule\n\\end{tabular}")


def test_rvf_table_defaults_to_the_papers_five_columns():
    # With every column of RVF-SMC Tables 1-2 present, the default shows exactly them, in the
    # paper's order (RVF-SMC, VC-DPOR, Nidhugg/rfsc, DC-DPOR, Nidhugg/source), not "naive".
    specs = [("fig1", 1, c, "ok", t, 0, 0.01)
             for c, t in (("naive", 560), ("source", 98), ("data-centric", 28), ("rf", 9),
                          ("value-centric", 7), ("rvf", 1))]
    text = report.rvf_table(rows(*specs))
    assert text.splitlines()[0] == (
        "| Benchmark | rvf traces | rvf time (s) | value-centric traces | value-centric time (s)"
        " | rf traces | rf time (s) | data-centric traces | data-centric time (s)"
        " | source traces | source time (s) |")
    assert [c.strip("*") for c in md_rows(text)[0][1::2]] == ["1", "7", "9", "28", "98"]
    # One of them missing: every configuration, in suite order.
    assert "naive traces" in report.rvf_table(rows(*specs[:-1]))


def test_saver_table():
    df = rows(
        ("seqlock(3)", 3, "none", "ok", 430, 12, 0.5),
        ("seqlock(3)", 3, "spin-assume", "ok", 147, 3, 0.2),
        ("seqlock(3)", 3, "plp", "ok", 9, 0, 0.02),
        ("seqlock(3)", 3, "saver", "ok", 9, 40, 0.03),
        ("mcslock(4)", 4, "none", "timeout", 0, 0, 0),
        ("mcslock(4)", 4, "spin-assume", "ok", 26232, 0, 6.2),
        ("mcslock(4)", 4, "saver", "crash", 0, 0, 0),
    )
    text = report.table(df, "saver")
    assert text.splitlines()[0] == ("| Benchmark | none Execs | spin-assume Execs | saver Execs"
                                    " | saver Time |")
    # complete executions only (the paper's T), the time of the last configuration
    assert md_rows(text) == [["seqlock(3)", "430", "147", "9", "0.0300"],
                             ["mcslock(4)", "⊙", "26232", "†", "†"]]
    assert md_rows(report.saver_table(df, ["plp"])) == [["seqlock(3)", "9", "0.0200"]]


def test_latex_escape():
    assert report.latex_escape(r"a_b & 50% $x$ #1 {y} ~^\ ⊙") == (
        r"a\_b \& 50\% \$x\$ \#1 \{y\} \textasciitilde{}\textasciicircum{}\textbackslash{}"
        r" $\odot$")


GODOT = rows(
    ("sortnet(4)", 4, "baseline", "ok", 1, 312, 0.48),
    ("sortnet(4)", 4, "await", "ok", 1, 0, 0.08),
    ("sortnet(7)", 7, "baseline", "timeout", 0, 0, 0),
    ("sortnet(7)", 7, "await", "crash", 0, 0, 0),
    ("mutex(3)", 3, "baseline", "ok", 6582, 336, 0.76),
)


def test_godot_table():
    text = report.godot_table(GODOT)
    assert text.splitlines()[0] == ("| Benchmark | baseline Execs | baseline Time"
                                    " | await Execs | await Time |")
    assert md_rows(text) == [
        ["sortnet(4)", "1+312", "0.480", "1", "0.0800"],
        ["sortnet(7)", "⊙", "⊙", "†", "†"],
        ["mutex(3)", "6582+336", "0.760", "", ""],
    ]
    latex = report.godot_table(GODOT, ["await"], format="latex")
    assert r"sortnet(7) & \dag{} & \dag{} \\" in latex
    assert "mutex(3)" not in latex  # no row for the configurations shown


def test_lapor_table():
    df = rows(
        ("nreads-lock(6)", 6, "genmc", "ok", 720, 0, 0.14),
        ("nreads-lock(6)", 6, "lapor", "ok", 1, 0, 0.04),
        ("chtable(6)", 6, "genmc", "timeout", 0, 0, 0),
        ("chtable(6)", 6, "lapor", "ok", 1, 0, 0.07),
    )
    text = report.lapor_table(df)
    assert text.splitlines()[0] == ("| Benchmark | Execs genmc | Execs lapor | Time (s) genmc"
                                    " | Time (s) lapor |")
    assert md_rows(text) == [["nreads-lock(6)", "720", "**1**", "0.140", "**0.0400**"],
                             ["chtable(6)", "–", "1", "–", "0.0700"]]
    assert r"chtable(6) & -- & 1 & -- & 0.0700 \\" in report.lapor_table(df, format="latex")
    assert md_rows(report.lapor_table(df, ["lapor"])) == [["nreads-lock(6)", "1", "0.0400"],
                                                          ["chtable(6)", "1", "0.0700"]]


def test_lapor_table_keeps_every_configuration():
    # lapor.toml has three configurations (the paper's two and LAPOR with mo coherence): all
    # three are columns, by default and when named, in the order asked for.
    df = rows(
        ("nreads-lock(4)", 4, "GenMC (rf)", "ok", 24, 0, 0.0031),
        ("nreads-lock(4)", 4, "LAPOR", "ok", 1, 0, 0.0012),
        ("nreads-lock(4)", 4, "LAPOR-mo", "ok", 1, 0, 0.0019),
    )
    text = report.lapor_table(df)
    assert text.splitlines()[0] == (
        "| Benchmark | Execs GenMC (rf) | Execs LAPOR | Execs LAPOR-mo | Time (s) GenMC (rf)"
        " | Time (s) LAPOR | Time (s) LAPOR-mo |")
    assert md_rows(text) == [["nreads-lock(4)", "24", "**1**", "**1**", "0.00310", "**0.00120**",
                              "0.00190"]]
    latex = report.lapor_table(df, ["LAPOR-mo", "GenMC (rf)", "LAPOR"], format="latex")
    assert r"& \multicolumn{3}{c}{Execs} & \multicolumn{3}{c}{Time (s)} \\" in latex
    assert r"Benchmark & LAPOR-mo & GenMC (rf) & LAPOR & LAPOR-mo & GenMC (rf) & LAPOR \\" in latex


@pytest.mark.parametrize("seconds, text", [
    (0.003, "0.00300"), (0.0001234, "0.000123"), (0.012, "0.0120"), (0.48, "0.480"),
    (0.99996, "1.00"), (1.5, "1.50"), (9.996, "10.0"), (12.345, "12.3"), (99.96, "100"),
    (120.4, "120"), (3600.2, "3600"), (0.0, "0"),
])  # fmt: skip
def test_times_keep_three_significant_digits(seconds, text):
    # A 3 ms run is 0.00300 s, never 0.00 or 0.003 (one digit) in a table.
    df = rows(("p(1)", 1, "x", "ok", 1, 0, seconds))
    assert md_rows(report.godot_table(df))[0][2] == text
    assert md_rows(report.plain_table(df))[0][8] == text


def test_check_columns():
    report.check_columns(RVF, "rvf")  # traces present
    no_traces = RVF.drop(columns=["traces"])
    report.check_columns(no_traces, "rvf")  # complete + blocked + errors stand in for it
    with pytest.raises(ValueError, match="the rvf table needs the column seconds"):
        report.table(RVF.drop(columns=["seconds"]), "rvf")
    with pytest.raises(ValueError, match="needs the columns complete, blocked"):
        report.table(RVF.drop(columns=["complete", "blocked"]), "godot")
    report.check_columns(RVF.drop(columns=["config"]), "plain")  # explorer stands in
    with pytest.raises(ValueError, match="needs the column config"):
        report.check_columns(RVF.drop(columns=["config", "explorer"]), "plain")


def test_plain_table_shows_the_bound_blocked_executions():
    # complete + loop-bound-blocked is what GenMC counts as complete: one column away
    df = rows(("p(1)", 1, "x", "ok", 4, 7, 0.5))
    df["blocked_by"] = ['{"assume":2,"loop-bound":5}']
    row = md_rows(report.plain_table(df))[0]
    assert row[3:6] == ["4", "7", "5"]


def test_plain_table_and_dispatch():
    text = report.table(GODOT, "plain")
    # (no blocked_by column in these rows: the "of which bound" cell stays empty)
    assert md_rows(text)[0] == ["sortnet(4)", "baseline", "ok", "1", "312", "", "0", "3130",
                                "0.480", "16.0"]
    assert md_rows(text)[2] == ["sortnet(7)", "baseline", "timeout", "", "", "", "", "", "",
                                "16.0"]
    assert len(md_rows(report.table(GODOT, "plain", explorers=["await"]))) == 2
    with pytest.raises(ValueError, match="unknown table"):
        report.table(GODOT, "nope")
    with pytest.raises(ValueError, match="unknown table format"):
        report.rvf_table(RVF, format="html")


MAGIC = {".png": b"\x89PNG\r\n\x1a\n", ".pdf": b"%PDF-", ".svg": b"<?xml"}


def check_files(*paths):
    """Each file exists with the magic bytes of its suffix's format."""
    for p in paths:
        assert p.read_bytes()[: len(MAGIC[p.suffix])] == MAGIC[p.suffix], p
        assert p.stat().st_size > 1000, p


def test_scatter_writes_the_files_it_is_given(tmp_path):
    fig = plots.scatter(RVF, "source", "rvf", "traces",
                        path=[tmp_path / "scatter.png", tmp_path / "scatter.pdf"])
    assert isinstance(fig, Figure)
    check_files(tmp_path / "scatter.png", tmp_path / "scatter.pdf")
    ax = fig.axes[0]
    assert ax.get_xscale() == ax.get_yscale() == "log"
    labels = [h.get_label() for h in ax.get_legend().legend_handles]
    assert labels[:2] == ["y = x", "y = 10x / x/10"]
    assert "2 benchmarks" in labels  # fig13c(3), fig13c(4); fig13c(5) is a budget border
    assert "1 without a result on one side" in labels
    plots.scatter(RVF, "source", "optimal", "seconds", path=tmp_path / "t.svg")
    check_files(tmp_path / "t.svg")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["scatter.pdf", "scatter.png", "t.svg"]
    with pytest.raises(ValueError, match="no rows for nope"):
        plots.scatter(RVF, "source", "nope")
    with pytest.raises(ValueError, match="unknown metric"):
        plots.scatter(RVF, "source", "rvf", "bananas")
    for bad in ("t", "t.docx"):
        with pytest.raises(ValueError, match=f"{bad}: a figure file name ends in one of"):
            plots.scatter(RVF, "source", "rvf", path=tmp_path / bad)
    with pytest.raises(ValueError, match="no file"):
        plots.save(fig, [])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["scatter.pdf", "scatter.png", "t.svg"]


def test_growth_and_time_plots(tmp_path):
    fig = plots.growth(RVF, "fig13c", path=tmp_path / "growth.pdf")
    check_files(tmp_path / "growth.pdf")
    assert not (tmp_path / "growth.png").exists()  # only the file asked for
    assert fig.axes[0].get_yscale() == "log"
    fig = plots.growth(GODOT, "sortnet", metric="blocked", path=tmp_path / "blocked.png")
    assert fig.axes[0].get_yscale() == "symlog"  # await has 0 blocked traces
    check_files(tmp_path / "blocked.png")
    fig = plots.time_vs_n(RVF, "fig13c", path=tmp_path / "time.png")
    check_files(tmp_path / "time.png")
    assert 60.0 in [line.get_ydata()[0] for line in fig.axes[0].get_lines()]  # timeout line
    with pytest.raises(ValueError, match="no rows for program"):
        plots.growth(RVF, "nope")
    with pytest.raises(ValueError, match="no parameter 'k'"):
        plots.growth(RVF, "fig13c", param="k")
