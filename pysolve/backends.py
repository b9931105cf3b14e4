"""The three back ends, their availability, and the default choice.

A back end is only a name here: each puzzle holds its own solver for each
back end (`pysolve.puzzle.Puzzle.solvers`). This module answers "can this
back end run here, which version, and if not, why". Finding out starts
SWI-Prolog and imports miniKanren, so both load only when asked, and
`pysolve backends` reads the answers kept on disk (`kept_info`).
"""

from __future__ import annotations

import platform
import sys
from collections.abc import Iterable
from dataclasses import asdict, dataclass

from pysolve import cache
from pysolve.errors import BackendUnavailable, InputError, UnknownName

NAMES = ("prolog", "kanren", "python")
PREFERRED = ("prolog", "kanren")  # the default back end is the first of these that can run, else python
DESCRIPTIONS = {
    "prolog": "rules as SWI-Prolog programs (prolog/*.pl), queried through pyswip",
    "kanren": "the same rules as miniKanren relations, pure Python",
    "python": "imperative reference solvers in plain Python",
}


@dataclass(frozen=True)
class BackendInfo:
    """What `pysolve backends` shows for one back end."""

    name: str
    available: bool
    version: str
    reason: str
    description: str

    def to_json(self) -> dict[str, object]:
        """The info as a JSON-able dict."""
        return asdict(self)


def info(name: str) -> BackendInfo:
    """Availability, version and description of one back end."""
    check_name(name)
    if name == "prolog":
        from pysolve import bridge  # loads no Prolog until asked (status starts it)

        status = bridge.status()
        return BackendInfo(name, status.available, status.version, status.reason, DESCRIPTIONS[name])
    if name == "kanren":
        from importlib.metadata import version as installed

        from pysolve import minikanren  # imports miniKanren

        version = f"miniKanren {minikanren.VERSION}" if minikanren.VERSION else ""
        if not minikanren.PROBLEM:
            version += f", logical-unification {installed('logical-unification')}"
        return BackendInfo(name, not minikanren.PROBLEM, version, minikanren.PROBLEM, DESCRIPTIONS[name])
    return BackendInfo(name, True, f"Python {platform.python_version()}", "", DESCRIPTIONS[name])


def all_info() -> list[BackendInfo]:
    """Info for every back end, in the order of NAMES."""
    return [info(name) for name in NAMES]


def kept_info() -> list[BackendInfo]:
    """`all_info()` as the last run that found it kept it on disk (pysolve.cache).

    Found again when anything it depends on changed: the Python running, the packages installed (the folders of
    sys.path), and what SWI-Prolog's status is found from (`bridge.status_found_from`). For `pysolve backends`,
    which would otherwise spend most of its time starting SWI-Prolog and importing miniKanren to say so."""
    from pysolve import bridge  # its module only: the status is found (and Prolog started) only when out of date

    settings, files = bridge.status_found_from()
    search_path = cache.search_path()

    def find() -> cache.Found:
        return [about.to_json() for about in all_info()], [*search_path, *files]

    kept = cache.kept("backends", {"python": sys.version, "path": search_path, "environment": settings}, find)
    return [BackendInfo(**about) for about in kept]


def check_name(name: str) -> None:
    """Raise UnknownName unless `name` is a back end."""
    if name not in NAMES:
        from pysolve.files import excerpt  # only for the message: files costs every start

        raise UnknownName(f"unknown back end {excerpt(name)}; choose one of {', '.join(NAMES)}")


def listed(text: str, option: str = "--backends") -> list[str]:
    """The back ends a comma-separated list names, in its order (`--backends prolog,python`).

    InputError for an empty name (`,,`) or a name given twice, UnknownName for one that is no back end: one line
    that names `option` and quotes the list cut short.
    """
    from pysolve.files import excerpt  # only when a list is read: files costs every start

    names = [name.strip() for name in text.split(",")]
    where = f"{option} {excerpt(text)}"
    if "" in names:
        raise InputError(f"{where}: an empty name; give back ends separated by commas, such as prolog,python")
    unknown = next((name for name in names if name not in NAMES), None)
    if unknown is not None:
        raise UnknownName(f"{where}: unknown back end {excerpt(unknown)}; choose one of {', '.join(NAMES)}")
    twice = next((name for name in names if names.count(name) > 1), None)
    if twice is not None:
        raise InputError(f"{where}: {twice} is named twice")
    return names


def require(name: str) -> None:
    """Raise UnknownName or BackendUnavailable unless `name` can run here."""
    about = info(name)
    if not about.available:
        from pysolve import bridge

        raise BackendUnavailable(f"back end {name!r} is unavailable: {about.reason}", name,
                                 hidden=name == "prolog" and bridge.status().hidden)


def available(name: str) -> bool:
    """True when back end `name` can run here."""
    return info(name).available


def started(name: str) -> bool:
    """True when back end `name` runs in this process already, or needs no start (python).

    SWI-Prolog once it has started here, miniKanren once imported. Asking starts nothing."""
    check_name(name)
    if name == "prolog":
        bridge = sys.modules.get("pysolve.bridge")
        return bridge is not None and bridge.started()
    if name == "kanren":
        return "pysolve.minikanren" in sys.modules
    return True


def default() -> str:
    """`prolog` when SWI-Prolog can run, else `kanren` (else `python`)."""
    return preferred(info(name) for name in PREFERRED)


def preferred(infos: Iterable[BackendInfo]) -> str:
    """The default back end among `infos`: the first of PREFERRED available (else `python`)."""
    return next((about.name for about in infos if about.name in PREFERRED and about.available), "python")

