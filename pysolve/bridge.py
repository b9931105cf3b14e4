"""The one owner of the embedded SWI-Prolog engine (through pyswip).

Every Prolog call in pysolve goes through `solutions` (or `load`): the engine
is started once per process with the debugger switched off, each rule base
is loaded into its own module, every goal runs module-qualified and bounded
(results, seconds, inferences) inside Prolog, and each query is materialised
and closed under one process-wide lock. Errors, including syntax errors in a
rule file, come back as `PrologError` carrying Prolog's own message.

Set the environment variable PYSOLVE_NO_PROLOG=1 to hide SWI-Prolog: the
Prolog back end then reports itself unavailable and everything else goes on.
"""

from __future__ import annotations

import functools
import importlib.metadata
import os
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pysolve.errors import BackendUnavailable, PrologError, SearchLimitExceeded, UnknownName
from pysolve.paths import rule_base_dir

HIDE_VARIABLE = "PYSOLVE_NO_PROLOG"
DEFAULT_SECONDS = 60.0

_lock = threading.RLock()
_loaded: dict[Path, str] = {}  # rule file -> the module its predicates live in


def rule_bases() -> list[str]:
    """Names of the shipped rule bases, as `load` and `pysolve query` accept them."""
    return sorted(p.stem for p in rule_base_dir().glob("*.pl"))


@functools.cache
def _engine() -> Any:
    """Start SWI-Prolog once and return pyswip's Prolog class, or raise BackendUnavailable."""
    if os.environ.get(HIDE_VARIABLE):
        raise BackendUnavailable(f"SWI-Prolog is hidden by {HIDE_VARIABLE}={os.environ[HIDE_VARIABLE]}")
    if os.environ.get("SWI_HOME_DIR"):
        _probe_in_subprocess()  # a bad SWI_HOME_DIR aborts the interpreter on import
    try:
        from pyswip import Prolog
    except ImportError as error:
        raise BackendUnavailable(f"pyswip is not installed ({error})") from None
    except Exception as error:  # pyswip raises plain exceptions when SWI-Prolog is missing
        raise BackendUnavailable(f"SWI-Prolog was not found: {error}") from None
    with _lock:
        _materialise(Prolog, "set_prolog_flag(debug_on_error, false)")
        _materialise(Prolog, "set_prolog_flag(report_error, true)")
        _materialise(Prolog, "set_prolog_flag(toplevel_prompt, '')")
        bridge_file = _prolog_path(rule_base_dir() / "pysolve_bridge.pl")
        _materialise(Prolog, f"load_files({bridge_file}, [imports([])])")
    return Prolog


def _probe_in_subprocess() -> None:
    probe = subprocess.run([sys.executable, "-c", "import pyswip"], capture_output=True, timeout=60)
    if probe.returncode != 0:
        raise BackendUnavailable(
            f"SWI-Prolog does not start here (SWI_HOME_DIR={os.environ['SWI_HOME_DIR']!r})")


def _materialise(prolog: Any, goal: str, maxresult: int = -1) -> list[dict[str, Any]]:
    """Run one query to completion and close it; the caller holds the lock."""
    try:
        return list(prolog.query(goal, maxresult=maxresult, catcherrors=True))
    except Exception as error:  # PrologError, NestedQueryError, InvalidTypeError
        raise PrologError(f"Prolog goal {goal!r} failed: {error}") from None


@dataclass(frozen=True)
class Status:
    """Whether the Prolog back end can run, its version, and if not, why."""

    available: bool
    version: str
    reason: str = ""


def status() -> Status:
    """Availability of SWI-Prolog through pyswip, without raising."""
    try:
        prolog = _engine()
    except BackendUnavailable as error:
        return Status(False, "", str(error))
    with _lock:
        (row,) = _materialise(prolog, "current_prolog_flag(version, V)")
    major, rest = divmod(row["V"], 10000)
    minor, patch = divmod(rest, 100)
    pyswip_version = importlib.metadata.version("pyswip")
    return Status(True, f"SWI-Prolog {major}.{minor}.{patch}, pyswip {pyswip_version}")


def _prolog_path(path: Path) -> str:
    """A file path as a quoted Prolog atom."""
    return quote_atom(path.resolve().as_posix())


def quote_atom(text: str) -> str:
    """`text` as a quoted Prolog atom (pyswip does no escaping of its own)."""
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def resolve_rule_base(name_or_path: str | os.PathLike[str]) -> Path:
    """A shipped rule base by name (`fichas`) or any `.pl` file by path."""
    text = os.fspath(name_or_path)
    path = Path(text)
    if path.suffix == ".pl" or os.sep in text:
        if not path.is_file():
            raise UnknownName(f"rule base file {text!r} does not exist")
        return path.resolve()
    shipped = rule_base_dir() / f"{text}.pl"
    if not shipped.is_file():
        raise UnknownName(f"unknown rule base {text!r}; known: {', '.join(rule_bases())}")
    return shipped


def load(name_or_path: str | os.PathLike[str]) -> str:
    """Load a rule base once per process and return the module to call its goals in.

    A module file keeps its own module; a plain file goes into a module named
    after its stem. Errors and warnings printed while loading raise PrologError.
    """
    path = resolve_rule_base(name_or_path)
    prolog = _engine()
    with _lock:
        if path in _loaded:
            return _loaded[path]
        target = _free_module_name(path)
        rows = _materialise(
            prolog, f"pysolve_bridge:load_rule_base({_prolog_path(path)}, {quote_atom(target)}, P)")
        problems = rows[0]["P"] if rows else ["load_rule_base/3 failed"]
        if problems:
            details = "; ".join(problems)
            raise PrologError(f"rule base {path.name} did not load cleanly: {details}")
        module_rows = _materialise(
            prolog, f"(source_file_property({_prolog_path(path)}, module(M)) -> true ; M = {quote_atom(target)})")
        module = module_rows[0]["M"]
        _loaded[path] = module
        return module


def _free_module_name(path: Path) -> str:
    """The file's stem, unless another file already uses that module name (then stem_2, ...)."""
    shipped = path.parent == rule_base_dir()
    taken = set(_loaded.values()) | (set() if shipped else set(rule_bases()))
    name, suffix = path.stem, 1
    while name in taken:
        suffix += 1
        name = f"{path.stem}_{suffix}"
    return name


@dataclass
class QueryResult:
    """All bindings a bounded goal produced, and how the search ended."""

    rows: list[dict[str, Any]]
    status: str  # complete, max_solutions, time_limit or inference_limit

    @property
    def complete(self) -> bool:
        """True when every solution was found (no bound cut the search short)."""
        return self.status == "complete"


def solutions(
    rule_base: str | os.PathLike[str],
    goal: str,
    *,
    max_solutions: int = 0,
    seconds: float = DEFAULT_SECONDS,
    inferences: int = 0,
) -> QueryResult:
    """Run `goal` (Prolog text) in a rule base's module and return its bindings.

    `max_solutions` 0 means all; `seconds` and `inferences` 0 mean unbounded.
    Bounds are enforced inside Prolog, so a long search always comes back.
    """
    module = load(rule_base)
    prolog = _engine()
    call = (
        f"pysolve_bridge:bounded_solutions({quote_atom(goal)}, {quote_atom(module)}, "
        f"{int(max_solutions)}, {float(seconds)}, {int(inferences)}, answer(Names, Rows), Status, Message)"
    )
    with _lock:
        rows = _materialise(prolog, call, maxresult=1)
    (row,) = rows
    if row["Status"] == "error":
        raise PrologError(f"goal {goal!r} in {module}: {row['Message']}")
    bindings = [dict(zip(row["Names"], values)) for values in row["Rows"]]
    return QueryResult(bindings, row["Status"])


def first(rule_base: str | os.PathLike[str], goal: str, **bounds: Any) -> dict[str, Any] | None:
    """The first solution's bindings, or None when the goal fails.

    Raises SearchLimitExceeded when a time or inference bound stops the goal first.
    """
    result = solutions(rule_base, goal, max_solutions=1, **bounds)
    if result.status in ("time_limit", "inference_limit"):
        limit = f"{bounds.get('seconds', DEFAULT_SECONDS):g} s" if result.status == "time_limit" else f"{bounds.get('inferences')} inferences"
        raise SearchLimitExceeded(f"Prolog goal {goal!r} passed its limit of {limit}")
    return result.rows[0] if result.rows else None
