"""The Python back end: `solve(question, budget)` runs the search that suits the question.

One module per search, beside this one:

- `reference`: the original program's search, literally (strategy
  `original`, and the trace of the replays);
- `rows`: the same row order over an index, as compiled loops: the
  first solution, and every question under the eternity rule but a count;
- `halves`: counts under the eternity rule, top halves joined to bottom
  halves;
- `mrv`: most constrained cell first, for every solution and counts under
  the insect rule;

and `indexes` (the tables they read) and `visitors` (what they do with each
grid). A `Collector` keeps, or only counts, the solutions a search visits.
"""

from __future__ import annotations

from pysolve.answers import Found
from pysolve.budget import Budget
from pysolve.squares.halves import halves
from pysolve.squares.model import COUNT, FIRST, Grid, Question, class_size, found, search
from pysolve.squares.mrv import mrv
from pysolve.squares.reference import reference
from pysolve.squares.rows import row_order
from pysolve.squares.visitors import only_canonical, with_turns


class Collector:
    """The visitor of a question: keeps (or, for a count, only counts) solutions; stops after the first."""

    def __init__(self, question: Question) -> None:
        self.question, self.count = question, 0
        self.grids: list[Grid] = []

    def __call__(self, grid: Grid) -> bool:
        self.count += 1
        if self.question.mode != COUNT:
            self.grids.append(grid)
        return self.question.mode == FIRST


def can_trace(question: Question) -> bool:
    """Whether the question's search records itself: all but the halves' count.

    Every search but the halves' count records itself (pysolve.trace): the halves' count joins two lists of
    half grids, no tree of placements."""
    return search(question) != "halves"


def solve(question: Question, budget: Budget) -> Found:
    """Run the search `model.search` names for the question.

    The search `model.search` names for `question` (`fast`: indexed, symmetry-pruned; `original`: the
    reference search), spending the budget."""
    instance, collector, periods, chosen = question.instance, Collector(question), question.periods, search(question)
    if chosen == "original":
        visit = only_canonical(collector, periods) if question.up_to_rotation else collector
        reference(instance, visit, budget, periods=periods)
    elif chosen == "halves":
        collector.count = halves(question, budget) * class_size(question)
    elif chosen == "rows" and question.mode == FIRST and not question.up_to_rotation:
        row_order(instance, collector, budget, periods=periods)
    elif chosen == "rows":
        row_order(instance, collector if question.up_to_rotation else with_turns(collector, periods), budget,
                  classes=True, periods=periods, prefix=question.row_prefix)
    elif question.mode == COUNT:
        collector.count = mrv(question, None, budget)
    else:
        mrv(question, collector, budget)
    return found(question, collector.grids, collector.count, {"states": budget.spent})


def splits_pay(question: Question) -> bool:
    """Whether a count in parts pays: not for the halves' count.

    False for the halves' count: it shares its table of top halves between all the grids it joins, which
    parts (row by row from their fixed cells) cannot (Owen's 6x6: 2.2 s alone, 4.1 s of CPU in 24 parts)."""
    return search(question) != "halves"
