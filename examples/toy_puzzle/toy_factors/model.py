"""The question: which pairs of factors multiply to `n`."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Question:
    """All pairs (a, b), 1 <= a <= b, with a * b == n."""

    n: int
