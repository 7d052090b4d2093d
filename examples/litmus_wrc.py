"""Litmus test WRC (write-to-read causality), under sequential consistency.

    t0: x := 1        t1: a := x; y := 1        t2: b := y; c := x

30 interleavings = 5!/(1!·2!·2!). Each read sees 0 or the one write of its variable: 2^3 = 8
combinations, minus (a, b, c) = (1, 1, 0) (x := 1 <rf a <po y := 1 <rf b <po c would have c
after x := 1): 7 Mazurkiewicz = 7 reads-from = 7 RVF classes.
"""

from porlab import Program


def build() -> Program:
    p = Program("litmus_wrc")
    x, y = p.vars("x", "y")
    with p.thread("t0") as t:
        t.store(x, 1)
    with p.thread("t1") as t:
        t.load(x, "a")
        t.store(y, 1)
    with p.thread("t2") as t:
        t.load(y, "b")
        t.load(x, "c")
    return p


program = build()
