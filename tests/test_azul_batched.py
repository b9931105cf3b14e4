"""The batched Azul rules (pysolve/azul/batched.py), cross-checked against the Python engine and tested as Gymnasium
tests its vector environments.

The cross-check replays every table's events (its new games, both seats' moves, its deals) on the Python engine's
`Table` and compares, after every step, the canonical state, the observation, the mask, the reward, the end; on
seeded loops and hypothesis examples, 2-4 players, every seat."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.spaces import MultiDiscrete  # noqa: E402
from gymnasium.utils.env_checker import data_equivalence  # noqa: E402
from gymnasium.utils.passive_env_checker import check_obs  # noqa: E402
from gymnasium.vector import AutoresetMode  # noqa: E402
from gymnasium.vector.utils import batch_space  # noqa: E402
from test_azul_vector import random_actions  # noqa: E402

from pysolve.azul.batched import LINE_COLOURS, LINE_COUNTS, AzulBatchedEnv, Tables  # noqa: E402
from pysolve.azul.env import (  # noqa: E402
    ACTION_MOVES,
    ACTION_NUMBERS,
    AzulGymEnv,
    action_count,
    legal_masks,
    moves_mask,
    observation_values,
)
from pysolve.azul.model import (  # noqa: E402
    CENTRE,
    FACTORIES,
    GREY,
    MARKER,
    TILES_PER_COLOUR,
    TILES_PER_FACTORY,
    can_end,
    feasible,
    wall_colour,
    wall_column,
)
from pysolve.azul.python import PythonEngine, Table  # noqa: E402
from pysolve.errors import InputError  # noqa: E402

ENGINE = PythonEngine()


class Replay:
    """The Python engine's tables replaying the events a `Tables` logs, table by table."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.tables: dict[int, Table] = {}
        self.dealing: dict[int, bool] = {}  # a deal is due (a new game, or a round ended and the game goes on)
        self.to_floor_by_choice = [0] * players  # by seat, the moves to the floor while a line took a tile

    def follow(self, events: list[tuple]) -> None:
        """Apply the events in order: a move must be legal for the seat to move, a deal must be due and fill
        exactly what the engine would deal."""
        for table, kind, *details in events:
            if kind == "new":
                self.tables[table] = Table(self.players)
                self.tables[table].turn = self.tables[table].starter = details[0]
                self.dealing[table] = True
            elif kind == "move":
                played = self.tables[table]
                seat, action = details
                assert not self.dealing[table] and played.turn == seat
                move = ACTION_MOVES[self.players][action]
                legal = ENGINE.legal_moves(played)
                assert move in legal
                self.to_floor_by_choice[seat] += not move[2] and bool(feasible(legal))
                self.dealing[table] = ENGINE.take_turn(played, move)
            else:
                played = self.tables[table]
                assert self.dealing[table]
                for colour in details[0]:
                    assert ENGINE.dealing(played) and played.bag[colour] + played.lid[colour] > 0
                    ENGINE.deal(played, colour)
                assert not ENGINE.dealing(played)
                self.dealing[table] = False
        events.clear()
        assert not any(self.dealing.values())


def canonical(state: dict) -> dict:
    """A canonical state with each floor's items sorted (a floor's order is no rule: the batched floors keep
    counts)."""
    for board in state["boards"]:
        board["floor"] = sorted(board["floor"])
    return state


def cross_check(players: int, seat: int, seed: int, tables: int, steps: int, max_moves: int = 5000,
                win_reward: float = 1.0, opponent: str = "uniform", replay: Replay | None = None) -> tuple[int, int]:
    """Step an `AzulBatchedEnv` with random legal actions, replaying every table on the Python engine (`replay`):
    after every step the states, observations, masks, rewards and ends agree. How many games ended and were
    truncated."""
    env = AzulBatchedEnv(tables, players, seat=seat, max_moves=max_moves, win_reward=win_reward, opponent=opponent)
    env.tables.log = []
    replay = replay or Replay(players)
    observations, _ = env.reset(seed=seed)
    picker = np.random.default_rng(seed)
    rewards = np.zeros(tables)
    terminations = truncations = restarting = np.zeros(tables, dtype=bool)
    before = [0] * tables
    ended = cut = 0
    for _ in range(steps):
        replay.follow(env.tables.log)
        for index in range(tables):
            table = replay.tables[index]
            assert canonical(env.tables.export(index)) == canonical(ENGINE.export(table))
            assert observations["observation"][index].tolist() == observation_values(table, seat)
            moves = ENGINE.legal_moves(table) if table.turn == seat else []
            assert observations["action_mask"][index].tolist() == moves_mask(moves, players).tolist()
            if restarting[index]:  # the step started the table's next game, ignoring its action
                assert rewards[index] == 0 and not (terminations[index] or truncations[index])
                continue
            expected = float(table.scores[seat] - before[index])
            if table.over:
                expected += win_reward if seat in ENGINE.winners(table) else -win_reward
            assert rewards[index] == expected
            assert terminations[index] == table.over
            assert truncations[index] == (not table.over and table.moves >= max_moves)
        before = [replay.tables[index].scores[seat] for index in range(tables)]
        restarting = terminations | truncations
        observations, rewards, terminations, truncations, info = env.step(
            random_actions(observations["action_mask"], picker))
        assert info["scores"].shape == (tables, players)
        ended += int(terminations.sum())
        cut += int(truncations.sum())
    return ended, cut


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_table_replays_on_the_python_engine_step_by_step(players: int) -> None:
    ended = 0
    for seed in range(2):
        done, _ = cross_check(players, seat=seed % players, seed=seed, tables=6, steps=150, win_reward=2.0)
        ended += done
    assert ended >= 10  # whole games, rounds ended and dealt, bags poured from the lids


@pytest.mark.parametrize("players", [2, 4])
def test_opponents_playing_the_random_strategy_replay_and_put_tiles_on_lines_when_they_can(players: int) -> None:
    """`opponent="random"`: the games replay on the Python engine, and no opponent ever moves to the floor while a
    line takes a tile (the uniform opponents do, and so does the learning seat, choosing among all)."""
    seat = players - 1
    by_law, uniform = Replay(players), Replay(players)
    ended, _ = cross_check(players, seat, seed=players, tables=4, steps=120, opponent="random", replay=by_law)
    cross_check(players, seat, seed=players, tables=4, steps=40, replay=uniform)
    assert ended >= 3
    assert by_law.to_floor_by_choice[:seat] == [0] * seat and by_law.to_floor_by_choice[seat] > 0
    assert sum(uniform.to_floor_by_choice[:seat]) > 0


def test_truncated_games_replay_and_restart() -> None:
    ended, cut = cross_check(2, seat=1, seed=9, tables=4, steps=80, max_moves=30)
    assert cut >= 4 and ended == 0


@pytest.mark.slow
@settings(max_examples=12, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seat=st.integers(0, 3), seed=st.integers(0, 2**32),
       tables=st.integers(1, 5), steps=st.integers(1, 60))
def test_random_batches_replay_on_the_python_engine(players: int, seat: int, seed: int, tables: int,
                                                     steps: int) -> None:
    cross_check(players, seat % players, seed, tables, steps)


def test_masks_are_the_batched_masks_of_the_observations() -> None:
    env = AzulBatchedEnv(16, 3, seat=2)
    observations, _ = env.reset(seed=3)
    picker = np.random.default_rng(3)
    for _ in range(60):
        assert observations["action_mask"].tolist() == legal_masks(observations["observation"], 3).tolist()
        observations, *_ = env.step(random_actions(observations["action_mask"], picker))


def test_the_opponents_move_uniformly_among_the_legal_moves() -> None:
    """The two-step draw picks every legal action of a position about equally often, and nothing else."""
    tables = Tables(1, 2, np.random.default_rng(5))
    tables.new_games(np.arange(1))
    seat = int(tables.turn[0])
    offer, boards = np.repeat(tables.offer, 3000, axis=0), np.repeat(tables.board[:, seat], 3000, axis=0)
    legal = np.flatnonzero(tables.masks(tables.offer, tables.board[:, seat])[0])
    counts = np.bincount(tables.random_actions(offer, boards), minlength=tables.masks(offer[:1], boards[:1]).shape[1])
    assert set(np.flatnonzero(counts).tolist()) == set(legal.tolist())
    expected = 3000 / len(legal)
    assert ((counts[legal] - expected) ** 2 / expected).sum() < 2 * len(legal)  # chi-square, far above its mean


def test_the_random_strategys_opponents_move_uniformly_among_the_moves_to_a_line_else_among_all() -> None:
    """`opponent="random"` draws every legal move putting a tile on a line about equally often and nothing else;
    with every line of the seat full, every move to the floor about equally often."""
    tables = Tables(1, 3, np.random.default_rng(6), opponent="random")
    tables.new_games(np.arange(1))
    seat = int(tables.turn[0])
    full = tables.board[:, seat].copy()
    full[:, LINE_COLOURS:LINE_COLOURS + 5], full[:, LINE_COUNTS:LINE_COUNTS + 5] = 0, np.arange(1, 6)
    for boards, to_line in ((tables.board[:, seat], True), (full, False)):
        legal = np.flatnonzero(tables.masks(tables.offer, boards)[0])
        wanted = legal[(legal % 6 > 0) == to_line]
        assert len(wanted) > 5
        counts = np.bincount(tables.random_actions(np.repeat(tables.offer, 3000, axis=0),
                                                   np.repeat(boards, 3000, axis=0)), minlength=legal.max() + 1)
        assert set(np.flatnonzero(counts).tolist()) == set(wanted.tolist())
        expected = 3000 / len(wanted)
        assert ((counts[wanted] - expected) ** 2 / expected).sum() < 2 * len(wanted)  # chi-square, far above its mean


def test_deals_draw_the_colours_evenly() -> None:
    tables = Tables(400, 4, np.random.default_rng(2))
    tables.new_games(np.arange(400))
    dealt = tables.offer.sum(axis=(0, 1))
    assert dealt.sum() == 400 * FACTORIES[4] * TILES_PER_FACTORY
    assert (abs(dealt / dealt.sum() - 0.2) < 0.02).all()
    assert (tables.bag.sum(axis=1) == 100 - FACTORIES[4] * TILES_PER_FACTORY).all()


def test_a_short_bag_deals_its_last_tiles_then_the_lids_and_a_short_offer() -> None:
    """Bags with fewer tiles than the factories take: the bag's tiles first, then the lid poured in; with too few
    in both, what there is. The Python engine, dealing the same colours, ends in the same state."""
    holdings = [([1, 0, 2, 3, 1], [5, 6, 7, 8, 4]), ([1, 0, 0, 2, 0], [0, 3, 0, 0, 1]), ([0] * 5, [5, 5, 5, 5, 5])]
    tables = Tables(len(holdings), 2, np.random.default_rng(8))
    tables.log = []
    idx = np.arange(len(holdings))
    rows = tables.table[idx]
    for row, (bag, lid) in zip(rows, holdings):
        row[tables.bag_at:tables.lid_at], row[tables.lid_at:tables.scalars_at] = bag, lid
    tables._deal(idx, rows)
    tables.table[idx] = rows
    for (table, kind, colours), (bag, lid) in zip(tables.log, holdings):
        assert kind == "deal" and len(colours) == min(sum(bag) + sum(lid), FACTORIES[2] * TILES_PER_FACTORY)
        assert sorted(colours[:sum(bag)]) == sorted(colour for colour in range(5) for _ in range(bag[colour]))
        played = Table(2)
        played.bag, played.lid = list(bag), list(lid)
        for colour in colours:
            ENGINE.deal(played, colour)
        assert not ENGINE.dealing(played)
        ours, theirs = tables.export(table), ENGINE.export(played)
        assert [ours[key] for key in ("factories", "bag", "lid", "round")] == [
            theirs[key] for key in ("factories", "bag", "lid", "round")]


def test_a_round_ending_with_no_tile_left_to_deal_ends_the_game_as_the_python_engine_does() -> None:
    """Bag and lid empty when a round ends (rare in random games): the game ends with its bonuses, no row full.
    The same position on a Python `Table`, tiled by the engine, ends the same way."""
    walls = [[[1, 1, 1, 0, 0], [1, 1, 1, 1, 0], [1, 1, 0, 0, 0], [1, 1, 1, 0, 0], [1, 1, 1, 0, 0]],
             [[0, 1, 1, 0, 0], [1, 1, 0, 0, 1], [1, 0, 1, 1, 0], [1, 1, 0, 1, 1], [0, 0, 0, 0, 0]]]
    # full lines of one tile only and a floor with the marker only: nothing goes to the lid
    lines = [[(4, 1), (3, 1), (-1, 0), (-1, 0), (-1, 0)], [(0, 1), (-1, 0), (2, 1), (-1, 0), (-1, 0)]]
    floors = [[], [5]]
    played = Table(2)
    played.walls = [[list(row) for row in wall] for wall in walls]
    played.line_colours = [[colour for colour, _ in seat] for seat in lines]
    played.line_counts = [[count for _, count in seat] for seat in lines]
    played.floors, played.scores, played.marker = [list(floor) for floor in floors], [30, 4], 1
    played.bag, played.lid, played.round, played.moves = [0] * 5, [0] * 5, 6, 80
    assert not ENGINE.tile_walls(played) and played.over
    tables = Tables(1, 2, np.random.default_rng(3))
    tables.new_games(np.arange(1))
    tables.offer[0], tables.bag[0], tables.lid[0] = 0, 0, 0
    tables.marker[0], tables.round[0], tables.moves[0], tables.turn[0] = 1, 6, 80, -2
    for seat in range(2):
        tables.rows[0, seat] = [sum(bit << column for column, bit in enumerate(row)) for row in walls[seat]]
        tables.line_colour[0, seat] = [colour for colour, _ in lines[seat]]
        tables.line_count[0, seat] = [count for _, count in lines[seat]]
        tables.floor[0, seat] = [floors[seat].count(colour) for colour in range(5)]
        tables.floor_len[0, seat], tables.has_marker[0, seat] = len(floors[seat]), 5 in floors[seat]
    tables.scores[0] = [30, 4]
    tables.end_round(np.arange(1))
    assert canonical(tables.export(0)) == canonical(ENGINE.export(played))
    assert tables.over[0] and tables.turn[0] == -1 and not (tables.rows == 31).any()  # no row full: no tile left


def load_table(tables: Tables, index: int, state: dict) -> None:
    """Table `index` of `tables` set to the coloured-wall canonical `state`, its bag's tiles in a random order."""
    tables.offer[index, 0], tables.offer[index, 1:] = state["centre"], state["factories"]
    for name in ("round", "moves", "turn", "starter", "marker", "over"):
        getattr(tables, name)[index] = state[name]
    for seat, board in enumerate(state["boards"]):
        tables.rows[index, seat] = [sum(bit << column for column, bit in enumerate(row)) for row in board["wall"]]
        tables.line_colour[index, seat] = [colour for colour, _ in board["lines"]]
        tables.line_count[index, seat] = [count for _, count in board["lines"]]
        floor = board["floor"]
        tables.floor[index, seat] = [floor.count(colour) for colour in range(5)]
        tables.floor_len[index, seat], tables.has_marker[index, seat] = len(floor), MARKER in floor
        tables.scores[index, seat] = board["score"]
    idx = np.array([index])
    rows = tables.table[idx]
    rows[:, tables.bag_at:tables.lid_at] = state["bag"]  # shuffled into the bag's order; the lid kept apart
    rows[:, tables.lid_at:tables.scalars_at] = 0
    tables._shuffle(idx, rows)
    rows[:, tables.lid_at:tables.scalars_at] = state["lid"]
    tables.table[idx] = rows


@pytest.mark.parametrize(("destination", "ends"), [(2, True), (0, False)])
def test_a_round_after_which_no_row_can_be_completed_ends_the_game_as_on_the_python_engine(destination: int,
                                                                                           ends: bool) -> None:
    """The learning seat takes the last tile of the round, a black, from the centre. To its empty line 2
    (destination 2): then all 20 blacks lie on pattern lines that each lack one more and no wall holds a black,
    so no row of either wall can ever be completed (every row 0 lacks black, the other rows' lines can never
    fill): the game ends after the tiling, with no row full and tiles left to deal. To the floor: the black goes
    to the lid, a row 0 may still take it, the next round is dealt and the other seat opens it. The Python
    engine replays the step from the same position; state, observation, mask, reward and end agree."""
    black = 3
    state = ENGINE.export(Table(2))
    state.update(round=3, moves=40, turn=0, starter=0, marker=1, centre=[0, 0, 0, 1, 0], bag=[20, 20, 20, 0, 20])
    for seat, score in enumerate((12, 9)):
        state["boards"][seat].update(score=score, lines=[[-1, 0]] + [[black, row] for row in range(1, 5)])
    state["boards"][0]["lines"][1] = [-1, 0]
    state["boards"][1]["floor"] = [MARKER]
    env = AzulBatchedEnv(1, 2, seat=0, win_reward=2.0)
    env.reset(seed=destination)
    load_table(env.tables, 0, state)
    env.tables.log = []
    replay = Replay(2)
    replay.tables[0], replay.dealing[0] = ENGINE.load(state), False
    action = ACTION_NUMBERS[2][(CENTRE, black, destination)]
    assert env._observe()["action_mask"][0, action]
    observations, rewards, terminations, truncations, _ = env.step(np.array([action]))
    replay.follow(env.tables.log)
    played = replay.tables[0]
    assert played.over is ends and not (env.tables.rows == 31).any()  # the Python engine's verdict; no row full
    assert canonical(env.tables.export(0)) == canonical(ENGINE.export(played))
    assert observations["observation"][0].tolist() == observation_values(played, 0)
    assert observations["action_mask"][0].tolist() == moves_mask(ENGINE.legal_moves(played), 2).tolist()
    assert terminations[0] == ends and not truncations[0]
    assert rewards[0] == played.scores[0] - 12 + (2.0 if ends else 0.0)  # seat 0 wins, 12 to 8
    assert (env.tables.bag[0] + env.tables.lid[0]).any()  # ended by the rule, not for want of tiles


def random_position(rng: np.random.Generator, players: int) -> tuple[np.ndarray, ...]:
    """A position after a round's tiling, the coloured wall (walls as row masks, line colours and counts, the
    bag's and lid's tiles by colour: every tile of a colour not on a wall or a line), one colour made scarce:
    most lines hold it, most of them one tile short, so some positions can no longer end."""
    scarce, density, on_wall, lined = rng.integers(5), rng.random(), rng.random() / 2, 0.5 + rng.random() / 2
    cells = rng.random((players, 5, 5)) < density  # [seat, row, column]
    for row in range(5):
        cells[:, row, wall_column(row, scarce)] = rng.random(players) < on_wall
    colours, counts = np.full((players, 5), -1), np.zeros((players, 5), dtype=np.int64)
    for seat in range(players):
        for row in range(1, 5):
            missing = [colour for colour in range(5) if not cells[seat, row, wall_column(row, colour)]]
            if missing and rng.random() < lined:
                colours[seat, row] = scarce if scarce in missing and rng.random() < 0.8 else rng.choice(missing)
                counts[seat, row] = row if rng.random() < 0.6 else rng.integers(1, row + 1)
    held = np.array([[[wall_colour(row, column) if cells[seat, row, column] else -1 for column in range(5)]
                      for row in range(5)] for seat in range(players)])
    free = np.array([TILES_PER_COLOUR - (held == colour).sum() - counts[colours == colour].sum()
                     for colour in range(5)])
    for seat, row in zip(*np.nonzero(counts)):  # a colour past its 20 tiles: its lines shortened until it fits
        colour = colours[seat, row]
        cut = min(max(-free[colour], 0), counts[seat, row])
        free[colour] += cut
        counts[seat, row] -= cut
        if not counts[seat, row]:
            colours[seat, row] = -1
    walls = (cells << np.arange(5)).sum(axis=-1)
    return walls, colours, counts, free, held


def judged(positions: list[tuple[np.ndarray, ...]]) -> tuple[list[bool], list[bool]]:
    """The batched decision on `positions` at once, and `model.can_end` on each (its walls as colours by cell)."""
    walls, colours, counts, free = (np.stack(part) for part in list(zip(*positions))[:4])
    expected = [can_end(held.tolist(), np.stack([line_colours, line_counts], axis=-1).tolist(), supply.tolist(), None)
                for _, line_colours, line_counts, supply, held in positions]
    return Tables.may_end(walls, colours, counts, free).tolist(), expected


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32))
def test_the_batched_end_test_decides_as_can_end(players: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    decided, expected = judged([random_position(rng, players) for _ in range(50)])
    assert decided == expected


def test_the_random_positions_reach_both_verdicts_and_both_paths() -> None:
    """The positions of the property test are not all cleared by the array test (every colour in the bag or the
    lid): some go to `can_end`, and it finds some able to end and some not."""
    rng = np.random.default_rng(1)
    cleared, left = 0, []
    for players in (2, 3, 4):
        positions = [random_position(rng, players) for _ in range(300)]
        decided, expected = judged(positions)
        assert decided == expected
        for verdict, (*_, free, _) in zip(expected, positions):
            cleared += bool((free > 0).all())
            left += [] if (free > 0).all() else [verdict]
    assert cleared > 100 and left.count(True) > 10 and left.count(False) > 10


def test_spaces_shapes_and_observations_inside_them() -> None:
    env = AzulBatchedEnv(5, players=3)
    single = AzulGymEnv(3)
    assert env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert env.single_observation_space == single.observation_space
    assert env.single_action_space == single.action_space
    assert env.observation_space == batch_space(single.observation_space, 5)
    assert env.action_space == MultiDiscrete([action_count(3)] * 5)
    observations, _ = env.reset(seed=4)
    picker = np.random.default_rng(4)
    for _ in range(100):
        check_obs(observations, env.observation_space, "step")
        assert observations in env.observation_space
        observations, rewards, terminations, truncations, info = env.step(
            random_actions(observations["action_mask"], picker))
        assert rewards.shape == terminations.shape == truncations.shape == (5,)
        assert rewards.dtype == np.float64 and terminations.dtype == truncations.dtype == np.bool_
        assert info["scores"].shape == (5, 3) and info["_scores"].all()
    assert observations["observation"].dtype == np.int16 and observations["action_mask"].dtype == np.int8
    env.close()
    assert env.closed


def run(env: AzulBatchedEnv, seed: int | None, steps: int) -> list[Any]:
    """Reset (with `seed`), then `steps` steps of random legal actions: every result."""
    observations, _ = env.reset(seed=seed)
    picker = np.random.default_rng(0)
    record: list[Any] = [observations]
    for _ in range(steps):
        result = env.step(random_actions(observations["action_mask"], picker))
        record.append(result)
        observations = result[0]
    return record


def test_a_seed_gives_the_same_games_and_returned_data_is_not_reused() -> None:
    first = run(AzulBatchedEnv(4), 7, 60)
    again = AzulBatchedEnv(4)
    assert data_equivalence(run(again, 7, 60), first)
    assert data_equivalence(run(again, 7, 60), first)  # a seeded reset starts over
    assert not data_equivalence(run(again, 8, 60), first)
    assert not data_equivalence(run(again, None, 60), first)  # no seed: the generator goes on
    env = AzulBatchedEnv(3)
    observations, _ = env.reset(seed=1)
    kept = observations["observation"].copy()
    following, *_ = env.step(random_actions(observations["action_mask"], np.random.default_rng(1)))
    assert not np.shares_memory(following["observation"], observations["observation"])
    assert not np.shares_memory(following["action_mask"], observations["action_mask"])
    assert observations["observation"].tolist() == kept.tolist()


def test_next_step_autoreset_ignores_the_action_and_reset_mask_resets_only_those_chosen() -> None:
    env = AzulBatchedEnv(2, max_moves=6)
    observations, _ = env.reset(seed=3)
    picker = np.random.default_rng(0)
    for _ in range(20):
        observations, rewards, terminations, truncations, _ = env.step(
            random_actions(observations["action_mask"], picker))
        if truncations[0]:
            break
    assert truncations[0] and not terminations[0]
    observations, rewards, terminations, truncations, _ = env.step(np.array([500, 0]))  # 500: never legal
    assert rewards[0] == 0.0 and not terminations[0] and not truncations[0]
    assert observations["action_mask"][0].any() and env.tables.moves[0] <= 1
    kept = observations["observation"].copy()
    again, _ = env.reset(options={"reset_mask": np.array([False, True])})
    assert again["observation"][0].tolist() == kept[0].tolist()
    assert env.tables.moves[1] <= 1


def test_an_illegal_action_ends_that_tables_game_or_raises() -> None:
    env = AzulBatchedEnv(3, win_reward=2.0)
    observations, _ = env.reset(seed=1)
    actions = random_actions(observations["action_mask"], np.random.default_rng(0))
    actions[1] = int(np.flatnonzero(observations["action_mask"][1] == 0)[0])
    _, rewards, terminations, _, info = env.step(actions)
    assert rewards[1] == -2.0 and terminations.tolist() == [False, True, False]
    assert info["illegal"].tolist() == [False, True, False]
    strict = AzulBatchedEnv(2, illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(InputError, match="table 0: action 500 is not legal"):
        strict.step(np.array([500, 0]))


def test_render_and_bad_settings() -> None:
    texts = AzulBatchedEnv(2, render_mode="ansi").render()
    assert texts is not None and len(texts) == 2 and all("factories:" in text for text in texts)
    for given_settings, message in (({"num_envs": 0}, "num_envs 0"), ({"players": 5}, "2 to 4 players"),
                                    ({"seat": 2}, "seat 2"), ({"illegal": "ignore"}, "illegal="),
                                    ({"variant": GREY}, "coloured wall only"),
                                    ({"opponent": "greedy"}, "opponent 'greedy': the batched rules play"),
                                    ({"render_mode": "rgb"}, "render_mode")):
        with pytest.raises(InputError, match=message):
            AzulBatchedEnv(**given_settings)
    with pytest.raises(InputError, match="one generator"):
        AzulBatchedEnv(2).reset(seed=[1, 2])  # type: ignore[arg-type]
    with pytest.raises(InputError, match="reset_mask"):
        AzulBatchedEnv(2).reset(options={"reset_mask": [True, False]})
