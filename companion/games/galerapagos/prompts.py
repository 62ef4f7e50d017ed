"""Galèrapagos' prompts as each phone says them: to the castaway who must act (« you »), to a phone
waiting for the tablet, and to a castaway who may act while the prompt names another (why the move
is offered). The rules' prompt ids on the left, the sentences (message ids, same parameters) on the
right; ``web.seat_view`` reads them.
"""

from __future__ import annotations

#: the rules' prompts (message ids) as the phone of a castaway who must act says them (same parameters)
PROMPT_FOR_YOU = {
    "{p}: fish, collect water or wood, or search the wreck.": "You must fish, collect water or wood, or search the wreck.",
    "Water is short by {n}: play water cards, then {f} ends the debate and everyone votes.":
        "Water is short by {n}: you may play a water card; when the table is ready, you end the debate and everyone votes.",
    "Food is short by {n}: play food cards, then {f} ends the debate and everyone votes.":
        "Food is short by {n}: you may play a food card; when the table is ready, you end the debate and everyone votes.",
    "The raft lacks {n}: play cards, then {f} ends the debate and everyone votes.":
        "The raft lacks {n}: you may play a card that gives it a place; when the table is ready, you end the debate "
        "and everyone votes.",
    "{p} has no card: someone may give him one ({q} holds {cards}).":
        "You hold no card: someone may give you one ({q} holds {cards}).",
    "Everyone has acted: {p}, go to survival?": "Everyone has acted: you may start the survival step.",
    "{p} breaks the tie.": "You must break the tie.",
    "Vote ({phase}): {names}.": "You must vote, in secret ({phase}).",
    "Water is on 0: each castaway who holds a water card shows it now.":
        "Water is on 0: show a water card now if you hold one.",
    "Food is on 0: each castaway who holds a food card shows it now.":
        "Food is on 0: show a food card now if you hold one.",
    "The raft has {places} for {survivors}: play water or food cards, or shoot, before it leaves.":
        "The raft has {places} for {survivors}: you may play water or food cards, or shoot, before it leaves.",
    "{p} may still escape the verdict with a water card or a shot.":
        "The vote condemned you: you may still escape with a water card or a shot.",
    "{p} may still escape the verdict with a food card or a shot.":
        "The vote condemned you: you may still escape with a food card or a shot.",
    "{p} may still escape the verdict with a card that gives the raft a place, or a shot.":
        "The vote left you behind: you may still escape with a card that gives the raft a place, or a shot.",
}
#: the rules' prompts that name another seat, as a seat that may also act then reads them: why it is
#: offered a move (« Water is short: you may play a water card, or wait for the vote »)
PROMPT_FOR_OTHERS = {
    "Water is short by {n}: play water cards, then {f} ends the debate and everyone votes.":
        "Water is short by {n}: you may play a water card, or wait for the vote ({f} ends the debate).",
    "Food is short by {n}: play food cards, then {f} ends the debate and everyone votes.":
        "Food is short by {n}: you may play a food card, or wait for the vote ({f} ends the debate).",
    "The raft lacks {n}: play cards, then {f} ends the debate and everyone votes.":
        "The raft lacks {n}: you may play a card that gives it a place, or wait for the vote ({f} ends the debate).",
    "{p} has no card: someone may give him one ({q} holds {cards}).": "{p} has no card: you may give him one.",
    "{p} may still escape the verdict with a water card or a shot.":
        "{p} may still escape the verdict with a water card or a shot: wait for {p}.",
    "{p} may still escape the verdict with a food card or a shot.":
        "{p} may still escape the verdict with a food card or a shot: wait for {p}.",
    "{p} may still escape the verdict with a card that gives the raft a place, or a shot.":
        "{p} may still escape the verdict with a card that gives the raft a place, or a shot: wait for {p}.",
}
#: the rules' prompts for the table's own move, as a phone waiting for the tablet says them
PROMPT_FOR_TABLE = {
    "Turn the next weather card.": "Waiting for the tablet to turn the next weather card.",
    "The raft can leave now: embark?": "You can leave now: embark? (at the tablet)",
}
