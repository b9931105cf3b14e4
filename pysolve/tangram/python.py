"""The imperative Python back end: the reference searches and the fast first-empty-cell enumerator.

The reference searches follow the spec literally: place the pieces in a fixed
order, each at one of its options in board order (depth-first for all tilings,
a FIFO queue for breadth-first). The fast enumerator (`cell`) instead fills the
lowest free cell of the mask: the piece covering it must have its bottom-left
corner there, so each tiling is met exactly once, with far fewer dead ends.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator

from pysolve.budget import Budget
from pysolve.tangram.model import Instance, Placement, Question, Slot, fitting_slots, options, problems

__all__ = ["search", "count", "breadth_first", "options_of", "problems_of"]

DEFAULT_NODES = 50_000_000
Tiling = tuple[Placement, ...]


def fixed_order(question: Question, budget: Budget) -> Iterator[Tiling]:
    """Every tiling, depth-first: each piece of the order at each of its options in board order."""
    instance, order = question.instance, question.order

    def extend(index: int, free: int, chosen: tuple[Placement, ...]) -> Iterator[Tiling]:
        if index == len(order):
            yield instance.sort(question.placed + chosen)
            return
        for slot in fitting_slots(instance, free, order[index]):
            budget.spend()
            yield from extend(index + 1, free & ~slot.mask, chosen + (slot.placement,))

    return extend(0, question.free, ())


def anchored_slots(instance: Instance, names: list[str]) -> dict[int, list[tuple[int, Slot]]]:
    """Cell index -> (piece number, slot) of every slot whose bottom-left corner is that cell."""
    anchors: dict[int, list[tuple[int, Slot]]] = {}
    for number, name in enumerate(names):
        for slot in instance.slots[name]:
            anchors.setdefault((slot.mask & -slot.mask).bit_length() - 1, []).append((number, slot))
    return anchors


def first_empty_cell(question: Question, budget: Budget) -> Iterator[Tiling]:
    """Every tiling, by covering the lowest free cell (board order) with each unused piece that fits there."""
    instance, names = question.instance, question.order
    anchors = anchored_slots(instance, names)
    chosen: list[Placement] = []

    def extend(free: int, unused: int) -> Iterator[Tiling]:
        if not unused:
            yield instance.sort(question.placed + tuple(chosen))
            return
        for number, slot in anchors.get((free & -free).bit_length() - 1, ()):
            if unused >> number & 1 and free & slot.mask == slot.mask:
                budget.spend()
                chosen.append(slot.placement)
                yield from extend(free & ~slot.mask, unused & ~(1 << number))
                chosen.pop()

    return extend(question.free, (1 << len(names)) - 1)


def _enumerate(question: Question, budget: Budget) -> Iterator[Tiling]:
    return first_empty_cell(question, budget) if question.strategy == "cell" else fixed_order(question, budget)


def search(question: Question) -> tuple[list[Tiling], int]:
    """The first `question.limit` tilings (0: all) of the dfs or cell strategy, and placements tried."""
    budget = Budget(DEFAULT_NODES, question.seconds, label="python search")
    found = []
    for tiling in _enumerate(question, budget):
        found.append(tiling)
        if question.limit and len(found) >= question.limit:
            break
    return found, budget.spent


def count(question: Question) -> tuple[int, int]:
    """The number of tilings and placements tried (cell strategy: memoised, see `count_by_cells`)."""
    budget = Budget(DEFAULT_NODES, question.seconds, label="python search")
    if question.strategy == "cell":
        return count_by_cells(question, budget), budget.spent
    return sum(1 for _ in fixed_order(question, budget)), budget.spent


def count_by_cells(question: Question, budget: Budget) -> int:
    """The first-empty-cell count, memoised on (free cells, unused pieces): equal sub-boards count once."""
    anchors = anchored_slots(question.instance, question.order)
    known: dict[tuple[int, int], int] = {}

    def completions(free: int, unused: int) -> int:
        if not unused:
            return 1
        if (free, unused) not in known:
            total = 0
            for number, slot in anchors.get((free & -free).bit_length() - 1, ()):
                if unused >> number & 1 and free & slot.mask == slot.mask:
                    budget.spend()
                    total += completions(free & ~slot.mask, unused & ~(1 << number))
            known[free, unused] = total
        return known[free, unused]

    return completions(question.free, (1 << len(question.order)) - 1)


def breadth_first(question: Question) -> tuple[Tiling | None, int]:
    """The first tiling of a breadth-first search over the fixed-order steps (FIFO queue)."""
    budget = Budget(DEFAULT_NODES, question.seconds, label="python search")
    instance, order = question.instance, question.order
    queue: deque[tuple[int, tuple[Placement, ...]]] = deque([(question.free, ())])
    while queue:
        free, chosen = queue.popleft()
        if len(chosen) == len(order):
            return instance.sort(question.placed + chosen), budget.spent
        for slot in fitting_slots(instance, free, order[len(chosen)]):
            budget.spend()
            queue.append((free & ~slot.mask, chosen + (slot.placement,)))
    return None, budget.spent


def options_of(question: Question) -> list[Placement]:
    """The options of `question.piece` given the placed pieces, in board order."""
    assert question.piece is not None
    return options(question.instance, question.free, question.piece)


def problems_of(question: Question) -> list[list[object]]:
    """What keeps the placed pieces from being a tiling (empty when they are one)."""
    return problems(question.instance, question.placed)
