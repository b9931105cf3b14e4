"""Edge-matching squares: pieces, the two matching rules, instances, files and solutions.

A piece is four edge labels in the order North, East, South, West. One
quarter turn clockwise maps (N, E, S, W) to (W, N, E, S). A solution is a
grid (rows of cells) of (piece id, quarter turns clockwise).

Two rules decide whether touching edges match:
- `insect`: labels come in complementary pairs (a head and its body, `R`
  with `r`); touching edges must be complementary; the border is free.
- `eternity` (Eternity II-style): touching edges carry the same colour;
  colour 0 is the frame and lies exactly on the border of the grid.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from pysolve import files
from pysolve.answers import NO_SOLUTION, SOLVED, Found
from pysolve.budget import time_limit
from pysolve.catalogue import build_catalogue
from pysolve.errors import InputError, UnknownName
from pysolve.paths import data_dir

INSECT, ETERNITY = "insect", "eternity"
RULES = (INSECT, ETERNITY)
FRAME = 0
SIDES = ("N", "E", "S", "W")
N, E, S, W = range(4)

Label = str | int
Edges = tuple[Label, Label, Label, Label]
Cell = tuple[int, int]  # (piece id, quarter turns clockwise)
Grid = tuple[tuple[Cell, ...], ...]
Periods = dict[int, int]  # piece id -> how many of its turns count as different placements (Instance.periods)


@dataclass(frozen=True)
class Piece:
    """One square piece: its id and its edges (N, E, S, W) at turn 0."""

    id: int
    edges: Edges

    def turned(self, turns: int) -> Edges:
        """The edges after `turns` quarter turns clockwise."""
        return rotate(self.edges, turns)

    @property
    def period(self) -> int:
        """How many distinct ways it lies: 1 (all edges alike), 2 (N=S and E=W) or 4."""
        return next(turns for turns in (1, 2, 4) if rotate(self.edges, turns) == self.edges)

    @property
    def along_frame(self) -> tuple[bool, ...]:
        """Per side (N, E, S, W), whether it lies along the frame under the eternity rule.

        Such a side lies against another border cell: a corner piece's sides that are not the frame's, and an edge
        piece's sides beside its frame side."""
        frame = [side for side, label in enumerate(self.edges) if label == FRAME]
        return tuple(bool(frame) and label != FRAME and frame != [(side + 2) % 4]
                     for side, label in enumerate(self.edges))


def rotate(edges: Edges, turns: int) -> Edges:
    """Edges (N, E, S, W) turned `turns` quarter turns clockwise: one turn gives (W, N, E, S)."""
    shift = turns % 4
    return edges[4 - shift:] + edges[:4 - shift] if shift else edges  # type: ignore[return-value]


@dataclass(frozen=True)
class Instance:
    """An R x C edge-matching puzzle: its rule, pieces and (insect rule) complementary pairs."""

    name: str
    rows: int
    cols: int
    rule: str
    pieces: tuple[Piece, ...]
    pairs: tuple[tuple[Label, Label], ...] = ()

    def piece(self, piece_id: int) -> Piece:
        """The piece with this id (UnknownName when there is none)."""
        for piece in self.pieces:
            if piece.id == piece_id:
                return piece
        raise UnknownName(f"{self.name}: no piece {piece_id}")

    def complement(self) -> dict[Label, Label]:
        """Label -> its complementary label (insect rule; empty for eternity)."""
        table: dict[Label, Label] = {}
        for head, body in self.pairs:
            table[head], table[body] = body, head
        return table

    def match_pairs(self) -> frozenset[tuple[Label, Label]]:
        """Every (a, b) such that an edge a may touch an edge b."""
        if self.rule == ETERNITY:
            return frozenset((label, label) for label in self.labels() if label != FRAME)
        return frozenset(self.complement().items())

    def periods(self, every_turn: bool = False) -> dict[int, int]:
        """Piece id -> the turns that count as different placements (its period; 4 for every one)."""
        return {piece.id: 4 if every_turn else piece.period for piece in self.pieces}

    def labels(self) -> list[Label]:
        """The labels on the pieces and in the pairs, sorted."""
        used = {label for piece in self.pieces for label in piece.edges}
        return sorted(used.union(*self.pairs), key=str)

    def to_json(self) -> dict[str, Any]:
        """The instance as JSON-able data (what `pysolve generate squares --json` prints)."""
        return {"name": self.name, "rows": self.rows, "cols": self.cols, "rule": self.rule,
                "pairs": [list(pair) for pair in self.pairs],
                "pieces": [{"id": p.id, "edges": list(p.edges)} for p in self.pieces]}


def instance_from_json(data: dict[str, Any]) -> Instance:
    """The inverse of Instance.to_json (validated)."""
    pieces = tuple(Piece(int(p["id"]), cast(Edges, tuple(p["edges"]))) for p in data["pieces"])
    pairs = tuple((a, b) for a, b in data.get("pairs", []))
    return validated(Instance(data["name"], int(data["rows"]), int(data["cols"]), data["rule"], pieces, pairs))


class Matcher:
    """The rule of one instance as two fast tests: touching edges, and edges on the border."""

    def __init__(self, instance: Instance) -> None:
        self.rule = instance.rule
        self.pairs = instance.match_pairs()

    def matches(self, a: Label, b: Label) -> bool:
        """True when an edge `a` may touch an edge `b`."""
        return (a, b) in self.pairs

    def border(self, label: Label) -> bool:
        """True when `label` may lie on the border of the grid."""
        return self.rule != ETERNITY or label == FRAME

    def inner(self, label: Label) -> bool:
        """True when `label` may lie inside the grid (not the frame colour)."""
        return self.rule != ETERNITY or label != FRAME


# ---------------------------------------------------------------- validation

def validated(instance: Instance) -> Instance:
    """`instance` if it is a well-formed puzzle, else InputError naming what is wrong."""
    where = instance.name
    if instance.rule not in RULES:
        raise UnknownName(f"{where}: unknown rule {files.excerpt(instance.rule)}; use one of {', '.join(RULES)}")
    if instance.rows < 1 or instance.cols < 1:
        raise InputError(f"{where}: a grid needs at least 1 row and 1 column, not {instance.rows} x {instance.cols}")
    wanted = instance.rows * instance.cols
    if len(instance.pieces) != wanted:
        raise InputError(f"{where}: a {instance.rows} x {instance.cols} grid needs {wanted} pieces, "
                         f"the file has {len(instance.pieces)}")
    ids = [piece.id for piece in instance.pieces]
    if any(i < 1 for i in ids):
        raise InputError(f"{where}: piece id {min(ids)} is not a positive integer")
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise InputError(f"{where}: piece id {duplicates[0]} is used twice")
    if instance.rule == ETERNITY:
        check_eternity_labels(instance)
    else:
        check_pairs(instance)
    return instance


def check_pairs(instance: Instance) -> None:
    """Each label has exactly one complement, and every label on a piece has one."""
    seen: set[Label] = set()
    for head, body in instance.pairs:
        if head == body:
            raise InputError(f"{instance.name}: pair {files.excerpt(head)} {files.excerpt(body)} pairs a label with "
                             "itself")
        for label in (head, body):
            if label in seen:
                raise InputError(f"{instance.name}: label {files.excerpt(label)} is in two pairs; "
                                 "each label has exactly one complement")
            seen.add(label)
    for piece in instance.pieces:
        for side, label in zip(SIDES, piece.edges):
            if label not in seen:
                raise InputError(f"{instance.name}: piece {piece.id} {side} edge {files.excerpt(label)} has no "
                                 "complementary label (add a `pair` line)")


def check_eternity_labels(instance: Instance) -> None:
    """Eternity colours are integers >= 0."""
    for piece in instance.pieces:
        for side, label in zip(SIDES, piece.edges):
            if not isinstance(label, int) or isinstance(label, bool) or label < 0:
                raise InputError(f"{instance.name}: piece {piece.id} {side} edge {files.excerpt(label)} is not a "
                                 "colour (an integer >= 0, 0 the frame)")


# ---------------------------------------------------------------- files

FORMAT_HELP = ("expected `grid R C`, `rule insect|eternity`, `pair HEAD BODY` and "
               "`piece ID N E S W` lines, or an Owen file (`R C`, then `N E S W` per line)")


def content_lines(text: str) -> Iterator[tuple[int, list[str]]]:
    """(line number, words) of the lines that are not blank or `#` comments."""
    for number, line in enumerate(text.splitlines(), start=1):
        words = line.split("#", 1)[0].split()
        if words:
            yield number, words


def parse(text: str, name: str) -> Instance:
    """An instance from file text, validated.

    The text is in the keyword format, Brendan Owen's format, or the JSON `generate squares --json` prints."""
    if text.lstrip().startswith(("{", "[")):  # JSON: no line of the file formats starts so
        return validated(parse_keywords(json_lines(files.parse_json(text, name), name), name))
    lines = list(content_lines(text))
    if not lines:
        raise InputError(f"{name}: the file is empty; {FORMAT_HELP}")
    if all(word.isdigit() for word in lines[0][1]):
        return validated(parse_owen(lines, name))
    return validated(parse_keywords(lines, name))


def parse_owen(lines: list[tuple[int, list[str]]], name: str) -> Instance:
    """Owen's format: `rows cols`, then one piece per line (four colours clockwise from North)."""
    (number, size), body = lines[0], lines[1:]
    if len(size) != 2:
        raise InputError(f"{name}:{number}: the first line must be `rows cols`, got {files.excerpt(' '.join(size))}")
    rows, cols = (files.whole_number(word, f"{name}:{number}", "grid size") for word in size)
    pieces = []
    for index, (number, words) in enumerate(body, start=1):
        if len(words) != 4:
            raise InputError(f"{name}:{number}: a piece line needs 4 colours (N E S W), got {len(words)}")
        edges = tuple(files.whole_number(word, f"{name}:{number}", "colour") for word in words)
        pieces.append(Piece(index, edges))  # type: ignore[arg-type]
    return Instance(name, rows, cols, ETERNITY, tuple(pieces))


def json_lines(data: Any, name: str) -> list[tuple[int | str, list[str]]]:
    """`Instance.to_json`'s object (`generate squares --json`) as the keyword format's lines.

    Each line is numbered by its place in the JSON (`pieces[3]`), so that it is checked as those lines are and
    named where it is."""
    if not isinstance(data, dict) or not isinstance(data.get("pieces"), list):
        raise InputError(f"{name}: a squares instance in JSON is an object with rows, cols, rule, pairs and pieces, "
                         "as `pysolve generate squares --json` prints it")
    lines: list[tuple[int | str, list[str]]] = [("rows", ["grid", word(data.get("rows")), word(data.get("cols"))]),
                                                ("rule", ["rule", word(data.get("rule", INSECT))])]
    for index, pair in enumerate(listed(data, "pairs", name)):
        lines.append((f"pairs[{index}]", ["pair", *map(word, pair if isinstance(pair, list) else [pair])]))
    for index, piece in enumerate(data["pieces"]):
        edges = piece.get("edges") if isinstance(piece, dict) else None
        lines.append((f"pieces[{index}]", ["piece", word(piece.get("id") if isinstance(piece, dict) else piece),
                                           *map(word, edges if isinstance(edges, list) else [edges])]))
    return lines


def listed(data: dict[str, Any], key: str, name: str) -> list[Any]:
    """The JSON list `data[key]` (empty when absent); InputError naming it when it is no list."""
    value = data.get(key, [])
    if not isinstance(value, list):
        raise InputError(f"{name}:{key}: must be a list, not {files.excerpt(value)}")
    return value


def word(value: Any) -> str:
    """A JSON value as a word of the keyword format.

    A text or an integer as written, anything else as JSON (which the line's check refuses, quoting it)."""
    return value if isinstance(value, str) else str(value) if type(value) is int else files.excerpt(value)


def parse_keywords(lines: Sequence[tuple[int | str, list[str]]], name: str) -> Instance:
    """The keyword format: `grid`, `rule`, `pair` and `piece` lines in any order."""
    grid: tuple[int, int] | None = None
    rule = INSECT
    raw_pairs: list[tuple[str, str]] = []
    raw_pieces: list[tuple[int, list[str], str]] = []
    for number, (keyword, *args) in lines:
        where = f"{name}:{number}"
        if keyword == "grid" and len(args) == 2:
            grid = (files.whole_number(args[0], where, "rows"), files.whole_number(args[1], where, "columns"))
        elif keyword == "rule" and len(args) == 1:
            rule = args[0]
        elif keyword == "pair" and len(args) == 2:
            raw_pairs.append((files.printable_word(args[0], where, "label"), files.printable_word(args[1], where,
                                                                                                   "label")))
        elif keyword == "piece" and len(args) == 5:
            raw_pieces.append((files.whole_number(args[0], where, "piece id"), args[1:], where))
        else:
            raise InputError(f"{where}: cannot read {files.excerpt(' '.join([keyword, *args]))}; {FORMAT_HELP}")
    if grid is None:
        raise InputError(f"{name}: no `grid R C` line")
    if rule not in RULES:
        raise UnknownName(f"{name}: unknown rule {files.excerpt(rule)}; use one of {', '.join(RULES)}")
    label, what = (files.whole_number, "colour") if rule == ETERNITY else (files.printable_word, "label")
    pieces = tuple(Piece(pid, cast(Edges, tuple(label(w, where, what) for w in words)))
                   for pid, words, where in raw_pieces)
    return Instance(name, grid[0], grid[1], rule, pieces, tuple(raw_pairs))


def dump(instance: Instance) -> str:
    """The instance in the keyword file format (what `parse` reads back)."""
    lines = [f"# {instance.name}", f"grid {instance.rows} {instance.cols}", f"rule {instance.rule}"]
    lines += [f"pair {head} {body}" for head, body in instance.pairs]
    lines += [f"piece {p.id} " + " ".join(str(label) for label in p.edges) for p in instance.pieces]
    return "\n".join(lines) + "\n"


def shipped_dir() -> Path:
    """data/squares/, the shipped instances."""
    return data_dir() / "squares"


ALIASES = {f"eternity-{n}x{n}": f"eternity/pieces_{n:02d}x{n:02d}" for n in range(3, 7)}  # short names: alias -> name
DEFAULT = "insects"


def load(file: str | os.PathLike[str] | None = None) -> Instance:
    """An instance from a file path or a shipped name (`insects`, `eternity-5x5`); default the insects."""
    text = os.fspath(file) if file is not None else DEFAULT
    path = build_catalogue("squares", shipped_dir(), aliases=ALIASES).locate(text)
    return parse(files.read_text(path, "squares file"), text)


# ---------------------------------------------------------------- solutions

def oriented(instance: Instance, periods: Periods | None = None) -> list[tuple[int, int, Edges]]:
    """(piece id, turns, edges) for every piece in each of its distinct rotations, in the original's order.

    A piece that looks the same after a half (or quarter) turn lies in 2 (or 1)
    distinct ways, so a board is counted once (see the counting convention in
    docs/squares.md); `periods` (Question.periods) may ask for all four turns.
    """
    periods = periods or instance.periods()
    return [(piece.id, turns, piece.turned(turns)) for piece in instance.pieces for turns in range(periods[piece.id])]


def placement_problems(instance: Instance, grid: Grid) -> list[str]:
    """Why `grid` is not a solution of `instance` (empty when it is one)."""
    problems = []
    if len(grid) != instance.rows or any(len(row) != instance.cols for row in grid):
        return [f"the grid is not {instance.rows} x {instance.cols}"]
    used = sorted(piece for row in grid for piece, _ in row)
    if used != sorted(piece.id for piece in instance.pieces):
        problems.append("the pieces are not each used once")
    edges = [[instance.piece(p).turned(t) for p, t in row] for row in grid]
    matcher = Matcher(instance)
    for r in range(instance.rows):
        for c in range(instance.cols):
            problems += cell_problems(matcher, edges, r, c)
    return problems


def cell_problems(matcher: Matcher, edges: list[list[Edges]], r: int, c: int) -> list[str]:
    """The rule broken at cell (r, c): its right and lower seams, and its border edges."""
    rows, cols, here = len(edges), len(edges[0]), edges[r][c]
    problems = []
    if c + 1 < cols and not matcher.matches(here[E], edges[r][c + 1][W]):
        problems.append(f"({r},{c}) E does not match ({r},{c + 1}) W")
    if r + 1 < rows and not matcher.matches(here[S], edges[r + 1][c][N]):
        problems.append(f"({r},{c}) S does not match ({r + 1},{c}) N")
    on_border = (r == 0, c == cols - 1, r == rows - 1, c == 0)
    for side, border in enumerate(on_border):
        if border and not matcher.border(here[side]):
            problems.append(f"({r},{c}) {SIDES[side]} is on the border")
    return problems


def rotate_grid(grid: Grid, periods: Periods | None = None) -> Grid:
    """The whole solution turned a quarter turn clockwise (every piece turns with it, modulo its period)."""
    rows = len(grid)

    def turned(piece: int, turns: int) -> Cell:
        return piece, (turns + 1) % (periods[piece] if periods else 4)

    return tuple(tuple(turned(*grid[rows - 1 - j][i]) for j in range(rows)) for i in range(len(grid[0])))


def grid_rotations(grid: Grid, periods: Periods | None = None) -> list[Grid]:
    """The distinct grids the turns of the whole grid give that keep its shape (4 if square, else 2).

    Only a single cell holding a symmetric piece gives fewer (its period).
    """
    turned = [grid]
    for _ in range(3):
        turned.append(rotate_grid(turned[-1], periods))
    square = len(grid) == len(grid[0])
    return list(dict.fromkeys(turned if square else [turned[0], turned[2]]))


def grid_neighbours(rows: int, cols: int) -> list[list[tuple[int, int]]]:
    """Per position, its neighbours as (position, the side of this cell that faces it: 0 N, 1 E, 2 S, 3 W)."""
    steps = ((-1, 0), (0, 1), (1, 0), (0, -1))
    return [[(r * cols + c + dc + dr * cols, side) for side, (dr, dc) in enumerate(steps)
             if 0 <= r + dr < rows and 0 <= c + dc < cols] for r in range(rows) for c in range(cols)]


def grid_key(grid: Grid) -> list[int]:
    """A grid as one integer list (piece * 4 + turns, row-major), the order `is_canonical` uses."""
    return [piece * 4 + turns for row in grid for piece, turns in row]


def is_canonical(grid: Grid, periods: Periods | None = None) -> bool:
    """True when no turn of the whole grid sorts before it: one representative per rotation class."""
    key = grid_key(grid)
    return all(key <= grid_key(other) for other in grid_rotations(grid, periods)[1:])


def as_grid(rows: Iterable[Iterable[Iterable[int]]]) -> Grid:
    """Nested lists of [piece, turns] as a Grid of tuples."""
    return tuple(tuple((int(p), int(t)) for p, t in row) for row in rows)


def grid_to_json(grid: Grid) -> list[list[dict[str, int]]]:
    """A grid in the JSON shape: rows of {"piece": ID, "turns": Q}."""
    return [[{"piece": p, "turns": t} for p, t in row] for row in grid]


def grid_from_json(rows: list[list[dict[str, int]]]) -> Grid:
    """The inverse of grid_to_json."""
    return tuple(tuple((cell["piece"], cell["turns"]) for cell in row) for row in rows)


FIRST, ALL, COUNT = "first", "all", "count"
STRATEGIES = ("fast", "original")  # what the user picks; `search` names what each back end runs for it
DEFAULT_SECONDS = 60.0


@dataclass(frozen=True)
class Question:
    """Which solutions of which instance, on which search strategy, within how many seconds."""

    instance: Instance
    mode: str = FIRST
    up_to_rotation: bool = False
    strategy: str = "fast"
    seconds: float = DEFAULT_SECONDS
    count_orientations: bool = False  # count a symmetric piece once per turn, not once per board
    prefix: tuple[Cell | None, ...] = ()  # a part of a split count: its canonical grids begin with these cells
    #                                        (row-major; None: a free cell, in the parts of a most-constrained-first
    #                                        count, which fix where the search's first piece lies)

    def __post_init__(self) -> None:
        if self.mode not in (FIRST, ALL, COUNT):
            raise InputError(f"unknown question {files.excerpt(self.mode)}; use first, all or count")
        if self.prefix and (self.mode != COUNT or self.strategy != "fast"
                            or self.instance.rows * self.instance.cols < 2):
            raise InputError("only a count of the fast strategy on two cells or more takes a prefix "
                             "(a part of a split count)")
        if None in self.prefix and not most_constrained_first(self):
            raise InputError("only a count that fills the most constrained cell first takes free cells in its "
                             "prefix (a part of a split count)")
        if self.strategy not in STRATEGIES:
            raise InputError(f"unknown strategy {files.excerpt(self.strategy)}; use one of {', '.join(STRATEGIES)}")
        time_limit(self.seconds)

    @property
    def row_prefix(self) -> tuple[Cell, ...]:
        """The prefix of a part searched in row order, which has no free cells (see __post_init__)."""
        return cast(tuple[Cell, ...], self.prefix)

    @property
    def limit(self) -> int:
        """How many solutions to collect (0: all)."""
        return 1 if self.mode == FIRST else 0

    @property
    def periods(self) -> Periods:
        """Piece id -> the turns of it that count as different (its period, or 4 with count_orientations)."""
        return self.instance.periods(self.count_orientations)


def placement(pos: int, cols: int, piece: int, turns: int) -> tuple[str, dict[str, int]]:
    """A search's choice, `piece` turned `turns` quarter turns on position `pos`, as a trace says it.

    The label 'piece 7 turned 1 at r1c2' and the move {"row": 1, "col": 2, "piece": 7, "turns": 1}, rows and
    columns from 1 (pysolve.trace)."""
    r, c = divmod(pos, cols)
    return f"piece {piece} turned {turns} at r{r + 1}c{c + 1}", {"row": r + 1, "col": c + 1, "piece": piece,
                                                                   "turns": turns}


def class_size(question: Question) -> int:
    """How many counted grids each canonical grid stands for.

    1 up to rotation, else the turns of the whole grid that keep its shape (4 square, 2 not; the grids of a class
    are distinct above one cell)."""
    instance = question.instance
    return 1 if question.up_to_rotation else 4 if instance.rows == instance.cols else 2


def next_cells(question: Question) -> list[Cell]:
    """The (piece, turns) of the unused pieces that fit the first cell (row-major) after the question's prefix.

    They fit against its upper and left neighbours in the prefix and the border; none when the prefix fills the
    grid."""
    instance, prefix = question.instance, question.row_prefix
    rows, cols, pos = instance.rows, instance.cols, len(question.prefix)
    if pos == rows * cols:
        return []
    matcher, used = Matcher(instance), {piece for piece, _ in prefix}
    r, c = divmod(pos, cols)
    above = instance.piece(prefix[pos - cols][0]).turned(prefix[pos - cols][1]) if r else None
    left = instance.piece(prefix[pos - 1][0]).turned(prefix[pos - 1][1]) if c else None
    return [(piece, turns) for piece, turns, edges in oriented(instance, question.periods)
            if piece not in used and fits_at(matcher, edges, r, c, rows, cols, above, left)]


def fits_at(matcher: Matcher, edges: Edges, r: int, c: int, rows: int, cols: int, above: Edges | None,
            left: Edges | None) -> bool:
    """Whether a piece showing `edges` may lie on cell (r, c) of a rows x cols grid filled row by row.

    It must match the edges of its upper and left neighbours (`above`, `left`; None on the border, where its own
    edge must suit the border), and its East and South edges must suit the border or the inside."""
    return ((matcher.matches(above[S], edges[N]) if above is not None else matcher.border(edges[N]))
            and (matcher.matches(left[E], edges[W]) if left is not None else matcher.border(edges[W]))
            and (matcher.border(edges[E]) if c == cols - 1 else matcher.inner(edges[E]))
            and (matcher.border(edges[S]) if r == rows - 1 else matcher.inner(edges[S])))


MRV_CELLS = 16  # above this many cells, the insect rule's counts fill the most constrained cell first


def most_constrained_first(question: Question) -> bool:
    """Whether the fast strategy answers `question` by filling the most constrained cell first (every back end).

    Only for every solution, a count or the classes, under the insect rule (its free border leaves the row
    order unconstrained), on grids above MRV_CELLS cells (below, building its tables costs more than it saves);
    the first solution and the eternity rule, whose frame suits it, keep the row order (docs/squares.md).
    """
    instance = question.instance
    return (question.strategy == "fast" and question.mode != FIRST and instance.rule == INSECT
            and instance.rows * instance.cols > MRV_CELLS)


def joins_halves(question: Question) -> bool:
    """Whether the fast strategy counts `question` by joining top halves to bottom halves (every back end).

    Only a count under the eternity rule on two rows or more, and not a part of a split count (each part would
    fill every bottom half again): the first solution, every solution and the parts keep the row order
    (docs/squares.md, "Counting paths").
    """
    instance = question.instance
    return (question.strategy == "fast" and question.mode == COUNT and instance.rule == ETERNITY
            and instance.rows > 1 and not question.prefix)


def search(question: Question) -> str:
    """The search that answers `question`, by the one name both languages give it.

    The strategy `original` is the search `original` (Python's `reference`); the strategy `fast` is `halves` where
    `joins_halves` says so, `mrv` where `most_constrained_first` says so, else `rows` (the row order over an
    index)."""
    if question.strategy == "original":
        return "original"
    if joins_halves(question):
        return "halves"
    return "mrv" if most_constrained_first(question) else "rows"


def found(question: Question, grids: list[Grid], count: int, stats: dict[str, Any]) -> Found:
    """A back end's answer: the grids as JSON (none when only counting) and the count."""
    solutions = [] if question.mode == COUNT else [grid_to_json(grid) for grid in grids]
    return Found(solutions, stats, count, SOLVED if count else NO_SOLUTION)
