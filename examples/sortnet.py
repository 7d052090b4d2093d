"""Concurrent sorting network (Godot, Figure 1 and the sortnet(n) rows of Table I).

``n`` threads sort ``2n`` elements with Batcher's odd-even merge sort network. Every comparator
(i, j) belongs to the thread owning element i (thread k owns elements 2k and 2k+1). Hand-off
between comparators uses a version counter per element: before its c-th comparator on element
i, a thread waits until ``v[i] == c``; afterwards it sets ``v[i] = c + 1``. How it waits is the
``mode``:

* ``"await"``: ``await_(v[i], "==", c)`` — one atomic event once the condition holds. With
  Optimal-DPOR-Await every execution is in one class: 1 complete trace, 0 blocked, for every n.
* ``"assume"``: ``a = load(v[i]); assume(a == c)`` — what PLP makes of the spinloop; reading too
  early blocks the thread for good, so blocked traces appear and grow quickly with n.
* ``"spin"``: a spinloop ``do a = load(v[i]) while (a != c)`` bounded by ``spin_bound``
  iterations (an execution that would spin longer is blocked), Nidhugg's loop bounding.

At the end thread 0 waits for every element's final version and asserts the array is sorted.

Mazurkiewicz classes (complete+blocked, by exhaustive enumeration): sortnet(2) gives 1+0 with
awaits and 1+2 with assumes; Godot's Figure 1 itself (3 elements, ``build3``) gives 1+0 with
awaits and 1+2 with assumes, as ALGORITHMS.md §1.6 states.
"""

from __future__ import annotations

from itertools import pairwise

from porlab import Program


def batcher_network(size: int) -> list[tuple[int, int]]:
    """Batcher's odd-even merge sort comparators for ``size`` elements (any size: the network
    for the next power of two with comparators touching padding elements dropped — padding
    holds +infinity, so those comparators never swap)."""
    n = 1
    while n < size:
        n *= 2
    comps: list[tuple[int, int]] = []
    p = 1
    while p < n:
        k = p
        while k >= 1:
            j = k % p
            while j <= n - 1 - k:
                for i in range(min(k, n - j - k)):
                    a, b = i + j, i + j + k
                    if a // (2 * p) == b // (2 * p) and b < size:
                        comps.append((a, b))
                j += 2 * k
            k //= 2
        p *= 2
    return comps


def _wait(t, v, c: int, mode: str, spin_bound: int) -> None:
    if mode == "await":
        t.await_(v, "==", c)
    elif mode == "assume":
        a = t.load(v)
        t.assume(a == c)
    elif mode == "spin":
        with t.loop(bound=spin_bound) as lp:
            a = t.load(v)
            lp.break_if(a == c)
    else:
        raise ValueError(f"unknown mode {mode!r} (await, assume or spin)")


def _compare_swap(t, x, i: int, j: int) -> None:
    a, b = t.load(x[i]), t.load(x[j])
    with t.if_(a > b):
        t.store(x[i], b)
        t.store(x[j], a)


def build(n: int = 2, mode: str = "await", spin_bound: int = 2) -> Program:
    """n threads sorting 2n elements, initially in descending order."""
    size = 2 * n
    p = Program(f"sortnet({n},{mode})")
    x = p.array("x", size, init=list(range(size, 0, -1)))
    v = p.array("v", size, init=0)
    comps = batcher_network(size)
    owner = [i // 2 for i in range(size)]
    threads = [p.thread(f"t{k}") for k in range(n)]
    done = [0] * size  # comparators assigned so far per element
    for i, j in comps:
        t = threads[owner[i]]
        _wait(t, v[i], done[i], mode, spin_bound)
        _wait(t, v[j], done[j], mode, spin_bound)
        _compare_swap(t, x, i, j)
        done[i] += 1
        done[j] += 1
        t.store(v[i], done[i])
        t.store(v[j], done[j])
    # thread 0 checks the result once every element has its final version
    t0 = threads[0]
    for i in range(size):
        _wait(t0, v[i], done[i], mode, spin_bound)
    vals = [t0.load(x[i]) for i in range(size)]
    for a, b in pairwise(vals):
        t0.assert_(a <= b)
    return p


def build3(mode: str = "await") -> Program:
    """Godot Figure 1: two threads sort x = {3, 2, 1} with a flag y for hand-off.

    p: if (x0 > x1) swap; y = 1; wait y == 2; if (x0 > x1) swap
    q: wait y == 1; if (x1 > x2) swap; y = 2
    """
    p = Program(f"godot_fig1({mode})")
    x = p.array("x", 3, init=[3, 2, 1])
    y = p.var("y")
    tp, tq = p.thread("p"), p.thread("q")
    _compare_swap(tp, x, 0, 1)
    tp.store(y, 1)
    _wait(tp, y, 2, mode, 2)
    _compare_swap(tp, x, 0, 1)
    _wait(tq, y, 1, mode, 2)
    _compare_swap(tq, x, 1, 2)
    tq.store(y, 2)
    return p


program = build()
