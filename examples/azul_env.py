"""Azul through the PettingZoo environment: a random agent against a small MCTS agent, then the Gymnasium wrapper.

Run: `python examples/azul_env.py [SEED]` (needs `pip install pysolve[rl]`).
The random agent reads only its observation's action mask. The MCTS agent
(`mcts:200`, the strategy of `pysolve azul simulate`) searches the full
position, which it takes from `env.state`, and draws its own random numbers
from the environment's seeded stream, so a seed gives the same game.
"""

from __future__ import annotations

import sys
import time

import numpy as np

from pysolve.azul.env import AzulEnv, AzulGymEnv, action_index, action_move
from pysolve.azul.model import describe_move
from pysolve.azul.strategies import strategy


def pettingzoo_game(seed: int) -> None:
    """player_0 random, player_1 mcts:200, through the AEC cycle; prints the rewards each agent collected."""
    env = AzulEnv(players=2, render_mode="ansi")
    env.reset(seed=seed)
    picker = np.random.default_rng(seed)
    mcts = strategy("mcts:200")
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        totals[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        if agent == "player_0":
            action = int(picker.choice(np.flatnonzero(observation["action_mask"])))
        else:
            state = env.state
            action = action_index(mcts(state.to_json(), state.legal_moves(), env.stream), env.players)
        env.step(action)
    print(env.render())
    print(f"PettingZoo: scores {env.state.returns()}, winners {env.state.winners()}, "
          f"rewards collected {totals} (score + 1 for a win, - 1 for a loss)")


def gymnasium_game(seed: int) -> None:
    """The Gymnasium wrapper: seat 0 picks random legal actions, the other seat plays greedy."""
    env = AzulGymEnv(players=2, seat=0, opponent="greedy")
    observation, info = env.reset(seed=seed)
    picker = np.random.default_rng(seed)
    total, steps, done = 0.0, 0, False
    while not done:
        action = int(picker.choice(np.flatnonzero(observation["action_mask"])))
        if steps == 0:
            print(f"Gymnasium: first action {action} = {describe_move(action_move(action, 2))}")
        observation, reward, terminated, truncated, info = env.step(action)
        total, steps, done = total + reward, steps + 1, terminated or truncated
    print(f"Gymnasium: {steps} steps against greedy, return {total}, scores {info['scores']}")


if __name__ == "__main__":
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    started = time.process_time()
    pettingzoo_game(seed)
    gymnasium_game(seed)
    print(f"{time.process_time() - started:.2f} CPU seconds")
