"""Validation of every JSON body before the session sees it.

The rules check an action's meaning; this module checks its *shape* so that
no request can make the server work hard or store junk: size, nesting depth,
number of values, string lengths, finite numbers, and the keys each body may
have. Failures are :class:`ApiError` with a status and one sentence.
"""

from __future__ import annotations

import json
import math
from typing import Any

from flask import request

from companion.engine import texts

#: the largest request body accepted at all (game set-ups with a 36-field layout fit easily)
MAX_BODY = 64 * 1024
#: body limits in bytes of the API's requests (smaller than MAX_BODY, which game set-ups with a layout need)
ACTION_LIMIT = 4 * 1024
GAME_LIMIT = 32 * 1024
SMALL_LIMIT = 1024

MAX_DEPTH = 5
MAX_NODES = 2000
MAX_STRING = 200
MAX_KEY = 40
MAX_PLAYERS = 12
MAX_NAME = 24


class ApiError(Exception):
    """An HTTP error with a sentence for the client (rendered as JSON by the API)."""

    def __init__(self, status: int, message: str, *, params: dict[str, Any] | None = None, **extra: Any):
        """``message`` is a sentence, or a message id with ``params`` (a page says it in the reader's language;
        the API's JSON in English)."""
        self.msgid, self.params = message, dict(params or {})
        message = texts.render(message, self.params, "en") if params else message
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra


def body(limit: int) -> Any:
    """The request's JSON body, no larger than ``limit`` bytes, its shape checked (415 unless sent as JSON)."""
    if request.mimetype != "application/json":
        raise ApiError(415, "Send the body as JSON with \"Content-Type: application/json\".")
    return parse_body(request.get_data(cache=False), limit)


def parse_body(raw: bytes, limit: int) -> Any:
    """Decode a JSON body no larger than ``limit`` bytes and check its shape."""
    if len(raw) > limit:
        raise ApiError(413, f"The request body is {len(raw)} bytes; the limit is {limit}.")
    if not raw.strip():
        raise ApiError(400, "The request needs a JSON body.")
    try:
        value = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    except UnicodeDecodeError:
        raise ApiError(400, "The request body is not UTF-8 text.") from None
    except json.JSONDecodeError as exc:
        raise ApiError(400, f"The body is not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno}).") from None
    except RecursionError:
        raise ApiError(400, f"The body is nested more than {MAX_DEPTH} levels deep.") from None
    except ValueError as exc:  # NaN/Infinity (refused above), or an integer over 4,300 digits
        text = str(exc)
        raise ApiError(400, text if "JSON allows" in text else "A number in the body is out of range.") from None
    check_value(value)
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(f"The body contains {name}, which is not a number JSON allows.")


def check_value(value: Any) -> None:
    """Depth, size, strings and numbers of a decoded JSON value."""
    budget = [MAX_NODES]

    def walk(v: Any, depth: int) -> None:
        budget[0] -= 1
        if budget[0] < 0:
            raise ApiError(400, f"The body has more than {MAX_NODES} values.")
        if depth > MAX_DEPTH:
            raise ApiError(400, f"The body is nested more than {MAX_DEPTH} levels deep.")
        if isinstance(v, dict):
            for k, item in v.items():
                _unicode(k)
                if len(k) > MAX_KEY:
                    raise ApiError(400, f"The key \"{k[:20]}…\" is longer than {MAX_KEY} characters.")
                walk(item, depth + 1)
        elif isinstance(v, list):
            for item in v:
                walk(item, depth + 1)
        elif isinstance(v, str):
            _unicode(v)
            if len(v) > MAX_STRING:
                raise ApiError(400, f"A text in the body is longer than {MAX_STRING} characters.")
        elif isinstance(v, float):
            if not math.isfinite(v):
                raise ApiError(400, "Numbers in the body must be finite.")
        elif isinstance(v, bool) or v is None or isinstance(v, int):
            if isinstance(v, int) and not isinstance(v, bool) and abs(v) > 10**9:
                raise ApiError(400, "A number in the body is out of range.")
        else:  # pragma: no cover - json.loads makes nothing else
            raise ApiError(400, "The body holds a value JSON does not have.")

    walk(value, 0)


def _unicode(text: str) -> None:
    """Valid Unicode only: a lone surrogate (``"\\ud800"`` in JSON) cannot be stored or shown."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ApiError(400, "A text in the body is not valid Unicode (a lone surrogate).") from None


def only_keys(obj: Any, allowed: set[str], what: str) -> dict[str, Any]:
    if not isinstance(obj, dict):
        raise ApiError(400, f"{what} must be a JSON object.")
    extra = sorted(set(obj) - allowed)
    if extra:
        raise ApiError(400, f"{what} has no field \"{extra[0][:MAX_KEY]}\"; it takes {', '.join(sorted(allowed))}.")
    return obj


def game_header(obj: Any) -> tuple[str, list[str], dict[str, Any]]:
    """The script format's first line: ``{"game": ID, "players": [...], "options": {...}}``."""
    only_keys(obj, {"game", "players", "options"}, "The game")
    game = obj.get("game")
    if not isinstance(game, str) or not game:
        raise ApiError(400, "The game needs a \"game\" id (companion games lists them).")
    players = obj.get("players")
    if not isinstance(players, list) or not players:
        raise ApiError(400, "The game needs \"players\": a list of names in seating order.")
    if len(players) > MAX_PLAYERS:
        raise ApiError(400, f"At most {MAX_PLAYERS} players can sit at the table.")
    names = []
    for p in players:
        if not isinstance(p, str) or not p.strip():
            raise ApiError(400, "Each player must be a non-empty name.")
        if len(p.strip()) > MAX_NAME:
            raise ApiError(400, f"The name \"{p[:MAX_NAME]}…\" is longer than {MAX_NAME} characters.")
        if any(ord(c) < 32 for c in p):
            raise ApiError(400, "A player's name cannot hold control characters.")
        names.append(p.strip())
    options = obj.get("options", {})
    if not isinstance(options, dict):
        raise ApiError(400, "\"options\" must be a JSON object.")
    return game, names, options


def action_body(obj: Any) -> dict[str, Any]:
    """An action: an object with a non-empty string ``type`` (the rules check the rest)."""
    if not isinstance(obj, dict):
        raise ApiError(400, "An action must be a JSON object such as {\"type\": \"pass\", \"player\": \"Ann\"}.")
    kind = obj.get("type")
    if not isinstance(kind, str) or not kind:
        raise ApiError(400, "The action has no \"type\".")
    if "player" in obj and not isinstance(obj["player"], str):
        raise ApiError(400, "\"player\" must be a player's name.")
    return obj
