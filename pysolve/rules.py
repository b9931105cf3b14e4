"""A puzzle's rules interface: the predicate a rule base of one's own defines, asked with no adapter.

A puzzle declares one (`Puzzle.rules`), pysolve's own rule base satisfies
it, and `pysolve check PUZZLE FILE.pl` (pysolve.check) asks any `.pl` file
that defines it the questions it asks its own back ends. For the board
puzzles the predicate is `NAME(+Board, -Solution) is nondet`: the board in
the very term form pysolve's rule bases take, every solution once on
backtracking, in the same form. The same interface names the miniKanren
relation a Python module of one's own defines (`relation`: the predicate's
name and an `o`, e.g. `hidatoo(board, solution)`), asked the same inputs
as plain Python data (pysolve.relations).
"""

from __future__ import annotations

import importlib
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from operator import attrgetter
from types import ModuleType
from typing import TYPE_CHECKING, Any

from pysolve import files
from pysolve.answers import Found, counted
from pysolve.errors import PysolveError

if TYPE_CHECKING:
    from pysolve import bridge

OUTPUT = "Solution"  # the output variable of every goal asked through an interface
LOOKUP_SECONDS = 10.0  # time limit of asking whether a rule base defines the predicate
UNBOUND = re.compile(r"_G[0-9]+")  # a variable an answer left unbound, as the bridge names it (plain_row/4)
SHOWN = 300  # characters of an answer that is not ground shown in its message


class RulesError(PysolveError):
    """A rule base or relation of one's own failed a question.

    Its goal raised, or it gave a solution that is not in its interface's term form."""


def rows_of_integers(value: Any) -> bool:
    """True when `value` is a list of lists of integers: a board puzzle's solution term."""
    return isinstance(value, list) and all(
        isinstance(row, list) and all(type(cell) is int for cell in row) for row in value)


def unbound(value: Any) -> bool:
    """True when an answer holds an unbound variable.

    True when `value` (an answer as plain data) holds a variable left unbound, named as the bridge names
    them (_G1, _G2, ...)."""
    if isinstance(value, list):
        return any(unbound(item) for item in value)
    return isinstance(value, str) and UNBOUND.fullmatch(value) is not None


def prolog_text(value: Any) -> str:
    """An answer as Prolog writes it, cut short.

    An answer as Prolog writes it, its unbound variables by name (`[[1, _G1], [_G2, 4]]`), cut to SHOWN
    characters."""
    from pysolve import bridge  # a puzzle declares its interface at start-up; asking it loads the bridge

    def written(item: Any) -> Any:
        if isinstance(item, list):
            return [written(part) for part in item]
        return bridge.Var(item) if unbound(item) else item

    text = bridge.term(written(value))
    return text if len(text) <= SHOWN else text[:SHOWN] + "..."


def counted_as_asked(question: Any, found: Found) -> Found:
    """A board puzzle's answer from the solutions a rule base gave: counted when the question counts."""
    return counted(found, question.count)


@dataclass(frozen=True)
class RulesInterface:
    """The predicate a rule base of one's own defines for a puzzle, and how pysolve asks it.

    `inputs(question)` gives the goal's input arguments (plain data for
    `bridge.goal`); the last argument is the output, one solution per row
    of the query, which must pass `solution_form`. `instances` names the
    module of hypothesis strategies that draws random questions
    (`questions(max_size, limit, seconds)`, and `impossible_questions` of the
    same form where an instance may have no solution) and writes one as the
    file `pysolve solve` reads (`instance_text(question)`). `sizes` reach the
    sizes where the puzzle's rules differ (a 6x6 Sudoku's boxes are 2x3).
    `properties` names the module that tells which of the puzzle's rules a
    solution breaks (`RULES`, `broken(question, solution, reference)`), which
    `pysolve grade` grades one by one. `speed` and `budget_times` measure a
    rule base in `pysolve grade` against pysolve's own on the same question,
    in Prolog inferences: where pysolve's own rule base searches far better
    than the plain search a class writes (fichas' search meeting its mirror
    image against a breadth-first search over lists), the puzzle allows more.
    """

    predicate: str
    arguments: tuple[str, ...]            # in PlDoc's modes: ("+Board", "-Solution")
    terms: str                            # the term forms in words, for the docs and for messages
    own: str                              # pysolve's rule base that satisfies the interface
    instances: str                        # the module of hypothesis strategies for random questions
    inputs: Callable[[Any], list[Any]]
    sizes: tuple[int, ...]                # the sizes a check grows through, smallest first, unless told
    min_size: int                         # the smallest `--max-size` the instances allow
    size_words: str                       # what `--max-size` bounds, in words
    solution_form: Callable[[Any], bool] = rows_of_integers
    shaped: Callable[[Any, Found], Found] = counted_as_asked  # the solutions as pysolve's back ends answer
    limit: Callable[[Any], int] = attrgetter("limit")  # solutions asked of a rule base per question (0: all)
    solve_args: str = "{file} --count {limit}"  # `pysolve solve NAME`'s arguments that ask the same question
    properties: str = ""  # the module naming the puzzle's rules one by one for `pysolve grade` ("": none)
    speed: float = 10.0   # a rule base's inferences on the largest size within this many times pysolve's own
    budget_times: float = 0.0  # a question's budget: this many times pysolve's own inferences, grade's at least

    @property
    def default_size(self) -> int:
        """`--max-size` when none is given: the largest of `sizes`."""
        return self.sizes[-1]

    def sizes_up_to(self, max_size: int | None) -> tuple[int, ...]:
        """The sizes a check grows through, up to `max_size`.

        The sizes a check grows through up to `max_size` (its searches' bounds, smallest first): `sizes`,
        or those below `max_size` and `max_size` itself."""
        if max_size is None:
            return self.sizes
        return (*(size for size in self.sizes if size < max_size), max_size)

    @property
    def arity(self) -> int:
        """The predicate's arity: the inputs and the output."""
        return len(self.arguments)

    @property
    def head(self) -> str:
        """The predicate as PlDoc writes it: `hidato(+Board, -Solution) is nondet`."""
        return f"{self.predicate}({', '.join(self.arguments)}) is nondet"

    @property
    def indicator(self) -> str:
        """name/arity, as Prolog writes a predicate."""
        return f"{self.predicate}/{self.arity}"

    @property
    def relation(self) -> str:
        """The miniKanren relation's name: the predicate's and an `o` (`hidatoo`)."""
        return f"{self.predicate}o"

    @property
    def relation_head(self) -> str:
        """The relation as Python calls it: `hidatoo(board, solution)`."""
        names = ", ".join(argument.lstrip("+-?").lower() for argument in self.arguments)
        return f"{self.relation}({names})"

    def goal(self, question: Any) -> bridge.Goal:
        """The goal that asks a rule base `question`: the predicate on its inputs and the output variable."""
        from pysolve import bridge

        return bridge.goal(self.predicate, *self.inputs(question), bridge.Var(OUTPUT))

    def defined_in(self, rule_base: str | os.PathLike[str]) -> bool:
        """True when the loaded rule base defines the interface's predicate.

        True when the (loaded) rule base defines the predicate or imports it (asked in the child process
        that runs rules of one's own, pysolve.sandbox)."""
        from pysolve import bridge, sandbox

        lookup = bridge.goal("current_predicate", bridge.goal("/", self.predicate, self.arity))
        return bool(sandbox.solutions(rule_base, lookup, max_solutions=1, seconds=LOOKUP_SECONDS).rows)

    def ask(self, rule_base: str | os.PathLike[str], question: Any, seconds: float, inferences: int = 0) -> Found:
        """A rule base's answer to one question, asked in the child process.

        The rule base's answer to `question`, asked in the child process that runs rules of one's own
        (pysolve.sandbox): its first `limit(question)` solutions within `seconds` and `inferences` (0: any);
        unknown when a limit stopped it (stats `limit` names which: time_limit, inference_limit, ...);
        RulesError naming the goal when a solution is not in the interface's form; RulesCrashed or RulesRefused
        when the rules end the child or start a process. Its stats hold the child's CPU seconds, the
        inferences the goal took and what the rules printed."""
        from pysolve import bridge, sandbox

        goal = self.goal(question)
        result = sandbox.solutions(rule_base, goal, max_solutions=self.limit(question), seconds=seconds,
                                   inferences=inferences)
        stats: dict[str, Any] = {"cpu_seconds": round(result.cpu_seconds, 6), "inferences": result.inferences}
        if result.stopped:
            stats["limit"] = result.status
        if result.printed:
            stats["printed"] = result.printed.to_json()
        found = bridge.found_rows(result, OUTPUT, f"{self.indicator} of {os.path.basename(rule_base)}", stats)
        return self.answer(str(goal), question, found)

    def answer(self, goal: str, question: Any, found: Found) -> Found:
        """What a rule base or relation found, as pysolve's back ends answer.

        `found` (the solutions a rule base or a relation gave to `goal`) as pysolve's back ends answer
        `question`; RulesError naming the goal when a solution is not ground (shown, its variables named) or
        not in the interface's form (a board puzzle's answer is rows of integers)."""
        for solution in found.solutions:
            if unbound(solution):
                raise RulesError(f"goal {goal}: your answer is not ground: {OUTPUT} = {prolog_text(solution)} "
                                 "leaves variables unbound (named _G1, _G2, ...)")
            if not self.solution_form(solution):
                raise RulesError(f"goal {goal} gave {OUTPUT} = {files.excerpt(solution)}, not {self.terms}")
        return self.shaped(question, found)

    def strategies(self) -> ModuleType:
        """The module of hypothesis strategies for this puzzle's random questions (it imports hypothesis)."""
        return importlib.import_module(self.instances)
