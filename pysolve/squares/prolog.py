"""The Prolog adapter: one bounded query per question against prolog/squares.pl."""

from __future__ import annotations

from pysolve import bridge
from pysolve.squares.model import Grid, Instance, Label, as_grid

RULE_BASE = "squares"
STRATEGIES = ("indexed", "original")


def term(label: Label) -> str:
    """An edge label as Prolog text: a colour as an integer, a letter as a quoted atom."""
    return str(label) if isinstance(label, int) else bridge.quote_atom(label)


def load_goal(instance: Instance) -> str:
    """The goal that makes `instance` the current puzzle (pieces and complements as facts)."""
    pieces = ",".join(f"[{p.id},[{','.join(term(label) for label in p.edges)}]]" for p in instance.pieces)
    pairs = ",".join(f"[{term(head)},{term(body)}]" for head, body in instance.pairs)
    return f"load_puzzle({instance.rule}, {instance.rows}, {instance.cols}, [{pieces}], [{pairs}])"


ROTATIONS = ("all", "up_to_rotation", "by_class")  # the Rotation argument of solve/3


def solutions(instance: Instance, strategy: str, rotation: str, max_solutions: int,
              seconds: float) -> tuple[list[Grid], str]:
    """Up to `max_solutions` grids (0: all) and the bridge status."""
    goal = f"{load_goal(instance)}, solve({strategy}, {rotation}, Grid)"
    result = bridge.solutions(RULE_BASE, goal, max_solutions=max_solutions, seconds=seconds)
    return [as_grid(row["Grid"]) for row in result.rows], result.status


def count(instance: Instance, strategy: str, rotation: str, seconds: float) -> tuple[int | None, str]:
    """The number of solutions counted inside Prolog (None when a bound stopped it) and the status."""
    goal = f"{load_goal(instance)}, aggregate_all(count, solve({strategy}, {rotation}, _), Count)"
    result = bridge.solutions(RULE_BASE, goal, seconds=seconds)
    return (result.rows[0]["Count"] if result.rows else None), result.status
