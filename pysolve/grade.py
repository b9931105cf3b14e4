"""`pysolve grade PUZZLE SUBMISSIONS/`: a class's rules graded at once, property by property.

Every submission in the folder (a `.pl` rule base, a `.py` module of
miniKanren relations, or a folder holding one) is asked the same questions:
drawn once with a fixed seed from the searches `pysolve check` makes
(`check.searches`: the sizes growing, a share of instances with no
solution), and answered once by pysolve's own back ends. Each submission's
answers are then judged property by property (`property_names`): it loads;
it answers every question within its budget; it agrees on the small cases,
and on every size (a mistake that only shows on larger boards);
each of the puzzle's rules on every solution it gives (the interface's
`properties` module: Sudoku's rows, columns, boxes and givens); its counts;
its refusal of instances with no solution; its speed against pysolve's own
rule base on the largest size. Each property failed comes with the smallest
question on which it fails: the questions asked, then shrunk as `pysolve
check` shrinks (`check.shrunk`: hypothesis asks smaller questions of the
same search), within SHRINK_QUESTIONS new questions a property.

The budget of a question is counted, not timed, so that the same seed gives
the same grades on a busy machine: Prolog's logical inferences for a rule
base, Python function calls for a module of relations; the clock only guards
against code that never counts (a C loop). Rule bases run in pysolve's
sandbox (a `swipl` child each); a module of relations runs in a process of
its own (`ModuleProcess`), so one that exits, loops, overflows or prints
harms no other. Submissions are graded side by side on a pool of processes
(pysolve.executors).
"""

from __future__ import annotations

import contextlib
import csv
import functools
import html
import importlib
import io
import json
import multiprocessing
import os
import random
import resource
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from types import ModuleType
from typing import Any

from pysolve import check, executors, puzzles, relations, sandbox, words
from pysolve.agreement import first_disagreement
from pysolve.answers import NO_SOLUTION, UNKNOWN, Answer, Found, stopped
from pysolve.api import PuzzleLike, get_puzzle
from pysolve.errors import BackendUnavailable, InputError, PrologError, PysolveError, SearchLimitExceeded, UnknownName
from pysolve.files import excerpt
from pysolve.puzzle import Puzzle
from pysolve.rules import RulesError, RulesInterface

EXAMPLES = 40             # questions every submission is asked unless told
SEED = 1                  # the questions' seed unless told: the same questions run after run
INFERENCES = 5_000_000    # a rule base's budget per question in Prolog's logical inferences, at least (question_budget)
CALLS = 5_000_000         # a module of relations' budget per question, in Python function calls
GUARD_SECONDS = 30.0      # CPU seconds past which a question stops whatever it counted (code that never counts)
MAX_LIMITS = 5            # a submission is asked no more questions after this many ran out of budget
SHRINK_QUESTIONS = 12     # new questions a submission is asked shrinking one property's counterexample, at most
PASS, FAIL, NO_ANSWER, NOT_GRADED = "pass", "fail", "no answer", "not graded"  # a property's result
LOADS, ANSWERS, SMALL, EVERY_SIZE, COUNTS, UNSOLVABLE, SPEEDS = (
    "loads", "answers", "small cases", "every size", "counts", "unsolvable refused", "speed")
RULES = "rules"           # the column of a puzzle that names no rules one by one (not graded)
SUFFIXES = (".pl", ".py")  # what a submission is written in
WHY = 160                 # characters of why a submission gave no answers, in its line


@dataclass(frozen=True)
class Submission:
    """One student's rules: the student (the file's or the folder's name) and the file graded."""

    student: str
    path: Path


@dataclass
class Asked:
    """One question every submission is asked.

    The size of the search that drew it, pysolve's answers (its back ends', and the inferences pysolve's
    own rule base took, when SWI-Prolog runs), and a rule base's budget on it in inferences.
    """

    question: Any
    size: int
    search: int  # which of `check.searches` drew it, in order
    references: dict[str, Answer]
    budget: int
    inferences: int | None = None

    @property
    def reference(self) -> Answer:
        """pysolve's answer (its first back end's: they agree)."""
        return next(iter(self.references.values()))


@dataclass
class Counterexample:
    """The smallest question asked on which a property fails.

    The question, why, and both answers (the submission's None when it gave none).
    """

    question: dict[str, Any]
    message: str
    mine: Answer | None
    reference: Answer
    shown: int = 0    # which of the submission's solutions shows it (the first that breaks the rule)
    shrinks: int = 0  # new questions asked shrinking it

    def to_json(self) -> dict[str, Any]:
        """The counterexample as JSON."""
        return {"question": self.question, "message": self.message, "shrinks": self.shrinks,
                "mine": self.mine.to_json() if self.mine else None, "reference": self.reference.to_json()}


@dataclass
class Result:
    """A property's grade and on how many questions it held.

    A property's grade: pass, fail, no answer (nothing to judge it on) or not graded (the puzzle cannot
    test it), on how many questions it held of how many it was judged on, and its smallest counterexample.
    """

    status: str
    held: int = 0
    judged: int = 0
    note: str = ""
    counterexample: Counterexample | None = None

    def cell(self) -> str:
        """The CSV's cell: `pass 12/12`, `fail 3/12`, `no answer`, `not graded`."""
        return f"{self.status} {self.held}/{self.judged}" if self.judged else self.status

    def to_json(self) -> dict[str, Any]:
        """The result as JSON."""
        return {"status": self.status, "held": self.held, "judged": self.judged, "note": self.note or None,
                "counterexample": self.counterexample.to_json() if self.counterexample else None}


@dataclass
class Grade:
    """One submission's grade: each property's result, in order, and how many questions it was asked."""

    student: str
    file: str
    results: dict[str, Result]
    asked: int = 0

    @property
    def ungraded(self) -> bool:
        """True when no property could be graded here (a rule base where SWI-Prolog is missing)."""
        return all(result.status == NOT_GRADED for result in self.results.values())

    @property
    def failed(self) -> list[str]:
        """The properties it failed or gave nothing to judge on."""
        return [name for name, result in self.results.items() if result.status in (FAIL, NO_ANSWER)]

    def line(self) -> str:
        """One line: the student and each property that failed, or that all graded ones passed."""
        if self.ungraded:
            return f"{self.student}: not graded: {self.results[LOADS].note}"
        if not self.failed:
            return f"{self.student}: passed every graded property"
        failed = [name for name in self.failed if self.results[name].status == FAIL]
        silent = [name for name in self.failed if self.results[name].status == NO_ANSWER]
        parts = [f"failed {', '.join(failed)}"] if failed else []
        parts += [f"nothing to judge {', '.join(silent)} on"] if silent else []
        why = self.results[ANSWERS].note if ANSWERS in failed else self.results[LOADS].note
        return f"{self.student}: {'; '.join(parts)}" + (f" ({why[:WHY]}{'...' * (len(why) > WHY)})" if why else "")

    def to_json(self) -> dict[str, Any]:
        """The grade as JSON."""
        return {"student": self.student, "file": self.file, "asked": self.asked,
                "results": {name: result.to_json() for name, result in self.results.items()}}


@dataclass
class ClassReport:
    """A class graded: how (the puzzle, seed, questions and budgets), the properties in order, each grade."""

    puzzle: str
    seed: int
    examples: int
    questions: int
    sizes: tuple[int, ...]
    compared: tuple[str, ...]
    properties: list[str]
    grades: list[Grade] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        """True when every submission passed every graded property."""
        return not any(grade.failed for grade in self.grades)

    @property
    def ungraded(self) -> list[str]:
        """The students none of whose properties could be graded here."""
        return [grade.student for grade in self.grades if grade.ungraded]

    def lines(self) -> list[str]:
        """The report as text: how the class was asked, then a line per student."""
        return [f"graded {len(self.grades)} {self.puzzle} submissions on {self.questions} questions (seed "
                f"{self.seed}, sizes {', '.join(map(str, self.sizes))}; compared with {' and '.join(self.compared)})",
                *("  " + grade.line() for grade in self.grades)]

    def csv_rows(self) -> list[list[str]]:
        """The CSV's rows: a header (student, file, each property), then one row per student."""
        return [["student", "file", *self.properties],
                *([grade.student, grade.file, *(grade.results[name].cell() for name in self.properties)]
                  for grade in self.grades)]

    def to_csv(self) -> str:
        """The grades as CSV text."""
        out = io.StringIO()
        csv.writer(out, lineterminator="\n").writerows(self.csv_rows())
        return out.getvalue()

    def to_json(self) -> dict[str, Any]:
        """The whole class report as one JSON object."""
        return {"puzzle": self.puzzle, "seed": self.seed, "examples": self.examples, "questions": self.questions,
                "sizes": list(self.sizes), "compared": list(self.compared), "properties": self.properties,
                "grades": [grade.to_json() for grade in self.grades]}


# --- the submissions --------------------------------------------------------------------------------------------


def submissions(folder: str | os.PathLike[str], puzzle: str) -> list[Submission]:
    """The submissions in `folder`, by student.

    Each .pl or .py file, and each folder holding one (PUZZLE.pl, PUZZLE.py, or its only .pl or .py file);
    hidden files and other files are left out. UnknownName when the folder does not exist, InputError when
    it holds no submission.
    """
    root = Path(folder)
    if not root.is_dir():
        raise UnknownName(f"submissions folder {excerpt(os.fspath(folder))} does not exist or is not a folder")
    found = []
    for entry in sorted(root.iterdir()):
        if entry.name.startswith("."):
            continue
        if entry.is_file() and entry.suffix in SUFFIXES:
            found.append(Submission(entry.stem, entry))
        elif entry.is_dir():
            file = folder_entry(entry, puzzle)
            if file is not None:
                found.append(Submission(entry.name, file))
    if not found:
        raise InputError(f"{os.fspath(folder)} holds no submission: no .pl or .py file, nor a folder holding one")
    return found


def folder_entry(folder: Path, puzzle: str) -> Path | None:
    """The file a student's folder submits.

    PUZZLE.pl or PUZZLE.py, else its only .pl or .py file (None when it has none, or several and none named
    after the puzzle).
    """
    for suffix in SUFFIXES:
        named = folder / f"{puzzle}{suffix}"
        if named.is_file():
            return named
    files = sorted(path for path in folder.iterdir() if path.is_file() and path.suffix in SUFFIXES
                   and not path.name.startswith("."))
    return files[0] if len(files) == 1 else None


# --- the questions ----------------------------------------------------------------------------------------------


def class_searches(interface: RulesInterface, examples: int) -> list[check.Search]:
    """The searches that draw a class's questions: `pysolve check`'s, each question guarded by the clock alone."""
    return check.searches(interface.strategies(), interface.sizes, examples, GUARD_SECONDS)


def question_key(puzzle: Puzzle, question: Any) -> str:
    """The question as one string, the same for the same question drawn twice."""
    return json.dumps(puzzle.describe(question), sort_keys=True)


def draw_questions(puzzle: Puzzle, interface: RulesInterface, examples: int, seed: int) -> list[tuple[Any, int]]:
    """The questions every submission is asked, with the search that drew each (its index).

    `class_searches` in order, each search's distinct questions as hypothesis draws them from `seed` (the
    same seed, the same questions).
    """
    hypothesis = check.import_hypothesis()
    drawn: dict[str, tuple[Any, int]] = {}
    for index, search in enumerate(class_searches(interface, examples)):

        def keep(question: Any, index: int = index) -> bool:
            drawn.setdefault(question_key(puzzle, question), (question, index))
            return False

        with contextlib.suppress(hypothesis.errors.NoSuchExample):
            hypothesis.find(search.strategy, keep, settings=check.search_settings(hypothesis, search.count),
                            random=random.Random(seed))
    return list(drawn.values())


def answered_by_pysolve(puzzle: Puzzle, interface: RulesInterface, drawn: list[tuple[Any, int]],
                        searches: list[check.Search], compared: tuple[str, ...], inferences: int | None) -> list[Asked]:
    """The questions pysolve's back ends answer alike, each as `asked_of` gives it.

    The questions pysolve's back ends answer alike (the others are left out: there is nothing to grade
    against), each as `asked_of` gives it.
    """
    return [item for item in (asked_of(puzzle, interface, question, searches[index].size, index, compared,
                                       inferences) for question, index in drawn) if item is not None]


def asked_of(puzzle: Puzzle, interface: RulesInterface, question: Any, size: int, search: int,
             compared: tuple[str, ...], inferences: int | None) -> Asked | None:
    """`question` with pysolve's answers, as a submission is asked it.

    `question` with pysolve's answers and, when SWI-Prolog runs, the inferences pysolve's own rule base takes
    in the sandbox, as a submission's are counted; a rule base's budget on it: `inferences` when told, else
    the puzzle's (`question_budget`). None when pysolve's back ends do not answer it alike.
    """
    references = {name: puzzle.solve(question, name) for name in compared}
    if any(answer.status == UNKNOWN for answer in references.values()):
        return None
    if first_disagreement(puzzle, references) is not None:
        return None
    own = None
    if "prolog" in compared:
        own = interface.ask(interface.own, question, GUARD_SECONDS).stats["inferences"]
    budget = inferences if inferences is not None else question_budget(interface, own)
    return Asked(question, size, search, references, budget, own)


def question_budget(interface: RulesInterface, own: int | None) -> int:
    """A rule base's budget on a question on which pysolve's own rule base took `own` inferences.

    The interface's `budget_times` that, at least INFERENCES.
    """
    return max(INFERENCES, round(interface.budget_times * (own or 0)))


# --- a module of relations in a process of its own ------------------------------------------------------------


class CallLimit(SearchLimitExceeded):
    """A relation of one's own made more Python function calls than its budget."""


@contextlib.contextmanager
def counted_calls(budget: int, what: str) -> Iterator[Callable[[], int]]:
    """Count the Python function calls made in the block (a profile hook) and raise CallLimit past `budget`.

    Yields what reads the count so far.
    """
    calls = 0

    def hook(frame: Any, event: str, arg: Any) -> None:
        nonlocal calls
        if event == "call":
            calls += 1
            if calls > budget:
                raise CallLimit(f"{what} passed its budget of {budget:,} Python calls")

    sys.setprofile(hook)
    try:
        yield lambda: calls
    finally:
        sys.setprofile(None)


def serve_module(puzzle_name: str, path: str, calls: int, connection: Connection) -> None:
    """The body of a module's own process.

    Import the module, say whether it loaded, then answer each question sent (a Found, or the error's
    line), each within `calls` Python calls. What the module prints is thrown away; its memory is bounded
    as a rule base's child's is.
    """
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (sandbox.child_memory(), resource.RLIM_INFINITY))
    puzzle = puzzles.get(puzzle_name)
    interface = puzzle.rules
    assert interface is not None
    try:
        relation = relations.relation_in(relations.load_module(path), interface, puzzle.name)
    except PysolveError as error:
        connection.send(("refused", str(error)))
        return
    connection.send(("loaded", ""))
    what = f"{interface.relation} of {Path(path).name}"
    while True:
        try:
            question = connection.recv()
        except EOFError:
            return
        try:
            with counted_calls(calls, what) as counted:
                found = relations.ask(relation, interface, question, GUARD_SECONDS)
            found.stats["calls"] = counted()
            reply: tuple[str, Any] = ("found", found)
        except CallLimit as error:
            reply = ("found", stopped(str(error), {"limit": "call_limit"}))
        except RecursionError:
            reply = ("found", stopped(f"{what} went deeper than Python's recursion limit"))
        except MemoryError:
            reply = ("found", stopped(f"{what} ran out of memory"))
        except RulesError as error:
            reply = ("error", str(error))
        connection.send(reply)


class ModuleProcess:
    """A module of relations of one's own, loaded in a process of its own that answers questions one by one.

    A fresh one after a question on which it ended (an exit, a crash) or passed the clock's guard.
    """

    def __init__(self, puzzle: str, path: Path, calls: int) -> None:
        self.puzzle, self.path, self.calls = puzzle, path, calls
        self.connection, self.process = self.start()

    def start(self) -> tuple[Connection, Any]:
        """Start the process and wait until the module is loaded.

        InputError with the module's line when it does not load (or ends its process while loading).
        """
        context: Any = multiprocessing.get_context(executors.start_method())  # typeshed: BaseContext lacks Process
        mine, theirs = context.Pipe()
        process = context.Process(target=serve_module, args=(self.puzzle, str(self.path), self.calls, theirs),
                                  daemon=True)
        process.start()
        theirs.close()
        kind, detail = self.receive(mine, process, GUARD_SECONDS)
        if kind != "loaded":
            self.stop(mine, process)
            raise InputError(detail if kind == "refused" else f"{self.path.name} ended its process while loading "
                             f"(exit code {detail})" if kind == "ended" else f"{self.path.name} did not load within "
                             f"{detail:g} s")
        return mine, process

    @staticmethod
    def receive(connection: Connection, process: Any, seconds: float) -> tuple[str, Any]:
        """The process's next reply.

        ("ended", exit code) when it ended first, ("guard", seconds) when it passed `seconds` of the
        clock (then it is killed).
        """
        try:
            if connection.poll(seconds):
                reply: tuple[str, Any] = connection.recv()
                return reply
        except (EOFError, OSError):  # it ended: its exit code says how
            process.join(seconds)
            return ("ended", process.exitcode)
        process.kill()
        process.join()
        return ("guard", seconds)

    @staticmethod
    def stop(connection: Connection, process: Any) -> None:
        """End the process and close its pipe."""
        connection.close()
        if process.is_alive():
            process.kill()
        process.join()

    def answer(self, question: Any) -> Found:
        """The module's answer to `question`; RulesError when the relation raised, or ended its process."""
        self.connection.send(question)
        kind, detail = self.receive(self.connection, self.process, sandbox.wall_guard(GUARD_SECONDS))
        if kind in ("ended", "guard"):
            self.stop(self.connection, self.process)
            self.connection, self.process = self.start()
            if kind == "guard":
                return stopped(f"{self.path.name} passed the clock's guard of {detail:g} s")
            raise RulesError(f"{self.path.name} ended the process answering it (exit code {detail}): a relation "
                             "must not exit")
        if kind == "error":
            raise RulesError(detail)
        found: Found = detail
        return found

    def close(self) -> None:
        """End the process."""
        self.stop(self.connection, self.process)


# --- grading one submission -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Task:
    """What a worker needs to grade one submission: the puzzle, the submission, the questions, the budgets."""

    puzzle: str
    submission: Submission
    asked: list[Asked]
    calls: int
    speed: float
    examples: int = 0                   # the questions drawn, and their seed: the searches shrinking runs again
    seed: int = SEED
    inferences: int | None = None       # a rule base's budget told (None: the puzzle's, `question_budget`)
    compared: tuple[str, ...] = ()      # pysolve's back ends that answered the questions


def grade_submission(task: Task) -> Grade:
    """Grade one submission (in a worker of the pool).

    Load it, ask it every question in order (no more after MAX_LIMITS ran out of budget), then judge each
    property on its answers.
    """
    puzzle = puzzles.get(task.puzzle)
    interface = puzzle.rules
    assert interface is not None
    submission = task.submission
    names = property_names(interface)
    try:
        answerer, close = load_submission(puzzle, interface, task)
    except BackendUnavailable as error:  # this machine's want, not the student's: no grade at all
        return Grade(submission.student, submission.path.name,
                     {name: Result(NOT_GRADED, note=str(error)) for name in names})
    except PysolveError as error:
        failed = {LOADS: Result(FAIL, note=" ".join(str(error).split()))}
        return Grade(submission.student, submission.path.name,
                     failed | {name: Result(NO_ANSWER, note="did not load") for name in names[1:]})
    try:
        answers = ask_all(puzzle, submission.path.name, answerer, task.asked)
        judged = judge(puzzle, interface, task, answers)
        Shrinker(puzzle, interface, task, answerer, answers).shrink(judged)
    finally:
        close()
    return Grade(submission.student, submission.path.name, {LOADS: Result(PASS), **judged},
                 sum(answer is not None for answer in answers))


def load_submission(puzzle: Puzzle, interface: RulesInterface,
                    task: Task) -> tuple[Callable[[Asked], Found], Callable[[], None]]:
    """The submission as a solver within each question's budget.

    The submission as a solver (a question asked -> Found, within the question's budget: a rule base's
    inferences; a module's calls, the same on every question) and what ends it: a rule base loaded in its
    sandbox child (`check.load_rules`'s checks), or a module in a process of its own.
    """
    path = task.submission.path
    if path.suffix == ".py":
        module = ModuleProcess(puzzle.name, path, task.calls)
        return (lambda item: module.answer(item.question)), module.close
    rule_base = check.load_rules(puzzle, interface, path)
    return (lambda item: interface.ask(rule_base, item.question, GUARD_SECONDS, item.budget)), sandbox.close


def ask_all(puzzle: Puzzle, name: str, answerer: Callable[[Asked], Found],
            asked: list[Asked]) -> list[Answer | str | None]:
    """The submission's answer to each question.

    The submission's answer to each question (the error's line when it raised; None once MAX_LIMITS
    questions ran out of budget).
    """
    answers: list[Answer | str | None] = []
    limits = 0
    for item in asked:
        if limits >= MAX_LIMITS:
            answers.append(None)
            continue
        answer = ask_one(puzzle, name, answerer, item)
        limits += not isinstance(answer, str) and answer.status == UNKNOWN
        answers.append(answer)
    return answers


def ask_one(puzzle: Puzzle, name: str, answerer: Callable[[Asked], Found], item: Asked) -> Answer | str:
    """The submission's answer to one question, as a back end's (timed, shaped); the error's line when it raised."""
    try:
        return puzzle.run(name, lambda question: answerer(item), item.question)
    except (PrologError, RulesError) as error:
        return str(error)


def property_names(interface: RulesInterface) -> list[str]:
    """The properties graded, in order.

    Loads, answers, small cases, the puzzle's rules one by one (or one `rules` column, not graded), counts,
    unsolvable refused, speed. Small cases and every size both compare answers with pysolve's: a class sees
    apart a mistake on the smallest boards and one that only larger ones show.
    """
    return [LOADS, ANSWERS, SMALL, EVERY_SIZE,
            *(rules_module(interface).RULES if interface.properties else [RULES]),
            COUNTS, UNSOLVABLE, SPEEDS]


def rules_module(interface: RulesInterface) -> ModuleType:
    """The module naming the puzzle's rules one by one.

    `RULES`, `broken(question, solution, reference)`, and
    where some questions' answers cannot show a rule broken, `unseen(question)`).
    """
    return importlib.import_module(interface.properties)


def unseen_rules(interface: RulesInterface, question: Any) -> dict[str, str]:
    """The rules no answer to `question` can show broken, with why (a rule never seen is not graded, never passed)."""
    unseen = getattr(rules_module(interface), "unseen", None)
    return unseen(question) if unseen is not None else {}


class Verdicts:
    """One property's verdict on each question it is judged on, in order.

    Its result the share that held and the smallest question that failed.
    """

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        self.held = self.judged = 0
        self.failures: list[tuple[tuple[int, int], Counterexample]] = []

    def add(self, item: Asked, mine: Answer | str | None, message: str | None, shown: int = 0) -> None:
        """Count one question, held or failed.

        Count one question: held when `message` is None, else failed with it (`shown`: the submission's
        solution that shows it).
        """
        self.judged += 1
        if message is None:
            self.held += 1
            return
        self.failures.append(counterexample(self.puzzle, item, mine, message, shown))

    def result(self, nothing: str = "no question to judge it on") -> Result:
        """pass, fail with the smallest counterexample, or no answer (`nothing` says why) when none was judged."""
        if not self.judged:
            return Result(NO_ANSWER, note=nothing)
        if not self.failures:
            return Result(PASS, self.held, self.judged)
        smallest = min(self.failures, key=lambda failure: failure[0])[1]
        return Result(FAIL, self.held, self.judged, smallest.message, smallest)


class Shrinker:
    """Shrinks the counterexample of each property a submission failed, as `pysolve check` shrinks (`check.shrunk`).

    The search that drew it run again, hypothesis asking smaller questions. The questions asked are remembered
    with the submission's verdicts on them; a new one is asked of pysolve's back ends and of the submission
    within its budget, at most SHRINK_QUESTIONS a property and none once MAX_LIMITS questions in all ran out
    of budget (a loop costs a budget each), and remembered for the next property.
    """

    def __init__(self, puzzle: Puzzle, interface: RulesInterface, task: Task, answerer: Callable[[Asked], Found],
                 answers: list[Answer | str | None]) -> None:
        self.puzzle, self.interface, self.task, self.answerer = puzzle, interface, task, answerer
        self.smallest_size = min(item.size for item in task.asked)
        self.searches = class_searches(interface, task.examples)
        self.asked: dict[str, tuple[Asked, Answer | str | None]] = {}
        self.verdicts: dict[str, dict[str, tuple[str | None, int]]] = {}  # key -> property -> question_verdicts
        for item, mine in zip(task.asked, answers):
            self.remember(item, mine)
        self.limits = sum(isinstance(mine, Answer) and mine.status == UNKNOWN for mine in answers)
        self.steps = 0  # new questions asked shrinking the property at hand

    def remember(self, item: Asked, mine: Answer | str | None) -> None:
        """Keep a question asked, the submission's answer and its verdicts."""
        key = question_key(self.puzzle, item.question)
        self.asked[key] = (item, mine)
        self.verdicts[key] = question_verdicts(self.puzzle, self.interface, item, mine, self.smallest_size)

    def shrink(self, results: dict[str, Result]) -> None:
        """Shrink each failed property's counterexample.

        Each failed property's counterexample (speed's aside: it is judged on the largest size in all)
        replaced by the smallest question found that still fails it, when that is smaller.
        """
        hypothesis = check.import_hypothesis()
        for name, result in results.items():
            failing = [item for item in self.task.asked if self.failed(name, item.question)]
            if name == SPEEDS or result.status != FAIL or result.counterexample is None or not failing:
                continue
            index = min(item.search for item in failing)
            first = next(item for item in failing if item.search == index)
            self.steps = 0
            smallest = check.shrunk(hypothesis, self.searches[index], first.question,
                                    functools.partial(self.fails, name, search=index), self.task.seed)
            item, mine = self.asked[question_key(self.puzzle, smallest)]
            message, shown = self.verdicts[question_key(self.puzzle, smallest)][name]
            assert message is not None  # hypothesis returns a question that fails
            size, found = counterexample(self.puzzle, item, mine, message, shown)
            was = self.asked[json.dumps(result.counterexample.question, sort_keys=True)][0]
            if size < (was.size, len(json.dumps(result.counterexample.question))):
                found.shrinks = self.steps
                result.counterexample, result.note = found, message

    def failed(self, name: str, question: Any) -> bool:
        """True when the submission failed property `name` on `question`, as remembered."""
        return self.verdicts.get(question_key(self.puzzle, question), {}).get(name, (None, 0))[0] is not None

    def fails(self, name: str, question: Any, search: int) -> bool:
        """True when the submission fails property `name` on `question` (hypothesis's condition).

        Remembered, else asked now while the budget lasts (False past it, or where pysolve's back ends do
        not answer it alike).
        """
        key = question_key(self.puzzle, question)
        if key not in self.verdicts:
            if self.steps >= SHRINK_QUESTIONS or self.limits >= MAX_LIMITS:
                return False
            self.steps += 1
            task = self.task
            item = asked_of(self.puzzle, self.interface, question, self.searches[search].size, search, task.compared,
                            task.inferences)
            if item is None:
                self.verdicts[key] = {}
                return False
            mine = ask_one(self.puzzle, task.submission.path.name, self.answerer, item)
            self.limits += isinstance(mine, Answer) and mine.status == UNKNOWN
            self.remember(item, mine)
        return self.failed(name, question)


def counterexample(puzzle: Puzzle, item: Asked, mine: Answer | str | None, message: str,
                   shown: int = 0) -> tuple[tuple[int, int], Counterexample]:
    """A question that fails a property as a counterexample, with how large it is.

    Its size, then the length of its description (the smallest of a property's is shown).
    """
    question = puzzle.describe(item.question)
    return ((item.size, len(json.dumps(question))),
            Counterexample(question, message, mine if isinstance(mine, Answer) else None, item.reference, shown))


def no_answer_words(mine: Answer | str | None) -> str:
    """Why there is no answer: the error's line, the limit's reason, or that it was not asked."""
    if mine is None:
        return f"not asked: {MAX_LIMITS} questions before ran out of budget"
    if isinstance(mine, str):
        return mine
    return mine.reason


def judge(puzzle: Puzzle, interface: RulesInterface, task: Task, answers: list[Answer | str | None]
          ) -> dict[str, Result]:
    """Each property after loads, judged on the submission's answers to the questions asked."""
    smallest_size, largest_size = min(item.size for item in task.asked), max(item.size for item in task.asked)
    rule_names = list(rules_module(interface).RULES) if interface.properties else []
    verdicts = {name: Verdicts(puzzle) for name in [ANSWERS, SMALL, EVERY_SIZE, *rule_names, COUNTS, UNSOLVABLE]}
    unseen: dict[str, str] = {}  # rule -> why some question's answers cannot show it broken
    for item, mine in zip(task.asked, answers):
        for name, (message, shown) in question_verdicts(puzzle, interface, item, mine, smallest_size).items():
            verdicts[name].add(item, mine, message, shown)
        if rule_names and isinstance(mine, Answer) and mine.solutions:
            unseen |= unseen_rules(interface, item.question)
    results = {name: verdicts[name].result() for name in (ANSWERS, SMALL, EVERY_SIZE)}
    if rule_names:
        results |= {name: Result(NOT_GRADED, note=unseen[name]) if name in unseen and not verdicts[name].judged
                    else verdicts[name].result("no solution given to judge it on") for name in rule_names}
    else:
        results[RULES] = Result(NOT_GRADED, note=f"{puzzle.name} names no rules to grade one by one")
    if any(item.reference.count is not None for item in task.asked):
        results[COUNTS] = verdicts[COUNTS].result()
    else:
        results[COUNTS] = Result(NOT_GRADED, note=f"{puzzle.name}'s questions count no solutions")
    if not any(item.reference.status == NO_SOLUTION for item in task.asked):
        results[UNSOLVABLE] = Result(NOT_GRADED, note="no question without a solution was drawn")
    else:
        results[UNSOLVABLE] = verdicts[UNSOLVABLE].result()
    results[SPEEDS] = speed(puzzle, task, answers, largest_size)
    return results


def question_verdicts(puzzle: Puzzle, interface: RulesInterface, item: Asked, mine: Answer | str | None,
                      smallest_size: int) -> dict[str, tuple[str | None, int]]:
    """Each property judged on one question, but speed.

    None when it held there, else why it failed, and which of the submission's solutions shows it (rules
    broken).
    """
    answered = isinstance(mine, Answer) and mine.status != UNKNOWN
    agrees = agreement(puzzle, mine, item) if answered else no_answer_words(mine)
    found = {ANSWERS: (None if answered else no_answer_words(mine), 0), EVERY_SIZE: (agrees, 0)}
    if item.size == smallest_size:
        found[SMALL] = (agrees, 0)
    if not isinstance(mine, Answer) or not answered:
        return found
    if item.reference.status == NO_SOLUTION:
        found[UNSOLVABLE] = (None if mine.status == NO_SOLUTION else
                             f"gave {len(mine.solutions)} solution(s) where there is none", 0)
    elif item.reference.count is not None:
        found[COUNTS] = (None if mine.count == item.reference.count else
                         f"counted {mine.count} solution(s), pysolve {item.reference.count}", 0)
    if interface.properties and mine.solutions:
        broken = broken_rules(interface, item, mine.solutions)
        hidden = unseen_rules(interface, item.question)
        for name in rules_module(interface).RULES:
            if name not in hidden:
                shown, why = broken.get(name, (0, None))
                found[name] = (why, shown)
    return found


def agreement(puzzle: Puzzle, mine: Answer | str | None, item: Asked) -> str | None:
    """Where the submission's answer and pysolve's part (`first_disagreement`'s words), or None."""
    assert isinstance(mine, Answer)
    return first_disagreement(puzzle, {mine.backend: mine, **item.references})


def broken_rules(interface: RulesInterface, item: Asked, solutions: list[Any]) -> dict[str, tuple[int, str]]:
    """Each rule some solution breaks.

    The first solution that breaks it (its index) and how (its number too when there are several).
    """
    found: dict[str, tuple[int, str]] = {}
    for index, solution in enumerate(solutions):
        for name, why in rules_module(interface).broken(item.question, solution, item.reference).items():
            found.setdefault(name, (index, why if len(solutions) == 1 else f"solution {index + 1}: {why}"))
    return found


def speed(puzzle: Puzzle, task: Task, answers: list[Answer | str | None], largest_size: int) -> Result:
    """The speed property: inferences within the task's factor of pysolve's own.

    Within the task's speed factor times pysolve's own rule base's inferences on the questions of the largest
    size (a rule base that ran out of its budget there is slower): the total, and each question's ratio. Not
    graded for a module of relations, or without SWI-Prolog, where nothing counts pysolve's work the same way.
    """
    if task.submission.path.suffix != ".pl":
        return Result(NOT_GRADED, note="speed is graded in Prolog inferences; a module of relations counts calls")
    verdicts = Verdicts(puzzle)
    mine_total = theirs_total = 0
    for item, mine in zip(task.asked, answers):
        if item.size != largest_size or item.inferences is None or not isinstance(mine, Answer):
            continue
        took = mine.stats.get("inferences", 0)
        limit = f"{words.ratio(task.speed)} pysolve's {item.inferences:,} inferences"
        if mine.status == UNKNOWN:
            verdicts.add(item, mine, f"ran out of its budget ({mine.reason}); past {limit}")
            took = item.budget
        else:
            verdicts.add(item, mine, None if took <= task.speed * max(item.inferences, 1) else
                         f"took {took:,} inferences, past {limit}")
        mine_total += took
        theirs_total += item.inferences
    result = verdicts.result("no question of the largest size answered")
    if result.status == FAIL and mine_total <= task.speed * max(theirs_total, 1):
        result.status = PASS  # slow on some questions, within the bound on the largest size in all
    if verdicts.judged:
        result.note = (f"{words.ratio(mine_total / max(theirs_total, 1))} pysolve's inferences on the largest size in "
                       "all") + (f"; {result.note}" if result.note else "")
    return result


# --- the class --------------------------------------------------------------------------------------------------


def grade(puzzle: PuzzleLike, folder: str | os.PathLike[str], examples: int = EXAMPLES, seed: int = SEED,
          workers: int | str = executors.AUTO, only: str | None = None, inferences: int | None = None,
          calls: int = CALLS, speed_factor: float | None = None) -> ClassReport:
    """Grade every submission in `folder` on the same questions.

    Grade every submission in `folder` (only the student `only`, when given) on the same `examples` questions
    of `puzzle` drawn from `seed`, each within `inferences` (a rule base; by default the puzzle's budget,
    `question_budget`) or `calls` (a module of relations) per question, on `workers` processes; speed within
    `speed_factor` times pysolve's own rule base (by default the puzzle's, RulesInterface.speed). Raises before
    any question: UnknownName for a puzzle without a rules interface, a missing folder or an unknown student;
    InputError for an empty folder or a budget below 1.
    """
    chosen = get_puzzle(puzzle)
    interface = check.interface_of(chosen)
    speed_factor = interface.speed if speed_factor is None else speed_factor
    if examples < 1:
        raise InputError(f"--examples {examples}: a grade asks at least one question")
    if min(INFERENCES if inferences is None else inferences, calls) < 1 or speed_factor <= 0:
        raise InputError("the budgets (inferences, calls) and the speed factor must be above 0")
    found = submissions(folder, chosen.name)
    if only is not None:
        found = [submission for submission in found if submission.student == only]
        if not found:
            raise UnknownName(f"no submission of {excerpt(only)} in {os.fspath(folder)}")
    compared = check.compared_backends()
    with executors.executor(executors.useful_workers(workers, len(found))) as pool:  # forked before Prolog starts
        asked = answered_by_pysolve(chosen, interface, draw_questions(chosen, interface, examples, seed),
                                    class_searches(interface, examples), compared, inferences)
        tasks = [Task(chosen.name, submission, asked, calls, speed_factor, examples, seed, inferences, compared)
                 for submission in found]
        grades = list(pool.map(grade_submission, tasks)) if pool is not None else list(map(grade_submission, tasks))
    return ClassReport(chosen.name, seed, examples, len(asked), interface.sizes, compared,
                       property_names(interface), grades)


# --- the outputs ------------------------------------------------------------------------------------------------


def merged_csv(path: str | os.PathLike[str], report: ClassReport) -> str:
    """The CSV at `path` with the graded students' rows replaced.

    The CSV at `path` with the rows of the students `report` graded replaced (added when new), the others
    kept as they were: what `--rerun STUDENT` writes. The report's own CSV when there is no such file.
    """
    if not os.path.isfile(path):
        return report.to_csv()
    with open(path, encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    header, *kept = rows or [[]]
    if header != report.csv_rows()[0]:
        raise InputError(f"--report {os.fspath(path)}: its columns are not {report.puzzle}'s properties; "
                         "grade the whole class again")
    new = {row[0]: row for row in report.csv_rows()[1:]}
    merged = [new.pop(row[0], row) for row in kept] + list(new.values())
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([header, *sorted(merged, key=lambda row: row[0])])
    return out.getvalue()


STATUS_COLOURS = {PASS: "#cdeccd", FAIL: "#f6c9c4", NO_ANSWER: "#f3e2b3", NOT_GRADED: "#e4e4e4"}
STYLE = """body{font-family:sans-serif;margin:24px;color:#222}table{border-collapse:collapse}
td,th{border:1px solid #bbb;padding:4px 8px;font-size:13px;text-align:center}th{background:#f0f0f0}
td.student{text-align:left;font-weight:bold}.histograms{display:flex;flex-wrap:wrap;gap:12px}
.histogram{border:1px solid #ddd;padding:6px}.pictures{display:flex;gap:16px;align-items:flex-start}
.pictures figure{margin:0}.pictures svg{max-width:220px;height:auto}figcaption{font-size:12px;color:#555}
pre{background:#f6f6f6;padding:6px;font-size:12px;white-space:pre-wrap}h3{margin-top:28px}
.note{font-size:12px;color:#555}"""


def to_html(report: ClassReport, puzzle: PuzzleLike | None = None) -> str:
    """The class report as one self-contained HTML page (inline CSS and SVG, no link out).

    How the class was asked, the overview table (a row per student, a cell per property), a histogram per
    property (the share of questions on which it held, over the class), and each student's failures with their
    smallest counterexample drawn (the board, the submission's answer and pysolve's).
    """
    chosen = get_puzzle(puzzle or report.puzzle)
    head = (f"<h1>{html.escape(report.puzzle)}: {len(report.grades)} submissions graded</h1>"
            f"<p>{report.questions} questions, the same for everybody (seed {report.seed}, sizes "
            f"{', '.join(map(str, report.sizes))}), compared with {' and '.join(report.compared)}.</p>")
    return ("<!DOCTYPE html><html><head><meta charset='utf-8'><title>pysolve grade "
            f"{html.escape(report.puzzle)}</title><style>{STYLE}</style></head><body>{head}"
            f"<h2>Overview</h2>{overview_table(report)}<h2>Each property over the class</h2>"
            f"<div class='histograms'>{''.join(histogram(report, name) for name in report.properties)}</div>"
            f"<h2>Each student</h2>{''.join(student_section(chosen, grade) for grade in report.grades)}"
            "</body></html>\n")


def overview_table(report: ClassReport) -> str:
    """A row per student, a cell per property coloured by its result, linking to the student's section."""
    header = "".join(f"<th>{html.escape(name)}</th>" for name in report.properties)
    rows = []
    for grade in report.grades:
        cells = "".join(f"<td style='background:{STATUS_COLOURS[result.status]}' title='{html.escape(result.note)}'>"
                        f"{html.escape(result.cell())}</td>" for result in grade.results.values())
        rows.append(f"<tr><td class='student'><a href='#{anchor(grade.student)}'>{html.escape(grade.student)}</a>"
                    f"</td>{cells}</tr>")
    return f"<table><tr><th>student</th>{header}</tr>{''.join(rows)}</table>"


def anchor(student: str) -> str:
    """The id of a student's section."""
    return "student-" + "".join(char if char.isalnum() else "-" for char in student)


def histogram(report: ClassReport, name: str, width: int = 280, height: int = 140) -> str:
    """An inline SVG histogram of one property.

    How many students it held for on 0-20 %, ..., 80-100 % of the questions judged (loads: 100 % or 0 %), and
    beside them how many gave nothing to judge or were not graded.
    """
    bins = ["0-20", "20-40", "40-60", "60-80", "80-100", "none", "n/g"]
    counts = dict.fromkeys(bins, 0)
    for grade in report.grades:
        result = grade.results[name]
        if result.status == NOT_GRADED:
            counts["n/g"] += 1
        elif result.judged:
            counts[bins[min(4, int(5 * result.held / result.judged))]] += 1
        elif result.status in (PASS, FAIL):  # judged once, not on questions: loads
            counts[bins[4 if result.status == PASS else 0]] += 1
        else:
            counts["none"] += 1
    most = max(max(counts.values()), 1)
    bar, top, bottom = (width - 20) / len(bins), 34, height - 30
    shapes = []
    for index, label in enumerate(bins):
        tall = (bottom - top) * counts[label] / most
        x = 10 + index * bar
        colour = "#7fbf7f" if label == "80-100" else "#c8c8c8" if label in ("none", "n/g") else "#e8a09a"
        shapes.append(f"<rect x='{x + 3:.1f}' y='{bottom - tall:.1f}' width='{bar - 6:.1f}' height='{tall:.1f}' "
                      f"fill='{colour}'/><text x='{x + bar / 2:.1f}' y='{bottom + 12}' font-size='9' "
                      f"text-anchor='middle'>{label}</text><text x='{x + bar / 2:.1f}' y='{bottom - tall - 3:.1f}' "
                      f"font-size='10' text-anchor='middle'>{counts[label]}</text>")
    return (f"<div class='histogram'><svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' "
            f"viewBox='0 0 {width} {height}'><text x='{width / 2}' y='14' font-size='13' text-anchor='middle' "
            f"font-weight='bold'>{html.escape(name)}</text>{''.join(shapes)}<text x='{width / 2}' y='{height - 4}' "
            "font-size='9' fill='#555' text-anchor='middle'>students by % of questions held</text></svg></div>")


def student_section(puzzle: Puzzle, grade: Grade) -> str:
    """A student's section: what failed, each with its message and its smallest counterexample drawn."""
    parts = [f"<h3 id='{anchor(grade.student)}'>{html.escape(grade.student)} <span class='note'>"
             f"({html.escape(grade.file)})</span></h3>", f"<p>{html.escape(grade.line())}</p>"]
    for name in grade.failed:
        result = grade.results[name]
        parts.append(f"<h4>{html.escape(name)}: {html.escape(result.cell())}</h4>"
                     f"<p>{html.escape(result.note)}</p>")
        if result.counterexample is not None:
            if result.counterexample.shrinks:
                asked = words.plural(result.counterexample.shrinks, "new question")
                parts.append(f"<p class='note'>shrunk asking {asked}</p>")
            parts.append(drawn(puzzle, result.counterexample))
    return "".join(parts)


def drawn(puzzle: Puzzle, example: Counterexample) -> str:
    """A counterexample drawn.

    The board asked, the submission's (first) answer and pysolve's, as SVG where the puzzle draws boards
    (`svg(rows, puzzle)`), else as text.
    """
    figures = []
    board = example.reference.question.get("puzzle")
    answers = [("the submission", example.mine, example.shown), ("pysolve", example.reference, 0)]
    if hasattr(puzzle, "svg") and board is not None:
        figures.append(("asked", puzzle.svg(board, board)))
        for who, answer, shown in answers:
            if answer is not None and answer.solutions:
                more = f" ({shown + 1} of {len(answer.solutions)})" if len(answer.solutions) > 1 else ""
                figures.append((f"{who}{more}", puzzle.svg(answer.solutions[shown], board)))
            else:
                figures.append((who, f"<pre>{html.escape(answer_words(answer))}</pre>"))
    else:
        figures += [(who, f"<pre>{html.escape(puzzle.render(answer) if answer else 'no answer')}</pre>")
                    for who, answer, _ in answers]
    return "<div class='pictures'>" + "".join(f"<figure>{picture}<figcaption>{html.escape(caption)}</figcaption>"
                                              "</figure>" for caption, picture in figures) + "</div>"


def answer_words(answer: Answer | None) -> str:
    """An answer with no solution to draw, in words."""
    if answer is None:
        return "no answer"
    return "no solution" if answer.status == NO_SOLUTION else answer.status
