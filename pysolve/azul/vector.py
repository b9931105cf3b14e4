"""Azul for learning at scale: N independent tables stepped together, as a Gymnasium vector environment.

| Import             | `from pysolve.azul.vector import AzulVectorEnv, parallel_env` |
|--------------------|------------------------------------|
| Actions            | Discrete per table, masked (`MultiDiscrete` for the batch) |
| Parallel API       | Yes: `parallel_env(players)` (turn-based) |
| Manual Control     | No |
| Agents             | one learning seat per table (`seat`); the others play `opponent` |
| Agents count       | 1 learning (`num_envs` tables of 2, 3 or 4 players) |
| Action Shape       | `(N,)` |
| Action Values      | `MultiDiscrete([205] * N)` (2 players; 265 a table for 3, 325 for 4) |
| Observation Shape  | `(N, 120)`, the action mask `(N, 205)` (2 players; 3 and 4 players as in env.py) |
| Observation Values | `-1` to `5000`, int16; the mask `0` or `1`, int8 |

## Description

`AzulVectorEnv(num_envs, players, seat, opponent, ...)` is `num_envs`
copies of `env.AzulGymEnv` (one seat of a table, the other seats played by
`opponent`) behind Gymnasium's vector API (`gymnasium.vector.VectorEnv`):
`reset` and `step` take and give batches. The tables are played on the
Python engine directly, every observation is encoded into one array at once
and every mask computed from the observations in one batched numpy pass
(`env.legal_masks`).

`engine="batched"` steps the tables through the rules batched in numpy
instead (`batched.AzulBatchedEnv(opponent="random")`, several times faster
at 64 tables), for the one setting they play: the coloured wall, opponents
`random`. Those opponents play the `random` strategy's law (uniformly among
the moves putting a tile on a line when there is one, else among all), but
the chance (the opening seat, the tiles dealt, the opponents' picks) comes
from one numpy generator for all the tables, not from each game's
`RandomStream`: the games are Azul's, not the seeded games of `AzulGymEnv`
and `SyncVectorEnv`. `reset(seed=S)` seeds that generator (a list of seeds
is refused) and its info is empty.

`parallel_env(players, ...)` is the PettingZoo parallel form of
`env.AzulEnv` (PettingZoo's own turn-based conversion: every step takes the
action of the seat to move from the actions given and ignores the others'),
for libraries that step PettingZoo parallel environments; its spaces are
`env.AzulEnv`'s.

## Observation Space

A Dict of an `(N, fields)` int16 array, each row `env.AzulEnv`'s observation
of the learning seat, and an `(N, actions)` int8 action mask; the fields and
their ranges are in `env`'s docstring and docs/azul.md.

## Action Space

One action per table, each the `Discrete` action of `env.AzulEnv`. A table
given an illegal action ends its episode with reward `-win_reward` and info
`illegal` (`illegal="lose"`, the default), or raises (`illegal="raise"`).

## Rewards

Arrays of shape `(N,)`: each table's reward is `env.AzulGymEnv`'s, the
seat's score change from its move until its next turn or the end, plus
`+win_reward` or `-win_reward` when the game ends. Terminations and
truncations are arrays of shape `(N,)` too. A table whose game ended is reset
on the next `step` (Gymnasium's default, next-step autoreset: that step
ignores its action and gives its new game's first observation with reward
0).

Seeds work as in Gymnasium's `SyncVectorEnv` over `AzulGymEnv`s:
`reset(seed=S)` gives table i the game of seed S + i (a list gives one seed
per table), and each table draws the seed of its next game from its own
generator, seeded by its reset. So the vector environment steps exactly the
games that `SyncVectorEnv([AzulGymEnv] * N)` steps (a test checks it).

## Version History

* v0: first release.

## Usage

>>> import numpy as np
>>> from pysolve.azul.vector import AzulVectorEnv
>>> envs = AzulVectorEnv(num_envs=4, players=2)
>>> observations, infos = envs.reset(seed=42)
>>> observations["observation"].shape, observations["action_mask"].shape
((4, 120), (4, 205))
>>> actions = np.array([np.flatnonzero(mask)[0] for mask in observations["action_mask"]])
>>> observations, rewards, terminations, truncations, infos = envs.step(actions)
>>> rewards.shape
(4,)

Needs the optional group `rl` (`pip install pysolve[rl]`), as `env` does.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from typing import Any

import numpy as np
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space
from pettingzoo import ParallelEnv
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from pysolve.azul.batched import RANDOM, AzulBatchedEnv
from pysolve.azul.env import (
    ACTION_MOVES,
    AzulEnv,
    Seat,
    check_settings,
    game_seed,
    legal_masks,
    observation_bounds,
    observation_values,
    render_text,
    seat_spaces,
)
from pysolve.azul.model import MAX_MOVES, STANDARD
from pysolve.azul.strategies import Strategy, strategy
from pysolve.errors import InputError
from pysolve.files import excerpt

PYTHON, BATCHED = "python", "batched"  # the engines of AzulVectorEnv's tables
ENGINES = (PYTHON, BATCHED)


class AzulVectorEnv(VectorEnv):
    """`num_envs` tables of `AzulGymEnv(players, seat, opponent, ...)` stepped together (next-step autoreset)."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP,  # noqa: RUF012 (VectorEnv declares none)
                                "render_modes": ["ansi"]}

    def __init__(self, num_envs: int = 8, players: int = 2, seat: int = 0, opponent: str | Strategy = "random",
                 win_reward: float = 1.0, illegal: str = "lose", max_moves: int = MAX_MOVES,
                 render_mode: str | None = None, variant: str = STANDARD, engine: str = PYTHON) -> None:
        if not (isinstance(num_envs, int) and num_envs >= 1):
            raise InputError(f"num_envs {excerpt(num_envs)}: expected a whole number >= 1")
        check_settings(players, seat, illegal, variant, render_mode, self.metadata["render_modes"])
        self.batched = batched_tables(engine, num_envs, players, seat, opponent, win_reward, illegal, max_moves,
                                      render_mode, variant)
        self.variant, self.engine = variant, engine
        self.num_envs, self.players, self.seat, self.illegal = num_envs, players, seat, illegal
        self.win_reward = float(win_reward)
        self.render_mode = render_mode
        chosen = strategy(opponent)
        self.tables = [] if self.batched is not None else [
            Seat(players, seat, chosen, max_moves, variant) for _ in range(num_envs)]
        self.generators: list[np.random.Generator | None] = [None] * num_envs  # each table's, as an Env's np_random
        self.single_observation_space, self.single_action_space = seat_spaces(players, variant)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.fields = len(observation_bounds(players, variant)[0])
        self._masks = np.zeros((num_envs, self.single_action_space.n), dtype=np.int8)
        self._ended = np.zeros(num_envs, dtype=bool)  # the tables to reset on the next step

    def _new_game(self, index: int, seed: int | None) -> int:
        """Reset table `index` to the game of `seed` (or of its generator's next seed); that game's seed."""
        if seed is not None or self.generators[index] is None:
            self.generators[index] = seeding.np_random(seed)[0]
        game = game_seed(seed, self.generators[index])  # type: ignore[arg-type]
        self.tables[index].reset(game)
        return game

    def _observe(self) -> dict[str, np.ndarray]:
        """Every table's observation from the seat, encoded in one array, and the masks computed from them."""
        seat, count = self.seat, self.num_envs * self.fields
        values = chain.from_iterable(observation_values(table.table, seat) for table in self.tables)
        observations = np.fromiter(values, dtype=np.int16, count=count).reshape(self.num_envs, self.fields)
        self._masks = legal_masks(observations, self.players, self.variant)
        return {"observation": observations, "action_mask": self._masks}

    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """New games on every table (or those of `options["reset_mask"]`).

        Seed S gives table i seed S + i, a list one seed per table, None each table's next seed; info
        `seed` says which game each plays. With `engine="batched"`, `AzulBatchedEnv.reset`: S seeds the one
        generator of every table's chance and opponents (a list is refused), and the info is empty.
        """
        if self.batched is not None:
            return self.batched.reset(seed=seed, options=options)  # type: ignore[arg-type]
        super().reset(seed=seed if isinstance(seed, int) else None)
        if seed is None or isinstance(seed, int):
            seeds: list[int | None] = [None if seed is None else seed + index for index in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise InputError(f"reset: {len(seeds)} seeds for {self.num_envs} tables")
        chosen = (options or {}).get("reset_mask", np.ones(self.num_envs, dtype=bool))
        if not (isinstance(chosen, np.ndarray) and chosen.shape == (self.num_envs,) and chosen.dtype == bool):
            raise InputError(f"reset: options['reset_mask'] must be a bool array of shape ({self.num_envs},)")
        games = np.zeros(self.num_envs, dtype=np.int64)
        for index in np.flatnonzero(chosen):
            games[index] = self._new_game(int(index), seeds[index])
        self._ended[chosen] = False
        return self._observe(), {"seed": games, "_seed": chosen.copy()}

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One action per table (ignored on a table that ended on the last step: it starts its next game)."""
        if self.batched is not None:
            return self.batched.step(actions)
        actions = np.asarray(actions).reshape(self.num_envs)
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        terminations = np.zeros(self.num_envs, dtype=bool)
        truncations = np.zeros(self.num_envs, dtype=bool)
        illegal = np.zeros(self.num_envs, dtype=bool)
        masks, win_reward = self._masks, self.win_reward
        for index, (table, action, ended) in enumerate(zip(self.tables, actions.tolist(), self._ended.tolist())):
            if ended:
                self._new_game(index, None)
            elif not (0 <= action < masks.shape[1] and masks[index, action]):
                if self.illegal == "raise":
                    raise InputError(f"table {index}: action {action} is not legal for player_{self.seat} now")
                rewards[index], terminations[index], illegal[index] = -win_reward, True, True
            else:
                rewards[index] = table.play(ACTION_MOVES[self.players][action]) + table.win_signal(win_reward)
                terminations[index], truncations[index] = table.table.over, table.truncated
        self._ended = terminations | truncations
        infos: dict[str, Any] = {"scores": np.array([table.table.scores for table in self.tables]),
                                 "_scores": np.ones(self.num_envs, dtype=bool)}
        if illegal.any():
            infos["illegal"], infos["_illegal"] = illegal, illegal.copy()
        return self._observe(), rewards, terminations, truncations, infos

    def render(self) -> tuple[str, ...] | None:
        """Every table as text ("ansi")."""
        if self.batched is not None:
            return self.batched.render()
        texts = [render_text(table.state, self.render_mode) for table in self.tables]
        return None if None in texts else tuple(text for text in texts if text is not None)


def batched_tables(engine: str, num_envs: int, players: int, seat: int, opponent: str | Strategy,
                   win_reward: float, illegal: str, max_moves: int, render_mode: str | None,
                   variant: str) -> AzulBatchedEnv | None:
    """The `AzulBatchedEnv` an `AzulVectorEnv` of `engine="batched"` steps (None for `engine="python"`).

    InputError for an engine not in ENGINES, and for the batched rules asked for what they do not play: the
    grey wall, or an opponent other than `random` (played in law: the batched rules draw their own chance).
    """
    if engine not in ENGINES:
        raise InputError(f"engine {excerpt(engine)}: expected one of {', '.join(ENGINES)}")
    if engine == PYTHON:
        return None
    if variant != STANDARD:
        raise InputError(f"engine='batched' plays the coloured wall only, not {excerpt(variant)}")
    if opponent != RANDOM:
        raise InputError(f"engine='batched' plays the opponent 'random' only, not {excerpt(opponent)}")
    return AzulBatchedEnv(num_envs, players, seat, win_reward, illegal, max_moves, render_mode, variant, RANDOM)


def parallel_env(players: int = 2, **options: Any) -> ParallelEnv:
    """`AzulEnv(players, **options)` as a PettingZoo ParallelEnv.

    A step plays the action given for the seat to move (`infos[agent]["active_agent"]` names it; its mask is
    the only one not all 0) and ignores the others.
    """
    return turn_based_aec_to_parallel(AzulEnv(players, **options))
