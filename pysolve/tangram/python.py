"""The imperative Python back end: the reference searches and the fast first-empty-cell enumerator.

The reference searches follow the spec literally: place the pieces in a fixed
order, each at one of its options in board order (depth-first for all tilings,
a FIFO queue for breadth-first). The fast enumerator (`cell`) instead fills the
lowest free cell of the mask: the piece covering it must have its bottom-left
corner there, so each tiling is met exactly once, with far fewer dead ends.
All three record themselves when the budget carries a trace (docs/tangram.md,
"Searches recorded"); the memo counter does not.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterator
from functools import reduce
from itertools import islice
from operator import or_
from typing import Any

from pysolve.answers import Found
from pysolve.budget import Budget
from pysolve.tangram import model
from pysolve.tangram.model import Instance, Placement, Question, Slot, Tiling, fitting_slots, found, validation
from pysolve.tangram.search_helpers import breadth_first, describe, first_scan
from pysolve.trace import failing_empty, pushed_each, recorder


def can_trace(question: Question) -> bool:
    """The searches for the first or every tiling record themselves (a count or a rule asked does not)."""
    return question.mode in ("first", "all")


def fixed_order(question: Question, budget: Budget) -> Iterator[Tiling]:
    """Every tiling, depth-first: each piece of the order at each of its options in board order."""
    instance, order, trace = question.instance, question.order, recorder(budget.trace)

    def extend(index: int, free: int, chosen: tuple[Placement, ...]) -> Iterator[Tiling]:
        if index == len(order):
            trace.solution()
            yield instance.sort(question.placed + chosen)
            return
        for slot in fitting_slots(instance, free, order[index]):
            budget.spend()
            yield from step(index + 1, free & ~slot.mask, chosen + (slot.placement,))

    # each step a node labelled by its last placement, failed where no piece fits, or `extend` itself: chosen once
    step = trace.wrap(pushed_each, extend, lambda index, free, chosen: describe(chosen[-1]))
    return trace.wrap(failing_empty, extend)(0, question.free, ())


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
    instance, names, trace = question.instance, question.order, recorder(budget.trace)
    anchors = anchored_slots(instance, names, budget)
    chosen: list[Placement] = []

    def extend(free: int, unused: int) -> Iterator[Tiling]:
        if not unused:
            trace.solution()
            yield instance.sort(question.placed + tuple(chosen))
            return
        for number, slot in anchors.get((free & -free).bit_length() - 1, ()):
            if unused >> number & 1 and free & slot.mask == slot.mask:
                budget.spend()
                chosen.append(slot.placement)
                yield from step(free & ~slot.mask, unused & ~(1 << number))
                chosen.pop()

    # as fixed_order's steps, chosen once
    step = trace.wrap(pushed_each, extend, lambda free, unused: describe(chosen[-1]))
    return trace.wrap(failing_empty, extend)(question.free, (1 << len(names)) - 1)


def solve(question: Question, budget: Budget) -> Found:
    """First, all or count tilings by the dfs, cell or bfs search; stats: the placements tried (`states`)."""
    if question.mode == "count":  # the memo counter builds tables of its own
        number, stats = count_tilings(question, budget)
        return found(question, [], stats, number)
    question.instance.slots_within(budget)
    if question.strategy == "bfs":
        tiling = breadth_first(question, lambda free, piece: steps(question.instance, free, piece), budget)
        tilings = [tiling] if tiling is not None else []
    else:
        search = first_empty_cell if question.strategy == "cell" else fixed_order
        tilings = list(islice(search(question, budget), question.limit or None))
    return found(question, tilings, {"states": budget.spent})


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
    still has one, or the same region upside down if that mask is smaller (a
    region and its mirror image have as many tilings), with the pieces left,
    in one integer. Dead placements are not followed: one that leaves a
    free cell no piece can cover (one cell high between filled cells when
    every piece is at least two high, one cell wide when every piece is at
    least two wide), one whose rows keep a free width the pieces left cannot
    add up to, or whose column keeps a free run above it their heights cannot
    add up to (every piece that covers that run starts in this column). The
    memo keeps at most `cap` entries; when it is full about half of it is
    dropped (`forget`, counted in `cleared`), which costs time, never the
    answer.
    """

    def __init__(self, kinds: Kinds, free: int, across: int, up: int, transposed: bool, cap: int) -> None:
        if transposed:
            free, across, up = transpose(free, up, across), up, across
        self.name, self.up, self.cap, self.free = ("rows" if transposed else "columns"), up, cap, free
        self.mirror = mirror(free, up, across)
        self.kinds = [(field, unit, [(h, w) if transposed else (w, h) for w, h in sizes])
                      for field, unit, sizes in kinds.fields]
        # rows free up to the right edge: what a placement leaves right of it is known from where it lies
        suffixes = all(free >> (x * up) & ~free >> ((x + 1) * up) & ((1 << up) - 1) == 0 for x in range(across - 1))
        self.suffixes = suffixes  # then a piece fits at the first free cell when it is no higher than the run there
        self.anchors: dict[int, list[tuple[int, int, int, int, int, int]]] = {}
        for field, unit, sizes in self.kinds:
            for width, height in sizes:
                column = (1 << height) - 1
                rectangle = sum(column << (i * up) for i in range(width))
                for x in range(across - width + 1):
                    for y in range(up - height + 1):
                        cell, turned = x * up + y, x * up + up - y - height
                        after = across - x - width if suffixes else 0
                        self.anchors.setdefault(cell, []).append(
                            (field, unit, rectangle << cell, rectangle << turned, height, after))
        bottoms = sum(1 << (x * up) for x in range(across))  # the bottom cell of every column
        tall = min(h for _, _, sizes in self.kinds for _, h in sizes) >= 2
        self.above = bottoms * ((1 << up) - 2) if tall else 0  # cells with a cell below them in their column
        self.below = bottoms * ((1 << (up - 1)) - 1) if tall else 0  # cells with a cell above them
        self.wide = min(w for _, _, sizes in self.kinds for w, _ in sizes) >= 2
        self.known: dict[int, int] = {}
        self.bits = kinds.bits
        self.cleared = 0
        self.fills: dict[int, tuple[int, int]] = {}

    def fill(self, unused: int) -> tuple[int, int]:
        """The widths and the heights the pieces `unused` can add up to, as bit sets (bit n: n is a sum); kept."""
        widths = heights = 1
        for field, unit, sizes in self.kinds:
            for _ in range((unused & field) // unit):
                widths = reduce(or_, (widths << w for w, _ in sizes), widths)
                heights = reduce(or_, (heights << h for _, h in sizes), heights)
        self.fills[unused] = widths, heights
        return widths, heights

    def forget(self, budget: Budget) -> None:
        """Drop about half of the memo: the states with the fewest free cells, the cheapest to count again.

        The states with more free cells stay, those near the top of the search
        that every round of the portfolio passes through again: dropping the
        older half instead, or all of it, made 24x24/16 seed 8 take 1.6-2x the
        time. A full memo takes seconds to go through: the budget's clock is
        looked at every FORGET_RUN keys.
        """
        known, bits = self.known, self.bits
        cells: Counter[int] = Counter()
        for run in runs(known, budget):
            cells.update((key >> bits).bit_count() for key in run)
        dropped = 0
        for most in sorted(cells):  # drop the states with at most `most` free cells
            dropped += cells[most]
            if dropped >= len(known) // 2:
                break
        doomed = [key for run in runs(known, budget) for key in run if (key >> bits).bit_count() <= most]
        for run in runs(doomed, budget):
            for key in run:
                del known[key]
        self.cleared += 1

    def count(self, unused: int, limit: int, budget: Budget) -> int:
        """The tilings of this order's free cells by the pieces `unused`; RoundOver past `limit` placements."""
        anchors, known, up, cap, bits = self.anchors, self.known, self.up, self.cap, self.bits
        above, below, wide, suffixes = self.above, self.below, self.wide, self.suffixes
        fills, fill = self.fills, self.fill
        spent = 0

        def completions(free: int, mirrored: int, unused: int) -> int:
            nonlocal spent
            if not unused:
                return 1
            low = (free & -free).bit_length() - 1
            shift = low - low % up
            key, turned = free >> shift, mirrored >> shift
            key = (key if key < turned else turned) << bits | unused
            total = known.get(key)
            if total is None:
                total = 0
                run = free >> low
                run = min((~run & (run + 1)).bit_length() - 1, up - low % up)  # free cells up from `low`
                for field, unit, mask, flipped, height, after in anchors.get(low, ()):
                    if unused & field and height <= run and (suffixes or free & mask == mask):
                        spent += 1
                        if spent > limit:
                            raise RoundOver
                        if not spent & 1023:
                            budget.spend(1024)
                        rest = unused - unit
                        widths, heights = fills.get(rest) or fill(rest)
                        if not (widths >> after & 1 and heights >> (run - height) & 1):
                            continue
                        left = free ^ mask
                        if above and left & ~((left << 1) & above | (left >> 1) & below):
                            continue
                        if wide and left & ~((left << up) | (left >> up)):
                            continue
                        total += completions(left, mirrored ^ flipped, rest)
                if len(known) >= cap:
                    self.forget(budget)
                known[key] = total
            return total

        try:
            return completions(self.free, self.mirror, unused)
        finally:
            budget.spend(spent & 1023)


FORGET_RUN = 1 << 16  # memo keys gone through between looks at the clock


def runs(keys: dict[int, int] | list[int], budget: Budget) -> Iterator[Iterator[int]]:
    """`keys` in runs of FORGET_RUN, the budget's clock looked at before each.

    The runs are views, not copies: the keys must not change meanwhile."""
    every = iter(keys)
    for _ in range(0, len(keys), FORGET_RUN):
        budget.check()
        yield islice(every, FORGET_RUN)


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
    return remap(free, lambda bit: bit % height * width + bit // height)


def mirror(free: int, height: int, width: int) -> int:
    """A column-major mask upside down: cell (x, y) moves to (x, height - 1 - y)."""
    return remap(free, lambda bit: bit - bit % height + height - 1 - bit % height)


def remap(free: int, where: Callable[[int], int]) -> int:
    """The mask with every set bit moved to `where(bit)`."""
    moved = 0
    while free:
        low = free & -free
        moved |= 1 << where(low.bit_length() - 1)
        free ^= low
    return moved


FIRST_ROUND = 20_000  # placements the likelier scan order may try in the first round; doubled every round
OTHER_SHARE = 4  # the other order gets a quarter of that
MEMO_CAP = 5_000_000  # memo entries kept over both scan orders (under 1 GB on a 24x24 board)


def count_tilings(question: Question, budget: Budget) -> tuple[int, dict[str, Any]]:
    """The number of tilings by the memo counter, the scan order of `search_helpers.first_scan` first; and stats.

    The scan order decides the cost (one order can need a hundred times the
    other's states on the same board); `first_scan` picks the order whose
    sweep line can be crossed fewer ways. As a safety net against a wrong
    pick the other order runs too, with a quarter of the placements (and a
    fifth of the memo), in rounds twice as long as the last; memos are kept
    between rounds.
    """
    instance = question.instance
    kinds = Kinds(instance, question.order)
    first = first_scan(instance, question.order)
    caps = (MEMO_CAP - MEMO_CAP // (OTHER_SHARE + 1), MEMO_CAP // (OTHER_SHARE + 1))  # memo shared as the work
    scans = [Scan(kinds, question.free, instance.width, instance.height, transposed, cap)
             for transposed, cap in zip((False, True) if first == "columns" else (True, False), caps)]
    limit, rounds = FIRST_ROUND, 0
    while True:
        rounds += 1
        for scan, share in zip(scans, (limit, limit // OTHER_SHARE)):
            try:
                number = scan.count(kinds.unused, share, budget) * kinds.naming
            except RoundOver:
                continue
            return number, {"states": budget.spent, "order": scan.name, "first": scans[0].name, "rounds": rounds,
                            "memo": sum(len(s.known) for s in scans), "memo_cleared": sum(s.cleared for s in scans)}
        limit *= 2


def options(question: Question, budget: Budget) -> Found:
    """The options of `question.piece` given the placed pieces, in board order."""
    assert question.piece is not None
    question.instance.slots_within(budget)
    return found(question, model.options(question.instance, question.free, question.piece))


def validate(question: Question, budget: Budget) -> Found:
    """What keeps the placed pieces from being a tiling (none when they are one)."""
    return validation(question, model.problems(question.instance, question.placed))


def splits_pay(question: Question) -> bool:
    """False: the memo counter shares the states it meets between branches, which parts would count again."""
    return False
