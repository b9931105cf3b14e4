"""The tangram's functions on Placements, for library users: `from pysolve.tangram.api import ...`.

Load an instance, ask for a piece's options given the placed pieces,
complete a partial board, count or list tilings, validate a proposed tiling:
each is one question put to `PUZZLE.solve` on the back end you name, its
JSON answer read back as Placements. A search that runs out of time raises
SearchLimitExceeded (these functions have no "unknown" to answer). The data
types and readers they take are exported here too, so one import serves.
"""

from __future__ import annotations

from typing import Any

from pysolve.answers import Answer
from pysolve.tangram.model import (
    DEFAULT_STRATEGY,
    Instance,
    Piece,
    Placement,
    Question,
    Tiling,
    answered,
    describe_problem,
    make_placement,
    placement_of,
    tiling_of,
)
from pysolve.tangram.puzzle import PUZZLE
from pysolve.tangram.reader import load_instance, parse_instance

__all__ = ["Instance", "Piece", "Placement", "complete", "count", "load_instance", "make_placement", "options",
           "parse_instance", "tilings", "validate"]


def ask(instance: Instance, backend: str, **fields: Any) -> Answer:
    """The answer of `backend` to the question `fields` ask; SearchLimitExceeded when it stopped short."""
    return answered(PUZZLE.solve(Question(instance, **fields), backend))


def options(instance: Instance, placed: tuple[Placement, ...], piece: str, backend: str = "python") -> list[Placement]:
    """Where `piece` can go given the placed pieces: its options in board order."""
    answer = ask(instance, backend, mode="options", placed=tuple(placed), piece=piece)
    return [placement_of(data, instance) for data in answer.solutions]


def complete(instance: Instance, placed: tuple[Placement, ...] = (), backend: str = "python",
             strategy: str = DEFAULT_STRATEGY, seconds: float | None = None) -> Tiling | None:
    """The first tiling extending the placed pieces, or None when the board cannot be completed.

    The search fills the first free cell first; `strategy="dfs"` is the course's fixed-order search."""
    limit = {} if seconds is None else {"seconds": seconds}
    found = ask(instance, backend, mode="first", placed=tuple(placed), strategy=strategy, **limit).solutions
    return tiling_of(instance, found[0]) if found else None


def tilings(instance: Instance, placed: tuple[Placement, ...] = (), backend: str = "python",
            strategy: str = DEFAULT_STRATEGY) -> list[Tiling]:
    """Every tiling extending the placed pieces, in the strategy's search order."""
    answer = ask(instance, backend, mode="all", placed=tuple(placed), strategy=strategy)
    return [tiling_of(instance, solution) for solution in answer.solutions]


def count(instance: Instance, placed: tuple[Placement, ...] = (), backend: str = "python",
          strategy: str = DEFAULT_STRATEGY) -> int:
    """The number of tilings extending the placed pieces (fast first-empty-cell search by default)."""
    return ask(instance, backend, mode="count", placed=tuple(placed), strategy=strategy).count or 0


def validate(instance: Instance, placements: tuple[Placement, ...], backend: str = "python") -> list[str]:
    """What keeps `placements` from being a tiling of the board, as sentences ([] when it is one)."""
    problems = ask(instance, backend, mode="validate", placed=tuple(placements)).stats["problems"]
    return [describe_problem(problem, instance) for problem in problems]
