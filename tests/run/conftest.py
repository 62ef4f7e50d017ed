"""Tests that start a real ``companion run`` in a subprocess (signals, ports, start-up)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
