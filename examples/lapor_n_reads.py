"""LAPOR paper, N-READS (ALGORITHMS.md §3.6): n threads, each reading x once (a_i := x).

Reads do not conflict and all read the initial value: 1 Mazurkiewicz class, 1 reads-from
class, 1 RVF class for every n, while there are n! interleavings.
"""

from porlab import Program


def build(n: int = 3) -> Program:
    p = Program(f"lapor_n_reads_{n}")
    x = p.var("x")
    for i in range(n):
        with p.thread(f"t{i}") as t:
            t.load(x, f"a{i}")
    return p


program = build()
