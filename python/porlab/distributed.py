"""One exploration on a Dask cluster (issue 18): ``porlab.explore(p, "graph", client=client)``,
``porlab run prog.c --scheduler tcp://HOST:PORT``.

The graph engine's explorers (``graph``, ``rf-graph``, ``lapor``) explore a tree of subtrees
that are independent of each other; a subtree is a *task*: a graph prefix and its witness,
serialised to a few hundred bytes (``cpp/porlab/explore/graph/TaskCodec.hpp``). The driver
submits the root task; a worker explores a task for at most ``split_after`` seconds, then
returns every subtree it has not started as new tasks (and what it found: counts, block reasons,
error sites, the failing prefixes of its error traces). The driver submits those, merges the
results, and shows progress. Dask does the scheduling, the transport and the retries: when a
worker dies, the scheduler runs its task again elsewhere, and since a task's results are only
merged once it returned, nothing is lost or counted twice.

Workers load the program once per process (cached by its id): a C program is compiled again
from its source text and flags (the id is a hash of both; the worker also checks that its
compiled code hashes as the driver's), a builder program travels as its spec (bytes).

What is the same as one process: complete, blocked and error traces, blocked traces per reason,
the error sites (keyed by their thread's spawn path: the thread number shown is the first
reporting worker's). Error traces: each failing prefix is counted once over all tasks (a portable
hash). ``first_error`` is found again on the driver by exploring the task that met the first
error (with stop_on_error), so it is a trace of the driver's program. Outcomes: a C program
numbers threads, heap objects and locations in the order a process meets them, so a worker
writes its final states with stable names (threads by spawn path, heap objects by allocating
thread and allocation, locations by object and offset: ``_core.set_portable_outcomes``) and the
driver reads them back in its own numbering (``_core.local_outcome``): the outcomes are those of
one process. (Values are recognised as heap pointers by their encoding; a thread handle stored
in memory is the worker's thread number.) Budgets: each task
gets what is left of ``max_seconds`` / ``max_events`` / ``max_traces``; a budget met stops the
run (tasks running at that moment finish their share: ``max_traces`` can be exceeded by what
they found). Ctrl-C cancels the run and raises :class:`porlab.Interrupted` with the partial
counts.
"""

from __future__ import annotations

import collections
import contextlib
import hashlib
import os
import pickle
import time
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from porlab import _core
from porlab.errors import InputError

#: The explorers with a task form (their exploration splits into independent subtrees).
TASK_EXPLORERS = ("graph", "rf-graph", "lapor")
#: Subtrees per Dask task at most (run_tasks): Dask's round trip is paid once per batch.
DEFAULT_BATCH = 256
#: Seconds a Dask task explores before it hands its remaining subtrees back as new tasks; batches
#: are sized from the measured time per subtree to last about this long (see explore_on).
DEFAULT_SPLIT_AFTER = 1.0
#: Seconds the root task explores alone before it splits (the other workers wait for it).
ROOT_SPLIT_AFTER = 0.1


@dataclass(frozen=True)
class CSource:
    """A C program as a recipe a worker can compile again: the source text, its file name and
    :func:`porlab.load_c_source` keywords (defines, unroll, loops, ...)."""

    source: str
    file_name: str = "program.c"
    options: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def from_file(cls, path: str | os.PathLike[str], **options: Any) -> CSource:
        """The recipe of :func:`porlab.load_c` ``(path, **options)``."""
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            text = f.read()
        return cls(text, str(path), _freeze(options))

    def load(self) -> _core.ProgramBase:
        from porlab.cfront import load_c_source

        return load_c_source(self.source, file_name=self.file_name, **dict(self.options))


def _freeze(options: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    """Load options as a hashable, picklable tuple (defines as ``NAME=VALUE`` texts)."""
    defines = options.get("defines")
    if isinstance(defines, dict):
        options = {**options, "defines": [f"{k}={v}" for k, v in defines.items()]}

    def frozen(v: Any) -> Any:
        if isinstance(v, dict):
            return tuple(sorted((k, frozen(x)) for k, x in v.items()))
        if isinstance(v, list | tuple):
            return tuple(frozen(x) for x in v)
        return v

    return tuple(sorted((k, frozen(v)) for k, v in options.items() if v is not None))


@dataclass
class ProgramShip:
    """What a worker needs to load a program: its kind, its serialised form, and its id."""

    kind: str  # "c" or "builder"
    payload: bytes
    program_id: int
    code_hash: str  # hash of the driver's compiled code


_WORKER_PROGRAMS: dict[int, _core.ProgramBase] = {}


def _code_hash(core: _core.ProgramBase) -> str:
    """A hash of the code the program was compiled to (checked on the workers)."""
    text = core.disassemble() if hasattr(core, "disassemble") else _core.disassemble_c(core)
    return hashlib.sha256(str(text).encode()).hexdigest()


_SHIPPED: weakref.WeakKeyDictionary[Any, tuple[ProgramShip, _core.ProgramBase]] = (
    weakref.WeakKeyDictionary())


def ship(program: Any) -> tuple[ProgramShip, _core.ProgramBase]:
    """The shipped form of a program (a :class:`CSource`, a builder ``Program``, or a C program
    loaded with :func:`porlab.load_c` / :func:`porlab.load_c_source`), and its compiled form on
    the driver (made once per program object)."""
    try:
        return _SHIPPED[program]
    except (KeyError, TypeError):
        pass
    shipped = _ship(program)
    with contextlib.suppress(TypeError):  # (not weakly referenceable: not cached)
        _SHIPPED[program] = shipped
    return shipped


def load_on_workers(client: Any, program: Any) -> None:
    """Load the program on every worker of the cluster now (else each loads it at its first
    task: benchmarks time the exploration without that)."""
    s, _ = ship(program)
    client.run(_load_program, s)


def _load_program(s: ProgramShip) -> None:
    _worker_program(s)


def _ship(program: Any) -> tuple[ProgramShip, _core.ProgramBase]:
    from porlab.api import _compiled
    from porlab.builder import Program

    check = None  # the program as the workers compile it (its code is checked against theirs)
    if isinstance(program, CSource):
        core = check = program.load()
        payload = pickle.dumps(program)
        kind = "c"
    elif isinstance(program, Program):
        core = _compiled(program)  # (the spec is final once compiled)
        payload = bytes(_core.spec_bytes(program._spec))
        kind = "builder"
    else:
        from porlab.cfront import c_recipe

        recipe = c_recipe(program)
        if recipe is None:
            raise InputError("client=: the program must be a porlab.distributed.CSource, a "
                             "builder Program, or a C program loaded with porlab.load_c / "
                             "load_c_source (workers compile it again from its source)")
        core = program
        check = recipe.load()  # (load_c and load_c_source lay out string constants apart)
        payload = pickle.dumps(recipe)
        kind = "c"
    digest = hashlib.sha256(kind.encode() + b"\0" + payload).digest()
    pid = int.from_bytes(digest[:8], "little") >> 1  # (fits a signed 64-bit varint too)
    return ProgramShip(kind, payload, pid, _code_hash(check or core)), core


def _worker_program(s: ProgramShip) -> _core.ProgramBase:
    """The program of `s` in this process, loaded once."""
    prog = _WORKER_PROGRAMS.get(s.program_id)
    if prog is not None:
        return prog
    digest = hashlib.sha256(s.kind.encode() + b"\0" + s.payload).digest()
    if int.from_bytes(digest[:8], "little") >> 1 != s.program_id:
        raise InputError("distributed: the program shipped does not match its id")
    if s.kind == "c":
        prog = pickle.loads(s.payload).load()  # (the driver's own data)
        _core.set_portable_outcomes(prog, True)  # (read back by the driver: local_outcome)
    else:
        prog = _core.BytecodeProgram(_core.spec_from_bytes(s.payload))
    if _code_hash(prog) != s.code_hash:
        raise InputError("distributed: the worker compiled the program to other code than the "
                         "driver (another porlab or clang version?)")
    _WORKER_PROGRAMS[s.program_id] = prog
    return prog


def run_tasks(s: ProgramShip, explorer: str, tasks: list[bytes], split_after: float,
              options: dict[str, Any], hook: Callable[[bytes], None] | None = None
              ) -> dict[str, Any]:
    """Explore a batch of tasks on this worker, one after the other, with one explorer (one Dask
    task: Dask's round trip, ~0.1-0.3 s on a loaded machine, is paid once per batch, and the
    explorer is made once per batch, not per subtree). What they found, merged, as plain data,
    and the tasks they split off. The batch as a whole explores for at most ``split_after``
    seconds (< 0: every task splits at once): the tasks not started by then are handed back as
    they are. The budgets in ``options`` are the batch's."""
    prog = _worker_program(s)
    cpu0 = time.process_time()
    t0 = time.perf_counter()
    if hook is not None:
        for task in tasks:
            hook(task)
    r, new, failures = _core.run_task(prog, explorer, tasks, s.program_id,
                                      split_after=split_after, **options)
    explored = int(r.stats["task_explored"])
    first_error = int(r.stats["task_first_error"])
    paths = _site_paths(r)
    out: dict[str, Any] = {
        "complete": r.complete, "blocked": r.blocked, "errors": r.errors, "events": r.events,
        "failures": [tuple(f) for f in failures], "blocked_by": dict(r.blocked_by),
        "block_sites": [tuple(b) for b in r.block_sites],
        "error_sites": [(tuple(e), paths.get(tuple(e), (tuple(e[:1]),)) + tuple(e[1:]))
                        for e in r.error_sites],
        "outcomes": [tuple(o) for o in r.outcomes], "incomplete": list(r.incomplete),
        "budget_reason": r.budget_reason, "tasks": list(new),
        "task_bytes": sum(len(t) for t in tasks[:explored]), "explored": explored,
        "error_task": tasks[first_error] if first_error >= 0 else None}
    out["seconds"] = time.perf_counter() - t0
    out["cpu"] = time.process_time() - cpu0
    out["pid"] = os.getpid()
    return out


def _spawn_path(trace: Any, thread: int) -> tuple[int, ...]:
    """A thread named by how it was spawned: its root thread (main, or a builder program's
    thread started with the program), then the ordinal of each spawn among its parent's spawns.
    The same in every process, where thread numbers are not (a C program numbers threads in the
    order a process first meets them). `trace` must hold the thread's spawn chain with its
    parents' earlier events (an error trace does: it is the causal past of the error)."""
    parent: dict[int, tuple[int, int]] = {}
    spawns: dict[int, int] = {}
    for ev in trace.events:
        if str(ev.kind) == "spawn" and ev.aux >= 0:
            n = spawns.get(ev.thread, 0)
            spawns[ev.thread] = n + 1
            parent[ev.aux] = (ev.thread, n)
    path: list[int] = []
    t = thread
    while t in parent and len(path) <= len(parent):
        t, n = parent[t]
        path.append(n)
    return (t, *reversed(path))


def _site_paths(r: Any) -> dict[tuple[Any, ...], tuple[Any, ...]]:
    """Per error site of a result (thread, kind, code, file, line): its thread's spawn path,
    taken from the site's first error trace."""
    out: dict[tuple[Any, ...], tuple[Any, ...]] = {}
    for e in r.errors_by_site:
        site = (e.thread, e.kind, e.code, e.file, e.line)
        out[site] = (_spawn_path(e.trace, e.thread),)
    return out


def merge_error_sites(into: dict[tuple[Any, ...], tuple[Any, ...]],
                      reported: Iterable[tuple[tuple[Any, ...], tuple[Any, ...]]]) -> None:
    """Merge error sites reported by workers as (site, key): a site is one per key (its thread
    named by spawn path); the first report gives the thread number shown. Without the key, a
    C program whose threads spawn threads listed a site once per numbering of its thread."""
    for site, key in reported:
        into.setdefault(tuple(key), tuple(site))


@dataclass
class _Merged:
    """The merged result, shaped as the core's Result (porlab.Result wraps it)."""

    explorer: str
    complete: int = 0
    blocked: int = 0
    errors: int = 0
    events: int = 0
    seconds: float = 0.0
    peak_memory_bytes: int = 0
    budget_exceeded: bool = False
    budget_reason: str = ""
    first_error: Any = None
    traces: list[Any] = field(default_factory=list)
    outcomes: set[tuple[int, ...]] = field(default_factory=set)
    error_sites: list[tuple[Any, ...]] = field(default_factory=list)
    errors_by_site: list[Any] = field(default_factory=list)
    stats: dict[str, float] = field(default_factory=dict)
    incomplete: list[str] = field(default_factory=list)
    blocked_by: dict[str, int] = field(default_factory=dict)
    block_sites: list[tuple[Any, ...]] = field(default_factory=list)


def _n_workers(client: Any) -> int:
    try:
        return len(client.scheduler_info()["workers"])
    except (KeyError, TypeError, AttributeError):
        return 1


def _parallel_explorers() -> Iterable[str]:
    names = {e["name"] for e in _core.explorers()}
    return [n for n in TASK_EXPLORERS if n in names]


def explore_on(client: Any, program: Any, explorer: str, *, max_traces: int = 0,
               max_seconds: float = 0.0, max_events: int = 0, max_memory: int = 0,
               stop_on_error: bool = False, collect_outcomes: bool = True,
               check_races: bool = True, check_liveness: bool = False,
               progress: Callable[[int, int, int, int, float], None] | None = None,
               split_after: float | None = None, params: dict[str, str] | None = None,
               hook: Callable[[bytes], None] | None = None, batch: int = DEFAULT_BATCH,
               poll: Callable[[], bool] | None = None) -> Any:
    """Explore ``program`` with ``explorer`` on the Dask cluster of ``client`` (a
    ``dask.distributed.Client``); see the module docstring. Returns a :class:`porlab.Result`
    (raises :class:`porlab.Interrupted` on Ctrl-C). ``hook(task)`` is called on the worker
    before each task (tests use it to kill a worker). ``batch``: at most this many subtrees per
    Dask task (1: one each). ``poll()`` is called after each batch merged; True stops the run as
    Ctrl-C does (raises :class:`porlab.Interrupted` with the partial counts).

    ``split_after`` (seconds a Dask task explores before it hands back what it has not started;
    < 0: at once, for tests) fixes the pacing; by default it is adaptive, so that Dask's round
    trip (50-200 ms per task on a loaded machine) is small against the work of a task: the root
    splits after ``ROOT_SPLIT_AFTER`` (the other workers wait for it), a batch holds as many
    subtrees as take about ``DEFAULT_SPLIT_AFTER`` seconds at the mean time per subtree measured
    so far (at most ``batch``, and at most its share of the queue, so that every worker has
    work), and explores for at most that long; a batch that empties the queue while no more
    batches than workers are in flight splits after a quarter of it (the tail: a worker has
    nothing queued and waits for its subtrees)."""
    from dask.distributed import as_completed

    from porlab.api import Result

    if explorer not in _parallel_explorers():
        raise InputError(f"explorer '{explorer}': client=/--scheduler is supported by "
                         f"{', '.join(TASK_EXPLORERS)} (the explorers whose exploration splits "
                         "into independent tasks; see docs/parallel.md)")
    if batch < 1:
        raise InputError("batch must be at least 1")
    if split_after == 0:  # (< 0: split at once, every task; tests use it)
        raise InputError("split_after must not be 0 (tasks would never split)")
    adaptive = split_after is None
    target = DEFAULT_SPLIT_AFTER if split_after is None else split_after
    s, core = ship(program)
    start = time.perf_counter()
    m = _Merged(explorer=explorer)
    failures: set[tuple[int, int]] = set()
    other_errors = 0
    first_error_task: bytes | None = None
    sites: dict[tuple[Any, ...], tuple[Any, ...]] = {}  # by spawn-path key
    blocks: dict[tuple[Any, ...], int] = {}
    incomplete: set[str] = set()
    reason = ""
    n_tasks = 0
    n_batches = 0
    task_bytes = 0
    cpu_by_pid: dict[int, float] = {}
    task_seconds: list[float] = []

    def options() -> dict[str, Any]:
        left_s = max(max_seconds - (time.perf_counter() - start), 1e-3) if max_seconds else 0.0
        left_e = max(max_events - m.events, 1) if max_events else 0
        left_t = max(max_traces - (m.complete + m.blocked + m.errors), 1) if max_traces else 0
        return {"max_seconds": left_s, "max_events": left_e, "max_traces": left_t,
                "max_memory": max_memory, "stop_on_error": stop_on_error,
                "collect_outcomes": collect_outcomes, "params": dict(params or {}),
                "check_races": check_races, "check_liveness": check_liveness}

    # Subtrees wait in a queue and go out in batches (run_tasks), at most `slots` batches at a
    # time: a batch holds its share of the queue (up to `batch`), so that a worker's time goes
    # to exploring rather than to Dask's round trip, while every worker still has work.
    workers = _n_workers(client)
    slots = max(2, 2 * workers)
    queue: collections.deque[tuple[bytes, int]] = collections.deque()
    pending: dict[Any, int] = {}  # future -> batch id

    # Measured: explored subtrees and the seconds they took (adaptive batch sizes).
    measured = [0, 0.0]

    def submit_batches() -> None:
        while queue and len(pending) < slots:
            size = max(1, min(batch, -(-len(queue) // (slots - len(pending)))))
            split = target
            if adaptive:
                if measured[0]:
                    per = max(measured[1] / measured[0], 1e-5)
                    size = max(1, min(size, round(target / per)))
                if queue[0][1] < 0:
                    split = ROOT_SPLIT_AFTER
                elif size >= len(queue) and len(pending) + 1 <= workers:
                    split = target / 4  # (the tail: a worker has nothing queued)
            parts = [queue.popleft() for _ in range(min(size, len(queue)))]
            bid = len(parents)
            parents[bid] = parts[0][1]
            f = client.submit(run_tasks, s, explorer, [t for t, _ in parts], split,
                              options(), hook, pure=False)
            pending[f] = bid
            futures.add(f)

    # (batch, parent batch, seconds, CPU seconds): the shape of the run (benchmarks replay it);
    # a batch's parent is the batch that split off its first task.
    tree: list[tuple[int, int, float, float]] = []
    parents: dict[int, int] = {}
    futures = as_completed([])
    queue.append((_core.root_task(s.program_id, explorer), -1))
    submit_batches()
    interrupted = False
    try:
        for fut in futures:
            d = fut.result()
            done_id = pending.pop(fut)
            tree.append((done_id, parents[done_id], d["seconds"], d["cpu"]))
            n_tasks += d["explored"]
            if not d["tasks"]:  # (a batch that split ran for its bound: not a subtree's time)
                measured[0] += d["explored"]
                measured[1] += d["seconds"]
            n_batches += 1
            task_bytes += d["task_bytes"]
            task_seconds.append(d["seconds"])
            cpu_by_pid[d["pid"]] = cpu_by_pid.get(d["pid"], 0.0) + d["cpu"]
            m.complete += d["complete"]
            m.blocked += d["blocked"]
            m.events += d["events"]
            other_errors += d["errors"] - len(d["failures"])
            new = set(d["failures"]) - failures
            failures |= new
            if d["error_task"] is not None and first_error_task is None:
                first_error_task = d["error_task"]
            m.errors = other_errors + len(failures)
            for k, v in d["blocked_by"].items():
                m.blocked_by[k] = m.blocked_by.get(k, 0) + v
            for r, f, ln, n in d["block_sites"]:
                blocks[(r, f, ln)] = blocks.get((r, f, ln), 0) + n
            merge_error_sites(sites, d["error_sites"])
            if s.kind == "c":  # (stable names: in the driver's numbering)
                m.outcomes.update(_core.local_outcome(core, o) for o in d["outcomes"])
            else:
                m.outcomes.update(d["outcomes"])
            incomplete.update(x for x in d["incomplete"] if x not in _BUDGETS)
            if d["budget_reason"] and not reason:
                reason = d["budget_reason"]
            if progress is not None:
                progress(m.complete, m.blocked, m.errors, m.events, time.perf_counter() - start)
            if poll is not None and poll():
                raise KeyboardInterrupt  # (as Ctrl-C: the same path)
            stop = reason or (stop_on_error and m.errors) or (
                max_traces and m.complete + m.blocked + m.errors >= max_traces)
            if stop:
                if not reason:
                    reason = "traces" if max_traces and not (stop_on_error and m.errors) else ""
                break
            queue.extend((t, done_id) for t in d["tasks"])
            submit_batches()
    except KeyboardInterrupt:
        interrupted = True
        reason = "interrupted"
    finally:
        if pending:
            client.cancel(list(pending))
    m.error_sites = sorted(sites.values())
    m.block_sites = sorted((r, f, ln, n) for (r, f, ln), n in blocks.items())
    if reason in _BUDGETS:
        m.budget_exceeded = True
        m.budget_reason = reason
        incomplete.add(reason)
    m.incomplete = sorted(incomplete)
    if first_error_task is not None and not interrupted:
        _find_first_error(m, core, s, explorer, first_error_task, options())
    m.seconds = time.perf_counter() - start
    m.peak_memory_bytes = int(_core.resident_bytes())
    cpus = sorted(cpu_by_pid.values())
    m.stats.update({
        "distributed_tasks": float(n_tasks),
        "distributed_batches": float(n_batches),
        "distributed_task_bytes": float(task_bytes),
        "distributed_workers_used": float(len(cpu_by_pid)),
        "distributed_worker_cpu_max_s": cpus[-1] if cpus else 0.0,
        "distributed_worker_cpu_sum_s": sum(cpus),
        "distributed_task_seconds_max": max(task_seconds, default=0.0),
    })
    result = Result(m, core)  # type: ignore[arg-type]
    result.task_tree = tree  # type: ignore[attr-defined]
    if interrupted:
        from porlab.errors import Interrupted

        raise Interrupted(result)
    return result


_BUDGETS = ("traces", "seconds", "events", "memory", "interrupted")


def _find_first_error(m: _Merged, core: _core.ProgramBase, s: ProgramShip, explorer: str,
                      task: bytes, options: dict[str, Any]) -> None:
    """The first error trace, found again on the driver: the task that met an error, explored
    here until its first error (a trace of the driver's program, shown as one run shows it)."""
    opts = {**options, "stop_on_error": True, "max_traces": 0}
    r, _, _ = _core.run_task(core, explorer, task, s.program_id, split_after=0.0, **opts)
    m.first_error = r.first_error
    m.errors_by_site = list(r.errors_by_site)
