"""A model of the OLED's I2C bus and of the display controller's RAM, for tests and benchmarks.

:class:`I2CBusModel` stands where luma's ``i2c`` serial interface stands (it
has the same ``command(*bytes)`` / ``data(list)`` / ``cleanup()`` methods),
so the real luma.oled SSD1306/SH1106 drivers and :class:`hw.oled.Oled` talk
to it unchanged. It charges every byte 9 bit times (8 data bits and the ACK)
at the configured clock, plus the address byte and the control byte
(0x00 command / 0x40 data) of each transaction, as an SSD1306 on a Pi's
``i2c_rdwr`` write sees them; with ``block`` it also takes that long, as
smbus2's blocking write does. 100 kHz is the Pi's default
(``dtparam=i2c_arm_baudrate``), 400 kHz the SSD1306's fast mode.

:class:`ControllerRam` interprets the command stream the way the
SSD1306 (horizontal addressing with COLUMNADDR/PAGEADDR windows) or the SH1106
(page addressing: 0xB0+page, column nibbles, a 2-column offset) does, and
keeps the 8 pages of display RAM, so a test can read back what the glass
would show after any sequence of partial updates.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

BITS_PER_BYTE = 9  # 8 data bits + ACK
PAGES, COLUMNS = 8, 128

# SSD1306 commands followed by that many argument bytes (datasheet, section 9)
_SSD1306_ARGS = {0x20: 1, 0x21: 2, 0x22: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0x81: 1, 0x8D: 1, 0xA3: 2,
                 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}
# SH1106: no addressing-mode or window commands; 0xAD (DC-DC) takes one byte
_SH1106_ARGS = {0x81: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1, 0x8D: 1}


@dataclass
class ControllerRam:
    """The display RAM of an SSD1306 (``kind="ssd1306"``) or SH1106 (132 columns, offset 2)."""

    kind: str = "ssd1306"
    offset: int = 2  # SH1106: the 128 visible columns start at RAM column 2
    ram: list[bytearray] = field(default_factory=list)
    contrast: int = 0x7F
    on: bool = False
    mode: int = 0x02  # page addressing after reset
    col_start: int = 0
    col_end: int = COLUMNS - 1
    page_start: int = 0
    page_end: int = PAGES - 1
    col: int = 0
    page: int = 0
    _pending: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        width = 132 if self.kind == "sh1106" else COLUMNS
        self.ram = [bytearray(width) for _ in range(PAGES)]

    def reset(self) -> None:
        """A brown-out: the controller forgets its set-up (display off, page mode, RAM kept as noise)."""
        self.on, self.mode, self.col, self.page = False, 0x02, 0, 0
        self._pending.clear()

    def command(self, data: Iterable[int]) -> None:
        args = _SH1106_ARGS if self.kind == "sh1106" else _SSD1306_ARGS
        for byte in data:
            self._pending.append(byte)
            need = args.get(self._pending[0], 0)
            if len(self._pending) > need:
                self._apply(self._pending)
                self._pending = []

    def _apply(self, cmd: list[int]) -> None:
        op = cmd[0]
        if op in (0xAE, 0xAF):
            self.on = op == 0xAF
        elif op == 0x81:
            self.contrast = cmd[1]
        elif self.kind != "sh1106" and op == 0x20:
            self.mode = cmd[1] & 0x03
        elif self.kind != "sh1106" and op == 0x21:
            self.col_start, self.col_end = cmd[1] & 0x7F, cmd[2] & 0x7F
            self.col = self.col_start
        elif self.kind != "sh1106" and op == 0x22:
            self.page_start, self.page_end = cmd[1] & 0x07, cmd[2] & 0x07
            self.page = self.page_start
        elif 0xB0 <= op <= 0xB7:
            self.page = op & 0x07
        elif op <= 0x0F:
            self.col = (self.col & 0xF0) | op
        elif 0x10 <= op <= 0x1F:
            self.col = ((op & 0x0F) << 4) | (self.col & 0x0F)

    def data(self, data: Iterable[int]) -> None:
        width = len(self.ram[0])
        for byte in data:
            if self.col < width:
                self.ram[self.page][self.col] = byte
            if self.kind != "sh1106" and self.mode == 0x00:  # horizontal: wrap inside the window
                if self.col >= self.col_end:
                    self.col = self.col_start
                    self.page = self.page_start if self.page >= self.page_end else self.page + 1
                else:
                    self.col += 1
            else:  # page addressing: the column advances, the page stays
                self.col = (self.col + 1) % width if self.kind != "sh1106" else self.col + 1

    def pages(self) -> list[bytes]:
        """The 8 pages of 128 visible columns."""
        first = self.offset if self.kind == "sh1106" else 0
        return [bytes(page[first:first + COLUMNS]) for page in self.ram]


class I2CBusModel:
    """A luma serial interface that charges I2C time per byte and counts what crossed the bus.

    ``rate_hz`` is the SCL clock; ``block`` makes each transaction take its
    bus time (a sleep until the modelled end), so a caller sees the latency a
    real blocking write has. ``ram`` (a :class:`ControllerRam`) receives the
    bytes as the controller would.
    """

    def __init__(self, rate_hz: int = 400_000, *, block: bool = True, ram: ControllerRam | None = None,
                 clock: Callable[[], float] = time.perf_counter, fail: Callable[[str, list[int]], None] | None = None):
        self.rate_hz = rate_hz
        self.block = block
        self.ram = ram
        self.clock = clock
        self.fail = fail  # tests: raise OSError from here to model a NAK or a glitch
        self.bytes = 0
        self.transactions = 0
        self.busy_until = 0.0
        self.log: list[tuple[str, int]] = []  # (kind, payload length) of every transaction

    def seconds(self, count: int) -> float:
        """Bus time of ``count`` bytes."""
        return count * BITS_PER_BYTE / self.rate_hz

    def _transfer(self, kind: str, payload: list[int]) -> None:
        if self.fail is not None:
            self.fail(kind, payload)
        count = 2 + len(payload)  # address byte + control byte + payload
        self.bytes += count
        self.transactions += 1
        self.log.append((kind, len(payload)))
        now = self.clock()
        self.busy_until = max(now, self.busy_until) + self.seconds(count)
        if self.ram is not None:
            (self.ram.command if kind == "command" else self.ram.data)(payload)
        if self.block:
            self._wait_until(self.busy_until)

    def _wait_until(self, deadline: float) -> None:
        """Return at ``deadline``: sleep most of the way, then spin the last quarter millisecond.

        A plain ``time.sleep`` overshoots by a scheduler tick, which a real
        controller's completion interrupt does not; the model should not
        charge that to the bus.
        """
        while True:
            left = deadline - self.clock()
            if left <= 0:
                return
            if left > 0.00025:
                time.sleep(left - 0.00025)

    def command(self, *cmd: int) -> None:
        self._transfer("command", list(cmd))

    def data(self, data: Iterable[int]) -> None:
        self._transfer("data", list(data))

    def cleanup(self) -> None:
        pass
