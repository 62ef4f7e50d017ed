"""The dice game's story: each event as a sentence in the reader's language, as Board Game Arena's log tells it.

``narrate(before, action, events, after, lang)`` turns the rules' events into
sentences: who turned the sand timer (and whose timer ran out), a plan
changed before the sand's end, who is done, the moving order and who moves
with no dice, each move with every turtle taken (and from under whose pawn),
the new round's draw, and the set scoring at the end. Where the events carry too little (where the pawns stood,
who had no plan, the next round) it reads ``before`` and ``after``.
``describe(action, lang)`` is the short line of a log or an undo button.
"""

from __future__ import annotations

from typing import Any

from companion.engine import texts
from companion.games.dice.island import COLOURS
from companion.games.dice.rules import SET_POINTS, DiceRules, DiceState, score_of
from companion.games.dice.words import join

DOMAIN = DiceRules.id


def t(msgid: str, lang: str, **params: Any) -> str:
    return texts.render(msgid, params, lang, DOMAIN)


def colours(dice: list[str] | tuple[str, ...], lang: str) -> str:
    """"red, red, blue" in ``lang``."""
    return ", ".join(texts.gettext_(c, lang, DOMAIN) for c in dice)


def feminine(colour: str) -> texts.Agreed:
    """A colour after « tortue » or « case »: « la tortue 36 (bleue) », « la case 1 (noire) »."""
    return texts.Agreed(colour, "feminine")


def numbers(values: list[int]) -> str:
    return ", ".join(map(str, values))


def narrate(before: DiceState, action: dict[str, Any], events: list[dict[str, Any]], after: DiceState,
            lang: str = "en") -> list[str]:
    """One sentence per event (a few for the end of the game), then the new round or planning if one began."""
    out: list[str] = []
    for ev in events:
        out += _event(before, action, ev, after, lang)
    if before.phase == "setup" and after.phase == "plan":
        out.append(t("Every pawn and the first turtles are out: planning begins.", lang))
    elif after.round > before.round and after.phase != "over":
        if after.phase == "place":
            want = min(after.table.per_round, len(after.bag))
            out.append(t("Round {round} begins: draw {count} turtles from the bag.", lang, round=after.round, count=want)
                       if want != 1 else t("Round {round} begins: draw the last turtle from the bag.", lang, round=after.round))
        else:
            out.append(t("Round {round} begins; the bag is empty, so planning starts at once.", lang, round=after.round))
    return out


def _event(before: DiceState, action: dict[str, Any], ev: dict[str, Any], after: DiceState, lang: str) -> list[str]:
    kind = ev.get("event")
    names = before.table.players
    if kind == "start":
        colour = before.table.island.colour[ev["field"]]
        return [t("{player}'s pawn starts on field {field} ({colour}).", lang, player=ev["player"], field=ev["field"],
                  colour=feminine(colour))]
    if kind == "placed":
        drawn, left = list(ev["turtles"]), len(after.bag)
        if len(drawn) == 1:
            head = t("Turtle {numbers} is placed on the island", lang, numbers=numbers(drawn))
        else:
            head = t("Turtles {numbers} are placed on the island", lang, numbers=numbers(drawn))
        if not left:
            tail = t("the bag is now empty", lang)
        elif left == 1:
            tail = t("1 left in the bag", lang)
        else:
            tail = t("{left} left in the bag", lang, left=left)
        return [t("{head}; {tail}.", lang, head=head, tail=tail)]
    if kind == "rolled":
        return [t("{player} rolls {dice}.", lang, player=ev["player"], dice=colours(ev["dice"], lang))]
    if kind == "planned":
        dice = ev["dice"]
        if ev.get("again"):
            if not dice:
                return [t("{player} changes the plan: no dice.", lang, player=ev["player"])]
            return [t("{player} changes the plan: {dice}.", lang, player=ev["player"], dice=colours(dice, lang))]
        if not dice:
            return [t("{player} plans no dice.", lang, player=ev["player"])]
        return [t("{player} plans {dice}.", lang, player=ev["player"], dice=colours(dice, lang))]
    if kind == "done":
        return [t("{player} is done.", lang, player=ev["player"])]
    if kind == "timer_started":
        return [t("{player} finished first and flips the sand timer: {seconds} seconds for the others to plan.", lang,
                  player=ev["player"], seconds=_seconds(ev["seconds"]))]
    if kind == "planning_closed":
        order = list(ev["order"])
        if action.get("type") == "timer_expired":
            turned = ev.get("turned_by") or (names[before.first] if before.first is not None else None)
            out = [t("The sand timer {player} turned runs out: planning is over; moving order: {order}.", lang,
                     player=turned, order=", ".join(order))]
        else:
            out = [t("Everyone is done before the sand runs out; moving order: {order}.", lang, order=", ".join(order))]
        idle = [p for i, p in enumerate(names) if after.plans[i] is None]
        if len(idle) == 1:
            out.append(t("{player} made no plan and moves with no dice: only a turtle under the pawn can be taken.", lang,
                         player=idle[0]))
        elif idle:
            out.append(t("{players} made no plans and move with no dice: only a turtle under the pawn can be taken.", lang,
                         players=join(idle, lang)))
        return out
    if kind == "timer_expired":
        return [t("The sand timer runs out.", lang)]
    if kind == "moved":
        who = ev["player"]
        start = before.pawns[names.index(who)]
        path = list(ev["path"])
        if not path:
            if before.plans[names.index(who)] is None:
                return [t("{player} has no plan and stays on field {field}.", lang, player=who, field=start)]
            return [t("{player} stays on field {field}.", lang, player=who, field=start)]
        return [t("{player} moves {path}.", lang, player=who, path=" → ".join(map(str, [start, *path])))]
    if kind == "collected":
        return [_collected(before, ev, lang)]
    if kind == "over":
        return _scoring(after, lang)
    return []


def _seconds(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _collected(before: DiceState, ev: dict[str, Any], lang: str) -> str:
    """"If a player moves onto an island space with a turtle, he takes the turtle" - and from under whose pawn."""
    names = before.table.players
    who, n = ev["player"], ev["turtle"]
    params = {"player": who, "turtle": n, "colour": feminine(ev["colour"])}
    me = names.index(who)
    if before.pawns[me] == n:
        return t("{player} takes turtle {turtle} ({colour}) from the field the move started on.", lang, **params)
    under = [p for i, p in enumerate(names) if i != me and before.pawns[i] == n]
    if len(under) == 1:
        return t("{player} takes turtle {turtle} ({colour}) from under {other}'s pawn.", lang, other=under[0], **params)
    if under:
        return t("{player} takes turtle {turtle} ({colour}) from under the pawns of {others}.", lang,
                 others=join(under, lang), **params)
    return t("{player} takes turtle {turtle} ({colour}).", lang, **params)


def _points(n: int, lang: str) -> str:
    """« 0 point », « 1 point », « 8 points » (gettext's ngettext: the reader's plural rule)."""
    return texts.render_n("{n} point", "{n} points", n, None, lang, DOMAIN)


def _scoring(after: DiceState, lang: str) -> list[str]:
    """"For a set of 6 different-color turtles = 8 points / For each additional turtle = 1 point", then who wins."""
    table = after.table
    out = []
    for i, p in enumerate(table.players):
        counts = _counts(after, i)
        sets = min(counts)
        rest = sum(counts) - len(COLOURS) * sets
        params = {"player": p, "sets": sets, "set_points": SET_POINTS * sets, "points": _points(score_of(counts), lang)}
        if sets == 0:
            turtles = texts.render_n("{n} turtle", "{n} turtles", rest, None, lang, DOMAIN)
            out.append(t("{player}: no full set of six colours, {turtles}: {points}.", lang, turtles=turtles, **params))
        elif rest == 0:
            out.append(t("{player}: 1 set of six colours: {points}.", lang, **params) if sets == 1
                       else t("{player}: {sets} sets of six colours: {points}.", lang, **params))
        else:
            more = texts.render_n("{n} more turtle", "{n} more turtles", rest, None, lang, DOMAIN)
            out.append(t("{player}: 1 set of six colours ({set_points} points) and {more}: {points}.", lang, more=more,
                         **params) if sets == 1
                       else t("{player}: {sets} sets of six colours ({set_points} points) and {more}: {points}.", lang,
                              more=more, **params))
    if after.sudden:
        counts = _counts(after, table.players.index(after.sudden))
        colour = next(c for c, k in zip(COLOURS, counts, strict=True) if k >= 5)
        out.append(t("{player} has five {colour} turtles and wins at once.", lang, player=after.sudden,
                     colour=texts.Term(colour)))
        return out
    scores = {p: score_of(_counts(after, i)) for i, p in enumerate(table.players)}
    best = max(scores.values())
    winners = [p for p in table.players if scores[p] == best]
    out.append(t("Every turtle has been collected.", lang))
    if len(winners) == 1:
        out.append(t("{player} wins with {points}.", lang, player=winners[0], points=_points(best, lang)))
    else:
        out.append(t("{players} tie with {points} and all win.", lang, players=join(winners, lang),
                     points=_points(best, lang)))
    return out


def _counts(s: DiceState, i: int) -> list[int]:
    counts = [0] * len(COLOURS)
    for n in s.hauls[i]:
        counts[COLOURS.index(s.table.turtles[n])] += 1
    return counts


def describe(action: dict[str, Any], lang: str = "en", viewer: str | None = None) -> str:
    """A short line for a log or an undo button, in the game's words ("Ann plans red, blue"), the same for
    every ``viewer`` (a plan is public once journalled)."""
    kind = action.get("type")
    who = action.get("player", "?")
    if kind == "start":
        return t("{player} starts on field {field}", lang, player=who, field=action.get("field"))
    if kind == "place_turtles":
        drawn = action.get("numbers") or []
        return t("Turtles {numbers} placed", lang, numbers=numbers(list(drawn))) if len(drawn) != 1 \
            else t("Turtle {numbers} placed", lang, numbers=numbers(list(drawn)))
    if kind == "roll":
        return t("{player} rolls {dice}", lang, player=who, dice=colours(action.get("dice") or [], lang))
    if kind == "plan":
        dice = action.get("dice") or []
        return t("{player} plans {dice}", lang, player=who, dice=colours(dice, lang)) if dice \
            else t("{player} plans no dice", lang, player=who)
    if kind == "done":
        dice = action.get("dice")
        if dice is None:
            return t("{player} is done", lang, player=who)
        return t("{player} is done: {dice}", lang, player=who, dice=colours(dice, lang)) if dice \
            else t("{player} is done with no dice", lang, player=who)
    if kind == "timer_expired":
        return t("The sand timer ran out", lang)
    if kind == "move":
        path = action.get("path") or []
        return t("{player} moves to {path}", lang, player=who, path=" → ".join(map(str, path))) if path \
            else t("{player} stays put", lang, player=who)
    return str(kind)
