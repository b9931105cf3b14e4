"""Code pysolve does not own (a solver of one's own in Python) called within a time limit, as a back end runs.

pysolve's back ends look at their budget as they search; a function of
one's own does not, so it is stopped from outside: in the main thread by
signals, SIGPROF when its CPU time passes the limit (the clock of the work,
`budget.work_clock`) and SIGALRM at the wall-clock guard (`wall_guard`:
a function that sleeps or waits), each raising SearchLimitExceeded in the
function with the words a back end's budget uses. Off the main thread no
signal reaches it: it runs in a thread of its own that is abandoned at the
wall-clock guard.
"""

from __future__ import annotations

import contextlib
import signal
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from pysolve.budget import GuardClock, guard_words, time_limit, wall_guard, work_clock
from pysolve.errors import SearchLimitExceeded

T = TypeVar("T")
SOON = 1e-6  # seconds: how soon a timer that would have fired while it was put aside fires once put back


def call_bounded(function: Callable[[], T], seconds: float, what: str) -> T:
    """`function()`'s value within a time limit of `seconds`.

    `function()`'s value, or SearchLimitExceeded ("`what` passed its time limit of N s", or its wall-clock
    guard) when it runs past `seconds` CPU seconds of the calling thread or `wall_guard(seconds)` of the
    wall clock. Whatever it raises comes through. InputError for `seconds` that are no time limit.
    """
    time_limit(seconds, f"the time limit of {what}")
    if threading.current_thread() is threading.main_thread():
        with _Alarms(seconds, what).armed():
            return function()
    return _in_a_thread(function, seconds, what)


class _Alarms:
    """The two timers of one bounded call in the main thread and their handlers: SIGPROF at the time limit
    (process CPU time, which passes the thread's no sooner: at each SIGPROF what is left of the thread's is
    asked for again), SIGALRM at the wall-clock guard. Each raises in the function at most once, and only
    while the call runs, so the timers and handlers it found are always put back."""

    def __init__(self, seconds: float, what: str) -> None:
        self.seconds, self.what = seconds, what
        self.running, self.raised = False, False
        self.started, self.clock = work_clock(), GuardClock()

    @contextlib.contextmanager
    def armed(self) -> Iterator[None]:
        """Set the timers and handlers for the block; put back those found, with the time that passed
        meanwhile taken from the timers, however the block ends."""
        wall, cpu = time.monotonic(), time.process_time()
        handlers = (signal.signal(signal.SIGPROF, self.out_of_time), signal.signal(signal.SIGALRM, self.guard))
        timers = (signal.setitimer(signal.ITIMER_PROF, self.seconds), signal.setitimer(signal.ITIMER_REAL,
                                                                                        wall_guard(self.seconds)))
        self.running = True
        try:
            yield
        finally:
            try:
                self.running = False  # from here on a handler raises nothing (the one that may strike before does)
            finally:
                _put_back(signal.ITIMER_PROF, timers[0], time.process_time() - cpu)
                _put_back(signal.ITIMER_REAL, timers[1], time.monotonic() - wall)
                signal.signal(signal.SIGPROF, handlers[0])
                signal.signal(signal.SIGALRM, handlers[1])

    def out_of_time(self, signum: int, frame: Any) -> None:
        """SIGPROF: raise when the thread's CPU time passed the limit, else ask for the rest of it."""
        left = self.seconds - (work_clock() - self.started)
        if left > 0:
            signal.setitimer(signal.ITIMER_PROF, left)
            return
        self.stop(f"{self.what} passed its time limit of {self.seconds:g} s")

    def guard(self, signum: int, frame: Any) -> None:
        """SIGALRM: raise when the wall-clock guard passed on its clock (the time the thread waited for a
        processor left out), else ask for the rest of it."""
        left = wall_guard(self.seconds) - self.clock.seconds()
        if left > 0:
            signal.setitimer(signal.ITIMER_REAL, left)
            return
        self.stop(f"{self.what} passed its {guard_words(self.seconds)}")

    def stop(self, reason: str) -> None:
        """Raise SearchLimitExceeded(reason) in the function, unless the call is over or was stopped already."""
        if self.running and not self.raised:
            self.raised = True
            raise SearchLimitExceeded(reason)


def _put_back(timer: int, found: tuple[float, float], passed: float) -> None:
    """Set `timer` back to what `found` said (seconds left, interval), less the `passed` seconds of its clock;
    off when it was off."""
    left, interval = found
    signal.setitimer(timer, max(left - passed, SOON) if left else 0.0, interval)


def _in_a_thread(function: Callable[[], T], seconds: float, what: str) -> T:
    """`function()` run in a daemon thread and waited for until the wall-clock guard of `seconds`, when it is
    reported out of time and left to run (no signal can stop it there)."""
    outcome: list[Any] = []
    native: list[int] = []
    running = threading.Event()

    def run() -> None:
        native.append(threading.get_native_id())
        running.set()
        try:
            outcome.append((True, function()))
        except BaseException as error:  # handed to the caller, whatever it is
            outcome.append((False, error))

    worker = threading.Thread(target=run, name=f"pysolve bounded {what}", daemon=True)
    worker.start()
    running.wait()
    clock = GuardClock(f"/proc/self/task/{native[0]}/schedstat")  # the time the worker waited for a processor left out
    left = wall_guard(seconds)
    while left > 0 and worker.is_alive():
        worker.join(left)
        left = wall_guard(seconds) - clock.seconds()
    if not outcome:
        raise SearchLimitExceeded(f"{what} passed its {guard_words(seconds)}")
    returned, value = outcome[0]
    if not returned:
        raise value
    return value
