"""The PettingZoo and Gymnasium environments: the libraries' own checks, and every step of
random rounds checked against the rules engine (env.unwrapped.game), under every rule
setting and table size."""

from __future__ import annotations

import functools
import random
import subprocess
import sys
import warnings
from typing import Any

import capsa_fast as cf
import gymnasium
import numpy as np
import pytest
from capsa_fast import banting, rl
from capsa_fast.rl import NUM_ACTIONS, OBS_SIZE, PASS, BantingGymEnv, banting_env
from capsa_fast.rl.gym_vec import BantingGymVectorEnv
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from tests.rl.helpers import RULE_SETS, check_observation

# api_test warns about dict observations unless the env is one of PettingZoo's own classic
# games, which it exempts by name (chess_v6, connect_four_v3, texas_holdem_v4, ...): they
# have the same {"observation", "action_mask"} form. Its all-zero mask warning comes from
# the terminated agents' last observations (the classic convention: no legal action once
# the game is over); test_every_step_matches_the_rules_engine checks that every agent to
# move has a legal action.
CLASSIC_FORM_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
    "Action mask numpy array is all zeros (no legal actions).",
}


def checked_api_test(env: Any, num_cycles: int) -> None:
    """PettingZoo's api_test, failing on any warning but those of the classic form."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env, num_cycles=num_cycles, verbose_progress=False)
    assert [str(w.message) for w in caught if str(w.message) not in CLASSIC_FORM_WARNINGS] == []


@pytest.mark.parametrize("players", [4, 3, 2])
def test_pettingzoo_api_test(players: int) -> None:
    checked_api_test(banting_env(players=players), num_cycles=400)


@pytest.mark.parametrize("rules", RULE_SETS[4:7])
def test_pettingzoo_api_test_rule_settings(rules: dict[str, Any]) -> None:
    checked_api_test(banting_env(rules=rules), num_cycles=200)


def test_pettingzoo_seed_test() -> None:
    seed_test(banting_env, num_cycles=300)
    seed_test(functools.partial(banting_env, preset="capsa-klasik", players=3), num_cycles=300)


def test_calls_before_reset_are_refused() -> None:
    env = banting_env()
    with pytest.raises(AttributeError, match="before reset"):
        env.last()
    with pytest.raises(AttributeError, match="before reset"):
        _ = env.agent_selection
    env.reset(seed=1)
    obs, reward, terminated, truncated, info = env.last()
    assert info == {}
    assert obs["action_mask"].any() and (reward, terminated, truncated) == (0.0, False, False)


def random_rounds(
    env: Any, rounds: int, rng: random.Random, check: bool = True
) -> list[list[float]]:
    """Plays rounds with random legal actions, checking each observation against the game;
    returns each round's rewards."""
    results = []
    game: banting.Game = env.unwrapped.game
    for _ in range(rounds):
        totals = {a: 0.0 for a in env.possible_agents}
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            totals[agent] += reward
            if terminated or truncated:
                env.step(None)
                continue
            game = env.unwrapped.game
            seat = int(agent.split("_")[1])
            assert game.turn == seat
            if check:
                check_observation(game, seat, obs["observation"], obs["action_mask"])
                other = env.possible_agents[(seat + 1) % game.players]
                assert not env.observe(other)["action_mask"].any()
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(rng.choice(list(legal))))
        game = env.unwrapped.game
        assert game.over
        assert [totals[a] for a in env.possible_agents] == [float(s) for s in game.result.scores]
        assert sum(totals.values()) == 0
        results.append([totals[a] for a in env.possible_agents])
        env.reset()
    return results


@pytest.mark.parametrize("rules", RULE_SETS)
@pytest.mark.parametrize("players", [4, 3, 2])
def test_every_step_matches_the_rules_engine(rules: dict[str, Any], players: int) -> None:
    env = banting_env(rules=rules, players=players)
    env.reset(seed=players * 101 + RULE_SETS.index(rules))
    random_rounds(env, 4, random.Random(players))


def test_preset_with_overrides_and_match_rounds() -> None:
    env = banting_env(preset="taiwan", rules={"first_lead": "previous-winner"})
    assert env.unwrapped.rules.first_lead == "previous-winner"
    assert env.unwrapped.rules.preset_name == "taiwan"
    env.reset(seed=5)
    first = env.unwrapped.game
    random_rounds(env, 1, random.Random(1), check=False)
    # Without a seed the next round of the match is dealt: the previous winner opens.
    game = env.unwrapped.game
    assert game is first and game.round == 2
    assert not game.first_play
    with pytest.raises(ValueError, match="disagree"):
        banting_env(preset="taiwan", rules={"preset": "pagat"})
    with pytest.raises(ValueError, match="unknown preset"):
        banting_env(preset="nowhere")
    with pytest.raises(ValueError, match="players"):
        banting_env(players=5)


def test_illegal_action_raises_and_changes_nothing() -> None:
    env = banting_env()
    env.reset(seed=3)
    agent = env.agent_selection
    before = env.observe(agent)
    illegal = int(np.flatnonzero(before["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        env.step(illegal)
    with pytest.raises(ValueError, match=r"action must be 0\.\.1664, got 1665"):
        env.step(NUM_ACTIONS)
    with pytest.raises(ValueError, match="an action is an integer"):
        env.step("pass")
    assert env.agent_selection == agent
    after = env.observe(agent)
    assert np.array_equal(before["observation"], after["observation"])
    assert np.array_equal(before["action_mask"], after["action_mask"])


def test_illegal_action_can_terminate_instead() -> None:
    env = banting_env(illegal="terminate")
    env.reset(seed=3)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    env.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(env.terminations.values())
    assert env.rewards[agent] == env.unwrapped.illegal_reward == -39
    assert all(r == 0 for a, r in env.rewards.items() if a != agent)


def dragon_seed() -> int:
    """The first reset seed whose round deals a dragon (13 ranks in one hand; about one
    deal in 2,400). The environment draws the code as below."""
    for s in range(100_000):
        code = banting.make_code(4, int(np.random.default_rng(s).integers(0, 1 << 45)))
        if any(len({c // 4 for c in hand}) == 13 for hand in banting.deal(code)):
            return s
    raise AssertionError("no dragon in 100,000 deals")


def test_dragon_deals_are_dealt_past() -> None:
    # A dragon ends its round at the deal; the environments deal the next round of the
    # match, so every agent is live after a reset.
    env = banting_env()
    env.reset(seed=dragon_seed())
    game = env.unwrapped.game
    assert env.unwrapped.skipped_rounds == 1
    assert game.round == 2 and not game.over and any(game.totals)
    assert not any(env.terminations.values())
    genv = BantingGymEnv()
    _, info = genv.reset(seed=dragon_seed())
    assert not genv.game.over and info["skipped"] == 1


def test_a_given_round_code_is_dealt_for_every_seat() -> None:
    """reset(options={"code": ...}) deals that code in both envs (the duplicate format: one
    deal, the learner in each seat); a code that is no code or is for another table size is
    refused, and so is a code whose round ends at the deal."""
    code = "B4000003RJ0"
    hands = banting.deal(code)
    for seat in range(4):
        env = BantingGymEnv(seat=seat)
        _, info = env.reset(seed=seat, options={"code": code})
        assert env.game.code == code and info["code"] is None  # not shown mid-round
        assert sorted(env.game.hand(seat)) == sorted(hands[seat]) or env.game.history
    aec = banting_env()
    aec.reset(seed=9, options={"code": code.lower()})
    assert aec.unwrapped.game.code == code
    with pytest.raises(ValueError, match="a round code is a string"):
        BantingGymEnv().reset(options={"code": 5})
    with pytest.raises(ValueError, match="deals 4 players; this env seats 3"):
        BantingGymEnv(players=3).reset(options={"code": code})
    dragon = banting.make_code(4, int(np.random.default_rng(dragon_seed()).integers(0, 1 << 45)))
    with pytest.raises(ValueError, match="ends"):
        banting_env().reset(options={"code": dragon})
    with pytest.raises(ValueError, match="ends"):
        BantingGymEnv().reset(options={"code": dragon})


def test_aec_refuses_a_step_when_the_game_moved_behind_its_back() -> None:
    env = banting_env()
    env.reset(seed=1)
    game = env.unwrapped.game
    game.bot_play(game.turn, "standard")  # a move on the game itself, not through step()
    before = len(game.history)
    with pytest.raises(ValueError, match=r"a move was made on env\.unwrapped\.game"):
        env.step(PASS)
    assert len(game.history) == before


def test_one_seat_render_is_the_learners_view() -> None:
    """Gymnasium's env renders what its learner may see: its own cards, the others' as
    counts or card backs, and no round code (which deals every hand) before the end."""
    from capsa_fast.rl.render import _BACK, _CARD_H, _GAP, _RED, render_as

    env = gymnasium.make(rl.GYM_ID, seat=2, render_mode="ansi")
    env.reset(seed=3)
    game = env.unwrapped.game
    text = env.render()
    assert game.code not in text and "(code hidden until the round ends)" in text
    for seat in range(4):
        row = next(ln for ln in text.splitlines() if ln[2:].startswith(f"player_{seat}"))
        shown = " ".join(cf.format_cards(game.hand(seat)))
        assert (shown in row) == (seat == 2), row
        assert ("(hidden)" in row) == (seat != 2)
    terminated = False
    while not terminated:
        mask = env.unwrapped.action_masks()
        _, _, terminated, _, _ = env.step(int(np.flatnonzero(mask)[0]))
    assert game.code in env.render()  # once the round is over

    pictures = gymnasium.make(rl.GYM_ID, seat=1, render_mode="rgb_array")
    pictures.reset(seed=3)
    img = pictures.render()
    everything = render_as("rgb_array", pictures.unwrapped.game, 4)
    rows = [
        slice(_GAP + s * (_CARD_H + _GAP), _GAP + s * (_CARD_H + _GAP) + _CARD_H) for s in range(4)
    ]
    for seat, band in enumerate(rows):
        backs = np.all(img[band] == _BACK, axis=2).any()
        red = np.all(img[band] == _RED, axis=2).any()
        assert backs == (seat != 1)
        if seat != 1:
            assert not red  # no card's face shows
        else:
            assert np.array_equal(img[band], everything[band])
    vec = BantingGymVectorEnv(2, seat=3, render_mode="ansi")
    vec.reset(seed=4)
    for i, view in enumerate(vec.render()):
        shown = vec.game(i)
        assert shown.code not in view
        assert " ".join(cf.format_cards(shown.hand(3))) in view
        assert " ".join(cf.format_cards(shown.hand(0))) not in view


def test_render_text() -> None:
    env = banting_env(render_mode="ansi")
    env.reset(seed=11)
    text = env.render()
    game = env.unwrapped.game
    assert game.code in text
    for seat in range(4):
        assert " ".join(cf.format_cards(game.hand(seat))) in text
    assert f"> player_{game.turn}" in text
    with pytest.raises(ValueError, match="render_mode"):
        banting_env(render_mode="rgb_array_list")


def test_render_rgb_array_draws_the_cards() -> None:
    # An image per step for video recorders (and what Stable-Baselines3's make_vec_env asks
    # every env for): one row per seat, a card per held card, the table at the bottom.
    from capsa_fast.rl.render import _CARD_H, _CARD_W, _GAP, _WHITE

    env = banting_env(render_mode="rgb_array")
    env.reset(seed=11)
    for _ in range(6):
        agent = env.agent_selection
        env.step(int(np.flatnonzero(env.observe(agent)["action_mask"])[-1]))
    game = env.unwrapped.game
    img = env.render()
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
    white = np.all(img == _WHITE, axis=2)
    for row in range(game.players + 1):
        top = _GAP + row * (_CARD_H + _GAP) + _CARD_H // 2
        # count the cards along the row's middle line: runs of card-white pixels that are
        # a card wide (the glyphs never cross that line's edges)
        line = white[top]
        starts = np.flatnonzero(line[1:] & ~line[:-1]) + 1
        table = game.table.cards if game.table is not None else []
        held = len(game.hand(row)) if row < game.players else len(table)
        assert len(starts) == held, (row, held)
        assert all(line[s : s + _CARD_W // 3].all() for s in starts[:1])
    gym_env = gymnasium.make(rl.GYM_ID, render_mode="rgb_array")
    gym_env.reset(seed=1)
    assert gym_env.render().shape == img.shape
    # one frame size from before the first deal on (video recorders need it)
    two = banting_env(players=2, render_mode="rgb_array")
    before = two.unwrapped.render().shape  # (the wrapper asks for a reset first)
    two.reset(seed=3)
    assert two.render().shape == before


def test_render_human_prints(capsys: pytest.CaptureFixture[str]) -> None:
    env = banting_env(render_mode="human")
    env.reset(seed=2)
    agent = env.agent_selection
    env.step(int(np.flatnonzero(env.observe(agent)["action_mask"])[0]))
    assert "last moves: player_" in capsys.readouterr().out


# Gymnasium -----------------------------------------------------------------------------


def test_gymnasium_check_env() -> None:
    # Through gymnasium.make, so check_env can make it again in each render mode.
    check_env(gymnasium.make(rl.GYM_ID).unwrapped)
    check_env(
        gymnasium.make(
            rl.GYM_ID, preset="capsa-klasik", players=3, opponents=["random", "expert"]
        ).unwrapped
    )
    check_env(
        gymnasium.make(
            rl.GYM_ID, rules={"preset": "hong-kong", "ending": "last-standing"}, seat=None
        ).unwrapped
    )


def test_gymnasium_make_and_checked_episodes() -> None:
    env = gymnasium.make(rl.GYM_ID, opponents="beginner", seat=2)
    assert env.observation_space["observation"].shape == (OBS_SIZE,)
    assert env.action_space.n == NUM_ACTIONS
    rng = random.Random(4)
    total = 0.0
    for episode in range(6):
        obs, info = env.reset(seed=episode)
        game = env.unwrapped.game
        # The code deals every hand: the info shows it only once the round is over.
        assert info["seat"] == 2 and info["code"] is None
        done = False
        while not done:
            assert game.turn == 2
            check_observation(game, 2, obs["observation"], obs["action_mask"])
            action = rng.choice(list(np.flatnonzero(obs["action_mask"])))
            obs, reward, done, truncated, info = env.step(int(action))
            assert not truncated
            assert info["code"] == (game.code if done else None)
        assert game.over
        assert reward == game.result.scores[2] == info["scores"][2]
        total += reward
    env.close()


def test_gymnasium_is_repeatable_and_seats_rotate() -> None:
    def trajectory(seed: int) -> list[Any]:
        env = BantingGymEnv(opponents="standard", seat=None)
        obs, info = env.reset(seed=seed)
        out = [info["seat"]]
        done = False
        while not done:
            action = int(np.flatnonzero(obs["action_mask"])[0])
            obs, reward, done, _, info = env.step(action)
            out.append(obs["observation"].tobytes())
        out += [reward, info["code"]]
        return out

    assert trajectory(7) == trajectory(7)
    assert trajectory(7) != trajectory(8)
    seats = {BantingGymEnv(seat=None).reset(seed=s)[1]["seat"] for s in range(20)}
    assert seats == {0, 1, 2, 3}


def test_gymnasium_illegal_actions() -> None:
    env = BantingGymEnv()
    obs, _ = env.reset(seed=1)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(bad)
    assert terminated and info["illegal"] and reward == -39
    # the episode is over: the abandoned round does not play on (it once did, silently)
    assert np.array_equal(env.action_masks(), obs["action_mask"].astype(bool))
    with pytest.raises(ValueError, match="the round is over: call reset"):
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    obs, _ = env.reset()
    assert np.array_equal(env.action_masks(), obs["action_mask"].astype(bool))
    assert env.action_masks().any()
    strict = BantingGymEnv(illegal="raise")
    obs, _ = strict.reset(seed=1)
    with pytest.raises(ValueError, match="not legal"):
        strict.step(bad)
    # Not an action at all: the message says what an action is.
    for huge in (True, None, "5", 3.5, 1665, 2**70, np.uint64(2**64 - 1), -1):
        with pytest.raises(ValueError, match=r"an action is an integer 0\.\.1664, got"):
            strict.step(huge)
    lenient = BantingGymEnv()
    lenient.reset(seed=1)
    _, reward, terminated, _, info = lenient.step(2**70)
    assert terminated and info["illegal"] and reward == -39
    # nothing changed: a legal action still plays
    strict.step(int(np.flatnonzero(obs["action_mask"])[0]))
    # The master's budget is a setting, checked as sim checks it.
    quick = BantingGymEnv(opponents="master", master_budget={"iterations": 40})
    assert quick._budget == (40, 0.0, 1)
    quick.reset(seed=2)
    quick.step(int(np.flatnonzero(quick.action_masks())[0]))
    for bad, says in (
        ({"iterations": 0}, "iterations must be"),
        ({"threads": 1.5}, "threads must be an integer"),
        ({"time_ms": "50"}, "time_ms must be a number"),
        ({"depth": 3}, "unknown depth"),
    ):
        with pytest.raises(ValueError, match=says):
            BantingGymEnv(opponents="master", master_budget=bad)
    # The level each seat really plays is on record (standard seats: standard-v2).
    mixed = BantingGymEnv(opponents=["standard", "expert", "standard-v1"])
    assert mixed.bot_levels == ("standard-v2", "expert", "standard-v1")
    with pytest.raises(ValueError, match="opponents"):
        BantingGymEnv(opponents="grandmaster")
    with pytest.raises(ValueError, match="one bot level per other seat"):
        BantingGymEnv(opponents=["random"])
    with pytest.raises(ValueError, match="seat"):
        BantingGymEnv(seat=4)


def test_an_action_as_a_0d_array_plays() -> None:
    """An agent's predict() for one observation gives a 0-d array; the action space holds
    it, so it is the action, not an illegal one (it once cost the worst score)."""
    env = BantingGymEnv()
    obs, _ = env.reset(seed=1)
    action = np.array(int(np.flatnonzero(obs["action_mask"])[0]), dtype=np.int64)
    assert env.action_space.contains(action)
    _, _, terminated, _, info = env.step(action)
    assert not info.get("illegal") and not terminated
    aec = banting_env()
    aec.reset(seed=1)
    mask = aec.observe(aec.agent_selection)["action_mask"]
    aec.step(np.array(int(np.flatnonzero(mask)[0]), dtype=np.int32))
    with pytest.raises(ValueError, match="an action is an integer"):
        aec.step(np.array([1]))  # a 1-d array is not an action
    with pytest.raises(ValueError, match="an action is an integer"):
        aec.step(np.array(1.0))


@pytest.mark.parametrize(
    "imports",
    ["import capsa_fast, gymnasium", "import gymnasium, capsa_fast", "import gymnasium"],
)
def test_the_gymnasium_id_needs_only_capsa_fast_imported(imports: str) -> None:
    """API.md's id works after `import capsa_fast` in either order (and with the
    'capsa_fast:' module prefix), and capsa_fast alone does not load Gymnasium."""
    make = "gymnasium.make('capsa_fast/Banting-v0')"
    if imports == "import gymnasium":
        make = "gymnasium.make('capsa_fast:capsa_fast/Banting-v0')"
    code = f"{imports}; env = {make}; env.reset(seed=1); print('made')"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0 and "made" in done.stdout, done.stderr
    alone = "import sys, capsa_fast; print('gymnasium' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", alone], capture_output=True, text=True).stdout == (
        "False\n"
    )
    # The finder watches the one import of Gymnasium, then leaves sys.meta_path.
    left = (
        "import sys, capsa_fast, gymnasium; print([f for f in sys.meta_path if 'Gym' in repr(f)])"
    )
    assert subprocess.run([sys.executable, "-c", left], capture_output=True, text=True).stdout == (
        "[]\n"
    )


def test_action_helpers_round_trip() -> None:
    game = banting.Game(code=banting.make_code(4, 77))
    seat = game.turn
    for combo in game.legal_plays(seat):
        a = rl.action_of(game, seat, list(combo.cards))
        assert sorted(rl.action_cards(game, seat, a)) == sorted(combo.cards)
    assert rl.action_of(game, seat, "pass") == PASS
    assert rl.action_cards(game, seat, PASS) is None
    assert rl.legal_actions(game) == sorted(
        rl.action_of(game, seat, list(c.cards)) for c in game.legal_plays(seat)
    )
    other = (seat + 1) % 4
    with pytest.raises(ValueError, match="does not hold"):
        rl.action_of(game, other, [game.hand(seat)[0]])
    with pytest.raises(ValueError, match="action must be"):
        rl.action_cards(game, seat, NUM_ACTIONS)
    obs, mask = rl.observe(game, seat)
    check_observation(game, seat, obs, mask)
    with pytest.raises(ValueError, match="observation has"):
        rl.describe(obs[:10])
    # The environments' dict form reads the same as the vector it holds.
    assert rl.describe({"observation": obs, "action_mask": mask}) == rl.describe(obs)
    with pytest.raises(ValueError, match="under 'observation'"):
        rl.describe({"action_mask": mask})
