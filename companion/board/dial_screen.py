"""What the OLED shows of the dial: the move's heading, the item under the encoder, its preview,
and the question a second OK answers.

Kept apart from the state machine (:mod:`companion.board.dial`) and from the device
handling (:mod:`companion.board.controller`): these functions read an :class:`Entry`
and return text; the screens (:mod:`companion.board.screens`) lay the text out,
wrapping or scrolling whatever does not fit the 128×64 panel.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.board.dial import END, Entry, choice_label
from companion.engine import moves


def heading(entry: Entry | None, players: int) -> str:
    """The move being dialled, with its player: "Ann: Education"."""
    if entry is None:
        return ""
    form = entry.form
    return f"{form['player']}: {form['label']}" if form.get("player") and players > 1 else form["label"]


def segments(entry: Entry | None, t: Callable[[str], str]) -> tuple[tuple[str, bool], ...]:
    """What the dial changes now, highlighted: the move itself, or the field under the cursor."""
    if entry is None:
        return ()
    f = entry.current()
    if f is None:
        more = f" ({len(entry.fields())})" if entry.fields() else ""
        return ((entry.form["label"], True), (more, False)) if more else ((entry.form["label"], True),)
    if moves.kind_of(f) == "items":
        chosen = choice_label(f, entry.values.get(f["name"], []))[0] if entry.values.get(f["name"]) else ""
        if entry.pending is None:
            cand = "?"
        else:
            cand = t("end") if entry.pending is END else choice_label({"choices": f["items"]["choices"]}, entry.pending)[0]
        return ((f"{chosen}+" if chosen else "", False), (cand, True))
    if f["name"] in entry.values:
        return ((choice_label(f, entry.values[f["name"]])[0], True),)
    # nothing chosen yet: the field's name stands on the preview line (:func:`preview`) and the value
    # line asks « ? » in the box its first value takes, so the first detent costs the OLED's bus what
    # a turn between two values costs (« Direction? » across the value line sent 280 bytes)
    return (("?", True),)


def preview(entry: Entry | None) -> str:
    """The preview of what is under the dial (a choice's, a range's), else the field to choose."""
    if entry is None:
        return ""
    f = entry.current()
    if f is None:
        return str((entry.form.get("preview") or {}).get("text") or "")
    if f["name"] in entry.values:
        label, text = choice_label(f, entry.values[f["name"]])
        return text or f"{f['label']}: {label}"
    return str(f["label"])  # nothing chosen yet: the field to choose, the value line says « ? »


def question(entry: Entry, describe: Callable[[dict[str, Any]], str], t: Callable[..., str]) -> str:
    """What the second OK will do, in words: an override's own question, else the move and its previews.

    « The sand is still running (29 s): end planning for everyone? » for an override;
    « Ann bids £300 on South? £900 left » for a bid (the move's line from the game's
    ``describe``, then the previews of the form and of each value chosen).
    """
    form = entry.form
    if form.get("ask"):
        return str(form["ask"])
    action = entry.confirming or entry.action()
    line = t("{line}?", line=describe(action).rstrip(" ."))
    extra = [str((form.get("preview") or {}).get("text") or "")]
    for f in entry.fields():  # what each value chosen brings (a range's preview tells the range: left out)
        if f["name"] in entry.values and moves.kind_of(f) == "choices":
            extra.append(choice_label(f, entry.values[f["name"]])[1])
    seen: list[str] = []
    for text in extra:
        if text and text not in seen and text not in line:
            seen.append(text)
    return " ".join([line, *(s.rstrip(".") + "." for s in seen)])
