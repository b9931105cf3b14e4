"""The rectangle tangram's model: pieces, placements and instances, the reference rules, the Question, answers.

A board of W x H unit cells is covered exactly by rectangles (the pieces).
Cells are (x, y) with (0, 0) bottom-left; board order is x-major, so cell
(x, y) is bit `x * H + y` of a free-cell mask. This module holds what every
back end and face shares, in four sections:

- pieces: `Piece`, `Placement`, `Slot` (a placement with its cell mask),
  `Instance` (board, pieces, their slots), the size limits;
- rules: the reference rules, a piece's options on the free cells and
  `problems` (what keeps placements from being a tiling), which the three
  back ends implement each in their own way;
- question: `Question` (mode, strategy, start, placed pieces), checked when made;
- answers: `found`/`validation` build a back end's answer in its JSON shape,
  `placement_of`/`tiling_of`/`answered` read them back as Placements.

The text format is read by `pysolve.tangram.reader`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from pysolve import files
from pysolve.answers import NO_SOLUTION, SOLVED, UNKNOWN, Answer, Found
from pysolve.budget import Budget
from pysolve.errors import InputError, SearchLimitExceeded, UnknownName
from pysolve.files import excerpt

# -------------------------------------------------- pieces

LISTED_NAMES = 20  # piece names an error message lists


@dataclass(frozen=True)
class Piece:
    """One rectangle: its name, one-character selection key, colour `#rrggbb` and size."""

    name: str
    key: str
    colour: str
    width: int
    height: int

    @property
    def area(self) -> int:
        """Number of cells the piece covers."""
        return self.width * self.height


@dataclass(frozen=True, order=True)
class Placement:
    """A piece on the board: bottom-left cell (x, y), and the size it lies with."""

    piece: str
    x: int
    y: int
    width: int
    height: int

    def cells(self) -> list[tuple[int, int]]:
        """The cells the placement covers, in board order."""
        return [(self.x + i, self.y + j) for i in range(self.width) for j in range(self.height)]

    def to_json(self, rotations: bool) -> dict[str, Any]:
        """The JSON shape of the CLI: piece, x, y (and width, height when rotations are on)."""
        data: dict[str, Any] = {"piece": self.piece, "x": self.x, "y": self.y}
        if rotations:
            data.update(width=self.width, height=self.height)
        return data


@dataclass(frozen=True)
class Slot:
    """A placement that fits the empty board, with its cell mask (one option candidate)."""

    placement: Placement
    mask: int


@dataclass(frozen=True)
class Instance:
    """A board, its pieces in search order, and whether they may rotate."""

    width: int
    height: int
    pieces: tuple[Piece, ...]
    rotations: bool = False
    name: str = field(default="tangram", compare=False)
    placed: tuple[Placement, ...] = field(default=(), compare=False)  # `place` lines of the file
    _slots: dict[str, list[Slot]] = field(default_factory=dict, init=False, compare=False, repr=False)

    def __getstate__(self) -> dict[str, Any]:
        """The instance as pickled (a part of a count sent to a worker): without the tables built from it, which
        a worker builds again where it needs them (the slots of 64 pieces on a 64x64 board pickle to 74 MB)."""
        return {name: value for name, value in vars(self).items() if name not in ("_slots", "by_name")}

    def __setstate__(self, state: dict[str, Any]) -> None:
        vars(self).update(state, _slots={})

    @cached_property
    def by_name(self) -> dict[str, Piece]:
        """Pieces by name."""
        return {piece.name: piece for piece in self.pieces}

    @property
    def names(self) -> list[str]:
        """Piece names in instance (search) order."""
        return [piece.name for piece in self.pieces]

    @property
    def full_mask(self) -> int:
        """The free-cell mask of the empty board."""
        return (1 << (self.width * self.height)) - 1

    def piece(self, name: str) -> Piece:
        """The piece called `name`; UnknownName naming the known ones otherwise."""
        if name not in self.by_name:
            listed = ", ".join(self.names[:LISTED_NAMES]) + (", ..." if len(self.names) > LISTED_NAMES else "")
            raise UnknownName(f"unknown piece {files.excerpt(name)} in {self.name}; pieces: {listed}")
        return self.by_name[name]

    def orientations(self, name: str) -> list[tuple[int, int]]:
        """The (width, height) a piece may lie with: as given, then turned (if rotations, w != h)."""
        piece = self.piece(name)
        sizes = [(piece.width, piece.height)]
        if self.rotations and piece.width != piece.height:
            sizes.append((piece.height, piece.width))
        return sizes

    def bit(self, x: int, y: int) -> int:
        """The mask bit of cell (x, y) (board order: x-major)."""
        return 1 << (x * self.height + y)

    def mask(self, placement: Placement) -> int:
        """The cell mask of a placement."""
        total = 0
        for x, y in placement.cells():
            total |= self.bit(x, y)
        return total

    @property
    def slots(self) -> dict[str, list[Slot]]:
        """Per piece, every placement inside the empty board, in board order, then orientation."""
        return self.slots_within(None)

    def slots_within(self, budget: Budget | None) -> dict[str, list[Slot]]:
        """`slots`, built once per instance; the building looks at `budget`'s clock every board column."""
        if not self._slots:
            table: dict[str, list[Slot]] = {name: [] for name in self.names}
            shapes = {(w, h): self.rectangle(w, h) for name in self.names for w, h in self.orientations(name)}
            for x in range(self.width):
                if budget is not None:
                    budget.check()
                for y in range(self.height):
                    for name in self.names:
                        table[name] += [Slot(Placement(name, x, y, w, h), shapes[w, h] << (x * self.height + y))
                                        for w, h in self.orientations(name)
                                        if x + w <= self.width and y + h <= self.height]
            self._slots.update(table)
        return self._slots

    def rectangle(self, width: int, height: int) -> int:
        """The mask of a width x height rectangle at (0, 0): one column of `height` bits per x."""
        column = (1 << height) - 1
        return sum(column << (i * self.height) for i in range(width))

    @property
    def slot_count(self) -> int:
        """How many placements fit the empty board, all pieces and orientations (counted, not built)."""
        return sum(max(self.width - w + 1, 0) * max(self.height - h + 1, 0)
                   for name in self.names for w, h in self.orientations(name))

    def order(self, start: str | None = None) -> list[str]:
        """Search order: `start` first (if given), the others in instance order."""
        if start is None:
            return self.names
        self.piece(start)
        return [start] + [name for name in self.names if name != start]

    def free_mask(self, placed: tuple[Placement, ...] | list[Placement]) -> int:
        """The free-cell mask left by (valid, non-overlapping) placements."""
        free = self.full_mask
        for placement in placed:
            free &= ~self.mask(placement)
        return free

    def sort(self, placements: list[Placement] | tuple[Placement, ...]) -> tuple[Placement, ...]:
        """Placements in instance order (the canonical form of a tiling)."""
        rank = {name: index for index, name in enumerate(self.names)}
        return tuple(sorted(placements, key=lambda p: rank[p.piece]))

    def to_text(self) -> str:
        """The instance in the data-file format (data/tangram/README.md)."""
        lines = [f"# {self.name}", f"board {self.width} {self.height}"]
        if self.rotations:
            lines.append("rotations yes")
        lines += [f"piece {p.key} {p.name} {p.colour} {p.width} {p.height}" for p in self.pieces]
        lines += [f"place {p.piece} {p.x} {p.y}" + self._size_suffix(p) for p in self.placed]
        return "\n".join(lines) + "\n"

    def _size_suffix(self, placement: Placement) -> str:
        piece = self.piece(placement.piece)
        same = (placement.width, placement.height) == (piece.width, piece.height)
        return "" if same else f" {placement.width} {placement.height}"

    def to_json(self) -> dict[str, Any]:
        """The instance as a JSON-able dict."""
        return {"name": self.name, "width": self.width, "height": self.height, "rotations": self.rotations,
                "pieces": [vars(p) for p in self.pieces],
                "placed": [p.to_json(True) for p in self.placed]}


Tiling = tuple[Placement, ...]  # a tiling: placements in instance order

MAX_CELLS = 4096  # the largest board any back end takes (64 x 64): masks and tables stay small
MAX_SLOTS = 250_000  # the most placements in the empty board (all pieces and orientations) any back end builds


def check_size(instance: Instance, cells: int = MAX_CELLS, slots: int = MAX_SLOTS, who: str = "tangram") -> None:
    """Raise InputError, before any work, when the board or its table of placements is beyond the limits."""
    area = instance.width * instance.height
    if area > cells:
        raise InputError(f"the {instance.width}x{instance.height} board of {instance.name} has {area} cells; "
                         f"{who} takes at most {cells} (docs/tangram.md, Limits)")
    if instance.slot_count > slots:
        raise InputError(f"{instance.name} has {instance.slot_count} placements on its empty board; "
                         f"{who} takes at most {slots} (docs/tangram.md, Limits)")


def check_area(instance: Instance) -> None:
    """Raise InputError when the pieces' areas do not add up to the board's."""
    total, board = sum(p.area for p in instance.pieces), instance.width * instance.height
    if total != board:
        raise InputError(f"the pieces cover {total} cells but the "
                         f"{instance.width}x{instance.height} board has {board}, so no tiling exists")


def make_placement(instance: Instance, name: str, x: int, y: int,
                   width: int | None = None, height: int | None = None) -> Placement:
    """A placement of a known piece; the size defaults to the piece's own and must be an orientation."""
    piece = instance.piece(name)
    size = (piece.width, piece.height) if width is None or height is None else (width, height)
    if size not in instance.orientations(name):
        allowed = " or ".join(f"{w}x{h}" for w, h in instance.orientations(name))
        raise InputError(f"{name} cannot lie as {size[0]}x{size[1]} (it lies as {allowed})")
    return Placement(name, x, y, *size)


def check_unique(instance: Instance, placed: tuple[Placement, ...], where: str) -> None:
    """Raise InputError when a piece is placed twice."""
    seen: set[str] = set()
    for placement in placed:
        if placement.piece in seen:
            raise InputError(f"{where}: piece {placement.piece} is placed twice")
        seen.add(placement.piece)


# -------------------------------------------------- rules

def fitting_slots(instance: Instance, free: int, piece: str) -> list[Slot]:
    """The slots of `piece` whose cells are all free, in board order."""
    return [slot for slot in instance.slots[instance.piece(piece).name] if free & slot.mask == slot.mask]


def options(instance: Instance, free: int, piece: str) -> list[Placement]:
    """The placements of `piece` whose cells are all free, in board order (the spec's options)."""
    return [slot.placement for slot in fitting_slots(instance, free, piece)]


def problems(instance: Instance, placements: tuple[Placement, ...] | list[Placement]) -> list[list[Any]]:
    """What keeps placements from being a tiling: [out_of_board, P], [overlap, P, Q, cells], [missing, P]."""
    ordered = instance.sort(placements)
    listed: list[list[Any]] = [["out_of_board", p.piece] for p in ordered if not inside(instance, p)]
    for index, first in enumerate(ordered):
        for second in ordered[index + 1:]:
            shared = len(set(first.cells()) & set(second.cells()))
            if shared:
                listed.append(["overlap", first.piece, second.piece, shared])
    placed = {p.piece for p in placements}
    listed += [["missing", name] for name in instance.names if name not in placed]
    return listed


def inside(instance: Instance, placement: Placement) -> bool:
    """True when every cell of the placement is on the board."""
    return (placement.x >= 0 and placement.y >= 0 and placement.x + placement.width <= instance.width
            and placement.y + placement.height <= instance.height)


def describe_problem(problem: list[Any], instance: Instance) -> str:
    """One problem of `problems` as a sentence."""
    kind = problem[0]
    if kind == "out_of_board":
        return f"{problem[1]} sticks out of the {instance.width}x{instance.height} board"
    if kind == "overlap":
        return f"{problem[1]} and {problem[2]} overlap on {problem[3]} cell(s)"
    return f"{problem[1]} is not placed"


def check_partial(instance: Instance, placed: tuple[Placement, ...]) -> None:
    """Raise InputError naming the first problem of placements meant as a start (not a tiling)."""
    for problem in problems(instance, placed):
        if problem[0] != "missing":
            raise InputError(f"placed pieces in {instance.name}: {describe_problem(problem, instance)}")


# -------------------------------------------------- question

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


# -------------------------------------------------- answers

def found(question: Question, placements: list[Any], stats: dict[str, Any] | None = None,
          count: int | None = None) -> Found:
    """A back end's answer to a search or options question, placements in their JSON shape.

    `placements` are tilings (tuples of Placement) for first/all, single
    Placements for options, empty with `count` for count. The count of
    all/options is how many were found; the status is `no solution` when
    nothing (or a count of 0) was found.
    """
    rotations = question.instance.rotations
    if question.mode == "options":
        solutions: list[Any] = [p.to_json(rotations) for p in placements]
    else:
        solutions = [[p.to_json(rotations) for p in tiling] for tiling in placements]
    if question.mode in ("all", "options"):
        count = len(solutions)
    anything = count if question.mode == "count" else solutions
    return Found(solutions, stats or {}, count, SOLVED if anything else NO_SOLUTION)


def validation(question: Question, problems: list[list[Any]]) -> Found:
    """A validation answer: the placed pieces as the tiling when nothing is wrong, and the problems."""
    if problems:
        return Found([], {"problems": problems}, status=NO_SOLUTION)
    tiling = question.instance.sort(question.placed)
    return Found([[p.to_json(question.instance.rotations) for p in tiling]], {"problems": []}, status=SOLVED)


def placement_of(data: dict[str, Any], instance: Instance) -> Placement:
    """A placement back from its JSON shape (the size from the piece when rotations are off)."""
    piece = instance.piece(data["piece"])
    return Placement(piece.name, data["x"], data["y"], data.get("width", piece.width),
                     data.get("height", piece.height))


def tiling_of(instance: Instance, solution: list[dict[str, Any]]) -> Tiling:
    """A tiling back from its JSON shape."""
    return tuple(placement_of(data, instance) for data in solution)


def answered(answer: Answer) -> Answer:
    """`answer` when it is one; SearchLimitExceeded with its reason when the search stopped short.

    The faces that return Placements have no "unknown" to give."""
    if answer.status == UNKNOWN:
        raise SearchLimitExceeded(answer.reason)
    return answer
