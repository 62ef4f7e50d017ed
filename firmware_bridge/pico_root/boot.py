# The Pico's /boot.py (copied there by `companion firmware install`). It arms the watchdog before
# main.py runs, so a board that ends up at the REPL by any path - a 0x03 byte from the host in
# the first instructions of main.py, before it turns Ctrl-C off - resets within 2 s instead of
# staying there. Not armed in maintenance mode (the flag file `maintenance`, written when the
# host asks for it, or button 0 held at power-up), so mpremote can reach the REPL.
import os

import machine

try:
    from firmware import config

    try:
        os.stat(config.MAINTENANCE_FLAG)
        _maintenance = True
    except OSError:
        _maintenance = machine.Pin(config.BUTTONS[0], machine.Pin.IN, machine.Pin.PULL_UP).value() == 0
    if not _maintenance:
        machine.WDT(timeout=config.WATCHDOG_MS)
except ImportError:  # no firmware on the board yet: nothing to guard
    pass
