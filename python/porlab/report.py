"""Paper tables from benchmark result rows (:mod:`porlab.bench`), in Markdown or LaTeX.

Every table is rendered from the tidy rows of a results file, never from logs: one row per
benchmark instance (``instance``, e.g. ``sortnet(4)``), in suite order, and per explorer
configuration (``config``, e.g. ``optimal-await+ifaa``) the numbers of the paper's table.

* :func:`rvf_table` — RVF-SMC Tables 1–2: traces and time per explorer, ``-`` when there is
  no result (timeout, budget, memory-out), ``†`` when the explorer failed on the input (crash
  or bad input); the minimum traces and time of a row in bold. By default the paper's five
  columns (:data:`RVF_PAPER_COLUMNS`: RVF-SMC, VC-DPOR, Nidhugg/rfsc, DC-DPOR, Nidhugg/source
  as porlab's rvf, value-centric, rf, data-centric, source) when the results have them.
* :func:`godot_table` — Godot Table I: ``T+B`` executions (``T`` when B = 0) and seconds per
  configuration, ``⊙`` for no result, ``†`` for crashes.
* :func:`lapor_table` — LAPOR Tables 1–4: executions, then times, of every configuration given
  side by side (the paper's two, GenMC and LAPOR, or more), ``–`` for no result, the best of a
  row in bold.
* :func:`saver_table` — SAVER Table I: the complete executions (the paper reports only T) of
  every configuration given (default: none, spin-assume and saver of the loops suite, as the
  paper's GenMC without and with its spin heuristic and SAVER), then the time of the last
  one; ``⊙`` for no result, ``†`` for crashes and bad input.
* :func:`plain_table` — every row with its status and counts.

Traces are ``complete + blocked + errors``; times are the exploration's own seconds, printed
with three significant digits (``0.00312``, ``0.480``, ``12.5``; whole seconds from 100 s on).
:func:`check_columns` says which columns a table needs that a frame lacks.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

__all__ = [
    "REQUIRED_COLUMNS",
    "RVF_PAPER_COLUMNS",
    "SAVER_PAPER_COLUMNS",
    "Cell",
    "Table",
    "check_columns",
    "configs",
    "godot_table",
    "instances",
    "lapor_table",
    "latex_escape",
    "plain_table",
    "rvf_table",
    "saver_table",
    "table",
]

NO_RESULT = ("timeout", "budget", "memory")
FAILED = ("crash", "error")

#: The columns each table reads (``config`` may be ``explorer``, ``instance`` may be
#: ``program``, ``traces`` may be the three counts it sums).
REQUIRED_COLUMNS: dict[str, tuple[str, ...]] = {
    "rvf": ("instance", "config", "status", "traces", "seconds"),
    "godot": ("instance", "config", "status", "complete", "blocked", "errors", "seconds"),
    "lapor": ("instance", "config", "status", "complete", "blocked", "errors", "seconds"),
    "saver": ("instance", "config", "status", "complete", "seconds"),
    "plain": ("instance", "config", "status"),
}
#: RVF-SMC Tables 1–2's columns (RVF-SMC, VC-DPOR, Nidhugg/rfsc, DC-DPOR, Nidhugg/source) as
#: porlab's explorers: one per equivalence of the lattice, coarsest first.
RVF_PAPER_COLUMNS = ("rvf", "value-centric", "rf", "data-centric", "source")
#: SAVER Table I's columns (GenMC without and with its spin heuristic, SAVER) as the loop modes
#: of benchmarks/suites/loops.toml.
SAVER_PAPER_COLUMNS = ("none", "spin-assume", "saver")

_STAND_INS = {"config": ("explorer",), "instance": ("program",),
              "traces": ("complete", "blocked", "errors")}


def check_columns(df: Any, kind: str) -> None:
    """Raise ValueError naming the columns table ``kind`` needs and ``df`` lacks (a column
    counts as present when its stand-ins are: ``explorer`` for ``config``...)."""
    if kind not in REQUIRED_COLUMNS:
        raise ValueError(f"unknown table {kind!r} ({', '.join(REQUIRED_COLUMNS)})")
    have = set(df.columns)
    missing = [c for c in REQUIRED_COLUMNS[kind]
               if c not in have and not (c in _STAND_INS and set(_STAND_INS[c]) <= have)]
    if missing:
        raise ValueError(f"the {kind} table needs the column{'s' if len(missing) > 1 else ''} "
                         f"{', '.join(missing)}, which the results do not have")

_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
    "⊙": r"$\odot$", "†": r"\dag{}", "–": "--", "×": r"$\times$",
}  # fmt: skip


def latex_escape(text: str) -> str:
    """Escape LaTeX's special characters (and map ⊙ † – × to their LaTeX forms)."""
    return "".join(_LATEX_SPECIAL.get(c, c) for c in text)


@dataclasses.dataclass(frozen=True)
class Cell:
    """A table cell: its text and whether it is bold."""

    text: str
    bold: bool = False

    def markdown(self) -> str:
        """The cell in Markdown (``|`` escaped, ``**bold**``)."""
        t = self.text.replace("|", r"\|")
        return f"**{t}**" if self.bold and t else t

    def latex(self) -> str:
        """The cell in LaTeX (escaped, ``\\textbf{bold}``)."""
        t = latex_escape(self.text)
        return rf"\textbf{{{t}}}" if self.bold and t else t


@dataclasses.dataclass
class Table:
    """A rendered-to-be table: column groups (label, span) over the header, and rows."""

    header: list[str]
    rows: list[list[Cell]]
    groups: list[tuple[str, int]] | None = None

    def _flat_header(self) -> list[str]:
        if not self.groups:
            return list(self.header)
        out, i = [], 0
        for label, span in self.groups:
            for h in self.header[i : i + span]:
                out.append(f"{label} {h}".strip() if label else h)
            i += span
        return out

    def markdown(self) -> str:
        """A GitHub-flavoured Markdown table (groups folded into the column names)."""
        head = [Cell(h).markdown() for h in self._flat_header()]
        lines = ["| " + " | ".join(head) + " |",
                 "|" + "|".join(["---"] + ["---:"] * (len(head) - 1)) + "|"]
        lines += ["| " + " | ".join(c.markdown() for c in r) + " |" for r in self.rows]
        return "\n".join(lines)

    def latex(self) -> str:
        """A booktabs ``tabular``, groups as ``\\multicolumn`` headers over their columns."""
        n = len(self.header)
        out = [r"\begin{tabular}{l" + "r" * (n - 1) + "}", r"\toprule"]
        if self.groups:
            cells, rules, col = [], [], 1
            for label, span in self.groups:
                if span == 1 and not label:
                    cells.append("")
                else:
                    cells.append(rf"\multicolumn{{{span}}}{{c}}{{{latex_escape(label)}}}")
                    if label:
                        rules.append(rf"\cmidrule(lr){{{col}-{col + span - 1}}}")
                col += span
            out.append(" & ".join(cells) + r" \\")
            out.append(" ".join(rules))
        out.append(" & ".join(latex_escape(h) for h in self.header) + r" \\")
        out.append(r"\midrule")
        out += [" & ".join(c.latex() for c in r) + r" \\" for r in self.rows]
        out += [r"\bottomrule", r"\end{tabular}"]
        return "\n".join(out)

    def render(self, format: str = "markdown") -> str:
        """``markdown`` or ``latex``."""
        if format == "markdown":
            return self.markdown()
        if format == "latex":
            return self.latex()
        raise ValueError(f"unknown table format {format!r} (markdown or latex)")


# ---------------------------------------------------------------------------------------------
# Rows


def _records(df: Any) -> list[dict[str, Any]]:
    recs = df.astype(object).where(df.notna(), None).to_dict("records")
    for r in recs:
        if not r.get("config"):
            r["config"] = r.get("explorer")
        if not r.get("instance"):
            r["instance"] = r.get("program")
        if r.get("traces") is None and r.get("complete") is not None:
            r["traces"] = sum(int(r.get(k) or 0) for k in ("complete", "blocked", "errors"))
    return recs


def instances(df: Any) -> list[str]:
    """The benchmark instances of ``df`` in suite order (``seq``), first appearance first."""
    recs = _records(df)
    recs.sort(key=lambda r: (str(r.get("suite") or ""), _num(r.get("seq"), math.inf)))
    out: dict[str, None] = {}
    for r in recs:
        out.setdefault(str(r["instance"]), None)
    return list(out)


def configs(df: Any) -> list[str]:
    """The explorer configurations of ``df`` in suite order."""
    recs = _records(df)
    recs.sort(key=lambda r: (str(r.get("suite") or ""), _num(r.get("seq"), math.inf)))
    out: dict[str, None] = {}
    for r in recs:
        out.setdefault(str(r["config"]), None)
    return list(out)


def _num(v: Any, default: float = 0.0) -> float:
    return default if v is None else float(v)


def _grid(df: Any) -> dict[tuple[str, str], dict[str, Any]]:
    """(instance, config) → the row (the latest one when there are several)."""
    recs = _records(df)
    recs.sort(key=lambda r: str(r.get("timestamp") or ""))
    return {(str(r["instance"]), str(r["config"])): r for r in recs}


def _shown(df: Any, cfgs: Sequence[str], grid: Mapping[tuple[str, str], Any]) -> list[str]:
    """The instances with a row for at least one of the configurations shown."""
    return [i for i in instances(df) if any((i, c) in grid for c in cfgs)]


def _fmt_time(s: float) -> str:
    """Seconds with three significant digits (``0.00312``, ``0.480``, ``12.5``), whole seconds
    from 100 s on: a 3 ms run never shows as 0.00."""
    if s <= 0 or not math.isfinite(s):
        return f"{s:g}"
    if s >= 99.95:
        return f"{s:.0f}"
    decimals = max(0, 2 - math.floor(math.log10(s)))
    text = f"{s:.{decimals}f}"
    # Rounding up may add a digit (0.09996 -> 0.1000): drop the extra decimal.
    if decimals and len(text.replace(".", "").lstrip("0")) > 3:
        text = f"{s:.{decimals - 1}f}"
    return text


def _tb(r: Mapping[str, Any]) -> str:
    t, b, e = (int(r.get(k) or 0) for k in ("complete", "blocked", "errors"))
    s = f"{t}+{b}" if b else str(t)
    return s + (f" ({e} err)" if e else "")


def _bold_min(cells: list[Cell], values: list[float | None]) -> list[Cell]:
    """Bold the cells whose value shows as the minimum: ties are all bold, but nothing is bold
    when fewer than two cells have values or every value shows the same."""
    shown = [(c, v) for c, v in zip(cells, values, strict=True) if v is not None]
    if len(shown) < 2 or len({c.text for c, _ in shown}) == 1:
        return cells
    best = min(shown, key=lambda cv: cv[1])[0].text
    return [dataclasses.replace(c, bold=True) if v is not None and c.text == best else c
            for c, v in zip(cells, values, strict=True)]


def _pick(cfgs: Sequence[str] | None, df: Any, paper: Sequence[str] = ()) -> list[str]:
    have = configs(df)
    if not cfgs:
        return list(paper) if paper and all(c in have for c in paper) else have
    missing = [c for c in cfgs if c not in have]
    if missing:
        raise ValueError(f"no rows for {', '.join(missing)} (have: {', '.join(have)})")
    return list(cfgs)


def _status_cell(r: Mapping[str, Any] | None, none: str, failed: str) -> Cell | None:
    if r is None:
        return Cell("")
    if r["status"] in NO_RESULT:
        return Cell(none)
    if r["status"] in FAILED:
        return Cell(failed)
    return None


# ---------------------------------------------------------------------------------------------
# Tables


def rvf_table(df: Any, explorers: Sequence[str] | None = None, *,
              format: str = "markdown") -> str:
    """RVF-SMC Tables 1–2: one row per benchmark instance; per explorer configuration, traces
    and time (s). ``-`` for timeouts, budgets and memory-outs, ``†`` for crashes and bad input;
    the minimum traces and the minimum time of a row are bold. Without ``explorers``: the
    paper's columns (:data:`RVF_PAPER_COLUMNS`) if the results have them all, else every
    configuration."""
    cfgs = _pick(explorers, df, RVF_PAPER_COLUMNS)
    grid = _grid(df)
    rows = []
    for inst in _shown(df, cfgs, grid):
        traces: list[Cell] = []
        times: list[Cell] = []
        tv: list[float | None] = []
        sv: list[float | None] = []
        for c in cfgs:
            r = grid.get((inst, c))
            special = _status_cell(r, "-", "†")
            if special is not None or r is None:
                traces.append(special or Cell(""))
                times.append(special or Cell(""))
                tv.append(None)
                sv.append(None)
                continue
            traces.append(Cell(str(int(r["traces"]))))
            times.append(Cell(_fmt_time(float(r["seconds"]))))
            tv.append(float(r["traces"]))
            sv.append(float(r["seconds"]))
        traces, times = _bold_min(traces, tv), _bold_min(times, sv)
        rows.append([Cell(inst)] + [x for pair in zip(traces, times, strict=True) for x in pair])
    header = ["Benchmark"] + ["traces", "time (s)"] * len(cfgs)
    groups = [("", 1)] + [(c, 2) for c in cfgs]
    return Table(header, rows, groups).render(format)


def godot_table(df: Any, configs: Sequence[str] | None = None, *,
                format: str = "markdown") -> str:
    """Godot Table I: one row per benchmark instance; per configuration the executions as
    ``T+B`` (complete + blocked, ``T`` alone when B = 0) and the time in seconds. ``⊙`` for
    no result (timeout, budget, memory-out), ``†`` for crashes and bad input."""
    cfgs = _pick(configs, df)
    grid = _grid(df)
    rows = []
    for inst in _shown(df, cfgs, grid):
        row = [Cell(inst)]
        for c in cfgs:
            r = grid.get((inst, c))
            special = _status_cell(r, "⊙", "†")
            if special is not None or r is None:
                row += [special or Cell(""), special or Cell("")]
            else:
                row += [Cell(_tb(r)), Cell(_fmt_time(float(r["seconds"])))]
        rows.append(row)
    header = ["Benchmark"] + ["Execs", "Time"] * len(cfgs)
    groups = [("", 1)] + [(c, 2) for c in cfgs]
    return Table(header, rows, groups).render(format)


def lapor_table(df: Any, explorers: Sequence[str] | None = None, *,
                format: str = "markdown") -> str:
    """LAPOR Tables 1–4: the executions (``T+B``), then the times, of every configuration given
    (default: every configuration of the results, in suite order) side by side, the best of a
    row in bold; ``–`` for no result, ``†`` for crashes and bad input. The paper compares two
    (GenMC and LAPOR); any number can be shown."""
    cfgs = _pick(explorers, df)
    if not cfgs:
        raise ValueError("the LAPOR table needs at least one explorer configuration")
    grid = _grid(df)
    rows = []
    for inst in _shown(df, cfgs, grid):
        execs: list[Cell] = []
        times: list[Cell] = []
        ev: list[float | None] = []
        sv: list[float | None] = []
        for c in cfgs:
            r = grid.get((inst, c))
            special = _status_cell(r, "–", "†")
            if special is not None or r is None:
                execs.append(special or Cell(""))
                times.append(special or Cell(""))
                ev.append(None)
                sv.append(None)
            else:
                execs.append(Cell(_tb(r)))
                times.append(Cell(_fmt_time(float(r["seconds"]))))
                ev.append(float(r["traces"]))
                sv.append(float(r["seconds"]))
        rows.append([Cell(inst), *_bold_min(execs, ev), *_bold_min(times, sv)])
    header = ["Benchmark", *cfgs, *cfgs]
    groups = [("", 1), ("Execs", len(cfgs)), ("Time (s)", len(cfgs))]
    return Table(header, rows, groups).render(format)


def saver_table(df: Any, configs: Sequence[str] | None = None, *,
                format: str = "markdown") -> str:
    """SAVER Table I: one row per benchmark instance; the complete executions of every
    configuration (the paper reports only T), then the time of the last configuration (the
    paper times only SAVER). ``⊙`` for no result (timeout, budget, memory-out), ``†`` for
    crashes and bad input. Without ``configs``: :data:`SAVER_PAPER_COLUMNS` if the results
    have them all, else every configuration."""
    cfgs = _pick(configs, df, SAVER_PAPER_COLUMNS)
    if not cfgs:
        raise ValueError("the SAVER table needs at least one configuration")
    grid = _grid(df)
    rows = []
    for inst in _shown(df, cfgs, grid):
        row = [Cell(inst)]
        for c in cfgs:
            r = grid.get((inst, c))
            special = _status_cell(r, "⊙", "†")
            row.append(special if special is not None or r is None
                       else Cell(str(int(r["complete"]))))
        r = grid.get((inst, cfgs[-1]))
        special = _status_cell(r, "⊙", "†")
        row.append(special if special is not None or r is None
                   else Cell(_fmt_time(float(r["seconds"]))))
        rows.append(row)
    header = ["Benchmark", *[f"{c} Execs" for c in cfgs], f"{cfgs[-1]} Time"]
    return Table(header, rows).render(format)


def plain_table(df: Any, *, format: str = "markdown") -> str:
    """Every row: benchmark, configuration, status, complete, blocked (and how many of those the
    loop bound blocked: complete + bound is GenMC's complete count), errors, events, time and
    peak memory (MiB), in suite order."""
    order = {inst: i for i, inst in enumerate(instances(df))}
    corder = {c: i for i, c in enumerate(configs(df))}
    recs = sorted(_records(df), key=lambda r: (order[str(r["instance"])],
                                                corder[str(r["config"])]))

    def num(v: Any, f: Callable[[Any], str] = lambda v: str(int(v))) -> str:
        return "" if v is None else f(v)

    def bound(r: Any) -> str:
        # blocked by the loop bound: GenMC counts these executions as complete
        raw = r.get("blocked_by")
        if r.get("blocked") is None or not isinstance(raw, str) or not raw:
            return ""
        return str(int(json.loads(raw).get("loop-bound", 0)))

    rows = [[Cell(str(r["instance"])), Cell(str(r["config"])), Cell(str(r["status"])),
             Cell(num(r.get("complete"))), Cell(num(r.get("blocked"))), Cell(bound(r)),
             Cell(num(r.get("errors"))), Cell(num(r.get("events"))),
             Cell(num(r.get("seconds"), lambda v: _fmt_time(float(v)))),
             Cell(num(r.get("peak_memory_bytes"), lambda v: f"{int(v) / 2**20:.1f}"))]
            for r in recs]
    header = ["Benchmark", "Explorer", "Status", "Complete", "Blocked", "of which bound",
              "Errors", "Events", "Time (s)", "Memory (MiB)"]
    return Table(header, rows).render(format)


def table(df: Any, kind: str, *, explorers: Sequence[str] | None = None,
          format: str = "markdown") -> str:
    """Dispatch by name: ``rvf``, ``godot``, ``lapor``, ``saver`` or ``plain``; raises
    ValueError when ``df`` lacks a column the table needs."""
    check_columns(df, kind)
    if kind == "rvf":
        return rvf_table(df, explorers, format=format)
    if kind == "godot":
        return godot_table(df, explorers, format=format)
    if kind == "lapor":
        return lapor_table(df, explorers, format=format)
    if kind == "saver":
        return saver_table(df, explorers, format=format)
    if kind == "plain":
        if explorers:
            df = df[df["config"].isin(list(explorers))]
        return plain_table(df, format=format)
    raise ValueError(f"unknown table {kind!r} (rvf, godot, lapor, saver or plain)")

