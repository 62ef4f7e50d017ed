"""The phone's « your move » as rendered HTML, without a browser.

What a phone shows is decided on the server: the one sentence addressed to the player, the moves of
this seat only, a dead castaway's page without the odds meant for the living, buttons that name what
they do (an icon alone carries an aria-label), and the colours a chip wears readable (the ink against
its background at least 4.5:1, WCAG AA, computed from web/static/phone.css).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from companion import games
from tests.support.dashboard import TO_THE_VOTE, Table
from web import seat_view, views
from web.forms import CHIP_COLOURS
from web.pictures import contrast
from web.security import Principal

CSS = Path(__file__).resolve().parents[2] / "web" / "static" / "phone.css"
#: the page's grey for secondary text (web/static/app.css, --muted)
MUTED = re.search(r"--muted:\s*(#[0-9a-fA-F]{6})", (CSS.parent / "app.css").read_text(encoding="utf-8")).group(1)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def seat_html(table: Table, gid: str, seat: str, token: str, lang: str = "en") -> str:
    session = table.dashboard.hub.session(gid)
    with table.app.test_request_context():
        parts = views.fragments(session, Principal("seat", "cookie", token, gid, seat), "seat", lang)
    return parts["actions"] + parts["state"]


# -- the sentence ------------------------------------------------------------------------------
@pytest.mark.parametrize(("game", "players", "lines", "seat", "lang", "said"), [
    ("galapagos-auction", ["Ann", "Bob"], [], "Ann", "en", "Waiting for the tablet to lay a species tile"),
    ("galapagos-auction", ["Ann", "Bob"], [], "Ann", "fr", "En attente de la tablette pour poser"),
    ("galapagos-auction", ["Ann", "Bob"], "tiles", "Ann", "en", "You must bid or pass."),
    ("galapagos-auction", ["Ann", "Bob"], "tiles", "Ann", "fr", "À vous d'enchérir ou de passer."),
    ("galapagos-auction", ["Ann", "Bob"], "tiles", "Bob", "en", "Ann: bid or pass."),
    ("galerapagos", ["Ann", "Bob", "Cleo"], TO_THE_VOTE[:1], "Ann", "en",
     "You must fish, collect water or wood, or search the wreck."),
    ("galerapagos", ["Ann", "Bob", "Cleo"], TO_THE_VOTE, "Cleo", "en", "Everyone has acted: you may start the survival"),
    ("pocket-galapagos", ["Ann"], [], "Ann", "en", "Turn 1 of 10: play your cards, then end your turn."),
])
def test_the_phone_says_in_one_sentence_what_its_player_must_do(game, players, lines, seat, lang, said) -> None:
    pkg = games.package(game)
    state = pkg.rules.setup(players, {})
    if lines == "tiles":
        lines = [{"type": "tile", "direction": d, "animals": pair} for d, pair in
                 zip("NESW", (["sea_lion", "iguana"], ["tortoise", "booby"], ["penguin", "crab"], ["sea_lion", "crab"]),
                     strict=True)]
    for line in lines:
        state, _ = pkg.rules.apply(state, line)
    assert said in seat_view.sentence(pkg, pkg.rules.expected(state), seat, lang)


def test_a_prompt_naming_another_player_is_said_by_the_seats_own_move() -> None:
    """After everyone acted, only the first player is awaited (the survival step): another phone says the
    prompt as it is, never « your move: vote » before the survival step has started; once a vote is asked of
    everyone, a phone says its own move."""
    pkg = games.package("galerapagos")
    state = pkg.rules.setup(["Ann", "Bob", "Cleo"], {})
    for line in TO_THE_VOTE:
        state, _ = pkg.rules.apply(state, line)
    exp = pkg.rules.expected(state)
    first = exp.params["p"]
    assert exp.players == (first,)
    other = next(p for p in ("Ann", "Bob", "Cleo") if p != first)
    vote = [{"type": "vote", "label": pkg.t("Vote: who goes without food?", "fr"), "fields": [{}]}]
    said = seat_view.sentence(pkg, exp, other, "fr", vote)
    assert said.startswith("Tout le monde a agi") and "Vote" not in said
    named = exp.__class__(("Ann", "Bob", "Cleo"), ("vote",), exp.prompt, exp.params)
    assert seat_view.sentence(pkg, named, other, "fr", vote) == "À vous : Vote : qui sera privé de nourriture ?"


def test_only_the_moves_of_the_turn_come_first_and_an_exchange_waits_folded() -> None:
    now = [{"type": "exchange", "anytime": True, "fields": [{}]}, {"type": "done", "last": True, "fields": [],
                                                                    "ends_turn": True},
           {"type": "education", "fields": [{}], "confirm": True}]
    more = [{"type": "timer_expired", "step": "override", "ask": "End it?", "fields": []},
            {"type": "resource", "step": "also", "fields": [{}]}]
    main, later = seat_view.split(now, more)
    assert [f["type"] for f in main] == ["education", "done"]  # « Done » last, never the first button
    assert main[1]["confirm"]  # it ends the turn: the phone asks first
    assert [f["type"] for f in later] == ["exchange", "resource", "timer_expired"]  # also, then the override last


def test_the_step_decides_what_leads_not_the_type_expected() -> None:
    """A form the package calls « also » is folded even when its type is expected; « next » leads."""
    now = [{"type": "vote", "step": "also", "fields": [{}]}, {"type": "resource", "step": "next", "fields": [{}]}]
    main, later = seat_view.split(now, [])
    assert [f["type"] for f in main] == ["resource"] and [f["type"] for f in later] == ["vote"]


# -- a dead castaway ---------------------------------------------------------------------------
def test_a_dead_castaway_sees_no_odds_and_no_move_meant_for_the_living(table: Table) -> None:
    gid = table.new_game("galerapagos", ["Ann", "Bob", "Cleo"])
    tokens = {name: table.join(table.client(), gid, name) for name in ("Ann", "Bob", "Cleo")}
    for action in TO_THE_VOTE:
        who = action.get("player")
        assert table.act(gid, action, headers=bearer(tokens[who]) if who else None).status_code == 200
    alive = seat_html(table, gid, "Ann", tokens["Ann"])
    for voter, target in (("Ann", "Cleo"), ("Bob", "Cleo"), ("Cleo", "Ann")):
        r = table.act(gid, {"type": "vote", "player": voter, "target": target}, headers=bearer(tokens[voter]))
        assert r.status_code == 200, r.json
    r = table.act(gid, {"type": "no_card", "player": "Cleo"}, headers=bearer(tokens["Cleo"]))
    assert r.status_code == 200 and not next(p for p in r.json["state"]["players"] if p["name"] == "Cleo")["alive"]
    dead = seat_html(table, gid, "Cleo", tokens["Cleo"])
    assert "Snake odds" in alive  # the living castaway weighs the snake
    assert "Snake odds" not in dead and "expected fish" not in dead
    offered = set(re.findall(r'data-action="([a-z_]+)"', dead))
    assert not offered & {"fish", "water", "wood", "search", "vote", "give", "shoot", "resource", "sick"}, offered
    assert "dead" in dead


# -- accessibility -------------------------------------------------------------------------------
class Buttons(HTMLParser):
    """Every <button>: its attributes and the text inside it."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[dict[str, str | None], str]] = []
        self._open: list[tuple[dict[str, str | None], list[str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "button":
            self._open.append((dict(attrs), []))

    def handle_data(self, data: str) -> None:
        for _, text in self._open:
            text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "button" and self._open:
            attrs, text = self._open.pop()
            self.found.append((attrs, "".join(text).strip()))


def test_every_button_of_a_turn_says_what_it_does(table: Table) -> None:
    """An icon-only button (− / +, a chip that shows a number) carries an aria-label; none is unnamed."""
    gid = table.new_game("galapagos-auction", ["Ann", "Bob"])
    for d, pair in zip("NESW", (["sea_lion", "iguana"], ["tortoise", "booby"], ["penguin", "crab"],
                                ["sea_lion", "crab"]), strict=True):
        table.act(gid, {"type": "tile", "direction": d, "animals": pair})
    token = table.join(table.client(), gid, "Ann")
    parser = Buttons()
    parser.feed(seat_html(table, gid, "Ann", token))
    steppers = [a for a, _ in parser.found if "step" in (a.get("class") or "").split()]
    assert [a.get("aria-label") for a in steppers] == ["Less", "More"]
    for attrs, text in parser.found:
        name = attrs.get("aria-label") or text
        assert name and re.search(r"\w", name), attrs  # a symbol alone (« − ») is not a name


def test_the_contrast_formula_matches_wcag() -> None:
    assert round(contrast("#000000", "#ffffff"), 1) == 21.0 and contrast("#777777", "#777777") == 1.0
    assert 4.4 < contrast("#767676", "#ffffff") < 4.6  # the grey WCAG gives as the AA limit on white


def test_text_on_every_coloured_chip_is_readable() -> None:
    """Each colour a chip may wear (a die, a turtle, a field) sets its ink and background in phone.css."""
    css = CSS.read_text(encoding="utf-8")
    for colour in CHIP_COLOURS:
        rule = re.search(r'\.chip\[data-colour="' + colour + r'"\][^{]*\{([^}]*)\}', css)
        assert rule, f"no chip colour rule for {colour}"
        bg = re.search(r"background:\s*(#[0-9a-fA-F]{6})", rule.group(1)).group(1)
        ink = re.search(r"(?<!-)color:\s*(#[0-9a-fA-F]{6})", rule.group(1)).group(1)
        assert contrast(bg, ink) >= 4.5, f"{colour}: {ink} on {bg} is {contrast(bg, ink):.2f}:1"
    # a plain chip's preview and a chosen chip: the small grey text and the ink on the pale green
    assert contrast("#4d5a55", "#ffffff") >= 4.5 and contrast("#1d2a26", "#d6efe5") >= 4.5
    # the suggested plan and the other primary buttons: white on the sea green
    assert contrast("#ffffff", "#1f6f5c") >= 4.5


@pytest.mark.parametrize("game", ["galapagos-auction", "galapagos-dice"])
def test_the_pieces_colours_on_a_phone_carry_a_readable_ink(game: str) -> None:
    """A seat's animals and turtles are chips in the pieces' colours (the package's palette) with its ink."""
    palette = games.package(game).palette()
    for piece, fill in palette["fill"].items():
        ink = palette["ink"][piece]
        assert contrast(fill, ink) >= 4.5, f"{piece}: {ink} on {fill}"
    # a piece not held is drawn in the page's grey on the card, not faded: still 4.5:1
    assert contrast(MUTED, "#fffdf8") >= 4.5 and contrast(MUTED, "#f6efe0") >= 4.5  # on the card, on the sand
