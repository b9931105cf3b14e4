"""Azul search players: seeded two-player tournaments with seat rotation and 95 % intervals, and time per move.

Run: .venv/bin/python bench/azul_players.py [GAMES] [WORKERS]  (not a test; prints what one run measured)

Each match is GAMES games on the Python rules, seeds 1000.., the two
strategies swapping seats every game; win rates carry Wilson 95 % intervals
(a shared win counts for both). Time per move is CPU time of the strategy's
decision alone, over every decision it made in a few seeded games.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Mapping
from typing import Any

from pysolve import executors
from pysolve.azul import tournament as tour
from pysolve.azul.match import play_match
from pysolve.azul.model import Move, RandomStream
from pysolve.azul.strategies import strategy

MATCHES = [("mcts:1000", "greedy"), ("mcts:1000", "lookahead"), ("mcts:1000", "minimax:3"),
           ("minimax:3", "greedy"), ("minimax:3", "lookahead"), ("mcts:200", "random")]
TIMED = ["greedy", "lookahead", "minimax:2", "minimax:3", "mcts:200", "mcts:1000", "mcts:1000:greedy", "mcts:0.2s"]
TIMING_GAMES = 2


def match(first: str, second: str, games: int, workers: int) -> dict[str, Any]:
    """`first` against `second` over `games` seat-rotated games: the standing of `first`."""
    with executors.executor(workers) as executor:
        results = tour.run(tour.tasks(2, games, 1000, "python", [first, second]), executor)
    standings = {row["strategy"]: row for row in tour.summarise(results)["strategies"]}
    return {**standings[first], "opponent": standings[second]}


def seconds_per_move(name: str) -> tuple[float, float, int]:
    """(mean, max) CPU seconds per decision of strategy `name` (against greedy), and the decisions timed."""
    player, times = strategy(name), []

    def timed(state: Mapping[str, Any], moves: list[Move], rng: RandomStream) -> Move:
        start = time.process_time()
        move = player(state, moves, rng)
        times.append(time.process_time() - start)
        return move

    for seed in range(TIMING_GAMES):
        play_match(2, 2000 + seed, "python", [timed, "greedy"] if seed % 2 == 0 else ["greedy", timed])
    return sum(times) / len(times), max(times), len(times)


def main() -> None:
    """Play every match, then time every strategy's decisions; print both tables."""
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    workers = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    print(f"two players, {games} games per match, seats rotated, seeds 1000..{999 + games}, python rules")
    print(f"{'strategy':>16} {'vs':>12} {'wins':>5} {'win rate':>9} {'95% CI':>15} {'mean score':>11} {'vs mean':>8}")
    for first, second in MATCHES:
        row = match(first, second, games, workers)
        low, high = row["win_ci95"]
        print(f"{first:>16} {second:>12} {row['wins']:>5} {row['win_rate']:>9.3f} {f'{low:.3f}..{high:.3f}':>15} "
              f"{row['mean_score']:>11.1f} {row['opponent']['mean_score']:>8.1f}", flush=True)
    print(f"\nCPU seconds per decision (over {TIMING_GAMES} games against greedy)")
    print(f"{'strategy':>16} {'mean':>8} {'max':>8} {'decisions':>10}")
    for name in TIMED:
        mean, most, count = seconds_per_move(name)
        print(f"{name:>16} {mean:>8.4f} {most:>8.4f} {count:>10}", flush=True)


if __name__ == "__main__":
    main()
