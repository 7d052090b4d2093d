"""indexer(n) (Flanagan & Godefroid, POPL'05): n threads insert 4 values each into a shared
hash table of 128 slots by compare-and-swap with linear probing; collisions start at 12
threads."""

from porlab import Program

SIZE = 128
MAX = 4


def build(n: int = 12) -> Program:
    p = Program(f"indexer({n})")
    table = p.array("table", SIZE)
    for tid in range(n):
        with p.thread(f"t{tid}") as t:
            for m in range(1, MAX + 1):
                w = m * 11 + tid
                h = t.let((w * 7) % SIZE, "h")
                with t.loop(bound=SIZE) as lp:
                    ok = t.cas(table[h], 0, w)
                    lp.break_if(ok)
                    t.set(h, (h + 1) % SIZE)
    return p


program = build()
