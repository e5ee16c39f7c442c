"""``capsa-fast play`` with the card exchange (``--set exchange=ranked``): a scripted player
answers the JSON events as they come, giving a card back when asked."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from capsa_fast import banting, format_cards


def test_play_gives_a_card_back_between_rounds() -> None:
    args = ["play", "--json", "--bots", "standard", "--rounds", "3", "--set", "exchange=ranked"]
    events = []
    asked = bad_sent = 0
    with subprocess.Popen(
        [sys.executable, "-m", "capsa_fast", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    ) as proc:
        assert proc.stdin is not None and proc.stdout is not None
        for line in proc.stdout:
            event = json.loads(line)
            events.append(event)
            if event["event"] == "give_back":
                asked += 1
                assert len(event["received"]) == 1 and len(event["hand"]) == 14
                answer: Any = ["2z"] if not bad_sent else [event["hand"][0]]  # a bad card first
                bad_sent += 1
            elif event["event"] == "your_turn":
                plays = banting.legal_plays(
                    event["hand"], event["table"], first_play=event["first_play"]
                )
                answer = format_cards(list(plays[0].cards)) if plays else "pass"
            else:
                continue
            proc.stdin.write(json.dumps(answer) + "\n")
            proc.stdin.flush()
        assert proc.wait(timeout=60) == 0
    kinds = [e["event"] for e in events]
    assert kinds.count("result") == 3
    exchanges = [e for e in events if e["event"] == "exchange"]
    assert len(exchanges) == 2  # two players: seat 0 takes part in every exchange
    for e in exchanges:
        assert len(e["gave"]) == 1 and len(e["received"]) == 1
    assert any(e["event"] == "refused" for e in events) == (asked > 0)
