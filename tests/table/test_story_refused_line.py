"""The story goes on past a journal line the rules no longer take, and follows an edit of an earlier line."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.table import story
from companion.table.rows import JournalEntry


@dataclass
class Journaled:
    """What the story reads of a session: its id, game, players, options and the lines in play."""

    id: str
    entries: list[JournalEntry]
    game: str = "pocket-galapagos"
    players: list[str] = field(default_factory=lambda: ["Ann"])
    options: dict[str, Any] = field(default_factory=dict)

    def history(self) -> list[JournalEntry]:
        return list(self.entries)


def test_a_line_the_rules_refuse_is_told_as_not_played_and_the_next_lines_still_told() -> None:
    lines = [JournalEntry(1, {"type": "end_turn"}, "web:table", 1.0),
             JournalEntry(2, {"type": "fly"}, "web:table", 2.0),
             JournalEntry(3, {"type": "end_turn"}, "web:table", 3.0)]
    told = story.told(Journaled("s-refused", lines))
    assert [e["seq"] for e in told] == [1, 2, 3]
    assert told[1]["sentences"][0].startswith("Not played: ")
    assert told[2]["sentences"] and not told[2]["sentences"][0].startswith("Not played")
    fr = story.told(Journaled("s-refused", lines), "fr")
    assert fr[1]["sentences"][0].startswith("Non joué : ")


def test_an_edited_earlier_line_is_told_anew() -> None:
    first = [JournalEntry(1, {"type": "end_turn"}, "web:table", 1.0), JournalEntry(2, {"type": "end_turn"}, "web:table", 2.0),
             JournalEntry(3, {"type": "end_turn"}, "web:table", 3.0), JournalEntry(4, {"type": "end_turn"}, "web:table", 4.0)]
    before = story.told(Journaled("s-edit", first))
    # the first line replaced: the newest lines and the count are the same as before
    edited = [JournalEntry(5, {"type": "fly"}, "web:table", 1.0), *first[1:]]
    after = story.told(Journaled("s-edit", edited))
    assert not before[0]["sentences"][0].startswith("Not played")
    assert after[0]["seq"] == 5 and after[0]["sentences"][0].startswith("Not played: ")
