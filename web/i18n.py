"""English and French for the dashboard, chosen per phone (a ``lang`` cookie).

Keys are the English texts themselves, so a missing translation shows English.
Rule refusals come translated from the rules when the game offers it
(:meth:`companion.rules.RuleError.text`).
"""

from __future__ import annotations

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
}


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


def translator(language: str):
    def t(text: str) -> str:
        return translate(text, language)

    return t
