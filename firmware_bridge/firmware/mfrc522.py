"""MFRC522 reader driver: UIDs of ISO 14443-A tags (4, 7 or 10 bytes) over SPI.

Several readers share one SPI bus, each with its own chip-select, so the driver takes the bus
and a chip-select callable (``cs(0)`` selects, ``cs(1)`` releases) and never holds the bus
between register accesses. It needs only ``spi.write(buf)`` and ``spi.read(n)``, which lets the
tests run it against an emulated chip under CPython.

A poll wakes tags with WUPA (which also wakes a tag left HALTed by the previous poll, so a tag
that stays put is seen on every poll), walks the cascade levels (anticollision + SELECT, checked
by BCC and CRC_A), then halts the tag. Two tags on one reader collide and read as nothing.
Stopping half way (a 7-byte UID read at level 1 only, no SELECT at level 2, no HALT) leaves the
tag in READY, where ISO/IEC 14443-3 makes the next WUPA drop it to IDLE unanswered: every other
poll would miss it.

Timing (ISO/IEC 14443-3 and the datasheet): a tag may need 5 ms after the field comes on before
it listens, so ``antenna(True)`` waits that long; each command waits for the chip's timer
(``timeout_ms``, 5 ms: tags answer within about 0.1 ms), checking ComIrqReg's TimerIRq rather
than spinning a fixed number of reads, with ``poll_pause_us`` between checks on a host where
each SPI transfer is a system call. The same file runs on the Pico (machine.SPI) and on the Pi
(spidev, through hw/rfid/mfrc522/).
"""

try:
    from time import sleep_ms as _sleep_ms
    from time import sleep_us as _sleep_us
except ImportError:  # CPython
    from time import sleep as _sleep

    def _sleep_ms(ms):
        _sleep(ms / 1000)

    def _sleep_us(us):
        _sleep(us / 1000000)


# Registers (MFRC522 datasheet, section 9).
COMMAND = 0x01
COM_IRQ = 0x04
ERROR = 0x06
FIFO_DATA = 0x09
FIFO_LEVEL = 0x0A
CONTROL = 0x0C
BIT_FRAMING = 0x0D
MODE = 0x11
TX_CONTROL = 0x14
TX_ASK = 0x15
RF_CFG = 0x26
T_MODE = 0x2A
T_PRESCALER = 0x2B
T_RELOAD_H = 0x2C
T_RELOAD_L = 0x2D
VERSION = 0x37

CMD_IDLE = 0x00
CMD_TRANSCEIVE = 0x0C
CMD_SOFT_RESET = 0x0F

PICC_WUPA = 0x52
PICC_HLTA = 0x50
SELECT = (0x93, 0x95, 0x97)  # cascade levels 1, 2, 3
CASCADE_TAG = 0x88
SAK_INCOMPLETE = 0x04
KNOWN_VERSIONS = (0x91, 0x92, 0x88, 0x89, 0x90, 0x12, 0xB2)  # v1, v2, FM17522(E) and common clones
#: what VersionReg reads with no chip behind the wires: MISO held low or high
ABSENT_VERSIONS = (0x00, 0xFF)
T_MODE_SET = 0x80  # TAuto, as init writes it; a chip reset by a brown-out reads 0x00
CHECK_EVERY = 5  # polls between two checks of VersionReg and TModeReg
SETTLE_MS = 5  # ISO/IEC 14443-3: a tag listens at most 5 ms after the field is on
TIMER_TICK_US = 25  # TPrescaler 0xA9: 13.56 MHz / (2 * 169 + 1) ~ 40 kHz


def crc_a(data) -> bytes:
    """ISO/IEC 14443-3 CRC_A (init 0x6363), low byte first as sent on air."""
    crc = 0x6363
    for byte in data:
        byte ^= crc & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = (crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)
    return bytes((crc & 0xFF, (crc >> 8) & 0xFF))


def bcc(four) -> int:
    """Block check character of an anticollision answer: xor of the four UID bytes."""
    return four[0] ^ four[1] ^ four[2] ^ four[3]


def uid_from_levels(levels):
    """Join the 4-byte answers of the cascade levels into a 4, 7 or 10 byte UID (or None).

    Every level but the last starts with the cascade tag 0x88, which is not part of the UID."""
    if not 1 <= len(levels) <= 3:
        return None
    uid = b""
    for level in levels[:-1]:
        if level[0] != CASCADE_TAG:
            return None
        uid += bytes(level[1:])
    last = bytes(levels[-1])
    if len(levels) == 1 and last[0] == CASCADE_TAG:
        return None
    return uid + last


class ChipGone(Exception):
    """The chip stopped answering (MISO stuck, no TimerIRq) or was reset (a brown-out): not « no tag »."""

    chip_gone = True  # the reader is down at once (hw.rfid.base), not after five misses


class MFRC522:
    def __init__(self, spi, cs, sleep_ms=None, sleep_us=None, poll_pause_us=0):
        self.spi = spi
        self.cs = cs
        self.sleep_ms = sleep_ms or _sleep_ms
        self.sleep_us = sleep_us or _sleep_us
        self.poll_pause_us = poll_pause_us
        self.version_read = None
        self.unknown_version = False
        self.field = False
        self.max_checks = 2000
        self._polls = 0
        cs(1)

    def _write(self, reg, value):
        self.cs(0)
        self.spi.write(bytes(((reg << 1) & 0x7E, value)))
        self.cs(1)

    def _read(self, reg) -> int:
        self.cs(0)
        self.spi.write(bytes((((reg << 1) & 0x7E) | 0x80,)))
        value = self.spi.read(1)[0]
        self.cs(1)
        return value

    def _set(self, reg, mask):
        self._write(reg, self._read(reg) | mask)

    def _clear(self, reg, mask):
        self._write(reg, self._read(reg) & ~mask & 0xFF)

    def init(self, timeout_ms: int = 5, gain=None) -> bool:
        """Reset and configure; False if no chip answers on this chip-select.

        VersionReg is read first: an unwired reader (MISO stuck at 0x00 or 0xFF) is refused
        here, not found to read nothing for ever. Any other value is a chip: clones read
        0x88, 0x89 (FM17522E), 0x90, 0x12, 0xB2...; ``unknown_version`` tells the caller to
        warn about a value not in :data:`KNOWN_VERSIONS`."""
        self.version_read = self.version()
        self.unknown_version = self.version_read not in KNOWN_VERSIONS
        if self.version_read in ABSENT_VERSIONS:
            return False
        self._polls = 0
        # at most ~4 timer periods of ComIrqReg checks: a chip that never raises TimerIRq (gone,
        # or reset by a brown-out) gives up in ~25 ms instead of holding the bus for a second
        pause = self.poll_pause_us + 50 if self.poll_pause_us else 0
        self.max_checks = max(40, 4 * timeout_ms * 1000 // pause) if pause else 2000
        self._write(COMMAND, CMD_SOFT_RESET)
        self.field = False
        for _ in range(100):
            if not self._read(COMMAND) & 0x10:  # PowerDown bit clears when the reset is done
                break
        ticks = max(1, timeout_ms * 1000 // TIMER_TICK_US) - 1
        self._write(T_MODE, 0x80)  # TAuto: the timer starts at the end of each transmission
        self._write(T_PRESCALER, 0xA9)  # 13.56 MHz / (2 * 169 + 1) ~ 40 kHz, 25 us a tick
        self._write(T_RELOAD_H, ticks >> 8)  # 200 ticks = 5 ms receive timeout
        self._write(T_RELOAD_L, ticks & 0xFF)
        self._write(TX_ASK, 0x40)  # 100 % ASK modulation
        self._write(MODE, 0x3D)  # CRC preset 0x6363
        if gain is not None:
            self.gain(gain)
        self.antenna(False)
        return self.version() not in ABSENT_VERSIONS

    def check(self):
        """Raise :class:`ChipGone` if VersionReg reads no chip or TModeReg lost its setting (a reset)."""
        version = self.version()
        if version in ABSENT_VERSIONS:
            raise ChipGone(f"VersionReg reads 0x{version:02X}: the chip does not answer (MISO, power, chip select)")
        mode = self._read(T_MODE)
        if mode != T_MODE_SET:
            raise ChipGone(f"TModeReg reads 0x{mode:02X} instead of 0x{T_MODE_SET:02X}: "
                           "the chip was reset (a dip in its supply?)")

    def version(self) -> int:
        return self._read(VERSION)

    def gain(self, level: int):
        """Receiver gain step 0..7 (RFCfgReg RxGain: 18, 23, 18, 23, 33, 38, 43, 48 dB).

        Only bits 6..4 are RxGain; the others are reserved (the datasheet: keep them), so the
        register is read and only the gain bits change."""
        self._write(RF_CFG, (self._read(RF_CFG) & 0x8F) | ((int(level) & 0x07) << 4))

    def antenna(self, on: bool):
        """Switch the field; switching it on waits until a tag in it can listen (5 ms)."""
        if on:
            self._set(TX_CONTROL, 0x03)
            if not self.field:
                self.sleep_ms(SETTLE_MS)
        else:
            self._clear(TX_CONTROL, 0x03)
        self.field = on

    def transceive(self, data, bits: int = 0):
        """Send ``data`` (the last byte only ``bits`` bits long if non-zero); return the answer
        bytes, or None on timeout, CRC/parity/protocol error or collision."""
        self._write(COMMAND, CMD_IDLE)
        self._write(COM_IRQ, 0x7F)
        self._write(FIFO_LEVEL, 0x80)
        for byte in data:
            self._write(FIFO_DATA, byte)
        self._write(BIT_FRAMING, bits)
        self._write(COMMAND, CMD_TRANSCEIVE)
        self._set(BIT_FRAMING, 0x80)  # StartSend
        for _ in range(self.max_checks):  # a bound for a chip that never raises TimerIRq
            irq = self._read(COM_IRQ)
            if irq & 0x30 or irq & 0x01:  # Rx/Idle done, or the timer ran out: nobody answered
                break
            if self.poll_pause_us:
                self.sleep_us(self.poll_pause_us)
        else:
            self._clear(BIT_FRAMING, 0x80)
            self.check()  # a reset or a chip gone says so
            raise ChipGone(f"no TimerIRq after {self.max_checks} checks of ComIrqReg: the chip is not answering")
        self._clear(BIT_FRAMING, 0x80)
        if not irq & 0x30:  # the timer ran out first: no tag answered
            return None
        if self._read(ERROR) & 0x1B:  # BufferOvfl, CollErr, ParityErr, ProtocolErr
            return None
        count = self._read(FIFO_LEVEL)
        return bytes(self._read(FIFO_DATA) for _ in range(count))

    def read_uid(self):
        """The UID bytes of the one tag on this reader, or None (an empty field).

        Every :data:`CHECK_EVERY` polls the chip itself is checked (:meth:`check`): with MISO
        stuck high every command « fails » at once and would read as an empty field for ever.
        A chip gone or reset raises :class:`ChipGone`."""
        self._polls += 1
        if self._polls % CHECK_EVERY == 0:
            self.check()
        atqa = self.transceive(bytes((PICC_WUPA,)), bits=7)
        if atqa is None or len(atqa) != 2:
            return None
        levels = []
        for sel in SELECT:
            answer = self.transceive(bytes((sel, 0x20)))
            if answer is None or len(answer) != 5 or bcc(answer) != answer[4]:
                return None
            frame = bytes((sel, 0x70)) + answer
            sak = self.transceive(frame + crc_a(frame))
            if sak is None or len(sak) != 3 or crc_a(sak[:1]) != sak[1:]:
                return None
            levels.append(answer[:4])
            if not sak[0] & SAK_INCOMPLETE:
                break
        halt = bytes((PICC_HLTA, 0))
        self.transceive(halt + crc_a(halt))  # a halted tag does not answer; None is expected
        return uid_from_levels(levels)
