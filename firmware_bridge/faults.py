"""The faults a simulated reader board can be told to have: frames lost or damaged, reboots.

Kept apart from :mod:`firmware_bridge.simulator` (the pty, the device, the script's clock) so
that what ``--faults`` and :meth:`~firmware_bridge.simulator.Simulator.drop_next` mean is read in
one place: random faults at a rate per frame, and orders to lose the next frames of chosen types.
"""

from __future__ import annotations

from dataclasses import dataclass

from .firmware import wire


@dataclass
class Faults:
    drop: bool = False
    corrupt: bool = False
    reboot: bool = False
    rate: float = 0.05  # chance per frame and direction, for drop and for corrupt
    reboot_every: float = 3.0  # mean seconds between reboots

    @classmethod
    def parse(cls, text: str, rate: float = 0.05, reboot_every: float = 3.0) -> Faults:
        kinds = {k.strip() for k in text.split(",") if k.strip()}
        unknown = kinds - {"drop", "corrupt", "reboot"}
        if unknown:
            raise ValueError(f"unknown fault {sorted(unknown)[0]!r}: use drop, corrupt, reboot")
        return cls("drop" in kinds, "corrupt" in kinds, "reboot" in kinds, rate, reboot_every)


@dataclass
class DropOrder:
    """Lose the next ``count`` frames (of ``types`` only, when given)."""

    count: int
    types: frozenset[int] | None


def take_order(orders: list[DropOrder], frame: bytes) -> bool:
    """Consume a :meth:`~firmware_bridge.simulator.Simulator.drop_next` order that matches this frame."""
    if not orders:
        return False
    try:
        ftype = wire.decode_frame(frame.rstrip(b"\x00"))[0]
    except wire.FrameError:
        return False
    for order in orders:
        if order.types is None or ftype in order.types:
            order.count -= 1
            if order.count <= 0:
                orders.remove(order)
            return True
    return False
