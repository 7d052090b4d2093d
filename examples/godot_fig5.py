"""GODOT paper, Figure 5: fetch-and-adds feeding an await.

    p: x += 1    q: x += 1    r: x += 3    s: await(x == 3); y := 1

The fetch-and-add results are unused, so under IFAA they commute (ALGORITHMS.md §1.3.4, §5.5):
* mazurkiewicz-ifaa: 1 complete + 1 blocked (s runs after r alone, or never).
* mazurkiewicz: 2 complete + 6 blocked. x == 3 only right after r and before p and q, so a
  complete trace runs r; s; then p and q in either order (2). When s never runs, the three
  conflicting FAAs can come in any of 3! = 6 orders (even r first: p or q then disables s).
"""

from porlab import Program


def build() -> Program:
    pr = Program("godot_fig5")
    x, y = pr.vars("x", "y")
    with pr.thread("p") as t:
        t.fetch_add(x, 1)
    with pr.thread("q") as t:
        t.fetch_add(x, 1)
    with pr.thread("r") as t:
        t.fetch_add(x, 3)
    with pr.thread("s") as t:
        t.await_(x, "==", 3)
        t.store(y, 1)
    return pr


program = build()
