"""LAPOR paper, complex-lock(N) (ALGORITHMS.md §3.6, §5.5; GenMC's lock2inc.c).

    thread i: lock(m); ++x; unlock(m); lock(l); unlock(l); lock(m); ++x; unlock(m)

With locks as read-modify-writes (a lock reads from the previous unlock) n = 2 has 10
reads-from (and Mazurkiewicz) classes: the 4!/(2!·2!) = 6 orders of the four m-sections times
the 2 orders of the two l-sections, minus the 2 combinations where one thread's two m-sections
both precede the other's, but the l-sections are in the opposite order. (§5.5 also gives 342 for
n = 3, too many interleavings for the naive oracle; LAPOR has 6 and 90; GenMC 2019 reports 42
and 11214 with its own lock encoding.)
"""

from porlab import Program


def build(n: int = 2) -> Program:
    p = Program(f"lapor_complex_lock_{n}")
    x = p.var("x")
    m, lk = p.mutex("m"), p.mutex("l")
    for i in range(n):
        with p.thread(f"t{i}") as t:
            t.lock(m)
            t.store(x, t.load(x) + 1)
            t.unlock(m)
            t.lock(lk)
            t.unlock(lk)
            t.lock(m)
            t.store(x, t.load(x) + 1)
            t.unlock(m)
    return p


program = build()
