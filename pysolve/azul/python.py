"""The Python back end: the reference engine, the rules on plain data, fast.

A `Table` holds one game as flat lists of counts; `PythonEngine` applies the
rules to it, scoring with `scoring`. The miniKanren engine subclasses
`PythonEngine` and replaces the rule methods (`legal_moves`, `place`,
`tile_score`, `floor_penalty`, `end_bonus`, `grey_columns`) with its
relations, keeping this bookkeeping. On the grey wall the walls are tiled
in a phase of decisions (`table.tiling`): seat by seat, top line first, the
owner of each full line whose row has a free cell of a column without its
colour chooses that column (the move (WALL, row, column)). `solve` answers the puzzle's question:
one seeded game played to its end (`seeded.played`).
"""

from __future__ import annotations

from itertools import chain
from typing import Any

from pysolve.answers import Found
from pysolve.azul.model import (
    CENTRE,
    FACTORIES,
    FLOOR_SLOTS,
    GREY,
    MARKER,
    STANDARD,
    TILES_PER_COLOUR,
    TILES_PER_FACTORY,
    TILING,
    WALL,
    Move,
    Question,
    RandomStream,
    can_end,
    check_players,
    check_state,
    check_variant,
    complete_rows,
    grey_columns,
    pending_line,
    row_completable,
    standard_colours,
    winners_of,
)
from pysolve.azul.scoring import end_bonus, floor_penalty, tile_score
from pysolve.azul.seeded import played
from pysolve.budget import Budget
from pysolve.errors import InputError


def solve(question: Question, budget: Budget) -> Found:
    """The question's seeded game played to its end on the Python rules."""
    return played(question, PythonEngine(), budget)


class Table:
    """One game's state as mutable lists (the handle of the Python rules)."""

    __slots__ = (
        "bag",
        "centre",
        "colours",
        "factories",
        "floors",
        "lid",
        "line_colours",
        "line_counts",
        "marker",
        "moves",
        "offer",
        "over",
        "players",
        "round",
        "scores",
        "starter",
        "tiling",
        "turn",
        "variant",
        "walls",
    )

    def __init__(self, players: int, variant: str = STANDARD) -> None:
        self.players = players
        self.variant = variant
        self.round = self.moves = 0
        self.turn = self.starter = 0
        self.marker = CENTRE
        self.factories = [[0] * 5 for _ in range(FACTORIES[players])]
        self.centre = [0] * 5
        self.bag = [TILES_PER_COLOUR] * 5
        self.lid = [0] * 5
        self.scores = [0] * players
        self.walls = [[[0] * 5 for _ in range(5)] for _ in range(players)]
        # the colour on each cell of a grey wall (-1: no tile); a coloured wall keeps none, its pattern says
        self.colours = [[[-1] * 5 for _ in range(5)] for _ in range(players)] if variant == GREY else []
        self.line_colours = [[-1] * 5 for _ in range(players)]
        self.line_counts = [[0] * 5 for _ in range(players)]
        self.floors: list[list[int]] = [[] for _ in range(players)]
        self.offer = 0  # tiles still in factories and centre
        self.over = False
        self.tiling = False  # a grey wall's tiling phase: seat `turn` chooses the column of its top full line

    def copy(self) -> Table:
        """An independent copy of the game."""
        other = Table.__new__(Table)
        for key in ("players", "variant", "round", "moves", "turn", "starter", "marker", "offer", "over", "tiling"):
            setattr(other, key, getattr(self, key))
        other.factories = [factory[:] for factory in self.factories]
        other.centre, other.bag, other.lid = self.centre[:], self.bag[:], self.lid[:]
        other.scores = self.scores[:]
        other.walls = [[row[:] for row in wall] for wall in self.walls]
        other.colours = [[row[:] for row in colours] for colours in self.colours]
        other.line_colours = [colours[:] for colours in self.line_colours]
        other.line_counts = [counts[:] for counts in self.line_counts]
        other.floors = [floor[:] for floor in self.floors]
        return other


class PythonEngine:
    """The rules of Azul on `Table`s."""

    name = "python"

    # -- the game's life -------------------------------------------------
    def new_game(self, players: int, starter: int, stream: RandomStream, variant: str = STANDARD) -> Table:
        """A fresh game of `variant` whose first round is dealt and started by seat `starter`."""
        table = Table(check_players(players), check_variant(variant))
        table.turn = table.starter = starter
        self._next_round(table, stream)
        return table

    def legal_moves(self, table: Table) -> list[Move]:
        """The legal moves of the player to move, in canonical order."""
        if table.over:
            return []
        if table.tiling:
            return self.tiling_moves(table)
        allowed = self.destinations(table, table.turn)
        moves: list[Move] = []
        for source, counts in self._sources(table):
            for colour in range(5):
                if counts[colour]:
                    moves += [(source, colour, line) for line in allowed[colour]]
        return moves

    def play(self, table: Table, move: Move, stream: RandomStream) -> None:
        """Apply a legal move; at the end of the offer tile the walls, score, then deal from `stream` or end."""
        if self.take_turn(table, move):
            self._next_round(table, stream)

    def take_turn(self, table: Table, move: Move) -> bool:
        """Apply a legal move and pass the turn.

        At the end of the offer tile the walls (on a grey wall up to the next column to choose): True if a
        deal follows.
        """
        if table.tiling:
            self.place_tile(table, table.turn, move[1], move[2])
            return self.tile_on(table)
        self.apply(table, move)
        if table.offer:
            table.turn = (table.turn + 1) % table.players
            return False
        return self.tile_walls(table)

    def tiling_moves(self, table: Table) -> list[Move]:
        """The columns the seat tiling may give the tile of its top full line: (WALL, row, column) each."""
        seat = table.turn
        row = pending_line(list(zip(table.line_colours[seat], table.line_counts[seat])))
        colour = table.line_colours[seat][row]
        columns = self.grey_columns(table.walls[seat], table.colours[seat], row, colour)
        return [(WALL, row, column) for column in columns]

    def apply(self, table: Table, move: Move) -> None:
        """Take and place the tiles of a legal move, nothing more (the turn does not pass)."""
        source, colour, destination = move
        taken = self._take(table, table.turn, source, colour)
        self.place(table, table.turn, colour, taken, destination)
        table.moves += 1
        table.offer -= taken

    def export(self, table: Table) -> dict[str, Any]:
        """The canonical, JSON-able snapshot of a game."""
        state: dict[str, Any] = {
            "players": table.players, "round": table.round, "moves": table.moves,
            "turn": table.turn, "starter": table.starter, "marker": table.marker,
            "factories": [list(factory) for factory in table.factories], "centre": list(table.centre),
            "bag": list(table.bag), "lid": list(table.lid),
            "boards": [{"score": table.scores[seat], "wall": [list(row) for row in table.walls[seat]],
                        "lines": [[c, n] for c, n in zip(table.line_colours[seat], table.line_counts[seat])],
                        "floor": list(table.floors[seat])} for seat in range(table.players)],
            "over": table.over,
        }
        if table.variant == GREY:
            state["variant"] = GREY
            for board, colours in zip(state["boards"], table.colours):
                board["colours"] = [list(row) for row in colours]
        if table.tiling:
            state["phase"] = TILING
        return state

    def load(self, state: dict[str, Any]) -> Table:
        """A game continued from a canonical snapshot (checked first)."""
        check_state(state)
        table = Table(state["players"], state.get("variant", STANDARD))
        for key in ("round", "moves", "turn", "starter", "marker", "over"):
            setattr(table, key, state[key])
        table.factories = [list(factory) for factory in state["factories"]]
        table.centre, table.bag, table.lid = list(state["centre"]), list(state["bag"]), list(state["lid"])
        boards = state["boards"]
        table.scores = [board["score"] for board in boards]
        table.walls = [[list(row) for row in board["wall"]] for board in boards]
        table.line_colours = [[c for c, _ in board["lines"]] for board in boards]
        table.line_counts = [[n for _, n in board["lines"]] for board in boards]
        table.floors = [list(board["floor"]) for board in boards]
        if table.variant == GREY:
            table.colours = [[list(row) for row in board["colours"]] for board in boards]
        table.tiling = state.get("phase") == TILING
        table.offer = sum(table.centre) + sum(sum(factory) for factory in table.factories)
        return table

    def turn(self, table: Table) -> int:
        """The seat to move (-1 once over)."""
        return table.turn

    def winners(self, table: Table) -> list[int]:
        """Seats that win (or lead): highest score, then more complete rows, else shared."""
        return winners_of(table.scores, [complete_rows(wall) for wall in table.walls])

    def close(self, table: Table) -> None:
        """Forget a game (nothing to free in Python)."""

    # -- the rules the miniKanren back end replaces -------------------------
    @staticmethod
    def destinations(table: Table, seat: int) -> list[list[int]]:
        """Per colour, where it may go for `seat`.

        The floor (0), then every line that accepts it (not full, empty or of that colour, its wall row
        without the colour).
        """
        wall, colours, counts = table.walls[seat], table.line_colours[seat], table.line_counts[seat]
        grey = table.colours[seat] if table.variant == GREY else None
        allowed: list[list[int]] = [[0], [0], [0], [0], [0]]
        for index in range(5):
            count = counts[index]
            if count > index:
                continue  # full
            if count:  # partly filled: its own colour only (a loaded state was checked: the row lacks it)
                allowed[colours[index]].append(index + 1)
                continue
            row = grey[index] if grey else wall[index]
            for colour in range(5):
                if (colour not in row) if grey else not row[(colour + index) % 5]:
                    allowed[colour].append(index + 1)
        return allowed

    def place(self, table: Table, seat: int, colour: int, taken: int, destination: int) -> None:
        """Put `taken` tiles of `colour` on a line (excess to the floor) or all on the floor."""
        excess = taken
        if destination:
            index = destination - 1
            room = destination - table.line_counts[seat][index]
            fits = taken if taken < room else room
            table.line_colours[seat][index] = colour
            table.line_counts[seat][index] += fits
            excess = taken - fits
        self._to_floor(table, seat, colour, excess)

    def tile_score(self, wall: list[list[int]], row: int, column: int) -> int:
        """Points for a tile just placed on a wall."""
        return tile_score(wall, row, column)

    def floor_penalty(self, items: int) -> int:
        """Points lost for a floor holding `items`."""
        return floor_penalty(items)

    def end_bonus(self, wall: list[list[int]], colours: list[list[int]] | None = None) -> int:
        """End-of-game bonus of one wall (with `colours`, a grey one)."""
        return end_bonus(wall, colours)

    def row_completable(self, wall: list[list[int]], colours: list[list[int]], row: int) -> bool:
        """A grey wall's `row` can still be completed (its missing colours fit its free cells' columns)."""
        return row_completable(wall, colours, row)

    def grey_columns(self, wall: list[list[int]], colours: list[list[int]], row: int, colour: int) -> list[int]:
        """The columns of a grey wall's `row` that may take `colour`: free cells whose column lacks it."""
        return grey_columns(wall, colours, row, colour)

    # -- bookkeeping -----------------------------------------------------
    @staticmethod
    def _sources(table: Table) -> list[tuple[int, list[int]]]:
        """(source, colour counts) for the centre and each factory, in canonical order."""
        return [(CENTRE, table.centre)] + list(enumerate(table.factories))

    @staticmethod
    def _take(table: Table, seat: int, source: int, colour: int) -> int:
        """Take all tiles of `colour` from a source; the rest of a factory goes to the centre."""
        if source == CENTRE:
            taken = table.centre[colour]
            table.centre[colour] = 0
            if table.marker == CENTRE:
                table.marker = seat
                if len(table.floors[seat]) < FLOOR_SLOTS:
                    table.floors[seat].append(MARKER)
        else:
            factory = table.factories[source]
            taken = factory[colour]
            factory[colour] = 0
            centre = table.centre
            for other in range(5):
                centre[other] += factory[other]
                factory[other] = 0
        if not taken:
            raise InputError(f"illegal move: source {source} holds no tile of colour {colour}")
        return taken

    @staticmethod
    def _to_floor(table: Table, seat: int, colour: int, count: int) -> None:
        """Put tiles on a floor, left to right; those beyond its 7 slots go to the lid."""
        floor = table.floors[seat]
        fits = min(count, FLOOR_SLOTS - len(floor))
        floor.extend([colour] * fits)
        table.lid[colour] += count - fits

    def tile_walls(self, table: Table) -> bool:
        """The offer is over: tile the walls from the first seat on (`tile_on`)."""
        table.turn = 0
        return self.tile_on(table)

    def tile_on(self, table: Table) -> bool:
        """Go on tiling from seat `turn`: each seat's full lines, then its floor.

        Stop at a grey wall's line with a column to choose (the tiling phase, that seat to choose); past the
        last seat pass the start on and end the game or not. True when a deal follows.
        """
        for seat in range(table.turn, table.players):
            if not self._tile_wall(table, seat):
                table.turn, table.tiling = seat, True
                return False
        table.tiling = False
        if table.marker != CENTRE:
            table.starter = table.marker
        table.marker = CENTRE
        table.turn = table.starter
        if any(map(all, chain.from_iterable(table.walls))) or not (any(table.bag) or any(table.lid)) \
                or not self._open(table):
            self._finish(table)
            return False
        return True

    def _open(self, table: Table) -> bool:
        """Some row of some wall may still be completed (`can_end`: the game may still end by the rules)."""
        free = [in_bag + in_lid for in_bag, in_lid in zip(table.bag, table.lid)]
        grey = table.variant == GREY
        if not grey and min(free) > 0:
            # a tiling leaves every row 0's line empty (one tile fills it): with every colour free, row 0 of each
            # wall may still be completed, `can_end`'s first test, passed at once in all but a game's last rounds
            return True
        lines = [[[colour, count] for colour, count in zip(colours, counts)]
                 for colours, counts in zip(table.line_colours, table.line_counts)]
        if not grey:
            return can_end([standard_colours(wall) for wall in table.walls], lines, free, None)
        return can_end(table.colours, lines, free,
                       lambda seat, row: self.row_completable(table.walls[seat], table.colours[seat], row))

    def _tile_wall(self, table: Table, seat: int) -> bool:
        """Move full lines to the wall top to bottom, scoring each tile, then the floor penalty and the clamp at 0;
        False, the floor left unpaid, at a grey wall's line whose owner chooses the column."""
        colours, counts = table.line_colours[seat], table.line_counts[seat]
        grey = table.colours[seat] if table.variant == GREY else None
        for index in range(5):
            if counts[index] != index + 1:
                continue
            colour = colours[index]
            if not grey:
                self.place_tile(table, seat, index, (colour + index) % 5)
            elif self.grey_columns(table.walls[seat], grey, index, colour):
                return False
            else:  # a grey wall with no room for the colour in this row: the line falls
                colours[index], counts[index] = -1, 0
                self._to_floor(table, seat, colour, index + 1)
        floor = table.floors[seat]
        score = table.scores[seat] - self.floor_penalty(len(floor))
        for item in floor:
            if item != MARKER:
                table.lid[item] += 1
        floor.clear()
        table.scores[seat] = max(score, 0)
        return True

    def place_tile(self, table: Table, seat: int, row: int, column: int) -> None:
        """The tile of full line `row` to wall cell (row, column), scored; the line's other tiles to the lid."""
        colour = table.line_colours[seat][row]
        table.line_colours[seat][row], table.line_counts[seat][row] = -1, 0
        wall = table.walls[seat]
        wall[row][column] = 1
        if table.variant == GREY:
            table.colours[seat][row][column] = colour
        table.scores[seat] += self.tile_score(wall, row, column)
        table.lid[colour] += row

    @staticmethod
    def _next_round(table: Table, stream: RandomStream) -> int:
        """Fill the empty factories, each tile drawn by the stream's next number; the number of tiles dealt.

        The deal of `dealing`, `deal_bag`, `draw` and `deal` one tile at a time (the same tiles from the same
        numbers), in one loop: as many numbers as tiles, each drawn from the bag, the lid poured in once the bag
        is empty.
        """
        bag, lid, factories = table.bag, table.lid, table.factories
        offer = table.offer
        wanted = min(len(factories) * TILES_PER_FACTORY - offer, sum(bag) + sum(lid))
        if wanted <= 0:
            return offer
        if not offer:
            table.round += 1  # the round's first tile: factories and centre were empty
        in_bag = sum(bag)
        numbers = stream.peek(wanted)
        stream.advance(wanted)
        for number in numbers:
            if not in_bag:
                bag[:], lid[:] = lid, [0] * 5
                in_bag = sum(bag)
            index, colour = number % in_bag, 0
            while index >= bag[colour]:
                index -= bag[colour]
                colour += 1
            bag[colour] -= 1
            in_bag -= 1
            factories[offer // TILES_PER_FACTORY][colour] += 1
            offer += 1
        table.offer = offer
        return offer

    # -- a deal, one tile at a time (the chance nodes of `tree.State`) ----
    @staticmethod
    def dealing(table: Table) -> bool:
        """A deal goes on: a factory has room and the bag or the lid holds a tile (only the deal fills factories)."""
        return table.offer < len(table.factories) * TILES_PER_FACTORY and (any(table.bag) or any(table.lid))

    @staticmethod
    def deal_bag(table: Table) -> list[int]:
        """The colour counts the next tile comes from: the bag, or the lid once the bag is empty."""
        return table.bag if any(table.bag) else table.lid

    @staticmethod
    def deal(table: Table, colour: int) -> None:
        """Deal a tile of `colour` (one the deal bag holds) to the next factory; an empty bag first takes the lid."""
        bag = table.bag
        if not any(bag):
            bag[:], table.lid[:] = table.lid, [0] * 5
        bag[colour] -= 1
        table.factories[table.offer // TILES_PER_FACTORY][colour] += 1
        if not table.offer:
            table.round += 1  # the round's first tile: factories and centre were empty
        table.offer += 1

    def _finish(self, table: Table) -> None:
        """End the game: add the bonuses."""
        for seat in range(table.players):
            colours = table.colours[seat] if table.variant == GREY else None
            table.scores[seat] += self.end_bonus(table.walls[seat], colours)
        table.over = True
        table.turn = -1


def draw(bag: list[int], number: int) -> int:
    """The colour a random `number` draws from a bag of colour counts (tile number mod size)."""
    index = number % sum(bag)
    for colour, count in enumerate(bag):
        if index < count:
            return colour
        index -= count
    raise AssertionError("unreachable: index below the bag size")
