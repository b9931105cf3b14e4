"""Azul environment speed: steps per CPU second of the single-seat env and the vector env, and what a step costs.

Run: .venv/bin/python bench/azul_env.py [STEPS]  (not a test; every rate is the best of three equal parts,
in CPU seconds of this process; the machine may be shared)

A step is one move of the learning seat and the moves of the other seats up
to its next turn (the opponents play `random`, the cheapest strategy, so the
figures measure the environment), with the chance in between; the learning
seat picks a uniformly random legal action from its mask.

1. The single-seat Gymnasium env (`AzulGymEnv`), 2 to 4 players; and the
   PettingZoo AEC env (`AzulEnv`), whose step is one move of any seat.
2. The vector env (`AzulVectorEnv`) at N = 1, 8, 64 tables, steps of all
   tables counted, against Gymnasium's own `SyncVectorEnv` over `AzulGymEnv`
   (the same games), and the ratio to the single env; then the batched env
   (`AzulBatchedEnv`: the rules in numpy over all the tables, its opponents
   uniformly random legal) at N = 8, 64, 256 with 2 players and N = 64 with 3
   and 4; and the vector env on those rules (`AzulVectorEnv(engine="batched")`,
   the `random` strategy's opponents: `AzulBatchedEnv(opponent="random")`) at
   N = 8, 64 with 2 players and N = 64 with 3 and 4.
3. The cost of a step broken down (legal moves of the other seats, moves
   applied with their deals, observation encoding, mask), on the Python
   engine (the environments' path, a bare `Table`) and the Prolog engine
   (the same step through the `Engine` protocol: each legal-move list, move
   and state a bridge query; the state exported, then encoded). The
   instrumented loop costs more than the plain one (a clock read around each
   part): its shares are the figures to read. Then the batched env's
   table-step at N = 64 split by part of its rules (moves, opponents'
   choices, round ends and the test that a game may still end, deals, poured
   lids, new games, observations, masks), and the vector env's into
   observations and masks and the rest.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from gymnasium.vector import SyncVectorEnv

from pysolve.azul.batched import AzulBatchedEnv
from pysolve.azul.env import ACTION_MOVES, AzulEnv, AzulGymEnv, legal_masks, moves_mask, observation_values
from pysolve.azul.match import engine
from pysolve.azul.model import STANDARD, RandomStream
from pysolve.azul.seeded import random_feasible
from pysolve.azul.vector import AzulVectorEnv
from pysolve.backends import available

REPEATS = 3
PHASES = ("legal moves", "apply", "observation", "mask", "choice")


def best_rate(steps: int, run: Callable[[int], int]) -> float:
    """Steps per CPU second of `run(count) -> steps done`, the best of REPEATS parts of `steps // REPEATS`."""
    best = 0.0
    for _ in range(REPEATS):
        started = time.process_time()
        done = run(steps // REPEATS)
        best = max(best, done / (time.process_time() - started))
    return best


def single_env(players: int) -> Callable[[int], int]:
    """`count` steps of an `AzulGymEnv` (random opponents), random legal actions, new games as they end."""
    env = AzulGymEnv(players, opponent="random")
    observation, _ = env.reset(seed=1)
    uniform = np.random.default_rng(0).random(10**6).tolist()

    def run(count: int) -> int:
        nonlocal observation
        for index in range(count):
            legal = np.flatnonzero(observation["action_mask"])
            observation, _, terminated, truncated, _ = env.step(int(legal[int(uniform[index] * len(legal))]))
            if terminated or truncated:
                observation, _ = env.reset()
        return count

    return run


def aec_env(players: int) -> Callable[[int], int]:
    """`count` moves through the PettingZoo AEC cycle of `AzulEnv` (every seat random legal), games as they end."""
    env = AzulEnv(players)
    env.reset(seed=1)
    uniform = np.random.default_rng(0).random(10**6).tolist()

    def run(count: int) -> int:
        for index in range(count):
            if not env.agents:
                env.reset()
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[int(uniform[index] * len(legal))]))
        return count

    return run


def pick(masks: np.ndarray, uniform: np.ndarray) -> np.ndarray:
    """One uniformly random legal action per row (0 where none: a table starting its next game)."""
    cumulative = masks.cumsum(axis=1, dtype=np.int32)
    totals = cumulative[:, -1]
    wanted = (uniform * totals).astype(np.int32)
    return np.where(totals > 0, (cumulative <= wanted[:, None]).sum(axis=1), 0)


def vector_env(env: Any, tables: int) -> Callable[[int], int]:
    """`count` table-steps of a vector env of `tables` tables (count // tables vector steps), random legal actions."""
    observation, _ = env.reset(seed=1)
    generator = np.random.default_rng(0)

    def run(count: int) -> int:
        nonlocal observation
        rounds = max(count // tables, 1)
        for _ in range(rounds):
            observation, *_ = env.step(pick(observation["action_mask"], generator.random(tables)))
        return rounds * tables

    return run


def environments(steps: int) -> None:
    """Section 1 and 2: single env by player count, vector env by N against SyncVectorEnv."""
    print(f"{'environment':<34} {'tables':>6} {'steps/s cpu':>12} {'per table-step':>15} {'vs single':>10}")
    single: dict[int, float] = {}
    for players in (2, 3, 4):
        single[players] = best_rate(steps, single_env(players))
        print(f"{f'AzulGymEnv, {players} players':<34} {1:>6} {single[players]:>12,.0f} "
              f"{1e6 / single[players]:>12.1f} us {1.0:>9.2f}x")
    aec = best_rate(steps, aec_env(2))
    print(f"{'AzulEnv (AEC: a step is one move)':<34} {1:>6} {aec:>12,.0f} {1e6 / aec:>12.1f} us "
          f"{aec / single[2]:>9.2f}x")
    for tables in (1, 8, 64):
        rate = best_rate(steps, vector_env(AzulVectorEnv(tables, 2), tables))
        print(f"{'AzulVectorEnv, 2 players':<34} {tables:>6} {rate:>12,.0f} {1e6 / rate:>12.1f} us "
              f"{rate / single[2]:>9.2f}x")
    for tables in (8, 64):
        reference = SyncVectorEnv([lambda: AzulGymEnv(2, opponent="random")] * tables)
        rate = best_rate(steps, vector_env(reference, tables))
        print(f"{'SyncVectorEnv(AzulGymEnv), 2 pl.':<34} {tables:>6} {rate:>12,.0f} {1e6 / rate:>12.1f} us "
              f"{rate / single[2]:>9.2f}x")
    for players, tables in ((2, 8), (2, 64), (2, 256), (3, 64), (4, 64)):
        rate = best_rate(steps, vector_env(AzulBatchedEnv(tables, players), tables))
        print(f"{f'AzulBatchedEnv, {players} players':<34} {tables:>6} {rate:>12,.0f} {1e6 / rate:>12.1f} us "
              f"{rate / single[players]:>9.2f}x")
    for players, tables in ((2, 8), (2, 64), (3, 64), (4, 64)):
        rate = best_rate(steps, vector_env(AzulVectorEnv(tables, players, engine="batched"), tables))
        print(f"{f'AzulVectorEnv batched, {players} pl.':<34} {tables:>6} {rate:>12,.0f} {1e6 / rate:>12.1f} us "
              f"{rate / single[players]:>9.2f}x")


def timed_steps(backend: str, steps: int, players: int = 2) -> tuple[dict[str, float], int, int]:
    """`steps` single-seat steps on `backend`'s engine, each part timed: (CPU seconds by part, steps, moves).

    The parts of `AzulGymEnv.step` on the Python engine: every legal-move list (the other seats' and the
    learning seat's, for its mask), every move applied with the deals it leads to, the observation encoded,
    the mask made from the learning seat's list, the choices. On Prolog the same, each list, move and state
    a query, and the state exported (then read into a table and encoded) for the observation.
    """
    rules, python = engine(backend), engine("python")
    timers = dict.fromkeys(PHASES, 0.0)
    clock = time.process_time
    chooser = random.Random(0)
    moves = done = 0
    game = 1
    while done < steps:
        stream = RandomStream(game)
        handle = rules.new_game(players, stream.below(players), stream, STANDARD)
        while rules.turn(handle) >= 0 and done < steps:
            start = clock()
            legal = rules.legal_moves(handle)
            listed = clock()
            timers["legal moves"] += listed - start
            if rules.turn(handle) == 0:  # the learning seat: its observation and mask, then its action
                table = handle if backend == "python" else python.load(rules.export(handle))
                np.fromiter(observation_values(table, 0), dtype=np.int16)
                observed = clock()
                mask = moves_mask(legal, players)
                masked = clock()
                actions = np.flatnonzero(mask)
                move = ACTION_MOVES[players][int(actions[chooser.randrange(len(actions))])]
                timers["observation"] += observed - listed
                timers["mask"] += masked - observed
                done += 1
            else:
                masked = listed
                move = random_feasible({}, legal, stream)
            chosen = clock()
            timers["choice"] += chosen - masked
            rules.play(handle, move, stream)
            timers["apply"] += clock() - chosen
            moves += 1
        rules.close(handle)
        game += 1
    return timers, done, moves


def breakdown(steps: int) -> None:
    """Section 3: a step's parts on each engine, in microseconds per step and shares; then the vector env's."""
    backends = ["python"] + (["prolog"] if available("prolog") else [])
    print(f"\n{'engine':<7} {'steps':>6} {'moves/step':>10} " + " ".join(f"{phase:>13}" for phase in PHASES)
          + f" {'total us/step':>14} {'vs python':>10}")
    totals: dict[str, float] = {}
    for backend in backends:
        timers, done, moves = timed_steps(backend, steps if backend == "python" else max(steps // 50, 100))
        totals[backend] = sum(timers.values()) / done * 1e6
        shares = " ".join(f"{timers[phase] / done * 1e6:>7.1f} {timers[phase] / sum(timers.values()):>4.0%}"
                          for phase in PHASES)
        print(f"{backend:<7} {done:>6} {moves / done:>10.2f} {shares} {totals[backend]:>14.1f} "
              f"{totals[backend] / totals['python']:>9.1f}x")
    print("(each part: microseconds per step, then its share of the step)")
    vector_parts(steps)


def vector_parts(steps: int, tables: int = 64) -> None:
    """The vector env at `tables` tables: a table-step's microseconds in all, in encoding all observations at
    once, in the batched masks, and the rest (the tables' moves, deals and the loop over them); then the batched
    env's."""
    batched_parts(steps, tables)
    env = AzulVectorEnv(tables, 2)
    total = 1e6 / best_rate(steps, vector_env(env, tables))
    rounds = max(steps // tables // REPEATS, 1)
    started = time.process_time()
    for _ in range(rounds):
        observations = env._observe()["observation"]
    encoded = time.process_time()
    for _ in range(rounds):
        legal_masks(observations, 2)
    masked = time.process_time()
    encoding = (encoded - started) / rounds / tables * 1e6
    masks = (masked - encoded) / rounds / tables * 1e6
    print(f"\nAzulVectorEnv, {tables} tables: {total:.1f} us a table-step: observations and masks "
          f"{encoding:.1f} us (of which the batched masks {masks:.1f} us), the tables' moves, deals and loop "
          f"{total - encoding:.1f} us")


BATCHED_PARTS = {"_apply": "moves applied", "random_actions": "opponents' choices", "end_round": "round ends",
                 "may_end": "the test that a game may still end", "_deal": "deals", "_shuffle": "lids poured",
                 "new_games": "new games", "observations": "observations", "seat_masks": "masks"}


def batched_parts(steps: int, tables: int) -> None:
    """The batched env at `tables` tables: a table-step's microseconds in all (the plain loop), then in each
    part of the rules, timed inside the step (each method of the env's `Tables` wrapped with a clock on the
    instance; a part's time excludes the parts it calls), the rest being the step's bookkeeping, its loops and
    the agent's choice. The timing costs its own share: the parts' sum is above the plain step."""
    env = AzulBatchedEnv(tables, 2)
    total = 1e6 / best_rate(steps, vector_env(env, tables))
    spent = dict.fromkeys(BATCHED_PARTS, 0.0)
    inside: list[str] = []  # the parts running, innermost last

    def timed(name: str, method: Callable[..., Any]) -> Callable[..., Any]:
        def run(*arguments: Any) -> Any:
            started = time.process_time()
            inside.append(name)
            try:
                return method(*arguments)
            finally:
                inside.pop()
                elapsed = time.process_time() - started
                spent[name] += elapsed
                if inside:
                    spent[inside[-1]] -= elapsed

        return run

    for name in BATCHED_PARTS:
        setattr(env.tables, name, timed(name, getattr(env.tables, name)))
    run = vector_env(env, tables)
    started = time.process_time()
    done = run(steps)
    elapsed = time.process_time() - started
    parts = ", ".join(f"{label} {spent[name] / done * 1e6:.2f} us" for name, label in BATCHED_PARTS.items())
    rest = (elapsed - sum(spent.values())) / done * 1e6
    print(f"\nAzulBatchedEnv, {tables} tables: {total:.1f} us a table-step; timed by part ({elapsed / done * 1e6:.1f} "
          f"us): {parts}, the step's bookkeeping, loops and the agent's choice {rest:.2f} us")


def main() -> None:
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 30_000
    environments(steps)
    breakdown(steps // 3)


if __name__ == "__main__":
    main()
