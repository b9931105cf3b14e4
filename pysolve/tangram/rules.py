"""The reference rules: a piece's options on the free cells, and what keeps placements from being a tiling.

These definitions are what the three back ends implement each in their own
way; the Python ones here are the reference the others are cross-checked
against, and the checks every question and game makes of placed pieces.
"""

from __future__ import annotations

from typing import Any

from pysolve.errors import InputError
from pysolve.tangram.pieces import Instance, Placement, Slot


def fitting_slots(instance: Instance, free: int, piece: str) -> list[Slot]:
    """The slots of `piece` whose cells are all free, in board order."""
    return [slot for slot in instance.slots[instance.piece(piece).name] if free & slot.mask == slot.mask]


def options(instance: Instance, free: int, piece: str) -> list[Placement]:
    """The placements of `piece` whose cells are all free, in board order (the spec's options)."""
    return [slot.placement for slot in fitting_slots(instance, free, piece)]


def problems(instance: Instance, placements: tuple[Placement, ...] | list[Placement]) -> list[list[Any]]:
    """What keeps placements from being a tiling: [out_of_board, P], [overlap, P, Q, cells], [missing, P]."""
    ordered = instance.sort(placements)
    listed: list[list[Any]] = [["out_of_board", p.piece] for p in ordered if not inside(instance, p)]
    for index, first in enumerate(ordered):
        for second in ordered[index + 1:]:
            shared = len(set(first.cells()) & set(second.cells()))
            if shared:
                listed.append(["overlap", first.piece, second.piece, shared])
    placed = {p.piece for p in placements}
    listed += [["missing", name] for name in instance.names if name not in placed]
    return listed


def inside(instance: Instance, placement: Placement) -> bool:
    """True when every cell of the placement is on the board."""
    return (placement.x >= 0 and placement.y >= 0 and placement.x + placement.width <= instance.width
            and placement.y + placement.height <= instance.height)


def describe_problem(problem: list[Any], instance: Instance) -> str:
    """One problem of `problems` as a sentence."""
    kind = problem[0]
    if kind == "out_of_board":
        return f"{problem[1]} sticks out of the {instance.width}x{instance.height} board"
    if kind == "overlap":
        return f"{problem[1]} and {problem[2]} overlap on {problem[3]} cell(s)"
    return f"{problem[1]} is not placed"


def check_partial(instance: Instance, placed: tuple[Placement, ...]) -> None:
    """Raise InputError naming the first problem of placements meant as a start (not a tiling)."""
    for problem in problems(instance, placed):
        if problem[0] != "missing":
            raise InputError(f"placed pieces in {instance.name}: {describe_problem(problem, instance)}")
