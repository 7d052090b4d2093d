"""The child process of :mod:`porlab.bench`: one exploration, isolated.

Usage: ``python -m porlab._bench_worker RESULT.json`` with the run's specification as JSON on
stdin (``path``, ``kind``, ``params``, ``explorer``, ``ifaa``, ``options``, ``max_traces``,
``max_seconds``, ``memory_mib``, ``timeout``). The worker limits its own address space
(``RLIMIT_AS`` = ``memory_mib`` MiB on top of the address space of the loaded interpreter, set
once Python and porlab are loaded, as ``-m`` imports the package first; growing beyond it
fails), loads the program, explores it and writes ``{"status": ..., "message": ...,
counts...}`` to RESULT.json; its peak memory is the worker's peak resident set (VmHWM),
Python included (about 20 MiB). The parent
(:func:`porlab.bench.execute_run`) enforces the wall-clock timeout by killing the process group
and classifies a worker that dies without writing a result (signal, abort) as a crash.

Statuses written here: ``ok``, ``budget`` (a budget cut the run short: partial counts),
``memory`` (MemoryError: the limit was hit), ``error`` (bad input: the program file or the
explorer name is wrong), ``crash`` (any other exception).
"""

from __future__ import annotations

import json
import math
import os
import resource
import sys
import threading
import time
import traceback
from typing import Any


def _peak_rss() -> int:
    """This process's peak resident set (VmHWM), in bytes; 0 when /proc is missing.

    Not ru_maxrss: Linux carries ru_maxrss over exec from the parent, so a small worker of a
    big parent (pytest, a Dask worker) would report the parent's peak."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def _vm_size() -> int:
    """Current address-space size of this process in bytes (0 if unknown)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def _limit_memory(mib: int) -> None:
    # The budget comes on top of the loaded interpreter: importing porlab maps LLVM and clang
    # (~280 MiB of address space), which is not the run's memory.
    if mib > 0:
        limit = _vm_size() + mib * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _backstops(timeout: float) -> None:
    """Make sure an orphaned worker ends: the parent kills the worker on timeout, but if the
    parent itself dies (SIGKILL, a lost Dask worker), the worker's own session keeps it alive.
    So: a CPU-time limit a little above the timeout (SIGXCPU ends the process), and a thread
    that exits when the worker is reparented (exploration releases the GIL, so it runs)."""
    if timeout > 0:
        cpu = math.ceil(timeout * 1.5) + 5
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 5))
    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != parent:
                os._exit(3)

    threading.Thread(target=watch, name="porlab-orphan-watch", daemon=True).start()


# Parameters of a C program that are options of explore, not macros: check_races = false for
# programs whose plain accesses race on purpose (their builder versions have atomics only).
_EXPLORE_PARAMS = {"check_races"}


def _load(spec: dict[str, Any]) -> Any:
    """Load the program named by ``spec`` with its loader for ``spec["kind"]``."""
    import porlab
    from porlab.errors import UnsupportedError

    kind = spec.get("kind", "python")
    path, params = spec["path"], spec.get("params") or {}
    if kind == "python":
        return porlab.load_program(path, **params)
    if kind == "c":
        # Parameters are -D macros, except load_c's own options (unroll, max_threads, ...).
        import inspect

        own = set(inspect.signature(porlab.load_c).parameters) - {"path", "defines"}
        opts = {k: v for k, v in params.items() if k in own}
        defines = {k: v for k, v in params.items() if k not in own and k not in _EXPLORE_PARAMS}
        return porlab.load_c(path, defines=defines, **opts)
    raise UnsupportedError(f"{path}: unknown program kind {kind!r} (python or c)")


def run(spec: dict[str, Any]) -> dict[str, Any]:
    """Run one exploration described by ``spec``; problems of the run become statuses."""
    from porlab.api import explore
    from porlab.errors import InputError, UnsupportedError

    try:
        if spec.get("plugin"):
            from porlab.plugins import load_plugin

            load_plugin(str(spec["plugin"]))
        program = _load(spec)
        r = explore(
            program,
            spec["explorer"],
            max_traces=int(spec.get("max_traces") or 0),
            max_seconds=float(spec.get("max_seconds") or 0.0),
            # porlab's own memory budget below the worker's hard limit: a clean end with the
            # partial counts (status "budget") rather than a MemoryError
            max_memory=int(int(spec.get("memory_mib") or 0) * 2**20 * 0.9),
            collect_outcomes=False,
            ifaa=bool(spec.get("ifaa", False)),
            **{k: v for k, v in (spec.get("params") or {}).items()
               if spec.get("kind") == "c" and k in _EXPLORE_PARAMS},
            **(spec.get("options") or {}),
        )
    except MemoryError:
        return {"status": "memory", "message": "MemoryError (memory limit reached)"}
    except (InputError, UnsupportedError) as e:
        # load_program reports any exception of the user's file as InputError, even a
        # MemoryError raised under the limit while building the program.
        status = "memory" if "MemoryError" in str(e) else "error"
        return {"status": status, "message": str(e)[-4000:]}
    except Exception as e:
        return {"status": "crash",
                "message": f"{type(e).__name__}: {e}\n{traceback.format_exc()}"[-4000:]}
    status = "budget" if r.budget_exceeded else "incomplete" if r.incomplete else "ok"
    return {
        "status": status,
        "message": f"incomplete ({', '.join(r.incomplete)})" if r.incomplete else "",
        "incomplete": list(r.incomplete),
        "blocked_by": dict(r.blocked_by),
        "program_name": program.name,
        "complete": r.complete,
        "blocked": r.blocked,
        "errors": r.errors,
        "events": r.events,
        "seconds": r.seconds,
        "peak_memory_bytes": _peak_rss() or r.peak_memory_bytes,
        "stats": dict(r.stats),
    }


def main(argv: list[str] | None = None) -> int:
    """Entry point: read the spec from stdin, write the result file named in ``argv``."""
    argv = sys.argv[1:] if argv is None else argv
    out = argv[0]
    spec = json.loads(sys.stdin.read())
    _backstops(float(spec.get("timeout") or 0))  # first: its thread's stack counts in RLIMIT_AS
    _limit_memory(int(spec.get("memory_mib") or 0))
    result = run(spec)
    tmp = out + ".tmp"
    with open(tmp, "w") as f:
        json.dump(result, f)
    os.replace(tmp, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
