"""`pysolve serve`'s searches: capped and stopped once their request is abandoned."""

from __future__ import annotations

import threading

import pytest

from pysolve import budget
from pysolve.budget import Budget
from pysolve.errors import SearchLimitExceeded


def test_searches_in_a_worker_are_capped_and_stop_once_abandoned() -> None:
    """What `budget.serving` does to budgets made in its thread, and only there."""
    gone = threading.Event()
    with budget.serving(0.5, gone):
        assert Budget().seconds == 0.5 and Budget(seconds=1e308).seconds == 0.5 and Budget(seconds=0.2).seconds == 0.2
        running = Budget(label="a search")
        running.check()
        gone.set()
        assert running.remaining() == 0.0
        with pytest.raises(SearchLimitExceeded, match="a search was stopped: the request that asked for it was "
                                                      "abandoned"):
            running.check()
    assert Budget().seconds == 0 and Budget(seconds=1e308).seconds == 1e308
