"""galapagos-auction page fragments: rendered in French they show no English game word.

The fragments (``companion/games/auction/templates/``: the education track, the
tiles and bids, the bonus tiles, a player's money and animals, a seat's costs) are
rendered through the dashboard's own Jinja environment, with the game's translator
``gt`` and the package's page extras, for states with animals, bids and bonus tiles.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from companion.engine import texts
from companion.games.auction import GAME
from companion.games.auction.rules import AuctionState
from tests.games.test_auction_texts import english_in
from tests.support.auction import RULES, act, choose, new, play, with_player
from web import pictures

TAGS = re.compile(r"<[^>]+>")


def render(app: Any, name: str, state: AuctionState, lang: str, me: str = "Ann") -> str:
    pub = RULES.public_state(state)
    names = [p["name"] for p in pub["players"]]
    ctx: dict[str, Any] = {
        "pub": pub, "players": names, "me": me, "my": next(p for p in pub["players"] if p["name"] == me),
        "p": pub["players"][1], "t": texts.translator(lang), "gt": lambda msgid, **params: GAME.t(msgid, lang, **params),
        "pictures": pictures, "seat_colour": {n: pictures.SEAT_COLOURS[i] for i, n in enumerate(names)},
        "game_tpl": GAME.id, "lang": lang, "palette": GAME.palette(),
    }
    ctx.update(GAME.page(state, pub, me, lang))
    with app.test_request_context():
        return app.jinja_env.get_template(f"{GAME.id}/{name}.html").render(**ctx)


def states() -> list[AuctionState]:
    bidding = play(new(), act("bid", "Ann", direction="W", amount=300))
    going = with_player(replace(choose(new(), "S"), flipped=8), "Ann", animals={"sea_lion": 1, "crab": 2, "booby": 1})
    bobs_turn = play(going, act("done", "Ann"), act("sell_cards", "Bob", count=2))  # "p" (Bob) is on turn: his cards
    return [bidding, with_player(bidding, "Bob", animals={"penguin": 2}), going, bobs_turn]


def test_the_fragments_speak_french(table) -> None:  # noqa: F811 - the imported fixture
    for state in states():
        for name in ("picture", "player", "mine"):
            html = render(table.app, name, state, "fr")
            text = TAGS.sub(" ", html)
            assert not english_in(text), (name, english_in(text), text)
            if name != "picture":
                assert "£" in text  # the money is there, spelt the French way


def test_the_fragments_keep_their_english(table) -> None:  # noqa: F811
    mine = render(table.app, "mine", states()[2], "en")
    assert "crab" in mine and "£1500" in mine and "£1000" in mine
    picture = render(table.app, "picture", states()[0], "en")
    assert "Ann £300" in TAGS.sub("", picture) and "sea lion" in picture
    french = render(table.app, "mine", states()[2], "fr")
    assert "crabe" in french and "1500 £" in french


def test_the_fragments_show_free_money_totals_leader_cards_and_exchange_prices(table) -> None:  # noqa: F811
    """The phone's own figures, the players table and the picture say what is bid, what is free,
    which square leads and who would take the start player, the cards used of 7 and every exchange price."""
    bidding = play(new(), act("bid", "Ann", direction="W", amount=300), act("bid", "Bob", direction="N", amount=200))
    mine = TAGS.sub(" ", render(table.app, "mine", bidding, "en"))
    assert "£300 bid, £1200 free for an exchange" in mine
    assert "£300 bid · leads" in mine and "£200 bid" in mine
    for animal, price in (("sea lion", 0), ("iguana", 200), ("crab", 1000)):
        assert f"Exchange → {animal}" in mine and f"£{price}" in mine
    player = TAGS.sub(" ", render(table.app, "player", bidding, "en"))  # "p" is Bob
    assert "£1500" in player and "£1300 free" in player
    picture = TAGS.sub(" ", render(table.app, "picture", bidding, "en"))
    assert "West leads with £300; Ann would take the start player." in picture
    cards = states()[3]
    assert "cards 2/7" in TAGS.sub(" ", render(table.app, "player", cards, "en"))
    assert "2 of 7 cards used this turn" in TAGS.sub(" ", render(table.app, "mine", cards, "en", me="Bob"))
    quiet = TAGS.sub(" ", render(table.app, "mine", new(), "en"))
    assert "free for an exchange" not in quiet and "leads" not in quiet  # nothing bid yet


def test_the_seat_page_shows_the_costs_of_that_seat_only() -> None:
    state = new()
    pub = RULES.public_state(state)
    assert GAME.page(state, pub, "Bob", "en")["costs"]["player"] == "Bob"
    assert GAME.page(state, pub, None, "en") == {}
    assert GAME.page(state, pub, "Zed", "en") == {}


def test_a_tile_can_be_drawn_digitally_while_one_is_awaited() -> None:
    from random import Random

    state = RULES.setup(["Ann", "Bob"], {})
    draw = GAME.draws()["tile"]
    assert draw["action"] == "tile" and not draw["player"]
    for seed in range(20):
        action = draw["fn"](state, Random(seed), None)
        state, _ = RULES.apply(state, action)  # always a legal tile
        if state.phase != "tile":
            break
    assert state.phase == "bidding"
