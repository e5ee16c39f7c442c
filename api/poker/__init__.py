"""Poker over HTTP: hand evaluation, showdowns and equity."""

from __future__ import annotations
