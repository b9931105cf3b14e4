"""Tangram's rules one by one, for `pysolve grade`: which of them a tiling of one's own breaks, and where.

A grade names each rule a class's tilings break (pysolve.grade), not only
that an answer differs from pysolve's: a piece that sticks out breaks
*inside the board*, two that share a cell *no overlap*, a cell no piece
covers *every cell covered*, a piece left out or placed twice *each piece
once*, a piece that lies with a size it was not cut to, nor turned to,
*sizes kept*. Where the board allows no turning,
the interface's answer holds no sizes (each piece lies as it is cut), so
*sizes kept* is judged on turning boards alone (`unseen`).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from pysolve.answers import Answer
from pysolve.tangram.model import Question, inside, tiling_of

RULES = {
    "inside the board": "every piece lies on the board",
    "no overlap": "no cell under two pieces",
    "every cell covered": "every cell of the board under a piece",
    "each piece once": "every piece placed once",
    "sizes kept": "each piece lies as it is cut, or turned a quarter turn where the board allows turning",
}


def unseen(question: Question) -> dict[str, str]:
    """The rules no answer to `question` can show broken, with why: sizes on a board that allows no turning."""
    if question.instance.rotations:
        return {}
    return {"sizes kept": "no board drawn allows turning, where an answer gives each piece's size"}


def broken(question: Question, solution: list[dict[str, Any]], reference: Answer) -> dict[str, str]:
    """The rules of RULES that `solution`, a tiling, breaks on `question`'s board, each with its first break.

    Each break is said in words; `reference`, pysolve's answer, is not needed: the board says it all."""
    instance = question.instance
    tiling = tiling_of(instance, solution)
    found: dict[str, str] = {}
    outside = next((placement for placement in tiling if not inside(instance, placement)), None)
    if outside is not None:
        found["inside the board"] = (f"{outside.piece} at ({outside.x},{outside.y}), {outside.width}x"
                                     f"{outside.height}, sticks out of the {instance.width}x{instance.height} board")
    covered: Counter[tuple[int, int]] = Counter(cell for placement in tiling for cell in placement.cells())
    twice = sorted(cell for cell, times in covered.items() if times > 1)
    if twice:
        under = [placement.piece for placement in tiling if twice[0] in placement.cells()]
        found["no overlap"] = f"cell {twice[0]} lies under {' and '.join(under)}"
    bare = [(x, y) for x in range(instance.width) for y in range(instance.height) if (x, y) not in covered]
    if bare:
        found["every cell covered"] = f"{len(bare)} cell(s) under no piece, the first {bare[0]}"
    placed = Counter(placement.piece for placement in tiling)
    wrong = next((name for name in instance.names if placed[name] != 1), None)
    if wrong is not None:
        found["each piece once"] = f"{wrong} placed {placed[wrong]} times"
    for placement in tiling:
        piece = instance.piece(placement.piece)
        sizes = {(piece.width, piece.height)} | ({(piece.height, piece.width)} if instance.rotations else set())
        if (placement.width, placement.height) not in sizes:
            found["sizes kept"] = (f"{piece.name} lies {placement.width}x{placement.height}, cut {piece.width}x"
                                   f"{piece.height}")
            break
    return found
