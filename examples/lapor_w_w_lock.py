"""LAPOR paper, w+w+LOCK (ALGORITHMS.md §3.6).

    T1: lock(l); x := 1; unlock(l)
    T2: lock(l); x := 2; unlock(l)

2 Mazurkiewicz and 2 reads-from classes, one per lock order (locks as read-modify-writes, as in
GenMC 2019; LAPOR with wo = wb has 1). Without the locks (w+w) there would be 2 Mazurkiewicz
classes but only 1 reads-from class, since nothing reads.
"""

from porlab import Program


def build(locked: bool = True) -> Program:
    p = Program("lapor_w_w_lock" if locked else "lapor_w_w")
    x = p.var("x")
    lk = p.mutex("l")
    for i in (1, 2):
        with p.thread(f"T{i}") as t:
            if locked:
                t.lock(lk)
            t.store(x, i)
            if locked:
                t.unlock(lk)
    return p


program = build()
