"""Sudoku: formats, bad input, known answers on every back end, counts, validation, batches, budgets, generator."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pysolve
from pysolve import bridge
from pysolve.agreement import crosscheck
from pysolve.budget import Budget
from pysolve.cli import main
from pysolve.errors import InputError, PrologError
from pysolve.paths import data_dir
from pysolve.puzzle import NO_SOLUTION, SOLVED, UNKNOWN
from pysolve.pytest_plugin import assert_backends_agree, needs_prolog
from pysolve.sudoku import draw, generate, instances, model, python
from pysolve.sudoku.model import Question
from pysolve.sudoku.puzzle import PUZZLE

DATA = data_dir() / "sudoku"

# The well-known solutions: the Wikipedia article's puzzle, Project Euler 96's Grid 01 (Norvig's first
# example), and Norvig's first hard puzzle (line 1 of top95.txt), as his essay prints them.
WIKIPEDIA = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
EULER_01 = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
TOP95_1 = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
EMPTY_4X4_GRIDS = 288  # the number of complete 4x4 sudoku grids
# Made against reading-order backtracking (the Wikipedia article on Sudoku solving algorithms): its first
# row is 987654321, reached after a very long walk.
AGAINST_BACKTRACKING = "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9"
NO_WAY_4X4 = ".23..1..4......."  # row 1 column 1 can hold nothing: 2, 3 in its row, 4 in its column, 1 in its box


def grid(line: str) -> list[list[int]]:
    """An 81-character solution line as rows of integers."""
    return [[int(char) for char in line[r * 9:(r + 1) * 9]] for r in range(9)]


def board(line: str) -> model.Board:
    """The one puzzle on `line`."""
    (read,) = model.parse(line, "test")
    return read


def question(line: str, **options) -> Question:
    """A question about the puzzle on `line`."""
    return Question(board(line), "test", **options)


def write(tmp_path: Path, text: str, name: str = "puzzle.txt") -> str:
    """A file with `text` in tmp_path."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of one `pysolve` command run in this process."""
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


# --- formats -----------------------------------------------------------------------------------------


def test_the_grid_and_the_line_forms_read_the_same_boards():
    (grid_form,) = model.load(DATA / "wikipedia.txt")
    easy = model.load(DATA / "easy.txt")
    assert grid_form.cells == easy[0].cells and grid_form.line == 0 and easy[1].line == 2
    assert grid_form.size == 9 and grid_form.givens == 30 and grid_form.rows()[0] == [5, 3, 0, 0, 7, 0, 0, 0, 0]
    (numbers,) = model.load(DATA / "sixteen-grid.txt")
    assert numbers.cells == model.load(DATA / "sixteen.txt")[0].cells and numbers.size == 16
    assert 16 in numbers.cells and 10 in numbers.cells  # G and A in the line form


def test_the_shipped_sets_hold_every_size():
    assert [len(model.load(DATA / name)) for name in ("top95.txt", "hardest.txt", "easy.txt")] == [95, 11, 2]
    assert sorted({b.size for b in model.load(DATA / "small.txt")}) == [4, 6]
    assert {b.size for b in model.load(DATA / "sixteen.txt")} == {16}


@pytest.mark.parametrize("text", [
    "5 3 . . 7 . . . .\n6 . . 1 9 5 . . .\n. 9 8 . . . . 6 .\n8 . . . 6 . . . 3\n4 . . 8 . 3 . . 1\n"
    "7 . . . 2 . . . 6\n. 6 . . . . 2 8 .\n. . . 4 1 9 . . 5\n. . . . 8 . . 7 9\n",
    "530070000\n600195000\n098000060\n800060003\n400803001\n700020006\n060000280\n000419005\n000080079\n",
    "# comment\n\n" + "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n",
])
def test_spellings_of_one_puzzle_read_alike(text):
    assert model.parse(text, "t")[0].cells == model.load(DATA / "easy.txt")[0].cells


@pytest.mark.parametrize("size", [4, 6, 9, 16])
def test_the_text_drawing_reads_back_and_the_line_form_too(size):
    data = generate.generate(size, seed=3) if size < 16 else None
    rows = data["puzzle"] if data else model.load(DATA / "sixteen.txt")[0].rows()
    assert model.parse(draw.text(rows), "drawn")[0].rows() == rows
    assert model.parse(model.to_line(rows), "line")[0].rows() == rows


def test_sixteen_lines_of_sixteen_characters_are_one_16x16_grid():
    line = model.to_line(model.load(DATA / "sixteen.txt")[0].rows())
    boards = model.parse("\n".join(line[r * 16:(r + 1) * 16] for r in range(16)), "t")
    assert len(boards) == 1 and boards[0].size == 16


# --- bad input -------------------------------------------------------------------------------------------

WIKI = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


@pytest.mark.parametrize("text, message", [
    (WIKI + "\n" + WIKI[:80] + "\n", "line 2: 80 characters; a puzzle line has 16, 36, 81 or 256"),
    (WIKI[:80] + "\n", "line 1: 80 cells; a grid row has 4, 6, 9 or 16"),
    (WIKI[:10] + "x" + WIKI[11:], "line 1, character 11: 'x' is not a value (1-9) or '.'/'0' for empty"),
    ("1234" + "." * 11 + "5", "line 1, character 16: '5' is out of range for a 4x4 sudoku (values 1-4)"),
    ("5" + WIKI[1:3] + "5" + WIKI[4:], "line 1: 5 is given twice in row 1 (row 1 column 1 and row 1 column 4)"),
    ("5 3 . . 7 . . . .\n6 . . 1 9 5 . .\n", "line 2: 8 cells; every row of this 9x9 grid has 9 (ragged rows)"),
    ("12..\n..12\n....\n", "3 rows of 4 cells; a 4x4 grid has 4 rows"),
    ("1 2 . .\n. . 1 .\n. . . .\n. . 1 .\n", "line 4: 1 is given twice in column 3 (row 2 column 3 and row 4"),
    ("12345\n", "line 1: 5 cells; a grid row has 4, 6, 9 or 16"),
    ("# only a comment\n\n", "no puzzle"),
])
def test_bad_puzzles_exit_2_with_one_line_naming_file_line_and_problem(tmp_path, capsys, text, message):
    path = write(tmp_path, text)
    code, out, err = run(["solve", "sudoku", path, "--backend", "python"], capsys)
    assert code == 2 and out == ""
    assert message in err and path in err and err.count("\n") == 1, err
    with pytest.raises(InputError, match=re.escape(path)):
        pysolve.solve("sudoku", path, backend="python")


@pytest.mark.parametrize("args, message", [
    (["--validate"], "cannot validate, row 1 column 3 is empty"),
    (["--validate", "--count", "2"], "--validate checks a filled grid; it takes no --count"),
    (["--index", "3"], "--index 3: "),
    (["--count", "0"], "--count: 0 is not greater than 0"),
    (["--strategy", "clever"], "'clever' is not one of fast, plain"),
])
def test_bad_options_exit_2_with_one_line(capsys, args, message):
    code, _, err = run(["solve", "sudoku", str(DATA / "easy.txt"), *args], capsys)
    assert code == 2 and message in err and err.count("\n") == 1, err


def test_crosscheck_of_a_file_of_many_checks_each_or_the_one_asked(capsys):
    code, out, _ = run(["crosscheck", "sudoku", str(DATA / "easy.txt"), "--backends", "python,kanren"], capsys)
    lines = out.splitlines()
    assert code == 0 and [line.split(".")[0] for line in lines[:2]] == ["1", "2"]
    assert lines[-1] == "all 2 sudoku questions agree across back ends"
    code, out, _ = run(["crosscheck", "sudoku", str(DATA / "easy.txt"), "--index", "2", "--count", "2"], capsys)
    assert code == 0 and out.splitlines()[-1].startswith(("all back ends agree", "the answers of kanren, python agree"))


@pytest.mark.slow
@pytest.mark.parametrize("file, index", [("sixteen-grid.txt", 1), ("sixteen.txt", 1), ("sixteen.txt", 2),
                                         ("sixteen.txt", 3)])
def test_every_back_end_proves_the_16x16_puzzles_unique(pysolve_backends, file, index):
    report = assert_backends_agree(PUZZLE, question=PUZZLE.question(file=str(DATA / file), index=index, count=2))
    assert set(report.results) == set(pysolve_backends)
    assert {answer.count for answer in report.results.values()} == {1}


@pytest.mark.slow
@pytest.mark.parametrize("file", ["top95.txt", "hardest.txt"])
def test_minikanren_solves_every_hard_puzzle_as_python_does(file):
    for index in range(1, len(model.load(DATA / file)) + 1):
        asked = PUZZLE.question(file=str(DATA / file), index=index, count=2)
        kanren, reference = PUZZLE.solve(asked, "kanren"), PUZZLE.solve(asked, "python")
        assert (kanren.status, kanren.count, kanren.solutions) == (SOLVED, 1, reference.solutions), index


@needs_prolog
def test_the_rule_base_loads_and_refuses_a_bad_strategy_or_board():
    assert bridge.load("sudoku") == "sudoku"
    rows = board(WIKI).rows()
    with pytest.raises(PrologError, match="`sudoku_strategy' expected, found `clever'"):
        bridge.solutions("sudoku", bridge.goal("solution", "clever", rows, bridge.Var("S")))
    with pytest.raises(PrologError, match="`sudoku_board' expected"):
        bridge.solutions("sudoku", bridge.goal("solution", "clpfd", rows[:8], bridge.Var("S")))
    shapes = bridge.solutions("sudoku", "findall(N-R-C, box_shape(N, R, C), S)").rows[0]["S"]
    assert len(shapes) == 4


# --- known answers ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("strategy", ["fast", "plain"])
@pytest.mark.parametrize("index, solution", [(1, WIKIPEDIA), (2, EULER_01)])
def test_every_back_end_solves_the_classics_exactly(pysolve_backend, strategy, index, solution):
    asked = PUZZLE.question(file=str(DATA / "easy.txt"), index=index, count=2, strategy=strategy)
    answer = PUZZLE.solve(asked, pysolve_backend)
    assert answer.status == SOLVED and answer.count == 1 and answer.solutions == [grid(solution)]


@pytest.mark.pysolve_backends("prolog", "python")
def test_python_and_prolog_solve_norvigs_first_hard_puzzle_exactly(pysolve_backend):
    answer = PUZZLE.solve(PUZZLE.question(file=str(DATA / "top95.txt"), index=1, count=2), pysolve_backend)
    assert answer.count == 1 and answer.solutions == [grid(TOP95_1)]


@pytest.mark.parametrize("strategy", ["fast", "plain"])
def test_the_empty_4x4_grid_has_288_solutions_everywhere(pysolve_backends, strategy):
    report = assert_backends_agree(PUZZLE, question=question("." * 16, count=300, strategy=strategy))
    assert set(report.results) == set(pysolve_backends)
    assert {answer.count for answer in report.results.values()} == {EMPTY_4X4_GRIDS}


def test_a_count_stopping_at_its_limit_agrees_without_comparing_which(pysolve_backends):
    report = assert_backends_agree(PUZZLE, question=question("." * 16, count=5))
    assert {answer.count for answer in report.results.values()} == {5}
    assert PUZZLE.canonical(next(iter(report.results.values())))["solutions"] == "at least 5"


@pytest.mark.parametrize("strategy", ["fast", "plain"])
def test_an_impossible_4x4_board_has_no_solution_everywhere(strategy):
    report = assert_backends_agree(PUZZLE, question=question(NO_WAY_4X4, count=2, strategy=strategy))
    assert {answer.status for answer in report.results.values()} == {NO_SOLUTION}


def test_a_question_built_by_hand_with_a_repeated_given_has_no_solution(pysolve_backends):
    bad = Question(model.make_board([[1, 1, 0, 0]] + [[0] * 4] * 3), "by hand", count=2, strategy="plain")
    report = assert_backends_agree(PUZZLE, question=bad)
    assert {answer.status for answer in report.results.values()} == {NO_SOLUTION}


# --- validation --------------------------------------------------------------------------------------


def test_validation_accepts_the_solution_on_every_back_end(pysolve_backends, tmp_path):
    report = crosscheck(PUZZLE, PUZZLE.question(file=write(tmp_path, WIKIPEDIA), validate=True))
    assert report.agree, report.difference
    assert set(report.results) == set(pysolve_backends)
    assert all(answer.status == SOLVED for answer in report.results.values())


def test_validation_names_the_units_that_break(pysolve_backends, tmp_path, capsys):
    swapped = "35" + WIKIPEDIA[2:]  # the first two cells swapped: columns 1 and 2 break, row 1 and box 1 hold
    path = write(tmp_path, swapped)
    report = crosscheck(PUZZLE, PUZZLE.question(file=path, validate=True))
    assert report.agree, report.difference
    assert set(report.results) == set(pysolve_backends)
    for answer in report.results.values():
        assert answer.status == NO_SOLUTION and answer.stats["broken"] == [["column", 1, 3], ["column", 2, 5]]
    code, out, _ = run(["solve", "sudoku", path, "--validate", "--backend", "python"], capsys)
    assert code == 0 and "not a solution: column 1 holds 3 more than once; column 2 holds 5 more than once" in out


def test_validation_reports_rows_columns_and_boxes_in_order(pysolve_backends, tmp_path):
    repeated = "1" * 16  # every unit of a 4x4 grid holds 1 four times
    report = crosscheck(PUZZLE, PUZZLE.question(file=write(tmp_path, repeated), validate=True))
    assert report.agree, report.difference
    assert set(report.results) == set(pysolve_backends)
    for answer in report.results.values():
        assert answer.stats["broken"] == [[kind, k, 1] for kind in ("row", "column", "box") for k in range(1, 5)]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(size=st.sampled_from([4, 6, 9, 16]), seed=st.integers(0, 2**32 - 1), first=st.integers(0, 255),
       second=st.integers(0, 255), swap=st.booleans())
def test_random_filled_grids_validate_alike_on_every_back_end(pysolve_backends, tmp_path, size, seed, first, second,
                                                                swap):
    """Random full grids, and the same with two cells swapped: every back end names the same broken units."""
    cells = generate.full_grid(size, random.Random(seed))
    if swap:
        one, other = first % len(cells), second % len(cells)
        cells[one], cells[other] = cells[other], cells[one]
    board = model.Board(tuple(cells))
    text = "".join(model.symbol(value) for value in cells)
    report = crosscheck(PUZZLE, PUZZLE.question(file=write(tmp_path, text), validate=True))
    assert report.agree and set(report.results) == set(pysolve_backends), report.difference
    assert report.results["python"].stats["broken"] == model.broken(board)


# --- the command line: one puzzle, a batch, pictures ---------------------------------------------------------------


def test_solve_json_has_solutions_count_and_stats(capsys):
    code, out, _ = run(["solve", "sudoku", str(DATA / "wikipedia.txt"), "--count", "2", "--backend", "python",
                        "--json"], capsys)
    data = json.loads(out)
    assert code == 0 and data["count"] == 1 and data["solutions"] == [grid(WIKIPEDIA)]
    assert data["status"] == SOLVED and "seconds" in data["stats"] and data["question"]["size"] == 9


def test_a_file_of_many_puzzles_is_answered_in_order_in_one_json_document(tmp_path, capsys):
    path = write(tmp_path, f"{WIKI}\n# a 4x4 one\n{'.' * 16}\n{NO_WAY_4X4}\n")
    code, out, err = run(["solve", "sudoku", path, "--json", "--backend", "python"], capsys)
    document = json.loads(out)
    answers = document["answers"]
    assert (document["puzzle"], document["questions"], document["statuses"]) == ("sudoku", 3, {NO_SOLUTION: 1,
                                                                                                SOLVED: 2})
    assert len(out.splitlines()) == 5  # an answer a line, as each comes, between the head and the statuses
    assert code == 0 and [answer["question"]["line"] for answer in answers] == [1, 3, 4]
    assert [answer["question"]["index"] for answer in answers] == [1, 2, 3]
    assert [answer["status"] for answer in answers] == [SOLVED, SOLVED, NO_SOLUTION]
    assert answers[0]["solutions"] == [grid(WIKIPEDIA)] and len(answers[1]["solutions"][0]) == 4
    assert "3 sudoku questions: 1 no solution, 2 solved" in err


def test_a_batch_in_text_numbers_each_answer_and_index_picks_one(capsys):
    code, out, _ = run(["solve", "sudoku", str(DATA / "easy.txt"), "--backend", "python"], capsys)
    assert code == 0 and out.startswith("# 1\n5 3 4 | 6 7 8 | 9 1 2\n") and "# 2\n4 8 3 | 9 2 1 | 6 5 7" in out
    code, out, _ = run(["solve", "sudoku", str(DATA / "easy.txt"), "--index", "2", "--count", "2",
                        "--backend", "python"], capsys)
    assert code == 0 and out.startswith("4 8 3 | 9 2 1 | 6 5 7") and "1 solution: unique" in out


def test_svg_shows_givens_bold_and_filled_values_blue(tmp_path, capsys):
    out = tmp_path / "wiki.svg"
    code, _, err = run(["solve", "sudoku", str(DATA / "wikipedia.txt"), "--backend", "python", "--svg", str(out)],
                       capsys)
    picture = out.read_text()
    assert code == 0 and "wrote" in err and picture.startswith("<svg")
    assert picture.count("<text") == 81 and picture.count('font-weight="bold"') == 30
    assert picture.count('stroke-width="3"') == 8  # the outer frame and the box rules, both ways


# --- the shipped sets, cross-checked ------------------------------------------------------------------------------


@pytest.mark.slow
def test_python_proves_every_hard_puzzle_unique_quickly():
    boards = model.load(DATA / "top95.txt") + model.load(DATA / "hardest.txt")
    for read in boards:
        found = python.search(read, 2, python.FAST, Budget(seconds=5))
        assert len(found.solutions) == 1 and model.solves(read, found.solutions[0]), read.line


@needs_prolog
@pytest.mark.parametrize("name, index", [("hardest.txt", k) for k in (1, 4, 7, 10)]
                         + [("top95.txt", k) for k in (2, 30, 60, 95)])
def test_hard_puzzles_agree_on_prolog_and_python(name, index):
    asked = PUZZLE.question(file=str(DATA / name), index=index, count=2)
    report = crosscheck(PUZZLE, asked, only=["prolog", "python"])
    assert report.none_differ, report.difference
    assert not report.skipped, report.difference
    assert all(answer.count == 1 for answer in report.results.values())


@pytest.mark.parametrize("index", range(1, 11))
def test_the_small_puzzles_agree_on_every_back_end(pysolve_backends, index):
    report = assert_backends_agree(PUZZLE, str(DATA / "small.txt"), index=index, count=2)
    assert all(answer.count == 1 for answer in report.results.values())


@pytest.mark.slow
def test_16x16_is_unique_and_python_solves_it_within_a_second():
    asked = PUZZLE.question(file=str(DATA / "sixteen-grid.txt"), count=2)
    report = crosscheck(PUZZLE, asked)
    assert report.none_differ and report.results["python"].count == 1
    assert report.results["python"].stats["cpu_seconds"] < 1


# --- budgets ---------------------------------------------------------------------------------------------------


def test_a_budget_stops_every_back_end_with_unknown(pysolve_backend):
    asked = Question(board("." * 81), "test", strategy="plain", count=10**9, nodes=300, seconds=0.3)
    answer = PUZZLE.solve(asked, pysolve_backend)
    assert answer.status == UNKNOWN and "passed its" in answer.stats["reason"]


@pytest.mark.pysolve_backends("prolog", "python")  # miniKanren's propagation solves it in fewer than 300 nodes
def test_the_puzzle_against_backtracking_passes_a_plain_search_budget(pysolve_backend):
    asked = Question(board(AGAINST_BACKTRACKING), "test", strategy="plain", nodes=300, seconds=0.3)
    answer = PUZZLE.solve(asked, pysolve_backend)
    assert answer.status == UNKNOWN and "passed its" in answer.stats["reason"]


def test_the_fast_search_spends_its_node_budget_too():
    hard = model.load(DATA / "top95.txt")[10]  # one that needs a search (57 nodes to count to 2)
    found = python.search(hard, 2, python.FAST, Budget(nodes=3))
    assert found.status == UNKNOWN and found.stats["reason"] == "search passed its budget of 3 nodes"


# --- the generator ------------------------------------------------------------------------------------------------


def test_generate_is_deterministic_and_its_text_is_a_puzzle_file(tmp_path, capsys):
    args = ["generate", "sudoku", "--seed", "7", "--json"]
    first, second = run(args, capsys), run(args, capsys)
    data = json.loads(first[1])
    assert first[0] == 0 and json.loads(second[1]) == data
    assert data["seed"] == 7 and data["size"] == 9
    assert data["difficulty"]["label"] in ("easy", "medium", "hard", "expert")
    assert model.solves(model.make_board(data["puzzle"]), data["solution"])
    _, text, _ = run(["generate", "sudoku", "--seed", "7"], capsys)
    path = write(tmp_path, text)
    _, out, _ = run(["solve", "sudoku", path, "--count", "2", "--json", "--backend", "python"], capsys)
    assert json.loads(out)["solutions"] == [data["solution"]]


def test_generate_stops_at_the_givens_asked_for_and_refuses_too_many(capsys):
    code, out, _ = run(["generate", "sudoku", "--size", "6", "--seed", "2", "--givens", "20", "--json"], capsys)
    assert code == 0 and json.loads(out)["givens"] == 20
    code, _, err = run(["generate", "sudoku", "--size", "4", "--givens", "17"], capsys)
    assert code == 2 and "--givens 17 is not between 0 and 16" in err
    code, _, err = run(["generate", "sudoku", "--size", "5"], capsys)
    assert code == 2 and "--size: 5 is not one of 4, 6, 9, 16" in err


@settings(max_examples=10, deadline=None)
@given(size=st.sampled_from([4, 6, 9]), seed=st.integers(0, 10**6))
def test_generated_puzzles_are_unique_on_every_back_end(pysolve_backends, size, seed):
    # minimal 9x9 puzzles take miniKanren's plain walk many seconds: those keep 36 givens
    data = generate.generate(size, seed, givens=36 if size == 9 else None)
    asked = Question(model.make_board(data["puzzle"]), "generated", count=2, seconds=60)
    report = assert_backends_agree(PUZZLE, question=asked)
    assert set(report.results) == set(pysolve_backends)
    assert all(answer.solutions == [data["solution"]] for answer in report.results.values())


@settings(max_examples=10, deadline=None)
@given(rows=instances.boards(max_side=4))
def test_random_4x4_boards_agree_on_how_many_solutions(pysolve_backends, rows):
    for strategy in ("fast", "plain"):
        asked = Question(model.make_board(rows), "random", count=300, strategy=strategy)
        report = assert_backends_agree(PUZZLE, question=asked)
        assert len({answer.count for answer in report.results.values()}) == 1


@pytest.mark.slow
@needs_prolog
@settings(max_examples=10, deadline=None)
@given(size=st.sampled_from([4, 6, 9]), seed=st.integers(0, 10**6), blanks=st.integers(0, 2))
def test_the_propagating_search_is_the_same_search_in_prolog_and_python(size, seed, blanks):
    """Same fixpoint, same branching cell and order: the same solutions in the same order; CLP(FD) finds the
    same set (a generated puzzle with up to 2 givens taken away: up to some thousands of solutions)."""
    data = generate.generate(size, seed)
    cells = [value for row in data["puzzle"] for value in row]
    givens = [k for k, value in enumerate(cells) if value]
    for k in givens[seed % len(givens):][:blanks]:
        cells[k] = 0
    rows = [cells[r * size:(r + 1) * size] for r in range(size)]
    limit = 20_000
    in_python = python.search(model.make_board(rows), limit, python.FAST, Budget(seconds=60))
    every = {strategy: [row["S"] for row in bridge.solutions("sudoku", bridge.goal("limit", limit, bridge.goal(
        "solution", strategy, rows, bridge.Var("S"))), seconds=60).require_complete(strategy).rows]
        for strategy in ("fast", "clpfd")}
    assert in_python.status == SOLVED and in_python.solutions == every["fast"]
    if len(every["fast"]) < limit:
        assert sorted(every["clpfd"]) == sorted(every["fast"])
    else:
        assert len(every["clpfd"]) == limit


@needs_prolog
def test_16x16_values_above_9_cross_from_prolog_intact():
    asked = PUZZLE.question(file=str(DATA / "sixteen-grid.txt"), count=2)
    answer = PUZZLE.solve(asked, "prolog")
    assert answer.count == 1 and PUZZLE.solves(asked.board.rows(), answer.solutions[0])
    assert sorted(answer.solutions[0][0]) == list(range(1, 17))


@needs_prolog
def test_a_count_of_thousands_agrees_grid_for_grid():
    """The Wikipedia puzzle without its first 7 givens has 2,484 solutions: Prolog and Python list the same
    grids (miniKanren's walk would take minutes here)."""
    cells = [value for row in board(WIKI).rows() for value in row]
    for k in [k for k, value in enumerate(cells) if value][:7]:
        cells[k] = 0
    asked = Question(model.make_board([cells[r * 9:(r + 1) * 9] for r in range(9)]), "open", count=10**6, seconds=60)
    report = assert_backends_agree(PUZZLE, question=asked, backends=["prolog", "python"])
    assert {answer.count for answer in report.results.values()} == {2484}


# --- the propagating search's rules against brute force -----------------------------------------------------------


ALL_4X4 = [tuple(value for row in grid for value in row)
           for grid in python.search(model.Board((0,) * 16), 10**3, python.PLAIN, Budget()).solutions]


def grids_within(masks: list[int]) -> list[tuple[int, ...]]:
    """The complete 4x4 grids whose every cell holds a value its mask allows (bit v-1 for v)."""
    return [cells for cells in ALL_4X4 if all(mask >> (value - 1) & 1 for mask, value in zip(masks, cells))]


def narrowed_by(rule: str, masks: list[int]) -> tuple[bool, list[int], list[int], set[int]]:
    """One pass of the fast search's `rule` (locked or pairs) over all of a 4x4 board with these masks:
    (no contradiction, masks after, cells left one value, units changed)."""
    search = python.Propagation(model.Board((0,) * 16), 1, Budget())
    after, singles, changed = masks[:], [], set()
    every = {"locked": set(range(len(search.bands))), "pairs": set(range(len(search.units)))}[rule]
    ok = getattr(search, rule)(after, singles, changed, every)
    return ok, after, singles, changed


def locked(masks: list[int]) -> tuple[bool, list[int], list[int], set[int]]:
    """Locked candidates on every band of a 4x4 board with these masks (narrowed_by)."""
    return narrowed_by("locked", masks)


def test_every_4x4_grid_is_known():
    assert len(ALL_4X4) == EMPTY_4X4_GRIDS == len(set(ALL_4X4))


@settings(max_examples=300, deadline=None)
@given(rule=st.sampled_from(["locked", "pairs"]), masks=st.lists(st.integers(1, 15), min_size=16, max_size=16))
def test_locked_candidates_and_naked_pairs_keep_every_grid_the_masks_allow(rule, masks):
    ok, after, singles, changed = narrowed_by(rule, masks)
    assert all(narrowed & ~mask == 0 for narrowed, mask in zip(after, masks))
    if not ok:
        assert grids_within(masks) == []
        return
    assert grids_within(after) == grids_within(masks)
    narrowed = {cell for cell, (mask, now) in enumerate(zip(masks, after)) if mask != now}
    units_of = model.geometry(4).units_of
    assert changed == {unit for cell in narrowed for unit in units_of[cell]}
    assert sorted(singles) == sorted(cell for cell in narrowed if after[cell].bit_count() == 1)


def test_locked_candidates_point_and_claim():
    every = [15] * 16
    pointing = every[:]
    pointing[4] = pointing[5] = 14  # box 1 holds 1 only in row 1: 1 leaves the rest of row 1
    assert locked(pointing)[1][:4] == [15, 15, 14, 14]
    claiming = every[:]
    claiming[2] = claiming[3] = 14  # row 1 holds 1 only in box 1: 1 leaves the rest of box 1
    assert locked(claiming)[1][4:6] == [14, 14]


def test_naked_pairs_leave_the_rest_of_their_unit():
    masks = [15] * 16
    masks[0] = masks[3] = 3  # row 1: cells 1 and 4 hold 1 and 2 between them
    ok, after, singles, _ = narrowed_by("pairs", masks)
    assert ok and after[:4] == [3, 12, 12, 3] and singles == []
    masks[1] = 3  # a third cell of the row left 1 and 2 too: no room for the three
    assert not narrowed_by("pairs", masks)[0]


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(rows=instances.boards(max_side=9))
def test_the_propagating_search_finds_what_plain_backtracking_finds(rows):
    """Every solution, the same set: propagation (singles and locked candidates) loses none and makes none,
    on random partial grids of sides 4, 6 and 9."""
    board = model.make_board(rows)
    limit = 300
    fast = python.search(board, limit, python.FAST, Budget(nodes=200_000))
    plain = python.search(board, limit, python.PLAIN, Budget(nodes=2_000_000))
    assert fast.status == plain.status
    if len(fast.solutions) < limit:
        assert sorted(map(str, fast.solutions)) == sorted(map(str, plain.solutions))
    else:
        assert len(plain.solutions) == limit


def solutions_with_pairs(board: model.Board, with_pairs: bool) -> list[list[list[int]]]:
    """Up to 200 solutions of the fast search, with naked pairs or without, in the order found."""
    search = python.Propagation(board, 200, Budget(nodes=50_000))
    search.with_pairs = with_pairs
    search.run()
    return [board.rows(list(solution)) for solution in search.solutions]


@pytest.mark.slow
@settings(max_examples=6, deadline=None)
@given(index=st.integers(0, 2), seed=st.integers(0, 2**32 - 1), blanks=st.integers(0, 4))
def test_on_16x16_naked_pairs_lose_no_solution_and_make_none(index, seed, blanks):
    """Naked pairs (from 16x16 up) against the same search without them, on a shipped 16x16 puzzle with up
    to 4 givens taken away: the same solutions."""
    cells = list(model.load(DATA / "sixteen.txt")[index].cells)
    for k in random.Random(seed).sample([k for k, value in enumerate(cells) if value], blanks):
        cells[k] = 0
    board = model.Board(tuple(cells))
    paired, unpaired = solutions_with_pairs(board, True), solutions_with_pairs(board, False)
    assert paired and len(paired) == len(unpaired)
    if len(paired) < 200:  # every solution: the same set (the first 200 differ with the branching)
        assert sorted(paired) == sorted(unpaired)


@settings(max_examples=40, deadline=None)
@given(rows=instances.boards(max_side=6))
def test_the_sharing_tie_break_finds_what_plain_backtracking_finds(rows):
    """The tie-break by open peers sharing a value (on from 16x16), turned on for random boards of sides 4
    and 6: every solution plain backtracking finds, and no other."""
    board = model.make_board(rows)
    search = python.Propagation(board, 300, Budget(nodes=50_000))
    search.with_sharing = True
    search.run()
    plain = python.search(board, 300, python.PLAIN, Budget(nodes=2_000_000))
    assert len(search.solutions) == len(plain.solutions)
    if len(plain.solutions) < 300:  # every solution: the same set
        assert sorted(search.solutions) == sorted(bytes(value for row in grid for value in row)
                                                  for grid in plain.solutions)


def test_on_16x16_the_sharing_tie_break_cuts_the_nodes_to_prove_a_puzzle_unique():
    """sixteen.txt #2 counted to 2: 91 nodes with the tie-break by peers sharing a value, 321 without."""
    board = model.load(DATA / "sixteen.txt")[1]
    spent = []
    for sharing in (True, False):
        search = python.Propagation(board, 2, Budget(nodes=10_000))
        search.with_sharing = sharing
        search.run()
        assert len(search.solutions) == 1
        spent.append(search.budget.spent)
    assert spent == [91, 321]


@needs_prolog
def test_16x16_with_givens_taken_is_the_same_search_in_prolog_and_python():
    """Locked candidates on 4x4 boxes, naked pairs and the tie-break by peers sharing a value: Prolog finds
    Python's solutions, in the same order (the order differs without the tie-break)."""
    cells = list(model.load(DATA / "sixteen.txt")[1].cells)
    for k in [k for k, value in enumerate(cells) if value][::9]:
        cells[k] = 0
    rows = [cells[r * 16:(r + 1) * 16] for r in range(16)]
    in_python = python.search(model.make_board(rows), 50, python.FAST, Budget(seconds=60))
    in_prolog = bridge.solutions("sudoku", bridge.goal("limit", 50, bridge.goal("solution", "fast", rows,
                                 bridge.Var("S"))), seconds=60).require_complete("fast")
    assert len(in_python.solutions) > 1 and in_python.solutions == [row["S"] for row in in_prolog.rows]
