"""The story of every scenario reads like a game log, not like the API, in English and French.

Board Game Arena's log says « Ann bids £300 on North », never ``sea_lion``, ``{"type": ...}``,
``None`` or ``[]``. Every scenario of ``tests/scenarios`` is told by ``companion script FILE
--narrate`` (``companion.engine.audit.narrate``) in both languages; no line carries a field name, a raw
id, JSON or a Python value, and a refused line is its one sentence, not the state (a refusal may
quote the field a script got wrong: that is the API it was written in).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.engine import audit

SCENARIOS = sorted(Path("tests/scenarios").glob("*.jsonl"))
#: what the API says and a player never reads
API = re.compile(r"\b[a-z]+_[a-z_]+\b|[{}\[\]\"]|\b(None|True|False|null|true|false)\b|\(s\)|\w→[A-Z]")


def story(path: Path, lang: str) -> tuple[list[str], dict | None]:
    try:
        return audit.narrate(path.read_text(encoding="utf-8").splitlines(), lang)
    except audit.ScriptError:  # a scenario whose header is refused on purpose tells nothing
        return [], None


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_no_story_line_reads_like_the_api(lang: str) -> None:
    found: dict[str, str] = {}
    told = 0
    for path in SCENARIOS:
        lines, error = story(path, lang)
        told += len(lines)
        for line in lines:
            hit = API.search(line)
            if hit:
                found.setdefault(hit.group(0), f"{path.name}: {line}")
        if error:  # a refusal may quote the field the script got wrong (« "bonus": 3 »), never a blank
            assert set(error) == {"error"} and not re.search(r"\{\w+\}", error["error"]["message"]), error
    assert told > 2000
    assert not found, found


def test_a_refused_line_is_told_in_one_sentence_without_the_state() -> None:
    lines, error = story(Path("tests/scenarios/auction_refused_overbid.jsonl"), "en")
    assert lines and error == {"error": {"line": 13, "message": "Ann has £1200 and cannot bid £1300."}}
    _, error = story(Path("tests/scenarios/auction_refused_overbid.jsonl"), "fr")
    assert error == {"error": {"line": 13, "message": "Ann a 1200 £ et ne peut pas miser 1300 £."}}


def test_the_votes_are_revealed_in_words() -> None:
    lines, _ = story(Path("tests/scenarios/galerapagos_full_game.jsonl"), "en")
    assert "The votes are revealed: Ann for Dan, Bob for Ann, Cid for Dan, Dan for Ann." in lines
    fr, _ = story(Path("tests/scenarios/galerapagos_full_game.jsonl"), "fr")
    assert "Les votes sont révélés : Ann pour Dan, Bob pour Ann, Cid pour Dan, Dan pour Ann." in fr


def test_the_check_sees_api_words() -> None:
    for line in ("Ann takes a sea_lion.", 'Ann plays {"type": "bid"}.', "Bob has None.", "Ann gives 2 card(s).",
                 "The votes are revealed: Ann→Dan."):
        assert API.search(line), line
    assert not API.search("Round 2: the weather card shows 1 drop of water; water 2→3.")
