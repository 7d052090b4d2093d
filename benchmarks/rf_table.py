"""The table of issue 16: programs x optimal / rf / rvf (traces, seconds) and rf / optimal.

Reads the results of `porlab bench benchmarks/suites/shared.toml -o shared.parquet` and prints
one markdown row per program instance: for each configuration its traces (complete + blocked +
errors) and seconds, then the ratio of rf's time to optimal's (and of the classic engine's, when
it was run). Runs that did not finish show their status instead of numbers.

    python benchmarks/rf_table.py shared.parquet
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results", help="parquet file written by porlab bench")
    args = ap.parse_args()
    import pandas as pd

    print(table(pd.read_parquet(args.results)))


if __name__ == "__main__":
    main()
