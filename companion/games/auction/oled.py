"""The auction game's OLED screens: the costs of the acting player, in the reader's language (``ctx.lang``)."""

from __future__ import annotations

from typing import Any

from companion.games.auction.words import t
from companion.screens.canvas import HEADER_H, WIDTH, Canvas
from companion.screens.context import ScreenContext

#: short animal names for a 128-pixel row (message ids of this game's catalog)
SHORT = {"sea_lion": "lion", "iguana": "iguana", "tortoise": "tortoise", "booby": "booby", "penguin": "penguin", "crab": "crab"}
#: three letters, when four tiles share the screen
TINY = {"sea_lion": "lio", "iguana": "igu", "tortoise": "tor", "booby": "boo", "penguin": "pen", "crab": "cra"}


def price(p: Any, lang: str = "en") -> str:
    return "-" if p is None else t("£{amount}", lang, amount=p)


def costs(c: Canvas, s: dict[str, Any], ctx: ScreenContext) -> None:
    """galapagos-auction: education steps and each animal of the round's tile, for the player to act."""
    lang = ctx.lang
    table = ctx.costs or {}
    direction = s.get("direction")
    c.header(f"{table.get('player', '?')} {price(table.get('money'), lang)}",
             t("{d} costs", lang, d=t(direction, lang)) if direction else t("costs", lang))
    expedition = table.get("expedition") or {}
    if expedition:
        rows = [(t(SHORT.get(a, a), lang), price(p, lang)) for a, p in expedition.items()]
        for i, (label, p) in enumerate(rows[:2]):
            y = HEADER_H + 1 + 13 * i
            c.text(2, y, label, "small_bold")
            c.text(0, y, p, "small_bold", align="right", right=WIDTH - 2)
        edu = [p for _, p in sorted((table.get("education") or {}).items())]
        steps = "/".join(str(p) for p in edu)
        c.text(1, HEADER_H + 27, c.fit(t("Edu £{prices}", lang, prices=steps) if edu else t("Edu: track end", lang),
                                       "small", WIDTH - 2))
        c.text(2, HEADER_H + 40, c.fit(t("sale {sale} card {card}", lang, sale=price(table.get("sale"), lang),
                                         card=price(table.get("sell_card"), lang)), "small", WIDTH - 4))
        return
    # Before the direction is chosen: every tile, to weigh a bid.
    for i, (d, animals) in enumerate(list((table.get("by_direction") or {}).items())[:4]):
        parts = " ".join(f"{t(TINY.get(a, a), lang)} {price(p, lang)}" for a, p in animals.items())
        c.text(2, HEADER_H + 1 + 13 * i, c.fit(f"{t(d, lang)} {parts}", "small", WIDTH - 4))
