"""Benchmarks: each module prints one JSON object mapping metric names to figures."""
