"""LAPOR paper, WW+RR-LOCK (ALGORITHMS.md §3.6, §5.5).

    T1: lock(l); x := 42; y := 42; unlock(l)
    T2: lock(l); a := x; b := y; unlock(l)

2 classes: (a, b) = (0, 0) or (42, 42), one per order of the critical sections.
"""

from porlab import Program


def build() -> Program:
    p = Program("lapor_ww_rr_lock")
    x, y = p.vars("x", "y")
    lk = p.mutex("l")
    with p.thread("T1") as t:
        t.lock(lk)
        t.store(x, 42)
        t.store(y, 42)
        t.unlock(lk)
    with p.thread("T2") as t:
        t.lock(lk)
        t.load(x, "a")
        t.load(y, "b")
        t.unlock(lk)
    return p


program = build()
