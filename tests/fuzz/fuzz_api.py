"""Fuzz every JSON body decoder of the HTTP API through the Flask test client.

For each POST route of the app (read from ``app.url_map``; a route added later is fuzzed
too, with ``{}`` as its example until it gets a row in :data:`EXAMPLES`) the input is sent
either (a) as raw bytes with ``Content-Type: application/json``, or (b) as a valid example
body of that route mutated by the input: fields dropped, replaced, retyped, duplicated,
odd card strings, huge numbers, NaN, deep nesting, long lists, unicode; with varied
Content-Type, Accept-Language and X-Request-Id headers.

The game routes (``/v1/banting/games/<id>/...``, ``/v1/susun/games/<id>/...``) play on
games created when the fuzzer starts, Banting ones advanced move by move along the standard
bot's hints and Susun ones arranged (best rows, a confirmed foul) and dealt again; every
state reached is a snapshot, and each input picks one, which is restored (through
``api.server.game_store``) before the request, so an input always meets the same game state.
Their bearer token is mostly the right one, sometimes another seat's, another game's, a
wrong one or none, and the id sometimes unknown or odd; changes sometimes carry an
If-Match (the current tag, a stale, weak or arbitrary one, '*') or a ``version`` in the body.

Checked for every response: status < 500 and one the OpenAPI document lists for the
route; JSON (application/json, or application/problem+json for a problem); a problem has
type, title, status (= the HTTP status) and detail, and a 422 lists its fields; a success
matches the route's response model. A 500 fails with the server-side traceback.

Run: ``python tests/fuzz/fuzz_api.py [libFuzzer flags] [corpus dirs]`` or tests/fuzz/run.py.
"""

from __future__ import annotations

import atexit
import copy
import json
import logging
import shutil
import sys
import tempfile
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import atheris

from tests.fuzz._common import (
    ODD_CARDS,
    JsonMaker,
    any_card,
    deep_nesting,
    dumps,
    fuzz_main,
    instrumented,
    run_target,
)

with instrumented(__name__ == "__main__"):
    from capsa_fast import banting, format_cards, susun
    from capsa_fast.banting import rules as banting_rules
    from capsa_fast.susun import rules as susun_rules

    import api
    from api.server.game_store import GameRecord, GameStore, SessionRecord, SusunRecord
    from api.server.routing import ModelBlueprint
    from api.server.schemas import Problem
    from api.server.sessions import view_etag

JSON_TYPE = "application/json"
PROBLEM_TYPE = "application/problem+json"
GAMES = "/v1/banting/games"
SUSUN_GAMES = "/v1/susun/games"

DECK = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]
HAND = ["2c", "5d", "7h", "9s", "Tc", "Jd", "Qh", "Ks", "Ac", "Ad", "3h", "3s", "8c"]
ROWS = {
    "top": ["2c", "3d", "4h"],
    "middle": ["9c", "9d", "Kh", "Ks", "2d"],
    "bottom": ["5s", "6s", "7s", "8s", "9s"],
}
OTHER_ROWS = {
    "top": ["Ac", "Ad", "4c"],
    "middle": ["Tc", "Td", "Th", "Jc", "Jd"],
    "bottom": ["Qs", "Qh", "Qd", "Qc", "5c"],
}
# Shares no card with ROWS or OTHER_ROWS.
SPARE_HAND = ["2h", "3c", "4d", "5d", "6c", "7c", "8c", "9h", "Ts", "Jh", "Kc", "As", "Ah"]
BANTING_HAND = ["3d", "4c", "5h", "6s", "7d", "7c", "9h", "9s", "Td", "Jd", "Qd", "Kd", "2s"]

# Valid bodies of each POST route (what the API tests send), to be mutated. The game routes
# get more at run time from the game's state (the hinted move, cards of the hand).
EXAMPLES: dict[str, list[dict[str, Any]]] = {
    "/v1/evaluate": [
        {"cards": ["Ah", "Kh", "Qh", "Jh", "Th"]},
        {"cards": ["2c", "7d", "9h"]},
        {"cards": ["10h", "9♥", "as", "Kd", "2c", "3c", "4c"]},
    ],
    "/v1/evaluate/batch": [
        {"hands": [["Ah", "Kh", "Qh"]]},
        {"hands": [DECK[:5], DECK[5:12], DECK[12:15], DECK[20:26], DECK[:7]]},
    ],
    "/v1/poker/showdown": [
        {"board": ["2c", "7d", "9h", "Js", "Ks"], "players": [["Ac", "3d"], ["Kd", "Kh"]]},
    ],
    "/v1/poker/equity": [
        {"players": ["AhKh", "QsQc"], "board": ["2c", "7d", "9h"]},
        {"players": ["QQ+,AKs", "22-99:0.5", "random"], "samples": 20_000, "seed": 3},
        {"players": [["Ac", "Ad"], "KQo"], "board": ["2c", "7d", "9h", "Js"], "dead": ["3s"]},
    ],
    "/v1/banting/classify": [
        {"cards": ["9c", "9d"]},
        {"cards": ["3d", "4c", "5h", "6s", "7d"], "rules": {"preset": "hong-kong"}},
        {"cards": ["Jd", "Qd", "Kd", "Ad", "2d"], "rules": {"flush_compare": "none"}},
    ],
    "/v1/banting/compare": [
        {"a": ["9c", "9d"], "b": ["Kc", "Kd"]},
        {"a": ["3d", "3c", "3h", "3s", "4d"], "b": ["2s"], "rules": {"preset": "taiwan"}},
    ],
    "/v1/banting/validate": [
        {"hand": ["3d", "9c", "9d"], "play": ["3d"]},
        {"hand": BANTING_HAND, "play": ["3d"], "first_play": True},
        {
            "hand": BANTING_HAND,
            "play": "pass",
            "table": ["8c"],
            "passed": True,
            "rules": {"pass_locks": True},
        },
        {"hand": BANTING_HAND, "play": ["9h", "9s"], "table": ["8c", "8d"]},
    ],
    "/v1/banting/legal-plays": [
        {"hand": ["3d", "9c", "9d"]},
        {"hand": BANTING_HAND, "table": ["8c", "8d"], "limit": 5, "rules": {"bombs": "none"}},
        {"hand": BANTING_HAND, "first_play": True, "rules": {"preset": "taiwan"}},
    ],
    "/v1/banting/score": [
        {"cards_left": [0, 5]},
        {"cards_left": [0, 5, 10, 13], "rules": {"scoring": [[1, 1], [10, 2], [13, 3]]}},
    ],
    "/v1/susun/check": [
        dict(ROWS),
        {**OTHER_ROWS, "rules": {"preset": "classic", "foul_points": 3}},
    ],
    "/v1/susun/arrange": [
        {"hand": HAND, "strategy": "naive"},
        {"hand": DECK[13:26], "strategy": "percentile", "top_k": 3},
        {"hand": DECK[26:39], "rules": {"preset": "two-four"}},
    ],
    "/v1/susun/score": [
        {"players": [ROWS, OTHER_ROWS]},
        {
            "players": [ROWS, {"hand": SPARE_HAND}, OTHER_ROWS],
            "stake": 2.5,
            "rules": {"bonus_rows": {"top": {"pair": 1}}, "room_fee": 0.05},
        },
    ],
    GAMES: [
        {"bots": {"1": "standard", "2": "beginner", "3": "random"}, "code": "B4K7M2Q9XZ1"},
        {"players": 3, "bots": {"1": "expert", "2": "beginner"}, "code": "FUZZ"},
        {"players": 3, "bots": {"1": "expert"}, "rules": {"preset": "taiwan"}},
        {"players": 2},
        {"players": 3, "bots": {"2": "standard"}, "open": True, "name": "Ana"},
        {"players": 2, "tokens": "all"},
        {},
    ],
    GAMES + "/<game_id>/moves": [
        {"play": "pass"},
        {"play": ["3d"]},
        {"play": "pass", "version": 2},
    ],
    GAMES + "/<game_id>/hint": [
        {},
        {"level": "beginner"},
        {"level": "expert"},
    ],
    GAMES + "/<game_id>/exchange": [
        {"cards": ["7d"]},
        {"cards": ["2s"], "version": 3},
    ],
    GAMES + "/<game_id>/rounds": [
        {},
        {"code": "B4K7M2Q9XZ1"},
        {"code": "fuzz-next"},
        {"version": 1},
    ],
    GAMES + "/<game_id>/seats": [
        {"invitation": "q3Vn1w8cX0aZ2b7Y", "name": "Ana"},
        {"invitation": "x", "name": "<b>Budi</b>"},
    ],
    GAMES + "/<game_id>/start": [{}, {"fill": "standard"}, {"fill": "beginner"}],
    GAMES + "/<game_id>/ticket": [{}],
    SUSUN_GAMES + "/<game_id>/ticket": [{}],
    SUSUN_GAMES + "/<game_id>/seats": [
        {"invitation": "q3Vn1w8cX0aZ2b7Y", "name": "Citra"},
    ],
    SUSUN_GAMES + "/<game_id>/start": [{}, {"fill": "expert"}],
    SUSUN_GAMES: [
        {"bots": {"1": "expert", "2": "standard", "3": "beginner"}, "code": "S4K7M2Q9XZ1"},
        {"players": 3, "bots": {"1": "expert"}, "stake": 100, "time_limit": 60},
        {"players": 2, "rules": {"preset": "susun-specials"}, "bots": {"1": "ev"}},
        {"players": 2, "bots": {"1": "expert"}, "corrections": True},
        {},
    ],
    SUSUN_GAMES + "/<game_id>/arrangement": [
        dict(ROWS),
        {**ROWS, "confirm_foul": True},
        {"declare": "six_pairs"},
        {**ROWS, "version": 1},
        {**ROWS, "ready": False},
    ],
    SUSUN_GAMES + "/<game_id>/rounds": [
        {},
        {"code": "S4K7M2Q9XZ1"},
        {"code": "fuzz-next"},
        {"version": 1},
    ],
}


def _words() -> list[str]:
    words: set[str] = {"pass", "rules", "preset", "code", "players", "bots", "play", "id"}
    for bodies in EXAMPLES.values():
        for body in bodies:
            words.update(body)
    words.update(banting.PRESETS, susun.PRESETS, banting.STRAIGHT_ORDERS, banting.RUNS)
    words.update(banting.PRESETS[banting.DEFAULT_PRESET], susun.PRESETS[susun.DEFAULT_PRESET])
    words.update(v for values in banting_rules.CHOICES.values() for v in values)
    words.update(susun.POSITIONS, susun_rules.BONUS_KINDS, banting.BOT_LEVELS)
    words.update(("ev", "percentile", "naive", "straight_order", "0", "1", "2", "3", "4"))
    words.update(DECK)
    return sorted(words)


def _keys() -> list[str]:
    """Object keys a body may hold: every field of the examples, the rule settings, seats."""
    keys: set[str] = {"preset", "straight_order", "hand", "0", "1", "2", "3", "4"}

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            keys.update(node)
            for item in node.values():
                walk(item)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(EXAMPLES)
    keys.update(banting.PRESETS[banting.DEFAULT_PRESET], susun.PRESETS[susun.DEFAULT_PRESET])
    keys.update(susun.POSITIONS, susun_rules.BONUS_KINDS)
    return sorted(keys - set(EXAMPLES))


JSON = JsonMaker(_words(), _keys())

CONTENT_TYPES = [
    *[JSON_TYPE] * 40,
    "application/json; charset=utf-8",
    PROBLEM_TYPE,
    "application/merge-patch+json",
    "APPLICATION/JSON",
    "application/json;charset=latin-1",
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "",
]
LANGUAGES = ["id", "id-ID", "in", "en", "*", "fr;q=0.5, id;q=0.1", "id;q=0", "id;q=x", ";;", "e"]


# --- games and their snapshots ---------------------------------------------------------------


@dataclass
class Snapshot:
    """One state of a game: its stored rounds, who is to move and what they could send."""

    rounds: list[Any]
    token: str  # the token of the human seat to move (or any human seat once over)
    moves: list[dict[str, Any]]  # valid-looking bodies for /moves in this state
    over: bool


@dataclass
class Table:
    """A game created at start-up, advanced along the hints, with a snapshot per state."""

    id: str
    tokens: dict[int, str]
    snapshots: list[Snapshot] = field(default_factory=list)
    loaded: int | None = None  # the snapshot the stored game is at; None: changed since
    kind: type[SessionRecord] = GameRecord


class Server:
    """The app under test (a temporary GAMES_DB), its routes and its game tables."""

    def __init__(self) -> None:
        folder = tempfile.mkdtemp(prefix="capsa-fuzz-api-")
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        self.db = str(Path(folder) / "games.sqlite3")
        # The limits are lowered so that a fuzz input can reach their branches (413, and
        # the batch's hand count) without megabytes of body.
        config = {"GAMES_DB": self.db, "ACCESS_LOG": False, "MAX_BATCH_HANDS": 64}
        self.app = api.create_app({**config, "MAX_CONTENT_LENGTH": 256 * 1024})
        self.client = self.app.test_client()
        self.errors = _LastError()
        self.app.logger.handlers[:] = [self.errors]
        self.app.logger.propagate = False
        logging.getLogger("capsa_fast.access").disabled = True
        self.store = GameStore(self.db)

        document = self.client.get("/openapi.json").get_json()
        operations = {
            f"{bp.name}.{op.endpoint}": op
            for bp in self.app.blueprints.values()
            if isinstance(bp, ModelBlueprint)
            for op in bp.operations
        }
        self.routes: list[Route] = []
        for rule in sorted(self.app.url_map.iter_rules(), key=lambda r: r.rule):
            methods = rule.methods or set()
            method = "POST" if "POST" in methods else "GET" if "game_id" in rule.arguments else ""
            if not method:
                continue
            path = rule.rule.replace("<game_id>", "{game_id}")
            documented = document["paths"][path][method.lower()]["responses"]
            self.routes.append(
                Route(
                    rule.rule,
                    method,
                    operations.get(rule.endpoint),
                    {int(status) for status in documented if status.isdigit()},
                )
            )
        self.tables = [
            self._table(
                {"bots": {"1": "standard", "2": "beginner", "3": "beginner"}, "code": "FUZZ-A"},
                rounds=2,
            ),
            # Two human seats: the server picks the codes (a code is refused there).
            self._table(
                {
                    "players": 3,
                    "bots": {"1": "standard"},
                    "rules": {
                        "preset": "taiwan",
                        "pass_locks": True,
                        "ending": "last-standing",
                        "first_lead": "previous-winner",
                    },
                },
                rounds=2,
            ),
        ]
        self.susun_tables = [
            self._susun_table({"bots": {"1": "expert", "2": "standard", "3": "beginner"}}),
            # Two human seats, the specials counted, a time limit, corrections.
            self._susun_table(
                {
                    "players": 3,
                    "bots": {"2": "expert"},
                    "rules": {"preset": "susun-specials"},
                    "time_limit": 3600,
                    "stake": 10,
                    "corrections": True,
                }
            ),
        ]

    def tables_for(self, rule: str) -> list[Table]:
        return self.susun_tables if rule.startswith(SUSUN_GAMES) else self.tables

    def _susun_table(self, body: dict[str, Any]) -> Table:
        """Create a Susun table and snapshot it before anyone arranges, after each human seat
        arranged (best rows, then a confirmed foul), and after the next round is dealt."""
        # Every seat is played from here: hot-seat, so every human seat's token.
        response = self.client.post(SUSUN_GAMES, json={"tokens": "all", **body})
        assert response.status_code == 201, response.get_data(as_text=True)
        created = response.get_json()
        tokens = {int(s): t for s, t in created["tokens"].items()}
        table = Table(created["id"], tokens, kind=SusunRecord)
        for number in (1, 2):
            for seat, token in sorted(tokens.items()):
                headers = {"Authorization": f"Bearer {token}"}
                view = self.client.get(f"{SUSUN_GAMES}/{table.id}", headers=headers).get_json()
                best = susun.arrange(view["hand"], view["rules"])
                rows = {
                    "top": format_cards(best.top),
                    "middle": format_cards(best.middle),
                    "bottom": format_cards(best.bottom),
                }
                fouled = {
                    "top": rows["bottom"][:3],
                    "middle": rows["middle"],
                    "bottom": rows["top"] + rows["bottom"][3:],
                }
                moves = [rows, {**fouled, "confirm_foul": True}, fouled]
                moves += [{"declare": special} for special in view["specials"]]
                self._snapshot_susun(table, token, moves)
                body = moves[seat % 2]
                response = self.client.post(
                    f"{SUSUN_GAMES}/{table.id}/arrangement", json=body, headers=headers
                )
                assert response.status_code == 200, response.get_data(as_text=True)
            self._snapshot_susun(table, tokens[min(tokens)], [dict(ROWS)])
            if number == 1:
                headers = {"Authorization": f"Bearer {tokens[min(tokens)]}"}
                response = self.client.post(
                    f"{SUSUN_GAMES}/{table.id}/rounds", json={}, headers=headers
                )
                assert response.status_code == 200, response.get_data(as_text=True)
        table.loaded = len(table.snapshots) - 1
        return table

    def _snapshot_susun(self, table: Table, token: str, moves: list[dict[str, Any]]) -> None:
        record = self.store.load(table.id, SusunRecord)
        assert record is not None
        table.snapshots.append(Snapshot(copy.deepcopy(record.rounds), token, moves, False))

    def _table(self, body: dict[str, Any], rounds: int) -> Table:
        """Create a game and play it along the standard bot's hints for ``rounds`` rounds,
        keeping a snapshot of every state."""
        # Every seat is played from here: hot-seat, so every human seat's token.
        response = self.client.post(GAMES, json={"tokens": "all", **body})
        assert response.status_code == 201, response.get_data(as_text=True)
        created = response.get_json()
        table = Table(created["id"], {int(s): t for s, t in created["tokens"].items()})
        for number in range(1, rounds + 1):
            while True:
                token, view = self._to_move(table)
                table.snapshots.append(self._snapshot(table, token, view))
                if view["over"]:
                    break
                play = view["hint"]["play"]
                response = self._game_post(table, token, "moves", {"play": play})
                assert response.status_code == 200, response.get_data(as_text=True)
            if number < rounds:
                body = {} if len(table.tokens) > 1 else {"code": f"FUZZ-ROUND-{number + 1}"}
                response = self._game_post(table, token, "rounds", body)
                assert response.status_code == 200, response.get_data(as_text=True)
        table.loaded = len(table.snapshots) - 1
        return table

    def _game_post(self, table: Table, token: str, route: str, body: Any) -> Any:
        headers = {"Authorization": f"Bearer {token}"}
        return self.client.post(f"{GAMES}/{table.id}/{route}", json=body, headers=headers)

    def _to_move(self, table: Table) -> tuple[str, dict[str, Any]]:
        """The token of the human seat to move (any, once over) and that seat's view."""
        for token in table.tokens.values():
            response = self.client.get(
                f"{GAMES}/{table.id}", headers={"Authorization": f"Bearer {token}"}
            )
            assert response.status_code == 200, response.get_data(as_text=True)
            view = response.get_json()
            if view["your_turn"] or view["over"]:
                return token, view
        raise AssertionError(f"no human seat is to move in game {table.id}")

    def _snapshot(self, table: Table, token: str, view: dict[str, Any]) -> Snapshot:
        record = self.store.load(table.id)
        assert record is not None
        hand = view["hand"]
        moves = [{"play": "pass"}, {"play": hand[:1]}, {"play": hand[:2]}, {"play": []}]
        if view["hint"] is not None:
            moves.insert(0, {"play": view["hint"]["play"]})
        return Snapshot(copy.deepcopy(record.rounds), token, moves, view["over"])

    def version(self, table: Table) -> int:
        """The stored game's version now."""
        record = self.store.load(table.id, table.kind)
        assert record is not None, f"game {table.id} is gone"
        return record.version

    def restore(self, table: Table, index: int) -> None:
        """Put the stored game back at snapshot ``index`` (unless it is there already)."""
        if table.loaded == index:
            return
        record = self.store.load(table.id, table.kind)
        assert record is not None, f"game {table.id} is gone"
        record.rounds = copy.deepcopy(table.snapshots[index].rounds)
        assert self.store.save(record), f"game {table.id} changed while restoring it"
        table.loaded = index


def if_match(fdp: atheris.FuzzedDataProvider, srv: Server, table: Table, token: str) -> str:
    """An If-Match header: mostly the current tag of the seat's view (alone, weak, in a list),
    else a stale, made-up or arbitrary one, or '*'."""
    record = srv.store.load(table.id, table.kind)
    assert record is not None
    seat = record.seat_of(token)
    current = f'"{view_etag(record, 0 if seat is None else seat, "en")}"'
    how = fdp.ConsumeIntInRange(0, 6)
    if how == 0:
        return f"W/{current}"
    if how == 1:
        return f'"stale", {current}'
    if how == 2:
        return "*"
    if how == 3:
        return header_text(fdp)
    if how == 4:
        record.version -= 1
        return f'"{view_etag(record, 0 if seat is None else seat, "en")}"'
    return current


@dataclass(frozen=True)
class Route:
    rule: str
    method: str
    operation: Any  # api.server.routing.Operation, or None for a route without one
    documented: set[int]  # the statuses the OpenAPI document lists

    @property
    def game(self) -> bool:
        return "<game_id>" in self.rule


class _LastError(logging.Handler):
    """Keeps the traceback the app logs for a 500, to fail with it."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.last = ""

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info:
            self.last = "".join(traceback.format_exception(*record.exc_info))
        else:
            self.last = record.getMessage()


_SERVER: Server | None = None


def server() -> Server:
    """The app and its games, made on first use (once per process)."""
    global _SERVER
    if _SERVER is None:
        _SERVER = Server()
    return _SERVER


# --- building a request ----------------------------------------------------------------------


def header_text(fdp: atheris.FuzzedDataProvider, limit: int = 40) -> str:
    """Arbitrary text that can travel in a header (latin-1, no line breaks, no NUL)."""
    text = fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, limit))
    text = text.encode("latin-1", "replace").decode("latin-1")
    return "".join(ch for ch in text if ch not in "\r\n\x00")


def pick_key(fdp: atheris.FuzzedDataProvider, node: dict[str, Any] | list[Any]) -> Any:
    if isinstance(node, dict):
        return fdp.PickValueInList(list(node))
    return fdp.ConsumeIntInRange(0, len(node) - 1)


def retyped(fdp: atheris.FuzzedDataProvider, value: Any) -> Any:
    """``value`` in another JSON type."""
    how = fdp.ConsumeIntInRange(0, 6)
    if how == 0:
        return dumps(value)  # as a string of JSON
    if how == 1:
        return [value]
    if how == 2:
        return {"value": value}
    if how == 3:
        if isinstance(value, list):
            return {str(i): item for i, item in enumerate(value)}
        if isinstance(value, dict):
            return list(value.values())
        return None
    if how == 4:
        if isinstance(value, bool):
            return int(value)
        if isinstance(value, int | float):
            return str(value) if fdp.ConsumeBool() else bool(value)
        if isinstance(value, str):
            return len(value)
        return value
    if how == 5:
        return float(value) if isinstance(value, int) and not isinstance(value, bool) else 1.0
    return not value if isinstance(value, bool) else True


def mutate_here(fdp: atheris.FuzzedDataProvider, node: Any, others: list[Any]) -> Any:
    """One change to ``node`` itself (not its children); returns the new node."""
    op = fdp.ConsumeIntInRange(0, 14)
    if op == 13:
        # A card, in any spelling: repeats, non-combos and the slow path of the converters.
        if isinstance(node, list):
            node.insert(fdp.ConsumeIntInRange(0, len(node)), any_card(fdp))
            return node
        return any_card(fdp)
    if op == 0:
        return JSON.value(fdp)
    if op == 1 and isinstance(node, dict | list) and node:
        del node[pick_key(fdp, node)]
        return node
    if op == 2 and isinstance(node, dict):
        node[JSON.key(fdp)] = JSON.value(fdp, max_depth=2)
        return node
    if op == 2 and isinstance(node, list):
        node.insert(fdp.ConsumeIntInRange(0, len(node)), JSON.text(fdp))
        return node
    if op == 3:
        return retyped(fdp, node)
    if op == 4:
        odd = fdp.PickValueInList(list(ODD_CARDS))
        if isinstance(node, list):
            node.insert(fdp.ConsumeIntInRange(0, len(node)), odd)
            return node
        return odd
    if op == 5 and isinstance(node, list) and node:
        node.append(copy.deepcopy(node[pick_key(fdp, node)]))  # a repeated card or item
        return node
    if op == 6:
        return JSON.number(fdp)
    if op == 7:
        return deep_nesting(fdp)
    if op == 8:
        item = node[pick_key(fdp, node)] if isinstance(node, list) and node else node
        return JSON.repeated(fdp, item)
    if op == 9:
        return fdp.ConsumeUnicode(fdp.ConsumeIntInRange(0, 20))
    if op == 10 and others:
        return copy.deepcopy(fdp.PickValueInList(others))
    if op == 11:
        return fdp.PickValueInList([None, True, False, {}, [], "", 0])
    if isinstance(node, list):
        cut = fdp.ConsumeIntInRange(0, len(node))
        return node[:cut] if fdp.ConsumeBool() else node[cut:]
    return node


def mutate(fdp: atheris.FuzzedDataProvider, node: Any, others: list[Any], depth: int = 0) -> Any:
    """A change somewhere inside ``node``: walk down a random path, then change there."""
    if isinstance(node, dict | list) and node and depth < 8 and fdp.ConsumeIntInRange(0, 2):
        key = pick_key(fdp, node)
        node[key] = mutate(fdp, node[key], others, depth + 1)
        return node
    return mutate_here(fdp, node, others)


def leaves(node: Any) -> list[Any]:
    """Every value inside ``node`` (to swap into another body)."""
    found = [node]
    if isinstance(node, dict):
        for item in node.values():
            found += leaves(item)
    elif isinstance(node, list):
        for item in node:
            found += leaves(item)
    return found


def encode(fdp: atheris.FuzzedDataProvider, body: Any) -> bytes:
    """``body`` as the bytes of a request, usually UTF-8 JSON, sometimes damaged."""
    text = dumps(body, ensure_ascii=fdp.ConsumeBool())
    damage = fdp.ConsumeIntInRange(0, 19)
    if damage == 1 and text:
        at = fdp.ConsumeIntInRange(0, len(text) - 1)
        text = text[:at] + text[at + 1 :]
    elif damage == 2:
        at = fdp.ConsumeIntInRange(0, len(text))
        text = text[:at] + fdp.ConsumeUnicode(2) + text[at:]
    elif damage == 3:
        text = text[: fdp.ConsumeIntInRange(0, len(text))]
    elif damage == 4:
        text = text + fdp.PickValueInList([" ", "\n", "x", "{}", ",", "\x00"])
    encoding = fdp.ConsumeIntInRange(0, 23)
    if encoding == 1:
        return text.encode("utf-8-sig", "surrogatepass")
    if encoding == 2:
        return text.encode("utf-16", "surrogatepass")
    if encoding == 3:
        return text.encode("latin-1", "replace")
    return text.encode("utf-8", "surrogatepass")


@dataclass
class Request:
    route: Route
    path: str
    body: bytes | None
    headers: dict[str, str]
    table: Table | None
    changes_game: bool  # a 2xx answer means the stored game moved on


def build_request(fdp: atheris.FuzzedDataProvider, srv: Server) -> Request:
    route = srv.routes[fdp.ConsumeIntInRange(0, len(srv.routes) - 1)]
    structured = fdp.ConsumeIntInRange(0, 4) > 0
    headers: dict[str, str] = {}
    path = route.rule
    table = snapshot = None
    if route.game:
        tables = srv.tables_for(route.rule)
        table = tables[fdp.ConsumeIntInRange(0, len(tables) - 1)]
        index = fdp.ConsumeIntInRange(0, len(table.snapshots) - 1)
        snapshot = table.snapshots[index]
        srv.restore(table, index)
        game_id, token = table.id, snapshot.token
        auth = fdp.ConsumeIntInRange(0, 23)
        if auth == 1:
            token = fdp.PickValueInList(list(table.tokens.values()))
        elif auth == 2:
            token = fdp.PickValueInList([t for t in tables if t is not table]).tokens[0]
        elif auth == 3:
            token = header_text(fdp, 60) or "x"
        elif auth == 4:
            game_id = fdp.PickValueInList(["unknown", "0", table.id[:-1], table.id.upper()])
        elif auth == 5:
            game_id = quote(fdp.ConsumeUnicodeNoSurrogates(12), safe="") or "%00"
        scheme = "Bearer"
        if auth == 6:
            scheme = fdp.PickValueInList(["bearer", "BEARER", "Basic", "Token", ""])
        if auth == 7:
            pass  # no Authorization at all
        elif auth == 8:
            headers["Authorization"] = "Bearer"
        else:
            headers["Authorization"] = f"{scheme} {token}".strip()
        path = path.replace("<game_id>", game_id)
        if route.method == "POST" and fdp.ConsumeIntInRange(0, 2) == 2:
            headers["If-Match"] = if_match(fdp, srv, table, snapshot.token)
    if fdp.ConsumeIntInRange(0, 3) == 3:
        headers["Accept-Language"] = (
            fdp.PickValueInList(LANGUAGES) if fdp.ConsumeBool() else header_text(fdp)
        )
    if fdp.ConsumeIntInRange(0, 7) == 7:
        headers["X-Request-Id"] = header_text(fdp, 80)
    content_type = fdp.PickValueInList(CONTENT_TYPES) if structured else JSON_TYPE
    if content_type:
        headers["Content-Type"] = content_type

    body: bytes | None
    if route.method == "GET":
        body = None
    elif not structured:
        body = fdp.ConsumeBytes(fdp.remaining_bytes())
    else:
        examples = list(EXAMPLES.get(route.rule, [{}]))
        if route.rule.endswith(("/moves", "/arrangement")) and snapshot is not None:
            examples = snapshot.moves + examples
        value = copy.deepcopy(fdp.PickValueInList(examples))
        others = [leaf for bodies in EXAMPLES.values() for b in bodies for leaf in leaves(b)]
        if table is not None and isinstance(value, dict) and fdp.ConsumeIntInRange(0, 3) == 3:
            value["version"] = srv.version(table) + fdp.PickValueInList([0, 0, 0, -1, 1])
        for _ in range(fdp.ConsumeIntInRange(0, 4)):
            value = mutate(fdp, value, others)
        body = b"" if fdp.ConsumeIntInRange(0, 30) == 30 else encode(fdp, value)
    return Request(route, path, body, headers, table, route.method == "POST" and route.game)


# --- checking a response -------------------------------------------------------------------


def check_response(srv: Server, request: Request, response: Any) -> None:
    status = response.status_code
    what = f"{request.route.method} {request.path} {request.headers} {request.body!r:.300}"
    if status >= 500:
        raise AssertionError(f"{what} -> {status}\n{srv.errors.last}")
    if response.mimetype not in (JSON_TYPE, PROBLEM_TYPE):
        raise AssertionError(f"{what} -> {status} {response.mimetype}")
    try:
        body = json.loads(response.get_data())
    except ValueError as exc:
        raise AssertionError(f"{what} -> {status}: not JSON: {response.get_data()!r}") from exc
    if not isinstance(body, dict):
        raise AssertionError(f"{what} -> {status}: {body!r}")
    routed = request.path.count("/") == request.route.rule.count("/")
    if routed and status not in request.route.documented and status not in (404, 405):
        raise AssertionError(f"{what} -> {status}, not in the OpenAPI document")
    if status >= 400 or response.mimetype == PROBLEM_TYPE:
        check_problem(what, status, response.mimetype, body)
        return
    operation = request.route.operation
    if operation is None:
        return
    if status != operation.status:
        raise AssertionError(f"{what} -> {status}, expected {operation.status} on success")
    if operation.response_model is not None:
        operation.response_model.model_validate(body)


def check_problem(what: str, status: int, mimetype: str, body: dict[str, Any]) -> None:
    if status < 400 or mimetype != PROBLEM_TYPE:
        raise AssertionError(f"{what} -> {status} {mimetype}: {body}")
    problem = Problem.model_validate(body)
    if problem.status != status or not problem.type or not problem.title or not problem.detail:
        raise AssertionError(f"{what} -> {status}: bad problem {body}")
    if status == 422 and not problem.errors:
        raise AssertionError(f"{what} -> 422 without errors: {body}")


def send(fdp: atheris.FuzzedDataProvider) -> None:
    srv = server()
    JSON.fresh()
    request = build_request(fdp, srv)
    srv.errors.last = ""
    response = srv.client.open(
        request.path, method=request.route.method, data=request.body, headers=request.headers
    )
    try:
        if request.table is not None and request.changes_game and response.status_code < 300:
            request.table.loaded = None  # the move or the new round was made
        check_response(srv, request, response)
    finally:
        response.close()


# Fixed: a path with '//' (POST /v1//evaluate, a game id ending in '/') got werkzeug's 308
# redirect as an HTML page; create_app now sets url_map.merge_slashes = False (regression:
# tests/fuzz/regressions/api/merge-slashes-redirect-1).
KNOWN_ISSUES: dict[str, str] = {}


def TestOneInput(data: bytes, *, strict: bool = False) -> None:
    """The fuzz target. Known issues (see :class:`KnownIssue`) pass unless ``strict``."""
    run_target(send, data, KNOWN_ISSUES, strict=strict)


if __name__ == "__main__":
    server()  # create the games before fuzzing starts
    fuzz_main(TestOneInput, globals())
