"""A plain-text view of a game for terminals and SSH sessions."""

from __future__ import annotations

import json
from typing import Any

from companion import games
from companion.table import story
from companion.table.session import Session

_SKIP = {"game", "round", "over", "players", "scores", "winners", "expected", "outcome", "id", "version"}


def _fmt(value: Any) -> str:
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    return str(value)


def summary(session: Session, viewer: str | None = None, lang: str = "en") -> str:
    """Who is where, what the game expects now, the last actions told, and the scores."""
    pub = session.public(viewer)
    lines = [f"{session.rules.name} — game {session.id}, round {pub.get('round')}"]
    for key, value in pub.items():
        if key not in _SKIP:
            text = _fmt(value)
            # a layout or a long table is unreadable on one line: the board below shows it
            lines.append(f"  {key}: {text if len(text) <= 160 else '(' + str(len(value)) + ' entries)'}")
    for player in pub.get("players", []):
        fields = ", ".join(f"{k} {_fmt(v)}" for k, v in player.items() if k != "name")
        score = pub.get("scores", {}).get(player.get("name"))
        lines.append(f"  {player.get('name')}: {fields}" + (f" — score {score}" if score is not None else ""))
    render = getattr(session.rules, "render_text", None)
    if callable(render):
        lines.append(render(session.state))
    told = story_lines(session, lang)
    if told:
        lines.append("Last:")
        lines.extend(f"  {sentence}" for sentence in told)
    if pub.get("over"):
        outcome = pub.get("outcome") or {}
        winners = ", ".join(pub.get("winners") or []) or "nobody"
        lines.append(f"Game over ({outcome.get('text') or outcome.get('reason', '')}). Winners: {winners}.")
    else:
        exp = pub.get("expected") or {}
        who = ", ".join(exp.get("players") or []) or "the table"
        lines.append(f"Next: {who} — {games.package(session.game).prompt(session.state, lang)}")
    return "\n".join(lines)


def story_lines(session: Session, lang: str = "en", limit: int = 5) -> list[str]:
    """The last actions told in sentences (the game package's narration), oldest first."""
    return [line["text"] for line in reversed(story.recent(session, lang, limit=limit))]
