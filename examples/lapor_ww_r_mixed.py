"""LAPOR paper, WW+R-MIXED (ALGORITHMS.md §3.6, §5.5).

    T1: lock(l); x := 1; x := 2; unlock(l)
    T2: a := x                      (no lock)

3 classes (reads-from, Mazurkiewicz and RVF): a ∈ {0, 1, 2}, since T2's read is not protected
and can see the intermediate value.
"""

from porlab import Program


def build() -> Program:
    p = Program("lapor_ww_r_mixed")
    x = p.var("x")
    lk = p.mutex("l")
    with p.thread("T1") as t:
        t.lock(lk)
        t.store(x, 1)
        t.store(x, 2)
        t.unlock(lk)
    with p.thread("T2") as t:
        t.load(x, "a")
    return p


program = build()
