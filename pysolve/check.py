"""`pysolve check PUZZLE FILE.pl`.

A rule base of one's own asked the random questions pysolve's back ends answer.

The rule base defines the puzzle's rules interface (`Puzzle.rules`, e.g.
`hidato(+Board, -Solution) is nondet`) and nothing else: no Python adapter.
A Python module of miniKanren relations (`FILE.py`, defining e.g.
`hidatoo(board, solution)`; pysolve.relations) is checked the same way, and
needs no SWI-Prolog: with Prolog hidden it is compared with pysolve's
miniKanren and Python back ends.
A solver of one's own in Python (a function question -> pysolve.Found, or a
pysolve.RuleBase) is checked the same way from the API and the pytest plugin
(`assert_solver_agrees(puzzle, f, examples=N)`).
A .pl rule base runs in a child process of its own (pysolve.sandbox), never
in pysolve's engine: one that halts, aborts, crashes or starts a process on
a question is an error on that question (the next one gets a fresh child),
one that halts while loading is refused with one line, and one whose stacks
overflow passed a memory limit, not a time limit.
Hypothesis draws the questions (the puzzle's `instances` module) and, at
the first question where the rule base's canonical answer differs from
pysolve's Prolog and Python back ends' (`compared_backends`), shrinks it
to the smallest one that still differs; the first question on which the
rule base raised an error or ran out of time or memory is shrunk the same
way, to the smallest that still does so alike. With `workers`, the
questions a search will draw (drawn first, none asked: hypothesis draws the
same while no answer disagrees) are answered ahead on a pool of processes, a
few at a time in the order drawn, each with the rule base loaded there (a
.pl file in a child process of each worker's own); the search then runs
here on those answers, and any shrinking asks here, one question at a time,
as without workers: the same seed gives the same report. With `workers`
"auto" each search's first questions are asked here (`executors.Trial`)
and the pool starts only once the questions left would pay for its start
(`CheckReport.serially` says why it never did). The report counts the
questions tried and agreed, lists the goals on which the rule base raised
an error or ran out of time or memory, times it against pysolve's Prolog,
and writes the smallest disagreement as an instance file that `pysolve
solve` reads (or, for one it refuses, the `pysolve query` that asks
pysolve's rules), both answers in its comments; where the puzzle draws
them apart (squares, tangram), two solutions that differ are drawn side by
side in the report, what differs marked.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import json
import os
import random
import re
import statistics
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Executor, Future
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from pysolve import backends, bridge, cache, executors, files, puzzles, relations, sandbox, words
from pysolve.agreement import first_disagreement
from pysolve.answers import NO_SOLUTION, SOLVED, UNKNOWN, Answer, Found, Words
from pysolve.api import PuzzleLike, get_puzzle
from pysolve.bounded import call_bounded
from pysolve.errors import BackendUnavailable, InputError, PrologError, PysolveError, UnknownName
from pysolve.puzzle import Puzzle, Solver
from pysolve.rules import RulesError, RulesInterface

EXAMPLES = 50          # random questions asked unless told
MOST_EXAMPLES = 100_000  # the most `pysolve check --examples` takes: hours at a rule base's usual speed
SECONDS = 5.0          # each back end's time limit per question, the rule base's included
LIMIT = 10             # every question counts solutions up to this many (then "at least 10")
SHRINK_SECONDS = 60.0  # shrinking stops here and reports the smallest disagreement found so far
MAX_TIME_OUTS = 5      # the check stops after this many time-outs and memory limits (a loop costs --seconds each)
IMPOSSIBLE = 4         # one question in this many asks an instance with no solution (where the puzzle draws such)
REFERENCE = ("prolog", "python")  # pysolve's back ends the rule base is compared with...
WITHOUT_PROLOG = ("kanren", "python")  # ...and with SWI-Prolog missing or hidden (a module of relations)
class CheckVerdict(Words):
    """A check's verdict on a rule base of one's own: it agrees, disagrees, raised errors, or none was reached."""

    AGREE = "agree"
    DISAGREE = "disagree"
    ERRORS = "errors"
    UNDECIDED = "unknown"

    @property
    def headline(self) -> str:
        """The verdict as the report's first line says it: AGREE, DISAGREEMENT, ERRORS or NO VERDICT."""
        return {"agree": "AGREE", "disagree": "DISAGREEMENT", "errors": "ERRORS", "unknown": "NO VERDICT"}[self.value]


AGREE, DISAGREE, ERRORS, UNDECIDED = CheckVerdict
ERROR, TIME_OUT, MEMORY_LIMIT = "error", "time-out", "memory limit"  # how the rules failed a question
TERMS = re.compile(r"\"[^\"]*\"|'[^']*'|`[^`']*'|\[.*\]|\(.*?\)|\d+")  # an error's data: quoted, bracketed, numbers
GAP = "    "  # between boards drawn side by side
EXTRA = "pip install 'pysolve[check]'"  # what installs hypothesis


@dataclass
class Finding:
    """A question the rule base gave no answer to.

    The goal, and the error or the limit it passed (a halt, a crash or a refused process is an error, in
    the one-line verdict of pysolve.sandbox).
    """

    goal: str
    message: str

    def to_json(self) -> dict[str, str]:
        """The finding as JSON."""
        return {"goal": self.goal, "message": self.message}


@dataclass
class SmallestFinding(Finding):
    """The smallest question found on which the rule base still fails as it first failed.

    An ERROR of the same words (its data aside: `failure`), a TIME_OUT or a MEMORY_LIMIT.
    """

    kind: str = ERROR
    shrinks: int = 0  # questions asked while shrinking

    def to_json(self) -> dict[str, Any]:
        """The finding as JSON, with its kind and the questions shrinking asked."""
        return {**super().to_json(), "kind": self.kind, "shrinks": self.shrinks}


@dataclass
class Disagreement:
    """The smallest question found on which the rule base and pysolve part: the answers and where they part."""

    question: Any
    goal: str
    difference: str
    answers: dict[str, Answer]
    text: str = ""      # the instance file: the board, both answers in comments
    file: str = ""      # where it was written ("" when it was not)
    shrinks: int = 0    # questions asked while shrinking
    drawn: str = ""     # two solutions that differ side by side, what differs marked ("" where the puzzle draws none)
    refused: str = ""   # why `pysolve solve` refuses the instance ("" when it reads it)
    again: str = ""     # the command that asks pysolve the question again: `pysolve solve`, or `pysolve query`

    def to_json(self) -> dict[str, Any]:
        """The disagreement as JSON, each answer as `pysolve solve --json` gives it."""
        return {"goal": self.goal, "difference": self.difference, "file": self.file or None, "shrinks": self.shrinks,
                "answers": {name: answer.to_json() for name, answer in self.answers.items()}, "text": self.text,
                "drawn": self.drawn or None, "refused": self.refused or None, "again": self.again}


@dataclass
class CheckReport:
    """What a check found.

    Questions tried and agreed, errors, time-outs and memory limits with their goals, the
    smallest disagreement, the rule base's time against pysolve's Prolog, and what it printed.
    """

    puzzle: str
    rules: str
    predicate: str
    seed: int
    examples: int
    max_size: int
    seconds: float
    tried: int = 0
    agreed: int = 0
    not_compared: int = 0  # questions pysolve's own back ends did not answer in time
    unsolvable: int = 0    # questions compared that have no solution, as pysolve's back ends answer them
    repeated: int = 0      # questions hypothesis drew again while generating (each is asked once)
    errors: list[Finding] = field(default_factory=list)
    time_outs: list[Finding] = field(default_factory=list)
    memory_limits: list[Finding] = field(default_factory=list)  # its stacks overflowed: no answer, and no loop
    printed: sandbox.Printed = field(default_factory=sandbox.Printed)  # bytes the rules printed (not shown)
    disagreement: Disagreement | None = None
    smallest_finding: SmallestFinding | None = None  # the first error, time-out or memory limit, shrunk
    times: dict[str, float] = field(default_factory=dict)  # back end -> seconds over the questions all answered
    ratios: list[float] = field(default_factory=list)      # per such question: the rule base's time / Prolog's
    stopped: str = ""  # why the check ended before `examples` questions ("" when it did not)
    compared: tuple[str, ...] = REFERENCE  # pysolve's back ends the rules were compared with
    sizes: tuple[int, ...] = ()  # the sizes the questions grew through, up to max_size
    serially: str = field(default="", compare=False)  # why --workers auto asked every question here ("": it did not)

    @property
    def verdict(self) -> CheckVerdict:
        """The check's verdict in one word.

        DISAGREE, ERRORS (the rule base raised errors, halted, crashed...), UNDECIDED (only time-outs and
        memory limits, or nothing compared) or AGREE.
        """
        if self.disagreement is not None:
            return DISAGREE
        if self.errors:
            return ERRORS
        return UNDECIDED if self.time_outs or self.memory_limits or not self.agreed else AGREE

    @property
    def ratio(self) -> float | None:
        """The rule base's time over pysolve's Prolog's, on the questions every back end answered."""
        mine, prolog = self.times.get(self.rules), self.times.get("prolog")
        return mine / prolog if mine is not None and prolog else None

    def summary(self) -> str:
        """One line: the verdict and the counts."""
        counts = (f"{self.tried} tried, {self.agreed} agreed, {words.plural(len(self.errors), 'error')}, "
                  f"{words.plural(len(self.time_outs), 'time-out')}")
        if self.memory_limits:
            counts += f", {words.plural(len(self.memory_limits), 'memory limit')}"
        return f"{self.verdict.headline}: {self.rules} on {self.puzzle} questions: {counts}"

    def fewer_words(self) -> str:
        """Why fewer than `examples` questions were tried when neither a disagreement nor time-outs stopped the check.

        Hypothesis drew some again, and ran out of new ones where the sizes hold fewer.
        """
        reasons = []
        if self.repeated:
            reasons.append(f"{words.plural(self.repeated, 'question')} drawn again (each is asked once)")
        left = self.examples - self.tried - self.repeated
        if left > 0:
            reasons.append(f"{left} not drawn (hypothesis found no new questions up to --max-size {self.max_size})")
        return "; ".join(reasons)

    def lines(self) -> list[str]:
        """The report as text: the summary, how it was asked, the disagreement, the findings and the times."""
        grown = f" (grown through {', '.join(map(str, self.sizes))})" if len(self.sizes) > 1 else ""
        asked = (f"seed {self.seed}, up to {self.examples} random questions, --max-size {self.max_size}{grown}, "
                 f"{words.seconds(self.seconds)} each, {self.predicate}")
        lines = [self.summary(), f"  asked: {asked}", f"  compared with: {' and '.join(self.compared)}"]
        if self.stopped:
            lines.append(f"  stopped: {self.stopped}")
        elif self.tried < self.examples and self.disagreement is None:
            lines.append(f"  fewer than {self.examples}: {self.fewer_words()}")
        if self.unsolvable:
            lines.append(f"  no solution: {words.plural(self.unsolvable, 'question')} compared (the goal must fail "
                         "there)")
        if self.not_compared:
            lines.append(f"  not compared: {words.plural(self.not_compared, 'question')} pysolve's own back ends "
                         "did not answer in time")
        lines += disagreement_lines(self.disagreement) + smallest_finding_lines(self.smallest_finding)
        lines += finding_lines("error", self.errors) + finding_lines("time-out", self.time_outs)
        lines += finding_lines("memory limit", self.memory_limits)
        if self.printed:
            lines.append(f"  printed: {self.printed.words()}")
        lines += time_lines(self)
        return lines

    def to_json(self) -> dict[str, Any]:
        """The whole report as one JSON object (`pysolve check --json`: what a grader reads)."""
        return {"puzzle": self.puzzle, "rules": self.rules, "predicate": self.predicate, "verdict": self.verdict,
                "summary": self.summary(), "seed": self.seed, "examples": self.examples, "max_size": self.max_size,
                "sizes": list(self.sizes),
                "seconds": self.seconds, "compared": list(self.compared), "tried": self.tried, "agreed": self.agreed,
                "not_compared": self.not_compared, "unsolvable": self.unsolvable, "repeated": self.repeated,
                "stopped": self.stopped or None,
                "errors": [finding.to_json() for finding in self.errors],
                "time_outs": [finding.to_json() for finding in self.time_outs],
                "memory_limits": [finding.to_json() for finding in self.memory_limits],
                "printed": self.printed.to_json(),
                "disagreement": self.disagreement.to_json() if self.disagreement else None,
                "smallest_finding": self.smallest_finding.to_json() if self.smallest_finding else None,
                "times": {name: round(seconds, 6) for name, seconds in self.times.items()},
                "ratio_to_prolog": round(self.ratio, 3) if self.ratio is not None else None,
                "median_ratio_to_prolog": round(statistics.median(self.ratios), 3) if self.ratios else None}


def disagreement_lines(found: Disagreement | None) -> list[str]:
    """The disagreement in the report.

    Where the answers part, the goal, two solutions that differ drawn apart (where the puzzle draws them),
    and the instance: its file's board when a file was written (its comments hold every answer), else the
    whole text, answers and all.
    """
    if found is None:
        return []
    lines = [f"  smallest disagreement (shrunk in {words.plural(found.shrinks, 'step')}): {found.difference}",
             f"    goal: {found.goal}", *("    " + line for line in found.drawn.splitlines())]
    if found.file and found.refused:
        lines += [f"    written to {found.file} (its comments hold every answer)",
                  f"    pysolve solve refuses it ({found.refused}); ask pysolve's rules instead: {found.again}"]
    elif found.file:
        lines.append(f"    written to {found.file} (pysolve solve reads it; its comments hold every answer)")
    shown = [line for line in found.text.splitlines() if not (found.file and line.startswith("#"))]
    return lines + ["    " + line for line in shown]


def smallest_finding_lines(found: SmallestFinding | None) -> list[str]:
    """The first error, time-out or memory limit, shrunk: its message and its goal."""
    if found is None:
        return []
    return [f"  smallest {found.kind} (shrunk in {words.plural(found.shrinks, 'step')}): {found.message}",
            f"    goal: {found.goal}"]


def finding_lines(kind: str, findings: list[Finding], shown: int = 3) -> list[str]:
    """The first `shown` errors, time-outs or memory limits, each with the goal that caused it."""
    lines = [f"  {kind}: {finding.message}\n    goal: {finding.goal}" for finding in findings[:shown]]
    if len(findings) > shown:
        lines.append(f"  ... and {len(findings) - shown} more {kind}s (all in the JSON report: --json, or "
                     "CheckReport.to_json())")
    return lines


def time_lines(report: CheckReport) -> list[str]:
    """The seconds each back end took on the questions all answered, and the rule base's ratio to Prolog's."""
    if report.ratio is None:
        return []
    took = ", ".join(f"{name} {words.seconds(seconds)}" for name, seconds in report.times.items())
    median = statistics.median(report.ratios)
    lines = [f"  time: {took}; {report.rules} / prolog: {words.ratio(report.ratio)} in all, {words.ratio(median)} per "
             "question (median)"]
    if report.time_outs:
        lines.append(f"    not counted: {report.rules}'s {words.plural(len(report.time_outs), 'time-out')}, each "
                     f"past {words.seconds(report.seconds)} (slower there than any time above)")
    return lines


# --- the check ----------------------------------------------------------------------------------------------


def check(puzzle: PuzzleLike, rules: str | os.PathLike[str] | Solver, examples: int = EXAMPLES,
          seed: int | None = None, max_size: int | None = None, seconds: float = SECONDS,
          out: str | os.PathLike[str] | None = None, shrink_seconds: float = SHRINK_SECONDS,
          workers: int | str = 1) -> CheckReport:
    """Check rules of one's own against pysolve's back ends on generated questions.

    Ask the rule base file `rules` (a .pl file, a .py module of relations, or a solver of one's own in Python:
    question -> Found, stopped past `seconds` of its CPU time as the back ends are) and pysolve's Prolog and Python
    back ends (miniKanren and Python without Prolog) the same random questions of `puzzle`, at most `examples`
    of them (boards up to `max_size`, each back end `seconds` per question), and shrink the first
    disagreement; `out` names the instance file to write it to. With `workers` processes ("auto": one per
    core), the questions of a .pl or .py file are answered ahead there (the module's docstring says how), the
    report the same as without. Raises a PysolveError, before any question, when hypothesis (or SWI-Prolog,
    for a .pl file) is missing, the file is missing or does not load cleanly, or it does not define the
    puzzle's interface predicate (or relation).
    """
    chosen = get_puzzle(puzzle)
    interface = interface_of(chosen)
    size = checked_size(interface, max_size)
    if examples < 1:
        raise InputError(f"--examples {examples}: a check asks at least one question")
    executors.check_workers(workers)
    if workers != 1 and not isinstance(rules, (str, os.PathLike)):
        raise InputError("workers: a solver of one's own in Python is checked in this process; only a .pl or .py "
                         "file is checked on workers")
    hypothesis = import_hypothesis()
    own = load_own(chosen, interface, rules)
    if out is not None:
        files.check_output(out, "--out")
    seed = random.SystemRandom().randrange(2**31) if seed is None else seed
    report = CheckReport(chosen.name, own.name, own.head, seed, examples, size, seconds,
                         sizes=interface.sizes_up_to(max_size), compared=compared_backends())
    strategies = interface.strategies()
    for name in chosen.offers:  # loaded before any draw, as asking loads them: see `drawn`
        chosen.backend_module(name)
    asker = Asker(chosen, own, report, shrink_seconds)
    path = os.fspath(rules) if isinstance(rules, (str, os.PathLike)) else ""  # "": a solver, asked here
    warm = (own_in_worker, chosen.name, path) if path else ()
    processes = executors.useful_workers(workers, examples)
    trying = workers == executors.AUTO and bool(path) and processes > 1  # a trial here first: `Asker.answer_here`
    with contextlib.ExitStack() as stack:
        pool = None if trying else stack.enter_context(executors.executor(workers, warm=warm))
        smallest, tried = None, []
        for search in searches(strategies, report.sizes, examples, seconds):
            asker.search = search
            if pool is not None or trying:
                questions = [question for question in drawn(hypothesis, search, seed)
                             if asker.key(question) not in asker.verdicts]
                answered = {}
                if pool is None:
                    trial = executors.Trial(questions, processes, executors.start_seconds(), asker.work_clock)
                    answered = dict(zip(map(asker.key, questions), trial.run(asker.answer_here)))
                    tried.append(trial)
                    if trial.pays():
                        pool, trying = stack.enter_context(executors.executor(processes, warm=warm)), False
                asker.ahead = Ahead(pool, functools.partial(answered_in_worker, chosen.name, path, seconds,
                                                            report.compared),
                                    questions, asker.key, answered)
            try:
                smallest = hypothesis.find(search.strategy, asker.disagrees,
                                           settings=search_settings(hypothesis, search.count),
                                           random=random.Random(seed))
            except hypothesis.errors.NoSuchExample:
                if report.stopped:
                    break
                continue
            finally:
                asker.stop_ahead()
            break
        if trying and tried:
            report.serially = serially(tried)
    if smallest is not None:
        found = report.disagreement = asker.disagreement(smallest)
        found.drawn = drawn_apart(chosen, strategies, found, report.rules)
        refuses = getattr(strategies, "refusal", None)
        found.refused = refuses(smallest) if refuses is not None else ""
        found.again = asking_again(chosen, interface, found, out)
        found.text = instance_file(chosen, interface, report, found, out)
        if out is not None:
            found.file = files.write_text(out, found.text, "--out")
    if asker.first_failed is not None:
        report.smallest_finding = smallest_failure(hypothesis, asker, *asker.first_failed, seed)
    return report


def serially(trials: list[executors.Trial[Any]]) -> str:
    """Why --workers auto asked every question of a check here, in one line, from each search's trial."""
    done, spent = sum(trial.done for trial in trials), sum(trial.spent for trial in trials)
    return (f"ran serially (--workers auto): {words.plural(done, 'question')} tried here took {words.seconds(spent)} "
            f"of CPU, and no search had enough left for {trials[0].processes} workers to save their start")


def drawn(hypothesis: ModuleType, search: Search, seed: int) -> list[Any]:
    """The questions `search` draws from `seed`, in order, none asked.

    Hypothesis draws the same questions while no answer says they disagree, as long as no module of pysolve
    is loaded between two draws (it draws constants from pysolve's source too): `check` loads the puzzle's
    back ends before any draw, as asking the first question would."""
    questions: list[Any] = []

    def noted(question: Any) -> bool:
        questions.append(question)
        return False

    with contextlib.suppress(hypothesis.errors.NoSuchExample):
        hypothesis.find(search.strategy, noted, settings=search_settings(hypothesis, search.count),
                        random=random.Random(seed))
    return questions


AHEAD_PER_WORKER = 2  # questions answered ahead on the pool: this many a worker at a time


class Ahead:
    """The questions a search will draw, answered ahead on a pool in the order drawn, a few a worker at a time.

    Only so many at once, so that a looping rule base costs no more questions than it would here before the
    check stops (MAX_TIME_OUTS), and a disagreement no more than a few questions asked for nothing."""

    def __init__(self, pool: Executor | None, answer: Callable[[Any], Answered], questions: list[Any],
                 key: Callable[[Any], str], answered: dict[str, Answered] | None = None) -> None:
        self.pool, self.answer = pool, answer
        self.window = AHEAD_PER_WORKER * executors.width(pool) if pool is not None else 0
        self.answered = answered or {}  # key -> the answers already in (a trial's, asked here)
        self.waiting = deque({key(question): question for question in questions
                              if key(question) not in self.answered}.items())  # each once, in order
        self.running: dict[str, Future[Answered]] = {}
        self.fill()

    def fill(self) -> None:
        """Hand out the next questions while fewer than the window are out."""
        while self.pool is not None and self.waiting and len(self.running) < self.window:
            key, question = self.waiting.popleft()
            self.running[key] = self.pool.submit(self.answer, question)

    def take(self, key: str) -> Answered | None:
        """The answers to the question `key`, once they are in; None for a question not answered ahead.

        Those handed out before it and not taken were not asked after all (the search knew them already):
        they are given up."""
        if key in self.answered:
            return self.answered.pop(key)
        if key not in self.running:
            return None
        while True:
            first, future = next(iter(self.running.items()))
            del self.running[first]
            if first == key:
                break
            future.cancel()
        answered = future.result()
        self.fill()
        return answered

    def cancel(self) -> None:
        """Answer no more: the questions not started are given up (those running end unread)."""
        for future in self.running.values():
            future.cancel()
        self.running.clear()
        self.waiting.clear()
        self.answered.clear()


Answered = tuple["Answer | str", dict[str, Answer]]  # the rules' answer (or their error's line), and pysolve's


@functools.cache
def own_in_worker(puzzle: str, rules: str) -> Own:
    """The rules of one's own in `rules`, loaded once in a worker of the check's pool (its first act)."""
    chosen = puzzles.get(puzzle)
    return load_own(chosen, interface_of(chosen), rules)


def answered_in_worker(puzzle: str, rules: str, seconds: float, compared: tuple[str, ...],
                       question: Any) -> Answered:
    """One question answered in a worker: the rules' answer, then those of pysolve's back ends compared with it.

    The rules' answer is their error's line when they raised one (`rules_answer`)."""
    return every_answer(puzzles.get(puzzle), own_in_worker(puzzle, rules), seconds, compared, question)


def every_answer(puzzle: Puzzle, own: Own, seconds: float, compared: tuple[str, ...], question: Any) -> Answered:
    """The rules' answer to `question` (`rules_answer`), then those of pysolve's back ends `compared` with it."""
    return rules_answer(puzzle, own, seconds, question), {name: puzzle.solve(question, name) for name in compared}


def rules_answer(puzzle: Puzzle, own: Own, seconds: float, question: Any) -> Answer | str:
    """The rules' answer to `question`, timed as a back end's; the error's one line when their goal raised one."""
    try:
        return puzzle.run(own.name, lambda asked: own.answer(asked, seconds), question)
    except (PrologError, RulesError) as error:
        return str(error)
    except SystemExit as error:  # Python rules that call sys.exit: their error on this question, not the check's end
        return f"{own.name} raised SystemExit: {error.code}"


def smallest_failure(hypothesis: ModuleType, asker: Asker, search: Search, first: Any,
                     seed: int) -> SmallestFinding:
    """The question `first`, the first the rules failed (an error, a time-out or a memory limit), shrunk.

    Its search run again with the same seed, which draws the same questions up to that one (their outcomes
    remembered), now stopping there and shrinking it to the smallest question the rules still fail alike
    (`failure`), within the shrink time; `first` itself if hypothesis drew another way.
    """
    asker.shrink_alike(asker.failures[asker.key(first)][0])
    smallest = shrunk(hypothesis, search, first, asker.fails_alike, seed)
    failed, message = asker.failures[asker.key(smallest)]
    return SmallestFinding(asker.own.goal(smallest), message, failed.partition(":")[0], asker.shrinks)


def shrunk(hypothesis: ModuleType, search: Search, first: Any, fails: Callable[[Any], bool], seed: int) -> Any:
    """`first`, a question `search` drew from `seed` that `fails`, shrunk.

    The search run again with the same seed draws the same questions up to that one (`fails` must answer those
    as before: remembered, not asked again), stops there and shrinks it to the smallest question that still
    `fails` (`fails` bounds what shrinking costs: it answers False once its budget is spent); `first` itself if
    hypothesis drew another way.
    """
    try:
        return hypothesis.find(search.strategy, fails, settings=search_settings(hypothesis, search.count),
                               random=random.Random(seed))
    except hypothesis.errors.NoSuchExample:
        return first


@dataclass(frozen=True)
class Search:
    """One hypothesis search of a check.

    Its strategy of questions, how many it draws, the size that bounds them, and whether they are
    instances with no solution (`impossible_questions`).
    """

    strategy: Any
    count: int
    size: int
    impossible: bool


def searches(strategies: ModuleType, sizes: tuple[int, ...], examples: int, seconds: float) -> list[Search]:
    """The hypothesis searches of a check, in order, each a strategy of questions and how many it draws.

    The `examples` shared out among `sizes`, smallest first (so that a rule base wrong on small instances is
    shown its smallest, and one wrong or slow only on large ones is still asked them); at each size the
    ordinary questions, then, where the puzzle's instances module draws them (`impossible_questions`), one in
    IMPOSSIBLE on instances with no solution, where the interface says the goal fails. Each search shrinks its
    own first disagreement; the check stops at the first.
    """
    impossible = getattr(strategies, "impossible_questions", None)
    found = []
    for index, size in enumerate(sizes):
        share = examples // len(sizes) + (index < examples % len(sizes))
        unsolvable = share // IMPOSSIBLE if impossible is not None else 0
        found.append(Search(strategies.questions(size, LIMIT, seconds), share - unsolvable, size, False))
        if impossible is not None and unsolvable:
            found.append(Search(impossible(size, LIMIT, seconds), unsolvable, size, True))
    return [search for search in found if search.count]


def default_out(rules: str | os.PathLike[str]) -> str:
    """Where the CLI writes the smallest disagreement unless told: RULES-counterexample.txt, in this folder."""
    return f"{Path(rules).stem}-counterexample.txt"


def checked_size(interface: RulesInterface, max_size: int | None) -> int:
    """`max_size`, or the interface's default; InputError below the smallest instance the puzzle draws."""
    size = interface.default_size if max_size is None else max_size
    if size < interface.min_size:
        raise InputError(f"--max-size {size}: the random boards need --max-size {interface.min_size} or more "
                         f"({interface.size_words})")
    return size


def interface_of(puzzle: Puzzle) -> RulesInterface:
    """The puzzle's rules interface; UnknownName naming the puzzles that declare one when it has none."""
    if puzzle.rules is None:
        raise UnknownName(f"{puzzle.name} declares no rules interface to check; these do: {', '.join(checkable())}")
    return puzzle.rules


def checkable() -> list[str]:
    """The puzzles that declare a rules interface, by name."""
    return [name for name in puzzles.names() if puzzles.get(name).rules is not None]


def import_hypothesis() -> ModuleType:
    """hypothesis, which draws and shrinks the questions; PysolveError naming the extra that installs it."""
    try:
        hypothesis = importlib.import_module("hypothesis")
        importlib.import_module("hypothesis.errors")
    except ImportError:
        raise PysolveError(f"pysolve check draws its questions with hypothesis, which is not installed: {EXTRA}") \
            from None
    return hypothesis


def search_settings(hypothesis: ModuleType, examples: int) -> Any:
    """Hypothesis settings of a check.

    `examples` questions, no database, no deadline, quiet, no health check (a slow rule base is what a
    check measures). What hypothesis keeps of its own (the constants it reads from source) goes to
    pysolve's cache folder, not into the current folder as `.hypothesis/`, unless told otherwise.
    """
    if not os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY"):
        hypothesis.configuration.set_hypothesis_home_dir(os.path.join(cache.folder(), "hypothesis"))
    return hypothesis.settings(max_examples=examples, database=None, deadline=None,
                               verbosity=hypothesis.Verbosity.quiet,
                               suppress_health_check=list(hypothesis.HealthCheck))


@dataclass(frozen=True)
class Own:
    """The rules of one's own being checked, a .pl rule base or a module of relations.

    Its file's name, the interface it defines (PlDoc's head or Python's call), how it answers a question
    and the goal that asks.
    """

    name: str
    head: str
    answer: Callable[[Any, float], Found]  # (question, seconds) -> its answer
    goal: Callable[[Any], str]
    apart: bool = False  # it runs in a child process of its own (a rule base), its CPU time not this process's


def load_own(puzzle: Puzzle, interface: RulesInterface, rules: str | os.PathLike[str] | Solver) -> Own:
    """The rules in the file `rules`.

    A module of relations when it ends in .py, else a rule base; or a solver of one's own in Python.
    """
    if not isinstance(rules, (str, os.PathLike)):
        return load_solver(puzzle, rules)
    if Path(rules).suffix == ".py":
        return load_relations(puzzle, interface, rules)
    path = load_rules(puzzle, interface, rules)
    return Own(path.name, interface.head, lambda question, seconds: interface.ask(path, question, seconds),
               lambda question: str(interface.goal(question)), apart=True)


def load_relations(puzzle: Puzzle, interface: RulesInterface, rules: str | os.PathLike[str]) -> Own:
    """The module of relations in `rules`, imported, its relation found and miniKanren required."""
    backends.require("kanren")
    relation = relations.relation_in(relations.load_module(rules), interface, puzzle.name)
    return Own(Path(rules).name, interface.relation_head,
               lambda question, seconds: relations.ask(relation, interface, question, seconds),
               lambda question: relations.goal_text(interface, question))


def load_solver(puzzle: Puzzle, solver: Solver) -> Own:
    """A solver of one's own in Python as the rules checked.

    An exception it raises is its error on that question (RulesError, with the exception's type and
    message), as a rule base's Prolog error is; past the question's time limit it is stopped
    (`bounded.call_bounded`) and the question is its time-out.
    """
    if not callable(solver):
        raise InputError(f"a solver of one's own is a function question -> pysolve.Found, not {files.excerpt(solver)}")
    name = getattr(solver, "name", None) or getattr(solver, "__name__", type(solver).__name__)

    def answer(question: Any, seconds: float) -> Found:
        try:
            return status_derived(call_bounded(functools.partial(solver, question), seconds, str(name)))
        except PysolveError:
            raise
        except Exception as error:  # the user's code: any error it raises is what the check reports
            raise RulesError(f"{name} raised {type(error).__name__}: {error}") from None

    return Own(str(name), f"{name}(question) -> Found", answer,
               lambda question: f"{name}({json.dumps(puzzle.describe(question))})")


def status_derived(found: Found) -> Found:
    """`found` with the status its answer says.

    `found` with the status its answer says when the solver left the default (`Found`'s status is "solved"
    unless told): no solution when it holds no solution and counts none. A solver built as the guide shows,
    `Found(solutions, count=N)`, owes pysolve only its answer.
    """
    if isinstance(found, Found) and found.status == SOLVED and not found.solutions and not found.count:
        found.status = NO_SOLUTION
    return found


def compared_backends() -> tuple[str, ...]:
    """pysolve's back ends the rules are compared with.

    Prolog and Python, or miniKanren and Python when SWI-Prolog is missing or hidden.
    """
    return REFERENCE if backends.available("prolog") else WITHOUT_PROLOG


def load_rules(puzzle: Puzzle, interface: RulesInterface, rules: str | os.PathLike[str]) -> Path:
    """The rule base's path, loaded in the child process.

    The rule base's path, loaded in the child process for rules of one's own (pysolve.sandbox; pysolve's own
    rule base, which answers the same questions, in pysolve's engine) and checked to define the interface
    predicate; one-line errors otherwise (a halt while loading included).
    """
    path = bridge.resolve_rule_base(rules)
    try:
        backends.require("prolog")
    except BackendUnavailable as error:
        raise BackendUnavailable(f"checking {path.name} needs SWI-Prolog, the back end that runs a .pl rule base: "
                                 f"{error}", hidden=error.hidden) from None
    bridge.load(interface.own)
    try:
        sandbox.load(path)
    except PrologError as error:
        raise PrologError(" ".join(str(error).split()), error.detail) from None
    if not interface.defined_in(path):
        raise InputError(f"{path.name} does not define {interface.indicator}, the rules interface of "
                         f"{puzzle.name}: {interface.head}, the board and each solution {interface.terms} "
                         f"(docs/{puzzle.name}.md, \"Check your own rules\")")
    return path


def out_of_memory(answer: Answer) -> bool:
    """True when a limit of memory, not of time, stopped `answer`.

    A rule base's stacks overflowed (its stats' `limit`), or a solver or relation of one's own ran out of
    memory or out of Python's stack (its reason's words: pysolve.memory.exhausted, Puzzle.run's recursion
    limit).
    """
    return (answer.stats.get("limit") == "resource_limit" or "ran out of memory" in answer.reason
            or "recursion limit" in answer.reason)


def failure(mine: Answer | str) -> str:
    """How the rules failed a question.

    TIME_OUT, MEMORY_LIMIT, or ERROR and the error's words without its data (TERMS: the goal, the answer,
    numbers), so that one error met on two questions is one failure; "" when they answered.
    """
    if isinstance(mine, str):
        return f"{ERROR}: {' '.join(TERMS.sub('', mine).split())}"
    if mine.status == UNKNOWN:
        return MEMORY_LIMIT if out_of_memory(mine) else TIME_OUT
    return ""


class Asker:
    """Asks the rule base and pysolve's back ends each question, keeping the report.

    Asks one question of the rule base and of pysolve's back ends, keeps the report's counts while
    hypothesis generates, and remembers every verdict (hypothesis asks the smallest question again at the
    end, and must hear the same).
    """

    def __init__(self, puzzle: Puzzle, own: Own, report: CheckReport, shrink_seconds: float) -> None:
        self.puzzle, self.own, self.report = puzzle, own, report
        self.shrink_seconds = shrink_seconds
        self.verdicts: dict[str, bool] = {}
        self.answers: dict[str, dict[str, Answer]] = {}  # key -> every answer to a question that disagreed
        self.shrink_deadline: float | None = None         # set at the first disagreement
        self.shrinks = 0
        self.failures: dict[str, tuple[str, str]] = {}    # key -> how the rules failed it (`failure`), the message
        self.search: Search | None = None                  # the search hypothesis runs now
        self.first_failed: tuple[Search, Any] | None = None  # the first question the rules failed, and its search
        self.alike = ""                                     # the failure shrinking keeps (`fails_alike`)
        self.limits_shrinking = 0                           # time-outs and memory limits met shrinking it
        self.ahead: Ahead | None = None                     # the search's questions answered ahead on a pool
        self.rules_cpu = 0.0                                # CPU seconds of the rules' child asked here by a trial

    def key(self, question: Any) -> str:
        """The question as one string, the same for the same question drawn twice."""
        return json.dumps(self.puzzle.describe(question), sort_keys=True)

    def disagrees(self, question: Any) -> bool:
        """True when the rule base's answer to `question` differs from pysolve's (hypothesis's condition)."""
        key = self.key(question)
        if key not in self.verdicts:
            self.verdicts[key] = self.first_verdict(key, question)
        elif self.shrink_deadline is None:
            self.report.repeated += 1
        if self.shrink_deadline is not None or self.report.stopped:  # no more questions are drawn as generated
            self.stop_ahead()
        return self.verdicts[key]

    def stop_ahead(self) -> None:
        """Answer no more questions ahead: the search is over, shrinks or stopped."""
        if self.ahead is not None:
            self.ahead.cancel()
            self.ahead = None

    def first_verdict(self, key: str, question: Any) -> bool:
        """Ask `question` now: counted while generating; while shrinking only until the shrink time is up."""
        if self.report.stopped:
            return False
        shrinking = self.shrink_deadline is not None
        if shrinking and time.monotonic() > (self.shrink_deadline or 0):
            return False
        answers = self.ask(question, count=not shrinking)
        self.shrinks += shrinking
        if answers is None or first_disagreement(self.puzzle, answers) is None:
            return False
        self.answers[key] = answers
        if not shrinking:
            self.shrink_deadline = time.monotonic() + self.shrink_seconds
        return True

    def ask(self, question: Any, count: bool) -> dict[str, Answer] | None:
        """Every answer to `question`, the rule base's first, or None when one gave none.

        Each outcome recorded in the report when `count` (while hypothesis generates, not while it shrinks).
        """
        ahead = self.ahead.take(self.key(question)) if self.ahead is not None else None
        if ahead is None:
            mine = self.ask_rules(question)
            theirs = {name: self.puzzle.solve(question, name) for name in self.report.compared}
        else:
            mine, theirs = ahead
            self.remember(question, mine)
        answered = not isinstance(mine, str) and all(answer.status != UNKNOWN for answer in [mine, *theirs.values()])
        answers = {self.report.rules: mine, **theirs} if answered and not isinstance(mine, str) else None
        if count:
            self.record(question, mine, answers)
        return answers

    def record(self, question: Any, mine: Answer | str, answers: dict[str, Answer] | None) -> None:
        """Count one question generated.

        Agreed (with the times), an error, a time-out or a memory limit of the rule base (with its goal), or
        not compared (pysolve's own back ends ran out of time); whether it has no solution; and add up what
        the rules printed.
        """
        report = self.report
        goal = self.own.goal(question)
        report.tried += 1
        if not isinstance(mine, str) and "printed" in mine.stats:
            report.printed = report.printed + sandbox.Printed(**mine.stats["printed"])
        if failure(mine) and self.first_failed is None and self.search is not None:
            self.first_failed = (self.search, question)
        if isinstance(mine, str):
            report.errors.append(Finding(goal, mine))
        elif mine.status == UNKNOWN:
            limits = report.memory_limits if out_of_memory(mine) else report.time_outs
            limits.append(Finding(goal, mine.reason))
            self.stop_after_time_outs()
        elif answers is None:
            report.not_compared += 1
        else:
            report.unsolvable += answers[report.compared[0]].status == NO_SOLUTION
            if first_disagreement(self.puzzle, answers) is None:
                report.agreed += 1
                self.add_times(answers)

    def answer_here(self, question: Any) -> Answered:
        """Every answer to `question`, asked here as a worker would (`answered_in_worker`), counted for `work_clock`."""
        mine, theirs = every_answer(self.puzzle, self.own, self.report.seconds, self.report.compared, question)
        if self.own.apart and not isinstance(mine, str):
            self.rules_cpu += mine.stats.get("cpu_seconds", 0.0)
        return mine, theirs

    def work_clock(self) -> float:
        """The CPU seconds of the check's work so far: this process's, and its rules' in their own child."""
        return time.process_time() + self.rules_cpu

    def ask_rules(self, question: Any) -> Answer | str:
        """The rule base's answer, timed as a back end's; the error's one line when its goal raised one.

        How it failed the question, if it did, is remembered (`failures`).
        """
        mine = rules_answer(self.puzzle, self.own, self.report.seconds, question)
        self.remember(question, mine)
        return mine

    def remember(self, question: Any, mine: Answer | str) -> None:
        """Remember how the rules failed `question`, if they did (`failures`)."""
        self.failures[self.key(question)] = (failure(mine), mine if isinstance(mine, str) else mine.reason)

    def shrink_alike(self, alike: str) -> None:
        """Start shrinking the first question the rules failed.

        `fails_alike` keeps failures like `alike`, asking new questions for the shrink time.
        """
        self.alike, self.shrinks, self.limits_shrinking = alike, 0, 0
        self.shrink_deadline = time.monotonic() + self.shrink_seconds

    def fails_alike(self, question: Any) -> bool:
        """True when the rules fail `question` as they failed the first question.

        True when the rules fail `question` as they failed the first question they failed (hypothesis's
        condition while that one shrinks): remembered, else asked of the rules alone until the shrink time is
        up or, as generating, MAX_TIME_OUTS of them ran out of time or memory (each costs up to --seconds).
        """
        key = self.key(question)
        if key not in self.failures:
            if time.monotonic() > (self.shrink_deadline or 0) or self.limits_shrinking >= MAX_TIME_OUTS:
                return False
            self.ask_rules(question)
            self.shrinks += 1
            self.limits_shrinking += self.failures[key][0] in (TIME_OUT, MEMORY_LIMIT)
        return self.failures[key][0] == self.alike

    def stop_after_time_outs(self) -> None:
        """Stop asking once MAX_TIME_OUTS questions ran out of time or memory.

        A looping rule base costs --seconds each.
        """
        report = self.report
        if len(report.time_outs) >= MAX_TIME_OUTS:
            report.stopped = f"after {MAX_TIME_OUTS} time-outs of {report.rules}"
        elif len(report.time_outs) + len(report.memory_limits) >= MAX_TIME_OUTS:
            report.stopped = f"after {MAX_TIME_OUTS} time-outs and memory limits of {report.rules}"

    def add_times(self, answers: dict[str, Answer]) -> None:
        """Add each back end's seconds on a question all answered, and the rule base's ratio to Prolog's."""
        for name, answer in answers.items():
            self.report.times[name] = self.report.times.get(name, 0.0) + answer.stats["seconds"]
        prolog = answers["prolog"].stats["seconds"] if "prolog" in answers else 0
        if prolog:
            self.report.ratios.append(answers[self.report.rules].stats["seconds"] / prolog)

    def disagreement(self, question: Any) -> Disagreement:
        """The disagreement on `question` (one hypothesis found)."""
        answers = self.answers[self.key(question)]
        difference = first_disagreement(self.puzzle, answers) or ""
        return Disagreement(question, self.own.goal(question), difference, answers, shrinks=self.shrinks)


def instance_file(puzzle: Puzzle, interface: RulesInterface, report: CheckReport, found: Disagreement,
                  out: str | os.PathLike[str] | None) -> str:
    """The disagreement as an instance file `pysolve solve PUZZLE FILE` reads (`out`, when it is written).

    Comments with how it was found, where the answers part and each answer drawn (the back ends that agree
    under one heading), then the instance itself.
    """
    comments = [f"pysolve check {puzzle.name} {report.rules} --seed {report.seed}: the smallest disagreement "
                "found, shrunk by hypothesis",
                f"the goal: {found.goal}", f"they part: {found.difference}", ""]
    for names, answer in answer_groups(puzzle, found.answers):
        comments += [f"{' and '.join(names)} answered:", *("  " + line for line in puzzle.render(answer).splitlines()),
                     ""]
    if found.refused:
        comments.append(f"pysolve solve refuses it ({found.refused}); ask pysolve's rules instead: {found.again}")
    else:
        asking = "ask pysolve again" if out is not None else "saved as FILE, ask pysolve again"
        comments.append(f"{asking}: {found.again}")
    text = interface.strategies().instance_text(found.question)
    return "\n".join(f"# {line}".rstrip() for line in comments) + "\n" + text.rstrip("\n") + "\n"


def asking_again(puzzle: Puzzle, interface: RulesInterface, found: Disagreement,
                 out: str | os.PathLike[str] | None) -> str:
    """The command that asks pysolve the disagreement's question again.

    `pysolve solve` on its file (`out`, or FILE when none is written), or for an instance `pysolve solve`
    refuses, `pysolve query` of the interface's goal on pysolve's own rule base.
    """
    if found.refused:
        return f'pysolve query {interface.own} "{interface.goal(found.question)}"'
    return f"pysolve solve {puzzle.name} {interface.solve_args.format(file=out or 'FILE', limit=LIMIT)}"


def drawn_apart(puzzle: Puzzle, strategies: ModuleType, found: Disagreement, rules: str) -> str:
    """Two differing solutions drawn side by side, the differences marked.

    Two solutions that differ side by side, drawn as `pysolve solve` draws them, the parts where they differ
    marked, for the puzzles whose instances module draws them (`parts` and `drawn`: squares and tangram, whose
    differences are otherwise paths into nested lists): a solution of the rules that pysolve's back end does
    not give beside the closest one it gives, else one it gives that the rules do not beside the closest of
    the rules'. "" for the other puzzles, or when either side gave no solution.
    """
    if not hasattr(strategies, "drawn"):
        return ""
    mine = found.answers[rules]
    other, theirs = next((name, answer) for name, answer in found.answers.items()
                         if name != rules and puzzle.canonical(answer) != puzzle.canonical(mine))

    def parts(solution: Any) -> dict[Any, Any]:
        return dict(strategies.parts(found.question, solution))

    def closest(solution: Any, among: list[Any]) -> Any:
        return min(among, key=lambda candidate: len(differing(parts(solution), parts(candidate))))

    only_mine = [solution for solution in mine.solutions
                 if all(parts(solution) != parts(t) for t in theirs.solutions)]
    only_theirs = [solution for solution in theirs.solutions
                   if all(parts(solution) != parts(m) for m in mine.solutions)]
    if only_mine and theirs.solutions:
        left, right = only_mine[0], closest(only_mine[0], theirs.solutions)
        titles = [f"{rules} gives, {other} does not:", f"the closest {other} gives:"]
    elif only_theirs and mine.solutions:
        left, right = closest(only_theirs[0], mine.solutions), only_theirs[0]
        titles = [f"the closest {rules} gives:", f"{other} gives, {rules} does not:"]
    else:
        return ""
    marked = differing(parts(left), parts(right))
    boards = [[title, *strategies.drawn(found.question, solution, marked).splitlines()]
              for title, solution in zip(titles, (left, right))]
    return "\n".join([*beside(boards), "(* marks where the two differ)"])


def differing(one: dict[Any, Any], other: dict[Any, Any]) -> set[Any]:
    """The parts (cells, pieces) that two solutions fill differently."""
    return {part for part in one.keys() | other.keys() if one.get(part) != other.get(part)}


def beside(blocks: list[list[str]]) -> list[str]:
    """Blocks of lines side by side, each as wide as its widest line, GAP between."""
    widths = [max(map(len, block)) for block in blocks]
    return [GAP.join((block[row] if row < len(block) else "").ljust(width) for block, width in zip(blocks, widths))
            .rstrip() for row in range(max(map(len, blocks)))]


def answer_groups(puzzle: Puzzle, answers: dict[str, Answer]) -> list[tuple[list[str], Answer]]:
    """The answers grouped by their canonical form, in order: the names that gave each, and the first such answer."""
    groups: list[tuple[list[str], Answer]] = []
    for name, answer in answers.items():
        same = next((names for names, first in groups if puzzle.canonical(first) == puzzle.canonical(answer)), None)
        if same is None:
            groups.append(([name], answer))
        else:
            same.append(name)
    return groups
