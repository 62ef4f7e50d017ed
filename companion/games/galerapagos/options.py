"""Galèrapagos' set-up readings and its tournaments ("Mode tournois").

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
from companion.games.galerapagos import rules as R
from companion.games.galerapagos import tournament as T

DOMAIN = R.DOMAIN


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
