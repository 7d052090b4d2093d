"""One exploration on a Dask cluster (issue 18): ``porlab.explore(p, "graph", client=client)``,
``porlab run prog.c --scheduler tcp://HOST:PORT``.

The graph engine's explorers (``graph``, ``rf-graph``, ``lapor``) explore a tree of subtrees
that are independent of each other; a subtree is a *task*: a graph prefix and its witness,
serialised to a few hundred bytes (``cpp/porlab/explore/graph/TaskCodec.hpp``). The driver
submits the root task. While workers would be idle, the driver says how many subtrees it wants
(a Dask ``Variable``); a running task then splits off its *shallowest* pending subtrees (the
largest), ships them at once (a Dask ``Queue``; the driver submits each as a task) and goes on
with the rest, so that no worker explores a long chain of nested subtrees alone. A task also
explores for at most ``split_after`` seconds, then returns every subtree it has not started (a
bound on the work a dead worker loses and on the time between two merges). A task returns what
it found (counts, block reasons, error sites, the failing prefixes of its error traces) and
every subtree it handed over or left. The driver merges the results and shows progress.

Dask does the scheduling, the transport and the retries: when a worker dies, the scheduler runs
its task again elsewhere. A task's result is the complete record of its part of the tree, and is
merged only once it returned: a subtree a task handed out while running is *provisional* until
that run of the task returned (each run has its own id); the subtrees handed out by a run that
died are cancelled and their results, and their descendants', dropped, so nothing is lost or
counted twice.

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
import threading
import time
import uuid
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
DEFAULT_SPLIT_AFTER = 2.0
#: Seconds between two looks of a running task at what the driver wants (run_tasks).
WANT_POLL = 0.1


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
    text = _core.disassemble_code(core)  # (C and builder programs alike)
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
        prog = _core.lower_spec(_core.spec_from_bytes(s.payload))  # (the builder's spec)
    if _code_hash(prog) != s.code_hash:
        raise InputError("distributed: the worker compiled the program to other code than the "
                         "driver (another porlab or clang version?)")
    _WORKER_PROGRAMS[s.program_id] = prog
    return prog


def run_tasks(s: ProgramShip, explorer: str, tasks: list[bytes], split_after: float,
              options: dict[str, Any], hook: Callable[[bytes], None] | None = None,
              run: str = "", bid: int = -1, sticky_want: int = 0,
              after_hand_out: Callable[[], None] | None = None) -> dict[str, Any]:
    """Explore a batch of tasks on this worker, one after the other, with one explorer (one Dask
    task: Dask's round trip, ~0.1-0.3 s on a loaded machine, is paid once per batch, and the
    explorer is made once per batch, not per subtree). What they found, merged, as plain data,
    and the tasks they split off. The batch as a whole explores for at most ``split_after``
    seconds (< 0: every task splits at once): the tasks not started by then are handed back as
    they are. The budgets in ``options`` are the batch's.

    ``run`` (the driver's run id): while the batch runs, a thread looks every ``WANT_POLL``
    seconds at how many subtrees the driver wants (the Variable ``run + "-want"``), has the
    running task split off that many of its shallowest pending subtrees (``_core.TaskChannel``),
    and puts them on the Queue ``run + "-handouts"`` as ``(bid, attempt, [(seq, cpu, task)])``:
    ``attempt`` names this run of the batch (Dask may run it again elsewhere if this worker
    dies), ``seq`` is the subtree's index in the ``tasks`` returned (every hand-out is also
    there). ``sticky_want`` (tests): every subtree started splits at once and hands out that
    many; ``after_hand_out`` (tests) is called after each put."""
    prog = _worker_program(s)
    cpu0 = time.process_time()
    t0 = time.perf_counter()
    if hook is not None:
        for task in tasks:
            hook(task)
    attempt = uuid.uuid4().hex
    channel = _core.TaskChannel() if run else None
    watcher: threading.Thread | None = None
    stop = threading.Event()
    handed = [0]
    if channel is not None:
        from dask.distributed import Queue, Variable, get_client

        client = get_client()
        out_q = Queue(run + "-handouts", client=client)
        want_v = None if sticky_want else Variable(run + "-want", client=client)
        if sticky_want:
            channel.want(sticky_want, True)

        def forward() -> None:
            items = channel.drain()
            if items:
                out_q.put((bid, attempt, [(int(q), float(c), bytes(t)) for q, c, t in items]))
                handed[0] += len(items)
                if after_hand_out is not None:
                    after_hand_out()

        def watch() -> None:
            while not stop.wait(WANT_POLL):
                if want_v is not None:
                    with contextlib.suppress(Exception):  # (the driver's variable is gone)
                        channel.want(int(want_v.get(timeout=1)))
                forward()

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
    try:
        r, new, failures = _core.run_task(prog, explorer, tasks, s.program_id,
                                          split_after=split_after, channel=channel, **options)
    finally:
        stop.set()
        if watcher is not None:
            watcher.join()
    if channel is not None:
        forward()  # (every hand-out is on the queue before the result exists)
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
        "task_bytes": sum(len(t) for t in tasks), "explored": explored,
        "pieces": int(r.stats.get("task_pieces", 0)), "handed_out": handed[0],
        "attempt": attempt,
        "error_task": tasks[first_error] if first_error >= 0 else None}
    out["seconds"] = time.perf_counter() - t0
    out["cpu"] = time.process_time() - cpu0
    out["thread_cpu"] = float(r.stats.get("task_thread_cpu_s", 0.0))
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


@dataclass
class _Batch:
    """A Dask task of a run: its subtrees' origin, and its result until it is merged."""

    bid: int
    parent: int  # the batch whose subtrees these are (-1: the root)
    attempt: str | None  # handed out by this run of the parent while it ran; None: returned
    offset: float  # (handed out) the parent's CPU seconds then; the shape of the run
    future: Any = None
    result: dict[str, Any] | None = None
    merged: bool = False
    dead: bool = False
    children: list[int] = field(default_factory=list)
    early: dict[str, dict[int, int]] = field(default_factory=dict)  # attempt -> seq -> child


def explore_on(client: Any, program: Any, explorer: str, *, max_traces: int = 0,
               max_seconds: float = 0.0, max_events: int = 0, max_memory: int = 0,
               stop_on_error: bool = False, collect_outcomes: bool = True,
               check_races: bool = True, check_liveness: bool = False,
               progress: Callable[[int, int, int, int, float], None] | None = None,
               split_after: float | None = None, params: dict[str, str] | None = None,
               hook: Callable[[bytes], None] | None = None, batch: int = DEFAULT_BATCH,
               poll: Callable[[], bool] | None = None, hand_out: bool | None = None,
               sticky_want: int = 0, after_hand_out: Callable[[], None] | None = None,
               workers: int | None = None) -> Any:
    """Explore ``program`` with ``explorer`` on the Dask cluster of ``client`` (a
    ``dask.distributed.Client``); see the module docstring. Returns a :class:`porlab.Result`
    (raises :class:`porlab.Interrupted` on Ctrl-C). ``hook(task)`` is called on the worker
    before each task (tests use it to kill a worker). ``batch``: at most this many subtrees per
    Dask task (1: one each). ``poll()`` is called after each batch merged; True stops the run as
    Ctrl-C does (raises :class:`porlab.Interrupted` with the partial counts).

    Pacing: while fewer Dask tasks than ``2 * workers`` are in flight and no subtree is queued,
    the driver wants subtrees, and running tasks hand out their shallowest pending ones
    (``hand_out``; default: on, unless ``split_after`` < 0). Every Dask task explores for at most
    ``split_after`` seconds (default ``DEFAULT_SPLIT_AFTER``; < 0: every task splits at once, for
    tests) and returns what it has not started; those wait in the driver's queue and go out in
    batches of as many subtrees as take about ``split_after`` at the mean time per subtree
    measured so far (at most ``batch``, and at most their share of the queue). ``workers``: plan
    for this many workers instead of the cluster's (benchmarks: the task tree a larger cluster
    would make). ``sticky_want`` and ``after_hand_out``: tests (see :func:`run_tasks`)."""
    from dask.distributed import Queue, Variable, as_completed

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
    if hand_out is None:
        hand_out = target > 0 or sticky_want > 0
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
    counts = collections.Counter[str]()
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

    n_workers = workers or _n_workers(client)
    slots = max(2, 2 * n_workers)
    run = f"porlab-{uuid.uuid4().hex}" if hand_out else ""
    handouts = Queue(run + "-handouts", client=client) if run else None
    want_var = Variable(run + "-want", client=client) if run and not sticky_want else None
    wanted = 0
    if want_var is not None:
        want_var.set(0)
    queue: collections.deque[tuple[bytes, int]] = collections.deque()  # (subtree, its batch)
    batches: dict[int, _Batch] = {}
    pending: dict[Any, int] = {}  # future -> batch id
    futures = as_completed([])
    measured = [0, 0.0]  # subtrees explored by batches that did not split, and their seconds

    def submit(parts: list[bytes], b: _Batch, split: float) -> None:
        batches[b.bid] = b
        if b.parent >= 0:
            batches[b.parent].children.append(b.bid)
        b.future = client.submit(run_tasks, s, explorer, parts, split, options(), hook, run,
                                 b.bid, sticky_want, after_hand_out, pure=False)
        pending[b.future] = b.bid
        futures.add(b.future)

    def submit_batches() -> None:
        while queue and len(pending) < slots:
            parent = queue[0][1]
            if parent >= 0 and batches[parent].dead:
                queue.popleft()
                continue
            size = max(1, min(batch, -(-len(queue) // (slots - len(pending)))))
            if adaptive and measured[0]:
                per = max(measured[1] / measured[0], 1e-5)
                size = max(1, min(size, round(target / per)))
            parts: list[bytes] = []
            while queue and len(parts) < size and queue[0][1] == parent:  # (one parent each)
                parts.append(queue.popleft()[0])
            submit(parts, _Batch(len(batches), parent, None, 0.0), target)

    def kill(bid: int) -> None:
        """A batch handed out by a run of its parent that died: it and its descendants go."""
        b = batches[bid]
        if b.dead:
            return
        b.dead = True
        counts["discarded"] += 1
        if b.future is not None and b.future in pending:
            del pending[b.future]
            client.cancel([b.future])
        for c in b.children:
            kill(c)

    # (batch, parent batch, seconds, CPU seconds, offset): the shape of the run (benchmarks
    # replay it); offset: the parent's CPU seconds when it handed the batch out, -1 if the
    # batch's subtrees came with the parent's result.
    tree: list[tuple[int, int, float, float, float]] = []

    def merge(b: _Batch) -> None:
        nonlocal other_errors, first_error_task, reason
        d = b.result
        assert d is not None
        b.merged = True
        tree.append((b.bid, b.parent, d["seconds"], d["thread_cpu"] or d["cpu"],
                     b.offset if b.attempt is not None else -1.0))
        counts["tasks"] += d["explored"]
        counts["pieces"] += d["pieces"]
        counts["handed_out"] += d["handed_out"]
        counts["batches"] += 1
        counts["task_bytes"] += d["task_bytes"]
        if not d["tasks"]:  # (a batch that split ran for its bound: not a subtree's time)
            measured[0] += d["explored"] + d["pieces"]
            measured[1] += d["seconds"]
        task_seconds.append(d["seconds"])
        cpu_by_pid[d["pid"]] = cpu_by_pid.get(d["pid"], 0.0) + d["cpu"]
        m.complete += d["complete"]
        m.blocked += d["blocked"]
        m.events += d["events"]
        other_errors += d["errors"] - len(d["failures"])
        failures.update(d["failures"])
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
        if reason or (stop_on_error and m.errors) or (
                max_traces and m.complete + m.blocked + m.errors >= max_traces):
            raise _Stop
        for c in b.children:  # (results that waited for this one)
            cb = batches[c]
            if not cb.dead and cb.result is not None and not cb.merged:
                merge(cb)

    def returned(b: _Batch, d: dict[str, Any]) -> None:
        b.result = d
        for attempt, kids in b.early.items():  # (hand-outs of runs of b that died)
            if attempt != d["attempt"]:
                for c in kids.values():
                    kill(c)
        kept = b.early.get(d["attempt"], {})
        queue.extend((t, b.bid) for q, t in enumerate(d["tasks"]) if q not in kept)
        if b.parent < 0 or batches[b.parent].merged:
            merge(b)

    def handed(bid: int, attempt: str, items: list[tuple[int, float, bytes]]) -> None:
        b = batches.get(bid)
        if b is None or b.dead or b.result is not None:  # (the result has them all)
            counts["handouts_ignored"] += len(items)
            return
        kids = b.early.setdefault(attempt, {})
        for seq, cpu, task in items:
            c = _Batch(len(batches), bid, attempt, cpu)
            kids[seq] = c.bid
            counts["handouts_submitted"] += 1
            submit([task], c, target)

    submit([_core.root_task(s.program_id, explorer)], _Batch(0, -1, None, 0.0), target)
    interrupted = False
    try:
        while pending:
            ready = futures.next_batch(block=False) if futures.has_ready() else []
            # Hand-outs first: one put before its batch returned is on the queue by now.
            items = handouts.get(batch=True) if handouts is not None else []
            for bid, attempt, its in items:
                handed(bid, attempt, its)
            for fut in ready:
                bid = pending.pop(fut, None)
                if bid is None or batches[bid].dead:
                    continue
                returned(batches[bid], fut.result())
            submit_batches()
            if want_var is not None:  # (hand-outs while workers would be idle)
                want = 0
                if not queue and len(pending) < slots:
                    want = -(-(slots - len(pending)) // max(1, len(pending)))
                if want != wanted:
                    want_var.set(want)
                    wanted = want
            if not ready and not items:
                time.sleep(0.01)
    except _Stop:
        pass
    except KeyboardInterrupt:
        interrupted = True
        reason = "interrupted"
    finally:
        if pending:
            client.cancel(list(pending))
        if want_var is not None:
            with contextlib.suppress(Exception):
                want_var.delete()
        if handouts is not None:
            with contextlib.suppress(Exception):
                handouts.close()
    if not reason and max_traces and m.complete + m.blocked + m.errors >= max_traces and not (
            stop_on_error and m.errors):
        reason = "traces"
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
        "distributed_tasks": float(counts["tasks"]),
        "distributed_batches": float(counts["batches"]),
        "distributed_task_bytes": float(counts["task_bytes"]),
        "distributed_handouts": float(counts["handed_out"]),
        "distributed_pieces": float(counts["pieces"]),
        "distributed_handouts_early": float(counts["handouts_submitted"]),
        "distributed_discarded": float(counts["discarded"]),
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


class _Stop(Exception):
    """A budget met or stop_on_error: the run stops (the pending tasks are cancelled)."""


_BUDGETS = ("traces", "seconds", "events", "memory", "interrupted")


def _find_first_error(m: _Merged, core: _core.ProgramBase, s: ProgramShip, explorer: str,
                      task: bytes, options: dict[str, Any]) -> None:
    """The first error trace, found again on the driver: the task that met an error, explored
    here until its first error (a trace of the driver's program, shown as one run shows it)."""
    opts = {**options, "stop_on_error": True, "max_traces": 0}
    r, _, _ = _core.run_task(core, explorer, task, s.program_id, split_after=0.0, **opts)
    m.first_error = r.first_error
    m.errors_by_site = list(r.errors_by_site)
