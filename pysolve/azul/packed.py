"""The Python back end's fast path: whole random-feasible games on integer-packed boards.

`random_game` plays the game `play_match` plays when every seat has the
original random strategy (`random`), the same numbers of the same stream
read in the same order, so its final state is the one the `Table` rules
reach move by move (the tests compare them on many seeds and both
variants). It keeps no list of legal moves: per colour a 5-bit mask of the
pattern lines that accept it gives the number of feasible moves, and the
chosen one is found by counting. Walls are bit masks by row and by column
(and, per colour, the rows and columns holding it), so a tile's score is
two lookups in a table of run lengths.
"""

from __future__ import annotations

from typing import Any

from pysolve.azul.model import (
    CENTRE,
    COLOUR_BONUS,
    COLUMN_BONUS,
    FACTORIES,
    FLOOR_SLOTS,
    FLOOR_TOTALS,
    GREY,
    MARKER,
    MAX_MOVES,
    ROW_BONUS,
    STANDARD,
    TILES_PER_COLOUR,
    TILES_PER_FACTORY,
    RandomStream,
    can_end,
    check_players,
    check_variant,
    winners_of,
)
from pysolve.errors import SearchLimitExceeded

FULL = 0b11111


def _run(mask: int, position: int) -> int:
    """Length of the run of set bits through `position` in a 5-bit mask (0 if that bit is clear)."""
    if not mask >> position & 1:
        return 0
    low = high = position
    while low > 0 and mask >> (low - 1) & 1:
        low -= 1
    while high < 4 and mask >> (high + 1) & 1:
        high += 1
    return high - low + 1


RUN = [[_run(mask, position) for position in range(5)] for mask in range(32)]
POINTS = [[1 if h == v == 1 else (h if h > 1 else 0) + (v if v > 1 else 0) for v in range(6)] for h in range(6)]
LINES_OF = [[line for line in range(5) if mask >> line & 1] for mask in range(32)]  # the set bits, ascending
WIDTH = [len(lines) for lines in LINES_OF]
CAP = [min(items, FLOOR_SLOTS) for items in range(FLOOR_SLOTS + 6)]


class Board:
    """One seat's board, packed: wall masks, pattern lines, floor, score."""

    __slots__ = (
        "cells",
        "colour_columns",
        "colour_rows",
        "columns",
        "empty",
        "floor",
        "line_colour",
        "line_count",
        "partial",
        "rows",
        "score",
    )

    def __init__(self) -> None:
        self.rows = [0] * 5            # row r: bit c set when cell (r, c) holds a tile
        self.columns = [0] * 5         # column c: bit r set likewise
        self.colour_rows = [0] * 5     # colour k: bit r set when row r holds k
        self.colour_columns = [0] * 5  # colour k: bit c set when column c holds k
        self.cells = [-1] * 25         # the colour on each cell, row by row
        self.line_colour = [-1] * 5
        self.line_count = [0] * 5
        self.empty = FULL          # the empty pattern lines
        self.partial = [0] * 5     # colour k: the lines holding k and not full
        self.floor: list[int] = []
        self.score = 0

    def accepting(self) -> list[int]:
        """Per colour, the mask of the pattern lines that may take it.

        Per colour, the mask of the pattern lines that may take it (empty or of that colour, not full,
        the wall row without it).
        """
        empty, rows, partial = self.empty, self.colour_rows, self.partial
        return [(empty & ~rows[0]) | partial[0], (empty & ~rows[1]) | partial[1], (empty & ~rows[2]) | partial[2],
                (empty & ~rows[3]) | partial[3], (empty & ~rows[4]) | partial[4]]

    def fill(self, line: int, colour: int, taken: int) -> int:
        """Put up to `taken` tiles of `colour` on pattern line `line` (0-based); how many did not fit."""
        count = self.line_count[line]
        fits = min(taken, line + 1 - count)
        self.line_colour[line] = colour
        self.line_count[line] = count + fits
        bit = 1 << line
        self.empty &= ~bit
        if count + fits > line:
            self.partial[colour] &= ~bit
        else:
            self.partial[colour] |= bit
        return taken - fits

    def clear(self, line: int) -> None:
        """Empty a full pattern line."""
        self.line_colour[line], self.line_count[line] = -1, 0
        self.empty |= 1 << line

    def place(self, row: int, column: int, colour: int) -> int:
        """Put a tile on the wall; the points it scores."""
        rows, columns = self.rows, self.columns
        rows[row] |= 1 << column
        columns[column] |= 1 << row
        self.colour_rows[colour] |= 1 << row
        self.colour_columns[colour] |= 1 << column
        self.cells[row * 5 + column] = colour
        return POINTS[RUN[rows[row]][column]][RUN[columns[column]][row]]

    def completable(self, row: int) -> bool:
        """Whether this grey wall's `row` can still be completed.

        This grey wall's `row` can still be completed (`model.row_completable` on the masks: the colours the
        row lacks matched to its free cells, each to a column without it).
        """
        free = ~self.rows[row] & FULL
        bit = 1 << row
        columns = self.colour_columns
        return _matched([free & ~columns[colour] for colour, rows in enumerate(self.colour_rows) if not rows & bit], 0)

    def grey_columns(self, row: int, colour: int) -> list[int]:
        """The columns of a grey wall's `row` that may take `colour` (free cells, their column without it)."""
        return LINES_OF[~(self.rows[row] | self.colour_columns[colour]) & FULL]


def _matched(masks: list[int], used: int) -> bool:
    """Each of `masks` (the columns a colour may take) gets a column of its own, none of `used`."""
    if not masks:
        return True
    rest = masks[1:]
    return any(_matched(rest, used | 1 << column) for column in LINES_OF[masks[0] & ~used])


def random_game(players: int, seed: int, variant: str = STANDARD) -> dict[str, Any]:
    """The final canonical state of the seeded game with the random strategy on every seat."""
    check_players(players)
    grey = check_variant(variant) == GREY
    number = RandomStream.numbers(seed)
    boards = [Board() for _ in range(players)]
    factories = [[0] * 5 for _ in range(FACTORIES[players])]
    centre, bag, lid = [0] * 5, [TILES_PER_COLOUR] * 5, [0] * 5
    turn = starter = number() % players
    marker = CENTRE
    offer = _deal(factories, bag, lid, number)  # a full bag: never empty-handed
    rounds, moves = 1, 0
    sources = [centre] + factories
    present = _presence(sources)  # per colour, the sources holding it
    while True:
        board = boards[turn]
        accepting = board.accepting()
        widths = [WIDTH[mask] for mask in accepting]
        feasible = (widths[0] * present[0] + widths[1] * present[1] + widths[2] * present[2]
                    + widths[3] * present[3] + widths[4] * present[4])
        if feasible:
            index = number() % feasible
            for position, counts in enumerate(sources):  # noqa: B007 (the source found, read after the loop)
                for colour in range(5):
                    if counts[colour]:
                        if index < widths[colour]:
                            break
                        index -= widths[colour]
                else:
                    continue
                break
            destination = LINES_OF[accepting[colour]][index] + 1
        else:  # no line takes anything: all moves put every tile on the floor
            index = number() % sum(present)
            for position, counts in enumerate(sources):  # noqa: B007 (the source found, read after the loop)
                held = [colour for colour in range(5) if counts[colour]]
                if index < len(held):
                    colour = held[index]
                    break
                index -= len(held)
            destination = 0
        moves += 1
        if moves > MAX_MOVES:
            raise SearchLimitExceeded(f"game with seed {seed} passed {MAX_MOVES} moves")
        counts = sources[position]
        taken = counts[colour]
        counts[colour] = 0
        present[colour] -= 1
        floor = board.floor
        if position:
            for other in range(5):
                if counts[other]:
                    present[other] -= 1
                    if not centre[other]:
                        present[other] += 1
                    centre[other] += counts[other]
                    counts[other] = 0
        elif marker == CENTRE:
            marker = turn
            if len(floor) < FLOOR_SLOTS:
                floor.append(MARKER)
        offer -= taken
        if destination:
            taken = board.fill(destination - 1, colour, taken)
        if taken:
            room = FLOOR_SLOTS - len(floor)
            if taken > room:
                lid[colour] += taken - room
                taken = room
            floor.extend([colour] * taken)
        if offer:
            turn = (turn + 1) % players
            continue
        for board in boards:
            _tile_wall(board, lid, grey, number)
        if marker != CENTRE:
            starter = marker
        marker = CENTRE
        turn = starter
        if any(FULL in board.rows for board in boards) or not (any(bag) or any(lid)) or not _can_end(boards, bag, lid,
                                                                                                     grey):
            break  # a tile in the bag or the lid: the next deal deals at least one
        offer = _deal(factories, bag, lid, number)
        present = _presence(sources)
        rounds += 1
    for board in boards:
        board.score += _end_bonus(board)
    return _export(players, variant, rounds, moves, starter, factories, centre, bag, lid, boards)


def _can_end(boards: list[Board], bag: list[int], lid: list[int], grey: bool) -> bool:
    """`model.can_end` on packed boards: some row of some wall may still be completed."""
    return can_end([[board.cells[row * 5:row * 5 + 5] for row in range(5)] for board in boards],
                   [list(zip(board.line_colour, board.line_count)) for board in boards],
                   [in_bag + in_lid for in_bag, in_lid in zip(bag, lid)],
                   (lambda seat, row: boards[seat].completable(row)) if grey else None)


def _presence(sources: list[list[int]]) -> list[int]:
    """Per colour, how many sources (the centre, the factories) hold it."""
    return [sum(1 for counts in sources if counts[colour]) for colour in range(5)]


def _deal(factories: list[list[int]], bag: list[int], lid: list[int], number: Any) -> int:
    """Fill the factories tile by tile (the bag, then the lid poured in); the number of tiles dealt."""
    dealt = 0
    size = sum(bag)
    for factory in factories:
        for _ in range(TILES_PER_FACTORY):
            if not size:
                size = sum(lid)
                if not size:
                    return dealt
                bag[:], lid[:] = lid, [0] * 5
            index = number() % size
            colour = 0
            while index >= bag[colour]:
                index -= bag[colour]
                colour += 1
            bag[colour] -= 1
            factory[colour] += 1
            size -= 1
            dealt += 1
    return dealt


def _tile_wall(board: Board, lid: list[int], grey: bool, number: Any) -> None:
    """Full lines to the wall, top to bottom, each tile scored (on a grey wall in a column chosen at random by
    the stream's next number, as the random strategy chooses); the floor's penalty; the clamp at 0."""
    score = board.score
    colours, counts, floor = board.line_colour, board.line_count, board.floor
    for row in range(5):
        if counts[row] == row + 1:
            colour = colours[row]
            board.clear(row)
            if grey:
                free = board.grey_columns(row, colour)
                column = free[number() % len(free)] if free else -1
            else:
                column = (colour + row) % 5
            if column < 0:  # no cell on the grey wall: the line falls to the floor
                fits = min(row + 1, FLOOR_SLOTS - len(floor))
                floor.extend([colour] * fits)
                lid[colour] += row + 1 - fits
                continue
            score += board.place(row, column, colour)
            lid[colour] += row
    score -= FLOOR_TOTALS[CAP[len(floor)]]
    for item in floor:
        if item != MARKER:
            lid[item] += 1
    floor.clear()
    board.score = score if score > 0 else 0


def _end_bonus(board: Board) -> int:
    """Rows, columns and colours complete: 2, 7 and 10 points each."""
    return (ROW_BONUS * board.rows.count(FULL) + COLUMN_BONUS * board.columns.count(FULL)
            + COLOUR_BONUS * board.colour_rows.count(FULL))


def _export(players: int, variant: str, rounds: int, moves: int, starter: int, factories: list[list[int]],
            centre: list[int], bag: list[int], lid: list[int], boards: list[Board]) -> dict[str, Any]:
    """The canonical state of a finished game."""
    state: dict[str, Any] = {
        "players": players, "round": rounds, "moves": moves, "turn": -1, "starter": starter, "marker": CENTRE,
        "factories": factories, "centre": centre, "bag": bag, "lid": lid,
        "boards": [{"score": board.score,
                    "wall": [[row >> column & 1 for column in range(5)] for row in board.rows],
                    "lines": [[colour, count] for colour, count in zip(board.line_colour, board.line_count)],
                    "floor": board.floor} for board in boards],
        "over": True,
    }
    if variant == GREY:
        state["variant"] = GREY
        for entry, board in zip(state["boards"], boards):
            entry["colours"] = [board.cells[row * 5:row * 5 + 5] for row in range(5)]
    return state


def winners(state: dict[str, Any]) -> list[int]:
    """The winners of a finished game's state."""
    return winners_of([board["score"] for board in state["boards"]],
                      [sum(all(row) for row in board["wall"]) for board in state["boards"]])
