"""A correction told as a story: one sentence per seat it touched, in the reader's language.

« Correction: “Bob collects wood” removed from the history. Dan: “Dan searches the wreck”
no longer counts (the correction came before it); cards 6 → 5; Dan may act again now. »
A change list (« Ann: no longer can vote; … and 8 more changes ») makes the table read a
diff; this says, seat by seat, which of its moves no longer count, what its figures became,
and whether it acts again now. Everything comes from the note the correction journalled
(:meth:`companion.table.session.Session.edit`): the public views before and after
and the actions set aside, all redacted for the table, so a hidden vote's value is never
told, whoever reads. A change every seat shares (« can vote » when the phase moved back)
is the table's, said once with the table's figures. Nothing here names a game.
"""

from __future__ import annotations

from typing import Any

from companion.engine import texts
from companion.table import amend

#: at most this many figures per seat (and on the table), the rest counted
FIGURES = 3


def told(pkg: Any, note: dict[str, Any], lang: str = "en", viewer: str | None = None) -> dict[str, Any]:
    """``{"head", "table", "seats": [(seat, sentence)], "text"}`` for one journalled correction.

    ``viewer``: the seat reading it (its own sentence is said to « you »); None for the table.
    """
    head = _head(pkg, note, lang)
    before, after = note.get("before") or {}, note.get("after") or {}
    word = amend.Words(pkg, lang)
    names = [str(p.get("name")) for p in after.get("players", []) if isinstance(p, dict)]
    per_seat = _seat_figures(word, before, after, names)
    aside: dict[str, list[str]] = {}
    for action in note.get("aside") or ():
        if isinstance(action, dict) and action.get("player") in names:
            aside.setdefault(str(action["player"]), []).append(amend.describe(pkg, action, None, lang))
    expected = set((after.get("expected") or {}).get("players") or ())
    seats = []
    for name in names:
        sentence = _seat_sentence(name, aside.get(name, []), per_seat.get(name, []), name in expected,
                                  name == viewer, lang)
        if sentence:
            seats.append((name, sentence))
    table = _table_sentence(word, before, after, names, per_seat.get("", []), lang)
    parts = [head] + ([table] if table else []) + [s for _, s in seats]
    mine = [s for n, s in seats if n == viewer]  # a phone reads its own seat first, the table's figures last
    told_to = [head] + mine + [s for n, s in seats if n != viewer] + ([table] if table else [])
    return {"head": head, "table": table, "seats": seats, "text": " ".join(parts), "lines": told_to,
            "players": [n for n, _ in seats]}


def _head(pkg: Any, note: dict[str, Any], lang: str) -> str:
    old = amend.describe(pkg, note.get("old") or {}, None, lang)
    if note.get("new"):
        return texts.render("Correction: “{old}” became “{new}”.",
                            {"old": old, "new": amend.describe(pkg, note["new"], None, lang)}, lang)
    return texts.render("Correction: “{old}” removed from the history.", {"old": old}, lang)


def _fragment(word: Any, key: str, old: Any, new: Any) -> tuple[str, str] | None:
    """(change, text): « 6 → 5 », « cards 6 → 5 »; one figure's change in a few words (None: not said)."""
    if old == new or key in amend.SKIP:
        return None
    label = word.label(key)
    if isinstance(old, bool) or isinstance(new, bool):
        change = texts.render("{old} → {new}", {"old": word.term(old), "new": word.term(new)}, word.lang)
    elif isinstance(old, dict) and isinstance(new, dict):  # « animals (iguana 0 → 1, sea lion 0 → 1) »
        parts = [texts.render("{figure} {change}", {"figure": word.term(kind), "change": texts.render(
            "{old} → {new}", {"old": word.values(old[kind]), "new": word.values(new[kind])}, word.lang)}, word.lang)
            for kind in old if kind in new and old[kind] != new[kind] and amend.plain(old[kind])
            and amend.plain(new[kind])]
        if not parts:
            return None
        change = _comma(parts, word.lang)
        return change, texts.render("{figure} ({change})", {"figure": label, "change": change}, word.lang)
    else:
        said = amend.figure_change(word, key, old, new)
        if not said:
            return None
        change = said[0][1]
    return change, texts.render("{figure} {change}", {"figure": label, "change": change}, word.lang)


def _seat_figures(word: Any, before: dict[str, Any], after: dict[str, Any],
                  names: list[str]) -> dict[str, list[str]]:
    """Each seat's figure changes; a change every seat shares goes to the table (key ``""``) once."""
    then = {p.get("name"): p for p in before.get("players", []) if isinstance(p, dict)}
    changes: dict[str, list[tuple[str, Any, Any]]] = {n: [] for n in names}
    for p in after.get("players", []):
        if not isinstance(p, dict) or not isinstance(then.get(p.get("name")), dict):
            continue
        old_p = then[p["name"]]
        changes[str(p["name"])] += [(k, old_p[k], p[k]) for k in p if k != "name" and k in old_p]
    for key, value in after.items():
        if key in amend.SKIP or not isinstance(value, dict) or not value or not set(value) <= set(names):
            continue
        old = before.get(key)
        if isinstance(old, dict):
            for n in value:
                changes[n].append((key, old.get(n), value[n]))
    out: dict[str, list[str]] = {n: [] for n in names}
    shared: list[str] = []
    for name in names:
        said: set[str] = set()  # the money and the money left to bid moving alike: said once
        for key, old, new in changes[name]:
            found = _fragment(word, key, old, new)
            if found is None or found[0] in said:
                continue
            said.add(found[0])
            text = found[1]
            everyone = len(names) > 1 and all((key, old, new) in changes[n] for n in names)
            if everyone:
                if text not in shared:
                    shared.append(text)
            else:
                out[name].append(text)
    out[""] = shared
    return out


def _listed(items: list[str], lang: str) -> str:
    """At most :data:`FIGURES` items, the rest counted (« and 2 more »)."""
    if len(items) > FIGURES:
        rest = len(items) - FIGURES
        items = items[:FIGURES] + [texts.render_n("and {n} more", "and {n} more", rest, None, lang)]
    return _comma(items, lang)


def _comma(items: list[str], lang: str) -> str:
    out = items[0]
    for item in items[1:]:
        out = texts.render("{a}, {b}", {"a": out, "b": item}, lang)
    return out


def _clauses(parts: list[str], lang: str) -> str:
    """Clauses of one sentence, joined the language's way (« ; » in French), capitalised, with its full stop."""
    out = parts[0]
    for part in parts[1:]:
        out = texts.render("{a}; {b}", {"a": out, "b": part}, lang)
    return out[:1].upper() + out[1:] + "."


def _seat_sentence(name: str, aside: list[str], figures: list[str], acts_now: bool, you: bool, lang: str) -> str:
    """One seat's sentence, or "" when the correction left it as it was."""
    if not aside and not figures:
        return ""
    parts: list[str] = []
    if aside:
        counted = {m: aside.count(m) for m in aside}  # the same move twice is said once, counted
        moves = _comma([texts.render("“{move}”", {"move": m}, lang) if n == 1 else
                        texts.render("{move} ×{n}", {"move": texts.render("“{move}”", {"move": m}, lang), "n": n}, lang)
                        for m, n in counted.items()], lang)
        if you:
            parts.append(texts.render_n("your move {moves} no longer counts: the correction came before it",
                                        "your moves {moves} no longer count: the correction came before them",
                                        len(aside), {"moves": moves}, lang))
        else:
            parts.append(texts.render_n("{player}'s move {moves} no longer counts: the correction came before it",
                                        "{player}'s moves {moves} no longer count: the correction came before them",
                                        len(aside), {"player": name, "moves": moves}, lang))
    if figures:
        listed = _listed(figures, lang)
        parts.append(texts.render("your figures: {figures}", {"figures": listed}, lang) if you
                     else texts.render("{player}'s figures: {figures}", {"player": name, "figures": listed}, lang))
    if acts_now:
        parts.append(texts.render("you may act again now", {}, lang) if you
                     else texts.render("{player} may act again now", {"player": name}, lang))
    return _clauses(parts, lang)


def _table_sentence(word: Any, before: dict[str, Any], after: dict[str, Any], names: list[str],
                    shared: list[str], lang: str) -> str:
    """The table's figures that moved (the food, the round, a change every seat shares), or ""."""
    items = list(shared)
    for key, value in after.items():
        if key in amend.SKIP or key not in before or key == "players":
            continue
        if isinstance(value, dict) and value and set(value) <= set(names):
            continue  # a seat's map: told per seat
        found = _fragment(word, key, before[key], value)
        if found is not None and isinstance(value, int | float) and not isinstance(value, bool):
            items.append(found[1])
    if not items:
        return ""
    return _clauses([texts.render("on the table: {figures}", {"figures": _listed(items, lang)}, lang)], lang)
