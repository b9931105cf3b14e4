"""The rectangle tangram: known answers, cross-checks of the three back ends, pictures, bad input."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import resource
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pysolve import api as pysolve_api
from pysolve import bridge, cli
from pysolve.bridge import Var
from pysolve.budget import Budget
from pysolve.errors import InputError, PrologError, SearchLimitExceeded, UnknownName
from pysolve.puzzle import UNKNOWN
from pysolve.pytest_plugin import assert_backends_agree, needs_prolog
from pysolve.tangram import api, draw, model, prolog, search_helpers
from pysolve.tangram import instances as strategies
from pysolve.tangram import kanren as kanren_backend
from pysolve.tangram import python as python_backend
from pysolve.tangram.generate import generate
from pysolve.tangram.model import Instance, Piece, Placement, Question, make_placement, tiling_of
from pysolve.tangram.puzzle import PUZZLE
from pysolve.tangram.reader import load_instance, parse_instance

CLASSIC_ORDER = ["green", "blue", "red", "orange", "pink", "yellow"]
FIRST_DFS = [("green", 0, 0), ("blue", 0, 2), ("red", 7, 0), ("orange", 0, 7), ("pink", 4, 0), ("yellow", 7, 8)]
SMALL = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
INSTANCE_FACTS = [("board_size", 2), ("tile", 3), ("rotations", 1), ("slot", 7),  # tangram.pl's thread-local facts
                  ("kind", 3), ("fills", 3)]


@pytest.fixture(scope="module")
def classic():
    return load_instance()


def agreed(question, backends):
    """Cross-check a question on the session's back ends that answer it; return the report."""
    report = assert_backends_agree(PUZZLE, question=question, backends=backends)
    assert set(report.results) == set(PUZZLE.backends_for(question)) & set(backends)
    return report


def triples(solution):
    return [(p["piece"], p["x"], p["y"]) for p in solution]


# ---------------------------------------------------------------- the classic instance

def test_classic_instance_matches_the_spec(classic):
    assert (classic.width, classic.height, classic.rotations) == (10, 10, False)
    assert [(p.key, p.name, p.width, p.height) for p in classic.pieces] == [
        ("1", "green", 4, 2), ("2", "blue", 4, 5), ("3", "red", 3, 8),
        ("4", "orange", 7, 3), ("5", "pink", 3, 7), ("6", "yellow", 3, 2)]
    assert all(p.colour.startswith("#") and len(p.colour) == 7 for p in classic.pieces)


@needs_prolog
def test_rule_base_loads_cleanly_and_sees_the_instance_it_is_given(classic):
    assert bridge.load("tangram") == "tangram"
    pieces = bridge.goal("findall", [Var("N"), Var("W"), Var("H")], bridge.goal("piece", Var("N"), Var("W"), Var("H")),
                         Var("Ps"))
    rows = bridge.solutions("tangram", prolog.on_instance(classic, pieces)).rows
    assert len(rows[0]["Ps"]) == 6
    assert rows[0]["Ps"] == [[p.name, p.width, p.height] for p in classic.pieces]


@pytest.mark.slow
def test_all_36_tilings_first_one_exact(classic, pysolve_backend):
    answer = PUZZLE.solve(Question(classic, "all", "dfs"), pysolve_backend)
    assert answer.count == 36 == len(answer.solutions)
    assert triples(answer.solutions[0]) == FIRST_DFS
    assert len({json.dumps(s) for s in answer.solutions}) == 36


def test_first_tiling_is_the_spec_one(classic, pysolve_backend):
    answer = PUZZLE.solve(Question(classic, strategy="dfs"), pysolve_backend)
    assert answer.status == "solved" and [triples(s) for s in answer.solutions] == [FIRST_DFS]


@pytest.mark.slow
@pytest.mark.parametrize("start", CLASSIC_ORDER)
def test_breadth_first_from_each_piece_agrees_and_is_a_tiling(classic, pysolve_backends, start):
    report = agreed(Question(classic, strategy="bfs", start=start), pysolve_backends)
    (solution,) = report.results["python"].solutions
    tiling = tuple(make_placement(classic, p["piece"], p["x"], p["y"]) for p in solution)
    assert api.validate(classic, tiling) == []
    assert [p.piece for p in tiling] == classic.names  # listed in instance order, whatever the start
    # FIFO over the same steps meets the depth-first order's first tiling first
    assert solution == PUZZLE.solve(Question(classic, strategy="dfs", start=start), "python").solutions[0]


@pytest.mark.slow
def test_breadth_first_answers_differ_by_start(classic):
    answers = {start: triples(PUZZLE.solve(Question(classic, strategy="bfs", start=start), "python").solutions[0])
               for start in CLASSIC_ORDER}
    assert len({tuple(answer) for answer in answers.values()}) > 1
    assert answers["green"] == FIRST_DFS


def test_fast_cell_strategy_finds_the_same_36(classic, pysolve_backends):
    cell = agreed(Question(classic, "all", "cell"), pysolve_backends)
    dfs = PUZZLE.canonical(PUZZLE.solve(Question(classic, "all", "dfs"), "python"))
    assert PUZZLE.canonical(cell.results["python"]) == dfs
    counts = agreed(Question(classic, "count", "cell"), pysolve_backends)
    assert {a.count for a in counts.results.values()} == {36}


def test_options_on_the_empty_board_and_after_placing(classic, pysolve_backend):
    empty = PUZZLE.solve(Question(classic, "options", piece="green"), pysolve_backend)
    assert empty.count == 7 * 9
    assert triples(empty.solutions[:3]) == [("green", 0, 0), ("green", 0, 1), ("green", 0, 2)]
    placed = (make_placement(classic, "blue", 0, 0),)
    after = PUZZLE.solve(Question(classic, "options", piece="green", placed=placed), pysolve_backend)
    assert after.solutions[0] == {"piece": "green", "x": 0, "y": 5}
    assert [(p.x, p.y) for p in api.options(classic, placed, "green", pysolve_backend)][:2] == [(0, 5), (0, 6)]


def test_options_agree(classic, pysolve_backends):
    agreed(Question(classic, "options", piece="green"), pysolve_backends)
    agreed(Question(classic, "options", piece="green", placed=(make_placement(classic, "blue", 0, 0),)),
           pysolve_backends)


def test_completion_of_a_partial_board(classic, pysolve_backends, pysolve_backend):
    placed = (make_placement(classic, "green", 0, 0), make_placement(classic, "blue", 0, 2))
    report = agreed(Question(classic, "all", placed=placed), pysolve_backends)
    assert report.results["python"].count == 2
    assert all(s[:2] == [{"piece": "green", "x": 0, "y": 0}, {"piece": "blue", "x": 0, "y": 2}]
               for s in report.results["python"].solutions)
    assert [(p.piece, p.x, p.y) for p in api.complete(classic, placed, pysolve_backend)] == FIRST_DFS


def test_a_partial_board_that_cannot_be_completed(classic, pysolve_backends, pysolve_backend):
    placed = (make_placement(classic, "green", 1, 0),)  # leaves a one-cell-wide gap at x = 0
    report = agreed(Question(classic, placed=placed), pysolve_backends)
    assert {a.status for a in report.results.values()} == {"no solution"}
    assert api.complete(classic, placed, pysolve_backend) is None
    assert api.count(classic, placed, pysolve_backend) == 0


def test_validation_is_answered_by_every_back_end(classic):
    tiling = tuple(make_placement(classic, *triple) for triple in FIRST_DFS)
    assert PUZZLE.backends_for(Question(classic, "validate", placed=tiling)) == ["prolog", "kanren", "python"]


def test_validate_a_correct_tiling(classic, pysolve_backend):
    tiling = tuple(make_placement(classic, *triple) for triple in FIRST_DFS)
    answer = PUZZLE.solve(Question(classic, "validate", placed=tiling), pysolve_backend)
    assert answer.stats["problems"] == [] and answer.status == "solved"
    assert [triples(s) for s in answer.solutions] == [FIRST_DFS]


def test_validate_says_what_is_wrong(classic, pysolve_backend):
    placed = (make_placement(classic, "green", 8, 0), make_placement(classic, "blue", 0, 0),
              make_placement(classic, "red", 2, 2))
    answer = PUZZLE.solve(Question(classic, "validate", placed=placed), pysolve_backend)
    assert answer.stats["problems"] == [
        ["out_of_board", "green"], ["overlap", "blue", "red", 6], ["missing", "orange"],
        ["missing", "pink"], ["missing", "yellow"]]
    assert answer.status == "no solution" and answer.solutions == []
    assert api.validate(classic, placed, pysolve_backend)[:2] == [
        "green sticks out of the 10x10 board", "blue and red overlap on 6 cell(s)"]


# ---------------------------------------------------------------- other boards, rotations

ROTATING = """\
board 3 2
rotations yes
piece 1 a #112233 1 2
piece 2 b #445566 2 2
"""


def test_rotations_with_sizes_in_json(pysolve_backend):
    answer = PUZZLE.solve(Question(parse_instance(ROTATING), "all"), pysolve_backend)
    assert answer.count == 2
    assert {"piece": "a", "x": 0, "y": 0, "width": 1, "height": 2} in answer.solutions[0]
    fixed = parse_instance(ROTATING.replace("rotations yes", "rotations no").replace("#112233 1 2", "#112233 2 1"))
    assert api.count(fixed, (), pysolve_backend, "dfs") == 0


def test_rotations_cross_checked(pysolve_backends):
    agreed(Question(parse_instance(ROTATING), "all"), pysolve_backends)


@st.composite
def instances(draw_):
    width, height = draw_(st.integers(2, 5)), draw_(st.integers(2, 5))
    pieces = draw_(st.integers(2, min(6, width * height)))
    return generate(width, height, pieces, draw_(st.integers(0, 10_000)), draw_(st.booleans()))


@pytest.mark.slow
@SMALL
@given(instance=instances(), strategy=st.sampled_from(["dfs", "cell"]))
def test_random_boards_all_back_ends_agree_on_every_tiling(pysolve_backends, instance, strategy):
    report = agreed(Question(instance, "all", strategy), pysolve_backends)
    assert report.results["python"].count >= 1  # the cut the board was made from
    other = "cell" if strategy == "dfs" else "dfs"
    assert PUZZLE.canonical(PUZZLE.solve(Question(instance, "all", other), "python")) == \
        PUZZLE.canonical(report.results["python"])


@pytest.mark.slow
@SMALL
@given(instance=instances(), data=st.data())
def test_random_boards_breadth_first_options_and_completion_agree(pysolve_backends, instance, data):
    start = data.draw(st.sampled_from(instance.names))
    agreed(Question(instance, strategy="bfs", start=start), pysolve_backends)
    first = api.complete(instance, (), "python")
    placed = first[: data.draw(st.integers(0, len(first) - 1))]
    missing = [name for name in instance.names if name not in {p.piece for p in placed}]
    agreed(Question(instance, "options", placed=placed, piece=data.draw(st.sampled_from(missing))), pysolve_backends)
    count = agreed(Question(instance, "count", "cell", placed=placed), pysolve_backends)
    assert {answer.count for answer in count.results.values()} == {count.results["python"].count}
    assert count.results["python"].count >= 1


@SMALL
@given(instance=instances(), data=st.data())
def test_random_placements_validate_alike_on_every_back_end(pysolve_backends, instance, data):
    """A tiling with some pieces left out and some moved (off the board, onto others): every back end names
    the same problems, in the same order, as the reference rules."""
    placed = []
    for p in api.complete(instance, (), "python"):
        if data.draw(st.booleans()):
            continue  # left out: missing
        dx, dy = data.draw(st.integers(-2, 2)), data.draw(st.integers(-2, 2))
        placed.append(Placement(p.piece, p.x + dx, p.y + dy, p.width, p.height))
    report = agreed(Question(instance, "validate", placed=tuple(placed)), pysolve_backends)
    assert set(report.results) == set(pysolve_backends)
    assert report.results["python"].stats["problems"] == model.problems(instance, placed)


# ---------------------------------------------------------------- bounded searches

@pytest.mark.slow
def test_searches_are_bounded(pysolve_backend):
    big = generate(16, 16, 12, 2)
    solve = PUZZLE.backend_module(pysolve_backend).solve
    with pytest.raises(SearchLimitExceeded, match="tangram search passed its time limit of 0.2 s"):
        hard = generate(20, 20, 14, 2, min_side=2, distinct=True)  # over 2 s on every back end's count
        solve(Question(hard, "count", seconds=0.2), Budget(seconds=0.2, label="tangram search"))
    answer = PUZZLE.solve(Question(big, "all", seconds=0.2), pysolve_backend)
    assert answer.status == UNKNOWN and answer.solutions == []
    assert answer.stats["reason"] == "tangram search passed its time limit of 0.2 s"  # the same words everywhere
    with pytest.raises(SearchLimitExceeded, match="time limit of 0.2 s"):  # the functions on Placements raise
        api.complete(big, backend=pysolve_backend, strategy="bfs", seconds=0.2)


FIRST_TILING_NODES = 200_000  # placements the default search may try on a generated board (at most 166,000 seen)


@pytest.mark.parametrize("seed", range(20))
def test_the_default_search_finds_a_first_tiling_of_generated_boards_within_a_node_budget(tmp_path, seed):
    path = tmp_path / "board.txt"
    pysolve_api.generate("tangram", out=path, seed=seed)
    question = pysolve_api.question("tangram", file=str(path))  # as `pysolve solve tangram FILE` asks it
    board = question.instance
    assert question.strategy == "cell" and question.mode == "first"
    answer = python_backend.solve(question, Budget(nodes=FIRST_TILING_NODES))
    (solution,) = answer.solutions
    assert model.problems(board, tiling_of(board, solution)) == []


def test_the_course_search_is_one_option_away_and_passes_that_budget_where_the_default_does_not():
    board = parse_instance(pysolve_api.generate("tangram", seed=3)[1])  # the issue's board: dfs ran out of time
    with pytest.raises(SearchLimitExceeded, match="budget of 200000 nodes"):
        python_backend.solve(Question(board, strategy="dfs"), Budget(nodes=FIRST_TILING_NODES))
    assert python_backend.solve(Question(board), Budget(nodes=FIRST_TILING_NODES)).solutions


def board_file(tmp_path, name, lines):
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def run_cli(argv):
    """The CLI as a user runs it, in a process of its own: exit code, stdout, stderr, and the CPU seconds it took
    (its start-up included: the clock of the work, which a busy machine does not stretch)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-m", "pysolve.cli", *argv], capture_output=True, text=True, timeout=60)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return done.returncode, done.stdout, done.stderr, cpu


@pytest.mark.subprocess
@pytest.mark.parametrize("side", [100000, 3000])
def test_boards_beyond_the_limit_are_refused_before_any_work(tmp_path, pysolve_backend, side):
    path = board_file(tmp_path, "huge.txt", [f"board {side} {side}", f"piece 1 big #112233 {side} {side}"])
    code, out, err, seconds = run_cli(["solve", "tangram", path, "--seconds", "5", "--backend", pysolve_backend])
    assert code == 2 and out == "" and seconds < 5
    assert err == f"pysolve: error: {path}:1: board {side}x{side} has {side * side} cells; tangram takes at most " \
                  "4096 (docs/tangram.md, Limits)\n"


def test_too_many_placements_are_refused_and_every_back_end_has_the_same_limits(tmp_path, capsys):
    many = board_file(tmp_path, "many.txt", ["board 64 64", "rotations yes",
                                             *(f"piece {chr(0x4e00 + i)} p{i} #112233 4 16" for i in range(64))])
    assert cli.main(["solve", "tangram", many, "--count"]) == 2
    assert capsys.readouterr().err.endswith(": many has 382592 placements on its empty board; tangram takes at "
                                            "most 250000 (docs/tangram.md, Limits)\n")
    wide = board_file(tmp_path, "wide.txt", ["board 64 64", *(f"piece {i} p{i} #112233 32 32" for i in range(4))])
    for backend in ("python", "kanren"):  # 4096 cells, the largest board any back end takes
        assert cli.main(["solve", "tangram", wide, "--count", "--backend", backend]) == 0
        assert "24 tilings" in capsys.readouterr().out


def test_a_big_question_api_made_is_refused_too():
    huge = Instance(100000, 100000, (Piece("a", "1", "#112233", 100000, 100000),))
    with pytest.raises(InputError, match="has 10000000000 cells; tangram takes at most 4096"):
        Question(huge, "count")
    with pytest.raises(InputError, match="tangram takes at most 4096"):
        generate(100, 100, 3, 1)


@pytest.mark.subprocess
def test_many_cjk_dominoes_breadth_first_stop_within_their_budget(tmp_path, pysolve_backend):
    path = board_file(tmp_path, "dominoes.txt", ["board 12 12", "rotations yes",
                                                 *(f"piece {chr(0x4e00 + i)} d{i} #112233 1 2" for i in range(72))])
    for extra in (["--strategy", "bfs"], ["--strategy", "dfs", "--all"]):
        code, out, err, seconds = run_cli(["solve", "tangram", path, "--seconds", "1", "--backend", pysolve_backend,
                                           *extra])
        assert code == 0 and err == "" and seconds < 5, (extra, err)
        assert out.splitlines()[-2] == "no answer: tangram search passed its time limit of 1 s"
        assert re.fullmatch(rf"\[{pysolve_backend}: unknown after [0-9.]+ s\]", out.splitlines()[-1])


@pytest.mark.parametrize("text, tilings", [
    ("board 2 4\n" + "".join(f"piece {i} d{i} #112233 1 2\n" for i in range(4)) + "rotations yes\n", 5 * 24),
    ("board 3 2\n" + "".join(f"piece {i} s{i} #112233 1 1\n" for i in range(6)), 720),
])
def test_counts_of_equal_pieces_name_them_every_way(pysolve_backend, text, tilings):
    assert PUZZLE.solve(Question(parse_instance(text), "count", "cell"), pysolve_backend).count == tilings


def test_the_count_takes_the_memo_counter_whatever_the_strategy():
    board = generate(16, 16, 12, 2)
    for strategy in ("dfs", "cell"):
        answer = PUZZLE.solve(Question(board, "count", strategy, seconds=20), "python")
        assert answer.count == 12288 and answer.stats["order"] in ("columns", "rows")
        assert answer.stats["memo_cleared"] == 0 and answer.stats["cpu_seconds"] < 5


@settings(SMALL, max_examples=60)
@given(seed=st.integers(0, 10_000), width=st.integers(2, 7), height=st.integers(2, 7), pieces=st.integers(2, 7),
       rotations=st.booleans(), min_side=st.integers(1, 2), data=st.data())
def test_both_scan_orders_of_the_memo_counter_count_every_tiling(seed, width, height, pieces, rotations, min_side,
                                                                  data):
    # the portfolio usually finishes with one order: each is checked here against the plain enumeration
    pieces = min(pieces, (width // min_side) * (height // min_side))
    board = generate(width, height, pieces, seed, rotations, min_side)
    first = api.complete(board, (), "python")
    placed = first[: data.draw(st.integers(0, len(first) - 1))]
    question = Question(board, "count", placed=placed)
    expected = sum(1 for _ in python_backend.first_empty_cell(question, Budget()))
    kinds = python_backend.Kinds(board, question.order)
    for transposed in (False, True):
        scan = python_backend.Scan(kinds, question.free, width, height, transposed, 1_000)
        assert scan.count(kinds.unused, 10**9, Budget()) * kinds.naming == expected


@settings(SMALL, max_examples=60)
@given(board=strategies.instances(max_side=6, max_pieces=6), data=st.data())
def test_kanren_counts_as_python_and_as_its_own_enumeration(board, data):
    # counto shares the memo counter's facts; covero's tilings, listed one by one, do not
    first = api.complete(board, (), "python")
    placed = first[: data.draw(st.integers(0, len(first) - 1))]
    question = Question(board, "count", placed=placed)
    listed = PUZZLE.solve(Question(board, "all", "cell", placed=placed), "kanren")
    counts = [PUZZLE.solve(question, backend).count for backend in ("kanren", "python")]
    assert counts == [len(listed.solutions)] * 2


def test_kanren_counts_a_board_by_its_table_of_states():
    board = generate(16, 16, 12, 2)  # 12,288 tilings, each one answer of covero: over 20 s
    answer = PUZZLE.solve(Question(board, "count", seconds=20), "kanren")
    assert answer.count == 12288 and answer.stats["order"] in ("columns", "rows")
    assert 0 < answer.stats["memo"] < answer.stats["states"] < 12288


def test_kanren_counts_the_same_when_its_table_fills_and_is_emptied(monkeypatch):
    board = generate(12, 12, 9, 3)
    monkeypatch.setattr(kanren_backend, "MEMO_CAP", 50)
    answer = PUZZLE.solve(Question(board, "count", seconds=20), "kanren")
    assert answer.count == 7296 and answer.stats["memo"] <= 50


@needs_prolog
@settings(SMALL, max_examples=30)
@given(seed=st.integers(0, 10_000), width=st.integers(2, 7), height=st.integers(2, 7), pieces=st.integers(2, 7),
       rotations=st.booleans(), min_side=st.integers(1, 2), data=st.data())
def test_both_scan_orders_of_the_prolog_memo_counter_count_every_tiling(seed, width, height, pieces, rotations,
                                                                         min_side, data):
    pieces = min(pieces, (width // min_side) * (height // min_side))
    board = generate(width, height, pieces, seed, rotations, min_side)
    first = api.complete(board, (), "python")
    question = Question(board, "count", placed=first[: data.draw(st.integers(0, len(first) - 1))])
    placed = prolog.placements(question.placed)
    plain = bridge.goal("count_tilings", "cell", question.order, placed, Var("N"))
    expected = bridge.solutions("tangram", prolog.on_instance(board, plain)).rows[0]["N"]
    for scan in ("columns", "rows"):
        memo = bridge.goal("memo_count", scan, question.order, placed, Var("N"), Var("S"))
        assert bridge.solutions("tangram", prolog.on_instance(board, memo)).rows[0]["N"] == expected


def turned_board(board):
    """The same board turned a quarter: width and height of the board and of every piece swapped."""
    return dataclasses.replace(board, width=board.height, height=board.width,
                               pieces=tuple(dataclasses.replace(p, width=p.height, height=p.width)
                                            for p in board.pieces))


def test_a_full_memo_drops_the_states_with_the_fewest_free_cells_and_counts_the_same():
    board = generate(12, 12, 9, 1, min_side=2, distinct=True)  # 2,704 tilings, 4,325 memo entries scanning columns
    question = Question(board, "count")
    kinds = python_backend.Kinds(board, question.order)
    scan = python_backend.Scan(kinds, question.free, 12, 12, False, 40)
    assert scan.count(kinds.unused, 10**9, Budget()) * kinds.naming == 2704
    assert scan.cleared > 0 and len(scan.known) <= 40
    kept = dict(scan.known)
    scan.forget(Budget())  # half or more goes: the states with the fewest free cells
    dropped = kept.keys() - scan.known.keys()
    cells = [[(key >> kinds.bits).bit_count() for key in keys] for keys in (dropped, scan.known)]
    assert len(dropped) >= len(kept) // 2 and scan.known and max(cells[0]) < min(cells[1])


@needs_prolog
def test_a_full_prolog_memo_drops_its_older_generation_and_counts_the_same():
    board = generate(12, 12, 9, 1, min_side=2, distinct=True)
    goal = prolog.on_instance(board, bridge.goal("memo_count", "columns", board.names, [], Var("N"), Var("S")))
    bridge.solutions("tangram", bridge.goal("set_setting", "memo_generation", 20))
    try:
        (row,) = bridge.solutions("tangram", goal).rows
    finally:
        bridge.solutions("tangram", bridge.goal("restore_setting", "memo_generation"))
    memo, cleared = row["S"]
    assert row["N"] == 2704 and 20 < memo <= 40 and cleared > 0
    assert bridge.solutions("tangram", goal).rows[0]["S"] == [4325, 0]


def test_the_count_scans_the_order_whose_line_is_crossed_fewer_ways_in_both_orientations():
    board = generate(20, 20, 14, 1, min_side=2, distinct=True)  # tall pieces: a column is crossed fewer ways
    answers = [PUZZLE.solve(Question(b, "count", seconds=20), "python") for b in (board, turned_board(board))]
    assert [a.count for a in answers] == [762240, 762240]
    assert [a.stats["first"] for a in answers] == ["columns", "rows"]
    assert all(a.stats["memo_cleared"] == 0 and a.stats["states"] < 100_000 for a in answers)


def test_the_issue_board_scans_rows_where_fewer_pieces_cross_a_column():
    # 24x24/16 seed 3: a column crosses 3.9 pieces on average, a row 5.1, yet columns pass 40 s where rows take 10 s
    board = generate(24, 24, 16, 3, min_side=2, distinct=True)
    assert [search_helpers.first_scan(b, b.names) for b in (board, turned_board(board))] == ["rows", "columns"]


def test_crossings_are_ordered_sets_of_pieces_filling_the_line_once_per_column_of_each():
    assert search_helpers.crossings(4, [[(1, 2)], [(3, 2)]]) == 2 * 1 * 3  # both orders of the two pieces
    assert search_helpers.crossings(4, [[(1, 2), (2, 1)], [(3, 2)], [(5, 4)]]) == 2 * 1 * 3 + 5  # or the 5x4 alone
    assert search_helpers.crossings(3, [[(1, 2)], [(3, 2)]]) == 0


@pytest.mark.pysolve_backends("prolog", "python")
@pytest.mark.parametrize("side, pieces, seed", [(12, 9, 1), (12, 9, 2), (16, 12, 3)])
def test_both_back_ends_count_in_the_chosen_order_and_both_orders_count_the_same(monkeypatch, pysolve_backend,
                                                                                 side, pieces, seed):
    board = generate(side, side, pieces, seed, min_side=2, distinct=True)
    counts = set()
    for scan in ("columns", "rows"):
        for back_end in (python_backend, prolog):
            monkeypatch.setattr(back_end, "first_scan", lambda instance, names, scan=scan: scan)
        answer = PUZZLE.solve(Question(board, "count", seconds=20), pysolve_backend)
        assert answer.stats["first" if pysolve_backend == "python" else "order"] == scan
        counts.add(answer.count)
    assert len(counts) == 1 and counts.pop() > 0


def test_generated_boards_have_sides_of_at_least_min_side_and_distinct_sizes(capsys):
    for seed in range(12):
        board = generate(20, 20, 14, seed, min_side=2, distinct=True)
        sizes = [tuple(sorted((p.width, p.height))) for p in board.pieces]
        assert len(set(sizes)) == 14 and min(min(size) for size in sizes) >= 2
    assert cli.main(["generate", "tangram", "--width", "20", "--height", "20", "--pieces", "14", "--seed", "3",
                     "--min-side", "2", "--distinct"]) == 0
    assert parse_instance(capsys.readouterr().out).pieces == generate(20, 20, 14, 3, min_side=2, distinct=True).pieces
    with pytest.raises(InputError, match="--pieces 30: choose 1 to 25"):
        generate(10, 10, 30, 1, min_side=2)


@SMALL
@given(seed=st.integers(0, 10_000), side=st.integers(4, 8), pieces=st.integers(2, 6))
def test_counts_on_generated_boards_agree_on_every_back_end(pysolve_backends, seed, side, pieces):
    # distinct sizes only where they exist: a 4x5 board has no cut into 4 distinct pieces with sides of 2
    board = generate(side, side + 1, pieces, seed, min_side=2 if pieces < 5 else 1, distinct=pieces < 5 and side >= 5)
    report = agreed(Question(board, "count", seconds=30), pysolve_backends)
    assert report.results["python"].count >= 1


def test_building_the_placement_table_spends_the_budget():
    big = generate(64, 64, 12, 1)
    with pytest.raises(SearchLimitExceeded, match="time limit of 1e-06 s"):
        big.slots_within(Budget(seconds=1e-6, label="tangram search"))
    assert big.slots_within(Budget()) and sum(map(len, big.slots.values())) == big.slot_count


# ---------------------------------------------------------------- the rule base

def on_classic(goal):
    """`goal` inside with_instance/5 on the classic board, run in tangram.pl."""
    return bridge.solutions("tangram", prolog.on_instance(load_instance(), goal))


@needs_prolog
@pytest.mark.parametrize("goal", [
    bridge.goal("tiling", "bogus", CLASSIC_ORDER, [], Var("T")),
    bridge.goal("count_tilings", "bfs", CLASSIC_ORDER, [], Var("N")),
    bridge.goal("all_tilings", 3, CLASSIC_ORDER, [], Var("Ts")),
    bridge.goal("memo_count", "diagonal", CLASSIC_ORDER, [], Var("N"), Var("S")),
])
def test_rule_base_raises_on_a_bad_strategy(goal):
    with pytest.raises(PrologError, match="tangram_strategy|Type error|Domain error"):
        on_classic(goal)


@needs_prolog
def test_rule_base_raises_on_a_bad_instance_or_piece():
    with pytest.raises(PrologError, match="tangram_piece"):
        on_classic(bridge.goal("piece_options", "purple", [], Var("Os")))
    bad = bridge.goal("with_instance", 0, 10, [["a", 1, 1]], False, bridge.goal("board", Var("W"), Var("H")))
    with pytest.raises(PrologError, match="positive_integer"):
        bridge.solutions("tangram", bad)
    with pytest.raises(PrologError, match="no instance is chosen: ask inside with_instance/5"):
        bridge.solutions("tangram", bridge.goal("board", Var("W"), Var("H")))  # no instance outside with_instance/5


def instance_facts() -> dict[str, int]:
    """How many of each thread-local instance fact tangram.pl holds now."""
    def held(name: str, arity: int) -> int:
        goal = bridge.goal("aggregate_all", "count", bridge.goal(name, *[Var("_")] * arity), Var("N"))
        return bridge.solutions("tangram", goal).rows[0]["N"]

    return {name: held(name, arity) for name, arity in INSTANCE_FACTS}


@needs_prolog
@pytest.mark.parametrize("question", [
    Question(load_instance()),                                          # cut after the first answer
    Question(load_instance(), "all", "cell"),                           # every answer
    Question(load_instance(), "options", piece="red"),
    Question(load_instance(), "validate"),
    Question(generate(20, 20, 14, 2, min_side=2, distinct=True), "count", seconds=0.2),  # stopped by its limit
], ids=["first", "all", "options", "validate", "stopped"])
def test_no_instance_facts_are_left_after_a_query(question):
    answer = PUZZLE.solve(question, "prolog")
    assert (answer.status == UNKNOWN) == (question.seconds < 1)
    assert instance_facts() == {name: 0 for name, _ in INSTANCE_FACTS}
    inside = bridge.goal("aggregate_all", "count", bridge.goal("slot", *[Var("_")] * 7), Var("N"))
    assert on_classic(inside).rows[0]["N"] > 0  # the same count sees the facts while with_instance/5 runs


# ---------------------------------------------------------------- bad input

@pytest.mark.parametrize("text, message", [
    ("piece 1 a #112233 1 1\n", "no 'board"),
    ("board 2 x\n", ":1: board size 'x' is not an integer"),
    ("board 1 1\nboard 1 1\n", ":2: a second 'board'"),
    ("board 2 1\npiece 1 a #112233 1 1\npiece 1 b #112233 1 1\n", ":3: key '1' used by a and b"),
    ("board 2 1\npiece 1 a red 1 1\n", ":2: colour 'red' of a must be #rrggbb"),
    ("board 2 1\npiece 1 a #112233 1\n", ":2: expected 'piece KEY NAME COLOUR WIDTH HEIGHT'"),
    ("board 2 1\nshape 1\n", ":2: unknown statement 'shape'"),
    ("board 2 1\npiece 1 a #112233 3 1\n", "a (3x1) does not fit the 2x1 board"),
    ("board 2 2\npiece 1 a #112233 1 1\n", "the pieces cover 1 cells but the 2x2 board has 4"),
    ("board 2 1\npiece 1 a #112233 2 1\nplace b 0 0\n", ":3: unknown piece 'b'"),
    ("board 2 1\npiece 1 a #112233 2 1\nplace a 0 0 1 2\n", ":3: a cannot lie as 1x2"),
    ("board 2 1\npiece 1 a #112233 2 1\nplace a 0 0\nplace a 0 0\n", "piece a is placed twice"),
])
def test_malformed_files_say_what_and_where(text, message):
    with pytest.raises(InputError, match=None) as caught:
        parse_instance(text, "bad.txt")
    assert message in str(caught.value)
    assert str(caught.value).startswith("bad.txt")


def test_unknown_piece_names_the_known_ones(classic):
    with pytest.raises(UnknownName, match="unknown piece 'purple'.*green, blue"):
        api.options(classic, (), "purple")


@pytest.mark.parametrize("argv, message", [
    (["--start", "purple"], "unknown piece 'purple'"),
    (["--place", "green:0,0", "--place", "blue:0,1"], "green and blue overlap on 4 cell(s)"),
    (["--place", "red:8,0"], "red sticks out of the 10x10 board"),
    (["--place", "green 0 0"], "expected NAME:X,Y"),
    (["--all", "--strategy", "bfs"], "bfs finds the first tiling only"),
    (["--strategy", "bfs", "--start", "red", "--place", "red:0,0"], "--start red: that piece is already placed"),
    (["no-such-file.txt"], "tangram file 'no-such-file.txt': no such file"),
    (["--all", "--count"], "--count: not allowed with argument --all"),
    (["--seconds", "0"], "--seconds: 0.0 is not greater than 0"),
])
def test_cli_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    assert cli.main(["solve", "tangram", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_cli_area_mismatch(capsys, tmp_path):
    path = tmp_path / "short.txt"
    path.write_text("board 3 3\npiece 1 a #112233 2 2\n")
    assert cli.main(["solve", "tangram", str(path)]) == 2
    assert "the pieces cover 4 cells but the 3x3 board has 9, so no tiling exists" in capsys.readouterr().err


# ---------------------------------------------------------------- the CLI and pictures

def test_cli_json_contract(capsys):
    assert cli.main(["solve", "tangram", "--all", "--backend", "python", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["count"] == 36 and data["backend"] == "python"
    assert [list(p) for p in data["solutions"][0]] == [["piece", "x", "y"]] * 6
    assert triples(data["solutions"][0]) == FIRST_DFS
    assert cli.main(["solve", "tangram", "--count", "--strategy", "cell", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["count"] == 36


def test_cli_text_grid_and_svg(capsys, tmp_path):
    out = tmp_path / "first.svg"
    assert cli.main(["solve", "tangram", "--backend", "kanren", "--svg", str(out)]) == 0
    captured = capsys.readouterr()
    rows = captured.out.splitlines()
    assert " 9 4 4 4 4 4 4 4 6 6 6" in rows and " 0 1 1 1 1 5 5 5 3 3 3" in rows
    assert f"wrote {out}" in captured.err
    picture = out.read_text()
    rects = [e for e in ElementTree.fromstring(picture).iter("{http://www.w3.org/2000/svg}rect")
             if e.get("stroke-width") == "2"]
    assert [(r.get("x"), r.get("y"), r.get("width"), r.get("height")) for r in rects][:2] == [
        ("0", "256", "128", "64"), ("0", "96", "128", "160")]  # green (0,0) 4x2 and blue (0,2) 4x5, y upwards
    assert 'fill="#2e9e4f"' in picture and ">6</text>" in picture


def test_coloured_grid_uses_piece_colours(classic):
    tiling = [make_placement(classic, *triple) for triple in FIRST_DFS]
    grid = draw.text_grid(classic, tiling, colour=True)
    assert "\x1b[" in grid and "48;2;46;158;79m1 " in grid  # green #2e9e4f behind key 1


@pytest.mark.slow
def test_cli_crosscheck_and_generate(capsys):
    assert cli.main(["crosscheck", "tangram", "--strategy", "bfs", "--start", "pink"]) == 0
    verdict = capsys.readouterr().out.splitlines()[-1]  # with Prolog hidden: the two others agree, Prolog named
    assert verdict.startswith(("all back ends agree", "the answers of kanren, python agree"))
    assert cli.main(["generate", "tangram", "--width", "6", "--height", "4", "--pieces", "5", "--seed", "3"]) == 0
    instance = parse_instance(capsys.readouterr().out)
    assert (instance.width, instance.height, len(instance.pieces)) == (6, 4, 5)
    assert generate(6, 4, 5, 3) == instance
    assert api.count(instance) >= 1


def test_shipped_format_round_trips(classic):
    assert parse_instance(classic.to_text(), "classic") == classic
    readme = Path(__file__).parents[1] / "data" / "tangram" / "README.md"
    assert "piece KEY NAME COLOUR WIDTH HEIGHT" in readme.read_text()


@needs_prolog
def test_placement_cells_in_board_order():
    assert Placement("a", 1, 2, 2, 3).cells() == [(1, 2), (1, 3), (1, 4), (2, 2), (2, 3), (2, 4)]
    rows = bridge.solutions("tangram", bridge.goal("placement_cells", ["a", 1, 2, 2, 3], Var("Cs"))).rows
    assert rows[0]["Cs"] == [[1, 2], [1, 3], [1, 4], [2, 2], [2, 3], [2, 4]]


@pytest.mark.subprocess
def test_without_prolog_kanren_and_python_still_answer():
    script = ("from pysolve.tangram.api import load_instance, count, options\n"
              "from pysolve.tangram.puzzle import PUZZLE\n"
              "from pysolve.tangram.model import Question\n"
              "print(count(load_instance(), backend='kanren'), len(options(load_instance(), (), 'red', 'python')),\n"
              "      PUZZLE.default_backend(Question(load_instance())))\n"
              "try:\n    PUZZLE.solve(Question(load_instance()), 'prolog')\n"
              "except Exception as error:\n    print(type(error).__name__)\n")
    env = {**os.environ, "PYSOLVE_NO_PROLOG": "1"}
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
    assert done.stdout.split() == ["36", str(8 * 3), "kanren", "BackendUnavailable"], done.stderr


@pytest.mark.pysolve_backends("prolog", "python")
def test_cli_validates_the_place_lines_of_a_file(pysolve_backend, capsys, tmp_path):
    path = tmp_path / "attempt.txt"
    path.write_text(load_instance().to_text() + "place green 0 0\nplace blue 0 1   # one row too low\n")
    assert cli.main(["solve", "tangram", str(path), "--validate", "--backend", pysolve_backend]) == 0
    out = capsys.readouterr().out
    assert "not a tiling: green and blue overlap on 4 cell(s)" in out and "not a tiling: yellow is not placed" in out
    assert " 1 ! ! ! ! . . . . . ." in out.splitlines()
    assert cli.main(["solve", "tangram", str(path)]) == 2
    assert "green and blue overlap" in capsys.readouterr().err
