"""What `generate` makes, `solve` reads: every generator's file (printed, or written with --out) is solved and
the solution validated, through the CLI and through the API, on seeds and sizes hypothesis picks too."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pysolve import api, cli
from pysolve.squares import model as squares_model
from pysolve.sudoku import draw as sudoku_draw

# A small instance of each puzzle that generates: the options of `pysolve generate NAME` (a fresh seed added).
SMALL = {
    "hidato": {"rows": 4, "cols": 5},
    "sudoku": {"size": 4},
    "tangram": {"width": 6, "height": 5, "pieces": 4},
    "squares": {},  # its defaults: a 3x3 insect set of 4 colours
}


def flags(options: dict[str, Any]) -> list[str]:
    """Keyword options as `pysolve` flags (`--rows 4`, `--rotations`)."""
    return [word for name, value in options.items()
            for word in ([f"--{name.replace('_', '-')}"] + ([] if value is True else [str(value)]))]


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Stdout of one `pysolve` command run in this process, which must succeed."""
    code = cli.main(argv)
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def test_every_generator_is_covered() -> None:
    assert sorted(SMALL) == sorted(name for name in api.puzzle_names() if api.get_puzzle(name).can_generate)


# --- what a solution is, asked of the puzzle itself -----------------------------------------------------------


def problems(puzzle: str, file: str, solution: Any) -> list[Any]:
    """What breaks `solution` of the puzzle in `file` (empty: it is one), as the puzzle's own checks say."""
    if puzzle in ("hidato", "sudoku"):
        answer = api.solve(puzzle, file, backend="python")
        return [] if api.get_puzzle(puzzle).solves(answer.question["puzzle"], solution) else ["not a solution"]
    if puzzle == "tangram":
        return api.solve("tangram", file, validate=True, place=places(solution), backend="python").stats["problems"]
    return squares_model.placement_problems(squares_model.load(file), squares_model.grid_from_json(solution))


def places(tiling: list[dict[str, Any]]) -> list[str]:
    """A tiling as `--place NAME:X,Y[:WxH]` values."""
    return [f"{p['piece']}:{p['x']},{p['y']}" + (f":{p['width']}x{p['height']}" if "width" in p else "")
            for p in tiling]


def round_trip(puzzle: str, file: Path, backend: str = "python") -> Any:
    """Solve the generated `file` (the API), check the first solution is one; return it."""
    answer = api.solve(puzzle, str(file), backend=backend)
    assert answer.status == "solved" and answer.solutions, answer
    solution = answer.solutions[0]
    assert problems(puzzle, str(file), solution) == []
    return solution


# --- the CLI ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("puzzle", sorted(SMALL))
def test_cli_generate_printed_then_solved_then_validated(puzzle: str, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    printed = run(["generate", puzzle, *flags({**SMALL[puzzle], "seed": 5})], capsys)
    board = tmp_path / "b.txt"
    board.write_text(printed)  # pysolve generate PUZZLE ... > b.txt
    answer = json.loads(run(["solve", puzzle, str(board), "--json", "--backend", "python"], capsys))
    assert answer["status"] == "solved"
    solution = answer["solutions"][0]
    assert problems(puzzle, str(board), solution) == []
    if puzzle in ("hidato", "sudoku"):  # the solution as a file of its own, checked by `solve --validate`
        filled = tmp_path / "filled.txt"
        filled.write_text(json.dumps(solution) if puzzle == "hidato" else sudoku_draw.text(solution))
        checked = json.loads(run(["solve", puzzle, str(filled), "--validate", "--json", "--backend", "python"],
                                 capsys))
        assert checked["status"] == "solved" and checked["stats"]["broken"] == []
    if puzzle == "tangram":
        argv = ["solve", "tangram", str(board), "--validate", "--json", "--backend", "python"]
        checked = json.loads(run(argv + [f"--place={place}" for place in places(solution)], capsys))
        assert checked["stats"]["problems"] == []


@pytest.mark.parametrize("puzzle", sorted(SMALL))
def test_cli_generate_out_writes_the_file_json_describes_it(puzzle: str, tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "made.txt"
    argv = ["generate", puzzle, *flags({**SMALL[puzzle], "seed": 9})]
    described = json.loads(run([*argv, "--out", str(out), "--json"], capsys))
    printed = run(argv, capsys)
    assert out.read_text() == printed  # the same file, written or printed
    assert isinstance(described, dict) and described
    round_trip(puzzle, out)
    code = cli.main([*argv, "--out", str(tmp_path / "missing" / "x.txt")])
    assert code == 2 and "--out" in capsys.readouterr().err


@pytest.mark.parametrize("puzzle", sorted(SMALL))
def test_cli_solve_reads_what_generate_json_prints(puzzle: str, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """generate --json -> solve, for every puzzle: the same answer as from the text form of the same instance,
    the generator's solution where it prints one, and every solution a solution."""
    options = flags({**SMALL[puzzle], "seed": 4})
    described, written = tmp_path / "made.json", tmp_path / "made.txt"
    described.write_text(run(["generate", puzzle, *options, "--json"], capsys))
    written.write_text(run(["generate", puzzle, *options], capsys))
    answers = [json.loads(run(["solve", puzzle, str(file), "--json", "--backend", "python"], capsys))
               for file in (described, written)]
    assert answers[0]["status"] == "solved" and answers[0]["solutions"] == answers[1]["solutions"]
    made = json.loads(described.read_text())
    if "solution" in made:
        assert answers[0]["solutions"] == [made["solution"]]
    assert problems(puzzle, str(described), answers[0]["solutions"][0]) == []


@pytest.mark.parametrize("puzzle, text, words", [
    ("tangram", '{"width": 3, "height": 3, "pieces": [{"key": "a", "name": "x", "colour": "#ff0000", '
                '"width": 3.5, "height": 3}]}', "made.json:pieces[0]: 'width' is text or a whole number, not 3.5"),
    ("tangram", '{"width": 3, "height": 3, "pieces": {"a": 1}}', "made.json:pieces: must be a list of objects"),
    ("tangram", '{"width": 3, "height": 3, "rotations": "yes", "pieces": []}', "made.json:rotations: must be true"),
    ("tangram", "[1, 2]", "made.json: a tangram instance in JSON is an object"),
    ("tangram", '{"width": 3', "made.json: not JSON"),
    ("squares", '{"rows": 3, "cols": "x", "pieces": []}', "made.json:rows: columns 'x' is not an integer"),
    ("squares", '{"rows": 3, "cols": 3, "pieces": [{"id": 1, "edges": [1, 2]}]}', "made.json:pieces[0]: cannot read"),
    ("squares", '{"rows": 3, "cols": 3, "pairs": 5, "pieces": []}', "made.json:pairs: must be a list, not 5"),
    ("squares", '{"rows": 3, "cols": 3}', "made.json: a squares instance in JSON is an object"),
    ("squares", "[" * 100_000, "made.json: the JSON nests too deeply to read"),
])
def test_json_that_is_no_instance_is_one_line_naming_the_field(puzzle: str, text: str, words: str, tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "made.json").write_text(text)
    assert cli.main(["solve", puzzle, str(tmp_path / "made.json"), "--backend", "python"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and words in err, err


@pytest.mark.slow
@pytest.mark.parametrize("puzzle, made", [("sudoku", "9x9, "), ("tangram", "board 16 16"), ("squares", "grid 3 3")])
def test_generators_of_one_shape_need_no_flag(puzzle: str, made: str, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """A hidato board is a rectangle or a shape, which --rows/--cols or --shape says; the others have defaults."""
    printed = run(["generate", puzzle, "--seed", "1"], capsys)
    assert made in printed
    board = tmp_path / "b.txt"
    board.write_text(printed)
    round_trip(puzzle, board)


# --- the API, on every back end --------------------------------------------------------------------------------


@pytest.mark.parametrize("puzzle", sorted(SMALL))
def test_api_generate_out_then_solve_on_every_back_end(puzzle: str, pysolve_backend: str, tmp_path: Path) -> None:
    out = tmp_path / f"{puzzle}.txt"
    data, text = api.generate(puzzle, out=str(out), seed=3, **SMALL[puzzle])
    assert out.read_text() == text + "\n" and data
    round_trip(puzzle, out, pysolve_backend)


def test_api_generate_refuses_a_puzzle_without_a_generator() -> None:
    with pytest.raises(api.UnknownName, match="fichas has no generator; these puzzles generate: hidato"):
        api.generate("fichas")


# --- hypothesis: seeds and sizes ---------------------------------------------------------------------------------

GENERATED = st.one_of(
    st.builds(lambda side, holes, seed: ("hidato", {"rows": side[0], "cols": side[1], "holes": holes, "seed": seed}),
              st.tuples(st.integers(3, 5), st.integers(3, 5)), st.integers(0, 3), st.integers(0, 10_000)),
    st.builds(lambda size, seed: ("sudoku", {"size": size, "seed": seed}), st.sampled_from([4, 6]),
              st.integers(0, 10_000)),
    st.builds(lambda side, pieces, seed, turns: ("tangram", {"width": side[0], "height": side[1], "pieces": pieces,
                                                             "seed": seed, "rotations": turns}),
              st.tuples(st.integers(3, 7), st.integers(3, 7)), st.integers(2, 5), st.integers(0, 10_000),
              st.booleans()),
    st.builds(lambda side, colours, rule, seed: ("squares", {"rows": side[0], "cols": side[1], "colours": colours,
                                                             "rule": rule, "seed": seed}),
              st.tuples(st.integers(1, 3), st.integers(1, 3)), st.integers(1, 4),
              st.sampled_from(["insect", "eternity"]), st.integers(0, 10_000)),
)


def test_holes_that_leave_no_path_are_drawn_again(tmp_path: Path) -> None:
    """Seed 514's first draw of three holes in a 4x3 board leaves no path through the open cells; the next draw
    has one."""
    out = tmp_path / "holes.txt"
    data, _ = api.generate("hidato", out=str(out), rows=4, cols=3, holes=3, seed=514)
    assert data["cells"] == 9 and data["unique"]
    round_trip("hidato", out)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(asked=GENERATED)
def test_any_generated_instance_is_read_back_and_solved(asked: tuple[str, dict[str, Any]], tmp_path: Path) -> None:
    puzzle, options = asked
    out = tmp_path / "generated.txt"
    api.generate(puzzle, out=str(out), **options)
    round_trip(puzzle, out)
