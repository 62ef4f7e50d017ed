"""The auction game's OLED screens: the costs of the acting player, in the reader's language (``ctx.lang``).

One screen, ``costs``, drawn from the package's ``screen_data`` (the rules' ``costs``):

* while bidding, for the player to bid: his money (none of it bid yet, it is his
  turn), each square's tile with what its animals would cost him, the money
  already bid on each square, and the square that leads drawn inverted (the
  header names it);
* during card play, for the player on turn: his money, the round's square and
  the cards he has used of his 7, the round's two animals (bold), the education
  prices, and what each of the other four animals costs by exchange (two tokens
  for one; the round's two cost the same by exchange as by expedition).
"""

from __future__ import annotations

from typing import Any

from companion.drawing.canvas import HEADER_H, WIDTH, Canvas
from companion.drawing.context import ScreenContext
from companion.games.auction.words import t

#: three letters, when several animals share a row
TINY = {"sea_lion": "lio", "iguana": "igu", "tortoise": "tor", "booby": "boo", "penguin": "pen", "crab": "cra"}
#: the track order of the animals (the order of the exchange rows)
ORDER = ("sea_lion", "iguana", "tortoise", "booby", "penguin", "crab")


def price(p: Any, lang: str = "en") -> str:
    return "-" if p is None else t("£{amount}", lang, amount=p)


def costs(c: Canvas, s: dict[str, Any], ctx: ScreenContext) -> None:
    """galapagos-auction: what the acting player can pay now (bidding: the squares; card play: his options)."""
    table = ctx.costs or {}
    if table.get("expedition"):
        _card_play(c, s, table, ctx.lang)
    else:
        _bidding(c, s, table, ctx.lang)


def _head_left(table: dict[str, Any], lang: str) -> str:
    """"Ann £1200": the money he can pay with now (none of it lies on the compass: it is his turn)."""
    return f"{table.get('player', '?')} {price(table.get('free', table.get('money')), lang)}"


def _bidding(c: Canvas, s: dict[str, Any], table: dict[str, Any], lang: str) -> None:
    """Each tile with its prices for this player, the money bid on it, the leading square inverted."""
    leader = table.get("leader") or {}
    lead = leader.get("direction")
    c.header(_head_left(table, lang), t("{d} leads", lang, d=t(lead, lang)) if lead else t("costs", lang))
    totals = table.get("totals") or {}
    for i, (d, animals) in enumerate(list((table.get("by_direction") or {}).items())[:4]):
        y = HEADER_H + 1 + 13 * i
        total = totals.get(d) or 0
        right = price(total, lang) if total else ""
        room = WIDTH - 4 - (c.width(right) + 4 if right else 0)
        # The tile's prices as wide as the row allows: "cra £1000", "cra£1000", then "cra1000".
        spellings = [" ".join(f"{t(TINY.get(a, a), lang)}{gap}{money(p)}" for a, p in animals.items())
                     for gap, money in ((" ", lambda p: price(p, lang)), ("", lambda p: price(p, lang)),
                                        ("", lambda p: "-" if p is None else str(p)))]
        text = next((f"{t(d, lang)} {x}" for x in spellings if c.width(f"{t(d, lang)} {x}") <= room),
                    f"{t(d, lang)} {spellings[-1]}")
        c.text(2, y, c.fit(text, "small", room))
        if right:
            if d == lead:  # the square that would win now
                w = c.width(right)
                c.draw.rectangle((WIDTH - 4 - w, y, WIDTH - 1, y + 11), fill=1)
                c.text(0, y, right, fill=0, align="right", right=WIDTH - 2)
            else:
                c.text(0, y, right, align="right", right=WIDTH - 2)


def _card_play(c: Canvas, s: dict[str, Any], table: dict[str, Any], lang: str) -> None:
    """The round's animals, education, then the exchange price of every other animal, five rows of ten pixels."""
    direction = s.get("direction")
    used, hand = table.get("cards_used"), table.get("hand", 7)
    where = t(direction, lang) if direction else ""
    left = _head_left(table, lang)
    if used is None:
        right = t("{d} costs", lang, d=where)
    else:  # "S cards 3/7", or "S 3/7" where the name and money need the room
        right = t("{d} cards {used}/{hand}", lang, d=where, used=used, hand=hand)
        if c.width(left, "small_bold") + c.width(right, "small_bold") + 8 > WIDTH:
            right = f"{where} {used}/{hand}"
    c.header(left, right.strip())
    expedition = table.get("expedition") or {}
    top = HEADER_H + 1
    for i, (a, p) in enumerate(list(expedition.items())[:2]):  # the round's tile: expedition and exchange
        _cell(c, i, top, t(TINY.get(a, a), lang), price(p, lang), "small_bold")
    edu = [p for _, p in sorted((table.get("education") or {}).items())]
    steps = "/".join(str(p) for p in edu)
    c.text(1, top + 10, c.fit(t("Edu £{prices}", lang, prices=steps) if edu else t("Edu: track end", lang),
                              "small", WIDTH - 2))
    c.text(1, top + 20, c.fit(t("exchange 2 for 1:", lang), "small", WIDTH - 2))
    others = [a for a in ORDER if a not in expedition and a in (table.get("exchange") or {})]
    for i, a in enumerate(others[:4]):
        _cell(c, i % 2, top + 30 + 10 * (i // 2), t(TINY.get(a, a), lang), price(table["exchange"][a], lang))


def _cell(c: Canvas, col: int, y: int, label: str, value: str, size: str = "small") -> None:
    """One of two columns: the animal's three letters on the left, its price right-aligned in the column."""
    left, right = (2, WIDTH // 2 - 3) if col == 0 else (WIDTH // 2 + 2, WIDTH - 2)
    room = right - left - c.width(value, size) - 4
    c.text(left, y, c.fit(label, size, room), size)
    c.text(0, y, value, size, align="right", right=right)
