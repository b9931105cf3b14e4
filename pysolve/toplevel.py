"""`pysolve query`'s answers as SWI-Prolog's top level prints them, and its interactive loop.

The answers come from the rule base's child process (`sandbox.answers`), written there as the top level
writes them (`Next = 'BHBVV'`, `X = f(Y, _A)`, `X in 4..5`); here they get the top level's endings: ` ;`
when another answer follows, `.` on the last when it left no choice point, ` ;` then `false.` when it left
one and no answer came, ` .` where the asking stopped. A goal a limit stopped ends `unknown.` with the
limit as a comment (it did not fail).

The interactive loop (`pysolve query RULES.pl` with no goal) reads a goal a line (ending in `.`), shows its
first answer, and, while the last shown left a choice point, reads `;` for the next or an empty line to
stop. Each next answer asks the goal again for one answer more, in the same child and within the same
limits: simple and bounded, but a goal's side effects (assert, output) happen again each time.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from pysolve import budget, sandbox
from pysolve.errors import PysolveError

PROMPT = "?- "          # the top level's prompt for a goal
CONTINUED = "|    "     # its prompt for the next line of a goal that has no final `.` yet
NEXT = {";", "n", "r"}  # the replies that ask for the next answer (as the top level's ; n r)
HALT = "halt."          # the goal that ends the loop (it would end the child, not the session)


def cut(line: str, width: int) -> str:
    """One line of an answer cut to `width` characters (0: whole), with a note of its full length.

    A binding's separating comma stays at the end.

    >>> cut("L = [1, 2, 3, 4],", 6)
    'L = [1... (16 characters; --max-width 0 shows all),'
    """
    text, comma = (line[:-1], ",") if line.endswith(",") else (line, "")
    if not width or len(text) <= width:
        return line
    return f"{text[:width]}... ({len(text):,} characters; --max-width 0 shows all){comma}"


def answer_text(lines: list[str], width: int) -> str:
    """An answer's lines as the top level prints them, each cut to `width`; `true` when it binds nothing."""
    return "\n".join(cut(line, width) for line in lines) or "true"


def stopped_line(result: sandbox.TopLevelResult) -> str:
    """`unknown.` with the limit that stopped the goal, as a Prolog comment."""
    return f"unknown.  % stopped: {result.reason('the goal')}"


def transcript(result: sandbox.TopLevelResult, limit: int, width: int) -> list[str]:
    """The lines `pysolve query GOAL` prints: the answers with their endings, then how the query ended.

    `result` holds at most `limit` answers (0: all), looked ahead for one more: `more` says whether there
    is one, and the last line says so (`% more answers: --limit N`).
    """
    if result.stopped:
        return [stopped_line(result)]
    if not result.texts:
        return ["false."]
    lines = [answer_text(text, width) + " ;" for text in result.texts[:-1]]
    last = answer_text(result.texts[-1], width)
    if result.more:
        return [*lines, last + " .", f"% more answers: --limit {2 * limit} shows up to {2 * limit}"]
    if result.ahead:
        return [*lines, last + " .", f"% more answers unknown: {result.ahead}"]
    if result.deterministic:
        return [*lines, last + "."]
    return [*lines, last + " ;", "false."]


def forget_reply(reply: str) -> None:
    """Take a reply to an answer (`;`) out of readline's history, which keeps goals; kept when it is a goal."""
    history = sys.modules.get("readline")
    if history is not None and reply.strip() in NEXT and history.get_current_history_length():
        history.remove_history_item(history.get_current_history_length() - 1)


@dataclass
class Session:
    """The interactive loop's reading and printing: lines from `stdin`, the transcript on `stdout`.

    On a terminal, `input` reads each line (with readline's editing and history, when Python has it); else
    each line read is echoed after its prompt, so that the transcript reads as a terminal's would.
    """

    stdin: TextIO = field(default_factory=lambda: sys.stdin)
    stdout: TextIO = field(default_factory=lambda: sys.stdout)
    waiting: list[str] = field(default_factory=list)  # a line read as a reply that is the next goal

    @property
    def terminal(self) -> bool:
        return self.stdin.isatty() and self.stdout.isatty()

    def line(self, prompt: str) -> str | None:
        """The next line, after `prompt`; None at the end of the input."""
        if self.waiting:  # typed after an answer, where it was seen; echoed here when not on a terminal
            text = self.waiting.pop()
            if not self.terminal:
                self.stdout.write(prompt + text + "\n")
            return text
        if self.terminal:
            try:
                return input(prompt)
            except EOFError:
                self.stdout.write("\n")
                return None
        text = self.stdin.readline()
        if not text:
            return None
        self.stdout.write(prompt + text.rstrip("\n") + "\n")
        return text.rstrip("\n")

    def goal(self) -> str | None:
        """The next goal: lines up to one that ends in `.` (blank lines skipped); None at the end of the input."""
        parts: list[str] = []
        while True:
            text = self.line(CONTINUED if parts else PROMPT)
            if text is None:
                return " ".join(parts) or None
            if text.strip():
                parts.append(text.strip())
            if parts and parts[-1].endswith("."):
                return " ".join(parts)

    def wants_next(self, answer: str) -> bool:
        """Show `answer` (which left a choice point) and read the reply: True for `;`, False to stop.

        Any reply but `;` (or n, r) stops, as an empty line does; a reply that is no such letter is kept as
        the next goal.
        """
        if self.terminal:
            try:
                reply = input(answer + " ")
            except EOFError:
                reply = ""
            forget_reply(reply)
        else:
            self.stdout.write(answer + " ")
            reply = self.stdin.readline().rstrip("\n")
            self.stdout.write((";" if reply.strip() in NEXT else ".") + "\n")
        if reply.strip() in NEXT:
            return True
        if reply.strip():
            self.waiting.append(reply)
        return False

    def say(self, text: str) -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()


def ask(rule_base: str, goal: str, session: Session, seconds: float, width: int) -> None:
    """Show `goal`'s answers one at a time while the reader asks for the next, each asked afresh for one more."""
    shown = 0
    while True:
        result = sandbox.answers(rule_base, goal, max_answers=shown + 1, seconds=seconds)
        if result.printed:
            print(f"pysolve: {result.printed.words()}", file=sys.stderr)
        if result.stopped:
            session.say(stopped_line(result))
            return
        if len(result.texts) <= shown:
            session.say("false.")
            return
        answer = answer_text(result.texts[shown], width)
        shown += 1
        if result.deterministic:
            session.say(answer + ".")
            return
        if not session.wants_next(answer):
            return


def interactive(rule_base: str, seconds: float, width: int, session: Session | None = None,
                failed: Callable[[PysolveError], str] = str) -> int:
    """The interactive loop over a rule base until the input ends or `halt.`; exit code 0.

    The rule base is loaded first (its errors raise, as the one-shot form's do). A goal's error is one line
    on stderr (`failed` words it) and the loop goes on; Ctrl-C stops the goal being answered, and the loop
    goes on.
    """
    session = session or Session()
    sandbox.load(rule_base)
    if session.terminal:
        with contextlib.suppress(ImportError):  # input() then edits lines and keeps their history
            import readline  # noqa: F401
        session.say(f"% {Path(rule_base).name}: a goal a line, ending in '.'; ; for the next answer, Enter to "
                    "stop; halt. or Ctrl-D to end")
    while True:
        try:
            goal = session.goal()
        except KeyboardInterrupt:
            budget.interrupt_handled()
            session.say("")
            continue
        if goal is None or goal == HALT:
            return 0
        try:
            ask(rule_base, goal, session, seconds, width)
        except PysolveError as error:
            print(f"pysolve: error: {failed(error)}", file=sys.stderr)
        except KeyboardInterrupt:
            budget.interrupt_handled()
            session.say("% interrupted")
