"""Traces kept by explore(): relations, their matrices, DOT output, and trace_key."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from conftest import example

import porlab

RELATIONS = ("po", "rf", "co", "fr", "hb", "causal")

# Programs with reads, writes, RMWs, awaits, locks, spawn/join, blocking and errors.
PROGRAMS = [
    ("litmus_sb", {}),
    ("litmus_iriw", {}),
    ("litmus_wrc", {}),
    ("rvf_fig1", {}),
    ("rvf_fig6", {}),
    ("rvf_fig13c", {"n": 3}),
    ("godot_fig2", {"variant": "assume"}),
    ("godot_fig3", {}),
    ("godot_fig4", {}),
    ("godot_fig5", {}),
    ("lapor_2rw_lock", {}),
    ("lapor_nww_lock_rr", {"n": 2, "locked": False}),
    ("lapor_complex_lock", {}),
]


def traces_of(name: str, **params: object) -> list[porlab.Trace]:
    r = porlab.explore(example(name, **params), keep_traces=True)
    assert len(r.traces) == r.complete + r.blocked + r.errors > 0
    return list(r.traces)


def closure(m: np.ndarray) -> np.ndarray:
    """Transitive closure of a boolean relation (Warshall)."""
    c = m.copy()
    for k in range(len(c)):
        c |= np.outer(c[:, k], c[k, :])
    return c


def event_id(tr: porlab.Trace, i: int) -> tuple[int, int]:
    e = tr.events[i]
    return (e.thread, e.index)


def spawn_join_edges(tr: porlab.Trace) -> np.ndarray:
    """spawn → first event of the spawned thread, last event of a thread → join of it."""
    n = len(tr.events)
    m = np.zeros((n, n), dtype=bool)
    for i, e in enumerate(tr.events):
        if e.kind == "spawn":
            firsts = [j for j, f in enumerate(tr.events) if f.thread == e.aux and f.index == 0]
            for j in firsts:
                m[i, j] = True
        if e.kind == "join":
            lasts = [j for j, f in enumerate(tr.events) if f.thread == e.aux]
            m[lasts[-1], i] = True
    return m


@pytest.fixture(scope="module", params=PROGRAMS, ids=[p[0] for p in PROGRAMS])
def traces(request) -> list[porlab.Trace]:
    name, params = request.param
    return traces_of(name, **params)


def test_matrices_are_square_boolean_and_forward(traces):
    for tr in traces:
        n = len(tr.events)
        for rel in RELATIONS:
            m = tr.matrix(rel)
            assert m.dtype == np.bool_ and m.shape == (n, n)
            # Every relation respects the order of the trace: only i < j pairs.
            assert not np.tril(m).any(), rel


def test_po_is_program_order(traces):
    for tr in traces:
        thread = np.array([e.thread for e in tr.events])
        index = np.array([e.index for e in tr.events])
        expected = (thread[:, None] == thread[None, :]) & (index[:, None] < index[None, :])
        assert (tr.matrix("po") == expected).all()
        # Positions of a thread's events are 0, 1, 2, ... in trace order.
        for t in set(thread.tolist()):
            assert index[thread == t].tolist() == list(range((thread == t).sum()))


def test_rf_matrix_matches_reads_from(traces):
    for tr in traces:
        rf, src = tr.matrix("rf"), tr.reads_from()
        assert len(src) == len(tr.events)
        for r, w in enumerate(src):
            e = tr.events[r]
            if w == -2:  # reads nothing
                assert not rf[:, r].any()
                continue
            assert e.reads
            if w == -1:  # the initial value
                assert not rf[:, r].any()
            else:
                assert rf[w, r] and rf[:, r].sum() == 1
                we = tr.events[w]
                assert we.writes and we.loc == e.loc and we.value_written == e.value_read


def test_co_matrix_matches_coherence(traces):
    for tr in traces:
        co = tr.matrix("co")
        expected = np.zeros_like(co)
        for writes in tr.coherence():
            # Coherence is the order of the writes of one location in the trace.
            assert writes == sorted(writes)
            for a, b in itertools.combinations(writes, 2):
                expected[a, b] = True
        assert (co == expected).all()


def test_fr_is_rf_inverse_then_co(traces):
    for tr in traces:
        fr = tr.matrix("fr")
        assert set(tr.from_read()) == {
            (int(i), int(j)) for i, j in zip(*np.nonzero(fr), strict=True)
        }
        src = tr.reads_from()
        co_of = {w: ws for ws in tr.coherence() for w in ws}
        for r, w in enumerate(src):
            e = tr.events[r]
            if w == -2:
                continue
            later = (
                co_of[w][co_of[w].index(w) + 1 :]
                if w >= 0
                else next((ws for ws in tr.coherence() if ws and tr.events[ws[0]].loc == e.loc), [])
            )
            for x in later:
                if x != r:  # an RMW does not from-read its own write
                    assert fr[r, x], (r, x)


def test_hb_contains_po_rf_co_fr_and_is_transitive(traces):
    for tr in traces:
        po, rf, co, fr, hb = (tr.matrix(r) for r in ("po", "rf", "co", "fr", "hb"))
        assert not ((po | rf | co | fr) & ~hb).any()
        assert (closure(hb) == hb).all()
        assert not np.diag(hb).any()


def test_causal_is_closure_of_po_rf_spawn_join(traces):
    for tr in traces:
        base = tr.matrix("po") | tr.matrix("rf") | spawn_join_edges(tr)
        causal = tr.matrix("causal")
        assert (closure(base) == causal).all()
        assert not (causal & ~tr.matrix("hb")).any()


def test_closure_of_a_union_is_its_warshall_closure(traces):
    for tr in traces:
        n = len(tr.events)
        for rels in (["po", "rf"], ["po", "rf", "co", "fr"], ["rf", "co"], ["hb"]):
            union = np.zeros((n, n), dtype=bool)
            for rel in rels:
                union |= tr.matrix(rel)
            got = tr.closure(rels)
            assert got.dtype == np.bool_ and got.shape == (n, n)
            assert (got == closure(union)).all(), rels
        assert (tr.closure(["hb"]) == tr.matrix("hb")).all()  # hb is transitive
        assert not (tr.closure(["po", "rf"]) & ~tr.matrix("causal")).any()


def test_closure_rejects_unknown_relations():
    tr = traces_of("litmus_sb")[0]
    with pytest.raises(ValueError, match="unknown relation"):
        tr.closure(["po", "sw"])


def test_hb_method_matches_matrix(traces):
    for tr in traces[:5]:
        hb = tr.matrix("hb")
        n = len(tr.events)
        assert all(tr.hb(i, j) == hb[i, j] for i in range(n) for j in range(n))


def test_hb_with_ifaa_drops_unused_fetch_add_pairs():
    # Godot Fig. 5: the three FAAs have unused results; with IFAA they do not conflict. In the
    # traces where s's await ran, the await (a read of x) orders them anyway, so look at the
    # 6 blocked traces, where only the FAAs touch x.
    blocked = [t for t in traces_of("godot_fig5") if t.status == "blocked"]
    assert len(blocked) == 6
    for tr in blocked:
        faas = [i for i, e in enumerate(tr.events) if e.kind == "fetch-add"]
        assert len(faas) == 3
        hb, hb_ifaa = tr.matrix("hb"), tr.matrix("hb", ifaa=True)
        for a, b in itertools.combinations(faas, 2):
            assert hb[a, b]  # conflicting writes to x
            assert not hb_ifaa[a, b]
            assert tr.hb(a, b) and not tr.hb(a, b, ifaa=True)


def test_spawn_and_join_order_events():
    (tr,) = [t for t in traces_of("godot_fig3") if t.events[-2].value_read == 2][:1]
    causal = tr.matrix("causal")
    spawn = [i for i, e in enumerate(tr.events) if e.kind == "spawn"]
    join = [i for i, e in enumerate(tr.events) if e.kind == "join"]
    for i, e in enumerate(tr.events):
        if tr.thread_name(e.thread) in ("p", "q"):
            assert any(causal[s, i] for s in spawn)  # spawned before it runs
            assert any(causal[i, j] for j in join)  # finished before it is joined


def test_unknown_relation():
    tr = traces_of("litmus_sb")[0]
    with pytest.raises(ValueError, match="unknown relation"):
        tr.matrix("sw")


def test_to_dot_and_str():
    for tr in traces_of("litmus_mp"):
        dot = tr.to_dot("mp")
        assert dot.startswith("digraph")
        for i in range(len(tr.events)):  # labelled with the source line, then the event
            where = f"{tr.source(i)}\\n" if tr.source(i) else ""
            assert f'e{i} [label="{where}{tr.describe(i)}"' in dot
        for r, w in enumerate(tr.reads_from()):
            if w >= 0:
                assert f"e{w} -> e{r} [style=dashed, color=red, label=rf" in dot
            elif w == -1:
                assert f"init -> e{r} [style=dashed, color=red, label=rf" in dot
        text = str(tr)
        for i in range(len(tr.events)):
            assert tr.describe(i) in text
        assert "examples/litmus_mp.py:" in text  # the source positions


def test_trace_fields():
    tr = traces_of("litmus_sb")[0]
    assert tr.num_threads == 2
    assert {tr.thread_name(e.thread) for e in tr.events} == {"t0", "t1"}
    assert {tr.location_name(e.loc) for e in tr.events if e.loc >= 0} == {"x", "y"}
    assert tr.status == "complete"


# --- trace_key ------------------------------------------------------------------------------


def test_trace_key_on_sb():
    # SB has 6 interleavings. t0 entirely first gives (a, b) = (0, 1), t1 entirely first
    # (1, 0), and the 4 others (both writes before both reads) (1, 1). Since every read has a
    # single possible writer besides the initial value, the order of each conflicting pair
    # (write x / read x, write y / read y) is fixed by the values read, so under every
    # equivalence two traces are equivalent iff they read the same values.
    trs = traces_of("litmus_sb")
    assert len(trs) == 6
    values = [tuple(e.value_read for e in t.events if e.kind == "read") for t in trs]
    # the read of t0 comes first in events of thread 0; order the values as (a, b)
    ab = [
        tuple(v for _, v in sorted((e.thread, e.value_read) for e in t.events if e.kind == "read"))
        for t in trs
    ]
    assert sorted(ab) == sorted([(0, 1), (1, 0)] + [(1, 1)] * 4)
    for eq in ("mazurkiewicz", "mazurkiewicz-ifaa", "reads-from", "rvf"):
        keys = [porlab.trace_key(t, eq) for t in trs]
        for i, j in itertools.combinations(range(len(trs)), 2):
            assert (keys[i] == keys[j]) == (ab[i] == ab[j]), (eq, values[i], values[j])


def test_trace_key_2plus2w_reads_from_merges_all():
    # No reads: every trace has the same (empty) reads-from function, but the Mazurkiewicz key
    # follows the coherence order, which the final values (x, y) reveal.
    trs = traces_of("litmus_2plus2w")
    rf_keys = {porlab.trace_key(t, "reads-from") for t in trs}
    assert len(rf_keys) == 1
    final = [tuple(written_last(t, loc) for loc in ("x", "y")) for t in trs]
    maz = [porlab.trace_key(t, "mazurkiewicz") for t in trs]
    for i, j in itertools.combinations(range(len(trs)), 2):
        assert (maz[i] == maz[j]) == (final[i] == final[j])


def written_last(tr: porlab.Trace, loc: str) -> int:
    return [e.value_written for e in tr.events if e.writes and tr.location_name(e.loc) == loc][-1]


def rf_by_id(tr: porlab.Trace) -> frozenset:
    src = tr.reads_from()
    return frozenset(
        (event_id(tr, r), None if w == -1 else event_id(tr, w))
        for r, w in enumerate(src)
        if w != -2
    )


def events_by_id(tr: porlab.Trace, with_values: bool = False) -> frozenset:
    return frozenset(
        (e.thread, e.index, e.kind, e.loc)
        + ((e.value_read, e.value_written) if with_values else ())
        for e in tr.events
    )


def hb_by_id(tr: porlab.Trace, relation: str = "hb", only=None) -> frozenset:
    m = tr.matrix(relation)
    keep = [i for i in range(len(tr.events)) if only is None or only(tr.events[i])]
    return frozenset((event_id(tr, i), event_id(tr, j)) for i in keep for j in keep if m[i, j])


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("rvf_fig1", {}),
        ("rvf_fig6", {}),
        ("rvf_fig13c", {"n": 3}),
        ("litmus_iriw", {}),
        ("litmus_wrc", {}),
        ("lapor_ww_r_mixed", {}),
    ],
)
def test_trace_key_agrees_with_the_definitions(name, params):
    # Recompute each equivalence from the trace's own relations, on event identities
    # (thread, index) so that positions in different interleavings can be compared:
    #   mazurkiewicz: same events, same hb (po ∪ conflict order, closed);
    #   reads-from:   same events, same reads-from function;
    #   rvf:          same events with the same values, same causal order on reads.
    trs = traces_of(name, **params)
    defs = {
        "mazurkiewicz": lambda t: (events_by_id(t), hb_by_id(t)),
        "reads-from": lambda t: (events_by_id(t), rf_by_id(t)),
        "rvf": lambda t: (
            events_by_id(t, with_values=True),
            hb_by_id(t, "causal", only=lambda e: e.reads),
        ),
    }
    for eq, define in defs.items():
        keys = [porlab.trace_key(t, eq) for t in trs]
        ours = [define(t) for t in trs]
        for i, j in itertools.combinations(range(len(trs)), 2):
            assert (keys[i] == keys[j]) == (ours[i] == ours[j]), (eq, i, j)
    assert (
        len({porlab.trace_key(t, "rvf") for t in trs})
        == porlab.partition_sizes(example(name, **params))["rvf"]
    )


def test_rvf_key_separates_causal_orders_in_fig6():
    # RVF-SMC Fig. 6: r1 = r2 = 1 in both cases, but when r2 reads w2 (po-after r1), r1 is
    # causally before r2; when it reads w4 it is not. RVF tells the two apart; values alone
    # would not (the paper's RVF-SMC run merges them into one explored trace).
    trs = traces_of("rvf_fig6")
    by_case: dict[tuple, set] = {}
    for t in trs:
        reads = {
            t.thread_name(e.thread): (i, e) for i, e in enumerate(t.events) if e.kind == "read"
        }
        (i1, r1), (i2, r2) = reads["thr1"], reads["thr2"]
        if (r1.value_read, r2.value_read) != (1, 1):
            continue
        src = t.events[t.reads_from()[i2]]
        by_case.setdefault(t.thread_name(src.thread), set()).add(porlab.trace_key(t, "rvf"))
        assert t.matrix("causal")[i1, i2] == (t.thread_name(src.thread) == "thr1")
    assert set(by_case) == {"thr1", "thr2"}
    assert len(by_case["thr1"]) == len(by_case["thr2"]) == 1
    assert by_case["thr1"] != by_case["thr2"]


def test_trace_key_unknown_equivalence():
    with pytest.raises(porlab.InputError, match="unknown equivalence"):
        porlab.trace_key(traces_of("litmus_sb")[0], "no-such-equivalence")
