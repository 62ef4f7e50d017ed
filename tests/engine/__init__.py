"""The engine (companion/engine): the game registry, the moves contract every interface relies on, charts, evolve."""
