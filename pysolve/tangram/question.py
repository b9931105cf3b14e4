"""The tangram Question: what to find, how, from which placed pieces; checked when it is made."""

from __future__ import annotations

from dataclasses import dataclass

from pysolve.errors import InputError
from pysolve.files import excerpt
from pysolve.tangram.pieces import Instance, Placement, check_size, check_unique
from pysolve.tangram.rules import check_partial

STRATEGIES = ("cell", "dfs", "bfs")
DEFAULT_STRATEGY = "cell"  # the fastest sound search finds a first tiling; the course's fixed order is `dfs`
MODES = ("first", "all", "count", "options", "validate")
DEFAULT_SECONDS = 60.0


@dataclass(frozen=True)
class Question:
    """One tangram question: what to find (mode), how (strategy, start), from which placed pieces.

    Modes: `first`, `all`, `count` tilings (completions when pieces are placed),
    `options` of `piece`, `validate` the placed pieces as a tiling. Strategies:
    `cell` (the default) fills the first empty cell in board order, trying the
    pieces in order (`start` first): the fast search, every tiling met once;
    `dfs`, the course's search, places the pieces in the fixed order, each at
    its options in board order; `bfs` is the breadth-first search over dfs's
    steps. All find the same set of tilings.
    A question is checked when it is made: InputError/UnknownName name what is wrong.
    """

    instance: Instance
    mode: str = "first"
    strategy: str = DEFAULT_STRATEGY
    start: str | None = None
    placed: tuple[Placement, ...] = ()
    piece: str | None = None
    seconds: float = DEFAULT_SECONDS

    def __post_init__(self) -> None:
        check_question(self)

    @property
    def order(self) -> list[str]:
        """The pieces still to place, in search order."""
        done = {p.piece for p in self.placed}
        return [name for name in self.instance.order(self.start) if name not in done]

    @property
    def free(self) -> int:
        """The free-cell mask the search starts from."""
        return self.instance.free_mask(self.placed)

    @property
    def limit(self) -> int:
        """How many tilings to find: 1 for `first`, 0 (all) otherwise."""
        return 1 if self.mode == "first" else 0


def check_question(question: Question) -> None:
    """Raise InputError (UnknownName for a piece) when the question cannot be asked as it is."""
    if question.mode not in MODES:
        raise InputError(f"tangram mode {excerpt(question.mode)} is not one of {', '.join(MODES)}")
    if question.strategy not in STRATEGIES:
        raise InputError(f"--strategy {excerpt(question.strategy)} is not one of {', '.join(STRATEGIES)}")
    instance = question.instance
    check_size(instance)
    for placement in question.placed:
        instance.piece(placement.piece)
    check_unique(instance, question.placed, "placed pieces")
    if question.mode != "validate":
        check_partial(instance, question.placed)
    done = {p.piece for p in question.placed}
    for what, name in (("--start", question.start), ("--options", question.piece)):
        if name is not None and instance.piece(name).name in done:
            raise InputError(f"{what} {name}: that piece is already placed")
    if question.strategy == "bfs" and question.mode in ("all", "count"):
        raise InputError("--strategy bfs finds the first tiling only; use cell or dfs with --all/--count")
    if question.mode == "options" and question.piece is None:
        raise InputError("an options question needs a piece")
