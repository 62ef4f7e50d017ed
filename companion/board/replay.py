"""``companion replay FILE --via table``: a script played through the simulated table only.

No phone and no API: every line is entered as a table would enter it, with
button presses, encoder turns and tags laid on simulated readers (enrolled in
a tag registry for the occasion), through the real :class:`TableController`.
Where the game package says an action is entered with components
(``GamePackage.table_tags``: a tile on a square, a weather card, dice in a
seat's lanes), they are laid first; what they leave open is dialled in: the
seat button, the encoder through the moves, OK. Actions the companion
journals by itself (the sand running out) happen by letting time pass.

It succeeds when the final public state equals what ``companion script``
prints for the same file, and otherwise names the first line it could not enter.
"""

from __future__ import annotations

import os
import tempfile
from typing import Any

from companion.board.controller import TableController
from companion.board.dial import END
from companion.engine import audit, moves
from companion.table.journal import Journal
from companion.table.session import Session
from hw.events import ButtonEvent, EncoderEvent, TagEvent
from hw.oled import open_oled
from hw.tags import Component, TagRegistry


class _Clock:
    """Time the replay moves forward itself (both the monotonic clock and the wall clock)."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


class TableReplay:
    """One game on a simulated table, driven only through its devices."""

    def __init__(self, game: str, players: list[str], options: dict[str, Any], folder: str) -> None:
        self.clock = _Clock()
        self.journal = Journal(os.path.join(folder, "replay.db"))
        self.session = Session.new(self.journal, game, players, options, clock=self.clock, wall=self.clock)
        self.registry = TagRegistry(os.path.join(folder, "tags.db"))
        self.oled = open_oled("dummy")
        self.ctl = TableController(self.session, self.oled, registry=self.registry, clock=self.clock)
        self.pkg = self.ctl.package
        self._uids = 0
        self.presses = 0

    def close(self) -> None:
        self.ctl.close()
        self.session.close()
        self.registry.close()
        self.journal.close()

    # -- the devices --------------------------------------------------------------
    def press(self, name: str) -> None:
        self.presses += 1
        self.ctl.handle(ButtonEvent(name))
        if name == "ok" and self.ctl.entry is not None and self.ctl.entry.confirming is not None:
            self.presses += 1  # the screen asks (a move that spends, ends a turn, overrides): OK again sends
            self.ctl.handle(ButtonEvent("ok"))

    def turn(self, delta: int) -> None:
        self.ctl.handle(EncoderEvent(delta))

    def lay(self, point: str, kind: str, value: dict[str, Any]) -> str:
        self._uids += 1
        uid = f"04{self._uids:012X}"
        self.registry.enrol(uid, self.session.game, Component(kind, dict(value)))
        self.ctl.handle(TagEvent(point, uid, True))
        return uid

    # -- entering one action --------------------------------------------------------
    def enter(self, action: dict[str, Any]) -> str | None:
        """Enter ``action`` through the table; None when it was journaled, else why not."""
        before = self.session.version
        if action.get("type") in self.pkg.automatic:
            return self._let_time_pass(before)
        laid: list[tuple[str, str]] = []
        for point, kind, value in self.pkg.table_tags(action, self.session.state) or []:
            laid.append((point, self.lay(point, kind, value)))
            if self.ctl.entry is not None and self.ctl.entry.confirming is not None:
                self.press("ok")  # a component that completes a move asking first: the second OK
        if self.session.version == before and laid and action.get("player") in self.session.players:
            self._seat(action["player"])  # e.g. dice laid in a seat's lanes: its button sends them
        why = None if self.session.version > before else self._dial(action)
        for point, uid in laid:
            self.ctl.handle(TagEvent(point, uid, False))
        if why is not None:
            return why
        if self.session.version != before + 1:
            return "the table did not journal exactly one action"
        return None

    def _let_time_pass(self, before: int) -> str | None:
        for _ in range(3):
            self.clock.now += 3600.0
            self.ctl.tick()
            if self.session.version > before:
                return None
        return "the companion did not journal it by itself when time passed"

    def _seat(self, player: str) -> None:
        self.press(f"seat{self.session.players.index(player) + 1}")

    def _dial(self, action: dict[str, Any]) -> str | None:
        ctl = self.ctl
        start = self.session.version
        if ctl.entry is not None and ctl.entry.touched and not self._is(ctl.entry.form, action):
            self.press("back")  # an edited entry of another move: clear it
        if len(self.session.players) > 1 and action.get("player") in self.session.players and ctl.player != action["player"]:
            self._seat(action["player"])
        if ctl.entry is None and ctl.overrides:
            self.turn(1)  # only corrections are offered: the dial rests on none, a turn reaches them
        entry = ctl.entry
        if entry is None:
            return "the dial offers no move now"
        for _ in range(len(entry.forms) + 1):
            if self._is(ctl.entry.form, action):
                break
            self.turn(1)
        else:
            return f"the dial does not offer {action.get('type')!r} for {action.get('player', 'the table')}"
        i = 0
        while self.session.version == start:
            entry = ctl.entry
            fields = entry.fields()
            if i >= len(fields):
                break
            f = fields[i]
            while entry.cursor != i + 1:
                self.press("down")
            why = self._set(f, action)
            if why:
                return why
            i += 1
        if self.session.version == start:
            self.press("ok")
        if self.session.version == start:
            return f"OK did not send it: {ctl.message or 'nothing happened'}"
        return None

    @staticmethod
    def _is(form: dict[str, Any], action: dict[str, Any]) -> bool:
        return form["type"] == action.get("type") and form.get("player") == action.get("player", form.get("player") if form.get("player_optional") else None)

    def _set(self, f: dict[str, Any], action: dict[str, Any]) -> str | None:
        entry = self.ctl.entry
        name = f["name"]
        if name not in action:
            return None if f.get("optional") else f"the line leaves out {name!r}, which the dial needs"
        want = action[name]
        kind = moves.kind_of(f)
        if kind == "items":
            for item in want:
                if not self._turn_until(lambda item=item: entry.pending is not None and entry.pending is not END
                                        and moves.same(entry.pending, item), 200):
                    return f"the dial does not offer {item!r} for {name!r}"
                self.press("ok")
            if not self._turn_until(lambda: entry.pending is END, 200):
                return f"the dial cannot end {name!r} there"
            self.press("ok")
            return None
        if kind == "range" and isinstance(want, int) and not isinstance(want, bool):
            self.turn(1)
            for _ in range(10_000):
                have = entry.values.get(name)
                if moves.same(have, want):
                    return None
                step = 1 if isinstance(have, int) and have < want else -1
                self.turn(step)
                if moves.same(entry.values.get(name), have):
                    break
            return f"the dial cannot reach {name}={want!r}"
        want = self._canonical(f, want)
        for equal in (moves.same, _same_move):  # the script's own spelling, else the same move spelt otherwise
            if self._turn_until(lambda equal=equal: name in entry.values and equal(entry.values[name], want),
                                len(f.get("choices", [])) + 2):
                return None
        return f"the dial does not offer {name}={want!r}"

    def _canonical(self, f: dict[str, Any], want: Any) -> Any:
        """The value the dial shows for ``want`` when the script spells it as an alias (a path from the pawn)."""
        full = next((x for form in self.pkg.moves(self.session.state) for x in _walk_fields(form)
                     if x["name"] == f["name"] and "choices" in x), None)
        if full is None:
            return want
        hit = next((c for c in full["choices"] if c.get("alias") and moves.same(c["value"], want)), None)
        return hit.get("canonical", want) if hit else want

    def _turn_until(self, done: Any, limit: int) -> bool:
        for _ in range(limit + 1):
            if done():
                return True
            self.turn(1)
        return done()


def _walk_fields(node: dict[str, Any]) -> list[dict[str, Any]]:
    """Every field of a form, those under its choices included."""
    out = []
    for f in node.get("fields") or []:
        out.append(f)
        for c in f.get("choices") or []:
            out.extend(_walk_fields(c))
    return out


def _same_move(have: Any, want: Any) -> bool:
    """Two spellings of one value: a list in another order, a number written as text."""
    if isinstance(have, list) and isinstance(want, list):
        return sorted(map(moves.canon, have)) == sorted(map(moves.canon, want))
    return not isinstance(have, bool) and not isinstance(want, bool) and str(have) == str(want)


def replay_via_table(lines: list[str]) -> dict[str, Any]:
    """Play the script through the simulated table; the report says where it stopped, if it did."""
    pkg, _, walk = audit.replay(lines)
    header = audit.decode_line(next(raw for raw in lines if raw.strip()))
    accepted = []
    expected_state = None
    for line in walk:
        if line.error is not None:
            expected_state = pkg.rules.public_state(line.before)
            break
        accepted.append(line)
    if expected_state is None:
        expected_state = pkg.rules.public_state(accepted[-1].after) if accepted else None
    with tempfile.TemporaryDirectory(prefix="companion-replay-") as folder:
        table = TableReplay(header["game"], header["players"], header.get("options", {}), folder)
        try:
            if expected_state is None:
                expected_state = pkg.rules.public_state(table.session.state)
            rules = pkg.rules
            for line in accepted:
                why = table.enter(line.action)
                if why is None and rules.fingerprint(table.session.state) != rules.fingerprint(line.after):
                    why = f"the table journaled {table.session.history(1)[-1].action}, which is another move"
                if why is not None:
                    return {"ok": False, "line": line.number, "action": line.action, "why": why,
                            "entered": line.number - 1}
            final = pkg.rules.public_state(table.session.state)
            same = final == expected_state
            return {"ok": same, "lines": len(accepted), "presses": table.presses,
                    **({} if same else {"why": "the final state differs from companion script's"})}
        finally:
            table.close()
