"""Azul's rules batched in numpy: N tables as arrays, each rule one array operation over the tables it acts on.

`Tables` holds N games of the coloured wall as arrays (the offer by source
and colour, pattern lines as colour and count, walls as row bit masks,
floors as their items in order, scores, marker, bag and lid counts) and
applies every rule to a set of tables at once: the legal moves of the seat
to move (`masks`), a move (`apply`), a round's end (`end_round`: the walls
tiled row by row with their runs scored, floors paid, the game's end and its
bonuses), a deal (`deal`). Nothing loops over tables in Python.

A deal draws the tiles of every table dealing at once: each table's bag
tiles in a random order, then its lid's (the bag refilled from the lid when
it runs out), the first tiles of that order to the factories in turn. That
is the rulebook's draw (tile by tile from the bag, uniformly, the lid
poured in when the bag is empty), with chance from one numpy generator for
all the tables rather than the `RandomStream` of each game: the games are
Azul's games, not the seeded games of `play_match`. A test replays each
table's moves and deals on the Python engine and compares the states,
observations and masks after every step.

`AzulBatchedEnv(num_envs, players, seat, ...)` is the Gymnasium vector
environment over `Tables`: the learning seat's actions, the other seats
playing a uniformly random legal move each (chosen from the batched masks),
observations and masks as `AzulVectorEnv` gives them. Coloured wall only.

Needs the optional group `rl` (`pip install pysolve[rl]`), as `env` does.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from pysolve.azul.env import DESTINATIONS, action_count, check_settings, render_text, seat_spaces
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
)
from pysolve.azul.packed import FULL, POINTS, RUN
from pysolve.errors import InputError

FIVE = np.arange(5)  # colours, lines, rows, columns
SLOTS = np.arange(FLOOR_SLOTS)
KINDS = np.arange(10)  # a tile to deal: 0..4 a bag tile of that colour, 5..9 a lid tile; 10 none
POSITIONS = np.arange(TOTAL_TILES)
WALL_COLUMN = (FIVE[None, :] + FIVE[:, None]) % 5  # [row, colour]: the coloured wall's column of colour in row
RUNS = np.array(RUN)  # [mask, position]: the run of set bits through position
SCORES = np.array(POINTS)  # [horizontal run, vertical run]: a placed tile's points
PENALTY = np.array(FLOOR_TOTALS)  # by floor items
ACTIONS_PER_SOURCE = 5 * DESTINATIONS


class Tables:
    """N games of Azul on the coloured wall, as arrays; every rule an array operation over a set of tables.

    Tables are chosen by an index array `idx` (distinct table numbers); the
    seat of each is given alongside where a rule concerns one seat. Sources
    are 0 for the centre and 1.. for the factories, the order of the action
    numbers. `log`, when a list, receives every table's events in order
    (`(table, "new", starter)`, `(table, "move", seat, action)`, `(table,
    "deal", colours)`) so a game can be replayed on another engine.
    """

    def __init__(self, count: int, players: int, generator: np.random.Generator) -> None:
        self.count, self.players, self.rng = count, players, generator
        self.factories = FACTORIES[players]
        self.deal_size = self.factories * TILES_PER_FACTORY
        shape = (count, players)
        self.offer = np.zeros((count, self.factories + 1, 5), dtype=np.int64)  # [table, source, colour]
        self.bag = np.zeros((count, 5), dtype=np.int64)
        self.lid = np.zeros((count, 5), dtype=np.int64)
        self.marker = np.full(count, CENTRE, dtype=np.int64)  # the seat holding the first-player marker, or CENTRE
        self.turn = np.zeros(count, dtype=np.int64)  # -1 once over
        self.starter = np.zeros(count, dtype=np.int64)
        self.round = np.zeros(count, dtype=np.int64)
        self.moves = np.zeros(count, dtype=np.int64)
        self.over = np.zeros(count, dtype=bool)
        self.scores = np.zeros(shape, dtype=np.int64)
        self.rows = np.zeros((*shape, 5), dtype=np.int64)  # wall row r: bit c set when cell (r, c) holds a tile
        self.line_colour = np.full((*shape, 5), -1, dtype=np.int64)
        self.line_count = np.zeros((*shape, 5), dtype=np.int64)
        self.floor = np.full((*shape, FLOOR_SLOTS), -1, dtype=np.int64)  # items left to right, -1 empty
        self.floor_len = np.zeros(shape, dtype=np.int64)
        self.log: list[tuple[Any, ...]] | None = None

    # -- a game's life ---------------------------------------------------
    def new_games(self, idx: np.ndarray) -> None:
        """Fresh games on tables `idx`: a random seat opens, the first round is dealt."""
        self.offer[idx] = 0
        self.bag[idx], self.lid[idx] = TILES_PER_COLOUR, 0
        self.marker[idx] = CENTRE
        starters = self.rng.integers(self.players, size=len(idx))
        self.turn[idx] = self.starter[idx] = starters
        self.round[idx] = self.moves[idx] = 0
        self.over[idx] = False
        self.scores[idx] = self.rows[idx] = self.line_count[idx] = self.floor_len[idx] = 0
        self.line_colour[idx] = self.floor[idx] = -1
        if self.log is not None:
            self.log.extend((int(table), "new", int(seat)) for table, seat in zip(idx, starters))
        self.deal(idx)

    def play(self, idx: np.ndarray, seats: np.ndarray, actions: np.ndarray) -> None:
        """Legal moves (action numbers) of the seats to move on tables `idx`; rounds that end are tiled and
        dealt, or the game ends."""
        ended = self.apply(idx, seats, actions)
        if ended.size:
            self.end_round(ended)

    def play_others(self, seat: int, max_moves: int) -> None:
        """Every seat but `seat` plays a uniformly random legal move, on every table, until `seat` is to move,
        the game is over or `max_moves` moves were played."""
        while True:
            idx = np.flatnonzero(~self.over & (self.turn != seat) & (self.moves < max_moves))
            if not idx.size:
                return
            seats = self.turn[idx]
            self.play(idx, seats, self.random_actions(self.masks(idx, seats)))

    # -- the rules ---------------------------------------------------------
    def masks(self, idx: np.ndarray, seats: np.ndarray) -> np.ndarray:
        """(tables, sources x colours x destinations) bool: the moves taking tiles legal for `seats`: the source
        holds the colour and the line takes it (empty with the colour not in its wall row, or partly filled
        with it; the floor always)."""
        count = self.line_count[idx, seats]
        held = (self.rows[idx, seats][:, :, None] >> WALL_COLUMN) & 1  # [table, line, colour]
        takes = ((count == 0)[:, :, None] & (held == 0)) | (
            ((count > 0) & (count <= FIVE))[:, :, None] & (self.line_colour[idx, seats][:, :, None] == FIVE))
        allowed = np.ones((len(idx), 5, DESTINATIONS), dtype=bool)  # [table, colour, destination]
        allowed[:, :, 1:] = takes.transpose(0, 2, 1)
        return ((self.offer[idx] > 0)[:, :, :, None] & allowed[:, None]).reshape(len(idx), -1)

    def random_actions(self, masks: np.ndarray) -> np.ndarray:
        """One uniformly random legal action per row of `masks` (each row has one)."""
        cumulative = masks.cumsum(axis=1)
        wanted = (self.rng.random(len(masks)) * cumulative[:, -1]).astype(np.int64)
        return (cumulative <= wanted[:, None]).sum(axis=1)

    def apply(self, idx: np.ndarray, seats: np.ndarray, actions: np.ndarray) -> np.ndarray:
        """Take and place the tiles of legal actions, pass the turn: the tables whose offer is now empty."""
        if self.log is not None:
            self.log.extend((int(table), "move", int(seat), int(action))
                            for table, seat, action in zip(idx, seats, actions))
        every = np.arange(len(idx))
        source, rest = np.divmod(actions, ACTIONS_PER_SOURCE)
        colour, destination = np.divmod(rest, DESTINATIONS)
        left = self.offer[idx, source]  # [table, colour]
        taken = left[every, colour]
        left[every, colour] = 0  # the centre keeps its other colours; a factory's go to the centre
        factory = (source > 0)[:, None]
        self.offer[idx, source] = np.where(factory, 0, left)
        self.offer[idx, 0] += np.where(factory, left, 0)
        first = (source == 0) & (self.marker[idx] == CENTRE)
        if first.any():  # the first to take from the centre takes the marker, to the floor if it has room
            tables, takers = idx[first], seats[first]
            self.marker[tables] = takers
            length = self.floor_len[tables, takers]
            room = length < FLOOR_SLOTS
            self.floor[tables[room], takers[room], length[room]] = MARKER
            self.floor_len[tables, takers] = length + room
        line = np.maximum(destination - 1, 0)
        on_line = destination > 0
        count = self.line_count[idx, seats, line]
        fits = np.where(on_line, np.minimum(taken, destination - count), 0)
        self.line_count[idx, seats, line] = count + fits
        self.line_colour[idx, seats, line] = np.where(on_line, colour, self.line_colour[idx, seats, line])
        excess = taken - fits  # to the floor, left to right; beyond its slots to the lid
        length = self.floor_len[idx, seats]
        put = np.minimum(excess, FLOOR_SLOTS - length)
        slots = (SLOTS >= length[:, None]) & (SLOTS < (length + put)[:, None])
        self.floor[idx, seats] = np.where(slots, colour[:, None], self.floor[idx, seats])
        self.floor_len[idx, seats] = length + put
        self.lid[idx, colour] += excess - put
        self.moves[idx] += 1
        ended = ~self.offer[idx].any(axis=(1, 2))
        self.turn[idx] = (seats + 1) % self.players
        return idx[ended]

    def end_round(self, idx: np.ndarray) -> None:
        """The offer of tables `idx` is over: every seat's full lines to the wall top to bottom, each tile
        scored by its runs (the lower rows placed after it), the floors paid (score clamped at 0) and emptied;
        the marker's holder opens the next round, dealt now, unless a wall has a full row or no tile is left
        to deal: then the game ends with the bonuses."""
        rows, colours, counts = self.rows[idx], self.line_colour[idx], self.line_count[idx]  # [table, seat, line]
        full = counts == FIVE + 1
        column = (colours + FIVE) % 5
        placed = full[..., None] & (column[..., None] == FIVE)  # [table, seat, row, column]
        tiled = rows | (placed << FIVE).sum(axis=-1)
        # a tile's vertical run counts the column's old tiles and this round's from its row up
        old_columns = ((((rows[..., None] >> FIVE) & 1) << FIVE[:, None]).sum(axis=-2))  # [table, seat, column]
        upto = np.cumsum(placed << FIVE[:, None], axis=-2)  # [table, seat, row, column]: rows <= row
        vertical = (np.take_along_axis(old_columns, column, axis=-1)
                    | np.take_along_axis(upto, column[..., None], axis=-1)[..., 0])
        points = np.where(full, SCORES[RUNS[tiled, column], RUNS[vertical, FIVE]], 0).sum(axis=-1)
        floors = self.floor[idx]
        lid = self.lid[idx] + ((colours[..., None] == FIVE) * (full * FIVE)[..., None]).sum(axis=(1, 2))
        self.lid[idx] = lid + (floors[..., None] == FIVE).sum(axis=(1, 2))
        self.scores[idx] = np.maximum(self.scores[idx] + points - PENALTY[self.floor_len[idx]], 0)
        self.rows[idx] = tiled
        self.line_colour[idx] = np.where(full, -1, colours)
        self.line_count[idx] = np.where(full, 0, counts)
        self.floor[idx], self.floor_len[idx] = -1, 0
        marker = self.marker[idx]
        starter = np.where(marker != CENTRE, marker, self.starter[idx])
        self.starter[idx] = self.turn[idx] = starter
        self.marker[idx] = CENTRE
        ends = (tiled == FULL).any(axis=(1, 2)) | ~(self.bag[idx].any(axis=1) | self.lid[idx].any(axis=1))
        if ends.any():
            self.finish(idx[ends])
        if not ends.all():
            self.deal(idx[~ends])

    def finish(self, idx: np.ndarray) -> None:
        """End the games of tables `idx`: 2 points a full row, 7 a full column, 10 a colour on all five rows."""
        rows = self.rows[idx]
        wall = (rows[..., None] >> FIVE) & 1  # [table, seat, row, column]
        columns = wall.all(axis=-2).sum(axis=-1)
        colours = wall[..., FIVE[:, None], WALL_COLUMN].all(axis=-2).sum(axis=-1)  # [.., row, colour] -> colour
        self.scores[idx] += ROW_BONUS * (rows == FULL).sum(axis=-1) + COLUMN_BONUS * columns + COLOUR_BONUS * colours
        self.over[idx] = True
        self.turn[idx] = -1

    def deal(self, idx: np.ndarray) -> None:
        """Fill the factories of tables `idx` (all empty), tile by tile in factory order: the bag's tiles in a
        random order, then, once the bag is empty, the lid poured in and its tiles in a random order."""
        held = np.concatenate([self.bag[idx], self.lid[idx]], axis=1)  # [table, kind]
        ends = held.cumsum(axis=1)
        kinds = (ends[:, None, :] <= POSITIONS[:, None]).sum(axis=-1)  # [table, position]: every tile's kind
        keys = self.rng.random(kinds.shape) + (kinds >= 5) + 2 * (kinds == 10)  # bag first, then lid, none last
        drawn = np.take_along_axis(kinds, np.argsort(keys, axis=1)[:, :self.deal_size], axis=1)
        kind = drawn[..., None] == KINDS  # [table, tile, kind]
        tiles = kind[..., :5] | kind[..., 5:]  # [table, tile, colour]
        self.offer[idx, 1:] = tiles.reshape(len(idx), self.factories, TILES_PER_FACTORY, 5).sum(axis=2)
        taken = kind.sum(axis=1)
        refill = (ends[:, 4] < self.deal_size)[:, None]  # the bag ran out: the lid became the bag
        self.bag[idx] = np.where(refill, held[:, 5:] - taken[:, 5:], held[:, :5] - taken[:, :5])
        self.lid[idx] = np.where(refill, 0, held[:, 5:])
        self.round[idx] += drawn[:, 0] < 10
        if self.log is not None:
            self.log.extend((int(table), "deal", [int(tile) % 5 for tile in row if tile < 10])
                            for table, row in zip(idx, drawn))

    # -- what a seat sees --------------------------------------------------
    def observations(self, seat: int) -> np.ndarray:
        """(tables, fields) int16: every table from `seat`, the layout of `env.observation_values`."""
        count, players, over = self.count, self.players, self.over
        order = (seat + np.arange(players)) % players
        rows, floors = self.rows[:, order], self.floor[:, order]
        boards = np.concatenate([self.scores[:, order, None], ((rows[..., None] >> FIVE) & 1).reshape(count, players, 25),
                                 self.line_colour[:, order], self.line_count[:, order],
                                 self.floor_len[:, order, None], (floors == MARKER).any(axis=-1)[..., None]], axis=-1)
        head = [self.offer[:, 1:].reshape(count, -1), self.offer[:, 0], ((self.marker == CENTRE) & ~over)[:, None],
                self.bag, self.lid, self.round[:, None], np.where(over, players, (self.turn - seat) % players)[:, None],
                np.zeros((count, 1), dtype=np.int64), boards.reshape(count, -1)]
        return np.concatenate(head, axis=1).astype(np.int16)

    def seat_masks(self, seat: int) -> np.ndarray:
        """(tables, actions) int8: `seat`'s legal actions on every table (none where it is not to move)."""
        masks = np.zeros((self.count, action_count(self.players)), dtype=np.int8)
        idx = np.flatnonzero(self.turn == seat)  # -1 once over
        masks[idx, :masks.shape[1] - 25] = self.masks(idx, np.full(len(idx), seat))
        return masks

    def export(self, table: int) -> dict[str, Any]:
        """Table `table` as a canonical state (the Python engine's `export`)."""
        walls = ((self.rows[table][..., None] >> FIVE) & 1).tolist()
        return {
            "players": self.players, "round": int(self.round[table]), "moves": int(self.moves[table]),
            "turn": int(self.turn[table]), "starter": int(self.starter[table]), "marker": int(self.marker[table]),
            "factories": self.offer[table, 1:].tolist(), "centre": self.offer[table, 0].tolist(),
            "bag": self.bag[table].tolist(), "lid": self.lid[table].tolist(),
            "boards": [{"score": int(self.scores[table, seat]), "wall": walls[seat],
                        "lines": [[int(colour), int(count)] for colour, count
                                  in zip(self.line_colour[table, seat], self.line_count[table, seat])],
                        "floor": [int(item) for item in self.floor[table, seat] if item >= 0]}
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
    """`num_envs` tables of Azul on the coloured wall, the rules batched in numpy (`Tables`), as Gymnasium's
    vector API: one seat learns, the others play uniformly random legal moves (next-step autoreset)."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP,  # noqa: RUF012 (VectorEnv declares none)
                                "render_modes": ["ansi"]}

    def __init__(self, num_envs: int = 64, players: int = 2, seat: int = 0, win_reward: float = 1.0,
                 illegal: str = "lose", max_moves: int = MAX_MOVES, render_mode: str | None = None,
                 variant: str = STANDARD) -> None:
        if not (isinstance(num_envs, int) and num_envs >= 1):
            raise InputError(f"num_envs {num_envs!r}: expected a whole number >= 1")
        check_settings(players, seat, illegal, variant, render_mode, self.metadata["render_modes"])
        if variant != STANDARD:
            raise InputError(f"AzulBatchedEnv plays the coloured wall only, not {variant!r}: "
                             f"use AzulVectorEnv for the grey wall")
        self.num_envs, self.players, self.seat, self.illegal = num_envs, players, seat, illegal
        self.win_reward, self.max_moves, self.render_mode = float(win_reward), max_moves, render_mode
        self.single_observation_space, self.single_action_space = seat_spaces(players, variant)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.tables = Tables(num_envs, players, np.random.default_rng())
        self._masks = np.zeros((num_envs, self.single_action_space.n), dtype=np.int8)
        self._ended = np.zeros(num_envs, dtype=bool)  # the tables to reset on the next step

    def _observe(self) -> dict[str, np.ndarray]:
        """The seat's observation of every table, and its masks (fresh arrays)."""
        self._masks = self.tables.seat_masks(self.seat)
        return {"observation": self.tables.observations(self.seat), "action_mask": self._masks}

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """New games on every table (or those of `options["reset_mask"]`), played by the others up to the seat's
        first move; `seed` seeds the one generator of all the tables' chance and opponents."""
        if not (seed is None or isinstance(seed, int)):
            raise InputError(f"reset: seed {seed!r}: expected an integer or None (one generator for all tables)")
        super().reset(seed=seed)
        self.tables.rng = self.np_random
        chosen = (options or {}).get("reset_mask", np.ones(self.num_envs, dtype=bool))
        if not (isinstance(chosen, np.ndarray) and chosen.shape == (self.num_envs,) and chosen.dtype == bool):
            raise InputError(f"reset: options['reset_mask'] must be a bool array of shape ({self.num_envs},)")
        self.tables.new_games(np.flatnonzero(chosen))
        self.tables.play_others(self.seat, self.max_moves)
        self._ended[chosen] = False
        return self._observe(), {}

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One action per table (ignored on a table that ended on the last step: it starts its next game)."""
        tables, seat = self.tables, self.seat
        actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)
        restart = self._ended
        before = tables.scores[:, seat].copy()
        inside = (actions >= 0) & (actions < self._masks.shape[1])
        legal = ~restart & inside & (self._masks[np.arange(self.num_envs), np.where(inside, actions, 0)] > 0)
        illegal = ~restart & ~legal
        if illegal.any() and self.illegal == "raise":
            index = int(np.flatnonzero(illegal)[0])
            raise InputError(f"table {index}: action {actions[index]} is not legal for player_{seat} now")
        if restart.any():
            tables.new_games(np.flatnonzero(restart))
        acting = np.flatnonzero(legal)
        if acting.size:
            tables.play(acting, np.full(len(acting), seat), actions[acting])
        tables.play_others(seat, self.max_moves)
        finished = legal & tables.over
        rewards = np.where(legal, tables.scores[:, seat] - before, 0).astype(np.float64)
        if finished.any():
            rewards += np.where(finished, np.where(tables.winners()[:, seat], self.win_reward, -self.win_reward), 0.0)
        rewards[illegal] = -self.win_reward
        terminations = finished | illegal
        truncations = legal & ~tables.over & (tables.moves >= self.max_moves)
        self._ended = terminations | truncations
        infos: dict[str, Any] = {"scores": tables.scores.copy(), "_scores": np.ones(self.num_envs, dtype=bool)}
        if illegal.any():
            infos["illegal"], infos["_illegal"] = illegal, illegal.copy()
        return self._observe(), rewards, terminations, truncations, infos

    def render(self) -> tuple[str, ...] | None:
        """Every table as text ("ansi")."""
        texts = [render_text(self.tables.export(table), self.render_mode) for table in range(self.num_envs)]
        return None if None in texts else tuple(text for text in texts if text is not None)

