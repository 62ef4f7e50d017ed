"""The presenter of the table's OLED: what the screen says now, drawn from the session and the dial.

:mod:`companion.board.controller` turns device events into actions (the dial's state machine is
:mod:`companion.board.dial`); this draws the result: the screen :mod:`companion.board.screens`
picks (or the one Back cycled to), the refusal shown a few seconds with its error beep, the
toast that tells the last action from the session's own narration of it (the states its replay
computed, never a replay of the journal), the dialled move's heading, preview and question, and
the time since the text on screen changed (what scrolls). Kept apart so that input and drawing
are each read in one place; the controller is made with it.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable
from typing import Any

from companion import games
from companion.board import dial_screen, screens
from companion.board.dial import Entry
from companion.engine import texts
from companion.table import course
from companion.table.session import Change, Session
from hw.oled import Oled
from hw.outputs import Beeper, StatusLeds

log = logging.getLogger("companion.board.controller")


class OledPresenter:
    """The OLED side of :class:`~companion.board.controller.TableController`: refusals, toasts, screens."""

    session: Session
    oled: Oled
    beeper: Beeper
    leds: StatusLeds | None
    url: str | Callable[[], str] | None
    wifi: Callable[[], dict[str, str] | None]
    clock: Callable[[], float]
    lang: str
    message_seconds: float
    message: str | None
    toast: str | None
    _toast_until: float
    _message_until: float
    screen: str | None
    entry: Entry | None
    _shown_key: Any
    _shown_since: float
    _lock: Any

    @property
    def package(self) -> Any:
        return games.package(self.session.game)

    def refuse(self, message: str) -> None:
        self.message = message
        self._message_until = self.clock() + max(self.message_seconds, screens.reading_seconds(message, "error"))
        self.beeper.play("error")
        if self.leds is not None:
            self.leds.flash("error")

    def _story(self, change: Change) -> str | None:
        """What just happened, in the table's words (the narration of the action), for the toast."""
        if change.kind != "action" or not change.action:
            return None
        try:
            from companion.table import story

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
        self._toast_until = self.clock() + max(self.message_seconds, screens.reading_seconds(self.toast or ""))

    # -- state → screen ------------------------------------------------------------
    def heading(self) -> str:
        """The move being dialled, with its player: "Ann: Education"."""
        return dial_screen.heading(self.entry, len(self.session.players))

    def entry_segments(self) -> tuple[tuple[str, bool], ...]:
        return dial_screen.segments(self.entry, self._t)

    def preview(self) -> str:
        return dial_screen.preview(self.entry)

    def question(self) -> str:
        """What the second OK will send, in words (empty when OK is not waiting)."""
        entry = self.entry
        if entry is None or entry.confirming is None:
            return ""
        return dial_screen.question(entry, lambda action: self.package.describe(action, self.lang), self._t)

    def context(self) -> screens.ScreenContext:
        entry = self.entry
        editing = bool(entry and entry.touched)
        timer = self.session.timer
        ctx = screens.context_for(
            self.session.rules,
            self.session.state,
            lang=self.lang,
            message=self.message,
            entry=self.entry_segments(),
            editing=editing,
            heading=self.heading() if editing else "",
            url=self.url() if callable(self.url) else self.url,  # a function: the network may change
            preview=self.preview() if editing else "",
            status=(self.toast if self.toast and not editing
                    else self.package.prompt(self.session.state, self.lang)),
            question=self.question(),
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

    def refresh(self) -> bool:
        """Redraw; the OLED only receives the frame when it changed."""
        with self._lock:
            state = self.session.public()
            ctx = self.context()
            image = screens.render(self.frame_name(state, ctx), state, ctx)
            if self.leds is not None:
                self.leds.set("ready", not state.get("over"))
            return self.oled.show(image)
