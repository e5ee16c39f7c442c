"""Live updates: every seat's own view pushed by Server-Sent Events (API.md section 3).

- ``tickets``: ``POST /v1/{game}/games/{id}/ticket`` (the seat's bearer token) gives a
  short-lived signed stream ticket and an HttpOnly cookie scoped to the game's events path,
  so a browser's EventSource (which sends no headers) connects, and reconnects, without the
  seat token ever appearing in a URL. The signing secret is kept in the session store (one
  per store, shared by every worker process and host using it).
- ``bus``: who changed: a saved game publishes ``(game, id, version)``; every worker process
  holding streams of that game is told (:class:`~api.server.live.bus.ChangeBus`; the local
  implementation sends UNIX datagrams to each worker of the same store).
- ``stream``: ``GET /v1/{game}/games/{id}/events``, served on the worker's event loop in
  front of the WSGI bridge (an idle stream holds no thread); each push computes the seat's
  view through the app's own ``GET /v1/{game}/games/{id}`` in the store lane, so a pushed
  view is byte for byte what a poll returns. A periodic resync (``RESYNC_SECONDS``) compares
  the watched games' stored versions, so a lost notification is recovered.
"""

from __future__ import annotations
