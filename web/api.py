"""The JSON API (documented in docs/api.md): games, actions, undo/redo, live events, joining.

Every handler is a few lines over the session API; every error is JSON
``{"error": {"status": N, "message": "..."}}`` with the matching status.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, make_response, request

from companion import games
from companion.engine.jsoncheck import clean
from companion.engine.rules import RuleError
from companion.table import amend, extras
from companion.table.authorship import phone, tablet
from companion.table.session import Session
from web import amend_view, joining, views
from web.access import require, set_seat_cookie
from web.context import dashboard
from web.game_lookup import claimed_seats, open_game
from web.i18n import lang
from web.live import stream
from web.security import Principal
from web.validate import (
    ACTION_LIMIT,
    GAME_LIMIT,
    SMALL_LIMIT,
    ApiError,
    action_body,
    body,
    game_header,
    only_keys,
)

bp = Blueprint("api", __name__, url_prefix="/api")


def snapshot(session: Session, who: Principal) -> dict[str, Any]:
    viewer = who.viewer()
    return {
        "state": session.public(viewer),
        "last_actions": extras.last_actions(session, viewer),
        "timer": extras.timer(session),
        "you": {"role": who.kind, "seat": who.seat},
    }


# -- games -----------------------------------------------------------------------
@bp.post("/games")
def create_game():
    require(table=True)
    game, players, options = game_header(body(GAME_LIMIT))
    try:
        session = dashboard().hub.new(game, players, options)
    except RuleError as err:
        raise ApiError(400, err.text(lang())) from None
    if request.args.get("current", "1") != "0":
        dashboard().hub.set_current(session.id)
    out = {"id": session.id, "join_code": dashboard().keys.join_code(session.id), "state": session.public()}
    return jsonify(out), 201, {"Location": f"/api/games/{session.id}"}


@bp.get("/games")
def list_games():
    require(table=True)
    journal = dashboard().hub.journal
    return jsonify({"games": [r.to_json() for r in journal.games()], "current": dashboard().hub.current,
                    "journal": {"readonly": journal.readonly, "notices": list(dashboard().extra.get("notices", []))}})


@bp.get("/games/<game_id>")
def get_game(game_id: str):
    who = require(game_id)
    return jsonify(snapshot(open_game(game_id), who))


@bp.post("/games/<game_id>/actions")
def post_action(game_id: str):
    who = require(game_id)
    session = open_game(game_id)
    action = _known_action(session, action_body(body(ACTION_LIMIT)))
    kind = action["type"]
    settles: tuple[int, ...] = ()
    if not who.is_table:
        mine = action if "player" in action else {**action, "player": who.seat}
        # a phone may send what its own moves offer it (the first player's survival step),
        # else what the vocabulary gives a seat; the rules then judge it
        if not extras.seat_may(session, kind) and not extras.offered_to(session, who.seat, mine):
            raise ApiError(403, f"\"{kind}\" is an action for the whole table; use the table's screen.")
        action = mine
        _own_seats_only(session, who, action)
        source = phone(who.seat)
        settles = _replaced_by(session, who.seat, action)
    else:
        source = tablet(for_=_acting_for(session, action))
    try:
        events = session.act(action, source=source, settles=settles)
    except RuleError as err:
        raise ApiError(409, err.text(lang())) from None
    return jsonify({**snapshot(session, who), "events": events if who.is_table or not _secret(session) else []})


def _own_seats_only(session: Session, who: Principal, action: dict[str, Any]) -> None:
    """A phone acts and pays only as its own seat: every seat-bearing field of the action (``player``,
    whose card is played…, the package's ``seat_fields``) must be its seat; 403 otherwise."""
    for name, value in games.package(session.game).seats_in(action).items():
        if value != who.seat or not who.may_act_for(session.id, value):
            if name == "player":
                raise ApiError(403, f"{who.seat} cannot act for {clean(str(value))[:40]}.")
            raise ApiError(403, f"{who.seat} cannot play {clean(str(value))[:40]}'s cards or act in their name; "
                                "only their own phone or the table can.")


def _acting_for(session: Session, action: dict[str, Any]) -> str | None:
    """The phone-held seat the tablet acts for with ``action`` (None: its own seats only).

    Every seat-bearing field counts (a card paid with ``by``): a seat held by a phone is never sent its
    secret move (a vote), and the rest only when the tablet says it acts for that player (the log shows it).
    """
    claimed = set(claimed_seats(session.id))
    held = sorted({v for v in games.package(session.game).seats_in(action).values() if isinstance(v, str) and v in claimed})
    if not held:
        return None
    if not games.package(session.game).table_may_act(action, phone_held=True):
        raise ApiError(403, f"{held[0]} has a phone: only that phone may send this move.")
    if len(held) > 1:
        raise ApiError(403, f"{' and '.join(held)} have phones; act for one of them at a time.")
    if request.args.get("act_for") != held[0]:
        raise ApiError(403, f"{held[0]} has a phone; to act for {held[0]} say so (act for {held[0]}).")
    return held[0]


def _replaced_by(session: Session, seat: str | None, action: dict[str, Any]) -> tuple[int, ...]:
    """The actions of ``seat``'s phone that an edit set aside and this new one of the same type enters
    again (its author's new choice: its vote once more, changed or not)."""
    return tuple(e.seq for e, _ in session.set_aside()
                 if e.author.phone_of(seat) and e.action.get("type") == action.get("type"))


def _secret(session: Session) -> bool:
    return extras.has_secrets(session)


@bp.post("/games/<game_id>/draw")
def draw(game_id: str):
    """A digital draw when a component is missing: ``{"what": "dice", "player": P}`` or ``{"what": "weather"}``."""
    who = require(game_id)
    session = open_game(game_id)
    data = only_keys(body(SMALL_LIMIT), {"what", "player"}, "A draw")
    what, player = data.get("what"), data.get("player", who.seat)
    needs_player = extras.draws(session.game).get(what) if isinstance(what, str) else None
    if needs_player is None:
        raise ApiError(400, f"{session.rules.name} cannot draw {what!r}; it can draw {', '.join(extras.draws(session.game)) or 'nothing'}.")
    if needs_player and not who.may_act_for(game_id, player):
        raise ApiError(403, f"{who.seat} cannot draw for {player}.")
    if not needs_player and not who.is_table:
        raise ApiError(403, f"Only the table draws the {what}.")
    try:
        action, seed = extras.draw(session, what, player if needs_player else None)
        events = session.act(action, source=phone(who.seat, seed) if not who.is_table else tablet(seed=seed))
    except RuleError as err:
        raise ApiError(409, err.text(lang())) from None
    return jsonify({"drawn": action, **snapshot(session, who), "events": events if who.is_table or not _secret(session) else []})


@bp.post("/games/<game_id>/undo")
def undo(game_id: str):
    return _move(game_id, "undo")


@bp.post("/games/<game_id>/redo")
def redo(game_id: str):
    return _move(game_id, "redo")


@bp.get("/games/<game_id>/undo-preview")
def undo_preview(game_id: str):
    """What the next undo would take back, for this pass: ``{"can_undo", "what", "back": [sentences]}``.

    A seat sees only the undo of its own last action, and only its own view's figures.
    """
    who = require(game_id)
    session = open_game(game_id)
    allowed = extras.may_undo(session, None if who.is_table else who.seat)
    if allowed and not who.is_table and extras.undo_refusal(session, by_table=False, lang=lang()):
        allowed = False  # a revealed ballot: only the table takes it back
    preview = amend.undo_preview(session, who.viewer(), lang(), by_table=who.is_table) if allowed else {}
    return jsonify({"can_undo": allowed, "what": preview.get("what", ""), "back": preview.get("back", []),
                    "can_redo": who.is_table and session.can_redo})


def _move(game_id: str, kind: str):
    who = require(game_id)
    session = open_game(game_id)
    if not who.is_table:
        mine = kind == "undo" and extras.may_undo(session, who.seat)  # by who sent it, not by its ``player``
        if not mine:
            raise ApiError(403, f"{who.seat} may only undo their own last action; ask the table for anything else.")
        refusal = extras.undo_refusal(session, by_table=False, lang=lang())
        if refusal:  # a secret that came out with it (a revealed ballot): no seat takes it back
            raise ApiError(403, refusal)
    try:
        done = extras.undo(session, by_table=who.is_table, lang=lang()) if kind == "undo" else extras.redo(session)
    except RuleError as err:
        raise ApiError(409, err.text(lang())) from None
    if done is None:
        raise ApiError(409, f"There is nothing to {kind}.")
    return jsonify({kind: extras.redact(session.game, done, who.viewer()), **snapshot(session, who)})


# -- fixing earlier actions (the table only) ------------------------------------------------
@bp.get("/games/<game_id>/history")
def history(game_id: str):
    """Every action in play with whether the tablet may edit or remove it, the ones set aside, and
    the panel's HTML (``web/templates/_history.html``)."""
    require(game_id, table=True)
    session = open_game(game_id)
    language = lang()
    rows, aside = amend.history(session, language), amend.set_aside(session, language)
    html = amend_view.history_html(session, rows, aside, language)
    return jsonify({"entries": rows, "aside": aside, "html": html})


@bp.get("/games/<game_id>/history/<int:seq>/form")
def history_form(game_id: str, seq: int):
    """The move form the game offered just before action ``seq``, filled in with what was played."""
    require(game_id, table=True)
    session = open_game(game_id)
    why = amend.refusal(session, seq, removing=False, lang=lang())
    if why:
        raise ApiError(409, why)
    found = amend.edit_forms(session, seq, lang())
    return jsonify({"seq": seq, "prefill": found["prefill"], "html": amend_view.form_html(session, seq, found, lang())})


@bp.post("/games/<game_id>/history/<int:seq>/edit")
def edit_action(game_id: str, seq: int):
    """``{"action": {...}}`` replaces action ``seq``; the later ones are played again, those that no longer
    apply are set aside (listed in the answer)."""
    who = require(game_id, table=True)
    session = open_game(game_id)
    data = only_keys(body(ACTION_LIMIT), {"action"}, "An edit")
    if "action" not in data:
        raise ApiError(400, "An edit needs the corrected \"action\".")
    return _rewrite(session, who, seq, _known_action(session, action_body(data["action"])))


@bp.post("/games/<game_id>/history/<int:seq>/remove")
def remove_action(game_id: str, seq: int):
    """Remove action ``seq`` from the history (kept in the journal as removed); the later ones are played again."""
    who = require(game_id, table=True)
    session = open_game(game_id)
    if request.content_length or request.mimetype == "application/json":  # a body, if any, is {}
        only_keys(body(SMALL_LIMIT), set(), "A removal")
    return _rewrite(session, who, seq, None)


def _known_action(session: Session, action: dict[str, Any]) -> dict[str, Any]:
    """The action's shape against the game's vocabulary (its type, its fields), as ``post_action`` checks it."""
    kind = action["type"]
    if kind not in session.rules.actions:
        raise ApiError(400, RuleError(f"{session.rules.name} has no action \"{clean(kind)[:40]}\".").message)
    unknown = sorted(set(action) - set(session.rules.actions[kind]) - {"type"})
    if unknown:  # the body's shape, not the rules: 400 as docs/api.md says
        raise ApiError(400, f"The \"{kind}\" action has no field \"{clean(unknown[0])[:40]}\".")
    return action


def _rewrite(session: Session, who: Principal, seq: int, action: dict[str, Any] | None):
    language = lang()
    why = amend.refusal(session, seq, removing=action is None, lang=language)
    if why:
        raise ApiError(409, why)
    pkg = games.package(session.game)
    claimed = set(claimed_seats(session.id))
    held = [v for v in (pkg.seats_in(action).values() if action is not None else ()) if v in claimed]
    if held and not pkg.table_may_act(action, phone_held=True):
        raise ApiError(403, f"{held[0]} has a phone: only that phone may send this move.")  # never a vote for it
    try:
        done = session.edit(seq, action, source=tablet())
    except RuleError as err:
        raise ApiError(409, games.package(session.game).error_text(err, language)) from None
    extras.NOTICES.pop(session.id, None)  # an undo's notice (« everyone votes again ») no longer holds
    aside = amend.set_aside(session, language)
    fresh = {e.seq for e in done.aside}
    return jsonify({"replayed": done.replayed, "dropped": len(done.dropped),
                    "aside": [a for a in aside if a["seq"] in fresh], **snapshot(session, who)})


@bp.post("/games/<game_id>/aside/<int:seq>/reenter")
def reenter_action(game_id: str, seq: int):
    """Play now an action that an edit set aside (the rules judge it against today's state).

    The table, for any but a phone's secret move; that one only its own phone enters again.
    """
    who = require(game_id)
    session = open_game(game_id)
    found = next((e for e, _ in session.set_aside() if e.seq == seq), None)
    if not who.is_table and (found is None or not found.author.phone_of(who.seat)):
        raise ApiError(403, f"{who.seat} may only make their own moves again.")
    if found is not None and who.is_table and any(a["seq"] == seq and a["phone"] for a in amend.set_aside(session)):
        raise ApiError(403, f"Only {found.author.seat}'s phone can make this move again.")
    try:
        events = session.reenter(seq, source=tablet() if who.is_table else phone(who.seat))
    except RuleError as err:
        raise ApiError(409, games.package(session.game).error_text(err, lang())) from None
    return jsonify({**snapshot(session, who), "events": events if who.is_table or not _secret(session) else []})


@bp.post("/games/<game_id>/aside/<int:seq>/drop")
def drop_action(game_id: str, seq: int):
    """Give up an action set aside; it stays in the journal as dropped."""
    who = require(game_id, table=True)
    session = open_game(game_id)
    if not session.drop(seq, source=tablet()):
        raise ApiError(404, f"No action {seq} is set aside.")
    return jsonify(snapshot(session, who))


@bp.get("/games/<game_id>/events")
def events(game_id: str):
    who = require(game_id)
    session = open_game(game_id)
    view = request.args.get("view")
    seat = request.args.get("seat") if view == "seat" else None
    language = lang()
    if view not in (None, "table", "seat"):
        raise ApiError(400, "\"view\" is table or seat.")
    if seat is not None and (seat not in session.players or not who.may_act_for(game_id, seat)):
        raise ApiError(403, f"This pass cannot watch {seat}'s seat.")

    def render():
        data = snapshot(session, who)
        if view:
            data["html"] = views.fragments(session, who, view, language, seat)
        return "state", data, session.version

    return stream(game_id, render, owner=owner_of(who), still_valid=still_valid(who))


def owner_of(who: Principal) -> str:
    """The pass a live stream counts against: the table, or one seat of one game."""
    return "table" if who.is_table else f"seat:{who.game_id}:{who.seat}"


def still_valid(who: Principal):
    """A check, asked before every live message, that ``who``'s pass was not revoked meanwhile."""
    d = dashboard()
    if who.is_table:
        return lambda: d.keys.is_table(who.credential)
    return lambda: d.seats.seat_of(who.credential) == (who.game_id, who.seat)


@bp.post("/games/<game_id>/current")
def make_current(game_id: str):
    require(table=True)
    open_game(game_id)
    dashboard().hub.set_current(game_id)
    return jsonify({"current": game_id})


@bp.post("/games/<game_id>/seats/<path:seat>/release")
def release_seat(game_id: str, seat: str):
    require(table=True)
    open_game(game_id)
    if not dashboard().seats.release(game_id, seat):
        raise ApiError(404, f"No phone holds {seat}'s seat.")
    dashboard().hub.end_owner(f"seat:{game_id}:{seat}")  # the old phone's open pages stop at once
    dashboard().hub.broadcast(game_id)
    return jsonify({"released": seat})


@bp.post("/games/<game_id>/join-code")
def new_join_code(game_id: str):
    """A new join code (table): the old one, perhaps seen by someone else, stops working."""
    require(table=True)
    open_game(game_id)
    d = dashboard()
    d.seats.new_code(game_id)
    if d.hub.current == game_id:
        d.hub.set_current(game_id)  # the OLED's code and QR follow
    d.hub.broadcast(game_id)
    return jsonify({"join_code": d.keys.join_code(game_id)})


# -- joining -------------------------------------------------------------------------
@bp.post("/join")
def join():
    """``{"code": "123456", "seat": "Ann"}`` → a seat token (also set as a cookie)."""
    d = dashboard()
    data = only_keys(body(SMALL_LIMIT), {"code", "seat"}, "The join request")
    game_id, seat = joining.find_seat(data.get("code"), data.get("seat"))
    token = d.seats.claim(game_id, seat)
    if token is None:
        raise ApiError(409, f"{seat}'s seat is already taken on another phone; the table can free it.")
    joining.answered_openly(request.remote_addr)  # a seat taken: the code was right, openly
    d.hub.broadcast(game_id)
    response = make_response(jsonify({"game": game_id, "seat": seat, "token": token}), 201)
    set_seat_cookie(response, game_id, token)
    return response


@bp.post("/games/<game_id>/seats/<path:seat>/open")
def open_seat(game_id: str, seat: str):
    """The table lets a phone take a seat the tablet has been playing (its consent)."""
    require(table=True)
    session = open_game(game_id)
    if seat not in session.players:
        raise ApiError(404, f"There is no seat {clean(seat)[:40]!r} in this game.")
    dashboard().seats.open_seat(game_id, seat)
    dashboard().hub.broadcast(game_id)
    return jsonify({"open": seat})


@bp.errorhandler(ApiError)
def api_error(err: ApiError):
    return error_response(err)


def error_response(err: ApiError):
    response = jsonify({"error": {"status": err.status, "message": clean(err.message)}})  # never raw CR/LF
    response.status_code = err.status
    if err.status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="companion"'
    if "retry_after" in err.extra:
        response.headers["Retry-After"] = str(err.extra["retry_after"])
    return response
