"""GODOT paper, Figure 3: plain Optimal-DPOR on two writers.

    p: x := 1; y := 1        q: x := 2; y := 2
    main: spawn p; spawn q; join p; join q; assert(|x - y| < 2)

4 Mazurkiewicz classes, one per final valuation (x, y) ∈ {1,2}² (ALGORITHMS.md §1.3.4, §5.5);
the assertion holds in all of them.
"""

from porlab import Program


def build() -> Program:
    pr = Program("godot_fig3")
    x, y = pr.vars("x", "y")
    p = pr.thread("p", start=False)
    p.store(x, 1)
    p.store(y, 1)
    q = pr.thread("q", start=False)
    q.store(x, 2)
    q.store(y, 2)
    with pr.thread("main") as m:
        m.spawn(p)
        m.spawn(q)
        m.join(p)
        m.join(q)
        a = m.load(x, "a")
        b = m.load(y, "b")
        d = m.let(a - b, "d")
        m.assert_((d < 2) & (d > -2))
    return pr


program = build()
