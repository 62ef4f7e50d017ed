"""Whatever a table lives through: kills at random moments, a damaged card, hostile clients, soaks."""
