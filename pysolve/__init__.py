"""pysolve: puzzles and games written three ways (SWI-Prolog, miniKanren, Python), cross-checked.

The public API is what this module exports (`__all__`); the user guide
(docs/guide.md) walks through it. Everything else is private and may change.

>>> import pysolve
>>> pysolve.count("tangram", strategy="cell", backend="python")
36

The names load on first use, so that importing one module of pysolve (a
puzzle's model, say) does not start the API, the cross-check and the Prolog
bridge behind it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pysolve.agreement import CrossCheck, CrossChecks
    from pysolve.api import (
        RuleBase,
        available_backends,
        count,
        crosscheck,
        crosscheck_many,
        generate,
        get_puzzle,
        puzzle_names,
        question,
        shipped,
        solve,
    )
    from pysolve.backends import NAMES as BACKENDS
    from pysolve.bridge import QueryResult
    from pysolve.errors import (
        BackendUnavailable,
        InputError,
        PrologError,
        PysolveError,
        SearchLimitExceeded,
        UnknownName,
    )
    from pysolve.options import Option
    from pysolve.puzzle import Answer, Backend, Found, Puzzle
    from pysolve.sandbox import solutions as query

__version__ = "0.1.0"

_HOMES = {  # public name -> (module, name there)
    **{name: ("pysolve.api", name) for name in (
        "RuleBase", "available_backends", "count", "crosscheck", "crosscheck_many", "generate", "get_puzzle",
        "puzzle_names", "question", "shipped", "solve")},
    "BACKENDS": ("pysolve.backends", "NAMES"),
    "QueryResult": ("pysolve.bridge", "QueryResult"),
    "query": ("pysolve.sandbox", "solutions"),  # the goal is the user's: it runs in the child process
    **{name: ("pysolve.agreement", name) for name in ("CrossCheck", "CrossChecks")},
    **{name: ("pysolve.errors", name) for name in (
        "BackendUnavailable", "InputError", "PrologError", "PysolveError", "SearchLimitExceeded", "UnknownName")},
    "Option": ("pysolve.options", "Option"),
    **{name: ("pysolve.puzzle", name) for name in ("Answer", "Backend", "Found", "Puzzle")},
}

__all__ = [
    "BACKENDS", "Answer", "Backend", "BackendUnavailable", "CrossCheck", "CrossChecks", "Found", "InputError", "Option",
    "PrologError", "Puzzle", "PysolveError", "QueryResult", "RuleBase", "SearchLimitExceeded", "UnknownName",
    "__version__", "available_backends", "count", "crosscheck", "crosscheck_many", "generate", "get_puzzle",
    "puzzle_names", "query", "question", "shipped", "solve",
]


def __getattr__(name: str) -> Any:
    """A public name, imported from its module the first time it is asked for."""
    if name not in _HOMES:
        raise AttributeError(f"module 'pysolve' has no attribute {name!r}")
    module, attribute = _HOMES[name]
    value = getattr(importlib.import_module(module), attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_HOMES])

