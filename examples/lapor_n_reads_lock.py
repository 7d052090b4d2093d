"""LAPOR paper, N-READS-LOCK (ALGORITHMS.md §3.6, §5.5): n threads, each doing
lock(l); a_i := x; unlock(l).

With locks treated as read-modify-writes of the mutex (GenMC 2019, and porlab's Mazurkiewicz
and reads-from equivalences), every order of the n critical sections is its own class: n!
classes (1, 2, 6, 24, 120 for n = 1..5). LAPOR, which leaves locks out of reads-from, has 1.
"""

from porlab import Program


def build(n: int = 3) -> Program:
    p = Program(f"lapor_n_reads_lock_{n}")
    x = p.var("x")
    lk = p.mutex("l")
    for i in range(n):
        with p.thread(f"t{i}") as t:
            t.lock(lk)
            t.load(x, f"a{i}")
            t.unlock(lk)
    return p


program = build()
