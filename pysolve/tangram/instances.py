"""Random rectangle tangrams as hypothesis strategies, for pysolve's tests, `pysolve check` and one's own.

An instance is drawn the way hypothesis shrinks well: the board's width and
height, how many rectangles it is cut into, a seed for the cuts (the
generator's `generate.generate`: guillotine cuts, so every instance has a
tiling) and whether pieces may turn. Shrinking makes the board smaller,
the pieces fewer and turning off, so the smallest instance that still
shows a difference has few pieces, each easy to draw. In a test of one's
own:

    @given(instances(max_side=5, max_pieces=5))
    def test_my_solver_agrees(instance): ...

>>> from hypothesis import find
>>> instance = find(instances(), lambda instance: True)  # the smallest instance of all
>>> instance.width, instance.height, len(instance.pieces), instance.rotations
(1, 1, 1, False)
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from hypothesis import strategies as st

from pysolve.tangram import draw
from pysolve.tangram.generate import generate
from pysolve.tangram.model import DEFAULT_SECONDS, Instance, Placement, Question, tiling_of

SEEDS = st.integers(0, 2**32 - 1)
Solution = list[dict[str, Any]]  # a tiling as an answer holds it: a placement per piece


@st.composite
def instances(draw: st.DrawFn, max_side: int = 4, max_pieces: int = 4, rotations: bool = True) -> Instance:
    """A board of at most `max_side` cells a side cut into at most `max_pieces` rectangles.

    Never more rectangles than it has cells; turning is allowed in some when `rotations`."""
    width, height = draw(st.integers(1, max_side)), draw(st.integers(1, max_side))
    pieces = draw(st.integers(1, min(max_pieces, width * height)))
    turning = rotations and draw(st.booleans())
    return generate(width, height, pieces, draw(SEEDS), turning)


def questions(max_size: int = 4, limit: int = 10, seconds: float = DEFAULT_SECONDS) -> st.SearchStrategy[Question]:
    """Questions asking every tiling of random instances: what `pysolve check tangram` asks.

    The boards have at most `max_size` cells a side, and each search runs within `seconds`. Every tiling is
    listed, however many (`limit` is the board puzzles' count; these boards stay small)."""
    return instances(max_side=max_size).map(lambda instance: Question(instance, "all", "dfs", seconds=seconds))


def instance_text(question: Question) -> str:
    """The question's instance as a file `pysolve solve tangram` reads (the data format)."""
    return question.instance.to_text()


def parts(question: Question, solution: Solution) -> dict[str, Placement]:
    """Each piece of a tiling by name and where it lies.

    What `pysolve check` compares when it draws two tilings apart (`drawn`)."""
    return {placement.piece: placement for placement in tiling_of(question.instance, solution)}


def drawn(question: Question, solution: Solution, marked: Collection[Any]) -> str:
    """A tiling drawn as `pysolve solve tangram` draws it, then the pieces in `marked`, starred.

    Each cell shows its piece's key; each marked piece (one another tiling places differently) is listed with
    where it lies."""
    instance = question.instance
    tiling = tiling_of(instance, solution)
    lines = [draw.text_grid(instance, tiling)]
    lines += [f"* {instance.piece(p.piece).key} {p.piece} at ({p.x},{p.y}), {p.width}x{p.height}"
              for p in tiling if p.piece in marked]
    return "\n".join(lines)
