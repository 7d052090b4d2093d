"""lastzero(n) (Abdulla et al., Source Sets, POPL'14): thread 0 scans array[n..0] for the last
zero while threads 1..n each set array[j] = array[j-1] + 1."""

from porlab import Program


def build(n: int = 3) -> Program:
    p = Program(f"lastzero({n})")
    a = p.array("array", n + 1)
    with p.thread("scan") as t:
        i = t.let(n, "i")
        with t.loop(bound=n + 1) as lp:
            v = t.load(a[i])
            lp.break_if(v == 0)
            t.set(i, i - 1)
    for j in range(1, n + 1):
        with p.thread(f"w{j}") as t:
            prev = t.load(a[j - 1])
            t.store(a[j], prev + 1)
    return p


program = build()
