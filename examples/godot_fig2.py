"""GODOT paper, Figure 2: a polling loop replaced by an assume (b) or an await (c).

    p: do a = x; while (a != 1); b = y;      (a)
       a = x; assume(a == 1); b = y;          (b)  variant="assume"
       await(x == 1); b = y;                  (c)  variant="await"
    q: y = 42; x = 1;

Classes (ALGORITHMS.md §1.6, §5.5; the paper gives 2 traces for (b), 1 for (c)):
* assume: 1 complete + 1 blocked Mazurkiewicz class (p reads x = 0 and blocks, or reads 1 and
  then y = 42).
* await: 1 complete + 0 blocked (a disabled await is not an event, so p can only run its await
  after q's x = 1).
"""

from porlab import Program


def build(variant: str = "assume") -> Program:
    if variant not in ("assume", "await"):
        raise ValueError(f"variant must be 'assume' or 'await', not {variant!r}")
    p = Program(f"godot_fig2_{variant}")
    x, y = p.vars("x", "y")
    with p.thread("p") as t:
        if variant == "assume":
            a = t.load(x, "a")
            t.assume(a == 1)
        else:
            t.await_(x, "==", 1, "a")
        t.load(y, "b")
    with p.thread("q") as t:
        t.store(y, 42)
        t.store(x, 1)
    return p


program = build()
