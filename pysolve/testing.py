"""The contract every puzzle keeps, checked for any registered puzzle without writing a test.

A puzzle (pysolve's own, or one of yours registered through the
`pysolve.puzzles` entry point) gets these checks for free, as every game of
OpenSpiel gets its random simulation test. Each takes the puzzle and the back
ends to ask, and raises AssertionError saying what broke:

- `demo_questions_agree`: every demo question is answered by every back end
  that answers it, and all answers are the same in canonical form.
- `answers_round_trip_json`: a question's description, an answer's JSON and
  its canonical form come back equal from `json.dumps`/`json.loads`.
- `a_budget_ends_in_unknown`: with a time limit far too short, each answer is
  `unknown` naming its limit, or the whole answer (a search done before its
  first look at the clock); and the limit stops at least one search.
- `bad_input_is_one_line`: an option past its bound, or one the puzzle does
  not have, is an InputError of one line that names the option.
- `generated_instances_agree`: an instance from `generate` is read back from
  its file, solved on every back end, and all agree.
- `split_counts_add_up`: the parts `split` makes count, together, what the
  whole question counts.

`checks(puzzle)` lists those that apply (a puzzle that cannot generate has
no generate check). In pytest, one test per check and puzzle:

    import pytest
    from pysolve import testing

    @pytest.mark.parametrize("check", testing.checks("factors"), ids=lambda check: check.__name__)
    def test_factors_keeps_the_contract(check, pysolve_backends):
        check(pysolve.get_puzzle("factors"), pysolve_backends)

tests/test_conformance.py runs them over every registered puzzle and the toy
puzzle of examples/toy_puzzle.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pysolve.answers import SOLVED, UNKNOWN
from pysolve.api import PuzzleLike, crosscheck, get_puzzle
from pysolve.errors import InputError
from pysolve.puzzle import Puzzle

Check = Callable[[Puzzle, Sequence[str]], None]
TOO_SHORT = 1e-6  # CPU seconds: a limit that a search with nodes to visit passes at its first look


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
    """Descriptions, answers and canonical forms survive JSON: what the CLI's --json and the web send."""
    for question in puzzle.demo_questions():
        described = puzzle.describe(question)
        assert as_json(described) == as_json(as_json(described)), described
        for backend in asked_on(puzzle, question, backends)[:1]:
            answer = puzzle.solve(question, backend)
            data = answer.to_json()
            assert as_json(data) == json.loads(json.dumps(data, sort_keys=True)), data
            assert data["puzzle"] == puzzle.name and data["backend"] == backend
            canonical = puzzle.canonical(answer)
            assert as_json(canonical) == as_json(as_json(canonical)), canonical


def takes_a_time_limit(puzzle: Puzzle) -> bool:
    """Whether the puzzle's questions carry a time limit (an option `seconds`)."""
    return any(option.name == "seconds" for option in puzzle.options)


def a_budget_ends_in_unknown(puzzle: Puzzle, backends: Sequence[str]) -> None:
    """Under a limit far too short, each answer is unknown naming the limit, or the whole answer; and the limit
    stops at least one search."""
    stopped = []
    for question in puzzle.demo_questions():
        hurried = dataclasses.replace(question, seconds=TOO_SHORT)
        for backend in asked_on(puzzle, question, backends):
            answer = puzzle.solve(hurried, backend)
            if answer.status == UNKNOWN:
                assert "time limit" in answer.reason, (backend, puzzle.label(question), answer.reason)
                stopped.append(backend)
            else:  # done before its first look at the clock: then it is the answer without the limit
                whole = puzzle.solve(question, backend)
                assert puzzle.canonical(answer) == puzzle.canonical(whole), (backend, puzzle.label(question))
    assert stopped, f"a limit of {TOO_SHORT:g} s stopped no search of {puzzle.name}"


def bad_input_is_one_line(puzzle: Puzzle, backends: Sequence[str]) -> None:
    """A value below an option's minimum, and an option the puzzle lacks: one-line InputErrors naming it."""
    refused: dict[str, Any] = {"no_such_option": 1}
    for option in puzzle.options:
        if option.type is int and option.minimum is not None:
            refused[option.name] = int(option.minimum) - 1
    for name, value in refused.items():
        try:
            puzzle.question(**{name: value})
        except InputError as error:
            message = str(error)
            assert "\n" not in message and message, (name, message)
            assert name.replace("_", "-") in message or name in message, (name, message)
        else:
            raise AssertionError(f"{puzzle.name}: {name}={value!r} was taken")


def generated_instances_agree(puzzle: Puzzle, backends: Sequence[str]) -> None:
    """An instance `generate` made, read back from its file, is solved alike by every back end."""
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


def small_instance(puzzle: Puzzle) -> dict[str, Any]:
    """Generate options that make a small instance quickly: seed 1 and the smallest sizes each option allows
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
    """The demo questions, and the question its options ask by default with `count` on (where it has one and
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
        (a_budget_ends_in_unknown, takes_a_time_limit(chosen)),
        (bad_input_is_one_line, True),
        (generated_instances_agree, chosen.can_generate and has_file_option(chosen)),
        (split_counts_add_up, chosen.can_split),
    ]
    return [check for check, applied in applies if applied]


def has_file_option(puzzle: Puzzle) -> bool:
    """Whether the puzzle reads its instances from a file (option `file`)."""
    return any(option.name == "file" for option in puzzle.options)
