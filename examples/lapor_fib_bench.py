"""LAPOR paper, fib_bench from SV-COMP (ALGORITHMS.md §3.6, §5.5), with each
__VERIFIER_atomic section as one critical section of a single lock.

    i = j = 1
    t1: num × { i += j }       t2: num × { j += i }
    main: spawn t1; spawn t2; { condI = i >= 144 }; { condJ = j >= 144 }
          (check=True: assert(!(condI || condJ)), SV-COMP's fib_bench with a reachable error)

Locks are read-modify-writes, so the reads-from classes are the orders of the 2·num + 2
critical sections (each thread's in program order): (2num+2)!/(num!·num!·2!), 16632 for
num = 5 as GenMC reports; 3150, 560, 90 for num = 4, 3, 2. LAPOR reports 5922 for num = 5.

With check=True (num = 5) the assertion fails only when t1 and t2 strictly alternate, so that
the last of the ten sections writes fib(12) = 144, and main reads it: t1 first gives j = 144,
which condJ (main's second section) sees when it comes after all ten, with main's first
section in any of the 11 gaps; t2 first gives i = 144, seen only when both of main's sections
come last. So 11 + 1 = 12 of the 16632 classes are errors; nothing runs after a failed
assertion in them, so the total is unchanged.
"""

from porlab import Program


def build(num: int = 5, check: bool = False) -> Program:
    p = Program(f"lapor_fib_bench_{num}")
    i, j = p.vars("i", "j", init=1)
    lk = p.mutex("atomic")
    t1 = p.thread("t1", start=False)
    for _ in range(num):
        t1.lock(lk)
        t1.store(i, t1.load(i) + t1.load(j))
        t1.unlock(lk)
    t2 = p.thread("t2", start=False)
    for _ in range(num):
        t2.lock(lk)
        t2.store(j, t2.load(j) + t2.load(i))
        t2.unlock(lk)
    with p.thread("main") as m:
        m.spawn(t1)
        m.spawn(t2)
        m.lock(lk)
        cond_i = m.let(m.load(i) >= 144, "condI")
        m.unlock(lk)
        m.lock(lk)
        cond_j = m.let(m.load(j) >= 144, "condJ")
        m.unlock(lk)
        if check:
            m.assert_(~(cond_i | cond_j))
    return p


program = build()
