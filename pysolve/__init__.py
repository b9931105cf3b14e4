"""pysolve: puzzles and games written three ways (SWI-Prolog, miniKanren, Python), cross-checked.

The public API is what this module exports (`__all__`); the user guide
(docs/guide.md) walks through it. Everything else is private and may change.

>>> import pysolve
>>> pysolve.count("tangram", strategy="cell", backend="python")
36
"""

from pysolve.api import (
                         RuleBase,
                         available_backends,
                         count,
                         crosscheck,
                         generate,
                         get_puzzle,
                         puzzle_names,
                         question,
                         shipped,
                         solve,
)
from pysolve.backends import NAMES as BACKENDS
from pysolve.bridge import QueryResult
from pysolve.bridge import solutions as query
from pysolve.crosscheck import CrossCheck
from pysolve.errors import BackendUnavailable, InputError, PrologError, PysolveError, SearchLimitExceeded, UnknownName
from pysolve.options import Option
from pysolve.puzzle import Answer, Found, Puzzle

__version__ = "0.1.0"

__all__ = [
    "BACKENDS", "Answer", "BackendUnavailable", "CrossCheck", "Found", "InputError", "Option", "PrologError",
    "Puzzle", "PysolveError", "QueryResult", "RuleBase", "SearchLimitExceeded", "UnknownName", "__version__",
    "available_backends", "count", "crosscheck", "generate", "get_puzzle", "puzzle_names", "query", "question",
    "shipped", "solve",
]
