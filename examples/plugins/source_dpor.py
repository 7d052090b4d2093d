"""Source-DPOR with sleep sets (Abdulla et al., POPL'14, Algorithm 1) in Python, registered as
``py-source`` (``porlab run prog.c --plugin examples/plugins/source_dpor.py -e py-source``).

Python runs once per trace and once per race; the per-event work is C++: ``run.sequence``
keeps the explored sequence E (events, vector clocks, a snapshot and a sleep set per depth),
``seq.extend`` runs E to its end in one call, ``seq.reversals`` finds the races of E with the
initials of the sequences that reverse them, ``seq.backtrack`` restores a snapshot.
"""

from __future__ import annotations

from typing import Any

import porlab


def lowest(mask: int) -> int:
    """The lowest thread of a bit mask."""
    return (mask & -mask).bit_length() - 1


@porlab.register_explorer(
    "py-source", equivalence="mazurkiewicz", ifaa=True,
    description="Source-DPOR with sleep sets, in Python (examples/plugins/source_dpor.py)")
def source_dpor(program: Any, run: Any) -> None:
    seq = run.sequence(program)     # E = the initial state; depth d = the state after d steps
    backtrack: list[int] = []       # per depth: the threads to explore from it (a bit mask)
    sleep_blocked = 0
    first = -1                      # the thread to step first (-1: the lowest awake)
    while True:
        base = seq.depth
        # Run E to its end: each new depth explores the thread it stepped (line 9: any thread
        # not asleep); the sleep sets follow in C++.
        end = seq.extend(first) if base > 0 or seq.end == "open" else seq.end
        if end == "open":           # a budget or Ctrl-C: stop without reporting
            return
        backtrack += [1 << t for t in seq.threads(len(backtrack))]  # the new depths
        if end == "sleep-blocked":
            sleep_blocked += 1
        else:
            seq.report()            # counted, bug-checked, outcome recorded
            if run.stop():
                return
        # Lines 4-8: for each race, the source set of the state before it gets an initial of
        # the sequence that reverses it unless it has one already.
        for depth, initials, v0 in seq.reversals():
            if not backtrack[depth] & initials:
                backtrack[depth] |= 1 << v0
        # Backtrack to the deepest state with a thread left to explore that is not asleep and
        # can run there (an initial that cannot run there is dropped, as in C++ source).
        while True:
            if seq.depth == 0:
                run.set_stat("sleep_blocked", sleep_blocked)
                return
            d = seq.depth - 1
            seq.backtrack(d)        # step d's thread goes to sleep at d
            del backtrack[d + 1:]
            todo = backtrack[d] & ~seq.sleep_mask(d)
            if todo and (todo := todo & seq.enabled()):  # (enabled() restores the state)
                first = lowest(todo)
                break
