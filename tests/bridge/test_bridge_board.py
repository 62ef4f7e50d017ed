"""board.py and main.py, the hardware glue, run under CPython against stand-ins for MicroPython's
``machine`` module: pins, one SPI bus with emulated MFRC522 readers, PWM, the watchdog and USB
stdio. This checks the glue calls what the pure modules expect, and that chip-selects work."""

from __future__ import annotations

import importlib
import io
import sys
import types

import pytest
from test_bridge_firmware import EmulatedChip

from firmware_bridge.firmware import proto, wire

UID = bytes.fromhex("04A1B2C3D4E5F6")


class Hardware:
    def __init__(self) -> None:
        self.levels: dict[int, int] = {}
        self.chips: dict[int, EmulatedChip] = {}
        self.fed = 0
        self.pwm: list[tuple[str, int]] = []

    def module(self) -> types.ModuleType:
        hw = self

        class Pin:
            OUT, IN, PULL_UP = 1, 0, 2

            def __init__(self, pin: int, mode: int = 0, pull: int | None = None, value: int | None = None) -> None:
                self.pin = pin
                if value is not None:
                    hw.levels[pin] = value
                hw.levels.setdefault(pin, 1 if pull == Pin.PULL_UP else 0)

            def value(self, v: int | None = None) -> int | None:
                if v is None:
                    return hw.levels[self.pin]
                hw.levels[self.pin] = v
                return None

        class SPI:
            def __init__(self, *args: object, **kwargs: object) -> None:
                pass

            def _chip(self) -> EmulatedChip:
                selected = [c for pin, c in hw.chips.items() if hw.levels[pin] == 0]
                assert len(selected) == 1, "exactly one reader selected per transfer"
                return selected[0]

            def write(self, data: bytes) -> None:
                self._chip().spi_write(bytes(data))

            def read(self, n: int) -> bytes:
                return bytes(self._chip().spi_read() for _ in range(n))

        class PWM:
            def __init__(self, pin: Pin) -> None:
                pass

            def freq(self, f: int) -> None:
                hw.pwm.append(("freq", f))

            def duty_u16(self, d: int) -> None:
                hw.pwm.append(("duty", d))

        class WDT:
            def __init__(self, timeout: int) -> None:
                assert timeout <= 8388  # the RP2040's limit

            def feed(self) -> None:
                hw.fed += 1

        return types.SimpleNamespace(Pin=Pin, SPI=SPI, PWM=PWM, WDT=WDT)


class FakeStdio:
    def __init__(self, data: bytes = b"") -> None:
        self.buffer = io.BytesIO(data)


class FakePoll:
    def __init__(self, stdin: FakeStdio) -> None:
        self.stdin = stdin

    def register(self, *args: object) -> None:
        pass

    def poll(self, timeout: int) -> list:
        buf = self.stdin.buffer
        return [1] if buf.tell() < len(buf.getvalue()) else []


@pytest.fixture
def board_module(monkeypatch: pytest.MonkeyPatch):
    hw = Hardware()
    monkeypatch.setitem(sys.modules, "machine", hw.module())
    monkeypatch.setitem(sys.modules, "micropython", types.SimpleNamespace(kbd_intr=lambda c: None))
    monkeypatch.setitem(sys.modules, "neopixel", types.SimpleNamespace(NeoPixel=lambda pin, n: _Strip(n)))
    monkeypatch.setattr("time.ticks_ms", lambda: 0, raising=False)
    monkeypatch.setattr("time.ticks_diff", lambda a, b: 5, raising=False)
    sys.modules.pop("firmware_bridge.firmware.board", None)
    sys.modules.pop("firmware_bridge.firmware.main", None)
    board = importlib.import_module("firmware_bridge.firmware.board")
    stdin, stdout = FakeStdio(wire.encode_frame(proto.BUZZ, 1, proto.pack_buzz(880, 50))), FakeStdio()
    # board reads sys.stdin/stdout when a Board is made; pytest swaps sys.stdout between test
    # phases, so the test body installs these (see use_stdio)
    board.use_stdio = lambda: (monkeypatch.setattr(board.sys, "stdin", stdin),
                               monkeypatch.setattr(board.sys, "stdout", stdout))
    monkeypatch.setattr(board.select, "poll", lambda: FakePoll(stdin))
    from firmware_bridge.firmware import config

    for i, pin in enumerate(config.READER_CS):
        hw.chips[pin] = EmulatedChip(UID if i == 2 else None)
    yield board, hw, stdout
    sys.modules.pop("firmware_bridge.firmware.board", None)
    sys.modules.pop("firmware_bridge.firmware.main", None)


class _Strip(list):
    def __init__(self, n: int) -> None:
        super().__init__([(0, 0, 0)] * n)

    def write(self) -> None:
        pass


def test_the_board_runs_the_firmware_loop(board_module) -> None:
    board_mod, hw, stdout = board_module
    from firmware_bridge.firmware import config
    from firmware_bridge.firmware.app import Firmware

    board_mod.use_stdio()
    board = board_mod.Board()
    assert all(board.present)  # every emulated reader answered with a known version
    fw = Firmware(board, len(config.READER_CS), len(config.BUTTONS), firmware=config.FIRMWARE)
    for _ in range(len(config.READER_CS) * 2):
        fw.step(board)
    hw.chips[config.READER_CS[5]].uid = bytes.fromhex("DEADBEEF")
    for _ in range(len(config.READER_CS)):
        fw.step(board)
    got = wire.FrameReader().feed(stdout.buffer.getvalue())
    kinds = [f[0] for f in got]
    assert kinds[0] == proto.HELLO_REPLY
    assert (proto.ACK, proto.pack_ack(1, proto.ACK_OK)) in [(f[0], f[2]) for f in got]
    assert ("freq", 880) in hw.pwm
    assert fw.device.tags == {2: UID, 5: bytes.fromhex("DEADBEEF")}  # boot scan + a new tag
    assert [f[2] for f in got if f[0] == proto.TAG_PRESENT] == [proto.pack_tag(5, bytes.fromhex("DEADBEEF"))]
    assert hw.fed == len(config.READER_CS) * 3


def test_button_0_held_at_power_up_leaves_the_repl_free(board_module) -> None:
    board_mod, hw, stdout = board_module
    from firmware_bridge.firmware import config

    hw.levels[config.BUTTONS[0]] = 0
    main = importlib.import_module("firmware_bridge.firmware.main")
    assert main.run() is None and hw.fed == 0
