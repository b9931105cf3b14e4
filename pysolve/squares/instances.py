"""Random edge-matching squares as hypothesis strategies, for tests, `pysolve check` and tests of one's own.

An instance is drawn the way hypothesis shrinks well: its rows and
columns, the matching rule (insect first), the number of edge colours and
a seed for the generator (`generate.generate`: a solved grid cut into
pieces, turned and shuffled, so every instance has a solution). Shrinking
makes the grid smaller, the rule the insect's and the colours fewer, so
the smallest instance that still shows a difference has few pieces, each
easy to draw. In a test of one's own:

    @given(instances(max_side=3))
    def test_my_solver_agrees(instance): ...

>>> from hypothesis import find
>>> instance = find(instances(), lambda instance: True)  # the smallest instance of all
>>> instance.rows, instance.cols, instance.rule
(1, 1, 'insect')
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from hypothesis import strategies as st

from pysolve.squares import draw, model
from pysolve.squares.generate import generate
from pysolve.squares.model import ALL, RULES, Instance, Question

Solution = list[list[dict[str, int]]]  # a grid as an answer holds it (model.grid_to_json)

SEEDS = st.integers(0, 2**32 - 1)


@st.composite
def instances(draw: st.DrawFn, max_side: int = 2, rules: Sequence[str] = RULES, min_colours: int = 2,
              max_colours: int = 4) -> Instance:
    """A random solvable instance under one of the rules.

    A solvable instance of at most `max_side` rows and columns under one of `rules`, its seams in
    `min_colours` to `max_colours` colours (fewer colours match more ways: more solutions)."""
    rows, cols = draw(st.integers(1, max_side)), draw(st.integers(1, max_side))
    rule = draw(st.sampled_from(rules))
    colours = draw(st.integers(min_colours, max_colours))
    return generate(rows, cols, colours, draw(SEEDS), rule)


def questions(max_size: int = 2, limit: int = 10, seconds: float = model.DEFAULT_SECONDS) -> \
        st.SearchStrategy[Question]:
    """All-solutions questions on random instances: what `pysolve check squares` asks.

    Questions asking every solution of random instances (at most `max_size` rows and columns), each piece
    in all four turns, each search within `seconds`: what `pysolve check squares` asks. Every solution is
    listed, however many (`limit` is the board puzzles' count; these boards stay small)."""
    return instances(max_side=max_size).map(
        lambda instance: Question(instance, ALL, count_orientations=True, seconds=seconds))


def instance_text(question: Question) -> str:
    """The question's instance as a file `pysolve solve squares` reads (the keyword format)."""
    return model.dump(question.instance)


def parts(question: Question, solution: Solution) -> dict[tuple[int, int], tuple[int, int]]:
    """Each cell of a solution with its piece and turns.

    Each cell (row, column) of a solution and the piece and turns on it: what `pysolve check` compares when
    it draws two solutions apart (`drawn`)."""
    grid = model.grid_from_json(solution)
    return {(r, c): cell for r, row in enumerate(grid) for c, cell in enumerate(row)}


def drawn(question: Question, solution: Solution, marked: Collection[Any]) -> str:
    """A solution drawn as `pysolve solve squares` draws it, some cells marked.

    A solution drawn as `pysolve solve squares` draws it, the cells in `marked` (those where another
    solution differs) with a star in each corner."""
    return draw.text_grid(question.instance, model.grid_from_json(solution), marked)
