"""A benchmark program with many interleavings: k threads, each alternating stores and loads on
a few shared variables. Thread i performs sizes[i] operations, so the number of interleavings is
the multinomial (sum sizes)! / prod(sizes[i]!). The default (3, 3, 3, 4) gives 1 201 200."""

from porlab import Program


def build(sizes: str = "3,3,3,4", nvars: int = 2) -> Program:
    counts = [int(s) for s in str(sizes).split(",")]
    p = Program(f"interleave({sizes})")
    xs = [p.var(f"x{i}") for i in range(nvars)]
    for i, n in enumerate(counts):
        with p.thread(f"t{i}") as t:
            for k in range(n):
                v = xs[(i + k) % nvars]
                if k % 2 == 0:
                    t.store(v, i + 1)
                else:
                    t.load(v)
    return p


program = build()
