"""A logged game told step by step: every move, then each round's wall tiling tile by tile, floor by floor.

A log (`simulate --log`, `play --log`) holds the state after every move. The
state after a round's last move is already tiled and dealt again, so the
story rebuilds the table just before the tiling (`settle`: the move's tiles
on their line and the floor) and tiles it one pattern line at a time,
explaining each score. On the grey wall a log since the column became the
player's choice holds the tiling phase too: the state after the round's
last move waits at the first line whose owner chooses, and each choice
(WALL, row, column) is a move record of its own; the story tiles up to it,
tells the choice, and goes on. An older grey log (the columns placed by
pysolve's fixed policy, no choice recorded) is told from its walls as
before. The story is a checker too: every move must lead to
the logged state, and the narrated scores and walls must be the logged
ones; a log that disagrees is refused with the record it fails at. `read_log`
reads a log file, each record checked (`check_record`) before it is told.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pysolve import files
from pysolve.azul.model import (
    CENTRE,
    COLOUR_BONUS,
    COLOURS,
    COLUMN_BONUS,
    FLOOR_SLOTS,
    FLOOR_TOTALS,
    MARKER,
    ROW_BONUS,
    TILING,
    check_move,
    check_state,
    describe_move,
    is_tiling,
    pending_line,
    wall_colour,
)
from pysolve.errors import InputError
from pysolve.files import excerpt

NOBODY = -1  # `turn` while the walls are tiled: no seat is to move
SLOT_PENALTIES = tuple(after - before for before, after in itertools.pairwise(FLOOR_TOTALS))  # 1 1 2 2 2 3 3


RECORD_FIELDS: dict[str, dict[str, type]] = {  # each kind of log record: the fields a replay reads, their types
    "start": {"seed": int, "players": int, "engine": str, "strategies": list, "state": dict},
    "move": {"seat": int, "move": list, "state": dict},
    "end": {"scores": list, "winners": list},
}
LISTS_OF = {"strategies": str, "scores": int, "winners": int}  # what the list fields hold
_JSON_NAMES = {int: "integer", str: "string", list: "list", dict: "object"}


@dataclass(frozen=True)
class Step:
    """One thing that happens: a move, a tile put on a wall, a floor paid, a bonus, a deal, the end."""

    kind: str                # start, move, tiling, tile, floor, bonus, deal, end
    text: str                # what happened, in words (one line)
    state: dict[str, Any]    # the table right after it
    seat: int = NOBODY       # whose board it concerns (NOBODY for the whole table)
    focus: tuple[Any, ...] = ()  # what to point at: ("line", row), ("wall", row, column), ("floor",), ("source", s)
    names: tuple[str, ...] = field(default=())  # the players' strategies (or "you")


@dataclass(frozen=True)
class Placement:
    """Where a move's tiles went."""

    taken: int
    on_line: int
    on_floor: int
    to_lid: int
    marker: bool


def is_grey(state: dict[str, Any]) -> bool:
    """True for the rulebook's variant on the grey side of the board (any colour in any wall column)."""
    return state.get("variant") == "grey"


def tile_colour(state: dict[str, Any], board: dict[str, Any], row: int, column: int) -> int:
    """The colour of the tile on a filled wall cell (printed on a coloured wall, recorded on a grey one)."""
    return board["colours"][row][column] if is_grey(state) else wall_colour(row, column)


def tile_points(wall: list[list[int]], row: int, column: int) -> tuple[int, int, int]:
    """(points, horizontal run, vertical run) of a tile just put at (row, column) of a filled-cells wall."""

    def run(cells: list[int], at: int) -> int:
        start = end = at
        while start > 0 and cells[start - 1]:
            start -= 1
        while end < 4 and cells[end + 1]:
            end += 1
        return end - start + 1

    across = run(wall[row], column)
    down = run([wall[r][column] for r in range(5)], row)
    if across == down == 1:
        return 1, 1, 1
    return (across if across > 1 else 0) + (down if down > 1 else 0), across, down


def why(points: int, across: int, down: int) -> str:
    """The reason for a tile's points, in words."""
    if across == down == 1:
        return "alone"
    runs = [f"row of {across}"] * (across > 1) + [f"column of {down}"] * (down > 1)
    return " + ".join(runs)


def settle(before: dict[str, Any], move: Sequence[int]) -> tuple[dict[str, Any], Placement]:
    """The table after the seat to move plays `move`, before anything else (no turn passed, no tiling)."""
    state = copy.deepcopy(before)
    seat = state["turn"]
    source, colour, destination = move
    board = state["boards"][seat]
    marker = False
    if source == CENTRE:
        taken = state["centre"][colour]
        state["centre"][colour] = 0
        if state["marker"] == CENTRE:
            marker = True
            state["marker"] = seat
            if len(board["floor"]) < FLOOR_SLOTS:
                board["floor"].append(MARKER)
    else:
        factory = state["factories"][source]
        taken = factory[colour]
        factory[colour] = 0
        state["centre"] = [held + rest for held, rest in zip(state["centre"], factory)]
        state["factories"][source] = [0] * 5
    if not taken:
        raise InputError(f"move {list(move)} takes no tile: {describe_move(move)} is empty of that colour")
    on_line = 0
    if destination:
        line = board["lines"][destination - 1]
        on_line = min(taken, destination - line[1])
        board["lines"][destination - 1] = [colour, line[1] + on_line]
    excess = taken - on_line
    on_floor = min(excess, FLOOR_SLOTS - len(board["floor"]))
    board["floor"].extend([colour] * on_floor)
    state["lid"][colour] += excess - on_floor
    state["moves"] += 1
    return state, Placement(taken, on_line, on_floor, excess - on_floor, marker)


def move_text(number: int, seat: int, name: str, move: Sequence[int], placed: Placement, board: dict[str, Any]) -> str:
    """`move 7, seat 1 (greedy): factory 3: red -> line 2: 2 tiles on the line, 1 to the floor`."""
    parts = [f"{placed.on_line} on the line"] if move[2] else []
    if placed.on_floor:
        parts.append(f"{placed.on_floor} to the floor")
    if placed.to_lid:
        parts.append(f"{placed.to_lid} to the lid (floor full)")
    if placed.marker:
        parts.append("takes the first-player marker onto the floor")
    tiles = f"{placed.taken} {COLOURS[move[1]]} tile" + ("s" if placed.taken > 1 else "")
    floor = board["floor"]
    after = f"; floor now {floor_text(floor)}: -{penalty(floor)}" if floor else ""
    who = f"seat {seat}" + (f" ({name})" if name else "")
    return f"move {number}, {who}: {describe_move(move)}, {tiles}: {', '.join(parts)}{after}"


def floor_text(floor: list[int]) -> str:
    """A floor's items as letters, the marker as M."""
    return " ".join("M" if item == MARKER else "BYRKW"[item] for item in floor) or "empty"


def penalty(floor: list[int]) -> int:
    """The points a floor costs (the marker takes a slot like a tile)."""
    return FLOOR_TOTALS[min(len(floor), FLOOR_SLOTS)]


def _different(state: dict[str, Any], logged: dict[str, Any], keys: Sequence[str]) -> str:
    """The first key (or board part) where two states differ, else ''."""
    for key in keys:
        if key == "boards":
            for seat, (mine, theirs) in enumerate(zip(state["boards"], logged["boards"])):
                for part in ("score", "wall", "lines", "floor", "colours"):
                    if mine.get(part) != theirs.get(part):
                        return f"boards[{seat}].{part}"
        elif state[key] != logged[key]:
            return key
    return ""


@dataclass(frozen=True)
class Choice:
    """A column choice of the tiling phase, as the story tells it: its move number, seat, player and column."""

    number: int
    seat: int
    name: str
    column: int


def tiling(pre: dict[str, Any], after: dict[str, Any], names: tuple[str, ...],
           choice: Choice | None = None) -> Iterator[Step]:
    """The wall tiling of a round, one tile and then one floor at a time, ending on the final scores.

    From a column `choice` on when given (the tiling phase of a grey wall), and up to the line whose owner
    chooses next when `after` waits for a choice.
    """
    state = copy.deepcopy(pre)
    state.pop("phase", None)
    state["turn"] = NOBODY
    if choice is None:
        holder = (f"; seat {pre['marker']} holds the first-player marker and starts the next round"
                  if pre["marker"] != CENTRE and not after["over"] else "")
        yield Step("tiling", f"end of round {pre['round']}: the walls are tiled, top line first{holder}",
                   copy.deepcopy(state), names=names)
    waiting = after["turn"] if after.get("phase") == TILING else None
    for seat in range(choice.seat if choice else 0, len(state["boards"])):
        board = state["boards"][seat]
        for row in range(5):
            colour, count = board["lines"][row]
            if count != row + 1:
                continue
            chosen = choice is not None and seat == choice.seat and row == pending_line(pre["boards"][seat]["lines"])
            if seat == waiting and not chosen and row == pending_line(after["boards"][seat]["lines"]):
                yield Step("choose", f"seat {seat} chooses the column of line {row + 1} ({COLOURS[colour]})",
                           {**copy.deepcopy(state), "turn": seat, "phase": TILING}, seat, ("line", row), names)
                return
            board["lines"][row] = [-1, 0]
            column = _new_cell(board["wall"], after["boards"][seat]["wall"], row, seat, is_grey(state))
            if chosen and choice is not None and column != choice.column:
                raise InputError(f"seat {seat} chose column {choice.column + 1} of row {row + 1}, the logged wall "
                                 f"has the tile elsewhere")
            if column < 0:
                fits = min(row + 1, FLOOR_SLOTS - len(board["floor"]))
                board["floor"].extend([colour] * fits)
                state["lid"][colour] += row + 1 - fits
                text = (f"seat {seat}: line {row + 1} full of {COLOURS[colour]} has no free cell for it in wall row "
                        f"{row + 1}: its {row + 1} tiles fall to the floor")
                yield Step("tile", text, copy.deepcopy(state), seat, ("floor",), names)
                continue
            board["wall"][row][column] = 1
            if is_grey(state):
                board["colours"][row][column] = colour
            points, across, down = tile_points(board["wall"], row, column)
            board["score"] += points
            state["lid"][colour] += row
            text = (f"seat {seat}: line {row + 1} full of {COLOURS[colour]} -> wall row {row + 1}, column "
                    f"{column + 1}: +{points} ({why(points, across, down)}); score {board['score']}")
            if chosen and choice is not None:
                who = f" ({choice.name})" if choice.name else ""
                text = f"move {choice.number}, seat {seat}{who} chooses: " + text.split(": ", 1)[1]
            yield Step("move" if chosen else "tile", text, copy.deepcopy(state), seat, ("wall", row, column), names)
        floor = board["floor"]
        if floor:
            cost, was = penalty(floor), board["score"]
            board["score"] = max(was - cost, 0)
            clamp = " (a score never falls below 0)" if was < cost else ""
            for item in floor:
                if item != MARKER:
                    state["lid"][item] += 1
            text = (f"seat {seat}: floor {floor_text(floor)} ({len(floor)} item{'s' * (len(floor) > 1)}): -{cost}; "
                    f"score {was} -> {board['score']}{clamp}")
            board["floor"] = []
            yield Step("floor", text, copy.deepcopy(state), seat, ("floor",), names)
    if after["over"]:
        yield from _bonuses(state, names)


def _new_cell(wall: list[list[int]], logged: list[list[int]], row: int, seat: int, grey: bool) -> int:
    """The column of the tile the logged wall gained in `row`; -1 when a grey wall had no room for it
    (InputError when a coloured wall gained none)."""
    gained = [column for column in range(5) if logged[row][column] and not wall[row][column]]
    if grey and not gained:
        return -1
    if len(gained) != 1:
        raise InputError(f"seat {seat}'s full line {row + 1} did not reach the logged wall")
    return gained[0]


def _bonuses(state: dict[str, Any], names: tuple[str, ...]) -> Iterator[Step]:
    """The end-of-game bonuses, seat by seat."""
    for seat, board in enumerate(state["boards"]):
        wall = board["wall"]
        rows = sum(all(row) for row in wall)
        columns = sum(all(wall[row][column] for row in range(5)) for column in range(5))
        placed = [tile_colour(state, board, row, column) for row in range(5) for column in range(5)
                  if wall[row][column]]
        colours = sum(placed.count(colour) == 5 for colour in range(5))
        bonus = ROW_BONUS * rows + COLUMN_BONUS * columns + COLOUR_BONUS * colours
        was = board["score"]
        board["score"] += bonus
        text = (f"seat {seat}: bonuses {rows} row{'s' * (rows != 1)} x {ROW_BONUS}, {columns} column"
                f"{'s' * (columns != 1)} x {COLUMN_BONUS}, {colours} colour{'s' * (colours != 1)} x {COLOUR_BONUS}"
                f" = +{bonus}; score {was} -> {board['score']}")
        yield Step("bonus", text, copy.deepcopy(state), seat, ("bonus",), names)


def check_record(record: Any) -> dict[str, Any]:
    """`record` when a replay can tell it, else InputError.

    `record` when it is a log record a replay can tell (its type, its fields and their types, a
    well-formed state and move), else InputError saying what is wrong: whatever a file holds, the story
    and the pictures then meet only the shapes they draw.
    """
    kind = record.get("type") if isinstance(record, dict) else None
    if kind not in tuple(RECORD_FIELDS):  # a tuple: `in` a dict would hash a list and fail
        raise InputError("not an Azul log record (a JSON object of type start, move or end)")
    for name, wanted in RECORD_FIELDS[kind].items():
        value = record.get(name)
        if not isinstance(value, wanted) or isinstance(value, bool):
            raise InputError(f"a {kind} record needs {name}, a JSON {_JSON_NAMES[wanted]}; got {excerpt(value)}")
        held = LISTS_OF.get(name)
        if held and not (isinstance(value, list)
                         and all(isinstance(item, held) and not isinstance(item, bool) for item in value)):
            raise InputError(f"{kind} record: {name} must hold only {_JSON_NAMES[held]}s; got {excerpt(value)}")
    if "state" in RECORD_FIELDS[kind]:
        check_state(record["state"])
    if kind == "move":
        check_move(record["move"])
    return record


def read_log(path: Path) -> list[dict[str, Any]]:
    """The records of a JSON-lines log (each checked by `check_record`).

    InputError naming the file and line when one is malformed, and the file when it cannot be read (see
    `files.read_text`).
    """
    records = []
    for number, line in enumerate(files.read_text(path, "azul log").splitlines(), 1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        record = files.parse_json(line, where)
        try:
            records.append(check_record(record))
        except InputError as error:
            raise InputError(f"{where}: {error}") from None
    if not records or records[0]["type"] != "start":
        raise InputError(f"{path}: an Azul log starts with a start record")
    return records


def story(records: Sequence[dict[str, Any]]) -> list[Step]:
    """Every step of the logged games, in order; InputError naming the record where the log breaks the rules."""
    steps: list[Step] = []
    state: dict[str, Any] | None = None
    names: tuple[str, ...] = ()
    number = 0
    for index, record in enumerate(records, 1):
        where = f"log record {index}"
        try:
            kind = record["type"]
            if kind == "start":
                state, names, number = record["state"], tuple(record["strategies"]), 0
                grey = " (grey wall variant)" if is_grey(state) else ""
                steps.append(Step("start", f"game seed {record['seed']}: {record['players']} players{grey} on "
                                           f"{record['engine']} ({', '.join(names)})", state, names=names))
                steps.append(_deal_step(state, names))
            elif kind == "move":
                if state is None:
                    raise InputError("a move before the game's start record")
                number += 1
                steps.extend(move_steps(state, record, number, names))
                state = record["state"]
            elif kind == "end":
                winners = ", ".join(f"seat {seat}" for seat in record["winners"])
                steps.append(Step("end", f"final scores {record['scores']}; won by {winners}",
                                  state or {}, names=names))
        except InputError as error:
            raise InputError(f"{where}: {error}") from None
        except (KeyError, TypeError, IndexError, ValueError) as error:
            raise InputError(f"{where}: lacks what a replay needs ({excerpt(error)})") from None
    return steps


def move_steps(before: dict[str, Any], record: dict[str, Any], number: int, names: tuple[str, ...]) -> list[Step]:
    """A move (and, when it ends the offer, the round's tiling and the next deal)."""
    seat, move, after = record["seat"], record["move"], record["state"]
    if seat != before["turn"]:
        raise InputError(f"seat {seat} moves but seat {before['turn']} was to move")
    name = names[seat] if seat < len(names) else ""
    if (before.get("phase") == TILING) != is_tiling(move):
        raise InputError(f"{describe_move(move)} is not a move of the " + ("tiling phase" if before.get("phase")
                                                                           else "offer"))
    if is_tiling(move):
        if move[1] != pending_line(before["boards"][seat]["lines"]):
            raise InputError(f"{describe_move(move)}: line {move[1] + 1} is not the one to tile")
        steps = list(tiling(before, after, names, Choice(number, seat, name, move[2])))
        return _tiled(steps, after, names)
    pre, placed = settle(before, move)
    text = move_text(number, seat, name, move, placed, pre["boards"][seat])
    round_over = after["over"] or after["round"] != before["round"] or after.get("phase") == TILING
    if not round_over:
        mismatch = _different(pre, after, ("factories", "centre", "lid", "marker", "boards"))
        if mismatch:
            raise InputError(f"the logged state after {describe_move(move)} differs in {mismatch}")
        return [Step("move", text, after, seat, ("source", move[0], move[1], move[2]), names)]
    pre["turn"] = NOBODY
    steps = [Step("move", text, pre, seat, ("source", move[0], move[1], move[2]), names)]
    steps.extend(tiling(pre, after, names))
    return _tiled(steps, after, names)


def _tiled(steps: list[Step], after: dict[str, Any], names: tuple[str, ...]) -> list[Step]:
    """`steps` of a tiling checked against the logged state after them, and the next deal when one follows."""
    mismatch = _different(steps[-1].state, after, ("boards",))
    if mismatch:
        raise InputError(f"the round's tiling told here differs from the logged state in {mismatch}")
    if not after["over"] and after.get("phase") != TILING:
        steps.append(_deal_step(after, names))
    return steps


def _deal_step(state: dict[str, Any], names: tuple[str, ...]) -> Step:
    """A round's start: the factories dealt, who holds the first-player marker and starts."""
    text = (f"round {state['round']}: {sum(map(sum, state['factories']))} tiles dealt to "
            f"{len(state['factories'])} factories; seat {state['turn']} starts")
    return Step("deal", text, state, names=names)
