"""The rules-engine contract every game module follows (docs/design.md, « The rules contract »).

A game is a :class:`Rules` subclass living in ``companion/games/``. It is pure:
standard library only, no clock, no I/O, no randomness of its own. Physical
randomness (a drawn ball, a rolled die) arrives as an *observed action*.

The shape is python-chess-like: ``apply`` returns a *new* state plus the events
it produced and never touches the state it was given, so a rejected action
(a :class:`RuleError`) leaves the caller's state exactly as it was and undo is
simply "replay one action fewer".
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import json
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

from companion.engine import texts
from companion.engine.shapes import Action
from companion.engine.texts import Term

Event = dict[str, Any]


class RuleError(Exception):
    """An action the rules refuse, with a sentence a player understands.

    The root of the rules' trade and of it only: a refusal the player can act on, never a storage
    failure (:class:`companion.table.rows.StorageError`: a full card, a damaged game) nor a device
    down (:class:`hw.errors.DeviceError`). Every interface answers it with the sentence (the
    dashboard a 400 or a 409, the CLI on stderr with exit status 2, the OLED on its line) and
    nothing changed.

    The rules give a *message id* (the English source text with ``{name}``
    placeholders) and its parameters, never a finished sentence:
    ``RuleError("{p} has £{money} and cannot pay £{cost}.", p="Ann", money=200, cost=300)``.
    :meth:`text` renders it in the reader's language from the gettext catalog of
    ``domain`` (the game's, given by its package; see :mod:`companion.engine.texts`).
    ``message`` is the English sentence.
    """

    def __init__(self, message: str, *, domain: str | None = None, **params: Any):
        self.msgid = message
        self.params = params
        self.domain = domain
        self.message = texts.render(message, params, "en", domain or texts.INTERFACE) if params else message
        super().__init__(self.message)

    def text(self, lang: str = "en", domain: str | None = None) -> str:
        """The sentence in ``lang`` (``domain``: the game's catalog when the error names none)."""
        return texts.render(self.msgid, self.params, lang, self.domain or domain or texts.INTERFACE)


@dataclass(frozen=True)
class Expected:
    """Who must act next and what they may do: drives the OLED prompt and phone buttons.

    ``players`` empty means a table-wide action (a tile laid, a weather card turned).
    ``prompt`` is a message id (English source text) and ``params`` its parameters;
    :meth:`text` renders it in a language from the game's catalog.
    """

    players: tuple[str, ...]
    actions: tuple[str, ...]
    prompt: str = ""
    params: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)
    #: the turn order, as the rules know it: who acts after ``players`` (None: the seat order says,
    #: :func:`companion.engine.results.turn`), who holds the start player's figure, and whether the
    #: table itself (a tile laid, turtles drawn) acts next. Every screen's ribbon reads these.
    next: tuple[str, ...] | None = field(default=None, compare=False)
    start: str | None = field(default=None, compare=False)
    table_next: bool = field(default=False, compare=False)

    def text(self, lang: str = "en", domain: str | None = None) -> str:
        return texts.render(self.prompt, self.params, lang, domain or texts.INTERFACE)

    def to_json(self) -> dict[str, Any]:
        return {"players": list(self.players), "actions": list(self.actions), "prompt": self.text("en")}


@dataclass(frozen=True)
class Outcome:
    """Why a game ended (like ``chess.Outcome``): a machine-readable reason and the winners."""

    reason: str
    winners: tuple[str, ...] = field(default_factory=tuple)
    #: why, as a message id (English source text) with ``params``; ``to_json`` gives it in English
    text: str = ""
    params: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def sentence(self, lang: str = "en", domain: str | None = None) -> str:
        return texts.render(self.text, self.params, lang, domain or texts.INTERFACE)

    def to_json(self) -> dict[str, Any]:
        return {"reason": self.reason, "winners": list(self.winners), "text": self.sentence("en")}


class Rules(ABC):
    """Base class of a game's rules.

    Subclasses set the class attributes and implement the abstract methods.
    ``actions`` declares the action vocabulary: action type -> the fields it
    accepts besides ``type`` (``player`` included where it applies). The base
    class refuses unknown types and unknown fields with one clear sentence
    before the game sees the action, so every game reports them the same way.
    """

    id: ClassVar[str]
    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    actions: ClassVar[dict[str, frozenset[str]]]
    #: fields in ``actions`` that may be left out (per action type).
    optional_fields: ClassVar[dict[str, frozenset[str]]] = {}

    # -- the contract -------------------------------------------------------
    @abstractmethod
    def setup(self, players: list[str], options: dict[str, Any]) -> Any:
        """Validate players and options and return the initial state; raise RuleError."""

    def apply(self, state: Any, action: Action) -> tuple[Any, list[Event]]:
        """Check the action's shape, then let the game apply it.

        Returns ``(new_state, events)``. Raises :class:`RuleError`; the given
        state is never modified either way.
        """
        self.check_shape(action)
        return self.step(state, action)

    @abstractmethod
    def step(self, state: Any, action: Action) -> tuple[Any, list[Event]]:
        """Apply a well-shaped action. Must not mutate ``state``."""

    @abstractmethod
    def expected(self, state: Any) -> Expected:
        """Who acts next and which action types are allowed now."""

    @abstractmethod
    def view(self, state: Any, viewer: str | None = None) -> dict[str, Any]:
        """JSON-ready public state with at least ``game``, ``round``, ``over`` and ``players``.

        Secrets (a vote before the reveal) appear only when ``viewer`` owns them.
        """

    @abstractmethod
    def scores(self, state: Any) -> dict[str, int]:
        """Running scores while playing; final scores with every end bonus once over."""

    @abstractmethod
    def winners(self, state: Any) -> list[str]:
        """Names of the winners; empty until the game is over."""

    def outcome(self, state: Any) -> Outcome | None:
        """Why the game ended, or None while it goes on. Games override for a richer reason."""
        if not self.view(state).get("over"):
            return None
        return Outcome("over", tuple(self.winners(state)))

    def candidates(self, state: Any) -> list[Action]:
        """Some legal actions for the current state (every one must be accepted by ``apply``).

        Drives random playouts (bench/) and property tests. It need not list every
        legal action where the space is large (bids: a few amounts), but it must be
        non-empty whenever the game is not over and someone can act.
        """
        return []

    def dump(self, state: Any) -> Any:
        """The whole state, secrets included, as JSON-ready data (for fingerprints and tests)."""
        return self.view(state, viewer=_ALL_SECRETS)

    # -- shared helpers -----------------------------------------------------
    def check_shape(self, action: Any) -> None:
        if not isinstance(action, dict):
            raise RuleError("An action must be a JSON object such as {example}.", example='{"type": "pass"}')
        kind = action.get("type")
        if not isinstance(kind, str) or not kind:
            raise RuleError("The action has no \"type\".")
        if kind not in self.actions:
            known = ", ".join(sorted(self.actions))
            raise RuleError("{game} has no action \"{kind}\"; it knows {known}.", game=Term(self.name), kind=kind, known=known)
        allowed = self.actions[kind]
        unknown = sorted(set(action) - allowed - {"type"})
        if unknown:
            raise RuleError("The \"{kind}\" action has no field \"{field}\".", kind=kind, field=unknown[0])
        missing = sorted(allowed - self.optional_fields.get(kind, frozenset()) - set(action))
        if missing:
            raise RuleError("The \"{kind}\" action needs a \"{field}\".", kind=kind, field=missing[0])

    def check_players(self, players: Any) -> list[str]:
        """Validate the seating list: names, count, no duplicates."""
        if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
            raise RuleError("Players must be a list of names.")
        names = [p.strip() for p in players]
        if len(set(names)) != len(names):
            raise RuleError("Two players have the same name; give each a different one.")
        lo, hi = self.min_players, self.max_players
        if not lo <= len(names) <= hi:
            if lo == hi:
                raise RuleError("{game} is played by {lo} players, not {n}.", game=Term(self.name), lo=lo, n=len(names))
            raise RuleError("{game} is played by {lo} to {hi} players, not {n}.", game=Term(self.name), lo=lo, hi=hi, n=len(names))
        return names

    def public_state(self, state: Any, viewer: str | None = None) -> dict[str, Any]:
        """The script-format state: the view plus scores, winners, expected and outcome."""
        out = dict(self.view(state, viewer))
        out["scores"] = self.scores(state)
        out["winners"] = self.winners(state)
        exp = self.expected(state)
        out["expected"] = exp.to_json()
        outcome = self.outcome(state)
        out["outcome"] = outcome.to_json() if outcome else None
        return out

    def fingerprint(self, state: Any) -> str:
        """A canonical string of the whole state: equal strings mean identical states."""
        return json.dumps(self.dump(state), sort_keys=True, separators=(",", ":"))


class _AllSecrets(str):
    """Marker viewer that sees every secret (used by ``dump`` only, never by the web)."""


_ALL_SECRETS = _AllSecrets("*all*")


def sees_secret(viewer: str | None, owner: str) -> bool:
    """True when ``viewer`` may see ``owner``'s secret (the owner, or a full dump)."""
    return viewer is not None and (viewer == owner or isinstance(viewer, _AllSecrets))


# -- copying a frozen state -------------------------------------------------

S = TypeVar("S")


def evolve(state: S, **changes: Any) -> S:
    """``dataclasses.replace(state, **changes)``, several times faster, for the games' frozen states.

    ``replace`` walks ``fields()`` and calls the generated ``__init__``, which sets every field
    through ``object.__setattr__``: about 13 µs for the dice game's 17 fields, a fifth of an
    action in a random playout. A state class whose ``__init__`` only stores its fields (no
    ``__post_init__``, no ``InitVar`` or ``init=False`` field, no cached property) is copied
    here field by field (its ``__dict__`` or its slots) with the changes, which must be fields,
    as ``replace`` requires; any other class goes through ``replace`` itself. The new state is
    equal to what ``replace`` builds and shares the unchanged parts with ``state``, as it does.
    """
    cls: type = type(state)
    names, slots = _copy_plan(cls)
    if names is None:
        return dataclasses.replace(state, **changes)  # type: ignore[type-var]
    if not changes.keys() <= names:
        unknown = sorted(set(changes) - names)[0]
        raise TypeError(f"{type(state).__name__} has no field {unknown!r}")
    new = object.__new__(type(state))
    if slots:
        for name in slots:
            object.__setattr__(new, name, changes[name] if name in changes else getattr(state, name))
    else:
        attrs = new.__dict__
        attrs.update(state.__dict__)
        attrs.update(changes)
    return new


@functools.cache
def _copy_plan(cls: type) -> tuple[frozenset[str] | None, tuple[str, ...]]:
    """The field names of ``cls`` and, when it has slots, their order; None when only ``replace`` copies it."""
    if not dataclasses.is_dataclass(cls) or hasattr(cls, "__post_init__"):
        return None, ()
    names = tuple(f.name for f in dataclasses.fields(cls))
    # the generated __init__ takes exactly the fields (no InitVar, no init=False field)
    if tuple(inspect.signature(cls.__init__).parameters)[1:] != names:
        return None, ()
    if any(isinstance(v, functools.cached_property) for k in cls.__mro__ for v in vars(k).values()):
        return None, ()
    return frozenset(names), names if "__slots__" in vars(cls) else ()


# -- small validators shared by the games ----------------------------------

def require_int(action: Action, key: str, lo: int | None = None, hi: int | None = None) -> int:
    value = action.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError("\"{key}\" must be a whole number, not {value}.", key=key, value=json.dumps(value))
    if lo is not None and value < lo or hi is not None and value > hi:
        if lo is not None and hi is not None:
            raise RuleError("\"{key}\" must be between {lo} and {hi}, not {value}.", key=key, lo=lo, hi=hi, value=value)
        if lo is not None:
            raise RuleError("\"{key}\" must be at least {lo}, not {value}.", key=key, lo=lo, value=value)
        raise RuleError("\"{key}\" must be at most {hi}, not {value}.", key=key, hi=hi, value=value)
    return value


def require_choice(action: Action, key: str, choices: list[str] | tuple[str, ...]) -> str:
    value = action.get(key)
    if not isinstance(value, str) or value not in choices:  # the choices are names: a non-text is none of them
        raise RuleError("\"{key}\" must be one of {choices}, not {value}.", key=key, choices=", ".join(choices), value=json.dumps(value))
    return value


def require_bool(action: Action, key: str, default: bool | None = None) -> bool:
    value = action.get(key, default)
    if not isinstance(value, bool):
        raise RuleError("\"{key}\" must be true or false, not {value}.", key=key, value=json.dumps(value))
    return value


def require_player(action: Action, players: list[str] | tuple[str, ...], key: str = "player") -> str:
    value = action.get(key)
    if not isinstance(value, str) or value not in players:
        raise RuleError("There is no player {name} at this table.", name=json.dumps(value))
    return value
