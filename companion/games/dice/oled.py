"""The dice game's OLED screens: the sand timer."""

from __future__ import annotations

import math
from typing import Any

from companion.drawing.canvas import HEADER_H, WIDTH, Canvas
from companion.drawing.common import who
from companion.drawing.context import ScreenContext
from companion.engine import texts
from companion.games.dice.words import DOMAIN


def _t(msgid: str, lang: str, **params: Any) -> str:
    return texts.render(msgid, params, lang, DOMAIN)


def timer(c: Canvas, s: dict[str, Any], ctx: ScreenContext) -> None:
    """galapagos-dice: the sand timer's countdown, who still plans, and a bar that drains with it, in ``ctx.lang``."""
    lang = ctx.lang
    total = float(s.get("timer_seconds") or 30)
    status = s.get("timer")
    remaining = s.get("timer_remaining")
    if remaining is None:
        remaining = 0.0 if status == "expired" else total
    players = s.get("players") or []
    c.header(_t("Timer", lang), _t("{planned}/{players} planned", lang, planned=len(s.get("plans") or []), players=len(players)))
    if status == "running" and remaining > 0:
        secs = math.ceil(remaining)
        label = f"{secs // 60}:{secs % 60:02d}"
    else:
        label = _t("Time!", lang) if status == "expired" or remaining <= 0 else _t("{seconds} s", lang, seconds=int(total))
    c.text(0, HEADER_H + 1, label, "large", align="centre")
    # who still plans (the sand runs for them): « Now: Ann & Cy »
    if status == "running" and remaining > 0:
        now = who(s, lang, fits=lambda line: c.width(texts.render("Now: {who}", {"who": line}, lang), "small_bold") <= WIDTH - 4)
        c.marquee(2, 37, texts.render("Now: {who}", {"who": now}, lang), "small_bold", WIDTH - 4, ctx.elapsed)
    c.bar(0, 50, WIDTH, 14, remaining / total if total else 0)
