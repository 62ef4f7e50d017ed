"""The house's own rules: the floors and their imports (no loops), the type check."""
