"""The server: app factory, settings, ASGI bridge, worker, session store, shared route parts."""

from __future__ import annotations
