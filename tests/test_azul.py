"""Azul: known scores, edge cases of the spec, and the engines cross-checked move by move."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pysolve import bridge
from pysolve import minikanren as mk
from pysolve.azul import kanren as kr
from pysolve.azul.crosscheck import lockstep, lockstep_game
from pysolve.azul.game import AzulGame, engine, play_game
from pysolve.azul.model import RandomStream, check_state, tile_count, winners_of
from pysolve.azul.prolog import state_to_prolog
from pysolve.pytest_plugin import needs_prolog
from pysolve.azul.python import PythonEngine, Table, end_bonus, floor_penalty, tile_score
from pysolve.azul.strategies import greedy, move_gain
from pysolve.cli import main
from pysolve.crosscheck import crosscheck
from pysolve.errors import InputError
from pysolve.puzzles import get

ENGINES = ("python", "prolog", "kanren")


def wall_of(*cells: tuple[int, int]) -> list[list[int]]:
    """A wall with the given (row, column) cells filled."""
    wall = [[0] * 5 for _ in range(5)]
    for row, column in cells:
        wall[row][column] = 1
    return wall


def prolog_value(goal: str, name: str) -> object:
    """One binding of a goal in the azul rule base."""
    return bridge.first("azul", goal)[name]


def kanren_value(goal_for, *args: object) -> object:
    """The single answer of a kanren relation whose last argument is the output."""
    out = mk.var()
    (answer,) = mk.run(goal_for(*args, out), out)
    return answer


def tile_scores(wall: list[list[int]], row: int, column: int) -> set[int]:
    """The tile score by all three engines (as a set: one element when they agree)."""
    frozen = tuple(tuple(cells) for cells in wall)
    return {tile_score(wall, row, column),
            prolog_value(f"tile_score({wall}, {row}, {column}, P)", "P"),
            kanren_value(kr.tile_scoreo, frozen, row, column)}


# -- known scores ---------------------------------------------------------------------------------
@pytest.mark.parametrize("cells, placed, expected", [
    ([(2, 2)], (2, 2), 1),                                          # isolated
    ([(2, 2), (2, 3)], (2, 3), 2),                                  # one neighbour
    ([(2, 2), (2, 3), (3, 3)], (2, 3), 4),                          # one each way
    ([(1, 0), (1, 1), (1, 2), (1, 3), (0, 1), (2, 1)], (1, 1), 7),  # h = 4, v = 3
    ([(0, 0), (0, 2)], (0, 2), 1),                                  # a gap is no neighbour
])
def test_tile_score_known_values_on_every_engine(cells, placed, expected):
    assert tile_scores(wall_of(*cells), *placed) == {expected}


@pytest.mark.parametrize("items, expected", list(enumerate([0, 1, 2, 4, 6, 8, 11, 14])) + [(9, 14)])
def test_floor_totals_on_every_engine(items, expected):
    capped = min(items, 7)
    assert floor_penalty(items) == expected
    assert prolog_value(f"floor_points({items}, P)", "P") == expected
    assert kanren_value(kr.floor_penaltyo, capped) == expected


def test_floor_penalty_relation_runs_backwards():
    items = mk.var()
    assert mk.run(kr.floor_penaltyo(items, 11), items) == [6]


FULL_ROW = [(0, column) for column in range(5)]
FULL_COLUMN = [(row, 0) for row in range(5)]
BLUE = [(row, row) for row in range(5)]


@pytest.mark.parametrize("cells, expected", [
    (FULL_ROW, 2), (FULL_COLUMN, 7), (BLUE, 10), (FULL_ROW + FULL_COLUMN, 9), ([], 0),
    ([(r, c) for r in range(5) for c in range(5)], 5 * 2 + 5 * 7 + 5 * 10),
])
def test_end_bonuses_on_every_engine(cells, expected):
    wall = wall_of(*cells)
    frozen = tuple(tuple(row) for row in wall)
    assert end_bonus(wall) == expected
    assert prolog_value(f"end_bonus({wall}, B)", "B") == expected
    assert kanren_value(kr.end_bonuso, frozen) == expected


@pytest.mark.parametrize("scores, rows, expected", [
    ([10, 12], [3, 0], [1]),          # highest score
    ([10, 10], [1, 2], [1]),          # tie-break by complete rows
    ([10, 10], [1, 1], [0, 1]),       # shared win
    ([10, 10, 5], [0, 0, 3], [0, 1]),  # only the tied players' rows count
])
def test_winners_with_tie_break(scores, rows, expected):
    assert winners_of(scores, rows) == expected
    assert prolog_value(f"winners_of({scores}, {rows}, S)", "S") == expected


# -- edge cases on constructed states -------------------------------------------------------------
def base_state(players: int = 2) -> dict:
    """A round in progress with every tile in the bag except those the test moves."""
    state = PythonEngine().export(Table(players))
    state.update(round=1, turn=0, starter=0)
    return state


def move_tiles(state: dict, colour: int, count: int, where: list[int]) -> None:
    """Move `count` tiles of `colour` from the bag to a count list of the state."""
    state["bag"][colour] -= count
    where[colour] += count


def play_on(name: str, state: dict, moves: list[tuple[int, int, int]], seed: int = 0) -> dict:
    """Load `state` into an engine, play the moves, return the state after them."""
    chosen = engine(name)
    handle = chosen.load(copy.deepcopy(state))
    stream = RandomStream(seed)
    for move in moves:
        assert move in chosen.legal_moves(handle)
        chosen.play(handle, move, stream)
    after = chosen.export(handle)
    chosen.close(handle)
    return after


def after_on_every_engine(state: dict, moves: list[tuple[int, int, int]]) -> dict:
    """The state after `moves`, asserting that all engines reach it."""
    results = [play_on(name, state, moves) for name in ENGINES]
    assert results[0] == results[1] == results[2]
    assert tile_count(results[0]) == 100
    return results[0]


def test_score_is_clamped_at_zero():
    state = base_state()
    state["boards"][0]["score"] = 1
    move_tiles(state, 0, 3, state["centre"])
    after = after_on_every_engine(state, [(-1, 0, 0)])  # marker + 3 tiles on the floor: -6
    assert after["boards"][0]["score"] == 0
    assert after["round"] == 2 and after["starter"] == 0 and after["marker"] == -1


def test_nobody_takes_from_the_centre_so_the_starter_starts_again():
    state = base_state()
    state["starter"] = state["turn"] = 1
    for index in range(2):
        move_tiles(state, index, 4, state["factories"][index])
    after = after_on_every_engine(state, [(0, 0, 4), (1, 1, 4)])
    assert after["starter"] == 1 and after["turn"] == 1 and after["marker"] == -1
    assert after["boards"][1]["wall"][3][3] == 1 and after["boards"][1]["score"] == 1


def test_marker_taken_with_a_full_floor_still_passes_the_start():
    state = base_state()
    move_tiles(state, 2, 7, state["lid"])
    state["lid"][2] -= 7
    state["boards"][1]["floor"] = [2] * 7
    move_tiles(state, 1, 2, state["centre"])
    move_tiles(state, 3, 1, state["factories"][0])
    state["turn"] = 1
    after = after_on_every_engine(state, [(-1, 1, 0), (0, 3, 1)])
    assert after["starter"] == 1 and after["turn"] == 1       # its taker starts the next round
    assert after["boards"][1]["score"] == 0                   # penalty capped at 14, clamped
    assert after["lid"][1] == 2 and after["lid"][2] == 7      # past the floor, then the floor, to the lid


def test_a_full_pattern_line_is_never_a_destination():
    state = base_state()
    move_tiles(state, 0, 2, [0] * 5)
    state["boards"][0]["lines"][1] = [0, 2]
    move_tiles(state, 0, 2, state["centre"])
    for name in ENGINES:
        chosen = engine(name)
        handle = chosen.load(copy.deepcopy(state))
        moves = chosen.legal_moves(handle)
        chosen.close(handle)
        assert (-1, 0, 2) not in moves and (-1, 0, 0) in moves
        assert len(moves) == len(set(moves))


def test_bag_then_lid_then_dry_deals_partial_factories():
    table = Table(2)
    table.bag, table.lid = [1, 0, 0, 0, 2], [0, 3, 0, 0, 0]
    state = PythonEngine().export(table)
    dealt = PythonEngine()._next_round(table, RandomStream(5))
    assert dealt == 6 and table.bag == [0] * 5 and table.lid == [0] * 5
    assert [sum(factory) for factory in table.factories] == [4, 2, 0, 0, 0]
    assert table.factories[0][0] == 1 and table.factories[0][4] == 2  # the bag's 3 tiles came first
    goal = (f"import_state(9001, {state_to_prolog(state)}), "
            f"start_round(9001, {RandomStream(5).peek(20)}, _), export_state(9001, S), drop_game(9001)")
    exported = prolog_value(goal, "S")
    assert exported[6] == table.factories and exported[8] == [0] * 5 and exported[9] == [0] * 5


def test_no_tile_to_deal_ends_the_game_with_bonuses():
    table = Table(2)
    table.bag = [0] * 5
    table.walls[0] = wall_of(*[(row, 0) for row in range(5)])
    PythonEngine()._end_round(table, RandomStream(1))
    assert table.over and table.scores[0] == 7 and table.turn == -1


# -- the engines cross-checked --------------------------------------------------------------------
@pytest.mark.parametrize("players, games", [(2, 120), (3, 60), (4, 40)])
def test_prolog_and_python_agree_move_by_move(players, games):
    report = lockstep(players, games, seed=1000 * players, engines=("python", "prolog"))
    assert report.agree, report.difference
    assert report.games == games and report.moves > 40 * games


@pytest.mark.parametrize("players", [2, 3, 4])
def test_kanren_agrees_move_by_move(players):
    report = lockstep_game(players, 7 + players, ("python", "prolog", "kanren"))
    assert report.agree, report.difference


def test_mixed_strategies_agree_across_engines():
    report = lockstep(2, 3, 50, ("python", "prolog"), ("greedy", "random", "lookahead"))
    assert report.agree, report.difference


@settings(max_examples=15, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**40))
def test_random_seeds_whole_games_agree(players, seed):
    python = play_game(players, seed, "python")
    prolog = play_game(players, seed, "prolog")  # run whole inside Prolog
    assert python.state == prolog.state and python.winners == prolog.winners
    assert tile_count(prolog.state) == 100


@needs_prolog
def test_puzzle_crosscheck_for_the_demo():
    puzzle = get("azul")
    report = crosscheck(puzzle, puzzle.demo_questions()[0])
    assert report.agree and set(report.results) == set(ENGINES)


# -- the simulation API ---------------------------------------------------------------------------
def test_same_seed_same_game_and_state_round_trips():
    first, second = play_game(3, 42, "python"), play_game(3, 42, "python")
    assert first.to_json() == second.to_json()
    game = AzulGame(2, 5, "python")
    for _ in range(7):
        game.play()
    state = game.state
    assert json.loads(json.dumps(state)) == state == check_state(state)
    for name in ("python", "prolog"):
        handle = engine(name).load(state)
        assert engine(name).export(handle) == state
        assert engine(name).legal_moves(handle) == game.legal_moves()


def test_illegal_move_and_strategy_errors():
    game = AzulGame(2, 1, "python")
    with pytest.raises(InputError, match="illegal move"):
        game.play((0, 0, 9))
    with pytest.raises(InputError):
        AzulGame(5, 1, "python")
    with pytest.raises(InputError, match="4 tiles, not 100|holds"):
        broken = game.state
        broken["bag"][0] += 1
        engine("python").load(broken)


def test_greedy_prefers_completing_a_line_over_the_floor():
    state = base_state()
    move_tiles(state, 2, 3, state["factories"][0])
    state["boards"][0]["floor"] = []
    moves = engine("python").legal_moves(engine("python").load(copy.deepcopy(state)))
    assert move_gain(state, (0, 2, 3)) == 1 and move_gain(state, (0, 2, 0)) == -4
    assert greedy(state, moves, RandomStream(0)) == (0, 2, 3)


def test_callable_strategy_and_tournament_rotation():
    def always_floor(state, moves, rng):
        return [move for move in moves if move[2] == 0][0]

    result = play_game(2, 3, "python", [always_floor, "greedy"])
    assert result.strategies == ["always_floor", "greedy"] and result.winners == [1]


# -- the CLI --------------------------------------------------------------------------------------
def test_cli_simulate_json(capsys):
    assert main(["azul", "simulate", "--players", "2", "--games", "4", "--seed", "3",
                 "--strategy", "random,greedy", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [game["seed"] for game in data["games"]] == [3, 4, 5, 6]
    assert {"scores", "winners", "rounds", "moves"} <= set(data["games"][0])
    assert data["games"][0]["strategies"] == ["random", "greedy"]
    assert data["games"][1]["strategies"] == ["greedy", "random"]
    assert {entry["strategy"] for entry in data["summary"]["strategies"]} == {"random", "greedy"}


@needs_prolog
def test_cli_engines_agree_and_workers_give_the_same_results(capsys):
    outputs = []
    for extra in (["--engine", "python"], ["--engine", "prolog"], ["--engine", "prolog", "--workers", "2"]):
        assert main(["azul", "simulate", "--players", "4", "--games", "3", "--seed", "8", "--json", *extra]) == 0
        games = json.loads(capsys.readouterr().out)["games"]
        outputs.append([{k: v for k, v in game.items() if k != "engine"} for game in games])
    assert outputs[0] == outputs[1] == outputs[2]


@needs_prolog
def test_cli_crosscheck_and_replay(capsys, tmp_path):
    assert main(["azul", "crosscheck", "--players", "2", "--games", "2", "--seed", "4"]) == 0
    assert "all engines agree" in capsys.readouterr().out
    log = tmp_path / "game.jsonl"
    assert main(["azul", "simulate", "--games", "1", "--seed", "4", "--log", str(log)]) == 0
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert records[0]["type"] == "start" and records[-1]["type"] == "end"
    assert all(tile_count(record["state"]) == 100 for record in records if "state" in record)
    capsys.readouterr()
    assert main(["azul", "replay", str(log)]) == 0
    text = capsys.readouterr().out
    assert "round 1" in text and "factories: F1[" in text and "| b y r k w" in text and "final scores" in text


@pytest.mark.parametrize("argv, message", [
    (["azul", "simulate", "--players", "5"], "2 to 4 players"),
    (["azul", "simulate", "--engine", "lisp"], "unknown name 'lisp'"),
    (["azul", "simulate", "--strategy", "clever"], "unknown strategy 'clever'"),
    (["azul", "simulate", "--games", "0"], "at least 1"),
    (["azul", "crosscheck", "--engines", "python,cobol"], "unknown name 'cobol'"),
    (["azul", "replay", "/nonexistent/log.jsonl"], "cannot read log"),
])
def test_cli_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_cli_replay_of_a_malformed_log(capsys, tmp_path):
    log = tmp_path / "bad.jsonl"
    log.write_text('{"type": "start"}\nnot json\n')
    assert main(["azul", "replay", str(log)]) == 2
    assert f"{log}:2: not JSON" in capsys.readouterr().err


def test_rule_bases_load_cleanly():
    assert bridge.load("azul") == "azul" and bridge.load("azul_facts") == "azul_facts"
    assert bridge.first("azul_facts", "aggregate_all(count, step(_, _, _, _, _), N)")["N"] == 80


def test_cli_on_a_dask_local_cluster_gives_the_same_results(capsys):
    import distributed  # the optional extra `dask`, part of the test extras
    argv = ["azul", "simulate", "--players", "3", "--games", "4", "--seed", "21", "--strategy", "random,greedy",
            "--json"]
    assert main(argv) == 0
    alone = json.loads(capsys.readouterr().out)
    with distributed.LocalCluster(host="127.0.0.1", protocol="tcp", n_workers=1, threads_per_worker=1,
                                  processes=False, dashboard_address="127.0.0.1:0") as cluster:
        assert cluster.scheduler_address.startswith("tcp://127.0.0.1:")
        assert main([*argv, "--cluster", cluster.scheduler_address]) == 0
    assert json.loads(capsys.readouterr().out) == alone
    assert main(["azul", "simulate", "--cluster", "tcp://127.0.0.1:1"]) == 2
    assert "cannot reach the Dask cluster" in capsys.readouterr().err
