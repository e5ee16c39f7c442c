"""How much a bot's give-back in the card exchange (``exchange: ranked``) is worth.

For each deal the same round is played once per give-back policy of the winner (the first
place, who receives the last place's highest card and gives one back): ``standard`` (the
card whose loss leaves the cheapest plan of the rest), ``beginner`` (its lowest card) and
``random`` (any card). Everything else is the same: the places (a rotation drawn from the
deal's number), the second pair's give-back with four players (the standard bot's), and
the play, four standard bots. Prints the first place's mean points a round per policy and
the paired differences with their standard errors.

Run: ``.venv/bin/python bench/bench_banting_give_back.py [--deals N] [--players 4]``.
"""

from __future__ import annotations

import argparse
import math
import statistics

from capsa_fast import _core, banting

POLICIES = ("standard", "beginner", "random")


def play(rules: banting.Rules, players: int, deal: int, policy: str) -> int:
    """The first place's points in deal ``deal`` when it gives back by ``policy``."""
    seed = _core.banting_sim_round_seed(2026, deal)
    r = _core.BantingRound(rules.game_core, players, seed, -1, dice=banting.game.dice_seed(seed))
    if r.over:  # a dragon: no exchange
        return 0
    places = [(deal + k) % players for k in range(players)]
    r.begin_exchange(places)
    first = places[0]
    for _, receiver, _, _ in r.exchanges:
        r.bot_give_back(receiver, policy if receiver == first else "standard", True)
    while not r.over:
        r.bot_move("standard", True)
    return int(r.scores[first])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=3000)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    rules = banting.Rules.preset(exchange="ranked")
    points = {p: [play(rules, args.players, d, p) for d in range(args.deals)] for p in POLICIES}
    print(f"{args.deals} deals, {args.players} players, standard bots playing; first place's")
    print("points a round by its give-back:")
    for p in POLICIES:
        print(f"  {p:9s} {statistics.fmean(points[p]):+7.3f}")
    for other in POLICIES[1:]:
        diff = [a - b for a, b in zip(points["standard"], points[other], strict=True)]
        se = statistics.stdev(diff) / math.sqrt(len(diff))
        print(f"standard - {other}: {statistics.fmean(diff):+.3f} ± {se:.3f} points a round")


if __name__ == "__main__":
    main()
