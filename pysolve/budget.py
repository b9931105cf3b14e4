"""A node and time budget for one search, shared by the Python and miniKanren back ends.

Prolog searches are bounded inside Prolog instead (`bridge.solutions`), since
Python cannot interrupt a running Prolog call.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from pysolve.errors import SearchLimitExceeded

CLOCK_EVERY = 256  # nodes between looks at the clock


class Budget:
    """Counts the nodes a search visits; `spend()` raises SearchLimitExceeded when they run out."""

    def __init__(self, nodes: int = 0, seconds: float = 0.0, label: str = "search") -> None:
        self.nodes, self.seconds, self.label = nodes, seconds, label  # 0: unbounded
        self.spent = 0
        self.started = time.perf_counter()

    def spend(self, nodes: int = 1) -> None:
        """Count `nodes` nodes; raise SearchLimitExceeded when the node or time budget is gone."""
        before, self.spent = self.spent, self.spent + nodes
        if self.nodes and self.spent > self.nodes:
            raise SearchLimitExceeded(f"{self.label} passed its budget of {self.nodes} nodes")
        if (self.seconds and self.spent // CLOCK_EVERY != before // CLOCK_EVERY
                and time.perf_counter() - self.started > self.seconds):
            raise SearchLimitExceeded(f"{self.label} passed its time limit of {self.seconds:g} s")

    def tick(self) -> Any:
        """A miniKanren goal that spends one node of this budget and succeeds once."""

        def tick_goal(state: dict) -> Iterator[dict]:
            self.spend()
            yield state

        return tick_goal
