"""RFID readers: one abstraction, one folder per backend (see :mod:`hw.rfid.base`).

Backends: ``sim`` (simulated), ``mfrc522`` (the Pi's SPI, with the firmware's
own driver over spidev), ``pn532`` (adafruit-circuitpython-pn532) and
``bridge`` (readers behind the firmware bridge). ``template`` is the starting
point for a new one. Whatever a backend raises ends one poll, never its
reader's polling thread (see :class:`ReaderGroup`).
"""

from __future__ import annotations

import importlib

from hw.rfid.base import Reader, ReaderError, ReaderGroup
from hw.rfid.debounce import Debouncer, DebounceSettings, normalise_uid

BACKENDS = ("sim", "mfrc522", "pn532", "bridge")


def load_backend(name: str) -> type[Reader]:
    """The ``Backend`` class of ``hw/rfid/<name>/``."""
    if name not in BACKENDS and name != "template":
        raise ReaderError(f"Unknown reader backend {name!r}; use one of {', '.join(BACKENDS)}.")
    module = importlib.import_module(f"hw.rfid.{name}")
    return module.Backend


__all__ = ["BACKENDS", "DebounceSettings", "Debouncer", "Reader", "ReaderError", "ReaderGroup", "load_backend", "normalise_uid"]
