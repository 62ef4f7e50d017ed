"""`make bench`: run every benchmark in its own process, collect bench/results.json and docs/performance.md.

Each module in ``MODULES`` prints one JSON object ``{metric: {"value", "unit", "target", ...}}``.
A module that fails is reported with its error and the others still run. The machine the figures
were made on goes to bench/run.json, so that ``python -m bench --markdown`` can write
docs/performance.md again from the stored figures without measuring anything.
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


#: what a reader is told first: the page is written by a program, from which files, and where the prose lives
GENERATED = ("*This page is generated: `make bench` (that is, `python -m bench`) measures and writes it from "
             "`bench/results.json` and `bench/run.json`; `python -m bench --markdown` writes it again from those "
             "files without measuring. Do not edit it by hand: how the figures are made, the Pi's estimates and "
             "the choices they led to are in [performance-notes.md](performance-notes.md).*")


def this_machine() -> dict:
    """The machine and the day the figures are made on, as bench/run.json keeps them."""
    return {"machine": platform.machine(), "python": f"{platform.python_implementation()} {platform.python_version()}",
            "date": time.strftime("%Y-%m-%d"), "cores": os.cpu_count()}


def write_markdown(results: dict, errors: dict[str, str], run: dict) -> str:
    lines = [
        "# Performance",
        "",
        GENERATED,
        "",
        f"Measured by `make bench` on {run['machine']} with {run['python']}, {run['date']}, {run['cores']} cores, "
        f"1-minute load average {_loads(results)} while the modules ran (`load_1min` of each figure: the "
        "machine's, not only ours). Medians over repeated runs unless the metric says p99 or worst case.",
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
    return "\n".join(lines) + "\n"


def rewrite_markdown() -> int:
    """docs/performance.md again from bench/results.json and bench/run.json; nothing is measured."""
    results = json.loads((ROOT / "bench" / "results.json").read_text())
    run = json.loads((ROOT / "bench" / "run.json").read_text())
    (ROOT / "docs" / "performance.md").write_text(write_markdown(results, {}, run))
    return 0


def main() -> int:
    if sys.argv[1:] == ["--markdown"]:
        return rewrite_markdown()
    if sys.argv[1:]:
        print("usage: python -m bench [--markdown]", file=sys.stderr)
        return 2
    run = this_machine()
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
    (ROOT / "bench" / "run.json").write_text(json.dumps(run, indent=2) + "\n")
    (ROOT / "docs" / "performance.md").write_text(write_markdown(results, errors, run))
    json.dump(results, sys.stdout, indent=2)
    print()
    return 1 if errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
