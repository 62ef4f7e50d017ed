"""`make bench`: run every benchmark in its own process, collect bench/results.json and docs/performance.md.

Each module in ``MODULES`` prints one JSON object ``{metric: {"value", "unit", "target", ...}}``.
A module that fails is reported with its error and the others still run.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODULES = [
    "bench.journal",
    "bench.playout",
    "bench.dice_hint",
    "bench.moves",
    "bench.sand_timer",
    "bench.button_oled",
    "bench.oled_bus",
    "bench.server",
    "bench.join_guessing",
    "bench.course",
    "bench.club",
    "bench.at_rest",
]


def run_module(name: str) -> tuple[dict, str | None]:
    proc = subprocess.run([sys.executable, "-m", name], cwd=ROOT, capture_output=True, text=True, timeout=1800)
    if proc.returncode != 0:
        return {}, (proc.stderr.strip().splitlines() or ["failed"])[-1]
    try:
        return json.loads(proc.stdout), None
    except json.JSONDecodeError:
        return {}, "printed no JSON"


def meets(value: float, target: str) -> bool:
    op, _, bound = target.partition(" ")
    return value <= float(bound) if op == "<=" else value >= float(bound)


def _loads(results: dict) -> str:
    loads = [x for rec in results.values() for x in rec.get("load_1min", [])]
    return f"{min(loads)}-{max(loads)}" if loads else "unknown"


def write_markdown(results: dict, errors: dict[str, str]) -> str:
    lines = [
        "# Performance",
        "",
        f"Measured by `make bench` on {platform.machine()} with {platform.python_implementation()} "
        f"{platform.python_version()}, {time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores, 1-minute load average "
        f"{_loads(results)} while the modules ran (`load_1min` of each figure: the machine's, not only ours). "
        "Medians over repeated runs unless the metric says p99 or worst case. Raw figures: `bench/results.json`.",
        "",
        "| metric | value | unit | target | met | command |",
        "|---|---|---|---|---|---|",
    ]
    for name, rec in results.items():
        ok = "yes" if meets(rec["value"], rec["target"]) else "**no**"
        lines.append(f"| `{name}` | {rec['value']} | {rec['unit']} | {rec['target']} | {ok} | "
                     f"`python -m {rec['module']}` |")
    extras = [(n, r) for n, r in results.items() if set(r) - {"value", "unit", "target", "module"}]
    if extras:
        lines += ["", "## Details", ""]
        for name, rec in extras:
            detail = {k: v for k, v in rec.items() if k not in {"value", "unit", "target", "module"}}
            lines.append(f"- `{name}`: {json.dumps(detail)}")
    if errors:
        lines += ["", "## Not measured", ""]
        lines += [f"- `{m}`: {e}" for m, e in errors.items()]
    notes = ROOT / "docs" / "performance-notes.md"
    if notes.exists():
        lines += ["", notes.read_text().strip()]
    return "\n".join(lines) + "\n"


def main() -> int:
    results: dict[str, dict] = {}
    errors: dict[str, str] = {}
    for name in MODULES:
        if not (ROOT / (name.replace(".", "/") + ".py")).exists():
            errors[name] = "not written yet"
            continue
        load_before = round(os.getloadavg()[0], 2)
        figures, error = run_module(name)
        load = [load_before, round(os.getloadavg()[0], 2)]
        if error:
            errors[name] = error
        for metric, rec in figures.items():
            # the machine's 1-minute load average before and after the module: a figure made on a
            # busy (shared) machine says so
            results[metric] = {**rec, "module": name, "load_1min": load}
        print(f"{name}: {error or ', '.join(figures)}", file=sys.stderr)
    (ROOT / "bench" / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    (ROOT / "docs" / "performance.md").write_text(write_markdown(results, errors))
    json.dump(results, sys.stdout, indent=2)
    print()
    return 1 if errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
