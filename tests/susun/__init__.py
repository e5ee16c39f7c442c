"""Capsa Susun: arrangement, table, oracle, stateless routes and game sessions over HTTP."""
