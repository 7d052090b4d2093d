"""RVF-SMC paper, Figure 13(a): many same-value operations on one variable.

    thread1: n × w(x,1)
    thread2: n × (w(x,1); r(x))
    thread3: n × w(x,1)

Every read reads 1, and all reads are in one thread, so there is exactly 1 RVF class for every
n, while the other equivalences have exponentially many classes:
* Mazurkiewicz = interleavings = (4n)!/(n!·(2n)!·n!), since every pair of events of different
  threads conflicts (same variable, at least one write): 12, 420, 18480, 900900 for n = 1..4.
* reads-from = Σ_{a+b+c=n} n!/(a!b!c!)·C(n,a)·C(n,b): read i reads its own thread's write or a
  write of thread1 (a of them) or thread3 (b of them); the writes of one other thread read by
  successive reads must be distinct and in program order, so they are a subset: 3, 19, 147,
  1251 for n = 1..4.
"""

from porlab import Program


def build(n: int = 3) -> Program:
    p = Program(f"rvf_fig13a_{n}")
    x = p.var("x")
    with p.thread("thread1") as t:
        for _ in range(n):
            t.store(x, 1)
    with p.thread("thread2") as t:
        for i in range(n):
            t.store(x, 1)
            t.load(x, f"r{i + 1}")
    with p.thread("thread3") as t:
        for _ in range(n):
            t.store(x, 1)
    return p


program = build()
