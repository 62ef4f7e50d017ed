"""What a phone has laid but not sent: its draft, kept for the sand's end.

Real dice lying on a player's board count when the sand runs out, sent or not; so do
the dice tapped into a phone's plan. The phone sends its draft as the player taps
(``static/phone.js``, for a form the page marks ``data-draft``); the session keeps it
in memory only and, at the sand's end, the game package turns it into the seat's move
as it does the lanes (:meth:`GamePackage.at_timer_end`). Nothing here knows a game.

A draft is a seat's own: a phone drafts only for its seat, the tablet only for the
seats it plays (a phone's seat is that phone's), CSRF-checked like every write. It is
never shown to anyone: it reaches no page, no story and no journal until it counts.
"""

from __future__ import annotations

from flask import Blueprint, jsonify

from web.access import require
from web.game_lookup import claimed_seats, open_game
from web.validate import SMALL_LIMIT, ApiError, body, only_keys

bp = Blueprint("drafts", __name__, url_prefix="/api")

#: the longest list a draft may hold (a plan is a handful of values)
MOST = 32


@bp.post("/games/<game_id>/draft")
def keep_draft(game_id: str):
    """``{"player": P, "values": [...]}``: what P has laid now (``player`` defaults to the phone's seat)."""
    who = require(game_id)
    session = open_game(game_id)
    data = only_keys(body(SMALL_LIMIT), {"player", "values"}, "A draft")
    player = data.get("player", who.seat)
    values = data.get("values")
    if not isinstance(player, str) or player not in session.players:
        raise ApiError(400, "A draft names a player of this game.")
    if not who.may_act_for(game_id, player):
        raise ApiError(403, f"{who.seat} cannot lay a draft for {player}.")
    if who.is_table and player in claimed_seats(game_id):
        raise ApiError(403, f"{player} has a phone: only that phone lays {player}'s draft.")
    if (not isinstance(values, list) or len(values) > MOST
            or not all(isinstance(v, str | int) and not isinstance(v, bool) for v in values)):
        raise ApiError(400, f"A draft's values are a list of at most {MOST} names or numbers.")
    timer = session.timer
    if timer is None or not timer.running or timer.expired():
        raise ApiError(409, "The sand is not running: a draft counts only while it runs.")
    session.set_draft(player, values)
    return jsonify({"kept": len(values)})
