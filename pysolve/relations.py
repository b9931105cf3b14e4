"""A Python module of miniKanren relations of one's own, asked the questions of a puzzle's rules interface.

The module defines the interface's relation (`RulesInterface.relation_head`,
e.g. `hidatoo(board, solution)`): given the predicate's inputs as plain
Python data (lists, integers, strings) and a logic variable, it returns a
goal built with `pysolve.minikanren` (or `kanren`). pysolve runs that goal
with its own depth-first `run` under a time limit and reads each answer as
it reads a rule base's solution, tuples read as lists. `pysolve check
PUZZLE my_relations.py` asks it what it asks a `.pl` file.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import signal
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

from pysolve import minikanren as mk
from pysolve.answers import NO_SOLUTION, SOLVED, Found, stopped
from pysolve.errors import InputError, SearchLimitExceeded, UnknownName
from pysolve.files import excerpt
from pysolve.rules import RulesError, RulesInterface

Relation = Callable[..., mk.Goal]


def load_module(file: str | os.PathLike[str]) -> ModuleType:
    """Import a module of relations of one's own from a file.

    The module of relations in `file`, imported under a name of its own; UnknownName when there is no such
    file, InputError in one line when it does not import (a syntax error, a failing import, ...)."""
    path = Path(file)
    if not path.is_file():
        raise UnknownName(f"relations module {excerpt(os.fspath(file))} does not exist or is not a regular file")
    spec = importlib.util.spec_from_file_location(f"pysolve_relations_{path.stem}", path)
    assert spec is not None and spec.loader is not None  # a .py file always has a source loader
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as error:  # whatever the module raised is its author's one-line error
        raise InputError(f"{path.name} does not import: {type(error).__name__}: {one_line(error)}") from None
    return module


def relation_in(module: ModuleType, interface: RulesInterface, puzzle: str) -> Relation:
    """The interface's relation as the module defines it; InputError naming the relation when it does not."""
    relation = getattr(module, interface.relation, None)
    if not callable(relation):
        raise InputError(f"{Path(module.__file__ or '').name} does not define {interface.relation_head}, the "
                         f"relation of {puzzle}'s rules interface (docs/{puzzle}.md, \"Check your own rules\")")
    return relation


def goal_text(interface: RulesInterface, question: Any) -> str:
    """The call that asks the relation `question`, as Python writes it: `hidatoo([[1, 0], [0, 4]], solution)`."""
    inputs = ", ".join(repr(value) for value in interface.inputs(question))
    return f"{interface.relation}({inputs}, {interface.arguments[-1].lstrip('+-?').lower()})"


def ask(relation: Relation, interface: RulesInterface, question: Any, seconds: float) -> Found:
    """A relation's answer to one question.

    The relation's answer to `question`: its first `interface.limit(question)` answers within `seconds`
    (unknown when the time ran out); RulesError naming the call when it raised or gave an answer not in the
    interface's form."""
    call = goal_text(interface, question)
    solution = mk.var()
    try:
        with deadline(seconds, f"{interface.relation} of one's own"):
            answers = mk.run(relation(*interface.inputs(question), solution), solution, interface.limit(question))
    except SearchLimitExceeded as error:
        return stopped(str(error))
    except (RecursionError, MemoryError):
        raise  # Puzzle.run reads these as a search that ran out of room
    except Exception as error:  # whatever the relation raised is its author's finding
        raise RulesError(f"{call} raised {type(error).__name__}: {one_line(error)}") from None
    found = Found([plain(answer) for answer in answers], {}, status=SOLVED if answers else NO_SOLUTION)
    return interface.answer(call, question, found)


@contextlib.contextmanager
def deadline(seconds: float, what: str) -> Iterator[None]:
    """Raise SearchLimitExceeded in the block once `seconds` have passed.

    Raise SearchLimitExceeded in the block once `seconds` have passed (a relation of one's own may search
    forever and never ticks a budget): a real-time alarm, so only in the main thread, which the CLI and pytest
    run checks in; elsewhere the block runs unbounded."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum: int, frame: Any) -> None:
        raise SearchLimitExceeded(f"{what} ran past its time limit of {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def plain(value: Any, names: dict[Any, str] | None = None) -> Any:
    """An answer as plain data, its unbound variables named as the Prolog bridge names them.

    An answer as plain data: tuples (which relations often build) as lists, all the way down, and each
    logic variable left unbound named as the Prolog bridge names them (_G1, _G2, ... in order of appearance),
    so that an answer that is not ground reads the same from a relation as from a rule base."""
    names = {} if names is None else names
    if isinstance(value, (list, tuple)):
        return [plain(item, names) for item in value]
    if mk.isvar(value):
        return names.setdefault(value, f"_G{len(names) + 1}")
    return value


def one_line(error: BaseException) -> str:
    """An exception's message on one line."""
    return " ".join(str(error).split())
