"""Azul drawn as people draw it: factories, centre, and per player the pattern
lines (right-aligned staircase) beside the wall, then the floor line."""

from __future__ import annotations

from typing import Any

from pysolve.azul.model import CENTRE, FLOOR_SLOTS, LETTERS, MARKER, describe_move, wall_colour
from pysolve.azul.python import floor_penalty


def tiles(counts: list[int]) -> str:
    """Colour counts as letters, e.g. `B B R`."""
    return " ".join(LETTERS[colour] for colour, count in enumerate(counts) for _ in range(count))


def offer(state: dict[str, Any]) -> str:
    """The factories and the centre (1 marks the first-player marker)."""
    factories = "  ".join(f"F{index + 1}[{tiles(factory) or '-'}]" for index, factory in enumerate(state["factories"]))
    marker = "1 " if state["marker"] == CENTRE and not state["over"] else ""
    return f"factories: {factories}\ncentre:    {marker}{tiles(state['centre']) or '-'}"


def board(state: dict[str, Any], seat: int, name: str = "") -> str:
    """One player's board: score, pattern lines | wall (filled cells upper case), floor."""
    data = state["boards"][seat]
    title = f"seat {seat}" + (f" ({name})" if name else "")
    lines = [f"{title}: score {data['score']}" + ("   <- to move" if state["turn"] == seat else "")]
    for row in range(5):
        colour, count = data["lines"][row]
        slots = ["."] * (row + 1 - count) + [LETTERS[colour]] * count
        stair = " ".join(slots).rjust(9)
        wall = " ".join(LETTERS[wall_colour(row, column)] if data["wall"][row][column]
                        else LETTERS[wall_colour(row, column)].lower() for column in range(5))
        lines.append(f"  {stair} | {wall}")
    floor = [("1" if item == MARKER else LETTERS[item]) for item in data["floor"]]
    floor += ["."] * (FLOOR_SLOTS - len(floor))
    lines.append(f"  floor: {' '.join(floor)}  (-{floor_penalty(len(data['floor']))})")
    return "\n".join(lines)


def table(state: dict[str, Any], names: list[str] | None = None) -> str:
    """The whole table: the offer, then every board side by side in reading order."""
    names = names or [""] * state["players"]
    head = f"round {state['round']}, {state['moves']} moves" + (" - game over" if state["over"] else "")
    parts = [head, offer(state)] + [board(state, seat, names[seat]) for seat in range(state["players"])]
    return "\n\n".join(parts)


def replay(records: list[dict[str, Any]]) -> str:
    """A game log (start, move..., end records) told round by round with the boards."""
    out: list[str] = []
    names: list[str] = []
    shown_round = None
    for record in records:
        kind = record.get("type")
        if kind == "start":
            names = record["strategies"]
            out.append(f"== game seed {record['seed']}: {record['players']} players on {record['engine']} "
                       f"({', '.join(names)}) ==")
            out.append(table(record["state"], names))
            shown_round = record["state"]["round"]
        elif kind == "move":
            out.append(f"  seat {record['seat']}: {describe_move(tuple(record['move']))}")
            state = record["state"]
            if state["round"] != shown_round or state["over"]:
                out.append("\n" + table(state, names))
                shown_round = state["round"]
        elif kind == "end":
            winners = ", ".join(f"seat {seat}" for seat in record["winners"])
            out.append(f"final scores {record['scores']}; won by {winners}\n")
    return "\n".join(out)
