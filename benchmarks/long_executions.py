"""Benchmark: time and memory per event on long executions, for every explorer.

Short executions run at millions of events per second; a long one must not be slower per event
(nothing quadratic in the execution length) nor take memory quadratic in it. Programs (C, loops
left as written, `loops="none"`), each cut at L events per execution (`max_execution_events`):

* ``cas``: one thread in an endless failing CAS loop that counts its iterations (so that it
  is not a livelock): one execution of L events (every explorer
  explores it whole);
* ``spin``: main spins on an atomic flag that a second thread sets; the exploration has L+1
  executions of up to L events, so it is limited to ``--budget`` x L events executed
  (``max_events``), which covers the long first execution and the first revisits;
* ``lock-spin``: the same with a mutex around the flag (locks in a long execution), limited
  the same way.

Each (program, explorer, L) runs in its own process; the line printed gives events, seconds,
events/s, the process's peak RSS and its growth above the level after loading the program (the
peak is reset there; MiB). A run that takes longer than ``--timeout`` seconds, or needs more
memory than ``--max-memory-mib``, is printed as such (and longer ones are skipped). Nothing is
asserted: this measures. Run:
`python benchmarks/long_executions.py [--lengths 10000,50000,100000] [--explorers graph,rf]`.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys

PROGRAMS = {
    "cas": r"""
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
""",
    "lock-spin": r"""
#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int flag;
void *setter(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    flag = 1;
    pthread_mutex_unlock(&m);
    return 0;
}
int main(void) {
    pthread_t t;
    pthread_create(&t, 0, setter, 0);
    for (;;) {
        pthread_mutex_lock(&m);
        int f = flag;
        pthread_mutex_unlock(&m);
        if (f) break;
    }
    pthread_join(t, 0);
    return 0;
}
""",
    "spin": r"""
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
""",
}

WORKER = r"""
import json, resource, sys
import porlab
from porlab.cfront import load_c_source

def hwm_kib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0

def vm_kib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmSize:"):
                return int(line.split()[1])
    return 0

source, length, explorer, budget = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
limit_mib = int(sys.argv[5])
prog = load_c_source(source, max_execution_events=length, loops="none")
with open("/proc/self/clear_refs", "w") as f:
    f.write("5")  # the peak resident set starts again from here (not from the C compiler's)
base = hwm_kib()
if limit_mib:  # address space: what the process has mapped now, plus the limit
    cap = (vm_kib() + limit_mib * 1024) * 1024
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
r = porlab.explore(prog, explorer, max_events=budget, collect_outcomes=False)
print(json.dumps({"events": r.events, "seconds": r.seconds, "complete": r.complete,
                  "blocked": r.blocked, "errors": r.errors, "budget_exceeded": r.budget_exceeded,
                  "peak_kib": hwm_kib(), "base_kib": base}))
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lengths", default="10000,50000,100000")
    ap.add_argument("--programs", default=",".join(PROGRAMS))
    ap.add_argument("--explorers", default="", help="comma-separated (default: all)")
    ap.add_argument("--budget", type=int, default=4, help="spin: events executed, in units of L")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per run")
    ap.add_argument("--max-memory-mib", type=int, default=4096,
                    help="address space a run may add after loading (0: no limit)")
    args = ap.parse_args()
    if args.explorers:
        names = args.explorers.split(",")
    else:
        import porlab

        names = [e["name"] for e in porlab.explorers()]
    lengths = [int(x) for x in args.lengths.split(",")]
    for prog in args.programs.split(","):
        for explorer in names:
            for length in lengths:
                budget = 0 if prog == "cas" else args.budget * length
                row: dict[str, object] = {"program": prog, "explorer": explorer,
                                          "length": length, "max_events": budget}
                try:
                    out = subprocess.run(
                        [sys.executable, "-c", WORKER, PROGRAMS[prog], str(length), explorer,
                         str(budget), str(args.max_memory_mib)],
                        capture_output=True, text=True, timeout=args.timeout, check=False)
                except subprocess.TimeoutExpired:
                    row["timeout_seconds"] = args.timeout
                    print(json.dumps(row), flush=True)
                    break  # longer executions of this explorer would time out too
                if out.returncode != 0:
                    row["error"] = (out.stderr.strip().splitlines() or ["?"])[-1]
                    print(json.dumps(row), flush=True)
                    break  # longer executions would fail too
                r = json.loads(out.stdout.strip().splitlines()[-1])
                secs = r["seconds"]
                row.update({
                    "events": r["events"], "seconds": round(secs, 3),
                    "events_per_second": round(r["events"] / secs) if secs else None,
                    "traces": r["complete"] + r["blocked"] + r["errors"],
                    "peak_rss_mib": round(r["peak_kib"] / 1024, 1),
                    "rss_growth_mib": round((r["peak_kib"] - r["base_kib"]) / 1024, 1),
                    "machine": platform.machine(), "cpus": os.cpu_count(),
                })
                print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
