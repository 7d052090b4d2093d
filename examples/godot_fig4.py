"""GODOT paper, Figure 4: an await with two satisfying writes.

    p: x := 1; x := 0        q: await(x == 0); y := 1

2 Mazurkiewicz classes, both complete: q's await reads the initial 0 (before p's x := 1) or
p's x := 0 (ALGORITHMS.md §1.3.4, §5.5). Reads-from also has 2 classes; RVF has 1, since the
await reads the value 0 in both and it is the only read.
"""

from porlab import Program


def build() -> Program:
    pr = Program("godot_fig4")
    x, y = pr.vars("x", "y")
    with pr.thread("p") as t:
        t.store(x, 1)
        t.store(x, 0)
    with pr.thread("q") as t:
        t.await_(x, "==", 0)
        t.store(y, 1)
    return pr


program = build()
