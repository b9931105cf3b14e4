"""The vector environment of Azul (pysolve/azul/vector.py), tested as Gymnasium tests its own vector environments:
spaces and shapes of reset and step, the same games as Gymnasium's SyncVectorEnv over the single-seat env, seeding,
next-step autoreset, masks equal to the legal moves at every step."""

from __future__ import annotations

import warnings
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.spaces import Dict, MultiDiscrete  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from gymnasium.vector import AutoresetMode, SyncVectorEnv  # noqa: E402
from gymnasium.vector.utils import batch_space  # noqa: E402

from pysolve.azul.batched import AzulBatchedEnv  # noqa: E402
from pysolve.azul.env import (  # noqa: E402
    AzulEnv,
    AzulGymEnv,
    action_count,
    action_index,
    legal_masks,
    observation_values,
    observe_state,
)
from pysolve.azul.match import Match  # noqa: E402
from pysolve.azul.model import GREY, STANDARD, VARIANTS  # noqa: E402
from pysolve.azul.strategies import strategy  # noqa: E402
from pysolve.azul.vector import AzulVectorEnv, parallel_env  # noqa: E402
from pysolve.errors import InputError  # noqa: E402


def random_actions(masks: np.ndarray, picker: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row of `masks` (action 0 where none is legal: a table that resets)."""
    actions = np.zeros(len(masks), dtype=np.int64)
    for row, mask in enumerate(masks):
        legal = np.flatnonzero(mask)
        if len(legal):
            actions[row] = picker.choice(legal)
    return actions


def run(env: gymnasium.vector.VectorEnv, seed: int, steps: int, picker_seed: int = 0) -> list[tuple]:
    """Reset with `seed`, then `steps` steps of random legal actions: every step's results as lists."""
    observations, _ = env.reset(seed=seed)
    picker = np.random.default_rng(picker_seed)
    record = [(observations["observation"].tolist(), observations["action_mask"].tolist())]
    for _ in range(steps):
        observations, rewards, terminations, truncations, _ = env.step(
            random_actions(observations["action_mask"], picker))
        record.append((observations["observation"].tolist(), observations["action_mask"].tolist(), rewards.tolist(),
                       terminations.tolist(), truncations.tolist()))
    return record


def test_spaces_and_shapes_of_reset_and_step() -> None:
    env = AzulVectorEnv(5, players=3, variant=GREY)
    single = AzulGymEnv(3, variant=GREY)
    assert env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert env.single_observation_space == single.observation_space
    assert env.single_action_space == single.action_space
    assert env.observation_space == batch_space(single.observation_space, 5)
    assert isinstance(env.observation_space, Dict)
    assert env.action_space == MultiDiscrete([action_count(3)] * 5)
    observations, info = env.reset(seed=4)
    assert observations in env.observation_space
    assert observations["observation"].shape == (5, 168) and observations["observation"].dtype == np.int16
    assert observations["action_mask"].shape == (5, 240 + 25) and observations["action_mask"].dtype == np.int8
    assert info["seed"].tolist() == [4, 5, 6, 7, 8] and info["_seed"].all()
    observations, rewards, terminations, truncations, info = env.step(
        random_actions(observations["action_mask"], np.random.default_rng(1)))
    assert observations in env.observation_space
    assert rewards.shape == terminations.shape == truncations.shape == (5,)
    assert rewards.dtype == np.float64 and terminations.dtype == truncations.dtype == np.bool_
    assert info["scores"].shape == (5, 3)
    assert env.action_space.sample().shape == (5,)
    env.close()
    assert env.closed


@pytest.mark.slow
@pytest.mark.parametrize(("players", "variant", "opponent"), [(2, STANDARD, "random"), (3, GREY, "greedy"),
                                                              (4, STANDARD, "random")])
def test_the_same_games_as_gymnasiums_sync_vector_env_over_the_single_seat_env(
        players: int, variant: str, opponent: str) -> None:
    def single() -> AzulGymEnv:
        return AzulGymEnv(players, seat=1, opponent=opponent, variant=variant, win_reward=2.0)

    reference = SyncVectorEnv([single] * 3)
    ours = AzulVectorEnv(3, players, seat=1, opponent=opponent, variant=variant, win_reward=2.0)
    steps = 150 if opponent == "random" else 60
    expected = run(reference, 10, steps)
    assert run(ours, 10, steps) == expected
    assert sum(any(record[3]) for record in expected[1:]) >= (3 if opponent == "random" else 1)  # games ended


@pytest.mark.slow
@pytest.mark.parametrize(("players", "seat", "variant", "opponent"),
                         [(2, 0, STANDARD, "random"), (3, 2, GREY, "greedy"), (4, 1, GREY, "random")])
def test_the_fast_seat_plays_the_games_of_the_aec_environment(players: int, seat: int, variant: str,
                                                              opponent: str) -> None:
    """AzulGymEnv (the Python engine on a bare table) against AzulEnv (State and the AEC cycle), driven alike."""
    single = AzulGymEnv(players, seat=seat, opponent=opponent, variant=variant, win_reward=2.0)
    aec = AzulEnv(players, win_reward=2.0, variant=variant)
    others = strategy(opponent)
    agent = f"player_{seat}"
    picker = np.random.default_rng(players)
    for game in (3, 4):
        observation, _ = single.reset(seed=game)
        aec.reset(seed=game)
        reward, done = 0.0, False
        while True:
            while aec.agent_selection != agent and not (aec.terminations[agent] or aec.truncations[agent]):
                state = aec.state
                aec.step(action_index(others(state.to_json(), state.legal_moves(), aec.stream), players))
            seen = aec.observe(agent)
            assert observation["observation"].tolist() == seen["observation"].tolist()
            assert observation["action_mask"].tolist() == seen["action_mask"].tolist()
            assert reward == aec._cumulative_rewards[agent]  # the seat's reward since its last move
            if done:
                break
            action = int(picker.choice(np.flatnonzero(observation["action_mask"])))
            observation, reward, terminated, truncated, _ = single.step(action)
            aec.step(action)
            done = terminated or truncated
        assert single.state.to_json() == aec.state.to_json() and aec.state.is_terminal


def test_seeding_is_deterministic_and_seeds_differ() -> None:
    env = AzulVectorEnv(4)
    first = run(env, 7, 80)
    assert run(AzulVectorEnv(4), 7, 80) == first
    assert run(env, 7, 80) == first
    other = run(env, 8, 80)
    assert other[0][0][0] == first[0][0][1]  # table 0 of seed 8 plays seed 8, as table 1 of seed 7
    assert other != first
    listed, _ = env.reset(seed=[7, 9, 7, 9])
    assert listed["observation"][0].tolist() == listed["observation"][2].tolist() == first[0][0][0]


def test_next_step_autoreset_starts_a_new_game_ignoring_the_action() -> None:
    env = AzulVectorEnv(2, max_moves=6)
    observations, _ = env.reset(seed=3)
    picker = np.random.default_rng(0)
    ended_at = None
    for step in range(20):
        observations, rewards, terminations, truncations, _ = env.step(
            random_actions(observations["action_mask"], picker))
        if truncations[0]:
            ended_at = step
            final = observations["observation"][0].copy()
            break
    assert ended_at is not None and not terminations[0]
    # action 500 is illegal everywhere (it would end the game with -1): on a table that resets it is ignored
    observations, rewards, terminations, truncations, _ = env.step(np.array([500, 0]))
    assert rewards[0] == 0.0 and not terminations[0] and not truncations[0]
    assert observations["action_mask"][0].any() and observations["observation"][0].tolist() != final.tolist()
    assert env.tables[0].table.moves <= 1


@pytest.mark.parametrize("make, tables", [(AzulVectorEnv, 4), (AzulBatchedEnv, 8)])
def test_gymnasiums_episode_statistics_wrapper_reads_the_games_returns(make: Any, tables: int) -> None:
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    env = RecordEpisodeStatistics(make(tables, win_reward=3.0))
    observations, _ = env.reset(seed=1)
    picker = np.random.default_rng(0)
    ended = 0
    for _ in range(150):
        observations, _, terminations, _, info = env.step(random_actions(observations["action_mask"], picker))
        for index in np.flatnonzero(info.get("_episode", np.zeros(tables, dtype=bool))):
            assert terminations[index]
            assert info["episode"]["r"][index] in (info["scores"][index][0] + 3.0, info["scores"][index][0] - 3.0)
            ended += 1
    assert ended >= 8


def test_masks_are_the_legal_moves_of_every_table_at_every_step() -> None:
    env = AzulVectorEnv(6, players=4, variant=GREY)
    observations, _ = env.reset(seed=21)
    picker = np.random.default_rng(5)
    for _ in range(60):
        for index, seat_table in enumerate(env.tables):
            table = seat_table.table
            if table.over or table.turn != 0:
                assert not observations["action_mask"][index].any()
                continue
            legal = seat_table.engine.legal_moves(table)
            assert sorted(np.flatnonzero(observations["action_mask"][index]).tolist()) == sorted(
                action_index(move, 4) for move in legal)
        observations, *_ = env.step(random_actions(observations["action_mask"], picker))


def test_batched_masks_equal_single_ones_on_both_walls() -> None:
    for players, variant in ((2, STANDARD), (3, GREY)):
        env = AzulGymEnv(players, opponent="random", variant=variant)
        observations = []
        observation, _ = env.reset(seed=2)
        picker = np.random.default_rng(3)
        for _ in range(40):
            observations.append(observation["observation"])
            assert observation["action_mask"].tolist() == legal_masks(observe_state(env.state, 0), players,
                                                                      variant).tolist()
            observation, *_, terminated, truncated, _ = env.step(int(picker.choice(np.flatnonzero(
                observation["action_mask"]))))
            if terminated or truncated:
                observation, _ = env.reset()
        batch = np.stack(observations)
        assert legal_masks(batch, players, variant).tolist() == [legal_masks(one, players, variant).tolist()
                                                                  for one in observations]


@settings(max_examples=25, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**40), variant=st.sampled_from(VARIANTS),
       moves=st.integers(0, 150))
def test_batched_masks_are_the_engines_legal_moves_in_random_positions(players: int, seed: int, variant: str,
                                                                         moves: int) -> None:
    match = Match(players, seed, "python", variant=variant)
    for _ in range(moves):
        if not match.legal_moves():
            break
        match.play()
    state = match.state
    table = match.handle
    observations = np.stack([np.array(observation_values(table, seat), dtype=np.int16) for seat in range(players)])
    masks = legal_masks(observations, players, variant)
    for seat in range(players):
        expected = {action_index(move, players) for move in match.legal_moves()} if seat == state["turn"] else set()
        assert set(np.flatnonzero(masks[seat]).tolist()) == expected


@pytest.mark.parametrize("players", [2, 3, 4])
def test_batched_masks_offer_the_grey_walls_column_choices_as_the_engine_does(players: int) -> None:
    """Every position of random grey games where a column is chosen: the batched masks of all seats are the
    engine's legal columns for the chooser (the 25 wall-cell actions only), nothing for the others."""
    tilings = 0
    for seed in range(3):
        match = Match(players, seed, "python", variant=GREY)
        while match.legal_moves():
            table = match.handle
            if table.tiling:
                tilings += 1
                observations = np.stack([np.array(observation_values(table, seat), dtype=np.int16)
                                         for seat in range(players)])
                masks = legal_masks(observations, players, GREY)
                for seat in range(players):
                    expected = ({action_index(move, players) for move in match.legal_moves()}
                                if seat == table.turn else set())
                    assert set(np.flatnonzero(masks[seat]).tolist()) == expected
                    assert all(action >= action_count(players) - 25 for action in expected)
            match.play()
    assert tilings >= 20


def test_an_illegal_action_ends_that_tables_game_or_raises() -> None:
    env = AzulVectorEnv(3, win_reward=2.0)
    observations, _ = env.reset(seed=1)
    actions = random_actions(observations["action_mask"], np.random.default_rng(0))
    actions[1] = int(np.flatnonzero(observations["action_mask"][1] == 0)[0])
    _, rewards, terminations, _, info = env.step(actions)
    assert rewards[1] == -2.0 and terminations.tolist() == [False, True, False]
    assert info["illegal"].tolist() == [False, True, False]
    strict = AzulVectorEnv(2, illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(InputError, match="table 0: action 500 is not legal"):
        strict.step(np.array([500, 0]))


def test_reset_mask_resets_only_the_tables_chosen() -> None:
    env = AzulVectorEnv(3)
    first, _ = env.reset(seed=1)
    observations, *_ = env.step(random_actions(first["action_mask"], np.random.default_rng(0)))
    again, info = env.reset(seed=1, options={"reset_mask": np.array([False, True, False])})
    assert again["observation"][1].tolist() == first["observation"][1].tolist()
    assert again["observation"][0].tolist() == observations["observation"][0].tolist()
    assert info["_seed"].tolist() == [False, True, False] and info["seed"][1] == 2


def test_the_single_env_passes_gymnasiums_check_env_on_both_walls() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for variant in (STANDARD, GREY):
            check_env(AzulGymEnv(3, opponent="random", variant=variant), skip_render_check=True)


@pytest.mark.filterwarnings("ignore:Observation")  # a Dict with the mask, as PettingZoo's own classic games
def test_the_parallel_form_passes_pettingzoos_parallel_api_test_and_replays_a_seed() -> None:
    from pettingzoo.test import parallel_api_test

    parallel_api_test(parallel_env(3, variant=GREY), num_cycles=300)

    def game(seed: int) -> list[tuple]:
        env = parallel_env(2)
        observations, _ = env.reset(seed=seed)
        picker, record = np.random.default_rng(0), []
        while env.agents:
            actions = {agent: int(picker.choice(np.flatnonzero(observations[agent]["action_mask"])))
                       if observations[agent]["action_mask"].any() else 0 for agent in env.agents}
            observations, rewards, *_ = env.step(actions)
            record.append(({agent: seen["observation"].tolist() for agent, seen in observations.items()}, rewards))
        return record

    first = game(4)
    assert game(4) == first and game(5) != first and len(first) > 40


def test_the_batched_engine_steps_the_batched_rules_games_against_the_random_strategy() -> None:
    """`engine="batched"` is `AzulBatchedEnv(opponent="random")` behind the vector env's constructor: the same
    seed, the same games step by step (its own chance, not the Python engine's seeded games)."""
    ours = AzulVectorEnv(6, 3, seat=1, engine="batched", win_reward=2.0, max_moves=40)
    reference = AzulBatchedEnv(6, 3, seat=1, opponent="random", win_reward=2.0, max_moves=40)
    record = run(ours, 5, 80)
    assert record == run(reference, 5, 80)
    assert record != run(AzulVectorEnv(6, 3, seat=1, win_reward=2.0, max_moves=40), 5, 80)
    assert sum(any(step[3]) or any(step[4]) for step in record[1:]) >= 3  # games ended or were cut, then restarted
    assert ours.single_observation_space == reference.single_observation_space
    assert ours.action_space == reference.action_space
    texts = AzulVectorEnv(2, engine="batched", render_mode="ansi").render()
    assert texts is not None and len(texts) == 2
    made = gymnasium.make_vec("pysolve/Azul-v0", num_envs=3, vectorization_mode="vector_entry_point", engine="batched")
    assert isinstance(made, AzulVectorEnv) and made.batched is not None


def test_render_and_bad_settings() -> None:
    texts = AzulVectorEnv(2, render_mode="ansi").render()
    assert texts is not None and len(texts) == 2 and all("factories:" in text for text in texts)
    for settings_given, message in (({"num_envs": 0}, "num_envs 0"), ({"players": 5}, "2 to 4 players"),
                           ({"seat": 2}, "seat 2"), ({"illegal": "ignore"}, "illegal="),
                           ({"variant": "blue"}, "unknown Azul variant"), ({"render_mode": "rgb"}, "render_mode")):
        with pytest.raises(InputError, match=message):
            AzulVectorEnv(**settings_given)
    with pytest.raises(InputError, match="3 seeds for 2 tables"):
        AzulVectorEnv(2).reset(seed=[1, 2, 3])
    for settings_given, message in (({"engine": "prolog"}, "engine 'prolog': expected one of python, batched"),
                                    ({"variant": GREY}, "engine='batched' plays the coloured wall only"),
                                    ({"opponent": "greedy"}, "engine='batched' plays the opponent 'random' only")):
        with pytest.raises(InputError, match=message):
            AzulVectorEnv(2, **{"engine": "batched", **settings_given})
    with pytest.raises(InputError, match="one generator for all tables"):
        AzulVectorEnv(2, engine="batched").reset(seed=[1, 2])
    with pytest.raises(InputError, match="reset_mask"):
        AzulVectorEnv(2).reset(options={"reset_mask": [True, False]})
