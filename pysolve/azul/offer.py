"""One round's factory offer on a standard wall, packed for search: what MCTS plays its tree and playouts on.

Within a round nothing is hidden and nothing is drawn, so a search that
stops at the round's end needs only the offer's rules: the moves, the tiles
they take and where they go. `Offer` holds them on integers (each wall as
bit masks by row and by column, pattern lines as colour and count, a floor
as its number of items), in the shape of `tree.State` (`clone`, `child`,
`legal_moves` in the same canonical order, `apply_move`, `current_player`,
`is_chance_node` once the offer is taken), and answers what the search asks
of a position without building its canonical state: every move's
`heuristics.move_gain` (`gains`) and, at the round's end, every seat's
`heuristics.values` (`worth`: the walls tiled, the floors paid, the game's
end and its bonuses when a row is complete). Tests check legal moves, gains
and worth against the `Table` rules and the heuristics on many positions.

The offer ends a round that a deal follows; what comes after, the grey wall's
column choices and the deals, stays with `tree.State` (`fits` says which
positions an Offer can hold).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from pysolve.azul.heuristics import DEFAULT_WEIGHTS, Weights
from pysolve.azul.model import (
    CENTRE,
    COLOUR_BONUS,
    COLUMN_BONUS,
    FLOOR_SLOTS,
    FLOOR_TOTALS,
    GREY,
    MARKER,
    ROW_BONUS,
    Move,
)
from pysolve.azul.packed import FULL, LINES_OF, POINTS, RUN
from pysolve.azul.tree import CHANCE, MOVING, State

# Counts of the cells filled per column (or per colour) of a wall, summed over its rows as octal digits: a row's
# mask spread to one digit per column (SPREAD), or per colour (COLOUR_SPREAD[row]: the colour of each cell).
SPREAD = [sum(1 << 3 * column for column in range(5) if mask >> column & 1) for mask in range(32)]
COLOUR_SPREAD = [[sum(1 << 3 * colour for colour in range(5) if mask >> (colour + row) % 5 & 1) for mask in range(32)]
                 for row in range(5)]


def _by_digits(bonus: int) -> tuple[dict[int, int], dict[int, float]]:
    """For every octal sum of five counts 0..5: the bonus of the counts at 5, and the progress of the others
    (`heuristics.board_value`: the bonus times (filled / 5) squared, before its weight); built a digit at a time."""
    credit = [bonus * (count / 5) ** 2 if count < 5 else 0.0 for count in range(6)]
    sums: dict[int, tuple[int, float]] = {0: (0, 0.0)}
    for digit in range(5):
        sums = {key + (count << 3 * digit): (done + bonus * (count == 5), progress + credit[count])
                for key, (done, progress) in sums.items() for count in range(6)}
    return {key: done for key, (done, _) in sums.items()}, {key: progress for key, (_, progress) in sums.items()}


COLUMNS_DONE, COLUMNS_PROGRESS = _by_digits(COLUMN_BONUS)
COLOURS_DONE, COLOURS_PROGRESS = _by_digits(COLOUR_BONUS)
ROW_DONE = [ROW_BONUS if mask == FULL else 0 for mask in range(32)]
ROW_PROGRESS = [ROW_BONUS * (bin(mask).count("1") / 5) ** 2 if mask != FULL else 0.0 for mask in range(32)]
FLOOR_COST = [FLOOR_TOTALS[min(items, FLOOR_SLOTS)] for items in range(FLOOR_SLOTS + 1)]


class Offer:
    """A position of a round's factory offer: sources, marker, and each seat's wall, lines, floor and score."""

    __slots__ = ("columns", "counts", "floors", "lines", "marker", "offer", "players", "rows", "scores", "sources",
                 "spare", "starter", "turn")

    def __init__(self, state: State) -> None:
        """The Offer of `state`, a position where a seat takes tiles on a standard wall (`fits`)."""
        table = state.table
        self.players, self.turn, self.marker, self.offer = table.players, table.turn, table.marker, table.offer
        self.starter = table.starter  # who opens the next round when nobody takes the marker
        self.sources = [table.centre[:]] + [factory[:] for factory in table.factories]  # the centre first
        self.rows = [[sum(cell << column for column, cell in enumerate(row)) for row in wall] for wall in table.walls]
        self.columns = [[sum(wall[row][column] << row for row in range(5)) for column in range(5)]
                        for wall in table.walls]
        self.lines = [colours[:] for colours in table.line_colours]  # each line's colour (-1: empty)
        self.counts = [counts[:] for counts in table.line_counts]
        self.floors = [[len(floor), sum(item != MARKER for item in floor)] for floor in table.floors]  # items, tiles
        self.scores = table.scores[:]
        self.spare = sum(table.bag) + sum(table.lid)  # tiles in the bag and the lid: none left ends the game

    @staticmethod
    def fits(state: State) -> bool:
        """True when an Offer can hold `state`: a seat takes tiles on a standard wall."""
        table = state.table
        return state.phase == MOVING and not (table.over or table.tiling) and table.variant != GREY

    def clone(self) -> Offer:
        """An independent copy."""
        other = Offer.__new__(Offer)
        other.players, other.turn, other.marker = self.players, self.turn, self.marker
        other.offer, other.spare, other.starter = self.offer, self.spare, self.starter
        other.sources = [counts[:] for counts in self.sources]
        other.rows, other.columns = self.rows, self.columns  # the walls do not change during the offer
        other.lines = [colours[:] for colours in self.lines]
        other.counts = [counts[:] for counts in self.counts]
        other.floors = [floor[:] for floor in self.floors]
        other.scores = self.scores
        return other

    def child(self, move: Move) -> Offer:
        """The position after `move`; this one stays."""
        return self.clone().apply_move(move)

    @property
    def current_player(self) -> int:
        """The seat to move, CHANCE once the offer is taken (the round's end)."""
        return self.turn if self.offer else CHANCE

    @property
    def is_chance_node(self) -> bool:
        """True once the offer is taken: the round ends here."""
        return not self.offer

    is_terminal = False  # the game ends only at a round's end, where an Offer stops

    def accepting(self, seat: int) -> list[int]:
        """Per colour, the mask of `seat`'s pattern lines that take it.

        Empty with the wall row lacking the colour, or holding that colour and not full.
        """
        rows, lines, counts = self.rows[seat], self.lines[seat], self.counts[seat]
        masks = [0] * 5
        for line in range(5):
            count = counts[line]
            if count > line:
                continue
            if count:
                masks[lines[line]] |= 1 << line
                continue
            row = rows[line]
            for colour in range(5):
                if not row >> (colour + line) % 5 & 1:
                    masks[colour] |= 1 << line
        return masks

    def legal_moves(self) -> list[Move]:
        """The moves of the seat to move, in canonical order.

        The moves of the seat to move in canonical order (sources centre first, colours, the floor then the
        lines from the top), as `PythonEngine.legal_moves` lists them; none once the offer is taken.
        """
        if not self.offer:
            return []
        return [(source, colour, destination) for source, colour, destination, _ in self._choices()]

    def _choices(self) -> Iterator[tuple[int, int, int, int]]:
        """(source, colour, destination, tiles taken) of each legal move of the seat to move, in canonical order."""
        masks = self.accepting(self.turn)
        for index, counts in enumerate(self.sources):
            source = index - 1 if index else CENTRE
            for colour in range(5):
                taken = counts[colour]
                if taken:
                    yield source, colour, 0, taken
                    for line in LINES_OF[masks[colour]]:
                        yield source, colour, line + 1, taken

    def gains(self, moves: list[Move]) -> list[int]:
        """Each move's change of the mover's score if the round ended right after it (`heuristics.move_gain`)."""
        gain = self._gain()
        sources = self.sources
        return [gain(source, colour, destination, sources[source + 1][colour]) for source, colour, destination in moves]

    def best_moves(self) -> list[Move]:
        """The legal moves of the best gain (`gains`, in canonical order), found without listing the others."""
        gain = self._gain()
        best, found = -FLOOR_TOTALS[-1] - 1, []
        for source, colour, destination, taken in self._choices():
            value = gain(source, colour, destination, taken)
            if value > best:
                best, found = value, [(source, colour, destination)]
            elif value == best:
                found.append((source, colour, destination))
        return found

    def _gain(self) -> Callable[[int, int, int, int], int]:
        """The gain of the seat to move for a move (source, colour, destination) taking `taken` tiles."""
        seat = self.turn
        rows, columns, counts = self.rows[seat], self.columns[seat], self.counts[seat]
        items = self.floors[seat][0]
        marker = self.marker == CENTRE and items < FLOOR_SLOTS
        base = FLOOR_TOTALS[items]

        def gain(source: int, colour: int, destination: int, taken: int) -> int:
            points = 0
            if destination:
                row = destination - 1
                room = destination - counts[row]
                if taken >= room:
                    taken -= room
                    column = (colour + row) % 5
                    points = POINTS[RUN[rows[row] | 1 << column][column]][RUN[columns[column] | 1 << row][row]]
                else:
                    taken = 0
            after = items + taken + (marker and source == CENTRE)
            return points - (FLOOR_TOTALS[after if after < FLOOR_SLOTS else FLOOR_SLOTS] - base)

        return gain

    def apply_move(self, move: Move) -> Offer:
        """Play a legal move in place.

        Play a legal move in place (the tiles taken, the rest of a factory to the centre, the marker, the line
        and the floor; the turn passes while tiles are left); return this position.
        """
        source, colour, destination = move
        seat, sources = self.turn, self.sources
        counts = sources[source + 1]
        taken = counts[colour]
        counts[colour] = 0
        floor = self.floors[seat]
        if source == CENTRE:
            if self.marker == CENTRE:
                self.marker = seat
                if floor[0] < FLOOR_SLOTS:
                    floor[0] += 1
        else:
            centre = sources[0]
            for other in range(5):
                if counts[other]:
                    centre[other] += counts[other]
                    counts[other] = 0
        self.offer -= taken
        excess = taken
        if destination:
            row = destination - 1
            line = self.counts[seat]
            fits = min(taken, destination - line[row])
            line[row] += fits
            self.lines[seat][row] = colour
            excess -= fits
        if excess:
            fits = min(excess, FLOOR_SLOTS - floor[0])
            floor[0] += fits
            floor[1] += fits
            self.spare += excess - fits  # past the floor's slots: to the lid
        if self.offer:
            self.turn = (seat + 1) % self.players
        return self

    def worth(self, weights: Weights = DEFAULT_WEIGHTS) -> list[float]:
        """Every seat's projected worth at the round's end.

        `heuristics.values` (under `weights`) of the position the round's tiling reaches: the final scores when
        the game ends there.
        """
        tiled = []
        spare = self.spare
        over = False
        for seat in range(self.players):
            rows, columns = self.rows[seat][:], self.columns[seat][:]
            lines, counts = self.lines[seat], self.counts[seat]
            score, waiting = self.scores[seat], 0.0
            for row in range(5):
                count = counts[row]
                if count == row + 1:
                    column = (lines[row] + row) % 5
                    rows[row] |= 1 << column
                    columns[column] |= 1 << row
                    score += POINTS[RUN[rows[row]][column]][RUN[columns[column]][row]]
                    spare += row
                elif count:
                    waiting += weights.waiting * count - weights.lacking * (row + 1 - count)
            items, tiles = self.floors[seat]
            spare += tiles
            score = max(score - FLOOR_COST[items], 0)
            over = over or FULL in rows
            tiled.append((score, rows, waiting))
        over = over or not spare
        worth = [_board_worth(score, rows, waiting, over, weights) for score, rows, waiting in tiled]
        if weights.marker and not over:  # the seat that opens the next round: the marker's holder
            worth[self.starter if self.marker == CENTRE else self.marker] += weights.marker
        return worth


def _board_worth(score: int, rows: list[int], waiting: float, over: bool, weights: Weights) -> float:
    """One tiled board's worth (`heuristics.board_value`): over, the final score (bonuses added); else the score,
    the bonuses earned, the progress towards the others, and the lines waiting (their worth under `weights`)."""
    first, second, third, fourth, fifth = rows
    columns = SPREAD[first] + SPREAD[second] + SPREAD[third] + SPREAD[fourth] + SPREAD[fifth]
    colours = (COLOUR_SPREAD[0][first] + COLOUR_SPREAD[1][second] + COLOUR_SPREAD[2][third]
               + COLOUR_SPREAD[3][fourth] + COLOUR_SPREAD[4][fifth])
    bonus = (ROW_DONE[first] + ROW_DONE[second] + ROW_DONE[third] + ROW_DONE[fourth] + ROW_DONE[fifth]
             + COLUMNS_DONE[columns] + COLOURS_DONE[colours])
    if over:
        return float(score + bonus)
    progress = (ROW_PROGRESS[first] + ROW_PROGRESS[second] + ROW_PROGRESS[third] + ROW_PROGRESS[fourth]
                + ROW_PROGRESS[fifth] + COLUMNS_PROGRESS[columns] + COLOURS_PROGRESS[colours])
    return score + bonus + weights.progress * progress + waiting
