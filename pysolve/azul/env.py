"""Azul for reinforcement learning: a PettingZoo AEC environment and a Gymnasium single-agent wrapper.

| Import             | `from pysolve.azul.env import env` (or `raw_env`, `AzulEnv`) |
|--------------------|----------------------------------------|
| Actions            | Discrete, masked |
| Parallel API       | Yes: `vector.parallel_env` (turn-based) |
| Manual Control     | No (a person plays Azul with `pysolve play azul`) |
| Agents             | `['player_0', 'player_1']` (2 players) |
| Agents count       | 2, 3 or 4 (`players`) |
| Action Shape       | `()` |
| Action Values      | `Discrete(205)` (2 players), `Discrete(265)` (3), `Discrete(325)` (4) |
| Observation Shape  | `(120,)` (2 players), `(168,)` (3), `(216,)` (4); the action mask as long as the actions |
| Observation Values | `-1` to `5000`, int16 (each field's range below); the mask `0` or `1`, int8 |

## Description

Azul is a tile-drafting game for 2 to 4 players: on a turn a player takes
every tile of one colour from a factory or the centre and puts them on one
pattern line of their board (or the floor); a round ends when the offer is
empty, full lines move to the wall and score, the floor costs points, and
the game ends after the round in which a wall row is complete.
`AzulEnv(players)` is PettingZoo's agent-environment cycle over
`tree.State`; the agents are the seats, and `agent_selection` is the seat to
move (not a fixed cycle: the holder of the first-player marker opens the
next round). Chance (the opening seat, every dealt tile) is drawn inside the
environment from the game's `RandomStream`, never shown as a step, so
`reset(seed=S)` deals the game `play_match` deals with seed S.
`AzulGymEnv` is one seat of it as a Gymnasium `Env`, the other seats played
by a named strategy; it plays its table on the Python engine directly
(`Seat`), the same games faster, and `vector.AzulVectorEnv` steps many such
tables together. `variant="grey"` plays the grey wall, with the same spaces.

## Observation Space

`AzulEnv` gives a dict, `{"observation": int16 array, "action_mask": int8
array}`, as PettingZoo's classic games do; `env()` and `raw_env()` (and any
environment made with `mask_in="info"`) give the int16 array alone, and each
agent's `info["action_mask"]` holds its mask. The array is seen from the
observer's seat: with F factories and n players its
5F + 19 + 38n fields are the offer (tiles of each colour per factory, then
the centre, and whether the first-player marker is there), the bag's and the
lid's colour counts, the round, the seat to move counted from the observer
(n once the game is over), the pattern line whose tile's column the grey
wall's seat chooses, then one board of 38 fields per seat, the observer's
first: score, wall (25), line colours (5, -1 empty), line counts (5), floor
items and whether the floor holds the marker. Only the order of the tiles in
the bag is hidden. The table of fields is in docs/azul.md, "The PettingZoo
environment"; `observation_bounds` gives each field's range.

### Legal Actions Mask

`action_mask` has a 1 for each legal move of the agent (exactly
`State.legal_moves()`) and is all 0 for an agent that is not to move. It
comes from the engine's legal moves (`moves_mask`) or, for many
observations at once, from the observations themselves (`legal_masks`,
batched in numpy).

## Action Space

One fixed `Discrete` space per player count, the same for both walls:
action `((source + 1) * 5 + colour) * 6 + destination` is the move
`(source, colour, destination)` (source -1 the centre, 0.. a factory;
destination 0 the floor, 1..5 a pattern line); past those, action
`(factories + 1) * 30 + row * 5 + column` chooses a grey wall's cell for a
full line's tile, which the coloured wall never offers. `action_index` and
`action_move` convert. An illegal action raises `InputError`; with
`illegal="lose"` it ends the game, lost by the agent that played it.

## Rewards

After each step every agent gets its score change over the step (most steps
give 0: scores change when a round's walls are tiled and by the end
bonuses). When the game ends:

| Winner (highest score, then most complete rows; shared) | Every other seat |
|:---:|:---:|
| score change + `win_reward` (1.0) | score change - `win_reward` |

`terminations` are set when the game is over, `truncations` once
`max_moves` moves were played.

## Version History

* v0: first release (`metadata["name"]` is `azul_v0`).

## Usage

>>> from pysolve.azul.env import AzulEnv
>>> env = AzulEnv(players=2)
>>> env.reset(seed=42)
>>> for agent in env.agent_iter():
...     observation, reward, termination, truncation, info = env.last()
...     if termination or truncation:
...         action = None
...     else:
...         mask = observation["action_mask"]
...         action = int(env.action_space(agent).sample(mask))  # where a policy would choose
...     env.step(action)
>>> env.state.is_terminal
True

The same game through Gymnasium, one seat against `greedy`, by its registered id:

>>> import gymnasium
>>> from pysolve.azul.env import GYM_ID
>>> seat = gymnasium.make(GYM_ID, opponent="greedy", mask_in="info")
>>> observation, info = seat.reset(seed=42)
>>> observation.shape, info["action_mask"].shape
((120,), (205,))

Needs the optional group `rl` (`pip install pysolve[rl]`): pettingzoo,
gymnasium and numpy are imported here only.
"""

from __future__ import annotations

import functools
from itertools import chain, compress
from typing import Any, ClassVar

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as missing:  # pragma: no cover - depends on the installation
    raise ImportError(f"pysolve.azul.env needs the optional packages of `pip install pysolve[rl]` "
                      f"(pettingzoo, gymnasium, numpy): {missing}") from missing

from pysolve.azul.draw import table as draw_table
from pysolve.azul.match import LazyState
from pysolve.azul.model import (
    CENTRE,
    FACTORIES,
    GREY,
    MARKER,
    MAX_MOVES,
    STANDARD,
    TOTAL_TILES,
    WALL,
    Move,
    RandomStream,
    check_players,
    check_variant,
    complete_rows,
    pending_line,
    wall_column,
    winners_of,
)
from pysolve.azul.python import PythonEngine, Table
from pysolve.azul.seeded import random_feasible
from pysolve.azul.strategies import Strategy, strategy
from pysolve.azul.tree import MOVING, PYTHON_ENGINE, Game, State
from pysolve.errors import InputError
from pysolve.files import excerpt

SOURCES_OFFSET = 1  # source -1 (the centre) is action block 0
DESTINATIONS = 6    # 0 the floor, 1..5 a pattern line
BOARD_FIELDS = 38   # score 1, wall 25, line colours 5, line counts 5, floor items 1, holds marker 1
WALL_CELLS = 25     # the actions choosing a grey wall's cell (row, column) for a full line's tile
MAX_SCORE = 1000    # an upper bound of any Azul score, for the observation space


def taking_actions(players: int) -> int:
    """How many actions take tiles: (centre + factories) x 5 colours x 6 destinations; the 25 wall cells follow."""
    return (FACTORIES[players] + 1) * 5 * DESTINATIONS


def action_count(players: int) -> int:
    """The size of the fixed action space: the moves taking tiles, then a grey wall's 25 cells."""
    return taking_actions(players) + WALL_CELLS


def action_index(move: Move, players: int | None = None) -> int:
    """The action number of a move or of a grey wall's column choice.

    The action number of a move (source, colour, destination) or, given the `players` whose action space it
    is, a column choice (WALL, row, column).
    """
    source, colour, destination = move
    if source == WALL:
        if players is None:
            raise InputError("a column choice's action number depends on the players: action_index(move, players)")
        return taking_actions(players) + colour * 5 + destination
    return ((source + SOURCES_OFFSET) * 5 + colour) * DESTINATIONS + destination


def action_move(action: int, players: int | None = None) -> Move:
    """The move an action number stands for.

    (source, colour, destination), or, given the `players` whose action space it is, (WALL, row, column) past
    the moves taking tiles.
    """
    cell = int(action) - taking_actions(players) if players else -1
    if cell >= 0:
        return (WALL, *divmod(cell, 5))
    block, destination = divmod(int(action), DESTINATIONS)
    source, colour = divmod(block, 5)
    return (source - SOURCES_OFFSET, colour, destination)


# players -> the move of each action number, and action_index as a dict (the wall cells' numbers depend on players)
ACTION_MOVES = {players: [action_move(action, players) for action in range(action_count(players))]
                for players in FACTORIES}
ACTION_NUMBERS = {players: {move: action for action, move in enumerate(moves)}
                  for players, moves in ACTION_MOVES.items()}


def observation_bounds(players: int, variant: str = STANDARD) -> tuple[np.ndarray, np.ndarray]:
    """Lowest and highest value of every observation field (the layout of `observe`)."""
    low: list[int] = []
    high: list[int] = []

    def field(size: int, lowest: int, highest: int) -> None:
        low.extend([lowest] * size)
        high.extend([highest] * size)

    field(FACTORIES[players] * 5, 0, 4)        # factories: tiles per colour
    field(5, 0, TOTAL_TILES)                   # centre
    field(1, 0, 1)                             # the marker is in the centre
    field(10, 0, TOTAL_TILES)                  # bag, lid
    field(1, 0, MAX_MOVES)                     # round
    field(1, 0, players)                       # seat to move, counted from the observer (players once over)
    field(1, 0, 5)                             # the pattern line whose tile's column is chosen (0: none)
    for _ in range(players):
        field(1, 0, MAX_SCORE)                 # score
        field(25, 0, 5 if variant == GREY else 1)  # wall: 1 = tiled (grey: 1 + the tile's colour)
        field(5, -1, 4)                        # line colours
        field(5, 0, 5)                         # line counts
        field(1, 0, 7)                         # floor items
        field(1, 0, 1)                         # holds the marker
    return np.array(low, dtype=np.int16), np.array(high, dtype=np.int16)


def observation_values(table: Table, seat: int) -> list[int]:
    """The observation of `seat` as a list of ints (the layout of `observation_bounds`), read off the table."""
    players = table.players
    values = list(chain.from_iterable(table.factories))
    values += table.centre
    values.append(1 if table.marker == CENTRE and not table.over else 0)
    values += table.bag
    values += table.lid
    values.append(table.round)
    values.append(players if table.over else (table.turn - seat) % players)
    values.append(1 + pending_line(list(zip(table.line_colours[table.turn], table.line_counts[table.turn])))
                  if table.tiling else 0)
    grey = table.variant == GREY
    for offset in range(players):
        other = (seat + offset) % players
        values.append(table.scores[other])
        if grey:
            values += [colour + 1 for colour in chain.from_iterable(table.colours[other])]
        else:
            values += chain.from_iterable(table.walls[other])
        values += table.line_colours[other]
        values += table.line_counts[other]
        floor = table.floors[other]
        values.append(len(floor))
        values.append(1 if MARKER in floor else 0)
    return values


def observe_state(state: State, seat: int) -> np.ndarray:
    """The observation of `seat`: the offer, bag and lid, round, who moves, then the boards from `seat` on."""
    return np.array(observation_values(state.table, seat), dtype=np.int16)


class MaskLayout:
    """Where `legal_masks` reads an observation of `players` on `variant`'s wall (index arrays, made once)."""

    def __init__(self, players: int, variant: str) -> None:
        factories = FACTORIES[players]
        offer = factories * 5
        self.grey = variant == GREY
        self.sources = np.array([offer + colour for colour in range(5)]
                                + [factory * 5 + colour for factory in range(factories) for colour in range(5)])
        self.source_count = factories + 1  # the centre, then the factories, as the actions order them
        self.to_move = offer + 17
        self.tiling = offer + 18  # the pattern line whose column is chosen (0: none)
        board = offer + 19  # the observer's own board
        self.wall = slice(board + 1, board + 26)
        self.line_colours = slice(board + 26, board + 31)
        self.line_counts = slice(board + 31, board + 36)
        # standard wall: the cell of colour c in row i is i * 5 + (c + i) % 5
        self.cells = np.array([[row * 5 + wall_column(row, colour) for colour in range(5)] for row in range(5)])


@functools.cache
def mask_layout(players: int, variant: str) -> MaskLayout:
    """The `MaskLayout` of `players` and `variant` (one per process)."""
    return MaskLayout(players, variant)


COLOUR_RANGE = np.arange(5)


def legal_masks(observations: np.ndarray, players: int, variant: str = STANDARD) -> np.ndarray:
    """The action masks of many observations, each computed from its observation alone.

    The action masks of observations (shape (..., fields) -> (..., actions), int8), each computed from
    its observation alone: a move is legal when its source holds the colour and its line takes it (empty
    with the colour not yet in the wall row, or partly filled with it; the floor always does), a grey
    wall's cell when it is in the row being tiled, free, and its column lacks the line's colour; only for
    the observer to move. Batched: one call for all the tables of a vector environment.
    """
    layout = mask_layout(players, variant)
    batch = observations.shape[:-1]
    wall = observations[..., layout.wall]
    moving = observations[..., layout.to_move] == 0
    if layout.grey:  # a grey cell holds 1 + its tile's colour: the row holds colour c where a cell is c + 1
        held = (wall.reshape(*batch, 5, 5, 1) == COLOUR_RANGE + 1).any(axis=-2)
    else:
        held = wall[..., layout.cells] > 0
    colours = observations[..., layout.line_colours]
    counts = observations[..., layout.line_counts]
    empty = (counts == 0)[..., None]
    open_line = ((counts > 0) & (counts <= COLOUR_RANGE))[..., None]  # partly filled: line i holds at most i
    takes = (empty & ~held) | (open_line & (colours[..., None] == COLOUR_RANGE))  # (..., line, colour)
    allowed = np.ones((*batch, 5, DESTINATIONS), dtype=bool)  # (..., colour, destination): the floor always
    allowed[..., 1:] = np.swapaxes(takes, -1, -2)
    offered = observations[..., layout.sources].reshape(*batch, layout.source_count, 5, 1) > 0
    mask = offered & allowed[..., None, :, :]
    mask &= moving.reshape(*batch, 1, 1, 1)
    cells = _column_cells(observations, layout, wall) if layout.grey else np.zeros((*batch, 5, 5), dtype=bool)
    cells &= moving[..., None, None]
    return np.concatenate([mask.reshape(*batch, -1), cells.reshape(*batch, -1)], axis=-1).view(np.int8)


def _column_cells(observations: np.ndarray, layout: MaskLayout, wall: np.ndarray) -> np.ndarray:
    """(..., row, column): the grey wall cells the observer's top full line may take while it tiles (the
    factories are empty then, so no move taking tiles is legal with them)."""
    batch = observations.shape[:-1]
    pending = observations[..., layout.tiling].astype(np.intp)
    row = np.maximum(pending - 1, 0)[..., None]  # (..., 1)
    colour = np.take_along_axis(observations[..., layout.line_colours], row, axis=-1)  # (..., 1)
    grid = wall.reshape(*batch, 5, 5)
    free = np.take_along_axis(grid, row[..., None].repeat(5, axis=-1), axis=-2)[..., 0, :] == 0  # (..., column)
    taken = (grid == (colour + 1)[..., None]).any(axis=-2)  # (..., column): the colour already in that column
    in_row = (row == COLOUR_RANGE)[..., None]  # (..., row, 1): the row tiled (any, when none is)
    return in_row & (free & ~taken & (pending > 0)[..., None])[..., None, :]


# a colour's destinations (the floor, then the lines taking it, as `PythonEngine.destinations` lists them) -> its
# row of 6 mask bytes
PLACES = {(0, *lines): bytes(1 if place == 0 or place in lines else 0 for place in range(DESTINATIONS))
          for lines in (tuple(line for line in range(1, DESTINATIONS) if bits >> line & 1) for bits in range(0, 64, 2))}
NO_PLACE = bytes(DESTINATIONS)
NO_CELL = bytes(WALL_CELLS)  # the column choices' part of a mask when the seat takes tiles


def table_mask(table: Table, seat: int) -> np.ndarray:
    """1 for each legal action of `seat` on `table`, all 0 unless it is to move (a fresh array).

    The mask of `moves_mask(PYTHON_ENGINE.legal_moves(table))`, written straight from the lines' destinations
    without listing the moves: per source, each colour it offers gets that colour's row of places (a test
    compares them); a grey wall's column choice goes through the moves.
    """
    players = table.players
    if table.turn != seat:  # another seat's turn, or the game is over (turn -1)
        return np.zeros(action_count(players), dtype=np.int8)
    if table.tiling:
        return moves_mask(PYTHON_ENGINE.legal_moves(table), players)
    rows = [PLACES[tuple(places)] for places in PythonEngine.destinations(table, seat)]
    blocks = [row if count else NO_PLACE
              for counts in (table.centre, *table.factories) for row, count in zip(rows, counts)]
    return np.frombuffer(bytearray(b"".join(blocks) + NO_CELL), dtype=np.int8)


def random_feasible_move(table: Table, stream: RandomStream) -> Move:
    """The move `random_feasible` picks on `table` (`seeded.random_feasible(state, legal_moves, stream)`).

    The same move from the same number of the stream, counted instead of listed: the moves putting a tile on
    a line are, in canonical order, each (source, colour) offered times the lines taking the colour, so the
    number picks a (source, colour) and a line; with no such move, the floor moves, one per (source, colour).
    A grey wall's column choice goes through the listed moves.
    """
    if table.tiling:
        return random_feasible({}, PYTHON_ENGINE.legal_moves(table), stream)
    places = PythonEngine.destinations(table, table.turn)
    lines = [len(colour_places) - 1 for colour_places in places]  # the lines taking each colour
    sources = (table.centre, *table.factories)
    weights = [sum(compress(lines, counts)) for counts in sources]  # each source's moves
    floor = not any(weights)
    if floor:  # no line takes an offered colour: every move goes to the floor, one per (source, colour)
        lines, weights = [1] * 5, [5 - counts.count(0) for counts in sources]
    number = stream.next() % sum(weights)
    for source, (counts, weight) in enumerate(zip(sources, weights), start=CENTRE):
        if number >= weight:
            number -= weight
            continue
        for colour in compress(range(5), counts):
            if number < lines[colour]:
                return (source, colour, 0 if floor else places[colour][number + 1])
            number -= lines[colour]
    raise AssertionError("unreachable: the number is below the moves counted")


def moves_mask(moves: list[Move], players: int) -> np.ndarray:
    """1 for the action of each move in `moves`, else 0.

    One table's mask from the legal moves the engine listed (cheaper than `legal_masks` for a single
    table, the same mask: a test compares them).
    """
    mask = np.zeros(action_count(players), dtype=np.int8)
    mask[list(map(ACTION_NUMBERS[players].__getitem__, moves))] = 1
    return mask


Observation = dict[str, np.ndarray] | np.ndarray  # with the action mask, or (`mask_in="info"`) without


def game_seed(seed: int | None, generator: np.random.Generator) -> int:
    """The seed of the next game: `seed` itself, else the next number of the environment's generator."""
    return int(seed) if seed is not None else int(generator.integers(2**31))


def settle(state: State, stream: RandomStream) -> None:
    """Draw every chance outcome (opening seat, dealt tiles) from `stream` until a seat moves or the game ends."""
    while state.is_chance_node:
        state.apply_chance(state.sample_chance(stream))


def win_signal(state: State, win_reward: float) -> list[float]:
    """At the end: +win_reward for each winner, -win_reward for every other seat."""
    winners = state.winners()
    return [win_reward if seat in winners else -win_reward for seat in range(state.table.players)]


class AzulEnv(AECEnv):
    """Azul as a PettingZoo AEC environment: seats `player_0`.., masked Discrete actions, seeded chance.

    An illegal action raises InputError, or, with `illegal="lose"` (for agents that act without the mask, as
    PettingZoo's parallel seed test does), ends the game lost by the seat that played it (`_forfeit`).
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human"], "render_fps": 4, "name": "azul_v0",
                                          "is_parallelizable": False}

    def __init__(self, players: int = 2, win_reward: float = 1.0, max_moves: int = MAX_MOVES,
                 render_mode: str | None = None, variant: str = STANDARD, illegal: str = "raise",
                 mask_in: str = "observation") -> None:
        super().__init__()
        check_settings(players, 0, illegal, variant, render_mode, self.metadata["render_modes"])
        self.mask_in = check_mask_in(mask_in)
        self.game = Game(players, variant=variant)
        self.players = players
        self.win_reward = float(win_reward)
        self.max_moves = max_moves
        self.illegal = illegal
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        observation_space, action_space = seat_spaces(players, variant, mask_in)
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, action_space)
        self._seeds = np.random.default_rng()
        self.seed_used = 0
        self.reset()

    def observation_space(self, agent: str) -> spaces.Space:
        """The observation space of `agent`: a Dict of observation and action mask, or the Box alone."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """The action space of `agent`: Discrete over source x colour x destination."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; `seed` fixes its chance (the same seed, the same game for the same actions)."""
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        self.seed_used = game_seed(seed, self._seeds)
        self.stream = RandomStream(self.seed_used)
        self.state = self.game.new_initial_state()
        settle(self.state, self.stream)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.state.current_player]
        self._show_masks()

    def observe(self, agent: str) -> Observation:
        """What `agent` sees: the table from its seat, with its action mask unless `mask_in="info"`."""
        seat = self.possible_agents.index(agent)
        observation = observe_state(self.state, seat)
        if self.mask_in == "info":
            return observation
        return {"observation": observation, "action_mask": self.action_mask(agent)}

    def action_mask(self, agent: str) -> np.ndarray:
        """1 for each legal action of `agent`, all 0 unless it is to move."""
        seat = self.possible_agents.index(agent)
        moves = self.state.legal_moves() if self.state.current_player == seat else []
        return moves_mask(moves, self.players)

    def _show_masks(self) -> None:
        """With `mask_in="info"`, every agent's info holds its action mask now."""
        if self.mask_in == "info":
            for agent in self.agents:
                self.infos[agent] = {**self.infos[agent], "action_mask": self.action_mask(agent)}

    def step(self, action: int | None) -> None:
        """Play the selected agent's action (a legal one; None once it is done), then draw chance."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        move = action_move(action, self.players)  # type: ignore[arg-type]
        if move not in self.state.legal_moves():
            if self.illegal == "raise":
                raise InputError(f"action {action} = move {move} is not legal for {agent}")
            self._forfeit(agent)
            return
        before = self.state.returns()
        self._cumulative_rewards[agent] = 0.0
        self.state.apply_move(move)
        settle(self.state, self.stream)
        after = self.state.returns()
        rewards = [float(now - then) for now, then in zip(after, before)]
        if self.state.is_terminal:
            rewards = [reward + win for reward, win in zip(rewards, win_signal(self.state, self.win_reward))]
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.state.table.moves >= self.max_moves:
            self.truncations = dict.fromkeys(self.agents, True)
        self.rewards = dict(zip(self.possible_agents, rewards))
        if not self.state.is_terminal:
            self.agent_selection = self.possible_agents[self.state.current_player]
        self._show_masks()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _forfeit(self, agent: str) -> None:
        """`agent` played an illegal action (`illegal="lose"`): the game ends, lost by it (-win_reward); the
        best of the other seats by score so far, then complete rows, win (+win_reward), the rest lose."""
        table = self.state.table
        offender = self.possible_agents.index(agent)
        others = [seat for seat in range(self.players) if seat != offender]
        rows = [complete_rows(table.walls[seat]) for seat in others]
        winners = {others[index] for index in winners_of([table.scores[seat] for seat in others], rows)}
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {name: self.win_reward if seat in winners else -self.win_reward
                        for seat, name in enumerate(self.possible_agents)}
        self.terminations = dict.fromkeys(self.agents, True)
        self.infos[agent] = {**self.infos[agent], "illegal": True}
        self._show_masks()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The table as text ("ansi" returns it, "human" prints it)."""
        return render_text(self.state.to_json(), self.render_mode)

    def close(self) -> None:
        """Nothing to free."""


class Seat:
    """One table played from one seat: this seat's moves come from outside, the other seats play `opponent`.

    The fast path under `AzulGymEnv` and `vector.AzulVectorEnv`: the Python
    engine on a bare `Table` (no `State`, no AEC bookkeeping), chance drawn
    from the game's `RandomStream` as `AzulEnv` draws it (the opening seat,
    then each tile), the opponents reading the same stream, so a seed gives
    the game `AzulEnv` and the old wrapper gave.
    """

    __slots__ = ("engine", "max_moves", "opponent", "players", "seat", "stream", "table", "variant")

    def __init__(self, players: int, seat: int, opponent: Strategy, max_moves: int, variant: str) -> None:
        self.players, self.seat, self.opponent, self.max_moves = players, seat, opponent, max_moves
        self.variant = variant
        self.engine = PYTHON_ENGINE
        self.stream = RandomStream(0)
        self.table = Table(players, variant)

    @property
    def state(self) -> dict[str, Any]:
        """The canonical state (what a strategy reads, through a `LazyState`)."""
        return self.engine.export(self.table)

    def reset(self, seed: int) -> None:
        """A new game of seed `seed`, played by the others up to this seat's first move."""
        self.stream = stream = RandomStream(seed)
        self.table = self.engine.new_game(self.players, stream.below(self.players), stream, self.variant)
        self._others()

    def play(self, move: Move) -> int:
        """Play this seat's (legal) move, then the others' up to its next turn or the end; its score change."""
        table = self.table
        before = table.scores[self.seat]
        self.engine.play(table, move, self.stream)
        self._others()
        return table.scores[self.seat] - before

    def _others(self) -> None:
        """The other seats' moves until this seat is to move, the game is over or it reached `max_moves`."""
        table, engine, seat, stream, opponent = self.table, self.engine, self.seat, self.stream, self.opponent
        while not table.over and table.turn != seat and table.moves < self.max_moves:
            if opponent is random_feasible:
                move = random_feasible_move(table, stream)
            else:
                move = opponent(LazyState(self), engine.legal_moves(table), stream)
            engine.play(table, move, stream)

    @property
    def truncated(self) -> bool:
        """True once `max_moves` moves were played and the game is not over."""
        return not self.table.over and self.table.moves >= self.max_moves

    def win_signal(self, win_reward: float) -> float:
        """At the end, +win_reward if this seat wins (or shares the win), else -win_reward; 0 before."""
        if not self.table.over:
            return 0.0
        return win_reward if self.seat in self.engine.winners(self.table) else -win_reward


class AzulGymEnv(gymnasium.Env):
    """One seat of `AzulEnv` as a Gymnasium Env; the other seats play `opponent` (a strategy name or callable).

    The observation is the AEC one (a Dict with the action mask, or with
    `mask_in="info"` the array alone and the mask in `info["action_mask"]`); the reward
    of a step is the seat's score change from its move to its next turn (or
    the end) plus the win signal. An illegal action ends the episode with
    reward -`win_reward` and info `illegal` (Gymnasium samples actions without
    the mask), unless `illegal="raise"`. `state` is the position as a `State`
    (for agents that search it).
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 4}  # noqa: RUF012 (gymnasium.Env declares no ClassVar)

    def __init__(self, players: int = 2, seat: int = 0, opponent: str | Strategy = "greedy",
                 win_reward: float = 1.0, illegal: str = "lose", max_moves: int = MAX_MOVES,
                 render_mode: str | None = None, variant: str = STANDARD, mask_in: str = "observation") -> None:
        super().__init__()
        check_settings(players, seat, illegal, variant, render_mode, self.metadata["render_modes"])
        self.mask_in = check_mask_in(mask_in)
        self.players, self.seat, self.agent, self.illegal = players, seat, f"player_{seat}", illegal
        self.win_reward = float(win_reward)
        self.render_mode = render_mode
        self.seat_table = Seat(players, seat, strategy(opponent), max_moves, variant)
        self.observation_space, self.action_space = seat_spaces(players, variant, mask_in)
        self._mask = np.zeros(action_count(players), dtype=np.int8)

    @property
    def state(self) -> State:
        """The position as a `State` (shares the table: read it, search its `child`ren, do not apply to it)."""
        return State(PYTHON_ENGINE, self.seat_table.table, MOVING)

    def _observe(self) -> Observation:
        """This seat's observation and action mask now (fresh arrays), the mask kept for `_info`."""
        table = self.seat_table.table
        self._mask = table_mask(table, self.seat)
        observation = np.array(observation_values(table, self.seat), dtype=np.int16)
        if self.mask_in == "info":
            return observation
        return {"observation": observation, "action_mask": self._mask}

    def _info(self, **info: Any) -> dict[str, Any]:
        """A step's info, with the action mask when `mask_in="info"`."""
        return {**info, "action_mask": self._mask} if self.mask_in == "info" else info

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Observation, dict[str, Any]]:
        """A new game (seeded like `AzulEnv.reset`), played by the others up to this seat's first move."""
        super().reset(seed=seed)
        game = game_seed(seed, self.np_random)
        self.seat_table.reset(game)
        observation = self._observe()
        return observation, self._info(seed=game)

    def step(self, action: int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Play `action`, then the others; the reward is this seat's score change meanwhile (+ win signal)."""
        seat_table = self.seat_table
        if not (0 <= action < len(self._mask) and self._mask[action]):
            if self.illegal == "raise":
                raise InputError(f"action {action} is not legal for {self.agent} now")
            observation = self._observe()
            return observation, -self.win_reward, True, False, self._info(illegal=True)
        reward = seat_table.play(ACTION_MOVES[self.players][action]) + seat_table.win_signal(self.win_reward)
        observation = self._observe()
        return (observation, float(reward), seat_table.table.over, seat_table.truncated,
                self._info(scores=list(seat_table.table.scores)))

    def render(self) -> str | None:
        """The table as text ("ansi" returns it, "human" prints it)."""
        return render_text(self.seat_table.state, self.render_mode)


def check_settings(players: int, seat: int, illegal: str, variant: str, render_mode: str | None,
                   render_modes: list[str]) -> None:
    """InputError for the settings of a seat's environment (single or vector) that cannot be."""
    check_players(players)
    check_variant(variant)
    if seat not in range(players):
        raise InputError(f"seat {seat}: expected 0..{players - 1}")
    if illegal not in ("lose", "raise"):
        raise InputError(f"illegal={excerpt(illegal)}: expected 'lose' or 'raise'")
    if render_mode not in (None, *render_modes):
        raise InputError(f"render_mode {excerpt(render_mode)}: expected one of {render_modes}")


def seat_spaces(players: int, variant: str, mask_in: str = "observation") -> tuple[spaces.Space, spaces.Discrete]:
    """The observation space (observation and action mask, or the observation alone) and the action space."""
    low, high = observation_bounds(players, variant)
    count = action_count(players)
    observation = spaces.Box(low, high, dtype=np.int16)
    if mask_in == "info":
        return observation, spaces.Discrete(count)
    return (spaces.Dict({"observation": observation, "action_mask": spaces.Box(0, 1, (count,), dtype=np.int8)}),
            spaces.Discrete(count))


MASKS_IN = ("observation", "info")  # where an environment puts the action mask


def check_mask_in(mask_in: str) -> str:
    """`mask_in` itself when it is one of MASKS_IN, else InputError."""
    if mask_in not in MASKS_IN:
        raise InputError(f"mask_in={excerpt(mask_in)}: expected one of {', '.join(map(repr, MASKS_IN))}")
    return mask_in


def render_text(state: dict[str, Any], render_mode: str | None) -> str | None:
    """A canonical state as text for `render_mode` ("ansi" returns it, "human" prints it, None warns)."""
    if render_mode is None:
        gymnasium.logger.warn("render() called without a render_mode")
        return None
    text = draw_table(state)
    if render_mode == "human":
        print(text)
        return None
    return text


def raw_env(**settings: Any) -> AzulEnv:
    """PettingZoo's constructor: `AzulEnv(**settings)`, the observation an array and the mask in the info.

    Each agent's `info["action_mask"]` holds its mask (all 0 unless it moves), so that the observation is the
    NumPy array PettingZoo's tests expect; `mask_in="observation"` gives the Dict form instead.
    """
    return AzulEnv(**{"mask_in": "info", **settings})


def env(**settings: Any) -> AECEnv:
    """PettingZoo's wrapped constructor: `raw_env` behind PettingZoo's checks of order and action bounds."""
    from pettingzoo.utils import wrappers

    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(raw_env(**settings)))


GYM_ID = "pysolve/Azul-v0"  # gymnasium.make(GYM_ID) once this module is imported, or "pysolve.azul.env:" + GYM_ID
if GYM_ID not in gymnasium.registry:
    gymnasium.register(GYM_ID, entry_point="pysolve.azul.env:AzulGymEnv",
                       vector_entry_point="pysolve.azul.vector:AzulVectorEnv")
