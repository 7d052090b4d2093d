"""SCChecker's saturation before the exact SC search (cpp/porlab/explore/graph/SCSaturation.cpp),
seen from `lapor wb_graphs="rf"` on nww-lock-rr (issue 16). Its exactness against the plain
search is tested in tests/cpp/explore/SCCheckerTest.cpp."""

from __future__ import annotations

from pathlib import Path

import pytest

import porlab
from porlab.cfront import load_c

NWW = Path(__file__).resolve().parents[2] / "benchmarks" / "programs" / "shared" / "nww_lock_rr.c"


@pytest.mark.parametrize("n", [5, 8])
def test_nww_lock_rr_wrong_sources_refuted_without_search(n: int) -> None:
    """main reads x from some thread k (N classes), then y: of its N sources, the N - 1 other
    threads' writes are inconsistent (x = j before x = k and y = k before y = j order the two
    sections both ways), each refuted by a cycle in the saturated order, with no search; the
    searches that remain find their witness in a few states each (the plain search tried every
    set of finished sections first: 2^(N-2) states per refutation)."""
    prog = load_c(str(NWW), defines={"N": n})
    lengths: list[int] = []
    res = porlab.explore(
        prog,
        "lapor",
        wb_graphs="rf",
        max_memory=0,
        on_trace=lambda t: lengths.append(len(t.events)),
    )
    st = res.stats
    assert (res.complete, res.errors, st["graphs_not_reported"]) == (n, 0, 0)
    refuted = st["wb_sc_saturation_refuted"]
    assert refuted == n * (n - 1)
    # No search backtracks: at most a state per event (a graph has no more events than a trace).
    assert st["wb_sc_states"] <= (st["wb_sc_searches"] - refuted) * max(lengths)
