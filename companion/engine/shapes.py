"""The fixed shapes every interface reads: actions' common fields, forms, fields, choices, previews.

docs/design.md (« Moves and their steps ») fixes these shapes; here they are types a
checker holds the engine and the table to (``make test`` runs mypy on both, see
``[tool.mypy]`` in pyproject.toml). They are plain dicts at run time (a ``TypedDict`` is a
``dict``), so the JSON the API sends and the scripts' lines are these values as they are.

What a value may hold is JSON (:data:`Json`), never ``Any``: a choice's value is what the
action's field will be, and an action is what the journal keeps.
"""

from __future__ import annotations

from typing import Literal, Required, TypedDict

#: a JSON value: what an action's field, a choice's value or a preview's figure may be
Json = str | int | float | bool | None | list["Json"] | dict[str, "Json"]

#: an action as submitted and journalled: ``{"type": ..., "player": ..., <the game's fields>}``
Action = dict[str, Json]

#: a preview is data (``{"cost": 1000}``, ``{"food": [7, 9]}``) with its few words under ``"text"``
Preview = dict[str, Json]

#: where a form stands in the flow (docs/design.md, « Moves and their steps »)
Step = Literal["next", "also", "override"]


class ActionHead(TypedDict, total=False):
    """The fields every action shares, whatever the game: its type, and who it names."""

    type: Required[str]
    player: str | None


class Choice(TypedDict, total=False):
    """One legal value of a field, its label and preview; ``disabled`` holds why the rules refuse it."""

    value: Required[Json]
    label: Required[str]
    preview: Required[Preview | None]
    disabled: Required[str | None]
    #: the fields that follow when this value is chosen
    fields: list[Field]
    #: another spelling ``apply`` accepts: the audit counts it, screens show the move once
    alias: bool


class Items(TypedDict, total=False):
    """An items field's spec: ``min``..``max`` values among ``choices``."""

    choices: Required[list[Choice]]
    min: Required[int]
    max: Required[int]
    distinct: Required[bool]
    #: value → most times
    limits: dict[str, int]


class Field(TypedDict, total=False):
    """A form's field: choices (``choices``), a range (``min``, ``max``, ``step``) or items (``items``)."""

    name: Required[str]
    label: Required[str]
    choices: list[Choice]
    min: int
    max: int
    step: int
    preview: Preview | None
    items: Items
    #: the value an interface preselects (without it, nothing is)
    default: Json
    #: the action may leave the field out
    optional: bool


class Draw(TypedDict):
    """A digital draw that fills a move's fields (dice thrown, the next weather card turned) when a
    component is missing: the package's ``draws()`` key and the button's words. It has no step of
    its own: it is a way of entering the form that carries it."""

    what: str
    label: str


class Form(TypedDict, total=False):
    """One action a seat may submit now, as its fields to fill (``companion.engine.moves``)."""

    type: Required[str]
    player: Required[str | None]
    label: Required[str]
    fields: Required[list[Field]]
    confirm: Required[bool]
    step: Step
    #: an override asks first: the question
    ask: str
    preview: Preview | None
    alias: bool
    #: legal at any time (an exchange): "also" unless the package says otherwise
    anytime: bool
    #: keys a package adds for its screens, carried as they are
    ends_turn: bool
    last: bool
    first: bool
    player_optional: bool
    round: int
    #: a digital draw fills this move's fields (its step and question are this form's)
    draw: Draw
