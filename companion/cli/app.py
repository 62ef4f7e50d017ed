"""The composition root: config → devices (real or simulated) → controller → sessions → dashboard.

``companion run`` calls :func:`build` then :meth:`Companion.serve`. Everything
is wired here and only here: ``hw`` knows nothing of games, the games know
nothing of hardware, and the dashboard talks to the session API.

Data flows one way (DESIGN.md): a device event goes to the
:class:`~companion.board.controller.TableController` of the game on the table, which
acts on the session; the session journals, then tells its listeners — the
controller redraws the OLED, the dashboard's hub wakes every open page.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import socket
import sqlite3
import sys
import threading
import time
from pathlib import Path
from typing import Any

from companion.board.config import Config, DisplayConfig, ReaderConfig
from companion.table.journal import open_checked
from companion.table.session import Session

log = logging.getLogger(__name__)

#: live SSE connections the server holds at once (each one keeps a worker thread)
MAX_LIVE = 160
#: worker threads for ordinary requests, beyond the live connections
SPARE_THREADS = 8
#: a worker thread's stack: ~170 threads must fit a 32-bit Pi's address space
THREAD_STACK = 1024 * 1024
#: open connections at most (live pages, ordinary requests, idle keep-alives); near it the
#: oldest idle connections are closed, so idle sockets can never keep a request waiting
CONNECTION_LIMIT = MAX_LIVE + 200
#: bytes queued for one connection before its writer waits; each response is freed as it
#: is sent (waitress keeps up to 16 MB a connection by default: 2.5 GB at 160 pages)
OUTBUF_HIGH = 64 * 1024
#: a page that takes no byte for this many seconds while its queue is full is dropped
#: (``COMPANION_SEND_TIMEOUT`` changes it, for the reliability suite)
SEND_TIMEOUT = float(os.environ.get("COMPANION_SEND_TIMEOUT", "20"))
#: the kernel's send buffer per connection (the kernel doubles it); a page is a few KB
SEND_BUFFER = 64 * 1024
#: an idle connection (no request in progress) is closed after this many seconds
IDLE_TIMEOUT = 30
#: seconds between two comment lines on a quiet live stream: with TCP_USER_TIMEOUT (10 s) a
#: page whose Wi-Fi vanished frees its slot within ~15 s
LIVE_KEEPALIVE = 5.0
#: seconds close() waits for a thread (server workers, the table loop) before going on
SHUTDOWN_WAIT = 0.3
#: seconds between two returns of freed heap memory to the system (malloc_trim)
TRIM_EVERY = 10.0


def simulated(cfg: Config) -> Config:
    """``cfg`` with every device simulated: mock pins, dummy OLED, simulated readers.

    Reader points behind the firmware bridge stay there, but the bridge talks to
    the firmware simulator on a pseudo-terminal (``[bridge] port = "sim"``).
    """
    readers = tuple(r if r.backend == "bridge" else ReaderConfig(r.point) for r in cfg.readers)
    return dataclasses.replace(cfg, pin_factory="mock", display=DisplayConfig(), readers=readers,
                               bridge=dataclasses.replace(cfg.bridge, port="sim"))


class SimTable:
    """The simulated devices as the simulation panel drives them (``web.context.SimBackend``)."""

    def __init__(self, devices: Any, bridge_buttons: dict[int, str] | None = None, press_seconds: float = 0.03):
        self.devices = devices
        self.press_seconds = press_seconds
        #: buttons wired to the firmware bridge: name -> the bridge's button index
        self.bridge_buttons = {name: i for i, name in (bridge_buttons or {}).items()}
        self._lock = threading.Lock()

    def buttons(self) -> list[str]:
        return list(self.devices.panel.buttons) + [n for n in self.bridge_buttons if n not in self.devices.panel.buttons]

    def press(self, name: str, hold: bool = False) -> None:
        """Press ``name`` briefly, or ``hold`` it past its hold time (Back held: undo)."""
        with self._lock:
            if name in self.bridge_buttons and self.devices.simulator is not None:
                self.devices.simulator.press(self.bridge_buttons[name], True)
                time.sleep(self.press_seconds)
                self.devices.simulator.press(self.bridge_buttons[name], False)
                return
            button = self.devices.panel.buttons[name]
            button.pin.drive_low()
            time.sleep(button.hold_time + 0.2 if hold else self.press_seconds)  # longer than the debounce time
            button.pin.drive_high()
            time.sleep(self.press_seconds)
        self._delivered()

    def _delivered(self) -> None:
        """Wait until the table has handled what was just done (a worker delivers device events)."""
        drain = getattr(self.devices, "drain", None)
        if drain is not None:
            drain(1.0)

    def turn(self, delta: int) -> None:
        encoder = self.devices.panel.encoder
        if encoder is None:
            return
        a, b = encoder.a.pin, encoder.b.pin
        first, second = (a, b) if delta > 0 else (b, a)
        with self._lock:
            first.drive_low()
            second.drive_low()
            first.drive_high()
            second.drive_high()
        self._delivered()

    def points(self) -> list[str]:
        return list(self.devices.readers.readers)

    def _bridged(self, reader: Any) -> bool:
        return getattr(reader, "backend", "") == "bridge" and self.devices.simulator is not None

    def place(self, point: str, uid: str) -> None:
        reader = self.devices.readers.readers[point]
        if self._bridged(reader):  # through the firmware simulator, over the pseudo-terminal
            self.devices.simulator.place(reader.index, uid)
            return
        reader.place(uid)
        self.devices.readers.step()  # report at once; the poll thread keeps it debounced
        self._delivered()

    def remove(self, point: str, uid: str) -> None:
        reader = self.devices.readers.readers[point]
        if self._bridged(reader):
            if self.devices.simulator.truth().get(reader.index) == uid:
                self.devices.simulator.remove(reader.index)
            return
        if getattr(reader, "on_antenna", None) == uid:
            reader.remove()

    def on_readers(self) -> dict[str, list[str]]:
        truth = self.devices.simulator.truth() if self.devices.simulator is not None else {}
        out = {}
        for point, reader in self.devices.readers.readers.items():
            uid = truth.get(reader.index) if self._bridged(reader) else getattr(reader, "on_antenna", None)
            if uid:
                out[point] = [uid]
        return out

    def oled_png(self) -> bytes:
        return self.devices.oled.png()

    def oled_serial(self) -> int:
        return self.devices.oled.sent


class Tags:
    """The tag registry as the dashboard's enrollment page uses it (``web.context.TagBackend``)."""

    EXAMPLES = {
        "tile": ["sea_lion+iguana", "tortoise+crab"],
        "animal": ["sea_lion", "iguana", "tortoise", "booby", "penguin", "crab"],
        "turtle": [str(n) for n in range(1, 37)],
        "ball": ["fish 0", "fish 1", "fish 2", "fish 3", "snake"],
        "weather": ["0", "1", "2", "3", "hurricane"],
        "die": ["red 1", "blue 6"],
    }

    def __init__(self, registry: Any, hub: Any):
        self.registry = registry
        self.hub = hub
        self.last: str | None = None

    def seen(self, event: Any) -> None:
        """Device listener: remember the last tag placed on the scan pad."""
        if getattr(event, "point", None) == "scan" and getattr(event, "present", False):
            self.last = event.uid

    def kinds(self) -> dict[str, list[str]]:
        return dict(self.EXAMPLES)

    def enrolled(self) -> list[dict[str, Any]]:
        from hw.tags import Component

        rows = self.registry.entries()
        for row in rows:
            row["label"] = Component(row["kind"], row["value"], row.get("label", "")).describe()
        return rows

    def enroll(self, uid: str, kind: str, value: str) -> dict[str, Any]:
        from hw.tags import TagError, make_component

        try:
            comp = make_component(kind, parse_tag_value(kind, value))
        except TagError as exc:
            raise ValueError(str(exc)) from None
        self.registry.enrol(uid, "*", comp)
        return {"uid": uid, "kind": comp.kind, "value": comp.value, "label": comp.describe()}

    def forget(self, uid: str) -> bool:
        games = {row["game"] for row in self.registry.entries() if row["uid"] == uid}
        return any([self.registry.forget(uid, g) for g in games])

    def last_scanned(self) -> str | None:
        return self.last

    def export(self) -> Any:
        return self.registry.export_json()


def parse_tag_value(kind: str, text: str) -> dict[str, Any]:
    """What a player types for a tag ("sea_lion+iguana", "17", "fish 2", "hurricane", "red 1")."""
    words = text.replace("+", " ").replace(",", " ").split()
    if not words:
        raise ValueError("Say what the tag is.")
    try:
        if kind == "tile":
            return {"animals": words[:2] if len(words) >= 2 else words}
        if kind == "animal":
            return {"animal": words[0]}
        if kind == "turtle":
            return {"number": int(words[-1])}
        if kind == "ball":
            return {"snake": True} if "snake" in words else {"fish": int(words[-1])}
        if kind == "weather":
            water = next((int(w) for w in words if w.isdigit()), 0)
            return {"water": water, "hurricane": "hurricane" in words}
        if kind == "die":
            return {"die": words[0], "bottom": int(words[-1])}
    except ValueError:
        raise ValueError(f"Cannot read {text!r} as a {kind}; for example {Tags.EXAMPLES[kind][0]}.") from None
    raise ValueError(f"A tag can be a {', '.join(Tags.EXAMPLES)}, not {kind!r}.")


def demo_tags() -> list[tuple[str, Any]]:
    """A tag for every component of the four games, so a newcomer's simulated table works at once.

    UIDs are 7 bytes: ``04`` (NXP), a kind byte, then a running number.
    """
    from itertools import combinations

    from hw.tags import make_component

    animals = ["sea_lion", "iguana", "tortoise", "booby", "penguin", "crab"]
    colours = ["black", "white", "red", "green", "yellow", "blue"]
    made: list[tuple[str, Any]] = []

    def add(kind_byte: int, n: int, kind: str, value: dict[str, Any]) -> None:
        made.append((f"04{kind_byte:02X}{n:010X}", make_component(kind, value)))

    for n, pair in enumerate(combinations(animals, 2), start=1):
        add(0x71, n, "tile", {"animals": list(pair)})
    for n, animal in enumerate(animals, start=1):
        add(0x72, n, "animal", {"animal": animal})
    for n in range(1, 37):
        add(0x73, n, "turtle", {"number": n})
    for n, fish in enumerate((1, 1, 1, 2, 2, 3), start=1):
        add(0x74, n, "ball", {"fish": fish})
    add(0x74, 7, "ball", {"snake": True})
    for n, water in enumerate((0, 1, 2, 3), start=1):
        add(0x75, n, "weather", {"water": water})
    add(0x75, 5, "weather", {"water": 2, "hurricane": True})
    for n, colour in enumerate(colours, start=1):  # a colour die's tag sits under the opposite face
        add(0x76, n, "die", {"die": "colour", "bottom": colours[-n], "up": colour})
    return made


class Companion:
    """Everything ``companion run`` starts, wired together."""

    def __init__(self, cfg: Config, db_path: Path, *, sim: bool, host: str, port: int,
                 url: str | None = None, devices: Any = None):
        from web import create_app
        from web.context import Dashboard
        from web.hub import Hub
        from web.security import Keys, SeatStore, load_secret

        self.cfg = cfg
        self.sim = sim
        self.host, self.port = host, port
        self.db_path = db_path
        #: what start-up found in the journal (damage recovered, an emptied file, a read-only card)
        self.journal, self.notices = open_checked(db_path)
        self.hub = Hub(self.journal, max_feeds=MAX_LIVE, autotick=True)
        self.keys = Keys(load_secret(db_path.with_name(db_path.name + ".secret")))
        self.seats = SeatStore(db_path)
        self.keys.nonces = self.seats.code_nonce  # a join code can be renewed
        self.devices = devices
        self.controller: Any = None
        self.tags: Tags | None = None
        self._url = url
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._oled_serial = -1
        self.server: Any = None
        #: set by :meth:`request_stop` (the signal number); :meth:`serve` stops when it is
        self.stop_requested = 0
        self._wake: tuple[int, int] | None = None
        self._previous_wakeup = -1
        self._closed = False
        self._previous_handlers: dict[int, Any] = {}
        self.dashboard = Dashboard(self.hub, self.keys, self.seats)
        self.dashboard.extra["notices"] = self.notices
        self.dashboard.keepalive = LIVE_KEEPALIVE
        self.app = create_app(self.dashboard)
        self._last_backup = self._finished_checked = self._last_trim = time.monotonic()
        self._finished = len(self.journal.games(finished=True))

    # -- devices ------------------------------------------------------------
    def open_devices(self) -> None:
        """Open the configured devices (simulated with ``--sim``) and follow the current game."""
        from companion.board.controller import open_devices

        if self.devices is None:
            cfg = self.cfg
            if self.journal.readonly:  # the tag registry cannot open on the card: a copy in RAM, read-only in effect
                cfg = dataclasses.replace(cfg, tags_db=self._tags_copy(cfg.tags_db or str(self.db_path)))
            self.devices = open_devices(cfg, db_path=str(self.db_path))
        if self.devices.registry is not None:
            if self.sim and not self.devices.registry.entries():
                try:
                    for uid, comp in demo_tags():
                        self.devices.registry.enrol(uid, "*", comp)
                except sqlite3.OperationalError as exc:  # a full or read-only card: play without them
                    self.notices.append(f"The demonstration tags could not be enrolled ({exc}).")
            self.tags = Tags(self.devices.registry, self.hub)
            self.devices.listeners.append(self.tags.seen)
            self.dashboard.tags = self.tags
        if self.sim:
            self.dashboard.sim = SimTable(self.devices, self.cfg.bridge.buttons)
        if hasattr(self.devices, "health"):
            self.dashboard.health = self.devices.health
        self.devices.listeners.append(self._device_event)
        self.hub.on_current(self._follow)

    def _tags_copy(self, source: str) -> str:
        """A temporary copy of the tag registry's file (a read-only card): tags read, enrolments do not last."""
        import shutil
        import tempfile

        folder = Path(tempfile.mkdtemp(prefix="companion-tags-"))
        copy = folder / "tags.db"
        try:
            shutil.copyfile(source, copy)
            wal = Path(source + "-wal")
            if wal.exists():
                shutil.copyfile(wal, Path(str(copy) + "-wal"))
        except OSError:
            pass  # no registry yet: an empty one
        self.notices.append("Tags enrolled now are kept only until the companion stops (the card is read-only).")
        return str(copy)

    def _device_event(self, event: Any) -> None:
        from hw.events import StatusEvent

        if isinstance(event, StatusEvent):  # a device down or back: every open page redraws its banner now
            for channel in {"games", getattr(self.hub, "current", None)} - {None}:
                self.hub.broadcast(channel)
            if getattr(self, "club", None) is not None:  # the club's status names the devices down
                self.club.health_changed(getattr(self.hub, "current", None))
        with self._lock:
            controller = self.controller
        if controller is None:
            if isinstance(event, StatusEvent):  # a device down or back: say it on the empty table
                failing = self._failing_devices()
                self._idle_screen(failing[-1] if failing else None)
                return
            self.lobby().handle(event)  # no game on the table: its buttons can start one
            return
        controller.handle(event)

    def lobby(self) -> Any:
        """The buttons and OLED with no game on the table (:mod:`companion.board.lobby`): a game started there
        goes through the hub (``Session.new`` with the journal) and onto the table."""
        from companion.board.lobby import TableLobby

        if getattr(self, "_lobby", None) is None:
            self._lobby = TableLobby(self.devices.oled, lambda g, p, o: self.hub.set_current(self.hub.new(g, p, o).id),
                                     beeper=self.devices.beeper, url=self.base_url() + "/join")
        return self._lobby

    def _failing_devices(self) -> list[str]:
        """The sentences of the devices failing now (each with its fix)."""
        status = getattr(self.devices, "status", None) or {}
        return [s.message for s in status.values() if not s.ok and s.message]

    def _follow(self, session: Session | None) -> None:
        """The table's game changed: a new controller for it (or the idle screen)."""
        from companion.board.controller import TableController

        with self._lock:
            if self.controller is not None:
                self.controller.close()
                self.controller = None
            if session is None or self.devices is None:
                self._idle_screen()
                return
            self.controller = TableController(
                session, self.devices.oled, beeper=self.devices.beeper, leds=self.devices.leds,
                registry=self.devices.registry, url=self.join_url(session.id),
                phone_seats=lambda sid=session.id: self.seats.claimed(sid),  # acting for them asks first
            )

    def _idle_screen(self, message: str | None = None) -> None:
        if self.devices is None:
            return
        if message:  # what start-up found, long enough to be read at the table
            self.lobby().say(message, 60.0)
        self.lobby().show()  # which game, how many players: from the buttons alone

    # -- addresses ------------------------------------------------------------
    def base_url(self) -> str:
        if self._url:
            return self._url.rstrip("/")
        host = self.host
        if host in ("0.0.0.0", "::", ""):
            host = lan_address() or socket.gethostname()
        port = self.server.effective_port if self.server is not None else self.port
        return f"http://{host}:{port}"

    def join_url(self, game_id: str) -> str:
        return f"{self.base_url()}/join?code={self.keys.join_code(game_id)}"

    def table_url(self) -> str:
        return f"{self.base_url()}/?token={self.keys.table_token}"

    # -- running --------------------------------------------------------------
    def start(self) -> None:
        """Bind the server, open the devices, resume the last unfinished game, start the loops."""
        from web import MAX_BODY

        threading.stack_size(THREAD_STACK)
        self.server = make_server(self.app, self.host, self.port, max_body=4 * MAX_BODY)
        self.dashboard.base_url = self.base_url()
        self.open_devices()
        self.resume()
        from companion.club import wiring

        self.club = wiring.start(self.cfg.mqtt, self.journal, self.db_path, self._failing_devices, self.notices)
        self.hub.start(interval=0.25)
        if self.devices is not None:
            self.devices.start()  # reader polling, and the bridge link when readers sit behind it
        loop = threading.Thread(target=self._loop, name="table-loop", daemon=True)
        loop.start()
        self._threads.append(loop)

    def resume(self) -> Session | None:
        """Put the game last acted on (by journal order) back on the table.

        A game that cannot be resumed (its replay fails, its timer cannot start) is
        reported and skipped: one broken game never keeps the table from starting. A game
        the table abandoned or deleted on Home is never put back on (:mod:`companion.table.library`).
        """
        from companion.table.library import Library

        for record in Library(self.journal).resumable(self.journal.last_acted(finished=False)):
            try:
                session = self.hub.set_current(record.id)
            except Exception as exc:  # noqa: BLE001 - any failure is this game's alone
                log.exception("game %s cannot be resumed", record.id)
                message = getattr(exc, "message", None) or f"{type(exc).__name__}: {exc}"
                self.notices.append(f"Game {record.id} ({record.game}) could not be resumed: {message}")
                continue
            self._show_notices()
            return session
        self.hub.set_current(None)
        self._show_notices()
        return None

    def _show_notices(self) -> None:
        """Say on the OLED what start-up found (the dashboard shows ``notices`` too)."""
        if not self.notices or self.devices is None:
            return
        text = self.notices[-1] if len(self.notices) == 1 else f"{len(self.notices)} problems: {self.notices[-1]}"
        with self._lock:
            controller = self.controller
        if controller is None:
            self._idle_screen(text)
            return
        controller.refuse(text)
        if hasattr(controller, "_message_until"):
            controller._message_until = controller.clock() + 60  # long enough to be read at the table

    def backup(self) -> None:
        """A backup of the journal now (at most hourly from the loop, and when a game ends)."""
        self._last_backup = time.monotonic()
        if self.journal.readonly:
            return
        try:
            self.journal.backup()
        except Exception as exc:  # noqa: BLE001 - a backup must never stop the table
            log.warning("journal backup failed: %s", exc)

    def _loop(self) -> None:
        """A few times a second: the controller's tick (timer beep, messages), the OLED mirror."""
        while not self._stop.wait(0.1):
            try:
                with self._lock:
                    controller = self.controller
                if controller is not None:
                    controller.tick()
                elif self.devices is not None:
                    self.lobby().tick()  # what does not fit scrolls
                if time.monotonic() - self._last_trim > TRIM_EVERY:
                    self._last_trim = time.monotonic()
                    release_free_memory()
                if time.monotonic() - self._last_backup > 3600:
                    self.backup()
                if time.monotonic() - self._finished_checked > 30:  # a game just ended: back it up
                    self._finished_checked = time.monotonic()
                    finished = len(self.journal.games(finished=True))
                    if finished != self._finished:
                        self._finished = finished
                        self.backup()
                if self.devices is not None and self.devices.oled.sent != self._oled_serial:
                    self._oled_serial = self.devices.oled.sent
                    self.hub.broadcast("sim")
            except Exception:
                log.exception("table loop")

    # -- signals and serving ------------------------------------------------------
    def request_stop(self, signum: int = 0, frame: Any = None) -> None:
        """The SIGTERM/SIGINT handler: it only records the request.

        A signal handler runs between two bytecodes of the main thread, possibly inside a
        lock that thread holds (``Event.set`` → ``Condition.__enter__``): taking any lock here
        can deadlock when a second signal arrives during the first (issue 22). So it sets a
        plain attribute; the byte :func:`signal.set_wakeup_fd` writes wakes the server's poll,
        and :meth:`serve` does the stopping, outside any handler.
        """
        self.stop_requested = signum or -1

    def install_signal_handlers(self) -> None:
        """SIGTERM and SIGINT ask :meth:`serve` to stop; the wake-up pipe ends its poll at once."""
        import signal

        if threading.current_thread() is not threading.main_thread():
            return  # signals are delivered to the main thread only (tests build a Companion elsewhere)
        if self._wake is None:
            read_end, write_end = os.pipe()
            os.set_blocking(read_end, False)
            os.set_blocking(write_end, False)
            self._wake = (read_end, write_end)
        self._previous_wakeup = signal.set_wakeup_fd(self._wake[1], warn_on_full_buffer=False)
        self._previous_handlers = {sig: signal.signal(sig, self.request_stop) for sig in (signal.SIGTERM, signal.SIGINT)}

    def serve(self) -> None:
        """Serve until :meth:`request_stop` (Ctrl-C or SIGTERM), then close everything.

        The server's own ``run`` loops until its map empties; here the loop goes one poll at a
        time and looks at the stop request after each, the wake-up pipe being one of the polled
        files so a signal ends the current poll (``asyncore_loop_timeout`` is the longest wait
        without one).
        """
        from waitress import wasyncore

        socket_map = getattr(self.server, "map", None) or self.server._map
        waker = None
        if self._wake is not None:
            waker = _drain(self._wake[0], socket_map)
        try:
            while not self.stop_requested and socket_map:
                wasyncore.loop(timeout=self.server.adj.asyncore_loop_timeout, map=socket_map,
                               use_poll=True, count=1)
        finally:
            if waker is not None:
                waker.close()
            self.close()

    def close(self) -> None:
        """Stop the loops, the live pages, the server, the devices; close the journal last (once)."""
        if self._closed:
            return
        self._closed = True
        self._stop.set()
        self.hub.stop()
        if self.server is not None:
            try:  # worker threads are daemons: a page still streaming does not hold the exit
                self.server.task_dispatcher.shutdown(timeout=SHUTDOWN_WAIT)
                wasyncore_close_all(self.server)
            except Exception:
                log.exception("closing the server")
        with self._lock:
            if self.controller is not None:
                self.controller.close()
                self.controller = None
        if self.devices is not None:
            try:
                self.devices.close()
            except Exception:
                log.exception("closing devices")
        for thread in self._threads:
            thread.join(timeout=SHUTDOWN_WAIT)
        ticker = getattr(self.hub, "_ticker", None)  # its last poll may still read the journal
        if ticker is not None and ticker is not threading.current_thread():
            ticker.join(timeout=SHUTDOWN_WAIT)
        if getattr(self, "club", None) is not None:  # its PUBACKs get a moment; the rest waits in the outbox
            self.club.stop()
        for part in (self.seats, self.journal):  # last: a session's final write has finished under its lock
            try:
                part.close()
            except Exception:
                log.exception("closing %r", part)
        if self._wake is not None:
            import signal

            if threading.current_thread() is threading.main_thread():  # as before install_signal_handlers
                signal.set_wakeup_fd(self._previous_wakeup)  # before its pipe closes: the fd could be reused
                # Stopped by a signal, the process is on its way out: a burst (systemd's SIGTERM, then
                # a Ctrl-C) may still be arriving, and the default handlers would kill it mid-exit with
                # -15. The recording handler stays; without a signal (tests) the old ones come back.
                if not self.stop_requested:
                    for sig, handler in self._previous_handlers.items():
                        signal.signal(sig, handler)
            for fd in self._wake:
                os.close(fd)
            self._wake = None


def _drain(fd: int, socket_map: dict[int, Any]) -> Any:
    """The wake-up pipe's read end in the server's poll: it empties the pipe, nothing more."""
    from waitress import wasyncore

    class Drain(wasyncore.file_dispatcher):
        def writable(self) -> bool:
            return False

        def handle_read(self) -> None:
            try:
                while self.recv(512):
                    pass
            except OSError:  # EAGAIN: emptied
                pass

    return Drain(fd, socket_map)


def exit_now(status: int) -> None:
    """End the process once :meth:`Companion.close` has closed everything.

    The exit handlers run (gpiozero's among them) and the output is flushed; what is left,
    the interpreter freeing every module and object one by one, took 0.7 to 1.2 s on a
    busy two-core machine — longer than the whole shutdown may take (issue 22: within 1 s
    of the signal). The kernel frees that memory at once.
    """
    import atexit
    import signal

    if threading.current_thread() is threading.main_thread():
        # the table is closed: a late signal of a burst (SIGINT's default raises KeyboardInterrupt)
        # must not break the exit handlers with a traceback; the process is ending anyway
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, signal.SIG_IGN)
    try:
        atexit._run_exitfuncs()
        logging.shutdown()
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
    finally:
        os._exit(status)


def wasyncore_close_all(server: Any) -> None:
    """Close the server's sockets (waitress's ``close`` also waits 5 s for its threads)."""
    from waitress import wasyncore

    wasyncore.close_all(getattr(server, "map", None) or server._map)


# -- the HTTP server -------------------------------------------------------------------------
#
# Chosen by measurement (docs/performance-notes.md): waitress, tuned for long-lived streams.
# Out of the box it keeps every byte a connection sent until 16 MB have passed, spills that
# to temporary files when a page does not read, never times out a connection that has a
# request running, and stops accepting once idle sockets fill its connection limit. The
# classes below fix each of these; the rest of waitress (HTTP parsing, threads) is unchanged.

def make_server(app: Any, host: str, port: int, *, max_body: int, threads: int = MAX_LIVE + SPARE_THREADS) -> Any:
    """A waitress server for ``app`` with bounded memory per connection and no starvation."""
    import waitress.server

    options = [(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1), (socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1),
               (socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)]  # a stalled page fills this, not MBs
    for name, value in (("TCP_KEEPIDLE", 5), ("TCP_KEEPINTVL", 3), ("TCP_KEEPCNT", 3), ("TCP_USER_TIMEOUT", 10_000)):
        if hasattr(socket, name):  # a vanished phone is noticed in ~15 s, not after TCP's 15 minutes
            options.append((socket.IPPROTO_TCP, getattr(socket, name), value))
    server = waitress.server.create_server(
        app, host=host, port=port, threads=threads, _dispatcher=_lifo_dispatcher(threads),
        connection_limit=CONNECTION_LIMIT, channel_timeout=IDLE_TIMEOUT, cleanup_interval=5,
        outbuf_high_watermark=OUTBUF_HIGH, outbuf_overflow=4 * OUTBUF_HIGH,
        channel_request_lookahead=1,  # keep reading a streaming connection: its close is seen at once
        asyncore_use_poll=True, ident="galapagos-companion", max_request_body_size=max_body,
        expose_tracebacks=False, clear_untrusted_proxy_headers=True,
    )  # waitress drops bodies over max_body (a JSON 413 too); below that the app answers
    for listener in {id(s): s for s in server._map.values()}.values():
        if isinstance(listener, waitress.server.BaseWSGIServer):
            listener.adj.socket_options = options  # a class attribute in waitress, not a keyword
            listener.channel_class = _channel_class()
            listener.readable = _evicting_readable(listener)
    return server


class LifoCondition(threading.Condition):
    """A condition whose ``notify`` wakes the thread that began waiting *last*.

    waitress wakes its idle workers first-in first-out, so every request runs on
    another of its ~170 threads and each of them, in turn, grows its own caches:
    the resident size climbs for minutes (~3 MB a minute at two actions a second).
    Woken last-in first-out, ordinary requests keep to the few threads that are
    already warm, and the threads that wait for nothing stay small.
    """

    def notify(self, n: int = 1) -> None:
        if not self._is_owned():  # type: ignore[attr-defined]
            raise RuntimeError("cannot notify on un-acquired lock")
        waiters = self._waiters  # type: ignore[attr-defined]
        while waiters and n > 0:
            waiter = waiters[-1]
            try:
                waiter.release()
            except RuntimeError:
                pass
            else:
                n -= 1
            try:
                waiters.remove(waiter)
            except ValueError:
                pass


def _lifo_dispatcher(threads: int) -> Any:
    """waitress' thread pool, waking its most recently idle worker first."""
    from waitress.task import ThreadedTaskDispatcher

    dispatcher = ThreadedTaskDispatcher()
    dispatcher.queue_cv = LifoCondition(dispatcher.lock)
    dispatcher.set_thread_count(threads)
    return dispatcher


def _evicting_readable(server: Any) -> Any:
    """``server.readable`` that first closes the oldest idle connections when the limit is near."""
    base = type(server).readable

    def readable() -> bool:
        limit = server.adj.connection_limit
        if server.accepting and len(server._map) >= limit - 8:
            idle = sorted((c for c in list(server.active_channels.values())
                           if not c.requests and not c.will_close and not c.total_outbufs_len),
                          key=lambda c: c.last_activity)
            for channel in idle[: len(server._map) - (limit - 16)]:
                channel.will_close = True  # closed by the loop's next pass
        return base(server)

    return readable


_CHANNEL: Any = None


def _channel_class() -> Any:
    """waitress' channel with a send timeout and JSON errors (built once, on first use)."""
    global _CHANNEL
    if _CHANNEL is not None:
        return _CHANNEL
    import json

    from waitress.channel import ClientDisconnected, HTTPChannel
    from waitress.task import ErrorTask

    from web import MAX_BODY

    class JsonErrorTask(ErrorTask):
        """waitress' own refusals (body too large, malformed request) in the API's JSON shape."""

        def execute(self) -> None:
            err = self.request.error
            message = {
                413: f"The request is larger than {MAX_BODY} bytes.",
                431: "The request's headers are too large.",
            }.get(err.code, "The request could not be read as HTTP.")
            body = json.dumps({"error": {"status": err.code, "message": message}}).encode()
            self.status = f"{err.code} {err.reason}"
            self.response_headers.append(("Content-Type", "application/json"))
            self.set_close_on_finish()
            self.content_length = len(body)
            self.write(body)

    class Channel(HTTPChannel):
        error_task_class = JsonErrorTask

        def _flush_outbufs_below_high_watermark(self) -> None:
            """Wait for the page to read, but not for ever: no progress for SEND_TIMEOUT drops it."""
            if self.total_outbufs_len <= self.adj.outbuf_high_watermark:
                return
            with self.outbuf_lock:
                _, failed = self._flush_exception(self._flush_some, do_close=False)
                if failed:
                    self.server.pull_trigger()
                    self.outbuf_lock.wait(1.0)
                    return
                queued, deadline = self.total_outbufs_len, time.monotonic() + SEND_TIMEOUT
                while self.connected and self.total_outbufs_len > self.adj.outbuf_high_watermark:
                    self.server.pull_trigger()
                    self.outbuf_lock.wait(1.0)
                    if self.total_outbufs_len < queued:
                        queued, deadline = self.total_outbufs_len, time.monotonic() + SEND_TIMEOUT
                    elif time.monotonic() >= deadline:
                        log.info("dropping a connection from %s that stopped reading", self.addr)
                        self.will_close = True
                        try:  # the loop only writes (and so closes) when the socket takes bytes: cut it now
                            self.socket.shutdown(socket.SHUT_RDWR)
                        except OSError:
                            pass
                        self.server.pull_trigger()
                        raise ClientDisconnected

    _CHANNEL = Channel
    return Channel


_LIBC: Any = None


def release_free_memory() -> None:
    """Give the C heap's free pages back to the system (glibc ``malloc_trim``).

    Rendering a page for each of 100 live connections, in as many threads, leaves
    freed holes all over the heap; glibc keeps them (the resident size creeps up by
    MBs a minute) unless asked. ``malloc_trim(0)`` returns every free page, also in
    the middle of the heap. A no-op where the C library is not glibc.
    """
    global _LIBC
    try:
        if _LIBC is None:
            import ctypes
            import ctypes.util

            _LIBC = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        _LIBC.malloc_trim(0)
    except (OSError, AttributeError):
        _LIBC = False


def raise_open_files_limit(wanted: int = 4096) -> None:
    """Raise the soft limit of open files: every connection is a file descriptor."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        if soft != resource.RLIM_INFINITY and soft < target:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    except (ImportError, ValueError, OSError):
        pass


def lan_address() -> str | None:
    """This machine's address on the LAN (the one a phone on the same Wi-Fi reaches)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # TEST-NET: nothing is sent
            return s.getsockname()[0]
    except OSError:
        return None


def build(cfg: Config, db_path: Path, *, sim: bool, host: str | None = None, port: int | None = None,
          url: str | None = None) -> Companion:
    """A :class:`Companion` for ``cfg``; ``sim`` forces simulated devices and 127.0.0.1."""
    if sim:
        cfg = simulated(cfg)
    host = host or ("127.0.0.1" if sim else cfg.web_host)
    port = cfg.web_port if port is None else port
    return Companion(cfg, db_path, sim=sim or cfg.simulated, host=host, port=port, url=url or cfg.web_url)
