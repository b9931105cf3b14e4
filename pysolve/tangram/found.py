"""Tangram answers in their JSON shape: built by the back ends (`found`, `validation`), read back as
Placements by the faces (`placement_of`, `tiling_of`, `answered`)."""

from __future__ import annotations

from typing import Any

from pysolve.answers import NO_SOLUTION, SOLVED, UNKNOWN, Answer, Found
from pysolve.errors import SearchLimitExceeded
from pysolve.tangram.pieces import Instance, Placement, Tiling
from pysolve.tangram.question import Question


def found(question: Question, placements: list[Any], stats: dict[str, Any] | None = None,
          count: int | None = None) -> Found:
    """A back end's answer to a search or options question, placements in their JSON shape.

    `placements` are tilings (tuples of Placement) for first/all, single
    Placements for options, empty with `count` for count. The count of
    all/options is how many were found; the status is `no solution` when
    nothing (or a count of 0) was found.
    """
    rotations = question.instance.rotations
    if question.mode == "options":
        solutions: list[Any] = [p.to_json(rotations) for p in placements]
    else:
        solutions = [[p.to_json(rotations) for p in tiling] for tiling in placements]
    if question.mode in ("all", "options"):
        count = len(solutions)
    anything = count if question.mode == "count" else solutions
    return Found(solutions, stats or {}, count, SOLVED if anything else NO_SOLUTION)


def validation(question: Question, problems: list[list[Any]]) -> Found:
    """A validation answer: the placed pieces as the tiling when nothing is wrong, and the problems."""
    if problems:
        return Found([], {"problems": problems}, status=NO_SOLUTION)
    tiling = question.instance.sort(question.placed)
    return Found([[p.to_json(question.instance.rotations) for p in tiling]], {"problems": []}, status=SOLVED)


def placement_of(data: dict[str, Any], instance: Instance) -> Placement:
    """A placement back from its JSON shape (the size from the piece when rotations are off)."""
    piece = instance.piece(data["piece"])
    return Placement(piece.name, data["x"], data["y"], data.get("width", piece.width),
                     data.get("height", piece.height))


def tiling_of(instance: Instance, solution: list[dict[str, Any]]) -> Tiling:
    """A tiling back from its JSON shape."""
    return tuple(placement_of(data, instance) for data in solution)


def answered(answer: Answer) -> Answer:
    """`answer` when it is one; SearchLimitExceeded with its reason when the search stopped short (the faces
    that return Placements have no "unknown" to give)."""
    if answer.status == UNKNOWN:
        raise SearchLimitExceeded(answer.reason)
    return answer
