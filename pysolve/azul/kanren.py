"""The miniKanren back end: Azul's core rules as relations, driving the Python bookkeeping.

Relations (goals over logic variables, built with pysolve.minikanren):
`legal_moveo` (a legal move of a player), `destinationo` (where a colour may
go), `placeo` (tiles onto a pattern line, the excess onto the floor and past
it into the lid), `flooro`, `runo` and `tile_scoreo` (wall scoring),
`floor_penaltyo` and `end_bonuso`; on the grey wall of the variant,
`grey_cello` (the cells a full line's tile may take: the columns its owner
chooses from in the tiling phase) and `completableo` (a row that can still
be completed; when none is left on any wall, the game ends). `KanrenEngine` is the Python engine with
its rule methods answered by running these relations: slow, and checked
against the other back ends move by move. `solve` answers the puzzle's
question: one seeded game played to its end (`seeded.played`).
"""

from __future__ import annotations

import itertools
from typing import Any

from pysolve import minikanren as mk
from pysolve.answers import Found
from pysolve.azul.model import (
    CENTRE,
    COLOUR_BONUS,
    COLUMN_BONUS,
    FLOOR_SLOTS,
    FLOOR_TOTALS,
    GREY,
    ROW_BONUS,
    Move,
    Question,
    standard_colours,
)
from pysolve.azul.python import PythonEngine, Table
from pysolve.azul.seeded import played
from pysolve.budget import Budget
from pysolve.errors import SearchLimitExceeded

NODES = 200_000  # node budget of one relation query
FULL = (1, 1, 1, 1, 1)
Goal = mk.Goal


def solve(question: Question, budget: Budget) -> Found:
    """The question's seeded game played to its end on the rules the relations answer."""
    return played(question, KanrenEngine(), budget)


def accepts(line: tuple[int, int], row_colours: tuple[int, ...], depth: int, colour: int) -> bool:
    """A pattern line of `depth` may take `colour`.

    Not full, empty or that colour, wall row free of it (`row_colours`: the colours of the row's
    tiles, -1 where there is none).
    """
    line_colour, count = line
    return count < depth and (count == 0 or line_colour == colour) and colour not in row_colours


def destinationo(lines: tuple, colours: tuple, colour: Any, destination: Any) -> Goal:
    """`destination` is where `colour` may go.

    The floor (0) or a line that accepts it (`colours`: the wall's colours by cell).
    """
    return mk.disj(
        mk.eq(destination, 0),
        mk.disj_over(range(1, 6), lambda depth: mk.conj(
            mk.where(accepts, lines[depth - 1], colours[depth - 1], depth, colour),
            mk.eq(destination, depth))))


def grey_cello(wall: tuple, colours: tuple, row: int, colour: int, column: Any) -> Goal:
    """`column` of a grey wall's `row` may take `colour`: a free cell whose column holds no tile of it."""
    return mk.disj_over(range(5), lambda cell: mk.conj(
        mk.where(lambda: wall[row][cell] == 0 and all(colours[other][cell] != colour for other in range(5))),
        mk.eq(column, cell)))


def completableo(wall: tuple, colours: tuple, row: int) -> Goal:
    """A grey wall's `row` can still be completed.

    Some order of the colours it lacks fills its free cells, none in a column already holding it (succeeds
    once per such order).
    """
    free = [column for column in range(5) if not wall[row][column]]
    missing = [colour for colour in range(5) if colour not in colours[row]]
    def fits(order: tuple[int, ...]) -> bool:
        return all(all(colours[other][column] != colour for other in range(5)) for column, colour in zip(free, order))

    return mk.disj_over(list(itertools.permutations(missing)), lambda order: mk.where(fits, order))


def legal_moveo(sources: tuple, lines: tuple, colours: tuple, move: Any, budget: mk.Budget) -> Goal:
    """`move` = (source, colour, destination) is legal.

    The source holds the colour, the destination takes it (`colours`: the mover's wall, the colour of each
    cell, -1 where there is no tile).
    """
    return mk.disj_over(sources, lambda source: mk.disj_over(range(5), lambda colour: mk.conj(
        budget.tick(),
        mk.where(lambda counts: counts[colour] > 0, source[1]),
        _move_from(source[0], colour, lines, colours, move))))


def _move_from(source: int, colour: int, lines: tuple, colours: tuple, move: Any) -> Goal:
    """`move` takes `colour` from `source` to one of its destinations."""
    destination = mk.var()
    return mk.conj(destinationo(lines, colours, colour, destination), mk.eq(move, (source, colour, destination)))


def flooro(floor: tuple, item: int, count: Any, new_floor: Any, to_lid: Any) -> Goal:
    """`count` copies of `item` fall on `floor` left to right; those past its slots go to the lid."""
    return mk.disj(
        mk.conj(mk.eq(count, 0), mk.eq(new_floor, floor), mk.eq(to_lid, 0)),
        mk.conj(mk.where(lambda n: n > 0 and len(floor) >= FLOOR_SLOTS, count),
                mk.eq(new_floor, floor), mk.eq(to_lid, count)),
        mk.conj(mk.where(lambda n: n > 0 and len(floor) < FLOOR_SLOTS, count),
                _one_more(floor, item, count, new_floor, to_lid)))


def _one_more(floor: tuple, item: int, count: Any, new_floor: Any, to_lid: Any) -> Goal:
    """One item onto the floor, then the rest (recursively)."""
    rest = mk.var()
    return mk.conj(mk.project(lambda n: n - 1, rest, count),
                   mk.lazy(flooro, floor + (item,), item, rest, new_floor, to_lid))


def placeo(line: tuple[int, int], floor: tuple, colour: int, taken: int, destination: int,
           new_line: Any, new_floor: Any, to_lid: Any) -> Goal:
    """`taken` tiles of `colour` onto line `destination` (excess to the floor) or, for 0, onto the floor."""
    if destination == 0:
        return mk.conj(mk.eq(new_line, line), flooro(floor, colour, taken, new_floor, to_lid))
    fits, count = mk.var(), mk.var()
    return mk.conj(
        mk.project(lambda: min(taken, destination - line[1]), fits),
        mk.project(lambda n: line[1] + n, count, fits),
        mk.eq(new_line, (colour, count)),
        mk.lazy(_excess, floor, colour, taken, fits, new_floor, to_lid))


def _excess(floor: tuple, colour: int, taken: int, fits: Any, new_floor: Any, to_lid: Any) -> Goal:
    """The tiles that did not fit on the line go to the floor."""
    excess = mk.var()
    return mk.conj(mk.project(lambda n: taken - n, excess, fits), flooro(floor, colour, excess, new_floor, to_lid))


def filled(wall: tuple, row: int, column: int) -> bool:
    """Wall cell (row, column) is on the wall and holds a tile."""
    return 0 <= row < 5 and 0 <= column < 5 and wall[row][column] == 1


def runo(wall: tuple, row: int, column: int, step: tuple[int, int], length: Any) -> Goal:
    """`length` filled cells follow (row, column) in direction `step`, up to the first gap."""
    next_row, next_column = row + step[0], column + step[1]
    shorter = mk.var()
    return mk.disj(
        mk.conj(mk.where(lambda: not filled(wall, next_row, next_column)), mk.eq(length, 0)),
        mk.conj(mk.where(lambda: filled(wall, next_row, next_column)),
                mk.lazy(runo, wall, next_row, next_column, step, shorter),
                mk.project(lambda n: n + 1, length, shorter)))


def tile_scoreo(wall: tuple, row: int, column: int, score: Any) -> Goal:
    """`score` is what the tile just placed at (row, column) earns: 1 alone, else runs longer than 1."""
    left, right, up, down = mk.var(), mk.var(), mk.var(), mk.var()
    return mk.conj(
        runo(wall, row, column, (0, -1), left), runo(wall, row, column, (0, 1), right),
        runo(wall, row, column, (-1, 0), up), runo(wall, row, column, (1, 0), down),
        mk.project(_points, score, left, right, up, down))


def _points(left: int, right: int, up: int, down: int) -> int:
    """Score from the four run lengths around a new tile."""
    horizontal, vertical = 1 + left + right, 1 + up + down
    if horizontal == 1 and vertical == 1:
        return 1
    return (horizontal if horizontal > 1 else 0) + (vertical if vertical > 1 else 0)


def floor_penaltyo(items: Any, points: Any) -> Goal:
    """`points` lost for a floor of `items` (runs both ways over 0..7)."""
    return mk.disj_over(range(FLOOR_SLOTS + 1), lambda count: mk.conj(
        mk.eq(items, count), mk.eq(points, FLOOR_TOTALS[count])))


def counto(lines: tuple, count: Any) -> Goal:
    """`count` of the 5-cell `lines` are complete (unify with a full line)."""
    if not lines:
        return mk.eq(count, 0)
    rest = mk.var()
    return mk.conj(
        mk.lazy(counto, lines[1:], rest),
        mk.disj(mk.conj(mk.eq(lines[0], FULL), mk.project(lambda n: n + 1, count, rest)),
                mk.conj(mk.where(lambda: tuple(lines[0]) != FULL), mk.eq(count, rest))))


def end_bonuso(wall: tuple, bonus: Any, colours: tuple | None = None) -> Goal:
    """`bonus` is the end-of-game bonus of `wall`.

    2 a complete row, 7 a column, 10 a colour (with `colours`, a grey wall's colours by cell, a colour is
    complete when all its five tiles are anywhere on the wall).
    """
    rows, columns, complete = mk.var(), mk.var(), mk.var()
    by_column = tuple(tuple(wall[row][column] for row in range(5)) for column in range(5))
    if colours is None:
        by_colour = tuple(tuple(wall[row][(colour + row) % 5] for row in range(5)) for colour in range(5))
    else:
        by_colour = tuple(tuple(int(colour in colours[row]) for row in range(5)) for colour in range(5))
    return mk.conj(
        counto(wall, rows), counto(by_column, columns), counto(by_colour, complete),
        mk.project(lambda r, c, k: ROW_BONUS * r + COLUMN_BONUS * c + COLOUR_BONUS * k, bonus, rows, columns,
                   complete))


def _frozen(wall: list[list[int]]) -> tuple:
    """A wall as nested tuples (terms the relations unify)."""
    return tuple(tuple(row) for row in wall)


def _tile_score(wall: tuple, row: int, column: int) -> int:
    """tile_scoreo's answer for the tile at (row, column)."""
    score = mk.var()
    return _one(tile_scoreo(wall, row, column, score), score, "tile_scoreo")


def _one(goal: Goal, query: Any, what: str) -> Any:
    """The single answer of a functional relation query."""
    answers = mk.run(goal, query, 2)
    if len(answers) != 1:
        raise SearchLimitExceeded(f"miniKanren relation {what} gave {len(answers)} answers, not 1")
    return answers[0]


class KanrenEngine(PythonEngine):
    """The Python rules (an `Engine`) with the rule methods answered by the miniKanren relations above."""

    name = "kanren"

    def __init__(self) -> None:
        mk.require()

    def legal_moves(self, table: Table) -> list[Move]:
        """All answers of legal_moveo, in canonical order."""
        if table.over:
            return []
        if table.tiling:
            return self.tiling_moves(table)
        seat, move = table.turn, mk.var()
        sources = ((CENTRE, tuple(table.centre)),) + tuple(
            (index, tuple(factory)) for index, factory in enumerate(table.factories))
        lines = tuple(zip(table.line_colours[seat], table.line_counts[seat]))
        colours = table.colours[seat] if table.variant == GREY else standard_colours(table.walls[seat])
        budget = mk.Budget(nodes=NODES, label="miniKanren search")
        return [tuple(answer) for answer in mk.run(legal_moveo(sources, lines, _frozen(colours), move, budget),
                                                   move)]

    def place(self, table: Table, seat: int, colour: int, taken: int, destination: int) -> None:
        """placeo, its answer written back into the table."""
        line, floor, to_lid = mk.var(), mk.var(), mk.var()
        index = max(destination - 1, 0)
        current = (table.line_colours[seat][index], table.line_counts[seat][index])
        goal = placeo(current, tuple(table.floors[seat]), colour, taken, destination, line, floor, to_lid)
        new_line, new_floor, lid = _one(goal, (line, floor, to_lid), "placeo")
        table.line_colours[seat][index], table.line_counts[seat][index] = new_line
        table.floors[seat] = list(new_floor)
        table.lid[colour] += lid

    def tile_score(self, wall: list[list[int]], row: int, column: int) -> int:
        """tile_scoreo's answer."""
        return _tile_score(_frozen(wall), row, column)

    def floor_penalty(self, items: int) -> int:
        """floor_penaltyo's answer (a full floor counts as its 7 slots)."""
        points = mk.var()
        return _one(floor_penaltyo(min(items, FLOOR_SLOTS), points), points, "floor_penaltyo")

    def end_bonus(self, wall: list[list[int]], colours: list[list[int]] | None = None) -> int:
        """end_bonuso's answer."""
        bonus = mk.var()
        return _one(end_bonuso(_frozen(wall), bonus, None if colours is None else _frozen(colours)), bonus,
                    "end_bonuso")

    def row_completable(self, wall: list[list[int]], colours: list[list[int]], row: int) -> bool:
        """completableo succeeds."""
        return bool(mk.run(completableo(_frozen(wall), _frozen(colours), row), mk.var(), 1))

    def grey_columns(self, wall: list[list[int]], colours: list[list[int]], row: int, colour: int) -> list[int]:
        """All answers of grey_cello, ascending."""
        column = mk.var()
        return sorted(mk.run(grey_cello(_frozen(wall), _frozen(colours), row, colour, column), column))
