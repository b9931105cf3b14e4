"""PUZZLE: Hidato's options, its answers compared and drawn, and its generator."""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from pysolve.boards.puzzle import BoardPuzzle, board_options
from pysolve.catalogue import Note
from pysolve.errors import InputError
from pysolve.hidato import draw, generate, model, python
from pysolve.hidato.model import Board, Question
from pysolve.options import Option, seconds_option, seed_option
from pysolve.paths import data_dir
from pysolve.puzzle import Backend, brief
from pysolve.rules import RulesInterface
from pysolve.words import plural

SIDE = 6  # rows and columns of a generated board unless asked (a few tenths of a second to make)


def sample_file() -> Path:
    """The 8-row sample shipped in data/hidato/."""
    return data_dir() / "hidato" / "sample.txt"


class HidatoPuzzle(BoardPuzzle):
    """Hidato: fill 1..N into a board so that consecutive numbers are a king move apart."""

    name = "hidato"
    summary = "fill 1..N so that consecutive numbers touch (king moves); solve, count, validate, generate"
    offers: ClassVar[Mapping[str, Backend]] = {
        backend: Backend(answers=("solve", "validate"), traces=True) for backend in ("prolog", "kanren", "python")}
    faces = frozenset({"generate"})
    drawing = draw
    shipped_notes = (  # data/hidato/README.md; tests/test_hidato_public.py checks the public set's verdicts
        Note("shapes/*", "a shape for --shape"),
        Note("long/snake_*", "many solutions"),
        Note("public/rosetta_cpp[12]_9x9", "more than one solution"),
        Note("public/csp_[bd]7_6x6", "more than one solution"),
        Note("sample.json", "unique", "the 8-row sample (sample.txt) as JSON rows, the original's encoding"),
        Note("*", "unique"),
    )
    rules = RulesInterface(
        "hidato", ("+Board", "-Solution"),
        "rows of integers (-1 blocked, 0 empty, 1..N a number), the board's shape kept",
        own="hidato", instances="pysolve.hidato.instances", inputs=lambda question: [question.board.grid()],
        properties="pysolve.hidato.grading",
        sizes=(3, 5), min_size=2, size_words="at most N rows and N columns")

    options = board_options(
        "board: JSON rows (0 empty, -1 blocked) or text (__ empty, . blocked); or a shipped name "
        "(sample; pysolve list hidato)",
        "FILE is a filled board: check it, name the pair that breaks",
        Option("strategy", str, python.FAST, choices=python.STRATEGIES,
               help="fast (default): narrow down where each number can go, then walk from 1 with extra checks; "
                    "original: the first program's search, a walk from 1 to N through free neighbours that goes "
                    "back at a dead end"),
    )
    generate_options = (
        Option("rows", int, above=0, help=f"rows of a rectangular board (default {SIDE}; --shape gives its own)"),
        Option("cols", int, above=0, help=f"columns of a rectangular board (default {SIDE}; --shape gives its own)"),
        Option("shape", metavar="FILE",
               help="take the board's shape (open cells) from a hidato file or a shipped name (shapes/ring)"),
        Option("holes", int, 0, minimum=0, help="block this many random cells"),
        Option("givens", float, 0.0, minimum=0, metavar="FRACTION",
               help="stop removing givens at this fraction of the cells (default: as few as stay unique)"),
        seed_option(None, "random seed (default: a fresh one, printed)"),
        Option("nodes", int, generate.CHECK_NODES, above=0,
               help="node budget of each uniqueness check (candidates over it are discarded)"),
        seconds_option(generate.REMOVAL_SECONDS,
                       "time limit of the generation; past it the puzzle keeps the givens it has (still unique)"),
    )

    def ask(self, file: str, count: int | None, validate: bool, strategy: str, seconds: float,
            nodes: int) -> Question:
        """The question FILE and the options ask; InputError on a bad board or bad combination."""
        board = model.load(file)
        if validate:
            if count:
                raise InputError("--validate checks one filled board; it takes no --count")
            model.require_filled(board)
        return Question(board, file, count, strategy, validate, seconds, nodes)

    def label(self, question: Question, changed_only: bool = False) -> str:
        """The board's file by name, its size, and the options set."""
        asked = f"count={question.count}" if question.count else "validate" if question.validate else "solve"
        return f"{brief(question.file)} ({plural(question.board.size, 'cell')}), {asked}, strategy={question.strategy}"

    def describe(self, question: Question) -> dict[str, Any]:
        """The question as JSON: the file, the board and the options."""
        return {"file": question.file, "puzzle": self.rows(question), "cells": question.board.size,
                "givens": len(question.board.givens), "count": question.count,
                "strategy": question.strategy, "validate": question.validate}

    def rows(self, question: Question) -> list[list[int]]:
        """The board as rows of integers, as the file gave them (its `grid`)."""
        return question.board.grid()

    def solves(self, puzzle: list[list[int]], grid: list[list[int]]) -> bool:
        """True when `grid` fills the board `puzzle` with a king-move path 1..N."""
        return model.solves(Board(tuple(map(tuple, puzzle))), grid)

    def validity(self, broken: list[Any]) -> str:
        """Valid, or the consecutive pairs that do not touch."""
        if not broken:
            return "valid: every pair of consecutive numbers touches"
        return "not a solution: " + "; ".join(f"{a} and {b} do not touch" for a, b in broken)

    def generate(self, rows: int | None, cols: int | None, shape: str | None, holes: int, givens: float,
                 seed: int | None, nodes: int, seconds: float) -> tuple[dict[str, Any], str]:
        """A generated unique puzzle as JSON data and as a hidato text file."""
        data = generate.generate(recipe(rows, cols, shape, holes, givens, seed, nodes, seconds))
        header = (f"# hidato generated by pysolve: seed {data['seed']}, {data['rows']}x{data['cols']}, "
                  f"{data['givens']} givens of {data['cells']} cells, difficulty {data['difficulty']['label']} "
                  f"({plural(data['difficulty']['states'], 'state')})\n"
                  + (f"# {data['stopped']}\n" if "stopped" in data else ""))
        return data, header + model.to_text(data["puzzle"]).rstrip("\n")

    def instance_size(self, path: Path) -> str:
        """The board's rows x columns and its open cells."""
        board = model.load_shape(path)
        return f"{board.height}x{board.width}, {board.size} cells"

    def demo_questions(self) -> list[Question]:
        """The sample, counted to 2 (solution and uniqueness)."""
        board = model.load(sample_file())
        return [Question(board, str(sample_file()), count=2)]


def recipe(rows: int | None, cols: int | None, shape: str | None, holes: int, givens: float,
           seed: int | None, nodes: int, seconds: float = generate.REMOVAL_SECONDS) -> generate.Recipe:
    """The generator recipe from `pysolve generate hidato` options; InputError when they do not fit."""
    if not givens <= 1:
        raise InputError(f"--givens {givens} is not a fraction between 0 and 1")
    seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
    if shape:
        if rows or cols:
            raise InputError("--shape gives the board's rows and columns: leave out --rows and --cols")
        board = model.load_shape(shape)
        return generate.Recipe(board.height, board.width, seed, holes, givens, board, nodes, seconds)
    return generate.Recipe(rows or SIDE, cols or SIDE, seed, holes, givens, None, nodes, seconds)


PUZZLE = HidatoPuzzle()
