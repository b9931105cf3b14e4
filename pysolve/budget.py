"""A node and time budget for one search, shared by the Python and miniKanren back ends.

Time is counted on the clock of the work: the CPU time of the thread doing
the search (`time.thread_time`), so a busy machine slows an answer down but
does not turn it into `unknown`. The wall clock is only an outer guard
(`wall_guard`: 5x the limit plus a second) against work that sleeps or
waits, and it leaves out the time the work's thread waited, ready to run,
for a processor (`starved_seconds`): on a machine shared by many, the
guard stops work that sleeps, not work that is kept waiting. Prolog
searches are bounded inside Prolog instead, on Prolog's own CPU clock and
the same guard (`bridge.solutions` takes what is left of the
same budget), since Python cannot interrupt a running Prolog call.
"""

from __future__ import annotations

import _thread
import contextlib
import sys
import threading
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from pysolve import memory
from pysolve.errors import InputError, SearchLimitExceeded

if TYPE_CHECKING:
    from pysolve.trace import Trace

CLOCK_PERIOD = 0.01  # CPU seconds of work between looks at the clock, about: the stride of nodes adapts to it
MAX_STRIDE = 4096  # nodes between looks at the clock at most (cheap nodes)
GUARD_FACTOR, GUARD_SLACK = 5.0, 1.0  # the wall-clock guard of a time limit: 5x the limit, plus a second
CLOCK_WORDS = (f"CPU seconds of the work, so a busy machine does not cut it short; the wall clock stops it at "
               f"{GUARD_FACTOR:g}x the limit plus {GUARD_SLACK:g} s")  # what every --seconds says in --help
DEFAULT_SECONDS = 60.0  # the time limit of a search when nobody says otherwise
MAX_SECONDS = 7 * 24 * 3600.0  # the longest time limit taken: a week (inf would be none; Prolog's alarm needs a number)

_interrupted = False  # set by on_interrupt: Ctrl-C arrived during this run


class _Request(threading.local):
    """The bounds of the request this thread is working for: set by the web server's workers (see
    `serving`); elsewhere a budget has only its own limits."""

    seconds = 0.0  # the longest any budget made here may run (0: no cap)
    gone: threading.Event | None = None  # set once nobody waits for the answer any more


_request = _Request()


@contextlib.contextmanager
def serving(seconds: float, gone: threading.Event) -> Iterator[None]:
    """Cap every budget made in this thread while the block runs.

    While the block runs, every budget made in this thread lasts `seconds` at most, and every budget
    checked here is spent at once when `gone` is set (the web client that asked has left): so a request
    holds a worker thread, and the Prolog lock, for a bounded time, and not at all once it is abandoned.
    """
    before = request_bounds()
    _request.seconds, _request.gone = seconds, gone
    try:
        yield
    finally:
        _request.seconds, _request.gone = before  # a block nested in another leaves the outer bounds in place


def request_bounds() -> tuple[float, threading.Event | None]:
    """The calling thread's bounds set by `serving`.

    Its time limit (0.0: none) and the event set once its client has left (None: none).
    """
    return _request.seconds, _request.gone


def _abandoned() -> bool:
    """True when this thread works for a request whose client has left."""
    return _request.gone is not None and _request.gone.is_set()


def work_clock() -> float:
    """CPU seconds of the calling thread.

    The clock every time limit counts on (Prolog, called in this thread, counts here too).
    """
    return time.thread_time()


SCHEDSTAT = "/proc/thread-self/schedstat"  # Linux: the thread's CPU, run-queue wait and time slices, in ns


def starved_seconds(schedstat: str = SCHEDSTAT) -> float:
    """Seconds a thread has waited, ready to run, for a processor.

    Seconds the calling thread (or the thread whose `schedstat` file is given) has waited, ready to run,
    for a processor: Linux's run-queue delay; 0 where the system does not say. The wall-clock guard does not
    count them.
    """
    try:
        with open(schedstat, "rb") as stats:
            return int(stats.read().split()[1]) / 1e9
    except Exception:  # no such file, another format, or Python exiting (a budget made in a finaliser)
        return 0.0


class GuardClock:
    """The wall-clock guard's clock.

    Wall seconds since it started, less those the work waited for a processor (`starved_seconds`).
    `schedstat` names the thread or process doing the work (a child's /proc/PID/schedstat); without it, the
    threads that read the clock count their own waits, one after another.
    """

    def __init__(self, schedstat: str | None = None) -> None:
        self.schedstat = schedstat
        self.started, self.starved = time.perf_counter(), 0.0
        self._thread, self._mark = threading.get_ident(), self._waited()

    def seconds(self) -> float:
        """The guard's seconds so far."""
        thread, waited = threading.get_ident(), self._waited()
        if self.schedstat or thread == self._thread:
            self.starved += waited - self._mark
        self._thread, self._mark = thread, waited
        return time.perf_counter() - self.started - self.starved

    def _waited(self) -> float:
        """The seconds the work has waited for a processor so far, as its schedstat file says."""
        return starved_seconds(self.schedstat or SCHEDSTAT)


def wall_guard(seconds: float) -> float:
    """Wall seconds after which work with a time limit is stopped anyway.

    Wall seconds after which work with a time limit of `seconds` CPU seconds is stopped anyway, those it
    waited for a processor left out (`GuardClock`): it slept or waited for far longer than it worked.
    """
    return seconds * GUARD_FACTOR + GUARD_SLACK


def most_work(seconds: float) -> float:
    """The most CPU seconds that work with a time limit of `seconds` takes, as pysolve promises it.

    The limit, 10 % more and 0.3 s (the last look at the clock, the answer put together). Tests hold every
    search to it.
    """
    return seconds * 1.1 + 0.3


def guard_words(seconds: float) -> str:
    """The wall-clock guard of a time limit, in words, as a reason ends.

    Why an answer came back as unknown although its CPU time was within the limit.
    """
    return (f"wall-clock guard of {wall_guard(seconds):g} s ({GUARD_FACTOR:g}x its time limit of {seconds:g} s "
            f"plus {GUARD_SLACK:g} s: the work waited or slept)")


def time_limit(seconds: float, what: str = "--seconds") -> float:
    """`seconds` when it is a time limit (above 0, at most MAX_SECONDS).

    InputError naming `what` otherwise, nan and inf included (a limit that is no limit would let a search
    run for ever).
    """
    if not 0 < seconds <= MAX_SECONDS:
        raise InputError(f"{what}: {seconds} is not a time limit; give seconds above 0, at most {MAX_SECONDS:g}")
    return seconds


REDELIVER = 0.01  # seconds after a swallowed interrupt before it is delivered again (out of the finaliser by then)
_redelivery: threading.Timer | None = None  # the redelivery on its way, if any
_echoes = 0  # redeliveries sent to the main thread and not yet arrived
_interrupt_lock = threading.RLock()  # taken by the signal handler too, which runs in the main thread: reentrant


def on_interrupt(signum: int, frame: Any) -> None:
    """SIGINT handler of the CLI: remember the interrupt, then raise KeyboardInterrupt.

    Python swallows an exception raised while a finaliser or weakref callback
    runs (a miniKanren stream closed by the garbage collector, say); the
    remembered interrupt makes the next budget check raise it again, and
    `unraisable` delivers it once more to code that checks no budget, so no
    work outlives Ctrl-C. A redelivery that arrives after the interrupt was
    handled (`interrupt_handled`) is dropped: it would break the run's exit.
    """
    global _interrupted, _echoes
    with _interrupt_lock:
        if _echoes:
            _echoes -= 1
            if not _interrupted:
                return
        _interrupted = True
    raise KeyboardInterrupt


def unraisable(hook_args: Any) -> None:
    """sys.unraisablehook of the CLI.

    An interrupt swallowed in a finaliser is silent and delivered again to the main thread, where the code
    the finaliser interrupted goes on (see on_interrupt); anything else is reported as Python would.

    Never while Python exits (`sys.is_finalizing`): the run is over, and a thread started then never runs,
    so starting one would wait for ever.
    """
    global _redelivery
    if _interrupted and issubclass(hook_args.exc_type, KeyboardInterrupt):
        with _interrupt_lock:
            if not sys.is_finalizing() and (_redelivery is None or not _redelivery.is_alive()):
                _redelivery = threading.Timer(REDELIVER, _redeliver)  # later: not inside this hook, which swallows it
                _redelivery.daemon = True
                _redelivery.start()
        return
    sys.__unraisablehook__(hook_args)


def _redeliver() -> None:
    """Interrupt the main thread again, unless the interrupt was handled meanwhile."""
    global _echoes
    with _interrupt_lock:
        if _interrupted:
            _echoes += 1
            _thread.interrupt_main()


def interrupt_handled() -> None:
    """Say that Ctrl-C reached the code that ends the run (the CLI's `main`).

    No redelivery follows (one would land in the exit, or in the next run of this process), and budgets
    check the clock again.
    """
    global _interrupted
    with _interrupt_lock:
        _interrupted = False
        if _redelivery is not None:
            _redelivery.cancel()


class Budget:
    """Counts the nodes a search visits; `spend()` raises SearchLimitExceeded when they run out, or its time.

    `seconds` is CPU time of the thread that does the work (`work_clock`), looked at about every
    CLOCK_PERIOD of it whatever a node costs, and within `wall_guard(seconds)` of the wall clock. Made in a
    web worker, its time limit is at most the request's cap (see `serving`), unbounded included. The search
    also finds here the recorder of its trace, `trace` (None: nothing is recorded; see pysolve.trace), since
    the budget is what every search is handed.
    """

    def __init__(self, nodes: int = 0, seconds: float = 0.0, label: str = "search") -> None:
        """`nodes` and `seconds` 0: unbounded; InputError for seconds that are no time limit (nan, inf, -1)."""
        cap = _request.seconds
        self.nodes, self.label = nodes, label
        seconds = time_limit(seconds) if seconds else 0.0
        self.seconds = min(seconds or cap, cap) if cap else seconds
        self.spent = 0
        self.guard = GuardClock()
        self._thread, self._cpu_started = threading.get_ident(), work_clock()
        self._stride, self._next_look, self._last_look = 1, 1, self._cpu_started
        self.steps, self._next_step = 0, 1  # work that is no node (`step`), looked at by the same stride
        self._counted = 0  # nodes and steps at the last look: the stride adapts to what they cost
        self.trace: Trace | None = None

    def spend(self, nodes: int = 1) -> None:
        """Count `nodes` nodes; raise SearchLimitExceeded when the node or time budget is gone."""
        self.spent += nodes
        if self.nodes and self.spent > self.nodes:
            raise SearchLimitExceeded(f"{self.label} passed its budget of {self.nodes} nodes")
        if self.spent >= self._next_look:
            self.check()

    def step(self) -> None:
        """Count one step of work that visits no node (a propagator run).

        The clock is looked at as for nodes, about every CLOCK_PERIOD of CPU time whatever a step costs.
        """
        self.steps += 1
        if self.steps >= self._next_step:
            self.check()

    def cpu_seconds(self) -> float:
        """CPU seconds the work has taken so far, on the clock of the thread that asks.

        A budget made in one thread and spent in another carries over what it counted at its last look in
        the first.
        """
        if threading.get_ident() != self._thread:
            counted = self._last_look - self._cpu_started
            self._thread, self._last_look = threading.get_ident(), work_clock()
            self._cpu_started = self._last_look - counted
        return work_clock() - self._cpu_started

    def check(self) -> None:
        """Raise SearchLimitExceeded when the budget is spent.

        Raise SearchLimitExceeded when the time budget is gone (work that visits no node: building tables),
        its wall-clock guard passed, or the request it works for was abandoned; MemoryError near the memory
        bound (`memory.watch`); KeyboardInterrupt when Ctrl-C arrived and was lost on the way (see
        on_interrupt). Sets how many nodes pass before the next look, so
        that about CLOCK_PERIOD of CPU time passes between looks: it grows only on nodes or steps counted (a
        look at the clock while building tables says nothing of what a node costs), and shrinks at once to the
        nodes that took CLOCK_PERIOD when they cost more than thought.
        """
        if _interrupted:
            raise KeyboardInterrupt
        if _abandoned():
            raise SearchLimitExceeded(f"{self.label} was stopped: the request that asked for it was abandoned")
        memory.watch()
        used = self.cpu_seconds()
        now = self._cpu_started + used
        since, self._last_look = now - self._last_look, now
        counted = self.spent + self.steps
        moved, self._counted = counted - self._counted, counted
        if since > 2 * CLOCK_PERIOD and moved:
            self._stride = max(1, min(self._stride // 2, int(moved * CLOCK_PERIOD / since)))
        elif since < CLOCK_PERIOD / 2 and moved >= self._stride:
            self._stride = min(MAX_STRIDE, self._stride * 2)
        self._next_look, self._next_step = self.spent + self._stride, self.steps + self._stride
        if not self.seconds:
            return
        if used > self.seconds:
            raise SearchLimitExceeded(f"{self.label} passed its time limit of {self.seconds:g} s")
        if self.guard.seconds() > wall_guard(self.seconds):
            raise SearchLimitExceeded(f"{self.label} passed its {guard_words(self.seconds)}")

    def remaining(self) -> float:
        """CPU seconds left of the time budget (0 when it is gone, or its request abandoned).

        DEFAULT_SECONDS when unbounded.
        """
        if _abandoned():
            return 0.0
        if not self.seconds:
            return DEFAULT_SECONDS
        return max(self.seconds - self.cpu_seconds(), 0.0)

    def wall_remaining(self) -> float:
        """Seconds left on the guard's clock before the budget's guard (`wall_guard`).

        The guard of DEFAULT_SECONDS when unbounded.
        """
        if not self.seconds:
            return wall_guard(DEFAULT_SECONDS)
        return max(wall_guard(self.seconds) - self.guard.seconds(), 0.0)

    def tick(self) -> Any:
        """A miniKanren goal that spends one node of this budget and succeeds once."""

        def tick_goal(state: dict) -> Iterator[dict]:
            self.spend()
            yield state

        return tick_goal
