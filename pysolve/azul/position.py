"""A position as one line of text (FEN-like), and a move as a short code: what agents outside pysolve read.

A position string holds everything a player may see of a game: the phase
and who acts, the round, the factories, the centre, the bag and the lid as
colour counts (never the order tiles will come out of the bag: the State
has none, each deal is drawn when it happens), and every board. It
round-trips a `tree.State` exactly, chance nodes included. Fields are
separated by single spaces, in this order (docs/azul-protocol.md shows
examples):

     1  players and wall     `2s`: 2..4 players, `s` standard (coloured) wall or `g` grey
     2  phase                `p0`: seat 0 takes tiles (the factory offer); `t1`: seat 1 chooses the column
                             of its grey wall's top full pattern line (the tiling phase); `d`: a tile of the
                             deal is drawn (chance); `o`: the opening seat is drawn (chance); `x`: the game is
                             over
     3  round                0 before the first deal
     4  moves                moves played so far
     5  starter              the seat that opened (or opens next) the round
     6  marker               `c` while the first-player marker lies in the centre, else the seat holding it
     7  factories            one per factory, `/`-separated: its tiles as letters (`BBYR`), `-` when empty
     8  centre               its tiles as letters, `-` when empty
     9  bag                  5 counts, `,`-separated, in colour order blue, yellow, red, black, white
    10  lid                  5 counts likewise
    11+ boards               one per seat, in seat order: `SCORE:WALL:LINES:FLOOR`
                             WALL: 5 rows `/`-separated, a tile as its colour's letter, a digit for that many
                             empty cells in a row (`B4/1B3/5/5/5`); LINES: the 5 pattern lines top to bottom,
                             `/`-separated, each its tiles as letters (`-/YY/-/-/KKK`); FLOOR: its items left
                             to right, `M` for the first-player marker, `-` when empty

Colours are the letters B Y R K W (blue, yellow, red, black, white). pysolve
writes tiles in that order; the reader takes them in any order.

A move is written as a code of three characters, as the terminal table
types it: the source (`c` the centre, `1`..`9` a factory), the colour's
letter, the destination (`1`..`5` a pattern line, `f` the floor): `1b4`
takes factory 1's blue tiles to line 4, `cyf` the centre's yellow ones to
the floor. In the tiling phase a move is a column choice, `w`, the line,
the column (`w24`: line 2's tile to column 4 of that row), as the terminal
types it too. Each phase has its one move form (`MOVE_FORMS`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from pysolve.azul.model import (
    CENTRE,
    COLOURS,
    FACTORIES,
    FLOOR,
    GREY,
    LETTERS,
    MARKER,
    STANDARD,
    TILES_PER_COLOUR,
    TILING,
    WALL,
    Move,
    check_state,
    wall_colour,
)
from pysolve.azul.tree import DEALING, MOVING, OPENING, PYTHON_ENGINE, State
from pysolve.errors import InputError
from pysolve.files import excerpt

WALLS = {"s": STANDARD, "g": GREY}
OFFER, TILE, OVER, DRAW, OPEN = "p", "t", "x", "d", "o"
# phase letter -> (the State's phase, whether a seat follows the letter)
PHASES: dict[str, tuple[str, bool]] = {OFFER: (MOVING, True), TILE: (MOVING, True), OVER: (MOVING, False),
                                       DRAW: (DEALING, False), OPEN: (OPENING, False)}
FIELDS = ("players and wall", "phase", "round", "moves", "starter", "marker", "factories", "centre", "bag", "lid")
MARKER_LETTER = "M"
NONE = "-"  # an empty factory, centre, pattern line or floor


# -- writing ---------------------------------------------------------------------------------
def _tiles(counts: Sequence[int]) -> str:
    """Colour counts as letters in colour order (`-` for none)."""
    return "".join(letter * count for letter, count in zip(LETTERS, counts)) or NONE


def _wall(board: dict[str, Any], grey: bool) -> str:
    """A wall as 5 rows of letters, runs of empty cells as digits."""
    rows = []
    for row in range(5):
        text, empty = "", 0
        for column in range(5):
            if not board["wall"][row][column]:
                empty += 1
                continue
            colour = board["colours"][row][column] if grey else wall_colour(row, column)
            text += (str(empty) if empty else "") + LETTERS[colour]
            empty = 0
        rows.append(text + (str(empty) if empty else ""))
    return "/".join(rows)


def _board(board: dict[str, Any], grey: bool) -> str:
    """One board's field: score, wall, pattern lines, floor."""
    lines = "/".join(LETTERS[colour] * count if count else NONE for colour, count in board["lines"])
    floor = "".join(MARKER_LETTER if item == MARKER else LETTERS[item] for item in board["floor"]) or NONE
    return f"{board['score']}:{_wall(board, grey)}:{lines}:{floor}"


def phase_of(state: dict[str, Any]) -> str:
    """The phase letter of a canonical state, which holds no chance node.

    `x` once over, else the phase whose decision the seat to move makes (`p` taking tiles, `t` choosing a
    grey wall's column).
    """
    if state["over"]:
        return OVER
    return TILE if state.get("phase") == TILING else OFFER


def write(state: dict[str, Any], phase: str | None = None) -> str:
    """The position string of a canonical state.

    `phase` is a letter of PHASES (default `phase_of(state)`; a chance node's letter comes from its
    `tree.State`, see `of_state`).
    """
    grey = state.get("variant", STANDARD) == GREY
    letter = phase or phase_of(state)
    acting = f"{letter}{state['turn']}" if PHASES[letter][1] else letter
    marker = "c" if state["marker"] == CENTRE else str(state["marker"])
    fields = [f"{state['players']}{'g' if grey else 's'}", acting, str(state["round"]), str(state["moves"]),
              str(state["starter"]), marker, "/".join(_tiles(factory) for factory in state["factories"]),
              _tiles(state["centre"]), ",".join(map(str, state["bag"])), ",".join(map(str, state["lid"]))]
    return " ".join(fields + [_board(board, grey) for board in state["boards"]])


def of_state(state: State) -> str:
    """The position string of a `tree.State` (chance nodes and the end included)."""
    if state.phase == MOVING:
        return write(state.to_json())
    return write(state.to_json(), next(letter for letter, (phase, _) in PHASES.items() if phase == state.phase))


# -- reading ---------------------------------------------------------------------------------
class _Reader:
    """Reads one position string field by field; every error names the field it is in."""

    def __init__(self, text: str) -> None:
        if not isinstance(text, str):
            raise InputError(f"position: expected a string, not {excerpt(text)}")
        self.fields = text.split(" ")

    def fail(self, index: int, problem: str) -> InputError:
        """The error for field `index` (0-based): its number, its name, the text, the problem."""
        name = FIELDS[index] if index < len(FIELDS) else f"board {index - len(FIELDS)}"
        return InputError(f"position field {index + 1} ({name}) {excerpt(self.fields[index], 60)}: {problem}")

    def number(self, index: int, text: str | None = None, upto: int = 10 ** 6) -> int:
        """A whole number 0..upto in field `index` (or in `text`, a part of it)."""
        text = self.fields[index] if text is None else text
        if not (text.isascii() and text.isdecimal() and len(text) <= 7 and int(text) <= upto):
            raise self.fail(index, f"{text!r} is not a whole number 0..{upto}")
        return int(text)

    def tiles(self, index: int, text: str, marker: bool = False) -> list[int]:
        """Letters as colour counts (or, with `marker`, as floor items in order, M the marker)."""
        if text == NONE:
            return []
        items = []
        for letter in text:
            if letter in LETTERS:
                items.append(LETTERS.index(letter))
            elif marker and letter == MARKER_LETTER:
                items.append(MARKER)
            else:
                known = LETTERS + (MARKER_LETTER if marker else "")
                raise self.fail(index, f"{letter!r} is not one of {' '.join(known)} (or {NONE} for none)")
        return items

    def counts(self, index: int, text: str) -> list[int]:
        """Letters (`BBY`, `-`) as 5 colour counts."""
        items = self.tiles(index, text)
        return [items.count(colour) for colour in range(5)]

    def listed(self, index: int) -> list[int]:
        """Field `index` as 5 comma-separated counts."""
        parts = self.fields[index].split(",")
        if len(parts) != 5:
            raise self.fail(index, "expected 5 counts separated by commas (blue, yellow, red, black, white)")
        return [self.number(index, part, 20) for part in parts]

    def seat(self, index: int, text: str, players: int) -> int:
        """A seat number 0..players-1."""
        if not (len(text) == 1 and text.isdecimal() and int(text) < players):
            raise self.fail(index, f"{text!r} is not a seat 0..{players - 1}")
        return int(text)

    def board(self, index: int, grey: bool) -> dict[str, Any]:
        """A board field as a canonical board."""
        parts = self.fields[index].split(":")
        if len(parts) != 4:
            raise self.fail(index, "expected SCORE:WALL:LINES:FLOOR")
        score, wall_text, lines_text, floor_text = parts
        wall, colours = self.wall(index, wall_text, grey)
        lines = lines_text.split("/")
        if len(lines) != 5:
            raise self.fail(index, "expected 5 pattern lines separated by /")
        board: dict[str, Any] = {"score": self.number(index, score), "wall": wall, "lines": [], "floor": []}
        for row, line in enumerate(lines):
            items = self.tiles(index, line)
            if len(set(items)) > 1 or len(items) > row + 1:
                raise self.fail(index, f"pattern line {row + 1} {line!r} is not up to {row + 1} tiles of one colour")
            board["lines"].append([items[0], len(items)] if items else [-1, 0])
        board["floor"] = self.tiles(index, floor_text, marker=True)
        if grey:
            board["colours"] = colours
        return board

    def wall(self, index: int, text: str, grey: bool) -> tuple[list[list[int]], list[list[int]]]:
        """A wall field part as (cells 0/1, colours -1..4); on a standard wall a letter must be its cell's."""
        rows = text.split("/")
        if len(rows) != 5:
            raise self.fail(index, "expected 5 wall rows separated by /")
        wall, colours = [], []
        for row, cells in enumerate(rows):
            placed: list[int] = []
            for token in re.findall(r"[1-5]|.", cells):
                placed += [-1] * int(token) if token.isdecimal() else self.tiles(index, token)
            if len(placed) != 5:
                raise self.fail(index, f"wall row {row + 1} {cells!r} does not hold 5 cells")
            if not grey and any(colour not in (-1, wall_colour(row, column)) for column, colour in enumerate(placed)):
                raise self.fail(index, f"wall row {row + 1} {cells!r}: a tile off its colour's cell of the "
                                       "standard wall")
            wall.append([int(colour >= 0) for colour in placed])
            colours.append(placed)
        return wall, colours


def read(text: str) -> tuple[dict[str, Any], str]:
    """(the canonical state, the phase letter) of a position string; InputError naming the field at fault."""
    reader = _Reader(text)
    fields = reader.fields
    head = fields[0]
    if not (len(head) == 2 and head[0] in "234" and head[1] in WALLS):
        raise InputError(f"position field 1 (players and wall) {excerpt(head, 60)}: expected 2..4 and s or g, "
                         "as in 2s")
    players, grey = int(head[0]), head[1] == "g"
    if len(fields) != len(FIELDS) + players:
        raise InputError(f"position: expected {len(FIELDS) + players} fields separated by single spaces for "
                         f"{players} players ({len(FIELDS)} and one board a seat), got {len(fields)}")
    letter, seat_text = fields[1][:1], fields[1][1:]
    if letter not in PHASES or bool(seat_text) != PHASES[letter][1]:
        raise reader.fail(1, "expected p or t and a seat (p0, t1), or d, o or x")
    if letter == TILE and not grey:
        raise reader.fail(1, "t (a column to choose) is a phase of the grey wall only")
    starter = reader.seat(4, fields[4], players)
    factories = fields[6].split("/")
    if len(factories) != FACTORIES[players]:
        raise reader.fail(6, f"expected {FACTORIES[players]} factories separated by / for {players} players")
    state: dict[str, Any] = {
        "players": players, "round": reader.number(2), "moves": reader.number(3),
        "turn": reader.seat(1, seat_text, players) if seat_text else (-1 if letter == OVER else starter),
        "starter": starter, "marker": CENTRE if fields[5] == "c" else reader.seat(5, fields[5], players),
        "factories": [reader.counts(6, factory) for factory in factories], "centre": reader.counts(7, fields[7]),
        "bag": reader.listed(8), "lid": reader.listed(9),
        "boards": [reader.board(len(FIELDS) + seat, grey) for seat in range(players)], "over": letter == OVER}
    if grey:
        state["variant"] = GREY
    if letter == TILE:
        state["phase"] = TILING
    try:
        check_state(state)
    except InputError as error:
        raise InputError(f"position: {error}") from None
    counts = colour_counts(state)
    if any(count != TILES_PER_COLOUR for count in counts):
        held = ", ".join(f"{count} {colour}" for count, colour in zip(counts, COLOURS))
        raise InputError(f"position: the tiles are {held}; a game holds {TILES_PER_COLOUR} of each colour")
    return state, letter


def colour_counts(state: dict[str, Any]) -> list[int]:
    """The tiles of each colour a canonical state holds, wherever they lie (the marker is no tile)."""
    counts = [sum(held) for held in zip(state["bag"], state["lid"], state["centre"], *state["factories"])]
    grey = state.get("variant", STANDARD) == GREY
    for board in state["boards"]:
        for colour, count in board["lines"]:
            if count:
                counts[colour] += count
        for row, cells in enumerate(board["wall"]):
            for column, filled in enumerate(cells):
                if filled:
                    counts[board["colours"][row][column] if grey else wall_colour(row, column)] += 1
        for item in board["floor"]:
            if item != MARKER:
                counts[item] += 1
    return counts


def to_state(text: str) -> State:
    """The `tree.State` of a position string (on the Python rules)."""
    state, letter = read(text)
    return State(PYTHON_ENGINE, PYTHON_ENGINE.load(state), PHASES[letter][0])


# -- moves as codes --------------------------------------------------------------------------
def offer_code(move: Move) -> str:
    """An offer move's code: source (c or factory number), colour letter, destination (f or line)."""
    source, colour, destination = move
    return (("c" if source == CENTRE else str(source + 1)) + LETTERS[colour].lower()
            + ("f" if destination == FLOOR else str(destination)))


def offer_move(code: str) -> Move:
    """The offer move of a code (`1b4`, `cyf`, any case); InputError for a malformed one."""
    found = re.fullmatch(r"([c1-9])([byrkw])([f1-5])", code.lower()) if isinstance(code, str) else None
    if not found:
        raise InputError(f"move {excerpt(code, 40)}: expected SOURCE COLOUR DESTINATION as in 1b4 or cyf "
                         "(source c or 1-9, colour b y r k w, destination 1-5 or f)")
    source, colour, destination = found.groups()
    return (CENTRE if source == "c" else int(source) - 1, LETTERS.lower().index(colour),
            FLOOR if destination == "f" else int(destination))


def column_code(move: Move) -> str:
    """A column choice's code: `w`, the line, the column (both from 1)."""
    _, row, column = move
    return f"w{row + 1}{column + 1}"


def column_move(code: str) -> Move:
    """The column choice of a code (`w24`, any case); InputError for a malformed one."""
    found = re.fullmatch(r"w([1-5])([1-5])", code.lower()) if isinstance(code, str) else None
    if not found:
        raise InputError(f"move {excerpt(code, 40)}: expected w LINE COLUMN as in w24 (line and column 1-5)")
    return (WALL, int(found[1]) - 1, int(found[2]) - 1)


# phase letter -> (move -> code, code -> move): the one move form of each phase that has decisions
MOVE_FORMS: dict[str, tuple[Callable[[Move], str], Callable[[str], Move]]] = {
    OFFER: (offer_code, offer_move), TILE: (column_code, column_move)}


def move_code(move: Move, phase: str = OFFER) -> str:
    """A move of `phase` as its code."""
    return MOVE_FORMS[phase][0](move)


def parse_move(code: str, phase: str = OFFER) -> Move:
    """The move a code names in `phase`; InputError when the code is malformed (legality is the rules')."""
    if phase not in MOVE_FORMS:
        raise InputError(f"move {excerpt(code, 40)}: nobody moves in phase {phase!r}")
    return MOVE_FORMS[phase][1](code)
