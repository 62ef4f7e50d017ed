"""What the table page adds to the context: the turn ribbon, the story of the round and the results screen.

- ``ribbon``: one dict per seat in seating order (then the table when it acts now or next):
  ``{"name", "now", "next", "start", "out", "table", "role", "colour", "phone", "me"}`` — the phone
  may render it too (``{% if ribbon %}``).
- ``story``: the log as the narration tells it, grouped by round, newest first
  (see :func:`companion.table.story.by_round`).
- ``results``: the end-of-game results of the game package (None while it goes on), and
  ``play_again``: the form fields of a new game with the same players and options.
- ``seat_turns``: the seats played on the tablet that the rulebook expects now, each
  ``{"name", "sentence", "forms", "secret"}`` (« Dan, you must … » and his chips, at the top of
  the side column; ``secret``: his forms cast behind the privacy screen, see ``static/privacy.js``).
- ``table_next``: the table's own moves the rulebook expects now; the first is the side column's one
  big button when no seat's banner leads. ``table_also``: the table's other moves (« More actions »).
- ``seat_more``: each seat the tablet plays with its moves not expected now, folded under its name
  (``{"name", "forms", "secret"}``). ``table_overrides``: the table correcting the flow, each asking first.
- ``waiting_line``: whom the table waits for (the seats with a phone), or the prompt alone.
- ``hand_off``: what the table must do by hand after the last action (« Deal Dan's 4 cards: 2 to
  Ann, 2 to Cleo »), from the game's narration (``narrate.hand_off(event, lang)``).
"""

from __future__ import annotations

import json
import logging
from typing import Any

from companion import games
from companion.engine import results
from companion.table import story
from companion.table.session import Session
from web import seat_view
from web.forms import by_step
from web.i18n import translator
from web.security import Principal


def extend(ctx: dict[str, Any], session: Session, who: Principal | None, view: str, language: str) -> None:
    """Add this area's keys to ``ctx`` (called last by ``web.views.context``)."""
    pkg = games.package(session.game)
    pub = ctx["pub"]
    try:
        turn = pkg.turn(session.state, pub)
    except Exception:  # a package's reading of the turn must never take the page down: the generic one
        logging.getLogger(__name__).exception("turn of %s", session.game)
        turn = results.turn(pub)
    ribbon = results.ribbon(turn, pub, language)
    colours, claimed, me = ctx.get("seat_colour") or {}, set(ctx.get("claimed") or []), ctx.get("me")
    for entry in ribbon:
        entry["colour"] = "" if entry["table"] else colours.get(entry["name"], "")
        entry["phone"] = not entry["table"] and entry["name"] in claimed
        entry["me"] = not entry["table"] and entry["name"] == me
    ctx["ribbon"] = ribbon
    ctx["turn"] = turn
    ctx["story"] = story.by_round(session, language)
    if view == "table":
        _steps(ctx, pkg, session, language)
        ctx["hand_off"] = hand_off(pkg, session, language)
    ctx["results"] = _results(pkg, session, language) if pub.get("over") else None
    ctx["play_again"] = None
    if pub.get("over") and ctx.get("is_table"):
        ctx["play_again"] = {"game": session.game, "players": "\n".join(session.players),
                             "options": json.dumps(_fresh_options(session.options), ensure_ascii=False)}


def _steps(ctx: dict[str, Any], pkg: Any, session: Session, lang: str) -> None:
    """The tablet's forms by step, the next step first: the seats it plays that the rulebook awaits (their
    banner, at the top of the side column), or the table's own next move as the one big button.

    A secret move of a seat the tablet plays (a vote) is never drawn on the page: it waits behind
    « Pass the tablet to … », cast on the privacy screen, and only while that seat may make it now
    (``next``, or ``also`` folded under the seat's name): a secret override (a vote that would skip the
    survival step's pause) is not offered on the tablet at all.
    """
    claimed = set(ctx.get("claimed") or [])
    now, more = list(ctx.get("forms_now") or []), list(ctx.get("forms_more") or [])
    exp = pkg.rules.expected(session.state)

    def hidden(f: dict[str, Any]) -> bool:
        return bool(f.get("secret")) and f.get("player") is not None and f.get("player") not in claimed

    turns = []
    for name in dict.fromkeys(f.get("player") for f in now if f.get("player") in session.players):  # the moves' order
        mine = [seat_view.asking(f) for f in now if f.get("player") == name and name not in claimed]
        if not mine or name not in exp.players:
            continue
        mine, _ = seat_view.split(mine, [])
        turns.append({"name": name, "sentence": addressed(name, seat_view.sentence(pkg, exp, name, lang, mine), lang,
                                                        session.players),
                      "forms": [f for f in mine if not hidden(f)], "secret": [f for f in mine if hidden(f)]})
    ctx["seat_turns"] = turns
    banner = {t["name"] for t in turns}
    rest = by_step([seat_view.asking(f) for f in more])  # a seat's move that ends his turn asks
    # the table's own moves, and what the rulebook expects of a seat it plays but that has no banner
    ctx["table_next"] = [seat_view.asking(f) for f in now if f.get("player") not in banner and not hidden(f)]
    ctx["table_also"] = [f for f in rest["also"] + rest["next"] if f.get("player") is None]
    ctx["seat_more"] = [
        {"name": name, "forms": [f for f in forms if not hidden(f)], "secret": [f for f in forms if hidden(f)]}
        for name in session.players if name not in claimed
        for forms in [[f for f in rest["also"] + rest["next"] if f.get("player") == name]] if forms]
    ctx["table_overrides"] = [f for f in rest["override"] if not hidden(f)]
    ctx["waiting_line"] = waiting_line(exp, ctx.get("prompt") or "", claimed, banner, lang)


def addressed(name: str, sentence: str, lang: str, names: list[str] | tuple[str, ...] = ()) -> str:
    """« You must bid or pass » said to Dan at the tablet: « Dan, you must bid or pass »; a sentence that
    starts with a name (« Ann turned the sand timer ») keeps its capital."""
    acronym = len(sentence) > 1 and sentence[1].isupper()  # « OK … » stays as it is
    named = any(sentence.startswith(n) and sentence[len(n):len(n) + 1] in ("", " ", ",", ":", "'", "’") for n in names if n)
    body = sentence if acronym or named else sentence[:1].lower() + sentence[1:]
    return translator(lang)("{p}, {sentence}", p=name, sentence=body)


def waiting_line(exp: Any, prompt: str, claimed: set[str], banner: set[str], lang: str) -> dict[str, str] | None:
    """The tablet's prompt line: whom it waits for (never a seat it plays: his banner says it) and the
    prompt, said once (« Ann: bid or pass » already names Ann); None when its banners say it all.

    ``{"names": "Ann, Bob" or "", "prompt": ...}`` (the template puts the names in bold)."""
    away = [p for p in exp.players if p not in banner]
    if not exp.players:
        return {"names": "", "prompt": prompt}
    if not away:
        return None
    if all(p in prompt for p in away):
        return {"names": "", "prompt": prompt}
    return {"names": ", ".join(away), "prompt": prompt}


def hand_off(pkg: Any, session: Session, lang: str) -> list[str]:
    """What the table must do by hand after the last action, as the game's narration says it (the
    package's ``hand_off`` part for each of the round's events: « Deal Dan's 4 cards: 2 to Ann, 2 to
    Cleo »); none when the package lists no such part or an event asks nothing."""
    told = story.told(session, lang)
    if not told:
        return []
    out: list[str] = []
    for event in told[-1]["events"]:
        try:
            out += pkg.hand_off(event, lang)
        except Exception:  # the narration must never take the page down
            logging.getLogger(__name__).exception("hand-off of %s", session.game)
    return out


def _results(pkg: Any, session: Session, language: str) -> dict[str, Any] | None:
    """The package's results; its generic ranking if the package's own fails (never a broken page)."""
    try:
        return pkg.results(session.state, language, story.events(session))
    except Exception:
        logging.getLogger(__name__).exception("results of %s", session.game)
        return results.results(session.public(None), pkg.outcome_text(session.state, language), language)


def _fresh_options(options: dict[str, Any]) -> dict[str, Any]:
    """The options of a new game like this one: the readings kept, a tournament's carried points dropped."""
    return {k: v for k, v in (options or {}).items() if k not in ("match", "manche", "carried")}
