"""readers(n) (Abdulla et al., POPL'14): one writer x := 1 and n readers of x: 2^n
Mazurkiewicz classes (each reader before or after the write)."""

from porlab import Program


def build(n: int = 3) -> Program:
    p = Program(f"readers({n})")
    x = p.var("x")
    with p.thread("writer") as t:
        t.store(x, 1)
    for i in range(n):
        with p.thread(f"r{i}") as t:
            t.load(x)
    return p


program = build()
