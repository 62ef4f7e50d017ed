"""A player's history across games: games, wins, scores, streaks, head-to-head, scores over time.

It reads the journal's game records through Home's library (:class:`companion.table.library.Library`),
so that it counts what Home counts, and it names no game. How each kind of game counts:

- **finished** (the game has a result): played; a win for every name in its ``winners``. A tie
  that the rules leave shared (two winners) is a win for each, and counted ``shared`` as well;
  a tie the rules break (the auction's money) is a win for the one the rules name.
- **abandoned** (stopped on Home): listed and counted ``abandoned``, but neither played to the
  end nor won; its score counts nowhere (it has none).
- **deleted** from Home: gone from the history as from Home's statistics (the raw exports of
  ``/history.json`` keep it, marked deleted).
- a game still being played is not in the history yet.

Filters: by game (its id) and by period (the last week, month or year, from the journal's clock).
"""

from __future__ import annotations

from typing import Any

from companion.engine import course, texts
from companion.table.library import ABANDONED, OVER, Library

#: the periods the history may be filtered by, in days (None: all)
PERIODS: dict[str, int | None] = {"all": None, "week": 7, "month": 31, "year": 366}
#: the CSV of the players' figures: one row per player and game (``game`` "*" for all games together)
CSV_FIELDS = ["player", "game", "played", "won", "shared", "abandoned", "win_rate", "average", "best",
              "streak", "best_streak", "opponent", "together", "ahead", "behind", "even"]


def records(library: Library, *, game: str | None = None, period: str = "all",
            now: float | None = None) -> list[tuple[Any, str]]:
    """The finished and abandoned games not deleted, oldest first, each with its state, filtered."""
    days = PERIODS.get(period)
    since = (now - days * 86400) if days is not None and now is not None else None
    out = []
    for rec, state, deleted in library.history():
        if deleted or state not in (OVER, ABANDONED):
            continue
        if game is not None and rec.game != game:
            continue
        if since is not None and (rec.finished or rec.created) < since:
            continue
        out.append((rec, state))
    return sorted(out, key=lambda e: (e[0].finished or e[0].created, e[0].created, e[0].id))


def _blank(name: str) -> dict[str, Any]:
    return {"name": name, "played": 0, "won": 0, "shared": 0, "abandoned": 0, "scores": [],
            "streak": 0, "best_streak": 0}


def _count(s: dict[str, Any], name: str, rec: Any, state: str) -> None:
    if state == ABANDONED:
        s["abandoned"] += 1
        return
    result = rec.result or {}
    winners = list(result.get("winners") or [])
    s["played"] += 1
    won = name in winners
    s["won"] += won
    s["shared"] += won and len(winners) > 1
    s["streak"] = s["streak"] + 1 if won else 0
    s["best_streak"] = max(s["best_streak"], s["streak"])
    score = (result.get("scores") or {}).get(name)
    if isinstance(score, int | float) and not isinstance(score, bool):
        s["scores"].append(score)


def _finish(s: dict[str, Any]) -> dict[str, Any]:
    pts = s.pop("scores")
    s["best"] = max(pts) if pts else None
    s["average"] = round(sum(pts) / len(pts), 1) if pts else None
    s["win_rate"] = round(100 * s["won"] / s["played"]) if s["played"] else 0
    return s


def _ahead(rec: Any, me: str, other: str) -> int:
    """+1 when ``me`` finished ahead of ``other`` (won and he did not, else the higher score), -1 behind, 0 even."""
    result = rec.result or {}
    winners = set(result.get("winners") or [])
    if (me in winners) != (other in winners):
        return 1 if me in winners else -1
    scores = result.get("scores") or {}
    a, b = scores.get(me), scores.get(other)
    if isinstance(a, int | float) and isinstance(b, int | float) and a != b:
        return 1 if a > b else -1
    return 0


def figures(library: Library, *, game: str | None = None, period: str = "all",
            now: float | None = None) -> dict[str, Any]:
    """Everything the history page and its exports show, for the games that pass the filters.

    ``{"filters", "games": [{"id", "game", "finished", "state", "players", "winners", "scores"}],
    "players": [{"name", "played", "won", "shared", "abandoned", "win_rate", "average", "best",
    "streak", "best_streak", "per_game": {game: {...same...}}, "head_to_head": {other:
    {"together", "ahead", "behind", "even"}}}], "timeline": {"x", "games", "scores": {name: [...]}}}``
    ``streak`` is the run of wins up to the newest game (0 after a loss), ``best_streak`` the longest.
    """
    recs = records(library, game=game, period=period, now=now)
    stats: dict[str, dict[str, Any]] = {}
    per_game: dict[str, dict[str, dict[str, Any]]] = {}
    h2h: dict[str, dict[str, dict[str, int]]] = {}
    listed = []
    finished = []
    for rec, state in recs:
        result = rec.result or {}
        listed.append({"id": rec.id, "game": rec.game, "created": rec.created, "finished": rec.finished,
                       "state": state, "players": list(rec.players),
                       "winners": list(result.get("winners") or []) if state == OVER else [],
                       "scores": dict(result.get("scores") or {}) if state == OVER else {}})
        for name in rec.players:
            _count(stats.setdefault(name, _blank(name)), name, rec, state)
            _count(per_game.setdefault(name, {}).setdefault(rec.game, _blank(name)), name, rec, state)
        if state != OVER:
            continue
        finished.append(rec)
        for me in rec.players:
            for other in rec.players:
                if other == me:
                    continue
                row = h2h.setdefault(me, {}).setdefault(other, {"together": 0, "ahead": 0, "behind": 0, "even": 0})
                row["together"] += 1
                row[{1: "ahead", -1: "behind", 0: "even"}[_ahead(rec, me, other)]] += 1
    players = []
    for name, s in stats.items():
        out = _finish(s)
        out["per_game"] = {g: {k: v for k, v in _finish(p).items() if k != "name"} for g, p in per_game[name].items()}
        out["head_to_head"] = h2h.get(name, {})
        players.append(out)
    players.sort(key=lambda s: (-s["won"], -s["played"], s["name"]))
    names = [p["name"] for p in players]
    timeline = {"x": list(range(1, len(finished) + 1)), "games": [r.id for r in finished],
                "scores": {n: [(r.result or {}).get("scores", {}).get(n) if n in r.players else None for r in finished]
                           for n in names}}
    return {"filters": {"game": game, "period": period}, "games": listed, "players": players,
            "timeline": timeline}


def among(figures_: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """``figures_`` for the players ``names`` only (a phone's table): their rows, their head-to-head with
    each other, the games one of them played, their lines over time."""
    keep = set(names)
    players = [{**p, "head_to_head": {o: h for o, h in p["head_to_head"].items() if o in keep}}
               for p in figures_["players"] if p["name"] in keep]
    tl = figures_["timeline"]
    timeline = {**tl, "scores": {n: v for n, v in tl["scores"].items() if n in keep}}
    return {**figures_, "players": players, "timeline": timeline,
            "games": [g for g in figures_["games"] if keep & set(g["players"])]}


def timeline_course(figures_: dict[str, Any], lang: str = "en") -> dict[str, Any]:
    """The scores over time as a course (:mod:`companion.engine.course`): x is the n-th finished game."""
    t = texts.translator(lang)
    tl = figures_["timeline"]
    lines = [course.series(n, n, tl["scores"][n], course.seat_style(i)) for i, n in enumerate(tl["scores"])]
    return {"x_label": t("Game"), "x": tl["x"], "x_labels": [str(x) for x in tl["x"]], "marks": [],
            "charts": [{**course.chart("scores", t("Scores over time"), lines), "connect": True}], "spark": None}


def rows(figures_: dict[str, Any]) -> list[dict[str, Any]]:
    """The players' figures as CSV rows: per player all games together (``*``) then each game, then
    one row per opponent (head-to-head)."""
    out = []
    keys = ("played", "won", "shared", "abandoned", "win_rate", "average", "best", "streak", "best_streak")
    for p in figures_["players"]:
        out.append({"player": p["name"], "game": "*", **{k: p[k] for k in keys}})
        for g, s in sorted(p["per_game"].items()):
            out.append({"player": p["name"], "game": g, **{k: s[k] for k in keys}})
        for other, h in sorted(p["head_to_head"].items()):
            out.append({"player": p["name"], "game": "*", "opponent": other, **h})
    return [{f: r.get(f, "") for f in CSV_FIELDS} for r in out]
