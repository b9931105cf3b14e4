"""A search recorded as it runs: one JSON-lines format that every back end writes.

`pysolve solve PUZZLE ... --trace FILE` records the search of the back end
that answers, written by that back end's own search (Prolog's from the
Prolog search, miniKanren's from its goals, Python's from its loops), so
that the searches of two or three back ends can be replayed side by side.

The format, one JSON object per line:

    {"trace": "pysolve", "version": 1, "puzzle": "sudoku", "backend": "prolog", "question": {...}}
    {"e": "enter", "id": 1, "parent": 0, "depth": 1, "label": "r1c3=4", "move": {"row": 1, "col": 3, "value": 4}}
    {"e": "fail", "id": 1, "depth": 1}
    {"e": "backtrack", "id": 1, "depth": 1}
    {"e": "enter", "id": 2, "parent": 0, "depth": 1, "label": "r1c3=7"}
    {"e": "solution", "id": 9, "depth": 5, "count": 1}
    {"e": "end", "status": "solved", "nodes": 9, "fails": 3, "backtracks": 3, "solutions": 1,
     "events": 25, "truncated": false, "seconds": 0.01}

- The first line names the question (`Puzzle.describe`), the puzzle and the back end.
- `enter`: a node of the search tree, made by one choice that `label` says in
  the puzzle's words (a cell bound to a value, a piece placed, a state
  reached); ids count from 1 in the order nodes are made, the root is 0.
  `depth` is the parent's depth plus one. `move`, where given, says the same
  choice as data a board can replay (its keys are the puzzle's: docs/guide.md,
  "Searches recorded").
- `fail`: the node is a dead end (its choice broke a rule, or no choice
  below it is left). `backtrack`: the search leaves the node and undoes its
  choice. A breadth-first search enters nodes in the order it makes them and
  never backtracks.
- `solution`: the node completes an answer; `count` numbers the answers.
- `end`, always the last line: how the search ended (`solved`, `no solution`,
  `unknown` with a `reason`) and its counters. Past `limit` events nothing
  more is written but everything is still counted: `truncated` says so.

`Trace` writes the format from Python into a text stream (`Puzzle.solve`
gives it one whose contents reach the `--trace` file whole or not at all);
`prolog/pysolve_trace.pl` writes the same events from Prolog into a file of
its own, which `bridge.solutions` adds to the trace once the query is done
(`Trace.include`); `read_trace` reads a file back, checked.

A search finds its recorder as `budget.trace` (None when nothing is
recorded; never NOT_RECORDED, which a budget does not carry) and reports to
`recorder(budget.trace)`: that trace, or NOT_RECORDED, whose methods do
nothing, so a search never asks whether it is recorded. The label and move of
a node are made only when recorded (`push_as`, `enter_as`). Where even a call
that does nothing would cost a hot loop, the search takes its step (`pushed`,
`pushed_each`) or its check (`failing`, `failing_empty`) through `wrap`, once:
recorded, the step reports its node; unrecorded, it is the plain step itself.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, TypeVar

from pysolve import files
from pysolve.answers import NO_SOLUTION, SOLVED, UNKNOWN
from pysolve.errors import InputError

VERSION = 1
DEFAULT_LIMIT = 200_000  # events written at most; a search goes on counting past it
EVENTS = ("enter", "fail", "backtrack", "solution", "end")
STATUSES = (SOLVED, NO_SOLUTION, UNKNOWN)

Part = TypeVar("Part")
Describe = Callable[..., tuple[str, dict[str, Any]]]  # a choice's label and move, from what the search holds


class Trace:
    """The recorder of one search: `enter` a node, `fail`, `backtrack`, `solution`, then `end`.

    Depth-first searches use the stack: `push(label)` enters a child of the
    node on top, `pop()` backtracks from it, `fail()` and `solution()` mark it.
    Other searches name the parent: `enter(label, parent)` returns the new id.
    """

    def __init__(self, out: IO[str], puzzle: str, backend: str, question: dict[str, Any],
                 limit: int = DEFAULT_LIMIT) -> None:
        self.out: IO[str] | None = out
        self.limit = limit
        self.nodes = self.fails = self.backtracks = self.solutions = self.events = 0
        self.depths: dict[int, int] = {0: 0}
        self.stack: list[int] = [0]
        self.started = time.perf_counter()
        self._write({"trace": "pysolve", "version": VERSION, "puzzle": puzzle, "backend": backend,
                     "question": question})

    # --- writing -----------------------------------------------------------------------------------

    def _write(self, record: dict[str, Any]) -> None:
        if self.out is not None:
            self.out.write(json.dumps(record, separators=(", ", ": ")) + "\n")

    def _event(self, record: dict[str, Any]) -> None:
        self.events += 1
        if self.events <= self.limit:
            self._write(record)

    def enter(self, label: str, parent: int = 0, move: dict[str, Any] | None = None) -> int:
        """Record a new node below `parent` (0: the root), made by the choice `label`; give back its id.

        `move` is the same choice as data."""
        self.nodes += 1
        node, depth = self.nodes, self.depths.get(parent, 0) + 1
        self.depths[node] = depth
        event = {"e": "enter", "id": node, "parent": parent, "depth": depth, "label": label}
        if move is not None:
            event["move"] = move
        self._event(event)
        return node

    def fail(self, node: int | None = None) -> None:
        """`node` (default: the node on top of the stack) is a dead end."""
        node = self.stack[-1] if node is None else node
        self.fails += 1
        self._event({"e": "fail", "id": node, "depth": self.depths.get(node, 0)})

    def backtrack(self, node: int) -> None:
        """The search leaves `node`, its choice undone."""
        self.backtracks += 1
        self._event({"e": "backtrack", "id": node, "depth": self.depths.pop(node, 0)})

    def solution(self, node: int | None = None) -> None:
        """`node` (default: the node on top of the stack) completes an answer."""
        node = self.stack[-1] if node is None else node
        self.solutions += 1
        self._event({"e": "solution", "id": node, "depth": self.depths.get(node, 0), "count": self.solutions})

    def push(self, label: str, move: dict[str, Any] | None = None) -> int:
        """Depth-first: enter a child of the node on top of the stack, which it then tops."""
        node = self.enter(label, self.stack[-1], move)
        self.stack.append(node)
        return node

    def pop(self) -> None:
        """Depth-first: backtrack from the node on top of the stack."""
        self.backtrack(self.stack.pop())

    def push_as(self, describe: Describe, *args: Any) -> int:
        """Depth-first: `push` the choice whose label and move `describe(*args)` makes (made only when recorded)."""
        return self.push(*describe(*args))

    def enter_as(self, parent: int, describe: Describe, *args: Any) -> int:
        """`enter` below `parent` the choice whose label and move `describe(*args)` makes (only when recorded)."""
        label, move = describe(*args)
        return self.enter(label, parent, move)

    def to_root(self) -> None:
        """Take the stack back to the root, its nodes left as they are (depth-first).

        For a search that stopped where it was and starts again from the root."""
        del self.stack[1:]

    @property
    def full(self) -> bool:
        """True once more events were made than the trace writes: recording more would write nothing."""
        return self.events > self.limit

    def wrap(self, recorded: Callable[..., Part], plain: Part, *args: Any) -> Part:
        """The part of a search (a goal, a loop) that reports to this trace, made from its `plain` form.

        `recorded(self, plain, *args)` makes it; NOT_RECORDED gives `plain` itself, so an unrecorded search pays
        nothing for it."""
        return recorded(self, plain, *args)

    def end(self, status: str, reason: str = "") -> None:
        """The last line: how the search ended and its counters; nothing is written after it."""
        if status not in STATUSES:
            raise ValueError(f"trace status {status!r} is not one of {', '.join(STATUSES)}")
        record: dict[str, Any] = {"e": "end", "status": status}
        if reason:
            record["reason"] = reason
        record.update(nodes=self.nodes, fails=self.fails, backtracks=self.backtracks, solutions=self.solutions,
                      events=self.events, truncated=self.events > self.limit,
                      seconds=round(time.perf_counter() - self.started, 6))
        self._write(record)
        self.out = None

    def include(self, lines: str, nodes: int, fails: int, backtracks: int, solutions: int, events: int) -> None:
        """Add the events and counters another writer recorded.

        The writer is prolog/pysolve_trace.pl: at most `limit - events` lines, node ids from `nodes + 1` on."""
        if self.out is not None:
            self.out.write(lines)
        self.nodes += nodes
        self.fails += fails
        self.backtracks += backtracks
        self.solutions += solutions
        self.events += events


class NotRecorded(Trace):
    """The recorder of a search that is not recorded: every method does nothing, `wrap` gives the plain part.

    One instance, NOT_RECORDED, serves every such search: it holds no state
    that a method changes (its counters stay 0, its stack the root).
    """

    def __init__(self) -> None:
        self.out = None
        self.limit = DEFAULT_LIMIT
        self.nodes = self.fails = self.backtracks = self.solutions = self.events = 0
        self.depths = {0: 0}
        self.stack = [0]
        self.started = 0.0

    def enter(self, label: str, parent: int = 0, move: dict[str, Any] | None = None) -> int:
        return 0

    def fail(self, node: int | None = None) -> None:
        pass

    def backtrack(self, node: int) -> None:
        pass

    def solution(self, node: int | None = None) -> None:
        pass

    def push(self, label: str, move: dict[str, Any] | None = None) -> int:
        return 0

    def pop(self) -> None:
        pass

    def push_as(self, describe: Describe, *args: Any) -> int:
        return 0

    def enter_as(self, parent: int, describe: Describe, *args: Any) -> int:
        return 0

    def to_root(self) -> None:
        pass

    def end(self, status: str, reason: str = "") -> None:
        pass

    def include(self, lines: str, nodes: int, fails: int, backtracks: int, solutions: int, events: int) -> None:
        pass

    def wrap(self, recorded: Callable[..., Part], plain: Part, *args: Any) -> Part:
        return plain


NOT_RECORDED = NotRecorded()


def recorder(trace: Trace | None) -> Trace:
    """What a search reports to: `trace` (a budget's), or NOT_RECORDED when there is none."""
    return trace or NOT_RECORDED  # a Trace is always true: it defines neither __bool__ nor __len__


def pushed(trace: Trace, step: Callable[..., bool], describe: Describe, *fixed: Any) -> Callable[..., bool]:
    """`step(*args)`, a depth-first search's step into a child that says whether to stop, recorded in `trace`.

    The child is pushed first, labelled by `describe(*fixed, *args)`, and
    popped after unless the search stops there. A search takes it through
    `wrap`, once: unrecorded, it calls `step` itself, with no call per node.
    """

    def recorded(*args: Any) -> bool:
        trace.push_as(describe, *fixed, *args)
        stop = step(*args)
        if not stop:
            trace.pop()
        return stop

    return recorded


def pushed_each(trace: Trace, steps: Callable[..., Iterator[Part]], describe: Describe,
                *fixed: Any) -> Callable[..., Iterator[Part]]:
    """`steps(*args)`, a depth-first search's step into a child that yields what it finds, recorded in `trace`.

    The child is pushed first, labelled by `describe(*fixed, *args)`, is a
    dead end when it yields nothing and enters no node below it
    (`failing_empty`), and is popped once it has yielded all (a search
    stopped after an answer leaves it as it is). Taken through `wrap`, as
    `pushed` is.
    """
    below = failing_empty(trace, steps)

    def recorded(*args: Any) -> Iterator[Part]:
        trace.push_as(describe, *fixed, *args)
        yield from below(*args)
        trace.pop()

    return recorded


def failing_empty(trace: Trace, steps: Callable[..., Iterator[Part]]) -> Callable[..., Iterator[Part]]:
    """`steps(*args)`, a generator, recorded in `trace`: a dead end where it finds nothing.

    The node on top of `trace`'s stack fails when the generator yields nothing and enters no node. Taken through
    `wrap`, as `pushed` is."""

    def recorded(*args: Any) -> Iterator[Part]:
        nodes, answered = trace.nodes, False
        for answer in steps(*args):
            answered = True
            yield answer
        if not answered and trace.nodes == nodes:
            trace.fail()

    return recorded


def failing(trace: Trace, check: Callable[..., bool]) -> Callable[..., bool]:
    """`check(*args)`, a test of the node on top of `trace`'s stack, recorded: the node fails where it is false.

    Taken through `wrap`, as `pushed` is.
    """

    def recorded(*args: Any) -> bool:
        passed = check(*args)
        if not passed:
            trace.fail()
        return passed

    return recorded


# --- reading ---------------------------------------------------------------------------------------

MAX_TRACE_BYTES = 48 * 2**20  # a trace file larger than this is refused: 200,000 events of 240 bytes, twice ours
KEPT_EVENTS = DEFAULT_LIMIT  # events of a file kept when it is read back (a trace written holds at most as many)
_KEYED = json.JSONDecoder(object_pairs_hook=lambda pairs: {sys.intern(key): value for key, value in pairs})


@dataclass
class Recorded:
    """A trace file read back: its header, its first events in order, how many it holds, and its `end` line."""

    header: dict[str, Any]
    events: list[dict[str, Any]] = field(default_factory=list)
    end: dict[str, Any] = field(default_factory=dict)
    written: int = 0  # events in the file, those past the kept ones checked and counted


def read_trace(path: str | Path, max_events: int = KEPT_EVENTS) -> Recorded:
    """The trace in `path`, every line checked against the format, its first `max_events` events kept.

    Read with the guards of every input file (files.read_text: a regular file of at most MAX_TRACE_BYTES, so
    never a FIFO or a device; UTF-8 text), each line with files.parse_json's (nesting, integers too long to
    read). Events past `max_events` are checked and counted, not kept: what a trace costs in memory is bounded
    whatever the file holds. InputError naming the file and line otherwise.
    """
    text = files.read_text(path, "trace file", MAX_TRACE_BYTES)
    where = str(path)
    lines = _lines(text)
    header = _record(next(lines), where, 1)
    if header.get("trace") != "pysolve" or header.get("version") != VERSION:
        raise InputError(f"{where}:1: not a pysolve trace of version {VERSION}")
    recorded = Recorded(header)
    for number, line in enumerate(lines, 2):
        if recorded.end:
            raise InputError(f"{where}:{number - 1}: 'end' before the last line")
        record = _record(line, where, number)
        kind = record.get("e")
        if kind == "end":
            recorded.end = record
            continue
        if kind not in EVENTS:
            raise InputError(f"{where}:{number}: unknown event {files.excerpt(kind)}")
        for key in ("id", "depth", "parent") if kind == "enter" and "parent" in record else ("id", "depth"):
            _count(record.get(key), key, f"{where}:{number}")
        recorded.written += 1
        if len(recorded.events) < max_events:
            recorded.events.append(record)
    if not recorded.end:
        raise InputError(f"{where}: no 'end' line: the search did not finish writing")
    return recorded


def _lines(text: str) -> Iterator[str]:
    """The lines of `text` one at a time (no list of them all: a trace file may hold millions)."""
    start = 0
    while start < len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        yield text[start:end]
        start = end + 1


def _record(line: str, where: str, number: int) -> dict[str, Any]:
    """The JSON object of one line (its keys interned: thousands of events share them); InputError otherwise."""
    record = files.parse_json(line, f"{where}:{number}", _KEYED)
    if not isinstance(record, dict):
        raise InputError(f"{where}:{number}: not a JSON object")
    return record


def _count(value: Any, key: str, where: str) -> None:
    """InputError naming `where` unless `value` (an event's `key`: id, depth, parent) is a whole number >= 0 of
    at most files.MAX_DIGITS digits."""
    if type(value) is not int or not 0 <= value < 10**files.MAX_DIGITS:
        raise InputError(f"{where}: an event's {key!r} is a whole number >= 0 of at most {files.MAX_DIGITS} digits, "
                         f"not {files.excerpt(value)}")
