"""The miniKanren back end: the tangram rules as relations, run depth-first under a Budget.

`optiono` is the option relation (a placement of a piece whose cells are all
free, leaving the rest free), written as a goal over the slot facts of the
instance, filtered by the free cells once they are known. `placeo` chains it
through a fixed order of pieces (recursively, built lazily); `covero` is the
first-empty-cell relation. Conjunction and disjunction are the depth-first
ones of `pysolve.minikanren`; stock interleaving takes minutes here. Both
record themselves when the budget carries a trace (docs/tangram.md,
"Searches recorded"): a node per placement chosen, entered below the one
before it.

Validation asks each rule of a tiling of placed pieces on its own: `insideo`
(the placement is one of its piece's slots, so on the board), `cello` (the
cells a placement covers: two placements overlap on the cells both cover)
and `membero` (every piece of the instance is among the placed ones).
"""

from __future__ import annotations

from typing import Any

from pysolve import minikanren as mk
from pysolve.answers import Found
from pysolve.minikanren import Budget, conj, dead_ends, disj_over, entered, eq, fail, given, lazy, solved, var
from pysolve.tangram.model import Instance, Placement, Question, Slot, found, validation
from pysolve.tangram.search_helpers import breadth_first, describe


def can_trace(question: Question) -> bool:
    """The searches for the first or every tiling record themselves (a count or an option asked does not)."""
    return question.mode in ("first", "all")


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
        return conj(eq(placements, ()), solved(budget.trace))
    head, rest, tail = var(), var(), var()
    return conj(eq(placements, (head, tail)),
                optiono(instance, order[0], free, head, rest),
                budget.tick(),
                entered(budget.trace, head, describe, lazy(placeo, instance, order[1:], rest, tail, budget)))


def covero(instance: Instance, pieces: tuple[str, ...], free: Any, placements: Any, budget: Budget) -> mk.Goal:
    """`placements` (nested pairs) covers the free cells, always at the first free cell, with `pieces`."""

    def at_first_free(cells: int) -> mk.Goal:
        if not cells:
            return conj(eq(placements, ()), solved(budget.trace)) if not pieces else fail
        anchor = (cells & -cells).bit_length() - 1
        return disj_over(range(len(pieces)), lambda index: cover_with(index, cells, anchor))

    def cover_with(index: int, cells: int, anchor: int) -> mk.Goal:
        budget.step()  # a piece tried at the anchor, placed or not: the clock is looked at as its cost needs
        head, rest, tail = var(), var(), var()
        anchored = [slot for slot in instance.slots[pieces[index]]
                    if (slot.mask & -slot.mask).bit_length() - 1 == anchor]
        others = pieces[:index] + pieces[index + 1:]
        return conj(eq(placements, (head, tail)),
                    disj_over(anchored, lambda slot: slot_goal(slot, cells, head, rest)),
                    budget.tick(),
                    entered(budget.trace, head, describe, lazy(covero, instance, others, rest, tail, budget)))

    return given(at_first_free, free)


def unpair(pairs: Any) -> list[Placement]:
    """Nested (head, tail) pairs as a list."""
    items = []
    while pairs:
        head, pairs = pairs
        items.append(head)
    return items


def _relation(question: Question, placements: Any, budget: Budget) -> mk.Goal:
    """The question's relation; recorded, a start that leaves no choice is a dead end at the root."""
    relation = covero if question.strategy == "cell" or question.mode == "count" else placeo  # counts: the fastest
    return dead_ends(budget.trace, relation(question.instance, tuple(question.order), question.free, placements,
                                            budget))


def solve(question: Question, budget: Budget) -> Found:
    """First, all or count tilings of placeo (dfs) or covero (cell), or the breadth-first one; stats: `states`."""
    mk.require()
    question.instance.slots_within(budget)
    if question.mode == "count":
        number = sum(1 for _ in _relation(question, var(), budget)({}))  # counted as they stream, none kept
        return found(question, [], {"states": budget.spent}, number)
    if question.strategy == "bfs":
        tiling = breadth_first(question, lambda free, piece: steps(question.instance, free, piece), budget)
        tilings = [tiling] if tiling is not None else []
    else:
        placements = var()
        answers = mk.run(_relation(question, placements, budget), placements, question.limit)
        tilings = [question.instance.sort(question.placed + tuple(unpair(pairs))) for pairs in answers]
    return found(question, tilings, {"states": budget.spent})


def steps(instance: Instance, free: int, piece: str) -> list[tuple[Placement, int]]:
    """The answers of `optiono` for `piece` on the free cells, with the free cells each leaves."""
    placement, rest = var(), var()
    return mk.run(optiono(instance, piece, free, placement, rest), (placement, rest))


def options(question: Question, budget: Budget) -> Found:
    """The answers of `optiono` for `question.piece` on the free cells, in board order."""
    mk.require()
    assert question.piece is not None
    question.instance.slots_within(budget)
    placement = var()
    return found(question, mk.run(optiono(question.instance, question.piece, question.free, placement, var()),
                                        placement))


def insideo(instance: Instance, placement: Placement) -> mk.Goal:
    """`placement` is one of the slots of its piece: it lies on the board."""
    return disj_over(instance.slots[placement.piece], lambda slot: eq(placement, slot.placement))


def cello(placement: Placement, cell: Any) -> mk.Goal:
    """`cell` (x, y) is one of the cells `placement` covers, in board order."""
    x, y = var(), var()
    return conj(eq(cell, (x, y)),
                disj_over(range(placement.x, placement.x + placement.width), lambda column: eq(x, column)),
                disj_over(range(placement.y, placement.y + placement.height), lambda row: eq(y, row)))


def membero(item: Any, items: list[Any]) -> mk.Goal:
    """`item` is one of `items`."""
    return disj_over(items, lambda each: eq(item, each))


def validate(question: Question, budget: Budget) -> Found:
    """What keeps the placed pieces from being a tiling, each rule asked on its own.

    In the order of the reference rules (pysolve.tangram.model.problems): pieces off the board, overlaps (with the
    cells both cover), pieces not placed."""
    mk.require()
    instance = question.instance
    instance.slots_within(budget)
    ordered = instance.sort(question.placed)
    problems: list[list[Any]] = [["out_of_board", p.piece] for p in ordered if not mk.holds(insideo(instance, p))]
    for index, first in enumerate(ordered):
        for second in ordered[index + 1:]:
            cell = var()
            shared = len(mk.run(conj(cello(first, cell), budget.tick(), cello(second, cell)), cell))
            if shared:
                problems.append(["overlap", first.piece, second.piece, shared])
    placed = [p.piece for p in question.placed]
    problems += [["missing", name] for name in instance.names if not mk.holds(membero(name, placed))]
    return validation(question, problems)
