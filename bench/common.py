"""Small shared pieces of the benchmarks: percentiles and the metric record."""

from __future__ import annotations

import json
import os
import statistics
import sys
from typing import Any

#: ``BENCH_SMOKE=1``: every benchmark on tiny inputs (the normal test suite runs them so, so
#: ``make bench`` cannot rot unseen); the figures then mean nothing, only that the code runs
SMOKE = os.environ.get("BENCH_SMOKE") == "1"


def size(full: float, smoke: float) -> Any:
    """``full`` for ``make bench``, ``smoke`` under ``BENCH_SMOKE=1``."""
    return smoke if SMOKE else full


def percentile(samples: list[float], pct: float) -> float:
    """Nearest-rank percentile (pct in 0..100) of a non-empty sample."""
    ordered = sorted(samples)
    rank = max(1, min(len(ordered), round(pct / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def median(samples: list[float]) -> float:
    return statistics.median(samples)


def metric(value: float, unit: str, target: str, **extra: Any) -> dict[str, Any]:
    """One figure as bench/results.json stores it; ``target`` is written like "<= 5"."""
    return {"value": round(value, 4), "unit": unit, "target": target, **extra}


def emit(metrics: dict[str, Any]) -> None:
    json.dump(metrics, sys.stdout, indent=2)
    sys.stdout.write("\n")
