"""The game pictures (issue 16): figures that never overlap, the pieces' own colours and shapes, initials that
never collide, taps that fill a move (only where the move is legal now), contrast of text on chips.

The fragments are rendered through the dashboard's own Jinja environment with the context a page gives
them (``web.views.context`` for whole pages), and read back as SVG/HTML: a box is the chip's ``rect``.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from typing import Any

from companion import texts
from companion.games.auction import GAME as AUCTION
from companion.games.dice import GAME as DICE
from tests.web.conftest import Table, table  # noqa: F401 - the dashboard fixture
from web import pictures

RECT = re.compile(r'<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"[^>]*class="chip-box"')
CHIP = re.compile(r'<g class="chip (token|figure)" data-key="([^"]*)" data-pos="(\d+)"[^>]*>(.*?)</g>', re.S)


# -- rendering a fragment -------------------------------------------------------------------------
def render(app: Any, pkg: Any, name: str, state: Any, lang: str = "en", me: str | None = None,
           forms: list[dict[str, Any]] | None = None) -> str:
    pub = pkg.rules.public_state(state)
    names = [p["name"] for p in pub["players"]]
    ctx: dict[str, Any] = {
        "pub": pub, "players": names, "me": me, "my": next((p for p in pub["players"] if p["name"] == me), None),
        "p": pub["players"][0], "t": texts.translator(lang), "gt": lambda msgid, **kw: pkg.t(msgid, lang, **kw),
        "pictures": pictures, "seat_colour": {n: pictures.SEAT_COLOURS[i] for i, n in enumerate(names)},
        "game_tpl": pkg.id, "lang": lang, "palette": pkg.palette(), "forms_now": forms or [],
    }
    ctx.update(pkg.page(state, pub, me, lang) or {})
    with app.test_request_context():
        return app.jinja_env.get_template(f"{pkg.id}/{name}.html").render(**ctx)


def auction(educations: tuple[int, ...], names: tuple[str, ...] = ("Cleo", "Ann", "Bob"),
            track: tuple[int, ...] | None = None) -> Any:
    """A game whose tiles are laid, the figures at ``educations`` (and the tokens at ``track``)."""
    rules = AUCTION.rules
    s = rules.setup(list(names), {})
    for square, pair in zip("NESW", (["sea_lion", "iguana"], ["tortoise", "booby"], ["penguin", "crab"],
                                     ["sea_lion", "crab"]), strict=True):
        s, _ = rules.apply(s, {"type": "tile", "direction": square, "animals": pair})
    players = tuple(replace(p, education=e) for p, e in zip(s.players, educations, strict=True))
    s = replace(s, players=players)
    return replace(s, track=tuple(track)) if track is not None else s


def wide(html: str) -> str:
    """The tablet's track (one row); a phone's two halves follow in ``.narrow``."""
    return html.split('<div class="wide">', 1)[1].split('<div class="narrow">', 1)[0]


def chips(svg: str) -> list[dict[str, Any]]:
    out = []
    for kind, key, pos, body in CHIP.findall(svg):
        x, y, w, h = map(float, RECT.search(body).groups())
        text = re.search(r'<text[^>]*class="chip-t">([^<]*)</text>', body).group(1)
        out.append({"kind": kind, "key": key, "pos": int(pos), "box": (x, y, x + w, y + h), "text": text})
    return out


def intersect(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


# -- 1. the education track ----------------------------------------------------------------------------
def test_three_figures_on_neighbouring_fields_stay_apart_and_keep_their_names(table: Table) -> None:  # noqa: F811
    """« CleoAnnBob » no more: each figure is its own chip with its whole name, and no two boxes touch."""
    svg = wide(render(table.app, AUCTION, "picture", auction((3, 4, 5))))
    figures = [c for c in chips(svg) if c["kind"] == "figure"]
    assert [(c["text"], c["pos"]) for c in figures] == [("Cleo", 3), ("Ann", 4), ("Bob", 5)]
    every = chips(svg)
    for i, a in enumerate(every):
        for b in every[i + 1:]:
            assert not intersect(a["box"], b["box"]), (a, b)
    for c in figures:  # the estimated width of the name fits inside its chip, beside its glyph
        assert pictures.text_width(c["text"], 10) + 11 < c["box"][2] - c["box"][0]
    assert "CleoAnnBob" not in re.sub(r"<[^>]+>|\s", "", svg)


def test_no_positions_make_chips_overlap_or_leave_the_picture(table: Table) -> None:  # noqa: F811
    """Stacks on one field, neighbours, both ends of the track, five players: never two boxes on each other."""
    rng = random.Random(16)
    names = ("Alexandra", "Ann", "Bob", "Cleo", "Maximilian")
    for _ in range(25):
        eds = tuple(rng.choice([0, 1, 2, 12, 13, 24, 25]) for _ in names)
        track = tuple(rng.choice([0, 1, 2, 3, 24, 25]) for _ in range(6))
        html = render(table.app, AUCTION, "picture", auction(eds, names, track))
        width = float(re.search(r'viewBox="0 0 ([\d.]+) ', wide(html)).group(1))
        narrow = html.split('<div class="narrow">', 1)[1]
        for svg in (wide(html), *narrow.split("</svg>")[:2]):
            every = chips(svg)
            for i, a in enumerate(every):
                assert 0 <= a["box"][0] and a["box"][2] <= width + 0.01 and a["box"][1] >= 0
                for b in every[i + 1:]:
                    assert not intersect(a["box"], b["box"]), (eds, track, a, b)
        assert len([c for c in chips(wide(html)) if c["kind"] == "figure"]) == len(names)
        assert sorted(c["text"] for c in chips(narrow) if c["kind"] == "figure") == sorted(names)  # both halves
