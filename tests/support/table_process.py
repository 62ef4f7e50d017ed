"""The table as ``companion run`` wires it, built in the test's process and closed after it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from gpiozero import Device

from companion.board.config import Config
from companion.cli.app import Companion, build


@contextmanager
def built_table(db: Path, config: Config | None = None, *, serve: bool, **options: Any) -> Iterator[Companion]:
    """A :class:`Companion` on ``db`` (simulated unless ``options`` say otherwise): started with its
    server and table loop when ``serve``, else only its devices opened. Closed afterwards, and the pin
    factory it made closed and the one before it put back, so the next test starts from the same."""
    previous = Device.pin_factory
    options.setdefault("sim", True)
    options.setdefault("port", 0)
    companion = build(config or Config(), db, **options)
    try:
        if serve:
            companion.start()
        else:
            companion.open_devices()
        yield companion
    finally:
        companion.close()
        factory = Device.pin_factory
        if factory is not None and factory is not previous:
            factory.reset()
            factory.close()
        Device.pin_factory = previous
