"""Galèrapagos' options: their reading at set-up, the readings a table chooses, its tournaments ("Mode tournois").

:func:`parse_options` checks and reads the options a game is set up with (the rules call it from
``setup``: one sentence naming the key for each mistake).

The readings are the places where the rulebook can be read two ways (docs/rules-notes.md);
each is an option the set-up page shows with its default and the sentence it reads.

A tournament is a *match* of several manches at one table. Each manche is an ordinary game
whose options carry the match: ``match`` (its name), ``manche`` (this one, from 1),
``manches`` (how many), ``scoring`` (solidaire or solitaire) and ``carried`` (each player's
points from the manches before). So a manche's own public state shows the running totals
and the leader (``view["match"]``), and the finished games in the history are the manches:
:func:`match_totals` recomputes the totals from them, :func:`next_manche` gives the options
of the next one.
"""

from __future__ import annotations

from typing import Any

from companion.engine import texts
from companion.games.galerapagos import state as S
from companion.games.galerapagos import tournament as T

DOMAIN = S.DOMAIN


def _t(lang: str, msgid: str, **params: Any) -> str:
    return texts.render(msgid, params, lang, DOMAIN)


def _yes_no(lang: str) -> list[dict[str, Any]]:
    return [{"value": False, "label": _t(lang, "no")}, {"value": True, "label": _t(lang, "yes")}]


def option_specs(lang: str = "en") -> list[dict[str, Any]]:
    """The readings a table chooses at set-up: ``[{"name", "label", "choices", "default", "note"}]``."""
    return [
        {"name": "weather_deck", "label": _t(lang, "Weather deck"),
         "choices": [{"value": 11, "label": _t(lang, "11 weather cards and the hurricane")},
                     {"value": 12, "label": _t(lang, "12 weather cards and the hurricane")}],
         "default": 11,
         "note": _t(lang, "« 12 cartes Météo », « 1 carte Ouragan »: the published deck has eleven plain cards "
                          "(0 ×3, 1 ×3, 2 ×3, 3 ×2) and the hurricane; with twelve, a third 3-drop card and the "
                          "hurricane one round later. A card outside the deck is accepted and corrects it.")},
        {"name": "raft_vote", "label": _t(lang, "Vote for the raft's places at a normal round end"),
         "choices": _yes_no(lang), "default": False,
         "note": _t(lang, "« Il y a vote … quand il n'y a pas assez de places sur le radeau »: by default only "
                          "under the hurricane; at another round's end the survivors leave only when there is "
                          "room for all.")},
        {"name": "sick_show", "label": _t(lang, "A castaway sick since last round may show a card at 0"),
         "choices": _yes_no(lang), "default": False,
         "note": _t(lang, "« Le tour suivant, il ne pourra ni jouer une carte »: by default he cannot, even to "
                          "save himself when a token is on 0.")},
        {"name": "dead_vote", "label": _t(lang, "« La voix des morts »"),
         "choices": _yes_no(lang), "default": False,
         "note": _t(lang, "« Dans cette variante, les joueurs éliminés participent au vote. »")},
        {"name": "manches", "label": _t(lang, "Tournament: manches"),
         "choices": [{"value": 0, "label": _t(lang, "no tournament")}]
                    + [{"value": n, "label": _t(lang, "{n} manches", n=n)} for n in (2, 3, 4, 5, 6, 8, 10)],
         "default": 0, "note": _t(lang, "« Décidez d'un nombre de manches à jouer. »")},
        {"name": "scoring", "label": _t(lang, "Tournament mode"),
         "choices": [{"value": "solidaire", "label": _t(lang, "solidaire")},
                     {"value": "solitaire", "label": _t(lang, "solitaire")}],
         "default": "solidaire",
         "note": _t(lang, "Solidaire: « Les joueurs qui embarquent sur le radeau marquent un point. » "
                          "Solitaire: « Vous perdez 1 point par survivant sur le radeau » (out of as many "
                          "points as players).")},
    ]


def _names(record: dict[str, Any]) -> list[str]:
    return [p["name"] if isinstance(p, dict) else str(p) for p in record.get("players", [])]


def match_totals(records: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The running totals of one match from its manches (script outputs / public states with ``options``).

    Only finished manches count. The match is that of the newest record; records of other
    matches are left out. None when no record belongs to a match.
    """
    tagged = [r for r in records if (r.get("options") or {}).get("manches")]
    if not tagged:
        return None
    match = (tagged[-1].get("options") or {}).get("match", "")
    ours = [r for r in tagged if (r.get("options") or {}).get("match", "") == match]
    opts = ours[-1]["options"]
    mode = opts.get("scoring", "solidaire")
    manches = int(opts.get("manches") or 0)
    totals: dict[str, int] = {}
    rows = []
    for r in sorted(ours, key=lambda r: int((r.get("options") or {}).get("manche") or 1)):
        names = _names(r)
        for name in names:
            totals.setdefault(name, 0)
        if not r.get("over"):
            continue
        winners = list(r.get("winners") or [])
        pts = T.game_points(len(names), len(winners), mode) if winners else 0
        for name in winners:
            totals[name] = totals.get(name, 0) + pts
        rows.append({"manche": int((r.get("options") or {}).get("manche") or len(rows) + 1),
                     "winners": winners, "points": {name: (pts if name in winners else 0) for name in names},
                     "reason": (r.get("outcome") or {}).get("reason")})
    played = len(rows)
    leaders = T.tournament_winners(totals) if any(totals.values()) else []
    over = bool(manches) and played >= manches
    return {"match": match, "manches": manches, "played": played, "mode": mode, "totals": totals,
            "leaders": leaders, "rows": rows, "over": over, "winners": leaders if over else []}


def next_manche(options: dict[str, Any], public: dict[str, Any]) -> dict[str, Any] | None:
    """The options of the next manche, the points so far carried in; None when the match is over."""
    manches = int(options.get("manches") or 0)
    manche = int(options.get("manche") or 1)
    if not manches or manche >= manches or not public.get("over"):
        return None
    totals = dict((public.get("match") or {}).get("totals") or {})
    return {**options, "manche": manche + 1, "carried": totals}


# -- reading the options at set-up ------------------------------------------------------------

def parse_options(names: list[str], options: dict[str, Any]) -> tuple[S.Options, int]:
    """The set-up options checked and read (:class:`~companion.games.galerapagos.state.Options`) and the
    first player's seat; a wrong one is a :class:`~companion.engine.rules.RuleError` naming the key."""
    if not isinstance(options, dict):
        raise S.refusal("Option \"{key}\" must be {what}.", key="options", what=S.phrase("a JSON object"))
    for key in options:
        if key not in S.OPTIONS:
            raise S.refusal("Galèrapagos has no option \"{key}\"; it knows {known}.", key=key, known=", ".join(S.OPTIONS))

    def ints(key: str, default: tuple[int, ...], least: int) -> tuple[int, ...]:
        value = options.get(key, list(default))
        if (not isinstance(value, list) or len(value) < least
                or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 9 for v in value)):
            what = S.phrase("a list of at least {least} numbers from 0 to 9", least=least)
            raise S.refusal("Option \"{key}\" must be {what}.", key=key, what=what)
        return tuple(value)

    def flag(key: str) -> bool:
        value = options.get(key, False)
        if not isinstance(value, bool):
            raise S.refusal("Option \"{key}\" must be {what}.", key=key, what=S.phrase("true or false"))
        return value

    def count(key: str, least: int) -> int:
        value = options.get(key, 0)
        if isinstance(value, bool) or not isinstance(value, int) or not (value == 0 or least <= value <= 99):
            raise S.refusal("Option \"{key}\" must be {what}.", key=key, what=S.phrase("a number from 1 to 99"))
        return value

    hurricane = options.get("hurricane_water", S.HURRICANE_WATER)
    if isinstance(hurricane, bool) or not isinstance(hurricane, int) or not 0 <= hurricane <= 9:
        raise S.refusal("Option \"{key}\" must be {what}.", key="hurricane_water", what=S.phrase("a number from 0 to 9"))
    scoring = options.get("scoring", "solidaire")
    if scoring not in S.SCORING:
        raise S.refusal("Option \"{key}\" must be {what}.", key="scoring", what=S.phrase("solidaire or solitaire"))
    first = options.get("first_player", names[0])
    if first not in names:
        raise S.refusal("Option \"{key}\" must be {what}.", key="first_player", what=S.phrase("one of the players"))
    size = options.get("weather_deck", 11)
    if size not in S.WEATHER_DECKS or isinstance(size, bool):
        raise S.refusal("Option \"{key}\" must be {what}.", key="weather_deck", what=S.phrase("11 or 12"))
    match = options.get("match", "")
    if not isinstance(match, str) or len(match) > 60:
        raise S.refusal("Option \"{key}\" must be {what}.", key="match", what=S.phrase("a name of at most 60 characters"))
    manches, manche = count("manches", 1), count("manche", 1)
    if manches and not manche:
        manche = 1
    if manche and not 1 <= manche <= max(manches, 1):
        raise S.refusal("Option \"{key}\" must be {what}.", key="manche", what=S.phrase("a number from 1 to the manches played"))
    carried = options.get("carried", {})
    if (not isinstance(carried, dict) or not all(k in names for k in carried)
            or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 9999 for v in carried.values())):
        raise S.refusal("Option \"{key}\" must be {what}.", key="carried", what=S.phrase("the points of each player so far"))
    opts = S.Options(dead_vote=flag("dead_vote"),
                   weather_cards=ints("weather_cards", S.WEATHER_DECKS[size], S.BOTTOM_CARDS + 1),
                   hurricane_water=hurricane, bag=ints("bag", S.BAG, 1), scoring=scoring,
                   raft_vote=flag("raft_vote"), sick_show=flag("sick_show"), match=match,
                   manche=manche if manches else 0, manches=manches,
                   carried=tuple(sorted((k, v) for k, v in carried.items())))
    return opts, names.index(first)
