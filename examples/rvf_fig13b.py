"""RVF-SMC paper, Figure 13(b): few operations on many variables x1..xn.

    thread1: w(x1,1); ...; w(xn,1)
    thread2: w(x1,1); r(x1); ...; w(xn,1); r(xn)
    thread3: w(x1,1); ...; w(xn,1)

Every read reads 1 and all reads are in thread2: 1 RVF class for every n.
* reads-from = 3^n: each r(xi) reads thread2's own w(xi,1), thread1's or thread3's, and every
  combination can be scheduled (run thread1/thread3 up to w(xi) right after thread2's w(xi)).
* Mazurkiewicz = 12^n: the four events on xi can be ordered in 4!/2 = 12 ways (w(xi) before
  r(xi) in thread2), and any combination is acyclic because all three threads visit the
  variables in the same order x1..xn.
* interleavings = (4n)!/(n!·(2n)!·n!), as for Figure 13(a).
"""

from porlab import Program


def build(n: int = 3) -> Program:
    p = Program(f"rvf_fig13b_{n}")
    xs = p.vars(*[f"x{i + 1}" for i in range(n)])
    with p.thread("thread1") as t:
        for x in xs:
            t.store(x, 1)
    with p.thread("thread2") as t:
        for i, x in enumerate(xs):
            t.store(x, 1)
            t.load(x, f"r{i + 1}")
    with p.thread("thread3") as t:
        for x in xs:
            t.store(x, 1)
    return p


program = build()
