"""Capsa Banting: rules, game, bots, oracles, stateless routes and game sessions over HTTP."""
