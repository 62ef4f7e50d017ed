"""French is complete: every page and every OLED frame of each game, in French, holds no English game word.

The English game words are read from each game's own catalog: every short entry
(an animal, a colour, a species, an action's name, a field's label…) whose French
differs. Complete games of each game are replayed; at several moments of each, the
tablet's page and every seat's page are rendered in French through the real app,
and every OLED screen of the game is drawn in French while the words it draws are
recorded. Player names are left aside.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion import games
from companion.board import screens
from companion.drawing import canvas
from tests.support.dashboard import Table

ROOT = Path(__file__).resolve().parents[2]
GAMES = {
    "auction_full_game": 4,
    "dice_full_game": 4,
    "pocket_win_ten_turns": 4,
    "galerapagos_full_game": 4,
}
NAMES = re.compile(r"\b(Ann|Bob|Cleo|Cid|Cy|Dan|Dee|Eve|Ana|Ben)\b")


def english_words(game: str) -> set[str]:
    """Short entries of ``game``'s catalog whose French differs, not French words themselves."""
    pkg = games.package(game)
    po = Path(pkg.folder) / "locale" / "fr" / "LC_MESSAGES" / f"{game}.po"
    with po.open("rb") as handle:
        catalog = read_po(handle)
    french = set()
    words = set()
    for msg in catalog:
        if not msg.id or not isinstance(msg.id, str) or not msg.string:
            continue
        french.update(w.lower() for w in re.findall(r"[A-Za-zÀ-ÿ]+", str(msg.string)))
        if "{" in msg.id or len(msg.id.split()) > 2 or not re.fullmatch(r"[A-Za-z][A-Za-z ]+", msg.id):
            continue
        if msg.id.lower() != str(msg.string).lower():
            words.add(msg.id.lower())
    return {w for w in words if not all(part in french for part in w.split())}


def english_in(text: str, words: set[str]) -> list[str]:
    text = NAMES.sub(" ", text)
    return sorted(w for w in words if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text, re.IGNORECASE))


def page_text(markup: str) -> str:
    markup = re.sub(r"<(script|style)\b.*?</\1>", " ", markup, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", markup))


def script(name: str) -> list[dict]:
    lines = (ROOT / "tests" / "scenarios" / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def moments(actions: list[dict], count: int) -> list[int]:
    return sorted({max(1, len(actions) * k // count) for k in range(1, count + 1)} | {0})


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_page_of_the_game_in_french_has_no_english_game_word(table: Table, name: str) -> None:
    header, *actions = script(name)
    words = english_words(header["game"])
    assert words, "the catalog lists no game word"
    gid = table.new_game(header["game"], header["players"], header.get("options", {}))
    client = table.client()
    client.set_cookie("lang", "fr")
    found: dict[str, list[str]] = {}
    done = 0
    for upto in moments(actions, GAMES[name]):
        for action in actions[done:upto]:
            assert table.act(gid, action).status_code == 200
        done = upto
        for path in [f"/g/{gid}/table"] + [f"/g/{gid}/seat/{p}" for p in header["players"]]:
            r = client.get(path, headers=table.auth())
            assert r.status_code == 200, (path, r.status_code)
            hits = english_in(page_text(r.get_data(as_text=True)), words)
            if hits:
                found[f"{path} after {upto} actions"] = hits
    assert found == {}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_oled_screen_of_the_game_in_french_has_no_english_game_word(name: str, monkeypatch) -> None:
    from companion.engine.audit import replay

    header, *_ = script(name)
    lines = (ROOT / "tests" / "scenarios" / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
    pkg, state0, walk = replay(lines)
    words = english_words(header["game"])
    drawn: list[str] = []
    real = canvas.Canvas.text

    def record(self, x, y, text, *args, **kwargs):
        drawn.append(str(text))
        return real(self, x, y, text, *args, **kwargs)

    monkeypatch.setattr(canvas.Canvas, "text", record)
    states = [state0] + [line.after for line in walk if line.error is None]
    found = {}
    for i, state in enumerate(states[:: max(1, len(states) // 12)]):
        public = pkg.rules.public_state(state)
        ctx = screens.context_for(pkg.rules, state, lang="fr", status=pkg.prompt(state, "fr"))
        for screen in ("prompt", *pkg.cycle):
            drawn.clear()
            if screen != "qr":
                screens.render(screen, public, ctx)
            hits = english_in(" ".join(drawn), words)
            if hits:
                found[f"{screen} at state {i}"] = hits
    assert found == {}
