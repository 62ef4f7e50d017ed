"""Fixing mistakes, for any game: what an undo moves back, and the history to edit.

An undo dialog that only says « Undo the last action? » makes people guess what
they are about to lose. Here the state before and after the undo are compared
through the game's *public* view for the reader (never a secret of another
seat), so the dialog can say « Bob's money: 700 → 1000 », « bag: 2 → 3 »,
« Ann: alive again », in the game's own words (its catalog), whatever the game.
Nothing here names a game: the figures are read from ``public_state``.
"""

from __future__ import annotations

from threading import Lock
from typing import Any

from companion import games
from companion.engine import texts
from companion.engine.rules import RuleError
from companion.table import extras, secrecy
from companion.table.session import Session

#: public keys that are not figures a player would call « what moves back » (bookkeeping, derived odds,
#: the whole island's layout, who is expected: the prompt says that)
SKIP = frozenset({
    "game", "id", "version", "timer_remaining", "expected", "outcome", "over", "winners", "odds", "layout",
    "options", "match", "prompt", "players", "timer", "timer_seconds", "timer_turned_by", "deck_warning",
    "allowed", "start", "space_counts", "cards_used", "hand", "shared_field", "count",
})
#: a public key read as a word: the key the catalogs know it by
WORDS = {"scores": "score", "free_money": "money left to bid", "bid_totals": "bids", "can_vote": "allowed to vote"}
#: at most this many sentences; the rest is counted
MOST = 8

_cache: dict[tuple[Any, ...], dict[str, Any]] = {}
_lock = Lock()


def undo_preview(session: Session, viewer: str | None, lang: str = "en", by_table: bool = True) -> dict[str, Any]:
    """What the next undo takes back: ``{"what": line, "back": [sentences]}`` (empty when nothing).

    ``what`` is the package's ``describe`` of the person's action (redacted for ``viewer``);
    ``back`` the figures that change, from the public views before and after.
    """
    history = session.history()
    stamp = (session.id, len(history), history[-1].seq if history else 0, viewer, lang, by_table)
    with _lock:
        hit = _cache.get(stamp)
    if hit is not None:
        return hit
    out: dict[str, Any] = {"what": "", "back": []}
    cut = extras.undo_cut(session, by_table)
    if cut is not None:
        pkg = games.package(session.game)
        rules = session.rules
        state = session.state_before(cut)  # what the undo goes back to, from the session's replay
        action = history[cut].action if cut < len(history) else None
        out["what"] = describe(pkg, action, viewer, lang) if action else ""
        out["back"] = changes(session.game, rules.public_state(session.state, viewer),
                              rules.public_state(state, viewer), lang)
    with _lock:
        if len(_cache) > 256:
            _cache.clear()
        _cache[stamp] = out
    return out


def describe(pkg: Any, action: dict[str, Any], viewer: str | None, lang: str) -> str:
    """The package's line for ``action`` as ``viewer`` may see it; a failing narration never hides the page."""
    shown = pkg.redact(action, viewer)
    try:
        return pkg.describe(shown, lang, viewer)
    except Exception:  # a narration bug: the action's type and player still say what it was
        kind = str(shown.get("type", "?")).replace("_", " ")
        return f"{shown['player']}: {kind}" if shown.get("player") else kind


# -- the figures that differ between two public views --------------------------------------------

def changes(game: str, now: dict[str, Any], then: dict[str, Any], lang: str = "en") -> list[str]:
    """Sentences for every figure that differs from ``now`` to ``then`` (both public views).

    Per player first (the ``players`` entries, and top-level maps keyed by player names),
    then the table's figures; a player's figure equal in change to one already said
    (the points and the score) is said once.
    """
    pkg = games.package(game)
    word = Words(pkg, lang)
    names = [str(p.get("name")) for p in now.get("players", []) if isinstance(p, dict)]
    mine: dict[str, list[tuple[str, Any, Any]]] = {n: [] for n in names}
    before = {p.get("name"): p for p in then.get("players", []) if isinstance(p, dict)}
    for p in now.get("players", []):
        other = before.get(p.get("name"))
        if isinstance(other, dict):
            for key in p:
                if key != "name" and key in other:
                    mine[p["name"]].append((key, p[key], other[key]))
    table: list[tuple[str, Any, Any]] = []
    for key, value in now.items():
        if key in SKIP or key not in then:
            continue
        if isinstance(value, dict) and value and set(value) <= set(names) and isinstance(then[key], dict):
            for n in value:
                mine[n].append((key, value[n], then[key].get(n)))
        else:
            table.append((key, value, then[key]))
    out: list[str] = []
    players_said: set[tuple[str, str]] = set()  # (figure, change): a one-player game's figures are the table's too
    for name in names:
        said: set[str] = set()
        for key, old, new in mine[name]:
            for label, change in figure_change(word, key, old, new):
                if change not in said:
                    said.add(change)
                    players_said.add((label, change))
                    out.append(_said(word, label, change, name))
    for key, old, new in sorted(table, key=lambda kon: not isinstance(kon[1], int | float | dict)):
        out.extend(_said(word, label, change, None) for label, change in figure_change(word, key, old, new)
                   if (label, change) not in players_said)
    if len(out) > MOST:
        rest = len(out) - (MOST - 1)
        out = out[:MOST - 1] + [texts.render("… and {n} more changes", {"n": rest}, lang)]
    return out


class Words:
    """A figure's name and value in the game's words: its catalog first, then the interface's."""

    def __init__(self, pkg: Any, lang: str) -> None:
        self.pkg, self.lang = pkg, lang
        #: the package's own way to write a figure's value (« £300 » for money), when it has one:
        #: its part ``figure(key, value, lang) -> str | None``
        self.figure = getattr(pkg, "figure", None)

    def label(self, key: str) -> str:
        return self.term(WORDS.get(key, key))

    def term(self, word: Any) -> str:
        if isinstance(word, bool) or word is None:
            return "—" if word is None else self.say("yes" if word else "no")
        if isinstance(word, float):
            return f"{word:g}"
        if not isinstance(word, str):
            return str(word)
        return self.say(word.replace("_", " "))

    def say(self, msgid: str) -> str:
        text = self.pkg.t(msgid, self.lang)
        if text == msgid and self.lang != "en":
            text = texts.gettext_(msgid, self.lang)
        return text

    def values(self, value: Any) -> str:
        if isinstance(value, list | tuple):
            return ", ".join(self.term(v) for v in value) if value else self.say("none")
        return self.term(value)

    def value(self, key: str, value: Any) -> str:
        """A figure's value, written the game's way where the package says how (money with its sign)."""
        if self.figure is not None and isinstance(value, int | float) and not isinstance(value, bool):
            try:
                shown = self.figure(key, value, self.lang)
            except Exception:  # a package's formatting must never hide the undo dialog
                shown = None
            if shown:
                return str(shown)
        return self.values(value)

    def line(self, msgid: str, **params: Any) -> str:
        return texts.render(msgid, params, self.lang)


def figure_change(word: Words, key: str, old: Any, new: Any) -> list[tuple[str, str]]:
    """(figure, change) for one figure going from ``old`` (now) back to ``new`` (after the undo).

    The change is « 700 → 1000 », « black 1 → 0; white 1 → 0 » for a map, or the
    marker :data:`AGAIN` / :data:`NO_LONGER` for a yes/no figure (« alive again »).
    """
    if old == new:
        return []
    label = word.label(key)
    if isinstance(old, dict) and isinstance(new, dict):
        parts = [f"{word.term(kind)} {word.values(old[kind])} → {word.values(new[kind])}" for kind in old
                 if kind in new and old[kind] != new[kind] and plain(old[kind]) and plain(new[kind])]
        return [(label, "; ".join(parts))] if parts else []
    if isinstance(old, bool) and isinstance(new, bool):
        return [(label, AGAIN if new else NO_LONGER)]
    if not (plain(old) and plain(new)):
        return []  # lists of records (the bids): the action's own line says it
    return [(label, f"{word.value(key, old)} → {word.value(key, new)}")]


#: the change of a yes/no figure that comes back (« Ann: alive again ») or goes (« no longer sick »)
AGAIN, NO_LONGER = "\0again", "\0no longer"


def _said(word: Words, label: str, change: str, player: str | None) -> str:
    if change in (AGAIN, NO_LONGER):
        if player is None:
            return word.line("{figure} again" if change == AGAIN else "no longer {figure}", figure=label)
        msgid = "{player}: {figure} again" if change == AGAIN else "{player}: no longer {figure}"
        return word.line(msgid, player=player, figure=label)
    if player is None:
        return word.line("{figure}: {change}", figure=label, change=change)
    return word.line("{player}'s {figure}: {change}", player=player, figure=label, change=change)


def plain(value: Any) -> bool:
    """A value said in a few words: a number, a word, or a short list of them."""
    if isinstance(value, list | tuple):
        return len(value) <= 8 and all(not isinstance(v, dict | list | tuple) for v in value)
    return not isinstance(value, dict)


# -- the history the tablet edits ----------------------------------------------------------------

def _machine(entry: Any) -> bool:
    """The companion journalled it by itself (the sand's expiry, the dice in the lanes): set when written."""
    return entry.author.auto


def history(session: Session, lang: str = "en") -> list[dict[str, Any]]:
    """Every action in play, oldest first, as the tablet lists it for editing.

    Each row: ``seq``, ``n`` (its place, 1 = the first), ``round`` and its ``heading`` (« Round 2 »: the
    tablet's list is grouped by rounds), ``text`` (the package's line, secrets
    hidden), ``source``, and ``edit`` / ``remove``: None when allowed, else the one sentence
    saying why not (a revealed ballot after it, a phone's secret move, the sand's expiry).
    """
    pkg = games.package(session.game)
    steps = session.steps()  # the session's replay: the states around each action
    entries = [step.entry for step in steps]
    rows: list[dict[str, Any]] = []
    reveals: list[str | None] = []
    for n, step in enumerate(steps, start=1):
        entry, state, after = step.entry, step.before, step.after
        reveals.append(pkg.undo_refusal(state, entry.action, after, False, lang))
        try:
            rnd = pkg.round_of(state, entry.action, after)
        except Exception:  # a round the package cannot tell goes with the one before
            rnd = rows[-1]["round"] if rows else None
        rows.append({"seq": entry.seq, "n": n, "round": rnd,
                     "heading": pkg.round_heading(rnd, lang) if isinstance(rnd, int) else "",
                     "text": describe(pkg, entry.action, None, lang),
                     "source": entry.source, "author": entry.author.to_json(), "edit": None, "remove": None})
    blocked = None
    for i in range(len(rows) - 1, -1, -1):
        blocked = reveals[i] or blocked  # a ballot revealed at or after this action
        entry, row = entries[i], rows[i]
        if blocked:
            row["edit"] = row["remove"] = blocked
        elif _machine(entry):
            row["edit"] = row["remove"] = texts.render(
                "The companion journals this by itself; edit the action before it.", {}, lang)
        elif str(entry.action.get("type")) in pkg.secret_fields and entry.author.is_phone:
            row["edit"] = texts.render("Only {player}'s phone knows this move: remove it, and {player} plays it again.",
                                       {"player": entry.action.get("player", "?")}, lang)
    return rows


def refusal(session: Session, seq: int, removing: bool, lang: str = "en") -> str | None:
    """Why the tablet may not edit (or remove) the action ``seq``, or None."""
    row = next((r for r in history(session, lang) if r["seq"] == seq), None)
    if row is None:
        return texts.render("There is no action {seq} in play.", {"seq": seq}, lang)
    return row["remove" if removing else "edit"]


def edit_forms(session: Session, seq: int, lang: str = "en") -> dict[str, Any]:
    """The move forms the game offered just before the action ``seq``, the one it was first, with its values.

    ``{"forms": [...], "prefill": {field: value}, "text": line}``; the tablet reuses the
    phones' move form (``GamePackage.moves`` of the state before that action).
    """
    from companion.engine import moves

    pkg = games.package(session.game)
    steps = session.steps()  # the session's replay, read once
    entries = [step.entry for step in steps]
    index = next((i for i, e in enumerate(entries) if e.seq == seq), None)
    if index is None:
        return {"forms": [], "prefill": {}, "text": ""}
    state = steps[index].before
    action = entries[index].action
    forms = moves.visible(pkg.moves(state, lang))
    same = [f for f in forms if f.get("type") == action.get("type")
            and (f.get("player") is None or f.get("player") == action.get("player"))]
    rest = [f for f in forms if f not in same]
    hidden = set(pkg.secret_fields.get(str(action.get("type", "")), ())) if entries[index].seq in secrecy.hidden_seqs(
        pkg, steps) else set()
    prefill = {k: v for k, v in action.items() if k not in ("type", "player") and k not in hidden}  # never a secret
    return {"forms": same + rest, "first": len(same), "prefill": prefill, "action": pkg.redact(action, None),
            "text": describe(pkg, action, None, lang)}


def set_aside(session: Session, lang: str = "en") -> list[dict[str, Any]]:
    """The actions an edit set aside, with their line and the rules' refusal in ``lang``."""
    pkg = games.package(session.game)
    out = []
    for entry, note in session.set_aside():
        why = note.get("message", "")
        if note.get("secret"):  # a secret move set aside: the interface's line, no value named, in ``lang``
            why = texts.render(secrecy.ASIDE, {"player": str(entry.action.get("player", "?")),
                                               "move": pkg.t(str(entry.action.get("type", "?")).replace("_", " "), lang)},
                               lang)
        elif secrecy.is_secret(pkg, entry.action):  # its refusal may name the hidden value: the one kept
            if note.get("msgid"):
                why = texts.render(note["msgid"], note.get("params") or {}, lang, note.get("domain") or pkg.domain)
        else:  # the rules asked again now: a reason from before a later move is stale
            try:
                session.rules.apply(session.state, entry.action)
            except RuleError as err:
                why = err.text(lang, pkg.domain)
            except Exception:  # a rules bug must never hide the list
                pass
            else:
                why = texts.render("It can be entered now.", {}, lang)
        phone = entry.author.seat if entry.author.is_phone and secrecy.is_secret(pkg, entry.action) else None
        out.append({"seq": entry.seq, "text": describe(pkg, entry.action, None, lang), "why": why,
                    "action": pkg.redact(entry.action, None), "phone": phone})
    return out


def mine_aside(session: Session, seat: str, lang: str = "en") -> list[dict[str, Any]]:
    """The actions of ``seat``'s own phone that an edit set aside: its phone shows them again (its own
    hidden values included, to confirm or change), and sending that move again settles them."""
    pkg = games.package(session.game)
    return [{"seq": entry.seq, "type": entry.action.get("type"), "text": describe(pkg, entry.action, seat, lang)}
            for entry, _ in session.set_aside() if entry.author.phone_of(seat)]
