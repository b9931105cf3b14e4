"""PUZZLE: edge-matching squares wired to the three back ends."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pysolve.errors import InputError, SearchLimitExceeded
from pysolve.budget import Budget
from pysolve.puzzle import NO_SOLUTION, SOLVED, Answer, Found, Puzzle, Solver
from pysolve.squares import draw, kanren, prolog, python
from pysolve.squares.generate import generate
from pysolve.squares.model import INSECT, RULES, Grid, Instance, dump, grid_from_json, grid_to_json, load

FIRST, ALL, COUNT = "first", "all", "count"
STRATEGIES = ("fast", "original")  # python: fast / reference; prolog: indexed / original
PROLOG_STRATEGY = {"fast": "indexed", "original": "original"}
TRACE_EVENTS = 200_000


@dataclass(frozen=True)
class Question:
    """Which solutions of which instance, on which search strategy, within how many seconds."""

    instance: Instance
    mode: str = FIRST
    up_to_rotation: bool = False
    strategy: str = "fast"
    seconds: float = 60.0

    def __post_init__(self) -> None:
        if self.mode not in (FIRST, ALL, COUNT):
            raise InputError(f"unknown question {self.mode!r}; use first, all or count")
        if self.strategy not in STRATEGIES:
            raise InputError(f"unknown strategy {self.strategy!r}; use one of {', '.join(STRATEGIES)}")
        if not self.seconds > 0:
            raise InputError(f"--seconds must be positive, not {self.seconds}")

    @property
    def limit(self) -> int:
        """How many solutions to collect (0: all)."""
        return 1 if self.mode == FIRST else 0


def found(question: Question, grids: list[Grid], count: int, stats: dict[str, Any]) -> Found:
    """A solver's answer: the grids as JSON (none when only counting) and the count."""
    solutions = [] if question.mode == COUNT else [grid_to_json(grid) for grid in grids]
    return Found(solutions, stats, count, SOLVED if count else NO_SOLUTION)


class Collector:
    """A visitor for the Python solvers: keeps (or only counts) solutions, stops after the first."""

    def __init__(self, question: Question) -> None:
        self.question, self.grids, self.count = question, [], 0

    def __call__(self, grid: Grid) -> bool:
        self.count += 1
        if self.question.mode != COUNT:
            self.grids.append(grid)
        return self.question.mode == FIRST


def solve_python(question: Question) -> Found:
    """The imperative solvers: `fast` (indexed, symmetry-pruned) or `original` (the reference)."""
    instance, collector = question.instance, Collector(question)
    limit = Budget(seconds=question.seconds, label="Python squares search")
    if question.strategy == "original":
        visit = python.only_canonical(collector) if question.up_to_rotation else collector
        python.reference(instance, visit, limit)
    elif question.mode == FIRST and not question.up_to_rotation:
        python.fast(instance, collector, limit)
    else:
        visit = collector if question.up_to_rotation else python.with_turns(collector)
        python.fast(instance, visit, limit, classes=True)
    return found(question, collector.grids, collector.count, {"states": limit.spent})


def solve_prolog(question: Question) -> Found:
    """prolog/squares.pl, one bounded query: the solutions, or the count made inside Prolog."""
    strategy = PROLOG_STRATEGY[question.strategy]
    rotation = prolog_rotation(question)
    if question.mode == COUNT:
        count, status = prolog.count(question.instance, strategy, rotation, question.seconds)
        grids: list[Grid] = []
    else:
        grids, status = prolog.solutions(question.instance, strategy, rotation, question.limit, question.seconds)
        count = len(grids)
    if status in ("time_limit", "inference_limit") or count is None:
        raise SearchLimitExceeded(f"Prolog squares search stopped: {status} ({question.seconds:g} s)")
    return found(question, grids, count, {"strategy": strategy})


def prolog_rotation(question: Question) -> str:
    """solve/3's Rotation: the original's order for a first solution or the original strategy, else by class."""
    if question.up_to_rotation:
        return "up_to_rotation"
    return "all" if question.mode == FIRST or question.strategy == "original" else "by_class"


def solve_kanren(question: Question) -> Found:
    """The miniKanren relations, depth-first, within a node and time budget."""
    budget = Budget(seconds=question.seconds)
    grids = kanren.solutions(question.instance, question.up_to_rotation, question.limit, budget)
    return found(question, grids, len(grids), {"states": budget.spent})


class Squares(Puzzle):
    """Edge-matching squares: the 3x3 insect puzzle, Owen's eternity sets, any R x C set."""

    name = "squares"
    summary = "edge-matching squares: the 3x3 insect puzzle and any R x C set"
    can_generate = True

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """FILE, the question (--all / --count, default the first solution), pictures and bounds."""
        parser.add_argument("file", metavar="FILE", nargs="?",
                            help="a squares file, or a shipped instance: insects (default), eternity-3x3 .. eternity-6x6")
        which = parser.add_mutually_exclusive_group()
        which.add_argument("--all", action="store_true", help="all solutions (default: the first)")
        which.add_argument("--count", action="store_true", help="only count the solutions")
        parser.add_argument("--up-to-rotation", action="store_true",
                            help="one solution per class under turns of the whole grid")
        parser.add_argument("--strategy", choices=STRATEGIES, default="fast",
                            help="python and prolog: fast (indexed, symmetry broken; default) or original (the literal search)")
        parser.add_argument("--seconds", type=float, default=60.0, help="time limit of the search (default 60)")
        parser.add_argument("--svg", metavar="OUT", help="write the first solution as SVG")
        parser.add_argument("--trace-html", metavar="OUT",
                            help="write an HTML page replaying the original's search step by step")

    def question(self, args: argparse.Namespace) -> Question:
        """The question the CLI arguments ask."""
        mode = ALL if args.all else COUNT if args.count else FIRST
        return Question(load(args.file), mode, args.up_to_rotation, args.strategy, args.seconds)

    def solvers(self, question: Question) -> dict[str, Solver]:
        """All three back ends answer every question."""
        return {"prolog": solve_prolog, "kanren": solve_kanren, "python": solve_python}

    def describe(self, question: Question) -> dict[str, Any]:
        """The question as JSON: the instance by name and size, the mode and options."""
        instance = question.instance
        return {"instance": instance.name, "rows": instance.rows, "cols": instance.cols, "rule": instance.rule,
                "mode": question.mode, "up_to_rotation": question.up_to_rotation,
                "strategy": question.strategy}

    def canonical(self, answer: Answer) -> Any:
        """The count and the sorted set of grids (the first solution is the same on every back end)."""
        grids = sorted(grid_from_json(solution) for solution in answer.solutions)
        return {"count": answer.count, "solutions": grids}

    def render(self, answer: Answer) -> str:
        """Each solution drawn as boxes, then the count."""
        instance = self.instance_of(answer)
        parts = [draw.text_grid(instance, grid_from_json(solution)) for solution in answer.solutions]
        what = "classes of solutions" if answer.question["up_to_rotation"] else "solutions"
        if answer.question["mode"] != FIRST:
            parts.append(f"{answer.count} {what}")
        elif not answer.solutions:
            parts.append("no solution")
        return "\n\n".join(parts)

    def write_files(self, answer: Answer, args: argparse.Namespace) -> list[str]:
        """--svg: the first solution as SVG; --trace-html: the original's search replayed."""
        written = []
        instance = self.instance_of(answer)
        if args.svg:
            if not answer.solutions:
                raise InputError("--svg needs a solution to draw; this question has none "
                                 "(--count does not keep them)")
            written.append(write(args.svg, draw.svg_grid(instance, grid_from_json(answer.solutions[0]))))
        if args.trace_html:
            written.append(write(args.trace_html, trace_page(instance, answer.question["mode"] == FIRST,
                                                             args.seconds)))
        return written

    def instance_of(self, answer: Answer) -> Instance:
        """The instance an answer is about."""
        return answer.asked.instance

    def add_generate_arguments(self, parser: argparse.ArgumentParser) -> None:
        """--rows, --cols, --colours, --seed and --rule."""
        parser.add_argument("--rows", type=int, required=True, help="rows of the grid")
        parser.add_argument("--cols", type=int, required=True, help="columns of the grid")
        parser.add_argument("--colours", type=int, required=True, help="edge colours (insect: head/body pairs)")
        parser.add_argument("--seed", type=int, default=0, help="random seed (same seed, same puzzle)")
        parser.add_argument("--rule", choices=RULES, default=INSECT, help="matching rule (default insect)")

    def generate(self, args: argparse.Namespace) -> tuple[dict[str, Any], str]:
        """A random solvable instance: JSON data, and the text of a file `pysolve solve squares` reads."""
        instance = generate(args.rows, args.cols, args.colours, args.seed, args.rule)
        return {"seed": args.seed, **instance.to_json()}, dump(instance).rstrip("\n")

    def demo_questions(self) -> list[Question]:
        """The insect puzzle (all, and up to rotation) and Owen's 4x4 set."""
        insects = load("insects")
        return [Question(insects, ALL), Question(insects, ALL, up_to_rotation=True),
                Question(load("eternity-4x4"), COUNT)]


def write(path: str, text: str) -> str:
    """Write `text` to `path` (InputError when that fails) and return the path."""
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as error:
        raise InputError(f"cannot write {path}: {error}") from None
    return path


def trace_page(instance: Instance, first_only: bool, seconds: float) -> str:
    """The HTML replay of the original's search (to the first solution, or all of it)."""
    trace = python.Trace(max_events=TRACE_EVENTS)

    def stop(grid: Grid) -> bool:
        return first_only

    python.reference(instance, stop, Budget(seconds=seconds, label="Python squares search"), trace)
    return draw.replay_html(instance, trace.events, trace.truncated)


PUZZLE = Squares()
