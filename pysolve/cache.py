"""Facts that are slow to find and seldom change, kept on disk between runs.

The puzzles' entry points, what the parser and `pysolve list` show of the
puzzles, and the back ends' availability take longer to find
(importlib.metadata, loading every puzzle and reading its shipped files,
starting SWI-Prolog, importing miniKanren) than `pysolve --help`, `pysolve
list` or `pysolve backends` take to run. So each
is kept in a small JSON file with what it was found from: settings (the
environment variables, `sys.path`) and files, by size and modification time
(a folder's changes when a package is installed in it or removed from it).
It is read back only while all of them are as they were, and found again
otherwise.

The files live in $XDG_CACHE_HOME/pysolve (default ~/.cache/pysolve), one a
fact and Python environment. Where that folder cannot be written, the facts
are found on every run.
"""

from __future__ import annotations

import json
import os
import sys
import zlib
from collections.abc import Callable, Iterable
from typing import Any

RECORDS = 8  # facts of different settings a file keeps, the latest first
Found = tuple[Any, list[str]]  # a fact as JSON-able data, and the files it was read from


def folder() -> str:
    """The folder of the kept facts: $XDG_CACHE_HOME/pysolve, else ~/.cache/pysolve."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    return os.path.join(base if os.path.isabs(base) else os.path.expanduser("~/.cache"), "pysolve")


def search_path() -> list[str]:
    """The folders Python imports from and finds packages in.

    The folders Python imports from and importlib.metadata finds packages in: `sys.path`, its '' (the
    current folder) named."""
    return [entry or os.getcwd() for entry in sys.path]


def stamps(paths: Iterable[str]) -> list[list[Any]]:
    """Each path with its size and modification time in nanoseconds (None and None when it is missing)."""
    found: list[list[Any]] = []
    for path in paths:
        try:
            info = os.stat(path)
        except OSError:
            found.append([path, None, None])
        else:
            found.append([path, info.st_size, info.st_mtime_ns])
    return found


def kept(name: str, settings: dict[str, Any], find: Callable[[], Found]) -> Any:
    """A fact kept on disk while what it was read from is unchanged.

    The fact `name`: as kept on disk while `settings` (JSON-able) and the files it was read from are as
    they were; otherwise `find()`'s, which returns the fact and those files, kept for the next run. The file
    keeps the last RECORDS settings' facts, so that runs from two folders (`python -m pysolve` puts the
    current one on `sys.path`) do not find them again in turn."""
    path = os.path.join(folder(), f"{name}-{zlib.crc32(sys.executable.encode()):08x}.json")
    try:
        with open(path, encoding="utf-8") as file:
            records = [record for record in json.load(file) if isinstance(record, dict)]
    except (OSError, ValueError):  # none kept yet, or unreadable: found again
        records = []
    for record in records:
        if record.get("settings") == settings and record.get("files") == stamps(entry[0] for entry in record["files"]):
            return record["value"]
    value, files = find()
    others = [record for record in records if record.get("settings") != settings]
    _keep(path, [{"settings": settings, "files": stamps(files), "value": value}, *others][:RECORDS])
    return value


def _keep(path: str, records: list[dict[str, Any]]) -> None:
    """Write `records` to `path` whole (see files.write_text); a folder that cannot be written keeps nothing."""
    from pysolve import files  # only when a fact is found again: reading one needs none of it
    from pysolve.errors import PysolveError

    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        files.write_text(path, json.dumps(records), "the cache")
    except (OSError, PysolveError):
        pass
