"""The tokens puzzle ("fichas"): boards, moves and the heuristic, as the spec defines them.

A board is a string over B (white), H (hole) and V (green): order (m, n)
starts as m B's, the hole, n V's and must end as n V's, the hole, m B's.
A move swaps the hole with the token 1, 2 or 3 cells away.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any

from pysolve.budget import DEFAULT_SECONDS, time_limit
from pysolve.errors import InputError, UnknownName
from pysolve.files import excerpt
from pysolve.search import FLAVOURS, TREE_STRATEGIES

WHITE, HOLE, GREEN = "B", "H", "V"
OFFSETS = (-1, -2, -3, 1, 2, 3)  # successor order: left of the hole first, nearest first
MAX_ORDER = 12
STRATEGIES = (*TREE_STRATEGIES, "shortest", "astar")
SCORED = ("best-first", "hill-climbing")  # the strategies that order states by the heuristic


def start(m: int, n: int) -> str:
    """The start board of order (m, n): `BBHVV` for (2, 2)."""
    return WHITE * m + HOLE + GREEN * n


def goal(m: int, n: int) -> str:
    """The goal board of order (m, n): `VVHBB` for (2, 2)."""
    return GREEN * n + HOLE + WHITE * m


def is_goal(board: str) -> bool:
    """True when every V stands left of the hole and every B right of it."""
    hole = board.index(HOLE)
    return set(board[:hole]) <= {GREEN} and set(board[hole + 1:]) <= {WHITE}


def successors(board: str) -> list[str]:
    """The boards one move away, in the spec's order (offsets -1, -2, -3, +1, +2, +3)."""
    hole = board.index(HOLE)
    boards = []
    for offset in OFFSETS:
        other = hole + offset
        if 0 <= other < len(board):
            low, high = min(hole, other), max(hole, other)
            boards.append(board[:low] + board[high] + board[low + 1:high] + board[low] + board[high + 1:])
    return boards


def mirror(board: str) -> str:
    """The board read right to left: maps start(m, n) to goal(m, n), and moves to moves."""
    return board[::-1]


def heuristic(board: str) -> int:
    """For every B, the number of V to its right, summed (0 at the goal, m*n at the start)."""
    greens_to_the_right, total = 0, 0
    for cell in reversed(board):
        if cell == GREEN:
            greens_to_the_right += 1
        elif cell == WHITE:
            total += greens_to_the_right
    return total


def describe(board: str, strategy: str) -> tuple[str, dict[str, Any]]:
    """A board's label and move in a trace (docs/fichas.md, "Searches recorded").

    The board, and as data the board with its heuristic when `strategy` orders states by it.
    """
    if strategy in SCORED:
        return board, {"state": board, "h": heuristic(board)}
    return board, {"state": board}


def displacement(board: str) -> int:
    """How far the tokens stand from the goal: each colour's i-th token against its i-th goal cell."""
    whites = [i for i, cell in enumerate(board) if cell == WHITE]
    greens = [i for i, cell in enumerate(board) if cell == GREEN]
    first_white_goal = len(greens) + 1
    return (sum(abs(cell - (first_white_goal + i)) for i, cell in enumerate(whites))
            + sum(abs(cell - i) for i, cell in enumerate(greens)))


def moves_lower_bound(board: str) -> int:
    """An admissible, consistent bound on the moves left.

    One move jumps one token over at most two others (the heuristic drops by
    at most 2) and carries it at most 3 cells (the displacement drops by at
    most 3).
    """
    return max(math.ceil(heuristic(board) / 2), math.ceil(displacement(board) / 3))


def is_solution(path: list[str], m: int, n: int) -> bool:
    """True when `path` goes from start(m, n) to goal(m, n) by legal moves."""
    return (bool(path) and path[0] == start(m, n) and path[-1] == goal(m, n)
            and all(after in successors(before) for before, after in itertools.pairwise(path)))


def first_illegal(path: list[str], m: int, n: int) -> str | None:
    """Where `path` first breaks the rules, in words; None when it keeps them.

    Where `path` first breaks the rules, in words (a start or an end that is not the puzzle's, or its first
    illegal move and why); None when it goes from start(m, n) to goal(m, n) by legal moves.
    """
    if not path or path[0] != start(m, n):
        return f"the path starts at {path[0]!r}, not at the start {start(m, n)!r}" if path else "an empty path"
    for step, (before, after) in enumerate(itertools.pairwise(path), start=1):
        if after not in successors(before):
            return f"move {step}, {before!r} to {after!r}: {illegal_words(before, after)}"
    if path[-1] != goal(m, n):
        return f"the path ends at {path[-1]!r}, not at the goal {goal(m, n)!r}"
    return None


def illegal_words(before: str, after: str) -> str:
    """Why `after` is not one move from `before`: a move takes a token into the hole from 1 to 3 cells away."""
    if sorted(before) != sorted(after):
        return "the tokens changed (a move only moves one into the hole)"
    changed = [index for index, (old, new) in enumerate(zip(before, after)) if old != new]
    if not changed:
        return "nothing moved"
    if len(changed) > 2 or HOLE not in (before[changed[0]], before[changed[-1]]):
        return "more than one token moved (a move takes one token into the hole)"
    return f"a token moved {changed[-1] - changed[0]} cells (a move is a slide or a jump over one or two, 3 at most)"


@dataclass(frozen=True)
class Question:
    """Solve order (m, n) with one strategy and flavour."""

    m: int
    n: int
    strategy: str = "shortest"
    flavour: str = "hs"
    seconds: float = DEFAULT_SECONDS  # the search's time limit (not part of the question's identity)

    def __post_init__(self) -> None:
        time_limit(self.seconds)
        for name, value in (("m", self.m), ("n", self.n)):
            if not isinstance(value, int) or isinstance(value, bool):
                raise InputError(f"order {name} must be an integer, got {excerpt(value)}")
            if not 0 <= value <= MAX_ORDER:
                raise InputError(f"order {name}={value} is out of range: use 0..{MAX_ORDER}")
        if self.strategy not in STRATEGIES:
            raise UnknownName(f"unknown strategy {excerpt(self.strategy)}; choose one of {', '.join(STRATEGIES)}")
        if self.flavour not in FLAVOURS:
            raise UnknownName(f"unknown flavour {excerpt(self.flavour)}; choose one of {', '.join(FLAVOURS)}")


class Boards:
    """The board-level problem of order (m, n), for pysolve.search."""

    def __init__(self, m: int, n: int) -> None:
        self.m, self.n = m, n

    def initial(self) -> str:
        return start(self.m, self.n)

    def is_goal(self, board: str) -> bool:
        return is_goal(board)

    def successors(self, board: str) -> list[str]:
        return successors(board)

    def heuristic(self, board: str) -> int:
        return heuristic(board)
