"""Helpers the tests share (no tests here): game helpers per game, the dashboard's test table."""
