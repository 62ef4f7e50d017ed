"""The Pi's supply, from the firmware's throttled bits: read at start, by the doctor, and while the table runs.

The firmware keeps one word (``vcgencmd get_throttled``; the kernel's
``/sys/devices/platform/soc/soc:firmware/get_throttled`` gives the same to any user, the
service's sandbox included): bit 0 is under-voltage *now*, bit 16 under-voltage *since boot*
(it stays set until the next boot), bits 2 and 18 the same for the CPU's throttling.

:class:`SupplyWatch` reads it every :data:`CHECK_EVERY` seconds from the table loop (a file read
of a few bytes; ``vcgencmd``, a process, only where the file is missing) and says a change as a
device's :class:`~hw.events.StatusEvent` named ``power supply``: the OLED and every page show
it, and the table's health log names it once when it goes down and once when it is back.

- under-voltage now: down, « Power supply too weak now … », until the bit clears;
- then back (« power supply steady again; it sagged since boot … »): a sag that is over is
  history, which ``companion doctor`` keeps telling (the since-boot bit) until the next boot;
- at start, a sag since boot that the table did not see is said the same way (down), and is
  back at the first check that finds the supply steady.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

from hw.events import StatusEvent

log = logging.getLogger(__name__)

#: vcgencmd get_throttled's bits (Raspberry Pi firmware)
UNDER_VOLTAGE_NOW, THROTTLED_NOW = 1 << 0, 1 << 2
UNDER_VOLTAGE_SINCE_BOOT, THROTTLED_SINCE_BOOT = 1 << 16, 1 << 18
SUPPLY_FIX = "use the official supply (5.1 V 2.5 A for a Pi Zero 2 W or 3, 3 A for a Pi 4, 5 A for a Pi 5) and a short, thick cable"
THROTTLED_SYSFS = Path("/sys/devices/platform/soc/soc:firmware/get_throttled")
#: seconds between two reads while the table runs
CHECK_EVERY = 30.0
#: the device name the supply's state goes by (the OLED, the pages, the log, the doctor's status file)
DEVICE = "power supply"


def throttled(sysfs: Path = THROTTLED_SYSFS, vcgencmd: str = "vcgencmd") -> int | None:
    """The firmware's throttled bits: the kernel's sysfs file (readable by anyone, even in the
    service's sandbox), else ``vcgencmd get_throttled``; None off a Pi."""
    try:
        return int(sysfs.read_text().strip(), 16)
    except (OSError, ValueError):
        pass
    if shutil.which(vcgencmd):
        try:
            out = subprocess.run([vcgencmd, "get_throttled"], capture_output=True, text=True, timeout=5).stdout
            return int(out.strip().partition("=")[2], 16)
        except (OSError, ValueError, subprocess.SubprocessError):
            return None
    return None


def supply_problem(bits: int | None) -> str | None:
    """One sentence when the supply sagged now or since boot (for the OLED and the log), else None."""
    if bits is None:
        return None
    if bits & UNDER_VOLTAGE_NOW:
        return "Power supply too weak now (under-voltage): the Pi slows down and the card may corrupt"
    if bits & UNDER_VOLTAGE_SINCE_BOOT:
        return "Power supply sagged since boot (under-voltage): a weak supply or cable"
    return None


class SupplyWatch:
    """The supply's state as the table says it; :meth:`check` when :meth:`due` (the table loop does)."""

    def __init__(self, emit: Callable[[StatusEvent], None], read: Callable[[], int | None] = throttled, *,
                 every: float = CHECK_EVERY, clock: Callable[[], float] = time.monotonic) -> None:
        self.emit = emit
        self.read = read
        self.every = every
        self.clock = clock
        #: the sentence said now (None: the supply is steady, or this is no Pi)
        self.problem: str | None = None
        self.checked_at: float | None = None
        #: reads made (each a small file read)
        self.reads = 0

    def due(self) -> bool:
        return self.checked_at is None or self.clock() - self.checked_at >= self.every

    def check(self) -> StatusEvent | None:
        """Read the bits; emit and return a StatusEvent when what the table says changes."""
        first = self.checked_at is None
        self.checked_at = self.clock()
        self.reads += 1
        bits = self.read()
        if bits is None:
            return None
        if bits & UNDER_VOLTAGE_NOW or (first and bits & UNDER_VOLTAGE_SINCE_BOOT):
            problem = supply_problem(bits)
            if problem == self.problem:
                return None
            self.problem = problem
            event = StatusEvent(DEVICE, False, problem or "")
        elif self.problem is not None:
            self.problem = None
            sentence = "power supply steady again"
            if bits & UNDER_VOLTAGE_SINCE_BOOT:
                sentence += "; it sagged since boot: " + SUPPLY_FIX
            event = StatusEvent(DEVICE, True, sentence)
        else:
            return None
        self.emit(event)
        return event
