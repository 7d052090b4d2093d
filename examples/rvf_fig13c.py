"""RVF-SMC paper, Figure 13(c): n threads, each doing w(x,1); r(x).

Every read reads 1 and no read is causally before another: a read's causal predecessors are
its own thread's write and the write it reads from, and each write is the first event of its
thread. So there is 1 RVF class for every n.
* interleavings = (2n)!/2^n: 1, 6, 90, 2520, 113400 for n = 1..5.
* Mazurkiewicz = (n!)^2: the writes can be ordered in n! ways; reads do not conflict with
  reads, so a read only has a position among the writes: r_i goes after w_i, and when w_i is
  the k-th write there are n-k+1 places, n! in all: 1, 4, 36, 576, 14400.
* reads-from = (n+1)^(n-1) (Cayley): r_i reads w_f(i) with w_i no later than w_f(i) in the
  write order, so f is realisable iff its only cycles are fixed points, i.e. f is a rooted
  forest on n labelled nodes: 1, 3, 16, 125, 1296 for n = 1..5.
"""

from porlab import Program


def build(n: int = 3) -> Program:
    p = Program(f"rvf_fig13c_{n}")
    x = p.var("x")
    for i in range(n):
        with p.thread(f"thread{i + 1}") as t:
            t.store(x, 1)
            t.load(x, f"r{i + 1}")
    return p


program = build()
