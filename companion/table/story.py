"""The story of a game: its journal told in sentences by the game package's narration.

The tablet's and the phones' logs, the OLED's toasts and ``companion show
--text`` read it. Each action's state before and after and its events come from
the session's own replay (:meth:`companion.table.session.Session.steps`: nothing is
replayed here for a live game); only a reader of bare journal lines is replayed, and
a line the rules refuse is told as not played. The result is kept per game, lines
and language.
"""

from __future__ import annotations

import logging
from threading import Lock
from typing import Any

from companion import games
from companion.engine import texts
from companion.engine.rules import Action, Event, RuleError
from companion.table import correction_story
from companion.table.session import Session

log = logging.getLogger(__name__)

_cache: dict[tuple[str, str], tuple[tuple[Any, ...], list[dict[str, Any]]]] = {}
_lock = Lock()


def told(session: Any, lang: str = "en") -> list[dict[str, Any]]:
    """Every action in play, oldest first: ``{"seq", "at", "source", "from", "round", "action", "events", "sentences"}``.

    ``source`` is the journal's one word for the way it came (``web``, ``table``); ``from`` says where the
    action came from in the reader's words (« from Ann's phone », « at the table »); ``round`` is the
    round it belongs to (the package's ``round_of``); ``events`` what the rules said it did (secrets
    included: for the results and the narration, never sent to a page as they are); ``before`` and
    ``state`` the rules' own states around it (the course of the game reads them: one replay).
    """
    pkg = games.package(session.game)
    replayed = _replayed(pkg, session)
    key = (session.id, lang)
    stamp = tuple(entry.seq for entry, *_ in replayed)  # an edit changes an earlier line too
    with _lock:
        hit = _cache.get(key)
        if hit is not None and hit[0] == stamp:
            return hit[1]
    out: list[dict[str, Any]] = []
    for entry, state, events, after, err in replayed:
        if err is not None:  # a line the rules no longer take (an old journal): said, and the story goes on
            out.append({"seq": entry.seq, "at": entry.at, "source": entry.source,
                        "from": source_text(entry.author, lang), "round": out[-1]["round"] if out else None,
                        "action": entry.action, "events": [], "before": state, "state": state,
                        "sentences": [texts.render("Not played: {why}", {"why": pkg.error_text(err, lang)}, lang)]})
            continue
        sentences = sentences_of(pkg, state, entry.action, events, after, lang, where=f"{session.game} line {entry.seq}")
        try:
            rnd = pkg.round_of(state, entry.action, after)
        except Exception:  # a round the package cannot tell goes with the one before
            rnd = out[-1]["round"] if out else None
        out.append({"seq": entry.seq, "at": entry.at, "source": entry.source,
                    "from": source_text(entry.author, lang), "round": rnd,
                    "action": entry.action, "events": events, "sentences": sentences,
                    "before": state, "state": after})
    with _lock:
        if len(_cache) > 64:
            _cache.clear()
        _cache[key] = (stamp, out)
    return out


#: one line as the story reads it: (entry, state before, events, state after, the rules' refusal or None)
Replayed = tuple[Any, Any, list[Event], Any, RuleError | None]


def _replayed(pkg: Any, session: Any) -> list[Replayed]:
    """A live session's own replay; for a reader of bare journal lines (``history()`` only), one here."""
    if isinstance(session, Session):
        return [(s.entry, s.before, s.events, s.after, None) for s in session.steps()]
    rules = pkg.rules
    state = rules.setup(session.players, session.options)
    out: list[Replayed] = []
    for entry in session.history():
        try:
            after, events = rules.apply(state, entry.action)
        except RuleError as err:
            out.append((entry, state, [], state, err))
            continue
        out.append((entry, state, events, after, None))
        state = after
    return out


def sentences_of(pkg: Any, before: Any, action: Action, events: list[Event], after: Any, lang: str = "en",
                 where: str = "") -> list[str]:
    """One action told in sentences (the package's narration, else its one-line description).

    The story of the whole journal and the OLED's toast of the newest action (from the states the
    session computed when it accepted it: :class:`companion.table.session.Change`) both tell it here.
    """
    try:
        sentences = pkg.narrate(before, action, events, after, lang)
    except Exception:  # a narration bug must never hide the game
        log.exception("the narration of %s failed", where or pkg.id)
        sentences = []
    return list(sentences) if sentences else [pkg.describe(action, lang)]


def recent(session: Any, lang: str = "en", viewer: str | None = None, limit: int = 8) -> list[dict[str, Any]]:
    """The newest actions told, newest first (one log line each: its sentences joined), with the
    corrections made from the tablet among them (``source`` ``"correction"``)."""
    lines = [{"seq": e["seq"], "at": e["at"], "text": " ".join(e["sentences"]), "source": e["source"]}
             for e in told(session, lang)]
    merged = _with_corrections(session, lines, lang)[-limit:]
    return [{k: v for k, v in line.items() if k != "at"} for line in reversed(merged)]


# -- corrections: an edit or a removal told, from the public views before and after it -------------

_said: dict[tuple[str, int, str, str | None], dict[str, Any]] = {}


def corrections(session: Any, lang: str = "en", viewer: str | None = None) -> list[dict[str, Any]]:
    """Every edit or removal of an earlier action, oldest first: ``{"id", "at", "text", "players", "seats"}``.

    ``text``: the correction told as a story (:mod:`companion.table.correction_story`): « Correction:
    “Bob collects wood” removed from the history. Dan's move “Dan searches the wreck” no longer
    counts: the correction came before it; Dan may act again now. », from the public views before and
    after it and the actions it set aside (never a secret: all are the table's view); ``players``: the
    seats it touched; ``viewer``: the seat reading it (its own sentence says « you »).
    """
    try:
        rows = session.journal.corrections(session.id)
    except Exception:  # a journal that cannot say: the story goes on without corrections
        return []
    pkg = games.package(session.game)
    out = []
    for row in rows:
        key = (session.id, row["id"], lang, viewer)
        with _lock:
            hit = _said.get(key)
        if hit is None:
            said = correction_story.told(pkg, row["note"], lang, viewer)
            hit = {"id": row["id"], "at": row["at"], "text": said["text"], "lines": said["lines"], "players": said["players"],
                   "seats": said["seats"], "head": said["head"], "table": said["table"]}
            with _lock:
                if len(_said) > 512:
                    _said.clear()
                _said[key] = hit
        out.append(hit)
    return out


def _with_corrections(session: Any, lines: list[dict[str, Any]], lang: str) -> list[dict[str, Any]]:
    """``lines`` (oldest first, each with its ``at``) with each correction after the actions made before it."""
    fixes = corrections(session, lang)
    if not fixes:
        return lines
    out, k = [], 0
    for line in lines:
        while k < len(fixes) and fixes[k]["at"] < line["at"]:
            out.append(_line(fixes[k], line["seq"]))
            k += 1
        out.append(line)
    out.extend(_line(f, lines[-1]["seq"] if lines else 0) for f in fixes[k:])
    return out


def _line(fix: dict[str, Any], seq: int) -> dict[str, Any]:
    return {"seq": seq, "at": fix["at"], "text": fix["text"], "source": "correction", "correction": fix["id"]}


def source_text(author: Any, lang: str = "en") -> str:
    """Where an action came from, in the reader's words, from its author (:class:`companion.table.authorship.Author`).

    A phone's seat is a field of its own: a player named « table » is still « from table's phone ».
    """
    t = texts.translator(lang)
    via = getattr(author, "via", None)
    if via == "phone":
        return t("drawn on {p}'s phone", p=author.seat) if author.seed is not None else t("from {p}'s phone", p=author.seat)
    if via == "table":
        if author.for_ is not None:
            return t("at the table, for {p}", p=author.for_)
        if author.seed is not None:
            return t("drawn at the table")
        return t("at the table")
    if via == "buttons":
        return t("dice left in the lanes") if author.auto else t("on the board")
    return {"terminal": t("at the terminal"), "cli": t("from the command line")}.get(via or "", "")


def by_round(session: Any, lang: str = "en", limit: int = 14) -> list[dict[str, Any]]:
    """The newest ``limit`` actions told, grouped by round, newest round and newest line first.

    ``[{"round", "heading", "lines": [{"seq", "text", "from", "newest"}]}]``: the table's « story of
    the round », the newest line marked. ``heading`` is the package's « Round 3 » in ``lang`` (empty
    when the game has no rounds).
    """
    pkg = games.package(session.game)
    told_all = told(session, lang)
    flat = [{"seq": e["seq"], "at": e["at"], "text": " ".join(e["sentences"]), "from": e["from"], "round": e["round"]}
            for e in told_all]
    merged = _with_corrections(session, flat, lang)  # a correction is told in the round it was made in
    for i, line in enumerate(merged):
        if "round" not in line:
            line["round"] = merged[i - 1]["round"] if i else None
            line["from"] = texts.translator(lang)("at the table")
    lines = merged[-limit:]
    newest = merged[-1] if merged else None
    groups: list[dict[str, Any]] = []
    for e in reversed(lines):
        if not groups or groups[-1]["round"] != e["round"]:
            heading = pkg.round_heading(e["round"], lang) if e["round"] is not None else ""
            groups.append({"round": e["round"], "heading": heading, "lines": []})
        groups[-1]["lines"].append({"seq": e["seq"], "text": e["text"], "from": e["from"], "newest": e is newest,
                                    **({"correction": True} if "correction" in e else {})})
    return groups


def events(session: Any) -> list[dict[str, Any]]:
    """Every event of the game so far, oldest first (the results read who used which bonus tile)."""
    return [e for entry in told(session, "en") for e in entry["events"]]
