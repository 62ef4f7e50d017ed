"""What a table tells the club's broker, built from the public view only.

Every payload here is made from what the dashboard's public readers get: ``rules.public_state(state,
None)`` (the view with no seat: a vote before the reveal, a hand, anything ``view`` hides stays out),
the game package's narration (written so that « Ann votes. » names nobody), its results and turn. No
function here sees an action's secret fields except through the narration, which the secret-free test
over whole games checks. Pure functions: no clock, no I/O (the outbox gives them the game's actions as
the table's one replay played them, :class:`companion.table.played.PlayedAction`).
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterator
from typing import Any

from companion.engine import course as shape
from companion.engine import texts
from companion.table import bgstats, story
from companion.table.played import PlayedAction

log = logging.getLogger(__name__)

PREFIX = "galapagos"
#: the message format's version, in every payload (a subscriber can tell an older table)
FORMAT = 1


def topic(table: str, kind: str) -> str:
    """``galapagos/<table>/<kind>``: status, story or results."""
    return f"{PREFIX}/{table}/{kind}"


def sand_end(pkg: Any, steps: list[PlayedAction], state: Any) -> float | None:
    """When the sand timer runs out (epoch seconds, from the journalled moment it was turned), or None."""
    if pkg.rules.view(state).get("timer") != "running":
        return None
    for step in reversed(steps):
        for event in step.events:
            if event.get("event", event.get("type")) == "timer_started":
                return round(step.entry.at + float(event.get("seconds", 30)), 3)
    return None


def _iso(at: float | None) -> str | None:
    return None if at is None else dt.datetime.fromtimestamp(at, dt.UTC).isoformat(timespec="seconds")


def status(table: str, record: Any, pkg: Any, state: Any, steps: list[PlayedAction], devices_down: list[str],
           lang: str = "en") -> dict[str, Any]:
    """The retained ``status``: game, round, whose turn, the sand's end, the players' public figures,
    the public gauges (:attr:`GamePackage.gauges`) and the devices down."""
    public = pkg.rules.public_state(state, None)
    turn = pkg.turn(state, public)
    ends = sand_end(pkg, steps, state)
    players = [dict(p) for p in public.get("players") or [] if isinstance(p, dict)]
    scores = public.get("scores") or {}
    for p in players:
        p["score"] = scores.get(p.get("name"))
    return {
        "format": FORMAT, "table": table, "game_id": record.id, "game": record.game, "title": pkg.title(lang),
        "round": public.get("round"), "phase": public.get("phase"), "phase_label": pkg.phase_label(public, lang),
        "now": list(turn.get("now") or []), "next": list(turn.get("next") or []),
        "table_acts": bool(turn.get("table_now")),
        "sand_ends": ends, "sand_ends_iso": _iso(ends),
        "players": players, "scores": scores, "over": bool(public.get("over")),
        "winners": list(public.get("winners") or []),
        "gauges": {k: public.get(k) for k in pkg.gauges if k in public},
        "devices_down": list(devices_down), "actions": len(steps),
    }


def story_lines(table: str, record: Any, pkg: Any, steps: list[PlayedAction], after_seq: int,
                lang: str = "en") -> Iterator[dict[str, Any]]:
    """One ``story`` message per action journalled after ``after_seq``: its narration in the table's language."""
    for step in steps:
        entry = step.entry
        if entry.seq <= after_seq:
            continue
        try:
            sentences = pkg.narrate(step.before, entry.action, step.events, step.after, lang)
        except Exception:  # a narration bug never stops the table (the story shows the short line instead)
            sentences = []
        if not sentences:
            sentences = [pkg.describe(pkg.redact(entry.action, None), lang)]
        try:
            rnd = pkg.round_of(step.before, entry.action, step.after)
        except Exception:
            rnd = None
        yield {"format": FORMAT, "table": table, "game_id": record.id, "game": record.game, "seq": entry.seq,
               "round": rnd, "lang": lang, "at": entry.at, "text": " ".join(sentences), "sentences": sentences,
               "from": story.source_text(entry.author, lang)}


def result(table: str, record: Any, pkg: Any, state: Any, steps: list[PlayedAction], finished: float | None) -> dict[str, Any]:
    """The ``results`` record of a finished game: players, scores, ranking, tie-break, duration, the BG Stats
    fields, the course (:func:`course`). ``id`` is the game's id (random, so two tables never collide): the same
    game sent twice is one."""
    public = pkg.rules.public_state(state, None)
    events = [e for s in steps for e in s.events]
    res = pkg.results(state, "en", events) or {}
    scores = public.get("scores") or {}
    winners = list(public.get("winners") or [])
    rows = res.get("rows") or []
    ranking = [{"place": r.get("place"), "name": r.get("name"), "score": r.get("score"), "winner": bool(r.get("winner"))}
               for r in rows]
    start = record.created
    end = finished if finished is not None else (steps[-1].entry.at if steps else start)
    minutes = max(1, round((end - start) / 60))
    play = {**bgstats.play_data(record, pkg.title("en")), "location": table}
    return {"format": FORMAT, "id": record.id, "table": table, "game": record.game, "title": pkg.title("en"),
            "players": list(record.players), "scores": scores, "winners": winners, "ranking": ranking,
            "outcome": res.get("outcome") or "", "tie": res.get("tie") or "",
            "reason": getattr(pkg.rules.outcome(state), "reason", None),
            "started": start, "finished": end, "duration_min": minutes, "actions": len(steps),
            "options": dict(record.options), "match": public.get("match"), "bgstats": play,
            "course": course(pkg, steps)}


def course(pkg: Any, steps: list[PlayedAction]) -> dict[str, Any] | None:
    """The game's course in every language of the interface (``{"en": …, "fr": …}``), as its package draws
    it (:meth:`GamePackage.course`: the public view round by round, the weather, revealed votes and deaths
    as marks), without the parts the league rebuilds (each chart's table); None when the package draws none.

    The league cannot replay a game (it has no journal), so the figures travel; a course that cannot be
    drawn costs the course only, never the result."""
    entries = shape.entries(pkg, [(s.before, s.entry.action, s.events, s.after) for s in steps])
    out = {}
    for lang in texts.LANGUAGES:
        try:
            drawn = pkg.course(entries, lang)
        except Exception:  # noqa: BLE001 - the result goes without its charts
            log.exception("the course of %s could not be drawn for the league", pkg.id)
            return None
        if drawn:
            out[lang] = shape.neutral(drawn)
    return out or None


def withdrawn(table: str, record: Any) -> dict[str, Any]:
    """A finished game taken back (an undo past its end): the league stops counting it until it ends again."""
    return {"format": FORMAT, "id": record.id, "table": table, "game": record.game, "withdrawn": True}


# -- Home Assistant MQTT discovery (https://www.home-assistant.io/integrations/mqtt/#mqtt-discovery) ----------

def discovery(table: str, gauges: dict[str, str]) -> list[tuple[str, dict[str, Any]]]:
    """The retained ``homeassistant/sensor/<table>/<object>/config`` messages of one table's sensors.

    The table's name is the topic's node level (Home Assistant's ``<node_id>``), alone in its level so
    that a broker's ACL ``pattern write homeassistant/sensor/%u/#`` lets a table announce only itself.

    One device per table; sensors for the game, the round, who plays, the sand's end (a timestamp), and
    each public gauge any installed game has (``gauges``: key → English label; a sensor whose game is not
    on the table reads « unknown »). They all read the table's retained ``status``.
    """
    state = topic(table, "status")
    device = {"identifiers": [f"galapagos_{table}"], "name": f"Galapagos table {table}",
              "manufacturer": "Galapagos Table Companion", "model": "table companion"}
    sensors: list[tuple[str, str, str, dict[str, Any]]] = [
        ("game", "Game", "{{ value_json.title }}", {"icon": "mdi:dice-multiple"}),
        ("round", "Round", "{{ value_json.round }}", {"icon": "mdi:counter"}),
        ("player", "Current player", "{{ value_json.now | join(', ') }}", {"icon": "mdi:account"}),
        ("sand", "Sand timer ends", "{{ value_json.sand_ends_iso if value_json.sand_ends_iso else None }}",
         {"device_class": "timestamp", "icon": "mdi:timer-sand"}),
        ("devices_down", "Devices down", "{{ value_json.devices_down | length }}", {"icon": "mdi:alert"}),
    ]
    for key, label in gauges.items():
        sensors.append((key, label, f"{{{{ value_json.gauges['{key}'] if '{key}' in value_json.gauges else None }}}}",
                        {"state_class": "measurement"}))
    out = []
    for key, name, template, extra in sensors:
        unique = f"galapagos_{table}_{key}"
        out.append((f"homeassistant/sensor/{table}/galapagos_{key}/config",
                    {"name": name, "unique_id": unique, "object_id": unique, "state_topic": state,
                     "value_template": template, "device": device,
                     "availability_topic": topic(table, "online"), "payload_available": "online",
                     "payload_not_available": "offline", **extra}))
    return out
