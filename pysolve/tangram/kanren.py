"""The miniKanren back end: the tangram rules as relations, run depth-first under a Budget.

`optiono` is the option relation (a placement of a piece whose cells are all
free, leaving the rest free), written as a goal over the slot facts of the
instance, filtered by the free cells once they are known. `placeo` chains it
through a fixed order of pieces (recursively, built lazily); `covero` is the
first-empty-cell relation. Conjunction and disjunction are the depth-first
ones of `pysolve.minikanren`; stock interleaving takes minutes here.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from pysolve import minikanren as mk
from pysolve.minikanren import Budget, conj, disj_over, eq, fail, given, lazy, var
from pysolve.tangram.model import Instance, Placement, Question, Slot

DEFAULT_NODES = 20_000_000
Tiling = tuple[Placement, ...]


def slot_goal(slot: Slot, free: int, placement: Any, rest: Any) -> mk.Goal:
    """`placement` is the slot's placement and `rest` the free cells it leaves, if it fits `free`."""
    if free & slot.mask != slot.mask:
        return fail
    return conj(eq(placement, slot.placement), eq(rest, free & ~slot.mask))


def optiono(instance: Instance, piece: str, free: Any, placement: Any, rest: Any) -> mk.Goal:
    """`placement` is an option of `piece` on the free cells `free` (board order); `rest` is left free."""
    return given(lambda cells: disj_over(instance.slots[piece],
                                         lambda slot: slot_goal(slot, cells, placement, rest)), free)


def placeo(instance: Instance, order: tuple[str, ...], free: Any, placements: Any, budget: Budget) -> mk.Goal:
    """`placements` (nested pairs) places the pieces of `order` one by one at options of `free`."""
    if not order:
        return eq(placements, ())
    head, rest, tail = var(), var(), var()
    return conj(eq(placements, (head, tail)),
                optiono(instance, order[0], free, head, rest),
                budget.tick(),
                lazy(placeo, instance, order[1:], rest, tail, budget))


def covero(instance: Instance, pieces: tuple[str, ...], free: Any, placements: Any, budget: Budget) -> mk.Goal:
    """`placements` (nested pairs) covers the free cells, always at the first free cell, with `pieces`."""

    def at_first_free(cells: int) -> mk.Goal:
        if not cells:
            return eq(placements, ()) if not pieces else fail
        anchor = (cells & -cells).bit_length() - 1
        return disj_over(range(len(pieces)), lambda index: cover_with(index, cells, anchor))

    def cover_with(index: int, cells: int, anchor: int) -> mk.Goal:
        head, rest, tail = var(), var(), var()
        anchored = [slot for slot in instance.slots[pieces[index]] if (slot.mask & -slot.mask).bit_length() - 1 == anchor]
        others = pieces[:index] + pieces[index + 1:]
        return conj(eq(placements, (head, tail)),
                    disj_over(anchored, lambda slot: slot_goal(slot, cells, head, rest)),
                    budget.tick(),
                    lazy(covero, instance, others, rest, tail, budget))

    return given(at_first_free, free)


def unpair(pairs: Any) -> list[Placement]:
    """Nested (head, tail) pairs as a list."""
    items = []
    while pairs:
        head, pairs = pairs
        items.append(head)
    return items


def _relation(question: Question, placements: Any, budget: Budget) -> mk.Goal:
    relation = covero if question.strategy == "cell" else placeo
    return relation(question.instance, tuple(question.order), question.free, placements, budget)


def search(question: Question) -> tuple[list[Tiling], int]:
    """The first `question.limit` tilings (0: all) of the placeo (dfs) or covero (cell) relation."""
    mk.require()
    budget = Budget(DEFAULT_NODES, question.seconds, label="miniKanren search")
    placements = var()
    found = mk.run(_relation(question, placements, budget), placements, question.limit)
    tilings = [question.instance.sort(question.placed + tuple(unpair(pairs))) for pairs in found]
    return tilings, budget.spent


def count(question: Question) -> tuple[int, int]:
    """The number of answers of the relation, counted as they stream (none is kept)."""
    mk.require()
    budget = Budget(DEFAULT_NODES, question.seconds, label="miniKanren search")
    return sum(1 for _ in _relation(question, var(), budget)({})), budget.spent


def breadth_first(question: Question) -> tuple[Tiling | None, int]:
    """The first tiling of a breadth-first search whose steps are answers of `optiono`."""
    mk.require()
    instance, order, expanded = question.instance, question.order, 0
    queue: deque[tuple[int, tuple[Placement, ...]]] = deque([(question.free, ())])
    while queue:
        free, chosen = queue.popleft()
        if len(chosen) == len(order):
            return instance.sort(question.placed + chosen), expanded
        placement, rest = var(), var()
        for found, left in mk.run(optiono(instance, order[len(chosen)], free, placement, rest), (placement, rest)):
            expanded += 1
            queue.append((left, chosen + (found,)))
    return None, expanded


def options_of(question: Question) -> list[Placement]:
    """The answers of `optiono` for `question.piece` on the free cells, in board order."""
    mk.require()
    assert question.piece is not None
    placement = var()
    return mk.run(optiono(question.instance, question.piece, question.free, placement, var()), placement)
