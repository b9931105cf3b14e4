"""PUZZLE: edge-matching squares' options, its answers compared and drawn, its pictures and generator."""

from __future__ import annotations

import io
import json
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

from pysolve import files
from pysolve.answers import NO_SOLUTION, SOLVED, Found
from pysolve.budget import Budget
from pysolve.catalogue import Note
from pysolve.errors import InputError, SearchLimitExceeded
from pysolve.options import Option, seconds_option, seed_option
from pysolve.puzzle import UNKNOWN, Answer, Backend, Puzzle, deepened
from pysolve.rules import RulesInterface
from pysolve.squares.model import (
    ALIASES,
    ALL,
    COUNT,
    DEFAULT_SECONDS,
    FIRST,
    INSECT,
    RULES,
    STRATEGIES,
    Instance,
    Question,
    as_grid,
    dump,
    found,
    grid_from_json,
    load,
    most_constrained_first,
    next_cells,
)
from pysolve.trace import DEFAULT_LIMIT, Recorded, Trace
from pysolve.words import plural

TRACE_EVENTS = DEFAULT_LIMIT  # events a replay page holds at most, as a --trace file
OWEN = "Brendan Owen's set, from minicp/minicp (data/eternity/brendan/)"
# pysolve's rule base indexes the pieces by their edges (prolog/squares.pl); the row-by-row search a class writes
# (examples/class/squares/ana.pl) takes up to ~15x its inferences on 3x3 grids, so a rule base is graded within
# this factor of it
PLAIN_SEARCH_FACTOR = 30.0


def rule_inputs(question: Question) -> list[Any]:
    """The rules interface's inputs: the instance as the Prolog back end writes it."""
    from pysolve.squares.prolog import puzzle_terms  # the back ends load when a question is asked

    return puzzle_terms(question.instance)


def is_grid(value: Any) -> bool:
    """True when `value` is rows of [Piece, Turns] integer pairs: a grid in the rules interface's form."""
    return isinstance(value, list) and all(
        isinstance(row, list) and all(isinstance(cell, list) and len(cell) == 2
                                      and all(type(number) is int for number in cell) for cell in row)
        for row in value)


def every_grid(question: Question, given: Found) -> Found:
    """The grids a rule base of one's own gave, as the back ends answer.

    Every one, since the interface's questions ask for all; an answer cut short by the time limit stays as it is."""
    if given.status == UNKNOWN:
        return given
    grids = [as_grid(solution) for solution in given.solutions]
    return found(question, grids, len(grids), given.stats)


class Squares(Puzzle):
    """Edge-matching squares: the 3x3 insect puzzle, Owen's eternity sets, any R x C set."""

    name = "squares"
    summary = "edge-matching squares: the 3x3 insect puzzle and any R x C set"
    offers: ClassVar[Mapping[str, Backend]] = {
        "prolog": Backend(traces=True), "kanren": Backend(traces=True, by_name=True),
        "python": Backend(traces=True, judges_splits=True)}
    faces = frozenset({"generate", "split"})
    splits = "counts of the fast strategy on two cells or more"
    shipped_aliases = ALIASES
    shipped_notes = (  # data/squares/README.md; tests/test_names.py counts the small ones
        Note("insects", "4 solutions, 1 up to rotation"),
        *(Note(ALIASES[f"eternity-{side}x{side}"], f"{count} solutions, {count // 4} up to rotation", OWEN)
          for side, count in ((3, 16), (4, 36), (5, 16), (6, 260))),
    )

    rules = RulesInterface(
        "squares", ("+Rule", "+Rows", "+Cols", "+Pieces", "+Pairs", "-Grid"),
        "Rows rows of Cols cells [Piece, Turns] (each piece once, turned 0..3 quarter turns clockwise)",
        own="squares", instances="pysolve.squares.instances", inputs=rule_inputs,
        sizes=(2, 3), min_size=1, size_words="rows and columns",
        solution_form=is_grid, shaped=every_grid,
        solve_args="{file} --all --count-orientations",
        properties="pysolve.squares.grading", speed=PLAIN_SEARCH_FACTOR)

    options = (
        Option("file", positional=True, metavar="FILE",
               help="a squares file, or a shipped instance: insects (default), eternity-3x3 .. eternity-6x6"),
        Option("all", bool, exclusive="which", help="all solutions (default: the first)"),
        Option("count", bool, exclusive="which", help="only count the solutions"),
        Option("up_to_rotation", bool, help="of solutions that are one grid turned, only one"),
        Option("count_orientations", bool,
               help="count a piece that looks the same turned once per turn (default: each distinct board once)"),
        Option("strategy", str, "fast", choices=STRATEGIES,
               help="fast: each cell tries only the pieces whose edges can match, and turns of the whole grid "
                    "are searched once (default); original: the first program's search, every piece in every "
                    "turn, row by row (Python and Prolog)"),
        seconds_option(DEFAULT_SECONDS, "time limit of the search, in seconds"),
        Option("svg", metavar="OUT", output=True, help="write the first solution as SVG"),
        Option("trace_html", metavar="OUT", output=True,
               help="write an HTML page replaying the original search step by step"),
    )
    generate_options = (
        Option("rows", int, 3, help="rows of the grid"),
        Option("cols", int, 3, help="columns of the grid"),
        Option("colours", int, 4, help="edge colours (insect: head/body pairs; the insect puzzle has 4)"),
        seed_option(0, "random seed (same seed, same puzzle)"),
        Option("rule", str, INSECT, choices=RULES, help="matching rule"),
    )

    def ask(self, file: str | None, all: bool, count: bool, up_to_rotation: bool, count_orientations: bool,
            strategy: str, seconds: float) -> Question:
        """The question FILE (default the insects) and the options ask; the first solution unless --all/--count.

        InputError for --up-to-rotation or --count-orientations without them: they say which solutions are listed
        or counted, and the first solution is one grid whatever they say.
        """
        mode = ALL if all else COUNT if count else FIRST
        if mode == FIRST and (up_to_rotation or count_orientations):
            flag = "--up-to-rotation" if up_to_rotation else "--count-orientations"
            raise InputError(f"{flag} says which solutions --all lists or --count counts: add one of them (the "
                             "first solution alone is one grid either way)")
        return Question(load(file), mode, up_to_rotation, strategy, seconds, count_orientations)

    def located(self, given: Any) -> Any:
        """FILE as given: the squares reader (`model.load`) takes shipped names itself.

        It reads them from the same catalogue, so that an instance keeps the name it was asked by (`eternity-3x3`,
        not its file's path)."""
        return given

    def split(self, question: Question) -> list[Question] | None:
        """A count (fast strategy, two cells or more) as the counts of its canonical grids by their first cells.

        Row by row, each part fixes one more cell (each grid begins one way), two cells deep for enough parts. A
        count that fills the most constrained cell first is split where its first piece lies instead."""
        instance = question.instance
        if question.mode != COUNT or question.strategy != "fast" or instance.rows * instance.cols < 2:
            return None
        return deepened(question, root_parts if most_constrained_first(question) else one_more_cell)

    def describe(self, question: Question) -> dict[str, Any]:
        """The question as JSON: the instance by name and size, the mode and options."""
        instance = question.instance
        described = {"instance": instance.name, "rows": instance.rows, "cols": instance.cols, "rule": instance.rule,
                     "mode": question.mode, "up_to_rotation": question.up_to_rotation,
                     "strategy": question.strategy}
        if question.count_orientations:  # only when asked, so the usual question reads as before
            described["count_orientations"] = True
        if question.prefix:  # a part of a split count
            described["prefix"] = [None if cell is None else list(cell) for cell in question.prefix]
        return described

    def canonical(self, answer: Answer) -> Any:
        """The count and the sorted set of grids (the first solution is the same on every back end)."""
        grids = sorted(grid_from_json(solution) for solution in answer.solutions)
        return {"count": answer.count, "solutions": grids}

    def summarise(self, answer: Answer[Question]) -> str:
        """The number of solutions, or of classes of solutions (up to rotation)."""
        found = answer.count if answer.count is not None else len(answer.solutions)
        if answer.asked.up_to_rotation:
            return plural(found, "class of solutions", "classes of solutions")
        return plural(found, "solution")

    def render(self, answer: Answer[Question]) -> str:
        """Each solution drawn as boxes, then the count."""
        from pysolve.squares import draw  # the pictures load only when an answer is drawn

        instance = self.instance_of(answer)
        parts = [draw.text_grid(instance, grid_from_json(solution)) for solution in answer.solutions]
        if answer.status == UNKNOWN:
            return "\n\n".join(parts + [f"no answer: {answer.reason}"])
        if answer.asked.mode != FIRST:
            parts.append(self.summarise(answer))
        elif not answer.solutions:
            parts.append("no solution")
        return "\n\n".join(parts)

    def write_files(self, answer: Answer[Question], outputs: Mapping[str, Any]) -> list[str]:
        """--svg: the first solution as SVG; --trace-html: the original's search replayed (`search_trace`)."""
        from pysolve.squares import draw

        written = []
        instance = self.instance_of(answer)
        if outputs.get("svg"):
            if not answer.solutions:
                raise InputError("--svg needs a solution to draw; this question has none "
                                 "(--count does not keep them)")
            picture = draw.svg_grid(instance, grid_from_json(answer.solutions[0]))
            written.append(files.write_text(outputs["svg"], picture, "--svg"))
        if outputs.get("trace_html"):
            trace = search_trace(instance, answer.asked.mode == FIRST, self.budget(answer.asked))
            page = draw.replay_html(instance, trace.events, trace.end["truncated"])
            written.append(files.write_text(outputs["trace_html"], page, "--trace-html"))
        return written

    def instance_of(self, answer: Answer[Question]) -> Instance:
        """The instance an answer is about."""
        return answer.asked.instance

    def generate(self, rows: int, cols: int, colours: int, seed: int, rule: str) -> tuple[dict[str, Any], str]:
        """A random solvable instance: JSON data, and the text of a file `pysolve solve squares` reads."""
        from pysolve.squares.generate import generate

        instance = generate(rows, cols, colours, seed, rule)
        return {"seed": seed, **instance.to_json()}, dump(instance).rstrip("\n")

    def instance_size(self, path: Path) -> str:
        """The grid's rows x columns and its matching rule."""
        instance = load(path)
        return f"{instance.rows}x{instance.cols}, {instance.rule} rule"

    def demo_questions(self) -> list[Question]:
        """The insect puzzle (all, and up to rotation) and Owen's 4x4 set."""
        insects = load("insects")
        return [Question(insects, ALL), Question(insects, ALL, up_to_rotation=True),
                Question(load("eternity-4x4"), COUNT)]


def one_more_cell(question: Question) -> list[Question]:
    """`question` with one more cell of its prefix fixed, once per (piece, turns) that fits there."""
    if len(question.prefix) == question.instance.rows * question.instance.cols:
        return [question]
    return [replace(question, prefix=question.prefix + (cell,)) for cell in next_cells(question)]


def root_parts(question: Question) -> list[Question]:
    """`question` once per place of the most-constrained-first search's first piece: the branches of its root.

    The places are `mrv.root_placements`, each fixed in the prefix after free cells; a question with a prefix is
    already such a part, given back alone."""
    from pysolve.squares import mrv

    if question.prefix:
        return [question]
    return [replace(question, prefix=(None,) * pos + (entry[2],))
            for pos, entries in enumerate(mrv.root_placements(question)) for entry in entries]


def search_trace(instance: Instance, first_only: bool, budget: Budget, limit: int = TRACE_EVENTS) -> Recorded:
    """The original's search recorded in the trace format (pysolve.trace): what the replays show.

    It runs to the first solution or all of them, stopped once `limit` events are written. A search out of its
    budget ends `unknown` with what it recorded."""
    from pysolve.squares import reference

    out = io.StringIO()
    recorded = Trace(out, "squares", "python", {"instance": instance.name, "rows": instance.rows,
                                                "cols": instance.cols, "rule": instance.rule, "strategy": "original"},
                     limit)
    budget.trace = recorded
    try:
        reference.reference(instance, lambda grid: first_only, budget, until_full=True)
        recorded.end(SOLVED if recorded.solutions else NO_SOLUTION)
    except SearchLimitExceeded as error:
        recorded.end(UNKNOWN, str(error))
    header, *events, end = (json.loads(line) for line in out.getvalue().splitlines())
    return Recorded(header, events, end, written=len(events))


PUZZLE = Squares()
