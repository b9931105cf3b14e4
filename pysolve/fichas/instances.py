"""Random orders of the tokens puzzle as hypothesis strategies.

Random orders of the tokens puzzle as hypothesis strategies, for pysolve's tests, `pysolve check` and tests of
one's own.

An order (M whites, N greens) is two small integers, which shrink toward
(0, 0): the smallest order that still shows a difference has the fewest
tokens, its path the fewest moves. In a test of one's own:

    @given(orders(max_order=4))
    def test_my_search_agrees(order): ...

>>> from hypothesis import find
>>> find(orders(), lambda order: True)  # the smallest order of all
(0, 0)
"""

from __future__ import annotations

from hypothesis import strategies as st

from pysolve.budget import DEFAULT_SECONDS
from pysolve.fichas.model import Question


def orders(max_order: int = 3) -> st.SearchStrategy[tuple[int, int]]:
    """Orders (M, N), each of M and N at most `max_order`."""
    return st.tuples(st.integers(0, max_order), st.integers(0, max_order))


def questions(max_size: int = 3, limit: int = 10, seconds: float = DEFAULT_SECONDS) -> st.SearchStrategy[Question]:
    """Questions asking a shortest path of random orders (M and N at most `max_size`), each search within `seconds`.

    What `pysolve check fichas` asks (one path: `limit` is the board puzzles' count).
    """
    return orders(max_size).map(lambda order: Question(*order, strategy="shortest", seconds=seconds))


def instance_text(question: Question) -> str:
    """The question as the arguments of `pysolve solve fichas` (the tokens puzzle has no instance file).

    The file's lines without `#` are what to type after it.
    """
    return f"--m {question.m} --n {question.n} --strategy shortest\n"
