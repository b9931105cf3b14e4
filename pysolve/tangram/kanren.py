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

A count is `counto`, tabled: the number of covers of a state (free cells,
pieces left) is the sum of those of the states `stepo` leads to, covering
the first free cell; each state is counted once (`Cover`'s table), as by
Prolog's and Python's memo counters, whose facts it shares.

Validation asks each rule of a tiling of placed pieces on its own: `insideo`
(the placement is one of its piece's slots, so on the board), `cello` (the
cells a placement covers: two placements overlap on the cells both cover)
and `membero` (every piece of the instance is among the placed ones).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from pysolve import minikanren as mk
from pysolve.answers import Found
from pysolve.minikanren import Budget, conj, dead_ends, disj_over, entered, eq, fail, given, lazy, solved, var
from pysolve.tangram.model import Instance, Placement, Question, Slot, found, validation
from pysolve.tangram.python import MEMO_CAP, Kinds, Scan
from pysolve.tangram.search_helpers import breadth_first, describe, first_scan


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


class Cover:
    """The facts of the count relation and its table: the memo counter's placements, searched as a relation.

    The facts are those of Python's memo counter (`python.Scan`, on the scan
    order `search_helpers.first_scan` picks): each placement of a kind of
    piece (pieces of one shape are one kind) under its lowest cell, with
    its cells and the same cells upside down. A state of the count is the
    free cells, the same cells upside down, and the pieces left (a count
    per kind, `python.Kinds`). The table holds the number of covers of
    every state met, keyed on the canonical frontier (`Scan`'s key).
    """

    def __init__(self, instance: Instance, names: list[str], free: int) -> None:
        self.kinds = Kinds(instance, names)
        self.scan = Scan(self.kinds, free, instance.width, instance.height,
                         first_scan(instance, names) == "rows", 0)
        self.known: dict[int, int] = {}

    def key(self, free: int, mirrored: int, unused: int) -> int:
        """The table's key of a state: its free cells, or upside down, shifted down by whole columns; pieces left."""
        low = (free & -free).bit_length() - 1
        shift = low - low % self.scan.up
        return min(free >> shift, mirrored >> shift) << self.kinds.bits | unused

    def remember(self, key: int, total: int) -> int:
        """Keep `total` under `key` and give it back; a full table is emptied first (time, never the answer)."""
        if len(self.known) >= MEMO_CAP:
            self.known.clear()
        self.known[key] = total
        return total

    def steps(self, free: int) -> tuple[list[tuple[int, int, int, int, int, int]], int]:
        """The placements whose lowest cell is the first free cell, and the free cells up from it in its column."""
        low, up = (free & -free).bit_length() - 1, self.scan.up
        run = free >> low
        return self.scan.anchors.get(low, []), min((~run & (run + 1)).bit_length() - 1, up - low % up)

    def live(self, unused: int, height: int, after: int, run: int, left: int) -> bool:
        """True unless the free cells `left` cannot be covered by the pieces `unused`, as the memo counter tells.

        (`Scan.count`: a gap too low or too narrow for any piece, or free runs the pieces cannot add up to.)"""
        scan = self.scan
        widths, heights = scan.fills.get(unused) or scan.fill(unused)
        if not (widths >> after & 1 and heights >> (run - height) & 1):
            return False
        if scan.above and left & ~((left << 1) & scan.above | (left >> 1) & scan.below):
            return False
        return not (scan.wide and left & ~((left << scan.up) | (left >> scan.up)))


def stepo(cover: Cover, state: tuple[int, int, int], after: Any) -> mk.Goal:
    """`after` is the state (free cells, upside down, pieces left) once a piece left covers the first free cell."""
    free, mirrored, unused = state
    anchored, run = cover.steps(free)

    def step(fact: tuple[int, int, int, int, int, int]) -> mk.Goal:
        field, unit, mask, flipped, height, width_after = fact
        if not (unused & field and height <= run and free & mask == mask
                and cover.live(unused - unit, height, width_after, run, free ^ mask)):
            return fail
        return eq(after, (free ^ mask, mirrored ^ flipped, unused - unit))

    return disj_over(anchored, step)


def counto(cover: Cover, state: Any, number: Any, budget: Budget) -> mk.Goal:
    """`number` is how many ways the pieces left cover the free cells of `state` exactly (tabled in `cover`).

    The sum over the answers of `stepo` of the count of the state each leaves (Prolog's aggregate_all(sum)),
    asked once per state: `state` is ground when the goal runs."""

    def counto_goal(substitution: mk.State) -> Iterator[mk.State]:
        free, mirrored, unused = mk.walk(state, substitution if isinstance(substitution, dict) else
                                         substitution.data)
        if not free or not unused:
            yield from eq(number, int(not free and not unused))(substitution)
            return
        key = cover.key(free, mirrored, unused)
        total = cover.known.get(key)
        if total is None:
            after, each = var(), var()
            ways = conj(stepo(cover, (free, mirrored, unused), after), budget.tick(),
                        lazy(counto, cover, after, each, budget))
            total = cover.remember(key, sum(mk.walk(each, answer) for answer in ways(substitution)))
        yield from eq(number, total)(substitution)

    return counto_goal


def unpair(pairs: Any) -> list[Placement]:
    """Nested (head, tail) pairs as a list."""
    items = []
    while pairs:
        head, pairs = pairs
        items.append(head)
    return items


def _relation(question: Question, placements: Any, budget: Budget) -> mk.Goal:
    """The question's relation; recorded, a start that leaves no choice is a dead end at the root."""
    relation = covero if question.strategy == "cell" else placeo
    return dead_ends(budget.trace, relation(question.instance, tuple(question.order), question.free, placements,
                                            budget))


def solve(question: Question, budget: Budget) -> Found:
    """First or all tilings of placeo (dfs) or covero (cell), or the breadth-first one, or counto's count.

    stats: `states` (placements tried); a count adds its scan `order` and `memo` (states tabled)."""
    mk.require()
    question.instance.slots_within(budget)
    if question.mode == "count":
        cover, number = Cover(question.instance, question.order, question.free), var()
        start = (cover.scan.free, cover.scan.mirror, cover.kinds.unused)
        [total] = mk.run(counto(cover, start, number, budget), number)
        return found(question, [], {"states": budget.spent, "order": cover.scan.name, "memo": len(cover.known)},
                     total * cover.kinds.naming)
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


def splits_pay(question: Question) -> bool:
    """False: `counto` tables the states it meets between branches, which parts would count again."""
    return False
