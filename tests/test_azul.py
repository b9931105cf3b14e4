"""Azul: known scores, edge cases of the spec, the back ends cross-checked move by move, and the State model."""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pysolve import backends, bridge
from pysolve import minikanren as mk
from pysolve.agreement import crosscheck
from pysolve.azul import kanren as kr
from pysolve.azul import packed
from pysolve.azul.crosscheck import lockstep, lockstep_game
from pysolve.azul.heuristics import tiling_value
from pysolve.azul.match import Match, engine, play_match
from pysolve.azul.model import (
    GREY,
    SEED,
    VARIANTS,
    Question,
    RandomStream,
    check_state,
    complete_rows,
    row_completable,
    tile_count,
    winners_of,
)
from pysolve.azul.prolog import conjunction, state_to_prolog
from pysolve.azul.python import PythonEngine, Table
from pysolve.azul.scoring import end_bonus, floor_penalty, grey_column, tile_score
from pysolve.azul.strategies import greedy, lookahead, move_gain, random_feasible, strategy
from pysolve.azul.tree import CHANCE, TERMINAL, Game, State
from pysolve.bridge import Var
from pysolve.cli import main
from pysolve.errors import InputError
from pysolve.puzzles import get
from pysolve.pytest_plugin import needs_prolog


def wall_of(*cells: tuple[int, int]) -> list[list[int]]:
    """A wall with the given (row, column) cells filled."""
    wall = [[0] * 5 for _ in range(5)]
    for row, column in cells:
        wall[row][column] = 1
    return wall


def prolog_value(goal: bridge.Goal, name: str) -> object:
    """One binding of a goal in the azul rule base."""
    return bridge.first("azul", goal)[name]


def kanren_value(goal_for, *args: object) -> object:
    """The single answer of a kanren relation whose last argument is the output."""
    out = mk.var()
    (answer,) = mk.run(goal_for(*args, out), out)
    return answer


def frozen(wall: list[list[int]]) -> tuple:
    """A wall as the nested tuples the kanren relations take."""
    return tuple(tuple(cells) for cells in wall)


def tile_score_on(backend: str, wall: list[list[int]], row: int, column: int) -> int:
    """The tile score by one back end's rules."""
    if backend == "prolog":
        return prolog_value(bridge.goal("tile_score", wall, row, column, Var("P")), "P")
    if backend == "kanren":
        return kanren_value(kr.tile_scoreo, frozen(wall), row, column)
    return tile_score(wall, row, column)


# -- known scores ---------------------------------------------------------------------------------
@pytest.mark.parametrize("cells, placed, expected", [
    ([(2, 2)], (2, 2), 1),                                          # isolated
    ([(2, 2), (2, 3)], (2, 3), 2),                                  # one neighbour
    ([(2, 2), (2, 3), (3, 3)], (2, 3), 4),                          # one each way
    ([(1, 0), (1, 1), (1, 2), (1, 3), (0, 1), (2, 1)], (1, 1), 7),  # h = 4, v = 3
    ([(0, 0), (0, 2)], (0, 2), 1),                                  # a gap is no neighbour
])
def test_tile_score_known_values(pysolve_backend, cells, placed, expected):
    assert tile_score_on(pysolve_backend, wall_of(*cells), *placed) == expected


def floor_points_on(backend: str, items: int) -> int:
    """The floor penalty by one back end's rules (kanren's relation counts at most 7 items)."""
    if backend == "prolog":
        return prolog_value(bridge.goal("floor_points", items, Var("P")), "P")
    if backend == "kanren":
        return kanren_value(kr.floor_penaltyo, min(items, 7))
    return floor_penalty(items)


@pytest.mark.parametrize("items, expected", list(enumerate([0, 1, 2, 4, 6, 8, 11, 14])) + [(9, 14)])
def test_floor_totals(pysolve_backend, items, expected):
    assert floor_points_on(pysolve_backend, items) == expected


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
def test_end_bonuses(pysolve_backend, cells, expected):
    wall = wall_of(*cells)
    bonus = {"prolog": lambda: prolog_value(bridge.goal("end_bonus", wall, Var("B")), "B"),
             "kanren": lambda: kanren_value(kr.end_bonuso, frozen(wall)),
             "python": lambda: end_bonus(wall)}[pysolve_backend]
    assert bonus() == expected


@pytest.mark.parametrize("scores, rows, expected", [
    ([10, 12], [3, 0], [1]),          # highest score
    ([10, 10], [1, 2], [1]),          # tie-break by complete rows
    ([10, 10], [1, 1], [0, 1]),       # shared win
    ([10, 10, 5], [0, 0, 3], [0, 1]),  # only the tied players' rows count
])
@pytest.mark.pysolve_backends("prolog", "python")  # kanren's rules use the Python bookkeeping for winners
def test_winners_with_tie_break(pysolve_backend, scores, rows, expected):
    if pysolve_backend == "prolog":
        assert prolog_value(bridge.goal("winners_of", scores, rows, Var("S")), "S") == expected
    else:
        assert winners_of(scores, rows) == expected


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


def play_on(backend: str, state: dict, moves: list[tuple[int, int, int]], seed: int = 0) -> dict:
    """Load `state` into a back end's rules, play the moves, return the state after them."""
    chosen = engine(backend)
    handle = chosen.load(copy.deepcopy(state))
    stream = RandomStream(seed)
    for move in moves:
        assert move in chosen.legal_moves(handle)
        chosen.play(handle, move, stream)
    after = chosen.export(handle)
    chosen.close(handle)
    return after


def after_on(backend: str, state: dict, moves: list[tuple[int, int, int]]) -> dict:
    """The state after `moves` on `backend`, asserting that the Python reference rules reach it too."""
    after = play_on(backend, state, moves)
    assert after == play_on("python", state, moves)
    assert tile_count(after) == 100
    return after


def test_score_is_clamped_at_zero(pysolve_backend):
    state = base_state()
    state["boards"][0]["score"] = 1
    move_tiles(state, 0, 3, state["centre"])
    after = after_on(pysolve_backend, state, [(-1, 0, 0)])  # marker + 3 tiles on the floor: -6
    assert after["boards"][0]["score"] == 0
    assert after["round"] == 2 and after["starter"] == 0 and after["marker"] == -1


def test_nobody_takes_from_the_centre_so_the_starter_starts_again(pysolve_backend):
    state = base_state()
    state["starter"] = state["turn"] = 1
    for index in range(2):
        move_tiles(state, index, 4, state["factories"][index])
    after = after_on(pysolve_backend, state, [(0, 0, 4), (1, 1, 4)])
    assert after["starter"] == 1 and after["turn"] == 1 and after["marker"] == -1
    assert after["boards"][1]["wall"][3][3] == 1 and after["boards"][1]["score"] == 1


def test_marker_taken_with_a_full_floor_still_passes_the_start(pysolve_backend):
    state = base_state()
    move_tiles(state, 2, 7, state["lid"])
    state["lid"][2] -= 7
    state["boards"][1]["floor"] = [2] * 7
    move_tiles(state, 1, 2, state["centre"])
    move_tiles(state, 3, 1, state["factories"][0])
    state["turn"] = 1
    after = after_on(pysolve_backend, state, [(-1, 1, 0), (0, 3, 1)])
    assert after["starter"] == 1 and after["turn"] == 1       # its taker starts the next round
    assert after["boards"][1]["score"] == 0                   # penalty capped at 14, clamped
    assert after["lid"][1] == 2 and after["lid"][2] == 7      # past the floor, then the floor, to the lid


def test_a_full_pattern_line_is_never_a_destination(pysolve_backend):
    state = base_state()
    move_tiles(state, 0, 2, [0] * 5)
    state["boards"][0]["lines"][1] = [0, 2]
    move_tiles(state, 0, 2, state["centre"])
    chosen = engine(pysolve_backend)
    handle = chosen.load(copy.deepcopy(state))
    moves = chosen.legal_moves(handle)
    chosen.close(handle)
    assert (-1, 0, 2) not in moves and (-1, 0, 0) in moves
    assert len(moves) == len(set(moves))


def test_bag_then_lid_then_dry_deals_partial_factories():
    table = Table(2)
    table.bag, table.lid = [1, 0, 0, 0, 2], [0, 3, 0, 0, 0]
    dealt = PythonEngine()._next_round(table, RandomStream(5))
    assert dealt == 6 and table.bag == [0] * 5 and table.lid == [0] * 5
    assert [sum(factory) for factory in table.factories] == [4, 2, 0, 0, 0]
    assert table.factories[0][0] == 1 and table.factories[0][4] == 2  # the bag's 3 tiles came first


@needs_prolog
def test_prolog_deals_bag_then_lid_as_python_does():
    table = Table(2)
    table.bag, table.lid = [1, 0, 0, 0, 2], [0, 3, 0, 0, 0]
    state = PythonEngine().export(table)
    PythonEngine()._next_round(table, RandomStream(5))
    steps = [bridge.goal("import_state", 9001, state_to_prolog(state)), bridge.goal("game_state", 9001, Var("T0")),
             bridge.goal("start_round", Var("T0"), RandomStream(5).peek(20), Var("_"), Var("T")),
             bridge.goal("state_list", Var("T"), Var("S")), bridge.goal("drop_game", 9001)]
    exported = prolog_value(conjunction(*steps), "S")
    assert exported[6] == table.factories and exported[8] == [0] * 5 and exported[9] == [0] * 5


def test_no_tile_to_deal_ends_the_game_with_bonuses():
    table = Table(2)
    table.bag = [0] * 5
    table.walls[0] = wall_of(*[(row, 0) for row in range(5)])
    assert not PythonEngine().tile_walls(table)
    assert table.over and table.scores[0] == 7 and table.turn == -1


# -- the back ends cross-checked ------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.pysolve_backends("prolog")  # many games: kanren has its own, shorter runs below
@pytest.mark.parametrize("players, games", [(2, 120), (3, 60), (4, 40)])
def test_prolog_and_python_agree_move_by_move(pysolve_backend, players, games):
    report = lockstep(players, games, seed=1000 * players, backends=("python", pysolve_backend))
    assert report.agree, report.difference
    assert report.games == games and report.moves > 40 * games


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_back_end_agrees_move_by_move(pysolve_backends, players):
    report = lockstep_game(players, 7 + players, pysolve_backends)
    assert report.agree, report.difference
    assert report.games == 1 and report.moves > 40


@pytest.mark.pysolve_backends("prolog", "kanren")
def test_mixed_strategies_agree_across_back_ends(pysolve_backend):
    report = lockstep(2, 3, 50, ("python", pysolve_backend), ("greedy", "random", "lookahead"))
    assert report.agree, report.difference


@pytest.mark.slow
@settings(max_examples=15, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**40), variant=st.sampled_from(VARIANTS))
def test_random_seeds_whole_games_agree(pysolve_backends, players, seed, variant):
    report = crosscheck(get("azul"), Question(players, seed, variant))  # Prolog plays the whole game in one query
    assert report.agree and set(report.results) == set(pysolve_backends), report.difference
    answers = list(report.results.values())
    assert all(answer.stats["winners"] == answers[0].stats["winners"] for answer in answers)
    assert tile_count(answers[0].solutions[0]) == 100
    assert packed.random_game(players, seed, variant) == answers[0].solutions[0]  # the fast path too


def test_a_random_game_that_went_round_for_ever_now_ends(pysolve_backend):
    # all 20 black tiles on pattern lines after round 3, none to fill them and no black on any wall, so no row
    # of any wall can ever be completed: it used to go round for ever (stopped at 5000 moves), now it ends
    states = [play_match(4, 211845913443, pysolve_backend, variant=GREY, log=log).state for log in (True, False)]
    state = states[0]  # move by move, and whole (in one Prolog query; on packed boards in Python)
    assert state["over"] and state["round"] == 3 and states[1] == state == packed.random_game(4, 211845913443, GREY)
    assert not any(complete_rows(board["wall"]) for board in state["boards"])
    blacks = [count for board in state["boards"] for colour, count in board["lines"] if colour == 3]
    assert sum(blacks) == 20 and all(board["colours"] for board in state["boards"])


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_game_ends_once_no_row_can_be_completed(pysolve_backend, variant):
    # the last tile of a round, a black, goes to seat 0's line 2: then every black is on a pattern line that
    # lacks one more, no wall holds a black, so every row of both walls is closed and the game ends there
    state = (grey_state() if variant == GREY else base_state())
    state.update(round=3, marker=1, centre=[0, 0, 0, 1, 0], bag=[20, 20, 20, 0, 20])
    for seat in range(2):
        state["boards"][seat]["lines"] = [[-1, 0]] + [[3, line] for line in range(1, 5)]
    state["boards"][0]["lines"][1] = [-1, 0]
    state["boards"][1]["floor"] = [5]
    chosen = engine(pysolve_backend)
    for last, ends in (((-1, 3, 2), True), ((-1, 3, 0), False)):  # to the floor: a black is free, rows stay open
        handle = chosen.load(copy.deepcopy(state))
        try:
            chosen.play(handle, last, RandomStream(7))
            after = chosen.export(handle)
        finally:
            chosen.close(handle)
        assert after["over"] is ends and after["round"] == 3 + (not ends)
        if ends:
            assert after["turn"] == -1 and [board["score"] for board in after["boards"]] == [0, 0]


def test_puzzle_crosscheck_for_the_demo(pysolve_backends):
    puzzle = get("azul")
    report = crosscheck(puzzle, puzzle.demo_questions()[0])
    assert report.agree and set(report.results) == set(pysolve_backends)


# -- the grey-board variant -----------------------------------------------------------------------
def grey_state(players: int = 2) -> dict:
    """`base_state` on grey walls."""
    state = PythonEngine().export(Table(players, GREY))
    state.update(round=1, turn=0, starter=0)
    return state


def put_tile(state: dict, seat: int, row: int, column: int, colour: int) -> None:
    """A tile of `colour` from the bag onto a grey wall's cell."""
    board = state["boards"][seat]
    board["wall"][row][column], board["colours"][row][column] = 1, colour
    state["bag"][colour] -= 1


def fill_line(state: dict, seat: int, line: int, colour: int, count: int) -> None:
    """`count` tiles of `colour` from the bag onto pattern line `line` (1..5)."""
    state["boards"][seat]["lines"][line - 1] = [colour, count]
    state["bag"][colour] -= count


def tiling_on(backend: str, state: dict, moves: list[tuple[int, int, int]]) -> tuple[dict, list]:
    """The state after `moves` on `backend` and its legal moves, asserting that the Python rules agree."""
    chosen = engine(backend)
    handle = chosen.load(copy.deepcopy(state))
    try:
        for move in moves:
            assert move in chosen.legal_moves(handle)
            chosen.play(handle, move, RandomStream(0))
        after, legal = chosen.export(handle), chosen.legal_moves(handle)
    finally:
        chosen.close(handle)
    if backend != "python":
        assert (after, legal) == tiling_on("python", state, moves)
    assert tile_count(after) == 100 and check_state(after) is after
    return after, legal


def grey_round_end() -> dict:
    """A grey table where the round's last tile fills seat 0's line 1 (blue); seat 1 has blue on line 1 and red
    on line 2, with no cell left for red in wall row 2."""
    state = grey_state()
    put_tile(state, 0, 1, 2, 4)                # seat 0: white under column 2
    move_tiles(state, 0, 1, state["centre"])   # the last tile of the round: blue, to seat 0's line 1
    for row, column in ((2, 0), (3, 1), (4, 2)):
        put_tile(state, 1, row, column, 2)     # seat 1: red in columns 0, 1, 2 ...
    put_tile(state, 1, 1, 3, 1)
    put_tile(state, 1, 1, 4, 3)                # ... and row 1 full elsewhere: no cell for red in row 1
    put_tile(state, 1, 3, 0, 0)                # blue in column 0
    fill_line(state, 1, 1, 0, 1)               # full lines of seat 1: blue on line 1, red on line 2
    fill_line(state, 1, 2, 2, 2)
    state["boards"][1]["score"] = 10
    return state


def test_grey_tiling_is_each_owners_choice_top_line_first_seat_by_seat(pysolve_backend):
    state = grey_round_end()
    during, legal = tiling_on(pysolve_backend, state, [(-1, 0, 1)])
    assert during["phase"] == "tiling" and during["turn"] == 0 and during["round"] == 1
    assert legal == [(-2, 0, column) for column in range(5)]        # any cell of row 1: no blue on the wall yet
    assert during["boards"][0]["floor"] == [5] and during["boards"][0]["lines"][0] == [0, 1]  # nothing tiled yet
    during, legal = tiling_on(pysolve_backend, state, [(-1, 0, 1), (-2, 0, 4)])
    first = during["boards"][0]
    assert first["colours"][0] == [-1, -1, -1, -1, 0] and first["score"] == 0   # 1 point, -1 for the marker
    assert during["turn"] == 1 and legal == [(-2, 0, column) for column in (1, 2, 3, 4)]  # column 0 holds blue
    after, legal = tiling_on(pysolve_backend, state, [(-1, 0, 1), (-2, 0, 4), (-2, 0, 3)])
    second = after["boards"][1]
    assert second["colours"][0] == [-1, -1, -1, 0, -1]   # above yellow: 2 points
    assert second["colours"][1] == [-1, -1, -1, 1, 3] and second["lines"][1] == [-1, 0]  # red fell, no choice
    assert second["score"] == 10 + 2 - 2 and after["lid"][2] == 2     # two red on the floor, then to the lid
    assert "phase" not in after and after["round"] == 2 and legal and legal[0][0] != -2


def test_grey_tiling_phase_refuses_what_is_not_a_column_and_bad_phases(pysolve_backend):
    state = grey_round_end()
    during, legal = tiling_on(pysolve_backend, state, [(-1, 0, 1)])
    chosen = engine(pysolve_backend)
    handle = chosen.load(copy.deepcopy(during))
    try:
        assert chosen.legal_moves(handle) == legal and chosen.turn(handle) == 0
    finally:
        chosen.close(handle)
    for wrong in ({**during, "phase": "offer"}, {**during, "over": True, "turn": -1}):
        with pytest.raises(InputError, match="phase"):
            check_state(wrong)
    with pytest.raises(InputError):
        Match(2, 1, "python").play((-2, 0, 0))  # no tiling on the coloured wall


def test_a_grey_game_ends_when_no_row_of_any_wall_can_be_completed(pysolve_backend):
    result = play_match(2, 1610, pysolve_backend, variant=GREY)  # random columns close every row by round 8
    state = result.state
    assert state["over"] and state == packed.random_game(2, 1610, GREY)
    assert not any(complete_rows(board["wall"]) for board in state["boards"])

    def completable(board: dict, row: int) -> bool:
        if pysolve_backend == "prolog":
            goal = bridge.goal("row_completable", board["wall"], board["colours"], row)
            return bridge.first("azul", goal) is not None
        return engine(pysolve_backend).row_completable(board["wall"], board["colours"], row)

    assert not any(completable(board, row) for board in state["boards"] for row in range(5))
    fresh = grey_state()["boards"][0]
    half = copy.deepcopy(fresh)
    half["wall"][0][:3], half["colours"][0][:3] = [1, 1, 1], [0, 1, 2]
    half["wall"][1][3], half["colours"][1][3] = 1, 3   # black above: row 0 still takes black in column 4
    assert completable(fresh, 0) and completable(half, 0)
    half["wall"][2][4], half["colours"][2][4] = 1, 3   # and black under column 4 too: row 0 is closed
    assert not completable(half, 0) and row_completable(half["wall"], half["colours"], 1)


def test_grey_columns_by_each_back_end(pysolve_backend):
    state = grey_state()
    for row, column, colour in ((1, 2, 4), (3, 0, 0), (0, 4, 1)):
        put_tile(state, 0, row, column, colour)
    wall, colours = state["boards"][0]["wall"], state["boards"][0]["colours"]

    def columns_of(row: int, colour: int) -> list[int]:
        if pysolve_backend == "prolog":
            return bridge.first("azul", bridge.goal("grey_columns", wall, colours, row, colour, Var("C")))["C"]
        return engine(pysolve_backend).grey_columns(wall, colours, row, colour)

    assert columns_of(0, 0) == [1, 2, 3]         # column 0 holds blue, column 4 is taken in this row
    assert columns_of(2, 4) == [0, 1, 3, 4]      # white is in column 2
    assert columns_of(3, 1) == [1, 2, 3]         # column 4 holds yellow, column 0 is taken
    assert grey_column(wall, colours, 0, 0) == 2  # the policy: below the white tile, 2 points


GREY_BLUES = [(0, 1), (1, 0), (2, 3), (3, 2), (4, 4)]


@pytest.mark.parametrize("cells, colour_of, expected", [
    (GREY_BLUES, lambda row, column: 0, 10),                           # five blues anywhere: a colour
    ([(row, 0) for row in range(5)], lambda row, column: row, 7 + 0),  # a column of five colours
    ([(0, column) for column in range(5)], lambda row, column: column, 2),
])
def test_grey_end_bonuses(pysolve_backend, cells, colour_of, expected):
    wall = wall_of(*cells)
    colours = [[colour_of(row, column) if wall[row][column] else -1 for column in range(5)] for row in range(5)]
    if pysolve_backend == "prolog":
        bonus = prolog_value(bridge.goal("end_bonus", wall, colours, Var("B")), "B")
    elif pysolve_backend == "kanren":
        out = mk.var()
        (bonus,) = mk.run(kr.end_bonuso(frozen(wall), out, frozen(colours)), out)
    else:
        bonus = end_bonus(wall, colours)
    assert bonus == expected
    assert end_bonus(wall_of(*GREY_BLUES)) == 0  # the same tiles on the coloured wall: no colour


def test_a_grey_state_is_checked():
    state = grey_state()
    put_tile(state, 0, 0, 0, 3)
    put_tile(state, 0, 2, 0, 3)  # black twice in column 0
    with pytest.raises(InputError, match="twice in one row or column"):
        check_state(state)
    state = grey_state()
    put_tile(state, 0, 0, 0, 3)
    fill_line(state, 0, 1, 3, 1)  # black on line 1 while wall row 0 holds black
    with pytest.raises(InputError, match="lines\\[0\\]"):
        check_state(state)
    state = grey_state()
    del state["boards"][1]["colours"]
    with pytest.raises(InputError, match="boards\\[1\\]: expected keys score, wall, lines, floor, colours"):
        check_state(state)


@pytest.mark.slow
@pytest.mark.pysolve_backends("prolog")
@pytest.mark.parametrize("players, games", [(2, 30), (3, 15), (4, 10)])
def test_grey_prolog_and_python_agree_move_by_move(pysolve_backend, players, games):
    report = lockstep(players, games, seed=2000 * players, backends=("python", pysolve_backend), variant=GREY)
    assert report.agree, report.difference
    assert report.games == games and report.moves > 40 * games and report.columns > 5 * games


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_grey_every_back_end_agrees_move_by_move(pysolve_backends, players):
    report = lockstep_game(players, 30 + players, pysolve_backends, variant=GREY)
    assert report.agree, report.difference
    strategies = ("greedy", "random", "lookahead", "greedy+policy")
    report = lockstep_game(players, 40 + players, pysolve_backends, strategies[:players], variant=GREY)
    assert report.agree and report.columns, report.difference


@pytest.mark.slow
@settings(max_examples=10, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**40))
def test_grey_random_seeds_agree_column_by_column(pysolve_backends, players, seed):
    report = lockstep_game(players, seed, pysolve_backends, variant=GREY)
    assert report.agree, report.difference
    logged = play_match(players, seed, pysolve_backends[-1], ["random"], log=True, variant=GREY)
    assert packed.random_game(players, seed, GREY) == logged.state  # the fast path chooses the same columns


def test_every_strategy_chooses_a_column_and_the_searches_search_them():
    state = grey_state()
    put_tile(state, 0, 0, 0, 1)
    put_tile(state, 0, 0, 1, 2)                # seat 0's row 1: yellow, red, then three free cells
    move_tiles(state, 0, 1, state["centre"])   # the last tile: blue to line 1
    during, legal = tiling_on("python", state, [(-1, 0, 1)])
    assert legal == [(-2, 0, 2), (-2, 0, 3), (-2, 0, 4)]
    root = State.from_json(copy.deepcopy(during))
    assert root.is_tiling and root.current_player == 0 and root.legal_moves() == legal
    assert [move_gain(during, move) for move in legal] == [3, 1, 1]  # beside the two: a row of three
    for name in ("greedy", "lookahead", "mcts:60", "minimax:2", "random+policy", "mcts:30+policy"):
        stream = RandomStream(1)
        assert strategy(name)(during, list(legal), stream) == (-2, 0, 2), name
    stream = RandomStream(1)
    assert strategy("random+policy")(during, list(legal), stream) == (-2, 0, 2) and stream.used == 0  # no number
    picked = {random_feasible(during, list(legal), RandomStream(seed)) for seed in range(40)}
    assert picked == set(legal)  # random: any of them
    child = root.child((-2, 0, 2))
    assert not child.is_tiling and child.table.walls[0][0][:3] == [1, 1, 1] and root.is_tiling


def test_the_strategies_choose_a_column_that_keeps_a_waiting_line_placeable():
    state = grey_state()
    for row, column, colour in ((0, 1, 1), (0, 2, 2), (0, 3, 3), (1, 4, 1), (2, 0, 1), (2, 1, 2), (2, 2, 3), (2, 3, 4)):
        put_tile(state, 0, row, column, colour)
    fill_line(state, 0, 3, 0, 1)               # a blue waiting on line 3, whose row has one cell left: column 4
    move_tiles(state, 0, 1, state["centre"])   # the last tile: blue to line 1
    during, legal = tiling_on("python", state, [(-1, 0, 1)])
    assert legal == [(-2, 0, 0), (-2, 0, 4)]
    assert [move_gain(during, move) for move in legal] == [4, 6]  # column 4 scores more now, but takes blue ...
    keep, take = legal                                              # ... from the only cell line 3 could fill
    for name in ("greedy", "lookahead", "mcts:60", "minimax:2"):
        assert strategy(name)(during, list(legal), RandomStream(1)) == keep, name
    for name in ("greedy+policy", "lookahead+policy", "random+policy"):
        assert strategy(name)(during, list(legal), RandomStream(1)) == take, name
    assert tiling_value(during, keep) > tiling_value(during, take)


def test_greedy_reads_the_grey_wall():
    state = grey_state()
    put_tile(state, 0, 1, 4, 1)                      # yellow under column 4 ...
    move_tiles(state, 2, 1, state["factories"][0])   # ... so red on line 1 scores 2 there
    assert move_gain(state, (0, 2, 1)) == 2 and move_gain(state, (0, 2, 0)) == -1
    assert greedy(state, State.from_json(copy.deepcopy(state)).legal_moves(), RandomStream(0)) == (0, 2, 1)


@pytest.mark.filterwarnings("ignore:Observation")  # a Dict with the mask, as PettingZoo's own classic games
def test_the_environment_plays_the_grey_variant():
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from pysolve.azul.env import AzulEnv, observe_state

    env = AzulEnv(2, variant=GREY)
    api_test(env, num_cycles=60)
    env.reset(seed=3)
    for _ in env.agent_iter():
        observation, _, done, cut, _ = env.last()
        env.step(None if done or cut else int(observation["action_mask"].nonzero()[0][-1]))
    colours = env.state.to_json()["boards"][0]["colours"]
    assert observe_state(env.state, 0)[44 + 1:44 + 26].tolist() == [colour + 1 for row in colours for colour in row]
    assert any(colour >= 0 for row in colours for colour in row)


def test_grey_games_differ_from_standard_ones_and_fill_columns_freely():
    grey, standard = play_match(2, 5, variant=GREY), play_match(2, 5)
    assert grey.state != standard.state and grey.to_json()["variant"] == GREY
    placed = [(row, column, colour) for board in grey.state["boards"]
              for row, cells in enumerate(board["colours"]) for column, colour in enumerate(cells) if colour >= 0]
    assert any((colour + row) % 5 != column for row, column, colour in placed)  # off the coloured pattern


# -- the fast path: whole random games on packed boards -------------------------------------------
def table_game(players: int, seed: int, variant: str) -> dict:
    """The final state of the seeded random game played move by move on the Table rules."""
    match = Match(players, seed, "python", variant=variant)
    while match.legal_moves():
        match.play()
    return match.state


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_packed_random_games_are_the_table_games(players, variant):
    for seed in range(100):
        state = packed.random_game(players, seed, variant)
        assert state == table_game(players, seed, variant), (players, seed, variant)
        assert tile_count(state) == 100
    result = play_match(players, 3, variant=variant)  # the fast path of play_match
    assert result.state == table_game(players, 3, variant) and result.winners == packed.winners(result.state)


@needs_prolog
def test_prolog_plays_a_tournament_in_batches_even_when_numbers_run_short(monkeypatch):
    from pysolve.azul import prolog as azul_prolog
    from pysolve.azul import tournament as tour

    work = tour.tasks(3, tour.BATCH + 3, 40, "prolog", ["random"], variant=GREY)
    expected = [packed.random_game(3, task.seed, GREY) for task in work]
    assert [result.state for result in tour.run(work)] == expected
    monkeypatch.setattr(azul_prolog, "BLOCK", 15)  # 45 numbers a game: every game asks again, and again
    results = tour.run(work[:3])
    assert [result.state for result in results] == expected[:3] and results[0].winners == packed.winners(expected[0])


# -- the State model: clones, children, chance ----------------------------------------------------
def seeded_states(players: int, seed: int, game: Game | None = None) -> list[State]:
    """Every position of the seeded random-feasible game, driven by child() and the stream as chance policy."""
    state, stream = (game or Game(players)).new_initial_state(), RandomStream(seed)
    states = [state]
    while not state.is_terminal:
        if state.is_chance_node:
            state = state.child(state.sample_chance(stream))
        else:
            state = state.child(random_feasible(state.to_json(), state.legal_moves(), stream))
        states.append(state)
    return states


def decision(states: list[State], index: int) -> State:
    """The first position from `index` on where a seat is to move."""
    return next(state for state in states[index:] if state.legal_moves())


def test_a_clone_is_independent():
    state = decision(seeded_states(2, 4), 30)
    before = state.to_json()
    copy_ = state.clone()
    copy_.apply(copy_.legal_moves()[0])
    assert state.to_json() == before and copy_.to_json() != before
    state.apply(state.legal_moves()[-1])
    assert copy_.to_json() != state.to_json() and copy_.table.moves == state.table.moves


def test_a_child_leaves_its_parent_alone():
    parent = decision(seeded_states(3, 8), 40)
    before, moves = parent.to_json(), list(parent.legal_moves())
    children = [parent.child(move) for move in moves]
    assert parent.to_json() == before and parent.legal_moves() == moves
    assert len({json.dumps(child.to_json()) for child in children}) == len(moves)  # every move changes something
    assert all(child.table.moves == parent.table.moves + 1 for child in children)
    with pytest.raises(InputError, match="illegal move"):
        parent.child((0, 0, 9))


def test_chance_nodes_list_the_seats_then_the_tiles_in_the_bag():
    opening = Game(3).new_initial_state()
    assert opening.current_player == CHANCE and opening.legal_moves() == []
    assert opening.chance_outcomes() == [(0, 1), (1, 1), (2, 1)]
    from_lid = 0
    for state in seeded_states(2, 3)[1:]:  # a game of 7 rounds: round 6 pours the lid into the bag
        if not state.is_chance_node:
            assert state.chance_outcomes() == [] and state.current_player in (0, 1, TERMINAL)
            continue
        assert state.current_player == CHANCE and state.legal_moves() == []
        table = state.table
        source = table.bag if any(table.bag) else table.lid
        from_lid += not any(table.bag)
        outcomes = dict(state.chance_outcomes())
        assert outcomes == {colour: count for colour, count in enumerate(source) if count}
        assert sum(outcomes.values()) == sum(source) > 0
        with pytest.raises(InputError, match="not an outcome"):
            state.child(next(colour for colour in range(6) if colour not in outcomes))
    assert from_lid  # the seed's game ran its bag dry, so the lid was poured in


def test_the_deal_is_chance_one_tile_at_a_time():
    states = seeded_states(2, 6)
    first_moves = next(index for index, state in enumerate(states) if not state.is_chance_node)
    assert first_moves == 1 + 5 * 4  # the opening seat, then 20 tiles for 5 factories
    assert states[first_moves].table.round == 1 and states[-1].current_player == TERMINAL


@pytest.mark.parametrize("players, seed", [(2, 3), (3, 14), (4, 15)])
def test_child_and_the_seeded_stream_play_the_seeded_game(pysolve_backend, players, seed):
    positions = [state.to_json() for state in seeded_states(players, seed) if not state.is_chance_node]
    match = Match(players, seed, pysolve_backend)
    played_ = [match.state]
    while match.legal_moves():
        match.play()
        played_.append(match.state)
    winners = match.winners
    match.close()
    assert positions == played_
    assert seeded_states(players, seed)[-1].winners() == winners


@pytest.mark.slow
@pytest.mark.parametrize("players, seed", [(2, 23), (4, 25)])
def test_grey_states_play_the_seeded_grey_game(pysolve_backend, players, seed):
    positions = [state.to_json() for state in seeded_states(players, seed, Game(players, variant=GREY))
                 if not state.is_chance_node]
    match = Match(players, seed, pysolve_backend, variant=GREY)
    played_ = [match.state]
    while match.legal_moves():
        match.play()
        played_.append(match.state)
    match.close()
    assert positions == played_ and positions[-1]["variant"] == GREY


@pytest.mark.pysolve_backends("kanren")
def test_states_on_the_minikanren_rules_are_the_same(pysolve_backend):
    python = [state.to_json() for state in seeded_states(2, 9)]
    assert [state.to_json() for state in seeded_states(2, 9, Game(2, engine(pysolve_backend)))] == python


@pytest.mark.slow
@pytest.mark.parametrize("players, seed, strategies, scores, winners, moves", [
    (2, 11, ["lookahead", "greedy"], [42, 39], [0], 51),
    (3, 12, ["greedy", "lookahead", "random"], [64, 67, 9], [1], 69),
    (4, 13, ["lookahead"], [41, 49, 36, 33], [1], 78),
])
def test_searching_strategies_choose_as_before(players, seed, strategies, scores, winners, moves):
    # the games lookahead played when it searched the Python rules' tables directly (before state.child)
    result = play_match(players, seed, "python", strategies)
    assert (result.scores, result.winners, result.moves) == (scores, winners, moves)


def test_lookahead_looks_at_children_only():
    state = decision(seeded_states(2, 5), 25)
    moves = state.legal_moves()
    snapshot = state.to_json()
    choice = lookahead(snapshot, moves, RandomStream(1))
    assert choice in moves and state.to_json() == snapshot


# -- the simulation API ---------------------------------------------------------------------------
def test_same_seed_same_game_and_state_round_trips():
    first, second = play_match(3, 42, "python"), play_match(3, 42, "python")
    assert first.to_json() == second.to_json()
    match = Match(2, 5, "python")
    for _ in range(7):
        match.play()
    state = match.state
    assert json.loads(json.dumps(state)) == state == check_state(state)


def test_a_state_round_trips_through_each_back_end(pysolve_backend):
    match = Match(2, 5, "python")
    for _ in range(7):
        match.play()
    state = match.state
    handle = engine(pysolve_backend).load(state)
    assert engine(pysolve_backend).export(handle) == state
    assert engine(pysolve_backend).legal_moves(handle) == match.legal_moves()
    engine(pysolve_backend).close(handle)


def test_illegal_move_and_strategy_errors():
    match = Match(2, 1, "python")
    with pytest.raises(InputError, match="illegal move"):
        match.play((0, 0, 9))
    with pytest.raises(InputError):
        Match(5, 1, "python")
    with pytest.raises(InputError, match="4 tiles, not 100|holds"):
        broken = match.state
        broken["bag"][0] += 1
        engine("python").load(broken)


def test_greedy_prefers_completing_a_line_over_the_floor():
    state = base_state()
    move_tiles(state, 2, 3, state["factories"][0])
    state["boards"][0]["floor"] = []
    moves = State.from_json(copy.deepcopy(state)).legal_moves()
    assert move_gain(state, (0, 2, 3)) == 1 and move_gain(state, (0, 2, 0)) == -4
    assert greedy(state, moves, RandomStream(0)) == (0, 2, 3)


def test_callable_strategy_and_tournament_rotation():
    def always_floor(state, moves, rng):
        return next(move for move in moves if move[2] == 0)

    result = play_match(2, 3, "python", [always_floor, "greedy"])
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


@pytest.mark.subprocess
@pytest.mark.pysolve_backends("prolog")  # a process pool of kanren games would take long
def test_cli_back_ends_agree_and_workers_give_the_same_results(pysolve_backend, capsys):
    outputs = []
    for extra in (["--backend", "python"], ["--backend", pysolve_backend],
                  ["--engine", pysolve_backend, "--workers", "2"]):  # --engine: the older spelling
        assert main(["azul", "simulate", "--players", "4", "--games", "3", "--seed", "8", "--json", *extra]) == 0
        games = json.loads(capsys.readouterr().out)["games"]
        outputs.append([{k: v for k, v in game.items() if k != "engine"} for game in games])
    assert outputs[0] == outputs[1] == outputs[2]


def test_cli_variant_grey(capsys):
    assert main(["azul", "crosscheck", "--variant", "grey", "--games", "1", "--seed", "6",
                 "--backends", "python,kanren"]) == 0
    assert re.search(r"1 grey game, \d+ moves \(\d+ column choices among them\) compared", capsys.readouterr().out)
    assert main(["azul", "simulate", "--variant", "grey", "--games", "2", "--seed", "6", "--json"]) == 0
    games = json.loads(capsys.readouterr().out)["games"]
    assert [game["variant"] for game in games] == [GREY, GREY]
    assert games[0]["scores"] == play_match(2, 6, variant=GREY).scores
    assert main(["solve", "azul", "--variant", "grey", "--seed", "6", "--json"]) == 0
    assert '"variant": "grey"' in capsys.readouterr().out


@pytest.mark.slow
@needs_prolog
def test_cli_crosscheck_and_replay(capsys, tmp_path):
    assert main(["azul", "crosscheck", "--players", "2", "--games", "2", "--seed", "4"]) == 0
    assert "all back ends agree" in capsys.readouterr().out
    log = tmp_path / "game.jsonl"
    assert main(["azul", "simulate", "--games", "1", "--seed", "4", "--log", str(log)]) == 0
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert records[0]["type"] == "start" and records[-1]["type"] == "end"
    assert all(tile_count(record["state"]) == 100 for record in records if "state" in record)
    capsys.readouterr()
    assert main(["azul", "replay", str(log)]) == 0
    text = capsys.readouterr().out
    assert "round 1" in text and "factories: F1[" in text and "| b y r k w" in text and "final scores" in text


def test_cli_defaults_are_one_rule_the_default_back_end_and_seed_1(capsys):
    assert main(["azul", "simulate", "--json"]) == 0
    game = json.loads(capsys.readouterr().out)["games"][0]
    assert (game["engine"], game["seed"]) == (backends.default(), SEED) == (backends.default(), 1)
    assert main(["solve", "azul", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert (answer["backend"], answer["question"]["seed"]) == (backends.default(), SEED)
    assert answer["stats"]["scores"] == game["scores"]  # the same game: one seed, whichever command plays it
    assert main(["azul", "crosscheck", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["backends"] == [name for name in backends.NAMES
                                                                if backends.available(name)]


def test_cli_help_says_back_end_and_hides_the_older_spelling(capsys):
    for command in ("simulate", "crosscheck"):
        assert main(["azul", command, "--help"]) == 0
        text = capsys.readouterr().out
        assert "--backend" in text and "engine" not in text


@pytest.mark.parametrize("argv, message", [
    (["azul", "simulate", "--players", "5"], "2 to 4 players"),
    (["azul", "simulate", "--backend", "lisp"], "invalid choice: 'lisp'"),
    (["azul", "simulate", "--engine", "lisp"], "invalid choice: 'lisp'"),
    (["azul", "simulate", "--strategy", "clever"], "unknown strategy 'clever'"),
    (["azul", "simulate", "--games", "0"], "at least 1"),
    (["azul", "crosscheck", "--backends", "python,cobol"], "unknown back end 'cobol'"),
    (["azul", "crosscheck", "--engines", "python,cobol"], "unknown back end 'cobol'"),
    (["azul", "crosscheck", "--backends", ","], "--backends ',': an empty name"),
    (["azul", "simulate", "--variant", "gray"], "unknown variant 'gray'"),
    (["solve", "azul", "--variant", "blue"], "variant"),
    (["azul", "replay", "/nonexistent/log.jsonl"], "azul log '/nonexistent/log.jsonl': no such file"),
])
def test_cli_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_cli_replay_of_a_malformed_log(capsys, tmp_path):
    log = tmp_path / "bad.jsonl"
    start = play_match(log=True).log[0]
    log.write_text(json.dumps(start) + "\nnot json\n")
    assert main(["azul", "replay", str(log)]) == 2
    assert f"{log}:2: not JSON" in capsys.readouterr().err


@pytest.mark.subprocess
def test_the_core_imports_no_azul():
    code = "import sys, pysolve, pysolve.cli; print(sorted(m for m in sys.modules if m.startswith('pysolve.azul')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@needs_prolog
def test_rule_bases_load_cleanly():
    assert bridge.load("azul") == "azul" and bridge.load("azul_facts") == "azul_facts"
    assert bridge.first("azul_facts", "aggregate_all(count, step(_, _, _, _, _), N)")["N"] == 80


@pytest.mark.slow
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
