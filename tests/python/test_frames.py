"""porlab.results_frame and porlab.trace_frame: pandas views of results and traces."""

from __future__ import annotations

import subprocess
import sys

import pandas as pd
import pytest
from conftest import example

import porlab
from porlab.frames import RESULT_COLUMNS, TRACE_COLUMNS, results_frame, trace_frame

EXPLORERS = [e["name"] for e in porlab.explorers()]


# --- results_frame --------------------------------------------------------------------------


def test_one_row_per_result_with_the_flat_columns_of_as_dict() -> None:
    p = example("godot_fig2", variant="assume")
    results = [porlab.explore(p, e) for e in EXPLORERS]
    df = results_frame(results)
    assert len(df) == len(results)
    assert tuple(df.columns) == RESULT_COLUMNS
    for (_, row), r in zip(df.iterrows(), results, strict=True):
        d = r.as_dict()
        for c in RESULT_COLUMNS:
            assert row[c] == d[c] or (d[c] is None and pd.isna(row[c])), c
    assert list(df["explorer"]) == EXPLORERS
    assert (df["program"] == "godot_fig2_assume").all()
    assert df["complete"].dtype.kind == "i"
    assert df["seconds"].dtype.kind == "f"


def test_nested_items_are_left_out() -> None:
    """``stats`` (a dict) and ``error_trace`` (a list, present for programs with errors) are not
    columns; ``verdict`` says whether an error was found."""
    p = example("godot_fig3")
    bug = porlab.Program("bug")
    x = bug.var("x")
    for i in range(2):
        with bug.thread(f"t{i}") as t:
            r = t.load(x)
            t.store(x, r + 1)
    with bug.thread("check") as t:
        t.assert_(t.load(x) != 1)
    results = [porlab.explore(p, "optimal"), porlab.explore(bug, "optimal")]
    assert "error_trace" in results[1].as_dict()
    df = results_frame(results)
    assert "stats" not in df.columns
    assert "error_trace" not in df.columns
    assert list(df["verdict"]) == ["ok", "violation"]
    assert df["errors"].iloc[1] > 0


def test_stats_columns_on_request() -> None:
    p = example("rvf_fig1")
    results = [porlab.explore(p, "naive"), porlab.explore(p, "optimal")]
    df = results_frame(results, stats=True)
    assert tuple(df.columns[: len(RESULT_COLUMNS)]) == RESULT_COLUMNS
    stats_cols = [c for c in df.columns if c.startswith("stats.")]
    assert {f"stats.{k}" for k in results[1].stats} == set(stats_cols) | (
        {f"stats.{k}" for k in results[0].stats}
    )
    for k, v in results[1].stats.items():
        assert df[f"stats.{k}"].iloc[1] == v


def test_accepts_any_iterable_and_empty_input() -> None:
    p = example("litmus_sb")
    df = results_frame(porlab.explore(p, e) for e in ("naive", "optimal"))
    assert list(df["complete"]) == [6, 3]
    empty = results_frame([])
    assert len(empty) == 0
    assert tuple(empty.columns) == RESULT_COLUMNS


def test_results_frame_rejects_other_objects() -> None:
    with pytest.raises(TypeError, match=r"porlab\.Result"):
        results_frame([{"explorer": "naive"}])  # type: ignore[list-item]


# --- trace_frame ----------------------------------------------------------------------------


def test_one_row_per_event() -> None:
    # t0: x := 1; a := y        t1: y := 1; b := x    (litmus SB; every trace of naive)
    p = example("litmus_sb")
    for tr in porlab.explore(p, "naive", keep_traces=True).traces:
        df = trace_frame(tr)
        assert tuple(df.columns) == TRACE_COLUMNS
        assert len(df) == len(tr.events)
        assert list(df["position"]) == list(range(len(tr.events)))
        assert list(df["thread"]) == [tr.thread_name(e.thread) for e in tr.events]
        assert list(df["index"]) == [e.index for e in tr.events]
        assert list(df["kind"]) == [e.kind for e in tr.events]
        assert list(df["source"]) == [tr.source(i) for i in range(len(tr.events))]


def test_values_locations_and_reads_from() -> None:
    # Wx1 (t0) → Ry reads the initial 0 or Wy1; Rx reads Wx1 or the initial 0.
    p = example("litmus_sb")
    for tr in porlab.explore(p, "naive", keep_traces=True).traces:
        df = trace_frame(tr)
        rf = tr.reads_from()
        for i, e in enumerate(tr.events):
            row = df.iloc[i]
            if e.kind == "read":
                assert row["location"] in ("x", "y")
                assert row["value_read"] == e.value_read
                assert pd.isna(row["value_written"])
                assert row["rf"] == rf[i]
                # the write it reads from wrote the value it read (or it read the initial 0)
                if rf[i] >= 0:
                    assert df.iloc[rf[i]]["value_written"] == row["value_read"]
                    assert df.iloc[rf[i]]["location"] == row["location"]
                else:
                    assert rf[i] == -1
                    assert row["value_read"] == 0
            elif e.kind == "write":
                assert row["value_written"] == 1
                assert pd.isna(row["value_read"])
                assert pd.isna(row["rf"])
            else:  # thread-end markers: no location, no values
                assert row["location"] is None or pd.isna(row["location"])
                assert pd.isna(row["value_read"])
                assert pd.isna(row["value_written"])
                assert pd.isna(row["rf"])
    assert str(df["value_read"].dtype) == "Int64"
    assert str(df["rf"].dtype) == "Int64"


def test_rmw_lock_and_spawn_rows() -> None:
    tr = porlab.explore(example("lapor_2rw_lock"), "naive", keep_traces=True).traces[0]
    df = trace_frame(tr)
    locks = df[df["kind"] == "lock"]
    assert len(locks) > 0
    # a lock reads and writes its mutex: both values are present
    assert locks["value_read"].notna().all()
    assert locks["value_written"].notna().all()
    assert locks["location"].notna().all()
    tr = porlab.explore(example("godot_fig3"), "naive", keep_traces=True).traces[0]
    df = trace_frame(tr)
    spawns = df[df["kind"] == "spawn"]
    assert len(spawns) == 2
    assert spawns["location"].isna().all()
    assert (spawns["thread"] == "main").all()


def test_first_error_trace() -> None:
    # t0: r := x; x := r + 1   ‖   t1: the same   ‖   check: assert x != 1  (fails often)
    bug = porlab.Program("lost_update")
    x = bug.var("x")
    for i in range(2):
        with bug.thread(f"t{i}") as t:
            r = t.load(x)
            t.store(x, r + 1)
    with bug.thread("check") as t:
        t.assert_(t.load(x) != 1)
    r = porlab.explore(bug, "optimal", stop_on_error=True)
    assert r.first_error is not None
    df = trace_frame(r.first_error)
    assert len(df) == len(r.first_error.events)
    assert df["kind"].iloc[-1] == "assertion-failure"
    assert df["thread"].iloc[-1] == "check"


def test_trace_frame_rejects_other_objects() -> None:
    with pytest.raises(TypeError, match=r"porlab\.Trace"):
        trace_frame([])  # type: ignore[arg-type]


def test_pandas_is_imported_lazily() -> None:
    code = (
        "import sys, porlab, porlab.frames, porlab.iterate\n"
        "assert 'pandas' not in sys.modules, 'porlab imports pandas eagerly'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
