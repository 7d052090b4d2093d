"""RVF-SMC paper, Figure 1: three threads writing 1 to x and y; two of them read back.

Classes: 98 Mazurkiewicz, 9 reads-from, 1 RVF (every read can only see the value 1).
"""

from porlab import Program


def build() -> Program:
    p = Program("rvf_fig1")
    x, y = p.vars("x", "y")
    with p.thread("thr1") as t:
        t.store(x, 1)
        t.store(y, 1)
    with p.thread("thr2") as t:
        t.store(x, 1)
        t.store(y, 1)
        t.load(x)
    with p.thread("thr3") as t:
        t.store(x, 1)
        t.store(y, 1)
        t.load(y)
    return p


program = build()
