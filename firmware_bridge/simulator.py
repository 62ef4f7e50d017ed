"""A simulated reader microcontroller speaking the bridge protocol over a real pseudo-terminal.

    python -m firmware_bridge.simulator [--script EVENTS.jsonl] [--faults drop,corrupt,reboot]

prints the pty's path on its first line, then answers the host exactly as the firmware does - it
wraps the firmware's own ``Device`` class - and plays the script's events (docs/design.md "Bridge event
scripts"). The script clock starts when the first HELLO arrives (``--start-now``: at launch), so
a host that connects late still sees every event. It runs until interrupted, or ``--exit-after``
seconds after the last scripted event.

Faults: ``drop`` loses frames in both directions, ``corrupt`` damages them, ``reboot`` restarts
the device now and then (new boot id, sequence numbers from 0, a silent boot scan), each at
``--fault-rate`` per frame or about every ``--reboot-every`` seconds, from ``--seed``.

In tests, use the class: ``Simulator(...).start()``, ``.path``, ``.place(reader, uid)``,
``.remove(reader)``, ``.press(button, pressed)``, ``.roll(slot, face)``, ``.reboot()``,
``.reader_fails(reader, failing)``, ``.unplug()`` / ``.replug()`` (the pty goes away and a new one comes back, with ``link``
re-pointed like a /dev/serial/by-id symlink), ``.drop_next(direction, n, types)``,
``.executed`` (commands run), ``.truth()`` (what physically sits on the readers), ``.stop()``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import select
import signal
import sys
import threading
import time
import tty
from collections.abc import Iterable

from .events import ButtonEvent, DiceEvent, ScriptError, TagEvent, read_script
from .faults import DropOrder, Faults, take_order
from .firmware import config, proto, wire
from .firmware.device import Device

ScriptEvent = TagEvent | ButtonEvent | DiceEvent
PENDING_LIMIT = 64 * 1024


class Simulator:
    def __init__(
        self,
        *,
        readers: int = 8,
        buttons: int = 8,
        slots: int = 4,
        leds: int = 8,
        script: Iterable[tuple[float, ScriptEvent]] = (),
        faults: Faults | None = None,
        seed: int = 0,
        link: str | None = None,
        start_on_hello: bool = True,
        heartbeat_ms: int = 1000,
        reboot_ms: int = 150,
        firmware: tuple[int, int, int] = config.FIRMWARE,
    ) -> None:
        """``firmware``: the version its HELLO_REPLY gives (the checkout's own by default; an
        older one stands for a Pico not updated since)."""
        self.readers, self.buttons, self.slots, self.leds = readers, buttons, slots, leds
        self.faults = faults or Faults()
        self.link = link
        self.heartbeat_ms = heartbeat_ms
        self.reboot_ms = reboot_ms
        self.firmware = firmware
        # in_/out_dropped and _corrupted by faults; write_dropped: the pty was full (no reader)
        self.stats = dict.fromkeys(
            ("in_dropped", "in_corrupted", "out_dropped", "out_corrupted", "write_dropped",
             "reboots", "events_played", "hellos"),
            0,
        )
        self.executed: list[tuple[str, tuple[int, ...]]] = []
        self.led_colours: dict[int, tuple[int, int, int]] = {}
        self.path: str | None = None
        self.script = list(script)
        self.script_done = threading.Event()
        self._rng = random.Random(seed)
        self._lock = threading.RLock()
        self._tags: dict[int, bytes] = {}
        self._pressed: set[int] = set()
        self._dice: dict[int, int] = {}
        self._t0 = time.monotonic()
        self._start: float | None = None if start_on_hello else self._t0
        self._next_event = 0
        self._master: int | None = None
        self._slave: int | None = None
        self._rx = bytearray()
        self._pending = bytearray()  # frames the pty could not take yet
        self._targets: dict[str, list[DropOrder]] = {"in": [], "out": []}
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._down_until: float | None = None
        self._next_reboot = time.monotonic() + self._reboot_interval()
        self.device: Device | None = self._boot()

    # ---- physical world -----------------------------------------------------------------------
    def truth(self) -> dict[int, str]:
        """Which tag physically sits on which reader."""
        with self._lock:
            return {r: uid.hex().upper() for r, uid in sorted(self._tags.items())}

    def pressed(self) -> frozenset[int]:
        """Which buttons are physically held down."""
        with self._lock:
            return frozenset(self._pressed)

    def apply(self, event: ScriptEvent) -> None:
        """Make something happen on the table; the device reports it unless it is rebooting."""
        with self._lock:
            dev = self.device
            if isinstance(event, TagEvent):
                uid = bytes.fromhex(event.uid)
                if event.present:
                    self._tags[event.reader] = uid
                elif self._tags.get(event.reader) == uid:
                    del self._tags[event.reader]
                if dev:
                    (dev.tag_present if event.present else dev.tag_removed)(event.reader, uid)
            elif isinstance(event, ButtonEvent):
                (self._pressed.add if event.pressed else self._pressed.discard)(event.button)
                if dev:
                    dev.button(event.button, event.pressed)
            else:
                if event.face:
                    self._dice[event.slot] = event.face
                else:
                    self._dice.pop(event.slot, None)
                if dev:
                    dev.dice_face(event.slot, event.face)
            self.stats["events_played"] += 1
            self._pump_out()

    def place(self, reader: int, uid: str) -> None:
        self.apply(TagEvent(reader, uid.upper(), True))

    def remove(self, reader: int) -> None:
        with self._lock:
            uid = self._tags.get(reader)
        if uid is not None:
            self.apply(TagEvent(reader, uid.hex().upper(), False))

    def press(self, button: int, pressed: bool = True) -> None:
        self.apply(ButtonEvent(button, pressed))

    def roll(self, slot: int, face: int) -> None:
        self.apply(DiceEvent(slot, face))

    def reader_fails(self, reader: int, failing: bool = True) -> None:
        """Reader ``reader`` stops answering (its connector came loose), or answers again."""
        with self._lock:
            if self.device is not None:
                self.device.reader_status(reader, not failing)
            self._pump_out()

    # ---- faults and power -----------------------------------------------------------------------
    def drop_next(self, direction: str, count: int = 1, types: Iterable[int] | None = None) -> None:
        """Lose the next ``count`` frames going ``"in"`` (to the device) or ``"out"`` (to the
        host), optionally only frames of the given types."""
        with self._lock:
            only = frozenset(types) if types is not None else None
            self._targets[direction].append(DropOrder(count, only))

    def inject(self, data: bytes, timeout: float = 10.0) -> None:
        """Write raw bytes towards the host, as line noise would (tests and fuzzing). Whole
        pieces are written under the lock so no device frame lands inside them; cut ``data``
        at frame boundaries (after a 0x00) to keep device frames intact."""
        deadline = time.monotonic() + timeout
        with self._lock:
            master = self._master
            view = memoryview(bytes(self._pending) + data)
            self._pending.clear()
            while view and master is not None:
                if time.monotonic() > deadline:
                    raise TimeoutError("the host does not read the pty")
                select.select([], [master], [], 0.05)
                try:
                    view = view[os.write(master, view) :]
                except BlockingIOError:
                    continue

    def reboot(self) -> None:
        """The firmware restarts (watchdog, brown-out): silent for ``reboot_ms``, then announces."""
        with self._lock:
            self.device = None
            self._down_until = time.monotonic() + self.reboot_ms / 1000
            self.stats["reboots"] += 1

    def unplug(self) -> None:
        """The USB cable comes out: the pty disappears and the device loses power."""
        with self._lock:
            self.device = None
            self._close_pty()

    def replug(self) -> str:
        """The cable goes back in: a new pty (usually a new name) and a fresh boot."""
        with self._lock:
            self._open_pty()
            self.device = self._boot()
            self.stats["reboots"] += 1
            self._pump_out()
            return self.path or ""

    # ---- running ----------------------------------------------------------------------------------
    def open(self) -> str:
        """Open the pty (once) and return its path; the boot HELLO is already written."""
        with self._lock:
            if self._master is None:
                self._open_pty()
                self._pump_out()
            return self.path or ""

    @property
    def stopping(self) -> bool:
        return self._stopping.is_set()

    def request_stop(self) -> None:
        """Make ``serve`` return (safe from a signal handler)."""
        self._stopping.set()

    def start(self) -> Simulator:
        """Open the pty and serve it from a background thread."""
        self.open()
        self._thread = threading.Thread(target=self.serve, name="bridge-sim", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        if self._thread:
            self._thread.join(2.0)
        self.close()

    def close(self) -> None:
        with self._lock:
            self._close_pty()

    def __enter__(self) -> Simulator:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def serve(self, until: float | None = None) -> None:
        """Answer the host and play the script until stopped (or ``until``, a monotonic time)."""
        while not self._stopping.is_set() and (until is None or time.monotonic() < until):
            master = self._master
            data = b""
            if master is None:
                time.sleep(0.01)
            else:
                try:
                    ready, _, _ = select.select([master], [], [], 0.01)
                    if ready:
                        data = os.read(master, 4096)
                except (OSError, ValueError):
                    data = b""  # closed under us by unplug(); the next turn sees it
            self.step(data)

    def step(self, data: bytes = b"") -> None:
        """One turn of the loop: take host bytes, play due events, tick, write frames."""
        now = time.monotonic()
        with self._lock:
            if data:
                self._receive(data)
            if self._down_until is not None and now >= self._down_until:
                self._down_until = None
                self.device = self._boot()
            if self.faults.reboot and self.device and now >= self._next_reboot:
                self._next_reboot = now + self._reboot_interval()
                self.reboot()
            self._play_due(now)
            if self.device:
                self.device.tick(self._ms(now))
            self._pump_out()

    # ---- internals ----------------------------------------------------------------------------------
    def _ms(self, now: float) -> int:
        return int((now - self._t0) * 1000)

    def _reboot_interval(self) -> float:
        return self.faults.reboot_every * self._rng.uniform(0.5, 1.5)

    def _boot(self) -> Device:
        """A fresh firmware: new boot id, silent scan of what is on the table, then HELLO."""
        dev = Device(
            self._rng.getrandbits(32),
            self.readers,
            self.buttons,
            self.slots,
            self.firmware,
            on_command=self._execute,
            heartbeat_ms=self.heartbeat_ms,
            now_ms=self._ms(time.monotonic()),
        )
        dev.restore(self._tags, self._pressed, self._dice)
        dev.announce()
        return dev

    def _execute(self, ftype: int, args: tuple[int, ...]) -> int:
        if ftype == proto.SET_LED:
            if args[0] >= self.leds:
                return proto.ACK_BAD_BODY
            self.led_colours[args[0]] = (args[1], args[2], args[3])
        self.executed.append((proto.NAMES[ftype], tuple(args)))
        return proto.ACK_OK

    def _play_due(self, now: float) -> None:
        if self._start is None:
            return
        while self._next_event < len(self.script):
            at, event = self.script[self._next_event]
            if now - self._start < at:
                return
            self._next_event += 1
            self.apply(event)
        self.script_done.set()

    def _open_pty(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no line editing, no XON/XOFF: the bytes are binary
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        self.path = os.ttyname(slave)
        if self.link:
            tmp = f"{self.link}.new"
            if os.path.lexists(tmp):
                os.unlink(tmp)
            os.symlink(self.path, tmp)
            os.replace(tmp, self.link)

    def _close_pty(self) -> None:
        for fd in (self._master, self._slave):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._master = self._slave = None
        self._rx.clear()
        self._pending.clear()

    def _fault(self, direction: str, frame: bytes) -> bytes | None:
        """The frame as it arrives: unchanged, damaged, or None when lost."""
        if take_order(self._targets[direction], frame):
            return None
        f, rng = self.faults, self._rng
        if f.drop and rng.random() < f.rate:
            self.stats[f"{direction}_dropped"] += 1
            return None
        if f.corrupt and rng.random() < f.rate and len(frame) > 1:
            damaged = bytearray(frame)
            damaged[rng.randrange(len(frame) - 1)] ^= rng.randrange(1, 256)
            self.stats[f"{direction}_corrupted"] += 1
            return bytes(damaged)
        return frame

    def _receive(self, data: bytes) -> None:
        self._rx += data
        while True:
            end = self._rx.find(b"\x00")
            if end < 0:
                if len(self._rx) > 4 * wire.MAX_ENCODED:
                    self._rx.clear()  # garbage without delimiters; the device would drop it too
                return
            frame = bytes(self._rx[: end + 1])
            del self._rx[: end + 1]
            arrived = self._fault("in", frame) if len(frame) > 1 else frame
            if arrived is None or self.device is None:
                continue
            if self._is_hello(arrived):
                self.stats["hellos"] += 1
                if self._start is None:
                    self._start = time.monotonic()
            self.device.feed(arrived)

    @staticmethod
    def _is_hello(frame: bytes) -> bool:
        try:
            return wire.decode_frame(frame.rstrip(b"\x00"))[0] == proto.HELLO
        except wire.FrameError:
            return False

    def _pump_out(self) -> None:
        if self.device is None:
            self._flush_pending()
            return
        frames = self.device.take()
        if self._master is None:
            return
        for frame in frames:
            out = self._fault("out", frame)
            if out is not None:
                if len(self._pending) + len(out) > PENDING_LIMIT:
                    self.stats["write_dropped"] += 1  # nobody has read for a long while
                else:
                    self._pending += out
        self._flush_pending()

    def _flush_pending(self) -> None:
        """Write what the pty takes now; the rest waits for the next turn (USB backpressure)."""
        while self._pending and self._master is not None:
            try:
                written = os.write(self._master, self._pending)
            except BlockingIOError:
                return
            except OSError:
                self._pending.clear()
                return
            del self._pending[:written]


def _extend(sim_args: argparse.Namespace, script: list[tuple[float, ScriptEvent]]) -> None:
    """Grow the reader/button/slot counts to cover what the script uses."""
    for _, event in script:
        if isinstance(event, TagEvent):
            sim_args.readers = max(sim_args.readers, event.reader + 1)
        elif isinstance(event, ButtonEvent):
            sim_args.buttons = max(sim_args.buttons, event.button + 1)
        else:
            sim_args.slots = max(sim_args.slots, event.slot + 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m firmware_bridge.simulator",
        description="Simulated reader microcontroller on a pseudo-terminal (prints its path first).",
    )
    parser.add_argument("--script", help="JSON Lines events to play (the vocabulary of docs/design.md)")
    parser.add_argument("--faults", default="", help="comma list of drop, corrupt, reboot")
    parser.add_argument("--fault-rate", type=float, default=0.05, help="per-frame chance")
    parser.add_argument("--reboot-every", type=float, default=3.0, help="mean seconds")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--readers", type=int, default=8)
    parser.add_argument("--buttons", type=int, default=8)
    parser.add_argument("--slots", type=int, default=4)
    parser.add_argument("--link", help="also keep this symlink pointing at the pty")
    parser.add_argument("--start-now", action="store_true", help="start the script clock at launch")
    parser.add_argument("--exit-after", type=float, default=None, help="seconds after the script")
    args = parser.parse_args(argv)
    try:
        faults = Faults.parse(args.faults, args.fault_rate, args.reboot_every)
        script: list[tuple[float, ScriptEvent]] = []
        if args.script:
            with open(args.script, encoding="utf-8") as handle:
                script = read_script(handle)
    except (OSError, ValueError, ScriptError) as err:
        print(json.dumps({"error": str(err)}), file=sys.stderr)
        return 2
    _extend(args, script)
    seed = args.seed if args.seed is not None else random.SystemRandom().getrandbits(32)
    sim = Simulator(
        readers=args.readers,
        buttons=args.buttons,
        slots=args.slots,
        script=script,
        faults=faults,
        seed=seed,
        link=args.link,
        start_on_hello=not args.start_now,
    )
    signal.signal(signal.SIGTERM, lambda *_: sim.request_stop())
    print(sim.open(), flush=True)
    try:
        if args.exit_after is None:
            sim.serve()
        else:
            while not sim.script_done.is_set() and not sim.stopping:
                sim.serve(until=time.monotonic() + 0.1)
            sim.serve(until=time.monotonic() + args.exit_after)
    except KeyboardInterrupt:
        pass
    finally:
        print(json.dumps({"simulator": sim.stats, "seed": seed}), file=sys.stderr, flush=True)
        sim.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
