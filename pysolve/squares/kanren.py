"""miniKanren relations for edge-matching squares, searched like the original.

Every cell is a logic term (Piece, Turns) with four edge variables N, E, S, W.
Relations: `orientedo(Piece, Turns, N, E, S, W)` (a piece in a rotation, a
table of facts), `matcho(A, B)` (an edge A may touch an edge B: complements,
or equal non-frame colours) and `bordero(Edge)` (the frame colour under the
eternity rule, anything under the insect rule). `squareso` joins them row by
row from the top-left, each cell constrained by its upper and left
neighbours before its piece is chosen, with a guard that no piece is used
twice: the original search, written as relations. `solve(question, budget)`
runs them depth-first.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from pysolve import minikanren as mk
from pysolve.answers import Found
from pysolve.minikanren import Budget, Goal, State, conj, eq, reify, unify, var, where
from pysolve.squares.model import (FRAME, ETERNITY, Cell, Grid, Instance, Periods, Question, class_size, found,
                                   is_canonical, oriented)


def is_var(value: Any) -> bool:
    """True when a reified value is still a logic variable."""
    return isinstance(value, type(var()))


class Facts:
    """A relation given as a table of ground tuples, looked up on whichever arguments are bound."""

    def __init__(self, rows: Iterable[tuple]) -> None:
        self.rows = list(rows)
        self.index: dict[tuple, list[tuple]] = {}

    def matching(self, bound: tuple[int, ...], values: tuple) -> list[tuple]:
        """The rows whose columns `bound` hold `values` (indexed on first use)."""
        key = (bound, values)
        if key not in self.index:
            self.index[key] = [row for row in self.rows if tuple(row[i] for i in bound) == values]
        return self.index[key]

    def goal(self, *terms: Any) -> Goal:
        """A goal that unifies `terms` with each matching row in turn."""

        def facts_goal(state: State) -> Iterator[State]:
            values = [reify(term, state) for term in terms]
            bound = tuple(i for i, value in enumerate(values) if not is_var(value))
            for row in self.matching(bound, tuple(values[i] for i in bound)):
                new_state = unify(tuple(terms), row, state)
                if new_state is not False:
                    yield new_state

        return facts_goal


class Relations:
    """The relations of one instance: orientedo, matcho, bordero."""

    def __init__(self, instance: Instance, periods: Periods | None = None) -> None:
        self.instance = instance
        self.oriented = Facts((p, t, *edges) for p, t, edges in oriented(instance, periods))
        self.pairs = Facts(sorted(instance.match_pairs(), key=str))

    def orientedo(self, piece: Any, turns: Any, n: Any, e: Any, s: Any, w: Any) -> Goal:
        """Piece turned Turns quarter turns clockwise shows edges N, E, S, W (distinct turns only, see oriented)."""
        return self.oriented.goal(piece, turns, n, e, s, w)

    def matcho(self, edge: Any, other: Any) -> Goal:
        """An edge `edge` may touch an edge `other`."""
        return self.pairs.goal(edge, other)

    def bordero(self, edge: Any) -> Goal:
        """`edge` may lie on the border of the grid."""
        return eq(edge, FRAME) if self.instance.rule == ETERNITY else conj()


def squareso(relations: Relations, grid: tuple, budget: Budget) -> Goal:
    """`grid` (rows of (Piece, Turns)) solves the instance; cells filled row by row from the top-left."""
    instance = relations.instance
    rows, cols = instance.rows, instance.cols
    edges = [[tuple(var() for _ in range(4)) for _ in range(cols)] for _ in range(rows)]
    goals = []
    placed: list[Any] = []
    for r in range(rows):
        for c in range(cols):
            (piece, turns), (n, e, s, w) = grid[r][c], edges[r][c]
            goals += [
                relations.matcho(edges[r - 1][c][2], n) if r else relations.bordero(n),
                relations.matcho(edges[r][c - 1][1], w) if c else relations.bordero(w),
                budget.tick(),
                relations.orientedo(piece, turns, n, e, s, w),
                where(lambda p, *others: p not in others, piece, *placed),
                relations.bordero(e) if c == cols - 1 else conj(),
                relations.bordero(s) if r == rows - 1 else conj(),
            ]
            placed.append(piece)
    return conj(*goals)


def fresh_grid(instance: Instance) -> tuple:
    """Rows of fresh (Piece, Turns) variables."""
    return tuple(tuple((var(), var()) for _ in range(instance.cols)) for _ in range(instance.rows))


def solutions(instance: Instance, up_to_rotation: bool, limit: int, budget: Budget,
              periods: Periods | None = None, prefix: tuple[Cell | None, ...] = ()) -> list[Grid]:
    """Up to `limit` solutions (0: all), optionally only the canonical one of each rotation class, and only
    those whose first cells (row by row) are `prefix` (None: any)."""
    mk.require()
    grid = fresh_grid(instance)
    periods = periods or instance.periods()
    goal = conj(*(eq(grid[pos // instance.cols][pos % instance.cols], cell) for pos, cell in enumerate(prefix)
                  if cell is not None),
                squareso(Relations(instance, periods), grid, budget))
    if up_to_rotation:
        goal = conj(goal, where(lambda solution: is_canonical(solution, periods), grid))
    return [tuple(tuple((p, t) for p, t in row) for row in answer) for answer in mk.run(goal, grid, limit)]


MAX_CELLS = 36  # past 6x6 the relations would only spend their budget; Python and Prolog answer those


def answers(question: Question) -> bool:
    """Boards of at most MAX_CELLS cells (a larger one: `--backend kanren` names the back ends that answer)."""
    return question.instance.rows * question.instance.cols <= MAX_CELLS


def solve(question: Question, budget: Budget) -> Found:
    """The miniKanren relations, depth-first, within the budget."""
    if question.prefix:  # a part of a split count: the canonical grids that begin with the prefix, each a class
        grids = solutions(question.instance, True, 0, budget, question.periods, question.prefix)
        return found(question, [], len(grids) * class_size(question), {"states": budget.spent})
    grids = solutions(question.instance, question.up_to_rotation, question.limit, budget, question.periods)
    return found(question, grids, len(grids), {"states": budget.spent})
