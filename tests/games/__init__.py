"""The games (companion/games): each rulebook's sentences, the whole-game scenarios, the results."""
