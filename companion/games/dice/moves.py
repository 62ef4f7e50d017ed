"""The dice game's legal moves as forms (docs/design.md, "Moves and their steps").

``moves(state, lang)`` lists every form that may be submitted now, exactly as
:meth:`DiceRules.apply` judges it (``tests/games/test_dice_moves.py`` checks
both directions over random games and every scenario):

* ``start`` for each player whose pawn is not out yet, during set-up: one
  choice per field; a field whose turtle lies on the island or another pawn
  drew is shown disabled with the reason.
* ``place_turtles`` (the table's): the turtle numbers still in the bag, as many
  as the rules ask (five or six, or the rest of the bag), each once.
* ``roll`` (optional, before a plan): five dice colours as observed.
* ``plan``: 0-5 dice in order; once a roll is recorded, only those dice
  (``limits``: at most as many of a colour as were rolled). With a roll the
  form carries ``hint``, the best order for those dice (:func:`paths.best_path`).
  Offered to every player but the first finisher until the sand runs out
  ("He may NOT re-order his dice" is his alone); it asks to confirm only while
  it would be the round's first (it turns the sand timer and is final).
* ``done`` (« I am done », no field) for each player who has not said it: his
  plan stays as it is (none: no dice); the first to say it turns the timer,
  the last one starts the movement. The seat button's spelling, ``done`` with
  the ``dice`` lying in his lanes, is offered as an alias form (screens hide
  it): those dice become his plan as he says it, also for a player who has
  already said done and changed his dice.
* ``timer_expired`` (the table's) while the sand runs.
* ``move`` for the player whose turn it is: every path the planned dice allow
  (:func:`paths.walks`, exhaustive), each with a preview of the turtles and
  points it takes; a player with no plan moves with no dice: he can only stay
  and take the turtle under his pawn. The rules also read a path that repeats the pawn's own
  field first as the same walk; those spellings are offered too, as choices
  marked ``"alias": true`` (screens hide them, :func:`companion.engine.moves.visible`)
  whose ``"canonical"`` is the walk as shown.

Sizes stay small: the longest lists are the 36 fields, the bag's numbers, six
colours and the walks (a few dozen on a printed island).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from companion.engine import moves as engine_moves
from companion.engine import texts
from companion.games.dice.island import COLOURS
from companion.games.dice.paths import best_path, walks
from companion.games.dice.rules import DICE, DiceRules, DiceState
from companion.games.dice.words import join

DOMAIN = DiceRules.id

#: the rules' prompts (message ids) as the phone of a player who must act says them (same parameters)
PROMPT_FOR_YOU = {
    "Place the pawns and the first turtles.": "You must place your pawn on the field of the turtle you drew.",
    "Roll and plan your dice.": "You must roll your five dice and plan them.",
    "{player} turned the sand timer: plan your dice and say done before it runs out.":
        "the sand timer is running ({player} turned it): plan your dice and say done before it runs out.",
    "{player} moves with no dice (no plan): only the turtle under the pawn.":
        "You move with no dice (no plan): you take only the turtle under your pawn.",
    "{player} moves.": "You must move your pawn along your dice.",
}
#: the rules' prompts for the table's own move, as a phone waiting for the tablet says them
PROMPT_FOR_TABLE = {
    "Place the pawns and the first turtles.": "Waiting for the tablet to place the first turtles.",
    "Draw the last turtle and place it.": "Waiting for the tablet to draw the last turtle and place it.",
    "Draw {count} turtles and place them.": "Waiting for the tablet to draw {count} turtles and place them.",
}


def t(msgid: str, lang: str, **params: Any) -> str:
    """A text of the dice game in ``lang`` (colours and other words as :class:`texts.Term`)."""
    return texts.render(msgid, params, lang, DOMAIN)


def points_gained(n: int, lang: str) -> str:
    """« +1 point », « +3 points »: what a plan or a walk adds to the score, said with its unit."""
    return texts.render_n("+{n} point", "+{n} points", n, None, lang, DOMAIN)


def word(term: str, lang: str) -> str:
    """A game word (a colour) in ``lang``."""
    return texts.gettext_(term, lang, DOMAIN)


def colour_list(colours: list[str] | tuple[str, ...], lang: str) -> str:
    """Colours as a comma list in ``lang`` ("red, red, blue"); "no dice" when empty."""
    return ", ".join(word(c, lang) for c in colours) if colours else t("no dice", lang)


def moves(state: DiceState, lang: str = "en") -> list[engine_moves.Form]:
    """Every form that may be submitted now, each naming its player (None: the table's)."""
    s = state
    names = s.table.players
    out: list[engine_moves.Form] = []
    if s.phase == "setup":
        out += [_start(s, i, lang) for i, f in enumerate(s.pawns) if f is None]
        if not s.seeded:
            out.append(_place(s, lang))
    elif s.phase == "place":
        out.append(_place(s, lang))
    elif s.phase == "plan":
        for i, d in enumerate(s.plans):
            if i == s.first:
                continue  # "He may NOT re-order his dice."
            if s.rolls[i] is None and d is None:
                out.append(_roll(names[i], lang))
            out.append(_plan(s, i, lang))
            if i not in s.done:
                out.append(_done(s, i, lang))
            out.append(_done_with_dice(s, i, lang))
    elif s.phase == "move":
        out += _move(s, s.order[s.moved], lang)
    if s.timer == "running" and s.phase != "over":
        out.append(_timer(s, lang))
    return out


# -- the forms ---------------------------------------------------------------------

def _start(s: DiceState, i: int, lang: str) -> engine_moves.Form:
    """"Each player then draws a turtle from the bag and places his/her pawn on that island tile (number)." """
    names = s.table.players
    colour = s.table.island.colour
    choices = []
    for n in sorted(colour):
        why = None
        if n in s.island:
            why = t("Turtle {n} lies on the island, so it cannot be drawn.", lang, n=n)
        elif n in s.pawns:
            why = t("{other} drew turtle {n}.", lang, other=names[s.pawns.index(n)], n=n)
        label = t("Field {n} ({colour})", lang, n=n, colour=texts.Agreed(colour[n], "feminine"))
        pick_ = engine_moves.choice(n, label, engine_moves.preview(word(colour[n], lang), colour=colour[n]), why)
        pick_["short"] = str(n)  # a chip shows the number in the field's colour
        choices.append(pick_)
    return engine_moves.form("start", names[i], t("Start field", lang), [engine_moves.pick("field", t("Field", lang), choices)])


def _place(s: DiceState, lang: str) -> engine_moves.Form:
    """"...drawn from the bag and placed with the colored shells up on the island tile with matching numbers." """
    want = min(s.table.per_round, len(s.bag))
    shells = s.table.turtles
    choices = [
        engine_moves.choice(n, t("Turtle {n} ({colour})", lang, n=n, colour=texts.Agreed(shells[n], "feminine")),
                 engine_moves.preview(word(shells[n], lang), colour=shells[n], left=len(s.bag) - want))
        for n in sorted(s.bag)
    ]
    label = t("Place {count} turtles", lang, count=want) if want != 1 else t("Place 1 turtle", lang)
    field = engine_moves.items("numbers", t("Turtles drawn", lang), choices, want, want, distinct=True)
    return engine_moves.form("place_turtles", None, label, [field])


def _colour_choices(lang: str, counts: Counter[str] | None = None) -> list[engine_moves.Choice]:
    out = []
    for c in COLOURS:
        if counts is not None and not counts[c]:
            continue
        pv = engine_moves.preview(f"×{counts[c]}", count=counts[c], colour=c) if counts is not None else engine_moves.preview("", colour=c)
        out.append(engine_moves.choice(c, word(c, lang), pv))
    return out


def _roll(who: str, lang: str) -> engine_moves.Form:
    """"All players roll their 5 dice" - recorded as thrown (optional)."""
    field = engine_moves.items("dice", t("Dice rolled", lang), _colour_choices(lang), DICE, DICE)
    return engine_moves.form("roll", who, t("Roll", lang), [field])


def _dice_field(s: DiceState, i: int, lang: str) -> engine_moves.Field:
    """0-5 dice in order; once a roll is recorded, only those dice."""
    rolled = s.rolls[i]
    if rolled is None:
        return engine_moves.items("dice", t("Dice in order", lang), _colour_choices(lang), 0, DICE)
    counts = Counter(rolled)
    return engine_moves.items("dice", t("Dice in order", lang), _colour_choices(lang, counts), 0, len(rolled), limits=dict(counts))


def _plan(s: DiceState, i: int, lang: str) -> engine_moves.Form:
    """"...sort them into the order they want to use them... You do not need to use all of your dice." """
    who = s.table.players[i]
    rolled = s.rolls[i]
    extra: dict[str, Any] = {}
    if rolled is not None:
        best = best_path(s, who, list(rolled))
        if best["order"]:  # a suggestion that gains nothing would send an empty plan: none then
            gain = points_gained(best["points"], lang)
            extra["hint"] = {
                **best,
                "text": t("Best: {order} ({gain})", lang, order=colour_list(best["order"], lang), gain=gain),
                "label": t("Plan the suggestion ({gain} for the turtles it takes)", lang, gain=gain),
                "path_text": t("path {path}", lang, path=" → ".join(map(str, best["path"]))),
            }
            extra["first"] = True  # the suggested plan is the phone's first move
        elif best["points"]:  # the turtle under the pawn, whatever the plan
            gain = points_gained(best["points"], lang)
            extra["preview"] = engine_moves.preview(t("No die takes another turtle; the one under your pawn is yours anyway ({gain}): "
                                           "plan any dice you like, or none", lang, gain=gain))
        else:
            extra["preview"] = engine_moves.preview(t("No path with these dice takes a turtle: plan any dice you like, or none",
                                           lang))
    if s.first is None:
        final = t("Finished first: turns the sand timer; this plan is final", lang)
        if "preview" in extra:  # no suggestion, and the first plan turns the sand: both said
            final = t("{a}. {b}", lang, a=extra["preview"]["text"], b=final)
        extra["preview"] = engine_moves.preview(final, turns_timer=True)
    return engine_moves.form("plan", who, t("Plan", lang), [_dice_field(s, i, lang)], confirm=s.first is None, **extra)


def _done_text(s: DiceState, i: int, dice: tuple[str, ...] | None, lang: str) -> dict[str, Any]:
    """The preview of « I am done »: the plan it keeps, and the timer it turns or the movement it starts."""
    plan = colour_list(list(dice or ()), lang)
    last = s.first is not None and len(s.done | {i}) == len(s.table.players)
    if s.first is None:
        text = t("Done with {dice}: turns the sand timer", lang, dice=plan)
    elif last:
        text = t("Done with {dice}: everyone is done, moving starts", lang, dice=plan)
    else:
        text = t("Done with {dice}", lang, dice=plan)
    return engine_moves.preview(text, dice=list(dice or ()), turns_timer=s.first is None, starts_moving=last)


def _done(s: DiceState, i: int, lang: str) -> engine_moves.Form:
    """« I am done »: the seat has finished planning (the first to say it turns the sand timer)."""
    return engine_moves.form("done", s.table.players[i], t("I am done", lang), confirm=True, preview=_done_text(s, i, s.plans[i], lang),
                  ends_turn=True, last=True)


def _done_with_dice(s: DiceState, i: int, lang: str) -> engine_moves.Form:
    """The seat button's « I am done » with the dice lying in the lanes: those dice are the plan (an alias form)."""
    return engine_moves.form("done", s.table.players[i], t("Done with these dice", lang), [_dice_field(s, i, lang)], confirm=True,
                  alias=True)


def _timer(s: DiceState, lang: str) -> engine_moves.Form:
    """"When the timer expires, the planning phase ends for all players." """
    names = s.table.players
    if s.phase == "plan":
        idle = [names[i] for i, d in enumerate(s.plans) if d is None]
        if not idle:
            text = t("Planning ends", lang)
        elif len(idle) == 1:
            text = t("Planning ends; {name} has no plan and moves with no dice", lang, name=idle[0])
        else:
            text = t("Planning ends; {names} have no plan and move with no dice", lang, names=join(idle, lang))
        pv = engine_moves.preview(text, unplanned=idle)
    else:
        pv = engine_moves.preview(t("Planning is already over", lang), unplanned=[])
    # the sand ends by itself (the session journals it): a person sending it ends it early
    ask = (t("The sand is still running: end planning for everyone?", lang) if s.phase == "plan"
           else t("The sand is still running: stop it?", lang))
    return engine_moves.override(engine_moves.form("timer_expired", None, t("Sand timer ran out", lang), preview=pv), ask)


def _move(s: DiceState, i: int, lang: str) -> list[engine_moves.Form]:
    """Every walk the planned dice allow, best first; the same walks spelt from the pawn's field as aliases."""
    who = s.table.players[i]
    here = s.pawns[i]
    found = sorted(walks(s, i), key=lambda w: (-w["points"], len(w["path"]), w["path"]))
    shown, spelt = [], []
    for w in found:
        label = " → ".join(map(str, w["path"])) if w["path"] else t("Stay on field {n}", lang, n=here)
        pv = engine_moves.preview(_walk_text(s, w, lang), turtles=w["turtles"], points=w["points"], wins=w["wins"],
                       ends=w["ends"], colours=[s.table.turtles[n] for n in w["turtles"]])
        shown.append(engine_moves.choice(w["path"], label, pv))
        alias = engine_moves.choice([here, *w["path"]], label, pv)
        alias.update(alias=True, canonical=w["path"])
        spelt.append(alias)
    return [engine_moves.form("move", who, t("Move", lang), [engine_moves.pick("path", t("Path", lang), shown + spelt)], confirm=True)]


def _walk_text(s: DiceState, w: dict[str, Any], lang: str) -> str:
    """A few words: the turtles a walk takes and the points they add, and a win or the end."""
    taken = w["turtles"]
    if not taken:
        parts = [t("no turtle", lang)]
    else:
        numbers = ", ".join(map(str, taken))
        gain = points_gained(w["points"], lang)  # « +2 points »: a bare « +2 » said nothing
        if len(taken) == 1:
            parts = [t("turtle {numbers} ({gain})", lang, numbers=numbers, gain=gain)]
        else:
            parts = [t("turtles {numbers} ({gain})", lang, numbers=numbers, gain=gain)]
    if w["wins"]:
        parts.append(t("wins at once", lang))
    elif w["ends"]:
        parts.append(t("ends the game", lang))
    return " · ".join(parts)
