"""The table (companion/table): the journal, the session, its sand timer, the story, the history."""
