"""LAPOR paper, WW+R-CONS (ALGORITHMS.md §3.6, §5.5).

    T1: lock(l); x := 1; x := 2; unlock(l)
    T2: lock(l); a := x; unlock(l)

2 classes (reads-from and Mazurkiewicz, locks as read-modify-writes): a = 0 or a = 2, one per
order of the critical sections; a = 1 is impossible.
"""

from porlab import Program


def build() -> Program:
    p = Program("lapor_ww_r_cons")
    x = p.var("x")
    lk = p.mutex("l")
    with p.thread("T1") as t:
        t.lock(lk)
        t.store(x, 1)
        t.store(x, 2)
        t.unlock(lk)
    with p.thread("T2") as t:
        t.lock(lk)
        t.load(x, "a")
        t.unlock(lk)
    return p


program = build()
