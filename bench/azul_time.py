"""Azul search players at a time per move: playouts per CPU second on each engine, and small seat-rotated matches.

Run: .venv/bin/python bench/azul_time.py [GAMES] [SECONDS]  (not a test; prints what one run measured)

First the search speed: MCTS iterations (one playout each) per CPU second
from the first decision of seed 1's two-player game, for each playout
policy and tree width, on the Python and the miniKanren rules (a Prolog
game is searched on the Python rules). Then `mcts:SECONDSs` (the default
search player at a time per move) against the old defaults at the same
time (`mcts:SECONDSs:random:w0`: random playouts, every move kept),
mcts:1000 as it was before (`mcts:1000:random:w0`), and lookahead: GAMES
games each on the Python rules, seeds 1000.., seats swapped every game,
Wilson 95 % intervals. A time per move is wall-clock time, so on a loaded
machine every timed player searches less.
"""

from __future__ import annotations

import random
import sys
import time

from pysolve.azul import search
from pysolve.azul import tournament as tour
from pysolve.azul.kanren import KanrenEngine
from pysolve.azul.model import RandomStream
from pysolve.azul.python import PythonEngine
from pysolve.azul.search import Mcts
from pysolve.azul.tree import Game, State

SEARCHES = [("random", 0), ("greedy", 0), ("random", search.WIDTH), ("greedy", search.WIDTH)]  # the last: the default
ITERATIONS = {"python": 1000, "kanren": 40}


def first_decision(engine: PythonEngine) -> State:
    """The first decision of seed 1's two-player game on `engine`."""
    state, stream = Game(2, engine).new_initial_state(), RandomStream(1)
    while state.is_chance_node:
        state.apply_chance(state.sample_chance(stream))
    return state


def speed_table() -> None:
    """MCTS iterations per CPU second by playout and width, on each engine."""
    print(f"{'engine':>7} {'playout':>8} {'width':>6} {'iterations/s cpu':>17}")
    for name, engine in (("python", PythonEngine()), ("kanren", KanrenEngine())):
        root = first_decision(engine)
        for playout, width in SEARCHES:
            count = ITERATIONS[name]
            cpu = time.process_time()
            Mcts(iterations=count, playout=playout, width=width).search(root, random.Random(1))
            print(f"{name:>7} {playout:>8} {width or 'all':>6} {count / (time.process_time() - cpu):>17.1f}")


def match(first: str, second: str, games: int) -> None:
    """`first` against `second` over `games` seat-rotated games: one line of both standings."""
    results = tour.run(tour.tasks(2, games, 1000, "python", [first, second]))
    rows = {row["strategy"]: row for row in tour.summarise(results)["strategies"]}
    mine, theirs = rows[first], rows[second]
    low, high = mine["win_ci95"]
    print(f"| {first} | {second} | {games} | {mine['wins']} | {mine['win_rate']:.3f} | {low:.3f} .. {high:.3f} | "
          f"{mine['mean_score']:.1f} | {theirs['mean_score']:.1f} |", flush=True)


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    seconds = sys.argv[2] if len(sys.argv) > 2 else "1"
    speed_table()
    print("\n| strategy | against | games | wins | win rate | 95 % interval | mean score | opponent's |")
    print("|---|---|---|---|---|---|---|---|")
    for opponent in (f"mcts:{seconds}s:random:w0", "mcts:1000:random:w0", "lookahead"):
        match(f"mcts:{seconds}s", opponent, games)


if __name__ == "__main__":
    main()
