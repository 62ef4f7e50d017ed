"""The auction game's story, one sentence per event, in the reader's language.

Like Board Game Arena's log: "Ann bids £300 on North.", then, when the last
bid settles the round, who won, who pays what and who keeps their money:
"North wins with £400, reached first. Bob takes the start player and pays
£200; Dee pays £200; Ann keeps £300 (bid on West)." After the last player's
turn the upkeep: "End of round 3: everyone receives £200; sea lion 2→3,
iguana 4→5; the crab bonus tile turns." The events carry the bare facts; the
states before and after give the rest (the bids, the track, the bonus tile).
"""

from __future__ import annotations

from typing import Any

from companion.engine import texts
from companion.games.auction import words
from companion.games.auction.rules import (
    ANIMALS,
    DIRECTIONS,
    INCOME,
    TRACK_END,
    AuctionRules,
    AuctionState,
)

t = words.t


def narrate(before: AuctionState, action: dict[str, Any], events: list[dict[str, Any]], after: AuctionState,
            lang: str = "en") -> list[str]:
    """The sentences telling what ``action`` did (``events`` as ``apply`` returned them)."""
    kind = action.get("type")
    who = action.get("player", "")
    out: list[str] = []
    if action.get("wildcard") is True:
        out.append(t("{p} plays two cards as a wildcard.", lang, p=who))
    money = {e.get("reason"): e.get("amount", 0) for e in events if e.get("type") == "money" and e.get("player") == who}
    for event in events:
        etype = event.get("type")
        if etype == "tile":
            out.append(t("The {tile} tile is laid on {square}.", lang, tile=words.animal_list(event["animals"], lang),
                         square=words.direction(event["direction"], lang)))
        elif etype == "bid":
            out.append(t("{p} bids {money} on {square}.", lang, p=event["player"], money=words.money(event["amount"], lang),
                         square=words.direction(event["direction"], lang)))
        elif etype == "pass":
            out.append(t("{p} passes.", lang, p=event["player"]))
        elif etype == "no_bids":
            out.append(t("Nobody bid: {p} keeps the start player and chooses the direction.", lang, p=event["start_player"]))
        elif etype == "direction":
            if kind == "direction":
                pair = [ANIMALS[a] for a in after.tiles[after.direction]]
                out.append(t("{p} chooses {square} ({tile}).", lang, p=event["start_player"],
                             square=words.direction(event["direction"], lang), tile=words.animal_list(pair, lang)))
            else:
                out.append(_settled(before, after, lang))
        elif etype == "exhibition":
            bonus = event.get("bonus")
            shown = [a for a in action.get("animals", []) if a in ANIMALS]
            if bonus is None:
                out.append(t("{p} exhibits {animals}: {points}.", lang, p=who, animals=words.animal_list(shown, lang),
                             points=words.points(event["points"], lang)))
            else:  # « the crab bonus tile », « bonus tile 2 » (a number reads after the tile)
                msg = ("{p} exhibits {animals}: {points} with the {tile} bonus tile." if bonus in ANIMALS else
                       "{p} exhibits {animals}: {points} with bonus tile {tile}.")
                out.append(t(msg, lang, p=who, animals=words.animal_list(shown, lang),
                             points=words.points(event["points"], lang), tile=words.bonus_tile(bonus, lang)))
        elif etype == "done":
            out.append(t("{p} is done.", lang, p=event["player"]))
        elif etype == "round":
            out.append(_upkeep(before, after, lang))
        elif etype == "game_over":
            out += _final(before, after, lang)
    out += _card_action(before, action, money, after, lang)
    return out


def _card_action(before: AuctionState, action: dict[str, Any], money: dict[str, int], after: AuctionState,
                 lang: str) -> list[str]:
    """Education, expedition, sale, sold cards and exchange: one sentence from the action and its payment."""
    kind = action.get("type")
    who = action.get("player", "")
    if kind == "education":
        seat = _seat(before, who)
        steps = action.get("steps")
        old, new = before.players[seat].education, after.players[seat].education
        msg = ("{p} pays {money} and advances 1 step on the education track ({old}→{new})." if steps == 1 else
               "{p} pays {money} and advances {n} steps on the education track ({old}→{new}).")
        return [t(msg, lang, p=who, money=words.money(-money.get("education", 0), lang), n=steps, old=old, new=new)]
    if kind == "expedition":
        cost = -money.get("expedition", 0)
        if cost:
            return [t("{p} takes {animal} for {money}.", lang, p=who, animal=words.a_animal(action["animal"], lang),
                      money=words.money(cost, lang))] + _shared_field(before, who, action["animal"], lang)
        return [t("{p} takes {animal} for free.", lang, p=who, animal=words.a_animal(action["animal"], lang))]
    if kind == "sale":
        return [t("{p} sells {animal} for {money}.", lang, p=who, animal=words.a_animal(action["animal"], lang),
                  money=words.money(money.get("sale", 0), lang))]
    if kind == "sell_cards":
        n = action.get("count")
        msg = "{p} sells 1 card for {money}." if n == 1 else "{p} sells {n} cards for {money}."
        return [t(msg, lang, p=who, n=n, money=words.money(money.get("sell_cards", 0), lang))]
    if kind == "exchange":
        give = list(action.get("give", []))
        gave = (t("two {animals}", lang, animals=words.animals_plural(give[0], lang)) if len(give) == 2 and give[0] == give[1]
                else texts.join([words.a_animal(a, lang) for a in give], lang))
        cost = -money.get("exchange", 0)
        msg = "{p} exchanges {give} for {animal} ({price})."
        line = t(msg, lang, p=who, give=gave, animal=words.a_animal(action["take"], lang), price=words.price(cost, lang))
        return [line] + (_shared_field(before, who, action["take"], lang) if cost else [])
    return []


def _shared_field(before: AuctionState, who: str, animal: str, lang: str) -> list[str]:
    """The bank explains a price the table may read two ways: the other tokens on the chosen animal's field.

    Said only when there are some, not yet reached by the figure, so the story
    tells which reading of "up to and including the chosen animal token" was
    applied (the ``shared_field`` option, shown at set-up).
    """
    seat = _seat(before, who)
    target = before.track[ANIMALS.index(animal)]
    figure = before.players[seat].education
    others = [a for i, a in enumerate(ANIMALS) if a != animal and before.track[i] == target and target > figure]
    if not others:
        return []
    many = len(others) > 1
    if before.shared_counted:
        msg = "The {animals} on the same field are paid too." if many else "The {animals} on the same field is paid too."
    else:
        msg = "The {animals} on the same field are not paid." if many else "The {animals} on the same field is not paid."
    return [t(msg, lang, animals=words.animal_list(others, lang))]


def _semicolon(lang: str) -> str:
    """"; " — French sets a space before it (« paie 300 £ ; Ann garde 200 £ »)."""
    return t("; ", lang)


def _seat(state: AuctionState, name: str) -> int:
    return next(i for i, p in enumerate(state.players) if p.name == name)


def _settled(before: AuctionState, after: AuctionState, lang: str) -> str:
    """The bids settled: the winning square, what each player pays or keeps."""
    bids = after.bids
    totals = [0, 0, 0, 0]
    for _s, d, amount in bids:
        if d >= 0:
            totals[d] += amount
    square = after.direction
    best = totals[square]
    tied = any(totals[d] == best for d in range(4) if d != square)
    head = t("{square} wins with {money}, reached first." if tied else "{square} wins with {money}.", lang,
             square=words.direction(DIRECTIONS[square], lang), money=words.money(best, lang))
    clauses: list[str] = []
    passed: list[str] = []
    start = after.start
    # The start player, then the others who pay, then those who keep their money (bidding order in each).
    order = sorted(bids, key=lambda b: (b[0] != start, b[1] != square))
    for seat, d, amount in order:
        name = after.players[seat].name
        if seat == start:
            msg = ("{p} keeps the start player and pays {money}" if before.start == start
                   else "{p} takes the start player and pays {money}")
            clauses.append(t(msg, lang, p=name, money=words.money(amount, lang)))
        elif d == square:
            clauses.append(t("{p} pays {money}", lang, p=name, money=words.money(amount, lang)))
        elif d >= 0:
            clauses.append(t("{p} keeps {money} (bid on {square})", lang, p=name, money=words.money(amount, lang),
                             square=words.direction(DIRECTIONS[d], lang)))
        else:
            passed.append(name)
    if len(passed) == 1:
        clauses.append(t("{p} passed and pays nothing", lang, p=passed[0]))
    elif passed:
        clauses.append(t("{names} passed and pay nothing", lang, names=texts.join(passed, lang)))
    return f"{head} {_semicolon(lang).join(clauses)}."


def _upkeep(before: AuctionState, after: AuctionState, lang: str) -> str:
    """End of round N: the income, the round's two animals on the track, the bonus tile turned."""
    pair = before.tiles[before.direction]
    moved = []
    for a in pair:
        old, new = before.track[a], after.track[a]
        if new == old:
            moved.append(t("{animal} stays on {field}", lang, animal=words.animal(ANIMALS[a], lang), field=TRACK_END))
        else:
            moved.append(f"{words.animal(ANIMALS[a], lang)} {old}→{new}")
    turned = after.bonus_order[before.flipped] if before.flipped < len(after.bonus_order) else None
    parts = [t("End of round {n}: everyone receives {money}", lang, n=before.round, money=words.money(INCOME, lang)),
             ", ".join(moved)]
    if turned is not None:
        if turned in ANIMALS:
            parts.append(t("the {tile} bonus tile turns", lang, tile=words.bonus_tile(turned, lang)))
        else:  # a number reads after the tile: "bonus tile 2 turns"
            parts.append(t("bonus tile {tile} turns", lang, tile=words.bonus_tile(turned, lang)))
    return _semicolon(lang).join(parts) + "."


def _final(before: AuctionState, after: AuctionState, lang: str) -> list[str]:
    """The last round's end, each player's final score and the winners."""
    out = [t("End of round {n}: the game is over.", lang, n=before.round)]
    for player, (edu, animals, cash) in zip(after.players, after.final, strict=True):
        total = player.points + edu + animals + cash
        out.append(t("{p}: {points} from exhibitions, {edu} for education, {animals} for animals and {cash} for money: "
                     "{total}.", lang, p=player.name, points=words.points(player.points, lang), edu=edu,
                     animals=animals, cash=cash, total=words.points(total, lang)))
    outcome = AuctionRules().outcome(after)
    if outcome is not None:  # the same sentence as the script's outcome: the winners and any tie-break
        out.append(outcome.sentence(lang, words.DOMAIN))
    return out


def describe(action: dict[str, Any], lang: str = "en", viewer: str | None = None) -> str:
    """A short line for a log or an undo button: "Ann bids £300 on North" (the same for every ``viewer``:
    nothing in an auction is secret)."""
    kind = action.get("type")
    who = action.get("player", "")
    try:
        line = _describe(kind, who, action, lang)
    except (KeyError, TypeError, ValueError, IndexError):
        line = None
    if line is None:
        label = t(str(kind).replace("_", " "), lang)
        return f"{who}: {label}" if who else label
    if action.get("wildcard") is True:
        line = t("{line} (wildcard)", lang, line=line)
    return line


def _describe(kind: Any, who: str, a: dict[str, Any], lang: str) -> str | None:
    if kind == "tile":
        return t("Tile {tile} on {square}", lang, tile=words.pair(a["animals"], lang), square=words.direction(a["direction"], lang))
    if kind == "bid":
        return t("{p} bids {money} on {square}", lang, p=who, money=words.money(a["amount"], lang),
                 square=words.direction(a["direction"], lang))
    if kind == "pass":
        return t("{p} passes", lang, p=who)
    if kind == "direction":
        return t("{p} chooses {square}", lang, p=who, square=words.direction(a["direction"], lang))
    if kind == "education":
        n = a["steps"]
        return t("{p} advances 1 education step", lang, p=who) if n == 1 else t(
            "{p} advances {n} education steps", lang, p=who, n=n)
    if kind == "expedition":
        return t("{p} takes {animal}", lang, p=who, animal=words.a_animal(a["animal"], lang))
    if kind == "sale":
        return t("{p} sells {animal}", lang, p=who, animal=words.a_animal(a["animal"], lang))
    if kind == "exhibition":
        shown = words.animal_list(list(a["animals"]), lang)
        if a.get("bonus") is not None:
            return t("{p} exhibits {animals} (bonus tile {tile})", lang, p=who, animals=shown,
                     tile=words.bonus_tile(str(a["bonus"]), lang))
        return t("{p} exhibits {animals}", lang, p=who, animals=shown)
    if kind == "sell_cards":
        n = a["count"]
        return t("{p} sells 1 card", lang, p=who) if n == 1 else t("{p} sells {n} cards", lang, p=who, n=n)
    if kind == "exchange":
        return t("{p} exchanges {give} for {animal}", lang, p=who, give=words.animal_list(list(a["give"]), lang),
                 animal=words.a_animal(a["take"], lang))
    if kind == "done":
        return t("{p} is done", lang, p=who)
    return None


__all__ = ["describe", "narrate"]
