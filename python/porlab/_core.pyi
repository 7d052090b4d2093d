"""porlab's C++ core: events, traces, programs, explorers and equivalence keys.

Type stubs for the extension module ``porlab._core`` (first generated with pybind11-stubgen,
then cleaned by hand: precise container types, ``Execution`` and ``Event | None`` where the
generator saw raw C++ types). ``tests/python/test_stubs.py`` fails when a name exists on one
side only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, SupportsIndex, SupportsInt

import numpy
import numpy.typing

_Int = SupportsInt | SupportsIndex

__version__: str

#: Instruction name -> number, of the spec porlab.Program writes (lowered by lower_spec).
OPCODES: dict[str, int]
#: Binary operator -> number (``+``, ``==``, ``and``, ...).
BINOPS: dict[str, int]
#: Unary operator -> number (``-``, ``not``, ``~``).
UNOPS: dict[str, int]
#: Read-modify-write operation -> number (add, sub, and, or, xor, max, min).
RMW_OPS: dict[str, int]
#: Event kind -> number (read, write, fetch-add, ..., thread-end).
EVENT_KINDS: dict[str, int]
#: Await condition -> number (eq, ne, slt, ..., uge).
AWAIT_CONDS: dict[str, int]
#: Equivalence name -> one-line description.
EQUIVALENCES: dict[str, str]

class InputError(ValueError):
    """Bad input (a program, an option, a name): the message says what and where."""

class UnsupportedError(ValueError):
    """Input porlab understands but does not support (with file:line)."""

# ---- events and traces ------------------------------------------------------------------------

class SourcePos:
    """A source position: file index and line."""

    @property
    def file(self) -> int: ...
    @property
    def line(self) -> int: ...

class Event:
    """One visible step of one thread, identified by (thread, index)."""

    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...
    def __repr__(self) -> str: ...
    @property
    def thread(self) -> int:
        """The thread that performed the event."""
    @property
    def index(self) -> int:
        """Position among the thread's events (0-based)."""
    @property
    def kind(self) -> str:
        """Kind: read, write, fetch-add, exchange, cas-success, ..."""
    @property
    def rmw_op(self) -> str:
        """Operation of a fetch-add event (add, sub, and, ...)."""
    @property
    def cond(self) -> str:
        """Condition of an await event (eq, ne, ...)."""
    @property
    def loc(self) -> int:
        """Location or mutex id (-1 when none)."""
    @property
    def value_read(self) -> int:
        """Value read (reads, RMWs, CAS, awaits)."""
    @property
    def value_written(self) -> int:
        """Value written (writes, RMWs, CAS)."""
    @property
    def operand(self) -> int:
        """Fetch-add operand, CAS expected value or await operand."""
    @property
    def result_used(self) -> bool:
        """Fetch-add only: is the loaded value used afterwards (IFAA)."""
    @property
    def enabled(self) -> bool:
        """For a pending event: can it run now?"""
    @property
    def aux(self) -> int:
        """Spawn/join: the other thread; markers: the cause or fault code."""
    @property
    def pos(self) -> SourcePos:
        """Source position."""
    @property
    def pointer(self) -> bool:
        """Are the values read and written pointers (C programs; shown symbolically)?"""
    @property
    def ctx(self) -> int:
        """The call stack the event runs in (an id; Trace.stack(i) shows it; 0 when unknown)."""
    @property
    def reads(self) -> bool:
        """Does the event read a shared location?"""
    @property
    def writes(self) -> bool:
        """Does the event write a shared location?"""

class Trace:
    """A sequence of events a program really executed, with its relations."""

    def __len__(self) -> int: ...
    def __getitem__(self, i: _Int) -> Event: ...
    def __repr__(self) -> str: ...
    def __str__(self) -> str: ...
    @property
    def events(self) -> list[Event]:
        """The events in execution order."""
    @property
    def status(self) -> str:
        """complete, blocked or error."""
    @property
    def num_threads(self) -> int: ...
    def reads_from(self) -> list[int]:
        """For every event, the position of the write it reads from, -1 for the initial value,
        -2 when it reads nothing."""
    def coherence(self) -> list[list[int]]:
        """For every location, the positions of its writes in coherence order."""
    def from_read(self) -> list[tuple[int, int]]:
        """Pairs (read, write) of the from-read relation."""
    def matrix(self, relation: str, ifaa: bool = False) -> numpy.typing.NDArray[numpy.bool_]:
        """The relation (po, rf, co, fr, hb, causal) as an n×n numpy boolean matrix over event
        positions; hb uses the IFAA conflict relation when ifaa=True."""
    def closure(
        self, relations: list[str], ifaa: bool = False
    ) -> numpy.typing.NDArray[numpy.bool_]:
        """The transitive closure of the union of the relations (names as for matrix()), as an
        n×n numpy boolean matrix."""
    def hb(self, i: _Int, j: _Int, ifaa: bool = False) -> bool:
        """Does event i happen before event j (positions in the trace)?"""
    def source(self, i: _Int) -> str:
        """Source position ('file:line') of event i, or ''."""
    def describe(self, i: _Int) -> str:
        """Human-readable text of event i, with names."""
    def thread_name(self, thread: _Int) -> str: ...
    def location_name(self, loc: _Int) -> str: ...
    @property
    def blocks(self) -> list[tuple[str, str, str]]:
        """A blocked trace: (thread, reason, 'file:line') for every thread that stopped without
        finishing (reasons: assume, loop-bound, await, lock, cond-wait, ...)."""
    def function(self, i: _Int) -> str:
        """The function event i runs in ('' when unknown, e.g. builder programs)."""
    def stack(self, i: _Int) -> list[tuple[str, str]]:
        """The call stack of event i, innermost first: (function, 'file:line') pairs, the first
        at the event, each other at its call of the one before; [] when unknown."""
    def stack_text(self, i: _Int, max_frames: _Int = 3) -> str:
        """The call stack of event i as text, innermost first ('push <- worker')."""
    @property
    def error_position(self) -> int:
        """Position of the first assertion failure or fault, or -1."""
    @property
    def error_message(self) -> str:
        """What the first error says ("assertion `x == 1' failed", 'reach_error() called',
        'fault: use after free'), or ''."""
    def objects(self) -> list[dict[str, Any]]:
        """The heap blocks and escaped stack variables the events touch or point to: dicts with
        name, kind (malloc, calloc, stack), size, source (where allocated), thread."""
    def inputs(self) -> list[dict[str, Any]]:
        """The nondeterministic inputs the trace ran under (C programs with --nondet-domain):
        dicts with thread, call (the thread's n-th __VERIFIER_nondet_* call, from 0), value and
        source, for every call given a value other than the domain's low end."""
    @property
    def inputs_note(self) -> str:
        """One line saying what the trace's __VERIFIER_nondet_* calls returned ('' when the
        program makes none)."""
    def to_text(self, max_thread_width: _Int = 24) -> str:
        """The trace as a table (thread, source, function, event), then the objects and inputs;
        thread names longer than max_thread_width are shortened."""
    def to_dot(self, title: str = "") -> str:
        """Graphviz DOT of the execution graph: events labelled with their source and function,
        po solid, rf dashed red, co dotted blue, the error event in red (the title defaults to
        the error's message)."""

class ErrorSiteTraces:
    """A distinct error site, how many error traces reached it, and the first of them."""

    @property
    def thread(self) -> int:
        """The failing thread."""
    @property
    def kind(self) -> str:
        """assertion-failure or fault."""
    @property
    def code(self) -> int:
        """The fault kind, or the assertion's text id."""
    @property
    def file(self) -> int: ...
    @property
    def line(self) -> int: ...
    @property
    def message(self) -> str:
        """What the error says ("assertion `x == 1' failed", 'fault: use after free')."""
    @property
    def traces(self) -> int:
        """Error traces that reached the site."""
    @property
    def trace(self) -> Trace:
        """The first of them."""

# ---- programs and executions ------------------------------------------------------------------

class ProgramSpec:
    """A builder program under construction (filled in by porlab.Program; validated and lowered
    by lower_spec)."""

    def __init__(self, name: str) -> None: ...
    @property
    def name(self) -> str: ...
    def add_location(self, name: str, init: _Int = 0, mutex: bool = False) -> int:
        """Add a shared location (or mutex); returns its id."""
    def add_thread(self, name: str, autostart: bool = True) -> int:
        """Add a thread; returns its id."""
    def add_register(self, thread: _Int, name: str, init: _Int = 0) -> int:
        """Add a register to a thread; returns its index."""
    def add_file(self, path: str) -> int:
        """Intern a source file name; returns its index."""
    def emit(
        self,
        thread: _Int,
        op: str,
        sub: _Int = 0,
        a: _Int = -1,
        b: _Int = -1,
        c: _Int = -1,
        d: _Int = -1,
        e: _Int = -1,
        loc: _Int = -1,
        len: _Int = 1,
        idx: _Int = -1,
        imm: _Int = 0,
        result_used: bool = True,
        file: _Int = 0,
        line: _Int = 0,
    ) -> int:
        """Append an instruction to a thread's code; returns its index."""
    def patch_target(self, thread: _Int, pc: _Int, target: _Int) -> None:
        """Set the jump target of instruction pc."""
    def set_result_used(self, thread: _Int, pc: _Int, used: bool) -> None: ...
    def code_size(self, thread: _Int) -> int: ...

class ProgramBase:
    """A program any explorer accepts."""

    @property
    def name(self) -> str: ...
    @property
    def thread_names(self) -> list[str]: ...
    @property
    def location_names(self) -> list[str]: ...
    @property
    def initial_values(self) -> list[int]: ...
    @property
    def is_mutex(self) -> list[bool]: ...
    @property
    def sections_end(self) -> bool:
        """Does every critical section end (no thread can block, stop or end while holding a
        mutex)? A static, conservative analysis (False when unsure); lapor then tries no lock
        blocked for good (option sections_end)."""
    @property
    def files(self) -> list[str]:
        """Source file names by SourcePos file index (files[0] = '')."""
    def new_execution(self) -> Execution:
        """A fresh execution of the program (the interface explorers drive)."""

class Snapshot:
    """A saved execution state."""

class Execution:
    """One run of a program: reset, look at each thread's pending operation, step a thread
    (optionally choosing the value a read returns)."""

    def reset(self) -> list[Event]:
        """Back to the initial state; returns marker events of threads that end at once."""
    @property
    def max_threads(self) -> int: ...
    def status(self, thread: _Int) -> str:
        """not-started, ready, finished, blocked (for good) or failed."""
    def pending(self, thread: _Int) -> Event | None:
        """The event the thread would perform now (with .enabled), or None."""
    def enabled(self, thread: _Int) -> bool: ...
    def enabled_threads(self) -> list[int]: ...
    def step(self, thread: _Int, value: _Int | None = None) -> list[Event]:
        """Perform the thread's pending operation; `value` overrides what a read returns.
        Returns the events emitted (the operation, then markers)."""
    @property
    def failed(self) -> bool: ...
    @property
    def memory(self) -> list[int]: ...
    def outcome(self) -> list[int]:
        """The final state as a flat list of integers."""
    def save(self) -> Snapshot: ...
    def restore(self, snapshot: Snapshot) -> None: ...

# ---- explorers --------------------------------------------------------------------------------

class Result:
    """What an exploration found."""

    @property
    def explorer(self) -> str: ...
    @property
    def complete(self) -> int:
        """Complete traces explored."""
    @property
    def blocked(self) -> int:
        """Blocked traces (assume, loop bound, await or lock never satisfied)."""
    @property
    def errors(self) -> int:
        """Error traces (assertions, faults)."""
    @property
    def events(self) -> int:
        """Visible operations executed."""
    @property
    def seconds(self) -> float: ...
    @property
    def peak_memory_bytes(self) -> int:
        """Peak resident set size of the process."""
    @property
    def budget_exceeded(self) -> bool:
        """True when a budget ended the run early (the counts are partial)."""
    @property
    def budget_reason(self) -> str:
        """Which budget ended the run: traces, seconds, events, memory, interrupted."""
    @property
    def incomplete(self) -> list[str]:
        """Why the exploration is not exhaustive (budgets, interrupt, execution cuts, thread or
        location limits); empty when it was exhausted."""
    @property
    def blocked_by(self) -> dict[str, int]:
        """Blocked traces by primary reason (they add up to blocked)."""
    @property
    def block_sites(self) -> list[tuple[str, int, int, int]]:
        """Distinct (reason, file, line, traces) where threads of blocked traces stopped."""
    @property
    def first_error(self) -> Trace | None:
        """The first error trace or None."""
    @property
    def traces(self) -> list[Trace]:
        """Every maximal trace, when kept."""
    @property
    def outcomes(self) -> set[tuple[int, ...]]:
        """Final states of complete and blocked traces (tuples of ints)."""
    @property
    def error_sites(self) -> list[tuple[int, str, int, int, int]]:
        """Distinct (thread, kind, code, file, line) of errors found."""
    @property
    def errors_by_site(self) -> list[ErrorSiteTraces]:
        """Per distinct error site (as error_sites): the number of error traces that reached it
        and the first of them."""
    @property
    def stats(self) -> dict[str, float]:
        """Explorer-specific statistics."""

def explorers() -> list[dict[str, Any]]:
    """The registered explorers (name, equivalence, description, optimal, options,
    covers_classes: every complete class of the equivalence gets a complete trace,
    non_redundant: no two complete traces share a class)."""

def explore(
    program: ProgramBase,
    explorer: str = "naive",
    max_traces: _Int = 0,
    max_seconds: float = 0.0,
    max_events: _Int = 0,
    max_memory: _Int = 0,
    stop_on_error: bool = False,
    keep_traces: bool = False,
    collect_outcomes: bool = True,
    ifaa: bool = False,
    on_trace: Callable[[Trace], None] | None = None,
    params: Mapping[str, str] = ...,
    progress: Callable[[int, int, int, int, float], None] | None = None,
    progress_seconds: float = 0.5,
    check_races: bool = True,
    check_liveness: bool = False,
) -> Result:
    """Explore a program with a registered explorer (the GIL is released meanwhile). Ctrl-C (any
    KeyboardInterrupt a signal handler raises) stops the run like a budget: the partial result
    comes back with budget_reason 'interrupted'. `progress` is called about every
    progress_seconds with (complete, blocked, errors, events, seconds)."""

def c_load_option_schema() -> list[dict[str, Any]]:
    """The options of loading a C program (load_c's keywords, porlab run's flags), as the
    explorers' options: name, type, default, values, min, max, doc."""

class ExplorerRun:
    """What an explorer written in Python gets with the program: its typed options, the
    reporter (counts, budgets, bug checks, outcomes) and C++ building blocks (replay, races,
    initials, independence)."""

    @property
    def options(self) -> dict[str, bool | int | str]:
        """The explorer's options, parsed and typed (defaults included)."""
    @property
    def ifaa(self) -> bool:
        """Fetch-and-adds with unused results commute (ifaa=True)."""
    def stop(self) -> bool:
        """Should the explorer stop now (a budget, Ctrl-C, the first error)?"""
    def step(self, execution: Execution, thread: _Int) -> list[Event]:
        """Step an enabled thread and count the event; returns the events emitted."""
    def replay(self, execution: Execution, schedule: Sequence[_Int]) -> list[Event]:
        """Reset the execution and run the threads of `schedule` in order, in one call."""
    def maximal(self, execution: Execution, events: Sequence[Event]) -> str:
        """Report a maximal execution; returns the status it is counted with."""
    def outcome(self, execution: Execution, events: Sequence[Event]) -> None:
        """Record the final state of a maximal execution not reported as a trace."""
    def set_stat(self, name: str, value: float) -> None:
        """An explorer-specific statistic."""
    def conflicts(self, a: Event, b: Event) -> bool:
        """Are two events of different threads dependent (the run's conflict relation)?"""
    def races(self, events: Sequence[Event]) -> list[tuple[int, int]]:
        """Source-DPOR's races of a sequence of events."""
    def races_with_initials(self, events: Sequence[Event]) -> list[tuple[int, int, list[int]]]:
        """The races (i, j, initials) of a sequence of events."""
    def initials(self, events: Sequence[Event], i: _Int, j: _Int) -> list[int]:
        """The threads that can start v = notdep(i, E).j."""
    def sequence(self, program: ProgramBase) -> ExploredSequence:
        """An ExploredSequence of the program for this run (events counted, traces reported)."""

def dependent(a: Event, b: Event, ifaa: bool = False) -> bool:
    """Are two events dependent (same thread, a memory conflict, spawn/join)?"""

def sleep_after(
    sleep: Sequence[tuple[Event, bool]], event: Event, ifaa: bool = False
) -> list[tuple[Event, bool]]:
    """The sleep set after performing `event`: the entries independent of it."""

def sc_consistent(events: Sequence[Event], rf: Sequence[_Int]) -> list[int] | None:
    """An interleaving in which every read reads from rf[k], or None (VerifySC)."""

class ExploredSequence:
    """The explored sequence E of a DPOR explorer, kept in C++ (docs/python-explorers.md)."""

    def __init__(self, program: ProgramBase, ifaa: bool = False) -> None: ...
    @property
    def depth(self) -> int:
        """Steps in E."""
    @property
    def events(self) -> list[Event]:
        """E's events (a copy)."""
    @property
    def end(self) -> str:
        """How E ended: open, maximal, error or sleep-blocked."""
    @property
    def max_threads(self) -> int: ...
    @property
    def execution(self) -> Execution:
        """The execution in the state after E."""
    def thread(self, d: _Int) -> int:
        """The thread of step d."""
    def threads(self, start: _Int = 0) -> list[int]:
        """The threads of steps start, start+1, ..."""
    def start(self, d: _Int) -> int:
        """Position of step d's first event."""
    def depth_of(self, position: _Int) -> int:
        """The step that emitted an event (-1: reset's markers)."""
    def enabled(self) -> int:
        """Threads enabled after E, as a bit mask."""
    def sleep(self, d: _Int) -> list[tuple[Event, bool]]:
        """The sleep set at depth d."""
    def sleep_mask(self, d: _Int) -> int:
        """The threads asleep at depth d, as a bit mask."""
    def step(self, thread: _Int) -> None:
        """Perform an enabled thread's next event."""
    def extend(self, first: _Int = -1) -> str:
        """Run E to its end; returns how it ended."""
    def backtrack(self, d: _Int) -> None:
        """Shorten E to d steps; step d's event goes to sleep at depth d."""
    def report(self) -> str:
        """Report the ended E as a trace; returns its status."""
    def hb(self, i: _Int, j: _Int) -> bool:
        """Does the event at position i happen before the one at j?"""
    def races(self) -> list[tuple[int, int]]:
        """Source-DPOR's races (i, j) of E."""
    def notdep(self, i: _Int, j: _Int) -> list[int]:
        """Positions of v = notdep(i, E).j."""
    def initials(self, v: Sequence[_Int]) -> int:
        """The threads that can start the subsequence v, as a bit mask."""
    def weak_initial(self, v: Sequence[_Int], next: Event, fails: bool = False) -> bool:
        """Optimal-DPOR's weak-initial test."""
    def asleep(self, d: _Int, v: Sequence[_Int]) -> bool:
        """Is inserting v at depth d redundant (a sleeping thread is a weak initial of v)?"""
    def key(self, equivalence: str, thread: _Int = 0) -> tuple[int, int]:
        """The canonical key of E's class under an equivalence."""
    def reversals(self) -> list[tuple[int, int, int]]:
        """Source-DPOR's race reversals (depth, initials, first) of the ended E."""

def register_explorer(
    name: str,
    function: Callable[[ProgramBase, ExplorerRun], None],
    equivalence: str,
    description: str,
    optimal: bool,
    covers_classes: bool,
    non_redundant: bool,
    ifaa: bool,
    options: Sequence[dict[str, Any]],
) -> None:
    """Register an explorer written in Python (porlab.register_explorer is the API)."""

def estimate_interleavings(program: ProgramBase, walks: _Int = 64, seed: _Int = 1) -> float:
    """Knuth's random-walk estimate of the number of maximal interleavings (what the naive
    explorer and partition_sizes enumerate)."""

def default_memory_budget() -> int:
    """Three quarters of the machine's (or the cgroup's) memory, in bytes; 0 if unknown."""

def resident_bytes() -> int:
    """The process's resident set size now."""

# ---- distributed tasks (porlab.distributed) ---------------------------------------------------

TASK_FORMAT_VERSION: int

def set_portable_outcomes(program: ProgramBase, on: bool) -> None:
    """While on, a C program's outcomes name threads, heap objects and locations stably (by
    spawn path, allocation, offset): a Dask worker's outcomes, read back by local_outcome."""

def local_outcome(program: ProgramBase, portable: Sequence[int]) -> tuple[int, ...]:
    """A portable outcome (set_portable_outcomes, another process) in this process's numbering
    of the program, as its own runs write outcomes."""


def root_task(program_id: _Int, explorer: str) -> bytes:
    """The task that is the whole exploration of a program (explored by run_task)."""

def task_header(task: bytes) -> dict[str, Any]:
    """The header of a task: program_id, explorer, root."""

class TaskChannel:
    """Hand-outs on demand of a running run_task (another thread calls want and drain)."""

    def __init__(self) -> None: ...
    def want(self, n: _Int) -> None:
        """Hand over the next n shallow subtrees the running task reaches (0: none)."""
    def drain(self) -> list[tuple[int, float, bytes]]:
        """The hand-outs since the last drain: (seq = index in run_task's tasks, the task
        thread's CPU seconds then, the task)."""

def run_task(
    program: ProgramBase,
    explorer: str,
    task: bytes | Sequence[bytes],
    program_id: _Int,
    split_after: float = 0.0,
    max_traces: _Int = 0,
    max_seconds: float = 0.0,
    max_events: _Int = 0,
    max_memory: _Int = 0,
    stop_on_error: bool = False,
    collect_outcomes: bool = True,
    params: Mapping[str, str] = ...,
    check_races: bool = True,
    check_liveness: bool = False,
    channel: TaskChannel | None = None,
) -> tuple[Result, list[bytes], list[tuple[int, int]]]:
    """Explore one task (root_task or a task another run_task split off) of a graph-engine
    explorer. After split_after seconds (0: never; < 0: at once) every subtree not yet started
    is returned as a task instead of explored. channel: subtrees handed over on demand while the
    task runs (also in the tasks returned, at their seq). Returns (result, tasks, failing-prefix
    hashes): the driver counts each failing prefix once over all tasks."""

def spec_bytes(spec: ProgramSpec) -> bytes:
    """A builder program's spec as bytes (spec_from_bytes reads them)."""

def spec_from_bytes(data: bytes) -> ProgramSpec:
    """The builder program spec spec_bytes wrote."""

def lower_spec(spec: ProgramSpec) -> ProgramBase:
    """Validate a spec and lower it to the decoded form porlab's interpreter runs (C programs
    run in it too); raises InputError when invalid."""

def disassemble_code(program: ProgramBase) -> str:
    """The listing of a program's decoded form ('' for other programs)."""

# ---- equivalences -----------------------------------------------------------------------------

def trace_key(trace: Trace, equivalence: str) -> tuple[int, int]:
    """Canonical 128-bit key of a trace's class (as two ints): equal iff equivalent."""

def canonical_linearization(trace: Trace, ifaa: bool = False) -> list[int]:
    """Positions of the trace's events in the least (by thread id) linearisation of
    happens-before: the canonical representative of its Mazurkiewicz class."""

def partition_sizes(
    program: ProgramBase,
    max_traces: _Int = 0,
    max_seconds: float = 0.0,
    max_events: _Int = 0,
    max_memory: _Int = 0,
    progress: Callable[[int, int, int, int, float], None] | None = None,
    progress_seconds: float = 0.5,
    check_races: bool = True,
) -> dict[str, Any]:
    """Enumerate every interleaving and count classes per equivalence; each entry maps to
    {'complete', 'blocked', 'errors'} counts. Budgets and Ctrl-C end the run with partial counts
    (lower bounds) and the reasons in 'incomplete'."""

class ClassCounter:
    """Counts the classes of reported traces under every equivalence."""

    def __init__(self) -> None: ...
    def add(self, trace: Trace) -> None: ...
    def classes(self, equivalence: str) -> dict[str, int]: ...
    def duplicates(self, equivalence: str) -> int:
        """How many added traces fell into an already-seen class."""

# ---- the C front end (bind_llvm.cpp; HAS_C_FRONTEND is False without PORLAB_WITH_LLVM) ----
HAS_C_FRONTEND: bool

def load_c(
    path: str,
    defines: list[tuple[str, str]] = ...,
    include_dirs: list[str] = ...,
    clang_args: list[str] = ...,
    unroll: int | None = None,
    max_threads: int = 16,
    max_locations: int = 4096,
    deadlock_is_error: bool = True,
    nondet_domain: tuple[int, int] | None = None,
    name: str = "",
    max_execution_events: int = 100000,
    loops: str = "none",
) -> ProgramBase:
    """Compile a C file with clang 19 and load it as a program."""

def load_c_source(
    source: str,
    file_name: str = "program.c",
    defines: list[tuple[str, str]] = ...,
    include_dirs: list[str] = ...,
    clang_args: list[str] = ...,
    unroll: int | None = None,
    max_threads: int = 16,
    max_locations: int = 4096,
    deadlock_is_error: bool = True,
    name: str = "",
    max_execution_events: int = 100000,
    loops: str = "none",
) -> ProgramBase:
    """Load C source text as a program."""

def disassemble_c(program: ProgramBase) -> str:
    """Listing of the lowered code of a C program."""

def c_warnings(program: ProgramBase) -> list[str]:
    """Warnings of a C program, each once."""
