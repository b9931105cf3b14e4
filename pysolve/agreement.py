"""Ask one question of several back ends side by side and compare their canonical answers.

Agreement needs at least two answers: with fewer, the verdict is "not
compared". Every back end asked that gave no answer is listed as
`Unanswered`: its kind (`declined`, `unavailable`, `unknown`, `failed`) and
its reason. A solver of one's own that raises, or gives back anything but a
`pysolve.Found` holding an answer of the puzzle's form, failed (`own_solver`):
the others are still asked and compared.

The back ends run at once, each under its own budget, so a slow one holds
up no other answer: a watcher hears of each one as it starts and finishes.
Many questions (a file of many puzzles: `crosscheck_many`) are cross-checked
one by one, or side by side on a pool of processes or a Dask cluster, each
there as here; the reports come back in order.
The miniKanren and Python back ends run on lanes (long-lived daemon
threads); Prolog, and solvers of one's own, in the calling thread. Prolog
searches run inside SWI-Prolog, which lets go of the GIL, so they truly run
beside the Python ones; the pure-Python back ends share the GIL between them.
"""

from __future__ import annotations

import functools
import queue
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from pysolve import backends, budget, notebook, puzzles, words
from pysolve.answers import Found, Status, Words
from pysolve.errors import BackendUnavailable, PysolveError, SearchLimitExceeded
from pysolve.files import excerpt
from pysolve.puzzle import UNKNOWN, Answer, Puzzle, Solver
from pysolve.rules import RulesError

if TYPE_CHECKING:
    from concurrent.futures import Executor

Kind = Literal["declined", "unavailable", "unknown", "failed"]  # why a back end asked gave no answer:
DECLINED: Kind = "declined"        # it does not answer this question (Puzzle.backends_for leaves it out)
UNAVAILABLE: Kind = "unavailable"  # it cannot run here (not installed, hidden)
FAILED: Kind = "failed"            # it raised an error
OUT_OF_BUDGET: Kind = "unknown"    # it passed its budget before it could answer (its status would be UNKNOWN)


@dataclass(frozen=True)
class Unanswered:
    """Why a back end asked gave no answer: its kind and the reason in words.

    It prints as "kind: reason", the form JSON output (`skipped`, `declined`) and the verdict line show."""

    kind: Kind
    reason: str

    def __str__(self) -> str:
        return f"{self.kind}: {self.reason}"


class Verdict(Words):
    """What a cross-check found: the answers agree, disagree, or fewer than two came to compare."""

    AGREE = "agree"
    DISAGREE = "disagree"
    NOT_COMPARED = "not compared"


AGREE, DISAGREE, NOT_COMPARED = Verdict.AGREE, Verdict.DISAGREE, Verdict.NOT_COMPARED
SECONDS = 8.0  # each back end's time limit in `pysolve crosscheck` and the web page unless one is given
LANES = 6  # threads the back ends of cross-checks run on (more back ends at once wait for a lane)
SAID = 200  # characters of the message of an error a solver of one's own raised, in the report

Watcher = Callable[[str, str, "CrossCheck"], None]  # (event, back end, report): "begin", "started", "finished"


@dataclass
class CrossCheck:
    """The answers of every back end asked, why the others gave none, and the verdict."""

    puzzle: str
    question: dict[str, Any]
    results: dict[str, Answer]
    skipped: dict[str, Unanswered] = field(default_factory=dict)  # back ends that answer such questions but gave
    # no answer here (unavailable, unknown, failed)
    declined: dict[str, Unanswered] = field(default_factory=dict)  # back ends that do not answer this question
    difference: str | None = None
    label: str = ""  # the question in a few words (Puzzle.label)
    asked: list[str] = field(default_factory=list)  # every back end asked, in order (own solvers first)
    limit_seconds: float | None = None  # each back end's time limit, when the cross-check set one
    seconds: float = 0.0  # how long the cross-check took, its back ends side by side (wall clock)

    def unanswered(self) -> dict[str, Unanswered]:
        """Every back end asked that gave no answer, in the order asked, with why."""
        return {name: self.declined.get(name) or self.skipped[name] for name in self.asked
                if name in self.declined or name in self.skipped}

    @property
    def compared(self) -> bool:
        """True when at least two back ends answered: only then can answers agree or disagree."""
        return len(self.results) >= 2

    @property
    def agree(self) -> bool:
        """True when at least two back ends answered and their answers agree.

        Those that did not answer are listed in `skipped` and `declined`."""
        return self.compared and self.difference is None

    @property
    def none_differ(self) -> bool:
        """True when some back end answered and no two answers differ.

        That is `agree`, or one answer alone (the others declined the question or were hidden on purpose). What a test
        asserts where, with Prolog hidden, one back end may be left; `compared` still says whether anything was
        compared."""
        return bool(self.results) and self.difference is None

    @property
    def verdict(self) -> Verdict:
        """AGREE, DISAGREE or NOT_COMPARED (fewer than two answers)."""
        return NOT_COMPARED if not self.compared else AGREE if self.difference is None else DISAGREE

    def summary(self) -> str:
        """The verdict in one line, naming every back end that did not answer and why.

        The same words wherever a cross-check is shown (CLI, web page, pytest plugin)."""
        missing = "; ".join(f"{name}: {reason}" for name, reason in self.unanswered().items())
        if not self.compared and not missing:
            asked = f"only {self.asked[0]} was asked" if self.asked else "no back end was asked"
            return f"NOT COMPARED: {asked}; a cross-check compares two"
        if not self.compared:
            answered = f"only {next(iter(self.results))} answered" if self.results else "no back end answered"
            return f"NOT COMPARED: {answered} ({missing})"
        unanswered = f"; not compared ({missing})" if missing else ""
        if self.difference is not None:
            return f"DISAGREEMENT: {self.difference}{unanswered}"
        names = ", ".join(self.results)
        return f"all back ends agree ({names})" if not missing else f"the answers of {names} agree{unanswered}"

    def _repr_html_(self) -> str:
        """The report in a notebook (Jupyter): the verdict, every back end's row, the first answer drawn."""
        return notebook.crosscheck_html(self)

    def to_json(self) -> dict[str, Any]:
        """The report as a JSON-able dict (`pysolve crosscheck --json`)."""
        return {
            "puzzle": self.puzzle,
            "question": self.question,
            "verdict": self.verdict,
            "compared": self.compared,
            "agree": self.agree,
            "difference": self.difference,
            "summary": self.summary(),
            "limit_seconds": self.limit_seconds,
            "seconds": self.seconds,
            "results": {name: answer.to_json() for name, answer in self.results.items()},
            "skipped": {name: str(why) for name, why in self.skipped.items()},
            "declined": {name: str(why) for name, why in self.declined.items()},
        }


def crosscheck(puzzle: Puzzle, question: Any, only: list[str] | None = None,
               also: Mapping[str, Solver] | None = None, seconds: float | None = None,
               watch: Watcher | None = None) -> CrossCheck:
    """Ask every back end (or those in `only`) and `also` solvers of one's own, side by side; compare.

    Solvers of one's own come first in `results`, so a difference names them.
    `seconds` caps each back end's time (None: each runs under its question's
    own budget). `watch(event, name, report)` hears "begin" once (the report
    lists the back ends asked, the declined and unavailable ones already
    listed), then "started" and "finished" for each back end as they happen,
    from whichever thread the back end runs on, one at a time.
    """
    report = plan(puzzle, question, only, also, seconds)
    notify = watch or (lambda event, name, report: None)
    notify("begin", "", report)
    for name in report.unanswered():
        notify("finished", name, report)
    asks: dict[str, Callable[[], Answer]] = {
        name: functools.partial(puzzle.run, name, own_solver(puzzle, name, solver), question)
        for name, solver in (also or {}).items()}
    asks.update({name: functools.partial(puzzle.solve, question, name) for name in report.asked
                 if name not in asks and name not in report.unanswered()})
    started = time.perf_counter()
    run_side_by_side(report, asks, notify)
    report.seconds = round(time.perf_counter() - started, 6)
    report.results = {name: report.results[name] for name in report.asked if name in report.results}
    report.skipped = {name: report.skipped[name] for name in report.asked if name in report.skipped}
    report.difference = first_disagreement(puzzle, report.results)
    return report


@dataclass
class CrossChecks:
    """The cross-checks of many questions (a file of many puzzles), in order, and where they ran.

    Its verdict is DISAGREE when any question's answers differ, AGREE when every question's agree, and
    NOT_COMPARED otherwise (some question, or all, had fewer than two answers to compare)."""

    puzzle: str
    reports: list[CrossCheck]
    limit_seconds: float | None = None  # each back end's time limit on each question, when one was set
    ran_on: str = "this process"  # the processes, or the Dask cluster, that ran the cross-checks
    seconds: float = 0.0  # how long they all took (wall clock)
    serially: str = ""  # why --workers auto ran them all in this process, in one line ("" when it did not)

    def counts(self) -> dict[Verdict, int]:
        """How many questions' cross-checks ended in each verdict (every verdict listed, 0 included)."""
        return {verdict: sum(report.verdict == verdict for report in self.reports) for verdict in Verdict}

    @property
    def compared(self) -> bool:
        """True when at least one question had two answers to compare."""
        return any(report.compared for report in self.reports)

    @property
    def verdict(self) -> Verdict:
        """DISAGREE when any question's answers differ, AGREE when all agree, NOT_COMPARED otherwise."""
        counts = self.counts()
        if counts[DISAGREE]:
            return DISAGREE
        return AGREE if self.reports and counts[AGREE] == len(self.reports) else NOT_COMPARED

    def summary(self) -> str:
        """The verdicts counted in one line, the first disagreement named; one compared nothing says so."""
        asked = words.plural(len(self.reports), f"{self.puzzle} question")
        if not self.compared:
            return f"NOT COMPARED: none of {asked} had two answers to compare"
        counts = self.counts()
        tally = ", ".join(f"{count} {verdict}" for verdict, count in counts.items() if count)
        if counts[DISAGREE]:
            number, first = next((number, report) for number, report in enumerate(self.reports, start=1)
                                 if report.verdict == DISAGREE)
            return f"DISAGREEMENT on {counts[DISAGREE]} of {asked} ({tally}); the first, question {number}: " \
                   f"{first.difference}"
        if counts[NOT_COMPARED]:
            return f"NOT ALL COMPARED: {counts[NOT_COMPARED]} of {asked} had fewer than two answers ({tally})"
        return f"all {asked} agree across back ends"

    def to_json(self) -> dict[str, Any]:
        """The reports as one JSON-able dict (`pysolve crosscheck --json` on a file of many), each as one's own."""
        return {
            "puzzle": self.puzzle,
            "questions": len(self.reports),
            "verdict": self.verdict,
            "compared": self.compared,
            "counts": {str(verdict): count for verdict, count in self.counts().items()},
            "summary": self.summary(),
            "limit_seconds": self.limit_seconds,
            "ran_on": self.ran_on,
            "serially": self.serially,
            "seconds": self.seconds,
            "crosschecks": [report.to_json() for report in self.reports],
        }


def crosscheck_many(puzzle: Puzzle, questions: Sequence[Any], only: list[str] | None = None,
                    seconds: float | None = None, workers: int | str = 1, cluster: str | None = None,
                    each: Callable[[CrossCheck], None] | None = None) -> CrossChecks:
    """Cross-check every question (`crosscheck`, the built-in back ends), here or side by side; the reports in order.

    Here one after another, or on up to `workers` processes ("auto": one per core; no more than there are
    questions) or the Dask cluster at `cluster`, a question a task, each worker starting the back ends first;
    with "auto", when every back end asked runs here already (or needs no start), the first questions are
    cross-checked here, and the rest go to the pool only when it pays (`executors.Trial`; `serially` says why
    when it did not).
    Each back end has `seconds` on each question, counted on the clock of the work as here, so the verdicts
    and answers are the same wherever they ran. `each(report)` hears of every report in order, as soon as it
    and those before it are in.
    """
    from pysolve import executors  # only for many questions: the pool's modules cost every start

    def here(question: Any) -> CrossCheck:
        tell(report := crosscheck(puzzle, question, only, seconds=seconds))
        return report

    tell = each or (lambda report: None)
    processes = executors.useful_workers(workers, len(questions))
    reports: list[CrossCheck] = []
    started, ran_on, serially = time.perf_counter(), "this process", ""
    names = [name for name in backends.NAMES if only is None or name in only]

    def on(chosen: Executor, questions: Sequence[Any]) -> None:
        futures = [chosen.submit(crosscheck_one, puzzle.name, question, only, seconds) for question in questions]
        for future in futures:
            reports.append(future.result())
            tell(reports[-1])

    if cluster is None and processes == 1:
        reports.extend(map(here, questions))
    elif cluster is None and workers == executors.AUTO and all(map(backends.started, names)):
        trial = executors.Trial(questions, processes, executors.start_seconds())
        reports.extend(trial.run(here))
        questions = trial.left
        if trial.pays():
            ran_on = f"{executors.ran_on(processes, workers)}, the first {trial.done} in this process"
            with executors.executor(processes, warm=(start_backends, names)) as chosen:
                assert chosen is not None
                on(chosen, questions)
        else:
            serially = trial.why_here(f"{puzzle.name} question")
            reports.extend(map(here, questions))
    else:
        ran_on = cluster or executors.ran_on(processes, workers)
        with executors.executor(processes, cluster, warm=(start_backends, names)) as chosen:
            assert chosen is not None
            on(chosen, questions)
    return CrossChecks(puzzle.name, reports, seconds, ran_on, round(time.perf_counter() - started, 6), serially)


def crosscheck_one(puzzle: str, question: Any, only: list[str] | None, seconds: float | None) -> CrossCheck:
    """One question cross-checked in a worker (`crosscheck_many`), its puzzle found there by name."""
    return crosscheck(puzzles.get(puzzle), question, only, seconds=seconds)


def start_backends(names: list[str]) -> None:
    """A worker's start: every back end of `names` that can run there started (SWI-Prolog, miniKanren).

    Those that cannot are left for each question's report to name, as here."""
    for name in names:
        backends.available(name)  # starts it: its version is read from the running engine


def own_solver(puzzle: Puzzle, name: str, solver: Solver) -> Solver:
    """`solver`, one's own, made to fail as a back end fails.

    RulesError naming it when it raises or gives back anything but a pysolve.Found holding an answer of `puzzle`'s
    form (`found_fault`).

    A cross-check reports that back end failed and compares the others; `pysolve check` counts the error on
    the question; `solve` raises it, the solver's own exception chained.
    """

    def answered(question: Any) -> Found:
        try:
            found = solver(question)
        except (PysolveError, RecursionError, MemoryError):  # a finding already, or an unknown (Puzzle.run)
            raise
        except Exception as error:  # the user's code: any error it raises is its failure
            said = " ".join(str(error).split())  # its message on one line, as `pysolve check` words it, cut short
            said = said if len(said) <= SAID else f"{said[:SAID]}..."
            raise RulesError(f"{name} raised {type(error).__name__}: {said}") from error
        fault = found_fault(puzzle, name, question, found)
        if fault is not None:
            raise RulesError(f"{name} returned {fault}")
        return found

    answered.__name__ = name  # `pysolve check` names a solver by it
    return answered


def found_fault(puzzle: Puzzle, name: str, question: Any, found: Any) -> str | None:
    """What is wrong with `found`, a solver of one's own's answer to `question`, in words; None when nothing is.

    A pysolve.Found whose solutions are a list, stats a dict of names, count None or a whole number, status
    a Status, and whose answer the puzzle can read as it reads its back ends': bring it to its canonical form
    (what a comparison reads), summarise and draw it (what reports show).
    """
    if not isinstance(found, Found):
        return f"{type(found).__name__} {excerpt(found)}, not a pysolve.Found"
    shape = {
        "solutions": (found.solutions, isinstance(found.solutions, list), "a list"),
        "stats": (found.stats, isinstance(found.stats, dict) and all(isinstance(key, str) for key in found.stats),
                  "a dict of names to values"),
        "count": (found.count, found.count is None or (type(found.count) is int and found.count >= 0),
                  "None or a whole number"),
    }
    for field_name, (value, fits, expected) in shape.items():
        if not fits:
            return f"a Found with {field_name}={type(value).__name__} {excerpt(value)}, not {expected}"
    try:
        status = Status(found.status)
    except ValueError:
        return f"a Found with status={excerpt(found.status)}, not one of {', '.join(map(str, Status))}"
    answer = Answer(puzzle.name, name, found.solutions, found.stats, found.count, status, puzzle.describe(question),
                    asked=question)
    for reader in (puzzle.canonical, puzzle.summarise, puzzle.render):
        try:
            reader(answer)
        except Exception as error:  # the puzzle's code reading what the user's gave: any error means another form
            return (f"a Found whose solutions are not a {puzzle.name} answer ({type(error).__name__}: "
                    f"{excerpt(str(error))})")
    return None


def plan(puzzle: Puzzle, question: Any, only: list[str] | None, also: Mapping[str, Solver] | None,
         seconds: float | None) -> CrossCheck:
    """The report before anyone is asked: the back ends to ask, and those that will not answer.

    Those that decline the question or cannot run here are already listed, with their reasons."""
    offered = puzzle.backends_for(question)
    names = [name for name in backends.NAMES if only is None or name in only]
    report = CrossCheck(puzzle.name, puzzle.describe(question), {}, label=puzzle.label(question),
                        asked=[*(also or {}), *names], limit_seconds=seconds)
    for name in names:
        if name not in offered:
            report.declined[name] = Unanswered(DECLINED, f"{name} does not answer this {puzzle.name} question")
        elif not (info := backends.info(name)).available:
            report.skipped[name] = Unanswered(UNAVAILABLE, info.reason)
    return report


def run_side_by_side(report: CrossCheck, asks: dict[str, Callable[[], Answer]], notify: Watcher) -> None:
    """Ask the back ends of `asks` side by side, recording each outcome in `report` as it arrives.

    The built-in kanren and python back ends each run on a lane of its own and, meanwhile, the others in this thread:
    Prolog, and solvers of one's own (a RuleBase asks Prolog too), since the thread that owns a Prolog engine and
    takes Ctrl-C is this one; a lane that asked Prolog would keep an engine of its own. Each runs under its own time
    limit (report.limit_seconds, within the bounds of the request this thread serves). `notify` is told of each event
    under a lock, as events come from every thread. An error that is no finding (a bug, Ctrl-C) is raised here as soon
    as it comes."""
    outcomes: queue.SimpleQueue[tuple[str, Any]] = queue.SimpleQueue()
    cap, gone = within_request(report.limit_seconds)
    lock = threading.Lock()

    def tell(event: str, name: str, outcome: Any = None) -> None:
        if isinstance(outcome, BaseException):  # no finding to tell: the caller raises it
            return
        with lock:
            if event == "finished":
                record(report, name, outcome)
            notify(event, name, report)

    def attempt(name: str, ask: Callable[[], Answer]) -> None:
        outcome: Any = None
        try:
            tell("started", name)
            outcome = outcome_of(ask, cap, gone)
            tell("finished", name, outcome)
        except BaseException as error:  # the watcher failed (stdout closed): handed to the caller, who waits
            outcome = error
        finally:
            outcomes.put((name, outcome))

    here = [name for name in asks if name not in backends.NAMES or name == "prolog"]
    for name, ask in asks.items():
        if name not in here:
            _lanes.run(functools.partial(attempt, name, ask))
    for name in here:  # this thread's request bounds are none afterwards: budget.serving does not restore them
        attempt(name, asks[name])
    for _ in asks:
        name, outcome = outcomes.get()
        if isinstance(outcome, BaseException):  # raised at once: the lanes are daemons, left to their budgets
            raise outcome


def within_request(seconds: float | None) -> tuple[float, threading.Event]:
    """The time limit of each back end, and the event that says nobody waits any more.

    The limit is `seconds` within the bounds of the request the calling thread serves (a web worker's, see
    budget.serving), carried to the lanes because those bounds belong to a thread."""
    served, gone = budget.request_bounds()
    limits = [limit for limit in (seconds, served) if limit]
    return min(limits, default=0.0), gone or threading.Event()


def outcome_of(ask: Callable[[], Answer], cap: float, gone: threading.Event) -> Any:
    """Ask one back end within its time limit, and give back what came of it.

    Its Answer, why it gave none for an error that is a finding, or the exception of any other (for the caller to
    raise)."""
    try:
        with budget.serving(cap, gone):
            return ask()
    except BackendUnavailable as error:
        return Unanswered(UNAVAILABLE, str(error))
    except SearchLimitExceeded as error:
        return Unanswered(OUT_OF_BUDGET, str(error))
    except PysolveError as error:  # a Prolog error, a question a back end refused: a finding, not a crash
        return Unanswered(FAILED, f"{type(error).__name__}: {error}")
    except BaseException as error:  # a bug, or Ctrl-C: handed to the caller
        return error


def record(report: CrossCheck, name: str, outcome: Answer | Unanswered) -> None:
    """Add one back end's answer to the report, or why it gave none."""
    if isinstance(outcome, Unanswered):
        report.skipped[name] = outcome
    elif outcome.status == UNKNOWN:
        report.skipped[name] = Unanswered(OUT_OF_BUDGET, outcome.reason)
    else:
        report.results[name] = outcome


class Lanes:
    """A few long-lived daemon threads that run back ends side by side.

    Long-lived, because a thread that asks Prolog gets a Prolog engine of its
    own for good: a fresh thread per back end would leak one per cross-check.
    Daemon threads, so that a back end still running when the program stops
    (Ctrl-C) does not keep it alive. Work past `size` at once waits its turn.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self.jobs: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        self.threads: list[threading.Thread] = []
        self.idle = 0
        self.lock = threading.Lock()

    def run(self, job: Callable[[], None]) -> None:
        """Run `job` on a free lane (a new one while fewer than `size`), or once one frees up."""
        with self.lock:
            if self.idle == 0 and len(self.threads) < self.size:
                thread = threading.Thread(target=self._work, daemon=True, name=f"pysolve-lane-{len(self.threads)}")
                self.threads.append(thread)
                self.idle += 1
                thread.start()
            self.idle -= 1
        self.jobs.put(job)

    def _work(self) -> None:
        while True:
            job = self.jobs.get()
            try:
                job()
            finally:
                with self.lock:
                    self.idle += 1


_lanes = Lanes(LANES)


def first_disagreement(puzzle: Puzzle, results: dict[str, Answer]) -> str | None:
    """Where the first answer's canonical form and another's first differ, or None."""
    canonical = {name: puzzle.canonical(answer) for name, answer in results.items()}
    names = list(canonical)
    for other in names[1:]:
        where = first_difference(canonical[names[0]], canonical[other])
        if where is not None:
            return f"{names[0]} and {other} differ at {where}"
    return None


def first_difference(left: Any, right: Any, path: str = "answer") -> str | None:
    """A readable path to the first place two nested values differ, or None when equal."""
    if left == right:
        return None
    if isinstance(left, dict) and isinstance(right, dict):
        for key in sorted(set(left) | set(right), key=repr):
            if key not in left or key not in right:
                return f"{path}[{key!r}]: present on one side only"
            where = first_difference(left[key], right[key], f"{path}[{key!r}]")
            if where:
                return where
    if isinstance(left, (list, tuple)) and isinstance(right, (list, tuple)):
        for index, (a, b) in enumerate(zip(left, right)):
            where = first_difference(a, b, f"{path}[{index}]")
            if where:
                return where
        if len(left) != len(right):
            return f"{path}: {len(left)} items against {len(right)}"
    return f"{path}: {left!r} against {right!r}"
