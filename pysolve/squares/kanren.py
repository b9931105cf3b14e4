"""miniKanren relations for edge-matching squares, searched like the original.

Every cell is a logic term (Piece, Turns) with four edge variables N, E, S, W.
Relations: `orientedo(Piece, Turns, N, E, S, W)` (a piece in a rotation, a
table of facts), `matcho(A, B)` (an edge A may touch an edge B: complements,
or equal non-frame colours) and `bordero(Edge)` (the frame colour under the
eternity rule, anything under the insect rule). `squareso` joins them row by
row from the top-left, each cell constrained by its upper and left
neighbours before its piece is chosen, with a guard that no piece is used
twice: the original search, written as relations (a part of a split count
that fixes one piece away from the corner fills the cells around it first). `solve(question, budget)`
runs them depth-first.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from pysolve import minikanren as mk
from pysolve.answers import Found
from pysolve.minikanren import Budget, Goal, State, conj, eq, reify, unify, var, where
from pysolve.squares.model import (FRAME, ETERNITY, Cell, Grid, Instance, Periods, Question, class_size, found,
                                   grid_neighbours, is_canonical, oriented)


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


def squareso(relations: Relations, grid: tuple, budget: Budget, order: list[int] | None = None) -> Goal:
    """`grid` (rows of (Piece, Turns)) solves the instance; cells filled in `order` (row-major positions; by
    default row by row from the top-left), each constrained by the border and by its neighbours placed
    before it before its piece is chosen, with a guard that no piece is used twice."""
    instance = relations.instance
    rows, cols = instance.rows, instance.cols
    edges = [tuple(var() for _ in range(4)) for _ in range(rows * cols)]
    goals = []
    placed: list[Any] = []
    done: set[int] = set()
    neighbours = grid_neighbours(rows, cols)
    for pos in order or range(rows * cols):
        (piece, turns), here = grid[pos // cols][pos % cols], edges[pos]
        facing = {side: other for other, side in neighbours[pos]}
        for side in range(4):  # N, E, S, W; the neighbour's side that faces this one is two turns on
            other = facing.get(side)
            if other is None:
                goals.append(relations.bordero(here[side]))
            elif other in done:
                goals.append(relations.matcho(edges[other][(side + 2) % 4], here[side]))
        goals += [budget.tick(), relations.orientedo(piece, turns, *here),
                  where(lambda p, *others: p not in others, piece, *placed)]
        placed.append(piece)
        done.add(pos)
    return conj(*goals)


def outward(rows: int, cols: int, start: list[int]) -> list[int]:
    """Every position, nearest to the `start` positions first (row-major among equals): the order that
    fills a part of a most-constrained-first count around its fixed piece, which row by row would leave
    unchecked until the search reached it."""
    def distance(pos: int) -> int:
        return min(abs(pos // cols - at // cols) + abs(pos % cols - at % cols) for at in start)
    return sorted(range(rows * cols), key=lambda pos: (distance(pos), pos))


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
    fixed = [pos for pos, cell in enumerate(prefix) if cell is not None]
    order = outward(instance.rows, instance.cols, fixed) if None in prefix else None
    goal = conj(*(eq(grid[pos // instance.cols][pos % instance.cols], prefix[pos]) for pos in fixed),
                squareso(Relations(instance, periods), grid, budget, order))
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
