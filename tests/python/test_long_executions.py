"""Long executions: memory linear in their length, budgets that end them (issue 15, §5).

An execution of L events must cost memory O(L), in every explorer: each of these tests runs one
program at length L and 2L, each in a fresh process, and compares the growth of the peak
resident set above the process's own level after loading the program (the peak is reset there
through /proc/self/clear_refs). Linear memory doubles; quadratic memory (what the graph
explorers and rf/rvf had: 595 MB for the graph engine at 10,000 events, 2.4 GB at 20,000)
quadruples. The bound, growth(2L) < 2.5 growth(L), does not depend on the machine's speed or
load. A run that needs more than 2 GiB of address space above the loaded program fails with
MemoryError instead of taking the machine down.

Budgets: an exploration with `max_events` stops at the budget, whichever explorer is running
(the graph engine replayed a whole execution past it, since a replay did not ask).
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

import porlab
from porlab.cfront import load_c_source

# One thread in an endless failing CAS loop that counts its iterations (a loop that changes
# nothing is ended as a livelock): one execution, cut at max_execution_events.
CAS_LOOP = r"""
#include <stdatomic.h>
atomic_int x, n;
int main(void) {
    int e = 1;
    while (!atomic_compare_exchange_strong(&x, &e, 2)) {
        e = 1;
        atomic_fetch_add(&n, 1);  // (a loop that changes nothing would end as a livelock)
    }
    return 0;
}
"""

# main spins on a flag a second thread sets: L+1 executions of up to L events.
FLAG_SPIN = r"""
#include <pthread.h>
#include <stdatomic.h>
atomic_int flag;
void *setter(void *arg) { (void)arg; atomic_store(&flag, 1); return 0; }
int main(void) {
    pthread_t t;
    pthread_create(&t, 0, setter, 0);
    while (!atomic_load(&flag)) {}
    pthread_join(t, 0);
    return 0;
}
"""

_WORKER = textwrap.dedent(
    """
    import json, resource, sys
    from porlab import explore
    from porlab.cfront import load_c_source

    def status(key):
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(key):
                    return int(line.split()[1])
        raise RuntimeError(key)

    source, length, explorer = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    program = load_c_source(source, max_execution_events=length, loops="none")
    cap = (status("VmSize:") + 2 * 1024 * 1024) * 1024
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")  # the peak resident set starts again from here
    base = status("VmHWM:")
    r = explore(program, explorer, collect_outcomes=False)
    print(json.dumps({"growth_kib": status("VmHWM:") - base, "events": r.events,
                      "traces": r.complete + r.blocked + r.errors}))
    """
)


def _peak_growth(source: str, length: int, explorer: str) -> dict[str, int]:
    out = subprocess.run(
        [sys.executable, "-c", _WORKER, source, str(length), explorer],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


# Execution lengths: the growth at L is tens of MB (far above the noise of a Python process),
# and each run takes well under 2 s. naive keeps little per event: a longer execution.
_LENGTHS = {"naive": 100_000}
_EXPLORERS = [e["name"] for e in porlab.explorers()]


@pytest.mark.parametrize("explorer", _EXPLORERS)
def test_memory_is_linear_in_the_execution_length(explorer: str) -> None:
    length = _LENGTHS.get(explorer, 20_000)
    short = _peak_growth(CAS_LOOP, length, explorer)
    long = _peak_growth(CAS_LOOP, 2 * length, explorer)
    # the same program, explored whole: one blocked execution, cut at its length
    assert short["traces"] == long["traces"] == 1
    assert long["events"] >= 2 * length
    assert short["growth_kib"] > 1024, short  # something was measured
    assert long["growth_kib"] < 2.5 * short["growth_kib"], (short, long)


@pytest.mark.parametrize("explorer", _EXPLORERS)
@pytest.mark.parametrize(("source", "budget"), [(CAS_LOOP, 30_000), (FLAG_SPIN, 45_000)],
                         ids=["cas-loop", "flag-spin"])
def test_event_budget_ends_long_executions(explorer: str, source: str, budget: int) -> None:
    # Executions of 20,000 events; the budget runs out inside one (for the graph explorers,
    # inside the replay that reports the CAS loop's execution).
    program = load_c_source(source, max_execution_events=20_000, loops="none")
    r = porlab.explore(program, explorer, max_events=budget, collect_outcomes=False)
    if r.budget_exceeded:
        assert r.budget_reason == "events"
        assert r.events <= budget
    else:  # (explored whole below the budget: a single execution of 20,000 events)
        assert r.events <= budget and r.complete + r.blocked == 1
