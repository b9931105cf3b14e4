"""The PettingZoo environment and the Gymnasium wrapper of Azul: API tests, seeds, masks, rewards."""

from __future__ import annotations

import functools
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import gymnasium  # noqa: E402
from gymnasium import spaces  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from pysolve.azul.env import (  # noqa: E402
    GYM_ID,
    AzulEnv,
    AzulGymEnv,
    action_count,
    action_index,
    action_move,
    env,
    moves_mask,
    observation_bounds,
    random_feasible_move,
    raw_env,
    table_mask,
)
from pysolve.azul.match import Match, play_match  # noqa: E402
from pysolve.azul.model import FACTORIES, TOTAL_TILES, VARIANTS, RandomStream  # noqa: E402
from pysolve.azul.python import PythonEngine, Table, draw  # noqa: E402
from pysolve.azul.strategies import random_feasible  # noqa: E402
from pysolve.azul.vector import AzulVectorEnv  # noqa: E402
from pysolve.errors import InputError  # noqa: E402


def tiles_seen(observation: np.ndarray, players: int) -> int:
    """All tiles an observation shows (offer, bag, lid, lines, walls, floors without the marker)."""
    offer = FACTORIES[players] * 5 + 5
    total = int(observation[:offer].sum()) + int(observation[offer + 1:offer + 11].sum())
    boards = observation[offer + 14:].reshape(players, 38)
    for board in boards:
        total += int((board[1:26] > 0).sum()) + int(board[31:36].sum()) + int(board[36]) - int(board[37])
    return total


def random_run(env: AzulEnv, seed: int, picker: np.random.Generator) -> list[tuple]:
    """One game with random legal actions: (agent, observation, mask, rewards) at every step; checks the masks."""
    env.reset(seed=seed)
    record = []
    for agent in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        mask = observation["action_mask"]
        legal = env.state.legal_moves()
        players = env.players
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(action_index(move, players) for move in legal)
        assert [action_move(action_index(move, players), players) for move in legal] == legal
        tiling = observation["observation"][FACTORIES[players] * 5 + 18]
        assert mask[action_count(players) - 25:].any() == (tiling > 0) == env.state.is_tiling
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        assert tiles_seen(observation["observation"], env.players) == TOTAL_TILES
        action = int(picker.choice(np.flatnonzero(mask)))
        env.step(action)
        record.append((agent, observation["observation"].tolist(), action, dict(env.rewards)))
    return record


@pytest.mark.filterwarnings("ignore:Observation")  # a Dict with the mask, as PettingZoo's own classic games
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variant", ["standard", "grey"])
def test_pettingzoo_api_test_passes(players: int, variant: str) -> None:
    api_test(AzulEnv(players, variant=variant), num_cycles=300)
    seed_test(lambda: AzulEnv(players, variant=variant), num_cycles=100)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo_constructors_give_arrays_and_pass_its_api_test_without_a_warning(players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        api_test(env(players=players), num_cycles=100)
        api_test(raw_env(players=players, variant="grey"), num_cycles=100)
    assert isinstance(raw_env().observation_space("player_0"), spaces.Box)


@pytest.mark.parametrize("seed", [1, 7])
def test_the_mask_in_the_info_is_the_mask_of_the_dict_form_step_by_step(seed: int) -> None:
    with_dict, with_info = AzulEnv(3), AzulEnv(3, mask_in="info")
    with_dict.reset(seed=seed)
    with_info.reset(seed=seed)
    picker, steps = np.random.default_rng(seed), 0
    for agent in with_dict.agent_iter():
        observation, _, termination, truncation, _ = with_dict.last()
        array, _, _, _, info = with_info.last()
        assert with_info.agent_selection == agent
        assert np.array_equal(array, observation["observation"])
        assert np.array_equal(info["action_mask"], observation["action_mask"])
        for other in with_info.agents:  # an agent not to move sees a mask of zeros
            assert np.array_equal(with_info.infos[other]["action_mask"], with_dict.observe(other)["action_mask"])
        action = None if termination or truncation else int(picker.choice(np.flatnonzero(info["action_mask"])))
        with_dict.step(action)
        with_info.step(action)
        steps += 1
    assert steps > 30 and with_dict.state.is_terminal and with_info.state.returns() == with_dict.state.returns()


def test_gymnasium_makes_the_registered_id_and_its_vector_form() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        made = gymnasium.make(GYM_ID, players=3, opponent="greedy")
        check_env(made.unwrapped, skip_render_check=True)
        check_env(gymnasium.make(GYM_ID, mask_in="info").unwrapped, skip_render_check=True)
    assert isinstance(made.unwrapped, AzulGymEnv) and made.unwrapped.players == 3
    observation, info = gymnasium.make(GYM_ID, mask_in="info").reset(seed=2)
    assert observation.shape == (120,) and info["action_mask"].sum() > 0
    vector = gymnasium.make_vec(GYM_ID, num_envs=4, vectorization_mode="vector_entry_point")
    observations, _ = vector.reset(seed=3)
    assert isinstance(vector, AzulVectorEnv) and observations["observation"].shape == (4, 120)


@pytest.mark.parametrize("players", [2, 4])
def test_the_mask_is_the_legal_moves_and_rewards_add_up_to_the_scores(players: int) -> None:
    env = AzulEnv(players, win_reward=3.0)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for _, _, _, rewards in random_run(env, 5, np.random.default_rng(1)):
        for agent, reward in rewards.items():
            totals[agent] += reward
    state = env.state
    assert state.is_terminal and not env.agents
    winners = state.winners()
    for seat, agent in enumerate(env.possible_agents):
        assert totals[agent] == state.returns()[seat] + (3.0 if seat in winners else -3.0)


@pytest.mark.parametrize("players", [2, 3])
def test_the_grey_wall_offers_its_column_choices_and_the_standard_wall_never_does(players: int) -> None:
    for variant, seed in (("grey", 3), ("standard", 3)):
        env = AzulEnv(players, variant=variant)
        record = random_run(env, seed, np.random.default_rng(2))
        chosen = [action for _, _, action, _ in record if action >= action_count(players) - 25]
        assert bool(chosen) == (variant == "grey"), variant
        assert all(action_move(action, players)[0] == -2 for action in chosen)


def test_the_same_seed_replays_the_same_game_and_another_seed_does_not() -> None:
    env = AzulEnv(2)
    first = random_run(env, 11, np.random.default_rng(7))
    again = random_run(env, 11, np.random.default_rng(7))
    other = random_run(env, 12, np.random.default_rng(7))
    assert first == again
    assert first[0][1] != other[0][1]


def test_a_seeded_environment_deals_the_game_play_match_deals() -> None:
    env = AzulEnv(3)
    env.reset(seed=9)
    for _ in env.agent_iter():
        _, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        move = random_feasible(env.state.to_json(), env.state.legal_moves(), env.stream)
        env.step(action_index(move, 3))
    assert env.state.to_json() == play_match(3, 9, "python").state


@settings(max_examples=40, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**40), variant=st.sampled_from(VARIANTS),
       moves=st.integers(0, 150))
def test_the_fast_seats_mask_and_random_move_are_those_of_the_listed_legal_moves(players: int, seed: int,
                                                                               variant: str, moves: int) -> None:
    """In random positions: `table_mask` is `moves_mask` of the engine's legal moves for every seat, and
    `random_feasible_move` the move `random_feasible` picks from them, reading the same number of the stream."""
    match = Match(players, seed, "python", variant=variant)
    for _ in range(moves):
        if not match.legal_moves():
            break
        match.play()
    table, legal = match.handle, match.legal_moves()
    for seat in range(players):
        listed = moves_mask(legal if seat == table.turn else [], players)
        assert table_mask(table, seat).tolist() == listed.tolist()
    if not legal:
        return
    full = table.copy()  # the mover's lines all full: only the floor takes tiles
    if not table.tiling:
        full.line_colours[table.turn], full.line_counts[table.turn] = [0] * 5, [1, 2, 3, 4, 5]
    for position in (table, full):
        counted, listed = RandomStream(seed), RandomStream(seed)
        expected = random_feasible({}, match.engine.legal_moves(position), listed)
        assert random_feasible_move(position, counted) == expected
        assert counted.used == listed.used == 1


@settings(max_examples=60, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**40),
       bag=st.lists(st.integers(0, 8), min_size=5, max_size=5),
       lid=st.lists(st.integers(0, 12), min_size=5, max_size=5))
def test_a_round_is_dealt_as_the_chance_nodes_deal_it_tile_by_tile(players: int, seed: int, bag: list[int],
                                                                  lid: list[int]) -> None:
    """The engine's deal of a round (one loop, the lid poured in when the bag empties) deals the tiles that
    `dealing`, `deal_bag`, `draw` and `deal` deal one at a time from the same numbers, short bags included."""
    whole, by_tile = Table(players), Table(players)
    for table in (whole, by_tile):
        table.bag, table.lid = bag[:], lid[:]
    whole_stream, tile_stream = RandomStream(seed), RandomStream(seed)
    PythonEngine._next_round(whole, whole_stream)
    while PythonEngine.dealing(by_tile):
        PythonEngine.deal(by_tile, draw(PythonEngine.deal_bag(by_tile), tile_stream.next()))
    for field in ("factories", "bag", "lid", "offer", "round"):
        assert getattr(whole, field) == getattr(by_tile, field), field
    assert whole_stream.used == tile_stream.used == min(sum(bag) + sum(lid), FACTORIES[players] * 4)


def test_observation_fields_at_the_start() -> None:
    env = AzulEnv(2)
    env.reset(seed=3)
    table = env.state.table
    seat = env.state.current_player
    observation = env.observe(env.agent_selection)["observation"]
    low, high = observation_bounds(2)
    assert observation.shape == low.shape == high.shape == (25 + 19 + 2 * 38,)
    assert observation[:25].tolist() == [count for factory in table.factories for count in factory]
    assert observation[25:30].tolist() == [0] * 5 and observation[30] == 1  # empty centre, the marker
    assert observation[31:36].tolist() == table.bag and observation[36:41].tolist() == [0] * 5
    assert observation[41] == 1 and observation[42] == 0  # round 1, the observer moves
    assert env.observe(f"player_{1 - seat}")["observation"][42] == 1
    assert observation[43] == 0  # no column being chosen
    assert observation[44:].tolist() == [0] * 26 + [-1] * 5 + [0] * 7 + [0] * 26 + [-1] * 5 + [0] * 7
    assert action_count(2) == 6 * 5 * 6 + 25 and sum(table.bag) == TOTAL_TILES - 20


def test_an_illegal_action_raises_in_the_aec_environment() -> None:
    env = AzulEnv(2)
    mask = env.observe(env.agent_selection)["action_mask"]
    with pytest.raises(InputError, match="not legal"):
        env.step(int(np.flatnonzero(mask == 0)[0]))


def test_the_gymnasium_wrapper_passes_check_env_and_plays_to_the_end_against_greedy() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(AzulGymEnv(2, opponent="greedy"), skip_render_check=True)
        check_env(AzulGymEnv(2, opponent="greedy", variant="grey"), skip_render_check=True)
    env = AzulGymEnv(3, seat=1, opponent="greedy", win_reward=2.0)
    observation, info = env.reset(seed=4)
    assert info["seed"] == 4
    picker, total, steps, done = np.random.default_rng(2), 0.0, 0, False
    while not done:
        action = int(picker.choice(np.flatnonzero(observation["action_mask"])))
        observation, reward, terminated, truncated, _ = env.step(action)
        total, steps, done = total + reward, steps + 1, terminated or truncated
    state = env.state
    assert terminated and state.is_terminal and steps > 10
    assert total == state.returns()[1] + (2.0 if 1 in state.winners() else -2.0)


def test_the_gymnasium_wrapper_ends_on_an_illegal_action_or_raises() -> None:
    env = AzulGymEnv(2)
    observation, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info) == (-1.0, True, False, {"illegal": True})
    strict = AzulGymEnv(2, illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(InputError, match="not legal"):
        strict.step(illegal)


def test_a_truncated_game_stops_every_agent() -> None:
    env = AzulEnv(2, max_moves=5)
    record = random_run(env, 2, np.random.default_rng(0))
    assert len(record) == 5 and not env.agents and not env.state.is_terminal


@pytest.mark.parametrize("players", [2, 3, 4])
def test_with_illegal_lose_an_illegal_action_loses_the_game_and_the_parallel_seed_test_passes(players: int) -> None:
    from pettingzoo.test import parallel_seed_test

    from pysolve.azul.vector import parallel_env

    env = AzulEnv(players, illegal="lose")
    env.reset(seed=5)
    for _ in range(3):  # a few legal moves first, so that the scores and the seat to move are the game's own
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    offender = env.agent_selection
    scores = env.state.returns()
    env.step(int(np.flatnonzero(env.observe(offender)["action_mask"] == 0)[0]))
    assert all(env.terminations.values()) and env.infos[offender]["illegal"]
    seat = env.possible_agents.index(offender)
    best = max(score for other, score in enumerate(scores) if other != seat)
    assert env.rewards[offender] == -1.0 and env.state.returns() == scores  # the position stays as it was
    assert all(env.rewards[agent] == (1.0 if scores[other] == best else -1.0)
               for other, agent in enumerate(env.possible_agents) if other != seat)
    for variant in ("standard", "grey"):  # PettingZoo's test samples actions without their masks
        parallel_seed_test(functools.partial(parallel_env, players, variant=variant, illegal="lose"), num_cycles=50)


def test_bad_settings_are_input_errors() -> None:
    with pytest.raises(InputError, match="2 to 4 players"):
        AzulEnv(5)
    with pytest.raises(InputError, match="seat 2"):
        AzulGymEnv(2, seat=2)
    with pytest.raises(InputError, match="render_mode"):
        AzulEnv(2, render_mode="rgb")
    with pytest.raises(InputError, match="illegal="):
        AzulEnv(2, illegal="skip")
    with pytest.raises(InputError, match="mask_in='action'"):
        AzulGymEnv(2, mask_in="action")


def test_render_ansi_draws_the_table() -> None:
    env = AzulEnv(2, render_mode="ansi")
    env.reset(seed=1)
    assert "factories:" in env.render() and "round 1" in env.render()
    assert RandomStream(1).below(2) == env.state.table.starter


@pytest.mark.subprocess
def test_the_example_plays_random_and_mcts_through_both_environments() -> None:
    example = Path(__file__).resolve().parent.parent / "examples" / "azul_env.py"
    out = subprocess.run([sys.executable, str(example), "3"], capture_output=True, text=True, timeout=60, check=True)
    assert "PettingZoo: scores" in out.stdout and "Gymnasium:" in out.stdout and "steps against greedy" in out.stdout


def documented(module: object, row: str) -> list[object]:
    """The Python values in the code spans of `row` of a module docstring's PettingZoo table (`N`: 3 tables)."""
    cells = [line.strip().strip("|").split("|") for line in (module.__doc__ or "").splitlines()
             if line.startswith("| ")]
    cell = next(rest for name, *rest in cells if name.strip() == row)[0]
    names = {"__builtins__": {}, "Discrete": spaces.Discrete, "MultiDiscrete": spaces.MultiDiscrete, "N": 3}
    return [eval(span, names) for span in re.findall(r"`([^`]*)`", cell)]


def test_the_documented_spaces_are_the_envs() -> None:
    """The tables at the top of env.py, vector.py and batched.py give the spaces the environments have."""
    import pysolve.azul.batched as batched
    import pysolve.azul.env as env
    import pysolve.azul.vector as vector

    aec = [AzulEnv(players=players) for players in (2, 3, 4)]
    assert documented(env, "Agents") == [aec[0].possible_agents]
    assert documented(env, "Action Shape") == [aec[0].action_space("player_0").shape]
    assert documented(env, "Action Values") == [each.action_space("player_0") for each in aec]
    assert documented(env, "Observation Shape") == [each.observation_space("player_0")["observation"].shape
                                                    for each in aec]
    low, high = observation_bounds(4, "grey")
    values = [int(low.min()), int(high.max()), 0, 1]
    assert documented(env, "Observation Values") == values
    for module, kind in ((vector, vector.AzulVectorEnv), (batched, batched.AzulBatchedEnv)):
        many = kind(num_envs=3, players=2)
        assert documented(module, "Action Shape") == [many.action_space.shape]
        assert documented(module, "Action Values") == [many.action_space]
        assert documented(module, "Observation Shape") == [many.observation_space["observation"].shape,
                                                           many.observation_space["action_mask"].shape]
        assert documented(module, "Observation Values") == values
