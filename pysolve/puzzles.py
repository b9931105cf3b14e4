"""The registry of puzzles pysolve knows, imported on first use."""

from __future__ import annotations

import importlib

from pysolve.errors import UnknownName
from pysolve.puzzle import Puzzle

# name -> module defining PUZZLE, an instance of a Puzzle subclass
REGISTRY = {
    "fichas": "pysolve.fichas.puzzle",
    "tangram": "pysolve.tangram.puzzle",
    "hidato": "pysolve.hidato.puzzle",
    "azul": "pysolve.azul.puzzle",
    "squares": "pysolve.squares.puzzle",
}


def names() -> list[str]:
    """The known puzzle names, in registry order."""
    return list(REGISTRY)


def get(name: str) -> Puzzle:
    """The puzzle called `name`; UnknownName when there is none."""
    if name not in REGISTRY:
        raise UnknownName(f"unknown puzzle {name!r}; known puzzles: {', '.join(REGISTRY)}")
    return importlib.import_module(REGISTRY[name]).PUZZLE
