"""The per-game screens: auction costs, the dice sand timer, Galèrapagos rations, Pocket populations."""

from __future__ import annotations

import math
from typing import Any

from companion.screens.canvas import HEADER_H, WIDTH, Canvas
from companion.screens.common import round_label
from companion.screens.context import ScreenContext

SHORT = {"sea_lion": "lion", "iguana": "iguana", "tortoise": "tortoise", "booby": "booby", "penguin": "penguin", "crab": "crab"}
TINY = {"sea_lion": "lio", "iguana": "igu", "tortoise": "tor", "booby": "boo", "penguin": "pen", "crab": "cra"}


def price(p: Any) -> str:
    return "-" if p is None else f"£{p}"


def costs(c: Canvas, s: dict[str, Any], ctx: ScreenContext) -> None:
    """galapagos-auction: education steps and each animal of the round's tile, for the player to act."""
    table = ctx.costs or {}
    c.header(f"{table.get('player', '?')} {price(table.get('money'))}", f"{s.get('direction') or ''} costs".strip())
    expedition = table.get("expedition") or {}
    if expedition:
        rows = [(SHORT.get(a, a), price(p)) for a, p in expedition.items()]
        for i, (label, p) in enumerate(rows[:2]):
            y = HEADER_H + 1 + 13 * i
            c.text(2, y, label, "small_bold")
            c.text(0, y, p, "small_bold", align="right", right=WIDTH - 2)
        edu = [p for _, p in sorted((table.get("education") or {}).items())]
        steps = "/".join(str(p) for p in edu)
        c.text(1, HEADER_H + 27, c.fit(f"Edu £{steps}" if edu else "Edu: track end", "small", WIDTH - 2))
        c.text(2, HEADER_H + 40, c.fit(f"sale {price(table.get('sale'))} card {price(table.get('sell_card'))}", "small", WIDTH - 4))
        return
    # Before the direction is chosen: every tile, to weigh a bid.
    for i, (d, animals) in enumerate(list((table.get("by_direction") or {}).items())[:4]):
        parts = " ".join(f"{TINY.get(a, a)} {price(p)}" for a, p in animals.items())
        c.text(2, HEADER_H + 1 + 13 * i, c.fit(f"{d} {parts}", "small", WIDTH - 4))


def timer(c: Canvas, s: dict[str, Any], ctx: ScreenContext) -> None:
    """galapagos-dice: the sand timer's countdown and a bar that drains with it."""
    total = float(s.get("timer_seconds") or 30)
    status = s.get("timer")
    remaining = s.get("timer_remaining")
    if remaining is None:
        remaining = 0.0 if status == "expired" else total
    players = s.get("players") or []
    c.header("Timer", f"{len(s.get('plans') or [])}/{len(players)} planned")
    if status == "running" and remaining > 0:
        secs = math.ceil(remaining)
        label = f"{secs // 60}:{secs % 60:02d}"
    else:
        label = "Time!" if status == "expired" or remaining <= 0 else f"{int(total)} s"
    c.text(0, HEADER_H + 3, label, "huge", align="centre")
    c.bar(0, 50, WIDTH, 14, remaining / total if total else 0)


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


def weather_label(w: Any, hurricane: bool = False) -> str:
    if hurricane:
        return "HURRICANE"
    if isinstance(w, dict):
        if w.get("hurricane"):
            return "HURRICANE"
        return f"rain {w.get('water', 0)}"
    if isinstance(w, int) and not isinstance(w, bool):
        return f"rain {w}"
    return str(w) if w else "no card"


def rations(c: Canvas, s: dict[str, Any], ctx: ScreenContext) -> None:
    """galerapagos: food, water, raft, the weather card, and the snake odds of the wood gamble."""
    players = s.get("players") or []
    alive = sum(1 for p in players if p.get("alive", True))
    c.header(f"{round_label(s)} {weather_label(s.get('weather'), bool(s.get('hurricane')))}", f"{alive}/{len(players)} alive")
    for i, (label, value) in enumerate((("Food", s.get("food")), ("Water", s.get("water")), ("Rafts", s.get("rafts")))):
        x = 2 + 43 * i
        c.text(x, HEADER_H + 1, label, "small")
        c.text(x, HEADER_H + 11, "?" if value is None else str(value), "large")
    wood = s.get("wood") or 0
    c.pips(88, 47, 5, int(wood), size=5, gap=2)
    odds = " ".join(str(p) for p in snake_odds(s))
    c.text(1, 52, c.fit(f"Snake% {odds}", "small", WIDTH - 2))


def populations(c: Canvas, s: dict[str, Any], ctx: ScreenContext) -> None:
    """pocket-galapagos: the three population trackers and the turn."""
    turn, turns = s.get("turn"), s.get("turns")
    status = (s.get("players") or [{}])[0].get("status", "")
    right = status if status in ("won", "lost") else f"survived {s.get('turns_survived', 0)}"
    c.header(f"Turn {turn}/{turns}" if turns else f"Turn {turn}", right)
    for i, (species, level) in enumerate((s.get("populations") or {}).items()):
        y = HEADER_H + 2 + 17 * i
        c.text(2, y, species.capitalize(), "medium")
        c.pips(46, y + 4, 7, int(level), size=8, gap=2)
        c.text(0, y, str(level), "medium", align="right", right=WIDTH - 1)
