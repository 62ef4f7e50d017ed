"""How the dashboard writes things out, the same on every page and export: dates, a spreadsheet's
cells, a game's name in exports and its BG Stats link."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from companion import games
from companion.engine.rules import RuleError
from companion.table import bgstats
from companion.table.rows import GameRecord
from web.i18n import translator

#: the months as message ids: a date on Home reads « 1 December 2026, 20:15 », « 1 décembre 2026, 20:15 »
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")


def when(ts: float | None) -> str:
    """A date and time as the exports and Home's short lists write it (``2026-12-01 20:15``)."""
    return datetime.fromtimestamp(ts).strftime("%Y-%m-%d %H:%M") if ts else ""


def when_in(ts: float | None, language: str) -> str:
    """A date and time as the reader says it (day, month's name, year, 24-hour time)."""
    if not ts:
        return ""
    at = datetime.fromtimestamp(ts)
    month = translator(language)(MONTHS[at.month - 1])
    if language == "fr":
        month = month.lower()
    return f"{at.day} {month} {at.year}, {at:%H:%M}"


def csv_cell(value: Any) -> Any:
    """A text cell a spreadsheet cannot take for a formula: wherever a ``= + - @`` (or tab, CR) starts
    the cell or follows a separator (``,``, ``;``, tab: a French spreadsheet splits on ``;``), a ``'``
    is put before it. Every cell is quoted as well (the writer's ``QUOTE_ALL``)."""
    if isinstance(value, str):
        return _FORMULA.sub(lambda m: f"{m.group(1)}{m.group(2)}'{m.group(3)}", value)
    return value


#: a cell, or a part of it after a separator a spreadsheet may split on, that starts a formula
_FORMULA = re.compile(r"(^|[,;\t\r\n])(\s*)([=+\-@\t\r])")


def export_title(game: str) -> str:
    """A game's name for exports (the id itself when the game is no longer installed)."""
    try:
        return games.package(game).title("en")
    except RuleError:
        return game


def bgstats_link(rec: GameRecord) -> str:
    """A BG Stats "createPlay" link for a finished game (:mod:`companion.table.bgstats`)."""
    return bgstats.link(rec, export_title(rec.game))
