"""LAPOR paper, rw-lock(N) / rw(N) (ALGORITHMS.md §3.6, §5.5; GenMC's
tests/correct/lapor/N-rw-lock).

    thread i (i = 0..n-1): lock(l); r := x; x := i+1; unlock(l)

* locked=True: n! reads-from (and Mazurkiewicz) classes, one per order of the critical
  sections: 2, 6, 24 for n = 2..4.
* locked=False (rw): (n+1)^(n-1) reads-from classes (Cayley's count of rooted forests: each
  read reads the initial value or another thread's write, without cycles): 3, 16, 125 for
  n = 2..4.
"""

from porlab import Program


def build(n: int = 3, locked: bool = True) -> Program:
    p = Program(f"lapor_rw{'_lock' if locked else ''}_{n}")
    x = p.var("x")
    lk = p.mutex("l")
    for i in range(n):
        with p.thread(f"t{i}") as t:
            if locked:
                t.lock(lk)
            t.load(x, "r")
            t.store(x, i + 1)
            if locked:
                t.unlock(lk)
    return p


program = build()
