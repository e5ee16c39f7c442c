"""Poker: cards, hand evaluation, equity, their oracles and HTTP routes."""
