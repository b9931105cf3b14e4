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
fact, Python and settings, so that runs under other settings (a test's
folder on `sys.path`, another checkout) never push out each other's facts;
a fact read back is marked used, and the least recently used beyond KEPT of
a fact are removed when one is written. Where that folder cannot be
written, the facts are found on every run.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
import zlib
from collections.abc import Callable, Iterable
from typing import Any

KEPT = 16  # files of one fact under different settings kept, the most recently used
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
    they were; otherwise `find()`'s, which returns the fact and those files, kept for the next run."""
    key = json.dumps([sys.executable, settings], sort_keys=True)
    path = os.path.join(folder(), f"{name}-{zlib.crc32(key.encode()):08x}.json")
    try:
        with open(path, encoding="utf-8") as file:
            record = json.load(file)
    except (OSError, ValueError):  # none kept yet, or unreadable: found again
        record = None
    if (isinstance(record, dict) and record.get("settings") == settings and isinstance(record.get("files"), list)
            and record["files"] == stamps(entry[0] for entry in record["files"])):
        _used(path)
        return record["value"]
    value, files = find()
    _keep(path, {"settings": settings, "files": stamps(files), "value": value})
    _used(path)
    _forget_unused(name)
    return value


def _used(path: str) -> None:
    """Mark the file `path` used now, so that it is among the last removed (`_forget_unused`).

    The clock's nanoseconds, finer than the file system's own stamps, order facts used in one tick."""
    now = time.time_ns()
    with contextlib.suppress(OSError):
        os.utime(path, ns=(now, now))


def _forget_unused(name: str) -> None:
    """Remove the files of fact `name` beyond the KEPT most recently used (or written)."""
    with contextlib.suppress(OSError):
        with os.scandir(folder()) as entries:
            found = [(entry.stat().st_mtime_ns, entry.path) for entry in entries
                     if entry.name.startswith(f"{name}-") and entry.name.endswith(".json")]
        for _, path in sorted(found, reverse=True)[KEPT:]:
            os.remove(path)


def _keep(path: str, record: dict[str, Any]) -> None:
    """Write `record` to `path` whole (see files.write_text); a folder that cannot be written keeps nothing."""
    from pysolve import files  # only when a fact is found again: reading one needs none of it
    from pysolve.errors import PysolveError

    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        files.write_text(path, json.dumps(record), "the cache")
    except (OSError, PysolveError):
        pass
