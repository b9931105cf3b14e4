"""The registry of puzzles: every `pysolve.puzzles` entry point, loaded on first use.

pysolve's own puzzles are entry points of the pysolve package
(pyproject.toml); a package of your own adds a puzzle to the CLI, the API,
the demo and the pytest plugin by declaring one more:

    [project.entry-points."pysolve.puzzles"]
    nonogram = "my_package.puzzle:PUZZLE"

Reading entry points costs more than a short command takes, so the group is
kept on disk (`pysolve.cache`) while `sys.path` and its folders are as they
were: installing or removing a package changes the folder it goes to. So is
what `pysolve --help` and `pysolve list` show of the puzzles (`commands`,
`kept_shipped`), while the code they were read from, and the shipped files,
are as they were: those commands then load no puzzle.
"""

from __future__ import annotations

import functools
import os
import pkgutil
import sys
from typing import TYPE_CHECKING, Any

from pysolve import cache
from pysolve.errors import UnknownName

if TYPE_CHECKING:
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
    from pysolve.puzzle import Puzzle  # the contract loads with the first puzzle

    points = _entry_points()
    if name not in points:
        from pysolve.files import excerpt  # only for the message: files costs every start

        raise UnknownName(f"unknown puzzle {excerpt(name)}; known puzzles: {', '.join(points)}")
    puzzle = pkgutil.resolve_name(points[name])
    if not isinstance(puzzle, Puzzle) or puzzle.name != name:
        raise TypeError(f"entry point {name} = {points[name]} must be a pysolve.Puzzle named {name!r}")
    return puzzle


def _settings() -> dict[str, Any]:
    """What the puzzles' kept facts were read under: the search path and the entry points."""
    return {"path": cache.search_path(), "points": _entry_points()}


def code_files() -> list[str]:
    """The source files of pysolve's modules and the puzzles' packages imported so far.

    The source files of the modules of pysolve and of the puzzles' packages imported so far: what the
    puzzles loaded so far were read from, so that a fact read from them is found again when one changes."""
    packages = {"pysolve", *(value.partition(".")[0].partition(":")[0] for value in _entry_points().values())}
    return sorted({file for name, module in list(sys.modules.items())
                   if name.partition(".")[0] in packages and (file := getattr(module, "__file__", None))})


@functools.cache
def commands() -> dict[str, dict[str, Any]]:
    """The commands each puzzle adds to the parser, known before loading it.

    Puzzle name -> the commands the `pysolve` parser offers for it before loading it: `play` (whether it has
    a game, `pysolve play NAME`) and `command_groups` (its own: name -> help); kept on disk."""
    offered: dict[str, dict[str, Any]] = cache.kept("commands", _settings(), _read_commands)
    return offered


def _read_commands() -> cache.Found:
    found = {name: {"play": get(name).can_play, "command_groups": dict(get(name).command_groups)}
             for name in names()}
    return found, declaring_files()


def declaring_files() -> list[str]:
    """The source files that declare the puzzles: their entry points' modules and their classes' modules.

    What a puzzle's `faces` and `command_groups` are read from, and no more: an edit to a puzzle's search
    or model code leaves the commands kept for `pysolve --help`."""
    modules = {value.partition(":")[0] for value in _entry_points().values()}
    modules |= {cls.__module__ for name in names() for cls in type(get(name)).__mro__}
    return sorted({file for module in modules if (file := getattr(sys.modules.get(module), "__file__", None))})


def shipped(puzzle: Puzzle) -> list[dict[str, Any]]:
    """The puzzle's shipped instances as `pysolve list --json` shows them (see `pysolve.api.shipped`)."""
    return [{"name": entry.name, "file": entry.file, "aliases": list(entry.aliases),
             "size": puzzle.instance_size(entry.path), "known": entry.known, "source": entry.source}
            for entry in puzzle.catalogue().entries]


@functools.cache
def kept_shipped() -> dict[str, list[dict[str, Any]]]:
    """Every puzzle's shipped instances, kept on disk.

    Puzzle name -> `shipped(puzzle)`, every puzzle's, kept on disk: each file is read for its size, which
    costs more than `pysolve list` may."""
    listed: dict[str, list[dict[str, Any]]] = cache.kept("shipped", _settings(), _read_shipped)
    return listed


def _read_shipped() -> cache.Found:
    listed = {name: shipped(get(name)) for name in names()}
    folders = [folder for folder in (get(name).shipped_folder() for name in names()) if folder is not None]
    data = [os.path.join(top, entry) for folder in folders for top, inside, found in os.walk(folder)
            for entry in inside + found]  # a file changed changes its stamp; one added or removed, its folder's
    return listed, [*code_files(), *map(str, folders), *data]
