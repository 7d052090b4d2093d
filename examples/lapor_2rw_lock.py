"""LAPOR paper, 2RW-LOCK (ALGORITHMS.md §3.6, §5.5).

    T1: lock(l); a := x; if (a == 0) x := 1; unlock(l)
    T2: lock(l); b := x; x := 2; unlock(l)

2 classes: T1 first (a = 0, T1 writes 1, b = 1) or T2 first (b = 0, a = 2, T1 does not
write).
"""

from porlab import Program


def build() -> Program:
    p = Program("lapor_2rw_lock")
    x = p.var("x")
    lk = p.mutex("l")
    with p.thread("T1") as t:
        t.lock(lk)
        a = t.load(x, "a")
        with t.if_(a == 0):
            t.store(x, 1)
        t.unlock(lk)
    with p.thread("T2") as t:
        t.lock(lk)
        t.load(x, "b")
        t.store(x, 2)
        t.unlock(lk)
    return p


program = build()
