"""Bilingual (English, French) sentences of the galerapagos rules engine.

The rulebook is French and so is the table, so every refusal carries both
languages: ``RuleError.message`` is English, ``translations["fr"]`` French.
Kept apart from the rules so the engine reads as rules, not as prose.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from companion.rules import RuleError


class Word(NamedTuple):
    """A phrase in both languages, passed as an argument to a sentence."""

    en: str
    fr: str


#: key -> (English, French); ``{name}`` placeholders take str or :class:`Word`.
MESSAGES: dict[str, tuple[str, str]] = {
    "over": ("The game is over.", "La partie est terminée."),
    "no_player": ("There is no player {name} at this table.",
                  "Il n'y a pas de joueur {name} à cette table."),
    "dead_act": ("{p} is dead and cannot act.", "{p} est mort et ne peut plus agir."),
    "dead_card": ("{p} is dead and cannot play a card.",
                  "{p} est mort et ne peut plus jouer de carte."),
    "dead_vote": ("{p} is dead and cannot vote (the variant « la voix des morts » is off).",
                  "{p} est mort et ne peut pas voter (la variante « la voix des morts » n'est pas jouée)."),
    "sick_act": ("{p} is sick and cannot act this round.",
                 "{p} est malade et ne peut pas agir ce tour-ci."),
    "sick_card": ("{p} is sick and cannot play a card this round.",
                  "{p} est malade et ne peut pas jouer de carte ce tour-ci."),
    "sick_vote": ("{p} is sick and cannot vote this round.",
                  "{p} est malade et ne peut pas voter ce tour-ci."),
    "not_now": ("{p} cannot {verb} now: {now}.", "{p} ne peut pas {verb} maintenant : {now}."),
    "acted": ("{p} has already acted this round.", "{p} a déjà agi ce tour-ci."),
    "turn": ("It is {q}'s turn to act, not {p}'s.", "C'est au tour de {q} d'agir, pas de {p}."),
    "wreck_empty": ("The wreck is empty: {p} cannot search it.",
                    "L'épave est vide : {p} ne peut pas la fouiller."),
    "fish_range": ("{p} cannot catch {n} fish: a ball shows 0 to {hi}.",
                   "{p} ne peut pas pêcher {n} poissons : une boule en montre de 0 à {hi}."),
    "extra_range": ("{p} may draw 0 to 5 extra balls for wood, not {k}.",
                    "{p} peut piocher de 0 à 5 boules de plus pour le bois, pas {k}."),
    "snake_no_draw": ("{p} drew no extra ball, so no snake can have bitten.",
                      "{p} n'a pioché aucune boule de plus : aucun serpent n'a pu mordre."),
    "weather_now": ("The weather card cannot be turned now: {now}.",
                    "On ne peut pas retourner de carte Météo maintenant : {now}."),
    "weather_missing": ("Say how many drops the weather card shows (\"water\").",
                        "Indiquez le nombre de gouttes de la carte Météo (« water »)."),
    "weather_none_left": ("No weather card with {n} drops is left in the deck (left: {left}).",
                          "Il ne reste aucune carte Météo à {n} gouttes dans la pile (restent : {left})."),
    "hurricane_early": ("The hurricane lies among the bottom six weather cards and cannot come up before round {r}.",
                        "L'ouragan est parmi les six dernières cartes Météo et ne peut pas sortir avant le tour {r}."),
    "hurricane_gone": ("The hurricane has already come up.", "L'ouragan est déjà sorti."),
    "hurricane_drops": ("The hurricane card shows {h} drops, not {n}.",
                        "La carte Ouragan montre {h} gouttes, pas {n}."),
    "no_card": ("{p} has no card left to play.", "{p} n'a plus de carte à jouer."),
    "give_count": ("{p} has {c} card(s) and cannot give {n}.",
                   "{p} a {c} carte(s) et ne peut pas en donner {n}."),
    "amount": ("{p} cannot play a resource card of {n} rations: a card adds 1 to 9.",
               "{p} ne peut pas jouer une carte Ressource de {n} rations : une carte en ajoute de 1 à 9."),
    "kind": ("{p}'s resource card must be water or food, not {v}.",
             "La carte Ressource de {p} doit être water (eau) ou food (nourriture), pas {v}."),
    "basket": ("{p}'s fruit basket is a food card, not a water card.",
               "Le panier garni de {p} est une carte Nourriture, pas une carte Eau."),
    "declared": ("{p} has already shown a {res} card.", "{p} a déjà montré une carte {res}."),
    "no_vote": ("There is no vote now: {now}.", "Il n'y a pas de vote maintenant : {now}."),
    "voted": ("{p} has already voted.", "{p} a déjà voté."),
    "target_dead": ("{q} is dead and cannot be chosen.", "{q} est mort et ne peut pas être désigné."),
    "no_tie": ("There is no tie to break now.", "Il n'y a pas d'égalité à trancher maintenant."),
    "not_first": ("Only {f}, the first player, breaks the tie, not {p}.",
                  "Seul {f}, le premier joueur, tranche l'égalité, pas {p}."),
    "not_tied": ("{q} is not among the tied players ({tied}).",
                 "{q} ne fait pas partie des ex aequo ({tied})."),
    "shoot_self": ("{p} cannot shoot himself.", "{p} ne peut pas se tirer dessus."),
    "give_self": ("{p} cannot give cards to himself.", "{p} ne peut pas se donner de cartes."),
    "shoot_cards": ("{p} needs a revolver and a cartridge to shoot but has {c} card(s) in hand.",
                    "{p} doit jouer un revolver et une cartouche pour tirer, mais n'a que {c} carte(s) en main."),
    "not_sick": ("{p} is not sick.", "{p} n'est pas malade."),
    "already_sick": ("{p} is already sick this round.", "{p} est déjà malade ce tour-ci."),
    "not_dead": ("{p} is alive.", "{p} est vivant."),
    "perm_card": ("{card} is not a permanent card; they are {known}.",
                  "{card} n'est pas une carte à effet permanent ; ce sont {known}."),
    "embark_now": ("The raft can only leave at the end of a round, once the rations are shared: {now}.",
                   "Le radeau ne part qu'à la fin d'un tour, une fois les rations distribuées : {now}."),
    "embark_rafts": ("The raft cannot leave: {n} survivors need {n} raft cards and there are {r}.",
                     "Le radeau ne peut pas partir : {n} survivants ont besoin de {n} cartes Radeau et il y en a {r}."),
    "embark_water": ("The raft cannot leave: {n} survivors need {n} water for the voyage and {w} are left.",
                     "Le radeau ne peut pas partir : {n} survivants ont besoin de {n} rations d'eau pour le voyage et il en reste {w}."),
    "embark_food": ("The raft cannot leave: {n} survivors need {n} food for the voyage and {f} are left.",
                    "Le radeau ne peut pas partir : {n} survivants ont besoin de {n} rations de nourriture pour le voyage et il en reste {f}."),
    "embark_basket": ("The raft cannot leave: {n} survivors need {n} food for the voyage and only {f} count, "
                      "the fruit basket's {b} not being a ration for the voyage.",
                      "Le radeau ne peut pas partir : {n} survivants ont besoin de {n} rations de nourriture pour le voyage "
                      "et seules {f} comptent, les {b} du panier garni ne servant pas de ration pour embarquer."),
    "bad_int": ("\"{key}\" must be a whole number, not {v}.",
                "« {key} » doit être un nombre entier, pas {v}."),
    "bad_bool": ("\"{key}\" must be true or false, not {v}.",
                 "« {key} » doit valoir true ou false, pas {v}."),
    "bad_option": ("Galèrapagos has no option \"{key}\"; it knows {known}.",
                   "Galèrapagos n'a pas d'option « {key} » ; il connaît {known}."),
    "bad_option_value": ("Option \"{key}\" must be {what}.", "L'option « {key} » doit être {what}."),
}

#: what the table is doing now, for "cannot ... now: {now}" sentences.
NOW: dict[str, tuple[str, str]] = {
    "weather": ("the weather card must be turned first",
                "il faut d'abord retourner la carte Météo"),
    "actions": ("the castaways are taking their actions ({q}'s turn)",
                "les naufragés font leurs actions (au tour de {q})"),
    "water": ("the water is being shared", "l'eau est en cours de distribution"),
    "food": ("the food is being shared", "la nourriture est en cours de distribution"),
    "vote_water": ("the castaways are voting on who goes without water",
                   "les naufragés votent pour désigner qui n'aura pas d'eau"),
    "vote_food": ("the castaways are voting on who goes without food",
                  "les naufragés votent pour désigner qui n'aura pas de nourriture"),
    "vote_depart": ("the castaways are voting on who stays behind",
                    "les naufragés votent pour désigner qui reste sur l'île"),
    "tie": ("{q}, the first player, must break the tie",
            "{q}, le premier joueur, doit trancher l'égalité"),
    "end": ("the round is over; turn the next weather card",
            "le tour est fini ; retournez la prochaine carte Météo"),
    "depart": ("the raft is leaving before the hurricane", "le radeau part avant l'ouragan"),
    "over": ("the game is over", "la partie est terminée"),
}

VERBS: dict[str, Word] = {
    "fish": Word("fish", "pêcher"),
    "water": Word("collect water", "collecter de l'eau"),
    "wood": Word("collect wood", "collecter du bois"),
    "search": Word("search the wreck", "fouiller l'épave"),
}

RESOURCES: dict[str, Word] = {
    "water": Word("water", "Eau"),
    "food": Word("food", "Nourriture"),
}


def now(moment: str, /, **kw: Any) -> Word:
    """What is happening at the table, in both languages."""
    en, fr = NOW[moment]
    return Word(en.format(**kw), fr.format(**kw))


def _pick(value: Any, lang: int) -> Any:
    return value[lang] if isinstance(value, Word) else value


def error(sentence: str, /, **kw: Any) -> RuleError:
    """The RuleError for ``MESSAGES[sentence]``: English message, French translation."""
    en, fr = MESSAGES[sentence]
    text_en = en.format(**{k: _pick(v, 0) for k, v in kw.items()})
    text_fr = fr.format(**{k: _pick(v, 1) for k, v in kw.items()})
    return RuleError(text_en, translations={"fr": text_fr})
