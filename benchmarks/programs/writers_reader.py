"""N writers and one reader: writer i does x := i+1, the reader reads x. The n writes and the
read all conflict, so every order is its own Mazurkiewicz class: (n+1)! classes; the read sees
one of n+1 writes (or the initial value when first): n+1 reads-from classes."""

from porlab import Program


def build(n: int = 3) -> Program:
    p = Program(f"writers_reader({n})")
    x = p.var("x")
    for i in range(n):
        with p.thread(f"w{i}") as t:
            t.store(x, i + 1)
    with p.thread("reader") as t:
        t.load(x)
    return p


program = build()
