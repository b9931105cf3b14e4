"""Azul's constants, moves, the canonical state, and the game's one random stream.

Shared by the three engines (Prolog, miniKanren, Python) and everything above
them. Colours are 0..4 (blue, yellow, red, black, white); the first-player
marker on a floor is 5. A move is (source, colour, destination): source -1 is
the centre, 0.. a factory; destination 0 is the floor, 1..5 a pattern line.
On the grey wall a round ends with the tiling phase, where a full line's
owner chooses its tile's column: the move (WALL, row, column), both 0-based.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from pysolve.errors import InputError
from pysolve.files import excerpt

COLOURS = ("blue", "yellow", "red", "black", "white")
LETTERS = "BYRKW"
MARKER = 5  # the first-player marker as a floor item
CENTRE = -1  # the centre as a move source, and the marker's place when nobody holds it
FLOOR = 0  # the floor as a move destination
TILES_PER_COLOUR = 20
TILES_PER_FACTORY = 4
FLOOR_SLOTS = 7
FLOOR_TOTALS = (0, 1, 2, 4, 6, 8, 11, 14)  # penalty by number of floor items
ROW_BONUS, COLUMN_BONUS, COLOUR_BONUS = 2, 7, 10
FACTORIES = {2: 5, 3: 7, 4: 9}
SEED = 1  # the seed of a game when none is given, in every command and the demo (a tournament's first game)
TOTAL_TILES = TILES_PER_COLOUR * len(COLOURS)
MAX_MOVES = 5000  # a game still running after this many moves is stopped (a strategy that never tiles)
STANDARD, GREY = "standard", "grey"
VARIANTS = (STANDARD, GREY)  # the coloured wall, and the rulebook's variant on the grey side of the board
WALL = -2  # the source of a tiling move (WALL, row, column): a full line's tile to a column of a grey wall
TILING = "tiling"  # a canonical state's `phase` while a grey wall's owner chooses a column (absent otherwise)

Move = tuple[int, int, int]
Handle = TypeVar("Handle")


@dataclass(frozen=True)
class Question:
    """The puzzle's question (`pysolve solve azul`, the demo).

    One seeded game, the random-feasible strategy on every seat, played to its end.
    """

    players: int = 2
    seed: int = SEED
    variant: str = STANDARD


def wall_column(row: int, colour: int) -> int:
    """The wall column (0-based) where `colour` sits in `row` (0-based)."""
    return (colour + row) % 5


def wall_colour(row: int, column: int) -> int:
    """The colour printed on wall cell (row, column), both 0-based."""
    return (column - row) % 5


def check_players(players: int) -> int:
    """`players` if Azul is played by that many, else InputError."""
    if not isinstance(players, int) or players not in FACTORIES:  # a list would not even hash
        raise InputError(f"Azul is for 2 to 4 players, not {excerpt(players)}")
    return players


def check_variant(variant: str) -> str:
    """`variant` if it names a variant of the rules (standard or grey), else InputError."""
    if variant not in VARIANTS:
        raise InputError(f"unknown Azul variant {excerpt(variant)}; choose from {', '.join(VARIANTS)}")
    return variant


def is_tiling(move: Sequence[int]) -> bool:
    """True for a tiling move (WALL, row, column), False for a move taking tiles."""
    return move[0] == WALL


def feasible(moves: list[Move]) -> list[Move]:
    """What the original strategy picks among.

    The moves putting a tile on a pattern line (none, when there is none), and every column of a
    tiling decision (each places a tile).
    """
    return [move for move in moves if move[2] or move[0] == WALL]


def pending_line(lines: Sequence[Sequence[int]]) -> int:
    """The row (0-based) of the topmost full pattern line of `lines` ([colour, count] pairs), -1 if none."""
    for row, (_, count) in enumerate(lines):
        if count == row + 1:
            return row
    return -1


def grey_columns(wall: Sequence[Sequence[int]], colours: Sequence[Sequence[int]], row: int, colour: int) -> list[int]:
    """The columns a grey wall's `row` may take `colour` in: free cells whose column lacks that colour."""
    return [column for column in range(5)
            if not wall[row][column] and all(colours[other][column] != colour for other in range(5))]


def row_completable(wall: Sequence[Sequence[int]], colours: Sequence[Sequence[int]], row: int) -> bool:
    """A grey wall's `row` can still be completed.

    The colours it lacks can fill its free cells, one to a cell, none in a column already holding it. Bad
    choices can close every row of every wall; then the game ends.
    """
    free = [column for column in range(5) if not wall[row][column]]
    missing = [colour for colour in range(5) if colour not in colours[row]]
    return any(all(all(colours[other][column] != colour for other in range(5)) for column, colour in zip(free, order))
               for order in itertools.permutations(missing))


def fillable_lines(lines: Sequence[Sequence[Sequence[int]]], free: Sequence[int]) -> tuple[set[tuple[int, int]],
                                                                                           list[int]]:
    """The pattern lines that may still fill, and the tiles that may still come to them.

    The pattern lines that may still fill, as (seat, row), and the tiles of each colour that may still come
    to a line: those of the bag and the lid (`free`), with the tiles of the lines that may fill (released when
    they do). A line may fill when what it lacks is at most that supply without its own tiles; each line found
    fillable adds its tiles, so the rest are found by going round until nothing changes. Generous on purpose:
    a line it calls stuck can never fill (its colour's other tiles are on walls or on stuck lines).
    """
    supply = list(free)
    waiting = [(seat, row, colour, row + 1 - count, count) for seat, board in enumerate(lines)
               for row, (colour, count) in enumerate(board) if count]
    fillable: set[tuple[int, int]] = set()
    grew = True
    while grew:
        grew = False
        for seat, row, colour, lacking, count in waiting:
            if (seat, row) not in fillable and lacking <= supply[colour]:
                fillable.add((seat, row))
                supply[colour] += count
                grew = True
    return fillable, supply


def can_end(held: Sequence[Sequence[Sequence[int]]], lines: Sequence[Sequence[Sequence[int]]], free: Sequence[int],
            completable: Callable[[int, int], bool] | None) -> bool:
    """Some row of some wall is complete or may still be completed, so the game may still end as the rules say.

    Asked after a round's tiling: `held` is each wall's colour by cell (-1: no tile), `lines` its pattern lines
    (none full), `free` the tiles of each colour in the bag and the lid. A row may still be completed when its
    pattern line is empty or may fill (`fillable_lines`), every colour it lacks has at least a line's worth of
    tiles in the supply, and, on a grey wall, those colours fit its free cells (`completable(seat, row)`, the
    engine's `row_completable`; None on the coloured wall, where they always do). Judged generously, so a game
    found unable to end could never have ended by a complete row: it ends there, instead of going round for
    ever (tiles of a colour stuck on lines that no tile is left to fill)."""
    def open_row(seat: int, row: int, cells: Sequence[int], supply: Sequence[int]) -> bool:
        return all(supply[colour] > row for colour in range(5) if colour not in cells) and (
            completable is None or completable(seat, row))

    # first the bag and the lid alone, rows with an empty line: in all but the last rounds of a stuck game a row
    # of the first wall passes, and the lines need not be looked at
    if any(-1 not in cells or (not lines[seat][row][1] and open_row(seat, row, cells, free))
           for seat, colours in enumerate(held) for row, cells in enumerate(colours)):
        return True
    fillable, supply = fillable_lines(lines, free)
    return any((not lines[seat][row][1] or (seat, row) in fillable) and open_row(seat, row, cells, supply)
               for seat, colours in enumerate(held) for row, cells in enumerate(colours))


def check_move(move: Any) -> Move:
    """A move given as a 3-sequence of integers, as a tuple; InputError when malformed."""
    try:
        source, colour, destination = (int(part) for part in move)
    except (TypeError, ValueError):
        raise InputError(f"a move is (source, colour, destination), not {excerpt(move)}") from None
    return (source, colour, destination)


def describe_move(move: Sequence[int]) -> str:
    """A move in words: `factory 3: 2 red -> line 4`-style, without the count."""
    source, colour, destination = move
    if source == WALL:
        return f"line {colour + 1} -> wall column {destination + 1}"
    where = "centre" if source == CENTRE else f"factory {source + 1}"
    to = "floor" if destination == FLOOR else f"line {destination}"
    return f"{where}: {COLOURS[colour]} -> {to}"


def tile_count(state: dict[str, Any]) -> int:
    """All tiles a canonical state holds (bag, lid, factories, centre, lines, walls, floors)."""
    total = sum(state["bag"]) + sum(state["lid"]) + sum(state["centre"])
    total += sum(sum(factory) for factory in state["factories"])
    for board in state["boards"]:
        total += sum(count for _, count in board["lines"])
        total += sum(sum(row) for row in board["wall"])
        total += sum(1 for item in board["floor"] if item != MARKER)
    return total


def complete_rows(wall: list[list[int]]) -> int:
    """How many horizontal wall rows are full."""
    return sum(1 for row in wall if all(row))


def winners_of(scores: list[int], rows: list[int]) -> list[int]:
    """Seats that win: highest score, ties broken by complete rows, then shared."""
    best = max(scores)
    tied = [seat for seat, score in enumerate(scores) if score == best]
    most_rows = max(rows[seat] for seat in tied)
    return [seat for seat in tied if rows[seat] == most_rows]


class RandomStream:
    """The one seeded generator of a game, read as a sequence of 32-bit integers.

    Every random decision (a tile drawn, a move chosen) takes the next number,
    so the i-th number is the same however the back ends ask for them: one at a
    time (Python) or a block at a time handed over as data (Prolog).
    """

    BLOCK = 64

    def __init__(self, seed: int) -> None:
        self._number = self.numbers(seed)
        self._buffer: list[int] = []
        self._next = 0
        self.used = 0

    @staticmethod
    def numbers(seed: int) -> Callable[[], int]:
        """The stream of `seed` as a bare function, each call the next number (for a loop that reads only)."""
        return functools.partial(random.Random(seed).getrandbits, 32)

    def _fill(self, wanted: int) -> None:
        """Make sure `wanted` unread numbers are buffered."""
        if len(self._buffer) - self._next < wanted:
            number = self._number
            self._buffer = self._buffer[self._next:] + [number() for _ in range(max(wanted, self.BLOCK))]
            self._next = 0

    def next(self) -> int:
        """The next number of the stream."""
        if self._next >= len(self._buffer):
            self._fill(1)
        value = self._buffer[self._next]
        self._next += 1
        self.used += 1
        return value

    def peek(self, count: int) -> list[int]:
        """The next `count` numbers, without reading them."""
        self._fill(count)
        return self._buffer[self._next:self._next + count]

    def advance(self, count: int) -> None:
        """Read `count` numbers (those another back end used from a `peek`)."""
        self._fill(count)
        self._next += count
        self.used += count

    def below(self, bound: int) -> int:
        """A number in 0..bound-1 (the next number modulo `bound`)."""
        return self.next() % bound

    def choice(self, items: list[Any]) -> Any:
        """One of `items`, chosen by the next number."""
        return items[self.next() % len(items)]

    def random(self) -> float:
        """A float in [0, 1)."""
        return self.next() / 4294967296.0


def _counts(value: Any, what: str) -> None:
    """InputError unless `value` is 5 non-negative integer colour counts."""
    if not (isinstance(value, list) and len(value) == 5
            and all(isinstance(count, int) and count >= 0 for count in value)):
        raise InputError(f"state {what}: expected 5 colour counts, got {excerpt(value)}")


BOARD_KEYS = ("score", "wall", "lines", "floor")


def _board(board: Any, seat: int, variant: str) -> None:
    """InputError unless `board` is one player's board of a canonical state of `variant`."""
    where = f"boards[{seat}]"
    keys = BOARD_KEYS + (("colours",) if variant == GREY else ())
    if not isinstance(board, dict) or set(board) != set(keys):
        raise InputError(f"state {where}: expected keys {', '.join(keys)}")
    wall, lines, floor = board["wall"], board["lines"], board["floor"]
    if not (isinstance(board["score"], int) and board["score"] >= 0):
        raise InputError(f"state {where}.score: expected an integer >= 0, got {excerpt(board['score'])}")
    if not (isinstance(wall, list) and len(wall) == 5
            and all(isinstance(row, list) and len(row) == 5 and all(cell in (0, 1) for cell in row)
                    for row in wall)):
        raise InputError(f"state {where}.wall: expected 5 rows of 5 cells 0/1")
    colours = board["colours"] if variant == GREY else standard_colours(wall)
    if variant == GREY:
        _grey_colours(colours, wall, where)
    if not (isinstance(lines, list) and len(lines) == 5):
        raise InputError(f"state {where}.lines: expected 5 pattern lines")
    for index, line in enumerate(lines):
        colour, count = line if isinstance(line, list) and len(line) == 2 else (None, None)
        valid = (colour == -1 and count == 0) or (colour in range(5) and count in range(1, index + 2)
                                                  and colour not in colours[index])
        if not valid:
            raise InputError(f"state {where}.lines[{index}]: {excerpt(line)} is not a pattern line of {index + 1}")
    if not (isinstance(floor, list) and len(floor) <= FLOOR_SLOTS and all(item in range(6) for item in floor)):
        raise InputError(f"state {where}.floor: expected at most {FLOOR_SLOTS} items 0..5")


def standard_colours(wall: list[list[int]]) -> list[list[int]]:
    """The colour of every cell of a coloured wall (-1 where no tile lies)."""
    return [[wall_colour(row, column) if wall[row][column] else -1 for column in range(5)] for row in range(5)]


def _grey_colours(colours: Any, wall: list[list[int]], where: str) -> None:
    """InputError unless a grey wall's colours match its tiles, each colour at most once per row and column."""
    if not (isinstance(colours, list) and len(colours) == 5
            and all(isinstance(row, list) and len(row) == 5 for row in colours)
            and all((cell in range(5)) == bool(wall[r][c]) and (cell == -1 or cell in range(5))
                    for r, row in enumerate(colours) for c, cell in enumerate(row))):
        raise InputError(f"state {where}.colours: expected 5 rows of 5 colours 0..4 on the tiles, -1 elsewhere")
    for lines in (colours, [list(column) for column in zip(*colours)]):
        for cells in lines:
            placed = [cell for cell in cells if cell != -1]
            if len(placed) != len(set(placed)):
                raise InputError(f"state {where}.colours: a colour twice in one row or column")


STATE_KEYS = {"players", "round", "moves", "turn", "starter", "marker", "factories", "centre", "bag", "lid",
              "boards", "over"}


def check_state(state: Any) -> dict[str, Any]:
    """`state` if it is a well-formed canonical Azul state holding all 100 tiles, else InputError."""
    if not isinstance(state, dict) or set(state) - {"variant", "phase"} != STATE_KEYS:
        raise InputError(f"an Azul state is a dict with keys {', '.join(sorted(STATE_KEYS))} (and variant, phase)")
    players = check_players(state["players"])
    variant = check_variant(state.get("variant", STANDARD))
    for key in ("round", "moves"):
        if not isinstance(state[key], int) or state[key] < 0:
            raise InputError(f"state {key}: expected an integer >= 0, got {excerpt(state[key])}")
    for key in ("centre", "bag", "lid"):
        _counts(state[key], key)
    factories = state["factories"]
    if not (isinstance(factories, list) and len(factories) == FACTORIES[players]):
        raise InputError(f"state factories: expected {FACTORIES[players]} factories for {players} players")
    for index, factory in enumerate(factories):
        _counts(factory, f"factories[{index}]")
    if not (isinstance(state["boards"], list) and len(state["boards"]) == players):
        raise InputError(f"state boards: expected {players} boards")
    for seat, board in enumerate(state["boards"]):
        _board(board, seat, variant)
    seats = range(players)
    if state["marker"] not in (CENTRE, *seats) or state["starter"] not in seats:
        raise InputError("state marker/starter: expected -1 (centre) or a seat")
    if state["turn"] not in ((-1,) if state["over"] else seats):
        raise InputError(f"state turn: {excerpt(state['turn'])} is not a seat (or -1 once over)")
    if tile_count(state) != TOTAL_TILES:
        raise InputError(f"state holds {tile_count(state)} tiles, not {TOTAL_TILES}")
    if "phase" in state:
        _tiling_phase(state, variant)
    return state


def _tiling_phase(state: dict[str, Any], variant: str) -> None:
    """InputError unless a state's `phase` is a grey wall's tiling: the offer taken, the seat to choose holding
    a full line (on a grey wall only, never once over)."""
    if state["phase"] != TILING or variant != GREY or state["over"]:
        raise InputError(f"state phase: {excerpt(state['phase'])} is not {TILING!r} (a grey wall's tiling, "
                         f"before the game is over)")
    if any(state["centre"]) or any(any(factory) for factory in state["factories"]):
        raise InputError("state phase: the walls are tiled only once the factories and the centre are empty")
    if pending_line(state["boards"][state["turn"]]["lines"]) < 0:
        raise InputError(f"state phase: seat {state['turn']} is to tile but has no full pattern line")


class Engine(Protocol[Handle]):
    """An engine: the rules of Azul as one back end holds them, its games kept behind handles.

    `prolog.PrologEngine`, `kanren.KanrenEngine` and `python.PythonEngine`
    implement it; `match.engine(backend)` finds a back end's. Every random
    number comes from the `RandomStream` handed in, so the same stream gives
    the same game on each of them.
    """

    name: str

    def new_game(self, players: int, starter: int, stream: RandomStream, variant: str = STANDARD) -> Handle:
        """A fresh game of `variant` whose first round is dealt from `stream` and opened by seat `starter`."""
        ...

    def load(self, state: dict[str, Any]) -> Handle:
        """A game continued from a canonical state (checked first)."""
        ...

    def legal_moves(self, handle: Handle) -> list[Move]:
        """The legal moves of the seat to move, in canonical order (none once over).

        In a grey wall's tiling phase the columns (WALL, row, column) of its top full line.
        """
        ...

    def turn(self, handle: Handle) -> int:
        """The seat to move (-1 once over)."""
        ...

    def play(self, handle: Handle, move: Move, stream: RandomStream) -> None:
        """Apply a legal move, tiling the walls and dealing when the offer ends.

        Apply a legal move; at the end of the offer tile the walls (on a grey wall up to the next column to
        choose), then deal from `stream` or end.
        """
        ...

    def export(self, handle: Handle) -> dict[str, Any]:
        """The canonical, JSON-able state of the game."""
        ...

    def winners(self, handle: Handle) -> list[int]:
        """The seats that win (or lead): highest score, then more complete rows, else shared."""
        ...

    def close(self, handle: Handle) -> None:
        """Forget the game."""
        ...
