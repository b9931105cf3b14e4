"""What a position is worth, read from the canonical state: the scoring that search players and greedy share.

`move_gain` is the change of the mover's score if the round ended right
after a move (what `greedy` maximises; for a column chosen on a grey wall,
the tile's points). `tiling_value` is the mover's projected worth after a
column choice (what `greedy` maximises there: the points, and how far the
tile brings rows, columns and colours towards their bonuses). `values` projects every seat's
score to the end of the round (full lines tiled and scored, the floor
lost, the clamp at 0) and adds what the wall promises: the bonuses already
earned, a share of those half-way done, and the tiles waiting on lines that
stay for the next round. `utilities` turns values into rewards in [0, 1]
for each seat: how far it leads the best of the others.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
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

PROGRESS = 0.5  # the share of a row, column or colour bonus credited per (filled / 5) squared
WAITING = 0.6   # points credited per tile on a pattern line that carries over to the next round
SCALE = 8.0     # points of lead that make a reward of about 0.73 (the logistic's unit)
CLOSED = 3.0    # points a column choice is charged per colour a grey row can no longer take


def move_gain(state: Mapping[str, Any], move: Move) -> int:
    """The change of the mover's score if the round ended right after `move` (line scored, floor lost; a column
    choice: the tile's points)."""
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
    """The mover's projected worth (`board_value`) once its tile of a column choice (WALL, row, column) is on
    the wall: the points, the bonuses it brings nearer, the lines below projected by the policy."""
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
    return grey_worth(placed, False)


def grey_worth(board: Mapping[str, Any], over: bool) -> float:
    """A grey board's worth for its column choices: `board_value`, less CLOSED for every colour a row can no
    longer take (`closed`) while the game goes on."""
    if over:
        return board_value(board, over)
    return board_value(board, over) - CLOSED * closed([list(cells) for cells in board["wall"]], board["colours"])


def closed(wall: list[list[int]], colours: list[list[int]]) -> int:
    """How many colours a grey wall's rows lack but can no longer take (every free cell's column holds the
    colour), each row that can no longer be completed counting as one more: what a column choice gives up."""
    count = 0
    for row in range(5):
        if all(wall[row]):
            continue
        missing = [colour for colour in range(5) if colour not in colours[row]]
        count += sum(not grey_columns(wall, colours, row, colour) for colour in missing)
        count += not row_completable(wall, colours, row)
    return count


def board_value(board: Mapping[str, Any], over: bool) -> float:
    """One board's projected worth: the round tiled now, bonuses earned and promised, tiles waiting."""
    if over:
        return float(board["score"])  # the final score, bonuses included
    wall = [list(cells) for cells in board["wall"]]
    grey = board.get("colours")
    colours = [list(cells) for cells in grey] if grey else None  # a grey wall's colours by cell
    score = board["score"]
    waiting = 0.0
    fallen = 0
    for row, (colour, count) in enumerate(board["lines"]):
        if count == row + 1:
            column = board_column({"wall": wall, "colours": colours} if colours else board, row, colour)
            if column < 0:
                fallen += count
                continue
            wall[row][column] = 1
            if colours:
                colours[row][column] = colour
            score += tile_score(wall, row, column)
        elif count:
            waiting += WAITING * count
    score = max(score - FLOOR_TOTALS[min(len(board["floor"]) + fallen, FLOOR_SLOTS)], 0)
    progress = 0.0
    for index in range(5):
        row = sum(wall[index])
        column = sum(wall[line][index] for line in range(5))
        colour = (sum(cells.count(index) for cells in colours) if colours
                  else sum(wall[line][wall_column(line, index)] for line in range(5)))
        progress += sum(bonus * (filled / 5) ** 2 for bonus, filled in
                        ((ROW_BONUS, row), (COLUMN_BONUS, column), (COLOUR_BONUS, colour)) if filled < 5)
    return score + end_bonus(wall, colours) + PROGRESS * progress + waiting


def values(state: Mapping[str, Any]) -> list[float]:
    """Every seat's projected worth (the final scores once the game is over)."""
    return [board_value(board, state["over"]) for board in state["boards"]]


def utilities(worth: list[float]) -> list[float]:
    """Rewards in [0, 1]: each seat's lead over the best other seat through a logistic of unit SCALE."""
    rewards = []
    for seat, own in enumerate(worth):
        best_other = max(value for other, value in enumerate(worth) if other != seat)
        rewards.append(1.0 / (1.0 + math.exp(-(own - best_other) / SCALE)))
    return rewards
