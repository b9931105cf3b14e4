"""Azul speed: random-feasible games per CPU second on each back end's rules, and their ratios.

Run: .venv/bin/python bench/azul.py [GAMES]  (not a test; prints one table measured in one run)
"""

from __future__ import annotations

import sys
import time

from pysolve.azul.game import play_game

KANREN_GAMES = 5


def rate(players: int, backend: str, games: int) -> tuple[float, float]:
    """(games per CPU second, games per wall second) for `games` seeded games."""
    cpu, wall = time.process_time(), time.perf_counter()
    for seed in range(games):
        play_game(players, seed, backend)
    return games / (time.process_time() - cpu), games / (time.perf_counter() - wall)


def main() -> None:
    """Measure every back end at 2 and 4 players and print rates and ratios."""
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    play_game(2, 0, "prolog")  # start SWI-Prolog and load the rules outside the timing
    print(f"{'players':>7} {'backend':>7} {'games':>6} {'games/s cpu':>12} {'games/s wall':>13} {'vs python':>10}")
    for players in (2, 4):
        measured = {}
        for backend in ("python", "prolog", "kanren"):
            count = KANREN_GAMES if backend == "kanren" else games
            measured[backend] = rate(players, backend, count)
            cpu, wall = measured[backend]
            ratio = measured["python"][0] / cpu
            print(f"{players:>7} {backend:>7} {count:>6} {cpu:>12.1f} {wall:>13.1f} {ratio:>9.1f}x")


if __name__ == "__main__":
    main()
