"""Corrections: undo, redo, an edit or removal of an earlier action, and how each is told (session, API, pages, browser)."""
