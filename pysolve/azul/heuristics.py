"""What a position is worth, read from the canonical state: the scoring that search players and greedy share.

`move_gain` is the change of the mover's score if the round ended right
after a move (what `greedy` maximises; for a column chosen on a grey wall,
the tile's points). `values` projects every seat's score to the end of the
round (full lines tiled and scored, the floor lost, the clamp at 0) and adds
what the wall promises: the bonuses already earned, a share of those
half-way done, and the tiles waiting on lines that stay for the next round.
On the grey wall the promise is `grey_prospects`: a row, column or colour
earns its share only while it can still be completed (the player's column
choices can close it), and a line whose row can no longer take its colour
is charged. `tiling_value` is the mover's worth after a column choice at
best over its own choices left this round (what `greedy` and `lookahead`
maximise there). `utilities` turns values into rewards in [0, 1] for each
seat: how far it leads the best of the others.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pysolve.azul.model import (
    CENTRE,
    COLOUR_BONUS,
    COLUMN_BONUS,
    FLOOR_SLOTS,
    FLOOR_TOTALS,
    ROW_BONUS,
    Move,
    grey_columns,
    is_tiling,
    row_completable,
    wall_column,
)
from pysolve.azul.scoring import board_column, end_bonus, tile_score
from pysolve.errors import InputError

PROGRESS = 0.5  # the share of a row, column or colour bonus credited per (filled / 5) squared
WAITING = 0.6   # points credited per tile on a pattern line that carries over to the next round
SCALE = 8.0     # points of lead that make a reward of about 0.73 (the logistic's unit)
FALLEN = 1.5    # points charged, beyond its tiles, for a grey pattern line whose row can no longer take its colour
MAX_WEIGHT = 100.0  # an evaluation weight at most (points per tile or marker, shares of a bonus)


@dataclass(frozen=True)
class Weights:
    """What the projected worth credits beyond the score: progress towards bonuses, waiting tiles, the marker.

    `progress`: the share of an unfinished row, column or colour bonus credited per (filled / 5) squared;
    `waiting`: points per tile on a pattern line that carries over; `lacking`: points charged per tile such a
    line still lacks; `marker`: points for the seat that opens the next round (it holds the first-player
    marker, or the round is over and it starts the next).
    """

    progress: float = PROGRESS
    waiting: float = WAITING
    lacking: float = 0.0
    marker: float = 0.0

    def __post_init__(self) -> None:
        for name in ("progress", "waiting", "lacking", "marker"):
            weight = getattr(self, name)
            if not 0 <= weight <= MAX_WEIGHT:  # nan fails too
                raise InputError(f"the {name} weight is 0 to {MAX_WEIGHT:g}, not {weight}")


DEFAULT_WEIGHTS = Weights()


def move_gain(state: Mapping[str, Any], move: Move) -> int:
    """The mover's score change if the round ended right after `move`.

    The change of the mover's score if the round ended right after `move` (line scored, floor lost; a column
    choice: the tile's points).
    """
    source, colour, destination = move
    board = state["boards"][state["turn"]]
    if is_tiling(move):
        wall = [list(cells) for cells in board["wall"]]
        wall[colour][destination] = 1
        return tile_score(wall, colour, destination)
    taken = (state["centre"] if source == CENTRE else state["factories"][source])[colour]
    items = len(board["floor"])
    added = 1 if source == CENTRE and state["marker"] == CENTRE and items < FLOOR_SLOTS else 0
    gain = 0
    if destination:
        row = destination - 1
        count = board["lines"][row][1]
        fits = min(taken, destination - count)
        taken -= fits
        column = board_column(board, row, colour) if count + fits == destination else -1
        if column >= 0:
            wall = [list(cells) for cells in board["wall"]]
            wall[row][column] = 1
            gain = tile_score(wall, row, column)
        elif count + fits == destination:  # a grey wall without room: the whole line falls
            taken += destination
    after = min(items + added + taken, FLOOR_SLOTS)
    return gain - (FLOOR_TOTALS[after] - FLOOR_TOTALS[items])


def tiling_value(state: Mapping[str, Any], move: Move) -> float:
    """The mover's worth once a column choice's tile is on the wall.

    The mover's worth once the tile of a column choice (WALL, row, column) is on the wall, at best over its own
    column choices left this round (its lines below): `board_value`, whose grey prospects credit only the rows,
    columns and colours that can still be completed; when the game ends this round, the final score itself.
    """
    _, row, column = move
    board = state["boards"][state["turn"]]
    wall = [list(cells) for cells in board["wall"]]
    colours = [list(cells) for cells in board["colours"]]
    lines = [list(line) for line in board["lines"]]
    colour = lines[row][0]
    wall[row][column] = 1
    colours[row][column] = colour
    lines[row] = [-1, 0]
    placed = {"score": board["score"] + tile_score(wall, row, column), "wall": wall, "colours": colours,
              "lines": lines, "floor": board["floor"]}
    return _best_tiling(placed, row + 1, last_round(state))


def _best_tiling(board: dict[str, Any], below: int, final: bool) -> float:
    """The best `board_value` over the column choices of the full lines from row `below` down (a line with no
    cell left falls, as `board_value` projects it)."""
    wall, colours, lines = board["wall"], board["colours"], board["lines"]
    for row in range(below, 5):
        colour, count = lines[row]
        columns = grey_columns(wall, colours, row, colour) if count == row + 1 else []
        if columns:
            best = -math.inf
            lines[row] = [-1, 0]
            for column in columns:
                wall[row][column], colours[row][column] = 1, colour
                points = tile_score(wall, row, column)
                best = max(best, _best_tiling({**board, "score": board["score"] + points}, row + 1, final))
                wall[row][column], colours[row][column] = 0, -1
            lines[row] = [colour, count]
            return best
    return board_value(board, False, final)


def last_round(state: Mapping[str, Any]) -> bool:
    """True when the game ends after this round's tiling.

    A wall has a complete row, or will once a full line fills the last cell of its row (a cell that can
    take the colour).
    """
    for board in state["boards"]:
        colours = board.get("colours")
        for row, ((colour, count), cells) in enumerate(zip(board["lines"], board["wall"])):
            if all(cells):
                return True
            if sum(cells) == 4 and count == row + 1 and (
                    grey_columns(board["wall"], colours, row, colour) if colours else True):
                return True
    return False


def completable(wall: list[list[int]], colours: list[list[int]], what: str, index: int) -> bool:
    """A grey wall's row, column or colour `index` (`what`) can still be completed.

    The tiles it lacks fit the free cells, each colour once in a row and a column.
    """
    if what == "row":
        return row_completable(wall, colours, index)
    if what == "column":  # the colours the column lacks, each to a free cell of a row without it
        rows = [row for row in range(5) if not wall[row][index]]
        lacking = [colour for colour in range(5) if all(colours[row][index] != colour for row in range(5))]
        return _matched(lacking, rows, lambda colour, row: colour not in colours[row])
    rows = [row for row in range(5) if index not in colours[row]]  # a colour: each row without it, a column
    columns = [column for column in range(5) if all(colours[row][column] != index for row in range(5))]
    return _matched(rows, columns, lambda row, column: not wall[row][column])


def _matched(left: list[int], right: list[int], fits: Callable[[int, int], bool]) -> bool:
    """Each of `left` gets one of `right` of its own that it `fits`."""
    if not left:
        return True
    first, rest = left[0], left[1:]
    return any(fits(first, other) and _matched(rest, [item for item in right if item != other], fits)
               for other in right)


def grey_prospects(wall: list[list[int]], colours: list[list[int]], lines: list[list[int]]) -> float:
    """What a grey wall promises beyond its bonuses earned.

    Each row, column and colour not complete but still completable, its bonus times the share of its five
    tiles placed; less, for each pattern line whose colour its row can no longer take, its tiles and FALLEN
    (they will fall to the floor).
    """
    prospects = 0.0
    for index in range(5):
        for what, bonus, filled in (("row", ROW_BONUS, sum(wall[index])),
                                    ("column", COLUMN_BONUS, sum(wall[row][index] for row in range(5))),
                                    ("colour", COLOUR_BONUS, sum(cells.count(index) for cells in colours))):
            if filled < 5 and completable(wall, colours, what, index):
                prospects += bonus * filled / 5
    for row, (colour, count) in enumerate(lines):
        if count and not grey_columns(wall, colours, row, colour):
            prospects -= count + FALLEN
    return prospects


def board_value(board: Mapping[str, Any], over: bool, final: bool = False, weights: Weights = DEFAULT_WEIGHTS) -> float:
    """One board's projected worth.

    The round tiled now, bonuses earned and promised, tiles waiting (`final`: the game ends with this
    round, so the projected score and its bonuses alone).
    """
    if over:
        return float(board["score"])  # the final score, bonuses included
    wall = [list(cells) for cells in board["wall"]]
    grey = board.get("colours")
    colours = [list(cells) for cells in grey] if grey else None  # a grey wall's colours by cell
    score = board["score"]
    waiting = 0.0
    fallen = 0
    lines = [list(line) for line in board["lines"]]
    for row, (colour, count) in enumerate(lines):
        if count == row + 1:
            column = board_column({"wall": wall, "colours": colours} if colours else board, row, colour)
            lines[row] = [-1, 0]
            if column < 0:
                fallen += count
                continue
            wall[row][column] = 1
            if colours:
                colours[row][column] = colour
            score += tile_score(wall, row, column)
        elif count and not (colours and not grey_columns(wall, colours, row, colour)):
            waiting += weights.waiting * count - weights.lacking * (row + 1 - count)
    score = max(score - FLOOR_TOTALS[min(len(board["floor"]) + fallen, FLOOR_SLOTS)], 0)
    if final:
        return float(score + end_bonus(wall, colours))
    if colours:
        return score + end_bonus(wall, colours) + grey_prospects(wall, colours, lines) + waiting
    progress = 0.0
    for index in range(5):
        row = sum(wall[index])
        column = sum(wall[line][index] for line in range(5))
        colour = sum(wall[line][wall_column(line, index)] for line in range(5))
        progress += sum(bonus * (filled / 5) ** 2 for bonus, filled in
                        ((ROW_BONUS, row), (COLUMN_BONUS, column), (COLOUR_BONUS, colour)) if filled < 5)
    return score + end_bonus(wall, colours) + weights.progress * progress + waiting


def values(state: Mapping[str, Any], weights: Weights = DEFAULT_WEIGHTS) -> list[float]:
    """Every seat's projected worth under `weights` (the final scores once the game is over)."""
    worth = [board_value(board, state["over"], weights=weights) for board in state["boards"]]
    opener = next_opener(state)
    if weights.marker and opener is not None:
        worth[opener] += weights.marker
    return worth


def next_opener(state: Mapping[str, Any]) -> int | None:
    """The seat that opens the next round once known: the marker's holder, or at a round's end its next starter."""
    if state["over"]:
        return None
    if state["marker"] != CENTRE:
        return int(state["marker"])
    on_table = sum(state["centre"]) + sum(map(sum, state["factories"]))
    return None if on_table else int(state["starter"])


def utilities(worth: list[float]) -> list[float]:
    """Rewards in [0, 1]: each seat's lead over the best other seat through a logistic of unit SCALE."""
    rewards = []
    for seat, own in enumerate(worth):
        best_other = max(value for other, value in enumerate(worth) if other != seat)
        rewards.append(1.0 / (1.0 + math.exp(-(own - best_other) / SCALE)))
    return rewards
