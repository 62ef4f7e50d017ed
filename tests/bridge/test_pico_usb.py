"""The firmware's start-up and loop against MicroPython's USB side (firmware_bridge/pico.py):
the board's own /boot.py and /main.py, firmware/main.py and board.py, run line by line.

- A 0x03 byte from the host is Ctrl-C until ``kbd_intr(-1)`` has run: wherever it lands during
  the start-up (imports, the readers' set-up), the board must end running the bridge or reset,
  never at the REPL with no watchdog.
- A host that holds the port open but stops reading makes MicroPython's writes wait up to
  500 ms each: the loop must never stall on it (the readers, the buttons, the watchdog).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_bridge import pico as model
from firmware_bridge.firmware import config, proto, wire
from firmware_bridge.pico import Pico, run_start

ROOT_FILES = Path(model.__file__).resolve().parent / "pico_root"


def boot(tmp_path: Path, **kwargs: object) -> Pico:
    pico = Pico(**kwargs)  # type: ignore[arg-type]
    pico.outcome = run_start(pico, tmp_path)  # type: ignore[attr-defined]
    return pico


def start_up_lines(tmp_path: Path) -> int:
    """How many lines the firmware runs from /main.py's first to its first loop step."""
    pico = boot(tmp_path, stop_after_feeds=len(config.READER_CS) + 1)  # the readers' set-up feeds it too
    assert pico.outcome == "running"  # type: ignore[attr-defined]
    return pico.lines


def test_the_firmware_boots_and_says_hello(tmp_path: Path) -> None:
    pico = boot(tmp_path, stop_after_feeds=40)
    assert pico.outcome == "running"  # type: ignore[attr-defined]
    frames = wire.FrameReader().feed(pico.host_read())
    hello = [body for ftype, _, body in frames if ftype == proto.HELLO_REPLY]
    assert hello and proto.unpack_hello_reply(hello[0])[1] == config.FIRMWARE
    assert pico.interrupt_char == -1


def test_a_ctrl_c_byte_anywhere_in_the_start_up_never_leaves_the_repl(tmp_path: Path) -> None:
    """The host sends HELLO from the moment it opens the port, while the Pico boots; 3 frames in
    256 carry a 0x03. Today's firmware turned Ctrl-C off at the end of Board() and caught only
    Exception: a 0x03 during the imports or the readers' set-up left it at the REPL."""
    total = start_up_lines(tmp_path)
    # the first line (`import micropython`) is before anything can act; every later one is tried
    # at the start, then a spread through the imports and the readers' set-up
    points = sorted({*range(1, 40), *range(40, total, max(1, total // 30)), total - 1})
    outcomes: dict[str, list[int]] = {}
    for at in points:
        pico = Pico(stop_after_feeds=len(config.READER_CS) + 3)

        def inject(p: Pico, line: int, at: int = at) -> None:
            if line == at:
                p.host_send(b"\x03")

        pico.on_line(inject)
        outcomes.setdefault(run_start(pico, tmp_path), []).append(at)
    assert "repl" not in outcomes, f"left at the REPL when 0x03 came at lines {outcomes['repl'][:10]}"


def test_a_host_that_stops_reading_never_stalls_the_loop(tmp_path: Path) -> None:
    """Buttons pressed while the host holds the port but does not read: MicroPython's write would
    wait 500 ms for room in the 256-byte FIFO at every frame once it is full."""
    pico = Pico(stop_at_ms=3000)
    button = config.BUTTONS[3]

    def world(p: Pico, line: int) -> None:
        if p.ms() > 100:
            p.host_reading = False  # the service paused, the port still open
        if (p.ms() // 30) % 2:  # a button pressed and let go every 60 ms
            p.buttons_held.add(button)
        else:
            p.buttons_held.discard(button)

    pico.on_line(world)
    assert run_start(pico, tmp_path) == "running"
    assert pico.longest_wait_ms == 0, "a write waited for the host"
    # the longest gap is the retry of the 8 absent readers (about 110 ms here), never a write
    assert pico.longest_gap_ms < 250, f"the loop stalled {pico.longest_gap_ms:.0f} ms between two feeds"
    assert not pico.resets


def test_the_host_reads_again_and_sees_a_gap_it_resyncs_on(tmp_path: Path) -> None:
    pico = Pico(stop_at_ms=6000)
    button = config.BUTTONS[3]

    def world(p: Pico, line: int) -> None:
        p.host_reading = not 100 < p.ms() < 5000
        (p.buttons_held.add if (p.ms() // 30) % 2 else p.buttons_held.discard)(button)

    pico.on_line(world)
    assert run_start(pico, tmp_path) == "running"
    frames = wire.FrameReader().feed(pico.host_read())
    seqs = [seq for _, seq, _ in frames]
    gaps = [b for a, b in zip(seqs, seqs[1:], strict=False) if b != (a + 1) & 0xFF]
    assert gaps, "frames were dropped while the host was away: the sequence says so"
    beats = [proto.unpack_heartbeat(body) for ftype, _, body in frames if ftype == proto.HEARTBEAT]
    assert beats[-1][3] > 0  # tx_dropped counts them


@pytest.mark.parametrize("held", [False, True])
def test_maintenance_leaves_the_repl_free_without_a_watchdog(tmp_path: Path, held: bool) -> None:
    """Asked by the host (the flag file) or button 0 held at power-up: Ctrl-C on, no watchdog,
    so mpremote can copy files; the flag is used once."""
    if not held:
        (tmp_path / config.MAINTENANCE_FLAG).write_text("asked by the host\n")
    pico = Pico(buttons_held=(config.BUTTONS[0],) if held else ())
    assert run_start(pico, tmp_path) == "repl"
    assert pico.interrupt_char == 3 and pico.wdt_timeout_ms is None
    assert not (tmp_path / config.MAINTENANCE_FLAG).exists()


def test_the_maintenance_command_is_acknowledged_then_reboots_into_maintenance(tmp_path: Path) -> None:
    pico = Pico(stop_after_feeds=200)

    def host(p: Pico, line: int) -> None:
        if line == 20000:
            p.host_send(b"\x00" + wire.encode_frame(proto.MAINTENANCE, 9, b""))

    pico.on_line(host)
    assert run_start(pico, tmp_path) == "reset"
    frames = wire.FrameReader().feed(pico.host_read())
    assert (proto.ACK, proto.pack_ack(9, proto.ACK_OK)) in [(t, b) for t, _, b in frames]
    assert (tmp_path / config.MAINTENANCE_FLAG).exists()
    assert run_start(Pico(), tmp_path) == "repl"  # the next boot: the REPL, free


def test_boot_py_arms_the_watchdog_before_main_py_unless_in_maintenance(tmp_path: Path) -> None:
    """A 0x03 in main.py's very first instructions (before it turns Ctrl-C off) still reaches the
    REPL; the watchdog boot.py armed resets the board from there."""
    source = (ROOT_FILES / "boot.py").read_text()
    assert source.index("machine.WDT(") > source.index("_maintenance")
    main_py = (ROOT_FILES / "main.py").read_text()
    first = [line for line in main_py.splitlines() if line and not line.startswith("#")]
    assert first[:2] == ["import micropython", "micropython.kbd_intr(-1)"]
    assert "except BaseException" in main_py
