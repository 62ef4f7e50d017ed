"""The firmware's pure modules under real MicroPython, not just CPython.

MicroPython differs in small ways (no ``0 in bytes``, no ``ValueError.__init__``), which the
CPython tests cannot see. The MicroPython WebAssembly port from the npm registry runs on the
machine's Node.js; it is installed once into the user's cache on first use."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from tests.bridge.conftest import VECTORS

PACKAGE = "@micropython/micropython-webassembly-pyscript@1.27.0"
CACHE = Path.home() / ".cache" / "galapagos-companion" / "micropython-wasm"
MJS = CACHE / "node_modules" / "@micropython" / "micropython-webassembly-pyscript" / "micropython.mjs"
HERE = Path(__file__).resolve().parent
FIRMWARE = HERE.parents[1] / "firmware_bridge" / "firmware"


def micropython() -> Path:
    if not MJS.exists():
        npm = shutil.which("npm")
        assert npm, "npm is needed to fetch the MicroPython WebAssembly port"
        CACHE.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [npm, "install", "--prefix", str(CACHE), "--no-audit", "--no-fund", "--silent", PACKAGE],
            check=True,
            timeout=300,
        )
    return MJS


def test_selftest_passes_under_micropython() -> None:
    node = shutil.which("node")
    assert node, "Node.js runs the MicroPython WebAssembly port"
    done = subprocess.run(
        [node, str(HERE / "micropython_selftest.mjs"), str(micropython()), str(FIRMWARE), str(VECTORS)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    lines = done.stdout.splitlines()
    assert lines[:1] == ["micropython"], done.stdout + done.stderr
    assert lines[-2:] == ["compiled board main", "checks 95"], done.stdout + done.stderr
