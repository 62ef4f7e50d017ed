"""The presenter of the table's OLED: what the screen says now, drawn from the session and the dial.

:mod:`companion.board.controller` turns device events into actions (the dial's state machine is
:mod:`companion.board.dial`) and *has* a presenter, as luma.core keeps the device apart from the
drawing: the presenter owns what is on screen — the refusal shown a few seconds with its error
beep, the toast that tells the last action from the session's own narration of it (the states its
replay computed, never a replay of the journal), the screen Back cycled to, and the time since the
text on screen changed (what scrolls) — and draws it, with the dialled move's heading, preview and
question from the entry the controller hands it, onto the OLED it was given.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from companion import games
from companion.board import dial_screen, screens
from companion.board.dial import Entry
from companion.engine import texts
from companion.table import course, story
from companion.table.session import Change, Session
from hw.oled import Oled
from hw.outputs import Beeper, StatusLeds

log = logging.getLogger("companion.board.controller")


class OledPresenter:
    """What the table's OLED shows and for how long: refusals, toasts, the screen chosen, its frames.

    ``lock`` is the one the controller acts under (the session's): a redraw never interleaves an action.
    """

    def __init__(
        self,
        session: Session,
        oled: Oled,
        *,
        beeper: Beeper,
        leds: StatusLeds | None = None,
        url: str | Callable[[], str] | None = None,
        wifi: Callable[[], dict[str, str] | None] | None = None,
        clock: Callable[[], float] = time.monotonic,
        lang: str = "en",
        message_seconds: float = 4.0,
        lock: Any = None,
    ) -> None:
        self.session = session
        self.oled = oled
        self.beeper = beeper
        self.leds = leds
        self.url = url
        #: the hotspot's Wi-Fi QR (``{"qr", "ssid"}``) while the table is on it: Up/Down show it before the join QR
        self.wifi = wifi or (lambda: None)
        self.clock = clock
        self.lang = lang
        self.message_seconds = message_seconds
        #: the refusal (or a device down) on screen, and until when
        self.message: str | None = None
        self.message_until = 0.0
        #: the story of the last action, shown a few seconds on the prompt (the OLED's toast), and until when
        self.toast: str | None = None
        self.toast_until = 0.0
        self.screen: str | None = None  # None: the screen :func:`screens.choose` picks
        #: what the screen shows and since when (text that does not fit scrolls from then)
        self._shown_key: Any = None
        self._shown_since = clock()
        self._lock = lock or threading.RLock()

    @property
    def package(self) -> Any:
        return games.package(self.session.game)

    def refuse(self, message: str, seconds: float | None = None) -> None:
        """Show ``message`` with the error beep, for ``seconds`` (by default as long as it takes to read)."""
        self.message = message
        shown = max(self.message_seconds, screens.reading_seconds(message, "error")) if seconds is None else seconds
        self.message_until = self.clock() + shown
        self.beeper.play("error")
        if self.leds is not None:
            self.leds.flash("error")

    def expire(self) -> bool:
        """Drop the refusal and the toast whose time is up; True when the refusal went."""
        gone = bool(self.message) and self.clock() >= self.message_until
        if gone:
            self.message = None
        if self.toast and self.clock() >= self.toast_until:
            self.toast = None
        return gone

    def _story(self, change: Change) -> str | None:
        """What just happened, in the table's words (the narration of the action), for the toast."""
        if change.kind != "action" or not change.action:
            return None
        try:
            pkg = games.package(change.session.game)
            return " ".join(story.sentences_of(pkg, change.before, change.action, change.events, change.after,
                                               self.lang, where=f"{change.session.game} (toast)"))
        except Exception:  # a narration bug must not stop the table
            log.exception("narration failed")
            return None

    def _t(self, msgid: str, **params: Any) -> str:
        return texts.render(msgid, params, self.lang)

    def show_change(self, change: Change) -> None:
        """The last action's story comes forward as the toast (a long one stays until it has scrolled once)."""
        self.toast = self._story(change)
        self.toast_until = self.clock() + max(self.message_seconds, screens.reading_seconds(self.toast or ""))

    # -- state → screen ------------------------------------------------------------
    def heading(self, entry: Entry | None) -> str:
        """The move being dialled, with its player: "Ann: Education"."""
        return dial_screen.heading(entry, len(self.session.players))

    def entry_segments(self, entry: Entry | None) -> tuple[tuple[str, bool], ...]:
        return dial_screen.segments(entry, self._t)

    def preview(self, entry: Entry | None) -> str:
        return dial_screen.preview(entry)

    def question(self, entry: Entry | None) -> str:
        """What the second OK will send, in words (empty when OK is not waiting)."""
        if entry is None or entry.confirming is None:
            return ""
        return dial_screen.question(entry, lambda action: self.package.describe(action, self.lang), self._t)

    def context(self, entry: Entry | None) -> screens.ScreenContext:
        """What the screen shows with ``entry`` being dialled (None: nothing is)."""
        editing = bool(entry and entry.touched)
        timer = self.session.timer
        ctx = screens.context_for(
            self.session.rules,
            self.session.state,
            lang=self.lang,
            message=self.message,
            entry=self.entry_segments(entry),
            editing=editing,
            heading=self.heading(entry) if editing else "",
            url=self.url() if callable(self.url) else self.url,  # a function: the network may change
            preview=self.preview(entry) if editing else "",
            status=(self.toast if self.toast and not editing
                    else self.package.prompt(self.session.state, self.lang)),
            question=self.question(entry),
            # the story of the last action comes forward, but a running sand timer keeps its countdown
            toasting=bool(self.toast and not editing and not (timer is not None and timer.running)),
        )
        # what is on screen changed: its text starts again from the left / the first line
        if self.screen == "wifi":  # the hotspot's QR code (gone when the table left its hotspot)
            wifi = self.wifi()
            ctx = dataclasses.replace(ctx, data={**ctx.data, "wifi": wifi}) if wifi else ctx
            if not wifi:
                self.screen = "qr"
        if self.screen == "course":  # the course's sparkline, from the story's one replay (cached per revision)
            ctx = dataclasses.replace(ctx, data={**ctx.data, "course": course.spark(self.session, self.lang)})
        key = (ctx.message, ctx.entry, ctx.heading, ctx.preview, ctx.status, ctx.question, self.screen)
        if key != self._shown_key:
            self._shown_key, self._shown_since = key, self.clock()
        return dataclasses.replace(ctx, elapsed=max(0.0, self.clock() - self._shown_since))

    def frame_name(self, state: dict[str, Any], ctx: screens.ScreenContext) -> str:
        if ctx.message:
            return "error"
        if ctx.question:
            return "confirm"
        return self.screen or screens.choose(state, ctx)

    def refresh(self, entry: Entry | None) -> bool:
        """Redraw with ``entry`` being dialled; the OLED only receives the frame when it changed."""
        with self._lock:
            state = self.session.public()
            ctx = self.context(entry)
            image = screens.render(self.frame_name(state, ctx), state, ctx)
            if self.leds is not None:
                self.leds.set("ready", not state.get("over"))
            return self.oled.show(image)

    def cycle_screen(self, delta: int) -> None:
        """Up/Down (or Back) with nothing dialled: the next screen of the game's cycle ("auto": the one it picks)."""
        cycle = ("auto",) + screens.cycle(self.session.game)
        if "qr" in cycle and self.wifi():  # on the table's hotspot: the Wi-Fi QR, then the join QR
            at = cycle.index("qr")
            cycle = cycle[:at] + ("wifi",) + cycle[at:]
        current = self.screen or "auto"
        i = cycle.index(current) if current in cycle else 0
        nxt = cycle[(i + delta) % len(cycle)]
        self.screen = None if nxt == "auto" else nxt
