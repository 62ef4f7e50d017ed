"""Shared helpers for the galapagos-auction tests (no tests of its own).

Positions are built the way a player sets up the table: lay the four species
tiles, then bid or pass. Where a rulebook example starts mid-game ("his figure
is further advanced than the iguana"), ``with_player``/``with_track`` place the
figures and tokens directly, like setting up a chess position from a FEN.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from companion.engine.rules import RuleError
from companion.games.auction.rules import ALL_PAIRS, ANIMALS, AuctionRules, AuctionState, seat_of

RULES = AuctionRules()
FOUR = ("Ann", "Bob", "Cid", "Dee")
#: N sea lion+iguana, E tortoise+booby, S crab+iguana (the rulebook's example), W penguin+crab
TILES = {"N": ["sea_lion", "iguana"], "E": ["tortoise", "booby"], "S": ["crab", "iguana"], "W": ["penguin", "crab"]}


def act(kind: str, player: str | None = None, **fields: Any) -> dict[str, Any]:
    action: dict[str, Any] = {"type": kind, **fields}
    if player is not None:
        action["player"] = player
    return action


def play(state: AuctionState, *actions: dict[str, Any]) -> AuctionState:
    for action in actions:
        state, _ = RULES.apply(state, action)
    return state


def new(players: tuple[str, ...] = FOUR, tiles: dict[str, list[str]] | None = None, **options: Any) -> AuctionState:
    """A game set up and its four tiles laid: the start player is about to bid."""
    state = RULES.setup(list(players), options)
    for square, pair in (tiles or TILES).items():
        state = play(state, act("tile", direction=square, animals=pair))
    return state


def refused(state: AuctionState, action: dict[str, Any]) -> str:
    """The refusal sentence; the state must be left exactly as it was."""
    before = RULES.fingerprint(state)
    with pytest.raises(RuleError) as info:
        RULES.apply(state, action)
    assert RULES.fingerprint(state) == before
    return info.value.message


def with_player(state: AuctionState, name: str, **changes: Any) -> AuctionState:
    """Set a player's money/education/points; ``animals`` as a dict animal → count."""
    seat = seat_of(state, name)
    if "animals" in changes:
        changes["animals"] = tuple(changes["animals"].get(a, 0) for a in ANIMALS)
    players = list(state.players)
    players[seat] = replace(players[seat], **changes)
    return replace(state, players=tuple(players))


def with_track(state: AuctionState, **fields: int) -> AuctionState:
    track = tuple(fields.get(a, f) for a, f in zip(ANIMALS, state.track, strict=True))
    return replace(state, track=track)


def choose(state: AuctionState, square: str) -> AuctionState:
    """Everyone passes and the start player chooses ``square``: card play begins."""
    order = [state.players[(state.start + i) % len(state.players)].name for i in range(len(state.players))]
    state = play(state, *[act("pass", name) for name in order])
    return play(state, act("direction", order[0], direction=square))


def finish_turns(state: AuctionState) -> AuctionState:
    """Every remaining player of the card-play phase says done."""
    while state.phase == "actions":
        state = play(state, act("done", state.players[state.turn].name))
    return state


def next_tile(state: AuctionState) -> AuctionState:
    """Lay the first unused species tile on the empty square (if one is awaited)."""
    if state.phase != "tile":
        return state
    a, b = next(p for p in ALL_PAIRS if p not in state.used_tiles)
    square = "NESW"[state.tiles.index(None)]
    return play(state, act("tile", direction=square, animals=[ANIMALS[a], ANIMALS[b]]))


def quiet_round(state: AuctionState, square: str = "N") -> AuctionState:
    """A round where nobody bids, nobody plays a card; the next tile is laid."""
    return next_tile(finish_turns(choose(state, square)))


def to_round(state: AuctionState, number: int) -> AuctionState:
    while state.round < number:
        state = quiet_round(state)
    return state


def view(state: AuctionState) -> dict[str, Any]:
    return RULES.view(state)


def player(state: AuctionState, name: str) -> dict[str, Any]:
    return next(p for p in RULES.view(state)["players"] if p["name"] == name)
