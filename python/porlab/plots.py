"""Plots from benchmark result rows (:mod:`porlab.bench`), with matplotlib's Agg canvas.

* :func:`scatter` — one explorer against another, log-log, with the equality line and the two
  order-of-magnitude lines ``y = 10x`` and ``y = x/10`` (RVF-SMC Figures 7–10). Runs without a
  result on one side (timeout, budget, memory-out) are drawn on the "no result" border.
* :func:`growth` — a count (complete traces, blocked traces, all traces...) against a scaling
  parameter, one line per explorer configuration, log y.
* :func:`time_vs_n` — exploration time against a scaling parameter; timeouts on their line.

Every function returns a :class:`matplotlib.figure.Figure` and, given ``path`` (one file name or
several), saves it to exactly those files in the format each name's suffix says: ``out.svg`` is
an SVG, ``out.pdf`` a PDF, ``["out.png", "out.pdf"]`` both. No pyplot state is touched.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from porlab.report import NO_RESULT, configs, instances

__all__ = ["formats", "growth", "output_paths", "save", "scatter", "time_vs_n"]

METRICS = ("traces", "complete", "blocked", "errors", "events", "seconds")
_LABELS = {"traces": "traces (complete + blocked + errors)", "complete": "complete traces",
           "blocked": "blocked traces", "errors": "error traces", "events": "events",
           "seconds": "time (s)"}
_MIN_SECONDS = 1e-6  # times below this are drawn at it (log scales have no 0)


PathArg = str | os.PathLike[str] | Sequence[str | os.PathLike[str]]


def formats() -> list[str]:
    """The file suffixes a figure can be saved as (``png``, ``pdf``, ``svg``, ...)."""
    return sorted(FigureCanvasAgg(Figure()).get_supported_filetypes())


def output_paths(path: PathArg) -> list[Path]:
    """The files ``path`` names (one path or several) as Paths; raises ValueError for none or
    for a suffix matplotlib cannot write."""
    items: Iterable[str | os.PathLike[str]] = (
        [path] if isinstance(path, str | os.PathLike) else path)
    out = [Path(p) for p in items]
    if not out:
        raise ValueError("no file to save the figure to")
    known = formats()
    for p in out:
        suffix = p.suffix.lower().lstrip(".")
        if suffix not in known:
            raise ValueError(f"{p}: a figure file name ends in one of "
                             f"{', '.join('.' + k for k in known)}")
    return out


def save(fig: Figure, path: PathArg) -> list[Path]:
    """Save ``fig`` to each file named (one path or several), in the format of its suffix
    (``.png`` at 150 dpi, ``.pdf``, ``.svg``...); returns the paths written. Raises ValueError,
    before writing anything, for a suffix matplotlib cannot write."""
    out = output_paths(path)
    for p in out:
        p.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(p, dpi=150 if p.suffix.lower() == ".png" else None, bbox_inches="tight")
    return out


def _figure(size: tuple[float, float] = (5.0, 4.2)) -> Figure:
    fig = Figure(figsize=size, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def _rows(df: Any) -> list[dict[str, Any]]:
    recs = df.astype(object).where(df.notna(), None).to_dict("records")
    for r in recs:
        r["config"] = r.get("config") or r.get("explorer")
        r["instance"] = r.get("instance") or r.get("program")
        if r.get("traces") is None and r.get("complete") is not None:
            r["traces"] = sum(int(r.get(k) or 0) for k in ("complete", "blocked", "errors"))
    return recs


def _value(r: dict[str, Any], metric: str) -> float | None:
    if r["status"] != "ok" or r.get(metric) is None:
        return None
    v = float(r[metric])
    return max(v, _MIN_SECONDS) if metric == "seconds" else v


def _check_metric(metric: str) -> None:
    if metric not in METRICS:
        raise ValueError(f"unknown metric {metric!r} ({', '.join(METRICS)})")


def scatter(df: Any, x_explorer: str, y_explorer: str, metric: str = "traces", *,
            path: PathArg | None = None, title: str | None = None) -> Figure:
    """``y_explorer`` against ``x_explorer`` per benchmark instance, log-log, with ``y = x``
    and the order-of-magnitude lines ``y = 10x`` and ``y = x/10``. A point below the diagonal
    means ``y_explorer`` needed fewer traces (or less time). Instances where one side has no
    result are drawn as crosses on the border beyond the largest value."""
    _check_metric(metric)
    have = configs(df)
    for e in (x_explorer, y_explorer):
        if e not in have:
            raise ValueError(f"no rows for {e} (have: {', '.join(have)})")
    grid = {(r["instance"], r["config"]): r for r in _rows(df)}
    both: list[tuple[float, float]] = []
    border: list[tuple[float | None, float | None]] = []
    for inst in instances(df):
        rx, ry = grid.get((inst, x_explorer)), grid.get((inst, y_explorer))
        if rx is None or ry is None:
            continue
        vx, vy = _value(rx, metric), _value(ry, metric)
        if vx is not None and vy is not None:
            both.append((vx, vy))
        elif (vx is not None or rx["status"] in NO_RESULT) and (
                vy is not None or ry["status"] in NO_RESULT):
            border.append((vx, vy))
    values = [v for p in both for v in p] + [v for p in border for v in p if v is not None]
    lo = min([v for v in values if v > 0], default=1.0)
    hi = max(values, default=10.0)
    lo = 10 ** math.floor(math.log10(lo))
    edge = 10 ** (math.ceil(math.log10(hi)) + (0.5 if border else 0.0))
    hi_lim = edge * (2 if border else 1.25)
    lo_lim = lo / 1.25 if lo > 0 else 0.5
    fig = _figure()
    ax = fig.add_subplot()
    xs = [lo_lim, hi_lim]
    ax.plot(xs, xs, color="0.3", lw=1, label="y = x", zorder=1)
    ax.plot(xs, [10 * v for v in xs], color="0.6", lw=0.8, ls="--", label="y = 10x / x/10",
            zorder=1)
    ax.plot(xs, [v / 10 for v in xs], color="0.6", lw=0.8, ls="--", zorder=1)
    if both:
        ax.scatter([p[0] for p in both], [p[1] for p in both], s=22, alpha=0.8,
                   color="tab:blue", edgecolors="none", label=f"{len(both)} benchmarks",
                   zorder=3)
    if border:
        bx = [edge if x is None else x for x, _ in border]
        by = [edge if y is None else y for _, y in border]
        ax.scatter(bx, by, marker="x", s=30, color="tab:red", zorder=3,
                   label=f"{len(border)} without a result on one side")
        ax.axvline(edge, color="tab:red", lw=0.6, ls=":")
        ax.axhline(edge, color="tab:red", lw=0.6, ls=":")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(lo_lim, hi_lim)
    ax.set_ylim(lo_lim, hi_lim)
    ax.set_aspect("equal")
    ax.set_xlabel(f"{x_explorer}: {_LABELS[metric]}")
    ax.set_ylabel(f"{y_explorer}: {_LABELS[metric]}")
    ax.set_title(title or f"{y_explorer} vs {x_explorer} ({metric})")
    ax.legend(loc="upper left", fontsize=8, framealpha=0.9, edgecolor="none")
    ax.grid(True, which="major", lw=0.3, alpha=0.5)
    if path is not None:
        save(fig, path)
    return fig


def _series(df: Any, program: str, param: str, metric: str,
            explorers: Sequence[str] | None) -> tuple[dict[str, list[tuple[float, float]]],
                                                     dict[str, list[tuple[float, float]]]]:
    _check_metric(metric)
    col = f"param_{param}"
    rows = [r for r in _rows(df) if r.get("program") == program]
    if not rows:
        have = sorted({str(r.get("program")) for r in _rows(df)})
        raise ValueError(f"no rows for program {program!r} (have: {', '.join(have)})")
    if not any(r.get(col) is not None for r in rows):
        raise ValueError(f"program {program!r} has no parameter {param!r}")
    cfgs = list(explorers) if explorers else [c for c in configs(df)
                                              if any(r["config"] == c for r in rows)]
    ok: dict[str, list[tuple[float, float]]] = {c: [] for c in cfgs}
    failed: dict[str, list[tuple[float, float]]] = {c: [] for c in cfgs}
    for r in rows:
        if r["config"] not in ok or r.get(col) is None:
            continue
        x = float(r[col])
        v = _value(r, metric)
        if v is not None:
            ok[r["config"]].append((x, v))
        elif r["status"] in NO_RESULT:
            failed[r["config"]].append((x, float(r.get("timeout") or 0)))
    for d in (ok, failed):
        for c in d:
            d[c].sort()
    return ok, failed


_MARKERS = "osD^vP*X"


def _lines(ax: Any, series: dict[str, list[tuple[float, float]]]) -> None:
    for i, (c, pts) in enumerate(series.items()):
        if pts:
            # Shrinking markers keep series with equal values visible (concentric markers).
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=_MARKERS[i % len(_MARKERS)],
                    ms=max(3.0, 7.5 - 1.3 * i), lw=1.2, label=c, alpha=0.85, color=f"C{i}",
                    clip_on=False, zorder=2 + i)


def _no_result(ax: Any, series: dict[str, list[tuple[float, float]]], order: list[str]) -> None:
    """Crosses in each configuration's colour, one legend entry for all."""
    if not any(series.values()):
        return
    for c, pts in series.items():
        if pts:
            ax.scatter([p[0] for p in pts], [p[1] for p in pts], marker="x", s=40, zorder=3,
                       color=f"C{order.index(c)}")
    ax.scatter([], [], marker="x", s=40, color="0.3",
               label="no result (timeout, budget, memory)")


def growth(df: Any, program: str, param: str = "n", metric: str = "complete", *,
           explorers: Sequence[str] | None = None,
           path: PathArg | None = None, title: str | None = None) -> Figure:
    """``metric`` (complete traces by default: the partition size each explorer found) of
    ``program`` against its parameter ``param``, one line per explorer configuration, log y
    (symmetric-log when a count is 0). Runs without a result are marked at the top."""
    ok, failed = _series(df, program, param, metric, explorers)
    fig = _figure((5.5, 4.0))
    ax = fig.add_subplot()
    _lines(ax, ok)
    ys = [p[1] for pts in ok.values() for p in pts]
    top = max(ys, default=1.0) * 3
    _no_result(ax, {c: [(x, top) for x, _ in pts] for c, pts in failed.items()}, list(ok))
    if any(y <= 0 for y in ys):
        ax.set_yscale("symlog", linthresh=1)
        ax.set_ylim(bottom=-0.5)
    else:
        ax.set_yscale("log")
    xs = sorted({p[0] for pts in [*ok.values(), *failed.values()] for p in pts})
    if xs and all(float(x).is_integer() for x in xs):
        ax.set_xticks(xs)
        ax.set_xticklabels([str(int(x)) for x in xs])
    ax.set_xlabel(param)
    ax.set_ylabel(_LABELS[metric])
    ax.set_title(title or f"{program}: {_LABELS[metric]}")
    ax.legend(fontsize=8, frameon=False)
    ax.grid(True, which="major", lw=0.3, alpha=0.5)
    if path is not None:
        save(fig, path)
    return fig


def time_vs_n(df: Any, program: str, param: str = "n", *,
              explorers: Sequence[str] | None = None,
              path: PathArg | None = None, title: str | None = None) -> Figure:
    """Exploration time of ``program`` against its parameter ``param`` per explorer
    configuration, log y; timed-out runs are crosses on their timeout line."""
    ok, failed = _series(df, program, param, "seconds", explorers)
    fig = _figure((5.5, 4.0))
    ax = fig.add_subplot()
    _lines(ax, ok)
    limits = sorted({p[1] for pts in failed.values() for p in pts if p[1] > 0})
    _no_result(ax, {c: [(x, t if t > 0 else _MIN_SECONDS) for x, t in pts]
                    for c, pts in failed.items()}, list(ok))
    for t in limits:
        ax.axhline(t, color="0.5", lw=0.6, ls=":")
    ax.set_yscale("log")
    xs = sorted({p[0] for pts in [*ok.values(), *failed.values()] for p in pts})
    if xs and all(float(x).is_integer() for x in xs):
        ax.set_xticks(xs)
        ax.set_xticklabels([str(int(x)) for x in xs])
    ax.set_xlabel(param)
    ax.set_ylabel("time (s)")
    ax.set_title(title or f"{program}: exploration time")
    ax.legend(fontsize=8, frameon=False)
    ax.grid(True, which="major", lw=0.3, alpha=0.5)
    if path is not None:
        save(fig, path)
    return fig
