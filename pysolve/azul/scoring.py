"""How a wall scores, on the canonical model's plain lists: what every rule set and the heuristics share.

A tile placed on a wall scores its runs (`tile_score`), a floor costs its
items (`floor_penalty`), a finished wall earns its bonuses (`end_bonus`),
and on the grey wall pysolve's fixed policy picks the cell a full line's
tile goes to (`grey_column`: the `+policy` column strategy, and the
heuristics' projection of the lines still to tile; `board_column` reads it
off a canonical board).
The Python rules call these directly, the miniKanren rules answer the same
questions with relations, and `heuristics` values positions with them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pysolve.azul.model import (
    COLOUR_BONUS,
    COLUMN_BONUS,
    FLOOR_SLOTS,
    FLOOR_TOTALS,
    ROW_BONUS,
    complete_rows,
    grey_columns,
)


def tile_score(wall: list[list[int]], row: int, column: int) -> int:
    """Points for the tile just placed at (row, column): 1 alone, else the runs through it longer than 1."""
    horizontal = 1 + _run(wall, row, column, 0, -1) + _run(wall, row, column, 0, 1)
    vertical = 1 + _run(wall, row, column, -1, 0) + _run(wall, row, column, 1, 0)
    if horizontal == 1 and vertical == 1:
        return 1
    return (horizontal if horizontal > 1 else 0) + (vertical if vertical > 1 else 0)


def _run(wall: list[list[int]], row: int, column: int, step_row: int, step_column: int) -> int:
    """Filled cells next to (row, column) going one way, up to the first gap."""
    count = 0
    row, column = row + step_row, column + step_column
    while 0 <= row < 5 and 0 <= column < 5 and wall[row][column]:
        count += 1
        row, column = row + step_row, column + step_column
    return count


def floor_penalty(items: int) -> int:
    """Points lost for `items` on a floor (the marker counts; beyond 7 nothing more)."""
    return FLOOR_TOTALS[min(items, FLOOR_SLOTS)]


def end_bonus(wall: list[list[int]], colours: list[list[int]] | None = None) -> int:
    """End-of-game bonus: 2 per complete row, 7 per complete column, 10 per complete colour.

    `colours` are a grey wall's colours by cell; without them the wall is the coloured one.
    """
    columns = sum(1 for column in range(5) if all(wall[row][column] for row in range(5)))
    if colours is None:
        complete = sum(1 for colour in range(5) if all(wall[row][(colour + row) % 5] for row in range(5)))
    else:
        complete = sum(1 for colour in range(5) if sum(row.count(colour) for row in colours) == 5)
    return ROW_BONUS * complete_rows(wall) + COLUMN_BONUS * columns + COLOUR_BONUS * complete


def board_column(board: Mapping[str, Any], row: int, colour: int) -> int:
    """The column where a canonical board's full line `row` of `colour` is tiled.

    The coloured wall's cell, or the grey-wall policy's choice (-1: the line falls to the floor).
    """
    colours = board.get("colours")
    if colours is None:
        return (colour + row) % 5
    return grey_column([list(cells) for cells in board["wall"]], colours, row, colour)


def grey_column(wall: list[list[int]], colours: list[list[int]], row: int, colour: int) -> int:
    """The column pysolve's grey-wall policy places `colour` in: most points, the leftmost among equals; -1 if none."""
    best, chosen = 0, -1
    for column in grey_columns(wall, colours, row, colour):
        wall[row][column] = 1
        points = tile_score(wall, row, column)
        wall[row][column] = 0
        if points > best:
            best, chosen = points, column
    return chosen
