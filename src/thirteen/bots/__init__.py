"""Bots and solvers: they import the engine only."""
