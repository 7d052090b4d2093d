"""Litmus test MP (message passing), under sequential consistency.

    t0: x := 1; y := 1        t1: a := y; b := x

6 interleavings; 3 Mazurkiewicz = 3 reads-from = 3 RVF classes: a = 1, b = 0 is forbidden
(x := 1 <po y := 1 <rf a <po b would put b after x := 1).
"""

from porlab import Program


def build() -> Program:
    p = Program("litmus_mp")
    x, y = p.vars("x", "y")
    with p.thread("t0") as t:
        t.store(x, 1)
        t.store(y, 1)
    with p.thread("t1") as t:
        t.load(y, "a")
        t.load(x, "b")
    return p


program = build()
