"""A datasheet model of the MFRC522 and of ISO/IEC 14443-A tags, for the tests of both drivers.

The firmware's driver (firmware/mfrc522.py) runs on the Pico over machine.SPI and on the Pi over
spidev (hw/rfid/mfrc522/); both are tested against this model, which follows the documents rather
than the driver:

* :class:`Tag` is the PICC state machine of ISO/IEC 14443-3 (figure "PICC states"): POWER-OFF,
  IDLE, READY, ACTIVE, HALT, and READY*/ACTIVE* for a tag woken from HALT. REQA wakes only an
  IDLE tag, WUPA an IDLE or HALTed one; in READY the tag answers ANTICOLLISION and SELECT of its
  current cascade level only (cascade tag 0x88, BCC, CRC_A checked) and moves to the next level
  or to ACTIVE; HLTA in ACTIVE halts it; *any other frame* in READY or ACTIVE sends it back to
  IDLE (HALT for the starred states) without an answer. That last rule is why a driver that
  stops after cascade level 1 of a 7-byte UID, never SELECTs level 2 and never HALTs, loses
  the tag on every other poll: its next WUPA finds the tag in READY, which drops it to IDLE
  silently. A tag needs up to 5 ms after the field comes on before it listens.
* :class:`MFRC522Chip` is the reader's register interface (datasheet sections 8.1.2 and 9): the
  SPI address byte (bit 7 read, bits 6..1 register), the 64-byte FIFO and FIFOLevelReg's flush,
  CommandReg (Idle, Transceive, SoftReset), BitFramingReg's StartSend and TxLastBits,
  ComIrqReg with its Set1 bit, ErrorReg's CollErr, TxControlReg's antenna drivers (the field),
  RFCfgReg's receiver gain, VersionReg, and the timer (TModeReg's TAuto, TPrescaler, TReload):
  when no tag answers, TimerIRq is set only once the programmed time has passed, so a driver that
  ignores the timer spins; :attr:`MFRC522Chip.transfers` counts what it costs.
* :class:`SpiBus` carries transactions to the chips by chip-select, as a byte stream (write/read,
  MicroPython's machine.SPI) or full duplex (``xfer``, Linux spidev), and fails a transfer with
  no chip or two chips selected.

Time is a :class:`VirtualClock` that every SPI byte advances (at the bus clock, plus a per
transfer overhead), so timer, answer and settle times are deterministic.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from .firmware.mfrc522 import (
    BIT_FRAMING,
    CASCADE_TAG,
    CMD_IDLE,
    CMD_SOFT_RESET,
    CMD_TRANSCEIVE,
    COM_IRQ,
    COMMAND,
    ERROR,
    FIFO_DATA,
    FIFO_LEVEL,
    PICC_HLTA,
    PICC_WUPA,
    SELECT,
    T_MODE,
    T_PRESCALER,
    T_RELOAD_H,
    T_RELOAD_L,
    TX_CONTROL,
    VERSION,
    bcc,
    crc_a,
)

PICC_REQA = 0x26
RF_CFG = 0x26  # RFCfgReg: RxGain in bits 6..4
SETTLE_S = 0.005  # ISO/IEC 14443-3: a PICC listens at most 5 ms after the field is on
FC = 13.56e6


class VirtualClock:
    """Seconds that only move when something takes time (an SPI byte, a sleep)."""

    def __init__(self, now: float = 0.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds

    def sleep_ms(self, ms: float) -> None:
        self.now += ms / 1000

    def sleep_us(self, us: float) -> None:
        self.now += us / 1_000_000


class RealClock(VirtualClock):
    """The monotonic clock, for a driver that sleeps for real (the Pi's): transfers take no model time."""

    def __call__(self) -> float:
        return time.monotonic()

    def advance(self, seconds: float) -> None:
        pass


@dataclass
class Tag:
    """One ISO/IEC 14443-A PICC: its UID (4, 7 or 10 bytes) and its state."""

    uid: bytes
    sak: int = 0x00  # the final SAK: 0x00 NTAG21x, 0x08 MIFARE Classic 1K
    state: str = "POWER-OFF"
    starred: bool = False  # READY*/ACTIVE*: woken from HALT, so errors return it to HALT
    level: int = 0  # cascade level being resolved in READY (0-based)
    listening_at: float = 0.0
    log: list[str] = field(default_factory=list)  # the states it went through

    def __post_init__(self) -> None:
        if len(self.uid) not in (4, 7, 10):
            raise ValueError("an ISO 14443-A UID has 4, 7 or 10 bytes")

    # -- the UID split into cascade levels (ISO/IEC 14443-3, 6.5.4) ------------------------
    def levels(self) -> list[bytes]:
        uid = self.uid
        if len(uid) == 4:
            return [uid]
        if len(uid) == 7:
            return [bytes((CASCADE_TAG,)) + uid[:3], uid[3:]]
        return [bytes((CASCADE_TAG,)) + uid[:3], bytes((CASCADE_TAG,)) + uid[3:6], uid[6:]]

    def atqa(self) -> bytes:
        size = {4: 0x00, 7: 0x40, 10: 0x80}[len(self.uid)]  # UID size bits b8b7
        return bytes((0x04 | size, 0x00))  # bit frame anticollision

    def _go(self, state: str, starred: bool | None = None) -> None:
        self.state = state
        if starred is not None:
            self.starred = starred
        self.log.append(state + ("*" if self.starred and state in ("READY", "ACTIVE") else ""))

    def _error(self) -> None:
        """A frame the state does not accept: back to IDLE, or HALT from the starred states."""
        if self.state in ("READY", "ACTIVE"):
            self._go("HALT" if self.starred else "IDLE", False)

    # -- the field ---------------------------------------------------------------------------
    def field(self, on: bool, now: float) -> None:
        if on and self.state == "POWER-OFF":
            self._go("IDLE", False)
            self.level = 0
            self.listening_at = now + SETTLE_S
        elif not on and self.state != "POWER-OFF":
            self._go("POWER-OFF", False)

    # -- a frame from the reader ----------------------------------------------------------------
    def receive(self, frame: bytes, last_bits: int, now: float) -> bytes | None:
        """The tag's answer to ``frame`` (``last_bits``: bits of its last byte, 0 = 8), or None."""
        if self.state == "POWER-OFF" or now < self.listening_at or not frame:
            return None
        short = len(frame) == 1 and last_bits == 7
        if short and frame[0] in (PICC_REQA, PICC_WUPA):
            if self.state == "IDLE" or (self.state == "HALT" and frame[0] == PICC_WUPA):
                self.level = 0
                self._go("READY", self.state == "HALT")
                return self.atqa()
            self._error()  # REQA/WUPA in READY or ACTIVE is not a valid command there
            return None
        if self.state == "READY":
            return self._ready(frame)
        if self.state == "ACTIVE":
            if frame == _with_crc(bytes((PICC_HLTA, 0x00))):
                self._go("HALT", False)
                return None
            self._error()
        return None

    def _ready(self, frame: bytes) -> bytes | None:
        levels = self.levels()
        sel = SELECT[self.level]
        part = levels[self.level]
        if len(frame) == 2 and frame[0] == sel and frame[1] == 0x20:  # ANTICOLLISION, whole UID part
            return part + bytes((bcc(part),))
        if len(frame) == 9 and frame[0] == sel and frame[1] == 0x70 and frame[7:] == crc_a(frame[:7]):
            if frame[2:6] != part or frame[6] != bcc(part):
                self._go("HALT" if self.starred else "IDLE", False)  # another tag is selected
                return None
            if self.level < len(levels) - 1:
                self.level += 1
                sak = 0x04  # cascade bit: UID not complete
            else:
                self._go("ACTIVE")
                sak = self.sak
            return _with_crc(bytes((sak,)))
        self._error()
        return None


def _with_crc(data: bytes) -> bytes:
    return data + crc_a(data)


class MFRC522Chip:
    """The MFRC522's registers, FIFO, timer and antenna, with tags in its field.

    ``version`` is what VersionReg reads (0x91/0x92 genuine, 0x88 FM17522); ``present=False``
    models an unwired reader: MISO floats and every read gives 0x00.
    """

    def __init__(self, tags: list[Tag] | None = None, *, version: int = 0x92, clock: VirtualClock | None = None,
                 present: bool = True) -> None:
        self.tags = list(tags or [])
        self.version = version
        self.present = present
        #: a MISO line stuck at this level (0x00: pulled down or floating low, 0xFF: pulled up), or None
        self.stuck: int | None = None
        self.clock = clock or VirtualClock()
        self.regs: dict[int, int] = {}
        self.fifo: list[int] = []
        self.transfers = 0  # SPI transactions addressed to this chip
        self.transceives = 0
        self._answer: bytes | None = None
        self._answer_at = 0.0
        self._timer_at: float | None = None
        self._collision = False
        self.reset()

    # -- what tests do to the world ------------------------------------------------------------
    def place(self, tag: Tag) -> None:
        self.tags.append(tag)
        tag.field(self.field_on, self.clock())

    def remove(self, tag: Tag) -> None:
        self.tags.remove(tag)
        tag.field(False, self.clock())

    @property
    def field_on(self) -> bool:
        return bool(self.regs.get(TX_CONTROL, 0) & 0x03)

    @property
    def gain(self) -> int:
        return (self.regs.get(RF_CFG, 0x48) >> 4) & 0x07

    def reset(self) -> None:
        """Power-on or SoftReset: registers to their reset values, the antenna off."""
        was_on = self.field_on if self.regs else False
        self.regs = {COMMAND: 0x20, COM_IRQ: 0x14, TX_CONTROL: 0x80, RF_CFG: 0x48, T_MODE: 0x00}
        self.fifo = []
        self._answer, self._timer_at = None, None
        if was_on:
            self._field_changed()

    def brown_out(self) -> None:
        """A dip in the supply: the chip comes back with its reset values (TModeReg 0x00, no timer)."""
        self.reset()

    # -- the SPI interface (datasheet 8.1.2) -----------------------------------------------------
    def transaction(self, mosi: bytes) -> bytes:
        """One chip-select-low period: address bytes and data in, the MISO bytes out."""
        self.transfers += 1
        if not self.present:
            return bytes(len(mosi))
        if self.stuck is not None:  # a lost MISO wire: pulled to one level, whatever the chip says
            return bytes([self.stuck]) * len(mosi)
        miso = bytearray(len(mosi))
        if not mosi:
            return bytes(miso)
        address = mosi[0]
        reg = (address >> 1) & 0x3F
        if address & 0x80:  # read: each following MOSI byte is the next address
            for i in range(1, len(mosi)):
                miso[i] = self.read(reg)
                reg = (mosi[i] >> 1) & 0x3F
        else:
            for value in mosi[1:]:
                self.write(reg, value)
        return bytes(miso)

    def _settle(self) -> None:
        """What happened on air since the last access: an answer in the FIFO, the timer out."""
        now = self.clock()
        if self._answer is not None and now >= self._answer_at:
            self.fifo = list(self._answer)
            self._answer = None
            self._timer_at = None  # the timer stops when the answer's first bits arrive
            self.regs[COM_IRQ] = self.regs.get(COM_IRQ, 0) | 0x20  # RxIRq
        if self._timer_at is not None and now >= self._timer_at:
            self._timer_at = None
            self.regs[COM_IRQ] = self.regs.get(COM_IRQ, 0) | 0x01  # TimerIRq

    def read(self, reg: int) -> int:
        self._settle()
        if reg == VERSION:
            return self.version
        if reg == FIFO_DATA:
            return self.fifo.pop(0) if self.fifo else 0
        if reg == FIFO_LEVEL:
            return len(self.fifo)
        if reg == ERROR:
            return 0x08 if self._collision else 0x00  # CollErr
        return self.regs.get(reg, 0)

    def write(self, reg: int, value: int) -> None:
        self._settle()
        if reg == FIFO_DATA:
            if len(self.fifo) < 64:
                self.fifo.append(value)
            return
        if reg == FIFO_LEVEL:
            if value & 0x80:  # FlushBuffer
                self.fifo.clear()
            return
        if reg == COM_IRQ:
            if value & 0x80:  # Set1: set the marked bits
                self.regs[COM_IRQ] = self.regs.get(COM_IRQ, 0) | (value & 0x7F)
            else:  # clear the marked bits
                self.regs[COM_IRQ] = self.regs.get(COM_IRQ, 0) & ~value & 0x7F
            return
        if reg == COMMAND:
            cmd = value & 0x0F
            if cmd == CMD_SOFT_RESET:
                self.reset()
                return
            self.regs[COMMAND] = value & 0x1F  # PowerDown clear: the chip is awake
            if cmd == CMD_IDLE:
                self._answer, self._timer_at = None, None
            return
        old_tx = self.regs.get(TX_CONTROL, 0)
        self.regs[reg] = value
        if reg == TX_CONTROL and (old_tx ^ value) & 0x03:
            self._field_changed()
        if reg == BIT_FRAMING and value & 0x80 and self.regs.get(COMMAND, 0) & 0x0F == CMD_TRANSCEIVE:
            self._transmit(value & 0x07)

    # -- radio -------------------------------------------------------------------------------------
    def _field_changed(self) -> None:
        for tag in self.tags:
            tag.field(self.field_on, self.clock())

    def timer_seconds(self) -> float:
        prescaler = ((self.regs.get(T_MODE, 0) & 0x0F) << 8) | self.regs.get(T_PRESCALER, 0)
        reload = (self.regs.get(T_RELOAD_H, 0) << 8) | self.regs.get(T_RELOAD_L, 0)
        return (2 * prescaler + 1) * (reload + 1) / FC

    def _transmit(self, last_bits: int) -> None:
        """StartSend: the FIFO goes on air; the tags in the field answer, or the timer runs."""
        self.transceives += 1
        frame = bytes(self.fifo)
        self.fifo = []
        now = self.clock()
        answers = [a for a in (tag.receive(frame, last_bits, now) for tag in self.tags) if a is not None] \
            if self.field_on else []
        distinct = set(answers)
        self._collision = len(distinct) > 1
        self._answer = None
        air = (len(frame) * 9 + 2) * 128 / FC  # 106 kbit/s: 128 carrier cycles a bit
        if distinct:
            answer = min(distinct) if self._collision else answers[0]
            self._answer = answer
            self._answer_at = now + air + 1236 / FC + (len(answer) * 9 + 2) * 128 / FC
        auto = self.regs.get(T_MODE, 0) & 0x80
        self._timer_at = now + air + self.timer_seconds() if auto else None


class SpiBus:
    """One SPI bus with several MFRC522s, each on its own chip-select line.

    ``cs(i)`` returns the chip-select callable of chip ``i`` (``cs(0)`` selects, ``cs(1)``
    releases) for the firmware's byte-stream API (``write``/``read``); ``xfer(i, data)`` is one
    full-duplex transfer with chip ``i`` selected for its length, as spidev's ``xfer2`` does with
    the kernel's chip select. ``byte_s`` and ``overhead_s`` charge the clock per byte and per
    transaction (1 MHz SPI; ~50 µs a spidev ioctl, ~10 µs on a Pico).
    """

    def __init__(self, chips: list[MFRC522Chip], *, clock: VirtualClock | None = None, hz: int = 1_000_000,
                 overhead_s: float = 10e-6) -> None:
        self.clock = clock or (chips[0].clock if chips else VirtualClock())
        for chip in chips:
            chip.clock = self.clock
        self.chips = chips
        self.byte_s = 8 / hz
        self.overhead_s = overhead_s
        self.selected: set[int] = set()
        self._mosi = bytearray()
        self._miso = bytearray()
        self.transactions = 0

    def cs(self, index: int):
        def pin(value: int) -> None:
            if value:
                if index in self.selected:
                    self._end()
                self.selected.discard(index)
            else:
                if self.selected and index not in self.selected:
                    raise AssertionError(f"chips selected at once: {sorted(self.selected | {index})}")
                self.selected.add(index)

        return pin

    def _chip(self) -> MFRC522Chip:
        if len(self.selected) != 1:
            raise AssertionError(f"a transfer needs exactly one chip selected, not {sorted(self.selected)}")
        return self.chips[next(iter(self.selected))]

    def _end(self) -> None:
        if self._mosi:
            self._run(self._chip(), bytes(self._mosi))
        self._mosi = bytearray()

    def _run(self, chip: MFRC522Chip, mosi: bytes) -> bytes:
        self.transactions += 1
        self.clock.advance(self.overhead_s + len(mosi) * self.byte_s)
        return chip.transaction(mosi)

    # machine.SPI style: bytes accumulate while the chip is selected
    def write(self, data: bytes) -> None:
        self._chip()
        self._mosi += bytes(data)

    def read(self, n: int, write: int = 0x00) -> bytes:
        """Clock ``n`` bytes in (sending ``write``); what came before in this selection is sent first."""
        chip = self._chip()
        mosi = bytes(self._mosi) + bytes((write,)) * n
        self._mosi = bytearray()
        return self._run(chip, mosi)[-n:]

    # spidev style: one full-duplex transfer
    def xfer(self, index: int, data: list[int] | bytes) -> list[int]:
        self.selected = {index}
        try:
            return list(self._run(self.chips[index], bytes(data)))
        finally:
            self.selected = set()
