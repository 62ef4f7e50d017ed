"""The simulation panel (press any button, place or remove a tag, watch the OLED) and tag enrollment.

Only with the table's token: the panel drives the same simulated devices the
controller listens to, so a press here is exactly a press on the table.
"""

from __future__ import annotations

import base64
import re
from typing import Any

from flask import Blueprint, Response, jsonify

from web.access import require
from web.context import SimBackend, TagBackend, dashboard
from web.live import stream
from web.rendering import page
from web.validate import SMALL_LIMIT, ApiError, body, only_keys

bp = Blueprint("sim", __name__)

UID = re.compile(r"^[0-9A-Fa-f]{8}([0-9A-Fa-f]{6}){0,2}$|^[0-9A-Fa-f]{20}$")


def _sim() -> SimBackend:
    sim = dashboard().sim
    if sim is None:
        raise ApiError(404, "Simulated devices are off: start with companion run --sim.")
    return sim


def _tags() -> TagBackend:
    tags = dashboard().tags
    if tags is None:
        raise ApiError(404, "There is no tag registry in this set-up.")
    return tags


@bp.get("/sim")
def panel():
    who = require(table=True)
    sim = dashboard().sim
    tags = dashboard().tags
    points = sim.points() if sim else []
    groups: dict[str, list[str]] = {}
    for p in points:
        groups.setdefault(p.split(".")[0] if "." in p else "table", []).append(p)
    return page("sim.html", who, sim=sim, buttons=sim.buttons() if sim else [], groups=list(groups.items()),
                readers=sim.on_readers() if sim else {}, enrolled=tags.enrolled() if tags else [],
                current=dashboard().hub.current)


def sim_state() -> dict[str, Any]:
    sim = _sim()
    png = base64.b64encode(sim.oled_png()).decode()
    return {"serial": sim.oled_serial(), "oled": "data:image/png;base64," + png, "readers": sim.on_readers()}


@bp.get("/sim/oled.png")
def oled_png():
    require(table=True)
    return Response(_sim().oled_png(), mimetype="image/png", headers={"Cache-Control": "no-store"})


@bp.get("/sim/state")
def state():
    require(table=True)
    return jsonify(sim_state())


@bp.get("/sim/events")
def events():
    require(table=True)
    _sim()

    def render():
        data = sim_state()
        return "sim", data, data["serial"]

    return stream("sim", render, owner="table")


def _sim_request(keys: set[str], what: str) -> tuple[SimBackend, dict[str, Any]]:
    """The table's request to the simulated devices: who may, which devices, the checked body."""
    require(table=True)
    sim = _sim()
    return sim, only_keys(body(SMALL_LIMIT), keys, what)


@bp.post("/sim/press")
def press():
    sim, data = _sim_request({"button", "hold"}, "A button press")
    name, hold = data.get("button"), data.get("hold", False)
    if name not in sim.buttons():
        raise ApiError(400, f"There is no button {name!r}; the buttons are {', '.join(sim.buttons())}.")
    if not isinstance(hold, bool):
        raise ApiError(400, "\"hold\" is true (held past its hold time) or false.")
    sim.press(name, hold)
    return jsonify(sim_state())


@bp.post("/sim/turn")
def turn():
    sim, data = _sim_request({"delta"}, "An encoder turn")
    delta = data.get("delta")
    if delta not in (-1, 1):
        raise ApiError(400, "\"delta\" is 1 (clockwise) or -1.")
    sim.turn(delta)
    return jsonify(sim_state())


@bp.post("/sim/tag")
def tag():
    sim, data = _sim_request({"point", "uid", "present"}, "A tag")
    point, uid, present = data.get("point"), data.get("uid"), data.get("present")
    if point not in sim.points():
        raise ApiError(400, f"There is no reader point {point!r}; they are {', '.join(sim.points())}.")
    if not isinstance(uid, str) or not UID.match(uid):
        raise ApiError(400, "A tag UID is 4, 7 or 10 bytes in hex, such as 04A1B2C3D4E5F6.")
    if not isinstance(present, bool):
        raise ApiError(400, "\"present\" is true (placed) or false (removed).")
    (sim.place if present else sim.remove)(point, uid.upper())
    return jsonify(sim_state())


# -- tag enrollment ------------------------------------------------------------------
@bp.post("/tags/enroll")
def enroll():
    require(table=True)
    data = only_keys(body(SMALL_LIMIT), {"uid", "kind", "value", "game"}, "An enrollment")
    uid, kind, value = data.get("uid"), data.get("kind"), data.get("value")
    if not isinstance(uid, str) or not UID.match(uid):
        raise ApiError(400, "Scan a tag first: its UID is 4, 7 or 10 bytes in hex.")
    if not isinstance(kind, str) or not isinstance(value, str):
        raise ApiError(400, "Say what the tag is: a kind and a value.")
    try:
        entry = _tags().enroll(uid.upper(), kind, value)
    except ValueError as exc:
        raise ApiError(400, str(exc)) from None
    return jsonify({"enrolled": entry}), 201


@bp.post("/tags/forget")
def forget():
    require(table=True)
    data = only_keys(body(SMALL_LIMIT), {"uid"}, "A tag")
    if not isinstance(data.get("uid"), str) or not _tags().forget(data["uid"].upper()):
        raise ApiError(404, "That tag is not enrolled.")
    return jsonify({"forgotten": data["uid"].upper()})


@bp.get("/tags/last")
def last_scanned():
    require(table=True)
    return jsonify({"uid": _tags().last_scanned()})


@bp.get("/tags.json")
def export_tags():
    require(table=True)
    response = jsonify(_tags().export())
    response.headers["Content-Disposition"] = "attachment; filename=galapagos-tags.json"
    return response
