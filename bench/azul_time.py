"""Azul search players at a time per move: playouts per CPU second on each engine, and small seat-rotated matches.

Run: .venv/bin/python bench/azul_time.py [speed]
     .venv/bin/python bench/azul_time.py match GAMES PLAYER OPPONENT...   (not a test; prints what one run measured)

`speed`: playouts alone (the search's playout from the first decision of
seed 1's two-player game to the round's end) and MCTS iterations (one
playout each) per CPU second, for each playout policy and tree width, on
each engine the search runs on: `State`s on the Python rules and on the
miniKanren rules, and the packed `Offer` the default search plays a
standard round on (a Prolog game is searched on the Python rules: its
engine holds no `State`). `match`: PLAYER (a strategy, or a number of
seconds: `mcts:SECONDSs`, the default search player at a time per move)
against each OPPONENT, GAMES games each on the Python rules, seeds 1000..,
seats swapped every game, Wilson 95 % intervals. A time per move counts
the CPU time of the searching thread, so a loaded machine makes a match
slower, not its players weaker.
"""

from __future__ import annotations

import random
import sys
import time

from pysolve.azul import search_players
from pysolve.azul import tournament as tour
from pysolve.azul.kanren import KanrenEngine
from pysolve.azul.match import MatchResult
from pysolve.azul.model import RandomStream
from pysolve.azul.offer import Offer
from pysolve.azul.python import PythonEngine
from pysolve.azul.search_players import Mcts, Position
from pysolve.azul.tree import Game, State

WIDTH = search_players.WIDTH
SEARCHES = [("random", 0), ("greedy", 0), ("random", WIDTH), ("greedy", WIDTH)]  # the last: the default
ENGINES = [("python", PythonEngine(), False), ("kanren", KanrenEngine(), False), ("packed", PythonEngine(), True)]
ITERATIONS = {"python": 2000, "kanren": 40, "packed": 5000}
PROGRESS = 50  # games between a match's running counts


def first_decision(engine: PythonEngine) -> State:
    """The first decision of seed 1's two-player game on `engine`."""
    state, stream = Game(2, engine).new_initial_state(), RandomStream(1)
    while state.is_chance_node:
        state.apply_chance(state.sample_chance(stream))
    return state


def playouts_per_second(player: Mcts, root: State, packed: bool, count: int) -> float:
    """Playouts alone (`player`'s policy from `root` to the round's end, on an Offer or on `root`'s State) per
    CPU second."""
    start: Position = Offer(root) if packed else root
    generator = random.Random(1)
    cpu = time.process_time()
    for _ in range(count):
        player._play_out(start, generator)  # the bench times the search's own playout
    return count / (time.process_time() - cpu)


def speed_table() -> None:
    """Playouts alone and MCTS iterations (a playout each) per CPU second by playout and width, on each engine:
    the Python rules' State, the miniKanren rules' State, and the packed Offer the default search plays on."""
    print("| engine | playout | tree width | playouts/s (CPU) | iterations/s (CPU) |")
    print("|---|---|---|---|---|")
    for name, engine, packed in ENGINES:
        root = first_decision(engine)
        for playout, width in SEARCHES:
            count = ITERATIONS[name]
            player = Mcts(iterations=count, playout=playout, width=width, packed=packed)
            alone = playouts_per_second(player, root, packed, count)
            cpu = time.process_time()
            player.search(root, random.Random(1))
            rate = count / (time.process_time() - cpu)
            print(f"| {name} | {playout} | {width or 'all'} | {alone:.0f} | {rate:.0f} |", flush=True)


def match(first: str, second: str, games: int) -> None:
    """`first` against `second` over `games` seat-rotated games (seeds 1000..): one line of both standings, and
    the CPU seconds the whole match took."""
    cpu = time.process_time()
    won: list[bool] = []

    def progress(result: MatchResult) -> None:  # a running count on stderr every PROGRESS games
        won.append(result.strategies.index(first) in result.winners)
        if len(won) % PROGRESS == 0:
            print(f"{first} against {second}: {sum(won)} of {len(won)}", file=sys.stderr, flush=True)

    results = tour.run(tour.tasks(2, games, 1000, "python", [first, second]), progress=progress)
    rows = {row["strategy"]: row for row in tour.summarise(results)["strategies"]}
    mine, theirs = rows[first], rows[second]
    low, high = mine["win_ci95"]
    print(f"| {first} | {second} | {games} | {mine['wins']} | {mine['win_rate']:.3f} | {low:.3f} .. {high:.3f} | "
          f"{mine['mean_score']:.1f} | {theirs['mean_score']:.1f} | {time.process_time() - cpu:.0f} |", flush=True)


def main() -> None:
    """`speed` (or nothing, as `make bench` runs it): the speed table; `match GAMES PLAYER OPPONENT...`:
    PLAYER (a strategy, or SECONDS for mcts:SECONDSs) against each opponent."""
    if sys.argv[1:] in ([], ["speed"]):
        speed_table()
        return
    if sys.argv[1:2] != ["match"] or len(sys.argv) < 5:
        sys.exit("usage: azul_time.py [speed] | match GAMES PLAYER OPPONENT...")
    games, player = int(sys.argv[2]), sys.argv[3]
    if player.replace(".", "", 1).isdecimal():
        player = f"mcts:{player}s"
    print("| strategy | against | games | wins | win rate | 95 % interval | mean score | opponent's | CPU s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for opponent in sys.argv[4:]:
        match(player, opponent, games)


if __name__ == "__main__":
    main()
