"""Azul drawn as text, as people draw it.

Factories, the centre (with the first-player marker named), and per player the pattern lines (a
right-aligned staircase) beside the wall, then the floor with its penalties; in a grey wall's tiling
phase, the cells the chooser's line may take marked `?`. `replay` tells a logged game step by step
(see `replay.story`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pysolve.azul.model import (
    CENTRE,
    COLOURS,
    FLOOR_SLOTS,
    LETTERS,
    MARKER,
    TILING,
    grey_columns,
    pending_line,
    wall_colour,
)
from pysolve.azul.replay import SLOT_PENALTIES, Step, is_grey, penalty, story, tile_colour
from pysolve.words import plural

MARKER_NAME = "the first-player marker"


def tiles(counts: list[int]) -> str:
    """Colour counts as letters, e.g. `B B R`."""
    return " ".join(LETTERS[colour] for colour, count in enumerate(counts) for _ in range(count))


def marker_place(state: dict[str, Any]) -> str:
    """Where the first-player marker is, in words."""
    if state["marker"] == CENTRE:
        return "in the centre" if not state["over"] else "out of play"
    return f"with seat {state['marker']}"


def offer(state: dict[str, Any]) -> str:
    """The factories and the centre, the marker named where it lies."""
    factories = "  ".join(f"F{index + 1}[{tiles(factory) or '-'}]" for index, factory in enumerate(state["factories"]))
    centre = tiles(state["centre"]) or "-"
    if state["marker"] == CENTRE and not state["over"]:
        centre = f"[{MARKER_NAME}] {centre}"
    return f"factories: {factories}\ncentre:    {centre}"


def wall_cell(state: dict[str, Any], data: dict[str, Any], row: int, column: int) -> str:
    """A wall cell: its tile's letter, else the colour printed there in lower case (`.` on a grey wall)."""
    if data["wall"][row][column]:
        return LETTERS[tile_colour(state, data, row, column)]
    return "." if is_grey(state) else LETTERS[wall_colour(row, column)].lower()


def board(state: dict[str, Any], seat: int, name: str = "") -> str:
    """One player's board: score, pattern lines | wall (filled cells upper case), the floor and its cost."""
    data = state["boards"][seat]
    title = f"seat {seat}" + (f" ({name})" if name else "")
    choosing, open_cells = choice(state, seat)
    to_move = (f"chooses the wall column of line {choosing + 1} ({COLOURS[data['lines'][choosing][0]]}): ?"
               if choosing >= 0 else "to move")
    notes = [to_move] * (state["turn"] == seat) + [f"holds {MARKER_NAME}"] * (state["marker"] == seat)
    lines = [f"{title}: score {data['score']}" + (f"   <- {', '.join(notes)}" if notes else "")]
    for row in range(5):
        colour, count = data["lines"][row]
        slots = ["."] * (row + 1 - count) + [LETTERS[colour]] * count
        stair = " ".join(slots).rjust(9)
        wall = " ".join("?" if row == choosing and column in open_cells else wall_cell(state, data, row, column)
                        for column in range(5))
        lines.append(f"  {stair} | {wall}")
    floor = [("M" if item == MARKER else LETTERS[item]) for item in data["floor"]]
    floor += ["."] * (FLOOR_SLOTS - len(floor))
    lines.append("  floor " + " ".join(f"{-cost:>2}" for cost in SLOT_PENALTIES))
    lines.append("        " + " ".join(f"{item:>2}" for item in floor) + f"  = {-penalty(data['floor'])}")
    return "\n".join(lines)


def choice(state: dict[str, Any], seat: int) -> tuple[int, list[int]]:
    """The line (0-based) whose column `seat` chooses in a grey wall's tiling phase and the columns it may take.

    (-1, []) when the seat chooses none now.
    """
    if state.get("phase") != TILING or state["turn"] != seat:
        return -1, []
    data = state["boards"][seat]
    row = pending_line(data["lines"])
    return row, grey_columns(data["wall"], data["colours"], row, data["lines"][row][0])


def how_far(state: dict[str, Any]) -> str:
    """Where the game is, for a table's heading: `round 2, 1 move`, `round 5, 52 moves - game over`."""
    tiling = " - the walls are tiled" if state.get("phase") == TILING else ""
    return f"round {state['round']}, {plural(state['moves'], 'move')}" + (" - game over" if state["over"] else tiling)


def table(state: dict[str, Any], names: Sequence[str] | None = None) -> str:
    """The whole table: the offer, then every board (M on a floor is the first-player marker)."""
    names = list(names or [""] * state["players"])
    head = f"{how_far(state)}; {MARKER_NAME} (M) is {marker_place(state)}"
    parts = [head, offer(state)] + [board(state, seat, names[seat]) for seat in range(state["players"])]
    return "\n\n".join(parts)


def boards(state: dict[str, Any], names: Sequence[str]) -> str:
    """Every board, without the offer (the walls while they are tiled)."""
    return "\n\n".join(board(state, seat, names[seat] if seat < len(names) else "")
                       for seat in range(state["players"]))


def replay(records: list[dict[str, Any]], every_move: bool = False) -> str:
    """A game log told step by step.

    Each move in a line (with the whole table after it when `every_move`), the table at each
    round's start, the tiling tile by tile, floor by floor.
    """
    return "\n".join(_told(step, every_move) for step in story(records))


def _told(step: Step, every_move: bool) -> str:
    """One step of the replay as text."""
    if step.kind == "start":
        return f"== {step.text} =="
    if step.kind == "deal":
        return f"\n-- {step.text} --\n{table(step.state, step.names)}\n"
    if step.kind == "move":
        return f"  {step.text}" + (f"\n\n{table(step.state, step.names)}\n" if every_move else "")
    if step.kind == "tiling":
        return f"\n-- {step.text} --\n{boards(step.state, step.names)}\n"
    if step.kind == "end":
        return f"\n{table(step.state, step.names)}\n\n{step.text}\n"
    return f"  {step.text}"

