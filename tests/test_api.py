"""The public API at pysolve's top level: questions as the CLI asks them, answers, cross-checks, own back ends."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pysolve
from pysolve import cli
from pysolve.fichas.model import Question as FichasQuestion
from pysolve.paths import data_dir
from pysolve.pytest_plugin import assert_backends_agree
from pysolve.tangram.generate import generate as generate_tangram

SAMPLE = data_dir() / "hidato" / "sample.txt"

MY_TANGRAM = """\
:- module(api_tangram, [tilings/4]).  % not my_tangram: the guide loads that one

%!  tilings(+Width, +Height, +Sizes, -Count) is det.
%
%   Count is the number of ways to cover the board with the rectangles Sizes.

tilings(Width, Height, Sizes, Count) :-
    MaxX is Width - 1,
    MaxY is Height - 1,
    findall(X-Y, (between(0, MaxX, X), between(0, MaxY, Y)), Free),
    aggregate_all(count, cover(Free, Sizes), Count).

cover([], []).
cover([X-Y|Free], Sizes) :-
    select([W, H], Sizes, Rest),
    findall(CX-CY, (between(1, W, I), CX is X + I - 1, between(1, H, J), CY is Y + J - 1), Cells),
    ord_subset(Cells, [X-Y|Free]),
    ord_subtract([X-Y|Free], Cells, Left),
    cover(Left, Rest).
"""


def count_tilings(rules: pysolve.RuleBase, question) -> pysolve.Found:
    """The adapter of MY_TANGRAM: the board and sizes in, the count out."""
    board = question.instance
    sizes = [[piece.width, piece.height] for piece in board.pieces]
    (row,) = rules.query(f"tilings({board.width}, {board.height}, {sizes}, N)", seconds=30).rows
    return pysolve.Found([], count=row["N"])


def off_by_one(question) -> pysolve.Found:
    """A wrong imperative 'solver': one tiling too many."""
    return pysolve.Found([], count=37)


@pytest.fixture(scope="module")
def my_rule_base(tmp_path_factory: pytest.TempPathFactory) -> pysolve.RuleBase:
    """MY_TANGRAM in a file, loaded once (a module name can be loaded from one file only)."""
    path = tmp_path_factory.mktemp("rules") / "api_tangram.pl"
    path.write_text(MY_TANGRAM)
    return pysolve.RuleBase(path, count_tilings)


def cli_question(*argv: str):
    """The question `pysolve solve ARGV` asks, from the CLI's own parser."""
    args = cli.build_parser().parse_args(["solve", *argv])
    puzzle = pysolve.get_puzzle(args.puzzle)
    return puzzle.question(**cli.question_values(puzzle, args))


@pytest.mark.parametrize("argv, name, args, options", [
    (["fichas", "--m", "2", "--n", "3", "--strategy", "bfs", "--flavour", "py"],
     "fichas", (), {"m": 2, "n": 3, "strategy": "bfs", "flavour": "py"}),
    (["tangram", "--place", "green:0,0", "--place", "blue:0,2", "--all"],
     "tangram", (), {"place": ["green:0,0", "blue:0,2"], "all": True}),
    (["hidato", str(SAMPLE), "--count", "2"], "hidato", (SAMPLE,), {"count": 2}),
    (["squares", "insects", "--up-to-rotation", "--count"],
     "squares", (), {"file": "insects", "up_to_rotation": True, "count": True}),
    (["azul", "--players", "3", "--seed", "9"], "azul", (), {"players": 3, "seed": 9}),
])
def test_keyword_options_ask_the_question_the_cli_asks(argv, name, args, options) -> None:
    assert pysolve.question(name, *args, **options) == cli_question(*argv)


def test_known_counts_on_each_chosen_backend(pysolve_backend: str) -> None:
    assert pysolve.count("tangram", strategy="cell", backend=pysolve_backend) == 36
    assert pysolve.count("squares", "insects", backend=pysolve_backend) == 4
    assert pysolve.count("hidato", SAMPLE, count=2, backend=pysolve_backend) == 1


@pytest.mark.pysolve_backends("prolog", "python")  # kanren answers only dfs and shortest
def test_solve_answers_with_the_path_the_spec_gives(pysolve_backend: str) -> None:
    answer = pysolve.solve("fichas", m=2, n=2, strategy="bfs", backend=pysolve_backend)
    assert " ".join(answer.solutions[0]) == "BBHVV BBVVH BHVVB BVVHB HVVBB VVHBB"
    assert answer.backend == pysolve_backend and answer.status == "solved"
    assert answer.question == {"m": 2, "n": 2, "strategy": "bfs", "flavour": "hs"}


def test_a_ready_question_object_is_accepted() -> None:
    answer = pysolve.solve("fichas", question=FichasQuestion(1, 2, "dfs", "py"), backend="python")
    assert " ".join(answer.solutions[0]) == "BHVV BVVH HVVB VVHB"
    with pytest.raises(pysolve.InputError, match="either question"):
        pysolve.solve("fichas", m=1, question=FichasQuestion(1, 2))


def test_crosscheck_asks_every_chosen_backend(pysolve_backends: list[str]) -> None:
    report = pysolve.crosscheck("tangram", all=True, place=["green:0,0"], backends=pysolve_backends)
    assert report.agree, report.difference
    assert list(report.results) == pysolve_backends
    assert {answer.count for answer in report.results.values()} == {len(report.results["python"].solutions)}


@pytest.mark.pysolve_backends("prolog")
def test_an_own_rule_base_is_cross_checked_like_the_built_in_ones(pysolve_backend, my_rule_base,
                                                                   pysolve_backends) -> None:
    assert my_rule_base.name == "prolog:api_tangram" and my_rule_base.module == "api_tangram"
    assert pysolve.solve("tangram", count=True, backend=my_rule_base).count == 36
    report = pysolve.crosscheck("tangram", count=True, strategy="cell", also=[my_rule_base],
                                backends=pysolve_backends)
    assert report.agree, report.difference
    assert list(report.results) == ["prolog:api_tangram", *pysolve_backends]


def test_a_wrong_own_solver_is_named_in_the_difference() -> None:
    report = pysolve.crosscheck("tangram", count=True, strategy="cell", also={"mine": off_by_one},
                                backends=["python"])
    assert not report.agree
    assert report.difference == "mine and python differ at answer['count']: 37 against 36"


@pytest.mark.pysolve_backends("prolog")
@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # pysolve_backend is a plain name
@given(width=st.integers(2, 5), height=st.integers(2, 5), pieces=st.integers(2, 4), seed=st.integers(0, 10**6))
def test_own_rule_base_agrees_on_generated_boards(pysolve_backend, tmp_path_factory, my_rule_base, width, height,
                                                  pieces, seed) -> None:
    board = tmp_path_factory.mktemp("board") / "board.txt"
    board.write_text(generate_tangram(width, height, pieces, seed, False).to_text())
    assert_backends_agree("tangram", board, count=True, strategy="cell", reference=my_rule_base,
                          backends=["python"])


@pytest.mark.subprocess
@pytest.mark.pysolve_backends("prolog")
def test_raw_prolog_goals_run_against_a_rule_base(pysolve_backend: str) -> None:
    result = pysolve.query("fichas", "move('BHV', Next)")
    assert [row["Next"] for row in result.rows] == ["HBV", "BVH"] and result.status == "complete"
    assert pysolve.query("fichas", "move('BHV', Next)", max_solutions=1).status == "max_solutions"


def test_picture_options_write_their_files(tmp_path: Path) -> None:
    out = tmp_path / "first.svg"
    pysolve.solve("tangram", svg=out, backend="python")
    assert out.read_text().startswith("<svg") or "<svg" in out.read_text()[:200]


@pytest.mark.parametrize("call, error, message", [
    (lambda: pysolve.question("tangram", colour="red"), pysolve.UnknownName, "has no option 'colour'"),
    (lambda: pysolve.question("hidato", SAMPLE, count=0), pysolve.InputError, "--count: 0 is not greater than 0"),
    (lambda: pysolve.question("nonogram"), pysolve.UnknownName, "unknown puzzle 'nonogram'"),
    (lambda: pysolve.question("fichas", m=1, n=99), pysolve.InputError, "order n=99 is out of range"),
    (lambda: pysolve.count("fichas", m=1, n=1), pysolve.InputError, "fichas has no count question"),
    (lambda: pysolve.count("tangram", backend="java"), pysolve.UnknownName, "unknown back end 'java'"),
    (lambda: pysolve.crosscheck("tangram", backends=["java"]), pysolve.UnknownName, "unknown back end 'java'"),
    (lambda: pysolve.solve("tangram", backend=lambda q: 36), pysolve.PysolveError,
     "<lambda> returned int 36, not a pysolve.Found"),
    (lambda: pysolve.crosscheck("tangram", also={"python": off_by_one}), pysolve.InputError, "built-in back end"),
    (lambda: pysolve.RuleBase("rules.txt", count_tilings), pysolve.InputError, "not a .pl file"),
    (lambda: pysolve.RuleBase("missing.pl", count_tilings), pysolve.UnknownName, "does not exist"),
])
def test_bad_calls_raise_one_clear_error(call, error, message) -> None:
    with pytest.raises(error, match=message):
        call()


@pytest.mark.subprocess
@pytest.mark.pysolve_backends("prolog")
def test_a_broken_rule_base_is_refused_when_added(pysolve_backend: str, tmp_path: Path) -> None:
    path = tmp_path / "broken.pl"
    path.write_text(":- module(broken, [p/1]).\np(X) :- q(Y).\n")
    with pytest.raises(pysolve.PrologError, match="did not load cleanly"):
        pysolve.RuleBase(path, count_tilings)


def test_the_public_names_are_documented_and_crosscheck_is_the_function() -> None:
    import pysolve.agreement  # the module behind it, loaded: the package's name stays the function
    assert inspect.isfunction(pysolve.crosscheck) and pysolve.crosscheck is pysolve.api.crosscheck
    for name in pysolve.__all__:
        value = getattr(pysolve, name)
        if callable(value):
            assert inspect.getdoc(value), name
    assert set(pysolve.__all__) >= {"solve", "count", "crosscheck", "question", "query", "RuleBase"}
