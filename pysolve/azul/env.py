"""Azul for reinforcement learning: a PettingZoo AEC environment and a Gymnasium single-agent wrapper.

`AzulEnv(players)` is PettingZoo's agent-environment cycle over `tree.State`:
agents `player_0`.. are the seats, the action space is fixed (`Discrete`, one
action per source x colour x destination, then one per wall cell for the grey
wall's column choices, which the coloured wall never offers;
`action_index`/`action_move`), each
observation is `{"observation": int16 array, "action_mask": int8 array}`
(fields in docs/azul.md, "The PettingZoo environment"), the rewards of a step
are every seat's score change plus, at the end, +/-`win_reward` for winners
and the others. Chance (the opening seat, every dealt tile) is drawn inside
the environment from the game's `RandomStream`, so `reset(seed=S)` deals the
game `play_match` deals with seed S. `AzulGymEnv` is one seat of it as a
Gymnasium `Env`, the other seats played by a named strategy.

Needs the optional group `rl` (`pip install pysolve[rl]`): pettingzoo,
gymnasium and numpy are imported here only.
"""

from __future__ import annotations

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
    pending_line,
)
from pysolve.azul.strategies import Strategy, strategy
from pysolve.azul.tree import Game, State
from pysolve.errors import InputError

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
    """The action number of a move (source, colour, destination) or, given the `players` whose action space it
    is, a column choice (WALL, row, column)."""
    source, colour, destination = move
    if source == WALL:
        if players is None:
            raise InputError("a column choice's action number depends on the players: action_index(move, players)")
        return taking_actions(players) + colour * 5 + destination
    return ((source + SOURCES_OFFSET) * 5 + colour) * DESTINATIONS + destination


def action_move(action: int, players: int | None = None) -> Move:
    """The move an action number stands for: (source, colour, destination), or, given the `players` whose action
    space it is, (WALL, row, column) past the moves taking tiles."""
    cell = int(action) - taking_actions(players) if players else -1
    if cell >= 0:
        return (WALL, *divmod(cell, 5))
    block, destination = divmod(int(action), DESTINATIONS)
    source, colour = divmod(block, 5)
    return (source - SOURCES_OFFSET, colour, destination)


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


def observe_state(state: State, seat: int) -> np.ndarray:
    """The observation of `seat`: the offer, bag and lid, round, who moves, then the boards from `seat` on."""
    table = state.table
    players = table.players
    values: list[int] = [count for factory in table.factories for count in factory]
    values += table.centre
    values.append(1 if table.marker == CENTRE and not table.over else 0)
    values += table.bag + table.lid
    values.append(table.round)
    values.append(players if table.over else (table.turn - seat) % players)
    values.append(1 + pending_line(list(zip(table.line_colours[table.turn], table.line_counts[table.turn])))
                  if table.tiling else 0)
    for offset in range(players):
        other = (seat + offset) % players
        values.append(table.scores[other])
        if table.variant == GREY:
            values += [colour + 1 for row in table.colours[other] for colour in row]
        else:
            values += [cell for row in table.walls[other] for cell in row]
        values += table.line_colours[other] + table.line_counts[other]
        floor = table.floors[other]
        values += [len(floor), 1 if MARKER in floor else 0]
    return np.array(values, dtype=np.int16)


def action_mask(state: State, players: int) -> np.ndarray:
    """1 for each action that is a legal move of the seat to move, else 0."""
    mask = np.zeros(action_count(players), dtype=np.int8)
    for move in state.legal_moves():
        mask[action_index(move, players)] = 1
    return mask


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
    """Azul as a PettingZoo AEC environment: seats `player_0`.., masked Discrete actions, seeded chance."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human"], "name": "azul_v0",
                                          "is_parallelizable": False}

    def __init__(self, players: int = 2, win_reward: float = 1.0, max_moves: int = MAX_MOVES,
                 render_mode: str | None = None, variant: str = STANDARD) -> None:
        super().__init__()
        self.game = Game(players, variant=variant)
        self.players = players
        self.win_reward = float(win_reward)
        self.max_moves = max_moves
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise InputError(f"render_mode {render_mode!r}: expected one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        low, high = observation_bounds(players, variant)
        count = action_count(players)
        self.observation_spaces = {agent: spaces.Dict({
            "observation": spaces.Box(low, high, dtype=np.int16),
            "action_mask": spaces.Box(0, 1, (count,), dtype=np.int8)}) for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(count) for agent in self.possible_agents}
        self._seeds = np.random.default_rng()
        self.seed_used = 0
        self.reset()

    def observation_space(self, agent: str) -> spaces.Space:
        """The observation space of `agent` (a Dict of observation and action mask)."""
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

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """What `agent` sees: the table from its seat, and its action mask (all 0 unless it moves)."""
        seat = self.possible_agents.index(agent)
        mover = self.state.current_player == seat
        mask = action_mask(self.state, self.players) if mover else np.zeros(action_count(self.players), np.int8)
        return {"observation": observe_state(self.state, seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Play the selected agent's action (a legal one; None once it is done), then draw chance."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        move = action_move(action, self.players)  # type: ignore[arg-type]
        if move not in self.state.legal_moves():
            raise InputError(f"action {action} = move {move} is not legal for {agent}")
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
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The table as text ("ansi" returns it, "human" prints it)."""
        if self.render_mode is None:
            gymnasium.logger.warn("AzulEnv.render() called without a render_mode")
            return None
        text = draw_table(self.state.to_json())
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to free."""


class AzulGymEnv(gymnasium.Env):
    """One seat of `AzulEnv` as a Gymnasium Env; the other seats play `opponent` (a strategy name or callable).

    The observation is the AEC one (a Dict with the action mask); the reward
    of a step is the seat's score change from its move to its next turn (or
    the end) plus the win signal. An illegal action ends the episode with
    reward -`win_reward` and info `illegal` (Gymnasium samples actions without
    the mask), unless `illegal="raise"`.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"]}  # noqa: RUF012 (gymnasium.Env declares no ClassVar)

    def __init__(self, players: int = 2, seat: int = 0, opponent: str | Strategy = "greedy",
                 win_reward: float = 1.0, illegal: str = "lose", max_moves: int = MAX_MOVES,
                 render_mode: str | None = None, variant: str = STANDARD) -> None:
        super().__init__()
        if seat not in range(players):
            raise InputError(f"seat {seat}: expected 0..{players - 1}")
        if illegal not in ("lose", "raise"):
            raise InputError(f"illegal={illegal!r}: expected 'lose' or 'raise'")
        self.aec = AzulEnv(players, win_reward, max_moves, render_mode, variant)
        self.seat, self.agent, self.illegal = seat, f"player_{seat}", illegal
        self.opponent = strategy(opponent)
        self.render_mode = render_mode
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)

    def _others(self) -> None:
        """Let the other seats play their strategy (reading the game's stream) until this seat moves or the end."""
        env = self.aec
        while not (env.terminations[self.agent] or env.truncations[self.agent]) and env.agent_selection != self.agent:
            state = env.state
            move = self.opponent(state.to_json(), list(state.legal_moves()), env.stream)
            env.step(action_index(move, env.players))

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """A new game (seeded like `AzulEnv.reset`), played by the others up to this seat's first move."""
        super().reset(seed=seed)
        self.aec.reset(seed=seed if seed is not None else int(self.np_random.integers(2**31)))
        self._others()
        return self.aec.observe(self.agent), {"seed": self.aec.seed_used}

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        """Play `action`, then the others; the reward is this seat's score change meanwhile (+ win signal)."""
        env = self.aec
        if action_move(action, env.players) not in env.state.legal_moves():
            if self.illegal == "raise":
                move = action_move(action, env.players)
                raise InputError(f"action {action} = move {move} is not legal for {self.agent}")
            return env.observe(self.agent), -env.win_reward, True, False, {"illegal": True}
        env.step(int(action))
        self._others()
        reward = float(env._cumulative_rewards[self.agent])
        return (env.observe(self.agent), reward, env.terminations[self.agent], env.truncations[self.agent],
                {"scores": env.state.returns()})

    def render(self) -> str | None:
        """The table as text, as `AzulEnv.render`."""
        return self.aec.render()
