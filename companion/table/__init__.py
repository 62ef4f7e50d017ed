"""The table: one live game over its SQLite journal, and everything read back from it.

The session, the journal (store, recovery, backups, migrations), who sent what, corrections,
the story, the undo policy, timers, the library. It imports the engine, never the board,
the CLI or the web layer.
"""
