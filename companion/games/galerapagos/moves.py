"""Galèrapagos' legal moves as forms (see :mod:`companion.engine.moves`): exactly what ``apply`` accepts now.

Each form is built with the rules' own predicates on the state the rules would play the
line on:

* the state itself: the weather card, the acting castaway's action, the votes, the tie,
  the moment to show cards (each concerned castaway's card, shot or « I have none »,
  the first player's « nobody else »), and the cards any castaway may play at any time
  ("Les cartes Épave peuvent être jouées à tout moment": resource, shot, gift,
  permanent card, sickness, antivenom, revival);
* in the pause before survival (phase ``acted``), a line of the survival step implies the
  first player's confirmation (``rules.IMPLIED``): those forms come from the state after it;
* before the raft leaves, a vote starts the vote for the places (``rules.RAFT_IMPLIED``);
* the next ``weather`` closes any moment still open: its form comes from the state after.

So every move offered is accepted and every accepted move is offered (checked by
``tests/games/test_galerapagos_moves.py`` against an exhaustive oracle).

Known gaps, each an action no table sends (the rules accept it, no form matches it):
``wood`` with ``snake: false`` but no ``extra``; ``weather``/``embark`` naming a
player (the rules ignore who turned the card, the forms are the table's).
"""

from __future__ import annotations

from typing import Any

from companion.engine import texts
from companion.engine.moves import Choice, Field, Form, choice, form, number, pick, preview
from companion.games.galerapagos import chances
from companion.games.galerapagos import rules as R
from companion.games.galerapagos.steps import with_steps

DOMAIN = "galerapagos"

#: French and English names of the permanent cards are message ids in the catalog
CARD_LABELS = {
    "water_bottle": "Water bottle", "club": "Club", "axe": "Axe",
    "fishing_rod": "Fishing rod", "crystal_ball": "Crystal ball", "revolver": "Revolver",
}


def _t(lang: str, msgid: str, **params: Any) -> str:
    return texts.render(msgid, params, lang, DOMAIN)


def _drops(lang: str, n: int) -> str:
    """« 1 drop », « 3 drops » (« 0 goutte », « 2 gouttes »)."""
    return texts.render_n("{n} drop", "{n} drops", n, None, lang, DOMAIN)


def _dec(lang: str, value: float) -> str:
    """One decimal, with the reader's decimal mark (« 2,3 » in French)."""
    text = f"{value:.1f}"
    return text.replace(".", ",") if lang == "fr" else text


# -- the state a line is played on ------------------------------------------------

def confirmed(s: R.State) -> R.State:
    """The state after the survival step's confirmation (the pause's implied lines play there)."""
    return R.begin_survival(s, [], implied=True) if s.phase == R.ACTED else s


def _raft_closed(s: R.State) -> R.State:
    """The state once the raft's moment closes (a vote for the places plays there)."""
    return R.settle(R.close_moment(s, []), []) if s.show == R.RAFT else s


def weather_base(s: R.State) -> R.State | None:
    """The state the next weather card is turned on (every moment closed), or None if it cannot be."""
    s = confirmed(s)
    if s.show:
        s = R.close_all(s, [])
    if s.phase == R.WEATHER or (s.phase == R.END and not s.hurricane):
        return s
    return None


# -- small predicates ----------------------------------------------------------------

def _card_ok(st: R.State, i: int) -> bool:
    """``_need_card_player``: alive, not sick since last round, a card in hand."""
    return st.phase != R.OVER and R.can_play(st, i) and st.cards[i] > 0


def _shoot_ok(st: R.State, i: int) -> bool:
    return _card_ok(st, i) and st.cards[i] >= (1 if "revolver" in st.perm[i] else 2)


def _give_targets(st: R.State, i: int) -> list[int]:
    if st.phase == R.OVER or not st.alive[i] or st.cards[i] < 1:
        return []
    return [t for t in range(len(st.names)) if t != i and st.alive[t]]


def _card_players(st: R.State) -> list[int]:
    return [j for j in range(len(st.names)) if _card_ok(st, j)]


# -- previews -------------------------------------------------------------------

def _arrow(lang: str, what: str, before: int, after: int) -> str:
    return _t(lang, "{what} {a}→{b}", what=_t(lang, what), a=before, b=after)


def _snake_pct(s: R.State, k: int) -> int:
    return round(100 * chances.snake_chance(k, len(s.opts.bag)))


def _wood_after(s: R.State, pieces: int) -> tuple[int, int]:
    after = R.add_wood(s, pieces)
    return after.wood, after.rafts


def _voted(s: R.State) -> tuple[int, int]:
    assert s.ballot is not None
    voters = [i for i in range(len(s.names)) if R.can_vote(s, i)]
    return sum(1 for i in voters if s.ballot[i] >= 0), len(voters)


# -- the forms ------------------------------------------------------------------

def _weather_forms(s: R.State, lang: str) -> list[Form]:
    """The card turned: any drops 0-9 (one outside the deck corrects it, with a warning), or the hurricane."""
    base = weather_base(s)
    if base is None:
        return []
    out: list[Form] = []
    nxt = base.round if base.phase == R.WEATHER else base.round + 1
    living = len(R.living_seats(base))
    left = {w: base.deck.count(w) for w in sorted(set(base.deck))}
    no = [pick("hurricane", _t(lang, "Hurricane"), [choice(False, _t(lang, "no"))], default=False, optional=True)]
    cards, others = [], []  # the cards the deck holds; a card it does not hold corrects it
    for w in range(0, R.MAX_DROPS + 1):
        if w in left:
            pv = preview(texts.render_n("{k} such card left", "{k} such cards left", left[w], {"k": left[w]}, lang, DOMAIN), cards_left=left[w], water_per_action=w)
            cards.append(choice(w, _drops(lang, w), pv, fields=no))
        else:
            pv = preview(_t(lang, "not expected: the deck will be corrected"), cards_left=0, water_per_action=w,
                         warning=True)
            others.append(choice(w, _drops(lang, w), pv, fields=no))
    if cards:
        out.append(form("weather", None, _t(lang, "Turn the weather card"),
                        [pick("water", _t(lang, "Drops on the card"), cards)],
                        round=nxt, player_optional=True))
    if others:
        out.append(form("weather", None, _t(lang, "A weather card the deck does not hold"),
                        [pick("water", _t(lang, "Drops on the card"), others)],
                        round=nxt, player_optional=True,
                        correction=_t(lang, "The deck holds no such card: turn it anyway and correct the deck?")))
    if base.hurricane_left:
        hw = base.opts.hurricane_water
        early = nxt < base.opts.hurricane_from
        text = (_t(lang, "earlier than the deck allows: the deck will be corrected") if early
                else _t(lang, "the raft must leave at the end of this round"))
        drops = [choice(w, _drops(lang, w),
                        None if w == hw else preview(_t(lang, "not the hurricane's {h} drops", h=hw), warning=True))
                 for w in range(0, R.MAX_DROPS + 1)]
        out.append(form(
            "weather", None, _t(lang, "The hurricane card"),
            [pick("hurricane", _t(lang, "Hurricane"), [choice(True, _t(lang, "yes"),
                                                             preview(text, survivors=living, warning=early))]),
             pick("water", _t(lang, "Drops on the card"), drops, default=hw, optional=True)],
            confirm=True, round=nxt, player_optional=True,
            preview=preview(_t(lang, "hurricane next: {pct}%", pct=round(100 * chances.hurricane_next(base))),
                            chance=chances.hurricane_next(base))))
        if early:  # « Mélangez la carte Ouragan et les 5 cartes Météo »: it cannot come up yet
            out[-1]["correction"] = _t(lang, "The hurricane cannot come up yet by the deck: turn it anyway and "
                                             "correct the deck?")
    return out


def _embark_form(s: R.State, lang: str) -> Form | None:
    st = confirmed(s)
    if st.show == R.RAFT:
        pv = preview(_t(lang, "the raft leaves with the survivors it can take: {places} for {n}",
                        places=texts.Plural("{n} place", "{n} places", max(0, R.capacity(st))),
                        n=len(R.living_seats(st))))
    elif st.phase == R.OVER and st.reason == "hurricane":
        pv = preview(_t(lang, "the raft has already left"))
    elif st.phase == R.END and not st.hurricane and R.embark_problem(st) is None:
        n = len(R.living_seats(st))
        text = _t(lang, "{n} survivors leave: water {w}→{w2}, food {f}→{f2}",
                  n=n, w=st.water, w2=st.water - n, f=st.food, f2=st.food - n)
        pv = preview(text, survivors=n, water=st.water - n, food=st.food - n)
    elif st.phase == R.END and not st.hurricane and st.opts.raft_vote and R.capacity(st) > 0:
        pv = preview(_t(lang, "{places} for {n}: a vote decides who stays",
                        places=texts.Plural("{n} place", "{n} places", R.capacity(st)), n=len(R.living_seats(st))),
                     places=R.capacity(st))
    else:
        return None
    return form("embark", None, _t(lang, "Embark on the raft"), [], confirm=True, preview=pv,
                player_optional=True)


def _survival_form(s: R.State, lang: str) -> Form | None:
    if R.survival_moot(s):  # begun by itself (a token on 0), nothing decided yet: accepted, changes nothing
        return form("survival", s.names[s.first], _t(lang, "Go to survival"), [], player_optional=True,
                    alias=True)
    if s.phase != R.ACTED:
        return None
    return form("survival", s.names[s.first], _t(lang, "Everyone has acted: go to survival?"), [],
                confirm=True, player_optional=True,
                preview=preview(_t(lang, "water {w}, food {f} for {n} survivors",
                                   w=s.water, f=s.food, n=len(R.living_seats(s)))))


def _action_forms(s: R.State, i: int, lang: str) -> list[Form]:
    """The acting castaway's four actions (fish, water, wood, search)."""
    p = s.names[i]
    out: list[Form] = []
    top = max(s.opts.bag)
    fish = [choice(n, texts.render_n("{n} fish", "{n} fish", n, None, lang, DOMAIN), preview(_arrow(lang, "food", s.food, s.food + n), food=s.food + n))
            for n in range(0, top + 1)]
    out.append(form("fish", p, _t(lang, "Fish"), [pick("fish", _t(lang, "Fish caught"), fish)], ends_turn=True,
                    preview=preview(_t(lang, "about {x} fish a ball", x=_dec(lang, chances.expected_fish(s.opts.bag))),
                                    expected_fish=chances.expected_fish(s.opts.bag))))
    drops = s.weather or 0
    out.append(form("water", p, _t(lang, "Collect water"), [], ends_turn=True,
                    preview=preview(_arrow(lang, "water", s.water, s.water + drops), water=s.water + drops)))
    extras: list[Choice] = []
    balls = len(s.opts.bag)
    for k in range(0, R.MAX_EXTRA_BALLS + 1):
        wood, rafts = _wood_after(s, 1 + k)
        safe = preview(_t(lang, "+{n} wood: raft {r}, disc {d}", n=1 + k, r=rafts, d=wood),
                       wood=wood, rafts=rafts)
        if k == 0:
            snake = pick("snake", _t(lang, "Snake"), [choice(False, _t(lang, "no"), safe)],
                         default=False, optional=True)
            extras.append(choice(0, _t(lang, "no extra ball"), preview(_t(lang, "1 wood, no risk"), expected=1.0,
                                                                          snake=0.0, wood=wood, rafts=rafts),
                                 fields=[snake]))
            continue
        bit_wood, bit_rafts = _wood_after(s, 1)
        bitten = preview(_t(lang, "{p} falls sick, +1 wood", p=p), wood=bit_wood, rafts=bit_rafts, sick=True)
        pct = _snake_pct(s, k)
        snake = pick("snake", _t(lang, "Snake drawn"),
                     [choice(False, _t(lang, "no: all white"), safe), choice(True, _t(lang, "yes: bitten"), bitten)],
                     optional=True)
        expect = chances.expected_wood(k, balls)
        extras.append(choice(k, texts.render_n("+{n} ball", "+{n} balls", k, None, lang, DOMAIN),
                             preview(_t(lang, "snake {pct}%, ~{x} wood", pct=pct, x=_dec(lang, expect)),
                                     snake=chances.snake_chance(k, balls), expected=round(expect, 3),
                                     wood=wood, rafts=rafts),
                             fields=[snake]))
    out.append(form("wood", p, _t(lang, "Collect wood"),
                    [pick("extra", _t(lang, "Extra balls drawn"), extras, optional=True)], ends_turn=True))
    if s.wreck > 0:
        out.append(form("search", p, _t(lang, "Search the wreck"), [], ends_turn=True,
                        preview=preview(_t(lang, "{c}→{c2} cards, {w} left in the wreck",
                                           c=s.cards[i], c2=s.cards[i] + 1, w=s.wreck - 1),
                                        cards=s.cards[i] + 1, wreck=s.wreck - 1)))
    return out


def _amount(lang: str, label: str, kind: str, before: int) -> Field:
    """How much a card adds (1-9, 1 when left out): each value says the track after (« water 3→5 »)."""
    out = number("amount", _t(lang, label), 1, 9, default=1, optional=True,
                 preview=preview(_arrow(lang, kind, before, before + 1), before=before))
    out["previews"] = {str(n): _arrow(lang, kind, before, before + n) for n in range(1, 10)}
    return out


def _resource_preview(st: R.State, i: int, kind: str, lang: str) -> dict[str, Any]:
    """What one card of ``kind`` does: shown at 0 it saves its owner, for the condemned it saves or not."""
    name = st.names[i]
    if st.show == R.ZERO and st.phase == kind:
        return preview(_t(lang, "{p} survives", p=name), saves=name)
    before = R.track_of(st, kind)
    if st.show == R.SAVE and st.condemned == i:
        after = st._replace(water=st.water + 1) if kind == R.WATER else st._replace(food=st.food + 1)
        if R.card_supplies(st, after, i, kind):
            return preview(_t(lang, "{p} is saved", p=name), saves=name)
        return preview(_t(lang, "gives {p} nothing he lacks: he still dies", p=name), saves=None,
                       **{kind: before + 1})
    return preview(_arrow(lang, kind, before, before + 1), **{kind: before + 1, "per_card": 1})


def _resource_ok(st: R.State, i: int, kind: str) -> bool:
    if st.phase == R.OVER:
        return False
    if st.show == R.ZERO and st.phase == kind:
        return R.may_show(st, i) and st.cards[i] > 0 and not R.has_shown(st, i)
    return _card_ok(st, i)


def _resource_form(s: R.State, i: int, lang: str) -> Form | None:
    p = s.names[i]
    kinds: list[Choice] = []
    for kind in (R.WATER, R.FOOD):
        if not _resource_ok(s, i, kind):
            continue
        before = R.track_of(s, kind)
        amount = _amount(lang, "Rations on the card", kind, before)
        baskets = [choice(False, _t(lang, "no"))]
        if kind == R.FOOD:
            baskets.append(choice(True, _t(lang, "yes: not for the voyage")))
        basket = pick("basket", _t(lang, "Fruit basket"), baskets, default=False, optional=True)
        kinds.append(choice(kind, _t(lang, kind.capitalize()), _resource_preview(s, i, kind, lang),
                            fields=[amount, basket]))
    if not kinds:
        return None
    label = _t(lang, "Show a card") if s.show == R.ZERO and i in R.concerned(s) else _t(lang, "Play a resource card")
    return form("resource", p, label, [pick("resource", _t(lang, "Resource"), kinds)])


def _shoot_form(s: R.State, i: int, lang: str) -> Form | None:
    if not _shoot_ok(s, i):
        return None
    p = s.names[i]
    armed = "revolver" in s.perm[i]
    choices = []
    for t in range(len(s.names)):
        if t == i or not s.alive[t]:
            continue
        cost = _t(lang, "a cartridge") if armed else _t(lang, "revolver and cartridge")
        text = _t(lang, "costs {cost}", cost=cost)
        if s.condemned == i:
            text = _t(lang, "{p} is saved; {rest}", p=p, rest=text)
        choices.append(choice(s.names[t], s.names[t], preview(text, cards=1 if armed else 2)))
    if not choices:
        return None
    return form("shoot", p, _t(lang, "Shoot a castaway"), [pick("target", _t(lang, "Target"), choices)],
                confirm=True)


def _give_form(s: R.State, i: int, lang: str) -> Form | None:
    targets = _give_targets(s, i)
    if not targets:
        return None
    p = s.names[i]
    asked = set(R.concerned(s)) | set(s.answered)
    choices = []
    for t in targets:
        q = s.names[t]
        text = (_t(lang, "a last chance for {q}", q=q) if s.show and t in asked
                else _t(lang, "{q} has {cards}", q=q, cards=texts.Plural("{n} card", "{n} cards", s.cards[t])))
        choices.append(choice(q, q, preview(text, cards=s.cards[t])))
    # how many cards is the same whoever receives them (1 unless told): beside the move's name, so a
    # gift is one tap on whom it goes to
    count = number("count", _t(lang, "Cards"), 1, s.cards[i], default=1, optional=True)
    return form("give", p, _t(lang, "Give cards"), [pick("target", _t(lang, "To"), choices), count])


def _by_field(s: R.State, lang: str, player: int) -> Field | None:
    """« Who played it »: a seat picker, the card leaving that seat's hand."""
    players = _card_players(s)
    if not players:
        return None
    default = [j for j in players if j == player]
    out = pick("by", _t(lang, "Card played by"),
               [choice(s.names[j], s.names[j], preview(_t(lang, "{c}→{c2} cards", c=s.cards[j],
                                                            c2=s.cards[j] - 1)))
                for j in players], optional=True)
    if default:
        out["default"] = s.names[default[0]]
    return out


def _card_forms(s: R.State, i: int, lang: str) -> list[Form]:
    """Cards any castaway may play at any time (permanent cards, sickness, antivenom, revival)."""
    if s.phase == R.OVER:
        return []
    p = s.names[i]
    out: list[Form] = []
    if _card_ok(s, i):
        cards = [choice(c, _t(lang, CARD_LABELS[c]), preview(_t(lang, "face up in front of {p}", p=p)))
                 for c in R.PERMANENT]
        out.append(form("place", p, _t(lang, "Lay a permanent card"), [pick("card", _t(lang, "Card"), cards)]))
    by = _by_field(s, lang, -1)
    if s.alive[i] and not R.sick_now(s, i):
        text = _t(lang, "no vote this round, no action or card next round")
        out.append(form("sick", p, _t(lang, "Falls sick"), [by] if by else [], preview=preview(text)))
    if s.alive[i] and R.is_sick(s, i):
        own = _by_field(s, lang, i)
        out.append(form("heal", p, _t(lang, "Is cured (antivenom)"), [own] if own else []))
    if not s.alive[i]:
        out.append(form("revive", p, _t(lang, "Comes back to life"), [by] if by else [], confirm=True))
    effects = [c for c in R.EFFECTS if c in s.perm[i]]
    if s.alive[i] and effects:
        choices = []
        for c in effects:
            kind = R.EFFECTS[c]
            before = s.wood if kind == "wood" else R.track_of(s, kind)
            amount = _amount(lang, "How much", kind, before)
            choices.append(choice(c, _t(lang, CARD_LABELS[c]),
                                  preview(_t(lang, "{what} +1", what=_t(lang, kind)), resource=kind), fields=[amount]))
        out.append(form("effect", p, _t(lang, "A permanent card's effect"), [pick("card", _t(lang, "Card"), choices)]))
    return out


def _vote_forms(s: R.State, lang: str) -> list[Form]:
    out: list[Form] = []
    if s.phase not in R.COUNTS or s.show:
        return out
    if s.tie:
        votes: dict[int, int] = {}
        for _, t in s.last_vote:
            votes[t] = votes.get(t, 0) + 1
        choices = [choice(s.names[t], s.names[t],
                          preview(texts.render_n("{n} vote", "{n} votes", votes.get(t, 0), None, lang, DOMAIN), votes=votes.get(t, 0)))
                   for t in s.tie]
        out.append(form("tiebreak", s.names[s.first], _t(lang, "Break the tie"),
                        [pick("target", _t(lang, "Eliminated"), choices)], confirm=True))
        return out
    if s.ballot is None or s.condemned >= 0:
        return out
    if s.debate:
        out.append(form("debate", s.names[s.first], _t(lang, "Stop the debate: one, two, three, point!"), [],
                        player_optional=True))
    done, voters = _voted(s)
    label = _t(lang, {R.WATER: "Vote: who goes without water?", R.FOOD: "Vote: who goes without food?",
                      R.DEPART: "Vote: who stays on the island?"}[s.phase])
    pv = preview(_t(lang, "{k} of {n} have voted", k=done, n=voters), voted=done, voters=voters)
    targets = [choice(s.names[t], s.names[t], pv) for t in R.living_seats(s)]
    for i in range(len(s.names)):
        if R.can_vote(s, i) and s.ballot[i] < 0:
            out.append(form("vote", s.names[i], label,
                            [pick("target", _t(lang, "Your vote (secret)"), targets)], confirm=True,
                            secret=True))
    return out


def _moment_forms(s: R.State, lang: str) -> list[Form]:
    """« I have none » for each castaway asked, « nobody else » for the first player."""
    if not s.show:
        return []
    out: list[Form] = []
    for i in [j for j in range(len(s.names)) if R.may_answer(s, j)]:
        label = {R.ZERO: _t(lang, "I have no water card") if s.phase == R.WATER else _t(lang, "I have no food card"),
                 R.SAVE: _t(lang, "I cannot save myself"),
                 R.RAFT: _t(lang, "I have no card to play")}[s.show]
        pv = preview(_t(lang, "{p} dies", p=s.names[i])) if s.show != R.RAFT else None
        out.append(form("no_card", s.names[i], label, [], confirm=s.show != R.RAFT, preview=pv))
    risk = R.at_risk(s)
    text = (texts.render_n("{names} dies", "{names} die", len(risk), {"names": texts.join([s.names[i] for i in risk], lang)}, lang, DOMAIN) if risk and s.show != R.RAFT
            else _t(lang, "the raft's places are counted"))
    out.append(form("close", s.names[s.first], _t(lang, "Nobody else: close"), [], confirm=True,
                    player_optional=True, preview=preview(text, at_risk=[s.names[i] for i in risk])))
    return out


def _implied(forms: list[Form]) -> list[Form]:
    for f in forms:
        f["implies"] = "survival"
    return forms


def moves(state: R.State, lang: str = "en") -> list[Form]:
    """Every form that may be submitted now: the table's first, then each castaway's, each with its step
    (:mod:`companion.games.galerapagos.steps`)."""
    s = state
    out: list[Form] = []
    out.extend(_weather_forms(s, lang))
    embark = _embark_form(s, lang)
    if embark is not None:
        out.append(embark)
    survival = _survival_form(s, lang)
    if survival is not None:
        out.append(survival)
    if s.phase == R.ACTIONS:
        out.extend(_action_forms(s, R.actor(s), lang))
    if s.phase == R.ACTED:  # the survival step's own lines imply the confirmation
        after = confirmed(s)
        out.extend(_implied(_vote_forms(_raft_closed(after), lang) + _moment_forms(after, lang)))
    else:
        out.extend(_moment_forms(s, lang))
        out.extend(_vote_forms(_raft_closed(s), lang))
    for i in range(len(s.names)):
        for make in (_resource_form, _shoot_form, _give_form):
            f = make(s, i, lang)
            if f is not None:
                out.append(f)
        out.extend(_card_forms(s, i, lang))
    return with_steps(s, out, lang)
