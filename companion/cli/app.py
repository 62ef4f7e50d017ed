"""The composition root: config → devices (real or simulated) → controller → sessions → dashboard.

``companion run`` calls :func:`build` then :meth:`Companion.serve`. Everything
is wired here and only here: ``hw`` knows nothing of games, the games know
nothing of hardware, and the dashboard talks to the session API.

Data flows one way (docs/design.md): a device event goes to the
:class:`~companion.board.controller.TableController` of the game on the table, which
acts on the session; the session journals, then tells its listeners — the
controller redraws the OLED, the dashboard's hub wakes every open page.
"""

from __future__ import annotations

import atexit
import dataclasses
import logging
import os
import shutil
import signal
import sqlite3
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from waitress import wasyncore

from companion.board.config import Config
from companion.board.controller import TableController
from companion.board.devices import open_devices
from companion.board.lobby import TableLobby
from companion.board.network import TableNetwork, settings_of
from companion.board.walk import first_boot_walk
from companion.cli import service_state
from companion.cli.sim import SimTable, simulated
from companion.cli.systemd import Watchdog, notify, notify_address, watchdog_interval
from companion.cli.tags import Tags, demo_tags
from companion.drawing.canvas import END_PAUSE_SECONDS, LINE_SECONDS, STEP_SECONDS
from companion.table.library import Library
from companion.table.live import LiveGames
from companion.table.recovery import open_checked
from companion.table.session import Session
from hw.events import StatusEvent
from hw.supply import SupplyWatch
from web import MAX_BODY, create_app
from web.context import Dashboard
from web.hub import Hub
from web.security import Keys, SeatStore, load_secret
from web.server import (
    LIVE_KEEPALIVE,
    MAX_LIVE,
    THREAD_STACK,
    TRIM_EVERY,
    make_server,
    release_free_memory,
    wakeup_drain,
    wasyncore_close_all,
)

log = logging.getLogger(__name__)

#: seconds close() waits for a thread (server workers, the table loop) before going on
SHUTDOWN_WAIT = 0.3
#: the table loop's period while the OLED moves by itself fastest (a running sand timer) and just after
#: something happened
LOOP_LIVELY = 0.1
#: its period while only text scrolls: a marquee's step, on a steady beat, so each pass draws one step
LOOP_SCROLL = STEP_SECONDS
#: its period while something shown goes at its own time (a refusal, a toast, the first-boot walk's countdown)
LOOP_REST = 1.0
#: the longest it sleeps while nothing on the OLED can change by itself: it redraws nothing then, and only
#: looks after the journal and the memory (systemd's watchdog, when on, makes it shorter)
LOOP_IDLE = 30.0
#: seconds the loop stays lively after the OLED's frame changed or something happened: longer than the
#: longest still moment of a text that scrolls (its last line held for LINE_SECONDS + END_PAUSE_SECONDS)
LIVELY = LINE_SECONDS + END_PAUSE_SECONDS + 0.5
#: how often a table at rest asks again for its address (NetworkManager, through nmcli) for the join QR
ADDRESS_EVERY = 60.0


class Companion:
    """Everything ``companion run`` starts, wired together."""

    def __init__(self, cfg: Config, db_path: Path, *, sim: bool, host: str, port: int,
                 url: str | None = None, devices: Any = None):
        self.cfg = cfg
        self.sim = sim
        self.host, self.port = host, port
        self.db_path = db_path
        #: what start-up found in the journal (damage recovered, an emptied file, a read-only card)
        self.journal, self.notices = open_checked(db_path)
        #: the table's live games and the one on the table; the dashboard's hub renders them
        self.games = LiveGames(self.journal, autotick=True)
        self.hub = Hub(self.games, max_feeds=MAX_LIVE)
        self.keys = Keys(load_secret(db_path.with_name(db_path.name + ".secret")))
        self.seats = SeatStore(db_path)
        self.keys.nonces = self.seats.code_nonce  # a join code can be renewed
        self.devices = devices
        #: one sentence when the journal's place loses games at power-off (:mod:`companion.cli.storage`)
        self.storage_warning: str | None = None
        self.controller: Any = None
        self.tags: Tags | None = None
        self._url = url
        #: which network the table is on (the join address, the hotspot's Wi-Fi QR); the first-boot walk
        self.network = TableNetwork(settings_of(cfg))
        self.walk: Any = None
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._oled_serial = -1
        self._status: Any = None  # companion.cli.service_state.StatusFile, once started on real devices
        #: the supply's throttled bits, read at start and every 30 s on real devices (not simulated)
        self.supply: SupplyWatch | None = None
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
        self.dashboard.wifi = self.wifi
        self.app = create_app(self.dashboard)
        self._last_backup = self._finished_checked = self._last_trim = time.monotonic()
        #: systemd's watchdog (``WatchdogSec=``), pinged from :meth:`serve` while the table loop beats
        self.watchdog = Watchdog(watchdog_interval(), loops=("table",))
        self._loop_wake = threading.Event()
        self._loop_serial, self._lively_until = -1, 0.0
        #: until when the frame may still be moving (it changed lately), and the scroll's next beat
        self._moving_until = self._beat_at = 0.0
        self._address_at = -ADDRESS_EVERY
        #: the table loop's passes that redrew the OLED (a screen at rest is not drawn again)
        self.redraws = 0
        self.games.on_change(self.wake_loop)
        self._finished = len(self.journal.games(finished=True))

    # -- devices ------------------------------------------------------------
    def open_devices(self) -> None:
        """Open the configured devices (simulated with ``--sim``) and follow the current game."""
        if self.devices is None:
            cfg = self.cfg
            if self.journal.readonly:  # the tag registry cannot open on the card: a copy in RAM, read-only in effect
                cfg = dataclasses.replace(cfg, tags_db=self._tags_copy(cfg.tags_db or str(self.db_path)))
            self.devices = open_devices(cfg, db_path=str(self.db_path))
        if self.devices.registry is not None:
            if self.sim and not self.devices.registry.entries():
                try:  # one transaction (one sync of the card), not one per tag: a first start is quick
                    self.devices.registry.import_json({"format": "galapagos-tags", "tags": [
                        {"uid": uid, "game": "*", "kind": comp.kind, "value": comp.value, "label": comp.label}
                        for uid, comp in demo_tags()]})
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
        self.games.on_current(self._follow)
        if self.storage_warning and hasattr(self.devices, "emit"):
            # shown and kept like a device that is down: the banner on every page, the OLED, the log
            self.devices.emit(StatusEvent("storage", False, self.storage_warning))

    def say_status(self, ready: bool = False) -> None:
        """systemd's one-line status (``systemctl status``): where phones join, and the devices down."""
        if notify_address() is None:  # not under systemd
            return
        down = self._failing_devices()
        status = f"Serving {self.base_url()}/join" + (f"; {len(down)} down: {down[-1]}" if down else "")
        notify(("READY=1\n" if ready else "") + f"STATUS={status}")

    def say_storage(self, warning: str) -> None:
        """What the journal's place means for the games (« games will be lost at power-off »): said at
        start in the log and the notices, and on every screen once the devices are open."""
        self.storage_warning = warning
        if warning not in self.notices:
            self.notices.insert(0, warning)
        log.warning("%s", warning)

    def _tags_copy(self, source: str) -> str:
        """A temporary copy of the tag registry's file (a read-only card): tags read, enrolments do not last."""
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
        self.wake_loop()
        if isinstance(event, StatusEvent) and self._status is not None:  # what the doctor reads
            self._status.write(self.devices.status)
        if isinstance(event, StatusEvent):  # a device down or back: every open page redraws its banner now
            self.say_status()
            for channel in {"games", getattr(self.hub, "current", None)} - {None}:
                self.hub.broadcast(channel)
            if getattr(self, "club", None) is not None:  # the club's status names the devices down
                self.club.health_changed(getattr(self.hub, "current", None))
        if self.walking():  # the first-boot walk takes every press, turn and tag
            self.walk.handle(event)
            return
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
        if getattr(self, "_lobby", None) is None:
            self._lobby = TableLobby(self.devices.oled, lambda g, p, o: self.games.set_current(self.games.new(g, p, o).id),
                                     beeper=self.devices.beeper, url=lambda: self.base_url() + "/join",
                                     wifi=self.wifi, network=self.network_sentence)
        return self._lobby

    def _failing_devices(self) -> list[str]:
        """The sentences of the devices failing now (each with its fix)."""
        status = getattr(self.devices, "status", None) or {}
        return [s.message for s in status.values() if not s.ok and s.message]

    def _follow(self, session: Session | None) -> None:
        """The table's game changed: a new controller for it (or the idle screen)."""
        with self._lock:
            if self.controller is not None:
                self.controller.close()
                self.controller = None
            if session is None or self.devices is None:
                self._idle_screen()
                return
            self.controller = TableController(
                session, self.devices.oled, beeper=self.devices.beeper, leds=self.devices.leds,
                registry=self.devices.registry, url=lambda sid=session.id: self.join_url(sid),
                phone_seats=lambda sid=session.id: self.seats.claimed(sid),  # acting for them asks first
                wifi=self.wifi,
            )

    def _idle_screen(self, message: str | None = None) -> None:
        if self.devices is None or self.walking():
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
            host = self.network.host()  # the hotspot's or the LAN's address, else <hostname>.local
        port = self.server.effective_port if self.server is not None else self.port
        return f"http://{host}:{port}"

    def _on_the_network(self) -> bool:
        """Serving phones on the machine's networks (not the simulation, not an address given in the config)."""
        return not (self._url or self.sim or self.host not in ("0.0.0.0", "::", ""))

    def wifi(self) -> dict[str, str] | None:
        """The hotspot's Wi-Fi QR while the table serves phones on it."""
        return self.network.wifi() if self._on_the_network() else None

    def network_sentence(self) -> str:
        """Which network the table is on, for the OLED."""
        return self.network.sentence() if self._on_the_network() else ""

    def walking(self) -> bool:
        """The first-boot walk has the OLED and the buttons."""
        return self.walk is not None and not self.walk.done

    def join_url(self, game_id: str) -> str:
        return f"{self.base_url()}/join?code={self.keys.join_code(game_id)}"

    def table_url(self) -> str:
        return f"{self.base_url()}/?token={self.keys.table_token}"

    # -- running --------------------------------------------------------------
    def start(self) -> None:
        """Bind the server, open the devices, resume the last unfinished game, start the loops."""
        threading.stack_size(THREAD_STACK)
        self.server = make_server(self.app, self.host, self.port, max_body=4 * MAX_BODY)
        pump = self.server.stream_pump
        self.watchdog.watch("stream pump", lambda: pump.busy_since)  # live pages frozen: a hung table too
        self.dashboard.base_url = self.base_url()
        self.open_devices()
        self.walk = first_boot_walk(self.cfg, self.devices, self.db_path.parent, self._idle_screen)
        self.resume()
        self.club = None
        if self.cfg.mqtt is not None:  # the MQTT client (paho, ssl, urllib) is loaded only for a club's table
            from companion.club import wiring  # late: MQTT (paho, ssl) only for a club's table

            self.club = wiring.start(self.cfg.mqtt, self.journal, self.db_path, self._failing_devices, self.notices)
        self.hub.start(interval=0.25)
        if self.devices is not None:
            self.devices.start()  # reader polling, and the bridge link when readers sit behind it
            if not self.sim:
                self._publish_state()
        loop = threading.Thread(target=self._loop, name="table-loop", daemon=True)
        loop.start()
        self._threads.append(loop)

    def _publish_state(self) -> None:
        """What failed at start named in the log once, the supply checked (a sag is a device
        problem: the OLED says it; the table loop checks it again while the table runs), and the
        status file ``companion doctor`` reads."""
        service_state.log_start_faults(self.devices)
        self.supply = SupplyWatch(self.devices.emit)
        service_state.announce_supply(self.devices, self.supply)
        path = service_state.status_path()
        if path is not None:
            self._status = service_state.StatusFile(path, config=str(self.cfg.source), db=str(self.db_path))
            self._status.write(self.devices.status)

    def resume(self) -> Session | None:
        """Put the game last acted on (by journal order) back on the table.

        A game that cannot be resumed (its replay fails, its timer cannot start) is
        reported and skipped: one broken game never keeps the table from starting. A game
        the table abandoned or deleted on Home is never put back on (:mod:`companion.table.library`).
        """
        for record in Library(self.journal).resumable(self.journal.last_acted(finished=False)):
            try:
                session = self.games.set_current(record.id)
            except Exception as exc:  # noqa: BLE001 - any failure is this game's alone
                log.exception("game %s cannot be resumed", record.id)
                message = getattr(exc, "message", None) or f"{type(exc).__name__}: {exc}"
                self.notices.append(f"Game {record.id} ({record.game}) could not be resumed: {message}")
                continue
            self._show_notices()
            return session
        self.games.set_current(None)
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
        controller.refuse(text, seconds=60)  # long enough to be read at the table

    def backup(self) -> None:
        """A backup of the journal if it changed since the last one (looked at hourly from the loop, and
        when a game ends): a table left on over a quiet weekend does not rewrite its card every hour."""
        self._last_backup = time.monotonic()
        if self.journal.readonly:
            return
        try:
            self.journal.backup_if_changed()
        except Exception as exc:  # noqa: BLE001 - a backup must never stop the table
            log.warning("journal backup failed: %s", exc)

    def _next_pass(self) -> tuple[float, bool]:
        """How long the table loop sleeps, and whether its pass redraws the OLED.

        0.1 s and a redraw while a sand timer runs and in the seconds after something happened; a marquee's
        step (0.25 s) while text scrolls (the frame changed lately); 1 s and a redraw while something shown goes at its time (a refusal, a toast,
        a device down, the first-boot walk's countdown); otherwise nothing on the OLED can change by
        itself: no redraw, and a sleep of :data:`LOOP_IDLE` (shorter under systemd's watchdog). A device
        event or a game's change wakes the loop at once (:meth:`wake_loop`)."""
        if self.devices is None:
            return self._idle_wait(), False
        now = time.monotonic()
        sent = self.devices.oled.sent
        if sent != self._loop_serial:
            self._loop_serial, self._moving_until = sent, now + LIVELY
        with self._lock:
            controller = self.controller
        timer = getattr(getattr(controller, "session", None), "timer", None)
        if now < self._lively_until or (timer is not None and timer.running):
            return LOOP_LIVELY, True
        if now < self._moving_until:  # text that scrolls: one pass a step
            return self._scroll_beat(now), True
        if self.walking():
            return LOOP_REST, True
        shown = controller if controller is not None else getattr(self, "_lobby", None)
        if shown is not None and (getattr(shown, "message", None) or getattr(shown, "toast", None)):
            return LOOP_REST, True
        return self._idle_wait(), False

    def _scroll_beat(self, now: float) -> float:
        """Seconds to the next beat of :data:`LOOP_SCROLL`: fixed times, not a sleep after each pass (which
        the pass's own time would stretch until a step was skipped)."""
        if not now - LOOP_SCROLL < self._beat_at <= now + LOOP_SCROLL:
            self._beat_at = now + LOOP_SCROLL  # a new beat
        elif self._beat_at <= now:
            self._beat_at += LOOP_SCROLL
        return self._beat_at - now

    def _idle_wait(self) -> float:
        """The loop's sleep at rest: its housekeeping's, and a beat within half systemd's watchdog stale time."""
        wait = LOOP_IDLE
        if self.watchdog.interval:
            wait = min(wait, self.watchdog.stale / 2)
        return wait

    def wake_loop(self, *_: Any) -> None:
        """Something happened (a device event, a game changed): the table loop runs now and stays lively."""
        self._lively_until = time.monotonic() + LIVELY
        self._loop_wake.set()

    def _address_moved(self, lively: bool) -> bool:
        """Ask again where phones join (while lively, or every :data:`ADDRESS_EVERY` s at rest): True when
        it moved (the hotspot came up), so the join QR is drawn again."""
        if self._url or (not lively and time.monotonic() - self._address_at < ADDRESS_EVERY):
            return False
        self._address_at = time.monotonic()
        url = self.base_url()
        moved, self.dashboard.base_url = url != self.dashboard.base_url, url
        return moved

    def _loop(self) -> None:
        """The controller's tick (timer beep, messages, scrolling), the OLED mirror, the housekeeping: ten
        times a second while something moves, once a second while a message waits for its time, and
        without redrawing anything when the screen cannot change by itself (:meth:`_next_pass`)."""
        while not self._stop.is_set():
            try:
                period = self._next_pass()[0]
            except Exception:  # a controller half made: the loop must keep beating
                log.exception("table loop")
                period = LOOP_REST
            self._loop_wake.wait(period)
            self._loop_wake.clear()
            if self._stop.is_set():
                break
            self.watchdog.beat("table")
            try:
                _, draw = self._next_pass()  # what happened during the sleep counts
                if self._address_moved(draw) or draw:
                    self.redraws += 1
                    with self._lock:
                        controller = self.controller
                    if self.walking():
                        self.walk.tick()
                    elif controller is not None:
                        controller.tick()
                    elif self.devices is not None:
                        self.lobby().tick()  # what does not fit scrolls
                self._housekeeping()
                if self.devices is not None and self.devices.oled.sent != self._oled_serial:
                    self._oled_serial = self.devices.oled.sent
                    self.hub.broadcast("sim")
            except Exception:
                log.exception("table loop")

    def _housekeeping(self) -> None:
        """Memory given back, the supply read, a game that ended backed up, the hourly backup (each when due)."""
        now = time.monotonic()
        if now - self._last_trim > TRIM_EVERY:
            self._last_trim = now
            release_free_memory()
        if now - self._last_backup > 3600:
            self.backup()
        if self.supply is not None and self.supply.due():  # under-voltage while the table runs
            self.supply.check()
        if now - self._finished_checked > 30:  # a game just ended: back it up
            self._finished_checked = now
            finished = len(self.journal.games(finished=True))
            if finished != self._finished:
                self._finished = finished
                self.backup()

    # -- signals and serving ------------------------------------------------------
    def request_stop(self, signum: int = 0, frame: Any = None) -> None:
        """The SIGTERM/SIGINT handler: it only records the request.

        A signal handler runs between two bytecodes of the main thread, possibly inside a
        lock that thread holds (``Event.set`` → ``Condition.__enter__``): taking any lock here
        can deadlock when a second signal arrives during the first. So it sets a
        plain attribute; the byte :func:`signal.set_wakeup_fd` writes wakes the server's poll,
        and :meth:`serve` does the stopping, outside any handler.
        """
        self.stop_requested = signum or -1

    def install_signal_handlers(self) -> None:
        """SIGTERM and SIGINT ask :meth:`serve` to stop; the wake-up pipe ends its poll at once."""
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
        socket_map = self.server.socket_map
        waker = None
        if self._wake is not None:
            waker = wakeup_drain(self._wake[0], socket_map)
        timeout = self.server.adj.asyncore_loop_timeout
        if self.watchdog.interval:  # a quiet table still pings several times per watchdog interval
            timeout = min(timeout, self.watchdog.interval / 4)
        try:
            while not self.stop_requested and socket_map:
                wasyncore.loop(timeout=timeout, map=socket_map,
                               use_poll=True, count=1)
                self.watchdog.check()  # this loop turned; the table loop must have beaten too
        finally:
            if waker is not None:
                waker.close()
            self.close()

    def close(self) -> None:
        """Stop the loops, the live pages, the server, the devices; close the journal last (once)."""
        if self._closed:
            return
        self._closed = True
        notify("STOPPING=1")
        self._stop.set()
        self._loop_wake.set()
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
        if self._status is not None:
            self._status.remove()
        for thread in self._threads:
            thread.join(timeout=SHUTDOWN_WAIT)
        self.games.join(timeout=SHUTDOWN_WAIT)  # its last poll may still read the journal
        if getattr(self, "club", None) is not None:  # its PUBACKs get a moment; the rest waits in the outbox
            self.club.stop()
        for part in (self.seats, self.journal):  # last: a session's final write has finished under its lock
            try:
                part.close()
            except Exception:
                log.exception("closing %r", part)
        if self._wake is not None:
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


def exit_now(status: int) -> None:
    """End the process once :meth:`Companion.close` has closed everything.

    The exit handlers run (gpiozero's among them) and the output is flushed; what is left,
    the interpreter freeing every module and object one by one, took 0.7 to 1.2 s on a
    busy two-core machine — longer than the whole shutdown may take (within 1 s
    of the signal). The kernel frees that memory at once.
    """
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


def build(cfg: Config, db_path: Path, *, sim: bool, host: str | None = None, port: int | None = None,
          url: str | None = None) -> Companion:
    """A :class:`Companion` for ``cfg``; ``sim`` forces simulated devices and 127.0.0.1."""
    if sim:
        cfg = simulated(cfg)
    host = host or ("127.0.0.1" if sim else cfg.web_host)
    port = cfg.web_port if port is None else port
    return Companion(cfg, db_path, sim=sim or cfg.simulated, host=host, port=port, url=url or cfg.web_url)
