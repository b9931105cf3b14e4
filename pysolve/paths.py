"""Where the shipped files live: inside an installed wheel, or in a checkout."""

from __future__ import annotations

from pathlib import Path

from pysolve.errors import PysolveError

_PACKAGE = Path(__file__).parent


def _shipped(folder: str, marker: str) -> Path:
    """`pysolve/<folder>` in a wheel, else `<folder>` beside the package in a checkout."""
    for candidate in (_PACKAGE / folder, _PACKAGE.parent / folder):
        if (candidate / marker).exists():
            return candidate
    raise PysolveError(f"pysolve's {folder}/ folder is missing from this installation")


def rule_base_dir() -> Path:
    """The folder of the shipped Prolog rule bases (`*.pl`)."""
    return _shipped("prolog", "pysolve_bridge.pl")


def data_dir() -> Path:
    """The folder of the shipped puzzle instances and data sets."""
    return _shipped("data", "README.md")
