"""Litmus test SB (store buffering), under sequential consistency.

    t0: x := 1; a := y        t1: y := 1; b := x

6 interleavings; 3 Mazurkiewicz = 3 reads-from = 3 RVF classes: of the 2×2 orders of the two
conflicting pairs, a = b = 0 (each read before the other thread's write) is cyclic, so SC
forbids it; the outcomes (a, b) are (0,1), (1,0), (1,1).
"""

from porlab import Program


def build() -> Program:
    p = Program("litmus_sb")
    x, y = p.vars("x", "y")
    with p.thread("t0") as t:
        t.store(x, 1)
        t.load(y, "a")
    with p.thread("t1") as t:
        t.store(y, 1)
        t.load(x, "b")
    return p


program = build()
