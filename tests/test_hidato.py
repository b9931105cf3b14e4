"""Hidato: formats, bad input, the three back ends cross-checked, validation, budgets, generator, CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pysolve import bridge
from pysolve.agreement import crosscheck
from pysolve.budget import Budget, most_work
from pysolve.cli import main
from pysolve.errors import InputError
from pysolve.hidato import draw, generate, instances, kanren, model, prolog, python
from pysolve.hidato.model import Question
from pysolve.hidato.puzzle import PUZZLE, sample_file
from pysolve.paths import data_dir
from pysolve.puzzle import NO_SOLUTION, SOLVED, UNKNOWN
from pysolve.pytest_plugin import needs_prolog

DATA = data_dir() / "hidato"
BUNDLED = sorted(DATA.glob("*.txt")) + sorted(DATA.glob("*.json"))

# The sample's solution as Rosetta Code prints it.
SAMPLE_SOLUTION = [
    [32, 33, 35, 36, 37, -1, -1, -1],
    [31, 34, 24, 22, 38, -1, -1, -1],
    [30, 25, 23, 21, 12, 39, -1, -1],
    [29, 26, 20, 13, 40, 11, -1, -1],
    [27, 28, 14, 19, 9, 10, 1, -1],
    [-1, -1, 15, 16, 18, 8, 2, -1],
    [-1, -1, -1, -1, 17, 7, 6, 3],
    [-1, -1, -1, -1, -1, -1, 5, 4],
]
TWO_SOLUTIONS = [[1, 0], [0, 4]]  # 2x2: 2 and 3 may swap
NO_WAY = [[1, 3, 0]]  # 2 must touch 1 and 3: only the right cell is left, too far from 1


@pytest.fixture
def cli():
    """`pysolve.cli.main`."""
    return main


def question(rows, count=None, strategy="fast", validate=False, **budget) -> Question:
    """A question about `rows`."""
    return Question(model.make_board(rows), "test", count, strategy, validate, **budget)


def write(tmp_path: Path, text: str, name: str = "board.txt") -> str:
    """A file with `text` in tmp_path."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


# --- formats -----------------------------------------------------------------------------------


def test_text_and_json_forms_of_the_sample_read_the_same_board():
    text, ragged = model.load(DATA / "sample.txt"), model.load(DATA / "sample.json")
    assert text.cells == ragged.cells and text.givens == ragged.givens
    assert text.size == 40 and len(text.givens) == 15 and text.givens[1] == text.index[(4, 6)]
    assert [len(row) for row in ragged.rows] == [5, 5, 6, 6, 7, 7, 8, 8]


def test_text_form_accepts_its_spellings_and_round_trips():
    board = model.parse("# comment\n1 _ XX\n0 -1 6\n___ . 3\n", "t")
    assert board.rows == ((1, 0, -1), (0, -1, 6), (0, -1, 3))
    assert model.parse(model.to_text(board.rows), "again").rows == board.rows


def test_json_object_with_puzzle_key_is_read(tmp_path):
    board = model.load(write(tmp_path, json.dumps({"puzzle": [[1, 0], [0, 4]], "seed": 3}), "b.json"))
    assert board.rows == ((1, 0), (0, 4))


@pytest.mark.parametrize("text, message", [
    ("__ 2 3", "1 is not given"),
    ("1 2 __", "3 is not given"),
    ("1 2 2 4", "2 appears twice, at row 1 column 2 and at row 1 column 3"),
    ("1 9 3", "9 at row 1 column 2 is out of range 1..3"),
    ("1 ab 3", "line 1, cell 2: 'ab' is not a number"),
    ("[[1, 0], [0, 4]", "not JSON"),
    ('[[1, "x"], [0, 4]]', "row 1 is not a list of integers"),
    ('{"rows": []}', "needs a 'puzzle' key"),
    ("[[1, -2, 3]]", "holds -2"),
    ("# only a comment\n", "no rows"),
    ("", "the file is empty"),
    (". .", "no open cells"),
])
def test_bad_boards_exit_2_with_one_line_naming_the_problem(cli, tmp_path, capsys, text, message):
    path = write(tmp_path, text)
    assert cli(["solve", "hidato", path]) == 2
    err = capsys.readouterr().err
    assert message in err and path in err and err.count("\n") == 1


def test_missing_file_and_bad_flags_exit_2(cli, tmp_path, capsys):
    assert cli(["solve", "hidato", str(tmp_path / "nope.txt")]) == 2
    assert "hidato file" in (err := capsys.readouterr().err) and "no such file" in err
    assert cli(["solve", "hidato", str(sample_file()), "--count", "0"]) == 2
    assert "--count: 0 is not greater than 0" in capsys.readouterr().err
    assert cli(["solve", "hidato", str(sample_file()), "--validate"]) == 2
    assert "cannot validate, row 1 column 1 is empty" in capsys.readouterr().err
    assert cli(["generate", "hidato", "--rows", "4", "--shape", "shapes/ring"]) == 2
    assert "--shape gives the board's rows and columns: leave out --rows and --cols" in capsys.readouterr().err


# --- the rule base and the known answers ---------------------------------------------------------


def test_rule_base_loads_cleanly_and_knows_king_moves():
    assert bridge.load("hidato") == "hidato"
    rows = bridge.solutions("hidato", "aggregate_all(count, (member(R, [0,1,2,3]), member(C, [0,1,2,3]), "
                            "king_adjacent(1-1, R-C)), N)").rows
    assert rows[0]["N"] == 8


@pytest.mark.parametrize("strategy", ["fast", "original"])
def test_every_back_end_solves_the_sample_exactly(pysolve_backend, strategy):
    answer = PUZZLE.solve(question(model.load(DATA / "sample.txt").rows, strategy=strategy), pysolve_backend)
    assert answer.status == SOLVED and answer.solutions == [SAMPLE_SOLUTION]


def test_sample_is_unique_on_every_back_end_and_they_agree(pysolve_backends):
    report = crosscheck(PUZZLE, question(model.load(DATA / "sample.json").rows, count=2))
    assert report.none_differ
    assert set(report.results) == set(pysolve_backends)
    for answer in report.results.values():
        assert answer.count == 1 and len(answer.solutions[0][0]) == 5  # ragged shape kept


@pytest.mark.parametrize("strategy", ["fast", "original"])
def test_two_solution_board_counted_alike(pysolve_backends, strategy):
    report = crosscheck(PUZZLE, question(TWO_SOLUTIONS, count=5, strategy=strategy))
    assert report.none_differ
    assert set(report.results) == set(pysolve_backends)
    for answer in report.results.values():
        assert answer.count == 2
        assert sorted(answer.solutions) == [[[1, 2], [3, 4]], [[1, 3], [2, 4]]]


def test_count_stopping_at_the_limit_agrees_without_comparing_which_solutions():
    report = crosscheck(PUZZLE, question(TWO_SOLUTIONS, count=1))
    assert report.none_differ
    assert {answer.count for answer in report.results.values()} == {1}


@pytest.mark.parametrize("strategy", ["fast", "original"])
def test_unsolvable_board_says_no_solution_everywhere(strategy):
    report = crosscheck(PUZZLE, question(NO_WAY, count=2, strategy=strategy))
    assert report.none_differ
    assert {answer.status for answer in report.results.values()} == {NO_SOLUTION}


def test_big_impossible_board_answers_no_solution_quickly():
    rows = [[0] * 15 for _ in range(15)]
    rows[0][0], rows[14][14], rows[7][7] = 1, 10, 225  # 10 is 14 king moves from 1
    report = crosscheck(PUZZLE, question(rows, count=2, seconds=10), only=["prolog", "python"])
    assert report.none_differ
    for answer in report.results.values():
        assert answer.status == NO_SOLUTION and answer.stats["cpu_seconds"] < 5  # not after an hour


def test_cli_solve_json_has_solutions_count_and_stats(cli, capsys):
    assert cli(["solve", "hidato", str(DATA / "sample.json"), "--count", "2", "--backend", "python", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["count"] == 1 and data["status"] == SOLVED and "seconds" in data["stats"]
    assert data["solutions"][0][0] == [32, 33, 35, 36, 37]


def test_cli_text_draws_boxes_and_says_unique(cli, capsys):
    assert cli(["solve", "hidato", str(sample_file()), "--count", "2", "--backend", "python"]) == 0
    out = capsys.readouterr().out
    assert "| 32 | 33 | 35 | 36 | 37 |" in out and "1 solution: unique" in out


def test_cli_crosscheck_agrees_on_the_sample(cli, capsys):
    assert cli(["crosscheck", "hidato", str(sample_file()), "--count", "2"]) == 0
    verdict = capsys.readouterr().out.splitlines()[-1]  # with Prolog hidden: the two others agree, Prolog named
    assert verdict.startswith(("all back ends agree", "the answers of kanren, python agree"))


def test_svg_is_written_with_givens_bold(cli, tmp_path, capsys):
    out = tmp_path / "sample.svg"
    assert cli(["solve", "hidato", str(sample_file()), "--backend", "python", "--svg", str(out)]) == 0
    picture = out.read_text()
    assert picture.startswith("<svg") and picture.count("<rect") == 40 and "<polyline" in picture
    assert 'font-weight="bold" fill="#000">33<' in picture and 'fill="#1f5fbf">32<' in picture


def test_text_drawing_of_an_irregular_board():
    assert draw.text([[1, 0], [-1, 3]]).splitlines() == [
        "+----+----+", "|  1 |    |", "+----+----+", "     |  3 |", "     +----+"]


# --- validation ----------------------------------------------------------------------------------


def test_validation_accepts_the_solution_on_every_back_end(pysolve_backends):
    report = crosscheck(PUZZLE, question(SAMPLE_SOLUTION, validate=True))
    assert report.agree, report.difference
    assert set(report.results) == set(pysolve_backends)
    assert all(answer.status == SOLVED for answer in report.results.values())


def test_validation_names_the_pairs_that_break(cli, tmp_path, capsys):
    broken = [row[:] for row in SAMPLE_SOLUTION]
    broken[0][0], broken[7][7] = 4, 32  # swap 32 and 4
    report = crosscheck(PUZZLE, question(broken, validate=True))
    assert report.agree and "kanren" in report.results, report.difference
    assert report.results["python"].stats["broken"] == [[3, 4], [4, 5], [31, 32], [32, 33]]
    path = write(tmp_path, model.to_text(broken))
    assert cli(["solve", "hidato", path, "--validate", "--backend", "python"]) == 0
    assert "not a solution: 3 and 4 do not touch; 4 and 5 do not touch" in capsys.readouterr().out


@settings(max_examples=30, deadline=None)
@given(data=st.data(), rows=st.integers(1, 5), cols=st.integers(2, 5))
def test_random_filled_boards_validate_alike_on_every_back_end(pysolve_backends, data, rows, cols):
    """Random solutions, and the same with two numbers swapped: every back end names the same broken pairs."""
    filled = data.draw(instances.solved_boards(rows, cols))
    if data.draw(st.booleans()):
        filled = instances.swapped(filled, data.draw(st.integers(0, 30)), data.draw(st.integers(0, 30)))
    report = crosscheck(PUZZLE, question(filled, validate=True))
    assert report.agree and set(report.results) == set(pysolve_backends), report.difference
    assert report.results["python"].stats["broken"] == model.broken_pairs(model.make_board(filled))


# --- budgets -------------------------------------------------------------------------------------


def sparse_board() -> list[list[int]]:
    """A 15x15 board with only 1 and N: many solutions, far too many to count."""
    rows = [[0] * 15 for _ in range(15)]
    rows[0][0], rows[14][14] = 1, 225
    return rows


@pytest.mark.slow
def test_budgets_end_every_search_with_unknown(pysolve_backend):
    board = model.make_board(sparse_board())
    assert python.search(board, 10**6, python.FAST, Budget(nodes=500)).status == UNKNOWN
    assert python.search(board, 10**6, python.ORIGINAL, Budget(seconds=0.2)).status == UNKNOWN
    assert python.search(board, 10**6, python.LOGIC, Budget(nodes=50)).status == UNKNOWN
    asked = Question(board, "sparse", count=10**6, nodes=300, seconds=0.3)
    answer = PUZZLE.solve(asked, pysolve_backend)
    assert answer.status == UNKNOWN and "passed its" in answer.stats["reason"]


@pytest.mark.slow
@pytest.mark.pysolve_backends("prolog", "python")  # kanren refuses boards this size (next test)
def test_a_board_of_thousands_of_cells_keeps_its_time_limit(pysolve_backend):
    rows = [[0] * 1500 for _ in range(2)]
    rows[0][0], rows[1][1499] = 1, 3000  # one move of the search costs a flood over 3,000 cells
    answer = PUZZLE.solve(question(rows, seconds=1.0), pysolve_backend)
    assert answer.status == UNKNOWN and "time limit of 1 s" in answer.stats["reason"]
    assert answer.stats["cpu_seconds"] <= most_work(1.0)  # the clock is read where the time goes


def test_boards_past_the_size_limit_are_refused_before_any_work(tmp_path, capsys):
    huge = "\n".join(" ".join(["1" if (r, c) == (0, 0) else "4225" if (r, c) == (64, 64) else "__"
                                for c in range(65)]) for r in range(65))
    assert main(["solve", "hidato", write(tmp_path, huge), "--backend", "python"]) == 2
    assert "has 4160 or more open cells; hidato takes at most 4096" in capsys.readouterr().err  # row 64 of 65
    assert main(["generate", "hidato", "--rows", "100", "--cols", "100"]) == 2
    err = capsys.readouterr().err
    assert "a 100 x 100 board has 10000 cells; hidato takes at most 4096" in err and "Traceback" not in err


@pytest.mark.slow
def test_generating_a_large_board_keeps_its_time_limit_and_stays_unique(capsys):
    assert main(["generate", "hidato", "--rows", "24", "--cols", "24", "--seed", "3", "--seconds", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["stopped"].startswith("taking givens away passed its time limit of 1 s; the puzzle keeps")
    assert data["unique"] is True and data["givens"] < data["cells"]
    assert data["difficulty"]["states"] >= 1


def test_minikanren_refuses_boards_it_cannot_hold():
    board = model.make_board([[1] + [0] * 1098 + [1100]])
    with pytest.raises(InputError, match="at most 1024 cells; this one has 1100"):
        kanren.solve(Question(board, "snake_4x46.txt"), Budget(seconds=1))


# --- bundled set and generated puzzles -----------------------------------------------------------


def test_the_bundled_set_is_big_enough_and_varied():
    boards = [model.load(path) for path in BUNDLED]
    assert len(boards) >= 13
    assert any(board.size >= 200 for board in boards) and any(board.size <= 25 for board in boards)
    assert any(-1 in row for board in boards for row in board.rows)


@pytest.mark.slow
@pytest.mark.parametrize("path", BUNDLED, ids=lambda path: path.name)
def test_bundled_boards_are_unique_and_the_back_ends_agree(path):
    board = model.load(path)
    report = crosscheck(PUZZLE, Question(board, str(path), count=2))
    assert report.none_differ, report.difference
    for answer in report.results.values():
        assert answer.count == 1 and model.solves(board, answer.solutions[0])


def test_generator_is_deterministic_and_unique(cli, capsys):
    args = ["generate", "hidato", "--rows", "6", "--cols", "5", "--holes", "3", "--seed", "7", "--json"]
    assert cli(args) == 0
    first = json.loads(capsys.readouterr().out)
    assert cli(args) == 0
    assert json.loads(capsys.readouterr().out) == first
    assert first["seed"] == 7 and first["cells"] == 27 and first["unique"]
    board = model.make_board(first["puzzle"])
    assert sum(row.count(-1) for row in first["puzzle"]) == 3
    assert model.solves(board, first["solution"])
    answer = PUZZLE.solve(Question(board, "gen", count=2), "prolog")
    assert answer.count == 1 and answer.solutions == [first["solution"]]


def test_generator_keeps_a_given_shape_and_stops_at_the_givens_fraction(tmp_path):
    shape = model.load_shape(DATA / "shapes" / "diamond.txt")
    data = generate.generate(generate.Recipe(0, 0, seed=5, givens=0.5, shape=shape))
    assert [[v == -1 for v in row] for row in data["puzzle"]] == [[v == -1 for v in row] for row in shape.rows]
    assert data["givens"] == 21 and data["difficulty"]["label"] in ("easy", "medium", "hard", "expert")


def test_generated_text_is_a_loadable_puzzle(cli, tmp_path, capsys):
    assert cli(["generate", "hidato", "--rows", "5", "--cols", "5", "--seed", "3"]) == 0
    path = write(tmp_path, capsys.readouterr().out)
    assert model.load(path).size == 25


@settings(max_examples=8, deadline=None)
@given(rows=st.integers(3, 4), cols=st.integers(3, 5), seed=st.integers(0, 10**6), holes=st.integers(0, 3))
def test_generated_puzzles_cross_check_on_all_back_ends(pysolve_backends, rows, cols, seed, holes):
    # miniKanren needs seconds of CPU from 20 cells up: keep it to 20, with a budget that a loaded machine meets
    data = generate.generate(generate.Recipe(rows, cols, seed, holes=holes))
    board = model.make_board(data["puzzle"])
    report = crosscheck(PUZZLE, Question(board, "gen", count=2, seconds=120))
    assert report.none_differ, report.difference
    assert set(report.results) == set(pysolve_backends), report.difference
    for answer in report.results.values():
        assert answer.solutions == [data["solution"]]


@settings(max_examples=6, deadline=None)
@given(rows=instances.boards(max_side=4), strategy=st.sampled_from(["fast", "original"]))
def test_random_boards_agree_on_how_many_solutions(rows, strategy):
    report = crosscheck(PUZZLE, question(rows, count=50, strategy=strategy, seconds=20))
    assert report.none_differ, report.difference
    assert len({answer.count for answer in report.results.values()}) == 1


@pytest.mark.parametrize("name", ["snake_3x50", "snake_4x46", "unique_3x50_s41", "unique_4x46_s42"])
def test_long_thin_boards_fall_to_the_fast_walk_in_seconds(name):
    board = model.load(DATA / "long" / f"{name}.txt")
    found = python.search(board, 2, python.FAST, Budget(seconds=10))
    assert found.status == SOLVED and all(model.solves(board, grid) for grid in found.solutions)
    assert len(found.solutions) == (1 if name.startswith("unique") else 2)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["snake_3x50", "snake_4x46", "unique_3x50_s41", "unique_4x46_s42"])
def test_minikanren_counts_the_long_thin_boards_as_python_does(name):
    """Propagation through the steps keeps the relation off dead ends: no walk gets lost."""
    board = model.load(DATA / "long" / f"{name}.txt")
    asked = Question(board, name, count=2, seconds=10)
    found, reference = PUZZLE.solve(asked, "kanren"), PUZZLE.solve(asked, "python")
    assert (found.status, found.count) == (SOLVED, reference.count)
    assert all(model.solves(board, grid) for grid in found.solutions)
    assert found.stats["cpu_seconds"] < 5


def test_minikanren_counts_every_public_board_as_python_does():
    """The public boards (data/hidato/public, the easy ones bench/peers.py times against python-constraint):
    the relation's givens bound at once and its walk on the king graph count each as the Python search does."""
    for path in sorted((DATA / "public").glob("*.txt")):
        board = model.load(path)
        asked = Question(board, path.name, count=2, seconds=10)
        found, reference = PUZZLE.solve(asked, "kanren"), PUZZLE.solve(asked, "python")
        assert found.status == reference.status == SOLVED and found.count == reference.count, path.name
        assert found.count and all(model.solves(board, grid) for grid in found.solutions), path.name


@pytest.mark.slow
def test_the_original_walk_gets_lost_on_the_fat_snake_and_says_unknown():
    board = model.load(DATA / "long" / "snake_4x46.txt")
    assert python.search(board, 1, python.ORIGINAL, Budget(seconds=1.0)).status == UNKNOWN


@pytest.mark.slow
@needs_prolog
def test_the_original_prolog_walk_gets_lost_there_too():
    board = model.load(DATA / "long" / "snake_4x46.txt")
    assert prolog.solve(Question(board, "snake", strategy="original"), Budget(seconds=1.0)).status == UNKNOWN


@needs_prolog
@pytest.mark.parametrize("name", ["snake_3x50", "snake_4x46", "unique_3x50_s41", "unique_4x46_s42"])
def test_prolog_fast_runs_the_long_thin_boards_on_its_portfolio(name):
    board = model.load(DATA / "long" / f"{name}.txt")
    found = PUZZLE.solve(Question(board, name, count=2, strategy="fast", seconds=10), "prolog")
    assert found.status == SOLVED and all(model.solves(board, grid) for grid in found.solutions)
    assert found.count == (1 if name.startswith("unique") else 2)
    assert found.stats["cpu_seconds"] < 3  # CLP(FD) and the propagating search alone pass 10 s on snake_4x46


@needs_prolog
@settings(max_examples=10, deadline=None)
@given(rows=instances.boards(max_side=5, solvable=True))
def test_the_prolog_strategies_find_the_same_solutions(rows):
    every = {}
    for strategy in ("walk", "clpfd", "original", "logic"):
        result = bridge.solutions("hidato", bridge.goal("solution", strategy, rows, bridge.Var("S")), seconds=30)
        every[strategy] = sorted(row["S"] for row in result.require_complete(strategy).rows)
    assert every["walk"] == every["clpfd"] == every["original"] == every["logic"] and every["walk"]


@needs_prolog
@settings(max_examples=10, deadline=None)
@given(rows=instances.boards(max_side=6, solvable=True))
def test_the_propagating_search_is_the_same_search_in_prolog_and_python(rows):
    """Same fixpoint, same branching: the same solutions in the same order."""
    board = model.make_board(rows)
    in_python = python.search(board, 10**6, python.LOGIC, Budget(seconds=30))
    goal = bridge.goal("solution", "logic", board.grid(), bridge.Var("S"))
    in_prolog = [row["S"] for row in bridge.solutions("hidato", goal, seconds=30).require_complete("logic").rows]
    assert in_python.status == SOLVED and in_python.solutions == in_prolog


@needs_prolog
def test_prolog_fast_proves_the_largest_shipped_board_unique_by_propagation():
    board = model.load(DATA / "rect_15x15_s18.txt")
    found = PUZZLE.solve(Question(board, "15x15", count=2, strategy="fast", seconds=10), "prolog")
    assert found.status == SOLVED and found.count == 1 and model.solves(board, found.solutions[0])
    assert found.stats["cpu_seconds"] < 3  # CLP(FD) took 0.7 s, the walk passes 20 s


def test_text_drawing_hatches_a_hole_between_open_cells():
    assert draw.text([[1, -1, 3], [2, 0, 0]]).splitlines()[1] == "|  1 |####|  3 |"


# --- the propagating search (the generator's uniqueness prover) ----------------------------------


@pytest.mark.parametrize("rows, count, status", [(SAMPLE_SOLUTION, 1, SOLVED), (TWO_SOLUTIONS, 2, SOLVED),
                                                 (NO_WAY, 0, NO_SOLUTION)], ids=["filled", "two", "no-way"])
def test_the_propagating_search_counts_small_boards(rows, count, status):
    found = python.search(model.make_board(rows), 5, python.LOGIC, Budget())
    assert found.status == status and len(found.solutions) == count


def test_the_propagating_search_proves_the_sample_unique_by_logic_alone():
    board = model.load(sample_file())
    found = python.search(board, 2, python.LOGIC, Budget())
    assert found.solutions == [SAMPLE_SOLUTION] and found.stats["states"] <= 10


@needs_prolog
@settings(max_examples=10, deadline=None)
@given(rows=instances.boards(max_side=6, solvable=True))
def test_the_propagating_search_agrees_with_clpfd_on_counts(rows):
    board = model.make_board(rows)
    found = python.search(board, 2, python.LOGIC, Budget())
    answer = PUZZLE.solve(Question(board, "cut", count=2, seconds=60), "prolog")
    assert found.status == answer.status == SOLVED
    assert len(found.solutions) == len(answer.solutions)
    assert all(model.solves(board, grid) for grid in found.solutions)
