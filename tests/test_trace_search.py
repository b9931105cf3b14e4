"""Each back end's own search, recorded (`--trace`): fichas and tangram on Prolog, miniKanren and Python.

A trace reads back; the path from the root to its solution node rebuilds
the answer; the counts agree with the answer's statistics where it counts
states; Python's and Prolog's trees are the same for every fichas strategy
and flavour, and the three back ends' trees the same for every tangram
search (the cross-check of traces); budgets stop a traced search with
`unknown`; a trace past its limit is counted, not written.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from pysolve import cli
from pysolve.answers import NO_SOLUTION, SOLVED, UNKNOWN, Answer
from pysolve.budget import Budget, most_work
from pysolve.fichas.instances import orders
from pysolve.fichas.model import Question as FichasQuestion
from pysolve.fichas.model import heuristic, is_solution
from pysolve.fichas.puzzle import PUZZLE as FICHAS
from pysolve.search import TREE_STRATEGIES
from pysolve.tangram.generate import generate
from pysolve.tangram.instances import instances
from pysolve.tangram.model import Instance, Placement, tiling_of
from pysolve.tangram.model import Question as TangramQuestion
from pysolve.tangram.puzzle import PUZZLE as TANGRAM
from pysolve.tangram.reader import load_instance
from pysolve.trace import Recorded, Trace, read_trace

SMALL = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                        HealthCheck.function_scoped_fixture])
STRATEGY_FLAVOURS = [(strategy, flavour) for strategy in (*TREE_STRATEGIES, "shortest") for flavour in ("hs", "py")]


def traced(puzzle: Any, question: Any, backend: str, tmp_path: Path) -> tuple[Answer, Recorded]:
    """The answer of `backend` with its search recorded, and the trace read back (checked as a tree)."""
    path = tmp_path / f"{backend}.jsonl"
    answer = puzzle.solve(question, backend, path)
    recorded = read_trace(path)
    assert recorded.header["backend"] == backend and recorded.header["question"] == puzzle.describe(question)
    assert recorded.end["status"] == answer.status
    well_formed(recorded)
    return answer, recorded


def well_formed(recorded: Recorded) -> None:
    """Nodes numbered from 1 in order, each below a node already entered, one deeper; events name known nodes;
    the end line counts the events."""
    depth = {0: 0}
    for event in recorded.events:
        if event["e"] == "enter":
            assert event["id"] == len(depth) and event["parent"] in depth
            assert event["depth"] == depth[event["parent"]] + 1
            depth[event["id"]] = event["depth"]
        else:
            assert depth[event["id"]] == event["depth"]
    counts = {kind: sum(event["e"] == kind for event in recorded.events)
              for kind in ("enter", "fail", "backtrack", "solution")}
    assert (counts["enter"], counts["fail"], counts["backtrack"], counts["solution"]) == (
        recorded.end["nodes"], recorded.end["fails"], recorded.end["backtracks"], recorded.end["solutions"])
    assert recorded.end["events"] == len(recorded.events) and not recorded.end["truncated"]


def tree(recorded: Recorded, backtracks: bool = True) -> list[tuple[Any, ...]]:
    """The events as comparable tuples (without the backtracks, unless asked)."""
    return [(event["e"], event["id"], event.get("parent"), event.get("label"), event.get("move"))
            for event in recorded.events if backtracks or event["e"] != "backtrack"]


def paths_to_solutions(recorded: Recorded) -> list[list[dict[str, Any]]]:
    """For each solution event, the moves of the nodes from the root down to its node."""
    entered = {event["id"]: event for event in recorded.events if event["e"] == "enter"}
    paths = []
    for event in recorded.events:
        if event["e"] == "solution":
            moves, node = [], event["id"]
            while node:
                moves.append(entered[node]["move"])
                node = entered[node]["parent"]
            paths.append(moves[::-1])
    return paths


# --- fichas ------------------------------------------------------------------------------------------


def check_fichas(answer: Answer, recorded: Recorded, question: FichasQuestion) -> None:
    """The solution's path of states is the answer's path; nodes are the states taken (expanded, and the goal);
    labels are the states, with their heuristic when the strategy orders by it."""
    entered = [event for event in recorded.events if event["e"] == "enter"]
    for event in entered:
        board = event["label"]
        scored = question.strategy in ("best-first", "hill-climbing")
        assert event["move"] == ({"state": board, "h": heuristic(board)} if scored else {"state": board})
    if answer.status == SOLVED:
        (path,) = paths_to_solutions(recorded)
        assert [move["state"] for move in path] == answer.solutions[0]
        assert is_solution(answer.solutions[0], question.m, question.n)
    else:
        assert answer.status == NO_SOLUTION and recorded.end["solutions"] == 0
    states = answer.stats["states"]
    if question.strategy == "shortest" and answer.status == SOLVED and answer.backend != "kanren":
        # the states expanded (nodes 1 to states), the meeting state, then the half of the path read in the mirror
        meeting = entered[states]
        assert recorded.end["nodes"] == states + 1 + len(answer.solutions[0]) - meeting["depth"]
    else:
        assert recorded.end["nodes"] == states + recorded.end["solutions"]


@pytest.mark.parametrize(("strategy", "flavour"), STRATEGY_FLAVOURS)
def test_python_and_prolog_record_the_same_fichas_tree(strategy: str, flavour: str, tmp_path: Path) -> None:
    for m, n in ((2, 2), (1, 3), (3, 4) if strategy not in ("bfs", "dfs") else (2, 1)):
        question = FichasQuestion(m, n, strategy, flavour)
        python = traced(FICHAS, question, "python", tmp_path)
        prolog = traced(FICHAS, question, "prolog", tmp_path)
        for answer, recorded in (python, prolog):
            check_fichas(answer, recorded, question)
        assert tree(python[1]) == tree(prolog[1])
        assert python[1].end["backtracks"] == 0  # a frontier is never backtracked through


@SMALL
@given(order=orders(max_order=2))
@pytest.mark.parametrize(("strategy", "flavour"), STRATEGY_FLAVOURS)
def test_random_orders_record_the_same_fichas_tree(strategy: str, flavour: str, order: tuple[int, int],
                                                   tmp_path: Path) -> None:
    question = FichasQuestion(*order, strategy, flavour)
    python, prolog = (traced(FICHAS, question, backend, tmp_path) for backend in ("python", "prolog"))
    check_fichas(*python, question)
    check_fichas(*prolog, question)
    assert tree(python[1]) == tree(prolog[1])


@pytest.mark.parametrize("order", [(2, 2), (3, 3), (0, 2)])
def test_a_star_records_the_boards_it_takes(order: tuple[int, int], tmp_path: Path) -> None:
    question = FichasQuestion(*order, "astar")
    answer, recorded = traced(FICHAS, question, "python", tmp_path)
    check_fichas(answer, recorded, question)
    labels = [event["label"] for event in recorded.events if event["e"] == "enter"]
    assert len(labels) == len(set(labels))  # a graph search takes every board once


def test_hill_climbing_records_its_dead_end(tmp_path: Path) -> None:
    question = FichasQuestion(3, 4, "hill-climbing")
    for backend in ("python", "prolog"):
        answer, recorded = traced(FICHAS, question, backend, tmp_path)
        assert answer.status == NO_SOLUTION
        last = recorded.events[-1]
        assert last["e"] == "fail" and last["id"] == recorded.end["nodes"] == answer.stats["states"]
        assert [event["e"] for event in recorded.events[:-1]] == ["enter"] * recorded.end["nodes"]


@pytest.mark.parametrize(("order", "flavour"), [((2, 2), "hs"), ((2, 2), "py"), ((3, 2), "hs")])
def test_kanren_depth_first_walks_the_tree_python_does(order: tuple[int, int], flavour: str, tmp_path: Path) -> None:
    question = FichasQuestion(*order, "dfs", flavour)
    answer, recorded = traced(FICHAS, question, "kanren", tmp_path)
    check_fichas(answer, recorded, question)
    assert tree(recorded, backtracks=False) == tree(traced(FICHAS, question, "python", tmp_path)[1])
    assert recorded.end["backtracks"] == recorded.end["nodes"] - len(answer.solutions[0])  # all but the path left


def test_kanren_iterative_deepening_records_each_round_below_the_root(tmp_path: Path) -> None:
    question = FichasQuestion(2, 2, "shortest")
    answer, recorded = traced(FICHAS, question, "kanren", tmp_path)
    check_fichas(answer, recorded, question)
    rounds = [event for event in recorded.events if event["e"] == "enter" and event["parent"] == 0]
    assert {event["label"] for event in rounds} == {"BBHVV"} and len(rounds) > 1


@pytest.mark.parametrize("strategy", ["bfs", "best-first", "hill-climbing"])
@pytest.mark.parametrize("flavour", ["hs", "py"])
def test_kanren_frontier_searches_record_the_tree_python_does(strategy: str, flavour: str, tmp_path: Path) -> None:
    question = FichasQuestion(2, 2, strategy, flavour)
    answer, recorded = traced(FICHAS, question, "kanren", tmp_path)
    check_fichas(answer, recorded, question)
    assert tree(recorded) == tree(traced(FICHAS, question, "python", tmp_path)[1])


def test_a_search_kanren_does_not_record_says_so_in_one_line(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "astar.jsonl"
    code = cli.main(["solve", "fichas", "--m", "1", "--n", "1", "--strategy", "astar", "--backend", "kanren",
                     "--trace", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "kanren" in err and "records no trace" in err
    assert not out.exists()


def test_an_untraced_answer_is_the_traced_one(tmp_path: Path) -> None:
    for backend in ("python", "prolog", "kanren"):
        question = FichasQuestion(2, 3, "dfs", "py")
        answer, _ = traced(FICHAS, question, backend, tmp_path)
        plain = FICHAS.solve(question, backend)
        assert (plain.solutions, plain.stats["states"]) == (answer.solutions, answer.stats["states"])


# --- tangram -----------------------------------------------------------------------------------------


def placements(path: list[dict[str, Any]]) -> tuple[Placement, ...]:
    return tuple(Placement(move["piece"], move["x"], move["y"], move["w"], move["h"]) for move in path)


def check_tangram(answer: Answer, recorded: Recorded, question: TangramQuestion) -> None:
    """Each solution's placements from the root rebuild that tiling, in order; labels say the move."""
    for event in recorded.events:
        if event["e"] == "enter":
            move = event["move"]
            assert event["label"] == f"piece {move['piece']} at ({move['x']}, {move['y']}) {move['w']}x{move['h']}"
    tilings = [question.instance.sort(question.placed + placements(path)) for path in paths_to_solutions(recorded)]
    assert [tiling_of(question.instance, solution) for solution in answer.solutions] == tilings
    if question.strategy != "bfs" and "states" in answer.stats:
        assert recorded.end["nodes"] == answer.stats["states"]  # one node per placement tried


def tangram_trees(question: TangramQuestion, backends: list[str], tmp_path: Path) -> list[list[tuple[Any, ...]]]:
    """The trees `backends` record for `question`, each checked."""
    trees = []
    for backend in backends:
        answer, recorded = traced(TANGRAM, question, backend, tmp_path)
        check_tangram(answer, recorded, question)
        trees.append(tree(recorded))
    return trees


@pytest.mark.slow
@pytest.mark.parametrize(("mode", "strategy", "start"), [
    ("first", "dfs", None), ("first", "dfs", "pink"), ("all", "dfs", None), ("first", "cell", None),
    ("all", "cell", None), ("first", "bfs", "green"), ("first", "bfs", "red")])
def test_the_back_ends_record_the_same_tangram_tree(mode: str, strategy: str, start: str | None,
                                                    pysolve_backends: list[str], tmp_path: Path) -> None:
    first, *others = tangram_trees(TangramQuestion(load_instance(), mode, strategy, start), pysolve_backends,
                                   tmp_path)
    assert others and all(tree == first for tree in others)
    assert any(event[0] == "solution" for event in first)
    assert any(event[0] == "fail" for event in first) == ((mode, strategy) != ("first", "cell"))  # cell goes straight


@SMALL
@given(instance=instances(max_side=4, max_pieces=4))
@pytest.mark.parametrize(("mode", "strategy"), [("first", "dfs"), ("all", "dfs"), ("all", "cell"), ("first", "bfs")])
def test_random_tangrams_record_the_same_tree(mode: str, strategy: str, instance: Instance,
                                              pysolve_backends: list[str], tmp_path: Path) -> None:
    first, *others = tangram_trees(TangramQuestion(instance, mode, strategy), pysolve_backends, tmp_path)
    assert others and all(tree == first for tree in others)


def test_a_tiling_that_cannot_start_is_a_dead_end_at_the_root(pysolve_backends: list[str], tmp_path: Path) -> None:
    # the orange piece across columns 2 to 8 leaves no band three wide and eight high for the red one
    blocked = TangramQuestion(load_instance(), "first", "dfs", "red", placed=(Placement("orange", 2, 4, 7, 3),))
    first, *others = tangram_trees(blocked, pysolve_backends, tmp_path)
    assert others and all(tree == first for tree in others)
    assert first == [("fail", 0, None, None, None)]


def test_counts_and_rules_record_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "count.jsonl"
    code = cli.main(["solve", "tangram", "--count", "--backend", "python", "--trace", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "--trace" in err and not out.exists()


# --- budgets and the limit ---------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["python", "prolog", "kanren"])
def test_a_traced_search_stops_within_its_budget(backend: str, tmp_path: Path) -> None:
    fichas = FichasQuestion(6, 6, "shortest", seconds=0.5) if backend == "kanren" else \
        FichasQuestion(3, 4, "bfs", seconds=0.5)  # each takes 20 s or more unbounded
    tangram = TangramQuestion(generate(8, 8, 12, 3), "all", "dfs", seconds=0.5)
    for puzzle, question in ((FICHAS, fichas), (TANGRAM, tangram)):
        answer, recorded = traced(puzzle, question, backend, tmp_path)
        assert answer.status == UNKNOWN and recorded.end["status"] == UNKNOWN
        assert "time limit" in recorded.end["reason"] and recorded.end["nodes"] > 0
        assert answer.stats["cpu_seconds"] <= most_work(0.5)


def recorded_with_limit(module: Any, question: Any, budget: Budget, limit: int, tmp_path: Path) -> Recorded:
    """`module`'s search for `question` recorded in a trace of at most `limit` events, read back."""
    path = tmp_path / f"limit{limit}.jsonl"
    out = io.StringIO()
    budget.trace = Trace(out, "any", "any", {}, limit=limit)
    module.solve(question, budget)
    budget.trace.end(SOLVED)
    path.write_text(out.getvalue())
    return read_trace(path)


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["python", "prolog", "kanren"])
def test_past_its_limit_a_search_is_counted_not_written(backend: str, tmp_path: Path) -> None:
    for puzzle, question in ((TANGRAM, TangramQuestion(load_instance(), "all", "cell")),
                             (FICHAS, FichasQuestion(3, 3, "dfs"))):
        module = puzzle.backend_module(backend)
        whole = recorded_with_limit(module, question, puzzle.budget(question), 10**6, tmp_path)
        cut = recorded_with_limit(module, question, puzzle.budget(question), 50, tmp_path)
        assert len(cut.events) == 50 and cut.end["truncated"] and not whole.end["truncated"]
        assert cut.events == whole.events[:50]
        assert {key: cut.end[key] for key in ("nodes", "fails", "backtracks", "solutions", "events")} == \
            {key: whole.end[key] for key in ("nodes", "fails", "backtracks", "solutions", "events")}
