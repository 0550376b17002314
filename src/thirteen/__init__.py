"""Thirteen: Chinese Poker and Open-Face Chinese Poker — engine, card room and bots."""

__version__ = "0.1.0"
