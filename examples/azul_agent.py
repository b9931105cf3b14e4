"""A greedy Azul agent that speaks pysolve's agent protocol (docs/azul-protocol.md) and imports nothing from it.

Run it in a tournament: `pysolve azul simulate --strategy 'cmd:python examples/azul_agent.py',greedy`.
Each move it reads the position string and the legal moves, and plays the move that puts the most tiles
on a pattern line and the fewest on the floor, preferring lines that it completes. On the grey wall, when
the position's phase is `t` (its full pattern line's tile to a column of its choice), the moves are
column choices `wLC` (line L's tile to column C) and it plays the one that scores the most points now.
"""

import sys

LETTERS = "BYRKW"
PENALTY = (0, 1, 2, 4, 6, 8, 11, 14)  # what a floor of 0..7 items costs


def wall_cells(wall: str) -> list[list[bool]]:
    """A board's WALL part as 5 rows of 5 cells, True where a tile lies (a digit is that many empty cells)."""
    return [[cell for token in row for cell in ([False] * int(token) if token.isdigit() else [True])]
            for row in wall.split("/")]


def points(cells: list[list[bool]], row: int, column: int) -> int:
    """What a tile placed at (row, column) scores: the tiles it joins in its row and its column, itself once."""
    def run(step_row: int, step_column: int) -> int:
        count, r, c = 0, row + step_row, column + step_column
        while 0 <= r < 5 and 0 <= c < 5 and cells[r][c]:
            count, r, c = count + 1, r + step_row, c + step_column
        return count

    across, down = run(0, -1) + run(0, 1), run(-1, 0) + run(1, 0)
    return (across + 1 if across else 0) + (down + 1 if down else 0) or 1


def value(code: str, fields: list[str]) -> float:
    """How good a move is for the seat to move: tiles placed, a line completed, the floor's extra cost; a
    column choice (`w` line column): the points the tile scores."""
    source, colour, destination = code[0], code[1].upper(), code[2]
    seat = int(fields[1][1:])
    if source == "w":
        wall = fields[10 + seat].split(":")[1]
        return points(wall_cells(wall), int(code[1]) - 1, int(code[2]) - 1)
    factories, centre = fields[6].split("/"), fields[7]
    tiles = (centre if source == "c" else factories[int(source) - 1]).count(colour)
    _, _, lines, floor = fields[10 + seat].split(":")  # score, wall, pattern lines, floor
    items = len(floor.strip("-")) + (source == "c" and fields[5] == "c")  # the marker comes with the centre
    placed, completes = 0, False
    if destination != "f":
        room = int(destination) - len(lines.split("/")[int(destination) - 1].strip("-"))
        placed = min(tiles, room)
        completes = placed == room
    fallen = min(items + tiles - placed, 7)
    return placed + 2 * completes + 0.1 * int(destination if destination != "f" else 0) \
        - (PENALTY[fallen] - PENALTY[min(items, 7)])


def main() -> None:
    fields: list[str] = []
    moves: list[str] = []
    for line in sys.stdin:
        word, _, rest = line.strip().partition(" ")
        if word == "azul":
            print("name example-greedy\nready", flush=True)
        elif word == "position":
            fields = rest.split(" ")
        elif word == "moves":
            moves = rest.split()
        elif word == "go":
            print("move", max(moves, key=lambda code: value(code, fields)), flush=True)
        elif word == "quit":
            break


if __name__ == "__main__":
    main()
