"""board.py and main.py, the hardware glue, run under CPython against stand-ins for MicroPython's
``machine`` module: pins, one SPI bus with MFRC522 readers (the datasheet model of
firmware_bridge/chip.py, chip-selected by the pins' levels), PWM, the watchdog and USB stdio.
This checks the glue calls what the pure modules expect, and that chip-selects work."""

from __future__ import annotations

import importlib
import io
import sys
import types

import pytest

from firmware_bridge.chip import MFRC522Chip, Tag, VirtualClock
from firmware_bridge.firmware import proto, wire

UID = bytes.fromhex("04A1B2C3D4E5F6")


class Hardware:
    def __init__(self) -> None:
        self.levels: dict[int, int] = {}
        self.clock = VirtualClock()
        self.chips: dict[int, MFRC522Chip] = {}
        self.mosi = bytearray()  # bytes clocked out while one chip is selected
        self.fed = 0
        self.pwm: list[tuple[str, int]] = []
        self.resets = 0

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
                if v and self.pin in hw.chips and hw.levels.get(self.pin) == 0 and hw.mosi:
                    hw.chips[self.pin].transaction(bytes(hw.mosi))  # chip-select released: a write ends
                    hw.mosi.clear()
                hw.levels[self.pin] = v
                return None

        class SPI:
            def __init__(self, *args: object, **kwargs: object) -> None:
                pass

            def _chip(self) -> MFRC522Chip:
                selected = [c for pin, c in hw.chips.items() if hw.levels[pin] == 0]
                assert len(selected) == 1, "exactly one reader selected per transfer"
                return selected[0]

            def write(self, data: bytes) -> None:
                self._chip()
                hw.mosi += bytes(data)
                hw.clock.advance(len(data) * 8e-6)

            def read(self, n: int) -> bytes:
                mosi = bytes(hw.mosi) + bytes(n)
                hw.mosi.clear()
                hw.clock.advance(n * 8e-6)
                return self._chip().transaction(mosi)[-n:]

        class PWM:
            def __init__(self, pin: Pin) -> None:
                pass

            def freq(self, f: int) -> None:
                hw.pwm.append(("freq", f))

            def duty_u16(self, d: int) -> None:
                hw.pwm.append(("duty", d))

        def reset() -> None:
            hw.resets += 1
            raise SystemExit("machine.reset")  # the real one never returns

        class WDT:
            def __init__(self, timeout: int) -> None:
                assert timeout <= 8388  # the RP2040's limit

            def feed(self) -> None:
                hw.fed += 1

        return types.SimpleNamespace(Pin=Pin, SPI=SPI, PWM=PWM, WDT=WDT, reset=reset)


class FakeStdio:
    def __init__(self, data: bytes = b"") -> None:
        self.buffer = io.BytesIO(data)


class FakePoll:
    """select.poll over the fake stdio: stdin readable while it has bytes; stdout always
    writable (a host that reads; tests/bridge/test_pico_usb.py has one that stops)."""

    def __init__(self, stdin: FakeStdio) -> None:
        self.stdin = stdin
        self.streams: list[object] = []

    def register(self, stream: object, *flags: object) -> None:
        self.streams.append(stream)

    def poll(self, timeout: int) -> list:
        if any(getattr(s, "buffer", None) is not self.stdin.buffer for s in self.streams):
            return [1]  # the stdout poll
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
    monkeypatch.setattr(board.sys, "print_exception", lambda exc, file: file.write(repr(exc)), raising=False)
    from firmware_bridge.firmware import config

    for i, pin in enumerate(config.READER_CS):
        hw.chips[pin] = MFRC522Chip([Tag(UID)] if i == 2 else [], clock=hw.clock)
    monkeypatch.setattr("firmware_bridge.firmware.mfrc522._sleep_ms", hw.clock.sleep_ms)
    monkeypatch.setattr("firmware_bridge.firmware.mfrc522._sleep_us", hw.clock.sleep_us)
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
    board = board_mod.Board(sys.modules["machine"].WDT(timeout=2000))
    assert all(board.present)  # every emulated reader answered with a known version
    fw = Firmware(board, len(config.READER_CS), len(config.BUTTONS), firmware=config.FIRMWARE)
    for _ in range(len(config.READER_CS) * 2):
        fw.step(board)
    hw.chips[config.READER_CS[5]].place(Tag(bytes.fromhex("DEADBEEF")))
    for _ in range(len(config.READER_CS)):
        fw.step(board)
    got = wire.FrameReader().feed(stdout.buffer.getvalue())
    kinds = [f[0] for f in got]
    assert kinds[0] == proto.HELLO_REPLY
    assert (proto.ACK, proto.pack_ack(1, proto.ACK_OK)) in [(f[0], f[2]) for f in got]
    assert ("freq", 880) in hw.pwm
    assert fw.device.tags == {2: UID, 5: bytes.fromhex("DEADBEEF")}  # boot scan + a new tag
    assert [f[2] for f in got if f[0] == proto.TAG_PRESENT] == [proto.pack_tag(5, bytes.fromhex("DEADBEEF"))]
    assert hw.fed == len(config.READER_CS) + len(config.READER_CS) * 3  # once per reader set up, once per step


def test_button_0_held_at_power_up_leaves_the_repl_free(board_module, monkeypatch, tmp_path) -> None:
    board_mod, hw, stdout = board_module
    from firmware_bridge.firmware import config

    hw.levels[config.BUTTONS[0]] = 0
    monkeypatch.chdir(tmp_path)
    main = importlib.import_module("firmware_bridge.firmware.main")
    assert main.run() is None and hw.fed == 0


def test_a_reader_absent_at_boot_is_tried_again_and_read_once_it_answers(board_module) -> None:
    board_mod, hw, stdout = board_module
    from firmware_bridge.firmware import config

    late = hw.chips[config.READER_CS[3]]
    late.present = False  # its connector was loose when the Pico booted
    late.place(Tag(bytes.fromhex("CAFEF00D")))
    board_mod.use_stdio()
    board = board_mod.Board(sys.modules["machine"].WDT(timeout=2000))
    assert not board.present[3]
    assert board.poll_reader(3) is None
    late.present = True  # pushed back in
    for _ in range(config.READER_RETRY_MS // 5 + 1):  # the fake ticks move 5 ms per reading
        board.now_ms()
    assert board.poll_reader(3) == bytes.fromhex("CAFEF00D") and board.present[3]


def test_an_exception_in_the_loop_is_logged_and_resets_the_board_instead_of_the_repl(
        board_module, monkeypatch, tmp_path) -> None:
    board_mod, hw, stdout = board_module
    board_mod.use_stdio()
    main = importlib.import_module("firmware_bridge.firmware.main")
    from firmware_bridge.firmware import app

    def broken(self, board):
        raise ValueError("a bug in the loop")

    monkeypatch.setattr(app.Firmware, "step", broken)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit, match="machine.reset"):
        main.run()
    assert hw.resets == 1
    assert "a bug in the loop" in (tmp_path / "last_error.txt").read_text()
