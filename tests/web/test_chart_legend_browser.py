"""The charts' legends in Debian's Chromium on a 390 px phone: no key's text runs over the next one.

On the French results screen (and the league's page of a game) « Places sur le radeau » ran over
« Survivants », and Pocket's loss line over the next key: pygal lays three keys a row whatever their
length. The courses are the packages' own, from complete scenario games; the SVGs the dashboard's.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion import games
from companion.engine import charts
from companion.engine import course as shape
from companion.table import course
from companion.table.journal import Journal
from companion.table.session import Session
from tests.table.history_games import lines

pytestmark = pytest.mark.browser


def _svgs(tmp_path: Path, name: str, lang: str) -> list[str]:
    head, actions = lines(name)
    with Journal(tmp_path / f"{name}.db") as journal:
        session = Session.new(journal, head["game"], head["players"], head.get("options") or {})
        for action in actions:
            session.act(action)
        drawn = shape.complete(course.of_session(session, lang), lang)
    assert games.package(head["game"])
    return [charts.svg(drawn, ch, ident=f"c{i}") for i, ch in enumerate(drawn["charts"])]


def test_no_legend_key_runs_over_the_next(browser, tmp_path: Path) -> None:  # noqa: ANN001 - the fixture
    svgs = _svgs(tmp_path, "galerapagos_full_game", "fr") + _svgs(tmp_path, "pocket_complete_loss_collapse", "fr") \
        + _svgs(tmp_path, "pocket_complete_loss_collapse", "en")
    page = browser.new_page(viewport={"width": 390, "height": 800})
    page.set_content("<!doctype html><body style='margin:0;font-family:system-ui,sans-serif'>"
                     + "".join(f"<div style='width:358px'>{s}</div>" for s in svgs) + "</body>")
    overlaps = page.evaluate("""() => [...document.querySelectorAll('svg')].flatMap((svg, n) => {
        const keys = [...svg.querySelectorAll('.legends .legend text, .legends text')]
            .map(t => ({text: t.textContent, box: t.getBoundingClientRect()}));
        const out = [];
        for (const a of keys) for (const b of keys) {
            if (a === b) continue;
            const x = Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left);
            const y = Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top);
            if (x > 1 && y > 1) out.push(`chart ${n}: ${a.text} / ${b.text}`);
        }
        return out;
    })""")
    page.close()
    assert overlaps == []
