"""PUZZLE: Sudoku's options, its questions (one or a file of many), answers compared and drawn, its generator."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from pysolve.boards.puzzle import BoardPuzzle, board_options
from pysolve.catalogue import Note
from pysolve.errors import InputError
from pysolve.options import Option, seed_option
from pysolve.paths import data_dir
from pysolve.puzzle import Backend, brief, deepened
from pysolve.rules import RulesInterface
from pysolve.sudoku import draw, generate, model, python
from pysolve.sudoku.model import BOXES, Question
from pysolve.words import plural


def easy_file() -> Path:
    """The two classic easy puzzles shipped in data/sudoku/."""
    return data_dir() / "sudoku" / "easy.txt"


class SudokuPuzzle(BoardPuzzle):
    """Sudoku: every row, column and box of an N x N grid holds 1..N once (N = 4, 6, 9 or 16)."""

    name = "sudoku"
    summary = "fill the grid so that rows, columns and boxes hold 1..N once; solve, count, validate, generate"
    offers: ClassVar[Mapping[str, Backend]] = {
        backend: Backend(answers=("solve", "validate"), traces=True) for backend in ("prolog", "kanren", "python")}
    faces = frozenset({"generate", "split"})
    drawing = draw
    shipped_notes = (  # data/sudoku/README.md; tests/test_sudoku.py checks each puzzle's one solution
        Note("easy", "each unique", "the Wikipedia article on Sudoku, and Project Euler 96's Grid 01"),
        Note("hardest", "each unique", "Peter Norvig's hardest.txt (essay \"Solving Every Sudoku Puzzle\")"),
        Note("top95", "each unique", "Peter Norvig's top95.txt (essay \"Solving Every Sudoku Puzzle\")"),
        Note("small", "each unique"),
        Note("sixteen", "each unique"),
        Note("*", "unique"),
    )
    rules = RulesInterface(
        "sudoku", ("+Board", "-Solution"), "N rows of N integers (0 empty, 1..N a value), N being 4, 6, 9 or 16",
        own="sudoku", instances="pysolve.sudoku.instances", inputs=lambda question: [question.board.rows()],
        properties="pysolve.sudoku.grading",
        sizes=(4, 6), min_size=4, size_words="sides 4, 6, 9 or 16 up to N")

    options = board_options(
        "one puzzle (an 81-character line, or 9 lines of 9) or many (one line each); or a shipped name "
        "(top95; pysolve list sudoku)",
        "FILE is a filled grid: check it, name the row, column or box that breaks",
        Option("strategy", str, python.FAST, choices=python.STRATEGIES,
               help="fast (default): fill the cell with the fewest possible values first, crossing each value "
                    "placed out of its row, column and box; plain: cells in reading order, going back at a dead end"),
        Option("index", int, above=0, metavar="K", help="in a file of many puzzles, only the K-th"),
    )
    generate_options = (
        Option("size", int, 9, choices=tuple(BOXES), help="side of the grid"),
        seed_option(None, "random seed (default: a fresh one, printed)"),
        Option("givens", int, minimum=0, metavar="N",
               help="stop removing givens at N (default: as few as stay unique)"),
    )

    def ask(self, **values: Any) -> Question:
        """The question FILE asks; InputError when it holds many puzzles and no --index picks one."""
        asked = self.ask_all(**values)
        if len(asked) > 1:
            raise InputError(f"{values['file']} holds {len(asked)} puzzles; this command answers one: "
                             "pick it with --index K (`pysolve solve` answers them all in turn)")
        return asked[0]

    def ask_all(self, file: str, count: int | None, validate: bool, strategy: str, index: int | None,
                seconds: float, nodes: int) -> list[Question]:
        """One question per puzzle in FILE, in order (a file of one-line puzzles holds many).

        InputError on a bad puzzle or a bad combination."""
        if validate and count:
            raise InputError("--validate checks a filled grid; it takes no --count")
        boards = model.load(file)
        if index:
            if index > len(boards):
                raise InputError(f"--index {index}: {file} holds {len(boards)} puzzle{'s' * (len(boards) != 1)}")
            boards = boards[index - 1:index]
        for board in boards:
            if validate:
                model.require_filled(board)
            else:
                model.require_consistent(board)
        return [Question(board, file, count, strategy, validate, seconds, nodes) for board in boards]

    def label(self, question: Question, changed_only: bool = False) -> str:
        """The file by name (with the puzzle's --index K and line in a file of many), its side, givens, question."""
        board = question.board
        where = brief(question.file) + (f" puzzle {board.index} at line {board.line}" if board.index else "")
        asked = f"count={question.count}" if question.count else "validate" if question.validate else "solve"
        return f"{where} ({board.size}x{board.size}, {board.givens} givens), {asked}, strategy={question.strategy}"

    def split(self, question: Question) -> list[Question] | None:
        """A count as the counts of its boards with the empty cell of fewest candidates filled.

        One board per candidate, a second cell filled for enough parts; each solution fills them one way."""
        return deepened(question, one_cell_filled, levels=8) if question.count and not question.validate else None

    def describe(self, question: Question) -> dict[str, Any]:
        """The question as JSON: the file (the puzzle's index and line in a file of many), the grid, the options."""
        board = question.board
        return {"file": question.file, "index": board.index, "line": board.line, "size": board.size,
                "puzzle": self.rows(question),
                "givens": board.givens, "count": question.count, "strategy": question.strategy,
                "validate": question.validate}

    def rows(self, question: Question) -> list[list[int]]:
        """The grid as rows of integers, 0 where a cell is empty."""
        return question.board.rows()

    def solves(self, puzzle: list[list[int]], grid: list[list[int]]) -> bool:
        """True when `grid` fills the board `puzzle` with every unit holding 1..N once."""
        return model.solves(model.make_board(puzzle), grid)

    def validity(self, broken: list[Any]) -> str:
        """Valid, or the rows, columns and boxes that hold a value twice."""
        if not broken:
            return "valid: every row, column and box holds each value once"
        return "not a solution: " + "; ".join(f"{kind} {number} holds {value} more than once"
                                              for kind, number, value in broken)

    def generate(self, size: int, seed: int | None, givens: int | None) -> tuple[dict[str, Any], str]:
        """A generated unique puzzle as JSON data and as a grid file `pysolve solve sudoku` reads."""
        seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
        data = generate.generate(size, seed, givens)
        header = (f"# sudoku generated by pysolve: seed {seed}, {size}x{size}, {data['givens']} givens, "
                  f"difficulty {data['difficulty']['label']} ({plural(data['difficulty']['states'], 'state')})\n")
        return data, header + draw.text(data["puzzle"])

    def instance_size(self, path: Path) -> str:
        """The grids' sides, and how many puzzles the file holds when more than one."""
        boards = model.load(path)
        sides = ", ".join(f"{side}x{side}" for side in sorted({board.size for board in boards}))
        return sides + (f", {len(boards)} puzzles" if len(boards) > 1 else "")

    def demo_questions(self) -> list[Question]:
        """The Wikipedia puzzle, counted to 2 (its solution and its uniqueness)."""
        return [Question(model.load(easy_file())[0], str(easy_file()), count=2)]


def one_cell_filled(question: Question) -> list[Question]:
    """`question` with its board's empty cell of fewest candidates filled, once per candidate.

    A candidate is a value none of the cell's peers holds. None when a cell has no candidate; the question itself
    when no cell has two or more."""
    board = question.board
    cells, peers = board.cells, board.geometry.peers

    def candidates(cell: int) -> list[int]:
        taken = {cells[peer] for peer in peers[cell]}
        return [value for value in range(1, board.size + 1) if value not in taken]

    choices = {cell: len(candidates(cell)) for cell, value in enumerate(cells) if not value}
    if 0 in choices.values():
        return []
    branching = [cell for cell, number in choices.items() if number > 1]
    if not branching:
        return [question]
    cell = min(branching, key=choices.__getitem__)
    filled = [cells[:cell] + (value,) + cells[cell + 1:] for value in candidates(cell)]
    return [dataclasses.replace(question, board=dataclasses.replace(board, cells=each)) for each in filled]


PUZZLE = SudokuPuzzle()
