"""The puzzle side of the board puzzles: their options (`board_options`) and `BoardPuzzle`.

`BoardPuzzle` gives the answers' canonical form, text and SVG; a puzzle fills
in how its boards are read, drawn and checked.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import Any

from pysolve import files
from pysolve.answers import SOLVED, UNKNOWN, Answer
from pysolve.boards.model import DEFAULT_SECONDS, BoardQuestion
from pysolve.options import Option, seconds_option
from pysolve.puzzle import Puzzle
from pysolve.words import plural

SHOWN = 12  # solutions drawn as text; --json lists them all


def board_options(file_help: str, validate_help: str, strategy: Option, *more: Option) -> tuple[Option, ...]:
    """FILE, --count K, --validate, the puzzle's --strategy (and `more`), --seconds, --nodes and --svg OUT."""
    return (
        Option("file", positional=True, required=True, metavar="FILE", help=file_help),
        Option("count", int, above=0, metavar="K", help="count solutions, stopping at K (--count 2 answers 'unique?')"),
        Option("validate", bool, help=validate_help),
        strategy,
        *more,
        seconds_option(DEFAULT_SECONDS, "time limit of each search, in seconds"),
        Option("nodes", int, 0, above=0, help="at most this many steps of each search (Python and miniKanren; "
                                              "default: no limit)"),
        Option("svg", metavar="OUT", output=True, help="also draw the (first) solution as SVG into OUT"),
    )


class BoardPuzzle(Puzzle):
    """A Puzzle whose questions are BoardQuestions: the entries, canonical form, text and SVG they share."""

    drawing: ModuleType  # the puzzle's draw module: text(rows) and svg(rows, puzzle)

    def total(self, question: BoardQuestion, counts: list[int]) -> int:
        """The parts' counts added up, stopping at the question's K as each part does."""
        return min(sum(counts), question.limit)

    def kind(self, question: BoardQuestion) -> str:
        """`validate` for a filled board to check, else `solve`."""
        return "validate" if question.validate else "solve"

    def rows(self, question: BoardQuestion) -> list[list[int]]:
        """The question's board as rows of integers (0 where empty), the form solutions take."""
        raise NotImplementedError

    def solves(self, puzzle: list[list[int]], grid: list[list[int]]) -> bool:
        """True when `grid` is a solution of the board `puzzle` (both as rows of integers)."""
        raise NotImplementedError

    def text(self, rows: list[list[int]]) -> str:
        """A board drawn for a terminal: the puzzle's `drawing.text(rows)`."""
        return self.drawing.text(rows)

    def svg(self, rows: list[list[int]], puzzle: list[list[int]]) -> str:
        """A board drawn as SVG, the givens of `puzzle` set apart: the puzzle's `drawing.svg(rows, puzzle)`."""
        return self.drawing.svg(rows, puzzle)

    def validity(self, broken: list[Any]) -> str:
        """One line on a validated board: valid, or what breaks it."""
        raise NotImplementedError

    def canonical(self, answer: Answer[BoardQuestion]) -> Any:
        """The part of an answer all back ends must agree on: its status and what it found.

        What breaks the board (validate), the count and, when complete, the sorted solutions (count), or whether
        each solution solves the board (back ends may find different ones)."""
        if answer.asked.validate:
            return {"status": answer.status, "broken": answer.stats.get("broken", [])}
        asked = answer.asked.count
        if asked:
            complete = answer.count is not None and answer.count < asked
            return {"status": answer.status, "count": answer.count,
                    "solutions": sorted(answer.solutions) if complete else f"at least {asked}"}
        puzzle = self.rows(answer.asked)
        return {"status": answer.status, "valid": [self.solves(puzzle, grid) for grid in answer.solutions]}

    def render(self, answer: Answer[BoardQuestion]) -> str:
        """The first SHOWN solutions (or the puzzle) drawn, and a line saying what was found."""
        pictures = [self.text(grid) for grid in answer.solutions[:SHOWN]] or [self.text(self.rows(answer.asked))]
        if len(answer.solutions) > SHOWN:
            pictures.append(f"... and {len(answer.solutions) - SHOWN} more (--json lists them all)")
        return "\n\n".join(pictures) + "\n" + self.verdict(answer)

    def status_words(self, answer: Answer[BoardQuestion]) -> str:
        """`valid` or `not valid` for a validated board (the verdict line above it says why), else the status."""
        if not answer.asked.validate or answer.status == UNKNOWN:
            return super().status_words(answer)
        return "not valid" if answer.stats.get("broken") else "valid"

    def verdict(self, answer: Answer[BoardQuestion]) -> str:
        """One line: valid or what breaks it, unique or how many, or no solution / unknown."""
        if answer.asked.validate:
            return self.validity(answer.stats.get("broken", []))
        if answer.status == UNKNOWN:
            return f"no answer: {answer.reason}"
        if answer.status != SOLVED:
            return answer.status
        asked = answer.asked.count
        if not asked:
            return "solved"
        found = answer.count if answer.count is not None else len(answer.solutions)  # one's own may not count
        if found == 1 and asked > 1:
            return "1 solution: unique"
        return plural(found, "solution") + (" (stopped at the limit)" if found == asked else "")

    def write_files(self, answer: Answer[BoardQuestion], outputs: Mapping[str, Any]) -> list[str]:
        """The (first) solution, or the puzzle, as SVG when --svg OUT was given."""
        if not outputs.get("svg"):
            return []
        puzzle = self.rows(answer.asked)
        rows = answer.solutions[0] if answer.solutions else puzzle
        return [files.write_text(outputs["svg"], self.svg(rows, puzzle), "--svg")]
