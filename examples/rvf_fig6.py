"""RVF-SMC paper, Figure 6: the program used to walk through Algorithm 2 (RVF-SMC).

    thr1: w1(x,1); r1(x); w2(y,1)
    thr2: w3(x,1); w4(y,1); r2(y); w5(x,2)

Classes (checked in tests/python/test_partition.py):
* 35 interleavings = 7!/(3!·4!).
* 5 reads-from classes: r1 reads w1, w3 or w5 and r2 reads w2 or w4, except r1←w5 with r2←w2,
  which is cyclic (r1 <po w2 <rf r2 <po w5 <rf r1).
* 3 RVF classes: (r1,r2) = (1,1) with r1 causally before r2 (r2 reads w2), (1,1) without it
  (r2 reads w4), and (2,1). The paper's RVF-SMC run explores only 2 maximal traces because it
  merges the two (1,1) classes, which differ only in the causal order of the reads.
* 12 Mazurkiewicz classes (computed by the independent pure-Python oracle of the tests).
"""

from porlab import Program


def build() -> Program:
    p = Program("rvf_fig6")
    x, y = p.vars("x", "y")
    with p.thread("thr1") as t:
        t.store(x, 1)  # w1
        t.load(x, "r1")  # r1
        t.store(y, 1)  # w2
    with p.thread("thr2") as t:
        t.store(x, 1)  # w3
        t.store(y, 1)  # w4
        t.load(y, "r2")  # r2
        t.store(x, 2)  # w5
    return p


program = build()
