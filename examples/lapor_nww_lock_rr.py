"""LAPOR paper, nww-lock-rr(N) / nww-rr(N) (ALGORITHMS.md §3.6, §5.5; GenMC's
tests/correct/lapor/N-ww-lock-rr).

    thread i (i = 1..n): lock(l); x := i; y := i; unlock(l)
    main: spawn all; join all; a := x; b := y; assert(a == b)

* locked=True: reads-from and Mazurkiewicz have n! classes (one per order of the critical
  sections; GenMC-style: 6, 24 for n = 3, 4), the assertion always holds. LAPOR has n.
* locked=False (nww-rr): n² reads-from classes (main reads x from any thread i and y from any
  thread j: run j's x := j, then i's x := i; y := i, then j's y := j). The n² - n classes with
  i != j violate the assertion.
"""

from porlab import Program


def build(n: int = 3, locked: bool = True) -> Program:
    p = Program(f"lapor_nww{'_lock' if locked else ''}_rr_{n}")
    x, y = p.vars("x", "y")
    lk = p.mutex("l")
    workers = []
    for i in range(1, n + 1):
        t = p.thread(f"t{i}", start=False)
        if locked:
            t.lock(lk)
        t.store(x, i)
        t.store(y, i)
        if locked:
            t.unlock(lk)
        workers.append(t)
    with p.thread("main") as m:
        for t in workers:
            m.spawn(t)
        for t in workers:
            m.join(t)
        a = m.load(x, "a")
        b = m.load(y, "b")
        m.assert_(a == b)
    return p


program = build()
