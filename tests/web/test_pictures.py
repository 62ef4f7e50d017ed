"""The game pictures: figures that never overlap, the pieces' own colours and shapes, initials that
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

from companion.engine import texts
from companion.games.auction import GAME as AUCTION
from companion.games.dice import GAME as DICE
from tests.support.dashboard import Table
from web import pictures

RECT = re.compile(r'<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"[^>]*class="chip-box"')
CHIP = re.compile(r'<g class="piece (token|figure)" data-key="([^"]*)" data-pos="(\d+)"[^>]*>(.*?)</g>', re.S)


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


def html_text(markup: str) -> str:
    import html

    return html.unescape(markup)


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


# -- 2. the pieces' colours, shapes and initials ---------------------------------------------------------
def hue(colour: str) -> tuple[float, float, float]:
    """(hue in degrees, saturation, value) of ``#rrggbb``."""
    import colorsys

    r, g, b = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    h, s, v = colorsys.rgb_to_hsv(r, g, b)
    return h * 360, s, v


def test_the_animals_wear_the_rulebooks_colours_each_with_its_own_shape_and_whole_name(table: Table) -> None:  # noqa: F811
    """"13 blue (sea lions), 12 yellow (iguanas), 11 green (tortoises), 10 red (blue-footed boobies), 9 pink
    (penguins), 8 brown (crabs)"; in grey or for a colour-blind eye the shape and the name still tell them."""
    pal = AUCTION.palette()
    families = {"sea_lion": (195, 240), "iguana": (38, 60), "tortoise": (95, 150), "booby": (-10, 10),
                "penguin": (320, 350), "crab": (20, 40)}
    for animal, (lo, hi) in families.items():
        h, s, v = hue(pal["fill"][animal])
        h = h - 360 if h > 180 and lo < 0 else h
        assert lo <= h <= hi, (animal, h)
        if animal == "crab":
            assert v < 0.65  # brown: a dark orange
        if animal == "penguin":
            assert s < 0.5 and v > 0.8  # pink: a pale red
    assert len(set(pal["shape"].values())) == 6 and set(pal["shape"].values()) <= set(pictures.SHAPES)
    html = render(table.app, AUCTION, "picture", auction((0, 0, 0)))
    tokens = [c for c in chips(wide(html)) if c["kind"] == "token"]
    assert {c["key"]: c["text"] for c in tokens} == {"sea_lion": "sea lion", "iguana": "iguana", "tortoise": "tortoise",
                                                     "booby": "booby", "penguin": "penguin", "crab": "crab"}
    for animal in families:  # each chip in its animal's colour, with its shape drawn in the ink
        body = next(b for k, key, _, b in CHIP.findall(wide(html)) if key == animal)
        assert f'fill="{pal["fill"][animal]}"' in body and f'fill="{pal["ink"][animal]}"' in body
    french = render(table.app, AUCTION, "picture", auction((0, 0, 0)), "fr")
    assert ">otarie</text>" in french and "otarie sur la case 0" in french


def test_pawns_initials_never_collide() -> None:
    assert pictures.initials(["Ann", "Alex", "Bob"]) == {"Ann": "An", "Alex": "Al", "Bob": "B"}
    assert pictures.initials(["Jo", "Joe", "Cy"]) == {"Jo": "Jo", "Joe": "Joe", "Cy": "C"}
    assert pictures.initials(["ann", "Anna"]) == {"ann": "ann", "Anna": "A2"}  # « ann » is all of the other's prefix
    three = pictures.initials(["Alexa", "Alexi", "Ann Lee", "Ann Low"])
    assert len(set(three.values())) == 4 and all(len(v) <= 3 for v in three.values())
    assert three["Ann Lee"] == "AL" and three["Ann Low"] == "A4"


def dice_setup(names: tuple[str, ...], pawns: tuple[int, ...], island: tuple[int, ...]) -> Any:
    """Pawns on ``pawns`` (several may share a field) and turtles on ``island``, ready to plan."""
    rules = DICE.rules
    s = rules.setup(list(names), {"layout_seed": 3})
    free = sorted(set(s.table.island.colour) - set(island))
    for name, field in zip(names, free, strict=False):
        s, _ = rules.apply(s, {"type": "start", "player": name, "field": field})
    return replace(s, phase="plan", seeded=True, island=frozenset(island), bag=s.bag - frozenset(island),
                   pawns=tuple(pawns))


def test_the_dice_island_shows_initials_shapes_and_the_turtle_under_a_pawn(table: Table) -> None:  # noqa: F811
    s = dice_setup(("Ann", "Alex", "Bob"), (5, 5, 9), (5, 12))
    html = render(table.app, DICE, "picture", s)
    pawns = dict(re.findall(r'<g class="pawn" data-name="([^"]+)">.*?class="pawn-t">([^<]+)</text>', html, re.S))
    assert pawns == {"Ann": "An", "Alex": "Al", "Bob": "B"}
    spots = re.findall(r'<g class="pawn" data-name="[^"]+">\s*<circle cx="([\d.-]+)" cy="([\d.-]+)" r="([\d.]+)"', html)
    (x1, y1, r1), (x2, y2, r2) = [tuple(map(float, p)) for p in spots[:2]]  # Ann and Alex share field 5
    assert ((x1 - x2) ** 2 + (y1 - y2) ** 2) ** 0.5 >= r1 + r2
    colour = s.table.turtles[5]
    assert f"Under the pawns of Ann, Alex: turtle 5 ({colour})" in html
    assert 'class="under"' in html and html.count('class="under"') == 1  # turtle 12 lies under nobody
    french = render(table.app, DICE, "picture", s, "fr")
    assert re.search(r"Sous les pions d(e |')Ann, Alex : tortue 5", html_text(french))


def test_a_black_turtle_on_a_black_field_is_outlined_to_show(table: Table) -> None:  # noqa: F811
    """The turtle's halo stands out from any field by 3:1 at least (WCAG's contrast for shapes)."""
    pal = DICE.palette()
    s = dice_setup(("Ann", "Bob"), (2, 3), ())
    black_field = next(n for n, c in s.table.island.colour.items() if c == "black")
    black_turtle = next(n for n, c in s.table.turtles.items() if c == "black")
    s = replace(s, table=replace(s.table, turtles={**s.table.turtles, black_field: "black", black_turtle:
                                                  s.table.turtles[black_field]}), island=frozenset({black_field}))
    html = render(table.app, DICE, "picture", s)
    cell = html.split(f'data-field="{black_field}"', 1)[1].split('<g class="hex', 1)[0]
    assert 'data-turtle="black"' in cell
    halo = re.search(r'stroke="(#[0-9a-f]+)" stroke-width="[\d.]+" class="halo"', cell).group(1)
    assert pictures.contrast(halo, pal["fill"]["black"]) >= 3
    shells = {c: pictures.glyph(pal["shape"][c], 0, 0, 3, pal["ink"][c]) for c in pal["fill"]}
    assert len(set(pal["shape"].values())) == 6 and len(set(map(str, shells.values()))) == 6


# -- 3. tapping a picture: data-pick only where the move is legal now ----------------------------------------
PICK = re.compile(r'data-pick="([^"]+)" data-value="([^"]+)"')


def offered(pkg: Any, state: Any, seat: str | None) -> list[dict[str, Any]]:
    """The forms a page shows ``seat`` (None: the tablet, every seat without a phone)."""
    from companion.engine import moves

    return moves.visible(moves.for_seat(pkg.moves(state, "en"), seat))


def picks_of(html: str) -> list[tuple[str, Any]]:
    import html as h

    return [(f, json.loads(h.unescape(v))) for f, v in PICK.findall(html)]


def test_a_start_field_is_tappable_only_where_the_pawn_may_start(table: Table) -> None:  # noqa: F811
    """"Each player then draws a turtle from the bag and places his/her pawn on that island tile": a field
    whose turtle lies on the island or another player drew is no pick."""
    rules = DICE.rules
    s = rules.setup(["Ann", "Bob"], {"layout_seed": 3})
    s, _ = rules.apply(s, {"type": "start", "player": "Bob", "field": 7})
    ann = offered(DICE, s, "Ann")
    legal = {c["value"] for c in ann[0]["fields"][0]["choices"] if not c.get("disabled")}
    html = render(table.app, DICE, "picture", s, me="Ann", forms=ann)
    got = picks_of(html)
    assert {f for f, _ in got} == {"field"} and {v for _, v in got} == legal
    assert 7 not in legal and len(legal) == 35
    assert 'data-field="7"' in html and 'data-field="7" data-pick' not in html
    assert 'role="group"' in html and 'tabindex="0" role="button"' in html
    assert not picks_of(render(table.app, DICE, "picture", s, me="Ann", forms=[]))  # nothing offered, no pick


def test_a_walk_is_tapped_at_its_end_and_only_legal_walks_are_offered(table: Table) -> None:  # noqa: F811
    s = dice_setup(("Ann", "Bob"), (5, 9), (12, 20, 30))
    rules = DICE.rules
    for name, dice in (("Ann", ["red", "blue", "green"]), ("Bob", [])):
        s, _ = rules.apply(s, {"type": "done", "player": name, "dice": dice})
    mover = rules.public_state(s)["mover"]
    forms = offered(DICE, s, mover)
    walks = [c["value"] for c in forms[0]["fields"][0]["choices"]]
    html = render(table.app, DICE, "picture", s, me=mover, forms=forms)
    got = picks_of(html)
    assert got and all(f == "path" and v in walks for f, v in got)
    ends = {w[-1] if w else rules.public_state(s)["players"][0]["field"] for w in walks}
    assert {v[-1] if v else None for _, v in got} - {None} <= ends
    for _, v in got:  # the walk offered on a field is the first (best) one the form lists ending there
        if v:
            assert v == next(w for w in walks if w and w[-1] == v[-1])


def test_the_auction_picture_offers_squares_animals_and_affordable_education_steps(table: Table) -> None:  # noqa: F811
    rules = AUCTION.rules
    s = auction((0, 0, 0))
    bidding = render(table.app, AUCTION, "picture", s, me="Cleo", forms=offered(AUCTION, s, "Cleo"))
    assert sorted(v for f, v in picks_of(bidding) if f == "direction") == ["E", "N", "S", "W"]
    north = re.search(r'data-pick="direction" data-value="&#34;N&#34;"[^>]*aria-label="([^"]+)"', bidding).group(1)
    assert north.startswith("North — ") and "sea lion" in north  # what a screen reader hears: the square and its tile
    for name in ("Cleo", "Ann", "Bob"):
        s, _ = rules.apply(s, {"type": "pass", "player": name})
    s, _ = rules.apply(s, {"type": "direction", "player": "Cleo", "direction": "S"})
    s = replace(s, players=(replace(s.players[0], money=350, education=4), *s.players[1:]))
    html = render(table.app, AUCTION, "picture", s, me="Cleo", forms=offered(AUCTION, s, "Cleo"))
    got = picks_of(html)
    steps = sorted({v for f, v in got if f == "steps"})
    assert steps == [1, 2]  # £100 and £300 are in hand, £600 is not
    cells = re.findall(r'<g class="cell-g pickable" data-pick="steps" data-value="(\d+)"', wide(html))
    assert cells == ["1", "2"]  # on fields 5 and 6, in front of Cleo's figure on 4
    assert 'data-pick="steps" data-value="1"' in wide(html).split('class="cell-n">5<')[0].rsplit("<g", 1)[1]
    assert {v for f, v in got if f == "animal"} <= {"penguin", "crab"}  # only the South tile's animals
    assert not [v for f, v in picks_of(render(table.app, AUCTION, "picture", s, me="Ann",
                                               forms=offered(AUCTION, s, "Ann"))) if f in ("steps", "direction")]


# -- 4. accessibility: names for the pictures, and text on coloured chips at 4.5:1 ----------------------------
def test_contrast_is_computed_the_wcag_way() -> None:
    assert round(pictures.contrast("#000", "#fff"), 1) == 21.0 and pictures.contrast("#777", "#777") == 1
    assert round(pictures.contrast("#767676", "#fff"), 2) == 4.54  # the classic « lightest grey on white »
    assert pictures.ink_for("#ffc914") == "#111" and pictures.ink_for("#3b1f2b") == "#fff"


def test_every_text_on_a_coloured_chip_reads_at_4_5_to_1(table: Table) -> None:  # noqa: F811
    """Read back from what is drawn: each chip's, field's and pawn's text colour against its own fill."""
    from pathlib import Path

    pairs: list[tuple[str, str, str]] = []
    track = wide(render(table.app, AUCTION, "picture", auction((3, 4, 5), ("Cleo", "Ann", "Bob"))))
    for _, key, _, body in CHIP.findall(track):
        fill = re.search(r'fill="(#[0-9a-f]+)" class="chip-box"', body).group(1)
        ink = re.search(r'<text[^>]*fill="(#[0-9a-f]+)"', body).group(1)
        pairs.append((key, fill, ink))
    for i, colour in enumerate(pictures.SEAT_COLOURS):  # any seat, even the twelfth
        pairs.append((f"seat {i}", colour, pictures.ink_for(colour)))
    s = dice_setup(("Ann", "Alex", "Bob", "Cy"), (5, 5, 9, 12), (5, 12))
    island = render(table.app, DICE, "picture", s)
    for number, fill, ink in re.findall(r'data-field="(\d+)"[^>]*>\s*<polygon points="[^"]+" fill="(#[0-9a-f]+)".*?'
                                        r'<text[^>]*fill="(#[0-9a-f]+)" class="hex-n"', island, re.S):
        pairs.append((f"field {number}", fill, ink))
    for name, fill, ink in re.findall(r'<g class="pawn" data-name="([^"]+)">\s*<circle[^>]*fill="(#[0-9a-f]+)".*?'
                                      r'<text[^>]*fill="(#[0-9a-f]+)"', island, re.S):
        pairs.append((f"pawn {name}", fill, ink))
    for pkg in (AUCTION, DICE):
        pal = pkg.palette()
        pairs += [(f"{pkg.id} {piece}", pal["fill"][piece], pal["ink"][piece]) for piece in pal["fill"]]
    css = (Path(__file__).parents[2] / "web" / "static" / "pictures.css").read_text()
    cell = re.search(r"\.track \.cell \{ fill: (#[0-9a-f]+)", css).group(1)
    five = re.search(r"\.track \.cell\.five \{ fill: (#[0-9a-f]+)", css).group(1)
    number = re.search(r"\.track \.cell-n \{[^}]*fill: (#[0-9a-f]+)", css).group(1)
    pairs += [("track cell", cell, number), ("track fifth cell", five, number)]
    assert len([p for p in pairs if p[0].startswith("field ")]) == 36 and len([p for p in pairs if p[0].startswith("pawn")]) == 4
    low = [(what, fill, ink, round(pictures.contrast(fill, ink), 2)) for what, fill, ink in pairs
           if pictures.contrast(fill, ink) < 4.5]
    assert low == []


def test_the_pictures_are_named_for_screen_readers_and_picks_are_buttons(table: Table) -> None:  # noqa: F811
    track = render(table.app, AUCTION, "picture", auction((3, 4, 5)))
    assert 'role="img" aria-label="Education track: Cleo on field 3, Ann on field 4, Bob on field 5"' in track
    s = dice_setup(("Ann", "Bob"), (5, 9), (12,))
    island = render(table.app, DICE, "picture", s, forms=[])
    assert 'role="img" aria-label="The island: Ann on field 5, Bob on field 9"' in island
    assert "<title>Field 5 (" in island and "<title>Turtle 12 (" in island
    rules = DICE.rules
    fresh = rules.setup(["Ann", "Bob"], {"layout_seed": 3})
    tappable = render(table.app, DICE, "picture", fresh, me="Ann", forms=offered(DICE, fresh, "Ann"))
    assert 'role="group"' in tappable  # an image with buttons inside is a group
    buttons = re.findall(r'data-pick="field"[^>]*tabindex="0" role="button" aria-label="([^"]+)"', tappable)
    assert len(buttons) == 36 and all(b.startswith("Field ") for b in buttons)


def test_the_turtle_taken_from_under_bobs_pawn_is_marked_after_the_move(table: Table) -> None:  # noqa: F811
    """« Ann takes turtle n from under Bob's pawn »: the tablet's island rings the empty field under Bob's pawn
    and says so, until the next action."""
    gid = table.new_game("galapagos-dice", ["Ann", "Bob"], {"layout_seed": 3})
    island = DICE.rules.setup(["Ann", "Bob"], {"layout_seed": 3}).table.island
    ann_at = 1
    bob_at = island.neighbours[ann_at][0]
    colour = island.colour[bob_at]
    bag = [n for n in island.numbers if n not in (ann_at, bob_at)]
    for action in ({"type": "start", "player": "Ann", "field": ann_at}, {"type": "start", "player": "Bob", "field": bob_at},
                   {"type": "place_turtles", "numbers": [bob_at, *bag[:4]]},
                   {"type": "done", "player": "Ann", "dice": [colour]}, {"type": "done", "player": "Bob", "dice": []},
                   {"type": "move", "player": "Ann", "path": [bob_at]}):
        assert table.act(gid, action).status_code == 200, action
    c = table.client()
    page = html_text(c.get(f"/g/{gid}/table", headers=table.auth()).data.decode())
    turtle = DICE.rules.setup(["Ann", "Bob"], {"layout_seed": 3}).table.turtles[bob_at]
    assert f"Ann takes turtle {bob_at} ({turtle}) from under Bob's pawn." in page
    assert f'data-taken="{bob_at}"' in page and page.count("data-taken=") == 1
    c.set_cookie("lang", "fr")
    french = html_text(c.get(f"/g/{gid}/table", headers=table.auth()).data.decode())
    assert f"Ann prend la tortue {bob_at} (" in french and "sous le pion de Bob" in french
    assert table.act(gid, {"type": "move", "player": "Bob", "path": []}).status_code == 200
    assert "data-taken=" not in c.get(f"/g/{gid}/table", headers=table.auth()).data.decode()  # the next action


def test_a_galerapagos_vote_can_be_tapped_on_the_players_row(table: Table) -> None:  # noqa: F811
    """The castaways a vote may name carry a « target » pick on their row; a phone sees only its own vote's."""
    from companion import games
    from companion.engine import moves as mv
    from tests.support.dashboard import TO_THE_VOTE

    gid = table.new_game("galerapagos", ["Ann", "Bob", "Cleo"])
    for action in TO_THE_VOTE:
        assert table.act(gid, action).status_code == 200
    phone = table.client()
    table.join(phone, gid, "Ann")
    page = phone.get(f"/g/{gid}/seat/Ann").data.decode()
    state = table.dashboard.hub.session(gid).state
    ann = mv.visible(mv.for_seat(games.package("galerapagos").moves(state, "en"), "Ann"))
    legal = {c["value"] for f in ann for fld in f["fields"] if fld["name"] == "target" for c in fld["choices"]
             if not c.get("disabled")}
    got = {v for f, v in picks_of(page) if f == "target"}
    assert legal and got == legal
    assert 'class="pill pick-target"' in page
