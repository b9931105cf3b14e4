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

import contextlib
import functools
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from pysolve import memory
from pysolve.answers import NO_SOLUTION, SOLVED, Found, stopped
from pysolve.budget import DEFAULT_SECONDS, Budget, guard_words, time_limit, wall_guard
from pysolve.errors import BackendUnavailable, PrologError, SearchLimitExceeded, UnknownName
from pysolve.files import PATH_CHARACTERS, excerpt
from pysolve.paths import rule_base_dir
from pysolve.trace import Trace

HIDE_VARIABLE = "PYSOLVE_NO_PROLOG"

_lock = threading.RLock()
_loaded: dict[Path, str] = {}  # rule file -> the module its predicates live in
KEEPS_STATE = frozenset({"azul"})  # rule bases that keep state in their engine between queries (Azul's games)


class Pool(Protocol):
    """Engines in worker processes that answer queries side by side (`pysolve.engines.EnginePool`)."""

    def ask(self, asked: Asked) -> Answered: ...


_pool: Pool | None = None  # when set (`answer_on`), queries go to its engines, not to this process's


def answer_on(pool: Pool | None) -> None:
    """Send Prolog queries to a pool of engine processes, or back to this process.

    From now on, answer every query on `pool`'s engines (None: on this process's own again), except traced
    ones and those of rule bases that keep state between queries (KEEPS_STATE), which stay here. The web
    server sets one, so that its requests' Prolog runs side by side instead of in line for one lock."""
    global _pool
    _pool = pool


def rule_bases() -> list[str]:
    """Names of the shipped rule bases, as `load` and `pysolve query` accept them."""
    return sorted(p.stem for p in rule_base_dir().glob("*.pl"))


@functools.cache
def _engine() -> Any:
    """Start SWI-Prolog once and return pyswip's Prolog class, or raise BackendUnavailable."""
    if os.environ.get(HIDE_VARIABLE):
        raise BackendUnavailable(f"SWI-Prolog is hidden by {HIDE_VARIABLE}={os.environ[HIDE_VARIABLE]}", hidden=True)
    if os.environ.get("SWI_HOME_DIR"):
        _probe_in_subprocess()  # a bad SWI_HOME_DIR aborts the interpreter on import
    with _lock, _interruptible():  # SWI-Prolog takes SIGINT when it starts: Python takes it back at once
        return _start_engine()


def started() -> bool:
    """True once SWI-Prolog has started in this process (`_engine`)."""
    return _engine.cache_info().currsize > 0


def _start_engine() -> Any:
    """Import pyswip (which starts SWI-Prolog), set the flags pysolve needs and load the bridge's rules."""
    try:
        from pyswip import Prolog
    except ImportError as error:
        raise BackendUnavailable(f"pyswip is not installed ({error})") from None
    except Exception as error:  # pyswip raises plain exceptions when SWI-Prolog is missing
        raise BackendUnavailable(f"SWI-Prolog was not found: {error}") from None
    _materialise(Prolog, "set_prolog_flag(debug_on_error, false)")
    _materialise(Prolog, "set_prolog_flag(report_error, true)")
    _materialise(Prolog, "set_prolog_flag(toplevel_prompt, '')")
    if memory.current_limit():  # Prolog's stacks stay within the run's memory bound
        _materialise(Prolog, f"current_prolog_flag(stack_limit, L), Limit is min(L, {memory.current_limit() // 2}), "
                             "set_prolog_flag(stack_limit, Limit)")
    bridge_file = _prolog_path(rule_base_dir() / "pysolve_bridge.pl")
    _materialise(Prolog, f"load_files({bridge_file}, [imports([])])")
    _start_alarm_thread(Prolog)
    return Prolog


def _start_alarm_thread(prolog: Any) -> None:
    """Start library(time)'s alarm thread with SIGINT blocked, so that it inherits the block.

    Otherwise the kernel hands Ctrl-C to that thread whenever Prolog's own
    thread blocks signals for a moment (garbage collection), and the
    interrupt is lost: a long goal then runs on to its limit.
    """
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        _materialise(prolog, "time:call_with_time_limit(60, true)")
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def release_thread() -> None:
    """Give back the calling thread's Prolog engine.

    A thread holds one once it asked Prolog (pyswip gives every such thread one of its own). A thread to exit
    before the process does calls this last: at the process's exit SWI-Prolog stops every thread holding an
    engine, cannot stop one that Python runs, and warns "Failed to stop Prolog threads" instead of exiting
    cleanly."""
    if not _engine.cache_info().currsize:  # Prolog never started here: nothing to give back
        return
    from pyswip.core import PL_thread_self, _lib  # pyswip declares no PL_thread_destroy_engine of its own

    with _lock:
        if PL_thread_self() != -1:
            _lib.PL_thread_destroy_engine()


def _probe_in_subprocess() -> None:
    probe = subprocess.run([sys.executable, "-c", "import pyswip"], capture_output=True, timeout=60)
    if probe.returncode != 0:
        raise BackendUnavailable(
            f"SWI-Prolog does not start here (SWI_HOME_DIR={os.environ['SWI_HOME_DIR']!r})")


def load_problems(path: Path, problems: list[str]) -> tuple[str, str]:
    """The message and detail of a rule base that did not load cleanly.

    Each of Prolog's problems has its path said by the file's name and is cut short in the message, so that a
    long first problem hides no other; the detail keeps them whole."""
    said = [problem.replace(str(path), path.name) for problem in problems]
    return (f"rule base {path.name} did not load cleanly: {'; '.join(excerpt(one, 100) for one in said)}",
            f"rule base {path} did not load cleanly:\n" + "\n".join(problems))


def goal_error(goal: str, module: str, message: str) -> PrologError:
    """The error of a goal that raised in `module`: the goal cut short and Prolog's first line; the detail whole."""
    text = message.strip()
    headline = text.splitlines()[0] if text else "error"
    return PrologError(f"goal {excerpt(goal)} in {module}: {headline}", f"goal {goal!r} in {module}:\n{text}")


def _materialise(prolog: Any, goal: str, maxresult: int = -1) -> list[dict[str, Any]]:
    """Run one query to completion and close it; the caller holds the lock."""
    try:
        return list(prolog.query(goal, maxresult=maxresult, catcherrors=True))
    except Exception as error:  # PrologError, NestedQueryError, InvalidTypeError
        raise PrologError(f"Prolog goal {excerpt(goal)} failed: {error}",
                          f"Prolog goal {goal!r} failed: {error}") from None


@dataclass(frozen=True)
class Status:
    """Whether the Prolog back end can run, its version, and if not, why."""

    available: bool
    version: str
    reason: str = ""
    hidden: bool = False  # hidden on purpose by PYSOLVE_NO_PROLOG


def status() -> Status:
    """Availability of SWI-Prolog through pyswip, without raising."""
    try:
        prolog = _engine()
    except BackendUnavailable as error:
        return Status(False, "", str(error), error.hidden)
    with _lock:
        (row,) = _materialise(prolog, "current_prolog_flag(version, V)")
    major, rest = divmod(row["V"], 10000)
    minor, patch = divmod(rest, 100)
    from importlib.metadata import version  # slow to import: only once SWI-Prolog runs

    return Status(True, f"SWI-Prolog {major}.{minor}.{patch}, pyswip {version('pyswip')}")


def status_found_from() -> tuple[dict[str, str | None], list[str]]:
    """What Prolog's availability depends on, beyond the installed packages.

    What `status` depends on besides the Python packages installed: the environment variables that hide
    SWI-Prolog or tell pyswip where it is, and the files it starts from: the folders of the PATH (installing
    or removing a program changes its folder), the `swipl` found there (its runtime variables name the
    library pyswip loads; an upgrade replaces it), the loader's cache (pyswip's fallback), the bridge's rules."""
    names = (HIDE_VARIABLE, "SWI_HOME_DIR", "LIBSWIPL_PATH", "PATH", "LD_LIBRARY_PATH")
    swipl = shutil.which("swipl")
    return ({name: os.environ.get(name) for name in names},
            [*os.get_exec_path(), *([os.path.realpath(swipl)] if swipl else []), "/etc/ld.so.cache",
             str(rule_base_dir() / "pysolve_bridge.pl")])


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
        if not os.path.isfile(text):  # False, not OSError, for a name too long to look up
            raise UnknownName(f"rule base file {excerpt(text, PATH_CHARACTERS)} does not exist or is not a regular "
                              "file")
        return path.resolve()
    shipped = rule_base_dir() / f"{text}.pl"
    if not os.path.isfile(shipped):
        raise UnknownName(f"unknown rule base {excerpt(text)}; known: {', '.join(rule_bases())}")
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
            raise PrologError(*load_problems(path, problems))
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


class Var(str):
    """A Prolog variable in a goal written by `goal` (an output to read back: `Var("Path")`)."""


class String(str):
    """A Prolog string (double-quoted) in a goal written by `goal`; a plain `str` is an atom."""


class Goal(str):
    """A term already written by `goal` (a goal inside a goal: `with_puzzle(..., solve(...))`)."""


Term = int | float | str | Sequence[Any]


def term(value: Any) -> str:
    """`value` written as a Prolog term: ints, floats, atoms (str), String, Var, Goal and nested lists/tuples."""
    if isinstance(value, Goal):
        return str(value)
    if isinstance(value, Var):
        if not value or not (value[0].isupper() or value[0] == "_") or not value.replace("_", "a").isalnum():
            raise ValueError(f"{value!r} is not a Prolog variable name")
        return str(value)
    if isinstance(value, String):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, str):
        return quote_atom(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, (list, tuple)):
        if set(map(type, value)) == {int}:  # the common long list of plain integers, written at once
            return "[" + ", ".join(map(str, value)) + "]"
        return "[" + ", ".join(term(item) for item in value) + "]"
    raise TypeError(f"cannot pass {type(value).__name__} {value!r} to Prolog; use ints, atoms and lists")


def goal(functor: str, *args: Any) -> Goal:
    """The goal `functor(Arg, ...)` with every argument written by `term` (itself a term for another goal)."""
    if not args:
        return Goal(quote_atom(functor))
    return Goal(f"{quote_atom(functor)}({', '.join(term(arg) for arg in args)})")


STOPPED = ("time_limit", "wall_limit", "inference_limit", "resource_limit")


@contextlib.contextmanager
def _interruptible() -> Iterator[None]:
    """Let Ctrl-C stop a Prolog goal: Prolog takes SIGINT while the goal runs, Python takes it back after.

    Python's own handler runs only between bytecodes, never inside the
    foreign call, so a long goal would otherwise ignore Ctrl-C until its
    time limit.
    """
    in_main_thread = threading.current_thread() is threading.main_thread()
    python_handler = signal.getsignal(signal.SIGINT) if in_main_thread else None
    try:
        yield
    finally:
        if python_handler is not None:
            signal.signal(signal.SIGINT, python_handler)


@dataclass
class QueryResult:
    """All bindings a bounded goal produced, and how the search ended."""

    rows: list[dict[str, Any]]
    status: str  # complete, max_solutions, time_limit, wall_limit, inference_limit or resource_limit
    limit: str = ""  # the bound that stopped it, in words ("time limit of 10 s", "memory limit (...)")

    @property
    def complete(self) -> bool:
        """True when every solution was found (no bound cut the search short)."""
        return self.status == "complete"

    @property
    def stopped(self) -> bool:
        """True when a time, inference or memory limit cut the search short (not a wanted solution count)."""
        return self.status in STOPPED

    def reason(self, what: str) -> str:
        """Why `what` stopped, in the same words as the Python back ends' budgets."""
        return f"{what} passed its {self.limit}"

    def require_complete(self, what: str) -> QueryResult:
        """This result, or SearchLimitExceeded when a limit stopped it (a question that needs every answer)."""
        if self.stopped:
            raise SearchLimitExceeded(self.reason(what))
        return self


def unknown(result: QueryResult, what: str, stats: dict[str, Any] | None = None) -> Found:
    """The one answer of a stopped query: status unknown, and the reason."""
    return stopped(result.reason(what), stats)


def found_rows(result: QueryResult, key: str, what: str, stats: dict[str, Any] | None = None) -> Found:
    """A query's rows, one solution each, as a Found.

    The answer of a query whose rows bind `key` to one solution each: solved or no solution, or, when a
    limit stopped `what`, unknown keeping the solutions found so far (a count then says "at least")."""
    solutions = [row[key] for row in result.rows]
    if result.stopped:
        found = unknown(result, what, stats)
        found.solutions = solutions
        return found
    return Found(solutions, dict(stats or {}), status=SOLVED if solutions else NO_SOLUTION)


def solutions(
    rule_base: str | os.PathLike[str],
    goal: str,
    *,
    max_solutions: int = 0,
    seconds: float | None = None,
    inferences: int = 0,
    budget: Budget | None = None,
) -> QueryResult:
    """Run `goal` (Prolog text) in a rule base's module and return its bindings.

    `max_solutions` 0 means all; `inferences` 0 means unbounded. The time
    limit is `seconds`, else what is left of `budget`, else DEFAULT_SECONDS:
    CPU seconds of this thread, counted by Prolog, with the wall clock as a
    guard (`budget.wall_guard`). Bounds are enforced inside Prolog, so a long
    search always comes back. InputError for `seconds` that are no time
    limit (nan, inf, 0). When the budget carries a trace, the events the
    goal records (prolog/pysolve_trace.pl) join it.
    """
    given_seconds = seconds
    if seconds is None:
        seconds = budget.remaining() if budget is not None else DEFAULT_SECONDS
        guard = budget.wall_remaining() if budget is not None else wall_guard(seconds)
    else:
        seconds = time_limit(float(seconds), "seconds")
        guard = wall_guard(seconds)
    seconds, guard = max(float(seconds), 0.001), max(float(guard), 0.001)
    trace = budget.trace if budget is not None else None
    asked = Asked(os.fspath(rule_base), goal, int(max_solutions), seconds, guard, int(inferences))
    pool = _pool
    if pool is not None and trace is None and resolve_rule_base(rule_base).stem not in KEEPS_STATE:
        names, rows, status, message = pool.ask(asked)
    else:
        names, rows, status, message = answer_here(asked, trace)
    bindings = [dict(zip(names, values)) for values in rows]
    whole = budget.seconds if budget is not None and budget.seconds and given_seconds is None else seconds
    return QueryResult(bindings, status, limit_words(status, whole, inferences, message))


@dataclass(frozen=True)
class Asked:
    """One bounded query, as plain data.

    One bounded query, as plain data (a pool's worker process answers it): the rule base, the goal's text,
    the solutions wanted (0: all), CPU seconds, the wall-clock guard in seconds, and inferences (0: any)."""

    rule_base: str
    goal: str
    max_solutions: int
    seconds: float
    guard: float
    inferences: int


Answered = tuple[list[str], list[list[Any]], str, str]  # names, rows of values, status, message


def answer_here(asked: Asked, trace: Trace | None = None) -> Answered:
    """Answer one query on this process's own engine.

    `asked` answered by this process's engine: the goal's variable names, one row of values per solution,
    the status and Prolog's message; PrologError when the goal raised an error, KeyboardInterrupt on Ctrl-C.
    The events a traced search records join `trace`."""
    module = load(asked.rule_base)
    prolog = _engine()
    call = (
        f"pysolve_bridge:bounded_solutions({quote_atom(asked.goal)}, {quote_atom(module)}, {asked.max_solutions}, "
        f"{asked.seconds}, {asked.guard}, {asked.inferences}, answer(Names, Rows, Wide), Status, Message)"
    )
    with _lock, _interruptible(), _recording(prolog, trace):
        rows = _materialise(prolog, call, maxresult=1)
    (row,) = rows
    goal = asked.goal
    if row["Status"] == "interrupted":
        raise KeyboardInterrupt(f"Prolog goal {goal!r} interrupted")
    if row["Status"] == "error":
        raise goal_error(goal, module, str(row["Message"]))
    values = wide_integers(row["Rows"]) if row["Wide"] == "true" else row["Rows"]
    return list(row["Names"]), values, str(row["Status"]), str(row["Message"])


def limit_words(status: str, seconds: float, inferences: int, message: str) -> str:
    """The bound that stopped a query, in words.

    The bound a query's `status` names, in words ("" when no bound stopped it): the time limit of `seconds`
    CPU seconds, its wall-clock guard, `inferences`, or the memory limit Prolog's `message` names."""
    return {"time_limit": f"time limit of {seconds:g} s",
            "wall_limit": guard_words(seconds),
            "inference_limit": f"inference limit of {inferences} inferences",
            "resource_limit": message}.get(status, "")


@contextlib.contextmanager
def _recording(prolog: Any, trace: Trace | None) -> Iterator[None]:
    """While the block runs, the Prolog searches it asks record their events (pysolve_trace's predicates) in
    a file of their own, added to `trace` at the end, whatever ended the block. Nothing when `trace` is
    None. Called with the lock held."""
    if not isinstance(trace, Trace):
        yield
        return
    load("pysolve_trace")
    handle, part = tempfile.mkstemp(prefix="pysolve-trace-", suffix=".jsonl")
    os.close(handle)
    try:
        room = max(trace.limit - trace.events, 0)
        _materialise(prolog, f"pysolve_trace:trace_open({_prolog_path(Path(part))}, {room}, {trace.nodes})")
        try:
            yield
        finally:
            (counts,) = _materialise(prolog, "pysolve_trace:trace_close(counts(N, F, B, S, E))")
            trace.include(Path(part).read_text(encoding="utf-8"),
                          counts["N"], counts["F"], counts["B"], counts["S"], counts["E"])
    finally:
        os.unlink(part)


def wide_integers(value: Any) -> Any:
    """A value with its wide integers made ints again.

    `value` with every integer past 64 bits made an int again: the bridge's rules send one as the string of
    its digits (pyswip carries no wider integer), which pyswip hands over as bytes, and no other value comes as
    bytes (the rules send Prolog strings as atoms). Only rows that hold one are walked (`Wide`)."""
    if isinstance(value, bytes):
        return int(value)
    if isinstance(value, list):
        return [wide_integers(item) for item in value]
    return value


def first(rule_base: str | os.PathLike[str], goal: str, **bounds: Any) -> dict[str, Any] | None:
    """The first solution's bindings, or None when the goal fails.

    Raises SearchLimitExceeded when a time or inference bound stops the goal first.
    """
    result = solutions(rule_base, goal, max_solutions=1, **bounds)
    result.require_complete(f"Prolog goal {goal!r}")
    return result.rows[0] if result.rows else None
