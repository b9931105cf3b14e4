"""PUZZLE: the rectangle tangram wired to the CLI, the cross-checks and the three back ends."""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path
from typing import Any

from pysolve import backends
from pysolve.errors import InputError
from pysolve.puzzle import Answer, Found, Puzzle, Solver
from pysolve.tangram import api, draw
from pysolve.tangram.generate import generate
from pysolve.tangram.model import (STRATEGIES, Instance, Placement, Question, describe_problem, load_instance,
                                   parse_place)

SHOWN = 12  # tilings drawn as text before the rest are only counted


class Tangram(Puzzle):
    """Cover a board exactly with rectangles: count, list, find, complete, validate tilings."""

    name = "tangram"
    summary = "rectangle tangram: cover a board exactly with rectangles"
    can_generate = True

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """FILE, what to ask (--all/--count/--options/--validate), how (--strategy, --start), --place, --svg."""
        parser.add_argument("file", metavar="FILE", nargs="?", help="instance file (default: the classic 10x10)")
        asked = parser.add_mutually_exclusive_group()
        asked.add_argument("--all", action="store_true", help="every tiling (and their count)")
        asked.add_argument("--count", action="store_true", help="only the number of tilings")
        asked.add_argument("--options", metavar="PIECE", help="where PIECE can go given the placed pieces")
        asked.add_argument("--validate", action="store_true", help="check the placed pieces form a tiling; say what is wrong")
        parser.add_argument("--strategy", choices=STRATEGIES, default="dfs",
                            help="dfs: pieces in fixed order (default); bfs: breadth-first, first tiling; "
                                 "cell: fill the first empty cell (fast, same tilings)")
        parser.add_argument("--start", metavar="PIECE", help="place this piece first, then the others in order")
        parser.add_argument("--rotations", action="store_true", help="pieces may also lie turned (h x w)")
        parser.add_argument("--place", metavar="NAME:X,Y[:WxH]", action="append", default=[],
                            help="a piece already on the board (repeatable); adds to the file's place lines")
        parser.add_argument("--seconds", type=float, default=60.0, help="time limit of the search (default 60)")
        parser.add_argument("--svg", metavar="OUT", help="also draw the answer into this SVG file")

    def question(self, args: argparse.Namespace) -> Question:
        """The question the arguments ask, checked (InputError names what and where)."""
        instance = load_instance(args.file)
        if args.rotations:
            instance = dataclasses.replace(instance, rotations=True)
        placed = instance.placed + tuple(parse_place(instance, text) for text in args.place)
        if not args.seconds > 0:
            raise InputError(f"--seconds {args.seconds:g} must be positive")
        mode = "all" if args.all else "count" if args.count else "options" if args.options else \
            "validate" if args.validate else "first"
        return api.prepare(Question(instance, mode, args.strategy, args.start, placed, args.options, args.seconds))

    def solvers(self, question: Question) -> dict[str, Solver]:
        """Every back end, except kanren for validation (it lists no problems)."""
        names = api.VALIDATORS if question.mode == "validate" else backends.NAMES
        return {name: _solver(name) for name in names}

    def describe(self, question: Question) -> dict[str, Any]:
        """The question as JSON: instance, mode, strategy, start, placed pieces, piece."""
        rotations = question.instance.rotations
        return {"instance": question.instance.name, "board": [question.instance.width, question.instance.height],
                "rotations": rotations, "mode": question.mode, "strategy": question.strategy,
                "start": question.start, "placed": [p.to_json(rotations) for p in question.placed],
                "piece": question.piece}

    def canonical(self, answer: Answer) -> Any:
        """Order-free for --all (sorted tilings), else the answer as found; validation adds its problems."""
        mode = answer.question["mode"]
        if mode == "count":
            return {"count": answer.count}
        if mode == "all":
            return {"count": answer.count, "tilings": sorted(_as_tuples(t) for t in answer.solutions)}
        if mode == "validate":
            return {"problems": answer.stats["problems"], "solutions": answer.solutions}
        return answer.solutions

    def render(self, answer: Answer) -> str:
        """Text grids of the tilings (coloured on a terminal), or the count, options or problems."""
        instance = answer.asked.instance
        colour = draw.use_colour()
        mode = answer.question["mode"]
        placed = [_placement(p, instance) for p in answer.question["placed"]]
        lines = [draw.legend(instance, colour)]
        if mode == "count":
            lines.append(f"{answer.count} tiling(s)")
        elif mode == "options":
            lines.append(f"{answer.count} option(s) for {answer.question['piece']} (bottom-left cells marked *)")
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
        if not answer.solutions:
            return ["no tiling: the board cannot be completed"]
        lines = [] if answer.count is None else [f"{answer.count} tiling(s)"]
        for number, tiling in enumerate(answer.solutions[:SHOWN], start=1):
            placements = [_placement(p, instance) for p in tiling]
            where = ", ".join(f"{p.piece} ({p.x},{p.y})" for p in placements)
            lines += ["", f"tiling {number}: {where}", draw.text_grid(instance, placements, (), colour)]
        if len(answer.solutions) > SHOWN:
            lines.append(f"... and {len(answer.solutions) - SHOWN} more (--json lists them all)")
        return lines

    def write_files(self, answer: Answer, args: argparse.Namespace) -> list[str]:
        """The answer's tilings (or placed pieces) as an SVG picture, when --svg asks."""
        if not args.svg:
            return []
        instance = answer.asked.instance
        if answer.solutions and answer.question["mode"] in ("first", "all"):
            tilings = [tuple(_placement(p, instance) for p in t) for t in answer.solutions]
        else:
            tilings = [tuple(_placement(p, instance) for p in answer.question["placed"])]
        title = f"{instance.name}: {answer.question['mode']} ({answer.backend})"
        try:
            Path(args.svg).write_text(draw.svg(instance, tilings, title), encoding="utf-8")
        except OSError as error:
            raise InputError(f"--svg {args.svg!r}: cannot write: {error}") from None
        return [args.svg]

    def add_generate_arguments(self, parser: argparse.ArgumentParser) -> None:
        """--width, --height, --pieces, --seed, --rotations."""
        parser.add_argument("--width", type=int, default=16, help="board width (default 16)")
        parser.add_argument("--height", type=int, default=16, help="board height (default 16)")
        parser.add_argument("--pieces", type=int, default=12, help="number of rectangles (default 12)")
        parser.add_argument("--seed", type=int, help="random seed (default: random)")
        parser.add_argument("--rotations", action="store_true", help="write 'rotations yes'")

    def generate(self, args: argparse.Namespace) -> tuple[dict[str, Any], str]:
        """A board cut into rectangles: JSON, and the text of an instance file."""
        instance = generate(args.width, args.height, args.pieces, args.seed, args.rotations)
        return instance.to_json(), instance.to_text().rstrip("\n")

    def demo_questions(self) -> list[Question]:
        """All classic tilings, and the breadth-first answer from red."""
        classic = load_instance()
        return [Question(classic, "all"), Question(classic, "first", "bfs", "red")]


def _solver(backend: str) -> Solver:
    """A Solver for one back end: api.answer with placements turned into their JSON shape."""

    def solve(question: Question) -> Found:
        found = api.answer(backend, question)
        rotations = question.instance.rotations
        if question.mode == "options":
            found.solutions = [p.to_json(rotations) for p in found.solutions]
        else:
            found.solutions = [[p.to_json(rotations) for p in tiling] for tiling in found.solutions]
        return found

    return solve


def _placement(data: dict[str, Any], instance: Instance) -> Placement:
    """A placement back from its JSON shape (the size from the piece when rotations are off)."""
    piece = instance.piece(data["piece"])
    return Placement(piece.name, data["x"], data["y"], data.get("width", piece.width), data.get("height", piece.height))


def _as_tuples(tiling: list[dict[str, Any]]) -> tuple[tuple[Any, ...], ...]:
    return tuple(tuple(sorted(p.items())) for p in tiling)


PUZZLE = Tangram()
