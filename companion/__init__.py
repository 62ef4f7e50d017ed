"""Galapagos Table Companion: rules engines, journal, table controller and CLI."""

__version__ = "0.1.0"
