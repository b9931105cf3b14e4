"""The registry of puzzles: every `pysolve.puzzles` entry point, loaded on first use.

pysolve's own puzzles are entry points of the pysolve package
(pyproject.toml); a package of your own adds a puzzle to the CLI, the API,
the demo and the pytest plugin by declaring one more:

    [project.entry-points."pysolve.puzzles"]
    nonogram = "my_package.puzzle:PUZZLE"
"""

from __future__ import annotations

import functools
from importlib.metadata import EntryPoint, entry_points

from pysolve.errors import UnknownName
from pysolve.puzzle import Puzzle

GROUP = "pysolve.puzzles"


@functools.cache
def _entry_points() -> dict[str, EntryPoint]:
    """Puzzle name -> entry point: pysolve's own by name, then the others by name (installers differ in order)."""
    found: dict[str, EntryPoint] = {}
    for point in entry_points(group=GROUP):
        found.setdefault(point.name, point)  # the first distribution on the path wins, as for imports
    own = sorted(name for name, point in found.items() if point.value.startswith("pysolve."))
    return {name: found[name] for name in own + sorted(set(found) - set(own))}


def names() -> list[str]:
    """The known puzzle names: pysolve's own by name, then those of other packages by name."""
    return list(_entry_points())


@functools.cache
def get(name: str) -> Puzzle:
    """The puzzle called `name`; UnknownName when there is none."""
    points = _entry_points()
    if name not in points:
        raise UnknownName(f"unknown puzzle {name!r}; known puzzles: {', '.join(points)}")
    puzzle = points[name].load()
    if not isinstance(puzzle, Puzzle) or puzzle.name != name:
        raise TypeError(f"entry point {name} = {points[name].value} must be a pysolve.Puzzle named {name!r}")
    return puzzle
