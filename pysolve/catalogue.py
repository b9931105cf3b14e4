"""The instances a puzzle ships, by name: one catalogue per puzzle, read from its folder of data files.

A puzzle's shipped instances are the files under its folder (`data/hidato/`
in a checkout, `pysolve/data/hidato/` in a wheel), the READMEs aside. Each
goes by its path there without the extension (`sample`, `public/csp_a1_6x6`,
`top95`); its path with the extension (`sample.txt`) names it too, and a
file whose name without extension another file took first (`sample.json`
beside `sample.txt`: `.txt` first, then by name) goes by its path with the
extension. A puzzle may add aliases (squares' `eternity-3x3`) and notes:
what is known of an instance (its number of solutions) and where it came
from, when its first comment line does not say.

Wherever a file is read (the CLI, the API, the web), a path that exists is
read as a path; otherwise a shipped name is read as its file; anything else
is one UnknownName listing the close names.
"""

from __future__ import annotations

import difflib
import fnmatch
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from pysolve import files
from pysolve.errors import UnknownName

CLOSE_NAMES = 5  # names an error about an unknown name suggests
HEADER_LINES = 5  # lines of a file searched for its first comment (its source)
FIRST_SUFFIX = ".txt"  # of two files with one name without extension, this one takes that name


@dataclass(frozen=True)
class Note:
    """What is known of some shipped instances: their answer and source.

    What is known of the shipped instances whose names match `pattern` (fnmatch, `public/csp_*`): their
    answer (`unique`, `36 tilings`) and their source, when their first comment line does not say it."""

    pattern: str
    known: str = ""
    source: str = ""


@dataclass(frozen=True)
class Shipped:
    """One shipped instance: its name, the file it is, the aliases the puzzle gives it, and its notes."""

    name: str
    path: Path
    file: str  # its path under the puzzle's folder, with the extension (`public/csp_a1_6x6.txt`)
    aliases: tuple[str, ...] = ()
    known: str = ""
    noted_source: str = ""  # where it came from, when its notes say; else its first comment line says

    @property
    def source(self) -> str:
        """Where the instance came from.

        Where the instance came from: its notes' source, else its file's first comment line (read now,
        so that building a catalogue opens no file)."""
        return self.noted_source or header(self.path)

    @property
    def names(self) -> tuple[str, ...]:
        """Every name this instance answers to: its name, its file, its aliases."""
        return (self.name, self.file, *self.aliases)


@dataclass(frozen=True)
class Catalogue:
    """A puzzle's shipped instances by name, from the files under `folder` (None: it ships none)."""

    puzzle: str
    folder: Path | None = None
    entries: tuple[Shipped, ...] = ()

    def find(self, name: str, aliases: bool = True) -> Shipped | None:
        """The instance `name` names (its name or its file; or an alias, unless `aliases` is False)."""
        for entry in self.entries:
            if name in (entry.names if aliases else (entry.name, entry.file)):
                return entry
        return None

    def names(self) -> list[str]:
        """The names of the instances, in order."""
        return [entry.name for entry in self.entries]

    def close(self, given: str, aliases: bool = True) -> list[str]:
        """The names nearest to a name given, best first.

        The names nearest `given` (its `data/PUZZLE/` prefix and its extension aside), best first; aliases
        among them unless `aliases` is False."""
        key = PurePosixPath(given.replace(os.sep, "/").removeprefix(f"data/{self.puzzle}/"))
        key = key.with_suffix("") if key.suffix else key
        known = [name for entry in self.entries for name in (entry.name, *(entry.aliases if aliases else ()))]
        return difflib.get_close_matches(str(key), known, n=CLOSE_NAMES, cutoff=0.5)

    def locate(self, given: str) -> str:
        """The file to read for a name given.

        The file to read for `given`: the path itself when it exists, else the shipped instance of that
        name; UnknownName (naming the close names) when it is neither."""
        if os.path.exists(given):  # False, not OSError, for a name too long to look up
            return given
        entry = self.find(given)
        if entry is None:
            raise UnknownName(self.unknown(given))
        return str(entry.path)

    def unknown(self, given: str) -> str:
        """The one line about `given`, neither a file nor a shipped name: where to look."""
        close = self.close(given)
        hint = (f"close names: {', '.join(close)}" if close
                else f"`pysolve list {self.puzzle}` lists them" if self.entries else "it ships none")
        return (f"{self.puzzle} file {files.excerpt(given, files.PATH_CHARACTERS)}: no such file, and no shipped "
                f"{self.puzzle} instance of that name ({hint})")


def build_catalogue(puzzle: str, folder: Path | None, notes: Iterable[Note] = (),
                    aliases: Mapping[str, str] | None = None) -> Catalogue:
    """The catalogue of the data files under a folder.

    The catalogue of the files under `folder` (none when it is None or missing): names, aliases (alias ->
    name) and notes (the first that matches a name) attached."""
    if folder is None or not folder.is_dir():
        return Catalogue(puzzle)
    notes = tuple(notes)
    also: dict[str, list[str]] = {}
    for alias, name in (aliases or {}).items():
        also.setdefault(name, []).append(alias)
    entries = []
    for name, path in _named(folder):
        note = next((note for note in notes if fnmatch.fnmatchcase(name, note.pattern)), Note("*"))
        entries.append(Shipped(name, path, path.relative_to(folder).as_posix(), tuple(also.get(name, ())),
                               note.known, note.source))
    return Catalogue(puzzle, folder, tuple(entries))


def _named(folder: Path) -> list[tuple[str, Path]]:
    """(name, path) of every file under `folder` but the READMEs and hidden files, by name: each by its path
    without the extension, unless another file took that name first (FIRST_SUFFIX first, then by name)."""
    found = [path for path in folder.rglob("*") if path.is_file() and not path.name.startswith(("README", "."))]
    found.sort(key=lambda path: (path.relative_to(folder).with_suffix("").as_posix(), path.suffix != FIRST_SUFFIX,
                                 path.suffix))
    named, taken = [], set()
    for path in found:
        plain = path.relative_to(folder).with_suffix("").as_posix()
        name = plain if plain not in taken else path.relative_to(folder).as_posix()
        taken.add(plain)
        named.append((name, path))
    return sorted(named)


def header(path: Path) -> str:
    """The first comment line of a data file.

    The first comment line of a data file (`# The classic rectangle tangram ...`), without its `#`:
    where most shipped files say what they are and where they came from; "" when there is none."""
    with open(path, encoding="utf-8", errors="replace") as handle:
        for _, line in zip(range(HEADER_LINES), handle):
            if line.startswith("#"):
                return line.lstrip("#").strip()
    return ""
