"""Source-DPOR with sleep sets (Abdulla et al., POPL'14, Algorithm 1) in Python, registered as
``py-source`` (``porlab run prog.c --plugin examples/plugins/source_dpor.py -e py-source``).
The time goes to C++: ``run.replay`` re-executes a prefix, ``run.races_with_initials`` finds
the races with the initials that reverse them, ``run.conflicts`` serves the sleep sets.
"""

from __future__ import annotations

from typing import Any

import porlab


class Node:
    """A state of the exploration tree: the threads to explore from it and its sleep set."""

    __slots__ = ("backtrack", "sleep", "start")

    def __init__(self, sleep: set[int], start: int) -> None:
        self.backtrack: set[int] = set()
        self.sleep = sleep
        self.start = start  # position in the events of the step taken from this state


@porlab.register_explorer(
    "py-source", equivalence="mazurkiewicz", ifaa=True,
    description="Source-DPOR with sleep sets, in Python (examples/plugins/source_dpor.py)")
def source_dpor(program: Any, run: Any) -> None:
    ex = program.new_execution()
    events = list(run.replay(ex, []))
    owner: list[int] = [-1] * len(events)  # the node whose step emitted each event
    nodes = [Node(set(), len(events))]
    schedule: list[int] = []
    sleep_blocked = 0
    while True:
        # Run to a maximal execution (or until every enabled thread sleeps).
        while not ex.failed:
            node = nodes[-1]
            enabled = ex.enabled_threads()
            awake = [t for t in enabled if t not in node.sleep]
            if not awake:
                break
            t = ([t for t in awake if t in node.backtrack] or awake)[0]
            node.backtrack.add(t)
            node.start = len(events)
            mine = ex.pending(t)
            sleep = {q for q in node.sleep
                     if (p := ex.pending(q)) is not None and not run.conflicts(p, mine)}
            new = run.step(ex, t)
            events += new
            owner += [len(nodes) - 1] * len(new)
            schedule.append(t)
            nodes.append(Node(sleep, len(events)))
            if run.stop():
                return
        if ex.failed or not ex.enabled_threads():
            run.maximal(ex, events)
            # Every race reversed: some initial of notdep(i, E).j goes to the backtrack set
            # of the state before i unless one is there already.
            races = [(i, ini) for i, _j, ini in run.races_with_initials(events)]
            # Blocking races: a thread stuck at the end (an await, a lock) against every event
            # that conflicts with its pending one.
            for t in range(ex.max_threads):
                a = ex.pending(t)
                if a is not None and not a.enabled:
                    ext = [*events, a]
                    races += [(i, run.initials(ext, i, len(events)))
                              for i, e in enumerate(events) if run.conflicts(e, a)]
            if ex.failed and schedule:  # a failing step: dependent with every thread's next one
                races += [(nodes[-2].start, [t]) for t in range(ex.max_threads)
                          if t != schedule[-1] and ex.pending(t) is not None]
            for i, initials in races:
                node = nodes[owner[i]]
                if not node.backtrack.intersection(initials):
                    node.backtrack.add(min(initials))
        else:
            sleep_blocked += 1
        # Backtrack to the deepest state with a thread left to explore.
        while True:
            if not schedule:
                run.set_stat("sleep_blocked", sleep_blocked)
                return
            k = len(schedule) - 1
            node = nodes[k]
            node.sleep.add(schedule.pop())
            del nodes[k + 1:]
            del events[node.start:], owner[node.start:]
            if not node.backtrack - node.sleep:
                continue
            run.replay(ex, schedule)
            enabled = set(ex.enabled_threads())
            if not (node.backtrack - node.sleep) & enabled:
                # The initials cannot run here (an await, a lock, a join): explore every thread.
                node.backtrack |= enabled
            node.backtrack &= enabled
            if node.backtrack - node.sleep:
                break
