"""A greedy Azul agent that speaks pysolve's agent protocol (docs/azul-protocol.md) and imports nothing from it.

Run it in a tournament: `pysolve azul simulate --strategy 'cmd:python examples/azul_agent.py',greedy`.
Each move it reads the position string and the legal moves, and plays the move that puts the most tiles
on a pattern line and the fewest on the floor, preferring lines that it completes.
"""

import sys

LETTERS = "BYRKW"
PENALTY = (0, 1, 2, 4, 6, 8, 11, 14)  # what a floor of 0..7 items costs


def value(code: str, fields: list[str]) -> float:
    """How good a move is for the seat to move: tiles placed, a line completed, the floor's extra cost."""
    source, colour, destination = code[0], code[1].upper(), code[2]
    seat = int(fields[1][1:])
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
