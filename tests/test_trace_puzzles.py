"""Each back end's own search recorded (pysolve.trace) for Sudoku, Hidato and squares, read back and replayed.

For every puzzle and back end: the trace reads back, its ids and depths
hold together, it counts the answer's solutions, and the moves on the path
to its first solution, replayed onto the givens, pin down the answer's first
board (a search that propagates fills the rest itself: the replayed board
then has that one solution only). Budgets end a traced search `unknown` with
the reason in the `end` line; a trace past its limit is cut, still counted.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pysolve import api, cli
from pysolve import puzzle as puzzle_module
from pysolve.answers import UNKNOWN, Answer
from pysolve.hidato import instances as hidato_instances
from pysolve.hidato import model as hidato_model
from pysolve.paths import data_dir
from pysolve.squares import instances as squares_instances
from pysolve.squares import model as squares_model
from pysolve.sudoku import instances as sudoku_instances
from pysolve.sudoku import model as sudoku_model
from pysolve.trace import Recorded, Trace, read_trace

BACKENDS = ("python", "prolog", "kanren")
SUDOKU = data_dir() / "sudoku"
HIDATO = data_dir() / "hidato"
CASES = {  # name -> (puzzle, options, whether the search places every cell itself: no propagation)
    "sudoku fast": ("sudoku", {"file": str(SUDOKU / "hardest.txt"), "index": 2, "count": 2}, False),
    "sudoku plain": ("sudoku", {"file": str(SUDOKU / "small.txt"), "index": 1, "count": 2, "strategy": "plain"},
                     True),
    "hidato fast": ("hidato", {"file": str(HIDATO / "rect_6x6_s12.txt"), "count": 2}, False),
    "hidato original": ("hidato", {"file": str(HIDATO / "sample.txt"), "count": 2, "strategy": "original"}, True),
}
SQUARES = {  # name -> (options, the back ends whose search finds one grid per class of turned grids)
    "squares first": ({}, ()),
    "squares original all": ({"all": True, "strategy": "original"}, ()),
    "squares eternity all": ({"file": "eternity-3x3", "all": True}, ("python", "prolog")),
    "squares fast count": ({"file": "insects", "count": True}, BACKENDS),
}


def traced(tmp_path: Path, puzzle: str, backend: str, question: Any = None, **options: Any) -> tuple[Answer, Recorded]:
    """The answer of `backend` with its search recorded, and the trace read back."""
    path = tmp_path / f"{puzzle}-{backend}.jsonl"
    answer = api.solve(puzzle, question=question, backend=backend, trace=path, **options)
    return answer, read_trace(path)


def check_tree(trace: Recorded) -> dict[int, dict[str, Any]]:
    """Assert that ids count from 1 in order, each depth is its parent's plus one, a node is left once and only
    while entered, and the `end` line counts what was written; the enter events by id."""
    entered: dict[int, dict[str, Any]] = {}
    depth, open_nodes = {0: 0}, {0}
    for event in trace.events:
        node = event["id"]
        if event["e"] == "enter":
            assert node == len(entered) + 1 and event["parent"] in open_nodes
            assert event["depth"] == depth[event["parent"]] + 1
            entered[node], depth[node] = event, event["depth"]
            open_nodes.add(node)
        else:
            assert node in open_nodes and event["depth"] == depth[node], event
            if event["e"] == "backtrack":
                open_nodes.discard(node)
    kinds = [event["e"] for event in trace.events]
    if not trace.end["truncated"]:
        assert trace.end["events"] == len(trace.events)
        assert (trace.end["nodes"], trace.end["fails"], trace.end["backtracks"], trace.end["solutions"]) == (
            kinds.count("enter"), kinds.count("fail"), kinds.count("backtrack"), kinds.count("solution"))
    return entered


def path_moves(trace: Recorded, entered: dict[int, dict[str, Any]]) -> list[dict[str, Any]]:
    """The moves of the nodes from the root to the first solution, in order."""
    node = next(event["id"] for event in trace.events if event["e"] == "solution")
    moves = []
    while node:
        moves.append(entered[node]["move"])
        node = entered[node]["parent"]
    return moves[::-1]


def replayed(puzzle: str, givens: list[list[int]], moves: list[dict[str, Any]]) -> list[list[int]]:
    """`givens` with each move made on it: a cell given a value (Sudoku), a number put on a cell (Hidato)."""
    board = [list(row) for row in givens]
    for move in moves:
        board[move["row"] - 1][move["col"] - 1] = move["value" if puzzle == "sudoku" else "number"]
    return board


def only_solutions(puzzle: str, rows: list[list[int]]) -> list[Any]:
    """The solutions of a board (at most 2), by Python's search."""
    make = sudoku_model.make_board if puzzle == "sudoku" else hidato_model.make_board
    question = sudoku_model.Question(make(rows), "replayed", count=2)
    return api.solve(puzzle, question=question, backend="python").solutions


def check_replay(puzzle: str, answer: Answer, trace: Recorded, places_all: bool) -> None:
    """The trace counts the answer's solutions, and the moves to its first solution pin the first board down."""
    entered = check_tree(trace)
    found = answer.count if answer.count is not None else len(answer.solutions)
    assert trace.end["solutions"] == found and trace.end["status"] == answer.status
    if not found:
        return
    board = replayed(puzzle, answer.question["puzzle"], path_moves(trace, entered))
    first = answer.solutions[0]
    assert all(value in (0, want) for row, wanted in zip(board, first) for value, want in zip(row, wanted))
    if places_all:
        assert board == first
    else:
        assert only_solutions(puzzle, board) == [first]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", CASES)
def test_each_back_end_records_its_own_search(case: str, backend: str, tmp_path: Path) -> None:
    puzzle, options, places_all = CASES[case]
    answer, trace = traced(tmp_path, puzzle, backend, **options)
    assert trace.header["puzzle"] == puzzle and trace.header["backend"] == backend
    assert trace.header["question"] == answer.question
    check_replay(puzzle, answer, trace, places_all and backend != "kanren")  # miniKanren propagates always
    assert trace.end["nodes"] > 0 or backend == "kanren"  # its propagation alone may solve the small ones


def enters(trace: Recorded) -> list[tuple[str, int]]:
    return [(event["label"], event["parent"]) for event in trace.events if event["e"] == "enter"]


@pytest.mark.parametrize("case", CASES)
def test_python_and_prolog_search_node_for_node_alike(case: str, tmp_path: Path) -> None:
    """The Prolog searches are Python's, node for node (each recorded by its own language)."""
    puzzle, options, _ = CASES[case]
    _, python = traced(tmp_path, puzzle, "python", **options)
    _, prolog = traced(tmp_path, puzzle, "prolog", **options)
    assert python.events == prolog.events and python.events


@pytest.mark.slow
def test_hidatos_portfolio_records_both_searches_the_walk_from_the_root(tmp_path: Path) -> None:
    """On a long board the propagating search spends its 500 nodes; the walk then starts at the root again,
    in both languages alike."""
    options = {"file": str(HIDATO / "long" / "snake_4x46.txt")}
    python_answer, python = traced(tmp_path, "hidato", "python", **options)
    _, prolog = traced(tmp_path, "hidato", "prolog", **options)
    assert python.events == prolog.events
    assert sum(event["e"] == "enter" and event["parent"] == 0 for event in python.events) == 2
    check_replay("hidato", python_answer, python, places_all=True)


def test_labels_say_the_move_in_the_puzzles_words(tmp_path: Path) -> None:
    _, sudoku = traced(tmp_path, "sudoku", "prolog", **CASES["sudoku plain"][1])
    _, hidato = traced(tmp_path, "hidato", "kanren", **CASES["hidato fast"][1])
    for trace, say in ((sudoku, "r{row}c{col}={value}"), (hidato, "{number} at r{row}c{col}")):
        labelled = [event for event in trace.events if event["e"] == "enter"]
        assert labelled and all(event["label"] == say.format(**event["move"]) for event in labelled)


def long_question(puzzle: str, backend: str) -> Any:
    """A question whose search runs far past 0.2 s on `backend`, with that time limit (squares: every 6x6
    solution, a second or more on every back end)."""
    if puzzle == "squares":
        return squares_model.Question(squares_model.load("eternity-6x6"), squares_model.ALL, seconds=0.2)
    empty = [[0] * 9 for _ in range(9)] if puzzle == "sudoku" else [[1] + [0] * 9, *[[0] * 10] * 8, [0] * 9 + [100]]
    return sudoku_model.Question((sudoku_model if puzzle == "sudoku" else hidato_model).make_board(empty),
                                 "empty", count=10**9, seconds=0.2)


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("puzzle", ["sudoku", "hidato", "squares"])
def test_a_traced_search_out_of_time_ends_unknown_saying_why(puzzle: str, backend: str, tmp_path: Path) -> None:
    answer, trace = traced(tmp_path, puzzle, backend, long_question(puzzle, backend))
    assert answer.status == UNKNOWN and trace.end["status"] == UNKNOWN
    assert trace.end["reason"] == answer.reason and "0.2" in trace.end["reason"]
    check_tree(trace)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_trace_past_its_limit_is_cut_and_still_counted(backend: str, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    options = CASES["hidato fast"][1]
    _, whole = traced(tmp_path, "hidato", backend, **options)
    monkeypatch.setattr(puzzle_module, "Trace", functools.partial(Trace, limit=20))
    _, cut = traced(tmp_path, "hidato", backend, **options)
    assert len(cut.events) == 20 and cut.events == whole.events[:20]
    assert cut.end["truncated"] and not whole.end["truncated"]
    assert {key: cut.end[key] for key in ("nodes", "fails", "backtracks", "solutions", "events")} == {
        key: whole.end[key] for key in ("nodes", "fails", "backtracks", "solutions", "events")}


def test_a_question_whose_search_records_nothing_gets_one_line(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    filled = tmp_path / "filled.txt"
    filled.write_text("1234\n3412\n2143\n4321\n")
    code = cli.main(["solve", "sudoku", str(filled), "--validate", "--backend", "python",
                     "--trace", str(tmp_path / "t.jsonl")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "records no trace" in err
    assert not (tmp_path / "t.jsonl").exists()


def squares_grids(trace: Recorded, entered: dict[int, dict[str, Any]], rows: int, cols: int) -> list[list[list[Any]]]:
    """The grid at each solution: the moves on its path ({"piece", "turns"} at a cell; None where the search
    placed nothing, its propagation did)."""
    grids = []
    for event in trace.events:
        if event["e"] == "solution":
            grid: list[list[Any]] = [[None] * cols for _ in range(rows)]
            node = event["id"]
            while node:
                move = entered[node]["move"]
                grid[move["row"] - 1][move["col"] - 1] = {"piece": move["piece"], "turns": move["turns"]}
                node = entered[node]["parent"]
            grids.append(grid)
    return grids


def check_squares(answer: Answer, trace: Recorded, backend: str, by_class: bool) -> None:
    """The grids at the trace's solutions are the answer's (each cell the search placed agrees; Python and Prolog
    place every cell), as many as the answer's, or one per class of turned grids for a search by class."""
    entered = check_tree(trace)
    asked = answer.asked
    grids = squares_grids(trace, entered, asked.instance.rows, asked.instance.cols)
    found = answer.count if answer.count is not None else len(answer.solutions)
    assert trace.end["status"] == answer.status and len(grids) == trace.end["solutions"]
    if by_class:
        assert len(grids) * squares_model.class_size(asked) == found
    else:
        assert len(grids) == found
    for grid in grids if answer.solutions else []:
        assert any(all(cell in (None, want) for row, wanted in zip(grid, solution) for cell, want in zip(row, wanted))
                   for solution in answer.solutions)
        if backend != "kanren":
            assert grid in answer.solutions


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", SQUARES)
def test_each_squares_search_records_itself(case: str, backend: str, tmp_path: Path) -> None:
    options, by_class = SQUARES[case]
    answer, trace = traced(tmp_path, "squares", backend, **options)
    assert trace.header["question"] == answer.question
    check_squares(answer, trace, backend, backend in by_class)


@pytest.mark.parametrize("case", SQUARES)
def test_squares_python_and_prolog_search_node_for_node_alike(case: str, tmp_path: Path) -> None:
    """The original's and the row order's searches, in both languages (the insects' count: the row order)."""
    _, python = traced(tmp_path, "squares", "python", **SQUARES[case][0])
    _, prolog = traced(tmp_path, "squares", "prolog", **SQUARES[case][0])
    assert python.events == prolog.events and python.events


def test_the_halves_count_records_nothing_and_says_which_do(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["solve", "squares", "eternity-3x3", "--count", "--backend", "python",
                     "--trace", str(tmp_path / "t.jsonl")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "records no trace; back ends that record it: kanren" in err


RANDOM = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("puzzle", ["sudoku", "hidato"])
@RANDOM
@given(data=st.data())
def test_random_board_searches_replay(puzzle: str, backend: str, data: st.DataObject, tmp_path: Path) -> None:
    instances = sudoku_instances if puzzle == "sudoku" else hidato_instances
    answer, trace = traced(tmp_path, puzzle, backend, data.draw(instances.questions(max_size=4, limit=5)))
    check_replay(puzzle, answer, trace, places_all=False)


@pytest.mark.parametrize("backend", BACKENDS)
@RANDOM
@given(instance=squares_instances.instances(max_side=2), mode=st.sampled_from([squares_model.FIRST, "original"]))
def test_random_squares_searches_replay(backend: str, instance: Any, mode: str, tmp_path: Path) -> None:
    question = (squares_model.Question(instance) if mode == squares_model.FIRST else
                squares_model.Question(instance, squares_model.ALL, strategy="original"))
    answer, trace = traced(tmp_path, "squares", backend, question)
    check_squares(answer, trace, backend, by_class=False)
