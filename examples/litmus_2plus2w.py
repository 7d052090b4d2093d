"""Litmus test 2+2W, under sequential consistency.

    t0: x := 1; y := 2        t1: y := 1; x := 2

6 interleavings; 3 Mazurkiewicz classes, one per reachable final state (x, y) ∈ {(2,1), (1,2),
(2,2)}: the final state x = 1 ∧ y = 1 needs t1's x := 2 before t0's x := 1 and t0's y := 2
before t1's y := 1, a cycle with program order. Nothing reads, so there is 1 reads-from class
and 1 RVF class.
"""

from porlab import Program


def build() -> Program:
    p = Program("litmus_2plus2w")
    x, y = p.vars("x", "y")
    with p.thread("t0") as t:
        t.store(x, 1)
        t.store(y, 2)
    with p.thread("t1") as t:
        t.store(y, 1)
        t.store(x, 2)
    return p


program = build()
