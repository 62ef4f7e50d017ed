"""English and French for the dashboard, chosen per phone (a ``lang`` cookie).

Keys are the English texts themselves, so a missing translation shows English.
Rule refusals come translated from the rules when the game offers it
(:meth:`companion.rules.RuleError.text`).
"""

from __future__ import annotations

import re

from flask import has_request_context, request

LANGS = ("en", "fr")

FR: dict[str, str] = {
    # navigation and common words
    "Home": "Accueil", "Table": "Table", "Join": "Rejoindre", "Set-up": "Mise en place",
    "Simulation": "Simulation", "History": "Historique", "Language": "Langue",
    "Start a game": "Nouvelle partie", "Game": "Jeu", "Players": "Joueurs",
    "Players, in seating order (clockwise), one per line": "Joueurs, dans l'ordre des places (sens horaire), un par ligne",
    "Options (JSON)": "Options (JSON)", "Start": "Commencer", "Resume": "Reprendre",
    "Unfinished games": "Parties en cours", "No unfinished games.": "Aucune partie en cours.",
    "Finished games": "Parties terminées", "Statistics per player": "Statistiques par joueur",
    "played": "jouées", "won": "gagnées", "best": "meilleur", "average": "moyenne",
    "Export": "Exporter", "Import into BG Stats": "Importer dans BG Stats",
    "Round": "Manche", "Turn": "Tour", "Scores": "Scores", "Score": "Score",
    "Last actions": "Dernières actions", "Nothing yet.": "Rien pour l'instant.",
    "Undo": "Annuler", "Redo": "Rétablir", "Undo the last action?": "Annuler la dernière action ?",
    "Redo the last undone action?": "Rétablir la dernière action annulée ?",
    "Game over": "Partie terminée", "Winners": "Gagnants", "nobody": "personne",
    "Waiting for": "En attente de", "the table": "la table", "Your turn": "À vous",
    "Not your turn": "Ce n'est pas votre tour", "Your actions": "Vos actions",
    "More actions": "Autres actions", "Send": "Envoyer", "Quick": "Rapide",
    "Reconnecting…": "Reconnexion…", "Live": "En direct", "Sand timer": "Sablier",
    "seconds": "secondes", "Score per round": "Score par manche",
    "Join the table": "Rejoindre la table", "Join code": "Code",
    "Type the six digits shown on the table's screen.": "Tapez les six chiffres affichés sur l'écran de la table.",
    "Your seat": "Votre place", "taken": "prise", "Free the seat": "Libérer la place",
    "Phones": "Téléphones", "Scan to join": "Scannez pour rejoindre",
    "Act for": "Jouer pour", "Table actions": "Actions de la table",
    "Make this the table's game": "Jouer cette partie sur la table", "On the table": "Sur la table",
    "Open the table view": "Ouvrir la vue de la table", "Seat views": "Vues des places",
    "This page needs the table's link (printed when the companion started).":
        "Cette page demande le lien de la table (affiché au démarrage du compagnon).",
    "money": "argent", "education": "éducation", "points": "points", "animals": "animaux",
    "turtles": "tortues", "field": "case", "populations": "populations", "alive": "en vie",
    "sick": "malade", "dead": "mort", "cards": "cartes", "food": "nourriture", "water": "eau",
    "wood": "bois", "rafts": "radeaux", "weather": "météo", "hurricane": "ouragan",
    "Costs": "Coûts", "Education track": "Piste d'éducation", "The island": "L'île",
    "Populations": "Populations", "Rations": "Rations", "Raft": "Radeau",
    "Vote": "Voter", "You voted for": "Vous avez voté pour", "Votes are secret until everyone has voted.":
        "Les votes restent secrets jusqu'à ce que tout le monde ait voté.",
    "Suggest a path": "Suggérer un chemin", "Snake odds": "Risque de serpent",
    "Dice island": "Île des dés", "Build this island": "Construisez cette île", "New island": "Nouvelle île",
    "Weather deck": "Paquet météo", "Tag enrollment": "Enregistrement des puces",
    "Place a tag on the scan pad, then say what it is.": "Posez une puce sur le lecteur, puis dites ce que c'est.",
    "Last tag scanned": "Dernière puce lue", "none": "aucune", "Enroll": "Enregistrer", "Forget": "Oublier",
    "Buttons": "Boutons", "Readers": "Lecteurs", "Place": "Poser", "Remove": "Retirer",
    "OLED mirror": "Miroir de l'écran OLED", "Tag UID": "UID de la puce",
    "Simulated devices are off: start with companion run --sim.":
        "Les appareils simulés sont éteints : lancez companion run --sim.",
    "seat": "place", "players": "joueurs", "Choose": "Choisir", "phase": "phase",
    "on the table": "sur la table", "Refused": "Refusé", "Done": "Fait",
    "Sure?": "Sûr ?", "yes": "oui", "no": "non", "Cancel": "Annuler", "OK": "OK",
    "Bonus tiles": "Tuiles bonus", "tags enrolled": "puces enregistrées", "Tag": "Puce", "another tag…": "une autre puce…",
    "Roll for me": "Lancer pour moi", "Draw a weather card": "Tirer une carte météo",
    "after this round": "après cette manche", "rounds left": "manches restantes",
    "expected fish": "poissons attendus", "extra balls": "boules en plus", "Suggested plan": "Plan suggéré",
    "Plan this": "Jouer ce plan", "voted": "a voté", "Your vote": "Votre vote", "cards in hand": "cartes en main",
    # action types
    "bid": "enchérir", "pass": "passer", "direction": "direction", "expedition": "expédition", "sale": "vente",
    "exhibition": "exposition", "sell cards": "vendre des cartes", "exchange": "échange", "done": "terminé",
    "tile": "tuile", "start": "départ", "place turtles": "placer les tortues", "roll": "lancer les dés",
    "plan": "plan", "timer expired": "sablier écoulé", "move": "déplacer", "ocean": "océan", "species": "espèce",
    "population": "population", "end turn": "fin du tour", "fish": "pêcher", "search": "fouiller l'épave",
    "resource": "ressource", "vote": "voter", "tiebreak": "départager", "shoot": "tirer", "give": "donner",
    "place": "poser", "heal": "soigner", "revive": "ranimer", "embark": "embarquer",
    # fields
    "player": "joueur", "target": "cible", "amount": "montant", "steps": "pas", "animal": "animal",
    "take": "prend", "count": "nombre", "space": "espace", "mode": "mode", "icons": "icônes",
    "change": "changement", "numbers": "numéros", "path": "chemin", "dice": "dés", "extra": "boules en plus",
    "snake": "serpent", "basket": "corbeille", "card": "carte", "by": "par", "from": "de", "to": "vers",
    "1st": "1er", "bidding": "enchères", "actions": "actions", "end": "fin du tour", "over": "terminée",
    "setup": "mise en place", "depart": "départ", "wildcard": "joker (2 cartes)", "hidden": "secret", "hold Back: undo": "Back maintenu : annuler",
    "Up/Down pick an item of the entry, the encoder changes it, OK sends it.":
        "Up/Down choisissent un élément de la saisie, l'encodeur le change, OK l'envoie.", "Last vote": "Dernier vote",
    "Send with nothing chosen?": "Envoyer sans rien choisir ?",
    # page errors
    "This needs the table's token or a seat's pass: join with the code on the table's screen.":
        "Il faut le lien de la table ou une place : rejoignez avec le code affiché sur l'écran de la table.",
    "There is no such page.": "Cette page n'existe pas.",
    "Only the table (the token printed when the companion started) may do this.":
        "Seule la table (le lien affiché au démarrage du compagnon) peut faire cela.",
    "Your pass is for another game.": "Votre place est dans une autre partie.",
}


#: what a Galèrapagos vote decides, by the phase it is held in
VOTES = {"water": ("who goes without water", "qui n'aura pas d'eau"),
         "food": ("who goes without food", "qui n'aura pas de nourriture"),
         "depart": ("who stays behind", "qui reste sur l'île")}

#: the games' prompts (``Expected.prompt``, English) → French; groups keep names and numbers
PROMPTS: list[tuple[re.Pattern[str], str]] = [(re.compile(f"^{en}$"), fr) for en, fr in (
    (r"Lay a species tile on the (.+) square\.", r"Posez une tuile d'espèces sur la case \1."),
    (r"(.+): bid or pass\.", r"\1 : enchérir ou passer."),
    (r"No bids: (.+) chooses the direction\.", r"Aucune enchère : \1 choisit la direction."),
    (r"(.+): play (\w+) cards, then done\.", r"\1 : jouez les cartes \2, puis « terminé »."),
    (r"The game is over\.", "La partie est terminée."),
    (r"Place the pawns and the first turtles\.", "Placez les pions et les premières tortues."),
    (r"Draw (\d+) turtles and place them\.", r"Piochez \1 tortues et placez-les."),
    (r"Roll and plan your dice\.", "Lancez vos dés et planifiez votre chemin."),
    (r"(.+) moves\.", r"\1 se déplace."),
    (r"Turn (\d+) of (\d+): play your cards, then end the turn\.", r"Tour \1 sur \2 : jouez vos cartes, puis finissez le tour."),
    (r"Game over: you survived every turn and win\.", "Partie terminée : vous avez survécu à tous les tours, vous gagnez."),
    (r"Game over: two or more populations are at 0 and you lose\.",
     "Partie terminée : deux populations ou plus sont à 0, vous perdez."),
    (r"Game over: three of one species sit on the invasive species spaces and you lose\.",
     "Partie terminée : trois espèces identiques occupent les espaces invasifs, vous perdez."),
    (r"Turn the next weather card\.", "Retournez la prochaine carte Météo."),
    (r"(.+): fish, collect water or wood, or search the wreck\.",
     r"\1 : pêcher, ramasser de l'eau ou du bois, ou fouiller l'épave."),
    (r"(.+) breaks the tie\.", r"\1 tranche l'égalité."),
)]
VOTE_PROMPT = re.compile(r"^Vote \((\w+)\): (.+)\.$")


def prompt(text: str, language: str) -> str:
    """A game's prompt in ``language``; a vote's says what it decides ("Vote (food): …" is terse)."""
    vote = VOTE_PROMPT.match(text)
    if vote and vote.group(1) in VOTES:
        what = VOTES[vote.group(1)][language == "fr"]
        return (f"Vote secret : {what} ? Attendu : {vote.group(2)}." if language == "fr"
                else f"Secret vote: {what}? Waiting for {vote.group(2)}.")
    if language == "fr":
        for pattern, fr in PROMPTS:
            if pattern.match(text):
                return pattern.sub(fr, text)
    return text


def lang() -> str:
    """The phone's language: the ``lang`` cookie, else the browser's preference, else English."""
    if not has_request_context():
        return "en"
    chosen = request.cookies.get("lang")
    if chosen in LANGS:
        return chosen
    best = request.accept_languages.best_match(LANGS)
    return best or "en"


def translate(text: str, language: str) -> str:
    return FR.get(text, text) if language == "fr" else text


#: field names whose French differs from the action of the same name ("fish": pêcher / poissons)
FIELDS_FR = {"fish": "poissons"}


def translator(language: str):
    """``t(text)``; ``t.field(name)`` for an action field's name."""

    def t(text: str) -> str:
        return translate(text, language)

    def field(name: str) -> str:
        return FIELDS_FR.get(name, t(name.replace("_", " "))) if language == "fr" else name.replace("_", " ")

    t.field = field  # type: ignore[attr-defined]
    return t
