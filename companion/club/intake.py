"""What the league takes from the broker: a ``results`` message checked field by field, or one sentence.

Anyone who may publish on the club's broker can send the league anything: text that is not JSON, a number
JSON does not allow (``NaN``), a list where a record belongs, a result claiming another table's game, a
megabyte of marks for a chart. Each is refused here with one sentence (:class:`Refused`, logged by the
league) and nothing is stored, so the standings and the pages only ever read records of this shape.

The course a table sends (:func:`companion.club.messages.course`) is rebuilt here from the fields the
charts read, each checked (a colour is ``#rrggbb``, a dash pattern digits and commas, a figure a finite
number): no other key reaches the page, and no text of it reaches the SVG but through its escaping.
"""

from __future__ import annotations

import re
from typing import Any

from companion import games
from companion.engine import jsoncheck, texts
from companion.engine.rules import RuleError

#: a results message at most (a 60-turn game's course in two languages is about 40 KB)
MAX_BYTES = 256 * 1024
#: the lengths a course may have: rounds, charts, lines per chart, marks, text
MAX_X, MAX_CHARTS, MAX_SERIES, MAX_MARKS, MAX_LABEL = 500, 24, 16, 1000, 300
#: a number on a chart at most (scores, money, turtles and rations are far below; each game narrows it)
MAX_VALUE = 10**9
#: a result's revision at most (a PostgreSQL INTEGER), and the length of a player's name
MAX_REV, MAX_NAME = 2**31 - 1, 100
SHAPES = frozenset({"circle", "ring", "diamond", "triangle", "square", "hexagon", "cross", "star", "figure"})
_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")
_DASH = re.compile(r"(\d{1,3}(,\d{1,3}){0,11})?")
_WORD = re.compile(r"[A-Za-z0-9_-]{1,64}")


class Refused(Exception):
    """A message the league does not take, with the sentence that says why (nothing was stored)."""


def parse(topic: str, body: bytes) -> dict[str, Any]:
    """The checked record of a message received on ``topic`` (``galapagos/<table>/results[/<id>]``)."""
    parts = topic.split("/")
    where = f"A results message on {topic}"
    if len(body) > MAX_BYTES:
        raise Refused(f"{where} is {len(body):,} bytes, over the league's {MAX_BYTES // 1024} KiB; it was ignored.")
    try:
        payload = jsoncheck.loads(body, "the message")
    except RuleError as err:
        raise Refused(f"{where} was ignored: {err.message}") from None
    if not isinstance(payload, dict):
        raise Refused(f"{where} is not a JSON object; it was ignored.")
    table = parts[1] if len(parts) > 2 else ""
    if len(parts) > 3 and payload.get("id") != parts[3]:
        raise Refused(f"{where} was ignored: it names game {str(payload.get('id'))[:40]} under game {parts[3][:40]}'s "
                      "topic.")
    return record(payload, table, where)


def record(payload: dict[str, Any], table: str, where: str = "A results message") -> dict[str, Any]:
    """``payload`` checked: a result (or a withdrawal) of ``table``'s; :class:`Refused` otherwise."""
    def refuse(what: str) -> Refused:
        return Refused(f"{where} was ignored: {what}.")

    rid, rev = payload.get("id"), payload.get("rev", 0)
    if not isinstance(rid, str) or not _WORD.fullmatch(rid):
        raise refuse("its id is missing or not a game id")
    if not _int(rev) or not 0 <= rev <= MAX_REV:
        raise refuse(f"its rev is not a whole number from 0 to {MAX_REV:,}")
    if payload.get("table") != table:
        raise refuse(f"it names table {str(payload.get('table'))[:40]} but came on table {table}'s topic")
    if not isinstance(payload.get("game", ""), str):
        raise refuse("its game is not a game id")
    if payload.get("withdrawn"):
        if payload["withdrawn"] is not True:
            raise refuse("its withdrawn is not true or false")
        return payload
    try:
        pkg = games.package(payload.get("game"))
    except RuleError:
        raise refuse(f"its game {str(payload.get('game'))[:40]} is none of this league's games") from None
    limits = pkg.limits
    players = payload.get("players")
    if not isinstance(players, list) or not players \
            or not all(isinstance(p, str) and 0 < len(p) <= MAX_NAME for p in players):
        raise refuse(f"its players are not a list of names of at most {MAX_NAME} characters")
    if len(set(players)) != len(players):
        seen: set[str] = set()
        twice = next(p for p in players if p in seen or seen.add(p))
        raise refuse(f"its players name {twice[:40]} more than once")
    if len(players) > pkg.rules.max_players:
        raise refuse(f"it has {len(players)} players; this game takes at most {pkg.rules.max_players}")
    scores = payload.get("scores") or {}
    if not isinstance(scores, dict) or not all(v is None or _number(v) for v in scores.values()):
        raise refuse("its scores are not numbers by player")
    stranger = next((name for name in scores if name not in players), None)
    if stranger is not None:
        raise refuse(f"its scores name {stranger[:40]}, who is not among its players")
    low, high = limits["score"]
    if any(v is not None and not low <= v <= high for v in scores.values()):
        raise refuse(f"its scores are not between {low:,} and {high:,}, this game's range")
    winners = payload.get("winners") or []
    if not isinstance(winners, list) or not all(isinstance(w, str) and w in players for w in winners) \
            or len(set(winners)) != len(winners):
        raise refuse("its winners are not among its players, each once")
    for key in ("started", "finished"):
        if payload.get(key) is not None and not _number(payload[key]):
            raise refuse(f"its {key} is not a time")
    for key in ("options", "bgstats"):
        if not isinstance(payload.get(key) or {}, dict):
            raise refuse(f"its {key} is not a JSON object")
    if payload.get("course") is not None:
        try:
            payload = {**payload, "course": course(payload["course"], limits)}
        except ValueError as exc:
            raise refuse(f"its course {exc}") from None
    return payload


def course(value: Any, limits: dict[str, Any] | None = None) -> dict[str, Any]:
    """A table's course (``{lang: description}``) rebuilt from the fields the charts read; ValueError says
    what is wrong (« has a colour that is not #rrggbb »). ``limits``: the game package's (its ``limits``),
    else the league's widest. Languages the interface does not speak are dropped."""
    if not isinstance(value, dict):
        raise ValueError("is not a JSON object")
    bounds = {"rounds": MAX_X - 1, "charts": MAX_CHARTS, "lines": MAX_SERIES, "value": (-MAX_VALUE, MAX_VALUE),
              **(limits or {})}
    return {lang: _description(value[lang], bounds) for lang in texts.LANGUAGES if lang in value}


def _description(d: Any, limits: dict[str, Any]) -> dict[str, Any]:
    if not isinstance(d, dict):
        raise ValueError("is not a JSON object per language")
    x, labels = _xs(d, limits)
    charts = d.get("charts")
    if not isinstance(charts, list) or len(charts) > limits["charts"]:
        raise ValueError(f"has no list of at most {limits['charts']} charts, as many as this game draws")
    out = {"x_label": _text(d.get("x_label", ""), "x_label"), "x": x, "x_labels": labels,
           "charts": [_chart(ch, len(x), limits) for ch in charts], "marks": _marks(d.get("marks") or []),
           "spark": None}
    spark = d.get("spark")
    if spark is not None:
        if not isinstance(spark, dict):
            raise ValueError("has a sparkline that is not a JSON object")
        out["spark"] = {"label": _text(spark.get("label", ""), "sparkline label"),
                        "values": _values(spark.get("values"), len(x), limits["value"], none=False)}
    return out


def _xs(d: dict[str, Any], limits: dict[str, Any]) -> tuple[list[int], list[str]]:
    x, labels = d.get("x"), d.get("x_labels")
    most = limits["rounds"] + 1  # the start, then each round
    if not isinstance(x, list) or not 0 < len(x) <= most or not all(_int(n) and abs(n) <= MAX_VALUE for n in x):
        raise ValueError(f"has no rounds, or more than this game's {limits['rounds']} (x: 1 to {most} whole numbers)")
    if not isinstance(labels, list) or len(labels) != len(x):
        raise ValueError("has not one label per round")
    return list(x), [_text(s, "round label") for s in labels]


def _chart(ch: Any, rounds: int, limits: dict[str, Any]) -> dict[str, Any]:
    if not isinstance(ch, dict):
        raise ValueError("has a chart that is not a JSON object")
    ident = ch.get("id")
    if not isinstance(ident, str) or not _WORD.fullmatch(ident):
        raise ValueError("has a chart without an id of letters, digits and dashes")
    out: dict[str, Any] = {"id": ident, "title": _text(ch.get("title", ""), "title"),
                           "unit": _text(ch.get("unit", ""), "unit", 8)}
    if "x" in ch:  # a chart with its own x (a tournament's manches)
        x, labels = _xs(ch, limits)
        out.update(x=x, x_labels=labels, x_label=_text(ch.get("x_label", ""), "x_label"))
        rounds = len(x)
    lines = ch.get("series")
    if not isinstance(lines, list) or len(lines) > limits["lines"]:
        raise ValueError(f"has a chart without a list of at most {limits['lines']} lines, as many as this game draws")
    out["series"] = [_series(s, rounds, limits["value"]) for s in lines]
    rules = ch.get("lines") or []
    if not isinstance(rules, list) or len(rules) > 4:
        raise ValueError("has a chart with more than 4 rules across it")
    out["lines"] = []
    for r in rules:
        if not isinstance(r, dict) or not _number(r.get("value")) or not _within(r["value"], limits["value"]):
            raise ValueError("has a rule across a chart without a number")
        out["lines"].append({"value": r["value"], "label": _text(r.get("label", ""), "rule label")})
    return out


def _series(s: Any, rounds: int, bounds: tuple[float, float]) -> dict[str, Any]:
    if not isinstance(s, dict):
        raise ValueError("has a line that is not a JSON object")
    colour, shape, dash = s.get("colour"), s.get("shape", "circle"), s.get("dash", "")
    if not isinstance(colour, str) or not _COLOUR.fullmatch(colour):
        raise ValueError("has a colour that is not #rrggbb")
    if shape not in SHAPES:
        raise ValueError(f"has a shape that is none of {', '.join(sorted(SHAPES))}")
    if not isinstance(dash, str) or not _DASH.fullmatch(dash):
        raise ValueError("has a dash pattern that is not numbers and commas")
    return {"key": _text(s.get("key", ""), "key"), "label": _text(s.get("label", ""), "label"),
            "values": _values(s.get("values"), rounds, bounds), "colour": colour, "shape": shape, "dash": dash}


def _marks(marks: Any) -> list[dict[str, Any]]:
    if not isinstance(marks, list) or len(marks) > MAX_MARKS:
        raise ValueError(f"has no list of at most {MAX_MARKS} marks")
    out = []
    for m in marks:
        if not isinstance(m, dict) or not _int(m.get("x")) or not isinstance(m.get("kind"), str) \
                or not _WORD.fullmatch(m["kind"]):
            raise ValueError("has a mark without its round and kind")
        mark = {"x": m["x"], "kind": m["kind"], "text": _text(m.get("text", ""), "mark")}
        if m.get("player") is not None:
            mark["player"] = _text(m["player"], "player")
        out.append(mark)
    return out


def _values(values: Any, most: int, bounds: tuple[float, float], none: bool = True) -> list[Any]:
    if not isinstance(values, list) or len(values) > most:
        raise ValueError(f"has a line of more than {most} values")
    for v in values:
        if not ((none and v is None) or (_number(v) and _within(v, bounds))):
            raise ValueError(f"has a value that is not a number from {bounds[0]:,} to {bounds[1]:,}, this game's range")
    return list(values)


def _within(v: float, bounds: tuple[float, float]) -> bool:
    return bounds[0] <= v <= bounds[1]


def _text(value: Any, what: str, most: int = MAX_LABEL) -> str:
    if not isinstance(value, str) or len(value) > most:
        raise ValueError(f"has a {what} that is not a text of at most {most} characters")
    return value


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)
