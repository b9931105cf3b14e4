"""The three back ends, their availability, and the default choice.

A back end is only a name here: each puzzle holds its own solver for each
back end (`pysolve.dispatch.Dispatch.solvers`). This module answers "can this
back end run here, which version, and if not, why".
"""

from __future__ import annotations

import importlib.metadata
import platform
from dataclasses import asdict, dataclass

from pysolve import bridge, minikanren
from pysolve.errors import BackendUnavailable, UnknownName

NAMES = ("prolog", "kanren", "python")
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
        status = bridge.status()
        return BackendInfo(name, status.available, status.version, status.reason, DESCRIPTIONS[name])
    if name == "kanren":
        version = f"miniKanren {minikanren.VERSION}" if minikanren.VERSION else ""
        if not minikanren.PROBLEM:
            version += f", logical-unification {importlib.metadata.version('logical-unification')}"
        return BackendInfo(name, not minikanren.PROBLEM, version, minikanren.PROBLEM, DESCRIPTIONS[name])
    return BackendInfo(name, True, f"Python {platform.python_version()}", "", DESCRIPTIONS[name])


def all_info() -> list[BackendInfo]:
    """Info for every back end, in the order of NAMES."""
    return [info(name) for name in NAMES]


def check_name(name: str) -> None:
    """Raise UnknownName unless `name` is a back end."""
    if name not in NAMES:
        raise UnknownName(f"unknown back end {name!r}; choose one of {', '.join(NAMES)}")


def require(name: str) -> None:
    """Raise UnknownName or BackendUnavailable unless `name` can run here."""
    about = info(name)
    if not about.available:
        raise BackendUnavailable(f"back end {name!r} is unavailable: {about.reason}", name,
                                 hidden=name == "prolog" and bridge.status().hidden)


def available(name: str) -> bool:
    """True when back end `name` can run here."""
    return info(name).available


def default() -> str:
    """`prolog` when SWI-Prolog can run, else `kanren` (else `python`)."""
    for name in ("prolog", "kanren"):
        if available(name):
            return name
    return "python"

