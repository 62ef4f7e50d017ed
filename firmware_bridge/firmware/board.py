"""Hardware glue for the Raspberry Pi Pico under MicroPython: the only modules that import
``machine`` are this one and main.py. Everything with logic lives in the pure modules."""

import os
import select
import sys
import time

import machine

from . import config, proto
from .mfrc522 import MFRC522, ChipGone

try:
    import neopixel
except ImportError:
    neopixel = None


class Board:
    def __init__(self, wdt):
        """``wdt``: the watchdog main.run armed first; fed between the readers' set-up, which
        takes up to a few hundred milliseconds each for readers that do not answer."""
        self.wdt = wdt
        Pin = machine.Pin
        # Every chip-select high before the first transfer, or two readers answer at once.
        self.cs = [Pin(p, Pin.OUT, value=1) for p in config.READER_CS]
        self.rst = Pin(config.READER_RST, Pin.OUT, value=1)
        self.spi = machine.SPI(
            config.SPI_ID,
            baudrate=config.SPI_BAUD,
            polarity=0,
            phase=0,
            sck=Pin(config.SCK),
            mosi=Pin(config.MOSI),
            miso=Pin(config.MISO),
        )
        self.readers = [MFRC522(self.spi, cs.value) for cs in self.cs]
        self.present = []
        for reader in self.readers:
            self.present.append(self._init(reader))
            wdt.feed()
        self._retry_at = [0] * len(self.readers)
        self.buttons = [Pin(p, Pin.IN, Pin.PULL_UP) for p in config.BUTTONS]
        self.leds = None
        if config.LED_PIN is not None and neopixel is not None:
            self.leds = neopixel.NeoPixel(Pin(config.LED_PIN), config.LED_COUNT)
        self.buzzer = machine.PWM(Pin(config.BUZZER_PIN)) if config.BUZZER_PIN is not None else None
        self._buzz_until = None
        self._last_ticks = time.ticks_ms()
        self._ms = 0
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self._writable = select.poll()
        self._writable.register(sys.stdout, select.POLLOUT)
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._pending = bytearray()  # frames the USB FIFO had no room for yet
        self._maintenance = False

    def boot_id(self):
        return int.from_bytes(os.urandom(4), "big")

    def now_ms(self):
        """Milliseconds since boot that never wrap (ticks_ms wraps after ~12 days)."""
        ticks = time.ticks_ms()
        self._ms += time.ticks_diff(ticks, self._last_ticks)
        self._last_ticks = ticks
        return self._ms

    def read_host(self):
        data = bytearray()
        while len(data) < 128 and self._poll.poll(0):
            data += self._in.read(1)
        return bytes(data)

    def write_host(self, frame):
        """Queue a frame for the host and write what the USB FIFO takes now, never waiting.

        MicroPython's USB write waits up to 500 ms for room when the host holds the port open
        but does not read (the service paused or restarting), which would stall the readers
        and starve the watchdog. POLLOUT says the FIFO has room for at least one byte, so bytes
        go one at a time while it does. A host that stays away loses whole frames once
        ``TX_PENDING_MAX`` bytes wait: False, counted as dropped; the sequence gap makes it
        resync when it reads again."""
        if len(self._pending) + len(frame) > config.TX_PENDING_MAX:
            self._flush()
            if len(self._pending) + len(frame) > config.TX_PENDING_MAX:
                return False
        self._pending += frame
        self._flush()
        return True

    def _flush(self):
        pending, sent = self._pending, 0
        while sent < len(pending) and self._writable.poll(0):
            sent += self._out.write(pending[sent:sent + 1]) or 0
        if sent:
            self._pending = pending[sent:]

    @staticmethod
    def _init(reader):
        try:
            return reader.init()
        except OSError:
            return False

    def poll_reader(self, index):
        """The UID on reader ``index``, or None. A reader that did not answer at boot (or failed
        since) is tried again every ``config.READER_RETRY_MS``, so one plugged in later, or
        whose connector was loose, comes back without a reboot."""
        reader = self.readers[index]
        if not self.present[index]:
            now = self.now_ms()
            if now < self._retry_at[index]:
                return None
            self._retry_at[index] = now + config.READER_RETRY_MS
            self.present[index] = self._init(reader)
            if not self.present[index]:
                return None
        try:
            reader.antenna(True)
            try:
                return reader.read_uid()
            finally:
                reader.antenna(False)
        except (OSError, ChipGone):  # an SPI error, a chip gone or reset: this reader only, re-initialised later
            self.present[index] = False
            self._retry_at[index] = self.now_ms() + config.READER_RETRY_MS
            return None

    def button_levels(self):
        return [not pin.value() for pin in self.buttons]

    def command(self, ftype, args):
        if ftype == proto.SET_LED:
            led, r, g, b = args
            if self.leds is None or led >= len(self.leds):
                return proto.ACK_BAD_BODY
            self.leds[led] = (r, g, b)
            self.leds.write()
        elif ftype == proto.BUZZ:
            freq, ms = args
            if self.buzzer is None:
                return proto.ACK_BAD_BODY
            if freq and ms:
                self.buzzer.freq(max(20, freq))
                self.buzzer.duty_u16(32768)
                self._buzz_until = self.now_ms() + ms
            else:
                self.buzzer.duty_u16(0)
        elif ftype == proto.MAINTENANCE:
            self._maintenance = True  # after the ACK is out: service() writes the flag and resets
        return proto.ACK_OK

    def service(self, now):
        if self._maintenance:
            self._flush()
            with open(config.MAINTENANCE_FLAG, "w") as flag:
                flag.write("asked by the host\n")
            machine.reset()
        if self._buzz_until is not None and now >= self._buzz_until:
            self.buzzer.duty_u16(0)
            self._buzz_until = None

    def feed_watchdog(self):
        self.wdt.feed()
