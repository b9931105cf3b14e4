"""Rules a user brings run here: in a `swipl` child process of their own, never in pysolve's engine.

A rule base of one's own (`pysolve check PUZZLE RULES.pl`, `pysolve query`,
`pysolve.query`, `pysolve.RuleBase`) may halt, abort, loop in C, overflow
its stacks, print, or try to start a process. In pysolve's embedded engine
(pysolve.bridge) any of these would end, hang or garble pysolve itself; in
the child (prolog/pysolve_sandbox.pl) they end at most the child, and each
comes back as a one-line verdict (`RulesCrashed`, `RulesRefused`) or as a
limit (`QueryResult.status`). Each rule base gets a child of its own, kept
warm for every question on it, so that it loads as it loads in a fresh
`swipl`: what another rule base loaded (library(clpfd) brings
library(apply_macros), whose goal expansion is global) never changes how it
compiles. The next question after a death starts a fresh child (and loads
the rule base again).

The child's bounds: its goals' CPU limit and wall-clock guard inside Prolog
(pysolve_bridge:bounded_solutions/9, the same as in-process), the wall-clock
guard again from here (the child is killed past it), RLIMIT_CPU a little past
each goal's limit (for C code that never looks at Prolog's alarms), an
address-space bound with Prolog's stacks well inside it (so a deep recursion
is a memory limit, not a crash), and a bound on the bytes it may write.
What the rules print goes to files of their own, only measured.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import math
import os
import re
import resource
import select
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pysolve import bridge, memory
from pysolve.budget import DEFAULT_SECONDS, GuardClock, guard_words, time_limit, wall_guard
from pysolve.errors import BackendUnavailable, PrologError, RulesCrashed, RulesRefused
from pysolve.files import excerpt
from pysolve.options import Option, check, seconds_option, wrong_argument
from pysolve.paths import rule_base_dir

MEMORY = 2 * 2**30          # the child's address space when the run sets no memory bound of its own
WARM_CHILDREN = 4           # children kept running, one per rule base, the least recently asked stopped first
MAX_STACK = 2**30           # Prolog's stack limit at most (SWI-Prolog's own default)...
STACK_SHARE = 4             # ...and at most this fraction of the address space: room for the rest
WRITE_LIMIT = 64 * 2**20    # bytes the child may write to any one file (its printed output included)
POLL_MOST = 2**31 - 1       # milliseconds poll() waits at most (a C int): a week's guard waits in turns
CPU_MARGIN = 1.0            # CPU seconds past a goal's limit at which the kernel stops the child (RLIMIT_CPU)
WALL_MARGIN = 1.0           # seconds past a goal's wall-clock guard at which pysolve kills the child
LOAD_SECONDS = 10.0         # CPU seconds loading a rule base may take (its directives run then)
EXIT_SECONDS = 1.0          # how long a child that halted gets to exit before it is killed
STDERR_TAIL = 2000          # bytes of the child's standard error kept in a crash's detail
LOAD_ADVICE = "a rule base defines predicates, pysolve asks its own questions: remove the directive"
REFUSAL = "pysolve refuses to start processes from rules it checks"
FLOODED = f"the rules printed {WRITE_LIMIT // 2**20} MB or more, pysolve's bound on what rules write"


@dataclass(frozen=True)
class Printed:
    """Bytes the rules wrote to standard output and standard error while answering (not shown)."""

    stdout: int = 0
    stderr: int = 0

    def __bool__(self) -> bool:
        return bool(self.stdout or self.stderr)

    def __add__(self, other: Printed) -> Printed:
        return Printed(self.stdout + other.stdout, self.stderr + other.stderr)

    def words(self) -> str:
        """`the rules printed 1,234 bytes to standard output (not shown)`, and standard error likewise."""
        parts = [f"{count:,} bytes to {where}"
                 for count, where in ((self.stdout, "standard output"), (self.stderr, "standard error")) if count]
        return f"the rules printed {' and '.join(parts)} (not shown)"

    def to_json(self) -> dict[str, int]:
        """The counts as JSON: {"stdout": N, "stderr": M}."""
        return {"stdout": self.stdout, "stderr": self.stderr}


@dataclass
class ChildResult(bridge.QueryResult):
    """A QueryResult from the child.

    Also the goal's CPU seconds there (this thread's clock does not count them), what the rules printed,
    and the logical inferences the goal took (a measure of its work that the machine's load does not
    change).
    """

    cpu_seconds: float = 0.0
    printed: Printed = field(default_factory=Printed)
    inferences: int = 0


@dataclass
class TopLevelResult(ChildResult):
    """A ChildResult whose answers are also written as SWI-Prolog's top level writes them (`sandbox.answers`).

    `texts` holds each answer's lines (`X = 'BHV',` and `Y = f(_A)`; none for `true`), `deterministic` says
    whether the last answer left no choice point, `more` whether the goal has an answer past the last
    (None when that was not asked, or a limit or an error stopped the search for it: `ahead` says which).
    """

    texts: list[list[str]] = field(default_factory=list)
    deterministic: bool = False
    more: bool | None = None
    ahead: str = ""


@dataclass(frozen=True)
class Death:
    """How a child ended while it served a request.

    The marker it left (halt, abort, refused), its exit status (negative: the signal that ended it), whether
    pysolve killed it past the wall-clock guard, and the end of what it wrote to standard error.
    """

    marker: dict[str, Any]
    returncode: int
    guarded: bool
    stderr: str


class Died(Exception):
    """Raised inside this module when the child ended while serving a request: carries its Death."""

    def __init__(self, death: Death) -> None:
        super().__init__(death)
        self.death = death


def swipl() -> str:
    """The `swipl` program; BackendUnavailable when SWI-Prolog is hidden (bridge.HIDE_VARIABLE) or missing."""
    if os.environ.get(bridge.HIDE_VARIABLE):
        raise BackendUnavailable(f"SWI-Prolog is hidden by {bridge.HIDE_VARIABLE}="
                                 f"{os.environ[bridge.HIDE_VARIABLE]}", hidden=True)
    program = shutil.which("swipl")
    if program is None:
        raise BackendUnavailable("SWI-Prolog was not found: no swipl program on PATH")
    return program


def child_memory() -> int:
    """The child's address-space bound: the run's own memory bound when it has one, else MEMORY."""
    return memory.current_limit() or MEMORY


def prolog_atom(text: str) -> str:
    """`text` as a quoted Prolog atom on one line (control characters escaped), for a request."""
    escaped = text.replace("\\", "\\\\").replace("'", "\\'")
    return "'" + re.sub(r"[\x00-\x1f\x7f]", lambda match: f"\\x{ord(match.group()):x}\\", escaped) + "'"


def seconds_term(seconds: float) -> str:
    """Seconds as a Prolog float (never in exponent form)."""
    return f"{max(seconds, 0.001):.6f}"


class Output:
    """A file the child writes one of its standard streams to.

    Unlinked, appended to, emptied after each request (so that its size is what the request printed).
    """

    def __init__(self) -> None:
        handle, path = tempfile.mkstemp(prefix="pysolve-rules-")
        try:
            self.fd = os.open(path, os.O_RDWR | os.O_APPEND)
        finally:
            os.close(handle)
            os.unlink(path)

    def taken(self) -> int:
        """The bytes written since the last call, which empties the file."""
        size = os.fstat(self.fd).st_size
        os.ftruncate(self.fd, 0)
        return size

    def tail(self, size: int) -> str:
        """The last `size` bytes written (since the file was last emptied), as text."""
        end = os.fstat(self.fd).st_size
        return os.pread(self.fd, size, max(end - size, 0)).decode("utf-8", "replace")

    def close(self) -> None:
        os.close(self.fd)


class Child:
    """One `swipl` process running prolog/pysolve_sandbox.pl.

    Its request and reply pipes, the files its output goes to, and the module of the one rule base
    loaded in it ("" until it is loaded).
    """

    def __init__(self) -> None:
        program = swipl()
        self.stdout, self.stderr = Output(), Output()
        request_read, self.requests = os.pipe()
        self.replies, reply_write = os.pipe()
        size = child_memory()
        stack = min(MAX_STACK, size // STACK_SHARE)
        command = [program, "--no-packs", "-q", f"--stack-limit={stack // 2**20}m", "-g", "pysolve_sandbox:main",
                   "-t", "halt(1)", str(rule_base_dir() / "pysolve_sandbox.pl"), "--",
                   str(request_read), str(reply_write)]
        try:
            self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=self.stdout.fd,
                                            stderr=self.stderr.fd, pass_fds=(request_read, reply_write),
                                            start_new_session=True)
        except BaseException:
            for fd in (self.requests, self.replies):
                os.close(fd)
            self.stdout.close()
            self.stderr.close()
            raise
        finally:
            os.close(request_read)
            os.close(reply_write)
        self.bound(resource.RLIMIT_AS, size)
        self.bound(resource.RLIMIT_FSIZE, WRITE_LIMIT)
        self.bound(resource.RLIMIT_CORE, 0)  # a crash leaves no core file in the user's folder
        self.module = ""
        self.process_cpu = 0.0  # the child's CPU seconds as its last reply gave them
        self.buffer = b""

    def bound(self, limit: int, soft: int) -> None:
        """Set the child's soft `limit` to `soft` (within its hard limit).

        Linux only (resource.prlimit); elsewhere the child runs with pysolve's own limits.
        """
        if not hasattr(resource, "prlimit"):
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):  # it died: its next request says how
            _, hard = resource.prlimit(self.process.pid, limit)
            wanted = soft if hard == resource.RLIM_INFINITY else min(soft, hard)
            resource.prlimit(self.process.pid, limit, (wanted, hard))

    def request(self, text: str, seconds: float, guard: float) -> dict[str, Any]:
        """Send one request and return its reply.

        Died when the child ended first (or was killed past the wall-clock guard, `guard` + WALL_MARGIN
        seconds). The kernel stops it a little past `seconds` more CPU time (RLIMIT_CPU). Ctrl-C kills it,
        then goes on as KeyboardInterrupt.
        """
        self.bound(resource.RLIMIT_CPU, math.ceil(self.process_cpu + seconds + CPU_MARGIN))
        data = text.encode("utf-8")
        try:
            while data:
                data = data[os.write(self.requests, data):]
        except BrokenPipeError:
            raise Died(self.ended(guarded=False)) from None
        return self.reply(guard)

    def reply(self, guard: float) -> dict[str, Any]:
        """The child's next reply, read as `request` reads it (a request may get more than one)."""
        try:
            line = self.read_line(guard + WALL_MARGIN)
        except KeyboardInterrupt:
            self.kill()
            raise
        if line is None:
            raise Died(self.ended(guarded=True))
        if not line:
            raise Died(self.ended(guarded=False))
        reply = json.loads(line)
        if reply.get("halted"):
            raise Died(self.ended(guarded=False, marker=reply))
        if "failed" in reply:
            raise PrologError(f"pysolve's Prolog child process could not serve a request: {reply['failed']}")
        self.process_cpu = float(reply.get("process_cpu", self.process_cpu))
        return reply

    def read_line(self, wait: float) -> bytes | None:
        """The child's next reply line, within `wait` seconds of the guard's clock.

        The next reply line, at most `wait` seconds away on the guard's clock (the time the child waited
        for a processor left out: `budget.GuardClock`), None when the time is up; b"" when the child
        closed its end of the pipe (it ended).
        """
        clock = GuardClock(f"/proc/{self.process.pid}/schedstat")
        poller = select.poll()  # not select.select: a busy process (the web server) may hold fds past 1024
        poller.register(self.replies, select.POLLIN)
        chunks = [self.buffer]
        while b"\n" not in chunks[-1]:
            left = wait - clock.seconds()
            if left <= 0:
                return None
            if not poller.poll(min(math.ceil(left * 1000), POLL_MOST)):
                continue
            chunk = os.read(self.replies, 1 << 20)
            if not chunk:
                return b""
            chunks.append(chunk)
        data = b"".join(chunks)
        line, _, self.buffer = data.partition(b"\n")
        return line

    def ended(self, guarded: bool, marker: dict[str, Any] | None = None) -> Death:
        """How the child ended, its whole process group killed.

        At once when it passed the wall-clock guard (`guarded`) or the rules halted (the `marker` holds the
        exit status), else once it has exited (given EXIT_SECONDS; a crash runs the at_halt marker too, with
        no status).
        """
        if not guarded and not halted(marker):
            self.exited(EXIT_SECONDS)
        self.kill()
        status = (marker or {}).get("status")
        returncode = status if isinstance(status, int) else self.process.returncode
        return Death(marker or {}, returncode, guarded, self.stderr.tail(STDERR_TAIL))

    def printed(self) -> Printed:
        """What the rules printed since this was last asked (while loading, then answering), counted and thrown away."""
        return Printed(self.stdout.taken(), self.stderr.taken())

    def exited(self, wait: float) -> None:
        """Wait up to `wait` seconds for the child to exit, without reaping it.

        Until it is reaped its process group cannot be reused, so `kill` can still kill what it left in the
        group, and its exit status stays.
        """
        deadline = time.monotonic() + wait
        if not hasattr(os, "waitid"):  # no waitid here (macOS): reap it, or give up at the deadline
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(wait)
            return
        while os.waitid(os.P_PID, self.process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None:
            if time.monotonic() > deadline:
                return
            time.sleep(0.002)

    def kill(self) -> None:
        """Kill the child's whole process group (unless it was reaped already) and reap it."""
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def close(self) -> None:
        """Stop the child (killed: its work is of no use any more) and free its pipes and files."""
        if self.process.returncode is None:
            self.kill()
        for fd in (self.requests, self.replies):
            os.close(fd)
        self.stdout.close()
        self.stderr.close()


def halted(marker: dict[str, Any] | None) -> bool:
    """True when the rules halted or aborted the child.

    True when the child's halt marker says the rules called halt/1 or abort/0 (a crash leaves a marker
    with neither).
    """
    return marker is not None and (isinstance(marker.get("status"), int) or bool(marker.get("aborted")))


def signal_name(number: int) -> str:
    """A signal by its name (SIGSEGV), or its number when Python knows no name for it."""
    try:
        return signal.Signals(number).name
    except ValueError:
        return str(number)


def death_words(death: Death) -> str:
    """How the engine running the rules ended, in words, when neither a halt nor a limit ended it.

    The fatal signal SWI-Prolog reports on standard error, else the one that ended it, else its exit
    status.
    """
    fatal = re.search(r"received fatal signal (\d+)", death.stderr)
    if fatal:
        return f"the Prolog engine running the rules died (signal {signal_name(int(fatal.group(1)))})"
    if death.returncode < 0:
        return f"the Prolog engine running the rules died (signal {signal_name(-death.returncode)})"
    return f"the Prolog engine running the rules exited (code {death.returncode}) without answering"


def halt_words(death: Death) -> str:
    """`halt/0` or `halt(3)`: what the rules called, from the exit status it left."""
    return "halt/0" if death.returncode == 0 else f"halt({death.returncode})"


def crash(message: str, death: Death, kind: str) -> RulesCrashed:
    """The verdict `message`, with what the engine last wrote to standard error as its detail."""
    tail = death.stderr.strip()
    return RulesCrashed(message, kind, f"{message}\n{tail}" if tail else "")


def goal_death(death: Death, goal: str, module: str, seconds: float) -> ChildResult:
    """What a death while answering `goal` means.

    A limit (the wall-clock guard, or the kernel's CPU backstop past the time limit of `seconds`) is an
    answer whose status says so; anything else raises its verdict.
    """
    if death.guarded:
        return ChildResult([], "wall_limit", guard_words(seconds))
    if death.returncode == -signal.SIGXCPU:  # its CPU time ran past the limit: at least `seconds`
        return ChildResult([], "time_limit", bridge.limit_words("time_limit", seconds, 0, ""), seconds)
    where = f"goal {excerpt(goal)} in {module}"
    if death.marker.get("aborted"):
        raise crash(f"{where}: the rules called abort/0, which ends the Prolog engine running them", death, "abort")
    if halted(death.marker):
        raise crash(f"{where}: the rules called {halt_words(death)}, which ends the Prolog engine running them",
                    death, "halt")
    raise crash(f"{where}: {death_words(death)}", death, "died")


def load_death(death: Death, path: Path, seconds: float) -> PrologError:
    """The error of a rule base whose loading ended the child.

    A limit, a halt or abort in a directive (with its line), or a crash.
    """
    if death.guarded:
        return PrologError(f"rule base {path.name} did not load: loading it passed its {guard_words(seconds)}")
    if death.returncode == -signal.SIGXCPU:
        return PrologError(f"rule base {path.name} did not load: loading it passed its time limit of {seconds:g} s")
    called = "abort/0" if death.marker.get("aborted") else halt_words(death)
    if halted(death.marker):
        line = death.marker.get("line")
        file = death.marker.get("file")
        where = "" if line is None else f" (line {line})" if file == str(path) else f" ({file}, line {line})"
        return crash(f"{path.name} called {called} while loading{where}; {LOAD_ADVICE}", death,
                     "abort" if called == "abort/0" else "halt")
    return crash(f"rule base {path.name} did not load: {death_words(death)}", death, "died")


@dataclass(frozen=True)
class Asked:
    """The replies to one request about a goal, what the rules printed meanwhile, and the goal's time limit.

    Two replies when the search went on for one more answer (the second says whether there is one).
    """

    replies: list[dict[str, Any]]
    printed: Printed
    limit: float


def looked_ahead(reply: dict[str, Any], limit: float) -> tuple[bool | None, str]:
    """Whether the search for one more answer found one, from its reply (or the child's end while looking).

    None and why when that is unknown: a limit stopped it, the goal raised an error, or the rules ended the
    engine.
    """
    if "died" in reply:
        try:
            stopped = goal_death(reply["died"], reply["goal"], reply["module"], limit)
        except RulesCrashed as crash:
            said = str(crash).partition(f" in {reply['module']}: ")[2]  # what ended it, without the goal
            return None, f"looking for one more answer, {said}"
        return None, f"looking for one more answer passed its {stopped.limit}"
    if reply["status"] == "error":
        text = str(reply["message"]).strip()
        return None, f"looking for one more answer raised an error: {text.splitlines()[0] if text else 'error'}"
    if reply["more"] is None:
        words = bridge.limit_words(reply["status"], limit, 0, str(reply["message"]))
        return None, f"looking for one more answer passed its {words}"
    return bool(reply["more"]), ""


class Sandbox:
    """The children that run rules of one's own.

    One per rule base, started on its first question and kept warm (WARM_CHILDREN of them at most); a
    question after a child's death starts a fresh one. One question at a time (a lock around them all).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._children: dict[Path, Child] = {}  # rule base -> its child, the most recently asked last
        self._last: Path | None = None           # the rule base asked last
        self._pid = os.getpid()  # a forked copy of pysolve starts children of its own

    def load(self, rule_base: str | os.PathLike[str], seconds: float = LOAD_SECONDS) -> str:
        """Load a rule base into its child (once per child) and return its module.

        PrologError when it does not load cleanly, RulesRefused when it starts a process, RulesCrashed
        when it ends the child.
        """
        path = bridge.resolve_rule_base(rule_base)
        with self._lock, self._serving(path) as child:
            return self._loaded(child, path, seconds)

    def solutions(self, rule_base: str | os.PathLike[str], goal: str, *, max_solutions: int = 0,
                  seconds: float | None = None, inferences: int = 0) -> ChildResult:
        """`goal` (Prolog text) in the rule base's module, in its child.

        The contract of `bridge.solutions` (its bounds, statuses, limit words and PrologError), plus
        RulesCrashed or RulesRefused with a one-line verdict when the rules end the child or try to
        start a process.
        """
        def request(module: str, limit: float, guard: float) -> str:
            return (f"ask({prolog_atom(goal)}, {prolog_atom(module)}, {int(max_solutions)}, "
                    f"{seconds_term(limit)}, {seconds_term(guard)}, {int(inferences)}).\n")

        asked = self._asked(rule_base, goal, seconds, request)
        if isinstance(asked, ChildResult):
            return asked
        reply = asked.replies[0]
        names = reply["names"]
        rows = [dict(zip(names, values)) for values in reply["rows"]]
        limit_words = bridge.limit_words(reply["status"], asked.limit, inferences, str(reply["message"]))
        return ChildResult(rows, reply["status"], limit_words, float(reply["cpu"]), asked.printed,
                           int(reply["inferences"]))

    def answers(self, rule_base: str | os.PathLike[str], goal: str, *, max_answers: int = 0,
                look_ahead: bool = False, seconds: float | None = None) -> TopLevelResult:
        """`goal`'s answers in the rule base's child, each also as the top level writes it (`pysolve query`).

        At most `max_answers` (0: all); with `look_ahead`, when the last of them leaves a choice point, the
        search goes on for one more (never shown: `more` says whether there is one). The bounds and errors
        of `solutions`, the time limit covering the look ahead too; a limit, an error or an end of the
        engine while looking ahead leaves the answers, `more` None and `ahead` saying why.
        """
        def request(module: str, limit: float, guard: float) -> str:
            return (f"top({prolog_atom(goal)}, {prolog_atom(module)}, {int(max_answers)}, "
                    f"{str(look_ahead).lower()}, {seconds_term(limit)}, {seconds_term(guard)}).\n")

        asked = self._asked(rule_base, goal, seconds, request)
        if isinstance(asked, ChildResult):
            return TopLevelResult(asked.rows, asked.status, asked.limit, asked.cpu_seconds)
        reply, *ahead = asked.replies
        names = reply["names"]
        rows, texts = reply["answers"] or ([], [])
        last = ahead[0] if ahead and "cpu" in ahead[0] else reply  # the look ahead's counts include the answers'
        result = TopLevelResult([dict(zip(names, values)) for values in rows], reply["status"],
                                bridge.limit_words(reply["status"], asked.limit, 0, str(reply["message"])),
                                float(last["cpu"]), asked.printed, int(last["inferences"]), texts,
                                bool(reply["det"]))
        if ahead:
            result.more, result.ahead = looked_ahead(ahead[0], asked.limit)
            if result.more is False:  # the answers are all there are
                result.status = "complete"
        elif look_ahead and result.complete:  # the search ended by itself: there is no answer past the last
            result.more = False
        return result

    def _asked(self, rule_base: str | os.PathLike[str], goal: str, seconds: float | None,
               request: Callable[[str, float, float], str]) -> Asked | ChildResult:
        """Send `request(module, limit, guard)` about `goal` to the rule base's child, and take its replies.

        A ChildResult when a limit ended the child first; RulesCrashed, RulesRefused or PrologError with a
        one-line verdict when the rules ended it, started a process, flooded their output or raised an error.
        A reply that says the search goes on (`looking`) is followed by one more, or by how the child ended.
        """
        limit = DEFAULT_SECONDS if seconds is None else time_limit(float(seconds), "seconds")
        guard = wall_guard(limit)
        path = bridge.resolve_rule_base(rule_base)
        with self._lock, self._serving(path) as child:
            module = self._loaded(child, path, LOAD_SECONDS)
            try:
                replies = [child.request(request(module, limit, guard), limit, guard)]
            except Died as died:
                return goal_death(died.death, goal, module, limit)
            if replies[0].get("looking"):
                try:
                    replies.append(child.reply(guard))
                except Died as died:
                    replies.append({"died": died.death, "goal": goal, "module": module})
            printed = child.printed()
            if max(printed.stdout, printed.stderr) >= WRITE_LIMIT:  # the kernel cut the writes there (RLIMIT_FSIZE)
                child.kill()  # its output streams keep the error: the next question gets a fresh child
                raise PrologError(f"goal {excerpt(goal)} in {module}: {FLOODED}")
        for reply in replies:
            if reply.get("refused"):
                raise RulesRefused(f"goal {excerpt(goal)} in {module}: the rules called {reply['refused']}: {REFUSAL}")
        reply = replies[0]
        if reply["status"] == "error":
            raise bridge.goal_error(goal, module, str(reply["message"]))
        return Asked(replies, printed, limit)

    @contextlib.contextmanager
    def _serving(self, path: Path) -> Iterator[Child]:
        """The child of the rule base `path` (started when it has none, the least recently asked child
        stopped past WARM_CHILDREN); forgotten when it died while serving, so that the next question starts
        a fresh one, and killed when anything but an answer ends the block (Ctrl-C, an error of pysolve's
        own), whose reply would otherwise answer the next question. Called with the lock held."""
        if self._pid != os.getpid():  # a forked copy: the children and their pipes are the parent's
            self._children, self._last, self._pid = {}, None, os.getpid()
        child = self._children.pop(path, None) or Child()
        self._children[path] = child
        self._last = path
        while len(self._children) > WARM_CHILDREN:
            self._children.pop(next(iter(self._children))).close()
        try:
            yield child
        except BaseException:  # a request may be left unanswered: its reply would answer the next one
            child.kill()
            raise
        finally:
            if child.process.poll() is not None:
                child.close()
                del self._children[path]

    def _loaded(self, child: Child, path: Path, seconds: float) -> str:
        """The module of `path` in its child, loading it there first when it is not yet."""
        if child.module:
            return child.module
        guard = wall_guard(seconds)
        request = f"load({prolog_atom(str(path))}, {seconds_term(seconds)}, {seconds_term(guard)}).\n"
        try:
            reply = child.request(request, seconds, guard)
        except Died as died:
            raise load_death(died.death, path, seconds) from None
        if reply["refused"]:
            raise RulesRefused(f"rule base {path.name} did not load: it called {reply['refused']} while loading: "
                               f"{REFUSAL}")
        if reply["problems"]:
            child.kill()  # what loaded before the problem stays in the engine: the next try starts afresh
            raise PrologError(*bridge.load_problems(path, reply["problems"]))
        child.module = str(reply["module"])
        return child.module

    def close(self) -> None:
        """Stop the children, if they are this process's own."""
        with self._lock:
            if self._pid == os.getpid():
                for child in self._children.values():
                    child.close()
            self._children, self._last = {}, None

    def pid(self, rule_base: str | os.PathLike[str] | None = None) -> int | None:
        """The process id of the child that runs `rule_base` (the rule base asked last when None).

        The same one question after question; None when none runs.
        """
        path = self._last if rule_base is None else bridge.resolve_rule_base(rule_base)
        child = self._children.get(path) if path is not None else None
        return child.process.pid if child is not None and child.process.returncode is None else None

    def kill(self) -> None:
        """Kill the children without waiting for the lock (at exit, when a thread may hold it mid-question)."""
        if self._pid != os.getpid():
            return
        for child in list(self._children.values()):
            if child.process.returncode is None:
                child.kill()


_sandbox = Sandbox()
atexit.register(_sandbox.kill)


def solutions(rule_base: str | os.PathLike[str], goal: str, *, max_solutions: int = 0, seconds: float | None = None,
              inferences: int = 0) -> ChildResult:
    """Run `goal` (Prolog text, user-supplied) in a rule base's child process (`pysolve.query`).

    The rule base is a shipped one by name or a .pl file; the bounds and the answers are `bridge.solutions`'s.
    RulesCrashed or RulesRefused when the rules end the child or start a process.

    >>> result = solutions("fichas", "move('BBHVV', Next)")
    >>> result.status, [row["Next"] for row in result.rows]
    ('complete', ['BHBVV', 'HBBVV', 'BBVHV', 'BBVVH'])
    >>> solutions("fichas", "between(1, inf, X)", max_solutions=2).rows
    [{'X': 1}, {'X': 2}]
    """
    bounds = query_arguments(rule_base, goal, max_solutions=max_solutions, seconds=seconds, inferences=inferences)
    return _sandbox.solutions(rule_base, goal, **bounds)


QUERY_BOUNDS = (Option("max_solutions", int, 0, minimum=0), Option("inferences", int, 0, minimum=0),
                seconds_option(DEFAULT_SECONDS, "time limit of the goal"))


def query_arguments(rule_base: Any, goal: Any, **bounds: Any) -> dict[str, Any]:
    """The bounds of `pysolve.query`, checked as the CLI's options are (QUERY_BOUNDS), by name.

    InputError naming the argument when the rule base is no name or path, the goal no text, or a bound is not
    what it takes.
    """
    if not isinstance(rule_base, (str, os.PathLike)) or not isinstance(os.fspath(rule_base), str):
        raise wrong_argument("rule_base", "a shipped rule base's name or a .pl file's path", rule_base)
    if not isinstance(goal, str):
        raise wrong_argument("goal", "a Prolog goal as text", goal)
    return check(QUERY_BOUNDS, bounds, "pysolve.query")


def answers(rule_base: str | os.PathLike[str], goal: str, *, max_answers: int = 0, look_ahead: bool = False,
            seconds: float | None = None) -> TopLevelResult:
    """Run `goal` in a rule base's child process, each answer also written as the top level writes it.

    For `pysolve query`: `Sandbox.answers` says what `max_answers` and `look_ahead` do.

    >>> result = answers("fichas", "move('BBHVV', Next)", max_answers=2, look_ahead=True)
    >>> result.texts, result.more
    ([["Next = 'BHBVV'"], ["Next = 'HBBVV'"]], True)
    >>> answers("fichas", "X = f(Y, _Z), length(L, 1)").texts
    [['X = f(Y, _Z),', 'L = [_]']]
    """
    return _sandbox.answers(rule_base, goal, max_answers=max_answers, look_ahead=look_ahead, seconds=seconds)


def load(rule_base: str | os.PathLike[str]) -> str:
    """Load a rule base in its child (`Sandbox.load`) and return its module.

    PrologError when it does not load cleanly, as `bridge.load` says it.
    """
    return _sandbox.load(rule_base)


def close() -> None:
    """Stop the children now (the next question starts a fresh one)."""
    _sandbox.close()


def pid(rule_base: str | os.PathLike[str] | None = None) -> int | None:
    """The process id of the child that runs `rule_base` (the rule base asked last when None), None when none runs."""
    return _sandbox.pid(rule_base)
