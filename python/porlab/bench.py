"""Benchmark sweeps: suites of programs × parameters × explorers, one process per run.

A suite is a TOML file (see ``benchmarks/suites/*.toml``)::

    name = "dpor"            # default: the file's stem
    root = "../.."           # base of relative program paths (default: the suite's folder)
    timeout = 60             # seconds per run (wall clock, the worker is killed on expiry)
    memory = 4096            # MiB of address space per run beyond the loaded interpreter
                             # (RLIMIT_AS); 0 = unlimited
    max_traces = 0           # optional clean budgets passed to explore (status "budget")
    max_seconds = 0
    explorers = ["source", {name = "optimal-await", ifaa = true}]

    [[programs]]
    path = "examples/sortnet.py"        # a builder file; kind = "c" for .c files (later)
    name = "sortnet"                    # label in the tables (default: the file's stem)
    parameters = { n = [2, 3, 4] }      # cross product of the lists ...
    # params = [{n = 2}, {n = 3}]       # ... or explicit parameter sets
    small_parameters = { n = [2] }      # used instead when PORLAB_SMALL=1 (or small=True)
    timeout = 10                        # per-program overrides: timeout, memory, budgets,
    explorers = [{name = "optimal", label = "baseline", params = {mode = "assume"}}]

An explorer configuration is a name or a table: ``name``, ``label`` (the column in the tables;
default ``name`` plus ``+ifaa``), ``ifaa``, ``options`` (explorer-specific, typed as the
explorer's schema declares), ``params`` (program parameters this configuration sets, e.g.
Godot's await/assume mode) and ``plugin`` (a Python file, relative to ``root``, that registers
the explorer with :func:`porlab.register_explorer`; the worker loads it first).

:func:`run_suite` runs every run that has no row yet in the results file (with
``retry_failed``, also those whose row failed: timeout, memory, crash, error), locally in
``jobs`` parallel worker processes or on a Dask cluster, and appends one row per finished run
(see :data:`COLUMNS`). Results files: ``.parquet``, ``.csv`` or ``.jsonl``; next to a Parquet
or CSV file, ``<file>.log.jsonl`` is the append log the table is rewritten from, so an
interrupted sweep resumes where it stopped. :func:`read_results` reads a results file back
(and refuses a file that is not one).
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as _dt
import hashlib
import itertools
import json
import os
import platform
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

__all__ = [
    "COLUMNS",
    "FAILED_STATUSES",
    "FINAL_STATUSES",
    "KEY_COLUMNS",
    "ExplorerConfig",
    "Progress",
    "Run",
    "Suite",
    "Sweep",
    "execute_run",
    "kill_running",
    "load_suite",
    "read_results",
    "run_suite",
]

#: Every status a row can have. All are final: a run with a row is not run again (unless
#: ``force``, or ``retry_failed`` for the failed ones).
FINAL_STATUSES = ("ok", "budget", "incomplete", "timeout", "memory", "crash", "error")
#: The statuses counted as failed runs (a budget is a deliberate, clean end).
FAILED_STATUSES = ("timeout", "memory", "crash", "error")

#: The fixed columns of a results table, in order; ``param_<name>`` columns follow ``params``.
COLUMNS = [
    "suite", "program", "instance", "path", "kind", "params",
    "explorer", "config", "options",
    "status", "complete", "blocked", "errors", "traces", "events", "seconds",
    "wall_seconds", "peak_memory_bytes", "message", "blocked_by", "incomplete",
    "timeout", "memory_mib", "porlab_version", "hostname", "cpu", "timestamp",
    "seq", "run_id",
]  # fmt: skip
_INT_COLUMNS = ["complete", "blocked", "errors", "traces", "events", "peak_memory_bytes",
                "memory_mib", "seq"]
_KINDS = {".py": "python", ".c": "c", ".i": "c"}


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


# ---------------------------------------------------------------------------------------------
# Suites


@dataclasses.dataclass(frozen=True)
class ExplorerConfig:
    """An explorer with its options, as one column of the paper tables."""

    name: str
    label: str
    ifaa: bool = False
    options: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    params: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    plugin: str = ""  # a Python file registering the explorer (porlab.register_explorer)

    @classmethod
    def parse(cls, raw: str | Mapping[str, Any], where: str) -> ExplorerConfig:
        """An explorer entry of a suite: a name or ``{name=, label=, ifaa=, options=, params=}``."""
        if isinstance(raw, str):
            return cls(raw, raw)
        if not isinstance(raw, Mapping) or "name" not in raw:
            raise ValueError(f"{where}: an explorer is a name or a table with 'name'")
        unknown = set(raw) - {"name", "label", "ifaa", "options", "params", "plugin"}
        if unknown:
            raise ValueError(f"{where}: unknown explorer keys {sorted(unknown)}")
        name, ifaa = str(raw["name"]), bool(raw.get("ifaa", False))
        options = dict(raw.get("options", {}))
        label = raw.get("label")
        if label is None:
            label = name + ("+ifaa" if ifaa else "")
            if options:
                label += "[" + ",".join(f"{k}={v}" for k, v in sorted(options.items())) + "]"
        return cls(name, str(label), ifaa, options, dict(raw.get("params", {})),
                   str(raw.get("plugin", "")))


@dataclasses.dataclass(frozen=True)
class Run:
    """One exploration of a sweep: a program instance under one explorer configuration."""

    suite: str
    program: str
    path: str
    kind: str
    params: Mapping[str, Any]
    instance_params: Mapping[str, Any]
    explorer: str
    config: str
    ifaa: bool
    options: Mapping[str, Any]
    timeout: float
    memory_mib: int
    max_traces: int = 0
    max_seconds: float = 0.0
    seq: int = 0
    path_key: str = ""  # the path as the suite writes it: run ids survive moving the checkout
    plugin: str = ""  # the Python file registering the explorer, loaded by the worker

    @property
    def instance(self) -> str:
        """The benchmark's label in tables: ``sortnet(4)``, ``interleave(sizes=1,2, nvars=2)``."""
        p = self.instance_params
        if not p:
            return self.program
        if len(p) == 1:
            return f"{self.program}({next(iter(p.values()))})"
        return f"{self.program}(" + ", ".join(f"{k}={v}" for k, v in p.items()) + ")"

    @property
    def options_json(self) -> str:
        """Explorer options as JSON, ``ifaa`` included."""
        return _json({"ifaa": self.ifaa, **self.options})

    @property
    def run_id(self) -> str:
        """A stable id: the same suite, program, parameters and configuration give the same id."""
        key = _json([self.suite, self.program, self.path_key or self.path, dict(self.params),
                     self.explorer, self.config, self.options_json, self.max_traces,
                     self.max_seconds])
        return hashlib.sha1(key.encode()).hexdigest()[:16]

    @property
    def label(self) -> str:
        """``suite:instance:config``, what ``--filter`` matches."""
        return f"{self.suite}:{self.instance}:{self.config}"

    def to_dict(self) -> dict[str, Any]:
        """Plain data (to ship to a Dask worker)."""
        return {f.name: (dict(v) if isinstance(v := getattr(self, f.name), Mapping) else v)
                for f in dataclasses.fields(self)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Run:
        """The inverse of :meth:`to_dict`."""
        return cls(**d)


@dataclasses.dataclass
class Suite:
    """A parsed suite: its name and the runs it expands to."""

    name: str
    path: str
    runs: list[Run]

    def filter(self, substring: str | None) -> Suite:
        """The runs whose ``suite:instance:config`` label or path contains ``substring``."""
        if not substring:
            return self
        keep = [r for r in self.runs if substring in r.label or substring in r.path]
        return Suite(self.name, self.path, keep)


def _param_sets(prog: Mapping[str, Any], small: bool, where: str) -> list[dict[str, Any]]:
    if small and "small_parameters" in prog:
        grid = prog["small_parameters"]
    elif small and "small_params" in prog:
        return [dict(p) for p in prog["small_params"]]
    elif "params" in prog:
        if "parameters" in prog:
            raise ValueError(f"{where}: give 'parameters' or 'params', not both")
        sets = prog["params"]
        if not isinstance(sets, list) or not all(isinstance(p, Mapping) for p in sets):
            raise ValueError(f"{where}: 'params' is a list of tables, e.g. [{{n = 2}}]")
        return [dict(p) for p in sets]
    else:
        grid = prog.get("parameters", {})
    if not isinstance(grid, Mapping):
        raise ValueError(f"{where}: 'parameters' is a table of lists, e.g. {{n = [2, 3]}}")
    names = list(grid)
    values = [v if isinstance(v, list) else [v] for v in grid.values()]
    return [dict(zip(names, combo, strict=True)) for combo in itertools.product(*values)]


_SUITE_KEYS = {"name", "root", "timeout", "memory", "max_traces", "max_seconds", "explorers",
               "programs", "description"}
_PROGRAM_KEYS = {"path", "name", "kind", "parameters", "params", "small_parameters",
                 "small_params", "timeout", "memory", "max_traces", "max_seconds", "explorers"}


def load_suite(path: str | os.PathLike[str], *, small: bool | None = None) -> Suite:
    """Parse a suite TOML file into its runs. ``small`` (default: ``PORLAB_SMALL=1`` in the
    environment) uses each program's ``small_parameters`` when it has them.

    Raises ValueError with the file name for anything malformed."""
    path = Path(path)
    if small is None:
        small = os.environ.get("PORLAB_SMALL") == "1"
    try:
        data = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise ValueError(f"{path}: {e}") from None
    unknown = set(data) - _SUITE_KEYS
    if unknown:
        raise ValueError(f"{path}: unknown keys {sorted(unknown)}")
    name = str(data.get("name", path.stem))
    root = (path.parent / data.get("root", ".")).resolve()
    default_explorers = data.get("explorers", [])
    runs: list[Run] = []
    seen: set[str] = set()
    for i, prog in enumerate(data.get("programs", [])):
        where = f"{path}: programs[{i}]"
        if "path" not in prog:
            raise ValueError(f"{where}: no 'path'")
        unknown = set(prog) - _PROGRAM_KEYS
        if unknown:
            raise ValueError(f"{where}: unknown keys {sorted(unknown)}")
        ppath = (root / prog["path"]).resolve()
        kind = prog.get("kind") or _KINDS.get(ppath.suffix)
        if kind not in ("python", "c"):
            raise ValueError(f"{where}: unknown kind of program {ppath.name} (python or c)")
        label = str(prog.get("name", ppath.stem))
        configs = [ExplorerConfig.parse(e, where)
                   for e in prog.get("explorers", default_explorers)]
        if not configs:
            raise ValueError(f"{where}: no explorers")

        def get(key: str, default: Any, prog: Mapping[str, Any] = prog) -> Any:
            return prog.get(key, data.get(key, default))

        sets = _param_sets(prog, small, where)
        # The instance label shows the parameters that vary (all of them if none does).
        varying = [k for k in dict.fromkeys(k for p in sets for k in p)
                   if len({_json(p.get(k)) for p in sets}) > 1]
        for params in sets:
            shown = {k: v for k, v in params.items() if k in varying} if varying else params
            for cfg in configs:
                run = Run(
                    suite=name, program=label, path=str(ppath), kind=kind,
                    params={**params, **cfg.params}, instance_params=shown,
                    explorer=cfg.name, config=cfg.label, ifaa=cfg.ifaa,
                    options=dict(cfg.options), timeout=float(get("timeout", 60)),
                    memory_mib=int(get("memory", 0)), max_traces=int(get("max_traces", 0)),
                    max_seconds=float(get("max_seconds", 0)), seq=len(runs),
                    path_key=str(prog["path"]),
                    plugin=str((root / cfg.plugin).resolve()) if cfg.plugin else "",
                )
                if run.run_id not in seen:
                    seen.add(run.run_id)
                    runs.append(run)
    return Suite(name, str(path), runs)


# ---------------------------------------------------------------------------------------------
# One run


def _cpu() -> str:
    with contextlib.suppress(OSError), open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or platform.machine()


def _version() -> str:
    try:
        import porlab

        return str(porlab.__version__)
    except Exception:  # pragma: no cover - porlab without its extension
        return "unknown"


_LIVE: set[subprocess.Popen[bytes]] = set()
_LIVE_LOCK = threading.Lock()
_MEMORY_WORDS = ("MemoryError", "bad_alloc", "Cannot allocate memory", "out of memory")


def _kill(proc: subprocess.Popen[bytes]) -> None:
    # The worker leads its own process group: kill it and anything it started.
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)


def kill_running() -> None:
    """Kill every worker process this process started and that is still running."""
    with _LIVE_LOCK:
        procs = list(_LIVE)
    for p in procs:
        _kill(p)


def execute_run(run: Run | Mapping[str, Any]) -> dict[str, Any]:
    """Run one exploration in a fresh ``python -m porlab._bench_worker`` process with the run's
    timeout (the process group is killed on expiry) and memory limit, and return its row.

    Never raises for a failing run: timeouts, memory-outs, crashes (the worker died, e.g. by a
    signal) and bad input come back as rows with that status."""
    if not isinstance(run, Run):
        run = Run.from_dict(run)
    spec = {"path": run.path, "kind": run.kind, "params": dict(run.params),
            "explorer": run.explorer, "ifaa": run.ifaa, "options": dict(run.options),
            "plugin": run.plugin, "max_traces": run.max_traces, "max_seconds": run.max_seconds,
            "memory_mib": run.memory_mib, "timeout": run.timeout}
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    start = time.monotonic()
    result: dict[str, Any]
    with tempfile.TemporaryDirectory(prefix="porlab-bench-") as tmp:
        out = os.path.join(tmp, "result.json")
        proc = subprocess.Popen(
            [sys.executable, "-m", "porlab._bench_worker", out],
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            start_new_session=True, env=env, cwd=tmp,
        )
        with _LIVE_LOCK:
            _LIVE.add(proc)
        timed_out = False
        try:
            _, err_bytes = proc.communicate(json.dumps(spec).encode(),
                                            timeout=run.timeout if run.timeout > 0 else None)
        except subprocess.TimeoutExpired:
            timed_out = True
            _kill(proc)
            _, err_bytes = proc.communicate()
        finally:
            with _LIVE_LOCK:
                _LIVE.discard(proc)
        wall = time.monotonic() - start
        err = err_bytes.decode(errors="replace")
        if timed_out:
            result = {"status": "timeout", "message": f"killed after {run.timeout:g} s"}
        elif os.path.exists(out):
            with open(out) as f:
                result = json.load(f)
        else:
            rc = proc.returncode
            how = (f"killed by {signal.Signals(-rc).name}" if rc < 0 and -rc in
                   signal.valid_signals() else f"exit code {rc}")
            status = "memory" if any(w in err for w in _MEMORY_WORDS) else "crash"
            result = {"status": status, "message": f"worker {how}: {err.strip()[-2000:]}"}
    return _row(run, result, wall)


def _row(run: Run, result: Mapping[str, Any], wall: float) -> dict[str, Any]:
    counts = [result.get(k) for k in ("complete", "blocked", "errors")]
    traces = sum(counts) if all(c is not None for c in counts) else None  # type: ignore[arg-type]
    row: dict[str, Any] = {
        "suite": run.suite, "program": run.program, "instance": run.instance,
        "path": run.path, "kind": run.kind, "params": _json(dict(run.params)),
        "explorer": run.explorer, "config": run.config, "options": run.options_json,
        "status": result["status"],
        "complete": result.get("complete"), "blocked": result.get("blocked"),
        "errors": result.get("errors"), "traces": traces, "events": result.get("events"),
        "seconds": result.get("seconds"), "wall_seconds": round(wall, 4),
        "peak_memory_bytes": result.get("peak_memory_bytes"),
        "message": result.get("message", ""),
        # blocked traces by reason (JSON), so that e.g. complete + loop-bound-blocked (what
        # GenMC counts as complete) is one column away; why the run was not exhaustive
        "blocked_by": _json(result.get("blocked_by") or {}),
        "incomplete": ",".join(result.get("incomplete") or []),
        "timeout": run.timeout, "memory_mib": run.memory_mib,
        "porlab_version": _version(), "hostname": socket.gethostname(), "cpu": _cpu(),
        "timestamp": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "seq": run.seq, "run_id": run.run_id,
    }  # fmt: skip
    for k, v in run.params.items():
        row[f"param_{k}"] = v
    return row


# ---------------------------------------------------------------------------------------------
# Results files


def _log_path(path: Path) -> Path:
    return path if path.suffix == ".jsonl" else path.with_name(path.name + ".log.jsonl")


def _read_jsonl(path: Path, strict: bool = False) -> list[dict[str, Any]]:
    """The rows of a JSONL file. A sweep killed while writing leaves a truncated line (the
    start of a JSON object): it is skipped. With ``strict``, any other line that is not a JSON
    object is a ValueError (the file is not a results file)."""
    rows: list[dict[str, Any]] = []
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except FileNotFoundError:
        return rows
    for n, line in enumerate(lines, 1):
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            if strict and line.strip() and not line.lstrip().startswith("{"):
                raise ValueError(f"{path}:{n}: not a JSON row of a results file") from None
            continue
        if not isinstance(row, dict):
            if strict:
                raise ValueError(f"{path}:{n}: not a JSON object (a results row)")
            continue
        rows.append(row)
    return rows


def _frame(rows: Iterable[Mapping[str, Any]]) -> Any:
    import pandas as pd

    df = pd.DataFrame(list(rows))
    if df.empty:
        return pd.DataFrame(columns=COLUMNS)
    params = sorted(c for c in df.columns if c.startswith("param_"))
    fixed = [c for c in COLUMNS if c in df.columns]
    rest = [c for c in df.columns if c not in fixed and c not in params]
    at = fixed.index("params") + 1 if "params" in fixed else len(fixed)
    df = df[fixed[:at] + params + fixed[at:] + rest]
    for c in params:
        vals = df[c].dropna()
        numeric = vals.map(lambda v: isinstance(v, int | float) and not isinstance(v, bool))
        if len(vals) and not numeric.all() and not vals.map(lambda v: isinstance(v, bool)).all():
            df[c] = df[c].map(lambda v: None if v is None or v != v else str(v)).astype(object)
        elif len(vals) and numeric.all() and vals.map(lambda v: float(v).is_integer()).all():
            df[c] = pd.to_numeric(df[c], errors="coerce").astype("Int64")  # CSV gave 2.0
    for c in _INT_COLUMNS:
        if c in df.columns:
            df[c] = pd.to_numeric(df[c], errors="coerce").astype("Int64")
    for c in ("seconds", "wall_seconds", "timeout"):
        if c in df.columns:
            df[c] = pd.to_numeric(df[c], errors="coerce").astype("float64")
    for c in ("message", "params", "options"):
        if c in df.columns:
            df[c] = df[c].fillna("").astype(str)
    if "seq" in df.columns and "suite" in df.columns:
        df = df.sort_values(["suite", "seq"], kind="stable", na_position="last")
    return df.reset_index(drop=True)


def _dedupe(rows: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The last row per run_id, in order of first appearance."""
    by_id: dict[str, dict[str, Any]] = {}
    for r in rows:
        by_id[str(r.get("run_id"))] = dict(r)
    return list(by_id.values())


def _read_table(path: Path) -> list[dict[str, Any]]:
    import pandas as pd

    if not path.exists():
        return []
    if path.suffix == ".jsonl":
        return _read_jsonl(path)
    df = pd.read_parquet(path) if path.suffix == ".parquet" else pd.read_csv(path)
    df = df.astype(object).where(df.notna(), None)
    return [{k: v for k, v in r.items() if v is not None or not k.startswith("param_")}
            for r in df.to_dict("records")]


#: The columns without which a file is not a results file of :func:`run_suite`.
KEY_COLUMNS = ("run_id", "status")


def read_results(path: str | os.PathLike[str]) -> Any:
    """Read a results file (``.parquet``, ``.csv`` or ``.jsonl``) as a pandas DataFrame, one
    row per run (the append log's newer rows win when it is there).

    Raises FileNotFoundError when there is no such file, ValueError when the file is not a
    results file written by :func:`run_suite` (another suffix, unreadable, rows that are not
    objects, no ``run_id`` or ``status`` column, a status that is not one of
    :data:`FINAL_STATUSES`)."""
    path = Path(path)
    if path.suffix not in (".parquet", ".csv", ".jsonl"):
        raise ValueError(f"{path}: results files are .parquet, .csv or .jsonl files")
    if path.is_dir():
        raise ValueError(f"{path}: a directory, not a results file")
    try:
        rows = _read_table(path) if path.suffix != ".jsonl" else []
        rows += _read_jsonl(_log_path(path), strict=True)
    except (UnicodeDecodeError, ValueError, OSError) as e:
        if isinstance(e, FileNotFoundError):
            raise
        detail = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise ValueError(f"{path}: not a results file ({detail})") from None
    except Exception as e:  # pandas and pyarrow parse errors of every kind
        raise ValueError(f"{path}: not a results file ({type(e).__name__}: {e})") from None
    if not rows and not path.exists():
        raise FileNotFoundError(f"{path}: no such results file")
    present = set().union(*(r.keys() for r in rows)) if rows else set(KEY_COLUMNS)
    missing = [c for c in KEY_COLUMNS if c not in present]
    if missing:
        raise ValueError(f"{path}: not a results file of `porlab bench` (no column "
                         f"{', '.join(missing)})")
    bad = sorted({str(r.get("status")) for r in rows} - set(FINAL_STATUSES))
    if bad:
        raise ValueError(f"{path}: not a results file of `porlab bench` (status "
                         f"{', '.join(bad)}; a status is one of {', '.join(FINAL_STATUSES)})")
    return _frame(_dedupe(rows))


class _Store:
    """The results file and its append log. Rows are appended to the log as runs finish; the
    table (Parquet/CSV) is rewritten from it atomically, at most every ``every`` seconds."""

    def __init__(self, path: Path, every: float = 2.0) -> None:
        suffix = path.suffix
        if suffix not in (".parquet", ".csv", ".jsonl"):
            raise ValueError(f"{path}: results are .parquet, .csv or .jsonl files")
        self.path, self.log, self.every = path, _log_path(path), every
        self.rows: list[dict[str, Any]] = []
        if path.suffix != ".jsonl":
            self.rows = _read_table(path)
        self.rows = _dedupe(self.rows + _read_jsonl(self.log))
        self._written = 0.0
        self._dirty = False

    def done(self, retry_failed: bool = False) -> set[str]:
        """Run ids with a final row (not counting failed rows with ``retry_failed``)."""
        skip = FAILED_STATUSES if retry_failed else ()
        return {str(r["run_id"]) for r in self.rows
                if r.get("status") in FINAL_STATUSES and r.get("status") not in skip}

    def append(self, row: Mapping[str, Any]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.log, "a+b") as f:
            # After a sweep killed mid-write the log ends in a torn line: start a new one, so
            # that the torn line stays alone (and skipped) and this row is read back.
            size = f.seek(0, os.SEEK_END)
            torn = False
            if size:
                f.seek(size - 1)
                torn = f.read(1) != b"\n"
            f.write((b"\n" if torn else b"") + json.dumps(row, default=str).encode() + b"\n")
            f.flush()
        self.rows = _dedupe([*self.rows, dict(row)])
        self._dirty = True
        if time.monotonic() - self._written >= self.every:
            self.write()

    def write(self) -> None:
        if self.path.suffix == ".jsonl":
            return
        if not self._dirty and self.path.exists():
            return
        df = _frame(self.rows)
        tmp = self.path.with_name(self.path.name + ".tmp")
        if self.path.suffix == ".parquet":
            df.to_parquet(tmp, index=False)
        else:
            df.to_csv(tmp, index=False)
        os.replace(tmp, self.path)
        self._written = time.monotonic()
        self._dirty = False


# ---------------------------------------------------------------------------------------------
# Progress


def _hms(seconds: float) -> str:
    s = int(seconds)
    if s >= 3600:
        return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"
    return f"{s // 60}:{s % 60:02d}"


class Progress:
    """A one-line progress bar on a stream (redrawn in place on a terminal; one line per
    finished run otherwise): runs done of total, running, failed, elapsed and ETA."""

    def __init__(self, total: int, *, stream: IO[str] | None = None, enabled: bool = True,
                 width: int = 24) -> None:
        self.total, self.done, self.running, self.failed = total, 0, 0, 0
        self.stream = stream if stream is not None else sys.stderr
        self.enabled, self.width = enabled, width
        self.start = time.monotonic()
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())

    def line(self) -> str:
        """The bar's text."""
        frac = self.done / self.total if self.total else 1.0
        fill = int(frac * self.width)
        bar = "#" * fill + "." * (self.width - fill)
        elapsed = time.monotonic() - self.start
        eta = _hms(elapsed / self.done * (self.total - self.done)) if self.done else "?"
        return (f"[{bar}] {self.done}/{self.total} done, {self.running} running, "
                f"{self.failed} failed, {_hms(elapsed)} elapsed, ETA {eta}")

    def update(self, *, started: int = 0, finished: Mapping[str, Any] | None = None) -> None:
        """Count ``started`` runs, or one finished row, and redraw."""
        self.running += started
        if finished is not None:
            self.running = max(0, self.running - 1)
            self.done += 1
            if finished.get("status") in FAILED_STATUSES:
                self.failed += 1
        if not self.enabled:
            return
        if self.tty:
            self.stream.write("\r" + self.line() + "\x1b[K")
        elif finished is not None:
            t = finished.get("seconds")
            what = f"{t:#.3g}s" if isinstance(t, float) else finished.get("message", "")[:60]
            self.stream.write(f"{self.line()}  {finished['status']:<7} {finished['instance']}"
                              f" {finished['config']} {what}\n")
        self.stream.flush()

    def close(self) -> None:
        """End the line."""
        if self.enabled and self.tty:
            self.stream.write("\n")
            self.stream.flush()


# ---------------------------------------------------------------------------------------------
# Sweeps


@dataclasses.dataclass
class Sweep:
    """What :func:`run_suite` did: runs executed now, skipped (already done), failed now
    (status in :data:`FAILED_STATUSES`), the whole results table, and ``failed_rows``: the
    rows of the suite's runs (the filtered ones) that are failed in the results after the
    sweep, whether they failed now or earlier."""

    executed: int
    skipped: int
    failed: int
    table: Any
    failed_rows: list[dict[str, Any]] = dataclasses.field(default_factory=list)


def _local(runs: Sequence[Run], jobs: int, on_start: Callable[[], None],
           on_done: Callable[[dict[str, Any]], None]) -> None:
    from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait

    # Threads only wait for worker processes: the isolation is the process.
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        pending: set[Future[dict[str, Any]]] = set()
        queue = list(runs)
        try:
            while queue or pending:
                while queue and len(pending) < max(1, jobs):
                    # execute_run is looked up now, so tests can count its calls.
                    pending.add(pool.submit(execute_run, queue.pop(0)))
                    on_start()
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for fut in finished:
                    on_done(fut.result())
        except BaseException:
            for fut in pending:
                fut.cancel()
            kill_running()
            raise


def _dask(runs: Sequence[Run], address: str, on_start: Callable[[], None],
          on_done: Callable[[dict[str, Any]], None]) -> None:
    from dask.distributed import Client, as_completed

    with Client(address) as client:
        futures = [client.submit(execute_run, r.to_dict(), pure=False,
                                 key=f"porlab-run-{r.run_id}-{time.time_ns()}") for r in runs]
        nthreads = sum(client.nthreads().values()) or 1
        for _ in range(min(nthreads, len(futures))):
            on_start()
        left = len(futures)
        try:
            for fut in as_completed(futures):
                on_done(fut.result())
                left -= 1
                if left >= nthreads:
                    on_start()
        except BaseException:
            client.cancel(futures)
            raise


def _sigterm(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def run_suite(
    suite: Suite | str | os.PathLike[str],
    output: str | os.PathLike[str],
    *,
    jobs: int = 1,
    scheduler: str | None = None,
    force: bool = False,
    retry_failed: bool = False,
    filter: str | None = None,
    small: bool | None = None,
    progress: bool = True,
    stream: IO[str] | None = None,
) -> Sweep:
    """Run a suite's runs that have no row yet in ``output`` (all of them with ``force``; with
    ``retry_failed``, also those whose row failed: timeout, memory, crash or error) and append
    a row per finished run (it replaces the run's earlier row). ``jobs`` local worker processes
    run at a time; with ``scheduler`` (a Dask scheduler address) the runs go to that cluster
    instead, each still in its own worker process with the timeout and memory limit. ``filter``
    keeps the runs whose ``suite:instance:config`` label or path contains it. Returns a
    :class:`Sweep`."""
    if not isinstance(suite, Suite):
        suite = load_suite(suite, small=small)
    suite = suite.filter(filter)
    store = _Store(Path(output))
    done = set() if force else store.done(retry_failed)
    todo = [r for r in suite.runs if r.run_id not in done]
    bar = Progress(len(todo), stream=stream, enabled=progress)
    failed = 0

    def on_done(row: dict[str, Any]) -> None:
        nonlocal failed
        failed += row["status"] in FAILED_STATUSES
        store.append(row)
        bar.update(finished=row)

    # SIGTERM (a CI time limit, `kill`) ends the sweep like Ctrl-C: workers killed, rows kept.
    restore = None
    if threading.current_thread() is threading.main_thread():
        restore = signal.signal(signal.SIGTERM, _sigterm)
    try:
        if not todo:
            pass
        elif scheduler:
            _dask(todo, scheduler, lambda: bar.update(started=1), on_done)
        else:
            _local(todo, jobs, lambda: bar.update(started=1), on_done)
    finally:
        if restore is not None:
            signal.signal(signal.SIGTERM, restore)
        bar.close()
        store.write()
    by_id = {str(r.get("run_id")): r for r in store.rows}
    failed_rows = [by_id[r.run_id] for r in suite.runs
                   if by_id.get(r.run_id, {}).get("status") in FAILED_STATUSES]
    return Sweep(len(todo), len(suite.runs) - len(todo), failed, _frame(store.rows),
                 failed_rows)
