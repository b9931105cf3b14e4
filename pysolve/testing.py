"""The contract every puzzle keeps, checked for any registered puzzle without writing a test.

A puzzle (pysolve's own, or one of yours registered through the
`pysolve.puzzles` entry point) gets these checks for free, as every game of
OpenSpiel gets its random simulation test. Each takes the puzzle and the back
ends to ask, and raises AssertionError saying what broke:

- `demo_questions_agree`: every demo question is answered by every back end
  that answers it, and all answers are the same in canonical form.
- `answers_round_trip_json`: a question's description and an answer's JSON
  come back equal from `json.dumps`/`json.loads`, and the answer read back is
  the same in canonical form.
- `a_budget_ends_in_unknown`: within a budget far too small (one node, a
  microsecond of CPU), each answer is `unknown` naming the budget, or the
  whole answer (a search done before its first look at the budget); and the
  budget stops at least one search.
- `bad_input_is_one_line`: a value its options refuse (below a minimum, out
  of the choices), an option it does not have, and a file of no puzzle for
  each option that reads one, are each an InputError of one line naming the
  option or the file.
- `cli_bad_input_is_one_line`: `pysolve solve NAME` given such input exits 2
  with the same line on stderr and no traceback (one process; the puzzle must
  be installed, for the CLI finds it through its entry point).
- `generated_instances_agree`: an instance from `generate` (small sizes, seed
  1) is read back from its file, solved on every back end, all agree, and each
  solution keeps the rules (the `broken` of its rules interface's module).
- `split_counts_add_up`: the parts `split` makes count, together, what the
  whole question counts, on every back end.

`checks(puzzle)` lists those that apply (a puzzle that cannot generate has
no generate check); `cases(puzzles)` makes them pytest parameters, one test
per puzzle and check. Your puzzle's tests, once it is installed:

    import pytest
    from pysolve import testing

    @pytest.mark.parametrize(("puzzle", "check"), testing.cases(["factors"]))
    def test_factors_keeps_the_contract(puzzle, check, pysolve_backends):
        check(puzzle, pysolve_backends)

Without an argument, `cases()` takes every registered puzzle.

tests/test_conformance.py runs them over every registered puzzle and the toy
puzzle of examples/toy_puzzle.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pysolve import options
from pysolve.answers import SOLVED, UNKNOWN, Answer
from pysolve.api import PuzzleLike, crosscheck, get_puzzle, puzzle_names
from pysolve.budget import Budget
from pysolve.errors import InputError
from pysolve.puzzle import Puzzle

Check = Callable[[Puzzle, Sequence[str]], None]
TOO_SHORT = 1e-6  # CPU seconds: a limit that a search with nodes to visit passes at its first look
TOO_FEW = 1  # nodes: a budget that a search of more than its first node passes
NOT_A_PUZZLE = "this line is no puzzle of any kind\n"  # a file every puzzle's reader refuses
CLI_SECONDS = 120  # the CLI's bad-input run: it ends in one line at once, or it hangs


def asked_on(puzzle: Puzzle, question: Any, backends: Sequence[str]) -> list[str]:
    """The back ends of `backends` that answer `question` (the others decline it)."""
    return [backend for backend in puzzle.backends_for(question) if backend in backends]


def as_json(value: Any) -> Any:
    """`value` after a trip through JSON text."""
    return json.loads(json.dumps(value))


def demo_questions_agree(puzzle: Puzzle, backends: Sequence[str]) -> None:
    """Every demo question answered by each back end that answers it, the answers the same."""
    questions = puzzle.demo_questions()
    assert questions, f"{puzzle.name} has no demo question"
    for question in questions:
        names = asked_on(puzzle, question, backends)
        report = crosscheck(puzzle, question=question, backends=names)
        assert set(report.results) == set(names), (puzzle.label(question), report.unanswered())
        assert report.agree, (puzzle.label(question), report.difference)


def answers_round_trip_json(puzzle: Puzzle, backends: Sequence[str]) -> None:
    """Descriptions and answers survive a JSON round trip unchanged.

    A question's description and an answer's JSON come back equal from `json.dumps`/`json.loads` (what the
    CLI's --json and the web send), and the answer read back from it is the same answer in canonical form."""
    for question in puzzle.demo_questions():
        described = puzzle.describe(question)
        assert as_json(described) == described, described
        for backend in asked_on(puzzle, question, backends)[:1]:
            answer = puzzle.solve(question, backend)
            data = answer.to_json()
            assert as_json(data) == data, data
            assert data["puzzle"] == puzzle.name and data["backend"] == backend
            read_back = Answer(**as_json(data), asked=question)
            assert puzzle.canonical(read_back) == puzzle.canonical(answer), (backend, puzzle.label(question))


def answered_within(puzzle: Puzzle, question: Any, backend: str, budget: Budget) -> Answer:
    """One back end's answer within a given budget.

    `backend`'s answer to `question` searched within `budget` instead of the question's own, timed as
    `Puzzle.solve` times it (a search past its budget answers unknown)."""
    solver = puzzle.solvers(question)[backend]
    return puzzle.run(backend, lambda asked: solver(asked, budget), question)


def a_budget_ends_in_unknown(puzzle: Puzzle, backends: Sequence[str]) -> None:
    """A budget far too small ends each search in unknown.

    Under a budget far too small, each answer is unknown naming the budget, or the whole answer; and the
    budget stops at least one search.

    The budget is TOO_FEW nodes (the Python and miniKanren searches count them) and TOO_SHORT CPU seconds
    (Prolog counts those, at least a millisecond); a search with nothing to visit past its start is done
    before either is looked at, and then its answer must be the one it gives without the budget.
    """
    stopped = []
    for question in puzzle.demo_questions():
        for backend in asked_on(puzzle, question, backends):
            budget = Budget(nodes=TOO_FEW, seconds=TOO_SHORT, label=f"{backend} {puzzle.name} search")
            answer = answered_within(puzzle, question, backend, budget)
            if answer.status == UNKNOWN:
                named = f"budget of {TOO_FEW} nodes" in answer.reason or "time limit" in answer.reason
                assert named, (backend, puzzle.label(question), answer.reason)
                stopped.append(backend)
            else:
                whole = puzzle.solve(question, backend)
                assert puzzle.canonical(answer) == puzzle.canonical(whole), (backend, puzzle.label(question))
    assert stopped, f"a budget of {TOO_FEW} node and {TOO_SHORT:g} s stopped no search of {puzzle.name}"


def valid_values(puzzle: Puzzle) -> dict[str, Any]:
    """Option values the puzzle takes, from its first demo question.

    Option values its options take: those of the first demo question's description that name an option
    (none when they are no such values), so that one bad value beside them is the only mistake."""
    table = puzzle.question_options()
    names = {option.name for option in table}
    values = {name: value for name, value in puzzle.describe(puzzle.demo_questions()[0]).items() if name in names}
    try:
        options.check(table, values, puzzle.name)
    except InputError:
        return {}
    return values


def bad_values(puzzle: Puzzle) -> dict[str, Any]:
    """One refused value per option, and an option the puzzle lacks.

    Values the option table refuses, one an option: below its minimum, not above its bound, out of its
    choices; and an option the puzzle lacks."""
    refused: dict[str, Any] = {"no_such_option": 1}
    for option in puzzle.question_options():
        if option.type in (int, float) and option.minimum is not None:
            refused[option.name] = option.type(option.minimum) - 1
        elif option.type in (int, float) and option.above is not None:
            refused[option.name] = option.type(option.above)
        elif option.choices and option.type in (int, str):
            refused[option.name] = max(option.choices) + 1 if option.type is int else "no such choice"
    return refused


def bad_input_is_one_line(puzzle: Puzzle, backends: Sequence[str]) -> None:
    """Bad options and bad files are each an InputError of one line.

    Bad input is an InputError of one line: each value the option table refuses (naming the option), and
    a file of no puzzle for each option that reads one (the puzzle's own reader, naming the file)."""
    given = valid_values(puzzle)
    for name, value in bad_values(puzzle).items():
        message = refusal(puzzle, {**given, name: value})
        assert name.replace("_", "-") in message or name in message, (name, message)
    with tempfile.TemporaryDirectory() as folder:
        for option in puzzle.question_options():
            if option.reads_file:
                path = Path(folder) / f"no-puzzle.{option.name}"
                path.write_text(NOT_A_PUZZLE, encoding="utf-8")
                message = refusal(puzzle, {**given, option.name: str(path)})
                assert path.name in message, (option.name, message)


def refusal(puzzle: Puzzle, given: dict[str, Any]) -> str:
    """The one-line message of the InputError that asking `given` raises (AssertionError when it is taken)."""
    try:
        puzzle.question(**given)
    except InputError as error:
        message = str(error)
        assert message and "\n" not in message, (given, message)
        return message
    raise AssertionError(f"{puzzle.name}: {given} was taken")


def cli_bad_input_is_one_line(puzzle: Puzzle, backends: Sequence[str]) -> None:
    """The CLI answers bad input with exit 2 and one line on stderr.

    `pysolve solve NAME` given bad input exits 2 with one line on stderr, the API's message, and no
    traceback: a file of no puzzle where the puzzle reads one, else a value its options refuse. One process
    (the puzzle must be installed: the CLI finds it through its entry point)."""
    given = valid_values(puzzle)
    reads = [option.name for option in puzzle.question_options() if option.reads_file]
    with tempfile.TemporaryDirectory() as folder:
        if reads:
            path = Path(folder) / "no-puzzle.txt"
            path.write_text(NOT_A_PUZZLE, encoding="utf-8")
            given[reads[0]] = str(path)
        else:
            name, value = next(item for item in bad_values(puzzle).items() if item[0] != "no_such_option")
            given[name] = value
        expected = refusal(puzzle, given)
        ran = subprocess.run([sys.executable, "-m", "pysolve", "solve", puzzle.name, *arguments(puzzle, given)],
                             capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=CLI_SECONDS)
    assert ran.returncode == 2, (ran.returncode, ran.stderr)
    assert ran.stderr == f"pysolve: error: {expected}\n", ran.stderr


def arguments(puzzle: Puzzle, given: dict[str, Any]) -> list[str]:
    """Option values as `pysolve solve NAME`'s arguments: FILE as itself, a flag when true, `--name value`."""
    words: list[str] = []
    for option in puzzle.question_options():
        value = given.get(option.name)
        if value is None or value is False:
            continue
        if option.positional:
            words.append(str(value))
        elif value is True:
            words.append(option.flag)
        else:
            for item in (value if option.many else [value]):
                words += [option.flag, str(item)]
    return words


def generated_instances_agree(puzzle: Puzzle, backends: Sequence[str]) -> None:
    """Generated instances are solved alike by every back end, within the rules.

    An instance `generate` made, read back from its file, is solved alike by every back end, and every
    solution keeps the puzzle's rules (`broken` of the module its rules interface names, where it has one)."""
    data, text = puzzle.generated(**small_instance(puzzle))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"generated.{puzzle.name}.txt"
        path.write_text(text, encoding="utf-8")
        question = puzzle.question(file=str(path))
        names = asked_on(puzzle, question, backends)
        report = crosscheck(puzzle, question=question, backends=names)
    assert set(report.results) == set(names), report.unanswered()
    assert report.agree, report.difference
    assert all(answer.status == SOLVED for answer in report.results.values()), data
    if puzzle.rules is not None and puzzle.rules.properties:
        rules = importlib.import_module(puzzle.rules.properties)
        for backend, answer in report.results.items():
            for solution in answer.solutions:
                assert not rules.broken(question, solution, answer), (backend, solution)


def small_instance(puzzle: Puzzle) -> dict[str, Any]:
    """Generate options for a small instance, made quickly.

    Generate options that make a small instance quickly: seed 1 and the smallest sizes each option allows
    (at least 3), where the puzzle has them."""
    sizes = {"rows": 3, "cols": 3, "size": 4, "width": 6, "height": 6, "pieces": 4}
    names = {option.name for option in puzzle.generate_options}
    return {name: value for name, value in {"seed": 1, **sizes}.items() if name in names}


def split_counts_add_up(puzzle: Puzzle, backends: Sequence[str]) -> None:
    """The counts of a question's parts add up to its own count, on each back end."""
    split = [(question, parts) for question in counted(puzzle) if (parts := puzzle.split(question))]
    assert split, f"{puzzle.name} splits none of its demo questions, nor its default count"
    for question, parts in split:
        for backend in asked_on(puzzle, question, backends):
            whole = puzzle.solve(question, backend)
            counts = [count for part in parts if (count := puzzle.solve(part, backend).count) is not None]
            assert len(counts) == len(parts) and whole.count is not None, (backend, puzzle.label(question))
            assert puzzle.total(question, counts) == whole.count, (backend, puzzle.label(question), counts)


def counted(puzzle: Puzzle) -> list[Any]:
    """The questions a count check asks.

    The demo questions, and the question its options ask by default with `count` on (where it has one and
    needs nothing more)."""
    questions = puzzle.demo_questions()
    if any(option.name == "count" for option in puzzle.options):
        with contextlib.suppress(InputError):  # an option is required: the demo questions are all there is
            questions.append(puzzle.question(count=True))
    return questions


def checks(puzzle: PuzzleLike) -> list[Check]:
    """The checks that apply to `puzzle`, in the order above."""
    chosen = get_puzzle(puzzle)
    applies: list[tuple[Check, bool]] = [
        (demo_questions_agree, True),
        (answers_round_trip_json, True),
        (a_budget_ends_in_unknown, True),
        (bad_input_is_one_line, True),
        (cli_bad_input_is_one_line, True),
        (generated_instances_agree, chosen.can_generate and has_file_option(chosen)),
        (split_counts_add_up, chosen.can_split),
    ]
    return [check for check, applied in applies if applied]


def cases(puzzles: Sequence[PuzzleLike] | None = None, process_marks: Sequence[Any] = ()) -> list[Any]:
    """The (puzzle, check) pytest parameters of the conformance suite.

    pytest parameters (puzzle, check) for `pytest.mark.parametrize`: one per check that applies to each of
    `puzzles` (default: every registered puzzle), its id `NAME-check`; the check that starts the CLI carries
    `process_marks` (pysolve's own suite: `pytest.mark.subprocess`, its layer of tests that start a process)."""
    import pytest  # pysolve's plugin needs it too; asked for only where tests are made

    chosen = [get_puzzle(puzzle) for puzzle in (puzzle_names() if puzzles is None else puzzles)]
    return [pytest.param(puzzle, check, id=f"{puzzle.name}-{check.__name__}",
                         marks=list(process_marks) if check is cli_bad_input_is_one_line else [])
            for puzzle in chosen for check in checks(puzzle)]


def has_file_option(puzzle: Puzzle) -> bool:
    """Whether the puzzle reads its instances from a file (option `file`)."""
    return any(option.name == "file" for option in puzzle.options)
