"""The imperative Python back end: the reference searches and the fast first-empty-cell enumerator.

The reference searches follow the spec literally: place the pieces in a fixed
order, each at one of its options in board order (depth-first for all tilings,
a FIFO queue for breadth-first). The fast enumerator (`cell`) instead fills the
lowest free cell of the mask: the piece covering it must have its bottom-left
corner there, so each tiling is met exactly once, with far fewer dead ends.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from itertools import islice
from typing import Any

from pysolve.answers import Found
from pysolve.budget import Budget
from pysolve.tangram import model
from pysolve.tangram.model import Instance, Placement, Question, Slot, Tiling, fitting_slots


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


def anchored_slots(instance: Instance, names: list[str], budget: Budget) -> dict[int, list[tuple[int, Slot]]]:
    """Cell index -> (piece number, slot) of every slot whose bottom-left corner is that cell."""
    anchors: dict[int, list[tuple[int, Slot]]] = {}
    for number, name in enumerate(names):
        budget.check()
        for slot in instance.slots_within(budget)[name]:
            anchors.setdefault((slot.mask & -slot.mask).bit_length() - 1, []).append((number, slot))
    return anchors


def first_empty_cell(question: Question, budget: Budget) -> Iterator[Tiling]:
    """Every tiling, by covering the lowest free cell (board order) with each unused piece that fits there."""
    instance, names = question.instance, question.order
    anchors = anchored_slots(instance, names, budget)
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


def solve(question: Question, budget: Budget) -> Found:
    """First, all or count tilings by the dfs, cell or bfs search; stats: the placements tried (`states`)."""
    question.instance.slots_within(budget)
    if question.mode == "count":
        number, stats = count_tilings(question, budget)
        return model.found(question, [], stats, number)
    if question.strategy == "bfs":
        tiling = model.breadth_first(question, lambda free, piece: steps(question.instance, free, piece), budget)
        tilings = [tiling] if tiling is not None else []
    else:
        search = first_empty_cell if question.strategy == "cell" else fixed_order
        tilings = list(islice(search(question, budget), question.limit or None))
    return model.found(question, tilings, {"states": budget.spent})


def steps(instance: Instance, free: int, piece: str) -> Iterator[tuple[Placement, int]]:
    """The options of `piece` on the free cells, each with the free cells it leaves (breadth-first steps)."""
    return ((slot.placement, free & ~slot.mask) for slot in fitting_slots(instance, free, piece))


class RoundOver(Exception):
    """A scan order used up the placements of its round (the portfolio goes on with the other)."""


class Scan:
    """One scan order of the memo counter: fill the first free cell column by column (or row by row).

    Pieces of the same shape are one kind (a count per kind in `unused`, one
    bit field each), so equal pieces are not told apart and the count is
    multiplied by the ways to name them at the end. The memo key is the
    canonical frontier: the free cells shifted down to the first column that
    still has a free cell (the same region anywhere on the board counts the
    same), with the pieces left, in one integer. The memo keeps at most `cap` entries; past
    that it is cleared (counted in `cleared`), which costs time, never the
    answer.
    """

    def __init__(self, kinds: Kinds, free: int, across: int, up: int, transposed: bool, cap: int) -> None:
        self.name, self.up, self.cap = ("rows" if transposed else "columns"), up, cap
        self.free = transpose(free, up, across) if transposed else free
        self.anchors: dict[int, list[tuple[int, int, int]]] = {}
        for field, unit, sizes in kinds.fields:
            for width, height in sizes:
                width, height = (height, width) if transposed else (width, height)
                column = (1 << height) - 1
                rectangle = sum(column << (i * up) for i in range(width))
                for x in range(across - width + 1):
                    for y in range(up - height + 1):
                        cell = x * up + y
                        self.anchors.setdefault(cell, []).append((field, unit, rectangle << cell))
        self.known: dict[int, int] = {}
        self.bits = kinds.bits
        self.cleared = 0

    def count(self, unused: int, limit: int, budget: Budget) -> int:
        """The tilings of this order's free cells by the pieces `unused`; RoundOver past `limit` placements."""
        anchors, known, up, cap, bits = self.anchors, self.known, self.up, self.cap, self.bits
        spent = 0

        def completions(free: int, unused: int) -> int:
            nonlocal spent
            if not unused:
                return 1
            low = (free & -free).bit_length() - 1
            key = free >> (low - low % up) << bits | unused
            total = known.get(key)
            if total is None:
                total = 0
                for field, unit, mask in anchors.get(low, ()):
                    if unused & field and free & mask == mask:
                        spent += 1
                        if spent > limit:
                            raise RoundOver
                        budget.spend()
                        total += completions(free ^ mask, unused - unit)
                if len(known) >= cap:
                    known.clear()
                    self.cleared += 1
                known[key] = total
            return total

        return completions(self.free, unused)


class Kinds:
    """The pieces to place grouped by shape: one bit field of `unused` per kind, sized for its number."""

    def __init__(self, instance: Instance, names: list[str]) -> None:
        groups: dict[tuple[tuple[int, int], ...], int] = {}
        for name in names:
            sizes = tuple(sorted(instance.orientations(name)))
            groups[sizes] = groups.get(sizes, 0) + 1
        self.fields: list[tuple[int, int, tuple[tuple[int, int], ...]]] = []
        self.unused, self.naming, offset = 0, 1, 0
        for sizes, number in groups.items():
            bits = number.bit_length()
            self.fields.append((((1 << bits) - 1) << offset, 1 << offset, sizes))
            self.unused |= number << offset
            self.naming *= math.factorial(number)
            offset += bits
        self.bits = offset  # the width of `unused`

def transpose(free: int, height: int, width: int) -> int:
    """A column-major mask (bit x * height + y) as the row-major one (bit y * width + x)."""
    turned = 0
    while free:
        low = free & -free
        bit = low.bit_length() - 1
        turned |= 1 << (bit % height * width + bit // height)
        free ^= low
    return turned


FIRST_ROUND = 20_000  # placements each scan order may try in the first round; doubled every round
MEMO_CAP = 5_000_000  # memo entries kept over both scan orders (under 1 GB on a 24x24 board)


def count_tilings(question: Question, budget: Budget) -> tuple[int, dict[str, Any]]:
    """The number of tilings by the memo counter, columns and rows in turn with doubling rounds; and stats.

    Neither scan order wins everywhere (one can need a thousand times the
    other's states on the same board), so both run, each round twice as long
    as the last, and their memos are kept between rounds: the total is within
    a small factor of the better order's time.
    """
    instance = question.instance
    kinds = Kinds(instance, question.order)
    scans = [Scan(kinds, question.free, instance.width, instance.height, transposed, MEMO_CAP // 2)
             for transposed in (False, True)]
    limit, rounds = FIRST_ROUND, 0
    while True:
        rounds += 1
        for scan in scans:
            try:
                number = scan.count(kinds.unused, limit, budget) * kinds.naming
            except RoundOver:
                continue
            return number, {"states": budget.spent, "order": scan.name, "rounds": rounds,
                            "memo": sum(len(s.known) for s in scans), "memo_cleared": sum(s.cleared for s in scans)}
        limit *= 2


def options(question: Question, budget: Budget) -> Found:
    """The options of `question.piece` given the placed pieces, in board order."""
    assert question.piece is not None
    question.instance.slots_within(budget)
    return model.found(question, model.options(question.instance, question.free, question.piece))


def validate(question: Question, budget: Budget) -> Found:
    """What keeps the placed pieces from being a tiling (none when they are one)."""
    return model.validation(question, model.problems(question.instance, question.placed))
