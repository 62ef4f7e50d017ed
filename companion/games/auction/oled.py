"""The auction game's OLED screens: the costs of the acting player."""

from __future__ import annotations

from typing import Any

from companion.screens.canvas import HEADER_H, WIDTH, Canvas
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
