"""The registry of puzzles: every `pysolve.puzzles` entry point, loaded on first use.

pysolve's own puzzles are entry points of the pysolve package
(pyproject.toml); a package of your own adds a puzzle to the CLI, the API,
the demo and the pytest plugin by declaring one more:

    [project.entry-points."pysolve.puzzles"]
    nonogram = "my_package.puzzle:PUZZLE"

Reading entry points costs more than a short command takes, so the group is
kept on disk (`pysolve.cache`) while `sys.path` and its folders are as they
were: installing or removing a package changes the folder it goes to.
"""

from __future__ import annotations

import functools
import pkgutil

from pysolve import cache
from pysolve.errors import UnknownName
from pysolve.puzzle import Puzzle

GROUP = "pysolve.puzzles"


def _read_entry_points() -> cache.Found:
    """Puzzle name -> entry point value (`module:attribute`), pysolve's own by name, then the others by name
    (installers differ in order); and the folders they were read from."""
    from importlib.metadata import entry_points  # slow to import: only when the kept group is out of date

    found: dict[str, str] = {}
    for point in entry_points(group=GROUP):
        found.setdefault(point.name, point.value)  # the first distribution on the path wins, as for imports
    own = sorted(name for name, value in found.items() if value.startswith("pysolve."))
    return {name: found[name] for name in own + sorted(set(found) - set(own))}, cache.search_path()


@functools.cache
def _entry_points() -> dict[str, str]:
    """Puzzle name -> entry point value, kept on disk while the search path is unchanged."""
    points: dict[str, str] = cache.kept("puzzles", {"path": cache.search_path()}, _read_entry_points)
    return points


def names() -> list[str]:
    """The known puzzle names: pysolve's own by name, then those of other packages by name."""
    return list(_entry_points())


@functools.cache
def get(name: str) -> Puzzle:
    """The puzzle called `name`; UnknownName when there is none."""
    points = _entry_points()
    if name not in points:
        raise UnknownName(f"unknown puzzle {name!r}; known puzzles: {', '.join(points)}")
    puzzle = pkgutil.resolve_name(points[name])
    if not isinstance(puzzle, Puzzle) or puzzle.name != name:
        raise TypeError(f"entry point {name} = {points[name]} must be a pysolve.Puzzle named {name!r}")
    return puzzle
