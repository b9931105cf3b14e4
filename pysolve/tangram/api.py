"""The tangram's functions on Placements, for the game and for library users.

Load an instance, ask for a piece's options given the placed pieces,
complete a partial board, count or list tilings, validate a proposed tiling:
each is one question put to `PUZZLE.solve` on the back end you name, its
JSON answer read back as Placements. A search that runs out of time raises
SearchLimitExceeded (these functions have no "unknown" to answer).
"""

from __future__ import annotations

from typing import Any

from pysolve.answers import UNKNOWN, Answer
from pysolve.errors import SearchLimitExceeded
from pysolve.tangram.model import Instance, Placement, Question, Tiling, describe_problem, placement_of
from pysolve.tangram.puzzle import PUZZLE


def ask(instance: Instance, backend: str, **fields: Any) -> Answer:
    """The answer of `backend` to the question `fields` ask; SearchLimitExceeded when it stopped short."""
    answer = PUZZLE.solve(Question(instance, **fields), backend)
    if answer.status == UNKNOWN:
        raise SearchLimitExceeded(answer.stats["reason"])
    return answer


def tiling_of(instance: Instance, solution: list[dict[str, Any]]) -> Tiling:
    """A tiling back from its JSON shape."""
    return tuple(placement_of(data, instance) for data in solution)


def options(instance: Instance, placed: tuple[Placement, ...], piece: str, backend: str = "python") -> list[Placement]:
    """Where `piece` can go given the placed pieces: its options in board order."""
    answer = ask(instance, backend, mode="options", placed=tuple(placed), piece=piece)
    return [placement_of(data, instance) for data in answer.solutions]


def complete(instance: Instance, placed: tuple[Placement, ...] = (), backend: str = "python",
             strategy: str = "dfs", seconds: float | None = None) -> Tiling | None:
    """The first tiling extending the placed pieces, or None when the board cannot be completed."""
    limit = {} if seconds is None else {"seconds": seconds}
    found = ask(instance, backend, mode="first", placed=tuple(placed), strategy=strategy, **limit).solutions
    return tiling_of(instance, found[0]) if found else None


def tilings(instance: Instance, placed: tuple[Placement, ...] = (), backend: str = "python",
            strategy: str = "dfs") -> list[Tiling]:
    """Every tiling extending the placed pieces, in the strategy's search order."""
    answer = ask(instance, backend, mode="all", placed=tuple(placed), strategy=strategy)
    return [tiling_of(instance, solution) for solution in answer.solutions]


def count(instance: Instance, placed: tuple[Placement, ...] = (), backend: str = "python",
          strategy: str = "cell") -> int:
    """The number of tilings extending the placed pieces (fast first-empty-cell search by default)."""
    return ask(instance, backend, mode="count", placed=tuple(placed), strategy=strategy).count or 0


def validate(instance: Instance, placements: tuple[Placement, ...], backend: str = "python") -> list[str]:
    """What keeps `placements` from being a tiling of the board, as sentences ([] when it is one)."""
    problems = ask(instance, backend, mode="validate", placed=tuple(placements)).stats["problems"]
    return [describe_problem(problem, instance) for problem in problems]
