"""The rectangle tangram: known answers, cross-checks of the three back ends, pictures, bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pysolve import bridge, cli, puzzles
from pysolve.crosscheck import crosscheck
from pysolve.pytest_plugin import session_backends
from pysolve.errors import InputError, SearchLimitExceeded, UnknownName
from pysolve.tangram import api, draw, make_placement, parse_instance
from pysolve.tangram.generate import generate
from pysolve.tangram.model import Placement, Question, load_instance
from pysolve.tangram.puzzle import PUZZLE

BACKENDS = tuple(session_backends())  # all three, or kanren and python with Prolog hidden
CLASSIC_ORDER = ["green", "blue", "red", "orange", "pink", "yellow"]
FIRST_DFS = [("green", 0, 0), ("blue", 0, 2), ("red", 7, 0), ("orange", 0, 7), ("pink", 4, 0), ("yellow", 7, 8)]
SMALL = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module")
def classic():
    return load_instance()


@pytest.fixture
def tangram_only(monkeypatch):
    """The CLI with only this puzzle registered, so other domains' work in progress cannot break it."""
    monkeypatch.setattr(puzzles, "REGISTRY", {"tangram": "pysolve.tangram.puzzle"})


def ask(instance, **fields):
    return api.prepare(Question(instance, **fields))


def agreed(question):
    """Cross-check a question on every back end that answers it; return the report after asserting agreement."""
    report = crosscheck(PUZZLE, question, list(BACKENDS))
    assert not report.skipped, report.skipped
    assert set(report.results) == set(PUZZLE.backends_for(question)) & set(BACKENDS)
    assert report.agree, report.difference
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


def test_rule_base_loads_cleanly_with_the_classic_facts():
    assert bridge.load("tangram") == "tangram"
    rows = bridge.solutions("tangram", "findall(N-W-H, piece(N, _, _, W, H), Ps), length(Ps, Count)").rows
    assert rows[0]["Count"] == 6


def test_all_36_tilings_on_every_back_end_first_one_exact(classic):
    report = agreed(ask(classic, mode="all"))
    for answer in report.results.values():
        assert answer.count == 36 == len(answer.solutions)
        assert triples(answer.solutions[0]) == FIRST_DFS
        assert len({json.dumps(s) for s in answer.solutions}) == 36


def test_first_tiling_on_every_back_end_is_the_spec_one(classic):
    report = agreed(ask(classic))
    assert [triples(a.solutions[0]) for a in report.results.values()] == [FIRST_DFS] * len(BACKENDS)


@pytest.mark.parametrize("start", CLASSIC_ORDER)
def test_breadth_first_from_each_piece_agrees_and_is_a_tiling(classic, start):
    report = agreed(ask(classic, strategy="bfs", start=start))
    (solution,) = report.results["python"].solutions
    tiling = tuple(make_placement(classic, p["piece"], p["x"], p["y"]) for p in solution)
    assert api.validate(classic, tiling) == []
    assert [p.piece for p in tiling] == classic.names  # listed in instance order, whatever the start
    # FIFO over the same steps meets the depth-first order's first tiling first
    assert tiling == api.answer("python", ask(classic, start=start)).solutions[0]


def test_breadth_first_answers_differ_by_start(classic):
    answers = {start: api.answer("python", ask(classic, strategy="bfs", start=start)).solutions[0]
               for start in CLASSIC_ORDER}
    assert len(set(answers.values())) > 1
    assert [(p.piece, p.x, p.y) for p in answers["green"]] == FIRST_DFS


def test_fast_cell_strategy_finds_the_same_36(classic):
    cell = agreed(ask(classic, mode="all", strategy="cell"))
    dfs = PUZZLE.canonical(PUZZLE.solve(ask(classic, mode="all"), "python"))
    assert PUZZLE.canonical(cell.results["python"]) == dfs
    counts = agreed(ask(classic, mode="count", strategy="cell"))
    assert {a.count for a in counts.results.values()} == {36}


def test_options_on_the_empty_board_and_after_placing(classic):
    empty = agreed(ask(classic, mode="options", piece="green"))
    assert empty.results["python"].count == 7 * 9
    assert triples(empty.results["kanren"].solutions[:3]) == [("green", 0, 0), ("green", 0, 1), ("green", 0, 2)]
    placed = (make_placement(classic, "blue", 0, 0),)
    after = agreed(ask(classic, mode="options", piece="green", placed=placed))
    assert after.results["python"].solutions[0] == {"piece": "green", "x": 0, "y": 5}
    for backend in BACKENDS:
        assert [(p.x, p.y) for p in api.options(classic, placed, "green", backend)][:2] == [(0, 5), (0, 6)]


def test_completion_of_a_partial_board(classic):
    placed = (make_placement(classic, "green", 0, 0), make_placement(classic, "blue", 0, 2))
    report = agreed(ask(classic, mode="all", placed=placed))
    assert report.results["python"].count == 2
    assert all(s[:2] == [{"piece": "green", "x": 0, "y": 0}, {"piece": "blue", "x": 0, "y": 2}]
               for s in report.results["python"].solutions)
    for backend in BACKENDS:
        assert [(p.piece, p.x, p.y) for p in api.complete(classic, placed, backend)] == FIRST_DFS


def test_a_partial_board_that_cannot_be_completed(classic):
    placed = (make_placement(classic, "green", 1, 0),)  # leaves a one-cell-wide gap at x = 0
    report = agreed(ask(classic, placed=placed))
    assert {a.status for a in report.results.values()} == {"no solution"}
    assert all(api.complete(classic, placed, backend) is None for backend in BACKENDS)
    assert api.count(classic, placed) == 0


def test_validate_a_correct_tiling(classic):
    tiling = tuple(make_placement(classic, *triple) for triple in FIRST_DFS)
    report = agreed(ask(classic, mode="validate", placed=tiling))
    assert set(report.results) == {"prolog", "python"} & set(BACKENDS)
    assert all(answer.stats["problems"] == [] and answer.status == "solved" for answer in report.results.values())


def test_validate_says_what_is_wrong(classic):
    placed = (make_placement(classic, "green", 8, 0), make_placement(classic, "blue", 0, 0),
              make_placement(classic, "red", 2, 2))
    report = agreed(ask(classic, mode="validate", placed=placed))
    assert report.results["python"].stats["problems"] == [
        ["out_of_board", "green"], ["overlap", "blue", "red", 6], ["missing", "orange"],
        ["missing", "pink"], ["missing", "yellow"]]
    for backend in {"prolog", "python"} & set(BACKENDS):
        assert api.validate(classic, placed, backend)[:2] == [
            "green sticks out of the 10x10 board", "blue and red overlap on 6 cell(s)"]


# ---------------------------------------------------------------- other boards, rotations

ROTATING = """\
board 3 2
rotations yes
piece 1 a #112233 1 2
piece 2 b #445566 2 2
"""


def test_rotations_cross_checked_with_sizes_in_json():
    instance = parse_instance(ROTATING)
    report = agreed(ask(instance, mode="all"))
    solutions = report.results["kanren"].solutions
    assert {answer.count for answer in report.results.values()} == {2}
    assert {"piece": "a", "x": 0, "y": 0, "width": 1, "height": 2} in solutions[0]
    fixed = parse_instance(ROTATING.replace("rotations yes", "rotations no").replace("#112233 1 2", "#112233 2 1"))
    assert all(api.count(fixed, (), backend, "dfs") == 0 for backend in BACKENDS)


@st.composite
def instances(draw_):
    width, height = draw_(st.integers(2, 5)), draw_(st.integers(2, 5))
    pieces = draw_(st.integers(2, min(6, width * height)))
    return generate(width, height, pieces, draw_(st.integers(0, 10_000)), draw_(st.booleans()))


@SMALL
@given(instances(), st.sampled_from(["dfs", "cell"]))
def test_random_boards_all_back_ends_agree_on_every_tiling(instance, strategy):
    report = agreed(ask(instance, mode="all", strategy=strategy))
    assert report.results["python"].count >= 1  # the cut the board was made from
    other = "cell" if strategy == "dfs" else "dfs"
    assert PUZZLE.canonical(PUZZLE.solve(ask(instance, mode="all", strategy=other), "python")) == \
        PUZZLE.canonical(report.results["python"])


@SMALL
@given(instances(), st.data())
def test_random_boards_breadth_first_options_and_completion_agree(instance, data):
    start = data.draw(st.sampled_from(instance.names))
    agreed(ask(instance, strategy="bfs", start=start))
    first = api.complete(instance, (), "python")
    placed = first[: data.draw(st.integers(0, len(first) - 1))]
    missing = [name for name in instance.names if name not in {p.piece for p in placed}]
    agreed(ask(instance, mode="options", placed=placed, piece=data.draw(st.sampled_from(missing))))
    count = agreed(ask(instance, mode="count", placed=placed, strategy="cell"))
    assert count.results["kanren"].count >= 1


# ---------------------------------------------------------------- bounded searches

@pytest.mark.parametrize("backend", BACKENDS)
def test_searches_are_bounded(backend):
    big = generate(16, 16, 12, 2)
    with pytest.raises(SearchLimitExceeded):
        api.answer(backend, ask(big, mode="count", seconds=0.2))


# ---------------------------------------------------------------- bad input

@pytest.mark.parametrize("text, message", [
    ("piece 1 a #112233 1 1\n", "no 'board"),
    ("board 2 x\n", ":1: board width and height must be integers"),
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
    (["no-such-file.txt"], "cannot read tangram file 'no-such-file.txt'"),
])
def test_cli_bad_input_is_one_line_and_exit_2(tangram_only, capsys, argv, message):
    assert cli.main(["solve", "tangram", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_cli_area_mismatch(tangram_only, capsys, tmp_path):
    path = tmp_path / "short.txt"
    path.write_text("board 3 3\npiece 1 a #112233 2 2\n")
    assert cli.main(["solve", "tangram", str(path)]) == 2
    assert "the pieces cover 4 cells but the 3x3 board has 9, so no tiling exists" in capsys.readouterr().err


# ---------------------------------------------------------------- the CLI and pictures

def test_cli_json_contract(tangram_only, capsys):
    assert cli.main(["solve", "tangram", "--all", "--backend", "python", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["count"] == 36 and data["backend"] == "python"
    assert [list(p) for p in data["solutions"][0]] == [["piece", "x", "y"]] * 6
    assert triples(data["solutions"][0]) == FIRST_DFS
    assert cli.main(["solve", "tangram", "--count", "--strategy", "cell", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["count"] == 36


def test_cli_text_grid_and_svg(tangram_only, capsys, tmp_path):
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


def test_cli_crosscheck_and_generate(tangram_only, capsys):
    assert cli.main(["crosscheck", "tangram", "--strategy", "bfs", "--start", "pink"]) == 0
    assert "all back ends agree" in capsys.readouterr().out
    assert cli.main(["generate", "tangram", "--width", "6", "--height", "4", "--pieces", "5", "--seed", "3"]) == 0
    instance = parse_instance(capsys.readouterr().out)
    assert (instance.width, instance.height, len(instance.pieces)) == (6, 4, 5)
    assert generate(6, 4, 5, 3) == instance
    assert api.count(instance) >= 1


def test_shipped_format_round_trips(classic):
    assert parse_instance(classic.to_text(), "classic") == classic
    readme = Path(__file__).parents[1] / "data" / "tangram" / "README.md"
    assert "piece KEY NAME COLOUR WIDTH HEIGHT" in readme.read_text()


def test_placement_cells_in_board_order():
    assert Placement("a", 1, 2, 2, 3).cells() == [(1, 2), (1, 3), (1, 4), (2, 2), (2, 3), (2, 4)]
    rows = bridge.solutions("tangram", "placement_cells([a, 1, 2, 2, 3], Cs)").rows
    assert rows[0]["Cs"] == [[1, 2], [1, 3], [1, 4], [2, 2], [2, 3], [2, 4]]


def test_without_prolog_kanren_and_python_still_answer():
    script = ("from pysolve.tangram import load_instance, count, options\n"
              "from pysolve.tangram.puzzle import PUZZLE\n"
              "from pysolve.tangram.model import Question\n"
              "print(count(load_instance(), backend='kanren'), len(options(load_instance(), (), 'red', 'python')),\n"
              "      PUZZLE.default_backend(Question(load_instance())))\n"
              "from pysolve.tangram import api\n"
              "try:\n    api.engine('prolog')\nexcept Exception as error:\n    print(type(error).__name__)\n")
    env = {**os.environ, "PYSOLVE_NO_PROLOG": "1"}
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
    assert done.stdout.split() == ["36", str(8 * 3), "kanren", "BackendUnavailable"], done.stderr


def test_cli_validates_the_place_lines_of_a_file(tangram_only, capsys, tmp_path):
    path = tmp_path / "attempt.txt"
    path.write_text(load_instance().to_text() + "place green 0 0\nplace blue 0 1   # one row too low\n")
    validator = "prolog" if "prolog" in BACKENDS else "python"
    assert cli.main(["solve", "tangram", str(path), "--validate", "--backend", validator]) == 0
    out = capsys.readouterr().out
    assert "not a tiling: green and blue overlap on 4 cell(s)" in out and "not a tiling: yellow is not placed" in out
    assert " 1 ! ! ! ! . . . . . ." in out.splitlines()
    assert cli.main(["solve", "tangram", str(path)]) == 2
    assert "green and blue overlap" in capsys.readouterr().err
