"""Azul's rules batched in numpy: N tables as arrays, each rule one array operation over the tables it acts on.

| Import             | `from pysolve.azul.batched import AzulBatchedEnv` |
|--------------------|------------------------------------|
| Actions            | Discrete per table, masked (`MultiDiscrete` for the batch) |
| Parallel API       | No (a vector environment: one learning seat a table) |
| Manual Control     | No |
| Agents             | one learning seat per table (`seat`); the others play a random legal move (`opponent`) |
| Agents count       | 1 learning (`num_envs` tables of 2, 3 or 4 players) |
| Action Shape       | `(N,)` |
| Action Values      | `MultiDiscrete([205] * N)` (2 players; 265 a table for 3, 325 for 4) |
| Observation Shape  | `(N, 120)`, the action mask `(N, 205)` (2 players; 3 and 4 players as in env.py) |
| Observation Values | `-1` to `5000`, int16; the mask `0` or `1`, int8 |

## Description

`Tables` holds N games of the coloured wall as arrays (the offer by source
and colour, pattern lines as colour and count, walls as row bit masks,
floors as counts, scores, marker, bag and lid) and applies every rule to a
set of tables at once: the legal moves of the seat to move (`masks`, from
`destinations`), the opponents' random choices (`random_actions`), a move
(`apply`), a round's end (`end_round`: the walls tiled with their runs
scored, floors paid, the next round dealt or the game ended with its
bonuses, also once no row of any wall may still be completed: `may_end`),
a deal (`_deal`). Nothing loops over the tables in Python but `may_end`,
over the tables with a colour used up, which random games seldom reach.

Each bag is kept as its tiles in a random order, so a deal is one gather
for all the tables dealing; a bag with too few tiles has its lid poured in
behind its last tiles and shuffled there, so the tiles dealt are those the
rules draw (the bag to its last tile, then the lid, uniformly). Chance
comes from one numpy generator for all the tables rather than the
`RandomStream` of each game: these are Azul's games, not the seeded games
of `play_match`. The tests replay each table's events (moves and deals) on
the Python engine and compare the states, observations and masks after
every step.

`AzulBatchedEnv(num_envs, players, seat, ...)` is the Gymnasium vector
environment over `Tables`. Coloured wall only. Its opponents play a
uniformly random legal move (`opponent="uniform"`, the default) or as
pysolve's `random` strategy plays (`opponent="random"`: uniformly among the
moves putting a tile on a line when there is one, else among all), the
opponents of `vector.AzulVectorEnv(engine="batched")`.

## Observation Space

As `vector.AzulVectorEnv` gives it: a Dict of an `(N, fields)` int16 array,
each row `env.AzulEnv`'s observation of the learning seat, and an
`(N, actions)` int8 action mask.

## Action Space

One `env.AzulEnv` action per table; an illegal one ends that table's episode
with reward `-win_reward` and info `illegal` (`illegal="lose"`), or raises.

## Rewards

Arrays of shape `(N,)`, as `vector.AzulVectorEnv`'s: the seat's score change
from its move until its next turn or the end, plus `+win_reward` or
`-win_reward` when the game ends; next-step autoreset.

## Version History

* v0: first release.

## Usage

Many tables stepped at once, here 64 three-player games, each table's
learning seat taking its first legal move (`argmax` of its mask row):

>>> from pysolve.azul.batched import AzulBatchedEnv
>>> envs = AzulBatchedEnv(num_envs=64, players=3)
>>> observations, infos = envs.reset(seed=7)
>>> first_legal = observations["action_mask"].argmax(axis=1)
>>> observations, rewards, terminations, truncations, infos = envs.step(first_legal)
>>> observations["observation"].shape, observations["action_mask"].shape, rewards.shape
((64, 168), (64, 265), (64,))
>>> bool(terminations.any())  # no game ends on its first move
False

Needs the optional group `rl` (`pip install pysolve[rl]`), as `env` does.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from pysolve.azul.env import DESTINATIONS, WALL_CELLS, check_settings, render_text, seat_spaces
from pysolve.azul.model import (
    CENTRE,
    COLOUR_BONUS,
    COLUMN_BONUS,
    FACTORIES,
    FLOOR_SLOTS,
    FLOOR_TOTALS,
    MARKER,
    MAX_MOVES,
    ROW_BONUS,
    STANDARD,
    TILES_PER_COLOUR,
    TILES_PER_FACTORY,
    TOTAL_TILES,
    can_end,
    standard_colours,
)
from pysolve.azul.packed import FULL, POINTS, RUN
from pysolve.errors import InputError
from pysolve.files import excerpt

FIVE = np.arange(5)  # colours, lines, rows, columns
NO_TILE = 5  # a place of a bag's order past its tiles
# a tile to shuffle in: 0..4 a bag tile of that colour, 5..9 a lid tile, 10 a place past the tiles
KINDS = np.arange(11)
KIND_KEYS = np.array([0] * 5 + [1] * 5 + [2])  # added to a uniform key: the bag's tiles first, then the lid's
KIND_COLOURS = np.array([*range(5), *range(5), NO_TILE])
WALL_COLUMN = (FIVE[None, :] + FIVE[:, None]) % 5  # [row, colour]: the coloured wall's column of colour in row
RUNS = np.array(RUN)  # [mask, position]: the run of set bits through position
SCORES = np.array(POINTS)  # [horizontal run, vertical run]: a placed tile's points
PENALTY = np.array(FLOOR_TOTALS)  # by floor items
ACTIONS_PER_SOURCE = 5 * DESTINATIONS
SPARE_GAMES = 256  # fresh games made at a time
TO_TILE = -2  # the turn of a table whose offer is empty, its walls not yet tiled (-1: the game is over)
NOBODY = np.zeros(0, dtype=np.int64)  # no tables
UNIFORM, RANDOM = "uniform", "random"  # the opponents: uniformly random legal; the `random` strategy's law
OPPONENTS = (UNIFORM, RANDOM)

# A seat's board, one int64 row: its wall's row masks (bit c of row r: cell (r, c) tiled), pattern line colours
# (-1 empty) and counts, the floor's items (the marker counted), whether the marker is one of them, its tiles by
# colour (a floor's order is no rule: its penalty counts its items), the score.
ROWS, LINE_COLOURS, LINE_COUNTS, FLOOR_ITEMS, HAS_MARKER, FLOOR, SCORE, BOARD = 0, 5, 10, 15, 16, 17, 22, 23
# A table's scalars after its offer (source by colour: the centre, then the factories), bag and lid counts.
MARKER_AT, TURN, STARTER, ROUND, MOVES, OVER, DRAWN, SCALARS = range(8)


def line_codes() -> np.ndarray:
    """Per line state, the colours a pattern line takes, packed as bits.

    [line state]: the colours a pattern line takes, packed: bits 6c..6c+5 of colour c hold the destination
    bit of the line (1 << (line + 1)) when it takes c. A line's state is `LINE_STATE[line] + 42 * row mask + 6 *
    count + line colour + 1` (`STATE_WEIGHTS`), its wall row tiled as the mask says; it takes the colour when
    empty and the colour is not in the row, or partly filled with it.
    """
    codes = np.zeros((5, 32, 7, 6), dtype=np.int64)
    for line in range(5):
        for mask in range(32):
            codes[line, mask, 0, :] = sum((2 << line) << 6 * colour for colour in range(5)
                                          if not mask >> WALL_COLUMN[line, colour] & 1)
            for count in range(1, line + 1):
                for colour in range(5):
                    codes[line, mask, count, colour + 1] = (2 << line) << 6 * colour
    return codes.ravel()


LINE_CODES = line_codes()
LINE_STATE = FIVE * 32 * 7 * 6 + 1  # where each line's states start, the +1 of the line colour included
STATE_WEIGHTS = np.zeros((LINE_COUNTS + 5, 5), dtype=np.int64)  # a board's first fields -> its lines' states
STATE_WEIGHTS[ROWS + FIVE, FIVE], STATE_WEIGHTS[LINE_COLOURS + FIVE, FIVE] = 42, 1
STATE_WEIGHTS[LINE_COUNTS + FIVE, FIVE] = 6
ONES_5 = np.ones(5, dtype=np.int64)
SIX_BITS = 6 * FIVE
FLOOR_CODES = sum(1 << 6 * colour for colour in range(5))  # the floor takes every colour
DESTINATION_BITS = (np.arange(64)[:, None] >> np.arange(DESTINATIONS)) & 1 == 1  # [code, destination]
DESTINATION_COUNT = DESTINATION_BITS.sum(axis=1)  # [code]
NTH_DESTINATION = np.array([[np.flatnonzero(bits)[rank] if rank < bits.sum() else 0 for rank in range(DESTINATIONS)]
                            for bits in DESTINATION_BITS])  # [code, rank]: the rank-th destination the code allows


class Tables:
    """N games of Azul on the coloured wall, as arrays; every rule an array operation over a set of tables.

    `table` holds a row per table (the offer, bag, lid, then the scalars:
    marker holder or CENTRE, seat to move (-1 once over, TO_TILE while the
    walls wait to be tiled), starter, round,
    moves, over, tiles drawn from the bag's order), `board` a row per table
    and seat (the layout above); the named arrays are views of them. A rule
    gathers the rows of the tables it acts on (an index array `idx` of
    distinct tables; the seat of each alongside where it concerns one seat),
    works on them and writes them back. Sources are 0 for the centre and 1..
    for the factories, the order of the action numbers. The bag is kept as
    its tiles in a random order (`sequence`) with the count drawn. `log`,
    when a list, receives every table's events in order (`(table, "new",
    starter)`, `(table, "move", seat, action)`, `(table, "deal", colours)`)
    so a game can be replayed on another engine.
    """

    def __init__(self, count: int, players: int, generator: np.random.Generator, opponent: str = UNIFORM) -> None:
        self.count, self.players, self.rng = count, players, generator
        self.line_first = opponent == RANDOM  # the opponents' law (`random_actions`)
        self.factories = FACTORIES[players]
        self.deal_size = self.factories * TILES_PER_FACTORY
        self.dealt = np.arange(self.deal_size)
        offer = (self.factories + 1) * 5
        self.bag_at, self.lid_at, self.scalars_at = offer, offer + 5, offer + 10
        self.table = np.zeros((count, offer + 10 + SCALARS), dtype=np.int64)
        self.fields = offer + 14 + players * (1 + 25 + FLOOR - LINE_COLOURS)  # of an observation
        self.board = np.zeros((count, players, BOARD), dtype=np.int64)
        self.sequence = np.full((count, TOTAL_TILES), NO_TILE, dtype=np.int64)
        self.kinds = np.tile(KINDS, count)  # every kind once per table, to repeat by a shuffle's counts
        self.offer = self.table[:, :offer].reshape(count, self.factories + 1, 5)
        self.bag, self.lid = self.table[:, offer:offer + 5], self.table[:, offer + 5:offer + 10]
        self.marker, self.turn, self.starter, self.round, self.moves, self.over, _ = (
            self.table[:, offer + 10 + field] for field in range(SCALARS))
        self.rows = self.board[..., ROWS:ROWS + 5]
        self.line_colour = self.board[..., LINE_COLOURS:LINE_COLOURS + 5]
        self.line_count = self.board[..., LINE_COUNTS:LINE_COUNTS + 5]
        self.floor = self.board[..., FLOOR:FLOOR + 5]
        self.floor_len, self.has_marker = self.board[..., FLOOR_ITEMS], self.board[..., HAS_MARKER]
        self.scores = self.board[..., SCORE]
        self.fresh_board = np.zeros(BOARD, dtype=np.int64)
        self.fresh_board[LINE_COLOURS:LINE_COLOURS + 5] = -1
        self.log: list[tuple[Any, ...]] | None = None
        self._spare: Tables | None = None  # fresh games made ahead, `_spare_used` of them taken
        self._spare_used = 0

    # -- a game's life ---------------------------------------------------
    def reseed(self, generator: np.random.Generator) -> None:
        """Take all chance from `generator` from now on (the fresh games made ahead from the last one go)."""
        self.rng, self._spare = generator, None

    def new_games(self, idx: np.ndarray) -> None:
        """Fresh games on tables `idx`, copied from games made ahead in bulk.

        `SPARE_GAMES` at a time: a new
        game costs a few array copies, not the shuffle and the deal of its own).
        """
        if self._spare is None or self._spare_used + len(idx) > self._spare.count:
            self._spare = Tables(max(SPARE_GAMES, len(idx)), self.players, self.rng)
            self._spare.log = [] if self.log is not None else None
            self._spare.generate(np.arange(self._spare.count))
            self._spare_used = 0
        spare, taken = self._spare, np.arange(self._spare_used, self._spare_used + len(idx))
        self._spare_used += len(idx)
        self.table[idx], self.board[idx] = spare.table[taken], spare.board[taken]
        self.sequence[idx] = spare.sequence[taken]
        if self.log is not None and spare.log is not None:
            events = {int(made): table for made, table in zip(taken, idx)}
            self.log.extend((int(events[event[0]]), *event[1:]) for event in spare.log if event[0] in events)

    def generate(self, idx: np.ndarray) -> None:
        """Fresh games on tables `idx`, copied from games made ahead in bulk.

        Fresh games on tables `idx`: a random seat opens, the first round is dealt.
        """
        rows = np.zeros((len(idx), self.table.shape[1]), dtype=np.int64)
        rows[:, self.bag_at:self.lid_at] = TILES_PER_COLOUR
        scalars = rows[:, self.scalars_at:]
        scalars[:, MARKER_AT] = CENTRE
        scalars[:, TURN] = scalars[:, STARTER] = self.rng.integers(self.players, size=len(idx))
        self.board[idx] = self.fresh_board
        if self.log is not None:
            self.log.extend((int(table), "new", int(seat)) for table, seat in zip(idx, scalars[:, TURN]))
        self._shuffle(idx, rows)
        self._deal(idx, rows)
        self.table[idx] = rows

    def play_others(self, seat: int, max_moves: int, ended: np.ndarray) -> None:
        """Let every seat but `seat` play random legal moves until `seat` is to move.

        Every seat but `seat` plays a uniformly random legal move, on every table, until `seat` is to move,
        the game is over or `max_moves` moves were played; every round whose offer is empty (by these moves or
        by `seat`'s, applied before) is tiled and dealt on the way. The rounds are tiled together after each
        batch of moves, one call for all the tables whose round ended (those `seat`'s moves ended among them),
        not one per batch of moves.
        """
        while True:
            idx = ((self.turn >= 0) & (self.turn != seat) & (self.moves < max_moves)).nonzero()[0]
            if idx.size:
                seats = self.turn[idx]
                rows, boards = self.table[idx], self.board[idx, seats]
                actions = self.random_actions(rows[:, :self.bag_at].reshape(len(idx), -1, 5), boards)
                ended = np.concatenate([ended, self._apply(idx, seats, actions, rows, boards)])
            if ended.size:
                self.end_round(ended)
                ended = ended[:0]
            elif not idx.size:
                return

    # -- the rules ---------------------------------------------------------
    @staticmethod
    def destinations(boards: np.ndarray) -> np.ndarray:
        """Where each colour may go on the boards of `boards`, as bits per table.

        (tables, colours): for the seats of `boards` (tables, BOARD), where each colour may go, as bits: the
        floor (bit 0) always, line i (bit i + 1) as `LINE_CODES` says.
        """
        packed = LINE_CODES.take(boards[:, :LINE_COUNTS + 5] @ STATE_WEIGHTS + LINE_STATE) @ ONES_5 + FLOOR_CODES
        return (packed[:, None] >> SIX_BITS) & 63

    @staticmethod
    def may_end(walls: np.ndarray, colours: np.ndarray, counts: np.ndarray, free: np.ndarray) -> np.ndarray:
        """Whether each table's game may end after a round's tiling (`model.can_end`).

        (tables,) bool: `model.can_end` of each table after a round's tiling, from its walls' row masks, pattern
        line colours and counts (tables, seats, rows) and the tiles of each colour in its bag and lid (tables,
        colours): some row of some wall may still be completed, so the game may still end by the rules.

        A table with every colour in its bag or lid is cleared at once: after a tiling every row 0's pattern
        line is empty (one tile fills it and a full line is tiled), so row 0 of any wall may still take each
        colour it lacks. Only the tables with a colour used up (none in random two-player games, under 1 % of
        four-player round ends) are judged one by one by `can_end` itself (pattern lines that may still fill,
        their tiles counted in).
        """
        cleared = free.min(axis=1) > 0
        for table in (~cleared).nonzero()[0]:
            cells = ((walls[table, ..., None] >> FIVE) & 1).tolist()  # [seat, row, column]
            lines = np.stack([colours[table], counts[table]], axis=-1).tolist()
            cleared[table] = can_end([standard_colours(wall) for wall in cells], lines, free[table].tolist(), None)
        return cleared

    def masks(self, offer: np.ndarray, boards: np.ndarray) -> np.ndarray:
        """(tables, sources x colours x destinations) bool.

        The moves taking tiles from `offer` (tables, sources, colours) that are legal for the seats of
        `boards` (tables, BOARD): the source holds the colour and the destination takes it.
        """
        codes = self.destinations(boards)[:, None, :] * (offer > 0)  # [table, source, colour]
        return DESTINATION_BITS.take(codes, axis=0).reshape(len(offer), -1)

    def random_actions(self, offer: np.ndarray, boards: np.ndarray) -> np.ndarray:
        """One random legal action for each seat of `boards`: uniform, or (`line_first`) the `random` strategy's.

        One random legal action for each seat of `boards` (tables, BOARD) taking from `offer` (tables, sources,
        colours), which holds tiles: the k-th legal action in action order for a uniform k, found in two steps
        (the source and colour, weighted by the destinations of the colour; then the destination), without
        listing the actions. With `line_first` (the law of the `random` strategy, `seeded.random_feasible`) the
        weights count the lines only, the floor skipped, on the tables where some line takes an offered colour;
        on the others every (source, colour) weighs 1 and goes to the floor.
        """
        every = np.arange(len(offer))
        codes = self.destinations(boards)
        destinations = DESTINATION_COUNT.take(codes)[:, None, :]  # [table, 1, colour]
        skip = 0
        if self.line_first:
            lines = ((offer > 0) * (destinations - 1)).reshape(len(offer), -1)
            skip = lines.any(axis=1)  # the floor skipped: rank 0 is the first line
            weights = np.where(skip[:, None], lines, (offer > 0).reshape(len(offer), -1))
        else:
            weights = ((offer > 0) * destinations).reshape(len(offer), -1)
        cumulative = weights.cumsum(axis=1)
        wanted = (self.rng.random(len(offer)) * cumulative[:, -1]).astype(np.int64)
        block = (cumulative <= wanted[:, None]).sum(axis=1)  # source * 5 + colour
        rank = wanted - cumulative[every, block] + weights[every, block] + skip
        return block * DESTINATIONS + NTH_DESTINATION[codes[every, block % 5], rank]

    def apply(self, idx: np.ndarray, seats: np.ndarray, actions: np.ndarray) -> np.ndarray:
        """Take and place the tiles of legal actions (the seats to move on tables `idx`), pass the turn.

        The tables whose offer this empties, their turn TO_TILE until `end_round`.
        """
        return self._apply(idx, seats, actions, self.table[idx], self.board[idx, seats])

    def _apply(self, idx: np.ndarray, seats: np.ndarray, actions: np.ndarray, rows: np.ndarray,
               boards: np.ndarray) -> np.ndarray:
        """`apply` given the tables' rows and the seats' boards, gathered (changed, then written back)."""
        if self.log is not None:
            self.log.extend((int(table), "move", int(seat), int(action))
                            for table, seat, action in zip(idx, seats, actions))
        every = np.arange(len(idx))
        scalars = rows[:, self.scalars_at:]
        offer = rows[:, :self.bag_at].reshape(len(idx), -1, 5)
        source, rest = np.divmod(actions, ACTIONS_PER_SOURCE)
        colour, destination = np.divmod(rest, DESTINATIONS)
        left = offer[every, source]  # [table, colour]
        taken = left[every, colour]
        left[every, colour] = 0  # the centre keeps its other colours; a factory's go to the centre
        factory = (source > 0)[:, None]
        offer[every, source] = np.where(factory, 0, left)
        offer[:, 0] += np.where(factory, left, 0)
        # the first to take from the centre takes the marker, to the floor if it has room
        first = (source == 0) & (scalars[:, MARKER_AT] == CENTRE)
        length = boards[:, FLOOR_ITEMS]
        if first.any():
            scalars[:, MARKER_AT] = np.where(first, seats, scalars[:, MARKER_AT])
            marker = first & (length < FLOOR_SLOTS)
            boards[:, HAS_MARKER] += marker
            length = length + marker
        line = np.maximum(destination - 1, 0)
        on_line = destination > 0
        count = boards[every, LINE_COUNTS + line]
        fits = np.where(on_line, np.minimum(taken, destination - count), 0)
        boards[every, LINE_COUNTS + line] = count + fits
        boards[every, LINE_COLOURS + line] = np.where(on_line, colour, boards[every, LINE_COLOURS + line])
        excess = taken - fits  # to the floor, left to right; beyond its slots to the lid
        put = np.minimum(excess, FLOOR_SLOTS - length)
        boards[every, FLOOR + colour] += put
        boards[:, FLOOR_ITEMS] = length + put
        rows[every, self.lid_at + colour] += excess - put
        scalars[:, MOVES] += 1
        emptied = ~rows[:, :self.bag_at].any(axis=1)
        scalars[:, TURN] = np.where(emptied, TO_TILE, (seats + 1) % self.players)
        self.table[idx], self.board[idx, seats] = rows, boards
        return idx[emptied]

    def end_round(self, idx: np.ndarray) -> None:
        """The offer of tables `idx` is over.

        Every seat's full lines to the wall top to bottom, each tile scored by its runs (the lower rows placed
        after it), the floors paid (score clamped at 0) and emptied; the marker's holder opens the next round,
        dealt now, unless a wall has a full row or no row of any wall may still be completed (`may_end`; so
        too when no tile is left to deal): then the game ends with the bonuses (2 a full row, 7 a full column,
        10 a colour on all five rows).
        """
        rows, boards = self.table[idx], self.board[idx]
        scalars = rows[:, self.scalars_at:]
        walls, colours, counts = (boards[..., ROWS:ROWS + 5], boards[..., LINE_COLOURS:LINE_COLOURS + 5],
                                  boards[..., LINE_COUNTS:LINE_COUNTS + 5])  # [table, seat, row]
        full = counts == FIVE + 1
        column = (colours + FIVE) % 5
        placed = full[..., None] & (column[..., None] == FIVE)  # [table, seat, row, column]
        tiled = walls | np.left_shift(full, column)
        # a tile's vertical run counts the column's old tiles and this round's from its row up
        cells = (walls[..., None] >> FIVE) & 1
        old_columns = (cells << FIVE[:, None]).sum(axis=-2)  # [table, seat, column]
        columns = (placed << FIVE[:, None]).cumsum(axis=-2) + old_columns[..., None, :]  # after each row
        vertical = (columns * placed).sum(axis=-1)  # the tile's column, after its row
        points = (full * SCORES[RUNS[tiled, column], RUNS[vertical, FIVE]]).sum(axis=-1)
        lines_left = ((colours[..., None] == FIVE) * (full * FIVE)[..., None]).sum(axis=(1, 2))  # a full line's rest
        rows[:, self.lid_at:self.scalars_at] += lines_left + boards[..., FLOOR:FLOOR + 5].sum(axis=1)
        boards[..., SCORE] = np.maximum(boards[..., SCORE] + points - PENALTY[boards[..., FLOOR_ITEMS]], 0)
        walls[...] = tiled
        colours[full] = -1
        counts[full] = 0
        boards[..., FLOOR_ITEMS:SCORE] = 0  # the floor, its items and marker
        marker = scalars[:, MARKER_AT]
        scalars[:, STARTER] = scalars[:, TURN] = np.where(marker != CENTRE, marker, scalars[:, STARTER])
        scalars[:, MARKER_AT] = CENTRE
        free = rows[:, self.bag_at:self.lid_at] + rows[:, self.lid_at:self.scalars_at]
        ends = (tiled == FULL).any(axis=(1, 2)) | ~self.may_end(tiled, colours, counts, free)
        if ends.any():
            filled = cells | placed
            bonus = (ROW_BONUS * (tiled == FULL).sum(axis=-1) + COLUMN_BONUS * filled.all(axis=-2).sum(axis=-1)
                     + COLOUR_BONUS * filled[..., FIVE[:, None], WALL_COLUMN].all(axis=-2).sum(axis=-1))
            boards[..., SCORE] += np.where(ends[:, None], bonus, 0)
            scalars[ends, OVER] = 1
            scalars[ends, TURN] = -1
        if not ends.all():
            going = rows[~ends]
            self._deal(idx[~ends], going)
            rows[~ends] = going
        self.table[idx], self.board[idx] = rows, boards

    def _shuffle(self, idx: np.ndarray, rows: np.ndarray) -> None:
        """Pour the lids of tables `idx` into their bags (`rows`, their table rows, changed in place), each
        bag's tiles in a random order, then the lid's: the order tiles are drawn in."""
        held = rows[:, self.bag_at:self.scalars_at]  # [table, bag colour then lid colour]
        counts = np.concatenate([held, TOTAL_TILES - held.sum(axis=1, keepdims=True)], axis=1)  # then the places left
        # every place's kind, each row sorted by kind
        kinds = self.kinds[:len(idx) * len(KINDS)].repeat(counts.ravel()).reshape(len(idx), TOTAL_TILES)
        order = (self.rng.random(kinds.shape) + KIND_KEYS[kinds]).argsort(axis=1)  # bag first, then lid, none last
        self.sequence[idx] = KIND_COLOURS[kinds[np.arange(len(idx))[:, None], order]]
        rows[:, self.bag_at:self.lid_at] += rows[:, self.lid_at:self.scalars_at]
        rows[:, self.lid_at:self.scalars_at] = 0
        rows[:, self.scalars_at + DRAWN] = 0

    def _deal(self, idx: np.ndarray, rows: np.ndarray) -> None:
        """Fill the factories of tables `idx` (`rows`, their table rows, changed in place) with the next tiles of
        their bags' orders, factory by factory; a bag with too few takes its lid first (`_shuffle`): the bag
        drawn to its last tile, then the lid's tiles, as the rules draw."""
        bag = rows[:, self.bag_at:self.lid_at]
        short = bag.sum(axis=1) < self.deal_size
        if short.any():
            poured = rows[short]
            self._shuffle(idx[short], poured)
            rows[short] = poured
        drawn = rows[:, self.scalars_at + DRAWN]
        tiles = self.sequence[idx[:, None], drawn[:, None] + self.dealt]  # [table, tile]: colours, NO_TILE past
        dealt = tiles[..., None] == FIVE
        rows[:, 5:self.bag_at] = dealt.reshape(len(idx), self.factories, TILES_PER_FACTORY, 5).sum(axis=2).reshape(
            len(idx), -1)
        bag -= dealt.sum(axis=1)
        rows[:, self.scalars_at + DRAWN] = drawn + self.deal_size
        rows[:, self.scalars_at + ROUND] += tiles[:, 0] != NO_TILE
        if self.log is not None:
            self.log.extend((int(table), "deal", [int(tile) for tile in row if tile != NO_TILE])
                            for table, row in zip(idx, tiles))

    # -- what a seat sees --------------------------------------------------
    def observations(self, seat: int) -> np.ndarray:
        """(tables, fields) int16: every table from `seat`, the layout of `env.observation_values`."""
        count, players, over = self.count, self.players, self.over == 1
        seen = np.empty((count, self.fields), dtype=np.int16)
        offer = self.bag_at
        seen[:, :offer - 5], seen[:, offer - 5:offer] = self.table[:, 5:offer], self.table[:, :5]
        seen[:, offer] = (self.marker == CENTRE) & ~over
        seen[:, offer + 1:offer + 11] = self.table[:, offer:self.scalars_at]
        seen[:, offer + 11] = self.round
        seen[:, offer + 12] = np.where(over, players, (self.turn - seat) % players)
        seen[:, offer + 13] = 0  # no column to choose on the coloured wall
        boards = seen[:, offer + 14:].reshape(count, players, -1)  # a view
        order = (seat + np.arange(players)) % players
        boards[..., 0] = self.scores[:, order]
        boards[..., 1:26] = ((self.rows[:, order, :, None] >> FIVE) & 1).reshape(count, players, 25)
        boards[..., 26:] = self.board[:, order, LINE_COLOURS:FLOOR]
        return seen

    def seat_masks(self, seat: int) -> np.ndarray:
        """(tables, actions) int8: `seat`'s legal actions on every table (none where it is not to move)."""
        masks = self.masks(self.offer, self.board[:, seat]) & (self.turn == seat)[:, None]
        return np.concatenate([masks, np.zeros((self.count, WALL_CELLS), dtype=bool)], axis=1).view(np.int8)

    def export(self, table: int) -> dict[str, Any]:
        """Table `table` as a canonical state.

        Table `table` as a canonical state (the Python engine's `export`; a floor's items marker first, then
        by colour).
        """
        walls = ((self.rows[table][..., None] >> FIVE) & 1).tolist()
        return {
            "players": self.players, "round": int(self.round[table]), "moves": int(self.moves[table]),
            "turn": int(self.turn[table]), "starter": int(self.starter[table]), "marker": int(self.marker[table]),
            "factories": self.offer[table, 1:].tolist(), "centre": self.offer[table, 0].tolist(),
            "bag": self.bag[table].tolist(), "lid": self.lid[table].tolist(),
            "boards": [{"score": int(self.scores[table, seat]), "wall": walls[seat],
                        "lines": [[int(colour), int(count)] for colour, count
                                  in zip(self.line_colour[table, seat], self.line_count[table, seat])],
                        "floor": [MARKER] * int(self.has_marker[table, seat])
                                 + [colour for colour in range(5) for _ in range(int(self.floor[table, seat, colour]))]}
                       for seat in range(self.players)],
            "over": bool(self.over[table]),
        }

    def winners(self) -> np.ndarray:
        """(tables, seats) bool: who wins (or leads) each table: highest score, then more full rows, else shared."""
        scores, rows = self.scores, (self.rows == FULL).sum(axis=-1)
        tied = scores == scores.max(axis=1, keepdims=True)
        most = np.where(tied, rows, -1).max(axis=1, keepdims=True)
        return tied & (rows == most)


class AzulBatchedEnv(VectorEnv):
    """Azul's coloured wall on `num_envs` tables, batched in numpy, as a Gymnasium vector environment.

    `num_envs` tables of Azul on the coloured wall, the rules batched in numpy (`Tables`), as Gymnasium's
    vector API: one seat learns, the others play uniformly random legal moves (`opponent="uniform"`) or as
    the `random` strategy plays (`opponent="random"`: uniform among the moves putting a tile on a line, else
    among all), with next-step autoreset.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP,  # noqa: RUF012 (VectorEnv declares none)
                                "render_modes": ["ansi"]}

    def __init__(self, num_envs: int = 64, players: int = 2, seat: int = 0, win_reward: float = 1.0,
                 illegal: str = "lose", max_moves: int = MAX_MOVES, render_mode: str | None = None,
                 variant: str = STANDARD, opponent: str = UNIFORM) -> None:
        if not (isinstance(num_envs, int) and num_envs >= 1):
            raise InputError(f"num_envs {excerpt(num_envs)}: expected a whole number >= 1")
        check_settings(players, seat, illegal, variant, render_mode, self.metadata["render_modes"])
        if variant != STANDARD:
            raise InputError(f"AzulBatchedEnv plays the coloured wall only, not {excerpt(variant)}: "
                             f"use AzulVectorEnv for the grey wall")
        if opponent not in OPPONENTS:
            raise InputError(f"opponent {excerpt(opponent)}: the batched rules play {' or '.join(OPPONENTS)}")
        self.num_envs, self.players, self.seat, self.illegal = num_envs, players, seat, illegal
        self.win_reward, self.max_moves, self.render_mode = float(win_reward), max_moves, render_mode
        self.single_observation_space, self.single_action_space = seat_spaces(players, variant)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.tables = Tables(num_envs, players, np.random.default_rng(), opponent)
        self._masks = np.zeros((num_envs, self.single_action_space.n), dtype=np.int8)
        self._ended = np.zeros(num_envs, dtype=bool)  # the tables to reset on the next step
        self._every = np.arange(num_envs)

    def _observe(self) -> dict[str, np.ndarray]:
        """The seat's observation of every table, and its masks (fresh arrays)."""
        self._masks = self.tables.seat_masks(self.seat)
        return {"observation": self.tables.observations(self.seat), "action_mask": self._masks}

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Start new games on every table (or on those of the reset mask).

        New games on every table (or those of `options["reset_mask"]`), played by the others up to the seat's
        first move; `seed` seeds the one generator of all the tables' chance and opponents.
        """
        if not (seed is None or isinstance(seed, int)):
            raise InputError(f"reset: seed {excerpt(seed)}: expected an integer or None (one generator for all tables)")
        super().reset(seed=seed)
        if seed is not None or self.tables.rng is not self.np_random:
            self.tables.reseed(self.np_random)
        chosen = (options or {}).get("reset_mask", np.ones(self.num_envs, dtype=bool))
        if not (isinstance(chosen, np.ndarray) and chosen.shape == (self.num_envs,) and chosen.dtype == bool):
            raise InputError(f"reset: options['reset_mask'] must be a bool array of shape ({self.num_envs},)")
        self.tables.new_games(np.flatnonzero(chosen))
        self.tables.play_others(self.seat, self.max_moves, NOBODY)
        self._ended[chosen] = False
        return self._observe(), {}

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One action per table (ignored on a table that ended on the last step: it starts its next game)."""
        tables, seat = self.tables, self.seat
        actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)
        restart = self._ended
        before = tables.scores[:, seat].copy()
        inside = (actions >= 0) & (actions < self._masks.shape[1])
        legal = ~restart & inside & (self._masks[self._every, np.where(inside, actions, 0)] > 0)
        illegal = ~restart & ~legal
        any_illegal = illegal.any()
        if any_illegal and self.illegal == "raise":
            index = int(np.flatnonzero(illegal)[0])
            raise InputError(f"table {index}: action {actions[index]} is not legal for player_{seat} now")
        if restart.any():
            tables.new_games(restart.nonzero()[0])
        acting = legal.nonzero()[0]
        ended = tables.apply(acting, np.full(len(acting), seat), actions[acting]) if acting.size else NOBODY
        tables.play_others(seat, self.max_moves, ended)
        over = tables.over == 1
        finished = legal & over
        rewards = np.where(legal, tables.scores[:, seat] - before, 0).astype(np.float64)
        if finished.any():
            rewards += np.where(finished, np.where(tables.winners()[:, seat], self.win_reward, -self.win_reward), 0.0)
        if any_illegal:
            rewards[illegal] = -self.win_reward
        terminations = finished | illegal
        truncations = legal & ~over & (tables.moves >= self.max_moves)
        self._ended = terminations | truncations
        infos: dict[str, Any] = {"scores": tables.scores.copy(), "_scores": np.ones(self.num_envs, dtype=bool)}
        if any_illegal:
            infos["illegal"], infos["_illegal"] = illegal, illegal.copy()
        return self._observe(), rewards, terminations, truncations, infos

    def render(self) -> tuple[str, ...] | None:
        """Every table as text ("ansi")."""
        texts = [render_text(self.tables.export(table), self.render_mode) for table in range(self.num_envs)]
        return None if None in texts else tuple(text for text in texts if text is not None)

