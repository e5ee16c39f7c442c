"""Capsa Banting over HTTP: stateless routes, game sessions and their schemas."""

from __future__ import annotations
