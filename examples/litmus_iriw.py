"""Litmus test IRIW (independent reads of independent writes), under sequential consistency.

    t0: x := 1     t1: y := 1     t2: a := x; b := y     t3: c := y; d := x

180 interleavings = 6!/(1!·1!·2!·2!). Each read reads the initial 0 or the one write of its
variable: 2^4 = 16 combinations, and SC forbids only (a, b, c, d) = (1, 0, 1, 0) (t2 sees x
before y, t3 sees y before x), so 15 Mazurkiewicz = 15 reads-from = 15 RVF classes (no read
is causally before a read of another thread: the writers do not read).
"""

from porlab import Program


def build() -> Program:
    p = Program("litmus_iriw")
    x, y = p.vars("x", "y")
    with p.thread("t0") as t:
        t.store(x, 1)
    with p.thread("t1") as t:
        t.store(y, 1)
    with p.thread("t2") as t:
        t.load(x, "a")
        t.load(y, "b")
    with p.thread("t3") as t:
        t.load(y, "c")
        t.load(x, "d")
    return p


program = build()
