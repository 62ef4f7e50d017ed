"""What a phone's seat page adds to the context: « your move » (one sentence, the moves it can make now).

A phone during its turn should read like a game app, not like an API: one
sentence addressed to the player (« You must bid or pass »), then only the
moves that can be made now, each in the game's words with its preview, and
the rest of the player's state one tap away. Nothing here names a game: the
sentence comes from the game package's ``prompts`` (or ``moves``) module (``PROMPT_FOR_YOU``,
``PROMPT_FOR_TABLE``, ``PROMPT_FOR_OTHERS``: the rules' prompt ids and their wording
for the seat that must act, for a phone waiting on the tablet, and for a seat that
may act while the prompt names another: why it is offered a move), with a generic
sentence for a package that has none. A seat out of the game is offered nothing.

Keys added (read by ``_seat_state.html`` / ``_seat_actions.html``):

* ``you_sentence``: the one sentence, in the reader's language;
* ``waiting_table``: True when the game waits for the tablet (the table's own move);
* ``your_moves``: the forms of the step ``next`` (what the rulebook expects now), best first: the
  first is the big button;
* ``any_time``: the ``also`` forms (legal now, not expected: collapsed under « More moves »);
* ``overrides``: the ``override`` forms (the table correcting the flow), last, never a big button,
  each asking its ``ask`` question first.
"""

from __future__ import annotations

from typing import Any

from companion import games
from companion.engine import moves
from companion.table.session import Session
from web.i18n import translator
from web.security import Principal


def extend(ctx: dict[str, Any], session: Session, who: Principal | None, view: str, language: str) -> None:
    """Add this area's keys to ``ctx`` (called last by ``web.views.context``)."""
    if view != "seat":
        return
    pkg = games.package(session.game)
    me = ctx.get("me")
    exp = pkg.rules.expected(session.state)
    if me is not None and out_of_game(ctx.get("pub") or {}, me) and not (ctx.get("pub") or {}).get("over"):
        # the dead are offered nothing: no move (nor the draw inside one), no undo; the game goes on on their screen
        ctx["you_sentence"] = translator(language)("You are out of the game: you can follow it here.")
        ctx["waiting_table"] = False
        ctx["your_moves"], ctx["any_time"], ctx["overrides"] = [], [], []
        ctx["can_undo"] = ctx["my_turn"] = False
        return
    now, later = split(ctx.get("forms_now") or [], ctx.get("forms_more") or [])
    ctx["you_sentence"] = sentence(pkg, exp, me, language, now)
    ctx["waiting_table"] = not exp.players and not ctx["pub"].get("over")
    ctx["your_moves"] = now
    ctx["any_time"] = [f for f in later if moves.step_of(f) != "override"]
    ctx["overrides"] = [f for f in later if moves.step_of(f) == "override"]


def out_of_game(pub: dict[str, Any], me: str) -> bool:
    """Whether ``me`` is out of the game (the public view's ``alive`` false: a castaway dead)."""
    return any(p.get("name") == me and p.get("alive") is False for p in pub.get("players") or ())


def _tables(pkg: Any) -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """The package's « you », « the tablet » and « you, while another is named » wordings of its prompts,
    as its ``__init__`` lists them."""
    parts = pkg.parts
    return dict(parts.prompt_for_you), dict(parts.prompt_for_table), dict(parts.prompt_for_others)


def sentence(pkg: Any, exp: Any, me: str | None, lang: str, mine: list[dict[str, Any]] | None = None) -> str:
    """What this seat must do now, or whom it waits for, as one sentence addressed to its player.

    A prompt that names another player (« Everyone has acted: Cleo, go to survival? ») is not this
    seat's to say as « you »: its first move now says it instead (« Vote: who goes without food? »).
    """
    t = translator(lang)
    prompt = exp.text(lang, pkg.domain)
    if not exp.players and not exp.actions:
        return prompt  # the game is over: the outcome says the rest
    for_you, for_table, for_others = _tables(pkg)
    if me is not None and me in exp.players:
        named = {v for v in exp.params.values() if isinstance(v, str) and v in exp.players}
        if named and me not in named:
            msgid = for_others.get(exp.prompt)  # why this seat may act while another is named
            if msgid:
                return pkg.t(msgid, lang, **exp.params)
            first = next((f.get("label") for f in mine or [] if f.get("label")), None)
            return t("Your move: {prompt}", prompt=first or prompt)
        msgid = for_you.get(exp.prompt)
        if msgid:  # a wording may start low (« the sand timer… »: the tablet puts the name first)
            said = pkg.t(msgid, lang, **exp.params)
            return said[:1].upper() + said[1:]
        return t("Your move: {prompt}", prompt=prompt)
    if not exp.players:
        msgid = for_table.get(exp.prompt)
        if msgid:
            return pkg.t(msgid, lang, **exp.params)
        return t("On the tablet: {prompt}", prompt=prompt)
    if all(name in prompt for name in exp.players):  # « Ann: bid or pass. » already says whom
        return prompt
    return t("Waiting for {names}: {prompt}", names=", ".join(exp.players), prompt=prompt)


def asking(form: dict[str, Any]) -> dict[str, Any]:
    """A move that ends the player's turn asks first on the phone, as one that spends money does."""
    return {**form, "confirm": True} if form.get("ends_turn") and not form.get("confirm") else form


def split(now: list[dict[str, Any]], more: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(the moves the rulebook expects now, best first; the others, ``also`` then ``override``).

    The step decides (:func:`companion.engine.moves.step_of`): a form that is not ``next`` (an exchange,
    a card that may be played whenever, the table correcting the flow) goes with the later ones:
    the first thing on the phone is what the turn is about. Within the moves now, a form the
    package marks ``first`` (the dice game's plan with its suggestion) leads, and a form that only
    ends the turn (« Done », no field) comes last.
    """
    now = [asking(f) for f in now]
    main = [f for f in now if moves.step_of(f) == "next"]
    later = [f for f in now if moves.step_of(f) != "next"] + [asking(f) for f in more]
    later.sort(key=lambda f: moves.STEPS.index(moves.step_of(f)))
    main.sort(key=lambda f: 0 if f.get("first") else 2 if f.get("last") else 1)
    return main, later
