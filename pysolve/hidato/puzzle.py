"""The Hidato puzzle: questions from the CLI, the three back ends, answers drawn."""

from __future__ import annotations

import argparse
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pysolve.errors import InputError
from pysolve.hidato import draw, generate, kanren, model, prolog, python
from pysolve.hidato.model import Board
from pysolve.paths import data_dir
from pysolve.puzzle import NO_SOLUTION, SOLVED, Answer, Found, Puzzle, Solver

DEFAULT_SECONDS = 30.0


@dataclass(frozen=True)
class Question:
    """Solve a board (first solution, or count up to `count`), or validate a filled one."""

    board: Board
    file: str
    count: int | None = None
    strategy: str = python.FAST
    validate: bool = False
    seconds: float = DEFAULT_SECONDS
    nodes: int = 0

    @property
    def limit(self) -> int:
        """How many solutions to look for."""
        return self.count or 1


def positive(kind: type) -> Any:
    """An argparse type: a number of `kind` greater than zero."""

    def convert(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if not value > 0:
            raise argparse.ArgumentTypeError(f"{text} is not greater than 0")
        return value

    return convert


def sample_file() -> Path:
    """The 8-row sample shipped in data/hidato/."""
    return data_dir() / "hidato" / "sample.txt"


class HidatoPuzzle(Puzzle):
    """Hidato: fill 1..N into a board so that consecutive numbers are a king move apart."""

    name = "hidato"
    summary = "fill 1..N so that consecutive numbers touch (king moves); solve, count, validate, generate"
    can_generate = True

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """FILE and the hidato options of `pysolve solve/crosscheck hidato`."""
        parser.add_argument("file", metavar="FILE", help="board: JSON rows (0 empty, -1 blocked) or text (__ empty, . blocked)")
        parser.add_argument("--count", type=positive(int), metavar="K",
                            help="count solutions, stopping at K (--count 2 answers 'unique?')")
        parser.add_argument("--validate", action="store_true", help="FILE is a filled board: check it, name the pair that breaks")
        parser.add_argument("--strategy", choices=python.STRATEGIES, default=python.FAST,
                            help="fast (Python: strengthened walk, Prolog: CLP(FD)) or original (the original's walk)")
        parser.add_argument("--seconds", type=positive(float), default=DEFAULT_SECONDS, help="time budget of the search")
        parser.add_argument("--nodes", type=positive(int), default=0, help="node budget (Python and miniKanren)")
        parser.add_argument("--svg", metavar="OUT", help="also draw the (first) solution as SVG into OUT")

    def question(self, args: argparse.Namespace) -> Question:
        """The question FILE and the options ask; InputError on a bad board or bad combination."""
        board = model.load(args.file)
        if args.validate:
            if args.count:
                raise InputError("--validate checks one filled board; it takes no --count")
            model.require_filled(board)
        return Question(board, args.file, args.count, args.strategy, args.validate, args.seconds, args.nodes or 0)

    def describe(self, question: Question) -> dict[str, Any]:
        """The question as JSON: the file, the board and the options."""
        return {"file": question.file, "puzzle": question.board.grid(), "cells": question.board.size,
                "givens": len(question.board.givens), "count": question.count,
                "strategy": question.strategy, "validate": question.validate}

    def solvers(self, question: Question) -> dict[str, Solver]:
        """Validation on Prolog and Python; solving on all three back ends."""
        if question.validate:
            return {"prolog": validate_prolog, "python": validate_python}
        return {"prolog": solve_prolog, "kanren": solve_kanren, "python": solve_python}

    def canonical(self, answer: Answer) -> Any:
        """Status plus: the broken pairs (validate), the count and complete solution set, or validity."""
        if answer.question["validate"]:
            return {"status": answer.status, "broken": answer.stats.get("broken", [])}
        asked = answer.question["count"]
        if asked:
            complete = answer.count is not None and answer.count < asked
            return {"status": answer.status, "count": answer.count,
                    "solutions": sorted(answer.solutions) if complete else f"at least {asked}"}
        board = Board(tuple(map(tuple, answer.question["puzzle"])))
        return {"status": answer.status, "valid": [model.solves(board, grid) for grid in answer.solutions]}

    def render(self, answer: Answer) -> str:
        """The solutions (or the puzzle) drawn as boxes, and a line saying what was found."""
        pictures = [draw.text(grid) for grid in answer.solutions] or [draw.text(answer.question["puzzle"])]
        return "\n\n".join(pictures) + "\n" + verdict(answer)

    def write_files(self, answer: Answer, args: argparse.Namespace) -> list[str]:
        """The SVG picture when --svg OUT was given."""
        if not getattr(args, "svg", None):
            return []
        puzzle = answer.question["puzzle"]
        rows = answer.solutions[0] if answer.solutions else puzzle
        Path(args.svg).write_text(draw.svg(rows, puzzle), encoding="utf-8")
        return [args.svg]

    def add_generate_arguments(self, parser: argparse.ArgumentParser) -> None:
        """The options of `pysolve generate hidato`."""
        parser.add_argument("--rows", type=positive(int), help="rows of a rectangular board")
        parser.add_argument("--cols", type=positive(int), help="columns of a rectangular board")
        parser.add_argument("--shape", metavar="FILE", help="take the board's shape (open cells) from a hidato file")
        parser.add_argument("--holes", type=int, default=0, help="block this many random cells")
        parser.add_argument("--givens", type=float, default=0.0, metavar="FRACTION",
                            help="stop removing givens at this fraction of the cells (default: as few as stay unique)")
        parser.add_argument("--seed", type=int, help="random seed (default: a fresh one, printed)")
        parser.add_argument("--nodes", type=positive(int), default=generate.CHECK_NODES,
                            help="node budget of each uniqueness check (candidates over it are discarded)")

    def generate(self, args: argparse.Namespace) -> tuple[dict[str, Any], str]:
        """A generated unique puzzle as JSON data and as a hidato text file."""
        data = generate.generate(recipe(args))
        header = (f"# hidato generated by pysolve: seed {data['seed']}, {data['rows']}x{data['cols']}, "
                  f"{data['givens']} givens of {data['cells']} cells, difficulty {data['difficulty']['label']} "
                  f"({data['difficulty']['states']} states)\n")
        return data, header + model.to_text(data["puzzle"]).rstrip("\n")

    def demo_questions(self) -> list[Question]:
        """The sample, counted to 2 (solution and uniqueness)."""
        board = model.load(sample_file())
        return [Question(board, str(sample_file()), count=2)]


def recipe(args: argparse.Namespace) -> generate.Recipe:
    """The generator recipe from `pysolve generate hidato` options; InputError when they do not fit."""
    if not 0 <= args.givens <= 1:
        raise InputError(f"--givens {args.givens} is not a fraction between 0 and 1")
    if args.holes < 0:
        raise InputError(f"--holes {args.holes} is negative")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    if args.shape:
        shape = model.load_shape(args.shape)
        return generate.Recipe(shape.height, shape.width, seed, args.holes, args.givens, shape, args.nodes)
    if not (args.rows and args.cols):
        raise InputError("give --rows R --cols C, or --shape FILE")
    return generate.Recipe(args.rows, args.cols, seed, args.holes, args.givens, None, args.nodes)


def verdict(answer: Answer) -> str:
    """One line: valid or the broken pairs, unique or how many, or no solution / unknown."""
    if answer.question["validate"]:
        broken = answer.stats.get("broken", [])
        if not broken:
            return "valid: every pair of consecutive numbers touches"
        return "not a solution: " + "; ".join(f"{a} and {b} do not touch" for a, b in broken)
    if answer.status != SOLVED:
        return f"{answer.status}"
    asked = answer.question["count"]
    if not asked:
        return "solved"
    if answer.count == 1 and asked > 1:
        return "1 solution: unique"
    return f"{answer.count} solutions" + (" (stopped at the limit)" if answer.count == asked else "")


def counted(found: Found, question: Question) -> Found:
    """`found` with its count filled in when the question counts."""
    if question.count:
        found.count = len(found.solutions)
    return found


def solve_python(question: Question) -> Found:
    """The Python walk (fast or original)."""
    return counted(python.solve(question.board, question.limit, question.strategy,
                                question.nodes, question.seconds), question)


def solve_prolog(question: Question) -> Found:
    """prolog/hidato.pl: CLP(FD) (fast) or the original walk."""
    return counted(prolog.solve(question.board, question.limit, question.strategy, question.seconds), question)


def solve_kanren(question: Question) -> Found:
    """The miniKanren relation (the original walk, whatever the strategy)."""
    return counted(kanren.solve(question.board, question.limit, question.nodes, question.seconds), question)


def validation(question: Question, broken: list[list[int]]) -> Found:
    """A validation answer: the board itself when nothing is broken, else the broken pairs."""
    if broken:
        return Found([], {"broken": broken}, status=NO_SOLUTION)
    return Found([question.board.grid()], {"broken": []}, status=SOLVED)


def validate_python(question: Question) -> Found:
    """Check a filled board in Python."""
    return validation(question, model.broken_pairs(question.board))


def validate_prolog(question: Question) -> Found:
    """Check a filled board with broken_pairs/2."""
    return validation(question, prolog.broken_pairs(question.board, question.seconds))


PUZZLE = HidatoPuzzle()
