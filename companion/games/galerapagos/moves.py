"""Galèrapagos' legal moves as forms (see :mod:`companion.moves`): exactly what ``apply`` accepts now.

Two sources make up what the rules accept now:

* the *base* state (the state without its last-chance snapshots): the weather
  card, the acting castaway's action, the votes, the tie, and the cards any
  castaway may play at any time ("Les cartes Épave peuvent être jouées à tout
  moment": resource, shot, gift, permanent card, sickness, antivenom, revival);
* the *last chances* kept in ``state.chain`` (see rules.py): on the very next line
  only, the condemned's resource card or shot, a card shown at a count on 0 by a
  castaway alive then, a card handed to one of them, and a card, a shot or the raft
  leaving before the hurricane's default. The rules try such a line on the latest
  snapshot whose window takes it (``rules._window_accepts``), then on the base state.

Each form below is the union of both, computed with the rules' own predicates,
so every move offered is accepted and every accepted move is offered (checked
by ``tests/games/test_galerapagos_moves.py`` against an exhaustive oracle).

Known gaps, each an action no table sends (the rules accept it, no form matches it):
``wood`` with ``snake: false`` but no ``extra``; ``weather``/``embark`` naming a
player (the rules ignore who turned the card, the forms are the table's).
"""

from __future__ import annotations

from typing import Any

from companion import texts
from companion.games.galerapagos import rules as R
from companion.moves import Choice, Field, Form, choice, form, number, pick, preview

DOMAIN = "galerapagos"

#: French and English names of the permanent cards are message ids in the catalog
CARD_LABELS = {
    "water_bottle": "Water bottle", "club": "Club", "axe": "Axe",
    "fishing_rod": "Fishing rod", "crystal_ball": "Crystal ball", "revolver": "Revolver",
}


def _t(lang: str, msgid: str, **params: Any) -> str:
    return texts.render(msgid, params, lang, DOMAIN)


# -- what the rules accept, per source ------------------------------------------

def _window(s: R.State, action: dict[str, Any]) -> R.State | None:
    """The last-chance snapshot the rules would try ``action`` on first (None: the base state only)."""
    for snap in reversed(s.chain):
        if R._window_accepts(snap, action):
            return snap
    return None


def _card_ok(st: R.State, i: int) -> bool:
    """``_need_card_player``: alive, not sick since last round, a card in hand."""
    return st.phase != R.OVER and R.can_play(st, i) and st.cards[i] > 0


def _resource_ok(st: R.State, i: int, kind: str) -> bool:
    if not _card_ok(st, i):
        return False
    return not (st.phase == kind and st.zero and any(d[0] == i for d in st.declared))


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


def _resource_preview(st: R.State, i: int, kind: str, lang: str) -> dict[str, Any]:
    """What one card of ``kind`` does where the rules apply it: a last chance saves, else the track rises."""
    name = st.names[i]
    if st.phase == kind and st.zero:  # shown at a count on 0: his own ration
        return preview(_t(lang, "{p} survives", p=name), saves=name)
    if st.condemned == i and st.phase in (kind, R.DEPART):
        return preview(_t(lang, "{p} is saved", p=name), saves=name)
    before = R._track(st, kind)
    return preview(_arrow(lang, kind, before, before + 1), **{kind: before + 1, "per_card": 1})


def _snake_pct(s: R.State, k: int) -> int:
    return round(100 * R.snake_chance(k, len(s.opts.bag)))


def _wood_after(s: R.State, pieces: int) -> tuple[int, int]:
    after = R._add_wood(s, pieces)
    return after.wood, after.rafts


def _voted(s: R.State) -> tuple[int, int]:
    assert s.ballot is not None
    voters = [i for i in range(len(s.names)) if R.can_vote(s, i)]
    return sum(1 for i in voters if s.ballot[i] >= 0), len(voters)


# -- the forms ------------------------------------------------------------------

def _weather_forms(s: R.State, lang: str) -> list[Form]:
    if s.phase not in (R.WEATHER, R.END) or (s.phase == R.END and s.hurricane):
        return []
    out: list[Form] = []
    nxt = s.round if s.phase == R.WEATHER else s.round + 1
    living = len(R._living(s))
    if s.deck:
        left = {w: s.deck.count(w) for w in sorted(set(s.deck))}
        cards = [
            choice(w, _t(lang, "{n} drops", n=w),
                   preview(_t(lang, "{k} such card(s) left", k=k), cards_left=k, water_per_action=w),
                   fields=[pick("hurricane", _t(lang, "Hurricane"),
                                [choice(False, _t(lang, "no"))], default=False, optional=True)])
            for w, k in left.items()
        ]
        out.append(form("weather", None, _t(lang, "Turn the weather card"),
                        [pick("water", _t(lang, "Drops on the card"), cards)],
                        round=nxt, player_optional=True))
    if s.hurricane_left and nxt >= s.opts.hurricane_from:
        hw = s.opts.hurricane_water
        out.append(form(
            "weather", None, _t(lang, "The hurricane card"),
            [pick("hurricane", _t(lang, "Hurricane"), [choice(
                True, _t(lang, "yes"),
                preview(_t(lang, "the raft must leave at the end of this round"), survivors=living))]),
             pick("water", _t(lang, "Drops on the card"), [choice(hw, _t(lang, "{n} drops", n=hw))],
                  default=hw, optional=True)],
            confirm=True, round=nxt, player_optional=True))
    return out


def _embark_form(s: R.State, lang: str) -> Form | None:
    base = s._replace(chain=()) if s.chain else s
    depart = any(R._window_accepts(snap, {"type": "embark"}) for snap in s.chain)
    left_already = base.phase == R.OVER and base.reason == "hurricane"
    ready = base.phase == R.END and not base.hurricane and R.embark_problem(base) is None
    if not (depart or left_already or ready):
        return None
    if ready:
        n = len(R._living(base))
        text = _t(lang, "{n} survivors leave: water {w}→{w2}, food {f}→{f2}",
                  n=n, w=base.water, w2=base.water - n, f=base.food, f2=base.food - n)
        pv = preview(text, survivors=n, water=base.water - n, food=base.food - n)
    else:
        pv = preview(_t(lang, "the raft leaves with the survivors it can take"))
    return form("embark", None, _t(lang, "Embark on the raft"), [], confirm=True, preview=pv,
                player_optional=True)


def _action_forms(s: R.State, i: int, lang: str) -> list[Form]:
    """The acting castaway's four actions (fish, water, wood, search)."""
    p = s.names[i]
    out: list[Form] = []
    top = max(s.opts.bag)
    fish = [choice(n, _t(lang, "{n} fish", n=n), preview(_arrow(lang, "food", s.food, s.food + n), food=s.food + n))
            for n in range(0, top + 1)]
    out.append(form("fish", p, _t(lang, "Fish"), [pick("fish", _t(lang, "Fish caught"), fish)],
                    preview=preview(_t(lang, "about {x} fish a ball", x=f"{R.expected_fish(s.opts.bag):.1f}"),
                                    expected_fish=R.expected_fish(s.opts.bag))))
    drops = s.weather or 0
    out.append(form("water", p, _t(lang, "Collect water"), [],
                    preview=preview(_arrow(lang, "water", s.water, s.water + drops), water=s.water + drops)))
    extras: list[Choice] = []
    for k in range(0, R.MAX_EXTRA_BALLS + 1):
        wood, rafts = _wood_after(s, 1 + k)
        safe = preview(_t(lang, "+{n} wood: raft {r}, disc {d}", n=1 + k, r=rafts, d=wood),
                       wood=wood, rafts=rafts)
        if k == 0:
            snake = pick("snake", _t(lang, "Snake"), [choice(False, _t(lang, "no"), safe)],
                         default=False, optional=True)
            extras.append(choice(0, _t(lang, "no extra ball"), safe, fields=[snake]))
            continue
        bit_wood, bit_rafts = _wood_after(s, 1)
        bitten = preview(_t(lang, "{p} falls sick, +1 wood", p=p), wood=bit_wood, rafts=bit_rafts, sick=True)
        pct = _snake_pct(s, k)
        snake = pick("snake", _t(lang, "Snake drawn"),
                     [choice(False, _t(lang, "no: all white"), safe), choice(True, _t(lang, "yes: bitten"), bitten)],
                     optional=True)
        extras.append(choice(k, _t(lang, "+{k} ball(s)", k=k),
                             preview(_t(lang, "snake {pct}%", pct=pct), snake=R.snake_chance(k, len(s.opts.bag)),
                                     wood=wood, rafts=rafts),
                             fields=[snake]))
    out.append(form("wood", p, _t(lang, "Collect wood"),
                    [pick("extra", _t(lang, "Extra balls drawn"), extras, optional=True)]))
    if s.wreck > 0:
        out.append(form("search", p, _t(lang, "Search the wreck"), [],
                        preview=preview(_t(lang, "{c}→{c2} cards, {w} left in the wreck",
                                           c=s.cards[i], c2=s.cards[i] + 1, w=s.wreck - 1),
                                        cards=s.cards[i] + 1, wreck=s.wreck - 1)))
    return out


def _resource_form(s: R.State, base: R.State, i: int, lang: str) -> Form | None:
    p = s.names[i]
    kinds: list[Choice] = []
    for kind in (R.WATER, R.FOOD):
        snap = _window(s, {"type": "resource", "player": p, "resource": kind})
        st = snap if snap is not None and _resource_ok(snap, i, kind) else base
        if not _resource_ok(st, i, kind):
            continue
        before = R._track(st, kind)
        amount = number("amount", _t(lang, "Rations on the card"), 1, 9, default=1, optional=True,
                        preview=preview(_t(lang, "{what} {a}→{a}+n", what=_t(lang, kind), a=before),
                                        before=before))
        baskets = [choice(False, _t(lang, "no"))]
        if kind == R.FOOD:
            baskets.append(choice(True, _t(lang, "yes: not for the voyage")))
        basket = pick("basket", _t(lang, "Fruit basket"), baskets, default=False, optional=True)
        kinds.append(choice(kind, _t(lang, kind.capitalize()), _resource_preview(st, i, kind, lang),
                            fields=[amount, basket]))
    if not kinds:
        return None
    return form("resource", p, _t(lang, "Play a resource card"), [pick("resource", _t(lang, "Resource"), kinds)])


def _shoot_form(s: R.State, base: R.State, i: int, lang: str) -> Form | None:
    p = s.names[i]
    snap = _window(s, {"type": "shoot", "player": p})
    targets: dict[int, R.State] = {}
    for st in ([snap] if snap is not None else []) + [base]:
        if _shoot_ok(st, i):
            for t in range(len(st.names)):
                if t != i and st.alive[t]:
                    targets.setdefault(t, st)
    if not targets:
        return None
    choices = []
    for t, st in sorted(targets.items()):
        armed = "revolver" in st.perm[i]
        cost = _t(lang, "a cartridge") if armed else _t(lang, "revolver and cartridge")
        text = _t(lang, "costs {cost}", cost=cost)
        if st.condemned == i:
            text = _t(lang, "{p} is saved; {rest}", p=p, rest=text)
        choices.append(choice(st.names[t], st.names[t], preview(text, cards=1 if armed else 2)))
    return form("shoot", p, _t(lang, "Shoot a castaway"), [pick("target", _t(lang, "Target"), choices)],
                confirm=True)


def _give_form(s: R.State, base: R.State, i: int, lang: str) -> Form | None:
    p = s.names[i]
    most: dict[int, int] = {}
    saves: set[int] = set()
    for t in range(len(s.names)):
        snap = _window(s, {"type": "give", "player": p, "target": s.names[t]})
        for st in ([snap] if snap is not None else []) + [base]:
            if t in _give_targets(st, i):
                most[t] = max(most.get(t, 0), st.cards[i])
                if st is snap:
                    saves.add(t)
    if not most:
        return None
    choices = []
    for t, top in sorted(most.items()):
        q = s.names[t]
        text = _t(lang, "a last chance for {q}", q=q) if t in saves else _t(lang, "{q} has {c} card(s)", q=q, c=s.cards[t])
        count = number("count", _t(lang, "Cards"), 1, top, default=1, optional=True)
        choices.append(choice(q, q, preview(text, cards=s.cards[t]), fields=[count]))
    return form("give", p, _t(lang, "Give cards"), [pick("target", _t(lang, "To"), choices)])


def _by_field(base: R.State, lang: str) -> Field | None:
    players = _card_players(base)
    if not players:
        return None
    return pick("by", _t(lang, "Card played by"),
                [choice(base.names[j], base.names[j], preview(_t(lang, "{c}→{c2} cards", c=base.cards[j],
                                                                   c2=base.cards[j] - 1)))
                 for j in players], optional=True)


def _card_forms(base: R.State, i: int, by: Field | None, lang: str) -> list[Form]:
    """Cards any castaway may play at any time, from the base state (no last chance takes them)."""
    if base.phase == R.OVER:
        return []
    p = base.names[i]
    out: list[Form] = []
    extra = [by] if by else []
    if _card_ok(base, i):
        cards = [choice(c, _t(lang, CARD_LABELS[c]), preview(_t(lang, "face up in front of {p}", p=p)))
                 for c in R.PERMANENT]
        out.append(form("place", p, _t(lang, "Lay a permanent card"), [pick("card", _t(lang, "Card"), cards)]))
    if base.alive[i] and not R._sick_now(base, i):
        text = _t(lang, "no vote this round, no action or card next round")
        out.append(form("sick", p, _t(lang, "Falls sick"), list(extra), preview=preview(text)))
    if base.alive[i] and R.is_sick(base, i):
        out.append(form("heal", p, _t(lang, "Is cured (antivenom)"), list(extra)))
    if not base.alive[i]:
        out.append(form("revive", p, _t(lang, "Comes back to life"), list(extra), confirm=True))
    return out


def _vote_forms(base: R.State, lang: str) -> list[Form]:
    out: list[Form] = []
    if base.phase not in R.COUNTS or base.phase == R.OVER:
        return out
    if base.tie:
        votes: dict[int, int] = {}
        for _, t in base.last_vote:
            votes[t] = votes.get(t, 0) + 1
        choices = [choice(base.names[t], base.names[t],
                          preview(_t(lang, "{v} vote(s)", v=votes.get(t, 0)), votes=votes.get(t, 0)))
                   for t in base.tie]
        out.append(form("tiebreak", base.names[base.first], _t(lang, "Break the tie"),
                        [pick("target", _t(lang, "Eliminated"), choices)], confirm=True))
        return out
    if base.ballot is None or base.condemned >= 0:
        return out
    done, voters = _voted(base)
    label = _t(lang, {R.WATER: "Vote: who goes without water?", R.FOOD: "Vote: who goes without food?",
                      R.DEPART: "Vote: who stays on the island?"}[base.phase])
    pv = preview(_t(lang, "{k} of {n} have voted", k=done, n=voters), voted=done, voters=voters)
    targets = [choice(base.names[t], base.names[t], pv) for t in R._living(base)]
    for i in range(len(base.names)):
        if R.can_vote(base, i) and base.ballot[i] < 0:
            out.append(form("vote", base.names[i], label,
                            [pick("target", _t(lang, "Your vote (secret)"), targets)], confirm=True,
                            secret=True))
    return out


def moves(state: R.State, lang: str = "en") -> list[Form]:
    """Every form that may be submitted now: the table's first, then each castaway's (waiting ones first)."""
    s = state
    base = s._replace(chain=()) if s.chain else s
    out: list[Form] = []
    out.extend(_weather_forms(base, lang))
    embark = _embark_form(s, lang)
    if embark is not None:
        out.append(embark)
    if base.phase == R.ACTIONS:
        out.extend(_action_forms(base, R._actor(base), lang))
    out.extend(_vote_forms(base, lang))
    by = _by_field(base, lang) if base.phase != R.OVER else None
    for i in range(len(s.names)):
        for make in (_resource_form, _shoot_form, _give_form):
            f = make(s, base, i, lang)
            if f is not None:
                out.append(f)
        out.extend(_card_forms(base, i, by, lang))
    return out
