"""web package."""
