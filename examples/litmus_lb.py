"""Litmus test LB (load buffering), under sequential consistency.

    t0: a := x; y := 1        t1: b := y; x := 1

6 interleavings; 3 Mazurkiewicz = 3 reads-from = 3 RVF classes: a = b = 1 is forbidden (each
read would have to follow the other thread's write, which follows its own read).
"""

from porlab import Program


def build() -> Program:
    p = Program("litmus_lb")
    x, y = p.vars("x", "y")
    with p.thread("t0") as t:
        t.load(x, "a")
        t.store(y, 1)
    with p.thread("t1") as t:
        t.load(y, "b")
        t.store(x, 1)
    return p


program = build()
