"""Galèrapagos' OLED screens: the rations, the raft and the snake odds, in the reader's language."""

from __future__ import annotations

import math
from typing import Any

from companion.drawing import common
from companion.drawing.canvas import HEADER_H, WIDTH, Canvas
from companion.drawing.common import round_label, who
from companion.drawing.context import ScreenContext
from companion.engine import texts


def snake_odds(s: dict[str, Any], draws: range = range(1, 6)) -> list[int]:
    """Chance in % that ``k`` extra balls include a black (snake) ball, for k = 1..5.

    From the game's own ``snake_odds`` when it publishes them; otherwise the
    bag of 6 wooden balls with ``balls.black`` black ones (1 by default).
    """
    odds = (s.get("odds") or {}).get("snake") if isinstance(s.get("odds"), dict) else None
    if isinstance(odds, dict):  # galerapagos publishes {"1": 0.1667, ...}
        return [round(100 * float(odds[str(k)])) for k in draws if str(k) in odds]
    if isinstance(s.get("snake_odds"), list):
        return [round(float(x) * 100) if float(x) <= 1 else round(float(x)) for x in s["snake_odds"]][: len(draws)]
    balls = s.get("balls") if isinstance(s.get("balls"), dict) else {}
    black = int(balls.get("black", 1))
    total = black + int(balls.get("white", 6 - black))
    return [round(100 * (1 - math.comb(total - black, k) / math.comb(total, k))) if k <= total else 100 for k in draws]


def _t(lang: str, msgid: str, **params: Any) -> str:
    return texts.render(msgid, params, lang, "galerapagos")


def weather_label(w: Any, hurricane: bool = False, lang: str = "en") -> str:
    if hurricane or (isinstance(w, dict) and w.get("hurricane")):
        return _t(lang, "HURRICANE")
    if isinstance(w, dict):
        return _t(lang, "rain {n}", n=w.get("water", 0))
    if isinstance(w, int) and not isinstance(w, bool):
        return _t(lang, "rain {n}", n=w)
    return str(w) if w else _t(lang, "no card")


def rations(c: Canvas, s: dict[str, Any], ctx: ScreenContext) -> None:
    """galerapagos: food, water, raft (with the wood track), whose turn it is, and the snake odds.

    The three columns are as wide as their words (« Nourriture » is long), never cut;
    the line under them says who acts now (« Now: Cy », « À jouer : Cy »), the last
    line the odds of a snake for 1 to 5 extra balls, scrolling when it does not fit.
    """
    lang = ctx.lang
    players = s.get("players") or []
    alive = sum(1 for p in players if p.get("alive", True))
    c.header(f"{round_label(s)} {weather_label(s.get('weather'), bool(s.get('hurricane')), lang)}",
             _t(lang, "{k}/{n} alive", k=alive, n=len(players)))
    wood = int(s.get("wood") or 0)
    pips = 5 * 5 + 4 * 1  # the raft track: five squares of 5 px, 1 px apart
    cells = [(_t(lang, label), "?" if value is None else str(value))
             for label, value in (("Food", s.get("food")), ("Water", s.get("water")), ("Rafts", s.get("rafts")))]
    widths = [max(c.width(label), c.width(value, "medium") + (3 + pips if i == 2 else 0))
              for i, (label, value) in enumerate(cells)]
    gap = max(2, (WIDTH - 2 - sum(widths)) // 2)
    x = 1
    for i, ((label, value), w) in enumerate(zip(cells, widths, strict=True)):
        c.text(x, HEADER_H + 1, label, "small")
        c.text(x, HEADER_H + 12, value, "medium")
        if i == 2:
            c.pips(x + c.width(value, "medium") + 3, HEADER_H + 17, 5, wood, size=5, gap=1)
        x += w + gap
    now = who(s, lang, fits=lambda line: c.width(texts.render("Now: {who}", {"who": line}, lang), "small_bold") <= WIDTH - 4)
    top_line_small(c, 41, texts.render("Now: {who}", {"who": now}, lang), ctx.elapsed)
    odds = " ".join(str(p) for p in snake_odds(s))
    c.marquee(2, 52, _t(lang, "Snake% {odds}", odds=odds), "small", WIDTH - 4, ctx.elapsed)


def top_line_small(c: Canvas, y: int, text: str, elapsed: float) -> None:
    """A bold line that scrolls when it does not fit (who acts: a long name, several players)."""
    c.marquee(2, y, text, "small_bold", WIDTH - 4, elapsed)


def match(c: Canvas, s: dict[str, Any], ctx: ScreenContext) -> None:
    """A tournament's running totals, best first, the leaders drawn inverted ("Mode tournois")."""
    lang = ctx.lang
    m = s.get("match") or {}
    if not m:
        c.header(_t(lang, "Tournament"), round_label(s))
        c.text(2, HEADER_H + 4, _t(lang, "no tournament"))
        return
    c.header(_t(lang, "Manche {k}/{n}", k=m.get("manche", 0), n=m.get("manches", 0)), _t(lang, m.get("mode", "")))
    leaders = set(m.get("leaders") or [])
    rows = sorted((m.get("totals") or {}).items(), key=lambda kv: (-kv[1], kv[0]))
    per_col = 4
    cols = max(1, math.ceil(len(rows) / per_col))
    col_w = WIDTH // cols
    step = 13
    for i, (name, pts) in enumerate(rows):
        x, y = (i // per_col) * col_w, HEADER_H + 2 + (i % per_col) * step
        lead = name in leaders
        if lead:
            c.draw.rectangle((x, y, x + col_w - 2, y + step - 2), fill=1)
        value = str(pts)
        vw = c.width(value, "small")
        c.text(x + 2, y, c.fit(name, "small", col_w - vw - 7), "small", fill=0 if lead else 1)
        c.text(0, y, value, "small", align="right", right=x + col_w - 3, fill=0 if lead else 1)


def scores(c: Canvas, s: dict[str, Any], ctx: ScreenContext) -> None:
    """The scores screen: in a tournament, the match's running totals and the leader; else the usual one."""
    if s.get("match"):
        match(c, s, ctx)
        return
    common.scores(c, s, ctx)
