"""PUZZLE: the rectangle tangram's options, its answers compared and drawn, its generator and its game."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from pysolve import files
from pysolve.answers import NOT_GIVEN, Found
from pysolve.catalogue import Note
from pysolve.options import Option, seconds_option, seed_option
from pysolve.puzzle import UNKNOWN, Answer, Backend, Puzzle, deepened
from pysolve.rules import RulesError, RulesInterface
from pysolve.tangram.model import (
    DEFAULT_SECONDS,
    DEFAULT_STRATEGY,
    STRATEGIES,
    Instance,
    Placement,
    Question,
    describe_problem,
    found,
    inside,
    placement_of,
)
from pysolve.tangram.reader import load_instance, parse_place
from pysolve.words import plural

SHOWN = 12  # tilings drawn as text before the rest are only counted
KINDS = ("solve", "options", "validate")  # the kinds of question every back end answers (`kind`)
FILE = Option("file", positional=True, metavar="FILE",
              help="instance file or shipped name (default: classic, the 10x10)")


def interface_inputs(question: Question) -> list[Any]:
    """The rules interface's inputs: Width, Height, Pieces (`[Name, Width, Height]` each) and Rotations."""
    instance = question.instance
    pieces = [[piece.name, piece.width, piece.height] for piece in instance.pieces]
    return [instance.width, instance.height, pieces, instance.rotations]


def is_tiling(value: Any) -> bool:
    """True when `value` is a list of `[Piece, X, Y, W, H]` placements: a tiling in the interface's form."""
    return isinstance(value, list) and all(
        isinstance(placement, list) and len(placement) == 5 and isinstance(placement[0], str)
        and all(type(number) is int for number in placement[1:]) for placement in value)


def every_tiling(question: Question, given: Found) -> Found:
    """The tilings a rule base of one's own gave, each in piece order, as the back ends answer.

    Every one, since the interface's questions ask for all; an answer cut short by the time limit stays as it is.
    RulesError when a placement names no piece of the instance."""
    from pysolve.tangram.prolog import to_tiling  # the back ends load when a question is asked

    if given.status == UNKNOWN:
        return given
    tilings = [to_tiling(solution) for solution in given.solutions]
    unknown = {p.piece for tiling in tilings for p in tiling} - set(question.instance.names)
    if unknown:
        raise RulesError(f"a tiling places {', '.join(sorted(unknown))}, not one of the pieces given")
    return found(question, [question.instance.sort(tiling) for tiling in tilings], given.stats)


class Tangram(Puzzle):
    """Cover a board exactly with rectangles: count, list, find, complete, validate tilings."""

    name = "tangram"
    summary = "rectangle tangram: cover a board exactly with rectangles"
    offers: ClassVar[Mapping[str, Backend]] = {
        "prolog": Backend(answers=KINDS, traces=True, judges_splits=True),
        "kanren": Backend(answers=KINDS, traces=True, judges_splits=True),
        "python": Backend(answers=KINDS, traces=True, judges_splits=True)}
    faces = frozenset({"generate", "play", "split"})
    shipped_notes = (Note("classic", "36 tilings",
                          "the classic rectangle tangram: six rectangles of fixed orientation"),)

    options = (
        FILE,
        Option("all", bool, help="every tiling (and their count)", exclusive="ask"),
        Option("count", bool, help="only the number of tilings", exclusive="ask"),
        Option("options", metavar="PIECE", help="where PIECE can go given the placed pieces", exclusive="ask"),
        Option("validate", bool, help="check the placed pieces form a tiling; say what is wrong", exclusive="ask"),
        Option("strategy", str, DEFAULT_STRATEGY, choices=STRATEGIES,
               help="cell (default): cover the first empty cell next, going back at a dead end (the fast search); "
                    "dfs: the course's search, the pieces placed in a fixed order; bfs: try every board of one "
                    "more piece before the next, in dfs's order (the first tiling only); all find the same tilings"),
        Option("start", metavar="PIECE", help="try this piece first, then the others in order"),
        Option("rotations", bool, help="pieces may also lie turned (h x w)"),
        Option("place", many=True, metavar="NAME:X,Y[:WxH]",
               help="a piece already on the board (repeatable); adds to the file's place lines"),
        seconds_option(DEFAULT_SECONDS, "time limit of the search, in seconds"),
        Option("svg", metavar="OUT", output=True, help="also draw the answer into this SVG file"),
    )
    generate_options = (
        Option("width", int, 16, help="board width"),
        Option("height", int, 16, help="board height"),
        Option("pieces", int, 12, help="number of rectangles"),
        seed_option(None, "random seed (default: random)"),
        Option("rotations", bool, help="write 'rotations yes'"),
        Option("min_side", int, 1, minimum=1, help="every piece at least this wide and high"),
        Option("distinct", bool, help="no two pieces of the same size (turned or not)"),
    )
    play_options = (FILE,)
    rules = RulesInterface(
        "tangram", ("+Width", "+Height", "+Pieces", "+Rotations", "-Tiling"),
        "a list of placements [Piece, X, Y, W, H] (bottom-left cell, the size it lies with), one per piece",
        own="tangram", instances="pysolve.tangram.instances", inputs=interface_inputs,
        sizes=(3, 5), min_size=1, size_words="the board's width and height",
        solution_form=is_tiling, shaped=every_tiling, solve_args="{file} --all",
        properties="pysolve.tangram.grading")

    def ask(self, file: str | None, all: bool, count: bool, options: str | None,
            validate: bool, strategy: str, start: str | None, rotations: bool, place: tuple[str, ...],
            seconds: float) -> Question:
        """The question FILE and the options ask, checked (InputError names what and where)."""
        instance = load_instance(file)
        if rotations:
            instance = dataclasses.replace(instance, rotations=True)
        placed = instance.placed + tuple(parse_place(instance, text) for text in place)
        mode = "all" if all else "count" if count else "options" if options else "validate" if validate else "first"
        return Question(instance, mode, strategy, start, placed, options, seconds)

    def kind(self, question: Question) -> str:
        """`options` and `validate` questions go to the functions of those names, the searches to `solve`."""
        return question.mode if question.mode in ("options", "validate") else "solve"

    def split(self, question: Question) -> list[Question] | None:
        """A count as the counts of its completions, one per placement covering the first free cell.

        Two cells deep for enough parts; every tiling extends exactly one."""
        return deepened(question, first_cell_parts) if question.mode == "count" else None

    def describe(self, question: Question) -> dict[str, Any]:
        """The question as JSON: instance, mode, strategy, start, placed pieces, piece."""
        rotations = question.instance.rotations
        return {"instance": question.instance.name, "board": [question.instance.width, question.instance.height],
                "rotations": rotations, "mode": question.mode, "strategy": question.strategy,
                "start": question.start, "placed": [p.to_json(rotations) for p in question.placed],
                "piece": question.piece}

    def canonical(self, answer: Answer[Question]) -> Any:
        """Order-free for --all (sorted tilings), else the answer as found; validation adds its problems."""
        mode = answer.asked.mode
        if mode == "count":
            return {"count": answer.count}
        if mode == "all":
            return {"count": answer.count, "tilings": sorted(_as_tuples(t) for t in answer.solutions)}
        if mode == "validate":
            return {"problems": answer.stats.get("problems", NOT_GIVEN), "solutions": answer.solutions}
        return answer.solutions

    def summarise(self, answer: Answer[Question]) -> str:
        """A few words for report tables: tilings counted or found, places for a piece, or a validation."""
        mode = answer.asked.mode
        if mode == "options":
            return plural(_number(answer), "place") + f" for {answer.asked.piece}"
        if mode == "validate":
            problems = answer.stats["problems"]
            return plural(len(problems), "problem") if problems else "a valid tiling"
        return plural(_number(answer), "tiling")

    def status_words(self, answer: Answer[Question]) -> str:
        """A validation's verdict, `a valid tiling` or `not a valid tiling` with its first problem; else the status."""
        problems = answer.stats.get("problems", [])
        if answer.asked.mode != "validate" or answer.status == UNKNOWN:
            return super().status_words(answer)
        if not problems:
            return "a valid tiling"
        more = f", and {plural(len(problems) - 1, 'more problem')}" if len(problems) > 1 else ""
        return f"not a valid tiling ({describe_problem(problems[0], answer.asked.instance)}{more})"

    def render(self, answer: Answer[Question]) -> str:
        """Text grids of the tilings (coloured on a terminal), or the count, options or problems."""
        from pysolve.tangram import draw  # the pictures load only when an answer is drawn

        instance = answer.asked.instance
        colour = draw.use_colour()
        mode = answer.asked.mode
        placed = list(answer.asked.placed)
        lines = [draw.legend(instance, colour)]
        if answer.status == UNKNOWN:
            lines.append(f"no answer: {answer.reason}")
        elif mode == "count":
            lines.append(plural(_number(answer), "tiling"))
        elif mode == "options":
            places = plural(_number(answer), "place")
            lines.append(f"{places} for {answer.asked.piece} (bottom-left cells marked *)")
            marks = [(p["x"], p["y"]) for p in answer.solutions]
            lines.append(draw.text_grid(instance, placed, marks, colour))
        elif mode == "validate":
            problems = answer.stats["problems"]
            lines += [f"not a tiling: {describe_problem(p, instance)}" for p in problems] or ["a valid tiling"]
            lines.append(draw.text_grid(instance, placed, (), colour))
        else:
            lines += self._render_tilings(answer, instance, colour)
        return "\n".join(lines)

    def _render_tilings(self, answer: Answer, instance: Instance, colour: bool) -> list[str]:
        from pysolve.tangram import draw

        if not answer.solutions:
            return ["no tiling: the board cannot be completed"]
        lines = [] if answer.count is None else [plural(answer.count, "tiling")]
        for number, tiling in enumerate(answer.solutions[:SHOWN], start=1):
            placements = [placement_of(p, instance) for p in tiling]
            where = ", ".join(f"{p.piece} ({p.x},{p.y})" for p in placements)
            lines += ["", f"tiling {number}: {where}", draw.text_grid(instance, placements, (), colour)]
        if len(answer.solutions) > SHOWN:
            lines.append(f"... and {len(answer.solutions) - SHOWN} more (--json lists them all)")
        return lines

    def write_files(self, answer: Answer[Question], outputs: Mapping[str, Any]) -> list[str]:
        """The answer's tilings (or placed pieces) as an SVG picture, when --svg asks."""
        if not outputs.get("svg"):
            return []
        from pysolve.tangram import draw

        instance = answer.asked.instance
        if answer.solutions and answer.asked.mode in ("first", "all"):
            tilings = [tuple(placement_of(p, instance) for p in t) for t in answer.solutions]
        else:
            tilings = [answer.asked.placed]
        title = f"{instance.name}: {answer.asked.mode} ({answer.backend})"
        return [files.write_text(outputs["svg"], draw.svg(instance, tilings, title), "--svg")]

    def generate(self, width: int, height: int, pieces: int, seed: int | None, rotations: bool,
                 min_side: int, distinct: bool) -> tuple[dict[str, Any], str]:
        """A board cut into rectangles: JSON, and the text of an instance file."""
        from pysolve.tangram.generate import generate

        instance = generate(width, height, pieces, seed, rotations, min_side, distinct)
        return instance.to_json(), instance.to_text().rstrip("\n")

    def instance_size(self, path: Path) -> str:
        """The board's width x height and its pieces (turning or not)."""
        instance = load_instance(path)
        turning = ", turning" if instance.rotations else ""
        return f"{instance.width}x{instance.height}, {len(instance.pieces)} pieces{turning}"

    def play(self, backend: str, file: str | None) -> int:
        """Check the file and the back end, then run the full-screen game until the player quits."""
        from pysolve.tangram.play_app import start  # the game and Textual load only when a game starts

        return start(self, file, backend)

    def demo_questions(self) -> list[Question]:
        """All classic tilings, and the breadth-first answer from red."""
        classic = load_instance()
        return [Question(classic, "all"), Question(classic, "first", "bfs", "red")]


def _number(answer: Answer) -> int:
    """How many the answer counted, or how many it lists when it counted nothing (an unknown answer)."""
    return answer.count if answer.count is not None else len(answer.solutions)


def _as_tuples(tiling: list[dict[str, Any]]) -> tuple[tuple[Any, ...], ...]:
    return tuple(tuple(sorted(p.items())) for p in tiling)


def first_cell_parts(question: Question) -> list[Question]:
    """`question` with one more piece placed, once per unused piece's placement covering the first free cell.

    Such a placement's bottom-left cell is that cell, as the cells before it are covered; the question itself when
    the board is full. Only those placements are made, not the table of every slot (seconds on a 64x64 board)."""
    free = question.free
    if not free:
        return [question]
    instance = question.instance
    x, y = divmod((free & -free).bit_length() - 1, instance.height)
    fitting = [Placement(name, x, y, width, height) for name in question.order
               for width, height in instance.orientations(name)]
    return [dataclasses.replace(question, placed=question.placed + (placement,)) for placement in fitting
            if inside(instance, placement) and instance.mask(placement) & free == instance.mask(placement)]


PUZZLE = Tangram()
