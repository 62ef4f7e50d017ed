"""`make bench` cannot rot unseen: every benchmark module imports and runs, on tiny inputs.

``bench.dice_hint`` imported a name its game no longer exported and nothing noticed until
someone ran ``make bench``. Here each module in ``bench.MODULES`` runs exactly as
``make bench`` runs it (``python -m bench.X`` in its own process) with ``BENCH_SMOKE=1``,
which shrinks its loops; the figures mean nothing, the records must be complete.
"""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import bench
from bench.__main__ import MODULES, meets, run_module


def test_every_bench_file_imports() -> None:
    names = [f"bench.{m.name}" for m in pkgutil.iter_modules(bench.__path__) if m.name != "__main__"]
    assert set(MODULES) <= set(names)
    for name in names:
        importlib.import_module(name)


#: benchmarks that start a Mosquitto of their own: broker tests (``make check`` leaves them to ``make test``)
ON_A_BROKER = {"bench.club"}


@pytest.mark.parametrize("module", [pytest.param(m, marks=pytest.mark.broker) if m in ON_A_BROKER else m
                                    for m in MODULES])
def test_every_benchmark_runs_on_tiny_inputs(module: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BENCH_SMOKE", "1")
    figures, error = run_module(module)
    assert error is None, f"{module}: {error}"
    assert figures, f"{module} printed no figure"
    for name, record in figures.items():
        assert isinstance(record["value"], (int, float)), (name, record)
        assert record["unit"] and record["target"].split(" ")[0] in ("<=", ">="), (name, record)
        meets(record["value"], record["target"])  # the target parses
