"""The table of issue 16: programs x optimal / rf / rvf (traces, seconds) and rf / optimal.

Reads the results of `porlab bench benchmarks/suites/shared.toml -o shared.parquet` and prints
one markdown row per program instance: for each configuration its traces (complete + blocked +
errors) and seconds, then the ratio of rf's time to optimal's (and of the classic engine's, when
it was run). Runs that did not finish show their status instead of numbers.

    python benchmarks/rf_table.py shared.parquet

`--direct` runs the suite's programs itself instead, in this process: for each instance the
configurations back to back (so that they share the machine's load), each `--repeat` times, and
prints medians of wall and CPU seconds, with rf/optimal ratios of both. `--only casrot,readers`
restricts the programs, `--small` uses the small parameters.

    python benchmarks/rf_table.py --direct benchmarks/suites/shared.toml --repeat 3
"""

from __future__ import annotations

import argparse
import math
from typing import Any

CONFIGS = ("optimal", "rf", "rf-classic", "rvf")


def _cell(row: dict[str, Any] | None) -> str:
    if row is None:
        return "-"
    if row["status"] != "ok":
        return str(row["status"])
    traces = int(row["complete"]) + int(row["blocked"]) + int(row["errors"])
    return f"{traces} / {float(row['seconds']):.3g}s"


def _ratio(a: dict[str, Any] | None, b: dict[str, Any] | None) -> float | None:
    if a is None or b is None or a["status"] != "ok" or b["status"] != "ok":
        return None
    # (times below 0.1 ms are noise: both are counted as 0.1 ms)
    return max(float(a["seconds"]), 1e-4) / max(float(b["seconds"]), 1e-4)


def _fmt(ratio: float | None) -> str:
    return "-" if ratio is None else f"{ratio:.3g}"


def table(df: Any) -> str:
    rows: dict[str, dict[str, dict[str, Any]]] = {}
    order: list[str] = []
    for rec in df.to_dict("records"):
        inst = str(rec["instance"])
        if inst not in rows:
            rows[inst] = {}
            order.append(inst)
        rows[inst][str(rec["config"])] = rec
    shown = [c for c in CONFIGS if any(c in r for r in rows.values())]
    head = ["program"] + [f"{c} traces / time" for c in shown] + ["rf/optimal"]
    if "rf-classic" in shown:
        head.append("classic/optimal")
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    logs: list[float] = []
    for inst in order:
        r = rows[inst]
        cells = [inst] + [_cell(r.get(c)) for c in shown]
        ratio = _ratio(r.get("rf"), r.get("optimal"))
        cells.append(_fmt(ratio))
        if ratio is not None:
            logs.append(math.log(ratio))
        if "rf-classic" in shown:
            cells.append(_fmt(_ratio(r.get("rf-classic"), r.get("optimal"))))
        lines.append("| " + " | ".join(cells) + " |")
    if logs:
        lines.append(f"\ngeometric mean of rf/optimal: {math.exp(sum(logs) / len(logs)):.2f}")
    return "\n".join(lines)


def _instances(prog: dict[str, Any], small: bool) -> list[dict[str, Any]]:
    if small and "small_params" in prog:
        return [dict(p) for p in prog["small_params"]]
    if "params" in prog and not (small and "small_parameters" in prog):
        return [dict(p) for p in prog["params"]]
    grid = prog.get("small_parameters" if small and "small_parameters" in prog else "parameters",
                    {})
    out: list[dict[str, Any]] = [{}]
    for key, values in grid.items():
        out = [{**o, key: v} for o in out for v in values]
    return out


def direct(suite_path: str, repeat: int, only: set[str], small: bool, labels: set[str]) -> str:
    import inspect
    import statistics
    import time
    import tomllib
    from pathlib import Path

    import porlab

    suite_file = Path(suite_path)
    suite = tomllib.loads(suite_file.read_text())
    root = (suite_file.parent / suite.get("root", ".")).resolve()
    configs: list[tuple[str, str, dict[str, Any]]] = []
    for c in suite["explorers"]:
        if isinstance(c, str):
            configs.append((c, c, {}))
        else:
            configs.append((c.get("label", c["name"]), c["name"], dict(c.get("options", {}))))
    if labels:
        configs = [c for c in configs if c[0] in labels]
    own = set(inspect.signature(porlab.load_c).parameters) - {"path", "defines"}
    head = ["program"] + [f"{label} traces / wall / cpu" for label, _, _ in configs]
    head += ["rf/optimal wall", "rf/optimal cpu"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    logs: list[float] = []
    for prog in suite["programs"]:
        if only and prog["name"] not in only:
            continue
        for params in _instances(prog, small):
            opts = {k: v for k, v in params.items() if k in own}
            defines = {k: v for k, v in params.items() if k not in own}
            program = porlab.load_c(str(root / prog["path"]), defines=defines, **opts)
            times: dict[str, tuple[float, float]] = {}
            cells = [prog["name"] + "(" + ",".join(f"{k}={v}" for k, v in params.items()) + ")"]
            walls: dict[str, list[float]] = {label: [] for label, _, _ in configs}
            cpus: dict[str, list[float]] = {label: [] for label, _, _ in configs}
            traces: dict[str, int] = {}
            for _ in range(repeat):
                for label, name, options in configs:
                    w0, c0 = time.perf_counter(), time.process_time()
                    res = porlab.explore(program, name, max_seconds=600, **options)
                    walls[label].append(time.perf_counter() - w0)
                    cpus[label].append(time.process_time() - c0)
                    traces[label] = res.complete + res.blocked + res.errors
            for label, _, _ in configs:
                times[label] = (statistics.median(walls[label]), statistics.median(cpus[label]))
                wall, cpu = times[label]
                cells.append(f"{traces[label]} / {wall:.3g}s / {cpu:.3g}s")
            if "rf" in times and "optimal" in times:
                rw = max(times["rf"][0], 1e-4) / max(times["optimal"][0], 1e-4)
                rc = max(times["rf"][1], 1e-4) / max(times["optimal"][1], 1e-4)
                cells += [f"{rw:.3g}", f"{rc:.3g}"]
                logs.append(math.log(rc))
            else:
                cells += ["-", "-"]
            lines.append("| " + " | ".join(cells) + " |")
            print(lines[-1], flush=True)
    if logs:
        lines.append(f"\ngeometric mean of rf/optimal (cpu): {math.exp(sum(logs) / len(logs)):.2f}")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results", help="parquet file written by porlab bench (--direct: a suite)")
    ap.add_argument("--direct", action="store_true", help="run the suite here, back to back")
    ap.add_argument("--repeat", type=int, default=3, help="--direct: runs per configuration")
    ap.add_argument("--only", default="", help="--direct: comma-separated program names")
    ap.add_argument("--configs", default="", help="--direct: comma-separated config labels")
    ap.add_argument("--small", action="store_true", help="--direct: the small parameters")
    args = ap.parse_args()
    if args.direct:
        only = {p for p in args.only.split(",") if p}
        labels = {c for c in args.configs.split(",") if c}
        print(direct(args.results, args.repeat, only, args.small, labels))
        return
    import pandas as pd

    print(table(pd.read_parquet(args.results)))


if __name__ == "__main__":
    main()
