"""Galèrapagos' story: each action and what it set off, one sentence per event, as a log tells it.

The rules' events carry the figures (the tracks before and after, the votes once revealed);
the sentences are message ids of this game's catalog. A vote stays secret until the reveal:
"Ann votes" names nobody. The moment to show cards is told as it opens (who is asked and what
saves them), as each castaway answers, and as it closes with its deaths.
"""

from __future__ import annotations

from typing import Any

from companion.engine import texts
from companion.games.galerapagos import rules as R
from companion.games.galerapagos.state import DOMAIN

CAUSES = {
    "thirst": "{p} dies of thirst.",
    "hunger": "{p} dies of hunger.",
    "left_behind": "{p} is left behind on the island and dies.",
}
CARDS = {
    "water_bottle": "Water bottle", "club": "Club", "axe": "Axe",
    "fishing_rod": "Fishing rod", "crystal_ball": "Crystal ball", "revolver": "Revolver",
}


def _t(lang: str, msgid: str, **params: Any) -> str:
    return texts.render(msgid, params, lang, DOMAIN)


def _neutral(lang: str, msgid: str, **params: Any) -> str:
    """A sentence whose first French said « sauvé », « soigné » of Ann too: its French without a gender.

    The catalog keeps the old entry; the neutral one is a ``msgctxt "neutral"`` entry
    (« {p} a la vie sauve », « {p} guérit »), the English the same.
    """
    return texts.render(msgid, params, lang, DOMAIN, context="neutral")


def _tn(lang: str, singular: str, plural: str, n: int, /, **params: Any) -> str:
    """A sentence whose words agree with the count ``n`` (gettext's ngettext, French: 0 and 1 are singular)."""
    return texts.render_n(singular, plural, n, params, lang, DOMAIN)


def _places(k: int, n: int, lang: str) -> str:
    """« 2 places for 3 survivors »: the raft's places and the mouths to take."""
    return _t(lang, "{places} for {survivors}", places=texts.Plural("{n} place", "{n} places", k),
              survivors=texts.Plural("{n} survivor", "{n} survivors", n))


def _names(names: list[str], lang: str) -> str:
    return texts.join(list(names), lang)


def _weather(e: dict[str, Any], lang: str) -> str:
    r, n = e.get("round"), e["water"]
    if e.get("hurricane"):
        return _tn(lang, "Round {r}: the hurricane card comes up ({n} drop); the raft must leave at the end "
                         "of this round.", "Round {r}: the hurricane card comes up ({n} drops); the raft must leave "
                         "at the end of this round.", n, r=r)
    if n == 0:
        return _t(lang, "Round {r}: the weather card shows no drop of water.", r=r)
    return _tn(lang, "Round {r}: the weather card shows {n} drop of water.",
               "Round {r}: the weather card shows {n} drops of water.", n, r=r)


def _fish(e: dict[str, Any], lang: str) -> str:
    p, n = e["player"], e["fish"]
    if n == 0:
        return _t(lang, "{p} fishes and catches nothing.", p=p)
    if n == 1:  # n >= 1 from here: English and French agree on the singular
        return _t(lang, "{p} fishes and catches 1 fish: food {a}→{b}.", p=p, a=e["before"], b=e["after"])
    return _t(lang, "{p} fishes and catches {n} fish: food {a}→{b}.", p=p, n=n, a=e["before"], b=e["after"])


def _wood(e: dict[str, Any], before: R.State, lang: str) -> list[str]:
    p, k = e["player"], e["extra"]
    if e["snake"]:
        out = [_tn(lang, "{p} collects wood and draws {k} more ball, the black one: a snake bites; {p} falls sick "
                         "and the raft gets 1 piece.",
                   "{p} collects wood and draws {k} more balls, the black one among them: a snake bites; {p} falls "
                   "sick and the raft gets 1 piece.", k, p=p, k=k)]
    elif k == 0:
        out = [_t(lang, "{p} collects 1 piece of wood.", p=p)]
    else:
        out = [_tn(lang, "{p} collects wood and draws {k} more ball, a white one: {w} pieces.",
                   "{p} collects wood and draws {k} more balls, all white: {w} pieces.", k, p=p, k=k, w=k + 1)]
    added = e["rafts"] - before.rafts
    if added > 0:
        out.append(_t(lang, "A raft card is laid: {r} in all, the disc back on {d}.", r=e["rafts"], d=e["wood"]))
    return out


def _rations(e: dict[str, Any], lang: str) -> str:
    n, a, b = e["given"], e["before"], e["after"]
    water = e["resource"] == R.WATER
    if water:
        return _tn(lang, "{n} survivor drinks a ration: water {a}→{b}.", "{n} survivors each drink a ration: water {a}→{b}.",
                   n, a=a, b=b)
    return _tn(lang, "{n} survivor eats a ration: food {a}→{b}.", "{n} survivors each eat a ration: food {a}→{b}.",
               n, a=a, b=b)


def _resource(e: dict[str, Any], lang: str) -> str:
    p, n = e["player"], e["amount"]
    if e.get("shown"):
        if e["resource"] == R.WATER:
            return _t(lang, "{p} shows a water card ({n}): a ration of their own.", p=p, n=n)
        return _t(lang, "{p} shows a food card ({n}): a ration of their own.", p=p, n=n)
    if e["resource"] == R.WATER:
        return _t(lang, "{p} plays a water card: water {a}→{b}.", p=p, a=e["before"], b=e["after"])
    return _t(lang, "{p} plays a food card: food {a}→{b}.", p=p, a=e["before"], b=e["after"])


def _no_vote(e: dict[str, Any], lang: str) -> str:
    saved = list(e["saved"])
    water = e["resource"] == R.WATER
    if not saved:
        return _t(lang, "Water on 0: no vote, and nobody showed a water card." if water
                  else "Food on 0: no vote, and nobody showed a food card.")
    if e["before"] == e["after"]:
        msg = ("Water on 0: no vote; only {names} showed a water card." if water
               else "Food on 0: no vote; only {names} showed a food card.")
    else:
        msg = ("Water on 0: no vote; only {names} showed a water card, the rest goes on the track: water {a}→{b}."
               if water else
               "Food on 0: no vote; only {names} showed a food card, the rest goes on the track: food {a}→{b}.")
    return _t(lang, msg, names=_names(saved, lang), a=e["before"], b=e["after"])


def _designated(e: dict[str, Any], lang: str) -> str:
    msg = {R.WATER: "{p} has the most votes ({v}) and is refused a water ration.",
           R.FOOD: "{p} has the most votes ({v}) and is refused a food ration.",
           R.DEPART: "{p} has the most votes ({v}) and gets no place on the raft."}[e["resource"]]
    return _t(lang, msg, p=e["player"], v=e["votes"])


def _reveal(e: dict[str, Any], lang: str) -> str:
    votes = e["votes"]
    if not votes:
        return _t(lang, "Nobody can vote.")
    pairs = ", ".join(_t(lang, "{p} for {q}", p=p, q=q) for p, q in votes.items())
    return _t(lang, "The votes are revealed: {pairs}.", pairs=pairs)


def _over(e: dict[str, Any], lang: str) -> str:
    winners = list(e["winners"])
    if e["reason"] == "embark":
        return _t(lang, "{names} embark on the raft and leave the island: they win.", names=_names(winners, lang))
    if e["reason"] == "hurricane":
        if winners:
            return _t(lang, "The hurricane: the raft leaves with {names}, who win.", names=_names(winners, lang))
        return _t(lang, "The hurricane: nobody can leave the island, everyone loses.")
    return _t(lang, "Every castaway has died: everyone loses.")


def _by(action: dict[str, Any], lang: str) -> str:
    by = action.get("by")
    return _t(lang, "{by} plays a card: ", by=by) if isinstance(by, str) else ""


def _event(e: dict[str, Any], action: dict[str, Any], before: R.State, lang: str) -> list[str]:
    kind = e.get("event")
    p = e.get("player")
    if kind == "first_player":
        return [_t(lang, "The first-player card passes to {p}.", p=p)]
    if kind == "weather":
        return [_weather(e, lang)]
    if kind == "fish":
        return [_fish(e, lang)]
    if kind == "water":
        return [_tn(lang, "{p} collects {n} water ration: water {a}→{b}.", "{p} collects {n} water rations: water {a}→{b}.",
                    e["water"], p=p, a=e["before"], b=e["after"])]
    if kind == "wood":
        return _wood(e, before, lang)
    if kind == "search":
        return [_t(lang, "{p} searches the wreck and draws a card ({c} in hand).", p=p, c=e["cards"])]
    if kind == "rations":
        return [_rations(e, lang)]
    if kind == "resource":
        return [_resource(e, lang)]
    if kind == "saved":
        return [_neutral(lang, "{p} is saved.", p=p)]
    if kind == "no_vote":
        return [_no_vote(e, lang)]
    if kind == "voted":
        return [_t(lang, "{p} votes.", p=p)]
    if kind == "reveal":
        return [_reveal(e, lang)]
    if kind == "designated":
        return [_designated(e, lang)]
    if kind == "tie":
        return [_tn(lang, "Tie at {n} vote between {names}: {f}, the first player, decides.",
                    "Tie at {n} votes between {names}: {f}, the first player, decides.",
                    e["votes"], names=_names(e["players"], lang), f=e["first_player"])]
    if kind == "tiebreak":
        return [_t(lang, "{p} breaks the tie: {q} is the one.", p=p, q=e["target"])]
    if kind == "shot":
        out = [_t(lang, "{p} shoots {q} and takes {q}'s cards.", p=p, q=e["target"])]
        if e.get("saved"):
            out.append(_neutral(lang, "One mouth fewer: {p} is saved.", p=p))
        return out
    if kind == "death":  # who gets his cards is told after the deaths of the same moment (narrate)
        cause = e.get("cause")
        return [] if cause == "shot" else [_t(lang, CAUSES.get(cause, "{p} dies."), p=p)]
    if kind == "give":
        return [_tn(lang, "{p} gives {n} card to {q}.", "{p} gives {n} cards to {q}.", e["count"], p=p, q=e["target"])]
    if kind == "place":
        return [_t(lang, "{p} lays the card {card} face up.", p=p, card=_t(lang, CARDS.get(e["card"], e["card"])))]
    if kind == "sick":
        return [_by(action, lang) + _t(lang, "{p} falls sick.", p=p)]
    if kind == "heal":
        return [_by(action, lang) + _neutral(lang, "{p} is cured.", p=p)]
    if kind == "revive":
        return [_by(action, lang) + _t(lang, "{p} comes back to life.", p=p)]
    if kind == "departure":
        return [_t(lang, "The hurricane round is over: the raft has {places}.",
                   places=_places(e["places"], e["survivors"], lang))]
    if kind == "over":
        return [_over(e, lang)]
    return _moment_event(e, lang)


def _moment_event(e: dict[str, Any], lang: str) -> list[str]:
    """The survival step's pause, the ballot and debate, the moment to show cards, the deck's corrections."""
    kind, p = e.get("event"), e.get("player")
    if kind == "survival":
        if e.get("implied"):
            return [_t(lang, "Everyone has acted: the survival step begins.")]
        return [_t(lang, "{p}, the first player, starts the survival step.", p=p)]
    if kind == "ballot":
        short = e["short"]
        if e["resource"] == R.DEPART:
            return [_tn(lang, "The raft lacks {n} place: the castaways debate, then vote.",
                        "The raft lacks {n} places: the castaways debate, then vote.", short)]
        msg = ("Not enough water for {castaways}: the castaways debate, then vote." if e["resource"] == R.WATER
               else "Not enough food for {castaways}: the castaways debate, then vote.")
        return [_t(lang, msg, castaways=texts.Plural("{n} castaway", "{n} castaways", short))]
    if kind == "debate_over":
        return [_t(lang, "{p} stops the debate: one, two, three, point!", p=p)]
    if kind == "show_cards":
        names = _names(e["players"], lang)
        if e["kind"] == R.ZERO:
            msg = ("Water is on 0: no vote. Each castaway who holds a water card shows it now ({names})."
                   if e["resource"] == R.WATER else
                   "Food is on 0: no vote. Each castaway who holds a food card shows it now ({names}).")
            return [_t(lang, msg, names=names)]
        if e["kind"] == R.SAVE:
            return []  # told by the designation and by the screens; the condemned is the only one asked
        return [_t(lang, "The raft has {places}: cards may still be played before it leaves.",
                   places=_places(e["places"], e["survivors"], lang))]
    if kind == "no_card":
        if e["kind"] == R.ZERO:
            return [_t(lang, "{p} has no water card." if e["resource"] == R.WATER else "{p} has no food card.", p=p)]
        if e["kind"] == R.SAVE:
            return [_t(lang, "{p} cannot escape the verdict.", p=p)]
        return [_t(lang, "{p} has no card to play.", p=p)]
    if kind == "close":
        if p is None:
            return [_t(lang, "The raft leaves: no more cards.")]
        return [_t(lang, "{p} closes the moment to show cards: nobody else.", p=p)]
    if kind == "spared":
        if e.get("count") == R.DEPART:
            return [_t(lang, "The raft has room for everyone now: {p} is spared.", p=p)]
        return [_t(lang, "The rations suffice now: {p} is spared.", p=p)]
    if kind == "not_saved":
        return [_t(lang, "{p}'s card supplies nothing that was missing: the verdict stands.", p=p)]
    if kind == "deck_warning":
        return [_deck_warning(e, lang)]
    if kind == "effect":
        card = _t(lang, CARDS.get(e["card"], e["card"]))
        if e["resource"] == "wood":
            out = [_t(lang, "{p}'s {card}: +{n} wood.", p=p, card=card, n=e["amount"])]
            if e["rafts"] > e["before_rafts"]:
                out.append(_t(lang, "A raft card is laid: {r} in all, the disc back on {d}.", r=e["rafts"], d=e["wood"]))
            return out
        msg = "{p}'s {card}: water {a}→{b}." if e["resource"] == R.WATER else "{p}'s {card}: food {a}→{b}."
        return [_t(lang, msg, p=p, card=card, a=e["before"], b=e["after"])]
    return []


def _deck_warning(e: dict[str, Any], lang: str) -> str:
    if e.get("hurricane"):
        notes = e.get("notes", ())
        if "early" in notes and "drops" in notes:  # both said: the table checks the very card it laid
            return _tn(lang, "The hurricane comes up in round {r}, earlier than the deck allows (round {f}), "
                             "and shows {n} drop, not {h}: accepted as seen.",
                       "The hurricane comes up in round {r}, earlier than the deck allows (round {f}), "
                       "and shows {n} drops, not {h}: accepted as seen.", e["water"], r=e["round"], f=e["from"],
                       h=e["expected"])
        if "early" in notes:
            return _t(lang, "The hurricane comes up in round {r}, earlier than the deck allows (round {f}): "
                            "accepted as seen.", r=e["round"], f=e["from"])
        return _tn(lang, "The hurricane card shows {n} drop, not {h}: accepted as seen.",
                   "The hurricane card shows {n} drops, not {h}: accepted as seen.", e["water"], h=e["expected"])
    if e.get("removed") is None:
        return _t(lang, "A {n}-drop weather card comes up though the deck should hold no more plain cards: "
                        "accepted as seen.", n=e["water"])
    return _t(lang, "No {n}-drop weather card was expected: the deck is corrected (one {r}-drop card fewer).",
              n=e["water"], r=e["removed"])


def moment_lines(after: R.State, lang: str = "en") -> list[str]:
    """What the table is waiting for in the moment to show cards (a line for the screens)."""
    if not after.show:
        return []
    who = [after.names[i] for i in R.concerned(after)]
    names = _names(who, lang)
    gifts = [gift_line(after, i, lang) for i in R.concerned(after) if after.cards[i] == 0]
    if after.show == R.ZERO:
        msg = ("Water is on 0: {names} may still show a water card; {f} may close (« nobody else »)."
               if after.phase == R.WATER else
               "Food is on 0: {names} may still show a food card; {f} may close (« nobody else »).")
        return [_t(lang, msg, names=names, f=after.names[after.first]), *gifts]
    if after.show == R.SAVE:
        msg = {R.WATER: "{p} may still escape the verdict with a water card or a shot.",
               R.FOOD: "{p} may still escape the verdict with a food card or a shot.",
               R.DEPART: "{p} may still escape the verdict with a card that gives the raft a place, or a shot."}
        return [_t(lang, msg[after.phase], p=after.names[after.condemned]), *gifts]
    return [_t(lang, "Before the raft leaves ({places}): {names} may still play cards or shoot.",
               places=_places(max(0, R.capacity(after)), len(R.living_seats(after)), lang), names=names)]


def gift_line(s: R.State, i: int, lang: str = "en") -> str:
    """« Ben has no card: someone may give him one (Cleo holds 3). » (« Peuvent être offertes »)."""
    q = R.givers(s, i)[0]
    return _t(lang, "{p} has no card: someone may give him one ({q} holds {cards}).", p=s.names[i], q=s.names[q],
              cards=texts.Plural("{n} card", "{n} cards", s.cards[q]))


def chances(after: R.State, lang: str = "en") -> list[str]:
    """The moment still open, in a sentence (kept under its old name for the page extras)."""
    return moment_lines(after, lang)


def hand_off(e: dict[str, Any], lang: str = "en") -> str:
    """« Deal Dan's 4 cards: 2 to Ann, 2 to Cleo », from a death event ("" when he held none).

    « Les cartes que vous aviez en main sont mélangées et distribuées équitablement entre votre
    voisin de gauche et votre voisin de droite »: the companion keeps the counts, the table deals
    the real cards, so the screens say who gets how many."""
    dealt = e.get("dealt") or {}
    hand = int(e.get("cards") or 0)
    if not hand or not dealt or e.get("cause") == "shot":  # the shooter takes them: told with the shot
        return ""
    shares = [_tn(lang, "{n} to {q}", "{n} to {q}", k, q=q) for q, k in dealt.items()]
    return _tn(lang, "Deal {p}'s {n} card: {shares}.", "Deal {p}'s {n} cards: {shares}.", hand,
               p=e["player"], shares=", ".join(shares))


def death_line(cause: str | None, lang: str = "en", dead_vote: bool = False) -> str:
    """A dead castaway's screen: how he died and, under « la voix des morts », that he still votes."""
    how = {"thirst": "You died of thirst.", "hunger": "You died of hunger.",
           "left_behind": "You were left behind on the island.", "shot": "You were shot."}
    line = _t(lang, how.get(cause or "", "You are dead."))
    if dead_vote:
        line += " " + _t(lang, "« La voix des morts »: you still vote.")
    return line


def narrate(before: R.State, action: dict[str, Any], events: list[dict[str, Any]], after: R.State,
            lang: str = "en") -> list[str]:
    """The sentences that tell what ``action`` did, in ``lang``."""
    out: list[str] = []
    deals: list[str] = []  # « Deal Dan's 4 cards… » once the deaths of one moment are told
    for e in events:
        if e.get("event") != "death" and deals:
            out.extend(deals)
            deals = []
        out.extend(_event(e, action, before, lang))
        if e.get("event") == "death" and hand_off(e, lang):
            deals.append(hand_off(e, lang))
    out.extend(deals)
    if not events and action.get("type") == "embark":
        out.append(_t(lang, "The raft has already left."))
    if not events and action.get("type") == "survival":
        out.append(_t(lang, "The survival step is already under way."))
    return out


def describe(action: dict[str, Any], lang: str = "en", viewer: str | None = None) -> str:
    """A short line for a log or an undo button, hiding a vote's target from all but its author."""
    kind = action.get("type")
    p = action.get("player")
    q = action.get("target")
    if kind == "weather":
        if action.get("hurricane"):
            return _t(lang, "Hurricane card")
        return _tn(lang, "Weather card: {n} drop", "Weather card: {n} drops", texts.count(action.get("water")),
                   n=action.get("water"))
    if kind == "fish":
        return _tn(lang, "{p} catches {n} fish", "{p} catches {n} fish", texts.count(action.get("fish")), p=p,
                   n=action.get("fish"))
    if kind == "water":
        return _t(lang, "{p} collects water", p=p)
    if kind == "wood":
        k = action.get("extra", 0)
        if action.get("snake"):
            return _tn(lang, "{p} collects wood, {k} more ball: the snake bites",
                       "{p} collects wood, {k} more balls: the snake bites", texts.count(k), p=p, k=k)
        if not k:
            return _t(lang, "{p} collects wood", p=p)
        return _tn(lang, "{p} collects wood, {k} more ball", "{p} collects wood, {k} more balls", texts.count(k), p=p, k=k)
    if kind == "search":
        return _t(lang, "{p} searches the wreck", p=p)
    if kind == "resource":
        n = action.get("amount", 1)
        if action.get("resource") == R.WATER:
            return _t(lang, "{p} plays a water card (+{n})", p=p, n=n)
        return _t(lang, "{p} plays a food card (+{n})", p=p, n=n)
    if kind == "vote":
        if viewer is not None and viewer == p:
            return _t(lang, "{p} votes for {q}", p=p, q=q)
        return _t(lang, "{p} votes", p=p)
    if kind == "tiebreak":
        return _t(lang, "{p} breaks the tie: {q}", p=p, q=q)
    if kind == "shoot":
        return _t(lang, "{p} shoots {q}", p=p, q=q)
    if kind == "give":
        return _tn(lang, "{p} gives {n} card to {q}", "{p} gives {n} cards to {q}", texts.count(action.get("count", 1)),
                   p=p, n=action.get("count", 1), q=q)
    if kind == "place":
        card = action.get("card")
        return _t(lang, "{p} lays {card}", p=p, card=_t(lang, CARDS.get(card, str(card))) if isinstance(card, str) else card)
    if kind == "sick":
        return _t(lang, "{p} falls sick", p=p)
    if kind == "heal":
        return _neutral(lang, "{p} is cured", p=p)
    if kind == "revive":
        return _t(lang, "{p} comes back to life", p=p)
    if kind == "embark":
        return _t(lang, "Embark on the raft")
    if kind == "survival":
        return _t(lang, "Go to survival")
    if kind == "no_card":
        return _t(lang, "{p} has no card to show", p=p)
    if kind == "close":
        return _t(lang, "Nobody else: close")
    if kind == "debate":
        return _t(lang, "End of the debate")
    if kind == "effect":
        card = action.get("card")
        return _t(lang, "{p}'s {card}", p=p, card=_t(lang, CARDS.get(card, str(card))) if isinstance(card, str) else card)
    return str(kind)
