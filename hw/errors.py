"""The device trade's one root: :class:`DeviceError`, a part of the table that cannot be opened, read or driven.

Every device's failure derives from it — a reader (:class:`hw.rfid.base.ReaderError`), the display
(:class:`hw.oled_device.DisplayError`), the pin factory (:class:`hw.pins.PinFactoryError`), the network
(:class:`hw.network.NetworkError`) — and its text is one sentence with the fix. It is neither a refusal of
the rules (:class:`companion.engine.rules.RuleError`) nor a storage failure
(:class:`companion.table.rows.StorageError`), so a handler catches it by itself, in any order: the board
puts a stand-in in its place and says the device is down on every screen and in the log (the table
plays on), the CLI prints the sentence (exit status 2). Nothing here imports anything: every backend can
derive from it without loops.
"""

from __future__ import annotations


class DeviceError(Exception):
    """A part of the table that cannot be opened, read or driven: one sentence with the fix."""
