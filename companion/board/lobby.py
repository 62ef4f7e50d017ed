"""Starting a game from the table's buttons alone, when no game is on the table.

A table without phones must be able to begin: the dial picks the game among
those installed (:mod:`companion.games`, none named here), then how many play,
within the game's own minimum and maximum; OK starts it through the session
API (the ``start`` callback the composition root gives, which calls
``Session.new`` with the journal and puts the game on the table).

* **Game**: the encoder (or Up/Down) walks the games, each with how many may
  play; OK goes on to the players; Back shows the phones' QR code (Back again
  comes back). On the table's own hotspot, Back first shows the Wi-Fi QR code,
  then any button the join QR code: a phone joins in two scans.
* **Players**: the encoder sets the count; or each player presses his seat's
  button, and the count is who joined (pressed again: he leaves). The players
  are named after their seats, « Seat 1 » … (the seat buttons act for them
  during the game, seat *k* for the *k*-th player, so joined seats must be the
  first ones). OK starts the game; Back goes back to the game.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from companion import games
from companion.board import screens
from companion.engine import texts
from companion.engine.rules import RuleError
from companion.table.rows import StorageError
from hw.events import ButtonEvent, DeviceEvent, EncoderEvent
from hw.oled import Oled
from hw.outputs import Beeper

log = logging.getLogger(__name__)
Start = Callable[[str, list[str], dict[str, Any]], Any]


class TableLobby:
    """The buttons and the OLED while no game is on the table."""

    def __init__(self, oled: Oled, start: Start, *, beeper: Beeper | None = None, lang: str = "en",
                 url: str | Callable[[], str] | None = None, clock: Callable[[], float] = time.monotonic,
                 message_seconds: float = 4.0, wifi: Callable[[], dict[str, str] | None] | None = None,
                 network: Callable[[], str] | None = None) -> None:
        self.oled = oled
        self.start = start
        self.beeper = beeper or Beeper(None)
        self.lang = lang
        self._url = url
        self.wifi = wifi or (lambda: None)
        #: which network the table is on, one line (« on Wi-Fi alfa at 192.168.1.12 »), said under the menu
        self.network = network
        self.clock = clock
        self.message_seconds = message_seconds
        self.stage = "game"  # "game", "players", "wifi" (the hotspot's QR) or "qr" (the join QR)
        self.index = 0
        self.count = 0
        self.joined: set[int] = set()
        self.message: str | None = None
        self._message_until = 0.0
        self._shown: Any = None
        self._since = clock()
        #: False once a game started: the game's controller owns the OLED until the table is empty again
        self.active = True
        self._lock = threading.RLock()

    @property
    def url(self) -> str | None:
        """The join address now (the composition root may give a function: the network can change)."""
        return self._url() if callable(self._url) else self._url

    # -- what is being chosen ---------------------------------------------------
    @staticmethod
    def game_ids() -> list[str]:
        return games.ids()

    @property
    def game(self) -> str:
        return self.game_ids()[self.index % len(self.game_ids())]

    def _range(self) -> tuple[int, int]:
        rules = games.get(self.game)
        return int(rules.min_players), int(rules.max_players)

    def names(self) -> list[str]:
        """The players as they will be seated: « Seat 1 » … « Seat n »."""
        return [texts.render("Seat {n}", {"n": k}, self.lang) for k in range(1, self.count + 1)]

    # -- input -----------------------------------------------------------------------
    def handle(self, event: DeviceEvent) -> None:
        """A device event while no game is on the table (the composition root routes it here)."""
        with self._lock:
            self.active = True
            if isinstance(event, EncoderEvent):
                self._turn(event.delta)
            elif isinstance(event, ButtonEvent) and event.kind != "hold":
                self._button(event.name)
            self.refresh()

    def show(self) -> bool:
        """The table is empty again (or was at start-up): the lobby's screen."""
        with self._lock:
            self.active = True
            return self.refresh()

    def _button(self, name: str) -> None:
        self.message = None
        if self.stage == "wifi":
            self.stage = "qr"
        elif self.stage == "qr":
            self.stage = "game"
        elif name in ("up", "down"):
            self._turn(-1 if name == "up" else 1)
        elif name == "ok":
            self._ok()
        elif name == "back":
            self.stage = ("wifi" if self.wifi() else "qr") if self.stage == "game" else "game"
        elif name.startswith("seat") and name[4:].isdigit():
            self._seat(int(name[4:]))

    def _turn(self, delta: int) -> None:
        self.message = None
        if self.stage in ("wifi", "qr"):
            self.stage = "qr" if self.stage == "wifi" else "game"
            return
        if self.stage == "game":
            self.index = (self.index + delta) % len(self.game_ids())
            return
        lo, hi = self._range()
        self.joined.clear()  # the dial sets the count: who pressed no longer counts
        self.count = max(lo, min(hi, self.count + delta))

    def _seat(self, seat: int) -> None:
        if self.stage == "game":
            self._ok()  # a seat button on the game: this game, and he joins
        if self.stage != "players":
            return
        self.joined ^= {seat}
        lo, hi = self._range()
        if len(self.joined) > hi:
            self.joined.discard(seat)
            return self._refuse(texts.render_n("{game} takes at most {n} player.", "{game} takes at most {n} players.",
                                               hi, {"game": self._title()}, self.lang))
        self.count = max(lo, len(self.joined)) if self.joined else self.count
        self.beeper.play("tag")

    def _ok(self) -> None:
        if self.stage == "game":
            lo, hi = self._range()
            example = len(getattr(games.package(self.game), "example_players", ()) or ())
            self.count = max(lo, min(hi, example or lo))
            self.joined.clear()
            self.stage = "players"
            return
        empty = [k for k in range(1, self.count + 1) if self.joined and k not in self.joined]
        if empty:
            return self._refuse(texts.render(
                "Seat {seats} has nobody: the players sit at seats 1 to {n}, in order.",
                {"seats": ", ".join(map(str, empty)), "n": self.count}, self.lang))
        pkg = games.package(self.game)
        try:
            options = pkg.default_options({})
            self.start(self.game, self.names(), options)
        except RuleError as err:
            return self._refuse(pkg.error_text(err, self.lang))
        except StorageError as err:  # the card refused the new game: its sentence, keep the lobby
            return self._refuse(err.text(self.lang))
        except Exception:  # a bug in the hub: say so, keep the lobby
            log.exception("a game could not be started from the buttons")
            return self._refuse(texts.gettext_("The game could not be started; see the dashboard.", self.lang))
        self.beeper.play("ok")
        self.stage, self.joined, self.active = "game", set(), False

    def _refuse(self, message: str) -> None:
        self.say(message)
        self.beeper.play("error")

    def say(self, message: str, seconds: float | None = None) -> None:
        """A sentence on the screen for ``seconds`` (a refusal; what start-up found), then the lobby again."""
        with self._lock:
            self.message = message
            self._message_until = self.clock() + max(seconds or self.message_seconds,
                                                     screens.reading_seconds(message, "error"))

    def tick(self) -> None:
        """A few times a second: ages a refusal, scrolls what does not fit."""
        with self._lock:
            if self.message and self.clock() >= self._message_until:
                self.message = None
            self.refresh()

    # -- the screen -------------------------------------------------------------------------
    def _title(self) -> str:
        return games.package(self.game).title(self.lang)

    def hint(self) -> str:
        if self.stage == "players":
            return texts.gettext_("Turn or press your seat's button, then OK to start", self.lang)
        hint = texts.gettext_("Turn to choose the game, OK to go on; Back: the phones' QR code", self.lang)
        where = self.network() if self.network is not None else ""
        return f"{hint} — {texts.gettext_('Table', self.lang)} {where}" if where else hint

    def data(self) -> dict[str, Any]:
        return {"stage": self.stage, "title": self._title(), "index": self.index % len(self.game_ids()),
                "games": len(self.game_ids()), "players_range": self._range(), "count": self.count,
                "names": self.names(), "hint": self.hint()}

    def frame(self) -> tuple[str, screens.ScreenContext]:
        if self.message:
            name, ctx = "error", screens.ScreenContext(message=self.message, lang=self.lang)
        elif self.stage == "wifi" and self.wifi():
            name, ctx = "wifi", screens.ScreenContext(data={"wifi": self.wifi()}, lang=self.lang)
        elif self.stage in ("wifi", "qr"):
            name, ctx = "qr", screens.ScreenContext(url=self.url, lang=self.lang)
        else:
            name, ctx = "lobby", screens.ScreenContext(data={"lobby": self.data()}, lang=self.lang)
        key = (name, ctx.message, repr(ctx.data))
        if key != self._shown:
            self._shown, self._since = key, self.clock()
        return name, dataclasses.replace(ctx, elapsed=max(0.0, self.clock() - self._since))

    def refresh(self) -> bool:
        """Redraw (only while no game is on the table); the OLED takes the frame when it changed."""
        with self._lock:
            if not self.active:
                return False
            name, ctx = self.frame()
            return self.oled.show(screens.render(name, {}, ctx))
