"""hw package."""
