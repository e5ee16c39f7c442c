"""Game sessions stored in SQLite: a match kept as data, rebuilt by replaying it.

Capsa Banting matches live in ``banting_games`` and Capsa Susun tables in ``susun_games``;
both tables have the same columns and the store treats them alike (:class:`SessionRecord`).

A stored match is what cannot be derived: the rule settings, the number of players, which
seats are bots, the hashes of the human seats' tokens, and for each round its code and
every move made in it, the bots' included. Everything else (hands, turn, table, results,
the match totals) is rebuilt by replaying those moves through :class:`banting.Game`, so the
engine stays the one source of truth and a stored game cannot hold a state the rules could
not reach. Replaying never asks a bot to choose again (only new bot moves are computed), so
it is exact whatever the bot level, including "random".

Concurrency is optimistic: each row has a ``version``; a writer loads a match, changes it in
memory and saves it with ``UPDATE ... WHERE id = ? AND version = ?``, and a save that finds
another version returns False instead of overwriting the other writer's move. Each thread
keeps its own connection (WAL mode, a busy timeout), so the store can be shared by threads
and processes. A thread may set a deadline (:meth:`GameStore.set_deadline`): its calls then
wait for another writer's lock until the deadline at the latest, so a request answers in
time. No Flask here: the routes are in ``api.banting.games``.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import hmac
import json
import os
import re
import secrets
import shutil
import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, ClassVar, TypeVar, overload

from capsa_fast import banting

# Game ids and tokens come from `secrets` (bytes of randomness; URL-safe base64 text).
GAME_ID_BYTES = 16
TOKEN_BYTES = 32
# How long a request waits for another's transaction before SQLite reports "locked" (the
# app's STORE_BUSY_TIMEOUT), and how long the health check's write probe waits.
BUSY_TIMEOUT_SECONDS = 1.0
PROBE_TIMEOUT_SECONDS = 0.1
# The health probe's row: a new game takes about 1-1.5 KB, but its insert can need a fresh
# page in each of the trees it touches (the table, its indexes), so a store with room for one
# page only is full for a game. 16 KB (four pages of 4 KB) is room for a game.
PROBE_BYTES = 16 * 1024
SCHEMA_VERSION = 3  # PRAGMA user_version; 2 added expires_at, 3 settings and susun_games
# Defaults of how long games are kept after their last move (the app passes its settings).
FINISHED_GAME_TTL = 24 * 60 * 60
IDLE_GAME_TTL = 7 * 24 * 60 * 60
# A store deletes expired rows at most this often (per process), on a write.
PURGE_INTERVAL_SECONDS = 60.0
# Expired games one purge deletes per kind (a few milliseconds): a backlog of expired games
# is cleared a batch per write, never in one request.
PURGE_BATCH = 500

# RULES.md 3.3: in a game with this many human seats or more, the server picks every round
# code and no seat sees one before its round is over (a code determines every hand).
MIN_HUMANS_FOR_SECRET_CODES = 2

PASS = "pass"
# A stored move: [seat, [card ids as played]] or [seat, "pass"].
StoredMove = list[Any]

_TABLE_SCHEMA = """
CREATE TABLE IF NOT EXISTS {table} (
    id TEXT PRIMARY KEY,
    version INTEGER NOT NULL,     -- +1 on every save; the optimistic-concurrency check
    players INTEGER NOT NULL,
    rules TEXT NOT NULL,          -- JSON: every setting, as Rules.from_dict reads it
    bots TEXT NOT NULL,           -- JSON: {{"1": "standard", ...}}; other seats are human
    token_hashes TEXT NOT NULL,   -- JSON: {{"0": sha256 hex of the seat's token, ...}}
    rounds TEXT NOT NULL,         -- JSON: each round's code and what happened in it
    created_at TEXT NOT NULL,     -- ISO 8601, UTC
    updated_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,     -- ISO 8601, UTC: after this the game is gone (404)
    settings TEXT NOT NULL DEFAULT '{{}}'  -- JSON: the game's other settings (Susun: stake)
) STRICT
"""
_INDEX = "CREATE INDEX IF NOT EXISTS {table}_expiry ON {table} (expires_at)"
# Written to (and rolled back) by the health check: can the store take a new page?
_PROBE_TABLE = "CREATE TABLE IF NOT EXISTS store_probe (filler BLOB NOT NULL) STRICT"
_COLUMNS = (
    "id, version, players, rules, bots, token_hashes, rounds, created_at, updated_at, settings"
)
TABLES = ("banting_games", "susun_games")


class ReplayError(RuntimeError):
    """A stored match does not replay (a damaged row, or an engine whose rules changed)."""


def new_game_id() -> str:
    return secrets.token_urlsafe(GAME_ID_BYTES)


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str) -> str:
    """What is stored of a token: its SHA-256, hex. Tokens are 256 random bits, so a fast
    hash without salt is enough (nothing to brute-force, unlike a password)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def now(offset_seconds: float = 0.0) -> str:
    """The time (plus ``offset_seconds``) as stored: ISO 8601 in UTC, milliseconds, so
    that stored times compare correctly as text."""
    moment = datetime.now(UTC) + timedelta(seconds=offset_seconds)
    return moment.isoformat(timespec="milliseconds")


def rules_settings(rules: banting.Rules) -> dict[str, Any]:
    """Every setting of ``rules`` in the form ``Rules.from_dict`` reads back to equal rules.

    Stored instead of the request's preset name and overrides, so a game keeps its rules if a
    preset's defaults change later. ``straight_order`` (the name of the straights' order) is
    left out: it follows from ``straights``.
    """
    settings = rules.to_dict()
    settings.pop("straight_order", None)
    return settings


def codes_secret(humans: int) -> bool:
    """Whether, in a game with ``humans`` human seats, the server picks the round codes and
    withholds each until its round is over; else the one human may choose and see them."""
    return humans >= MIN_HUMANS_FOR_SECRET_CODES


@dataclass
class RoundRecord:
    """A round's code, the cards given back in its exchange (``[seat, card id]``, under
    ``exchange: ranked``) and its moves; once a later round is dealt, also its winner and
    scores, and its places when the next round's exchange reads them (so a request replays
    only the current round, whatever the length of the match)."""

    code: str
    moves: list[StoredMove] = field(default_factory=list)
    winner: int | None = None
    scores: list[int] | None = None
    given_back: list[list[int]] = field(default_factory=list)
    places: list[int] | None = None

    def to_json(self) -> dict[str, Any]:
        item: dict[str, Any] = {"code": self.code, "moves": self.moves}
        if self.winner is not None:
            item["winner"] = self.winner
            item["scores"] = self.scores
        if self.given_back:
            item["given_back"] = self.given_back
        if self.places is not None:
            item["places"] = self.places
        return item


@dataclass
class SessionRecord:
    """What every stored match has; ``version`` is the one it was loaded (or last saved) at.
    A subclass names its table and (de)serialises its rounds."""

    TABLE: ClassVar[str]

    id: str
    players: int
    rules: dict[str, Any]
    bots: dict[int, str]
    token_hashes: dict[int, str]
    rounds: list[Any]
    version: int = 1
    created_at: str = field(default_factory=now)
    updated_at: str = ""
    # Whether the current round is over: such a game expires sooner (FINISHED_GAME_TTL).
    round_over: bool = False
    settings: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.updated_at:
            self.updated_at = self.created_at

    @property
    def humans(self) -> list[int]:
        return sorted(self.token_hashes)

    @property
    def codes_secret(self) -> bool:
        # A table of people dealt its codes in secret: bots filling its empty seats at the
        # start (api.server.seats) keep them so.
        table = self.settings.get("table") or {}
        return codes_secret(len(self.token_hashes)) or bool(table.get("secret"))

    def seat_of(self, token: str) -> int | None:
        """The human seat ``token`` belongs to, or None. Every seat is compared in constant
        time, so the answer's timing says nothing about the stored hashes."""
        digest = hash_token(token)
        found = None
        for seat, stored in self.token_hashes.items():
            if hmac.compare_digest(digest, stored):
                found = seat
        return found

    def rounds_json(self) -> str:
        raise NotImplementedError

    @classmethod
    def rounds_from_json(cls, text: str) -> list[Any]:
        raise NotImplementedError


@dataclass
class GameRecord(SessionRecord):
    """One stored Capsa Banting match."""

    TABLE: ClassVar[str] = "banting_games"
    rounds: list[RoundRecord] = field(default_factory=list)

    def record(self, move: banting.Move) -> None:
        """Add a move just made in the current round."""
        self.rounds[-1].moves.append([move.seat, PASS if move.is_pass else list(move.cards)])

    def record_give_back(self, seat: int, card: int) -> None:
        """Add a card just given back in the current round's exchange."""
        self.rounds[-1].given_back.append([seat, card])

    def rounds_json(self) -> str:
        return json.dumps([r.to_json() for r in self.rounds], separators=(",", ":"))

    @classmethod
    def rounds_from_json(cls, text: str) -> list[Any]:
        return [
            RoundRecord(
                r["code"],
                r["moves"],
                r.get("winner"),
                r.get("scores"),
                r.get("given_back", []),
                r.get("places"),
            )
            for r in json.loads(text)
        ]


def replay(record: GameRecord) -> banting.Game:
    """The match as a live Game, its current round replayed move by move. Finished rounds
    count through their stored winner and scores; a round stored without them (or a match
    whose summaries do not add up) is replayed in full from the first round."""
    with replaying(record):
        rules = banting.Rules.from_dict(record.rules)
        *finished, current = record.rounds
        if finished and all(r.winner is not None and r.scores for r in finished):
            totals = [sum(seat) for seat in zip(*(r.scores or [] for r in finished), strict=True)]
            game = banting.Game.resume(
                rules,
                record.players,
                current.code,
                round=len(record.rounds),
                totals=totals,
                previous_winner=finished[-1].winner,
                previous_places=finished[-1].places,
            )
            _make_moves(game, current)
        else:
            game = banting.Game(rules=rules, players=record.players, code=record.rounds[0].code)
            for number, stored_round in enumerate(record.rounds):
                if number:
                    game.next_round(stored_round.code)
                _make_moves(game, stored_round)
    return game


@contextlib.contextmanager
def replaying(record: SessionRecord) -> Iterator[None]:
    """Turn the engine's refusal of a stored match (a damaged row, or an engine whose rules
    changed) into a :class:`ReplayError`, whose message goes to the server's log: it names
    the game, and no round code (the engine's message would)."""
    try:
        yield
    except (ValueError, TypeError, IndexError, KeyError) as exc:  # IllegalPlay: ValueError
        reason = str(exc)
        for stored_round in record.rounds:
            reason = _redact(reason, stored_round.code)
        raise ReplayError(f"game {record.id} does not replay: {reason}") from None


def _redact(text: str, code: str) -> str:
    """``text`` with every spelling of the round code ``code`` (any case) hidden."""
    if not code:
        return text
    pattern = re.compile(re.escape(code), re.IGNORECASE)
    return pattern.sub("<round code>", text)


def _make_moves(game: banting.Game, stored: RoundRecord) -> None:
    for seat, card in stored.given_back:
        game.give_back(seat, card)
    for seat, play in stored.moves:
        game.move(seat, play)


def finish_round(record: GameRecord, game: banting.Game) -> None:
    """Keep the result of the round just over with its record (before the next is dealt),
    and its places when the next round begins with an exchange."""
    result = game.result
    if result is not None:
        record.rounds[-1].winner = result.winner
        record.rounds[-1].scores = list(result.scores)
        if game.rules.exchange == "ranked" and not result.dragon:
            record.rounds[-1].places = list(result.places)


def play_bots(record: GameRecord, game: banting.Game) -> int:
    """Let the bots give back the cards they owe in an exchange, then move until a human
    seat is to move (or owes a card) or the round is over; each is made in ``game`` and
    recorded in ``record``. Returns how many moves they made."""
    for seat, level in sorted(record.bots.items()):
        if game.exchanging and (view := game.exchange_view(seat)) is not None and view.give:
            record.record_give_back(seat, game.bot_give_back(seat, level))
    made = 0
    while not game.over and game.turn in record.bots:
        record.record(game.bot_play(game.turn, record.bots[game.turn]))
        made += 1
    return made


def _seat_keys(mapping: Mapping[int, str]) -> str:
    return json.dumps({str(seat): value for seat, value in sorted(mapping.items())})


@dataclass
class SusunRound:
    """A Susun round: its code, when it was dealt (seconds since the epoch: the time limit
    runs from then), what each seat put down so far (``susun.SeatRows`` as a dict), and once
    revealed the points of each seat."""

    code: str
    dealt_at: float
    placed: dict[int, dict[str, Any]] = field(default_factory=dict)
    points: list[int] | None = None


@dataclass
class SusunRecord(SessionRecord):
    """One stored Capsa Susun match; ``settings`` holds its ``stake``, ``time_limit`` and
    ``corrections``; a round's ``placed`` rows say whether the seat is ``ready``."""

    TABLE: ClassVar[str] = "susun_games"
    rounds: list[SusunRound] = field(default_factory=list)

    def rounds_json(self) -> str:
        rounds = []
        for r in self.rounds:
            item: dict[str, Any] = {
                "code": r.code,
                "dealt_at": r.dealt_at,
                "placed": {str(seat): rows for seat, rows in sorted(r.placed.items())},
            }
            if r.points is not None:
                item["points"] = r.points
            rounds.append(item)
        return json.dumps(rounds, separators=(",", ":"))

    @classmethod
    def rounds_from_json(cls, text: str) -> list[Any]:
        return [
            SusunRound(
                r["code"],
                float(r["dealt_at"]),
                {int(seat): rows for seat, rows in r["placed"].items()},
                r.get("points"),
            )
            for r in json.loads(text)
        ]


R = TypeVar("R", bound=SessionRecord)


def _from_row(kind: type[R], row: Sequence[Any]) -> R:
    game_id, version, players, rules, bots, hashes, rounds, created_at, updated_at, settings = row
    return kind(
        id=game_id,
        version=version,
        players=players,
        rules=json.loads(rules),
        bots={int(seat): level for seat, level in json.loads(bots).items()},
        token_hashes={int(seat): digest for seat, digest in json.loads(hashes).items()},
        rounds=kind.rounds_from_json(rounds),
        created_at=created_at,
        updated_at=updated_at,
        settings=json.loads(settings),
    )


class StoreFull(OSError):
    """The disk beside the store has less free space than the store wants."""


class GameStore:
    """Matches in one SQLite file; the schema is created on first use.

    A game expires ``finished_ttl`` seconds after its last move when its round is over, else
    ``idle_ttl`` seconds after it: from then on :meth:`load` does not find it, and writes
    delete expired rows now and then (at most every :data:`PURGE_INTERVAL_SECONDS`).

    ``busy_timeout``: seconds a call waits for another writer before sqlite3 raises
    "database is locked". ``max_bytes``: the largest the file may grow (0: no limit); a write
    past it raises "database or disk is full", as a full disk does. ``min_free_bytes``: the
    free disk space :meth:`check` wants beside the file.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        finished_ttl: float = FINISHED_GAME_TTL,
        idle_ttl: float = IDLE_GAME_TTL,
        busy_timeout: float = BUSY_TIMEOUT_SECONDS,
        max_bytes: int = 0,
        min_free_bytes: int = 0,
    ) -> None:
        self.path = os.fspath(path)
        self.finished_ttl = finished_ttl
        self.idle_ttl = idle_ttl
        self.busy_timeout = busy_timeout
        self.max_bytes = max_bytes
        self.min_free_bytes = min_free_bytes
        self._ready = False
        self._ready_lock = threading.Lock()
        self._next_purge = 0.0
        # One connection per thread, kept between requests: opening one per request and
        # closing it (which checkpoints the WAL when it is the last) cost most of a save.
        self._local = threading.local()
        # Connections a forked child inherited: never used nor closed there (closing could
        # disturb the parent's), only kept from the garbage collector.
        self._inherited: list[sqlite3.Connection] = []

    def set_deadline(self, deadline: float | None) -> None:
        """From now on this thread's calls wait for a locked store until ``deadline``
        (``time.monotonic()`` seconds) at the latest, and past it not at all (a free store
        still answers); None: ``busy_timeout`` a call again."""
        self._local.deadline = deadline

    def _wait(self, cap: float | None) -> float:
        """Seconds this thread's next call may wait for a lock: ``cap`` (default
        ``busy_timeout``), cut to the thread's deadline, 0 past it."""
        wait = self.busy_timeout if cap is None else min(cap, self.busy_timeout)
        deadline = getattr(self._local, "deadline", None)
        if deadline is not None:
            wait = max(0.0, min(wait, deadline - time.monotonic()))
        return wait

    def _identity(self) -> tuple[int, int, int] | None:
        """(process, device, inode) of the store's file now; None when it is missing."""
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            return None
        return os.getpid(), st.st_dev, st.st_ino

    def _connection(self, timeout: float | None = None) -> sqlite3.Connection:
        """This thread's connection, reopened (with the schema made again) when the file was
        deleted or replaced since, or the process forked; the call waits for a lock at most
        ``timeout`` seconds (default ``busy_timeout``; less by the thread's deadline)."""
        local = self._local
        wait = self._wait(timeout)
        identity = self._identity()
        conn: sqlite3.Connection | None = getattr(local, "conn", None)
        if conn is not None and identity is not None and local.identity == identity:
            self._set_wait(conn, wait)
            return conn
        previous = getattr(local, "identity", None)
        if conn is not None:
            self._drop(conn, previous)
        if identity is None or (previous is not None and previous[1:] != identity[1:]):
            self._ready = False  # the file is gone, or is another one: make the schema again
        if not self._ready:
            self._create_schema(wait)
        # Autocommit (isolation_level=None): every statement here is its own transaction.
        conn = sqlite3.connect(
            self.path, timeout=self.busy_timeout, isolation_level=None, check_same_thread=True
        )
        # WAL makes each commit one append; NORMAL sync is then safe from corruption (an OS
        # crash may lose the last moves, never damage the file).
        conn.execute("PRAGMA synchronous = NORMAL")
        if self.max_bytes:
            page = conn.execute("PRAGMA page_size").fetchone()[0]
            conn.execute(f"PRAGMA max_page_count = {max(1, self.max_bytes // page)}")
        local.conn, local.identity = conn, self._identity()
        local.wait_ms = round(self.busy_timeout * 1000)
        self._set_wait(conn, self._wait(timeout))
        return conn

    def _set_wait(self, conn: sqlite3.Connection, wait: float) -> None:
        wait_ms = round(wait * 1000)
        if getattr(self._local, "wait_ms", None) != wait_ms:
            conn.execute(f"PRAGMA busy_timeout = {wait_ms}")
            self._local.wait_ms = wait_ms

    def _drop(self, conn: sqlite3.Connection, identity: tuple[int, int, int] | None) -> None:
        self._local.conn = None
        if identity is not None and identity[0] != os.getpid():
            self._inherited.append(conn)
            return
        with contextlib.suppress(sqlite3.Error):
            conn.close()

    @contextlib.contextmanager
    def _connect(self, timeout: float | None = None) -> Iterator[sqlite3.Connection]:
        conn = self._connection(timeout)
        try:
            yield conn
        except sqlite3.Error:
            # A connection that failed is not trusted again (a locked or broken file).
            self._drop(conn, getattr(self._local, "identity", None))
            raise

    def close(self) -> None:
        """Close this thread's connection (the next call opens a new one)."""
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            self._drop(conn, self._local.identity)

    def _create_schema(self, timeout: float) -> None:
        """Make or migrate the schema, waiting at most ``timeout`` seconds in all (for the
        other threads of this process, then for another process's write lock)."""
        deadline = time.monotonic() + timeout
        if not self._ready_lock.acquire(timeout=timeout):
            raise sqlite3.OperationalError("database is locked (another thread is opening it)")
        try:
            if self._ready:
                return
            folder = os.path.dirname(os.path.abspath(self.path))
            os.makedirs(folder, exist_ok=True)
            conn = sqlite3.connect(
                self.path, timeout=max(0.0, deadline - time.monotonic()), isolation_level=None
            )
            try:
                # A store that is up to date needs no write, so no wait for another
                # process's write lock (WAL lets this read past it).
                current = conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
                if current and conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal":
                    self._ready = True
                    return
                conn.execute("PRAGMA journal_mode = WAL")  # stored in the file: set once
                conn.execute("BEGIN IMMEDIATE")  # one process creates or migrates at a time
                version = conn.execute("PRAGMA user_version").fetchone()[0]
                if version == 1:
                    # Version 1 had no expiry: its games get the idle lifetime from now.
                    conn.execute(
                        "ALTER TABLE banting_games ADD COLUMN expires_at TEXT NOT NULL DEFAULT ''"
                    )
                    conn.execute("UPDATE banting_games SET expires_at = ?", (now(self.idle_ttl),))
                if version in (1, 2):
                    conn.execute(
                        "ALTER TABLE banting_games ADD COLUMN settings TEXT NOT NULL DEFAULT '{}'"
                    )
                for table in TABLES:
                    conn.execute(_TABLE_SCHEMA.format(table=table))
                    conn.execute(_INDEX.format(table=table))
                conn.execute(_PROBE_TABLE)
                conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                conn.execute("COMMIT")
            finally:
                conn.close()
            self._ready = True
        finally:
            self._ready_lock.release()

    def _expires_at(self, record: SessionRecord) -> str:
        return now(self.finished_ttl if record.round_over else self.idle_ttl)

    def create(self, record: SessionRecord) -> None:
        """Insert a new match (its id must be new)."""
        with self._connect() as conn:
            conn.execute(
                f"INSERT INTO {record.TABLE} ({_COLUMNS}, expires_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    record.id,
                    record.version,
                    record.players,
                    json.dumps(record.rules),
                    _seat_keys(record.bots),
                    _seat_keys(record.token_hashes),
                    record.rounds_json(),
                    record.created_at,
                    record.updated_at,
                    json.dumps(record.settings),
                    self._expires_at(record),
                ),
            )
        self._purge_now_and_then()

    @overload
    def load(self, game_id: str) -> GameRecord | None: ...
    @overload
    def load(self, game_id: str, kind: type[R]) -> R | None: ...
    def load(self, game_id: str, kind: type[SessionRecord] = GameRecord) -> SessionRecord | None:
        """The match (a Banting one unless ``kind`` says otherwise), or None when there is
        none by that id or it has expired."""
        with self._connect() as conn:
            row = conn.execute(
                f"SELECT {_COLUMNS} FROM {kind.TABLE} WHERE id = ? AND expires_at > ?",
                (game_id, now()),
            ).fetchone()
        return None if row is None else _from_row(kind, row)

    def save(self, record: SessionRecord) -> bool:
        """Write the match's rounds, seats (bots, token hashes: a table of people seats its
        players and bots) and settings if the stored row is still at ``record.version``;
        then the version goes up by one (in the row and in ``record``) and the answer is
        True. False: someone else saved first, nothing was written and ``record`` is stale."""
        updated_at = now()
        with self._connect() as conn:
            saved = conn.execute(
                f"UPDATE {record.TABLE} SET rounds = ?, bots = ?, token_hashes = ?, "
                "settings = ?, version = version + 1, updated_at = ?, "
                "expires_at = ? WHERE id = ? AND version = ?",
                (
                    record.rounds_json(),
                    _seat_keys(record.bots),
                    _seat_keys(record.token_hashes),
                    json.dumps(record.settings),
                    updated_at,
                    self._expires_at(record),
                    record.id,
                    record.version,
                ),
            ).rowcount
        if saved != 1:
            return False
        record.version += 1
        record.updated_at = updated_at
        self._purge_now_and_then()
        return True

    def purge_expired(self, limit: int | None = None) -> int:
        """Delete expired games, at most ``limit`` (default :data:`PURGE_BATCH`) of each
        kind, the oldest first through the expiry index, so the request that purges does
        bounded work however many games expired together; returns how many were deleted."""
        limit = PURGE_BATCH if limit is None else limit
        deleted = 0
        with self._connect(PROBE_TIMEOUT_SECONDS) as conn:
            for table in TABLES:
                deleted += conn.execute(
                    f"DELETE FROM {table} WHERE rowid IN (SELECT rowid FROM {table} "
                    "WHERE expires_at <= ? ORDER BY expires_at LIMIT ?)",
                    (now(), limit),
                ).rowcount
        return deleted

    def _purge_now_and_then(self) -> None:
        """After a write: now and then a batch of expired games goes. It never fails the
        write that came first (a locked store waits :data:`PROBE_TIMEOUT_SECONDS` at most and
        is left for the next purge)."""
        clock = time.monotonic()
        if clock >= self._next_purge:
            self._next_purge = clock + PURGE_INTERVAL_SECONDS
            with contextlib.suppress(sqlite3.Error):
                if self.purge_expired() >= PURGE_BATCH:
                    self._next_purge = clock  # more are waiting: the next write takes a batch

    def check(self) -> None:
        """Raise (sqlite3.Error, OSError) unless the store can be opened, read and written.

        The write is a probe: a row of :data:`PROBE_BYTES` inserted and rolled back, which
        fails when the store is read-only, locked past :data:`PROBE_TIMEOUT_SECONDS` or too
        near ``max_bytes`` for another game.
        A rolled-back write never reaches the disk, so a full disk is read from the free
        space beside the file (:class:`StoreFull` below ``min_free_bytes``).
        """
        with self._connect(PROBE_TIMEOUT_SECONDS) as conn:
            for table in TABLES:
                conn.execute(f"SELECT id FROM {table} LIMIT 1").fetchall()
            page = conn.execute("PRAGMA page_size").fetchone()[0]
            conn.execute(f"PRAGMA busy_timeout = {round(PROBE_TIMEOUT_SECONDS * 1000)}")
            try:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    conn.execute(
                        "INSERT INTO store_probe (filler) VALUES (zeroblob(?))",
                        (max(page, PROBE_BYTES),),
                    )
                finally:
                    conn.execute("ROLLBACK")
            finally:
                conn.execute(f"PRAGMA busy_timeout = {round(self.busy_timeout * 1000)}")
                self._local.wait_ms = round(self.busy_timeout * 1000)
        if self.min_free_bytes:
            free = shutil.disk_usage(os.path.dirname(os.path.abspath(self.path))).free
            if free < self.min_free_bytes:
                raise StoreFull(
                    errno.ENOSPC,
                    f"{free} bytes free beside the session store, fewer than the "
                    f"{self.min_free_bytes} wanted (GAMES_DB_MIN_FREE_BYTES)",
                )
