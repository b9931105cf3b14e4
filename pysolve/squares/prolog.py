"""The Prolog back end: one bounded query of prolog/squares.pl per question, the puzzle passed in."""

from __future__ import annotations

from typing import Any

from pysolve import bridge
from pysolve.answers import Found
from pysolve.bridge import Goal, Var
from pysolve.budget import Budget
from pysolve.squares.model import (
    COUNT,
    FIRST,
    Grid,
    Instance,
    Question,
    as_grid,
    class_size,
    found,
    search,
)

RULE_BASE = "squares"


def with_puzzle(instance: Instance, inner: Goal, every_turn: bool = False) -> Goal:
    """The goal `with_puzzle(Rule, Rows, Cols, Pieces, Pairs, Options, Inner)`: `inner` run on `instance`.

    `every_turn` counts a symmetric piece once per turn (option turns(every)) instead of once per board.
    """
    options = [bridge.goal("turns", "every" if every_turn else "distinct")]
    rule, rows, cols, pieces, pairs = puzzle_terms(instance)
    return bridge.goal("with_puzzle", rule, rows, cols, pieces, pairs, options, inner)


def puzzle_terms(instance: Instance) -> list[Any]:
    """An instance as with_puzzle's first arguments.

    `instance` as with_puzzle's first arguments: Rule, Rows, Cols, Pieces (`[Id, [N, E, S, W]]` each) and
    Pairs (`[Head, Body]` each); the rules interface's inputs too."""
    pieces = [[piece.id, list(piece.edges)] for piece in instance.pieces]
    return [instance.rule, instance.rows, instance.cols, pieces, [list(pair) for pair in instance.pairs]]


def rotation(question: Question) -> str:
    """solve/3's Rotation: the original's order for a first solution or the original strategy, else by class."""
    if question.up_to_rotation:
        return "up_to_rotation"
    return "all" if question.mode == FIRST or question.strategy == "original" else "by_class"


def can_trace(question: Question) -> bool:
    """Whether Prolog records the question's search as it runs.

    A question solve/3 answers records its search from Prolog as it runs (`traced(Strategy)`); the halves'
    count and the parts of a split count record nothing."""
    return search(question) != "halves" and not question.prefix


def solve(question: Question, budget: Budget) -> Found:
    """The solutions of solve/3 within the budget.

    The solutions of solve/3 (a count made inside Prolog with aggregate_all), within the budget; recorded
    when the budget carries a trace."""
    chosen = search(question)  # solve/3's Strategy, or `halves` for halves_count/1
    stats = {"strategy": question.strategy}
    asked = bridge.goal("traced", chosen) if budget.trace is not None else chosen
    if question.prefix:  # a part of a split count: the canonical grids that begin with the prefix, each a class
        prefix = [Var("_") if cell is None else list(cell) for cell in question.prefix]
        inner = bridge.goal("aggregate_all", "count", bridge.goal("prefix_solution", chosen, prefix, Var("_")),
                            Var("Count"))
    elif chosen == "halves":  # the canonical grids, each a class
        inner = bridge.goal("halves_count", Var("Count"))
    elif question.mode == COUNT:
        inner = bridge.goal("aggregate_all", "count", bridge.goal("solve", asked, rotation(question), Var("_")),
                            Var("Count"))
    else:
        inner = bridge.goal("solve", asked, rotation(question), Var("Grid"))
    result = bridge.solutions(RULE_BASE, with_puzzle(question.instance, inner, question.count_orientations),
                              max_solutions=question.limit, budget=budget)
    if result.stopped:
        return bridge.unknown(result, budget.label, stats)
    if question.mode == COUNT:
        classes = question.prefix or chosen == "halves"
        return found(question, [], result.rows[0]["Count"] * (class_size(question) if classes else 1), stats)
    grids: list[Grid] = [as_grid(row["Grid"]) for row in result.rows]
    return found(question, grids, len(grids), stats)
