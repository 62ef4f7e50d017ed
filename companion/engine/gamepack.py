"""What a game package gives every interface (docs/design.md, « Moves and their steps »: one package per game).

A game is one folder, ``companion/games/<game>/``, whose ``__init__.py``
defines ``GAME``, an instance of a :class:`GamePackage` subclass. The package
holds its pure rules (``rules.py``), its moves, its narration, its texts
(gettext catalogs in ``locale/``), its OLED screens, its page fragments
(``templates/``) and how the table's inputs map to its actions. The
controller, the web layer, the terminal table and the CLI name no game: they
call these methods, whose defaults here make a minimal game work everywhere.

A package is wired one way only, explicitly: its ``__init__`` lists its parts (:class:`Parts`: its
moves, its story, its results, its course, its table inputs…), as a boardgame.io game object lists
its moves, turn order and player view together, and overrides the methods whose answer is its own
(its screens, its page, its options). Nothing is found by a module's file name: a reader of a game's
``__init__`` sees every part it has.

Nothing here may import ``web`` or ``hw`` at module level; screens receive
a canvas, the table receives components (duck-typed: ``kind`` and ``value``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from companion.engine import course as engine_course
from companion.engine import moves as engine_moves
from companion.engine import results as engine_results
from companion.engine import texts
from companion.engine.rules import Action, Event, RuleError, Rules
from companion.engine.shapes import Form, Step


def _expected_step(form: Form, players: Any, actions: Any) -> Step:
    """A form's step when its package says none: "next" when the rules' ``expected`` names its
    type and its player (or the table's move), "also" for the rest and for moves allowed any time."""
    if form.get("anytime") or form["type"] not in actions:
        return "also"
    player = form.get("player")
    return "next" if player is None or not players or player in players else "also"


@dataclass(frozen=True, kw_only=True)
class Parts:
    """The functions a game package is made of, each named in its ``__init__`` (None: the game has none,
    and :class:`GamePackage`'s default answers). Every one is pure: it reads what it is given."""

    #: ``moves(state, lang) -> [form]``: every form that may be submitted now (:mod:`companion.engine.moves`)
    moves: Callable[[Any, str], list[Form]] | None = None
    #: ``narrate(before, action, events, after, lang) -> [sentence]``: what an action did
    narrate: Callable[[Any, Action, list[Event], Any, str], list[str]] | None = None
    #: ``describe(action, lang, viewer) -> line``: an action in a log or on an undo button (None: the default)
    describe: Callable[[Action, str, str | None], str | None] | None = None
    #: ``hand_off(event, lang) -> sentence(s)``: what the table must do by hand after an event ("" for none)
    hand_off: Callable[[Event, str], Any] | None = None
    #: ``results(state, lang, events) -> results``: the end of the game's results, its bonuses named
    results: Callable[[Any, str, list[Event]], dict[str, Any]] | None = None
    #: ``round_of(before, action, after) -> round``: the round an action belongs to in the story
    round_of: Callable[[Any, Action, Any], int | None] | None = None
    #: ``round_heading(number, lang) -> heading``: a round's heading in the story (« Turn 3 »)
    round_heading: Callable[[int, str], str] | None = None
    #: ``course(entries, lang) -> course``: the game's charts (:mod:`companion.engine.course`)
    course: Callable[[list[dict[str, Any]], str], dict[str, Any] | None] | None = None
    #: the wordings of the prompts on a seat's phone, action type -> message id: addressed to « you »,
    #: said to the table's tablet, and to « you » while the prompt names another player
    prompt_for_you: Mapping[str, str] = field(default_factory=dict)
    prompt_for_table: Mapping[str, str] = field(default_factory=dict)
    prompt_for_others: Mapping[str, str] = field(default_factory=dict)
    #: ``figure(key, value, lang) -> text``: a figure's value the game's way (« £900 »), None: as a number
    figure: Callable[[str, Any, str], str | None] | None = None
    #: the version of the rules a new game is journalled under, and ``migrate(actions, version, rules,
    #: players, options)``: a game's lines journalled under an earlier version, in today's vocabulary
    rules_version: int = 1
    migrate: Callable[..., list[tuple[int | None, Action]]] | None = None
    # -- the table's inputs: what a tag, a die or a seat button means (see GamePackage's methods)
    tag_action: Callable[[Any, str, Any, Any], Any] | None = None
    die_face: Callable[[int], Any] | None = None
    lane_action: Callable[[str, list[Any], Any], Action | None] | None = None
    at_timer_end: Callable[[Any, dict[str, list[Any]]], list[Action]] | None = None
    table_tags: Callable[[Action, Any], list[tuple[str, str, dict[str, Any]]] | None] | None = None
    component_kinds: Callable[[], dict[str, Any]] | None = None


class GamePackage:
    """One game as the interfaces see it. Subclass it in the game's package, and list its parts."""

    rules: Rules
    #: the folder of the package (for its catalogs and templates)
    folder: str = ""
    #: example seating for set-up pages (names, in seating order)
    example_players: ClassVar[tuple[str, ...]] = ("Ann", "Bob", "Cleo")
    #: the OLED screens Up/Down cycle through; the first is the usual one
    cycle: ClassVar[tuple[str, ...]] = ("prompt", "scores", "qr")
    #: action fields nobody but their author may see in the log (a vote's target)
    secret_fields: ClassVar[dict[str, tuple[str, ...]]] = {}
    #: actions the companion journals by itself (an undo takes them back with the one before)
    automatic: ClassVar[tuple[str, ...]] = ()
    #: per action type, the fields that name a seat that acts or pays (whose card is played, who gives):
    #: a phone may send the action only when every one of them present is its own seat; a type not
    #: listed names its acting seat in ``player`` alone
    seat_fields: ClassVar[dict[str, tuple[str, ...]]] = {}
    #: the most a finished game's result can hold, for a club league that takes results from tables it
    #: cannot trust: ``rounds`` on its course (the start aside), ``charts``, ``lines`` per chart, the
    #: ``score`` range of a player and the ``value`` range of a figure on a chart (each game narrows them)
    limits: ClassVar[dict[str, Any]] = {"rounds": 500, "charts": 24, "lines": 16, "score": (-10**6, 10**6),
                                        "value": (-10**6, 10**6)}
    #: public figures of the table as a whole worth a gauge of their own (keys of the public view, each
    #: with its English label): the club's status and Home Assistant's sensors show them
    gauges: ClassVar[dict[str, str]] = {}

    def __init__(self, rules: Rules, folder: str, parts: Parts | None = None) -> None:
        self.rules = rules
        self.folder = folder
        #: the functions the package is made of, as its ``__init__`` lists them
        self.parts = parts or Parts()
        #: the package's import name (``companion.games.auction``)
        self.package_name = type(rules).__module__.rsplit(".", 1)[0]
        localedir = os.path.join(folder, "locale")
        if os.path.isdir(localedir):
            texts.register(self.domain, localedir)

    # -- versions of the rules (see companion/table/migrations.py) -----------------------------
    @property
    def rules_version(self) -> int:
        """The version of the rules a new game is journalled under (its parts' ``rules_version``; 1 by default)."""
        return self.parts.rules_version

    def migrate(self, actions: list[Action], version: int, players: list[str],
                options: dict[str, Any]) -> list[tuple[int | None, Action]] | None:
        """A game's lines journalled under an earlier ``version``, in today's vocabulary (each with the index
        of the line it translates, None for a line added); None when the package has no migration."""
        fn = self.parts.migrate
        return fn(actions, version, self.rules, players, options) if fn else None

    # -- identity and texts -------------------------------------------------------
    @property
    def id(self) -> str:
        return self.rules.id

    @property
    def domain(self) -> str:
        """The gettext domain of the game's catalogs."""
        return self.rules.id

    def t(self, msgid: str, lang: str = "en", **params: Any) -> str:
        """A text of this game in ``lang``."""
        return texts.render(msgid, params, lang, self.domain)

    def title(self, lang: str = "en") -> str:
        return self.t(self.rules.name, lang)

    def term(self, word: Any, lang: str = "en") -> str:
        """A game word (an animal, a colour, a direction) in ``lang``; unknown words as they are."""
        return self.t(str(word), lang) if isinstance(word, str) else str(word)

    def error_text(self, err: RuleError, lang: str = "en") -> str:
        return err.text(lang, self.domain)

    def phase_label(self, public: dict[str, Any], lang: str = "en") -> str:
        """The phase in the table's words ("bidding" / « enchères »), "" when the game has none."""
        phase = public.get("phase")
        return self.t(str(phase).replace("_", " "), lang) if phase else ""

    def outcome_text(self, state: Any, lang: str = "en") -> str:
        """Why the game ended, in ``lang`` ("" while it goes on)."""
        outcome = self.rules.outcome(state)
        return outcome.sentence(lang, self.domain) if outcome is not None else ""

    def prompt(self, state: Any, lang: str = "en") -> str:
        """What the game expects now, as a sentence in ``lang``."""
        return self.rules.expected(state).text(lang, self.domain)

    # -- moves and narration ---------------------------------------------------------
    def moves(self, state: Any, lang: str = "en") -> list[Form]:
        """Every form that may be submitted now, each naming its player (None: the table's).

        See :mod:`companion.engine.moves` for the shape. Interfaces filter it by seat
        with :func:`companion.engine.moves.for_seat`. Every form carries its ``step`` and the
        list is in step order (next, also, override), which every interface follows. A digital draw
        (:meth:`draws`) is carried by the form it fills (``draw``), with that form's step.
        """
        fn = self.parts.moves
        if fn is None:
            return []
        offered = fn(state, lang)
        if any("step" not in f for f in offered):
            expected = self.rules.expected(state)
            for f in offered:
                f.setdefault("step", _expected_step(f, expected.players, expected.actions))
        return engine_moves.with_draws(engine_moves.ordered(offered), self.draws() or {}, lambda msgid: self.t(msgid, lang))

    def narrate(self, before: Any, action: Action, events: list[Event], after: Any, lang: str = "en") -> list[str]:
        """The sentences that tell what ``action`` did (one or more), in ``lang``."""
        fn = self.parts.narrate
        return fn(before, action, events, after, lang) if fn else []

    def describe(self, action: Action, lang: str = "en", viewer: str | None = None) -> str:
        """A short line for an action in a log or an undo button ("Ann bids £300 on North")."""
        fn = self.parts.describe
        line = fn(action, lang, viewer) if fn else None
        if line:
            return line
        kind = str(action.get("type", "?"))
        who = action.get("player")
        label = self.t(kind.replace("_", " "), lang)
        return f"{who}: {label}" if who else label

    def hand_off(self, event: Event, lang: str = "en") -> list[str]:
        """What the table must do by hand after ``event`` (« Deal Dan's 4 cards: 2 to Ann, 2 to Cleo »),
        as the game's story says it; none when the package has no such part or the event asks nothing."""
        fn = self.parts.hand_off
        said = fn(event, lang) if fn else None
        return [str(x) for x in ([said] if isinstance(said, str) else list(said or [])) if x]

    def figure(self, key: str, value: Any, lang: str = "en") -> str | None:
        """A figure's value written the game's way (money with its sign, « £900 »), None: as a number."""
        fn = self.parts.figure
        return fn(key, value, lang) if fn else None

    def seats_in(self, action: Action) -> dict[str, Any]:
        """The seat-bearing fields ``action`` fills in (``seat_fields``, else ``player``): field → value."""
        fields = self.seat_fields.get(str(action.get("type", "")), ("player",))
        return {f: action[f] for f in fields if f in action}

    def redact(self, action: Action, viewer: str | None) -> Action:
        """``action`` as ``viewer`` may see it: secret fields of others' actions hidden."""
        hidden = self.secret_fields.get(str(action.get("type", "")), ())
        if not hidden or (viewer is not None and action.get("player") == viewer):
            return action
        return {k: ("hidden" if k in hidden else v) for k, v in action.items()}

    # -- the OLED ---------------------------------------------------------------------
    def screens(self) -> dict[str, Callable[..., None]]:
        """Screens of this game by name: ``fn(canvas, public_state, ctx)``."""
        return {}

    def choose_screen(self, public: dict[str, Any], ctx: Any) -> str | None:
        """The screen the table wants for this state (None: the generic choice)."""
        return None

    def screen_data(self, state: Any, lang: str = "en") -> dict[str, Any]:
        """Extras a screen needs beyond the public state (the acting player's costs)."""
        return {}

    # -- the table's inputs --------------------------------------------------------------
    def tag_action(self, component: Any, point: str, state: Any, entry: dict[str, Any] | None = None
                   ) -> Action | dict[str, Any] | None:
        """What a tagged component laid on ``point`` means now.

        ``entry`` is the move being dialled in on the table, if any:
        ``{"type", "player", "values"}`` (a ball drawn during a wood gamble counts there).

        An action to send (``{"type": ...}``), or ``{"fill": {field: value}}`` to
        fill fields of the move being dialled in (an animal token, a ball drawn
        for a wood gamble), or None when it means nothing now (the table says so).
        """
        fn = self.parts.tag_action
        return fn(component, point, state, entry) if fn else None

    def die_face(self, face: int) -> Any:
        """The value of a die read by the firmware as face ``face`` (1-6)."""
        fn = self.parts.die_face
        return fn(face) if fn else face

    def lane_action(self, seat_player: str, lanes: list[Any], state: Any) -> Action | None:
        """The action a seat button sends when dice lie in that seat's lanes (a dice plan)."""
        fn = self.parts.lane_action
        return fn(seat_player, lanes, state) if fn else None

    def at_timer_end(self, state: Any, lanes: dict[str, list[Any]]) -> list[Action]:
        """What the table sends by itself at the sand's end: each seat's lanes as they lie (a plan).

        ``lanes``: player → the values lying in his lanes, in slot order.
        """
        fn = self.parts.at_timer_end
        return list(fn(state, lanes) or []) if fn else []

    def table_tags(self, action: Action, state: Any = None) -> list[tuple[str, str, dict[str, Any]]] | None:
        """How a table enters ``action`` with tags: [(reader point, component kind, value)], or None.

        Used by ``companion replay --via table`` (and the docs): the components
        are enrolled for the occasion and laid on the simulated readers.
        """
        fn = self.parts.table_tags
        return fn(action, state) if fn else None

    def component_kinds(self) -> dict[str, Any]:
        """The tagged components of this game (kind → description of its value) for enrolment."""
        fn = self.parts.component_kinds
        return fn() if fn else {}

    # -- the dashboard ---------------------------------------------------------------------
    def templates(self) -> str | None:
        """The folder of this game's page fragments (``picture.html``, ``players.html``, ``seat.html``)."""
        path = os.path.join(self.folder, "templates")
        return path if os.path.isdir(path) else None

    def palette(self) -> dict[str, dict[str, str]]:
        """The pieces' own colours for the pictures: ``{"fill": {piece: css}, "ink": {piece: css}}``."""
        return {"fill": {}, "ink": {}}

    def page(self, state: Any, public: dict[str, Any], me: str | None, lang: str = "en") -> dict[str, Any]:
        """Extras the page fragments read (an island picture, costs, odds)."""
        return {}

    def draws(self) -> dict[str, dict[str, Any]]:
        """What the companion may draw digitally when a component is missing.

        ``what → {"fn": fn, "player": bool, "action": type, "label": msgid}``:
        ``fn(state, rng, player)`` returns the action to journal (``player`` None when the
        draw is the table's); ``player``: whether a draw is for one player; ``action``: the
        action type it produces; ``label``: the button's text (a message id of the game's catalog).
        A draw is not a move of its own: :meth:`moves` puts it on the form of its ``action``
        (``draw``), so it is offered exactly when that move is, with that move's step and question.
        """
        return {}

    def setup_helpers(self, seed: int) -> dict[str, Any]:
        """Set-up help for the table (a random island, a shuffled deck)."""
        return {}

    def option_specs(self, lang: str = "en") -> list[dict[str, Any]]:
        """The readings a table chooses at set-up, each with its default shown:
        ``[{"name", "label", "choices": [{"value", "label"}], "default", "note"}]``
        (``note``: the rulebook's sentence it reads, or why the default)."""
        return []

    def default_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """Options completed before a new game starts (a seed turned into a layout)."""
        return options

    # -- the table's ribbon, story and results -----------------------------------------
    def turn(self, state: Any, public: dict[str, Any]) -> dict[str, Any]:
        """Who acts now, who next, who holds the start player's figure (see :func:`companion.engine.results.turn`).

        The turn order is the rules' (:meth:`Rules.expected`: ``next``, ``start``, ``table_next``), never
        worked out again here or in a package's results.
        """
        return engine_results.turn(public, self.rules.expected(state))

    def round_of(self, before: Any, action: Action, after: Any) -> int | None:
        """The round an action belongs to in the story (the one it was played in, by default).

        A package whose round starts with an action (a weather card turned) says so in its part
        ``round_of(before, action, after)``.
        """
        fn = self.parts.round_of
        if fn:
            return fn(before, action, after)
        rnd = getattr(before, "round", None)
        if isinstance(rnd, int) and not isinstance(rnd, bool):
            return rnd
        rnd = self.rules.view(before).get("round")
        return rnd if isinstance(rnd, int) else None

    def round_heading(self, number: int, lang: str = "en") -> str:
        """A round's heading in the story (« Round 3 »; a solo game's part ``round_heading`` says « Turn 3 »)."""
        fn = self.parts.round_heading
        return fn(number, lang) if fn else texts.render("Round {n}", {"n": number}, lang)

    def results(self, state: Any, lang: str = "en", events: list[Event] | None = None) -> dict[str, Any] | None:
        """The end-of-game results (ranking, end bonuses, the tie-break), None while the game goes on.

        A package's part ``results(state, lang, events)`` gives its end bonuses (``events``: every
        event of the game, oldest first, when the caller has the journal: who won which bonus tile);
        the default ranks the scores and quotes the outcome (shape: :func:`companion.engine.results.results`).
        """
        if self.rules.outcome(state) is None:
            return None
        fn = self.parts.results
        if fn:
            return fn(state, lang, events or [])
        return engine_results.results(self.rules.public_state(state), self.outcome_text(state, lang), lang)

    def course(self, entries: list[dict[str, Any]], lang: str = "en") -> dict[str, Any] | None:
        """The course of the game (:mod:`companion.engine.course`) from the story's ``entries``; None when the
        package has no part ``course(entries, lang)`` or there is nothing played yet."""
        fn = self.parts.course
        if fn is None or not entries:
            return None
        out = fn(entries, lang)
        return engine_course.complete(out, lang) if out else None

    # -- secrets at undo, acting for a seat, tournaments ---------------------------------
    def undo_refusal(self, before: Any, action: Action, after: Any, by_table: bool, lang: str = "en") -> str | None:
        """Why undoing ``action`` (played on ``before``, giving ``after``) is refused, or None.

        A game whose secret came out with this action (a ballot revealed) refuses a seat's
        undo, so that nobody re-votes knowing the others' votes.
        """
        return None

    def undo_span(self, before: Any, action: Action, after: Any, by_table: bool) -> int:
        """How many of the newest journal actions an undo of ``action`` takes back (1: only it);
        a game may take back the whole ballot ``action`` revealed."""
        return 1

    def undo_notice(self, before: Any, action: Action, lang: str = "en") -> str | None:
        """What every screen says after that undo (why everyone votes again), or None."""
        return None

    def table_may_act(self, action: Action, phone_held: bool) -> bool:
        """May the table send ``action`` for its player, whose seat is held by a phone or not?

        Never a secret move (a vote) for a seat that has a phone; other moves for such a seat
        only through an explicit « act for », which the interfaces ask for and the log shows.
        """
        return not (phone_held and str(action.get("type", "")) in self.secret_fields)

    def match_totals(self, records: list[dict[str, Any]]) -> dict[str, Any] | None:
        """A tournament's running totals from its games (``public_state`` of each, with ``options``),
        or None when the game has no tournaments or the records are not one match."""
        return None

    def next_manche(self, options: dict[str, Any], public: dict[str, Any]) -> dict[str, Any] | None:
        """The options of the next game of this game's match, or None when the match is over or there is none."""
        return None


# -- helpers for a package's table inputs ---------------------------------------------

def component_value(component: Any) -> dict[str, Any]:
    """A tagged component's value object (``{}`` when it has none)."""
    value = getattr(component, "value", None)
    return value if isinstance(value, dict) else {}


def dialled(entry: Any) -> tuple[str | None, dict[str, Any]]:
    """(type, values) of the move being dialled in, as ``tag_action`` receives it (a dict or None)."""
    if entry is None:
        return None, {}
    if isinstance(entry, dict):
        return entry.get("type"), dict(entry.get("values") or {})
    form = getattr(entry, "form", None) or {}
    return form.get("type"), dict(getattr(entry, "values", None) or {})
