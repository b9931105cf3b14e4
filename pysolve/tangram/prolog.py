"""The Prolog back end: builds goals for prolog/tangram.pl, runs them through the bridge, converts back.

Every goal first makes the question's instance current (`use_instance/5`,
a no-op when it already is), then asks one predicate; loops and counting
stay inside Prolog. Placements cross the bridge as `[Piece, X, Y, W, H]`.
"""

from __future__ import annotations

import hashlib
from typing import Any

from pysolve import bridge
from pysolve.errors import SearchLimitExceeded
from pysolve.tangram.model import Instance, Placement, Question

RULE_BASE = "tangram"
Tiling = tuple[Placement, ...]


def atom(text: str) -> str:
    """A name as a quoted Prolog atom."""
    return bridge.quote_atom(text)


def atoms(names: list[str]) -> str:
    """A list of names as a Prolog list of atoms."""
    return "[" + ", ".join(atom(name) for name in names) + "]"


def placements_term(placements: tuple[Placement, ...] | list[Placement]) -> str:
    """Placements as a Prolog list of `[Piece, X, Y, W, H]`."""
    return "[" + ", ".join(f"[{atom(p.piece)}, {p.x}, {p.y}, {p.width}, {p.height}]" for p in placements) + "]"


def instance_goal(instance: Instance) -> str:
    """The `use_instance/5` goal that makes `instance` current in the rule base."""
    pieces = ", ".join(f"piece({atom(p.name)}, {atom(p.key)}, {atom(p.colour)}, {p.width}, {p.height})"
                       for p in instance.pieces)
    rotations = "true" if instance.rotations else "false"
    key = "k" + hashlib.sha1(f"{instance.width} {instance.height} {pieces} {rotations}".encode()).hexdigest()[:16]
    return f"use_instance({key}, {instance.width}, {instance.height}, [{pieces}], {rotations})"


def ask(question: Question, goal: str, max_solutions: int = 0) -> list[dict[str, Any]]:
    """Rows of `goal` on the question's instance; SearchLimitExceeded when a bound stopped it."""
    result = bridge.solutions(RULE_BASE, f"{instance_goal(question.instance)}, {goal}",
                              max_solutions=max_solutions, seconds=question.seconds)
    if result.status in ("time_limit", "inference_limit"):
        raise SearchLimitExceeded(f"prolog search stopped: {result.status.replace('_', ' ')} "
                                  f"({question.seconds:g} s)")
    return result.rows


def to_placement(row: list[Any]) -> Placement:
    """A `[Piece, X, Y, W, H]` list from Prolog as a Placement."""
    name, x, y, width, height = row
    return Placement(str(name), x, y, width, height)


def to_tiling(rows: list[list[Any]]) -> Tiling:
    """A Prolog tiling (placements in piece order) as a tuple of Placements."""
    return tuple(to_placement(row) for row in rows)


def _call(question: Question, predicate: str) -> str:
    """`predicate(Order, Placed, ` with the question's pieces to place and placed pieces."""
    return f"{predicate}({atoms(question.order)}, {placements_term(question.placed)}, "


def _strategy_call(question: Question, predicate: str) -> str:
    """`predicate(Strategy, Order, Placed, ` for the dfs or cell search."""
    return f"{predicate}({question.strategy}, {atoms(question.order)}, {placements_term(question.placed)}, "


def search(question: Question) -> tuple[list[Tiling], None]:
    """The first `question.limit` tilings (0: all) of tiling/4, dfs or cell strategy, in search order."""
    if question.limit:
        rows = ask(question, _strategy_call(question, "tiling") + "T)", max_solutions=question.limit)
        return [to_tiling(row["T"]) for row in rows], None
    (row,) = ask(question, _strategy_call(question, "all_tilings") + "Ts)")
    return [to_tiling(tiling) for tiling in row["Ts"]], None


def count(question: Question) -> tuple[int, None]:
    """The number of tilings, counted inside Prolog (count_tilings/4)."""
    (row,) = ask(question, _strategy_call(question, "count_tilings") + "N)")
    return row["N"], None


def breadth_first(question: Question) -> tuple[Tiling | None, None]:
    """The first tiling of the breadth-first search (bfs_tiling/3), or None."""
    rows = ask(question, _call(question, "bfs_tiling") + "T)", max_solutions=1)
    return (to_tiling(rows[0]["T"]) if rows else None), None


def options_of(question: Question) -> list[Placement]:
    """The options of `question.piece` given the placed pieces, from piece_options/3."""
    assert question.piece is not None
    (row,) = ask(question, f"piece_options({atom(question.piece)}, {placements_term(question.placed)}, Os)")
    return [Placement(question.piece, *option) for option in row["Os"]]


def problems_of(question: Question) -> list[list[Any]]:
    """What keeps the placed pieces from being a tiling, from tiling_problems/2."""
    (row,) = ask(question, f"tiling_problems({placements_term(question.placed)}, Ps)")
    return row["Ps"]
